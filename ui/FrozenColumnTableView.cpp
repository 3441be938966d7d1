#include "FrozenColumnTableView.h"

#include <QtCore/QSignalBlocker>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QScrollBar>

namespace gpusizer::ui {

FrozenColumnTableView::FrozenColumnTableView(QWidget* parent) : QTableView(parent), m_frozen(new QTableView(this)) {
    m_frozen->setObjectName(QStringLiteral("frozenColumn"));
    m_frozen->setFocusPolicy(Qt::NoFocus); // the keyboard stays with the table itself
    m_frozen->setTabKeyNavigation(false);
    // One Tab stop for the whole table (Tab leaves it, the arrow keys move inside): a fit table of 250 cells must not
    // stand between the keyboard and the controls below it.
    setTabKeyNavigation(false);
    m_frozen->verticalHeader()->hide();
    // Its header lies over the table's: resizing happens on the table's own column, which the overlay follows.
    m_frozen->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_frozen->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollMode(ScrollPerPixel);
    m_frozen->setStyleSheet(QStringLiteral("QTableView { border: none; border-right: 1px solid palette(mid); }"));
    setHorizontalScrollMode(ScrollPerPixel);
    setVerticalScrollMode(ScrollPerPixel);
    viewport()->stackUnder(m_frozen);
    connect(horizontalHeader(), &QHeaderView::sectionResized, this, [this](int section, int, int size) {
        if (section == 0) {
            m_frozen->setColumnWidth(0, size);
            placeFrozen();
        }
    });
    connect(verticalHeader(), &QHeaderView::sectionResized, this,
            [this](int section, int, int size) { m_frozen->setRowHeight(section, size); });
    // One sort order: the first column's header sorts the table; another column's sort clears its indicator.
    connect(m_frozen->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this,
            [this](int column, Qt::SortOrder order) { horizontalHeader()->setSortIndicator(column, order); });
    connect(horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, [this](int column, Qt::SortOrder order) {
        const QSignalBlocker block(m_frozen->horizontalHeader());
        m_frozen->horizontalHeader()->setSortIndicator(column, order);
    });
    connect(m_frozen->verticalScrollBar(), &QAbstractSlider::valueChanged, verticalScrollBar(),
            &QAbstractSlider::setValue);
    connect(verticalScrollBar(), &QAbstractSlider::valueChanged, m_frozen->verticalScrollBar(),
            &QAbstractSlider::setValue);
}

void FrozenColumnTableView::setModel(QAbstractItemModel* model) {
    QTableView::setModel(model);
    m_frozen->setModel(model);
    m_frozen->setSelectionModel(selectionModel());
    m_frozen->setSelectionBehavior(selectionBehavior());
    connect(model, &QAbstractItemModel::modelReset, this, &FrozenColumnTableView::showFirstColumnOnly);
    connect(model, &QAbstractItemModel::layoutChanged, this, &FrozenColumnTableView::showFirstColumnOnly);
    showFirstColumnOnly();
}

void FrozenColumnTableView::showFirstColumnOnly() {
    if (model() == nullptr) {
        return;
    }
    for (int c = 1; c < model()->columnCount(); ++c) {
        m_frozen->setColumnHidden(c, true);
    }
    m_frozen->setColumnWidth(0, columnWidth(0));
    if (m_frozen->isSortingEnabled() != isSortingEnabled()) {
        m_frozen->setSortingEnabled(isSortingEnabled()); // enabling sorts: only when it changes
    }
    m_frozen->setSelectionBehavior(selectionBehavior());
    m_frozen->setSelectionMode(selectionMode());
    m_frozen->setWordWrap(wordWrap());
    for (int r = 0; r < model()->rowCount(); ++r) {
        m_frozen->setRowHeight(r, rowHeight(r));
    }
    placeFrozen();
}

void FrozenColumnTableView::placeFrozen() {
    const int header = verticalHeader()->isHidden() ? 0 : verticalHeader()->width();
    m_frozen->setGeometry(header + frameWidth(), frameWidth(), columnWidth(0),
                          viewport()->height() + horizontalHeader()->height());
}

void FrozenColumnTableView::resizeEvent(QResizeEvent* event) {
    QTableView::resizeEvent(event);
    placeFrozen();
}

QModelIndex FrozenColumnTableView::moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) {
    const QModelIndex current = QTableView::moveCursor(cursorAction, modifiers);
    // Moving left onto a cell hidden under the frozen column scrolls it into view beside it.
    if (cursorAction == MoveLeft && current.column() > 0 &&
        visualRect(current).topLeft().x() < m_frozen->columnWidth(0)) {
        const int by = visualRect(current).topLeft().x() - m_frozen->columnWidth(0);
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() + by);
    }
    return current;
}

void FrozenColumnTableView::scrollTo(const QModelIndex& index, ScrollHint hint) {
    if (index.column() > 0) {
        QTableView::scrollTo(index, hint);
        return;
    }
    // A GPU name is always in view sideways: scroll up or down only.
    const int top = rowViewportPosition(index.row());
    const int bottom = top + rowHeight(index.row());
    if (top < 0) {
        verticalScrollBar()->setValue(verticalScrollBar()->value() + top);
    } else if (bottom > viewport()->height()) {
        verticalScrollBar()->setValue(verticalScrollBar()->value() + bottom - viewport()->height());
    }
}

} // namespace gpusizer::ui
