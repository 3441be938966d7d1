#include "PlanCharts.h"

#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <algorithm>
#include <cmath>

namespace gpusizer::ui {

namespace {

QChart* newChart(QChartView* view) {
    auto* chart = new QChart();
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    view->setChart(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(300, 220);
    return chart;
}

QLogValueAxis* logAxis(const QString& title, const QString& format) {
    auto* axis = new QLogValueAxis();
    axis->setBase(10.0);
    axis->setTitleText(title);
    axis->setLabelFormat(format);
    axis->setMinorTickCount(-1);
    return axis;
}

void attach(QChart* chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y) {
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

/// Log-axis range padded to whole decades' neighbours so that points are not on the border.
std::pair<double, double> paddedRange(double lo, double hi) {
    if (!(lo > 0) || !(hi > 0)) {
        return {1.0, 10.0};
    }
    return {std::pow(10.0, std::floor(std::log10(lo) - 0.05)), std::pow(10.0, std::ceil(std::log10(hi) + 0.05))};
}

} // namespace

CostTimeChartView::CostTimeChartView(QWidget* parent) : QChartView(parent) {
    QChart* chart = newChart(this);
    setAccessibleName(tr("Cost against time"));
    m_x = logAxis(tr("Wall-clock hours"), QStringLiteral("%.7g"));
    m_y = logAxis(tr("Cost, USD"), QStringLiteral("%.7g"));
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    m_points = new QScatterSeries();
    m_points->setName(tr("One GPU model"));
    m_points->setMarkerSize(9);
    m_points->setColor(QColor(0x4e, 0x79, 0xa7));
    m_best = new QScatterSeries();
    m_best->setName(tr("Chosen, cheapest, fastest"));
    m_best->setMarkerSize(14);
    m_best->setColor(QColor(0xe1, 0x57, 0x59));
    m_best->setPointLabelsVisible(true);
    m_best->setPointLabelsFormat(QStringLiteral(""));
    attach(chart, m_points, m_x, m_y);
    attach(chart, m_best, m_x, m_y);
}

void CostTimeChartView::setResults(const std::vector<core::CardPlan>& results, const core::Ranking& ranking,
                                   const core::PlanInputs& inputs) {
    QList<QPointF> points;
    QList<QPointF> best;
    double minX = 0;
    double maxX = 0;
    double minY = 0;
    double maxY = 0;
    for (int i = 0; i < static_cast<int>(results.size()); ++i) {
        const auto& r = results[static_cast<std::size_t>(i)];
        if (!r.found || r.best.plan.wallHours <= 0) {
            continue;
        }
        const double cost = std::max(1e-3, core::costOf(r.best, inputs));
        const QPointF p(r.best.plan.wallHours, cost);
        (i == ranking.cheapest || i == ranking.fastest || i == ranking.chosen ? best : points) << p;
        minX = points.size() + best.size() == 1 ? p.x() : std::min(minX, p.x());
        maxX = std::max(maxX, p.x());
        minY = points.size() + best.size() == 1 ? p.y() : std::min(minY, p.y());
        maxY = std::max(maxY, p.y());
    }
    m_points->replace(points);
    m_best->replace(best);
    const auto [x0, x1] = paddedRange(minX, maxX);
    const auto [y0, y1] = paddedRange(minY, maxY);
    m_x->setRange(x0, x1);
    m_y->setRange(y0, y1);
}

int CostTimeChartView::pointCount() const {
    return m_points->count() + m_best->count();
}

ScalingChartView::ScalingChartView(QWidget* parent) : QChartView(parent) {
    QChart* chart = newChart(this);
    setAccessibleName(tr("Scaling with card count"));
    m_x = logAxis(tr("GPUs"), QStringLiteral("%.0f"));
    m_x->setBase(2.0);
    m_y = logAxis(tr("Speed-up"), QStringLiteral("%g"));
    m_y->setBase(4.0);
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    // The three curves often coincide (little communication): drawn widest first, each stays visible over the others
    // — a wide green NVLink band, the red PCIe line inside it, the grey dashes of the ideal on top.
    m_nvlink = new QLineSeries();
    m_nvlink->setName(tr("NVLink"));
    QPen nvPen(QColor(0x59, 0xa1, 0x4f));
    nvPen.setWidthF(6.0);
    m_nvlink->setPen(nvPen);
    m_pcie = new QLineSeries();
    m_pcie->setName(tr("PCIe"));
    m_pcie->setPointsVisible(true);
    QPen pciePen(QColor(0xe1, 0x57, 0x59));
    pciePen.setWidthF(2.5);
    m_pcie->setPen(pciePen);
    m_ideal = new QLineSeries();
    m_ideal->setName(tr("Ideal"));
    QPen idealPen(QColor(0x55, 0x55, 0x55));
    idealPen.setStyle(Qt::DashLine);
    idealPen.setWidthF(1.2);
    m_ideal->setPen(idealPen);
    attach(chart, m_nvlink, m_x, m_y);
    attach(chart, m_pcie, m_x, m_y);
    attach(chart, m_ideal, m_x, m_y);
}

void ScalingChartView::setCurves(const std::vector<core::ScalingPoint>& pcie,
                                 const std::vector<core::ScalingPoint>& nvlink) {
    auto toPoints = [](const std::vector<core::ScalingPoint>& curve) {
        QList<QPointF> points;
        for (const auto& p : curve) {
            points << QPointF(static_cast<double>(p.gpus), std::max(0.01, p.speedup));
        }
        return points;
    };
    m_pcie->replace(toPoints(pcie));
    m_nvlink->replace(toPoints(nvlink));
    const double maxGpus = pcie.empty() ? 64.0 : static_cast<double>(pcie.back().gpus);
    m_ideal->replace(QList<QPointF>{QPointF(1.0, 1.0), QPointF(maxGpus, maxGpus)});
    double lo = 1.0;
    for (const auto& p : pcie) {
        lo = std::min(lo, p.speedup);
    }
    m_x->setRange(1.0, maxGpus);
    // Whole powers of four at both ends: few short labels (0.25, 1, 4, 16, 64) that fit a short chart's height.
    m_y->setRange(std::pow(4.0, std::floor(std::log(std::max(1.0 / 64.0, lo * 0.9)) / std::log(4.0))),
                  std::pow(4.0, std::ceil(std::log(maxGpus * 1.1) / std::log(4.0))));
}

QList<QPointF> ScalingChartView::pciePoints() const {
    return m_pcie->points();
}

} // namespace gpusizer::ui
