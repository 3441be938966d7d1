#pragma once

#include "LiveView.h"
#include "gpusizer/core/Advisor.h"

#include <QtCore/QAbstractTableModel>

QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QCheckBox)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QTableView)

namespace gpusizer::ui {

/// The OOM ladder: one row per fix, with the memory it saves for this scenario.
class LadderTableModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LadderTableModel)

public:
    enum Column { Step, Change, Saves, After, FitsAlone, Price, ColumnCount };
    explicit LadderTableModel(QObject* parent = nullptr);
    void setAdvice(core::OomAdvice advice);
    const core::OomAdvice& advice() const { return m_advice; }
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    core::OomAdvice m_advice;
};

/// The sizing table: model sizes × QLoRA / LoRA / full, the smallest card and count in each cell.
class SizingTableModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SizingTableModel)

public:
    enum Column { Model, Qlora, Lora, Full, ColumnCount };
    explicit SizingTableModel(QObject* parent = nullptr);
    void setRows(std::vector<core::SizingRow> rows);
    const std::vector<core::SizingRow>& rows() const { return m_rows; }
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<core::SizingRow> m_rows;
};

/// Human words for a fix and for a sizing cell (shared with the report).
QString fixName(core::FixKind kind);
QString sizingCellText(const core::SizingCell& cell);

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

protected:
    void refresh() override;

private:
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
