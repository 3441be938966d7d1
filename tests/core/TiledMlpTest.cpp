// DeepSpeed's TiledMLP as ArcticTraining uses it (tiled_mlp_compute; deepspeed/runtime/sequence_parallel/ulysses_sp.py
// TiledMLP @edaa7221), derived by hand on Llama-3.1-8B (h 4096, f 14336, 32 heads of 128, 8 kv heads, 32 layers),
// fully fine-tuned in bf16 with full checkpointing and Liger's fused loss (ArcticTraining's model.type "liger").
#include "TestModels.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Planning.h"

#include <gtest/gtest.h>

using namespace gpusizer;

namespace {

core::Scenario longSequence(bool tiled) {
    core::Scenario s = fixtures::checkpointedFullRun(fixtures::llama31_8b(), 131072);
    s.loss = core::Loss::FusedLinear;
    s.tiledMlp = tiled;
    return s;
}

constexpr double kH = 4096, kF = 14336, kTokens = 131072;

} // namespace

TEST(TiledMlp, TheMlpSavesOnlyItsInputAndOneTileLivesInBackward) {
    const auto plain = core::estimate(longSequence(false));
    const auto tiled = core::estimate(longSequence(true));
    // Untiled, the recomputed layer's MLP saves gate, up and act(gate) (3 x 2f), the input of gate/up (2h) and of
    // down (2f): 2h + 8f B per token. TiledMLP.forward saves x only (2h) and runs the tiles under no_grad.
    EXPECT_DOUBLE_EQ(plain.activationPerTokenLayer.mlp, 3.0 * 2.0 * kF);
    EXPECT_DOUBLE_EQ(tiled.activationPerTokenLayer.mlp, 2.0 * kH);
    // What stays with the attention half: the input of q/k/v (2h); o's input is a view of the attention output.
    EXPECT_DOUBLE_EQ(tiled.activationPerTokenLayer.linearInputs, 2.0 * kH);
    EXPECT_DOUBLE_EQ(plain.activationPerTokenLayer.linearInputs - tiled.activationPerTokenLayer.linearInputs,
                     2.0 * kH + 2.0 * kF);
    // Backward: num_shards = ceil(131072 / 4096) = 32 tiles of 4096 tokens, each recomputed with autograd (8f + 2h =
    // 122,880 B per token: 503,316,480 B), beside x_grad = zeros_like(x) for the whole input (2 x 4096 x 131072 =
    // 1,073,741,824 B).
    EXPECT_EQ(tiled.tiledMlpWorkingSetBytes, 503'316'480 + 1'073'741'824);
    EXPECT_EQ(plain.tiledMlpWorkingSetBytes, 0);
    // While the layer runs backward (docs/memory-model.md §6): the residual gradient (2h per token, both runs), then
    // the larger of two phases. The MLP's: untiled, down's input gradient and the gated product's two operand
    // gradients (3 x 2f) less down's freed input (2f): 4f = 57,344 B per token, 7,516,192,768 B at 131,072 tokens;
    // tiled, the tile and x_grad (1,577,058,304 B). The attention's, once the MLP's saved tensors are freed:
    // FlashAttention-2's dq 2 x 4096, dk and dv 2 x 2 x 1024, expanded to 32 heads 2 x 2 x 4096, fp32 dq_accum
    // 4 x 4096 and softmax_d 4 x 32, and dout 2 x 4096 = 53,376 B per token; untiled the MLP frees 8f + 2h = 122,880
    // B first, so it adds nothing; tiled it frees x only (8,192 B): 45,184 B per token, 5,922,357,248 B.
    EXPECT_EQ(plain.layerBackwardBytes, 1'073'741'824 + 7'516'192'768);
    EXPECT_EQ(tiled.layerBackwardBytes, 1'073'741'824 + 5'922'357'248);
    // At the recomputed layer: 8f B per token less (15,032,385,536 B) and the backward phase's difference.
    ASSERT_EQ(plain.peakMoment, core::PeakMoment::LastLayerRecompute);
    ASSERT_EQ(tiled.peakMoment, core::PeakMoment::LastLayerRecompute);
    EXPECT_EQ(plain.allocatedPeakBytes - tiled.allocatedPeakBytes,
              static_cast<std::int64_t>(kTokens * 8.0 * kF) + 7'516'192'768 - 5'922'357'248);
}

TEST(TiledMlp, TilesFollowTheSequenceEachRankHoldsAndTheMlpRunsForwardOnceMore) {
    // Ulysses over 2 ranks: each rank's layers see 131072 of the 262144 tokens, so the tiles are the same as above.
    auto split = longSequence(true);
    split.seqLen = 262144;
    split.gpus = 2;
    split.sharding = core::Sharding::Zero3;
    split.contextParallel = 2;
    split.contextParallelKind = core::ContextParallel::Ulysses;
    ASSERT_TRUE(core::validate(split).has_value());
    EXPECT_EQ(core::estimate(split).tiledMlpWorkingSetBytes, 503'316'480 + 1'073'741'824);
    // A 1,000-token sequence is one tile: 1,000 x 122,880 B + x_grad 2 x 4096 x 1000.
    auto shortSeq = longSequence(true);
    shortSeq.seqLen = 1000;
    EXPECT_EQ(core::estimate(shortSeq).tiledMlpWorkingSetBytes, 1000 * 122'880 + 2 * 4096 * 1000);
    // Backward recomputes every tile's forward: 2 FLOPs x 32 layers x 3 x 4096 x 14336 weights more per token.
    EXPECT_DOUBLE_EQ(core::trainingFlopsPerToken(longSequence(true)) - core::trainingFlopsPerToken(longSequence(false)),
                     2.0 * 32 * 3 * kH * kF);
    // A routed MoE block is not the MLP TiledMLP replaces.
    auto moe = longSequence(true);
    moe.model.moe.numExperts = 8;
    moe.model.moe.expertsPerToken = 2;
    const auto r = core::validate(moe);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().where, "tiled_mlp");
}
