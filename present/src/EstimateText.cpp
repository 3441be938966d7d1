#include "gpusizer/present/EstimateText.h"

#include "gpusizer/present/Format.h"
#include "gpusizer/present/Names.h"
#include "gpusizer/scenario/Units.h"

namespace gpusizer::present {

Table componentTable(const core::Estimate& e) {
    Table t;
    t.columns = {{msg(QT_TRANSLATE_NOOP("gpusizer", "Component"))},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "Key"))},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "GiB per GPU")), Align::Right},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "Share")), Align::Right},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "What it holds"))}};
    const double device = static_cast<double>(e.deviceBytes);
    auto share = [&](std::int64_t bytes) { return device > 0 ? static_cast<double>(bytes) / device : 0.0; };
    for (core::Component c : core::kAllComponents) {
        if (!core::componentShown(e, c)) {
            continue;
        }
        t.add({Cell::of(componentName(c)).withTooltip(componentDescription(c)),
               Cell::of(verbatim(core::componentKey(c))), Cell::bytes(e.perGpu[c]), Cell::percent(share(e.perGpu[c])),
               Cell::of(componentDescription(c))},
              core::componentKey(c));
    }
    const Message totalTip = msg(QT_TRANSLATE_NOOP("gpusizer", "What nvidia-smi shows on each GPU at the peak."));
    auto total = t.add({Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "Total per GPU (device)"))).withTooltip(totalTip),
                        Cell::of(verbatim("device")), Cell::bytes(e.deviceBytes), Cell::percent(1.0),
                        Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "Expected range %1 – %2"), gib(e.bandLowBytes),
                                     gib(e.bandHighBytes)))},
                       "total");
    for (auto& cell : t.rows[total]) {
        cell.bold();
    }
    return t;
}

Message runLabel(const core::Measurement& m) {
    return m.cpuRun() ? msg(QT_TRANSLATE_NOOP("gpusizer", "CPU smoke run")) : verbatim(m.gpuName);
}

namespace {

Message figureName(const std::string& what) {
    if (what == "allocated") {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "allocated peak (torch)"));
    }
    if (what == "reserved") {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "reserved peak (torch)"));
    }
    if (what == "device") {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "device (nvidia-smi)"));
    }
    if (what == "step_seconds") {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "step time"));
    }
    return verbatim(what);
}

Cell figure(const std::string& what, double value) {
    // Memory figures arrive in GiB, step times in seconds.
    return what == "step_seconds" ? Cell::seconds(value) : Cell::bytes(static_cast<std::int64_t>(value * core::kGiB));
}

} // namespace

Table measuredTable(const std::vector<MeasuredRun>& runs) {
    Table t;
    t.columns = {{msg(QT_TRANSLATE_NOOP("gpusizer", "Run"))},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "Figure"))},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "Estimated")), Align::Right},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "Measured")), Align::Right},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "Error")), Align::Right}};
    for (const auto& run : runs) {
        for (const auto& row : run.comparison.rows) {
            t.add({Cell::of(run.label), Cell::of(figureName(row.what)), figure(row.what, row.estimated),
                   row.available ? figure(row.what, row.measured)
                                 : Cell::label(msg(QT_TRANSLATE_NOOP("gpusizer", "not measured")), 0),
                   row.available ? Cell::signedPercent(row.errorShare) : Cell{}},
                  row.what);
        }
    }
    return t;
}

} // namespace gpusizer::present
