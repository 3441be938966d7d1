#include "ScenarioFile.h"

#include "Present.h"
#include "gpusizer/catalogs/Files.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QFileInfo>

namespace gpusizer::ui {

LoadedScenario loadScenarioFile(const QString& path, const core::Catalog& catalog) {
    LoadedScenario out;
    const auto read = catalogs::readDocument(path.toStdString());
    if (!read) {
        out.error =
            QCoreApplication::translate("ScenarioFile", "Cannot open %1: %2").arg(path, ui::text(read.error().words));
        return out;
    }
    const std::string& bytes = *read;
    const QString name = QFileInfo(path).fileName();
    auto parsed = core::parseScenario(bytes, name.toStdString(), catalog);
    if (!parsed) {
        out.error = QCoreApplication::translate("ScenarioFile", "%1\n\n%2")
                        .arg(QString::fromStdString(parsed.error().where), ui::text(parsed.error().words));
        return out;
    }
    for (const auto& w : parsed->warnings) {
        out.warnings << ui::text(w.words);
    }
    out.scenario = parsed->scenario;
    if (out.scenario->name.empty()) {
        out.scenario->name = QFileInfo(path).completeBaseName().toStdString();
    }
    return out;
}

QString saveScenarioFile(const QString& path, const core::Scenario& scenario) {
    const auto written = catalogs::writeDocument(path.toStdString(), core::scenarioToJson(scenario));
    if (!written) {
        return QCoreApplication::translate("ScenarioFile", "Cannot write %1: %2")
            .arg(path, ui::text(written.error().words));
    }
    return {};
}

} // namespace gpusizer::ui
