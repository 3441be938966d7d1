#pragma once

#include "gpusizer/core/Estimate.h"

#include <nlohmann/json.hpp>

namespace gpusizer::core {

/// The estimate as the stable CLI document ({"format": "gpusizer-estimate", "version": 1, ...}); bytes as integers.
nlohmann::json estimateToJson(const Estimate& estimate);

} // namespace gpusizer::core
