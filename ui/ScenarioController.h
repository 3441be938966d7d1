#pragma once

#include "CalibrationStore.h"
#include "gpusizer/core/Catalog.h"
#include "gpusizer/core/Estimate.h"
#include "gpusizer/core/Planner.h"
#include "gpusizer/core/Scenario.h"

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
    const core::Scenario& scenario() const { return m_scenario; }
    const core::Estimate& estimate() const { return m_estimate; }
    /// What the planner is asked to optimise and under which limits: one set for every view, so the fit table, the
    /// Plan tab, the advisor, the verdict and the report give the same answer.
    const core::PlanInputs& planInputs() const { return m_planInputs; }
    /// Replaces the plan inputs; the views recompute (estimateChanged).
    void setPlanInputs(const core::PlanInputs& inputs);
    /// The scenario's own layout on the selected GPU, with the margin (nullopt without a GPU).
    std::optional<core::Candidate> verdictOnSelectedGpu() const;
    /// The GPU the user compares against (the scenario's, else the first catalog card that fits, else none).
    const core::GpuSpec* selectedGpu() const;

    /// Replaces the whole scenario (open, new, undo).
    void setScenario(const core::Scenario& scenario);
    /// Applies a change to a copy of the scenario; invalid results are refused and reported.
    template <class Fn>
    bool update(Fn&& change) {
        core::Scenario next = m_scenario;
        change(next);
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
    /// Whether the current scenario carries a calibration taken from the user's settings, and its text.
    QString calibrationNote() const { return m_calibrationNote; }
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

    core::Catalog m_catalog;
    core::Scenario m_scenario;
    core::Estimate m_estimate;
    core::PlanInputs m_planInputs;
    QString m_calibrationNote;
    QList<StoredCalibration> m_calibrations;
};

} // namespace gpusizer::ui
