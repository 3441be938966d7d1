#pragma once
// The advisor's words: the OOM ladder (each fix, what it changes for this scenario, its price, why it does not
// apply), the method recommendation and the sizing table — for the Advisor tab, the report and the CLI.

#include "gpusizer/plan/Advisor.h"
#include "gpusizer/present/Table.h"
#include "gpusizer/scenario/Catalog.h"

namespace gpusizer::present {

/// "Smaller micro-batch", "Full → LoRA".
Message fixName(core::FixKind kind);
/// What the fix costs in speed, quality or money.
Message fixPrice(core::FixKind kind);
/// Why a fix does not apply.
Message fixBlocker(core::FixBlocker blocker);
/// What the fix changes for this scenario ("micro-batch 4 -> 1, gradient accumulation 1 -> 4").
Message fixChange(const core::FixStep& step, const core::Scenario& before, const core::GpuSpec& gpu,
                  const core::PlanInputs& inputs);

/// Columns of ladderTable().
enum LadderColumn : std::size_t { LadderFix, LadderChange, LadderSaves, LadderAfter, LadderFitsAlone, LadderPrice };

/// The ladder: one row per fix in order of cost, numbered; a fix that fits alone shaded green, one that does not
/// apply muted. Keys: the fix codes.
Table ladderTable(const core::OomAdvice& advice, const core::Scenario& scenario, const core::GpuSpec& gpu,
                  const core::PlanInputs& inputs);

/// The ladder's conclusion: already fits (the verdict sentence), the first combination that fits, or none.
Message adviceConclusion(const core::OomAdvice& advice, const core::GpuSpec& gpu);

/// "full fine-tuning", "LoRA", "QLoRA".
Message methodName(core::Method m);
Message methodReason(core::MethodReason r);
Message methodCaveat(core::MethodCaveat c);
/// "Recommended: LoRA" with its reasons, then its caveats (marked ⚠).
Section methodRecommendation(const core::MethodAdvice& advice);

/// "1-3B (Llama-3.2-3B)", "Your model (llama-3.1-8b)".
Message sizingLabel(const core::SizingRow& row);
/// "1 × RTX 4090" (with the layout: "8 × H100, DP 8, ZeRO-3"), or "none up to 1,024 cards".
Message sizingCell(const core::SizingCell& cell, bool withLayout);

/// Columns of sizingTable().
enum SizingColumn : std::size_t { SizingModel, SizingParams, SizingQlora, SizingLora, SizingFull };

/// Model sizes × QLoRA / LoRA / full: the cheapest card and count in memory for each (tooltip: the usage).
Table sizingTable(const std::vector<core::SizingRow>& rows);

/// What the sizing table answers, the same words in the window, the report and the CLI: the planner's choice with
/// its objective, the sequence and micro-batch, and the token count behind each cell's time and cost.
Message sizingCaption(const core::Scenario& scenario, const core::PlanInputs& inputs);

/// Where a larger model needs a cheaper card than a smaller one under full fine-tuning, why: the smaller one's larger
/// vocabulary (its logits), e.g. Llama-3.1-8B's 128,256 tokens against Llama-2-13B's 32,000. Empty otherwise.
Message sizingVocabularyNote(const std::vector<core::SizingRow>& rows, const core::Catalog& catalog);

} // namespace gpusizer::present
