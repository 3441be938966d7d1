#include "gpusizer/core/FrameworkProfile.h"

namespace gpusizer::core {

std::span<const BoolBehaviour> boolBehaviours() {
    using O = ProfileOverrides;
    using P = FrameworkProfile;
    static constexpr BoolBehaviour kAll[] = {
        {"loss_upcasts_logits", &O::lossUpcastsLogits, &P::lossUpcastsLogits},
        {"chunked_loss_projects_per_chunk", &O::chunkedLossProjectsPerChunk, &P::chunkedLossProjectsPerChunk},
        {"sdpa_expands_kv", &O::sdpaExpandsKv, &P::sdpaExpandsKv},
        {"quantizes_only_adapted_linears", &O::quantizesOnlyAdaptedLinears, &P::quantizesOnlyAdaptedLinears},
        {"kbit_upcasts_non_quantized", &O::kbitUpcastsNonQuantized, &P::kbitUpcastsNonQuantized},
        {"quantized_matmul_saves_input", &O::quantizedMatmulSavesInput, &P::quantizedMatmulSavesInput},
        {"adapters_in_fp32", &O::adaptersInFp32, &P::adaptersInFp32},
        {"lora_shares_qkv_dropout", &O::loraSharesQkvDropout, &P::loraSharesQkvDropout},
        {"selective_recomputes_elementwise", &O::selectiveRecomputesElementwise, &P::selectiveRecomputesElementwise},
        {"gradients_freed_after_step", &O::gradientsFreedAfterStep, &P::gradientsFreedAfterStep},
        {"fsdp_flat_param_gradients", &O::fsdpFlatParamGradients, &P::fsdpFlatParamGradients},
    };
    return kAll;
}

bool ProfileOverrides::any() const {
    for (const auto& b : boolBehaviours()) {
        if (this->*b.override) {
            return true;
        }
    }
    return lossChunks || optimizerStep;
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
    for (const auto& b : boolBehaviours()) {
        p.*b.value = (o.*b.override).value_or(p.*b.value);
    }
    p.lossChunks = o.lossChunks.value_or(p.lossChunks);
    p.optimizerStep = o.optimizerStep.value_or(p.optimizerStep);
    return p;
}

} // namespace gpusizer::core
