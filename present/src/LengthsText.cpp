#include "gpusizer/present/LengthsText.h"

#include "gpusizer/present/Format.h"

#include <cstdio>

namespace gpusizer::present {

namespace {

std::string decimal(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", value);
    return text;
}

} // namespace

Message lengthsSummary(const core::DatasetLengths& d) {
    return msg(
        QT_TRANSLATE_NOOP("gpusizer", "%1 examples, %2 tokens: longest %3, p99 %4, p95 %5, median %6, mean %7 tokens"),
        count(d.count), count(d.totalTokens), count(d.longest), count(d.p99), count(d.p95), decimal(d.median),
        decimal(d.mean));
}

Message basisName(core::LengthBasis basis) {
    switch (basis) {
    case core::LengthBasis::P99:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "p99"));
    case core::LengthBasis::P95:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "p95"));
    case core::LengthBasis::Longest:
        break;
    }
    return msg(QT_TRANSLATE_NOOP("gpusizer", "the longest example"));
}

Message lengthsChoice(const core::DatasetLengths& d, core::LengthBasis basis) {
    const core::LengthCut& cut = d.at(basis);
    if (cut.truncatedExamples == 0) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Sequence length %1 (%2): no example is cut; %3 tokens per epoch."),
                   count(cut.seqLen), basisName(basis), count(cut.tokens));
    }
    if (cut.truncatedExamples == 1) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Sequence length %1 (%2): one example is cut, losing %3 tokens; %4 "
                                                 "tokens per epoch."),
                   count(cut.seqLen), basisName(basis), count(cut.truncatedTokens), count(cut.tokens));
    }
    return msg(QT_TRANSLATE_NOOP("gpusizer", "Sequence length %1 (%2): %3 examples are cut, losing %4 tokens; %5 "
                                             "tokens per epoch."),
               count(cut.seqLen), basisName(basis), count(cut.truncatedExamples), count(cut.truncatedTokens),
               count(cut.tokens));
}

Message lengthsBatching(const core::DatasetLengths& d, core::LengthBasis basis) {
    const core::LengthCut& cut = d.at(basis);
    return msg(QT_TRANSLATE_NOOP("gpusizer", "At micro-batch %1, batches padded to their longest example compute %2 "
                                             "tokens per epoch in %3 steps; packed, %4 tokens in %5 steps."),
               count(d.microBatch), count(cut.paddedTokens), count(cut.paddedBatches), count(cut.packedTokens),
               count(cut.packedBatches));
}

std::vector<LengthBin> lengthBins(const core::DatasetLengths& d) {
    std::vector<LengthBin> bins;
    for (std::size_t i = 0; i < d.histogramCounts.size(); ++i) {
        bins.push_back({count(d.histogramEdges[i] + 1) + "–" + count(d.histogramEdges[i + 1]), d.histogramCounts[i]});
    }
    return bins;
}

} // namespace gpusizer::present
