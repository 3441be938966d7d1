#pragma once

#include <QtWidgets/QTableView>

namespace gpusizer::ui {

/// A table whose first column (the GPU) stays in place while the others scroll sideways: a second view of the same
/// model, showing that column only, lies over the left edge and follows the rows, selection, sorting and widths.
class FrozenColumnTableView final : public QTableView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FrozenColumnTableView)

public:
    explicit FrozenColumnTableView(QWidget* parent = nullptr);
    void setModel(QAbstractItemModel* model) override;
    /// The view over the first column (for tests).
    QTableView* frozenView() const { return m_frozen; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    QModelIndex moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) override;
    void scrollTo(const QModelIndex& index, ScrollHint hint = EnsureVisible) override;

private:
    void placeFrozen();
    void showFirstColumnOnly();

    QTableView* m_frozen = nullptr;
};

} // namespace gpusizer::ui
