#pragma once

#include "gpusizer/memory/Estimate.h"

#include <QtCharts/QChartView>
#include <QtCore/QStringList>
#include <QtGui/QColor>
#include <QtGui/QPalette>
#include <array>
#include <optional>
#include <string>
#include <vector>

QT_FORWARD_DECLARE_CLASS(QBarSet)
QT_FORWARD_DECLARE_CLASS(QStackedBarSeries)
QT_FORWARD_DECLARE_CLASS(QBarCategoryAxis)
QT_FORWARD_DECLARE_CLASS(QValueAxis)
QT_FORWARD_DECLARE_CLASS(QLineSeries)

namespace gpusizer::ui {

/// One stacked bar: a label, the per-GPU components, and the expected low/high device usage.
struct BreakdownBar {
    QString label;
    core::ComponentBytes components;
    std::int64_t bandLowBytes = 0;
    std::int64_t bandHighBytes = 0;
};

/// A horizontal line across the chart (a GPU's usable memory).
struct CapacityLine {
    QString label;
    std::int64_t bytes = 0;
    QColor color; ///< the card's own colour (capacityColor), the same in every chart and state
};

/// A GPU's colour in every chart, from its id alone: it never changes when another card is selected, and no card
/// is drawn in the "Now" marker's red.
QColor capacityColor(const std::string& gpuId);

/// Stacked bars of the memory components per GPU, in GiB, with capacity lines and the expected band.
/// Values are updated in place so that dragging a slider does not rebuild the chart.
class BreakdownChartView final : public QChartView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BreakdownChartView)

public:
    explicit BreakdownChartView(QWidget* parent = nullptr);

    void setBars(const std::vector<BreakdownBar>& bars, const std::vector<CapacityLine>& capacities);

    /// On screen: the window's palette, dark included (the report's charts stay light).
    void followPalette(const QPalette& palette);

    /// Where a table beside the chart already names the components by colour, the chart draws no legend (Qt's
    /// would narrow the plot and elide its labels); the view shows lineKeyHtml() instead, in a label that wraps.
    void setComponentKeyShown(bool shown);
    /// The key of what is not a component: the range whisker and each capacity line, in their colours (rich text).
    QString lineKeyHtml() const;

    /// For tests and the report: the value (GiB) of a component in a bar.
    double valueGiB(int bar, core::Component component) const;
    int barCount() const { return static_cast<int>(m_categories.size()); }
    /// For tests: whether a component's value labels are drawn (hidden where too small or crossed by a line).
    bool labelsShown(core::Component component) const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuildSeries(int barCount, int capacityCount);
    void fitCategoryLabels();
    void applyComponentKey();
    void placeValueLabels(const std::vector<double>& lineGiB);

    std::array<QBarSet*, core::kComponentCount> m_sets{};
    QStackedBarSeries* m_series = nullptr;
    QBarCategoryAxis* m_categoryAxis = nullptr;
    QValueAxis* m_valueAxis = nullptr;
    QValueAxis* m_lineAxisX = nullptr;
    std::vector<QLineSeries*> m_bands; ///< one whisker per bar (a single series would join them)
    std::vector<QLineSeries*> m_capacityLines;
    QStringList m_categories;
    bool m_componentKeyShown = true;
    QColor m_ink = QColor(0x22, 0x22, 0x22); ///< the expected-range whiskers
    std::optional<QPalette> m_screenPalette; ///< set on screen (followPalette); the report's charts stay light
};

} // namespace gpusizer::ui
