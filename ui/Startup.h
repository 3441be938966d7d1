#pragma once

#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtGui/QPalette>

QT_FORWARD_DECLARE_CLASS(QApplication)

namespace gpusizer::ui {

/// What the GUI was asked to do on the command line.
struct StartupOptions {
    QString screenshotFile; ///< grab the window to this PNG once laid out, then quit
    QString scenarioFile;   ///< open this scenario at start
    QString tab;            ///< select this view ("explorer", "fit", "compare", ...)
    QString palette;        ///< "light", "dark" or empty (the desktop's)
    QString language;       ///< "en", "zh_CN" or empty (View › Language, else the system locale)
    QStringList files;      ///< scenario, config.json or training configs to open (as if dropped on the window)
};

/// Sets application metadata, installs the language, and parses --screenshot, --scenario, --tab, --palette and
/// --language. Exits on --help/--version.
StartupOptions parseStartupOptions(QApplication& app);

/// Builds the main window for the options and runs the event loop.
int runGui(QApplication& app, const StartupOptions& options);

/// The palettes of --palette light and dark (Fusion): every text colour on its background at least WCAG AA's 4.5:1.
QPalette lightPalette();
QPalette darkPalette();

} // namespace gpusizer::ui
