// LLaMA-Factory's training YAML (hparams/model_args.py, finetuning_args.py, data_args.py and the transformers
// Seq2SeqTrainingArguments it extends), as tables.

#include "../FormatSteps.h"

namespace gpusizer::core::detail {

using nlohmann::json;

namespace {

#define LF_FINETUNING LLAMAFACTORY "src/llamafactory/hparams/finetuning_args.py"
#define LF_MODEL_ARGS LLAMAFACTORY "src/llamafactory/hparams/model_args.py"

Result<void> readUnsloth(KeyReader& r, const std::string& prefix);
Result<void> readStage(KeyReader& r, const std::string& prefix);
Result<void> noteRefModel(KeyReader& r, const std::string& prefix);
Result<void> readVision(KeyReader& r, const std::string& prefix);
Result<void> readFinetuningType(KeyReader& r, const std::string& prefix);

constexpr KeyRow kHead[] = {
    {.key = "use_unsloth",
     .field = "framework",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = LF_MODEL_ARGS,
     .step = readUnsloth,
     .shownField = "framework `unsloth` (else `hf-trainer`: a transformers Seq2SeqTrainer)"},
    {.key = "model_name_or_path",
     .field = "model",
     .kind = ValueKind::Text,
     .source = LF_MODEL_ARGS,
     .convert = applyModelName,
     .shownDefault = "required"},
    {.key = "stage",
     .field = "run_kind",
     .kind = ValueKind::Text,
     .fallback = "sft",
     .source = LF_FINETUNING,
     .step = readStage,
     .shownKey = "`stage` (`dpo`, `kto`; `rm` and `ppo` noted and sized as supervised)"},
    {.key = "pref_loss",
     .field = "run_kind",
     .kind = ValueKind::Text,
     .fallback = "sigmoid",
     .source = LLAMAFACTORY "hparams/finetuning_args.py pref_loss",
     .shownKey = "`pref_loss` (`sigmoid`, `hinge`, `kto_pair` → dpo; `ipo`, `orpo`, `simpo`)",
     .shownField = "run_kind with stage `dpo` (orpo and simpo without a reference model, finetuning_args.py L593)"},
    {.key = "ref_model",
     .source = LLAMAFACTORY "train/trainer_utils.py L116-146",
     .step = noteRefModel,
     .shownField = "(noted: a named reference is sized as a copy of the policy under full fine-tuning, not beside "
                   "LoRA)",
     .shownDefault = "none"},
    {.key = "freeze_vision_tower",
     .field = "freeze_vision_tower",
     .kind = ValueKind::Flag,
     .fallback = "true",
     .source = LF_FINETUNING " L546-557",
     .step = readVision,
     .shownField = "freeze_vision_tower (a vision-language model; reported for a multimodal `template`); false with "
                   "`lora_target: all`: lora.vision_targets `encoder` (misc.py L28-52)"},
    {.key = "freeze_multi_modal_projector",
     .field = "freeze_projector",
     .kind = ValueKind::Flag,
     .fallback = "true",
     .source = LF_FINETUNING " L546-557"},
    {.key = "image_max_pixels",
     .field = "image_max_pixels",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = static_cast<double>(1LL << 32),
     .fallback = "589824",
     .source = LF_MODEL_ARGS " L305-316",
     .shownField = "image_max_pixels (a resize before the processor, data/mm_plugin.py L218-235)",
     .shownDefault = "589,824 (768 × 768)"},
    {.key = "finetuning_type",
     .field = "method",
     .kind = ValueKind::Text,
     .fallback = "lora",
     .source = LF_FINETUNING,
     .step = readFinetuningType,
     .shownKey = "`finetuning_type` (`lora`, `full`, `freeze`)",
     .shownField = "method (`freeze`: full with trainable_layers)"},
};

Result<void> readFreezeLayers(KeyReader& r, const std::string& prefix);
Result<void> noteFreezeModules(KeyReader& r, const std::string& key, const std::string& modules);
Result<void> noteFreezeExtras(KeyReader& r, const std::string& prefix);

/// Freeze tuning (FreezeArguments, model/adapter.py _setup_freeze_tuning).
constexpr KeyRow kFreeze[] = {
    {.key = "freeze_trainable_layers",
     .field = "trainable_layers",
     .kind = ValueKind::Integer,
     .min = -1000000,
     .max = 1000000,
     .fallback = "2",
     .source = LF_FINETUNING,
     .step = readFreezeLayers,
     .shownKey = "`freeze_trainable_layers` (negative: the first layers, sized as the last, noted)"},
    {.key = "freeze_trainable_modules",
     .field = "trainable_layers",
     .kind = ValueKind::Text,
     .fallback = "all",
     .source = LF_FINETUNING,
     .convert = noteFreezeModules,
     .shownKey = "`freeze_trainable_modules` / `freeze_extra_modules` / `use_llama_pro`",
     .shownField = "(noted: every module of the trained layers trains, no extra modules, the last layers)",
     .shownDefault = "`all` / none / false"},
    {.key = "freeze_extra_modules", .step = noteFreezeExtras, .shownKey = ""},
};

Result<void> readAlpha(KeyReader& r, const std::string& prefix);
Result<void> readTarget(KeyReader& r, const std::string& prefix);
Result<void> readAdditionalTarget(KeyReader& r, const std::string& prefix);

/// finetuning_type lora: rank, alpha (twice the rank unless set), dropout, targets, extra modules and DoRA.
constexpr KeyRow kLora[] = {
    {.key = "lora_rank",
     .field = "lora.rank",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "8",
     .source = LF_FINETUNING,
     .setInteger = setLoraRank},
    {.key = "lora_alpha",
     .field = "lora.alpha",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 1e6,
     .source = LLAMAFACTORY "finetuning_args.py __post_init__ (2 × lora_rank)",
     .step = readAlpha,
     .shownDefault = "2 × lora_rank"},
    {.key = "lora_dropout",
     .field = "lora.dropout",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 0.999,
     .fallback = "0.0",
     .source = LF_FINETUNING,
     .setNumber = setLoraDropout},
    {.key = "lora_target",
     .field = "lora.targets",
     .kind = ValueKind::List,
     .source = LF_FINETUNING,
     .step = readTarget,
     .shownKey = "`lora_target` (`all` = every linear but lm_head)",
     .shownDefault = "`all`"},
    {.key = "additional_target",
     .field = "lora.modules_to_save",
     .kind = ValueKind::List,
     .source = LF_FINETUNING,
     .step = readAdditionalTarget,
     .shownDefault = "none"},
    {.key = "use_dora",
     .field = "lora.kind",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = LLAMAFACTORY "hparams/finetuning_args.py:103",
     .setFlag = setDoraWhenOn,
     .shownField = "lora.kind `dora`"},
};

Result<void> readQuantization(KeyReader& r, const std::string& prefix);
Result<void> readPacking(KeyReader& r, const std::string& prefix);
Result<void> readPrecision(KeyReader& r, const std::string& prefix);
Result<void> readLiger(KeyReader& r, const std::string& prefix);
Result<void> readDeepspeedOption(KeyReader& r, const std::string& prefix);

constexpr KeyRow kRest[] = {
    {.key = "quantization_bit",
     .field = "method",
     .kind = ValueKind::Integer,
     .min = 2,
     .max = 8,
     .source = LF_MODEL_ARGS,
     .step = readQuantization,
     .shownKey = "`quantization_bit` (4, 8; LoRA only, as hparams/parser.py:236 refuses it otherwise)",
     .shownField = "method (QLoRA), quantization",
     .shownDefault = "no quantization"},
    {.key = "quantization_method",
     .field = "quantization",
     .kind = ValueKind::Text,
     .fallback = "bnb",
     .source = LF_MODEL_ARGS,
     .shownField = "quantization (another method: sized as bitsandbytes of the same width, noted)"},
    {.key = "double_quantization",
     .field = "quantization",
     .kind = ValueKind::Flag,
     .fallback = "true",
     .source = LF_MODEL_ARGS,
     .shownField = "quantization `nf4-dq`"},
    {.key = "cutoff_len",
     .field = "seq_len",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 10000000,
     .fallback = "2048",
     .source = LLAMAFACTORY "src/llamafactory/hparams/data_args.py:46",
     .setInteger = setSeqLen},
    {.key = "packing",
     .kind = ValueKind::Flag,
     .source = LLAMAFACTORY "data_args.py:108 (on for stage pt)",
     .step = readPacking,
     .shownField = "(noted: every row is cutoff_len tokens long)",
     .shownDefault = "on for stage `pt`"},
    {.key = "per_device_train_batch_size",
     .field = "micro_batch",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "8",
     .source = TRANSFORMERS "training_args.py per_device_train_batch_size",
     .setInteger = setMicroBatch},
    {.key = "gradient_accumulation_steps",
     .field = "gradient_accumulation",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "1",
     .source = TRANSFORMERS "training_args.py",
     .setInteger = setGradientAccumulation},
    {.key = "bf16",
     .field = "precision",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = TRANSFORMERS "training_args.py bf16",
     .step = readPrecision,
     .shownKey = "`bf16`, `fp16`, `pure_bf16`",
     .shownField = "precision (weights load in the compute dtype, bf16 without either; full fine-tuning upcasts "
                   "trainable weights to fp32 unless `pure_bf16`; model/patcher.py:375-379, model/adapter.py:337-346)"},
    {.key = "fp16",
     .field = "precision",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = TRANSFORMERS "training_args.py fp16",
     .shownKey = ""},
    {.key = "pure_bf16",
     .field = "precision",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = LF_FINETUNING,
     .shownKey = ""},
    {.key = "flash_attn",
     .field = "attention",
     .kind = ValueKind::Text,
     .fallback = "auto",
     .source = LF_MODEL_ARGS,
     .convert = applyAttention,
     .shownKey = "`flash_attn` (`auto`, `fa2`, `sdpa`, `disabled`)",
     .shownDefault = "`auto` (sdpa)"},
    {.key = "optim",
     .field = "optimizer",
     .kind = ValueKind::Text,
     .fallback = "adamw_torch_fused",
     .source = TRANSFORMERS "training_args.py optim",
     .convert = applyHfOptimizer},
    {.key = "enable_liger_kernel",
     .field = "loss",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = LF_MODEL_ARGS,
     .step = readLiger,
     .shownField = "liger_rms_norm, liger_glu, liger_rope; loss `fused-linear` (stages rm, ppo, dpo, kto keep the "
                   "logits: standard; model/model_utils/liger_kernel.py)"},
    {.key = "disable_gradient_checkpointing",
     .field = "gradient_checkpointing",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = LLAMAFACTORY "model/model_utils/checkpointing.py:184-197 (on unless disabled)",
     .setFlag = [](RunDraft& d, bool v) { d.scenario.checkpointing = v ? Checkpointing::None : Checkpointing::Full; },
     .shownField = "gradient_checkpointing (on unless disabled)"},
    {.key = "deepspeed",
     .source = TRANSFORMERS "training_args.py deepspeed",
     .step = readDeepspeedOption,
     .shownField = "the DeepSpeed JSON it names, read",
     .shownDefault = "none"},
};

/// The stage the file names (read by its row), or LLaMA-Factory's sft.
std::string stageOf(const KeyReader& r, const std::string& prefix) {
    const json* stage = r.peek(prefix + "stage");
    return stage != nullptr && stage->is_string() ? stage->get<std::string>() : "sft";
}

Result<void> readUnsloth(KeyReader& r, const std::string& prefix) {
    GPUSIZER_ASSIGN(auto unsloth, readFlag(r, rowOf(kHead, "use_unsloth"), prefix));
    setFramework(r, *unsloth ? Framework::Unsloth : Framework::HfTrainer,
                 LLAMAFACTORY "(a transformers Seq2SeqTrainer subclass)");
    return {};
}

Result<void> readStage(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kHead, "stage");
    GPUSIZER_ASSIGN(auto stage, readText(r, row, prefix));
    if (*stage == "dpo") {
        // pref_loss picks the loss; orpo and simpo run without a reference model (finetuning_args.py L593).
        const KeyRow& lossRow = rowOf(kHead, "pref_loss");
        GPUSIZER_ASSIGN(auto loss, readText(r, lossRow, prefix));
        applyObjective(r, prefix + lossRow.key, *loss);
    } else if (*stage == "kto") {
        r.run().scenario.runKind = RunKind::Kto;
    } else if (*stage != "sft" && *stage != "pt") {
        applyObjective(r, prefix + row.key, *stage);
    }
    return {};
}

/// create_ref_model loads a named reference frozen, beside LoRA too (train/trainer_utils.py L116-146).
Result<void> noteRefModel(KeyReader& r, const std::string& prefix) {
    if (r.has(prefix + "ref_model")) {
        r.noteKey(prefix + "ref_model",
                  QT_TRANSLATE_NOOP("gpusizer", "a separately named reference model: sized as a copy of the policy "
                                                "under full fine-tuning, not counted beside LoRA"));
    }
    return {};
}

/// LLaMA-Factory's multimodal switches (hparams/finetuning_args.py L546-557: freeze_vision_tower and
/// freeze_multi_modal_projector default true; model_args.py L305-316: image_max_pixels 768 x 768, applied as a resize
/// before the model's processor in data/mm_plugin.py L218-235 @ff6d4d12). The defaults are reported for a
/// multimodal template; a text model ignores them.
Result<void> readVision(KeyReader& r, const std::string& prefix) {
    Scenario& s = r.run().scenario;
    const json* tmpl = r.peek(prefix + "template"); // (reported with the unread keys: it sizes nothing itself)
    const std::string name = (tmpl != nullptr && tmpl->is_string()) ? tmpl->get<std::string>() : "";
    const bool multimodal = name.find("vl") != std::string::npos || name.find("llava") != std::string::npos ||
                            name == "gemma3" || r.has(prefix + "image_max_pixels") ||
                            r.has(prefix + "freeze_vision_tower");
    const auto flag = [&](const KeyRow& row) {
        return readFlagAt(r, row, prefix + row.key, multimodal ? std::optional<bool>(true) : std::nullopt);
    };
    GPUSIZER_ASSIGN(auto tower, flag(rowOf(kHead, "freeze_vision_tower")));
    s.freezeVisionTower = tower.value_or(true);
    GPUSIZER_ASSIGN(auto projector, flag(rowOf(kHead, "freeze_multi_modal_projector")));
    s.freezeProjector = projector.value_or(true);
    const KeyRow& pixelsRow = rowOf(kHead, "image_max_pixels");
    const std::int64_t defaultPixels = std::stoll(pixelsRow.fallback); // 768 × 768
    GPUSIZER_ASSIGN(auto pixels, readIntegerAt(r, pixelsRow, prefix + pixelsRow.key,
                                               multimodal ? std::optional<std::int64_t>(defaultPixels) : std::nullopt));
    s.imageMaxPixels = pixels.value_or(defaultPixels);
    return {};
}

Result<void> readFinetuningType(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    const KeyRow& row = rowOf(kHead, "finetuning_type");
    GPUSIZER_ASSIGN(auto read, readText(r, row, prefix));
    // (value_or: GCC 12 takes the engaged optional read through *read for a maybe-uninitialized one)
    const std::string type = read.value_or(row.fallback);
    if (type == "full" || type == "freeze") {
        run.method = Method::Full;
        return type == "freeze" ? walk(r, kFreeze, prefix) : Result<void>{};
    }
    if (type == "lora") {
        run.method = Method::Lora;
        return walk(r, kLora, prefix);
    }
    return tl::unexpected(
        r.error(prefix + row.key,
                words(QT_TRANSLATE_NOOP("gpusizer", "'%1' is not one GPU Sizer sizes (lora, full, freeze)"), type)));
}

Result<void> readFreezeLayers(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kFreeze, "freeze_trainable_layers");
    GPUSIZER_ASSIGN(auto layers, readInteger(r, row, prefix));
    if (*layers < 0) {
        r.noteKey(prefix + row.key,
                  QT_TRANSLATE_NOOP("gpusizer", "the first layers train: sized as the same number of last layers "
                                                "(the frozen layers above them are then in the graph too)"));
    }
    r.run().scenario.trainableLayers = *layers == 0 ? 0 : (*layers < 0 ? -*layers : *layers);
    return {};
}

Result<void> noteFreezeModules(KeyReader& r, const std::string& key, const std::string& modules) {
    if (modules != "all") {
        r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "not modelled: every module of the trained layers is sized as "
                                                     "trained"));
    }
    return {};
}

Result<void> noteFreezeExtras(KeyReader& r, const std::string& prefix) {
    const std::string extraKey = prefix + "freeze_extra_modules";
    if (const json* extra = r.value(extraKey); extra != nullptr && !extra->is_null()) {
        r.noteKey(extraKey, QT_TRANSLATE_NOOP("gpusizer", "not modelled: the extra modules are sized as frozen"));
    }
    const std::string proKey = prefix + "use_llama_pro";
    if (const json* pro = r.value(proKey); pro != nullptr && pro->is_boolean() && pro->get<bool>()) {
        r.noteKey(proKey, QT_TRANSLATE_NOOP("gpusizer", "LLaMA Pro's evenly spaced layers are sized as the last "
                                                        "layers"));
    }
    return {};
}

/// lora_alpha defaults to twice the rank (finetuning_args.py __post_init__).
Result<void> readAlpha(KeyReader& r, const std::string& prefix) {
    Scenario& s = r.run().scenario;
    const KeyRow& row = rowOf(kLora, "lora_alpha");
    GPUSIZER_ASSIGN(auto alpha, r.number(prefix + row.key, row.field, row.source, row.min, row.max,
                                         2.0 * static_cast<double>(s.lora.rank)));
    s.lora.alpha = *alpha;
    return {};
}

Result<void> readTarget(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kLora, "lora_target");
    const std::string key = prefix + row.key;
    GPUSIZER_ASSIGN(auto target, readList(r, row, prefix));
    if (!target) {
        target = std::vector<std::string>{"all"};
        r.run().lines.push_back({ImportLine::Kind::Defaulted, r.doc().position(""), key, "all", row.field,
                                 verbatim(LLAMAFACTORY "finetuning_args.py:81; model/model_utils/misc.py "
                                                       "find_all_linear_modules (every linear but lm_head)")});
    }
    GPUSIZER_CHECK(applyTargets(r, key, *target));
    // `all` skips the vision tower while freeze_vision_tower (read before, kHead) holds, and the projector always
    // (model_utils/misc.py L28-52): with the tower unfrozen it reaches the encoder's linears. A list of names reaches
    // what its substrings match, sized on the language model only.
    Scenario& s = r.run().scenario;
    if (*target == std::vector<std::string>{"all"} && !s.freezeVisionTower) {
        s.lora.visionTargets = VisionAdapterTargets::Encoder;
    }
    return {};
}

Result<void> readAdditionalTarget(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kLora, "additional_target");
    return applyModulesToSave(r, prefix + row.key, row.source);
}

/// quantization_bit and its method: bitsandbytes in 4 or 8 bits, for LoRA only.
Result<void> readQuantization(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    const KeyRow& bitsRow = rowOf(kRest, "quantization_bit");
    const std::string bitsKey = prefix + bitsRow.key;
    GPUSIZER_ASSIGN(auto bits, readInteger(r, bitsRow, prefix));
    if (!bits) {
        return {};
    }
    if (run.method == Method::Full) {
        // hparams/parser.py:236-237 (_verify_model_args): quantization is for LoRA and OFT only.
        return tl::unexpected(r.error(bitsKey, QT_TRANSLATE_NOOP("gpusizer", "LLaMA-Factory quantizes only for "
                                                                             "finetuning_type: lora "
                                                                             "(hparams/parser.py:236)")));
    }
    const KeyRow& methodRow = rowOf(kRest, "quantization_method");
    GPUSIZER_ASSIGN(auto method, readText(r, methodRow, prefix));
    if (*method == "bnb" && *bits != 4 && *bits != 8) {
        // model_utils/quantization.py:178-192: bitsandbytes loads in 4 or 8 bits only.
        return tl::unexpected(r.error(bitsKey, QT_TRANSLATE_NOOP("gpusizer", "bitsandbytes quantizes to 4 or 8 bits "
                                                                             "only; LLaMA-Factory refuses other "
                                                                             "widths "
                                                                             "(model_utils/quantization.py:178)")));
    }
    if (*method != "bnb") {
        r.noteKey(prefix + methodRow.key,
                  QT_TRANSLATE_NOOP("gpusizer", "sized as bitsandbytes quantization of the same width"));
    }
    GPUSIZER_ASSIGN(auto dq, readFlag(r, rowOf(kRest, "double_quantization"), prefix));
    run.load4bit = *bits <= 4;
    run.load8bit = *bits > 4;
    run.scenario.quantization = *dq ? Quantization::Nf4Dq : Quantization::Nf4;
    return {};
}

Result<void> readPacking(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kRest, "packing");
    GPUSIZER_ASSIGN(auto packing, readFlagAt(r, row, prefix + row.key, stageOf(r, prefix) == "pt"));
    if (*packing) {
        r.noteKey(prefix + row.key, QT_TRANSLATE_NOOP("gpusizer", "packed: every row is cutoff_len tokens long"));
    }
    return {};
}

/// bf16, fp16 and pure_bf16: the compute dtype, the load dtype and whether trainable weights are upcast.
Result<void> readPrecision(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    GPUSIZER_ASSIGN(auto bf16, readFlag(r, rowOf(kRest, "bf16"), prefix));
    GPUSIZER_ASSIGN(auto fp16, readFlag(r, rowOf(kRest, "fp16"), prefix));
    GPUSIZER_ASSIGN(auto pure, readFlag(r, rowOf(kRest, "pure_bf16"), prefix));
    GPUSIZER_CHECK(refuseBf16WithFp16(r, *bf16, *fp16));
    setTrainerCompute(run, (*bf16 || *pure) ? "bf16" : *fp16 ? "fp16" : "");
    // The weights load in the compute dtype, half precision even without bf16/fp16 (model/patcher.py:375-379,
    // extras/misc.py infer_optim_dtype); trainable weights are cast to fp32 unless pure_bf16 (model/adapter.py:337).
    run.loadDtype = *fp16 ? "fp16" : "bf16";
    run.loadDtypeWhere = r.doc().position("");
    run.trainableUpcastToFp32 = !*pure;
    if (*pure && run.method != Method::Full && s.lora.dtype == AdapterDtype::Auto) {
        // pure_bf16: cast_trainable_params_to_fp32 is off and PEFT gets autocast_adapter_dtype=False (adapter.py:281).
        s.lora.dtype = AdapterDtype::Bf16;
    }
    return {};
}

/// model/model_utils/liger_kernel.py: apply_liger_kernel_to_<model>() with its defaults; stages that need the logits
/// (rm, ppo, dpo, kto) swap the fused linear cross-entropy for Liger's plain one.
Result<void> readLiger(KeyReader& r, const std::string& prefix) {
    Scenario& s = r.run().scenario;
    GPUSIZER_ASSIGN(auto liger, readFlag(r, rowOf(kRest, "enable_liger_kernel"), prefix));
    if (*liger) {
        const std::string stage = stageOf(r, prefix);
        setLigerKernels(s);
        s.loss = (stage == "sft" || stage == "pt") ? Loss::FusedLinear : Loss::Standard;
    }
    return {};
}

Result<void> readDeepspeedOption(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kRest, "deepspeed");
    return readDeepspeedKey(r, prefix + row.key, row.source);
}

} // namespace

Result<void> readLlamaFactory(KeyReader& r) {
    GPUSIZER_CHECK(walk(r, kHead));
    return walk(r, kRest);
}

std::span<const KeyTable> llamaFactoryKeyTables() {
    static constexpr KeyTable kTables[] = {
        {ConfigFormat::LlamaFactory, LLAMAFACTORY, kHead},
        {ConfigFormat::LlamaFactory, LLAMAFACTORY, kFreeze},
        {ConfigFormat::LlamaFactory, LLAMAFACTORY, kLora},
        {ConfigFormat::LlamaFactory, LLAMAFACTORY, kRest},
    };
    return kTables;
}

} // namespace gpusizer::core::detail
