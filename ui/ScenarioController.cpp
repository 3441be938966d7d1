#include "ScenarioController.h"

#include "CalibrationStore.h"
#include "Format.h"
#include "gpusizer/core/ScenarioJson.h"

#include <algorithm>

namespace gpusizer::ui {

ScenarioController::ScenarioController(core::Catalog catalog, QObject* parent)
    : QObject(parent), m_catalog(std::move(catalog)), m_scenario(core::defaultScenario(m_catalog)),
      m_estimate(core::estimate(m_scenario)), m_calibrations(CalibrationStore::all()) {}

void ScenarioController::reloadCalibrations() {
    m_calibrations = CalibrationStore::all();
}

const core::GpuSpec* ScenarioController::selectedGpu() const {
    if (!m_scenario.gpuId.empty()) {
        if (const auto* gpu = m_catalog.findGpu(m_scenario.gpuId)) {
            return gpu;
        }
    }
    return nullptr;
}

void ScenarioController::setPlanInputs(const core::PlanInputs& inputs) {
    m_planInputs = inputs;
    emit estimateChanged();
}

std::optional<core::Candidate> ScenarioController::verdictOnSelectedGpu() const {
    const core::GpuSpec* gpu = selectedGpu();
    if (gpu == nullptr) {
        return std::nullopt;
    }
    return core::fitAsIs(m_scenario, *gpu, m_planInputs);
}

void ScenarioController::setScenario(const core::Scenario& scenario) {
    apply(scenario);
}

bool ScenarioController::apply(const core::Scenario& next) {
    if (auto ok = core::validate(next); !ok) {
        emit changeRejected(
            tr("%1: %2").arg(QString::fromStdString(ok.error().where), QString::fromStdString(ok.error().message)));
        return false;
    }
    m_scenario = next;
    // A calibration the user applied for this GPU and framework corrects the overhead of scenarios without their own.
    m_calibrationNote.clear();
    if (!m_scenario.gpuId.empty()) {
        const QString gpu = QString::fromStdString(m_scenario.gpuId);
        const QString framework = QString::fromLatin1(core::toString(m_scenario.framework));
        // From the cached list: this runs on every slider step and must not read the settings file.
        const auto match = std::find_if(m_calibrations.begin(), m_calibrations.end(), [&](const StoredCalibration& c) {
            return c.gpuId == gpu && c.framework == framework;
        });
        const std::optional<StoredCalibration> stored =
            match != m_calibrations.end() ? std::optional<StoredCalibration>(*match) : std::nullopt;
        if (stored && m_scenario.overheadCorrectionBytes == 0) {
            m_scenario.overheadCorrectionBytes = stored->overheadCorrectionBytes;
        }
        if (stored && m_scenario.overheadCorrectionBytes == stored->overheadCorrectionBytes) {
            m_calibrationNote = tr("calibrated from %n measured run(s): overhead %1%2", nullptr, stored->runs)
                                    .arg(stored->overheadCorrectionBytes >= 0 ? QStringLiteral("+") : QString(),
                                         formatGiB(stored->overheadCorrectionBytes));
        }
    }
    m_estimate = core::estimate(m_scenario);
    emit scenarioChanged();
    emit estimateChanged();
    return true;
}

void ScenarioController::setSeqLen(std::int64_t tokens) {
    update([&](core::Scenario& s) { s.seqLen = tokens; });
}

void ScenarioController::setMicroBatch(std::int64_t batch) {
    update([&](core::Scenario& s) { s.microBatch = batch; });
}

void ScenarioController::setMethod(core::Method method) {
    update([&](core::Scenario& s) { s.method = method; });
}

void ScenarioController::setModelId(const std::string& id) {
    const core::ModelEntry* entry = m_catalog.findModel(id);
    if (entry == nullptr) {
        emit changeRejected(tr("Model '%1' is not in the catalog").arg(QString::fromStdString(id)));
        return;
    }
    update([&](core::Scenario& s) {
        s.modelId = entry->id;
        s.model = entry->arch;
    });
}

void ScenarioController::setModelSizeBillion(double billions) {
    update([&](core::Scenario& s) {
        s.modelId.clear();
        s.model = core::archFromParamCount(billions);
    });
}

void ScenarioController::setGpuId(const std::string& id) {
    update([&](core::Scenario& s) { s.gpuId = id; });
}

} // namespace gpusizer::ui
