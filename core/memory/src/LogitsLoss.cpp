// Stage 4: logits and loss.

#include "EstimatorStages.h"

#include <algorithm>
#include <cmath>

namespace gpusizer::core::detail {

namespace {

/// Bytes per logit element alive in a loss's forward and in its backward.
struct LossPeaks {
    double forward = 0;
    double backward = 0;
    double larger() const { return std::max(forward, backward); }
};

/// Bytes per logit element of a loss that upcasts the 16-bit logits to fp32 and runs cross-entropy on them, in its
/// forward and in its backward (docs/memory-model.md §5).
LossPeaks upcastLossPeaks(const Context& ctx) {
    const Scenario& s = ctx.s;
    const auto& prof = ctx.prof;
    const double c = ctx.c;
    if (c >= 4.0) {
        return {8.0, 12.0}; // fp32 logits, log-softmax output and two fp32 gradients in backward; no separate upcast
    }
    if (s.compile && prof.compileCoversLoss) {
        // Inductor's fused cross-entropy saves the 16-bit logits and a log-sum-exp per token and writes the gradient
        // in 16 bit: no fp32 tensor of logit size (torchtitan components/loss.py build_cross_entropy_loss).
        return {2.0 * c, 2.0 * c};
    }
    const double held = prof.logitsFreedBeforeBackward ? 0.0 : 1.0;
    // Forward: the 16-bit logits, their fp32 upcast and the fp32 log-softmax output (which cross_entropy saves).
    double forward = c + 4.0 + 4.0;
    // Backward: the saved log-softmax output, nll_loss's gradient and log_softmax's gradient, all fp32; the 16-bit
    // logits too when the loop still holds them.
    double backward = 12.0 + held * c;
    if (prof.lossFromTransformersModel) {
        switch (s.transformersVersion) {
        case TransformersVersion::Current:
        case TransformersVersion::V454To457:
        case TransformersVersion::V449To453:
            break; // ForCausalLMLoss pads the labels instead of slicing the logits (PR #35646)
        case TransformersVersion::V446To448:
            forward += 4.0; // ForCausalLMLoss: shift_logits = logits[..., :-1, :].contiguous(), an fp32 copy
            break;
        case TransformersVersion::UpTo445:
            // The model's forward returns logits.float() (the 16-bit ones freed), the loss slices a contiguous copy.
            forward = 4.0 + 4.0 + 4.0;
            backward = 12.0 + held * 4.0;
            break;
        }
    }
    return {forward, backward};
}

/// Liger's fused linear cross-entropy: grad_input (tokens x h) is allocated and filled in forward, chunk by chunk;
/// one chunk of logits (chunk_size = next_pow2(ceil(BT / ceil(V / H))) tokens) at a time, its gradient written in
/// place (fused_linear_cross_entropy.py, Liger PR #406 moved the upcast into the kernel).
LossBytes fusedLinearLoss(const Context& ctx, double tokens) {
    const Scenario& s = ctx.s;
    const double c = ctx.c;
    const double V = static_cast<double>(ctx.arch.vocabSize);
    const double h = static_cast<double>(ctx.arch.hiddenSize);
    LossBytes out;
    const double incFactor = std::ceil(V / h);
    const double chunkTokens = std::pow(2.0, std::ceil(std::log2(std::max(1.0, std::ceil(tokens / incFactor)))));
    out.total = c * h * tokens / ctx.tp + c * std::min(chunkTokens, tokens) * V / ctx.tp;
    // A trainable lm_head gets grad_weight = zeros_like(weight) in forward (fused_linear_cross_entropy.py L77);
    // with accumulation the weight's .grad from the previous micro-batch lives beside it.
    const bool headTrains = (ctx.full && !ctx.freezes()) || s.lora.saveLmHead;
    if (headTrains && s.gradientAccumulation > 1) {
        out.total += V * h * ctx.gatherB * ctx.modelShare;
    }
    out.perElement = 0;
    out.atHeadBackward = out.total;
    return out;
}

/// Apple CCE linear_cross_entropy: logits never stored; saves e (counted with the activations) and an fp32
/// log-sum-exp per token; backward allocates de (tokens x h) blockwise (cce.py, cce_backward.py).
LossBytes cutCrossEntropyLoss(const Context& ctx, double tokens) {
    LossBytes out;
    out.total = 4.0 * tokens + ctx.c * static_cast<double>(ctx.arch.hiddenSize) * tokens / ctx.tp;
    out.perElement = 0;
    out.atHeadBackward = out.total;
    return out;
}

/// Bytes per (token x vocabulary) element at the loss, for a loss that materializes the logits.
double materializedLossPerElement(const Context& ctx) {
    const Scenario& s = ctx.s;
    const auto& prof = ctx.prof;
    const double c = ctx.c;
    const double chunks = std::max(1, prof.lossChunks);
    double perElement = 0;
    if (prof.logprobsInPlace && s.loss == Loss::Standard) {
        return c; // the 16-bit logits, their gradient written over them (FrameworkProfile::logprobsInPlace)
    }
    if (prof.logprobsFromFp32Logits && s.loss == Loss::Standard) {
        // The fp32 logits the cross-entropy saves, its fp32 gradient and that gradient cast back to the compute dtype
        // (FrameworkProfile::logprobsFromFp32Logits); the 16-bit output is dropped once upcast.
        return 8.0 + c;
    }
    if (prof.logitsHeldInFp32) {
        // Lightning Fabric converts the output to fp32 and the loop holds it through backward; every chunk's
        // log-softmax output is saved; the backward of one chunk adds its two gradients (counted with
        // saved_tensors_hooks on LitGPT's chunked_cross_entropy; docs/memory-model.md §5).
        const double lb = 4.0;
        const double chunkShare = (s.loss == Loss::Chunked && prof.lossChunkTokens > 0)
                                      ? std::min(1.0, prof.lossChunkTokens * ctx.cp / static_cast<double>(s.seqLen))
                                      : (s.loss == Loss::Chunked ? 1.0 / chunks : 1.0);
        perElement = 2.0 * lb + 2.0 * lb * chunkShare;
    } else if (s.loss == Loss::Chunked) {
        if (s.compile || !prof.lossUpcastsLogits) {
            // Compiled (or 16-bit) chunked loss saves only the 16-bit logits. Compiled, inductor fuses the fp32
            // upcast into the loss kernels, so backward writes each chunk's gradient straight in 16-bit.
            perElement = c + c / chunks;
        } else {
            // Eager chunked loss: every chunk's fp32 log-softmax output is saved (4 B), the 16-bit logits are alive
            // while it runs, plus one chunk's fp32 upcast.
            perElement = c + 4.0 + 4.0 / chunks;
        }
    } else if (!prof.lossUpcastsLogits) {
        perElement = 3.0 * c; // logits, log-softmax output and gradient, all in the compute dtype
    } else {
        perElement = upcastLossPeaks(ctx).larger();
    }
    if (ctx.arch.finalLogitSoftcap > 0 && s.loss == Loss::Standard) {
        perElement += c; // Gemma-2 soft-capping: tanh saves its 16-bit output (modeling_gemma2.py)
    }
    if ((s.runKind == RunKind::Orpo || s.runKind == RunKind::Simpo) && s.loss == Loss::Standard) {
        // ORPO's NLL on the chosen half (always; CPO's with cpo_alpha, 1.0 by default): a contiguous copy of the
        // chosen logits and the fp32 log-softmax cross_entropy saves, 8 B per chosen element, 4 B over the pair
        // (orpo_trainer.py L782-803, cpo_trainer.py L841-844 @f2cd5771).
        perElement += 4.0;
    }
    return perElement;
}

} // namespace

LossBytes lossBytes(const Context& ctx, double tokens) {
    const Scenario& s = ctx.s;
    const auto& prof = ctx.prof;
    if (!ctx.arch.causalLmHead) {
        return {};
    }
    switch (s.loss) {
    case Loss::FusedLinear:
        return fusedLinearLoss(ctx, tokens);
    case Loss::CutCrossEntropy:
        return cutCrossEntropyLoss(ctx, tokens);
    case Loss::Standard:
    case Loss::Chunked:
        break;
    }
    const double c = ctx.c;
    const double elements = tokens * static_cast<double>(ctx.arch.vocabSize) / ctx.tp;
    LossBytes out;
    out.perElement = materializedLossPerElement(ctx);
    out.total = out.perElement * elements;
    out.atHeadBackward = out.total;
    const bool logitsInComputeDtype =
        !(prof.lossFromTransformersModel && s.transformersVersion == TransformersVersion::UpTo445);
    if (s.loss == Loss::Standard && !prof.logitsHeldInFp32 && logitsInComputeDtype) {
        const double held = prof.logitsFreedBeforeBackward ? 0.0 : 1.0;
        const double h = static_cast<double>(ctx.arch.hiddenSize);
        out.atHeadBackward = std::min(out.total, (1.0 + held) * c * elements + c * tokens * h / ctx.tp);
    }
    out.forwardPeak = out.total;
    if (s.loss == Loss::Standard && prof.logitsHeldThroughStep) {
        // The logits of the output the loop keeps: 16-bit, or fp32 where transformers 4.45 and older returned
        // logits.float(). The previous step's are freed when the next forward returns, so they meet the loss's forward
        // only, not its backward.
        out.heldThroughStep = (logitsInComputeDtype ? c : 4.0) * elements;
        if (prof.lossUpcastsLogits && !prof.logitsHeldInFp32 && !prof.logprobsInPlace && !prof.logprobsFromFp32Logits) {
            out.forwardPeak = std::min(out.total, upcastLossPeaks(ctx).forward * elements);
        }
    }
    return out;
}

} // namespace gpusizer::core::detail
