#pragma once

#include "gpusizer/memory/Band.h"
#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/Result.h"

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
    std::string sourceKey;        ///< the id without its number: one publication ("answerai-fsdpqlora")
    std::string project;          ///< the repository the publication belongs to ("pytorch/torchtune"): its stack
    std::string framework;        ///< the scenario's framework profile
    std::string runKind;          ///< sft, dpo, ..., with " + images" for a vision-language run
    bool capacityBound = false;   ///< reserved/device near the card's capacity: the allocator, not the run, set it
    BandClass bandClass;          ///< the kind of run, for the band
    double genericErrorShare = 0; ///< the error when the framework is not named (generic profile, no overrides)
    double tokensPerGpu = 0;      ///< one micro-batch's tokens on one GPU (tokensPerGpu)
    double bandLowGiB = 0;        ///< the estimate's band on the compared figure
    double bandHighGiB = 0;
    bool inBand = false;
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

/// Share of runs the band may miss on each side. A side is the split-conformal order statistic of measured /
/// estimated (Lei et al., "Distribution-free predictive inference for regression", JASA 2018, §2.2): of n sorted
/// ratios the ceil((n + 1)(1 - kBandMissShare))-th, which holds a new run of the same kind with probability at
/// least 1 - kBandMissShare from 39 rows on; up to 38 rows that rank is the last, the extreme row, which a new run
/// passes with probability 1 / (n + 1).
inline constexpr double kBandMissShare = 0.05;
/// A class with fewer target rows than this takes its shares from the class pooled over GPU counts, then over all.
inline constexpr std::size_t kBandMinRows = 8;
/// ... or with rows from fewer projects than this (the repository a publication belongs to: two torchtune README
/// tables share its stack, its harness and its way of reading memory, so they are one piece of evidence). Leaving each
/// project out of the derivation and testing the band on its rows, the 5th-95th percentiles of each kind held 72%;
/// these order statistics with the rule, 88% (docs/accuracy.md).
inline constexpr std::size_t kBandMinProjects = 2;

/// The band table derived from the target rows of a report: for each class, the shares that hold the order
/// statistics above of measured / estimated (the generic classes from the errors of the same rows estimated without
/// their framework), rounded up to a whole percent, at least kBandNoiseFloor.
std::vector<BandEntry> deriveBandTable(const std::vector<const CalibrationRow*>& targetRows);

/// The long-sequence band: above the target rows' longest micro-batch (tokens per GPU), the shares that hold the same
/// order statistics over every usable row that long and not capacity-bound.
LongSequenceBand deriveLongSequenceBand(const std::vector<CalibrationRow>& rows);

/// Share of rows whose measured figure lies inside the band derived from the other projects' rows (leave one project
/// out): how often the band holds on runs of a stack it was not derived from.
double leaveOneProjectOutCoverage(const std::vector<const CalibrationRow*>& targetRows);

/// Estimates every usable row of a calibration document (catalogs/calibration.json) and compares it with the
/// published figure it names (allocated, reserved or device).
/// `gpus`: the catalog the rows' cards come from (their architectures are inline).
Result<CalibrationReport> runCalibration(std::string_view calibrationJson, const Catalog& gpus);

} // namespace gpusizer::core
