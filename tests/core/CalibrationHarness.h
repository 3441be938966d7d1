#pragma once
// Runs the published measured rows (tests/data/calibration/scenarios.json) through the estimator.

#include "gpusizer/core/Catalog.h"

#include <string>
#include <vector>

namespace gpusizer::calibration {

/// One published measurement next to the estimate for the same configuration.
struct RowResult {
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
    std::string scenarioJson;
};

struct ExcludedRow {
    std::string id;
    std::string reason;
};

struct Report {
    std::vector<RowResult> rows;
    std::vector<ExcludedRow> excluded;
};

/// Summary of absolute errors over some rows.
struct Stats {
    std::size_t count = 0;
    double meanAbs = 0;
    double medianAbs = 0;
    double maxAbs = 0;
    double meanSigned = 0;
};
Stats statsOf(const std::vector<const RowResult*>& rows);

/// Loads scenarios.json (bytes) and estimates every usable row. Throws std::runtime_error on a broken file.
Report run(const std::string& scenariosJson);

/// Reads the committed calibration file from the test data directory.
std::string readCalibrationFile(const std::string& dataDir);

/// The docs/accuracy.md page for a report.
std::string markdown(const Report& report);

} // namespace gpusizer::calibration
