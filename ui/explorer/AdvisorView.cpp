#include "AdvisorView.h"

#include "../Format.h"
#include "../Present.h"
#include "../ScenarioController.h"
#include "../Shrinkable.h"
#include "gpusizer/plan/FitTable.h"
#include "gpusizer/present/AdviceText.h"
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

namespace {
constexpr int kSideBySideWidth = 900; // pixels; the side-by-side minimum is about 725
} // namespace

LadderTableModel::LadderTableModel(QObject* parent) : TableModel(parent) {
    setTable(present::ladderTable({}, {}, {}, {}));
}

void LadderTableModel::setAdvice(core::OomAdvice advice, const core::Scenario& scenario, const core::GpuSpec& gpu,
                                 const core::PlanInputs& inputs) {
    m_advice = std::move(advice);
    setTable(present::ladderTable(m_advice, scenario, gpu, inputs));
}

SizingTableModel::SizingTableModel(QObject* parent) : TableModel(parent) {
    setRows({});
}

void SizingTableModel::setRows(std::vector<core::SizingRow> rows) {
    m_rows = std::move(rows);
    setTable(present::sizingTable(m_rows));
}

AdvisorView::AdvisorView(ScenarioController& controller, QWidget* parent) : LiveView(controller, parent) {
    setObjectName(QStringLiteral("advisorView"));
    auto* layout = new QVBoxLayout(this);

    // Created in this order, which is also the tab order: the ladder, the questionnaire, the sizing table.
    QGroupBox* oom = createOomGroup();
    m_lower = new QBoxLayout(QBoxLayout::LeftToRight);
    m_lower->addWidget(createMethodGroup(), 2);
    m_lower->addWidget(createSizingGroup(), 3);

    // The ladder scrolls; the questionnaire and the sizing table get the height their words need (never clipped).
    layout->addWidget(oom, 1);
    layout->addLayout(m_lower, 0);

    connect(m_gpu, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { refreshNow(); });
    for (QComboBox* combo : {m_distance, m_data, m_serving}) {
        connect(combo, qOverload<int>(&QComboBox::currentIndexChanged), this, &AdvisorView::refreshMethod);
    }
    connect(m_tradeoff, &QCheckBox::toggled, this, &AdvisorView::refreshMethod);
    refreshMethod();
}

bool AdvisorView::sideBySide() const {
    return m_lower->direction() == QBoxLayout::LeftToRight;
}

void AdvisorView::resizeEvent(QResizeEvent* event) {
    LiveView::resizeEvent(event);
    // Narrow (a 1024-pixel window): one above the other, so the page needs no sideways scrolling. The threshold
    // lies above the side-by-side minimum, so the two arrangements never flip back and forth.
    m_lower->setDirection(width() < kSideBySideWidth ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
}

QGroupBox* AdvisorView::createOomGroup() {
    auto* oom = new QGroupBox(tr("Out of memory? Fixes in order of cost, computed for this scenario"), this);
    auto* oomLayout = new QVBoxLayout(oom);
    auto* gpuRow = new QHBoxLayout();
    m_gpu = new QComboBox(oom);
    makeShrinkable(m_gpu, 18);
    m_gpu->addItem(tr("(the scenario's GPU, else RTX 4090)"), QString());
    for (const auto& g : controller().catalog().gpus) {
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
    m_ladderTable = newTableView(m_ladder, oom);
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
    return oom;
}

QGroupBox* AdvisorView::createMethodGroup() {
    auto* method = new QGroupBox(tr("Which method?"), this);
    auto* column = new QVBoxLayout(method);
    auto* form = new QFormLayout();
    column->addLayout(form);
    m_distance = new QComboBox(method);
    makeShrinkable(m_distance, 12);
    m_distance->addItems({tr("close to what it already does"), tr("somewhat different"), tr("far from it")});
    m_distance->setCurrentIndex(1);
    m_distance->setToolTip(tr("How far the task is from what the model already does (style vs new skills)."));
    m_data = new QComboBox(method);
    makeShrinkable(m_data, 12);
    m_data->addItems({tr("small (under 10k examples)"), tr("medium"), tr("large (millions of tokens and more)")});
    m_data->setCurrentIndex(1);
    m_data->setToolTip(tr("How much training data there is."));
    m_tradeoff = new QCheckBox(tr("a small quality loss is fine for a large cost cut"), method);
    m_tradeoff->setToolTip(tr("QLoRA trades a little quality for a 4-bit base."));
    m_serving = new QComboBox(method);
    makeShrinkable(m_serving, 12);
    m_serving->addItems({tr("merged into the model"), tr("as separate adapters")});
    m_serving->setToolTip(tr("How the result will be served."));
    form->addRow(tr("Th&e task is"), m_distance);
    form->addRow(tr("&Data"), m_data);
    form->addRow(QString(), m_tradeoff);
    form->addRow(tr("Se&rved"), m_serving);
    m_recommendation = new QLabel(method);
    m_recommendation->setWordWrap(true);
    m_recommendation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Below the form, not in a spanning form row: a form row does not grow with the wrapped text's height.
    column->addWidget(m_recommendation);
    column->addStretch(1);
    return method;
}

QGroupBox* AdvisorView::createSizingGroup() {
    auto* sizing = new QGroupBox(tr("Sizing table at this sequence length and batch"), this);
    auto* sizingLayout = new QVBoxLayout(sizing);
    m_sizing = new SizingTableModel(this);
    m_sizingTable = newTableView(m_sizing, sizing);
    m_sizingTable->verticalHeader()->hide();
    m_sizingTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_sizingTable->horizontalHeader()->setSectionResizeMode(SizingTableModel::Model, QHeaderView::ResizeToContents);
    // A card's name wraps onto as many lines as it needs instead of ending in "…".
    m_sizingTable->setWordWrap(true);
    m_sizingTable->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_sizingTable->setAccessibleName(tr("Sizing table"));
    sizingLayout->addWidget(m_sizingTable);
    m_sizingCaption = new QLabel(sizing);
    m_sizingCaption->setWordWrap(true);
    sizingLayout->addWidget(m_sizingCaption);
    return sizing;
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
        const auto& in = controller().planInputs();
        auto advice = core::adviseOom(s, *gpu, in);
        m_combination->setText(text(present::adviceConclusion(advice, *gpu)));
        m_ladder->setAdvice(std::move(advice), s, *gpu, in);
        m_ladderTable->resizeColumnsToContents();
        m_ladderTable->setColumnWidth(LadderTableModel::Change,
                                      std::min(m_ladderTable->columnWidth(LadderTableModel::Change), 330));
        m_ladderTable->resizeRowsToContents();
        // At most two lines a row, whatever width the stretched Price column gets: longer cells elide and keep
        // their whole text in the tooltip, so a narrow column cannot push the ladder's rows out of view.
        const int twoLines = 2 * m_ladderTable->fontMetrics().lineSpacing() + 6;
        for (int row = 0; row < m_ladder->rowCount(); ++row) {
            m_ladderTable->setRowHeight(row, std::min(m_ladderTable->rowHeight(row), twoLines));
        }
    }
    auto rows = core::sizingTable(s, controller().catalog(), controller().planInputs());
    const present::Message vocabulary = present::sizingVocabularyNote(rows, controller().catalog());
    m_sizingCaption->setText(text(present::sizingCaption(s, controller().planInputs())) + QStringLiteral(" ") +
                             tr("Change the sequence length to see the cells move.") +
                             (vocabulary.empty() ? QString() : QStringLiteral(" ") + text(vocabulary)));
    m_sizing->setRows(std::move(rows));
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
    const auto recommendation = present::methodRecommendation(core::adviseMethod(methodAnswers()));
    QString text = QStringLiteral("<b>%1</b>").arg(ui::text(recommendation.title).toHtmlEscaped());
    for (const auto& block : recommendation.blocks) {
        for (const auto& line : block.lines) {
            text += QStringLiteral("<br>• ") + ui::text(line).toHtmlEscaped();
        }
    }
    m_recommendation->setText(text);
}

} // namespace gpusizer::ui
