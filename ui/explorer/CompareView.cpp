#include "CompareView.h"

#include "../Format.h"
#include "../ScenarioController.h"
#include "../charts/BreakdownChartView.h"
#include "BreakdownView.h"
#include "gpusizer/core/FitTable.h"

#include <QtGui/QFont>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

namespace gpusizer::ui {

CompareTableModel::CompareTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareTableModel::setVariants(std::vector<core::Variant> variants) {
    beginResetModel();
    m_variants = std::move(variants);
    endResetModel();
}

int CompareTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : RowCount;
}

int CompareTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_variants.size());
}

QVariant CompareTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) {
        return {};
    }
    const auto& v = m_variants[static_cast<std::size_t>(index.column())];
    if (role == Qt::TextAlignmentRole) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::FontRole && index.row() == DeviceTotal) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    if (index.row() < DeviceTotal) {
        return formatGiB(v.estimate.perGpu[core::kAllComponents[static_cast<std::size_t>(index.row())]]);
    }
    switch (index.row()) {
    case DeviceTotal:
        return formatGiB(v.estimate.deviceBytes);
    case Allocated:
        return formatGiB(v.estimate.allocatedPeakBytes);
    case Trainable:
        return formatParams(v.estimate.trainableParams);
    case SmallestGpu:
        if (v.cheapest.gpu == nullptr) {
            return tr("none up to %1 cards").arg(core::kMaxCards);
        }
        return tr("%1 × %2").arg(v.cheapest.cards).arg(shortGpuName(*v.cheapest.gpu));
    default:
        return {};
    }
}

QVariant CompareTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole) {
        return {};
    }
    if (orientation == Qt::Horizontal) {
        return section < static_cast<int>(m_variants.size())
                   ? QString::fromStdString(m_variants[static_cast<std::size_t>(section)].label)
                   : QVariant();
    }
    if (section < DeviceTotal) {
        return componentName(core::kAllComponents[static_cast<std::size_t>(section)]);
    }
    switch (section) {
    case DeviceTotal:
        return tr("Total per GPU (device)");
    case Allocated:
        return tr("Allocated peak (torch)");
    case Trainable:
        return tr("Trainable parameters");
    case SmallestGpu:
        return tr("Lowest hourly bill that fits");
    default:
        return {};
    }
}

CompareView::CompareView(ScenarioController& controller, QWidget* parent) : LiveView(controller, parent) {
    setObjectName(QStringLiteral("compareView"));
    auto* layout = new QVBoxLayout(this);
    auto* row = new QHBoxLayout();
    m_axis = new QComboBox(this);
    m_axis->addItem(tr("Methods: Full / LoRA / QLoRA"), static_cast<int>(Axis::Methods));
    m_axis->addItem(tr("Optimizers: AdamW / 8-bit AdamW / Adafactor / SGD"), static_cast<int>(Axis::Optimizers));
    m_axis->addItem(tr("Precision recipes"), static_cast<int>(Axis::Precisions));
    m_axis->setToolTip(tr("What to vary; everything else stays as in the scenario."));
    auto* label = new QLabel(tr("Co&mpare"), this);
    label->setBuddy(m_axis);
    row->addWidget(label);
    row->addWidget(m_axis);
    row->addStretch(1);
    layout->addLayout(row);
    auto* body = new QHBoxLayout();
    m_chart = new BreakdownChartView(this);
    body->addWidget(m_chart, 1);
    m_model = new CompareTableModel(this);
    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setWordWrap(false);
    m_table->setAccessibleName(tr("Comparison table"));
    body->addWidget(m_table, 0);
    layout->addLayout(body, 1);
    connect(m_axis, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { refreshNow(); });
}

void CompareView::setAxis(Axis axis) {
    m_axis->setCurrentIndex(m_axis->findData(static_cast<int>(axis)));
}

void CompareView::refresh() {
    const auto& s = controller().scenario();
    const auto& gpus = controller().catalog().gpus;
    std::vector<core::Variant> variants;
    switch (static_cast<Axis>(m_axis->currentData().toInt())) {
    case Axis::Methods:
        variants = core::compareMethods(s, gpus, controller().planInputs());
        break;
    case Axis::Optimizers:
        variants = core::compareOptimizers(
            s, {core::Optimizer::AdamW, core::Optimizer::AdamW8bit, core::Optimizer::Adafactor, core::Optimizer::Sgd},
            gpus, controller().planInputs());
        break;
    case Axis::Precisions:
        variants = core::comparePrecisions(
            s,
            {core::Precision::Bf16, core::Precision::Bf16Fp32Master, core::Precision::AmpBf16, core::Precision::Fp32},
            gpus, controller().planInputs());
        break;
    }
    std::vector<BreakdownBar> bars;
    for (const auto& v : variants) {
        bars.push_back(
            {QString::fromStdString(v.label), v.estimate.perGpu, v.estimate.bandLowBytes, v.estimate.bandHighBytes});
    }
    m_chart->setBars(bars, capacityLines(controller().catalog(), s.gpuId, 1));
    m_model->setVariants(std::move(variants));
    // Size the table to its contents so every variant's column is readable beside the chart.
    m_table->resizeColumnsToContents();
    int width = m_table->verticalHeader()->sizeHint().width() + 2 * m_table->frameWidth() + 4;
    for (int c = 0; c < m_model->columnCount(); ++c) {
        width += m_table->columnWidth(c);
    }
    m_table->setMinimumWidth(width);
}

} // namespace gpusizer::ui
