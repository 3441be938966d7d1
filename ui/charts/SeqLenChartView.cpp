#include "SeqLenChartView.h"

#include "BreakdownChartView.h"
#include "gpusizer/core/Units.h"

#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>

namespace gpusizer::ui {

namespace {
double gib(std::int64_t bytes) {
    return core::toGiB(static_cast<double>(bytes));
}
const QColor kCapacityColors[] = {QColor(0x33, 0x33, 0x33), QColor(0x9c, 0x27, 0xb0), QColor(0x00, 0x79, 0x6b),
                                  QColor(0xc6, 0x28, 0x28), QColor(0x1f, 0x5f, 0xbf)};
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
    m_axisY = new QValueAxis();
    m_axisY->setTitleText(tr("GiB per GPU (device)"));
    m_axisY->setLabelFormat(QStringLiteral("%.0f"));
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
    m_marker->setColor(QColor(0xe1, 0x57, 0x59));
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
    for (const auto& p : points) {
        const double x = static_cast<double>(p.value);
        usage << QPointF(x, gib(p.deviceBytes));
        low << QPointF(x, gib(p.bandLowBytes));
        high << QPointF(x, gib(p.bandHighBytes));
        maxY = std::max(maxY, gib(p.bandHighBytes));
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
            QPen pen(kCapacityColors[i % 5]);
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
        maxY = std::max(maxY, y);
    }
    m_axisX->setRange(x0, x1);
    // Keep the capacity lines readable: show up to 1.5 x the largest capacity (or the current point), and let the
    // curve leave the top of the chart where no listed card could hold it anyway.
    double top = maxY;
    if (!capacities.empty()) {
        double largest = 0;
        for (const auto& cap : capacities) {
            largest = std::max(largest, gib(cap.bytes));
        }
        top = std::min(maxY, std::max(largest * 1.5, gib(currentDeviceBytes) * 1.2));
    }
    m_axisY->setRange(0.0, std::max(1.0, top * 1.05));
    m_axisY->applyNiceNumbers();
}

QList<QPointF> SeqLenChartView::usagePoints() const {
    return m_usage->points();
}

QPointF SeqLenChartView::markerPoint() const {
    return m_marker->count() > 0 ? m_marker->at(0) : QPointF();
}

} // namespace gpusizer::ui
