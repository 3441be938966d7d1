#pragma once

#include "CalibrationStore.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/Scenario.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <QtCore/QObject>

namespace gpusizer::ui {

/// Owns the scenario being explored and its estimate; every view listens to it.
/// Setters recompute synchronously (an estimate takes microseconds) and emit estimateChanged once.
class ScenarioController final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScenarioController)

public:
    explicit ScenarioController(core::Catalog catalog, QObject* parent = nullptr);

    const core::Catalog& catalog() const { return m_catalog; }
    /// The scenario every view computes with: the user's own settings plus a stored calibration when one was measured
    /// on this GPU under this framework and the scenario sets no correction of its own.
    const core::Scenario& scenario() const { return m_estimated; }
    /// The user's own settings, as opened and edited: what is saved (a calibration never rides along into it).
    const core::Scenario& ownScenario() const { return m_scenario; }
    const core::Estimate& estimate() const { return m_estimate; }
    /// What the planner is asked to optimise and under which limits: one set for every view, so the fit table, the
    /// Plan tab, the advisor, the verdict and the report give the same answer.
    /// The Plan tab's inputs, with the tokens of the scenario's imported data when the tab states none.
    core::PlanInputs planInputs() const { return core::withDatasetTokens(m_planInputs, m_scenario); }
    /// Replaces the plan inputs; the views recompute (estimateChanged).
    void setPlanInputs(const core::PlanInputs& inputs);
    /// The scenario's own layout on the selected GPU, with the margin (nullopt without a GPU).
    std::optional<core::Candidate> verdictOnSelectedGpu() const;
    /// The GPU the user compares against (the scenario's, else the first catalog card that fits, else none).
    const core::GpuSpec* selectedGpu() const;

    /// Replaces the whole scenario (open, new, undo).
    void setScenario(const core::Scenario& scenario);
    /// Applies a change to a copy of the scenario; invalid results are refused and reported.
    /// A scenario still called by its automatic name (core::automaticName) is renamed after its new model and
    /// method; a name the user gave stays.
    template <class Fn>
    bool update(Fn&& change) {
        core::Scenario next = m_scenario;
        change(next);
        if (next.name == m_scenario.name && m_scenario.name == core::automaticName(m_scenario)) {
            next.name = core::automaticName(next);
        }
        return apply(next);
    }

    void setSeqLen(std::int64_t tokens);
    void setMicroBatch(std::int64_t batch);
    void setMethod(core::Method method);
    /// Chooses a catalog model by id ("" keeps the current one).
    void setModelId(const std::string& id);
    /// Switches to a size-only model of this many billion parameters.
    void setModelSizeBillion(double billions);
    void setGpuId(const std::string& id);
    /// The stored calibration applied to the current scenario (nullopt when none applies), and its text.
    const std::optional<StoredCalibration>& appliedCalibration() const { return m_applied; }
    QString calibrationNote() const { return m_calibrationNote; }
    /// Writes the applied calibration's correction into the user's own settings, so that it is saved with them.
    void keepCalibrationInScenario();
    /// Re-reads the calibrations from the settings (after one was applied or reset).
    void reloadCalibrations();

signals:
    /// The scenario changed (any field).
    void scenarioChanged();
    /// A new estimate is available (always follows scenarioChanged).
    void estimateChanged();
    /// A change was refused; the message says which field and why.
    void changeRejected(const QString& message);

private:
    bool apply(const core::Scenario& next);
    std::optional<StoredCalibration> calibrationFor(const core::Scenario& s) const;

    core::Catalog m_catalog;
    core::Scenario m_scenario;  ///< the user's own settings
    core::Scenario m_estimated; ///< m_scenario with the applied calibration
    core::Estimate m_estimate;
    core::PlanInputs m_planInputs;
    std::optional<StoredCalibration> m_applied;
    QString m_calibrationNote;
    QList<StoredCalibration> m_calibrations;
};

} // namespace gpusizer::ui
