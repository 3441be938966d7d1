#pragma once
// Writes docs/accuracy.md from a calibration report.

#include "gpusizer/memory/Accuracy.h"

#include <string>
#include <string_view>
#include <vector>

namespace gpusizer::calibration {

/// One run measured on an NVIDIA H200 with today's stack (tests/data/calibration/measured-h200.json, from the
/// project's shared calibration/h200 folder), and the estimate of its scenario on that card.
struct H200Row {
    std::string id;
    double allocatedGiB = 0, reservedGiB = 0;       ///< measured peaks
    double estAllocatedGiB = 0, estReservedGiB = 0; ///< estimated peaks
    double bandLowGiB = 0, bandHighGiB = 0;         ///< the estimate's band on the allocated peak
    double stepSeconds = 0;                         ///< measured: the median step after the first (warm-up)
    double estStepSeconds = 0;
    double allocatedError() const { return (estAllocatedGiB - allocatedGiB) / allocatedGiB; }
    double reservedError() const { return (estReservedGiB - reservedGiB) / reservedGiB; }
    double stepError() const { return (estStepSeconds - stepSeconds) / stepSeconds; }
    bool inBand() const { return allocatedGiB >= bandLowGiB && allocatedGiB <= bandHighGiB; }
};

/// Estimates every run of the H200 file; an error names the run and the field.
core::Result<std::vector<H200Row>> runH200(std::string_view json, const core::Catalog& catalog);

/// The docs/accuracy.md page for a report, with the H200 runs as their own section.
std::string markdown(const core::CalibrationReport& report, const std::vector<H200Row>& h200);

/// The rows of core/memory/src/Band.cpp's table, derived from the report's target rows.
std::string bandTableSource(const core::CalibrationReport& report);

} // namespace gpusizer::calibration
