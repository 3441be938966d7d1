#pragma once
// The planner's answers in words: layouts, verdicts, reasons, the objective's rule.

#include "gpusizer/plan/Planner.h"
#include "gpusizer/present/Message.h"

#include <vector>

namespace gpusizer::present {

/// The layout of a scenario as short parts: "ZeRO-3", "TP 2 × PP 4", "EP 8", "offload optimizer",
/// "micro-batch 2 × 8 steps", "checkpointing full". Cards are not included (see cardsAndLayout).
std::vector<Message> layoutParts(const core::Scenario& s);

/// How the cards split the work: "TP 8 × DP 4", "ZeRO-3", "experts over 8 ranks (EP)", "offload optimizer" (the
/// layout without its micro-batch split and checkpointing).
std::vector<Message> parallelismParts(const core::Scenario& s);

/// The count with the parallelism, for narrow table cells: "64 × TP 8 × DP 8, ZeRO-1", "1 card".
Message cardsAndParallelism(const core::Scenario& s);
/// The count with the whole layout: "64 × TP 8 × DP 8, ZeRO-1, micro-batch 1, full checkpointing".
Message cardsAndLayout(const core::Scenario& s);

/// "8 × H100 SXM: ZeRO-3, micro-batch 4 × 2 steps" in English.
std::string cardsAndLayout(const core::Candidate& c, const core::GpuSpec& gpu);

/// The verdict as a word: fits, tight (the estimate fits but not its margin), does not fit.
Message verdictWord(core::FitVerdict v);

/// The verdict on a candidate in one sentence, as every view states it: "4 × H100 SXM5 (79.1 GiB usable): fits with
/// the 11% margin, 52.3 GiB per GPU, 26.8 GiB free", "… tight: …", "… does not fit: <whyNot>".
Message fitSentence(const core::Candidate& c, const core::GpuSpec& gpu);

/// Why a candidate cannot run, with the figures: memory with the margin, host RAM, layout, card limit.
Message whyNot(const core::Candidate& c);

/// Why `other` lost to `chosen`: how much slower, how much more it costs, or what it needs.
Message whyLost(const core::Candidate& chosen, const core::Candidate& other, const core::PlanInputs& inputs);

/// The rule the objective picks by, as shown next to the choice.
Message objectiveRule(core::Objective objective);
/// The same with the inputs' deadline and what the cost counts.
Message objectiveRule(const core::PlanInputs& inputs);

/// A software feature in words: "bitsandbytes 4-bit layers (QLoRA)".
Message softwareFeatureName(core::SoftwareFeature f);
/// "the card does not run <feature> (<reason>), …".
Message softwareGaps(const std::vector<core::SoftwareGap>& gaps);

/// The link a step's collectives run over: "NVLink", "PCIe 4.0 x16", "InfiniBand 400 Gb/s between nodes".
Message linkName(const core::LinkChoice& link, const core::GpuSpec& gpu);

/// Notes a candidate carries: fp16 instead of bf16, a changed global batch, offload host RAM.
std::vector<Message> candidateNotes(const core::Candidate& c);

} // namespace gpusizer::present
