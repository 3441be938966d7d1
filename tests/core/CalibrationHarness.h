#pragma once
// Writes docs/accuracy.md from a calibration report.

#include "gpusizer/core/Accuracy.h"

#include <string>

namespace gpusizer::calibration {

/// The docs/accuracy.md page for a report.
std::string markdown(const core::CalibrationReport& report);

/// The rows of core/src/Band.cpp's table, derived from the report's target rows.
std::string bandTableSource(const core::CalibrationReport& report);

} // namespace gpusizer::calibration
