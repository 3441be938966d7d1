#pragma once

#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/Scenario.h"

#include <QtCore/QString>
#include <QtCore/QStringList>
#include <optional>

namespace gpusizer::ui {

/// Result of reading a scenario file: the scenario, or a message naming the file, field and reason.
struct LoadedScenario {
    std::optional<core::Scenario> scenario;
    QString error;
    QStringList warnings;
};

/// Reads and parses a scenario file; never throws.
LoadedScenario loadScenarioFile(const QString& path, const core::Catalog& catalog);

/// Writes the scenario atomically (QSaveFile: a temporary file renamed over the target). Returns an error message,
/// empty on success; on failure the previous file is left untouched.
QString saveScenarioFile(const QString& path, const core::Scenario& scenario);

} // namespace gpusizer::ui
