// Context / sequence parallelism, derived by hand on Llama-2-7B (h 4096, 32 heads of 128, 32 layers, f 11008):
// ring attention (torch distributed/tensor/experimental/_attention.py; torchtitan context_parallel_degree) and
// DeepSpeed Ulysses (runtime/sequence_parallel/ulysses_sp.py @edaa7221).
#include "TestModels.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Advisor.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/plan/Planning.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace gpusizer;

namespace {

core::Scenario longSequences(std::int64_t cp) {
    core::Scenario s;
    s.model = fixtures::llama2_7b();
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16;
    s.checkpointing = core::Checkpointing::None;
    s.attention = core::Attention::Sdpa;
    s.microBatch = 1;
    s.seqLen = 8192;
    s.gpus = 8;
    s.sharding = core::Sharding::Zero3;
    s.contextParallel = cp;
    return s;
}

// Llama-3.1-8B full fine-tuning on 262,144-token sequences (torchtitan, FSDP2 mixed precision, full checkpointing).
core::Scenario veryLongSequences(const core::Catalog& catalog) {
    core::Scenario s;
    s.model = catalog.findModel("llama-3.1-8b")->arch;
    s.modelId = "llama-3.1-8b";
    s.method = core::Method::Full;
    s.precision = core::Precision::FsdpMixedBf16;
    s.framework = core::Framework::Torchtitan;
    s.microBatch = 1;
    s.seqLen = 262'144;
    s.checkpointing = core::Checkpointing::Full;
    s.attention = core::Attention::Flash;
    return s;
}

} // namespace

TEST(ContextParallel, EachRankKeepsItsShareOfTheSequence) {
    const auto e = core::estimate(longSequences(4));
    // 8,192 tokens over 4 ranks: 2,048 per GPU. Per token: 32 layers x 186,496 (a full fine-tuning Llama-2-7B layer
    // with SDPA, FreezeTuning tests) + the final norm's fp32 input 16,384 + lm_head's input 8,192 = 5,992,448 B.
    EXPECT_EQ(e.activationBytesAtLoss, std::int64_t{5'992'448} * 2048);
    // Model states are sharded over all 8 GPUs either way (torchtitan's dp_shard_cp mesh).
    EXPECT_EQ(e.perGpu[core::Component::OptimizerStates],
              core::estimate(longSequences(1)).perGpu[core::Component::OptimizerStates]);
    // Ring attention: the next k and v chunks arrive while the current ones are used: 2 x (k + v) x 32 heads x 128 x
    // 2,048 tokens x 2 B = 67,108,864 B.
    EXPECT_EQ(e.contextParallelBufferBytes, 67'108'864);
    // Ulysses: q, k and v re-laid into the head split, (32 + 2 x 32) x 128 x 2,048 x 2 B = 50,331,648 B.
    auto ulysses = longSequences(4);
    ulysses.contextParallelKind = core::ContextParallel::Ulysses;
    EXPECT_EQ(core::estimate(ulysses).contextParallelBufferBytes, 50'331'648);
}

TEST(ContextParallel, UlyssesReplicatesKeyValueHeadsFewerThanItsRanks) {
    // Llama-3.1-8B (32 heads of 128, 8 key/value heads) over Ulysses degree 16: each rank takes 2 query heads and,
    // with 8 key/value heads for 16 ranks, one replicated key/value head (ulysses_sp.py @edaa7221 L131-135,
    // L181-184), over the whole sequence. Per local token that is 16 key/value heads' worth, not 8.
    core::Scenario s = fixtures::checkpointedFullRun(fixtures::llama31_8b(), 65536);
    s.gpus = 16;
    s.sharding = core::Sharding::Zero3;
    s.contextParallel = 16;
    s.contextParallelKind = core::ContextParallel::Ulysses;
    ASSERT_TRUE(core::validate(s).has_value());
    const auto e = core::estimate(s);
    // Buffers after the all-to-all: q (32 heads) and k, v (16 each) x 128 x 2 B x 4,096 local tokens.
    EXPECT_EQ(e.contextParallelBufferBytes, 2 * (32 + 2 * 16) * 128 * 4096);
    // FlashAttention saves q, k, v and the output (2 x (4096 + 2048 + 2048 + 4096)) and an fp32 logsumexp per head.
    EXPECT_DOUBLE_EQ(e.activationPerTokenLayer.attention, 2.0 * (4096 + 2048 + 2048 + 4096) + 4.0 * 32);
    // And the all-to-alls move the replicated heads: q, out (32 heads each) and k, v (16 each) of 128 x 4,096 local
    // tokens x 2 B, 15/16 of it, in the forward, the recomputation and the backward of each of the 32 layers.
    static const core::Catalog catalog = catalogs::loadCatalogs().catalog;
    const auto& h100 = *catalog.findGpu("h100-sxm");
    core::Scenario whole = s;
    whole.contextParallel = 1;
    const double tensors = (2.0 * 32 + 2.0 * 16) * 128 * 4096 * 2;
    EXPECT_DOUBLE_EQ(core::stepTime(s, h100, {}).commBytesPerGpu - core::stepTime(whole, h100, {}).commBytesPerGpu,
                     3.0 * 15.0 / 16.0 * tensors * 32);
}

TEST(ContextParallel, TheDegreeMustFitTheGpusTheHeadsAndTheSequence) {
    auto s = longSequences(3); // 8 GPUs do not split into groups of 3
    auto r = core::validate(s);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().where, "context_parallel");
    s = longSequences(4);
    s.framework = core::Framework::Torchtitan;
    s.seqLen = 8196; // a multiple of 4 but not of 2 x 4 (torchtitan seq_len_divisor)
    r = core::validate(s);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().where, "context_parallel");
    s = longSequences(64);
    s.gpus = 64;
    s.contextParallelKind = core::ContextParallel::Ulysses; // 32 heads do not divide over 64 ranks
    r = core::validate(s);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().where, "context_parallel");
    s.contextParallel = 8;
    EXPECT_TRUE(core::validate(s).has_value());
}

TEST(ContextParallel, RingTrafficJoinsTheStepAndGroupsShareTheirSequences) {
    static const core::Catalog catalog = catalogs::loadCatalogs().catalog;
    const auto& h100 = *catalog.findGpu("h100-sxm");
    core::PlanInputs in;
    const auto split = core::stepTime(longSequences(4), h100, in);
    const auto whole = core::stepTime(longSequences(1), h100, in);
    // 8 GPUs in groups of 4: two groups, each on its own sequence of 8,192 tokens.
    EXPECT_DOUBLE_EQ(split.tokensPerStep, 2.0 * 8192);
    EXPECT_DOUBLE_EQ(whole.tokensPerStep, 8.0 * 8192);
    // The ring passes each rank's k and v chunk (2 x 32 x 128 x 2,048 x 2 B = 33,554,432 B) 3 times per layer in
    // forward and twice that in backward (k, v and their gradients): (1 + 2) x 3 x 33,554,432 x 32 layers.
    EXPECT_DOUBLE_EQ(split.commBytesPerGpu - whole.commBytesPerGpu, 3.0 * 3.0 * 33'554'432.0 * 32.0);
}

TEST(ContextParallel, ThePlannerSplitsSequencesThatFitNoOtherLayout) {
    // Llama-3.1-8B full fine-tuning on 262,144-token sequences: the logits alone are 262,144 x 128,256 x 14 B =
    // 470 GB, so no sharding of model states fits a GH200 (one GPU per node: no tensor parallelism either).
    static const core::Catalog catalog = catalogs::loadCatalogs().catalog;
    const core::Scenario s = veryLongSequences(catalog);
    const auto& gh200 = *catalog.findGpu("gh200");
    core::PlanInputs in;
    const core::CardPlan plan = core::planOnCard(s, gh200, in);
    ASSERT_TRUE(plan.found);
    const std::int64_t cp = plan.best.scenario.contextParallel;
    EXPECT_GT(cp, 1);
    EXPECT_EQ(plan.best.scenario.contextParallelKind, core::ContextParallel::Ring);
    // The smallest degree that fits: half of it fits no layout (a scenario that names its degree is searched as is).
    core::Scenario half = s;
    half.contextParallel = cp / 2;
    if (half.contextParallel > 1) {
        EXPECT_FALSE(core::planOnCard(half, gh200, in).found);
    }
}

TEST(ContextParallel, ThePlannersTensorParallelismLeavesUlyssesHeadsToSplit) {
    // Llama-3.1-70B (64 heads, 8 key/value heads) over Ulysses degree 32 (ArcticTraining's recipe): tensor parallelism
    // 8 leaves 8 heads per rank, which 32 ranks cannot split; 2 leaves 32 heads and 4 key/value heads, which can.
    static const core::Catalog catalog = catalogs::loadCatalogs().catalog;
    const core::Scenario s = fixtures::arcticLlama70bUlysses32();
    EXPECT_FALSE(core::ulyssesSplitsHeads(s.model, 8, 32));
    EXPECT_TRUE(core::ulyssesSplitsHeads(s.model, 2, 32));
    const core::CardPlan plan = core::planOnCard(s, *catalog.findGpu("h100-sxm"), core::PlanInputs{});
    ASSERT_TRUE(plan.found);
    const core::Scenario& best = plan.best.scenario;
    EXPECT_TRUE(core::ulyssesSplitsHeads(best.model, best.tensorParallel, best.contextParallel))
        << "TP " << best.tensorParallel << " x CP " << best.contextParallel;
    EXPECT_TRUE(core::validate(best).has_value());
}

TEST(ContextParallel, TheAdvisorSplitsSequencesWithTheSavingForTheScenario) {
    static const core::Catalog catalog = catalogs::loadCatalogs().catalog;
    const core::Scenario s = veryLongSequences(catalog);
    const auto& gh200 = *catalog.findGpu("gh200");
    const auto advice = core::adviseOom(s, gh200);
    const auto step = std::find_if(advice.steps.begin(), advice.steps.end(),
                                   [](const core::FixStep& f) { return f.kind == core::FixKind::ContextParallel; });
    ASSERT_NE(step, advice.steps.end());
    ASSERT_TRUE(step->applicable);
    EXPECT_TRUE(step->fitsAlone);
    EXPECT_FALSE(step->noLayoutFits);
    // The planner's layout at the smallest degree that fits; its per-GPU figure is that layout's estimate.
    EXPECT_GT(step->scenarioAlone.contextParallel, 1);
    EXPECT_EQ(step->deviceAfterAlone, core::estimate(step->scenarioAlone).deviceBytes);
    EXPECT_EQ(step->savingAlone, core::estimate(s).deviceBytes - step->deviceAfterAlone);
    // Already split (over 2 cards, which is not enough): the rung says so.
    core::Scenario split = core::withContextParallel(s, 2);
    split.gpus = 2;
    split.sharding = core::Sharding::Zero3;
    const auto again = core::adviseOom(split, gh200);
    ASSERT_FALSE(again.fitsAlready);
    const auto blocked = std::find_if(again.steps.begin(), again.steps.end(),
                                      [](const core::FixStep& f) { return f.kind == core::FixKind::ContextParallel; });
    ASSERT_NE(blocked, again.steps.end());
    EXPECT_EQ(blocked->blocker, core::FixBlocker::AlreadySplit);
}
