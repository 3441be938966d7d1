// transformers' TrainingArguments and TRL's configs (SFTConfig, DPOConfig and its relatives, GRPOConfig, PPOConfig) as
// to_json_string() writes them, as tables.

#include "../FormatSteps.h"

#include <algorithm>

namespace gpusizer::core::detail {

using nlohmann::json;

namespace {

#define TRAINING_ARGS TRANSFORMERS "training_args.py "
#define SFT_CONFIG TRL "trl/trainer/sft_config.py"
#define DPO_CONFIG TRL "trl/trainer/dpo_config.py"

Result<void> readTrlObjective(KeyReader& r, const std::string& prefix);
Result<void> readPrecision(KeyReader& r, const std::string& prefix);
Result<void> readCheckpointing(KeyReader& r, const std::string& prefix);
Result<void> readSftSequence(KeyReader& r, const std::string& prefix);
Result<void> readLoadDtype(KeyReader& r, const std::string& prefix);
Result<void> readDeepspeedOption(KeyReader& r, const std::string& prefix);
Result<void> readFsdpOption(KeyReader& r, const std::string& prefix);

constexpr KeyRow kTrainer[] = {
    // TRL's configs, told apart by the keys only they have (read by readTrlObjective, GRPO's and PPO's below).
    {.key = "desirable_weight",
     .field = "run_kind",
     .source = TRL "trl/trainer/kto_config.py",
     .step = readTrlObjective,
     .shownKey = "`desirable_weight` / `undesirable_weight` (KTOConfig)",
     .shownField = "run_kind `kto`",
     .shownDefault = "–"},
    {.key = "cpo_alpha",
     .field = "run_kind",
     .source = TRL "trl/experimental/cpo",
     .shownKey = "`cpo_alpha` / `simpo_gamma` (CPOConfig)",
     .shownField = "run_kind `simpo` (CPO's sigmoid loss keeps the same tensors)",
     .shownDefault = "–"},
    {.key = "ref_model_init_kwargs",
     .field = "run_kind",
     .source = DPO_CONFIG,
     .shownKey = "`precompute_ref_log_probs`, `ref_model_init_kwargs`, `rpo_alpha`, `ref_model_sync_steps` (DPOConfig)",
     .shownField = "run_kind `dpo`",
     .shownDefault = "–"},
    {.key = "loss_type",
     .field = "run_kind",
     .kind = ValueKind::Text,
     .fallback = "sigmoid",
     .source = DPO_CONFIG " loss_type",
     .shownKey = "`loss_type` (a string, or a list since TRL 1.x: the first entry)",
     .shownField = "run_kind `ipo` for ipo, else `dpo`"},
    {.key = "precompute_ref_log_probs",
     .field = "reference_log_probs",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = DPO_CONFIG " precompute_ref_log_probs",
     .shownField = "reference_log_probs `precomputed`"},
    {.key = "per_device_train_batch_size",
     .field = "micro_batch",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "8",
     .source = TRAINING_ARGS "per_device_train_batch_size",
     .setInteger = setMicroBatch},
    {.key = "gradient_accumulation_steps",
     .field = "gradient_accumulation",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "1",
     .source = TRAINING_ARGS "gradient_accumulation_steps",
     .setInteger = setGradientAccumulation},
    {.key = "fp16",
     .field = "precision",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = TRAINING_ARGS "fp16",
     .step = readPrecision,
     .shownKey = "`bf16` / `fp16`",
     .shownField = "precision (with the load dtype and the engine; both true: refused, as TrainingArguments refuses "
                   "them)",
     .shownDefault = "false (TRL: bf16 unless fp16)"},
    {.key = "bf16",
     .field = "precision",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = TRAINING_ARGS "bf16",
     .shownKey = ""},
    {.key = "gradient_checkpointing",
     .field = "gradient_checkpointing",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = TRAINING_ARGS "gradient_checkpointing",
     .step = readCheckpointing,
     .shownDefault = "false (TRL: true since v0.22.0)"},
    {.key = "optim",
     .field = "optimizer",
     .kind = ValueKind::Text,
     .fallback = "adamw_torch_fused",
     .source = TRAINING_ARGS "optim (adamw_torch_fused with torch >= 2.8)",
     .convert = applyHfOptimizer,
     .shownField = "optimizer, optimizer step (the names below)",
     .shownDefault = "`adamw_torch_fused` (torch ≥ 2.8; `adamw_torch` before)"},
    {.key = "torch_compile",
     .field = "compile",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = TRAINING_ARGS "torch_compile",
     .setFlag = [](RunDraft& d, bool v) { d.scenario.compile = v; }},
    // Trainer._apply_liger_kernel_to_instance: apply_liger_kernel_to_<model>() with its defaults (rope, rms_norm,
    // swiglu and the fused linear cross-entropy; liger_kernel/transformers/monkey_patch.py @ead96b61).
    {.key = "use_liger_kernel",
     .field = "loss",
     .kind = ValueKind::Flag,
     .source = TRAINING_ARGS "use_liger_kernel",
     .setFlag =
         [](RunDraft& d, bool v) {
             if (v) {
                 setLigerKernels(d.scenario);
                 d.scenario.loss = Loss::FusedLinear;
             }
         },
     .shownField = "liger_rms_norm, liger_glu, liger_rope, loss `fused-linear` (apply_liger_kernel_to_<model>'s "
                   "defaults)",
     .shownDefault = "false"},
    {.key = "max_length",
     .field = "seq_len",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 10000000,
     .fallback = "1024",
     .source = SFT_CONFIG ":205 max_length",
     .step = readSftSequence,
     .shownKey = "`max_length` / `max_seq_length` (SFTConfig)",
     .shownDefault = "1024; `null` (no truncation) and plain TrainingArguments have none: GPU Sizer's 2,048, noted"},
    {.key = "packing",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = SFT_CONFIG ":225",
     .shownKey = "`packing` (SFTConfig)",
     .shownField = "(noted: every row is the full sequence length)"},
    {.key = "activation_offloading",
     .field = "activation_offload",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = SFT_CONFIG ":296",
     .shownKey = "`activation_offloading` (SFTConfig)"},
    // "dtype" since transformers v5 renamed torch_dtype (trl trainer/utils.py:1144 kwargs.get("dtype", "float32")).
    {.key = "model_init_kwargs.dtype",
     .field = "precision",
     .kind = ValueKind::Text,
     .source = SFT_CONFIG " model_init_kwargs",
     .step = readLoadDtype,
     .shownKey = "`model_init_kwargs.dtype` (`torch_dtype` before transformers v5)",
     .shownField = "precision (load dtype)",
     .shownDefault = "fp32"},
    {.key = "model_init_kwargs.attn_implementation",
     .field = "attention",
     .kind = ValueKind::Text,
     .fallback = "sdpa",
     .source = SFT_CONFIG " model_init_kwargs",
     .convert = applyAttention},
    {.key = "deepspeed",
     .source = TRAINING_ARGS "deepspeed",
     .step = readDeepspeedOption,
     .shownKey = "`deepspeed` (a path or an object)",
     .shownField = "read as a DeepSpeed config",
     .shownDefault = "none"},
    {.key = "fsdp",
     .field = "sharding",
     .source = TRAINING_ARGS "fsdp",
     .step = readFsdpOption,
     .shownKey = "`fsdp` (`full_shard`, `shard_grad_op`, `offload`, …) + `fsdp_config` (as accelerate's)",
     .shownField = "sharding, sharding_engine, offload",
     .shownDefault = "none"},
    {.key = "",
     .field = "lora.dtype",
     .source = TRL "trl/trainer/sft_trainer.py:1127-1130",
     .shownKey = "(a 4- or 8-bit base under SFTConfig)",
     .shownField = "lora.dtype bf16: SFTTrainer casts the adapters"},
};

/// GRPOConfig's generation keys (TRL's at the top level; Axolotl's under trl:, with its own default completion).
constexpr KeyRow kGrpo[] = {
    {.key = "num_generations",
     .field = "num_generations",
     .kind = ValueKind::Integer,
     .min = 2,
     .max = 65536,
     .fallback = "8",
     .source = TRL "trl/trainer/grpo_config.py L474-489",
     .shownKey = "`num_generations` (GRPOConfig: this, `use_vllm` or `vllm_mode` makes the run GRPO)",
     .shownField = "run_kind `grpo`, num_generations"},
    {.key = "max_completion_length",
     .field = "completion_length",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 16777216,
     .fallback = "512",
     .source = TRL "trl/trainer/grpo_config.py L474-489"},
    {.key = "beta",
     .field = "kl_beta",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 1e6,
     .fallback = "0.0",
     .source = TRL "trl/trainer/grpo_config.py L671-677"},
    {.key = "use_vllm",
     .field = "generation",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = TRL "trl/trainer/grpo_config.py L577-585",
     .shownKey = "`use_vllm`, `vllm_mode`",
     .shownField = "generation (`transformers` without vLLM; `vllm-colocate`, `vllm-server`)",
     .shownDefault = "false, `colocate`"},
    {.key = "vllm_mode",
     .field = "generation",
     .kind = ValueKind::Text,
     .fallback = "colocate",
     .source = TRL "trl/trainer/grpo_config.py L577-585",
     .shownKey = ""},
    {.key = "vllm_gpu_memory_utilization",
     .field = "vllm_gpu_memory_utilization",
     .kind = ValueKind::Number,
     .min = 0.01,
     .max = 0.99,
     .fallback = "0.3",
     .source = TRL "trl/trainer/grpo_config.py L602-647"},
    {.key = "vllm_enable_sleep_mode",
     .field = "vllm_sleep_mode",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = TRL "trl/trainer/grpo_config.py L602-647"},
    {.key = "max_prompt_length",
     .field = "seq_len",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 16777216,
     .source = TRL "trl/trainer/grpo_config.py @9692b168",
     .shownKey = "`max_prompt_length` (until TRL 0.26)",
     .shownField = "seq_len = prompt + completion (absent: noted, set it)",
     .shownDefault = "–"},
};

/// PPOConfig (trl/experimental/ppo/ppo_config.py): the query length is the data's, so seq_len is noted.
constexpr KeyRow kPpo[] = {
    {.key = "num_ppo_epochs",
     .field = "ppo_epochs",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 1000,
     .fallback = "4",
     .source = TRL "trl/experimental/ppo/ppo_config.py",
     .shownKey = "`num_ppo_epochs` (PPOConfig: this, `vf_coef` or `cliprange_value` makes the run PPO)",
     .shownField = "run_kind `ppo`, ppo_epochs (seq_len: noted, queries come from the data)"},
    {.key = "response_length",
     .field = "completion_length",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 16777216,
     .fallback = "53",
     .source = TRL "trl/experimental/ppo/ppo_config.py"},
};

/// A TRL SFTConfig has one of these (present, null or not): TRL's defaults apply where they differ from the Trainer's.
bool isSftConfig(const KeyReader& r, const std::string& prefix) {
    static const char* const kSftKeys[] = {"max_length", "max_seq_length", "packing", "dataset_text_field"};
    return std::any_of(std::begin(kSftKeys), std::end(kSftKeys),
                       [&](const char* k) { return r.doc().find(prefix + k) != nullptr; });
}

/// The reads in PPOConfig's order: the response length, then the epochs.
Result<void> readPpoKeys(KeyReader& r, const std::string& prefix) {
    Scenario& s = r.run().scenario;
    s.runKind = RunKind::Ppo;
    GPUSIZER_ASSIGN(auto response, readInteger(r, rowOf(kPpo, "response_length"), prefix));
    s.completionLength = *response;
    GPUSIZER_ASSIGN(auto epochs, readInteger(r, rowOf(kPpo, "num_ppo_epochs"), prefix));
    s.ppoEpochs = *epochs;
    s.seqLen = std::max(s.seqLen, s.completionLength + 1);
    r.run().lines.push_back({ImportLine::Kind::Note, r.doc().position(""), prefix + "response_length", "", "seq_len",
                             QT_TRANSLATE_NOOP("gpusizer", "PPO's queries come from the data: set seq_len to your "
                                                           "longest query + response_length")});
    return {};
}

/// The DPO variant loss_type names: a string, or a list since TRL 1.x (its first entry).
void readLossType(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kTrainer, "loss_type");
    const std::string key = prefix + row.key;
    const json* loss = r.doc().find(key);
    if (loss == nullptr) {
        return;
    }
    const std::string first = loss->is_array() && !loss->empty() && loss->front().is_string()
                                  ? loss->front().get<std::string>()
                                  : (loss->is_string() ? loss->get<std::string>() : std::string());
    r.value(key);
    r.run().lines.push_back(
        {ImportLine::Kind::Used, r.doc().position(key), key, first, row.field, verbatim(row.source)});
    applyObjective(r, key, first);
}

/// TRL's preference configs, told apart by the keys only they have: KTOConfig's desirable/undesirable weights,
/// CPOConfig's cpo_alpha and simpo_gamma, DPOConfig's reference options; loss_type names the DPO variant.
/// precompute_ref_log_probs drops the reference model while training.
Result<void> readTrlObjective(KeyReader& r, const std::string& prefix) {
    Scenario& s = r.run().scenario;
    const auto has = [&](const char* key) { return r.has(prefix + key); };
    if (has("num_generations") || has("use_vllm") || has("vllm_mode")) {
        return readGrpoKeys(r, prefix, TRL "trl/trainer/grpo_config.py", 512);
    }
    if (has("num_ppo_epochs") || has("vf_coef") || has("cliprange_value")) {
        return readPpoKeys(r, prefix);
    }
    if (has("desirable_weight") || has("undesirable_weight")) {
        s.runKind = RunKind::Kto;
    } else if (has("cpo_alpha") || has("simpo_gamma")) {
        s.runKind = RunKind::Simpo; // CPO's sigmoid loss keeps the same tensors: paired, no reference, an NLL term
    } else if (has("precompute_ref_log_probs") || has("ref_model_init_kwargs") || has("rpo_alpha") ||
               has("ref_model_sync_steps")) {
        s.runKind = RunKind::Dpo;
    } else {
        return {};
    }
    if (s.runKind == RunKind::Dpo) {
        readLossType(r, prefix);
    }
    if (referenceCanBePrecomputed(s)) {
        GPUSIZER_ASSIGN(auto precompute, readFlag(r, rowOf(kTrainer, "precompute_ref_log_probs"), prefix));
        s.referenceLogProbs = *precompute ? ReferenceLogProbs::Precomputed : ReferenceLogProbs::Model;
    }
    return {};
}

/// bf16 and fp16, with TRL's default (bf16 unless fp16, trl/trainer/base_config.py __post_init__) in an SFTConfig.
Result<void> readPrecision(KeyReader& r, const std::string& prefix) {
    const bool sft = isSftConfig(r, prefix);
    GPUSIZER_ASSIGN(auto fp16, readFlag(r, rowOf(kTrainer, "fp16"), prefix));
    const KeyRow& bf16Row = rowOf(kTrainer, "bf16");
    GPUSIZER_ASSIGN(auto bf16, r.flag(prefix + bf16Row.key, bf16Row.field,
                                      sft ? TRL "trl/trainer/base_config.py bf16 (on unless fp16)" : bf16Row.source,
                                      sft ? !*fp16 : false));
    GPUSIZER_CHECK(refuseBf16WithFp16(r, *bf16, *fp16));
    setTrainerCompute(r.run(), *bf16 ? "bf16" : *fp16 ? "fp16" : "");
    return {};
}

/// gradient_checkpointing, on by default in TRL's configs since v0.22.0 (trl/trainer/base_config.py).
Result<void> readCheckpointing(KeyReader& r, const std::string& prefix) {
    const bool sft = isSftConfig(r, prefix);
    const KeyRow& row = rowOf(kTrainer, "gradient_checkpointing");
    GPUSIZER_ASSIGN(
        auto gc,
        r.flag(prefix + row.key, row.field,
               sft ? TRL "trl/trainer/base_config.py gradient_checkpointing (true since v0.22.0)" : row.source, sft));
    r.run().scenario.checkpointing = *gc ? Checkpointing::Full : Checkpointing::None;
    return {};
}

/// TRL's SFT sequence length, packing and activation offloading; the Trainer's own arguments carry no length.
Result<void> readSftSequence(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    if (!isSftConfig(r, prefix)) {
        if (s.runKind != RunKind::Grpo) { // (GRPO's is prompt + completion, read with its keys)
            run.lines.push_back({ImportLine::Kind::Defaulted, r.doc().position(""), "", std::to_string(s.seqLen),
                                 "seq_len",
                                 QT_TRANSLATE_NOOP("gpusizer", "TrainingArguments carry no sequence length: GPU "
                                                               "Sizer's default (set it in the window or the "
                                                               "scenario)")});
        }
        return {};
    }
    const KeyRow& lengthRow = rowOf(kTrainer, "max_length");
    const std::string lengthKey = prefix + (r.has(prefix + "max_seq_length") ? "max_seq_length" : "max_length");
    if (const json* raw = r.doc().find(lengthKey); raw != nullptr && raw->is_null()) {
        r.value(lengthKey);
        run.lines.push_back({ImportLine::Kind::Note, r.doc().position(lengthKey), lengthKey, "null", lengthRow.field,
                             QT_TRANSLATE_NOOP("gpusizer", "null: no truncation, the longest sample's length; GPU "
                                                           "Sizer's default length is sized (set yours)")});
    } else {
        GPUSIZER_ASSIGN(auto length, readIntegerAt(r, lengthRow, lengthKey, std::stoll(lengthRow.fallback)));
        s.seqLen = *length;
    }
    const KeyRow& packingRow = rowOf(kTrainer, "packing");
    GPUSIZER_ASSIGN(auto packing, readFlag(r, packingRow, prefix));
    if (*packing) {
        r.noteKey(prefix + packingRow.key,
                  QT_TRANSLATE_NOOP("gpusizer", "packed: every row is the full sequence length"));
    }
    GPUSIZER_ASSIGN(auto activationOffload, readFlag(r, rowOf(kTrainer, "activation_offloading"), prefix));
    s.activationOffload = *activationOffload;
    return {};
}

/// The model's load dtype, as TRL's model_init_kwargs pass it to from_pretrained.
Result<void> readLoadDtype(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    const KeyRow& row = rowOf(kTrainer, "model_init_kwargs.dtype");
    const std::string key =
        prefix + (r.has(prefix + row.key) ? "model_init_kwargs.dtype" : "model_init_kwargs.torch_dtype");
    GPUSIZER_ASSIGN(auto dtype, readTextAt(r, row, key));
    if (dtype && (*dtype == "bfloat16" || *dtype == "float16" || *dtype == "auto")) {
        run.loadDtype = *dtype == "float16" ? "fp16" : "bf16";
        run.loadDtypeWhere = r.doc().position(key);
    } else if (!dtype) {
        run.lines.push_back({ImportLine::Kind::Defaulted, r.doc().position(""), "torch_dtype", "float32", row.field,
                             verbatim(TRANSFORMERS "modeling_utils.py from_pretrained: fp32 unless torch_dtype is "
                                                   "given (transformers 4.x)")});
    }
    return {};
}

Result<void> readDeepspeedOption(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kTrainer, "deepspeed");
    return readDeepspeedKey(r, prefix + row.key, row.source);
}

Result<void> readFsdpOption(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kTrainer, "fsdp");
    return readTrainerFsdpOption(r, prefix + row.key, prefix + "fsdp_config.", row.source);
}

} // namespace

Result<void> readGrpoKeys(KeyReader& r, const std::string& prefix, const char* source, std::int64_t completionDefault) {
    Scenario& s = r.run().scenario;
    s.runKind = RunKind::Grpo;
    // The rows' fields and ranges, with the caller's source (TRL's, or Axolotl's schema that passes them on).
    const auto integer = [&](const KeyRow& row, std::optional<std::int64_t> fallback) {
        return r.integer(prefix + row.key, row.field, source, static_cast<std::int64_t>(row.min),
                         static_cast<std::int64_t>(row.max), fallback);
    };
    const auto number = [&](const KeyRow& row) {
        return r.number(prefix + row.key, row.field, source, row.min, row.max, std::stod(row.fallback));
    };
    const auto flag = [&](const KeyRow& row) { return r.flag(prefix + row.key, row.field, source, false); };
    GPUSIZER_ASSIGN(auto generations, integer(rowOf(kGrpo, "num_generations"), 8));
    s.numGenerations = *generations;
    GPUSIZER_ASSIGN(auto completion, integer(rowOf(kGrpo, "max_completion_length"), completionDefault));
    s.completionLength = *completion;
    GPUSIZER_ASSIGN(auto beta, number(rowOf(kGrpo, "beta")));
    s.klBeta = *beta;
    GPUSIZER_ASSIGN(auto vllm, flag(rowOf(kGrpo, "use_vllm")));
    const KeyRow& modeRow = rowOf(kGrpo, "vllm_mode");
    GPUSIZER_ASSIGN(auto mode, r.text(prefix + modeRow.key, modeRow.field, source, std::string(modeRow.fallback)));
    s.generation = !*vllm              ? Generation::Transformers
                   : *mode == "server" ? Generation::VllmServer
                                       : Generation::VllmColocate;
    GPUSIZER_ASSIGN(auto share, number(rowOf(kGrpo, "vllm_gpu_memory_utilization")));
    s.vllmMemoryUtilization = *share;
    GPUSIZER_ASSIGN(auto sleep, flag(rowOf(kGrpo, "vllm_enable_sleep_mode")));
    s.vllmSleepMode = *sleep;
    // seq_len is prompt + completion: TRL no longer has a prompt length (max_prompt_length, removed in 89070d24).
    GPUSIZER_ASSIGN(auto prompt, integer(rowOf(kGrpo, "max_prompt_length"), std::nullopt));
    if (prompt) {
        s.seqLen = *prompt + s.completionLength;
    } else {
        s.seqLen = std::max(s.seqLen, s.completionLength + 1);
        r.run().lines.push_back({ImportLine::Kind::Note, r.doc().position(""), prefix + "max_prompt_length", "",
                                 "seq_len",
                                 QT_TRANSLATE_NOOP("gpusizer", "no prompt length in the config: set seq_len to your "
                                                               "longest prompt + completion_length")});
    }
    return {};
}

Result<void> readTrainingArguments(KeyReader& r) {
    setFramework(r, Framework::HfTrainer, TRANSFORMERS "Trainer");
    GPUSIZER_CHECK(walk(r, kTrainer));
    if (isSftConfig(r, "")) {
        r.run().sftQuantizedAdaptersBf16 = true;
    }
    return {};
}

std::span<const KeyTable> trainerKeyTables() {
    static constexpr KeyTable kTables[] = {
        {ConfigFormat::TrainingArguments, TRANSFORMERS, kTrainer},
        {ConfigFormat::TrainingArguments, TRL, kGrpo},
        {ConfigFormat::TrainingArguments, TRL, kPpo},
    };
    return kTables;
}

} // namespace gpusizer::core::detail
