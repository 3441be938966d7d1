#include "BreakdownView.h"

#include "../Format.h"
#include "../Present.h"
#include "../ScenarioController.h"
#include "../charts/BreakdownChartView.h"
#include "gpusizer/core/Measurement.h"
#include "gpusizer/present/EstimateText.h"
#include "gpusizer/present/Names.h"

#include <QtCore/QCoreApplication>
#include <QtGui/QFont>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

namespace gpusizer::ui {

ComponentTableModel::ComponentTableModel(QObject* parent) : TableModel(parent) {
    setDecoration([](const std::string& key) -> QVariant {
        for (core::Component c : core::kAllComponents) {
            if (key == core::componentKey(c)) {
                return componentColor(c);
            }
        }
        return {};
    });
    setEstimate(core::Estimate{}); // the columns exist before the first estimate (views size them)
}

void ComponentTableModel::setEstimate(const core::Estimate& estimate) {
    using namespace present;
    setTable(componentTable(estimate).select({CompName, CompBytes, CompShare}));
}

std::vector<CapacityLine> capacityLines(const core::Catalog& catalog, const std::string& gpuId, std::size_t count) {
    std::vector<CapacityLine> lines;
    auto add = [&](const std::string& id) {
        const auto* g = catalog.findGpu(id);
        if (g != nullptr && lines.size() < count) {
            lines.push_back({QCoreApplication::translate("BreakdownView", "%1 (%2 GiB)")
                                 .arg(shortGpuName(*g))
                                 .arg(g->memoryGiBUsable),
                             g->usableBytes()});
        }
    };
    add(gpuId);
    for (const char* id : {"rtx-4090", "l40s", "h100-sxm", "h200"}) {
        if (id != gpuId) {
            add(id);
        }
    }
    return lines;
}

BreakdownView::BreakdownView(ScenarioController& controller, QWidget* parent) : LiveView(controller, parent) {
    setObjectName(QStringLiteral("breakdownView"));
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout();
    m_chart = new BreakdownChartView(this);
    top->addWidget(m_chart, 3);
    auto* side = new QVBoxLayout();
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    side->addWidget(m_summary);
    m_model = new ComponentTableModel(this);
    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(ComponentTableModel::Name, QHeaderView::Stretch);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setWordWrap(false);
    m_table->setAccessibleName(tr("Memory components per GPU"));
    side->addWidget(m_table, 1);
    top->addLayout(side, 2);
    layout->addLayout(top, 1);
    m_notes = new QLabel(this);
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_notes);
}

QString BreakdownView::summaryText() const {
    return m_summary->text();
}

void BreakdownView::refresh() {
    const auto& s = controller().scenario();
    const auto& e = controller().estimate();
    m_chart->setBars(
        {{s.gpus > 1 ? tr("Each of %1 GPUs").arg(s.gpus) : tr("Per GPU"), e.perGpu, e.bandLowBytes, e.bandHighBytes}},
        capacityLines(controller().catalog(), s.gpuId, 1));
    m_model->setEstimate(e);
    m_table->resizeColumnToContents(ComponentTableModel::GiBPerGpu);
    m_table->resizeColumnToContents(ComponentTableModel::Share);
    m_summary->setText(
        tr("<b>%1 per GPU</b> on the device (nvidia-smi), expected %2 – %3.<br>"
           "Allocated peak (torch.cuda.max_memory_allocated): %4 · reserved (max_memory_reserved): %5.<br>"
           "Peak moment: %6 · %7 parameters, %8 trainable.")
            .arg(formatGiB(e.deviceBytes), formatGiB(e.bandLowBytes), formatGiB(e.bandHighBytes),
                 formatGiB(e.allocatedPeakBytes), formatGiB(e.reservedPeakBytes), text(present::label(e.peakMoment)),
                 formatParams(e.params.total), formatParams(e.trainableParams)));
    // Measured runs kept with the scenario: the same table the report and the CLI show.
    std::vector<present::MeasuredRun> runs;
    for (const auto& m : core::storedMeasurements(s, controller().catalog())) {
        if (auto c = core::compareMeasured(s, m, controller().catalog())) {
            runs.push_back({present::runLabel(m), std::move(*c)});
        }
    }
    if (!runs.empty()) {
        m_summary->setText(m_summary->text() + tr("<br><b>Measured runs</b>") + toHtml(present::measuredTable(runs)));
    }
    QStringList notes;
    for (const auto& w : e.warnings) {
        notes << QStringLiteral("⚠ ") + ui::text(w.words);
    }
    for (const auto& a : e.assumptions) {
        notes << QStringLiteral("• ") + ui::text(a);
    }
    m_notes->setText(notes.join(QLatin1Char('\n')));
}

} // namespace gpusizer::ui
