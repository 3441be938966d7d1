#include "gpusizer/core/FrameworkProfile.h"

namespace gpusizer::core {

bool ProfileOverrides::any() const {
    return lossUpcastsLogits || lossChunks || chunkedLossProjectsPerChunk || sdpaExpandsKv ||
           quantizesOnlyAdaptedLinears || kbitUpcastsNonQuantized || quantizedMatmulSavesInput || adaptersInFp32 ||
           optimizerStep || loraSharesQkvDropout || selectiveRecomputesElementwise || gradientsFreedAfterStep ||
           fsdpFlatParamGradients;
}

FrameworkProfile profileForFramework(Framework framework) {
    FrameworkProfile p; // generic = Hugging Face transformers + PEFT + bitsandbytes, the most common stack
    switch (framework) {
    case Framework::Generic:
    case Framework::HfTrainer:
    case Framework::Axolotl:
        break;
    case Framework::Torchtune:
        // torchtune: NF4 via torchao on every decoder linear (FrozenNF4Linear where no adapter, since PR #1119,
        // 2024-06-25; before it only adapted linears), adapters in the model dtype, fused AdamW in its configs.
        p.fsdpFlatParamGradients = false; // FSDP2: per-parameter sharding
        p.kbitUpcastsNonQuantized = false;
        p.quantizedMatmulSavesInput = false;
        p.adaptersInFp32 = false;
        p.optimizerStep = OptimizerStepKind::Fused;
        p.chunkedLossProjectsPerChunk = true; // TransformerDecoder.chunked_output
        break;
    case Framework::Torchtitan:
        p.adaptersInFp32 = false;
        p.optimizerStep = OptimizerStepKind::Fused;
        p.selectiveRecomputesElementwise = true;
        p.fsdpFlatParamGradients = false;
        break;
    case Framework::Lightning:
        // LitGPT: its own GPT module with a fused qkv projection, loss in the logits dtype, adapters in the model
        // dtype.
        p.lossUpcastsLogits = false;
        p.kbitUpcastsNonQuantized = false;
        p.adaptersInFp32 = false;
        p.loraSharesQkvDropout = true;
        break;
    case Framework::Deepspeed:
    case Framework::Megatron:
        p.optimizerStep = OptimizerStepKind::Fused; // FusedAdam / Megatron's distributed optimizer
        p.sdpaExpandsKv = false;
        p.fsdpFlatParamGradients = false;
        break;
    case Framework::Unsloth:
        // Unsloth: fused cross-entropy kernel, no fp32 upcast of non-quantized weights, its own GQA-aware kernels.
        p.lossUpcastsLogits = false;
        p.lossChunks = 16;
        p.sdpaExpandsKv = false;
        p.kbitUpcastsNonQuantized = false;
        p.adaptersInFp32 = false;
        break;
    }
    return p;
}

FrameworkProfile profileFor(const Scenario& scenario) {
    FrameworkProfile p = profileForFramework(scenario.framework);
    const ProfileOverrides& o = scenario.overrides;
    p.lossUpcastsLogits = o.lossUpcastsLogits.value_or(p.lossUpcastsLogits);
    p.lossChunks = o.lossChunks.value_or(p.lossChunks);
    p.chunkedLossProjectsPerChunk = o.chunkedLossProjectsPerChunk.value_or(p.chunkedLossProjectsPerChunk);
    p.sdpaExpandsKv = o.sdpaExpandsKv.value_or(p.sdpaExpandsKv);
    p.quantizesOnlyAdaptedLinears = o.quantizesOnlyAdaptedLinears.value_or(p.quantizesOnlyAdaptedLinears);
    p.kbitUpcastsNonQuantized = o.kbitUpcastsNonQuantized.value_or(p.kbitUpcastsNonQuantized);
    p.quantizedMatmulSavesInput = o.quantizedMatmulSavesInput.value_or(p.quantizedMatmulSavesInput);
    p.adaptersInFp32 = o.adaptersInFp32.value_or(p.adaptersInFp32);
    p.optimizerStep = o.optimizerStep.value_or(p.optimizerStep);
    p.loraSharesQkvDropout = o.loraSharesQkvDropout.value_or(p.loraSharesQkvDropout);
    p.selectiveRecomputesElementwise = o.selectiveRecomputesElementwise.value_or(p.selectiveRecomputesElementwise);
    p.gradientsFreedAfterStep = o.gradientsFreedAfterStep.value_or(p.gradientsFreedAfterStep);
    p.fsdpFlatParamGradients = o.fsdpFlatParamGradients.value_or(p.fsdpFlatParamGradients);
    return p;
}

} // namespace gpusizer::core
