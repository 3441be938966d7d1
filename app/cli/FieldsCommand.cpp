#include "Commands.h"
#include "gpusizer/present/InputsText.h"
#include "gpusizer/present/Names.h"
#include "gpusizer/present/Table.h"
#include "gpusizer/scenario/ScenarioFields.h"

#include <nlohmann/json.hpp>

namespace gpusizer::cli {

int fieldsCommand(const Args& a, std::ostream& out, std::ostream& err) {
    (void)err;
    if (a.json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& f : core::scenarioFields()) {
            nlohmann::json j{{"key", f.key},
                             {"label", present::english(present::fieldLabel(f))},
                             {"description", present::english(present::fieldTooltip(f))}};
            switch (f.type) {
            case core::FieldType::Integer:
            case core::FieldType::Number:
                j["type"] = f.type == core::FieldType::Integer ? "integer" : "number";
                j["min"] = f.min;
                j[f.maxExclusive ? "below" : "max"] = f.max;
                j["default"] = f.defaultValue;
                break;
            case core::FieldType::Flag:
                j["type"] = "boolean";
                j["default"] = f.defaultValue != 0.0;
                break;
            case core::FieldType::Choice: {
                j["type"] = "choice";
                nlohmann::json codes = nlohmann::json::array();
                for (const auto& c : f.choices) {
                    codes.push_back(c.code);
                }
                j["choices"] = codes;
                j["default"] = f.codeOf(static_cast<int>(f.defaultValue));
                break;
            }
            case core::FieldType::Special:
                j["type"] = "special";
                break;
            }
            list.push_back(j);
        }
        out << nlohmann::json{{"format", "gpusizer-fields"}, {"version", 1}, {"fields", list}}.dump(2) << "\n";
        return kOk;
    }
    out << "Scenario file fields (gpusizer-scenario version 1):\n";
    out << present::renderText(present::fieldsTable().select(
        {present::FieldKey, present::FieldType_, present::FieldRange, present::FieldDefault}));
    return kOk;
}

} // namespace gpusizer::cli
