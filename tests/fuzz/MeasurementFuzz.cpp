// libFuzzer target: a measurement result (what the probe script writes), then its comparison with the scenario it
// names; an accepted result's comparison never divides by zero or reports a negative peak.
#include "FuzzSupport.h"
#include "gpusizer/plan/Measurement.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gpusizer;
    const auto measured = core::parseMeasurement(fuzz::bytesOf(data, size), "result.json", fuzz::catalog());
    if (measured) {
        fuzz::checkAccepted(measured->scenario);
        if (const auto compared = core::compareMeasured(measured->scenario, *measured, fuzz::catalog())) {
            for (const auto& row : compared->rows) {
                fuzz::require(!row.available || (std::isfinite(row.errorShare) && row.measured > 0),
                              "a compared figure has a positive measurement and a finite error");
            }
        }
    }
    return 0;
}
