// The planner's answers: what to rent, at which count and layout, and the constraints that rule candidates out.
// Expected figures are derived by hand in each test from the catalog's specs and the time model's documented
// formulas (docs/planning.md).
#include "gpusizer/plan/Planner.h"

#include "TestModels.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace gpusizer;

using fixtures::catalog;

namespace {

/// Llama-3.1-8B full fine-tune, bf16 with fp32 master weights, AdamW, 4 x 2,048 tokens, full checkpointing, one GPU:
/// the case issue #14 found planned as "1 GPU, offload optimizer".
core::Scenario llama8bFull() {
    core::Scenario s;
    s.model = fixtures::llama31_8b();
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16Fp32Master;
    s.optimizer = core::Optimizer::AdamW;
    s.microBatch = 4;
    s.seqLen = 2048;
    s.checkpointing = core::Checkpointing::Full;
    s.gpus = 1;
    return s;
}

core::Scenario fromCatalog(const char* modelId, core::Method method) {
    core::Scenario s;
    s.model = catalog().findModel(modelId)->arch;
    s.method = method;
    s.microBatch = 1;
    s.seqLen = 2048;
    s.checkpointing = core::Checkpointing::Full;
    return s;
}

const core::GpuSpec& gpu(const char* id) {
    return *catalog().findGpu(id);
}

// Llama-3.1-8B: 8,030,261,248 parameters, of which the 128,256 x 4,096 = 525,336,576 input embedding is a lookup.
constexpr double kLlama8bParams = 8'030'261'248.0;
constexpr double kLlama8bMatmul = 8'030'261'248.0 - 525'336'576.0;
// Training FLOPs per token with full recomputation: 8 x matmul parameters, plus the attention term over the whole
// 2,048 x 2,048 matrix: 3 x (2 x 32 heads x (128 + 128) x 2,048 x 32 layers) = 3 x 1,073,741,824.
constexpr double kLlama8bFlopsPerToken = 8.0 * kLlama8bMatmul + 3.0 * 1'073'741'824.0;
// H100 SXM5: 989 dense BF16 TFLOPS at the matmuls' 54% (catalogs/gpus.json: LLM Foundry's HFU, 53.9%, which counts
// the recomputed forward as this model does); 3.35 TB/s; $2.99 per GPU-hour on demand (catalog).
constexpr double kH100Flops = 989e12 * 0.54;
constexpr double kH100Bandwidth = 3.35e12;
// The base model's element-wise kernels per token (Planning.BaseElementwiseBytesFollowTransformersLlama's counts for
// Llama-3.1-8B: h 4096, intermediate 14,336, 32 layers, 32 query and 8 key/value heads of 128, SDPA, bf16):
// norms 2 x 36 x 4096 = 294,912, RoPE 20 x 40 x 128 = 102,400, SDPA's output copy 16,384, residuals 49,152,
// SiLU and * up 10 x 14,336 = 143,360: 606,208 a layer, x 32 + the final norm's 147,456 = 19,546,112 per forward;
// full recomputation runs two forwards and a backward of twice one: x 4, plus the loss's 48 B x 128,256 logits.
constexpr double kLlama8bElementwisePerToken = 4.0 * 19'546'112.0 + 48.0 * 128'256.0;
// The optimizer step over all cards together (each its ZeRO share): fp32 master weights and states, foreach AdamW
// (7 x 4 B + 7 x 8 B) and the master copy's conversions (12 B): 96 B a parameter.
constexpr double kLlama8bOptimizerStepBytes = 96.0 * kLlama8bParams;
constexpr double kH100Price = 2.99;
// 1e9 tokens in steps of the user's global batch, 4 x 2,048 = 8,192 tokens: ceil(122,070.3) steps.
constexpr double kSteps = 122'071.0;

bool sameLayout(const core::Scenario& a, const core::Scenario& b) {
    return a.gpus == b.gpus && a.tensorParallel == b.tensorParallel && a.pipelineParallel == b.pipelineParallel &&
           a.expertParallel == b.expertParallel && a.sharding == b.sharding && a.offload == b.offload &&
           a.microBatch == b.microBatch && a.gradientAccumulation == b.gradientAccumulation &&
           a.checkpointing == b.checkpointing;
}

std::string describe(const core::Scenario& s) {
    return std::to_string(s.gpus) + " cards TP " + std::to_string(s.tensorParallel) + " PP " +
           std::to_string(s.pipelineParallel) + " EP " + std::to_string(s.expertParallel) + " ZeRO " +
           std::to_string(static_cast<int>(s.sharding)) + " offload " + std::to_string(static_cast<int>(s.offload)) +
           " micro-batch " + std::to_string(s.microBatch) + " x " + std::to_string(s.gradientAccumulation);
}

} // namespace

TEST(Planner, EightBFullFineTuneOnH100sRentsSeveralCardsWithoutOffloadForLessThanTheOffloadPlan) {
    core::PlanInputs in;
    in.datasetTokens = 1e9;
    in.objective = core::Objective::Cost;
    const core::CardPlan plan = core::planOnCard(llama8bFull(), gpu("h100-sxm"), in);
    ASSERT_TRUE(plan.found);
    EXPECT_GT(plan.best.scenario.gpus, 1);
    EXPECT_EQ(plan.best.scenario.offload, core::Offload::None);

    // Any sharded data-parallel layout that is compute-bound costs the same GPU-hours whatever its count: tokens x
    // (FLOPs per token / (peak x utilisation) + element-wise bytes per token / bandwidth), plus the optimizer step,
    // each card stepping its shard. 8,192 x 63.26e9 / 534.1e12 = 0.970 s, 8,192 x 84.34e6 / 3.35e12 = 0.206 s and
    // 770.9 GB / 3.35e12 = 0.230 s of GPU time per step; at 4 cards the ZeRO traffic (0.75 x 16 GB of gradients +
    // 0.75 x 16 GB of weights = 24 GB at 360 GB/s of NVLink = 0.067 s) hides behind half the compute.
    // 122,071 steps x 1.406 s / 3,600 = 47.7 GPU-hours = $142.6.
    // Around the steps every card is held for the instance (10 min), the image (6 min), the 16-bit checkpoint
    // (2 x 8.03e9 B) downloaded at 0.4 GB/s and read at 1 GB/s, a minute of start-up, and the bf16 result (the same
    // 16.06 GB) written at 1 GB/s and copied out at 0.4 GB/s: 1,132 s, paid by each of the plan's cards.
    const double fixedHours = (600.0 + 360.0 + 2.0 * kLlama8bParams / 0.4e9 + 2.0 * kLlama8bParams / 1e9 + 60.0 +
                               2.0 * kLlama8bParams / 1e9 + 2.0 * kLlama8bParams / 0.4e9) /
                              3600.0;
    const double cards = static_cast<double>(plan.best.scenario.gpus);
    const double gpuSecondsPerStep = 8192.0 * kLlama8bFlopsPerToken / kH100Flops +
                                     8192.0 * kLlama8bElementwisePerToken / kH100Bandwidth +
                                     kLlama8bOptimizerStepBytes / kH100Bandwidth;
    const double multiGpuCost = kSteps * gpuSecondsPerStep / 3600.0 * kH100Price + cards * fixedHours * kH100Price;
    EXPECT_NEAR(core::costOf(plan.best, in), multiGpuCost, 0.01 * multiGpuCost);

    // On one card nothing fits without offload (16 bytes per parameter of model states alone is 120 GiB), so the
    // one-card plan offloads the optimizer (DeepSpeed ZeRO-Offload). Its step adds, unoverlapped:
    //   PCIe: the fp32 gradients out and the bf16 weights back, 8.03e9 x (4 + 2) B = 48.2 GB over PCIe 5.0 x16 at
    //         63 GB/s x 0.7 = 44.1 GB/s: 1.093 s;
    //   CPU Adam: 8.03e9 parameters at 11.6e9 / 8.2 s per host (DeepSpeed PR #735): 5.677 s;
    // to the compute of 8,192 x 63.26e9 / 534.1e12 = 0.970 s and the element-wise kernels' 0.206 s (the step itself
    // runs on the CPU): 7.944 s per step, 269 h, $806.
    const core::Candidate oneCard = core::fitAtCount(llama8bFull(), gpu("h100-sxm"), 1, in);
    ASSERT_TRUE(oneCard.fits());
    EXPECT_EQ(oneCard.scenario.offload, core::Offload::Optimizer);
    const double compute =
        8192.0 * kLlama8bFlopsPerToken / kH100Flops + 8192.0 * kLlama8bElementwisePerToken / kH100Bandwidth;
    const double pcie = kLlama8bParams * 6.0 / (63.0 * 0.7 * 1e9);
    const double cpuAdam = kLlama8bParams / (11.6e9 / 8.2);
    const double offloadCost = (kSteps * (compute + pcie + cpuAdam) / 3600.0 + fixedHours) * kH100Price;
    EXPECT_NEAR(core::costOf(oneCard, in), offloadCost, 0.01 * offloadCost);
    EXPECT_LT(core::costOf(plan.best, in), core::costOf(oneCard, in) / 5.0);
}

TEST(Planner, EveryProposedTensorParallelDegreeDividesTheHeadsTheKvHeadsAndTheNode) {
    // Qwen2.5-0.5B has 14 query heads and 2 KV heads (config.json): tensor parallel 1 or 2 only, whatever the card.
    const core::Scenario s = fromCatalog("qwen2.5-0.5b", core::Method::Full);
    ASSERT_EQ(s.model.numHeads, 14);
    ASSERT_EQ(s.model.numKvHeads, 2);
    core::PlanInputs in;
    for (const auto& g : catalog().gpus) {
        for (std::int64_t n : core::cardCounts(g, 64)) {
            const core::Candidate c = core::fitAtCount(s, g, n, in);
            if (c.why == core::Infeasible::GlobalBatch || c.why == core::Infeasible::Layout) {
                continue; // no layout proposed at this count
            }
            const std::int64_t tp = c.scenario.tensorParallel;
            EXPECT_TRUE(tp == 1 || tp == 2) << g.id << " at " << n << ": TP " << tp;
            EXPECT_EQ(g.gpusPerNode % tp, 0) << g.id;
        }
    }
    // And a scenario that asks for more is refused in words: TP 1,024 for Llama-3.1-8B's 32 heads, TP 4 for 14 heads.
    core::Scenario wide = llama8bFull();
    wide.gpus = 1024;
    wide.tensorParallel = 1024;
    EXPECT_FALSE(core::validate(wide).has_value());
    core::Scenario qwen = s;
    qwen.gpus = 4;
    qwen.tensorParallel = 4;
    const auto refused = core::validate(qwen);
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().where, "tensor_parallel");
}

TEST(Planner, ABf16RecipeIsNeverPlannedOnACardWithoutBf16) {
    // T4 (Turing) and V100 (Volta) have no bf16 units: the planner uses the fp16 recipe with the same bytes and says
    // so; cards with bf16 keep the recipe.
    core::Scenario s = fromCatalog("llama-3.2-1b", core::Method::Lora);
    s.precision = core::Precision::Bf16;
    core::PlanInputs in;
    for (const char* id : {"t4", "v100-32gb"}) {
        ASSERT_FALSE(gpu(id).bf16) << id;
        const core::CardPlan plan = core::planOnCard(s, gpu(id), in);
        ASSERT_TRUE(plan.found) << id;
        EXPECT_EQ(plan.best.scenario.precision, core::Precision::Fp16) << id;
        EXPECT_TRUE(plan.best.fp16Instead) << id;
        for (const auto& r : plan.runnersUp) {
            EXPECT_EQ(r.scenario.precision, core::Precision::Fp16) << id;
        }
        const core::Candidate own = core::fitAsIs(s, gpu(id), in);
        EXPECT_EQ(own.scenario.precision, core::Precision::Fp16) << id;
        EXPECT_TRUE(own.fp16Instead) << id;
    }
    const core::CardPlan a100 = core::planOnCard(s, gpu("a100-80gb-sxm"), in);
    ASSERT_TRUE(a100.found);
    EXPECT_EQ(a100.best.scenario.precision, core::Precision::Bf16);
    EXPECT_FALSE(a100.best.fp16Instead);
}

TEST(Planner, ALayoutOverTheHostRamLimitIsInfeasibleWithThatReason) {
    // Llama-3.1-70B full fine-tune on one H100: only ZeRO-3 with optimizer and parameters offloaded fits the GPU. The
    // host then holds, per parameter, the bf16 weight (2 B), the fp32 master weight, Adam's two moments (12 B) and the
    // fp32 gradient (4 B): 18 B x 70,553,706,496 = 1,182.7 GiB.
    core::Scenario s = fromCatalog("llama-3.1-70b", core::Method::Full);
    s.precision = core::Precision::Bf16Fp32Master;
    s.seqLen = 4096;
    core::PlanInputs in;
    in.maxGpus = 1;
    in.hostRamGiBPerNode = 64.0;
    const core::Candidate small = core::fitAtCount(s, gpu("h100-sxm"), 1, in);
    EXPECT_EQ(small.why, core::Infeasible::HostRam);
    EXPECT_EQ(small.scenario.offload, core::Offload::OptimizerAndParams);
    EXPECT_NEAR(static_cast<double>(small.hostRamPerNodeBytes), 18.0 * 70'553'706'496.0, 0.01 * 18.0 * 70.55e9);
    EXPECT_EQ(small.hostRamLimitBytes, static_cast<std::int64_t>(64.0 * 1024 * 1024 * 1024));
    EXPECT_FALSE(core::planOnCard(s, gpu("h100-sxm"), in).found);
    // With 2 TiB of host RAM the same layout runs.
    in.hostRamGiBPerNode = 2048.0;
    EXPECT_TRUE(core::fitAtCount(s, gpu("h100-sxm"), 1, in).fits());
    // Without a user figure the catalog's node applies: an H100 SXM node (DGX H100) has 2 TiB for 8 GPUs.
    EXPECT_DOUBLE_EQ(core::hostRamBytesPerNode(gpu("h100-sxm"), core::PlanInputs{}), 2048.0 * 1024 * 1024 * 1024);
}

TEST(Planner, TheGlobalBatchIsKeptSoDataParallelRanksDivideIt) {
    // 8B LoRA with 4 sequences per optimizer step: at most 4 data-parallel ranks, each with an even share; 24 cards of
    // 8 per node offer only TP 8 x DP 3 or TP 4 x PP 2 x DP 3, neither of which splits 4 sequences evenly.
    core::Scenario s = fromCatalog("llama-3.1-8b", core::Method::Lora);
    s.microBatch = 4;
    core::PlanInputs in;
    const core::Candidate c24 = core::fitAtCount(s, gpu("h100-sxm"), 24, in);
    EXPECT_EQ(c24.why, core::Infeasible::GlobalBatch);
    for (std::int64_t n : core::cardCounts(gpu("h100-sxm"), 1024)) {
        const core::Candidate c = core::fitAtCount(s, gpu("h100-sxm"), n, in);
        if (!c.fits()) {
            continue;
        }
        const std::int64_t dp = n / (c.scenario.tensorParallel * c.scenario.pipelineParallel);
        EXPECT_EQ(c.scenario.microBatch * c.scenario.gradientAccumulation * dp, 4) << n;
    }
}

TEST(Planner, CardCountsArePowersOfTwoInANodeThenNodesInPowersOfTwoAndOneAndAHalfTimesThem) {
    // 8 GPUs per node up to 128 cards: 1, 2, 4 in a node; 1, 2, 3, 4, 6, 8, 12, 16 nodes.
    const std::vector<std::int64_t> expected{1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128};
    EXPECT_EQ(core::cardCounts(gpu("h100-sxm"), 128), expected);
}

TEST(Planner, ThePrunedSearchChoosesWhatTheExhaustiveSearchChooses) {
    // The bounds (least-memory probe, wall-time lower bound, fastest-first variants, offload only when nothing else
    // fits) must never change the answer: compare with every layout and variant evaluated.
    std::vector<core::Scenario> scenarios{llama8bFull(), fromCatalog("llama-3.1-8b", core::Method::Lora),
                                          fromCatalog("qwen3-30b-a3b", core::Method::Full)};
    core::Scenario big = fromCatalog("llama-3.1-70b", core::Method::Full);
    big.gpus = 8;
    big.sharding = core::Sharding::Zero3;
    scenarios.push_back(big);
    scenarios[2].gpus = 16;
    scenarios[2].sharding = core::Sharding::Zero3;
    scenarios[1].checkpointing = core::Checkpointing::Auto;
    for (const auto& s : scenarios) {
        for (const char* id : {"h100-sxm", "rtx-4090", "mi300x", "l40s", "t4"}) {
            for (auto objective : {core::Objective::Cost, core::Objective::Time, core::Objective::Balanced}) {
                core::PlanInputs pruned;
                pruned.datasetTokens = 1e9;
                pruned.objective = objective;
                pruned.maxGpus = 256;
                core::PlanInputs exhaustive = pruned;
                exhaustive.prune = false;
                const core::CardPlan a = core::planOnCard(s, gpu(id), pruned);
                const core::CardPlan b = core::planOnCard(s, gpu(id), exhaustive);
                ASSERT_EQ(a.found, b.found) << s.model.name << " on " << id;
                if (!a.found) {
                    continue;
                }
                EXPECT_TRUE(sameLayout(a.best.scenario, b.best.scenario))
                    << s.model.name << " on " << id << ", objective " << static_cast<int>(objective) << ": pruned "
                    << describe(a.best.scenario) << ", exhaustive " << describe(b.best.scenario);
                EXPECT_NEAR(core::costOf(a.best, pruned), core::costOf(b.best, exhaustive),
                            1e-9 * core::costOf(b.best, exhaustive));
                EXPECT_LE(a.candidatesTried, b.candidatesTried);
            }
        }
    }
}

TEST(Planner, ObjectivesPickTheirExtremesAndBalancedStaysWithinOneAndAHalfTimesTheFastest) {
    core::PlanInputs in;
    in.datasetTokens = 1e9;
    const core::Scenario s = llama8bFull();
    in.objective = core::Objective::Cost;
    const core::CardPlan cheapest = core::planOnCard(s, gpu("h100-sxm"), in);
    in.objective = core::Objective::Time;
    const core::CardPlan fastest = core::planOnCard(s, gpu("h100-sxm"), in);
    in.objective = core::Objective::Balanced;
    const core::CardPlan balanced = core::planOnCard(s, gpu("h100-sxm"), in);
    ASSERT_TRUE(cheapest.found && fastest.found && balanced.found);
    EXPECT_LE(core::costOf(cheapest.best, in), core::costOf(balanced.best, in) * (1.0 + core::kPlanTieShare));
    EXPECT_LE(fastest.best.plan.wallHours, balanced.best.plan.wallHours * (1.0 + core::kPlanTieShare));
    EXPECT_LE(balanced.best.plan.wallHours, core::kBalancedTimeFactor * fastest.best.plan.wallHours);
    // Every runner-up of the balanced plan that is within the time window costs at least as much.
    for (const auto& r : balanced.runnersUp) {
        if (r.plan.wallHours <= core::kBalancedTimeFactor * fastest.best.plan.wallHours) {
            EXPECT_GE(core::costOf(r, in), core::costOf(balanced.best, in) * (1.0 - core::kPlanTieShare));
        }
    }
}
