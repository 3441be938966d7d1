// Llama-3.2-Vision (transformers' mllama @251c2d4f, docs/memory-model.md §10): a tiled ViT whose stacked outputs the
// language model's cross-attention layers read. Expected values are derived by hand from modeling_mllama.py,
// image_processing_mllama.py and the 11B checkpoint's configuration, or are its published parameter total.
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/HfConfig.h"
#include "gpusizer/scenario/ScenarioJson.h"
#include "gpusizer/scenario/Validate.h"
#include "gpusizer/scenario/Vision.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace gpusizer;

namespace {

const core::Catalog& catalog() {
    static const core::Catalog c = catalogs::loadCatalogs().catalog;
    return c;
}

const core::ModelArch& llamaVision() {
    return catalog().findModel("llama-3.2-11b-vision")->arch;
}

// LoRA on q and v in bf16 under the Trainer's profile, 2 examples of one 1024 x 768 image in 1,024 tokens, SDPA handed
// repeat_kv's copies (the profile's sdpa_expands_kv, set here so the expectation does not depend on its default).
core::Scenario loraRun() {
    core::Scenario s;
    s.model = llamaVision();
    s.framework = core::Framework::HfTrainer;
    s.overrides.sdpaExpandsKv = true;
    s.method = core::Method::Lora;
    s.precision = core::Precision::Bf16;
    s.attention = core::Attention::Sdpa;
    s.microBatch = 2;
    s.seqLen = 1024;
    s.imagesPerSample = 1;
    s.imageWidth = 1024;
    s.imageHeight = 768;
    s.checkpointing = core::Checkpointing::None;
    return s;
}

} // namespace

// The 11B checkpoint's safetensors hold 10,670,220,835 parameters. By module (modeling_mllama.py):
// encoder: patch conv 3 x 14 x 14 x 1280 = 752,640 (no bias); class embedding 1,280; positions 1,601 x 1,280 =
// 2,049,280 and a gate; tile embedding 9 ratios x 4 tiles x 1,601 x 1,280 = 73,774,080; pre/post tile embeddings
// 2 x (9 x 4 x 1,280 + a gate) = 92,162; layernorm_pre/post 2 x 2,560 = 5,120; 40 layers x (4 x 1,280^2 q/k/v/o without
// bias + 1,280 x 5,120 + 5,120 + 5,120 x 1,280 + 1,280 + 2 x 2,560) = 40 x 19,672,320; 8 global layers' 2 gates = 16:
// 863,567,379. Projector 7,680 x 4,096 + 4,096 = 31,461,376. Text: embed_tokens (128,256 + 8) x 4,096 = 525,369,344,
// lm_head 128,256 x 4,096 = 525,336,576, 40 layers x 218,112,000 (q, o 4,096^2; k, v 4,096 x 1,024; MLP 3 x 4,096 x
// 14,336; two norms) + 8 cross layers x (q_norm, k_norm 2 x 128 + 2 gates) = 2,064, the final norm 4,096.
TEST(LlamaVision, ParametersAreThePublishedTotal) {
    const core::ParamCounts p = core::countParams(llamaVision());
    EXPECT_EQ(p.visionTower, 863'567'379);
    EXPECT_EQ(p.visionProjector, 31'461'376);
    EXPECT_EQ(p.embedding, 525'369'344);
    EXPECT_EQ(p.total, 10'670'220'835);
}

// get_optimal_tiled_canvas: a 1024 x 768 image fits no canvas without downscaling but 2 x 2 tiles (scale min(1120/768,
// 1120/1024) = 1.09); 640 x 480 fits 1 x 2 tiles at 1.17 (2 x 2 would upscale by 1.75, and 1 x 3, 1 x 4 tie at 1.17
// with more area); 64 x 64 is scaled 8.75 by each canvas one tile high or wide (2 x 2: 17.5), the smallest taken. Every
// image is padded to 4 tiles: the encoder attends over 4 x 1,608 patches (1,601 padded to a multiple of 8), the
// cross-attention layers over 4 x 1,601, and the text holds one <|image|> token.
TEST(LlamaVision, AnImageIsTiledAndPaddedToFourTiles) {
    const auto& v = llamaVision().vision;
    const core::ImageTokens wide = core::imageTokens(v, 1024, 768);
    EXPECT_EQ(wide.width, 1120);
    EXPECT_EQ(wide.height, 1120);
    EXPECT_EQ(wide.tiles, 4);
    EXPECT_EQ(wide.encoderTokens, 4 * 1608);
    EXPECT_EQ(wide.crossTokens, 4 * 1601);
    EXPECT_EQ(wide.languageTokens, 1);
    const core::ImageTokens small = core::imageTokens(v, 640, 480);
    EXPECT_EQ(small.width, 1120);
    EXPECT_EQ(small.height, 560);
    EXPECT_EQ(small.tiles, 2);
    EXPECT_EQ(small.encoderTokens, 4 * 1608); // padded to max_image_tiles all the same
    const core::ImageTokens icon = core::imageTokens(v, 64, 64);
    EXPECT_EQ(icon.tiles, 1);
    EXPECT_EQ(icon.width, 560);
}

// The cross-attention layers over one image's 6,404 tokens, LoRA on q and v with dropout 0.05 (k frozen, the states
// from a frozen projector: k_norm records nothing): the projected states every layer reads (4,096 x 2 B), and per layer
// SDPA's k and v expanded to 32 heads (the mask rules out its grouped path: 2 x 32 x 128 x 2 B) and v_proj's adapter's
// dropout output and mask (4,096 x 3 B): 6,404 x (8,192 + 8 x (16,384 + 12,288)) = 1,521,385,472 B. Over the 1,024
// text tokens, the 4-D mask held all step, 1,024 x 6,404 x 2 B = 13,115,392 B, and the memory-efficient kernel's copy
// padded to 6,408 keys in each layer, 8 x 1,024 x 6,408 x 2 B = 104,988,672 B. Two images a micro-batch. With
// checkpointing the projected states and the mask stay: 6,404 x 8,192 + 13,115,392 B an image.
TEST(LlamaVision, CrossAttentionLayersSaveTheirKeysAndValuesOverTheImage) {
    core::Scenario s = loraRun();
    const core::Estimate e = core::estimate(s);
    EXPECT_EQ(e.crossAttentionBytes,
              2LL * (6404LL * (8192 + 8 * (16384 + 12288)) + 1024LL * 6404 * 2 + 8LL * 1024 * 6408 * 2));
    EXPECT_EQ(e.visionActivationBytes, e.crossAttentionBytes); // the frozen encoder records nothing here
    s.checkpointing = core::Checkpointing::Full;
    EXPECT_EQ(core::estimate(s).crossAttentionBytes, 2LL * (6404LL * 8192 + 1024LL * 6404 * 2));
    s.imagesPerSample = 0; // a text batch skips the cross-attention layers
    EXPECT_EQ(core::estimate(s).crossAttentionBytes, 0);
}

// With checkpointing, transformers 5 makes the frozen encoder's patch embedding output require grad
// (enable_input_require_grads hooks every sub-model's input embeddings, modeling_utils.py L2222-2250, L3219-3227), and
// its layers are not checkpointed: per patch and layer it keeps two LayerNorm inputs (2 x 2 x 1,280), q, k, v and the
// attention output (4 x 2 x 1,280) with a log-sum-exp per head (16 x 4) and GELU's input (2 x 5,120), but no linear
// inputs (frozen weights need none): 25,664 B x 40 layers x 6,432 patches an image; the frozen projector keeps nothing.
// On transformers 4.x, which hooked the text embeddings only, it records nothing.
TEST(LlamaVision, AFrozenEncoderRecordsItsGraphUnderCheckpointing) {
    core::Scenario s = loraRun();
    s.checkpointing = core::Checkpointing::Full;
    const core::Estimate e = core::estimate(s);
    EXPECT_EQ(e.visionActivationBytes - e.crossAttentionBytes, 2LL * 25664 * 40 * 6432);
    s.transformersVersion = core::TransformersVersion::V446To448;
    const core::Estimate older = core::estimate(s);
    EXPECT_EQ(older.visionActivationBytes - older.crossAttentionBytes, 0);
}

// Flash-attention cannot run the cross-attention module (no is_causal for transformers' flash path to read).
TEST(LlamaVision, FlashAttentionIsRefusedWithImages) {
    core::Scenario s = loraRun();
    s.attention = core::Attention::Flash;
    const auto checked = core::validate(s);
    ASSERT_FALSE(checked.has_value());
    EXPECT_EQ(checked.error().where, "attention");
}

// The encoder's layers are plain modules, which gradient_checkpointing_enable does not reach (modeling_mllama.py
// L272, L329-358): a trained encoder saves every layer's tensors with or without checkpointing. Per patch and layer:
// two LayerNorm inputs 2 x 2 x 1,280, three linear inputs 3 x 2 x 1,280, q, k, v 3 x 2 x 1,280 with a log-sum-exp per
// head 16 x 4, fc1's output and GELU's 2 x 2 x 5,120: 41,024 B x 40 layers x 6,432 patches an image; the projector its
// input, 6,404 x 7,680 x 2 B.
TEST(LlamaVision, ATrainedEncoderIsNotCheckpointed) {
    core::Scenario s = loraRun();
    s.method = core::Method::Full;
    s.freezeVisionTower = false;
    s.freezeProjector = false;
    s.microBatch = 1;
    const double tower = 41024.0 * 40 * 6432;
    const double projector = 6404.0 * 7680 * 2;
    for (const auto ckpt : {core::Checkpointing::None, core::Checkpointing::Full}) {
        s.checkpointing = ckpt;
        const core::Estimate e = core::estimate(s);
        EXPECT_EQ(e.visionActivationBytes - e.crossAttentionBytes, static_cast<std::int64_t>(tower + projector));
    }
}

// k and v of the 8 cross-attention layers over an image: 8 x 2 projections x 2 x 4,096 x 1,024 FLOPs per image token.
TEST(LlamaVision, CrossAttentionProjectsTheImageInEveryLayer) {
    const core::ImageTokens image = core::imageTokens(llamaVision().vision, 1024, 768);
    EXPECT_DOUBLE_EQ(core::crossAttentionKvFlops(llamaVision(), image), 8.0 * 2 * 2 * 4096 * 1024 * 6404);
}

// The config.json imports as the catalog's entry (no "not modelled" warning), and a scenario file keeps the shape.
TEST(LlamaVision, TheConfigImportsAndTheScenarioFileKeepsIt) {
    const std::string config = nlohmann::json(core::archToHfConfig(llamaVision())).dump();
    const auto saved = core::importHfConfig(config, "saved.json");
    ASSERT_TRUE(saved.has_value()) << saved.error().message();
    EXPECT_EQ(core::countParams(saved->arch).total, 10'670'220'835);
    const std::string hub = R"({"model_type": "mllama", "text_config": {"model_type": "mllama_text_model",
        "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32, "num_hidden_layers": 40,
        "num_key_value_heads": 8, "vocab_size": 128256, "tie_word_embeddings": false,
        "cross_attention_layers": [3, 8, 13, 18, 23, 28, 33, 38]},
        "vision_config": {"hidden_size": 1280, "intermediate_size": 5120, "num_hidden_layers": 32,
        "num_global_layers": 8, "attention_heads": 16, "image_size": 560, "patch_size": 14, "max_num_tiles": 4,
        "intermediate_layers_indices": [3, 7, 15, 23, 30],
        "supported_aspect_ratios": [[1, 1], [1, 2], [1, 3], [1, 4], [2, 1], [2, 2], [3, 1], [4, 1]]}})";
    const auto imported = core::importHfConfig(hub, "config.json");
    ASSERT_TRUE(imported.has_value()) << imported.error().message();
    EXPECT_EQ(imported->arch.vision.family, core::VisionFamily::Mllama);
    EXPECT_EQ(core::countParams(imported->arch).total, 10'670'220'835);
    EXPECT_TRUE(std::none_of(imported->warnings.begin(), imported->warnings.end(),
                             [](const core::Warning& w) { return w.code == "vision_not_modelled"; }));
    core::Scenario s = loraRun();
    const auto reopened = core::parseScenario(core::scenarioToJson(s), "s.json", catalog());
    ASSERT_TRUE(reopened.has_value()) << reopened.error().message();
    EXPECT_EQ(core::estimate(reopened->scenario).deviceBytes, core::estimate(s).deviceBytes);
}
