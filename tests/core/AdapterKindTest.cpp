// The PEFT adapter kinds besides LoRA, each derived by hand from huggingface/peft @5d602fdb:
// tuners/lora/dora.py + variants.py (DoRA), optimizers/lorafa.py (LoRA-FA), tuners/vera/{model,layer}.py (VeRA),
// tuners/ia3/layer.py (IA3), tuners/ln_tuning/layer.py + utils/constants.py (LayerNorm tuning).
#include "TestModels.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Planning.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <gtest/gtest.h>

using namespace gpusizer;
using core::Component;

namespace {

constexpr std::int64_t kLlama2_7b = 6'738'415'616;

// Llama-2-7B (h 4096, f 11008, 32 layers), pure bf16, adapters on q_proj and v_proj, rank 8, no checkpointing.
core::Scenario adapters(core::AdapterKind kind, core::AdapterDtype dtype = core::AdapterDtype::Bf16) {
    core::Scenario s;
    s.model = fixtures::llama2_7b();
    s.method = core::Method::Lora;
    s.precision = core::Precision::Bf16;
    s.lora.kind = kind;
    s.lora.rank = 8;
    s.lora.dropout = 0.05;
    s.lora.targets = {core::LinearRole::Q, core::LinearRole::V};
    s.lora.dtype = dtype;
    s.checkpointing = core::Checkpointing::None;
    s.gradientAccumulation = 2; // gradients alive at the peak
    s.microBatch = 1;
    s.seqLen = 512;
    return s;
}

} // namespace

TEST(AdapterKind, DoraAddsAMagnitudePerOutputRowAndKeepsTheBaseAndLoraOutputs) {
    const auto e = core::estimate(adapters(core::AdapterKind::Dora));
    // LoRA q, v: 2 x 8 x (4096 + 4096) = 131,072 per layer; lora_magnitude_vector one per output row: 2 x 4096
    // = 8,192; (131,072 + 8,192) x 32 layers = 4,456,448.
    EXPECT_EQ(e.trainableParams, 4'456'448);
    EXPECT_EQ(e.perGpu[Component::Weights], 2 * kLlama2_7b + 2 * 4'456'448);
    // Per module per token: dropout output 2 x 4096 + mask 4096 + lora_A output 2 x 8 = 12,304 (as LoRA);
    // DoRA's products save base_result 2 x 4096 and lora_result 2 x 4096 = 16,384. Two modules: 57,376.
    EXPECT_DOUBLE_EQ(e.activationPerTokenLayer.lora, 2.0 * (12'304 + 16'384));
    // get_weight_norm on a 4096 x 4096 layer, all bf16: the identity lora_A saved 2 x 4096² = 33,554,432, B·A
    // 33,554,432, then scaling x B·A and W + that, 2 x 2 x 4096² = 67,108,864: 134,217,728 (more than
    // get_lora_weight's eye + B·A = 67,108,864).
    EXPECT_EQ(e.doraWeightTemporaryBytes, 134'217'728);
}

TEST(AdapterKind, DoraWithAutocastKeepsASixteenBitCopyOfTheIdentity) {
    auto s = adapters(core::AdapterKind::Dora, core::AdapterDtype::Fp32);
    s.precision = core::Precision::AmpBf16; // fp32 model, bf16 autocast, fp32 adapters (PEFT's default upcast)
    // get_lora_weight: eye(4096) fp32 4 x 4096² = 67,108,864 + its autocast bf16 copy 2 x 4096² = 33,554,432 + B·A
    // under autocast bf16 2 x 4096² = 33,554,432 -> 134,217,728.
    // get_weight_norm (the input cast to the fp32 adapter dtype): the eye copy 33,554,432 + B·A 33,554,432 +
    // B·A.to(fp32) 67,108,864 + scaling x B·A and W + that in fp32 2 x 67,108,864 -> 268,435,456 (the larger; the
    // fp32 model's W needs no cast).
    EXPECT_EQ(core::estimate(s).doraWeightTemporaryBytes, 268'435'456);
}

TEST(AdapterKind, DoraWithDropoutRunsTheBaseMatmulTwice) {
    // With dropout, DoraLinearVariant passes base_result=None and dora.py computes F.linear(dropout(x), W) again:
    // forward 2 x in x out plus the input gradient 2 x in x out per adapted module and token.
    auto dora = adapters(core::AdapterKind::Dora);
    auto lora = adapters(core::AdapterKind::Lora);
    const double extra = 32.0 * 2.0 * 4.0 * 4096.0 * 4096.0; // 32 layers x 2 modules x 4 x 4096²
    EXPECT_DOUBLE_EQ(core::trainingFlopsPerToken(dora) - core::trainingFlopsPerToken(lora), extra);
    dora.lora.dropout = 0.0;
    lora.lora.dropout = 0.0;
    EXPECT_DOUBLE_EQ(core::trainingFlopsPerToken(dora), core::trainingFlopsPerToken(lora));
}

TEST(AdapterKind, LoraFaFreezesATheGradientAndStatesAreBsOnly) {
    auto s = adapters(core::AdapterKind::LoraFa);
    const auto e = core::estimate(s);
    // Only lora_B trains: 8 x 4096 per module, 2 modules, 32 layers = 2,097,152; lora_A (8 x 4096 each) is kept.
    EXPECT_EQ(e.trainableParams, 2'097'152);
    EXPECT_EQ(e.perGpu[Component::Weights], 2 * kLlama2_7b + 2 * (2'097'152 + 2'097'152));
    EXPECT_EQ(e.perGpu[Component::Gradients], 2 * 2'097'152);
    EXPECT_EQ(e.perGpu[Component::OptimizerStates], 2 * 2 * 2'097'152); // AdamW m and v in bf16
    // Frozen lora_A saves no input: per module the dropout mask 4096 and lora_A's output 2 x 8 -> 4,112.
    EXPECT_DOUBLE_EQ(e.activationPerTokenLayer.lora, 2.0 * 4'112);
    // Without dropout LoRA's lora_A saves the q/v input (2 x 4096); LoRA-FA's frozen A does not.
    s.lora.dropout = 0.0;
    auto lora = s;
    lora.lora.kind = core::AdapterKind::Lora;
    EXPECT_DOUBLE_EQ(core::estimate(lora).activationPerTokenLayer.linearInputs, 2.0 * 4096);
    EXPECT_DOUBLE_EQ(core::estimate(s).activationPerTokenLayer.linearInputs, 0.0);
    // FLOPs: A runs forward and passes the input gradient (4 x 8 x 4096) instead of training (6 x 8 x 4096).
    EXPECT_DOUBLE_EQ(core::trainingFlopsPerToken(lora) - core::trainingFlopsPerToken(s), 32.0 * 2.0 * 2.0 * 8 * 4096);
}

TEST(AdapterKind, VeraTrainsTwoVectorsPerModuleBesideOneSharedFrozenPair) {
    auto s = adapters(core::AdapterKind::Vera, core::AdapterDtype::Fp32);
    s.lora.rank = 256; // VeraConfig's default r
    s.lora.dropout = 0.0;
    const auto e = core::estimate(s);
    // vera_lambda_d (256) + vera_lambda_b (4096) per module: 4,352 x 2 x 32 = 278,528 trainable.
    EXPECT_EQ(e.trainableParams, 278'528);
    // Shared vera_A 256 x 4096 and vera_B 4096 x 256 in fp32: 2 x 1,048,576 x 4 = 8,388,608 bytes.
    EXPECT_EQ(e.perGpu[Component::Weights], 2 * kLlama2_7b + 4 * 278'528 + 8'388'608);
    EXPECT_EQ(e.perGpu[Component::Gradients], 4 * 278'528);
    // Pure bf16 (no autocast): x is cast to the fp32 lambda dtype, so both matmul outputs are fp32; the products with
    // lambda_d and lambda_b save them: 4 x (256 + 4096) = 17,408 per module.
    EXPECT_DOUBLE_EQ(e.activationPerTokenLayer.lora, 2.0 * 17'408);
}

TEST(AdapterKind, Ia3ScalesTheFeedForwardInputAndTheOtherOutputs) {
    auto s = adapters(core::AdapterKind::Ia3, core::AdapterDtype::Fp32);
    s.lora.targets = {core::LinearRole::K, core::LinearRole::V, core::LinearRole::Down}; // PEFT's Llama mapping
    s.lora.dropout = 0.0;
    const auto e = core::estimate(s);
    // ia3_l: k (4096, 1), v (4096, 1), down_proj (1, 11008): 19,200 per layer x 32 = 614,400.
    EXPECT_EQ(e.trainableParams, 614'400);
    // k and v save the bf16 base output they scale (2 x 4096 each); down_proj saves x.to(fp32) (4 x 11008).
    EXPECT_DOUBLE_EQ(e.activationPerTokenLayer.lora, 2.0 * 4096 + 2.0 * 4096 + 4.0 * 11008);
    // The scaling is element-wise: no matmul FLOPs beyond the frozen model's forward and input gradients.
    auto frozen = s;
    frozen.lora.kind = core::AdapterKind::LnTuning;
    EXPECT_DOUBLE_EQ(core::trainingFlopsPerToken(s), core::trainingFlopsPerToken(frozen));
}

TEST(AdapterKind, LayerNormTuningTrainsNormCopiesAndSavesTheirOutputs) {
    auto s = adapters(core::AdapterKind::LnTuning, core::AdapterDtype::Fp32);
    s.lora.targets.clear(); // the kind has no linear targets
    ASSERT_TRUE(core::validate(s).has_value());
    const auto e = core::estimate(s);
    // Copies of input_layernorm and post_attention_layernorm in 32 layers and the final norm: 65 x 4096 = 266,240.
    EXPECT_EQ(e.trainableParams, 266'240);
    EXPECT_DOUBLE_EQ(e.activationPerTokenLayer.lora, 0.0);
    EXPECT_DOUBLE_EQ(e.activationPerTokenLayer.linearInputs, 0.0);
    // A trainable weight makes weight * normalised save the bf16 normalised input: per norm fp32 input 4 x 4096 +
    // 2 x 4096 = 24,576; two norms 49,152 (LoRA's frozen norms keep 2 x 16,384 = 32,768).
    EXPECT_DOUBLE_EQ(e.activationPerTokenLayer.norms, 49'152);
}

TEST(AdapterKind, AdaptersOnTheEndsAreSizedForLoraOnly) {
    auto s = adapters(core::AdapterKind::Vera);
    s.lora.lmHead = true;
    const auto r = core::validate(s);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().where, "lora.targets");
    s.lora.kind = core::AdapterKind::Lora;
    EXPECT_TRUE(core::validate(s).has_value());
}

TEST(AdapterKind, TheKindRoundTripsThroughScenarioJson) {
    const core::Catalog none;
    const auto parsed = core::parseScenario(
        R"({"model": {"params_billion": 1}, "method": "lora", "lora": {"kind": "lora-fa", "rank": 4}})", "t.json",
        none);
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(parsed->scenario.lora.kind, core::AdapterKind::LoraFa);
    const auto again = core::parseScenario(core::scenarioToJson(parsed->scenario), "t.json", none);
    ASSERT_TRUE(again.has_value());
    EXPECT_EQ(again->scenario.lora.kind, core::AdapterKind::LoraFa);
    const auto bad =
        core::parseScenario(R"({"model": {"params_billion": 1}, "lora": {"kind": "lokr"}})", "t.json", none);
    ASSERT_FALSE(bad.has_value());
    EXPECT_NE(bad.error().where.find("kind"), std::string::npos);
}

// Freeze tuning (LLaMA-Factory finetuning_type freeze @ff6d4d12: model/adapter.py _setup_freeze_tuning trains the
// last freeze_trainable_layers decoder layers; embeddings and lm_head stay frozen).
namespace {

core::Scenario freezeTwoLayers(core::Checkpointing checkpointing) {
    core::Scenario s;
    s.model = fixtures::llama2_7b();
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16;
    s.trainableLayers = 2;
    s.checkpointing = checkpointing;
    s.attention = core::Attention::Sdpa;
    s.gradientAccumulation = 2;
    s.microBatch = 1;
    s.seqLen = 512;
    return s;
}

} // namespace

TEST(FreezeTuning, OnlyTheLastLayersTrainAndHoldGradientsAndStates) {
    const auto e = core::estimate(freezeTwoLayers(core::Checkpointing::None));
    // A Llama-2-7B layer: 4 x 4096² + 3 x 4096 x 11008 = 202,375,168 weights + two norms 8,192 = 202,383,360; two
    // layers 404,766,720.
    EXPECT_EQ(e.trainableParams, 404'766'720);
    EXPECT_EQ(e.perGpu[Component::Weights], 2 * kLlama2_7b); // every weight stays, in bf16
    EXPECT_EQ(e.perGpu[Component::Gradients], 2 * 404'766'720);
    EXPECT_EQ(e.perGpu[Component::OptimizerStates], 2 * 2 * 404'766'720); // pure bf16 AdamW: m, v in bf16
}

TEST(FreezeTuning, WithoutCheckpointingTheFrozenLayersKeepNothing) {
    const auto e = core::estimate(freezeTwoLayers(core::Checkpointing::None));
    // A trained layer keeps what full fine-tuning keeps: norms 2 x (4 + 2) x 4096 = 49,152; linear inputs (q/k/v,
    // gate/up, down; o_proj reads a view of SDPA's saved output) 2 x (2 x 4096 + 11008) = 38,400; SDPA q, k, v, out
    // 4 x 2 x 4096 + logsumexp 4 x 32 = 32,896; MLP 3 x 2 x 11008 = 66,048: 186,496 per token.
    EXPECT_DOUBLE_EQ(e.activationPerTokenLayer.total(), 186'496);
    // Two such layers, and the final norm's fp32 input 4 x 4096 (lm_head is frozen: its input is not saved).
    EXPECT_EQ(e.activationBytesAtLoss, std::int64_t{2 * 186'496 + 16'384} * 512);
}

TEST(FreezeTuning, OnlyTheTrainedLayersAreCheckpointed) {
    // LLaMA-Factory checkpoints the trained layers only (model/model_utils/checkpointing.py
    // get_custom_gradient_checkpointing_func); the frozen ones run plainly with no input requiring grad.
    // Full checkpointing: the two trained layers' inputs, 2 x 4096 each, and the final norm's fp32 input.
    EXPECT_EQ(core::estimate(freezeTwoLayers(core::Checkpointing::Full)).activationBytesAtLoss,
              std::int64_t{2 * 8'192 + 16'384} * 512);
    // Selective (attention core: nothing with SDPA): the two trained layers keep everything, the frozen ones nothing.
    EXPECT_EQ(core::estimate(freezeTwoLayers(core::Checkpointing::Selective)).activationBytesAtLoss,
              std::int64_t{2 * 186'496 + 16'384} * 512);
    // FLOPs with full checkpointing: only the trained layers run forward again (2N on 1/16 of the layers).
    const double head = 131'072'000.0;
    const double layers = 6'738'415'616.0 - 131'072'000.0 - head;
    const double attention = 2.0 * 32 * 512 * 256;
    EXPECT_DOUBLE_EQ(core::trainingFlopsPerToken(freezeTwoLayers(core::Checkpointing::Full)),
                     (6.0 + 2.0) * layers / 16.0 + 2.0 * layers * 15.0 / 16.0 + 4.0 * head + attention * (32 + 2 * 2));
}

TEST(FreezeTuning, FlopsTrainTwoLayersAndPassGradientsThroughLmHead) {
    // Matmul weights a token passes: 6,738,415,616 - the 131,072,000 embedding; lm_head 32000 x 4096 = 131,072,000.
    const double head = 131'072'000.0;
    const double layers = 6'738'415'616.0 - 131'072'000.0 - head;
    // Trained layers 6N, frozen layers forward only 2N (no checkpointing), lm_head forward + input gradient 4N.
    // Attention over the 512 x 512 scores, 2 x 32 heads x 512 x (128 + 128) = 8,388,608 per layer forward: forward in
    // all 32 layers, backward (2x) in the two trained ones.
    const double attention = 2.0 * 32 * 512 * 256;
    EXPECT_DOUBLE_EQ(core::trainingFlopsPerToken(freezeTwoLayers(core::Checkpointing::None)),
                     6.0 * layers / 16.0 + 2.0 * layers * 15.0 / 16.0 + 4.0 * head + attention * (32 + 2 * 2));
    auto s = freezeTwoLayers(core::Checkpointing::None);
    s.trainableLayers = 33;
    const auto r = core::validate(s);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().where, "trainable_layers");
}

TEST(FreezeTuning, TrainedLayersCastToFp32BesideSixteenBitFrozenOnes) {
    auto s = freezeTwoLayers(core::Checkpointing::Full);
    s.trainableLayersFp32 = true; // LLaMA-Factory cast_trainable_params_to_fp32 (model/adapter.py)
    const auto e = core::estimate(s);
    // Every weight in bf16, the two trained layers 2 B more each: 2 x 6,738,415,616 + 2 x 404,766,720.
    EXPECT_EQ(e.perGpu[Component::Weights], 2 * kLlama2_7b + 2 * 404'766'720);
    EXPECT_EQ(e.perGpu[Component::Gradients], 4 * 404'766'720);
    EXPECT_EQ(e.perGpu[Component::OptimizerStates], std::int64_t{8} * 404'766'720); // fp32 m and v, no master copy
}

// Published counts: huggingface/peft method_comparison/MetaMathQA/results/*.json @5d602fdb (train_info
// num_trainable_params, printed by the runs on meta-llama/Llama-3.2-3B: h 3072, 28 layers, k/v 1024, f 8192).
TEST(AdapterKind, TrainableCountsMatchPeftsMethodComparison) {
    static const core::Catalog catalog = catalogs::loadCatalogs().catalog;
    const core::ModelEntry* llama = catalog.findModel("llama-3.2-3b");
    ASSERT_NE(llama, nullptr);
    auto run = [&](core::AdapterKind kind, std::int64_t rank, std::vector<core::LinearRole> targets) {
        core::Scenario s;
        s.model = llama->arch;
        s.method = core::Method::Lora;
        s.lora.kind = kind;
        s.lora.rank = rank;
        s.lora.dropout = 0.0;
        s.lora.targets = std::move(targets);
        return core::estimate(s).trainableParams;
    };
    using R = core::LinearRole;
    EXPECT_EQ(run(core::AdapterKind::Lora, 32, {R::Q, R::V}), 9'175'040);      // lora--llama-3.2-3B-rank32
    EXPECT_EQ(run(core::AdapterKind::Dora, 32, {R::Q, R::V}), 9'289'728);      // ...-rank32-dora
    EXPECT_EQ(run(core::AdapterKind::LoraFa, 32, {R::Q, R::V}), 3'670'016);    // ...-rank32-lorafa
    EXPECT_EQ(run(core::AdapterKind::Vera, 256, {R::Q, R::V}), 129'024);       // vera--llama-3.2-3B-default
    EXPECT_EQ(run(core::AdapterKind::Ia3, 8, {R::K, R::V, R::Down}), 286'720); // ia3--llama-3.2-3B-default
    EXPECT_EQ(run(core::AdapterKind::LnTuning, 8, {}), 175'104);               // ln_tuning--llama-3.2-3B-default
}
