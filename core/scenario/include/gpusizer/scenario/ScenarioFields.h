#pragma once
// Every scenario field declared once: its JSON key, type, range, default, words and the methods it applies to. The
// scenario file's reader and writer, validate(), the input panel, the report's inputs table and the CLI's `fields`
// command all read this table, so a limit or a default cannot disagree between them.
//
// The words are translation ids (English source texts marked for lupdate, context "gpusizer"): data, not sentences;
// the presentation layer translates them.

#include "gpusizer/scenario/Result.h"
#include "gpusizer/scenario/Scenario.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpusizer::core {

/// How a field is stored in the file and edited in the window.
enum class FieldType {
    Integer, ///< a whole number within [min, max]
    Number,  ///< a real number within [min, max] (or below max when maxExclusive)
    Flag,    ///< true or false
    Choice,  ///< one code out of `choices`
    Special, ///< read and written by its own code (the model, LoRA targets, the GPU, measurements, overrides)
};

/// Methods a field applies to (a LoRA setting means nothing for full fine-tuning).
enum MethodMask : unsigned {
    kForFull = 1U,
    kForLora = 2U,
    kForQlora = 4U,
    kForAdapters = kForLora | kForQlora,
    kForAll = kForFull | kForLora | kForQlora,
};
bool appliesTo(unsigned methods, Method m);

/// One code of a choice field and the enum value it stands for.
struct FieldChoice {
    std::string code; ///< as in the file ("bf16-fp32-master")
    int value = 0;    ///< the enum value
};

struct ScenarioField {
    const char* key = ""; ///< JSON key; "lora.rank" lives in the "lora" object
    FieldType type = FieldType::Special;
    const char* label = "";   ///< translation id, e.g. "Micro-batch"
    const char* tooltip = ""; ///< translation id: what it changes
    unsigned methods = kForAll;
    double min = 0, max = 0; ///< Integer, Number
    bool maxExclusive = false;
    double defaultValue = 0; ///< Integer, Number, Flag (0/1), Choice (the enum value)
    std::vector<FieldChoice> choices;
    std::function<double(const Scenario&)> get; ///< the value as a number (an enum's value for choices)
    std::function<void(Scenario&, double)> set;
    /// Written only when this says so (e.g. checkpoint_every only with every-n-th checkpointing); null: always.
    std::function<bool(const Scenario&)> writtenWhen;
    /// The window enables the control only when this says so (the image fields need a vision-language model); null:
    /// whenever the field applies to the method.
    std::function<bool(const Scenario&)> enabledWhen;

    /// The JSON key within its object ("rank" for "lora.rank") and whether it lives in "lora".
    std::string leafKey() const;
    bool inLora() const;
    /// The code of a choice value ("" when none matches).
    std::string codeOf(int value) const;
};

/// The table, in the order the file is read (which decides which of several errors is reported first).
const std::vector<ScenarioField>& scenarioFields();
/// The table for tests that check everything follows it (a changed range must reach JSON, validation and the UI).
std::vector<ScenarioField>& mutableScenarioFields();
/// A field by key, or nullptr.
const ScenarioField* findField(std::string_view key);

/// The range check of a numeric field: nullopt when `value` is allowed, else the words "must be between 1 and 65,536".
std::optional<Words> rangeProblem(const ScenarioField& field, double value);

} // namespace gpusizer::core
