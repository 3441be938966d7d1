// Axolotl's training YAML (src/axolotl/utils/schemas/: config.py, peft.py, training.py, model.py, trl.py, fsdp.py and
// the validators that refuse combinations), as tables.

#include "../FormatSteps.h"

#include <algorithm>

namespace gpusizer::core::detail {

using nlohmann::json;

namespace {

#define AXOLOTL_PEFT AXOLOTL "src/axolotl/utils/schemas/peft.py"
#define LIGER_ARGS AXOLOTL "integrations/liger/args.py:31-55"

Result<void> applyRl(KeyReader& r, const std::string& key, const std::string& rl);
Result<void> readGrpo(KeyReader& r, const std::string& prefix);
Result<void> readFreezeMm(KeyReader& r, const std::string& prefix);
Result<void> readAdapter(KeyReader& r, const std::string& prefix);

constexpr KeyRow kModel[] = {
    {.key = "base_model",
     .field = "model",
     .kind = ValueKind::Text,
     .source = AXOLOTL "src/axolotl/utils/schemas/model.py:17",
     .convert = applyModelName,
     .shownDefault = "required"},
    // rl: dpo and ipo run TRL's DPOTrainer, orpo ORPOTrainer, kto KTOTrainer, simpo CPOTrainer (core/trainers/dpo,
    // rl.py L71-80, L135-149); the reference model is a second load for full fine-tuning, none with an adapter
    // (train.py L137-153).
    {.key = "rl",
     .field = "run_kind",
     .kind = ValueKind::Text,
     .source = AXOLOTL "src/axolotl/utils/schemas/enums.py RLType",
     .convert = applyRl,
     .shownKey = "`rl` (`dpo`, `ipo`, `orpo`, `kto`, `simpo`, `grpo`; `gdpo`, `ebft` noted and sized as supervised)",
     .shownField = "run_kind (the reference: a second load for full fine-tuning, none with an adapter, train.py "
                   "L137-153)",
     .shownDefault = "none: supervised"},
    {.key = "trl.",
     .field = "run_kind",
     .source = AXOLOTL "src/axolotl/utils/schemas/trl.py",
     .step = readGrpo,
     .shownKey = "`trl.num_generations`, `trl.max_completion_length`, `trl.beta`, `trl.use_vllm`, `trl.vllm_mode`, "
                 "`trl.vllm_gpu_memory_utilization`, `trl.vllm_enable_sleep_mode`, `trl.max_prompt_length` (rl: grpo)",
     .shownField = "as TRL's GRPOConfig keys (transformers / TRL)",
     .shownDefault = "TRL 1.8.0's (the version Axolotl pins): completion 256"},
    // freeze_mm_modules freezes the vision tower and the projector (utils/freeze.py L16-49); unset, nothing is frozen
    // (schemas/config.py L643-652).
    {.key = "freeze_mm_modules",
     .field = "freeze_vision_tower",
     .kind = ValueKind::Flag,
     .source = AXOLOTL "src/axolotl/utils/freeze.py L16-49",
     .step = readFreezeMm,
     .shownField = "freeze_vision_tower and freeze_projector (both)",
     .shownDefault = "unset: nothing frozen"},
    {.key = "adapter",
     .field = "method",
     .kind = ValueKind::Text,
     .source = AXOLOTL_PEFT,
     .step = readAdapter,
     .shownKey = "`adapter` (`lora`, `qlora`)",
     .shownDefault = "none: full fine-tuning"},
    {.key = "load_in_4bit",
     .field = "method",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = AXOLOTL "schemas/peft.py:37",
     .shownKey = "`load_in_4bit` / `load_in_8bit` (QLoRA needs 4 bits; a quantized base needs an adapter; "
                 "validate_qlora's refusals)",
     .shownField =
         "quantization of QLoRA's base, NF4 with double quantization built in code (loaders/model.py:712-742; "
         "`adapter: lora` with `load_in_4bit`: a 16-bit base cast to fp32, noted)"},
    {.key = "load_in_8bit",
     .field = "method",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = AXOLOTL "schemas/peft.py:31",
     .shownKey = ""},
    {.key = "merge_lora",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = AXOLOTL "schemas/peft.py:204 (merging, not training)",
     .shownField = "(a merge run: load_in_* refused, as validate_qlora refuses them)"},
};

Result<void> readTargets(KeyReader& r, const std::string& prefix);
Result<void> readModulesToSave(KeyReader& r, const std::string& prefix);

/// The adapter's arguments: rank, alpha, dropout, target modules (a list, a regular expression or every linear),
/// modules_to_save and DoRA.
constexpr KeyRow kLora[] = {
    {.key = "lora_r",
     .field = "lora.rank",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "8",
     .source = PEFT "LoraConfig r (Axolotl has no default)",
     .setInteger = setLoraRank},
    {.key = "lora_alpha",
     .field = "lora.alpha",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 1e6,
     .fallback = "8",
     .source = PEFT "LoraConfig lora_alpha (Axolotl has no default)",
     .setNumber = setLoraAlpha},
    {.key = "lora_dropout",
     .field = "lora.dropout",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 0.999,
     .fallback = "0.0",
     .source = AXOLOTL "schemas/peft.py:80",
     .setNumber = setLoraDropout},
    {.key = "lora_target_linear",
     .field = "lora.targets",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = AXOLOTL "loaders/adapter.py:174 (every linear but lm_head)",
     .step = readTargets,
     .shownField = "lora.targets: every linear but lm_head"},
    {.key = "lora_target_modules",
     .field = "lora.targets",
     .kind = ValueKind::List,
     .source = AXOLOTL "schemas/peft.py:56",
     .shownKey = "`lora_target_modules` (a list, or a regular expression: the module names it spells, noted)",
     .shownDefault = "PEFT's model default (q_proj, v_proj)"},
    {.key = "lora_modules_to_save",
     .field = "lora.modules_to_save",
     .kind = ValueKind::List,
     .source = AXOLOTL_PEFT,
     .step = readModulesToSave,
     .shownField = "lora.modules_to_save (lm_head, embed_tokens)",
     .shownDefault = "none"},
    {.key = "peft_use_dora",
     .field = "lora.kind",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = AXOLOTL "loaders/adapter.py:148",
     .setFlag = setDoraWhenOn,
     .shownField = "lora.kind `dora`"},
};

Result<void> readSequenceLen(KeyReader& r, const std::string& prefix);
Result<void> readContextParallel(KeyReader& r, const std::string& prefix);
Result<void> readSamplePacking(KeyReader& r, const std::string& prefix);
Result<void> readPrecision(KeyReader& r, const std::string& prefix);
Result<void> readCheckpointing(KeyReader& r, const std::string& prefix);
Result<void> readAttention(KeyReader& r, const std::string& prefix);
Result<void> readPlugins(KeyReader& r, const std::string& prefix);
Result<void> readDeepspeedOption(KeyReader& r, const std::string& prefix);
Result<void> readFsdp(KeyReader& r, const std::string& prefix);

constexpr KeyRow kTraining[] = {
    {.key = "sequence_len",
     .field = "seq_len",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 10000000,
     .fallback = "512",
     .source = AXOLOTL "schemas/config.py:665",
     .step = readSequenceLen,
     .shownField = "seq_len (GRPO: trl's prompt + completion where it names the prompt)"},
    // Sequence parallelism with ring-flash-attn (schemas/config.py:1101-1107; sequence_parallel_degree is the
    // deprecated name, validation.py check_context_parallel_size copies it).
    {.key = "context_parallel_size",
     .field = "context_parallel",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 1024,
     .fallback = "1",
     .source = AXOLOTL "schemas/config.py:1107",
     .step = readContextParallel,
     .shownKey = "`context_parallel_size` (older `sequence_parallel_degree`)",
     .shownField = "context_parallel (ring)"},
    {.key = "sample_packing",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = AXOLOTL "schemas/config.py:688",
     .step = readSamplePacking,
     .shownField = "(noted: every row is sequence_len long)"},
    {.key = "micro_batch_size",
     .field = "micro_batch",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "1",
     .source = AXOLOTL "schemas/training.py:77",
     .setInteger = setMicroBatch},
    {.key = "gradient_accumulation_steps",
     .field = "gradient_accumulation",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "1",
     .source = AXOLOTL "schemas/training.py:71",
     .setInteger = setGradientAccumulation},
    {.key = "optimizer",
     .field = "optimizer",
     .kind = ValueKind::Text,
     .fallback = "adamw_torch_fused",
     .source = AXOLOTL "schemas/training.py:122",
     .convert = applyHfOptimizer,
     .shownField = "optimizer (+ optimizer step; the names under transformers / TRL)"},
    {.key = "bf16",
     .field = "precision",
     .kind = ValueKind::Text,
     .fallback = "auto",
     .source = AXOLOTL "schemas/config.py:559",
     .step = readPrecision,
     .shownKey = "`bf16` (`true`, `false`, `auto`), `fp16`, `bfloat16`, `float16`",
     .shownField = "precision (weights load in that dtype; `auto` is bf16 unless fp16 is on; utils/config/__init__.py "
                   "resolve_dtype)"},
    {.key = "fp16",
     .field = "precision",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = AXOLOTL "schemas/config.py:565",
     .shownKey = ""},
    {.key = "bfloat16",
     .field = "precision",
     .kind = ValueKind::Flag,
     .source = AXOLOTL "schemas/config.py:582",
     .shownKey = ""},
    {.key = "float16",
     .field = "precision",
     .kind = ValueKind::Flag,
     .source = AXOLOTL "schemas/config.py:588",
     .shownKey = ""},
    {.key = "gradient_checkpointing",
     .field = "gradient_checkpointing",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = AXOLOTL "schemas/config.py:600",
     .step = readCheckpointing,
     .shownKey = "`gradient_checkpointing` (`true`, `offload`)",
     .shownField = "gradient_checkpointing (`offload`: + activation_offload)"},
    {.key = "activation_offloading",
     .field = "activation_offload",
     .kind = ValueKind::Flag,
     .source = AXOLOTL "schemas/config.py:623",
     .shownKey = "`activation_offloading` (`true`, `legacy`, `disk`, `hidden_states`; refused without checkpointing, "
                 "validation.py:1445)",
     .shownDefault = "false"},
    {.key = "attn_implementation",
     .field = "attention",
     .kind = ValueKind::Text,
     .source = AXOLOTL "schemas/config.py:839",
     .step = readAttention,
     .shownKey = "`attn_implementation`, or `flash_attention` / `sdp_attention` / `xformers_attention` / "
                 "`flex_attention` / `sage_attention` / `eager_attention` (the first in enums.py:118-125's order; "
                 "with `attn_implementation`: refused)",
     .shownDefault = "transformers' sdpa"},
    {.key = "flash_attention", // the older switches, one row for their field and source
     .field = "attention",
     .kind = ValueKind::Flag,
     .source = AXOLOTL "schemas/config.py:784-838",
     .shownKey = ""},
    {.key = "plugins",
     .source = AXOLOTL "schemas/config.py:1423",
     .step = readPlugins,
     .shownKey = "`plugins` + `cut_cross_entropy`",
     .shownField = "loss `cut-cross-entropy`",
     .shownDefault = "true once CutCrossEntropyPlugin is listed"},
    {.key = "cut_cross_entropy",
     .field = "loss",
     .kind = ValueKind::Flag,
     .fallback = "true",
     .source = AXOLOTL "integrations/cut_cross_entropy/args.py:33",
     .shownKey = ""},
    {.key = "liger_fused_linear_cross_entropy",
     .field = "loss",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = LIGER_ARGS,
     .shownKey = "`plugins` + `liger_fused_linear_cross_entropy`",
     .shownField = "loss `fused-linear`",
     .shownDefault = "false; without LigerPlugin: ignored"},
    {.key = "liger_rms_norm",
     .field = "liger_rms_norm",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = LIGER_ARGS,
     .shownKey = "`plugins` + `liger_rms_norm`, `liger_glu_activation` (`liger_swiglu`), `liger_rope`",
     .shownField = "liger_rms_norm, liger_glu, liger_rope",
     .shownDefault = "false; without LigerPlugin: ignored"},
    {.key = "liger_rope",
     .field = "liger_rope",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = LIGER_ARGS,
     .shownKey = ""},
    {.key = "liger_glu_activation",
     .field = "liger_glu",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = LIGER_ARGS,
     .shownKey = ""},
    {.key = "liger_layer_norm",
     .source = LIGER_ARGS,
     .shownKey = "`liger_layer_norm`, `liger_cross_entropy`",
     .shownField = "(noted: sized as the standard LayerNorm and loss)"},
    {.key = "deepspeed",
     .source = AXOLOTL "schemas/config.py:1032",
     .step = readDeepspeedOption,
     .shownField = "the DeepSpeed JSON it names, read",
     .shownDefault = "none"},
    // The older `fsdp:` list goes to TrainingArguments.fsdp; fsdp_config (keys with or without the fsdp_ prefix)
    // alone turns FSDP on.
    {.key = "fsdp_config",
     .field = "sharding",
     .source = AXOLOTL "src/axolotl/utils/schemas/fsdp.py",
     .step = readFsdp,
     .shownKey = "`fsdp_config` (`fsdp_version`, `offload_params`, `activation_checkpointing`, …; with or without the "
                 "`fsdp_` prefix), or the older `fsdp:` list (as the Trainer's `fsdp`)",
     .shownField = "sharding, sharding_engine, offload, gradient_checkpointing",
     .shownDefault = "as accelerate's"},
    // The top-level fsdp_version wins over fsdp_config's (validation.py:882-887).
    {.key = "fsdp_version",
     .field = "sharding_engine",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 2,
     .source = AXOLOTL "schemas/config.py:1052",
     .shownKey = "`fsdp_version` (top level, wins over fsdp_config's; validation.py:882-887)",
     .shownField = "sharding_engine `fsdp1` / `fsdp2`",
     .shownDefault = "1"},
};

Result<void> applyRl(KeyReader& r, const std::string& key, const std::string& rl) {
    applyObjective(r, key, rl);
    return {};
}

/// Its trl: section under rl: grpo, passed to TRL 1.8.0 (the version it pins: max_completion_length 256).
Result<void> readGrpo(KeyReader& r, const std::string& prefix) {
    if (r.run().scenario.runKind != RunKind::Grpo) {
        return {};
    }
    const KeyRow& row = rowOf(kModel, "trl.");
    return readGrpoKeys(r, prefix + row.key, row.source, 256);
}

Result<void> readFreezeMm(KeyReader& r, const std::string& prefix) {
    Scenario& s = r.run().scenario;
    GPUSIZER_ASSIGN(auto freeze, readFlag(r, rowOf(kModel, "freeze_mm_modules"), prefix));
    s.freezeVisionTower = s.freezeProjector = freeze.value_or(false);
    return {};
}

/// What Axolotl's own validation refuses (schemas/peft.py:202-224 validate_qlora), refused here with its key. A merge
/// run (merge_lora) takes the other branch: it merges into an unquantized base, so load_in_* is refused.
Result<void> refuseQloraCombinations(KeyReader& r, const std::string& prefix, bool four, bool eight, bool merge) {
    if (merge && (four || eight)) {
        return tl::unexpected(
            r.error(prefix + (four ? "load_in_4bit" : "load_in_8bit"),
                    QT_TRANSLATE_NOOP("gpusizer", "Axolotl refuses to merge a QLoRA adapter into a "
                                                  "quantized base (schemas/peft.py validate_qlora)")));
    }
    if (!merge && eight) {
        return tl::unexpected(
            r.error(prefix + "load_in_8bit", QT_TRANSLATE_NOOP("gpusizer", "Axolotl refuses QLoRA in 8 bits "
                                                                           "(schemas/peft.py validate_qlora): use "
                                                                           "load_in_4bit: true")));
    }
    if (!merge && !four) {
        return tl::unexpected(r.error(prefix + "adapter",
                                      QT_TRANSLATE_NOOP("gpusizer", "adapter: qlora needs load_in_4bit: true; Axolotl "
                                                                    "refuses it without (schemas/peft.py "
                                                                    "validate_qlora)")));
    }
    return {};
}

/// Axolotl builds its 4-bit BitsAndBytesConfig for qlora only (loaders/model.py:712) and its 8-bit one for lora (:740):
/// lora with load_in_4bit alone loads a 16-bit base, which PEFT's prepare_model_for_kbit_training casts to fp32 (peft
/// utils/other.py:197-208) unless the run is DeepSpeed ZeRO-3 or FSDP with cpu_ram_efficient_loading
/// (loaders/model.py:1002-1008); the stage is known once the DeepSpeed file is read (decidePrecision).
void applyAdapterLoad(KeyReader& r, const std::string& prefix, const std::string& adapter, bool four, bool eight) {
    RunDraft& run = r.run();
    run.method = adapter == "qlora" ? Method::Qlora : Method::Lora;
    run.load4bit = adapter == "qlora" && four;
    run.load8bit = eight;
    if (adapter == "lora" && four && !eight) {
        const json* efficient = r.doc().find(prefix + "fsdp_config.cpu_ram_efficient_loading");
        const json* prefixed = r.doc().find(prefix + "fsdp_config.fsdp_cpu_ram_efficient_loading");
        const auto on = [](const json* v) { return v != nullptr && v->is_boolean() && v->get<bool>(); };
        run.kbitCastToFp32 = !on(efficient) && !on(prefixed);
        r.noteKey(prefix + "load_in_4bit",
                  QT_TRANSLATE_NOOP("gpusizer", "Axolotl quantizes only with adapter: qlora (loaders/model.py:712); "
                                                "with adapter: lora the base loads in 16 bits and PEFT's "
                                                "prepare_model_for_kbit_training casts it to fp32, except under "
                                                "DeepSpeed ZeRO-3 or FSDP's cpu_ram_efficient_loading "
                                                "(loaders/model.py:1002-1008)"));
    }
    if (run.load4bit) {
        // QLoRA's BitsAndBytesConfig is built in code: NF4 with double quantization (loaders/model.py:712-742).
        run.scenario.quantization = Quantization::Nf4Dq;
    }
}

/// adapter (lora, qlora or none) with load_in_4bit / load_in_8bit as Axolotl's validation takes them, then the
/// adapter's arguments. load_in_8bit also decides the dtype the weights load in (run.load8bit, read by the precision).
Result<void> readAdapter(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    const KeyRow& adapterRow = rowOf(kModel, "adapter");
    GPUSIZER_ASSIGN(auto adapterText, readText(r, adapterRow, prefix));
    const std::string adapter = adapterText.value_or("");
    if (!adapterText) {
        run.lines.push_back({ImportLine::Kind::Defaulted, r.doc().position(""), prefix + adapterRow.key, "none",
                             adapterRow.field, QT_TRANSLATE_NOOP("gpusizer", "no adapter: full fine-tuning")});
    }
    GPUSIZER_ASSIGN(auto four, readFlag(r, rowOf(kModel, "load_in_4bit"), prefix));
    GPUSIZER_ASSIGN(auto eight, readFlag(r, rowOf(kModel, "load_in_8bit"), prefix));
    GPUSIZER_ASSIGN(auto merge, readFlag(r, rowOf(kModel, "merge_lora"), prefix));
    if (adapter == "qlora") {
        GPUSIZER_CHECK(refuseQloraCombinations(r, prefix, *four, *eight, *merge));
    }
    if (adapter == "lora" || adapter == "qlora") {
        applyAdapterLoad(r, prefix, adapter, *four, *eight);
        return walk(r, kLora, prefix);
    }
    if (!adapter.empty()) {
        return tl::unexpected(r.error(
            prefix + adapterRow.key,
            words(QT_TRANSLATE_NOOP("gpusizer", "adapter '%1' is not one GPU Sizer sizes (lora, qlora)"), adapter)));
    }
    run.method = Method::Full;
    if (*four || *eight) {
        return tl::unexpected(r.error(prefix + (*four ? "load_in_4bit" : "load_in_8bit"),
                                      QT_TRANSLATE_NOOP("gpusizer", "a quantized base needs an adapter (Axolotl's "
                                                                    "validate_adapter refuses it)")));
    }
    return {};
}

/// lora_target_linear adds every linear to lora_target_modules (a list or a regular expression); with neither, PEFT's
/// default targets for the model type.
Result<void> readTargets(KeyReader& r, const std::string& prefix) {
    const KeyRow& modulesRow = rowOf(kLora, "lora_target_modules");
    const std::string modulesKey = prefix + modulesRow.key;
    GPUSIZER_ASSIGN(auto linear, readFlag(r, rowOf(kLora, "lora_target_linear"), prefix));
    GPUSIZER_ASSIGN(auto targets, regexTargets(r, modulesKey, modulesRow.source));
    std::vector<std::string> names = targets.value_or(std::vector<std::string>{});
    if (*linear) {
        names.emplace_back("all-linear");
    }
    if (names.empty()) {
        names = {"q_proj", "v_proj"};
        r.run().lines.push_back({ImportLine::Kind::Defaulted, r.doc().position(""), modulesKey, "q_proj, v_proj",
                                 modulesRow.field,
                                 verbatim(PEFT "src/peft/utils/constants.py (the model type's default targets)")});
    }
    return applyTargets(r, modulesKey, names);
}

Result<void> readModulesToSave(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kLora, "lora_modules_to_save");
    return applyModulesToSave(r, prefix + row.key, row.source);
}

/// GRPO's sequence is its trl: prompt + completion where it names the prompt; sequence_len otherwise.
Result<void> readSequenceLen(KeyReader& r, const std::string& prefix) {
    Scenario& s = r.run().scenario;
    GPUSIZER_ASSIGN(auto seq, readInteger(r, rowOf(kTraining, "sequence_len"), prefix));
    if (s.runKind != RunKind::Grpo || !r.has(prefix + "trl.max_prompt_length")) {
        s.seqLen = std::max(*seq, s.runKind == RunKind::Grpo ? s.completionLength + 1 : std::int64_t{1});
    }
    return {};
}

Result<void> readContextParallel(KeyReader& r, const std::string& prefix) {
    Scenario& s = r.run().scenario;
    const KeyRow& row = rowOf(kTraining, "context_parallel_size");
    GPUSIZER_ASSIGN(auto cp,
                    readIntegerAt(r, row, spelling(r, prefix, {"context_parallel_size", "sequence_parallel_degree"}),
                                  std::stoll(row.fallback)));
    s.contextParallel = *cp;
    s.contextParallelKind = ContextParallel::Ring;
    return {};
}

Result<void> readSamplePacking(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kTraining, "sample_packing");
    GPUSIZER_ASSIGN(auto packing, readFlag(r, row, prefix));
    if (*packing) {
        r.noteKey(prefix + row.key, QT_TRANSLATE_NOOP("gpusizer", "packed: every row is sequence_len tokens long"));
    }
    return {};
}

/// bf16 (true, false or auto), fp16, and the dtype the weights load in (half in 8-bit loads).
Result<void> readPrecision(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    const KeyRow& bf16Row = rowOf(kTraining, "bf16");
    const std::string bf16Key = prefix + bf16Row.key;
    // bf16 "auto": bf16 on any GPU that has it (utils/config/__init__.py resolve_dtype); the weights load in it.
    GPUSIZER_ASSIGN(auto bf16Text, readText(r, bf16Row, prefix));
    // Literal["auto"] | bool, validated by pydantic in lax mode: "yes", "on", "1", "True" are true.
    const std::string bf16 = pydanticBool(bf16Text.value_or("auto")).value_or(bf16Text.value_or("auto"));
    GPUSIZER_ASSIGN(auto fp16, readFlag(r, rowOf(kTraining, "fp16"), prefix));
    // resolve_dtype: "auto" turns bf16 on only when fp16 is off; bfloat16 / float16 load in that dtype without AMP.
    const bool useBf16 = bf16 == "true" || (bf16 == "auto" && !*fp16);
    GPUSIZER_ASSIGN(auto bfloat16, readFlag(r, rowOf(kTraining, "bfloat16"), prefix));
    GPUSIZER_ASSIGN(auto float16, readFlag(r, rowOf(kTraining, "float16"), prefix));
    setTrainerCompute(run, useBf16 ? "bf16" : *fp16 ? "fp16" : "");
    const bool eight = run.method != Method::Full && run.load8bit; // load_in_8bit, as readAdapter took it
    run.loadDtype = useBf16 || bfloat16.value_or(false)           ? "bf16"
                    : (*fp16 || eight || float16.value_or(false)) ? "fp16"
                                                                  : "fp32";
    run.loadDtypeWhere = r.doc().position(bf16Key);
    if (bf16 != "auto" && bf16 != "true" && bf16 != "false") {
        // schemas/config.py:559 types bf16 as Literal["auto"] | bool: "full" and the rest are refused.
        return tl::unexpected(
            r.error(bf16Key, words(QT_TRANSLATE_NOOP("gpusizer", "Axolotl accepts bf16: true, false or auto, not '%1' "
                                                                 "(schemas/config.py:559)"),
                                   bf16)));
    }
    return {};
}

/// gradient_checkpointing (a switch, or offload) and activation_offloading.
Result<void> readCheckpointing(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    const KeyRow& gcRow = rowOf(kTraining, "gradient_checkpointing");
    const std::string gcKey = prefix + gcRow.key;
    if (const json* gc = r.value(gcKey); gc != nullptr && gc->is_string()) {
        s.checkpointing = Checkpointing::Full;
        s.activationOffload = gc->get<std::string>().rfind("offload", 0) == 0;
        run.lines.push_back({ImportLine::Kind::Used, r.doc().position(gcKey), gcKey, gc->get<std::string>(),
                             gcRow.field, verbatim(gcRow.source)});
    } else {
        GPUSIZER_ASSIGN(auto on, readFlag(r, gcRow, prefix));
        s.checkpointing = *on ? Checkpointing::Full : Checkpointing::None;
    }
    // activation_offloading: true, or the kind (legacy, disk, hidden_states): activations leave the GPU either way.
    const KeyRow& offloadRow = rowOf(kTraining, "activation_offloading");
    const std::string offloadKey = prefix + offloadRow.key;
    if (const json* off = r.value(offloadKey); off != nullptr && off->is_string()) {
        s.activationOffload = true;
        run.lines.push_back({ImportLine::Kind::Used, r.doc().position(offloadKey), offloadKey, off->get<std::string>(),
                             offloadRow.field, verbatim(offloadRow.source)});
    } else {
        GPUSIZER_ASSIGN(auto offload, readFlag(r, offloadRow, prefix));
        if (offload) {
            s.activationOffload = *offload;
        }
    }
    if (r.has(offloadKey) && s.activationOffload && s.checkpointing == Checkpointing::None) {
        // validation.py:1445-1448 refuses offloading the checkpoints of a run that keeps none.
        return tl::unexpected(
            r.error(offloadKey, QT_TRANSLATE_NOOP("gpusizer", "Axolotl refuses activation_offloading without "
                                                              "gradient_checkpointing (validation.py:1445)")));
    }
    return {};
}

/// Attention: attn_implementation, or the older switches it replaced; of several switches the first in
/// enums.py:118-125's order wins (LEGACY_ATTN_FLAG_TO_IMPL, read by normalize_attn_implementation).
Result<void> readAttention(KeyReader& r, const std::string& prefix) {
    const KeyRow& switchRow = rowOf(kTraining, "flash_attention");
    std::string attention = "sdpa";
    std::string attentionKey;
    for (const auto& [name, impl] :
         {std::pair{"xformers_attention", "xformers"}, std::pair{"sage_attention", "sage"},
          std::pair{"flex_attention", "flex_attention"}, std::pair{"flash_attention", "flash_attention_2"},
          std::pair{"sdp_attention", "sdpa"}, std::pair{"eager_attention", "eager"}}) {
        const std::string key = prefix + name;
        GPUSIZER_ASSIGN(auto on, readFlagAt(r, switchRow, key, std::nullopt));
        if (on && *on && !attentionKey.empty()) {
            r.noteKey(
                key, words(QT_TRANSLATE_NOOP("gpusizer", "not used: %1 comes first (enums.py:118-125)"), attentionKey));
        } else if (on && *on) {
            attention = impl;
            attentionKey = key;
        }
    }
    const KeyRow& implRow = rowOf(kTraining, "attn_implementation");
    const std::string implKey = prefix + implRow.key;
    GPUSIZER_ASSIGN(auto impl, readText(r, implRow, prefix));
    if (impl && !attentionKey.empty()) {
        // schemas/config.py:1527-1575 normalize_attn_implementation refuses the two together.
        return tl::unexpected(r.error(
            implKey,
            words(QT_TRANSLATE_NOOP("gpusizer", "Axolotl refuses attn_implementation together with the older "
                                                "switch '%1' (schemas/config.py normalize_attn_implementation): "
                                                "keep one"),
                  attentionKey)));
    }
    if (impl) {
        attention = *impl;
        attentionKey = implKey;
    } else if (attentionKey.empty()) {
        r.run().lines.push_back({ImportLine::Kind::Defaulted, r.doc().position(""), implKey, "sdpa", implRow.field,
                                 verbatim("transformers: sdpa where torch has it")});
        attentionKey = implKey;
    }
    return applyAttention(r, attentionKey, attention);
}

/// LigerPlugin's switches (integrations/liger/args.py).
Result<void> readLiger(KeyReader& r, const std::string& prefix) {
    Scenario& s = r.run().scenario;
    GPUSIZER_ASSIGN(auto flce, readFlag(r, rowOf(kTraining, "liger_fused_linear_cross_entropy"), prefix));
    if (*flce) {
        s.loss = Loss::FusedLinear;
    }
    GPUSIZER_ASSIGN(auto rmsNorm, readFlag(r, rowOf(kTraining, "liger_rms_norm"), prefix));
    s.ligerRmsNorm = *rmsNorm;
    GPUSIZER_ASSIGN(auto rope, readFlag(r, rowOf(kTraining, "liger_rope"), prefix));
    s.ligerRope = *rope;
    const KeyRow& gluRow = rowOf(kTraining, "liger_glu_activation");
    const std::string gluKey = prefix + (r.has(prefix + "liger_swiglu") ? "liger_swiglu" : gluRow.key);
    GPUSIZER_ASSIGN(auto glu, readFlagAt(r, gluRow, gluKey, false));
    s.ligerGlu = *glu;
    for (const char* key : {"liger_layer_norm", "liger_cross_entropy"}) {
        if (r.has(prefix + key)) {
            r.noteKey(prefix + key, QT_TRANSLATE_NOOP("gpusizer", "not modelled: Liger's LayerNorm and its "
                                                                  "cross-entropy over full logits are sized as the "
                                                                  "standard ones"));
        }
    }
    return {};
}

/// The Cut Cross-Entropy and Liger plugins, whose switches count only when the plugin is listed.
Result<void> readPlugins(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kTraining, "plugins");
    GPUSIZER_ASSIGN(auto plugins, readList(r, row, prefix));
    const auto hasPlugin = [&](const char* name) {
        return plugins && std::any_of(plugins->begin(), plugins->end(),
                                      [&](const std::string& p) { return p.find(name) != std::string::npos; });
    };
    if (hasPlugin("CutCrossEntropyPlugin")) {
        GPUSIZER_ASSIGN(auto cce, readFlag(r, rowOf(kTraining, "cut_cross_entropy"), prefix));
        if (*cce) {
            r.run().scenario.loss = Loss::CutCrossEntropy;
        }
    }
    if (hasPlugin("LigerPlugin")) {
        return readLiger(r, prefix);
    }
    for (const char* key : {"liger_fused_linear_cross_entropy", "liger_rope", "liger_rms_norm", "liger_glu_activation",
                            "liger_cross_entropy"}) {
        r.ignore(prefix + key, QT_TRANSLATE_NOOP("gpusizer", "has no effect without "
                                                             "axolotl.integrations.liger.LigerPlugin in plugins"));
    }
    return {};
}

Result<void> readDeepspeedOption(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kTraining, "deepspeed");
    return readDeepspeedKey(r, prefix + row.key, row.source);
}

/// FSDP from the older fsdp: list or fsdp_config, then the top-level fsdp_version.
Result<void> readFsdp(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    const KeyRow& row = rowOf(kTraining, "fsdp_config");
    if (r.has(prefix + "fsdp")) {
        GPUSIZER_CHECK(readTrainerFsdpOption(r, prefix + "fsdp", prefix + "fsdp_config.", row.source));
    } else if (r.has(prefix + "fsdp_config")) {
        GPUSIZER_CHECK(readFsdpConfig(r, prefix + "fsdp_config.", row.source));
    }
    if (run.fsdp) {
        GPUSIZER_ASSIGN(auto version, readInteger(r, rowOf(kTraining, "fsdp_version"), prefix));
        if (version) {
            run.scenario.shardingEngine = *version == 2 ? ShardingEngine::Fsdp2 : ShardingEngine::Fsdp1;
        }
    }
    return {};
}

} // namespace

Result<void> readAxolotl(KeyReader& r) {
    setFramework(r, Framework::Axolotl, AXOLOTL "(a Trainer subclass)");
    GPUSIZER_CHECK(walk(r, kModel));
    return walk(r, kTraining);
}

std::span<const KeyTable> axolotlKeyTables() {
    static constexpr KeyTable kTables[] = {
        {ConfigFormat::Axolotl, AXOLOTL, kModel},
        {ConfigFormat::Axolotl, AXOLOTL, kLora},
        {ConfigFormat::Axolotl, AXOLOTL, kTraining},
    };
    return kTables;
}

} // namespace gpusizer::core::detail
