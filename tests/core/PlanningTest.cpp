#include "TestModels.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/scenario/FrameworkProfile.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

using namespace gpusizer;

using fixtures::catalog;

namespace {

core::Scenario llama7bFull() {
    core::Scenario s;
    s.model = fixtures::llama2_7b();
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16;
    s.checkpointing = core::Checkpointing::None;
    s.microBatch = 1;
    s.seqLen = 2048;
    return s;
}

constexpr double kLlama2_7b = 6'738'415'616.0;

} // namespace

TEST(Planning, FullTrainingIsSixFlopsPerParameterPlusAttention) {
    // matmul parameters: 6,738,415,616 - 131,072,000 (embedding lookup) = 6,607,343,616; x 6 = 39,644,061,696
    // attention over the full s x s matrix (the convention of published MFU figures):
    // 3 x (4 x 32 heads x 128 x 2048 tokens x 32 layers) = 3 x 1,073,741,824 = 3,221,225,472
    EXPECT_DOUBLE_EQ(core::trainingFlopsPerToken(llama7bFull()), 39'644'061'696.0 + 3'221'225'472.0);
}

TEST(Planning, LoraSkipsWeightGradientsAndRecomputationAddsAForward) {
    auto s = llama7bFull();
    s.method = core::Method::Lora;
    s.lora.rank = 8;
    s.lora.targets = {core::LinearRole::Q, core::LinearRole::V};
    // 4 x 6,607,343,616 + 6 x 4,194,304 adapter parameters + attention 3,221,225,472
    EXPECT_DOUBLE_EQ(core::trainingFlopsPerToken(s), 4.0 * 6'607'343'616.0 + 6.0 * 4'194'304.0 + 3'221'225'472.0);
    s.checkpointing = core::Checkpointing::Full;
    // + one more forward: 2 x 6,607,343,616
    EXPECT_DOUBLE_EQ(core::trainingFlopsPerToken(s), 6.0 * 6'607'343'616.0 + 6.0 * 4'194'304.0 + 3'221'225'472.0);
}

TEST(Planning, DataParallelTrafficMatchesRingCollectives) {
    const auto& gpu = *catalog().findGpu("h100-sxm");
    const core::PlanInputs in;
    auto s = llama7bFull();
    s.gpus = 8;
    // DDP: one all-reduce of the bf16 gradients, 2 x (7/8) x 2 B x P
    s.sharding = core::Sharding::None;
    EXPECT_NEAR(core::stepTime(s, gpu, in).commBytesPerGpu, 2.0 * 7.0 / 8.0 * 2.0 * kLlama2_7b, 1.0);
    // ZeRO-3: all-gather the bf16 weights for forward and backward, reduce-scatter the gradients:
    // (7/8) x (2 x 2 B + 2 B) x P = 5.25 x P
    s.sharding = core::Sharding::Zero3;
    EXPECT_NEAR(core::stepTime(s, gpu, in).commBytesPerGpu, 7.0 / 8.0 * 6.0 * kLlama2_7b, 1.0);
    // ... per micro-batch: gradient accumulation 4 repeats the gathers and reduce-scatters.
    s.gradientAccumulation = 4;
    EXPECT_NEAR(core::stepTime(s, gpu, in).commBytesPerGpu, 4.0 * 7.0 / 8.0 * 6.0 * kLlama2_7b, 4.0);
}

TEST(Planning, MatmulTimeIsFlopsOverPeakTimesUtilisationAndTheRestRunsAtTheCardsBandwidth) {
    const auto& gpu = *catalog().findGpu("a100-80gb-sxm");
    core::PlanInputs in;
    in.mfu = 0.5;
    const auto s = llama7bFull();
    const auto t = core::stepTime(s, gpu, in);
    // 2048 tokens x (39,644,061,696 + 3,221,225,472) FLOP / (312e12 x 0.5) = 0.5627 s
    EXPECT_NEAR(t.matmulSeconds, 2048.0 * 42'865'287'168.0 / (312e12 * 0.5), 1e-9);
    // The base model's element-wise kernels (Planning.BaseElementwiseBytesFollowTransformersLlama: 20,447,232 B per
    // token per forward, 1,536,000 B of loss): one forward and a backward of twice its bytes, at 2.039 TB/s.
    const double elementwise = 2048.0 * (20'447'232.0 * 3.0 + 1'536'000.0) / 2.039e12;
    EXPECT_NEAR(t.baseElementwiseSeconds, elementwise, 1e-12);
    EXPECT_NEAR(t.computeSeconds, t.matmulSeconds + elementwise, 1e-12);
    // Pure bf16 AdamW, foreach: 7 x 2 B of weights and gradients and 7 x 4 B of states per parameter (42 B).
    EXPECT_NEAR(t.optimizerStepSeconds, 42.0 * kLlama2_7b / 2.039e12, 1e-12);
    EXPECT_NEAR(t.stepSeconds, t.computeSeconds + t.optimizerStepSeconds, 1e-12);
}

TEST(Planning, BaseElementwiseBytesFollowTransformersLlama) {
    // Llama-2-7B (h 4096, intermediate 11008, 32 layers of 32 heads x 128, vocabulary 32,000) in bf16 with SDPA,
    // per token, one forward pass, as transformers' modeling_llama.py runs it:
    //   2 RMSNorms of 36 B per element (upcast 2+4, pow 4+4, mean 4, * rsqrt 4+4, cast back 4+2, weight * 2+2):
    //     2 x 36 x 4096 = 294,912
    //   RoPE on q and k, 10 x 2 B per element: 20 x (32 + 32) x 128 = 163,840
    //   SDPA's output copied to (batch, seq, heads, d): 2 x 2 x 4096 = 16,384
    //   two residual adds, 3 x 2 B per element each: 2 x 6 x 4096 = 49,152
    //   SiLU(gate) (2 x 2 B) and * up (3 x 2 B) per element of 11,008: 10 x 11,008 = 110,080
    //   634,368 per layer x 32 = 20,299,776, plus the final norm 36 x 4096 = 147,456: 20,447,232.
    // The loss per logit: upcast 2+4 and its backward 4+2, log_softmax 16 (a 32,000-wide row read three times,
    // written once: SoftMax.cu's cunn_SoftMaxForward), nll's gradient 4, log_softmax's backward 16 (the gradient read
    // twice, the output once, one write): 48 B x 32,000 = 1,536,000.
    core::Scenario s = llama7bFull();
    const auto profile = core::profileFor(s);
    auto bytes = core::baseElementwiseBytesPerToken(s, profile);
    EXPECT_DOUBLE_EQ(bytes.layers, 20'447'232.0);
    EXPECT_DOUBLE_EQ(bytes.loss, 1'536'000.0);
    // torch.compile fuses each norm, RoPE and the MLP's activation into one read and one write, and FlashAttention
    // writes its output in place: norms 2 x 4 x 4096 = 32,768, RoPE 4 x 8192 = 32,768, residuals 49,152, the
    // activation 6 x 11,008 = 66,048: 180,736 x 32 + 4 x 4096 = 5,799,936.
    s.compile = true;
    s.attention = core::Attention::Flash;
    bytes = core::baseElementwiseBytesPerToken(s, core::profileFor(s));
    EXPECT_DOUBLE_EQ(bytes.layers, 5'799'936.0);
    // Autocast over fp32 weights keeps the residual stream in fp32: an unfused norm then reads and writes 28 B per
    // element (no casts: pow 8, mean 4, * rsqrt 8, weight * 8) and each add 4 + 2 + 4; RoPE runs against fp32 cos
    // and sin (36 B per element of q and k with SDPA's cast back), and q, k, v, gate and up each cast their fp32
    // input (4 + 2 B per element).
    s = llama7bFull();
    s.precision = core::Precision::AmpBf16;
    bytes = core::baseElementwiseBytesPerToken(s, core::profileFor(s));
    const double ampLayer =
        2.0 * 28.0 * 4096 + 36.0 * 8192 + 16'384.0 + 2.0 * 10.0 * 4096 + 110'080.0 + 5.0 * 6.0 * 4096;
    EXPECT_DOUBLE_EQ(bytes.layers, 32.0 * ampLayer + 28.0 * 4096);
}

// transformers 5 runs Mixtral's experts through F.grouped_mm (integrations/moe.py @251c2d4f L389-478) with the
// router's weights left in fp32 (modeling_mixtral.py L106-109). Per routed copy and hidden element: the gather into
// expert order 2 + 2, the padding mask 2 + 2, the scaling by the fp32 weight 2 + 4, the fp32 mask 4 + 4, the fp32
// gather back 4 + 4, read by the sum 4: 34 B, against the eager loop's gather 2 x 2, scaling 2 x 2, index_add_ 3 x 2
// = 14 B; per token the fp32 sum written (4), read and cast back (4 + 2): 10 B. Mixtral-8x7B (h 4096, top-2, 32
// layers): (2 x (34 - 14) + 10) x 4096 x 32 = 6,553,600 B per token per forward more than transformers 4.46-4.48 ran.
TEST(Planning, TransformersFiveRunsExpertsAsGroupedMatmulsWithFp32Routing) {
    core::Scenario s;
    s.model = fixtures::catalog().findModel("mixtral-8x7b")->arch;
    s.method = core::Method::Lora;
    s.precision = core::Precision::Bf16;
    const double grouped = core::baseElementwiseBytesPerToken(s, core::profileFor(s)).layers;
    s.transformersVersion = core::TransformersVersion::V446To448;
    const double loop = core::baseElementwiseBytesPerToken(s, core::profileFor(s)).layers;
    EXPECT_DOUBLE_EQ(grouped - loop, (2.0 * (34.0 - 14.0) + 10.0) * 4096.0 * 32.0);
    // torchtune runs its own MoE code: the loop's bytes whatever the transformers release.
    s.framework = core::Framework::Torchtune;
    s.transformersVersion = core::TransformersVersion::Current;
    const double torchtune = core::baseElementwiseBytesPerToken(s, core::profileFor(s)).layers;
    s.transformersVersion = core::TransformersVersion::V446To448;
    EXPECT_DOUBLE_EQ(torchtune, core::baseElementwiseBytesPerToken(s, core::profileFor(s)).layers);
}

// A group's rows are Poisson when each token picks its experts independently: E[ceil(X / 128)] for X ~ Poisson(512)
// is 4 + P(X > 512) = 4 + 0.48825 (the Poisson median sits a third above the mean: P(X <= 512) = 0.5 + 0.0118);
// fewer than a tile's rows take one tile whenever the group has any: 1 - e^-0.5 = 0.39347 for a mean of half a row.
TEST(Planning, AGroupsRowsFillWholeTilesOnAverageHalfATileMore) {
    EXPECT_NEAR(core::expectedTilesPerGroup(512.0, 128.0), 4.48825, 1e-4);
    EXPECT_NEAR(core::expectedTilesPerGroup(0.5, 64.0), 1.0 - std::exp(-0.5), 1e-9);
    EXPECT_NEAR(core::expectedTilesPerGroup(16.0, 64.0), 1.0, 1e-6);
    EXPECT_DOUBLE_EQ(core::expectedTilesPerGroup(0.0, 64.0), 0.0);
}

// PyTorch's grouped GEMM (GroupMM.cu @06c0cf01) runs 128 x 256 tiles on Hopper and 64 x 128 ones when a group has at
// most 128 rows on average, launched in 2 x 1 clusters, so each group's row tiles come in pairs (CUTLASS's grouped
// scheduler rounds them up to the cluster); transformers 5 hands Mixtral's experts to it (integrations/moe.py
// @251c2d4f). One H200 (132 SMs), LoRA on q and v in bf16, 1 x 2,048 tokens, full checkpointing: 4,096 routed rows,
// 512 an expert. A group's pairs U_g = ceil(X / 256), X ~ Poisson(512): 2, or 3 with P(X > 512) = 0.48825 (above);
// variance 0.48825 x 0.51175 = 0.24986. Their sum U over 8 groups, taken as normal: mean 19.906, sd 1.4138, so U =
// 17 ... 23 with probabilities 0.036, 0.116, 0.227, 0.276, 0.207, 0.097, 0.028 (16 and 24: 0.007, 0.005). A GEMM of N
// columns runs U x 2 x ceil(N / 256) tiles in whole waves of 132; the padded columns per routed row are the expected
// slots x 128 x 256 / 4,096 rows - N, each a K-long dot product:
//   gate_up forward (N = 28,672: 224 tiles a pair; U = 19, 20, 21 take 4,356, 4,488, 4,752 slots): 4,514.59 slots,
//     (35,273.39 - 28,672) x K 4,096 = 30,493,692;
//   down forward (N = 4,096: 32 tiles a pair; U = 17-20 take 660 slots, 21-24 792): 703.53 slots, (5,496.33 - 4,096)
//     x K 14,336 = 21,966,181; gate_up's input gradient, the same tiles over K 28,672: 43,932,362;
//   down's input gradient (N = 14,336: 112 tiles a pair): 2,282.67 slots, (17,833.39 - 14,336) x K 4,096 = 16,078,422.
// FLOPs (2 per multiply-add) per token, 2 copies, 32 layers, two forwards and one backward:
// 32 x 2 x 2 x (2 x (30,493,692 + 21,966,181) + 43,932,362 + 16,078,422) = 21,111,107,850.
TEST(Planning, GroupedExpertsRunWholeTilesInWholeWaves) {
    core::Scenario s;
    s.model = fixtures::catalog().findModel("mixtral-8x7b")->arch;
    s.method = core::Method::Lora;
    s.lora.targets = {core::LinearRole::Q, core::LinearRole::V};
    s.precision = core::Precision::Bf16;
    s.microBatch = 1;
    s.seqLen = 2048;
    s.checkpointing = core::Checkpointing::Full;
    const core::GpuSpec& h200 = *fixtures::catalog().findGpu("h200");
    const double padded = core::groupedExpertsPaddedFlopsPerToken(s, h200);
    EXPECT_NEAR(padded, 21'111'107'850.0, 21'111'107'850.0 * 1e-6);
    // The step's matmuls take that much longer at the card's utilisation: 2,048 tokens at 989 TFLOPS x 0.54.
    const core::PlanInputs in;
    const double withPadding = core::stepTime(s, h200, in).matmulSeconds;
    s.transformersVersion = core::TransformersVersion::V446To448; // the loop over the experts: cuBLAS per expert
    EXPECT_DOUBLE_EQ(core::groupedExpertsPaddedFlopsPerToken(s, h200), 0.0);
    EXPECT_NEAR(withPadding - core::stepTime(s, h200, in).matmulSeconds, 2048.0 * padded / (989e12 * 0.54), 1e-9);
    // Autocast over fp32 weights hands fp32 operands to grouped_mm, which then loops over cuBLAS matmuls; so does an
    // A100 (compute capability 8.0).
    s.transformersVersion = core::TransformersVersion::Current;
    s.precision = core::Precision::AmpBf16;
    EXPECT_DOUBLE_EQ(core::groupedExpertsPaddedFlopsPerToken(s, h200), 0.0);
    s.precision = core::Precision::Bf16;
    EXPECT_DOUBLE_EQ(core::groupedExpertsPaddedFlopsPerToken(s, *fixtures::catalog().findGpu("a100-80gb-sxm")), 0.0);
}

// Qwen3's q_norm and k_norm are unfused RMSNorms over q_proj's and k_proj's bf16 outputs: the same kernels as a
// layer's norm, 36 B per element (upcast 2 + 4, pow 8, mean 4, * rsqrt 8, downcast 4 + 2, weight * 4), over
// (32 + 8) x 128 = 5,120 elements a layer: 36 x 5,120 x 36 layers = 6,635,520 B per token.
TEST(Planning, QueryAndKeyNormsAddTheirKernelsTraffic) {
    core::Scenario s;
    s.model = fixtures::qwen3_8b();
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16;
    const double with = core::baseElementwiseBytesPerToken(s, core::profileFor(s)).layers;
    s.model.qkNorm = core::QkNorm::None;
    EXPECT_DOUBLE_EQ(with - core::baseElementwiseBytesPerToken(s, core::profileFor(s)).layers, 6'635'520.0);
}

TEST(Planning, TheOptimizerStepReadsAndWritesWhatPytorchsAdamDoes) {
    // Llama-2-7B, T = 6,738,415,616 parameters, all trained on one GPU (torch/optim/adam.py @dc80ccde).
    core::Scenario s = llama7bFull();
    const double t = kLlama2_7b;
    // Pure bf16, weights 2 T and bf16 states 4 T: foreach 7 x 2 T + 7 x 4 T = 42 T.
    EXPECT_DOUBLE_EQ(core::optimizerStepBytesPerGpu(s, core::profileFor(s), 2.0 * t, 0.0, 4.0 * t), 42.0 * t);
    // The fused kernel: the weight read and written, the gradient read (3 x 2 T), both moments once each way (2 x 4 T).
    s.overrides.optimizerStep = core::OptimizerStepKind::Fused;
    EXPECT_DOUBLE_EQ(core::optimizerStepBytesPerGpu(s, core::profileFor(s), 2.0 * t, 0.0, 4.0 * t), 14.0 * t);
    // fp32 master weights (DeepSpeed's bf16 recipe): the optimizer states hold the 4 T master and 8 T of fp32 moments;
    // foreach on the master: 7 x 4 T + 7 x 8 T, plus the 16-bit gradients into fp32 (2 + 4) and the master back into
    // bf16 (4 + 2): 96 T.
    s.overrides.optimizerStep.reset();
    s.precision = core::Precision::Bf16Fp32Master;
    EXPECT_DOUBLE_EQ(core::optimizerStepBytesPerGpu(s, core::profileFor(s), 2.0 * t, 4.0 * t, 12.0 * t), 96.0 * t);
    // With the optimizer on the host the GPU steps nothing.
    EXPECT_EQ(core::optimizerStepBytesPerGpu(s, core::profileFor(s), 0.0, 0.0, 0.0), 0.0);
}

TEST(Planning, TheEstimateSaysWhatEachGpusOptimizerStepUpdates) {
    // Llama-2-7B with fp32 master weights on one GPU: the master copy 4 T of its 12 T of optimizer states, the bf16
    // weights 2 T; ZeRO-2 over 4 GPUs divides both by 4; offloaded, the GPU holds neither.
    core::Scenario s = llama7bFull();
    s.precision = core::Precision::Bf16Fp32Master;
    const double t = kLlama2_7b;
    auto e = core::estimate(s, core::Detail::NumbersOnly);
    EXPECT_NEAR(static_cast<double>(e.optimizerMasterBytes), 4.0 * t, 1.0);
    EXPECT_NEAR(static_cast<double>(e.optimizerWeightBytes), 2.0 * t, 1.0);
    EXPECT_NEAR(static_cast<double>(e.perGpu[core::Component::OptimizerStates]), 12.0 * t, 1.0);
    s.gpus = 4;
    s.sharding = core::Sharding::Zero2;
    e = core::estimate(s, core::Detail::NumbersOnly);
    EXPECT_NEAR(static_cast<double>(e.optimizerMasterBytes), t, 1.0);
    EXPECT_NEAR(static_cast<double>(e.optimizerWeightBytes), t / 2.0, 1.0);
    // Each GPU's step: 7 x T + 7 x 2 T + 2 x (T + T / 2) = 24 T, a quarter of one GPU's 96 T.
    EXPECT_NEAR(core::optimizerStepBytesPerGpu(s, e.profile, static_cast<double>(e.optimizerWeightBytes),
                                               static_cast<double>(e.optimizerMasterBytes),
                                               static_cast<double>(e.perGpu[core::Component::OptimizerStates])),
                24.0 * t, 4.0);
    s.offload = core::Offload::Optimizer;
    e = core::estimate(s, core::Detail::NumbersOnly);
    EXPECT_EQ(e.optimizerMasterBytes, 0);
    EXPECT_EQ(e.optimizerWeightBytes, 0);
}

TEST(Planning, SeventyBillionFullFineTuneNeedsZero3OnEightH100s) {
    core::Scenario s = core::defaultScenario(catalog());
    const auto* m = catalog().findModel("llama-3.1-70b");
    ASSERT_NE(m, nullptr);
    s.modelId = m->id;
    s.model = m->arch;
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16;
    s.optimizer = core::Optimizer::AdamW8bit;
    s.checkpointing = core::Checkpointing::Full;
    s.loss = core::Loss::Chunked;
    s.microBatch = 1;
    s.seqLen = 2048;
    s.gpus = 8;
    // FSDP2 runs the pure bf16 recipe; DeepSpeed would add an fp32 master (see below).
    s.shardingEngine = core::ShardingEngine::Fsdp2;
    const auto& gpu = *catalog().findGpu("h100-sxm");
    // Without ZeRO-3 every GPU holds all bf16 weights: 2 B x 70,553,706,496 = 131.4 GiB > 79.1 GiB usable.
    for (auto sharding : {core::Sharding::None, core::Sharding::Zero1, core::Sharding::Zero2}) {
        s.sharding = sharding;
        EXPECT_GT(core::estimate(s).deviceBytes, gpu.usableBytes()) << core::toString(sharding);
    }
    // With it: (2 + 2 + 2 x 1.002) B x 70.55 B / 8 = 49.4 GiB of model states per GPU, plus activations.
    s.sharding = core::Sharding::Zero3;
    EXPECT_LE(core::estimate(s).deviceBytes, gpu.usableBytes());
    // DeepSpeed's ZeRO-3 keeps an fp32 master partition beside the bf16 one (stage3.py): (2 + 2 + 4 + 2 x 1.002) B x
    // 70,553,706,496 / 8 = 88.2e9 B = 82.2 GiB of model states per GPU alone, beyond 79.1 GiB: the same recipe does
    // not fit there.
    core::Scenario deepspeed = s;
    deepspeed.shardingEngine = core::ShardingEngine::Deepspeed;
    const auto ds = core::estimate(deepspeed);
    EXPECT_GT(ds.deviceBytes, gpu.usableBytes());
    EXPECT_TRUE(std::any_of(ds.warnings.begin(), ds.warnings.end(),
                            [](const core::Warning& w) { return w.code == "deepspeed_fp32_master"; }));

    // The planner at 4 and 8 cards, without offload: 4 cards would need (2 + 2 + 2.004) B x 70.55 B / 4 = 98.8 GiB of
    // model states each, whatever the layout; at 8 a layout fits.
    core::PlanInputs noOffload;
    noOffload.allowOffload = false;
    const auto four = core::fitAtCount(s, gpu, 4, noOffload);
    EXPECT_EQ(four.why, core::Infeasible::GpuMemory);
    EXPECT_GT(four.deviceBytes, gpu.usableBytes());
    const auto eight = core::fitAtCount(s, gpu, 8, noOffload);
    ASSERT_TRUE(eight.fits());
    EXPECT_EQ(eight.scenario.offload, core::Offload::None);
    // The card plan names the closest miss below its choice.
    const auto plan = core::planOnCard(s, gpu, noOffload);
    ASSERT_TRUE(plan.found);
    EXPECT_GE(plan.best.scenario.gpus, 8);
    ASSERT_TRUE(plan.fewerCards.has_value());
    EXPECT_LT(plan.fewerCards->scenario.gpus, plan.best.scenario.gpus);
}

TEST(Planning, DoublingCardsOverPcieWithZero3PaysLittleWhileNvlinkNearlyDoubles) {
    auto s = llama7bFull();
    s.checkpointing = core::Checkpointing::Full;
    s.sharding = core::Sharding::Zero3;
    const auto& gpu = *catalog().findGpu("a100-80gb-sxm");
    const core::PlanInputs in;
    const auto pcie = core::scalingCurve(s, gpu, in, 8, "pcie");
    const auto nvlink = core::scalingCurve(s, gpu, in, 8, "nvlink");
    ASSERT_EQ(pcie.size(), 4u); // 1, 2, 4, 8 cards
    // 1 -> 2 cards: ZeRO-3 moves (1/2) x 6 B x P = 20.2 GB per GPU per step; over PCIe 4.0 (31.5 x 0.7 GB/s) that is
    // ~0.92 s against ~0.9 s of compute, so the second card adds little; NVLink (300 x 0.8 GB/s) hides it.
    EXPECT_LT(pcie[1].speedup, 1.5);
    EXPECT_GT(nvlink[1].speedup, 1.8);
    EXPECT_LT(pcie[3].efficiency, nvlink[3].efficiency);
}

TEST(Planning, CostIsGpuHoursTimesPriceAndCheckpointsFollowTheMethod) {
    auto s = llama7bFull();
    const auto& gpu = *catalog().findGpu("h100-sxm");
    core::PlanInputs in;
    in.datasetTokens = 1e8;
    in.epochs = 2;
    const auto c = core::costPlan(s, gpu, in);
    // steps = ceil(2e8 tokens / 2048 tokens per step) = 97,657
    EXPECT_DOUBLE_EQ(c.steps, 97'657.0);
    EXPECT_NEAR(c.stepHours, c.steps * c.step.stepSeconds / 3600.0, 1e-9);
    // Around the steps, on one node (core::FixedCostAssumptions, core::BillAssumptions defaults): the instance 10 min,
    // the image 6 min, the 16-bit checkpoint (2 B x 6,738,415,616 = 13.48 GB) downloaded at 0.4 GB/s and read at
    // 1 GB/s, a minute of start-up (log2 of one node adds nothing), the result (bf16 weights, 13.48 GB) written at
    // 1 GB/s by one writer and copied out at 0.4 GB/s.
    const double checkpoint16 = 2.0 * kLlama2_7b;
    const double fixedSeconds =
        600.0 + 360.0 + checkpoint16 / 0.4e9 + checkpoint16 / 1e9 + 60.0 + checkpoint16 / 1e9 + checkpoint16 / 0.4e9;
    EXPECT_NEAR(c.fixed.totalSeconds(), fixedSeconds, 1e-6);
    EXPECT_NEAR(c.wallHours, c.stepHours + fixedSeconds / 3600.0, 1e-9);
    // A neocloud bills started minutes (Lambda: one-minute increments): the card's hours are the wall time rounded up.
    EXPECT_NEAR(c.gpuHours, std::ceil(c.wallHours * 60.0) / 60.0, 1e-9);
    EXPECT_NEAR(c.costOnDemandUsd, c.gpuHours * gpu.priceOnDemandUsdHour, 1e-6);
    EXPECT_NEAR(c.costSpotUsd, c.gpuHours * gpu.priceSpotUsdHour, 1e-6);
    // Full fine-tuning checkpoint: bf16 weights 2 B + bf16 AdamW states 4 B per parameter.
    EXPECT_NEAR(c.checkpointBytes, 6.0 * kLlama2_7b, 1.0);
    s.method = core::Method::Lora;
    s.lora.rank = 8;
    s.lora.targets = {core::LinearRole::Q, core::LinearRole::V};
    // LoRA: adapters only (fp32 under the generic profile, 4 B) and their AdamW states (8 B): 12 B x 4,194,304.
    EXPECT_NEAR(core::costPlan(s, gpu, in).checkpointBytes, 12.0 * 4'194'304.0, 1.0);
}

TEST(Planning, RankingPicksCheapestAndFastest) {
    core::Scenario s = core::defaultScenario(catalog());
    const core::PlanInputs in;
    const auto results = core::planCatalog(s, catalog().gpus, in);
    const auto k = core::rank(results, in);
    ASSERT_GE(k.cheapest, 0);
    ASSERT_GE(k.fastest, 0);
    for (const auto& r : results) {
        if (r.found) {
            EXPECT_GE(core::costOf(r.best, in), core::costOf(results[static_cast<std::size_t>(k.cheapest)].best, in));
            EXPECT_GE(r.best.plan.wallHours, results[static_cast<std::size_t>(k.fastest)].best.plan.wallHours);
        }
    }
}

namespace {

// torchtitan's Llama 3.1 8B benchmark (benchmarks/llama3_h100_202412_torchtitan.md, torchtitan 9dec370, 2024-12-26):
// H100 SXM-class GPUs, 8 per host on NVLink, 400 Gb/s RDMA per GPU between hosts; 1D FSDP, local batch size 2,
// selective (op) activation checkpointing; sequence length 8192 from train_configs/llama3_8b.toml.
core::Scenario torchtitanLlama31_8b(std::int64_t gpus) {
    core::Scenario s;
    s.model = fixtures::llama31_8b();
    s.framework = core::Framework::Torchtitan;
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16Fp32Master; // FSDP2 mixed precision: fp32 shards, bf16 compute
    s.microBatch = 2;
    s.seqLen = 8192;
    s.checkpointing = core::Checkpointing::Selective;
    s.gpus = gpus;
    s.sharding = core::Sharding::Zero3;
    return s;
}

// 6 x (8,030,261,248 - 525,336,576 embedding) = 45,029,548,032 plus attention
// 12 x 32 layers x 4096 (32 heads x 128) x 8192 = 12,884,901,888: 57,914,449,920 FLOPs per token.
constexpr double kLlama31_8bFlopsPerToken = 57'914'449'920.0;

} // namespace

TEST(Planning, FlopsPerTokenMatchTorchtitansLoggedAccounting) {
    // torchtitan logs model FLOPs; its selective policy also runs every second mm of each block again
    // (_custom_policy: mm_count % 2): wk, wo and w3, 2 x 32 x (4096 x 1024 + 4096 x 4096 + 4096 x 14,336) =
    // 5,100,273,664 per token, which the time model counts on top.
    EXPECT_DOUBLE_EQ(core::trainingFlopsPerToken(torchtitanLlama31_8b(8)), kLlama31_8bFlopsPerToken + 5'100'273'664.0);
    // torchtitan PR #996 logs "tps: 5,966  tflops: 345.53" for Llama3-8B at 8192 tokens:
    // 345.53e12 / 5,966 = 57.917e9 FLOPs per token, 0.005% from ours (its log rounds to 4-5 digits).
    EXPECT_NEAR(345.53e12 / 5966.0 / kLlama31_8bFlopsPerToken, 1.0, 0.001);
}

TEST(Planning, StepTimeAgainstTorchtitansPublishedThroughput) {
    // The benchmark's footnote: 33% to 39% MFU for 1D Llama 3.1 8B on 8 or 128 H100s, without and with
    // torch.compile (the footnote says "respectively" the other way round; the throughputs fix the order), against
    // the SXM peak of 989 TFLOPS. Published tokens/s per GPU — eager: 5,762 on 8 GPUs (Table 1), 5,605 on 128
    // (Table 3); compiled: 6,667 and 6,514.
    // The matmuls at that utilisation, with the recomputed ones (63.015e9 FLOPs per token):
    // tokens x 63.015e9 / (989e12 x MFU). FSDP traffic per GPU per step, (n-1)/n x (2 x 16.06 GB gathers + 16.06 GB
    // reduce-scatter), hides behind half of the ~2.9 s of compute on NVLink (0.12 s) and on InfiniBand (1.2 s): no
    // exposed time, so per-GPU throughput holds from 8 to 128 GPUs (published: -2.7% eager, -2.3% compiled).
    const auto& gpu = *catalog().findGpu("h100-sxm");
    constexpr double kRecomputedFlopsPerToken = kLlama31_8bFlopsPerToken + 5'100'273'664.0;
    struct Published {
        double mfu;
        bool compiled;
        std::int64_t gpus;
        double tokensPerSecondPerGpu;
    };
    const Published rows[] = {
        {0.33, false, 8, 5762}, {0.33, false, 128, 5605}, {0.39, true, 8, 6667}, {0.39, true, 128, 6514}};
    for (const auto& row : rows) {
        core::PlanInputs in;
        in.mfu = row.mfu;
        auto s = torchtitanLlama31_8b(row.gpus);
        s.compile = row.compiled;
        const auto t = core::stepTime(s, gpu, in);
        const double tokensPerGpu = t.tokensPerStep / static_cast<double>(row.gpus);
        EXPECT_NEAR(tokensPerGpu / t.matmulSeconds, row.mfu * 989e12 / kRecomputedFlopsPerToken, 1.0) << row.gpus;
        EXPECT_EQ(t.exposedCommSeconds, 0.0) << row.gpus << " GPUs";
        EXPECT_LT(t.memoryFloorSeconds, t.computeSeconds);
        // A published MFU is end to end: the element-wise kernels and the optimizer step are inside it, and the time
        // model adds them again at the card's bandwidth, so at that figure it is slower than measured.
        EXPECT_LT(t.tokensPerSecond / static_cast<double>(row.gpus), row.tokensPerSecondPerGpu) << row.gpus;
        // At the card's own figure (LLM Foundry's HFU, 54%, measured on MPT) it is 13% to 23% faster than torchtitan
        // measured: within the 25% stated here (docs/planning.md, "Step time").
        const auto atCatalog = core::stepTime(s, gpu, core::PlanInputs{});
        const double perGpu = atCatalog.tokensPerSecond / static_cast<double>(row.gpus);
        EXPECT_NEAR(perGpu / row.tokensPerSecondPerGpu, 1.0, 0.25)
            << row.gpus << " GPUs" << (row.compiled ? " compiled" : " eager") << ": " << perGpu << " vs "
            << row.tokensPerSecondPerGpu;
    }
}

TEST(Planning, ActivationOffloadCopiesTheOffloadedLayersOverPcieEachStep) {
    // Llama-3.1-8B fully fine-tuned with full checkpointing on 65,536 tokens: the checkpointed inputs of 30 of its 32
    // layers wait in host memory (two stay: the one in use and the one in flight), 30 x 65,536 x 4096 x 2 B =
    // 16,106,127,360 B, out in forward and back in backward over the H100's PCIe 5.0 x16 link (31.5 GB/s x 2 at the
    // catalog's 70% efficiency): 2 x 16,106,127,360 / 44.1e9 s, of which compute hides nothing when overlap is 0.
    core::Scenario s = fixtures::checkpointedFullRun(fixtures::llama31_8b(), 65536);
    s.loss = core::Loss::FusedLinear;
    s.activationOffload = true;
    const auto e = core::estimate(s);
    EXPECT_EQ(e.activationOffloadBytes, 30LL * 65536 * 4096 * 2);
    const auto& h100 = *catalog().findGpu("h100-sxm");
    ASSERT_EQ(h100.pcieGen, 5);
    ASSERT_EQ(h100.pcieLanes, 16);
    core::PlanInputs in;
    in.cluster.overlap = 0.0;
    in.cluster.pcieEfficiency = 0.70;
    core::Scenario without = s;
    without.activationOffload = false;
    const double copies = 2.0 * 16'106'127'360.0 / (63.0 * 0.70 * 1e9);
    const auto with = core::stepTime(s, h100, in);
    EXPECT_NEAR(with.offloadSeconds, copies, 1e-9);
    EXPECT_NEAR(with.stepSeconds - core::stepTime(without, h100, in).stepSeconds, copies, 1e-6);
}

// PEFT's LoRA modules run element-wise kernels around their matmuls (tuners/lora/layer.py Linear.forward): the input
// cast to the adapter dtype, dropout, lora_B(...) * scaling, the add to the base result (promoted to the wider dtype)
// and the cast back. Llama-2-7B, LoRA on q and v (in = out = 4096, 32 layers: 64 modules), bf16 model, per token
// in one forward:
//   fp32 adapters, no dropout: cast (2 + 4) x 4096 + scaling 2 x 4 x 4096 + add (2 + 4 + 4) x 4096
//                              + cast back (4 + 2) x 4096 = 30 x 4096 = 122,880 per module; x 64 = 7,864,320
//   with dropout 0.1: + (2 x 4 + 1) x 4096 = 36,864 per module; x 64 = 10,223,616
//   bf16 adapters, no dropout: scaling 2 x 2 x 4096 + add 3 x 2 x 4096 = 40,960 per module; x 64 = 2,621,440
// A step reads and writes that in forward, the recomputed forward and a backward of about twice: with full
// checkpointing 4 x, at the card's HBM bandwidth.
TEST(Planning, LorasElementwiseKernelsAreTimedAtTheCardsBandwidth) {
    core::Scenario s = fixtures::lora7b();
    s.lora.dtype = core::AdapterDtype::Fp32;
    s.lora.dropout = 0.0;
    EXPECT_DOUBLE_EQ(core::adapterElementwiseBytesPerToken(s), 7'864'320.0);
    s.lora.dropout = 0.1;
    EXPECT_DOUBLE_EQ(core::adapterElementwiseBytesPerToken(s), 10'223'616.0);
    s.lora.dropout = 0.0;
    s.lora.dtype = core::AdapterDtype::Bf16;
    EXPECT_DOUBLE_EQ(core::adapterElementwiseBytesPerToken(s), 2'621'440.0);
    s.method = core::Method::Full;
    EXPECT_DOUBLE_EQ(core::adapterElementwiseBytesPerToken(s), 0.0);

    s = fixtures::lora7b(); // full checkpointing
    s.lora.dtype = core::AdapterDtype::Fp32;
    s.lora.dropout = 0.0;
    s.microBatch = 4;
    s.seqLen = 2048;
    const auto& gpu = *catalog().findGpu("h100-sxm");
    const core::StepTime t = core::stepTime(s, gpu, core::PlanInputs{});
    // 7,864,320 B x 8,192 tokens x 4 passes / (bandwidth x 1e12)
    EXPECT_NEAR(t.adapterElementwiseSeconds, 7'864'320.0 * 8192.0 * 4.0 / (gpu.bandwidthTBs * 1e12), 1e-12);
    EXPECT_GT(t.computeSeconds, t.adapterElementwiseSeconds);
}

// Eager attention (transformers eager_attention_forward) passes over every head's whole s x s score matrix with
// element-wise kernels, timed at the card's HBM bandwidth. Per score element in bf16 (c = 2): forward scaling 2c, mask
// add 3c, fp32 softmax c + 4, cast back 4 + c = 7c + 8 = 22 B; backward cast c + 4, softmax 8 + c, scaling 2c =
// 4c + 12 = 20 B. Llama-2-7B (32 layers, 32 heads) at 2,048 tokens: 32 x 32 x 2,048 = 2,097,152 elements per token,
// 46,137,344 B forward and 41,943,040 B backward. Full fine-tuning with full checkpointing runs the forward twice:
// 2 x 46,137,344 + 41,943,040 = 134,217,728 B per token, x 2,048 tokens.
TEST(Planning, EagerAttentionsPassesOverTheScoresAreTimedAtTheCardsBandwidth) {
    core::Scenario s = fixtures::lora7b();
    s.method = core::Method::Full;
    s.microBatch = 1;
    s.seqLen = 2048;
    s.attention = core::Attention::Eager;
    const core::EagerAttentionBytes bytes = core::eagerAttentionBytesPerToken(s);
    EXPECT_DOUBLE_EQ(bytes.forward, 46'137'344.0);
    EXPECT_DOUBLE_EQ(bytes.backward, 41'943'040.0);
    const auto& gpu = *catalog().findGpu("h100-sxm");
    const core::StepTime eager = core::stepTime(s, gpu, core::PlanInputs{});
    EXPECT_NEAR(eager.eagerAttentionSeconds, 134'217'728.0 * 2048.0 / (gpu.bandwidthTBs * 1e12), 1e-12);
    s.attention = core::Attention::Sdpa; // the same matmuls; SDPA's kernel keeps the scores on chip
    const core::StepTime sdpa = core::stepTime(s, gpu, core::PlanInputs{});
    EXPECT_EQ(sdpa.eagerAttentionSeconds, 0.0);
    EXPECT_NEAR(eager.computeSeconds - sdpa.computeSeconds, eager.eagerAttentionSeconds, 1e-12);
}
