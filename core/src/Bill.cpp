#include "gpusizer/core/Bill.h"

#include "gpusizer/core/Units.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpusizer::core {

namespace {

constexpr double kMinIntervalHours = 10.0 / 60.0;

double nodesOf(const Scenario& s, const GpuSpec& gpu) {
    return std::ceil(static_cast<double>(s.gpus) / static_cast<double>(std::max(1, gpu.gpusPerNode)));
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
    b.computeHours = plan.plan.wallHours;
    b.nodes = nodesOf(s, gpu);
    const double gpus = static_cast<double>(s.gpus);

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

    b.onDemandWallHours = b.computeHours * (1.0 + b.checkpointShare);
    b.onDemandComputeUsd = b.onDemandWallHours * gpus * hourlyPrice(gpu, in, false);
    const double restartHours = a.restartMinutes / 60.0 + b.checkpoint.readSeconds / 3600.0;
    const auto spotWall =
        expectedWallHours(b.computeHours, b.intervalHours, b.checkpoint.writeSeconds, perHour, restartHours);
    b.spotFinishes = spotWall.has_value();
    b.spotWallHours = spotWall.value_or(std::numeric_limits<double>::infinity());
    b.spotInterruptions = b.spotFinishes ? perHour * b.spotWallHours : std::numeric_limits<double>::infinity();
    b.spotComputeUsd = b.spotWallHours * gpus * hourlyPrice(gpu, in, true);

    // What the run leaves: the final weights (full, saved in bf16 or fp32 as trained) or the adapters (fp32, as PEFT
    // saves fp32 adapters), the retained checkpoints, and the base weights downloaded onto the instance's disk.
    const double params = static_cast<double>(plan.estimate.params.total);
    // The base weights are downloaded in 16 bits; the trained ones are saved as the run keeps them.
    const double weightBytes = params * 2.0;
    b.finalBytes = s.method == Method::Full ? params * weightBytesPerParam(s.precision)
                                            : static_cast<double>(plan.estimate.trainableParams) * 4.0;
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
    b.clusterUsdPerHour = gpus * hourlyPrice(gpu, in, in.spot);
    b.totalOnDemandUsd = b.onDemandComputeUsd + b.storageOnDemandUsd + b.egressUsd;
    b.totalSpotUsd =
        b.spotFinishes ? b.spotComputeUsd + b.storageSpotUsd + b.egressUsd : std::numeric_limits<double>::infinity();
    b.spotOffered = hourlyPrice(gpu, in, true) > 0;
    b.spotPays = b.spotOffered && b.spotFinishes && b.totalSpotUsd < b.totalOnDemandUsd;
    return b;
}

TrialHour oneHourTest(const Scenario& scenario, const std::vector<GpuSpec>& gpus, const PlanInputs& inputs) {
    // Without CPU offload first: offload changes what the GPU holds, so such an hour would not check the estimate of
    // the run; only when no card fits without it is an offloading layout the test.
    PlanInputs in = inputs;
    in.allowOffload = false;
    if (inputs.allowOffload) {
        if (TrialHour onGpu = oneHourTest(scenario, gpus, in); onGpu.gpu) {
            return onGpu;
        }
        in.allowOffload = true;
    }
    TrialHour best;
    for (const GpuSpec& gpu : gpus) {
        const double price = hourlyPrice(gpu, in, false); // on demand: a test must not be preempted
        for (std::int64_t count : cardCounts(gpu, in.maxGpus)) {
            const double hour = static_cast<double>(count) * price;
            if (best.gpu && hour >= best.usdForTest) {
                break; // a test costs at least its hour: more cards of this one only cost more
            }
            const Candidate c = fitAtCount(scenario, gpu, count, in);
            if (!c.fits() || c.plan.step.stepSeconds <= 0) {
                continue;
            }
            // The test is an hour, or the one step that outlasts it: the cheaper test wins, not the cheaper hour.
            const double test = hour * std::max(1.0, c.plan.step.stepSeconds / 3600.0);
            if (!best.gpu || test < best.usdForTest) {
                best.gpu = gpu;
                best.plan = c;
                best.usdForHour = hour;
                best.stepsInHour = 3600.0 / c.plan.step.stepSeconds;
                best.usdForTest = test;
            }
            break; // the fewest cards that fit are this card's cheapest hour
        }
    }
    return best;
}

} // namespace gpusizer::core
