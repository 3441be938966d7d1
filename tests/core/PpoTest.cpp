// PPO as TRL's PPOTrainer runs it (trl/experimental/ppo/ppo_trainer.py @f2cd5771, docs/memory-model.md §9): a value
// model trained in full beside the policy even under LoRA, a frozen reward model, generate()'s scores held through
// training, and num_ppo_epochs passes over each rollout. Expected values are derived by hand in each test.
#include "TestModels.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Planning.h"

#include <gtest/gtest.h>

using namespace gpusizer;
using core::Component;

namespace {

// Llama-3.2-1B (tied embeddings): 1,235,814,400 parameters, the value and reward models' backbones too (a tied head
// adds no weights; the one-output score head is not counted).
constexpr double kLlama32_1b = 1'235'814'400.0;

core::Scenario ppo(core::RunKind kind) {
    core::Scenario s;
    s.model = fixtures::llama32_1b();
    s.method = core::Method::Lora;
    s.precision = core::Precision::Bf16;
    s.runKind = kind;
    s.microBatch = 8;
    s.seqLen = 512;
    s.completionLength = 256;
    s.checkpointing = core::Checkpointing::None; // as TRL's PPOTrainer runs
    return s;
}

} // namespace

// Beside a LoRA policy: the value model's bf16 weights (2 B x 1,235,814,400) and the reward model's (the same), and
// the value model's two bf16 Adam states (4 B each parameter): +4,943,257,600 B of weights, +4,943,257,600 B of states.
TEST(Ppo, TheValueModelTrainsInFullAndTheRewardModelIsFrozen) {
    const core::Estimate sft = core::estimate(ppo(core::RunKind::Sft));
    const core::Estimate e = core::estimate(ppo(core::RunKind::Ppo));
    EXPECT_EQ(e.perGpu[Component::Weights] - sft.perGpu[Component::Weights],
              static_cast<std::int64_t>(4.0 * kLlama32_1b));
    EXPECT_EQ(e.perGpu[Component::OptimizerStates] - sft.perGpu[Component::OptimizerStates],
              static_cast<std::int64_t>(4.0 * kLlama32_1b));
    EXPECT_EQ(e.rewardModelBytes, static_cast<std::int64_t>(2.0 * kLlama32_1b));
    // generate()'s fp32 scores of the rollout: 8 responses x 256 tokens x 128,256 x 4 B = 1,050,673,152 B.
    EXPECT_EQ(e.generationScoresBytes, 1'050'673'152);
    EXPECT_TRUE(e.generates);
}

// Under full fine-tuning the reference policy is a second frozen copy: 2 B x 1,235,814,400 more weights again.
TEST(Ppo, FullFineTuningAddsTheReferenceCopy) {
    core::Scenario lora = ppo(core::RunKind::Ppo);
    core::Scenario full = lora;
    full.method = core::Method::Full;
    core::Scenario fullSft = full;
    fullSft.runKind = core::RunKind::Sft;
    const core::Estimate e = core::estimate(full);
    EXPECT_EQ(e.referenceModelBytes, static_cast<std::int64_t>(2.0 * kLlama32_1b));
    // Policy + reference + value + reward weights: four bf16 copies against SFT's one.
    EXPECT_EQ(e.perGpu[Component::Weights] - core::estimate(fullSft).perGpu[Component::Weights],
              static_cast<std::int64_t>(6.0 * kLlama32_1b));
}

// Per rollout token: num_ppo_epochs (4) x (the LoRA policy's training + the value model's: 6 x its 973,146,112 matmul
// weights (16 layers x 60,817,408 linear + 67,584 norm weights) + 3 x 2 x 32 heads x 128 x 512 x 16 layers of
// attention), plus three scoring forwards (reference, value, reward) of 2 x 1,235,814,400 + 67,108,864.
TEST(Ppo, EachRolloutTrainsNumPpoEpochsTimesWithItsValueModel) {
    const double sft = core::trainingFlopsPerToken(ppo(core::RunKind::Sft));
    const double valueModel = 6.0 * 973'146'112.0 + 3.0 * 67'108'864.0;
    const double forward = 2.0 * kLlama32_1b + 67'108'864.0;
    EXPECT_DOUBLE_EQ(core::trainingFlopsPerToken(ppo(core::RunKind::Ppo)), 4.0 * (sft + valueModel) + 3.0 * forward);
}

// PPO has no vLLM path, and its response must leave a query.
TEST(Ppo, TheTrainersLimitsAreRefusedByName) {
    core::Scenario s = ppo(core::RunKind::Ppo);
    s.generation = core::Generation::VllmColocate;
    auto refused = core::validate(s);
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().where, "generation");
    s.generation = core::Generation::Transformers;
    s.completionLength = 512;
    refused = core::validate(s);
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().where, "completion_length");
}

// At the optimizer step both models' gradients are alive: full fine-tuning in bf16 of one short rollout peaks there
// with 2 B x 1,235,814,400 of the policy's gradients and as much of the value model's (4,943,257,600 B), beside four
// bf16 copies of the weights (policy, reference, value, reward) and both models' two Adam states.
TEST(Ppo, TheValueModelsGradientsJoinThePolicysAtTheStep) {
    core::Scenario s = ppo(core::RunKind::Ppo);
    s.method = core::Method::Full;
    s.microBatch = 1;
    s.seqLen = 256;
    s.completionLength = 128;
    const core::Estimate e = core::estimate(s);
    ASSERT_EQ(e.peakMoment, core::PeakMoment::OptimizerStep);
    EXPECT_EQ(e.perGpu[Component::Gradients], static_cast<std::int64_t>(4.0 * kLlama32_1b));
    EXPECT_EQ(e.perGpu[Component::Weights], static_cast<std::int64_t>(8.0 * kLlama32_1b));
    EXPECT_EQ(e.perGpu[Component::OptimizerStates], static_cast<std::int64_t>(8.0 * kLlama32_1b));
}
