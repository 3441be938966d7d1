#pragma once
// The words for core's codes: components, peak moments and every enum a user picks (combo boxes, reports, the CLI).

#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Planning.h"
#include "gpusizer/present/Message.h"
#include "gpusizer/scenario/Labels.h"
#include "gpusizer/scenario/Scenario.h"
#include "gpusizer/scenario/ScenarioFields.h"

#include <string_view>

namespace gpusizer::present {

/// "Optimizer states".
Message componentName(core::Component c);
/// One sentence on what the component holds.
Message componentDescription(core::Component c);

/// Precision, sharding engine, framework, float8, adapter kind and peak moment: core's words (core/Labels.h).
using core::label;

/// What a user picks, in words (combo boxes, the report's inputs, the comparison's columns); JSON keeps the codes.
Message label(core::Method v);
Message label(core::Optimizer v);
Message label(core::Checkpointing v);
Message label(core::Attention v);
Message label(core::Loss v);
Message label(core::Sharding v);
Message label(core::Offload v);
Message label(core::AdapterWrapping v);
Message label(core::TransformersVersion v);
Message label(core::PeftVersion v);
Message label(core::TorchVersion v);
Message label(core::Quantization v);
Message label(core::AdapterDtype v);
Message label(core::VisionAdapterTargets v);
Message label(core::ContextParallel v);
Message label(core::Objective v);
Message label(core::Network v);

/// A field's name and what it changes (the field table's translation ids).
Message fieldLabel(const core::ScenarioField& f);
Message fieldTooltip(const core::ScenarioField& f);
/// The words for a choice field's value ("bf16 + fp32 master weights" for precision 3); the code if unknown.
Message choiceLabel(const core::ScenarioField& f, int value);
/// A field's value as the report and the CLI show it: the choice's words, the number, yes / no.
Message fieldValue(const core::ScenarioField& f, const core::Scenario& s);

} // namespace gpusizer::present
