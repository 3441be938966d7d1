#include "gpusizer/memory/Estimate.h"
#include "gpusizer/scenario/EnumNames.h"

// The names of the estimate's own enumerations: JSON keys and the words of the moments.

namespace gpusizer::core {

GPUSIZER_NAMES(PeakMoment, {PeakMoment::ForwardEnd, "forward_end"},
               {PeakMoment::LastLayerRecompute, "last_layer_recompute"}, {PeakMoment::BackwardEnd, "backward_end"},
               {PeakMoment::OptimizerStep, "optimizer_step"}, {PeakMoment::Generation, "generation"})
#undef GPUSIZER_NAMES

GPUSIZER_ENUM_API(PeakMoment)
#undef GPUSIZER_ENUM_API

const char* componentKey(Component c) {
    switch (c) {
    case Component::Weights:
        return "weights";
    case Component::Gradients:
        return "gradients";
    case Component::OptimizerStates:
        return "optimizer_states";
    case Component::Activations:
        return "activations";
    case Component::LogitsLoss:
        return "logits_loss";
    case Component::Transient:
        return "transient";
    case Component::Generation:
        return "generation";
    case Component::Overhead:
        return "overhead";
    }
    return "?";
}

Words label(PeakMoment v) {
    switch (v) {
    case PeakMoment::ForwardEnd:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "end of forward (the loss and its backward)"));
    case PeakMoment::LastLayerRecompute:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "last layer's recomputation"));
    case PeakMoment::BackwardEnd:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "end of backward"));
    case PeakMoment::OptimizerStep:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "optimizer step"));
    case PeakMoment::Generation:
        return Words(QT_TRANSLATE_NOOP("gpusizer", "generation (GRPO's completions)"));
    }
    return {};
}

} // namespace gpusizer::core
