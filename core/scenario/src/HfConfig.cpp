#include "gpusizer/scenario/HfConfig.h"

#include "gpusizer/scenario/JsonRead.h"
#include "gpusizer/scenario/Validate.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

namespace gpusizer::core {

using nlohmann::json;

namespace {

constexpr std::int64_t kMaxDimension = 10'000'000;

/// Reads the first present key among aliases as a positive integer. Absent: nullopt. Wrong: an Error.
Result<std::optional<std::int64_t>> intKey(const json& cfg, std::initializer_list<const char*> keys,
                                           std::string_view where, bool allowZero = false) {
    for (const char* key : keys) {
        auto it = cfg.find(key);
        if (it == cfg.end() || it->is_null()) {
            continue;
        }
        const std::string field = std::string(where) + ": " + key;
        if (!it->is_number_integer() &&
            !(it->is_number_float() && it->get<double>() == std::floor(it->get<double>()))) {
            return fail(ErrorCode::WrongType, words(QT_TRANSLATE_NOOP("gpusizer", "'%1' must be an integer"), key),
                        field);
        }
        const double v = it->get<double>();
        if (v < (allowZero ? 0.0 : 1.0) || v > static_cast<double>(kMaxDimension)) {
            return fail(ErrorCode::OutOfRange,
                        words(QT_TRANSLATE_NOOP("gpusizer", "'%1' must be between %2 and 10,000,000"), key,
                              (allowZero ? "0" : "1")),
                        field);
        }
        return std::optional<std::int64_t>(static_cast<std::int64_t>(v));
    }
    return std::optional<std::int64_t>{};
}

Result<std::int64_t> requiredInt(const json& cfg, std::initializer_list<const char*> keys, std::string_view where) {
    auto v = intKey(cfg, keys, where);
    if (!v) {
        return tl::unexpected(v.error());
    }
    if (!*v) {
        std::string names;
        for (const char* k : keys) {
            names += names.empty() ? std::string("'") + k + "'" : std::string(" or '") + k + "'";
        }
        return fail(ErrorCode::MissingField, words(QT_TRANSLATE_NOOP("gpusizer", "missing %1"), names),
                    std::string(where) + ": " + *keys.begin());
    }
    return **v;
}

double floatKey(const json& cfg, std::initializer_list<const char*> keys, double fallback) {
    for (const char* key : keys) {
        auto it = cfg.find(key);
        if (it != cfg.end() && it->is_number()) {
            return it->get<double>();
        }
    }
    return fallback;
}

/// A dropout probability: a number at least 0 and below 1 (0 when absent); a string or 1e308 is refused, not ignored.
Result<double> rateKey(const json& cfg, std::initializer_list<const char*> keys, std::string_view where) {
    for (const char* key : keys) {
        auto it = cfg.find(key);
        if (it == cfg.end() || it->is_null()) {
            continue;
        }
        if (!it->is_number() || !(it->get<double>() >= 0.0 && it->get<double>() < 1.0)) {
            return fail(ErrorCode::OutOfRange,
                        words(QT_TRANSLATE_NOOP("gpusizer", "'%1' is a probability: at least 0 and below 1"), key),
                        std::string(where) + ": " + key);
        }
        return it->get<double>();
    }
    return 0.0;
}

std::optional<bool> boolKey(const json& cfg, const char* key) {
    auto it = cfg.find(key);
    if (it != cfg.end() && it->is_boolean()) {
        return it->get<bool>();
    }
    return std::nullopt;
}

bool oneOf(const std::string& v, std::initializer_list<const char*> names) {
    return std::any_of(names.begin(), names.end(), [&](const char* n) { return v == n; });
}

// Hands a failed read back to the caller; shared by the stages below and the function that runs them.
#define GPUSIZER_TRY(var, expr)                                                                                        \
    auto var##_r = (expr);                                                                                             \
    if (!var##_r) {                                                                                                    \
        return tl::unexpected(var##_r.error());                                                                        \
    }

/// The switches and names read from config.json must have their JSON type: "tie_word_embeddings": "no" is refused
/// by name, not ignored (and not a library message about an unnamed value).
Result<void> checkKeyTypes(const json& root, const json& cfg, std::string_view where) {
    static const char* const kFlags[] = {
        "attention_bias",           "attention_out_bias", "causal_lm",         "mlp_bias", "multi_query",
        "new_decoder_architecture", "parallel_attn",      "parallel_residual", "qkv_bias", "tie_word_embeddings",
        "use_parallel_residual",    "use_qk_norm"};
    for (const json* object : {&root, &cfg}) {
        for (const char* key : kFlags) {
            if (auto it = object->find(key); it != object->end() && !it->is_null() && !it->is_boolean()) {
                return fail(ErrorCode::WrongType,
                            words(QT_TRANSLATE_NOOP("gpusizer", "'%1' must be true or false"), key),
                            std::string(where) + ": " + key);
            }
        }
        for (const char* key : {"model_type", "mlp_type", "norm_type", "qk_norm"}) {
            if (auto it = object->find(key); it != object->end() && !it->is_null() && !it->is_string()) {
                return fail(ErrorCode::WrongType, words(QT_TRANSLATE_NOOP("gpusizer", "'%1' must be a string"), key),
                            std::string(where) + ": " + key);
            }
        }
    }
    return {};
}

/// The model_type (or "unknown") and the architecture's name (its class, else the type).
void readModelIdentity(const json& root, const json& cfg, ImportedArch& out) {
    ModelArch& a = out.arch;
    out.modelType = cfg.value("model_type", root.value("model_type", std::string("unknown")));
    if (!cfg.value("model_type", json()).is_string() && !root.value("model_type", json()).is_string()) {
        out.modelType = "unknown";
    }
    const std::string& type = out.modelType;
    if (auto archs = root.find("architectures");
        archs != root.end() && archs->is_array() && !archs->empty() && (*archs)[0].is_string()) {
        a.name = (*archs)[0].get<std::string>();
    } else {
        a.name = type;
    }
}

/// Width, depth, heads, vocabulary, key/value heads and head dimension.
Result<void> readAttentionShape(const json& cfg, std::string_view where, ImportedArch& out) {
    ModelArch& a = out.arch;
    const std::string& type = out.modelType;
    GPUSIZER_TRY(hidden, requiredInt(cfg, {"hidden_size", "n_embd", "d_model", "dim"}, where));
    GPUSIZER_TRY(layers, requiredInt(cfg, {"num_hidden_layers", "n_layer", "num_layers", "n_layers"}, where));
    GPUSIZER_TRY(heads, requiredInt(cfg, {"num_attention_heads", "n_head", "n_heads", "num_heads"}, where));
    GPUSIZER_TRY(vocab, requiredInt(cfg, {"vocab_size", "padded_vocab_size"}, where));
    a.hiddenSize = *hidden_r;
    a.numLayers = *layers_r;
    a.numHeads = *heads_r;
    a.vocabSize = *vocab_r;

    GPUSIZER_TRY(kv, intKey(cfg, {"num_key_value_heads", "num_kv_heads", "n_head_kv", "num_kv_heads"}, where));
    if (*kv_r) {
        a.numKvHeads = **kv_r;
    } else if (boolKey(cfg, "multi_query").value_or(false)) {
        a.numKvHeads = 1; // Falcon-7B style multi-query attention
    } else {
        a.numKvHeads = a.numHeads;
        if (!oneOf(type, {"gpt2", "bert", "gpt_neox", "bloom", "phi", "opt", "gptj", "stablelm", "roberta"})) {
            out.warnings.push_back(
                {"assumed_mha",
                 QT_TRANSLATE_NOOP("gpusizer", "no num_key_value_heads: assumed full multi-head attention")});
        }
    }
    GPUSIZER_TRY(headDim, intKey(cfg, {"head_dim"}, where));
    a.headDim = headDim_r->value_or(0);
    return {};
}

/// Plain (two-matrix) MLP families with LayerNorm; everything else is a gated MLP with RMSNorm.
bool isPlainFamily(const std::string& type) {
    return oneOf(type, {"gpt2", "bert", "roberta", "gpt_neox", "bloom", "phi", "opt", "gptj", "falcon", "starcoder2",
                        "gpt_bigcode", "stablelm_alpha"});
}

/// GPU Sizer's own keys, which saved scenarios write, so a saved shape needs no family guess.
bool hasExplicitShape(const json& cfg) {
    return cfg.contains("mlp_type") || cfg.contains("norm_type");
}

/// The MLP and norm kinds: the family's, unless the config names them.
Result<void> readMlpAndNormKinds(const json& cfg, std::string_view where, bool plainFamily, ModelArch& a) {
    a.mlp = plainFamily ? MlpKind::Plain : MlpKind::Gated;
    a.norm = plainFamily ? NormKind::LayerNorm : NormKind::RmsNorm;
    // GPU Sizer's own explicit keys (written by saved scenarios) override the family defaults.
    if (auto it = cfg.find("mlp_type"); it != cfg.end()) {
        if (*it == "gated") {
            a.mlp = MlpKind::Gated;
        } else if (*it == "plain") {
            a.mlp = MlpKind::Plain;
        } else {
            return fail(ErrorCode::UnknownValue,
                        QT_TRANSLATE_NOOP("gpusizer", "'mlp_type' must be \"gated\" or \"plain\""),
                        std::string(where) + ": mlp_type");
        }
    }
    if (auto it = cfg.find("norm_type"); it != cfg.end()) {
        if (*it == "rmsnorm") {
            a.norm = NormKind::RmsNorm;
        } else if (*it == "layernorm") {
            a.norm = NormKind::LayerNorm;
        } else {
            return fail(ErrorCode::UnknownValue,
                        QT_TRANSLATE_NOOP("gpusizer", "'norm_type' must be \"rmsnorm\" or \"layernorm\""),
                        std::string(where) + ": norm_type");
        }
    }
    return {};
}

/// Norms per layer and whether attention and MLP run in parallel: the family's, then the explicit keys.
Result<void> readNormsAndParallelBlocks(const json& cfg, std::string_view where, const std::string& type,
                                        ModelArch& a) {
    // Norms per layer and parallel blocks (attention and MLP read the same input), from each family's modeling code:
    // Phi/GPT-J/Cohere one norm feeding both branches; Falcon the same unless new_decoder_architecture (two norms on
    // one input); GPT-NeoX two norms on one input when use_parallel_residual (its default); Gemma-2/3 four norms
    // (input, post-attention, pre- and post-feedforward).
    if (oneOf(type, {"phi", "gptj", "cohere"})) {
        a.normsPerLayer = 1;
        a.parallelResidual = true;
    } else if (type == "falcon") {
        a.parallelResidual = boolKey(cfg, "parallel_attn").value_or(true);
        a.normsPerLayer = (boolKey(cfg, "new_decoder_architecture").value_or(false) || !a.parallelResidual) ? 2 : 1;
    } else if (type == "gpt_neox") {
        a.parallelResidual = boolKey(cfg, "use_parallel_residual").value_or(true);
    } else if (oneOf(type, {"gemma2", "gemma3", "gemma3_text"})) {
        a.normsPerLayer = 4;
    }
    // q/k norms: Qwen3Attention's q_norm and k_norm over head_dim (modeling_qwen3.py, "unlike olmo, only on the head
    // dim!"), Gemma3Attention's the same; Olmo2Attention's over the whole projections (modeling_olmo2.py:231-232),
    // which OLMo 3 keeps (transformers @000c33fd).
    if (oneOf(type, {"qwen3", "qwen3_moe", "qwen3_vl", "qwen3_vl_text", "gemma3", "gemma3_text"})) {
        a.qkNorm = QkNorm::PerHead;
    } else if (oneOf(type, {"olmo2", "olmo3"}) || (type == "cohere" && boolKey(cfg, "use_qk_norm").value_or(false))) {
        // (Cohere's: CohereLayerNorm((num_heads, head_dim)) on q and (num_key_value_heads, head_dim) on k,
        // modeling_cohere.py CohereAttention, Command R+.)
        a.qkNorm = QkNorm::Projection;
    }
    if (auto it = cfg.find("qk_norm");
        it != cfg.end() && !it->is_null()) { // a custom model's, as archToHfConfig writes
        if (*it == "per_head") {
            a.qkNorm = QkNorm::PerHead;
        } else if (*it == "projection") {
            a.qkNorm = QkNorm::Projection;
        } else if (*it == "none") {
            a.qkNorm = QkNorm::None;
        } else {
            return fail(ErrorCode::UnknownValue,
                        QT_TRANSLATE_NOOP("gpusizer", "'qk_norm' must be \"per_head\", \"projection\" or \"none\""),
                        std::string(where) + ": qk_norm");
        }
    }
    GPUSIZER_TRY(norms, intKey(cfg, {"norms_per_layer"}, where));
    if (*norms_r) {
        a.normsPerLayer = std::min<std::int64_t>(**norms_r, 8);
    }
    if (auto parallel = boolKey(cfg, "parallel_residual"); parallel) {
        a.parallelResidual = *parallel;
    }
    return {};
}

void readLogitSoftcaps(const json& cfg, const std::string& type, ModelArch& a) {
    // Gemma-2 soft-caps by default (Gemma2Config: final_logit_softcapping 30.0, attn_logit_softcapping 50.0,
    // transformers configuration_gemma2.py @008e5743); a null in the file turns it off.
    const bool gemma2 = type == "gemma2";
    const bool finalNull = cfg.contains("final_logit_softcapping") && cfg["final_logit_softcapping"].is_null();
    const bool attnNull = cfg.contains("attn_logit_softcapping") && cfg["attn_logit_softcapping"].is_null();
    a.finalLogitSoftcap =
        std::clamp(floatKey(cfg, {"final_logit_softcapping"}, gemma2 && !finalNull ? 30.0 : 0.0), 0.0, 1e6);
    a.attentionLogitSoftcap =
        std::clamp(floatKey(cfg, {"attn_logit_softcapping"}, gemma2 && !attnNull ? 50.0 : 0.0), 0.0, 1e6);
}

/// The attention window, where the config sets one and does not switch it off (Qwen2's use_sliding_window false).
/// transformers builds an attention mask for SDPA once a sequence reaches it (masking_utils.py
/// _ignore_causal_mask_sdpa: local_attention_size).
Result<void> readSlidingWindow(const json& cfg, std::string_view where, ModelArch& a) {
    GPUSIZER_TRY(window, intKey(cfg, {"sliding_window"}, where));
    if (*window_r && boolKey(cfg, "use_sliding_window").value_or(true)) {
        a.slidingWindow = **window_r;
    }
    return {};
}

/// The MLP width; plain families without one get 4 x hidden_size (the others need it or an MoE's, checked later).
Result<void> readIntermediateSize(const json& cfg, std::string_view where, bool plainFamily, ImportedArch& out) {
    ModelArch& a = out.arch;
    GPUSIZER_TRY(inter, intKey(cfg, {"intermediate_size", "n_inner", "ffn_dim", "ffn_hidden_size"}, where));
    if (*inter_r) {
        a.intermediateSize = **inter_r;
    } else if (plainFamily) {
        a.intermediateSize = 4 * a.hiddenSize;
        out.warnings.push_back(
            {"assumed_intermediate", QT_TRANSLATE_NOOP("gpusizer", "no intermediate_size: assumed 4 x hidden_size")});
    }
    return {};
}

void readTiedEmbeddings(const json& root, const json& cfg, const std::string& type, ModelArch& a) {
    // Tied embeddings: the key when present, else the model class default (PretrainedConfig defaults to true,
    // Llama/Mistral/Qwen2 configs to false).
    if (auto tied = boolKey(cfg, "tie_word_embeddings"); tied) {
        a.tiedEmbeddings = *tied;
    } else if (auto rootTied = boolKey(root, "tie_word_embeddings"); rootTied) {
        a.tiedEmbeddings = *rootTied;
    } else {
        a.tiedEmbeddings = oneOf(type, {"gemma", "gemma2", "gemma3", "gemma3_text", "gpt2", "bert", "roberta", "bloom",
                                        "opt", "falcon", "phi"});
    }
}

/// Biases on the attention projections and the MLP: the config's flags, or the families that always have them.
void readBiases(const json& cfg, const std::string& type, ModelArch& a) {
    a.qkvBias =
        boolKey(cfg, "attention_bias").value_or(false) || boolKey(cfg, "qkv_bias").value_or(false) ||
        oneOf(type, {"qwen2", "qwen2_moe", "qwen", "qwen2_vl", "qwen2_vl_text", "qwen2_5_vl", "qwen2_5_vl_text", "gpt2",
                     "bert", "roberta", "bloom", "gpt_neox", "phi", "opt", "starcoder2", "stablelm_alpha"});
    a.outputBias = boolKey(cfg, "attention_out_bias").value_or(boolKey(cfg, "attention_bias").value_or(false)) ||
                   oneOf(type, {"gpt2", "bert", "roberta", "bloom", "gpt_neox", "phi", "opt", "starcoder2"});
    a.mlpBias = boolKey(cfg, "mlp_bias").value_or(false) ||
                oneOf(type, {"gpt2", "bert", "roberta", "bloom", "gpt_neox", "phi", "opt", "starcoder2"});
}

/// Learned position tables and the output head (a causal LM head, or none for encoders), then dropout rates.
Result<void> readPositionsHeadAndDropout(const json& cfg, std::string_view where, const std::string& type,
                                         ModelArch& a) {
    if (oneOf(type, {"gpt2"})) {
        GPUSIZER_TRY(positions, intKey(cfg, {"n_positions"}, where));
        a.learnedPositions = positions_r->value_or(1024);
    } else if (oneOf(type, {"bert", "roberta"})) {
        GPUSIZER_TRY(positions, intKey(cfg, {"max_position_embeddings"}, where));
        GPUSIZER_TRY(types, intKey(cfg, {"type_vocab_size"}, where, true));
        a.learnedPositions = positions_r->value_or(512) + types_r->value_or(2);
        a.causalLmHead = false; // sized as a sequence classifier
    }
    GPUSIZER_TRY(learned, intKey(cfg, {"learned_positions"}, where, true));
    if (*learned_r) {
        a.learnedPositions = **learned_r;
    }
    if (auto causal = boolKey(cfg, "causal_lm"); causal) {
        a.causalLmHead = *causal;
    }
    GPUSIZER_TRY(hidden, rateKey(cfg, {"hidden_dropout_prob", "resid_pdrop", "hidden_dropout"}, where));
    GPUSIZER_TRY(attention, rateKey(cfg, {"attention_probs_dropout_prob", "attn_pdrop", "attention_dropout"}, where));
    a.hiddenDropout = *hidden_r;
    a.attentionDropout = *attention_r;
    return {};
}

Result<void> readMixtureOfExperts(const json& cfg, std::string_view where, ModelArch& a) {
    // Mixture of experts.
    GPUSIZER_TRY(experts,
                 intKey(cfg, {"num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts"}, where, true));
    if (experts_r->value_or(0) > 0) {
        a.moe.numExperts = **experts_r;
        GPUSIZER_TRY(perTok, intKey(cfg, {"num_experts_per_tok", "moe_top_k", "top_k"}, where));
        if (!*perTok_r) {
            return fail(ErrorCode::MissingField,
                        QT_TRANSLATE_NOOP("gpusizer", "a mixture-of-experts config needs 'num_experts_per_tok'"),
                        std::string(where) + ": num_experts_per_tok");
        }
        a.moe.expertsPerToken = **perTok_r;
        GPUSIZER_TRY(moeInter, intKey(cfg, {"moe_intermediate_size", "expert_intermediate_size"}, where));
        a.moe.expertIntermediate = moeInter_r->value_or(a.intermediateSize);
        GPUSIZER_TRY(sharedN, intKey(cfg, {"n_shared_experts", "num_shared_experts"}, where, true));
        GPUSIZER_TRY(sharedW, intKey(cfg, {"shared_expert_intermediate_size"}, where));
        if (*sharedW_r) {
            a.moe.sharedExperts = 1; // Qwen-MoE: one shared expert of this width
            a.moe.sharedIntermediate = **sharedW_r;
        } else {
            a.moe.sharedExperts = sharedN_r->value_or(0);
        }
        GPUSIZER_TRY(dense, intKey(cfg, {"first_k_dense_replace"}, where, true));
        a.moe.firstDenseLayers = dense_r->value_or(0);
        if (a.intermediateSize == 0) {
            a.intermediateSize = a.moe.expertIntermediate;
        }
    }
    return {};
}

Result<void> readLatentAttention(const json& cfg, std::string_view where, ModelArch& a) {
    // DeepSeek multi-head latent attention.
    GPUSIZER_TRY(kvLora, intKey(cfg, {"kv_lora_rank"}, where, true));
    if (kvLora_r->value_or(0) > 0) {
        a.mla.kvLoraRank = **kvLora_r;
        GPUSIZER_TRY(qLora, intKey(cfg, {"q_lora_rank"}, where, true));
        GPUSIZER_TRY(nope, requiredInt(cfg, {"qk_nope_head_dim"}, where));
        GPUSIZER_TRY(rope, requiredInt(cfg, {"qk_rope_head_dim"}, where));
        GPUSIZER_TRY(vHead, requiredInt(cfg, {"v_head_dim"}, where));
        a.mla.qLoraRank = qLora_r->value_or(0);
        a.mla.qkNopeHeadDim = *nope_r;
        a.mla.qkRopeHeadDim = *rope_r;
        a.mla.vHeadDim = *vHead_r;
        a.numKvHeads = a.numHeads;
    }
    return {};
}

/// The checks that need every stage read first (an MoE or MLA config supplies what a dense one states directly).
Result<void> checkShapeConsistency(const ModelArch& a, std::string_view where) {
    if (a.intermediateSize <= 0) {
        return fail(ErrorCode::MissingField, QT_TRANSLATE_NOOP("gpusizer", "missing 'intermediate_size'"),
                    std::string(where) + ": intermediate_size");
    }
    if (a.numKvHeads > a.numHeads || a.numHeads % std::max<std::int64_t>(1, a.numKvHeads) != 0) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "num_key_value_heads must divide num_attention_heads"),
                    std::string(where) + ": num_key_value_heads");
    }
    if (a.headDim == 0 && !a.isMla() && a.hiddenSize % a.numHeads != 0) {
        return fail(
            ErrorCode::Inconsistent,
            QT_TRANSLATE_NOOP("gpusizer", "num_attention_heads must divide hidden_size when head_dim is absent"),
            std::string(where) + ": num_attention_heads");
    }
    return {};
}

/// A warning when the shape rests on the Llama-style default rather than a family GPU Sizer knows.
void warnAboutAssumedFamily(bool explicitShape, bool plainFamily, ImportedArch& out) {
    const std::string& type = out.modelType;
    if (explicitShape) {
        // The shape was stated explicitly; nothing was assumed.
    } else if (type == "unknown") {
        out.warnings.push_back(
            {"unknown_model_type",
             QT_TRANSLATE_NOOP("gpusizer", "no model_type: assumed a Llama-style decoder (gated MLP, "
                                           "RMSNorm, rotary positions)")});
    } else if (
        !plainFamily &&
        !oneOf(type,
               {"llama",         "mistral", "mixtral",  "qwen2",         "qwen2_moe",  "qwen3",           "qwen3_moe",
                "gemma",         "gemma2",  "gemma3",   "gemma3_text",   "phi3",       "deepseek_v2",     "deepseek_v3",
                "olmo",          "olmo2",   "olmo3",    "seed_oss",      "yi",         "internlm2",       "cohere",
                "granite",       "qwen",    "qwen2_vl", "qwen2_vl_text", "qwen2_5_vl", "qwen2_5_vl_text", "qwen3_vl",
                "qwen3_vl_text", "mllama"})) {
        out.warnings.push_back(
            {"unknown_model_type",
             words(QT_TRANSLATE_NOOP("gpusizer", "model_type '%1' is not known: assumed a Llama-style decoder (gated "
                                                 "MLP, RMSNorm)"),
                   type)});
    }
}

/// An integer of vision_config: present, or the family's default.
Result<std::int64_t> visionInt(const json& vc, std::initializer_list<const char*> keys, std::string_view where,
                               std::int64_t fallback) {
    GPUSIZER_TRY(v, intKey(vc, keys, where));
    return v_r->value_or(fallback);
}

/// The shape keys every vision family has, with the family's defaults where its config may omit them.
Result<void> readVisionBlocks(const json& vc, std::string_view where, VisionShape& v,
                              std::initializer_list<const char*> widthKeys, std::int64_t width,
                              std::initializer_list<const char*> depthKeys, std::int64_t depth) {
    GPUSIZER_TRY(hidden, visionInt(vc, widthKeys, where, width));
    GPUSIZER_TRY(layers, visionInt(vc, depthKeys, where, depth));
    GPUSIZER_TRY(heads, visionInt(vc, {"num_heads", "num_attention_heads"}, where, 16));
    GPUSIZER_TRY(patch, visionInt(vc, {"patch_size"}, where, 14));
    v.hiddenSize = *hidden_r;
    v.depth = *layers_r;
    v.numHeads = *heads_r;
    v.patchSize = *patch_r;
    return {};
}

/// Qwen2-VL (embed_dim, mlp_ratio; LayerNorm, QuickGELU) and Qwen2.5-VL (hidden_size, intermediate_size; RMSNorm,
/// SwiGLU, window attention) vision_config keys (configuration_qwen2_vl.py, configuration_qwen2_5_vl.py); the pixel
/// bounds the released processors load: min_pixels 3,136 and max_pixels 12,845,056 = 16,384 x 28 x 28 (the models'
/// preprocessor_config.json and qwen-vl-utils MAX_PIXELS; the image processor class alone defaults to 28 x 28 x 1280).
Result<void> readQwenVision(const json& vc, std::string_view where, bool qwen25, VisionShape& v) {
    v.family = VisionFamily::QwenVl;
    if (qwen25) {
        GPUSIZER_TRY(blocks, readVisionBlocks(vc, where, v, {"hidden_size"}, 1280, {"depth"}, 32));
        GPUSIZER_TRY(inter, visionInt(vc, {"intermediate_size"}, where, 3420));
        GPUSIZER_TRY(window, visionInt(vc, {"window_size"}, where, 112));
        v.intermediateSize = *inter_r;
        v.mlp = MlpKind::Gated;
        v.norm = NormKind::RmsNorm;
        v.windowPatches = *window_r / std::max<std::int64_t>(1, v.patchSize);
        const auto full = vc.find("fullatt_block_indexes");
        v.fullAttentionBlocks =
            (full != vc.end() && full->is_array()) ? static_cast<std::int64_t>(full->size()) : 4; // [7, 15, 23, 31]
    } else {
        GPUSIZER_TRY(blocks, readVisionBlocks(vc, where, v, {"embed_dim"}, 1280, {"depth"}, 32));
        const double ratio = floatKey(vc, {"mlp_ratio"}, 4.0);
        if (!(ratio > 0.0 && ratio <= 64.0)) {
            return fail(ErrorCode::OutOfRange,
                        QT_TRANSLATE_NOOP("gpusizer", "'mlp_ratio' must be above 0 and at most 64"),
                        std::string(where) + ": mlp_ratio");
        }
        v.intermediateSize = static_cast<std::int64_t>(static_cast<double>(v.hiddenSize) * ratio);
        v.quickGelu = true; // hidden_act "quick_gelu"
    }
    GPUSIZER_TRY(merge, visionInt(vc, {"spatial_merge_size"}, where, 2));
    GPUSIZER_TRY(temporal, visionInt(vc, {"temporal_patch_size"}, where, 2));
    v.mergeSize = *merge_r;
    v.temporalPatch = *temporal_r;
    v.minPixels = 56 * 56;
    v.maxPixels = 16384 * 28 * 28;
    return {};
}

/// LLaVA-NeXT's anyres canvases, (height, width) pairs (configuration_llava_next.py: image_grid_pinpoints, by default
/// [[336, 672], [672, 336], [672, 672], [1008, 336], [336, 1008]]).
/// A saved scenario writes them as the encoder's grid_pinpoints. Absent, the shape keeps what it holds.
Result<void> readGridPinpoints(const json& holder, const char* key, std::string_view where, VisionShape& v) {
    const auto it = holder.find(key);
    if (it == holder.end() || it->is_null()) {
        return {}; // the caller's default stands
    }
    const auto bad = [&] {
        return fail(ErrorCode::OutOfRange,
                    words(QT_TRANSLATE_NOOP("gpusizer", "'%1' must list 1 to 64 [height, width] pairs of whole "
                                                        "pixels from 1 to 16384"),
                          key),
                    std::string(where) + ": " + key);
    };
    if (!it->is_array() || it->empty() || it->size() > 64) {
        return bad();
    }
    v.gridPinpoints.clear();
    for (const json& pair : *it) {
        if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_integer() || !pair[1].is_number_integer()) {
            return bad();
        }
        const auto height = pair[0].get<std::int64_t>();
        const auto width = pair[1].get<std::int64_t>();
        if (height < 1 || width < 1 || height > 16384 || width > 16384) {
            return bad();
        }
        v.gridPinpoints.push_back({height, width});
    }
    return {};
}

/// A vision shape as a saved scenario writes it (archToHfConfig): every field by name, the family by its code.
Result<void> readSavedVision(const json& vc, std::string_view where, VisionShape& v) {
    const json& family = vc["gpusizer_family"];
    const std::string code = family.is_string() ? family.get<std::string>() : "";
    if (code == "qwen_vl") {
        v.family = VisionFamily::QwenVl;
    } else if (code == "gemma3") {
        v.family = VisionFamily::Gemma3;
    } else if (code == "llava") {
        v.family = VisionFamily::Llava;
    } else if (code == "mllama") {
        v.family = VisionFamily::Mllama;
    } else {
        return fail(ErrorCode::OutOfRange,
                    QT_TRANSLATE_NOOP("gpusizer", "'gpusizer_family' must be one of qwen_vl, gemma3, llava, mllama"),
                    std::string(where) + ": gpusizer_family");
    }
    GPUSIZER_TRY(blocks, readVisionBlocks(vc, where, v, {"hidden_size"}, 0, {"depth"}, 0));
    GPUSIZER_TRY(inter, requiredInt(vc, {"intermediate_size"}, where));
    v.intermediateSize = *inter_r;
    v.mlp = vc.value("mlp_type", std::string()) == "gated" ? MlpKind::Gated : MlpKind::Plain;
    v.norm = vc.value("norm_type", std::string()) == "rmsnorm" ? NormKind::RmsNorm : NormKind::LayerNorm;
    v.quickGelu = vc.value("quick_gelu", false);
    v.patchBias = vc.value("patch_bias", false);
    v.attentionBias = vc.value("attention_bias", true);
    const std::pair<const char*, std::int64_t*> counts[] = {{"image_size", &v.imageSize},
                                                            {"temporal_patch_size", &v.temporalPatch},
                                                            {"spatial_merge_size", &v.mergeSize},
                                                            {"tokens_per_image", &v.tokensPerImage},
                                                            {"window_patches", &v.windowPatches},
                                                            {"full_attention_blocks", &v.fullAttentionBlocks},
                                                            {"min_pixels", &v.minPixels},
                                                            {"max_pixels", &v.maxPixels},
                                                            {"position_embeddings", &v.positionEmbeddings},
                                                            {"deepstack_mergers", &v.deepstackMergers},
                                                            {"gated_blocks", &v.gatedBlocks},
                                                            {"max_tiles", &v.maxTiles},
                                                            {"aspect_ratios", &v.aspectRatios},
                                                            {"stacked_outputs", &v.stackedOutputs},
                                                            {"cross_attention_layers", &v.crossAttentionLayers},
                                                            {"extra_embedding_rows", &v.extraEmbeddingRows}};
    for (const auto& [key, member] : counts) {
        const auto it = vc.find(key);
        if (it == vc.end()) {
            continue;
        }
        if (!it->is_number_integer() || it->get<double>() < 0 || it->get<double>() > 1e12) {
            return fail(ErrorCode::OutOfRange,
                        words(QT_TRANSLATE_NOOP("gpusizer", "'%1' must be a whole number between 0 and 10^12"), key),
                        std::string(where) + ": " + key);
        }
        *member = it->get<std::int64_t>();
    }
    if (v.family == VisionFamily::Llava) {
        GPUSIZER_TRY(pinpoints, readGridPinpoints(vc, "grid_pinpoints", where, v));
    }
    if (v.family != VisionFamily::Mllama) {
        // Llama-3.2-Vision's own counts mean nothing to the other families' encoders.
        v.gatedBlocks = v.maxTiles = v.aspectRatios = v.stackedOutputs = v.crossAttentionLayers = 0;
        v.extraEmbeddingRows = 0;
        v.attentionBias = true;
    }
    if (v.family == VisionFamily::Mllama &&
        (v.maxTiles < 1 || v.maxTiles > 64 || v.imageSize < v.patchSize || v.aspectRatios > 64 ||
         v.gatedBlocks > v.depth || v.stackedOutputs > v.depth || v.imageSize > 1'000'000)) {
        return fail(ErrorCode::OutOfRange,
                    QT_TRANSLATE_NOOP("gpusizer", "a Llama-3.2-Vision encoder needs max_tiles between 1 and 64, an "
                                                  "image_size of at least patch_size (at most 10^6), at most 64 "
                                                  "aspect_ratios and gated_blocks and stacked_outputs within depth"),
                    std::string(where));
    }
    if (v.hiddenSize <= 0 || v.depth <= 0 || v.patchSize <= 0 || v.mergeSize <= 0 || v.temporalPatch <= 0) {
        return fail(ErrorCode::OutOfRange,
                    QT_TRANSLATE_NOOP("gpusizer", "a vision encoder needs hidden_size, depth, patch_size, "
                                                  "spatial_merge_size and temporal_patch_size of at least 1"),
                    std::string(where));
    }
    return {};
}

/// Qwen3-VL's vision_config (configuration_qwen3_vl.py L31-46 @d6a6c826): SigLIP-style blocks (LayerNorm, fused qkv,
/// tanh GELU) over 16-pixel patches with a bias, a learned 48 x 48 position grid, full attention per image, and one
/// merger per deepstack block. Pixel bounds of the released processor (preprocessor_config.json size: shortest_edge
/// 65,536, longest_edge 16,777,216 = 16,384 x 32 x 32; QwenLM/Qwen3-VL README: "the compression ratio is 32").
Result<void> readQwen3Vision(const json& vc, std::string_view where, VisionShape& v) {
    v.family = VisionFamily::QwenVl;
    GPUSIZER_TRY(blocks, readVisionBlocks(vc, where, v, {"hidden_size"}, 1152, {"depth"}, 27));
    GPUSIZER_TRY(inter, visionInt(vc, {"intermediate_size"}, where, 4304));
    GPUSIZER_TRY(positions, visionInt(vc, {"num_position_embeddings"}, where, 2304));
    GPUSIZER_TRY(merge, visionInt(vc, {"spatial_merge_size"}, where, 2));
    GPUSIZER_TRY(temporal, visionInt(vc, {"temporal_patch_size"}, where, 2));
    if (!vc.contains("patch_size")) {
        v.patchSize = 16;
    }
    const auto deepstack = vc.find("deepstack_visual_indexes");
    v.deepstackMergers = (deepstack != vc.end() && deepstack->is_array()) ? static_cast<std::int64_t>(deepstack->size())
                                                                          : 3; // [8, 16, 24]
    v.intermediateSize = *inter_r;
    v.positionEmbeddings = *positions_r;
    v.mergeSize = *merge_r;
    v.temporalPatch = *temporal_r;
    v.patchBias = true;
    v.minPixels = 65536;
    v.maxPixels = 16384 * 32 * 32;
    return {};
}

/// The length of a list key (cross_attention_layers, intermediate_layers_indices), or the family's default count.
std::int64_t listLength(const json& cfg, const char* key, std::int64_t fallback) {
    const auto it = cfg.find(key);
    return it != cfg.end() && it->is_array() ? static_cast<std::int64_t>(it->size()) : fallback;
}

/// Llama-3.2-Vision (configuration_mllama.py L61-82, L124-145 @251c2d4f; the released 11B and 90B configs): a ViT of
/// num_hidden_layers local and num_global_layers gated layers over tiles of image_size, no attention biases, GELU;
/// its output stacked with intermediate_layers_indices' outputs; the text model's cross_attention_layers, and its
/// embed_tokens of vocab_size + 8 rows (modeling_mllama.py L1022).
Result<void> readMllamaVision(const json& root, const json& vc, std::string_view where, VisionShape& v) {
    v.family = VisionFamily::Mllama;
    GPUSIZER_TRY(hidden, visionInt(vc, {"hidden_size"}, where, 1280));
    GPUSIZER_TRY(local, visionInt(vc, {"num_hidden_layers"}, where, 32));
    GPUSIZER_TRY(global, visionInt(vc, {"num_global_layers"}, where, 8));
    GPUSIZER_TRY(heads, visionInt(vc, {"attention_heads"}, where, 16));
    GPUSIZER_TRY(inter, visionInt(vc, {"intermediate_size"}, where, 5120));
    GPUSIZER_TRY(side, visionInt(vc, {"image_size"}, where, 448)); // the class default; the checkpoints say 560
    GPUSIZER_TRY(patch, visionInt(vc, {"patch_size"}, where, 14));
    GPUSIZER_TRY(tiles, visionInt(vc, {"max_num_tiles"}, where, 4));
    if (*hidden_r <= 0 || *local_r <= 0 || *global_r < 0 || *patch_r <= 0 || *side_r < *patch_r || *tiles_r <= 0 ||
        *tiles_r > 64) {
        return fail(ErrorCode::OutOfRange,
                    QT_TRANSLATE_NOOP("gpusizer", "a Llama-3.2-Vision encoder needs hidden_size, num_hidden_layers, "
                                                  "patch_size of at least 1, image_size of at least patch_size and "
                                                  "max_num_tiles between 1 and 64"),
                    std::string(where));
    }
    v.hiddenSize = *hidden_r;
    v.depth = *local_r + *global_r;
    v.gatedBlocks = *global_r;
    v.numHeads = *heads_r;
    v.intermediateSize = *inter_r;
    v.imageSize = *side_r;
    v.patchSize = *patch_r;
    v.maxTiles = *tiles_r;
    v.attentionBias = false;
    v.aspectRatios = listLength(vc, "supported_aspect_ratios", 8);
    v.stackedOutputs = listLength(vc, "intermediate_layers_indices", 5);
    const json text = root.contains("text_config") && root["text_config"].is_object() ? root["text_config"] : root;
    v.crossAttentionLayers = listLength(text, "cross_attention_layers", 8);
    v.extraEmbeddingRows = 8;
    if (v.aspectRatios > 64 || v.stackedOutputs > v.depth) {
        return fail(ErrorCode::OutOfRange,
                    QT_TRANSLATE_NOOP("gpusizer", "supported_aspect_ratios may list at most 64 and "
                                                  "intermediate_layers_indices at most the encoder's layers"),
                    std::string(where));
    }
    return {};
}

/// The vision encoder of the multimodal families whose image side is modelled; other multimodal configs import their
/// language model with a warning that says what is missing.
Result<void> readVisionTower(const json& root, std::string_view where, ImportedArch& out) {
    const auto it = root.find("vision_config");
    if (it == root.end() || !it->is_object()) {
        return {};
    }
    const json& vc = *it;
    const std::string type = root.value("model_type", json()).is_string() ? root["model_type"].get<std::string>() : "";
    const std::string at = std::string(where) + ": vision_config";
    VisionShape& v = out.arch.vision;
    if (type == "qwen2_vl" || type == "qwen2_5_vl") {
        return readQwenVision(vc, at, type == "qwen2_5_vl", v);
    }
    if (type == "qwen3_vl") {
        return readQwen3Vision(vc, at, v);
    }
    if (type == "mllama") {
        return readMllamaVision(root, vc, at, v);
    }
    if (type == "gemma3" || type == "llava" || type == "llava_next") {
        // SigLIP (Gemma 3) and CLIP (LLaVA) encoders: LayerNorm, a plain MLP (configuration_siglip.py,
        // configuration_clip.py); images resized to image_size square, or LLaVA-NeXT's crops of it.
        const bool gemma = type == "gemma3";
        if (type == "llava_next") {
            v.gridPinpoints = {{{336, 672}}, {{672, 336}}, {{672, 672}}, {{1008, 336}}, {{336, 1008}}};
            GPUSIZER_TRY(pinpoints, readGridPinpoints(root, "image_grid_pinpoints", where, v));
        }
        GPUSIZER_TRY(blocks, readVisionBlocks(vc, at, v, {"hidden_size"}, gemma ? 1152 : 1024, {"num_hidden_layers"},
                                              gemma ? 27 : 24));
        GPUSIZER_TRY(inter, visionInt(vc, {"intermediate_size"}, at, gemma ? 4304 : 4096));
        GPUSIZER_TRY(side, visionInt(vc, {"image_size"}, at, gemma ? 896 : 336));
        GPUSIZER_TRY(tokens, visionInt(root, {"mm_tokens_per_image"}, where, 256));
        v.family = gemma ? VisionFamily::Gemma3 : VisionFamily::Llava;
        v.quickGelu = !gemma; // CLIP's quick_gelu; SigLIP's gelu_pytorch_tanh
        v.patchBias = gemma;  // SiglipVisionEmbeddings' Conv2d has a bias, CLIP's none
        v.intermediateSize = *inter_r;
        v.imageSize = *side_r;
        v.tokensPerImage = gemma ? *tokens_r : 0;
        return {};
    }
    if (vc.contains("gpusizer_family")) {
        return readSavedVision(vc, at, v);
    }
    out.warnings.push_back(
        {"vision_not_modelled",
         words(QT_TRANSLATE_NOOP(
                   "gpusizer",
                   "model_type '%1' has a vision encoder this tool does not model (Qwen2-VL, "
                   "Qwen2.5-VL, Qwen3-VL, Gemma 3, LLaVA-1.5, LLaVA-NeXT and Llama-3.2-Vision are): only its "
                   "language model is "
                   "sized, and images count as nothing beyond their tokens in seq_len"),
               type.empty() ? std::string("unknown") : type)});
    return {};
}

/// A nested text_config as transformers reads it: keys it leaves out take the config class's defaults. llava-hf's
/// configs state only what differs from LlamaConfig (llava-1.5-7b-hf: the vocabulary), so its defaults are filled in
/// (configuration_llama.py: hidden_size 4096, intermediate_size 11008, 32 layers, 32 heads, key/value heads = heads).
json withTextDefaults(const json& text, ImportedArch& out) {
    json cfg = text;
    if (cfg.value("model_type", json()).is_string() && cfg["model_type"] == "llama") {
        const std::pair<const char*, int> defaults[] = {{"hidden_size", 4096},
                                                        {"intermediate_size", 11008},
                                                        {"num_hidden_layers", 32},
                                                        {"num_attention_heads", 32},
                                                        {"vocab_size", 32000}};
        std::string filled;
        for (const auto& [key, value] : defaults) {
            if (!cfg.contains(key)) {
                cfg[key] = value;
                filled += (filled.empty() ? "" : ", ") + std::string(key);
            }
        }
        if (!cfg.contains("num_key_value_heads")) {
            cfg["num_key_value_heads"] = cfg["num_attention_heads"];
        }
        if (!filled.empty()) {
            out.warnings.push_back(
                {"text_config_defaults",
                 words(QT_TRANSLATE_NOOP("gpusizer", "text_config leaves out %1: LlamaConfig's defaults taken, as "
                                                     "transformers does"),
                       filled)});
        }
    }
    return cfg;
}

Result<ImportedArch> archFromHfConfigUnchecked(const json& root, std::string_view where) {
    if (!root.is_object()) {
        return fail(ErrorCode::WrongType, QT_TRANSLATE_NOOP("gpusizer", "a config.json must be a JSON object"),
                    std::string(where));
    }
    // Multimodal wrappers (Gemma 3, Llava, Mistral 3) keep the language model under text_config.
    const bool nested = root.contains("text_config") && root["text_config"].is_object();
    ImportedArch out;
    const json cfg = nested ? withTextDefaults(root["text_config"], out) : root;
    GPUSIZER_TRY(typed, checkKeyTypes(root, cfg, where));
    ModelArch& a = out.arch;
    readModelIdentity(root, cfg, out);
    const std::string& type = out.modelType;
    const bool plainFamily = isPlainFamily(type);

    // The stages in the order of their checks, so a config with several faults is refused for the same first one.
    GPUSIZER_TRY(shape, readAttentionShape(cfg, where, out));
    GPUSIZER_TRY(kinds, readMlpAndNormKinds(cfg, where, plainFamily, a));
    GPUSIZER_TRY(norms, readNormsAndParallelBlocks(cfg, where, type, a));
    readLogitSoftcaps(cfg, type, a);
    GPUSIZER_TRY(window, readSlidingWindow(cfg, where, a));
    GPUSIZER_TRY(inter, readIntermediateSize(cfg, where, plainFamily, out));
    readTiedEmbeddings(root, cfg, type, a);
    readBiases(cfg, type, a);
    GPUSIZER_TRY(positions, readPositionsHeadAndDropout(cfg, where, type, a));
    GPUSIZER_TRY(moe, readMixtureOfExperts(cfg, where, a));
    GPUSIZER_TRY(mla, readLatentAttention(cfg, where, a));
    GPUSIZER_TRY(vision, readVisionTower(root, where, out));
    GPUSIZER_TRY(consistent, checkShapeConsistency(a, where));
    // The ranges a scenario's model must meet, so that an imported shape saves and reopens.
    GPUSIZER_TRY(bounded, validateArch(a, std::string(where) + ": "));
    warnAboutAssumedFamily(hasExplicitShape(cfg), plainFamily, out);
    return out;
}
#undef GPUSIZER_TRY

} // namespace

Result<ImportedArch> archFromHfConfig(const json& root, std::string_view where) {
    try {
        return archFromHfConfigUnchecked(root, where);
    } catch (const json::exception& ex) {
        // A key with an unexpected JSON type that the checks above did not name.
        return fail(ErrorCode::WrongType,
                    words(QT_TRANSLATE_NOOP("gpusizer", "unexpected value type: %1"), detail::libraryReason(ex)),
                    std::string(where));
    }
}

Result<ImportedArch> importHfConfig(std::string_view configBytes, std::string_view configName,
                                    std::optional<std::string_view> indexBytes, std::string_view indexName) {
    // The scenario loader's bounds (16 MiB, 64 levels, numbers a double holds) for config.json and the index too.
    auto cfgParsed = detail::parseDocument(configBytes, configName);
    if (!cfgParsed) {
        return tl::unexpected(cfgParsed.error());
    }
    const json cfg = std::move(*cfgParsed);
    if (!cfg.is_object()) {
        return fail(ErrorCode::WrongType, QT_TRANSLATE_NOOP("gpusizer", "must be a JSON object"),
                    std::string(configName));
    }
    auto imported = archFromHfConfig(cfg, configName);
    if (!imported || !indexBytes) {
        return imported;
    }
    auto indexParsed = detail::parseDocument(*indexBytes, indexName);
    if (!indexParsed) {
        return tl::unexpected(indexParsed.error());
    }
    const json index = std::move(*indexParsed);
    const json* total = nullptr;
    if (index.is_object() && index.contains("metadata") && index["metadata"].is_object() &&
        index["metadata"].contains("total_size")) {
        total = &index["metadata"]["total_size"];
    }
    if (total == nullptr) {
        return fail(ErrorCode::MissingField, QT_TRANSLATE_NOOP("gpusizer", "missing 'metadata.total_size'"),
                    std::string(indexName) + ": metadata.total_size");
    }
    // A whole number of bytes; the smallest sharded checkpoint is megabytes (half a byte printed "weights 0.00 GiB").
    if (!total->is_number() || total->get<double>() != std::floor(total->get<double>()) ||
        total->get<double>() < 1024.0 * 1024.0 || total->get<double>() > 1e14) {
        return fail(ErrorCode::OutOfRange,
                    QT_TRANSLATE_NOOP("gpusizer",
                                      "'metadata.total_size' must be a whole number of bytes between 1 MiB and 100 TB"),
                    std::string(indexName) + ": metadata.total_size");
    }
    imported->weightBytes = static_cast<std::int64_t>(total->get<double>());
    return imported;
}

namespace {

/// The experts of an MoE model, as DeepSeek's and Qwen's configs name them.
void writeMoe(json& cfg, const ModelArch& a) {
    cfg["num_local_experts"] = a.moe.numExperts;
    cfg["num_experts_per_tok"] = a.moe.expertsPerToken;
    cfg["moe_intermediate_size"] = a.moe.expertIntermediate;
    if (a.moe.sharedIntermediate > 0) {
        cfg["shared_expert_intermediate_size"] = a.moe.sharedIntermediate;
    } else if (a.moe.sharedExperts > 0) {
        cfg["n_shared_experts"] = a.moe.sharedExperts;
    }
    if (a.moe.firstDenseLayers > 0) {
        cfg["first_k_dense_replace"] = a.moe.firstDenseLayers;
    }
}

/// A vision-language model's encoder, with the family its processor rules follow.
json visionConfigJson(const VisionShape& v) {
    const char* family = v.family == VisionFamily::QwenVl   ? "qwen_vl"
                         : v.family == VisionFamily::Gemma3 ? "gemma3"
                         : v.family == VisionFamily::Mllama ? "mllama"
                                                            : "llava";
    json out{{"gpusizer_family", family},
             {"hidden_size", v.hiddenSize},
             {"depth", v.depth},
             {"num_heads", v.numHeads},
             {"intermediate_size", v.intermediateSize},
             {"mlp_type", v.mlp == MlpKind::Gated ? "gated" : "plain"},
             {"quick_gelu", v.quickGelu},
             {"patch_bias", v.patchBias},
             {"position_embeddings", v.positionEmbeddings},
             {"deepstack_mergers", v.deepstackMergers},
             {"norm_type", v.norm == NormKind::RmsNorm ? "rmsnorm" : "layernorm"},
             {"patch_size", v.patchSize},
             {"image_size", v.imageSize},
             {"temporal_patch_size", v.temporalPatch},
             {"spatial_merge_size", v.mergeSize},
             {"tokens_per_image", v.tokensPerImage},
             {"window_patches", v.windowPatches},
             {"full_attention_blocks", v.fullAttentionBlocks},
             {"min_pixels", v.minPixels},
             {"max_pixels", v.maxPixels}};
    if (!v.gridPinpoints.empty()) {
        out["grid_pinpoints"] = v.gridPinpoints;
    }
    if (v.family == VisionFamily::Mllama) {
        out["attention_bias"] = v.attentionBias;
        out["gated_blocks"] = v.gatedBlocks;
        out["max_tiles"] = v.maxTiles;
        out["aspect_ratios"] = v.aspectRatios;
        out["stacked_outputs"] = v.stackedOutputs;
        out["cross_attention_layers"] = v.crossAttentionLayers;
        out["extra_embedding_rows"] = v.extraEmbeddingRows;
    }
    return out;
}

/// Multi-head latent attention, as DeepSeek-V2/V3's configs name it.
void writeMla(json& cfg, const ModelArch& a) {
    cfg["kv_lora_rank"] = a.mla.kvLoraRank;
    cfg["q_lora_rank"] = a.mla.qLoraRank > 0 ? json(a.mla.qLoraRank) : json(nullptr);
    cfg["qk_nope_head_dim"] = a.mla.qkNopeHeadDim;
    cfg["qk_rope_head_dim"] = a.mla.qkRopeHeadDim;
    cfg["v_head_dim"] = a.mla.vHeadDim;
}

} // namespace

json archToHfConfig(const ModelArch& a) {
    json cfg{{"model_type", "custom"},
             {"mlp_type", a.mlp == MlpKind::Plain ? "plain" : "gated"},
             {"norm_type", a.norm == NormKind::LayerNorm ? "layernorm" : "rmsnorm"},
             {"hidden_size", a.hiddenSize},
             {"num_hidden_layers", a.numLayers},
             {"num_attention_heads", a.numHeads},
             {"num_key_value_heads", a.numKvHeads},
             {"intermediate_size", a.intermediateSize},
             {"vocab_size", a.vocabSize},
             {"tie_word_embeddings", a.tiedEmbeddings}};
    if (!a.name.empty()) {
        cfg["architectures"] = json::array({a.name});
    }
    if (a.headDim > 0) {
        cfg["head_dim"] = a.headDim;
    }
    if (a.qkvBias || a.outputBias) {
        cfg["attention_bias"] = a.qkvBias && a.outputBias;
        cfg["qkv_bias"] = a.qkvBias;
        cfg["attention_out_bias"] = a.outputBias;
    }
    if (a.mlpBias) {
        cfg["mlp_bias"] = true;
    }
    if (a.learnedPositions > 0) {
        cfg["learned_positions"] = a.learnedPositions;
    }
    if (!a.causalLmHead) {
        cfg["causal_lm"] = false;
    }
    if (a.hiddenDropout > 0) {
        cfg["hidden_dropout"] = a.hiddenDropout;
    }
    if (a.attentionDropout > 0) {
        cfg["attention_dropout"] = a.attentionDropout;
    }
    if (a.normsPerLayer != 2) {
        cfg["norms_per_layer"] = a.normsPerLayer;
    }
    if (a.qkNorm != QkNorm::None) {
        cfg["qk_norm"] = a.qkNorm == QkNorm::PerHead ? "per_head" : "projection";
    }
    if (a.parallelResidual) {
        cfg["parallel_residual"] = true;
    }
    if (a.finalLogitSoftcap > 0) {
        cfg["final_logit_softcapping"] = a.finalLogitSoftcap;
    }
    if (a.attentionLogitSoftcap > 0) {
        cfg["attn_logit_softcapping"] = a.attentionLogitSoftcap;
    }
    if (a.slidingWindow > 0) {
        cfg["sliding_window"] = a.slidingWindow;
    }
    if (a.isMoe()) {
        writeMoe(cfg, a);
    }
    if (a.vision.present()) {
        cfg["vision_config"] = visionConfigJson(a.vision);
    }
    if (a.isMla()) {
        writeMla(cfg, a);
    }
    return cfg;
}

} // namespace gpusizer::core
