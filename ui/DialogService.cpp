#include "DialogService.h"

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
} // namespace

QString DialogService::openFile(QWidget* parent, const QString& title, const QString& filter) {
    if (g_nextFileName) {
        return std::exchange(g_nextFileName, std::nullopt).value();
    }
    if (g_nonInteractive) {
        return {};
    }
    return QFileDialog::getOpenFileName(parent, title, QString(), filter);
}

QStringList DialogService::openFiles(QWidget* parent, const QString& title, const QString& filter) {
    if (g_nextFileNames) {
        return std::exchange(g_nextFileNames, std::nullopt).value();
    }
    if (g_nonInteractive) {
        return {};
    }
    return QFileDialog::getOpenFileNames(parent, title, QString(), filter);
}

QString DialogService::saveFile(QWidget* parent, const QString& title, const QString& suggested,
                                const QString& filter) {
    if (g_nextFileName) {
        return std::exchange(g_nextFileName, std::nullopt).value();
    }
    if (g_nonInteractive) {
        return {};
    }
    return QFileDialog::getSaveFileName(parent, title, suggested, filter);
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
