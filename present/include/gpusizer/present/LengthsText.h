#pragma once
// The user's data lengths (the dataset script's result): the import dialog, the CLI's import-lengths, the report.

#include "gpusizer/present/Message.h"
#include "gpusizer/scenario/DatasetLengths.h"

#include <string>
#include <vector>

namespace gpusizer::present {

/// "1,000 examples, 2,345,678 tokens: longest 4,101, p99 3,500, p95 2,900, median 1,800, mean 2,345.7".
Message lengthsSummary(const core::DatasetLengths& d);

/// What a sequence length from the basis means: nothing cut at the longest, else the examples and tokens cut.
Message lengthsChoice(const core::DatasetLengths& d, core::LengthBasis basis);

/// Padded against packed micro-batches at that length: the tokens each computes per epoch.
Message lengthsBatching(const core::DatasetLengths& d, core::LengthBasis basis);

/// One histogram bin: its label ("1–64", "65–128") and how many examples it holds.
struct LengthBin {
    std::string label;
    std::int64_t count = 0;
};
std::vector<LengthBin> lengthBins(const core::DatasetLengths& d);

/// The basis as a user reads it: "the longest example", "p99", "p95".
Message basisName(core::LengthBasis basis);

} // namespace gpusizer::present
