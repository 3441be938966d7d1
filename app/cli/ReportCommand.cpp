#include "Commands.h"

#if GPUSIZER_CLI_HAS_REPORT
#include "Language.h"
#include "report/PdfExporter.h"
#include "report/ReportBuilder.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QFileInfo>
#include <QtGui/QTextDocument>
#include <QtWidgets/QApplication>
#include <filesystem>
#include <ostream>
#endif

namespace gpusizer::cli {

#if GPUSIZER_CLI_HAS_REPORT

int reportCommand(const Args& a, std::ostream& out, std::ostream& err) {
    if (a.positional.empty() || !a.output) {
        err << "gpusizer-cli: report needs a scenario file and -o FILE.pdf\n" << usageText();
        return kUsage;
    }
    const std::string& scenarioPath = a.positional[0];
    const std::string& outputPath = *a.output;
    const auto size = ui::pageSizeFromName(QString::fromStdString(a.pageSize));
    if (size == QPageSize::Custom) {
        err << "gpusizer-cli: --page-size must be A4 or Letter\n";
        return kUsage;
    }
    // Charts need a widgets application; headless runs use the offscreen platform.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    static int argc = 1;
    static char name[] = "gpusizer-cli";
    static char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    // The report in the language asked for, else the locale's (LANG), as the window chooses it; the CLI's own lines
    // stay English.
    const QString asked = QString::fromStdString(a.language);
    const QString language = ui::resolveLanguage(asked);
    if (!asked.isEmpty() && language != asked) {
        err << "gpusizer-cli: unknown language '" << a.language << "' (en, zh_CN)\n";
        return kUsage;
    }
    ui::installLanguage(language);

    const auto catalog = loadCatalogs(err).catalog;
    auto scenario = loadScenario(a, catalog, err);
    if (!scenario) {
        return kBadInput;
    }
    if (scenario->name.empty()) {
        scenario->name = std::filesystem::path(scenarioPath).stem().string();
    }
    QElapsedTimer timer;
    timer.start();
    ui::ReportBuilder builder(catalog);
    if (qEnvironmentVariableIsSet("GPUSIZER_REPORT_TIMING")) {
        builder.setProgressCallback([&](int percent) { err << percent << "% at " << timer.elapsed() << " ms\n"; });
    }
    const QString title = QString::fromStdString(scenario->name);
    auto document = builder.build({*scenario, title, QDateTime::currentDateTime(), {}, {}});
    const qint64 builtMs = timer.elapsed();
    const QString error = ui::exportPdf(*document, QString::fromStdString(outputPath), size,
                                        QStringLiteral("Sizing report — %1").arg(title));
    if (!error.isEmpty()) {
        err << "gpusizer-cli: " << error.toStdString() << "\n";
        return kOutputFailed;
    }
    out << "report written to " << outputPath << " (" << document->pageCount() << " pages, built in " << builtMs
        << " ms, written in " << timer.elapsed() - builtMs << " ms)\n";
    return kOk;
}

#else

int reportCommand(const Args& a, std::ostream& out, std::ostream& err) {
    (void)a;
    (void)out;
    err << "gpusizer-cli: this build has no Qt user interface, so it cannot draw the PDF report\n";
    return kUsage;
}

#endif

} // namespace gpusizer::cli
