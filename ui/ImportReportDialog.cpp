#include "ImportReportDialog.h"

#include "Present.h"
#include "gpusizer/present/Names.h"
#include "gpusizer/scenario/ScenarioFields.h"

#include <QtCore/QFileInfo>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QTableWidget>
#include <QtWidgets/QVBoxLayout>

namespace gpusizer::ui {

namespace {

/// A value the file wrote is shown as written; one the import decided (no key: the precision the files add up to, the
/// framework, a default) is a scenario code, shown in words.
QString shownValue(const core::ImportLine& l) {
    const core::ScenarioField* field = l.key.empty() ? core::findField(l.field) : nullptr;
    if (field != nullptr && field->type == core::FieldType::Choice) {
        for (const auto& c : field->choices) {
            if (c.code == l.value) {
                return text(present::choiceLabel(*field, c.value));
            }
        }
    }
    return QString::fromStdString(l.value);
}

constexpr int kKindRole = Qt::UserRole + 1;

QDialogButtonBox* closeButtons(QDialog* dialog) {
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    return buttons;
}

} // namespace

QString ImportReportDialog::kindText(core::ImportLine::Kind kind) {
    switch (kind) {
    case core::ImportLine::Kind::Used:
        return tr("used");
    case core::ImportLine::Kind::Defaulted:
        return tr("default taken");
    case core::ImportLine::Kind::Ignored:
        return tr("ignored");
    case core::ImportLine::Kind::Note:
        return tr("note");
    }
    return {};
}

namespace {

/// What was read, from which files, and how many keys of each kind.
QString importSummary(const core::ImportedRun& run) {
    QStringList files;
    for (const auto& [path, format] : run.files) {
        files << ImportReportDialog::tr("%1 (%2)").arg(QFileInfo(QString::fromStdString(path)).fileName(),
                                                       QString::fromLatin1(core::toString(format)));
    }
    int counts[4] = {0, 0, 0, 0};
    for (const auto& l : run.lines) {
        ++counts[static_cast<int>(l.kind)];
    }
    const QString counted = QStringList{ImportReportDialog::tr("%n key(s) used", nullptr, counts[0]),
                                        ImportReportDialog::tr("%n default(s) taken", nullptr, counts[1]),
                                        ImportReportDialog::tr("%n key(s) ignored", nullptr, counts[2]),
                                        ImportReportDialog::tr("%n note(s)", nullptr, counts[3])}
                                .join(QStringLiteral(", "));
    return ImportReportDialog::tr("<b>%1</b><br>Read %2. %3. The scenario keeps this report in its notes (File › Show "
                                  "import report).")
        .arg(QString::fromStdString(run.scenario.name).toHtmlEscaped(),
             files.join(QStringLiteral(", ")).toHtmlEscaped(), counted);
}

/// One row per line of the report; long keys and values are cut, whole in their tooltips.
QTableWidget* importTable(const core::ImportedRun& run, QWidget* parent) {
    auto* table = new QTableWidget(static_cast<int>(run.lines.size()), 6, parent);
    table->setTabKeyNavigation(false); // one Tab stop; the arrow keys move inside
    table->setHorizontalHeaderLabels({ImportReportDialog::tr("What"), ImportReportDialog::tr("Key"),
                                      ImportReportDialog::tr("Value"), ImportReportDialog::tr("Scenario field"),
                                      ImportReportDialog::tr("Where"), ImportReportDialog::tr("Source or reason")});
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->verticalHeader()->hide();
    table->setWordWrap(false);
    int row = 0;
    for (const auto& l : run.lines) {
        const QStringList cells{ImportReportDialog::kindText(l.kind),
                                l.key.empty() ? QStringLiteral("—") : QString::fromStdString(l.key),
                                shownValue(l),
                                QString::fromStdString(l.field),
                                QFileInfo(QString::fromStdString(l.file)).fileName(),
                                ui::text(l.why)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setToolTip(c == 4 ? QString::fromStdString(l.file) : cells[c]);
            item->setData(kKindRole, static_cast<int>(l.kind));
            table->setItem(row, c, item);
        }
        ++row;
    }
    table->resizeColumnsToContents();
    // Long keys and values are cut (whole in their tooltips) so that the source column stays in view.
    const int widest[] = {100, 200, 115, 150, 185};
    for (int c = 0; c < 5; ++c) {
        table->setColumnWidth(c, std::min(table->columnWidth(c), widest[c]));
    }
    table->horizontalHeader()->setSectionResizeMode(5, QHeaderView::Stretch); // the source fills what is left
    return table;
}

} // namespace

ImportReportDialog::ImportReportDialog(const core::ImportedRun& run, QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("importReport"));
    setWindowTitle(tr("Import report"));
    auto* layout = new QVBoxLayout(this);
    auto* summary = new QLabel(importSummary(run), this);
    summary->setWordWrap(true);
    layout->addWidget(summary);

    auto* filterRow = new QHBoxLayout;
    auto* filterLabel = new QLabel(tr("&Show:"), this);
    m_filter = new QComboBox(this);
    m_filter->addItem(tr("everything"), -1);
    for (auto kind : {core::ImportLine::Kind::Used, core::ImportLine::Kind::Defaulted, core::ImportLine::Kind::Ignored,
                      core::ImportLine::Kind::Note}) {
        m_filter->addItem(kindText(kind), static_cast<int>(kind));
    }
    filterLabel->setBuddy(m_filter);
    filterRow->addWidget(filterLabel);
    filterRow->addWidget(m_filter);
    filterRow->addStretch(1);
    layout->addLayout(filterRow);

    m_table = importTable(run, this);
    layout->addWidget(m_table, 1);
    // The selected line in full: its source or reason and where it stands (long ones are cut in the table).
    auto* detail = new QLabel(this);
    detail->setObjectName(QStringLiteral("importReportDetail"));
    detail->setWordWrap(true);
    detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(detail);
    connect(m_table, &QTableWidget::currentCellChanged, this, [this, detail](int current) {
        if (current < 0) {
            detail->clear();
            return;
        }
        detail->setText(tr("%1 · %2: %3")
                            .arg(m_table->item(current, 0)->text(), m_table->item(current, 4)->toolTip(),
                                 m_table->item(current, 5)->text()));
    });
    if (m_table->rowCount() > 0) {
        m_table->setCurrentCell(0, 0);
    }
    connect(m_filter, &QComboBox::currentIndexChanged, this, [this](int index) {
        const int kind = m_filter->itemData(index).toInt();
        showOnly(kind < 0 ? std::nullopt : std::optional(static_cast<core::ImportLine::Kind>(kind)));
    });
    layout->addWidget(closeButtons(this));
    resize(980, 560);
}

ImportReportDialog::ImportReportDialog(const QString& notes, QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("importReport"));
    setWindowTitle(tr("Import report"));
    auto* layout = new QVBoxLayout(this);
    auto* text = new QPlainTextEdit(notes, this);
    text->setReadOnly(true);
    text->setLineWrapMode(QPlainTextEdit::NoWrap);
    layout->addWidget(text, 1);
    layout->addWidget(closeButtons(this));
    resize(980, 560);
}

ImportReportDialog::~ImportReportDialog() = default;

void ImportReportDialog::showOnly(std::optional<core::ImportLine::Kind> kind) {
    if (m_table == nullptr) {
        return;
    }
    for (int r = 0; r < m_table->rowCount(); ++r) {
        const int rowKind = m_table->item(r, 0)->data(kKindRole).toInt();
        m_table->setRowHidden(r, kind && rowKind != static_cast<int>(*kind));
    }
}

int ImportReportDialog::visibleRows() const {
    int n = 0;
    for (int r = 0; m_table != nullptr && r < m_table->rowCount(); ++r) {
        n += m_table->isRowHidden(r) ? 0 : 1;
    }
    return n;
}

} // namespace gpusizer::ui
