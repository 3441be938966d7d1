#include "TableModel.h"

#include "Format.h"
#include "Present.h"

#include <QtGui/QFont>
#include <QtGui/QGuiApplication>
#include <QtGui/QIcon>
#include <QtGui/QPalette>
#include <QtGui/QPixmap>

namespace gpusizer::ui {

namespace {
constexpr qsizetype kTooltipFromLength = 16; // characters: shorter cells fit any column they are in
} // namespace

QColor toneColor(present::Tone tone) {
    switch (tone) {
    case present::Tone::Good:
        return {0xc8, 0xe6, 0xc9};
    case present::Tone::Warn:
        return {0xff, 0xe0, 0x82};
    case present::Tone::Bad:
        return {0xff, 0xcd, 0xd2};
    case present::Tone::Muted:
        return {0xee, 0xee, 0xee};
    case present::Tone::None:
        break;
    }
    return {};
}

QString cellText(const present::Cell& cell) {
    if (cell.kind == present::CellKind::Text || !cell.text.empty()) {
        return text(cell.text);
    }
    return QString::fromStdString(present::formatValue(cell));
}

QString toHtml(const present::Table& input) {
    const present::Table table = present::withRowHeaderColumn(input);
    QString html = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"2\"><tr>");
    for (const auto& column : table.columns) {
        html += QStringLiteral("<th align=\"%1\">%2</th>")
                    .arg(column.align == present::Align::Right ? QStringLiteral("right") : QStringLiteral("left"),
                         text(column.header).toHtmlEscaped());
    }
    html += QStringLiteral("</tr>");
    for (const auto& row : table.rows) {
        html += QStringLiteral("<tr>");
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            const QString cell = c < row.size() ? cellText(row[c]).toHtmlEscaped() : QString();
            const bool bold = c < row.size() && row[c].strong;
            html += QStringLiteral("<td align=\"%1\">%2</td>")
                        .arg(table.columns[c].align == present::Align::Right ? QStringLiteral("right")
                                                                             : QStringLiteral("left"),
                             bold ? QStringLiteral("<b>%1</b>").arg(cell) : cell);
        }
        html += QStringLiteral("</tr>");
    }
    return html + QStringLiteral("</table>");
}

TableModel::TableModel(QObject* parent) : QAbstractTableModel(parent) {}

void TableModel::setTable(present::Table table) {
    const bool sameShape = table.rows.size() == m_table.rows.size() && table.columns.size() == m_table.columns.size();
    if (sameShape) {
        m_table = std::move(table);
        if (!m_table.rows.empty()) {
            emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
        }
        emit headerDataChanged(Qt::Horizontal, 0, std::max(0, columnCount() - 1));
        return;
    }
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

void TableModel::setDecoration(std::function<QVariant(const std::string& key)> decoration) {
    m_decoration = std::move(decoration);
}

int TableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_table.rows.size());
}

int TableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_table.columns.size());
}

QVariant TableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) {
        return {};
    }
    const auto r = static_cast<std::size_t>(index.row());
    const auto c = static_cast<std::size_t>(index.column());
    const auto& row = m_table.rows[r];
    const present::Cell cell = c < row.size() ? row[c] : present::Cell{};
    switch (role) {
    case Qt::DisplayRole:
        return cellText(cell);
    case SortRole:
        if (cell.numeric()) {
            return cell.value;
        }
        return cell.sortText.empty() ? QVariant(cellText(cell)) : QVariant(QString::fromStdString(cell.sortText));
    case KeyRole:
        return QString::fromStdString(m_table.keys[r]);
    case Qt::ToolTipRole: {
        if (!cell.tooltip.empty()) {
            return text(cell.tooltip);
        }
        // A long text may be elided in a narrow column: the tooltip always has it whole.
        const QString shown = cellText(cell);
        return shown.size() > kTooltipFromLength ? QVariant(shown) : QVariant();
    }
    case Qt::BackgroundRole:
        // Muted rows keep the view's own background, light or dark; only their text is greyed.
        return cell.tone != present::Tone::None && cell.tone != present::Tone::Muted ? QVariant(toneColor(cell.tone))
                                                                                     : QVariant();
    case Qt::ForegroundRole:
        if (cell.tone == present::Tone::Muted) {
            return mutedTextColor(QGuiApplication::palette());
        }
        return cell.tone != present::Tone::None ? QVariant(QColor(Qt::black)) : QVariant();
    case Qt::FontRole:
        if (cell.strong) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::TextAlignmentRole:
        return m_table.columns[c].align == present::Align::Right ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                                 : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::DecorationRole:
        // The decoration marks the row: in its header where the table has row headers, else in the first cell.
        return c == 0 && m_decoration && m_table.rowHeaders.empty() ? m_decoration(m_table.keys[r]) : QVariant();
    default:
        return {};
    }
}

QVariant TableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Vertical) {
        const auto row = static_cast<std::size_t>(section);
        if (role == Qt::DecorationRole && m_decoration && section >= 0 && row < m_table.rowHeaders.size()) {
            // A header paints an icon, not a colour: the swatch becomes a small filled square.
            const QVariant decoration = m_decoration(m_table.keys[row]);
            if (decoration.canConvert<QColor>() && decoration.userType() == QMetaType::QColor) {
                QPixmap swatch(10, 10);
                swatch.fill(decoration.value<QColor>());
                return QIcon(swatch);
            }
            return decoration;
        }
        return role == Qt::DisplayRole && section >= 0 && row < m_table.rowHeaders.size()
                   ? QVariant(text(m_table.rowHeaders[row]))
                   : QVariant();
    }
    if (section < 0 || section >= columnCount()) {
        return {};
    }
    const auto& column = m_table.columns[static_cast<std::size_t>(section)];
    if (role == Qt::DisplayRole) {
        return text(column.header);
    }
    if (role == Qt::ToolTipRole && !column.tooltip.empty()) {
        return text(column.tooltip);
    }
    return {};
}

QTableView* newTableView(QAbstractItemModel* model, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setTabKeyNavigation(false);
    view->setModel(model);
    return view;
}

} // namespace gpusizer::ui
