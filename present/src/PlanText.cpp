#include "gpusizer/present/PlanText.h"

#include "gpusizer/present/Format.h"
#include "gpusizer/present/Names.h"

#include <cmath>

namespace gpusizer::present {

namespace {

Message shardingPart(const core::Scenario& s) {
    const core::ShardingEngine engine = core::profileFor(s).engine;
    const bool fsdp = engine == core::ShardingEngine::Fsdp1 || engine == core::ShardingEngine::Fsdp2;
    switch (s.sharding) {
    case core::Sharding::None:
        return fsdp ? msg(QT_TRANSLATE_NOOP("gpusizer", "FSDP no shard"))
                    : msg(QT_TRANSLATE_NOOP("gpusizer", "data parallel"));
    case core::Sharding::Zero1:
        return engine == core::ShardingEngine::Megatron ? msg(QT_TRANSLATE_NOOP("gpusizer", "distributed optimizer"))
                                                        : msg(QT_TRANSLATE_NOOP("gpusizer", "ZeRO-1"));
    case core::Sharding::Zero2:
        return fsdp ? msg(QT_TRANSLATE_NOOP("gpusizer", "FSDP shard grad/op"))
                    : msg(QT_TRANSLATE_NOOP("gpusizer", "ZeRO-2"));
    case core::Sharding::Zero3:
        return fsdp ? msg(QT_TRANSLATE_NOOP("gpusizer", "FSDP full shard"))
                    : msg(QT_TRANSLATE_NOOP("gpusizer", "ZeRO-3"));
    }
    return {};
}

Message checkpointingPart(const core::Scenario& s) {
    switch (s.checkpointing) {
    case core::Checkpointing::None:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "no checkpointing"));
    case core::Checkpointing::Selective:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "selective checkpointing"));
    case core::Checkpointing::Full:
    case core::Checkpointing::Auto:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "full checkpointing"));
    case core::Checkpointing::EveryNth:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "checkpointing every %1 blocks"), count(s.checkpointEvery));
    }
    return {};
}

} // namespace

std::vector<Message> parallelismParts(const core::Scenario& s) {
    std::vector<Message> parts;
    const std::int64_t cp = std::max<std::int64_t>(1, s.contextParallel);
    const std::int64_t dp = s.gpus / std::max<std::int64_t>(1, s.tensorParallel * s.pipelineParallel * cp);
    // The degrees that multiply to the card count: TP 8 × PP 2 × DP 4. Expert parallelism splits the data-parallel
    // ranks (it does not multiply), so it is its own part.
    std::string degrees;
    const auto degree = [&](const char* name, std::int64_t d) {
        if (d > 1) {
            degrees += (degrees.empty() ? "" : " × ") + std::string(name) + " " + count(d);
        }
    };
    degree("TP", s.tensorParallel);
    degree("PP", s.pipelineParallel);
    degree("CP", cp); // context parallel: each sequence split over cp ranks
    degree("DP", dp);
    if (!degrees.empty()) {
        parts.push_back(verbatim(degrees)); // TP, PP and DP read the same in every language
    }
    if (s.expertParallel > 1) {
        parts.push_back(msg(QT_TRANSLATE_NOOP("gpusizer", "experts over %1 ranks (EP)"), count(s.expertParallel)));
    }
    if (s.sharding != core::Sharding::None) {
        parts.push_back(shardingPart(s));
    }
    if (s.offload == core::Offload::Optimizer) {
        parts.push_back(msg(QT_TRANSLATE_NOOP("gpusizer", "offload optimizer")));
    } else if (s.offload == core::Offload::OptimizerAndParams) {
        parts.push_back(msg(QT_TRANSLATE_NOOP("gpusizer", "offload optimizer and parameters")));
    }
    return parts;
}

Message cardsAndParallelism(const core::Scenario& s) {
    const auto parts = parallelismParts(s);
    if (parts.empty()) {
        return s.gpus == 1 ? msg(QT_TRANSLATE_NOOP("gpusizer", "1 card"))
                           : msg(QT_TRANSLATE_NOOP("gpusizer", "%1 cards"), count(s.gpus));
    }
    return msg(QT_TRANSLATE_NOOP("gpusizer", "%1 × %2"), count(s.gpus), joined(parts));
}

Message cardsAndLayout(const core::Scenario& s) {
    return msg(QT_TRANSLATE_NOOP("gpusizer", "%1 × %2"), count(s.gpus), joined(layoutParts(s)));
}

std::vector<Message> layoutParts(const core::Scenario& s) {
    std::vector<Message> parts = parallelismParts(s);
    parts.push_back(s.gradientAccumulation > 1
                        ? msg(QT_TRANSLATE_NOOP("gpusizer", "micro-batch %1 × %2 steps"), count(s.microBatch),
                              count(s.gradientAccumulation))
                        : msg(QT_TRANSLATE_NOOP("gpusizer", "micro-batch %1"), count(s.microBatch)));
    parts.push_back(checkpointingPart(s));
    if (const std::int64_t server = core::serverGpus(s); server > 0) {
        // Rented and billed with the training GPUs (core::rentedGpus).
        parts.push_back(server == 1
                            ? msg(QT_TRANSLATE_NOOP("gpusizer", "+ 1 GPU for the vLLM server"))
                            : msg(QT_TRANSLATE_NOOP("gpusizer", "+ %1 GPUs for the vLLM server"), count(server)));
    }
    return parts;
}

std::string cardsAndLayout(const core::Candidate& c, const core::GpuSpec& gpu) {
    return count(c.scenario.gpus) + " × " + gpu.name + ": " + english(layoutParts(c.scenario));
}

Message verdictWord(core::FitVerdict v) {
    switch (v) {
    case core::FitVerdict::Fits:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "fits"));
    case core::FitVerdict::Tight:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "tight"));
    case core::FitVerdict::DoesNotFit:
        break;
    }
    return msg(QT_TRANSLATE_NOOP("gpusizer", "does not fit"));
}

Message whyNot(const core::Candidate& c) {
    switch (c.why) {
    case core::Infeasible::None:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "fits"));
    case core::Infeasible::GpuMemory: {
        const auto withMargin = static_cast<std::int64_t>(static_cast<double>(c.deviceBytes) * (1.0 + c.marginShare));
        return msg(QT_TRANSLATE_NOOP("gpusizer", "%1 per GPU + %2 margin = %3 > %4 usable; largest part: %5, %6"),
                   gib(c.deviceBytes), percent(c.marginShare), gib(withMargin), gib(c.usableBytes),
                   componentName(c.largestComponent), gib(c.largestComponentBytes));
    }
    case core::Infeasible::HostRam:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "needs %1 of host RAM per node, the node has %2"),
                   gib(c.hostRamPerNodeBytes), gib(c.hostRamLimitBytes));
    case core::Infeasible::Layout:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "no valid layout at this count"));
    case core::Infeasible::CardLimit:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "more cards than the limit"));
    case core::Infeasible::GlobalBatch:
        return msg(
            QT_TRANSLATE_NOOP("gpusizer",
                              "the global batch of %1 sequences does not split evenly over the data-parallel ranks"),
            count(c.globalBatchSequences));
    case core::Infeasible::Software:
        return softwareGaps(c.softwareGaps);
    case core::Infeasible::VllmServer: {
        const Message fix =
            c.vllmServerGpusNeeded > 0
                ? msg(QT_TRANSLATE_NOOP("gpusizer", "set vllm_gpus to %1 or more"), count(c.vllmServerGpusNeeded))
                : msg(QT_TRANSLATE_NOOP("gpusizer", "no vLLM server of this card holds it"));
        return msg(QT_TRANSLATE_NOOP("gpusizer", "the vLLM server's GPUs cannot load the model: %1 of 16-bit weights "
                                                 "each, vllm-serve uses %2 of the card (%3); %4"),
                   gib(c.estimate.vllmWeightsBytes), percent(core::kVllmServeMemoryShare), gib(c.vllmServerBudgetBytes),
                   fix);
    }
    }
    return {};
}

Message softwareFeatureName(core::SoftwareFeature f) {
    switch (f) {
    case core::SoftwareFeature::BitsandbytesQuantization:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "bitsandbytes 4-bit layers (QLoRA)"));
    case core::SoftwareFeature::BitsandbytesOptimizers:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "bitsandbytes 8-bit and paged optimizers"));
    case core::SoftwareFeature::FlashAttention2:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "the flash-attn package (FlashAttention-2)"));
    case core::SoftwareFeature::Deepspeed:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "DeepSpeed"));
    case core::SoftwareFeature::Fsdp:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "PyTorch FSDP"));
    case core::SoftwareFeature::TritonKernels:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Triton kernels (Liger, Cut Cross-Entropy)"));
    case core::SoftwareFeature::Colossalai:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "ColossalAI"));
    }
    return {};
}

Message softwareGaps(const std::vector<core::SoftwareGap>& gaps) {
    std::vector<Message> parts;
    for (const auto& g : gaps) {
        parts.push_back(msg(QT_TRANSLATE_NOOP("gpusizer", "%1 (%2)"), softwareFeatureName(g.feature), g.reason));
    }
    return msg(QT_TRANSLATE_NOOP("gpusizer", "the card does not run %1"), joined(parts));
}

Message fitSentence(const core::Candidate& c, const core::GpuSpec& gpu) {
    // The verdict names what decided it besides the card: the recipe sized and the framework's behaviour.
    const Message where =
        msg(QT_TRANSLATE_NOOP("gpusizer", "%1 (%2 usable), %3 on %4"), count(c.scenario.gpus) + " × " + gpu.name,
            gib(gpu.usableBytes()), label(c.estimate.precision), label(c.scenario.framework));
    if (c.fits()) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "%1: fits with the %2 margin, %3 per GPU, %4 free"), where,
                   percent(c.marginShare), gib(c.deviceBytes), gib(gpu.usableBytes() - c.deviceBytes));
    }
    if (c.why == core::Infeasible::GpuMemory && c.verdict == core::FitVerdict::Tight) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "%1: tight, the %2 per GPU estimate fits but not with the %3 margin; "
                                                 "it may run out of memory"),
                   where, gib(c.deviceBytes), percent(c.marginShare));
    }
    return msg(QT_TRANSLATE_NOOP("gpusizer", "%1: does not fit, %2"), where, whyNot(c));
}

Message whyLost(const core::Candidate& chosen, const core::Candidate& other, const core::PlanInputs& inputs) {
    if (!other.fits()) {
        return whyNot(other);
    }
    double dCost = core::costOf(other, inputs) - core::costOf(chosen, inputs);
    double dHours = other.plan.wallHours - chosen.plan.wallHours;
    // Ties as the planner sees them (core::kPlanTieShare).
    if (std::abs(dCost) <= core::kPlanTieShare * core::costOf(chosen, inputs)) {
        dCost = 0;
    }
    if (std::abs(dHours) <= core::kPlanTieShare * chosen.plan.wallHours) {
        dHours = 0;
    }
    if (dCost == 0 && dHours > 0) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "as cheap but slower by %1"), duration(dHours));
    }
    if (dHours == 0 && dCost > 0) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "as fast but costs %1 more"), usd(dCost));
    }
    if (dCost > 0 && dHours > 0) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "slower by %1 and costs %2 more"), duration(dHours), usd(dCost));
    }
    if (dCost > 0) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "faster by %1 but costs %2 more"), duration(-dHours), usd(dCost));
    }
    if (dHours > 0) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "saves %1 but takes %2 longer"), usd(-dCost), duration(dHours));
    }
    return msg(QT_TRANSLATE_NOOP("gpusizer", "as good on both"));
}

Message objectiveRule(const core::PlanInputs& inputs) {
    if (inputs.objective == core::Objective::Cost && inputs.deadlineHours) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "lowest cost that finishes within %1 (start-up included)"),
                   duration(*inputs.deadlineHours));
    }
    if (inputs.objective == core::Objective::Cost) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "lowest cost, start-up and the final copy included"));
    }
    return objectiveRule(inputs.objective);
}

Message objectiveRule(core::Objective objective) {
    switch (objective) {
    case core::Objective::Cost:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "lowest cost"));
    case core::Objective::Time:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "shortest wall time"));
    case core::Objective::Balanced:
        break;
    }
    return msg(QT_TRANSLATE_NOOP("gpusizer", "lowest cost among plans within %1× of the fastest wall time"),
               number(core::kBalancedTimeFactor, 1));
}

Message linkName(const core::LinkChoice& link, const core::GpuSpec& gpu) {
    switch (link.kind) {
    case core::LinkKind::NvLink:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "NVLink"));
    case core::LinkKind::InfinityFabric:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Infinity Fabric"));
    case core::LinkKind::OnChipRoce:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "on-chip RoCE"));
    case core::LinkKind::Pcie:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "PCIe %1.0 x%2"), count(gpu.pcieGen), count(gpu.pcieLanes));
    case core::LinkKind::Network:
        break;
    }
    switch (link.network) {
    case core::Network::Roce200:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "RoCE 200 Gb/s between nodes"));
    case core::Network::Eth100:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "100 GbE between nodes"));
    case core::Network::Eth25:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "25 GbE between nodes"));
    case core::Network::Auto:
    case core::Network::Ib400:
        break;
    }
    return msg(QT_TRANSLATE_NOOP("gpusizer", "InfiniBand 400 Gb/s between nodes"));
}

std::vector<Message> candidateNotes(const core::Candidate& c) {
    std::vector<Message> notes;
    if (c.fp16Instead) {
        notes.push_back(
            msg(QT_TRANSLATE_NOOP("gpusizer", "fp16 instead of bf16 (this card has no bf16): use loss scaling")));
    }
    if (c.bf16InsteadOfFloat8) {
        notes.push_back(msg(QT_TRANSLATE_NOOP("gpusizer", "bf16 matmuls instead of float8 (this card has no FP8 tensor "
                                                          "cores)")));
    }
    if (c.hostRamPerNodeBytes > 0) {
        notes.push_back(msg(QT_TRANSLATE_NOOP("gpusizer", "host RAM %1 per node (of %2)"), gib(c.hostRamPerNodeBytes),
                            gib(c.hostRamLimitBytes)));
    }
    return notes;
}

} // namespace gpusizer::present
