#include "gpusizer/plan/Planning.h"

#include "PlanningParts.h"
#include "gpusizer/memory/AdapterShapes.h"
#include "gpusizer/plan/FitTable.h"
#include "gpusizer/scenario/FrameworkProfile.h"
#include "gpusizer/scenario/Units.h"
#include "gpusizer/scenario/Vision.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>

namespace gpusizer::core {

namespace {

/// QLoRA steps run slower than LoRA because every use of a 4-bit weight dequantizes it. Assumed 1.3x (reports range
/// about 1.2-1.6x with bitsandbytes); not measured here.
constexpr double kQloraDequantSlowdown = 1.3;
/// One PCIe 4.0 x16 link carries about 31.5 GB/s per direction; each generation doubles it.
constexpr double kPcie4x16GBs = 31.5;
/// DeepSpeedCPUAdam: an 11.6B-parameter step in 8.2 s (DeepSpeed PR #735, merged as ee1ffe2e, 2021-02-18), about
/// 1.4e9 parameters per second for one host's CPUs, shared by the GPU processes on that host.
constexpr double kCpuAdamParamsPerSecondPerHost = 11.6e9 / 8.2;

} // namespace

namespace detail {

double forwardPasses(const Scenario& s) {
    if (s.checkpointing == Checkpointing::Full || s.checkpointing == Checkpointing::Auto) {
        return 2.0;
    }
    return s.checkpointing == Checkpointing::EveryNth
               ? 1.0 + 1.0 / static_cast<double>(std::max<std::int64_t>(1, s.checkpointEvery))
               : 1.0;
}

double backwardLayerShare(const Scenario& s) {
    return freezesLayers(s) ? static_cast<double>(s.trainableLayers) / static_cast<double>(s.model.numLayers) : 1.0;
}

bool opLevelSelective(const Scenario& s, const FrameworkProfile& profile) {
    return s.checkpointing == Checkpointing::Selective && profile.selectivePolicy == SelectivePolicy::OpLevel;
}

bool expertsRunAsGroupedMm(const Scenario& s, const FrameworkProfile& profile) {
    return profile.transformersExperts && s.transformersVersion == TransformersVersion::Current;
}

} // namespace detail

using detail::backwardLayerShare;
using detail::expertsRunAsGroupedMm;
using detail::forwardPasses;
using detail::opLevelSelective;

namespace {

double paramBytes(Precision p) {
    return weightBytesPerParam(p);
}

/// Per-direction PCIe bandwidth of the card's slot, GB/s, before efficiency.
double pcieGBs(const GpuSpec& gpu) {
    return std::ldexp(kPcie4x16GBs, gpu.pcieGen - 4) * gpu.pcieLanes / 16.0;
}

/// NCCL's own latency model for a ring collective over `ranks` GPUs with the Simple protocol (the one large messages
/// use): a base of 8.4 us plus one hop per step, 2 (ranks - 1) steps for an all-reduce; per hop 3.4 us over NVLink
/// (and the other GPU fabrics), 5.7 us over PCIe, 14 us over the network (NVIDIA/nccl src/graph/tuning.cc,
/// ncclTunerConstantsDefaults baseLatencies and hwLatencies, commit 5067397c).
double ringLatencySeconds(LinkKind kind, std::int64_t ranks) {
    const double hop = kind == LinkKind::Network ? 14.0 : kind == LinkKind::Pcie ? 5.7 : 3.4;
    return (8.4 + 2.0 * static_cast<double>(std::max<std::int64_t>(1, ranks) - 1) * hop) * 1e-6;
}

bool isBridgePair(const GpuSpec& gpu) {
    // PCIe cards with an NVLink bridge connect in pairs only.
    return gpu.formFactor == "PCIe" && gpu.link.kind.rfind("nvlink", 0) == 0;
}

} // namespace

Network networkFor(const GpuSpec& gpu, Network chosen) {
    if (chosen != Network::Auto) {
        return chosen;
    }
    if (gpu.formFactor != "PCIe") {
        return Network::Ib400; // SXM, OAM, superchip servers: one 400 Gb/s NIC per GPU (DGX H100 reference)
    }
    return gpu.ecc ? Network::Eth100 : Network::Eth25; // datacenter PCIe servers; consumer-card machines
}

const char* toString(Network n) {
    switch (n) {
    case Network::Auto:
        return "auto";
    case Network::Ib400:
        return "ib400";
    case Network::Roce200:
        return "roce200";
    case Network::Eth100:
        return "eth100";
    case Network::Eth25:
        return "eth25";
    }
    return "?";
}

const char* toString(Objective o) {
    switch (o) {
    case Objective::Cost:
        return "cost";
    case Objective::Time:
        return "time";
    case Objective::Balanced:
        return "balanced";
    }
    return "?";
}

double networkGBsPerGpu(Network n, int gpusPerNode) {
    const double perNode = std::max(1, gpusPerNode);
    switch (n) {
    case Network::Auto:
    case Network::Ib400:
        return 400.0 / 8.0; // one 400 Gb/s NIC per GPU
    case Network::Roce200:
        return 200.0 / 8.0; // one 200 Gb/s NIC per GPU
    case Network::Eth100:
        return 100.0 / 8.0 / perNode; // one 100 GbE port per node, shared
    case Network::Eth25:
        return 25.0 / 8.0 / perNode;
    }
    return 0.0;
}

/// A vision-language model's encoder and projector, spread over the sequence's tokens: each image's forward, and
/// where a part trains its backward (input and weight gradients; input gradients only through a frozen projector in
/// front of a trained encoder) and the encoder's recomputation under full checkpointing.
double visionFlopsPerToken(const Scenario& s) {
    if (!hasImages(s)) {
        return 0.0;
    }
    const ImageTokens image = scenarioImage(s);
    const VisionFlops f = visionForwardFlops(s.model.vision, s.model.hiddenSize, image);
    const bool recomputes = s.checkpointing == Checkpointing::Full || s.checkpointing == Checkpointing::Auto;
    // An adapted encoder's backward computes input gradients through its frozen weights (one forward's FLOPs), its
    // adapters' own matmuls left out (r / width of the rest).
    const bool towerRecomputes = recomputes && towerCheckpointable(s.model.vision);
    const double towerPasses = visionTowerTrains(s)                                  ? (towerRecomputes ? 4.0 : 3.0)
                               : visionTowerAdapted(s) || frozenTowerRecordsGraph(s) ? (towerRecomputes ? 3.0 : 2.0)
                                                                                     : 1.0;
    const bool behindTrains = visionTowerTrains(s) || visionTowerAdapted(s) || frozenTowerRecordsGraph(s);
    const double projectorPasses = projectorTrains(s) ? 3.0 : (behindTrains ? 2.0 : 1.0);
    // Llama-3.2-Vision's cross-attention layers project the image's tokens to k and v in each forward (the recomputed
    // one too) and back: weight gradients under full fine-tuning, input gradients where the projector or tower
    // behind them trains. Each text token's attention over them, 4 x hidden x tokens per layer, runs as the language
    // model's attention does (forward, recompute, and backward at twice the forward).
    const double forwards = recomputes ? 2.0 : 1.0;
    const double kvBackward = (s.method == Method::Full ? 1.0 : 0.0) +
                              (projectorTrains(s) || projectorAdapted(s) || behindTrains ? 1.0 : 0.0);
    const double crossKv = (forwards + kvBackward) * crossAttentionKvFlops(s.model, image);
    const double perImage = towerPasses * f.tower + projectorPasses * f.projector + crossKv;
    const double crossAttention = (forwards + 2.0) * 4.0 * static_cast<double>(s.model.hiddenSize) *
                                  static_cast<double>(s.model.vision.crossAttentionLayers * image.crossTokens) *
                                  static_cast<double>(s.imagesPerSample);
    return static_cast<double>(s.imagesPerSample) * perImage /
               static_cast<double>(std::max<std::int64_t>(1, s.seqLen)) +
           crossAttention;
}

namespace {

/// Matmul parameters a token passes through: active weights without the embedding lookup, plus the output
/// projection when it is tied to the embedding.
double matmulParamsPerToken(const ModelArch& a) {
    const ParamCounts p = countParams(a);
    return static_cast<double>(p.activePerToken - p.embedding) +
           (a.tiedEmbeddings && a.causalLmHead ? static_cast<double>(a.vocabSize * a.hiddenSize) : 0.0);
}

/// The adapters' own matmuls per token, forward and backward, as their kind runs them (AdapterShapes.h).
double adapterFlopsPerToken(const Scenario& s) {
    double adapters = 0;
    const bool secondBaseMatmul = s.lora.dropout > 0.0 && profileFor(s).doraRecomputesBaseWithDropout;
    for (const auto& g : linearGroups(s.model)) {
        if (detail::adaptsLinears(s.lora.kind) &&
            std::find(s.lora.targets.begin(), s.lora.targets.end(), g.role) != s.lora.targets.end() &&
            !g.routedExpert) {
            adapters += static_cast<double>(g.count) *
                        detail::adapterOnLinear(s.lora.kind, g.role, static_cast<double>(s.lora.rank),
                                                static_cast<double>(g.inFeatures), static_cast<double>(g.outFeatures),
                                                secondBaseMatmul)
                            .flopsPerToken;
        }
    }
    return adapters;
}

/// Weights of the linears of the given roles in every layer, routed experts left out.
double linearWeights(const ModelArch& a, std::initializer_list<LinearRole> roles) {
    double weights = 0;
    for (const auto& g : linearGroups(a)) {
        if (!g.routedExpert && std::find(roles.begin(), roles.end(), g.role) != roles.end()) {
            weights += static_cast<double>(g.count) * static_cast<double>(g.inFeatures * g.outFeatures);
        }
    }
    return weights;
}

/// The linears' forward and backward per token, with freeze tuning's recomputation (only its trained layers are
/// checkpointed).
double linearFlopsPerToken(const Scenario& s, double matmul) {
    const ModelArch& a = s.model;
    if (freezesLayers(s)) {
        // Freeze tuning: the trained layers 6N; lm_head forward and input gradient 4N; the frozen layers forward
        // only (2N): nothing below the trained layers is in the graph (docs/memory-model.md §4).
        const double head = a.causalLmHead ? static_cast<double>(a.vocabSize * a.hiddenSize) : 0.0;
        const double layers = matmul - head;
        const double share = static_cast<double>(s.trainableLayers) / static_cast<double>(a.numLayers);
        double flops = 6.0 * share * layers + 2.0 * (1.0 - share) * layers + 4.0 * head;
        if (s.checkpointing == Checkpointing::Full || s.checkpointing == Checkpointing::Auto) {
            flops += 2.0 * share * layers;
        } else if (s.checkpointing == Checkpointing::EveryNth) {
            flops += 2.0 * share * layers / static_cast<double>(std::max<std::int64_t>(1, s.checkpointEvery));
        }
        return flops;
    }
    if (s.method == Method::Full) {
        return 6.0 * matmul; // forward 2N, backward 4N (input and weight gradients)
    }
    // Frozen weights need no weight gradients: forward 2N + input gradients 2N, and the adapters' matmuls.
    return 4.0 * matmul + adapterFlopsPerToken(s);
}

/// The forward passes checkpointing runs again, per token (freeze tuning's are in linearFlopsPerToken).
double recomputedFlopsPerToken(const Scenario& s, double matmul) {
    if (freezesLayers(s)) {
        return 0;
    }
    if (s.checkpointing == Checkpointing::Full || s.checkpointing == Checkpointing::Auto) {
        return 2.0 * matmul; // one more forward pass
    }
    if (s.checkpointing == Checkpointing::EveryNth) {
        return 2.0 * matmul / static_cast<double>(std::max<std::int64_t>(1, s.checkpointEvery));
    }
    if (opLevelSelective(s, profileFor(s))) {
        // torchtitan's op-level policy counts each block's mm calls afresh and runs every second one again in
        // backward (activation_checkpoint.py _custom_policy, mm_count % 2): of wq, wk, wv, wo, w1, w3, w2 the
        // second, fourth and sixth, wk, wo and w3.
        return 2.0 * linearWeights(s.model, {LinearRole::K, LinearRole::O, LinearRole::Up});
    }
    return 0;
}

/// TiledMLP's backward runs each tile's forward again (ulysses_sp.py TiledMLP.backward): one more MLP forward in
/// every layer that runs backward.
double tiledMlpFlopsPerToken(const Scenario& s) {
    const ModelArch& a = s.model;
    const double mlpWeights = linearWeights(a, {LinearRole::Gate, LinearRole::Up, LinearRole::Down});
    const double trained =
        freezesLayers(s) ? static_cast<double>(s.trainableLayers) / static_cast<double>(a.numLayers) : 1.0;
    return 2.0 * mlpWeights * trained;
}

/// Attention scores and weighted sum over the whole s x s matrix: 2 x a x s x (d_qk + d_v) per token per layer
/// forward (4 x a x d x s when q, k and v share a head size), summed over the layers. MLA scores with the no-RoPE +
/// RoPE head (192 for DeepSeek-V3) and weighs v_head_dim values (128; DeepSeek-V3 inference/model.py MLA). A causal
/// kernel does about half of it, but the utilisation figures the time model is given (PaLM App. B, Megatron-LM,
/// torchtitan) all count the full matrix; counting the same keeps them comparable.
double attentionForwardFlopsPerToken(const Scenario& s) {
    const ModelArch& a = s.model;
    const double dQk = a.isMla() ? static_cast<double>(a.mla.qkNopeHeadDim + a.mla.qkRopeHeadDim)
                                 : static_cast<double>(a.effectiveHeadDim());
    const double dV = a.isMla() ? static_cast<double>(a.mla.vHeadDim) : static_cast<double>(a.effectiveHeadDim());
    return 2.0 * static_cast<double>(a.numHeads) * (dQk + dV) * static_cast<double>(s.seqLen) *
           static_cast<double>(a.numLayers);
}

} // namespace

double trainingFlopsPerToken(const Scenario& s) {
    const ModelArch& a = s.model;
    const double matmul = matmulParamsPerToken(a);
    double flops = linearFlopsPerToken(s, matmul);
    flops += recomputedFlopsPerToken(s, matmul);
    if (s.tiledMlp) {
        flops += tiledMlpFlopsPerToken(s);
    }
    const double attention = attentionForwardFlopsPerToken(s);
    // Forward, and backward x2 in the layers that run it (freeze tuning's frozen layers run forward only).
    flops += (1.0 + 2.0 * backwardLayerShare(s)) * attention;
    // A preference objective's gradient-free forward passes (the reference model's; KTO's KL completions), each over
    // the same tokens.
    if (s.runKind == RunKind::Ppo) {
        // PPO trains each rollout num_ppo_epochs times, the policy with its value model (the backbone trained in full,
        // its one-output head negligible), after scoring it once with the reference, value and reward models
        // (ppo_trainer.py L698-850 @f2cd5771).
        const double head = a.causalLmHead ? static_cast<double>(a.vocabSize * a.hiddenSize) : 0.0;
        const bool recomputes = s.checkpointing == Checkpointing::Full || s.checkpointing == Checkpointing::Auto;
        const double valueModel = (recomputes ? 8.0 : 6.0) * (matmul - head) + 3.0 * attention;
        const double epochs = static_cast<double>(std::max<std::int64_t>(1, s.ppoEpochs));
        return epochs * (flops + valueModel) + gradientFreeForwards(s) * (2.0 * matmul + attention) +
               visionFlopsPerToken(s);
    }
    flops += gradientFreeForwards(s) * (2.0 * matmul + attention);
    return flops + visionFlopsPerToken(s);
}

LinkChoice collectiveLink(const GpuSpec& gpu, std::int64_t gpus, const ClusterAssumptions& c) {
    const double pcie = pcieGBs(gpu);
    LinkChoice intra;
    const std::string& kind = gpu.link.kind;
    const bool nvlink = kind.size() > 6 && kind.compare(0, 6, "nvlink") == 0;
    const bool fabric = nvlink || kind == "infinity-fabric" || kind == "gaudi-roce";
    if (fabric && !(isBridgePair(gpu) && gpus > 2)) {
        // Catalog figures are bidirectional: half of it flows each way.
        intra = {gpu.link.kind == "infinity-fabric" ? LinkKind::InfinityFabric
                 : gpu.link.kind == "gaudi-roce"    ? LinkKind::OnChipRoce
                                                    : LinkKind::NvLink,
                 Network::Auto, gpu.link.bandwidthGBs / 2.0 * c.nvlinkEfficiency};
    } else {
        intra = {LinkKind::Pcie, Network::Auto, pcie * c.pcieEfficiency};
    }
    if (gpus <= gpu.gpusPerNode) {
        return intra;
    }
    const Network net = networkFor(gpu, c.network);
    const double network = networkGBsPerGpu(net, gpu.gpusPerNode) * c.networkEfficiency;
    return network < intra.gbs ? LinkChoice{LinkKind::Network, net, network} : intra;
}

StepTime stepTime(const Scenario& s, const GpuSpec& gpu, const PlanInputs& in) {
    return stepTime(s, gpu, in, estimate(s, Detail::NumbersOnly));
}

StepTime stepTime(const Scenario& s, const GpuSpec& gpu, const PlanInputs& in, const Estimate& e) {
    return stepTime(s, gpu, in, StepFacts::of(s, e));
}

StepFacts StepFacts::of(const Scenario& s, const Estimate& e) {
    return of(s, e, trainingFlopsPerToken(s));
}

StepFacts StepFacts::of(const Scenario& s, const Estimate& e, double flopsPerToken) {
    // PPO's value model trains beside the policy: its gradients and gathers travel with the policy's, and the
    // optimizer steps num_ppo_epochs times a rollout.
    const double value = static_cast<double>(e.valueModelParams);
    const double steps = s.runKind == RunKind::Ppo ? static_cast<double>(std::max<std::int64_t>(1, s.ppoEpochs)) : 1.0;
    return {flopsPerToken,
            static_cast<double>(e.trainableParams) + value,
            static_cast<double>(e.params.total) + value,
            static_cast<double>(e.routedTrainableParams),
            static_cast<double>(e.routedExpertParams),
            static_cast<double>(e.perGpu[Component::Weights]),
            static_cast<double>(e.perGpu[Component::OptimizerStates]),
            ::gpusizer::core::float8FlopsPerToken(s),
            ::gpusizer::core::float8GatheredParams(s),
            static_cast<double>(e.activationOffloadBytes),
            adapterElementwiseBytesPerToken(s, e.profile),
            baseElementwiseBytesPerTrainedToken(s, e.profile),
            steps * optimizerStepBytesPerGpu(s, e.profile, static_cast<double>(e.optimizerWeightBytes),
                                             static_cast<double>(e.optimizerMasterBytes),
                                             static_cast<double>(e.perGpu[Component::OptimizerStates]))};
}

double adapterElementwiseBytesPerToken(const Scenario& s) {
    return adapterElementwiseBytesPerToken(s, profileFor(s));
}

double adapterElementwiseBytesPerToken(const Scenario& s, const FrameworkProfile& profile) {
    const bool loraLike =
        s.lora.kind == AdapterKind::Lora || s.lora.kind == AdapterKind::Dora || s.lora.kind == AdapterKind::LoraFa;
    if (s.method == Method::Full || !loraLike) {
        return 0.0;
    }
    const bool amp = s.precision == Precision::AmpBf16 || s.precision == Precision::AmpFp16;
    const double c = s.precision == Precision::Fp32 ? 4.0 : 2.0;        // the base layer's output
    const double inB = amp || s.precision == Precision::Fp32 ? 4.0 : c; // the layer's input
    const double a = detail::adapterStorageBytes(s, profile);
    const double p = amp ? c : a; // the adapter matmuls' output (autocast runs them in 16 bits)
    double bytes = 0;
    for (const auto& g : linearGroups(s.model)) {
        if (g.routedExpert || std::find(s.lora.targets.begin(), s.lora.targets.end(), g.role) == s.lora.targets.end()) {
            continue; // (routed experts' adapters as the FLOPs count them: not yet)
        }
        const double in = static_cast<double>(g.inFeatures);
        const double out = static_cast<double>(g.outFeatures);
        double perToken = 0;
        if (a != inB || amp) {
            perToken += (inB + (amp ? c : a)) * in; // x.to(lora_A dtype), or autocast's 16-bit copy for lora_A
        }
        if (s.lora.dropout > 0.0) {
            perToken += (2.0 * p + 1.0) * in; // dropout reads, writes its output and a 1-byte mask
        }
        perToken += 2.0 * p * out;                  // lora_B(...) * scaling
        perToken += (c + p + std::max(c, p)) * out; // result + ..., promoted to the wider dtype
        if (p != c) {
            perToken += (p + c) * out; // result.to(torch_result_dtype)
        }
        bytes += static_cast<double>(g.count) * perToken;
    }
    return bytes;
}

EagerAttentionBytes eagerAttentionBytesPerToken(const Scenario& s) {
    if (s.attention != Attention::Eager) {
        return {};
    }
    const ModelArch& a = s.model;
    const double c = s.precision == Precision::Fp32 ? 4.0 : 2.0; // scores in the compute dtype
    // Per score element (transformers modeling_llama.py eager_attention_forward): forward `* scaling` reads and
    // writes c; `+ causal_mask` reads two and writes one; softmax(dtype=float32) reads c and writes 4; `.to(dtype)`
    // reads 4 and writes c: 7c + 8. Backward: the cast's c + 4, softmax's (its fp32 output and the gradient read,
    // c written) 8 + c, the scaling's 2c: 4c + 12. Dropout: a 1-byte mask written and read, the scores each way.
    double forward = 7.0 * c + 8.0;
    double backward = 4.0 * c + 12.0;
    if (a.attentionDropout > 0.0) {
        forward += 2.0 * c + 1.0;
        backward += 2.0 * c + 1.0;
    }
    // Each token's row holds every key of every head: the causal mask hides half of them, but eager computes all.
    const double elements =
        static_cast<double>(a.numHeads) * static_cast<double>(s.seqLen) * static_cast<double>(a.numLayers);
    // Freeze tuning: the frozen layers run attention forward only.
    return {forward * elements, backward * elements * backwardLayerShare(s)};
}

namespace {

/// Bytes per element of one RMSNorm over a tensor held in `r` bytes (transformers modeling_llama.py LlamaRMSNorm
/// @v4.57: `to(float32)`, `pow(2)`, `mean(-1)`, `* rsqrt(...)`, `.to(input_dtype)` and `weight * ...`, each a kernel
/// of its own); a fused kernel (torch.compile, Liger, and LayerNorm's own) reads the input and writes the output.
double normBytesPerElement(const ModelArch& a, double r, bool fused) {
    if (fused || a.norm == NormKind::LayerNorm) {
        return 2.0 * r;
    }
    const double upcast = r < 4.0 ? r + 4.0 : 0.0;   // bf16 -> fp32 copy (a no-op on an fp32 residual stream)
    const double downcast = r < 4.0 ? 4.0 + r : 0.0; // and back
    return upcast + 8.0 /* pow */ + 4.0 /* mean */ + 8.0 /* * rsqrt */ + downcast + 2.0 * r /* weight * */;
}

} // namespace

namespace {

/// One decoder layer's element-wise traffic per token outside the MLP's activation: norms, RoPE, autocast's casts,
/// SDPA's output copy, the residual adds and dropout. `norm`: a norm's bytes per element; `c`: what the matmuls
/// write; `r`: the residual stream's bytes.
double layerElementwiseBytes(const Scenario& s, double norm, double c, double r, bool amp) {
    const ModelArch& a = s.model;
    const double h = static_cast<double>(a.hiddenSize);
    const double heads = static_cast<double>(a.numHeads);
    const double kvHeads = static_cast<double>(a.numKvHeads > 0 ? a.numKvHeads : a.numHeads);
    const double headDim = static_cast<double>(a.effectiveHeadDim());
    const double dV = a.isMla() ? static_cast<double>(a.mla.vHeadDim) : headDim;
    double layer = static_cast<double>(a.normsPerLayer) * norm * h;
    // RoPE as apply_rotary_pos_emb writes it: rotate_half's negation and cat, two multiplies and the add over q and
    // k (10 bytes of traffic per 2-byte element); fused, a read and a write. No RoPE with learned positions.
    if (a.learnedPositions == 0) {
        const double rotated =
            a.isMla() ? heads * static_cast<double>(a.mla.qkRopeHeadDim) + static_cast<double>(a.mla.qkRopeHeadDim)
                      : (heads + kvHeads) * headDim;
        // Under autocast cos and sin stay fp32, so the multiplies promote q and k to fp32 and SDPA casts them back:
        // 36 B per element.
        const double unfused = amp ? 36.0 : 10.0 * c;
        layer += ((s.compile || s.ligerRope) ? 2.0 * c : unfused) * rotated;
    }
    if (amp) {
        // Autocast casts the fp32 normed input of each linear that reads it (q, k and v; gate and up or fc1) to 16
        // bits on every call: 4 read, 2 written.
        layer += (3.0 + (a.mlp == MlpKind::Gated ? 2.0 : 1.0)) * 6.0 * h;
    }
    // SDPA and eager return (batch, heads, seq, d): transpose(1, 2).contiguous() copies it; FlashAttention's layout is
    // already (batch, seq, heads, d).
    if (s.attention != Attention::Flash) {
        layer += 2.0 * c * heads * dV;
    }
    // Two residual adds: the stream and the branch read, the stream written.
    layer += 2.0 * (2.0 * r + c) * h;
    if (a.hiddenDropout > 0.0) {
        layer += 2.0 * (2.0 * c + 1.0) * h; // each branch's dropout: read, written, a 1-byte mask
    }
    return layer;
}

/// Element-wise bytes per hidden element of one routed copy of a token, outside the experts' activation; `r` is the
/// hidden states' dtype (the residual stream's), `c` the matmuls' output's.
double routedCopyBytesPerHidden(bool groupedMm, double c, double r) {
    if (groupedMm) {
        // integrations/moe.py @251c2d4f L389-478: the copy gathered into expert order (2r) and its padding rows
        // masked (2r); the router's weights stay fp32 (modeling_mixtral.py L106-109), so scaling the expert's output
        // by them reads c and writes an fp32 row (4), which is masked (8) and gathered back (8) in fp32 and read by
        // the sum over the k copies (4).
        return 4.0 * r + c + 24.0;
    }
    // The loop over the experts that were hit (MixtralSparseMoeBlock before transformers 5, LitGPT's LLaMAMoE): each
    // copy gathered for its expert (2c), scaled by its routing weight (2c) and index_add_-ed back (3c).
    return 7.0 * c;
}

/// The loss's element-wise traffic per logit element.
double lossElementwiseBytesPerLogit(const Scenario& s, const FrameworkProfile& profile, double c) {
    const ModelArch& a = s.model;
    double perLogit = 0;
    if (s.loss == Loss::CutCrossEntropy) {
        perLogit = 0; // blockwise in on-chip memory: the logits never reach HBM
    } else if (s.loss == Loss::FusedLinear) {
        perLogit = 2.0 * (c + 4.0) + 8.0; // each chunk upcast, softmax and its gradient in place, cast back
    } else if (profile.compileCoversLoss && s.compile) {
        perLogit = 2.0 * (c + 4.0); // one fused kernel each way
    } else {
        // ForCausalLMLoss: logits.float(); log_softmax, whose rows of a large vocabulary take SoftMax.cu's
        // cunn_SoftMaxForward (the row read for its max, its sum and the output, one write: 16 B at fp32); nll's
        // gradient zero-filled and scattered (4 B); log_softmax's backward (the gradient read twice and the output
        // once, one write: 16 B); the upcast's backward cast.
        perLogit = 36.0 + (c < 4.0 ? 2.0 * (c + 4.0) : 0.0);
        if (a.finalLogitSoftcap > 0.0) {
            perLogit += 18.0 * c; // logits / cap, tanh, * cap: three kernels forward, twice that backward
        }
    }
    return perLogit;
}

} // namespace

BaseElementwiseBytes baseElementwiseBytesPerToken(const Scenario& s, const FrameworkProfile& profile) {
    const ModelArch& a = s.model;
    BaseElementwiseBytes out;
    if (a.numLayers <= 0 || a.hiddenSize <= 0) {
        return out;
    }
    const bool amp = s.precision == Precision::AmpBf16 || s.precision == Precision::AmpFp16;
    const double c = s.precision == Precision::Fp32 ? 4.0 : 2.0; // what the matmuls write
    // The residual stream: fp32 under autocast over fp32 weights (the embedding's output and the adds stay fp32).
    const double r = amp || s.precision == Precision::Fp32 ? 4.0 : c;
    const double h = static_cast<double>(a.hiddenSize);
    const double norm = normBytesPerElement(a, r, s.compile || s.ligerRmsNorm);
    const double layer = layerElementwiseBytes(s, norm, c, r, amp);
    // The MLP's activation: act(gate) * up as two kernels (LlamaMLP), one when fused; a plain MLP's one activation.
    const auto activation = [&](double width) {
        if (a.mlp == MlpKind::Plain) {
            return 2.0 * c * width;
        }
        return ((s.compile || s.ligerGlu) ? 3.0 * c : 5.0 * c) * width;
    };
    const double layers = static_cast<double>(a.numLayers);
    double total = layers * layer;
    // The q/k norms (Qwen3, Gemma 3, OLMo 2/3): RMSNorms over q_proj's and k_proj's outputs, in the matmuls' dtype;
    // Liger's where it reaches them (ligerReachesQkNorms).
    const bool qkNormFused = s.compile || ligerReachesQkNorms(s);
    total += layers * normBytesPerElement(a, c, qkNormFused) * static_cast<double>(a.qkNormWidth());
    if (a.isMoe()) {
        const double dense = static_cast<double>(std::clamp<std::int64_t>(a.moe.firstDenseLayers, 0, a.numLayers));
        const double expertWidth =
            static_cast<double>(a.moe.expertIntermediate > 0 ? a.moe.expertIntermediate : a.intermediateSize);
        const double sharedWidth =
            static_cast<double>(a.moe.sharedIntermediate > 0 ? a.moe.sharedIntermediate : a.moe.expertIntermediate);
        const double k = static_cast<double>(a.moe.expertsPerToken);
        const bool groupedMm = expertsRunAsGroupedMm(s, profile);
        double routed = k * (activation(expertWidth) + routedCopyBytesPerHidden(groupedMm, c, r) * h);
        if (groupedMm) {
            // Per token: the fp32 sum over its k copies written (4), then read and cast to the hidden states' dtype
            // (no kernel when they are fp32).
            routed += (4.0 + (r < 4.0 ? 4.0 + r : 0.0)) * h;
        }
        const double shared = static_cast<double>(a.moe.sharedExperts) * activation(sharedWidth);
        total += dense * activation(static_cast<double>(a.intermediateSize)) + (layers - dense) * (routed + shared);
    } else {
        total += layers * activation(static_cast<double>(a.intermediateSize));
    }
    total += norm * h; // the final norm
    out.layers = total;

    if (a.causalLmHead && a.vocabSize > 0) {
        out.loss = lossElementwiseBytesPerLogit(s, profile, c) * static_cast<double>(a.vocabSize);
    }
    return out;
}

double baseElementwiseBytesPerTrainedToken(const Scenario& s, const FrameworkProfile& profile) {
    // Each forward (the recomputed one too: torchtitan's op-level selective policy saves matmul and attention
    // outputs only, so its element-wise kernels run again) and a backward about twice a forward through the layers
    // that run backward, then the loss once.
    const BaseElementwiseBytes bytes = baseElementwiseBytesPerToken(s, profile);
    const double forwards = opLevelSelective(s, profile) ? 2.0 : forwardPasses(s);
    // A preference objective's gradient-free passes run the layers' kernels and the forward half of the loss's.
    const double free = gradientFreeForwards(s);
    return bytes.layers * (forwards + free + 2.0 * backwardLayerShare(s)) + bytes.loss * (1.0 + 0.5 * free);
}

double optimizerStepBytesPerGpu(const Scenario& s, const FrameworkProfile& profile, double weightBytes,
                                double masterBytes, double stateBytes) {
    // The optimizer updates the master copy where the recipe keeps one (the estimate's optimizer states hold it
    // beside the moments), else the trainable weights as stored; the gradients reach it in the same dtype (DeepSpeed
    // converts its 16-bit gradients into an fp32 partition). Nothing here when the step runs on the host.
    if (weightBytes <= 0 && masterBytes <= 0) {
        return 0.0;
    }
    const double w = masterBytes > 0 ? masterBytes : weightBytes;
    const double moments = std::max(0.0, stateBytes - masterBytes);
    double bytes = 0;
    switch (s.optimizer) {
    case Optimizer::AdamW:
        // foreach (_multi_tensor_adam): weight decay's mul_ and addcdiv_ on the weights (4p), lerp_ and addcmul_
        // reading the gradient (3p), and seven read-modify-writes of a state-sized tensor (lerp_, mul_, addcmul_,
        // sqrt, div_, add_ eps, addcdiv_'s reads): 7 x the states. The fused kernel reads the weight, gradient and
        // both moments once and writes the weight and moments: 3p and 2 x the states. A loop over the parameters
        // runs the same passes as foreach, one tensor at a time.
        bytes = profile.optimizerStep == OptimizerStepKind::Fused ? 3.0 * w + 2.0 * moments : 7.0 * w + 7.0 * moments;
        break;
    case Optimizer::Adafactor:
        bytes = 7.0 * w + 7.0 * moments; // several passes like foreach Adam (factored statistics, RMS clip)
        break;
    case Optimizer::Sgd:
        bytes = 3.0 * w; // param.add_(grad): the weight read and written, the gradient read
        break;
    case Optimizer::SgdMomentum:
        bytes = 3.0 * w + 5.0 * moments; // buf.mul_(m).add_(grad), then param.add_(buf)
        break;
    case Optimizer::AdamW8bit:
    case Optimizer::PagedAdamW:
    case Optimizer::PagedAdamW8bit:
    case Optimizer::Lion:
        bytes = 3.0 * w + 2.0 * moments; // one fused kernel (bitsandbytes' optimizers, Lion's update)
        break;
    }
    if (masterBytes > 0) {
        // The 16-bit gradients into the master's dtype and the updated master back into the 16-bit weights: each
        // way the master and the 16-bit tensor read or written once (12 B a parameter for an fp32 master).
        bytes += 2.0 * (masterBytes + weightBytes);
    }
    return bytes;
}

double float8FlopsPerToken(const Scenario& s) {
    if (s.method != Method::Full || s.float8 == Float8::Off) {
        return 0.0;
    }
    // Forward, input and weight gradients, each a float8 matmul (torchao float8_linear.py
    // matmul_with_hp_or_float8_args); recomputation runs the forward again.
    const double recompute = (s.checkpointing == Checkpointing::Full || s.checkpointing == Checkpointing::Auto) ? 2.0
                             : s.checkpointing == Checkpointing::EveryNth
                                 ? 2.0 / static_cast<double>(std::max<std::int64_t>(1, s.checkpointEvery))
                                 : 0.0;
    if (freezesLayers(s)) {
        // Freeze tuning: the trained layers run all three matmuls (and recompute); the frozen ones forward only.
        const double share = static_cast<double>(s.trainableLayers) / static_cast<double>(s.model.numLayers);
        return ((6.0 + recompute) * share + 2.0 * (1.0 - share)) * linearGroups(s.model).denseWeights();
    }
    return (6.0 + recompute) * linearGroups(s.model).denseWeights();
}

double float8GatheredParams(const Scenario& s) {
    return (s.method == Method::Full && s.float8 == Float8::Tensorwise && s.float8AllGather)
               ? linearGroups(s.model).denseWeights()
               : 0.0;
}

namespace {

/// The step's layout and schedule, as each part of the time model reads them.
struct StepShape {
    double tp = 1;
    double pp = 1;
    double dp = 1;
    double accum = 1;
    double gpus = 1;
    double ep = 1;              // expert-parallel degree (1 for a dense model)
    double bubble = 1;          // 1F1B stretch of what a stage does per micro-batch
    double passes = 2;          // passes over the weights per micro-batch
    double forwards = 1;        // forward passes per micro-batch
    double layersPerStage = 0;  // decoder layers on one pipeline stage
    double activationBytes = 0; // one micro-batch's hidden states in 16 bits
};

StepShape stepShape(const Scenario& s) {
    const double tp = static_cast<double>(s.tensorParallel);
    const double pp = static_cast<double>(s.pipelineParallel);
    const double dp = static_cast<double>(std::max<std::int64_t>(1, s.gpus / (s.tensorParallel * s.pipelineParallel)));
    const double accum = static_cast<double>(s.gradientAccumulation);
    const double gpus = static_cast<double>(s.gpus);
    // Only MoE models have experts to split.
    const double ep = s.model.isMoe() ? static_cast<double>(std::max<std::int64_t>(1, s.expertParallel)) : 1.0;
    // 1F1B pipeline: m micro-batches through p stages take m + p - 1 stage slots, so everything a stage does per
    // micro-batch on the critical path (its compute, its tensor- and expert-parallel collectives) stretches by this.
    const double bubble = 1.0 + (pp - 1.0) / accum;
    // Forward and backward read the weights; full recomputation adds a second forward.
    // A preference objective's reference (and KTO's KL) passes read them again.
    const double passes =
        ((s.checkpointing == Checkpointing::Full || s.checkpointing == Checkpointing::Auto) ? 3.0 : 2.0) +
        gradientFreeForwards(s);
    // Forward passes per micro-batch (each recomputed forward runs its tensor- and expert-parallel collectives again;
    // so do the gradient-free ones).
    const double forwards = forwardPasses(s) + gradientFreeForwards(s);
    const double layersPerStage = static_cast<double>(s.model.numLayers) / pp;
    const double activationBytes = sequencesPerMicroBatch(s) * static_cast<double>(s.seqLen * s.model.hiddenSize) * 2.0;
    return {.tp = tp,
            .pp = pp,
            .dp = dp,
            .accum = accum,
            .gpus = gpus,
            .ep = ep,
            .bubble = bubble,
            .passes = passes,
            .forwards = forwards,
            .layersPerStage = layersPerStage,
            .activationBytes = activationBytes};
}

/// Compute time at peak x MFU, with QLoRA's dequantization and the pipeline bubble.
double computeTime(const Scenario& s, const GpuSpec& gpu, const PlanInputs& in, const StepShape& shape,
                   double tokensPerStep, double flopsPerToken, double float8Flops) {
    const double gpus = shape.gpus;
    const double mfu = std::clamp(mfuFor(gpu, in).mfu, 0.01, 1.0);
    const double peak = gpu.bf16Tflops * 1e12 * mfu;
    // float8 matmuls at the card's FP8 peak (the same utilisation), the rest at bf16.
    const double fp8 = gpu.fp8Tflops > 0 ? std::min(float8Flops, flopsPerToken) : 0.0;
    double compute =
        tokensPerStep * ((flopsPerToken - fp8) / peak + (fp8 > 0 ? fp8 / (gpu.fp8Tflops * 1e12 * mfu) : 0.0)) / gpus;
    if (s.method == Method::Qlora) {
        compute *= kQloraDequantSlowdown;
    }
    compute *= shape.bubble; // the stage's compute is on the pipeline's critical path
    return compute;
}

/// GRPO's generation per optimizer step (docs/planning.md, "GRPO's generation"): the prompts' prefill as matmuls at the
/// card's utilisation, then completion_length decode steps, each the larger of reading the 16-bit weights (over
/// vLLM's tensor-parallel GPUs in server mode) plus the batch's KV cache so far at HBM bandwidth, and its matmuls.
/// The training GPUs generate their own batch (colocate, transformers); a server generates every rank's.
/// transformers' generate runs without paged attention or CUDA graphs: this is its lower bound.
double generationTime(const Scenario& s, const GpuSpec& gpu, const PlanInputs& in, const StepFacts& f,
                      const StepShape& shape) {
    const ModelArch& a = s.model;
    const bool server = s.generation == Generation::VllmServer;
    const double split = server ? static_cast<double>(std::max<std::int64_t>(1, s.vllmGpus)) : shape.tp * shape.pp;
    const double sequences = generatedSequencesPerGpu(s) * (server ? shape.dp : 1.0);
    const double completion = static_cast<double>(std::min(s.completionLength, s.seqLen));
    const double prompt = static_cast<double>(s.seqLen) - completion;
    const double kvPerToken = kvCacheBytesPerToken(a);
    const double forwardFlops = 2.0 * static_cast<double>(countParams(a).activePerToken);
    const double matmulRate = gpu.bf16Tflops * 1e12 * std::clamp(mfuFor(gpu, in).mfu, 0.01, 1.0) * split;
    const double bandwidth = gpu.bandwidthTBs * 1e12 * split;
    const double prefill = sequences * prompt * forwardFlops / matmulRate;
    const double weights = f.totalParams * 2.0;
    const double cacheRead = kvPerToken * sequences * (prompt + completion / 2.0); // the cache's mean size
    const double decodeStep = std::max((weights + cacheRead) / bandwidth, sequences * forwardFlops / matmulRate);
    return prefill + completion * decodeStep;
}

/// Memory floor: weights streamed per pass and micro-batch (the optimizer step's traffic is a phase of its own).
double memoryFloorTime(const GpuSpec& gpu, const StepFacts& f, const StepShape& shape) {
    const double hbm = f.weightsBytesPerGpu * shape.passes * shape.accum;
    return hbm / (gpu.bandwidthTBs * 1e12);
}

/// Bytes per parameter as gathered or streamed: the compute dtype under FSDP mixed precision, else as stored.
double transferBytes(Precision p) {
    return p == Precision::FsdpMixedBf16 ? 2.0 : paramBytes(p);
}

/// Data-parallel traffic per GPU per step (ring collectives move (n-1)/n of the buffer each way).
/// Gathered (and offload-streamed) parameters travel in the compute dtype under FSDP mixed precision.
/// With expert parallelism the routed experts' gradients and gathers run over the expert-data-parallel group
/// (dp / ep ranks, each holding 1/ep of the experts), the rest over all dp ranks.
double dataParallelBytes(const Scenario& s, const StepFacts& f, const StepShape& shape) {
    const double tp = shape.tp;
    const double pp = shape.pp;
    const double dp = shape.dp;
    const double accum = shape.accum;
    const double ep = shape.ep;
    const double weightB = transferBytes(s.precision);
    const double gradB = s.method == Method::Full ? paramBytes(s.precision) : 4.0;
    const auto dpTraffic = [&](double trainable, double total, double ranks, double float8Gathered) {
        // float8 all-gather: the decoder linears travel in 1 byte (torchao fsdp_utils
        // WeightWithDynamicFloat8CastTensor).
        const double weightsBytes = ((total - float8Gathered) * weightB + float8Gathered) / (tp * pp);
        const double gradBytes = trainable * gradB / (tp * pp);
        const double ring = ranks > 1 ? (ranks - 1.0) / ranks : 0.0;
        switch (s.sharding) {
        case Sharding::None:
        case Sharding::Zero1:
            return 2.0 * ring * gradBytes; // one all-reduce per step (ZeRO-1: reduce-scatter + all-gather)
        case Sharding::Zero2:
            return ring * gradBytes * accum + ring * weightsBytes; // reduce-scatter per micro-batch, gather params
        case Sharding::Zero3:
            // Gather for forward and backward, reduce-scatter; each gradient-free pass (a preference objective's
            // reference, KTO's KL, GRPO's old log-probs) gathers its weights again.
            return accum * ring * ((2.0 + gradientFreeForwards(s)) * weightsBytes + gradBytes);
        }
        return 0.0;
    };
    const double routedTrainable = ep > 1 ? f.routedTrainableParams : 0.0;
    const double routedTotal = ep > 1 ? f.routedTotalParams : 0.0;
    return dpTraffic(f.trainableParams - routedTrainable, f.totalParams - routedTotal, dp, f.float8GatheredParams) +
           dpTraffic(routedTrainable / ep, routedTotal / ep, dp / ep, 0.0);
}

/// One kind of communication per GPU per step: the bytes it moves and the seconds it takes.
struct Traffic {
    double bytes = 0;
    double seconds = 0;
};

/// Tensor parallel (Megatron): two all-reduces of the micro-batch's activations per block in each forward and two
/// in backward, on the intra-node link, not overlapped, each also paying NCCL's latency.
Traffic tensorParallelTime(const Scenario& s, const GpuSpec& gpu, const PlanInputs& in, const StepShape& shape) {
    const double tp = shape.tp;
    const double accum = shape.accum;
    const double forwards = shape.forwards;
    const double layersPerStage = shape.layersPerStage;
    const double activationBytes = shape.activationBytes;
    const double bubble = shape.bubble;
    const double allReduces = 2.0 * (forwards + 1.0) * layersPerStage * accum;
    const double tpBytes = allReduces * 2.0 * (tp - 1.0) / tp * activationBytes;
    const LinkChoice intra = collectiveLink(gpu, std::min<std::int64_t>(s.tensorParallel, gpu.gpusPerNode), in.cluster);
    const double tpSeconds =
        (tpBytes / (intra.gbs * 1e9) + allReduces * ringLatencySeconds(intra.kind, s.tensorParallel)) * bubble;
    return {tpBytes, tpSeconds};
}

/// Pipeline parallel: each stage boundary passes the micro-batch's activations forward and their gradients back;
/// on the critical path m + p - 1 times, over the link between stages (across nodes once TP x PP exceeds a node).
Traffic pipelineTime(const Scenario& s, const GpuSpec& gpu, const PlanInputs& in, const StepShape& shape) {
    const double tp = shape.tp;
    const double pp = shape.pp;
    const double accum = shape.accum;
    const double activationBytes = shape.activationBytes;
    const LinkChoice between = collectiveLink(gpu, s.tensorParallel * s.pipelineParallel, in.cluster);
    const double perMicroBatch =
        2.0 * (activationBytes / tp / (between.gbs * 1e9) + ringLatencySeconds(between.kind, 2));
    const double ppSeconds = perMicroBatch * (accum + pp - 1.0);
    return {2.0 * activationBytes / tp * accum, ppSeconds};
}

/// ZeRO-Offload: gradients go to the host and updated weights come back over PCIe every step, the optimizer runs
/// on the CPU; with parameters offloaded too, every pass streams the weights in again. Not overlapped.
double offloadTime(const Scenario& s, const GpuSpec& gpu, const PlanInputs& in, const StepFacts& f,
                   const StepShape& shape) {
    const double tp = shape.tp;
    const double pp = shape.pp;
    const double dp = shape.dp;
    const double accum = shape.accum;
    const double passes = shape.passes;
    const double weightB = transferBytes(s.precision);
    const double weightsBytes = f.totalParams * weightB / (tp * pp); // streamed whole under parameter offload
    // Each GPU sends only its shard of the gradients (DeepSpeed converts it to fp32 on the GPU and copies it to
    // pinned memory, stage_1_and_2.py async_inplace_copy_grad_to_fp32_buffer_from_gpu; FSDP copies each unit's
    // shard) and receives its shard of the updated 16-bit weights; with parameters offloaded every pass streams
    // the GPU's shard of the weights in again. The host's CPU Adam is shared by its GPUs.
    const double host = pcieGBs(gpu) * in.cluster.pcieEfficiency * 1e9;
    const double trainableShard = f.trainableParams / (tp * pp * dp);
    double bytes = trainableShard * 4.0 + trainableShard * paramBytes(s.precision);
    if (s.offload == Offload::OptimizerAndParams) {
        bytes += weightsBytes / dp * passes * accum;
    }
    const double ranksPerHost = static_cast<double>(std::min<std::int64_t>(s.gpus, gpu.gpusPerNode));
    return bytes / host + trainableShard * ranksPerHost / kCpuAdamParamsPerSecondPerHost;
}

/// Expert parallelism: every MoE layer sends each routed token copy to its expert and back (dispatch and combine),
/// forward and backward, over the link of the expert-parallel group; not overlapped.
/// Context parallelism's attention traffic per GPU per step, not overlapped (an upper bound: ring attention overlaps
/// its sends with the local attention). Ring (torch distributed/tensor/experimental/_attention.py): each layer's
/// forward passes the local k and v chunk to the next rank cp - 1 times; backward passes k, v and their gradients.
/// Ulysses (DeepSpeed runtime/sequence_parallel/ulysses_sp.py): all-to-alls of q, k, v into a head split and of the
/// output back, in forward and again in backward, each moving (cp - 1) / cp of its tensor.
Traffic contextParallelTime(const Scenario& s, const GpuSpec& gpu, const PlanInputs& in, const StepShape& shape) {
    const double cp = static_cast<double>(s.contextParallel);
    const double a = static_cast<double>(s.model.numHeads) / shape.tp;
    const double kv =
        std::max(1.0, static_cast<double>(s.model.numKvHeads > 0 ? s.model.numKvHeads : s.model.numHeads) / shape.tp);
    const double d = static_cast<double>(s.model.effectiveHeadDim());
    const double localTokens = tokensPerGpu(s);
    const double layers = shape.layersPerStage * shape.accum;
    const LinkChoice link = collectiveLink(gpu, s.contextParallel * s.tensorParallel, in.cluster);
    double bytes = 0;
    double messages = 0;
    if (s.contextParallelKind == ContextParallel::Ring) {
        const double chunk = 2.0 * kv * d * localTokens * 2.0; // k and v in 16 bits
        bytes = (shape.forwards + 2.0) * (cp - 1.0) * chunk * layers;
        messages = (shape.forwards + 1.0) * (cp - 1.0) * layers;
    } else {
        // q, out, k and v in 16 bits; key/value heads fewer than the ranks are replicated before the all-to-all.
        const double kvMoved = ulyssesKvHeadsPerTpRank(s.model, s.tensorParallel, s.contextParallel);
        const double tensors = (2.0 * a + 2.0 * kvMoved) * d * localTokens * 2.0;
        bytes = (shape.forwards + 1.0) * (cp - 1.0) / cp * tensors * layers;
        messages = (shape.forwards + 1.0) * 4.0 * layers;
    }
    const double seconds =
        (bytes / (link.gbs * 1e9) + messages * ringLatencySeconds(link.kind, s.contextParallel)) * shape.bubble;
    return {bytes, seconds};
}

Traffic expertParallelTime(const Scenario& s, const GpuSpec& gpu, const PlanInputs& in, const StepShape& shape) {
    const double pp = shape.pp;
    const double accum = shape.accum;
    const double ep = shape.ep;
    const double forwards = shape.forwards;
    const double bubble = shape.bubble;
    const double moeLayers = static_cast<double>(
        s.model.numLayers - std::clamp<std::int64_t>(s.model.moe.firstDenseLayers, 0, s.model.numLayers));
    const double tokens = sequencesPerMicroBatch(s) * static_cast<double>(s.seqLen) * accum;
    // Dispatch and combine in every forward and in backward.
    const double allToAlls = 2.0 * (forwards + 1.0) * moeLayers / pp * accum;
    const double bytes = (forwards + 1.0) * 2.0 * tokens * static_cast<double>(s.model.moe.expertsPerToken) *
                         static_cast<double>(s.model.hiddenSize) * 2.0 * (ep - 1.0) / ep * moeLayers / pp;
    const LinkChoice epLink = collectiveLink(gpu, s.expertParallel * s.tensorParallel, in.cluster);
    const double epSeconds =
        (bytes / (epLink.gbs * 1e9) + allToAlls * ringLatencySeconds(epLink.kind, s.expertParallel)) * bubble;
    return {bytes, epSeconds};
}

} // namespace

StepTime stepTime(const Scenario& s, const GpuSpec& gpu, const PlanInputs& in, const StepFacts& f) {
    StepTime t;
    const StepShape shape = stepShape(s);
    t.flopsPerToken = f.flopsPerToken;
    // Context-parallel ranks share their sequences: dp / cp groups take sequences of their own.
    t.tokensPerStep = tokensPerGpu(s) * shape.accum * shape.dp;
    // The matmuls, with the tiles a grouped GEMM runs for the experts beyond the useful ones.
    t.matmulSeconds = computeTime(s, gpu, in, shape, t.tokensPerStep,
                                  t.flopsPerToken + groupedExpertsPaddedFlopsPerToken(s, gpu), f.float8FlopsPerToken);
    double compute = t.matmulSeconds;
    // Memory-bound kernels between the matmuls, on the same stream, at the card's HBM bandwidth: bytes per token over
    // a step's passes. Each GPU runs its own sequences' share.
    const double gpuTokens = tokensPerGpu(s) * shape.accum;
    const auto atBandwidth = [&](double bytesPerToken) {
        return gpuTokens * bytesPerToken / (shape.tp * shape.pp) * shape.bubble / (gpu.bandwidthTBs * 1e12);
    };
    // LoRA's: forward, the recomputed forward, and a backward that reads and writes about twice what forward does (the
    // reference pass runs with the adapters disabled).
    t.adapterElementwiseSeconds =
        atBandwidth(f.adapterElementwiseBytes * (shape.forwards - referenceForwards(s) + 2.0));
    // Eager attention's passes over the scores: each forward (the recomputed one too) and backward.
    const EagerAttentionBytes eager = eagerAttentionBytesPerToken(s);
    t.eagerAttentionSeconds = atBandwidth(eager.forward * shape.forwards + eager.backward);
    // The base model's norms, activation, RoPE, residual adds and loss; autocast over fp32 weights also casts each
    // weight to 16 bits in every forward.
    t.baseElementwiseSeconds = atBandwidth(f.baseElementwiseBytes);
    if (s.precision == Precision::AmpBf16 || s.precision == Precision::AmpFp16) {
        t.baseElementwiseSeconds += f.totalParams / (shape.tp * shape.pp) * 6.0 * shape.forwards * shape.accum *
                                    shape.bubble / (gpu.bandwidthTBs * 1e12);
    }
    compute += t.adapterElementwiseSeconds + t.eagerAttentionSeconds + t.baseElementwiseSeconds;
    t.optimizerStepSeconds = f.optimizerStepBytes / (gpu.bandwidthTBs * 1e12);
    t.memoryFloorSeconds = memoryFloorTime(gpu, f, shape);
    t.computeSeconds = compute;

    const double dpBytes = dataParallelBytes(s, f, shape);
    t.link = collectiveLink(gpu, s.gpus, in.cluster);
    const double dpSeconds = t.link.gbs > 0 ? dpBytes / (t.link.gbs * 1e9) : 0.0;
    const Traffic tpComm = s.tensorParallel > 1 ? tensorParallelTime(s, gpu, in, shape) : Traffic{};
    const Traffic ppComm = s.pipelineParallel > 1 ? pipelineTime(s, gpu, in, shape) : Traffic{};
    double offloadSeconds = s.offload != Offload::None ? offloadTime(s, gpu, in, f, shape) : 0.0;
    // Activation offload: each micro-batch's saved tensors go to host memory in forward and come back in backward,
    // over the GPU's PCIe link, on a side stream that compute can hide (torchtune OffloadActivations use_streams;
    // ArcticTraining's copies are synchronous, so for it this is a lower bound).
    if (f.activationOffloadBytes > 0) {
        const double host = pcieGBs(gpu) * in.cluster.pcieEfficiency * 1e9;
        const double copies = 2.0 * f.activationOffloadBytes * shape.accum / host;
        offloadSeconds +=
            std::max(0.0, copies - in.cluster.overlap * std::max(compute, memoryFloorTime(gpu, f, shape)));
    }
    const Traffic epComm = shape.ep > 1 ? expertParallelTime(s, gpu, in, shape) : Traffic{};
    const Traffic cpComm = s.contextParallel > 1 ? contextParallelTime(s, gpu, in, shape) : Traffic{};
    t.offloadSeconds = offloadSeconds;
    // This order of the sum (pipeline, expert, then data + tensor parallel) keeps the figures bit-identical.
    t.commBytesPerGpu = ppComm.bytes + epComm.bytes + (dpBytes + tpComm.bytes) + cpComm.bytes;
    t.commSeconds = dpSeconds + tpComm.seconds + epComm.seconds + ppComm.seconds + cpComm.seconds;
    const double busy = std::max(compute, t.memoryFloorSeconds);
    t.exposedCommSeconds = std::max(0.0, dpSeconds - in.cluster.overlap * busy) + tpComm.seconds + epComm.seconds +
                           ppComm.seconds + offloadSeconds + cpComm.seconds;
    // GRPO generates a step's completions before training on them (TRL's default: once per optimizer step).
    t.generationSeconds = generatesOnline(s) ? generationTime(s, gpu, in, f, shape) : 0.0;
    // The optimizer step waits for the last gradient and runs alone.
    t.stepSeconds = busy + t.optimizerStepSeconds + t.exposedCommSeconds + t.generationSeconds;
    t.tokensPerSecond = t.stepSeconds > 0 ? t.tokensPerStep / t.stepSeconds : 0.0;
    return t;
}

PlanInputs withDatasetTokens(PlanInputs inputs, const Scenario& scenario) {
    if (const auto fromData = datasetTokens(scenario); fromData && !inputs.datasetTokensStated) {
        inputs.datasetTokens = *fromData;
        inputs.datasetTokensStated = true;
    }
    return inputs;
}

double hourlyPrice(const GpuSpec& gpu, const PlanInputs& in, bool spot) {
    return in.pricePerGpuHour.value_or(spot ? gpu.priceSpotUsdHour : gpu.priceOnDemandUsdHour);
}

double rankedHourlyPrice(const GpuSpec& gpu, const PlanInputs& in) {
    const double spot = hourlyPrice(gpu, in, true);
    return in.spot && spot > 0 ? spot : hourlyPrice(gpu, in, false);
}

MfuChoice mfuFor(const GpuSpec& gpu, const PlanInputs& in) {
    if (in.mfu) {
        return {*in.mfu, MfuSource::User};
    }
    if (gpu.throughput.mfu > 0) {
        return {gpu.throughput.mfu, MfuSource::Published};
    }
    return {kUnpublishedMfu, MfuSource::Unpublished};
}

double resultBytes(const Scenario& s) {
    const ParamCounts p = countParams(s.model);
    if (s.method == Method::Full) {
        return static_cast<double>(p.total) * weightBytesPerParam(s.precision);
    }
    // PEFT saves the adapters in fp32 (save_pretrained of the upcast adapter weights).
    return static_cast<double>(estimate(onOneCard(s), Detail::NumbersOnly).trainableParams) * 4.0;
}

namespace {

FixedCosts fixedCostsOf(const Scenario& s, const GpuSpec& gpu, const PlanInputs& in, double totalParams,
                        double result) {
    const FixedCostAssumptions& a = in.fixed;
    FixedCosts f;
    const double nodes = std::ceil(static_cast<double>(s.gpus) / static_cast<double>(std::max(1, gpu.gpusPerNode)));
    f.provisionSeconds = std::max(0.0, a.provisionMinutes) * 60.0;
    f.environmentSeconds = std::max(0.0, a.environmentMinutes) * 60.0;
    // Each node fetches the published 16-bit checkpoint (QLoRA quantizes it while loading) and reads it from its disk.
    f.downloadBytes = totalParams * 2.0;
    // A bandwidth of 0: the weights are already on the node's disk (a cached or baked-in model).
    f.downloadSeconds = a.downloadGBs > 0 ? f.downloadBytes / (a.downloadGBs * kGB) : 0.0;
    f.loadSeconds = f.downloadBytes / (std::max(1e-3, in.bill.storageReadGBs) * kGB);
    f.startupSeconds = std::max(0.0, a.startupSeconds) + std::max(0.0, a.startupSecondsPerDoubling) * std::log2(nodes);
    // The result is gathered and written once, by rank 0, even from sharded states: DeepSpeed's
    // stage3_gather_16bit_weights_on_model_save, FSDP's full state dict, PEFT's save_pretrained.
    f.resultBytes = result;
    f.finalSaveSeconds = result / (std::max(1e-3, in.bill.storageWriteGBs) * kGB);
    f.copyOutSeconds = result / (std::max(1e-3, a.copyOutGBs) * kGB);
    return f;
}

} // namespace

FixedCosts fixedCosts(const Scenario& s, const GpuSpec& gpu, const PlanInputs& in) {
    return fixedCostsOf(s, gpu, in, static_cast<double>(countParams(s.model).total), resultBytes(s));
}

double checkpointBytes(const Scenario& s) {
    // The trained weights and their optimizer states, whole (not one GPU's shard).
    Scenario single = onOneCard(s);
    single.sharding = Sharding::None;
    single.offload = Offload::None;
    single.expertParallel = 1;
    const Estimate whole = estimate(single, Detail::NumbersOnly);
    const ParamCounts p = countParams(s.model);
    if (s.method == Method::Full) {
        return static_cast<double>(p.total) * paramBytes(s.precision) +
               static_cast<double>(whole.perGpu[Component::OptimizerStates]);
    }
    return static_cast<double>(whole.trainableParams) * 4.0 +
           static_cast<double>(whole.perGpu[Component::OptimizerStates]);
}

CostPlan costPlan(const Scenario& s, const GpuSpec& gpu, const PlanInputs& in) {
    return costPlan(s, gpu, in, StepFacts::of(s, estimate(s, Detail::NumbersOnly)), checkpointBytes(s), resultBytes(s));
}

CostPlan costPlan(const Scenario& s, const GpuSpec& gpu, const PlanInputs& in, const StepFacts& facts,
                  double checkpoint, double result) {
    CostPlan c;
    c.step = stepTime(s, gpu, in, facts);
    c.mfu = mfuFor(gpu, in);
    c.steps = std::ceil(in.datasetTokens * in.epochs / std::max(1.0, c.step.tokensPerStep));
    c.stepHours = c.steps * c.step.stepSeconds / 3600.0;
    c.fixed = fixedCostsOf(s, gpu, in, facts.totalParams, result);
    c.wallHours = c.stepHours + c.fixed.totalSeconds() / 3600.0;
    // Every card is held from its start to the end and billed as its price is (rounded up, with a minimum).
    c.gpuHours = gpu.billing.billed(c.wallHours * 3600.0) / 3600.0 * static_cast<double>(rentedGpus(s));
    c.costOnDemandUsd = c.gpuHours * hourlyPrice(gpu, in, false);
    c.costSpotUsd = c.gpuHours * hourlyPrice(gpu, in, true);
    c.checkpointBytes = checkpoint;
    // GB-months are billed pro rata: the run and the days until its checkpoints are copied out (as in runBill).
    const double months = (c.wallHours / 24.0 + std::max(0.0, in.bill.keepDays)) / 30.0;
    c.storageUsd = c.checkpointBytes / kGB * in.retainedCheckpoints * in.storageUsdPerGbMonth * months;
    return c;
}

std::vector<ScalingPoint> scalingCurve(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs,
                                       std::int64_t maxGpus, const std::string& link) {
    GpuSpec card = gpu;
    if (link == "pcie") {
        card.link = {"pcie", 0.0};
    } else if (link == "nvlink") {
        card.link = {"nvlink4", 900.0};
        card.formFactor = "SXM";
    }
    std::vector<ScalingPoint> curve;
    double single = 0;
    for (std::int64_t n = 1; n <= maxGpus; n *= 2) {
        Scenario s = scenario;
        s.gpus = n;
        s.tensorParallel = 1;
        s.pipelineParallel = 1;
        s.sharding =
            n > 1 ? (scenario.sharding == Sharding::None ? Sharding::Zero3 : scenario.sharding) : Sharding::None;
        const StepTime t = stepTime(s, card, inputs);
        if (n == 1) {
            single = t.tokensPerSecond;
        }
        ScalingPoint p;
        p.gpus = n;
        p.stepSeconds = t.stepSeconds;
        p.speedup = single > 0 ? t.tokensPerSecond / single : 0.0;
        p.efficiency = p.speedup / static_cast<double>(n);
        curve.push_back(p);
    }
    return curve;
}

} // namespace gpusizer::core
