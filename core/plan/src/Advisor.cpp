#include "gpusizer/plan/Advisor.h"

#include "gpusizer/plan/FitTable.h"
#include "gpusizer/scenario/FrameworkProfile.h"

#include <algorithm>
#include <functional>
#include <iterator>

namespace gpusizer::core {

const char* toString(FixKind kind) {
    switch (kind) {
    case FixKind::SmallerMicroBatch:
        return "smaller_micro_batch";
    case FixKind::ShorterSequence:
        return "shorter_sequence";
    case FixKind::SelectiveCheckpointing:
        return "selective_checkpointing";
    case FixKind::FullCheckpointing:
        return "full_checkpointing";
    case FixKind::EfficientAttention:
        return "efficient_attention";
    case FixKind::ChunkedLoss:
        return "chunked_loss";
    case FixKind::FusedLoss:
        return "fused_loss";
    case FixKind::LigerKernels:
        return "liger_kernels";
    case FixKind::Float8AllGather:
        return "float8_all_gather";
    case FixKind::EightBitAdam:
        return "adamw_8bit";
    case FixKind::Adafactor:
        return "adafactor";
    case FixKind::OptimizerInBackward:
        return "optimizer_in_backward";
    case FixKind::PrecomputedReference:
        return "precomputed_reference";
    case FixKind::VllmSleepMode:
        return "vllm_sleep_mode";
    case FixKind::FreezeVisionTower:
        return "freeze_vision_tower";
    case FixKind::Lora:
        return "lora";
    case FixKind::Qlora:
        return "qlora";
    case FixKind::MoreCardsZero3:
        return "more_cards_zero3";
    case FixKind::ContextParallel:
        return "context_parallel";
    case FixKind::CpuOffload:
        return "cpu_offload";
    }
    return "?";
}

namespace {

/// How much a fix changes the run, cheapest first: the combination takes a later tier only when the earlier ones
/// cannot fit. Lossless fixes change nothing of what is trained (recomputation, kernels, the loss's implementation,
/// accumulation instead of a larger micro-batch); numerics change the optimizer or matmul precision; data shortens
/// the sequences; the method trains adapters instead; hardware rents more or offloads.
enum class FixTier { Lossless, Numerics, Data, Method, Hardware };

/// Fixes that are alternatives for the same thing: the combination holds at most one of each group.
enum class FixGroup {
    MicroBatch,
    Sequence,
    Checkpointing,
    Attention,
    Loss,
    Liger,
    Float8,
    OptimizerStates,
    OptimizerStep,
    Reference,
    Generation,
    Vision,
    Method,
    Layout,
    Offload
};

/// A rung: whether it applies to a scenario, and how it changes it (its words are present's).
struct Rung {
    FixKind kind;
    std::function<FixBlocker(const Scenario&, const GpuSpec&)> blocker;
    /// Changes the scenario; returns false when no count of the card fits (more cards only).
    std::function<bool(Scenario&, const GpuSpec&, const PlanInputs&)> apply;
};

bool isAdam(Optimizer o) {
    return o == Optimizer::AdamW || o == Optimizer::PagedAdamW;
}

/// Smaller batches: the same global batch in smaller steps, or shorter sequences.
std::vector<Rung> batchRungs() {
    using B = FixBlocker;
    return {
        {FixKind::SmallerMicroBatch,
         [](const Scenario& s, const GpuSpec&) {
             return s.microBatch <= smallestMicroBatch(s) ? B::MicroBatchIsOne : B::None;
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             // The same global batch (KTO keeps two examples per micro-batch; an odd count rounds its steps up).
             const std::int64_t smallest = smallestMicroBatch(s);
             s.gradientAccumulation *= (s.microBatch + smallest - 1) / smallest;
             s.microBatch = smallest;
             return true;
         }},
        {FixKind::ShorterSequence,
         [](const Scenario& s, const GpuSpec&) { return s.seqLen <= 256 ? B::SequencesShort : B::None; },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.seqLen /= 2;
             s.completionLength = std::max<std::int64_t>(1, s.completionLength / 2); // GRPO: prompt and completion
             return true;
         }},
    };
}

/// Less activation memory: checkpointing, an efficient attention kernel, a chunked loss.
/// A fused loss: the logits never held whole.
Rung fusedLossRung() {
    using B = FixBlocker;
    return {FixKind::FusedLoss,
            [](const Scenario& s, const GpuSpec&) {
                return !s.model.causalLmHead                                              ? B::NoVocabularyLogits
                       : (s.loss == Loss::FusedLinear || s.loss == Loss::CutCrossEntropy) ? B::AlreadyFused
                                                                                          : B::None;
            },
            [](Scenario& s, const GpuSpec&, const PlanInputs&) {
                // Liger's LigerFusedLinearCrossEntropyLoss holds one chunk of logits and grad_input; Apple's Cut
                // Cross-Entropy only a log-sum-exp per token and its blockwise gradient (docs/memory-model.md §5):
                // whichever this scenario needs less for.
                Scenario cce = s;
                cce.loss = Loss::CutCrossEntropy;
                s.loss = Loss::FusedLinear;
                if (estimate(cce, Detail::NumbersOnly).deviceBytes < estimate(s, Detail::NumbersOnly).deviceBytes) {
                    s.loss = Loss::CutCrossEntropy;
                }
                return true;
            }};
}

/// Liger's kernels for the norms, RoPE and the gated MLP.
Rung ligerKernelsRung() {
    using B = FixBlocker;
    return {FixKind::LigerKernels,
            [](const Scenario& s, const GpuSpec&) {
                const bool rms = s.model.norm == NormKind::RmsNorm;
                const bool gated = s.model.mlp == MlpKind::Gated;
                if (!rms && !gated) {
                    return B::NothingForLiger;
                }
                return (!rms || s.ligerRmsNorm) && (!gated || s.ligerGlu) ? B::AlreadyLiger : B::None;
            },
            [](Scenario& s, const GpuSpec&, const PlanInputs&) {
                // apply_liger_kernel_to_llama's defaults: rope, rms_norm and swiglu (the loss is its own rung).
                s.ligerRmsNorm = s.model.norm == NormKind::RmsNorm;
                s.ligerGlu = s.model.mlp == MlpKind::Gated;
                s.ligerRope = true;
                return true;
            }};
}

/// FSDP2 gathering the trained linears in float8.
Rung float8AllGatherRung() {
    using B = FixBlocker;
    return {FixKind::Float8AllGather,
            [](const Scenario& s, const GpuSpec& gpu) {
                // torchao's Float8Linear saves its 16-bit input and adds casts (docs/memory-model.md, float8): the only
                // memory it saves is FSDP2 gathering the linears' weights in float8 instead of bf16, which
                // enable_fsdp_float8_all_gather allows for tensorwise scaling of trained weights.
                if (gpu.fp8Tflops <= 0) {
                    return B::NoFp8OnCard;
                }
                if (s.float8AllGather) {
                    return B::AlreadyFloat8;
                }
                const bool sharded = s.sharding == Sharding::Zero3 && s.gpus > s.tensorParallel * s.pipelineParallel;
                return s.method == Method::Full && sharded && profileFor(s).engine == ShardingEngine::Fsdp2
                           ? B::None
                           : B::Float8OnlyGathers;
            },
            [](Scenario& s, const GpuSpec&, const PlanInputs&) {
                s.float8 = Float8::Tensorwise;
                s.float8AllGather = true;
                return true;
            }};
}

std::vector<Rung> activationRungs() {
    using B = FixBlocker;
    return {
        {FixKind::SelectiveCheckpointing,
         [](const Scenario& s, const GpuSpec&) {
             return s.checkpointing != Checkpointing::None ? B::CheckpointingOn : B::None;
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.checkpointing = Checkpointing::Selective;
             return true;
         }},
        {FixKind::FullCheckpointing,
         [](const Scenario& s, const GpuSpec&) {
             return s.checkpointing == Checkpointing::Full ? B::AlreadyFull : B::None;
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.checkpointing = Checkpointing::Full;
             return true;
         }},
        {FixKind::EfficientAttention,
         [](const Scenario& s, const GpuSpec&) {
             return s.attention != Attention::Eager ? B::AlreadyEfficient : B::None;
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.attention = Attention::Sdpa;
             return true;
         }},
        {FixKind::ChunkedLoss,
         [](const Scenario& s, const GpuSpec&) {
             return !s.model.causalLmHead      ? B::NoVocabularyLogits
                    : s.loss != Loss::Standard ? B::AlreadyChunked
                                               : B::None;
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.loss = Loss::Chunked;
             return true;
         }},
        fusedLossRung(),
        ligerKernelsRung(),
        float8AllGatherRung(),
    };
}

/// Smaller optimizer states, or gradients freed as soon as they are used.
std::vector<Rung> optimizerRungs() {
    using B = FixBlocker;
    return {
        {FixKind::EightBitAdam,
         [](const Scenario& s, const GpuSpec&) {
             if (s.optimizer == Optimizer::AdamW8bit || s.optimizer == Optimizer::PagedAdamW8bit) {
                 return B::Already8Bit;
             }
             return isAdam(s.optimizer) ? B::None : B::OnlyReplacesAdamW;
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.optimizer = Optimizer::AdamW8bit;
             return true;
         }},
        {FixKind::Adafactor,
         [](const Scenario& s, const GpuSpec&) {
             return s.optimizer == Optimizer::Adafactor ? B::AlreadyAdafactor : B::None;
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.optimizer = Optimizer::Adafactor;
             return true;
         }},
        {FixKind::OptimizerInBackward,
         [](const Scenario& s, const GpuSpec&) {
             return s.optimizerInBackward ? B::AlreadyInBackward
                                          : (s.method == Method::Full ? B::None : B::AdapterGradientsTiny);
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.optimizerInBackward = true;
             s.gradientAccumulation = 1;
             return true;
         }},
    };
}

/// Fewer trainable weights: adapters, then a 4-bit base.
std::vector<Rung> methodRungs() {
    using B = FixBlocker;
    return {
        {FixKind::PrecomputedReference,
         [](const Scenario& s, const GpuSpec&) {
             // A framework that loads its reference apart from the adapters (OpenRLHF) has no precomputed option.
             return keepsReferenceCopy(s) && referenceCanBePrecomputed(s) && !profileFor(s).referenceCopyWithAdapters
                        ? B::None
                        : B::NoReferenceCopy;
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.referenceLogProbs = ReferenceLogProbs::Precomputed;
             return true;
         }},
        {FixKind::VllmSleepMode,
         [](const Scenario& s, const GpuSpec&) {
             const bool awake =
                 s.runKind == RunKind::Grpo && s.generation == Generation::VllmColocate && !s.vllmSleepMode;
             return awake ? B::None : B::NoAwakeVllm;
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.vllmSleepMode = true;
             return true;
         }},
        {FixKind::FreezeVisionTower,
         [](const Scenario& s, const GpuSpec&) {
             return hasImages(s) && (visionTowerTrains(s) || visionTowerAdapted(s)) ? B::None : B::NoTrainedVisionTower;
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             // LLaMA-Factory's default pair: freeze_vision_tower and freeze_multi_modal_projector; under adapters,
             // its "all" target: the language model's linears only.
             s.freezeVisionTower = true;
             s.freezeProjector = true;
             s.lora.visionTargets = VisionAdapterTargets::None;
             return true;
         }},
        {FixKind::Lora,
         [](const Scenario& s, const GpuSpec&) { return s.method != Method::Full ? B::AlreadyAdapters : B::None; },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.method = Method::Lora;
             return true;
         }},
        {FixKind::Qlora,
         [](const Scenario& s, const GpuSpec&) { return s.method == Method::Qlora ? B::AlreadyQlora : B::None; },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.method = Method::Qlora;
             return true;
         }},
    };
}

/// More hardware: more cards with sharded model states, then host memory.
std::vector<Rung> hardwareRungs() {
    using B = FixBlocker;
    return {
        {FixKind::MoreCardsZero3, [](const Scenario&, const GpuSpec&) { return B::None; },
         [](Scenario& s, const GpuSpec& gpu, const PlanInputs& in) {
             // The fewest cards of this GPU that fit without offload, with the planner's layout at that count (the
             // plan to rent, by the objective, is the Plan tab's answer).
             PlanInputs noOffload = in;
             noOffload.allowOffload = false;
             for (std::int64_t n : cardCounts(gpu, noOffload)) {
                 if (n <= s.gpus) {
                     continue; // "more cards": more than the scenario already has
                 }
                 Candidate c = fitAtCount(s, gpu, n, noOffload);
                 if (c.fits()) {
                     s = std::move(c.scenario);
                     return true;
                 }
             }
             s.sharding = Sharding::Zero3;
             s.gpus = std::max<std::int64_t>(s.gpus, gpu.gpusPerNode);
             placeOnCard(s, gpu); // the closest miss as the planner judges it: on this card's nodes
             return false;
         }},
        {FixKind::ContextParallel,
         [](const Scenario& s, const GpuSpec&) { return s.contextParallel > 1 ? B::AlreadySplit : B::None; },
         [](Scenario& s, const GpuSpec& gpu, const PlanInputs& in) {
             // Long sequences: the smallest ring degree at which the planner finds a layout without offload.
             PlanInputs noOffload = in;
             noOffload.allowOffload = false;
             const CardPlan plan = planSplittingSequences(s, gpu, noOffload);
             if (plan.found) {
                 s = plan.best.scenario;
                 return true;
             }
             s = withContextParallel(s, 2);
             s.gpus = std::max<std::int64_t>(s.gpus, 2 * s.tensorParallel * s.pipelineParallel);
             placeOnCard(s, gpu);
             return false;
         }},
        {FixKind::CpuOffload,
         [](const Scenario& s, const GpuSpec&) {
             return s.offload == Offload::OptimizerAndParams ? B::AlreadyOffloading : B::None;
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.offload = s.offload == Offload::None ? Offload::Optimizer : Offload::OptimizerAndParams;
             if (s.sharding == Sharding::None) {
                 s.sharding = Sharding::Zero2;
             }
             return true;
         }},
    };
}

/// The rungs in the order of their cost (guides' order): the combination takes them in this order, cheapest first.
const std::vector<Rung>& ladder() {
    static const std::vector<Rung> rungs = [] {
        std::vector<Rung> all;
        for (auto* group : {batchRungs, activationRungs, optimizerRungs, methodRungs, hardwareRungs}) {
            std::vector<Rung> rungsOfGroup = group();
            all.insert(all.end(), std::make_move_iterator(rungsOfGroup.begin()),
                       std::make_move_iterator(rungsOfGroup.end()));
        }
        return all;
    }();
    return rungs;
}

} // namespace

namespace {

FixTier tierOf(FixKind k) {
    switch (k) {
    case FixKind::SmallerMicroBatch:
    case FixKind::SelectiveCheckpointing:
    case FixKind::FullCheckpointing:
    case FixKind::EfficientAttention:
    case FixKind::ChunkedLoss:
    case FixKind::FusedLoss:
    case FixKind::LigerKernels:
    case FixKind::PrecomputedReference:
    case FixKind::VllmSleepMode:
        return FixTier::Lossless;
    case FixKind::FreezeVisionTower:
        return FixTier::Method;
    case FixKind::Float8AllGather:
    case FixKind::EightBitAdam:
    case FixKind::Adafactor:
    case FixKind::OptimizerInBackward:
        return FixTier::Numerics;
    case FixKind::ShorterSequence:
        return FixTier::Data;
    case FixKind::Lora:
    case FixKind::Qlora:
        return FixTier::Method;
    case FixKind::MoreCardsZero3:
    case FixKind::ContextParallel:
    case FixKind::CpuOffload:
        break;
    }
    return FixTier::Hardware;
}

FixGroup groupOf(FixKind k) {
    switch (k) {
    case FixKind::SmallerMicroBatch:
        return FixGroup::MicroBatch;
    case FixKind::ShorterSequence:
        return FixGroup::Sequence;
    case FixKind::SelectiveCheckpointing:
    case FixKind::FullCheckpointing:
        return FixGroup::Checkpointing;
    case FixKind::EfficientAttention:
        return FixGroup::Attention;
    case FixKind::ChunkedLoss:
    case FixKind::FusedLoss:
        return FixGroup::Loss;
    case FixKind::LigerKernels:
        return FixGroup::Liger;
    case FixKind::Float8AllGather:
        return FixGroup::Float8;
    case FixKind::EightBitAdam:
    case FixKind::Adafactor:
        return FixGroup::OptimizerStates;
    case FixKind::OptimizerInBackward:
        return FixGroup::OptimizerStep;
    case FixKind::PrecomputedReference:
        return FixGroup::Reference;
    case FixKind::VllmSleepMode:
        return FixGroup::Generation;
    case FixKind::FreezeVisionTower:
        return FixGroup::Vision;
    case FixKind::Lora:
    case FixKind::Qlora:
        return FixGroup::Method;
    case FixKind::MoreCardsZero3:
    case FixKind::ContextParallel:
        return FixGroup::Layout;
    case FixKind::CpuOffload:
        break;
    }
    return FixGroup::Offload;
}

/// The searches of the combination: each set of fixes applied to the scenario in ladder order, judged once.
class Combination {
public:
    Combination(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs)
        : m_scenario(scenario), m_gpu(gpu), m_in(inputs) {}

    /// The scenario with `fixes` applied in ladder order.
    Scenario build(const std::vector<FixKind>& fixes) const {
        Scenario s = m_scenario;
        for (const Rung& r : ladder()) {
            if (std::find(fixes.begin(), fixes.end(), r.kind) != fixes.end()) {
                r.apply(s, m_gpu, m_in);
            }
        }
        return s;
    }

    Candidate judge(const std::vector<FixKind>& fixes) const { return fitAsIs(build(fixes), m_gpu, m_in); }

    /// The cheapest minimal set that fits: tier by tier, a greedy pass over the rungs of the tiers so far (each group
    /// holding its best option), then every fix that is not needed dropped and every fix replaced by a cheaper
    /// alternative of its group where that still fits.
    std::optional<std::vector<FixKind>> find(std::int64_t startBytes) const {
        for (FixTier tier : {FixTier::Lossless, FixTier::Numerics, FixTier::Data, FixTier::Method, FixTier::Hardware}) {
            std::vector<FixKind> chosen;
            std::int64_t bytes = startBytes;
            bool fits = false;
            for (const Rung& r : ladder()) {
                if (tierOf(r.kind) > tier || r.blocker(build(chosen), m_gpu) != FixBlocker::None) {
                    continue;
                }
                std::vector<FixKind> next = withFix(chosen, r.kind);
                const Candidate after = judge(next);
                if (after.deviceBytes < bytes || (after.fits() && !fits)) {
                    chosen = std::move(next);
                    bytes = after.deviceBytes;
                    fits = after.fits();
                    if (fits) {
                        break;
                    }
                }
            }
            if (fits) {
                return minimal(std::move(chosen));
            }
        }
        return std::nullopt;
    }

private:
    static std::vector<FixKind> withFix(std::vector<FixKind> fixes, FixKind k) {
        std::erase_if(fixes, [&](FixKind f) { return groupOf(f) == groupOf(k); });
        fixes.push_back(k);
        return fixes;
    }

    std::vector<FixKind> minimal(std::vector<FixKind> fixes) const {
        // Drop what is not needed, the latest (most expensive) first.
        for (std::size_t i = fixes.size(); i-- > 0;) {
            std::vector<FixKind> fewer = fixes;
            fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(i));
            if (judge(fewer).fits()) {
                fixes = std::move(fewer);
            }
        }
        // A cheaper alternative of the same group (selective instead of full checkpointing, a chunked instead of a
        // fused loss, 8-bit Adam instead of Adafactor, LoRA instead of QLoRA) where it still fits.
        for (std::size_t i = 0; i < fixes.size(); ++i) {
            for (const Rung& r : ladder()) {
                if (r.kind == fixes[i]) {
                    break; // the alternatives before it in the ladder are the cheaper ones
                }
                if (groupOf(r.kind) != groupOf(fixes[i])) {
                    continue;
                }
                std::vector<FixKind> cheaper = fixes;
                cheaper[i] = r.kind;
                if (r.blocker(m_scenario, m_gpu) == FixBlocker::None && judge(cheaper).fits()) {
                    fixes = std::move(cheaper);
                    break;
                }
            }
        }
        std::sort(fixes.begin(), fixes.end(), [](FixKind a, FixKind b) {
            return static_cast<int>(a) < static_cast<int>(b); // ladder order
        });
        return fixes;
    }

    const Scenario& m_scenario;
    const GpuSpec& m_gpu;
    const PlanInputs& m_in;
};

} // namespace

OomAdvice adviseOom(const Scenario& scenario, const GpuSpec& gpu, const PlanInputs& inputs) {
    OomAdvice advice;
    advice.usableBytes = gpu.usableBytes();
    // Every "fits" here is the planner's verdict on the scenario as set (margin, host RAM, precision): fitAsIs.
    const auto judge = [&](const Scenario& s) { return fitAsIs(s, gpu, inputs); };
    advice.asIs = judge(scenario);
    advice.deviceBytes = advice.asIs.deviceBytes;
    advice.fitsAlready = advice.asIs.fits();
    if (advice.fitsAlready) {
        return advice;
    }
    for (const Rung& rung : ladder()) {
        FixStep step;
        step.kind = rung.kind;
        step.blocker = rung.blocker(scenario, gpu);
        step.applicable = step.blocker == FixBlocker::None;
        if (step.applicable) {
            step.scenarioAlone = scenario;
            step.noLayoutFits = !rung.apply(step.scenarioAlone, gpu, inputs);
            const Candidate alone = judge(step.scenarioAlone);
            step.deviceAfterAlone = alone.deviceBytes;
            step.savingAlone = advice.deviceBytes - step.deviceAfterAlone;
            step.fitsAlone = alone.fits();
        }
        advice.steps.push_back(step);
    }
    const Combination combination(scenario, gpu, inputs);
    if (auto fixes = combination.find(advice.deviceBytes)) {
        advice.combination = *fixes;
        advice.fittingScenario = combination.build(*fixes);
        advice.deviceAfterCombination = combination.judge(*fixes).deviceBytes;
    }
    return advice;
}

MethodAdvice adviseMethod(const MethodQuestions& q) {
    using D = MethodQuestions::Distance;
    using Data = MethodQuestions::Data;
    MethodAdvice a;
    if (q.distance == D::Far && q.data == Data::Large) {
        a.method = Method::Full;
        a.reasons.push_back(MethodReason::FarAndPlentyOfData);
    } else {
        a.method = Method::Lora;
        a.reasons.push_back(q.distance == D::Far     ? MethodReason::FarButLittleData
                            : q.distance == D::Close ? MethodReason::CloseToTheModel
                                                     : MethodReason::SomewhatDifferent);
        if (q.data == Data::Small) {
            a.reasons.push_back(MethodReason::LittleDataRegularises);
        }
    }
    if (q.acceptsSmallQualityLoss && a.method != Method::Full) {
        a.method = Method::Qlora;
        a.reasons.push_back(MethodReason::QualityTradeOffAccepted);
    } else if (q.acceptsSmallQualityLoss && a.method == Method::Full) {
        a.reasons.push_back(MethodReason::FullDespiteTradeOff);
    }
    if (q.serving == MethodQuestions::Serving::Adapters) {
        a.reasons.push_back(MethodReason::ServingAdapters);
        if (a.method == Method::Full) {
            a.caveats.push_back(MethodCaveat::FullCheckpointPerTask);
        }
    }
    if (a.method == Method::Qlora) {
        a.caveats.push_back(MethodCaveat::MergeIntoSixteenBit);
    }
    if (a.method != Method::Full) {
        a.caveats.push_back(MethodCaveat::CheckHeldOutSet);
    }
    return a;
}

SizingCell recommendedPlan(const Scenario& scenario, const std::vector<GpuSpec>& gpus, const PlanInputs& inputs) {
    SizingCell cell;
    const std::optional<CatalogChoice> choice = chooseOverCatalog(scenario, gpus, inputs);
    if (!choice) {
        return cell;
    }
    const CardPlan& chosen = choice->plan;
    // The catalog entry itself (the plan points into `gpus`), so the cell outlives the plan.
    cell.gpu = chosen.gpu;
    cell.cards = chosen.best.scenario.gpus;
    cell.devicePerGpu = chosen.best.deviceBytes;
    cell.usdPerHour = static_cast<double>(rentedGpus(chosen.best.scenario)) * rankedHourlyPrice(*chosen.gpu, inputs);
    cell.costUsd = costOf(chosen.best, inputs);
    cell.wallHours = chosen.best.plan.wallHours;
    cell.layout = chosen.best.scenario;
    return cell;
}

std::vector<SizingRow> sizingTable(const Scenario& scenario, const Catalog& catalog, const PlanInputs& inputs) {
    struct SizeClass {
        const char* label;
        const char* modelId;
    };
    static const SizeClass kClasses[] = {{"1-3B", "llama-3.2-3b"},
                                         {"7-8B", "llama-3.1-8b"},
                                         {"13B", "llama-2-13b"},
                                         {"30-34B", "qwen2.5-32b"},
                                         {"70B", "llama-3.1-70b"}};
    std::vector<SizingRow> rows;
    auto fill = [&](std::string sizeClass, std::string modelName, std::string modelId, const ModelArch& arch) {
        SizingRow row;
        row.sizeClass = std::move(sizeClass);
        row.modelName = std::move(modelName);
        row.modelId = std::move(modelId);
        Scenario s = scenario;
        s.model = arch;
        s.sharding = Sharding::None;
        row.params = countParams(arch).total;
        s.method = Method::Qlora;
        row.qlora = recommendedPlan(s, catalog.gpus, inputs);
        s.method = Method::Lora;
        row.lora = recommendedPlan(s, catalog.gpus, inputs);
        s.method = Method::Full;
        row.full = recommendedPlan(s, catalog.gpus, inputs);
        rows.push_back(std::move(row));
    };
    for (const auto& c : kClasses) {
        if (const ModelEntry* m = catalog.findModel(c.modelId)) {
            fill(c.label, m->name, m->id, m->arch);
        }
    }
    fill({}, scenario.modelId.empty() ? scenario.model.name : scenario.modelId, scenario.modelId, scenario.model);
    return rows;
}

} // namespace gpusizer::core
