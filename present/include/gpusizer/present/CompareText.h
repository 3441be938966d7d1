#pragma once
// Variants side by side (methods, optimizers, precision recipes): the Compare tab and the report.

#include "gpusizer/plan/Compare.h"
#include "gpusizer/present/Table.h"

#include <vector>

namespace gpusizer::present {

/// What the comparison varies.
enum class CompareAxis { Methods, Optimizers, Precisions };

/// A variant's column title: "Full fine-tuning", "8-bit AdamW", "bf16 + fp32 master weights".
Message variantLabel(const core::Variant& v, CompareAxis axis);
/// The same, as short as a bar of a chart can hold ("Full" for full fine-tuning; the other values are short).
Message variantChartLabel(const core::Variant& v, CompareAxis axis);

/// Rows of compareTable().
enum CompareRow : std::size_t { CompareDevice = 7, CompareAllocated, CompareTrainable, CompareCheapest };

/// One column per variant; rows: every component, the device total (bold), the allocated peak, the trainable
/// parameters and what the planner would rent.
/// `compactHeaders`: each column headed by its chart label with the full one in the tooltip (the window, where the
/// chart beside the table needs the width); otherwise the full label (the report).
Table compareTable(const std::vector<core::Variant>& variants, CompareAxis axis, bool compactHeaders = false);

} // namespace gpusizer::present
