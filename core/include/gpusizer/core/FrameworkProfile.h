#pragma once

#include "gpusizer/core/Scenario.h"

namespace gpusizer::core {

/// Framework behaviours that change memory for the same scenario (see MEMORY-NOTES / docs/memory-model.md).
/// A profile is chosen from Scenario::framework; every field is visible in the estimate's assumptions.
struct FrameworkProfile {
    /// The loss upcasts 16-bit logits to fp32 before log-softmax (HF transformers, torchtune). LitGPT does not.
    bool lossUpcastsLogits = true;
    /// Chunks used by chunked / fused cross-entropy (torchtune CEWithChunkedOutputLoss uses 8).
    int lossChunks = 8;
    /// SDPA receives k/v expanded to all query heads (HF repeat_kv, torchtune); flash-attention keeps kv heads.
    bool sdpaExpandsKv = true;
    /// QLoRA quantizes only the LoRA-adapted linears (torchtune) instead of every decoder linear (bitsandbytes).
    bool quantizesOnlyAdaptedLinears = false;
    /// peft.prepare_model_for_kbit_training upcasts non-quantized parameters (embeddings, lm_head, norms) to fp32.
    bool kbitUpcastsNonQuantized = true;
    /// bitsandbytes MatMul4Bit saves its input for backward even when frozen; torchao NF4 does not.
    bool quantizedMatmulSavesInput = true;
    /// LoRA adapter dtype when the scenario says Auto: PEFT upcasts adapters to fp32; torchtune/LitGPT keep bf16.
    bool adaptersInFp32 = true;
    /// The optimizer step is fused (no foreach temporaries about the size of the parameters).
    bool fusedOptimizerStep = false;
    /// "Selective" checkpointing recomputes element-wise ops too (torchtitan op-level AC), not only the s² terms.
    bool selectiveRecomputesElementwise = false;
};

/// The profile for a scenario's framework.
FrameworkProfile profileFor(const Scenario& scenario);

} // namespace gpusizer::core
