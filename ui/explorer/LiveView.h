#pragma once

#include <QtWidgets/QWidget>

namespace gpusizer::ui {

class ScenarioController;

/// A view that follows the controller's estimate, recomputing only while visible (hidden tabs catch up when shown),
/// so a slider drag pays only for what is on screen.
class LiveView : public QWidget {
    Q_OBJECT

public:
    LiveView(ScenarioController& controller, QWidget* parent);
    ~LiveView() override;
    /// Recomputes now, visible or not (tests, report).
    void refreshNow();

protected:
    virtual void refresh() = 0;
    void showEvent(QShowEvent* event) override;
    ScenarioController& controller() const { return m_controller; }

private:
    void onEstimateChanged();

    ScenarioController& m_controller;
    bool m_dirty = true;
};

} // namespace gpusizer::ui
