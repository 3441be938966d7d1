#include "gpusizer/plan/Advisor.h"

#include "TestModels.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <gtest/gtest.h>

using namespace gpusizer;

using fixtures::catalog;

namespace {

core::Scenario fullFinetune8b() {
    core::Scenario s = core::defaultScenario(catalog());
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16Fp32Master;
    s.checkpointing = core::Checkpointing::None;
    s.attention = core::Attention::Eager;
    s.microBatch = 4;
    s.seqLen = 2048;
    return s;
}

} // namespace

TEST(Advisor, AScenarioThatFitsGetsNoLadder) {
    const auto advice = core::adviseOom(core::defaultScenario(catalog()), *catalog().findGpu("h200"));
    EXPECT_TRUE(advice.fitsAlready);
    EXPECT_TRUE(advice.steps.empty());
}

TEST(Advisor, EachStepSavesTheDifferenceOfTwoEstimatesInLadderOrder) {
    const auto s = fullFinetune8b();
    const auto& gpu = *catalog().findGpu("rtx-4090");
    const auto advice = core::adviseOom(s, gpu);
    ASSERT_FALSE(advice.fitsAlready);
    const std::int64_t before = core::estimate(s).deviceBytes;
    EXPECT_EQ(advice.deviceBytes, before);
    // The guides' order: batch/sequence, checkpointing, attention and loss, optimizer, method, more cards, offload.
    const std::vector<core::FixKind> order{core::FixKind::SmallerMicroBatch,
                                           core::FixKind::ShorterSequence,
                                           core::FixKind::SelectiveCheckpointing,
                                           core::FixKind::FullCheckpointing,
                                           core::FixKind::EfficientAttention,
                                           core::FixKind::ChunkedLoss,
                                           core::FixKind::FusedLoss,
                                           core::FixKind::LigerKernels,
                                           core::FixKind::Float8AllGather,
                                           core::FixKind::EightBitAdam,
                                           core::FixKind::Adafactor,
                                           core::FixKind::OptimizerInBackward,
                                           core::FixKind::PrecomputedReference,
                                           core::FixKind::VllmSleepMode,
                                           core::FixKind::FreezeVisionTower,
                                           core::FixKind::Lora,
                                           core::FixKind::Qlora,
                                           core::FixKind::MoreCardsZero3,
                                           core::FixKind::ContextParallel,
                                           core::FixKind::CpuOffload};
    ASSERT_EQ(advice.steps.size(), order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        const auto& step = advice.steps[i];
        EXPECT_EQ(step.kind, order[i]);
        if (step.kind == core::FixKind::Float8AllGather) {
            // One card, no FSDP2 gather to shrink: float8 would only add its casts (Float8Test covers the rung).
            EXPECT_EQ(step.blocker, core::FixBlocker::Float8OnlyGathers);
            continue;
        }
        if (step.kind == core::FixKind::PrecomputedReference) {
            EXPECT_EQ(step.blocker, core::FixBlocker::NoReferenceCopy); // supervised: no reference model
            continue;
        }
        if (step.kind == core::FixKind::VllmSleepMode) {
            EXPECT_EQ(step.blocker, core::FixBlocker::NoAwakeVllm); // supervised: no generation
            continue;
        }
        if (step.kind == core::FixKind::FreezeVisionTower) {
            EXPECT_EQ(step.blocker, core::FixBlocker::NoTrainedVisionTower); // a text model
            continue;
        }
        ASSERT_TRUE(step.applicable) << core::toString(step.kind) << ": blocked by " << static_cast<int>(step.blocker);
        EXPECT_EQ(step.savingAlone, before - core::estimate(step.scenarioAlone).deviceBytes);
        EXPECT_EQ(step.fitsAlone, step.deviceAfterAlone <= gpu.usableBytes());
    }
    // The first rung by hand: micro-batch 4 -> 1 with gradient accumulation 1 -> 4.
    core::Scenario byHand = s;
    byHand.microBatch = 1;
    byHand.gradientAccumulation = 4;
    EXPECT_EQ(advice.steps[0].savingAlone, before - core::estimate(byHand).deviceBytes);
    // Eager -> SDPA removes the seq² scores: a positive saving.
    EXPECT_GT(advice.steps[4].savingAlone, 0);
}

TEST(Advisor, FixesAlreadyOnAreSaidToBeSo) {
    auto s = fullFinetune8b();
    s.checkpointing = core::Checkpointing::Full;
    s.attention = core::Attention::Flash;
    s.microBatch = 1;
    const auto advice = core::adviseOom(s, *catalog().findGpu("rtx-4090"));
    for (const auto& step : advice.steps) {
        if (step.kind == core::FixKind::FullCheckpointing || step.kind == core::FixKind::EfficientAttention ||
            step.kind == core::FixKind::SmallerMicroBatch || step.kind == core::FixKind::SelectiveCheckpointing) {
            EXPECT_FALSE(step.applicable) << core::toString(step.kind);
            EXPECT_NE(step.blocker, core::FixBlocker::None); // present::fixBlocker words it
        }
    }
}

TEST(Advisor, TheCombinationTakesFixesInOrderUntilItFits) {
    const auto s = fullFinetune8b();
    const auto& gpu = *catalog().findGpu("a100-80gb-sxm");
    const auto advice = core::adviseOom(s, gpu);
    ASSERT_TRUE(advice.fittingScenario.has_value());
    EXPECT_LE(core::estimate(*advice.fittingScenario).deviceBytes, gpu.usableBytes());
    EXPECT_EQ(core::estimate(*advice.fittingScenario).deviceBytes, advice.deviceAfterCombination);
    EXPECT_TRUE(std::is_sorted(advice.combination.begin(), advice.combination.end()));
}

TEST(Advisor, SizingTableCellsFitAndMoveWithSequenceLength) {
    core::Scenario s = core::defaultScenario(catalog());
    s.seqLen = 512;
    s.microBatch = 1;
    const auto rows = core::sizingTable(s, catalog());
    ASSERT_EQ(rows.size(), 6u); // five size classes + the scenario's model
    for (const auto& row : rows) {
        for (const auto* cell : {&row.qlora, &row.lora, &row.full}) {
            ASSERT_NE(cell->gpu, nullptr) << row.modelName;
            EXPECT_LE(cell->devicePerGpu, cell->gpu->usableBytes()) << row.modelName;
        }
    }
    // Each cell is what `fit` and the Plan tab answer for that model and method: the planner's pick across the
    // catalog, with its layout.
    core::Scenario eightQlora = s;
    eightQlora.model = catalog().findModel("llama-3.1-8b")->arch;
    eightQlora.sharding = core::Sharding::None;
    eightQlora.method = core::Method::Qlora;
    const core::PlanInputs in;
    const auto plans = core::planCatalog(eightQlora, catalog().gpus, in);
    const auto picked = core::rank(plans, in);
    ASSERT_GE(picked.chosen, 0);
    EXPECT_EQ(rows[1].qlora.gpu, plans[static_cast<std::size_t>(picked.chosen)].gpu);
    EXPECT_EQ(rows[1].qlora.cards, plans[static_cast<std::size_t>(picked.chosen)].best.scenario.gpus);
    EXPECT_EQ(rows[1].qlora.layout.tensorParallel, 1); // QLoRA never runs tensor parallel
    // 8B QLoRA at 512 tokens: ~7 GiB of weights (NF4 linears + fp32 embeddings) -> one card.
    EXPECT_EQ(rows[1].qlora.cards, 1);
    // 70B full fine-tuning in pure bf16 (the scenario's recipe): 2 + 2 + 4 = 8 B x 70,553,706,496 parameters
    // = 525.6 GiB of model states, so the cards together must hold at least that.
    EXPECT_GT(rows[4].full.cards, 1);
    EXPECT_GE(static_cast<double>(rows[4].full.cards) * rows[4].full.gpu->memoryGiBUsable,
              8.0 * 70'553'706'496.0 / (1024.0 * 1024.0 * 1024.0));
    // Longer sequences need more memory: the 8B LoRA plan holds more in all (per GPU x cards).
    s.seqLen = 32768;
    const auto longRows = core::sizingTable(s, catalog());
    EXPECT_GT(static_cast<double>(longRows[1].lora.cards) * static_cast<double>(longRows[1].lora.devicePerGpu),
              static_cast<double>(rows[1].lora.cards) * static_cast<double>(rows[1].lora.devicePerGpu));
}

TEST(Advisor, MethodQuestionnaireFollowsTheGuides) {
    core::MethodQuestions far;
    far.distance = core::MethodQuestions::Distance::Far;
    far.data = core::MethodQuestions::Data::Large;
    EXPECT_EQ(core::adviseMethod(far).method, core::Method::Full);

    core::MethodQuestions close;
    close.distance = core::MethodQuestions::Distance::Close;
    close.data = core::MethodQuestions::Data::Small;
    EXPECT_EQ(core::adviseMethod(close).method, core::Method::Lora);

    close.acceptsSmallQualityLoss = true;
    const auto q = core::adviseMethod(close);
    EXPECT_EQ(q.method, core::Method::Qlora);
    bool mergeCaveat = false;
    for (const auto& c : q.caveats) {
        mergeCaveat = mergeCaveat || c == core::MethodCaveat::MergeIntoSixteenBit; // "…into the 16-bit base…"
    }
    EXPECT_TRUE(mergeCaveat);
}

TEST(Advisor, AFusedLossNeverHoldsTheLogitsAndTakesTheSmallerKernel) {
    // Llama-3.1-8B full fine-tuning, micro-batch 4 x 2,048 = 8,192 tokens, vocabulary 128,256, bf16 compute.
    const auto s = fullFinetune8b();
    const auto& gpu = *catalog().findGpu("rtx-4090");
    const auto advice = core::adviseOom(s, gpu);
    const auto step = std::find_if(advice.steps.begin(), advice.steps.end(),
                                   [](const core::FixStep& f) { return f.kind == core::FixKind::FusedLoss; });
    ASSERT_NE(step, advice.steps.end());
    ASSERT_TRUE(step->applicable);
    // Cut Cross-Entropy: an fp32 log-sum-exp per token and the blockwise gradient of the lm_head input,
    // 4 x 8,192 + 2 x 4,096 x 8,192 = 67,141,632 B. Liger's fused linear cross-entropy: grad_input 2 x 4,096 x 8,192
    // plus one chunk of logits, next_pow2(8,192 / ceil(128,256 / 4,096) = 32) = 256 tokens x 128,256 x 2 B:
    // 132,775,936 B. The smaller is proposed.
    EXPECT_EQ(step->scenarioAlone.loss, core::Loss::CutCrossEntropy);
    EXPECT_EQ(core::estimate(step->scenarioAlone).logitsBytesAtLoss, 67'141'632);
    core::Scenario liger = s;
    liger.loss = core::Loss::FusedLinear;
    EXPECT_EQ(core::estimate(liger).logitsBytesAtLoss, 132'775'936);
    // With accumulation, Liger's grad_weight (zeros_like the bf16 lm_head, 128,256 x 4,096 x 2 B = 1,050,673,152 B)
    // lives beside the weight's .grad from the previous micro-batch.
    core::Scenario accumulating = liger;
    accumulating.gradientAccumulation = 2;
    EXPECT_EQ(core::estimate(accumulating).logitsBytesAtLoss, 132'775'936 + 1'050'673'152);
    EXPECT_GT(step->savingAlone, 0);
    // Already fused: the rung says so, and the chunked rung does not undo it.
    const auto again = core::adviseOom(liger, gpu);
    for (const auto& f : again.steps) {
        if (f.kind == core::FixKind::FusedLoss) {
            EXPECT_EQ(f.blocker, core::FixBlocker::AlreadyFused);
        }
        if (f.kind == core::FixKind::ChunkedLoss) {
            EXPECT_EQ(f.blocker, core::FixBlocker::AlreadyChunked);
        }
    }
}

TEST(Advisor, LigerKernelsSaveTheUpcastNormInputsAndOneGatedTensorPerLayer) {
    // Llama-3.1-8B full fine-tuning, bf16 with fp32 master weights (a bf16 residual stream), micro-batch 4 x 2,048
    // tokens, no checkpointing (fullFinetune8b).
    const auto s = fullFinetune8b();
    const auto& gpu = *catalog().findGpu("rtx-4090");
    const auto advice = core::adviseOom(s, gpu);
    const auto step = std::find_if(advice.steps.begin(), advice.steps.end(),
                                   [](const core::FixStep& f) { return f.kind == core::FixKind::LigerKernels; });
    ASSERT_NE(step, advice.steps.end());
    ASSERT_TRUE(step->applicable);
    EXPECT_TRUE(step->scenarioAlone.ligerRmsNorm);
    EXPECT_TRUE(step->scenarioAlone.ligerGlu);
    // Per token per layer: two RMSNorms each save 2 B × 4,096 instead of 4 B × 4,096 (+ a 4 B rstd) and no longer
    // their 2 B × 4,096 output (full fine-tuning); the gated MLP saves 2 × 14,336 × 2 B instead of 3 × 14,336 × 2 B.
    const double perTokenLayer = 2.0 * ((4.0 * 4096 + 2.0 * 4096) - (2.0 * 4096 + 4.0)) + 14336.0 * 2.0;
    const core::Estimate before = core::estimate(s);
    const core::Estimate after = core::estimate(step->scenarioAlone);
    EXPECT_DOUBLE_EQ(before.activationPerTokenLayer.total() - after.activationPerTokenLayer.total(), perTokenLayer);
    EXPECT_GT(step->savingAlone, 0);
    // Already on, or nothing to replace (GPT-2: LayerNorm and a plain MLP).
    core::Scenario on = step->scenarioAlone;
    const auto again = core::adviseOom(on, gpu);
    for (const auto& f : again.steps) {
        if (f.kind == core::FixKind::LigerKernels) {
            EXPECT_EQ(f.blocker, core::FixBlocker::AlreadyLiger);
        }
    }
    // RoPE alone changes nothing in memory: Liger's rope saves cos and sin, as eager RoPE's multiplications do.
    core::Scenario rope = s;
    rope.ligerRope = true;
    EXPECT_EQ(core::estimate(rope).deviceBytes, before.deviceBytes);
}
