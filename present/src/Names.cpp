#include "gpusizer/present/Names.h"

namespace gpusizer::present {

Message componentName(core::Component c) {
    switch (c) {
    case core::Component::Weights:
        return msg(GPUSIZER_MSG("Weights"));
    case core::Component::Gradients:
        return msg(GPUSIZER_MSG("Gradients"));
    case core::Component::OptimizerStates:
        return msg(GPUSIZER_MSG("Optimizer states"));
    case core::Component::Activations:
        return msg(GPUSIZER_MSG("Activations"));
    case core::Component::LogitsLoss:
        return msg(GPUSIZER_MSG("Logits & loss"));
    case core::Component::Transient:
        return msg(GPUSIZER_MSG("Transient"));
    case core::Component::Overhead:
        return msg(GPUSIZER_MSG("Overhead"));
    }
    return {};
}

Message componentDescription(core::Component c) {
    switch (c) {
    case core::Component::Weights:
        return msg(GPUSIZER_MSG("Model parameters as stored on the GPU (16/32-bit or quantized)."));
    case core::Component::Gradients:
        return msg(GPUSIZER_MSG("One gradient per trainable parameter, alive at the peak moment."));
    case core::Component::OptimizerStates:
        return msg(GPUSIZER_MSG("Optimizer moments plus fp32 master weights where the recipe keeps them."));
    case core::Component::Activations:
        return msg(GPUSIZER_MSG("Tensors saved for backward; grow with batch × sequence × layers."));
    case core::Component::LogitsLoss:
        return msg(GPUSIZER_MSG("Batch × sequence × vocabulary logits, their fp32 upcast and gradient."));
    case core::Component::Transient:
        return msg(GPUSIZER_MSG("Short-lived buffers: gathered shards, dequantized weights, step temporaries."));
    case core::Component::Overhead:
        return msg(GPUSIZER_MSG("CUDA context, allocator reserve and communication buffers."));
    }
    return {};
}

} // namespace gpusizer::present
