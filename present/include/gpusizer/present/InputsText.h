#pragma once
// The scenario as a table of settings (the report's inputs, the CLI's `fields`), from the field table: every field
// that applies to the method with its value and whether it is the default.

#include "gpusizer/present/Table.h"
#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/Scenario.h"

namespace gpusizer::present {

/// "Llama-3.1-8B (catalog id llama-3.1-8b)", "Imported: my-model", "Llama-style model of 8.0 B (from the size)".
Message modelDescription(const core::Scenario& s);
/// "LoRA r16 on q_proj, v_proj", "QLoRA (NF4 + double quantization) r16 on …", "full fine-tuning".
Message methodDescription(const core::Scenario& s);

/// Columns of inputsTable().
enum InputsColumn : std::size_t { InputSetting, InputValue, InputDefault };

/// Model, architecture and parameters, then every field of the table that applies to the method, then the GPU in
/// mind; "default" where the value is the field's default. Keys: the field keys.
Table inputsTable(const core::Scenario& s, const core::Catalog& catalog);

/// Columns of fieldsTable().
enum FieldsColumn : std::size_t { FieldKey, FieldType_, FieldRange, FieldDefault, FieldWhat };

/// The scenario file's fields: key, type, allowed values, default, what it changes (`gpusizer-cli fields`).
Table fieldsTable();

} // namespace gpusizer::present
