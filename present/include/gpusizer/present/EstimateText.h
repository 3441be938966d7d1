#pragma once
// An estimate and its measurements as tables: the breakdown, the CLI's estimate, the report's memory section.

#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Measurement.h"
#include "gpusizer/present/Table.h"

#include <vector>

namespace gpusizer::present {

/// Columns of componentTable().
enum ComponentColumn : std::size_t { CompName, CompKey, CompBytes, CompShare, CompHolds };

/// Every component per GPU at the peak, its share of the device figure and what it holds, then the device total
/// (keys: the component keys, "total").
Table componentTable(const core::Estimate& e);

/// One measured run of the scenario and its comparison with the estimate.
struct MeasuredRun {
    Message label; ///< the GPU's name, or "CPU smoke run"
    core::MeasuredComparison comparison;
};

/// Columns of measuredTable().
enum MeasuredColumn : std::size_t { MeasRun, MeasFigure, MeasEstimated, MeasMeasured, MeasError };

/// Estimated against measured, one row per figure of each run (memory in GiB, step time in seconds).
Table measuredTable(const std::vector<MeasuredRun>& runs);

/// A run's label: the GPU it ran on, or the CPU smoke run.
Message runLabel(const core::Measurement& m);

} // namespace gpusizer::present
