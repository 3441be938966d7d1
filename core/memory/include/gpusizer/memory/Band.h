#pragma once

#include "gpusizer/scenario/FrameworkProfile.h"
#include "gpusizer/scenario/Scenario.h"

#include <span>

namespace gpusizer::core {

/// Where measured peaks fall around an estimate: measured within [estimate x (1 - down), estimate x (1 + up)].
struct BandShares {
    double down = 0.10;
    double up = 0.15;
    /// The measured spread before the cap (kBandMaxShare): larger than down or up when the band was capped.
    double evidenceDown = 0;
    double evidenceUp = 0;
    bool capped() const { return evidenceDown > down || evidenceUp > up; }
};

/// The kind of run a band is measured for (docs/accuracy.md, "The band").
struct BandClass {
    bool frameworkNamed = false; ///< the scenario names its framework (not "generic")
    Method method = Method::Lora;
    bool multiGpu = false; ///< more than one data-parallel rank
    bool operator==(const BandClass&) const = default;
};

/// One row of the band table, derived from the calibration set's errors for its class.
struct BandEntry {
    BandClass kind;
    BandShares shares;
    int rows = 0; ///< calibration rows the shares come from (the class's own, or its fallback's)
};

/// The class of a scenario.
BandClass bandClassOf(const Scenario& scenario);

/// The band for a scenario: its class's measured spread, at least the run-to-run noise, wider for size-only models.
BandShares bandFor(const Scenario& scenario, const FrameworkProfile& profile);

/// The table bandFor reads (tests re-derive it from the calibration report and compare).
std::span<const BandEntry> bandTable();
/// The table's row for a kind of run (every kind has one).
const BandEntry& bandEntryOf(const BandClass& kind);

/// Beyond the longest micro-batch of the target rows the band's evidence stops: such runs take at least the spread
/// measured on the calibration rows that long (any measure, not capacity-bound).
struct LongSequenceBand {
    double tokens = 0; ///< tokens per micro-batch on one GPU (micro-batch x sequence / context parallel) above which
    BandShares shares;
    int rows = 0;
};
LongSequenceBand longSequenceBand();

/// Run-to-run noise between measurements of one configuration, the band's floor on either side (MEMORY-NOTES: 5-10%).
inline constexpr double kBandNoiseFloor = 0.05;
/// No side of a band is shown wider than this (size-only models excepted): where the measured spread of a kind of
/// run is wider, the evidence is too thin or too mixed to be a range, and the estimate says so instead
/// (BandShares::evidence).
inline constexpr double kBandMaxShare = 0.40;
/// The shares as shown: each side at most kBandMaxShare, the measured spread kept in `evidence`.
BandShares shownBand(BandShares measured);
/// A size-only model (architecture invented from a parameter count) widens the band to this on either side.
inline constexpr double kBandSizeDerived = 0.25;

} // namespace gpusizer::core
