#include "SeqLenChartView.h"

#include "BreakdownChartView.h"
#include "gpusizer/scenario/Units.h"

#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

namespace gpusizer::ui {

namespace {
constexpr int kLegendBelowFrom = 900; // pixels of chart width: below it the legend's one row would elide names
double gib(std::int64_t bytes) {
    return core::toGiB(static_cast<double>(bytes));
}
} // namespace

SeqLenChartView::SeqLenChartView(QWidget* parent) : QChartView(parent) {
    auto* chart = new QChart();
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(360, 260);
    setAccessibleName(tr("Memory per GPU against sequence length"));

    m_axisX = new QLogValueAxis();
    m_axisX->setBase(2.0);
    m_axisX->setLabelFormat(QStringLiteral("%.0f"));
    m_axisX->setTitleText(tr("Sequence length (tokens, log₂ scale)"));
    m_axisY = new QLogValueAxis();
    m_axisY->setBase(2.0);
    m_axisY->setTitleText(tr("GiB per GPU (device, log₂ scale)"));
    m_axisY->setLabelFormat(QStringLiteral("%g")); // 0.5 stays 0.5 for small models
    chart->addAxis(m_axisX, Qt::AlignBottom);
    chart->addAxis(m_axisY, Qt::AlignLeft);

    m_low = new QLineSeries(this);
    m_high = new QLineSeries(this);
    m_band = new QAreaSeries(m_high, m_low);
    m_band->setName(tr("Range"));
    m_band->setColor(QColor(0x76, 0xb7, 0xb2, 70));
    m_band->setBorderColor(QColor(0x76, 0xb7, 0xb2, 120));
    m_usage = new QLineSeries();
    m_usage->setName(tr("Per GPU"));
    QPen pen(QColor(0x4e, 0x79, 0xa7));
    pen.setWidthF(2.5);
    m_usage->setPen(pen);
    m_usage->setPointsVisible(true);
    m_marker = new QScatterSeries();
    m_marker->setName(tr("Now"));
    m_marker->setMarkerSize(13.0);
    m_marker->setColor(QColor(0xe1, 0x57, 0x59)); // red, a colour no card line uses (capacityColor)
    m_marker->setBorderColor(Qt::black);
    for (QAbstractSeries* series : std::initializer_list<QAbstractSeries*>{m_band, m_usage, m_marker}) {
        chart->addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(m_axisY);
    }
}

void SeqLenChartView::setSweep(const std::vector<core::SweepPoint>& points, std::int64_t currentSeqLen,
                               std::int64_t currentDeviceBytes, const std::vector<CapacityLine>& capacities) {
    QList<QPointF> usage;
    QList<QPointF> low;
    QList<QPointF> high;
    double maxY = 0;
    double minY = std::numeric_limits<double>::infinity();
    for (const auto& p : points) {
        const double x = static_cast<double>(p.value);
        usage << QPointF(x, gib(p.deviceBytes));
        low << QPointF(x, gib(p.bandLowBytes));
        high << QPointF(x, gib(p.bandHighBytes));
        maxY = std::max(maxY, gib(p.bandHighBytes));
        minY = std::min(minY, gib(p.bandLowBytes));
    }
    m_usage->replace(usage);
    m_low->replace(low);
    m_high->replace(high);
    m_marker->replace(QList<QPointF>{QPointF(static_cast<double>(currentSeqLen), gib(currentDeviceBytes))});

    QChart* c = chart();
    if (m_capacities.size() != capacities.size()) {
        for (QLineSeries* line : m_capacities) {
            c->removeSeries(line);
            delete line;
        }
        m_capacities.clear();
        for (std::size_t i = 0; i < capacities.size(); ++i) {
            auto* line = new QLineSeries();
            QPen pen;
            pen.setStyle(Qt::DashLine);
            pen.setWidthF(1.8);
            line->setPen(pen);
            c->addSeries(line);
            line->attachAxis(m_axisX);
            line->attachAxis(m_axisY);
            m_capacities.push_back(line);
        }
    }
    const double x0 = points.empty() ? 128.0 : static_cast<double>(points.front().value);
    const double x1 = points.empty() ? 131072.0 : static_cast<double>(points.back().value);
    for (std::size_t i = 0; i < capacities.size(); ++i) {
        const double y = gib(capacities[i].bytes);
        m_capacities[i]->setName(capacities[i].label);
        m_capacities[i]->replace(QList<QPointF>{QPointF(x0, y), QPointF(x1, y)});
        if (capacities[i].color.isValid()) {
            QPen pen = m_capacities[i]->pen();
            pen.setColor(capacities[i].color);
            m_capacities[i]->setPen(pen);
        }
        maxY = std::max(maxY, y);
        minY = std::min(minY, y);
    }
    m_axisX->setRange(x0, x1);
    // A log₂ memory axis keeps the whole curve (a 131k-token run may need thousands of GiB) and every capacity line
    // (24–141 GiB) in view at once: powers of two around both.
    m_axisY->setRange(std::exp2(std::floor(std::log2(std::max(0.5, minY * 0.9)))),
                      std::exp2(std::ceil(std::log2(std::max(1.0, maxY * 1.1)))));
}

QPointF SeqLenChartView::yRange() const {
    return {m_axisY->min(), m_axisY->max()};
}

QColor SeqLenChartView::capacityColor(int index) const {
    return m_capacities.at(static_cast<std::size_t>(index))->pen().color();
}

void SeqLenChartView::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    // Qt's legend is one row and elides what does not fit: in a narrow chart it goes to the side, one entry a line,
    // which leaves the plot narrower still.
    const bool narrow = width() < kLegendBelowFrom;
    chart()->legend()->setAlignment(narrow ? Qt::AlignRight : Qt::AlignBottom);
    // Slanted, the sequence lengths keep all their digits where level ones would be elided ("10…", "20…").
    m_axisX->setLabelsAngle(narrow ? -45 : 0);
    m_axisX->setTruncateLabels(!narrow);
}

QList<QPointF> SeqLenChartView::usagePoints() const {
    return m_usage->points();
}

QPointF SeqLenChartView::markerPoint() const {
    return m_marker->count() > 0 ? m_marker->at(0) : QPointF();
}

} // namespace gpusizer::ui
