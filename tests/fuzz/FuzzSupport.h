#pragma once
// Shared by the fuzz targets: the shipped catalogs, and the invariants every accepted input must keep. A broken
// invariant aborts, which libFuzzer reports as a finding with the input that caused it.
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace gpusizer::fuzz {

inline const core::Catalog& catalog() {
    static const core::Catalog c = catalogs::loadCatalogs().catalog;
    return c;
}

inline void require(bool condition, const char* what) {
    if (!condition) {
        std::fprintf(stderr, "invariant broken: %s\n", what);
        std::abort();
    }
}

/// A scenario the loaders accepted: it validates, sizes to positive bytes, and saves in a form that reopens.
inline void checkAccepted(const core::Scenario& s) {
    require(core::validate(s).has_value(), "an accepted scenario validates");
    const core::Estimate e = core::estimate(s);
    for (core::Component c : core::kAllComponents) {
        require(e.perGpu[c] >= 0, "no component is negative");
    }
    require(e.deviceBytes > 0, "the device total is positive");
    require(e.bandLowBytes <= e.deviceBytes && e.deviceBytes <= e.bandHighBytes, "the band holds the estimate");
    const auto back = core::parseScenario(core::scenarioToJson(s), "saved.json", catalog());
    require(back.has_value(), "a saved scenario reopens");
    require(core::estimate(back->scenario).deviceBytes == e.deviceBytes, "a reopened scenario sizes the same");
}

inline std::string_view bytesOf(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

} // namespace gpusizer::fuzz
