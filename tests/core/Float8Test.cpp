// float8 training (torchao @36027d82: float8/float8_linear.py matmul_with_hp_or_float8_args, float8/fsdp_utils.py,
// float8/config.py), derived by hand on Llama-2-7B (h 4096, f 11008, 32 layers).
#include "TestModels.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Advisor.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/plan/Planning.h"

#include <gtest/gtest.h>

using namespace gpusizer;

namespace {

core::Scenario float8Run(core::Float8 recipe) {
    core::Scenario s;
    s.model = fixtures::llama2_7b();
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16;
    s.float8 = recipe;
    s.checkpointing = core::Checkpointing::None;
    s.attention = core::Attention::Sdpa;
    s.microBatch = 1;
    s.seqLen = 512;
    return s;
}

const core::Catalog& catalog() {
    static const core::Catalog c = catalogs::loadCatalogs().catalog;
    return c;
}

// The dense decoder linears: 32 x (4 x 4096² + 3 x 4096 x 11008) = 6,476,005,376 weights.
constexpr double kLinears = 6'476'005'376.0;

} // namespace

TEST(Float8, TheLinearsStillSaveTheirSixteenBitInputs) {
    // ctx.save_for_backward(input_hp, weight_hp_t): the high-precision tensors, so activations do not change.
    const auto bf16 = core::estimate(float8Run(core::Float8::Off));
    const auto fp8 = core::estimate(float8Run(core::Float8::Rowwise));
    EXPECT_DOUBLE_EQ(fp8.activationPerTokenLayer.total(), bf16.activationPerTokenLayer.total());
    EXPECT_EQ(fp8.activationBytesAtLoss, bf16.activationBytesAtLoss);
    EXPECT_EQ(bf16.float8CastTemporaryBytes, 0);
}

TEST(Float8, BackwardCastsTheOutputGradientTwiceAndTheInputAndWeightOnce) {
    // 512 tokens; per linear 2 x T x out + T x in + in x out bytes, and eagerly (no compile) the output gradient's
    // fp32 scaling first (float8_training_tensor.py L153), 4 x T x out. gate/up (4096 -> 11008):
    // 11,272,192 + 2,097,152 + 45,088,768 + 22,544,384 = 81,002,496, more than down_proj (63,307,776).
    EXPECT_EQ(core::estimate(float8Run(core::Float8::Tensorwise)).float8CastTemporaryBytes, 81'002'496);
    // Compiled, the casts fuse: 58,458,112.
    auto compiled = float8Run(core::Float8::Tensorwise);
    compiled.compile = true;
    EXPECT_EQ(core::estimate(compiled).float8CastTemporaryBytes, 58'458'112);
}

TEST(Float8, Fsdp2GathersTheLinearsInOneByte) {
    auto s = float8Run(core::Float8::Tensorwise);
    s.gpus = 8;
    s.sharding = core::Sharding::Zero3;
    s.shardingEngine = core::ShardingEngine::Fsdp2;
    const auto bf16Gather = core::estimate(s);
    s.float8AllGather = true;
    ASSERT_TRUE(core::validate(s).has_value());
    const auto fp8Gather = core::estimate(s);
    // FSDP2 holds two layer units (current and prefetched) or, at the loss, one and lm_head (32000 x 4096 in bf16,
    // 262,144,000 B). A layer in bf16: 202,383,360 x 2 = 404,766,720 B -> two units 809,533,440 B. With float8
    // all-gather its 202,375,168 linear weights are 1 B and its 8,192 norm weights 2 B: 202,391,552 B, and the loss's
    // unit + lm_head (464,535,552 B) is the larger.
    EXPECT_EQ(bf16Gather.gatheredParamBytesAtLoss, 809'533'440);
    EXPECT_EQ(fp8Gather.gatheredParamBytesAtLoss, 202'391'552 + 262'144'000);
    // Rowwise scaling cannot gather in float8 (config.py: enable_fsdp_float8_all_gather needs tensorwise).
    s.float8 = core::Float8::Rowwise;
    const auto r = core::validate(s);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().where, "float8_all_gather");
}

TEST(Float8, TheLinearsRunAtTheCardsFp8PeakAndCardsWithoutFp8FallBackToBf16) {
    const auto s = float8Run(core::Float8::Tensorwise);
    // Forward, input gradient and weight gradient of every dense decoder linear: 6 x 6,476,005,376 FLOPs per token.
    EXPECT_DOUBLE_EQ(core::float8FlopsPerToken(s), 6.0 * kLinears);
    const core::GpuSpec& h100 = *catalog().findGpu("h100-sxm"); // 989 bf16, 1,979 FP8 dense TFLOPS
    core::PlanInputs in;
    const auto e = core::estimate(s);
    const auto facts = core::StepFacts::of(s, e);
    const auto bf16Facts =
        core::StepFacts::of(float8Run(core::Float8::Off), core::estimate(float8Run(core::Float8::Off)));
    const double tokens = 512.0;
    const double mfu = 0.54; // the H100 SXM's published figure (catalogs/gpus.json: LLM Foundry's HFU, 53.9%)
    ASSERT_DOUBLE_EQ(core::mfuFor(h100, in).mfu, mfu);
    const double expected = tokens * ((facts.flopsPerToken - 6.0 * kLinears) / (h100.bf16Tflops * 1e12 * mfu) +
                                      6.0 * kLinears / (h100.fp8Tflops * 1e12 * mfu));
    EXPECT_NEAR(core::stepTime(s, h100, in, facts).matmulSeconds, expected, expected * 1e-12);
    EXPECT_LT(core::stepTime(s, h100, in, facts).matmulSeconds,
              core::stepTime(float8Run(core::Float8::Off), h100, in, bf16Facts).matmulSeconds);
    // An A100 has no FP8 tensor cores: the planner runs the linears in bf16 and says so.
    const core::GpuSpec& a100 = *catalog().findGpu("a100-80gb-sxm");
    ASSERT_EQ(a100.fp8Tflops, 0.0);
    const core::Candidate c = core::fitAsIs(s, a100, in);
    EXPECT_TRUE(c.bf16InsteadOfFloat8);
    EXPECT_EQ(c.scenario.float8, core::Float8::Off);
    EXPECT_FALSE(core::fitAsIs(s, h100, in).bf16InsteadOfFloat8);
}

TEST(Float8, TheAdvisorProposesFloat8WhereTheFloat8GatherSaves) {
    // Llama-2-7B fully fine-tuned over 8 cards with FSDP2, 8 x 4096 tokens without checkpointing: too big for a
    // 24 GB card, and the peak is at the loss, where the bf16 gather of two layer units (809,533,440 B, above) becomes
    // one float8 unit and lm_head (464,535,552 B): 344,997,888 B less allocated.
    auto s = float8Run(core::Float8::Off);
    s.gpus = 8;
    s.sharding = core::Sharding::Zero3;
    s.shardingEngine = core::ShardingEngine::Fsdp2;
    s.microBatch = 8;
    s.seqLen = 4096;
    auto rungOf = [](const core::OomAdvice& advice) {
        const auto it = std::find_if(advice.steps.begin(), advice.steps.end(),
                                     [](const core::FixStep& f) { return f.kind == core::FixKind::Float8AllGather; });
        EXPECT_NE(it, advice.steps.end());
        return it == advice.steps.end() ? core::FixStep{} : *it;
    };
    const auto& ada = *catalog().findGpu("rtx-4090");
    ASSERT_GT(ada.fp8Tflops, 0);
    const auto step = rungOf(core::adviseOom(s, ada));
    ASSERT_TRUE(step.applicable);
    EXPECT_EQ(step.scenarioAlone.float8, core::Float8::Tensorwise);
    EXPECT_TRUE(step.scenarioAlone.float8AllGather);
    const auto before = core::estimate(s);
    const auto after = core::estimate(step.scenarioAlone);
    ASSERT_EQ(before.peakMoment, core::PeakMoment::ForwardEnd);
    ASSERT_EQ(after.peakMoment, core::PeakMoment::ForwardEnd);
    EXPECT_EQ(before.allocatedPeakBytes - after.allocatedPeakBytes, 809'533'440 - 464'535'552);
    EXPECT_EQ(step.savingAlone, before.deviceBytes - after.deviceBytes);
    EXPECT_GT(step.savingAlone, 0);

    // Where float8 only adds its casts, or the card cannot run it, the rung says why instead.
    const auto& ampere = *catalog().findGpu("a100-80gb-sxm");
    ASSERT_EQ(ampere.fp8Tflops, 0);
    EXPECT_EQ(rungOf(core::adviseOom(s, ampere)).blocker, core::FixBlocker::NoFp8OnCard);
    auto deepspeed = s;
    deepspeed.shardingEngine = core::ShardingEngine::Deepspeed;
    EXPECT_EQ(rungOf(core::adviseOom(deepspeed, ada)).blocker, core::FixBlocker::Float8OnlyGathers);
    auto lora = s;
    lora.method = core::Method::Lora;
    EXPECT_EQ(rungOf(core::adviseOom(lora, ada)).blocker, core::FixBlocker::Float8OnlyGathers);
    EXPECT_EQ(rungOf(core::adviseOom(step.scenarioAlone, ada)).blocker, core::FixBlocker::AlreadyFloat8);
}
