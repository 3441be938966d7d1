// The tiles PyTorch's grouped GEMM runs for a MoE block's experts, beyond the useful work (docs/planning.md, "Grouped
// experts"). The card's utilisation comes from dense matmuls whose rows fill their tiles; a grouped GEMM splits a
// micro-batch's rows among the experts, pads each group's last tile and runs a fixed tile shape, so at a few hundred
// rows per expert a sizeable share of its tiles is padding or an unfilled last wave.

#include "PlanningParts.h"
#include "gpusizer/plan/Planning.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace gpusizer::core {

namespace {

/// E[ceil(X / tile)] and E[ceil(X / tile)^2] for X ~ Poisson(meanRows), summed over 10 standard deviations either side
/// of the mean (beyond them the probabilities are below 1e-22 of the total). The probabilities are stepped from the
/// mode, p(x + 1) = p(x) m / (x + 1), so a planner's search pays a multiply per term.
std::pair<double, double> summedTileMoments(double meanRows, double tile) {
    const double spread = 10.0 * std::sqrt(meanRows) + 2.0;
    const double mode = std::floor(meanRows);
    const double atMode = std::exp(mode * std::log(meanRows) - meanRows - std::lgamma(mode + 1.0));
    double mean = 0;
    double square = 0;
    const auto add = [&](double rows, double probability) {
        const double tiles = std::ceil(rows / tile);
        mean += probability * tiles;
        square += probability * tiles * tiles;
    };
    add(mode, atMode);
    double probability = atMode;
    for (double rows = mode + 1.0; rows <= meanRows + spread; rows += 1.0) {
        probability *= meanRows / rows;
        add(rows, probability);
    }
    probability = atMode;
    for (double rows = mode - 1.0; rows >= 0.0 && rows >= meanRows - spread; rows -= 1.0) {
        probability *= (rows + 1.0) / meanRows;
        add(rows, probability);
    }
    return {mean, square};
}

/// The same, remembered: a planner's search asks for the same few group sizes on every card and layout.
std::pair<double, double> tileMoments(double meanRows, double tile) {
    if (meanRows <= 0 || tile <= 0) {
        return {0.0, 0.0};
    }
    thread_local std::map<std::pair<double, double>, std::pair<double, double>> known;
    const auto key = std::make_pair(meanRows, tile);
    if (const auto it = known.find(key); it != known.end()) {
        return it->second;
    }
    if (known.size() > 4096) {
        known.clear();
    }
    return known[key] = summedTileMoments(meanRows, tile);
}

} // namespace

double expectedTilesPerGroup(double meanRows, double tile) {
    return tileMoments(meanRows, tile).first;
}

GroupedMmTile groupedMmTile(const GpuSpec& gpu, double meanRowsPerGroup, double columns) {
    const int major = static_cast<int>(std::floor(gpu.computeCapability + 1e-9));
    if (major == 10) {
        return {.available = true, .m = 64, .n = 128, .k = 128};
    }
    if (major != 9) {
        return {};
    }
    if (meanRowsPerGroup <= 128 || columns <= 128) {
        return {.available = true, .m = 64, .n = 128, .k = 128}; // the ping-pong kernel for small problems
    }
    return {.available = true, .m = 128, .n = 256, .k = 64}; // the cooperative kernel
}

namespace {

/// The grouped GEMM runs bf16 operands only; 16-bit weights of another kind, or fp32 ones under autocast (the
/// experts cast their input to the weights' dtype, integrations/moe.py _grouped_mm), take the loop of matmuls.
bool expertsComputeInBf16(const Scenario& s) {
    switch (s.precision) {
    case Precision::Bf16:
    case Precision::Bf16Fp32Master:
    case Precision::Bf16Bf16Master:
    case Precision::FsdpMixedBf16:
        return true;
    default:
        return false;
    }
}

/// GroupMM.cu launches every configuration with 2 x 1 x 1 clusters: CUTLASS's grouped scheduler rounds each group's
/// row tiles up to whole clusters (sm90_tile_scheduler_group.hpp, problem_blocks_m = round_up(ctas_along_m,
/// cluster_shape.m())), and a cluster's idle tile runs its main loop with it.
constexpr double kClusterRows = 2.0;

/// Tile slots the kernel occupies, E[ceil(T / SMs)] x SMs, for T = `weight` x U output tiles where U, a sum over the
/// groups, is about normal with the given mean and variance (its values whole numbers): the persistent scheduler hands
/// each SM one tile at a time, so the last wave is paid whole. Where the catalog states no SM count, the tiles.
double occupiedTileSlots(const GpuSpec& gpu, double weight, double mean, double variance) {
    if (gpu.smCount <= 0) {
        return weight * mean;
    }
    const double sms = static_cast<double>(gpu.smCount);
    const auto slotsFor = [&](double units) { return std::ceil(weight * units / sms - 1e-9) * sms; };
    const double sd = std::sqrt(std::max(0.0, variance));
    if (sd < 1e-6) {
        return slotsFor(mean);
    }
    const auto below = [&](double x) { return 0.5 * std::erfc(-(x - mean) / (sd * std::sqrt(2.0))); };
    double slots = 0;
    const auto last = static_cast<std::int64_t>(std::ceil(mean + 8.0 * sd));
    for (auto u = static_cast<std::int64_t>(std::max(0.0, std::floor(mean - 8.0 * sd))); u <= last; ++u) {
        const double units = static_cast<double>(u);
        slots += (below(units + 0.5) - below(units - 0.5)) * slotsFor(units);
    }
    return slots;
}

/// Work executed over useful work for one 2-D x 3-D grouped GEMM (the forward and the input gradient): `groups` of
/// `meanRows` rows each on average, `columns` outputs per row. Each group's rows run in whole clusters of tiles.
double rowGroupedOverhead(const GpuSpec& gpu, double meanRows, double groups, double columns) {
    const GroupedMmTile tile = groupedMmTile(gpu, meanRows, columns);
    if (!tile.available || meanRows <= 0) {
        return 1.0;
    }
    const auto [clusters, square] = tileMoments(meanRows, kClusterRows * tile.m);
    const double variance = std::max(0.0, square - clusters * clusters);
    const double slots =
        occupiedTileSlots(gpu, kClusterRows * std::ceil(columns / tile.n), groups * clusters, groups * variance);
    return slots * tile.m * tile.n / (groups * meanRows * columns);
}

/// The same for the weight gradient, a 2-D x 2-D grouped GEMM (`in` x `out` per expert) whose reduction runs over
/// each group's rows: every group's output tiles are whole (rows rounded up to whole clusters), the reduction pads its
/// last step of tile.k rows.
double reductionGroupedOverhead(const GpuSpec& gpu, double meanRows, double groups, double in, double out) {
    const GroupedMmTile tile = groupedMmTile(gpu, in, out);
    if (!tile.available || meanRows <= 0) {
        return 1.0;
    }
    const double rowTiles = kClusterRows * std::ceil(in / (kClusterRows * tile.m));
    const double slots = occupiedTileSlots(gpu, rowTiles * std::ceil(out / tile.n), groups, 0.0);
    return slots * tile.m * tile.n / (groups * in * out) * expectedTilesPerGroup(meanRows, tile.k) * tile.k / meanRows;
}

} // namespace

double groupedExpertsPaddedFlopsPerToken(const Scenario& s, const GpuSpec& gpu) {
    const ModelArch& a = s.model;
    if (!a.isMoe() || !detail::expertsRunAsGroupedMm(s, profileFor(s)) || !expertsComputeInBf16(s)) {
        return 0;
    }
    const double tokens = tokensPerGpu(s);
    const double k = static_cast<double>(a.moe.expertsPerToken);
    const double experts = static_cast<double>(a.moe.numExperts);
    // Under expert parallelism every rank of the group sees the same tokens and runs its own experts' share of them
    // (transformers' RouterParallel, integrations/tensor_parallel.py L1103-1160 @251c2d4f).
    const double groups = experts / static_cast<double>(std::max<std::int64_t>(1, s.expertParallel));
    if (tokens <= 0 || k <= 0 || groups < 1) {
        return 0;
    }
    const double rows = tokens * k / experts; // per expert, on average
    const double h = static_cast<double>(a.hiddenSize);
    const double width =
        static_cast<double>(a.moe.expertIntermediate > 0 ? a.moe.expertIntermediate : a.intermediateSize);
    const double up = a.mlp == MlpKind::Gated ? 2.0 * width : width; // gate_up_proj stacks gate and up
    // Padded FLOPs per routed copy of a token: 2 x (overhead - 1) x the GEMM's N x K, over the rank's share.
    const double share = groups / experts;
    const auto padded = [&](double overhead, double n, double kDim) {
        return 2.0 * (overhead - 1.0) * n * kDim * share;
    };
    const double forward = padded(rowGroupedOverhead(gpu, rows, groups, up), up, h) +
                           padded(rowGroupedOverhead(gpu, rows, groups, h), h, width);
    // Backward: the input gradients, through the weights transposed (down's N is its input width, up's the hidden
    // size), and the weight gradients where the experts train.
    const double inputGradients = padded(rowGroupedOverhead(gpu, rows, groups, h), h, up) +
                                  padded(rowGroupedOverhead(gpu, rows, groups, width), width, h);
    const double weightGradients = padded(reductionGroupedOverhead(gpu, rows, groups, h, up), h, up) +
                                   padded(reductionGroupedOverhead(gpu, rows, groups, width, h), width, h);
    const double backward = inputGradients + (s.method == Method::Full ? weightGradients : 0.0);
    const double moeLayers =
        static_cast<double>(a.numLayers - std::clamp<std::int64_t>(a.moe.firstDenseLayers, 0, a.numLayers));
    const double forwards = detail::forwardPasses(s);
    const double trained = forwards * forward + detail::backwardLayerShare(s) * backward;
    if (s.runKind == RunKind::Ppo) {
        // As trainingFlopsPerToken counts PPO: each epoch trains the policy and the value model (a full fine-tuning
        // of the backbone), after the gradient-free scoring passes.
        const double value = forwards * forward + inputGradients + weightGradients;
        const double epochs = static_cast<double>(std::max<std::int64_t>(1, s.ppoEpochs));
        return moeLayers * k * (epochs * (trained + value) + gradientFreeForwards(s) * forward);
    }
    return moeLayers * k * (trained + gradientFreeForwards(s) * forward);
}

} // namespace gpusizer::core
