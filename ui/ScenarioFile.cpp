#include "ScenarioFile.h"

#include "gpusizer/core/ScenarioJson.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QSaveFile>

namespace gpusizer::ui {

LoadedScenario loadScenarioFile(const QString& path, const core::Catalog& catalog) {
    LoadedScenario out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        out.error = QCoreApplication::translate("ScenarioFile", "Cannot open %1: %2").arg(path, file.errorString());
        return out;
    }
    const QByteArray bytes = file.read(16 * 1024 * 1024 + 1);
    const QString name = QFileInfo(path).fileName();
    auto parsed = core::parseScenario(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                                      name.toStdString(), catalog);
    if (!parsed) {
        out.error =
            QCoreApplication::translate("ScenarioFile", "%1\n\n%2")
                .arg(QString::fromStdString(parsed.error().where), QString::fromStdString(parsed.error().message));
        return out;
    }
    for (const auto& w : parsed->warnings) {
        out.warnings << QString::fromStdString(w.message);
    }
    out.scenario = parsed->scenario;
    if (out.scenario->name.empty()) {
        out.scenario->name = QFileInfo(path).completeBaseName().toStdString();
    }
    return out;
}

QString saveScenarioFile(const QString& path, const core::Scenario& scenario) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return QCoreApplication::translate("ScenarioFile", "Cannot write %1: %2").arg(path, file.errorString());
    }
    const std::string json = core::scenarioToJson(scenario);
    if (file.write(json.data(), static_cast<qint64>(json.size())) != static_cast<qint64>(json.size()) ||
        !file.commit()) {
        return QCoreApplication::translate("ScenarioFile", "Cannot write %1: %2").arg(path, file.errorString());
    }
    return {};
}

} // namespace gpusizer::ui
