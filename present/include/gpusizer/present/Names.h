#pragma once
// The words for core's codes: components, peak moments and every enum a user picks (combo boxes, reports, the CLI).

#include "gpusizer/core/Estimate.h"
#include "gpusizer/present/Message.h"

namespace gpusizer::present {

/// "Optimizer states".
Message componentName(core::Component c);
/// One sentence on what the component holds.
Message componentDescription(core::Component c);

} // namespace gpusizer::present
