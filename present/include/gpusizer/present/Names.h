#pragma once
// The words for core's codes: components, peak moments and every enum a user picks (combo boxes, reports, the CLI).

#include "gpusizer/core/Estimate.h"
#include "gpusizer/core/Planning.h"
#include "gpusizer/core/Scenario.h"
#include "gpusizer/present/Message.h"

namespace gpusizer::present {

/// "Optimizer states".
Message componentName(core::Component c);
/// One sentence on what the component holds.
Message componentDescription(core::Component c);

/// What a user picks, in words (combo boxes, the report's inputs, the comparison's columns); JSON keeps the codes.
Message label(core::Method v);
Message label(core::Precision v);
Message label(core::Optimizer v);
Message label(core::Checkpointing v);
Message label(core::Attention v);
Message label(core::Loss v);
Message label(core::Sharding v);
Message label(core::Offload v);
Message label(core::ShardingEngine v);
Message label(core::AdapterWrapping v);
Message label(core::Quantization v);
Message label(core::Framework v);
Message label(core::AdapterDtype v);
Message label(core::PeakMoment v);
Message label(core::Objective v);
Message label(core::Network v);

} // namespace gpusizer::present
