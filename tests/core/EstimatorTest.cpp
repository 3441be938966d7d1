#include "TestModels.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/scenario/Units.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace gpusizer;
using core::Component;

namespace {

core::Scenario fullFinetune(core::Precision precision) {
    core::Scenario s;
    s.model = fixtures::llama2_7b();
    s.method = core::Method::Full;
    s.precision = precision;
    s.optimizer = core::Optimizer::AdamW;
    s.gradientAccumulation = 2; // gradients stay alive through the forward: all three states at the peak
    s.checkpointing = core::Checkpointing::Full;
    s.microBatch = 1;
    s.seqLen = 512;
    return s;
}

constexpr std::int64_t kLlama2_7b = 6'738'415'616;

core::Scenario llama7bLora() {
    core::Scenario s;
    s.model = fixtures::llama2_7b();
    s.method = core::Method::Lora;
    s.precision = core::Precision::Bf16;
    s.lora.rank = 8;
    s.lora.targets = {core::LinearRole::Q, core::LinearRole::V};
    s.lora.dtype = core::AdapterDtype::Bf16;
    s.checkpointing = core::Checkpointing::Full;
    return s;
}

// Llama-3.2-3B in pure bf16 at the torchtune README's run shape: micro-batch 2 x 4096 tokens.
core::Scenario llama32Bf16(core::Method method) {
    core::Scenario s;
    s.model = fixtures::llama32_3b();
    s.method = method;
    s.precision = core::Precision::Bf16;
    s.microBatch = 2;
    s.seqLen = 4096;
    return s;
}

} // namespace

TEST(Estimator, MixedPrecisionAdamWKeepsSixteenBytesPerParameter) {
    // bf16 weights 2 B + bf16 gradients 2 B + fp32 master 4 B + Adam m and v 2 x 4 B = 16 B per parameter
    const auto e = core::estimate(fullFinetune(core::Precision::Bf16Fp32Master));
    EXPECT_EQ(e.perGpu[Component::Weights], 2 * kLlama2_7b);
    EXPECT_EQ(e.perGpu[Component::Gradients], 2 * kLlama2_7b);
    EXPECT_EQ(e.perGpu[Component::OptimizerStates], 12 * kLlama2_7b);
}

TEST(Estimator, AmpKeepsFp32WeightsAndGradients) {
    // fp32 weights 4 B + fp32 gradients 4 B + Adam 8 B (no separate master copy) = 16 B per parameter
    const auto e = core::estimate(fullFinetune(core::Precision::AmpBf16));
    EXPECT_EQ(e.perGpu[Component::Weights], 4 * kLlama2_7b);
    EXPECT_EQ(e.perGpu[Component::Gradients], 4 * kLlama2_7b);
    EXPECT_EQ(e.perGpu[Component::OptimizerStates], 8 * kLlama2_7b);
}

TEST(Estimator, PureBf16KeepsAdamStatesInBf16) {
    // torch.optim.AdamW keeps its states in the parameter dtype: 2 + 2 + 2 x 2 = 8 B per parameter
    const auto e = core::estimate(fullFinetune(core::Precision::Bf16));
    EXPECT_EQ(e.perGpu[Component::Weights], 2 * kLlama2_7b);
    EXPECT_EQ(e.perGpu[Component::OptimizerStates], 4 * kLlama2_7b);
}

TEST(Estimator, LoraTrainsOnlyTheAdapters) {
    auto s = llama7bLora();
    s.lora.dtype = core::AdapterDtype::Fp32;
    s.gradientAccumulation = 2;
    // per layer: q and v each r*(4096 + 4096) = 65,536 -> 131,072; 32 layers = 4,194,304
    // (LitGPT prints "trainable params 4,194,304" for this configuration)
    const auto e = core::estimate(s);
    EXPECT_EQ(e.trainableParams, 4'194'304);
    // frozen base bf16 2 B * 6,738,415,616 + adapters fp32 4 B * 4,194,304
    EXPECT_EQ(e.perGpu[Component::Weights], 2 * kLlama2_7b + 4 * 4'194'304);
    EXPECT_EQ(e.perGpu[Component::Gradients], 4 * 4'194'304);
    // fp32 adapters: Adam m and v in fp32, no master copy: 8 B per adapter parameter
    EXPECT_EQ(e.perGpu[Component::OptimizerStates], 8 * 4'194'304);
}

TEST(Estimator, Nf4DoubleQuantStoresAboutHalfAByteAndEmbeddingsStayWide) {
    core::Scenario s;
    s.model = fixtures::llama2_7b();
    s.method = core::Method::Qlora;
    s.quantization = core::Quantization::Nf4Dq;
    s.lora.rank = 8;
    s.lora.targets = {core::LinearRole::Q, core::LinearRole::V};
    s.lora.dtype = core::AdapterDtype::Bf16;
    s.framework = core::Framework::Lightning; // keeps non-quantized weights in bf16
    // decoder linears: 32 * (4*4096^2 + 3*4096*11008) = 6,476,005,376 weights at 0.5 + 1/64 + 4/(64*256) B
    const double linear = 6'476'005'376.0;
    const double perWeight = 0.5 + 1.0 / 64.0 + 4.0 / (64.0 * 256.0);
    // everything else bf16: 6,738,415,616 - 6,476,005,376 = 262,410,240 parameters * 2 B; adapters bf16 2 B
    const double expected = linear * perWeight + 262'410'240.0 * 2.0 + 4'194'304.0 * 2.0;
    EXPECT_NEAR(static_cast<double>(core::estimate(s).perGpu[Component::Weights]), expected, 1.0);
}

TEST(Estimator, ActivationsPerTokenMatchTheSavedTensorsOfALlamaLayer) {
    // Llama-3.2-3B, full fine-tuning, pure bf16, SDPA with k/v expanded to 24 heads (padded batches of 4 pass a mask;
    // h 3072, f 8192):
    // norms 2 x (fp32 input 4*3072 + bf16 output 2*3072)            = 36,864
    // linear inputs: qkv 2*3072 + gate/up 2*3072 + down 2*8192       = 28,672
    //   (o_proj's input is a view of SDPA's saved output, written in (b, s, heads, d) order: no tensor of its own)
    // attention: q, k, v, out 4 x 2*3072 + fp32 logsumexp 4*24        = 24,672
    // MLP: gate out, SiLU out, up out 3 x 2*8192                      = 49,152
    // total 139,360 bytes per token per layer
    auto s = llama32Bf16(core::Method::Full);
    s.checkpointing = core::Checkpointing::None;
    s.attention = core::Attention::Sdpa;
    const auto items = core::estimate(s).activationPerTokenLayer;
    EXPECT_DOUBLE_EQ(items.norms, 36'864);
    EXPECT_DOUBLE_EQ(items.linearInputs, 28'672);
    EXPECT_DOUBLE_EQ(items.attention, 24'672);
    EXPECT_DOUBLE_EQ(items.mlp, 49'152);
    EXPECT_DOUBLE_EQ(items.total(), 139'360);
}

// transformers' causal-LM loss through labels= (loss/loss_utils.py ForCausalLMLoss), with the Trainer dropping the
// model's output (and its 16-bit logits) before backward (trainer.py compute_loss returns only the loss). Per
// (token x vocabulary) element, bf16:
//   4.49+ / 5.x  forward: bf16 logits 2 + fp32 upcast 4 + fp32 log-softmax 4 = 10;
//                backward: log-softmax output 4 + nll_loss gradient 4 + log_softmax gradient 4 = 12  -> 12
//   4.46-4.48    forward adds the fp32 shift_logits contiguous copy: 2 + 4 + 4 + 4 = 14             -> 14
//   <= 4.45      the model returns fp32 logits (bf16 freed): forward 4 + shifted copy 4 + 4 = 12;
//                backward 12                                                                      -> 12
// 2 * 4096 * 128256 = 1,050,673,152 elements.
TEST(Estimator, TransformersLossBytesPerLogitFollowTheVersion) {
    auto s = llama32Bf16(core::Method::Lora);
    s.checkpointing = core::Checkpointing::Full;
    const double elements = 2.0 * 4096 * 128256;
    const auto current = core::estimate(s);
    ASSERT_EQ(current.peakMoment, core::PeakMoment::ForwardEnd);
    EXPECT_DOUBLE_EQ(current.logitsBytesPerElement, 12.0);
    EXPECT_EQ(current.perGpu[Component::LogitsLoss], 12'608'077'824); // 1,050,673,152 x 12
    // 4.49 to 4.57 run the same ForCausalLMLoss (PR #35646 in 4.49).
    for (auto version : {core::TransformersVersion::V454To457, core::TransformersVersion::V449To453}) {
        s.transformersVersion = version;
        EXPECT_DOUBLE_EQ(core::estimate(s).logitsBytesPerElement, 12.0);
    }
    s.transformersVersion = core::TransformersVersion::V446To448;
    const auto sliced = core::estimate(s);
    EXPECT_DOUBLE_EQ(sliced.logitsBytesPerElement, 14.0);
    EXPECT_EQ(sliced.perGpu[Component::LogitsLoss], static_cast<std::int64_t>(elements * 14.0));
    s.transformersVersion = core::TransformersVersion::UpTo445;
    EXPECT_DOUBLE_EQ(core::estimate(s).logitsBytesPerElement, 12.0);
}

// A loop that keeps the model's output through backward (`out = model(...); out.loss.backward()`) keeps its logits
// beside the loss's three fp32 tensors: 12 + 2 = 14 B on 4.49+, and 12 + 4 = 16 B on <= 4.45, whose logits are fp32.
TEST(Estimator, LogitsHeldThroughBackwardAddTheirBytes) {
    auto s = llama32Bf16(core::Method::Lora);
    s.checkpointing = core::Checkpointing::Full;
    s.overrides.logitsFreedBeforeBackward = false;
    EXPECT_DOUBLE_EQ(core::estimate(s).logitsBytesPerElement, 14.0);
    s.transformersVersion = core::TransformersVersion::UpTo445;
    EXPECT_DOUBLE_EQ(core::estimate(s).logitsBytesPerElement, 16.0);
    s.transformersVersion = core::TransformersVersion::V446To448; // forward 14 = backward 12 + 2
    EXPECT_DOUBLE_EQ(core::estimate(s).logitsBytesPerElement, 14.0);
}

// torchtitan compiles its loss with the model since d1f62be (2025-02-20; config/configs.py components ["model",
// "loss"]): inductor's fused cross-entropy keeps the bf16 logits and writes a bf16 gradient, 2 + 2 = 4 B. Eager (or
// at 9dec370, where the loss compile was commented out) it is cross_entropy(pred.float()) with `del pred` before
// backward: 12 B as transformers 4.49+.
TEST(Estimator, TorchtitansCompiledLossKeepsOnlySixteenBitLogits) {
    auto s = llama32Bf16(core::Method::Full);
    s.framework = core::Framework::Torchtitan;
    s.checkpointing = core::Checkpointing::Full;
    EXPECT_DOUBLE_EQ(core::estimate(s).logitsBytesPerElement, 12.0);
    s.compile = true;
    EXPECT_DOUBLE_EQ(core::estimate(s).logitsBytesPerElement, 4.0);
    s.overrides.compileCoversLoss = false;
    EXPECT_DOUBLE_EQ(core::estimate(s).logitsBytesPerElement, 12.0);
    // transformers' version means nothing to a loss that is not transformers'.
    s.transformersVersion = core::TransformersVersion::V446To448;
    EXPECT_DOUBLE_EQ(core::estimate(s).logitsBytesPerElement, 12.0);
}

// PEFT's Linear.forward casts the input to lora_A's dtype in every adapted module (x = self._cast_input_dtype(x,
// lora_A.weight.dtype), tuners/lora/layer.py), so without dropout each fp32 adapter on a bf16 model saves its own fp32
// copy of the input for lora_A's weight gradient; bf16 adapters read the layer's bf16 input, saved once for q and v.
// Llama-3.2-3B, h = 3072, rank 16, LoRA on q and v, per token per layer:
//   bf16 adapters: linear inputs 2 x 3072 = 6,144 (the shared qkv input); lora 2 x (2 x 16) = 64
//   fp32 adapters: no shared input for LoRA's sake; lora 2 x (4 x 3072 + 4 x 16) = 24,704
TEST(Estimator, Fp32AdaptersWithoutDropoutSaveTheirOwnFp32InputCopy) {
    auto s = llama32Bf16(core::Method::Lora);
    s.checkpointing = core::Checkpointing::None;
    s.lora.dropout = 0.0;
    s.lora.targets = {core::LinearRole::Q, core::LinearRole::V};
    s.lora.dtype = core::AdapterDtype::Bf16;
    const auto bf16 = core::estimate(s).activationPerTokenLayer;
    EXPECT_DOUBLE_EQ(bf16.linearInputs, 6'144);
    EXPECT_DOUBLE_EQ(bf16.lora, 64);
    s.lora.dtype = core::AdapterDtype::Fp32;
    const auto fp32 = core::estimate(s).activationPerTokenLayer;
    EXPECT_DOUBLE_EQ(fp32.linearInputs, 0);
    EXPECT_DOUBLE_EQ(fp32.lora, 24'704);
}

// Qwen3's q_norm and k_norm save what the layer's RMSNorms save, over every query and key element: (32 + 8) x 128 =
// 5,120 per token. Eager (Qwen3RMSNorm: the fp32 upcast kept for pow's backward): 4 x 5,120 = 20,480 B; its weight
// frozen under LoRA, the 16-bit normalised output is not kept (weight * x saves x only for the weight's gradient). Full
// fine-tuning keeps that output too: + 2 x 5,120 = 30,720 B. Compiled, the bf16 input: 10,240 B. LayerNorm tuning
// copies the layer norms only (PEFT ln_tuning): 20,480 B. Liger's kernel, where the framework patches the classes
// before loading (Axolotl): the input and an fp32 rstd per row (40 heads): 10,240 + 160 = 10,400 B; under the Trainer's
// use_liger_kernel, which patches only Qwen3's layer norms (liger monkey_patch.py @ead96b61 L1711-1719), eager:
// 20,480 B.
TEST(Estimator, QueryAndKeyNormsSaveTheirInputsLikeTheLayersNorms) {
    core::Scenario s;
    s.model = fixtures::qwen3_8b();
    s.method = core::Method::Lora;
    s.precision = core::Precision::Bf16;
    s.checkpointing = core::Checkpointing::None;
    const auto qkNormBytes = [](core::Scenario x) {
        const double with = core::estimate(x).activationPerTokenLayer.norms;
        x.model.qkNorm = core::QkNorm::None;
        return with - core::estimate(x).activationPerTokenLayer.norms;
    };
    EXPECT_DOUBLE_EQ(qkNormBytes(s), 20'480);
    auto full = s;
    full.method = core::Method::Full;
    EXPECT_DOUBLE_EQ(qkNormBytes(full), 30'720);
    auto compiled = s;
    compiled.compile = true;
    EXPECT_DOUBLE_EQ(qkNormBytes(compiled), 10'240);
    auto lnTuning = s;
    lnTuning.lora.kind = core::AdapterKind::LnTuning;
    EXPECT_DOUBLE_EQ(qkNormBytes(lnTuning), 20'480);
    auto liger = s;
    liger.ligerRmsNorm = true;
    liger.framework = core::Framework::Axolotl;
    EXPECT_DOUBLE_EQ(qkNormBytes(liger), 10'400);
    liger.framework = core::Framework::HfTrainer;
    EXPECT_DOUBLE_EQ(qkNormBytes(liger), 20'480);
}

TEST(Estimator, ZeroThreeShardsModelStatesButNotActivations) {
    auto one = fullFinetune(core::Precision::Bf16Fp32Master);
    auto eight = one;
    eight.gpus = 8;
    eight.sharding = core::Sharding::Zero3;
    const auto a = core::estimate(one);
    const auto b = core::estimate(eight);
    EXPECT_EQ(b.perGpu[Component::Weights], a.perGpu[Component::Weights] / 8);
    EXPECT_EQ(b.perGpu[Component::OptimizerStates], a.perGpu[Component::OptimizerStates] / 8);
    EXPECT_EQ(b.perGpu[Component::Activations], a.perGpu[Component::Activations]);
    EXPECT_EQ(b.dataParallel, 8);
}

TEST(Estimator, DeviceUsageIsReservedPlusContext) {
    auto s = fullFinetune(core::Precision::Bf16);
    s.cudaContextBytes = 1'000'000'000;
    const auto e = core::estimate(s);
    EXPECT_EQ(e.deviceBytes, e.reservedPeakBytes + 1'000'000'000);
    EXPECT_EQ(e.perGpu.total(), e.deviceBytes);
    EXPECT_LT(e.bandLowBytes, e.deviceBytes);
    EXPECT_GT(e.bandHighBytes, e.deviceBytes);
}

TEST(Estimator, ValidateNamesTheBadField) {
    core::Scenario s;
    s.model = fixtures::llama2_7b();
    s.seqLen = 0;
    auto r = core::validate(s);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().where, "seq_len");
    s.seqLen = 128;
    s.gpus = 6;
    s.tensorParallel = 4;
    r = core::validate(s);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, core::ErrorCode::Inconsistent);
}

TEST(Estimator, Fsdp1FlatParametersHoldGradientsForFrozenWeightsToo) {
    // LitGPT's FSDPStrategy(auto_wrap_policy={Block}) puts each block's frozen weights and adapters in one flat
    // parameter, which then requires grad: gradients for the whole block (torch _flat_param.py; the
    // _validate_frozen_params warning). The root unit (embedding, lm_head) holds no adapter and gets none.
    // Blocks: 6,476,005,376 linear + 32 x 2 x 4096 = 262,144 norm weights, + 4,194,304 adapters = 6,480,461,824
    // elements x 2 B = 12,960,923,648 B, unsharded under no-sync gradient accumulation.
    auto s = llama7bLora();
    s.gpus = 2;
    s.sharding = core::Sharding::Zero3;
    s.gradientAccumulation = 4;
    s.framework = core::Framework::Lightning;
    EXPECT_EQ(core::estimate(s).perGpu[Component::Gradients], 12'960'923'648);
    // Without accumulation the flat gradient is reduce-scattered: / 2 GPUs = 6,480,461,824 B.
    s.gradientAccumulation = 1;
    s.overrides.gradientsFreedAfterStep = false; // keep them in the peak moment
    EXPECT_EQ(core::estimate(s).perGpu[Component::Gradients], 6'480'461'824);
    // FSDP2 (torchtune) shards per parameter: only the adapters' gradients, 2 B x 4,194,304 / 2 = 4,194,304 B.
    s.framework = core::Framework::Torchtune;
    EXPECT_EQ(core::estimate(s).perGpu[Component::Gradients], 4'194'304);
    // FSDP1 with PEFT's fsdp_auto_wrap_policy (the transformers Trainer applies it to PEFT models since PR #29587)
    // wraps each adapter in its own unit: adapter gradients only, as under FSDP2.
    s.framework = core::Framework::HfTrainer;
    s.shardingEngine = core::ShardingEngine::Fsdp1;
    EXPECT_EQ(core::estimate(s).perGpu[Component::Gradients], 4'194'304);
    s.adapterWrapping = core::AdapterWrapping::Mixed;
    EXPECT_EQ(core::estimate(s).perGpu[Component::Gradients], 6'480'461'824);
}

TEST(Estimator, LoraOnTwoShardedGpusNeedsLessThanOnOne) {
    // ZeRO-3 halves the frozen base's 13.5 GB per GPU; with adapters wrapped apart (PEFT policy, DeepSpeed, FSDP2)
    // nothing grows back, so two GPUs hold less than one.
    for (auto engine : {core::ShardingEngine::Deepspeed, core::ShardingEngine::Fsdp1, core::ShardingEngine::Fsdp2}) {
        auto one = llama7bLora();
        one.shardingEngine = engine;
        auto two = one;
        two.gpus = 2;
        two.sharding = core::Sharding::Zero3;
        EXPECT_LT(core::estimate(two).deviceBytes, core::estimate(one).deviceBytes) << core::toString(engine);
    }
}

TEST(Estimator, AmpKeepsA16BitCopyOfEveryLinearWeightUntilBackward) {
    // fp32 weights under bf16 autocast, no checkpointing: each linear's bf16 weight copy is saved for backward.
    // 2 B x (decoder linears 6,476,005,376 + lm_head 131,072,000) = 13,214,154,752 B in the transient component.
    auto s = llama7bLora();
    s.precision = core::Precision::AmpBf16;
    s.checkpointing = core::Checkpointing::None;
    s.seqLen = 256;
    const auto e = core::estimate(s);
    ASSERT_EQ(e.peakMoment, core::PeakMoment::ForwardEnd);
    const std::int64_t cublasWorkspace = 32LL << 20;
    EXPECT_EQ(e.perGpu[Component::Transient], 13'214'154'752 + cublasWorkspace);
    // Checkpointing recomputes the casts in backward: the copies are gone.
    s.checkpointing = core::Checkpointing::Full;
    EXPECT_EQ(core::estimate(s).perGpu[Component::Transient], cublasWorkspace);
}

TEST(Estimator, LossImplementationsHoldDifferentBytesPerLogit) {
    auto s = llama7bLora();
    s.loss = core::Loss::Chunked;
    s.compile = true;
    // compiled chunked loss (8 chunks): the upcast is fused into the kernels, so 16-bit logits 2 B + one chunk's
    // 16-bit gradient 2 / 8
    EXPECT_DOUBLE_EQ(core::estimate(s).logitsBytesPerElement, 2.0 + 2.0 / 8.0);
    s.compile = false;
    // eager chunked loss: 16-bit logits 2 + every chunk's fp32 log-softmax 4 + one chunk's fp32 upcast 4 / 8
    EXPECT_DOUBLE_EQ(core::estimate(s).logitsBytesPerElement, 2.0 + 4.0 + 4.0 / 8.0);
    s.framework = core::Framework::Unsloth; // bf16 loss, no upcast: logits 2 + one chunk's bf16 gradient 2 / 16
    EXPECT_DOUBLE_EQ(core::estimate(s).logitsBytesPerElement, 2.0 + 2.0 / 16.0);
    s.loss = core::Loss::Standard; // logits, log-softmax output and gradient, all bf16: 3 x 2
    EXPECT_DOUBLE_EQ(core::estimate(s).logitsBytesPerElement, 6.0);
}

TEST(Estimator, LitgptHoldsFp32LogitsThroughBackward) {
    // Lightning Fabric bf16-true converts the model's output to fp32 (_FabricModule.forward ->
    // HalfPrecision.convert_output, lightning 2.1.0 plugins/precision/half.py) and LitGPT's loop keeps `logits` until
    // backward (finetune/lora.py @8641822): 4 B held, every 128-token chunk's fp32 log-softmax saved (4 B), and one
    // chunk's backward adds its two fp32 gradients. At 2048 tokens: 2 x 4 + 2 x 4 x 128 / 2048 = 8.5 B per element.
    auto s = llama7bLora();
    s.framework = core::Framework::Lightning;
    s.loss = core::Loss::Chunked;
    EXPECT_DOUBLE_EQ(core::estimate(s).logitsBytesPerElement, 8.5);
    // Without chunks the one chunk is the whole sequence: 2 x 4 + 2 x 4 = 16.
    s.loss = core::Loss::Standard;
    EXPECT_DOUBLE_EQ(core::estimate(s).logitsBytesPerElement, 16.0);
}

TEST(Estimator, FusedLossesNeverHoldTheLogits) {
    // Liger fused linear cross-entropy, Llama-2-7B (h 4096, V 32000), 1 x 2048 tokens, bf16: grad_input 2048 x 4096
    // x 2 B = 16,777,216 B, plus one chunk of logits: inc_factor = ceil(32000 / 4096) = 8, chunk = next_pow2(ceil(2048
    // / 8)) = 256 tokens, 256 x 32000 x 2 B = 16,384,000 B (fused_linear_cross_entropy.py).
    auto s = llama7bLora();
    s.microBatch = 1; // the derivation's 1 x 2048 tokens
    s.checkpointing = core::Checkpointing::Full;
    s.loss = core::Loss::FusedLinear;
    auto e = core::estimate(s);
    EXPECT_DOUBLE_EQ(e.logitsBytesPerElement, 0.0);
    EXPECT_EQ(e.logitsBytesAtLoss, 16'777'216 + 16'384'000);
    // Cut Cross-Entropy: an fp32 log-sum-exp per token (2048 x 4 B = 8,192 B) and de, 2048 x 4096 x 2 B, in backward.
    s.loss = core::Loss::CutCrossEntropy;
    EXPECT_EQ(core::estimate(s).logitsBytesAtLoss, 8'192 + 16'777'216);
}

TEST(Estimator, OptimizerInBackwardKeepsOnlyTheLargestGradient) {
    auto s = fullFinetune(core::Precision::Bf16);
    s.gradientAccumulation = 1;
    s.optimizerInBackward = true;
    s.overrides.gradientsFreedAfterStep = false;
    // the largest tensor is the 32000 x 4096 embedding: 131,072,000 x 2 B = 262,144,000 B
    EXPECT_EQ(core::estimate(s).perGpu[Component::Gradients], 262'144'000);
}

TEST(Estimator, OptimizerStepTemporariesFollowTheImplementation) {
    auto s = fullFinetune(core::Precision::Bf16);
    s.gradientAccumulation = 1;
    s.checkpointing = core::Checkpointing::Full;
    s.seqLen = 128;
    // foreach: a temporary per state element: 6,738,415,616 x 2 B (bf16 states)
    s.overrides.optimizerStep = core::OptimizerStepKind::Foreach;
    auto e = core::estimate(s);
    ASSERT_EQ(e.peakMoment, core::PeakMoment::OptimizerStep);
    const std::int64_t cublasWorkspace = 32LL << 20;
    EXPECT_EQ(e.perGpu[Component::Transient], 2 * kLlama2_7b + cublasWorkspace);
    // per-parameter loop (_single_tensor_adamw): denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt) holds two
    // tensors the size of the largest parameter at once: 2 x 131,072,000 x 2 B
    s.overrides.optimizerStep = core::OptimizerStepKind::PerParameter;
    e = core::estimate(s);
    EXPECT_LE(e.perGpu[Component::Transient], 524'288'000 + cublasWorkspace);
    // fused: no temporaries (the peak moves into backward, where the transients are the layer's: 128 tokens x 4096 x
    // 2 B of residual gradient; in the MLP's backward down's input gradient and the gated product's two operand
    // gradients, 3 x 2 x 11008 B per token, less down's saved input, 2 x 11008: 128 x 4 x 11008 B; and the cuBLAS
    // workspace)
    s.overrides.optimizerStep = core::OptimizerStepKind::Fused;
    e = core::estimate(s);
    EXPECT_EQ(e.optimizerStepTemporaryBytes, 0);
    EXPECT_EQ(e.perGpu[Component::Transient], 128 * 4096 * 2 + 128 * 4 * 11008 + cublasWorkspace);
}

TEST(Estimator, OptimizerTemporariesArePropertiesOfTheImplementation) {
    // bitsandbytes 8-bit and paged AdamW update each tensor in one in-place kernel (optimizer.py Optimizer8bit.step),
    // SGD updates in place (_multi_tensor_sgd without weight decay): no step temporaries for either.
    auto s = fullFinetune(core::Precision::Bf16);
    s.gradientAccumulation = 1;
    s.seqLen = 128;
    s.overrides.optimizerStep = core::OptimizerStepKind::Foreach;
    const std::int64_t cublasWorkspace = 32LL << 20;
    for (auto o : {core::Optimizer::AdamW8bit, core::Optimizer::PagedAdamW, core::Optimizer::Sgd,
                   core::Optimizer::SgdMomentum}) {
        s.optimizer = o;
        EXPECT_EQ(core::estimate(s).optimizerStepTemporaryBytes, 0) << core::toString(o);
    }
    // torch AdamW foreach: _foreach_sqrt(exp_avg_sqs) over the whole group, bf16: 6,738,415,616 x 2 B.
    s.optimizer = core::Optimizer::AdamW;
    EXPECT_EQ(core::estimate(s).optimizerStepTemporaryBytes, 2 * kLlama2_7b);
    // lion-pytorch: exp_avg.clone() and an out-of-place add of the largest tensor: 2 x 131,072,000 x 2 B.
    s.optimizer = core::Optimizer::Lion;
    EXPECT_EQ(core::estimate(s).optimizerStepTemporaryBytes, 524'288'000);
    // transformers Adafactor loops over parameters: for 16-bit weights about 16 B per element of the largest one
    // (fp32 gradient and weight copies, grad**2 + eps, the update) plus 4 B of the previous update:
    // 20 x 131,072,000 = 2,621,440,000 B.
    s.optimizer = core::Optimizer::Adafactor;
    s.checkpointing = core::Checkpointing::Full;
    const auto e = core::estimate(s);
    ASSERT_EQ(e.peakMoment, core::PeakMoment::OptimizerStep);
    EXPECT_EQ(e.perGpu[Component::Transient], 2'621'440'000 + cublasWorkspace);
}

namespace {

// torchtune's Llama-3.2-3B QLoRA config (llama3_2/3B_qlora_single_device.yaml): rank 64 on q, v, output_proj and
// the whole MLP; batch 2 x 4096 packed tokens, full activation checkpointing.
core::Scenario torchtuneLlama32Qlora() {
    auto s = llama32Bf16(core::Method::Qlora);
    s.framework = core::Framework::Torchtune;
    s.quantization = core::Quantization::Nf4Dq;
    s.lora.rank = 64;
    s.lora.targets = {core::LinearRole::Q,    core::LinearRole::V,  core::LinearRole::O,
                      core::LinearRole::Gate, core::LinearRole::Up, core::LinearRole::Down};
    s.checkpointing = core::Checkpointing::Full;
    return s;
}

} // namespace

TEST(Estimator, TorchtuneQloraQuantizesEveryDecoderLinearSincePr1119) {
    // Decoder linears per layer: q 3072^2 = 9,437,184, k and v 3072 x 1024 = 3,145,728 each, o 9,437,184,
    // gate/up/down 3 x 3072 x 8192 = 75,497,472: 100,663,296 x 28 layers = 2,818,572,288 weights in NF4.
    // The rest stays bf16: 3,212,749,824 - 2,818,572,288 = 394,177,536 (tied embedding 394,002,432 + norms).
    // Adapters bf16: per layer 64 x (6144 + 4096 + 6144 + 3 x 11264) = 3,211,264, x 28 = 89,915,392.
    const double nf4 = 0.5 + 1.0 / 64.0 + 4.0 / (64.0 * 256.0);
    auto s = torchtuneLlama32Qlora();
    const double expected = 2'818'572'288.0 * nf4 + 394'177'536.0 * 2.0 + 89'915'392.0 * 2.0;
    EXPECT_NEAR(static_cast<double>(core::estimate(s).perGpu[Component::Weights]), expected, 1.0);
    // Before PR #1119 the un-adapted k_proj stayed bf16: 28 x 3,145,728 = 88,080,384 weights at 2 B instead.
    s.overrides.quantizesOnlyAdaptedLinears = true;
    EXPECT_NEAR(static_cast<double>(core::estimate(s).perGpu[Component::Weights]),
                expected + 88'080'384.0 * (2.0 - nf4), 1.0);
}

TEST(Estimator, LogitsAreFreedBeforeTheLastLayerIsRecomputed) {
    // Autograd runs the loss and lm_head backward (created last in forward) before it recomputes the last
    // checkpointed layer, so the logits and the recomputed layer never coexist.
    auto s = torchtuneLlama32Qlora();
    const auto e = core::estimate(s);
    ASSERT_EQ(e.peakMoment, core::PeakMoment::ForwardEnd);
    // At the loss: 28 stored layer inputs of 2 x 3072 B and the final norm's fp32 input 4 x 3072 B, per token,
    // for 2 x 4096 = 8192 tokens: (28 x 6144 + 12288) x 8192 = 1,509,949,440 B; no recomputed layer.
    EXPECT_EQ(e.perGpu[Component::Activations], 1'509'949'440);
    // The compiled chunked loss: 8192 x 128256 logits x (2 + 2/8) B = 2,364,014,592 B.
    s.compile = true;
    s.loss = core::Loss::Chunked;
    EXPECT_EQ(core::estimate(s).perGpu[Component::LogitsLoss], 2'364'014'592);
    // A 1,000-token vocabulary makes the logits small: the recompute moment wins, with the stored inputs
    // (28 x 6144 x 8192 = 1,409,286,144 B) and one whole layer's saved tensors.
    auto small = torchtuneLlama32Qlora();
    small.model.vocabSize = 1000;
    const auto r = core::estimate(small);
    ASSERT_EQ(r.peakMoment, core::PeakMoment::LastLayerRecompute);
    EXPECT_EQ(r.perGpu[Component::LogitsLoss], 0);
    EXPECT_NEAR(static_cast<double>(r.perGpu[Component::Activations]),
                1'409'286'144.0 + r.activationPerTokenLayer.total() * 8192.0, 1.0);
}

TEST(Estimator, PerChunkProjectionHoldsTwoHeadGradientsAtTheLoss) {
    // torchtune's chunked loss projects each chunk through the (tied) lm_head: each chunk's weight gradient,
    // 128256 x 3072 x 2 B = 788,004,864 B, is summed into the accumulated one while both exist.
    auto s = llama32Bf16(core::Method::Full);
    s.framework = core::Framework::Torchtune;
    s.optimizerInBackward = true;
    s.checkpointing = core::Checkpointing::Full;
    s.compile = true;
    s.loss = core::Loss::Chunked;
    const auto perChunk = core::estimate(s);
    ASSERT_EQ(perChunk.peakMoment, core::PeakMoment::ForwardEnd);
    s.overrides.chunkedLossProjectsPerChunk = false; // LitGPT-style: one projection of the whole sequence
    const auto once = core::estimate(s);
    EXPECT_EQ(perChunk.perGpu[Component::Transient] - once.perGpu[Component::Transient], 788'004'864);
}

TEST(Estimator, DataParallelWithoutShardingSaysWhyPerGpuMemoryRises) {
    auto hasWarning = [](const core::Estimate& e, const std::string& code) {
        return std::any_of(e.warnings.begin(), e.warnings.end(), [&](const auto& w) { return w.code == code; });
    };
    core::Scenario one = fullFinetune(core::Precision::Bf16Fp32Master);
    const core::Estimate single = core::estimate(one);
    core::Scenario four = one;
    four.gpus = 4; // data parallel 4, sharding none: every rank holds all ~16 B/parameter of model states
    const core::Estimate replicated = core::estimate(four);
    // Per GPU it is no smaller (DDP's buckets and NCCL's buffers come on top), and the estimate says why.
    EXPECT_GE(replicated.deviceBytes, single.deviceBytes);
    EXPECT_TRUE(hasWarning(replicated, "replicated_model_states"));
    for (const auto& w : replicated.warnings) {
        if (w.code == "replicated_model_states") {
            EXPECT_NE(w.message().find("With 4 data-parallel GPUs"), std::string::npos) << w.message();
        }
    }
    EXPECT_FALSE(hasWarning(single, "replicated_model_states"));
    four.sharding = core::Sharding::Zero3;
    EXPECT_FALSE(hasWarning(core::estimate(four), "replicated_model_states"));
}
