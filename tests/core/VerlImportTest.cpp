// verl's launch scripts (volcengine/verl @b178a3cd): Hydra's overrides read with their lines, the critic-free
// estimators sized as GRPO with vLLM colocated and asleep through training, and the actor's in-place log-probs.
// Expected values are derived by hand in each test from the fixture's keys and verl's defaults.
#include "ImportFixtures.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/scenario/FrameworkProfile.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace gpusizer;

namespace {

const char* kScript = "verl/grpo-qwen2.5-7b.sh";

/// The fixture with its last line's overrides replaced or extended by `extra` (placed before trainer.nnodes).
core::Result<core::ImportedRun> withOverrides(const std::string& extra, const std::string& drop = "") {
    core::ImportRequest r = fixtures::request({kScript});
    std::string& bytes = r.files.front().bytes;
    if (!drop.empty()) {
        const auto at = bytes.find(drop);
        bytes.erase(at, bytes.find('\n', at) + 1 - at);
    }
    bytes.insert(bytes.find("    trainer.nnodes=1"), "    " + extra + " \\\n");
    return core::importTrainingConfigs(r, fixtures::catalog());
}

const core::ImportLine* lineFor(const core::ImportedRun& run, const std::string& key) {
    const auto it = std::find_if(run.lines.begin(), run.lines.end(), [&](const auto& l) { return l.key == key; });
    return it == run.lines.end() ? nullptr : &*it;
}

} // namespace

// The fixture's keys: GRPO, 5 samples per prompt ($ROLLOUT_N, set on the script's line 6), prompts of 512 and responses
// of 1,024 tokens (seq_len 1,536), 40 sequences per micro-batch, a mini-batch of 256 prompts x 5 samples over 8 GPUs
// = 160 sequences per GPU = 4 micro-batches, vLLM at 0.6 of each card, the KL loss at 0.001. verl's defaults for the
// rest: FSDP1 FULL_SHARD over fp32 weights with bf16 compute, free_cache_engine (vLLM asleep while the actor trains),
// use_remove_padding (no padding), gradient checkpointing on.
TEST(VerlImport, ALaunchScriptsOverridesBecomeAGrpoScenario) {
    const core::ImportedRun run = fixtures::imported({kScript});
    const core::Scenario& s = run.scenario;
    EXPECT_EQ(run.files.front().second, core::ConfigFormat::Verl);
    EXPECT_EQ(s.modelId, "qwen2.5-7b"); // $MODEL, set on line 5
    EXPECT_EQ(s.runKind, core::RunKind::Grpo);
    EXPECT_EQ(s.numGenerations, 5);
    EXPECT_EQ(s.seqLen, 1536);
    EXPECT_EQ(s.completionLength, 1024);
    EXPECT_EQ(s.microBatch, 40);
    EXPECT_EQ(s.gradientAccumulation, 4);
    EXPECT_EQ(s.gpus, 8);
    EXPECT_EQ(s.method, core::Method::Full);
    EXPECT_EQ(s.precision, core::Precision::FsdpMixedBf16);
    EXPECT_EQ(s.sharding, core::Sharding::Zero3);
    EXPECT_EQ(s.shardingEngine, core::ShardingEngine::Fsdp1);
    EXPECT_EQ(s.generation, core::Generation::VllmColocate);
    EXPECT_DOUBLE_EQ(s.vllmMemoryUtilization, 0.6);
    EXPECT_TRUE(s.vllmSleepMode);
    EXPECT_DOUBLE_EQ(s.klBeta, 0.001);
    EXPECT_FALSE(s.paddedBatches);
    EXPECT_EQ(s.checkpointing, core::Checkpointing::Full);
    // The FSDP workers shard data only: no tensor or pipeline layouts for the planner; the reference, offloaded to
    // the host between its passes, is not on the GPUs at the training step.
    EXPECT_FALSE(core::profileFor(s).runsTensorParallel);
    EXPECT_FALSE(core::profileFor(s).runsPipelineParallel);
    EXPECT_FALSE(core::keepsReferenceCopy(s));
    // Each key's line points where it stands in the script (rollout.n on line 26, indented by 4).
    const core::ImportLine* n = lineFor(run, "actor_rollout_ref.rollout.n");
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(n->file, fixtures::kDir + kScript + ":26:5");
}

// The actor's log-probs (flash-attn's fused cross-entropy, gradient written over the logits) keep the bf16 logits of
// every token of the micro-batch, prompts included: 40 x 1,536 tokens x 152,064 x 2 B = 18,685,624,320 B per GPU,
// where TRL's GRPO keeps 12 B per element over the completions only.
TEST(VerlImport, TheActorsLogProbsKeepOnlyTheSixteenBitLogitsOfEveryToken) {
    const core::Estimate e = core::estimate(fixtures::imported({kScript}).scenario);
    EXPECT_DOUBLE_EQ(e.logitsBytesPerElement, 2.0);
    EXPECT_EQ(e.perGpu[core::Component::LogitsLoss], 40LL * 1536 * 152064 * 2);
}

// verl's dynamic batch packs micro-batches up to ppo_max_token_len_per_gpu tokens: 16,384 / 1,536 = 10 sequences,
// 160 / 10 = 16 micro-batches. LoRA: rank 64, verl's alpha 16, PEFT's all-linear, no dropout.
TEST(VerlImport, DynamicBatchesAndLoraFollowVerlsDefaults) {
    const auto dynamic = withOverrides("actor_rollout_ref.actor.use_dynamic_bsz=True",
                                       "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu");
    ASSERT_TRUE(dynamic.has_value()) << dynamic.error().where << ": " << dynamic.error().message();
    EXPECT_EQ(dynamic->scenario.microBatch, 10);
    EXPECT_EQ(dynamic->scenario.gradientAccumulation, 16);
    const auto lora = withOverrides("actor_rollout_ref.model.lora_rank=64");
    ASSERT_TRUE(lora.has_value()) << lora.error().where << ": " << lora.error().message();
    EXPECT_EQ(lora->scenario.method, core::Method::Lora);
    EXPECT_EQ(lora->scenario.lora.rank, 64);
    EXPECT_DOUBLE_EQ(lora->scenario.lora.alpha, 16.0);
    EXPECT_DOUBLE_EQ(lora->scenario.lora.dropout, 0.0);
    EXPECT_EQ(lora->scenario.lora.targets.size(), 7u);
}

// What GPU Sizer does not size is refused with the key and its line: PPO with a critic (verl's default estimator),
// one sample per prompt (verl's default n), the Megatron strategy, no micro-batch.
TEST(VerlImport, WhatItCannotSizeIsRefusedByKey) {
    const auto gae = withOverrides("algorithm.adv_estimator=gae", "algorithm.adv_estimator");
    ASSERT_FALSE(gae.has_value());
    EXPECT_NE(gae.error().where.find("algorithm.adv_estimator"), std::string::npos);
    EXPECT_NE(gae.error().message().find("critic"), std::string::npos);
    const auto single = withOverrides("", "actor_rollout_ref.rollout.n=");
    ASSERT_FALSE(single.has_value());
    EXPECT_NE(single.error().message().find("rollout.n"), std::string::npos);
    const auto megatron = withOverrides("actor_rollout_ref.actor.strategy=megatron");
    ASSERT_FALSE(megatron.has_value());
    EXPECT_NE(megatron.error().where.find(":30:5"), std::string::npos) << megatron.error().where; // the line inserted
    const auto noMicro = withOverrides("", "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu");
    ASSERT_FALSE(noMicro.has_value());
    EXPECT_NE(noMicro.error().message().find("ppo_micro_batch_size_per_gpu"), std::string::npos);
    // A shell script without verl's module is not taken for one.
    core::ImportRequest other;
    other.files.push_back({"train.sh", "#!/bin/sh\ntorchrun train.py --lr 1e-5\n", std::nullopt});
    EXPECT_FALSE(core::importTrainingConfigs(other, fixtures::catalog()).has_value());
}
