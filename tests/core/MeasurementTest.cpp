#include "gpusizer/plan/Measurement.h"

#include "TestModels.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace gpusizer;
using fixtures::catalog;

namespace {

core::Measurement load(const std::string& name) {
    std::ifstream in(std::string(GPUSIZER_TEST_DATA_DIR) + "/measurements/" + name);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    auto m = core::parseMeasurement(bytes.str(), name, catalog());
    if (!m) {
        ADD_FAILURE() << m.error().where << ": " << m.error().message();
        return {};
    }
    return *m;
}

} // namespace

TEST(Measurement, DeviceNamesMapToCatalogCards) {
    EXPECT_EQ(core::matchGpuName("NVIDIA H100 80GB HBM3", catalog())->id, "h100-sxm");
    EXPECT_EQ(core::matchGpuName("NVIDIA H100 PCIe", catalog())->id, "h100-pcie");
    EXPECT_EQ(core::matchGpuName("NVIDIA GeForce RTX 4090", catalog())->id, "rtx-4090");
    EXPECT_EQ(core::matchGpuName("NVIDIA A100-SXM4-80GB", catalog())->id.rfind("a100", 0), 0u);
    EXPECT_EQ(core::matchGpuName("Some Future Accelerator", catalog()), nullptr);
}

TEST(Measurement, CalibrationFitsTheOverheadAndMfuFromGpuRunsOnly) {
    const auto gpuRun = load("tiny-full-gpu.json");
    core::Measurement cpuRun = gpuRun;
    cpuRun.device = "cpu";
    const auto fit = core::fitCalibration({gpuRun, cpuRun}, catalog());
    ASSERT_TRUE(fit) << fit.error().message();
    EXPECT_EQ(fit->runs, 1);
    EXPECT_EQ(fit->gpuId, "h100-sxm");
    EXPECT_EQ(fit->notes.size(), 1u); // the CPU run was left out, and said so
    // overhead correction = measured (device - allocated) - estimated (device - allocated)
    const auto e = core::estimate(gpuRun.scenario);
    const double measured = static_cast<double>(*gpuRun.deviceUsedBytes - *gpuRun.allocatedBytes);
    const double estimated = static_cast<double>(e.deviceBytes - e.allocatedPeakBytes);
    EXPECT_EQ(fit->overheadCorrectionBytes, static_cast<std::int64_t>(std::llround(measured - estimated)));
    // The fitted utilisation is the matmuls': a run of the default scenario (Llama-3.1-8B LoRA) measured at the
    // speed the time model gives at 40% on an H100 is fitted at 40%, what the model spends outside the matmuls (the
    // element-wise kernels and the optimizer step, at the card's bandwidth) taken out first; the end-to-end figure,
    // tokens per second x FLOPs per token / 989 TFLOPS, is lower.
    ASSERT_TRUE(fit->mfu);
    core::Measurement atForty = gpuRun;
    atForty.scenario = core::defaultScenario(catalog());
    atForty.scenario.gpuId = "h100-sxm";
    core::PlanInputs forty;
    forty.mfu = 0.40;
    const auto step = core::stepTime(atForty.scenario, *catalog().findGpu("h100-sxm"), forty);
    atForty.tokensPerSecond = step.tokensPerStep / step.stepSeconds;
    const auto fitForty = core::fitCalibration({atForty}, catalog());
    ASSERT_TRUE(fitForty && fitForty->mfu);
    EXPECT_NEAR(*fitForty->mfu, 0.40, 1e-9);
    EXPECT_LT(*atForty.tokensPerSecond * core::trainingFlopsPerToken(atForty.scenario) / 989e12, 0.40);
    // One 16-token sequence: streaming the 16 GB of bf16 weights three times (forward, recomputation, backward) at
    // 3.35 TB/s takes 14 ms, the matmuls about 2 µs, so the memory floor sets the step and says nothing of the
    // matmuls' utilisation: the run is left out of that fit, and said so.
    core::Measurement floorBound = atForty;
    floorBound.scenario.seqLen = 16;
    floorBound.scenario.microBatch = 1;
    floorBound.tokensPerSecond = 100.0;
    const auto fitFloor = core::fitCalibration({floorBound}, catalog());
    ASSERT_TRUE(fitFloor);
    EXPECT_FALSE(fitFloor->mfu);
    ASSERT_EQ(fitFloor->notes.size(), 1u);
    EXPECT_EQ(fitFloor->notes.front().code, "speed_not_fitted");
    EXPECT_FALSE(core::fitCalibration({cpuRun}, catalog()));
}

// A GRPO result's step is an optimizer step over its generation batch (the script generates micro_batch x accumulation
// completions, then trains that many micro-batches): compare-measured estimates that step, not one micro-batch. Its
// generation runs at transformers' speed, which the time model only bounds from below, so the run is left out of the
// utilisation fit, and said so.
TEST(Measurement, AGrpoStepIsTheOptimizerStepAndStaysOutOfTheUtilisationFit) {
    core::Measurement grpo = load("tiny-full-gpu.json");
    grpo.scenario = core::defaultScenario(catalog());
    grpo.scenario.gpuId = "h100-sxm";
    grpo.scenario.runKind = core::RunKind::Grpo;
    grpo.scenario.microBatch = 4;
    grpo.scenario.gradientAccumulation = 2;
    grpo.scenario.numGenerations = 8;
    grpo.scenario.seqLen = 1024;
    grpo.scenario.completionLength = 512;
    grpo.paramsTotal = core::countParams(grpo.scenario.model).total;
    grpo.paramsTrainable = 0; // the base model is what is compared
    const core::GpuSpec& h100 = *catalog().findGpu("h100-sxm");
    const double optimizerStep = core::stepTime(grpo.scenario, h100, {}).stepSeconds;
    grpo.stepSeconds = {optimizerStep};
    const auto compared = core::compareMeasured(grpo.scenario, grpo, catalog());
    ASSERT_TRUE(compared) << compared.error().message();
    const auto step = std::find_if(compared->rows.begin(), compared->rows.end(),
                                   [](const core::MeasuredRow& r) { return r.what == "step_seconds"; });
    ASSERT_NE(step, compared->rows.end());
    ASSERT_TRUE(step->available);
    EXPECT_DOUBLE_EQ(step->estimated, optimizerStep); // both micro-batches and the 8 completions' generation
    core::Scenario oneMicroBatch = grpo.scenario;
    oneMicroBatch.gradientAccumulation = 1;
    // One micro-batch would leave out the second micro-batch's training and four of the eight completions.
    const core::StepTime one = core::stepTime(oneMicroBatch, h100, {});
    EXPECT_GT(optimizerStep - one.stepSeconds, one.computeSeconds);
    grpo.tokensPerSecond = 4.0 * 2.0 * 1024.0 / optimizerStep;
    const auto fit = core::fitCalibration({grpo}, catalog());
    ASSERT_TRUE(fit) << fit.error().message();
    EXPECT_FALSE(fit->mfu);
    ASSERT_EQ(fit->notes.size(), 1u);
    EXPECT_EQ(fit->notes.front().code, "generation_not_fitted");
}
