#pragma once

#include "LiveView.h"

QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QDoubleSpinBox)
QT_FORWARD_DECLARE_CLASS(QSortFilterProxyModel)
QT_FORWARD_DECLARE_CLASS(QTableView)

namespace gpusizer::ui {

class FitTableModel;

/// The GPU fit table with a vendor and memory filter; rows coloured green / amber / red.
class FitView final : public LiveView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FitView)

public:
    explicit FitView(ScenarioController& controller, QWidget* parent = nullptr);
    FitTableModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QComboBox* vendorFilter() const { return m_vendor; }
    QDoubleSpinBox* minMemoryFilter() const { return m_minMemory; }

protected:
    void refresh() override;

private:
    FitTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QComboBox* m_vendor = nullptr;
    QDoubleSpinBox* m_minMemory = nullptr;
};

} // namespace gpusizer::ui
