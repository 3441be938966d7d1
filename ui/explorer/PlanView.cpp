#include "PlanView.h"

#include "../Format.h"
#include "../FrozenColumnTableView.h"
#include "../Present.h"
#include "../ScenarioController.h"
#include "../Shrinkable.h"
#include "../TableModel.h"
#include "../charts/ChartPalette.h"
#include "../charts/PlanCharts.h"
#include "gpusizer/plan/Bill.h"
#include "gpusizer/plan/FitTable.h"
#include "gpusizer/present/BillText.h"
#include "gpusizer/present/Format.h"
#include "gpusizer/present/PlanTables.h"
#include "gpusizer/present/PlanText.h"

#include <QtCore/QDate>
#include <QtCore/QRegularExpression>
#include <QtCore/QSortFilterProxyModel>
#include <QtGui/QColor>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QGridLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>
#include <limits>

namespace gpusizer::ui {

PlanTableModel::PlanTableModel(QObject* parent) : TableModel(parent) {
    setResults({}, core::PlanInputs{}, -1);
}

void PlanTableModel::setResults(std::vector<core::CardPlan> results, const core::PlanInputs& inputs, int chosen) {
    m_results = std::move(results);
    setTable(present::planTable(m_results, inputs, chosen));
}

PlanView::PlanView(ScenarioController& controller, QWidget* parent) : LiveView(controller, parent) {
    setObjectName(QStringLiteral("planView"));
    auto* layout = new QVBoxLayout(this);
    // Created in this order, which is also the tab order: the inputs, the table, the charts.
    const core::PlanInputs defaults = controller.planInputs();
    // The one-hour test comes first: the step before renting anything.
    m_trial = new WrappedLabel(this);
    m_trial->setObjectName(QStringLiteral("oneHourTest"));
    m_trial->setWordWrap(true);
    m_trial->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_trial->setMargin(4);
    m_trial->setStyleSheet(QStringLiteral("QLabel { border: 1px solid palette(mid); }"));
    auto* trialRow = new QHBoxLayout();
    trialRow->addWidget(m_trial, 1);
    auto* exportScript = new QPushButton(tr("E&xport measurement script…"), this);
    exportScript->setObjectName(QStringLiteral("exportProbeScript"));
    exportScript->setToolTip(tr("A Python script that runs this scenario on the test card and writes the measured "
                                "memory and step time; import the result with File › Import measurement."));
    connect(exportScript, &QPushButton::clicked, this, &PlanView::probeScriptRequested);
    trialRow->addWidget(exportScript, 0, Qt::AlignTop);
    layout->addLayout(trialRow);
    createRunInputs(defaults);
    createObjectiveAndLimits(defaults);
    createBillInputs(defaults);
    layout->addLayout(layOutInputs());
    createPlanTable();
    QHBoxLayout* charts = createCharts();

    layout->addWidget(m_ranking);
    layout->addWidget(m_table, 3);
    layout->addWidget(m_details);
    m_bill = new WrappedLabel(this);
    m_bill->setObjectName(QStringLiteral("wholeBill"));
    m_bill->setWordWrap(true);
    m_bill->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_bill);
    layout->addLayout(charts, 2);

    connectInputs();
}

void PlanView::createRunInputs(const core::PlanInputs& defaults) {
    m_tokens = new QDoubleSpinBox(this);
    m_tokens->setRange(0, 1e7);
    m_tokens->setDecimals(1);
    m_tokens->setValue(defaults.datasetTokensStated ? defaults.datasetTokens / 1e6 : 0.0);
    m_tokens->setSpecialValueText(tr("unknown (assumed 100 M tokens)"));
    m_tokens->setSuffix(tr(" M tokens"));
    m_tokens->setToolTip(tr("Training tokens per epoch (examples × average length), in millions. Until you set it, "
                            "every time and cost assumes 100 million tokens and says so."));
    m_tokens->setKeyboardTracking(false);
    m_epochs = new QDoubleSpinBox(this);
    m_epochs->setRange(0.1, 1000);
    m_epochs->setValue(defaults.epochs);
    m_epochs->setDecimals(1);
    m_epochs->setToolTip(tr("Passes over the dataset."));
    m_mfu = new QDoubleSpinBox(this);
    m_mfu->setRange(0, 100);
    m_mfu->setValue(defaults.mfu ? *defaults.mfu * 100.0 : 0.0);
    m_mfu->setSpecialValueText(tr("HFU: each card's published"));
    m_mfu->setSuffix(tr(" % HFU"));
    m_mfu->setDecimals(0);
    m_mfu->setToolTip(tr("Hardware FLOPs utilisation: the share of the GPU's dense BF16 peak the run's matmuls reach, "
                         "recomputation counted (the element-wise kernels and the optimizer step are timed apart, at "
                         "the card's bandwidth). At 0, each "
                         "card's published training figure (LLM Foundry, AMD's and Databricks' benchmarks; "
                         "docs/planning.md), or 25% for a card with none. A value here applies to every card; an "
                         "imported measurement sets it."));
    m_batchMin = new QSpinBox(this);
    m_batchMin->setRange(0, 1 << 20);
    m_batchMin->setValue(defaults.globalBatch.flexible ? static_cast<int>(defaults.globalBatch.minSequences) : 0);
    m_batchMin->setSpecialValueText(tr("global batch: fixed"));
    m_batchMin->setPrefix(tr("global batch "));
    m_batchMin->setToolTip(tr("Sequences per optimizer step. Fixed: the input panel's micro-batch × accumulation × "
                              "data-parallel GPUs, and every plan keeps it. Set a range to let the planner trade "
                              "gradient accumulation for data parallelism, as trainers do."));
    m_batchMin->setKeyboardTracking(false);
    m_batchMax = new QSpinBox(this);
    m_batchMax->setRange(1, 1 << 20);
    m_batchMax->setValue(defaults.globalBatch.flexible ? static_cast<int>(defaults.globalBatch.maxSequences) : 256);
    m_batchMax->setPrefix(tr("to "));
    m_batchMax->setSuffix(tr(" sequences"));
    m_batchMax->setToolTip(tr("The largest global batch the planner may choose (with a range set)."));
    m_batchMax->setKeyboardTracking(false);
}

void PlanView::createObjectiveAndLimits(const core::PlanInputs& defaults) {
    m_objective = new QComboBox(this);
    m_objective->addItem(tr("Lowest cost"), static_cast<int>(core::Objective::Cost));
    m_objective->addItem(tr("Shortest time"), static_cast<int>(core::Objective::Time));
    m_objective->addItem(tr("Balanced"), static_cast<int>(core::Objective::Balanced));
    m_objective->setCurrentIndex(std::max(0, m_objective->findData(static_cast<int>(defaults.objective))));
    m_objective->setToolTip(tr("What the planner picks by: the lowest cost (the default; with a deadline, the lowest "
                               "cost that finishes in time), the shortest wall time, or balanced (the cheapest plan "
                               "within 1.5× of the fastest). Time and cost include the start-up and the final copy."));
    m_deadline = new QDoubleSpinBox(this);
    m_deadline->setRange(0, 1e5);
    m_deadline->setDecimals(1);
    m_deadline->setValue(defaults.deadlineHours.value_or(0.0));
    m_deadline->setSpecialValueText(tr("no deadline"));
    m_deadline->setPrefix(tr("within "));
    m_deadline->setSuffix(tr(" h"));
    m_deadline->setToolTip(tr("Finish within this many hours (wall time, start-up included): the lowest cost picks "
                              "the cheapest plan that does."));
    m_deadline->setKeyboardTracking(false);
    m_network = new QComboBox(this);
    makeShrinkable(m_network, 24);
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
}

void PlanView::createBillInputs(const core::PlanInputs& defaults) {
    const core::BillAssumptions& b = defaults.bill;
    auto spin = [this](double lo, double hi, int decimals, double value, const QString& prefix, const QString& suffix,
                       const QString& tip) {
        auto* box = new QDoubleSpinBox(this);
        box->setRange(lo, hi);
        box->setDecimals(decimals);
        box->setValue(value);
        box->setPrefix(prefix);
        box->setSuffix(suffix);
        box->setToolTip(tip);
        box->setKeyboardTracking(false);
        return box;
    };
    m_interruptions = spin(0, 100, 2, b.interruptionsPerDay, tr("spot: "), tr(" interruptions/node-day"),
                           tr("Expected spot interruptions per node and day (default 1: a preemptible VM runs at most "
                              "24 h). One node's preemption stops every node of the run."));
    m_interval = spin(0, 1000, 2, b.checkpointIntervalHours.value_or(0), tr("checkpoint every "), tr(" h"),
                      tr("Hours between resumable checkpoints; at the minimum, the recommended interval (Young's "
                         "optimum for the spot rate)."));
    m_interval->setSpecialValueText(tr("checkpoint: recommended"));
    m_storageGbps = spin(0.01, 100, 2, b.storageWriteGBs, tr("storage "), tr(" GB/s/node"),
                         tr("Checkpoint write and read bandwidth per node (default 1 GB/s: a provisioned cloud block "
                            "volume)."));
    m_keepDays = spin(0, 3650, 0, b.keepDays, tr("kept "), tr(" days after"),
                      tr("Days the retained checkpoints stay in storage after the run, until they are copied out and "
                         "deleted."));
    m_egress = spin(0, 10, 3, b.egressUsdPerGb, tr("egress $"), tr("/GB"),
                    tr("Price of traffic out to the internet per GB (default $0.09: AWS's first 10 TB a month)."));
    // The fixed costs every card is billed for around the steps (docs/planning.md, with their sources).
    const core::FixedCostAssumptions& f = defaults.fixed;
    m_provision = spin(0, 1000, 0, f.provisionMinutes, tr("instance up "), tr(" min"),
                       tr("Minutes from the request until the instances accept a login (default 10: \"up to 10 "
                          "minutes\", SF Compute's and Anyscale's figure for GPU nodes)."));
    m_environment = spin(0, 1000, 0, f.environmentMinutes, tr("environment "), tr(" min"),
                         tr("Minutes to pull the image or install the packages on each node (default 6: AWS's 4-6 "
                            "minutes for a 15-20 GB image); 0 with a provider's pre-installed stack."));
    m_download = spin(0, 100, 2, f.downloadGBs, tr("download "), tr(" GB/s/node"),
                      tr("The base model's download speed per node (default 0.4 GB/s: Hugging Face's S3 benchmark); "
                         "at the minimum the weights are already on the node."));
    m_download->setSpecialValueText(tr("model already on the node"));
}

QVBoxLayout* PlanView::layOutInputs() {
    // Four short rows rather than two long ones: the tab fits beside the input panel in a 1024-pixel window.
    auto* rows = new QVBoxLayout();
    auto row = [&](std::initializer_list<QWidget*> widgets) {
        auto* line = new QHBoxLayout();
        for (QWidget* w : widgets) {
            line->addWidget(w);
        }
        line->addStretch(1);
        rows->addLayout(line);
    };
    auto* tokensLabel = new QLabel(tr("&Dataset"), this);
    tokensLabel->setBuddy(m_tokens);
    auto* epochsLabel = new QLabel(tr("&Epochs"), this);
    epochsLabel->setBuddy(m_epochs);
    auto* objectiveLabel = new QLabel(tr("&Objective"), this);
    objectiveLabel->setBuddy(m_objective);
    row({tokensLabel, m_tokens, epochsLabel, m_epochs, m_mfu});
    row({objectiveLabel, m_objective, m_deadline, m_spot, m_offload});
    row({m_batchMin, m_batchMax});
    row({m_network, m_maxGpus});
    row({m_margin, m_hostRam});
    row({m_interruptions, m_interval});
    row({m_storageGbps, m_keepDays, m_egress});
    row({m_provision, m_environment, m_download});
    return rows;
}

void PlanView::createPlanTable() {
    m_model = new PlanTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(PlanTableModel::SortRole);
    m_table = new FrozenColumnTableView(this);
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
    m_ranking = new WrappedLabel(this);
    m_ranking->setWordWrap(true);
    m_ranking->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details = new WrappedLabel(this);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

QHBoxLayout* PlanView::createCharts() {
    auto* charts = new QHBoxLayout();
    m_costTime = new CostTimeChartView(this);
    followPalette(m_costTime->chart(), palette());
    charts->addWidget(m_costTime, 1);
    auto* scalingBox = new QVBoxLayout();
    m_scalingGpu = new QComboBox(this);
    makeShrinkable(m_scalingGpu, 14);
    for (const auto& g : controller().catalog().gpus) {
        m_scalingGpu->addItem(QString::fromStdString(g.name), QString::fromStdString(g.id));
    }
    m_scalingGpu->setCurrentIndex(std::max(0, m_scalingGpu->findData(QStringLiteral("a100-80gb-sxm"))));
    m_scalingGpu->setToolTip(tr("The card whose scaling from 1 to 64 GPUs is drawn, over PCIe and over NVLink."));
    scalingBox->addWidget(m_scalingGpu);
    m_scaling = new ScalingChartView(this);
    followPalette(m_scaling->chart(), palette());
    scalingBox->addWidget(m_scaling, 1);
    charts->addLayout(scalingBox, 1);
    return charts;
}

void PlanView::connectInputs() {
    for (QDoubleSpinBox* spin :
         {m_tokens, m_epochs, m_mfu, m_deadline, m_margin, m_hostRam, m_interruptions, m_interval, m_storageGbps,
          m_keepDays, m_egress, m_provision, m_environment, m_download}) {
        connect(spin, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [this] { pushInputs(); });
    }
    for (QSpinBox* spin : {m_maxGpus, m_batchMin, m_batchMax}) {
        connect(spin, qOverload<int>(&QSpinBox::valueChanged), this, [this] { pushInputs(); });
    }
    // Only the cost objective reads a deadline.
    const auto deadlineApplies = [this] {
        m_deadline->setEnabled(m_objective->currentData().toInt() == static_cast<int>(core::Objective::Cost));
    };
    deadlineApplies();
    connect(m_objective, qOverload<int>(&QComboBox::currentIndexChanged), m_deadline, deadlineApplies);
    // The range's top means nothing while the global batch is fixed.
    m_batchMax->setEnabled(m_batchMin->value() > 0);
    connect(m_batchMin, qOverload<int>(&QSpinBox::valueChanged), m_batchMax,
            [this](int min) { m_batchMax->setEnabled(min > 0); });
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
    in.datasetTokensStated = m_tokens->value() > 0;
    in.datasetTokens = in.datasetTokensStated ? m_tokens->value() * 1e6 : core::PlanInputs{}.datasetTokens;
    in.epochs = m_epochs->value();
    in.mfu = m_mfu->value() > 0 ? std::optional<double>(m_mfu->value() / 100.0) : std::nullopt;
    const bool costLed = m_objective->currentData().toInt() == static_cast<int>(core::Objective::Cost);
    in.deadlineHours = costLed && m_deadline->value() > 0 ? std::optional<double>(m_deadline->value()) : std::nullopt;
    in.globalBatch.flexible = m_batchMin->value() > 0;
    in.globalBatch.minSequences = m_batchMin->value();
    in.globalBatch.maxSequences = std::max(m_batchMin->value(), m_batchMax->value());
    in.spot = m_spot->isChecked();
    in.allowOffload = m_offload->isChecked();
    in.objective = static_cast<core::Objective>(m_objective->currentData().toInt());
    in.cluster.network = static_cast<core::Network>(m_network->currentData().toInt());
    in.maxGpus = m_maxGpus->value();
    in.marginShare = m_margin->value() < 0 ? std::nullopt : std::optional<double>(m_margin->value() / 100.0);
    in.hostRamGiBPerNode = m_hostRam->value() <= 0 ? std::nullopt : std::optional<double>(m_hostRam->value());
    in.bill.interruptionsPerDay = m_interruptions->value();
    in.bill.checkpointIntervalHours =
        m_interval->value() <= 0 ? std::nullopt : std::optional<double>(m_interval->value());
    in.bill.storageWriteGBs = m_storageGbps->value();
    in.bill.storageReadGBs = m_storageGbps->value();
    in.bill.keepDays = m_keepDays->value();
    in.fixed.provisionMinutes = m_provision->value();
    in.fixed.environmentMinutes = m_environment->value();
    in.fixed.downloadGBs = m_download->value();
    in.bill.egressUsdPerGb = m_egress->value();
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

QString PlanView::trialText() const {
    return m_trial->text();
}

QString PlanView::billText() const {
    return m_bill->text();
}

void PlanView::showDetails() {
    const QModelIndex current = m_proxy->mapToSource(m_table->currentIndex());
    const auto& results = m_model->results();
    if (!current.isValid() || current.row() >= static_cast<int>(results.size())) {
        m_details->setText(tr("Select a GPU to see its runners-up and why they lost."));
        return;
    }
    const auto& r = results[static_cast<std::size_t>(current.row())];
    QStringList lines;
    for (const auto& line : present::planDetails(r, controller().planInputs())) {
        lines << text(line).toHtmlEscaped();
    }
    m_details->setText(lines.join(QStringLiteral("<br>")));
}

void PlanView::refresh() {
    const auto& s = controller().scenario();
    const auto in = controller().planInputs();
    // 0 in the tokens field: the imported data's tokens when there are some, else the assumption.
    // Counted whole: a small dataset's 5,190 tokens must not read "0.0 M".
    m_tokens->setSpecialValueText(
        s.dataset ? tr("from your data (%1 tokens)").arg(formatCount(static_cast<std::int64_t>(in.datasetTokens)))
                  : tr("unknown (assumed 100 M tokens)"));
    auto results = core::planCatalog(s, controller().catalog().gpus, in);
    const auto ranking = core::rank(results, in);
    QString rent = text(present::rentSentence(results, ranking, in)).toHtmlEscaped();
    rent.replace(QRegularExpression(QStringLiteral("^([^:]+:)")), QStringLiteral("<b>\\1</b>"));
    QString assumptions;
    if (ranking.chosen >= 0) {
        const auto& chosen = results[static_cast<std::size_t>(ranking.chosen)];
        assumptions = QStringLiteral("<br>") +
                      text(present::planAssumptions(chosen.best, *chosen.gpu, in)).toHtmlEscaped() +
                      QStringLiteral(" ") +
                      text(present::throughputSentence(*chosen.gpu, in, present::SourceText::Citation)).toHtmlEscaped();
    }
    m_ranking->setText(tr("%1 Fit margin %2 above the estimate. Prices are illustrative.%3")
                           .arg(rent, text(present::percent(core::fitMargin(s, in))), assumptions));
    m_trial->setText(text(present::trialSentence(core::firstTestOf(results, ranking, in))));
    if (ranking.chosen >= 0) {
        const auto& chosen = results[static_cast<std::size_t>(ranking.chosen)];
        const core::RunBill bill = core::runBill(chosen.best, *chosen.gpu, in);
        const QString today = QDate::currentDate().toString(Qt::ISODate);
        m_bill->setText(
            tr("<b>The whole bill on %1</b>").arg(QString::fromStdString(chosen.gpu->name).toHtmlEscaped()) +
            toHtml(present::billTable(bill, in)) + text(present::intervalSentence(bill, in)).toHtmlEscaped() +
            QStringLiteral("<br>") + text(present::spotSentence(bill, in)).toHtmlEscaped() + QStringLiteral("<br>") +
            text(present::priceAgeSentence(*chosen.gpu, today.toStdString())).toHtmlEscaped());
    } else {
        m_bill->clear();
    }
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
