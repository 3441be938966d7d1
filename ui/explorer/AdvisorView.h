#pragma once

#include "../TableModel.h"
#include "LiveView.h"
#include "gpusizer/plan/Advisor.h"

QT_FORWARD_DECLARE_CLASS(QBoxLayout)
QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QCheckBox)
QT_FORWARD_DECLARE_CLASS(QGroupBox)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QTableView)

namespace gpusizer::ui {

/// The OOM ladder (present::ladderTable): one row per fix, with the memory it saves for this scenario.
class LadderTableModel final : public TableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LadderTableModel)

public:
    enum Column { Step, Change, Saves, After, FitsAlone, Price, ColumnCount };
    explicit LadderTableModel(QObject* parent = nullptr);
    void setAdvice(core::OomAdvice advice, const core::Scenario& scenario, const core::GpuSpec& gpu,
                   const core::PlanInputs& inputs);
    const core::OomAdvice& advice() const { return m_advice; }

private:
    core::OomAdvice m_advice;
};

/// The sizing table (present::sizingTable): model sizes × QLoRA / LoRA / full, the cheapest card and count in each.
class SizingTableModel final : public TableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SizingTableModel)

public:
    enum Column { Model, Params, Qlora, Lora, Full, ColumnCount };
    explicit SizingTableModel(QObject* parent = nullptr);
    void setRows(std::vector<core::SizingRow> rows);
    const std::vector<core::SizingRow>& rows() const { return m_rows; }

private:
    std::vector<core::SizingRow> m_rows;
};

/// The advisor tab: OOM ladder for a chosen GPU, the method questionnaire, and the sizing table.
class AdvisorView final : public LiveView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AdvisorView)

public:
    explicit AdvisorView(ScenarioController& controller, QWidget* parent = nullptr);
    LadderTableModel* ladder() const { return m_ladder; }
    SizingTableModel* sizing() const { return m_sizing; }
    QComboBox* gpuPicker() const { return m_gpu; }
    QString combinationText() const;
    QString recommendationText() const;
    /// The questionnaire's current answers.
    core::MethodQuestions methodAnswers() const;
    /// The GPU the ladder is for: the picker's, else the scenario's, else an RTX 4090.
    const core::GpuSpec* ladderGpu() const;

    /// Whether the questionnaire and the sizing table stand side by side (wide) or one above the other (narrow).
    bool sideBySide() const;

protected:
    void refresh() override;
    void resizeEvent(QResizeEvent* event) override;

private:
    QBoxLayout* m_lower = nullptr;
    // The constructor's parts, called in the order that sets the tab order.
    /// The GPU picker, the OOM ladder and its conclusion.
    QGroupBox* createOomGroup();
    /// The method questionnaire and its recommendation.
    QGroupBox* createMethodGroup();
    /// The sizing table and its caption.
    QGroupBox* createSizingGroup();

    void refreshMethod();

    QComboBox* m_gpu = nullptr;
    LadderTableModel* m_ladder = nullptr;
    QTableView* m_ladderTable = nullptr;
    QLabel* m_combination = nullptr;
    QComboBox* m_distance = nullptr;
    QComboBox* m_data = nullptr;
    QCheckBox* m_tradeoff = nullptr;
    QComboBox* m_serving = nullptr;
    QLabel* m_recommendation = nullptr;
    SizingTableModel* m_sizing = nullptr;
    QTableView* m_sizingTable = nullptr;
    QLabel* m_sizingCaption = nullptr;
};

} // namespace gpusizer::ui
