#pragma once

#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/Result.h"
#include "gpusizer/scenario/Scenario.h"

#include <string>
#include <string_view>
#include <vector>

namespace gpusizer::core {

/// A scenario read from JSON with the non-fatal notes about it (unknown keys, size-only model...).
struct ParsedScenario {
    Scenario scenario;
    std::vector<Warning> warnings;
};

/// Reads a scenario document ({"format": "gpusizer-scenario", "version": 1, "model": ...}).
/// The model is a catalog id, a config.json object, or {"params_billion": N}. Errors name the field and why.
Result<ParsedScenario> parseScenario(std::string_view bytes, std::string_view where, const Catalog& catalog);

/// Writes a scenario document that parseScenario reads back to the same scenario.
std::string scenarioToJson(const Scenario& scenario);

/// A default scenario on a catalog model (Llama-3.1-8B, LoRA r16 on q/v, 2048 tokens, micro-batch 4).
Scenario defaultScenario(const Catalog& catalog);

/// The name a scenario carries until the user names it: the model and the method ("Llama-3.1-8B LoRA",
/// "Qwen2.5-7B Full", "8.0B model QLoRA" for a size-only model). Not translated: it is saved in the file.
std::string automaticName(const Scenario& scenario);

} // namespace gpusizer::core
