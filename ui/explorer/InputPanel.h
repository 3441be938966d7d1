#pragma once

#include "gpusizer/core/Scenario.h"

#include <QtWidgets/QWidget>
#include <array>

QT_FORWARD_DECLARE_CLASS(QButtonGroup)
QT_FORWARD_DECLARE_CLASS(QCheckBox)
QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QDoubleSpinBox)
QT_FORWARD_DECLARE_CLASS(QLabel)
QT_FORWARD_DECLARE_CLASS(QPushButton)
QT_FORWARD_DECLARE_CLASS(QSlider)
QT_FORWARD_DECLARE_CLASS(QSpinBox)
QT_FORWARD_DECLARE_CLASS(QToolButton)

namespace gpusizer::ui {

class ScenarioController;

/// The scenario's inputs: model, size, sequence length, micro-batch, method, and the advanced options.
/// Every control writes through the controller and is refreshed from it (one source of truth).
class InputPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InputPanel)

public:
    explicit InputPanel(ScenarioController& controller, QWidget* parent = nullptr);

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
    QToolButton* methodButton(core::Method m) const { return m_methodButtons[static_cast<std::size_t>(m)]; }
    QComboBox* gpuPicker() const { return m_gpu; }
    QComboBox* shardingPicker() const { return m_sharding; }
    QSpinBox* gpuCountSpin() const { return m_gpus; }
    QComboBox* optimizerPicker() const { return m_optimizer; }
    QComboBox* precisionPicker() const { return m_precision; }
    QComboBox* checkpointingPicker() const { return m_checkpointing; }

signals:
    void importConfigRequested();

private:
    void refresh();
    QWidget* buildAdvanced();

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
    QComboBox* m_precision = nullptr;
    QComboBox* m_optimizer = nullptr;
    QCheckBox* m_optimizerInBackward = nullptr;
    QSpinBox* m_loraRank = nullptr;
    QDoubleSpinBox* m_loraDropout = nullptr;
    std::array<QCheckBox*, 7> m_loraTargets{};
    QComboBox* m_adapterDtype = nullptr;
    QComboBox* m_quantization = nullptr;
    QComboBox* m_checkpointing = nullptr;
    QSpinBox* m_checkpointEvery = nullptr;
    QCheckBox* m_loraHead = nullptr;
    QCheckBox* m_saveHead = nullptr;
    QComboBox* m_engine = nullptr;
    QComboBox* m_wrapping = nullptr;
    QComboBox* m_attention = nullptr;
    QComboBox* m_loss = nullptr;
    QCheckBox* m_compile = nullptr;
    QCheckBox* m_activationOffload = nullptr;
    QComboBox* m_framework = nullptr;
    QSpinBox* m_accumulation = nullptr;
    QSpinBox* m_gpus = nullptr;
    QComboBox* m_sharding = nullptr;
    QSpinBox* m_tensorParallel = nullptr;
    QSpinBox* m_pipelineParallel = nullptr;
    QComboBox* m_offload = nullptr;
};

} // namespace gpusizer::ui
