#include "AdvisorView.h"

#include "../Format.h"
#include "../Present.h"
#include "../ScenarioController.h"
#include "gpusizer/core/FitTable.h"
#include "gpusizer/present/PlanText.h"

#include <QtGui/QColor>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QGroupBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>
#include <algorithm>

namespace gpusizer::ui {

QString fixName(core::FixKind kind) {
    switch (kind) {
    case core::FixKind::SmallerMicroBatch:
        return QObject::tr("Smaller micro-batch");
    case core::FixKind::ShorterSequence:
        return QObject::tr("Shorter sequences");
    case core::FixKind::SelectiveCheckpointing:
        return QObject::tr("Selective checkpointing");
    case core::FixKind::FullCheckpointing:
        return QObject::tr("Full checkpointing");
    case core::FixKind::EfficientAttention:
        return QObject::tr("FlashAttention / SDPA");
    case core::FixKind::ChunkedLoss:
        return QObject::tr("Chunked cross-entropy");
    case core::FixKind::EightBitAdam:
        return QObject::tr("8-bit AdamW");
    case core::FixKind::Adafactor:
        return QObject::tr("Adafactor");
    case core::FixKind::OptimizerInBackward:
        return QObject::tr("Optimizer in backward");
    case core::FixKind::Lora:
        return QObject::tr("Full → LoRA");
    case core::FixKind::Qlora:
        return QObject::tr("→ QLoRA");
    case core::FixKind::MoreCardsZero3:
        return QObject::tr("More cards, ZeRO-3 / FSDP");
    case core::FixKind::CpuOffload:
        return QObject::tr("CPU offload");
    }
    return {};
}

QString sizingCellText(const core::SizingCell& cell) {
    if (cell.gpu == nullptr) {
        return QObject::tr("none up to %1 cards").arg(core::kMaxCards);
    }
    return QObject::tr("%1 × %2").arg(cell.cards).arg(shortGpuName(*cell.gpu));
}

LadderTableModel::LadderTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void LadderTableModel::setAdvice(core::OomAdvice advice) {
    beginResetModel();
    m_advice = std::move(advice);
    endResetModel();
}

int LadderTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_advice.steps.size());
}

int LadderTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LadderTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) {
        return {};
    }
    const auto& step = m_advice.steps[static_cast<std::size_t>(index.row())];
    if (role == Qt::BackgroundRole) {
        if (!step.applicable) {
            return QColor(0xee, 0xee, 0xee);
        }
        return step.fitsAlone ? QColor(0xc8, 0xe6, 0xc9) : QVariant();
    }
    if (role == Qt::ForegroundRole) {
        return step.applicable ? QVariant() : QVariant(QColor(0x77, 0x77, 0x77));
    }
    if (role == Qt::TextAlignmentRole && (index.column() == Saves || index.column() == After)) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::ToolTipRole) {
        return QString::fromStdString(step.applicable ? step.price : step.notApplicableWhy);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
    case Step:
        return QStringLiteral("%1. %2").arg(index.row() + 1).arg(fixName(step.kind));
    case Change:
        return step.applicable ? QString::fromStdString(step.change)
                               : tr("does not apply: %1").arg(QString::fromStdString(step.notApplicableWhy));
    case Saves:
        return step.applicable ? formatGiB(step.savingAlone) : QString();
    case After:
        return step.applicable ? formatGiB(step.deviceAfterAlone) : QString();
    case FitsAlone:
        return step.applicable ? (step.fitsAlone ? tr("yes") : tr("no")) : QString();
    case Price:
        return QString::fromStdString(step.price);
    default:
        return {};
    }
}

QVariant LadderTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Step:
        return tr("Fix (cheapest first)");
    case Change:
        return tr("What changes");
    case Saves:
        return tr("Saves per GPU");
    case After:
        return tr("Then per GPU");
    case FitsAlone:
        return tr("Fits alone");
    case Price:
        return tr("Price");
    default:
        return {};
    }
}

SizingTableModel::SizingTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void SizingTableModel::setRows(std::vector<core::SizingRow> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int SizingTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int SizingTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SizingTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) {
        return {};
    }
    const auto& row = m_rows[static_cast<std::size_t>(index.row())];
    const core::SizingCell* cell = index.column() == Qlora  ? &row.qlora
                                   : index.column() == Lora ? &row.lora
                                   : index.column() == Full ? &row.full
                                                            : nullptr;
    if (role == Qt::ToolTipRole && cell != nullptr && cell->gpu != nullptr) {
        return tr("%1 per GPU of %2 GiB usable").arg(formatGiB(cell->devicePerGpu)).arg(cell->gpu->memoryGiBUsable);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    if (cell == nullptr) {
        return tr("%1 · %2").arg(QString::fromStdString(row.label), formatParams(row.params));
    }
    return sizingCellText(*cell);
}

QVariant SizingTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case Model:
        return tr("Model size");
    case Qlora:
        return tr("QLoRA");
    case Lora:
        return tr("LoRA");
    case Full:
        return tr("Full fine-tuning");
    default:
        return {};
    }
}

AdvisorView::AdvisorView(ScenarioController& controller, QWidget* parent) : LiveView(controller, parent) {
    setObjectName(QStringLiteral("advisorView"));
    auto* layout = new QVBoxLayout(this);

    auto* oom = new QGroupBox(tr("Out of memory? Fixes in order of cost, computed for this scenario"), this);
    auto* oomLayout = new QVBoxLayout(oom);
    auto* gpuRow = new QHBoxLayout();
    m_gpu = new QComboBox(oom);
    m_gpu->addItem(tr("(the scenario's GPU, else RTX 4090)"), QString());
    for (const auto& g : controller.catalog().gpus) {
        m_gpu->addItem(QString::fromStdString(g.name), QString::fromStdString(g.id));
    }
    m_gpu->setToolTip(tr("The card the run must fit."));
    auto* gpuLabel = new QLabel(tr("Must fit &on"), oom);
    gpuLabel->setBuddy(m_gpu);
    gpuRow->addWidget(gpuLabel);
    gpuRow->addWidget(m_gpu);
    gpuRow->addStretch(1);
    oomLayout->addLayout(gpuRow);
    m_ladder = new LadderTableModel(this);
    m_ladderTable = new QTableView(oom);
    m_ladderTable->setModel(m_ladder);
    m_ladderTable->verticalHeader()->hide();
    m_ladderTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_ladderTable->horizontalHeader()->setStretchLastSection(true);
    m_ladderTable->setWordWrap(true);
    m_ladderTable->setAccessibleName(tr("Out-of-memory fixes"));
    oomLayout->addWidget(m_ladderTable, 1);
    m_combination = new QLabel(oom);
    m_combination->setWordWrap(true);
    m_combination->setTextInteractionFlags(Qt::TextSelectableByMouse);
    oomLayout->addWidget(m_combination);

    auto* lower = new QHBoxLayout();
    auto* method = new QGroupBox(tr("Which method?"), this);
    auto* form = new QFormLayout(method);
    m_distance = new QComboBox(method);
    m_distance->addItems({tr("close to what it already does"), tr("somewhat different"), tr("far from it")});
    m_distance->setCurrentIndex(1);
    m_distance->setToolTip(tr("How far the task is from what the model already does (style vs new skills)."));
    m_data = new QComboBox(method);
    m_data->addItems({tr("small (under 10k examples)"), tr("medium"), tr("large (millions of tokens and more)")});
    m_data->setCurrentIndex(1);
    m_data->setToolTip(tr("How much training data there is."));
    m_tradeoff = new QCheckBox(tr("a small quality loss is fine for a large cost cut"), method);
    m_tradeoff->setToolTip(tr("QLoRA trades a little quality for a 4-bit base."));
    m_serving = new QComboBox(method);
    m_serving->addItems({tr("merged into the model"), tr("as separate adapters")});
    m_serving->setToolTip(tr("How the result will be served."));
    form->addRow(tr("The &task is"), m_distance);
    form->addRow(tr("&Data"), m_data);
    form->addRow(QString(), m_tradeoff);
    form->addRow(tr("&Served"), m_serving);
    m_recommendation = new QLabel(method);
    m_recommendation->setWordWrap(true);
    m_recommendation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(m_recommendation);
    lower->addWidget(method, 2);

    auto* sizing = new QGroupBox(tr("Sizing table at this sequence length and batch"), this);
    auto* sizingLayout = new QVBoxLayout(sizing);
    m_sizing = new SizingTableModel(this);
    m_sizingTable = new QTableView(sizing);
    m_sizingTable->setModel(m_sizing);
    m_sizingTable->verticalHeader()->hide();
    m_sizingTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_sizingTable->horizontalHeader()->setSectionResizeMode(SizingTableModel::Model, QHeaderView::ResizeToContents);
    m_sizingTable->setAccessibleName(tr("Sizing table"));
    sizingLayout->addWidget(m_sizingTable);
    m_sizingCaption = new QLabel(sizing);
    m_sizingCaption->setWordWrap(true);
    sizingLayout->addWidget(m_sizingCaption);
    lower->addWidget(sizing, 3);

    layout->addWidget(oom, 3);
    layout->addLayout(lower, 2);

    connect(m_gpu, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { refreshNow(); });
    for (QComboBox* combo : {m_distance, m_data, m_serving}) {
        connect(combo, qOverload<int>(&QComboBox::currentIndexChanged), this, &AdvisorView::refreshMethod);
    }
    connect(m_tradeoff, &QCheckBox::toggled, this, &AdvisorView::refreshMethod);
    refreshMethod();
}

const core::GpuSpec* AdvisorView::ladderGpu() const {
    const auto& catalog = controller().catalog();
    if (const auto* chosen = catalog.findGpu(m_gpu->currentData().toString().toStdString())) {
        return chosen;
    }
    if (const auto* gpu = controller().selectedGpu()) {
        return gpu;
    }
    if (const auto* rtx = catalog.findGpu("rtx-4090")) {
        return rtx;
    }
    return catalog.gpus.empty() ? nullptr : &catalog.gpus.front();
}

QString AdvisorView::combinationText() const {
    return m_combination->text();
}

QString AdvisorView::recommendationText() const {
    return m_recommendation->text();
}

void AdvisorView::refresh() {
    const auto& s = controller().scenario();
    if (const auto* gpu = ladderGpu()) {
        const auto advice = core::adviseOom(s, *gpu, controller().planInputs());
        const QString name = QString::fromStdString(gpu->name);
        if (advice.fitsAlready) {
            m_combination->setText(tr("%1 — no fix needed.").arg(text(present::fitSentence(advice.asIs, *gpu))));
        } else if (advice.fittingScenario) {
            QStringList fixes;
            for (auto kind : advice.combination) {
                fixes << fixName(kind);
            }
            m_combination->setText(
                tr("Needs %1 per GPU, %2 has %3 GiB. First combination that fits, taking the fixes "
                   "in order: %4 → %5 per GPU.")
                    .arg(formatGiB(advice.deviceBytes), name)
                    .arg(gpu->memoryGiBUsable)
                    .arg(fixes.join(QStringLiteral(" + ")), formatGiB(advice.deviceAfterCombination)));
        } else {
            m_combination->setText(tr("Needs %1 per GPU; no combination of the fixes fits the %2.")
                                       .arg(formatGiB(advice.deviceBytes), name));
        }
        m_ladder->setAdvice(advice);
        m_ladderTable->resizeColumnsToContents();
        m_ladderTable->setColumnWidth(LadderTableModel::Change,
                                      std::min(m_ladderTable->columnWidth(LadderTableModel::Change), 330));
        m_ladderTable->resizeRowsToContents();
    }
    m_sizing->setRows(core::sizingTable(s, controller().catalog(), controller().planInputs()));
    m_sizingCaption->setText(tr("Cheapest-in-memory catalog card and count for %1 tokens × %2 per GPU (ZeRO-3 beyond "
                                "one card). Change the sequence length to see the cells move.")
                                 .arg(formatCount(s.seqLen), formatCount(s.microBatch)));
}

core::MethodQuestions AdvisorView::methodAnswers() const {
    core::MethodQuestions q;
    q.distance = static_cast<core::MethodQuestions::Distance>(m_distance->currentIndex());
    q.data = static_cast<core::MethodQuestions::Data>(m_data->currentIndex());
    q.acceptsSmallQualityLoss = m_tradeoff->isChecked();
    q.serving = static_cast<core::MethodQuestions::Serving>(m_serving->currentIndex());
    return q;
}

void AdvisorView::refreshMethod() {
    const auto advice = core::adviseMethod(methodAnswers());
    QString text = tr("<b>Recommended: %1</b>")
                       .arg(advice.method == core::Method::Full   ? tr("full fine-tuning")
                            : advice.method == core::Method::Lora ? tr("LoRA")
                                                                  : tr("QLoRA"));
    for (const auto& r : advice.reasons) {
        text += QStringLiteral("<br>• ") + QString::fromStdString(r).toHtmlEscaped();
    }
    for (const auto& c : advice.caveats) {
        text += QStringLiteral("<br>⚠ ") + QString::fromStdString(c).toHtmlEscaped();
    }
    m_recommendation->setText(text);
}

} // namespace gpusizer::ui
