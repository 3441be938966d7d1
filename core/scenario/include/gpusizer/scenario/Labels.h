#pragma once
// Words for the enum values core names in its own sentences: a user reads "end of forward", never "forward_end".

#include "gpusizer/scenario/Result.h"
#include "gpusizer/scenario/Scenario.h"

namespace gpusizer::core {

Words label(Precision v);
Words label(ShardingEngine v);
Words label(Framework v);
Words label(Float8 v);
Words label(AdapterKind v);
Words label(OptimizerStepKind v);
Words label(SelectivePolicy v);

} // namespace gpusizer::core
