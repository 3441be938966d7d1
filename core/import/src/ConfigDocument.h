#pragma once
// A training config (YAML or JSON) read into one JSON tree, with where each key stood in a YAML file, so that every
// mapper reads one kind of document and every message names the file, line, column and key.

#include "gpusizer/import/TrainingConfig.h"
#include "gpusizer/scenario/Result.h"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace gpusizer::core::detail {

/// Most nodes a YAML document may expand to (aliases share nodes; expanding them could otherwise multiply a small
/// file into gigabytes, the "billion laughs" document).
inline constexpr std::size_t kMaxConfigNodes = 200000;

struct ConfigDocument {
    std::string path;
    nlohmann::json root;
    /// 1-based line and column of each key of a YAML file, by dotted path ("fsdp_config.fsdp_offload_params").
    std::map<std::string, std::pair<int, int>> marks;

    /// "<file>:<line>:<column>: <key>" for a YAML key (the line where the key stands), "<file>: <key>" otherwise.
    std::string at(const std::string& key) const;
    /// "<file>:<line>:<column>" of a YAML key, the file otherwise (where a report line points).
    std::string position(const std::string& key) const;
    /// The value at a dotted path, or nullptr.
    const nlohmann::json* find(std::string_view dottedKey) const;
    /// Keys a launch script wrote under an older name, by the name they are read under: "--pretrain" for
    /// "actor.model_name_or_path".
    std::map<std::string, std::string> spelledAs;
};

/// The value at a dotted path of `root`, made (with the objects above it, replacing what is not an object) when absent:
/// where a `key=value` override (torchtune's, Hydra's) puts its value.
nlohmann::json& dottedSlot(nlohmann::json& root, std::string_view dottedKey);

/// The offset of the first byte that is not part of well-formed UTF-8, or npos.
std::size_t invalidUtf8Offset(std::string_view text);
/// Text safe to keep in a report, a name or notes (bytes that are not UTF-8 become U+FFFD).
std::string displayable(const std::string& text);

/// Reads YAML (PyYAML's YAML 1.1 scalars: yes/no/on/off, 1e-4 as a number; quoted scalars stay strings) or JSON
/// with the size, NUL and nesting guards of the JSON loaders. The top level must be a mapping.
Result<ConfigDocument> readConfigDocument(std::string_view bytes, std::string path);

/// The format of a launch script this reader takes: verl's (`python3 -m verl.trainer.main_ppo key=value ...`) or
/// OpenRLHF's (`python3 -m openrlhf.cli.train_ppo_ray --key value ...`, `deepspeed --module openrlhf.cli.train_dpo`).
std::optional<ConfigFormat> launchScriptFormat(std::string_view bytes);
/// A launch script's command read into one tree, each key marked with the line and column where it stands in the
/// script: Hydra's dotted overrides (verl), or argparse's options (OpenRLHF: `--flag` alone is true, several values
/// a list, the entry point after `openrlhf.cli.` kept as `entry_point`). NAME=value lines the script sets before the
/// command resolve $NAME and ${NAME} in it.
Result<ConfigDocument> readLaunchScript(std::string_view bytes, std::string path);
/// OpenRLHF's current (v0.10.2 and later) name of an option its entry point spelled before v0.10.2, which renamed
/// them all without aliases (commit ed62d0e2): "pretrain" under train_ppo_ray is "actor.model_name_or_path".
std::optional<std::string> openRlhfCurrentFlag(std::string_view entryPoint, std::string_view flag);

} // namespace gpusizer::core::detail
