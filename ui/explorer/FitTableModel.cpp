#include "FitTableModel.h"

namespace gpusizer::ui {

FitTableModel::FitTableModel(QObject* parent) : TableModel(parent) {
    setRows({}, core::PlanInputs{}, {});
}

void FitTableModel::setRows(std::vector<core::FitRow> rows, const core::PlanInputs& inputs,
                            const std::string& selectedGpuId) {
    m_rows = std::move(rows);
    setTable(present::fitTable(m_rows, inputs, selectedGpuId));
}

QVariant FitTableModel::data(const QModelIndex& index, int role) const {
    if (role == VendorRole && index.isValid()) {
        return QString::fromStdString(m_rows[static_cast<std::size_t>(index.row())].gpu->vendor);
    }
    return TableModel::data(index, role);
}

QColor FitTableModel::verdictColor(core::FitVerdict verdict, bool fitsWithAnotherLayout) {
    return toneColor(present::verdictTone(verdict, fitsWithAnotherLayout));
}

} // namespace gpusizer::ui
