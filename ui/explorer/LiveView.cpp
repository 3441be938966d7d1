#include "LiveView.h"

#include "../ScenarioController.h"

namespace gpusizer::ui {

LiveView::LiveView(ScenarioController& controller, QWidget* parent) : QWidget(parent), m_controller(controller) {
    connect(&m_controller, &ScenarioController::estimateChanged, this, &LiveView::onEstimateChanged);
}

LiveView::~LiveView() = default;

void LiveView::refreshNow() {
    m_dirty = false;
    refresh();
}

void LiveView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_dirty) {
        refreshNow();
    }
}

void LiveView::onEstimateChanged() {
    if (isVisible()) {
        refreshNow();
    } else {
        m_dirty = true;
    }
}

} // namespace gpusizer::ui
