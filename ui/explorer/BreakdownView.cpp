#include "BreakdownView.h"

#include "../Format.h"
#include "../Present.h"
#include "../ScenarioController.h"
#include "../charts/BreakdownChartView.h"
#include "gpusizer/plan/Measurement.h"
#include "gpusizer/present/EstimateText.h"
#include "gpusizer/present/Names.h"
#include "gpusizer/present/PlanTables.h"

#include <QtCore/QCoreApplication>
#include <QtGui/QFont>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QScrollBar>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

namespace gpusizer::ui {

QLabel* addChartWithLineKey(QBoxLayout* layout, BreakdownChartView* chart, int stretch) {
    auto* column = new QVBoxLayout();
    column->setSpacing(2);
    chart->setComponentKeyShown(false);
    column->addWidget(chart, 1);
    auto* key = new QLabel(chart->parentWidget());
    key->setObjectName(QStringLiteral("chartLineKey"));
    key->setWordWrap(true); // wraps between entries instead of eliding them, however narrow the chart
    key->setAlignment(Qt::AlignHCenter);
    column->addWidget(key);
    layout->addLayout(column, stretch);
    return key;
}

QVariant componentSwatch(const std::string& rowKey) {
    for (core::Component c : core::kAllComponents) {
        if (rowKey == core::componentKey(c)) {
            return componentColor(c);
        }
    }
    return {};
}

ComponentTableModel::ComponentTableModel(QObject* parent) : TableModel(parent) {
    setDecoration(componentSwatch);
    setEstimate(core::Estimate{}); // the columns exist before the first estimate (views size them)
}

void ComponentTableModel::setEstimate(const core::Estimate& estimate) {
    using namespace present;
    setTable(componentTable(estimate).select({CompName, CompBytes, CompShare}));
}

QString BreakdownView::bannerText() const {
    return m_banner->text();
}

std::vector<CapacityLine> capacityLines(const core::Catalog& catalog, const std::string& gpuId, std::size_t count) {
    std::vector<CapacityLine> lines;
    auto add = [&](const std::string& id) {
        const auto* g = catalog.findGpu(id);
        if (g != nullptr && lines.size() < count) {
            lines.push_back({QCoreApplication::translate("BreakdownView", "%1 (%2 GiB)")
                                 .arg(shortGpuName(*g))
                                 .arg(g->memoryGiBUsable),
                             g->usableBytes(), capacityColor(g->id)});
        }
    };
    add(gpuId);
    for (const char* id : {kComparisonGpuId, "l40s", "h100-sxm", "h200"}) {
        if (id != gpuId) {
            add(id);
        }
    }
    return lines;
}

BreakdownView::BreakdownView(ScenarioController& controller, QWidget* parent) : LiveView(controller, parent) {
    setObjectName(QStringLiteral("breakdownView"));
    auto* layout = new QVBoxLayout(this);
    // The answer first: does it fit the chosen card, and what the planner would rent.
    m_banner = new QLabel(this);
    m_banner->setObjectName(QStringLiteral("verdictBanner"));
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setMargin(6);
    m_banner->setAccessibleName(tr("Verdict"));
    layout->addWidget(m_banner);
    auto* top = new QHBoxLayout();
    m_chart = new BreakdownChartView(this);
    m_chart->followPalette(palette());
    m_lineKey = addChartWithLineKey(top, m_chart, 3); // the component table beside it keys the colours
    auto* side = new QVBoxLayout();
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    side->addWidget(m_summary);
    m_model = new ComponentTableModel(this);
    m_table = newTableView(m_model, this);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8); // all rows in view
    // Every column sized to its contents and the table kept that wide: the chart yields the room, not the names.
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setWordWrap(false);
    m_table->setAccessibleName(tr("Memory components per GPU"));
    side->addWidget(m_table, 1, Qt::AlignLeft);
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

void BreakdownView::refreshBanner() {
    const auto& s = controller().scenario();
    const auto& catalog = controller().catalog();
    const core::PlanInputs& in = controller().planInputs();
    const core::GpuSpec* gpu = controller().selectedGpu();
    const auto plans = core::planCatalog(s, catalog.gpus, in);
    const auto banner = present::verdictBanner(s, gpu, gpu == nullptr ? catalog.findGpu(kComparisonGpuId) : nullptr,
                                               plans, core::rank(plans, in), in);
    m_verdict = banner.verdict;
    const present::Tone tone = !banner.verdict                              ? present::Tone::Muted
                               : *banner.verdict == core::FitVerdict::Fits  ? present::Tone::Good
                               : *banner.verdict == core::FitVerdict::Tight ? present::Tone::Warn
                                                                            : present::Tone::Bad;
    // Pastel shades with black text read the same in the light and the dark palette.
    m_banner->setStyleSheet(tone == present::Tone::Muted
                                ? QStringLiteral("QLabel { border: 1px solid palette(mid); }")
                                : QStringLiteral("QLabel { background: %1; color: black; border: 1px solid %2; }")
                                      .arg(toneColor(tone).name(), toneColor(tone).darker(140).name()));
    m_banner->setText(QStringLiteral("<b>%1</b><br>%2")
                          .arg(text(banner.onChosenGpu).toHtmlEscaped(), text(banner.rent).toHtmlEscaped()));
}

void BreakdownView::refresh() {
    const auto& s = controller().scenario();
    const auto& e = controller().estimate();
    refreshBanner();
    m_chart->setBars(
        {{s.gpus > 1 ? tr("Each of %1 GPUs").arg(s.gpus) : tr("Per GPU"), e.perGpu, e.bandLowBytes, e.bandHighBytes}},
        capacityLines(controller().catalog(), s.gpuId, 1));
    m_lineKey->setText(m_chart->lineKeyHtml());
    m_model->setEstimate(e);
    m_table->resizeColumnsToContents();
    int contentWidth = 2 * m_table->frameWidth() + m_table->verticalScrollBar()->sizeHint().width();
    for (int column = 0; column < m_model->columnCount(); ++column) {
        contentWidth += m_table->horizontalHeader()->sectionSize(column);
    }
    m_table->setFixedWidth(contentWidth);
    // Every row in view, the total included, whatever the language's line height: the page scrolls, never the table.
    m_table->setMinimumHeight(2 * m_table->frameWidth() + m_table->horizontalHeader()->sizeHint().height() +
                              m_model->rowCount() * m_table->verticalHeader()->defaultSectionSize());
    m_summary->setText(
        tr("<b>%1 per GPU</b> on the device (nvidia-smi), expected %2 – %3.<br>"
           "Allocated peak (torch.cuda.max_memory_allocated): %4 · reserved: %5 for the fit, %9 on a card with room "
           "(max_memory_reserved).<br>"
           "Peak moment: %6 · %7 parameters, %8 trainable.")
            .arg(formatGiB(e.deviceBytes), formatGiB(e.bandLowBytes), formatGiB(e.bandHighBytes),
                 formatGiB(e.allocatedPeakBytes), formatGiB(e.reservedPeakBytes), text(present::label(e.peakMoment)),
                 formatParams(e.params.total), formatParams(e.trainableParams), formatGiB(e.measuredReservedBytes())));
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
