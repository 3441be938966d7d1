#pragma once

#include "gpusizer/scenario/ModelArch.h"
#include "gpusizer/scenario/Result.h"

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string_view>
#include <vector>

namespace gpusizer::core {

/// An architecture read from a Hugging Face config.json, with what the importer had to assume.
struct ImportedArch {
    ModelArch arch;
    std::string modelType;                   ///< config "model_type" (or "unknown")
    std::optional<std::int64_t> weightBytes; ///< from model.safetensors.index.json "metadata.total_size"
    std::vector<Warning> warnings;
};

/// Reads a config.json object (Llama, Mistral, Mixtral, Qwen2/3 dense and MoE, Gemma 1-3, Phi, DeepSeek MLA/MoE,
/// GPT-2, GPT-NeoX, Falcon, BERT key variants). Nested "text_config" is followed. Unknown model types import what
/// their keys say and report what was assumed.
Result<ImportedArch> archFromHfConfig(const nlohmann::json& config, std::string_view where = "config.json");

/// Parses config.json bytes; optionally the bytes of model.safetensors.index.json (for the exact weight size).
Result<ImportedArch> importHfConfig(std::string_view configBytes, std::string_view configName,
                                    std::optional<std::string_view> indexBytes = std::nullopt,
                                    std::string_view indexName = "model.safetensors.index.json");

/// Writes an architecture back as config.json keys (what a saved scenario carries).
nlohmann::json archToHfConfig(const ModelArch& arch);

} // namespace gpusizer::core
