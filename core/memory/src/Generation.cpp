// GRPO's and PPO's generation (docs/memory-model.md §9).

#include "EstimatorStages.h"

#include <algorithm>

namespace gpusizer::core::detail {

namespace {

struct GenerationMemory {
    double resident = 0;     // held while the trainer runs forward and backward (vLLM awake)
    double atGeneration = 0; // what generating adds to the trainer's weights and optimizer states
};

/// GRPO's generation on the training GPUs: vLLM's share of the card in colocate mode (the whole share from start-up,
/// gpu_worker.py requested_memory = total x gpu_memory_utilization), released between generations with sleep mode
/// (TRL sleeps it at level 2 after each generate: vllm_generation.py L701-702); transformers' generate keeps the KV
/// cache of the whole local batch and, under ZeRO-3, gathers every weight (ds3_gather_for_generation, models/utils.py
/// L133-147). A vLLM server's GPUs are others.
GenerationMemory generationMemory(const Context& ctx, Estimate& e) {
    const Scenario& s = ctx.s;
    GenerationMemory g;
    const double total = static_cast<double>(ctx.params.total);
    const double kv = kvCacheBytesPerToken(ctx.arch) * generatedSequencesPerGpu(s) * static_cast<double>(s.seqLen);
    e.generationKvCacheBytes = toBytes(kv);
    // PPO keeps generate()'s fp32 scores of the whole rollout, [local batch, response length, vocabulary], until the
    // next rollout (return_dict_in_generate with output_scores; `logitss` is never freed, ppo_trainer.py L690-751).
    const double scores = s.runKind == RunKind::Ppo ? 4.0 * generatedSequencesPerGpu(s) *
                                                          static_cast<double>(std::min(s.completionLength, s.seqLen)) *
                                                          static_cast<double>(ctx.arch.vocabSize) / ctx.tp
                                                    : 0.0;
    e.generationScoresBytes = toBytes(scores);
    switch (s.runKind == RunKind::Ppo ? Generation::Transformers : s.generation) {
    case Generation::Transformers:
        g.atGeneration = kv / ctx.tp + (ctx.stage >= 3 ? total * ctx.gatherB * ctx.modelShare : 0.0) + scores;
        g.resident = scores;
        break;
    case Generation::VllmColocate: {
        e.vllmWeightsBytes = toBytes(total * 2.0);
        // At least its weights and this GPU's KV cache, whatever the share says: with less vLLM does not start (no
        // room for cache blocks), and on a card not named the share has nothing to be a share of.
        const double share =
            std::max(s.vllmMemoryUtilization * static_cast<double>(s.cardMemoryBytes), total * 2.0 + kv);
        e.vllmShareBytes = toBytes(share);
        g.atGeneration = share;
        g.resident = s.vllmSleepMode ? 0.0 : share;
        break;
    }
    case Generation::VllmServer: {
        // The server generates for every training rank: the global batch's KV cache over its GPUs.
        const auto server = static_cast<double>(std::max<std::int64_t>(1, s.vllmGpus));
        e.vllmWeightsBytes = toBytes(total * 2.0 / server);
        e.vllmServerGpuBytes = toBytes((total * 2.0 + kv * ctx.dp) / server);
        break;
    }
    }
    return g;
}

} // namespace
double generationPhase(Estimate& e, const Context& ctx, const ModelStates& m, const Transients& tr,
                       const SideModels& side) {
    GenerationMemory g = generationMemory(ctx, e);
    g.atGeneration += side.gathered; // ZeRO-3 gathers the policy-and-value wrapper for generate()
    e.generates = true;
    const double trainer = static_cast<double>(e.perGpu.total());
    const double training = trainer + g.resident;
    // Gradients are None when a generation opens the accumulation cycle, except where they are never freed: DeepSpeed
    // ZeRO-3's flat partition buffer, zero-filled gradients (torch 1.x); so are the buckets that live from start-up.
    const bool gradientsStay =
        (ctx.engine == ShardingEngine::Deepspeed && ctx.stage >= 3 && ctx.s.offload == Offload::None) ||
        !ctx.prof.gradientsFreedAfterStep;
    const double gradients = gradientsStay ? m.gradients : 0.0;
    const double transient = tr.workspace + (tr.bucketLife == Transients::BucketLife::Always ? tr.commBuckets : 0.0);
    const double generating = m.weights + m.optimizerStates + side.resident() + gradients +
                              (gradientsStay ? side.gradients : 0.0) + g.atGeneration + transient;
    ComponentBytes& comp = e.perGpu;
    if (generating > training) {
        e.peakMoment = PeakMoment::Generation;
        comp[Component::Gradients] = toBytes(gradients + (gradientsStay ? side.gradients : 0.0));
        comp[Component::Activations] = 0;
        comp[Component::LogitsLoss] = 0;
        comp[Component::Transient] = toBytes(transient);
        comp[Component::Generation] = toBytes(g.atGeneration);
    } else {
        comp[Component::Generation] = toBytes(g.resident);
    }
    return trainer;
}

void vllmShares(Estimate& e, const Scenario& s, const ModelStates& m, double trainer) {
    const double card = static_cast<double>(s.cardMemoryBytes);
    const double fixed = static_cast<double>(s.cudaContextBytes.value_or(kDefaultCudaContextBytes) + e.ncclBufferBytes);
    e.vllmSmallestShare = static_cast<double>(e.vllmWeightsBytes + e.generationKvCacheBytes) / card;
    const double heldBeside = s.vllmSleepMode ? m.weights + m.optimizerStates : trainer;
    e.vllmLargestShare = std::max(0.0, (card - heldBeside * (1.0 + kAllocatorSlack) - fixed) / card);
}

} // namespace gpusizer::core::detail
