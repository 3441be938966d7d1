// Preference objectives as TRL runs them (huggingface/trl @f2cd5771, docs/memory-model.md §8): the reference model,
// the chosen and rejected sequences in one batch, ORPO's NLL on the chosen half and the gradient-free passes' FLOPs.
// Expected values are derived by hand in each test.
#include "TestModels.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Advisor.h"
#include "gpusizer/plan/Planning.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace gpusizer;
using core::Component;

namespace {

// Llama-3.2-3B (tied): embedding 128,256 x 3072 = 394,002,432; a layer 2 x 3072² + 2 x 3072 x 1024 + 3 x 3072 x 8192
// + 2 x 3072 norms = 100,669,440, x 28; the final norm 3072: 3,212,749,824 parameters.
constexpr std::int64_t kParams = 3'212'749'824;

core::Scenario llama32(core::RunKind kind, core::Method method) {
    core::Scenario s;
    s.model = fixtures::llama32_3b();
    s.method = method;
    s.precision = core::Precision::Bf16;
    s.runKind = kind;
    s.checkpointing = core::Checkpointing::None;
    s.microBatch = 2;
    s.seqLen = 4096;
    return s;
}

} // namespace

// DPOTrainer keeps a frozen reference model for full fine-tuning (dpo_trainer.py L893-910): a second copy of every
// weight in the model's dtype. Under PEFT the reference is the policy with its adapters disabled, and precomputed
// reference log-probs need no reference model while training.
TEST(Preference, FullFineTuningDpoHoldsASecondFrozenCopyOfTheModel) {
    const auto sft = core::estimate(llama32(core::RunKind::Sft, core::Method::Full));
    const auto dpo = core::estimate(llama32(core::RunKind::Dpo, core::Method::Full));
    ASSERT_EQ(dpo.params.total, kParams);
    EXPECT_EQ(dpo.referenceModelBytes, 2 * kParams);                                         // bf16: 6,425,499,648 B
    EXPECT_EQ(dpo.perGpu[Component::Weights] - sft.perGpu[Component::Weights], 2 * kParams); // in the weights
    EXPECT_EQ(dpo.perGpu[Component::Gradients], sft.perGpu[Component::Gradients]);           // nothing of it trains
    EXPECT_EQ(dpo.perGpu[Component::OptimizerStates], sft.perGpu[Component::OptimizerStates]);

    auto lora = llama32(core::RunKind::Dpo, core::Method::Lora);
    EXPECT_EQ(core::estimate(lora).referenceModelBytes, 0);
    auto precomputed = llama32(core::RunKind::Dpo, core::Method::Full);
    precomputed.referenceLogProbs = core::ReferenceLogProbs::Precomputed;
    EXPECT_EQ(core::estimate(precomputed).referenceModelBytes, 0);
    // ORPO and SimPO have no reference model; KTO has one.
    EXPECT_EQ(core::estimate(llama32(core::RunKind::Orpo, core::Method::Full)).referenceModelBytes, 0);
    EXPECT_EQ(core::estimate(llama32(core::RunKind::Simpo, core::Method::Full)).referenceModelBytes, 0);
    EXPECT_EQ(core::estimate(llama32(core::RunKind::Kto, core::Method::Full)).referenceModelBytes, 2 * kParams);
    // Prepared with the policy's ZeRO-3 (dpo_trainer.py L930-936), it shards as the weights do: 2 B x P / 4.
    auto sharded = llama32(core::RunKind::Dpo, core::Method::Full);
    sharded.gpus = 4;
    sharded.sharding = core::Sharding::Zero3;
    EXPECT_EQ(core::estimate(sharded).referenceModelBytes, 2 * kParams / 4);
}

// The collator builds [prompt+chosen]*B then [prompt+rejected]*B (dpo_trainer.py L174-176): a DPO micro-batch of 2
// pairs is a forward pass over 4 sequences. Its logits: TRL's log-probs on accelerate's fp32 outputs peak at 12 B per
// element in backward, as the causal-LM loss does: 12 x 4 x 4096 x 128,256 = 25,216,155,648 B.
TEST(Preference, PairedObjectivesPutChosenAndRejectedThroughTheModelTogether) {
    const auto dpo = core::estimate(llama32(core::RunKind::Dpo, core::Method::Lora));
    auto fourSequences = llama32(core::RunKind::Sft, core::Method::Lora);
    fourSequences.microBatch = 4;
    const auto sft = core::estimate(fourSequences);
    EXPECT_EQ(dpo.logitsBytesAtLoss, 25'216'155'648);
    EXPECT_EQ(dpo.logitsBytesAtLoss, sft.logitsBytesAtLoss);
    EXPECT_EQ(dpo.activationBytesAtLoss, sft.activationBytesAtLoss);
    // ORPO adds an NLL on the chosen half: a contiguous copy of those logits and its fp32 log-softmax, 8 B per chosen
    // element, 4 B over the pair (orpo_trainer.py L782-803): 16 x 4 x 4096 x 128,256 = 33,621,540,864 B.
    EXPECT_EQ(core::estimate(llama32(core::RunKind::Orpo, core::Method::Lora)).logitsBytesAtLoss, 33'621'540'864);
    // KTO's examples are unpaired: 2 sequences, as SFT.
    const auto kto = core::estimate(llama32(core::RunKind::Kto, core::Method::Lora));
    EXPECT_EQ(kto.activationBytesAtLoss,
              core::estimate(llama32(core::RunKind::Sft, core::Method::Lora)).activationBytesAtLoss);
}

// The reference's forward pass runs over the same sequences every step: 2N + the attention's forward FLOPs per
// trained token. Llama-3.2-3B ties lm_head to the embedding, so the matmul weights are all P; attention forward
// 2 x 24 heads x (128 + 128) x 4096 x 28 layers = 1,409,286,144. KTO runs three such passes (its KL completions through
// the policy, the reference over both: kto_trainer.py L1478-1545).
TEST(Preference, TheReferenceAndKlPassesAddForwardFlops) {
    const double forward = 2.0 * static_cast<double>(kParams) + 1'409'286'144.0;
    const double sft = core::trainingFlopsPerToken(llama32(core::RunKind::Sft, core::Method::Full));
    EXPECT_DOUBLE_EQ(core::trainingFlopsPerToken(llama32(core::RunKind::Dpo, core::Method::Full)) - sft, forward);
    EXPECT_DOUBLE_EQ(core::trainingFlopsPerToken(llama32(core::RunKind::Kto, core::Method::Full)) - sft, 3.0 * forward);
    EXPECT_DOUBLE_EQ(core::trainingFlopsPerToken(llama32(core::RunKind::Orpo, core::Method::Full)), sft);
}

// KTOTrainer takes each example's KL completion from another example of the batch and refuses a batch of one
// (kto_trainer.py L806).
TEST(Preference, KtoRefusesAMicroBatchOfOne) {
    auto kto = llama32(core::RunKind::Kto, core::Method::Lora);
    kto.microBatch = 1;
    const auto checked = core::validate(kto);
    ASSERT_FALSE(checked.has_value());
    EXPECT_EQ(checked.error().where, "micro_batch");
}

// The advisor offers precomputed reference log-probs first among the method changes: it trains the same model and
// drops the whole copy (2 B x P).
TEST(Preference, TheAdvisorDropsTheReferenceCopyBeforeChangingTheMethod) {
    auto s = llama32(core::RunKind::Dpo, core::Method::Full);
    s.checkpointing = core::Checkpointing::Full;
    const auto advice = core::adviseOom(s, *fixtures::catalog().findGpu("l40s"));
    ASSERT_FALSE(advice.fitsAlready);
    const auto step = std::find_if(advice.steps.begin(), advice.steps.end(), [](const core::FixStep& f) {
        return f.kind == core::FixKind::PrecomputedReference;
    });
    ASSERT_NE(step, advice.steps.end());
    ASSERT_TRUE(step->applicable);
    EXPECT_EQ(step->scenarioAlone.referenceLogProbs, core::ReferenceLogProbs::Precomputed);
    EXPECT_EQ(core::estimate(s).perGpu[Component::Weights] -
                  core::estimate(step->scenarioAlone).perGpu[Component::Weights],
              2 * kParams);
}

// The field table reads and writes both fields; a supervised scenario writes neither.
TEST(Preference, ScenarioFilesCarryTheObjective) {
    auto s = llama32(core::RunKind::Kto, core::Method::Lora);
    s.referenceLogProbs = core::ReferenceLogProbs::Precomputed;
    const std::string json = core::scenarioToJson(s);
    EXPECT_NE(json.find("\"run_kind\": \"kto\""), std::string::npos);
    EXPECT_NE(json.find("\"reference_log_probs\": \"precomputed\""), std::string::npos);
    const std::string sftJson = core::scenarioToJson(llama32(core::RunKind::Sft, core::Method::Lora));
    EXPECT_EQ(sftJson.find("run_kind"), std::string::npos);
    EXPECT_EQ(sftJson.find("reference_log_probs"), std::string::npos);
}
