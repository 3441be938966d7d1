// The estimator against published measured peaks (catalogs/calibration.json, sources cited per row).
#include "CalibrationHarness.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/memory/Accuracy.h"
#include "gpusizer/memory/Band.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/scenario/FrameworkProfile.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <set>
#include <string>

using namespace gpusizer;

namespace {

const core::CalibrationReport& report() {
    static const core::CalibrationReport r = [] {
        auto result = core::runCalibration(catalogs::shippedCalibrationJson(), catalogs::loadCatalogs().catalog);
        if (!result) {
            ADD_FAILURE() << result.error().where << ": " << result.error().message();
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

// The band the estimator shows is the one the calibration set measures (issue 13): the table in
// core/memory/src/Band.cpp equals the derivation from the current estimates, class by class.
TEST(Calibration, BandTableMatchesTheCalibrationSet) {
    const auto derived = core::deriveBandTable(report().targetRows());
    const auto shipped = core::bandTable();
    ASSERT_EQ(derived.size(), shipped.size());
    for (std::size_t i = 0; i < derived.size(); ++i) {
        EXPECT_TRUE(derived[i].kind == shipped[i].kind) << i;
        EXPECT_NEAR(derived[i].shares.down, shipped[i].shares.down, 1e-9) << i;
        EXPECT_NEAR(derived[i].shares.up, shipped[i].shares.up, 1e-9) << i;
        EXPECT_EQ(derived[i].rows, shipped[i].rows) << i;
    }
}

TEST(Calibration, LongSequenceBandMatchesTheCalibrationSet) {
    const auto derived = core::deriveLongSequenceBand(report().rows);
    const auto shipped = core::longSequenceBand();
    EXPECT_DOUBLE_EQ(derived.tokens, shipped.tokens);
    EXPECT_NEAR(derived.shares.down, shipped.shares.down, 1e-9);
    EXPECT_NEAR(derived.shares.up, shipped.shares.up, 1e-9);
    EXPECT_EQ(derived.rows, shipped.rows);
    // A run longer than every target row gets at least that spread; one within them does not.
    core::Scenario s = core::defaultScenario(catalogs::loadCatalogs().catalog);
    s.seqLen = 2048;
    s.microBatch = 4;
    const auto inside = core::bandFor(s, core::profileFor(s));
    s.seqLen = 131072;
    s.microBatch = 1;
    const auto beyond = core::bandFor(s, core::profileFor(s));
    EXPECT_GE(beyond.down, shipped.shares.down);
    EXPECT_GE(beyond.up, shipped.shares.up);
    EXPECT_LE(inside.up, beyond.up);
}

// The band's promise (issue 13): at least four target rows in five inside it, at a useful width (median half-width
// under 20%). docs/accuracy.md also reports how often it holds for a publication it was not derived from.
TEST(Calibration, BandHoldsFourRowsInFiveAndStaysNarrow) {
    const auto target = report().targetRows();
    const auto inside = std::count_if(target.begin(), target.end(), [](const auto* r) { return r->inBand; });
    EXPECT_GE(static_cast<double>(inside), 0.80 * static_cast<double>(target.size()));
    std::vector<double> half;
    for (const auto* r : target) {
        half.push_back((r->bandHighGiB - r->bandLowGiB) / (2.0 * r->estimatedGiB));
    }
    std::sort(half.begin(), half.end());
    EXPECT_LT(half[half.size() / 2], 0.20);
}

// Issue 30's promise for the band: derived without a project's rows, it holds that project's measured figures for at
// least 85% of the target rows (leave one project out), at a median half-width of at most 12%.
TEST(Calibration, BandHoldsOnPublicationsItWasNotDerivedFrom) {
    const auto target = report().targetRows();
    EXPECT_GE(core::leaveOneProjectOutCoverage(target), 0.85);
    std::vector<double> half;
    for (const auto* r : target) {
        half.push_back((r->bandHighGiB - r->bandLowGiB) / (2.0 * r->estimatedGiB));
    }
    std::sort(half.begin(), half.end());
    EXPECT_LE(half[half.size() / 2], 0.12);
}

namespace {

/// A target row of a kind whose measured / estimated is `ratio`, from a publication of `project`.
core::CalibrationRow rowWithRatio(double ratio, const std::string& project, core::Method method, bool multiGpu) {
    core::CalibrationRow r;
    r.sourceKey = project;
    r.project = project;
    r.bandClass = {true, method, multiGpu};
    r.errorShare = 1.0 / ratio - 1.0; // measured / estimated = 1 / (1 + error)
    r.genericErrorShare = r.errorShare;
    return r;
}

core::BandShares sharesOf(const std::vector<core::BandEntry>& table, core::Method method, bool multiGpu) {
    for (const auto& e : table) {
        if (e.kind == core::BandClass{true, method, multiGpu}) {
            return e.shares;
        }
    }
    return {};
}

} // namespace

// A side of the band is the split-conformal rank (Accuracy.h): of 40 ratios the ceil(41 x 0.95) = 39th from each end,
// so the second smallest and the second largest; of 19 ratios ceil(20 x 0.95) = 19, the extremes themselves.
TEST(Calibration, BandSideIsTheConformalRankOfItsRows) {
    std::vector<core::CalibrationRow> rows;
    const std::vector<double> outer{0.80, 0.85, 1.10, 1.30};
    for (int i = 0; i < 40; ++i) {
        const double ratio = i < 4 ? outer[static_cast<std::size_t>(i)] : 1.0;
        rows.push_back(rowWithRatio(ratio, "org/" + std::to_string(i % 4), core::Method::Full, false));
    }
    std::vector<const core::CalibrationRow*> all;
    for (const auto& r : rows) {
        all.push_back(&r);
    }
    const auto forty = sharesOf(core::deriveBandTable(all), core::Method::Full, false);
    EXPECT_DOUBLE_EQ(forty.down, 0.15); // 1 - 0.85
    EXPECT_DOUBLE_EQ(forty.up, 0.10);   // 1.10 - 1
    // 19 rows (the four outer ones and 15 at 1.0): the rank is the last, the extremes 0.80 and 1.30.
    all.resize(19);
    const auto nineteen = sharesOf(core::deriveBandTable(all), core::Method::Full, false);
    EXPECT_DOUBLE_EQ(nineteen.down, 0.20);
    EXPECT_DOUBLE_EQ(nineteen.up, 0.30);
}

// A kind whose rows come from one project is not its own evidence: ten one-GPU LoRA rows of one project's tables, all
// measured at their estimate, take the LoRA rows pooled over GPU counts, where four several-GPU rows from two more
// projects measured 1.25 x their estimate (with 14 rows the rank is the extreme: +25%).
TEST(Calibration, AKindNeedsRowsFromTwoProjects) {
    std::vector<core::CalibrationRow> rows;
    for (int i = 0; i < 10; ++i) {
        rows.push_back(rowWithRatio(1.0, "org/a", core::Method::Lora, false));
    }
    for (int i = 0; i < 4; ++i) {
        rows.push_back(rowWithRatio(1.25, i % 2 == 0 ? "org/c" : "org/d", core::Method::Lora, true));
    }
    std::vector<const core::CalibrationRow*> all;
    for (const auto& r : rows) {
        all.push_back(&r);
    }
    const auto table = core::deriveBandTable(all);
    EXPECT_DOUBLE_EQ(sharesOf(table, core::Method::Lora, false).up, 0.25);
    EXPECT_DOUBLE_EQ(sharesOf(table, core::Method::Lora, false).down, core::kBandNoiseFloor);
    // A second project among the one-GPU rows makes them their own evidence: every ratio 1.0, the noise floor.
    rows[1].project = "org/e";
    EXPECT_DOUBLE_EQ(sharesOf(core::deriveBandTable(all), core::Method::Lora, false).up, core::kBandNoiseFloor);
}

// Naming the framework narrows the band: for every kind of run the named band is no wider in total.
TEST(Calibration, NamingTheFrameworkNarrowsTheBand) {
    const auto table = core::bandTable();
    for (const auto& named : table) {
        if (!named.kind.frameworkNamed) {
            continue;
        }
        for (const auto& generic : table) {
            if (!generic.kind.frameworkNamed && generic.kind.method == named.kind.method &&
                generic.kind.multiGpu == named.kind.multiGpu) {
                EXPECT_LE(named.shares.down + named.shares.up, generic.shares.down + generic.shares.up)
                    << core::toString(named.kind.method) << (named.kind.multiGpu ? " several GPUs" : " one GPU");
            }
        }
    }
}

// Twelve runs measured on an H200 with PyTorch 2.11, transformers 5.17 and PEFT 0.21 (the project's shared
// calibration/h200 file), none of them used to derive the band. The allocated peak of every run is within 5% (issue
// 30's target; 1.5% at worst since SDPA's grouped k/v, o_proj's view, the first norm, autocast's casts and lm_head's
// gradient were read from today's code) and 1% on average, and the band holds every measured peak. The reserved
// peak, from the caching-allocator replay where the trace follows the run (ten of the twelve; Gemma-2 and Mixtral
// keep allocated + 5%), is within 5% on every run. Step time is reported in docs/accuracy.md.
TEST(Calibration, TodaysStackOnAnH200IsWithinFivePercentOnTheAllocatedPeak) {
    std::ifstream in(std::string(GPUSIZER_TEST_DATA_DIR) + "/calibration/measured-h200.json", std::ios::binary);
    const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto rows = calibration::runH200(json, catalogs::loadCatalogs().catalog);
    ASSERT_TRUE(rows.has_value()) << rows.error().where << ": " << rows.error().message();
    ASSERT_EQ(rows->size(), 12u);
    double sum = 0;
    for (const auto& r : *rows) {
        EXPECT_LE(std::abs(r.allocatedError()), 0.05)
            << r.id << ": estimated " << r.estAllocatedGiB << " GiB, measured " << r.allocatedGiB << " GiB";
        EXPECT_TRUE(r.inBand()) << r.id;
        EXPECT_LE(std::abs(r.estReservedGiB / r.reservedGiB - 1.0), 0.05)
            << r.id << ": estimated " << r.estReservedGiB << " GiB reserved, measured " << r.reservedGiB << " GiB";
        sum += std::abs(r.allocatedError());
    }
    EXPECT_LE(sum / static_cast<double>(rows->size()), 0.01);
}

// The step time model against the same twelve runs (issue 30's target: within 20% on each). Before the experts'
// grouped GEMM ran whole tiles in whole waves, Mixtral's was 22.8% fast (docs/planning.md, "Grouped experts").
TEST(Calibration, TodaysStackOnAnH200IsWithinTwentyPercentOnStepTime) {
    std::ifstream in(std::string(GPUSIZER_TEST_DATA_DIR) + "/calibration/measured-h200.json", std::ios::binary);
    const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto rows = calibration::runH200(json, catalogs::loadCatalogs().catalog);
    ASSERT_TRUE(rows.has_value()) << rows.error().where << ": " << rows.error().message();
    for (const auto& r : *rows) {
        EXPECT_LE(std::abs(r.stepError()), 0.20)
            << r.id << ": estimated " << r.estStepSeconds << " s, measured " << r.stepSeconds << " s";
    }
}

// No side of a band is shown beyond 40% (issue 30): the generic several-GPU LoRA runs measured up to +164% of their
// estimates, and the estimate says so instead of widening its range to it.
TEST(Calibration, ABandWiderThanFortyPercentIsCappedAndSaysWhatWasMeasured) {
    core::Scenario s;
    s.model = catalogs::loadCatalogs().catalog.findModel("llama-3.1-8b")->arch;
    s.method = core::Method::Lora;
    s.gpus = 8;
    s.sharding = core::Sharding::Zero2;
    double measuredUp = 0;
    for (const auto& entry : core::bandTable()) {
        if (entry.kind == core::bandClassOf(s)) {
            measuredUp = entry.shares.up;
        }
    }
    ASSERT_GT(measuredUp, core::kBandMaxShare); // the premise: the table's evidence for this kind is that wide
    const core::Estimate e = core::estimate(s);
    EXPECT_DOUBLE_EQ(e.bandUpShare, core::kBandMaxShare);
    EXPECT_DOUBLE_EQ(e.bandEvidenceUpShare, measuredUp);
    EXPECT_TRUE(std::any_of(e.warnings.begin(), e.warnings.end(),
                            [](const core::Warning& w) { return w.code == "band_evidence_thin"; }));
    // Naming the framework uses that kind's own, narrower evidence: no cap, no warning.
    s.framework = core::Framework::HfTrainer;
    const core::Estimate named = core::estimate(s);
    EXPECT_LE(named.bandUpShare, core::kBandMaxShare);
    EXPECT_EQ(named.bandEvidenceUpShare, 0.0);
    // A size-only model keeps its own width.
    core::Scenario sized = s;
    sized.model.sizeDerived = true;
    EXPECT_GE(core::estimate(sized).bandUpShare, core::kBandSizeDerived);
}
