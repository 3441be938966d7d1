#pragma once

#include "gpusizer/core/FitTable.h"

#include <QtCore/QAbstractTableModel>
#include <vector>

namespace gpusizer::ui {

/// Every catalog GPU against the scenario: the user's own layout on it (the verdict with the margin), the planner's
/// choice on it, and how far one card stretches.
class FitTableModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FitTableModel)

public:
    enum Column {
        Gpu,
        YourLayout,
        BestLayout,
        WallTime,
        Cost,
        UsagePerGpu,
        Headroom,
        MaxMicroBatch,
        MaxSeqLen,
        Memory,
        PricePerHour,
        ColumnCount
    };
    /// Sort key role: numbers sort as numbers.
    static constexpr int SortRole = Qt::UserRole + 1;
    /// The GPU's vendor (for the filter).
    static constexpr int VendorRole = Qt::UserRole + 2;

    explicit FitTableModel(QObject* parent = nullptr);

    /// The rows, the plan inputs they were computed with, and the GPU the scenario names (highlighted).
    void setRows(std::vector<core::FitRow> rows, const core::PlanInputs& inputs, const std::string& selectedGpuId);
    const core::FitRow& row(int r) const { return m_rows[static_cast<std::size_t>(r)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    /// Verdict colours: green fits, amber tight (the estimate fits but not its margin) or fits with the planner's
    /// count and layout, red nothing up to the card limit fits.
    static QColor verdictColor(core::FitVerdict verdict, bool fitsWithAnotherLayout);

private:
    std::vector<core::FitRow> m_rows;
    core::PlanInputs m_inputs;
    std::string m_selected;
};

} // namespace gpusizer::ui
