// Framework behaviours of issue 13, each derived by hand from the framework's source (file and commit cited; the
// same citations are in docs/memory-model.md).
#include "TestModels.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/plan/Planning.h"
#include "gpusizer/scenario/FrameworkProfile.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

using namespace gpusizer;
using core::Component;

namespace {

constexpr std::int64_t kLlama2_7b = 6'738'415'616;
constexpr std::int64_t kLlama31_8b = 8'030'261'248;

core::Scenario full7b() {
    core::Scenario s;
    s.model = fixtures::llama2_7b();
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16Fp32Master;
    s.optimizer = core::Optimizer::AdamW;
    s.checkpointing = core::Checkpointing::Full;
    s.microBatch = 1;
    s.seqLen = 512;
    return s;
}

using fixtures::lora7b;

// ColossalChat's LoRA under LowLevelZero ZeRO-2 on 2 GPUs, adapters in bf16 (its wrapper casts the module).
core::Scenario colossalChatLora() {
    core::Scenario s = lora7b();
    s.framework = core::Framework::Colossalai;
    s.lora.dtype = core::AdapterDtype::Bf16;
    s.gpus = 2;
    s.sharding = core::Sharding::Zero2;
    return s;
}

// Llama-2-7B full fine-tuning under ColossalAI's Gemini (sharding zero3) on 8 GPUs.
core::Scenario geminiFull7b() {
    core::Scenario s = full7b();
    s.framework = core::Framework::Colossalai;
    s.gpus = 8;
    s.sharding = core::Sharding::Zero3;
    return s;
}

} // namespace

// DeepSpeed ZeRO-Offload (deepspeed/runtime/zero/stage_1_and_2.py @edaa7221): the fp32 master partition, its fp32
// gradient and the CPU Adam states live in pinned host memory; the flat 16-bit model stays on the GPU
// (bit16_groups_flat); ZeRO-2 streams each gradient through the reduce bucket into the host's fp32 buffer.
TEST(FrameworkBehaviour, DeepspeedOptimizerOffloadKeepsTheSixteenBitModelAndStreamsGradients) {
    auto s = full7b();
    s.sharding = core::Sharding::Zero2;
    s.offload = core::Offload::Optimizer;
    const auto e = core::estimate(s);
    EXPECT_EQ(e.perGpu[Component::Weights], 2 * kLlama2_7b); // bf16 model, 13,476,831,232 B
    EXPECT_EQ(e.perGpu[Component::OptimizerStates], 0);      // on the host
    EXPECT_EQ(e.perGpu[Component::Gradients], 0);            // streamed out during backward
    // Host: master 4 B + Adam m, v 8 B + fp32 gradient 4 B = 16 B x 6,738,415,616 = 107,814,649,856 B.
    EXPECT_EQ(e.cpuOffloadBytesPerGpu, 16 * kLlama2_7b);
    // ZeRO-1 reduces after backward (engine.allreduce_gradients): every bf16 gradient exists first, 2 B per parameter.
    s.sharding = core::Sharding::Zero1;
    s.gradientAccumulation = 2;
    EXPECT_EQ(core::estimate(s).perGpu[Component::Gradients], 2 * kLlama2_7b);
}

// ZeRO-Infinity parameter offload (stage3.py, partitioned_param_coordinator.py @edaa7221): parameters live on the host;
// the GPU gathers the submodules the coordinator fetches and prefetches (ZeroFetchTest); parameters under the
// persistence threshold stay gathered.
TEST(FrameworkBehaviour, ZeroInfinityKeepsOnlyTheWorkingSetOnTheGpu) {
    auto s = full7b();
    s.gpus = 2;
    s.sharding = core::Sharding::Zero3;
    s.offload = core::Offload::OptimizerAndParams;
    const auto e = core::estimate(s);
    EXPECT_EQ(e.perGpu[Component::Weights], 0);
    // Host per GPU: bf16 parameters 2 + master 4 + Adam 8 + fp32 gradients 4 = 18 B x 6,738,415,616 / 2 GPUs.
    EXPECT_EQ(e.cpuOffloadBytesPerGpu, 9 * kLlama2_7b);
    // The persistent norms: (32 x 2 + 1) x 4096 x 2 B = 532,480 B. With DeepSpeed's limits (1e9 live, 1e9 reuse
    // distance) the prefetch fills the working set to 1e9 elements before it stops, overshooting by at most one
    // module (lm_head, 32000 x 4096 = 131,072,000, is the largest): 2e9 to 2,262,144,000 B at the loss.
    const double gathered = static_cast<double>(e.gatheredParamBytesAtLoss - 532'480);
    EXPECT_GE(gathered, 2e9);
    EXPECT_LE(gathered, 2'262'144'000.0);
    // No prefetch (max live 0) and every module released after use (reuse distance 0): at the loss only lm_head,
    // 262,144,000 B.
    s.overrides.zeroMaxLiveParameters = 0;
    s.overrides.zeroMaxReuseDistance = 0;
    EXPECT_EQ(core::estimate(s).gatheredParamBytesAtLoss, 262'144'000 + 532'480);
}

// FSDP2 CPUOffloadPolicy (torch/distributed/fsdp/_fully_shard/_fsdp_api.py @01d5c2cc: "offloads parameters,
// gradients, and optimizer states to CPU ... the optimizer step runs on CPU"), as torchtune's fsdp_cpu_offload uses
// it (training/_distributed.py shard_model @bd2a0fc7).
TEST(FrameworkBehaviour, FsdpCpuOffloadMovesParametersGradientsAndStates) {
    core::Scenario s;
    s.model = fixtures::llama31_8b();
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16;
    s.framework = core::Framework::Torchtune;
    s.gpus = 8;
    s.sharding = core::Sharding::Zero3;
    s.offload = core::Offload::OptimizerAndParams;
    s.checkpointing = core::Checkpointing::Full;
    s.seqLen = 2048;
    auto e = core::estimate(s);
    EXPECT_EQ(e.perGpu[Component::Weights], 0);
    EXPECT_EQ(e.perGpu[Component::Gradients], 0);
    EXPECT_EQ(e.perGpu[Component::OptimizerStates], 0);
    // Host per GPU: bf16 parameter 2 + bf16 gradient 2 + AdamW m, v in bf16 2 x 2 = 8 B x 8,030,261,248 / 8.
    EXPECT_EQ(e.cpuOffloadBytesPerGpu, kLlama31_8b);
    // FSDP1 CPUOffload keeps each unit's sharded gradient on the GPU until backward ends (_runtime_utils.py
    // _post_backward_hook keeps _saved_grad_shard until _finalize_params; pytorch#106029): 2 B x 8,030,261,248 / 8.
    s.shardingEngine = core::ShardingEngine::Fsdp1;
    s.gradientAccumulation = 2;
    e = core::estimate(s);
    EXPECT_EQ(e.perGpu[Component::Gradients], 2 * kLlama31_8b / 8);
}

// Megatron keeps fp32 main gradients for bf16 parameters (megatron/core/distributed/param_and_grad_buffer.py
// @d98e8a64: grad_dtype float with grad_reduce_in_fp32); docs/user-guide/features/dist_optimizer.md: 18 bytes per
// parameter, 6 + 12/d with the distributed optimizer.
TEST(FrameworkBehaviour, MegatronKeepsFp32MainGradients) {
    auto s = full7b();
    s.framework = core::Framework::Megatron;
    s.gradientAccumulation = 2; // gradients at every moment
    auto e = core::estimate(s);
    const std::int64_t perParam =
        (e.perGpu[Component::Weights] + e.perGpu[Component::Gradients] + e.perGpu[Component::OptimizerStates]) /
        kLlama2_7b;
    EXPECT_EQ(perParam, 18); // bf16 param 2 + fp32 grad 4 + fp32 main param and Adam 12
    s.gpus = 8;
    s.sharding = core::Sharding::Zero1; // the distributed optimizer
    e = core::estimate(s);
    EXPECT_EQ(e.perGpu[Component::Weights], 2 * kLlama2_7b);
    EXPECT_EQ(e.perGpu[Component::Gradients], 4 * kLlama2_7b);
    EXPECT_EQ(e.perGpu[Component::OptimizerStates], 12 * kLlama2_7b / 8); // 6 + 12/8 = 7.5 B per parameter
    s.sharding = core::Sharding::Zero3;
    EXPECT_FALSE(core::validate(s)); // Megatron's optimizer does not shard gradients or parameters
}

// torchtitan op-level selective AC (torchtitan/models/llama3/parallelize_llama.py _save_list @9dec370 and
// _get_custom_policy: every second aten.mm saved, counting from the first): per token per layer the block input,
// wq's and wv's outputs, SDPA's output and logsumexp, w1's and w2's outputs (matmul order wq wk wv wo w1 w3 w2).
TEST(FrameworkBehaviour, OpLevelSelectiveKeepsTorchtitansSaveList) {
    core::Scenario s;
    s.model = fixtures::llama31_8b();
    s.method = core::Method::Full;
    s.precision = core::Precision::FsdpMixedBf16;
    s.framework = core::Framework::Torchtitan;
    s.checkpointing = core::Checkpointing::Selective;
    s.microBatch = 1;
    s.seqLen = 8192;
    // x 2 x 4096 + wq 2 x 4096 + wv 2 x 1024 + SDPA out 2 x 4096 + lse 4 x 32 + w1 2 x 14336 + w2 2 x 4096 = 63,616 B.
    // After the layers: the final norm's fp32 input 4 x 4096 and lm_head's input 2 x 4096 = 24,576 B.
    // (32 x 63,616 + 24,576) x 8192 tokens = 16,877,879,296 B.
    EXPECT_EQ(core::estimate(s).activationBytesAtLoss, 16'877'879'296);
    // Megatron's "selective" recomputes the attention core only: with SDPA there is no s² tensor, nothing is saved.
    auto megatron = s;
    megatron.framework = core::Framework::Megatron;
    auto none = megatron;
    none.checkpointing = core::Checkpointing::None;
    EXPECT_EQ(core::estimate(megatron).activationBytesAtLoss, core::estimate(none).activationBytesAtLoss);
}

// torchtitan layer-level selective AC ("2": _apply_layer_sac wraps a block when its running count is a multiple of
// 2): half the blocks keep only their input, the other half every saved tensor.
TEST(FrameworkBehaviour, EveryNthLayerCheckpointingKeepsHalfTheBlocksWhole) {
    core::Scenario s;
    s.model = fixtures::llama31_8b();
    s.method = core::Method::Full;
    s.precision = core::Precision::FsdpMixedBf16;
    s.framework = core::Framework::Torchtitan;
    s.checkpointing = core::Checkpointing::EveryNth;
    s.checkpointEvery = 2;
    s.microBatch = 1;
    s.seqLen = 8192;
    // An unchekpointed block (bf16, SDPA with k/v expanded to 32 heads), per token:
    // norms 2 x (fp32 input 4 x 4096 + bf16 output 2 x 4096) = 49,152; linear inputs qkv, gate/up 2 x 2 x 4096 +
    // down 2 x 14336 = 45,056 (o's input is a view of SDPA's saved output); attention q, k, v, out 4 x 2 x 4096 + lse
    // 4 x 32 = 32,896; MLP 3 x 2 x 14336 = 86,016: 213,120 B. (16 x 213,120 + 16 x 8,192 + 24,576) x 8192 =
    // 29,209,133,056 B.
    EXPECT_EQ(core::estimate(s).activationBytesAtLoss, 29'209'133'056);
}

// The allocator keeps blocks, not a share of everything: LoRA on two GPUs with ZeRO-2 shards the adapters' states and
// gradients, so it cannot reserve more than the same run on one GPU (the 172 vs 158 GiB).
TEST(FrameworkBehaviour, ShardingNeverRaisesTheReserveAboveOneGpu) {
    auto one = lora7b();
    one.microBatch = 4;
    one.seqLen = 4096;
    auto two = one;
    two.gpus = 2;
    two.sharding = core::Sharding::Zero2;
    // (Not the reserved peaks: DeepSpeed's ZeRO-2 adds an fp32 master and fp32 states for the bf16 adapters.)
    // The reserve as a share of the allocated peak, which differs by that much.
    const auto reserve = [](const core::Estimate& e) {
        return static_cast<double>(e.reservedPeakBytes) / static_cast<double>(e.allocatedPeakBytes);
    };
    EXPECT_LE(reserve(core::estimate(two)), reserve(core::estimate(one)));
    // On one GPU the reserve is the allocator's block slack only: 5% of the allocated peak.
    const auto e = core::estimate(one);
    EXPECT_NEAR(static_cast<double>(e.reservedPeakBytes), static_cast<double>(e.allocatedPeakBytes) * 1.05, 1.0);
}

// PEFT LoRA on lm_head (a Linear h -> V) and modules_to_save (peft/utils/other.py ModulesToSaveWrapper.update
// @5d602fdb deep-copies the module and trains the copy beside the frozen original).
TEST(FrameworkBehaviour, AdaptersOnTheOutputProjectionAndSavedModules) {
    auto s = lora7b();
    s.lora.lmHead = true;
    // q, v: 32 x 2 x 8 x (4096 + 4096) = 4,194,304; lm_head: 8 x (4096 + 32000) = 288,768.
    EXPECT_EQ(core::estimate(s).trainableParams, 4'194'304 + 288'768);
    s.lora.lmHead = false;
    s.lora.saveLmHead = true;
    const auto e = core::estimate(s);
    // The copy: 32000 x 4096 = 131,072,000 parameters in bf16, trained with AdamW states in bf16 (2 x 2 B).
    EXPECT_EQ(e.trainableParams, 4'194'304 + 131'072'000);
    EXPECT_EQ(e.perGpu[Component::Weights], 2 * kLlama2_7b + 2 * 4'194'304 + 2 * 131'072'000);
    EXPECT_EQ(e.perGpu[Component::OptimizerStates], 4 * (4'194'304 + 131'072'000));
}

// A routed expert's adapter runs once per token routed to it: Mixtral-8x7B (top-2 of 8), LoRA r8 on the experts' gate
// projections with dropout and fp32 adapters (PEFT casts the input to the adapter dtype): per token per layer
// 2 x ((4 B dropout output + 1 B mask) x 4096 + 4 B x 8 lora_A output) = 41,024 B.
TEST(FrameworkBehaviour, LoraOnRoutedExpertsCountsEveryRoutedCopy) {
    core::Scenario s;
    s.model = fixtures::llama31_8b();
    s.model.vocabSize = 32000;
    s.model.moe.numExperts = 8;
    s.model.moe.expertsPerToken = 2;
    s.method = core::Method::Lora;
    s.lora.rank = 8;
    s.lora.dropout = 0.05;
    s.lora.targets = {core::LinearRole::Gate};
    s.lora.dtype = core::AdapterDtype::Fp32;
    EXPECT_DOUBLE_EQ(core::estimate(s).activationPerTokenLayer.lora, 41'024.0);
}

// Under ZeRO-3 / FSDP a 4-bit layer is gathered as its packed NF4 bytes (bitsandbytes Params4bit with quant_storage:
// bitsandbytes/_ops.py @95f9af30 stores n/2 bytes whatever the storage dtype; the QuantState is not a parameter and
// is not gathered). Llama-2-7B layer: 202,375,168 linear weights x 0.5 B + 8,192 norm weights x 2 B + 131,072 q/v
// adapter weights x 2 B (sharded QLoRA's adapters are bf16, next test) = 101,466,112 B; at the loss one layer and
// lm_head (131,072,000 x 2 B).
TEST(FrameworkBehaviour, ShardedQloraGathersPackedNf4Layers) {
    core::Scenario s;
    s.model = fixtures::llama2_7b();
    s.method = core::Method::Qlora;
    s.precision = core::Precision::Bf16;
    s.quantization = core::Quantization::Nf4Dq;
    s.lora.rank = 8;
    s.lora.targets = {core::LinearRole::Q, core::LinearRole::V};
    s.gpus = 2;
    s.sharding = core::Sharding::Zero3;
    s.shardingEngine = core::ShardingEngine::Fsdp2;
    EXPECT_EQ(core::estimate(s).gatheredParamBytesAtLoss, 101'466'112 + 262'144'000);
}

// Sharded QLoRA as TRL's SFTTrainer prepares it (_prepare_peft_model, trl/trainer/sft_trainer.py @d11f0f53): the
// 4-bit base loaded for FSDP is not passed through prepare_model_for_kbit_training (no fp32 upcast of the embeddings,
// lm_head and norms) and the adapters are made with autocast_adapter_dtype=False (in the model's bf16). Llama-2-7B's
// 16-bit rest: 2 x 32,000 x 4,096 (embeddings, lm_head) + (2 x 32 + 1) x 4,096 (norms) = 262,410,240; LoRA r8 on q
// and v: 32 x 2 x 8 x (4,096 + 4,096) = 4,194,304. Each saves 2 B a value, over 2 GPUs:
// (262,410,240 + 4,194,304) x 2 B / 2 = 266,604,544 B of weights per GPU.
TEST(FrameworkBehaviour, ShardedQloraKeepsItsSixteenBitRestAndAdaptersInBf16) {
    core::Scenario s;
    s.model = fixtures::llama2_7b();
    s.method = core::Method::Qlora;
    s.precision = core::Precision::Bf16;
    s.quantization = core::Quantization::Nf4Dq;
    s.lora.rank = 8;
    s.lora.targets = {core::LinearRole::Q, core::LinearRole::V};
    s.gpus = 2;
    s.sharding = core::Sharding::Zero3;
    s.shardingEngine = core::ShardingEngine::Fsdp1;
    const core::FrameworkProfile sharded = core::profileFor(s);
    EXPECT_FALSE(sharded.kbitUpcastsNonQuantized);
    EXPECT_FALSE(sharded.adaptersInFp32);
    core::Scenario upcast = s; // what prepare_model_for_kbit_training and PEFT's fp32 adapters would hold
    upcast.overrides.kbitUpcastsNonQuantized = true;
    upcast.overrides.adaptersInFp32 = true;
    EXPECT_EQ(core::estimate(upcast).perGpu[Component::Weights] - core::estimate(s).perGpu[Component::Weights],
              266'604'544);
    // Data parallelism without sharding loads the base on each GPU, where TRL does prepare it.
    s.sharding = core::Sharding::None;
    EXPECT_TRUE(core::profileFor(s).kbitUpcastsNonQuantized);
    EXPECT_TRUE(core::profileFor(s).adaptersInFp32);
    // FSDP's SHARD_GRAD_OP flattens and shards the stored weights too; DeepSpeed's ZeRO-2 does not.
    s.sharding = core::Sharding::Zero2;
    EXPECT_FALSE(core::profileFor(s).kbitUpcastsNonQuantized);
    s.shardingEngine = core::ShardingEngine::Deepspeed;
    EXPECT_TRUE(core::profileFor(s).kbitUpcastsNonQuantized);
}

// Pipeline stages (Megatron schedules.py @d98e8a64: warm-up pp - rank - 1): the first stage holds pp micro-batches of
// its L/pp layers, the last one micro-batch plus the loss. The most loaded is the larger, never their sum.
TEST(FrameworkBehaviour, PipelineStagesAreComparedNotAdded) {
    core::Scenario s;
    s.model = fixtures::llama31_8b();
    s.method = core::Method::Lora;
    s.checkpointing = core::Checkpointing::Full;
    s.microBatch = 1;
    s.seqLen = 8192;
    s.gpus = 2;
    s.pipelineParallel = 2;
    s.gradientAccumulation = 8;
    // Last stage: 16 layer inputs of 2 x 4096 B + the final norm's fp32 input 4 x 4096 B, x 8192 tokens =
    // 1,207,959,552 B, and the logits 12 B x 8192 x 128256 = 12,608,077,824 B (transformers' loss, 4.49+): more than
    // the first stage's 32 x 8192 x 8192 = 2,147,483,648 B.
    auto e = core::estimate(s);
    EXPECT_EQ(e.activationBytesAtLoss, 1'207'959'552);
    EXPECT_EQ(e.logitsBytesAtLoss, 12'608'077'824);
    // A 1,000-token vocabulary: the first stage is the most loaded, with no logits.
    s.model.vocabSize = 1000;
    e = core::estimate(s);
    EXPECT_EQ(e.activationBytesAtLoss, 2'147'483'648);
    EXPECT_EQ(e.logitsBytesAtLoss, 0);
}

// Gemma-2 (transformers models/gemma2/modeling_gemma2.py @006e8693): four RMSNorms per layer, each saving its fp32
// input, and final-logit soft-capping whose tanh saves its 16-bit output: through the loss's backward, beside its
// three fp32 tensors (12 B, transformers 4.49+), 12 + 2.
TEST(FrameworkBehaviour, GemmaTwoHasFourNormsAndSoftCapsItsLogits) {
    core::Scenario s;
    s.model = fixtures::catalog().findModel("gemma-2-9b")->arch;
    s.method = core::Method::Lora;
    s.checkpointing = core::Checkpointing::None;
    s.lora.dropout = 0.0;
    const auto e = core::estimate(s);
    EXPECT_DOUBLE_EQ(e.activationPerTokenLayer.norms, 4.0 * 4.0 * 3584.0); // 57,344 B
    EXPECT_DOUBLE_EQ(e.logitsBytesPerElement, 12.0 + 2.0);
}

// Offload traffic per GPU is that GPU's shard (fp32 gradients out, bf16 weights back) and the host's CPU Adam is
// shared by its GPUs, at 11.6e9 parameters in 8.2 s (DeepSpeed PR #735).
TEST(FrameworkBehaviour, OffloadTimeMovesOnlyTheShard) {
    core::Scenario s;
    s.model = fixtures::llama31_8b();
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16Fp32Master;
    s.gpus = 8;
    s.sharding = core::Sharding::Zero3;
    s.offload = core::Offload::Optimizer;
    const core::GpuSpec* h100 = fixtures::catalog().findGpu("h100-sxm");
    ASSERT_NE(h100, nullptr);
    const core::PlanInputs in;
    const double shard = static_cast<double>(kLlama31_8b) / 8.0;
    const double pcie = 31.5 * std::pow(2.0, h100->pcieGen - 4) * h100->pcieLanes / 16.0 * in.cluster.pcieEfficiency;
    const double expected = shard * (4.0 + 2.0) / (pcie * 1e9) + shard * 8.0 / (11.6e9 / 8.2);
    EXPECT_NEAR(core::stepTime(s, *h100, in).offloadSeconds, expected, 1e-9 * expected);
}

// DeepSpeed zero.Init, which transformers' from_pretrained enters under ZeRO-3, replaces torch.nn.functional.linear
// with LinearFunctionForZeroStage3 and leaves it replaced (deepspeed/runtime/zero/partition_parameters.py v0.13.2
// L545-551: "This will persist unless manually reset"); its forward calls ctx.save_for_backward(input, weight, bias)
// whether or not the weight trains (runtime/zero/linear.py). Frozen base linears therefore keep their inputs: with
// LoRA dropout on every linear, stock autograd saves none of them, the wrapper saves the q/k/v input (h), the gate/up
// input (h) and the down input (f); o_proj's input is a view of the output flash-attention saved already.
TEST(FrameworkBehaviour, DeepspeedZero3LinearWrapperSavesFrozenLinearInputs) {
    auto s = lora7b();
    s.lora.targets = {core::LinearRole::Q,    core::LinearRole::K,  core::LinearRole::V,   core::LinearRole::O,
                      core::LinearRole::Gate, core::LinearRole::Up, core::LinearRole::Down};
    s.lora.dropout = 0.1;
    s.attention = core::Attention::Flash;
    s.gpus = 8;
    s.sharding = core::Sharding::Zero3;
    s.shardingEngine = core::ShardingEngine::Deepspeed;
    const double wrapped = core::estimate(s).activationPerTokenLayer.linearInputs;
    s.overrides.zero3LinearSavesInput = false;
    const double stock = core::estimate(s).activationPerTokenLayer.linearInputs;
    // 2 B x (4096 + 4096 + 11008) = 38,400 B per token per layer.
    EXPECT_DOUBLE_EQ(wrapped - stock, 2.0 * (4096 + 4096 + 11008));
    EXPECT_DOUBLE_EQ(stock, 0.0);
    // FSDP runs the stock F.linear: nothing extra.
    s.overrides.zero3LinearSavesInput.reset();
    s.shardingEngine = core::ShardingEngine::Fsdp2;
    EXPECT_DOUBLE_EQ(core::estimate(s).activationPerTokenLayer.linearInputs, 0.0);
}

// DeepSpeed ZeRO-3 allocates its IPG gradient bucket, reduce_bucket_size elements of the 16-bit dtype, when it builds
// the optimizer, however few parameters train (deepspeed/runtime/zero/stage3.py v0.13.2 __init__:
// __ipg_bucket_flat_buffer = torch.empty(self.reduce_bucket_size, dtype=self.dtype)), and keeps it for the whole run.
TEST(FrameworkBehaviour, DeepspeedZero3HoldsTheWholeReduceBucketForTheWholeRun) {
    auto s = lora7b();
    s.gpus = 8;
    s.sharding = core::Sharding::Zero3;
    s.shardingEngine = core::ShardingEngine::Deepspeed;
    s.overrides.zeroReduceBucketElements = 1e6;
    const auto small = core::estimate(s);
    s.overrides.zeroReduceBucketElements = 5e8; // DeepSpeed's default (runtime/zero/config.py)
    const auto large = core::estimate(s);
    ASSERT_EQ(small.peakMoment, large.peakMoment);
    // (5e8 - 1e6) elements x 2 B = 998,000,000 B more at whichever moment is the peak; 4.2 M LoRA parameters train.
    EXPECT_NEAR(static_cast<double>(large.perGpu[Component::Transient] - small.perGpu[Component::Transient]), 998e6,
                1.0);
}

// NCCL's buffers per communicator (NVIDIA/nccl v2.21.5-1): each collective channel connects ring and tree at init, two
// P2P connection pairs per rank of 10 MiB received (LL 512 KiB + LL128 4.6875 MiB + SIMPLE 4 MiB + a 4 KiB header,
// rounded up to 2 MiB) + 2 MiB sent, one pair with two ranks (both reach the same peer; transport.cc reuses a
// connection); 24 channels over NVLink, 2 over PCIe. NVLink SHARP adds, per channel and per head, 2 x (128 KiB x 8
// steps + 2 MiB) = 6 MiB, a head per GPU of the node (transport/nvls.cc L292-314), with more than two GPUs in it.
// DeepSpeed keeps two communicators over the data-parallel ranks (the world group and its clone, utils/groups.py
// v0.13.1); FSDP one.
TEST(FrameworkBehaviour, NcclBuffersFollowTheCardsNodeAndTheEnginesCommunicators) {
    const auto on = [](core::Scenario s, const char* gpu) {
        core::placeOnCard(s, *fixtures::catalog().findGpu(gpu));
        return core::estimate(s).ncclBufferBytes;
    };
    constexpr std::int64_t kMiB = 1LL << 20;
    auto s = lora7b();
    s.gpus = 8;
    s.sharding = core::Sharding::Zero3;
    s.shardingEngine = core::ShardingEngine::Deepspeed;
    // 8 x H100 SXM: 2 x (24 x 2 x 12 MiB + 24 x 6 MiB x 8 heads) = 2 x (576 + 1,152) MiB.
    EXPECT_EQ(on(s, "h100-sxm"), 2 * (576 + 1152) * kMiB);
    // 8 x A100 SXM (NVSwitch, no SHARP): 2 x 576 MiB.
    EXPECT_EQ(on(s, "a100-80gb-sxm"), 2 * 576 * kMiB);
    s.shardingEngine = core::ShardingEngine::Fsdp2;
    EXPECT_EQ(on(s, "h100-sxm"), (576 + 1152) * kMiB);
    // 8 x RTX 4090 over PCIe: 2 x 2 x 12 MiB; 8 x RTX A6000 with NVLink bridges: the ring crosses PCIe, the same.
    EXPECT_EQ(on(s, "rtx-4090"), 48 * kMiB);
    EXPECT_EQ(on(s, "rtx-a6000"), 48 * kMiB);
    // Two cards: one pair per channel, and NVLS needs more than two GPUs: 24 x 12 MiB over NVLink (a bridge too).
    s.gpus = 2;
    EXPECT_EQ(on(s, "h100-sxm"), 288 * kMiB);
    EXPECT_EQ(on(s, "rtx-a6000"), 288 * kMiB);
    EXPECT_EQ(on(s, "rtx-4090"), 24 * kMiB);
    // No card named: sized as NVLink.
    EXPECT_EQ(core::estimate(s).ncclBufferBytes, 288 * kMiB);
    // The device total carries it: device = reserved + CUDA context 512 MiB + NCCL.
    const auto e = core::estimate(s);
    EXPECT_EQ(e.deviceBytes, e.reservedPeakBytes + 512 * kMiB + e.ncclBufferBytes);
    s.gpus = 1;
    EXPECT_EQ(core::estimate(s).ncclBufferBytes, 0);
}

// The planner judges each card with that card's NCCL buffers: the same scenario needs more on 8 H100 SXM (NVLink
// SHARP) than on 8 A100 SXM by 24 x 6 MiB x 8 heads = 1,152 MiB for its one communicator.
TEST(FrameworkBehaviour, ThePlannerSizesNcclForTheCardItJudges) {
    auto s = lora7b();
    s.gpus = 8;
    s.sharding = core::Sharding::Zero3;
    s.shardingEngine = core::ShardingEngine::Fsdp2;
    const core::PlanInputs inputs;
    const auto h100 = core::fitAsIs(s, *fixtures::catalog().findGpu("h100-sxm"), inputs);
    const auto a100 = core::fitAsIs(s, *fixtures::catalog().findGpu("a100-80gb-sxm"), inputs);
    EXPECT_EQ(h100.deviceBytes - a100.deviceBytes, 1152LL << 20);
}

// DeepSpeed ZeRO-3 allocates this GPU's gradient partitions as one flat buffer when the optimizer is built
// (grad_partitions_flat_buffer, stage3.py _setup_for_real_optimizer @edaa7221): at the end of the forward pass the
// sharded gradients are already resident, even without accumulation. Llama-2-7B full fine-tune, bf16 gradients,
// 8 GPUs: 2 B x 6,738,415,616 / 8 = 1,684,603,904 B. FSDP2 has only the head's gradient then.
TEST(FrameworkBehaviour, DeepSpeedZeroThreeHoldsItsGradientPartitionsThroughForward) {
    core::Scenario s;
    s.model = fixtures::llama2_7b();
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16Fp32Master;
    s.gpus = 8;
    s.sharding = core::Sharding::Zero3;
    s.microBatch = 8;
    s.seqLen = 4096; // the logits make the end of forward the peak
    s.shardingEngine = core::ShardingEngine::Deepspeed;
    const auto ds = core::estimate(s);
    ASSERT_EQ(ds.peakMoment, core::PeakMoment::ForwardEnd);
    EXPECT_EQ(ds.perGpu[Component::Gradients], 2 * 6'738'415'616LL / 8);
    s.shardingEngine = core::ShardingEngine::Fsdp2;
    const auto fsdp = core::estimate(s);
    ASSERT_EQ(fsdp.peakMoment, core::PeakMoment::ForwardEnd);
    EXPECT_LT(fsdp.perGpu[Component::Gradients], ds.perGpu[Component::Gradients] / 10);
}

// transformers 5.0 made from_pretrained's default dtype "auto" (transformers#42805, merged 2025-12-11): a bf16
// checkpoint loads in bf16, and the Trainer's bf16=True runs autocast over bf16 weights with AdamW's states in the
// parameters' dtype: the pure-bf16 recipe, the scenario's default. Before 5.0 the weights loaded in fp32 (AMP bf16),
// which the estimate says for the Trainer's profiles on an older version, and names the recipe it sized.
TEST(FrameworkBehaviour, TheDefaultPureBf16IsTheTrainersRecipeOnTransformers5AndAWarningOnOlderVersions) {
    core::Scenario s = full7b();
    s.precision = core::Precision::Bf16;
    const auto warned = [](const core::Estimate& e) {
        return std::any_of(e.warnings.begin(), e.warnings.end(),
                           [](const core::Warning& w) { return w.code == "transformers4_loads_fp32"; });
    };
    EXPECT_EQ(core::Scenario{}.precision, core::Precision::Bf16);
    EXPECT_EQ(core::Scenario{}.transformersVersion, core::TransformersVersion::Current);
    EXPECT_FALSE(warned(core::estimate(s)));
    EXPECT_EQ(core::estimate(s).precision, core::Precision::Bf16);
    for (auto version : {core::TransformersVersion::V454To457, core::TransformersVersion::V449To453,
                         core::TransformersVersion::V446To448, core::TransformersVersion::UpTo445}) {
        s.transformersVersion = version;
        EXPECT_TRUE(warned(core::estimate(s)));
    }
    s.precision = core::Precision::AmpBf16; // the recipe it asks for: no warning
    EXPECT_FALSE(warned(core::estimate(s)));
    s.precision = core::Precision::Bf16;
    s.framework = core::Framework::Torchtune; // its own loader: dtype: bf16 in the recipe
    EXPECT_FALSE(warned(core::estimate(s)));
    // Under DeepSpeed ZeRO the recipe sized is its fp32 master (stage_1_and_2.py), and the estimate says which.
    s.framework = core::Framework::Generic;
    s.transformersVersion = core::TransformersVersion::Current;
    s.gpus = 8;
    s.sharding = core::Sharding::Zero2;
    s.shardingEngine = core::ShardingEngine::Deepspeed;
    EXPECT_EQ(core::estimate(s).precision, core::Precision::Bf16Fp32Master);
}

// DeepSpeed's bf16_master_weights_and_grads with bf16_optimizer_states (runtime/precision_config.py:63,68 @edaa7221):
// a bf16 master copy of the partition (stage_1_and_2.py:492-493) and FusedAdam's states made from it in bf16
// (fused_adam.py:155-157). Llama-2-7B (6,738,415,616 parameters) on 8 GPUs: under ZeRO-2 the optimizer holds
// (2 master + 4 states) / 8 B per parameter, where the fp32 master recipe holds (4 + 8) / 8; under ZeRO-3 the bf16
// partition is itself the master (stage3.py:1112-1117), 4 / 8 B.
TEST(FrameworkBehaviour, DeepspeedsBf16MasterKeepsABf16CopyAndBf16StatesAndNoCopyUnderZero3) {
    auto s = full7b();
    s.gpus = 8;
    s.sharding = core::Sharding::Zero2;
    s.shardingEngine = core::ShardingEngine::Deepspeed;
    s.precision = core::Precision::Bf16Bf16Master;
    const double p = static_cast<double>(kLlama2_7b);
    const core::Estimate zero2 = core::estimate(s);
    EXPECT_EQ(zero2.precision, core::Precision::Bf16Bf16Master); // not mapped to the fp32 master
    EXPECT_NEAR(static_cast<double>(zero2.perGpu[Component::OptimizerStates]), p * (2.0 + 4.0) / 8.0, 1.0);
    EXPECT_NEAR(static_cast<double>(zero2.perGpu[Component::Weights]), p * 2.0, 1.0);
    s.precision = core::Precision::Bf16Fp32Master;
    EXPECT_NEAR(static_cast<double>(core::estimate(s).perGpu[Component::OptimizerStates]), p * (4.0 + 8.0) / 8.0, 1.0);
    s.precision = core::Precision::Bf16Bf16Master;
    s.sharding = core::Sharding::Zero3;
    EXPECT_NEAR(static_cast<double>(core::estimate(s).perGpu[Component::OptimizerStates]), p * 4.0 / 8.0, 1.0);
}

// DeepSpeed runs the bf16 master under ZeRO stage 1 to 3 only (runtime/config.py:1041-1049): without a stage, or
// under FSDP, the scenario is refused on its precision; the planner tries ZeRO layouts only, one card included.
TEST(FrameworkBehaviour, TheBf16MasterRunsOnlyUnderDeepspeedZeroAndThePlannerTriesNothingElse) {
    auto s = full7b();
    s.precision = core::Precision::Bf16Bf16Master;
    s.shardingEngine = core::ShardingEngine::Deepspeed;
    const auto none = core::validate(s);
    ASSERT_FALSE(none.has_value());
    EXPECT_EQ(none.error().where, "precision");
    s.gpus = 8;
    s.sharding = core::Sharding::Zero2;
    EXPECT_TRUE(core::validate(s).has_value());
    s.shardingEngine = core::ShardingEngine::Fsdp2;
    EXPECT_FALSE(core::validate(s).has_value());
    s.shardingEngine = core::ShardingEngine::Deepspeed;
    const core::GpuSpec& h100 = *fixtures::catalog().findGpu("h100-sxm");
    const core::CardPlan plan = core::planOnCard(s, h100, core::PlanInputs{});
    ASSERT_TRUE(plan.found);
    EXPECT_NE(plan.best.scenario.sharding, core::Sharding::None);
    for (const auto& c : plan.runnersUp) {
        EXPECT_TRUE(c.scenario.sharding != core::Sharding::None || c.scenario.offload != core::Offload::None);
    }
}

// ZeRO-Offload forces contiguous gradients (stage_1_and_2.py:260 @edaa7221), and setup_buckets makes the IPG buffer at
// the whole reduce_bucket_size in backward however few parameters train (:2497-2505); ZeRO-3 makes it with the
// optimizer (stage3.py:733). A LoRA run on Llama-2-7B (about 4.2 M trainable parameters at rank 8 on q and v) with the
// bucket at 5e8 elements instead of 1e8 holds 4e8 x 2 B = 800,000,000 B more in backward, under either stage.
TEST(FrameworkBehaviour, DeepspeedOffloadHoldsTheWholeReduceBucketHoweverFewParametersTrain) {
    for (const core::Sharding stage : {core::Sharding::Zero2, core::Sharding::Zero3}) {
        core::Scenario s = lora7b();
        s.framework = core::Framework::Deepspeed;
        s.lora.rank = 8;
        s.lora.dtype = core::AdapterDtype::Bf16;
        s.gpus = 2;
        s.sharding = stage;
        s.offload = core::Offload::Optimizer;
        s.seqLen = 256; // short: the peak is in backward, where the bucket lives under either stage
        s.microBatch = 1;
        s.overrides.zeroReduceBucketElements = 1e8;
        const core::Estimate small = core::estimate(s);
        s.overrides.zeroReduceBucketElements = 5e8;
        const core::Estimate large = core::estimate(s);
        ASSERT_LT(small.trainableParams, 10'000'000);
        EXPECT_NE(large.peakMoment, core::PeakMoment::ForwardEnd) << core::toString(stage);
        EXPECT_NEAR(static_cast<double>(large.allocatedPeakBytes - small.allocatedPeakBytes), 4e8 * 2.0, 1.0)
            << core::toString(stage);
    }
}

// overlap_comm under ZeRO-1/2: setup_buckets makes a second IPG buffer of reduce_bucket_size beside the first
// (stage_1_and_2.py:2508-2513 @edaa7221); ZeRO-3's flat IPG buffer is one either way (stage3.py:733). With DeepSpeed's
// 5e8-element bucket in bf16 the backward peak of a LoRA run holds 5e8 x 2 B = 1,000,000,000 B more at stage 2, and
// nothing more at stage 3, where DeepSpeed turns overlap_comm on by default (zero/config.py:383).
TEST(FrameworkBehaviour, DeepspeedOverlapCommDoublesZeroTwosReduceBucket) {
    for (const core::Sharding stage : {core::Sharding::Zero2, core::Sharding::Zero3}) {
        core::Scenario s = lora7b();
        s.framework = core::Framework::Deepspeed;
        s.lora.dtype = core::AdapterDtype::Bf16;
        s.gpus = 2;
        s.sharding = stage;
        s.seqLen = 256; // short: the peak is in backward, where ZeRO-1/2's buckets live
        s.microBatch = 1;
        const core::Estimate one = core::estimate(s);
        s.overrides.zeroOverlapComm = true;
        const core::Estimate two = core::estimate(s);
        ASSERT_NE(two.peakMoment, core::PeakMoment::ForwardEnd) << core::toString(stage);
        EXPECT_NEAR(static_cast<double>(two.allocatedPeakBytes - one.allocatedPeakBytes),
                    stage == core::Sharding::Zero2 ? 5e8 * 2.0 : 0.0, 1.0)
            << core::toString(stage);
    }
}

// PEFT before 0.12 gave adapters the base weight's dtype (tuners/lora/layer.py:128-129 @v0.11.1); since 0.12
// get_peft_model upcasts them to fp32 (autocast_adapter_dtype, PR #1706). LoRA r 8 on q and v of Llama-2-7B:
// 32 layers x 2 x 8 x (4096 + 4096) = 4,194,304 adapter parameters, whose AdamW states are 2 x 4 B = 8 B each in fp32
// (33,554,432 B) and 2 x 2 B = 4 B each in bf16 (16,777,216 B).
TEST(FrameworkBehaviour, PeftBefore012KeepsAdaptersInTheModelsDtype) {
    core::Scenario s = lora7b();
    s.lora.dtype = core::AdapterDtype::Auto;
    const core::Estimate current = core::estimate(s);
    ASSERT_EQ(current.trainableParams, 4'194'304);
    EXPECT_EQ(current.perGpu[Component::OptimizerStates], 33'554'432);
    s.peftVersion = core::PeftVersion::UpTo011;
    EXPECT_EQ(core::estimate(s).perGpu[Component::OptimizerStates], 16'777'216);
}

// PyTorch before 2.0: zero_grad() zero-fills the gradients, which stay through the next forward (set_to_none became
// the default in 2.0, PR #92731), and AdamW loops over parameters (foreach became the CUDA default in 2.0): the step
// holds two tensors of the largest parameter (Llama-2-7B's embedding, 32,000 x 4,096) in the state dtype, 2 x
// 131,072,000 x 2 B = 524,288,000 B, where foreach holds a state-sized list, 6,738,415,616 x 2 B.
TEST(FrameworkBehaviour, PytorchOneKeepsGradientsThroughTheForwardAndStepsOneParameterAtATime) {
    core::Scenario s = full7b();
    s.precision = core::Precision::Bf16;
    const core::Estimate current = core::estimate(s);
    EXPECT_EQ(current.optimizerStepTemporaryBytes, 2 * kLlama2_7b);
    s.torchVersion = core::TorchVersion::V1;
    const core::Estimate old = core::estimate(s);
    EXPECT_EQ(old.optimizerStepTemporaryBytes, 524'288'000);
    // The gradients of the last step are still there when the loss of this one peaks: with 4 x 4,096 tokens the
    // logits (16,384 x 32,000 x 12 B = 6.3 GB) and every gradient (13.5 GB) make the end of forward the peak.
    s.microBatch = 4;
    s.seqLen = 4096;
    const core::Estimate longer = core::estimate(s);
    EXPECT_EQ(longer.peakMoment, core::PeakMoment::ForwardEnd);
    EXPECT_EQ(longer.perGpu[Component::Gradients], 2 * kLlama2_7b);
    // Freed (2.0 and later), the same run peaks at the optimizer step instead, its foreach list beside the gradients.
    s.torchVersion = core::TorchVersion::Current;
    EXPECT_EQ(core::estimate(s).peakMoment, core::PeakMoment::OptimizerStep);
}

// ZeRO-1/2 offload takes each reduced gradient slice's norm in fp64 on the GPU (stage_1_and_2.py:1586 @edaa7221); the
// slice is the parameter's part of this rank's partition (get_grad_position), so the largest parameter counts whole
// while the partition holds it: Llama-2-7B's embedding (131,072,000 elements) at 8 B is 1,048,576,000 B on 2 GPUs
// (partitions of 3.4e9). On 128 GPUs a partition is 6,738,415,616 / 128 = 52,643,872 elements, the most a slice can
// be: (131,072,000 - 52,643,872) x 8 B = 627,425,024 B less.
TEST(FrameworkBehaviour, DeepspeedOffloadTakesTheLargestSlicesNormInFp64) {
    auto s = full7b();
    s.sharding = core::Sharding::Zero2;
    s.offload = core::Offload::Optimizer;
    s.gpus = 2;
    const core::Estimate two = core::estimate(s);
    s.gpus = 128;
    const core::Estimate many = core::estimate(s);
    ASSERT_NE(two.peakMoment, core::PeakMoment::ForwardEnd); // the bucket and the norm live in backward
    EXPECT_EQ(two.allocatedPeakBytes - many.allocatedPeakBytes, 627'425'024);
}

// ColossalChat's training scripts with the LowLevelZero plugin of their shell examples ("zero2"; hpcaitech/ColossalAI
// @4f9953be): gradients reduce through buckets of 12 Mi elements with overlap on (low_level_zero_plugin.py L409-454),
// so the 16-bit bucket is held twice, 12 x 2^20 x 2 B = 25,165,824 B more than without the overlap; the trainer holds
// the model's output in a variable until the next step's forward returns (coati/trainer/sft.py L133-140), so the
// 16-bit logits of the one 64-token sequence, 64 x 32,000 x 2 B = 4,096,000 B, are still there at the backward peak.
TEST(FrameworkBehaviour, ColossalChatsLowLevelZeroHoldsTheLogitsAndTwoTwelveMebiElementBuckets) {
    core::Scenario s = colossalChatLora();
    s.seqLen = 64;
    s.microBatch = 1;
    const core::Estimate colossal = core::estimate(s);
    ASSERT_NE(colossal.peakMoment, core::PeakMoment::ForwardEnd);
    core::Scenario oneBucket = s;
    oneBucket.overrides.zeroOverlapComm = false;
    EXPECT_NEAR(static_cast<double>(colossal.allocatedPeakBytes - core::estimate(oneBucket).allocatedPeakBytes),
                12.0 * 1048576.0 * 2.0, 1.0);
    core::Scenario freed = s;
    freed.overrides.logitsFreedBeforeBackward = true;
    freed.overrides.logitsHeldThroughStep = false;
    const core::Estimate dropped = core::estimate(freed);
    EXPECT_EQ(dropped.peakMoment, colossal.peakMoment);
    EXPECT_NEAR(static_cast<double>(colossal.allocatedPeakBytes - dropped.allocatedPeakBytes), 64.0 * 32000.0 * 2.0,
                1.0);
}

// ColossalChat's plugins (train_sft.py L60-100 @4f9953be): LowLevelZero for ZeRO-1/2, Gemini for ZeRO-3; its tensor
// parallelism is the HybridParallelPlugin, not modelled. Sharding zero3 is Gemini; DeepSpeed's engine named with zero3,
// LoRA under Gemini (refused by train_sft.py L31-32), Gemini for another framework and tensor parallelism are refused
// by field. A pure bf16 recipe runs with the fp32 master (master_weights=True), and the warning says whose.
TEST(FrameworkBehaviour, ColossalAiShardsWithLowLevelZeroOrGemini) {
    core::Scenario s = geminiFull7b();
    ASSERT_TRUE(core::validate(s).has_value());
    EXPECT_EQ(core::profileFor(s).engine, core::ShardingEngine::Gemini);
    const auto refusedWhere = [](core::Scenario v) {
        const auto r = core::validate(v);
        return r.has_value() ? std::string() : r.error().where;
    };
    core::Scenario deepspeed = s;
    deepspeed.shardingEngine = core::ShardingEngine::Deepspeed;
    EXPECT_EQ(refusedWhere(deepspeed), "sharding_engine");
    core::Scenario lora = s;
    lora.method = core::Method::Lora;
    EXPECT_EQ(refusedWhere(lora), "method");
    core::Scenario other = s;
    other.framework = core::Framework::HfTrainer;
    other.shardingEngine = core::ShardingEngine::Gemini;
    EXPECT_EQ(refusedWhere(other), "sharding_engine");
    core::Scenario sgd = s;
    sgd.optimizer = core::Optimizer::Sgd;
    EXPECT_EQ(refusedWhere(sgd), "optimizer");
    core::Scenario tp = s;
    tp.tensorParallel = 2;
    EXPECT_EQ(refusedWhere(tp), "framework");
    s.sharding = core::Sharding::Zero2;
    s.precision = core::Precision::Bf16;
    const core::Estimate e = core::estimate(s);
    EXPECT_TRUE(std::any_of(e.warnings.begin(), e.warnings.end(), [](const core::Warning& w) {
        return w.code == "deepspeed_fp32_master" && w.message().find("LowLevelZero") != std::string::npos;
    }));
    core::Scenario master = s;
    master.precision = core::Precision::Bf16Fp32Master;
    EXPECT_EQ(e.allocatedPeakBytes, core::estimate(master).allocatedPeakBytes);
}

// Gemini, static placement (colossalai/zero/gemini @4f9953be). Llama-2-7B (6,738,415,616 parameters) on 8 GPUs.
// Chunks (search_utils.py search_chunk_configuration, manager.py register_tensor), parameters in model.parameters()
// order: embed_tokens and lm_head (131,072,000 each) lie beyond the mean + 3 sigma of the 291 sizes and get chunks of
// their own; the rest search from the largest, 4,096 x 11,008 = 45,088,768, upwards. Each layer packs into five chunks,
// [q, k], [v, o], [gate], [up], [down and its two norms], and the last layer's also takes the final norm:
// 45,088,768 + 3 x 4,096 = 45,101,056 elements, the least padding of the search. 2 x 131,072,000 + 32 x 5 x
// 45,101,056 = 7,478,312,960 elements are allocated, 739,897,344 of them padding.
// - the 16-bit chunk shards, which also receive the reduce-scattered gradients (reuse_fp16_chunk: gemini_ddp.py
//   grad_handle, chunk.py reduce): 2 x 7,478,312,960 / 8 = 1,869,578,240 B of weights, no gradients;
// - the fp32 master chunks, 4 x 7,478,312,960 / 8 = 3,739,156,480 B, and HybridAdam's two fp32 states per parameter,
//   8 x 6,738,415,616 / 8 = 6,738,415,616 B: 10,477,572,096 B;
// - gradient accumulation gives the gradients 16-bit chunks of their own (init_grad_chunk): 1,869,578,240 B more;
// - offload_optim_frac 1.0 puts the master and the states on the host; offload_param_frac 1.0 the shards too;
// - at the loss lm_head's own chunk is gathered: 2 x 131,072,000 = 262,144,000 B.
TEST(FrameworkBehaviour, GeminiHoldsSixteenBitChunkShardsThatTakeTheGradients) {
    core::Scenario s = geminiFull7b();
    const core::Estimate e = core::estimate(s);
    EXPECT_EQ(e.perGpu[Component::Weights], 1869578240);
    EXPECT_EQ(e.perGpu[Component::Gradients], 0);
    EXPECT_EQ(e.perGpu[Component::OptimizerStates], 10477572096);
    EXPECT_EQ(e.gatheredParamBytesAtLoss, 262144000);
    core::Scenario accumulating = s;
    accumulating.gradientAccumulation = 4;
    EXPECT_EQ(core::estimate(accumulating).perGpu[Component::Gradients], 1869578240);
    core::Scenario optimizerOff = s;
    optimizerOff.offload = core::Offload::Optimizer;
    const core::Estimate off = core::estimate(optimizerOff);
    EXPECT_EQ(off.perGpu[Component::Weights], 1869578240);
    EXPECT_EQ(off.perGpu[Component::OptimizerStates], 0);
    core::Scenario paramsOff = s;
    paramsOff.offload = core::Offload::OptimizerAndParams;
    EXPECT_EQ(core::estimate(paramsOff).perGpu[Component::Weights], 0);
}

// Gemini's auto placement (ColossalChat's gemini_auto: optimizer offload under zero3; placement_policy.py
// AutoPlacementPolicy @4f9953be) puts the master and the states on the host and releases a gathered chunk only when an
// op needs the room, under 90% of the card: by the end of forward every 16-bit chunk is still gathered. Llama-2-7B on
// 8 GPUs (the chunks of the test above): 2 x 7,478,312,960 = 14,956,625,920 B of chunks, less the 1,869,578,240 B of
// shards and lm_head's 262,144,000 B chunk the need already counts: 12,824,903,680 B cached, reported by torch but
// not needed. On a card of
// 12 GiB the cache stops at 0.9 x 12,884,901,888 = 11,596,411,699 B allocated in all. ColossalChat refuses
// gradient accumulation with it (train_sft.py L33-34).
TEST(FrameworkBehaviour, GeminiAutoPlacementCachesGatheredChunksWhileTheCardHasRoom) {
    core::Scenario s = geminiFull7b();
    s.offload = core::Offload::Optimizer;
    const core::Estimate e = core::estimate(s);
    EXPECT_EQ(e.perGpu[Component::OptimizerStates], 0);
    EXPECT_EQ(e.geminiCachedChunkBytes, 12824903680);
    EXPECT_EQ(e.measuredAllocatedBytes(), e.allocatedPeakBytes + 12824903680);
    core::Scenario smallCard = s;
    smallCard.cardMemoryBytes = 12884901888;
    const core::Estimate capped = core::estimate(smallCard);
    EXPECT_EQ(capped.allocatedPeakBytes, e.allocatedPeakBytes);
    EXPECT_NEAR(static_cast<double>(capped.measuredAllocatedBytes()), 11596411699.2, 1.0);
    core::Scenario staticOffload = s;
    staticOffload.offload = core::Offload::OptimizerAndParams;
    EXPECT_EQ(core::estimate(staticOffload).geminiCachedChunkBytes, 0);
    // Refusing accumulation leaves the run placeable: the planner finds it a layout.
    EXPECT_TRUE(core::planOnCard(s, *fixtures::catalog().findGpu("h100-sxm"), core::PlanInputs{}).found);
    s.gradientAccumulation = 2;
    const auto refused = core::validate(s);
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().where, "gradient_accumulation");
}

// ColossalChat's "zero2_cpu" (LowLevelZero with cpu_offload, low_level_optim.py @4f9953be) puts the fp32 master and
// the Adam states on the host but keeps each reduced 16-bit gradient partition on the GPU until the step moves it
// there (_run_reduction L327-391, step L564-566), through its own 12 Mi-element buckets: Llama-2-7B on 2 GPUs holds
// 2 x 6,738,415,616 / 2 = 6,738,415,616 B of gradients at the end of backward, beside the whole 16-bit model
// (13,476,831,232 B). DeepSpeed's ZeRO-2 offload streams them to the host instead (none held).
TEST(FrameworkBehaviour, LowLevelZeroOffloadKeepsItsGradientPartitionsOnTheGpu) {
    core::Scenario s = full7b();
    s.framework = core::Framework::Colossalai;
    s.gpus = 2;
    s.sharding = core::Sharding::Zero2;
    s.offload = core::Offload::Optimizer;
    const core::Estimate e = core::estimate(s);
    ASSERT_NE(e.peakMoment, core::PeakMoment::ForwardEnd);
    EXPECT_EQ(e.perGpu[Component::Weights], 2 * kLlama2_7b);
    EXPECT_EQ(e.perGpu[Component::Gradients], kLlama2_7b);
    EXPECT_EQ(e.perGpu[Component::OptimizerStates], 0);
    core::Scenario streamed = s;
    streamed.overrides.offloadKeepsGradientPartitions = false;
    EXPECT_EQ(core::estimate(streamed).perGpu[Component::Gradients], 0);
}

// ZeRO-1/2's step builds the fp32 gradient its master steps with from the 16-bit partition. DeepSpeed flattens the
// partition into a new 16-bit tensor, casts it to fp32 and drops every 16-bit copy before the optimizer runs
// (stage_1_and_2.py step L2346-2379 @edaa7221); its ZeRO-1 frees the gradients outside the partition first (L2346).
// LowLevelZero casts each parameter's partition and keeps the 16-bit gradients, every rank's slice under ZeRO-1,
// through the step (low_level_optim.py L553-567, _add_grad @4f9953be). Llama-2-7B on 8 GPUs, p = 842,301,952 parameters
// a partition; the step's moment holds, beside weights and states, gradients and transients (with the 33,554,432 B
// cuBLAS workspace):
// - DeepSpeed with the Trainer's torch AdamW (foreach): casting, 2p + (2p + 4p) = 8p; stepping, 4p + the foreach sqrt
//   list 4p = 8p, 6,738,415,616 B under ZeRO-2 (under ZeRO-1 the end of backward, with every gradient, is higher);
// - LowLevelZero with the fused HybridAdam: 2p + 4p = 5,053,811,712 B under ZeRO-2; under ZeRO-1 the whole 16-bit
//   gradient 2 x 6,738,415,616 + 4p = 16,846,039,040 B.
TEST(FrameworkBehaviour, ZeroOneAndTwoStepsWithAnFp32CopyOfTheGradientPartition) {
    const auto atStep = [](const core::Scenario& s) {
        const core::Estimate e = core::estimate(s);
        EXPECT_EQ(e.peakMoment, core::PeakMoment::OptimizerStep);
        return e.perGpu[Component::Gradients] + e.perGpu[Component::Transient] - 33554432;
    };
    core::Scenario s = full7b();
    s.framework = core::Framework::HfTrainer;
    s.gpus = 8;
    s.sharding = core::Sharding::Zero2;
    EXPECT_EQ(atStep(s), 6738415616);
    s.sharding = core::Sharding::Zero1;
    s.framework = core::Framework::Colossalai;
    EXPECT_EQ(atStep(s), 16846039040);
    s.sharding = core::Sharding::Zero2;
    EXPECT_EQ(atStep(s), 5053811712);
}

// A loop that keeps the model's output (ColossalChat's sft.py L133-140; the llama2 benchmark.py of 0b00def88) holds
// the previous step's logits until the next forward returns, so they meet the loss's forward but not its backward.
// Today's transformers loss per logit element: forward 2 (bf16 logits) + 4 (fp32 upcast) + 4 (log-softmax) = 10 B,
// backward 12 (fp32 tensors) + 2 (the logits held) = 14 B; with the previous step's 2 B the forward reaches 12 B, so
// the peak is max(14, 12) = 14 B: 14 x 4 x 4,096 x 32,000 = 7,340,032,000 B. Through transformers 4.45 the output's
// logits were logits.float(), so the loop holds 4 B per element at every later moment of the step.
TEST(FrameworkBehaviour, HeldLogitsMeetTheNextLossForwardOnly) {
    core::Scenario s = colossalChatLora();
    s.seqLen = 4096;
    s.microBatch = 4;
    const core::Estimate e = core::estimate(s);
    ASSERT_EQ(e.peakMoment, core::PeakMoment::ForwardEnd);
    EXPECT_EQ(e.perGpu[Component::LogitsLoss], 7340032000);
    core::Scenario old = s;
    old.transformersVersion = core::TransformersVersion::UpTo445;
    old.seqLen = 64;
    old.microBatch = 1;
    ASSERT_NE(core::estimate(old).peakMoment, core::PeakMoment::ForwardEnd);
    core::Scenario freed = old;
    freed.overrides.logitsHeldThroughStep = false;
    EXPECT_NEAR(static_cast<double>(core::estimate(old).allocatedPeakBytes - core::estimate(freed).allocatedPeakBytes),
                64.0 * 32000.0 * 4.0, 1.0);
}

// ColossalAI runs on CUDA only (its README @4f9953be, Installation: "CUDA >= 11.0", "NVIDIA GPU Compute Capability >=
// 7.0"): a ColossalAI run needs the feature, which the catalog's AMD and Gaudi cards lack, so the planner rents
// neither for it.
TEST(FrameworkBehaviour, AColossalAiRunIsPlannedOnNvidiaCardsOnly) {
    core::Scenario s = lora7b();
    s.framework = core::Framework::Colossalai;
    const auto need = core::requiredSoftware(s);
    EXPECT_NE(std::find(need.begin(), need.end(), core::SoftwareFeature::Colossalai), need.end());
    const core::Catalog& cat = fixtures::catalog();
    for (const char* id : {"mi300x", "mi325x", "mi250x-gcd", "gaudi2", "gaudi3"}) {
        EXPECT_NE(cat.findGpu(id)->lacking(core::SoftwareFeature::Colossalai), nullptr) << id;
    }
    EXPECT_EQ(cat.findGpu("h100-sxm")->lacking(core::SoftwareFeature::Colossalai), nullptr);
    s.framework = core::Framework::Generic;
    const auto generic = core::requiredSoftware(s);
    EXPECT_EQ(std::find(generic.begin(), generic.end(), core::SoftwareFeature::Colossalai), generic.end());
}
