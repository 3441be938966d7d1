#include "gpusizer/core/Advisor.h"

#include "gpusizer/core/FitTable.h"
#include "gpusizer/core/FrameworkProfile.h"

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
         [](const Scenario& s, const GpuSpec&) { return s.microBatch <= 1 ? B::MicroBatchIsOne : B::None; },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.gradientAccumulation *= s.microBatch; // the same global batch
             s.microBatch = 1;
             return true;
         }},
        {FixKind::ShorterSequence,
         [](const Scenario& s, const GpuSpec&) { return s.seqLen <= 256 ? B::SequencesShort : B::None; },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.seqLen /= 2;
             return true;
         }},
    };
}

/// Less activation memory: checkpointing, an efficient attention kernel, a chunked loss.
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
        {FixKind::FusedLoss,
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
             if (estimate(cce).deviceBytes < estimate(s).deviceBytes) {
                 s.loss = Loss::CutCrossEntropy;
             }
             return true;
         }},
        {FixKind::LigerKernels,
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
         }},
        {FixKind::Float8AllGather,
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
         }},
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
             // The planner's answer without offload: the count and layout every other view shows for this card.
             PlanInputs noOffload = in;
             noOffload.allowOffload = false;
             const CardPlan plan = planOnCard(s, gpu, noOffload);
             if (!plan.found) {
                 s.sharding = Sharding::Zero3;
                 s.gpus = std::max<std::int64_t>(s.gpus, gpu.gpusPerNode);
                 return false;
             }
             s = plan.best.scenario;
             return true;
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
    Scenario cumulative = scenario;
    std::int64_t cumulativeBytes = advice.deviceBytes;
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

        // The combination: take each rung in order, on top of the previous ones, while it helps.
        if (!advice.fittingScenario && rung.blocker(cumulative, gpu) == FixBlocker::None) {
            Scenario next = cumulative;
            rung.apply(next, gpu, inputs);
            const Candidate after = judge(next);
            if (after.deviceBytes < cumulativeBytes) {
                cumulative = next;
                cumulativeBytes = after.deviceBytes;
                advice.combination.push_back(rung.kind);
                if (after.fits()) {
                    advice.fittingScenario = cumulative;
                    advice.deviceAfterCombination = after.deviceBytes;
                }
            }
        }
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

SizingCell smallestConfiguration(const Scenario& scenario, const std::vector<GpuSpec>& gpus, const PlanInputs& inputs) {
    SizingCell best;
    // GPU memory is what the table sizes: no CPU offload here (the Plan tab weighs offload against its time).
    PlanInputs inMemory = inputs;
    inMemory.allowOffload = false;
    for (const auto& gpu : gpus) {
        const double price = hourlyPrice(gpu, inputs, false);
        for (std::int64_t n : cardCounts(gpu, inputs.maxGpus)) {
            const double hourly = static_cast<double>(n) * price;
            // The bill only grows with the count: once it reaches the best so far, no larger count can win.
            if (best.gpu != nullptr && hourly >= best.usdPerHour) {
                break;
            }
            const Candidate c = fitAtCount(scenario, gpu, n, inMemory);
            if (!c.fits()) {
                continue;
            }
            if (best.gpu == nullptr || hourly < best.usdPerHour) {
                best = {&gpu, n, c.deviceBytes, hourly};
            }
            break; // the smallest count that fits: more cards of this GPU only cost more per hour
        }
    }
    return best;
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
        row.qlora = smallestConfiguration(s, catalog.gpus, inputs);
        s.method = Method::Lora;
        row.lora = smallestConfiguration(s, catalog.gpus, inputs);
        s.method = Method::Full;
        row.full = smallestConfiguration(s, catalog.gpus, inputs);
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
