// What transformers 5.x and PEFT save that earlier releases did not, or saved differently (issue 30): the SDPA path's
// grouped key/value heads, o_proj's input, the first norm behind a frozen embedding, autocast's per-linear input
// casts and lm_head's gradient after the loss's backward. Expected values are derived by hand in each test.
#include "TestModels.h"
#include "gpusizer/memory/Estimate.h"

#include <gtest/gtest.h>

using namespace gpusizer;
using core::Component;

namespace {

// Llama-3.2-3B (h 3072, 24 heads, 8 key/value heads of 128), full fine-tuning in pure bf16, SDPA, no checkpointing.
core::Scenario llama32Full() {
    core::Scenario s;
    s.model = fixtures::llama32_3b();
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16;
    s.checkpointing = core::Checkpointing::None;
    s.attention = core::Attention::Sdpa;
    s.microBatch = 2;
    s.seqLen = 4096;
    return s;
}

double attentionPerToken(const core::Scenario& s) {
    return core::estimate(s).activationPerTokenLayer.attention;
}

} // namespace

// transformers integrations/sdpa_attention.py use_gqa_in_sdpa (@00c238bd): repeat_kv only when a mask is passed,
// otherwise enable_gqa=True and SDPA reads the 8 key/value heads as they are.
TEST(TodaysStack, SdpaRepeatsKeyValueHeadsOnlyWhenTheBatchCarriesAMask) {
    // Expanded: q, k, v and the output at 24 heads, 4 x 2 x 3072, + an fp32 logsumexp per head 4 x 24 = 24,672 B.
    // Grouped: q and the output 2 x 2 x 3072 + k and v 2 x 2 x 8 x 128 + 96 = 16,480 B.
    auto padded = llama32Full();
    EXPECT_DOUBLE_EQ(attentionPerToken(padded), 24'672);
    auto unpadded = padded;
    unpadded.paddedBatches = false;
    EXPECT_DOUBLE_EQ(attentionPerToken(unpadded), 16'480);
    // One sample per micro-batch has no padding: the all-ones mask is dropped (masking_utils.py
    // _ignore_causal_mask_sdpa), so the heads stay grouped.
    auto single = padded;
    single.microBatch = 1;
    EXPECT_DOUBLE_EQ(attentionPerToken(single), 16'480);
    // A sliding window no longer than the sequence needs a mask; a longer one does not.
    auto windowed = unpadded;
    windowed.model.slidingWindow = 4096;
    EXPECT_DOUBLE_EQ(attentionPerToken(windowed), 24'672);
    windowed.model.slidingWindow = 8192;
    EXPECT_DOUBLE_EQ(attentionPerToken(windowed), 16'480);
    // transformers before 4.54 (PR #39412) always repeated them.
    auto older = unpadded;
    older.transformersVersion = core::TransformersVersion::V446To448;
    EXPECT_DOUBLE_EQ(attentionPerToken(older), 24'672);
    // torchtitan's own attention code repeats them whatever the batch (the profile's sdpa_expands_kv).
    auto titan = unpadded;
    titan.framework = core::Framework::Torchtitan;
    EXPECT_DOUBLE_EQ(attentionPerToken(titan), 24'672);
}

// PeftModel.__init__ makes the embedding's output require grad only over a checkpointed model
// (_prepare_model_for_gradient_checkpointing, peft_model.py @5d602fdb). Without it the first layer's input norm has
// no input or weight that requires grad and saves nothing.
TEST(TodaysStack, TheFirstNormBehindAFrozenEmbeddingSavesNothing) {
    auto lora = llama32Full();
    lora.method = core::Method::Lora;
    lora.lora.targets = {core::LinearRole::Q, core::LinearRole::V};
    auto trainedEmbedding = lora;
    trainedEmbedding.lora.saveEmbedding = true;
    // The fp32 upcast RMSNorm saves: 4 B x 3072 per token, 2 x 4096 tokens = 100,663,296 B.
    EXPECT_EQ(core::estimate(trainedEmbedding).activationBytesAtLoss - core::estimate(lora).activationBytesAtLoss,
              100'663'296);
    // Checkpointed, the norm runs inside the first layer's recomputation with an input that requires grad.
    lora.checkpointing = core::Checkpointing::Full;
    trainedEmbedding.checkpointing = core::Checkpointing::Full;
    EXPECT_EQ(core::estimate(trainedEmbedding).activationBytesAtLoss, core::estimate(lora).activationBytesAtLoss);
}

// Autocast caches casts of weights only (autocast_mode.cpp cached_cast: leaf tensors that require grad), so q, k and v
// each cast the norm's fp32 output to bf16 and each matmul saves its own copy; gate and up likewise. o_proj and
// down read tensors that are already bf16.
TEST(TodaysStack, AutocastSavesOneInputCastPerLinearOverAnFp32Input) {
    auto amp = llama32Full();
    amp.precision = core::Precision::AmpBf16;
    // q, k, v 3 x 2 x 3072 + gate, up 2 x 2 x 3072 + down 2 x 8192 = 18,432 + 12,288 + 16,384 = 47,104 B.
    EXPECT_DOUBLE_EQ(core::estimate(amp).activationPerTokenLayer.linearInputs, 47'104);
    // Pure bf16: one tensor per input, 2 x 3072 + 2 x 3072 + 2 x 8192 = 28,672 B.
    EXPECT_DOUBLE_EQ(core::estimate(llama32Full()).activationPerTokenLayer.linearInputs, 28'672);
    // Compiled, Inductor computes the cast once.
    amp.compile = true;
    EXPECT_DOUBLE_EQ(core::estimate(amp).activationPerTokenLayer.linearInputs, 28'672);
}

// transformers' ForCausalLMLoss with the logits dropped before backward: the loss peaks at 12 B per logit element
// (the saved fp32 log-softmax output and two fp32 gradients); lm_head's gradient is computed after those are freed,
// beside the 16-bit logits gradient only. The peak is the loss's, with no gradient yet.
TEST(TodaysStack, LmHeadsGradientComesAfterTheLossHasFreedItsFp32Tensors) {
    const auto e = core::estimate(llama32Full());
    ASSERT_EQ(e.peakMoment, core::PeakMoment::ForwardEnd);
    // 12 B x 8192 tokens x 128,256 = 12,608,077,824 B; the head moment is 2 B x 8192 x 128,256 (logits gradient) +
    // 2 x 8192 x 3072 (its input's gradient) + 2 x 128,256 x 3072 (the tied weight's gradient) = 2,939,154,432 B.
    EXPECT_EQ(e.perGpu[Component::LogitsLoss], 12'608'077'824);
    EXPECT_EQ(e.perGpu[Component::Gradients], 0);
}
