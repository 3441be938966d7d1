#pragma once
// A vision-language model's image side: how many tokens an image becomes, what the encoder and projector weigh, what
// they compute and what they save for backward (docs/memory-model.md §10).

#include "gpusizer/scenario/ModelArch.h"
#include "gpusizer/scenario/Scenario.h"

#include <cstdint>
#include <vector>

namespace gpusizer::core {

/// One image as the model's processor prepares it.
struct ImageTokens {
    std::int64_t width = 0; ///< after resizing
    std::int64_t height = 0;
    std::int64_t encoderTokens = 0;  ///< what the encoder's attention runs over (patches, plus CLIP's class token)
    std::int64_t languageTokens = 0; ///< what the image adds to the language model's sequence, markers included
    std::int64_t crossTokens = 0;    ///< Llama-3.2-Vision: the image's tokens each cross-attention layer attends to
    std::int64_t tiles = 0;          ///< Llama-3.2-Vision: tiles the image fills (it is padded to maxTiles)
};

/// The processor's resizing and patching for an image of width x height pixels. maxPixels > 0 replaces Qwen-VL's
/// processor bound (LLaMA-Factory's image_max_pixels resizes before it); fixed-resolution families ignore both.
ImageTokens imageTokens(const VisionShape& v, std::int64_t width, std::int64_t height, std::int64_t maxPixels = 0);

/// A scenario's image as its model's processor prepares it.
ImageTokens scenarioImage(const Scenario& s);
/// Language-model tokens one example's images take (0 for a text run).
std::int64_t imageTokensPerExample(const Scenario& s);
/// The shortest sequence a run of this kind can have: its images and a text token, and for a run that generates its
/// completion after them.
std::int64_t shortestSequence(const Scenario& s);

/// The vision side's parameters: the encoder and the projector into a language model `textHidden` wide.
struct VisionParams {
    std::int64_t tower = 0;
    std::int64_t projector = 0;
    std::int64_t towerLinear = 0; ///< of the tower, the weights of its nn.Linear layers (what bitsandbytes converts)
    std::int64_t projectorLinear = 0; ///< of the projector, the matmul weights
    std::int64_t largestTensor = 0;
};
VisionParams visionParams(const VisionShape& v, std::int64_t textHidden);

/// A linear of the image side that an adapter can reach: its role (what the language model's role of the same kind
/// is called), its shape, and how many the model has.
struct VisionLinear {
    LinearRole role = LinearRole::Q;
    std::int64_t in = 0;
    std::int64_t out = 0;
    std::int64_t count = 0;
};
/// The encoder's linears over all its blocks: q, k, v and the output separately (CLIP, SigLIP) or q/k/v fused into one
/// `qkv` (Qwen-VL's VisionAttention); the MLP's fc1 / fc2 or gate / up / down (Qwen2.5-VL).
std::vector<VisionLinear> visionTowerLinears(const VisionShape& v);
/// The projector's linears: Qwen-VL's mergers (mlp.0, mlp.2), LLaVA's linear_1 / linear_2; none for Gemma 3 (a bare
/// weight).
std::vector<VisionLinear> visionProjectorLinears(const VisionShape& v, std::int64_t textHidden);

/// Forward FLOPs of the encoder for one image (matmuls and attention) and of the projector.
struct VisionFlops {
    double tower = 0;
    double projector = 0;
};
VisionFlops visionForwardFlops(const VisionShape& v, std::int64_t textHidden, const ImageTokens& image);

/// Bytes one image's encoder blocks save for backward when the tower trains: every block's tensors in `computeBytes`
/// (checkpointed: each block's input only). Eager attention saves its probabilities too.
double visionTowerSavedBytes(const VisionShape& v, const ImageTokens& image, double computeBytes, bool checkpointed,
                             bool eagerAttention);
/// ... when no weight of it trains but its graph is recorded (frozenTowerRecordsGraph): a frozen linear needs only its
/// weight for the input gradient, so the linears' inputs and the MLP output that feeds one are not kept.
double frozenTowerSavedBytes(const VisionShape& v, const ImageTokens& image, double computeBytes, bool eagerAttention);
/// Whether transformers' gradient_checkpointing_enable reaches the encoder's blocks: they are
/// GradientCheckpointingLayers in every family here but Llama-3.2-Vision, whose MllamaVisionEncoderLayer is a plain
/// module (modeling_mllama.py L272, L329-358 @251c2d4f).
bool towerCheckpointable(const VisionShape& v);

/// Llama-3.2-Vision's cross-attention layers over one image: the forward FLOPs of their k and v projections of the
/// image's tokens (each layer projects them itself: MllamaTextCrossAttention L426-432), and the bytes they save for
/// backward: the projected image states all of them read (once), and per layer k_norm's fp32 input and the attention
/// kernel's k and v (expanded to every query head where SDPA is handed repeat_kv's copies). Under checkpointing only
/// the projected states, the layers' input, stay. 0 for other families.
double crossAttentionKvFlops(const ModelArch& a, const ImageTokens& image);
/// What trains in the cross-attention layers over the image's tokens.
struct CrossAttentionTraining {
    bool keysNeedGrad = false;           ///< k carries a gradient: k_norm keeps its fp32 input
    std::int64_t adaptedWithDropout = 0; ///< of k_proj and v_proj, those with a LoRA adapter behind dropout
};
/// The attention kernel always gets k and v expanded to every query head: the cross-attention mask rules out SDPA's
/// own grouped-query path (use_gqa_in_sdpa needs no mask), so repeat_kv copies them (sdpa_attention.py).
/// `sequenceTokens`: the text's length, over which the 4-D cross-attention mask (model dtype) is held all step and the
/// memory-efficient SDPA kernel saves, per layer, its copy padded to a multiple of 8 keys (preprocess_mask, PyTorch's
/// transformers/attention.cpp).
double crossAttentionSavedBytes(const ModelArch& a, const ImageTokens& image, double computeBytes, bool checkpointed,
                                const CrossAttentionTraining& training, double sequenceTokens);

/// Bytes one image's projector saves for backward when it (or the tower behind it) trains.
double visionProjectorSavedBytes(const VisionShape& v, std::int64_t textHidden, const ImageTokens& image,
                                 double computeBytes);

/// The family's name for messages ("Qwen2-VL", ...).
const char* visionFamilyName(VisionFamily f);

} // namespace gpusizer::core
