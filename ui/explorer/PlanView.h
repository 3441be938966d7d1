#pragma once

#include "LiveView.h"
#include "gpusizer/core/Planning.h"

#include <QtCore/QAbstractTableModel>

QT_FORWARD_DECLARE_CLASS(QCheckBox)
QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QDoubleSpinBox)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QTableView)
QT_FORWARD_DECLARE_CLASS(QSortFilterProxyModel)

namespace gpusizer::ui {

class CostTimeChartView;
class ScalingChartView;

/// Fit-search results per GPU: layout, memory, step time, wall time, GPU-hours, cost, and why fewer cards fail.
class PlanTableModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlanTableModel)

public:
    enum Column { Gpu, Layout, PerGpu, Step, Hours, GpuHours, Cost, WhyFewer, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;
    explicit PlanTableModel(QObject* parent = nullptr);
    void setResults(std::vector<core::FitSearchResult> results, bool spot);
    const std::vector<core::FitSearchResult>& results() const { return m_results; }
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<core::FitSearchResult> m_results;
    bool m_spot = false;
};

/// The plan tab: dataset and price inputs, the fit search with time and cost, cost vs time, and scaling curves.
class PlanView final : public LiveView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlanView)

public:
    explicit PlanView(ScenarioController& controller, QWidget* parent = nullptr);
    core::PlanInputs inputs() const;
    /// Sets the MFU assumption (a share, 0..1), e.g. from a calibration.
    void setMfu(double share);
    bool spot() const;
    PlanTableModel* table() const { return m_model; }
    ScalingChartView* scaling() const { return m_scaling; }
    CostTimeChartView* costTime() const { return m_costTime; }
    QString rankingText() const;
    QDoubleSpinBox* tokensSpin() const { return m_tokens; }

protected:
    void refresh() override;

private:
    QDoubleSpinBox* m_tokens = nullptr;
    QDoubleSpinBox* m_epochs = nullptr;
    QDoubleSpinBox* m_mfu = nullptr;
    QCheckBox* m_spot = nullptr;
    QCheckBox* m_offload = nullptr;
    QComboBox* m_scalingGpu = nullptr;
    PlanTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_ranking = nullptr;
    CostTimeChartView* m_costTime = nullptr;
    ScalingChartView* m_scaling = nullptr;
};

/// "3.2 h", "2.1 days" for a number of hours.
QString formatHours(double hours);
/// "$1,234" for dollars.
QString formatUsd(double usd);

} // namespace gpusizer::ui
