#pragma once

#include "LiveView.h"

QT_FORWARD_DECLARE_CLASS(QLabel)

namespace gpusizer::ui {

class SeqLenChartView;

/// Memory per GPU against sequence length (128 … 131,072 tokens) with GPU capacities: where do I run out?
class SeqLenView final : public LiveView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SeqLenView)

public:
    explicit SeqLenView(ScenarioController& controller, QWidget* parent = nullptr);
    SeqLenChartView* chart() const { return m_chart; }
    QString captionText() const;

protected:
    void refresh() override;

private:
    SeqLenChartView* m_chart = nullptr;
    QLabel* m_caption = nullptr;
};

} // namespace gpusizer::ui
