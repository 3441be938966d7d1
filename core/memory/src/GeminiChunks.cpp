// ColossalAI Gemini's parameter chunks (colossalai/zero/gemini @4f9953be): the chunk size its search picks and what the
// packing pads, from the model's parameters in registration order.

#include "EstimatorStages.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

namespace gpusizer::core::detail {

namespace {

constexpr std::int64_t kMi = 1024 * 1024;
constexpr std::int64_t kMinChunk = 32 * kMi;    // GeminiPlugin min_chunk_size_m=32
constexpr std::int64_t kSearchRange = 32 * kMi; // search_range_m=32
constexpr std::int64_t kSearchInterval = 1024;  // init_chunk_manager without hidden_dim (chunk/utils.py L27-30)

/// The language model's parameters as model.parameters() yields them for a transformers decoder: the embedding, each
/// layer's linears in order then its norms and biases, the final norm and an untied lm_head. Routed experts are one
/// stacked tensor per projection where transformers 5 fuses them, one per expert otherwise.
std::vector<std::int64_t> parameterSizes(const Context& ctx) {
    const ParamCounts& p = ctx.params;
    const std::int64_t layers = std::max<std::int64_t>(1, ctx.arch.numLayers);
    std::vector<std::int64_t> sizes{p.embedding};
    const std::int64_t othersPerLayer = p.layerOther / layers;
    for (std::int64_t layer = 0; layer < layers; ++layer) {
        for (const auto& g : ctx.groups) {
            const std::int64_t perLayer = std::max<std::int64_t>(1, g.count / layers);
            const std::int64_t weight = g.inFeatures * g.outFeatures;
            if (g.routedExpert && ctx.prof.transformersExperts) {
                sizes.push_back(weight * perLayer);
            } else {
                sizes.insert(sizes.end(), static_cast<std::size_t>(perLayer), weight);
            }
        }
        if (othersPerLayer > 0) { // two norms (and biases) of the layer
            sizes.push_back(othersPerLayer / 2);
            sizes.push_back(othersPerLayer - othersPerLayer / 2);
        }
    }
    sizes.push_back(p.finalNorm);
    if (p.lmHead > 0) {
        sizes.push_back(p.lmHead);
    }
    sizes.erase(std::remove(sizes.begin(), sizes.end(), 0), sizes.end());
    return sizes;
}

/// search_utils.py _get_unused_byte: the elements a packing of `sizes` into chunks of `chunk` leaves unused.
std::int64_t unusedElements(std::span<const std::int64_t> sizes, std::int64_t chunk) {
    std::int64_t acc = 0;
    std::int64_t left = 0;
    for (const std::int64_t s : sizes) {
        if (s > left) {
            acc += left;
            left = chunk;
        }
        left -= s;
    }
    return left + acc;
}

/// search_utils.py search_chunk_configuration: sizes beyond the mean + 3 sigma left out (_filter_exlarge_params), the
/// size of least waste from max(32 Mi, the largest left) up 32 Mi in steps of 1,024, rounded up to the ranks.
std::int64_t searchedChunk(const std::vector<std::int64_t>& sizes, std::int64_t ranks) {
    double mean = 0;
    for (const std::int64_t s : sizes) {
        mean += static_cast<double>(s);
    }
    mean /= static_cast<double>(sizes.size());
    double variance = 0;
    for (const std::int64_t s : sizes) {
        variance += (static_cast<double>(s) - mean) * (static_cast<double>(s) - mean);
    }
    const double upper = mean + 3.0 * std::sqrt(variance / static_cast<double>(sizes.size()));
    std::vector<std::int64_t> kept;
    for (const std::int64_t s : sizes) {
        if (static_cast<double>(s) <= upper) {
            kept.push_back(s);
        }
    }
    std::int64_t largest = kMinChunk;
    for (const std::int64_t s : kept) {
        largest = std::max(largest, s);
    }
    const std::int64_t start = (largest + kSearchInterval - 1) / kSearchInterval * kSearchInterval;
    // The search scores its 32,769 sizes over the first 4,096 parameters (over 400 layers of a dense decoder, whose
    // pattern repeats), so that a model of thousands of layers still sizes at once; every real model fits in them.
    constexpr std::size_t kScored = 4096;
    const std::span<const std::int64_t> scored(kept.data(), std::min(kept.size(), kScored));
    std::int64_t best = start;
    std::int64_t leastWaste = -1;
    for (std::int64_t chunk = start; chunk <= start + kSearchRange; chunk += kSearchInterval) {
        const std::int64_t waste = unusedElements(scored, chunk);
        if (leastWaste < 0 || waste < leastWaste) {
            leastWaste = waste;
            best = chunk;
        }
    }
    return best + (ranks - best % ranks) % ranks;
}

} // namespace

GeminiChunks geminiChunks(const Context& ctx) {
    const std::vector<std::int64_t> sizes = parameterSizes(ctx);
    const auto ranks = static_cast<std::int64_t>(std::max(1.0, ctx.dp));
    std::int64_t total = 0;
    for (const std::int64_t s : sizes) {
        total += s;
    }
    GeminiChunks out;
    if (sizes.empty() || total < kMinChunk) {
        // A model under 32 Mi elements is one chunk kept gathered on every rank (search_chunk_configuration).
        out.chunk = static_cast<double>(total);
        out.headChunk = out.chunk;
        out.padded = out.chunk;
        out.keptGathered = true;
        return out;
    }
    // The search is deterministic per parameter list and rank count; plans ask it for every candidate layout.
    thread_local std::map<std::pair<std::vector<std::int64_t>, std::int64_t>, std::int64_t> searched;
    auto [it, inserted] = searched.try_emplace({sizes, ranks}, 0);
    if (inserted) {
        it->second = searchedChunk(sizes, ranks);
    }
    const std::int64_t chunk = it->second;
    // manager.py register_tensor: a tensor that does not fit closes the chunk and opens one of the searched size, or
    // of its own size rounded up to the ranks when it is larger.
    std::int64_t left = 0;
    std::int64_t opened = 0;
    std::int64_t padded = 0;
    for (const std::int64_t s : sizes) {
        if (s > left) {
            opened = s > chunk ? s + (ranks - s % ranks) % ranks : chunk;
            padded += opened;
            left = opened;
        }
        left -= s;
    }
    out.chunk = static_cast<double>(chunk);
    out.headChunk = static_cast<double>(ctx.params.lmHead > 0 ? opened : std::max(chunk, ctx.params.embedding));
    out.padded = static_cast<double>(padded);
    return out;
}

} // namespace gpusizer::core::detail
