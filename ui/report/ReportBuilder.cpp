#include "ReportBuilder.h"

#include "../Format.h"
#include "../Present.h"
#include "../TableModel.h"
#include "../charts/BreakdownChartView.h"
#include "../charts/ChartPicture.h"
#include "../charts/SeqLenChartView.h"
#include "../explorer/AdvisorView.h"
#include "../explorer/BreakdownView.h"
#include "../explorer/FitTableModel.h"
#include "../explorer/PlanView.h"
#include "ChartObject.h"
#include "PdfExporter.h"
#include "PrintFont.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/memory/Accuracy.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/memory/Sweep.h"
#include "gpusizer/plan/Bill.h"
#include "gpusizer/plan/Compare.h"
#include "gpusizer/plan/FitTable.h"
#include "gpusizer/plan/Measurement.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/plan/Planning.h"
#include "gpusizer/present/AdviceText.h"
#include "gpusizer/present/BillText.h"
#include "gpusizer/present/CompareText.h"
#include "gpusizer/present/EstimateText.h"
#include "gpusizer/present/Format.h"
#include "gpusizer/present/InputsText.h"
#include "gpusizer/present/Names.h"
#include "gpusizer/present/PlanText.h"
#include "gpusizer/scenario/Units.h"
#include "gpusizer/scenario/Version.h"

#include <QtCore/QCoreApplication>
#include <QtGui/QFont>
#include <QtGui/QTextCursor>
#include <QtGui/QTextDocument>
#include <QtGui/QTextList>
#include <QtGui/QTextTable>
#include <algorithm>
#include <map>

namespace gpusizer::ui {

namespace {

QString modelName(const core::Scenario& s) {
    return s.model.sizeDerived ? ReportBuilder::tr("size-derived model") : QString::fromStdString(s.model.name);
}

/// Text styles of the report.
struct Styles {
    QTextCharFormat body;
    QTextCharFormat bold;
    QTextCharFormat small;
    QTextCharFormat h1;
    QTextCharFormat h2;
    QTextBlockFormat paragraph;
    QTextBlockFormat heading;

    Styles() {
        QFont base = printFont(QFont());
        base.setPointSizeF(9.5);
        body.setFont(base);
        bold = body;
        bold.setFontWeight(QFont::Bold);
        small = body;
        small.setFontPointSize(8.0);
        small.setForeground(QColor(0x44, 0x44, 0x44));
        h1 = bold;
        h1.setFontPointSize(18);
        h2 = bold;
        h2.setFontPointSize(13);
        h2.setForeground(QColor(0x1f, 0x3a, 0x5f));
        paragraph.setBottomMargin(6);
        heading.setTopMargin(14);
        heading.setBottomMargin(6);
        heading.setPageBreakPolicy(QTextFormat::PageBreak_Auto);
    }
};

class Writer {
public:
    Writer(QTextDocument* doc, ChartObject* charts) : m_cursor(doc), m_charts(charts) {}

    void heading(const QString& text, const QTextCharFormat& format, bool keepWithChart) {
        QTextBlockFormat block = m_styles.heading;
        // Sections with a chart keep their heading on the chart's page (decided once paginated, exportPdf).
        block.setPageBreakPolicy(QTextFormat::PageBreak_Auto);
        if (keepWithChart) {
            block.setProperty(kKeepWithChartProperty, true);
        }
        m_cursor.insertBlock(block, format);
        m_cursor.insertText(text, format);
    }
    void h1(const QString& text) { heading(text, m_styles.h1, false); }
    void h2(const QString& text, bool keepWithChart = false) { heading(text, m_styles.h2, keepWithChart); }
    void paragraph(const QString& text, bool small = false) {
        m_cursor.insertBlock(m_styles.paragraph, small ? m_styles.small : m_styles.body);
        m_cursor.insertText(text, small ? m_styles.small : m_styles.body);
    }
    void html(const QString& markup) {
        m_cursor.insertBlock(m_styles.paragraph, m_styles.body);
        m_cursor.insertHtml(markup);
    }
    void bullets(const QStringList& items, bool small = false) {
        QTextListFormat listFormat;
        listFormat.setStyle(QTextListFormat::ListDisc);
        listFormat.setIndent(1);
        QTextList* list = nullptr;
        for (const QString& item : items) {
            m_cursor.insertBlock(m_styles.paragraph, small ? m_styles.small : m_styles.body);
            if (list == nullptr) {
                list = m_cursor.createList(listFormat);
            } else {
                list->add(m_cursor.block());
            }
            m_cursor.insertText(item, small ? m_styles.small : m_styles.body);
        }
    }
    void chart(QPicture picture, double aspect) {
        QTextBlockFormat centred = m_styles.paragraph;
        centred.setAlignment(Qt::AlignHCenter);
        m_cursor.insertBlock(centred);
        m_charts->insert(m_cursor, std::move(picture), aspect);
    }
    /// A table with a repeated header row; `align` per column ('l' or 'r'); `shade` per row (invalid: none).
    /// A present::Table: its cells as the window shows them, a row shaded by its first toned cell.
    void table(const present::Table& input, const std::vector<double>& widths = {}) {
        const present::Table t = present::withRowHeaderColumn(input);
        QStringList header;
        QString align;
        for (const auto& column : t.columns) {
            header << text(column.header);
            align += column.align == present::Align::Right ? QLatin1Char('r') : QLatin1Char('l');
        }
        std::vector<QStringList> rows;
        std::vector<QColor> shades;
        for (const auto& row : t.rows) {
            QStringList cells;
            QColor shade;
            for (const auto& cell : row) {
                cells << cellText(cell);
                shade = shade.isValid() || cell.tone == present::Tone::None ? shade : toneColor(cell.tone);
            }
            rows.push_back(cells);
            shades.push_back(shade);
        }
        table(header, rows, align, shades, widths);
    }

    /// A table; `widths` (percent of the page width per column, optional) keeps long text columns from wrapping.
    void table(const QStringList& header, const std::vector<QStringList>& rows, const QString& align,
               const std::vector<QColor>& shade = {}, const std::vector<double>& widths = {}) {
        // One edit block per table: the layout runs once instead of after every cell.
        m_cursor.beginEditBlock();
        m_cursor.insertBlock(m_styles.paragraph);
        QTextTableFormat format;
        format.setHeaderRowCount(1);
        format.setCellPadding(3); // columns must not run together, on paper or in pdftotext
        format.setCellSpacing(0);
        format.setBorder(0.5);
        format.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
        format.setBorderBrush(QColor(0xb0, 0xb0, 0xb0));
        format.setBorderCollapse(true);
        format.setWidth(QTextLength(QTextLength::PercentageLength, 100));
        if (!widths.empty()) {
            QList<QTextLength> constraints;
            for (double w : widths) {
                constraints << QTextLength(QTextLength::PercentageLength, w);
            }
            format.setColumnWidthConstraints(constraints);
        }
        QTextTable* t =
            m_cursor.insertTable(static_cast<int>(rows.size()) + 1, static_cast<int>(header.size()), format);
        auto fill = [&](int row, int column, const QString& text, const QTextCharFormat& charFormat,
                        QColor background) {
            QTextTableCell cell = t->cellAt(row, column);
            QTextTableCellFormat cellFormat = cell.format().toTableCellFormat();
            if (background.isValid()) {
                cellFormat.setBackground(background);
            }
            // A left-aligned column after a right-aligned one would sit flush against it ("Share What it holds",
            // "23.6 GiB no"): the gap is widened so the eye, and pdftotext, keep them apart.
            if (column > 0 && column < align.size() && align[column - 1] == QLatin1Char('r') &&
                align[column] != QLatin1Char('r')) {
                cellFormat.setLeftPadding(12);
            }
            cell.setFormat(cellFormat);
            QTextCursor c = cell.firstCursorPosition();
            QTextBlockFormat block;
            block.setAlignment(column < align.size() && align[column] == QLatin1Char('r') ? Qt::AlignRight
                                                                                          : Qt::AlignLeft);
            c.setBlockFormat(block);
            c.insertText(text, charFormat);
        };
        QTextCharFormat headerFormat = m_styles.small;
        headerFormat.setFontWeight(QFont::Bold);
        for (int c = 0; c < header.size(); ++c) {
            fill(0, c, header[c], headerFormat, QColor(0xe8, 0xec, 0xf2));
        }
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const QColor background = r < shade.size() ? shade[r] : QColor();
            for (int c = 0; c < rows[r].size(); ++c) {
                fill(static_cast<int>(r) + 1, c, rows[r][c], m_styles.small, background);
            }
        }
        m_cursor.movePosition(QTextCursor::End);
        m_cursor.endEditBlock();
    }

private:
    QTextCursor m_cursor;
    ChartObject* m_charts;
    Styles m_styles;
};

/// The title block: scenario, date and version, the summary, how memory is counted, and the estimate's warnings.
void writeSummary(Writer& w, const ReportRequest& request, const QString& summary, const core::Estimate& e) {
    w.h1(ReportBuilder::tr("GPU sizing report"));
    w.paragraph(ReportBuilder::tr("Scenario: %1 · generated %2 · GPU Sizer %3")
                    .arg(request.title, request.generatedAt.toString(Qt::ISODate),
                         QString::fromLatin1(core::versionString().data(),
                                             static_cast<qsizetype>(core::versionString().size()))),
                true);
    w.paragraph(summary);
    w.paragraph(
        ReportBuilder::tr(
            "Memory is in GiB (2³⁰ bytes), per GPU unless labelled total. Vendor capacities (\"80 GB\") are shown "
            "as stated, next to the usable GiB a training process sees."),
        true);
    for (const auto& warning : e.warnings) {
        w.paragraph(QStringLiteral("⚠ ") + ui::text(warning.words), true);
    }
}

void writeInputs(Writer& w, const core::Scenario& s, const core::Catalog& catalog) {
    w.h2(ReportBuilder::tr("1. Inputs"));
    w.table(present::inputsTable(s, catalog));
}

/// The memory per GPU as a chart and by component, and the three peaks (allocated, reserved, device).
void writeBreakdown(Writer& w, const core::Scenario& s, const core::Estimate& e, const core::Catalog& catalog,
                    const core::GpuSpec* gpu) {
    w.h2(ReportBuilder::tr("2. Memory per GPU"), true);
    {
        BreakdownChartView view;
        // Only the GPU in mind, if any.
        const auto selected = gpu != nullptr ? capacityLines(catalog, s.gpuId, 1) : std::vector<CapacityLine>{};
        view.setBars({{s.gpus > 1 ? ReportBuilder::tr("Each of %1 GPUs").arg(s.gpus) : ReportBuilder::tr("Per GPU"),
                       e.perGpu, e.bandLowBytes, e.bandHighBytes}},
                     selected);
        w.chart(chartPicture(&view, QSize(900, 430)), 430.0 / 900.0);
    }
    w.table(present::componentTable(e).select(
        {present::CompName, present::CompBytes, present::CompShare, present::CompHolds}));
    w.bullets(
        {ReportBuilder::tr(
             "Allocated peak %1: what torch.cuda.max_memory_allocated() reports — live tensors at the peak moment "
             "(%2).")
             .arg(formatGiB(e.allocatedPeakBytes))
             .arg(text(present::label(e.peakMoment))),
         ReportBuilder::tr(
             "Reserved peak %1: the allocated peak plus the caching allocator's block slack, which the device figure "
             "below builds on. "
             "torch.cuda.max_memory_reserved() reports %2 on a card with room: the allocator keeps freed blocks "
             "cached and returns them only when a new segment would not fit.")
             .arg(formatGiB(e.reservedPeakBytes), formatGiB(e.measuredReservedBytes())),
         ReportBuilder::tr(
             "Device %1: what nvidia-smi shows — reserved plus the CUDA context, communication buffers and paged "
             "optimizer states. Fit decisions use this figure.")
             .arg(formatGiB(e.deviceBytes))});
}

/// The scenario's own measured runs against the estimate; nothing when it has none.
void writeMeasured(Writer& w, const core::Scenario& s, const core::Catalog& catalog) {
    if (!s.measurements.empty()) {
        std::vector<present::MeasuredRun> runs;
        for (const auto& m : core::storedMeasurements(s, catalog)) {
            if (auto c = core::compareMeasured(s, m, catalog)) {
                runs.push_back({present::runLabel(m), std::move(*c)});
            }
        }
        w.paragraph(ReportBuilder::tr("Measured runs of this scenario (the GPU Sizer measurement script):"), true);
        w.table(present::measuredTable(runs));
    }
}

void writeSeqLen(Writer& w, const core::Scenario& s, const core::Estimate& e, const core::Catalog& catalog) {
    w.h2(ReportBuilder::tr("3. Memory per GPU against sequence length"), true);
    {
        SeqLenChartView view;
        view.setSweep(core::sweepSeqLen(s, core::powersOfTwo(128, 131072)), s.seqLen, e.deviceBytes,
                      capacityLines(catalog, s.gpuId, 5));
        w.chart(chartPicture(&view, QSize(900, 380)), 380.0 / 900.0);
    }
    w.paragraph(
        ReportBuilder::tr(
            "Device memory per GPU at micro-batch %1, everything else as in the inputs; dashed lines are usable "
            "capacities; the red dot is the current length.")
            .arg(s.microBatch),
        true);
}

void writeFit(Writer& w, const core::Scenario& s, const core::Estimate& e, const core::Catalog& catalog,
              const core::PlanInputs& planIn) {
    w.h2(ReportBuilder::tr("4. Which GPUs fit"));
    const auto rows = core::fitTable(s, catalog.gpus, planIn);
    w.paragraph(ReportBuilder::tr(
                    "Your layout (%1 GPU(s) as set, %2 per GPU) on each card, with the %3 margin the estimate's band "
                    "asks for: green fits; amber tight (only the estimate fits) or fits with the planner's layout; red "
                    "nothing fits up to %4 cards. Best on this card is what the planner would rent there (objective: "
                    "%5). Max batch (micro-batch) and sequence are on one card, with the margin.")
                    .arg(s.gpus)
                    .arg(text(present::gib(e.deviceBytes)))
                    .arg(text(present::percent(core::fitMargin(s, planIn))))
                    .arg(planIn.maxGpus)
                    .arg(text(present::objectiveRule(planIn))),
                true);
    w.table(present::fitTable(rows, planIn, s.gpuId, present::LayoutText::Full)
                .select({present::FitGpu, present::FitYours, present::FitBest, present::FitCost, present::FitMaxBatch,
                         present::FitMaxSeq}),
            {18, 14, 44, 8, 7, 9});
}

/// Full fine-tuning, LoRA and QLoRA of the same scenario: a chart and a table.
void writeCompare(Writer& w, const core::Scenario& s, const core::Catalog& catalog, const core::PlanInputs& in) {
    w.h2(ReportBuilder::tr("5. Full fine-tuning, LoRA and QLoRA side by side"), true);
    const auto variants = core::compareMethods(s, catalog.gpus, in);
    {
        BreakdownChartView view;
        std::vector<BreakdownBar> bars;
        for (const auto& v : variants) {
            bars.push_back({text(present::variantChartLabel(v, present::CompareAxis::Methods)), v.estimate.perGpu,
                            v.estimate.bandLowBytes, v.estimate.bandHighBytes});
        }
        view.setBars(bars, {});
        w.chart(chartPicture(&view, QSize(900, 360)), 360.0 / 900.0);
    }
    w.table(present::compareTable(variants, present::CompareAxis::Methods));
}

/// How ZeRO-3 scales on A100-class cards over PCIe and NVLink; nothing without that card in the catalog.
void writeScaling(Writer& w, const core::Scenario& s, const core::Catalog& catalog, const core::PlanInputs& in) {
    if (const auto* a100 = catalog.findGpu("a100-80gb-sxm")) {
        core::Scenario scaled = s;
        scaled.sharding = core::Sharding::Zero3;
        const auto pcie = core::scalingCurve(scaled, *a100, in, 8, "pcie");
        const auto nvlink = core::scalingCurve(scaled, *a100, in, 8, "nvlink");
        if (pcie.size() == 4 && nvlink.size() == 4) {
            w.paragraph(
                ReportBuilder::tr("Scaling with ZeRO-3 on A100-class cards, same batch per GPU: 2 / 4 / 8 cards give "
                                  "%1× / %2× / %3× the throughput over PCIe and %4× / %5× / %6× over NVLink.")
                    .arg(pcie[1].speedup, 0, 'f', 2)
                    .arg(pcie[2].speedup, 0, 'f', 2)
                    .arg(pcie[3].speedup, 0, 'f', 2)
                    .arg(nvlink[1].speedup, 0, 'f', 2)
                    .arg(nvlink[2].speedup, 0, 'f', 2)
                    .arg(nvlink[3].speedup, 0, 'f', 2),
                true);
        }
    }
}

/// The planner's choice on every card that fits, cheapest first; what to rent, and how it scales.
void writePlan(Writer& w, const core::Scenario& s, const core::Catalog& catalog, const core::PlanInputs& in,
               const QDate& today) {
    w.h2(ReportBuilder::tr("6. Cards, time and cost"), true);
    // The step before renting anything: an hour on the card the plan rents.
    auto results = core::planCatalog(s, catalog.gpus, in);
    const auto ranking = core::rank(results, in);
    w.paragraph(text(present::trialSentence(core::firstTestOf(results, ranking, in))));
    std::vector<int> order;
    for (int i = 0; i < static_cast<int>(results.size()); ++i) {
        if (results[static_cast<std::size_t>(i)].found) {
            order.push_back(i);
        }
    }
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return core::costOf(results[static_cast<std::size_t>(a)].best, in) <
               core::costOf(results[static_cast<std::size_t>(b)].best, in);
    });
    w.paragraph(
        ReportBuilder::tr(
            "%1 × %2 epochs; %3. For every GPU that fits, the count and layout the planner chose (%4), cheapest "
            "first; %5 of %6 catalog GPUs fit up to %7 cards. Wall time and cost include the start-up and the final "
            "copy; cost is at on-demand prices, Spot at spot prices; both illustrative.")
            .arg(text(present::tokensAssumption(in)))
            .arg(in.epochs)
            .arg(in.mfu ? ReportBuilder::tr("HFU %1% on every card (as set)").arg(*in.mfu * 100.0)
                        : ReportBuilder::tr("each card's published HFU, 25% where none is published"))
            .arg(text(present::objectiveRule(in)))
            .arg(order.size())
            .arg(results.size())
            .arg(in.maxGpus),
        true);
    // Cheapest first, the cards that fit only; the on-demand and the spot price side by side.
    std::vector<core::CardPlan> fitting;
    for (int i : order) {
        fitting.push_back(results[static_cast<std::size_t>(i)]);
    }
    core::PlanInputs onDemand = in;
    onDemand.spot = false;
    w.table(present::planTable(fitting, onDemand, -1, present::LayoutText::Full)
                .select({present::PlanGpu, present::PlanLayout, present::PlanPerGpu, present::PlanHours,
                         present::PlanGpuHours, present::PlanCost, present::PlanOtherCost}),
            {19, 42, 8, 8, 6, 9, 8});
    w.paragraph(text(present::rentSentence(results, ranking, in)));
    if (ranking.chosen >= 0) {
        // The whole bill of the plan to rent: beyond the GPU-hour, and the order that ends it.
        const auto& chosen = results[static_cast<std::size_t>(ranking.chosen)];
        w.paragraph(text(present::planAssumptions(chosen.best, *chosen.gpu, in)) + QStringLiteral(" ") +
                    text(present::throughputSentence(*chosen.gpu, in)));
        const core::RunBill bill = core::runBill(chosen.best, *chosen.gpu, in);
        w.paragraph(
            ReportBuilder::tr("The whole bill on %1 (%2):")
                .arg(QString::fromStdString(chosen.gpu->name), text(present::cardsAndLayout(chosen.best.scenario))));
        w.table(present::billTable(bill, in), {58, 21, 21});
        w.bullets({text(present::intervalSentence(bill, in)), text(present::spotSentence(bill, in)),
                   text(present::priceAgeSentence(*chosen.gpu, today.toString(Qt::ISODate).toStdString()))},
                  true);
        w.paragraph(
            ReportBuilder::tr("When the run is done, in this order (only destroying the instance ends the bill):"));
        QStringList steps;
        int n = 0;
        for (const auto& step : present::cleanupChecklist(bill, in)) {
            steps << QStringLiteral("%1. %2").arg(++n).arg(text(step));
        }
        w.bullets(steps, true);
    }
    writeScaling(w, s, catalog, in);
}

/// The OOM ladder on `gpu`: each fix alone, with what it saves and costs.
void writeAdvice(Writer& w, const core::Scenario& s, const core::GpuSpec& gpu, const core::PlanInputs& in) {
    const auto advice = core::adviseOom(s, gpu, in);
    w.h2(ReportBuilder::tr("7. If it does not fit: fixes in order of cost"));
    if (advice.fitsAlready) {
        w.paragraph(text(present::adviceConclusion(advice, gpu)));
    } else {
        w.paragraph(
            ReportBuilder::tr("%1. Each fix alone, with the memory it saves for this scenario (the difference of two "
                              "estimates) and its price:")
                .arg(text(present::fitSentence(advice.asIs, gpu))),
            true);
        w.table(present::ladderTable(advice, s, gpu, in)
                    .select({present::LadderFix, present::LadderChange, present::LadderSaves, present::LadderFitsAlone,
                             present::LadderPrice}));
        w.paragraph(text(present::adviceConclusion(advice, gpu)));
    }
}

/// The questionnaire's answers and the method they lead to.
void writeMethodChoice(Writer& w, const core::MethodQuestions& q) {
    w.h2(ReportBuilder::tr("8. Choosing the method"));
    const QString distance[] = {ReportBuilder::tr("close to"), ReportBuilder::tr("somewhat different from"),
                                ReportBuilder::tr("far from")};
    const QString data[] = {ReportBuilder::tr("small"), ReportBuilder::tr("medium"), ReportBuilder::tr("large")};
    const auto recommendation = present::methodRecommendation(core::adviseMethod(q));
    w.paragraph(
        ReportBuilder::tr(
            "Answers: the task is %1 what the model already does; %2 data; a small quality trade-off for a "
            "large cost cut is %3; served %4.")
            .arg(distance[static_cast<int>(q.distance)], data[static_cast<int>(q.data)],
                 q.acceptsSmallQualityLoss ? ReportBuilder::tr("acceptable") : ReportBuilder::tr("not acceptable"),
                 q.serving == core::MethodQuestions::Serving::Merged ? ReportBuilder::tr("merged")
                                                                     : ReportBuilder::tr("as adapters")),
        true);
    w.paragraph(text(recommendation.title) + QLatin1Char('.'));
    QStringList lines;
    for (const auto& block : recommendation.blocks) {
        for (const auto& line : block.lines) {
            lines << text(line);
        }
    }
    w.bullets(lines, true);
}

void writeSizingTable(Writer& w, const core::Scenario& s, const core::Catalog& catalog, const core::PlanInputs& in) {
    w.h2(ReportBuilder::tr("9. Sizing table"));
    w.paragraph(text(present::sizingCaption(s, in)), true);
    const auto rows = core::sizingTable(s, catalog, in);
    w.table(present::sizingTable(rows));
    if (const present::Message vocabulary = present::sizingVocabularyNote(rows, catalog); !vocabulary.empty()) {
        w.paragraph(text(vocabulary), true);
    }
}

/// The estimator's error against the shipped calibration runs, overall and by method.
void writeAccuracy(Writer& w) {
    auto calibration = core::runCalibration(catalogs::shippedCalibrationJson(), catalogs::loadCatalogs().catalog);
    if (calibration) {
        const auto target = calibration->targetRows();
        std::map<std::string, std::vector<const core::CalibrationRow*>> byMethod;
        for (const auto* r : target) {
            byMethod[r->method].push_back(r);
        }
        const auto all = core::errorStats(target);
        QStringList parts;
        for (const auto& [method, list] : byMethod) {
            parts << ReportBuilder::tr("%1 %2 (%3 runs)")
                         .arg(QString::fromStdString(method))
                         .arg(formatPercent(core::errorStats(list).meanAbs))
                         .arg(list.size());
        }
        w.paragraph(
            ReportBuilder::tr(
                "Measured accuracy: against %1 published runs with exact sequence lengths and a known measure, the "
                "mean absolute error is %2 (median %3, worst %4); by method: %5. Details per run in "
                "docs/accuracy.md; run-to-run noise of the same configuration is 5–10%.")
                .arg(all.count)
                .arg(formatPercent(all.meanAbs), formatPercent(all.medianAbs), formatPercent(all.maxAbs),
                     parts.join(QStringLiteral(", "))));
    }
}

/// What the estimate assumes, the formulas behind it, its measured accuracy and the references.
void writeAssumptions(Writer& w, const core::Estimate& e) {
    w.h2(ReportBuilder::tr("10. Assumptions, formulas and measured accuracy"), true);
    QStringList assumptions;
    for (const auto& a : e.assumptions) {
        assumptions << ui::text(a);
    }
    w.bullets(assumptions, true);
    w.bullets(
        {ReportBuilder::tr(
             "Weights, gradients and optimizer states: bytes per parameter by precision recipe (bf16: 2 + 2 + 4 with "
             "AdamW; bf16 with fp32 master: 2 + 2 + 4 + 8; AMP: 4 + 4 + 8); LoRA trains r·(in + out) per adapted "
             "linear (Hu et al. 2021); NF4 stores 0.5 B per weight plus block constants (Dettmers et al. 2023)."),
         ReportBuilder::tr(
             "Sharding: ZeRO-1/2/3 divide optimizer states, gradients and weights by the data-parallel degree "
             "(Rajbhandari et al. 2020); activations are never sharded by ZeRO/FSDP."),
         ReportBuilder::tr(
             "Activations: the tensors autograd saves per layer, itemised after Korthikanti et al. 2022, with full "
             "checkpointing keeping one tensor per layer; eager attention adds seq² scores."),
         ReportBuilder::tr(
             "Logits: batch × sequence × vocabulary elements, 14 B each with a standard fp32-upcast cross-entropy, "
             "about "
             "2–3 B with a chunked one."),
         ReportBuilder::tr(
             "Peak: the largest of forward end (with the logits), the last layer's recompute (checkpointing; the "
             "logits are freed by then), backward end and optimizer step; device = allocated + allocator reserve "
             "(5%, 15% when sharded) + CUDA context + communication buffers.")},
        true);
    writeAccuracy(w);
    w.paragraph(ReportBuilder::tr(
                    "References: Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models "
                    "(2022); Rajbhandari et al., ZeRO (2020); Dettmers et al., QLoRA (2023); Hu et al., LoRA (2021); "
                    "PyTorch CUDA-semantics, DDP and FSDP documentation; DeepSpeed configuration documentation. GPU "
                    "specifications: vendor datasheets cited in the catalog; prices are illustrative."),
                true);
}

} // namespace

ReportBuilder::ReportBuilder(const core::Catalog& catalog) : m_catalog(catalog) {}

void ReportBuilder::progress(int percent) const {
    if (m_progress) {
        m_progress(percent);
    }
}

QString ReportBuilder::summary(const core::Scenario& s, const core::PlanInputs& in) const {
    const core::Estimate e = core::estimate(s);
    QString out =
        tr("%1, %2, %3 tokens × %4 per GPU%5: %6 per GPU on the device (nvidia-smi; expected %7 – %8)")
            .arg(modelName(s), text(present::methodDescription(s)), formatCount(s.seqLen), formatCount(s.microBatch),
                 s.gpus > 1 ? tr(" on %1 GPUs (%2)").arg(s.gpus).arg(text(present::layoutParts(s))) : QString(),
                 text(present::gib(e.deviceBytes)), text(present::gib(e.bandLowBytes)),
                 text(present::gib(e.bandHighBytes)));
    if (s.gpus > 1) {
        out += tr(", %1 in total across the %2 GPUs")
                   .arg(QString::fromStdString(present::gibTotal(e.deviceBytes, s.gpus)))
                   .arg(s.gpus);
    }
    out += QStringLiteral(". ");
    // The explorer's banner: the scenario as set on its card, with the margin, and what the planner would rent.
    const auto plans = core::planCatalog(s, m_catalog.gpus, in);
    const auto ranking = core::rank(plans, in);
    const auto banner = present::verdictBanner(s, m_catalog.findGpu(s.gpuId), nullptr, plans, ranking, in);
    if (banner.verdict) {
        out += text(banner.onChosenGpu) + QStringLiteral(". ");
    }
    out += text(banner.rent);
    // Before renting it, the hour that checks the estimate (section 6 has the whole bill).
    out += QStringLiteral(" ") + text(present::trialSentence(core::firstTestOf(plans, ranking, in)));
    return out;
}

std::unique_ptr<QTextDocument> ReportBuilder::build(const ReportRequest& request) const {
    const core::Scenario& s = request.scenario;
    const core::Estimate e = core::estimate(s);
    auto doc = std::make_unique<QTextDocument>();
    QFont base = printFont(QFont());
    base.setPointSizeF(9.5);
    doc->setDefaultFont(base);
    doc->setDocumentMargin(0);
    ChartObject* charts = ChartObject::install(doc.get());
    Writer w(doc.get(), charts);
    progress(5);

    // 1. Title and summary.
    writeSummary(w, request, summary(s, request.planInputs), e);
    progress(15);

    // 2. Inputs.
    writeInputs(w, s, m_catalog);
    const auto* gpu = m_catalog.findGpu(s.gpuId);
    progress(25);

    // 3. Breakdown.
    writeBreakdown(w, s, e, m_catalog, gpu);
    writeMeasured(w, s, m_catalog);
    progress(40);

    // 4. Memory vs sequence length.
    writeSeqLen(w, s, e, m_catalog);
    progress(55);

    // 5. GPU fit table.
    writeFit(w, s, e, m_catalog, request.planInputs);
    progress(75);

    // 6. Methods side by side.
    writeCompare(w, s, m_catalog, request.planInputs);
    progress(85);

    // Time and cost of the configurations that fit.
    writePlan(w, s, m_catalog, request.planInputs, request.generatedAt.date());
    progress(87);

    // The advisor: OOM ladder, method choice, sizing table.
    const core::GpuSpec* ladderGpu = gpu != nullptr ? gpu : m_catalog.findGpu("rtx-4090");
    if (ladderGpu != nullptr) {
        writeAdvice(w, s, *ladderGpu, request.planInputs);
    }
    progress(88);
    writeMethodChoice(w, request.methodAnswers);
    writeSizingTable(w, s, m_catalog, request.planInputs);
    progress(92);

    // Assumptions, formulas, accuracy.
    writeAssumptions(w, e);
    progress(100);
    return doc;
}

} // namespace gpusizer::ui
