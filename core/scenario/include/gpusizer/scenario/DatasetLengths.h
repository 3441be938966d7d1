#pragma once

#include "gpusizer/scenario/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpusizer::core {

struct Scenario;

/// What seq_len is set from: the longest example (nothing cut), or a percentile (the rest truncated).
enum class LengthBasis { Longest, P99, P95 };

/// Training at one sequence length on the user's data (the dataset script's figures, per epoch).
struct LengthCut {
    std::int64_t seqLen = 0;
    std::int64_t truncatedExamples = 0; ///< examples longer than seqLen, cut
    std::int64_t truncatedTokens = 0;   ///< tokens lost to the cut
    std::int64_t tokens = 0;            ///< tokens trained: every example up to seqLen
    std::int64_t paddedBatches = 0;     ///< micro-batches when each is padded to its longest example
    std::int64_t paddedTokens = 0;      ///< tokens those padded micro-batches compute
    std::int64_t packedBatches = 0;     ///< micro-batches when examples are packed into full sequences
    std::int64_t packedTokens = 0;
};

/// The length distribution of the user's data, written by the dataset script (format "gpusizer-lengths") and kept
/// with the scenario: memory is sized by the longest sequence, time and cost by the tokens.
struct DatasetLengths {
    std::string source;    ///< the data the script read
    std::string tokenizer; ///< what tokenized it
    std::int64_t count = 0;
    std::int64_t totalTokens = 0;
    std::int64_t longest = 0;
    std::int64_t p99 = 0; ///< nearest-rank percentiles
    std::int64_t p95 = 0;
    double median = 0;
    double mean = 0;
    std::int64_t microBatch = 1;               ///< the micro-batch the padded and packed figures are for
    std::vector<std::int64_t> histogramEdges;  ///< bin i holds lengths in (edges[i], edges[i+1]]
    std::vector<std::int64_t> histogramCounts; ///< one per bin
    LengthCut atLongest, atP99, atP95;
    LengthBasis basis = LengthBasis::Longest; ///< what the scenario's seq_len was set from

    const LengthCut& at(LengthBasis b) const;
};

/// Reads a dataset script result, or the "dataset" object of a scenario file; refuses a malformed one with the
/// field and the reason.
Result<DatasetLengths> parseDatasetLengths(std::string_view bytes, std::string_view where);

/// The same document, as written into a scenario file.
std::string datasetLengthsToJson(const DatasetLengths& lengths);

/// Keeps the lengths with the scenario and sets its sequence length from the basis.
void applyDatasetLengths(Scenario& scenario, DatasetLengths lengths, LengthBasis basis);

/// Tokens per epoch the scenario's data trains (after truncation), when its lengths are known.
std::optional<double> datasetTokens(const Scenario& scenario);

const char* toString(LengthBasis basis);
std::optional<LengthBasis> lengthBasisFromString(std::string_view text);

} // namespace gpusizer::core
