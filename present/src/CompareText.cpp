#include "gpusizer/present/CompareText.h"

#include "gpusizer/present/AdviceText.h"
#include "gpusizer/present/Names.h"
#include "gpusizer/present/PlanText.h"

namespace gpusizer::present {

Message variantLabel(const core::Variant& v, CompareAxis axis) {
    switch (axis) {
    case CompareAxis::Methods:
        return label(v.scenario.method);
    case CompareAxis::Optimizers:
        return label(v.scenario.optimizer);
    case CompareAxis::Precisions:
        return label(v.scenario.precision);
    }
    return {};
}

namespace {

/// A precision recipe in as few characters as a bar's label holds (the table beside the chart has the full words).
const char* shortPrecision(core::Precision p) {
    switch (p) {
    case core::Precision::Fp32:
        return "fp32";
    case core::Precision::AmpBf16:
        return "AMP bf16";
    case core::Precision::AmpFp16:
        return "AMP fp16";
    case core::Precision::Bf16Fp32Master:
        return "bf16+fp32";
    case core::Precision::Fp16Fp32Master:
        return "fp16+fp32";
    case core::Precision::Bf16:
        return "bf16";
    case core::Precision::Fp16:
        return "fp16";
    case core::Precision::FsdpMixedBf16:
        return "FSDP bf16";
    case core::Precision::Bf16Bf16Master:
        return "bf16+bf16";
    }
    return "";
}

} // namespace

Message variantChartLabel(const core::Variant& v, CompareAxis axis) {
    if (axis == CompareAxis::Methods && v.scenario.method == core::Method::Full) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Full"));
    }
    if (axis == CompareAxis::Precisions) {
        return verbatim(shortPrecision(v.scenario.precision)); // technical names, the same in every language
    }
    return variantLabel(v, axis);
}

Table compareTable(const std::vector<core::Variant>& variants, CompareAxis axis, bool compactHeaders) {
    Table t;
    for (const auto& v : variants) {
        if (compactHeaders) {
            t.columns.emplace_back(variantChartLabel(v, axis), Align::Right, variantLabel(v, axis));
        } else {
            t.columns.emplace_back(variantLabel(v, axis), Align::Right);
        }
    }
    const auto row = [&](Message header, const std::string& key, auto cellOf) {
        std::vector<Cell> cells;
        for (const auto& v : variants) {
            cells.push_back(cellOf(v));
        }
        t.add(std::move(cells), key);
        t.rowHeaders.push_back(std::move(header));
    };
    for (core::Component c : core::kAllComponents) {
        if (std::none_of(variants.begin(), variants.end(),
                         [c](const core::Variant& v) { return core::componentShown(v.estimate, c); })) {
            continue;
        }
        row(componentName(c), core::componentKey(c),
            [c](const core::Variant& v) { return Cell::bytes(v.estimate.perGpu[c]); });
    }
    row(msg(QT_TRANSLATE_NOOP("gpusizer", "Total per GPU (device)")), "device",
        [](const core::Variant& v) { return Cell::bytes(v.estimate.deviceBytes).bold(); });
    row(msg(QT_TRANSLATE_NOOP("gpusizer", "Allocated peak (torch)")), "allocated",
        [](const core::Variant& v) { return Cell::bytes(v.estimate.allocatedPeakBytes); });
    row(msg(QT_TRANSLATE_NOOP("gpusizer", "Trainable parameters")), "trainable",
        [](const core::Variant& v) { return Cell::params(v.estimate.trainableParams); });
    row(msg(QT_TRANSLATE_NOOP("gpusizer", "What to rent")), "cheapest", [](const core::Variant& v) {
        Cell c = Cell::of(sizingCell(v.cheapest, false));
        if (v.cheapest.gpu != nullptr) {
            c.withTooltip(joined(layoutParts(v.cheapest.layout)));
        }
        return c;
    });
    return t;
}

} // namespace gpusizer::present
