#include "LengthsChartView.h"

#include "ChartPalette.h"
#include "gpusizer/present/LengthsText.h"

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QValueAxis>
#include <algorithm>

namespace gpusizer::ui {

LengthsChartView::LengthsChartView(const core::DatasetLengths& lengths, QWidget* parent) : QChartView(parent) {
    auto* chart = new QChart();
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->hide();
    chart->setMargins(QMargins(4, 4, 4, 4));
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(360, 220);
    setAccessibleName(tr("Examples per length"));

    m_set = new QBarSet(tr("Examples"));
    m_set->setColor(QColor(0x4e, 0x79, 0xa7));
    m_set->setLabelColor(palette().color(QPalette::WindowText)); // the count above each bar, in either palette
    QStringList labels;
    qreal most = 1;
    for (const auto& bin : present::lengthBins(lengths)) {
        labels << QString::fromStdString(bin.label);
        *m_set << static_cast<qreal>(bin.count);
        most = std::max(most, static_cast<qreal>(bin.count));
    }
    auto* series = new QBarSeries();
    series->append(m_set);
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    chart->addSeries(series);
    auto* x = new QBarCategoryAxis();
    x->append(labels);
    x->setTitleText(tr("Tokens per example"));
    auto* y = new QValueAxis();
    y->setRange(0, most * 1.15); // room for the labels above the bars
    y->setLabelFormat(QStringLiteral("%.0f"));
    y->setTitleText(tr("Examples"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    followPalette(chart, palette());
}

LengthsChartView::~LengthsChartView() = default;

QList<qreal> LengthsChartView::counts() const {
    QList<qreal> out;
    for (int i = 0; i < m_set->count(); ++i) {
        out << m_set->at(i);
    }
    return out;
}

} // namespace gpusizer::ui
