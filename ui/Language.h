#pragma once

#include <QtCore/QList>
#include <QtCore/QString>

namespace gpusizer::ui {

/// A language GPU Sizer ships: its locale code and its name in itself (never translated, so anyone can find theirs).
struct Language {
    QString code;
    QString nativeName;
};

/// English (the source texts) and every shipped catalog.
QList<Language> shippedLanguages();

/// The user's choice in View › Language ("" follows the system locale).
QString chosenLanguage();
void setChosenLanguage(const QString& code);

/// The language to show: `requested` when shipped, else the user's choice, else the system locale's when shipped,
/// else English.
QString resolveLanguage(const QString& requested = {});

/// Installs GPU Sizer's catalog and Qt's own (standard dialogs) for `code`, replacing earlier ones (English: its
/// plural forms only). False for a language not shipped or a catalog that could not be loaded.
bool installLanguage(const QString& code);

/// The language installed last ("en" before any).
QString installedLanguage();

} // namespace gpusizer::ui
