#pragma once
// Validation of a scenario before anything sizes it: the loaders refuse what fails here, with the field and the range.

#include "gpusizer/scenario/ModelArch.h"
#include "gpusizer/scenario/Result.h"
#include "gpusizer/scenario/Scenario.h"

#include <string>

namespace gpusizer::core {

/// Checks a scenario's numbers before estimating (positive sizes, divisibility of the layout, and a size every
/// count the estimator forms holds without overflow).
Result<void> validate(const Scenario& scenario);

/// The most parameters a model may have (100 trillion): beyond it no card or cluster is planned, and every count the
/// estimator forms from the shape stays far inside 64 bits.
inline constexpr double kMaxModelParams = 1e14;
/// The most bytes one GPU's estimate may reach (1 PiB, thousands of times any card): the scenario loader refuses
/// more, and a search step (longer sequences, larger batches, bigger models) beyond it counts as "does not fit".
inline constexpr double kMaxEstimateBytes = 1125899906842624.0; // 2^50

/// Every dimension of a model within its range and consistent (experts per token at most the experts), and its
/// parameter count at most kMaxModelParams; errors name `fieldPrefix` + the config.json key.
Result<void> validateArch(const ModelArch& arch, const std::string& fieldPrefix);

/// An upper bound, in floating point, of the bytes the estimator can form for a scenario (weights and their states,
/// every saved activation, the attention scores of eager attention, the logits): compared with kMaxEstimateBytes
/// before any 64-bit arithmetic runs.
double estimateMagnitude(const Scenario& scenario);

} // namespace gpusizer::core
