#include "Startup.h"

#include "DialogService.h"
#include "Language.h"
#include "MainWindow.h"
#include "Present.h"
#include "ScenarioController.h"
#include "gpusizer/catalogs/Files.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/resources/Resources.h"
#include "gpusizer/scenario/Version.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QRegularExpression>
#include <QtCore/QStandardPaths>
#include <QtCore/QTimer>
#include <QtGui/QIcon>
#include <QtGui/QPalette>
#include <QtGui/QScreen>
#include <QtWidgets/QApplication>
#include <QtWidgets/QDialog>
#include <QtWidgets/QStyle>
#include <QtWidgets/QStyleFactory>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>

namespace gpusizer::ui {

StartupOptions parseStartupOptions(QApplication& app) {
    QApplication::setApplicationName(QStringLiteral("GPU Sizer"));
    QApplication::setOrganizationName(QStringLiteral("gpusizer"));
    QApplication::setApplicationVersion(
        QString::fromUtf8(core::versionString().data(), static_cast<qsizetype>(core::versionString().size())));
    QApplication::setDesktopFileName(QStringLiteral("io.github.gpusizer.GpuSizer"));
    resources::initialize();
    QApplication::setWindowIcon(QIcon(QString::fromLatin1(resources::kAppIcon)));
    installLanguage(resolveLanguage()); // before the parser, so that --help speaks it too

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("Startup", "Plans GPU memory, fit, time and cost for LLM fine-tuning."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QApplication::translate("Startup", "Save the window as PNG to <file>, then quit."), QStringLiteral("file"));
    const QCommandLineOption scenario(QStringLiteral("scenario"),
                                      QApplication::translate("Startup", "Open the scenario JSON <file>."),
                                      QStringLiteral("file"));
    const QCommandLineOption tab(QStringLiteral("tab"), QApplication::translate("Startup", "Show the view <name>."),
                                 QStringLiteral("name"));
    const QCommandLineOption palette(QStringLiteral("palette"),
                                     QApplication::translate("Startup", "Colour palette: light, dark (default: the "
                                                                        "desktop's)."),
                                     QStringLiteral("name"));
    const QCommandLineOption language(
        QStringLiteral("language"),
        QApplication::translate("Startup", "Language: en, zh_CN (default: View › Language, else the system's)."),
        QStringLiteral("code"));
    parser.addOptions({screenshot, scenario, tab, palette, language});
    parser.addPositionalArgument(
        QStringLiteral("files"),
        QApplication::translate("Startup", "A scenario, a config.json, or the training configs of one run to "
                                           "import (Axolotl, LLaMA-Factory, torchtune, transformers / TRL, PEFT, "
                                           "accelerate, DeepSpeed, LitGPT)."),
        QStringLiteral("[files...]"));
    parser.process(app);
    return {parser.value(screenshot), parser.value(scenario), parser.value(tab),
            parser.value(palette),    parser.value(language), parser.positionalArguments()};
}

namespace {

/// The shipped catalogs and the user's folder (the same folder the CLI reads: catalogs::userCatalogDir).
catalogs::LoadedCatalog loadCatalogsWithUserFiles() {
    return catalogs::loadCatalogsWithFolder(catalogs::userCatalogDir());
}

} // namespace

namespace {

/// --palette light or dark (Fusion style), for users whose desktop gives none or for screenshots.
void applyPalette(QApplication& app, const QString& name) {
    if (name.isEmpty()) {
        return;
    }
    app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    app.setPalette(name == QLatin1String("light") ? lightPalette() : darkPalette());
}

} // namespace

QPalette lightPalette() {
    const std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
    QPalette light = fusion->standardPalette();
    // Fusion's own selection blue (#308cc6) gives white text 3.7:1 and its placeholder grey 4.0:1; WCAG AA asks 4.5.
    light.setColor(QPalette::Highlight, QColor(0x2a, 0x6f, 0xb0));
    light.setColor(QPalette::HighlightedText, Qt::white);
    light.setColor(QPalette::PlaceholderText, QColor(0x6b, 0x6b, 0x6b));
    return light;
}

QPalette darkPalette() {
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::AlternateBase, QColor(0x2f, 0x2f, 0x2f));
    dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Button, QColor(0x3a, 0x3a, 0x3a));
    dark.setColor(QPalette::ButtonText, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Highlight, QColor(0x2f, 0x6b, 0xc4)); // white on it 5.2:1
    dark.setColor(QPalette::HighlightedText, Qt::white);
    dark.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3a, 0x3a));
    dark.setColor(QPalette::ToolTipText, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    dark.setColor(QPalette::Link, QColor(0x8a, 0xb4, 0xf8));
    dark.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    dark.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    dark.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    return dark;
}

namespace {

/// The palette and the language asked for on the command line; false (and said why) when either is unknown.
bool applyAppearance(QApplication& app, const StartupOptions& options) {
    if (!options.palette.isEmpty() && options.palette != QLatin1String("light") &&
        options.palette != QLatin1String("dark")) {
        std::fprintf(stderr, "unknown palette '%s' (light, dark)\n", qPrintable(options.palette));
        return false;
    }
    applyPalette(app, options.palette);
    if (!options.language.isEmpty()) {
        const QList<Language> languages = shippedLanguages();
        const bool shipped = std::any_of(languages.begin(), languages.end(),
                                         [&](const Language& l) { return l.code == options.language; });
        if (!shipped) {
            std::fprintf(stderr, "unknown language '%s' (en, zh_CN)\n", qPrintable(options.language));
            return false;
        }
        installLanguage(options.language);
    }
    return true;
}

/// The catalog files that could not be read, and the entries refused, one line each.
QStringList catalogProblems(const catalogs::LoadedCatalog& loaded) {
    QStringList problems;
    for (const auto& e : loaded.fileErrors) {
        problems << QString::fromStdString(e.where) + QStringLiteral(": ") + ui::text(e.words);
    }
    for (const auto& r : loaded.rejected) {
        problems << QString::fromStdString(r.error.where) + QStringLiteral(": ") + ui::text(r.error.words);
    }
    return problems;
}

/// The files named on the command line, opened once the window is shown (a status message shown before would sit
/// over the status line); false when one fails in a screenshot run, which must never block on a dialog.
bool openStartupFiles(MainWindow& window, const StartupOptions& options, bool screenshot) {
    if (!options.scenarioFile.isEmpty()) {
        if (screenshot) {
            DialogService::setRecordErrors(true); // never block a headless run on a dialog
        }
        if (!window.openFile(options.scenarioFile)) {
            if (screenshot) {
                std::fprintf(stderr, "%s\n", qPrintable(DialogService::shownErrors().join(QLatin1Char('\n'))));
                return false;
            }
        }
    }
    if (!options.files.isEmpty()) {
        if (screenshot) {
            DialogService::setNonInteractive(true);
        }
        if (!window.openPaths(options.files) && screenshot) {
            std::fprintf(stderr, "%s\n", qPrintable(DialogService::shownErrors().join(QLatin1Char('\n'))));
            return false;
        }
    }
    return true;
}

/// A screenshot run: the window grabbed after the first layout pass and paint, then quit with the save's status.
/// `window` is the one shown at that moment (a language change replaces it).
void scheduleScreenshot(const std::unique_ptr<MainWindow>& window, const StartupOptions& options) {
    // The timer outlives this call: it reads the window through runGui's pointer and keeps its own file name.
    QTimer::singleShot(400, window.get(), [current = &window, file = options.screenshotFile] {
        MainWindow& shown = **current;
        bool saved = shown.grab().save(file, "PNG");
        // An import's report dialog beside the window: saved as <file>-report.png.
        if (auto* report = shown.findChild<QDialog*>(QStringLiteral("importReport"))) {
            QString reportFile = file;
            reportFile.replace(QRegularExpression(QStringLiteral("\\.png$")), QString());
            saved = report->grab().save(reportFile + QStringLiteral("-report.png"), "PNG") && saved;
        }
        if (saved) {
            std::fprintf(stdout, "screenshot written to %s\n", qPrintable(file));
        } else {
            std::fprintf(stderr, "could not write screenshot to %s\n", qPrintable(file));
        }
        QApplication::exit(saved ? 0 : 1);
    });
}

} // namespace

int runGui(QApplication& app, const StartupOptions& options) {
    if (!applyAppearance(app, options)) {
        return 2;
    }
    auto loaded = loadCatalogsWithUserFiles();
    const QStringList problems = catalogProblems(loaded);
    for (const QString& p : problems) {
        std::fprintf(stderr, "catalog: %s\n", qPrintable(p));
    }
    ScenarioController controller(std::move(loaded.catalog));
    auto window = std::make_unique<MainWindow>(controller);
    const bool screenshot = !options.screenshotFile.isEmpty();
    if (!screenshot) {
        window->restoreSession(); // screenshots show the defaults (or --scenario), not the last session
    }
    window->showCatalogProblems(problems);
    if (!options.tab.isEmpty() && !window->selectTab(options.tab)) {
        std::fprintf(stderr, "unknown tab '%s' (breakdown, sequence, fit, compare, plan, advisor)\n",
                     qPrintable(options.tab));
        return 2;
    }
    // A new language takes effect at once: the window is built again in it, over the same scenario and session.
    std::function<void(const QString&)> relanguage = [&](const QString& code) {
        installLanguage(resolveLanguage(code));
        window->saveSession();
        auto next = std::make_unique<MainWindow>(controller);
        next->restoreSession();
        next->showCatalogProblems(problems);
        QObject::connect(next.get(), &MainWindow::languageChosen, next.get(), relanguage, Qt::QueuedConnection);
        next->show();
        window.release()->deleteLater(); // the old window's menu action is still on the stack
        window = std::move(next);
    };
    QObject::connect(window.get(), &MainWindow::languageChosen, window.get(), relanguage, Qt::QueuedConnection);
    if (screenshot && window->screen() != nullptr) {
        window->resize(window->screen()->availableGeometry().size()); // the picture shows the screen's size asked for
    }
    window->show();
    if (!openStartupFiles(*window, options, screenshot)) {
        return 2;
    }
    if (screenshot) {
        scheduleScreenshot(window, options);
    }
    return app.exec();
}

} // namespace gpusizer::ui
