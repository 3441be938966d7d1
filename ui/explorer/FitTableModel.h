#pragma once

#include "../TableModel.h"
#include "gpusizer/plan/FitTable.h"
#include "gpusizer/present/PlanTables.h"

namespace gpusizer::ui {

/// The GPU fit table (present::fitTable): every catalog GPU with your layout's verdict and the planner's choice.
class FitTableModel final : public TableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FitTableModel)

public:
    enum Column {
        Gpu = present::FitGpu,
        YourLayout = present::FitYours,
        BestLayout = present::FitBest,
        WallTime = present::FitWall,
        Cost = present::FitCost,
        UsagePerGpu = present::FitPerGpu,
        Headroom = present::FitHeadroom,
        MaxMicroBatch = present::FitMaxBatch,
        MaxSeqLen = present::FitMaxSeq,
        Memory = present::FitUsable,
        PricePerHour = present::FitPrice,
        ColumnCount
    };
    /// The GPU's vendor (for the filter).
    static constexpr int VendorRole = Qt::UserRole + 3;

    explicit FitTableModel(QObject* parent = nullptr);

    /// The rows, the plan inputs they were computed with, and the GPU the scenario names (highlighted).
    void setRows(std::vector<core::FitRow> rows, const core::PlanInputs& inputs, const std::string& selectedGpuId);
    const core::FitRow& row(int r) const { return m_rows[static_cast<std::size_t>(r)]; }
    QVariant data(const QModelIndex& index, int role) const override;

    /// Verdict colours: green fits, amber tight (the estimate fits but not its margin) or fits with the planner's
    /// count and layout, red nothing up to the card limit fits.
    static QColor verdictColor(core::FitVerdict verdict, bool fitsWithAnotherLayout);

private:
    std::vector<core::FitRow> m_rows;
};

} // namespace gpusizer::ui
