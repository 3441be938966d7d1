// The estimator against published measured peaks (catalogs/calibration.json, sources cited per row).
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/core/Accuracy.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
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

// Rows that miss the 25% bound today, each explained in docs/accuracy.md. They are held to 40% so that they cannot
// drift further unnoticed; every other target row must be within 25%.
const std::map<std::string, std::string> kKnownOutliers{
    {"torchtune-flags-10", "QLoRA with compiled chunked loss: the bf16 logits alone exceed what the measurement "
                           "leaves for logits and activations"},
};

TEST(Calibration, EveryTargetRowIsWithinTwentyFivePercentOrAKnownOutlier) {
    for (const auto* r : report().targetRows()) {
        const bool outlier = kKnownOutliers.count(r->id) > 0;
        EXPECT_LE(std::abs(r->errorShare), outlier ? 0.40 : 0.25)
            << r->id << ": estimated " << r->estimatedGiB << " GiB, measured " << r->measuredGiB << " GiB";
    }
}
