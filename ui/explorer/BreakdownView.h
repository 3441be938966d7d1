#pragma once

#include "../TableModel.h"
#include "LiveView.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/scenario/Catalog.h"

#include <optional>

QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QBoxLayout)
QT_FORWARD_DECLARE_CLASS(QTableView)

namespace gpusizer::ui {

class BreakdownChartView;
struct CapacityLine;

/// Puts `chart` into `layout` (with `stretch`) above a wrapping label for its line key (lineKeyHtml), and returns
/// the label; the chart draws no legend of its own. Used where a table beside the chart names the components.
QLabel* addChartWithLineKey(QBoxLayout* layout, BreakdownChartView* chart, int stretch);

/// A component row's colour swatch (its chart colour) from the row's key; nothing for other rows.
QVariant componentSwatch(const std::string& rowKey);

/// Components of one estimate (present::componentTable): name with its chart colour, GiB per GPU, share of the
/// device total, then the total.
class ComponentTableModel final : public TableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ComponentTableModel)

public:
    enum Column { Name, GiBPerGpu, Share, ColumnCount };
    explicit ComponentTableModel(QObject* parent = nullptr);
    void setEstimate(const core::Estimate& estimate);
};

/// Usable-memory lines to draw: the GPU in mind (if any) first, then common cards (24, 48, 80, 141 GB), at most
/// `count` lines in all.
/// The card a chart compares with when the scenario names none (said so in the verdict banner).
inline constexpr const char* kComparisonGpuId = "rtx-4090";

std::vector<CapacityLine> capacityLines(const core::Catalog& catalog, const std::string& gpuId, std::size_t count);

/// The breakdown tab: stacked bar per GPU, the component table, allocated/reserved/device and the assumptions.
class BreakdownView final : public LiveView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BreakdownView)

public:
    explicit BreakdownView(ScenarioController& controller, QWidget* parent = nullptr);
    BreakdownChartView* chart() const { return m_chart; }
    ComponentTableModel* table() const { return m_model; }
    QString summaryText() const;
    /// The verdict banner's text and its verdict (nullopt: no GPU chosen).
    QString bannerText() const;
    std::optional<core::FitVerdict> bannerVerdict() const { return m_verdict; }

protected:
    void refresh() override;

private:
    void refreshBanner();

    QLabel* m_banner = nullptr;
    std::optional<core::FitVerdict> m_verdict;
    BreakdownChartView* m_chart = nullptr;
    ComponentTableModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_notes = nullptr;
    QLabel* m_lineKey = nullptr;
};

} // namespace gpusizer::ui
