#include "gpusizer/scenario/ModelArch.h"

#include "TestModels.h"

#include <gtest/gtest.h>

using namespace gpusizer;

TEST(ModelArch, Llama2_7bCountMatchesTheCheckpointExactly) {
    // embeddings 32000*4096 = 131,072,000, and the same again for the untied lm_head
    // per layer: attention 4*4096^2 = 67,108,864; MLP 3*4096*11008 = 135,266,304; norms 2*4096 = 8,192
    // 32 layers * 202,383,360 = 6,476,267,520; final norm 4,096
    // total 262,144,000 + 6,476,267,520 + 4,096 = 6,738,415,616 (the checkpoint's published count)
    const auto p = core::countParams(fixtures::llama2_7b());
    EXPECT_EQ(p.embedding, 131'072'000);
    EXPECT_EQ(p.lmHead, 131'072'000);
    EXPECT_EQ(p.total, 6'738'415'616);
}

// Qwen3Attention's q_norm and k_norm are RMSNorms over head_dim, one 128-weight vector each per layer
// (modeling_qwen3.py: "unlike olmo, only on the head dim!"). Qwen3-8B: embeddings 151936 x 4096 = 622,329,856, twice
// (untied); per layer q, o 4096^2 = 16,777,216 each, k, v 4096 x 1024 = 4,194,304 each, MLP 3 x 4096 x 12288 =
// 150,994,944, norms 2 x 4096 = 8,192, q/k norms 2 x 128 = 256: 192,946,432; x 36 = 6,946,071,552; final norm 4,096:
// 8,190,735,360 (Qwen3-8B's 8.19B).
TEST(ModelArch, QwenThreesQueryAndKeyNormsAreOneHeadDimEach) {
    core::ModelArch qwen = fixtures::qwen3_8b();
    EXPECT_EQ(core::countParams(qwen).total, 8'190'735'360);
    qwen.qkNorm = core::QkNorm::None;
    EXPECT_EQ(core::countParams(qwen).total, 8'190'735'360 - 36 * 256);
    // OLMo 2's norms run over the whole projections (modeling_olmo2.py:231-232): q 32 x 128, k 32 x 128 (OLMo-2-7B is
    // multi-head): 8,192 weights a layer. OLMo-2-7B: embeddings 100352 x 4096 = 411,041,792, twice; per layer
    // attention 4 x 4096^2 = 67,108,864, MLP 3 x 4096 x 11008 = 135,266,304, norms 8,192, q/k norms 8,192 =
    // 202,391,552; x 32 = 6,476,529,664; final norm 4,096: 7,298,617,344 (OLMo-2-7B's 7.30B).
    core::ModelArch olmo = fixtures::llama2_7b();
    olmo.vocabSize = 100352;
    olmo.qkNorm = core::QkNorm::Projection;
    EXPECT_EQ(core::countParams(olmo).total, 7'298'617'344);
}

TEST(ModelArch, GroupedQueryAttentionShrinksKeyAndValue) {
    // Llama-3.1-8B: q,o 4096x4096; k,v 4096x(8*128) = 4096x1024
    // attention per layer 2*16,777,216 + 2*4,194,304 = 41,943,040; MLP 3*4096*14336 = 176,160,768
    // 32 * (41,943,040 + 176,160,768 + 8,192) = 6,979,584,000
    // + 2 * 128256*4096 (untied) = 1,050,673,152 + final norm 4,096 = 8,030,261,248 (published 8.03B)
    EXPECT_EQ(core::countParams(fixtures::llama31_8b()).total, 8'030'261'248);
}

TEST(ModelArch, TiedEmbeddingsAreCountedOnce) {
    // Llama-3.2-3B: 128256*3072 = 394,002,432 once
    // per layer: q,o 3072^2 = 9,437,184 each; k,v 3072*1024 = 3,145,728 each; MLP 3*3072*8192 = 75,497,472
    // norms 6,144 -> 100,669,440 per layer; 28 layers = 2,818,744,320; + 3,072 final norm
    // total 3,212,749,824 (published 3.21B)
    const auto p = core::countParams(fixtures::llama32_3b());
    EXPECT_EQ(p.lmHead, 0);
    EXPECT_EQ(p.total, 3'212'749'824);
}

TEST(ModelArch, MixtureOfExpertsCountsAllExpertsButActivatesTwo) {
    // Mixtral-8x7B: Mistral-7B shape with 8 experts, 2 per token.
    core::ModelArch a = fixtures::llama31_8b();
    a.vocabSize = 32000;
    a.moe.numExperts = 8;
    a.moe.expertsPerToken = 2;
    // per layer: attention 41,943,040; experts 8 * 176,160,768 = 1,409,286,144; router 8*4096 = 32,768; norms 8,192
    // 32 layers: 32 * 1,451,270,144 = 46,440,644,608; embeddings 2*131,072,000 = 262,144,000; final norm 4,096
    // total 46,702,792,704 (published 46.7B)
    const auto p = core::countParams(a);
    EXPECT_EQ(p.total, 46'702'792'704);
    // active: 6 of the 8 experts' weights are skipped: 32*6*176,160,768 = 33,822,867,456;
    // 46,702,792,704 - 33,822,867,456 = 12,879,925,248 (published: 12.9B active)
    EXPECT_EQ(p.activePerToken, 12'879'925'248);
}

TEST(ModelArch, QkvBiasAddsOnePerOutputFeature) {
    // Qwen2.5-7B: h 3584, 28 heads of 128, 4 kv heads, f 18944, V 152064, untied, biases on q/k/v.
    core::ModelArch a;
    a.hiddenSize = 3584;
    a.numLayers = 28;
    a.numHeads = 28;
    a.numKvHeads = 4;
    a.intermediateSize = 18944;
    a.vocabSize = 152064;
    a.qkvBias = true;
    // per layer: q,o 3584^2 = 12,845,056 each; k,v 3584*512 = 1,835,008 each; biases 3584 + 2*512 = 4,608
    // MLP 3*3584*18944 = 203,685,888; norms 7,168 -> 233,057,792 per layer; 28 layers = 6,525,618,176
    // embeddings 2*152064*3584 = 1,089,994,752; final norm 3,584 -> 7,615,616,512 (published 7.62B)
    EXPECT_EQ(core::countParams(a).total, 7'615'616'512);
}

TEST(ModelArch, SizeOnlyModelLandsNearTheRequestedSize) {
    for (double billions : {0.1, 0.5, 1.0, 3.0, 7.0, 13.0, 34.0, 70.0, 180.0, 405.0, 1000.0}) {
        const auto a = core::archFromParamCount(billions);
        EXPECT_TRUE(a.sizeDerived);
        const double got = static_cast<double>(core::countParams(a).total) / 1e9;
        // One layer is the rounding unit: within 5% of the request (or one layer's worth for tiny models).
        EXPECT_NEAR(got, billions, std::max(0.05 * billions, 0.03)) << billions << "B";
    }
}
