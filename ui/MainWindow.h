#pragma once

#include <QtWidgets/QMainWindow>

QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QSlider)

namespace gpusizer::ui {

class ScenarioController;
class BreakdownChartView;

/// The explorer window: inputs on the left, the breakdown chart in the centre, totals in the status bar.
class MainWindow final : public QMainWindow {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    explicit MainWindow(ScenarioController& controller, QWidget* parent = nullptr);
    ~MainWindow() override;

    QSlider* seqLenSlider() const { return m_seqLenSlider; }
    BreakdownChartView* breakdownChart() const { return m_breakdown; }
    QString statusText() const;

private:
    void refresh();

    ScenarioController& m_controller;
    QSlider* m_seqLenSlider = nullptr;
    QLabel* m_seqLenValue = nullptr;
    BreakdownChartView* m_breakdown = nullptr;
    QLabel* m_status = nullptr;
};

} // namespace gpusizer::ui
