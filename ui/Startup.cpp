#include "Startup.h"

#include "MainWindow.h"
#include "ScenarioController.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/core/Version.h"
#include "gpusizer/resources/Resources.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QTimer>
#include <QtGui/QIcon>
#include <QtWidgets/QApplication>
#include <cstdio>

namespace gpusizer::ui {

StartupOptions parseStartupOptions(QApplication& app) {
    QApplication::setApplicationName(QStringLiteral("GPU Sizer"));
    QApplication::setOrganizationName(QStringLiteral("gpusizer"));
    QApplication::setApplicationVersion(
        QString::fromUtf8(core::versionString().data(), static_cast<qsizetype>(core::versionString().size())));
    QApplication::setDesktopFileName(QStringLiteral("io.github.gpusizer.GpuSizer"));
    resources::initialize();
    QApplication::setWindowIcon(QIcon(QString::fromLatin1(resources::kAppIcon)));

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
    parser.addOptions({screenshot, scenario, tab});
    parser.process(app);
    return {parser.value(screenshot), parser.value(scenario), parser.value(tab)};
}

int runGui(QApplication& app, const StartupOptions& options) {
    auto loaded = catalogs::loadCatalogs();
    ScenarioController controller(std::move(loaded.catalog));
    MainWindow window(controller);
    window.show();
    if (!options.screenshotFile.isEmpty()) {
        // Grab after the first layout pass and paint, then quit with the save's status.
        QTimer::singleShot(300, &window, [&] {
            const bool saved = window.grab().save(options.screenshotFile, "PNG");
            if (saved) {
                std::fprintf(stdout, "screenshot written to %s\n", qPrintable(options.screenshotFile));
            } else {
                std::fprintf(stderr, "could not write screenshot to %s\n", qPrintable(options.screenshotFile));
            }
            QApplication::exit(saved ? 0 : 1);
        });
    }
    return app.exec();
}

} // namespace gpusizer::ui
