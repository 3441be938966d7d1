#pragma once

#include "../TableModel.h"
#include "../WrappedLabel.h"
#include "LiveView.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/present/PlanTables.h"

QT_FORWARD_DECLARE_CLASS(QCheckBox)
QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QDoubleSpinBox)
QT_FORWARD_DECLARE_CLASS(QGridLayout)
QT_FORWARD_DECLARE_CLASS(QVBoxLayout)
QT_FORWARD_DECLARE_CLASS(QHBoxLayout)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QSpinBox)
QT_FORWARD_DECLARE_CLASS(QTableView)
QT_FORWARD_DECLARE_CLASS(QSortFilterProxyModel)

namespace gpusizer::ui {

class CostTimeChartView;
class ScalingChartView;

/// The planner's choice per GPU: cards and layout, wall time, cost, GPU-hours, memory, step, why fewer cards fail.
class PlanTableModel final : public TableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlanTableModel)

public:
    enum Column {
        Gpu = present::PlanGpu,
        Layout = present::PlanLayout,
        Hours = present::PlanHours,
        Cost = present::PlanCost,
        GpuHours = present::PlanGpuHours,
        PerGpu = present::PlanPerGpu,
        Step = present::PlanStep,
        WhyFewer = present::PlanWhyFewer,
        ColumnCount
    };
    explicit PlanTableModel(QObject* parent = nullptr);
    void setResults(std::vector<core::CardPlan> results, const core::PlanInputs& inputs, int chosen);
    const std::vector<core::CardPlan>& results() const { return m_results; }

private:
    std::vector<core::CardPlan> m_results;
};

/// The plan tab: what to rent. The objective and limits (shared with every view through the controller), the
/// planner's choice per GPU with its runners-up, cost against time, and scaling curves.
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
    QTableView* tableView() const { return m_table; }
    ScalingChartView* scaling() const { return m_scaling; }
    CostTimeChartView* costTime() const { return m_costTime; }
    QString rankingText() const;
    QString detailsText() const;
    /// The one-hour test (shown first) and the chosen plan's whole bill, as the tab shows them.
    QString trialText() const;
    QString billText() const;
    QDoubleSpinBox* tokensSpin() const { return m_tokens; }
    QComboBox* objectivePicker() const { return m_objective; }
    QDoubleSpinBox* deadlineSpin() const { return m_deadline; }
    QDoubleSpinBox* mfuSpin() const { return m_mfu; }
    QSpinBox* globalBatchMinSpin() const { return m_batchMin; }
    QSpinBox* globalBatchMaxSpin() const { return m_batchMax; }

signals:
    /// The one-hour test's "Export measurement script…" (the main window writes it, as File › Export does).
    void probeScriptRequested();

protected:
    void refresh() override;

private:
    // The constructor's parts, called in the order that sets the tab order.
    /// Dataset tokens, epochs, MFU and the global batch.
    void createRunInputs(const core::PlanInputs& defaults);
    /// Objective and deadline, network, card limit, margin, host RAM, spot and offload.
    void createObjectiveAndLimits(const core::PlanInputs& defaults);
    /// The bill's assumptions: interruptions, checkpoint interval, storage bandwidth, days kept, egress price.
    void createBillInputs(const core::PlanInputs& defaults);
    /// The inputs with their labels in two rows.
    QVBoxLayout* layOutInputs();
    /// The plan table with the ranking and details labels.
    void createPlanTable();
    /// Cost against time, and the scaling chart with its GPU picker.
    QHBoxLayout* createCharts();
    /// Every input change reaches the controller and refreshes the tab.
    void connectInputs();

    void pushInputs();
    void showDetails();

    QDoubleSpinBox* m_tokens = nullptr;
    QDoubleSpinBox* m_epochs = nullptr;
    QDoubleSpinBox* m_mfu = nullptr;
    QDoubleSpinBox* m_deadline = nullptr;
    QSpinBox* m_batchMin = nullptr;
    QSpinBox* m_batchMax = nullptr;
    QCheckBox* m_spot = nullptr;
    QCheckBox* m_offload = nullptr;
    QComboBox* m_objective = nullptr;
    QComboBox* m_network = nullptr;
    QSpinBox* m_maxGpus = nullptr;
    QDoubleSpinBox* m_margin = nullptr;
    QDoubleSpinBox* m_hostRam = nullptr;
    QDoubleSpinBox* m_interruptions = nullptr;
    QDoubleSpinBox* m_interval = nullptr;
    QDoubleSpinBox* m_storageGbps = nullptr;
    QDoubleSpinBox* m_provision = nullptr;   ///< the fixed costs' instance start, minutes
    QDoubleSpinBox* m_environment = nullptr; ///< ... the image or the packages, minutes
    QDoubleSpinBox* m_download = nullptr;    ///< ... the base model's download, GB/s per node
    QDoubleSpinBox* m_keepDays = nullptr;
    QDoubleSpinBox* m_egress = nullptr;
    WrappedLabel* m_trial = nullptr;
    WrappedLabel* m_bill = nullptr;
    QComboBox* m_scalingGpu = nullptr;
    PlanTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    WrappedLabel* m_ranking = nullptr;
    WrappedLabel* m_details = nullptr;
    CostTimeChartView* m_costTime = nullptr;
    ScalingChartView* m_scaling = nullptr;
};

} // namespace gpusizer::ui
