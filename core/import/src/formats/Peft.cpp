// PEFT's adapter_config.json (LoRA, DoRA, VeRA, IA3, LayerNorm tuning) and a BitsAndBytesConfig, as tables.

#include "../FormatSteps.h"

namespace gpusizer::core::detail {

using nlohmann::json;

namespace {

#define PEFT_LORA PEFT "src/peft/tuners/lora/config.py LoraConfig"
#define PEFT_VERA PEFT "src/peft/tuners/vera/config.py VeraConfig"
#define PEFT_IA3 PEFT "src/peft/tuners/ia3/config.py IA3Config"
#define BNB_CONFIG TRANSFORMERS "utils/quantization_config.py BitsAndBytesConfig"

Result<void> readPeftBase(KeyReader& r, const std::string& prefix);
Result<void> readPeftType(KeyReader& r, const std::string& prefix);
Result<void> readLoraTargets(KeyReader& r, const std::string& prefix);
Result<void> readLoraModulesToSave(KeyReader& r, const std::string& prefix);
Result<void> notePerLayerPatterns(KeyReader& r, const std::string& prefix);
Result<void> readOtherModulesToSave(KeyReader& r, const std::string& prefix);
Result<void> readVeraTargets(KeyReader& r, const std::string& prefix);
Result<void> readIa3Targets(KeyReader& r, const std::string& prefix);
Result<void> readIa3Feedforward(KeyReader& r, const std::string& prefix);
Result<void> noteLnTuningTargets(KeyReader& r, const std::string& prefix);

constexpr const char* kNoMemory = QT_TRANSLATE_NOOP("gpusizer", "does not change GPU memory");

constexpr KeyRow kPeftAdapter[] = {
    {.key = "base_model_name_or_path",
     .field = "model",
     .source = PEFT_LORA,
     .step = readPeftBase,
     .shownField = "model, when no other file names one"},
    {.key = "task_type", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "bias", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "fan_in_fan_out", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "inference_mode", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "revision", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "peft_type",
     .field = "lora.kind",
     .kind = ValueKind::Text,
     .fallback = "LORA",
     .source = PEFT "src/peft/utils/peft_types.py PeftType",
     .step = readPeftType,
     .shownKey = "`peft_type` (`LORA`, `VERA`, `IA3`, `LN_TUNING`; another type is sized as LoRA, noted)",
     .shownField = "method LoRA, lora.kind"},
};

constexpr KeyRow kLora[] = {
    {.key = "r",
     .field = "lora.rank",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "8",
     .source = PEFT_LORA,
     .setInteger = setLoraRank},
    {.key = "lora_alpha",
     .field = "lora.alpha",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 1e6,
     .fallback = "8",
     .source = PEFT_LORA,
     .setNumber = setLoraAlpha},
    {.key = "lora_dropout",
     .field = "lora.dropout",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 0.999,
     .fallback = "0.0",
     .source = PEFT_LORA,
     .setNumber = setLoraDropout},
    {.key = "target_modules",
     .field = "lora.targets",
     .kind = ValueKind::List,
     .source = PEFT_LORA,
     .step = readLoraTargets,
     .shownKey = "`target_modules` (a list, `all-linear`, or a regular expression: the module names it spells, noted; "
                 "with `layers_to_transform` / `layers_pattern` a list, as PEFT refuses a regex with them)",
     .shownField =
         "lora.targets; `all-linear` also lora.vision_targets `encoder+projector` (every Linear but the output "
         "layer: a vision-language model's encoder and projector too, tuners_utils.py L2382-2442)",
     .shownDefault = "the model type's default: q_proj, v_proj for Llama (utils/constants.py)"},
    {.key = "modules_to_save",
     .field = "lora.modules_to_save",
     .kind = ValueKind::List,
     .source = PEFT_LORA,
     .step = readLoraModulesToSave,
     .shownField = "lora.modules_to_save (lm_head, embed_tokens)",
     .shownDefault = "none"},
    {.key = "use_dora",
     .field = "lora.kind",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = PEFT_LORA,
     .setFlag = setDoraWhenOn,
     .shownField = "lora.kind `dora`"},
    {.key = "rank_pattern",
     .step = notePerLayerPatterns,
     .shownKey = "`rank_pattern`, `alpha_pattern`, `layers_to_transform`, `exclude_modules`",
     .shownField = "(noted: every layer is sized with rank r on every target)"},
};

constexpr KeyRow kOtherModulesToSave = {.key = "modules_to_save",
                                        .field = "lora.modules_to_save",
                                        .kind = ValueKind::List,
                                        .source = PEFT "src/peft/tuners (every config's modules_to_save)",
                                        .step = readOtherModulesToSave,
                                        .shownKey = "VeRA, IA3, LN_TUNING: `modules_to_save`",
                                        .shownDefault = "none"};

/// The same row in a later table, shown once on the page.
consteval KeyRow shownOnce(KeyRow row) {
    row.shownKey = "";
    return row;
}

constexpr KeyRow kVera[] = {
    kOtherModulesToSave,
    {.key = "r",
     .field = "lora.rank",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "256",
     .source = PEFT_VERA,
     .setInteger = setLoraRank,
     .shownKey = "VeRA: `r`"},
    {.key = "vera_dropout",
     .field = "lora.dropout",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 0.999,
     .fallback = "0.0",
     .source = PEFT_VERA,
     .setNumber = setLoraDropout,
     .shownKey = "VeRA: `vera_dropout`"},
    {.key = "d_initial", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "projection_prng_key", .kind = ValueKind::Ignored, .why = kNoMemory},
    {.key = "save_projection",
     .kind = ValueKind::Ignored,
     .why = QT_TRANSLATE_NOOP("gpusizer", "changes the checkpoint, not GPU memory")},
    {.key = "target_modules",
     .field = "lora.targets",
     .kind = ValueKind::List,
     .source = PEFT_VERA,
     .step = readVeraTargets,
     .shownKey = "VeRA: `target_modules`",
     .shownDefault = "q_proj, v_proj (utils/constants.py VeRA mapping, llama)"},
};

constexpr KeyRow kIa3[] = {
    shownOnce(kOtherModulesToSave),
    {.key = "target_modules",
     .field = "lora.targets",
     .kind = ValueKind::List,
     .source = PEFT_IA3,
     .step = readIa3Targets,
     .shownKey = "IA3: `target_modules`",
     .shownDefault = "k_proj, v_proj, down_proj (utils/constants.py IA3 mapping, llama)"},
    {.key = "feedforward_modules",
     .field = "lora.targets",
     .kind = ValueKind::List,
     .source = PEFT_IA3,
     .step = readIa3Feedforward,
     .shownKey = "IA3: `feedforward_modules` (other than down_proj: noted)",
     .shownDefault = "down_proj"},
};

constexpr KeyRow kLnTuning[] = {
    shownOnce(kOtherModulesToSave),
    {.key = "target_modules",
     .field = "lora.targets",
     .source = PEFT "src/peft/tuners/ln_tuning/config.py LNTuningConfig",
     .step = noteLnTuningTargets,
     .shownKey = "LN_TUNING: `target_modules` (other than the default: noted)",
     .shownField = "(every norm)",
     .shownDefault = "input_layernorm, post_attention_layernorm, norm"},
};

Result<void> readPeftBase(KeyReader& r, const std::string& /*prefix*/) {
    RunDraft& run = r.run();
    if (!run.method || *run.method == Method::Full) {
        run.method = Method::Lora;
    }
    if (const json* base = r.value("base_model_name_or_path");
        base != nullptr && base->is_string() && run.modelName.empty()) {
        run.modelName = base->get<std::string>();
        run.modelWhere = r.doc().at("base_model_name_or_path");
    }
    return {};
}

Result<void> readPeftType(KeyReader& r, const std::string& /*prefix*/) {
    GPUSIZER_ASSIGN(auto read, readText(r, rowOf(kPeftAdapter, "peft_type")));
    const std::string type = read.value_or("LORA"); // the row's default: always set
    if (type == "VERA") {
        r.run().scenario.lora.kind = AdapterKind::Vera;
        return walk(r, kVera);
    }
    if (type == "IA3") {
        r.run().scenario.lora.kind = AdapterKind::Ia3;
        return walk(r, kIa3);
    }
    if (type == "LN_TUNING") {
        r.run().scenario.lora.kind = AdapterKind::LnTuning;
        return walk(r, kLnTuning);
    }
    if (type != "LORA") {
        r.noteKey("peft_type", QT_TRANSLATE_NOOP("gpusizer", "not modelled: sized as LoRA (LoRA, DoRA, VeRA, IA3 and "
                                                             "LayerNorm tuning are)"));
    }
    return walk(r, kLora);
}

/// LoraConfig.__post_init__ (tuners/lora/config.py:1019-1029): layers_to_transform / layers_pattern need a list of
/// targets, not a regex, and layers_pattern needs layers_to_transform.
Result<void> refuseLayersWithRegex(KeyReader& r) {
    const auto given = [&](const char* key) {
        const json* v = r.doc().find(key);
        return v != nullptr && !v->is_null() && !(v->is_array() && v->empty());
    };
    const json* targetsGiven = r.doc().find("target_modules");
    if (targetsGiven != nullptr && targetsGiven->is_string() &&
        (given("layers_to_transform") || given("layers_pattern"))) {
        return tl::unexpected(r.error(given("layers_to_transform") ? "layers_to_transform" : "layers_pattern",
                                      QT_TRANSLATE_NOOP("gpusizer", "PEFT refuses layers_to_transform or "
                                                                    "layers_pattern with a regex target_modules "
                                                                    "(tuners/lora/config.py:1019)")));
    }
    if (given("layers_pattern") && !given("layers_to_transform")) {
        return tl::unexpected(r.error("layers_pattern", QT_TRANSLATE_NOOP("gpusizer", "PEFT refuses layers_pattern "
                                                                                      "without layers_to_transform "
                                                                                      "(tuners/lora/config.py:1026)")));
    }
    return {};
}

/// target_modules of an adapter type, or PEFT's Llama default for it (utils/constants.py), reported as taken.
Result<void> readTargetsOrDefault(KeyReader& r, const char* source, std::vector<LinearRole> fallback,
                                  const char* fallbackNames, const char* fallbackSource) {
    GPUSIZER_ASSIGN(auto targets, regexTargets(r, "target_modules", source));
    if (targets) {
        return applyTargets(r, "target_modules", *targets);
    }
    r.run().scenario.lora.targets = std::move(fallback);
    r.run().lines.push_back({ImportLine::Kind::Defaulted, r.doc().position(""), "target_modules", fallbackNames,
                             "lora.targets", verbatim(fallbackSource)});
    return {};
}

Result<void> readLoraTargets(KeyReader& r, const std::string& /*prefix*/) {
    GPUSIZER_CHECK(refuseLayersWithRegex(r));
    return readTargetsOrDefault(r, rowOf(kLora, "target_modules").source, {LinearRole::Q, LinearRole::V},
                                "q_proj, v_proj",
                                PEFT "src/peft/utils/constants.py TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_"
                                     "MAPPING (llama)");
}

Result<void> readLoraModulesToSave(KeyReader& r, const std::string& /*prefix*/) {
    return applyModulesToSave(r, "modules_to_save", rowOf(kLora, "modules_to_save").source);
}

/// Per-layer subsets and ranks change the adapters' size; GPU Sizer adapts every layer at rank r.
Result<void> notePerLayerPatterns(KeyReader& r, const std::string& /*prefix*/) {
    applyVisionExclusion(r, "exclude_modules");
    for (const char* key : {"rank_pattern", "alpha_pattern", "layers_to_transform", "exclude_modules"}) {
        if (const json* v = r.doc().find(key); v != nullptr && !v->is_null() && !v->empty()) {
            r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "not modelled: every layer is sized with rank r on every "
                                                         "target"));
        }
    }
    return {};
}

Result<void> readOtherModulesToSave(KeyReader& r, const std::string& /*prefix*/) {
    return applyModulesToSave(r, "modules_to_save", kOtherModulesToSave.source);
}

Result<void> readVeraTargets(KeyReader& r, const std::string& /*prefix*/) {
    return readTargetsOrDefault(r, rowOf(kVera, "target_modules").source, {LinearRole::Q, LinearRole::V},
                                "q_proj, v_proj",
                                PEFT "src/peft/utils/constants.py TRANSFORMERS_MODELS_TO_VERA_TARGET_MODULES_MAPPING "
                                     "(llama)");
}

Result<void> readIa3Targets(KeyReader& r, const std::string& /*prefix*/) {
    return readTargetsOrDefault(r, rowOf(kIa3, "target_modules").source,
                                {LinearRole::K, LinearRole::V, LinearRole::Down}, "k_proj, v_proj, down_proj",
                                PEFT "src/peft/utils/constants.py TRANSFORMERS_MODELS_TO_IA3_TARGET_MODULES_MAPPING "
                                     "(llama)");
}

Result<void> readIa3Feedforward(KeyReader& r, const std::string& /*prefix*/) {
    GPUSIZER_ASSIGN(auto feedforward, readList(r, rowOf(kIa3, "feedforward_modules")));
    if (feedforward && (feedforward->size() != 1 || feedforward->front() != "down_proj")) {
        r.noteKey("feedforward_modules", QT_TRANSLATE_NOOP("gpusizer", "sized as PEFT's Llama mapping: down_proj "
                                                                       "scales its input, the others their output"));
    }
    return {};
}

Result<void> noteLnTuningTargets(KeyReader& r, const std::string& /*prefix*/) {
    r.run().scenario.lora.targets.clear();
    if (const json* v = r.doc().find("target_modules"); v != nullptr && !v->is_null()) {
        r.noteKey("target_modules", QT_TRANSLATE_NOOP("gpusizer", "sized as PEFT's default: every norm of the decoder "
                                                                  "and the final norm"));
    }
    return {};
}

Result<void> readBnbBits(KeyReader& r, const std::string& prefix);

constexpr const char* kNotStoredSize = QT_TRANSLATE_NOOP("gpusizer", "does not change the stored weights' size");

constexpr KeyRow kBitsAndBytes[] = {
    {.key = "quant_method", // read before the walk (otherQuantMethod)
     .shownKey = "`quant_method` other than `bitsandbytes` (GPTQ, AWQ, fp8)",
     .shownField = "(note: sized unquantized)"},
    {.key = "bnb_4bit_compute_dtype", .kind = ValueKind::Ignored, .why = kNotStoredSize},
    {.key = "bnb_4bit_quant_storage", .kind = ValueKind::Ignored, .why = kNotStoredSize},
    {.key = "llm_int8_threshold", .kind = ValueKind::Ignored, .why = kNotStoredSize},
    {.key = "load_in_4bit",
     .field = "method",
     .kind = ValueKind::Flag,
     .source = BNB_CONFIG,
     .step = readBnbBits,
     .shownKey = "`load_in_4bit` / `load_in_8bit` (or `_load_in_4bit` / `_load_in_8bit`)",
     .shownField = "method QLoRA; quantization `int8` for 8 bits",
     .shownDefault = "false"},
    {.key = "load_in_8bit", .field = "method", .kind = ValueKind::Flag, .source = BNB_CONFIG, .shownKey = ""},
    {.key = "bnb_4bit_quant_type",
     .field = "quantization",
     .kind = ValueKind::Text,
     .fallback = "fp4",
     .source = BNB_CONFIG,
     .shownField = "quantization (`fp4` stores the same bits and constants as NF4, noted)"},
    {.key = "bnb_4bit_use_double_quant",
     .field = "quantization",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = BNB_CONFIG,
     .shownField = "quantization `nf4-dq`"},
};

/// Another quantization method than bitsandbytes: noted, and nothing else read.
bool otherQuantMethod(KeyReader& r, const std::string& prefix) {
    const std::string key = prefix + "quant_method";
    if (const json* method = r.value(key);
        method != nullptr && !(method->is_string() && method->get<std::string>() == "bitsandbytes")) {
        r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "only bitsandbytes quantization is read: the weights are sized "
                                                     "unquantized"));
        return true;
    }
    return false;
}

Result<void> readBnbBits(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    // to_dict() writes both the private and the public spellings (quantization_config.py BitsAndBytesConfig).
    GPUSIZER_ASSIGN(auto four, readFlagAt(r, rowOf(kBitsAndBytes, "load_in_4bit"),
                                          spelling(r, prefix, {"load_in_4bit", "_load_in_4bit"}), std::nullopt));
    GPUSIZER_ASSIGN(auto eight, readFlagAt(r, rowOf(kBitsAndBytes, "load_in_8bit"),
                                           spelling(r, prefix, {"load_in_8bit", "_load_in_8bit"}), std::nullopt));
    for (const char* key : {"_load_in_4bit", "_load_in_8bit"}) {
        r.value(prefix + key); // the other spelling of the one just read
    }
    if (four && *four) {
        run.load4bit = true;
        GPUSIZER_ASSIGN(auto type, readText(r, rowOf(kBitsAndBytes, "bnb_4bit_quant_type"), prefix));
        GPUSIZER_ASSIGN(auto dq, readFlag(r, rowOf(kBitsAndBytes, "bnb_4bit_use_double_quant"), prefix));
        s.quantization = *dq ? Quantization::Nf4Dq : Quantization::Nf4;
        if (*type == "fp4") {
            r.noteKey(prefix + "bnb_4bit_quant_type",
                      QT_TRANSLATE_NOOP("gpusizer", "fp4 stores the same 4 bits and block constants as NF4"));
        }
    } else if (eight && *eight) {
        run.load8bit = true;
    }
    return {};
}

} // namespace

Result<void> readPeftAdapter(KeyReader& r) {
    return walk(r, kPeftAdapter);
}

Result<void> readBitsAndBytes(KeyReader& r, const std::string& prefix) {
    if (otherQuantMethod(r, prefix)) {
        return {};
    }
    return walk(r, kBitsAndBytes, prefix);
}

std::span<const KeyTable> peftKeyTables() {
    static constexpr KeyTable kTables[] = {
        {ConfigFormat::PeftAdapter, PEFT, kPeftAdapter}, {ConfigFormat::PeftAdapter, PEFT, kLora},
        {ConfigFormat::PeftAdapter, PEFT, kVera},        {ConfigFormat::PeftAdapter, PEFT, kIa3},
        {ConfigFormat::PeftAdapter, PEFT, kLnTuning},    {ConfigFormat::BitsAndBytes, TRANSFORMERS, kBitsAndBytes},
    };
    return kTables;
}

} // namespace gpusizer::core::detail
