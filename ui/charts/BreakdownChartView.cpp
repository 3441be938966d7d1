#include "BreakdownChartView.h"

#include "../Format.h"
#include "ChartPalette.h"
#include "gpusizer/scenario/Units.h"

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarLegendMarker>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QStackedBarSeries>
#include <QtCharts/QValueAxis>
#include <QtGui/QFontMetrics>
#include <QtGui/QPainter>
#include <algorithm>
#include <cmath>

namespace gpusizer::ui {

namespace {

/// A bar's value as its label shows it: three significant digits, tenths of a GiB below 100 (2.1, 23.4, 3260).
double labelValue(double gibs) {
    if (gibs < 100.0) {
        return std::round(gibs * 10.0) / 10.0;
    }
    const double unit = std::pow(10.0, std::floor(std::log10(gibs)) - 2.0);
    return std::round(gibs / unit) * unit;
}

double gib(std::int64_t bytes) {
    return core::toGiB(static_cast<double>(bytes));
}

/// A "nice" axis maximum (1, 2, 2.5, 5 x 10^k) a little above the value.
double niceCeiling(double value) {
    if (value <= 0) {
        return 1.0;
    }
    const double exponent = std::pow(10.0, std::floor(std::log10(value)));
    for (double step : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (value <= step * exponent) {
            return step * exponent;
        }
    }
    return 10.0 * exponent;
}

const QColor kCapacityColors[] = {QColor(0x33, 0x33, 0x33), QColor(0x9c, 0x27, 0xb0), QColor(0x00, 0x79, 0x6b),
                                  QColor(0xc6, 0x28, 0x28)};

} // namespace

QColor capacityColor(const std::string& gpuId) {
    // The cards every chart compares with keep fixed colours (none black: black is the expected-range whisker); any
    // other card takes one of the rest by its id.
    static const std::pair<const char*, QColor> kFixed[] = {{"rtx-4090", QColor(0x60, 0x7d, 0x8b)},
                                                            {"l40s", QColor(0x9c, 0x27, 0xb0)},
                                                            {"h100-sxm", QColor(0x00, 0x79, 0x6b)},
                                                            {"h200", QColor(0x1f, 0x5f, 0xbf)}};
    for (const auto& [id, color] : kFixed) {
        if (gpuId == id) {
            return color;
        }
    }
    static const QColor kOthers[] = {QColor(0x8d, 0x6e, 0x63), QColor(0xef, 0x6c, 0x00), QColor(0x55, 0x8b, 0x2f),
                                     QColor(0x00, 0x83, 0x8f), QColor(0x5e, 0x35, 0xb1), QColor(0x6d, 0x4c, 0x41)};
    std::size_t hash = 0;
    for (char ch : gpuId) {
        hash = hash * 31 + static_cast<unsigned char>(ch); // stable across runs, unlike std::hash
    }
    return kOthers[hash % std::size(kOthers)];
}

void BreakdownChartView::followPalette(const QPalette& palette) {
    m_screenPalette = palette;
    ui::followPalette(chart(), palette);
    m_ink = isDark(palette) ? palette.color(QPalette::WindowText) : QColor(0x22, 0x22, 0x22);
    for (QLineSeries* band : m_bands) {
        QPen pen = band->pen();
        pen.setColor(m_ink);
        band->setPen(pen);
    }
}

BreakdownChartView::BreakdownChartView(QWidget* parent) : QChartView(parent) {
    auto* chart = new QChart();
    chart->setAnimationOptions(QChart::NoAnimation); // slider drags must repaint at once
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->setMargins(QMargins(4, 4, 4, 4));
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(280, 260);
    setAccessibleName(tr("Memory breakdown per GPU"));
}

void BreakdownChartView::rebuildSeries(int barCount, int capacityCount) {
    QChart* c = chart();
    c->removeAllSeries(); // deletes the series and their sets
    for (QAbstractAxis* axis : c->axes()) {
        c->removeAxis(axis);
        delete axis;
    }
    m_series = new QStackedBarSeries();
    for (core::Component comp : core::kAllComponents) {
        auto* set = new QBarSet(componentName(comp));
        set->setColor(componentColor(comp));
        set->setBorderColor(componentColor(comp).darker(130));
        set->setLabelColor(Qt::black);
        for (int i = 0; i < barCount; ++i) {
            set->append(0.0);
        }
        m_sets[static_cast<std::size_t>(comp)] = set;
        m_series->append(set);
    }
    m_series->setLabelsVisible(true);
    m_series->setLabelsFormat(QStringLiteral("@value"));
    // Enough digits that no label turns into scientific notation ("3.26e+03"): labelValue() rounds the values.
    m_series->setLabelsPrecision(7);
    m_series->setBarWidth(barCount == 1 ? 0.45 : 0.6);
    c->addSeries(m_series);

    m_categoryAxis = new QBarCategoryAxis();
    m_valueAxis = new QValueAxis();
    m_valueAxis->setTitleText(tr("GiB per GPU"));
    m_valueAxis->setLabelFormat(QStringLiteral("%.0f"));
    c->addAxis(m_categoryAxis, Qt::AlignBottom);
    c->addAxis(m_valueAxis, Qt::AlignLeft);
    m_series->attachAxis(m_categoryAxis);
    m_series->attachAxis(m_valueAxis);

    // Lines live on a hidden linear x axis aligned with the category slots (-0.5 ... n-0.5).
    m_lineAxisX = new QValueAxis();
    m_lineAxisX->setRange(-0.5, barCount - 0.5);
    m_lineAxisX->setVisible(false);
    c->addAxis(m_lineAxisX, Qt::AlignTop);

    m_bands.clear();
    for (int i = 0; i < barCount; ++i) {
        auto* band = new QLineSeries();
        band->setName(tr("Expected range"));
        QPen bandPen(m_ink);
        bandPen.setWidthF(2.0);
        band->setPen(bandPen);
        c->addSeries(band);
        band->attachAxis(m_lineAxisX);
        band->attachAxis(m_valueAxis);
        m_bands.push_back(band);
    }
    // One legend entry for all whiskers.
    for (std::size_t i = 1; i < m_bands.size(); ++i) {
        for (QLegendMarker* marker : c->legend()->markers(m_bands[i])) {
            marker->setVisible(false);
        }
    }

    m_capacityLines.clear();
    for (int i = 0; i < capacityCount; ++i) {
        auto* line = new QLineSeries();
        QPen pen(kCapacityColors[i % 4]);
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(2.0);
        line->setPen(pen);
        c->addSeries(line);
        line->attachAxis(m_lineAxisX);
        line->attachAxis(m_valueAxis);
        m_capacityLines.push_back(line);
    }
    if (m_screenPalette) {
        ui::followPalette(c, *m_screenPalette); // new axes come with the light theme's colours
    }
    applyComponentKey();
}

void BreakdownChartView::fitCategoryLabels() {
    // Qt elides a bar's label wider than its bar ("bf… bf… A…"): such labels are slanted and shown whole instead.
    const QFontMetrics metrics(m_categoryAxis->labelsFont());
    int widest = 0;
    for (const QString& label : m_categories) {
        widest = std::max(widest, metrics.horizontalAdvance(label));
    }
    const double plot = chart()->plotArea().width() > 0 ? chart()->plotArea().width() : width() * 0.6;
    const bool slanted = widest > plot / static_cast<double>(std::max<qsizetype>(1, m_categories.size())) * 0.6;
    m_categoryAxis->setLabelsAngle(slanted ? -45 : 0);
    m_categoryAxis->setTruncateLabels(!slanted);
}

void BreakdownChartView::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    if (m_categoryAxis != nullptr) { // resized while the constructor builds the chart
        fitCategoryLabels();
    }
}

void BreakdownChartView::setBars(const std::vector<BreakdownBar>& bars, const std::vector<CapacityLine>& capacities) {
    const int n = static_cast<int>(bars.size());
    if (n != m_categories.size() || static_cast<std::size_t>(capacities.size()) != m_capacityLines.size() ||
        m_series == nullptr) {
        rebuildSeries(n, static_cast<int>(capacities.size()));
    }
    m_categories.clear();
    double maxValue = 0;
    for (int i = 0; i < n; ++i) {
        const auto& bar = bars[static_cast<std::size_t>(i)];
        m_categories << bar.label;
        for (core::Component comp : core::kAllComponents) {
            m_sets[static_cast<std::size_t>(comp)]->replace(i, labelValue(gib(bar.components[comp])));
        }
        maxValue = std::max({maxValue, gib(bar.components.total()), gib(bar.bandHighBytes)});
        // The band: a vertical whisker beside the bar, low to high.
        const double x = i + (n == 1 ? 0.3 : 0.36);
        const double lo = gib(bar.bandLowBytes);
        const double hi = gib(bar.bandHighBytes);
        m_bands[static_cast<std::size_t>(i)]->replace(QList<QPointF>{QPointF(x - 0.03, lo), QPointF(x + 0.03, lo),
                                                                     QPointF(x, lo), QPointF(x, hi),
                                                                     QPointF(x - 0.03, hi), QPointF(x + 0.03, hi)});
    }
    // Generation appears in the key only where a bar generates (GRPO); the other runs have none.
    const bool generates = std::any_of(bars.begin(), bars.end(), [](const BreakdownBar& bar) {
        return bar.components[core::Component::Generation] > 0;
    });
    for (QLegendMarker* marker : chart()->legend()->markers(m_series)) {
        auto* barMarker = qobject_cast<QBarLegendMarker*>(marker);
        if (barMarker != nullptr &&
            barMarker->barset() == m_sets[static_cast<std::size_t>(core::Component::Generation)]) {
            marker->setVisible(generates);
        }
    }
    m_categoryAxis->setCategories(m_categories);
    fitCategoryLabels();
    std::vector<double> lineGiB;
    for (std::size_t i = 0; i < capacities.size(); ++i) {
        const double y = gib(capacities[i].bytes);
        lineGiB.push_back(y);
        maxValue = std::max(maxValue, y);
        m_capacityLines[i]->setName(capacities[i].label);
        m_capacityLines[i]->replace(QList<QPointF>{QPointF(-0.5, y), QPointF(n - 0.5, y)});
        if (capacities[i].color.isValid()) {
            QPen pen = m_capacityLines[i]->pen();
            pen.setColor(capacities[i].color);
            m_capacityLines[i]->setPen(pen);
        }
    }
    m_valueAxis->setRange(0.0, niceCeiling(maxValue * 1.08));
    m_valueAxis->applyNiceNumbers();
    placeValueLabels(lineGiB);
}

void BreakdownChartView::placeValueLabels(const std::vector<double>& lineGiB) {
    // A set's labels are drawn only if every non-empty segment can hold one (small ones would overlap their
    // neighbours) and no capacity line runs through one (the dashed line would strike the number out). Labels are per
    // set in Qt Charts, so a set is all or nothing; the table beside the chart gives every value.
    const double axisMax = std::max(1e-9, m_valueAxis->max());
    const double plotPx = chart()->plotArea().height() > 0 ? chart()->plotArea().height() : height() * 0.75;
    const double labelHalf =
        (QFontMetrics(m_sets[0]->labelFont()).height() / 2.0 + 2.0) / std::max(1.0, plotPx) * axisMax;
    std::vector<double> base(static_cast<std::size_t>(m_categories.size()), 0.0);
    for (core::Component comp : core::kAllComponents) {
        QBarSet* set = m_sets[static_cast<std::size_t>(comp)];
        bool readable = false;
        bool hidden = false;
        for (int i = 0; i < set->count(); ++i) {
            const double value = set->at(i);
            const double middle = base[static_cast<std::size_t>(i)] + value / 2.0;
            base[static_cast<std::size_t>(i)] += value;
            if (value <= 0) {
                continue;
            }
            readable = readable || value >= 0.045 * axisMax;
            hidden = hidden || value < 0.045 * axisMax;
            for (double y : lineGiB) {
                hidden = hidden || std::abs(y - middle) < labelHalf;
            }
        }
        set->setLabelColor(readable && !hidden ? QColor(Qt::black) : QColor(Qt::transparent));
    }
}

bool BreakdownChartView::labelsShown(core::Component component) const {
    QBarSet* set = m_sets[static_cast<std::size_t>(component)]; // QBarSet::labelColor() is not const
    return set != nullptr && set->labelColor().alpha() > 0;
}

void BreakdownChartView::setComponentKeyShown(bool shown) {
    m_componentKeyShown = shown;
    applyComponentKey();
}

void BreakdownChartView::applyComponentKey() {
    chart()->legend()->setVisible(m_componentKeyShown);
}

QString BreakdownChartView::lineKeyHtml() const {
    // Non-breaking within an entry, so that a wrap falls only between entries.
    auto words = [](const QString& text) {
        return text.toHtmlEscaped().replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
    };
    QStringList entries{QStringLiteral("<span style=\"color:%1\"><b>I</b></span>&nbsp;%2")
                            .arg(m_ink.name(), words(tr("Expected range")))};
    for (const QLineSeries* line : m_capacityLines) {
        entries << QStringLiteral("<span style=\"color:%1\"><b>-&nbsp;-&nbsp;-</b>&nbsp;</span>%2")
                       .arg(line->pen().color().name(), words(line->name()));
    }
    return entries.join(QStringLiteral(" &nbsp; "));
}

double BreakdownChartView::valueGiB(int bar, core::Component component) const {
    const QBarSet* set = m_sets[static_cast<std::size_t>(component)];
    return (set != nullptr && bar < set->count()) ? set->at(bar) : 0.0;
}

} // namespace gpusizer::ui
