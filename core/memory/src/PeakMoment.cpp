// Stage 6: the peak moment.

#include "EstimatorStages.h"

#include <algorithm>

namespace gpusizer::core::detail {

void mostLoadedPipelineStage(const Context& ctx, StoredActivations& acts, LossBytes& loss) {
    // A vision encoder runs on the first stage, before the embedding's layers: pp micro-batches of it in flight there,
    // none on the last stage. Llama-3.2-Vision's cross-attention tensors belong to decoder layers, spread like theirs.
    const double encoder = acts.vision - acts.crossAttention;
    const double decoder = acts.layers - encoder;
    const double moreVision = encoder * (ctx.pp - 1.0); // the other micro-batches' encoder tensors
    const double firstStage = acts.layers + moreVision;
    const double lastStage = decoder / ctx.pp + acts.final + loss.total;
    if (firstStage >= lastStage) {
        acts.vision += moreVision;
        acts.atLoss = firstStage;
        acts.recompute = acts.recompute > 0 ? acts.recompute + moreVision : 0.0;
        loss.total = 0;
        loss.atHeadBackward = 0;
        loss.forwardPeak = 0;
        loss.heldThroughStep = 0;
    } else {
        acts.crossAttention /= ctx.pp;
        acts.vision = acts.crossAttention;
        acts.atLoss = decoder / ctx.pp + acts.final;
        acts.recompute = acts.recompute > 0 ? decoder / ctx.pp + acts.lastLayer : 0.0;
    }
}

SideModels ppoSideModels(Estimate& e, const Context& ctx) {
    SideModels side;
    if (ctx.s.runKind != RunKind::Ppo) {
        return side;
    }
    Scenario value = ctx.s;
    value.runKind = RunKind::Sft;
    value.method = Method::Full;
    value.trainableLayers = 0;
    value.model.causalLmHead = false;
    value.model.vision = {};
    value.imagesPerSample = 0;
    value.lora = {};
    const Context vctx = makeContext(value, ctx.prof);
    const Trainables vt = trainables(vctx);
    const ModelStates vm = modelStates(vctx, vt);
    const StoredActivations va = storedActivations(vctx, vt);
    const Transients vtr = transients(vctx, vt, vm, va);
    const double backbone = static_cast<double>(vctx.params.total);
    const bool zero3 = ctx.engine == ShardingEngine::Deepspeed && ctx.stage >= 3;
    const double reward = backbone * computeBytes(ctx.s.precision) * ctx.modelShare / (zero3 ? ctx.dp : 1.0);
    side.weights = vm.weights + reward;
    side.states = vm.optimizerStates;
    side.gradients = vm.gradients;
    side.activations = va.atLoss;
    side.stepTemporaries = vtr.stepTemporaries;
    side.gathered = ctx.stage >= 3 ? backbone * ctx.gatherB * ctx.modelShare : 0.0;
    e.valueModelParams = static_cast<std::int64_t>(backbone);
    e.valueModelBytes = toBytes(vm.weights + vm.optimizerStates + vm.gradients + va.atLoss);
    e.rewardModelBytes = toBytes(reward);
    return side;
}

Moment peakMoment(const Context& ctx, const ModelStates& m, const StoredActivations& acts, const LossBytes& loss,
                  const Transients& tr, const SideModels& side) {
    const Scenario& s = ctx.s;
    // The lm_head (or tied embedding) gradient appears while the logits gradient is alive.
    const double gradShard = (ctx.stage >= 2 && ctx.engine != ShardingEngine::Megatron) ? ctx.dp : 1.0;
    const double headGradient = s.offload != Offload::None ? 0.0 : m.headGradientUnsharded / gradShard;
    // DeepSpeed ZeRO-3 allocates its gradient partitions as one flat buffer when the optimizer is built
    // (grad_partitions_flat_buffer, stage3.py _setup_for_real_optimizer @edaa7221; on the host with optimizer offload),
    // so this GPU's share of the gradients is resident from the first forward on.
    const bool zero3GradientBuffer =
        ctx.engine == ShardingEngine::Deepspeed && ctx.stage >= 3 && s.offload == Offload::None;
    const bool gradientsHeld = s.gradientAccumulation > 1 || !ctx.prof.gradientsFreedAfterStep || zero3GradientBuffer;
    const double heldGradients = gradientsHeld ? m.gradients : std::min(m.gradients, headGradient);
    // PPO's value model: its tensors are saved first and freed last; its gradients exist once its backward has run.
    const double sideHeld = gradientsHeld ? side.gradients : 0.0;

    const double base = m.weights + m.optimizerStates + side.resident();
    const double bucketsInForward = tr.bucketLife == Transients::BucketLife::Always ? tr.commBuckets : 0.0;
    const double bucketsInBackward = tr.bucketLife != Transients::BucketLife::Reduce ? tr.commBuckets : 0.0;
    // DoRA's weight temporaries live while a layer runs forward: at the end of forward either the last layer's or the
    // final norm, logits and loss, whichever is larger; again while a checkpointed layer recomputes.
    const double doraAtForwardEnd = std::max(0.0, tr.doraWeight - acts.final - loss.total);
    const double atLossTransients = tr.gatheredAtLoss + tr.dequant + tr.autocastCache + tr.headGradientPerChunk +
                                    bucketsInForward + tr.workspace + doraAtForwardEnd;
    // The loss's own peak comes before lm_head's gradient exists; that gradient appears beside what the loss's
    // backward leaves (both moments are the end of forward for the chart).
    // A loop that keeps the model's output holds its logits at every moment: the previous step's at the end of forward.
    // DeepSpeed's ZeRO-1 step frees the gradients outside this rank's partition first (stage_1_and_2.py L2346
    // @edaa7221); LowLevelZero keeps every rank's slice until zero_grad (low_level_optim.py _add_grad @4f9953be).
    const bool zeroOneSteps = ctx.engine == ShardingEngine::Deepspeed && ctx.stage == 1 && s.offload == Offload::None &&
                              ctx.prof.stepFlattensGradientPartition;
    const double gradientsAtStep = zeroOneSteps ? m.gradients / ctx.dp : m.gradients;
    const double gradientsStepping = (tr.stepDropsSixteenBitGradients ? 0.0 : gradientsAtStep) + tr.stepFp32Gradients;
    // DeepSpeed ZeRO-1/2 drop their IPG buffers when backward ends (_release_ipg_buffers, L960); offload's
    // temp_grad_buffer_for_gpu_offload stays (L591).
    const double bucketsAtStep =
        tr.bucketLife == Transients::BucketLife::Backward ? m.offloadGradientBuffers : tr.commBuckets;
    const double held = loss.heldThroughStep;
    const double atLoss = std::max(loss.total, loss.forwardPeak + held); // the previous step's beside the forward
    const Moment moments[] = {
        {PeakMoment::ForwardEnd, (gradientsHeld ? m.gradients : 0.0) + sideHeld, acts.atLoss + side.activations, atLoss,
         atLossTransients},
        // (This step's held logits are in atHeadBackward already where the loss keeps them for backward.)
        {PeakMoment::ForwardEnd, heldGradients + sideHeld, acts.atLoss + side.activations,
         loss.atHeadBackward + (ctx.prof.logitsFreedBeforeBackward ? held : 0.0), atLossTransients},
        {PeakMoment::LastLayerRecompute, heldGradients + sideHeld, acts.recompute + side.activations, held,
         tr.gatheredInLayers + tr.dequant + bucketsInBackward + tr.workspace + tr.doraWeight + tr.float8Casts +
             tr.contextParallelBuffers + tr.layerBackward},
        // The cross-attention layers' tensors go with their backward; the encoder's backward is the step's last.
        {PeakMoment::BackwardEnd, m.gradients + sideHeld,
         acts.lastLayer + acts.vision - acts.crossAttention + side.activations, held,
         tr.gatheredInLayers + tr.dequant + tr.commBuckets + tr.workspace + tr.float8Casts + tr.contextParallelBuffers +
             tr.layerBackward},
        // The step: ZeRO-1/2's cast of the gradient partition, then the optimizer on what the cast left.
        {PeakMoment::OptimizerStep, gradientsAtStep + side.gradients, 0.0, held,
         bucketsAtStep + tr.stepCast + side.stepTemporaries + tr.workspace},
        {PeakMoment::OptimizerStep, gradientsStepping + side.gradients, 0.0, held,
         bucketsAtStep + tr.stepTemporaries + side.stepTemporaries + tr.workspace},
    };
    const Moment* peak = &moments[0];
    for (const auto& mo : moments) {
        if (mo.sum(base) > peak->sum(base)) {
            peak = &mo;
        }
    }
    return *peak;
}

void recordComponents(Estimate& e, const ModelStates& m, const StoredActivations& acts, const LossBytes& loss,
                      const Transients& tr, const Moment& peak, const SideModels& side) {
    e.logitsBytesAtLoss = toBytes(loss.total);
    e.activationBytesAtLoss = toBytes(acts.atLoss);
    e.gatheredParamBytesAtLoss = toBytes(tr.gatheredAtLoss);
    e.optimizerStepTemporaryBytes = toBytes(tr.stepTemporaries);
    e.doraWeightTemporaryBytes = toBytes(tr.doraWeight);
    e.float8CastTemporaryBytes = toBytes(tr.float8Casts);
    e.contextParallelBufferBytes = toBytes(tr.contextParallelBuffers);
    e.tiledMlpWorkingSetBytes = toBytes(tr.tiledMlp);
    e.layerBackwardBytes = toBytes(tr.layerBackward);
    ComponentBytes& comp = e.perGpu;
    comp[Component::Weights] = toBytes(m.weights + side.weights);
    comp[Component::Gradients] = toBytes(peak.grads);
    comp[Component::OptimizerStates] = toBytes(m.optimizerStates + side.states);
    comp[Component::Activations] = toBytes(peak.acts);
    comp[Component::LogitsLoss] = toBytes(peak.logits);
    comp[Component::Transient] = toBytes(peak.transient);
}

} // namespace gpusizer::core::detail
