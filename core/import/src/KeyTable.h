#pragma once
// A format's keys as data: one row a key, with the scenario field it sets, how its value is read and checked, the
// framework's default when the file leaves it out, and the framework source that says so. The reader walks its
// format's rows in order; the few keys that need code (a validator's rule, a value that depends on another file)
// name the step that reads them. docs/import.md is printed from the same rows (gpusizer-cli import-keys), so the page
// and the reader cannot drift.

#include "TrainingConfigImport.h"
#include "gpusizer/scenario/JsonRead.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace gpusizer::core::detail {

enum class ValueKind {
    Flag,
    Integer,
    Number,
    Text,
    List,
    Ignored, ///< a key that does not change the estimate: reported with `why`
    Step,    ///< read by the named step (or by the step of a row before it)
};

struct KeyRow {
    const char* key = "";   ///< as the file spells it, below the reader's prefix ("zero_optimization.stage")
    const char* field = ""; ///< the scenario field it sets (the field table's key), "" when none
    ValueKind kind = ValueKind::Step;
    double min = 0;
    double max = 0;
    /// The framework's default when the key is absent, as text ("1", "true", "adamw_torch_fused"); nullptr: none
    /// (the field keeps what the run has).
    const char* fallback = nullptr;
    const char* source = ""; ///< the framework file (and commit) that defines the key or its default
    // What the walker does with a value it read; a row with none of these is read by a step.
    void (*setFlag)(RunDraft&, bool) = nullptr;
    void (*setInteger)(RunDraft&, std::int64_t) = nullptr;
    void (*setNumber)(RunDraft&, double) = nullptr;
    /// A named conversion of a text value (an optimizer name, an attention implementation).
    Result<void> (*convert)(KeyReader&, const std::string& key, const std::string& value) = nullptr;
    /// The code that reads this key (and the rows after it that name no reader of their own), below the prefix.
    Result<void> (*step)(KeyReader&, const std::string& prefix) = nullptr;
    const char* why = ""; ///< Ignored: the reason the report gives
    // What docs/import.md shows where it says more than the key, the field and the default.
    const char* shownKey = nullptr;
    const char* shownField = nullptr;
    const char* shownDefault = nullptr;
};

/// One format's rows; `snapshot` is the prefix its sources share ("axolotl @067b021c "), which the page states once.
struct KeyTable {
    ConfigFormat format;
    const char* snapshot;
    std::span<const KeyRow> rows;
};

/// The row of `key` in `rows`, found while compiling: a step cannot read a key its table does not list.
template <std::size_t N>
consteval const KeyRow& rowOf(const KeyRow (&rows)[N], std::string_view key) {
    for (const KeyRow& row : rows) {
        if (std::string_view(row.key) == key) {
            return row;
        }
    }
    throw "the format's table has no row for this key";
}

/// Reads every row in order below `prefix`: the direct rows into their fields, the step rows through their steps.
Result<void> walk(KeyReader& r, std::span<const KeyRow> rows, const std::string& prefix = "");

// A row's value, read at prefix + row.key (or at `key` where the file spells it another way), with the row's field,
// range, default and source. The report line is the same as the KeyReader call with those arguments.
Result<std::optional<bool>> readFlag(KeyReader& r, const KeyRow& row, const std::string& prefix = "");
Result<std::optional<bool>> readFlagAt(KeyReader& r, const KeyRow& row, const std::string& key,
                                       std::optional<bool> fallback);
Result<std::optional<std::int64_t>> readInteger(KeyReader& r, const KeyRow& row, const std::string& prefix = "");
Result<std::optional<std::int64_t>> readIntegerAt(KeyReader& r, const KeyRow& row, const std::string& key,
                                                  std::optional<std::int64_t> fallback);
Result<std::optional<double>> readNumber(KeyReader& r, const KeyRow& row, const std::string& prefix = "");
Result<std::optional<std::string>> readText(KeyReader& r, const KeyRow& row, const std::string& prefix = "");
Result<std::optional<std::string>> readTextAt(KeyReader& r, const KeyRow& row, const std::string& key);
Result<std::optional<std::vector<std::string>>> readList(KeyReader& r, const KeyRow& row,
                                                         const std::string& prefix = "");

/// Every format's tables, in the order docs/import.md shows them; each format file gives its own.
std::span<const KeyTable> keyTables();
std::span<const KeyTable> peftKeyTables();       ///< PEFT's adapter types and bitsandbytes (formats/Peft.cpp)
std::span<const KeyTable> accelerateKeyTables(); ///< accelerate and its FSDP keys (formats/Accelerate.cpp)
std::span<const KeyTable> deepspeedKeyTables();  ///< a DeepSpeed JSON (formats/DeepSpeed.cpp)
std::span<const KeyTable> litgptKeyTables();     ///< LitGPT finetune lora (formats/Litgpt.cpp)
std::span<const KeyTable> arcticKeyTables();     ///< ArcticTraining (formats/Arctic.cpp)
std::span<const KeyTable> verlKeyTables();       ///< verl's PPO trainer run as GRPO (formats/Verl.cpp)
std::span<const KeyTable> openRlhfKeyTables();   ///< OpenRLHF's PPO (as GRPO), DPO and SFT (formats/OpenRlhf.cpp)
std::span<const KeyTable> torchtuneKeyTables();  ///< torchtune recipes (formats/Torchtune.cpp)
std::span<const KeyTable> trainerKeyTables(); ///< transformers TrainingArguments and TRL configs (formats/Trainer.cpp)
std::span<const KeyTable> llamaFactoryKeyTables(); ///< LLaMA-Factory (formats/LlamaFactory.cpp)
std::span<const KeyTable> axolotlKeyTables();      ///< Axolotl (formats/Axolotl.cpp)

} // namespace gpusizer::core::detail
