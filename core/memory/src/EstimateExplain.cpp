#include "EstimatorParts.h"
#include "gpusizer/scenario/Labels.h"
#include "gpusizer/scenario/Units.h"
#include "gpusizer/scenario/Vision.h"

#include <cmath>
#include <iomanip>
#include <optional>
#include <sstream>

namespace gpusizer::core::detail {

namespace {

/// `precision` significant digits, never in scientific notation: %g's exponent (999.6 -> "1e+03", 3e-05) is written
/// out in fixed notation instead ("1000", "0.00003").
std::string number(double v, int precision = 3) {
    std::ostringstream os;
    os.precision(precision);
    os << v;
    std::string out = os.str();
    if (out.find('e') == std::string::npos) {
        return out;
    }
    std::ostringstream fixed;
    const double magnitude = std::abs(v) > 0 ? std::floor(std::log10(std::abs(v))) : 0.0;
    fixed << std::fixed << std::setprecision(static_cast<int>(std::max(0.0, precision - 1 - magnitude))) << v;
    return fixed.str();
}

/// The objective as its papers and TRL write it.
const char* runKindName(RunKind k) {
    switch (k) {
    case RunKind::Sft:
        return "SFT";
    case RunKind::Dpo:
        return "DPO";
    case RunKind::Ipo:
        return "IPO";
    case RunKind::Orpo:
        return "ORPO";
    case RunKind::Simpo:
        return "SimPO";
    case RunKind::Kto:
        return "KTO";
    case RunKind::Grpo:
        return "GRPO";
    case RunKind::Ppo:
        return "PPO";
    }
    return "?";
}

/// GRPO's generation: what it holds and, in colocate mode, the shares of the card vLLM can take.
/// PPO's models and what TRL's PPOTrainer does not do (trl/experimental/ppo/ppo_trainer.py @f2cd5771).
void addPpoWarnings(Estimate& e, const Scenario& s) {
    auto warn = [&](std::string code, Words words) { e.warnings.push_back({std::move(code), std::move(words)}); };
    auto gib = [](std::int64_t bytes) { return verbatim(number(static_cast<double>(bytes) / kGiB, 3)); };
    warn("ppo_models",
         words(QT_TRANSLATE_NOOP("gpusizer", "PPO trains a value model in full beside the policy, even under LoRA "
                                             "(PolicyAndValueWrapper): %1 GiB per GPU with its gradients, optimizer "
                                             "states and activations; the frozen reward model adds %2 GiB. Both are "
                                             "sized as the policy's backbone with a one-output head; generate()'s "
                                             "fp32 scores of the rollout stay alive through training: %3 GiB."),
               gib(e.valueModelBytes), gib(e.rewardModelBytes), gib(e.generationScoresBytes)));
    if (s.checkpointing != Checkpointing::None) {
        warn("ppo_no_checkpointing",
             QT_TRANSLATE_NOOP("gpusizer", "TRL's PPOTrainer never enables gradient checkpointing on its models "
                                           "(ppo_trainer.py L283-285, L382-384): a run with the trainer as it is "
                                           "is sized with gradient_checkpointing none."));
    }
}

void addGenerationWarnings(Estimate& e, const Scenario& s) {
    auto warn = [&](std::string code, Words words) { e.warnings.push_back({std::move(code), std::move(words)}); };
    auto gib = [](std::int64_t bytes) { return verbatim(number(static_cast<double>(bytes) / kGiB, 3)); };
    auto percent = [](double share) { return verbatim(number(share * 100.0, 3) + "%"); };
    switch (s.generation) {
    case Generation::Transformers:
        warn("generation_kv_cache",
             words(QT_TRANSLATE_NOOP("gpusizer", "transformers' generate keeps the KV cache of this GPU's whole "
                                                 "generation batch (micro_batch x gradient_accumulation completions of "
                                                 "seq_len): %1 GiB; under ZeRO-3 it also gathers every weight."),
                   gib(e.generationKvCacheBytes)));
        break;
    case Generation::VllmColocate:
        if (s.cardMemoryBytes <= 0) {
            warn("vllm_share_needs_card",
                 words(QT_TRANSLATE_NOOP("gpusizer", "vLLM's share is a fraction of the card's memory: choose a GPU to "
                                                     "size it. Sized at what it needs at least: %1 GiB (its 16-bit "
                                                     "weights and this GPU's KV cache)."),
                       gib(e.vllmShareBytes)));
            break;
        }
        if (s.vllmMemoryUtilization < e.vllmSmallestShare) {
            warn("vllm_share_too_small",
                 words(QT_TRANSLATE_NOOP("gpusizer", "A share of %1 cannot hold vLLM's weights and KV cache: raise "
                                                     "vllm_gpu_memory_utilization to at least %2 (sized at that)."),
                       percent(s.vllmMemoryUtilization), percent(e.vllmSmallestShare)));
        }
        warn("vllm_share",
             words(QT_TRANSLATE_NOOP("gpusizer", "vLLM takes %1 of each GPU (%2 GiB). It needs at least %3 for its "
                                                 "16-bit weights (%4 GiB) and this GPU's KV cache (%5 GiB), before its "
                                                 "activations and CUDA graphs; the trainer leaves it at most %6."),
                   percent(s.vllmMemoryUtilization), gib(e.vllmShareBytes), percent(e.vllmSmallestShare),
                   gib(e.vllmWeightsBytes), gib(e.generationKvCacheBytes), percent(e.vllmLargestShare)));
        break;
    case Generation::VllmServer:
        warn("vllm_server",
             words(QT_TRANSLATE_NOOP("gpusizer", "The vLLM server's %1 GPU(s) need %2 GiB each for the weights and "
                                                 "every rank's KV cache; trl vllm-serve takes 90% of each card by "
                                                 "default. They are not in the training GPUs' figures."),
                   verbatim(std::to_string(s.vllmGpus)), gib(e.vllmServerGpuBytes)));
        break;
    }
}

/// The model, its precision as loaded, the run kind and its side models.
void addModelAndRunKindWarnings(Estimate& e, const Scenario& s) {
    auto warn = [&](std::string code, Words words) { e.warnings.push_back({std::move(code), std::move(words)}); };
    const auto& arch = s.model;
    if (arch.sizeDerived) {
        warn(
            "size_derived_model",
            QT_TRANSLATE_NOOP("gpusizer", "The architecture was derived from the parameter count alone; expect ±25%."));
    }
    if ((s.framework == Framework::Generic || s.framework == Framework::HfTrainer) &&
        s.transformersVersion != TransformersVersion::Current &&
        (s.precision == Precision::Bf16 || s.precision == Precision::Fp16)) {
        // from_pretrained's default dtype became "auto" only in 5.0 (transformers#42805); before, weights load in
        // fp32 unless the script passes a dtype, and bf16=True / fp16=True then run autocast over them: AMP.
        warn("transformers4_loads_fp32",
             words(QT_TRANSLATE_NOOP("gpusizer", "transformers before 5.0 loads the weights in fp32 unless the script "
                                                 "passes a 16-bit torch_dtype; under the Trainer's mixed precision "
                                                 "that run is %1: choose that precision to size it."),
                   label(s.precision == Precision::Bf16 ? Precision::AmpBf16 : Precision::AmpFp16)));
    }
    if (pairedExamples(s)) {
        warn("paired_sequences",
             words(QT_TRANSLATE_NOOP("gpusizer", "%1 puts each example's chosen and rejected sequences through the "
                                                 "model together: activations and logits are sized for %2 sequences "
                                                 "of seq_len per GPU (prompt + completion, padded to the longer)."),
                   verbatim(runKindName(s.runKind)), verbatim(std::to_string(s.microBatch * 2))));
    }
    if (s.runKind == RunKind::Grpo) {
        addGenerationWarnings(e, s);
    }
    if (s.runKind == RunKind::Ppo) {
        addPpoWarnings(e, s);
    }
    if (s.imagesPerSample > 0 && !s.model.vision.present()) {
        warn(
            "images_without_encoder",
            words(QT_TRANSLATE_NOOP("gpusizer", "images_per_sample %1 is ignored: the model has no vision encoder this "
                                                "tool models (Qwen-VL, Gemma 3, LLaVA-1.5)."),
                  std::to_string(s.imagesPerSample)));
    }
    if (e.referenceModelBytes > 0) {
        // What avoids the copy: GRPO's KL term is 0 by default; the others' log-probs can be computed beforehand.
        const char* text =
            profileFor(s).referenceCopyWithAdapters && s.method == Method::Full
                ? QT_TRANSLATE_NOOP("gpusizer", "The reference model is a second frozen copy of the model: %1 GiB per "
                                                "GPU in the weights. This framework loads it under LoRA too "
                                                "(reference_copy_with_adapters).")
            : profileFor(s).referenceCopyWithAdapters
                ? QT_TRANSLATE_NOOP("gpusizer", "The reference model is loaded apart from the adapters' policy, as "
                                                "the framework does (reference_copy_with_adapters): a frozen copy of "
                                                "the base model, %1 GiB per GPU in the weights.")
            : s.runKind == RunKind::Ppo
                ? QT_TRANSLATE_NOOP("gpusizer", "PPO's reference policy is a second frozen copy of the model: %1 GiB "
                                                "per GPU in the weights. Under LoRA the policy with its adapter "
                                                "disabled is the reference: no copy.")
            : s.runKind == RunKind::Grpo
                ? QT_TRANSLATE_NOOP("gpusizer", "The reference model (kl_beta above 0) is a second frozen copy of the "
                                                "model: %1 GiB per GPU in the weights. LoRA, or kl_beta 0 (TRL's "
                                                "default), needs no copy.")
                : QT_TRANSLATE_NOOP("gpusizer", "The reference model is a second frozen copy of the model: %1 GiB per "
                                                "GPU in the weights. TRL 0.29 and later reload it from the model's "
                                                "path in fp32 unless model_init_kwargs sets a dtype; precomputed "
                                                "reference log-probs or LoRA need no copy.");
        warn("reference_copy", words(text, verbatim(number(static_cast<double>(e.referenceModelBytes) / kGiB, 3))));
    }
}

/// What the settings imply that the figures cannot show: the sequence length to enter, merges, kernels, layouts.
void addSettingWarnings(Estimate& e, const Scenario& s) {
    auto warn = [&](std::string code, Words words) { e.warnings.push_back({std::move(code), std::move(words)}); };
    const auto& arch = s.model;
    warn("longest_sequence",
         QT_TRANSLATE_NOOP("gpusizer", "Activations and logits are sized for the sequence length set: use your "
                                       "longest sequence (or packing length), not the average."));
    if (s.method == Method::Qlora) {
        warn(
            "qlora_merge",
            QT_TRANSLATE_NOOP("gpusizer", "Merge a QLoRA adapter into the 16-bit base model, not into the 4-bit one."));
    }
    if (s.attention == Attention::Eager && s.seqLen >= 4096) {
        warn("eager_long_sequence",
             QT_TRANSLATE_NOOP("gpusizer",
                               "Eager attention stores seq_len² scores per head: use SDPA or FlashAttention."));
    }
    if (arch.attentionLogitSoftcap > 0 && s.attention == Attention::Sdpa) {
        warn("softcap_needs_eager",
             QT_TRANSLATE_NOOP("gpusizer", "This model soft-caps attention logits; SDPA ignores the cap "
                                           "(transformers recommends eager attention, or flash-attention >= "
                                           "2.6)."));
    }
    if (s.optimizer == Optimizer::PagedAdamW || s.optimizer == Optimizer::PagedAdamW8bit) {
        warn("paged_optimizer",
             QT_TRANSLATE_NOOP("gpusizer", "Paged optimizer states live in CUDA managed memory: nvidia-smi shows "
                                           "them, torch.cuda.max_memory_allocated does not."));
    }
    if (s.optimizerInBackward && s.gradientAccumulation > 1) {
        warn("optimizer_in_backward_accumulation",
             QT_TRANSLATE_NOOP("gpusizer", "Optimizer-in-backward cannot accumulate gradients; "
                                           "gradient_accumulation is ignored by most "
                                           "frameworks."));
    }
    if (e.dataParallel > 1 && s.sharding == Sharding::None) {
        // Per-GPU memory rises from 1 to N GPUs here, which surprises: say why and what divides it.
        warn("replicated_model_states",
             words(QT_TRANSLATE_NOOP("gpusizer", "With %1 data-parallel GPUs and no sharding every GPU holds the whole "
                                                 "model, its gradients and optimizer states, plus DDP's gradient "
                                                 "buckets and NCCL's buffers: per-GPU memory is higher than on one "
                                                 "GPU. ZeRO/FSDP sharding divides the model states."),
                   std::to_string(e.dataParallel)));
    }
    if (s.tensorParallel > 1 || s.pipelineParallel > 1) {
        warn("even_split",
             QT_TRANSLATE_NOOP(
                 "gpusizer", "Tensor/pipeline parallel assume an even split of parameters and sequence parallelism."));
    }
    if (s.offload != Offload::None && e.profile.engine == ShardingEngine::Fsdp1 && s.method == Method::Full) {
        warn("fsdp1_offload_gradients",
             QT_TRANSLATE_NOOP("gpusizer", "FSDP1 with CPU offload keeps each unit's sharded gradient on "
                                           "the GPU until backward ends (pytorch#106029); counted here."));
    }
}

void addWarnings(Estimate& e, const Scenario& s) {
    addModelAndRunKindWarnings(e, s);
    addSettingWarnings(e, s);
}

Words profileAssumption(const Scenario& s, const FrameworkProfile& prof) {
    return words(QT_TRANSLATE_NOOP("gpusizer",
                                   "Framework profile %1: loss %2, adapters %3, optimizer step %4, selective "
                                   "checkpointing %5."),
                 label(s.framework),
                 prof.lossUpcastsLogits ? Words(QT_TRANSLATE_NOOP("gpusizer", "upcasts logits to fp32"))
                                        : Words(QT_TRANSLATE_NOOP("gpusizer", "stays in the compute dtype")),
                 prof.adaptersInFp32 ? Words(QT_TRANSLATE_NOOP("gpusizer", "fp32"))
                                     : Words(QT_TRANSLATE_NOOP("gpusizer", "in the model dtype")),
                 label(prof.optimizerStep), label(prof.selectivePolicy));
}

Words shardingAssumption(const Scenario& s, const FrameworkProfile& prof, int stage) {
    if (prof.engine == ShardingEngine::Fsdp1 && s.method != Method::Full) {
        return words(prof.adaptersWrappedSeparately
                         ? QT_TRANSLATE_NOOP(
                               "gpusizer", "Sharding engine %1, ZeRO stage %2 in effect; adapters wrapped in their own "
                                           "FSDP units.")
                         : QT_TRANSLATE_NOOP("gpusizer",
                                             "Sharding engine %1, ZeRO stage %2 in effect; adapters share each block's "
                                             "flat parameter."),
                     label(prof.engine), std::to_string(stage));
    }
    if (s.framework == Framework::Colossalai && prof.engine == ShardingEngine::Deepspeed) {
        return words(QT_TRANSLATE_NOOP("gpusizer",
                                       "Sharding by ColossalAI's LowLevelZero, ZeRO stage %1 in effect, with "
                                       "the layout of DeepSpeed's ZeRO-1/2 and its own buckets."),
                     std::to_string(stage));
    }
    if (prof.engine == ShardingEngine::Gemini) {
        return words(
            s.offload == Offload::None
                ? QT_TRANSLATE_NOOP("gpusizer", "Sharding by ColossalAI's Gemini, static placement: 16-bit parameter "
                                                "chunks whose shards also hold the gradients, an fp32 master and Adam "
                                                "states, each divided over %1 GPUs; two chunks gathered at a time.")
            : s.offload == Offload::Optimizer
                ? QT_TRANSLATE_NOOP("gpusizer",
                                    "Sharding by ColossalAI's Gemini with its auto placement (ColossalChat's "
                                    "gemini_auto): the fp32 master and Adam states on the host, the 16-bit "
                                    "chunk shards on the %1 GPUs, and what must fit is sized as with the "
                                    "static placement's offload_optim_frac 1.0.")
                : QT_TRANSLATE_NOOP("gpusizer", "Sharding by ColossalAI's Gemini, static placement with "
                                                "offload_optim_frac and offload_param_frac 1.0: only the gathered "
                                                "chunks on each of the %1 GPUs."),
            std::to_string(static_cast<std::int64_t>(s.gpus)));
    }
    return words(QT_TRANSLATE_NOOP("gpusizer", "Sharding engine %1, ZeRO stage %2 in effect."), label(prof.engine),
                 std::to_string(stage));
}

Words runtimeAssumption(const Scenario& s, const ExplainInputs& why) {
    const std::int64_t context = s.cudaContextBytes.value_or(512LL << 20);
    const std::string mib = std::to_string(context >> 20);
    if (why.cachedPool > 0) {
        return words(s.cudaContextBytes
                         ? QT_TRANSLATE_NOOP("gpusizer", "CUDA context %1 MiB (given); allocator reserve 5% of the "
                                                         "allocated peak + %2 GiB of gathered-parameter blocks cached "
                                                         "by the unshard stream.")
                         : QT_TRANSLATE_NOOP("gpusizer",
                                             "CUDA context %1 MiB (default, lazy module loading); allocator "
                                             "reserve 5% of the allocated peak + %2 GiB of "
                                             "gathered-parameter blocks cached by the unshard stream."),
                     mib, number(why.cachedPool / kGiB));
    }
    return words(s.cudaContextBytes
                     ? QT_TRANSLATE_NOOP("gpusizer", "CUDA context %1 MiB (given); allocator reserve 5% of the "
                                                     "allocated peak.")
                     : QT_TRANSLATE_NOOP("gpusizer", "CUDA context %1 MiB (default, lazy module loading); allocator "
                                                     "reserve 5% of the allocated peak."),
                 mib);
}

/// What the adapter kind changes, in the terms of the estimate (docs/memory-model.md §4).
Words adapterKindAssumption(const Scenario& s, const Estimate& e) {
    switch (s.lora.kind) {
    case AdapterKind::Dora:
        return words(QT_TRANSLATE_NOOP("gpusizer",
                                       "DoRA: a trainable magnitude per output row; each adapted module keeps its "
                                       "base and LoRA outputs for backward, and its forward forms B·A and W + s·B·A "
                                       "(%1 GiB for the largest layer, freed before the next)."),
                     number(static_cast<double>(e.doraWeightTemporaryBytes) / kGiB, 2));
    case AdapterKind::LoraFa:
        return words(QT_TRANSLATE_NOOP("gpusizer", "LoRA-FA: lora_A frozen (no gradient or optimizer state, its "
                                                   "input not saved); only lora_B trains."));
    case AdapterKind::Vera:
        return words(QT_TRANSLATE_NOOP("gpusizer", "VeRA: one shared frozen pair of random matrices (fp32, rank %1); "
                                                   "two trainable scaling vectors per adapted module."),
                     std::to_string(s.lora.rank));
    case AdapterKind::Ia3:
        return words(QT_TRANSLATE_NOOP("gpusizer", "IA3: one trainable scaling vector per adapted module (down_proj "
                                                   "scales its input, the others their output); the rank is unused."));
    case AdapterKind::LnTuning:
        return words(QT_TRANSLATE_NOOP("gpusizer", "LayerNorm tuning: trainable copies of every norm; the norms keep "
                                                   "their normalised output for the weight's gradient; no adapters on "
                                                   "linears."));
    case AdapterKind::Lora:
        break;
    }
    return {};
}

/// NCCL's buffers, with the path they were sized for.
Words ncclAssumption(const Estimate& e, const Scenario& s, const ExplainInputs& why) {
    const std::string mib = std::to_string(e.ncclBufferBytes >> 20);
    if (s.fabric == NodeFabric::NotNccl) {
        return words(QT_TRANSLATE_NOOP("gpusizer", "Communication buffers %1 MiB per GPU, sized as NCCL's over "
                                                   "NVLink (this card's collectives library is not NCCL)."),
                     mib);
    }
    if (s.fabric == NodeFabric::Unknown) {
        return words(QT_TRANSLATE_NOOP("gpusizer", "NCCL buffers %1 MiB per GPU (no card named: 24 channels as over "
                                                   "NVLink; NVSwitch nodes of H100, H200 and B200 add NVLink "
                                                   "SHARP's, PCIe-only nodes need less)."),
                     mib);
    }
    if (why.nccl.overPcie) {
        return words(QT_TRANSLATE_NOOP("gpusizer", "NCCL buffers %1 MiB per GPU (2 channels over PCIe)."), mib);
    }
    if (why.nccl.sharpHeads > 0) {
        return words(QT_TRANSLATE_NOOP("gpusizer", "NCCL buffers %1 MiB per GPU (24 channels over NVLink and NVLink "
                                                   "SHARP's buffers on the NVSwitch node)."),
                     mib);
    }
    return words(QT_TRANSLATE_NOOP("gpusizer", "NCCL buffers %1 MiB per GPU (24 channels over NVLink)."), mib);
}

/// The reserve PyTorch's allocator keeps on a card with room, beside the one the fit uses.
Words reserveWithRoomAssumption(const Estimate& e) {
    return words(QT_TRANSLATE_NOOP("gpusizer",
                                   "On a card with room the caching allocator keeps up to %1 GiB reserved "
                                   "(PyTorch's allocator replayed over two steps of this run); the fit uses %2 "
                                   "GiB: on a smaller card the allocator frees its cached segments and retries, "
                                   "which slows the steps where it does."),
                 number(static_cast<double>(e.reservedWithRoomBytes) / kGiB),
                 number(static_cast<double>(e.reservedPeakBytes) / kGiB));
}

/// A vision-language model: what its images become and what the encoder keeps (docs/memory-model.md §10).
Words imagesAssumption(const Estimate& e, const Scenario& s) {
    const char* encoder =
        visionTowerTrains(s) ? QT_TRANSLATE_NOOP("gpusizer", "the encoder trains and saves %1 GiB for backward")
        : projectorAdapted(s)
            ? QT_TRANSLATE_NOOP("gpusizer", "the encoder and projector carry adapters and save %1 GiB for backward")
        : visionTowerAdapted(s)
            ? QT_TRANSLATE_NOOP("gpusizer", "the encoder carries adapters and saves %1 GiB for backward (with the "
                                            "frozen projector's)")
        : frozenTowerRecordsGraph(s) && !towerCheckpointable(s.model.vision)
            ? QT_TRANSLATE_NOOP("gpusizer", "the frozen encoder still records its graph (transformers 5 makes its "
                                            "patch embedding's output require grad under checkpointing, and its "
                                            "layers are not checkpointed) and saves %1 GiB for backward")
        : frozenTowerRecordsGraph(s)
            ? QT_TRANSLATE_NOOP("gpusizer", "the frozen encoder still records its graph (transformers 5 makes its "
                                            "patch embedding's output require grad under checkpointing): its "
                                            "checkpointed blocks save their inputs, %1 GiB for backward, and run "
                                            "backward")
        : projectorTrains(s) ? QT_TRANSLATE_NOOP("gpusizer", "the encoder is frozen (it keeps nothing for backward); "
                                                             "the projector trains and saves %1 GiB")
                             : QT_TRANSLATE_NOOP("gpusizer", "the encoder and projector are frozen and keep nothing "
                                                             "for backward (%1 GiB)");
    if (s.model.vision.family == VisionFamily::Mllama) {
        const ImageTokens image = scenarioImage(s);
        return words(
            QT_TRANSLATE_NOOP("gpusizer", "Images: %1 per example, each one <|image|> token of seq_len, fitted "
                                          "by Llama-3.2-Vision's processor to a %3 px canvas of %2 tiles "
                                          "(padded to %4: the encoder runs over %5 patches), read by the language "
                                          "model's %6 cross-attention layers as %7 tokens, whose tensors over "
                                          "them keep %8 GiB for backward; %9."),
            std::to_string(s.imagesPerSample), std::to_string(image.tiles),
            verbatim(std::to_string(e.imageWidth) + " x " + std::to_string(e.imageHeight)),
            std::to_string(s.model.vision.maxTiles), std::to_string(e.imageEncoderTokens),
            std::to_string(s.model.vision.crossAttentionLayers), std::to_string(image.crossTokens),
            number(static_cast<double>(e.crossAttentionBytes) / kGiB, 2),
            words(encoder, number(static_cast<double>(e.visionActivationBytes - e.crossAttentionBytes) / kGiB, 2)));
    }
    return words(QT_TRANSLATE_NOOP("gpusizer", "Images: %1 per example, resized by %2's processor to %3 px, %4 "
                                               "language-model tokens each (part of seq_len) over %5 encoder "
                                               "patches; %6."),
                 std::to_string(s.imagesPerSample), verbatim(visionFamilyName(s.model.vision.family)),
                 verbatim(std::to_string(e.imageWidth) + " x " + std::to_string(e.imageHeight)),
                 std::to_string(e.imageLanguageTokens), std::to_string(e.imageEncoderTokens),
                 words(encoder, number(static_cast<double>(e.visionActivationBytes) / kGiB, 2)));
}

/// What the loss keeps per logit element and why, where the run's loss is one the estimate reads from its framework.
std::optional<Words> lossAssumption(const Estimate& e, const Scenario& s, const FrameworkProfile& prof) {
    if (prof.logprobsInPlace && s.runKind == RunKind::Grpo && s.loss == Loss::Standard) {
        return words(QT_TRANSLATE_NOOP("gpusizer", "Loss: per-token log-probabilities from a fused cross-entropy that "
                                                   "writes its gradient over the 16-bit logits, %1 B per logit "
                                                   "element over every token of the micro-batch (verl's "
                                                   "logprobs_from_logits_flash_attn)."),
                     number(e.logitsBytesPerElement));
    }
    if (prof.logprobsFromFp32Logits && s.loss == Loss::Standard) {
        return words(QT_TRANSLATE_NOOP("gpusizer", "Loss: per-token log-probabilities of the whole output upcast to "
                                                   "fp32, through flash-attn's cross-entropy, %1 B per logit element "
                                                   "over every token of the micro-batch at its backward (OpenRLHF's "
                                                   "Actor.forward)."),
                     number(e.logitsBytesPerElement));
    }
    if (s.runKind != RunKind::Sft && s.loss == Loss::Standard && e.logitsBytesPerElement > 0) {
        // TRL calls the model without labels and takes per-token log-probs of the outputs accelerate converts to fp32
        // (selective_log_softmax, trainer/utils.py L479-523 @f2cd5771): about the causal-LM loss's 12 B at its peak.
        return words(QT_TRANSLATE_NOOP("gpusizer", "Loss: %1's per-token log-probabilities over the fp32 logits, %2 B "
                                                   "per logit element (tokens x vocabulary: %3) at its peak."),
                     verbatim(runKindName(s.runKind)), number(e.logitsBytesPerElement),
                     pairedExamples(s)            ? Words(QT_TRANSLATE_NOOP("gpusizer", "both sequences of a pair"))
                     : s.runKind == RunKind::Grpo ? Words(QT_TRANSLATE_NOOP("gpusizer", "the completion's tokens only"))
                                                  : Words(QT_TRANSLATE_NOOP("gpusizer", "every token")));
    }
    if (s.loss == Loss::Standard && prof.lossUpcastsLogits && prof.lossFromTransformersModel &&
        e.logitsBytesPerElement > 0) {
        return words(QT_TRANSLATE_NOOP("gpusizer", "Loss: the model's own causal-LM loss of transformers %1, %2 B "
                                                   "per logit element (tokens x vocabulary) at its peak."),
                     lossPadsLabels(s.transformersVersion) ? Words(QT_TRANSLATE_NOOP("gpusizer", "4.49 or later"))
                     : s.transformersVersion == TransformersVersion::V446To448
                         ? Words(QT_TRANSLATE_NOOP("gpusizer", "4.46 to 4.48"))
                         : Words(QT_TRANSLATE_NOOP("gpusizer", "4.45 or older")),
                     number(e.logitsBytesPerElement));
    }
    return std::nullopt;
}

/// The expected range and what it rests on; a warning where the measured spread is wider than the range shown.
void explainBand(Estimate& e, const Scenario& s) {
    const BandClass kind = bandClassOf(s);
    const int rows = bandEntryOf(kind).rows;
    e.assumptions.push_back(words(
        QT_TRANSLATE_NOOP("gpusizer", "Expected range: -%1% / +%2%, spanning measured / estimated over the %3 "
                                      "published runs behind this kind of run (%4, %5, %6; docs/accuracy.md, \"The "
                                      "band\"), at least the 5% run-to-run noise."),
        number(e.bandDownShare * 100.0, 2), number(e.bandUpShare * 100.0, 2), std::to_string(rows),
        kind.frameworkNamed ? Words(QT_TRANSLATE_NOOP("gpusizer", "framework named"))
                            : Words(QT_TRANSLATE_NOOP("gpusizer", "no framework named")),
        verbatim(toString(kind.method)),
        kind.multiGpu ? Words(QT_TRANSLATE_NOOP("gpusizer", "several data-parallel GPUs"))
                      : Words(QT_TRANSLATE_NOOP("gpusizer", "one data-parallel GPU"))));
    if (e.bandEvidenceDownShare > 0 || e.bandEvidenceUpShare > 0) {
        // The measured spread is wider than a range can honestly be: say so, and what narrows it.
        e.warnings.push_back(
            {"band_evidence_thin",
             words(s.framework == Framework::Generic
                       ? QT_TRANSLATE_NOOP("gpusizer",
                                           "Measured runs of this kind without a named framework fell between -%1% "
                                           "and +%2% of their estimates: the range shown stops at 40%. Name the "
                                           "framework, or measure a first step (docs/verify.md).")
                       : QT_TRANSLATE_NOOP("gpusizer", "Measured runs of this kind fell between -%1% and +%2% of their "
                                                       "estimates: the range shown stops at 40%. Measure a first step "
                                                       "(docs/verify.md)."),
                   number(e.bandEvidenceDownShare * 100.0, 2), number(e.bandEvidenceUpShare * 100.0, 2))});
    }
}

} // namespace

void explain(Estimate& e, const Scenario& s, const ExplainInputs& why) {
    addWarnings(e, s);
    const FrameworkProfile& prof = e.profile;
    auto assume = [&](Words w) { e.assumptions.push_back(std::move(w)); };
    assume(words(QT_TRANSLATE_NOOP("gpusizer",
                                   "Parameters: %1 B per trainable, %2 B per frozen 16/32-bit weight; gradients %3 B; "
                                   "master copy %4 B; optimizer state unit %5 B."),
                 number(why.trainB), number(s.method == Method::Qlora ? 0.0 : why.paramB), number(why.trainB),
                 number(why.masterB), number(why.stateUnit)));
    if (e.peakMoment == PeakMoment::ForwardEnd) {
        assume(
            words(QT_TRANSLATE_NOOP("gpusizer", "Peak moment: %1, with every saved activation."), label(e.peakMoment)));
    } else {
        // The logits column reads 0 at the other moments: say what they were and why they are gone.
        assume(words(
            QT_TRANSLATE_NOOP("gpusizer", "Peak moment: %1; the logits (%2 GiB at the loss) are freed before it."),
            label(e.peakMoment), number(why.logitsAtLoss / kGiB)));
    }
    assume(profileAssumption(s, prof));
    if (auto loss = lossAssumption(e, s, prof)) {
        assume(std::move(*loss));
    }
    if (e.dataParallel > 1 || s.offload != Offload::None) {
        assume(shardingAssumption(s, prof, why.stage));
    }
    if (otherAdapter(s)) {
        assume(adapterKindAssumption(s, e));
    }
    if (s.method == Method::Full && s.float8 != Float8::Off) {
        assume(words(QT_TRANSLATE_NOOP("gpusizer", "float8 (%1): the decoder linears still save their 16-bit inputs "
                                                   "(activations unchanged); their backward casts take %2 GiB at most; "
                                                   "the planner runs them at the card's FP8 peak."),
                     label(s.float8), number(static_cast<double>(e.float8CastTemporaryBytes) / kGiB, 2)));
    }
    if (s.tiledMlp) {
        assume(words(QT_TRANSLATE_NOOP("gpusizer", "Tiled MLP: each layer's MLP saves only its input; in backward one "
                                                   "tile's tensors and the input's gradient take %1 GiB, and the MLP "
                                                   "runs forward once more."),
                     number(static_cast<double>(e.tiledMlpWorkingSetBytes) / kGiB, 2)));
    }
    if (hasImages(s)) {
        assume(imagesAssumption(e, s));
    }
    if (freezesLayers(s)) {
        assume(words(QT_TRANSLATE_NOOP("gpusizer", "Freeze tuning: the last %1 of %2 layers train; embeddings, lm_head "
                                                   "and the other layers are frozen, keep nothing for backward and "
                                                   "are not checkpointed."),
                     std::to_string(s.trainableLayers), std::to_string(s.model.numLayers)));
    }
    if (s.overheadCorrectionBytes != 0) {
        assume(words(
            QT_TRANSLATE_NOOP("gpusizer", "Overhead corrected by %1 MiB from a calibration against measured runs."),
            std::to_string(s.overheadCorrectionBytes / (1LL << 20))));
    }
    assume(runtimeAssumption(s, why));
    if (e.reservedWithRoomBytes > e.reservedPeakBytes) {
        assume(reserveWithRoomAssumption(e));
    }
    if (e.geminiCachedChunkBytes > 0) {
        assume(words(QT_TRANSLATE_NOOP("gpusizer",
                                       "Gemini's auto placement leaves up to %1 GiB more of gathered 16-bit chunks on "
                                       "the GPU while the card has room (at most 90% of it, less the activations), "
                                       "and moves them to the host when memory is needed: torch reports up to %2 GiB "
                                       "allocated, the fit uses %3 GiB."),
                     number(static_cast<double>(e.geminiCachedChunkBytes) / kGiB),
                     number(static_cast<double>(e.measuredAllocatedBytes()) / kGiB),
                     number(static_cast<double>(e.allocatedPeakBytes) / kGiB)));
    }
    if (e.ncclBufferBytes > 0) {
        assume(ncclAssumption(e, s, why));
    }
    explainBand(e, s);
}

} // namespace gpusizer::core::detail
