#pragma once
// Writes docs/accuracy.md from a calibration report.

#include "gpusizer/core/Accuracy.h"

#include <string>

namespace gpusizer::calibration {

/// The docs/accuracy.md page for a report.
std::string markdown(const core::CalibrationReport& report);

} // namespace gpusizer::calibration
