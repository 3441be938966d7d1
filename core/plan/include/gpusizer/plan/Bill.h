#pragma once
// The whole bill of a run beyond the GPU-hour: checkpoint time, spot interruptions and the checkpoint interval that
// minimises their cost, storage for the run's real duration and the days after it, traffic out, the disks of a
// stopped instance, and the one-hour test on the cheapest card that fits. Formulas and defaults: docs/planning.md.

#include "gpusizer/plan/Planner.h"
#include "gpusizer/plan/Planning.h"
#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/Scenario.h"

#include <optional>
#include <vector>

namespace gpusizer::core {

/// Writing one checkpoint: each writer (a node) writes its share at the storage bandwidth.
struct CheckpointCost {
    double bytes = 0;   ///< one resumable checkpoint, whole (checkpointBytes())
    double writers = 1; ///< nodes writing in parallel: every node when the states are sharded, else rank 0 alone
    double writeSeconds = 0;
    double readSeconds = 0; ///< reading it back after a restart
};
CheckpointCost checkpointCost(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs);

/// Young's first-order optimum interval between checkpoints, sqrt(2 x write time x mean time between interruptions)
/// (J. W. Young, CACM 17(9), 1974); hours.
double youngIntervalHours(double writeSeconds, double meanHoursBetweenInterruptions);

/// Expected wall time of `computeHours` of work checkpointed every `intervalHours` (each checkpoint `writeSeconds`)
/// when interruptions arrive at `perHour` (Poisson): every interruption loses half a segment on average and
/// `restartHours`. W = C (1 + d / t) / (1 - r ((t + d) / 2 + R)); nullopt when the bracket is not positive (the run
/// is interrupted faster than it progresses and never finishes).
std::optional<double> expectedWallHours(double computeHours, double intervalHours, double writeSeconds, double perHour,
                                        double restartHours);

/// The whole bill of one plan (a card, a count and a layout).
struct RunBill {
    CheckpointCost checkpoint;
    double computeHours = 0;      ///< the plan's training steps without checkpoints (costPlan)
    FixedCosts fixed;             ///< around the steps (costPlan): in both wall times below
    double beforeUsdOnDemand = 0; ///< the cards during provisioning, environment, download, load, start-up
    double afterUsdOnDemand = 0;  ///< the cards during the final save and its copy out
    double beforeUsdSpot = 0;
    double afterUsdSpot = 0;
    double intervalHours = 0;            ///< in effect: the user's, else the recommended one
    double recommendedIntervalHours = 0; ///< Young's optimum on spot; on demand the same (no interruptions to trade)
    double checkpointShare = 0;          ///< of the run spent writing checkpoints: write time / interval
    double nodes = 1;
    std::int64_t serverGpus = 0; ///< of the cards billed, GRPO's vLLM server GPUs (the rest train)
    // On demand: no interruptions.
    double onDemandWallHours = 0;  ///< steps, checkpoint writes and the fixed costs
    double onDemandComputeUsd = 0; ///< the cards for that time, billed as their price is
    // Spot: one node's preemption stops every node, so the run's mean time between interruptions is the node's / nodes.
    double spotMeanHoursBetweenInterruptions = 0;
    bool spotFinishes = true;
    double spotWallHours = 0; ///< expected; meaningful when spotFinishes
    double spotInterruptions = 0;
    double spotComputeUsd = 0;
    bool spotOffered = true; ///< the card has a spot price (0 in a catalog or price file: none)
    bool spotPays = true;    ///< offered, finishes, and its total is below the on-demand total
    // Storage and traffic.
    double storageDays = 0;        ///< the run (on the price in use) and the days until the copies are made
    double storageUsd = 0;         ///< retained checkpoints for storageDays
    double storageOnDemandUsd = 0; ///< for the on-demand wall time and the days kept
    double storageSpotUsd = 0;     ///< for the expected spot wall time and the days kept
    double finalBytes = 0;         ///< the weights (full) or the adapters the run produces
    double egressBytes = 0;        ///< final weights or adapters plus the retained checkpoints, copied out
    double egressUsd = 0;
    double diskBytes = 0;         ///< what the instance's disks hold at the end: base weights, checkpoints, result
    double stoppedUsdPerDay = 0;  ///< a stopped instance still pays for its disks
    double clusterUsdPerHour = 0; ///< the cards of the plan, at the price in use
    double totalOnDemandUsd = 0;  ///< compute + storage + egress
    double totalSpotUsd = 0;      ///< expected; compute + storage + egress
};
RunBill runBill(const Candidate& plan, const GpuSpec& gpu, const PlanInputs& inputs);

/// What the first test reproduces of the rental.
enum class TestScope {
    WholeRental, ///< the rental itself (one node or less), for an hour
    OneReplica,  ///< one data-parallel replica: each card of the rental holds and computes the same
    OneNode,     ///< one node of a multi-node rental: the model states shard over fewer ranks, so each card holds more
    FirstHour,   ///< no node-sized run holds the rental's per-GPU share: the rental's own first hour is the test
};

/// The first step before renting the run: an hour on the card type the plan rents, at a count that can be rented for
/// an hour (one node or fewer), reproducing the plan's per-GPU memory at the real sequence length and batch (or more
/// of it, when the rental spans nodes), on demand (a test must not be preempted). It costs the set-up (instance,
/// environment, model download and load, start-up) and an hour of steps, or the one step that outlasts the hour.
struct TrialHour {
    std::optional<GpuSpec> gpu; ///< a copy (the caller's list may not outlive it); empty: nothing to rent
    Candidate plan;             ///< the test's layout and its estimate
    Candidate rental;           ///< the plan it verifies
    TestScope scope = TestScope::WholeRental;
    double setupSeconds = 0; ///< provisioning, environment, download, load and start-up before the first step
    double usdForHour = 0;   ///< the test's cards for an hour
    double stepsInHour = 0;  ///< optimizer steps one hour measures
    double usdForTest = 0;   ///< the set-up and an hour of steps (or the one step that outlasts it), billed
};
/// The first test of a chosen plan on its card.
TrialHour firstTest(const Candidate& rental, const GpuSpec& gpu, const PlanInputs& inputs);
/// The first test of the plan the planner picks across `gpus` (planCatalog and rank); empty when nothing fits.
TrialHour oneHourTest(const Scenario& scenario, const std::vector<GpuSpec>& gpus, const PlanInputs& inputs);
/// The first test of the picked plan among plans already made (nothing when ranking.chosen < 0).
TrialHour firstTestOf(const std::vector<CardPlan>& plans, const Ranking& ranking, const PlanInputs& inputs);

} // namespace gpusizer::core
