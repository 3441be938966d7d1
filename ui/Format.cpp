#include "Format.h"

#include "gpusizer/present/Format.h"
#include "gpusizer/scenario/Units.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QLocale>
#include <cmath>

namespace gpusizer::ui {

// The numbers are present's (the CLI and the report print the same digits); only the layout is Qt's.
QString formatGiB(std::int64_t bytes) {
    return QString::fromStdString(present::gib(bytes));
}

QString formatParams(std::int64_t params) {
    return QString::fromStdString(present::params(params));
}

QString formatCount(std::int64_t value) {
    return QString::fromStdString(present::count(value));
}

QString formatPercent(double share) {
    return QString::fromStdString(present::percent(share));
}

QString shortGpuName(const core::GpuSpec& gpu) {
    return QString::fromStdString(gpu.name).remove(QStringLiteral("GeForce "));
}

QString componentName(core::Component c) {
    switch (c) {
    case core::Component::Weights:
        return QCoreApplication::translate("Format", "Weights");
    case core::Component::Gradients:
        return QCoreApplication::translate("Format", "Gradients");
    case core::Component::OptimizerStates:
        return QCoreApplication::translate("Format", "Optimizer states");
    case core::Component::Activations:
        return QCoreApplication::translate("Format", "Activations");
    case core::Component::LogitsLoss:
        return QCoreApplication::translate("Format", "Logits & loss");
    case core::Component::Transient:
        return QCoreApplication::translate("Format", "Transient");
    case core::Component::Generation:
        return QCoreApplication::translate("Format", "Generation");
    case core::Component::Overhead:
        return QCoreApplication::translate("Format", "Overhead");
    }
    return {};
}

QString componentDescription(core::Component c) {
    switch (c) {
    case core::Component::Weights:
        return QCoreApplication::translate("Format", "Model parameters as stored on the GPU (16/32-bit or quantized).");
    case core::Component::Gradients:
        return QCoreApplication::translate("Format", "One gradient per trainable parameter, alive at the peak moment.");
    case core::Component::OptimizerStates:
        return QCoreApplication::translate("Format",
                                           "Optimizer moments plus fp32 master weights where the recipe keeps them.");
    case core::Component::Activations:
        return QCoreApplication::translate("Format",
                                           "Tensors saved for backward; grow with batch × sequence × layers.");
    case core::Component::LogitsLoss:
        return QCoreApplication::translate("Format",
                                           "Batch × sequence × vocabulary logits, their fp32 upcast and gradient.");
    case core::Component::Transient:
        return QCoreApplication::translate(
            "Format", "Short-lived buffers: gathered shards, dequantized weights, step temporaries.");
    case core::Component::Generation:
        return QCoreApplication::translate(
            "Format", "GRPO's generation on the training GPUs: vLLM's share of memory (colocate), or transformers' KV "
                      "cache.");
    case core::Component::Overhead:
        return QCoreApplication::translate("Format", "CUDA context, allocator reserve and communication buffers.");
    }
    return {};
}

QColor componentColor(core::Component c) {
    switch (c) {
    case core::Component::Weights:
        return QColor(0x4e, 0x79, 0xa7);
    case core::Component::Gradients:
        return QColor(0xf2, 0x8e, 0x2b);
    case core::Component::OptimizerStates:
        return QColor(0xe1, 0x57, 0x59);
    case core::Component::Activations:
        return QColor(0x76, 0xb7, 0xb2);
    case core::Component::LogitsLoss:
        return QColor(0x59, 0xa1, 0x4f);
    case core::Component::Transient:
        return QColor(0xed, 0xc9, 0x48);
    case core::Component::Generation:
        return QColor(0xff, 0x9d, 0xa7);
    case core::Component::Overhead:
        return QColor(0xb0, 0x7a, 0xa1);
    }
    return Qt::gray;
}

namespace {

double luminance(const QColor& c) {
    const auto channel = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

QColor mixed(const QColor& a, const QColor& b, double shareOfA) {
    return QColor::fromRgbF(static_cast<float>(a.redF() * shareOfA + b.redF() * (1 - shareOfA)),
                            static_cast<float>(a.greenF() * shareOfA + b.greenF() * (1 - shareOfA)),
                            static_cast<float>(a.blueF() * shareOfA + b.blueF() * (1 - shareOfA)));
}

} // namespace

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor mutedTextColor(const QPalette& palette) {
    const QColor text = palette.color(QPalette::Text);
    const QColor base = palette.color(QPalette::Base);
    const QColor alternate = palette.color(QPalette::AlternateBase);
    for (double share = 0.5; share < 1.0; share += 0.05) {
        const QColor c = mixed(text, base, share);
        if (contrastRatio(c, base) >= 4.6 && contrastRatio(c, alternate) >= 4.6) {
            return c;
        }
    }
    return text;
}

} // namespace gpusizer::ui
