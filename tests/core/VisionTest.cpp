// Vision-language models (docs/memory-model.md §10): image tokens from each family's processor, the encoder's and the
// projector's parameters, what they save for backward and compute, bitsandbytes over their linears, the importers'
// freezing switches and the scenario file. Expected values are derived by hand in each test.
#include "gpusizer/scenario/Vision.h"

#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/import/TrainingConfig.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Advisor.h"
#include "gpusizer/plan/Planning.h"
#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/FrameworkProfile.h"
#include "gpusizer/scenario/HfConfig.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace gpusizer;
using core::Component;

namespace {

const core::Catalog& catalog() {
    static const core::Catalog c = catalogs::loadCatalogs().catalog;
    return c;
}

const core::ModelArch& model(const char* id) {
    return catalog().findModel(id)->arch;
}

// Qwen2.5-VL-7B, full fine-tuning in bf16 with an fp32 master, 2 examples of 2 images at 1024 x 768 in 4,096 tokens.
core::Scenario qwenFull() {
    core::Scenario s;
    s.model = model("qwen2.5-vl-7b");
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16Fp32Master;
    s.microBatch = 2;
    s.seqLen = 4096;
    s.imagesPerSample = 2;
    s.imageWidth = 1024;
    s.imageHeight = 768;
    s.checkpointing = core::Checkpointing::Full;
    return s;
}

// Qwen2.5-VL-7B's encoder: 32 blocks 1,280 wide, SwiGLU 3,420, RMSNorm; per block q/k/v 1,280 x 3,840 + 3,840,
// proj 1,280^2 + 1,280, gate/up/down 3 x 1,280 x 3,420 + 2 x 3,420 + 1,280, two norms 2 x 1,280:
// 4,919,040 + 1,639,680 + 13,140,920 + 2,560 = 19,702,200; x 32 = 630,470,400; patch_embed Conv3d 3 x 2 x 14 x 14 x
// 1,280 = 1,505,280 (no bias).
constexpr std::int64_t kQwen25Tower = 631'975'680;
// PatchMerger: ln_q 1,280 + Linear(5,120, 5,120) 26,219,520 + Linear(5,120, 3,584) 18,353,664.
constexpr std::int64_t kQwen25Projector = 44'574'464;
// Qwen2.5-7B, the language model (its published 7.61B): 7,615,616,512.
constexpr std::int64_t kQwen25Language = 7'615'616'512;

} // namespace

// smart_resize (image_processing_qwen2_vl.py @3553f0bc L76-102): sides rounded (half to even, Python's round) to
// multiples of 28, then scaled into [min_pixels, max_pixels]. 1024 x 768: 768 / 28 = 27.43 -> 27 x 28 = 756,
// 1024 / 28 = 36.57 -> 37 x 28 = 1,036; 54 x 74 = 3,996 patches, / 4 merged = 999 pad tokens + <|vision_start|> and
// <|vision_end|> = 1,001.
TEST(Vision, QwenVlResizesToMultiplesOf28AndMergesFourPatches) {
    const auto& v = model("qwen2.5-vl-7b").vision;
    const core::ImageTokens t = core::imageTokens(v, 1024, 768);
    EXPECT_EQ(t.width, 1036);
    EXPECT_EQ(t.height, 756);
    EXPECT_EQ(t.encoderTokens, 3996);
    EXPECT_EQ(t.languageTokens, 1001);
    // LLaMA-Factory's image_max_pixels 768 x 768 = 589,824: 4000 x 3000 rounds to 4,004 x 2,996, above it, so
    // beta = sqrt(12,000,000 / 589,824) = 4.5105; floor(3000 / 4.5105 / 28) = 23 -> 644, floor(4000 / 4.5105 / 28) =
    // 31 -> 868; 46 x 62 = 2,852 patches, 713 + 2 tokens.
    const core::ImageTokens capped = core::imageTokens(v, 4000, 3000, 768 * 768);
    EXPECT_EQ(capped.width, 868);
    EXPECT_EQ(capped.height, 644);
    EXPECT_EQ(capped.encoderTokens, 2852);
    EXPECT_EQ(capped.languageTokens, 715);
    // Below min_pixels 3,136: 40 x 30 rounds to 28 x 28 = 784, so beta = sqrt(3136 / 1200) = 1.6166;
    // ceil(30 x 1.6166 / 28) = 2 -> 56, ceil(40 x 1.6166 / 28) = 3 -> 84; 4 x 6 = 24 patches, 6 + 2 tokens.
    const core::ImageTokens small = core::imageTokens(v, 40, 30);
    EXPECT_EQ(small.width, 84);
    EXPECT_EQ(small.height, 56);
    EXPECT_EQ(small.languageTokens, 8);
    // Half to even: 70 / 28 = 2.5 -> 2 (not 3): 56 x 56, 16 patches, 4 + 2 tokens.
    EXPECT_EQ(core::imageTokens(v, 70, 56).width, 56);
    EXPECT_EQ(core::imageTokens(v, 70, 56).languageTokens, 6);
}

// Gemma 3: every image at 896 x 896, (896 / 14)^2 = 4,096 SigLIP patches pooled to mm_tokens_per_image 256; the
// processor writes "\n\n<start_of_image>" + 256 soft tokens + "<end_of_image>\n\n" (processing_gemma3.py L54-62):
// 260 tokens. LLaVA-1.5: (336 / 14)^2 = 576 patches + CLIP's class token = 577 in the encoder, 576 in the sequence.
TEST(Vision, FixedResolutionFamiliesGiveEveryImageTheSameTokens) {
    for (const auto& [w, h] : {std::pair{1024, 768}, std::pair{200, 4000}}) {
        const core::ImageTokens gemma = core::imageTokens(model("gemma-3-4b").vision, w, h);
        EXPECT_EQ(gemma.width, 896);
        EXPECT_EQ(gemma.encoderTokens, 4096);
        EXPECT_EQ(gemma.languageTokens, 260);
        const core::ImageTokens llava = core::imageTokens(model("llava-1.5-7b").vision, w, h);
        EXPECT_EQ(llava.encoderTokens, 577);
        EXPECT_EQ(llava.languageTokens, 576);
    }
}

// The whole model is the model card's count: 7,615,616,512 + 631,975,680 + 44,574,464 = 8,292,166,656 (8.29B).
TEST(Vision, EncoderAndProjectorParametersAddUpToThePublishedCounts) {
    const core::ParamCounts qwen = core::countParams(model("qwen2.5-vl-7b"));
    EXPECT_EQ(qwen.visionTower, kQwen25Tower);
    EXPECT_EQ(qwen.visionProjector, kQwen25Projector);
    EXPECT_EQ(qwen.total, kQwen25Language + kQwen25Tower + kQwen25Projector);
    EXPECT_EQ(qwen.activePerToken, kQwen25Language); // a text token passes the language model only
    // Gemma 3's SigLIP: per block two LayerNorms 4 x 1,152, q/k/v/out 4 x (1,152^2 + 1,152), fc1 1,152 x 4,304 + 4,304,
    // fc2 4,304 x 1,152 + 1,152 = 15,239,504; x 27 = 411,466,608; patch conv 3 x 14^2 x 1,152 + 1,152 = 678,528;
    // 4,096 positions x 1,152 = 4,718,592; post_layernorm 2,304: 416,866,032 (the Gemma 3 report's 417M encoder).
    const core::ParamCounts gemma = core::countParams(model("gemma-3-4b"));
    EXPECT_EQ(gemma.visionTower, 416'866'032);
    EXPECT_EQ(gemma.visionProjector, 1152 * 2560 + 1152); // mm_input_projection_weight and mm_soft_emb_norm
    // CLIP ViT-L/14-336: class 1,024 + patch conv 602,112 + 577 positions 590,848 + two LayerNorms 4,096 + 24 blocks of
    // 12,596,224 = 303,507,456; projector 1,024 x 4,096 + 4,096 + 4,096^2 + 4,096 = 20,979,712; with Llama-2-7B's
    // 6,738,415,616 + 64 more vocabulary rows x 4,096 x 2: 7,063,427,072 (llava-hf's 7.06B).
    const core::ParamCounts llava = core::countParams(model("llava-1.5-7b"));
    EXPECT_EQ(llava.visionTower, 303'507'456);
    EXPECT_EQ(llava.visionProjector, 20'979'712);
    EXPECT_EQ(llava.total, 7'063'427'072);
}

// Checkpointed (transformers' gradient_checkpointing_enable reaches Qwen2_5_VLVisionBlock, a
// GradientCheckpointingLayer): each block saves its input, 32 x 3,996 x 1,280 x 2 B = 327,352,320 B an image; the
// trained PatchMerger per patch ln_q's fp32 input 4 x 1,280 and three 2 B x 1,280 tensors (its first linear's input,
// output and GELU's output): 3,996 x 12,800 = 51,148,800 B. Two examples of two images: 4 x 378,501,120 = 1,514,004,480
// B.
TEST(Vision, ATrainedEncoderSavesItsBlocksForBackward) {
    core::Scenario s = qwenFull();
    const core::Estimate e = core::estimate(s);
    EXPECT_EQ(e.visionActivationBytes, 1'514'004'480);
    EXPECT_EQ(e.trainableParams, kQwen25Language + kQwen25Tower + kQwen25Projector);
    // Without checkpointing each block keeps per patch two fp32 norm inputs 2 x 4 x 1,280 = 10,240, three linear inputs
    // 3 x 2 x 1,280 = 7,680, q, k, v 3 x 2 x 1,280 + an fp32 log-sum-exp per head 4 x 16 = 7,744, and gate, up, SiLU
    // and the product 4 x 2 x 3,420 = 27,360: 53,024 B; x 32 x 3,996 = 6,780,284,928 B per image, plus the merger's.
    s.checkpointing = core::Checkpointing::None;
    const double perImage = 32.0 * 3996.0 * 53024.0 + 51'148'800.0;
    EXPECT_EQ(core::estimate(s).visionActivationBytes, static_cast<std::int64_t>(4.0 * perImage));
}

// Frozen (LLaMA-Factory's defaults): before transformers 5 no gradient reaches pixel_values, so neither part records
// an autograd graph, and only the language model trains. Under LoRA the adapters sit on the language model only.
// Since transformers 5, checkpointing hooks the vision model's patch_embed too (enable_input_require_grads over every
// PreTrainedModel, modeling_utils.py L2217-2250; Qwen2.5-VL's _input_embed_layer "patch_embed", L348 @251c2d4f): the
// frozen encoder's checkpointed blocks save their inputs and the merger in front of them its tensors, as an adapted
// encoder does, 4 images x (327,352,320 + 51,148,800) = 1,514,004,480 B; without checkpointing nothing is hooked.
TEST(Vision, AFrozenEncoderKeepsNothingAndTrainsNothing) {
    core::Scenario s = qwenFull();
    s.freezeVisionTower = true;
    s.freezeProjector = true;
    EXPECT_EQ(core::estimate(s).visionActivationBytes, 1'514'004'480);
    core::Scenario unhooked = s;
    unhooked.checkpointing = core::Checkpointing::None;
    EXPECT_EQ(core::estimate(unhooked).visionActivationBytes, 0);
    unhooked = s;
    unhooked.transformersVersion = core::TransformersVersion::V454To457; // the last 4.x: no hook yet
    EXPECT_EQ(core::estimate(unhooked).visionActivationBytes, 0);
    s.transformersVersion = core::TransformersVersion::UpTo445;
    const core::Estimate frozen = core::estimate(s);
    EXPECT_EQ(frozen.visionActivationBytes, 0);
    EXPECT_EQ(frozen.trainableParams, kQwen25Language);
    // The projector alone trains: it keeps its 51,148,800 B per image, and its 44,574,464 parameters train.
    s.freezeProjector = false;
    const core::Estimate projector = core::estimate(s);
    EXPECT_EQ(projector.visionActivationBytes, 4 * 51'148'800);
    EXPECT_EQ(projector.trainableParams, kQwen25Language + kQwen25Projector);
    s.method = core::Method::Lora;
    s.precision = core::Precision::Bf16;
    EXPECT_EQ(core::estimate(s).visionActivationBytes, 0);
    // The advisor offers the frozen pair for the trained run, with its saving.
    const core::Scenario trained = qwenFull(); // one card: 8.3B full fine-tuning does not fit an H100
    const core::GpuSpec& gpu = *catalog().findGpu("h100-sxm");
    const core::OomAdvice advice = core::adviseOom(trained, gpu);
    const auto step = std::find_if(advice.steps.begin(), advice.steps.end(),
                                   [](const auto& st) { return st.kind == core::FixKind::FreezeVisionTower; });
    ASSERT_NE(step, advice.steps.end());
    EXPECT_TRUE(step->applicable);
    EXPECT_GT(step->savingAlone, 0);
}

// LoRA on the image side (lora.vision_targets; docs/design/vision-lora.md), rank 16, r x (in + out) per linear.
// Qwen2.5-VL-7B's 32 blocks: qkv 16 x (1,280 + 3,840) = 81,920, proj 16 x 2,560 = 40,960, gate, up and down
// 3 x 16 x (1,280 + 3,420) = 225,600: 348,480 a block, 11,151,360 in all. The merger: mlp.0 16 x (5,120 + 5,120) =
// 163,840 and mlp.2 16 x (5,120 + 3,584) = 139,264: 303,104. An adapted encoder saves what a trained one does (with
// full checkpointing each block's input, 32 x 3,996 x 2 x 1,280 = 327,352,320 B per image) and the frozen merger's
// 51,148,800 B in front of it: 4 images x 378,501,120 = 1,514,004,480 B. On transformers 4.x a frozen encoder keeps
// nothing; since transformers 5 checkpointing hooks its patch_embed and it saves the same as an adapted one.
TEST(Vision, AdaptersOnTheEncoderAndProjectorTrainAndSaveItsActivations) {
    core::Scenario s = qwenFull();
    s.method = core::Method::Lora;
    s.precision = core::Precision::Bf16;
    s.lora.rank = 16;
    core::Scenario hooked = s;
    EXPECT_EQ(core::estimate(hooked).visionActivationBytes, 1'514'004'480);
    s.transformersVersion = core::TransformersVersion::UpTo445;
    const core::Estimate languageOnly = core::estimate(s);
    EXPECT_EQ(languageOnly.visionActivationBytes, 0);
    s.lora.visionTargets = core::VisionAdapterTargets::Encoder;
    const core::Estimate encoder = core::estimate(s);
    EXPECT_EQ(encoder.trainableParams - languageOnly.trainableParams, 11'151'360);
    EXPECT_EQ(encoder.visionActivationBytes, 1'514'004'480);
    s.lora.visionTargets = core::VisionAdapterTargets::EncoderAndProjector;
    const core::Estimate both = core::estimate(s);
    EXPECT_EQ(both.trainableParams - languageOnly.trainableParams, 11'151'360 + 303'104);
    EXPECT_EQ(both.visionActivationBytes, 1'514'004'480);
    // The step: the encoder forward, recomputed and back (input gradients only: 3 passes), the merger forward and back
    // (2), over the sequence's 4,096 tokens, 2 images each.
    const core::ImageTokens image = core::imageTokens(s.model.vision, 1024, 768);
    const core::VisionFlops f = core::visionForwardFlops(s.model.vision, s.model.hiddenSize, image);
    core::Scenario text = s;
    text.imagesPerSample = 0;
    EXPECT_NEAR(core::trainingFlopsPerToken(s) - core::trainingFlopsPerToken(text),
                2.0 * (3.0 * f.tower + 2.0 * f.projector) / 4096.0, 1.0);
    // The advisor offers the language model's adapters alone, saving at least the image side's activations.
    const core::OomAdvice advice = core::adviseOom(s, *catalog().findGpu("rtx-4090"));
    const auto step = std::find_if(advice.steps.begin(), advice.steps.end(),
                                   [](const auto& st) { return st.kind == core::FixKind::FreezeVisionTower; });
    ASSERT_NE(step, advice.steps.end());
    EXPECT_TRUE(step->applicable);
    EXPECT_EQ(step->scenarioAlone.lora.visionTargets, core::VisionAdapterTargets::None);
    EXPECT_GE(step->savingAlone, 1'514'004'480);
    // Full fine-tuning ignores the adapter setting.
    s.method = core::Method::Full;
    s.freezeVisionTower = true;
    s.freezeProjector = true;
    EXPECT_EQ(core::estimate(s).visionActivationBytes, 0);
}

// Gemma 3-4B's SigLIP: 27 blocks of q, k, v, out 4 x 16 x (1,152 + 1,152) = 147,456 and fc1, fc2 2 x 16 x (1,152 +
// 4,304) = 174,592: 322,048 a block, 8,695,296 in all; its projector is a bare weight, which no target reaches.
TEST(Vision, GemmaThreesProjectorIsNotALinearAndTakesNoAdapter) {
    core::Scenario s;
    s.model = model("gemma-3-4b");
    s.method = core::Method::Lora;
    s.lora.rank = 16;
    s.seqLen = 2048;
    s.imagesPerSample = 1;
    const std::int64_t languageOnly = core::estimate(s).trainableParams;
    s.lora.visionTargets = core::VisionAdapterTargets::EncoderAndProjector;
    EXPECT_EQ(core::estimate(s).trainableParams - languageOnly, 8'695'296);
    s.lora.visionTargets = core::VisionAdapterTargets::Encoder;
    EXPECT_EQ(core::estimate(s).trainableParams - languageOnly, 8'695'296);
}

// PEFT's all-linear reaches the image side (tuners_utils.py L2382-2442 @5d602fdb); LLaMA-Factory's all does not, unless
// freeze_vision_tower is false, and then the encoder only (model_utils/misc.py L28-52 @ff6d4d12). The field is saved
// with the scenario of a vision-language model.
TEST(Vision, ImportersSayWhereTheAdaptersReach) {
    const core::ConfigFile config{"config.json", nlohmann::json(core::archToHfConfig(model("qwen2.5-vl-7b"))).dump(),
                                  std::nullopt};
    const auto lfRun = [&](const std::string& extra) {
        core::ImportRequest lf;
        lf.files.push_back({"vlm.yaml",
                            "model_name_or_path: Qwen/Qwen2.5-VL-7B-Instruct\nstage: sft\nfinetuning_type: lora\n"
                            "lora_target: all\ntemplate: qwen2_vl\ncutoff_len: 4096\n" +
                                extra,
                            core::ConfigFormat::LlamaFactory});
        lf.modelConfig = config;
        return core::importTrainingConfigs(lf, catalog());
    };
    const auto frozen = lfRun("");
    ASSERT_TRUE(frozen.has_value()) << frozen.error().where << ": " << frozen.error().message();
    EXPECT_EQ(frozen->scenario.lora.visionTargets, core::VisionAdapterTargets::None);
    const auto unfrozen = lfRun("freeze_vision_tower: false\n");
    ASSERT_TRUE(unfrozen.has_value()) << unfrozen.error().where << ": " << unfrozen.error().message();
    EXPECT_EQ(unfrozen->scenario.lora.visionTargets, core::VisionAdapterTargets::Encoder);
    // A list of names matches module names by substring (patch_target_modules): q_proj and v_proj are not Qwen-VL's
    // fused qkv; the encoder stays without adapters.
    const auto listed = lfRun("freeze_vision_tower: false\nlora_target: q_proj,v_proj\n");
    ASSERT_TRUE(listed.has_value()) << listed.error().where << ": " << listed.error().message();
    EXPECT_EQ(listed->scenario.lora.visionTargets, core::VisionAdapterTargets::None);

    core::ImportRequest peft;
    peft.files.push_back({"adapter_config.json",
                          R"({"peft_type": "LORA", "r": 16, "lora_alpha": 32, "target_modules": "all-linear"})",
                          core::ConfigFormat::PeftAdapter});
    peft.modelConfig = config;
    const auto adapter = core::importTrainingConfigs(peft, catalog());
    ASSERT_TRUE(adapter.has_value()) << adapter.error().where << ": " << adapter.error().message();
    EXPECT_EQ(adapter->scenario.lora.visionTargets, core::VisionAdapterTargets::EncoderAndProjector);
    // exclude_modules naming the vision model (verl's and TRL's VLM recipes: ".*visual.*") or the projector takes
    // that part back out.
    const auto excluding = [&](const std::string& exclude) {
        core::ImportRequest req = peft;
        req.files.front().bytes =
            R"({"peft_type": "LORA", "r": 16, "target_modules": "all-linear", "exclude_modules": )" + exclude + "}";
        return core::importTrainingConfigs(req, catalog());
    };
    const auto noVisual = excluding(R"(".*visual.*")");
    ASSERT_TRUE(noVisual.has_value()) << noVisual.error().where << ": " << noVisual.error().message();
    EXPECT_EQ(noVisual->scenario.lora.visionTargets, core::VisionAdapterTargets::None);
    const auto noMerger = excluding(R"(["merger"])");
    ASSERT_TRUE(noMerger.has_value()) << noMerger.error().where << ": " << noMerger.error().message();
    EXPECT_EQ(noMerger->scenario.lora.visionTargets, core::VisionAdapterTargets::Encoder);
    const auto saved = nlohmann::json::parse(core::scenarioToJson(adapter->scenario));
    EXPECT_EQ(saved["lora"]["vision_targets"], "encoder+projector");
    const auto back = core::parseScenario(saved.dump(), "saved.json", catalog());
    ASSERT_TRUE(back.has_value()) << back.error().message();
    EXPECT_EQ(back->scenario.lora.visionTargets, core::VisionAdapterTargets::EncoderAndProjector);
}

// bitsandbytes replaces every nn.Linear but lm_head (quantizers/base.py get_modules_to_not_convert @3553f0bc): the
// encoder's 32 x (4 x 1,280^2 + 3 x 1,280 x 3,420) = 629,964,800 and the merger's 5,120^2 + 5,120 x 3,584 =
// 44,564,480 linear weights go to NF4 with double-quantized constants (0.5 + 1/64 + 4/16,384 B each); the convolution,
// biases and norms (676,550,144 - 674,529,280 = 2,020,864) stay in the precision's non-quantized bytes.
TEST(Vision, QloraQuantizesTheEncodersLinearsToo) {
    core::Scenario vlm = qwenFull();
    vlm.method = core::Method::Qlora;
    vlm.precision = core::Precision::Bf16;
    core::Scenario text = vlm;
    text.model.vision = {};
    text.imagesPerSample = 0;
    const double restB = core::profileFor(vlm).kbitUpcastsNonQuantized ? 4.0 : 2.0;
    const double expected = 674'529'280.0 * (0.5 + 1.0 / 64.0 + 4.0 / 16384.0) + 2'020'864.0 * restB;
    const double delta = static_cast<double>(core::estimate(vlm).perGpu[Component::Weights] -
                                             core::estimate(text).perGpu[Component::Weights]);
    EXPECT_NEAR(delta, expected, 2.0);
}

// The encoder's forward per image: 3,996 patches x (2 x (629,964,800 linear + 1,505,280 convolution weights) +
// 4 x 1,280 x (4 full-attention blocks x 3,996 + 28 windowed blocks x 8^2 patches)); the merger 2 x 44,564,480 x 999
// merged tokens. Trained and checkpointed: 4 passes of the encoder, 3 of the merger, over the sequence's 4,096 tokens.
TEST(Vision, TheEncodersWorkIsPartOfTheStep) {
    const core::Scenario s = qwenFull();
    const core::ImageTokens image = core::imageTokens(s.model.vision, 1024, 768);
    const core::VisionFlops f = core::visionForwardFlops(s.model.vision, s.model.hiddenSize, image);
    const double tower = 3996.0 * (2.0 * (629'964'800.0 + 1'505'280.0) + 4.0 * 1280.0 * (4.0 * 3996.0 + 28.0 * 64.0));
    EXPECT_DOUBLE_EQ(f.tower, tower);
    EXPECT_DOUBLE_EQ(f.projector, 2.0 * 44'564'480.0 * 999.0);
    core::Scenario text = s;
    text.imagesPerSample = 0;
    EXPECT_NEAR(core::trainingFlopsPerToken(s) - core::trainingFlopsPerToken(text),
                2.0 * (4.0 * f.tower + 3.0 * f.projector) / 4096.0, 1.0);
}

// Images are part of the sequence: 5 images x 1,001 tokens = 5,005 do not fit in 4,096.
TEST(Vision, ImagesThatOverflowTheSequenceAreRefusedByName) {
    core::Scenario s = qwenFull();
    s.imagesPerSample = 5;
    const auto e = core::validate(s);
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().where, "images_per_sample");
    EXPECT_NE(e.error().message().find("5005"), std::string::npos) << e.error().message();
}

// A Qwen2-VL config.json as released (embed_dim + mlp_ratio, LayerNorm, QuickGELU): 32 blocks of linears
// 4 x 1,280^2 + 2 x 1,280 x 5,120 = 19,660,800, biases 4 x 1,280 + 5,120 + 1,280 = 11,520, two LayerNorms 5,120:
// 19,677,440 x 32 + 1,505,280 = 631,183,360; merger with a LayerNorm ln_q 2,560 + 26,219,520 + 18,353,664 =
// 44,575,744. With Qwen2-7B: 8,291,375,616 (the model card's 8.29B). A saved scenario reopens the same shape.
TEST(Vision, QwenVlConfigImportsAndSavesItsEncoder) {
    const std::string config = R"({"architectures": ["Qwen2VLForConditionalGeneration"], "model_type": "qwen2_vl",
        "hidden_size": 3584, "intermediate_size": 18944, "num_attention_heads": 28, "num_hidden_layers": 28,
        "num_key_value_heads": 4, "vocab_size": 152064, "tie_word_embeddings": false,
        "vision_config": {"depth": 32, "embed_dim": 1280, "mlp_ratio": 4, "num_heads": 16, "in_chans": 3,
                          "hidden_size": 3584, "patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2}})";
    const auto imported = core::importHfConfig(config, "config.json");
    ASSERT_TRUE(imported.has_value()) << imported.error().message();
    EXPECT_TRUE(imported->warnings.empty());
    const core::ParamCounts p = core::countParams(imported->arch);
    EXPECT_EQ(p.visionTower, 631'183'360);
    EXPECT_EQ(p.visionProjector, 44'575'744);
    EXPECT_EQ(p.total, 8'291'375'616);

    core::Scenario s;
    s.model = imported->arch;
    s.imagesPerSample = 3;
    s.freezeVisionTower = true;
    s.seqLen = 4096;
    const auto reopened = core::parseScenario(core::scenarioToJson(s), "saved.json", catalog());
    ASSERT_TRUE(reopened.has_value()) << reopened.error().message();
    EXPECT_EQ(core::countParams(reopened->scenario.model).total, 8'291'375'616);
    EXPECT_EQ(reopened->scenario.imagesPerSample, 3);
    EXPECT_TRUE(reopened->scenario.freezeVisionTower);
    EXPECT_EQ(core::estimate(reopened->scenario).deviceBytes, core::estimate(s).deviceBytes);
    // A text model's file carries none of the image fields.
    core::Scenario text;
    text.model = model("qwen2.5-7b");
    EXPECT_EQ(core::scenarioToJson(text).find("images_per_sample"), std::string::npos);
}

// A multimodal family this tool does not model imports its language model and says what is missing.
TEST(Vision, AnUnmodelledEncoderIsNamedNotSizedSilently) {
    const std::string config = R"({"model_type": "idefics3", "text_config": {"model_type": "llama",
        "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32, "num_hidden_layers": 40,
        "num_key_value_heads": 8, "vocab_size": 128256}, "vision_config": {"hidden_size": 1152}})";
    const auto imported = core::importHfConfig(config, "config.json");
    ASSERT_TRUE(imported.has_value()) << imported.error().message();
    EXPECT_FALSE(imported->arch.vision.present());
    const bool named = std::any_of(imported->warnings.begin(), imported->warnings.end(),
                                   [](const core::Warning& w) { return w.code == "vision_not_modelled"; });
    EXPECT_TRUE(named);
}

// LLaMA-Factory freezes both parts and caps images at 768 x 768 pixels unless told otherwise (finetuning_args.py
// L546-557, model_args.py L305-316 @ff6d4d12); Axolotl's freeze_mm_modules freezes both; unset, nothing is frozen.
TEST(Vision, ImportersCarryTheFreezingSwitches) {
    core::ImportRequest lf;
    lf.files.push_back({"vlm.yaml",
                        "model_name_or_path: Qwen/Qwen2.5-VL-7B-Instruct\nstage: sft\nfinetuning_type: full\n"
                        "template: qwen2_vl\nfreeze_multi_modal_projector: false\ncutoff_len: 4096\n",
                        core::ConfigFormat::LlamaFactory});
    lf.modelConfig = core::ConfigFile{
        "config.json", nlohmann::json(core::archToHfConfig(model("qwen2.5-vl-7b"))).dump(), std::nullopt};
    const auto run = core::importTrainingConfigs(lf, catalog());
    ASSERT_TRUE(run.has_value()) << run.error().where << ": " << run.error().message();
    EXPECT_TRUE(run->scenario.freezeVisionTower);
    EXPECT_FALSE(run->scenario.freezeProjector);
    EXPECT_EQ(run->scenario.imageMaxPixels, 768 * 768);

    core::ImportRequest ax;
    ax.files.push_back({"axolotl.yaml",
                        "base_model: Qwen/Qwen2.5-VL-7B-Instruct\nfreeze_mm_modules: true\nsequence_len: 4096\n"
                        "micro_batch_size: 1\n",
                        core::ConfigFormat::Axolotl});
    ax.modelConfig = lf.modelConfig;
    const auto axolotl = core::importTrainingConfigs(ax, catalog());
    ASSERT_TRUE(axolotl.has_value()) << axolotl.error().where << ": " << axolotl.error().message();
    EXPECT_TRUE(axolotl->scenario.freezeVisionTower);
    EXPECT_TRUE(axolotl->scenario.freezeProjector);
}

// llava-hf/llava-1.5-7b-hf's config.json as released states only what differs from LlamaConfig in its text_config;
// transformers fills the rest from LlamaConfig's defaults (4,096 wide, 11,008 MLP, 32 layers of 32 heads), and so does
// the import, saying so: 7,063,427,072 parameters as in the catalog entry.
TEST(Vision, LlavaHfConfigTakesLlamaDefaultsForWhatItLeavesOut) {
    const std::string config = R"({"architectures": ["LlavaForConditionalGeneration"], "image_token_index": 32000,
        "model_type": "llava", "projector_hidden_act": "gelu",
        "text_config": {"_name_or_path": "lmsys/vicuna-7b-v1.5", "architectures": ["LlamaForCausalLM"],
                        "max_position_embeddings": 4096, "model_type": "llama", "rms_norm_eps": 1e-05,
                        "torch_dtype": "float16", "vocab_size": 32064},
        "tie_word_embeddings": false, "torch_dtype": "float16",
        "vision_config": {"hidden_size": 1024, "image_size": 336, "intermediate_size": 4096,
                          "model_type": "clip_vision_model", "num_attention_heads": 16, "num_hidden_layers": 24,
                          "patch_size": 14, "projection_dim": 768, "vocab_size": 32000},
        "vision_feature_layer": -2, "vision_feature_select_strategy": "default", "vocab_size": 32064})";
    const auto imported = core::importHfConfig(config, "config.json");
    ASSERT_TRUE(imported.has_value()) << imported.error().where << ": " << imported.error().message();
    EXPECT_EQ(core::countParams(imported->arch).total, 7'063'427'072);
    ASSERT_EQ(imported->warnings.size(), 1u);
    EXPECT_EQ(imported->warnings[0].code, "text_config_defaults");
    EXPECT_NE(imported->warnings[0].message().find("hidden_size"), std::string::npos);
}

// LLaVA-NeXT's anyres (processing_llava_next.py L92-132, image_processing_utils.py select_best_resolution L633-668
// @251c2d4f), with llava-v1.6's canvases (h, w) 336 x 672, 672 x 336, 672 x 672, 1008 x 336, 336 x 1008 and CLIP's
// 24 x 24 patches of a 336 crop.
//   1024 x 768 (w x h): the canvases keep 448 x 336 = 150,528, 336 x 252 = 84,672, 672 x 504 = 338,688, 84,672 and
//     150,528 pixels: 672 x 672, 2 x 2 crops, a 48 x 48 grid. The image (4:3) is wider than the grid, so its height is
//     cut to int(768 x 48 / 1024) = 36 (padding (48 - 36) / 2 = 6 rows each side): 36 x 48 = 1,728 + 36 newlines +
//     the whole image's 576 = 2,340 tokens; the encoder runs 2 x 2 + 1 crops of 577: 2,885.
//   300 x 1000: 1008 x 336 keeps 302 x 1008 > 300,000 = the whole image (the others 33,600 or 135,072): 3 x 1 crops,
//     a 72 x 24 grid; the image (0.3) is narrower, so its width is cut to int(300 x 72 / 1000) = 21 and padding
//     (24 - 21) / 2 = 1 column each side leaves 22: 72 x 22 = 1,584 + 72 + 576 = 2,232; the encoder 4 x 577 = 2,308.
// Parameters: Mistral-7B with 32,064 vocabulary rows 7,242,256,384, CLIP 303,507,456, the projector 20,979,712 and
// image_newline 4,096: 7,566,747,648 (the model card's 7.57B).
TEST(Vision, LlavaNextCutsItsCanvasIntoCropsAndUnpadsTheirGrid) {
    const core::VisionShape& v = model("llava-v1.6-mistral-7b").vision;
    ASSERT_EQ(v.gridPinpoints.size(), 5u);
    const core::ImageTokens wide = core::imageTokens(v, 1024, 768);
    EXPECT_EQ(wide.width, 672);
    EXPECT_EQ(wide.height, 672);
    EXPECT_EQ(wide.languageTokens, 2340);
    EXPECT_EQ(wide.encoderTokens, 2885);
    EXPECT_EQ(core::imageTokens(v, 640, 480).languageTokens, 2340); // the same canvas and aspect
    const core::ImageTokens tall = core::imageTokens(v, 300, 1000);
    EXPECT_EQ(tall.height, 1008);
    EXPECT_EQ(tall.width, 336);
    EXPECT_EQ(tall.languageTokens, 2232);
    EXPECT_EQ(tall.encoderTokens, 2308);
    const core::ParamCounts p = core::countParams(model("llava-v1.6-mistral-7b"));
    EXPECT_EQ(p.visionTower, 303'507'456);
    EXPECT_EQ(p.visionProjector, 20'979'712 + 4096);
    EXPECT_EQ(p.total, 7'566'747'648);
    // The crops are CLIP's own sequences: attention spans 577 tokens, not the 2,885 of the whole image. Forward, per
    // crop token, 2 x the linear weights (24 x 4 x 1,024^2 + 24 x 2 x 1,024 x 4,096 = 301,989,888) + the patch conv
    // 602,112, and 4 x 1,024 x 24 x 577 for the scores and the weighted sum.
    const core::VisionFlops flops = core::visionForwardFlops(v, 4096, wide);
    EXPECT_DOUBLE_EQ(flops.tower, 2885.0 * (2.0 * (301'989'888.0 + 602'112.0) + 4.0 * 1024.0 * 24.0 * 577.0));
    // The projector runs over every crop's patches before the unpadding: 5 x 576 tokens.
    EXPECT_DOUBLE_EQ(flops.projector, 2.0 * (1024.0 * 4096.0 + 4096.0 * 4096.0) * 5.0 * 576.0);
}

// A saved LLaVA-NeXT scenario keeps its canvases; a config with a malformed list is refused by name.
TEST(Vision, LlavaNextCanvasesSaveAndBadOnesAreRefused) {
    core::Scenario s;
    s.model = model("llava-v1.6-mistral-7b");
    s.imagesPerSample = 1;
    s.imageWidth = 1024;
    s.imageHeight = 768;
    s.seqLen = 4096;
    const auto reopened = core::parseScenario(core::scenarioToJson(s), "saved.json", catalog());
    ASSERT_TRUE(reopened.has_value()) << reopened.error().where << ": " << reopened.error().message();
    EXPECT_EQ(reopened->scenario.model.vision.gridPinpoints, s.model.vision.gridPinpoints);
    EXPECT_EQ(core::imageTokensPerExample(reopened->scenario), 2340);
    const auto bad = core::importHfConfig(
        R"({"model_type": "llava_next", "image_grid_pinpoints": [[336, 672], [672]],
            "text_config": {"model_type": "mistral", "hidden_size": 4096, "num_hidden_layers": 32,
                            "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
                            "vocab_size": 32064},
            "vision_config": {"hidden_size": 1024, "intermediate_size": 4096, "num_hidden_layers": 24,
                              "num_attention_heads": 16, "patch_size": 14, "image_size": 336}})",
        "config.json");
    ASSERT_FALSE(bad.has_value());
    EXPECT_NE(bad.error().where.find("image_grid_pinpoints"), std::string::npos) << bad.error().where;
}

// Qwen3-VL (modeling_qwen3_vl.py @d6a6c826): 16-pixel patches merged 2 x 2, so sides are multiples of 32; 1024 x 768
// stays 1024 x 768, 64 x 48 = 3,072 patches, 768 pad tokens + 2 markers. Its encoder: patch Conv3d 3 x 2 x 16^2 x
// 1,152 + a 1,152 bias = 1,770,624, a 2,304 x 1,152 position grid = 2,654,208, 27 SigLIP-style blocks of fused qkv
// 1,152 x 3,456 + 3,456, proj 1,152^2 + 1,152, fc1/fc2 1,152 x 4,304 (+ 4,304, + 1,152) and two LayerNorms 4,608 =
// 15,239,504 each: 415,891,440. Mergers: the last block's (LayerNorm 2,304 before the regroup) and three deepstack
// ones (LayerNorm 9,216 after it), each with 4,608^2 + 4,608 and 4,608 x 4,096 + 4,096: 40,119,040 + 3 x 40,125,952
// = 160,496,896.
TEST(Vision, Qwen3VlMerges32PixelSquaresAndRunsDeepstackMergers) {
    const core::ModelArch& arch = model("qwen3-vl-8b");
    const core::ImageTokens t = core::imageTokens(arch.vision, 1024, 768);
    EXPECT_EQ(t.width, 1024);
    EXPECT_EQ(t.height, 768);
    EXPECT_EQ(t.encoderTokens, 3072);
    EXPECT_EQ(t.languageTokens, 770);
    const core::ParamCounts p = core::countParams(arch);
    EXPECT_EQ(p.visionTower, 415'891'440);
    EXPECT_EQ(p.visionProjector, 160'496'896);
    // Its tanh GELU saves fc1's output and the activation's (no QuickGELU sigmoid): per patch and block 2 x 2 B x
    // 1,152 x 2 LayerNorm inputs + 3 linear inputs + q, k, v (6 x 2 B x 1,152) + 16 fp32 log-sum-exps + 2 x 2 B x
    // 4,304: 4,608 + 13,824 + 64 + 17,216 = 35,712 B; x 27 blocks x 3,072 patches; the four mergers 4 x 3,072 x (2 + 6)
    // x 1,152.
    core::Scenario s;
    s.model = arch;
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16;
    s.microBatch = 1;
    s.seqLen = 2048;
    s.imagesPerSample = 1;
    s.checkpointing = core::Checkpointing::None;
    const double expected = 27.0 * 3072.0 * 35712.0 + 4.0 * 3072.0 * 8.0 * 1152.0;
    EXPECT_EQ(core::estimate(s).visionActivationBytes, static_cast<std::int64_t>(expected));
}

// Sizes no encoder has are refused by name, before any count could overflow: an mlp_ratio of 0, and a saved encoder
// 10,000,000 wide (the limit is 65,536).
TEST(Vision, ImpossibleEncoderSizesAreRefusedByName) {
    const std::string zeroRatio = R"({"model_type": "qwen2_vl", "hidden_size": 3584, "intermediate_size": 18944,
        "num_attention_heads": 28, "num_hidden_layers": 28, "num_key_value_heads": 4, "vocab_size": 152064,
        "vision_config": {"depth": 32, "embed_dim": 1280, "mlp_ratio": 0, "num_heads": 16}})";
    const auto refused = core::importHfConfig(zeroRatio, "config.json");
    ASSERT_FALSE(refused.has_value());
    EXPECT_NE(refused.error().where.find("mlp_ratio"), std::string::npos) << refused.error().where;
    nlohmann::json cfg = core::archToHfConfig(model("llava-1.5-7b"));
    cfg["vision_config"]["hidden_size"] = 10'000'000;
    const auto wide = core::importHfConfig(cfg.dump(), "saved.json");
    ASSERT_FALSE(wide.has_value());
    EXPECT_NE(wide.error().where.find("vision_config.hidden_size"), std::string::npos) << wide.error().where;
}

// Under pipeline parallelism the encoder runs on the first stage only, where 1F1B keeps pp micro-batches in flight.
// Without checkpointing the first of two stages (2 micro-batches of 14 layers' full tensors) outweighs the last's
// logits, and it holds 2 x 4 images x (32 x 3,996 x 53,024 + 51,148,800) B of encoder tensors; with checkpointing the
// last stage (13.9 GiB of logits) is the larger, and it holds none.
TEST(Vision, ThePipelinesFirstStageHoldsTheEncoder) {
    for (const auto checkpointing : {core::Checkpointing::None, core::Checkpointing::Full}) {
        core::Scenario s = qwenFull();
        s.gpus = 2;
        s.pipelineParallel = 2;
        s.checkpointing = checkpointing;
        core::Scenario text = s;
        text.imagesPerSample = 0;
        const core::Estimate e = core::estimate(s);
        const std::int64_t delta = e.activationBytesAtLoss - core::estimate(text).activationBytesAtLoss;
        if (checkpointing == core::Checkpointing::None) {
            EXPECT_EQ(e.logitsBytesAtLoss, 0); // the first stage: no logits there
            EXPECT_EQ(delta, static_cast<std::int64_t>(2.0 * 4.0 * (32.0 * 3996.0 * 53024.0 + 51'148'800.0)));
        } else {
            EXPECT_GT(e.logitsBytesAtLoss, 0); // the last stage
            EXPECT_EQ(delta, 0);
        }
    }
}
