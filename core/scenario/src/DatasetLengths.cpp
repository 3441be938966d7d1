#include "gpusizer/scenario/DatasetLengths.h"

#include "gpusizer/scenario/JsonRead.h"
#include "gpusizer/scenario/Scenario.h"

#include <array>
#include <nlohmann/json.hpp>
#include <utility>

namespace gpusizer::core {

using detail::ObjectReader;
using nlohmann::json;

namespace {

constexpr std::int64_t kMaxTokens = 1'000'000'000'000'000; // 1e18: far beyond any dataset
constexpr std::int64_t kMaxLength = 100'000'000;           // tokens in one example

constexpr std::array<std::pair<LengthBasis, const char*>, 3> kBases{
    {{LengthBasis::Longest, "max"}, {LengthBasis::P99, "p99"}, {LengthBasis::P95, "p95"}}};

Result<LengthCut> readCut(const ObjectReader& r) {
    LengthCut c;
    GPUSIZER_ASSIGN(c.seqLen, r.integer("seq_len", 1, kMaxLength));
    GPUSIZER_ASSIGN(c.truncatedExamples, r.integer("truncated_examples", 0, kMaxTokens));
    GPUSIZER_ASSIGN(c.truncatedTokens, r.integer("truncated_tokens", 0, kMaxTokens));
    GPUSIZER_ASSIGN(c.tokens, r.integer("tokens", 1, kMaxTokens));
    GPUSIZER_ASSIGN(c.paddedBatches, r.integer("padded_batches", 1, kMaxTokens));
    GPUSIZER_ASSIGN(c.paddedTokens, r.integer("padded_tokens", 1, kMaxTokens));
    GPUSIZER_ASSIGN(c.packedBatches, r.integer("packed_batches", 1, kMaxTokens));
    GPUSIZER_ASSIGN(c.packedTokens, r.integer("packed_tokens", 1, kMaxTokens));
    return c;
}

json cutToJson(const LengthCut& c) {
    return {{"seq_len", c.seqLen},
            {"truncated_examples", c.truncatedExamples},
            {"truncated_tokens", c.truncatedTokens},
            {"tokens", c.tokens},
            {"padded_batches", c.paddedBatches},
            {"padded_tokens", c.paddedTokens},
            {"packed_batches", c.packedBatches},
            {"packed_tokens", c.packedTokens}};
}

Result<std::vector<std::int64_t>> readIntegers(const json& list, const std::string& where) {
    if (!list.is_array() || list.empty()) {
        return fail(ErrorCode::WrongType, QT_TRANSLATE_NOOP("gpusizer", "must be a list of whole numbers"), where);
    }
    std::vector<std::int64_t> out;
    for (const json& v : list) {
        if (!v.is_number_integer() || v.get<std::int64_t>() < 0) {
            return fail(ErrorCode::WrongType, QT_TRANSLATE_NOOP("gpusizer", "must be a list of whole numbers"), where);
        }
        out.push_back(v.get<std::int64_t>());
    }
    return out;
}

Result<void> readHistogram(const ObjectReader& r, DatasetLengths& d) {
    GPUSIZER_ASSIGN(auto histogram, r.object("histogram"));
    const std::string edgesWhere = histogram.field("edges");
    const std::string countsWhere = histogram.field("counts");
    if (!histogram.has("edges") || !histogram.has("counts")) {
        return fail(ErrorCode::MissingField, QT_TRANSLATE_NOOP("gpusizer", "the histogram needs edges and counts"),
                    r.field("histogram"));
    }
    GPUSIZER_ASSIGN(d.histogramEdges, readIntegers(histogram.raw()["edges"], edgesWhere));
    GPUSIZER_ASSIGN(d.histogramCounts, readIntegers(histogram.raw()["counts"], countsWhere));
    std::int64_t counted = 0;
    for (const std::int64_t c : d.histogramCounts) {
        counted += c;
    }
    if (d.histogramEdges.size() != d.histogramCounts.size() + 1 || counted != d.count) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "the histogram must have one more edge than counts, and count "
                                                  "every example"),
                    r.field("histogram"));
    }
    return {};
}

Result<DatasetLengths> readLengths(const ObjectReader& r) {
    DatasetLengths d;
    GPUSIZER_ASSIGN(auto source, r.optionalString("source"));
    d.source = source.value_or("");
    GPUSIZER_ASSIGN(auto tokenizer, r.optionalString("tokenizer"));
    d.tokenizer = tokenizer.value_or("");
    GPUSIZER_ASSIGN(d.count, r.integer("count", 1, kMaxTokens));
    GPUSIZER_ASSIGN(d.totalTokens, r.integer("total_tokens", 1, kMaxTokens));
    GPUSIZER_ASSIGN(d.longest, r.integer("max", 1, kMaxLength));
    GPUSIZER_ASSIGN(d.p99, r.integer("p99", 1, d.longest));
    GPUSIZER_ASSIGN(d.p95, r.integer("p95", 1, d.p99));
    GPUSIZER_ASSIGN(d.median, r.number("median", 0, static_cast<double>(d.longest)));
    GPUSIZER_ASSIGN(d.mean, r.number("mean", 0, static_cast<double>(d.longest)));
    GPUSIZER_ASSIGN(d.microBatch, r.integer("micro_batch", 1, 1'000'000));
    GPUSIZER_CHECK(readHistogram(r, d));
    GPUSIZER_ASSIGN(auto at, r.object("at"));
    for (const auto& [basis, key] : kBases) {
        GPUSIZER_ASSIGN(auto one, at.object(key));
        GPUSIZER_ASSIGN(auto cut, readCut(one));
        (basis == LengthBasis::Longest ? d.atLongest : basis == LengthBasis::P99 ? d.atP99 : d.atP95) = cut;
    }
    if (d.atLongest.seqLen != d.longest || d.atP99.seqLen != d.p99 || d.atP95.seqLen != d.p95) {
        return fail(ErrorCode::Inconsistent,
                    QT_TRANSLATE_NOOP("gpusizer", "each length in 'at' must be the figure it is named after"),
                    r.field("at"));
    }
    GPUSIZER_ASSIGN(auto basis, r.optionalString("basis"));
    if (basis) {
        const auto known = lengthBasisFromString(*basis);
        if (!known) {
            return fail(ErrorCode::UnknownValue, QT_TRANSLATE_NOOP("gpusizer", "'basis' must be max, p99 or p95"),
                        r.field("basis"));
        }
        d.basis = *known;
    }
    return d;
}

} // namespace

const LengthCut& DatasetLengths::at(LengthBasis b) const {
    switch (b) {
    case LengthBasis::P99:
        return atP99;
    case LengthBasis::P95:
        return atP95;
    case LengthBasis::Longest:
        break;
    }
    return atLongest;
}

Result<DatasetLengths> parseDatasetLengths(std::string_view bytes, std::string_view whereView) {
    const std::string where(whereView);
    GPUSIZER_ASSIGN(json doc, detail::parseDocument(bytes, where));
    if (!doc.is_object()) {
        return fail(ErrorCode::WrongFormat, QT_TRANSLATE_NOOP("gpusizer", "dataset lengths must be a JSON object"),
                    where);
    }
    const ObjectReader r(doc, where);
    GPUSIZER_CHECK(detail::checkFormatVersion(
        r, "gpusizer-lengths", QT_TRANSLATE_NOOP("gpusizer", "'format' is '%1', expected 'gpusizer-lengths'")));
    return readLengths(r);
}

std::string datasetLengthsToJson(const DatasetLengths& d) {
    json at = json::object();
    for (const auto& [basis, key] : kBases) {
        at[key] = cutToJson(d.at(basis));
    }
    const json doc{{"format", "gpusizer-lengths"},
                   {"version", 1},
                   {"source", d.source},
                   {"tokenizer", d.tokenizer},
                   {"count", d.count},
                   {"total_tokens", d.totalTokens},
                   {"max", d.longest},
                   {"p99", d.p99},
                   {"p95", d.p95},
                   {"median", d.median},
                   {"mean", d.mean},
                   {"micro_batch", d.microBatch},
                   {"histogram", {{"edges", d.histogramEdges}, {"counts", d.histogramCounts}}},
                   {"at", at},
                   {"basis", toString(d.basis)}};
    return doc.dump(1);
}

void applyDatasetLengths(Scenario& scenario, DatasetLengths lengths, LengthBasis basis) {
    lengths.basis = basis;
    scenario.seqLen = lengths.at(basis).seqLen;
    scenario.dataset = std::move(lengths);
}

std::optional<double> datasetTokens(const Scenario& scenario) {
    if (!scenario.dataset) {
        return std::nullopt;
    }
    return static_cast<double>(scenario.dataset->at(scenario.dataset->basis).tokens);
}

const char* toString(LengthBasis basis) {
    for (const auto& [b, key] : kBases) {
        if (b == basis) {
            return key;
        }
    }
    return "max";
}

std::optional<LengthBasis> lengthBasisFromString(std::string_view text) {
    for (const auto& [b, key] : kBases) {
        if (text == key) {
            return b;
        }
    }
    return std::nullopt;
}

} // namespace gpusizer::core
