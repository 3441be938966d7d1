// Beyond the allocator: the cached pool, NCCL's buffers, the CUDA context, the replayed reserve.

#include "EstimatorStages.h"
#include "gpusizer/memory/AllocatorReplay.h"

#include <algorithm>
#include <optional>

namespace gpusizer::core::detail {

double cachedPoolBytes(const Transients& tr, const Moment& peak) {
    const double gatheredLive = peak.which == PeakMoment::ForwardEnd      ? tr.gatheredAtLoss
                                : peak.which == PeakMoment::OptimizerStep ? 0.0
                                                                          : tr.gatheredInLayers;
    return std::max(0.0, tr.gatheredPool - gatheredLive) + tr.pendingUnit;
}

detail::NcclPath ncclPath(const Scenario& s, double ranks) {
    const double inNode = std::min(ranks, static_cast<double>(std::max<std::int64_t>(1, s.gpusPerNode)));
    // NVLink bridges pair two cards: a ring over more of them crosses PCIe.
    return {.overPcie = s.fabric == NodeFabric::Pcie || (s.fabric == NodeFabric::NvLinkBridge && inNode > 2.0),
            .sharpHeads = s.fabric == NodeFabric::NvLinkSharp && inNode > 2.0 ? inNode : 0.0};
}

namespace {

/// One communicator's buffers on each of its GPUs: ring and tree connections per channel, and NVLS on NVSwitch
/// nodes with NVLink SHARP.
double ncclCommunicatorBytes(const Scenario& s, double ranks) {
    const detail::NcclPath path = ncclPath(s, ranks);
    const double channels = path.overPcie ? kNcclPcieChannels : kNcclNvlinkChannels;
    // Two ranks: ring and tree reach the same peer, and a connection made is reused (transport.cc): one pair.
    const double pairs = ranks <= 2.0 ? 1.0 : 2.0;
    const double nvls = kNcclNvlsBytesPerChannelAndHead * kNcclNvlinkChannels * path.sharpHeads;
    return channels * pairs * kNcclConnectionPairBytes + nvls;
}

} // namespace
double ncclBufferBytes(const Context& ctx) {
    const Scenario& s = ctx.s;
    const double dataRanks = ctx.dp; // the sharding group: data x context parallel ranks
    double bytes = 0.0;
    if (dataRanks > 1.0) {
        bytes += (ctx.engine == ShardingEngine::Deepspeed ? 2.0 : 1.0) * ncclCommunicatorBytes(s, dataRanks);
    }
    if (ctx.tp > 1.0) {
        bytes += ncclCommunicatorBytes(s, ctx.tp);
    }
    if (ctx.cp > 1.0) {
        bytes += ncclCommunicatorBytes(s, ctx.cp);
    }
    return bytes;
}

namespace {

/// The model is one the step trace follows: a dense Llama-style decoder (Llama, Mistral, Qwen2 and the size-only
/// shapes), whose layer is RMSNorm, rotary attention and a gated MLP with nothing else that allocates.
bool replayTracesModel(const ModelArch& a) {
    return !a.isMoe() && !a.isMla() && a.mlp == MlpKind::Gated && a.norm == NormKind::RmsNorm && a.normsPerLayer == 2 &&
           !a.parallelResidual && a.learnedPositions == 0 && a.causalLmHead && !a.outputBias && !a.mlpBias &&
           a.hiddenDropout == 0.0 && a.finalLogitSoftcap == 0.0 && a.attentionLogitSoftcap == 0.0;
}

/// The run is one the step trace follows: one GPU, transformers' own loss as 5.x runs it, AdamW (foreach or fused)
/// with set_to_none, bf16 weights or fp32 under bf16 autocast, full fine-tuning or plain LoRA, no kernel or memory
/// option that changes which tensors exist.
bool replayTracesRun(const Context& ctx) {
    const Scenario& s = ctx.s;
    const FrameworkProfile& p = ctx.prof;
    // (A supervised step: the trace has no reference model, completion-only logits or generation.)
    const bool layout = s.runKind == RunKind::Sft && s.gpus == 1 && s.sharding == Sharding::None &&
                        s.offload == Offload::None && s.tensorParallel == 1 && s.pipelineParallel == 1 &&
                        s.contextParallel == 1;
    const bool loss = s.loss == Loss::Standard && p.lossFromTransformersModel && p.lossUpcastsLogits &&
                      p.logitsFreedBeforeBackward && !p.logitsHeldInFp32 && lossPadsLabels(s.transformersVersion);
    const bool optimizer = s.optimizer == Optimizer::AdamW && !s.optimizerInBackward && p.gradientsFreedAfterStep &&
                           p.optimizerStep != OptimizerStepKind::PerParameter;
    const bool method = (s.method == Method::Full && !freezesLayers(s)) ||
                        (s.method == Method::Lora && s.lora.kind == AdapterKind::Lora && !s.lora.lmHead &&
                         !s.lora.embedding && !s.lora.saveLmHead && !s.lora.saveEmbedding);
    const bool kernels = s.attention != Attention::Eager && !s.compile && s.float8 == Float8::Off && !s.ligerRmsNorm &&
                         !s.ligerGlu && !s.tiledMlp && !s.activationOffload && !p.fusedQkvProjection;
    const bool recipe = s.precision == Precision::Bf16 || s.precision == Precision::AmpBf16;
    const bool checkpointing = s.checkpointing == Checkpointing::None || s.checkpointing == Checkpointing::Full;
    return layout && loss && optimizer && method && kernels && recipe && checkpointing && replayTracesModel(ctx.arch);
}

} // namespace
std::optional<ReplayStep> replayStepFor(const Context& ctx) {
    // A replay costs milliseconds per layer pass: a model deeper than any published dense decoder (Llama-3.1-405B
    // has 126 layers) is not replayed.
    constexpr std::int64_t kMostReplayedLayers = 256;
    if (!replayTracesRun(ctx) || ctx.arch.numLayers > kMostReplayedLayers) {
        return std::nullopt;
    }
    const Scenario& s = ctx.s;
    const ModelArch& a = ctx.arch;
    ReplayStep step;
    step.hidden = a.hiddenSize;
    step.intermediate = a.intermediateSize;
    step.layers = a.numLayers;
    step.heads = a.numHeads;
    step.kvHeads = a.numKvHeads > 0 ? a.numKvHeads : a.numHeads;
    step.headDim = a.effectiveHeadDim();
    step.vocab = a.vocabSize;
    step.tiedEmbeddings = a.tiedEmbeddings;
    step.qkvBias = a.qkvBias;
    step.microBatch = static_cast<std::int64_t>(sequencesPerMicroBatch(s));
    step.seqLen = s.seqLen;
    // From the second micro-step on, each one starts from the same blocks (the gradients held, the rest freed) and
    // repeats the one before: four show every pattern a longer accumulation has.
    constexpr std::int64_t kMostReplayedMicroSteps = 4;
    step.accumulation = std::min(s.gradientAccumulation, kMostReplayedMicroSteps);
    step.recompute = s.checkpointing == Checkpointing::Full;
    step.autocastFp32 = s.precision == Precision::AmpBf16;
    step.fusedOptimizer = ctx.prof.optimizerStep == OptimizerStepKind::Fused;
    step.lora = s.method == Method::Lora;
    if (step.lora) {
        for (const LinearRole r : s.lora.targets) {
            step.loraTargets = static_cast<std::uint8_t>(step.loraTargets | (1U << static_cast<unsigned>(r)));
        }
        step.loraRank = s.lora.rank;
        step.loraDropout = s.lora.dropout > 0.0;
        step.adapterBytes = static_cast<std::int64_t>(adapterBytes(s, ctx.prof));
    }
    return step;
}

void deviceTotals(Estimate& e, const Scenario& s, const ModelStates& m, double cachedPool, double ncclBytes) {
    ComponentBytes& comp = e.perGpu;
    e.pagedOptimizerBytes = toBytes(m.paged);
    e.allocatedPeakBytes = comp.total() - e.pagedOptimizerBytes;
    // vLLM's share is a fixed reservation: the allocator's slack applies to the trainer's allocations only.
    const double generation =
        s.generation == Generation::VllmColocate ? static_cast<double>(comp[Component::Generation]) : 0.0;
    const double allocated = static_cast<double>(e.allocatedPeakBytes) - generation;
    e.reservedPeakBytes = toBytes(allocated * (1.0 + kAllocatorSlack) + cachedPool + generation);
    const std::int64_t context = s.cudaContextBytes.value_or(kDefaultCudaContextBytes);
    const std::int64_t nccl = toBytes(ncclBytes);
    e.ncclBufferBytes = nccl;
    // A calibration against measured runs corrects the overhead (never below the reserved peak).
    e.deviceBytes = std::max(e.reservedPeakBytes + e.pagedOptimizerBytes,
                             e.reservedPeakBytes + context + nccl + e.pagedOptimizerBytes + s.overheadCorrectionBytes);
    comp[Component::Overhead] = e.deviceBytes - e.allocatedPeakBytes - e.pagedOptimizerBytes;
}

} // namespace gpusizer::core::detail
