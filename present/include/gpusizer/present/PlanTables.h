#pragma once
// The planner's answers as tables and sentences: the GPU fit table, the plan table, "Rent: …", a card's runners-up.
// The GPU fit tab, the Plan tab, the report and the CLI render these, so they say the same thing.

#include "gpusizer/plan/FitTable.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/present/Table.h"

#include <optional>
#include <string>
#include <vector>

namespace gpusizer::present {

/// The shade of a verdict: green fits, amber tight or fits with another layout, red nothing fits.
Tone verdictTone(core::FitVerdict verdict, bool fitsWithAnotherLayout);

/// Columns of fitTable().
enum FitColumn : std::size_t {
    FitGpu,
    FitYours,
    FitBest,
    FitWall,
    FitCost,
    FitPerGpu,
    FitHeadroom,
    FitMaxBatch,
    FitMaxSeq,
    FitUsable,
    FitPrice,
};

/// How the planner's layout shows: the cards and parallelism with the full layout in the tooltip (the window), or
/// the full layout in the cell (the report and the terminal, which have no tooltips).
enum class LayoutText { Compact, Full };

/// Every GPU: your layout's verdict (shaded), the planner's count and layout, its wall time and cost, your per-GPU
/// usage and headroom, one card's largest micro-batch and sequence, usable memory and price. The scenario's GPU is
/// marked ▶ and bold. Keys: GPU ids.
Table fitTable(const std::vector<core::FitRow>& rows, const core::PlanInputs& inputs, const std::string& selectedGpu,
               LayoutText layout = LayoutText::Compact);

/// Columns of planTable().
enum PlanColumn : std::size_t {
    PlanGpu,
    PlanLayout,
    PlanHours,
    PlanCost,
    PlanGpuHours,
    PlanPerGpu,
    PlanStep,
    PlanWhyFewer,
    PlanOtherCost,
};

/// The planner's choice per GPU: cards × layout, wall time, cost (spot or on demand as the inputs say), GPU-hours,
/// memory per GPU, step time, why fewer cards fail, and the cost at the other price; the chosen row shaded. Keys: GPU
/// ids.
Table planTable(const std::vector<core::CardPlan>& plans, const core::PlanInputs& inputs, int chosen,
                LayoutText layout = LayoutText::Compact);

/// "16 × Gaudi 3 (TP 4 × DP 4, micro-batch 1, full checkpointing; 10 min, $5.62)", or "none".
Message planChoice(const std::vector<core::CardPlan>& plans, int index, const core::PlanInputs& inputs);

/// "Rent: <choice> — <the objective's rule>. Fastest: <…>." across the catalog ("Cheapest: <…> · fastest: <…>" when
/// the objective is not cost), each the extreme of every card's candidates.
Message rentSentence(const std::vector<core::CardPlan>& plans, const core::Ranking& ranking,
                     const core::PlanInputs& inputs);

/// The token count every time and cost is for: "100,000,000 tokens (assumed: set your dataset's token count)".
Message tokensAssumption(const core::PlanInputs& inputs);
/// "global batch 32 sequences × 4,096 tokens = 131,072 tokens per optimizer step" of a layout.
Message globalBatchText(const core::Scenario& s);
/// How a published figure's source is named: its short citation (the window, where the full text is in the docs) or
/// in full (the report and the terminal).
enum class SourceText { Citation, Full };
/// Where the card's speed comes from: the user's MFU, the card's published figure with its source, or the
/// conservative default for a card with none.
Message throughputSentence(const core::GpuSpec& gpu, const core::PlanInputs& inputs,
                           SourceText source = SourceText::Full);
/// What a plan's time and cost rest on: the tokens, the global batch, the precision recipe and framework, the
/// card's software stack.
Message planAssumptions(const core::Candidate& c, const core::GpuSpec& gpu, const core::PlanInputs& inputs);

/// One card in full: the choice and its notes, then each runner-up and why it lost (or the closest miss).
std::vector<Message> planDetails(const core::CardPlan& plan, const core::PlanInputs& inputs);

/// The answer a user came for, at the top of the Breakdown and of the report: does the scenario fit the chosen card
/// at the chosen count (and by how much), and what the planner would rent.
struct VerdictBanner {
    /// Fits, tight, does not fit; nullopt with no GPU chosen.
    std::optional<core::FitVerdict> verdict;
    Message onChosenGpu; ///< fitSentence(), or which card the chart compares with when none is chosen
    Message rent;        ///< "What to rent for N tokens (rule): <choice>." or why nothing fits
};

/// `gpu` is the scenario's card (nullptr: none chosen); `comparedWith` the card a chart draws instead (or nullptr).
VerdictBanner verdictBanner(const core::Scenario& s, const core::GpuSpec* gpu, const core::GpuSpec* comparedWith,
                            const std::vector<core::CardPlan>& plans, const core::Ranking& ranking,
                            const core::PlanInputs& inputs);

} // namespace gpusizer::present
