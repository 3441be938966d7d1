#pragma once

#include "../TableModel.h"
#include "LiveView.h"
#include "gpusizer/plan/Compare.h"
#include "gpusizer/present/CompareText.h"

QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QTableView)

namespace gpusizer::ui {

class BreakdownChartView;

/// Variants side by side: one column per variant, rows = components, totals, trainable parameters, smallest GPU.
class CompareTableModel final : public TableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CompareTableModel)

public:
    enum Row { FirstComponent = 0, DeviceTotal = present::CompareDevice, Allocated, Trainable, SmallestGpu, RowCount };
    explicit CompareTableModel(QObject* parent = nullptr);
    void setVariants(std::vector<core::Variant> variants, present::CompareAxis axis);
    const std::vector<core::Variant>& variants() const { return m_variants; }

private:
    std::vector<core::Variant> m_variants;
};

/// Full vs LoRA vs QLoRA (or optimizers, or precision recipes) for the same model and run shape.
class CompareView final : public LiveView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CompareView)

public:
    enum class Axis { Methods, Optimizers, Precisions };
    explicit CompareView(ScenarioController& controller, QWidget* parent = nullptr);
    void setAxis(Axis axis);
    CompareTableModel* model() const { return m_model; }
    BreakdownChartView* chart() const { return m_chart; }

protected:
    void refresh() override;

private:
    QComboBox* m_axis = nullptr;
    BreakdownChartView* m_chart = nullptr;
    QLabel* m_lineKey = nullptr;
    CompareTableModel* m_model = nullptr;
    QTableView* m_table = nullptr;
};

} // namespace gpusizer::ui
