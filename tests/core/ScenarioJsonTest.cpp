#include "gpusizer/scenario/ScenarioJson.h"

#include "TestModels.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/memory/Estimate.h"

#include <gtest/gtest.h>

using namespace gpusizer;

using fixtures::catalog;

TEST(ScenarioJson, RoundTripsEveryField) {
    core::Scenario s = core::defaultScenario(catalog());
    s.name = "round trip";
    s.method = core::Method::Qlora;
    s.precision = core::Precision::Bf16Fp32Master;
    s.optimizer = core::Optimizer::PagedAdamW8bit;
    s.lora.rank = 64;
    s.lora.targets = {core::LinearRole::Q, core::LinearRole::K, core::LinearRole::Down};
    s.quantization = core::Quantization::Nf4;
    s.microBatch = 3;
    s.seqLen = 8192;
    s.gradientAccumulation = 16;
    s.lora.lmHead = true;
    s.lora.saveEmbedding = true;
    s.checkpointing = core::Checkpointing::EveryNth;
    s.checkpointEvery = 3;
    s.attention = core::Attention::Flash;
    s.loss = core::Loss::Chunked;
    s.compile = true;
    s.framework = core::Framework::Axolotl;
    s.gpus = 8;
    s.sharding = core::Sharding::Zero2;
    s.shardingEngine = core::ShardingEngine::Deepspeed;
    s.adapterWrapping = core::AdapterWrapping::Mixed;
    s.tensorParallel = 2;
    s.offload = core::Offload::Optimizer;
    s.gpuId = "h100-sxm";
    core::placeOnCard(s, *catalog().findGpu(s.gpuId)); // what reading "gpu" does
    s.overrides.lossChunks = 16;
    s.overrides.optimizerStep = core::OptimizerStepKind::PerParameter;
    s.overrides.sdpaExpandsKv = false;
    s.overrides.selectivePolicy = core::SelectivePolicy::OpLevel;
    s.overrides.logitsHeldInFp32 = true;
    s.overrides.zeroMaxReuseDistance = 3e8;
    s.overrides.zeroMaxLiveParameters = 0;
    const auto text = core::scenarioToJson(s);
    auto back = core::parseScenario(text, "roundtrip.json", catalog());
    ASSERT_TRUE(back) << back.error().message();
    EXPECT_TRUE(back->warnings.empty()) << (back->warnings.empty() ? "" : back->warnings[0].message());
    EXPECT_EQ(core::scenarioToJson(back->scenario), text);
    EXPECT_EQ(core::estimate(back->scenario).deviceBytes, core::estimate(s).deviceBytes);
}

TEST(ScenarioJson, ConfigJsonModelsRoundTripThroughExplicitKeys) {
    core::Scenario s = core::defaultScenario(catalog());
    s.modelId.clear(); // forces the architecture to be written out
    s.model.mlp = core::MlpKind::Plain;
    s.model.norm = core::NormKind::LayerNorm;
    s.model.learnedPositions = 2048;
    s.model.hiddenDropout = 0.1;
    auto back = core::parseScenario(core::scenarioToJson(s), "arch.json", catalog());
    ASSERT_TRUE(back) << back.error().message();
    EXPECT_EQ(back->scenario.model.mlp, core::MlpKind::Plain);
    EXPECT_EQ(back->scenario.model.norm, core::NormKind::LayerNorm);
    EXPECT_EQ(core::countParams(back->scenario.model).total, core::countParams(s.model).total);
}

TEST(ScenarioJson, ErrorsNameTheFieldAndTheReason) {
    struct Case {
        const char* json;
        const char* where;
        core::ErrorCode code;
    };
    const Case cases[] = {
        {R"({"model": "llama-3.1-8b", "seq_len": "long"})", "seq_len", core::ErrorCode::WrongType},
        {R"({"model": "llama-3.1-8b", "seq_len": 1e12})", "seq_len", core::ErrorCode::OutOfRange},
        {R"({"model": "llama-3.1-8b", "method": "dora"})", "method", core::ErrorCode::UnknownValue},
        {R"({"model": "no-such-model"})", "model", core::ErrorCode::UnknownId},
        {R"({"model": "llama-3.1-8b", "gpu": "no-such-gpu"})", "gpu", core::ErrorCode::UnknownId},
        {R"({"model": "llama-3.1-8b", "lora": {"targets": ["qq_proj"]}})", "targets", core::ErrorCode::UnknownValue},
        {R"({"model": {"params_billion": -3}})", "params_billion", core::ErrorCode::OutOfRange},
        {R"({"format": "something-else", "model": "llama-3.1-8b"})", "format", core::ErrorCode::WrongFormat},
        {R"({"model": "llama-3.1-8b", "version": 7})", "version", core::ErrorCode::WrongFormat},
        {R"({"method": "lora"})", "model", core::ErrorCode::MissingField},
        {R"([1, 2, 3])", "s.json", core::ErrorCode::WrongFormat},
        {R"({"model": "llama-3.1-8b", "gpus": 6, "tensor_parallel": 4})", "gpus", core::ErrorCode::Inconsistent},
        {R"({"model": "llama-3.1-8b", "framework_overrides": {"loss_chunks": 0}})", "loss_chunks",
         core::ErrorCode::OutOfRange},
    };
    for (const auto& c : cases) {
        auto r = core::parseScenario(c.json, "s.json", catalog());
        ASSERT_FALSE(r) << c.json;
        EXPECT_NE(r.error().where.find(c.where), std::string::npos) << c.json << " -> " << r.error().where;
        EXPECT_EQ(r.error().code, c.code) << c.json << " -> " << r.error().message();
        EXPECT_FALSE(r.error().message().empty());
    }
}

TEST(ScenarioJson, AbsurdNestingIsRefusedBeforeParsing) {
    const std::string deep = R"({"model": )" + std::string(100000, '[') + std::string(100000, ']') + "}";
    auto r = core::parseScenario(deep, "deep.json", catalog());
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, core::ErrorCode::InvalidJson);
}

TEST(ScenarioJson, MeasurementsAndCalibrationTravelWithTheScenario) {
    core::Scenario s = core::defaultScenario(catalog());
    s.overheadCorrectionBytes = 512LL << 20; // +0.5 GiB
    s.measurements.push_back(R"({"format": "gpusizer-measurement", "version": 1, "device": "cpu"})");
    auto back = core::parseScenario(core::scenarioToJson(s), "m.json", catalog());
    ASSERT_TRUE(back) << back.error().message();
    EXPECT_EQ(back->scenario.overheadCorrectionBytes, 512LL << 20);
    ASSERT_EQ(back->scenario.measurements.size(), 1u);
    // The correction adds to the device usage: 0.5 GiB more than without it.
    core::Scenario plain = s;
    plain.overheadCorrectionBytes = 0;
    EXPECT_EQ(core::estimate(s).deviceBytes - core::estimate(plain).deviceBytes, 512LL << 20);
    auto bad =
        core::parseScenario(R"({"model": "llama-3.1-8b", "measurements": [{"format": "x"}]})", "m.json", catalog());
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().where.find("measurements"), std::string::npos);
}
