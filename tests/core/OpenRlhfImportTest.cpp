// OpenRLHF's launch scripts (OpenRLHF/OpenRLHF @3c3be623, v0.11.0; the older flag names of v0.10.1.post2 @ff481ecd):
// argparse options read with their lines, train_ppo_ray's critic-free estimators sized as GRPO, train_dpo's reference
// model loaded apart from the adapters, and the log-probs of the whole output upcast to fp32. Expected values are
// derived by hand in each test from the fixture's options and OpenRLHF's defaults.
#include "ImportFixtures.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/scenario/FrameworkProfile.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace gpusizer;

namespace {

const char* kGrpo = "openrlhf/grpo-qwen2.5-7b-hybrid.sh";
const char* kDpo = "openrlhf/dpo-llama3.1-8b-legacy.sh";

/// The GRPO fixture with `drop` (an option's whole line) removed and `extra` added before its last option.
core::Result<core::ImportedRun> grpoWith(const std::string& extra, const std::string& drop = "") {
    core::ImportRequest r = fixtures::request({kGrpo});
    std::string& bytes = r.files.front().bytes;
    if (!drop.empty()) {
        const auto at = bytes.find(drop);
        bytes.erase(at, bytes.find('\n', at) + 1 - at);
    }
    if (!extra.empty()) {
        bytes.insert(bytes.find("   --ds.enable_sleep"), "   " + extra + " \\\n");
    }
    return core::importTrainingConfigs(r, fixtures::catalog());
}

bool noted(const core::ImportedRun& run, const std::string& key, const std::string& text) {
    return std::any_of(run.lines.begin(), run.lines.end(), [&](const core::ImportLine& l) {
        return l.key == key && l.why.english().find(text) != std::string::npos;
    });
}

} // namespace

// The hybrid engine: every model on the actor's 1 x 8 GPUs, vLLM's 4 engines x TP 2 at half of each card and asleep
// while the actor trains; group_norm (GRPO's advantage) with 8 samples per prompt; max_len 3,072 with completions of
// up to 2,048; ZeRO-3 over bf16 weights (DeepSpeed keeps fp32 master weights and Adam states); 4 sequences a
// micro-batch, 128 a step: 128 / (4 x 8 GPUs) = 4 micro-batches.
TEST(OpenRlhfImport, AHybridEngineScriptBecomesAGrpoScenario) {
    const core::ImportedRun run = fixtures::imported({kGrpo});
    const core::Scenario& s = run.scenario;
    EXPECT_EQ(run.files.front().second, core::ConfigFormat::OpenRlhf);
    EXPECT_EQ(s.modelId, "qwen2.5-7b"); // $MODEL, set on line 5
    EXPECT_EQ(s.runKind, core::RunKind::Grpo);
    EXPECT_EQ(s.numGenerations, 8);
    EXPECT_EQ(s.seqLen, 3072);
    EXPECT_EQ(s.completionLength, 2048);
    EXPECT_EQ(s.microBatch, 4);
    EXPECT_EQ(s.gradientAccumulation, 4);
    EXPECT_EQ(s.gpus, 8);
    EXPECT_EQ(s.method, core::Method::Full);
    EXPECT_EQ(s.precision, core::Precision::Bf16Fp32Master);
    EXPECT_EQ(s.sharding, core::Sharding::Zero3);
    EXPECT_EQ(s.generation, core::Generation::VllmColocate);
    EXPECT_DOUBLE_EQ(s.vllmMemoryUtilization, 0.5);
    EXPECT_TRUE(s.vllmSleepMode);
    EXPECT_DOUBLE_EQ(s.klBeta, 0.001);
    EXPECT_FALSE(s.paddedBatches);
    EXPECT_EQ(s.checkpointing, core::Checkpointing::Full);
    // colocate_all puts the reference on the actor's GPUs, sharded by ZeRO-3 as the weights are.
    EXPECT_TRUE(core::keepsReferenceCopy(s));
    // deepspeed.initialize without the pipeline engine: the planner proposes no pipeline stages, AutoTP stays.
    EXPECT_FALSE(core::profileFor(s).runsPipelineParallel);
    EXPECT_TRUE(core::profileFor(s).runsTensorParallel);
    // Each option's line points where it stands (--rollout.n_samples_per_prompt on line 22, indented by 3).
    const auto n = std::find_if(run.lines.begin(), run.lines.end(),
                                [](const auto& l) { return l.key == "rollout.n_samples_per_prompt"; });
    ASSERT_NE(n, run.lines.end());
    EXPECT_EQ(n->file, fixtures::kDir + kGrpo + ":22:4");
}

// Actor.forward upcasts the whole output to fp32 and takes flash-attn's cross-entropy without in-place backward:
// 4 B of fp32 logits + 4 B of their fp32 gradient + 2 B of its bf16 cast = 10 B per element, over every token of the
// micro-batch (prompts too): 4 x 3,072 tokens x 152,064 x 10 B, where TRL's GRPO keeps 12 B over the completions only.
TEST(OpenRlhfImport, TheLogProbsKeepTheFp32LogitsOfEveryToken) {
    const core::Estimate e = core::estimate(fixtures::imported({kGrpo}).scenario);
    EXPECT_DOUBLE_EQ(e.logitsBytesPerElement, 10.0);
    EXPECT_EQ(e.perGpu[core::Component::LogitsLoss], 4LL * 3072 * 152064 * 10);
}

// Without colocation vLLM's engines take 4 x 2 GPUs of their own (server placement) and the reference runs on its own
// group: the actor's GPUs hold no copy. At ZeRO-3 --ref.offload leaves it on the host between its passes likewise;
// below it the reference's eval config runs stage 0, whose engine moves it to the GPU (deepspeed.py L493), so it stays.
TEST(OpenRlhfImport, PlacementDecidesWhereVllmAndTheReferenceRun) {
    const auto apart = grpoWith("", "--train.colocate_all");
    ASSERT_TRUE(apart.has_value()) << apart.error().where << ": " << apart.error().message();
    EXPECT_EQ(apart->scenario.generation, core::Generation::VllmServer);
    EXPECT_EQ(apart->scenario.vllmGpus, 8);
    EXPECT_FALSE(core::keepsReferenceCopy(apart->scenario));
    EXPECT_TRUE(noted(*apart, "train.colocate_actor_ref", "GPUs of its own"));
    const auto offloaded = grpoWith("--ref.offload");
    ASSERT_TRUE(offloaded.has_value()) << offloaded.error().where << ": " << offloaded.error().message();
    EXPECT_FALSE(core::keepsReferenceCopy(offloaded->scenario));
    EXPECT_EQ(core::estimate(offloaded->scenario).referenceModelBytes, 0);
    const auto stage2 = [] {
        core::ImportRequest r = fixtures::request({kGrpo});
        std::string& bytes = r.files.front().bytes;
        bytes.replace(bytes.find("--ds.zero_stage 3"), 17, "--ds.zero_stage 2 --ref.offload");
        return core::importTrainingConfigs(r, fixtures::catalog());
    }();
    ASSERT_TRUE(stage2.has_value()) << stage2.error().where << ": " << stage2.error().message();
    EXPECT_TRUE(core::keepsReferenceCopy(stage2->scenario));
    EXPECT_TRUE(noted(*stage2, "ref.offload", "stage 0"));
    // Asynchronous training keeps vLLM's engines apart even with colocate_all (train_ppo_ray.py L75).
    const auto async = grpoWith("--train.async_enable");
    ASSERT_TRUE(async.has_value()) << async.error().where << ": " << async.error().message();
    EXPECT_EQ(async->scenario.generation, core::Generation::VllmServer);
    // No engines: v0.11 generates with vLLM only, so the script is refused.
    const auto noVllm = grpoWith("", "--vllm.num_engines");
    ASSERT_FALSE(noVllm.has_value());
    EXPECT_NE(noVllm.error().message().find("vLLM only"), std::string::npos);
}

// The command ends where the shell's list or redirections start; a second command, or options kept in a bash array,
// are refused rather than merged or dropped. The legacy dynamic-batch names read as today's: 16,192 tokens / 3,072 per
// sequence = 5 sequences a micro-batch.
TEST(OpenRlhfImport, TheCommandEndsWhereTheShellTakesOver) {
    const auto piped = grpoWith("--ds.lora.rank 8 --ds.lora.target_modules q_proj v_proj 2>&1 | tee train.log");
    ASSERT_TRUE(piped.has_value()) << piped.error().where << ": " << piped.error().message();
    EXPECT_EQ(piped->scenario.lora.targets.size(), 2u);
    EXPECT_EQ(piped->scenario.method, core::Method::Lora);
    core::ImportRequest twice = fixtures::request({kGrpo});
    twice.files.front().bytes += "\npython3 -m openrlhf.cli.train_sft --model.model_name_or_path x\n";
    const auto second = core::importTrainingConfigs(twice, fixtures::catalog());
    ASSERT_FALSE(second.has_value());
    EXPECT_NE(second.error().message().find("second"), std::string::npos);
    core::ImportRequest array;
    array.files.push_back({"run.sh",
                           "ARGS=(--train.micro_batch_size 4)\npython3 -m openrlhf.cli.train_ppo_ray ${ARGS[@]}\n",
                           std::nullopt});
    const auto arrayed = core::importTrainingConfigs(array, fixtures::catalog());
    ASSERT_FALSE(arrayed.has_value());
    EXPECT_NE(arrayed.error().message().find("bash array"), std::string::npos);
    const auto dynamic = grpoWith("--use_dynamic_batch");
    ASSERT_TRUE(dynamic.has_value()) << dynamic.error().where << ": " << dynamic.error().message();
    EXPECT_EQ(dynamic->scenario.microBatch, 16192 / 3072);
}

// The DPO script of v0.10.1 (flat names, a heredoc run by `deepspeed --module`): LoRA rank 64 on q/k/v/o, 2 pairs a
// micro-batch, 256 a step over the launcher's 8 GPUs: 256 / (2 x 8) = 16. OpenRLHF builds the reference model from the
// base checkpoint even beside adapters (train_dpo.py L42-52): 8,030,261,248 parameters x 2 B in bf16, whole on every
// GPU below ZeRO-3 (its eval config runs stage 0: deepspeed.py L493). TRL's PEFT reference (adapters disabled) has
// none.
TEST(OpenRlhfImport, DpoKeepsAReferenceModelBesideTheAdapters) {
    core::ImportRequest request = fixtures::request({kDpo});
    request.gpus = 8;
    const auto run = core::importTrainingConfigs(request, fixtures::catalog());
    ASSERT_TRUE(run.has_value()) << run.error().where << ": " << run.error().message();
    const core::Scenario& s = run->scenario;
    EXPECT_EQ(s.runKind, core::RunKind::Dpo);
    EXPECT_EQ(s.modelId, "llama-3.1-8b");
    EXPECT_EQ(s.method, core::Method::Lora);
    EXPECT_EQ(s.lora.rank, 64);
    EXPECT_DOUBLE_EQ(s.lora.alpha, 128.0);
    EXPECT_EQ(s.lora.targets.size(), 4u);
    EXPECT_EQ(s.microBatch, 2);
    EXPECT_EQ(s.gradientAccumulation, 16);
    EXPECT_EQ(s.seqLen, 2048);
    EXPECT_EQ(s.sharding, core::Sharding::Zero2);
    EXPECT_EQ(s.checkpointing, core::Checkpointing::Full);
    EXPECT_TRUE(noted(*run, "model.model_name_or_path", "written --pretrain"));
    EXPECT_EQ(core::estimate(s).referenceModelBytes, 8'030'261'248LL * 2);
    core::Scenario trl = s;
    trl.overrides.referenceCopyWithAdapters = false;
    EXPECT_EQ(core::estimate(trl).referenceModelBytes, 0);
}

// What GPU Sizer does not size is refused with the option and its line: PPO with a critic (OpenRLHF's default
// estimator), one sample per prompt (its default), an entry point it does not read, a dtype OpenRLHF does not take.
TEST(OpenRlhfImport, WhatItCannotSizeIsRefusedByOption) {
    const auto gae = grpoWith("", "--algo.advantage.estimator");
    ASSERT_FALSE(gae.has_value());
    EXPECT_NE(gae.error().where.find("algo.advantage.estimator"), std::string::npos);
    EXPECT_NE(gae.error().message().find("critic"), std::string::npos);
    const auto single = grpoWith("", "--rollout.n_samples_per_prompt");
    ASSERT_FALSE(single.has_value());
    EXPECT_NE(single.error().message().find("n_samples_per_prompt"), std::string::npos);
    const auto fp32 = grpoWith("--ds.param_dtype fp32", "--ds.param_dtype bf16");
    ASSERT_FALSE(fp32.has_value());
    EXPECT_NE(fp32.error().where.find(":33:4"), std::string::npos) << fp32.error().where; // the line inserted
    core::ImportRequest rm;
    rm.files.push_back({"rm.sh", "deepspeed --module openrlhf.cli.train_rm --pretrain x\n", std::nullopt});
    const auto refused = core::importTrainingConfigs(rm, fixtures::catalog());
    ASSERT_FALSE(refused.has_value());
    EXPECT_NE(refused.error().message().find("train_rm"), std::string::npos);
}
