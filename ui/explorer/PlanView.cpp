#include "PlanView.h"

#include "../Format.h"
#include "../Present.h"
#include "../ScenarioController.h"
#include "../charts/PlanCharts.h"
#include "gpusizer/core/FitTable.h"
#include "gpusizer/present/Format.h"
#include "gpusizer/present/PlanText.h"

#include <QtCore/QSortFilterProxyModel>
#include <QtGui/QColor>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QGridLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>
#include <limits>

namespace gpusizer::ui {

PlanTableModel::PlanTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void PlanTableModel::setResults(std::vector<core::CardPlan> results, const core::PlanInputs& inputs, int chosen) {
    beginResetModel();
    m_results = std::move(results);
    m_inputs = inputs;
    m_chosen = chosen;
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
    const auto& c = r.best;
    const auto& p = c.plan;
    const double inf = std::numeric_limits<double>::infinity();
    const QString whyFewer =
        r.fewerCards ? tr("%1 cards: %2").arg(r.fewerCards->scenario.gpus).arg(text(present::whyNot(*r.fewerCards)))
                     : QString();
    if (role == SortRole) {
        switch (index.column()) {
        case Gpu:
            return QString::fromStdString(r.gpu->name);
        case Layout:
            return r.found ? static_cast<double>(c.scenario.gpus) : inf;
        case PerGpu:
            return r.found ? static_cast<double>(c.deviceBytes) : inf;
        case Step:
            return r.found ? p.step.stepSeconds : inf;
        case Hours:
            return r.found ? p.wallHours : inf;
        case GpuHours:
            return r.found ? p.gpuHours : inf;
        case Cost:
            return r.found ? core::costOf(c, m_inputs) : inf;
        default:
            return whyFewer;
        }
    }
    if (role == Qt::BackgroundRole && (!r.found || index.row() == m_chosen)) {
        return r.found ? QColor(0xc8, 0xe6, 0xc9) : QColor(0xff, 0xcd, 0xd2);
    }
    if (role == Qt::ForegroundRole && (!r.found || index.row() == m_chosen)) {
        return QColor(Qt::black);
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == Step && r.found) {
            return tr("compute %1 s, memory floor %2 s, communication %3 s (%4 exposed), offload %5 s")
                .arg(p.step.computeSeconds, 0, 'f', 2)
                .arg(p.step.memoryFloorSeconds, 0, 'f', 2)
                .arg(p.step.commSeconds, 0, 'f', 2)
                .arg(p.step.exposedCommSeconds, 0, 'f', 2)
                .arg(p.step.offloadSeconds, 0, 'f', 2);
        }
        if (index.column() == Layout && r.found) {
            QString tip = text(present::layoutParts(c.scenario));
            for (const auto& note : present::candidateNotes(c)) {
                tip += QStringLiteral("\n") + text(note);
            }
            return tip;
        }
        if (index.column() == WhyFewer || index.column() == Gpu) {
            return whyFewer.isEmpty() ? QVariant() : QVariant(whyFewer);
        }
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
        return r.found ? text(present::cardsAndParallelism(c.scenario))
                       : tr("no fit up to %1 cards").arg(m_inputs.maxGpus);
    case PerGpu:
        return r.found ? text(present::gib(c.deviceBytes)) : QString();
    case Step:
        return r.found ? tr("%1 s").arg(text(present::number(p.step.stepSeconds, 2))) : QString();
    case Hours:
        return r.found ? text(present::duration(p.wallHours)) : QString();
    case GpuHours:
        return r.found ? text(present::number(p.gpuHours, p.gpuHours < 10 ? 1 : 0)) : QString();
    case Cost:
        return r.found ? text(present::usd(core::costOf(c, m_inputs))) : QString();
    case WhyFewer:
        return whyFewer;
    default:
        return {};
    }
}

QVariant PlanTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return {};
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Layout:
            return tr("Cards and the layout the planner chose on this GPU, by the objective.");
        case PerGpu:
            return tr("Device memory per GPU (nvidia-smi), without the margin.");
        case WhyFewer:
            return tr("At the largest count below the chosen one: the closest layout and why it does not fit.");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Gpu:
        return tr("GPU");
    case Layout:
        return tr("Cards × layout");
    case PerGpu:
        return tr("Per GPU");
    case Step:
        return tr("Step");
    case Hours:
        return tr("Wall time");
    case GpuHours:
        return tr("GPU-hours");
    case Cost:
        return m_inputs.spot ? tr("Cost (spot)") : tr("Cost (on demand)");
    case WhyFewer:
        return tr("Why fewer cards fail");
    default:
        return {};
    }
}

PlanView::PlanView(ScenarioController& controller, QWidget* parent) : LiveView(controller, parent) {
    setObjectName(QStringLiteral("planView"));
    auto* layout = new QVBoxLayout(this);
    auto* grid = new QGridLayout();
    const core::PlanInputs defaults = controller.planInputs();
    m_tokens = new QDoubleSpinBox(this);
    m_tokens->setRange(0.001, 1e7);
    m_tokens->setDecimals(1);
    m_tokens->setValue(defaults.datasetTokens / 1e6);
    m_tokens->setSuffix(tr(" M tokens"));
    m_tokens->setToolTip(tr("Training tokens per epoch (examples × average length), in millions."));
    m_tokens->setKeyboardTracking(false);
    m_epochs = new QDoubleSpinBox(this);
    m_epochs->setRange(0.1, 1000);
    m_epochs->setValue(defaults.epochs);
    m_epochs->setDecimals(1);
    m_epochs->setToolTip(tr("Passes over the dataset."));
    m_mfu = new QDoubleSpinBox(this);
    m_mfu->setRange(1, 100);
    m_mfu->setValue(defaults.mfu * 100.0);
    m_mfu->setSuffix(tr(" % MFU"));
    m_mfu->setDecimals(0);
    m_mfu->setToolTip(tr("Model FLOPs utilisation: the share of the GPU's dense BF16 peak the run achieves "
                         "(large pre-training runs report 40–57%; torchtitan measured 33% eager and 39% compiled "
                         "for Llama 3.1 8B with FSDP on H100s; fine-tuning with small batches runs lower)."));
    m_objective = new QComboBox(this);
    m_objective->addItem(tr("Balanced"), static_cast<int>(core::Objective::Balanced));
    m_objective->addItem(tr("Lowest cost"), static_cast<int>(core::Objective::Cost));
    m_objective->addItem(tr("Shortest time"), static_cast<int>(core::Objective::Time));
    m_objective->setToolTip(tr("What the planner picks by: lowest cost, shortest wall time, or balanced (the "
                               "cheapest plan within 1.5× of the fastest wall time)."));
    m_network = new QComboBox(this);
    m_network->addItem(tr("Network: typical for the card"), static_cast<int>(core::Network::Auto));
    m_network->addItem(tr("InfiniBand 400 Gb/s per GPU"), static_cast<int>(core::Network::Ib400));
    m_network->addItem(tr("RoCE 200 Gb/s per GPU"), static_cast<int>(core::Network::Roce200));
    m_network->addItem(tr("100 GbE per node"), static_cast<int>(core::Network::Eth100));
    m_network->addItem(tr("25 GbE per node"), static_cast<int>(core::Network::Eth25));
    m_network->setToolTip(tr("The network between nodes. Typical: InfiniBand 400 Gb/s per GPU for SXM/OAM servers, "
                             "100 GbE for datacenter PCIe servers, 25 GbE for consumer-card machines."));
    m_maxGpus = new QSpinBox(this);
    m_maxGpus->setRange(1, 1 << 20);
    m_maxGpus->setValue(static_cast<int>(defaults.maxGpus));
    m_maxGpus->setPrefix(tr("≤ "));
    m_maxGpus->setSuffix(tr(" GPUs"));
    m_maxGpus->setToolTip(tr("The most cards you accept."));
    m_maxGpus->setKeyboardTracking(false);
    m_margin = new QDoubleSpinBox(this);
    m_margin->setRange(-1, 200);
    m_margin->setDecimals(0);
    m_margin->setValue(-1);
    m_margin->setSpecialValueText(tr("margin: the band"));
    m_margin->setPrefix(tr("margin "));
    m_margin->setSuffix(tr(" %"));
    m_margin->setToolTip(tr("Memory kept free above the estimate before a layout counts as fitting. Default: the "
                            "upper side of the estimate's measured band for this kind of run."));
    m_hostRam = new QDoubleSpinBox(this);
    m_hostRam->setRange(0, 1 << 20);
    m_hostRam->setDecimals(0);
    m_hostRam->setSpecialValueText(tr("host RAM: the catalog's"));
    m_hostRam->setPrefix(tr("host RAM "));
    m_hostRam->setSuffix(tr(" GiB/node"));
    m_hostRam->setToolTip(tr("Host RAM per node that offload may fill. Default: the card's typical node."));
    m_spot = new QCheckBox(tr("Spot prices"), this);
    m_spot->setToolTip(tr("Rank by the catalog's spot price instead of on-demand (interruptible)."));
    m_offload = new QCheckBox(tr("Allow CPU offload"), this);
    m_offload->setChecked(defaults.allowOffload);
    m_offload->setToolTip(tr("Let the planner offload to the CPU: fewer cards, much slower steps; chosen only when it "
                             "wins on the objective or nothing else fits."));
    auto* tokensLabel = new QLabel(tr("&Dataset"), this);
    tokensLabel->setBuddy(m_tokens);
    auto* epochsLabel = new QLabel(tr("E&pochs"), this);
    epochsLabel->setBuddy(m_epochs);
    auto* objectiveLabel = new QLabel(tr("O&bjective"), this);
    objectiveLabel->setBuddy(m_objective);
    grid->addWidget(tokensLabel, 0, 0);
    grid->addWidget(m_tokens, 0, 1);
    grid->addWidget(epochsLabel, 0, 2);
    grid->addWidget(m_epochs, 0, 3);
    grid->addWidget(m_mfu, 0, 4);
    grid->addWidget(objectiveLabel, 0, 5);
    grid->addWidget(m_objective, 0, 6);
    grid->addWidget(m_network, 1, 0, 1, 2);
    grid->addWidget(m_maxGpus, 1, 2, 1, 2);
    grid->addWidget(m_margin, 1, 4);
    grid->addWidget(m_hostRam, 1, 5, 1, 2);
    grid->addWidget(m_spot, 0, 7);
    grid->addWidget(m_offload, 1, 7);
    grid->setColumnStretch(8, 1);
    layout->addLayout(grid);

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
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->setAccessibleName(tr("Plan per GPU"));
    m_ranking = new QLabel(this);
    m_ranking->setWordWrap(true);
    m_ranking->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details = new QLabel(this);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);

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

    layout->addWidget(m_ranking);
    layout->addWidget(m_table, 3);
    layout->addWidget(m_details);
    layout->addLayout(charts, 2);

    for (QDoubleSpinBox* spin : {m_tokens, m_epochs, m_mfu, m_margin, m_hostRam}) {
        connect(spin, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [this] { pushInputs(); });
    }
    connect(m_maxGpus, qOverload<int>(&QSpinBox::valueChanged), this, [this] { pushInputs(); });
    for (QCheckBox* box : {m_spot, m_offload}) {
        connect(box, &QCheckBox::toggled, this, [this] { pushInputs(); });
    }
    for (QComboBox* combo : {m_objective, m_network}) {
        connect(combo, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { pushInputs(); });
    }
    connect(m_scalingGpu, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { refreshNow(); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] { showDetails(); });
}

core::PlanInputs PlanView::inputs() const {
    core::PlanInputs in = controller().planInputs();
    in.datasetTokens = m_tokens->value() * 1e6;
    in.epochs = m_epochs->value();
    in.mfu = m_mfu->value() / 100.0;
    in.spot = m_spot->isChecked();
    in.allowOffload = m_offload->isChecked();
    in.objective = static_cast<core::Objective>(m_objective->currentData().toInt());
    in.cluster.network = static_cast<core::Network>(m_network->currentData().toInt());
    in.maxGpus = m_maxGpus->value();
    in.marginShare = m_margin->value() < 0 ? std::nullopt : std::optional<double>(m_margin->value() / 100.0);
    in.hostRamGiBPerNode = m_hostRam->value() <= 0 ? std::nullopt : std::optional<double>(m_hostRam->value());
    return in;
}

void PlanView::pushInputs() {
    controller().setPlanInputs(inputs());
    refreshNow(); // the user is changing this tab: answer at once, even before it is shown
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

QString PlanView::detailsText() const {
    return m_details->text();
}

void PlanView::showDetails() {
    const QModelIndex current = m_proxy->mapToSource(m_table->currentIndex());
    const auto& results = m_model->results();
    if (!current.isValid() || current.row() >= static_cast<int>(results.size())) {
        m_details->setText(tr("Select a GPU to see its runners-up and why they lost."));
        return;
    }
    const auto& r = results[static_cast<std::size_t>(current.row())];
    const auto in = controller().planInputs();
    QStringList lines;
    if (!r.found) {
        lines
            << tr("<b>%1</b>: no layout fits up to %2 cards.").arg(QString::fromStdString(r.gpu->name)).arg(in.maxGpus);
        if (r.fewerCards) {
            lines << tr("Closest: %1 × %2 — %3")
                         .arg(r.fewerCards->scenario.gpus)
                         .arg(text(present::layoutParts(r.fewerCards->scenario)), text(present::whyNot(*r.fewerCards)));
        }
    } else {
        lines << tr("<b>%1</b>: %2 × %3 — %4, %5.")
                     .arg(QString::fromStdString(r.gpu->name))
                     .arg(r.best.scenario.gpus)
                     .arg(text(present::layoutParts(r.best.scenario)), text(present::duration(r.best.plan.wallHours)),
                          text(present::usd(core::costOf(r.best, in))));
        for (const auto& note : present::candidateNotes(r.best)) {
            lines << text(note);
        }
        for (const auto& c : r.runnersUp) {
            lines << tr("Runner-up: %1 × %2 — %3.")
                         .arg(c.scenario.gpus)
                         .arg(text(present::layoutParts(c.scenario)), text(present::whyLost(r.best, c, in)));
        }
    }
    m_details->setText(lines.join(QStringLiteral("<br>")));
}

void PlanView::refresh() {
    const auto& s = controller().scenario();
    const auto in = controller().planInputs();
    auto results = core::planCatalog(s, controller().catalog().gpus, in);
    const auto ranking = core::rank(results, in);
    auto describe = [&](int i) {
        if (i < 0) {
            return tr("none");
        }
        const auto& r = results[static_cast<std::size_t>(i)];
        return tr("%1 × %2 (%3; %4, %5)")
            .arg(r.best.scenario.gpus)
            .arg(QString::fromStdString(r.gpu->name), text(present::layoutParts(r.best.scenario)),
                 text(present::duration(r.best.plan.wallHours)), text(present::usd(core::costOf(r.best, in))));
    };
    QString checkpoint;
    if (ranking.chosen >= 0) {
        const auto& p = results[static_cast<std::size_t>(ranking.chosen)].best.plan;
        checkpoint = tr(" A resumable checkpoint is %1; %2 kept cost about %3 in storage (stopped instances still pay "
                        "for their disks).")
                         .arg(text(present::gib(static_cast<std::int64_t>(p.checkpointBytes))))
                         .arg(in.retainedCheckpoints)
                         .arg(text(present::usd(p.storageUsd)));
    }
    m_ranking->setText(tr("<b>Rent:</b> %1 — %2. Cheapest: %3 · fastest: %4. Fit margin %5 above the estimate.%6 "
                          "Prices are illustrative; MFU %7%.")
                           .arg(describe(ranking.chosen), text(present::objectiveRule(in.objective)),
                                describe(ranking.cheapest), describe(ranking.fastest),
                                text(present::percent(core::fitMargin(s, in))), checkpoint)
                           .arg(m_mfu->value()));
    m_costTime->setResults(results, ranking, in);
    if (const auto* gpu = controller().catalog().findGpu(m_scalingGpu->currentData().toString().toStdString())) {
        core::Scenario scaled = s;
        scaled.sharding = core::Sharding::Zero3;
        m_scaling->setCurves(core::scalingCurve(scaled, *gpu, in, 64, "pcie"),
                             core::scalingCurve(scaled, *gpu, in, 64, "nvlink"));
    }
    m_model->setResults(std::move(results), in, ranking.chosen);
    m_table->resizeColumnsToContents();
    // The decision columns stay readable: the layout column takes what is left, up to a limit.
    m_table->setColumnWidth(PlanTableModel::Layout, std::min(m_table->columnWidth(PlanTableModel::Layout), 420));
    showDetails();
}

} // namespace gpusizer::ui
