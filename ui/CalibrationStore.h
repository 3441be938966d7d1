#pragma once

#include <QtCore/QDateTime>
#include <QtCore/QList>
#include <QtCore/QString>
#include <optional>

namespace gpusizer::ui {

/// A calibration the user chose to apply: fitted to measured runs of one GPU model under one framework.
struct StoredCalibration {
    QString gpuId;
    QString framework;
    qint64 overheadCorrectionBytes = 0;
    double mfu = 0; ///< 0: not measured
    int runs = 0;
    QDateTime fittedAt;
};

/// The user's calibrations, kept in the application settings; visible in Help › Calibrations and resettable.
class CalibrationStore final {
public:
    static std::optional<StoredCalibration> find(const QString& gpuId, const QString& framework);
    static void save(const StoredCalibration& calibration);
    static QList<StoredCalibration> all();
    static void clear();
};

} // namespace gpusizer::ui
