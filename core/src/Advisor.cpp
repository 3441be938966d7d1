#include "gpusizer/core/Advisor.h"

#include "gpusizer/core/FitTable.h"

#include <algorithm>
#include <functional>

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
    case FixKind::CpuOffload:
        return "cpu_offload";
    }
    return "?";
}

namespace {

/// A rung: whether it applies to a scenario, how it changes it, what it costs.
struct Rung {
    FixKind kind;
    std::function<std::string(const Scenario&)> notApplicable;                      ///< empty string: applies
    std::function<std::string(Scenario&, const GpuSpec&, const PlanInputs&)> apply; ///< returns the change in words
    const char* price;
};

std::string str(std::int64_t v) {
    return std::to_string(v);
}

const std::vector<Rung>& ladder() {
    static const std::vector<Rung> rungs{
        {FixKind::SmallerMicroBatch,
         [](const Scenario& s) { return s.microBatch <= 1 ? std::string("micro-batch is already 1") : std::string(); },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             const std::string change = "micro-batch " + str(s.microBatch) + " -> 1, gradient accumulation " +
                                        str(s.gradientAccumulation) + " -> " +
                                        str(s.gradientAccumulation * s.microBatch);
             s.gradientAccumulation *= s.microBatch;
             s.microBatch = 1;
             return change;
         },
         "same global batch; lower GPU utilisation per step, so somewhat slower"},
        {FixKind::ShorterSequence,
         [](const Scenario& s) { return s.seqLen <= 256 ? std::string("sequences are already short") : std::string(); },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             const std::string change = "sequence length " + str(s.seqLen) + " -> " + str(s.seqLen / 2);
             s.seqLen /= 2;
             return change;
         },
         "longer examples must be truncated or split; size for your longest sequence, not the average"},
        {FixKind::SelectiveCheckpointing,
         [](const Scenario& s) {
             return s.checkpointing != Checkpointing::None ? std::string("checkpointing is already on") : std::string();
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.checkpointing = Checkpointing::Selective;
             return std::string("gradient checkpointing none -> selective");
         },
         "a few percent more compute (recomputes cheap tensors; with flash/SDPA attention it may save little)"},
        {FixKind::FullCheckpointing,
         [](const Scenario& s) {
             return s.checkpointing == Checkpointing::Full ? std::string("already full checkpointing") : std::string();
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.checkpointing = Checkpointing::Full;
             return std::string("gradient checkpointing -> full");
         },
         "about 20-30% more compute (one extra forward pass per step)"},
        {FixKind::EfficientAttention,
         [](const Scenario& s) {
             return s.attention != Attention::Eager ? std::string("already SDPA/FlashAttention") : std::string();
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.attention = Attention::Sdpa;
             return std::string("attention eager -> SDPA (FlashAttention kernel)");
         },
         "none: faster as well"},
        {FixKind::ChunkedLoss,
         [](const Scenario& s) {
             if (!s.model.causalLmHead) {
                 return std::string("no vocabulary-sized logits");
             }
             return s.loss == Loss::Chunked ? std::string("already chunked") : std::string();
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.loss = Loss::Chunked;
             return std::string("cross-entropy standard -> chunked/fused");
         },
         "none to slight: a fused or chunked loss kernel (Liger, torchtune, Unsloth, cut cross-entropy)"},
        {FixKind::EightBitAdam,
         [](const Scenario& s) {
             if (s.optimizer == Optimizer::AdamW8bit || s.optimizer == Optimizer::PagedAdamW8bit) {
                 return std::string("already 8-bit");
             }
             return s.optimizer == Optimizer::AdamW || s.optimizer == Optimizer::PagedAdamW
                        ? std::string()
                        : std::string("only replaces AdamW");
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.optimizer = Optimizer::AdamW8bit;
             return std::string("optimizer AdamW -> 8-bit AdamW (bitsandbytes)");
         },
         "usually no measurable quality change; needs bitsandbytes"},
        {FixKind::Adafactor,
         [](const Scenario& s) {
             return s.optimizer == Optimizer::Adafactor ? std::string("already Adafactor") : std::string();
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.optimizer = Optimizer::Adafactor;
             return std::string("optimizer -> Adafactor (factored, no momentum)");
         },
         "may need learning-rate retuning; convergence can differ from AdamW"},
        {FixKind::OptimizerInBackward,
         [](const Scenario& s) {
             if (s.optimizerInBackward) {
                 return std::string("already on");
             }
             return s.method == Method::Full ? std::string() : std::string("gradients are already tiny with adapters");
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.optimizerInBackward = true;
             s.gradientAccumulation = 1;
             return std::string("optimizer step in backward (no gradient accumulation)");
         },
         "no gradient accumulation and no gradient clipping across parameters"},
        {FixKind::Lora,
         [](const Scenario& s) { return s.method != Method::Full ? std::string("already adapters") : std::string(); },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.method = Method::Lora;
             return std::string("full fine-tuning -> LoRA r" + str(s.lora.rank));
         },
         "trains far fewer parameters: close to full fine-tuning on most tasks, weaker on tasks far from pre-training"},
        {FixKind::Qlora,
         [](const Scenario& s) { return s.method == Method::Qlora ? std::string("already QLoRA") : std::string(); },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.method = Method::Qlora;
             return std::string("-> QLoRA (4-bit NF4 base)");
         },
         "small quality loss from the 4-bit base and ~20-40% slower steps (dequantization); merge into the 16-bit "
         "base"},
        {FixKind::MoreCardsZero3, [](const Scenario&) { return std::string(); },
         [](Scenario& s, const GpuSpec& gpu, const PlanInputs& in) {
             // The planner's answer without offload: the count and layout every other view shows for this card.
             PlanInputs noOffload = in;
             noOffload.allowOffload = false;
             const CardPlan plan = planOnCard(s, gpu, noOffload);
             if (!plan.found) {
                 s.sharding = Sharding::Zero3;
                 s.gpus = std::max<std::int64_t>(s.gpus, gpu.gpusPerNode);
                 return "more cards: none up to " + str(in.maxGpus) + " x " + gpu.name + " fits";
             }
             s = plan.best.scenario;
             return str(s.gpus) + " x " + gpu.name + " with the planner's layout";
         },
         "more GPUs to rent; communication cost grows (NVLink scales well, PCIe poorly)"},
        {FixKind::CpuOffload,
         [](const Scenario& s) {
             return s.offload == Offload::OptimizerAndParams ? std::string("already offloading") : std::string();
         },
         [](Scenario& s, const GpuSpec&, const PlanInputs&) {
             s.offload = s.offload == Offload::None ? Offload::Optimizer : Offload::OptimizerAndParams;
             if (s.sharding == Sharding::None) {
                 s.sharding = Sharding::Zero2;
             }
             return std::string("ZeRO-Offload: ") + toString(s.offload) + " to host RAM";
         },
         "much slower steps (PCIe-bound) and large host RAM"},
    };
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
        step.price = rung.price;
        step.notApplicableWhy = rung.notApplicable(scenario);
        step.applicable = step.notApplicableWhy.empty();
        if (step.applicable) {
            step.scenarioAlone = scenario;
            step.change = rung.apply(step.scenarioAlone, gpu, inputs);
            const Candidate alone = judge(step.scenarioAlone);
            step.deviceAfterAlone = alone.deviceBytes;
            step.savingAlone = advice.deviceBytes - step.deviceAfterAlone;
            step.fitsAlone = alone.fits();
        }
        advice.steps.push_back(step);

        // The combination: take each rung in order, on top of the previous ones, while it helps.
        if (!advice.fittingScenario && rung.notApplicable(cumulative).empty()) {
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
        a.reasons.push_back("The task is far from what the model already does and there is plenty of data: full "
                            "fine-tuning can move every weight and uses the data best.");
    } else {
        a.method = Method::Lora;
        a.reasons.push_back(q.distance == D::Far
                                ? "The task is far from the model's behaviour, but without a large dataset full "
                                  "fine-tuning tends to overfit: LoRA with a higher rank and more target modules."
                            : q.distance == D::Close
                                ? "The task is close to what the model already does: LoRA adapters reach nearly the "
                                  "quality of full fine-tuning at a fraction of the memory."
                                : "The task differs somewhat from what the model does: LoRA on all linear layers "
                                  "usually comes close to full fine-tuning at a fraction of the memory.");
        if (q.data == Data::Small) {
            a.reasons.push_back("With little data, fewer trainable parameters also regularise.");
        }
    }
    if (q.acceptsSmallQualityLoss && a.method != Method::Full) {
        a.method = Method::Qlora;
        a.reasons.push_back("A small quality trade-off is acceptable: QLoRA stores the base in 4 bits and cuts the "
                            "weights to about a quarter, often to a single smaller card.");
    } else if (q.acceptsSmallQualityLoss && a.method == Method::Full) {
        a.reasons.push_back("Even with a quality trade-off allowed, the data and distance favour full fine-tuning; "
                            "consider LoRA with a high rank if memory is the constraint.");
    }
    if (q.serving == MethodQuestions::Serving::Adapters) {
        a.reasons.push_back("Serving adapters separately (one base, many adapters) favours LoRA/QLoRA: each adapter is "
                            "megabytes, not a full checkpoint.");
        if (a.method == Method::Full) {
            a.caveats.push_back("Full fine-tuning produces a full checkpoint per task; adapters cannot be swapped.");
        }
    }
    if (a.method == Method::Qlora) {
        a.caveats.push_back("Merge a QLoRA adapter into the 16-bit base model, not into the 4-bit one: merging into "
                            "the quantized weights loses the adapter's precision.");
    }
    if (a.method != Method::Full) {
        a.caveats.push_back("Check the result against a held-out set: adapters can underfit tasks far from "
                            "pre-training.");
    }
    return a;
}

SizingCell smallestConfiguration(const Scenario& scenario, const std::vector<GpuSpec>& gpus, const PlanInputs& inputs) {
    SizingCell best;
    double bestHourly = 0;
    // GPU memory is what the table sizes: no CPU offload here (the Plan tab weighs offload against its time).
    PlanInputs inMemory = inputs;
    inMemory.allowOffload = false;
    for (const auto& gpu : gpus) {
        for (std::int64_t n : cardCounts(gpu, inputs.maxGpus)) {
            const Candidate c = fitAtCount(scenario, gpu, n, inMemory);
            if (!c.fits()) {
                continue;
            }
            const double hourly = static_cast<double>(n) * inputs.pricePerGpuHour.value_or(gpu.priceOnDemandUsdHour);
            if (best.gpu == nullptr || hourly < bestHourly) {
                best = {&gpu, n, c.deviceBytes};
                bestHourly = hourly;
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
    auto fill = [&](std::string label, std::string modelId, const ModelArch& arch) {
        SizingRow row;
        row.label = std::move(label);
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
            fill(std::string(c.label) + " (" + m->name + ")", m->id, m->arch);
        }
    }
    fill("Your model (" + (scenario.modelId.empty() ? scenario.model.name : scenario.modelId) + ")", scenario.modelId,
         scenario.model);
    return rows;
}

} // namespace gpusizer::core
