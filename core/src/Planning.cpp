#include "gpusizer/core/Planning.h"

#include "gpusizer/core/FitTable.h"
#include "gpusizer/core/Units.h"

#include <algorithm>
#include <cmath>
#include <sstream>

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
/// Host RAM of a typical 8-GPU training server (DGX A100: 1 TB; DGX H100: 2 TB).
constexpr double kTypicalNodeRamBytes = 1024.0 * kGiB;

double paramBytes(Precision p) {
    return (p == Precision::Fp32 || p == Precision::AmpBf16 || p == Precision::AmpFp16) ? 4.0 : 2.0;
}

/// Per-direction PCIe bandwidth of the card's slot, GB/s, before efficiency.
double pcieGBs(const GpuSpec& gpu) {
    return kPcie4x16GBs * std::pow(2.0, gpu.pcieGen - 4) * gpu.pcieLanes / 16.0;
}

bool isBridgePair(const GpuSpec& gpu) {
    // PCIe cards with an NVLink bridge connect in pairs only.
    return gpu.formFactor == "PCIe" && gpu.link.kind.rfind("nvlink", 0) == 0;
}

std::string fmt(double v, int precision) {
    std::ostringstream os;
    os.setf(std::ios::fixed);
    os.precision(precision);
    os << v;
    return os.str();
}

} // namespace

double trainingFlopsPerToken(const Scenario& s) {
    const ModelArch& a = s.model;
    const ParamCounts p = countParams(a);
    // Matmul parameters a token passes through: active weights without the embedding lookup, plus the output
    // projection when it is tied to the embedding.
    const double matmul = static_cast<double>(p.activePerToken - p.embedding) +
                          (a.tiedEmbeddings && a.causalLmHead ? static_cast<double>(a.vocabSize * a.hiddenSize) : 0.0);
    double flops = 0;
    if (s.method == Method::Full) {
        flops = 6.0 * matmul; // forward 2N, backward 4N (input and weight gradients)
    } else {
        // Frozen weights need no weight gradients: forward 2N + input gradients 2N; adapters train fully.
        double lora = 0;
        for (const auto& g : linearGroups(a)) {
            if (std::find(s.lora.targets.begin(), s.lora.targets.end(), g.role) != s.lora.targets.end() &&
                !g.routedExpert) {
                lora += static_cast<double>(g.count) * static_cast<double>(s.lora.rank) *
                        static_cast<double>(g.inFeatures + g.outFeatures);
            }
        }
        flops = 4.0 * matmul + 6.0 * lora;
    }
    if (s.checkpointing == Checkpointing::Full) {
        flops += 2.0 * matmul; // one more forward pass
    }
    // Attention scores and weighted sum over the whole s x s matrix: 2 x a x s x (d_qk + d_v) per token per layer
    // forward (4 x a x d x s when q, k and v share a head size), x3 for training. MLA scores with the no-RoPE + RoPE
    // head (192 for DeepSeek-V3) and weighs v_head_dim values (128; DeepSeek-V3 inference/model.py MLA). A causal
    // kernel does about half of it, but the utilisation figures the time model is given (PaLM App. B, Megatron-LM,
    // torchtitan) all count the full matrix; counting the same keeps them comparable.
    const double dQk = a.isMla() ? static_cast<double>(a.mla.qkNopeHeadDim + a.mla.qkRopeHeadDim)
                                 : static_cast<double>(a.effectiveHeadDim());
    const double dV = a.isMla() ? static_cast<double>(a.mla.vHeadDim) : static_cast<double>(a.effectiveHeadDim());
    const double attention = 2.0 * static_cast<double>(a.numHeads) * (dQk + dV) * static_cast<double>(s.seqLen) *
                             static_cast<double>(a.numLayers);
    flops += 3.0 * attention;
    return flops;
}

LinkChoice collectiveLink(const GpuSpec& gpu, std::int64_t gpus, const ClusterAssumptions& c) {
    const double pcie = pcieGBs(gpu);
    LinkChoice intra;
    const bool fabric =
        gpu.link.kind.rfind("nvlink", 0) == 0 || gpu.link.kind == "infinity-fabric" || gpu.link.kind == "gaudi-roce";
    if (fabric && !(isBridgePair(gpu) && gpus > 2)) {
        // Catalog figures are bidirectional: half of it flows each way.
        intra = {gpu.link.kind == "infinity-fabric" ? "Infinity Fabric"
                 : gpu.link.kind == "gaudi-roce"    ? "on-chip RoCE"
                                                    : "NVLink",
                 gpu.link.bandwidthGBs / 2.0 * c.nvlinkEfficiency};
    } else {
        intra = {"PCIe " + std::to_string(gpu.pcieGen) + ".0 x" + std::to_string(gpu.pcieLanes),
                 pcie * c.pcieEfficiency};
    }
    if (gpus <= gpu.gpusPerNode) {
        return intra;
    }
    const double network = c.interNodeGBsPerGpu * c.networkEfficiency;
    return network < intra.gbs ? LinkChoice{"InfiniBand between nodes", network} : intra;
}

StepTime stepTime(const Scenario& s, const GpuSpec& gpu, const PlanInputs& in) {
    StepTime t;
    const Estimate e = estimate(s, Detail::NumbersOnly);
    const double tp = static_cast<double>(s.tensorParallel);
    const double pp = static_cast<double>(s.pipelineParallel);
    const double dp = static_cast<double>(e.dataParallel);
    const double accum = static_cast<double>(s.gradientAccumulation);
    const double gpus = static_cast<double>(s.gpus);
    t.flopsPerToken = trainingFlopsPerToken(s);
    t.tokensPerStep = static_cast<double>(s.microBatch) * static_cast<double>(s.seqLen) * accum * dp;

    const double peak = gpu.bf16Tflops * 1e12 * std::clamp(in.mfu, 0.01, 1.0);
    double compute = t.tokensPerStep * t.flopsPerToken / gpus / peak;
    if (s.method == Method::Qlora) {
        compute *= kQloraDequantSlowdown;
    }
    compute *= 1.0 + (pp - 1.0) / accum; // 1F1B pipeline bubble

    // Memory floor: weights streamed per pass and micro-batch, optimizer states read and written once.
    const double passes = s.checkpointing == Checkpointing::Full ? 3.0 : 2.0;
    const double hbm = static_cast<double>(e.perGpu[Component::Weights]) * passes * accum +
                       3.0 * static_cast<double>(e.perGpu[Component::OptimizerStates]);
    t.memoryFloorSeconds = hbm / (gpu.bandwidthTBs * 1e12);
    t.computeSeconds = compute;

    // Data-parallel traffic per GPU per step (ring collectives move (n-1)/n of the buffer each way).
    const ParamCounts p = countParams(s.model);
    const double weightsBytes = static_cast<double>(p.total) * paramBytes(s.precision) / (tp * pp);
    const double gradBytes =
        static_cast<double>(e.trainableParams) * (s.method == Method::Full ? paramBytes(s.precision) : 4.0) / (tp * pp);
    const double ring = dp > 1 ? (dp - 1.0) / dp : 0.0;
    double dpBytes = 0;
    switch (s.sharding) {
    case Sharding::None:
    case Sharding::Zero1:
        dpBytes = 2.0 * ring * gradBytes; // one all-reduce per step (ZeRO-1: reduce-scatter + all-gather)
        break;
    case Sharding::Zero2:
        dpBytes = ring * gradBytes * accum + ring * weightsBytes; // reduce-scatter per micro-batch, gather params
        break;
    case Sharding::Zero3:
        dpBytes = accum * ring * (2.0 * weightsBytes + gradBytes); // gather for forward and backward, reduce-scatter
        break;
    }
    t.link = collectiveLink(gpu, s.gpus, in.cluster);
    const double dpSeconds = t.link.gbs > 0 ? dpBytes / (t.link.gbs * 1e9) : 0.0;
    // Tensor parallel: four all-reduces of the micro-batch's activations per layer (two forward, two backward),
    // on the intra-node link, not overlapped.
    double tpBytes = 0;
    double tpSeconds = 0;
    if (s.tensorParallel > 1) {
        const double activations = static_cast<double>(s.microBatch * s.seqLen * s.model.hiddenSize) * 2.0;
        tpBytes = 4.0 * 2.0 * (tp - 1.0) / tp * activations * static_cast<double>(s.model.numLayers) / pp * accum;
        const LinkChoice intra =
            collectiveLink(gpu, std::min<std::int64_t>(s.tensorParallel, gpu.gpusPerNode), in.cluster);
        tpSeconds = tpBytes / (intra.gbs * 1e9);
    }
    // ZeRO-Offload: gradients go to the host and updated weights come back over PCIe every step, the optimizer runs
    // on the CPU; with parameters offloaded too, every pass streams the weights in again. Not overlapped.
    double offloadSeconds = 0;
    if (s.offload != Offload::None) {
        // Each GPU sends only its shard of the gradients (DeepSpeed converts it to fp32 on the GPU and copies it to
        // pinned memory, stage_1_and_2.py async_inplace_copy_grad_to_fp32_buffer_from_gpu; FSDP copies each unit's
        // shard) and receives its shard of the updated 16-bit weights; with parameters offloaded every pass streams
        // the GPU's shard of the weights in again. The host's CPU Adam is shared by its GPUs.
        const double host = pcieGBs(gpu) * in.cluster.pcieEfficiency * 1e9;
        const double trainableShard = static_cast<double>(e.trainableParams) / (tp * pp * dp);
        double bytes = trainableShard * 4.0 + trainableShard * paramBytes(s.precision);
        if (s.offload == Offload::OptimizerAndParams) {
            bytes += weightsBytes / dp * passes * accum;
        }
        const double ranksPerHost = static_cast<double>(std::min<std::int64_t>(s.gpus, gpu.gpusPerNode));
        offloadSeconds = bytes / host + trainableShard * ranksPerHost / kCpuAdamParamsPerSecondPerHost;
    }
    t.offloadSeconds = offloadSeconds;
    t.commBytesPerGpu = dpBytes + tpBytes;
    t.commSeconds = dpSeconds + tpSeconds;
    const double busy = std::max(compute, t.memoryFloorSeconds);
    t.exposedCommSeconds = std::max(0.0, dpSeconds - in.cluster.overlap * busy) + tpSeconds + offloadSeconds;
    t.stepSeconds = busy + t.exposedCommSeconds;
    t.tokensPerSecond = t.stepSeconds > 0 ? t.tokensPerStep / t.stepSeconds : 0.0;
    return t;
}

CostPlan costPlan(const Scenario& s, const GpuSpec& gpu, const PlanInputs& in) {
    CostPlan c;
    c.step = stepTime(s, gpu, in);
    c.steps = std::ceil(in.datasetTokens * in.epochs / std::max(1.0, c.step.tokensPerStep));
    c.wallHours = c.steps * c.step.stepSeconds / 3600.0;
    c.gpuHours = c.wallHours * static_cast<double>(s.gpus);
    const double onDemand = in.pricePerGpuHour.value_or(gpu.priceOnDemandUsdHour);
    const double spot = in.pricePerGpuHour.value_or(gpu.priceSpotUsdHour);
    c.costOnDemandUsd = c.gpuHours * onDemand;
    c.costSpotUsd = c.gpuHours * spot;
    // A resumable checkpoint: the trained weights and their optimizer states (whole model, not one GPU's shard).
    Scenario single = onOneCard(s);
    single.sharding = Sharding::None;
    single.offload = Offload::None;
    const Estimate whole = estimate(single, Detail::NumbersOnly);
    const ParamCounts p = countParams(s.model);
    if (s.method == Method::Full) {
        c.checkpointBytes = static_cast<double>(p.total) * paramBytes(s.precision) +
                            static_cast<double>(whole.perGpu[Component::OptimizerStates]);
    } else {
        c.checkpointBytes = static_cast<double>(whole.trainableParams) * 4.0 +
                            static_cast<double>(whole.perGpu[Component::OptimizerStates]);
    }
    const double months = std::max(1.0, c.wallHours / (24.0 * 30.0));
    c.storageUsd = c.checkpointBytes / kGB * in.retainedCheckpoints * in.storageUsdPerGbMonth * months;
    return c;
}

namespace {

std::string layoutText(const Scenario& s) {
    std::string text = std::to_string(s.gpus) + (s.gpus == 1 ? " GPU" : " GPUs");
    if (s.tensorParallel > 1 || s.pipelineParallel > 1) {
        text += ", TP " + std::to_string(s.tensorParallel);
        if (s.pipelineParallel > 1) {
            text += " x PP " + std::to_string(s.pipelineParallel);
        }
    }
    if (s.sharding != Sharding::None) {
        text += std::string(", ") + (s.sharding == Sharding::Zero3   ? "ZeRO-3/FSDP"
                                     : s.sharding == Sharding::Zero2 ? "ZeRO-2"
                                                                     : "ZeRO-1");
    }
    if (s.offload != Offload::None) {
        text += std::string(", offload ") + toString(s.offload);
    }
    return text;
}

/// Layouts for `n` GPUs, cheapest communication first.
std::vector<Scenario> layoutsFor(const Scenario& base, const GpuSpec& gpu, std::int64_t n, bool allowOffload) {
    std::vector<Scenario> out;
    auto add = [&](std::int64_t tp, std::int64_t pp, Sharding sharding, Offload offload) {
        if (n % (tp * pp) != 0 || pp > base.model.numLayers) {
            return;
        }
        Scenario s = base;
        s.gpus = n;
        s.tensorParallel = tp;
        s.pipelineParallel = pp;
        s.sharding = n / (tp * pp) > 1 ? sharding : Sharding::None;
        s.offload = offload;
        out.push_back(s);
    };
    if (n == 1) {
        add(1, 1, Sharding::None, Offload::None);
    } else {
        add(1, 1, Sharding::Zero1, Offload::None);
        add(1, 1, Sharding::Zero2, Offload::None);
        add(1, 1, Sharding::Zero3, Offload::None);
    }
    for (std::int64_t tp = 2; tp <= std::min<std::int64_t>(n, gpu.gpusPerNode); tp *= 2) {
        add(tp, 1, Sharding::Zero1, Offload::None);
        add(tp, 1, Sharding::Zero3, Offload::None);
    }
    if (n > gpu.gpusPerNode) {
        for (std::int64_t pp = 2; pp <= 16; pp *= 2) {
            add(gpu.gpusPerNode, pp, Sharding::Zero1, Offload::None);
        }
    }
    if (allowOffload) {
        add(1, 1, n > 1 ? Sharding::Zero3 : Sharding::None, Offload::Optimizer);
        add(1, 1, n > 1 ? Sharding::Zero3 : Sharding::None, Offload::OptimizerAndParams);
    }
    return out;
}

std::vector<std::int64_t> cardCounts(const GpuSpec& gpu) {
    std::vector<std::int64_t> counts;
    for (std::int64_t n = 1; n < gpu.gpusPerNode; n *= 2) {
        counts.push_back(n);
    }
    for (std::int64_t nodes = 1; nodes * gpu.gpusPerNode <= kMaxCards; nodes = nodes < 4 ? nodes + 1 : nodes * 3 / 2) {
        counts.push_back(nodes * gpu.gpusPerNode);
    }
    return counts;
}

} // namespace

std::vector<FitSearchResult> fitSearch(const Scenario& scenario, const std::vector<GpuSpec>& gpus,
                                       const PlanInputs& inputs) {
    std::vector<FitSearchResult> results;
    for (const auto& gpu : gpus) {
        FitSearchResult r;
        r.gpu = &gpu;
        const std::int64_t usable = gpu.usableBytes();
        std::string lastFailure;
        for (std::int64_t n : cardCounts(gpu)) {
            const Scenario* best = nullptr;
            Estimate bestEstimate;
            std::vector<Scenario> layouts = layoutsFor(scenario, gpu, n, inputs.allowOffload);
            for (const auto& layout : layouts) {
                const Estimate e = estimate(layout, Detail::NumbersOnly);
                if (e.deviceBytes <= usable) {
                    r.found = true;
                    r.scenario = layout;
                    r.deviceBytes = e.deviceBytes;
                    r.layout = layoutText(layout);
                    r.cpuRamPerNodeBytes =
                        e.cpuOffloadBytesPerGpu * std::min<std::int64_t>(layout.gpus, gpu.gpusPerNode);
                    r.cpuRamWarning = static_cast<double>(r.cpuRamPerNodeBytes) > kTypicalNodeRamBytes;
                    break;
                }
                if (best == nullptr || e.deviceBytes < bestEstimate.deviceBytes) {
                    best = &layout;
                    bestEstimate = e;
                }
            }
            if (r.found) {
                break;
            }
            if (best != nullptr) {
                Component largest = Component::Weights;
                for (Component c : kAllComponents) {
                    if (bestEstimate.perGpu[c] > bestEstimate.perGpu[largest]) {
                        largest = c;
                    }
                }
                lastFailure = "with " + layoutText(*best) + ": " +
                              fmt(toGiB(static_cast<double>(bestEstimate.deviceBytes)), 1) + " GiB per GPU > " +
                              fmt(gpu.memoryGiBUsable, 1) + " GiB usable; largest part " + componentKey(largest) + " " +
                              fmt(toGiB(static_cast<double>(bestEstimate.perGpu[largest])), 1) + " GiB";
            }
        }
        r.whyFewerFail = lastFailure;
        if (r.found) {
            r.plan = costPlan(r.scenario, gpu, inputs);
        }
        results.push_back(std::move(r));
    }
    return results;
}

Ranking rank(const std::vector<FitSearchResult>& results, bool spot) {
    Ranking k;
    for (int i = 0; i < static_cast<int>(results.size()); ++i) {
        const auto& r = results[static_cast<std::size_t>(i)];
        if (!r.found) {
            continue;
        }
        const double cost = spot ? r.plan.costSpotUsd : r.plan.costOnDemandUsd;
        auto costOf = [&](int j) {
            const auto& p = results[static_cast<std::size_t>(j)].plan;
            return spot ? p.costSpotUsd : p.costOnDemandUsd;
        };
        if (k.cheapest < 0 || cost < costOf(k.cheapest)) {
            k.cheapest = i;
        }
        if (k.fastest < 0 || r.plan.wallHours < results[static_cast<std::size_t>(k.fastest)].plan.wallHours) {
            k.fastest = i;
        }
        if (k.bestCostTime < 0 ||
            cost * r.plan.wallHours <
                costOf(k.bestCostTime) * results[static_cast<std::size_t>(k.bestCostTime)].plan.wallHours) {
            k.bestCostTime = i;
        }
    }
    return k;
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
