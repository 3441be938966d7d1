#include "gpusizer/core/Measurement.h"

#include "TestModels.h"

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
    // MFU = tokens per second x FLOPs per token / (989 TFLOPS dense BF16 of an H100 SXM)
    ASSERT_TRUE(fit->mfu);
    EXPECT_NEAR(*fit->mfu, *gpuRun.tokensPerSecond * core::trainingFlopsPerToken(gpuRun.scenario) / 989e12, 1e-12);
    EXPECT_FALSE(core::fitCalibration({cpuRun}, catalog()));
}
