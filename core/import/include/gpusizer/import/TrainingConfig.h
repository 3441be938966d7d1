#pragma once
// Training configs people already wrote (Axolotl, LLaMA-Factory, torchtune, transformers / TRL with PEFT and
// bitsandbytes, accelerate, DeepSpeed, LitGPT) read into a scenario, with a report of every key used, every default
// taken and every key ignored (docs/import.md lists each key with its source).

#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/Result.h"
#include "gpusizer/scenario/Scenario.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpusizer::core {

enum class ConfigFormat {
    Axolotl,
    LlamaFactory,
    Torchtune,
    TrainingArguments, ///< transformers TrainingArguments / TRL SFTConfig as to_json_string() writes it
    PeftAdapter,       ///< PEFT adapter_config.json
    BitsAndBytes,      ///< a BitsAndBytesConfig as JSON
    ModelConfig,       ///< a Hugging Face config.json (its quantization_config is read too)
    Accelerate,        ///< accelerate's config YAML
    Deepspeed,         ///< a DeepSpeed JSON
    Litgpt,
    ArcticTraining, ///< snowflakedb/ArcticTraining's trainer YAML
    Verl,           ///< a verl PPO / GRPO launch script (`python3 -m verl.trainer.main_ppo key=value ...`) or its YAML
    OpenRlhf,       ///< an OpenRLHF launch script (`python3 -m openrlhf.cli.train_ppo_ray --key value ...`)
};
const char* toString(ConfigFormat f); ///< "axolotl", "llama-factory", "torchtune", "transformers", "peft", ...
std::optional<ConfigFormat> parseConfigFormat(std::string_view text);

/// One file of a run, as bytes; path names it in messages and anchors the relative paths it names.
struct ConfigFile {
    std::string path;
    std::string bytes;
    std::optional<ConfigFormat> format; ///< overrides detection from the content
};

/// One line of the import report.
struct ImportLine {
    enum class Kind {
        Used,      ///< a key of the file set a scenario field
        Defaulted, ///< the file left it out: the framework's default was taken
        Ignored,   ///< a key that does not change the estimate, or one GPU Sizer does not read
        Note,      ///< a consequence the user should know (packing, a conflict between files, an approximation)
    };
    Kind kind = Kind::Used;
    std::string file;  ///< the file (with line:column for a YAML key)
    std::string key;   ///< the key in the file ("lora_r", "zero_optimization.stage")
    std::string value; ///< the value read or taken, as text
    std::string field; ///< the scenario field it sets ("lora.rank"); empty when none
    Words why;         ///< Used / Defaulted: the source (file and version); Ignored / Note: the reason
};

struct ImportRequest {
    std::vector<ConfigFile> files;
    /// `tune run`-style overrides of the first file's keys: "batch_size=2", "model.lora_rank=16", "~compile".
    std::vector<std::string> overrides;
    /// The GPUs of the launch when no file says it (torchrun / tune run --nproc_per_node, deepspeed --num_gpus).
    std::optional<std::int64_t> gpus;
    /// The model's config.json when the id is not in the catalog (or to use instead of the catalog's).
    std::optional<ConfigFile> modelConfig;
    /// Reads a file a config names (Axolotl's deepspeed path, accelerate's deepspeed_config_file) at one of the places
    /// it may be: nullopt when nothing is there (the next place is tried), an error when something is but cannot be
    /// read. Unset: such references are an error.
    std::function<std::optional<Result<std::string>>(const std::string& path)> readReferenced;
};

struct ImportedRun {
    Scenario scenario;
    std::vector<ImportLine> lines;
    /// Each file read (including referenced ones) and the format it was read as.
    std::vector<std::pair<std::string, ConfigFormat>> files;
    /// The model id the configs name (a Hugging Face id, a torchtune builder, a LitGPT checkpoint folder).
    std::string modelName;
};

/// Error code of an import whose model is neither in the catalog nor given as a config.json: the caller asks the user
/// for the config.json and imports again with ImportRequest::modelConfig.
inline constexpr ErrorCode kModelConfigNeeded = ErrorCode::UnknownId;

/// Reads the files into one scenario. Errors name the file, line, column and key; unknown keys are report lines.
Result<ImportedRun> importTrainingConfigs(const ImportRequest& request, const Catalog& catalog);

/// The format a document's content says (nullopt: not a training config of a known format, or not parseable).
std::optional<ConfigFormat> detectConfigFormat(std::string_view bytes);

/// The catalog model a Hugging Face id names: the exact repository in an entry's sources, else the name after the
/// organisation (case-insensitive), else without a variant suffix (-hf, -Instruct, -chat, -it, -base, -SFT). nullptr
/// when none matches.
const ModelEntry* matchCatalogModel(const Catalog& catalog, std::string_view hfId);

/// The report as plain English text, one line per entry (the CLI, and the scenario's notes).
std::string importReportText(const ImportedRun& run);

} // namespace gpusizer::core
