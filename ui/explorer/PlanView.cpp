#include "PlanView.h"

#include "../Format.h"
#include "../ScenarioController.h"
#include "../charts/PlanCharts.h"
#include "gpusizer/core/FitTable.h"

#include <QtCore/QLocale>
#include <QtCore/QSortFilterProxyModel>
#include <QtGui/QColor>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>
#include <limits>

namespace gpusizer::ui {

QString formatHours(double hours) {
    if (hours < 1.0) {
        return QObject::tr("%1 min").arg(QLocale().toString(hours * 60.0, 'f', 0));
    }
    if (hours < 48.0) {
        return QObject::tr("%1 h").arg(QLocale().toString(hours, 'f', 1));
    }
    return QObject::tr("%1 days").arg(QLocale().toString(hours / 24.0, 'f', 1));
}

QString formatUsd(double usd) {
    return QStringLiteral("$") + QLocale().toString(usd, 'f', usd < 100 ? 2 : 0);
}

PlanTableModel::PlanTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void PlanTableModel::setResults(std::vector<core::FitSearchResult> results, bool spot) {
    beginResetModel();
    m_results = std::move(results);
    m_spot = spot;
    endResetModel();
}

int PlanTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_results.size());
}

int PlanTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PlanTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) {
        return {};
    }
    const auto& r = m_results[static_cast<std::size_t>(index.row())];
    const auto& p = r.plan;
    const double cost = m_spot ? p.costSpotUsd : p.costOnDemandUsd;
    const double inf = std::numeric_limits<double>::infinity();
    if (role == SortRole) {
        switch (index.column()) {
        case Gpu:
            return QString::fromStdString(r.gpu->name);
        case Layout:
            return r.found ? static_cast<double>(r.scenario.gpus) : inf;
        case PerGpu:
            return static_cast<double>(r.deviceBytes);
        case Step:
            return r.found ? p.step.stepSeconds : inf;
        case Hours:
            return r.found ? p.wallHours : inf;
        case GpuHours:
            return r.found ? p.gpuHours : inf;
        case Cost:
            return r.found ? cost : inf;
        default:
            return QString::fromStdString(r.whyFewerFail);
        }
    }
    if (role == Qt::BackgroundRole && !r.found) {
        return QColor(0xff, 0xcd, 0xd2);
    }
    if (role == Qt::ForegroundRole && !r.found) {
        return QColor(Qt::black);
    }
    if (role == Qt::ToolTipRole && index.column() == Step && r.found) {
        return tr("compute %1 s, memory floor %2 s, communication %3 s (%4 exposed) over %5")
            .arg(p.step.computeSeconds, 0, 'f', 2)
            .arg(p.step.memoryFloorSeconds, 0, 'f', 2)
            .arg(p.step.commSeconds, 0, 'f', 2)
            .arg(p.step.exposedCommSeconds, 0, 'f', 2)
            .arg(QString::fromStdString(p.step.link.name));
    }
    if (role == Qt::TextAlignmentRole && index.column() != Gpu && index.column() != Layout &&
        index.column() != WhyFewer) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
    case Gpu:
        return QString::fromStdString(r.gpu->name);
    case Layout:
        return r.found ? QString::fromStdString(r.layout) : tr("no fit up to %1 cards").arg(core::kMaxCards);
    case PerGpu:
        return r.found ? formatGiB(r.deviceBytes) : QString();
    case Step:
        return r.found ? tr("%1 s").arg(QLocale().toString(p.step.stepSeconds, 'f', 2)) : QString();
    case Hours:
        return r.found ? formatHours(p.wallHours) : QString();
    case GpuHours:
        return r.found ? QLocale().toString(p.gpuHours, 'f', 0) : QString();
    case Cost:
        return r.found ? formatUsd(cost) : QString();
    case WhyFewer:
        return QString::fromStdString(r.whyFewerFail);
    default:
        return {};
    }
}

QVariant PlanTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Gpu:
        return tr("GPU");
    case Layout:
        return tr("Smallest layout that fits");
    case PerGpu:
        return tr("Per GPU");
    case Step:
        return tr("Step");
    case Hours:
        return tr("Wall time");
    case GpuHours:
        return tr("GPU-hours");
    case Cost:
        return m_spot ? tr("Cost (spot)") : tr("Cost (on demand)");
    case WhyFewer:
        return tr("Why fewer cards fail");
    default:
        return {};
    }
}

PlanView::PlanView(ScenarioController& controller, QWidget* parent) : LiveView(controller, parent) {
    setObjectName(QStringLiteral("planView"));
    auto* layout = new QVBoxLayout(this);
    auto* row = new QHBoxLayout();
    m_tokens = new QDoubleSpinBox(this);
    m_tokens->setRange(0.001, 1e7);
    m_tokens->setDecimals(1);
    m_tokens->setValue(100.0);
    m_tokens->setSuffix(tr(" M tokens"));
    m_tokens->setToolTip(tr("Training tokens per epoch (examples × average length), in millions."));
    m_tokens->setKeyboardTracking(false);
    m_epochs = new QDoubleSpinBox(this);
    m_epochs->setRange(0.1, 1000);
    m_epochs->setValue(1.0);
    m_epochs->setDecimals(1);
    m_epochs->setToolTip(tr("Passes over the dataset."));
    m_mfu = new QDoubleSpinBox(this);
    m_mfu->setRange(1, 100);
    m_mfu->setValue(40);
    m_mfu->setSuffix(tr(" % MFU"));
    m_mfu->setDecimals(0);
    m_mfu->setToolTip(tr("Model FLOPs utilisation: the share of the GPU's dense BF16 peak the run achieves "
                         "(large pre-training runs report 40–57%; torchtitan measured 33% eager and 39% compiled "
                         "for Llama 3.1 8B with FSDP on H100s; fine-tuning with small batches runs lower)."));
    m_spot = new QCheckBox(tr("Spot prices"), this);
    m_spot->setToolTip(tr("Use the catalog's spot price instead of on-demand (interruptible)."));
    m_offload = new QCheckBox(tr("Allow CPU offload"), this);
    m_offload->setChecked(true);
    m_offload->setToolTip(tr("Let the search use ZeRO-Offload: fewer cards, much slower steps."));
    auto* tokensLabel = new QLabel(tr("&Dataset"), this);
    tokensLabel->setBuddy(m_tokens);
    auto* epochsLabel = new QLabel(tr("&Epochs"), this);
    epochsLabel->setBuddy(m_epochs);
    row->addWidget(tokensLabel);
    row->addWidget(m_tokens);
    row->addWidget(epochsLabel);
    row->addWidget(m_epochs);
    row->addWidget(m_mfu);
    row->addWidget(m_spot);
    row->addWidget(m_offload);
    row->addStretch(1);
    layout->addLayout(row);

    m_model = new PlanTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(PlanTableModel::SortRole);
    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(PlanTableModel::Cost, Qt::AscendingOrder);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAccessibleName(tr("Plan per GPU"));
    m_ranking = new QLabel(this);
    m_ranking->setWordWrap(true);
    m_ranking->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* charts = new QHBoxLayout();
    m_costTime = new CostTimeChartView(this);
    charts->addWidget(m_costTime, 1);
    auto* scalingBox = new QVBoxLayout();
    m_scalingGpu = new QComboBox(this);
    for (const auto& g : controller.catalog().gpus) {
        m_scalingGpu->addItem(QString::fromStdString(g.name), QString::fromStdString(g.id));
    }
    m_scalingGpu->setCurrentIndex(std::max(0, m_scalingGpu->findData(QStringLiteral("a100-80gb-sxm"))));
    m_scalingGpu->setToolTip(tr("The card whose scaling from 1 to 64 GPUs is drawn, over PCIe and over NVLink."));
    scalingBox->addWidget(m_scalingGpu);
    m_scaling = new ScalingChartView(this);
    scalingBox->addWidget(m_scaling, 1);
    charts->addLayout(scalingBox, 1);

    layout->addWidget(m_table, 3);
    layout->addWidget(m_ranking);
    layout->addLayout(charts, 2);

    for (QDoubleSpinBox* spin : {m_tokens, m_epochs, m_mfu}) {
        connect(spin, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [this] { refreshNow(); });
    }
    for (QCheckBox* box : {m_spot, m_offload}) {
        connect(box, &QCheckBox::toggled, this, [this] { refreshNow(); });
    }
    connect(m_scalingGpu, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { refreshNow(); });
}

core::PlanInputs PlanView::inputs() const {
    core::PlanInputs in;
    in.datasetTokens = m_tokens->value() * 1e6;
    in.epochs = m_epochs->value();
    in.mfu = m_mfu->value() / 100.0;
    in.allowOffload = m_offload->isChecked();
    return in;
}

bool PlanView::spot() const {
    return m_spot->isChecked();
}

void PlanView::setMfu(double share) {
    m_mfu->setValue(share * 100.0);
}

QString PlanView::rankingText() const {
    return m_ranking->text();
}

void PlanView::refresh() {
    const auto& s = controller().scenario();
    const auto in = inputs();
    auto results = core::fitSearch(s, controller().catalog().gpus, in);
    const auto ranking = core::rank(results, spot());
    auto describe = [&](int i) {
        if (i < 0) {
            return tr("none");
        }
        const auto& r = results[static_cast<std::size_t>(i)];
        return tr("%1 (%2; %3, %4)")
            .arg(QString::fromStdString(r.gpu->name), QString::fromStdString(r.layout), formatHours(r.plan.wallHours),
                 formatUsd(spot() ? r.plan.costSpotUsd : r.plan.costOnDemandUsd));
    };
    QString checkpoint;
    if (ranking.cheapest >= 0) {
        const auto& p = results[static_cast<std::size_t>(ranking.cheapest)].plan;
        checkpoint = tr(" A resumable checkpoint is %1; %2 kept cost about %3 in storage (stopped instances still pay "
                        "for their disks).")
                         .arg(formatGiB(static_cast<std::int64_t>(p.checkpointBytes)))
                         .arg(in.retainedCheckpoints)
                         .arg(formatUsd(p.storageUsd));
    }
    m_ranking->setText(
        tr("<b>Cheapest:</b> %1 · <b>fastest:</b> %2 · <b>best cost × time:</b> %3.%4 Prices are "
           "illustrative; MFU %5%.")
            .arg(describe(ranking.cheapest), describe(ranking.fastest), describe(ranking.bestCostTime), checkpoint)
            .arg(m_mfu->value()));
    m_costTime->setResults(results, ranking, spot());
    if (const auto* gpu = controller().catalog().findGpu(m_scalingGpu->currentData().toString().toStdString())) {
        core::Scenario scaled = s;
        scaled.sharding = core::Sharding::Zero3;
        m_scaling->setCurves(core::scalingCurve(scaled, *gpu, in, 64, "pcie"),
                             core::scalingCurve(scaled, *gpu, in, 64, "nvlink"));
    }
    m_model->setResults(std::move(results), spot());
    m_table->resizeColumnsToContents();
}

} // namespace gpusizer::ui
