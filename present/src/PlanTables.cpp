#include "gpusizer/present/PlanTables.h"

#include "gpusizer/present/Format.h"
#include "gpusizer/present/Names.h"
#include "gpusizer/present/PlanText.h"

#include <cmath>
#include <limits>

namespace gpusizer::present {

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity(); // sorts a missing figure last

Cell blank() {
    return Cell::label(verbatim(""), kNever);
}

Message gpuTooltip(const core::GpuSpec& g, bool selected) {
    return msg(QT_TRANSLATE_NOOP("gpusizer", "%1 %2: %3 GB stated, %4 GiB usable, %5 TB/s, %6 BF16 TFLOPS dense%7"),
               g.vendor, g.name, plainNumber(g.memoryGiBStated), plainNumber(g.memoryGiBUsable),
               plainNumber(g.bandwidthTBs), plainNumber(g.bf16Tflops),
               selected ? msg(QT_TRANSLATE_NOOP("gpusizer", " (the scenario's GPU)")) : verbatim(""));
}

Message fewerCardsLine(const core::CardPlan& p) {
    return msg(QT_TRANSLATE_NOOP("gpusizer", "%1 cards: %2"), count(p.fewerCards->scenario.gpus),
               whyNot(*p.fewerCards));
}

} // namespace

Tone verdictTone(core::FitVerdict verdict, bool fitsWithAnotherLayout) {
    switch (verdict) {
    case core::FitVerdict::Fits:
        return Tone::Good;
    case core::FitVerdict::Tight:
        return Tone::Warn;
    case core::FitVerdict::DoesNotFit:
        break;
    }
    return fitsWithAnotherLayout ? Tone::Warn : Tone::Bad;
}

namespace {

/// GRPO's vLLM server cannot load the model on this card: no training count helps, so the cell says what does.
bool serverTooSmall(const core::CardPlan& plan) {
    return !plan.found && plan.fewerCards && plan.fewerCards->why == core::Infeasible::VllmServer;
}

Message serverTooSmallWord(const core::CardPlan& plan) {
    const std::int64_t needed = plan.fewerCards->vllmServerGpusNeeded;
    return needed > 0 ? msg(QT_TRANSLATE_NOOP("gpusizer", "vLLM server needs %1 GPUs"), count(needed))
                      : msg(QT_TRANSLATE_NOOP("gpusizer", "vLLM server cannot load it"));
}

/// The fit table's columns, with what each one means.
std::vector<Column> fitColumns() {
    return {
        {msg(QT_TRANSLATE_NOOP("gpusizer", "GPU"))},
        {msg(QT_TRANSLATE_NOOP("gpusizer", "Your layout")), Align::Left,
         msg(QT_TRANSLATE_NOOP(
             "gpusizer", "Your scenario as set (its GPU count, sharding and parallelism) on this card: fits with the "
                         "margin, tight (only the estimate fits), or does not fit."))},
        {msg(QT_TRANSLATE_NOOP("gpusizer", "Best on this card")), Align::Left,
         msg(QT_TRANSLATE_NOOP(
             "gpusizer", "What the planner would rent on this card: cards and layout by the objective (Plan tab)."))},
        {msg(QT_TRANSLATE_NOOP("gpusizer", "Wall time")), Align::Right,
         msg(QT_TRANSLATE_NOOP("gpusizer", "Wall time of the planner's choice for the Plan tab's dataset."))},
        {msg(QT_TRANSLATE_NOOP("gpusizer", "Cost")), Align::Right,
         msg(QT_TRANSLATE_NOOP("gpusizer", "Cost of the planner's choice."))},
        {msg(QT_TRANSLATE_NOOP("gpusizer", "Yours per GPU")), Align::Right,
         msg(QT_TRANSLATE_NOOP("gpusizer", "Device memory per GPU with your layout (what nvidia-smi would show)."))},
        {msg(QT_TRANSLATE_NOOP("gpusizer", "Headroom")), Align::Right,
         msg(QT_TRANSLATE_NOOP("gpusizer", "Share of the card's usable memory left free with your layout."))},
        {msg(QT_TRANSLATE_NOOP("gpusizer", "Max batch, 1 GPU")), Align::Right,
         msg(QT_TRANSLATE_NOOP(
             "gpusizer", "Largest micro-batch that fits one card, with the margin, at the current sequence length."))},
        {msg(QT_TRANSLATE_NOOP("gpusizer", "Max seq., 1 GPU")), Align::Right,
         msg(QT_TRANSLATE_NOOP("gpusizer",
                               "Longest sequence that fits one card, with the margin, at the current micro-batch."))},
        {msg(QT_TRANSLATE_NOOP("gpusizer", "Usable")), Align::Right,
         msg(QT_TRANSLATE_NOOP(
             "gpusizer", "Memory a training process can use (GiB); the vendor's figure is in the GPU's tooltip."))},
        {msg(QT_TRANSLATE_NOOP("gpusizer", "$/GPU-h")), Align::Right,
         msg(QT_TRANSLATE_NOOP("gpusizer", "Illustrative on-demand price per GPU-hour (catalog; prices vary)."))},
    };
}

/// The planner's choice on the card: its cards and layout, or why there is none.
Cell bestOnCardCell(const core::CardPlan& best, const core::PlanInputs& in, LayoutText layoutText) {
    // The micro-batch split and checkpointing are in the tooltip: the cell stays narrow enough for the wall time
    // and cost to show beside it.
    Cell plan =
        Cell::label(best.found                  ? (layoutText == LayoutText::Full ? cardsAndLayout(best.best.scenario)
                                                                                  : cardsAndParallelism(best.best.scenario))
                    : !best.unsupported.empty() ? msg(QT_TRANSLATE_NOOP("gpusizer", "cannot run here"))
                    : serverTooSmall(best)      ? serverTooSmallWord(best)
                                           : msg(QT_TRANSLATE_NOOP("gpusizer", "none up to %1"), count(in.maxGpus)),
                    best.found ? static_cast<double>(best.best.scenario.gpus) : kNever);
    plan.withTone(best.found ? Tone::Good : Tone::Bad);
    if (!best.unsupported.empty()) {
        plan.withTooltip(softwareGaps(best.unsupported));
    } else if (best.found) {
        plan.withTooltip(best.fewerCards ? msg(QT_TRANSLATE_NOOP("gpusizer", "%1\nFewer cards (%2): %3"),
                                               joined(layoutParts(best.best.scenario)),
                                               count(best.fewerCards->scenario.gpus), whyNot(*best.fewerCards))
                                         : joined(layoutParts(best.best.scenario)));
    } else if (best.fewerCards) {
        plan.withTooltip(whyNot(*best.fewerCards));
    }
    return plan;
}

} // namespace

Table fitTable(const std::vector<core::FitRow>& rows, const core::PlanInputs& in, const std::string& selectedGpu,
               LayoutText layoutText) {
    Table t;
    t.columns = fitColumns();
    for (const core::FitRow& r : rows) {
        const core::GpuSpec& g = *r.gpu;
        const core::Candidate& own = r.asIs;
        const core::CardPlan& best = r.best;
        const bool selected = g.id == selectedGpu;
        const double headroom = own.usableBytes > 0
                                    ? 1.0 - static_cast<double>(own.deviceBytes) / static_cast<double>(own.usableBytes)
                                    : 0.0;

        Cell name = Cell::of(selected ? msg(QT_TRANSLATE_NOOP("gpusizer", "▶ %1"), g.name) : verbatim(g.name));
        name.sortText = g.name;
        name.withTooltip(gpuTooltip(g, selected));

        Cell yours = Cell::label(
            msg(QT_TRANSLATE_NOOP("gpusizer", "%1 on %2"), verdictWord(own.verdict), count(own.scenario.gpus)),
            static_cast<double>(static_cast<int>(own.verdict)));
        yours.withTone(verdictTone(own.verdict, best.found))
            .withTooltip(own.fits() ? msg(QT_TRANSLATE_NOOP("gpusizer", "%1 per GPU with your layout; %2 margin kept"),
                                          gib(own.deviceBytes), percent(own.marginShare))
                                    : whyNot(own));

        const Cell plan = bestOnCardCell(best, in, layoutText);

        const auto noneOr = [](std::int64_t v) {
            return v == 0 ? Cell::label(msg(QT_TRANSLATE_NOOP("gpusizer", "none")), 0) : Cell::count(v);
        };
        std::vector<Cell> cells{
            name,
            yours,
            plan,
            best.found ? Cell::hours(best.best.plan.wallHours) : blank(),
            best.found ? Cell::money(core::costOf(best.best, in)) : blank(),
            Cell::bytes(own.deviceBytes),
            Cell::percent(headroom),
            noneOr(r.maxMicroBatchOneCard),
            noneOr(r.maxSeqLenOneCard),
            Cell::label(msg(QT_TRANSLATE_NOOP("gpusizer", "%1 GiB"), plainNumber(g.memoryGiBUsable)),
                        g.memoryGiBUsable),
            Cell::money(g.priceOnDemandUsdHour),
        };
        for (auto& c : cells) {
            c.bold(selected);
        }
        t.add(std::move(cells), g.id);
    }
    return t;
}

Table planTable(const std::vector<core::CardPlan>& plans, const core::PlanInputs& in, int chosen,
                LayoutText layoutText) {
    Table t;
    t.columns = {
        {msg(QT_TRANSLATE_NOOP("gpusizer", "GPU"))},
        {msg(QT_TRANSLATE_NOOP("gpusizer", "Cards × layout")), Align::Left,
         msg(QT_TRANSLATE_NOOP("gpusizer", "Cards and the layout the planner chose on this GPU, by the objective."))},
        {msg(QT_TRANSLATE_NOOP("gpusizer", "Wall time")), Align::Right},
        {in.spot ? msg(QT_TRANSLATE_NOOP("gpusizer", "Cost (spot)"))
                 : msg(QT_TRANSLATE_NOOP("gpusizer", "Cost (on demand)")),
         Align::Right},
        {msg(QT_TRANSLATE_NOOP("gpusizer", "GPU-hours")), Align::Right},
        {msg(QT_TRANSLATE_NOOP("gpusizer", "Per GPU")), Align::Right,
         msg(QT_TRANSLATE_NOOP("gpusizer", "Device memory per GPU (nvidia-smi), without the margin."))},
        {msg(QT_TRANSLATE_NOOP("gpusizer", "Step")), Align::Right},
        {msg(QT_TRANSLATE_NOOP("gpusizer", "Why fewer cards fail")), Align::Left,
         msg(QT_TRANSLATE_NOOP("gpusizer",
                               "Below the smallest count that fits: the closest layout and why it does not fit."))},
        {in.spot ? msg(QT_TRANSLATE_NOOP("gpusizer", "On demand")) : msg(QT_TRANSLATE_NOOP("gpusizer", "Spot")),
         Align::Right},
    };
    for (std::size_t i = 0; i < plans.size(); ++i) {
        const core::CardPlan& r = plans[i];
        const core::Candidate& c = r.best;
        const core::CostPlan& p = c.plan;
        const Message whyFewer = r.fewerCards ? fewerCardsLine(r) : verbatim("");
        Cell gpu = Cell::of(verbatim(r.gpu->name));
        if (r.fewerCards) {
            gpu.withTooltip(whyFewer);
        }
        Cell layout = Cell::label(
            r.found ? (layoutText == LayoutText::Full ? cardsAndLayout(c.scenario) : cardsAndParallelism(c.scenario))
            : !r.unsupported.empty() ? msg(QT_TRANSLATE_NOOP("gpusizer", "cannot run here"))
            : serverTooSmall(r)      ? serverTooSmallWord(r)
                                     : msg(QT_TRANSLATE_NOOP("gpusizer", "no fit up to %1 cards"), count(in.maxGpus)),
            r.found ? static_cast<double>(c.scenario.gpus) : kNever);
        if (!r.unsupported.empty()) {
            layout.withTooltip(softwareGaps(r.unsupported));
        }
        if (r.found) {
            std::vector<Message> tip{joined(layoutParts(c.scenario))};
            for (auto& note : candidateNotes(c)) {
                tip.push_back(std::move(note));
            }
            layout.withTooltip(tip.size() == 1 ? tip.front()
                                               : msg(QT_TRANSLATE_NOOP("gpusizer", "%1\n%2"), tip.front(),
                                                     joined(std::vector<Message>(tip.begin() + 1, tip.end()))));
        }
        Cell step = r.found ? Cell::seconds(p.step.stepSeconds) : blank();
        if (r.found) {
            step.withTooltip(msg(
                QT_TRANSLATE_NOOP("gpusizer", "compute %1 s, memory floor %2 s, communication %3 s (%4 exposed), "
                                              "offload %5 s, optimizer step %6 s, generation %7 s"),
                number(p.step.computeSeconds, 2), number(p.step.memoryFloorSeconds, 2), number(p.step.commSeconds, 2),
                number(p.step.exposedCommSeconds, 2), number(p.step.offloadSeconds, 2),
                number(p.step.optimizerStepSeconds, 2), number(p.step.generationSeconds, 2)));
        }
        std::vector<Cell> cells{
            gpu,
            layout,
            r.found ? Cell::hours(p.wallHours) : blank(),
            r.found ? Cell::money(core::costOf(c, in)) : blank(),
            r.found ? Cell::number(p.gpuHours, p.gpuHours < 10 ? 1 : 0) : blank(),
            r.found ? Cell::bytes(c.deviceBytes) : blank(),
            step,
            Cell::of(whyFewer).withTooltip(whyFewer),
            r.found ? Cell::money(in.spot ? p.costOnDemandUsd : p.costSpotUsd) : blank(),
        };
        const bool shaded = !r.found || static_cast<int>(i) == chosen;
        for (auto& cell : cells) {
            cell.withTone(shaded ? (r.found ? Tone::Good : Tone::Bad) : Tone::None);
        }
        t.add(std::move(cells), r.gpu->id);
    }
    return t;
}

Message planChoice(const std::vector<core::CardPlan>& plans, int index, const core::PlanInputs& in) {
    if (index < 0 || static_cast<std::size_t>(index) >= plans.size()) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "none"));
    }
    const auto& r = plans[static_cast<std::size_t>(index)];
    return msg(QT_TRANSLATE_NOOP("gpusizer", "%1 × %2 (%3; %4, %5)"), count(r.best.scenario.gpus), r.gpu->name,
               joined(layoutParts(r.best.scenario)), duration(r.best.plan.wallHours), usd(core::costOf(r.best, in)));
}

namespace {

/// The cheapest and the fastest plan of every card's candidates (its choice and its runners-up, which include the
/// card's cheapest and fastest), of known speed where one fits, as "<count> × <card> (<layout>; <time>, <cost>)".
Message extremePlan(const std::vector<core::CardPlan>& plans, const core::PlanInputs& in, bool byCost) {
    const core::Candidate* best = nullptr;
    const core::GpuSpec* bestGpu = nullptr;
    // Of known speed first, as the ranking (docs/planning.md, "A card of assumed speed ranks last").
    const auto known = [](const core::Candidate& c) { return c.plan.mfu.source != core::MfuSource::Unpublished; };
    const auto better = [&](const core::Candidate& a, const core::Candidate& b) {
        if (known(a) != known(b)) {
            return known(a);
        }
        return byCost ? core::costOf(a, in) < core::costOf(b, in) : a.plan.wallHours < b.plan.wallHours;
    };
    for (const auto& p : plans) {
        if (!p.found) {
            continue;
        }
        const auto consider = [&](const core::Candidate& c) {
            if (best == nullptr || better(c, *best)) {
                best = &c;
                bestGpu = p.gpu;
            }
        };
        consider(p.best);
        for (const auto& r : p.runnersUp) {
            if (r.fits()) {
                consider(r);
            }
        }
    }
    if (best == nullptr) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "none"));
    }
    return msg(QT_TRANSLATE_NOOP("gpusizer", "%1 × %2 (%3; %4, %5)"), count(best->scenario.gpus), bestGpu->name,
               joined(layoutParts(best->scenario)), duration(best->plan.wallHours), usd(core::costOf(*best, in)));
}

} // namespace

Message rentSentence(const std::vector<core::CardPlan>& plans, const core::Ranking& ranking,
                     const core::PlanInputs& in) {
    if (ranking.chosen < 0) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "No catalog card fits up to %1 cards."), count(in.maxGpus));
    }
    if (in.objective == core::Objective::Cost) {
        const core::Candidate& chosen = plans[static_cast<std::size_t>(ranking.chosen)].best;
        if (in.deadlineHours && chosen.plan.wallHours > *in.deadlineHours) {
            // Nothing meets the deadline: the order then puts the fastest plan first, and the user must know.
            return msg(QT_TRANSLATE_NOOP("gpusizer", "Rent: %1 — no plan finishes within %2, so this is the fastest."),
                       planChoice(plans, ranking.chosen, in), duration(*in.deadlineHours));
        }
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Rent: %1 — %2. Fastest: %3."), planChoice(plans, ranking.chosen, in),
                   objectiveRule(in), extremePlan(plans, in, false));
    }
    return msg(QT_TRANSLATE_NOOP("gpusizer", "Rent: %1 — %2. Cheapest: %3 · fastest: %4."),
               planChoice(plans, ranking.chosen, in), objectiveRule(in), extremePlan(plans, in, true),
               extremePlan(plans, in, false));
}

Message tokensAssumption(const core::PlanInputs& in) {
    const std::string tokens = count(static_cast<std::int64_t>(in.datasetTokens * in.epochs));
    return in.datasetTokensStated
               ? msg(QT_TRANSLATE_NOOP("gpusizer", "%1 tokens (your dataset × epochs)"), tokens)
               : msg(QT_TRANSLATE_NOOP("gpusizer", "%1 tokens (assumed: set your dataset's token count)"), tokens);
}

Message globalBatchText(const core::Scenario& s) {
    const std::int64_t groups =
        std::max<std::int64_t>(1, s.gpus / std::max<std::int64_t>(1, s.tensorParallel * s.pipelineParallel *
                                                                         std::max<std::int64_t>(1, s.contextParallel)));
    // Sequences through the model: a preference pair is two.
    const auto sequences = static_cast<std::int64_t>(core::sequencesPerMicroBatch(s)) * s.gradientAccumulation * groups;
    return msg(QT_TRANSLATE_NOOP("gpusizer", "global batch %1 sequences × %2 tokens = %3 tokens per optimizer step"),
               count(sequences), count(s.seqLen), count(sequences * s.seqLen));
}

Message throughputSentence(const core::GpuSpec& gpu, const core::PlanInputs& in, SourceText source) {
    const core::MfuChoice m = core::mfuFor(gpu, in);
    switch (m.source) {
    case core::MfuSource::User:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Speed on %1: HFU %2 as set (yours, for every card)."), gpu.name,
                   percent(m.mfu));
    case core::MfuSource::Published:
        // A card without bf16 (V100, T4) runs the 16-bit recipe in fp16 at the same dense peak.
        return msg(
            gpu.bf16
                ? QT_TRANSLATE_NOOP("gpusizer", "Speed on %1: HFU %2 of its %3 BF16 TFLOPS, published for %4: %5.")
                : QT_TRANSLATE_NOOP("gpusizer", "Speed on %1: HFU %2 of its %3 FP16 TFLOPS, published for %4: %5."),
            gpu.name, percent(m.mfu), plainNumber(gpu.bf16Tflops), gpu.throughput.stack,
            source == SourceText::Full ? gpu.throughput.source : gpu.throughput.citation);
    case core::MfuSource::Unpublished:
        break;
    }
    return msg(QT_TRANSLATE_NOOP("gpusizer", "Speed on %1: no training throughput is published for this card; HFU "
                                             "%2 assumed (below every published figure) — measure it before a long "
                                             "run."),
               gpu.name, percent(m.mfu));
}

Message planAssumptions(const core::Candidate& c, const core::GpuSpec& gpu, const core::PlanInputs& in) {
    return msg(QT_TRANSLATE_NOOP("gpusizer", "For %1; %2; precision %3, framework %4; software %5."),
               tokensAssumption(in), globalBatchText(c.scenario), label(c.scenario.precision),
               label(c.scenario.framework), gpu.softwareStack.empty() ? verbatim("—") : verbatim(gpu.softwareStack));
}

VerdictBanner verdictBanner(const core::Scenario& s, const core::GpuSpec* gpu, const core::GpuSpec* comparedWith,
                            const std::vector<core::CardPlan>& plans, const core::Ranking& ranking,
                            const core::PlanInputs& in) {
    VerdictBanner b;
    if (gpu != nullptr) {
        const core::Candidate asIs = core::fitAsIs(s, *gpu, in);
        b.verdict = asIs.verdict;
        b.onChosenGpu = fitSentence(asIs, *gpu);
    } else if (comparedWith != nullptr) {
        b.onChosenGpu = msg(QT_TRANSLATE_NOOP("gpusizer", "No GPU chosen: the chart's line is the %1 (%2 usable), for "
                                                          "comparison. Choose a GPU for a verdict on it."),
                            comparedWith->name, gib(comparedWith->usableBytes()));
    } else {
        b.onChosenGpu = msg(QT_TRANSLATE_NOOP("gpusizer", "No GPU chosen. Choose a GPU for a verdict on it."));
    }
    b.rent = ranking.chosen >= 0 ? msg(QT_TRANSLATE_NOOP("gpusizer", "What to rent for %1 (%2): %3."),
                                       tokensAssumption(in), objectiveRule(in), planChoice(plans, ranking.chosen, in))
                                 : rentSentence(plans, ranking, in);
    return b;
}

std::vector<Message> planDetails(const core::CardPlan& r, const core::PlanInputs& in) {
    std::vector<Message> lines;
    if (!r.unsupported.empty()) {
        lines.push_back(
            msg(QT_TRANSLATE_NOOP("gpusizer", "%1: not planned — %2."), r.gpu->name, softwareGaps(r.unsupported)));
        return lines;
    }
    if (!r.found) {
        lines.push_back(
            msg(QT_TRANSLATE_NOOP("gpusizer", "%1: no layout fits up to %2 cards."), r.gpu->name, count(in.maxGpus)));
        if (r.fewerCards) {
            lines.push_back(msg(QT_TRANSLATE_NOOP("gpusizer", "Closest: %1 × %2 — %3"),
                                count(r.fewerCards->scenario.gpus), joined(layoutParts(r.fewerCards->scenario)),
                                whyNot(*r.fewerCards)));
        }
        return lines;
    }
    lines.push_back(msg(QT_TRANSLATE_NOOP("gpusizer", "%1: %2 × %3 — %4, %5; %6."), r.gpu->name,
                        count(r.best.scenario.gpus), joined(layoutParts(r.best.scenario)),
                        duration(r.best.plan.wallHours), usd(core::costOf(r.best, in)),
                        globalBatchText(r.best.scenario)));
    lines.push_back(throughputSentence(*r.gpu, in));
    for (auto& note : candidateNotes(r.best)) {
        lines.push_back(std::move(note));
    }
    if (r.fewerCards) {
        lines.push_back(msg(QT_TRANSLATE_NOOP("gpusizer", "Fewer cards fail — %1"), fewerCardsLine(r)));
    }
    for (const auto& c : r.runnersUp) {
        lines.push_back(msg(QT_TRANSLATE_NOOP("gpusizer", "Runner-up: %1 × %2 — %3."), count(c.scenario.gpus),
                            joined(layoutParts(c.scenario)), whyLost(r.best, c, in)));
    }
    return lines;
}

} // namespace gpusizer::present
