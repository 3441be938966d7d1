#pragma once
// The CLI's versioned JSON documents, next to the tables they mirror: each "format" / "version" pair is a contract
// (docs/README's CLI section); bytes are integers, words are English.

#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Advisor.h"
#include "gpusizer/plan/Bill.h"
#include "gpusizer/plan/FitTable.h"
#include "gpusizer/plan/Measurement.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/HfConfig.h"

#include <nlohmann/json.hpp>

namespace gpusizer::present {

/// {"format": "gpusizer-estimate", "version": 1, ...}
nlohmann::json estimateJson(const core::Estimate& estimate);

/// One candidate layout: the layout, its memory and verdict, and (when it fits) its step time and cost.
nlohmann::json candidateJson(const core::Candidate& c, const core::GpuSpec& gpu);

/// {"format": "gpusizer-fit" or "gpusizer-plan", "version": 2, ...}: per GPU your layout, the choice, runners-up and
/// the closest miss below; the inputs and the ranking.
nlohmann::json fitPlanJson(bool withCost, const std::vector<core::FitRow>& rows, const core::Ranking& ranking,
                           const core::PlanInputs& inputs, double margin);

/// The whole bill of the chosen plan and the one-hour test, added to the plan document as "bill" and
/// "one_hour_test" (null when nothing fits).
nlohmann::json billJson(const core::RunBill& bill, const core::PlanInputs& inputs);
nlohmann::json trialJson(const core::TrialHour& trial);

/// {"format": "gpusizer-advice", "version": 1, ...}
nlohmann::json adviceJson(const core::OomAdvice& advice, const core::Scenario& scenario, const core::GpuSpec& gpu,
                          const core::PlanInputs& inputs);

/// {"format": "gpusizer-sizing-table", "version": 1, ...}
nlohmann::json sizingJson(const std::vector<core::SizingRow>& rows, const core::Scenario& scenario);

/// {"format": "gpusizer-comparison", "version": 1, ...}
nlohmann::json comparisonJson(const core::Measurement& measurement, const core::MeasuredComparison& comparison);

/// {"format": "gpusizer-gpus", "version": 1, ...} and {"format": "gpusizer-models", "version": 1, ...}
nlohmann::json gpusJson(const core::Catalog& catalog);
nlohmann::json modelsJson(const core::Catalog& catalog);

/// {"format": "gpusizer-import", "version": 1, ...}
nlohmann::json importJson(const core::ImportedArch& imported);

} // namespace gpusizer::present
