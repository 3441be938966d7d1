#pragma once
// Internal: what each PEFT adapter kind adds to one adapted linear, shared by the estimator (parameters, states) and
// the time model (FLOPs). Sources: huggingface/peft @5d602fdb (docs/memory-model.md §4).

#include "gpusizer/scenario/FrameworkProfile.h"
#include "gpusizer/scenario/Scenario.h"

#include <algorithm>

namespace gpusizer::core::detail {

/// Bytes of a stored adapter parameter: the scenario's lora.dtype, or the framework's when auto (PEFT upcasts
/// adapters to fp32; torchtune and LitGPT keep the model dtype; fp32 models keep fp32).
inline double adapterStorageBytes(const Scenario& s, const FrameworkProfile& prof) {
    switch (s.lora.dtype) {
    case AdapterDtype::Fp32:
        return 4.0;
    case AdapterDtype::Bf16:
    case AdapterDtype::Fp16:
        return 2.0;
    case AdapterDtype::Auto:
        break;
    }
    return (prof.adaptersInFp32 || weightBytesPerParam(s.precision) == 4.0) ? 4.0 : 2.0;
}

/// Whether the kind puts adapters on linears (LayerNorm tuning trains copies of the norms instead).
inline bool adaptsLinears(AdapterKind kind) {
    return kind != AdapterKind::LnTuning;
}

/// IA3 scales the input of its feed-forward modules (down_proj in PEFT's Llama mapping,
/// TRANSFORMERS_MODELS_TO_IA3_FEEDFORWARD_MODULES_MAPPING) and the output of the others.
inline bool ia3ScalesInput(LinearRole role) {
    return role == LinearRole::Down;
}

/// One adapted linear of in -> out features.
struct AdapterOnLinear {
    double trainable = 0;      ///< parameters with gradients and optimizer states
    double frozen = 0;         ///< adapter parameters kept without gradients (LoRA-FA's lora_A)
    double largest = 0;        ///< the largest trainable tensor (elements)
    double adafactorElems = 0; ///< Adafactor state elements: a row and a column per matrix, vectors whole
    double flopsPerToken = 0;  ///< forward and backward FLOPs per token beyond the frozen base linear's
};

/// `secondBaseMatmul`: DoRA runs the frozen base matmul again on the dropped-out input (PEFT with dropout).
inline AdapterOnLinear adapterOnLinear(AdapterKind kind, LinearRole role, double r, double in, double out,
                                       bool secondBaseMatmul) {
    AdapterOnLinear a;
    switch (kind) {
    case AdapterKind::Lora:
        a = {.trainable = r * (in + out),
             .largest = std::max(r * in, r * out),
             .adafactorElems = in + out + 2.0 * r,
             .flopsPerToken = 6.0 * r * (in + out)};
        break;
    case AdapterKind::Dora:
        // lora_A, lora_B and lora_magnitude_vector (one value per output row, dora.py update_layer). With dropout
        // PEFT computes the base output again from the dropped-out input (variants.py DoraLinearVariant.forward
        // passes base_result=None; dora.py forward F.linear(x, weight)): one more frozen matmul, forward and input
        // gradient.
        a = {.trainable = r * (in + out) + out,
             .largest = std::max({r * in, r * out, out}),
             .adafactorElems = in + out + 2.0 * r + out,
             .flopsPerToken = 6.0 * r * (in + out) + (secondBaseMatmul ? 4.0 * in * out : 0.0)};
        break;
    case AdapterKind::LoraFa:
        // create_lorafa_optimizer sets requires_grad_(False) on every lora_A (optimizers/lorafa.py): A runs forward
        // and passes the input gradient; only B gets a weight gradient.
        a = {.trainable = r * out,
             .frozen = r * in,
             .largest = r * out,
             .adafactorElems = out + r,
             .flopsPerToken = 4.0 * r * in + 6.0 * r * out};
        break;
    case AdapterKind::Vera:
        // vera_lambda_d (r) and vera_lambda_b (out) train; the sliced shared vera_A / vera_B are frozen buffers
        // (vera/layer.py forward): both matmuls run forward and pass the input gradient only.
        a = {.trainable = r + out,
             .largest = std::max(r, out),
             .adafactorElems = r + out,
             .flopsPerToken = 4.0 * r * (in + out)};
        break;
    case AdapterKind::Ia3: {
        // ia3_l is (1, in) for feed-forward modules, (out, 1) for the others (ia3/layer.py update_layer); the
        // scaling is element-wise.
        const double width = ia3ScalesInput(role) ? in : out;
        a = {.trainable = width, .largest = width, .adafactorElems = width};
        break;
    }
    case AdapterKind::LnTuning:
        break;
    }
    return a;
}

} // namespace gpusizer::core::detail
