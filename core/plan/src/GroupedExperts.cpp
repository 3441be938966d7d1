// The tiles PyTorch's grouped GEMM runs for a MoE block's experts, beyond the useful work (docs/planning.md, "Grouped
// experts"). The card's utilisation comes from dense matmuls whose rows fill their tiles; a grouped GEMM splits a
// micro-batch's rows among the experts, pads each group's last tile and runs a fixed tile shape, so at a few hundred
// rows per expert a sizeable share of its tiles is padding or an unfilled last wave.

#include "PlanningParts.h"
#include "gpusizer/plan/Planning.h"

#include <algorithm>
#include <cmath>

namespace gpusizer::core {

double expectedTilesPerGroup(double meanRows, double tile) {
    if (meanRows <= 0 || tile <= 0) {
        return 0;
    }
    // Sum the Poisson probabilities over 12 standard deviations either side of the mean: beyond them they are below
    // 1e-30 of the total.
    const double spread = 12.0 * std::sqrt(meanRows) + 2.0;
    const auto first = static_cast<std::int64_t>(std::max(0.0, std::floor(meanRows - spread)));
    const auto last = static_cast<std::int64_t>(std::ceil(meanRows + spread));
    const double logMean = std::log(meanRows);
    double tiles = 0;
    for (std::int64_t x = first; x <= last; ++x) {
        const double rows = static_cast<double>(x);
        const double probability = std::exp(rows * logMean - meanRows - std::lgamma(rows + 1.0));
        tiles += probability * std::ceil(rows / tile);
    }
    return tiles;
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

/// Tile slots the kernel occupies for `tiles` output tiles: whole waves over the card's SMs (the persistent
/// scheduler hands each SM one tile at a time), or the tiles themselves where the SM count is not stated.
double occupiedTileSlots(const GpuSpec& gpu, double tiles) {
    if (gpu.smCount <= 0) {
        return tiles;
    }
    const double sms = static_cast<double>(gpu.smCount);
    return std::ceil(tiles / sms - 1e-9) * sms;
}

/// Work executed over useful work for one 2-D x 3-D grouped GEMM (the forward and the input gradient): `rows` split
/// into `groups`, `columns` outputs per row.
double rowGroupedOverhead(const GpuSpec& gpu, double rows, double groups, double columns) {
    const double mean = rows / groups;
    const GroupedMmTile tile = groupedMmTile(gpu, mean, columns);
    if (!tile.available) {
        return 1.0;
    }
    const double tiles = groups * expectedTilesPerGroup(mean, tile.m) * std::ceil(columns / tile.n);
    return occupiedTileSlots(gpu, tiles) * tile.m * tile.n / (rows * columns);
}

/// The same for the weight gradient, a 2-D x 2-D grouped GEMM (`in` x `out` per expert) whose reduction runs over
/// each group's rows: every group's output tiles are whole, the reduction pads its last step of tile.k rows.
double reductionGroupedOverhead(const GpuSpec& gpu, double rows, double groups, double in, double out) {
    const double mean = rows / groups;
    const GroupedMmTile tile = groupedMmTile(gpu, in, out);
    if (!tile.available) {
        return 1.0;
    }
    const double tiles = groups * std::ceil(in / tile.m) * std::ceil(out / tile.n);
    const double outputs = occupiedTileSlots(gpu, tiles) * tile.m * tile.n / (groups * in * out);
    return outputs * expectedTilesPerGroup(mean, tile.k) * tile.k / mean;
}

} // namespace

double groupedExpertsPaddedFlopsPerToken(const Scenario& s, const GpuSpec& gpu) {
    const ModelArch& a = s.model;
    if (!a.isMoe() || !detail::expertsRunAsGroupedMm(s, profileFor(s)) || !expertsComputeInBf16(s)) {
        return 0;
    }
    const double tokens = tokensPerGpu(s);
    const double k = static_cast<double>(a.moe.expertsPerToken);
    const double ep = static_cast<double>(std::max<std::int64_t>(1, s.expertParallel));
    const double groups = static_cast<double>(a.moe.numExperts) / ep;
    if (tokens <= 0 || k <= 0 || groups < 1) {
        return 0;
    }
    // Each rank's experts receive about its own tokens' k copies after the expert-parallel exchange.
    const double rows = tokens * k;
    const double h = static_cast<double>(a.hiddenSize);
    const double width =
        static_cast<double>(a.moe.expertIntermediate > 0 ? a.moe.expertIntermediate : a.intermediateSize);
    const double up = a.mlp == MlpKind::Gated ? 2.0 * width : width; // gate_up_proj stacks gate and up
    // Padded FLOPs per routed copy of a token: 2 x (overhead - 1) x the GEMM's N x K.
    const auto padded = [](double overhead, double n, double kDim) { return 2.0 * (overhead - 1.0) * n * kDim; };
    const double forward = padded(rowGroupedOverhead(gpu, rows, groups, up), up, h) +
                           padded(rowGroupedOverhead(gpu, rows, groups, h), h, width);
    // Backward: the input gradients, through the weights transposed (down's N is its input width, up's the hidden
    // size); the weight gradients only where the experts train.
    double backward = padded(rowGroupedOverhead(gpu, rows, groups, h), h, up) +
                      padded(rowGroupedOverhead(gpu, rows, groups, width), width, h);
    if (s.method == Method::Full) {
        backward += padded(reductionGroupedOverhead(gpu, rows, groups, h, up), h, up) +
                    padded(reductionGroupedOverhead(gpu, rows, groups, width, h), width, h);
    }
    const double moeLayers =
        static_cast<double>(a.numLayers - std::clamp<std::int64_t>(a.moe.firstDenseLayers, 0, a.numLayers));
    const double forwards = detail::forwardPasses(s) + gradientFreeForwards(s);
    return moeLayers * k * (forwards * forward + detail::backwardLayerShare(s) * backward);
}

} // namespace gpusizer::core
