#pragma once

#include "gpusizer/scenario/Scenario.h"

#include <optional>
#include <string>

namespace gpusizer::core {

/// A self-contained, readable Python script that trains the scenario for a few steps on random weights and tokens
/// and writes a gpusizer-measurement JSON (allocated, reserved and device memory, step times).
std::string probeScript(const Scenario& scenario);

/// A self-contained Python script that tokenizes the user's data with the model's tokenizer and writes its length
/// distribution (format "gpusizer-lengths"; see DatasetLengths), with padded and packed batches at the scenario's
/// micro-batch.
std::string datasetScript(const Scenario& scenario);

/// Whether the stack's default activation checkpointing is torch.utils.checkpoint's reentrant variant (the script
/// measures with it; the memory model does not tell them apart); nullopt: transformers' own default decides.
std::optional<bool> checkpointingIsReentrant(Framework framework);

} // namespace gpusizer::core
