#pragma once

#include "gpusizer/core/Scenario.h"

#include <string>

namespace gpusizer::core {

/// A self-contained, readable Python script that trains the scenario for a few steps on random weights and tokens
/// and writes a gpusizer-measurement JSON (allocated, reserved and device memory, step times).
std::string probeScript(const Scenario& scenario);

} // namespace gpusizer::core
