#pragma once

#include "gpusizer/import/TrainingConfig.h"

#include <QtWidgets/QDialog>

QT_FORWARD_DECLARE_CLASS(QTableWidget)
QT_FORWARD_DECLARE_CLASS(QComboBox)

namespace gpusizer::ui {

/// What an import of training configs read: every key used (and the scenario field it set), every default taken with
/// its source, every key ignored and why, and the notes. A table the user can filter by kind; non-modal.
class ImportReportDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ImportReportDialog)

public:
    ImportReportDialog(const core::ImportedRun& run, QWidget* parent);
    /// The report kept in a scenario's notes (plain text, as saved).
    ImportReportDialog(const QString& notes, QWidget* parent);
    ~ImportReportDialog() override;

    /// Rows shown for the kind picked (all when none); for tests.
    int visibleRows() const;
    void showOnly(std::optional<core::ImportLine::Kind> kind);

    /// The words of a line's kind ("used", "default taken", ...), translated.
    static QString kindText(core::ImportLine::Kind kind);

private:
    QTableWidget* m_table = nullptr;
    QComboBox* m_filter = nullptr;
};

} // namespace gpusizer::ui
