#include "gpusizer/plan/Planner.h"

#include "gpusizer/plan/FitTable.h"
#include "gpusizer/scenario/FrameworkProfile.h"
#include "gpusizer/scenario/Units.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpusizer::core {

FitVerdict fitVerdict(std::int64_t deviceBytes, std::int64_t usableBytes, double marginShare) {
    const double device = static_cast<double>(deviceBytes);
    const double usable = static_cast<double>(usableBytes);
    if (device * (1.0 + marginShare) <= usable) {
        return FitVerdict::Fits;
    }
    return device <= usable ? FitVerdict::Tight : FitVerdict::DoesNotFit;
}

double fitMargin(const Scenario& scenario, const PlanInputs& inputs) {
    return inputs.marginShare.value_or(bandFor(scenario, profileFor(scenario)).up);
}

double hostRamBytesPerNode(const GpuSpec& gpu, const PlanInputs& inputs) {
    if (inputs.hostRamGiBPerNode) {
        return *inputs.hostRamGiBPerNode * kGiB;
    }
    const double perGpu = gpu.hostRamGiBPerGpu > 0 ? gpu.hostRamGiBPerGpu : kDefaultHostRamGiBPerGpu;
    return perGpu * static_cast<double>(gpu.gpusPerNode) * kGiB;
}

std::vector<std::int64_t> cardCounts(const GpuSpec& gpu, std::int64_t maxGpus) {
    std::vector<std::int64_t> counts;
    for (std::int64_t n = 1; n < gpu.gpusPerNode && n <= maxGpus; n *= 2) {
        counts.push_back(n);
    }
    // Whole nodes: the powers of two (global batches and layer counts split evenly there) and 1.5x each (3, 6, 12,
    // ...).
    for (std::int64_t pow2 = 1; pow2 * gpu.gpusPerNode <= maxGpus; pow2 *= 2) {
        counts.push_back(pow2 * gpu.gpusPerNode);
        if (pow2 >= 2 && pow2 * 3 / 2 * gpu.gpusPerNode <= maxGpus) {
            counts.push_back(pow2 * 3 / 2 * gpu.gpusPerNode);
        }
    }
    std::sort(counts.begin(), counts.end());
    return counts;
}

std::vector<std::int64_t> cardCounts(const GpuSpec& gpu, const PlanInputs& inputs) {
    const bool oneNode = !gpu.multiNode && inputs.cluster.network == Network::Auto;
    return cardCounts(gpu, oneNode ? std::min<std::int64_t>(inputs.maxGpus, gpu.gpusPerNode) : inputs.maxGpus);
}

std::vector<SoftwareFeature> requiredSoftware(const Scenario& s) {
    std::vector<SoftwareFeature> need;
    if (s.method == Method::Qlora) {
        need.push_back(SoftwareFeature::BitsandbytesQuantization); // Linear4bit / Linear8bitLt layers
    }
    if (s.optimizer == Optimizer::AdamW8bit || s.optimizer == Optimizer::PagedAdamW ||
        s.optimizer == Optimizer::PagedAdamW8bit) {
        need.push_back(SoftwareFeature::BitsandbytesOptimizers);
    }
    if (s.attention == Attention::Flash) {
        need.push_back(SoftwareFeature::FlashAttention2);
    }
    if (s.ligerRmsNorm || s.ligerGlu || s.ligerRope || s.loss == Loss::FusedLinear || s.loss == Loss::CutCrossEntropy) {
        need.push_back(SoftwareFeature::TritonKernels);
    }
    if (s.framework == Framework::Colossalai) {
        need.push_back(SoftwareFeature::Colossalai);
    }
    // The sharding engine runs only when the layout shards or offloads; plain data parallelism is DDP.
    const bool engineRuns = (s.gpus > 1 && s.sharding != Sharding::None) || s.offload != Offload::None;
    if (engineRuns) {
        switch (profileFor(s).engine) {
        case ShardingEngine::Deepspeed:
        case ShardingEngine::Auto:
            need.push_back(SoftwareFeature::Deepspeed);
            break;
        case ShardingEngine::Fsdp1:
        case ShardingEngine::Fsdp2:
            need.push_back(SoftwareFeature::Fsdp);
            break;
        case ShardingEngine::Megatron:
        case ShardingEngine::Gemini: // ColossalAI's own (the colossalai feature above)
            break;
        }
    }
    return need;
}

std::int64_t vllmServerBudgetBytes(const GpuSpec& gpu) {
    return static_cast<std::int64_t>(kVllmServeMemoryShare * static_cast<double>(gpu.usableBytes()));
}

std::int64_t vllmServerGpusNeeded(const Estimate& e, const GpuSpec& gpu) {
    // vLLM serves a 16-bit copy of every weight, split over its tensor-parallel GPUs (Generation.cpp).
    const double weights = 2.0 * static_cast<double>(e.params.total);
    const auto budget = static_cast<double>(vllmServerBudgetBytes(gpu));
    for (std::int64_t n = 1; n <= 1024; n *= 2) {
        if (weights / static_cast<double>(n) <= budget) {
            return n;
        }
    }
    return 0;
}

std::vector<SoftwareGap> missingSoftware(const Scenario& s, const GpuSpec& gpu) {
    std::vector<SoftwareGap> gaps;
    if (gpu.lacks.empty()) {
        return gaps;
    }
    for (SoftwareFeature f : requiredSoftware(s)) {
        if (const SoftwareGap* gap = gpu.lacking(f)) {
            gaps.push_back(*gap);
        }
    }
    return gaps;
}

bool meetsDeadline(const Candidate& c, const PlanInputs& inputs) {
    return !inputs.deadlineHours || c.plan.wallHours <= *inputs.deadlineHours;
}

double costOf(const Candidate& c, const PlanInputs& inputs) {
    // A card without a spot offer (spot price 0) is ranked on demand, as rankedHourlyPrice prices it.
    return inputs.spot && c.plan.costSpotUsd > 0 ? c.plan.costSpotUsd : c.plan.costOnDemandUsd;
}

namespace {

bool usesBf16(Precision p) {
    return p == Precision::Bf16 || p == Precision::AmpBf16 || p == Precision::Bf16Fp32Master ||
           p == Precision::FsdpMixedBf16 || p == Precision::Bf16Bf16Master;
}

/// The fp16 recipe with the same bytes, for cards without bf16 (T4, V100).
Precision fp16Counterpart(Precision p) {
    switch (p) {
    case Precision::Bf16:
        return Precision::Fp16;
    case Precision::AmpBf16:
    case Precision::FsdpMixedBf16:
        return Precision::AmpFp16;
    case Precision::Bf16Fp32Master:
    case Precision::Bf16Bf16Master: // DeepSpeed has an fp16 master option but no fp16 optimizer states
        return Precision::Fp16Fp32Master;
    default:
        return p;
    }
}

/// One layout without its batch split and checkpointing: the degrees, the ZeRO stage and the offload.
struct Layout {
    std::int64_t tp = 1, pp = 1, ep = 1;
    Sharding sharding = Sharding::None;
    Offload offload = Offload::None;
};

/// Everything a search over one card needs, computed once.
class CardSearch {
public:
    CardSearch(const Scenario& base, const GpuSpec& gpu, const PlanInputs& inputs)
        : m_base(trimmed(base, gpu)), m_gpu(gpu), m_in(inputs), m_profile(profileFor(base)),
          m_margin(fitMargin(base, inputs)), m_usable(gpu.usableBytes()),
          m_vllmServerBudget(vllmServerBudgetBytes(gpu)), m_hostRam(hostRamBytesPerNode(gpu, inputs)),
          m_fp16(!gpu.bf16 && usesBf16(base.precision)), m_noFp8(base.float8 != Float8::Off && gpu.fp8Tflops <= 0),
          m_checkpoint(checkpointBytes(base)), m_result(resultBytes(base)) {
        const Estimate e =
            estimate(base.checkpointing == Checkpointing::Auto ? withCheckpointing(base) : base, Detail::NumbersOnly);
        m_trainable = static_cast<double>(e.trainableParams);
        m_total = static_cast<double>(e.params.total);
        // The model states of the whole run on one card: at n cards no layout without offload holds less than 1/n of
        // them per GPU (ZeRO-3, TP, PP and EP all divide them at most n ways).
        Scenario whole = onOneCard(base.checkpointing == Checkpointing::Auto ? withCheckpointing(base) : base);
        whole.sharding = Sharding::None;
        whole.offload = Offload::None;
        const Estimate one = estimate(whole, Detail::NumbersOnly);
        m_stateBytes = static_cast<double>(one.perGpu[Component::Weights] + one.perGpu[Component::Gradients] +
                                           one.perGpu[Component::OptimizerStates]);
        // The optimizer's moments and the trainable weights as stored, whole: no layout holds less than 1/n of them
        // per GPU (a master copy the layout may alias, DeepSpeed's bf16 one under ZeRO-3, is left out).
        m_optimizerMomentBytes = static_cast<double>(one.perGpu[Component::OptimizerStates] - one.optimizerMasterBytes);
        m_optimizerWeightBytes = static_cast<double>(one.optimizerWeightBytes);
        m_routedTrainable = static_cast<double>(e.routedTrainableParams);
        m_routedTotal = static_cast<double>(e.routedExpertParams);
        // Sequences per step: one per micro-batch slot of each data-parallel group (context-parallel ranks share one).
        m_cp = std::max<std::int64_t>(1, base.contextParallel);
        const std::int64_t baseGroup = std::max<std::int64_t>(1, base.tensorParallel * base.pipelineParallel * m_cp);
        m_globalBatch = base.microBatch * base.gradientAccumulation * std::max<std::int64_t>(1, base.gpus / baseGroup);
        if (base.checkpointing == Checkpointing::Auto) {
            m_checkpointing = {Checkpointing::None, Checkpointing::Selective, Checkpointing::Full};
        } else {
            m_checkpointing = {base.checkpointing};
        }
    }

    std::int64_t tried() const { return m_tried; }

    /// The layouts a practitioner would try at `n` cards, the offload ones last. With `keepBatch`, only those whose
    /// data-parallel ranks divide the sequences of one optimizer step: any other split changes the global batch.
    std::vector<Layout> layoutsAt(std::int64_t n, bool offload, bool keepBatch = true) const {
        std::vector<Layout> out;
        const auto batchAllows = [&](std::int64_t dp) { return !keepBatch || globalBatchFor(dp).has_value(); };
        const ModelArch& m = m_base.model;
        const std::int64_t kv = m.numKvHeads > 0 ? m.numKvHeads : m.numHeads;
        if (offload) {
            if (!m_in.allowOffload || m_profile.engine == ShardingEngine::Megatron) {
                return out;
            }
            if (n % m_cp != 0 || !batchAllows(n / m_cp)) {
                return out;
            }
            const Sharding dpStage = n > 1 ? Sharding::Zero3 : Sharding::None;
            if (m_profile.engine == ShardingEngine::Deepspeed) {
                out.push_back({1, 1, 1, n > 1 ? Sharding::Zero2 : Sharding::None, Offload::Optimizer});
            }
            out.push_back({1, 1, 1, dpStage, Offload::OptimizerAndParams});
            return out;
        }
        // QLoRA runs on data-parallel and sharded layouts only: bitsandbytes' 4-bit layers have no tensor- or
        // pipeline-parallel implementation in the mainstream stacks (Answer.AI's FSDP-QLoRA, DeepSpeed ZeRO-3 with
        // bnb_4bit_quant_storage, PEFT's docs); nor do its experts split.
        const bool dataParallelOnly = m_base.method == Method::Qlora;
        const bool tensorParallel = !dataParallelOnly && m_profile.runsTensorParallel;
        const bool pipelineParallel = !dataParallelOnly && m_profile.runsPipelineParallel;
        std::vector<std::int64_t> tps{1};
        for (std::int64_t t = 2; tensorParallel && t <= std::min<std::int64_t>(n, m_gpu.gpusPerNode); t *= 2) {
            // (Ulysses also splits each tensor-parallel rank's heads over the sequence's ranks.)
            const bool ulyssesAllows = m_base.contextParallel <= 1 ||
                                       m_base.contextParallelKind != ContextParallel::Ulysses ||
                                       ulyssesSplitsHeads(m, t, m_cp);
            if (m_gpu.gpusPerNode % t == 0 && m.numHeads % t == 0 && kv % t == 0 && ulyssesAllows) {
                tps.push_back(t);
            }
        }
        std::vector<std::int64_t> pps{1};
        for (std::int64_t p : {2, 3, 4, 6, 8, 12, 16}) {
            if (pipelineParallel && p <= n && m.numLayers % p == 0) {
                pps.push_back(p);
            }
        }
        for (std::int64_t tp : tps) {
            for (std::int64_t pp : pps) {
                if (n % (tp * pp * m_cp) != 0) {
                    continue;
                }
                const std::int64_t dp = n / (tp * pp); // the sharding group: data- and context-parallel ranks
                if (!batchAllows(dp / m_cp)) {
                    continue;
                }
                std::vector<std::int64_t> eps{1};
                if (m.isMoe() && !dataParallelOnly) {
                    for (std::int64_t e = 2; e <= std::min<std::int64_t>(dp, 64); e *= 2) {
                        if (m.moe.numExperts % e == 0 && dp % e == 0) {
                            eps.push_back(e);
                        }
                    }
                }
                for (std::int64_t ep : eps) {
                    for (Sharding stage : stagesFor(dp)) {
                        out.push_back({tp, pp, ep, stage, Offload::None});
                    }
                }
            }
        }
        return out;
    }

    /// A layout's fastest variant that fits at `n`, or its closest miss (the least-memory variant).
    Candidate bestVariant(const Layout& layout, std::int64_t n) {
        // The least memory first: the last checkpointing option at micro-batch 1. If it misses, every variant does.
        Candidate least = evaluate(apply(layout, n, m_checkpointing.back(), 1));
        if (!least.fits() && m_in.prune) {
            return least;
        }
        std::optional<Candidate> best;
        for (Checkpointing ckpt : m_checkpointing) {
            for (std::int64_t mb : microBatches()) {
                Candidate c =
                    (ckpt == m_checkpointing.back() && mb == 1) ? least : evaluate(apply(layout, n, ckpt, mb));
                if (!c.fits()) {
                    continue;
                }
                price(c);
                if (!best || c.plan.wallHours < best->plan.wallHours) {
                    best = std::move(c);
                }
                if (m_in.prune && layout.pp == 1) {
                    // Without a pipeline a smaller micro-batch only adds gradient-accumulation passes (more weight
                    // streaming and ZeRO traffic, the same compute); with one, more micro-batches shrink the bubble.
                    break;
                }
            }
            if (best && m_in.prune) {
                break; // checkpointing options run fastest first: the first that fits is the fastest
            }
        }
        return best ? std::move(*best) : least;
    }

    /// The fastest layout that fits at `n` (offload only when nothing else fits), or the closest miss. LoRA takes
    /// tensor or pipeline parallelism only where no data-parallel or sharded layout fits at `n`: adapters train on
    /// replicas or shards of the base (PEFT with DDP, FSDP or ZeRO), as practitioners run them.
    Candidate bestAt(std::int64_t n) {
        std::optional<Candidate> best;
        std::optional<Candidate> miss;
        for (bool offload : {false, true}) {
            // Cheapest bound first; a layout whose bound cannot beat the best found is dominated and skipped.
            std::vector<std::pair<double, Layout>> ordered;
            std::vector<Layout> layouts = layoutsAt(n, offload);
            if (!offload && m_in.prune && !layouts.empty() && statesCannotFit(n)) {
                // Every layout misses: the most sharded one (the last of the list, ZeRO-3) stands for the miss.
                layouts = {layouts.back()};
            }
            const bool loraDataParallelFirst = m_base.method == Method::Lora && !offload;
            for (const Layout& layout : layouts) {
                if (loraDataParallelFirst && (layout.tp > 1 || layout.pp > 1)) {
                    continue;
                }
                ordered.emplace_back(wallLowerBound(layout, n), layout);
            }
            if (loraDataParallelFirst) {
                visit(ordered, n, best, miss);
                if (best) {
                    return std::move(*best);
                }
                ordered.clear();
                for (const Layout& layout : layouts) {
                    if (layout.tp > 1 || layout.pp > 1) {
                        ordered.emplace_back(wallLowerBound(layout, n), layout);
                    }
                }
            }
            visit(ordered, n, best, miss);
            if (best && m_in.prune) {
                break; // offload only adds PCIe traffic and CPU time at the same count
            }
        }
        if (best) {
            return std::move(*best);
        }
        if (miss) {
            return std::move(*miss);
        }
        Candidate none;
        none.scenario = m_base;
        none.scenario.gpus = n;
        none.globalBatchSequences = m_globalBatch;
        none.softwareGaps = missingSoftware(none.scenario, m_gpu);
        const bool batchBound = !layoutsAt(n, false, false).empty() || !layoutsAt(n, true, false).empty();
        none.why = n > m_in.maxGpus ? Infeasible::CardLimit : batchBound ? Infeasible::GlobalBatch : Infeasible::Layout;
        return none;
    }

    /// A lower bound on the cost of any plan at n cards: the run's FLOPs at the card's peak x utilisation, its
    /// element-wise kernels and optimizer steps at the card's bandwidth (count-independent GPU-hours) plus n cards held
    /// through the fixed costs that do not depend on the layout.
    double costLowerBound(std::int64_t n) const {
        const Scenario s = apply(Layout{}, m_cp, m_checkpointing.front(), 1);
        const double flops = trainingFlopsPerToken(s);
        const double peak = std::max(m_gpu.bf16Tflops, m_base.float8 != Float8::Off ? m_gpu.fp8Tflops : 0.0) * 1e12;
        const double tokens = m_in.datasetTokens * m_in.epochs;
        const double bandwidth = m_gpu.bandwidthTBs * 1e12;
        // The optimizer steps the whole model once per step however it is split (an offloaded step on the host's
        // CPUs takes longer than this).
        Scenario whole = s;
        whole.gpus = 1;
        whole.sharding = Sharding::None;
        whole.offload = Offload::None;
        // Steps at the largest global batch a plan may take (a flexible batch can be larger than the scenario's).
        const std::int64_t sequences =
            m_in.globalBatch.flexible ? std::max(m_globalBatch, m_in.globalBatch.maxSequences) : m_globalBatch;
        const double steps = tokens / std::max(1.0, static_cast<double>(sequences) * sequencesPerExample(s) *
                                                        static_cast<double>(s.seqLen));
        const double gpuSeconds =
            tokens * flops / (peak * std::clamp(mfuFor(m_gpu, m_in).mfu, 0.01, 1.0)) +
            tokens * baseElementwiseBytesPerTrainedToken(s, m_profile) / bandwidth +
            steps * optimizerStepBytesPerGpu(whole, m_profile, m_optimizerWeightBytes, 0.0, m_optimizerMomentBytes) /
                bandwidth;
        Scenario at = s;
        at.gpus = n;
        FixedCosts f = fixedCosts(at, m_gpu, m_in);
        f.finalSaveSeconds = 0; // depends on the writers: left out of the bound
        return rankedHourlyPrice(m_gpu, m_in) * (gpuSeconds + static_cast<double>(n) * f.totalSeconds()) / 3600.0;
    }

    /// Whether 1/n of the model states alone, with the margin, exceeds the card: then no layout without offload fits
    /// at n cards.
    bool statesCannotFit(std::int64_t n) const {
        return m_stateBytes / static_cast<double>(n) * (1.0 + m_margin) > static_cast<double>(m_usable);
    }

    /// Evaluates layouts in the order of their wall-time bound, keeping the fastest that fits and the closest miss.
    void visit(std::vector<std::pair<double, Layout>>& ordered, std::int64_t n, std::optional<Candidate>& best,
               std::optional<Candidate>& miss) {
        std::stable_sort(ordered.begin(), ordered.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& [bound, layout] : ordered) {
            if (best && bound >= best->plan.wallHours && m_in.prune) {
                break;
            }
            Candidate c = bestVariant(layout, n);
            if (c.fits()) {
                if (!best || c.plan.wallHours < best->plan.wallHours) {
                    best = std::move(c);
                }
            } else if (!miss || closer(c, *miss)) {
                miss = std::move(c);
            }
        }
    }

    /// The global batch (sequences per step) a layout with `groups` data-parallel groups runs: the scenario's when the
    /// groups divide it; flexible, the multiple of the groups nearest to it within the user's range (the larger on a
    /// tie); nullopt when there is none.
    std::optional<std::int64_t> globalBatchFor(std::int64_t groups) const {
        if (m_globalBatch % groups == 0) {
            const GlobalBatch& g = m_in.globalBatch;
            if (!g.flexible || (m_globalBatch >= g.minSequences && m_globalBatch <= g.maxSequences)) {
                return m_globalBatch;
            }
        }
        if (!m_in.globalBatch.flexible) {
            return std::nullopt;
        }
        const std::int64_t lo = std::max<std::int64_t>(1, m_in.globalBatch.minSequences);
        const std::int64_t hi = m_in.globalBatch.maxSequences;
        const std::int64_t below = (std::min(m_globalBatch, hi) / groups) * groups;
        const std::int64_t above = ((std::max(m_globalBatch, lo) + groups - 1) / groups) * groups;
        const bool belowOk = below >= lo && below > 0;
        const bool aboveOk = above <= hi;
        if (belowOk && aboveOk) {
            return m_globalBatch - below < above - m_globalBatch ? below : above;
        }
        if (aboveOk) {
            return above;
        }
        if (belowOk) {
            return below;
        }
        return std::nullopt;
    }

    /// The scenario exactly as given, on this card.
    Candidate asIs() {
        Scenario s = m_base;
        if (s.checkpointing == Checkpointing::Auto) {
            s.checkpointing = Checkpointing::Full;
        }
        if (m_fp16) {
            s.precision = fp16Counterpart(s.precision);
        }
        if (m_noFp8) {
            s.float8 = Float8::Off;
            s.float8AllGather = false;
        }
        Candidate c = evaluate(s);
        if (c.fits()) {
            price(c);
        }
        return c;
    }

private:
    std::vector<Sharding> stagesFor(std::int64_t dp) const {
        // DeepSpeed runs its bf16 master only under ZeRO (runtime/config.py:1041-1044 @edaa7221), one GPU included.
        if (m_base.precision == Precision::Bf16Bf16Master) {
            return dp <= 1 ? std::vector<Sharding>{Sharding::Zero1}
                           : std::vector<Sharding>{Sharding::Zero1, Sharding::Zero2, Sharding::Zero3};
        }
        if (dp <= 1) {
            return {Sharding::None};
        }
        switch (m_profile.engine) {
        case ShardingEngine::Megatron:
            return {Sharding::None, Sharding::Zero1};
        case ShardingEngine::Fsdp1:
        case ShardingEngine::Fsdp2:
            return {Sharding::None, Sharding::Zero2, Sharding::Zero3}; // NO_SHARD, SHARD_GRAD_OP, FULL_SHARD
        case ShardingEngine::Deepspeed:
        case ShardingEngine::Auto:
        case ShardingEngine::Gemini:
            break;
        }
        return {Sharding::None, Sharding::Zero1, Sharding::Zero2, Sharding::Zero3};
    }

    /// The user's micro-batch and its halvings down to the objective's smallest (1; KTO 2).
    std::vector<std::int64_t> microBatches() const {
        const std::int64_t smallest = smallestMicroBatch(m_base);
        std::vector<std::int64_t> out;
        for (std::int64_t mb = std::max(smallest, m_base.microBatch); mb >= smallest; mb /= 2) {
            out.push_back(mb);
        }
        if (out.back() != smallest) {
            out.push_back(smallest);
        }
        return out;
    }

    Scenario apply(const Layout& l, std::int64_t n, Checkpointing ckpt, std::int64_t mb) const {
        Scenario s = m_base;
        s.gpus = n;
        s.tensorParallel = l.tp;
        s.pipelineParallel = l.pp;
        s.expertParallel = l.ep;
        s.sharding = l.sharding;
        s.offload = l.offload;
        s.checkpointing = ckpt;
        if (m_fp16) {
            s.precision = fp16Counterpart(s.precision);
        }
        if (m_noFp8) {
            s.float8 = Float8::Off;
            s.float8AllGather = false;
        }
        // Keep the global batch (sequences per optimizer step): accumulation makes up what the micro-batches and the
        // data-parallel ranks do not.
        const std::int64_t groups = n / (l.tp * l.pp * m_cp);
        const std::int64_t perRank = globalBatchFor(groups).value_or(m_globalBatch) / groups; // layoutsAt keeps these
        s.microBatch = std::min(mb, perRank);
        while (perRank % s.microBatch != 0) {
            --s.microBatch;
        }
        s.gradientAccumulation = perRank / s.microBatch;
        return s;
    }

    Candidate evaluate(Scenario s) {
        ++m_tried;
        Candidate c;
        c.scenario = std::move(s);
        c.usableBytes = m_usable;
        c.marginShare = m_margin;
        c.fp16Instead = m_fp16;
        c.bf16InsteadOfFloat8 = m_noFp8;
        const std::int64_t groups = std::max<std::int64_t>(
            1, c.scenario.gpus / std::max<std::int64_t>(1, c.scenario.tensorParallel * c.scenario.pipelineParallel *
                                                               std::max<std::int64_t>(1, c.scenario.contextParallel)));
        c.globalBatchSequences = c.scenario.microBatch * c.scenario.gradientAccumulation * groups;
        c.hostRamLimitBytes = static_cast<std::int64_t>(m_hostRam);
        if (rentedGpus(c.scenario) > m_in.maxGpus) { // a vLLM server's GPUs count against the limit too
            c.why = Infeasible::CardLimit;
            c.estimate.precision = c.scenario.precision; // not sized: the verdict names the recipe asked for
            return c;
        }
        if (c.scenario.microBatch < smallestMicroBatch(c.scenario)) {
            // KTO over so many ranks that one holds a single example: no KL completion from another (kto_trainer.py).
            c.why = Infeasible::GlobalBatch;
            c.estimate.precision = c.scenario.precision;
            return c;
        }
        c.softwareGaps = missingSoftware(c.scenario, m_gpu);

        c.estimate = estimate(c.scenario, Detail::NumbersOnly);
        c.deviceBytes = c.estimate.deviceBytes;
        for (Component comp : kAllComponents) {
            if (c.estimate.perGpu[comp] > c.largestComponentBytes) {
                c.largestComponent = comp;
                c.largestComponentBytes = c.estimate.perGpu[comp];
            }
        }
        c.verdict = fitVerdict(c.deviceBytes, m_usable, m_margin);
        c.hostRamPerNodeBytes =
            c.estimate.cpuOffloadBytesPerGpu * std::min<std::int64_t>(c.scenario.gpus, m_gpu.gpusPerNode);
        if (!c.softwareGaps.empty()) {
            c.why = Infeasible::Software;
            c.verdict = FitVerdict::DoesNotFit;
        } else if (c.verdict != FitVerdict::Fits) {
            c.why = Infeasible::GpuMemory;
        } else if (static_cast<double>(c.hostRamPerNodeBytes) > m_hostRam) {
            c.why = Infeasible::HostRam;
            c.verdict = FitVerdict::DoesNotFit; // the verdict is the whole answer: Fits exactly when it can run
        } else if (serverGpus(c.scenario) > 0 && c.estimate.vllmWeightsBytes > m_vllmServerBudget) {
            // vLLM stops at start-up when its weights leave no room for cache blocks (gpu_worker.py).
            c.why = Infeasible::VllmServer;
            c.verdict = FitVerdict::DoesNotFit;
            c.vllmServerBudgetBytes = m_vllmServerBudget;
            c.vllmServerGpusNeeded = vllmServerGpusNeeded(c.estimate, m_gpu);
        }
        return c;
    }

    /// Time and cost of a candidate that fits.
    void price(Candidate& c) {
        const StepFacts facts = StepFacts::of(c.scenario, c.estimate, flopsFor(c.scenario));
        c.plan = costPlan(c.scenario, m_gpu, m_in, facts, m_checkpoint, m_result);
    }

    /// Training FLOPs per token, which depend on the checkpointing only (cached).
    double flopsFor(const Scenario& s) {
        const auto key = static_cast<std::size_t>(s.checkpointing);
        if (m_flops.size() <= key) {
            m_flops.resize(key + 1, -1.0);
        }
        if (m_flops[key] < 0) {
            m_flops[key] = trainingFlopsPerToken(s);
        }
        return m_flops[key];
    }

    static Scenario withCheckpointing(Scenario s) {
        s.checkpointing = Checkpointing::Full;
        return s;
    }

public:
    /// A lower bound on a layout's wall time at `n` (no memory-bandwidth floor, 1/n of the optimizer states, the
    /// fastest checkpointing, the micro-batch split with the smallest pipeline bubble): a layout whose bound is slower
    /// than a fitting one loses.
    double wallLowerBound(const Layout& layout, std::int64_t n) {
        double best = std::numeric_limits<double>::infinity();
        // Without a pipeline the largest micro-batch bounds it (a smaller one only adds accumulation passes and their
        // traffic); with one, micro-batch 1 may shrink the bubble more.
        const std::vector<std::int64_t> splits =
            layout.pp == 1 ? std::vector<std::int64_t>{microBatches().front()}
                           : std::vector<std::int64_t>{microBatches().front(), std::int64_t{1}};
        for (std::int64_t mb : splits) {
            const Scenario s = apply(layout, n, m_checkpointing.front(), mb);
            // The base model's element-wise kernels and the optimizer step run in any layout; no layout holds less than
            // 1/n of the optimizer states per GPU.
            StepFacts facts;
            facts.flopsPerToken = flopsFor(s);
            facts.trainableParams = m_trainable;
            facts.totalParams = m_total;
            facts.routedTrainableParams = m_routedTrainable;
            facts.routedTotalParams = m_routedTotal;
            facts.float8FlopsPerToken = float8FlopsPerToken(s);
            facts.float8GatheredParams = float8GatheredParams(s);
            facts.baseElementwiseBytes = baseElementwiseBytesPerTrainedToken(s, m_profile);
            facts.adapterElementwiseBytes = adapterElementwiseBytesPerToken(s, profileFor(s)); // the layout's own
            // Without ZeRO only the model-parallel split (and expert parallelism, at most) divides the optimizer's
            // share; with it, at most all n ranks.
            const double split = s.sharding == Sharding::None && s.offload == Offload::None
                                     ? static_cast<double>(s.tensorParallel * s.pipelineParallel *
                                                           std::max<std::int64_t>(1, s.expertParallel))
                                     : static_cast<double>(n);
            facts.optimizerStepBytes = optimizerStepBytesPerGpu(s, m_profile, m_optimizerWeightBytes / split, 0.0,
                                                                m_optimizerMomentBytes / split);
            best = std::min(best, costPlan(s, m_gpu, m_in, facts, m_checkpoint, m_result).wallHours);
        }
        return best;
    }

private:
    /// The closer miss: a host-RAM miss is closer than a memory one; among memory misses the smaller overshoot.
    static bool closer(const Candidate& a, const Candidate& b) {
        if (a.why != b.why) {
            return a.why == Infeasible::HostRam || a.why == Infeasible::VllmServer || b.why == Infeasible::Layout ||
                   b.why == Infeasible::CardLimit || b.why == Infeasible::GlobalBatch || b.why == Infeasible::Software;
        }
        return static_cast<double>(a.deviceBytes) < static_cast<double>(b.deviceBytes);
    }

    /// The scenario on this card's nodes, without what a layout search never reads (measurements, name): copies stay
    /// cheap.
    static Scenario trimmed(Scenario s, const GpuSpec& gpu) {
        placeOnCard(s, gpu);
        s.measurements.clear();
        s.name.clear();
        s.model.name.clear();
        return s;
    }

    Scenario m_base;
    const GpuSpec& m_gpu;
    const PlanInputs& m_in;
    FrameworkProfile m_profile;
    double m_margin;
    std::int64_t m_usable;
    std::int64_t m_vllmServerBudget; // what one vLLM server GPU may hold (vllmServerBudgetBytes)
    double m_hostRam;
    bool m_fp16;
    bool m_noFp8; // float8 asked for, but this card has no FP8 tensor cores: planned with bf16 matmuls
    double m_checkpoint;
    double m_result;
    std::int64_t m_globalBatch = 1;
    std::int64_t m_cp = 1; // the scenario's context-parallel degree (kept by every layout)
    std::vector<Checkpointing> m_checkpointing;
    std::vector<double> m_flops;
    double m_trainable = 0;
    double m_total = 0;
    double m_stateBytes = 0;           ///< weights, gradients and optimizer states of the whole run, unsharded
    double m_optimizerMomentBytes = 0; ///< the optimizer's own states of the whole run, unsharded (no master copy)
    double m_optimizerWeightBytes = 0; ///< the trainable weights as stored, whole
    double m_routedTrainable = 0;
    double m_routedTotal = 0;
    std::int64_t m_tried = 0;
};

/// Orders candidates that fit by the objective, as a strict order on their figures: first the group the objective
/// prefers (plans that meet the deadline; plans within the balanced window), then the group's figure (cost, or wall
/// time), then the other. Near-ties are settled by pickByObjective, not here: "within 0.5% counts as equal" does not
/// chain (A ties B, B ties C, A does not tie C), so it cannot be a sort order.
struct ObjectiveOrder {
    Objective objective;
    const PlanInputs& in;
    double fastestWall;

    bool preferred(const Candidate& c) const {
        switch (objective) {
        case Objective::Cost:
            return meetsDeadline(c, in);
        case Objective::Time:
            return true;
        case Objective::Balanced:
            return c.plan.wallHours <= kBalancedTimeFactor * fastestWall;
        }
        return true;
    }
    /// Whether the group ranks by cost first (else by wall time): the cost objective's plans that meet the deadline,
    /// the balanced window's plans. Without a plan that meets the deadline, the fastest comes first.
    bool costFirst(bool inPreferredGroup) const { return inPreferredGroup && objective != Objective::Time; }
    double primary(const Candidate& c, bool byCost) const { return byCost ? costOf(c, in) : c.plan.wallHours; }
    double secondary(const Candidate& c, bool byCost) const { return byCost ? c.plan.wallHours : costOf(c, in); }
    /// Whether the plan's speed rests on a published utilisation (or the user's): a plan on a card whose throughput is
    /// only assumed (kUnpublishedMfu) ranks after every plan that has one, whatever the objective says of it, as a
    /// practitioner rents the card whose speed is known and measures the other first.
    static bool evidenced(const Candidate& c) { return c.plan.mfu.source != MfuSource::Unpublished; }
    bool operator()(const Candidate& a, const Candidate& b) const {
        if (evidenced(a) != evidenced(b)) {
            return evidenced(a);
        }
        const bool pa = preferred(a), pb = preferred(b);
        if (pa != pb) {
            return pa;
        }
        const bool byCost = costFirst(pa);
        const double fa = primary(a, byCost), fb = primary(b, byCost);
        if (fa != fb) {
            return fa < fb;
        }
        return secondary(a, byCost) < secondary(b, byCost);
    }
};

/// The objective's choice among `fits` (not empty): the best plan by the order, then, among the plans of its group
/// whose figure is within kPlanTieShare of it, the best by the other figure (the faster of two plans that cost the
/// same within half a percent). The window is anchored at the best figure, so the choice never drifts along a chain
/// of near-ties, and a plan whose figure exceeds the best by more than the share can never be chosen.
template <typename At>
std::size_t pickByObjective(std::size_t count, At at, const ObjectiveOrder& order) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < count; ++i) {
        if (order(at(i), at(best))) {
            best = i;
        }
    }
    const bool group = order.preferred(at(best));
    const bool byCost = order.costFirst(group);
    const double limit = order.primary(at(best), byCost) * (1.0 + kPlanTieShare);
    std::size_t chosen = best;
    for (std::size_t i = 0; i < count; ++i) {
        const Candidate& c = at(i);
        if (order.preferred(c) != group || ObjectiveOrder::evidenced(c) != ObjectiveOrder::evidenced(at(best)) ||
            order.primary(c, byCost) > limit) {
            continue;
        }
        const double s = order.secondary(c, byCost), sc = order.secondary(at(chosen), byCost);
        if (s < sc || (s == sc && order(c, at(chosen)))) {
            chosen = i;
        }
    }
    return chosen;
}

double fastestWall(const std::vector<Candidate>& fits) {
    double fastest = std::numeric_limits<double>::infinity();
    for (const auto& c : fits) {
        fastest = std::min(fastest, c.plan.wallHours);
    }
    return fastest;
}

} // namespace

Candidate fitAsIs(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs) {
    CardSearch search(scenario, gpu, inputs);
    return search.asIs();
}

Candidate fitAtCount(const Scenario& scenario, const GpuSpec& gpu, std::int64_t count, const PlanInputs& inputs) {
    CardSearch search(scenario, gpu, inputs);
    return search.bestAt(count);
}

namespace {

constexpr std::int64_t kMaxContextParallel = 32; // the largest degree the search tries

/// The search over one card at the scenario's own context-parallel degree.
CardPlan searchCard(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs);

/// Whether a miss is the sequence's: activations and logits at least half of the device usage of the largest count
/// tried. Then splitting the sequence (context parallelism) may fit where more sharding cannot.
bool sequenceBound(const CardPlan& plan) {
    if (plan.found || !plan.fewerCards || plan.fewerCards->why != Infeasible::GpuMemory) {
        return false;
    }
    const Estimate& e = plan.fewerCards->estimate;
    const std::int64_t perSequence = e.perGpu[Component::Activations] + e.perGpu[Component::LogitsLoss];
    return 2 * perSequence >= e.deviceBytes;
}

} // namespace

Scenario withContextParallel(const Scenario& scenario, std::int64_t cp) {
    Scenario split = scenario;
    split.contextParallel = cp;
    split.contextParallelKind = ContextParallel::Ring;
    const std::int64_t groups =
        std::max<std::int64_t>(1, scenario.gpus / (scenario.tensorParallel * scenario.pipelineParallel));
    split.gradientAccumulation *= groups >= cp ? cp : groups;
    return split;
}

namespace {

/// The accumulation a run's smallest group is validated with: GRPO's groups divide the global batch, which every
/// layout keeps, so on one card one group per micro-batch step; any other run one step (a run that refuses
/// accumulation, as Gemini's auto placement does, is still placeable).
std::int64_t oneCardAccumulation(const Scenario& s) {
    return s.runKind == RunKind::Grpo ? std::max<std::int64_t>(1, s.numGenerations) : 1;
}

} // namespace

CardPlan planSplittingSequences(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs) {
    CardPlan plan;
    plan.gpu = &gpu;
    for (std::int64_t cp = 2; cp <= std::min<std::int64_t>(kMaxContextParallel, inputs.maxGpus); cp *= 2) {
        const Scenario split = withContextParallel(scenario, cp);
        // The degree's own rules (the sequence divides, Ulysses' heads): validated on the smallest group it needs.
        Scenario group = onOneCard(split);
        group.gpus = cp;
        group.contextParallel = cp;
        group.gradientAccumulation = oneCardAccumulation(split); // (as placeable says)
        if (!validate(group)) {
            break;
        }
        CardPlan withCp = searchCard(split, gpu, inputs);
        plan.candidatesTried += withCp.candidatesTried;
        if (withCp.found) {
            withCp.candidatesTried = plan.candidatesTried;
            return withCp;
        }
    }
    return plan;
}

CardPlan planOnCard(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs) {
    CardPlan plan = searchCard(scenario, gpu, inputs);
    if (!sequenceBound(plan) || scenario.contextParallel > 1) {
        return plan;
    }
    // Sequences that fit no layout: split them (only then, so that the search stays in budget).
    CardPlan split = planSplittingSequences(scenario, gpu, inputs);
    if (split.found) {
        split.candidatesTried += plan.candidatesTried;
        return split;
    }
    plan.candidatesTried += split.candidatesTried;
    return plan;
}

namespace {

/// Whether the model and run shape are valid on the smallest group that holds one sequence (its context-parallel
/// ranks): if not, there is nothing to place.
bool placeable(const Scenario& scenario) {
    Scenario group = onOneCard(scenario);
    group.gpus = std::max<std::int64_t>(1, scenario.contextParallel);
    group.contextParallel = group.gpus;
    group.contextParallelKind = scenario.contextParallelKind;
    group.gradientAccumulation = oneCardAccumulation(scenario);
    return static_cast<bool>(validate(group));
}

/// Beside the chosen plan (the first of `fits`, in the objective's order): the next two counts, then, if not listed
/// yet, the cheapest and the fastest plan (what the objective traded away) and the best plan of the other offload
/// choice.
void addRunnersUp(CardPlan& plan, const std::vector<Candidate>& fits, const PlanInputs& inputs) {
    const auto listed = [&](const Candidate& c) {
        if (c.scenario.gpus == plan.best.scenario.gpus) {
            return true;
        }
        return std::any_of(plan.runnersUp.begin(), plan.runnersUp.end(),
                           [&](const Candidate& r) { return r.scenario.gpus == c.scenario.gpus; });
    };
    for (std::size_t i = 1; i < fits.size() && plan.runnersUp.size() < 2; ++i) {
        plan.runnersUp.push_back(fits[i]);
    }
    const auto cheapest = std::min_element(fits.begin(), fits.end(), [&](const Candidate& a, const Candidate& b) {
        return costOf(a, inputs) < costOf(b, inputs);
    });
    const auto fastest = std::min_element(fits.begin(), fits.end(), [](const Candidate& a, const Candidate& b) {
        return a.plan.wallHours < b.plan.wallHours;
    });
    for (auto it : {cheapest, fastest}) {
        if (!listed(*it)) {
            plan.runnersUp.push_back(*it);
        }
    }
    const bool bestOffloads = plan.best.scenario.offload != Offload::None;
    const auto otherOffload = std::find_if(fits.begin(), fits.end(), [&](const Candidate& c) {
        return (c.scenario.offload != Offload::None) != bestOffloads;
    });
    if (otherOffload != fits.end() && !listed(*otherOffload)) {
        plan.runnersUp.push_back(*otherOffload);
    }
}

/// Why fewer cards fail: below the smallest count that fits, the largest count that misses on memory or host RAM
/// (the limits a user can act on), else the largest count that misses for another reason.
void explainFewerCards(CardPlan& plan, const std::vector<Candidate>& fits, const std::vector<Candidate>& misses) {
    std::int64_t smallestFit = plan.best.scenario.gpus;
    for (const auto& f : fits) {
        smallestFit = std::min(smallestFit, f.scenario.gpus);
    }
    const auto telling = [](const Candidate& m) {
        return m.why == Infeasible::GpuMemory || m.why == Infeasible::HostRam || m.why == Infeasible::VllmServer;
    };
    for (const auto& m : misses) {
        if (m.scenario.gpus >= smallestFit) {
            continue;
        }
        const bool better =
            !plan.fewerCards || (telling(m) && !telling(*plan.fewerCards)) ||
            (telling(m) == telling(*plan.fewerCards) && m.scenario.gpus > plan.fewerCards->scenario.gpus);
        if (better) {
            plan.fewerCards = m;
        }
    }
}

CardPlan searchCard(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs) {
    CardPlan plan;
    plan.gpu = &gpu;
    if (!placeable(scenario)) {
        return plan;
    }
    // What the run needs whatever its layout (bitsandbytes, flash-attn, Triton): a card without it is not searched.
    Scenario oneCard = onOneCard(scenario);
    oneCard.offload = Offload::None;
    if (auto gaps = missingSoftware(oneCard, gpu); !gaps.empty()) {
        plan.unsupported = std::move(gaps);
        return plan;
    }
    CardSearch search(scenario, gpu, inputs);
    std::vector<Candidate> fits; // the best candidate of every count that fits
    std::vector<Candidate> misses;
    const bool costBound = !inputs.runnersUp && inputs.prune && inputs.objective == Objective::Cost;
    std::optional<double> cheapestInTime; // the lowest cost found among the plans that meet the deadline
    for (std::int64_t n : cardCounts(gpu, inputs)) {
        // Only the choice is wanted: counts whose least possible cost (the bound grows with n) is beyond the tie share
        // of the cheapest plan that meets the deadline can never be chosen (pickByObjective), so they end the search.
        if (costBound && cheapestInTime && search.costLowerBound(n) > *cheapestInTime * (1.0 + kPlanTieShare)) {
            break;
        }
        Candidate c = search.bestAt(n);
        if (costBound && c.fits() && meetsDeadline(c, inputs)) {
            cheapestInTime = std::min(cheapestInTime.value_or(costOf(c, inputs)), costOf(c, inputs));
        }
        (c.fits() ? fits : misses).push_back(std::move(c));
    }
    plan.candidatesTried = search.tried();
    if (fits.empty()) {
        // The most telling miss: the largest count that failed on memory or host RAM, else the largest count.
        for (const auto& m : misses) {
            if (m.why == Infeasible::GpuMemory || m.why == Infeasible::HostRam || m.why == Infeasible::VllmServer ||
                !plan.fewerCards) {
                plan.fewerCards = m;
            }
        }
        return plan;
    }
    const ObjectiveOrder order{inputs.objective, inputs, fastestWall(fits)};
    std::stable_sort(fits.begin(), fits.end(), order);
    // The choice first, then the others in the objective's order.
    const std::size_t chosen = pickByObjective(
        fits.size(), [&](std::size_t i) -> const Candidate& { return fits[i]; }, order);
    std::rotate(fits.begin(), fits.begin() + static_cast<std::ptrdiff_t>(chosen),
                fits.begin() + static_cast<std::ptrdiff_t>(chosen) + 1);
    plan.found = true;
    plan.best = fits.front();
    addRunnersUp(plan, fits, inputs);
    explainFewerCards(plan, fits, misses);
    return plan;
}

} // namespace

std::vector<CardPlan> planCatalog(const Scenario& scenario, const std::vector<GpuSpec>& gpus,
                                  const PlanInputs& inputs) {
    std::vector<CardPlan> plans;
    plans.reserve(gpus.size());
    for (const auto& gpu : gpus) {
        plans.push_back(planOnCard(scenario, gpu, inputs));
    }
    return plans;
}

std::optional<CatalogChoice> chooseOverCatalog(const Scenario& scenario, const std::vector<GpuSpec>& gpus,
                                               const PlanInputs& inputs) {
    PlanInputs choiceOnly = inputs;
    choiceOnly.runnersUp = false;
    const bool costBound = inputs.prune && inputs.objective == Objective::Cost;
    // Cards in the order of their least possible cost, so the cheap ones set the bar early.
    std::vector<std::pair<double, std::size_t>> order;
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        const std::vector<std::int64_t> counts = cardCounts(gpus[i], inputs);
        const double bound = costBound && !counts.empty() && placeable(scenario)
                                 ? CardSearch(scenario, gpus[i], inputs).costLowerBound(counts.front())
                                 : 0.0;
        order.emplace_back(bound, i);
    }
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<CardPlan> plans(gpus.size()); // the cards left unsearched stay not found
    std::optional<double> cheapestInTime;     // the lowest cost of the plans found that meet the deadline
    std::size_t searched = 0;
    for (const auto& [bound, i] : order) {
        // rank() chooses within the tie share of the lowest cost that meets the deadline (pickByObjective): a card
        // whose least possible cost is beyond it cannot be chosen, nor can any card after it.
        if (cheapestInTime && bound > *cheapestInTime * (1.0 + kPlanTieShare)) {
            break;
        }
        plans[i] = planOnCard(scenario, gpus[i], choiceOnly);
        ++searched;
        // Only a plan of known speed sets the bar: one on an assumed speed ranks after every other (ObjectiveOrder).
        if (costBound && plans[i].found && meetsDeadline(plans[i].best, inputs) &&
            ObjectiveOrder::evidenced(plans[i].best)) {
            const double cost = costOf(plans[i].best, inputs);
            cheapestInTime = std::min(cheapestInTime.value_or(cost), cost);
        }
    }
    const Ranking ranking = rank(plans, inputs);
    if (ranking.chosen < 0) {
        return std::nullopt;
    }
    const auto chosen = static_cast<std::size_t>(ranking.chosen);
    return CatalogChoice{chosen, std::move(plans[chosen]), searched};
}

Ranking rank(const std::vector<CardPlan>& plans, const PlanInputs& inputs) {
    Ranking k;
    std::vector<Candidate> fits;
    for (const auto& p : plans) {
        if (p.found) {
            fits.push_back(p.best);
        }
    }
    const ObjectiveOrder order{inputs.objective, inputs, fastestWall(fits)};
    std::vector<int> found; // indices into plans, in catalog order
    for (int i = 0; i < static_cast<int>(plans.size()); ++i) {
        const auto& p = plans[static_cast<std::size_t>(i)];
        if (!p.found) {
            continue;
        }
        found.push_back(i);
        auto at = [&](int j) -> const Candidate& { return plans[static_cast<std::size_t>(j)].best; };
        // The cheapest and the fastest of known speed where there is one, as the ranking (ObjectiveOrder::evidenced).
        const auto beats = [&](int j, auto figure) {
            const bool e = ObjectiveOrder::evidenced(p.best), ej = ObjectiveOrder::evidenced(at(j));
            return e != ej ? e : figure(p.best) < figure(at(j));
        };
        if (k.cheapest < 0 || beats(k.cheapest, [&](const Candidate& c) { return costOf(c, inputs); })) {
            k.cheapest = i;
        }
        if (k.fastest < 0 || beats(k.fastest, [](const Candidate& c) { return c.plan.wallHours; })) {
            k.fastest = i;
        }
    }
    if (!found.empty()) {
        const auto at = [&](std::size_t j) -> const Candidate& {
            return plans[static_cast<std::size_t>(found[j])].best;
        };
        k.chosen = found[pickByObjective(found.size(), at, order)];
    }
    return k;
}

} // namespace gpusizer::core
