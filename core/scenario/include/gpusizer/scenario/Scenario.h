#pragma once

#include "gpusizer/scenario/DatasetLengths.h"
#include "gpusizer/scenario/ModelArch.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpusizer::core {

/// How the model is trained.
enum class Method { Full, Lora, Qlora };

/// Where parameters, gradients and optimizer states live, and in which dtype (see docs/memory-model.md).
enum class Precision {
    Fp32,           ///< everything fp32
    AmpBf16,        ///< fp32 parameters/grads/states, bf16 autocast compute
    AmpFp16,        ///< same with fp16 autocast
    Bf16Fp32Master, ///< bf16 parameters and grads, fp32 master copy in the optimizer (DeepSpeed, Megatron)
    Fp16Fp32Master, ///< same with fp16
    Bf16,           ///< pure bf16: parameters, grads and optimizer states all bf16
    Fp16,           ///< pure fp16
    /// FSDP MixedPrecision(param_dtype=bf16, reduce_dtype=fp32): fp32 sharded parameters, gradients and states; each
    /// unit is gathered in bf16 and computes in bf16 (no autocast). torchtitan's default, accelerate's FSDP bf16.
    FsdpMixedBf16,
    /// DeepSpeed's bf16 section with bf16_master_weights_and_grads and bf16_optimizer_states
    /// (runtime/precision_config.py, v0.18.3+): bf16 parameters and gradients, a bf16 master copy (under ZeRO-3 the
    /// parameter partition itself) and bf16 Adam states. DeepSpeed runs it under ZeRO stage 1, 2 or 3 only.
    Bf16Bf16Master,
};

enum class Optimizer { AdamW, AdamW8bit, PagedAdamW, PagedAdamW8bit, Adafactor, Sgd, SgdMomentum, Lion };
/// Activation checkpointing. Selective follows the framework's policy (FrameworkProfile::selectivePolicy);
/// EveryNth checkpoints every n-th block fully and leaves the others without recomputation (torchtitan
/// selective_ac_option "n").
/// Auto leaves the choice to the planner (none, selective or full, whichever the objective prefers); a single estimate
/// sizes it as full.
enum class Checkpointing { None, Selective, Full, EveryNth, Auto };
enum class Attention { Flash, Sdpa, Eager };
/// The loss kernel: standard cross-entropy on full logits; chunked (torchtune CEWithChunkedOutputLoss: full 16-bit
/// logits, each chunk upcast in turn); fused linear cross-entropy that never materialises the logits (Liger
/// LigerFusedLinearCrossEntropyLoss); Apple's Cut Cross-Entropy (blockwise, logits never stored).
enum class Loss { Standard, Chunked, FusedLinear, CutCrossEntropy };
enum class Sharding { None, Zero1, Zero2, Zero3 };
enum class Offload { None, Optimizer, OptimizerAndParams };
/// What implements data parallelism and sharding. Auto: the framework's (FrameworkProfile::engine).
enum class ShardingEngine { Auto, Deepspeed, Fsdp1, Fsdp2, Megatron, Gemini };
/// FSDP1 with adapters: trainable adapters in their own units (PEFT's fsdp_auto_wrap_policy, applied by the
/// transformers Trainer since PR #29587) or mixed with frozen weights in one flat parameter per block (LitGPT's
/// FSDPStrategy(auto_wrap_policy={Block})). Auto: the framework's.
enum class AdapterWrapping { Auto, Separate, Mixed };
/// How the GPUs of one node talk, as far as NCCL's buffers depend on it (from the catalog card; Unknown without one):
/// PCIe only, NVLink bridges pairing two cards, NVLink (NVSwitch or a full mesh), or NVSwitch with NVLink SHARP (NVLS:
/// H100 / H200 / B200 SXM nodes); NotNccl: a card whose collectives library is not NCCL's (Gaudi's HCCL).
enum class NodeFabric { Unknown, Pcie, NvLinkBridge, NvLink, NvLinkSharp, NotNccl };
/// How a context-parallel group splits each sequence: ring attention (PyTorch context_parallel, torchtitan
/// context_parallel_degree: k/v chunks passed around the ring) or DeepSpeed Ulysses (all-to-all to a head split for
/// attention, as ArcticTraining uses it). See docs/memory-model.md §3.
enum class ContextParallel { Ring, Ulysses };
/// float8 training of the decoder linears (torchao Float8Linear via convert_to_float8_training, as torchtitan applies
/// it with filter_fqns ["output"]): tensorwise or rowwise dynamic scaling. See docs/memory-model.md §4.
enum class Float8 { Off, Tensorwise, Rowwise };
/// QLoRA base quantization: NF4, NF4 with double quantization, LLM.int8.
enum class Quantization { Nf4, Nf4Dq, Int8 };
/// The training stack; sets behaviours the physics alone cannot decide (see FrameworkProfile).
enum class Framework {
    Generic,
    HfTrainer,
    Torchtune,
    Torchtitan,
    Lightning,
    Deepspeed,
    Megatron,
    Unsloth,
    Axolotl,
    Colossalai
};
/// Which PEFT adapter the adapter methods train (huggingface/peft @5d602fdb): LoRA; DoRA (use_dora: a trainable
/// magnitude per output row, tuners/lora/dora.py); LoRA-FA (lora_A frozen, optimizers/lorafa.py); VeRA (shared
/// frozen random matrices, trainable scaling vectors, tuners/vera); IA3 (one trainable scaling vector per module,
/// tuners/ia3); LayerNorm tuning (trainable copies of the norms, tuners/ln_tuning). See docs/memory-model.md §4.
enum class AdapterKind { Lora, Dora, LoraFa, Vera, Ia3, LnTuning };
/// The transformers release whose causal-LM loss runs (models' own loss through labels=): it decides the logits'
/// copies at the loss, and the 4.x releases since then other behaviours. Current: 5.x (loss/loss_utils.py
/// ForCausalLMLoss upcasts a local copy and pads the labels, PR #35646, since 4.49; experts through grouped_mm;
/// checkpointing hooks every sub-model's input embeddings, PR #41993; weights load in their own dtype, #42805);
/// 4.54 to 4.57 and 4.49 to 4.53 (that loss; SDPA takes grouped key/value heads with enable_gqa from 4.54, PR #39412);
/// 4.46 to 4.48 (ForCausalLMLoss also makes an fp32 shift_logits copy, PR #34191); 4.45 and older (the model's
/// forward returns fp32 logits, the loss makes the shifted copy). See docs/memory-model.md §5.
enum class TransformersVersion { Current, V454To457, V449To453, V446To448, UpTo445 };
/// transformers 4.49 or later: ForCausalLMLoss pads the labels instead of slicing the logits (PR #35646).
inline bool lossPadsLabels(TransformersVersion v) {
    return v == TransformersVersion::Current || v == TransformersVersion::V454To457 ||
           v == TransformersVersion::V449To453;
}
/// The PEFT release: since 0.12 get_peft_model upcasts 16-bit adapters to fp32 (autocast_adapter_dtype=True,
/// tuners_utils.py _cast_adapter_dtype, PR #1706); 0.11 and older give them the base weight's dtype
/// (tuners/lora/layer.py:128-129 @v0.11.1).
enum class PeftVersion { Current, UpTo011 };
/// The PyTorch release: since 2.0 zero_grad() sets gradients to None (PR #92731) and AdamW on CUDA defaults to its
/// foreach implementation (PR #92306); 1.13 and older zero-fill gradients, which stay allocated through the next
/// forward, and loop over parameters one at a time.
enum class TorchVersion { Current, V1 };
/// What the run optimises (docs/memory-model.md §8): supervised fine-tuning, or a preference objective as TRL's
/// trainers run it (huggingface/trl @f2cd5771): DPO and IPO (DPOTrainer, loss_type sigmoid / ipo), ORPO (ORPOTrainer),
/// SimPO (CPOTrainer loss_type simpo) and KTO (KTOTrainer); GRPO (GRPOTrainer) generates its completions first; PPO
/// (trl/experimental/ppo PPOTrainer) generates, scores with reference, reward and value models, and trains the policy
/// with a value model.
enum class RunKind { Sft, Dpo, Ipo, Orpo, Simpo, Kto, Grpo, Ppo };
/// Where GRPO generates (grpo_config.py use_vllm, vllm_mode @f2cd5771): transformers' generate on the training GPUs,
/// vLLM inside the trainer's process on the same GPUs (colocate), or a vLLM server on GPUs of its own.
enum class Generation { Transformers, VllmColocate, VllmServer };
/// Where DPO, IPO and KTO take the reference model's log-probabilities from: a reference model run beside the policy
/// every step (a second frozen copy under full fine-tuning; the policy with its adapters disabled under PEFT), or
/// computed once before training (precompute_ref_log_probs).
enum class ReferenceLogProbs { Model, Precomputed };
/// Storage dtype of LoRA adapters. Auto: what the framework does (PEFT upcasts to fp32; torchtune/LitGPT keep bf16).
enum class AdapterDtype { Auto, Fp32, Bf16, Fp16 };
/// Which parts of a vision-language model's image side carry adapters besides the language model
/// (docs/design/vision-lora.md): PEFT's "all-linear" reaches the encoder's and the projector's linears (peft
/// @5d602fdb tuners_utils.py L2382-2442), LLaMA-Factory's "all" neither unless freeze_vision_tower is false
/// (model_utils/misc.py L28-52 @ff6d4d12: then the encoder, never the projector).
enum class VisionAdapterTargets { None, Encoder, EncoderAndProjector };

/// How the optimizer step allocates temporaries.
enum class OptimizerStepKind {
    Foreach,      ///< torch foreach (the PyTorch 2 default on CUDA): temporaries about the size of the states
    PerParameter, ///< a loop over parameters (older transformers.AdamW): one parameter-sized temporary
    Fused,        ///< fused kernel (fused=True, DeepSpeed FusedAdam): no temporaries
};

/// What "selective" checkpointing keeps: Megatron / Korthikanti et al. recompute only the attention core (the s²
/// softmax and dropout); torchtitan's op-level policy saves the outputs of listed ops (SDPA, every second matmul) and
/// recomputes the rest.
enum class SelectivePolicy { AttentionCore, OpLevel };

/// User overrides of single profile behaviours (unset fields keep the framework's choice).
struct ProfileOverrides {
    std::optional<bool> lossUpcastsLogits;
    std::optional<int> lossChunks;
    std::optional<bool> chunkedLossProjectsPerChunk;
    std::optional<bool> sdpaExpandsKv;
    std::optional<bool> quantizesOnlyAdaptedLinears;
    std::optional<bool> kbitUpcastsNonQuantized;
    std::optional<bool> quantizedMatmulSavesInput;
    std::optional<bool> adaptersInFp32;
    std::optional<OptimizerStepKind> optimizerStep;
    std::optional<bool> loraSharesQkvDropout;
    std::optional<bool> gradientsFreedAfterStep;
    std::optional<bool> logitsHeldInFp32;
    std::optional<bool> fusedQkvProjection;
    std::optional<bool> rootUnshardedThroughStep;
    std::optional<SelectivePolicy> selectivePolicy;
    std::optional<bool> zero3LinearSavesInput;
    std::optional<bool> zeroOverlapComm;
    std::optional<bool> lossFromTransformersModel;
    std::optional<bool> logitsFreedBeforeBackward;
    std::optional<bool> logitsHeldThroughStep;
    std::optional<bool> offloadKeepsGradientPartitions;
    std::optional<bool> stepFlattensGradientPartition;
    std::optional<bool> compileCoversLoss;
    std::optional<bool> logprobsInPlace;
    std::optional<bool> logprobsFromFp32Logits;
    std::optional<bool> referenceCopyWithAdapters;
    std::optional<bool> referenceOffTrainingGpus;
    std::optional<bool> runsTensorParallel;
    std::optional<bool> runsPipelineParallel;
    std::optional<bool> transformersExperts;
    std::optional<double> zeroReduceBucketElements;
    std::optional<double> zeroPrefetchBucketElements;
    std::optional<double> zeroMaxReuseDistance;
    std::optional<double> zeroMaxLiveParameters;
    bool any() const;
};

/// LoRA settings (Hu et al. 2021). Targets use Hugging Face Llama module names.
struct LoraSettings {
    AdapterKind kind = AdapterKind::Lora;
    std::int64_t rank = 16; ///< LoRA / DoRA / LoRA-FA rank; VeRA's shared rank (PEFT VeraConfig default 256)
    double alpha = 32.0;
    double dropout = 0.05;
    std::vector<LinearRole> targets{LinearRole::Q, LinearRole::V};
    bool lmHead = false;    ///< an adapter on the output projection (PEFT target "lm_head", LitGPT lora_head)
    bool embedding = false; ///< an adapter on the token embedding (PEFT target "embed_tokens")
    /// PEFT modules_to_save: a trainable full copy of the module beside the frozen original
    /// (ModulesToSaveWrapper.update deep-copies it), with its gradients and optimizer states.
    bool saveLmHead = false;
    bool saveEmbedding = false;
    AdapterDtype dtype = AdapterDtype::Auto;
    VisionAdapterTargets visionTargets = VisionAdapterTargets::None; ///< a vision-language model's image side
};

/// One training run to size. Every field has a documented default; only the model is required.
struct Scenario {
    std::string name;    ///< a label for reports and window titles
    std::string notes;   ///< free text kept with the scenario (the import report of a training config)
    std::string modelId; ///< catalog id when the model came from the catalog, else empty
    ModelArch model;
    Method method = Method::Lora;
    Precision precision = Precision::Bf16;
    Optimizer optimizer = Optimizer::AdamW;
    bool optimizerInBackward = false;
    LoraSettings lora;
    Quantization quantization = Quantization::Nf4Dq;
    RunKind runKind = RunKind::Sft;
    ReferenceLogProbs referenceLogProbs = ReferenceLogProbs::Model;
    /// GRPO (TRL's GRPOConfig defaults @f2cd5771): completions per prompt, the completion's length within seq_len,
    /// the KL coefficient (0: no reference model), where it generates and vLLM's share of each GPU's memory.
    std::int64_t numGenerations = 8;
    std::int64_t completionLength = 512;
    double klBeta = 0.0;
    Generation generation = Generation::Transformers;
    double vllmMemoryUtilization = 0.3; ///< colocate's default; a server's own GPUs take vllm-serve's 0.9
    bool vllmSleepMode = false;         ///< colocate: vLLM frees its weights and KV cache while the trainer steps
    std::int64_t vllmGpus = 1;          ///< server mode: the GPUs the vLLM server runs on (its tensor-parallel size)
    /// PPO (PPOConfig num_ppo_epochs @f2cd5771): passes of training over each rollout batch.
    std::int64_t ppoEpochs = 4;
    /// Vision-language models: images per example at width x height pixels before the processor resizes them;
    /// imageMaxPixels > 0 caps the area first (LLaMA-Factory image_max_pixels), 0 keeps the processor's bound.
    std::int64_t imagesPerSample = 0;
    std::int64_t imageWidth = 1024;
    std::int64_t imageHeight = 768;
    std::int64_t imageMaxPixels = 0;
    /// Full fine-tuning of a vision-language model: the encoder and the projector train unless frozen (TRL trains
    /// every parameter; LLaMA-Factory freezes both by default: freeze_vision_tower, freeze_multi_modal_projector).
    bool freezeVisionTower = false;
    bool freezeProjector = false;
    std::int64_t microBatch = 4; ///< examples per GPU per step (a preference pair counts once)
    std::int64_t seqLen = 2048;
    /// Batches are padded to their longest sample and the model is called with an attention mask (a padding data
    /// collator, the Trainer's default). transformers (4.54+, integrations/sdpa_attention.py use_gqa_in_sdpa) then
    /// expands grouped key/value heads for SDPA; with no mask, or one sample per micro-batch (no padding, so the mask
    /// is dropped), SDPA reads them grouped (enable_gqa). Off: fixed-length chunks called without a mask.
    bool paddedBatches = true;
    std::int64_t gradientAccumulation = 1; ///< >1 keeps gradients alive through the next forward
    /// Full fine-tuning of the last n decoder layers only, the rest frozen (LLaMA-Factory finetuning_type freeze,
    /// freeze_trainable_layers); 0 trains every weight.
    std::int64_t trainableLayers = 0;
    /// Freeze tuning: the trained layers are cast to fp32 beside the 16-bit frozen ones (LLaMA-Factory
    /// cast_trainable_params_to_fp32), with fp32 gradients and optimizer states.
    bool trainableLayersFp32 = false;
    Checkpointing checkpointing = Checkpointing::Full;
    std::int64_t checkpointEvery = 2; ///< EveryNth: every n-th block is checkpointed
    Attention attention = Attention::Sdpa;
    Loss loss = Loss::Standard;
    bool activationOffload = false;
    bool compile = false; ///< torch.compile: fuses norms, activations and RoPE, saving activation memory
    Float8 float8 = Float8::Off;
    /// FSDP2 all-gathers the float8 linears' weights in float8 (Float8LinearConfig.enable_fsdp_float8_all_gather;
    /// tensorwise scaling only).
    bool float8AllGather = false;
    // Liger kernels (linkedin/Liger-Kernel, apply_liger_kernel_to_*): what each one's autograd function saves.
    bool ligerRmsNorm = false; ///< LigerRMSNormFunction: the 16-bit input and an fp32 rstd per row, no fp32 upcast
    bool ligerGlu = false;     ///< LigerSiLUMulFunction / GeGLU: the gate and up outputs, the activation recomputed
    bool ligerRope = false;    ///< LigerRopeFunction: cos and sin only, as eager RoPE (faster, no memory change)
    /// DeepSpeed TiledMLP (ArcticTraining tiled_mlp_compute): the MLP runs in sequence tiles, saving only its input.
    bool tiledMlp = false;
    Framework framework = Framework::Generic;
    TransformersVersion transformersVersion = TransformersVersion::Current;
    PeftVersion peftVersion = PeftVersion::Current;
    TorchVersion torchVersion = TorchVersion::Current;
    std::int64_t gpus = 1;
    Sharding sharding = Sharding::None;
    ShardingEngine shardingEngine = ShardingEngine::Auto;
    AdapterWrapping adapterWrapping = AdapterWrapping::Auto;
    std::int64_t tensorParallel = 1;
    std::int64_t pipelineParallel = 1;
    std::int64_t expertParallel = 1; ///< MoE: routed experts split over this many GPUs of the data-parallel group
    /// Sequence / context parallel degree: each sequence split over this many GPUs, which also shard model states
    /// with the data-parallel ranks (torchtitan's dp_shard_cp mesh, DeepSpeed's seq_data_parallel_group).
    std::int64_t contextParallel = 1;
    ContextParallel contextParallelKind = ContextParallel::Ring;
    Offload offload = Offload::None;
    std::string gpuId; ///< optional catalog GPU the user has in mind
    /// The card's node, resolved from the catalog with gpuId (placeOnCard), not stored in the scenario file.
    NodeFabric fabric = NodeFabric::Unknown;
    std::int64_t gpusPerNode = 8;
    /// The card's usable memory, resolved with the node (placeOnCard); 0 when no card is named. vLLM sizes its share
    /// of memory from it.
    std::int64_t cardMemoryBytes = 0;
    std::optional<std::int64_t> cudaContextBytes; ///< measured CUDA context size, if known (else a default)
    ProfileOverrides overrides;                   ///< single framework behaviours the user set explicitly
    /// Device-memory correction from a calibration against measured runs (added to the overhead; 0 = none).
    std::int64_t overheadCorrectionBytes = 0;
    /// Measurement results imported for this scenario, kept verbatim (gpusizer-measurement JSON documents).
    std::vector<std::string> measurements;
    /// The length distribution of the user's data (the dataset script's result), when imported: seq_len was set
    /// from it, and its tokens price the run.
    std::optional<DatasetLengths> dataset;
};

/// Freeze tuning: full fine-tuning of only the last trainableLayers decoder layers (fewer than the model has).
inline bool freezesLayers(const Scenario& s) {
    return s.method == Method::Full && s.trainableLayers > 0 && s.trainableLayers < s.model.numLayers;
}

/// An adapter method with an adapter other than LoRA (DoRA, LoRA-FA, VeRA, IA3, LayerNorm tuning).
inline bool otherAdapter(const Scenario& s) {
    return s.method != Method::Full && s.lora.kind != AdapterKind::Lora;
}

/// Paired objectives: DPOTrainer's collator (and ORPO's, CPO's concatenated_forward) puts each example's chosen and
/// rejected sequences in one batch, [prompt+chosen]*B then [prompt+rejected]*B (dpo_trainer.py L174-176 @f2cd5771).
inline bool pairedExamples(const Scenario& s) {
    return s.runKind == RunKind::Dpo || s.runKind == RunKind::Ipo || s.runKind == RunKind::Orpo ||
           s.runKind == RunKind::Simpo;
}

/// DPO, IPO and KTO compare with a reference model; ORPO and SimPO have none (orpo_trainer.py, cpo_trainer.py); GRPO
/// loads one only with a KL term (beta != 0; grpo_config.py L671-677 @f2cd5771).
inline bool usesReferenceModel(const Scenario& s) {
    return s.runKind == RunKind::Dpo || s.runKind == RunKind::Ipo || s.runKind == RunKind::Kto ||
           s.runKind == RunKind::Ppo || (s.runKind == RunKind::Grpo && s.klBeta != 0.0);
}

/// Runs that generate their training sequences as they train: GRPO, and PPO (transformers' generate only: its
/// trainer has no vLLM path, ppo_trainer.py L620-696 @f2cd5771).
inline bool generatesOnline(const Scenario& s) {
    return s.runKind == RunKind::Grpo || s.runKind == RunKind::Ppo;
}

/// Whether the reference's log-probabilities can be computed before training: over a fixed dataset (DPO, IPO, KTO),
/// not over GRPO's completions, which are generated as it trains.
inline bool referenceCanBePrecomputed(const Scenario& s) {
    return usesReferenceModel(s) && !generatesOnline(s);
}

/// The smallest micro-batch the objective runs: KTO takes each example's KL completion from another example of the
/// batch (kto_trainer.py L806 @f2cd5771), the others one example.
inline std::int64_t smallestMicroBatch(const Scenario& s) {
    return s.runKind == RunKind::Kto ? 2 : 1;
}

/// Whether the scenario's model sees images.
inline bool hasImages(const Scenario& s) {
    return s.model.vision.present() && s.imagesPerSample > 0;
}

/// The vision encoder trains: full fine-tuning without freeze_vision_tower. Under adapter methods its weights stay
/// frozen; lora.vision_targets says whether adapters reach it (visionTowerAdapted).
inline bool visionTowerTrains(const Scenario& s) {
    return s.model.vision.present() && s.method == Method::Full && !s.freezeVisionTower && s.trainableLayers == 0;
}

/// An adapter method puts adapters on the vision encoder's linears (lora.vision_targets): the encoder then saves
/// what its backward needs and runs it (input gradients through every block), while its weights stay frozen.
inline bool visionTowerAdapted(const Scenario& s) {
    return s.model.vision.present() && s.method != Method::Full && s.lora.kind != AdapterKind::LnTuning &&
           s.lora.visionTargets != VisionAdapterTargets::None;
}

/// ... and on the projector's: Gemma 3's projection is a bare nn.Parameter (mm_input_projection_weight), which no
/// linear target reaches.
inline bool projectorAdapted(const Scenario& s) {
    return visionTowerAdapted(s) && s.lora.visionTargets == VisionAdapterTargets::EncoderAndProjector &&
           s.model.vision.family != VisionFamily::Gemma3;
}

/// Liger's RMSNorm runs on the q/k norms too: the frameworks that patch the classes before the model is built
/// (Axolotl's plugin, ArcticTraining's AutoLigerKernelForCausalLM) reach every norm; the Trainer's use_liger_kernel
/// patches the built model's layer norms only for Qwen3 and OLMo 2/3 (liger monkey_patch.py @ead96b61 L1711-1719,
/// L2332-2339), so under the hf-trainer profile they stay eager (an upper bound for LLaMA-Factory, which patches before
/// loading, and for Gemma 3 and Qwen3-VL, whose instance patch reaches them).
inline bool ligerReachesQkNorms(const Scenario& s) {
    return s.ligerRmsNorm && s.framework != Framework::HfTrainer;
}

/// A frozen encoder still records its autograd graph: since transformers 5 (PR #41993), gradient_checkpointing_enable
/// (and PEFT with checkpointing) hooks get_input_embeddings() of every PreTrainedModel inside the model, so the vision
/// model's patch embedding output requires grad (modeling_utils.py L2217-2250, L3219-3227 @251c2d4f) and its blocks
/// keep what backward needs and run it. The vision models it reaches: Llama-3.2-Vision's (modeling_mllama.py L854),
/// SigLIP's and CLIP's, which Gemma 3 and LLaVA build with AutoModel (_input_embed_layer "patch_embedding",
/// modeling_siglip.py L558, modeling_clip.py L903), Qwen2-VL's and Qwen2.5-VL's ("patch_embed", modeling_qwen2_vl.py
/// L653, modeling_qwen2_5_vl.py L348); Qwen3-VL's names none that the fallback finds (modeling_utils.py L1082-1119
/// raises NotImplementedError, which the hook loop skips).
inline bool frozenTowerRecordsGraph(const Scenario& s) {
    const VisionShape& v = s.model.vision;
    const bool qwen3Vl = v.family == VisionFamily::QwenVl && v.positionEmbeddings > 0;
    const bool hooked = v.present() && !qwen3Vl;
    const bool checkpointed = s.checkpointing == Checkpointing::Full || s.checkpointing == Checkpointing::Auto;
    return hooked && checkpointed && s.transformersVersion == TransformersVersion::Current;
}

/// The projector trains: full fine-tuning without freeze_multi_modal_projector.
inline bool projectorTrains(const Scenario& s) {
    return s.model.vision.present() && s.method == Method::Full && !s.freezeProjector && s.trainableLayers == 0;
}

/// Sequences one example puts through the trained forward pass: a preference pair two.
inline double sequencesPerExample(const Scenario& s) {
    return pairedExamples(s) ? 2.0 : 1.0;
}

/// Sequences one micro-batch puts through the trained forward pass on a GPU.
inline double sequencesPerMicroBatch(const Scenario& s) {
    return static_cast<double>(s.microBatch) * sequencesPerExample(s);
}

/// GRPO: completions one GPU generates per optimizer step. TRL's generation batch is per_device_train_batch_size x
/// steps_per_generation, which defaults to the gradient accumulation steps (grpo_config.py L1077-1079 @f2cd5771).
inline double generatedSequencesPerGpu(const Scenario& s) {
    return static_cast<double>(s.microBatch * s.gradientAccumulation);
}

/// GRPO's vLLM server GPUs: `trl vllm-serve` runs on cards of its own beside the trainer's, rented with them.
inline std::int64_t serverGpus(const Scenario& s) {
    return s.runKind == RunKind::Grpo && s.generation == Generation::VllmServer ? s.vllmGpus : 0;
}

/// Every GPU the run rents: the training GPUs and a vLLM server's.
inline std::int64_t rentedGpus(const Scenario& s) {
    return s.gpus + serverGpus(s);
}

/// Key and value bytes one token keeps in a generation's cache: 2 x layers x key/value heads x head dim in 16 bit
/// (vLLM kv_cache_interface.py page size per block / block_size; transformers' DynamicCache alike).
inline double kvCacheBytesPerToken(const ModelArch& a) {
    const double kv = static_cast<double>(a.numKvHeads > 0 ? a.numKvHeads : a.numHeads);
    return 2.0 * static_cast<double>(a.numLayers) * kv * static_cast<double>(a.effectiveHeadDim()) * 2.0;
}

/// Forward passes without gradient per trained sequence: the reference's for DPO and IPO; KTO's KL completions
/// through the policy, and the reference over both (kto_trainer.py L1478-1545 @f2cd5771). Precomputed log-probabilities
/// run the same passes once before training: for one epoch the same count.
inline double gradientFreeForwards(const Scenario& s) {
    switch (s.runKind) {
    case RunKind::Dpo:
    case RunKind::Ipo:
        return 1.0;
    case RunKind::Kto:
        return 3.0;
    case RunKind::Ppo:
        // Each rollout is scored by the reference policy, the value model and the reward model without gradients
        // (ppo_trainer.py L698-743 @f2cd5771).
        return 3.0;
    case RunKind::Grpo:
        // The reference with a KL term; with vLLM, the policy's own log-probs of the generated batch
        // (vllm_importance_sampling_correction, on by default: grpo_trainer.py L2553-2576).
        return (s.klBeta != 0.0 ? 1.0 : 0.0) + (s.generation != Generation::Transformers ? 1.0 : 0.0);
    case RunKind::Sft:
    case RunKind::Orpo:
    case RunKind::Simpo:
        break;
    }
    return 0.0;
}

/// Of those, the reference model's passes (the policy with its adapters disabled under PEFT): one each for DPO and
/// IPO, two for KTO (its examples and KL completions), one for GRPO with a KL term.
inline double referenceForwards(const Scenario& s) {
    if (!usesReferenceModel(s)) {
        return 0.0;
    }
    return s.runKind == RunKind::Kto ? 2.0 : 1.0;
}

/// Tokens of one micro-batch on one GPU: context parallelism gives each rank 1/cp of every sequence.
inline double tokensPerGpu(const Scenario& s) {
    return sequencesPerMicroBatch(s) * static_cast<double>(s.seqLen) /
           static_cast<double>(std::max<std::int64_t>(1, s.contextParallel));
}

/// Key/value heads a tensor-parallel rank's attention core works with under Ulysses over `cp` ranks: its own, or, when
/// it has fewer than cp, one replicated to each rank (DeepSpeed runtime/sequence_parallel/ulysses_sp.py @edaa7221
/// L131-135, L181-184) — cp in the units of heads per local token.
inline double ulyssesKvHeadsPerTpRank(const ModelArch& m, std::int64_t tp, std::int64_t cp) {
    const std::int64_t kvHeads = m.numKvHeads > 0 ? m.numKvHeads : m.numHeads;
    return std::max({1.0, static_cast<double>(kvHeads) / static_cast<double>(tp), static_cast<double>(cp)});
}

/// Whether Ulysses can split this model's heads over `cp` ranks at tensor-parallel degree `tp`: the attention heads of
/// a tensor-parallel rank must divide by cp, and its key/value heads divide cp or be divided by it (fewer are
/// replicated; DeepSpeed runtime/sequence_parallel/ulysses_sp.py @edaa7221 L145-150).
inline bool ulyssesSplitsHeads(const ModelArch& m, std::int64_t tp, std::int64_t cp) {
    const std::int64_t kvHeads = m.numKvHeads > 0 ? m.numKvHeads : m.numHeads;
    const std::int64_t heads = m.numHeads / tp;
    const std::int64_t kv = std::max<std::int64_t>(1, kvHeads / tp);
    return heads % cp == 0 && (kv % cp == 0 || cp % kv == 0);
}

// Names as used in scenario JSON and on the command line; parse returns nullopt for unknown text.
const char* toString(Method v);
const char* toString(Precision v);
const char* toString(Optimizer v);
const char* toString(Checkpointing v);
const char* toString(Attention v);
const char* toString(Loss v);
const char* toString(Sharding v);
const char* toString(Offload v);
const char* toString(Quantization v);
const char* toString(Framework v);
const char* toString(AdapterDtype v);
const char* toString(VisionAdapterTargets v);
const char* toString(AdapterKind v);
const char* toString(Float8 v);
const char* toString(ContextParallel v);
const char* toString(OptimizerStepKind v);
const char* toString(ShardingEngine v);
const char* toString(AdapterWrapping v);
const char* toString(TransformersVersion v);
const char* toString(PeftVersion v);
const char* toString(TorchVersion v);
const char* toString(RunKind v);
const char* toString(ReferenceLogProbs v);
const char* toString(Generation v);
const char* toString(SelectivePolicy v);

/// Bytes per parameter of the trained weights as the run keeps them: 4 for fp32 and the recipes with fp32 master
/// weights (AMP, FSDP mixed precision), else 2.
inline double weightBytesPerParam(Precision p) {
    return (p == Precision::Fp32 || p == Precision::AmpBf16 || p == Precision::AmpFp16 || p == Precision::FsdpMixedBf16)
               ? 4.0
               : 2.0;
}

template <class E>
std::optional<E> parseEnum(std::string_view text);

/// Every value of an enumeration, in declaration order (for pickers and error messages).
template <class E>
const std::vector<E>& allValues();

/// Parses a Hugging Face module name (q_proj, query, c_attn, w1, ...) into the roles it covers.
std::vector<LinearRole> loraTargetsFromModuleName(std::string_view name);

} // namespace gpusizer::core
