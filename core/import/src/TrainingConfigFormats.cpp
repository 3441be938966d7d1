// One mapper a format: each key that changes memory or time read with its meaning and its default from the
// framework's own source (the commit in each citation; docs/import.md has the same table for users).

#include "FormatSteps.h"
#include "gpusizer/scenario/FrameworkProfile.h"
#include "gpusizer/scenario/JsonRead.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <tuple>

namespace gpusizer::core::detail {

using nlohmann::json;

void setFramework(KeyReader& r, Framework f, const char* source) {
    r.run().scenario.framework = f;
    r.run().lines.push_back(
        {ImportLine::Kind::Used, r.doc().position(""), "", toString(f), "framework", verbatim(source)});
}

/// The first of several spellings the file has ("offload_params" and the older "fsdp_offload_params").
std::string spelling(const KeyReader& r, const std::string& prefix, std::initializer_list<const char*> names) {
    for (const char* n : names) {
        if (r.has(prefix + n)) {
            return prefix + n;
        }
    }
    return prefix + *names.begin();
}

/// LoRA targets from module names; "all-linear" / LLaMA-Factory "all" cover every decoder linear.
Result<void> applyTargets(KeyReader& r, const std::string& key, const std::vector<std::string>& names) {
    LoraSettings& lora = r.run().scenario.lora;
    lora.targets.clear();
    for (const std::string& name : names) {
        if (name == "lm_head" || name == "output") {
            lora.lmHead = true;
            continue;
        }
        if (name == "embed_tokens" || name == "wte" || name == "tok_embeddings") {
            lora.embedding = true;
            continue;
        }
        const auto roles = loraTargetsFromModuleName(name == "all" ? "all-linear" : name);
        if (roles.empty()) {
            return tl::unexpected(r.error(
                key, words(QT_TRANSLATE_NOOP("gpusizer", "'%1' is not a linear module GPU Sizer knows"), name)));
        }
        for (LinearRole role : roles) {
            if (std::find(lora.targets.begin(), lora.targets.end(), role) == lora.targets.end()) {
                lora.targets.push_back(role);
            }
        }
    }
    return {};
}

/// PEFT target_modules (and Axolotl's lora_target_modules): a list of names, or one string that PEFT matches as a
/// full regular expression ("all-linear" aside; tuners/lora/config.py). From a regex, the module names it spells.
Result<std::optional<std::vector<std::string>>> regexTargets(KeyReader& r, const std::string& key, const char* source) {
    const json* v = r.doc().find(key);
    if (v == nullptr || !v->is_string() || v->get<std::string>() == "all-linear") {
        return r.list(key, "lora.targets", source);
    }
    const std::string pattern = v->get<std::string>();
    std::vector<std::string> names;
    std::string word;
    for (char ch : pattern + "|") {
        if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') {
            word += ch;
            continue;
        }
        if (!loraTargetsFromModuleName(word).empty() || word == "lm_head" || word == "embed_tokens") {
            names.push_back(word);
        }
        word.clear();
    }
    r.value(key);
    r.run().lines.push_back(
        {ImportLine::Kind::Used, r.doc().position(key), key, pattern, "lora.targets", verbatim(source)});
    if (names.empty()) {
        return tl::unexpected(r.error(key, QT_TRANSLATE_NOOP("gpusizer", "names no module GPU Sizer knows (q_proj, "
                                                                         "v_proj, … or all-linear)")));
    }
    r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "a regular expression: the module names it spells are taken, in "
                                                 "every layer"));
    return std::optional<std::vector<std::string>>(names);
}

/// PEFT modules_to_save: full trainable copies of the head or the embedding.
Result<void> applyModulesToSave(KeyReader& r, const std::string& key, const char* source) {
    GPUSIZER_ASSIGN(auto modules, r.list(key, "lora.modules_to_save", source));
    if (!modules) {
        return {};
    }
    for (const std::string& m : *modules) {
        if (m == "lm_head") {
            r.run().scenario.lora.saveLmHead = true;
        } else if (m == "embed_tokens") {
            r.run().scenario.lora.saveEmbedding = true;
        } else {
            r.noteKey(key,
                      words(QT_TRANSLATE_NOOP("gpusizer", "'%1' is not sized (only lm_head and embed_tokens are)"), m));
        }
    }
    return {};
}

Result<void> applyAttention(KeyReader& r, const std::string& key, const std::string& impl) {
    Scenario& s = r.run().scenario;
    if (impl == "flash_attention_2" || impl == "flash_attention_3" || impl == "fa2" || impl == "fa3") {
        s.attention = Attention::Flash;
    } else if (impl == "sdpa" || impl == "auto" || impl == "flex_attention") {
        s.attention = Attention::Sdpa;
    } else if (impl == "eager" || impl == "disabled") {
        s.attention = Attention::Eager;
    } else if (impl == "xformers" || impl == "sage" || impl == "fp8" || impl.find("flash") != std::string::npos) {
        // Memory-efficient kernels (xformers, SageAttention, a hub kernel such as kernels-community/flash-attn3).
        s.attention = Attention::Flash;
        r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "sized as flash-attention (no s² scores kept either)"));
    } else if (impl.find('/') != std::string::npos) {
        s.attention = Attention::Sdpa; // another hub kernel: sized as SDPA
        r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "a hub kernel GPU Sizer does not know: sized as SDPA"));
    } else {
        return tl::unexpected(
            r.error(key, words(QT_TRANSLATE_NOOP("gpusizer", "attention '%1' is not one GPU Sizer knows"), impl)));
    }
    return {};
}

/// pydantic's lax-mode spellings of a bool (case-insensitive): "true" / "false", or nothing for another word.
std::optional<std::string> pydanticBool(const std::string& text) {
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const char* yes : {"true", "t", "yes", "y", "on", "1"}) {
        if (lower == yes) {
            return std::string("true");
        }
    }
    for (const char* no : {"false", "f", "no", "n", "off", "0"}) {
        if (lower == no) {
            return std::string("false");
        }
    }
    return std::nullopt;
}

/// transformers' TrainingArguments refuses bf16 and fp16 together (training_args.py _validate_args); the Trainer's
/// files and LLaMA-Factory's go through it.
Result<void> refuseBf16WithFp16(KeyReader& r, bool bf16, bool fp16) {
    if (bf16 && fp16) {
        return tl::unexpected(r.error("fp16", QT_TRANSLATE_NOOP("gpusizer", "bf16 and fp16 are both on; transformers' "
                                                                            "TrainingArguments refuses that "
                                                                            "(_validate_args): keep one")));
    }
    return {};
}

/// Sets an optimizer-step override only when the file's choice differs from what the framework's profile assumes.
void setOptimizerStep(Scenario& s, OptimizerStepKind step) {
    if (profileForFramework(s.framework).optimizerStep != step) {
        s.overrides.optimizerStep = step;
    } else {
        s.overrides.optimizerStep.reset();
    }
}

void deepspeedBucketDefaults(KeyReader& r, const std::string& prefix, const ZeroDefaults& defaults) {
    Scenario& s = r.run().scenario;
    for (const auto& [key, fallback, field] :
         {std::tuple{"reduce_bucket_size", defaults.reduceBucket, &ProfileOverrides::zeroReduceBucketElements},
          std::tuple{"stage3_prefetch_bucket_size", defaults.prefetchBucket,
                     &ProfileOverrides::zeroPrefetchBucketElements}}) {
        const std::string k = prefix + key;
        const json* v = r.value(k);
        const char* source = defaults.bucketSource;
        if (v != nullptr && v->is_string() && v->get<std::string>() == "auto") {
            // transformers' trainer_config_finalize: hidden_size² and 0.9 × hidden_size² (the profile's "0").
            (s.overrides.*field).reset();
            r.run().lines.push_back({ImportLine::Kind::Used, r.doc().position(k), k, "auto", "framework_overrides",
                                     verbatim("transformers integrations/deepspeed.py trainer_config_finalize: "
                                              "hidden_size² (prefetch 0.9 × hidden_size²)")});
        } else if (v != nullptr && v->is_number() && v->get<double>() >= 0 && v->get<double>() < 1e12) {
            s.overrides.*field = v->get<double>();
            r.run().lines.push_back(
                {ImportLine::Kind::Used, r.doc().position(k), k, v->dump(), "framework_overrides", verbatim(source)});
        } else if (v != nullptr) {
            r.noteKey(k, QT_TRANSLATE_NOOP("gpusizer", "not a bucket size (a number of elements or \"auto\")"));
        } else {
            s.overrides.*field = fallback;
            r.run().lines.push_back({ImportLine::Kind::Defaulted, r.doc().position(""), k, json(fallback).dump(),
                                     "framework_overrides", verbatim(source)});
        }
    }
}

Sharding shardingForZeroStage(std::int64_t stage) {
    return std::array{Sharding::None, Sharding::Zero1, Sharding::Zero2,
                      Sharding::Zero3}[static_cast<std::size_t>(stage)];
}

/// Offload from the device names of DeepSpeed: optimizer states at ZeRO-1 and up, parameters only at ZeRO-3
/// (zero/config.py offload_param: "valid only with stage 3").
void applyDeepspeedOffload(KeyReader& r, const std::string& key, std::optional<std::string> device, Offload level) {
    Scenario& s = r.run().scenario;
    if (!device || (*device != "cpu" && *device != "nvme")) {
        return;
    }
    if (level == Offload::OptimizerAndParams && s.sharding != Sharding::Zero3) {
        r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "parameter offload needs ZeRO stage 3: not applied"));
        return;
    }
    s.offload = std::max(s.offload, level);
}

/// The trainer's own 16-bit switch (it wins over accelerate's mixed_precision).
void setTrainerCompute(RunDraft& run, const std::string& compute) {
    run.compute = compute;
    run.computeFromTrainer = true;
}

/// apply_liger_kernel_to_<model>()'s defaults: rope, rms_norm and swiglu (monkey_patch.py @ead96b61).
Result<void> applyModelName(KeyReader& r, const std::string& key, const std::string& name) {
    r.run().modelName = name;
    r.run().modelWhere = r.doc().at(key);
    return {};
}

void setLigerKernels(Scenario& s) {
    s.ligerRmsNorm = true;
    s.ligerGlu = true;
    s.ligerRope = true;
}

Result<void> applyHfOptimizer(KeyReader& r, const std::string& key, const std::string& name) {
    Scenario& s = r.run().scenario;
    struct Known {
        const char* name;
        Optimizer optimizer;
        OptimizerStepKind step;
    };
    static const Known kKnown[] = {
        {"adamw_torch", Optimizer::AdamW, OptimizerStepKind::Foreach},
        {"adamw_torch_fused", Optimizer::AdamW, OptimizerStepKind::Fused},
        {"adamw_apex_fused", Optimizer::AdamW, OptimizerStepKind::Fused},
        {"adamw_torch_npu_fused", Optimizer::AdamW, OptimizerStepKind::Fused},
        {"adamw_hf", Optimizer::AdamW, OptimizerStepKind::PerParameter},
        {"adamw_bnb_8bit", Optimizer::AdamW8bit, OptimizerStepKind::Fused},
        {"adamw_8bit", Optimizer::AdamW8bit, OptimizerStepKind::Fused},
        {"paged_adamw_8bit", Optimizer::PagedAdamW8bit, OptimizerStepKind::Fused},
        {"paged_adamw_32bit", Optimizer::PagedAdamW, OptimizerStepKind::Fused},
        {"adafactor", Optimizer::Adafactor, OptimizerStepKind::PerParameter},
        {"sgd", Optimizer::Sgd, OptimizerStepKind::Foreach},
        {"lion_32bit", Optimizer::Lion, OptimizerStepKind::Fused},
        {"paged_lion_32bit", Optimizer::Lion, OptimizerStepKind::Fused},
    };
    for (const Known& k : kKnown) {
        if (name == k.name) {
            s.optimizer = k.optimizer;
            // bitsandbytes optimizers step tensor by tensor with their own kernels: no foreach temporaries.
            setOptimizerStep(s, k.step);
            return {};
        }
    }
    s.optimizer = Optimizer::AdamW;
    setOptimizerStep(s, OptimizerStepKind::Foreach);
    r.noteKey(key, words(QT_TRANSLATE_NOOP("gpusizer", "optimizer '%1' is not modelled: sized as AdamW (two fp32 "
                                                       "states, an upper bound for 8-bit and factored optimizers)"),
                         name));
    return {};
}

/// An objective by the name a config gives it (Axolotl rl:, LLaMA-Factory pref_loss, TRL loss_type): the
/// run kind, or nothing for what GPU Sizer does not size (PPO, reward models), which is noted at the key. DPO's
/// other sigmoid-family losses (hinge, kto_pair, robust, ...) keep its reference model and paired batch.
std::optional<RunKind> preferenceObjective(const std::string& name) {
    static const std::pair<const char*, RunKind> kNames[] = {
        {"dpo", RunKind::Dpo},    {"sigmoid", RunKind::Dpo}, {"hinge", RunKind::Dpo}, {"kto_pair", RunKind::Dpo},
        {"robust", RunKind::Dpo}, {"ipo", RunKind::Ipo},     {"orpo", RunKind::Orpo}, {"simpo", RunKind::Simpo},
        {"kto", RunKind::Kto},    {"grpo", RunKind::Grpo}};
    for (const auto& [text, kind] : kNames) {
        if (name == text) {
            return kind;
        }
    }
    return std::nullopt;
}

/// Sets the run kind a config's key names, or notes that the objective is sized as supervised training.
void applyObjective(KeyReader& r, const std::string& key, const std::string& name) {
    if (const auto kind = preferenceObjective(name)) {
        r.run().scenario.runKind = *kind;
        return;
    }
    r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "an objective GPU Sizer does not size yet (generation, reward or "
                                                 "value models): sized as supervised training"));
}

Result<void> readDeepspeedKey(KeyReader& r, const std::string& key, const char* source) {
    const json* ds = r.value(key);
    if (ds == nullptr) {
        return {};
    }
    if (ds->is_string()) {
        addReference(r, key, ds->get<std::string>());
        r.run().lines.push_back(
            {ImportLine::Kind::Used, r.doc().position(key), key, ds->get<std::string>(), "", verbatim(source)});
        return {};
    }
    if (ds->is_object()) {
        return readDeepspeed(r, key + "."); // the DeepSpeed config written inline
    }
    return tl::unexpected(r.error(key, QT_TRANSLATE_NOOP("gpusizer", "must be a path or a DeepSpeed config")));
}

Result<void> readTrainerFsdpOption(KeyReader& r, const std::string& key, const std::string& configPrefix,
                                   const char* source) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    const json* fsdp = r.value(key);
    if (fsdp == nullptr) {
        return {};
    }
    // "full_shard auto_wrap offload", or the same words as a list (training_args.py FSDPOption).
    const std::string text = shown(*fsdp);
    const bool sharded = text.find("full_shard") != std::string::npos ||
                         text.find("shard_grad_op") != std::string::npos ||
                         text.find("hybrid_shard") != std::string::npos;
    if (!sharded) {
        if (!text.empty()) {
            r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "no sharding strategy in it: FSDP is off"));
        }
        return {};
    }
    GPUSIZER_CHECK(readFsdpConfig(r, configPrefix, source));
    s.sharding = text.find("shard_grad_op") != std::string::npos || text.find("hybrid_shard_zero2") != std::string::npos
                     ? Sharding::Zero2
                     : Sharding::Zero3;
    if (text.find("offload") != std::string::npos) {
        s.offload = Offload::OptimizerAndParams;
    }
    run.lines.push_back({ImportLine::Kind::Used, r.doc().position(key), key, text, "sharding", verbatim(source)});
    return {};
}

/// The adapter's arguments: rank, alpha, dropout, target modules (a list, a regular expression or every linear),
/// modules_to_save and DoRA.
Result<void> readAxolotlLoraArguments(KeyReader& r, const char* peft) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    GPUSIZER_ASSIGN(auto rank,
                    r.integer("lora_r", "lora.rank", PEFT "LoraConfig r (Axolotl has no default)", 1, 65536, 8));
    s.lora.rank = *rank;
    GPUSIZER_ASSIGN(auto alpha, r.number("lora_alpha", "lora.alpha",
                                         PEFT "LoraConfig lora_alpha (Axolotl has no "
                                              "default)",
                                         0, 1e6, 8));
    s.lora.alpha = *alpha;
    GPUSIZER_ASSIGN(auto dropout,
                    r.number("lora_dropout", "lora.dropout", AXOLOTL "schemas/peft.py:80", 0, 0.999, 0.0));
    s.lora.dropout = *dropout;
    GPUSIZER_ASSIGN(auto linear, r.flag("lora_target_linear", "lora.targets",
                                        AXOLOTL "loaders/adapter.py:174 (every linear but lm_head)", false));
    GPUSIZER_ASSIGN(auto targets, regexTargets(r, "lora_target_modules", AXOLOTL "schemas/peft.py:56"));
    std::vector<std::string> names = targets.value_or(std::vector<std::string>{});
    if (*linear) {
        names.emplace_back("all-linear");
    }
    if (names.empty()) {
        names = {"q_proj", "v_proj"};
        run.lines.push_back({ImportLine::Kind::Defaulted, r.doc().position(""), "lora_target_modules", "q_proj, v_proj",
                             "lora.targets",
                             verbatim(PEFT "src/peft/utils/constants.py (the model type's default targets)")});
    }
    GPUSIZER_CHECK(applyTargets(r, "lora_target_modules", names));
    GPUSIZER_CHECK(applyModulesToSave(r, "lora_modules_to_save", peft));
    GPUSIZER_ASSIGN(auto dora, r.flag("peft_use_dora", "lora.kind", AXOLOTL "loaders/adapter.py:148", false));
    if (*dora) {
        s.lora.kind = AdapterKind::Dora;
    }
    return {};
}

Result<bool> readAxolotlAdapter(KeyReader& r) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    const char* peft = AXOLOTL "src/axolotl/utils/schemas/peft.py";
    GPUSIZER_ASSIGN(auto adapterText, r.text("adapter", "method", peft));
    const std::string adapter = adapterText.value_or("");
    if (!adapterText) {
        run.lines.push_back({ImportLine::Kind::Defaulted, r.doc().position(""), "adapter", "none", "method",
                             QT_TRANSLATE_NOOP("gpusizer", "no adapter: full fine-tuning")});
    }
    GPUSIZER_ASSIGN(auto four, r.flag("load_in_4bit", "method", AXOLOTL "schemas/peft.py:37", false));
    GPUSIZER_ASSIGN(auto eight, r.flag("load_in_8bit", "method", AXOLOTL "schemas/peft.py:31", false));
    // What Axolotl's own validation refuses (schemas/peft.py:202-224 validate_qlora), refused here with its key. A
    // merge run (merge_lora) takes the other branch: it merges into an unquantized base, so load_in_* is refused.
    GPUSIZER_ASSIGN(auto merge, r.flag("merge_lora", "", AXOLOTL "schemas/peft.py:204 (merging, not training)", false));
    if (adapter == "qlora" && *merge && (*four || *eight)) {
        return tl::unexpected(
            r.error(*four ? "load_in_4bit" : "load_in_8bit",
                    QT_TRANSLATE_NOOP("gpusizer", "Axolotl refuses to merge a QLoRA adapter into a "
                                                  "quantized base (schemas/peft.py validate_qlora)")));
    }
    if (adapter == "qlora" && !*merge && *eight) {
        return tl::unexpected(r.error("load_in_8bit", QT_TRANSLATE_NOOP("gpusizer", "Axolotl refuses QLoRA in 8 bits "
                                                                                    "(schemas/peft.py validate_qlora): "
                                                                                    "use load_in_4bit: true")));
    }
    if (adapter == "qlora" && !*merge && !*four) {
        return tl::unexpected(r.error("adapter", QT_TRANSLATE_NOOP("gpusizer", "adapter: qlora needs load_in_4bit: "
                                                                               "true; Axolotl refuses it without "
                                                                               "(schemas/peft.py validate_qlora)")));
    }
    if (adapter == "lora" || adapter == "qlora") {
        run.method = adapter == "qlora" ? Method::Qlora : Method::Lora;
        // Axolotl builds its 4-bit BitsAndBytesConfig for qlora only (loaders/model.py:712) and its 8-bit one for lora
        // (:740): lora with load_in_4bit alone loads a 16-bit base, which PEFT's prepare_model_for_kbit_training casts
        // to fp32 (peft utils/other.py:197-208) unless the run is DeepSpeed ZeRO-3 or FSDP with
        // cpu_ram_efficient_loading (loaders/model.py:1002-1008); the stage is known once the DeepSpeed file is read
        // (decidePrecision).
        run.load4bit = adapter == "qlora" && *four;
        run.load8bit = *eight;
        if (adapter == "lora" && *four && !*eight) {
            const json* efficient = r.doc().find("fsdp_config.cpu_ram_efficient_loading");
            const json* prefixed = r.doc().find("fsdp_config.fsdp_cpu_ram_efficient_loading");
            const auto on = [](const json* v) { return v != nullptr && v->is_boolean() && v->get<bool>(); };
            run.kbitCastToFp32 = !on(efficient) && !on(prefixed);
            r.noteKey("load_in_4bit",
                      QT_TRANSLATE_NOOP("gpusizer",
                                        "Axolotl quantizes only with adapter: qlora (loaders/model.py:712); "
                                        "with adapter: lora the base loads in 16 bits and PEFT's "
                                        "prepare_model_for_kbit_training casts it to fp32, except under DeepSpeed "
                                        "ZeRO-3 or FSDP's cpu_ram_efficient_loading (loaders/model.py:1002-1008)"));
        }
        if (run.load4bit) {
            // QLoRA's BitsAndBytesConfig is built in code: NF4 with double quantization (loaders/model.py:712-742).
            s.quantization = Quantization::Nf4Dq;
        }
        GPUSIZER_CHECK(readAxolotlLoraArguments(r, peft));
    } else if (adapter.empty()) {
        run.method = Method::Full;
        if (*four || *eight) {
            return tl::unexpected(r.error(*four ? "load_in_4bit" : "load_in_8bit",
                                          QT_TRANSLATE_NOOP("gpusizer", "a quantized base needs an adapter (Axolotl's "
                                                                        "validate_adapter refuses it)")));
        }
    } else {
        return tl::unexpected(r.error(
            "adapter",
            words(QT_TRANSLATE_NOOP("gpusizer", "adapter '%1' is not one GPU Sizer sizes (lora, qlora)"), adapter)));
    }
    return *eight;
}

/// bf16 (true, false or auto), fp16, and the dtype the weights load in.
Result<void> readAxolotlPrecision(KeyReader& r, bool eight) {
    RunDraft& run = r.run();
    // bf16 "auto": bf16 on any GPU that has it (utils/config/__init__.py resolve_dtype); the weights load in it.
    GPUSIZER_ASSIGN(auto bf16Text, r.text("bf16", "precision", AXOLOTL "schemas/config.py:559", std::string("auto")));
    // Literal["auto"] | bool, validated by pydantic in lax mode: "yes", "on", "1", "True" are true.
    const auto bf16 = std::optional<std::string>(pydanticBool(*bf16Text).value_or(*bf16Text));
    GPUSIZER_ASSIGN(auto fp16, r.flag("fp16", "precision", AXOLOTL "schemas/config.py:565", false));
    // resolve_dtype: "auto" turns bf16 on only when fp16 is off; bfloat16 / float16 load in that dtype without AMP.
    const bool useBf16 = *bf16 == "true" || (*bf16 == "auto" && !*fp16);
    GPUSIZER_ASSIGN(auto bfloat16, r.flag("bfloat16", "precision", AXOLOTL "schemas/config.py:582"));
    GPUSIZER_ASSIGN(auto float16, r.flag("float16", "precision", AXOLOTL "schemas/config.py:588"));
    setTrainerCompute(run, useBf16 ? "bf16" : *fp16 ? "fp16" : "");
    run.loadDtype = useBf16 || bfloat16.value_or(false)           ? "bf16"
                    : (*fp16 || eight || float16.value_or(false)) ? "fp16"
                                                                  : "fp32";
    run.loadDtypeWhere = r.doc().position("bf16");
    if (*bf16 != "auto" && *bf16 != "true" && *bf16 != "false") {
        // schemas/config.py:559 types bf16 as Literal["auto"] | bool: "full" and the rest are refused.
        return tl::unexpected(
            r.error("bf16", words(QT_TRANSLATE_NOOP("gpusizer", "Axolotl accepts bf16: true, false or auto, not '%1' "
                                                                "(schemas/config.py:559)"),
                                  *bf16)));
    }
    return {};
}

/// gradient_checkpointing (a switch, or offload) and activation_offloading.
Result<void> readAxolotlCheckpointing(KeyReader& r) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    const std::string gcKey = "gradient_checkpointing";
    if (const json* gc = r.value(gcKey); gc != nullptr && gc->is_string()) {
        s.checkpointing = Checkpointing::Full;
        s.activationOffload = gc->get<std::string>().rfind("offload", 0) == 0;
        run.lines.push_back({ImportLine::Kind::Used, r.doc().position(gcKey), gcKey, gc->get<std::string>(),
                             "gradient_checkpointing", verbatim(AXOLOTL "schemas/config.py:600")});
    } else {
        GPUSIZER_ASSIGN(auto on, r.flag(gcKey, "gradient_checkpointing", AXOLOTL "schemas/config.py:600", false));
        s.checkpointing = *on ? Checkpointing::Full : Checkpointing::None;
    }
    // activation_offloading: true, or the kind (legacy, disk, hidden_states): activations leave the GPU either way.
    if (const json* off = r.value("activation_offloading"); off != nullptr && off->is_string()) {
        s.activationOffload = true;
        run.lines.push_back({ImportLine::Kind::Used, r.doc().position("activation_offloading"), "activation_offloading",
                             off->get<std::string>(), "activation_offload", verbatim(AXOLOTL "schemas/config.py:623")});
    } else {
        GPUSIZER_ASSIGN(auto offload,
                        r.flag("activation_offloading", "activation_offload", AXOLOTL "schemas/config.py:623"));
        if (offload) {
            s.activationOffload = *offload;
        }
    }
    if (r.has("activation_offloading") && s.activationOffload && s.checkpointing == Checkpointing::None) {
        // validation.py:1445-1448 refuses offloading the checkpoints of a run that keeps none.
        return tl::unexpected(r.error("activation_offloading",
                                      QT_TRANSLATE_NOOP("gpusizer", "Axolotl refuses activation_offloading without "
                                                                    "gradient_checkpointing (validation.py:1445)")));
    }
    return {};
}

/// The attention implementation: attn_implementation, or the first of the older switches.
Result<void> readAxolotlAttention(KeyReader& r) {
    RunDraft& run = r.run();
    // Attention: attn_implementation, or the older switches it replaced; of several switches the first in
    // enums.py:118-125's order wins (LEGACY_ATTN_FLAG_TO_IMPL, read by normalize_attn_implementation).
    std::string attention = "sdpa";
    std::string attentionKey;
    for (const auto& [key, impl] :
         {std::pair{"xformers_attention", "xformers"}, std::pair{"sage_attention", "sage"},
          std::pair{"flex_attention", "flex_attention"}, std::pair{"flash_attention", "flash_attention_2"},
          std::pair{"sdp_attention", "sdpa"}, std::pair{"eager_attention", "eager"}}) {
        GPUSIZER_ASSIGN(auto on, r.flag(key, "attention", AXOLOTL "schemas/config.py:784-838"));
        if (on && *on && !attentionKey.empty()) {
            r.noteKey(
                key, words(QT_TRANSLATE_NOOP("gpusizer", "not used: %1 comes first (enums.py:118-125)"), attentionKey));
        } else if (on && *on) {
            attention = impl;
            attentionKey = key;
        }
    }
    GPUSIZER_ASSIGN(auto impl, r.text("attn_implementation", "attention", AXOLOTL "schemas/config.py:839"));
    if (impl && !attentionKey.empty()) {
        // schemas/config.py:1527-1575 normalize_attn_implementation refuses the two together.
        return tl::unexpected(r.error(
            "attn_implementation",
            words(QT_TRANSLATE_NOOP("gpusizer", "Axolotl refuses attn_implementation together with the older switch "
                                                "'%1' (schemas/config.py normalize_attn_implementation): keep one"),
                  attentionKey)));
    }
    if (impl) {
        attention = *impl;
        attentionKey = "attn_implementation";
    } else if (attentionKey.empty()) {
        run.lines.push_back({ImportLine::Kind::Defaulted, r.doc().position(""), "attn_implementation", "sdpa",
                             "attention", verbatim("transformers: sdpa where torch has it")});
        attentionKey = "attn_implementation";
    }
    GPUSIZER_CHECK(applyAttention(r, attentionKey, attention));
    return {};
}

/// The Cut Cross-Entropy and Liger plugins, whose switches count only when the plugin is listed.
Result<void> readAxolotlPlugins(KeyReader& r) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    GPUSIZER_ASSIGN(auto plugins, r.list("plugins", "", AXOLOTL "schemas/config.py:1423"));
    const auto hasPlugin = [&](const char* name) {
        return plugins && std::any_of(plugins->begin(), plugins->end(),
                                      [&](const std::string& p) { return p.find(name) != std::string::npos; });
    };
    if (hasPlugin("CutCrossEntropyPlugin")) {
        GPUSIZER_ASSIGN(auto cce,
                        r.flag("cut_cross_entropy", "loss", AXOLOTL "integrations/cut_cross_entropy/args.py:33", true));
        if (*cce) {
            s.loss = Loss::CutCrossEntropy;
        }
    }
    if (hasPlugin("LigerPlugin")) {
        GPUSIZER_ASSIGN(auto flce, r.flag("liger_fused_linear_cross_entropy", "loss",
                                          AXOLOTL "integrations/liger/args.py:31-55", false));
        if (*flce) {
            s.loss = Loss::FusedLinear;
        }
        const char* args = AXOLOTL "integrations/liger/args.py:31-55";
        GPUSIZER_ASSIGN(auto rmsNorm, r.flag("liger_rms_norm", "liger_rms_norm", args, false));
        s.ligerRmsNorm = *rmsNorm;
        GPUSIZER_ASSIGN(auto rope, r.flag("liger_rope", "liger_rope", args, false));
        s.ligerRope = *rope;
        const std::string gluKey = r.has("liger_swiglu") ? "liger_swiglu" : "liger_glu_activation";
        GPUSIZER_ASSIGN(auto glu, r.flag(gluKey, "liger_glu", args, false));
        s.ligerGlu = *glu;
        for (const char* key : {"liger_layer_norm", "liger_cross_entropy"}) {
            if (r.has(key)) {
                r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "not modelled: Liger's LayerNorm and its cross-entropy "
                                                             "over full logits are sized as the standard ones"));
            }
        }
    } else {
        for (const char* key : {"liger_fused_linear_cross_entropy", "liger_rope", "liger_rms_norm",
                                "liger_glu_activation", "liger_cross_entropy"}) {
            r.ignore(key, QT_TRANSLATE_NOOP("gpusizer", "has no effect without axolotl.integrations.liger.LigerPlugin "
                                                        "in plugins"));
        }
    }
    return {};
}

/// DeepSpeed, or FSDP from the older fsdp: list or fsdp_config.
Result<void> readAxolotlSharding(KeyReader& r) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    GPUSIZER_CHECK(readDeepspeedKey(r, "deepspeed", AXOLOTL "schemas/config.py:1032"));
    // The older `fsdp:` list goes to TrainingArguments.fsdp; fsdp_config (keys with or without the fsdp_ prefix)
    // alone turns FSDP on. The top-level fsdp_version wins over fsdp_config's (validation.py:882-887).
    const char* fsdpSource = AXOLOTL "src/axolotl/utils/schemas/fsdp.py";
    if (r.has("fsdp")) {
        GPUSIZER_CHECK(readTrainerFsdpOption(r, "fsdp", "fsdp_config.", fsdpSource));
    } else if (r.has("fsdp_config")) {
        GPUSIZER_CHECK(readFsdpConfig(r, "fsdp_config.", fsdpSource));
    }
    if (run.fsdp) {
        GPUSIZER_ASSIGN(auto version,
                        r.integer("fsdp_version", "sharding_engine", AXOLOTL "schemas/config.py:1052", 1, 2));
        if (version) {
            s.shardingEngine = *version == 2 ? ShardingEngine::Fsdp2 : ShardingEngine::Fsdp1;
        }
    }
    return {};
}

Result<void> readAxolotl(KeyReader& r) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    setFramework(r, Framework::Axolotl, AXOLOTL "(a Trainer subclass)");
    GPUSIZER_ASSIGN(auto model, r.text("base_model", "model", AXOLOTL "src/axolotl/utils/schemas/model.py:17"));
    if (model) {
        run.modelName = *model;
        run.modelWhere = r.doc().at("base_model");
    }
    // rl: dpo and ipo run TRL's DPOTrainer, orpo ORPOTrainer, kto KTOTrainer, simpo CPOTrainer (core/trainers/dpo,
    // rl.py L71-80, L135-149); the reference model is a second load for full fine-tuning, none with an adapter
    // (train.py L137-153).
    GPUSIZER_ASSIGN(auto rl, r.text("rl", "run_kind", AXOLOTL "src/axolotl/utils/schemas/enums.py RLType"));
    if (rl) {
        applyObjective(r, "rl", *rl);
    }
    if (r.run().scenario.runKind == RunKind::Grpo) {
        // Its trl: section, passed to TRL 1.8.0 (the version it pins: max_completion_length 256).
        GPUSIZER_CHECK(readGrpoKeys(r, "trl.", AXOLOTL "src/axolotl/utils/schemas/trl.py", 256));
    }
    // freeze_mm_modules freezes the vision tower and the projector (utils/freeze.py L16-49); unset, nothing is frozen
    // (schemas/config.py L643-652).
    GPUSIZER_ASSIGN(auto freezeMm,
                    r.flag("freeze_mm_modules", "freeze_vision_tower", AXOLOTL "src/axolotl/utils/freeze.py L16-49"));
    s.freezeVisionTower = s.freezeProjector = freezeMm.value_or(false);
    GPUSIZER_ASSIGN(const bool eight, readAxolotlAdapter(r));
    GPUSIZER_ASSIGN(auto seq, r.integer("sequence_len", "seq_len", AXOLOTL "schemas/config.py:665", 1, 10000000, 512));
    // GRPO's sequence is its trl: prompt + completion where it names the prompt; sequence_len otherwise.
    if (s.runKind != RunKind::Grpo || !r.has("trl.max_prompt_length")) {
        s.seqLen = std::max(*seq, s.runKind == RunKind::Grpo ? s.completionLength + 1 : std::int64_t{1});
    }
    // Sequence parallelism with ring-flash-attn (schemas/config.py:1101-1107; sequence_parallel_degree is the
    // deprecated name, validation.py check_context_parallel_size copies it).
    GPUSIZER_ASSIGN(auto cp, r.integer(spelling(r, "", {"context_parallel_size", "sequence_parallel_degree"}),
                                       "context_parallel", AXOLOTL "schemas/config.py:1107", 1, 1024, 1));
    s.contextParallel = *cp;
    s.contextParallelKind = ContextParallel::Ring;
    GPUSIZER_ASSIGN(auto packing, r.flag("sample_packing", "", AXOLOTL "schemas/config.py:688", false));
    if (*packing) {
        r.noteKey("sample_packing", QT_TRANSLATE_NOOP("gpusizer", "packed: every row is sequence_len tokens long"));
    }
    GPUSIZER_ASSIGN(auto micro,
                    r.integer("micro_batch_size", "micro_batch", AXOLOTL "schemas/training.py:77", 1, 65536, 1));
    s.microBatch = *micro;
    GPUSIZER_ASSIGN(auto accumulation, r.integer("gradient_accumulation_steps", "gradient_accumulation",
                                                 AXOLOTL "schemas/training.py:71", 1, 65536, 1));
    s.gradientAccumulation = *accumulation;
    GPUSIZER_ASSIGN(auto optimizer, r.text("optimizer", "optimizer", AXOLOTL "schemas/training.py:122",
                                           std::string("adamw_torch_fused")));
    GPUSIZER_CHECK(applyHfOptimizer(r, "optimizer", *optimizer));
    GPUSIZER_CHECK(readAxolotlPrecision(r, eight));
    GPUSIZER_CHECK(readAxolotlCheckpointing(r));
    GPUSIZER_CHECK(readAxolotlAttention(r));
    GPUSIZER_CHECK(readAxolotlPlugins(r));
    GPUSIZER_CHECK(readAxolotlSharding(r));
    return {};
}

} // namespace gpusizer::core::detail
