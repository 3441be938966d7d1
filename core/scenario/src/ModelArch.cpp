#include "gpusizer/scenario/ModelArch.h"

#include "gpusizer/scenario/Vision.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace gpusizer::core {

const char* linearRoleName(LinearRole role) {
    switch (role) {
    case LinearRole::Q:
        return "q_proj";
    case LinearRole::K:
        return "k_proj";
    case LinearRole::V:
        return "v_proj";
    case LinearRole::O:
        return "o_proj";
    case LinearRole::Gate:
        return "gate_proj";
    case LinearRole::Up:
        return "up_proj";
    case LinearRole::Down:
        return "down_proj";
    }
    return "?";
}

namespace {

void addMlp(LinearGroupList& groups, const ModelArch& arch, std::int64_t width, std::int64_t count, bool routed) {
    if (width <= 0 || count <= 0) {
        return;
    }
    const std::int64_t h = arch.hiddenSize;
    if (arch.mlp == MlpKind::Gated) {
        groups.push_back({LinearRole::Gate, h, width, count, routed});
        groups.push_back({LinearRole::Up, h, width, count, routed});
    } else {
        groups.push_back({LinearRole::Up, h, width, count, routed});
    }
    groups.push_back({LinearRole::Down, width, h, count, routed});
}

} // namespace

LinearGroupList linearGroups(const ModelArch& arch) {
    LinearGroupList groups;
    const std::int64_t h = arch.hiddenSize;
    const std::int64_t L = arch.numLayers;
    const std::int64_t d = arch.effectiveHeadDim();
    const std::int64_t a = arch.numHeads;
    const std::int64_t kv = arch.numKvHeads > 0 ? arch.numKvHeads : a;

    if (arch.isMla()) {
        // DeepSeek MLA: q (optionally through a low-rank bottleneck), a joint compressed kv, then the
        // per-head up-projection of k (no-RoPE part) and v, and the output projection.
        const auto& m = arch.mla;
        const std::int64_t qHead = m.qkNopeHeadDim + m.qkRopeHeadDim;
        if (m.qLoraRank > 0) {
            groups.push_back({LinearRole::Q, h, m.qLoraRank, L, false});
            groups.push_back({LinearRole::Q, m.qLoraRank, a * qHead, L, false});
        } else {
            groups.push_back({LinearRole::Q, h, a * qHead, L, false});
        }
        groups.push_back({LinearRole::K, h, m.kvLoraRank + m.qkRopeHeadDim, L, false});
        groups.push_back({LinearRole::V, m.kvLoraRank, a * (m.qkNopeHeadDim + m.vHeadDim), L, false});
        groups.push_back({LinearRole::O, a * m.vHeadDim, h, L, false});
    } else {
        groups.push_back({LinearRole::Q, h, a * d, L, false});
        groups.push_back({LinearRole::K, h, kv * d, L, false});
        groups.push_back({LinearRole::V, h, kv * d, L, false});
        groups.push_back({LinearRole::O, a * d, h, L, false});
    }

    if (arch.isMoe()) {
        const auto& moe = arch.moe;
        const std::int64_t dense = std::clamp<std::int64_t>(moe.firstDenseLayers, 0, L);
        const std::int64_t moeLayers = L - dense;
        const std::int64_t expertWidth = moe.expertIntermediate > 0 ? moe.expertIntermediate : arch.intermediateSize;
        const std::int64_t sharedWidth = moe.sharedIntermediate > 0 ? moe.sharedIntermediate : expertWidth;
        addMlp(groups, arch, arch.intermediateSize, dense, false);
        addMlp(groups, arch, expertWidth, moeLayers * moe.numExperts, true);
        addMlp(groups, arch, sharedWidth, moeLayers * moe.sharedExperts, false);
    } else {
        addMlp(groups, arch, arch.intermediateSize, L, false);
    }
    return groups;
}

ParamCounts countParams(const ModelArch& arch) {
    return countParams(arch, linearGroups(arch));
}

ParamCounts countParams(const ModelArch& arch, const LinearGroupList& groups) {
    ParamCounts p;
    const std::int64_t h = arch.hiddenSize;
    const std::int64_t L = arch.numLayers;
    const std::int64_t d = arch.effectiveHeadDim();
    const std::int64_t a = arch.numHeads;
    const std::int64_t kv = arch.numKvHeads > 0 ? arch.numKvHeads : a;
    const std::int64_t normParams = arch.norm == NormKind::LayerNorm ? 2 * h : h; // weight (+ bias)

    p.embedding = (arch.vocabSize + arch.vision.extraEmbeddingRows) * h + arch.learnedPositions * h;
    p.lmHead = (arch.causalLmHead && !arch.tiedEmbeddings) ? arch.vocabSize * h : 0;
    p.finalNorm = normParams;

    std::int64_t activeLinear = 0;
    std::int64_t largestLinear = 0;
    std::int64_t moeLayers = 0;
    for (const auto& g : groups) {
        const std::int64_t weights = g.inFeatures * g.outFeatures;
        p.layerLinear += weights * g.count;
        largestLinear = std::max(largestLinear, weights);
        if (g.routedExpert) {
            // Only experts_per_token of numExperts routed experts touch a token.
            activeLinear +=
                weights * g.count / std::max<std::int64_t>(1, arch.moe.numExperts) * arch.moe.expertsPerToken;
        } else {
            activeLinear += weights * g.count;
        }
    }
    if (arch.isMoe()) {
        moeLayers = L - std::clamp<std::int64_t>(arch.moe.firstDenseLayers, 0, L);
    }

    // Per-layer extras: the norms (with q/k norms), biases, router, MLA's two low-rank norms.
    std::int64_t other = std::max<std::int64_t>(1, arch.normsPerLayer) * normParams * L;
    other += arch.qkNormParamsPerLayer() * L;
    if (arch.qkvBias && !arch.isMla()) {
        other += (a * d + 2 * kv * d) * L;
    }
    if (arch.outputBias) {
        other += h * L;
    }
    if (arch.mlpBias) {
        const std::int64_t width = arch.intermediateSize;
        other += (arch.mlp == MlpKind::Gated ? 2 * width : width) * L + h * L;
    }
    if (arch.isMla()) {
        other += (arch.mla.kvLoraRank + (arch.mla.qLoraRank > 0 ? arch.mla.qLoraRank : 0)) * L;
    }
    other += moeLayers * arch.moe.numExperts * h; // router (gate) weights
    // Llama-3.2-Vision's cross-attention layers: q_norm and k_norm over a head, and the two tanh gates
    // (modeling_mllama.py MllamaTextCrossAttention, MllamaCrossAttentionDecoderLayer @251c2d4f).
    other += arch.vision.crossAttentionLayers * (2 * d + 2);
    p.layerOther = other;

    const VisionParams vision = visionParams(arch.vision, h);
    p.visionTower = vision.tower;
    p.visionProjector = vision.projector;

    p.total = p.embedding + p.lmHead + p.layerLinear + p.layerOther + p.finalNorm + p.visionTower + p.visionProjector;
    p.activePerToken = p.embedding + p.lmHead + activeLinear + p.layerOther + p.finalNorm;
    p.largestTensor = std::max({arch.vocabSize * h, largestLinear, vision.largestTensor});
    return p;
}

namespace {

/// A rung of the Llama-style width ladder: published shapes of Llama 3.x / Qwen2.5 models.
struct Rung {
    double paramsBillion;
    std::int64_t hidden, heads, kvHeads, intermediate;
};

// Shapes from the models' config.json files (Qwen2.5-0.5B, Llama-3.2-1B/3B, Llama-3.1-8B, Qwen2.5-14B,
// Qwen2.5-32B, Llama-3.1-70B, Llama-3.1-405B); GPT-2 small-like for the smallest sizes.
constexpr std::array<Rung, 9> kLadder{{
    {0.1, 768, 12, 12, 2048},
    {0.5, 896, 14, 2, 4864},
    {1.2, 2048, 32, 8, 8192},
    {3.2, 3072, 24, 8, 8192},
    {8.0, 4096, 32, 8, 14336},
    {14.7, 5120, 40, 8, 13824},
    {32.8, 5120, 40, 8, 27648},
    {70.6, 8192, 64, 8, 28672},
    {405.0, 16384, 128, 8, 53248},
}};

} // namespace

ModelArch archFromParamCount(double paramsBillion) {
    const double target = std::max(0.01, paramsBillion) * 1e9;
    // The rung whose size is nearest in log space.
    const Rung* best = &kLadder.front();
    for (const auto& rung : kLadder) {
        if (std::abs(std::log(rung.paramsBillion * 1e9 / target)) <
            std::abs(std::log(best->paramsBillion * 1e9 / target))) {
            best = &rung;
        }
    }
    ModelArch arch;
    arch.name = "size-derived";
    arch.hiddenSize = best->hidden;
    arch.numHeads = best->heads;
    arch.numKvHeads = best->kvHeads;
    arch.intermediateSize = best->intermediate;
    arch.vocabSize = target < 1e9 ? 32000 : 128256;
    arch.tiedEmbeddings = target < 4e9;
    arch.sizeDerived = true;
    arch.sizeDerivedFromBillions = paramsBillion;
    arch.numLayers = 1;
    const ParamCounts one = countParams(arch);
    const std::int64_t fixed = one.embedding + one.lmHead + one.finalNorm;
    const std::int64_t perLayer = one.layerLinear + one.layerOther;
    const double layers = (target - static_cast<double>(fixed)) / static_cast<double>(perLayer);
    arch.numLayers = std::max<std::int64_t>(1, std::llround(layers));
    return arch;
}

} // namespace gpusizer::core
