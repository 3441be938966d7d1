#include "gpusizer/scenario/Vision.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpusizer::core {

namespace {

/// Tokens Qwen-VL's processor puts around an image's pad tokens: <|vision_start|> and <|vision_end|>
/// (processing_qwen2_vl.py; the chat template writes them).
constexpr std::int64_t kQwenVlMarkers = 2;
/// Gemma 3's processor replaces each image with "\n\n<start_of_image>" + mm_tokens_per_image soft tokens +
/// "<end_of_image>\n\n" (processing_gemma3.py full_image_sequence): the two markers and two "\n\n" tokens.
constexpr std::int64_t kGemma3Markers = 4;

std::int64_t towerNormParams(const VisionShape& v) {
    return v.norm == NormKind::LayerNorm ? 2 * v.hiddenSize : v.hiddenSize;
}

/// Python's round(): half to even (std::nearbyint under the default rounding mode).
double pythonRound(double x) {
    return std::nearbyint(x);
}

/// Qwen-VL's smart_resize (image_processing_qwen2_vl.py): both sides a multiple of patch x merge, the area within
/// [minPixels, maxPixels], the aspect ratio kept as nearly as those allow.
void qwenSmartResize(const VisionShape& v, std::int64_t maxPixels, ImageTokens& out, double width, double height) {
    const double factor = static_cast<double>(v.patchSize * v.mergeSize);
    const double maxArea = static_cast<double>(maxPixels > 0 ? maxPixels : v.maxPixels);
    const double minArea = static_cast<double>(v.minPixels);
    double h = std::max(factor, pythonRound(height / factor) * factor);
    double w = std::max(factor, pythonRound(width / factor) * factor);
    if (h * w > maxArea) {
        const double beta = std::sqrt(height * width / maxArea);
        h = std::max(factor, std::floor(height / beta / factor) * factor);
        w = std::max(factor, std::floor(width / beta / factor) * factor);
    } else if (h * w < minArea) {
        const double beta = std::sqrt(minArea / (height * width));
        h = std::ceil(height * beta / factor) * factor;
        w = std::ceil(width * beta / factor) * factor;
    }
    out.width = static_cast<std::int64_t>(w);
    out.height = static_cast<std::int64_t>(h);
}

/// One encoder block's linear weights (q, k, v, output; the MLP's two or three matrices).
std::int64_t blockLinearWeights(const VisionShape& v) {
    const std::int64_t hv = v.hiddenSize;
    return 4 * hv * hv + (v.mlp == MlpKind::Gated ? 3 : 2) * hv * v.intermediateSize;
}

/// One encoder block's parameters: its linears with their biases (the MLP's in every family here, attention's but in
/// mllama) and two norms.
std::int64_t blockParams(const VisionShape& v) {
    const std::int64_t hv = v.hiddenSize;
    const std::int64_t mlpBiases = v.mlp == MlpKind::Gated ? 2 * v.intermediateSize + hv : v.intermediateSize + hv;
    return blockLinearWeights(v) + (v.attentionBias ? 4 * hv : 0) + mlpBiases + 2 * towerNormParams(v);
}

/// The patch embedding's weights: a convolution over 3 channels x temporal x patch x patch pixels.
std::int64_t patchEmbeddingWeights(const VisionShape& v) {
    return 3 * v.temporalPatch * v.patchSize * v.patchSize * v.hiddenSize;
}

/// Mergers a Qwen-VL encoder runs: the last block's, and Qwen3-VL's deepstack ones over intermediate blocks.
std::int64_t mergers(const VisionShape& v) {
    return 1 + v.deepstackMergers;
}

/// Span of attention summed over the blocks, per patch: the whole image, except in Qwen2.5-VL's windowed blocks,
/// which attend within windows of windowPatches^2 patches.
double attendedSpanSum(const VisionShape& v, double tokens) {
    const double depth = static_cast<double>(v.depth);
    if (!v.gridPinpoints.empty() && v.patchSize > 0) {
        // LLaVA-NeXT's crops go through CLIP as a batch of their own sequences: each token attends to its crop's.
        const double side = static_cast<double>(v.imageSize / v.patchSize);
        return depth * std::min(tokens, side * side + 1.0);
    }
    if (v.windowPatches <= 0) {
        return depth * tokens;
    }
    const double window = std::min(tokens, static_cast<double>(v.windowPatches * v.windowPatches));
    const double full = static_cast<double>(std::min(v.fullAttentionBlocks, v.depth));
    return full * tokens + (depth - full) * window;
}

/// Tokens per side of a fixed-resolution family's image (Llama-3.2-Vision: of a tile).
std::int64_t patchesPerSide(const VisionShape& v) {
    return v.patchSize > 0 ? v.imageSize / v.patchSize : 0;
}

/// Llama-3.2-Vision's tokens per tile: its patches and the class embedding (MllamaVisionModel, L860-864).
std::int64_t mllamaTileTokens(const VisionShape& v) {
    return patchesPerSide(v) * patchesPerSide(v) + 1;
}

/// get_optimal_tiled_canvas (image_processing_mllama.py L133-188 @251c2d4f): of the canvases of a x b tiles (a b <=
/// maxTiles), the one whose scale min(height ratio, width ratio) is the smallest at or above 1, else the largest
/// below 1; of equal scales the smallest area, first in the list's order.
void mllamaCanvas(const VisionShape& v, double width, double height, ImageTokens& out) {
    double best = -1.0;
    std::int64_t bestArea = 0;
    bool upscale = false;
    for (std::int64_t a = 1; a <= v.maxTiles; ++a) {
        for (std::int64_t b = 1; a * b <= v.maxTiles; ++b) {
            // (a, b) is read as (height, width) tiles (canvas_sizes.T), as the list holds both orders.
            const double scale =
                std::min(static_cast<double>(a * v.imageSize) / height, static_cast<double>(b * v.imageSize) / width);
            const bool up = scale >= 1.0;
            const bool better = best < 0.0 || (up && !upscale) ||
                                (up == upscale && (up ? scale < best : scale > best)) ||
                                (scale == best && a * b < bestArea);
            if (better && (up || !upscale)) {
                best = scale;
                upscale = up;
                bestArea = a * b;
                out.height = a * v.imageSize;
                out.width = b * v.imageSize;
            }
        }
    }
    out.tiles = bestArea;
}

/// select_best_resolution (image_processing_utils.py L633-668 @251c2d4f): of the (height, width) canvases, the one
/// that keeps the most of the image's pixels when it is scaled to fit (each side truncated), of equals the one that
/// wastes the fewest, first in the list's order.
std::array<std::int64_t, 2> llavaNextCanvas(const VisionShape& v, std::int64_t width, std::int64_t height) {
    std::array<std::int64_t, 2> best{v.imageSize, v.imageSize};
    std::int64_t mostKept = 0;
    std::int64_t leastWasted = std::numeric_limits<std::int64_t>::max();
    for (const auto& [canvasHeight, canvasWidth] : v.gridPinpoints) {
        const double scale = std::min(static_cast<double>(canvasWidth) / static_cast<double>(width),
                                      static_cast<double>(canvasHeight) / static_cast<double>(height));
        const auto keptWidth = static_cast<std::int64_t>(static_cast<double>(width) * scale);
        const auto keptHeight = static_cast<std::int64_t>(static_cast<double>(height) * scale);
        const std::int64_t kept = std::min(keptWidth * keptHeight, width * height);
        const std::int64_t wasted = canvasWidth * canvasHeight - kept;
        if (kept > mostKept || (kept == mostKept && wasted < leastWasted)) {
            mostKept = kept;
            leastWasted = wasted;
            best = {canvasHeight, canvasWidth};
        }
    }
    return best;
}

/// The tokens LLaVA's projector runs over: each image token, or LLaVA-NeXT's every crop's patches, projected before
/// they are unpadded (modeling_llava_next.py get_image_features, then pack_image_features).
std::int64_t llavaProjectedTokens(const VisionShape& v, const ImageTokens& image) {
    return v.gridPinpoints.empty() ? image.languageTokens : image.tiles * patchesPerSide(v) * patchesPerSide(v);
}

/// Python's int(round(x, 7)): rounded to seven decimals, then truncated.
std::int64_t roundedDown(double x) {
    return static_cast<std::int64_t>(std::round(x * 1e7) / 1e7);
}

/// LLaVA-NeXT's anyres tokens (processing_llava_next.py _get_number_of_features and _get_unpadded_features, L92-132
/// @251c2d4f): the canvas's crops give a grid of patches, from which the rows or columns the image's own aspect does
/// not fill are cut (unpadding), one newline token ends each row, and the whole image resized to one crop adds its
/// patches; with the default feature strategy CLIP's class token is not among them. The encoder sees every crop and
/// the whole image, each with its class token (modeling_llava_next.py get_image_features, image_size_to_num_patches).
void llavaNextTokens(const VisionShape& v, std::int64_t width, std::int64_t height, ImageTokens& out) {
    const auto [canvasHeight, canvasWidth] = llavaNextCanvas(v, width, height);
    const std::int64_t side = patchesPerSide(v);
    const std::int64_t rows = canvasHeight / v.imageSize;
    const std::int64_t columns = canvasWidth / v.imageSize;
    std::int64_t gridHeight = side * rows;
    std::int64_t gridWidth = side * columns;
    const double imageAspect = static_cast<double>(width) / static_cast<double>(height);
    if (imageAspect > static_cast<double>(gridWidth) / static_cast<double>(gridHeight)) {
        const std::int64_t kept =
            roundedDown(static_cast<double>(height) * static_cast<double>(gridWidth) / static_cast<double>(width));
        gridHeight -= 2 * ((gridHeight - kept) / 2);
    } else {
        const std::int64_t kept =
            roundedDown(static_cast<double>(width) * static_cast<double>(gridHeight) / static_cast<double>(height));
        gridWidth -= 2 * ((gridWidth - kept) / 2);
    }
    out.width = canvasWidth;
    out.height = canvasHeight;
    out.tiles = rows * columns + 1;
    out.encoderTokens = out.tiles * (side * side + 1);
    out.languageTokens = gridHeight * gridWidth + gridHeight + side * side;
}

} // namespace

ImageTokens imageTokens(const VisionShape& v, std::int64_t width, std::int64_t height, std::int64_t maxPixels) {
    ImageTokens out;
    switch (v.family) {
    case VisionFamily::None:
        return out;
    case VisionFamily::QwenVl: {
        qwenSmartResize(v, maxPixels, out, static_cast<double>(width), static_cast<double>(height));
        // One temporal patch per image (the processor repeats a still image temporal_patch_size times).
        out.encoderTokens = (out.width / v.patchSize) * (out.height / v.patchSize);
        out.languageTokens = out.encoderTokens / (v.mergeSize * v.mergeSize) + kQwenVlMarkers;
        return out;
    }
    case VisionFamily::Gemma3:
        out.width = out.height = v.imageSize;
        out.encoderTokens = patchesPerSide(v) * patchesPerSide(v);
        out.languageTokens = v.tokensPerImage + kGemma3Markers;
        return out;
    case VisionFamily::Llava:
        if (!v.gridPinpoints.empty()) {
            llavaNextTokens(v, std::max<std::int64_t>(1, width), std::max<std::int64_t>(1, height), out);
            return out;
        }
        out.width = out.height = v.imageSize;
        // CLIP prepends a class token; the default feature strategy drops it (vision_feature_select_strategy).
        out.encoderTokens = patchesPerSide(v) * patchesPerSide(v) + 1;
        out.languageTokens = patchesPerSide(v) * patchesPerSide(v);
        return out;
    case VisionFamily::Mllama: {
        mllamaCanvas(v, static_cast<double>(std::max<std::int64_t>(1, width)),
                     static_cast<double>(std::max<std::int64_t>(1, height)), out);
        // Every image is padded to maxTiles tiles (pad_batches_and_tiles, L247-297); each tile's tokens to a multiple
        // of 8 for the encoder's attention (num_padding_patches, modeling_mllama.py L942-947), sliced off after it.
        const std::int64_t tile = mllamaTileTokens(v);
        out.encoderTokens = v.maxTiles * ((tile + 7) / 8 * 8);
        out.crossTokens = v.maxTiles * tile;
        out.languageTokens = 1; // one <|image|> token (processing_mllama.py L289-292)
        return out;
    }
    }
    return out;
}

VisionParams visionParams(const VisionShape& v, std::int64_t textHidden) {
    VisionParams p;
    if (!v.present()) {
        return p;
    }
    const std::int64_t hv = v.hiddenSize;
    const std::int64_t blocks = v.depth * blockParams(v);
    p.towerLinear = v.depth * blockLinearWeights(v);
    const std::int64_t widest = std::max(v.intermediateSize, 3 * hv) * hv;
    switch (v.family) {
    case VisionFamily::None:
        break;
    case VisionFamily::QwenVl: {
        // Qwen2VisionTransformerPretrainedModel: patch_embed (Conv3d; Qwen3-VL's with a bias and a learned position
        // grid), the blocks, and PatchMerger: a norm, then Linear(hv m^2, hv m^2) -> GELU -> Linear(hv m^2,
        // out_hidden_size), with biases (modeling_qwen2_vl.py). Qwen3-VL adds one merger per deepstack block, whose
        // LayerNorm runs after the 2 x 2 regroup, hv m^2 wide (modeling_qwen3_vl.py Qwen3VLVisionPatchMerger
        // use_postshuffle_norm @d6a6c826).
        const std::int64_t merged = hv * v.mergeSize * v.mergeSize;
        const std::int64_t mergerNormWidth = v.norm == NormKind::LayerNorm ? 2 : 1;
        p.tower = patchEmbeddingWeights(v) + (v.patchBias ? hv : 0) + v.positionEmbeddings * hv + blocks;
        const std::int64_t linear = merged * merged + merged * textHidden;
        p.projectorLinear = mergers(v) * linear;
        p.projector = p.projectorLinear + mergers(v) * (merged + textHidden) + towerNormParams(v) +
                      v.deepstackMergers * mergerNormWidth * merged;
        p.largestTensor = std::max(widest, merged * merged);
        break;
    }
    case VisionFamily::Gemma3: {
        // SiglipVisionModel: Conv2d patch embedding with bias, one learned position per patch, the blocks,
        // post_layernorm; Gemma3MultiModalProjector: mm_soft_emb_norm (RMSNorm) and mm_input_projection_weight.
        const std::int64_t patches = patchesPerSide(v) * patchesPerSide(v);
        p.tower = patchEmbeddingWeights(v) + hv + patches * hv + blocks + 2 * hv;
        p.projectorLinear = hv * textHidden;
        p.projector = hv + p.projectorLinear;
        p.largestTensor = std::max(widest, hv * textHidden);
        break;
    }
    case VisionFamily::Mllama: {
        // MllamaVisionModel (modeling_mllama.py @251c2d4f): Conv2d patch embedding without bias, a class embedding,
        // the gated positional embedding (one position per tile token, a tile embedding per aspect ratio and tile,
        // a gate), pre- and post-tile embeddings (one row per aspect ratio, a gate each), layernorm_pre and _post,
        // the local and global layers (the global ones with two gates); the projector one Linear with a bias from the
        // stacked outputs (L102-159, L829-850, L1281-1285).
        const std::int64_t tile = mllamaTileTokens(v);
        const std::int64_t ratioRows = v.aspectRatios + 1;
        const std::int64_t tileEmbedding = ratioRows * v.maxTiles * tile * hv;
        p.tower = patchEmbeddingWeights(v) + hv + tile * hv + 1 + tileEmbedding +
                  2 * (ratioRows * v.maxTiles * hv + 1) + 2 * 2 * hv + blocks + 2 * v.gatedBlocks;
        p.projectorLinear = (1 + v.stackedOutputs) * hv * textHidden;
        p.projector = p.projectorLinear + textHidden;
        p.largestTensor = std::max({widest, tileEmbedding, p.projectorLinear});
        break;
    }
    case VisionFamily::Llava: {
        // CLIPVisionModel: class embedding, Conv2d patch embedding (no bias), positions for the patches and the class
        // token, pre_layrnorm, the blocks, post_layernorm; LlavaMultiModalProjector: two linears with biases.
        const std::int64_t positions = patchesPerSide(v) * patchesPerSide(v) + 1;
        p.tower = hv + patchEmbeddingWeights(v) + positions * hv + 2 * hv + blocks + 2 * hv;
        p.projectorLinear = hv * textHidden + textHidden * textHidden;
        // LLaVA-NeXT adds image_newline, one text-width vector (modeling_llava_next.py L259).
        p.projector = p.projectorLinear + 2 * textHidden + (v.gridPinpoints.empty() ? 0 : textHidden);
        p.largestTensor = std::max(widest, textHidden * textHidden);
        break;
    }
    }
    return p;
}

std::vector<VisionLinear> visionTowerLinears(const VisionShape& v) {
    if (!v.present()) {
        return {};
    }
    const std::int64_t hv = v.hiddenSize;
    const std::int64_t f = v.intermediateSize;
    const std::int64_t d = v.depth;
    std::vector<VisionLinear> out;
    if (v.family == VisionFamily::QwenVl) {
        // VisionAttention: qkv = Linear(hv, 3 hv), proj = Linear(hv, hv) (modeling_qwen2_5_vl.py).
        out.push_back({LinearRole::Q, hv, 3 * hv, d});
        out.push_back({LinearRole::O, hv, hv, d});
    } else {
        for (LinearRole role : {LinearRole::Q, LinearRole::K, LinearRole::V, LinearRole::O}) {
            out.push_back({role, hv, hv, d});
        }
    }
    if (v.mlp == MlpKind::Gated) {
        out.push_back({LinearRole::Gate, hv, f, d});
    }
    out.push_back({LinearRole::Up, hv, f, d});
    out.push_back({LinearRole::Down, f, hv, d});
    return out;
}

std::vector<VisionLinear> visionProjectorLinears(const VisionShape& v, std::int64_t textHidden) {
    switch (v.family) {
    case VisionFamily::None:
    case VisionFamily::Gemma3:
        return {};
    case VisionFamily::QwenVl: {
        const std::int64_t merged = v.hiddenSize * v.mergeSize * v.mergeSize;
        return {{LinearRole::Up, merged, merged, mergers(v)}, {LinearRole::Down, merged, textHidden, mergers(v)}};
    }
    case VisionFamily::Llava:
        return {{LinearRole::Up, v.hiddenSize, textHidden, 1}, {LinearRole::Down, textHidden, textHidden, 1}};
    case VisionFamily::Mllama:
        return {{LinearRole::Up, (1 + v.stackedOutputs) * v.hiddenSize, textHidden, 1}};
    }
    return {};
}

VisionFlops visionForwardFlops(const VisionShape& v, std::int64_t textHidden, const ImageTokens& image) {
    VisionFlops f;
    if (!v.present()) {
        return f;
    }
    const VisionParams p = visionParams(v, textHidden);
    const double tokens = static_cast<double>(image.encoderTokens);
    const double hv = static_cast<double>(v.hiddenSize);
    // Attention: q k^T and the weighted sum of v, 2 x 2 x span x width per token and block.
    f.tower = tokens * (2.0 * (static_cast<double>(p.towerLinear) + static_cast<double>(patchEmbeddingWeights(v))) +
                        4.0 * hv * attendedSpanSum(v, tokens));
    // The projector runs once per language-model image token (Qwen-VL: per merged group of patches).
    const double projected = static_cast<double>(
        v.family == VisionFamily::Gemma3   ? v.tokensPerImage
        : v.family == VisionFamily::QwenVl ? image.encoderTokens / std::max<std::int64_t>(1, v.mergeSize * v.mergeSize)
        : v.family == VisionFamily::Mllama ? image.crossTokens
                                           : llavaProjectedTokens(v, image));
    f.projector = 2.0 * static_cast<double>(p.projectorLinear) * projected;
    return f;
}

namespace {

/// Bytes one encoder block saves per patch for backward, not checkpointed. Trained (or carrying adapters): two norm
/// inputs (RMSNorm upcasts to fp32), the three linear inputs (q/k/v, output, MLP), q, k and v for the attention
/// kernel with an fp32 log-sum-exp per head, and the MLP's middle: gate, up, the activation and the product (gated);
/// fc1's output, the activation's output and QuickGELU's sigmoid (CLIP, Qwen2-VL) or not (the tanh GELU of SigLIP,
/// Qwen3-VL and mllama). Frozen with its graph recorded: a frozen linear needs only its weight for the input gradient,
/// so no linear inputs and no MLP output that feeds one, but the attention kernel's output. Eager attention keeps its
/// probabilities, heads x span per patch (averaged over the blocks).
double blockSavedBytesPerPatch(const VisionShape& v, double tokens, double c, bool eagerAttention, bool frozenWeights) {
    const double hv = static_cast<double>(v.hiddenSize);
    const double f = static_cast<double>(v.intermediateSize);
    const double heads = static_cast<double>(v.numHeads);
    const double norms = 2.0 * (v.norm == NormKind::LayerNorm ? c : 4.0) * hv;
    const double linearInputs = frozenWeights ? 0.0 : 3.0 * c * hv;
    const double attention = (frozenWeights ? 4.0 : 3.0) * c * hv + 4.0 * heads;
    const double middle = v.mlp == MlpKind::Gated ? (frozenWeights ? 3.0 : 4.0)
                          : v.quickGelu           ? (frozenWeights ? 2.0 : 3.0)
                                                  : (frozenWeights ? 1.0 : 2.0);
    const double eager = eagerAttention ? c * heads * attendedSpanSum(v, tokens) / static_cast<double>(v.depth) : 0.0;
    return norms + linearInputs + attention + middle * c * f + eager;
}

} // namespace

double visionTowerSavedBytes(const VisionShape& v, const ImageTokens& image, double computeBytes, bool checkpointed,
                             bool eagerAttention) {
    if (!v.present()) {
        return 0.0;
    }
    const double tokens = static_cast<double>(image.encoderTokens);
    const double depth = static_cast<double>(v.depth);
    if (checkpointed) {
        return depth * tokens * computeBytes * static_cast<double>(v.hiddenSize); // each block's input, recomputed
    }
    return depth * tokens * blockSavedBytesPerPatch(v, tokens, computeBytes, eagerAttention, false);
}

double frozenTowerSavedBytes(const VisionShape& v, const ImageTokens& image, double computeBytes, bool eagerAttention) {
    if (!v.present()) {
        return 0.0;
    }
    const double tokens = static_cast<double>(image.encoderTokens);
    return static_cast<double>(v.depth) * tokens *
           blockSavedBytesPerPatch(v, tokens, computeBytes, eagerAttention, true);
}

double visionProjectorSavedBytes(const VisionShape& v, std::int64_t textHidden, const ImageTokens& image,
                                 double computeBytes) {
    const double c = computeBytes;
    const double hv = static_cast<double>(v.hiddenSize);
    const double normInput = (v.norm == NormKind::LayerNorm ? c : 4.0) * hv;
    switch (v.family) {
    case VisionFamily::None:
        return 0.0;
    case VisionFamily::QwenVl:
        // Per patch and merger: the norm's input, the first linear's input, its output (GELU's input) and GELU's
        // output, each hv wide per patch (hv x merge^2 per merged token). Every Qwen3-VL merger runs over the image.
        return static_cast<double>(mergers(v) * image.encoderTokens) * (normInput + 3.0 * c * hv);
    case VisionFamily::Gemma3:
        // Per pooled token: the soft-embedding norm's fp32 input and the projection's input.
        return static_cast<double>(v.tokensPerImage) * (4.0 * hv + c * hv);
    case VisionFamily::Llava:
        // Per projected token: the first linear's input, its output (GELU's input) and GELU's output.
        return static_cast<double>(llavaProjectedTokens(v, image)) *
               (c * hv + 2.0 * c * static_cast<double>(textHidden));
    case VisionFamily::Mllama:
        // Per image token: the one linear's input, the stacked outputs.
        return static_cast<double>(image.crossTokens) * c * static_cast<double>(1 + v.stackedOutputs) * hv;
    }
    return 0.0;
}

bool towerCheckpointable(const VisionShape& v) {
    return v.family != VisionFamily::Mllama;
}

double crossAttentionKvFlops(const ModelArch& a, const ImageTokens& image) {
    const double kvWidth = static_cast<double>((a.numKvHeads > 0 ? a.numKvHeads : a.numHeads) * a.effectiveHeadDim());
    return static_cast<double>(a.vision.crossAttentionLayers) * 2.0 * 2.0 * static_cast<double>(a.hiddenSize) *
           kvWidth * static_cast<double>(image.crossTokens);
}

double crossAttentionSavedBytes(const ModelArch& a, const ImageTokens& image, double computeBytes, bool checkpointed,
                                const CrossAttentionTraining& training, double sequenceTokens) {
    if (a.vision.crossAttentionLayers == 0) {
        return 0.0;
    }
    const double c = computeBytes;
    const double d = static_cast<double>(a.effectiveHeadDim());
    const double kv = static_cast<double>(a.numKvHeads > 0 ? a.numKvHeads : a.numHeads);
    const double states = c * static_cast<double>(a.hiddenSize);
    const double layers = static_cast<double>(a.vision.crossAttentionLayers);
    const double keys = static_cast<double>(image.crossTokens);
    const double mask = c * sequenceTokens * keys;
    if (checkpointed) {
        return keys * states + mask;
    }
    const double paddedMasks = layers * c * sequenceTokens * static_cast<double>((image.crossTokens + 7) / 8 * 8);
    // k_norm's fp32 input where k needs a gradient; the kernel's expanded k and v; each adapter's dropout output
    // (c) and mask (1 B) over the h-wide states.
    const double kNorm = training.keysNeedGrad ? 4.0 * kv * d : 0.0;
    const double dropout =
        static_cast<double>(training.adaptedWithDropout) * (c + 1.0) * static_cast<double>(a.hiddenSize);
    const double perLayer = kNorm + 2.0 * c * static_cast<double>(a.numHeads) * d + dropout;
    return keys * (states + layers * perLayer) + mask + paddedMasks;
}

ImageTokens scenarioImage(const Scenario& s) {
    return imageTokens(s.model.vision, s.imageWidth, s.imageHeight, s.imageMaxPixels);
}

std::int64_t imageTokensPerExample(const Scenario& s) {
    return hasImages(s) ? s.imagesPerSample * scenarioImage(s).languageTokens : 0;
}

std::int64_t shortestSequence(const Scenario& s) {
    return imageTokensPerExample(s) + 1 + (generatesOnline(s) ? s.completionLength : 0);
}

const char* visionFamilyName(VisionFamily f) {
    switch (f) {
    case VisionFamily::None:
        return "none";
    case VisionFamily::QwenVl:
        return "Qwen-VL";
    case VisionFamily::Gemma3:
        return "Gemma 3";
    case VisionFamily::Llava:
        return "LLaVA";
    case VisionFamily::Mllama:
        return "Llama-3.2-Vision";
    }
    return "?";
}

} // namespace gpusizer::core
