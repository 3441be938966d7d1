#include "ScenarioController.h"

#include "CalibrationStore.h"
#include "Format.h"
#include "Present.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <algorithm>

namespace gpusizer::ui {

ScenarioController::ScenarioController(core::Catalog catalog, QObject* parent)
    : QObject(parent), m_catalog(std::move(catalog)), m_scenario(core::defaultScenario(m_catalog)),
      m_estimated(m_scenario), m_estimate(core::estimate(m_scenario)), m_calibrations(CalibrationStore::all()) {
    apply(m_scenario);
}

void ScenarioController::reloadCalibrations() {
    m_calibrations = CalibrationStore::all();
    apply(m_scenario);
}

void ScenarioController::keepCalibrationInScenario() {
    if (m_applied) {
        const std::int64_t correction = m_applied->overheadCorrectionBytes;
        update([&](core::Scenario& s) { s.overheadCorrectionBytes = correction; });
    }
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
    return core::fitAsIs(m_estimated, *gpu, m_planInputs);
}

void ScenarioController::setScenario(const core::Scenario& scenario) {
    apply(scenario);
}

std::optional<StoredCalibration> ScenarioController::calibrationFor(const core::Scenario& s) const {
    // A calibration applies only where it was measured (the GPU model and the framework).
    if (s.gpuId.empty()) {
        return std::nullopt;
    }
    const QString gpu = QString::fromStdString(s.gpuId);
    const QString framework = QString::fromLatin1(core::toString(s.framework));
    // From the cached list: this runs on every slider step and must not read the settings file.
    const auto match = std::find_if(m_calibrations.begin(), m_calibrations.end(), [&](const StoredCalibration& c) {
        return c.gpuId == gpu && c.framework == framework;
    });
    return match != m_calibrations.end() ? std::optional<StoredCalibration>(*match) : std::nullopt;
}

bool ScenarioController::apply(const core::Scenario& next) {
    if (auto ok = core::validate(next); !ok) {
        emit changeRejected(tr("%1: %2").arg(QString::fromStdString(ok.error().where), ui::text(ok.error().words)));
        return false;
    }
    m_scenario = next;
    // NCCL's buffers follow the card in mind: its node's fabric, or "no card named".
    if (const auto* gpu = m_catalog.findGpu(m_scenario.gpuId)) {
        core::placeOnCard(m_scenario, *gpu);
    } else {
        m_scenario.fabric = core::NodeFabric::Unknown;
        m_scenario.gpusPerNode = core::Scenario{}.gpusPerNode;
    }
    m_estimated = m_scenario;
    const std::optional<StoredCalibration> stored = calibrationFor(m_scenario);
    // A scenario that sets its own correction keeps it; a calibration kept in it is said so.
    m_applied = m_scenario.overheadCorrectionBytes == 0 ? stored : std::nullopt;
    m_calibrationNote.clear();
    if (stored && !m_applied && stored->overheadCorrectionBytes == m_scenario.overheadCorrectionBytes) {
        m_calibrationNote = tr("calibration from %n measured run(s) kept in this scenario", nullptr, stored->runs);
    }
    if (m_applied) {
        m_estimated.overheadCorrectionBytes = m_applied->overheadCorrectionBytes;
        m_calibrationNote = tr("calibrated from %n measured run(s): overhead %1%2", nullptr, m_applied->runs)
                                .arg(m_applied->overheadCorrectionBytes >= 0 ? QStringLiteral("+") : QString(),
                                     formatGiB(m_applied->overheadCorrectionBytes));
    }
    m_estimate = core::estimate(m_estimated);
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
