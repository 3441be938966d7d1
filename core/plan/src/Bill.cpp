#include "gpusizer/plan/Bill.h"

#include "gpusizer/scenario/Units.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpusizer::core {

namespace {

constexpr double kMinIntervalHours = 10.0 / 60.0;

double nodesOf(const Scenario& s, const GpuSpec& gpu) {
    return std::ceil(static_cast<double>(rentedGpus(s)) / static_cast<double>(std::max(1, gpu.gpusPerNode)));
}

} // namespace

CheckpointCost checkpointCost(const Scenario& s, const GpuSpec& gpu, const PlanInputs& in) {
    CheckpointCost c;
    c.bytes = checkpointBytes(s);
    // Sharded states (ZeRO, FSDP, tensor or pipeline parallel) are saved by every rank, each node to its own disk in
    // parallel (DeepSpeed save_checkpoint, torch.distributed.checkpoint); replicated ones by rank 0 alone.
    const bool sharded = s.sharding != Sharding::None || s.tensorParallel > 1 || s.pipelineParallel > 1;
    c.writers = sharded ? nodesOf(s, gpu) : 1.0;
    const double write = std::max(1e-3, in.bill.storageWriteGBs) * kGB * c.writers;
    const double read = std::max(1e-3, in.bill.storageReadGBs) * kGB * c.writers;
    c.writeSeconds = c.bytes / write;
    c.readSeconds = c.bytes / read;
    return c;
}

double youngIntervalHours(double writeSeconds, double meanHoursBetweenInterruptions) {
    return std::sqrt(2.0 * (writeSeconds / 3600.0) * meanHoursBetweenInterruptions);
}

std::optional<double> expectedWallHours(double computeHours, double intervalHours, double writeSeconds, double perHour,
                                        double restartHours) {
    const double d = writeSeconds / 3600.0;
    const double t = std::max(intervalHours, 1e-9);
    // Without interruptions each interval of work costs t + d of wall time. An interruption (rate r per wall hour)
    // loses on average half of the segment it strikes, (t + d) / 2, and the restart R; W = C (1 + d/t) + r W L.
    const double lostPerInterruption = (t + d) / 2.0 + restartHours;
    const double progress = 1.0 - perHour * lostPerInterruption;
    if (progress <= 0.0) {
        return std::nullopt;
    }
    return computeHours * (1.0 + d / t) / progress;
}

RunBill runBill(const Candidate& plan, const GpuSpec& gpu, const PlanInputs& in) {
    RunBill b;
    const Scenario& s = plan.scenario;
    const BillAssumptions& a = in.bill;
    b.checkpoint = checkpointCost(s, gpu, in);
    b.computeHours = plan.plan.stepHours;
    b.fixed = plan.plan.fixed;
    const double fixedHours = b.fixed.totalSeconds() / 3600.0;
    b.nodes = nodesOf(s, gpu);
    // A vLLM server's cards are rented for the whole run beside the training GPUs.
    const double gpus = static_cast<double>(rentedGpus(s));
    b.serverGpus = serverGpus(s);

    // Spot: any node's preemption stops the run (data-parallel ranks wait in their collectives), so the run's rate
    // is the node's rate times the nodes.
    const double perHour = std::max(0.0, a.interruptionsPerDay) / 24.0 * b.nodes;
    b.spotMeanHoursBetweenInterruptions = perHour > 0 ? 1.0 / perHour : std::numeric_limits<double>::infinity();
    // Young's optimum; with no interruptions there is nothing to trade against, and one checkpoint at the end is the
    // least overhead: the interval is capped at the run.
    b.recommendedIntervalHours =
        perHour > 0 ? youngIntervalHours(b.checkpoint.writeSeconds, b.spotMeanHoursBetweenInterruptions)
                    : b.computeHours;
    // Not more often than every 10 minutes: a save also pauses training (barrier, copying states off the GPU, fsync)
    // by more than its bytes take, which the formula does not see.
    b.recommendedIntervalHours =
        std::clamp(b.recommendedIntervalHours, kMinIntervalHours, std::max(b.computeHours, kMinIntervalHours));
    b.intervalHours = a.checkpointIntervalHours.value_or(b.recommendedIntervalHours);
    b.checkpointShare = (b.checkpoint.writeSeconds / 3600.0) / std::max(b.intervalHours, 1e-9);

    // Around the steps: provisioning, environment, download, load, start-up, the final save and its copy (every card
    // held meanwhile); each started instance is billed as its price is (rounded up, with a minimum).
    const auto billedHours = [&](double wallHours) { return gpu.billing.billed(wallHours * 3600.0) / 3600.0; };
    const double before = (b.fixed.provisionSeconds + b.fixed.environmentSeconds + b.fixed.downloadSeconds +
                           b.fixed.loadSeconds + b.fixed.startupSeconds) /
                          3600.0;
    const double after = (b.fixed.finalSaveSeconds + b.fixed.copyOutSeconds) / 3600.0;
    b.beforeUsdOnDemand = before * gpus * hourlyPrice(gpu, in, false);
    b.afterUsdOnDemand = after * gpus * hourlyPrice(gpu, in, false);
    b.beforeUsdSpot = before * gpus * hourlyPrice(gpu, in, true);
    b.afterUsdSpot = after * gpus * hourlyPrice(gpu, in, true);
    b.onDemandWallHours = b.computeHours * (1.0 + b.checkpointShare) + fixedHours;
    b.onDemandComputeUsd = billedHours(b.onDemandWallHours) * gpus * hourlyPrice(gpu, in, false);
    const double restartHours = a.restartMinutes / 60.0 + b.checkpoint.readSeconds / 3600.0;
    const auto spotWall =
        expectedWallHours(b.computeHours, b.intervalHours, b.checkpoint.writeSeconds, perHour, restartHours);
    b.spotFinishes = spotWall.has_value();
    b.spotWallHours = spotWall ? *spotWall + fixedHours : std::numeric_limits<double>::infinity();
    b.spotInterruptions = b.spotFinishes ? perHour * *spotWall : std::numeric_limits<double>::infinity();
    b.spotComputeUsd =
        b.spotFinishes ? billedHours(b.spotWallHours) * gpus * hourlyPrice(gpu, in, true) : b.spotWallHours;

    // What the run leaves: the final weights (full, saved in bf16 or fp32 as trained) or the adapters (fp32, as PEFT
    // saves fp32 adapters), the retained checkpoints, and the base weights downloaded onto the instance's disk.
    const double params = static_cast<double>(plan.estimate.params.total);
    // The base weights are downloaded in 16 bits; the trained ones are saved as the run keeps them.
    const double weightBytes = params * 2.0;
    b.finalBytes = b.fixed.resultBytes;
    const double retained = static_cast<double>(std::max(0, in.retainedCheckpoints)) * b.checkpoint.bytes;
    const double wallInUse = in.spot && b.spotFinishes ? b.spotWallHours : b.onDemandWallHours;
    b.storageDays = wallInUse / 24.0 + std::max(0.0, a.keepDays);
    // Block and object storage bill GB-months pro rata (per hour or per second), so a two-day run pays two days.
    auto storageFor = [&](double wallHours) {
        return retained / kGB * in.storageUsdPerGbMonth * (wallHours / 24.0 + std::max(0.0, a.keepDays)) / 30.0;
    };
    b.storageUsd = storageFor(wallInUse);
    b.storageOnDemandUsd = storageFor(b.onDemandWallHours);
    b.storageSpotUsd = b.spotFinishes ? storageFor(b.spotWallHours) : std::numeric_limits<double>::infinity();
    b.egressBytes = b.finalBytes + retained;
    b.egressUsd = b.egressBytes / kGB * std::max(0.0, a.egressUsdPerGb);
    b.diskBytes = weightBytes + retained + b.finalBytes;
    b.stoppedUsdPerDay = b.diskBytes / kGB * in.storageUsdPerGbMonth / 30.0;
    b.clusterUsdPerHour = gpus * rankedHourlyPrice(gpu, in);
    b.totalOnDemandUsd = b.onDemandComputeUsd + b.storageOnDemandUsd + b.egressUsd;
    b.totalSpotUsd =
        b.spotFinishes ? b.spotComputeUsd + b.storageSpotUsd + b.egressUsd : std::numeric_limits<double>::infinity();
    b.spotOffered = hourlyPrice(gpu, in, true) > 0;
    b.spotPays = b.spotOffered && b.spotFinishes && b.totalSpotUsd < b.totalOnDemandUsd;
    return b;
}

namespace {

/// A data-parallel replica: every card holds the whole model states and computes its own micro-batches.
bool replicated(const Scenario& s) {
    return s.sharding == Sharding::None && s.tensorParallel == 1 && s.pipelineParallel == 1 && s.contextParallel <= 1 &&
           s.expertParallel <= 1 && s.offload == Offload::None;
}

/// The rental's layout on one node: the same tensor- and context-parallel degrees, micro-batch and checkpointing, the
/// pipeline cut to what a node holds, the model states sharded over the node's ranks; nullopt when no node does.
std::optional<Scenario> onOneNode(const Scenario& rental, const GpuSpec& gpu) {
    Scenario s = rental;
    const std::int64_t node = gpu.gpusPerNode;
    const std::int64_t cp = std::max<std::int64_t>(1, s.contextParallel);
    if (s.tensorParallel * cp > node) {
        return std::nullopt;
    }
    while (s.pipelineParallel > 1 &&
           (s.tensorParallel * s.pipelineParallel * cp > node ||
            node % (s.tensorParallel * s.pipelineParallel * cp) != 0 || s.model.numLayers % s.pipelineParallel != 0)) {
        --s.pipelineParallel;
    }
    if (node % (s.tensorParallel * s.pipelineParallel * cp) != 0) {
        return std::nullopt;
    }
    s.gpus = node;
    if (s.expertParallel > 1) {
        const std::int64_t dp = node / (s.tensorParallel * s.pipelineParallel);
        while (s.expertParallel > 1 && (dp % s.expertParallel != 0)) {
            s.expertParallel /= 2;
        }
    }
    return s;
}

} // namespace

TrialHour firstTest(const Candidate& rental, const GpuSpec& gpu, const PlanInputs& inputs) {
    TrialHour t;
    t.rental = rental;
    const Scenario& r = rental.scenario;
    std::optional<Scenario> test;
    if (r.gpus <= 1) {
        t.scope = TestScope::WholeRental;
    } else if (replicated(r)) {
        t.scope = TestScope::OneReplica;
        test = r;
        test->gpus = 1;
    } else if (r.gpus <= gpu.gpusPerNode) {
        t.scope = TestScope::WholeRental;
    } else {
        t.scope = TestScope::OneNode;
        test = onOneNode(r, gpu);
    }
    if (test) {
        // The test's own verdict and step time: what its measurement is compared with.
        Candidate c = fitAsIs(*test, gpu, inputs);
        if (c.fits()) {
            t.plan = std::move(c);
        } else {
            test.reset();
        }
    }
    if (!test) {
        if (t.scope != TestScope::WholeRental) {
            t.scope = TestScope::FirstHour;
        }
        t.plan = rental;
    }
    t.gpu = gpu;
    const double price = hourlyPrice(gpu, inputs, false);
    const double cards = static_cast<double>(rentedGpus(t.plan.scenario));
    const FixedCosts& f = t.plan.plan.fixed;
    t.setupSeconds = f.provisionSeconds + f.environmentSeconds + f.downloadSeconds + f.loadSeconds + f.startupSeconds;
    t.usdForHour = cards * price;
    const double step = t.plan.plan.step.stepSeconds;
    t.stepsInHour = step > 0 ? 3600.0 / step : 0.0;
    t.usdForTest = cards * price * gpu.billing.billed(t.setupSeconds + std::max(3600.0, step)) / 3600.0;
    return t;
}

TrialHour firstTestOf(const std::vector<CardPlan>& plans, const Ranking& ranking, const PlanInputs& inputs) {
    if (ranking.chosen < 0) {
        return {};
    }
    const CardPlan& chosen = plans[static_cast<std::size_t>(ranking.chosen)];
    return firstTest(chosen.best, *chosen.gpu, inputs);
}

TrialHour oneHourTest(const Scenario& scenario, const std::vector<GpuSpec>& gpus, const PlanInputs& inputs) {
    const std::vector<CardPlan> plans = planCatalog(scenario, gpus, inputs);
    return firstTestOf(plans, rank(plans, inputs), inputs);
}

} // namespace gpusizer::core
