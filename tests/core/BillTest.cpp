// The whole bill (core/Bill.h), each figure derived by hand from the formulas of docs/planning.md.
#include "gpusizer/plan/Bill.h"

#include "TestModels.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/scenario/ScenarioJson.h"
#include "gpusizer/scenario/Units.h"

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
    const double C = plan.plan.stepHours;
    // Around the steps (hand-derived in Planning.CostIsGpuHoursTimesPriceAndCheckpointsFollowTheMethod's terms): the
    // instance 10 min, the image 6 min, the 16-bit base (2 x 8,030,261,248 B) downloaded at 0.4 GB/s and read at
    // 0.1 GB/s (this volume), a minute of start-up; the adapters (4 x 6,815,744 B) written at 0.1 GB/s and copied out
    // at 0.4 GB/s.
    const double base16 = 2.0 * 8'030'261'248.0;
    const double adapters = 4.0 * 6'815'744.0;
    const double F =
        (600.0 + 360.0 + base16 / 0.4e9 + base16 / 0.1e9 + 60.0 + adapters / 0.1e9 + adapters / 0.4e9) / 3600.0;
    EXPECT_NEAR(b.fixed.totalSeconds() / 3600.0, F, 1e-9);
    const double d = 81'788'928.0 / 0.1e9 / 3600.0; // write time, hours
    EXPECT_NEAR(b.checkpoint.writeSeconds, 81'788'928.0 / 0.1e9, 1e-9);
    EXPECT_DOUBLE_EQ(b.intervalHours, 0.5);
    EXPECT_NEAR(b.checkpointShare, d / 0.5, 1e-12);
    // On demand: W = C (1 + d / t) + F; GPU cost = W rounded up to the minute (a neocloud's billing) x 1 GPU x the
    // on-demand price.
    const auto minutes = [](double hours) { return std::ceil(hours * 60.0 - 1e-9) / 60.0; };
    EXPECT_NEAR(b.onDemandWallHours, C * (1.0 + d / 0.5) + F, 1e-9);
    EXPECT_NEAR(b.onDemandComputeUsd, minutes(b.onDemandWallHours) * h100.priceOnDemandUsdHour, 1e-9);
    // The fixed costs' own lines: the cards while they last, at each price.
    const double before = (600.0 + 360.0 + base16 / 0.4e9 + base16 / 0.1e9 + 60.0) / 3600.0;
    EXPECT_NEAR(b.beforeUsdOnDemand, before * h100.priceOnDemandUsdHour, 1e-9);
    EXPECT_NEAR(b.afterUsdSpot, (adapters / 0.1e9 + adapters / 0.4e9) / 3600.0 * h100.priceSpotUsdHour, 1e-12);
    // Spot: r = 2.4 / 24 = 0.1 per hour over the steps; R = 0.2 h + the reload (as long as the write at equal
    // bandwidths); W = C (1 + d / t) / (1 - r ((t + d) / 2 + R)) + F.
    const double R = 0.2 + d;
    const double steps = C * (1.0 + d / 0.5) / (1.0 - 0.1 * ((0.5 + d) / 2.0 + R));
    const double spotWall = steps + F;
    EXPECT_TRUE(b.spotFinishes);
    EXPECT_NEAR(b.spotWallHours, spotWall, 1e-9);
    EXPECT_NEAR(b.spotInterruptions, 0.1 * steps, 1e-9);
    EXPECT_NEAR(b.spotComputeUsd, minutes(spotWall) * h100.priceSpotUsdHour, 1e-9);
    EXPECT_NEAR(b.spotMeanHoursBetweenInterruptions, 10.0, 1e-12);
    // Young's optimum for comparison, sqrt(2 d x 10 h) = sqrt(2 x 0.000227 x 10) = 0.067 h, is below the 10-minute
    // floor: the recommendation is 10 minutes.
    EXPECT_LT(std::sqrt(2.0 * d * 10.0), 10.0 / 60.0);
    EXPECT_NEAR(b.recommendedIntervalHours, 10.0 / 60.0, 1e-12);
    // Storage: 3 checkpoints x 0.0818 GB x $0.10 per GB-month x (run days + 7) / 30 (on demand is the price in use).
    const double gb = 81'788'928.0 / 1e9;
    EXPECT_NEAR(b.storageUsd, 3 * gb * 0.10 * (b.onDemandWallHours / 24.0 + 7.0) / 30.0, 1e-12);
    // Egress: the adapters (6,815,744 x 4 B) and the 3 checkpoints, at $0.09 per GB.
    EXPECT_DOUBLE_EQ(b.finalBytes, adapters);
    EXPECT_NEAR(b.egressUsd, (adapters + 3 * 81'788'928.0) / 1e9 * 0.09, 1e-12);
    // A stopped instance keeps its disks: the base weights in bf16 (8,030,261,248 x 2 B), the checkpoints and the
    // adapters, at $0.10 per GB-month, per day.
    EXPECT_NEAR(b.diskBytes, base16 + 3 * 81'788'928.0 + adapters, 1.0);
    EXPECT_NEAR(b.stoppedUsdPerDay, b.diskBytes / 1e9 * 0.10 / 30.0, 1e-12);
    EXPECT_NEAR(b.totalOnDemandUsd, b.onDemandComputeUsd + b.storageUsd + b.egressUsd, 1e-9);
    // Spot's total: its GPU time, storage for its own (longer) wall time, the same traffic.
    const double spotStorage = 3 * gb * 0.10 * (spotWall / 24.0 + 7.0) / 30.0;
    EXPECT_NEAR(b.storageSpotUsd, spotStorage, 1e-12);
    EXPECT_NEAR(b.totalSpotUsd, minutes(spotWall) * h100.priceSpotUsdHour + spotStorage + b.egressUsd, 1e-9);
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

namespace {

/// The set-up before a test's first step on one node (core::FixedCostAssumptions and BillAssumptions defaults): the
/// instance 10 min, the image 6 min, the 16-bit checkpoint downloaded at 0.4 GB/s and read at 1 GB/s, a minute of
/// start-up.
double setupSeconds(double params) {
    return 600.0 + 360.0 + 2.0 * params / 0.4e9 + 2.0 * params / 1e9 + 60.0;
}

core::CardPlan planOn(const core::Scenario& s, const char* id, const core::PlanInputs& in) {
    return core::planOnCard(s, gpu(id), in);
}

} // namespace

TEST(Bill, TheFirstTestIsOnTheCardThePlanRents) {
    // Whatever the catalog's cheapest hour, the test runs on the card the plan picks, so it checks that card's
    // memory, speed and software: across the whole catalog the test's card is the chosen plan's card.
    const core::Scenario s = core::defaultScenario(catalog());
    core::PlanInputs in;
    in.datasetTokens = 1e8;
    const auto plans = core::planCatalog(s, catalog().gpus, in);
    const auto ranking = core::rank(plans, in);
    ASSERT_GE(ranking.chosen, 0);
    const core::TrialHour trial = core::oneHourTest(s, catalog().gpus, in);
    ASSERT_TRUE(trial.gpu.has_value());
    EXPECT_EQ(trial.gpu->id, plans[static_cast<std::size_t>(ranking.chosen)].gpu->id);
    EXPECT_EQ(trial.plan.scenario.seqLen, 2048); // the real sequence length, not a shortened one
    EXPECT_EQ(trial.plan.scenario.microBatch, plans[static_cast<std::size_t>(ranking.chosen)].best.scenario.microBatch);
}

TEST(Bill, AOneNodeRentalIsItsOwnTestAndAReplicaIsTestedOnOneCard) {
    // Llama-2-7B full fine-tuning with ZeRO-3 on 4 H100 (one node): the test is the rental itself for an hour.
    core::Scenario s = core::defaultScenario(catalog());
    s.modelId = "llama-2-7b";
    s.model = catalog().findModel("llama-2-7b")->arch;
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16Fp32Master;
    s.gpus = 4;
    s.sharding = core::Sharding::Zero3;
    s.microBatch = 2;
    core::PlanInputs in;
    const core::GpuSpec& h100 = gpu("h100-sxm");
    const core::Candidate rental = core::fitAsIs(s, h100, in);
    ASSERT_TRUE(rental.fits());
    const core::TrialHour whole = core::firstTest(rental, h100, in);
    EXPECT_EQ(whole.scope, core::TestScope::WholeRental);
    EXPECT_EQ(whole.plan.scenario.gpus, 4);
    EXPECT_EQ(whole.plan.deviceBytes, rental.deviceBytes);
    // $2.99 x 4 cards for the hour; the test pays the set-up (6,738,415,616 parameters) and an hour of steps, billed
    // by the minute.
    const double setup = setupSeconds(6'738'415'616.0);
    EXPECT_NEAR(whole.setupSeconds, setup, 1e-6);
    EXPECT_DOUBLE_EQ(whole.usdForHour, 4 * 2.99);
    EXPECT_NEAR(whole.usdForTest, 4 * 2.99 * std::ceil((setup + 3600.0) / 60.0) / 60.0, 1e-9);

    // LoRA replicas on 4 cards (plain data parallel): every card holds the whole base and computes its own
    // micro-batches, so one card measures the per-GPU memory and step; only the all-reduce is not in it.
    core::Scenario lora = core::defaultScenario(catalog());
    lora.framework = core::Framework::HfTrainer; // PEFT under the Trainer with DDP: a named stack's band
    lora.gpus = 4;
    lora.sharding = core::Sharding::None;
    const core::Candidate replicas = core::fitAsIs(lora, h100, in);
    ASSERT_TRUE(replicas.fits());
    const core::TrialHour replica = core::firstTest(replicas, h100, in);
    EXPECT_EQ(replica.scope, core::TestScope::OneReplica);
    EXPECT_EQ(replica.plan.scenario.gpus, 1);
    EXPECT_EQ(replica.plan.scenario.microBatch, lora.microBatch);
    // The same activations and model states per GPU; the rental adds NCCL's buffers and DDP's gradient buckets.
    EXPECT_EQ(replica.plan.estimate.perGpu[core::Component::Activations],
              replicas.estimate.perGpu[core::Component::Activations]);
    EXPECT_EQ(replica.plan.estimate.perGpu[core::Component::Weights],
              replicas.estimate.perGpu[core::Component::Weights]);
    EXPECT_LE(replica.plan.deviceBytes, replicas.deviceBytes);
    EXPECT_DOUBLE_EQ(replica.usdForHour, 2.99);
}

TEST(Bill, AMultiNodeRentalIsTestedOnOneNodeThatHoldsMorePerCardOrInItsFirstHour) {
    // Llama-3.1-8B full fine-tuning with ZeRO-3 over 16 H100 (two nodes): one node shards the model states over 8
    // ranks instead of 16, so each card holds twice the states' share. bf16 with fp32 master weights keeps
    // 2 + 2 + 4 + 8 = 16 B per parameter, sharded 16 ways on the rental and 8 ways on the test's node: twice the
    // states per card. If the node fits, the rental fits.
    core::Scenario s = core::defaultScenario(catalog());
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16Fp32Master;
    s.gpus = 16;
    s.sharding = core::Sharding::Zero3;
    s.microBatch = 1;
    core::PlanInputs in;
    const core::GpuSpec& h100 = gpu("h100-sxm");
    const core::Candidate rental = core::fitAsIs(s, h100, in);
    ASSERT_TRUE(rental.fits());
    const core::TrialHour node = core::firstTest(rental, h100, in);
    EXPECT_EQ(node.scope, core::TestScope::OneNode);
    EXPECT_EQ(node.plan.scenario.gpus, 8);
    EXPECT_EQ(node.plan.scenario.sharding, core::Sharding::Zero3);
    // (Weights and optimizer states: the gradients at the peak depend on which moment the peak is.)
    const auto states = [](const core::Candidate& c) {
        return c.estimate.perGpu[core::Component::Weights] + c.estimate.perGpu[core::Component::OptimizerStates];
    };
    EXPECT_NEAR(static_cast<double>(states(node.plan)), 2.0 * static_cast<double>(states(rental)),
                0.01 * static_cast<double>(states(node.plan)));
    EXPECT_GT(node.plan.deviceBytes, rental.deviceBytes);
    EXPECT_DOUBLE_EQ(node.usdForHour, 8 * 2.99);

    // Llama-3.1-70B the same way over 64 A100 40GB: one node of 8 would hold 16 x 70.6e9 / 8 = 141 GB per card of
    // states alone, beyond 40 GB: no node-sized run holds the per-GPU share, so the rental's first hour is the test.
    core::Scenario big = s;
    big.modelId = "llama-3.1-70b";
    big.model = catalog().findModel("llama-3.1-70b")->arch;
    big.gpus = 64;
    const core::GpuSpec& a100 = gpu("a100-40gb-sxm");
    const core::Candidate bigRental = core::fitAsIs(big, a100, in);
    ASSERT_TRUE(bigRental.fits()) << static_cast<int>(bigRental.why);
    const core::TrialHour first = core::firstTest(bigRental, a100, in);
    EXPECT_EQ(first.scope, core::TestScope::FirstHour);
    EXPECT_EQ(first.plan.scenario.gpus, 64);
    EXPECT_DOUBLE_EQ(first.usdForHour, 64 * a100.priceOnDemandUsdHour);
}

TEST(Bill, WhenOneStepOutlastsTheHourTheTestIsTheSetUpAndThatStep) {
    // Llama-3.1-70B on 4,000,000-token sequences over 32 cards (Ulysses, TiledMLP, checkpoint offload): a step takes
    // hours, so the test is the set-up and one step, billed by the minute.
    const core::Scenario s = fixtures::arcticLlama70bUlysses32();
    ASSERT_TRUE(core::validate(s).has_value());
    core::PlanInputs in;
    const core::CardPlan plan = planOn(s, "h100-sxm", in);
    ASSERT_TRUE(plan.found);
    const core::TrialHour trial = core::firstTest(plan.best, gpu("h100-sxm"), in);
    ASSERT_TRUE(trial.gpu.has_value());
    ASSERT_LT(trial.stepsInHour, 1.0);
    const double step = trial.plan.plan.step.stepSeconds;
    EXPECT_NEAR(trial.usdForTest, trial.usdForHour * std::ceil((trial.setupSeconds + step) / 60.0) / 60.0, 1e-6);
}
