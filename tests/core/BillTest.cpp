// The whole bill (core/Bill.h), each figure derived by hand from the formulas of docs/planning.md.
#include "gpusizer/core/Bill.h"

#include "TestModels.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/core/ScenarioJson.h"
#include "gpusizer/core/Units.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace gpusizer;

namespace {

const core::Catalog& catalog() {
    static const core::Catalog c = catalogs::loadCatalogs().catalog;
    return c;
}

const core::GpuSpec& gpu(const char* id) {
    const core::GpuSpec* g = catalog().findGpu(id);
    EXPECT_NE(g, nullptr) << id;
    return *g;
}

} // namespace

TEST(Bill, CheckpointTimeIsItsSizeOverTheWritersBandwidth) {
    // Llama-3.1-8B LoRA r16 on q_proj, v_proj: per layer q 16 x (4096 + 4096) + v 16 x (4096 + 1024) = 212,992
    // adapter weights, x 32 layers = 6,815,744. A resumable checkpoint holds them in fp32 (4 B) and AdamW's two fp32
    // moments (8 B): 12 x 6,815,744 = 81,788,928 B.
    core::Scenario s = core::defaultScenario(catalog());
    ASSERT_EQ(s.method, core::Method::Lora);
    core::PlanInputs in;
    in.bill.storageWriteGBs = 0.5;
    in.bill.storageReadGBs = 2.0;
    const core::CheckpointCost one = core::checkpointCost(s, gpu("h100-sxm"), in);
    EXPECT_DOUBLE_EQ(one.bytes, 81'788'928.0);
    EXPECT_DOUBLE_EQ(one.writers, 1.0); // one GPU, nothing sharded: rank 0 writes
    EXPECT_NEAR(one.writeSeconds, 81'788'928.0 / 0.5e9, 1e-9);
    EXPECT_NEAR(one.readSeconds, 81'788'928.0 / 2.0e9, 1e-9);
    // 16 H100 (8 per node: 2 nodes) with ZeRO-3: every node writes its shards at once, so twice the bandwidth.
    s.gpus = 16;
    s.sharding = core::Sharding::Zero3;
    const core::CheckpointCost sharded = core::checkpointCost(s, gpu("h100-sxm"), in);
    EXPECT_DOUBLE_EQ(sharded.writers, 2.0);
    EXPECT_NEAR(sharded.writeSeconds, sharded.bytes / (2.0 * 0.5e9), 1e-9);
    // Plain data parallel replicates the states: rank 0 writes them alone, whatever the node count.
    s.sharding = core::Sharding::None;
    EXPECT_DOUBLE_EQ(core::checkpointCost(s, gpu("h100-sxm"), in).writers, 1.0);
}

TEST(Bill, YoungsIntervalIsTheSquareRootOfTwiceTheWriteTimeTimesTheMeanTimeBetweenInterruptions) {
    // A 6-minute checkpoint (0.1 h) and an interruption every 20 h: sqrt(2 x 0.1 x 20) = sqrt(4) = 2 h.
    EXPECT_NEAR(core::youngIntervalHours(360.0, 20.0), 2.0, 1e-12);
    // A 36-second checkpoint and 50 h: sqrt(2 x 0.01 x 50) = 1 h.
    EXPECT_NEAR(core::youngIntervalHours(36.0, 50.0), 1.0, 1e-12);
}

TEST(Bill, ExpectedWallTimeChargesEachInterruptionHalfASegmentAndTheRestart) {
    // 100 h of work, a checkpoint every 2 h taking 0.1 h, one interruption per 20 h (0.05 / h), 0.25 h to restart:
    // lost per interruption (2 + 0.1) / 2 + 0.25 = 1.3 h; W = 100 x (1 + 0.1 / 2) / (1 - 0.05 x 1.3)
    //   = 105 / 0.935 = 112.2995 h.
    const auto w = core::expectedWallHours(100.0, 2.0, 360.0, 0.05, 0.25);
    ASSERT_TRUE(w.has_value());
    EXPECT_NEAR(*w, 105.0 / 0.935, 1e-9);
    // No interruptions: only the checkpoints' share, 100 x 1.05 = 105 h.
    EXPECT_NEAR(*core::expectedWallHours(100.0, 2.0, 360.0, 0.0, 0.25), 105.0, 1e-9);
    // One interruption an hour loses 1.3 h each: the run never progresses.
    EXPECT_FALSE(core::expectedWallHours(100.0, 2.0, 360.0, 1.0, 0.25).has_value());
}

TEST(Bill, TheWholeBillOfAPlanAddsCheckpointsInterruptionsStorageAndTraffic) {
    core::Scenario s = core::defaultScenario(catalog()); // 8B LoRA, 1 GPU
    const core::GpuSpec& h100 = gpu("h100-sxm");
    core::PlanInputs in;
    in.datasetTokens = 1e9;
    in.bill.storageWriteGBs = 0.1; // a slow volume: 81,788,928 B / 0.1e9 B/s = 0.81789 s a checkpoint
    in.bill.storageReadGBs = 0.1;
    in.bill.interruptionsPerDay = 2.4; // 0.1 per hour on one node
    in.bill.restartMinutes = 12.0;     // 0.2 h
    in.bill.checkpointIntervalHours = 0.5;
    in.bill.egressUsdPerGb = 0.09;
    in.bill.keepDays = 7.0;
    in.retainedCheckpoints = 3;
    in.storageUsdPerGbMonth = 0.10;
    const core::Candidate plan = core::fitAsIs(s, h100, in);
    ASSERT_TRUE(plan.fits());
    const core::RunBill b = core::runBill(plan, h100, in);
    const double C = plan.plan.wallHours;
    const double d = 81'788'928.0 / 0.1e9 / 3600.0; // write time, hours
    EXPECT_NEAR(b.checkpoint.writeSeconds, 81'788'928.0 / 0.1e9, 1e-9);
    EXPECT_DOUBLE_EQ(b.intervalHours, 0.5);
    EXPECT_NEAR(b.checkpointShare, d / 0.5, 1e-12);
    // On demand: W = C (1 + d / t); GPU cost = W x 1 GPU x the on-demand price.
    EXPECT_NEAR(b.onDemandWallHours, C * (1.0 + d / 0.5), 1e-9);
    EXPECT_NEAR(b.onDemandComputeUsd, b.onDemandWallHours * h100.priceOnDemandUsdHour, 1e-9);
    // Spot: r = 2.4 / 24 = 0.1 per hour; R = 0.2 h + the reload (as long as the write at equal bandwidths);
    // W = C (1 + d / t) / (1 - r ((t + d) / 2 + R)).
    const double R = 0.2 + d;
    const double spotWall = C * (1.0 + d / 0.5) / (1.0 - 0.1 * ((0.5 + d) / 2.0 + R));
    EXPECT_TRUE(b.spotFinishes);
    EXPECT_NEAR(b.spotWallHours, spotWall, 1e-9);
    EXPECT_NEAR(b.spotInterruptions, 0.1 * spotWall, 1e-9);
    EXPECT_NEAR(b.spotComputeUsd, spotWall * h100.priceSpotUsdHour, 1e-9);
    EXPECT_NEAR(b.spotMeanHoursBetweenInterruptions, 10.0, 1e-12);
    // Young's optimum for comparison, sqrt(2 d x 10 h) = sqrt(2 x 0.000227 x 10) = 0.067 h, is below the 10-minute
    // floor: the recommendation is 10 minutes.
    EXPECT_LT(std::sqrt(2.0 * d * 10.0), 10.0 / 60.0);
    EXPECT_NEAR(b.recommendedIntervalHours, 10.0 / 60.0, 1e-12);
    // Storage: 3 checkpoints x 0.0818 GB x $0.10 per GB-month x (run days + 7) / 30 (on demand is the price in use).
    const double gb = 81'788'928.0 / 1e9;
    EXPECT_NEAR(b.storageUsd, 3 * gb * 0.10 * (b.onDemandWallHours / 24.0 + 7.0) / 30.0, 1e-12);
    // Egress: the adapters (6,815,744 x 4 B) and the 3 checkpoints, at $0.09 per GB.
    EXPECT_DOUBLE_EQ(b.finalBytes, 6'815'744.0 * 4.0);
    EXPECT_NEAR(b.egressUsd, (6'815'744.0 * 4.0 + 3 * 81'788'928.0) / 1e9 * 0.09, 1e-12);
    // A stopped instance keeps its disks: the base weights in bf16 (8,030,261,248 x 2 B), the checkpoints and the
    // adapters, at $0.10 per GB-month, per day.
    EXPECT_NEAR(b.diskBytes, 8'030'261'248.0 * 2.0 + 3 * 81'788'928.0 + 6'815'744.0 * 4.0, 1.0);
    EXPECT_NEAR(b.stoppedUsdPerDay, b.diskBytes / 1e9 * 0.10 / 30.0, 1e-12);
    EXPECT_NEAR(b.totalOnDemandUsd, b.onDemandComputeUsd + b.storageUsd + b.egressUsd, 1e-9);
    // Spot's total: its GPU time, storage for its own (longer) wall time, the same traffic.
    const double spotStorage = 3 * gb * 0.10 * (spotWall / 24.0 + 7.0) / 30.0;
    EXPECT_NEAR(b.storageSpotUsd, spotStorage, 1e-12);
    EXPECT_NEAR(b.totalSpotUsd, spotWall * h100.priceSpotUsdHour + spotStorage + b.egressUsd, 1e-9);
    // The catalog's H100 spot price is 1.70 against 2.99 on demand, and the interruptions stretch the run by
    // 1 / (1 - 0.1 x 0.47) = 1.05 at most: spot pays.
    EXPECT_LT(h100.priceSpotUsdHour * 1.05, h100.priceOnDemandUsdHour);
    EXPECT_TRUE(b.spotPays);
}

TEST(Bill, WithNoInterruptionsSpotTakesTheOnDemandTimeAndOneCheckpointAtTheEndIsRecommended) {
    core::Scenario s = core::defaultScenario(catalog());
    const core::GpuSpec& h100 = gpu("h100-sxm");
    core::PlanInputs in;
    in.datasetTokens = 1e9;
    in.bill.interruptionsPerDay = 0.0;
    const core::Candidate plan = core::fitAsIs(s, h100, in);
    ASSERT_TRUE(plan.fits());
    const core::RunBill b = core::runBill(plan, h100, in);
    // r = 0: no mean time between interruptions, the interval is the run (at least 10 minutes), and
    // W = C (1 + d / C) / 1 = C + d on both prices.
    EXPECT_TRUE(std::isinf(b.spotMeanHoursBetweenInterruptions));
    EXPECT_NEAR(b.recommendedIntervalHours, std::max(b.computeHours, 10.0 / 60.0), 1e-12);
    EXPECT_NEAR(b.spotWallHours, b.onDemandWallHours, 1e-12);
    EXPECT_DOUBLE_EQ(b.spotInterruptions, 0.0);
    // A card without a spot price (0) offers no spot run, whatever it would cost.
    core::GpuSpec noSpot = h100;
    noSpot.priceSpotUsdHour = 0.0;
    const core::RunBill none = core::runBill(plan, noSpot, in);
    EXPECT_FALSE(none.spotOffered);
    EXPECT_FALSE(none.spotPays);
}

TEST(Bill, SpotStopsPayingWhenEveryNodesPreemptionStopsALongMultiNodeRun) {
    // Full fine-tuning of 70B on 64 H100 (8 nodes): with 1 interruption per node-day the run is interrupted every
    // 24 / 8 = 3 h; with 12 per node-day every 15 minutes. A restart of 15 minutes alone then loses r x R = 4/h x
    // 0.25 h = 1 hour per hour, before any lost segment or reload: the run never finishes, whatever the interval.
    core::Scenario s = core::defaultScenario(catalog());
    s.modelId = "llama-3.1-70b";
    s.model = catalog().findModel("llama-3.1-70b")->arch;
    s.method = core::Method::Full;
    s.gpus = 64;
    s.tensorParallel = 8;
    s.sharding = core::Sharding::Zero1;
    s.microBatch = 1;
    core::PlanInputs in;
    in.datasetTokens = 1e9;
    const core::GpuSpec& h100 = gpu("h100-sxm");
    const core::Candidate plan = core::fitAsIs(s, h100, in);
    ASSERT_TRUE(plan.fits()) << static_cast<int>(plan.why);
    in.bill.interruptionsPerDay = 1.0;
    core::RunBill b = core::runBill(plan, h100, in);
    EXPECT_DOUBLE_EQ(b.nodes, 8.0);
    EXPECT_NEAR(b.spotMeanHoursBetweenInterruptions, 3.0, 1e-12);
    in.bill.interruptionsPerDay = 12.0;
    in.bill.restartMinutes = 15.0;
    b = core::runBill(plan, h100, in);
    EXPECT_NEAR(b.spotMeanHoursBetweenInterruptions, 0.25, 1e-12);
    EXPECT_FALSE(b.spotFinishes);
    EXPECT_FALSE(b.spotPays);
    EXPECT_TRUE(std::isinf(b.totalSpotUsd));
}

TEST(Bill, TheOneHourTestTakesTheCheapestCardThatFitsNotTheCheapestCard) {
    // Three cards, at most 8 of each: a 2 GiB one at $0.05/h (the cheapest, but even split 8 ways the 8B model's
    // frozen weights, 16.06 GB / 8 = 1.87 GiB, and the 0.5 GiB CUDA context exceed it), the RTX 4090 at $0.30/h and
    // the H100 at $2.50/h. The default 8B LoRA fits one 4090 with a micro-batch of 1 (12.4 GiB, the advisor's first
    // fix): the hour costs 1 x $0.30, less than any count of the H100.
    core::GpuSpec tiny = gpu("rtx-4090");
    tiny.id = "tiny-card";
    tiny.memoryGiBUsable = 2.0;
    tiny.priceOnDemandUsdHour = 0.05;
    core::GpuSpec consumer = gpu("rtx-4090");
    consumer.priceOnDemandUsdHour = 0.30;
    core::GpuSpec datacenter = gpu("h100-sxm");
    datacenter.priceOnDemandUsdHour = 2.50;
    core::PlanInputs in;
    in.maxGpus = 8;
    const core::Scenario s = core::defaultScenario(catalog());
    const std::vector<core::GpuSpec> cards{tiny, consumer, datacenter};
    const core::TrialHour trial = core::oneHourTest(s, cards, in);
    ASSERT_TRUE(trial.gpu.has_value());
    EXPECT_EQ(trial.gpu->id, "rtx-4090");
    EXPECT_EQ(trial.plan.scenario.gpus, 1);
    EXPECT_EQ(trial.plan.scenario.microBatch, 1);
    EXPECT_EQ(trial.plan.scenario.seqLen, 2048); // the real sequence length, not a shortened one
    EXPECT_DOUBLE_EQ(trial.usdForHour, 0.30);
    EXPECT_NEAR(trial.stepsInHour, 3600.0 / trial.plan.plan.step.stepSeconds, 1e-9);
    for (std::int64_t n : {1, 2, 4, 8}) {
        EXPECT_FALSE(core::fitAtCount(s, tiny, n, in).fits()) << n;
    }
}

TEST(Bill, WhenOneStepOutlastsTheHourTheCheaperStepIsTheTest) {
    // Llama-3.1-70B on 4,000,000-token sequences over 32 cards (Ulysses, TiledMLP, checkpoint offload): a step takes
    // hours on any card, so a test costs the step, count x price x step hours, and the card with the cheapest such
    // step wins over the card with the cheapest hour.
    const core::Scenario s = fixtures::arcticLlama70bUlysses32();
    ASSERT_TRUE(core::validate(s).has_value());
    core::PlanInputs in;
    const std::vector<core::GpuSpec> cards{gpu("rtx-a6000"), gpu("h100-sxm"), gpu("b200")};
    const core::TrialHour trial = core::oneHourTest(s, cards, in);
    ASSERT_TRUE(trial.gpu.has_value());
    ASSERT_LT(trial.stepsInHour, 1.0);
    EXPECT_NEAR(trial.usdForTest, trial.usdForHour * trial.plan.plan.step.stepSeconds / 3600.0, 1e-6);
    // No card's own cheapest fitting count gives a cheaper test.
    for (const auto& card : cards) {
        for (std::int64_t n : core::cardCounts(card, in.maxGpus)) {
            const core::Candidate c = core::fitAtCount(s, card, n, in);
            if (c.fits()) {
                const double test = static_cast<double>(n) * card.priceOnDemandUsdHour *
                                    std::max(1.0, c.plan.step.stepSeconds / 3600.0);
                EXPECT_GE(test, trial.usdForTest - 1e-6) << card.id << " x " << n;
                break;
            }
        }
    }
}
