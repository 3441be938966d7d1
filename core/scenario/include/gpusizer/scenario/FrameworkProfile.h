#pragma once

#include "gpusizer/scenario/Scenario.h"

#include <optional>
#include <span>

namespace gpusizer::core {

/// Framework behaviours that change memory for the same scenario (see MEMORY-NOTES / docs/memory-model.md).
/// A profile is chosen from Scenario::framework; every field is visible in the estimate's assumptions.
struct FrameworkProfile {
    /// The loss upcasts 16-bit logits to fp32 before log-softmax (HF transformers, torchtune). LitGPT does not.
    bool lossUpcastsLogits = true;
    /// Chunks used by chunked / fused cross-entropy (torchtune CEWithChunkedOutputLoss uses 8).
    int lossChunks = 8;
    /// The chunked loss applies the output projection once per chunk (torchtune's chunked_output), so a trainable
    /// lm_head gets one weight gradient per chunk, each summed into the accumulated one: two head-sized gradients
    /// exist at once. A loss that only chunks logits computed by one projection gives the head one gradient.
    bool chunkedLossProjectsPerChunk = false;
    /// SDPA receives k/v expanded to all query heads (HF repeat_kv, torchtune); flash-attention keeps kv heads.
    bool sdpaExpandsKv = true;
    /// QLoRA quantizes only the LoRA-adapted linears (torchtune between PRs #658 and #1119, April to June 2024)
    /// instead of every decoder linear (bitsandbytes, torchtune since).
    bool quantizesOnlyAdaptedLinears = false;
    /// peft.prepare_model_for_kbit_training upcasts non-quantized parameters (embeddings, lm_head, norms) to fp32.
    bool kbitUpcastsNonQuantized = true;
    /// bitsandbytes MatMul4Bit saves its input for backward even when frozen; torchao NF4 does not.
    bool quantizedMatmulSavesInput = true;
    /// LoRA adapter dtype when the scenario says Auto: PEFT upcasts adapters to fp32; torchtune/LitGPT keep bf16.
    bool adaptersInFp32 = true;
    /// What the optimizer step allocates beyond the states.
    OptimizerStepKind optimizerStep = OptimizerStepKind::Foreach;
    /// zero_grad(set_to_none=True) frees gradients after each step (PyTorch >= 2.0 default); false: they persist
    /// through the next forward, as with PyTorch 1.x's zero-filling zero_grad().
    bool gradientsFreedAfterStep = true;
    /// DoRA with dropout computes the base output a second time from the dropped-out input (PEFT variants.py
    /// DoraLinearVariant.forward passes base_result=None); torchtune's DoRALinear reuses its base output.
    bool doraRecomputesBaseWithDropout = true;
    /// One dropout feeds every LoRA adapter of a fused qkv projection (LitGPT), instead of one per adapted module.
    bool loraSharesQkvDropout = false;
    /// What "selective" checkpointing keeps (torchtitan: op-level; Megatron and the rest: the attention core).
    SelectivePolicy selectivePolicy = SelectivePolicy::AttentionCore;
    /// The model's output is converted to fp32 and held by the training loop through backward (Lightning Fabric
    /// bf16-true: _FabricModule.forward -> HalfPrecision.convert_output; LitGPT keeps `logits` until backward).
    bool logitsHeldInFp32 = false;
    /// The loss is the model's own causal-LM loss from transformers' modeling code (labels= passed to the model), so
    /// Scenario::transformersVersion decides its copies of the logits (the Trainer, TRL, Axolotl, LLaMA-Factory).
    bool lossFromTransformersModel = true;
    /// The training loop drops the 16-bit logits before backward: the Trainer's compute_loss returns only the loss
    /// (trainer.py), torchtitan's train step runs `del pred` before backward. Held, they stay through the loss's
    /// backward beside its fp32 gradients.
    bool logitsFreedBeforeBackward = true;
    /// The training loop keeps the model's output in a variable until the next step's forward returns (ColossalChat's
    /// `outputs = self.model(...)`, coati/trainer/sft.py L133-140): its 16-bit logits live through the whole
    /// backward, the optimizer step and the next forward.
    bool logitsHeldThroughStep = false;
    /// With the optimizer offloaded, the reduced 16-bit gradients stay on the GPU until the step copies them to the
    /// host, a partition per rank under ZeRO-2 (ColossalAI's LowLevelZero: _run_reduction keeps received_grad on the
    /// device, step() moves each to the master's device, low_level_optim.py L327-391, L564-566 @4f9953be), through the
    /// engine's own buckets, without DeepSpeed's offload buffers.
    bool offloadKeepsGradientPartitions = false;
    /// ZeRO-1/2's step flattens the 16-bit gradient partition into a new tensor before casting it to fp32 for the
    /// master copy (DeepSpeed stage_1_and_2.py step L2356-2372 @edaa7221); LowLevelZero casts each parameter's
    /// partition without a flat copy (low_level_optim.py step L553-567 @4f9953be).
    bool stepFlattensGradientPartition = true;
    /// torch.compile covers the loss as well as the layers (torchtitan compiles its loss function with
    /// --compile.enable): inductor fuses the fp32 upcast, log-softmax and gradient into kernels that keep only the
    /// 16-bit logits and write a 16-bit gradient.
    bool compileCoversLoss = false;
    /// A GRPO-style step's per-token log-probabilities come from a fused cross-entropy kernel that writes its gradient
    /// into the 16-bit logits, computed over every token of the micro-batch (verl's logprobs_from_logits_flash_attn
    /// with inplace_backward over the unpadded sequences: dp_actor.py L253-269, torch_functional.py L103-126
    /// @b178a3cd): the logits alone, c bytes an element, prompt tokens included.
    bool logprobsInPlace = false;
    /// Every run's per-token log-probabilities come from the whole output upcast to fp32 and flash-attn's Triton
    /// cross-entropy without in-place backward, over every token of the micro-batch (OpenRLHF's Actor.forward:
    /// models/actor.py L265-285, models/utils.py L139-150 @3c3be623): the fp32 logits it saves, their fp32 gradient
    /// and its cast to the compute dtype, 8 + c bytes an element at the loss's backward.
    bool logprobsFromFp32Logits = false;
    /// The reference model is a model of its own even when the policy trains adapters (OpenRLHF loads it from the
    /// base checkpoint, in the policy's dtype and 4-bit setting: train_dpo.py L42-52, ray/launcher.py L104-124
    /// @3c3be623), instead of the policy with its adapters disabled (TRL).
    bool referenceCopyWithAdapters = false;
    /// The reference model's parameters are not on the training GPUs while the policy trains: on the host between
    /// its passes (verl's FSDP CPUOffload, OpenRLHF's --ref.offload) or on GPUs of its own (OpenRLHF without
    /// colocation). Its forward pass still runs each step.
    bool referenceOffTrainingGpus = false;
    /// A MoE block's experts run through transformers' experts interface (its models' code: transformers 5's default
    /// grouped_mm over stacked weights, integrations/moe.py @251c2d4f); false where the framework has MoE code of its
    /// own (torchtune, torchtitan, LitGPT, Megatron), which loops over the experts that were hit.
    bool transformersExperts = true;
    /// Tokens per loss chunk along the sequence (LitGPT lm_head_chunk_size = 128); 0: the loss splits the logits
    /// into lossChunks pieces instead.
    int lossChunkTokens = 0;
    /// q, k and v come from one fused projection (LitGPT's CausalSelfAttention.attn): with multi-head attention v is
    /// a view into the projection's output, so SDPA keeps the whole qkv tensor; LoRA on some of q/k/v zero-pads its
    /// output into the qkv width (LoRAQKVLinear.zero_pad, whose index_copy saves its source).
    bool fusedQkvProjection = false;
    /// The root FSDP2 unit (embeddings, final norm, output projection) stays unsharded from forward to backward
    /// (torchtune training.shard_model: fully_shard(model, reshard_after_forward=False)).
    bool rootUnshardedThroughStep = false;
    /// Who shards: DeepSpeed ZeRO, FSDP1 (flat parameters), FSDP2 (per parameter) or Megatron's distributed optimizer.
    ShardingEngine engine = ShardingEngine::Deepspeed;
    /// FSDP1 with adapters: adapters wrapped in their own units (true) or mixed into each block's flat parameter.
    bool adaptersWrappedSeparately = true;
    /// DeepSpeed's zero.Init (what transformers' from_pretrained enters under ZeRO-3) replaces
    /// torch.nn.functional.linear with LinearFunctionForZeroStage3 for good (partition_parameters.py v0.13.2
    /// L545-551: "This will persist unless manually reset"), whose forward saves input, weight and bias for backward
    /// whether or not the weight trains (runtime/zero/linear.py): frozen 16-bit base linears keep their inputs.
    bool zero3LinearSavesInput = true;
    /// DeepSpeed ZeRO-1/2 with overlap_comm: a second IPG buffer of reduce_bucket_size, so that one bucket fills
    /// while the other is reduced (stage_1_and_2.py setup_buckets:2508 @edaa7221). DeepSpeed turns it on by default
    /// at stage 3 only (zero/config.py overlap_comm_valid:383), whose single flat IPG buffer it does not double.
    bool zeroOverlapComm = false;
    /// DeepSpeed reduce_bucket_size in elements; 0 means the transformers Trainer's "auto" value hidden_size².
    double zeroReduceBucketElements = 0;
    /// DeepSpeed stage3_prefetch_bucket_size in elements; 0 means "auto": 0.9 x hidden_size².
    double zeroPrefetchBucketElements = 0;
    /// DeepSpeed stage3_max_reuse_distance: a parameter reused within this many elements stays gathered.
    double zeroMaxReuseDistance = 1e9;
    /// DeepSpeed stage3_max_live_parameters: prefetching stops once this many elements are gathered.
    double zeroMaxLiveParameters = 1e9;
    /// Megatron DDP keeps fp32 main gradients (main_grad) for 16-bit parameters (--accumulate-allreduce-grads-in-fp32,
    /// forced on with --bf16).
    bool fp32MainGradients = false;
    /// Which model parallelism the stack runs, so the planner proposes only layouts it can launch: Megatron,
    /// torchtitan and DeepSpeed (its pipeline engine and AutoTP) split layers both ways; the transformers Trainer
    /// (tp_plan), Axolotl (tensor_parallel_size) and torchtune (tensor_parallel_dim) split them across tensors only;
    /// LitGPT's recipes and Unsloth shard data only. An unnamed stack is not restricted.
    bool runsTensorParallel = true;
    bool runsPipelineParallel = true;
    /// 4-bit quantization constants are sharded with the weights (torchao NF4Tensor fsdp_pre_all_gather sends them);
    /// bitsandbytes keeps its QuantState as a Python attribute that every rank holds in full.
    bool quantStateSharded = false;
};

/// An on/off behaviour a scenario can override: its `framework_overrides` key, the override, the profile field.
struct BoolBehaviour {
    const char* key;
    std::optional<bool> ProfileOverrides::*override;
    bool FrameworkProfile::*value;
};

/// Every on/off behaviour, listed once: profileFor(), ProfileOverrides::any() and the scenario JSON read this.
std::span<const BoolBehaviour> boolBehaviours();

/// The profile of a framework, before overrides.
FrameworkProfile profileForFramework(Framework framework);

/// The profile for a scenario: its framework's, with the scenario's overrides applied.
FrameworkProfile profileFor(const Scenario& scenario);

/// A second, frozen copy of the model on the training GPUs: the reference run every step, under full fine-tuning or
/// where the framework loads it apart from the adapters' policy. Under TRL's PEFT the reference is the policy with
/// its adapters disabled (use_adapter(..., None), utils.py L1200-1230 @f2cd5771), and precomputed log-probabilities
/// need no reference model during training (dpo_trainer.py L893-910).
bool keepsReferenceCopy(const Scenario& s, const FrameworkProfile& prof);
bool keepsReferenceCopy(const Scenario& s); ///< with the scenario's own profile

} // namespace gpusizer::core
