// The conversions several formats share (LoRA targets, attention and optimizer names, DeepSpeed's offload and
// buckets, a trainer's deepspeed and fsdp options); each format's keys are its table in formats/.

#include "FormatSteps.h"

#include "gpusizer/scenario/FrameworkProfile.h"
#include "gpusizer/scenario/JsonRead.h"
#include "gpusizer/scenario/Lowercase.h"

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

/// LoRA targets from module names; "all-linear" / LLaMA-Factory "all" cover every decoder linear. PEFT's "all-linear"
/// also reaches a vision-language model's encoder and projector (every Linear but the output layer: peft @5d602fdb
/// tuners_utils.py L2382-2442); LLaMA-Factory's "all" skips them (model_utils/misc.py L28-52 @ff6d4d12).
Result<void> applyTargets(KeyReader& r, const std::string& key, const std::vector<std::string>& names) {
    LoraSettings& lora = r.run().scenario.lora;
    lora.targets.clear();
    lora.visionTargets = VisionAdapterTargets::None; // follows the names (a later file's list replaces an earlier one)
    for (const std::string& name : names) {
        if (name == "all-linear") {
            lora.visionTargets = VisionAdapterTargets::EncoderAndProjector;
        }
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

bool applyVisionExclusion(KeyReader& r, const std::string& key) {
    const json* v = r.doc().find(key);
    if (v == nullptr || v->is_null() || r.run().scenario.lora.visionTargets == VisionAdapterTargets::None) {
        return false;
    }
    std::string names = lowercase(v->dump()); // a regex string or a list: its words are what PEFT matches
    LoraSettings& lora = r.run().scenario.lora;
    const auto mentions = [&](std::initializer_list<const char*> words) {
        return std::any_of(words.begin(), words.end(),
                           [&](const char* w) { return names.find(w) != std::string::npos; });
    };
    if (mentions({"visual", "vision", "image"})) {
        lora.visionTargets = VisionAdapterTargets::None;
        r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "it excludes the image side: lora.vision_targets none"));
        return true;
    }
    if (mentions({"projector", "merger"}) && lora.visionTargets == VisionAdapterTargets::EncoderAndProjector) {
        lora.visionTargets = VisionAdapterTargets::Encoder;
        r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "it excludes the projector: lora.vision_targets encoder"));
        return true;
    }
    return false;
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

void setLoraRank(RunDraft& d, std::int64_t rank) {
    d.scenario.lora.rank = rank;
}

void setLoraAlpha(RunDraft& d, double alpha) {
    d.scenario.lora.alpha = alpha;
}

void setLoraDropout(RunDraft& d, double dropout) {
    d.scenario.lora.dropout = dropout;
}

void setDoraWhenOn(RunDraft& d, bool dora) {
    if (dora) {
        d.scenario.lora.kind = AdapterKind::Dora;
    }
}

void setMicroBatch(RunDraft& d, std::int64_t sequences) {
    d.scenario.microBatch = sequences;
}

void setGradientAccumulation(RunDraft& d, std::int64_t steps) {
    d.scenario.gradientAccumulation = steps;
}

void setSeqLen(RunDraft& d, std::int64_t tokens) {
    d.scenario.seqLen = tokens;
}

Result<void> applyModelName(KeyReader& r, const std::string& key, const std::string& name) {
    r.run().modelName = name;
    r.run().modelWhere = r.doc().at(key);
    return {};
}

/// apply_liger_kernel_to_<model>()'s defaults: rope, rms_norm and swiglu (monkey_patch.py @ead96b61).
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

} // namespace gpusizer::core::detail
