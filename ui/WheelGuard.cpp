#include "WheelGuard.h"

#include <QtCore/QCoreApplication>
#include <QtGui/QWheelEvent>
#include <QtWidgets/QAbstractScrollArea>
#include <QtWidgets/QAbstractSlider>
#include <QtWidgets/QAbstractSpinBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QScrollBar>

namespace gpusizer::ui {

namespace {

bool isValueControl(const QWidget* w) {
    // Scroll bars are sliders too, and the wheel is what they are for.
    return (qobject_cast<const QAbstractSpinBox*>(w) != nullptr || qobject_cast<const QComboBox*>(w) != nullptr ||
            qobject_cast<const QAbstractSlider*>(w) != nullptr) &&
           qobject_cast<const QScrollBar*>(w) == nullptr;
}

} // namespace

void WheelGuard::guard(QWidget* root) {
    auto* guardian = root->findChild<WheelGuard*>(QString(), Qt::FindDirectChildrenOnly);
    if (guardian == nullptr) {
        guardian = new WheelGuard(root);
    }
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (isValueControl(w)) {
            w->setFocusPolicy(Qt::StrongFocus); // the wheel alone never takes the focus
            w->installEventFilter(guardian);    // installing it again only moves it to the front
        }
    }
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() != QEvent::Wheel) {
        return false;
    }
    auto* control = qobject_cast<QWidget*>(watched);
    if (control == nullptr || control->hasFocus()) {
        return false;
    }
    // Hand the wheel to the nearest scrolling area around the control (the input panel, a tab's page).
    for (QWidget* w = control->parentWidget(); w != nullptr; w = w->parentWidget()) {
        if (auto* area = qobject_cast<QAbstractScrollArea*>(w)) {
            QCoreApplication::sendEvent(area->verticalScrollBar(), event);
            return true;
        }
    }
    return true; // nothing to scroll: the wheel does nothing rather than change a value
}

} // namespace gpusizer::ui
