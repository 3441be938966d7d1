#include "ImportReportDialog.h"

#include "Present.h"

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

ImportReportDialog::ImportReportDialog(const core::ImportedRun& run, QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("importReport"));
    setWindowTitle(tr("Import report"));
    auto* layout = new QVBoxLayout(this);
    QStringList files;
    for (const auto& [path, format] : run.files) {
        files << tr("%1 (%2)").arg(QFileInfo(QString::fromStdString(path)).fileName(),
                                   QString::fromLatin1(core::toString(format)));
    }
    int counts[4] = {0, 0, 0, 0};
    for (const auto& l : run.lines) {
        ++counts[static_cast<int>(l.kind)];
    }
    auto* summary = new QLabel(
        tr("<b>%1</b><br>Read %2. %3 keys used, %4 defaults taken, %5 keys ignored, %6 notes. The scenario keeps "
           "this report in its notes (File › Show import report).")
            .arg(QString::fromStdString(run.scenario.name).toHtmlEscaped(), files.join(QStringLiteral(", ")))
            .arg(counts[0])
            .arg(counts[1])
            .arg(counts[2])
            .arg(counts[3]),
        this);
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

    m_table = new QTableWidget(static_cast<int>(run.lines.size()), 6, this);
    m_table->setHorizontalHeaderLabels(
        {tr("What"), tr("Key"), tr("Value"), tr("Scenario field"), tr("Source or reason"), tr("Where")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    int row = 0;
    for (const auto& l : run.lines) {
        const QStringList cells{kindText(l.kind),
                                QString::fromStdString(l.key),
                                QString::fromStdString(l.value),
                                QString::fromStdString(l.field),
                                ui::text(l.why),
                                QFileInfo(QString::fromStdString(l.file)).fileName()};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setToolTip(c == 5 ? QString::fromStdString(l.file) : cells[c]);
            item->setData(kKindRole, static_cast<int>(l.kind));
            m_table->setItem(row, c, item);
        }
        ++row;
    }
    m_table->resizeColumnsToContents();
    for (int c = 0; c < m_table->columnCount(); ++c) {
        m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), 360));
    }
    m_table->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_table, 1);
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
