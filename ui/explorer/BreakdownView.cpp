#include "BreakdownView.h"

#include "../Format.h"
#include "../ScenarioController.h"
#include "../charts/BreakdownChartView.h"
#include "gpusizer/core/Measurement.h"

#include <QtCore/QCoreApplication>
#include <QtGui/QFont>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

namespace gpusizer::ui {

ComponentTableModel::ComponentTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComponentTableModel::setEstimate(const core::Estimate& estimate) {
    m_estimate = estimate;
    emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int ComponentTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(core::kComponentCount) + 1;
}

int ComponentTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ComponentTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) {
        return {};
    }
    const bool totalRow = index.row() == static_cast<int>(core::kComponentCount);
    const auto comp =
        totalRow ? core::Component::Overhead : core::kAllComponents[static_cast<std::size_t>(index.row())];
    const std::int64_t bytes = totalRow ? m_estimate.deviceBytes : m_estimate.perGpu[comp];
    if (role == Qt::DecorationRole && index.column() == Name && !totalRow) {
        return componentColor(comp);
    }
    if (role == Qt::FontRole && totalRow) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::ToolTipRole) {
        return totalRow ? tr("What nvidia-smi shows on each GPU at the peak.") : componentDescription(comp);
    }
    if (role == Qt::TextAlignmentRole && (index.column() == GiBPerGpu || index.column() == Share)) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
    case Name:
        return totalRow ? tr("Total per GPU (device)") : componentName(comp);
    case GiBPerGpu:
        return formatGiB(bytes);
    case Share:
        return m_estimate.deviceBytes > 0
                   ? formatPercent(static_cast<double>(bytes) / static_cast<double>(m_estimate.deviceBytes))
                   : QString();
    default:
        return {};
    }
}

QVariant ComponentTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Name:
        return tr("Component");
    case GiBPerGpu:
        return tr("GiB per GPU");
    case Share:
        return tr("Share");
    default:
        return {};
    }
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
                 formatGiB(e.allocatedPeakBytes), formatGiB(e.reservedPeakBytes),
                 QString::fromLatin1(core::toString(e.peakMoment)).replace(QLatin1Char('_'), QLatin1Char(' ')),
                 formatParams(e.params.total), formatParams(e.trainableParams)));
    QString measured;
    for (const auto& m : core::storedMeasurements(s, controller().catalog())) {
        const auto c = core::compareMeasured(s, m, controller().catalog());
        if (!c) {
            continue;
        }
        QStringList parts;
        for (const auto& row : c->rows) {
            if (row.available && row.what != "step_seconds") {
                parts << tr("%1 %2 GiB (estimate %3, %4%5%)")
                             .arg(QString::fromStdString(row.what))
                             .arg(row.measured, 0, 'f', 2)
                             .arg(row.estimated, 0, 'f', 2)
                             .arg(row.errorShare >= 0 ? QStringLiteral("+") : QString())
                             .arg(row.errorShare * 100.0, 0, 'f', 1);
            }
        }
        measured += tr("<br><b>Measured</b> on %1: %2")
                        .arg(m.cpuRun() ? tr("CPU (smoke run, no GPU memory)") : QString::fromStdString(m.gpuName),
                             parts.isEmpty() ? tr("no memory figures") : parts.join(QStringLiteral(", ")));
    }
    m_summary->setText(m_summary->text() + measured);
    QStringList notes;
    for (const auto& w : e.warnings) {
        notes << QStringLiteral("⚠ ") + QString::fromStdString(w.message);
    }
    for (const auto& a : e.assumptions) {
        notes << QStringLiteral("• ") + QString::fromStdString(a);
    }
    m_notes->setText(notes.join(QLatin1Char('\n')));
}

} // namespace gpusizer::ui
