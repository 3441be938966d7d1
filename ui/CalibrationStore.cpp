#include "CalibrationStore.h"

#include <QtCore/QSettings>

namespace gpusizer::ui {

namespace {
const QString kGroup = QStringLiteral("calibration");

QString key(const QString& gpuId, const QString& framework) {
    return gpuId + QLatin1Char('@') + framework;
}

StoredCalibration read(QSettings& settings, const QString& entry) {
    settings.beginGroup(entry);
    StoredCalibration c;
    c.gpuId = settings.value(QStringLiteral("gpu")).toString();
    c.framework = settings.value(QStringLiteral("framework")).toString();
    c.overheadCorrectionBytes = settings.value(QStringLiteral("overhead_correction_bytes")).toLongLong();
    c.mfu = settings.value(QStringLiteral("mfu")).toDouble();
    c.runs = settings.value(QStringLiteral("runs")).toInt();
    c.fittedAt = settings.value(QStringLiteral("fitted_at")).toDateTime();
    settings.endGroup();
    return c;
}
} // namespace

std::optional<StoredCalibration> CalibrationStore::find(const QString& gpuId, const QString& framework) {
    QSettings settings;
    settings.beginGroup(kGroup);
    if (!settings.childGroups().contains(key(gpuId, framework))) {
        return std::nullopt;
    }
    return read(settings, key(gpuId, framework));
}

void CalibrationStore::save(const StoredCalibration& c) {
    QSettings settings;
    settings.beginGroup(kGroup);
    settings.beginGroup(key(c.gpuId, c.framework));
    settings.setValue(QStringLiteral("gpu"), c.gpuId);
    settings.setValue(QStringLiteral("framework"), c.framework);
    settings.setValue(QStringLiteral("overhead_correction_bytes"), c.overheadCorrectionBytes);
    settings.setValue(QStringLiteral("mfu"), c.mfu);
    settings.setValue(QStringLiteral("runs"), c.runs);
    settings.setValue(QStringLiteral("fitted_at"), c.fittedAt);
}

QList<StoredCalibration> CalibrationStore::all() {
    QSettings settings;
    settings.beginGroup(kGroup);
    QList<StoredCalibration> out;
    for (const QString& entry : settings.childGroups()) {
        out << read(settings, entry);
    }
    return out;
}

void CalibrationStore::clear() {
    QSettings settings;
    settings.remove(kGroup);
}

} // namespace gpusizer::ui
