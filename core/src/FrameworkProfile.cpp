#include "gpusizer/core/FrameworkProfile.h"

namespace gpusizer::core {

FrameworkProfile profileFor(const Scenario& scenario) {
    FrameworkProfile p; // generic = Hugging Face transformers + PEFT + bitsandbytes, the most common stack
    switch (scenario.framework) {
    case Framework::Generic:
    case Framework::HfTrainer:
    case Framework::Axolotl:
        break;
    case Framework::Torchtune:
        // torchtune: NF4 via torchao on adapted linears only, adapters in the model dtype, fused AdamW in its configs.
        p.quantizesOnlyAdaptedLinears = true;
        p.kbitUpcastsNonQuantized = false;
        p.quantizedMatmulSavesInput = false;
        p.adaptersInFp32 = false;
        p.fusedOptimizerStep = true;
        break;
    case Framework::Torchtitan:
        p.adaptersInFp32 = false;
        p.fusedOptimizerStep = true;
        p.selectiveRecomputesElementwise = true;
        break;
    case Framework::Lightning:
        // LitGPT: its own GPT module, loss computed in the logits dtype (no fp32 upcast), adapters in the model dtype.
        p.lossUpcastsLogits = false;
        p.kbitUpcastsNonQuantized = false;
        p.adaptersInFp32 = false;
        break;
    case Framework::Deepspeed:
    case Framework::Megatron:
        p.fusedOptimizerStep = true; // FusedAdam / Megatron's distributed optimizer
        p.sdpaExpandsKv = false;
        break;
    case Framework::Unsloth:
        // Unsloth: fused cross-entropy kernel, no fp32 upcast of non-quantized weights, own GQA-aware kernels.
        p.lossUpcastsLogits = false;
        p.lossChunks = 16;
        p.sdpaExpandsKv = false;
        p.kbitUpcastsNonQuantized = false;
        p.adaptersInFp32 = false;
        break;
    }
    return p;
}

} // namespace gpusizer::core
