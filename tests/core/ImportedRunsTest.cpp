// Published measured runs re-created from their training config files estimate exactly as their hand-built
// calibration scenarios, and an imported run's measurement script trains what the files say: the importer and the
// estimator together (the importer's own tests, key by key, are in TrainingConfigTest.cpp).

#include "ImportFixtures.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/ProbeScript.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gpusizer {
namespace {

using fixtures::catalog;
using fixtures::imported;

core::Scenario calibrationScenario(const std::string& id) {
    const auto doc = nlohmann::json::parse(catalogs::shippedCalibrationJson());
    for (const auto& row : doc["rows"]) {
        if (row["id"] == id) {
            auto parsed = core::parseScenario(row["scenario"].dump(), id, catalog());
            EXPECT_TRUE(parsed.has_value());
            return parsed->scenario;
        }
    }
    ADD_FAILURE() << "no calibration row " << id;
    return {};
}

/// The imported run and the hand-built calibration scenario give the same estimate, byte for byte.
void expectSameEstimate(core::Scenario importedScenario, const std::string& rowId) {
    const core::Scenario row = calibrationScenario(rowId);
    // Training configs name no card; the row names the one it ran on (NCCL's buffers follow its node).
    if (const auto* gpu = catalog().findGpu(row.gpuId)) {
        core::placeOnCard(importedScenario, *gpu);
    }
    const core::Estimate a = core::estimate(importedScenario);
    const core::Estimate b = core::estimate(row);
    EXPECT_EQ(a.allocatedPeakBytes, b.allocatedPeakBytes) << rowId;
    EXPECT_EQ(a.reservedPeakBytes, b.reservedPeakBytes) << rowId;
    EXPECT_EQ(a.deviceBytes, b.deviceBytes) << rowId;
}

TEST(ImportedRuns, TorchtunesLoraRecipe) {
    // pytorch/torchtune README "Optimization flags" table (PR #2003), last row: 8.5 GiB active peak.
    expectSameEstimate(imported({"torchtune/3B_lora_single_device.yaml"}).scenario, "torchtune-flags-09");
}

TEST(ImportedRuns, PeftsDeepspeedRunWithItsConfigInlineOrInAFile) {
    // peft docs/source/accelerate/deepspeed.md (PR #1489): 64 GB per GPU on 8 × H100.
    for (const char* accelerate :
         {"transformers/accelerate_deepspeed.yaml", "transformers/accelerate_deepspeed_file.yaml"}) {
        SCOPED_TRACE(accelerate);
        expectSameEstimate(
            imported({"transformers/sft_config.json", "transformers/adapter_config.json", accelerate}).scenario,
            "peft-docs-ds-01");
    }
}

TEST(ImportedRuns, PeftsFsdpRun) {
    // peft docs/source/accelerate/fsdp.md (PR #1489): 72 GB per GPU during training.
    expectSameEstimate(imported({"transformers/sft_config.json", "transformers/adapter_config.json",
                                 "transformers/accelerate_fsdp.yaml"})
                           .scenario,
                       "peft-docs-fsdp-01");
}

TEST(ImportedRuns, LitgptsLoraRun) {
    // Lightning-AI/litgpt tutorials/resource-tables.md: 19.84 GB max_memory_allocated on an A100.
    expectSameEstimate(imported({"litgpt/llama-2-7b-lora.yaml"}).scenario, "litgpt-resource-11");
}

TEST(ImportedRuns, AxolotlsOlmo3QloraExample) {
    // axolotl examples/olmo3/README.md: "This config uses about 11.3 GiB VRAM".
    expectSameEstimate(imported({"axolotl/olmo3-7b-qlora.yaml"}).scenario, "axolotl-example-01");
}

TEST(ImportedRuns, ArcticTrainingsLlama70bRecipe) {
    // The recipe run-h100-sp32-llama-70b.yml is calibration row alst-06: the same estimate.
    expectSameEstimate(imported({"arctic-training/llama70b-ulysses32.yaml"}).scenario, "alst-06");
}

TEST(ImportedRuns, TheMeasurementScriptMirrorsTheFilesSettings) {
    const auto run = imported({"axolotl/olmo3-7b-qlora.yaml"});
    const std::string script = core::probeScript(run.scenario);
    // The scenario the script trains: the settings read from the file (lora_r 32, CutCrossEntropyPlugin, flash
    // attention, QLoRA with double quantization, sequence_len 2048), without the import report.
    for (const char* setting : {"\"rank\": 32", "\"loss\": \"cut-cross-entropy\"", "\"attention\": \"flash\"",
                                "\"method\": \"qlora\"", "\"quantization\": \"nf4-dq\"", "\"seq_len\": 2048"}) {
        EXPECT_NE(script.find(setting), std::string::npos) << setting;
    }
    EXPECT_EQ(script.find("\"notes\""), std::string::npos);
}

} // namespace
} // namespace gpusizer
