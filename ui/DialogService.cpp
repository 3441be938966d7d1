#include "DialogService.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QSettings>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QMessageBox>
#include <optional>

namespace gpusizer::ui {

namespace {
std::optional<QString> g_nextFileName;
std::optional<QStringList> g_nextFileNames;
std::optional<int> g_nextSaveAnswer;
std::optional<bool> g_nextYesNo;
bool g_recordErrors = false;
bool g_nonInteractive = false;

const QString kLastFolder = QStringLiteral("dialogs/lastFolder");

/// Every file dialog starts where the last one ended: a user importing a run's configs one after another, or saving
/// a report beside them, should not walk down from the home folder each time.
QString remembered(const QString& path) {
    if (!path.isEmpty()) {
        QSettings().setValue(kLastFolder, QFileInfo(path).absolutePath());
    }
    return path;
}

QStringList remembered(const QStringList& paths) {
    if (!paths.isEmpty()) {
        remembered(paths.front());
    }
    return paths;
}
} // namespace

QString DialogService::startFolder() {
    const QString folder = QSettings().value(kLastFolder).toString();
    return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QDir::homePath();
}

QString DialogService::startPath(const QString& suggested) {
    if (suggested.isEmpty() || QFileInfo(suggested).isAbsolute()) {
        return suggested.isEmpty() ? startFolder() : suggested;
    }
    return QDir(startFolder()).filePath(suggested);
}

QString DialogService::openFile(QWidget* parent, const QString& title, const QString& filter) {
    if (g_nextFileName) {
        return remembered(std::exchange(g_nextFileName, std::nullopt).value());
    }
    if (g_nonInteractive) {
        return {};
    }
    return remembered(QFileDialog::getOpenFileName(parent, title, startFolder(), filter));
}

QStringList DialogService::openFiles(QWidget* parent, const QString& title, const QString& filter) {
    if (g_nextFileNames) {
        return remembered(std::exchange(g_nextFileNames, std::nullopt).value());
    }
    if (g_nonInteractive) {
        return {};
    }
    return remembered(QFileDialog::getOpenFileNames(parent, title, startFolder(), filter));
}

QString DialogService::saveFile(QWidget* parent, const QString& title, const QString& suggested,
                                const QString& filter) {
    if (g_nextFileName) {
        return remembered(std::exchange(g_nextFileName, std::nullopt).value());
    }
    if (g_nonInteractive) {
        return {};
    }
    return remembered(QFileDialog::getSaveFileName(parent, title, startPath(suggested), filter));
}

void DialogService::error(QWidget* parent, const QString& title, const QString& text) {
    if (g_recordErrors || g_nonInteractive) {
        shownErrors().append(text);
        return;
    }
    QMessageBox::warning(parent, title, text);
}

bool DialogService::ask(QWidget* parent, const QString& title, const QString& text) {
    if (g_nextYesNo) {
        return std::exchange(g_nextYesNo, std::nullopt).value();
    }
    if (g_nonInteractive) {
        return false;
    }
    return QMessageBox::question(parent, title, text, QMessageBox::Yes | QMessageBox::No) == QMessageBox::Yes;
}

int DialogService::askSaveChanges(QWidget* parent, const QString& text) {
    if (g_nextSaveAnswer) {
        return std::exchange(g_nextSaveAnswer, std::nullopt).value();
    }
    if (g_nonInteractive) {
        return 0;
    }
    const auto answer = QMessageBox::question(parent, QObject::tr("Unsaved changes"), text,
                                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    return answer == QMessageBox::Save ? 1 : (answer == QMessageBox::Discard ? 0 : -1);
}

void DialogService::setNextFileName(const QString& path) {
    g_nextFileName = path;
}
void DialogService::setNextFileNames(const QStringList& paths) {
    g_nextFileNames = paths;
}
void DialogService::setNextSaveAnswer(int answer) {
    g_nextSaveAnswer = answer;
}
void DialogService::setNextYesNo(bool yes) {
    g_nextYesNo = yes;
}
void DialogService::setNonInteractive(bool nonInteractive) {
    g_nonInteractive = nonInteractive;
}
void DialogService::setRecordErrors(bool record) {
    g_recordErrors = record;
}

QStringList& DialogService::shownErrors() {
    static QStringList errors;
    return errors;
}

} // namespace gpusizer::ui
