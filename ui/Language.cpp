#include "Language.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QLibraryInfo>
#include <QtCore/QLocale>
#include <QtCore/QSettings>
#include <QtCore/QTranslator>
#include <memory>

namespace gpusizer::ui {

namespace {

const QString kSetting = QStringLiteral("view/language");

struct Installed {
    std::unique_ptr<QTranslator> app;
    std::unique_ptr<QTranslator> qt;
    QString code = QStringLiteral("en");
};

Installed& installed() {
    static Installed state;
    return state;
}

bool isShipped(const QString& code) {
    for (const auto& l : shippedLanguages()) {
        if (l.code == code) {
            return true;
        }
    }
    return false;
}

/// The shipped language closest to the system's preferences (zh-CN, zh-Hans-CN, zh all read as zh_CN).
QString systemLanguage() {
    for (const QString& ui : QLocale::system().uiLanguages()) {
        if (ui.startsWith(QLatin1String("zh"))) {
            return QStringLiteral("zh_CN");
        }
        if (ui.startsWith(QLatin1String("en"))) {
            return QStringLiteral("en");
        }
    }
    return QStringLiteral("en");
}

} // namespace

QList<Language> shippedLanguages() {
    return {{QStringLiteral("en"), QStringLiteral("English")}, {QStringLiteral("zh_CN"), QStringLiteral("简体中文")}};
}

QString chosenLanguage() {
    return QSettings().value(kSetting).toString();
}

void setChosenLanguage(const QString& code) {
    QSettings settings;
    if (code.isEmpty()) {
        settings.remove(kSetting);
    } else {
        settings.setValue(kSetting, code);
    }
}

QString resolveLanguage(const QString& requested) {
    if (isShipped(requested)) {
        return requested;
    }
    if (const QString chosen = chosenLanguage(); isShipped(chosen)) {
        return chosen;
    }
    return systemLanguage();
}

bool installLanguage(const QString& code) {
    Installed& state = installed();
    for (auto* t : {state.app.get(), state.qt.get()}) {
        if (t != nullptr) {
            QCoreApplication::removeTranslator(t);
        }
    }
    state.app.reset();
    state.qt.reset();
    state.code = QStringLiteral("en");
    if (!isShipped(code)) {
        return false;
    }
    // English too has a catalog: its plural forms ("1 GPU", "4 GPUs").
    auto app = std::make_unique<QTranslator>();
    if (!app->load(QStringLiteral(":/translations/gpusizer_%1.qm").arg(code))) {
        return false;
    }
    QCoreApplication::installTranslator(app.get());
    state.app = std::move(app);
    if (code == QLatin1String("en")) {
        return true; // Qt's own words are English already
    }
    // Qt's own words (Yes/No, file dialogs); a missing qtbase catalog leaves those in English, nothing more.
    auto qt = std::make_unique<QTranslator>();
    if (qt->load(QStringLiteral("qtbase_%1").arg(code), QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt.get());
        state.qt = std::move(qt);
    }
    state.code = code;
    return true;
}

QString installedLanguage() {
    return installed().code;
}

} // namespace gpusizer::ui
