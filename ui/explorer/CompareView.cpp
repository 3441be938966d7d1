#include "CompareView.h"

#include "../Format.h"
#include "../Present.h"
#include "../ScenarioController.h"
#include "../charts/BreakdownChartView.h"
#include "BreakdownView.h"
#include "gpusizer/plan/FitTable.h"

#include <QtGui/QFont>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

namespace gpusizer::ui {

namespace {

present::CompareAxis presentAxis(CompareView::Axis axis) {
    switch (axis) {
    case CompareView::Axis::Methods:
        return present::CompareAxis::Methods;
    case CompareView::Axis::Optimizers:
        return present::CompareAxis::Optimizers;
    case CompareView::Axis::Precisions:
        break;
    }
    return present::CompareAxis::Precisions;
}

} // namespace

CompareTableModel::CompareTableModel(QObject* parent) : TableModel(parent) {
    setDecoration(componentSwatch); // the rows are the chart's key
    setVariants({}, present::CompareAxis::Methods);
}

void CompareTableModel::setVariants(std::vector<core::Variant> variants, present::CompareAxis axis) {
    m_variants = std::move(variants);
    setTable(present::compareTable(m_variants, axis, /*compactHeaders=*/true));
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
    auto* label = new QLabel(tr("Compa&re"), this);
    label->setBuddy(m_axis);
    row->addWidget(label);
    row->addWidget(m_axis);
    row->addStretch(1);
    layout->addLayout(row);
    auto* body = new QHBoxLayout();
    m_chart = new BreakdownChartView(this);
    m_chart->followPalette(palette());
    m_chart->setMinimumWidth(220);                     // three bars need little room; the table keeps its whole width
    m_lineKey = addChartWithLineKey(body, m_chart, 1); // the table's row swatches key the colours
    m_model = new CompareTableModel(this);
    m_table = newTableView(m_model, this);
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
    const auto axis = static_cast<Axis>(m_axis->currentData().toInt());
    switch (axis) {
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
        bars.push_back({text(present::variantChartLabel(v, presentAxis(axis))), v.estimate.perGpu,
                        v.estimate.bandLowBytes, v.estimate.bandHighBytes});
    }
    m_chart->setBars(bars, capacityLines(controller().catalog(), s.gpuId, 1));
    m_lineKey->setText(m_chart->lineKeyHtml());
    m_model->setVariants(std::move(variants), presentAxis(axis));
    // Size the table to its contents so every variant's column is readable beside the chart.
    m_table->resizeColumnsToContents();
    int width = m_table->verticalHeader()->sizeHint().width() + 2 * m_table->frameWidth() + 4;
    for (int c = 0; c < m_model->columnCount(); ++c) {
        width += m_table->columnWidth(c);
    }
    m_table->setMinimumWidth(width);
}

} // namespace gpusizer::ui
