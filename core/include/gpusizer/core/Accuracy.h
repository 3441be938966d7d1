#pragma once

#include "gpusizer/core/Result.h"

#include <string>
#include <string_view>
#include <vector>

namespace gpusizer::core {

/// One published measurement next to the estimate for the same configuration.
struct CalibrationRow {
    std::string id;
    std::string model;
    std::string method;
    std::string measureKind; ///< as published: allocated, reserved, nvidia-smi, unclear
    std::string compare;     ///< which estimate figure: allocated, reserved, device
    std::string seqLenKind;
    bool target = false; ///< exact lengths and a known measure: the accuracy target set
    double measuredGiB = 0;
    double estimatedGiB = 0;
    double errorShare = 0; ///< (estimate - measured) / measured
    std::string source;
    std::vector<std::string> interpretation;
};

/// A published row that GPU Sizer cannot represent, and why.
struct ExcludedRow {
    std::string id;
    std::string reason;
};

/// Every usable row estimated, and the rows left out.
struct CalibrationReport {
    std::vector<CalibrationRow> rows;
    std::vector<ExcludedRow> excluded;

    /// Rows of the target set (exact lengths, known measure).
    std::vector<const CalibrationRow*> targetRows() const;
};

/// Absolute-error summary over rows.
struct ErrorStats {
    std::size_t count = 0;
    double meanAbs = 0;
    double medianAbs = 0;
    double maxAbs = 0;
    double meanSigned = 0;
};
ErrorStats errorStats(const std::vector<const CalibrationRow*>& rows);

/// Estimates every usable row of a calibration document (catalogs/calibration.json) and compares it with the
/// published figure it names (allocated, reserved or device).
Result<CalibrationReport> runCalibration(std::string_view calibrationJson);

} // namespace gpusizer::core
