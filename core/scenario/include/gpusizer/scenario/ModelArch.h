#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gpusizer::core {

/// Feed-forward block shape: gated (SwiGLU/GeGLU: gate, up, down) or plain (fc1, activation, fc2).
enum class MlpKind { Gated, Plain };
/// Normalisation layer: RMSNorm (Llama family) or LayerNorm with bias (GPT-2, BERT, Falcon, Phi-2).
enum class NormKind { RmsNorm, LayerNorm };
/// An RMSNorm on the queries and keys before RoPE: over each head's head_dim (Qwen3, Gemma 3: one weight of head_dim
/// each for q and k, shared by the heads) or over the whole q and k projections (OLMo 2 and 3: weights of
/// heads x head_dim and kv_heads x head_dim; Cohere's use_qk_norm LayerNorms have weights of the same sizes).
enum class QkNorm { None, PerHead, Projection };

/// Mixture-of-experts shape, in Hugging Face config terms. numExperts == 0 means dense.
struct MoeShape {
    std::int64_t numExperts = 0;         ///< routed experts per MoE layer (num_local_experts / n_routed_experts)
    std::int64_t expertsPerToken = 0;    ///< num_experts_per_tok
    std::int64_t expertIntermediate = 0; ///< moe_intermediate_size (0: intermediate_size)
    std::int64_t sharedExperts = 0;      ///< n_shared_experts (DeepSeek, Qwen-MoE)
    std::int64_t sharedIntermediate = 0; ///< width of one shared expert (0: expertIntermediate)
    std::int64_t firstDenseLayers = 0;   ///< first_k_dense_replace: leading layers with a dense MLP
};

/// Multi-head latent attention (DeepSeek-V2/V3). kvLoraRank == 0 means ordinary attention.
struct MlaShape {
    std::int64_t qLoraRank = 0; ///< 0: q is projected directly from the hidden state
    std::int64_t kvLoraRank = 0;
    std::int64_t qkNopeHeadDim = 0;
    std::int64_t qkRopeHeadDim = 0;
    std::int64_t vHeadDim = 0;
};

/// How a vision-language model turns an image into language-model tokens.
enum class VisionFamily {
    None,   ///< a text-only model
    QwenVl, ///< Qwen2-VL / Qwen2.5-VL / Qwen3-VL: dynamic resolution, 2 x 2 patches merged into one token
    Gemma3, ///< Gemma 3: SigLIP at a fixed 896 x 896, pooled to mm_tokens_per_image
    Llava,  ///< LLaVA-1.5 style: CLIP at a fixed square, one token per patch, a two-layer MLP projector
    /// Llama-3.2-Vision (mllama): a tiled ViT whose output the language model's cross-attention layers attend to; an
    /// image is one token of the text
    Mllama,
};

/// The vision encoder and projector of a vision-language model, from config.json's vision_config (docs/memory-model.md
/// §10). The language model is the rest of ModelArch.
struct VisionShape {
    VisionFamily family = VisionFamily::None;
    std::int64_t depth = 0; ///< encoder blocks
    std::int64_t hiddenSize = 0;
    std::int64_t numHeads = 0;
    std::int64_t intermediateSize = 0;
    MlpKind mlp = MlpKind::Plain; ///< Qwen2.5-VL's blocks are gated (SwiGLU); CLIP, SigLIP and Qwen2-VL's are not
    NormKind norm = NormKind::LayerNorm;
    bool quickGelu = false;              ///< x * sigmoid(1.702 x) (CLIP, Qwen2-VL): saves the sigmoid beside its input
    bool patchBias = false;              ///< the patch convolution has a bias (SigLIP, Qwen3-VL)
    std::int64_t positionEmbeddings = 0; ///< Qwen3-VL: a learned grid of positions, interpolated to each image
    std::int64_t deepstackMergers = 0;   ///< Qwen3-VL: mergers of intermediate blocks' outputs beside the last one's
    std::int64_t patchSize = 14;
    std::int64_t imageSize = 0;      ///< fixed-resolution families: the side every image is resized to
    std::int64_t temporalPatch = 1;  ///< Qwen-VL: frames per patch (an image is repeated to fill them)
    std::int64_t mergeSize = 1;      ///< Qwen-VL: spatial_merge_size (2: 2 x 2 patches per token)
    std::int64_t tokensPerImage = 0; ///< Gemma 3: mm_tokens_per_image after pooling
    std::int64_t minPixels = 0;      ///< Qwen-VL's processor bounds on width x height after resizing
    std::int64_t maxPixels = 0;
    std::int64_t windowPatches = 0; ///< Qwen2.5-VL: patches per side of an attention window (window_size / patch)
    std::int64_t fullAttentionBlocks =
        0;                         ///< Qwen2.5-VL: blocks that attend over the whole image (fullatt_block_indexes)
    bool attentionBias = true;     ///< q/k/v/o carry biases (mllama's vision layers have none)
    std::int64_t gatedBlocks = 0;  ///< Llama-3.2-Vision: of `depth`, the global layers with two tanh gates each
    std::int64_t maxTiles = 0;     ///< Llama-3.2-Vision: tiles of image_size per image (every image is padded to them)
    std::int64_t aspectRatios = 0; ///< Llama-3.2-Vision: tile arrangements its tile embeddings cover
    std::int64_t stackedOutputs = 0; ///< Llama-3.2-Vision: intermediate layers' outputs stacked beside the last
    /// Llama-3.2-Vision: language-model layers (of numLayers) that cross-attend to the image's tokens instead of the
    /// text's, each with q/k norms and two tanh gates
    std::int64_t crossAttentionLayers = 0;
    std::int64_t extraEmbeddingRows = 0; ///< Llama-3.2-Vision: embed_tokens has vocab_size + 8 rows
    /// LLaVA-NeXT: the (height, width) canvases its "anyres" processing picks from (image_grid_pinpoints), each cut
    /// into image_size crops beside the whole image resized; empty for LLaVA-1.5's one square
    std::vector<std::array<std::int64_t, 2>> gridPinpoints;

    bool present() const { return family != VisionFamily::None; }
};

/// A transformer's shape, in the terms of a Hugging Face config.json.
struct ModelArch {
    std::string name;
    std::int64_t hiddenSize = 0;
    std::int64_t numLayers = 0;
    std::int64_t numHeads = 0;
    std::int64_t numKvHeads = 0; ///< == numHeads for MHA, < for GQA, 1 for MQA
    std::int64_t headDim = 0;    ///< 0: hiddenSize / numHeads
    std::int64_t intermediateSize = 0;
    std::int64_t vocabSize = 0;
    std::int64_t learnedPositions = 0; ///< learned absolute position embeddings (GPT-2, BERT); 0 with RoPE/ALiBi
    bool tiedEmbeddings = false;
    MlpKind mlp = MlpKind::Gated;
    NormKind norm = NormKind::RmsNorm;
    bool qkvBias = false;    ///< biases on q/k/v (Qwen2, GPT-2, BERT)
    bool outputBias = false; ///< bias on the attention output projection
    bool mlpBias = false;
    bool causalLmHead = true;       ///< false: a classifier head (tiny logits), e.g. BERT for classification
    double hiddenDropout = 0.0;     ///< dropout on residual branches (saves a 1-byte mask per element)
    double attentionDropout = 0.0;  ///< dropout on attention probabilities (eager attention only)
    std::int64_t normsPerLayer = 2; ///< norm modules per layer: 1 (Phi), 2 (Llama), 4 (Gemma-2/3 pre- and post-norms)
    QkNorm qkNorm = QkNorm::None;
    /// Attention and MLP read the same layer input (GPT-NeoX use_parallel_residual, Phi): the norms' saved input is
    /// one tensor.
    bool parallelResidual = false;
    double finalLogitSoftcap = 0.0;     ///< Gemma-2 final_logit_softcapping: logits = cap * tanh(logits / cap); 0: none
    double attentionLogitSoftcap = 0.0; ///< Gemma-2 attn_logit_softcapping (eager or flash-attn >= 2.6 only)
    std::int64_t slidingWindow = 0;     ///< sliding_window: tokens each query attends back over (0: the whole sequence)
    MoeShape moe;
    MlaShape mla;
    VisionShape vision;       ///< a vision-language model's encoder and projector (family None: text only)
    bool sizeDerived = false; ///< true when invented from a parameter count alone
    /// The count it was invented from (billions): what a saved scenario writes, so that it reopens as the same shape
    /// (the shape's own count, rounded to whole layers, can pick another rung or depth).
    double sizeDerivedFromBillions = 0;

    /// head_dim in effect.
    std::int64_t effectiveHeadDim() const { return headDim > 0 ? headDim : (numHeads > 0 ? hiddenSize / numHeads : 0); }
    /// Elements per token the q/k norms normalise: every query and key element.
    std::int64_t qkNormWidth() const {
        const std::int64_t kv = numKvHeads > 0 ? numKvHeads : numHeads;
        return qkNorm == QkNorm::None || isMla() ? 0 : (numHeads + kv) * effectiveHeadDim();
    }
    /// The q/k norms' weights per layer.
    std::int64_t qkNormParamsPerLayer() const {
        return qkNorm == QkNorm::PerHead ? 2 * effectiveHeadDim() : qkNormWidth();
    }
    bool isMoe() const { return moe.numExperts > 0; }
    bool isMla() const { return mla.kvLoraRank > 0; }
};

/// Which projection a linear layer is, using Hugging Face Llama names.
enum class LinearRole { Q, K, V, O, Gate, Up, Down };

/// One kind of linear layer inside a decoder layer, summed over the model.
struct LinearGroup {
    LinearRole role = LinearRole::Q;
    std::int64_t inFeatures = 0;
    std::int64_t outFeatures = 0;
    std::int64_t count = 0;    ///< instances in the whole model (layers x experts)
    bool routedExpert = false; ///< a routed MoE expert (compute counts only the active ones)
};

/// Parameter counts derived from the architecture.
struct ParamCounts {
    std::int64_t embedding = 0;   ///< token (+ learned position) embeddings
    std::int64_t lmHead = 0;      ///< 0 when tied to the embedding
    std::int64_t layerLinear = 0; ///< every linear weight inside the decoder layers (all experts)
    std::int64_t layerOther = 0;  ///< norms, biases, routers, MLA norms
    std::int64_t finalNorm = 0;
    std::int64_t visionTower = 0;     ///< a vision-language model's encoder (patch embedding, blocks, its norms)
    std::int64_t visionProjector = 0; ///< what maps the encoder's output into the language model's width
    std::int64_t total = 0;           ///< everything, the vision tower and projector included
    std::int64_t activePerToken =
        0; ///< the language model's weights a text token passes (MoE: the routed experts it uses)
    std::int64_t largestTensor = 0; ///< the biggest single parameter tensor (optimizer-in-backward peak)
};

/// Most kinds of linear layer a decoder has (MLA's five projections and three MLPs of three matrices each).
inline constexpr std::size_t kMaxLinearGroups = 16;

/// The linear groups of one model, without heap allocation (the estimator runs thousands of times per search).
struct LinearGroupList {
    std::array<LinearGroup, kMaxLinearGroups> items{};
    std::size_t count = 0;
    void push_back(const LinearGroup& g) {
        if (count < kMaxLinearGroups) {
            items[count++] = g;
        }
    }
    const LinearGroup* begin() const { return items.data(); }
    const LinearGroup* end() const { return items.data() + count; }
    /// Weights of the linears every token passes (not routed experts): what float8 training converts.
    double denseWeights() const {
        double weights = 0;
        for (const auto& g : *this) {
            if (!g.routedExpert) {
                weights += static_cast<double>(g.count) * static_cast<double>(g.inFeatures) *
                           static_cast<double>(g.outFeatures);
            }
        }
        return weights;
    }
    std::size_t size() const { return count; }
};

/// The linear layers of the decoder stack, grouped by role.
LinearGroupList linearGroups(const ModelArch& arch);

/// Counts parameters from the shape (GQA, gated MLP, tied embeddings, biases, MoE, MLA).
ParamCounts countParams(const ModelArch& arch);
/// The same from groups already listed.
ParamCounts countParams(const ModelArch& arch, const LinearGroupList& groups);

/// A plausible Llama-style architecture for a bare parameter count (billions), for size-only models.
/// Widths follow the published Llama/Qwen ladder; the result is flagged sizeDerived.
ModelArch archFromParamCount(double paramsBillion);

/// The Hugging Face name of a projection ("q_proj", ...).
const char* linearRoleName(LinearRole role);

} // namespace gpusizer::core
