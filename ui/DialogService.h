#pragma once

#include <QtCore/QString>
#include <QtCore/QStringList>

QT_FORWARD_DECLARE_CLASS(QWidget)

namespace gpusizer::ui {

/// Every modal question the UI asks goes through here, so tests can pre-answer instead of blocking
/// (KeePassXC's FileDialog::setNextFileName / MessageBox::setNextAnswer pattern).
class DialogService final {
public:
    /// Path chosen in an open dialog; empty when cancelled.
    static QString openFile(QWidget* parent, const QString& title, const QString& filter);
    /// Paths chosen in an open dialog that takes several files; empty when cancelled.
    static QStringList openFiles(QWidget* parent, const QString& title, const QString& filter);
    /// Path chosen in a save dialog; empty when cancelled.
    static QString saveFile(QWidget* parent, const QString& title, const QString& suggested, const QString& filter);
    /// The folder the next file dialog opens in: the one the last chosen file lay in (kept in the settings), else home.
    static QString startFolder();
    /// A save dialog's starting path: `suggested` when it is an absolute path, else that file name in startFolder().
    static QString startPath(const QString& suggested);
    /// A blocking error message (the text names the file, the field and the reason).
    static void error(QWidget* parent, const QString& title, const QString& text);
    /// A yes/no question; true for yes.
    static bool ask(QWidget* parent, const QString& title, const QString& text);
    /// Yes/No/Cancel for unsaved changes: 1 save, 0 discard, -1 cancel.
    static int askSaveChanges(QWidget* parent, const QString& text);

    // Test seams: the next call returns this instead of showing a dialog.
    static void setNextFileName(const QString& path);
    static void setNextFileNames(const QStringList& paths);
    static void setNextSaveAnswer(int answer);
    static void setNextYesNo(bool yes);
    /// Messages that error() would have shown while running under test seams (most recent last).
    static QStringList& shownErrors();
    /// When true, error() records instead of showing a dialog.
    static void setRecordErrors(bool record);
    /// Tests: never block on a dialog — errors are recorded, questions answered no/discard, file dialogs cancelled.
    static void setNonInteractive(bool nonInteractive);
};

} // namespace gpusizer::ui
