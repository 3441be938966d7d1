#include "InputPanel.h"

#include "../Format.h"
#include "../Present.h"
#include "../ScenarioController.h"
#include "../Shrinkable.h"
#include "ModelSearch.h"
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

/// The advanced form's order. Words, ranges, defaults and choices are the field table's (core/ScenarioFields.h).
constexpr std::array<const char*, 57> kAdvancedFields{"images_per_sample",
                                                      "image_width",
                                                      "image_height",
                                                      "image_max_pixels",
                                                      "freeze_vision_tower",
                                                      "freeze_projector",
                                                      "run_kind",
                                                      "reference_log_probs",
                                                      "num_generations",
                                                      "completion_length",
                                                      "kl_beta",
                                                      "generation",
                                                      "vllm_gpu_memory_utilization",
                                                      "vllm_sleep_mode",
                                                      "vllm_gpus",
                                                      "ppo_epochs",
                                                      "trainable_layers",
                                                      "trainable_layers_fp32",
                                                      "precision",
                                                      "optimizer",
                                                      "optimizer_in_backward",
                                                      "lora.kind",
                                                      "lora.rank",
                                                      "lora.dropout",
                                                      "lora.targets",
                                                      "lora.modules_to_save",
                                                      "lora.dtype",
                                                      "lora.vision_targets",
                                                      "quantization",
                                                      "gradient_checkpointing",
                                                      "checkpoint_every",
                                                      "attention",
                                                      "padded_batches",
                                                      "loss",
                                                      "compile",
                                                      "float8",
                                                      "float8_all_gather",
                                                      "liger_rms_norm",
                                                      "liger_glu",
                                                      "liger_rope",
                                                      "tiled_mlp",
                                                      "activation_offload",
                                                      "framework",
                                                      "transformers_version",
                                                      "peft_version",
                                                      "torch_version",
                                                      "gradient_accumulation",
                                                      "gpus",
                                                      "sharding",
                                                      "sharding_engine",
                                                      "adapter_wrapping",
                                                      "tensor_parallel",
                                                      "pipeline_parallel",
                                                      "expert_parallel",
                                                      "context_parallel",
                                                      "context_parallel_kind",
                                                      "offload"};

int spinBound(double v) {
    return static_cast<int>(std::clamp(v, -2147483647.0, 2147483647.0));
}

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
    // The rows in the order they are created, which is also the tab order.
    addModelRows(basics);
    addSizeRow(basics);
    addSeqLenRow(basics);
    addMicroBatchRow(basics);
    addMethodRow(basics);
    addGpuRow(basics);
    layout->addLayout(basics);
    addAdvancedSection(layout);
    connectWrites();

    connect(&m_controller, &ScenarioController::scenarioChanged, this, &InputPanel::refresh);
    refresh();
}

void InputPanel::addModelRows(QFormLayout* basics) {
    // Model picker: searchable by any part of the name.
    m_model = new QComboBox(this);
    m_model->setObjectName(QStringLiteral("modelPicker"));
    m_model->setEditable(true);
    m_model->setInsertPolicy(QComboBox::NoInsert);
    makeShrinkable(m_model, 18);
    for (const auto& m : m_controller.catalog().models) {
        m_model->addItem(
            tr("%1 (%2)").arg(QString::fromStdString(m.name), formatParams(core::countParams(m.arch).total)),
            QString::fromStdString(m.id));
    }
    makeModelSearch(
        m_model,
        [this](const QString& id) {
            if (!id.isEmpty()) {
                m_controller.setModelId(id.toStdString());
            }
        },
        [this] { refresh(); });
    m_model->setToolTip(tr("The model to train: its architecture sets the parameter count and activation sizes."));
    m_import = new QPushButton(tr("&Import config.json…"), this);
    m_import->setToolTip(tr("Read a Hugging Face config.json to size a model that is not in the catalog."));
    auto* modelRow = new QHBoxLayout();
    modelRow->addWidget(m_model, 1);
    auto* modelLabel = new QLabel(tr("&Model"), this);
    modelLabel->setBuddy(m_model);
    basics->addRow(modelLabel, modelRow);
    basics->addRow(QString(), m_import);
}

void InputPanel::addSizeRow(QFormLayout* basics) {
    m_size = new QSlider(Qt::Horizontal, this);
    m_size->setObjectName(QStringLiteral("sizeSlider"));
    m_size->setRange(kSizeSliderMin, kSizeSliderMax);
    m_size->setPageStep(10);
    m_size->setToolTip(tr("Model size (log scale, 0.1 B to 1 T parameters): moving it sizes a Llama-style model "
                          "of that size, with a wider error band."));
    m_sizeLabel = new QLabel(this);
    m_sizeLabel->setObjectName(QStringLiteral("sizeLabel"));
    // "11.77 B parameters (Llama-style, derived from the size)" must not widen the panel past its viewport.
    m_sizeLabel->setWordWrap(true);
    basics->addRow(tr("Model si&ze"), m_size);
    basics->addRow(QString(), m_sizeLabel);
}

void InputPanel::addSeqLenRow(QFormLayout* basics) {
    m_seqSlider = new QSlider(Qt::Horizontal, this);
    m_seqSlider->setObjectName(QStringLiteral("seqLenSlider"));
    m_seqSlider->setRange(kSeqLog2Min, kSeqLog2Max);
    m_seqSlider->setPageStep(1);
    m_seqSlider->setTickPosition(QSlider::TicksBelow);
    m_seqSlider->setToolTip(tr("Tokens per sequence (powers of two): activations and logits grow with it — use your "
                               "longest sequence, not the average."));
    m_seqSpin = new QSpinBox(this);
    m_seqSpin->setObjectName(QStringLiteral("seqLenSpin"));
    const core::ScenarioField& seqField = *core::findField("seq_len");
    m_seqSpin->setRange(spinBound(seqField.min), spinBound(seqField.max));
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
}

void InputPanel::addMicroBatchRow(QFormLayout* basics) {
    m_batchSlider = new QSlider(Qt::Horizontal, this);
    m_batchSlider->setObjectName(QStringLiteral("microBatchSlider"));
    m_batchSlider->setRange(1, 256);
    m_batchSlider->setToolTip(tr("Sequences per GPU per forward pass: activations and logits grow linearly with it."));
    m_batchSpin = new QSpinBox(this);
    const core::ScenarioField& batchField = *core::findField("micro_batch");
    m_batchSpin->setRange(spinBound(batchField.min), spinBound(batchField.max));
    m_batchSpin->setKeyboardTracking(false);
    m_batchSpin->setToolTip(tr("Type any micro-batch size."));
    auto* batchRow = new QHBoxLayout();
    batchRow->addWidget(m_batchSlider, 1);
    batchRow->addWidget(m_batchSpin);
    auto* batchLabel = new QLabel(tr("Micro-&batch"), this);
    batchLabel->setBuddy(m_batchSlider);
    basics->addRow(batchLabel, batchRow);
}

void InputPanel::addMethodRow(QFormLayout* basics) {
    // Method as a segmented control.
    auto* methodRow = new QHBoxLayout();
    methodRow->setSpacing(0);
    m_methodGroup = new QButtonGroup(this);
    m_methodGroup->setExclusive(true);
    const std::array<std::pair<core::Method, QString>, 3> methods{{
        {core::Method::Full, tr("F&ull")},
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
}

void InputPanel::addGpuRow(QFormLayout* basics) {
    m_gpu = new QComboBox(this);
    makeShrinkable(m_gpu, 18);
    m_gpu->setObjectName(QStringLiteral("gpuPicker"));
    m_gpu->addItem(tr("(none)"), QString());
    for (const auto& g : m_controller.catalog().gpus) {
        m_gpu->addItem(tr("%1 — %2 GB").arg(QString::fromStdString(g.name)).arg(g.memoryGiBStated),
                       QString::fromStdString(g.id));
    }
    m_gpu->setToolTip(tr("The card you have in mind: its usable memory is drawn across the charts."));
    basics->addRow(tr("&GPU"), m_gpu);
}

void InputPanel::addAdvancedSection(QVBoxLayout* layout) {
    // Advanced options, collapsed by default.
    auto* toggle = new QToolButton(this);
    toggle->setText(tr("Advanced optio&ns"));
    toggle->setObjectName(QStringLiteral("advancedToggle"));
    toggle->setCheckable(true);
    toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toggle->setArrowType(Qt::RightArrow);
    toggle->setToolTip(
        tr("Precision, optimizer, LoRA, checkpointing, attention, loss, framework and multi-GPU layout."));
    layout->addWidget(toggle);
    QWidget* advanced = buildAdvanced();
    m_advanced = advanced;
    advanced->setVisible(false);
    layout->addWidget(advanced);
    layout->addStretch(1);
    connect(toggle, &QToolButton::toggled, this, [toggle, advanced](bool open) {
        advanced->setVisible(open);
        toggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    });
}

int InputPanel::openMinimumWidth() const {
    const QMargins margins = layout()->contentsMargins();
    return std::max(minimumSizeHint().width(),
                    m_advanced->minimumSizeHint().width() + margins.left() + margins.right());
}

void InputPanel::connectWrites() {
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
}

QWidget* InputPanel::controlFor(const core::ScenarioField& field, QWidget* parent) {
    const std::string key = field.key;
    auto write = [this, key](double v) {
        m_controller.update([&](core::Scenario& s) { core::findField(key)->set(s, v); });
    };
    QWidget* control = nullptr;
    switch (field.type) {
    case core::FieldType::Integer: {
        auto* spin = new QSpinBox(parent);
        spin->setRange(spinBound(field.min), spinBound(field.max));
        spin->setGroupSeparatorShown(true);
        spin->setKeyboardTracking(false);
        connect(spin, qOverload<int>(&QSpinBox::valueChanged), this, [write](int v) { write(v); });
        control = spin;
        break;
    }
    case core::FieldType::Number: {
        auto* spin = new QDoubleSpinBox(parent);
        const double step = field.max <= 1.0 ? 0.05 : 1.0;
        spin->setRange(field.min, field.maxExclusive ? field.max - step : field.max);
        spin->setSingleStep(step);
        spin->setDecimals(2);
        spin->setKeyboardTracking(false);
        connect(spin, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [write](double v) { write(v); });
        control = spin;
        break;
    }
    case core::FieldType::Flag: {
        auto* check = new QCheckBox(text(present::fieldLabel(field)), parent);
        connect(check, &QCheckBox::toggled, this, [write](bool v) { write(v ? 1.0 : 0.0); });
        control = check;
        break;
    }
    case core::FieldType::Choice: {
        auto* combo = new QComboBox(parent);
        makeShrinkable(combo, 12);
        // Long choice names must not widen the panel: the box shows what fits, the list shows them whole.
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(12);
        for (const auto& c : field.choices) {
            // The words for the value; the scenario file keeps its code (shown in the item's tooltip).
            combo->addItem(text(present::choiceLabel(field, c.value)), c.value);
            combo->setItemData(combo->count() - 1, QString::fromStdString(c.code), Qt::ToolTipRole);
        }
        connect(combo, qOverload<int>(&QComboBox::activated), this,
                [write, combo](int index) { write(combo->itemData(index).toInt()); });
        control = combo;
        break;
    }
    case core::FieldType::Special:
        return nullptr;
    }
    control->setToolTip(text(present::fieldTooltip(field)));
    control->setObjectName(QString::fromStdString("field:" + key));
    m_fields[key] = control;
    return control;
}

void InputPanel::refreshField(const core::ScenarioField& field, QWidget* control) {
    const core::Scenario& s = m_controller.ownScenario();
    const double v = field.get(s);
    const QSignalBlocker block(control);
    if (auto* spin = qobject_cast<QSpinBox*>(control)) {
        spin->setValue(spinBound(v));
    } else if (auto* dspin = qobject_cast<QDoubleSpinBox*>(control)) {
        dspin->setValue(v);
    } else if (auto* check = qobject_cast<QCheckBox*>(control)) {
        check->setChecked(v != 0.0);
    } else if (auto* combo = qobject_cast<QComboBox*>(control)) {
        combo->setCurrentIndex(combo->findData(static_cast<int>(v)));
    }
    control->setEnabled(core::appliesTo(field.methods, s.method) && (!field.enabledWhen || field.enabledWhen(s)));
}

QWidget* InputPanel::fieldControl(const std::string& key) const {
    const auto it = m_fields.find(key);
    return it == m_fields.end() ? nullptr : it->second;
}

QComboBox* InputPanel::shardingPicker() const {
    return qobject_cast<QComboBox*>(fieldControl("sharding"));
}

QSpinBox* InputPanel::gpuCountSpin() const {
    return qobject_cast<QSpinBox*>(fieldControl("gpus"));
}

QComboBox* InputPanel::optimizerPicker() const {
    return qobject_cast<QComboBox*>(fieldControl("optimizer"));
}

QComboBox* InputPanel::precisionPicker() const {
    return qobject_cast<QComboBox*>(fieldControl("precision"));
}

QComboBox* InputPanel::checkpointingPicker() const {
    return qobject_cast<QComboBox*>(fieldControl("gradient_checkpointing"));
}

QWidget* InputPanel::buildAdvanced() {
    auto* box = new QGroupBox(this);
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // A row whose field does not fit beside its label goes below it, so the open form is no wider than the basics.
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    for (const char* key : kAdvancedFields) {
        const core::ScenarioField* field = core::findField(key);
        if (field == nullptr) {
            continue;
        }
        if (field->type != core::FieldType::Special) {
            QWidget* control = controlFor(*field, box);
            if (field->type == core::FieldType::Flag) {
                form->addRow(control); // a check box spans both columns: every one starts at the labels
            } else {
                form->addRow(text(present::fieldLabel(*field)), control);
            }
            continue;
        }
        if (std::string_view(key) == "lora.targets") {
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
            targets->setToolTip(text(present::fieldTooltip(*field)));
            form->addRow(text(present::fieldLabel(*field)), targets);
            m_loraHead = new QCheckBox(tr("Adapter on lm_head"), box);
            m_loraHead->setToolTip(tr("A LoRA adapter on the output projection (PEFT target \"lm_head\", LitGPT "
                                      "lora_head): r × (hidden + vocabulary) more trainable parameters."));
            form->addRow(m_loraHead);
            connect(m_loraHead, &QCheckBox::toggled, this,
                    [this](bool v) { m_controller.update([&](core::Scenario& s) { s.lora.lmHead = v; }); });
        } else if (std::string_view(key) == "lora.modules_to_save") {
            m_saveHead = new QCheckBox(tr("Full copies: lm_head, embeddings"), box);
            m_saveHead->setToolTip(text(present::fieldTooltip(*field)));
            form->addRow(m_saveHead);
            connect(m_saveHead, &QCheckBox::toggled, this, [this](bool v) {
                m_controller.update([&](core::Scenario& s) { s.lora.saveLmHead = s.lora.saveEmbedding = v; });
            });
        }
    }
    return box;
}

void InputPanel::refresh() {
    const core::Scenario& s = m_controller.ownScenario();
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
    for (const auto& [key, control] : m_fields) {
        refreshField(*core::findField(key), control);
    }
    if (auto* every = fieldControl("checkpoint_every")) {
        every->setEnabled(s.checkpointing == core::Checkpointing::EveryNth);
    }
    if (auto* fp32 = fieldControl("trainable_layers_fp32")) {
        fp32->setEnabled(s.method == core::Method::Full && s.trainableLayers > 0);
    }
    const bool lora = s.method != core::Method::Full;
    // What the adapter kind leaves unused: LayerNorm tuning has no linear targets, IA3 and it no rank or dropout;
    // adapters on lm_head are sized for LoRA only.
    const core::AdapterKind kind = s.lora.kind;
    const bool linearTargets = lora && kind != core::AdapterKind::LnTuning;
    const bool scaledOnly = kind == core::AdapterKind::Ia3 || kind == core::AdapterKind::LnTuning;
    for (const char* key : {"lora.rank", "lora.dropout"}) {
        if (auto* control = fieldControl(key)) {
            control->setEnabled(lora && !scaledOnly);
        }
    }
    for (std::size_t i = 0; i < kRoles.size(); ++i) {
        setCheck(m_loraTargets[i],
                 std::find(s.lora.targets.begin(), s.lora.targets.end(), kRoles[i]) != s.lora.targets.end());
        m_loraTargets[i]->setEnabled(linearTargets);
    }
    setCheck(m_loraHead, s.lora.lmHead);
    setCheck(m_saveHead, s.lora.saveLmHead);
    m_loraHead->setEnabled(lora && (kind == core::AdapterKind::Lora || s.lora.lmHead));
    m_saveHead->setEnabled(lora);
}

} // namespace gpusizer::ui
