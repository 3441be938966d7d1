#pragma once

#include "gpusizer/scenario/Scenario.h"
#include "gpusizer/scenario/ScenarioFields.h"

#include <QtWidgets/QWidget>
#include <array>
#include <map>
#include <string>

QT_FORWARD_DECLARE_CLASS(QButtonGroup)
QT_FORWARD_DECLARE_CLASS(QCheckBox)
QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QDoubleSpinBox)
QT_FORWARD_DECLARE_CLASS(QFormLayout)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QPushButton)
QT_FORWARD_DECLARE_CLASS(QSlider)
QT_FORWARD_DECLARE_CLASS(QSpinBox)
QT_FORWARD_DECLARE_CLASS(QToolButton)
QT_FORWARD_DECLARE_CLASS(QVBoxLayout)

namespace gpusizer::ui {

class ScenarioController;

/// The scenario's inputs: model, size, sequence length, micro-batch, method, and the advanced options.
/// Every control writes through the controller and is refreshed from it (one source of truth).
class InputPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InputPanel)

public:
    explicit InputPanel(ScenarioController& controller, QWidget* parent = nullptr);

    /// The width the panel needs with its advanced options open (hidden widgets do not count in minimumSizeHint):
    /// the left column is made this wide so that opening them clips nothing.
    int openMinimumWidth() const;

    // Slider range of the model size: log10(billions) in hundredths, 0.1 B ... 1 T.
    static constexpr int kSizeSliderMin = -100;
    static constexpr int kSizeSliderMax = 300;
    static int sizeToSlider(double billions);
    static double sliderToSize(int value);

    QComboBox* modelPicker() const { return m_model; }
    QSlider* sizeSlider() const { return m_size; }
    QSlider* seqLenSlider() const { return m_seqSlider; }
    QSpinBox* seqLenSpin() const { return m_seqSpin; }
    QSlider* microBatchSlider() const { return m_batchSlider; }
    QSpinBox* microBatchSpin() const { return m_batchSpin; }
    QToolButton* methodButton(core::Method m) const { return m_methodButtons[static_cast<std::size_t>(m)]; }
    QComboBox* gpuPicker() const { return m_gpu; }
    /// The control the field table built for a field ("gpus", "lora.rank"), or nullptr.
    QWidget* fieldControl(const std::string& key) const;
    QComboBox* shardingPicker() const;
    QSpinBox* gpuCountSpin() const;
    QComboBox* optimizerPicker() const;
    QComboBox* precisionPicker() const;
    QComboBox* checkpointingPicker() const;

signals:
    void importConfigRequested();

private:
    // The constructor's parts, called in the order that sets the tab order.
    void addModelRows(QFormLayout* basics);
    void addSizeRow(QFormLayout* basics);
    void addSeqLenRow(QFormLayout* basics);
    void addMicroBatchRow(QFormLayout* basics);
    void addMethodRow(QFormLayout* basics);
    void addGpuRow(QFormLayout* basics);
    /// The advanced options' toggle and form, collapsed.
    void addAdvancedSection(QVBoxLayout* layout);
    /// Every basic control writes through the controller.
    void connectWrites();

    void refresh();
    QWidget* buildAdvanced();
    /// A spin box, check box or combo box for a field of the table, writing through the controller.
    QWidget* controlFor(const core::ScenarioField& field, QWidget* parent);
    void refreshField(const core::ScenarioField& field, QWidget* control);

    ScenarioController& m_controller;
    QComboBox* m_model = nullptr;
    QPushButton* m_import = nullptr;
    QSlider* m_size = nullptr;
    QLabel* m_sizeLabel = nullptr;
    QSlider* m_seqSlider = nullptr;
    QSpinBox* m_seqSpin = nullptr;
    QSlider* m_batchSlider = nullptr;
    QSpinBox* m_batchSpin = nullptr;
    std::array<QToolButton*, 3> m_methodButtons{};
    QButtonGroup* m_methodGroup = nullptr;
    QComboBox* m_gpu = nullptr;
    std::array<QCheckBox*, 7> m_loraTargets{};
    QCheckBox* m_loraHead = nullptr;
    QCheckBox* m_saveHead = nullptr;
    QWidget* m_advanced = nullptr;
    std::map<std::string, QWidget*> m_fields; ///< the field table's controls by key
};

} // namespace gpusizer::ui
