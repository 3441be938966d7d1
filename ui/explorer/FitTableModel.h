#pragma once

#include "gpusizer/core/FitTable.h"

#include <QtCore/QAbstractTableModel>
#include <vector>

namespace gpusizer::ui {

/// Every catalog GPU against the scenario: verdict, minimum cards, usage, headroom, largest batch and sequence.
class FitTableModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FitTableModel)

public:
    enum Column {
        Gpu,
        Memory,
        OneCard,
        UsagePerGpu,
        Headroom,
        MinCards,
        MinCardsZero3,
        MaxMicroBatch,
        MaxSeqLen,
        PricePerHour,
        ColumnCount
    };
    /// Sort key role: numbers sort as numbers.
    static constexpr int SortRole = Qt::UserRole + 1;
    /// The GPU's vendor (for the filter).
    static constexpr int VendorRole = Qt::UserRole + 2;

    explicit FitTableModel(QObject* parent = nullptr);

    void setRows(std::vector<core::FitRow> rows);
    const core::FitRow& row(int r) const { return m_rows[static_cast<std::size_t>(r)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    /// Row colours: green fits, amber tight (under 10% headroom) or needs more cards, red never fits.
    static QColor verdictColor(core::FitVerdict verdict, bool fitsWithMoreCards);

private:
    std::vector<core::FitRow> m_rows;
};

} // namespace gpusizer::ui
