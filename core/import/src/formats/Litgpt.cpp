// LitGPT's `litgpt finetune lora` config YAML (the arguments of finetune/lora.py setup()), as a table.

#include "../FormatSteps.h"

#include <algorithm>

namespace gpusizer::core::detail {

using nlohmann::json;

namespace {

#define LITGPT_SETUP LITGPT "litgpt/finetune/lora.py setup()"
#define LITGPT_TRAIN LITGPT "litgpt/finetune/lora.py:69-73 (TrainArgs)"

Result<void> applyCheckpointDir(KeyReader& r, const std::string& key, const std::string& dir);
Result<void> readPrecisionAndQuantization(KeyReader& r, const std::string& prefix);
Result<void> readDevices(KeyReader& r, const std::string& prefix);
Result<void> readTargets(KeyReader& r, const std::string& prefix);
Result<void> readMaxSeqLength(KeyReader& r, const std::string& prefix);
Result<void> readOptimizer(KeyReader& r, const std::string& prefix);

constexpr KeyRow kLitgpt[] = {
    {.key = "checkpoint_dir",
     .field = "model",
     .kind = ValueKind::Text,
     .source = LITGPT_SETUP,
     .convert = applyCheckpointDir,
     .shownKey = "`checkpoint_dir` (`checkpoints/<org>/<name>`)",
     .shownDefault = "required"},
    {.key = "precision",
     .field = "precision",
     .kind = ValueKind::Text,
     .fallback = "bf16-mixed",
     .source = LITGPT "litgpt/utils.py:363 get_default_supported_precision",
     .step = readPrecisionAndQuantization,
     .shownKey = "`precision` (`bf16-true`, `bf16-mixed`, `16-true`, `16-mixed`, `32-true`)"},
    {.key = "quantize",
     .field = "method",
     .kind = ValueKind::Text,
     .source = LITGPT_SETUP,
     .shownKey = "`quantize` (`bnb.nf4`, `bnb.nf4-dq`, `bnb.fp4`, `bnb.fp4-dq`, `bnb.int8-training`)",
     .shownField = "method QLoRA, quantization; the optimizer becomes bitsandbytes PagedAdamW; refused with a mixed "
                   "precision or more than one device, as LitGPT refuses it (lora.py:141-143, :152-157, :218-219)",
     .shownDefault = "none"},
    {.key = "devices",
     .field = "gpus",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 100000,
     .fallback = "1",
     .source = LITGPT_SETUP,
     .step = readDevices,
     .shownKey = "`devices` × `num_nodes` (`auto` / -1: the launch's `--gpus`)",
     .shownField = "gpus (more than one: FSDP2 `fully_shard`, every Block checkpointed; lora.py:158-162, :522-543)",
     .shownDefault = "1 × 1"},
    {.key = "num_nodes",
     .field = "gpus",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 100000,
     .fallback = "1",
     .source = LITGPT_SETUP,
     .shownKey = ""},
    {.key = "lora_r",
     .field = "lora.rank",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "8",
     .source = LITGPT_SETUP,
     .setInteger = setLoraRank},
    {.key = "lora_alpha",
     .field = "lora.alpha",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 1e6,
     .fallback = "16",
     .source = LITGPT_SETUP,
     .setNumber = setLoraAlpha},
    {.key = "lora_dropout",
     .field = "lora.dropout",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 0.999,
     .fallback = "0.05",
     .source = LITGPT_SETUP,
     .setNumber = setLoraDropout},
    {.key = "lora_query",
     .field = "lora.targets",
     .kind = ValueKind::Flag,
     .fallback = "true",
     .source = LITGPT_SETUP,
     .step = readTargets,
     .shownField = "lora.targets q (of the fused qkv)"},
    {.key = "lora_key",
     .field = "lora.targets",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = LITGPT_SETUP,
     .shownField = "lora.targets k"},
    {.key = "lora_value",
     .field = "lora.targets",
     .kind = ValueKind::Flag,
     .fallback = "true",
     .source = LITGPT_SETUP,
     .shownField = "lora.targets v"},
    {.key = "lora_projection",
     .field = "lora.targets",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = LITGPT_SETUP,
     .shownField = "lora.targets o"},
    {.key = "lora_mlp",
     .field = "lora.targets",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = LITGPT_SETUP,
     .shownField = "lora.targets gate, up, down"},
    {.key = "lora_head",
     .field = "lora.targets",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = LITGPT_SETUP,
     .setFlag = [](RunDraft& d, bool v) { d.scenario.lora.lmHead = v; },
     .shownField = "lora.targets lm_head"},
    {.key = "train.micro_batch_size",
     .field = "micro_batch",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "1",
     .source = LITGPT_TRAIN,
     .setInteger = setMicroBatch},
    {.key = "train.global_batch_size",
     .field = "gradient_accumulation",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 100000000,
     .fallback = "16",
     .source = LITGPT_TRAIN,
     .setInteger = [](RunDraft& d, std::int64_t v) { d.globalBatch = v; },
     .shownField = "gradient_accumulation = global ÷ (devices × nodes) ÷ micro-batch (args.py:56-66)"},
    {.key = "train.max_seq_length",
     .field = "seq_len",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 10000000,
     .source = LITGPT_TRAIN,
     .step = readMaxSeqLength,
     .shownDefault = "none: the longest sample; GPU Sizer's 2,048 sized (noted)"},
    {.key = "optimizer",
     .field = "optimizer",
     .kind = ValueKind::Text,
     .source = LITGPT "litgpt/utils.py:636 instantiate_torch_optimizer",
     .step = readOptimizer,
     .shownKey = "`optimizer` (a name or `{class_path, init_args}`)",
     .shownDefault = "`AdamW`"},
    {.key = "",
     .field = "loss",
     .source = LITGPT "litgpt/finetune/lora.py (lm_head_chunk_size=128)",
     .shownKey = "(the loss)",
     .shownField = "loss chunked (`lm_head_chunk_size` 128)"},
};

Result<void> applyCheckpointDir(KeyReader& r, const std::string& key, const std::string& dir) {
    std::string name = dir;
    if (name.rfind("checkpoints/", 0) == 0) {
        name = name.substr(12);
    }
    r.run().modelName = name;
    r.run().modelWhere = r.doc().at(key);
    return {};
}

/// bitsandbytes quantization by LitGPT's name for it.
std::optional<Quantization> quantizationOf(const std::string& name) {
    if (name == "bnb.nf4" || name == "bnb.fp4") {
        return Quantization::Nf4;
    }
    if (name == "bnb.nf4-dq" || name == "bnb.fp4-dq") {
        return Quantization::Nf4Dq;
    }
    if (name == "bnb.int8-training") {
        return Quantization::Int8;
    }
    return std::nullopt;
}

/// Lightning's precision and LitGPT's bitsandbytes quantization, with the combinations lora.py refuses.
Result<void> readPrecisionAndQuantization(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    GPUSIZER_ASSIGN(auto precision, readText(r, rowOf(kLitgpt, "precision"), prefix));
    static const std::pair<const char*, Precision> kPrecisions[] = {
        {"bf16-true", Precision::Bf16},   {"bf16-mixed", Precision::AmpBf16}, {"16-true", Precision::Fp16},
        {"16-mixed", Precision::AmpFp16}, {"32-true", Precision::Fp32},       {"32", Precision::Fp32},
    };
    const auto p = std::find_if(std::begin(kPrecisions), std::end(kPrecisions),
                                [&](const auto& e) { return *precision == e.first; });
    if (p == std::end(kPrecisions)) {
        return tl::unexpected(
            r.error(prefix + "precision",
                    words(QT_TRANSLATE_NOOP("gpusizer", "'%1' is not a Lightning precision"), *precision)));
    }
    s.precision = p->second;
    run.method = Method::Lora;
    GPUSIZER_ASSIGN(auto quantize, readText(r, rowOf(kLitgpt, "quantize"), prefix));
    if (!quantize) {
        return {};
    }
    run.method = Method::Qlora;
    const auto quantization = quantizationOf(*quantize);
    if (!quantization) {
        return tl::unexpected(r.error(
            prefix + "quantize", words(QT_TRANSLATE_NOOP("gpusizer", "'%1' is not a LitGPT quantization"), *quantize)));
    }
    s.quantization = *quantization;
    if (*precision == "32") {
        // lora.py:148 looks the precision up among 16-true, bf16-true and 32-true: "32" is a KeyError.
        return tl::unexpected(r.error(prefix + "precision",
                                      QT_TRANSLATE_NOOP("gpusizer", "LitGPT's quantization takes precision 32-true, "
                                                                    "not 32 (finetune/lora.py:148)")));
    }
    if (precision->find("-mixed") != std::string::npos) {
        // lora.py:141-143 refuses the combination (and bf16-mixed is the default precision).
        return tl::unexpected(
            r.error(prefix + "quantize", QT_TRANSLATE_NOOP("gpusizer", "LitGPT refuses quantization with a mixed "
                                                                       "precision: set precision to bf16-true")));
    }
    return {};
}

/// devices: a count, or "auto" / -1 (every GPU of the machine: the launch's --gpus); times num_nodes.
Result<void> readDevices(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    const std::string key = prefix + "devices";
    if (const json* d = r.doc().find(key); d != nullptr && (d->is_string() || (d->is_number() && *d == -1))) {
        r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "every GPU of the machine: sized on the scenario's GPU count (the "
                                                     "GPUs field; the CLI's --gpus)"));
        return {};
    }
    GPUSIZER_ASSIGN(auto devices, readInteger(r, rowOf(kLitgpt, "devices"), prefix));
    GPUSIZER_ASSIGN(auto nodes, readInteger(r, rowOf(kLitgpt, "num_nodes"), prefix));
    run.gpus = *devices * *nodes;
    run.gpusDefaulted = !r.has(key) && !r.has(prefix + "num_nodes");
    if (run.method == Method::Qlora && *run.gpus > 1) {
        // lora.py:152-157: bitsandbytes quantization runs on one device only.
        return tl::unexpected(
            r.error(prefix + "quantize", QT_TRANSLATE_NOOP("gpusizer", "LitGPT refuses quantization on more than one "
                                                                       "device (finetune/lora.py:152)")));
    }
    return {};
}

/// Which of the fused qkv's q, k and v, the projection and the MLP the adapter adapts.
Result<void> readTargets(KeyReader& r, const std::string& prefix) {
    std::vector<LinearRole>& targets = r.run().scenario.lora.targets;
    targets.clear();
    for (const auto& [row, roles] :
         {std::pair{&rowOf(kLitgpt, "lora_query"), std::vector{LinearRole::Q}},
          std::pair{&rowOf(kLitgpt, "lora_key"), std::vector{LinearRole::K}},
          std::pair{&rowOf(kLitgpt, "lora_value"), std::vector{LinearRole::V}},
          std::pair{&rowOf(kLitgpt, "lora_projection"), std::vector{LinearRole::O}},
          std::pair{&rowOf(kLitgpt, "lora_mlp"), std::vector{LinearRole::Gate, LinearRole::Up, LinearRole::Down}}}) {
        GPUSIZER_ASSIGN(auto on, readFlag(r, *row, prefix));
        if (*on) {
            targets.insert(targets.end(), roles.begin(), roles.end());
        }
    }
    return {};
}

Result<void> readMaxSeqLength(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    const KeyRow& row = rowOf(kLitgpt, "train.max_seq_length");
    GPUSIZER_ASSIGN(auto length, readInteger(r, row, prefix));
    if (length) {
        run.scenario.seqLen = *length;
        return {};
    }
    run.lines.push_back({ImportLine::Kind::Defaulted, r.doc().position(""), prefix + row.key,
                         std::to_string(run.scenario.seqLen), row.field,
                         QT_TRANSLATE_NOOP("gpusizer", "null: LitGPT trains at the longest sample's length; GPU "
                                                       "Sizer's default length is sized (set yours)")});
    return {};
}

/// The optimizer: a name, or {class_path, init_args}; under bitsandbytes quantization any AdamW becomes
/// bnb.optim.PagedAdamW (lora.py:218-219).
Result<void> readOptimizer(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    const KeyRow& row = rowOf(kLitgpt, "optimizer");
    const std::string key = prefix + row.key;
    std::string optimizer = "AdamW";
    if (const json* o = r.value(key); o != nullptr) {
        optimizer = o->is_object() ? (o->contains("class_path") ? shown((*o)["class_path"]) : "AdamW") : shown(*o);
        run.lines.push_back(
            {ImportLine::Kind::Used, r.doc().position(key), key, optimizer, row.field, verbatim(row.source)});
    }
    run.scenario.optimizer = run.method == Method::Qlora ? Optimizer::PagedAdamW : Optimizer::AdamW;
    if (optimizer.find("AdamW") == std::string::npos) {
        r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "not modelled: sized as AdamW"));
    }
    return {};
}

} // namespace

Result<void> readLitgpt(KeyReader& r) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    setFramework(r, Framework::Lightning, LITGPT "litgpt/finetune/lora.py");
    run.precisionFixed = true;
    GPUSIZER_CHECK(walk(r, kLitgpt));
    const KeyRow& loss = rowOf(kLitgpt, "");
    s.loss = Loss::Chunked;
    run.lines.push_back({ImportLine::Kind::Defaulted, r.doc().position(""), "", "chunked_cross_entropy", loss.field,
                         verbatim(loss.source)});
    s.attention = Attention::Sdpa;
    s.checkpointing = Checkpointing::None; // one device; more are laid out once the count is known (finish)
    return {};
}

std::span<const KeyTable> litgptKeyTables() {
    static constexpr KeyTable kTables[] = {{ConfigFormat::Litgpt, LITGPT, kLitgpt}};
    return kTables;
}

} // namespace gpusizer::core::detail
