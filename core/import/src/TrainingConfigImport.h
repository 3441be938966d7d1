#pragma once
// What the format mappers share: the run being assembled from several files, and a reader over one file that records
// every key it uses, every default it takes and, at the end, every key it left.

#include "ConfigDocument.h"
#include "gpusizer/import/TrainingConfig.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gpusizer::core::detail {

/// The run assembled from every file; the precision and the layout are decided at the end from what the files say
/// (the same bf16 switch means different dtypes under DeepSpeed, FSDP and a plain Trainer).
struct RunDraft {
    Scenario scenario;
    std::vector<ImportLine> lines;
    /// Who set a scenario field, to report a second file that disagrees.
    struct Setter {
        std::string file;
        std::string where;
        std::string value;
    };
    std::map<std::string, Setter> setBy;

    std::string modelName; ///< the id the configs name
    std::string modelWhere;
    std::optional<ConfigFile> modelConfig; ///< a config.json among the files

    // What decides the precision at the end.
    bool precisionFixed = false; ///< a format that names the dtype outright (torchtune dtype, LitGPT precision)
    std::string compute;         ///< "bf16", "fp16" or "" (none): the trainer's autocast / mixed-precision switch
    /// The trainer file set `compute`: its flag wins over accelerate's mixed_precision (transformers
    /// TrainingArguments.__post_init__ writes its own into ACCELERATE_MIXED_PRECISION).
    bool computeFromTrainer = false;
    std::string loadDtype = "fp32";     ///< the dtype the weights are loaded in
    std::string loadDtypeWhere;         ///< who said so
    bool trainableUpcastToFp32 = false; ///< LLaMA-Factory: trainable weights cast to fp32 (not pure_bf16)
    /// TRL's SFTTrainer casts the trainable parameters of a 4- or 8-bit model to bf16 (trl sft_trainer.py:1127-1130).
    bool sftQuantizedAdaptersBf16 = false;
    bool deepspeed = false;
    /// DeepSpeed's bf16 section keeps the master weights, gradients and Adam states in bf16 (both of its switches).
    bool deepspeedBf16Master = false;
    bool fsdp = false;
    std::optional<Method> method; ///< from the trainer file
    bool load4bit = false;
    bool load8bit = false;
    /// Axolotl's lora with load_in_4bit: PEFT's prepare_model_for_kbit_training casts the 16-bit base to fp32, except
    /// under DeepSpeed ZeRO-3 (decided once the DeepSpeed file is read).
    bool kbitCastToFp32 = false;
    std::optional<std::int64_t> gpus;        ///< the launch's processes (accelerate num_processes, LitGPT devices)
    bool gpusDefaulted = false;              ///< `gpus` is a framework default, which the launch's --gpus replaces
    std::optional<std::int64_t> globalBatch; ///< LitGPT train.global_batch_size: accumulation follows from it
    std::string globalBatchKey = "train.global_batch_size"; ///< the key that gave it, for the report
    /// A file a config names (the DeepSpeed JSON of Axolotl, LLaMA-Factory, the Trainer or accelerate): the places it
    /// may be, in the order tried, and who named it.
    struct Reference {
        std::vector<std::string> candidates;
        std::string namedAt;
    };
    std::vector<Reference> references;

    /// Records that `field` was set from `where` to `value`; a note when another file set it differently before.
    void provenance(const std::string& field, const std::string& file, const std::string& where,
                    const std::string& value);
    void note(const std::string& file, const std::string& key, Words why);
};

/// One file being read by a format's mapper.
class KeyReader {
public:
    KeyReader(const ConfigDocument& doc, RunDraft& run) : m_doc(doc), m_run(run) {}

    const ConfigDocument& doc() const { return m_doc; }
    RunDraft& run() { return m_run; }
    bool has(const std::string& key) const;
    /// The value at `key` (nullptr when absent or null), not marked as read: a hint, reported with the unread keys.
    const nlohmann::json* peek(const std::string& key) const { return raw(key); }
    /// The value at `key` (nullptr when absent or null), marked as read.
    const nlohmann::json* value(const std::string& key);

    /// A key the file has, or the framework's default when it does not: the value, and a report line (Used with the
    /// source, or Defaulted with the source of the default). nullopt when absent and there is no default.
    Result<std::optional<bool>> flag(const std::string& key, const char* field, const char* source,
                                     std::optional<bool> fallback = std::nullopt);
    Result<std::optional<std::int64_t>> integer(const std::string& key, const char* field, const char* source,
                                                std::int64_t min, std::int64_t max,
                                                std::optional<std::int64_t> fallback = std::nullopt);
    Result<std::optional<double>> number(const std::string& key, const char* field, const char* source, double min,
                                         double max, std::optional<double> fallback = std::nullopt);
    Result<std::optional<std::string>> text(const std::string& key, const char* field, const char* source,
                                            std::optional<std::string> fallback = std::nullopt);
    /// A list of strings (a YAML list, or one string: "q_proj,v_proj" split at commas).
    Result<std::optional<std::vector<std::string>>> list(const std::string& key, const char* field, const char* source);

    /// A key read but not used in the way it reads (an approximation, a value the estimate cannot follow).
    void noteKey(const std::string& key, Words why);
    /// A key that says nothing GPU Sizer sizes, with the reason.
    void ignore(const std::string& key, Words why);
    Error error(const std::string& key, Words why) const;
    /// Report lines for every key not read (a whole section at once when none of its keys was read).
    void reportUnread();

private:
    void used(const std::string& key, const std::string& value, const char* field, const char* source);
    void defaulted(const std::string& key, const std::string& value, const char* field, const char* source);
    const nlohmann::json* raw(const std::string& key) const;

    const ConfigDocument& m_doc;
    RunDraft& m_run;
    std::set<std::string> m_read;
};

/// A value as the report shows it (strings without quotes).
std::string shown(const nlohmann::json& v);

// The mappers, one a format (formats/*.cpp: each walks its key tables).
Result<void> readAxolotl(KeyReader& r);
Result<void> readLlamaFactory(KeyReader& r);
Result<void> readTorchtune(KeyReader& r);
Result<void> readTrainingArguments(KeyReader& r);
Result<void> readPeftAdapter(KeyReader& r);
Result<void> readBitsAndBytes(KeyReader& r, const std::string& prefix);
Result<void> readAccelerate(KeyReader& r);
/// What a DeepSpeed config that leaves zero_optimization's stage or buckets out gets: DeepSpeed's own defaults, or
/// those a launcher writes in their place (ArcticTraining's build_deepspeed_config).
struct ZeroDefaults {
    std::int64_t stage = 0;
    double reduceBucket = 5e8; ///< elements; 0: the hidden-size rule
    double prefetchBucket = 5e7;
    const char* stageSource = "DeepSpeed @edaa7221 deepspeed/runtime/zero/config.py:95";
    const char* bucketSource = "DeepSpeed @edaa7221 deepspeed/runtime/zero/config.py:113 reduce_bucket_size 5e8, "
                               ":215 stage3_prefetch_bucket_size 5e7";
};
Result<void> readDeepspeed(KeyReader& r, const std::string& prefix, const ZeroDefaults& defaults = {});
Result<void> readLitgpt(KeyReader& r);
Result<void> readArcticTraining(KeyReader& r);
/// verl's PPO / GRPO trainer (volcengine/verl main_ppo): its Hydra keys from a launch script or a YAML.
Result<void> readVerl(KeyReader& r);
/// OpenRLHF's trainers (openrlhf.cli.train_ppo_ray, train_dpo, train_sft): their argparse options from a launch script.
Result<void> readOpenRlhf(KeyReader& r);
/// FSDP settings as accelerate's fsdp_config keys (accelerate YAML, Axolotl and the Trainer's fsdp_config).
Result<void> readFsdpConfig(KeyReader& r, const std::string& prefix, const char* source);
/// Optimizer names of transformers' OptimizerNames (Axolotl, LLaMA-Factory and the Trainer share them).
Result<void> applyHfOptimizer(KeyReader& r, const std::string& key, const std::string& name);
/// A config file named inside another (a DeepSpeed JSON path): the frameworks open it relative to the working
/// directory they run in, usually the repository root; tried as given, then next to the naming file, then in each
/// folder above it.
void addReference(KeyReader& r, const std::string& key, const std::string& path);
/// A trainer's `deepspeed` key: a path (read as a DeepSpeed JSON) or the config itself inline.
Result<void> readDeepspeedKey(KeyReader& r, const std::string& key, const char* source);
/// A Trainer `fsdp` option ("full_shard auto_wrap offload" or a list of those words), with the fsdp_config beside it.
Result<void> readTrainerFsdpOption(KeyReader& r, const std::string& key, const std::string& configPrefix,
                                   const char* source);

} // namespace gpusizer::core::detail
