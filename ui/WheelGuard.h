#pragma once

#include <QtCore/QObject>

class QWidget;

namespace gpusizer::ui {

/// Inputs change only on purpose: over a spin box, combo box or slider that does not have the keyboard focus, the
/// mouse wheel scrolls the panel around it instead of changing the value (a click or Tab gives the focus).
class WheelGuard final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WheelGuard)

public:
    /// Guards every such control below `root` (existing ones; call again after adding controls).
    static void guard(QWidget* root);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit WheelGuard(QObject* parent) : QObject(parent) {}
};

} // namespace gpusizer::ui
