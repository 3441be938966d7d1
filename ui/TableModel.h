#pragma once
// One table model for every table in the window: it shows a present::Table (text, numbers formatted once, tones as
// the verdict colours, tooltips, bold rows) and sorts numbers as numbers.

#include "gpusizer/present/Table.h"

#include <QtCore/QAbstractTableModel>
#include <QtGui/QColor>
#include <QtWidgets/QTableView>
#include <functional>

namespace gpusizer::ui {

/// The verdict colours (light in both palettes, with black text on them).
QColor toneColor(present::Tone tone);
/// A cell as the window shows it: a translated message, or the formatted number.
QString cellText(const present::Cell& cell);
/// The table as a small HTML table, for labels and message boxes.
QString toHtml(const present::Table& table);
/// A table view on `model` that is one Tab stop, the arrow keys moving inside: Tab leaves the table, as in every
/// other control of the window, instead of walking its cells.
QTableView* newTableView(QAbstractItemModel* model, QWidget* parent);

class TableModel : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TableModel)

public:
    /// Sort key role: numbers sort as numbers, words as words.
    static constexpr int SortRole = Qt::UserRole + 1;
    /// The row's key (a GPU id, a component key).
    static constexpr int KeyRole = Qt::UserRole + 2;

    explicit TableModel(QObject* parent = nullptr);
    /// Replaces the rows; the model resets only when the shape changes, else it reports the data changed.
    void setTable(present::Table table);
    const present::Table& table() const { return m_table; }
    /// A decoration (e.g. a colour swatch) for a row's first column.
    void setDecoration(std::function<QVariant(const std::string& key)> decoration);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    present::Table m_table;
    std::function<QVariant(const std::string&)> m_decoration;
};

} // namespace gpusizer::ui
