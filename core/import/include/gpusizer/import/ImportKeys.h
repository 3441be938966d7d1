#pragma once
// The keys each training-config format's reader reads, as docs/import.md shows them: printed from the same tables
// the readers walk (gpusizer-cli import-keys), so the page cannot drift from the code.

#include "gpusizer/import/TrainingConfig.h"

#include <string>
#include <vector>

namespace gpusizer::core {

struct ImportKey {
    std::string key;      ///< markdown: the key in backticks, with its values where the page lists them
    std::string field;    ///< the scenario field it sets, or what happens (noted, ignored)
    std::string fallback; ///< the framework's default when the file leaves the key out
    std::string source;   ///< the framework file, below the table's snapshot (whole where it is another's)
    std::string citation; ///< the whole source, with its repository and commit ("" for an ignored key)
};

struct ImportKeyTable {
    ConfigFormat format;
    std::string snapshot; ///< the repository and commit every source is read at ("axolotl @067b021c")
    std::vector<ImportKey> keys;
};

/// Every format's keys, in reading order (a format with several tables, such as PEFT's per adapter type, has one
/// entry for each).
std::vector<ImportKeyTable> importKeyTables();

} // namespace gpusizer::core
