#pragma once

#include "gpusizer/plan/Planner.h"

#include <QtCharts/QChartView>
#include <vector>

QT_FORWARD_DECLARE_CLASS(QScatterSeries)
QT_FORWARD_DECLARE_CLASS(QLineSeries)
QT_FORWARD_DECLARE_CLASS(QLogValueAxis)
QT_FORWARD_DECLARE_CLASS(QValueAxis)

namespace gpusizer::ui {

/// Cost against wall-clock time for every configuration that fits (log axes), best ones highlighted.
class CostTimeChartView final : public QChartView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CostTimeChartView)

public:
    explicit CostTimeChartView(QWidget* parent = nullptr);
    void setResults(const std::vector<core::CardPlan>& results, const core::Ranking& ranking,
                    const core::PlanInputs& inputs);
    int pointCount() const;

private:
    QScatterSeries* m_points = nullptr;
    QScatterSeries* m_best = nullptr;
    QLogValueAxis* m_x = nullptr;
    QLogValueAxis* m_y = nullptr;
};

/// Throughput speed-up against card count for one GPU, over PCIe and over NVLink, with the ideal line.
class ScalingChartView final : public QChartView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScalingChartView)

public:
    explicit ScalingChartView(QWidget* parent = nullptr);
    void setCurves(const std::vector<core::ScalingPoint>& pcie, const std::vector<core::ScalingPoint>& nvlink);
    QList<QPointF> pciePoints() const;

private:
    QLineSeries* m_ideal = nullptr;
    QLineSeries* m_pcie = nullptr;
    QLineSeries* m_nvlink = nullptr;
    QLogValueAxis* m_x = nullptr;
    QLogValueAxis* m_y = nullptr;
};

} // namespace gpusizer::ui
