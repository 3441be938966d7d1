#pragma once
// The whole bill in words and one table, for the Plan tab, the report and the CLI alike (core/Bill.h).

#include "gpusizer/plan/Bill.h"
#include "gpusizer/present/Table.h"

#include <string>
#include <vector>

namespace gpusizer::present {

/// Rows: GPU time, checkpoint writes, expected interruptions (spot), storage, traffic out, what a stopped instance
/// costs per day, the total (destroyed when done); columns: what it is, on demand, spot (expected).
Table billTable(const core::RunBill& bill, const core::PlanInputs& inputs);

/// "Checkpoint every 1.2 h (Young's optimum …): each write of 12.3 GiB takes 8 s on 1 node, 0.2% of the run."
Message intervalSentence(const core::RunBill& bill, const core::PlanInputs& inputs);

/// Spot against on demand: what it saves with the expected interruptions, or why it stops paying.
Message spotSentence(const core::RunBill& bill, const core::PlanInputs& inputs);

/// "First, one hour on 1 × GeForce RTX 4090 (…) for $0.30 measures about 1,200 steps at the real sequence length and
/// batch: export the measurement script and run it there." Or that nothing in the catalog fits.
Message trialSentence(const core::TrialHour& trial);

/// The order that ends the bill, with what each step costs or saves: finish, copy out, verify, destroy.
std::vector<Message> cleanupChecklist(const core::RunBill& bill, const core::PlanInputs& inputs);

/// "Prices as of 2025-06 (18 months before 2026-12-01), neocloud list prices, illustrative: check before renting."
/// `today` is "YYYY-MM-DD" (the caller's clock: present does not read one).
Message priceAgeSentence(const core::GpuSpec& gpu, const std::string& today);

} // namespace gpusizer::present
