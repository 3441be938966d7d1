#include "gpusizer/scenario/FrameworkProfile.h"

namespace gpusizer::core {

std::span<const BoolBehaviour> boolBehaviours() {
    using O = ProfileOverrides;
    using P = FrameworkProfile;
    static constexpr BoolBehaviour kAll[] = {
        {"loss_upcasts_logits", &O::lossUpcastsLogits, &P::lossUpcastsLogits},
        {"chunked_loss_projects_per_chunk", &O::chunkedLossProjectsPerChunk, &P::chunkedLossProjectsPerChunk},
        {"sdpa_expands_kv", &O::sdpaExpandsKv, &P::sdpaExpandsKv},
        {"quantizes_only_adapted_linears", &O::quantizesOnlyAdaptedLinears, &P::quantizesOnlyAdaptedLinears},
        {"kbit_upcasts_non_quantized", &O::kbitUpcastsNonQuantized, &P::kbitUpcastsNonQuantized},
        {"quantized_matmul_saves_input", &O::quantizedMatmulSavesInput, &P::quantizedMatmulSavesInput},
        {"adapters_in_fp32", &O::adaptersInFp32, &P::adaptersInFp32},
        {"lora_shares_qkv_dropout", &O::loraSharesQkvDropout, &P::loraSharesQkvDropout},
        {"gradients_freed_after_step", &O::gradientsFreedAfterStep, &P::gradientsFreedAfterStep},
        {"logits_held_in_fp32", &O::logitsHeldInFp32, &P::logitsHeldInFp32},
        {"fused_qkv_projection", &O::fusedQkvProjection, &P::fusedQkvProjection},
        {"root_unsharded_through_step", &O::rootUnshardedThroughStep, &P::rootUnshardedThroughStep},
        {"zero3_linear_saves_input", &O::zero3LinearSavesInput, &P::zero3LinearSavesInput},
        {"zero_overlap_comm", &O::zeroOverlapComm, &P::zeroOverlapComm},
        {"loss_from_transformers_model", &O::lossFromTransformersModel, &P::lossFromTransformersModel},
        {"logits_freed_before_backward", &O::logitsFreedBeforeBackward, &P::logitsFreedBeforeBackward},
        {"logits_held_through_step", &O::logitsHeldThroughStep, &P::logitsHeldThroughStep},
        {"offload_keeps_gradient_partitions", &O::offloadKeepsGradientPartitions, &P::offloadKeepsGradientPartitions},
        {"step_flattens_gradient_partition", &O::stepFlattensGradientPartition, &P::stepFlattensGradientPartition},
        {"compile_covers_loss", &O::compileCoversLoss, &P::compileCoversLoss},
        {"logprobs_in_place", &O::logprobsInPlace, &P::logprobsInPlace},
        {"logprobs_from_fp32_logits", &O::logprobsFromFp32Logits, &P::logprobsFromFp32Logits},
        {"reference_copy_with_adapters", &O::referenceCopyWithAdapters, &P::referenceCopyWithAdapters},
        {"reference_off_training_gpus", &O::referenceOffTrainingGpus, &P::referenceOffTrainingGpus},
        {"runs_tensor_parallel", &O::runsTensorParallel, &P::runsTensorParallel},
        {"runs_pipeline_parallel", &O::runsPipelineParallel, &P::runsPipelineParallel},
        {"transformers_experts", &O::transformersExperts, &P::transformersExperts},
    };
    return kAll;
}

bool keepsReferenceCopy(const Scenario& s, const FrameworkProfile& prof) {
    return usesReferenceModel(s) && (s.method == Method::Full || prof.referenceCopyWithAdapters) &&
           !prof.referenceOffTrainingGpus && (s.referenceLogProbs == ReferenceLogProbs::Model || generatesOnline(s));
}

bool keepsReferenceCopy(const Scenario& s) {
    return keepsReferenceCopy(s, profileFor(s));
}

bool ProfileOverrides::any() const {
    for (const auto& b : boolBehaviours()) {
        if (this->*b.override) {
            return true;
        }
    }
    return lossChunks || optimizerStep || selectivePolicy || zeroReduceBucketElements || zeroPrefetchBucketElements ||
           zeroMaxReuseDistance || zeroMaxLiveParameters;
}

namespace {

/// torchtune.
FrameworkProfile torchtuneProfile() {
    FrameworkProfile p;
    // torchtune: NF4 via torchao on every decoder linear (FrozenNF4Linear where no adapter, since PR #1119,
    // 2024-06-25; before it only adapted linears), adapters in the model dtype, fused AdamW in its configs,
    // FSDP2 with the root left unsharded after forward (training/_distributed.py shard_model).
    p.engine = ShardingEngine::Fsdp2;
    p.kbitUpcastsNonQuantized = false;
    p.quantizedMatmulSavesInput = false;
    p.quantStateSharded = true;
    p.adaptersInFp32 = false;
    p.doraRecomputesBaseWithDropout = false; // modules/peft/dora.py DoRALinear.forward (@bd2a0fc7)
    p.optimizerStep = OptimizerStepKind::Fused;
    p.chunkedLossProjectsPerChunk = true; // TransformerDecoder.chunked_output
    p.rootUnshardedThroughStep = true;
    p.runsPipelineParallel = false; // full_finetune_distributed: FSDP2 with tensor_parallel_dim, no pipeline
    // Its own loss module, not transformers'; its standard loss is sized with the 16-bit logits alive through
    // the fp32 backward, as before the transformers loss was read (not re-read against its recipes).
    p.lossFromTransformersModel = false;
    p.logitsFreedBeforeBackward = false;
    p.transformersExperts = false; // its own MoE modules (torchtune/modules/moe)
    return p;
}

/// torchtitan.
FrameworkProfile torchtitanProfile() {
    FrameworkProfile p;
    // torchtitan: FSDP2, op-level selective AC (_op_sac_save_list), fused AdamW is not forced: torch's default.
    p.engine = ShardingEngine::Fsdp2;
    p.adaptersInFp32 = false;
    p.selectivePolicy = SelectivePolicy::OpLevel;
    // Its own loss, cross_entropy(pred.flatten(0, 1).float(), ...), with `del pred` before backward in the train
    // step; --compile compiles the loss function too (components/loss.py build_cross_entropy_loss, train.py).
    p.lossFromTransformersModel = false;
    p.compileCoversLoss = true;
    p.transformersExperts = false; // its own MoE (models/moe: grouped experts over its token reordering)
    return p;
}

/// LitGPT on Lightning Fabric.
FrameworkProfile litgptProfile() {
    FrameworkProfile p;
    // LitGPT on Lightning Fabric: its own GPT module with a fused qkv projection, outputs converted to fp32 and
    // held by the loop, the loss in 128-token chunks without an fp32 upcast, adapters in the model dtype,
    // FSDPStrategy(auto_wrap_policy={Block}): adapters share each block's flat parameter. That is the layout of
    // the published LitGPT runs (2023, litgpt @8641822); litgpt finetune/lora.py since v0.5.11 shards with FSDP2
    // fully_shard instead, which an imported LitGPT config sets explicitly (sharding_engine fsdp2).
    p.lossUpcastsLogits = false;
    p.logitsHeldInFp32 = true;
    p.lossChunkTokens = 128;
    p.kbitUpcastsNonQuantized = false;
    p.adaptersInFp32 = false;
    p.loraSharesQkvDropout = true;
    p.fusedQkvProjection = true;
    p.engine = ShardingEngine::Fsdp1;
    p.adaptersWrappedSeparately = false;
    p.runsTensorParallel = false; // litgpt finetune/*.py: FSDPStrategy only
    p.runsPipelineParallel = false;
    p.lossFromTransformersModel = false;
    p.transformersExperts = false; // its own LLaMAMoE (litgpt/model.py), a loop over the experts
    return p;
}

/// Unsloth.
FrameworkProfile unslothProfile() {
    FrameworkProfile p;
    // Unsloth: fused cross-entropy kernel, no fp32 upcast of non-quantized weights, its own GQA-aware kernels.
    p.lossUpcastsLogits = false;
    p.lossChunks = 16;
    p.sdpaExpandsKv = false;
    p.kbitUpcastsNonQuantized = false;
    p.adaptersInFp32 = false;
    p.runsTensorParallel = false; // one process per GPU with its own kernels: data parallelism at most
    p.runsPipelineParallel = false;
    p.lossFromTransformersModel = false;
    return p;
}

/// ColossalAI as ColossalChat's and Colossal-LLaMA's training scripts run it (hpcaitech/ColossalAI @4f9953be), with
/// the LowLevelZero plugin their shell examples pass ("zero2", "zero2_cpu"; train_sft.sh L50, train_grpo.sh L64).
FrameworkProfile colossalaiProfile() {
    FrameworkProfile p;
    // LowLevelZero keeps an fp32 master partition, a 16-bit gradient partition and fp32 Adam states per rank, with the
    // optimizer and the master on the host under cpu_offload (zero/low_level/low_level_optim.py L263-299, L369-389):
    // the ZeRO-1/2 layout DeepSpeed's engine gives here.
    p.engine = ShardingEngine::Deepspeed;
    // Gradients reduce through 12 Mi-element buckets, overlapped (low_level_zero_plugin.py L409-454:
    // reduce_bucket_size_in_m=12, overlap_communication=True): the live gradients and their flat copy.
    p.zeroReduceBucketElements = 12.0 * 1024.0 * 1024.0;
    p.zeroOverlapComm = true;
    // Its model wrapper casts the whole module, adapters included, to the 16-bit dtype (L82-84).
    p.adaptersInFp32 = false;
    // HybridAdam runs fused multi_tensor_adam on GPU tensors (nn/optimizer/hybrid_adam.py L161-189).
    p.optimizerStep = OptimizerStepKind::Fused;
    // The trainers hold the model's output, logits included, in a variable until the next step's forward returns
    // (coati/trainer/sft.py L133-140).
    p.logitsFreedBeforeBackward = false;
    p.logitsHeldThroughStep = true;
    // "zero2_cpu" keeps its reduced 16-bit gradient partitions on the GPU until the step (low_level_optim.py
    // _run_reduction L327-391, step L564-566).
    p.offloadKeepsGradientPartitions = true;
    p.stepFlattensGradientPartition = false; // its step casts each parameter's partition (L553-567)
    // Its HybridParallelPlugin (shardformer tensor and pipeline parallelism) is not modelled.
    p.runsTensorParallel = false;
    p.runsPipelineParallel = false;
    return p;
}

} // namespace

FrameworkProfile profileForFramework(Framework framework) {
    // generic = Hugging Face transformers Trainer + PEFT + bitsandbytes, the most common stack; sharding through
    // DeepSpeed ZeRO (the stages the scenario names), with the Trainer's "auto" bucket sizes.
    FrameworkProfile p;
    switch (framework) {
    case Framework::Generic:
        break;
    case Framework::HfTrainer:
    case Framework::Axolotl:
        p.runsPipelineParallel =
            false; // the Trainer has no pipeline schedule; TP through tp_plan / tensor_parallel_size
        break;
    case Framework::Torchtune:
        return torchtuneProfile();
    case Framework::Torchtitan:
        return torchtitanProfile();
    case Framework::Lightning:
        return litgptProfile();
    case Framework::Deepspeed:
        p.optimizerStep = OptimizerStepKind::Fused; // DeepSpeed's FusedAdam
        p.sdpaExpandsKv = false;
        p.zeroReduceBucketElements = 5e8;   // DeepSpeedZeroConfig.reduce_bucket_size default
        p.zeroPrefetchBucketElements = 5e7; // stage3_prefetch_bucket_size default
        break;
    case Framework::Megatron:
        p.optimizerStep = OptimizerStepKind::Fused; // Megatron's distributed optimizer runs apex/TE FusedAdam
        p.sdpaExpandsKv = false;
        p.engine = ShardingEngine::Megatron;
        p.fp32MainGradients = true;
        // Its own loss; sized with the 16-bit logits alive through the fp32 backward (not re-read).
        p.lossFromTransformersModel = false;
        p.logitsFreedBeforeBackward = false;
        p.transformersExperts = false; // Megatron-Core's MoE layers
        break;
    case Framework::Unsloth:
        return unslothProfile();
    case Framework::Colossalai:
        return colossalaiProfile();
    }
    return p;
}

namespace {

/// The 4-bit base is sharded: ZeRO-3 or FSDP's full shard, or FSDP's SHARD_GRAD_OP, which flattens and shards the
/// stored weights too (loaded on the CPU or meta device first, which is what TRL tests for).
bool quantizedBaseIsSharded(const Scenario& s, ShardingEngine engine) {
    const bool fsdp = engine == ShardingEngine::Fsdp1 || engine == ShardingEngine::Fsdp2;
    return s.sharding == Sharding::Zero3 || (fsdp && s.sharding == Sharding::Zero2);
}

} // namespace

FrameworkProfile profileFor(const Scenario& scenario) {
    FrameworkProfile p = profileForFramework(scenario.framework);
    // The releases that run it, before any behaviour set explicitly.
    if (scenario.peftVersion == PeftVersion::UpTo011) {
        p.adaptersInFp32 = false; // tuners/lora/layer.py:128-129 @v0.11.1: self.to(weight.device, dtype=weight.dtype)
    }
    if (scenario.torchVersion == TorchVersion::V1) {
        // torch/optim/optimizer.py before 2.0: zero_grad(set_to_none=False); AdamW's for-loop implementation unless a
        // fused kernel is the framework's own (DeepSpeed's FusedAdam, Megatron's).
        p.gradientsFreedAfterStep = false;
        if (p.optimizerStep == OptimizerStepKind::Foreach) {
            p.optimizerStep = OptimizerStepKind::PerParameter;
        }
    }
    const ProfileOverrides& o = scenario.overrides;
    for (const auto& b : boolBehaviours()) {
        p.*b.value = (o.*b.override).value_or(p.*b.value);
    }
    p.lossChunks = o.lossChunks.value_or(p.lossChunks);
    p.optimizerStep = o.optimizerStep.value_or(p.optimizerStep);
    p.selectivePolicy = o.selectivePolicy.value_or(p.selectivePolicy);
    p.zeroReduceBucketElements = o.zeroReduceBucketElements.value_or(p.zeroReduceBucketElements);
    p.zeroPrefetchBucketElements = o.zeroPrefetchBucketElements.value_or(p.zeroPrefetchBucketElements);
    p.zeroMaxReuseDistance = o.zeroMaxReuseDistance.value_or(p.zeroMaxReuseDistance);
    p.zeroMaxLiveParameters = o.zeroMaxLiveParameters.value_or(p.zeroMaxLiveParameters);
    switch (scenario.shardingEngine) {
    case ShardingEngine::Auto:
        // ColossalChat's ZeRO-3 is its "gemini" plugin (train_sft.py L72-80 @4f9953be), as is parameter offload.
        if (scenario.framework == Framework::Colossalai && scenario.sharding == Sharding::Zero3) {
            p.engine = ShardingEngine::Gemini;
        }
        break;
    case ShardingEngine::Deepspeed:
    case ShardingEngine::Fsdp1:
    case ShardingEngine::Fsdp2:
    case ShardingEngine::Megatron:
    case ShardingEngine::Gemini:
        p.engine = scenario.shardingEngine;
        break;
    }
    if (scenario.adapterWrapping != AdapterWrapping::Auto) {
        p.adaptersWrappedSeparately = scenario.adapterWrapping == AdapterWrapping::Separate;
    }
    if (scenario.method == Method::Qlora && quantizedBaseIsSharded(scenario, p.engine)) {
        // Sharded QLoRA (the 4-bit base loaded for FSDP or ZeRO-3): TRL skips prepare_model_for_kbit_training and
        // makes the adapters with autocast_adapter_dtype=False (SFTTrainer._prepare_peft_model,
        // trl/trainer/sft_trainer.py @d11f0f53), and FSDP1 could not flatten fp32 norms with the 16-bit-stored 4-bit
        // data of the same layer anyway. Set explicitly, an override still wins.
        p.kbitUpcastsNonQuantized = o.kbitUpcastsNonQuantized.value_or(false);
        p.adaptersInFp32 = o.adaptersInFp32.value_or(false);
    }
    return p;
}

} // namespace gpusizer::core
