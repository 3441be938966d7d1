// The estimator against published measured peaks (catalogs/calibration.json, sources cited per row).
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/core/Accuracy.h"

#include <cmath>
#include <gtest/gtest.h>
#include <set>

using namespace gpusizer;

namespace {

const core::CalibrationReport& report() {
    static const core::CalibrationReport r = [] {
        auto result = core::runCalibration(catalogs::shippedCalibrationJson());
        if (!result) {
            ADD_FAILURE() << result.error().where << ": " << result.error().message;
            return core::CalibrationReport{};
        }
        return *result;
    }();
    return r;
}

} // namespace

TEST(Calibration, EveryUsableRowEstimates) {
    EXPECT_GE(report().rows.size(), 100u);
    for (const auto& r : report().rows) {
        EXPECT_GT(r.estimatedGiB, 0.0) << r.id;
        EXPECT_TRUE(std::isfinite(r.errorShare)) << r.id;
    }
}

TEST(Calibration, TargetSetCoversEveryMethod) {
    std::set<std::string> methods;
    for (const auto* r : report().targetRows()) {
        methods.insert(r->method);
    }
    EXPECT_TRUE(methods.count("full"));
    EXPECT_TRUE(methods.count("lora"));
    EXPECT_TRUE(methods.count("qlora"));
}

// The target (issue 3): mean absolute error <= 10% on the target set, no row beyond 25%.
TEST(Calibration, TargetSetMeanErrorIsWithinTenPercent) {
    EXPECT_LE(core::errorStats(report().targetRows()).meanAbs, 0.10);
}

TEST(Calibration, EveryTargetRowIsWithinTwentyFivePercent) {
    for (const auto* r : report().targetRows()) {
        EXPECT_LE(std::abs(r->errorShare), 0.25)
            << r->id << ": estimated " << r->estimatedGiB << " GiB, measured " << r->measuredGiB << " GiB";
    }
}
