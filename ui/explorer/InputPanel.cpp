#include "InputPanel.h"

#include "../Format.h"
#include "../Present.h"
#include "../ScenarioController.h"
#include "gpusizer/present/Names.h"

#include <QtWidgets/QButtonGroup>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QCompleter>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QGridLayout>
#include <QtWidgets/QGroupBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSlider>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QVBoxLayout>
#include <cmath>

namespace gpusizer::ui {

namespace {

constexpr int kSeqLog2Min = 7;  // 128 tokens
constexpr int kSeqLog2Max = 17; // 131,072 tokens

template <class E>
QComboBox* enumCombo(QWidget* parent, const QString& tooltip) {
    auto* combo = new QComboBox(parent);
    for (E value : core::allValues<E>()) {
        // The words for the value; the scenario file keeps its code (shown in the item's tooltip).
        combo->addItem(text(present::label(value)), static_cast<int>(value));
        combo->setItemData(combo->count() - 1, QString::fromLatin1(core::toString(value)), Qt::ToolTipRole);
    }
    combo->setToolTip(tooltip);
    return combo;
}

template <class E>
void setEnum(QComboBox* combo, E value) {
    const QSignalBlocker block(combo);
    combo->setCurrentIndex(combo->findData(static_cast<int>(value)));
}

void setSpin(QSpinBox* spin, std::int64_t value) {
    const QSignalBlocker block(spin);
    spin->setValue(static_cast<int>(value));
}

void setCheck(QCheckBox* box, bool value) {
    const QSignalBlocker block(box);
    box->setChecked(value);
}

constexpr std::array<core::LinearRole, 7> kRoles{core::LinearRole::Q,   core::LinearRole::K,    core::LinearRole::V,
                                                 core::LinearRole::O,   core::LinearRole::Gate, core::LinearRole::Up,
                                                 core::LinearRole::Down};

} // namespace

int InputPanel::sizeToSlider(double billions) {
    return static_cast<int>(std::lround(std::log10(std::max(0.1, billions)) * 100.0));
}

double InputPanel::sliderToSize(int value) {
    return std::pow(10.0, value / 100.0);
}

InputPanel::InputPanel(ScenarioController& controller, QWidget* parent) : QWidget(parent), m_controller(controller) {
    setObjectName(QStringLiteral("inputPanel"));
    auto* layout = new QVBoxLayout(this);
    auto* basics = new QFormLayout();
    basics->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    // Model picker: searchable by any part of the name.
    m_model = new QComboBox(this);
    m_model->setObjectName(QStringLiteral("modelPicker"));
    m_model->setEditable(true);
    m_model->setInsertPolicy(QComboBox::NoInsert);
    for (const auto& m : controller.catalog().models) {
        m_model->addItem(
            tr("%1 (%2)").arg(QString::fromStdString(m.name), formatParams(core::countParams(m.arch).total)),
            QString::fromStdString(m.id));
    }
    m_model->completer()->setFilterMode(Qt::MatchContains);
    m_model->completer()->setCompletionMode(QCompleter::PopupCompletion);
    m_model->setToolTip(tr("The model to train: its architecture sets the parameter count and activation sizes."));
    m_import = new QPushButton(tr("&Import config.json…"), this);
    m_import->setToolTip(tr("Read a Hugging Face config.json to size a model that is not in the catalog."));
    auto* modelRow = new QHBoxLayout();
    modelRow->addWidget(m_model, 1);
    auto* modelLabel = new QLabel(tr("&Model"), this);
    modelLabel->setBuddy(m_model);
    basics->addRow(modelLabel, modelRow);
    basics->addRow(QString(), m_import);

    m_size = new QSlider(Qt::Horizontal, this);
    m_size->setObjectName(QStringLiteral("sizeSlider"));
    m_size->setRange(kSizeSliderMin, kSizeSliderMax);
    m_size->setPageStep(10);
    m_size->setToolTip(tr("Model size (log scale, 0.1 B to 1 T parameters): moving it sizes a Llama-style model "
                          "of that size, with a wider error band."));
    m_sizeLabel = new QLabel(this);
    basics->addRow(tr("Model si&ze"), m_size);
    basics->addRow(QString(), m_sizeLabel);

    m_seqSlider = new QSlider(Qt::Horizontal, this);
    m_seqSlider->setObjectName(QStringLiteral("seqLenSlider"));
    m_seqSlider->setRange(kSeqLog2Min, kSeqLog2Max);
    m_seqSlider->setPageStep(1);
    m_seqSlider->setTickPosition(QSlider::TicksBelow);
    m_seqSlider->setToolTip(tr("Tokens per sequence (powers of two): activations and logits grow with it — use your "
                               "longest sequence, not the average."));
    m_seqSpin = new QSpinBox(this);
    m_seqSpin->setObjectName(QStringLiteral("seqLenSpin"));
    m_seqSpin->setRange(1, 1 << 24);
    m_seqSpin->setGroupSeparatorShown(true);
    m_seqSpin->setSuffix(tr(" tokens"));
    m_seqSpin->setKeyboardTracking(false);
    m_seqSpin->setToolTip(tr("Type any sequence length."));
    m_seqSpin->setMinimumWidth(m_seqSpin->fontMetrics().horizontalAdvance(QStringLiteral("131,072 tokens")) + 40);
    auto* seqRow = new QHBoxLayout();
    seqRow->addWidget(m_seqSlider, 1);
    seqRow->addWidget(m_seqSpin);
    auto* seqLabel = new QLabel(tr("&Sequence length"), this);
    seqLabel->setBuddy(m_seqSlider);
    basics->addRow(seqLabel, seqRow);

    m_batchSlider = new QSlider(Qt::Horizontal, this);
    m_batchSlider->setObjectName(QStringLiteral("microBatchSlider"));
    m_batchSlider->setRange(1, 256);
    m_batchSlider->setToolTip(tr("Sequences per GPU per forward pass: activations and logits grow linearly with it."));
    m_batchSpin = new QSpinBox(this);
    m_batchSpin->setRange(1, 65536);
    m_batchSpin->setKeyboardTracking(false);
    m_batchSpin->setToolTip(tr("Type any micro-batch size."));
    auto* batchRow = new QHBoxLayout();
    batchRow->addWidget(m_batchSlider, 1);
    batchRow->addWidget(m_batchSpin);
    auto* batchLabel = new QLabel(tr("Micro-&batch"), this);
    batchLabel->setBuddy(m_batchSlider);
    basics->addRow(batchLabel, batchRow);

    // Method as a segmented control.
    auto* methodRow = new QHBoxLayout();
    methodRow->setSpacing(0);
    m_methodGroup = new QButtonGroup(this);
    m_methodGroup->setExclusive(true);
    const std::array<std::pair<core::Method, QString>, 3> methods{{
        {core::Method::Full, tr("&Full")},
        {core::Method::Lora, tr("&LoRA")},
        {core::Method::Qlora, tr("&QLoRA")},
    }};
    const std::array<QString, 3> methodTips{
        tr("Full fine-tuning: every weight trains, with gradients and optimizer states for all of them."),
        tr("LoRA: the base is frozen; only small adapters train, so gradients and optimizer states nearly vanish."),
        tr("QLoRA: LoRA on a base stored in 4 bits, cutting the weights to about a quarter."),
    };
    for (std::size_t i = 0; i < methods.size(); ++i) {
        auto* button = new QToolButton(this);
        button->setText(methods[i].second);
        button->setCheckable(true);
        button->setToolTip(methodTips[i]);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        button->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        button->setFocusPolicy(Qt::StrongFocus);
        // The chosen method must stand out in light and dark palettes alike.
        button->setStyleSheet(QStringLiteral("QToolButton { padding: 3px; }"
                                             "QToolButton:checked { background: palette(highlight);"
                                             " color: palette(highlighted-text); font-weight: bold; }"));
        m_methodGroup->addButton(button, static_cast<int>(methods[i].first));
        m_methodButtons[i] = button;
        methodRow->addWidget(button);
    }
    basics->addRow(tr("Method"), methodRow);

    m_gpu = new QComboBox(this);
    m_gpu->setObjectName(QStringLiteral("gpuPicker"));
    m_gpu->addItem(tr("(none)"), QString());
    for (const auto& g : controller.catalog().gpus) {
        m_gpu->addItem(tr("%1 — %2 GB").arg(QString::fromStdString(g.name)).arg(g.memoryGiBStated),
                       QString::fromStdString(g.id));
    }
    m_gpu->setToolTip(tr("The card you have in mind: its usable memory is drawn across the charts."));
    basics->addRow(tr("&GPU"), m_gpu);
    layout->addLayout(basics);

    // Advanced options, collapsed by default.
    auto* toggle = new QToolButton(this);
    toggle->setText(tr("&Advanced options"));
    toggle->setCheckable(true);
    toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toggle->setArrowType(Qt::RightArrow);
    toggle->setToolTip(
        tr("Precision, optimizer, LoRA, checkpointing, attention, loss, framework and multi-GPU layout."));
    layout->addWidget(toggle);
    QWidget* advanced = buildAdvanced();
    advanced->setVisible(false);
    layout->addWidget(advanced);
    layout->addStretch(1);
    connect(toggle, &QToolButton::toggled, this, [toggle, advanced](bool open) {
        advanced->setVisible(open);
        toggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    });

    // Writes.
    connect(m_model, qOverload<int>(&QComboBox::activated), this, [this](int index) {
        const QString id = m_model->itemData(index).toString();
        if (!id.isEmpty()) {
            m_controller.setModelId(id.toStdString());
        }
    });
    connect(m_import, &QPushButton::clicked, this, &InputPanel::importConfigRequested);
    connect(m_size, &QSlider::valueChanged, this, [this](int v) { m_controller.setModelSizeBillion(sliderToSize(v)); });
    connect(m_seqSlider, &QSlider::valueChanged, this,
            [this](int log2) { m_controller.setSeqLen(std::int64_t{1} << log2); });
    connect(m_seqSpin, qOverload<int>(&QSpinBox::valueChanged), this, [this](int v) { m_controller.setSeqLen(v); });
    connect(m_batchSlider, &QSlider::valueChanged, this, [this](int v) { m_controller.setMicroBatch(v); });
    connect(m_batchSpin, qOverload<int>(&QSpinBox::valueChanged), this,
            [this](int v) { m_controller.setMicroBatch(v); });
    connect(m_methodGroup, &QButtonGroup::idClicked, this,
            [this](int id) { m_controller.setMethod(static_cast<core::Method>(id)); });
    connect(m_gpu, qOverload<int>(&QComboBox::activated), this,
            [this](int index) { m_controller.setGpuId(m_gpu->itemData(index).toString().toStdString()); });

    connect(&m_controller, &ScenarioController::scenarioChanged, this, &InputPanel::refresh);
    refresh();
}

QWidget* InputPanel::buildAdvanced() {
    auto* box = new QGroupBox(this);
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto bindEnum = [this](QComboBox* combo, auto setter) {
        connect(combo, qOverload<int>(&QComboBox::activated), this, [this, combo, setter](int index) {
            const int raw = combo->itemData(index).toInt();
            m_controller.update([&](core::Scenario& s) { setter(s, raw); });
        });
    };
    auto bindSpin = [this](QSpinBox* spin, auto setter) {
        connect(spin, qOverload<int>(&QSpinBox::valueChanged), this,
                [this, setter](int v) { m_controller.update([&](core::Scenario& s) { setter(s, v); }); });
    };
    auto bindCheck = [this](QCheckBox* check, auto setter) {
        connect(check, &QCheckBox::toggled, this,
                [this, setter](bool v) { m_controller.update([&](core::Scenario& s) { setter(s, v); }); });
    };

    m_precision = enumCombo<core::Precision>(box, tr("Where weights, gradients and optimizer states live and in "
                                                     "which dtype: bf16 (2+2+4 B/param with AdamW), bf16 with fp32 "
                                                     "master (2+2+4+8), AMP (4+4+8), fp32."));
    form->addRow(tr("&Precision"), m_precision);
    bindEnum(m_precision, [](core::Scenario& s, int v) { s.precision = static_cast<core::Precision>(v); });

    m_optimizer =
        enumCombo<core::Optimizer>(box, tr("Optimizer states per trainable parameter: AdamW 2 states, "
                                           "8-bit Adam ~2 B, SGD-momentum/Lion 1 state, Adafactor factored."));
    form->addRow(tr("&Optimizer"), m_optimizer);
    bindEnum(m_optimizer, [](core::Scenario& s, int v) { s.optimizer = static_cast<core::Optimizer>(v); });
    m_optimizerInBackward = new QCheckBox(tr("Step in backward"), box);
    m_optimizerInBackward->setToolTip(tr("Free each gradient as soon as its parameter steps: only the largest "
                                         "gradient is alive (no gradient accumulation)."));
    form->addRow(QString(), m_optimizerInBackward);
    bindCheck(m_optimizerInBackward, [](core::Scenario& s, bool v) { s.optimizerInBackward = v; });

    m_loraRank = new QSpinBox(box);
    m_loraRank->setRange(1, 4096);
    m_loraRank->setToolTip(tr("LoRA rank r: each adapted linear adds r × (in + out) trainable parameters."));
    form->addRow(tr("LoRA &rank"), m_loraRank);
    bindSpin(m_loraRank, [](core::Scenario& s, int v) { s.lora.rank = v; });
    m_loraDropout = new QDoubleSpinBox(box);
    m_loraDropout->setRange(0.0, 0.9);
    m_loraDropout->setSingleStep(0.05);
    m_loraDropout->setToolTip(tr("LoRA dropout: above 0 every adapted module saves its own dropout output and mask."));
    form->addRow(tr("LoRA dropout"), m_loraDropout);
    connect(m_loraDropout, qOverload<double>(&QDoubleSpinBox::valueChanged), this,
            [this](double v) { m_controller.update([&](core::Scenario& s) { s.lora.dropout = v; }); });
    auto* targets = new QWidget(box);
    auto* grid = new QGridLayout(targets);
    grid->setContentsMargins(0, 0, 0, 0);
    for (std::size_t i = 0; i < kRoles.size(); ++i) {
        auto* check = new QCheckBox(QString::fromLatin1(core::linearRoleName(kRoles[i])), targets);
        check->setToolTip(tr("Put a LoRA adapter on this projection in every layer."));
        grid->addWidget(check, static_cast<int>(i / 2), static_cast<int>(i % 2));
        m_loraTargets[i] = check;
        connect(check, &QCheckBox::toggled, this, [this] {
            std::vector<core::LinearRole> roles;
            for (std::size_t j = 0; j < kRoles.size(); ++j) {
                if (m_loraTargets[j]->isChecked()) {
                    roles.push_back(kRoles[j]);
                }
            }
            if (!m_controller.update([&](core::Scenario& s) { s.lora.targets = roles; })) {
                refresh(); // refused (no target left): put the boxes back
            }
        });
    }
    form->addRow(tr("LoRA targets"), targets);
    m_loraHead = new QCheckBox(tr("Adapter on lm_head"), box);
    m_loraHead->setToolTip(tr("A LoRA adapter on the output projection (PEFT target \"lm_head\", LitGPT lora_head): "
                              "r × (hidden + vocabulary) more trainable parameters."));
    form->addRow(QString(), m_loraHead);
    bindCheck(m_loraHead, [](core::Scenario& s, bool v) { s.lora.lmHead = v; });
    m_saveHead = new QCheckBox(tr("Train lm_head and embeddings fully (modules_to_save)"), box);
    m_saveHead->setToolTip(tr("PEFT modules_to_save: a trainable full copy of each module beside the frozen original, "
                              "with its gradients and optimizer states (vocabulary × hidden each)."));
    form->addRow(QString(), m_saveHead);
    bindCheck(m_saveHead, [](core::Scenario& s, bool v) { s.lora.saveLmHead = s.lora.saveEmbedding = v; });
    m_adapterDtype = enumCombo<core::AdapterDtype>(box, tr("Adapter dtype; auto follows the framework (PEFT keeps "
                                                           "adapters in fp32, torchtune and LitGPT in bf16)."));
    form->addRow(tr("Adapter dtype"), m_adapterDtype);
    bindEnum(m_adapterDtype, [](core::Scenario& s, int v) { s.lora.dtype = static_cast<core::AdapterDtype>(v); });

    m_quantization = enumCombo<core::Quantization>(box, tr("QLoRA base storage: NF4 0.56 B/weight, NF4 with double "
                                                           "quantization 0.52 B/weight, LLM.int8 1 B/weight."));
    form->addRow(tr("&Quantization"), m_quantization);
    bindEnum(m_quantization, [](core::Scenario& s, int v) { s.quantization = static_cast<core::Quantization>(v); });

    m_checkpointing = enumCombo<core::Checkpointing>(
        box, tr("Gradient checkpointing: full keeps one tensor per layer and recomputes the rest (~30% more compute); "
                "selective drops only what the framework recomputes cheaply."));
    form->addRow(tr("&Checkpointing"), m_checkpointing);
    bindEnum(m_checkpointing, [](core::Scenario& s, int v) { s.checkpointing = static_cast<core::Checkpointing>(v); });
    m_checkpointEvery = new QSpinBox(box);
    m_checkpointEvery->setRange(1, 1000);
    m_checkpointEvery->setToolTip(tr("every-nth: checkpoint every n-th block fully and keep the others whole "
                                     "(torchtitan selective_ac_option \"n\")."));
    form->addRow(tr("Checkpoint every"), m_checkpointEvery);
    bindSpin(m_checkpointEvery, [](core::Scenario& s, int v) { s.checkpointEvery = v; });

    m_attention = enumCombo<core::Attention>(box, tr("Attention kernel: flash/SDPA store no seq² scores; eager "
                                                     "stores them for every head and layer."));
    form->addRow(tr("A&ttention"), m_attention);
    bindEnum(m_attention, [](core::Scenario& s, int v) { s.attention = static_cast<core::Attention>(v); });

    m_loss = enumCombo<core::Loss>(box, tr("Cross-entropy: standard holds batch × sequence × vocabulary logits in "
                                           "fp32 several times; chunked keeps about one 16-bit copy."));
    form->addRow(tr("&Loss"), m_loss);
    bindEnum(m_loss, [](core::Scenario& s, int v) { s.loss = static_cast<core::Loss>(v); });

    m_compile = new QCheckBox(tr("torch.compile"), box);
    m_compile->setToolTip(tr("Compiling fuses norms, activations and RoPE, saving activation memory."));
    form->addRow(QString(), m_compile);
    bindCheck(m_compile, [](core::Scenario& s, bool v) { s.compile = v; });
    m_activationOffload = new QCheckBox(tr("Offload activations to CPU"), box);
    m_activationOffload->setToolTip(tr("Keep only about two layers of saved activations on the GPU; the rest wait in "
                                       "pinned host memory."));
    form->addRow(QString(), m_activationOffload);
    bindCheck(m_activationOffload, [](core::Scenario& s, bool v) { s.activationOffload = v; });

    m_framework = enumCombo<core::Framework>(box, tr("Training stack: decides behaviours such as the loss upcast, "
                                                     "adapter dtype and optimizer kernel (see docs/memory-model.md)."));
    form->addRow(tr("&Framework"), m_framework);
    bindEnum(m_framework, [](core::Scenario& s, int v) { s.framework = static_cast<core::Framework>(v); });

    m_accumulation = new QSpinBox(box);
    m_accumulation->setRange(1, 4096);
    m_accumulation->setToolTip(tr("Gradient accumulation steps: above 1 the gradients stay alive through every "
                                  "forward pass."));
    form->addRow(tr("Grad. accumulation"), m_accumulation);
    bindSpin(m_accumulation, [](core::Scenario& s, int v) { s.gradientAccumulation = v; });

    m_gpus = new QSpinBox(box);
    m_gpus->setObjectName(QStringLiteral("gpuCount"));
    m_gpus->setRange(1, 4096);
    m_gpus->setToolTip(
        tr("GPUs in the run: with ZeRO/FSDP, model states are divided among them; activations are not."));
    form->addRow(tr("GP&Us"), m_gpus);
    bindSpin(m_gpus, [](core::Scenario& s, int v) { s.gpus = v; });
    m_sharding = enumCombo<core::Sharding>(box, tr("ZeRO stage: 1 shards optimizer states, 2 also gradients, 3 "
                                                   "(FSDP full shard) also weights."));
    form->addRow(tr("S&harding"), m_sharding);
    bindEnum(m_sharding, [](core::Scenario& s, int v) { s.sharding = static_cast<core::Sharding>(v); });
    m_engine = enumCombo<core::ShardingEngine>(
        box, tr("Who shards: DeepSpeed ZeRO, FSDP1 (flat parameters), FSDP2 (per parameter) or Megatron's "
                "distributed optimizer; auto follows the framework. Decides gathered parameters, offload and "
                "gradients of frozen weights."));
    form->addRow(tr("Sharding engine"), m_engine);
    bindEnum(m_engine, [](core::Scenario& s, int v) { s.shardingEngine = static_cast<core::ShardingEngine>(v); });
    m_wrapping = enumCombo<core::AdapterWrapping>(
        box, tr("FSDP1 with adapters: separate (PEFT's wrap policy, applied by the transformers Trainer) gives "
                "gradients to the adapters only; mixed (LitGPT's per-block units) computes gradients for every "
                "frozen weight of the block too."));
    form->addRow(tr("Adapter wrapping"), m_wrapping);
    bindEnum(m_wrapping, [](core::Scenario& s, int v) { s.adapterWrapping = static_cast<core::AdapterWrapping>(v); });
    m_tensorParallel = new QSpinBox(box);
    m_tensorParallel->setRange(1, 64);
    m_tensorParallel->setToolTip(
        tr("Tensor parallel degree: splits every layer's weights and activations across GPUs."));
    form->addRow(tr("Tensor parallel"), m_tensorParallel);
    bindSpin(m_tensorParallel, [](core::Scenario& s, int v) { s.tensorParallel = v; });
    m_pipelineParallel = new QSpinBox(box);
    m_pipelineParallel->setRange(1, 64);
    m_pipelineParallel->setToolTip(tr("Pipeline stages: split the layers; the first stage still holds activations "
                                      "of every in-flight micro-batch."));
    form->addRow(tr("Pipeline parallel"), m_pipelineParallel);
    bindSpin(m_pipelineParallel, [](core::Scenario& s, int v) { s.pipelineParallel = v; });
    m_offload = enumCombo<core::Offload>(box, tr("ZeRO-Offload: move optimizer states (and parameters) to host RAM."));
    form->addRow(tr("Offl&oad"), m_offload);
    bindEnum(m_offload, [](core::Scenario& s, int v) { s.offload = static_cast<core::Offload>(v); });
    return box;
}

void InputPanel::refresh() {
    const core::Scenario& s = m_controller.scenario();
    {
        const QSignalBlocker block(m_model);
        const int index = m_model->findData(QString::fromStdString(s.modelId));
        if (index >= 0) {
            m_model->setCurrentIndex(index);
        } else {
            m_model->setCurrentIndex(-1);
            m_model->setEditText(s.model.sizeDerived ? tr("Size only (slider)")
                                                     : tr("Imported: %1").arg(QString::fromStdString(s.model.name)));
        }
    }
    const auto params = core::countParams(s.model);
    const double billions = static_cast<double>(params.total) / 1e9;
    if (InputPanel::sliderToSize(m_size->value()) / billions > 1.06 ||
        billions / sliderToSize(m_size->value()) > 1.06) {
        const QSignalBlocker block(m_size);
        m_size->setValue(sizeToSlider(billions));
    }
    m_sizeLabel->setText(tr("%1 parameters%2")
                             .arg(formatParams(params.total),
                                  s.model.sizeDerived ? tr(" (Llama-style, derived from the size)") : QString()));
    {
        const QSignalBlocker block(m_seqSlider);
        m_seqSlider->setValue(static_cast<int>(std::lround(std::log2(static_cast<double>(s.seqLen)))));
    }
    setSpin(m_seqSpin, s.seqLen);
    {
        const QSignalBlocker block(m_batchSlider);
        m_batchSlider->setValue(static_cast<int>(std::min<std::int64_t>(s.microBatch, 256)));
    }
    setSpin(m_batchSpin, s.microBatch);
    m_methodButtons[static_cast<std::size_t>(s.method)]->setChecked(true);
    {
        const QSignalBlocker block(m_gpu);
        m_gpu->setCurrentIndex(std::max(0, m_gpu->findData(QString::fromStdString(s.gpuId))));
    }
    setEnum(m_precision, s.precision);
    setEnum(m_optimizer, s.optimizer);
    setCheck(m_optimizerInBackward, s.optimizerInBackward);
    setSpin(m_loraRank, s.lora.rank);
    {
        const QSignalBlocker block(m_loraDropout);
        m_loraDropout->setValue(s.lora.dropout);
    }
    for (std::size_t i = 0; i < kRoles.size(); ++i) {
        setCheck(m_loraTargets[i],
                 std::find(s.lora.targets.begin(), s.lora.targets.end(), kRoles[i]) != s.lora.targets.end());
    }
    setEnum(m_adapterDtype, s.lora.dtype);
    setEnum(m_quantization, s.quantization);
    setEnum(m_checkpointing, s.checkpointing);
    setSpin(m_checkpointEvery, s.checkpointEvery);
    m_checkpointEvery->setEnabled(s.checkpointing == core::Checkpointing::EveryNth);
    setCheck(m_loraHead, s.lora.lmHead);
    setCheck(m_saveHead, s.lora.saveLmHead);
    setEnum(m_engine, s.shardingEngine);
    setEnum(m_wrapping, s.adapterWrapping);
    setEnum(m_attention, s.attention);
    setEnum(m_loss, s.loss);
    setCheck(m_compile, s.compile);
    setCheck(m_activationOffload, s.activationOffload);
    setEnum(m_framework, s.framework);
    setSpin(m_accumulation, s.gradientAccumulation);
    setSpin(m_gpus, s.gpus);
    setEnum(m_sharding, s.sharding);
    setSpin(m_tensorParallel, s.tensorParallel);
    setSpin(m_pipelineParallel, s.pipelineParallel);
    setEnum(m_offload, s.offload);
    const bool lora = s.method != core::Method::Full;
    m_loraRank->setEnabled(lora);
    m_loraDropout->setEnabled(lora);
    m_adapterDtype->setEnabled(lora);
    m_loraHead->setEnabled(lora);
    m_saveHead->setEnabled(lora);
    for (auto* box : m_loraTargets) {
        box->setEnabled(lora);
    }
    m_quantization->setEnabled(s.method == core::Method::Qlora);
}

} // namespace gpusizer::ui
