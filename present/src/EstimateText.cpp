#include "gpusizer/present/EstimateText.h"

#include "gpusizer/core/Units.h"
#include "gpusizer/present/Format.h"
#include "gpusizer/present/Names.h"

namespace gpusizer::present {

Table componentTable(const core::Estimate& e) {
    Table t;
    t.columns = {{msg(GPUSIZER_MSG("Component"))},
                 {msg(GPUSIZER_MSG("Key"))},
                 {msg(GPUSIZER_MSG("GiB per GPU")), Align::Right},
                 {msg(GPUSIZER_MSG("Share")), Align::Right},
                 {msg(GPUSIZER_MSG("What it holds"))}};
    const double device = static_cast<double>(e.deviceBytes);
    auto share = [&](std::int64_t bytes) { return device > 0 ? static_cast<double>(bytes) / device : 0.0; };
    for (core::Component c : core::kAllComponents) {
        t.add({Cell::of(componentName(c)).withTooltip(componentDescription(c)),
               Cell::of(verbatim(core::componentKey(c))), Cell::bytes(e.perGpu[c]), Cell::percent(share(e.perGpu[c])),
               Cell::of(componentDescription(c))},
              core::componentKey(c));
    }
    const Message totalTip = msg(GPUSIZER_MSG("What nvidia-smi shows on each GPU at the peak."));
    auto total =
        t.add({Cell::of(msg(GPUSIZER_MSG("Total per GPU (device)"))).withTooltip(totalTip),
               Cell::of(verbatim("device")), Cell::bytes(e.deviceBytes), Cell::percent(1.0),
               Cell::of(msg(GPUSIZER_MSG("Expected range %1 – %2"), gib(e.bandLowBytes), gib(e.bandHighBytes)))},
              "total");
    for (auto& cell : t.rows[total]) {
        cell.bold();
    }
    return t;
}

Message runLabel(const core::Measurement& m) {
    return m.cpuRun() ? msg(GPUSIZER_MSG("CPU smoke run")) : verbatim(m.gpuName);
}

namespace {

Message figureName(const std::string& what) {
    if (what == "allocated") {
        return msg(GPUSIZER_MSG("allocated peak (torch)"));
    }
    if (what == "reserved") {
        return msg(GPUSIZER_MSG("reserved peak (torch)"));
    }
    if (what == "device") {
        return msg(GPUSIZER_MSG("device (nvidia-smi)"));
    }
    if (what == "step_seconds") {
        return msg(GPUSIZER_MSG("step time"));
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
    t.columns = {{msg(GPUSIZER_MSG("Run"))},
                 {msg(GPUSIZER_MSG("Figure"))},
                 {msg(GPUSIZER_MSG("Estimated")), Align::Right},
                 {msg(GPUSIZER_MSG("Measured")), Align::Right},
                 {msg(GPUSIZER_MSG("Error")), Align::Right}};
    for (const auto& run : runs) {
        for (const auto& row : run.comparison.rows) {
            t.add({Cell::of(run.label), Cell::of(figureName(row.what)), figure(row.what, row.estimated),
                   row.available ? figure(row.what, row.measured) : Cell::label(msg(GPUSIZER_MSG("not measured")), 0),
                   row.available ? Cell::signedPercent(row.errorShare) : Cell{}},
                  row.what);
        }
    }
    return t;
}

} // namespace gpusizer::present
