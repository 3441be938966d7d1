// The scenario field table drives the file, validation and the input panel: a range changed in the table reaches all
// three, and every field of the table survives a save and a reopen.
#include "MainWindow.h"
#include "ScenarioController.h"
#include "explorer/InputPanel.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/scenario/ScenarioFields.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <QtWidgets/QSpinBox>
#include <gtest/gtest.h>

using namespace gpusizer;

namespace {

/// Restores a field's range when the test ends, pass or fail.
struct RangeChange {
    core::ScenarioField& field;
    double oldMax;
    RangeChange(const char* key, double max)
        : field(*std::find_if(core::mutableScenarioFields().begin(), core::mutableScenarioFields().end(),
                              [&](const core::ScenarioField& f) { return std::string(f.key) == key; })),
          oldMax(field.max) {
        field.max = max;
    }
    ~RangeChange() { field.max = oldMax; }
    RangeChange(const RangeChange&) = delete;
    RangeChange& operator=(const RangeChange&) = delete;
};

} // namespace

TEST(FieldTable, AChangedRangeReachesTheFileValidationAndTheInputPanel) {
    const auto catalog = catalogs::loadCatalogs().catalog;
    const RangeChange change("micro_batch", 8);
    // The file: 16 sequences is now out of range, named by file and field.
    const auto parsed = core::parseScenario(R"({"model": "llama-3.1-8b", "micro_batch": 16})", "mine.json", catalog);
    ASSERT_FALSE(parsed.has_value());
    EXPECT_EQ(parsed.error().code, core::ErrorCode::OutOfRange);
    EXPECT_NE(parsed.error().where.find("micro_batch"), std::string::npos) << parsed.error().where;
    EXPECT_NE(parsed.error().message().find("between 1 and 8"), std::string::npos) << parsed.error().message();
    // Validation of a scenario built in code.
    core::Scenario s = core::defaultScenario(catalog);
    s.microBatch = 16;
    const auto checked = core::validate(s);
    ASSERT_FALSE(checked.has_value());
    EXPECT_EQ(checked.error().where, "micro_batch");
    EXPECT_EQ(checked.error().message(), "must be between 1 and 8");
    // The input panel's spin box.
    ui::ScenarioController controller(catalog);
    ui::MainWindow window(controller);
    EXPECT_EQ(window.inputPanel()->microBatchSpin()->maximum(), 8);
}

TEST(FieldTable, AnIntegerFieldsControlFollowsItsRangeToo) {
    const auto catalog = catalogs::loadCatalogs().catalog;
    const RangeChange change("gpus", 64);
    ui::ScenarioController controller(catalog);
    ui::MainWindow window(controller);
    EXPECT_EQ(window.inputPanel()->gpuCountSpin()->maximum(), 64);
    core::Scenario s = core::defaultScenario(catalog);
    s.gpus = 128;
    EXPECT_FALSE(core::validate(s).has_value());
}

TEST(FieldTable, EveryFieldSurvivesSaveAndReopenAndDefaultsAreTheStructs) {
    const auto catalog = catalogs::loadCatalogs().catalog;
    core::Scenario s = core::defaultScenario(catalog);
    const core::Scenario plain;
    // Change every numeric, flag and choice field away from its default (within its range).
    for (const auto& f : core::scenarioFields()) {
        if (f.type == core::FieldType::Special) {
            continue;
        }
        // The table's defaults are the struct's: one default everywhere.
        EXPECT_DOUBLE_EQ(f.get(plain), f.defaultValue) << f.key;
    }
    s.method = core::Method::Qlora;
    s.microBatch = 3;
    s.seqLen = 1000;
    s.gradientAccumulation = 7;
    s.lora.rank = 24;
    s.lora.dropout = 0.2;
    s.lora.dtype = core::AdapterDtype::Bf16;
    s.quantization = core::Quantization::Nf4;
    s.checkpointing = core::Checkpointing::EveryNth;
    s.checkpointEvery = 3;
    s.compile = true;
    s.framework = core::Framework::Torchtune;
    s.gpus = 8;
    s.sharding = core::Sharding::Zero3;
    s.shardingEngine = core::ShardingEngine::Fsdp2;
    const auto reopened = core::parseScenario(core::scenarioToJson(s), "round.json", catalog);
    ASSERT_TRUE(reopened.has_value()) << reopened.error().where << ": " << reopened.error().message();
    for (const auto& f : core::scenarioFields()) {
        if (f.type != core::FieldType::Special) {
            EXPECT_DOUBLE_EQ(f.get(reopened->scenario), f.get(s)) << f.key;
        }
    }
}
