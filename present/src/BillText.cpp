#include "gpusizer/present/BillText.h"

#include "gpusizer/present/Format.h"
#include "gpusizer/present/PlanText.h"
#include "gpusizer/scenario/Units.h"

#include <cmath>
#include <cstdio>
#include <optional>

namespace gpusizer::present {

namespace {

/// Money, or "does not finish" where the expectation has no end.
Cell moneyOrNever(double usd, bool finishes) {
    return finishes ? Cell::money(usd) : Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "does not finish")));
}

std::string hoursText(double h) {
    return duration(h);
}

/// A short span: "45 s", "6 min", "1.2 h".
std::string seconds(double s) {
    if (s < 0.1) {
        return "< 0.1 s"; // "0.0 s" reads as nothing happening
    }
    if (s < 90.0) {
        return number(s, s < 10.0 ? 1 : 0) + " s";
    }
    return duration(s / 3600.0);
}

/// Checkpoints written over the run, the final save included.
double checkpointsWritten(const core::RunBill& b, double wallHours) {
    return std::max(1.0, std::floor(wallHours / std::max(b.intervalHours, 1e-9)));
}

/// Months from "YYYY-MM" to "YYYY-MM-DD" (0 for a date in the future); nullopt when either is not a date.
std::optional<int> monthsBetween(const std::string& asOf, const std::string& today) {
    int y1 = 0, m1 = 0, y2 = 0, m2 = 0;
    if (std::sscanf(asOf.c_str(), "%d-%d", &y1, &m1) != 2 || std::sscanf(today.c_str(), "%d-%d", &y2, &m2) != 2) {
        return std::nullopt;
    }
    return std::max(0, (y2 - y1) * 12 + (m2 - m1));
}

/// Decimal gigabytes, as storage and traffic are priced.
Message gbText(double bytes) {
    return verbatim(gb(bytes));
}

} // namespace

Table billTable(const core::RunBill& b, const core::PlanInputs& in) {
    Table t;
    t.columns = {Column(msg(QT_TRANSLATE_NOOP("gpusizer", "Part of the bill"))),
                 Column(msg(QT_TRANSLATE_NOOP("gpusizer", "On demand")), Align::Right),
                 Column(msg(QT_TRANSLATE_NOOP("gpusizer", "Spot (expected)")), Align::Right,
                        msg(QT_TRANSLATE_NOOP("gpusizer", "With the expected interruptions: each loses half a "
                                                          "checkpoint interval and the restart")))};
    const bool spot = b.spotFinishes;
    t.add({Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "Wall time (checkpoints and interruptions included)"))),
           Cell::hours(b.onDemandWallHours), spot ? Cell::hours(b.spotWallHours) : moneyOrNever(0, false)},
          "wall");
    t.add({Cell::of(b.serverGpus > 0 ? msg(QT_TRANSLATE_NOOP("gpusizer", "GPU time, the vLLM server's %1 GPUs "
                                                                         "included"),
                                           verbatim(count(b.serverGpus)))
                                     : msg(QT_TRANSLATE_NOOP("gpusizer", "GPU time"))),
           Cell::money(b.onDemandComputeUsd), moneyOrNever(b.spotComputeUsd, spot)},
          "gpu");
    const core::FixedCosts& f = b.fixed;
    t.add({Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "of which before the first step: instance up %1, environment "
                                                      "%2, model download %3 (%4), load %5, start-up %6"),
                        verbatim(seconds(f.provisionSeconds)), verbatim(seconds(f.environmentSeconds)),
                        verbatim(seconds(f.downloadSeconds)), gbText(f.downloadBytes), verbatim(seconds(f.loadSeconds)),
                        verbatim(seconds(f.startupSeconds)))),
           Cell::money(b.beforeUsdOnDemand), spot ? Cell::money(b.beforeUsdSpot) : Cell{}},
          "before");
    t.add({Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "of which after the last step: the result (%1) saved %2, copied "
                                                      "out %3"),
                        gbText(f.resultBytes), verbatim(seconds(f.finalSaveSeconds)),
                        verbatim(seconds(f.copyOutSeconds)))),
           Cell::money(b.afterUsdOnDemand), spot ? Cell::money(b.afterUsdSpot) : Cell{}},
          "after");
    t.add({Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "of which writing checkpoints (%1 each, every %2)"),
                        gbText(b.checkpoint.bytes), verbatim(hoursText(b.intervalHours)))),
           Cell::money(b.onDemandComputeUsd * b.checkpointShare / (1.0 + b.checkpointShare)),
           // On spot the same writes of the useful work, as a share of the expected wall time.
           spot && b.spotWallHours > 0
               ? Cell::money(b.spotComputeUsd * b.computeHours * b.checkpointShare / b.spotWallHours)
               : Cell{}},
          "checkpoints");
    t.add({Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "Interruptions expected"))), Cell::number(0, 0),
           spot ? Cell::number(b.spotInterruptions, 1) : Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "too many")))},
          "interruptions");
    t.add({Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "Storage: retained checkpoints (%1) until the run's end + %2 d"),
                        verbatim(count(in.retainedCheckpoints)), verbatim(plainNumber(in.bill.keepDays)))),
           Cell::money(b.storageOnDemandUsd), spot ? Cell::money(b.storageSpotUsd) : Cell{}},
          "storage");
    t.add({Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "Traffic out: the result and the checkpoints, %1"),
                        verbatim(gb(b.egressBytes)))),
           Cell::money(b.egressUsd), Cell::money(b.egressUsd)},
          "egress");
    t.add({Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "Stopped, not destroyed: its disks (%1) per day"),
                        verbatim(gb(b.diskBytes)))),
           Cell::money(b.stoppedUsdPerDay), Cell::money(b.stoppedUsdPerDay)},
          "stopped");
    t.add({Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "Total (destroyed when done)"))).bold(),
           Cell::money(b.totalOnDemandUsd).bold(), moneyOrNever(b.totalSpotUsd, spot).bold()},
          "total");
    return t;
}

Message intervalSentence(const core::RunBill& b, const core::PlanInputs& in) {
    const bool interrupted = std::isfinite(b.spotMeanHoursBetweenInterruptions);
    const Message why =
        in.bill.checkpointIntervalHours
            ? (interrupted ? msg(QT_TRANSLATE_NOOP("gpusizer", "as set; Young's optimum on spot is %1"),
                                 verbatim(hoursText(b.recommendedIntervalHours)))
                           : msg(QT_TRANSLATE_NOOP("gpusizer", "as set")))
        : interrupted
            ? msg(QT_TRANSLATE_NOOP("gpusizer", "Young's optimum √(2 × write time × %1 between interruptions), at "
                                                "least 10 minutes"),
                  verbatim(hoursText(b.spotMeanHoursBetweenInterruptions)))
            : msg(QT_TRANSLATE_NOOP("gpusizer", "no interruptions expected: one checkpoint at the end"));
    const double seconds = b.checkpoint.writeSeconds;
    return msg(QT_TRANSLATE_NOOP("gpusizer",
                                 "Checkpoint every %1 (%2): each write of %3 takes %4 (writing nodes: %5), %6 of the "
                                 "run; save at least as often as the progress you can afford to lose."),
               verbatim(hoursText(b.intervalHours)), why, gbText(b.checkpoint.bytes),
               verbatim(number(seconds, seconds < 1    ? 2
                                        : seconds < 10 ? 1
                                                       : 0) +
                        " s"),
               verbatim(count(static_cast<std::int64_t>(b.checkpoint.writers))),
               verbatim(percent(b.checkpointShare / (1.0 + b.checkpointShare), 1)));
}

Message spotSentence(const core::RunBill& b, const core::PlanInputs& in) {
    const Message rate = msg(
        QT_TRANSLATE_NOOP("gpusizer", "a rate of %1 per node-day, one interruption every %2 for the run (nodes: %3)"),
        verbatim(plainNumber(in.bill.interruptionsPerDay)), verbatim(hoursText(b.spotMeanHoursBetweenInterruptions)),
        verbatim(count(static_cast<std::int64_t>(b.nodes))));
    if (!b.spotOffered) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "This card has no spot price in the catalog: on demand only."));
    }
    if (!std::isfinite(b.spotMeanHoursBetweenInterruptions)) {
        return msg(QT_TRANSLATE_NOOP("gpusizer",
                                     "Spot, with no interruptions assumed: %1 and %2, against %3 on demand (set the "
                                     "offer's interruption rate for a real expectation)."),
                   verbatim(hoursText(b.spotWallHours)), verbatim(usd(b.totalSpotUsd)),
                   verbatim(usd(b.totalOnDemandUsd)));
    }
    if (!b.spotFinishes) {
        return msg(QT_TRANSLATE_NOOP("gpusizer",
                                     "Spot does not pay: at %1, each interruption costs more than the run gains "
                                     "between two of them (one node's preemption stops every node) — rent on demand, "
                                     "or fewer, larger nodes."),
                   rate);
    }
    if (!b.spotPays) {
        return msg(QT_TRANSLATE_NOOP("gpusizer",
                                     "Spot does not pay: at %1 it is expected to take %2 and cost %3, against %4 "
                                     "and %5 on demand."),
                   rate, verbatim(hoursText(b.spotWallHours)), verbatim(usd(b.totalSpotUsd)),
                   verbatim(hoursText(b.onDemandWallHours)), verbatim(usd(b.totalOnDemandUsd)));
    }
    return msg(QT_TRANSLATE_NOOP("gpusizer",
                                 "Spot: at %1, expected %2 and %3 (interruptions expected: %4), against %5 and %6 "
                                 "on demand: it saves %7."),
               rate, verbatim(hoursText(b.spotWallHours)), verbatim(usd(b.totalSpotUsd)),
               verbatim(number(b.spotInterruptions, 1)), verbatim(hoursText(b.onDemandWallHours)),
               verbatim(usd(b.totalOnDemandUsd)), verbatim(usd(b.totalOnDemandUsd - b.totalSpotUsd)));
}

namespace {

/// What the one-hour test verifies of the rental, and what it cannot.
Message trialScope(const core::TrialHour& trial) {
    const core::Scenario& test = trial.plan.scenario;
    const core::Scenario& rental = trial.rental.scenario;
    Message scope;
    switch (trial.scope) {
    case core::TestScope::WholeRental:
        scope = msg(QT_TRANSLATE_NOOP("gpusizer",
                                      "It is the rental itself: it verifies the memory per GPU (%1 estimated), the "
                                      "step time and the software at the real sequence length and batch; not the "
                                      "whole run's duration."),
                    verbatim(gib(trial.plan.deviceBytes)));
        break;
    case core::TestScope::OneReplica:
        scope = msg(QT_TRANSLATE_NOOP("gpusizer",
                                      "Every card of the rental (%1 × %2) holds one data-parallel replica, so one card "
                                      "verifies its memory per GPU (%3 estimated) and its step time; it cannot verify "
                                      "the gradient all-reduce between the replicas."),
                    verbatim(count(rental.gpus)), verbatim(trial.gpu->name), verbatim(gib(trial.plan.deviceBytes)));
        break;
    case core::TestScope::OneNode:
        scope = msg(QT_TRANSLATE_NOOP("gpusizer",
                                      "One node of the rental (%1 × %2): its model states shard over %3 ranks instead "
                                      "of %4, so each card holds more (%5 estimated against the rental's %6) — if it "
                                      "fits, the rental fits; it cannot verify the network between nodes or the "
                                      "rental's step time."),
                    verbatim(count(rental.gpus)), verbatim(trial.gpu->name), verbatim(count(test.gpus)),
                    verbatim(count(rental.gpus)), verbatim(gib(trial.plan.deviceBytes)),
                    verbatim(gib(trial.rental.deviceBytes)));
        break;
    case core::TestScope::FirstHour:
        scope = msg(QT_TRANSLATE_NOOP("gpusizer",
                                      "No node-sized run holds the rental's per-GPU share, so the rental's first hour "
                                      "is the test: stop it if the first steps' peak exceeds the estimate (%1 per "
                                      "GPU)."),
                    verbatim(gib(trial.plan.deviceBytes)));
        break;
    }
    return scope;
}

/// What measures the test: the exported script where it runs the layout, else the user's own run.
Message trialMethod(const core::TrialHour& trial) {
    const core::Scenario& test = trial.plan.scenario;
    // What measures it: the exported script, on one CUDA or ROCm GPU or under torchrun on the cards of one node, for
    // data parallelism and sharding (docs/verify.md).
    Message how;
    // A user's card without a "software" entry has no stack named: taken as CUDA, as most such cards are.
    const std::string& stack = trial.gpu->softwareStack;
    // Sharded QLoRA runs as FSDP-QLoRA, which shards only 4-bit bases and adapters FSDP1 can wrap apart.
    const bool shardedQloraRuns =
        test.method != core::Method::Qlora || test.sharding == core::Sharding::None ||
        (test.quantization != core::Quantization::Int8 && test.lora.kind != core::AdapterKind::Ia3 &&
         test.lora.kind != core::AdapterKind::Vera);
    const bool scriptRunsLayout = test.tensorParallel == 1 && test.pipelineParallel == 1 && test.expertParallel == 1 &&
                                  test.contextParallel == 1 && shardedQloraRuns;
    // The script runs GRPO with transformers' generation on one GPU or under DDP; it builds no PPO value or reward
    // model and feeds no images (core/plan/probe/probe_template.py refuses them).
    const bool grpo = test.runKind == core::RunKind::Grpo;
    const bool scriptStack = stack.empty() || stack == "CUDA" || stack == "ROCm";
    if (test.runKind == core::RunKind::Ppo || core::hasImages(test) ||
        (grpo && test.gpus > 1 && test.sharding != core::Sharding::None)) {
        how = msg(QT_TRANSLATE_NOOP(
            "gpusizer", "The measurement script runs neither PPO, a sharded GRPO run nor images: launch a few "
                        "steps of your own run there, log torch.cuda.max_memory_allocated after each and "
                        "compare it with the estimate (docs/verify.md)."));
    } else if (grpo && test.generation != core::Generation::Transformers && scriptStack && scriptRunsLayout) {
        how = msg(QT_TRANSLATE_NOOP("gpusizer",
                                    "Export the measurement script and run it there (%1): it generates with "
                                    "transformers, not vLLM, so it checks the training step and not vLLM's share; "
                                    "for that, launch a few steps of your own run with memory reporting."),
                  verbatim(test.gpus > 1 ? "torchrun --nproc-per-node " + count(test.gpus) + " probe.py"
                                         : std::string("python3 probe.py")));
    } else if (!scriptStack) {
        how = msg(QT_TRANSLATE_NOOP("gpusizer",
                                    "The measurement script runs on CUDA and ROCm only: on %1, measure a few steps "
                                    "of your own run with its memory reporting."),
                  verbatim(trial.gpu->softwareStack));
    } else if (test.gpus > 1 && !scriptRunsLayout) {
        how = msg(QT_TRANSLATE_NOOP("gpusizer",
                                    "The measurement script runs data parallelism and sharding only, not this layout: "
                                    "launch your own run on the %1 cards, with memory reporting."),
                  verbatim(count(test.gpus)));
    } else if (test.gpus > 1) {
        how = msg(QT_TRANSLATE_NOOP("gpusizer", "Export the measurement script and run it there on the %1 cards, "
                                                "every rank's peak measured: torchrun --nproc-per-node %1 probe.py."),
                  verbatim(count(test.gpus)));
    } else {
        how = msg(QT_TRANSLATE_NOOP("gpusizer", "Export the measurement script and run it there before renting the "
                                                "run: python3 probe.py."));
    }
    return how;
}

} // namespace

Message trialSentence(const core::TrialHour& trial) {
    if (!trial.gpu) {
        return msg(QT_TRANSLATE_NOOP("gpusizer",
                                     "No card of the catalog fits the run at its sequence length and batch: there is "
                                     "no plan to test."));
    }
    const core::Scenario& test = trial.plan.scenario;
    const core::Scenario& rental = trial.rental.scenario;
    const Message where = msg(QT_TRANSLATE_NOOP("gpusizer", "%1 × %2 (%3)"), verbatim(count(test.gpus)),
                              verbatim(trial.gpu->name), joined(layoutParts(test)));
    const Message length =
        trial.stepsInHour < 1.0
            ? msg(QT_TRANSLATE_NOOP("gpusizer", "one step, which takes %1 (run the script with --warmup 0 --steps 1)"),
                  verbatim(hoursText(trial.plan.plan.step.stepSeconds / 3600.0)))
        : trial.stepsInHour < 2.0 ? msg(QT_TRANSLATE_NOOP("gpusizer", "one step"))
                                  : msg(QT_TRANSLATE_NOOP("gpusizer", "about %1 steps"),
                                        verbatim(count(static_cast<std::int64_t>(trial.stepsInHour))));
    const Message scope = trialScope(trial);
    Message how = trialMethod(trial);
    if (!rental.dataset) {
        how = msg(QT_TRANSLATE_NOOP("gpusizer", "%1 Your data's lengths are not known: run the dataset script on it "
                                                "first (File › Export dataset script…) and import its result, so the "
                                                "test runs at your longest sequence."),
                  how);
    }
    return msg(QT_TRANSLATE_NOOP("gpusizer",
                                 "First, the one-hour test on the card you will rent: %1 at %2 an hour on demand — "
                                 "%3 of set-up, then %4 at the real sequence length and batch, %5 in all. %6 %7"),
               where, verbatim(usd(trial.usdForHour)), verbatim(seconds(trial.setupSeconds)), length,
               verbatim(usd(trial.usdForTest)), scope, how);
}

std::vector<Message> cleanupChecklist(const core::RunBill& b, const core::PlanInputs& in) {
    const bool onSpot = in.spot && b.spotFinishes && b.spotOffered;
    const double wall = onSpot ? b.spotWallHours : b.onDemandWallHours;
    const double compute = onSpot ? b.spotComputeUsd : b.onDemandComputeUsd;
    const Message finish = msg(
        QT_TRANSLATE_NOOP("gpusizer", "Finish the run%1: %2 of GPU time over %3 (checkpoints written: about %4)."),
        in.spot && !onSpot ? msg(QT_TRANSLATE_NOOP("gpusizer", " on demand (spot would not finish or is not offered)"))
                           : verbatim(""),
        verbatim(usd(compute)), verbatim(hoursText(wall)),
        verbatim(count(static_cast<std::int64_t>(checkpointsWritten(b, wall)))));
    return {
        finish,
        msg(QT_TRANSLATE_NOOP("gpusizer",
                              "Copy the checkpoints and the result out: %1, %2 in traffic (stored meanwhile at %3 a "
                              "day)."),
            verbatim(gb(b.egressBytes)), verbatim(usd(b.egressUsd)),
            verbatim(usd(static_cast<double>(in.retainedCheckpoints) * b.checkpoint.bytes / core::kGB *
                         in.storageUsdPerGbMonth / 30.0))),
        msg(QT_TRANSLATE_NOOP("gpusizer",
                              "Verify the copies (load them, compare checksums) before deleting anything: each hour "
                              "the cards stay up costs %1."),
            verbatim(usd(b.clusterUsdPerHour))),
        msg(QT_TRANSLATE_NOOP("gpusizer",
                              "Destroy the instance: stopped, its disks (%1) still cost %2 a day; only destroying it "
                              "ends the bill."),
            verbatim(gb(b.diskBytes)), verbatim(usd(b.stoppedUsdPerDay))),
    };
}

Message priceAgeSentence(const core::GpuSpec& gpu, const std::string& today) {
    const Message kind = gpu.priceKind == "marketplace"   ? msg(QT_TRANSLATE_NOOP("gpusizer", "marketplace"))
                         : gpu.priceKind == "neocloud"    ? msg(QT_TRANSLATE_NOOP("gpusizer", "neocloud"))
                         : gpu.priceKind == "hyperscaler" ? msg(QT_TRANSLATE_NOOP("gpusizer", "hyperscaler"))
                                                          : msg(QT_TRANSLATE_NOOP("gpusizer", "unstated"));
    const std::optional<int> months = monthsBetween(gpu.priceDate, today);
    if (!months) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Prices for %1: %2 list prices, undated: check before renting."),
                   verbatim(gpu.name), kind);
    }
    const Message age = *months < 2 ? msg(QT_TRANSLATE_NOOP("gpusizer", "less than two months old"))
                                    : msg(QT_TRANSLATE_NOOP("gpusizer", "%1 months old"), verbatim(count(*months)));
    return msg(QT_TRANSLATE_NOOP("gpusizer",
                                 "Prices for %1 as of %2 (%3 on %4), %5 list prices, illustrative: check the provider "
                                 "before renting (a prices*.json in your catalog folder overrides them)."),
               verbatim(gpu.name), verbatim(gpu.priceDate), age, verbatim(today.substr(0, 10)), kind);
}

} // namespace gpusizer::present
