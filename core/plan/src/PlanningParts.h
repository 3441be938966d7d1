#pragma once
// The step's pass counts and the experts' path, shared by Planning.cpp and GroupedExperts.cpp (not public API).

#include "gpusizer/scenario/FrameworkProfile.h"
#include "gpusizer/scenario/Scenario.h"

namespace gpusizer::core::detail {

/// Forward passes per micro-batch: full recomputation runs each block's forward twice; every-n-th recomputes 1/n
/// of the blocks.
double forwardPasses(const Scenario& s);
/// The share of the layers that run backward: freeze tuning's trained ones, else all.
double backwardLayerShare(const Scenario& s);
/// torchtitan's op-level selective checkpointing: saves matmul and attention outputs only (some of them).
bool opLevelSelective(const Scenario& s, const FrameworkProfile& profile);
/// transformers 5 runs a MoE block's experts through `F.grouped_mm` over stacked expert weights (its default
/// experts_implementation, modeling_utils.py:1965-1966 @251c2d4f), in the frameworks that run its models' code
/// (FrameworkProfile::transformersExperts).
bool expertsRunAsGroupedMm(const Scenario& s, const FrameworkProfile& profile);

} // namespace gpusizer::core::detail
