// The estimator: runs the stages of EstimatorStages.h in order over one scenario (docs/memory-model.md).

#include "EstimatorStages.h"
#include "gpusizer/memory/AllocatorReplay.h"
#include "gpusizer/scenario/Labels.h"
#include "gpusizer/scenario/Vision.h"

#include <algorithm>
#include <numeric>
#include <optional>

namespace gpusizer::core {

using namespace detail;

bool componentShown(const Estimate& e, Component c) {
    return c != Component::Generation || e.generates;
}

std::int64_t ComponentBytes::total() const {
    return std::accumulate(bytes.begin(), bytes.end(), std::int64_t{0});
}

namespace {

/// A pure 16-bit recipe under DeepSpeed's ZeRO (stage 1 to 3, or offload, which runs under ZeRO-2 or -3).
bool deepspeedKeepsFp32Master(const Scenario& s) {
    const bool pure16 = s.precision == Precision::Bf16 || s.precision == Precision::Fp16;
    const bool zero = s.sharding != Sharding::None || s.offload != Offload::None;
    const ShardingEngine engine = profileFor(s).engine;
    return pure16 && zero && (engine == ShardingEngine::Deepspeed || engine == ShardingEngine::Gemini);
}

/// A scenario the estimate sizes as another: checkpointing left to the planner, a pure 16-bit recipe under DeepSpeed
/// ZeRO. nullopt when it is sized as written.
std::optional<Estimate> estimateAsResolved(const Scenario& scenario, Detail detail) {
    if (scenario.checkpointing == Checkpointing::Auto) {
        // Left to the planner: one estimate sizes it as full checkpointing (the least memory of the three).
        Scenario resolved = scenario;
        resolved.checkpointing = Checkpointing::Full;
        Estimate e = estimate(resolved, detail);
        if (detail == Detail::Full) {
            e.assumptions.push_back(QT_TRANSLATE_NOOP(
                "gpusizer", "Checkpointing auto: sized as full; the planner also tries none and selective."));
        }
        return e;
    }
    if (deepspeedKeepsFp32Master(scenario)) {
        // DeepSpeed's ZeRO optimizers build an fp32 master partition from 16-bit parameters and step fp32 Adam states
        // on it (runtime/zero/stage_1_and_2.py, stage3.py, base_optimizer.py _configure_master_weights @edaa7221): a
        // pure 16-bit recipe runs as 16-bit weights with an fp32 master under this engine.
        Scenario resolved = scenario;
        resolved.precision =
            scenario.precision == Precision::Fp16 ? Precision::Fp16Fp32Master : Precision::Bf16Fp32Master;
        Estimate e = estimate(resolved, detail);
        // ColossalAI's LowLevelZero and Gemini do the same (master_weights=True: low_level_optim.py L263-299,
        // gemini_ddp.py _init_chunks @4f9953be).
        const bool colossal = scenario.framework == Framework::Colossalai;
        e.warnings.push_back(
            {"deepspeed_fp32_master",
             words(colossal ? QT_TRANSLATE_NOOP(
                                  "gpusizer", "ColossalAI's LowLevelZero and Gemini keep an fp32 master copy and fp32 "
                                              "optimizer states for 16-bit weights (master_weights=True): sized as "
                                              "%1 rather than %2.")
                            : QT_TRANSLATE_NOOP("gpusizer",
                                                "DeepSpeed ZeRO keeps an fp32 master copy and fp32 optimizer states "
                                                "for 16-bit weights: sized as %1 rather than %2. FSDP runs the pure "
                                                "16-bit recipe."),
                   label(resolved.precision), label(scenario.precision))});
        return e;
    }
    return std::nullopt;
}

/// A search step beyond kMaxEstimateBytes (longer sequences, larger batches, bigger models than the validated
/// scenario): every figure reads the limit, so every fit check fails.
void markBeyondRange(Estimate& e) {
    const auto beyond = static_cast<std::int64_t>(kMaxEstimateBytes);
    e.beyondRange = true;
    e.perGpu[Component::Activations] = beyond;
    e.allocatedPeakBytes = e.reservedPeakBytes = e.deviceBytes = e.bandLowBytes = e.bandHighBytes = beyond;
    e.warnings.push_back({"beyond_range", QT_TRANSLATE_NOOP("gpusizer", "more than a petabyte per GPU: not sized")});
}

/// A vision-language model's image as the processor resizes it, its tokens, and what its encoder saves.
void recordImages(Estimate& e, const Scenario& s, const StoredActivations& acts) {
    if (!s.model.vision.present()) {
        return;
    }
    const ImageTokens image = scenarioImage(s);
    e.imageEncoderTokens = image.encoderTokens;
    e.imageLanguageTokens = image.languageTokens;
    e.imageWidth = image.width;
    e.imageHeight = image.height;
    e.visionActivationBytes = toBytes(acts.vision);
    e.crossAttentionBytes = toBytes(acts.crossAttention);
}

/// The expected range around the device figure, measured for this kind of run (Band.cpp).
void recordBand(Estimate& e, const Scenario& s) {
    const BandShares band = bandFor(s, e.profile);
    e.bandDownShare = band.down;
    e.bandUpShare = band.up;
    if (band.capped()) {
        e.bandEvidenceDownShare = band.evidenceDown;
        e.bandEvidenceUpShare = band.evidenceUp;
    }
    e.bandLowBytes = toBytes(static_cast<double>(e.deviceBytes) * (1.0 - band.down));
    e.bandHighBytes = toBytes(static_cast<double>(e.deviceBytes) * (1.0 + band.up));
}

/// Host memory for offloaded states and activations, and what this GPU's optimizer step updates.
void recordHostAndOptimizerShares(Estimate& e, const Scenario& s, const ModelStates& m, const StoredActivations& acts) {
    e.cpuOffloadBytesPerGpu = toBytes(m.cpuPerGpu + acts.cpu);
    e.activationOffloadBytes = toBytes(acts.cpu);
    e.optimizerMasterBytes = toBytes(m.optimizerMaster);
    e.optimizerWeightBytes = toBytes(m.optimizerWeights);
    e.cpuOffloadBytesTotal = toBytes((m.cpuPerGpu + acts.cpu) * static_cast<double>(s.gpus));
}

/// Gemini's auto placement (ColossalChat's "gemini_auto"; placement_policy.py AutoPlacementPolicy @4f9953be) releases a
/// gathered chunk only when an op needs the room (evict_tensors), keeping model data under 90% of the card less the
/// activations it measured in the warm-up step: by the end of forward every 16-bit chunk is gathered where the card
/// has room. What it keeps beyond the static layout's shards and lm_head's chunk is a cache, not a need.
void geminiAutoCache(Estimate& e, const Context& ctx, const ModelStates& m, const Transients& tr) {
    if (ctx.engine != ShardingEngine::Gemini || ctx.s.offload != Offload::Optimizer) {
        return;
    }
    const double whole = geminiChunks(ctx).padded * ctx.gatherB * ctx.modelShare; // every chunk, padding included
    double cache = std::max(0.0, whole - m.weights - tr.gatheredAtLoss);
    if (ctx.s.cardMemoryBytes > 0) {
        constexpr double kSteadyCudaCapRatio = 0.9; // GeminiPlugin steady_cuda_cap_ratio default
        const double room = kSteadyCudaCapRatio * static_cast<double>(ctx.s.cardMemoryBytes) -
                            static_cast<double>(e.allocatedPeakBytes);
        cache = std::min(cache, std::max(0.0, room));
    }
    e.geminiCachedChunkBytes = toBytes(cache);
}

/// What max_memory_reserved reports on a card with room, where the step trace follows the run: the caching
/// allocator's blocks over two steps (a few milliseconds, so not in searches). The cuBLAS workspace is the one
/// allocation the trace leaves out.
void replayReserve(Estimate& e, const Context& ctx) {
    if (const std::optional<ReplayStep> step = replayStepFor(ctx)) {
        const ReplayPeaks peaks = replayTrainingStep(*step);
        e.reservedWithRoomBytes = std::max(peaks.reserved + kCublasWorkspaceBytes, e.allocatedPeakBytes);
    }
}

} // namespace

Estimate estimate(const Scenario& scenario, Detail detail) {
    if (std::optional<Estimate> resolved = estimateAsResolved(scenario, detail)) {
        return std::move(*resolved);
    }
    const Scenario& s = scenario;
    Estimate e;
    e.profile = profileFor(s);
    e.precision = s.precision;
    if (estimateMagnitude(s) > kMaxEstimateBytes) {
        markBeyondRange(e);
        return e;
    }
    const Context ctx = makeContext(s, e.profile);
    e.params = ctx.params;
    e.dataParallel = static_cast<std::int64_t>(ctx.dp);

    const Trainables t = trainables(ctx);
    const ModelStates m = modelStates(ctx, t);
    e.trainableParams = static_cast<std::int64_t>(m.trainable);
    e.referenceModelBytes = toBytes(m.referenceWeights);
    e.routedExpertParams = static_cast<std::int64_t>(t.routedWeights);
    e.routedTrainableParams =
        static_cast<std::int64_t>(ctx.full ? t.routedWeights * ctx.trainLayerShare : t.routedAdapters);
    StoredActivations acts = storedActivations(ctx, t);
    e.activationPerTokenLayer = acts.layer.items;
    recordImages(e, s, acts);
    // GRPO computes logits for the completion only (logits_to_keep, grpo_trainer.py L1500-1502 @f2cd5771); verl's
    // actor and OpenRLHF's for every token of the micro-batch (logprobsInPlace, logprobsFromFp32Logits).
    const double logitTokens =
        s.runKind == RunKind::Grpo && !ctx.prof.logprobsInPlace && !ctx.prof.logprobsFromFp32Logits
            ? acts.tokens * std::min(1.0, static_cast<double>(s.completionLength) / static_cast<double>(s.seqLen))
            : acts.tokens;
    LossBytes loss = lossBytes(ctx, logitTokens);
    e.logitsBytesPerElement = loss.perElement;
    const Transients tr = transients(ctx, t, m, acts);
    if (s.pipelineParallel > 1) {
        mostLoadedPipelineStage(ctx, acts, loss);
    }

    const SideModels side = ppoSideModels(e, ctx);
    const Moment peak = peakMoment(ctx, m, acts, loss, tr, side);
    e.peakMoment = peak.which;
    recordComponents(e, m, acts, loss, tr, peak, side);
    const double trainer = generatesOnline(s) ? generationPhase(e, ctx, m, tr, side) : 0.0;

    // Allocator: the caching allocator keeps freed blocks. The unshard stream's pool holds its own peak, which the
    // compute stream cannot reuse (CUDACachingAllocator: a block is reused only on its stream), and record_stream
    // keeps one more unit until its event completes; block rounding and split tails add a few percent.
    const double cachedPool = cachedPoolBytes(tr, peak);
    deviceTotals(e, s, m, cachedPool, ncclBufferBytes(ctx));
    geminiAutoCache(e, ctx, m, tr);
    if (s.runKind == RunKind::Grpo && s.generation == Generation::VllmColocate && s.cardMemoryBytes > 0) {
        vllmShares(e, s, m, trainer);
    }

    recordBand(e, s);
    recordHostAndOptimizerShares(e, s, m, acts);

    if (detail == Detail::NumbersOnly) {
        return e;
    }
    replayReserve(e, ctx);
    // The words name the widest group's path (the one NVLink SHARP needs more than two GPUs of a node for).
    const NcclPath nccl = ncclPath(s, std::max({ctx.dp, ctx.tp, ctx.cp}));
    ExplainInputs why{ctx.paramB, m.trainB, m.masterB, m.stateUnit, loss.total, cachedPool, ctx.stage, nccl};
    explain(e, s, why);
    return e;
}

} // namespace gpusizer::core
