// ArcticTraining's trainer YAML (snowflakedb/ArcticTraining): a transformers model under deepspeed.initialize,
// DeepSpeed Ulysses, TiledMLP and checkpoint offload (arctic_training/config/trainer.py, config/model.py,
// config/data.py, model/liger_factory.py), as a table.

#include "../FormatSteps.h"

namespace gpusizer::core::detail {

using nlohmann::json;

namespace {

Result<void> refusePeft(KeyReader& r, const std::string& prefix);
Result<void> noteOtherTrainer(KeyReader& r, const std::string& key, const std::string& type);
Result<void> readPackSamples(KeyReader& r, const std::string& prefix);
Result<void> readModelType(KeyReader& r, const std::string& prefix);
Result<void> applyModelDtype(KeyReader& r, const std::string& key, const std::string& dtype);
Result<void> applyOptimizer(KeyReader& r, const std::string& key, const std::string& type);
Result<void> readArcticDeepspeed(KeyReader& r, const std::string& prefix);

constexpr const char* kNoMemory = QT_TRANSLATE_NOOP("gpusizer", "does not change GPU memory");

constexpr KeyRow kArctic[] = {
    {.key = "model.peft_config",
     .source = ARCTIC "config/model.py",
     .step = refusePeft,
     .shownField = "refused with the reason: ArcticTraining's adapters are not imported yet"},
    {.key = "type",
     .kind = ValueKind::Text,
     .fallback = "sft",
     .source = ARCTIC "config/trainer.py:70",
     .convert = noteOtherTrainer,
     .shownField = "(another trainer is noted and sized as supervised fine-tuning of one model)"},
    {.key = "model.name_or_path",
     .field = "model",
     .kind = ValueKind::Text,
     .source = ARCTIC "config/model.py",
     .convert = applyModelName,
     .shownDefault = "required"},
    {.key = "micro_batch_size",
     .field = "micro_batch",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "1",
     .source = ARCTIC "config/trainer.py:123",
     .setInteger = setMicroBatch},
    {.key = "gradient_accumulation_steps",
     .field = "gradient_accumulation",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "1",
     .source = ARCTIC "config/trainer.py:120",
     .setInteger = setGradientAccumulation},
    {.key = "data.max_length",
     .field = "seq_len",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 1'000'000'000,
     .fallback = "8192",
     .source = ARCTIC "config/data.py:96",
     .setInteger = setSeqLen},
    {.key = "data.pack_samples",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = ARCTIC "data/sft_factory.py:248",
     .step = readPackSamples,
     .shownField = "seq_len as above (noted: packed up to the length, short of it by less than one sample)"},
    // DeepSpeed Ulysses over sequence_parallel_size ranks (its degree must divide the query heads, USAGE.md).
    {.key = "sequence_parallel_size",
     .field = "context_parallel",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 1024,
     .fallback = "1",
     .source = ARCTIC "config/trainer.py:126",
     .setInteger =
         [](RunDraft& d, std::int64_t v) {
             d.scenario.contextParallel = v;
             d.scenario.contextParallelKind = ContextParallel::Ulysses;
             if (v > 1) {
                 d.gpus = v; // the launch's process count (at least the degree) replaces it
                 d.gpusDefaulted = true;
             }
         },
     .shownField = "context_parallel (Ulysses); GPUs at least the degree (the launch's `--gpus` replaces it)"},
    {.key = "tiled_mlp_compute",
     .field = "tiled_mlp",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = ARCTIC "config/trainer.py:145",
     .setFlag = [](RunDraft& d, bool v) { d.scenario.tiledMlp = v; }},
    {.key = "activation_checkpoint_cpu_offload",
     .field = "activation_offload",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = ARCTIC "config/trainer.py:142 (monkey_patches.py: the checkpointed layer inputs in host memory)",
     .setFlag = [](RunDraft& d, bool v) { d.scenario.activationOffload = v; }},
    {.key = "model.disable_activation_checkpoint",
     .field = "gradient_checkpointing",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = ARCTIC "config/model.py:51",
     .setFlag = [](RunDraft& d, bool v) { d.scenario.checkpointing = v ? Checkpointing::None : Checkpointing::Full; },
     .shownField = "gradient_checkpointing none / full",
     .shownDefault = "false (full)"},
    {.key = "model.attn_implementation",
     .field = "attention",
     .kind = ValueKind::Text,
     .fallback = "sdpa",
     .source = ARCTIC "config/model.py:48",
     .convert = applyAttention},
    {.key = "model.type",
     .kind = ValueKind::Text,
     .fallback = "",
     .source = ARCTIC "config/model.py:36",
     .step = readModelType,
     .shownKey = "`model.type: liger`",
     .shownField =
         "Liger RoPE, RMSNorm, fused linear cross-entropy; SwiGLU unless TiledMLP (model/liger_factory.py:42); "
         "without Liger under sequence parallelism: loss fused-linear (DeepSpeed's TiledFusedLogitsLoss, one "
         "tile of logits at a time; trainer/sft_trainer.py)",
     .shownDefault = "(plain)"},
    {.key = "model.dtype",
     .field = "precision",
     .kind = ValueKind::Text,
     .fallback = "bf16",
     .source = ARCTIC "config/model.py:42",
     .convert = applyModelDtype,
     .shownField = "precision (DeepSpeed bfloat16 added from it, trainer.py:431-433)"},
    {.key = "optimizer.type",
     .field = "optimizer",
     .kind = ValueKind::Text,
     .fallback = "fused_adam",
     .source = ARCTIC "optimizer/adam_factory.py",
     .convert = applyOptimizer,
     .shownKey = "`optimizer.type` (`fused_adam`, `cpu_adam`)",
     .shownField = "optimizer AdamW"},
    {.key = "deepspeed.",
     .field = "sharding",
     .source = ARCTIC "config/trainer.py:421-430",
     .step = readArcticDeepspeed,
     .shownKey = "`deepspeed.zero_optimization`",
     .shownField = "sharding, offload, buckets (as a DeepSpeed JSON; DeepSpeed's defaults when the section is given)",
     .shownDefault = "ZeRO-2 with buckets from the hidden size, `hidden²` / `0.9·hidden²` (build_deepspeed_config)"},
    {.key = "deepspeed.train_micro_batch_size_per_gpu",
     .source = ARCTIC "config/trainer.py:398, :402",
     .shownKey = "`deepspeed.train_micro_batch_size_per_gpu`, `deepspeed.gradient_accumulation_steps`",
     .shownField = "noted: ArcticTraining writes its own over them"},
    {.key = "data.sources", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "data.cache_dir", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "data.dl_num_workers", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "data.num_proc", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "logger", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "checkpoint", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "scheduler", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "optimizer.learning_rate", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "optimizer.lr", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "optimizer.betas", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "optimizer.weight_decay", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "exit_iteration", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "min_iterations", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "train_iters", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "epochs", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "seed", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "wandb", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "tokenizer", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "eval_interval", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "train_log_iter_interval", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "deepspeed.seq_parallel_communication_data_type", .kind = ValueKind::Ignored, .why = kNoMemory},
};

Result<void> refusePeft(KeyReader& r, const std::string& prefix) {
    const std::string key = prefix + "model.peft_config";
    if (!r.has(key)) {
        return {};
    }
    return tl::unexpected(r.error(key, QT_TRANSLATE_NOOP("gpusizer", "ArcticTraining's PEFT adapters are not "
                                                                     "imported yet: size the run as LoRA in the "
                                                                     "window")));
}

Result<void> noteOtherTrainer(KeyReader& r, const std::string& key, const std::string& type) {
    if (type != "sft") {
        r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "sized as supervised fine-tuning of one model"));
    }
    return {};
}

Result<void> readPackSamples(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kArctic, "data.pack_samples");
    const std::string key = prefix + row.key;
    if (!r.has(key)) {
        return {};
    }
    GPUSIZER_ASSIGN(auto packed, readFlag(r, row, prefix));
    if (*packed) {
        r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "packed: sequences up to max_length, short of it by less than one "
                                                     "sample"));
    }
    return {};
}

/// model.type (Liger's kernels) or, under sequence parallelism, DeepSpeed's tiled loss.
Result<void> readModelType(KeyReader& r, const std::string& prefix) {
    Scenario& s = r.run().scenario;
    const KeyRow& row = rowOf(kArctic, "model.type");
    const std::string key = prefix + row.key;
    GPUSIZER_ASSIGN(auto modelType, readText(r, row, prefix));
    if (*modelType == "liger") {
        // AutoLigerKernelForCausalLM with its defaults, but without SwiGLU when TiledMLP patches the MLP
        // (model/liger_factory.py:42); the loss is Liger's fused linear cross-entropy.
        s.ligerRmsNorm = true;
        s.ligerRope = true;
        s.ligerGlu = !s.tiledMlp;
        s.loss = Loss::FusedLinear;
        r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "Liger: RoPE, RMSNorm, SwiGLU (not with TiledMLP) and the fused "
                                                     "linear cross-entropy"));
    } else if (s.contextParallel > 1) {
        // sft_trainer.py: TiledFusedLogitsLoss (ulysses_sp.py) projects, scores and runs backward one tile of about
        // 1 GiB of fp32 logits at a time into a preallocated gradient of the hidden states: a fused linear loss.
        r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "with sequence parallelism the loss is DeepSpeed's "
                                                     "TiledFusedLogitsLoss, one tile of logits at a time: sized as "
                                                     "the fused linear cross-entropy"));
        s.loss = Loss::FusedLinear;
    }
    return {};
}

Result<void> applyModelDtype(KeyReader& r, const std::string& /*key*/, const std::string& dtype) {
    RunDraft& run = r.run();
    if (dtype == "bf16" || dtype == "bfloat16") {
        run.loadDtype = "bf16";
        run.compute = "bf16"; // build_deepspeed_config adds bfloat16.enabled (config/trainer.py:431-433)
    } else if (dtype == "fp16" || dtype == "float16") {
        run.loadDtype = "fp16";
        run.compute = "fp16";
    } else {
        run.loadDtype = "fp32";
    }
    return {};
}

Result<void> applyOptimizer(KeyReader& r, const std::string& key, const std::string& type) {
    r.run().scenario.optimizer = Optimizer::AdamW;
    // (fused_adam, cpu_adam and their _moe variants are all Adam)
    if (type.rfind("fused_adam", 0) != 0 && type.rfind("cpu_adam", 0) != 0) {
        r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "sized as AdamW"));
    }
    return {};
}

/// Its deepspeed: section, or the ZeRO-2 section build_deepspeed_config writes without one; the trainer's micro-batch
/// and accumulation win over DeepSpeed's.
Result<void> readArcticDeepspeed(KeyReader& r, const std::string& prefix) {
    Scenario& s = r.run().scenario;
    const std::int64_t trainerMicroBatch = s.microBatch;
    const std::int64_t trainerAccumulation = s.gradientAccumulation;
    const std::string section = prefix + "deepspeed.";
    // Without a zero_optimization section build_deepspeed_config writes its own (trainer.py:421-430): ZeRO-2 with
    // buckets from the hidden size, hidden² to reduce and 0.9 x hidden² to prefetch (the profile's "0").
    ZeroDefaults defaults;
    if (!r.has(section + "zero_optimization")) {
        defaults = {2, 0.0, 0.0, ARCTIC "config/trainer.py:421-430",
                    ARCTIC "config/trainer.py:421-430 (0: hidden² to reduce, 0.9 × hidden² to prefetch)"};
    }
    GPUSIZER_CHECK(readDeepspeed(r, section, defaults));
    // build_deepspeed_config writes the trainer's own micro-batch and accumulation over DeepSpeed's (trainer.py:398,
    // :402).
    for (const char* key : {"train_micro_batch_size_per_gpu", "gradient_accumulation_steps"}) {
        if (r.has(section + key)) {
            r.noteKey(section + key, QT_TRANSLATE_NOOP("gpusizer", "ArcticTraining overwrites it with "
                                                                   "micro_batch_size and gradient_accumulation_steps"));
        }
    }
    s.microBatch = trainerMicroBatch;
    s.gradientAccumulation = trainerAccumulation;
    return {};
}

} // namespace

Result<void> readArcticTraining(KeyReader& r) {
    setFramework(r, Framework::Deepspeed, ARCTIC "arctic_training/trainer/trainer.py (deepspeed.initialize)");
    r.run().method = Method::Full;
    return walk(r, kArctic);
}

std::span<const KeyTable> arcticKeyTables() {
    static constexpr KeyTable kTables[] = {{ConfigFormat::ArcticTraining, ARCTIC, kArctic}};
    return kTables;
}

} // namespace gpusizer::core::detail
