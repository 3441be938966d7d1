#pragma once

#include "gpusizer/memory/Sweep.h"

#include <QtCharts/QChartView>
#include <vector>

QT_FORWARD_DECLARE_CLASS(QLineSeries)
QT_FORWARD_DECLARE_CLASS(QAreaSeries)
QT_FORWARD_DECLARE_CLASS(QScatterSeries)
QT_FORWARD_DECLARE_CLASS(QLogValueAxis)
QT_FORWARD_DECLARE_CLASS(QValueAxis)

namespace gpusizer::ui {

struct CapacityLine;

/// Device memory per GPU against sequence length (log₂ axis), the expected band, GPU capacity lines and a marker at
/// the current length: "where do I run out?" at a glance.
class SeqLenChartView final : public QChartView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SeqLenChartView)

public:
    explicit SeqLenChartView(QWidget* parent = nullptr);

    void setSweep(const std::vector<core::SweepPoint>& points, std::int64_t currentSeqLen,
                  std::int64_t currentDeviceBytes, const std::vector<CapacityLine>& capacities);

    /// For tests: the plotted (sequence length, GiB) points of the usage line.
    QList<QPointF> usagePoints() const;
    QPointF markerPoint() const;
    /// For tests: the memory axis's range (GiB) and a capacity line's colour.
    QPointF yRange() const;
    QColor capacityColor(int index) const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QLineSeries* m_usage = nullptr;
    QLineSeries* m_low = nullptr;
    QLineSeries* m_high = nullptr;
    QAreaSeries* m_band = nullptr;
    QScatterSeries* m_marker = nullptr;
    std::vector<QLineSeries*> m_capacities;
    QLogValueAxis* m_axisX = nullptr;
    QLogValueAxis* m_axisY = nullptr;
};

} // namespace gpusizer::ui
