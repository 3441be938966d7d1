#include "gpusizer/import/TrainingConfig.h"

#include "TrainingConfigImport.h"
#include "gpusizer/scenario/HfConfig.h"
#include "gpusizer/scenario/JsonRead.h"
#include "gpusizer/scenario/Lowercase.h"
#include "gpusizer/scenario/ScenarioJson.h"
#include "gpusizer/scenario/Validate.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

namespace gpusizer::core {

using nlohmann::json;

namespace {

constexpr std::pair<ConfigFormat, const char*> kFormatNames[] = {
    {ConfigFormat::Axolotl, "axolotl"},
    {ConfigFormat::LlamaFactory, "llama-factory"},
    {ConfigFormat::Torchtune, "torchtune"},
    {ConfigFormat::TrainingArguments, "transformers"},
    {ConfigFormat::PeftAdapter, "peft"},
    {ConfigFormat::BitsAndBytes, "bitsandbytes"},
    {ConfigFormat::ModelConfig, "hf-config"},
    {ConfigFormat::Accelerate, "accelerate"},
    {ConfigFormat::Deepspeed, "deepspeed"},
    {ConfigFormat::Litgpt, "litgpt"},
    {ConfigFormat::ArcticTraining, "arctic-training"},
    {ConfigFormat::Verl, "verl"},
    {ConfigFormat::OpenRlhf, "openrlhf"},
};

using detail::lowercase;

bool anyKey(const json& root, std::initializer_list<const char*> keys) {
    return std::any_of(keys.begin(), keys.end(), [&](const char* k) { return root.contains(k); });
}

/// True when some value under the document is an object with a "_component_" key (torchtune's instantiate).
bool hasComponents(const json& root) {
    for (const auto& [key, value] : root.items()) {
        if (value.is_object() && value.contains("_component_")) {
            return true;
        }
    }
    return false;
}

std::optional<ConfigFormat> formatOf(const json& root) {
    if (!root.is_object() || root.contains("format")) {
        return std::nullopt; // GPU Sizer's own documents (scenario, measurement) carry "format"
    }
    if (hasComponents(root)) {
        return ConfigFormat::Torchtune;
    }
    if (root.contains("actor_rollout_ref")) {
        return ConfigFormat::Verl; // verl's trainer config (trainer/config/ppo_trainer.yaml)
    }
    if (root.contains("zero_optimization") || root.contains("train_micro_batch_size_per_gpu") ||
        root.contains("train_batch_size")) {
        return ConfigFormat::Deepspeed;
    }
    if (root.contains("peft_type") || (root.contains("r") && root.contains("lora_alpha"))) {
        return ConfigFormat::PeftAdapter;
    }
    if (root.contains("bnb_4bit_quant_type") ||
        (root.contains("quant_method") && root["quant_method"] == "bitsandbytes")) {
        return ConfigFormat::BitsAndBytes;
    }
    if (root.contains("model_type") && anyKey(root, {"hidden_size", "n_embd", "d_model", "text_config"})) {
        return ConfigFormat::ModelConfig;
    }
    if (root.contains("distributed_type") || root.contains("compute_environment")) {
        return ConfigFormat::Accelerate;
    }
    // ArcticTraining: model and data sections beside the trainer's own keys (config/trainer.py).
    if (root.contains("model") && root["model"].is_object() && root["model"].contains("name_or_path") &&
        anyKey(root, {"micro_batch_size", "sequence_parallel_size", "tiled_mlp_compute",
                      "activation_checkpoint_cpu_offload", "deepspeed", "exit_iteration"})) {
        return ConfigFormat::ArcticTraining;
    }
    if (root.contains("base_model") &&
        anyKey(root, {"micro_batch_size", "sequence_len", "adapter", "datasets", "lora_r", "num_epochs"})) {
        return ConfigFormat::Axolotl;
    }
    if (root.contains("model_name_or_path") &&
        anyKey(root,
               {"finetuning_type", "stage", "cutoff_len", "template", "lora_target", "pure_bf16", "quantization_bit",
                "flash_attn", "enable_liger_kernel", "use_unsloth", "disable_gradient_checkpointing"})) {
        return ConfigFormat::LlamaFactory;
    }
    if (root.contains("checkpoint_dir") &&
        (root.contains("train") || anyKey(root, {"lora_r", "quantize", "precision", "devices"}))) {
        return ConfigFormat::Litgpt;
    }
    if (root.contains("per_device_train_batch_size") || root.contains("output_dir")) {
        return ConfigFormat::TrainingArguments;
    }
    return std::nullopt;
}

/// The order files are read in: the trainer's own file first, the launcher and engine files after it (they decide
/// the layout), the adapter and quantization files, the model last.
int readOrder(ConfigFormat f) {
    switch (f) {
    case ConfigFormat::Axolotl:
    case ConfigFormat::LlamaFactory:
    case ConfigFormat::Torchtune:
    case ConfigFormat::Litgpt:
    case ConfigFormat::TrainingArguments:
    case ConfigFormat::ArcticTraining:
    case ConfigFormat::Verl:
    case ConfigFormat::OpenRlhf:
        return 0;
    case ConfigFormat::Accelerate:
        return 1;
    case ConfigFormat::Deepspeed:
        return 2;
    case ConfigFormat::PeftAdapter:
        return 3;
    case ConfigFormat::BitsAndBytes:
        return 4;
    case ConfigFormat::ModelConfig:
        return 5;
    }
    return 6;
}

Result<void> readDocument(ConfigFormat format, detail::KeyReader& r) {
    switch (format) {
    case ConfigFormat::Axolotl:
        return detail::readAxolotl(r);
    case ConfigFormat::LlamaFactory:
        return detail::readLlamaFactory(r);
    case ConfigFormat::Torchtune:
        return detail::readTorchtune(r);
    case ConfigFormat::TrainingArguments:
        return detail::readTrainingArguments(r);
    case ConfigFormat::PeftAdapter:
        return detail::readPeftAdapter(r);
    case ConfigFormat::BitsAndBytes:
        return detail::readBitsAndBytes(r, "");
    case ConfigFormat::Accelerate:
        return detail::readAccelerate(r);
    case ConfigFormat::Deepspeed:
        return detail::readDeepspeed(r, "");
    case ConfigFormat::Litgpt:
        return detail::readLitgpt(r);
    case ConfigFormat::ArcticTraining:
        return detail::readArcticTraining(r);
    case ConfigFormat::Verl:
        return detail::readVerl(r);
    case ConfigFormat::OpenRlhf:
        return detail::readOpenRlhf(r);
    case ConfigFormat::ModelConfig:
        break;
    }
    return {};
}

/// `tune run`-style overrides (torchtune config/_utils.py _merge_yaml_and_cli_args @bd2a0fc7): key=value sets a
/// dotted key, the value read as a YAML scalar ("None" is null); on a key holding a component it sets `_component_`;
/// ~key removes a key, which must exist.
Result<void> applyOverrides(detail::ConfigDocument& doc, const std::vector<std::string>& overrides) {
    for (const std::string& o : overrides) {
        const std::string where = detail::displayable(doc.path) + ": override '" + detail::displayable(o) + "'";
        const bool remove = !o.empty() && o.front() == '~';
        const auto eq = o.find('=');
        const std::string key =
            remove ? o.substr(1, eq == std::string::npos ? std::string::npos : eq - 1) : o.substr(0, eq);
        if (key.empty() || (!remove && eq == std::string::npos) || detail::displayable(key) != key) {
            return fail(
                ErrorCode::WrongFormat,
                words(QT_TRANSLATE_NOOP("gpusizer", "override '%1' is not key=value or ~key"), detail::displayable(o)),
                doc.path);
        }
        // Every position under the key is the file's no longer.
        for (auto it = doc.marks.begin(); it != doc.marks.end();) {
            it = it->first == key || it->first.rfind(key + ".", 0) == 0 ? doc.marks.erase(it) : std::next(it);
        }
        if (remove) {
            // The object holding the key's last part, if every part above it is there.
            json* parent = &doc.root;
            std::string part = key;
            for (auto dot = part.find('.'); dot != std::string::npos && parent != nullptr; dot = part.find('.')) {
                const auto it = parent->find(part.substr(0, dot));
                parent = it != parent->end() && it->is_object() ? &*it : nullptr;
                part = part.substr(dot + 1);
            }
            if (parent == nullptr || !parent->contains(part)) {
                return fail(ErrorCode::MissingField,
                            words(QT_TRANSLATE_NOOP("gpusizer", "cannot remove '%1': the file has no such key"), key),
                            where);
            }
            parent->erase(part);
            continue;
        }
        const std::string text = o.substr(eq + 1);
        GPUSIZER_ASSIGN(auto scalar, detail::readConfigDocument("v: " + text, where));
        json value = text == "None" ? json(nullptr) : scalar.root["v"];
        json& slot = detail::dottedSlot(doc.root, key);
        if (slot.is_object() && slot.contains("_component_") && value.is_string()) {
            slot["_component_"] = value; // optimizer=bitsandbytes.optim.PagedAdamW8bit
        } else {
            slot = value;
        }
    }
    return {};
}

bool samePath(const std::string& a, const std::string& b) {
    return std::filesystem::path(a).lexically_normal() == std::filesystem::path(b).lexically_normal();
}

/// The first place a referenced file is found (see addReference), with a report line saying which.
Result<std::pair<std::string, std::string>>
readReference(const ImportRequest& request, const detail::RunDraft::Reference& ref, detail::RunDraft& run) {
    std::string tried;
    for (const std::string& candidate : ref.candidates) {
        if (!request.readReferenced) {
            break;
        }
        auto found = request.readReferenced(candidate);
        if (!found) {
            tried += (tried.empty() ? "" : ", ") + detail::displayable(candidate);
            continue;
        }
        auto& bytes = *found;
        if (bytes) {
            run.lines.push_back({ImportLine::Kind::Note, ref.namedAt, "", detail::displayable(candidate), "",
                                 QT_TRANSLATE_NOOP("gpusizer", "the file it names, read")});
            return std::pair{candidate, std::move(*bytes)};
        }
        auto e = bytes.error(); // there, but not a file to read (too large, a FIFO): said as it is
        e.where = ref.namedAt + ": " + e.where;
        return tl::unexpected(e);
    }
    return fail(ErrorCode::Unreadable,
                words(QT_TRANSLATE_NOOP("gpusizer", "cannot find the file it names (tried %1)"),
                      tried.empty() ? std::string("nothing: no reader") : tried),
                ref.namedAt);
}

std::string fileNameOf(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

/// The dtype story of the files, as one Precision (docs/import.md "Precision").
void decidePrecision(detail::RunDraft& run) {
    Scenario& s = run.scenario;
    if (run.precisionFixed) {
        return;
    }
    const bool bf16 = run.compute == "bf16";
    const bool fp16 = run.compute == "fp16";
    const bool zero3 = run.deepspeed && s.sharding == Sharding::Zero3;
    const std::string load = run.kbitCastToFp32 && !zero3 ? std::string("fp32") : run.loadDtype;
    Precision p = Precision::Fp32;
    if (run.deepspeed && (bf16 || fp16)) {
        // DeepSpeed's engine casts the module to the 16-bit dtype and keeps fp32 master weights in its optimizer
        // (deepspeed/runtime/engine.py _configure_distributed_model: self.module.bfloat16() / .half()); without a
        // 16-bit mode it casts nothing, and the load dtype decides (below).
        p = bf16 && run.deepspeedBf16Master ? Precision::Bf16Bf16Master
            : bf16                          ? Precision::Bf16Fp32Master
                                            : Precision::Fp16Fp32Master;
        if ((bf16 || fp16) && s.method != Method::Full && s.lora.dtype == AdapterDtype::Auto) {
            s.lora.dtype = bf16 ? AdapterDtype::Bf16 : AdapterDtype::Fp16;
            run.note("", "lora.dtype",
                     QT_TRANSLATE_NOOP("gpusizer", "DeepSpeed casts the whole module, adapters included, to the 16-bit "
                                                   "dtype: adapters sized in that dtype"));
        }
    } else if (run.trainableUpcastToFp32 && s.method == Method::Full && s.trainableLayers > 0 &&
               (load == "bf16" || load == "fp16")) {
        // Freeze tuning: only the trained layers are cast to fp32 (model/adapter.py _setup_freeze_tuning); the frozen
        // ones stay in the load dtype.
        p = load == "bf16" ? Precision::Bf16 : Precision::Fp16;
        s.trainableLayersFp32 = true;
    } else if (run.trainableUpcastToFp32 && s.method == Method::Full) {
        // fp32 trainable weights: under FSDP its MixedPrecision gathers them in bf16, otherwise autocast.
        p = run.fsdp && bf16 ? Precision::FsdpMixedBf16
            : bf16           ? Precision::AmpBf16
            : fp16           ? Precision::AmpFp16
                             : Precision::Fp32;
    } else if (load == "bf16") {
        p = Precision::Bf16;
    } else if (load == "fp16") {
        p = Precision::Fp16;
    } else if (run.fsdp && bf16) {
        p = Precision::FsdpMixedBf16;
    } else {
        p = bf16 ? Precision::AmpBf16 : fp16 ? Precision::AmpFp16 : Precision::Fp32;
    }
    s.precision = p;
    run.lines.push_back({ImportLine::Kind::Note, run.loadDtypeWhere, "", toString(p), "precision",
                         words(QT_TRANSLATE_NOOP("gpusizer", "weights loaded in %1, mixed precision %2%3"), load,
                               run.compute.empty() ? std::string("off") : run.compute,
                               std::string(run.deepspeed ? ", DeepSpeed"
                                           : run.fsdp    ? ", FSDP"
                                                         : ""))});
}

Result<void> resolveModel(detail::RunDraft& run, const ImportRequest& request, const Catalog& catalog) {
    Scenario& s = run.scenario;
    const std::optional<ConfigFile>& config = request.modelConfig ? request.modelConfig : run.modelConfig;
    if (config) {
        GPUSIZER_ASSIGN(auto imported, importHfConfig(config->bytes, config->path));
        s.model = imported.arch;
        s.modelId.clear();
        run.lines.push_back(
            {ImportLine::Kind::Used, config->path, "", imported.modelType, "model", verbatim("config.json")});
        return {};
    }
    if (run.modelName.empty()) {
        return fail(kModelConfigNeeded, QT_TRANSLATE_NOOP("gpusizer", "the files name no model: give its config.json"),
                    request.files.empty() ? std::string() : request.files.front().path);
    }
    if (const ModelEntry* m = matchCatalogModel(catalog, run.modelName)) {
        s.modelId = m->id;
        s.model = m->arch;
        run.lines.push_back({ImportLine::Kind::Used, run.modelWhere, "", run.modelName, "model",
                             words(QT_TRANSLATE_NOOP("gpusizer", "catalog model %1"), m->id)});
        return {};
    }
    return fail(
        kModelConfigNeeded,
        words(QT_TRANSLATE_NOOP("gpusizer", "model '%1' is not in the catalog: give its config.json"), run.modelName),
        run.modelWhere);
}

/// The layout and what follows from the whole set of files.
Result<void> finish(detail::RunDraft& run, const ImportRequest& request) {
    Scenario& s = run.scenario;
    if (run.method) {
        s.method = *run.method;
    }
    if ((run.load4bit || run.load8bit) && s.method == Method::Lora) {
        s.method = Method::Qlora;
    }
    if (run.load8bit && !run.load4bit) {
        s.quantization = Quantization::Int8;
    }
    if (run.sftQuantizedAdaptersBf16 && s.method == Method::Qlora && s.lora.dtype == AdapterDtype::Auto) {
        s.lora.dtype = AdapterDtype::Bf16;
        run.note("", "lora.dtype",
                 QT_TRANSLATE_NOOP("gpusizer", "TRL's SFTTrainer casts the adapters of a quantized model to bf16 "
                                               "(trl trainer/sft_trainer.py:1127-1130)"));
    }
    if (s.method == Method::Full && (run.load4bit || run.load8bit)) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "a quantized base needs an adapter (LoRA): full fine-tuning of a "
                                                  "4- or 8-bit model is not a run transformers trains"),
                    run.modelWhere);
    }
    if (request.gpus && (!run.gpus || run.gpusDefaulted)) {
        run.gpus = request.gpus; // the launch's count replaces a framework default
        run.lines.push_back(
            {ImportLine::Kind::Used, "--gpus", "", std::to_string(*request.gpus), "gpus", verbatim("command line")});
    } else if (request.gpus && *request.gpus != *run.gpus) {
        run.lines.push_back({ImportLine::Kind::Note, "--gpus", "", std::to_string(*request.gpus), "gpus",
                             words(QT_TRANSLATE_NOOP("gpusizer", "the files say %1 GPUs: their count is kept"),
                                   std::to_string(*run.gpus))});
    }
    s.gpus = run.gpus.value_or(1);
    if (s.framework == Framework::Lightning) {
        // litgpt finetune/lora.py @26857050: one device, no checkpointing; more, ModelParallelStrategy with FSDP2
        // fully_shard and every Block checkpointed (L158-162, L522-543); quantization only on one device (L152-157).
        if (s.gpus > 1 && s.method == Method::Qlora) {
            return fail(ErrorCode::Inconsistent,
                        QT_TRANSLATE_NOOP("gpusizer", "LitGPT quantizes only on one device (finetune/lora.py raises "
                                                      "NotImplementedError)"),
                        run.modelWhere);
        }
        if (s.gpus > 1) {
            s.sharding = Sharding::Zero3;
            s.shardingEngine = ShardingEngine::Fsdp2;
            s.checkpointing = Checkpointing::Full;
        }
        run.lines.push_back({ImportLine::Kind::Defaulted, "", "", toString(s.checkpointing), "gradient_checkpointing",
                             verbatim("litgpt @26857050 litgpt/finetune/lora.py:158-162, 522-543 (every Block, FSDP2, "
                                      "with more than one device)")});
    }
    if (s.framework == Framework::Torchtune && s.gpus > 1 && s.sharding == Sharding::None) {
        // More than one process means a *_distributed recipe, which shards with FSDP2 (training.shard_model).
        s.sharding = Sharding::Zero3;
    }
    if (s.gpus == 1 && s.sharding != Sharding::None) {
        run.note("", "gpus",
                 QT_TRANSLATE_NOOP("gpusizer", "the files shard over GPUs but name no count: 1 GPU assumed (set the "
                                               "launch's count: --gpus, or GPUs in the window)"));
    }
    if (run.globalBatch) {
        const std::int64_t perStep = s.microBatch * s.gpus;
        s.gradientAccumulation = std::max<std::int64_t>(1, *run.globalBatch / std::max<std::int64_t>(1, perStep));
        run.lines.push_back({ImportLine::Kind::Note, "", run.globalBatchKey, std::to_string(*run.globalBatch),
                             "gradient_accumulation",
                             words(QT_TRANSLATE_NOOP("gpusizer", "accumulation = global batch / (devices × "
                                                                 "micro-batch) = %1"),
                                   std::to_string(s.gradientAccumulation))});
    }
    decidePrecision(run);
    return {};
}

} // namespace

const char* toString(ConfigFormat f) {
    for (const auto& [format, name] : kFormatNames) {
        if (format == f) {
            return name;
        }
    }
    return "unknown";
}

std::optional<ConfigFormat> parseConfigFormat(std::string_view text) {
    for (const auto& [format, name] : kFormatNames) {
        if (text == name) {
            return format;
        }
    }
    return std::nullopt;
}

std::optional<ConfigFormat> detectConfigFormat(std::string_view bytes) {
    if (const auto script = detail::launchScriptFormat(bytes)) {
        return script;
    }
    auto doc = detail::readConfigDocument(bytes, "");
    return doc ? formatOf(doc->root) : std::nullopt;
}

const ModelEntry* matchCatalogModel(const Catalog& catalog, std::string_view hfId) {
    std::string id = lowercase(hfId);
    while (!id.empty() && id.back() == '/') {
        id.pop_back();
    }
    if (id.empty()) {
        return nullptr;
    }
    // The exact repository: every shipped entry cites its config.json on huggingface.co.
    for (const ModelEntry& m : catalog.models) {
        for (const std::string& source : m.sources) {
            if (lowercase(source).find("huggingface.co/" + id + "/") != std::string::npos) {
                return &m;
            }
        }
    }
    std::string name = id.substr(id.find_last_of('/') == std::string::npos ? 0 : id.find_last_of('/') + 1);
    if (name.rfind("meta-llama-", 0) == 0) {
        name = name.substr(5); // Meta-Llama-3.1-8B, the repository's name before Meta renamed it Llama-3.1-8B
    }
    static const char* const kVariantSuffixes[] = {"-hf", "-instruct", "-chat", "-it", "-base", "-sft", "-dpo"};
    for (int round = 0; round < 4; ++round) {
        for (const ModelEntry& m : catalog.models) {
            if (lowercase(m.id) == name || lowercase(m.name) == name) {
                return &m;
            }
        }
        bool stripped = false;
        for (const char* suffix : kVariantSuffixes) {
            const std::string sfx(suffix);
            if (name.size() > sfx.size() && name.compare(name.size() - sfx.size(), sfx.size(), sfx) == 0) {
                name.resize(name.size() - sfx.size());
                stripped = true;
                break;
            }
        }
        if (!stripped) {
            break;
        }
    }
    return nullptr;
}

namespace {

/// A file parsed and its format known, waiting for its turn to be read.
struct Pending {
    detail::ConfigDocument doc;
    ConfigFormat format;
};

/// Every file parsed, the overrides applied to the first, in the order the readers take them (readOrder).
Result<std::vector<Pending>> parseInReadOrder(const ImportRequest& request, detail::RunDraft& run) {
    std::vector<Pending> pending;
    for (std::size_t i = 0; i < request.files.size(); ++i) {
        const ConfigFile& file = request.files[i];
        const auto scriptFormat = detail::launchScriptFormat(file.bytes);
        const bool script = scriptFormat && (!file.format || *file.format == *scriptFormat);
        GPUSIZER_ASSIGN(auto doc, script ? detail::readLaunchScript(file.bytes, file.path)
                                         : detail::readConfigDocument(file.bytes, file.path));
        if (i == 0) {
            GPUSIZER_CHECK(applyOverrides(doc, request.overrides));
        }
        const auto format = file.format ? file.format : script ? scriptFormat : formatOf(doc.root);
        if (!format) {
            return fail(ErrorCode::WrongFormat,
                        QT_TRANSLATE_NOOP(
                            "gpusizer", "not a training config of a known format (Axolotl, LLaMA-Factory, "
                                        "torchtune, transformers / TRL, PEFT, bitsandbytes, accelerate, DeepSpeed, "
                                        "LitGPT, ArcticTraining, a verl or OpenRLHF launch script, or a config.json)"),
                        file.path);
        }
        if (*format == ConfigFormat::ModelConfig) {
            run.modelConfig = file;
        }
        pending.push_back({std::move(doc), *format});
    }
    std::stable_sort(pending.begin(), pending.end(),
                     [](const Pending& a, const Pending& b) { return readOrder(a.format) < readOrder(b.format); });

    return pending;
}

/// The files read in order into the draft; a file named inside one (a DeepSpeed JSON) is read right after the files
/// of its kind.
Result<void> readInOrder(std::vector<Pending>& pending, const ImportRequest& request, detail::RunDraft& run,
                         ImportedRun& out) {
    for (std::size_t i = 0; i < pending.size(); ++i) {
        detail::KeyReader reader(pending[i].doc, run);
        GPUSIZER_CHECK(readDocument(pending[i].format, reader));
        if (pending[i].format == ConfigFormat::ModelConfig) {
            GPUSIZER_CHECK(detail::readBitsAndBytes(reader, "quantization_config."));
        } else {
            reader.reportUnread();
        }
        out.files.emplace_back(detail::displayable(pending[i].doc.path), pending[i].format);
        // A file named inside this one is read next (before the remaining kinds), once.
        std::size_t insertAt = i + 1;
        while (insertAt < pending.size() && readOrder(pending[insertAt].format) <= readOrder(ConfigFormat::Deepspeed)) {
            ++insertAt;
        }
        for (const auto& ref : run.references) {
            GPUSIZER_ASSIGN(auto found, readReference(request, ref, run));
            const std::string& path = found.first; // (not a structured binding: the lambda below captures it)
            const std::string& bytes = found.second;
            const bool seen = std::any_of(pending.begin(), pending.end(),
                                          [&](const Pending& p) { return samePath(p.doc.path, path); });
            if (seen) {
                continue;
            }
            GPUSIZER_ASSIGN(auto doc, detail::readConfigDocument(bytes, path));
            pending.insert(pending.begin() + static_cast<std::ptrdiff_t>(insertAt++),
                           Pending{std::move(doc), ConfigFormat::Deepspeed});
        }
        run.references.clear();
    }
    return {};
}

} // namespace

Result<ImportedRun> importTrainingConfigs(const ImportRequest& request, const Catalog& catalog) {
    if (request.files.empty()) {
        return fail(ErrorCode::MissingField, QT_TRANSLATE_NOOP("gpusizer", "no training config given"));
    }
    detail::RunDraft run;
    run.scenario = defaultScenario(catalog);
    run.scenario.name.clear();
    ImportedRun out;

    GPUSIZER_ASSIGN(auto pending, parseInReadOrder(request, run));
    GPUSIZER_CHECK(readInOrder(pending, request, run, out));
    GPUSIZER_CHECK(resolveModel(run, request, catalog));
    if (run.scenario.trainableLayers >= run.scenario.model.numLayers && run.scenario.trainableLayers > 0) {
        // LLaMA-Factory clamps: range(max(0, num_layers - n), num_layers) trains every layer (model/adapter.py).
        run.scenario.trainableLayers = 0;
        run.note("", "trainable_layers",
                 QT_TRANSLATE_NOOP("gpusizer", "at least as many trainable layers as the model has: every layer "
                                               "trains (embeddings and lm_head stay frozen; sized as full "
                                               "fine-tuning)"));
    }
    GPUSIZER_CHECK(finish(run, request));
    if (auto ok = validate(run.scenario); !ok) {
        auto e = ok.error();
        e.where = request.files.front().path + ": " + e.where;
        return tl::unexpected(e);
    }
    out.modelName = run.modelName;
    out.scenario = std::move(run.scenario);
    out.lines = std::move(run.lines);
    std::string names;
    for (const auto& [path, format] : out.files) {
        names += (names.empty() ? "" : " + ") + fileNameOf(path);
    }
    out.scenario.name = automaticName(out.scenario) + " (" + names + ")";
    out.scenario.notes = importReportText(out);
    return out;
}

std::string importReportText(const ImportedRun& run) {
    std::string text = "Imported from";
    for (const auto& [path, format] : run.files) {
        text += std::string(" ") + fileNameOf(path) + " (" + toString(format) + ")";
    }
    text += "\n";
    for (const ImportLine& l : run.lines) {
        const char* kind = l.kind == ImportLine::Kind::Used        ? "used     "
                           : l.kind == ImportLine::Kind::Defaulted ? "default  "
                           : l.kind == ImportLine::Kind::Ignored   ? "ignored  "
                                                                   : "note     ";
        text += kind;
        text += l.key.empty() ? std::string() : l.value.empty() ? l.key : l.key + " = " + l.value;
        if (l.key.empty() && !l.value.empty()) {
            text += l.value;
        }
        if (!l.field.empty()) {
            text += " -> " + l.field;
        }
        const std::string why = l.why.english();
        if (!why.empty()) {
            text += "  (" + why + ")";
        }
        if (!l.file.empty()) {
            text += "  [" + l.file + "]";
        }
        text += "\n";
    }
    return text;
}

namespace detail {

void RunDraft::provenance(const std::string& field, const std::string& file, const std::string& where,
                          const std::string& value) {
    // Several keys of one file may share a field (LoRA targets); only another file's different value is news.
    if (const auto it = setBy.find(field); it != setBy.end() && it->second.file != file && it->second.value != value) {
        lines.push_back(
            {ImportLine::Kind::Note, where, "", value, field,
             words(QT_TRANSLATE_NOOP("gpusizer", "replaces %1 from %2"), it->second.value, it->second.where)});
    }
    setBy[field] = {file, where, value};
}

void RunDraft::note(const std::string& file, const std::string& key, Words why) {
    lines.push_back({ImportLine::Kind::Note, file, key, "", "", std::move(why)});
}

std::string shown(const json& v) {
    if (v.is_string()) {
        return v.get<std::string>();
    }
    if (v.is_array()) {
        std::string out;
        for (const json& item : v) {
            out += (out.empty() ? "" : ", ") + shown(item);
        }
        return "[" + out + "]";
    }
    return v.dump();
}

const json* KeyReader::raw(const std::string& key) const {
    const json* v = m_doc.find(key);
    return v != nullptr && !v->is_null() ? v : nullptr;
}

bool KeyReader::has(const std::string& key) const {
    return raw(key) != nullptr;
}

const json* KeyReader::value(const std::string& key) {
    m_read.insert(key);
    return raw(key);
}

void KeyReader::used(const std::string& key, const std::string& value, const char* field, const char* source) {
    m_run.lines.push_back({ImportLine::Kind::Used, m_doc.position(key), key, value, field, verbatim(source)});
    // The precision is decided from every file at the end (its note says how): bf16 = true and mixed_precision = bf16
    // are the same choice, not a conflict.
    // So are the method and the LoRA targets, which several keys of different meaning set (peft_type, load_in_4bit).
    const std::string_view f(field);
    if (!f.empty() && f != "precision" && f != "method" && f != "lora.targets") {
        m_run.provenance(field, m_doc.path, m_doc.position(key), value);
    }
}

void KeyReader::defaulted(const std::string& key, const std::string& value, const char* field, const char* source) {
    m_run.lines.push_back({ImportLine::Kind::Defaulted, m_doc.position(""), key, value, field, verbatim(source)});
}

Error KeyReader::error(const std::string& key, Words why) const {
    return Error{ErrorCode::WrongType, std::move(why), m_doc.at(key)};
}

Result<std::optional<bool>> KeyReader::flag(const std::string& key, const char* field, const char* source,
                                            std::optional<bool> fallback) {
    const json* v = value(key);
    if (v == nullptr) {
        if (fallback) {
            defaulted(key, *fallback ? "true" : "false", field, source);
        }
        return fallback;
    }
    if (!v->is_boolean()) {
        return tl::unexpected(error(key, QT_TRANSLATE_NOOP("gpusizer", "must be true or false")));
    }
    used(key, v->get<bool>() ? "true" : "false", field, source);
    return std::optional<bool>(v->get<bool>());
}

Result<std::optional<std::int64_t>> KeyReader::integer(const std::string& key, const char* field, const char* source,
                                                       std::int64_t min, std::int64_t max,
                                                       std::optional<std::int64_t> fallback) {
    const json* v = value(key);
    if (v == nullptr) {
        if (fallback) {
            defaulted(key, std::to_string(*fallback), field, source);
        }
        return fallback;
    }
    const bool whole =
        v->is_number_integer() ||
        (v->is_number_float() && std::floor(v->get<double>()) == v->get<double>() && std::abs(v->get<double>()) < 9e15);
    if (!whole) {
        return tl::unexpected(error(key, QT_TRANSLATE_NOOP("gpusizer", "must be a whole number")));
    }
    const auto n = v->is_number_integer() ? v->get<std::int64_t>() : static_cast<std::int64_t>(v->get<double>());
    if (n < min || n > max) {
        return tl::unexpected(error(key, words(QT_TRANSLATE_NOOP("gpusizer", "must be between %1 and %2"),
                                               std::to_string(min), std::to_string(max))));
    }
    used(key, std::to_string(n), field, source);
    return std::optional<std::int64_t>(n);
}

Result<std::optional<double>> KeyReader::number(const std::string& key, const char* field, const char* source,
                                                double min, double max, std::optional<double> fallback) {
    const json* v = value(key);
    if (v == nullptr) {
        if (fallback) {
            defaulted(key, json(*fallback).dump(), field, source);
        }
        return fallback;
    }
    if (!v->is_number()) {
        return tl::unexpected(error(key, QT_TRANSLATE_NOOP("gpusizer", "must be a number")));
    }
    const double x = v->get<double>();
    if (!(x >= min && x <= max)) {
        const auto plain = [](double bound) {
            char buffer[32];
            std::snprintf(buffer, sizeof buffer, "%.10g", bound); // 0, 0.999, 1000000: as a user writes them
            return std::string(buffer);
        };
        return tl::unexpected(
            error(key, words(QT_TRANSLATE_NOOP("gpusizer", "must be between %1 and %2"), plain(min), plain(max))));
    }
    used(key, v->dump(), field, source);
    return std::optional<double>(x);
}

Result<std::optional<std::string>> KeyReader::text(const std::string& key, const char* field, const char* source,
                                                   std::optional<std::string> fallback) {
    const json* v = value(key);
    if (v == nullptr) {
        if (fallback) {
            defaulted(key, *fallback, field, source);
        }
        return fallback;
    }
    if (!v->is_string() && !v->is_number() && !v->is_boolean()) {
        return tl::unexpected(error(key, QT_TRANSLATE_NOOP("gpusizer", "must be text")));
    }
    const std::string s = shown(*v);
    used(key, s, field, source);
    return std::optional<std::string>(s);
}

Result<std::optional<std::vector<std::string>>> KeyReader::list(const std::string& key, const char* field,
                                                                const char* source) {
    const json* v = value(key);
    if (v == nullptr) {
        return std::optional<std::vector<std::string>>();
    }
    std::vector<std::string> items;
    if (v->is_string()) {
        std::string item;
        for (char c : v->get<std::string>() + ",") {
            if (c == ',') {
                if (!item.empty()) {
                    items.push_back(item);
                }
                item.clear();
            } else if (c != ' ') {
                item += c;
            }
        }
    } else if (v->is_array()) {
        for (const json& item : *v) {
            if (!item.is_string()) {
                return tl::unexpected(error(key, QT_TRANSLATE_NOOP("gpusizer", "must be a list of names")));
            }
            items.push_back(item.get<std::string>());
        }
    } else {
        return tl::unexpected(error(key, QT_TRANSLATE_NOOP("gpusizer", "must be a list of names")));
    }
    used(key, shown(*v), field, source);
    return std::optional<std::vector<std::string>>(items);
}

void KeyReader::noteKey(const std::string& key, Words why) {
    m_read.insert(key);
    const json* v = raw(key);
    m_run.lines.push_back({ImportLine::Kind::Note, m_doc.position(key), key, v ? shown(*v) : "", "", std::move(why)});
}

void KeyReader::ignore(const std::string& key, Words why) {
    m_read.insert(key);
    if (const json* v = raw(key)) {
        m_run.lines.push_back({ImportLine::Kind::Ignored, m_doc.position(key), key, shown(*v), "", std::move(why)});
    }
}

namespace {

/// Keys every trainer has that decide the schedule, the data, logging or the output, not the memory of a step.
bool isScheduleOrBookkeeping(const std::string& key) {
    // Whole words of the key (split at '.', '_' and '-'), so that device_map or *_steps are not taken for them.
    static const std::set<std::string> kWords{
        "lr",         "learning",     "warmup",   "scheduler", "decay",       "epoch",    "epochs",  "seed",
        "logging",    "log",          "save",     "saves",     "eval",        "evals",    "output",  "dir",
        "path",       "wandb",        "hub",      "report",    "dataset",     "datasets", "data",    "template",
        "tokenizer",  "metric",       "resume",   "val",       "run",         "project",  "push",    "tokens",
        "grad",       "clip",         "beta",     "beta1",     "beta2",       "epsilon",  "shuffle", "workers",
        "dataloader", "checkpointer", "profiler", "overwrite", "environment", "machine",  "rdzv",    "network",
        "tpu",        "debug",        "downcast", "main",      "trust",       "remote",   "cache",   "preprocessing",
        "samples",    "plot",         "timeout",  "ddp",       "do",          "train",    "plugins", "interval",
        "strict"};
    std::string word;
    for (char ch : lowercase(key) + ".") {
        if (ch == '.' || ch == '_' || ch == '-') {
            if (kWords.count(word) != 0) {
                return true;
            }
            word.clear();
        } else {
            word += ch;
        }
    }
    return false;
}

} // namespace

namespace {

/// At most 80 bytes of a value for the report, cut between characters (never inside a UTF-8 sequence).
std::string shortened(std::string text) {
    if (text.size() <= 80) {
        return text;
    }
    std::size_t cut = 77;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
        --cut;
    }
    return text.substr(0, cut) + "...";
}

} // namespace

void KeyReader::reportUnread() {
    // Walks the document: a key read, a key under a read section, or a section none of whose keys was read.
    const std::function<void(const json&, const std::string&)> walk = [&](const json& node, const std::string& path) {
        for (const auto& [key, child] : node.items()) {
            const std::string full = path.empty() ? key : path + "." + key;
            if (m_read.count(full) != 0) {
                continue;
            }
            const bool sectionRead = std::any_of(m_read.begin(), m_read.end(),
                                                 [&](const std::string& r) { return r.rfind(full + ".", 0) == 0; });
            if (child.is_object() && sectionRead) {
                walk(child, full);
                continue;
            }
            if (child.is_null()) {
                continue;
            }
            m_run.lines.push_back(
                {ImportLine::Kind::Ignored, m_doc.position(full), full, shortened(shown(child)), "",
                 isScheduleOrBookkeeping(full)
                     ? Words(QT_TRANSLATE_NOOP("gpusizer", "does not change GPU memory (schedule, data, logging or "
                                                           "output)"))
                     : Words(QT_TRANSLATE_NOOP("gpusizer", "not read by GPU Sizer (docs/import.md lists what is)"))});
        }
    };
    walk(m_doc.root, "");
}

void addReference(KeyReader& r, const std::string& key, const std::string& path) {
    const std::filesystem::path named(path);
    RunDraft::Reference ref{{path}, r.doc().at(key)};
    if (!named.is_absolute()) {
        // Axolotl (utils/config/__init__.py:236), LLaMA-Factory and accelerate open it from the working directory,
        // and their examples name it from the repository root: the naming file's folder, then each one above it.
        for (std::filesystem::path folder = std::filesystem::path(r.doc().path).parent_path();;
             folder = folder.parent_path()) {
            const std::string candidate = (folder / named).lexically_normal().string();
            if (std::find(ref.candidates.begin(), ref.candidates.end(), candidate) == ref.candidates.end()) {
                ref.candidates.push_back(candidate);
            }
            if (folder.empty() || folder == folder.parent_path() || ref.candidates.size() > 16) {
                break;
            }
        }
    }
    r.run().references.push_back(std::move(ref));
}

std::string displayable(const std::string& text) {
    std::string out;
    std::string_view rest = text;
    while (!rest.empty()) {
        const auto bad = invalidUtf8Offset(rest);
        if (bad == std::string_view::npos) {
            out += rest;
            break;
        }
        out += rest.substr(0, bad);
        out += "\xEF\xBF\xBD"; // U+FFFD
        rest.remove_prefix(bad + 1);
    }
    return out;
}

} // namespace detail

} // namespace gpusizer::core
