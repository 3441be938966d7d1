#include "gpusizer/memory/Band.h"

#include <algorithm>
#include <array>

namespace gpusizer::core {

namespace {

// Derived from the target rows of the calibration set (core::deriveBandTable; docs/accuracy.md, "The band"): per
// class the split-conformal order statistics of measured / estimated (Accuracy.h, kBandMissShare). Regenerate with
// `gpusizer_accuracy_report --band-table` after any change to the estimator (its lines here, its last line over
// kLongSequence below); CalibrationTest.BandTableMatchesTheCalibrationSet and LongSequenceBandMatchesTheCalibrationSet
// fail until then.
constexpr std::array<BandEntry, 12> kTable{{
    // clang-format off
    {{true,  Method::Full,  false}, {0.05, 0.12}, 15},
    {{true,  Method::Full,  true} , {0.05, 0.12}, 21},
    {{true,  Method::Lora,  false}, {0.05, 0.12}, 11},
    {{true,  Method::Lora,  true} , {0.16, 0.12}, 16},
    {{true,  Method::Qlora, false}, {0.09, 0.05}, 9},
    {{true,  Method::Qlora, true} , {0.09, 0.33}, 13},
    {{false, Method::Full,  false}, {0.17, 0.27}, 15},
    {{false, Method::Full,  true} , {0.52, 0.27}, 21},
    {{false, Method::Lora,  false}, {0.10, 0.15}, 11},
    {{false, Method::Lora,  true} , {0.05, 2.65}, 16},
    {{false, Method::Qlora, false}, {0.27, 0.05}, 9},
    {{false, Method::Qlora, true} , {0.27, 0.33}, 13},
    // clang-format on
}};

// Derived with kTable (core::deriveLongSequenceBand; docs/accuracy.md, "The band").
constexpr LongSequenceBand kLongSequence{16384, {0.11, 0.17}, 7};

} // namespace

LongSequenceBand longSequenceBand() {
    return kLongSequence;
}

BandClass bandClassOf(const Scenario& s) {
    const std::int64_t group = std::max<std::int64_t>(1, s.tensorParallel * s.pipelineParallel);
    return {s.framework != Framework::Generic, s.method, s.gpus / group > 1};
}

std::span<const BandEntry> bandTable() {
    return kTable;
}

BandShares shownBand(BandShares measured) {
    BandShares out = measured;
    out.evidenceDown = measured.down;
    out.evidenceUp = measured.up;
    out.down = std::min(measured.down, kBandMaxShare);
    out.up = std::min(measured.up, kBandMaxShare);
    return out;
}

const BandEntry& bandEntryOf(const BandClass& kind) {
    // The table lists each of the 2 x 3 x 2 kinds once.
    return *std::find_if(kTable.begin(), kTable.end(), [&](const BandEntry& e) { return e.kind == kind; });
}

BandShares bandFor(const Scenario& s, const FrameworkProfile&) {
    BandShares shares = bandEntryOf(bandClassOf(s)).shares;
    shares.down = std::max(shares.down, kBandNoiseFloor);
    shares.up = std::max(shares.up, kBandNoiseFloor);
    if (tokensPerGpu(s) > kLongSequence.tokens) {
        shares.down = std::max(shares.down, kLongSequence.shares.down);
        shares.up = std::max(shares.up, kLongSequence.shares.up);
    }
    if (s.model.sizeDerived) {
        // An invented architecture: the range is the estimate's honest width, whatever it is.
        shares.down = std::max(shares.down, kBandSizeDerived);
        shares.up = std::max(shares.up, kBandSizeDerived);
        return shares;
    }
    return shownBand(shares);
}

} // namespace gpusizer::core
