#include "gpusizer/present/AdviceText.h"

#include "gpusizer/plan/FitTable.h"
#include "gpusizer/present/Format.h"
#include "gpusizer/present/Names.h"
#include "gpusizer/present/PlanTables.h"
#include "gpusizer/present/PlanText.h"

#include <string>

namespace gpusizer::present {

namespace {

/// Plain digits, as the ladder's "x -> y" changes print them.
std::string digits(std::int64_t v) {
    return std::to_string(v);
}

/// A GPU's name as tables show it ("RTX 4090" rather than "GeForce RTX 4090").
std::string shortName(const core::GpuSpec& gpu) {
    // The family word says nothing the model number does not: "RTX 4090", "MI325X", "V100 SXM2 32GB".
    std::string name = gpu.name;
    for (const std::string prefix : {"GeForce ", "Instinct ", "Tesla "}) {
        if (name.rfind(prefix, 0) == 0) {
            name.erase(0, prefix.size());
        }
    }
    return name;
}

} // namespace

Message fixName(core::FixKind kind) {
    using K = core::FixKind;
    switch (kind) {
    case K::SmallerMicroBatch:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Smaller micro-batch"));
    case K::ShorterSequence:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Shorter sequences"));
    case K::SelectiveCheckpointing:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Selective checkpointing"));
    case K::FullCheckpointing:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Full checkpointing"));
    case K::EfficientAttention:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "FlashAttention / SDPA"));
    case K::ChunkedLoss:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Chunked cross-entropy"));
    case K::FusedLoss:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Fused cross-entropy"));
    case K::LigerKernels:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Liger kernels"));
    case K::Float8AllGather:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "float8 with float8 all-gather"));
    case K::EightBitAdam:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "8-bit AdamW"));
    case K::Adafactor:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Adafactor"));
    case K::OptimizerInBackward:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Optimizer in backward"));
    case K::PrecomputedReference:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Precomputed reference log-probs"));
    case K::VllmSleepMode:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "vLLM sleep mode"));
    case K::FreezeVisionTower:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Frozen vision tower"));
    case K::Lora:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Full → LoRA"));
    case K::Qlora:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "→ QLoRA"));
    case K::MoreCardsZero3:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "More cards, ZeRO-3 / FSDP"));
    case K::ContextParallel:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Split the sequences (context parallel)"));
    case K::CpuOffload:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "CPU offload"));
    }
    return {};
}

Message fixPrice(core::FixKind kind) {
    using K = core::FixKind;
    switch (kind) {
    case K::SmallerMicroBatch:
        return msg(
            QT_TRANSLATE_NOOP("gpusizer", "same global batch; lower GPU utilisation per step, so somewhat slower"));
    case K::ShorterSequence:
        return msg(QT_TRANSLATE_NOOP(
            "gpusizer", "longer examples must be truncated or split; size for your longest sequence, not the average"));
    case K::SelectiveCheckpointing:
        return msg(QT_TRANSLATE_NOOP(
            "gpusizer",
            "a few percent more compute (recomputes cheap tensors; with flash/SDPA attention it may save little)"));
    case K::FullCheckpointing:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "about 20-30% more compute (one extra forward pass per step)"));
    case K::EfficientAttention:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "none: faster as well"));
    case K::ChunkedLoss:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "none to slight: a chunked loss (torchtune, Unsloth)"));
    case K::FusedLoss:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "none to slight: needs the liger-kernel or cut-cross-entropy package "
                                                 "and a model its patches cover"));
    case K::LigerKernels:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "none: faster as well; needs the liger-kernel package and a model "
                                                 "architecture it patches"));
    case K::Float8AllGather:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "float8 matmuls round differently from bf16 (check the loss "
                                                 "curve); needs torchao, FSDP2 and tensorwise scaling; usually "
                                                 "faster on large matmuls"));
    case K::EightBitAdam:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "usually no measurable quality change; needs bitsandbytes"));
    case K::Adafactor:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "may need learning-rate retuning; convergence can differ from AdamW"));
    case K::OptimizerInBackward:
        return msg(
            QT_TRANSLATE_NOOP("gpusizer", "no gradient accumulation and no gradient clipping across parameters"));
    case K::PrecomputedReference:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "the same training: TRL's precompute_ref_log_probs runs the reference "
                                                 "over the dataset once before the first step (minutes to hours, "
                                                 "stored on disk)"));
    case K::VllmSleepMode:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "the same training; each generation reloads vLLM's weights and "
                                                 "rebuilds its KV cache (seconds per step)"));
    case K::FreezeVisionTower:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "the image encoder and projector keep their pre-trained weights "
                                                 "(LLaMA-Factory's default): usually enough unless the images are "
                                                 "unlike the pre-training ones"));
    case K::Lora:
        return msg(QT_TRANSLATE_NOOP(
            "gpusizer", "trains far fewer parameters: close to full fine-tuning on most tasks, weaker on tasks "
                        "far from pre-training"));
    case K::Qlora:
        return msg(QT_TRANSLATE_NOOP(
            "gpusizer", "small quality loss from the 4-bit base and ~20-40% slower steps (dequantization); "
                        "merge into the 16-bit base"));
    case K::MoreCardsZero3:
        return msg(QT_TRANSLATE_NOOP("gpusizer",
                                     "more GPUs to rent; communication cost grows (NVLink scales well, PCIe poorly)"));
    case K::ContextParallel:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "more GPUs and attention traffic in every layer; needs a framework "
                                                 "with context parallelism (torchtitan, Axolotl, DeepSpeed Ulysses)"));
    case K::CpuOffload:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "much slower steps (PCIe-bound) and large host RAM"));
    }
    return {};
}

Message fixBlocker(core::FixBlocker blocker) {
    using B = core::FixBlocker;
    switch (blocker) {
    case B::None:
        return {};
    case B::MicroBatchIsOne:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "micro-batch is already 1"));
    case B::SequencesShort:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "sequences are already short"));
    case B::CheckpointingOn:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "checkpointing is already on"));
    case B::AlreadyFull:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "already full checkpointing"));
    case B::AlreadyEfficient:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "already SDPA/FlashAttention"));
    case B::NoVocabularyLogits:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "no vocabulary-sized logits"));
    case B::AlreadyChunked:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "already chunked"));
    case B::AlreadyFused:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "already fused"));
    case B::NothingForLiger:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "no RMSNorm or gated MLP to replace"));
    case B::AlreadyLiger:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "already on"));
    case B::NoFp8OnCard:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "this card has no FP8 tensor cores"));
    case B::Float8OnlyGathers:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "float8 saves memory only when FSDP2 gathers fully fine-tuned "
                                                 "weights over several cards; elsewhere its casts add memory"));
    case B::AlreadyFloat8:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "weights are already gathered in float8"));
    case B::Already8Bit:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "already 8-bit"));
    case B::OnlyReplacesAdamW:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "only replaces AdamW"));
    case B::AlreadyAdafactor:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "already Adafactor"));
    case B::AlreadyInBackward:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "already on"));
    case B::AdapterGradientsTiny:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "gradients are already tiny with adapters"));
    case B::AlreadyAdapters:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "already adapters"));
    case B::AlreadyQlora:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "already QLoRA"));
    case B::AlreadySplit:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "sequences are already split"));
    case B::NoReferenceCopy:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "no reference copy to drop"));
    case B::NoAwakeVllm:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "no colocated vLLM awake through training"));
    case B::NoTrainedVisionTower:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "no vision encoder that trains or carries adapters"));
    case B::AlreadyOffloading:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "already offloading"));
    }
    return {};
}

Message fixChange(const core::FixStep& step, const core::Scenario& before, const core::GpuSpec& gpu,
                  const core::PlanInputs& inputs) {
    using K = core::FixKind;
    const core::Scenario& after = step.scenarioAlone;
    switch (step.kind) {
    case K::SmallerMicroBatch:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "micro-batch %1 → %2, gradient accumulation %3 → %4"),
                   digits(before.microBatch), digits(after.microBatch), digits(before.gradientAccumulation),
                   digits(after.gradientAccumulation));
    case K::ShorterSequence:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "sequence length %1 → %2"), digits(before.seqLen),
                   digits(after.seqLen));
    case K::SelectiveCheckpointing:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "gradient checkpointing none → selective"));
    case K::FullCheckpointing:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "gradient checkpointing → full"));
    case K::EfficientAttention:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "attention eager → SDPA (FlashAttention kernel)"));
    case K::ChunkedLoss:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "cross-entropy standard → chunked"));
    case K::FusedLoss:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "loss: %1 → %2"), label(before.loss), label(after.loss));
    case K::LigerKernels:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "Liger's fused RMSNorm and gated activation (apply_liger_kernel)"));
    case K::Float8AllGather:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "float8 %1 → tensorwise, FSDP2 gathers the linears' weights in "
                                                 "float8"),
                   label(before.float8));
    case K::EightBitAdam:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "optimizer AdamW → 8-bit AdamW (bitsandbytes)"));
    case K::Adafactor:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "optimizer → Adafactor (factored, no momentum)"));
    case K::OptimizerInBackward:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "optimizer step in backward (no gradient accumulation)"));
    case K::PrecomputedReference:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "reference log-probs computed once before training "
                                                 "(precompute_ref_log_probs): no reference copy"));
    case K::VllmSleepMode:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "vllm_enable_sleep_mode: vLLM frees its share while the trainer "
                                                 "steps"));
    case K::FreezeVisionTower:
        if (before.method != core::Method::Full) {
            return msg(QT_TRANSLATE_NOOP("gpusizer", "adapters on the language model only (lora.vision_targets %1 → "
                                                     "none): no adapters or saved activations on the image side"),
                       std::string(core::toString(before.lora.visionTargets)));
        }
        return msg(QT_TRANSLATE_NOOP("gpusizer", "freeze_vision_tower and freeze_multi_modal_projector: no "
                                                 "gradients, optimizer states or saved activations for them"));
    case K::Lora:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "full fine-tuning → LoRA r%1"), digits(after.lora.rank));
    case K::Qlora:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "→ QLoRA (4-bit NF4 base)"));
    case K::MoreCardsZero3:
        return step.noLayoutFits ? msg(QT_TRANSLATE_NOOP("gpusizer", "more cards: none up to %1 × %2 fits"),
                                       digits(inputs.maxGpus), gpu.name)
                                 : msg(QT_TRANSLATE_NOOP("gpusizer", "%1 × %2 with the planner's layout"),
                                       digits(after.gpus), gpu.name);
    case K::ContextParallel:
        return step.noLayoutFits
                   ? msg(QT_TRANSLATE_NOOP("gpusizer", "no split up to 32 cards per sequence fits on %1"), gpu.name)
                   : msg(QT_TRANSLATE_NOOP("gpusizer", "%1 × %2, each sequence over %3 cards (ring attention)"),
                         digits(after.gpus), gpu.name, digits(after.contextParallel));
    case K::CpuOffload:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "ZeRO-Offload: %1 to host RAM"), label(after.offload));
    }
    return {};
}

Table ladderTable(const core::OomAdvice& advice, const core::Scenario& scenario, const core::GpuSpec& gpu,
                  const core::PlanInputs& inputs) {
    Table t;
    t.columns = {{msg(QT_TRANSLATE_NOOP("gpusizer", "Fix (cheapest first)"))},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "What changes"))},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "Saves per GPU")), Align::Right},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "Then per GPU")), Align::Right},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "Fits alone"))},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "Price"))}};
    for (std::size_t i = 0; i < advice.steps.size(); ++i) {
        const auto& step = advice.steps[i];
        const Message price = fixPrice(step.kind);
        std::vector<Cell> cells{
            Cell::of(msg(QT_TRANSLATE_NOOP("gpusizer", "%1. %2"), digits(static_cast<std::int64_t>(i + 1)),
                         fixName(step.kind))),
            Cell::of(step.applicable
                         ? fixChange(step, scenario, gpu, inputs)
                         : msg(QT_TRANSLATE_NOOP("gpusizer", "does not apply: %1"), fixBlocker(step.blocker))),
            !step.applicable ? Cell{}
            : step.savingAlone >= 0
                ? Cell::bytes(step.savingAlone)
                : Cell::label(msg(QT_TRANSLATE_NOOP("gpusizer", "uses %1 more"), gib(-step.savingAlone)),
                              static_cast<double>(step.savingAlone)),
            step.applicable ? Cell::bytes(step.deviceAfterAlone) : Cell{},
            step.applicable ? Cell::of(step.fitsAlone ? msg(QT_TRANSLATE_NOOP("gpusizer", "yes"))
                                                      : msg(QT_TRANSLATE_NOOP("gpusizer", "no")))
                            : Cell{},
            Cell::of(price),
        };
        const Tone tone = !step.applicable ? Tone::Muted : (step.fitsAlone ? Tone::Good : Tone::None);
        for (auto& c : cells) {
            c.withTone(tone).withTooltip(step.applicable ? price : fixBlocker(step.blocker));
        }
        t.add(std::move(cells), core::toString(step.kind));
    }
    return t;
}

Message adviceConclusion(const core::OomAdvice& advice, const core::GpuSpec& gpu) {
    if (advice.fitsAlready) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "%1 — no fix needed."), fitSentence(advice.asIs, gpu));
    }
    if (advice.fittingScenario) {
        std::vector<Message> fixes;
        for (auto kind : advice.combination) {
            fixes.push_back(fixName(kind));
        }
        return msg(QT_TRANSLATE_NOOP("gpusizer",
                                     "%1. The fewest and cheapest fixes that fit together (lossless ones first, then "
                                     "numerics, the data, the method, more hardware): %2 → %3 per GPU."),
                   fitSentence(advice.asIs, gpu), joined(fixes), gib(advice.deviceAfterCombination));
    }
    return msg(QT_TRANSLATE_NOOP("gpusizer", "%1. No combination of the fixes fits the %2."),
               fitSentence(advice.asIs, gpu), gpu.name);
}

Message methodName(core::Method m) {
    switch (m) {
    case core::Method::Full:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "full fine-tuning"));
    case core::Method::Lora:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "LoRA"));
    case core::Method::Qlora:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "QLoRA"));
    }
    return {};
}

Message methodReason(core::MethodReason r) {
    using R = core::MethodReason;
    switch (r) {
    case R::FarAndPlentyOfData:
        return msg(QT_TRANSLATE_NOOP(
            "gpusizer", "The task is far from what the model already does and there is plenty of data: full "
                        "fine-tuning can move every weight and uses the data best."));
    case R::FarButLittleData:
        return msg(QT_TRANSLATE_NOOP("gpusizer",
                                     "The task is far from the model's behaviour, but without a large dataset full "
                                     "fine-tuning tends to overfit: LoRA with a higher rank and more target modules."));
    case R::CloseToTheModel:
        return msg(QT_TRANSLATE_NOOP("gpusizer",
                                     "The task is close to what the model already does: LoRA adapters reach nearly the "
                                     "quality of full fine-tuning at a fraction of the memory."));
    case R::SomewhatDifferent:
        return msg(QT_TRANSLATE_NOOP("gpusizer",
                                     "The task differs somewhat from what the model does: LoRA on all linear layers "
                                     "usually comes close to full fine-tuning at a fraction of the memory."));
    case R::LittleDataRegularises:
        return msg(QT_TRANSLATE_NOOP("gpusizer", "With little data, fewer trainable parameters also regularise."));
    case R::QualityTradeOffAccepted:
        return msg(QT_TRANSLATE_NOOP(
            "gpusizer", "A small quality trade-off is acceptable: QLoRA stores the base in 4 bits and cuts the "
                        "weights to about a quarter, often to a single smaller card."));
    case R::FullDespiteTradeOff:
        return msg(QT_TRANSLATE_NOOP("gpusizer",
                                     "Even with a quality trade-off allowed, the data and distance favour full "
                                     "fine-tuning; consider LoRA with a high rank if memory is the constraint."));
    case R::ServingAdapters:
        return msg(QT_TRANSLATE_NOOP("gpusizer",
                                     "Serving adapters separately (one base, many adapters) favours LoRA/QLoRA: each "
                                     "adapter is megabytes, not a full checkpoint."));
    }
    return {};
}

Message methodCaveat(core::MethodCaveat c) {
    using C = core::MethodCaveat;
    switch (c) {
    case C::FullCheckpointPerTask:
        return msg(QT_TRANSLATE_NOOP(
            "gpusizer", "Full fine-tuning produces a full checkpoint per task; adapters cannot be swapped."));
    case C::MergeIntoSixteenBit:
        return msg(QT_TRANSLATE_NOOP(
            "gpusizer", "Merge a QLoRA adapter into the 16-bit base model, not into the 4-bit one: merging "
                        "into the quantized weights loses the adapter's precision."));
    case C::CheckHeldOutSet:
        return msg(QT_TRANSLATE_NOOP("gpusizer",
                                     "Check the result against a held-out set: adapters can underfit tasks far from "
                                     "pre-training."));
    }
    return {};
}

Section methodRecommendation(const core::MethodAdvice& advice) {
    Section s;
    s.title = msg(QT_TRANSLATE_NOOP("gpusizer", "Recommended: %1"), methodName(advice.method));
    std::vector<Message> reasons;
    for (auto r : advice.reasons) {
        reasons.push_back(methodReason(r));
    }
    s.bullets(reasons);
    std::vector<Message> caveats;
    for (auto c : advice.caveats) {
        caveats.push_back(msg(QT_TRANSLATE_NOOP("gpusizer", "⚠ %1"), methodCaveat(c)));
    }
    s.bullets(caveats);
    return s;
}

Message sizingLabel(const core::SizingRow& row) {
    return row.sizeClass.empty() ? msg(QT_TRANSLATE_NOOP("gpusizer", "Your model (%1)"), row.modelName)
                                 : msg(QT_TRANSLATE_NOOP("gpusizer", "%1 (%2)"), row.sizeClass, row.modelName);
}

Message sizingCell(const core::SizingCell& cell, bool withLayout) {
    if (cell.gpu == nullptr) {
        return msg(QT_TRANSLATE_NOOP("gpusizer", "none up to %1 cards"), count(core::kMaxCards));
    }
    const std::vector<Message> parts = parallelismParts(cell.layout);
    if (!withLayout || parts.empty()) { // one card has no layout to name: "1 × H100"
        return msg(QT_TRANSLATE_NOOP("gpusizer", "%1 × %2"), count(cell.cards), shortName(*cell.gpu));
    }
    return msg(QT_TRANSLATE_NOOP("gpusizer", "%1 × %2, %3"), count(cell.cards), shortName(*cell.gpu), joined(parts));
}

Message sizingCaption(const core::Scenario& s, const core::PlanInputs& inputs) {
    return msg(QT_TRANSLATE_NOOP("gpusizer", "What the planner rents for each model size and method, with its layout: "
                                             "the same search and ranking as the plan (%1), at %2 tokens × %3 per "
                                             "GPU, each cell's time and cost for %4."),
               objectiveRule(inputs), count(s.seqLen), count(s.microBatch), tokensAssumption(inputs));
}

Table sizingTable(const std::vector<core::SizingRow>& rows) {
    Table t;
    t.columns = {{msg(QT_TRANSLATE_NOOP("gpusizer", "Model size"))},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "Parameters")), Align::Right},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "QLoRA"))},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "LoRA"))},
                 {msg(QT_TRANSLATE_NOOP("gpusizer", "Full fine-tuning"))}};
    for (const auto& row : rows) {
        std::vector<Cell> cells{Cell::of(sizingLabel(row)), Cell::params(row.params)};
        for (const core::SizingCell* c : {&row.qlora, &row.lora, &row.full}) {
            Cell cell = Cell::of(sizingCell(*c, true));
            if (c->gpu != nullptr) {
                cell.withTooltip(msg(QT_TRANSLATE_NOOP("gpusizer", "%1 per GPU of %2 usable; %3; %4, %5"),
                                     gib(c->devicePerGpu), gib(c->gpu->usableBytes()), joined(layoutParts(c->layout)),
                                     duration(c->wallHours), usd(c->costUsd)));
            }
            cells.push_back(cell);
        }
        t.add(std::move(cells), row.modelId);
    }
    return t;
}

namespace {

double hourlyBill(const core::SizingCell& c) {
    return c.gpu != nullptr ? c.usdPerHour : -1.0; // -1: nothing fits
}

} // namespace

Message sizingVocabularyNote(const std::vector<core::SizingRow>& rows, const core::Catalog& catalog) {
    using CellOfRow = const core::SizingCell core::SizingRow::*;
    const std::pair<CellOfRow, Message> columns[] = {{&core::SizingRow::qlora, label(core::Method::Qlora)},
                                                     {&core::SizingRow::lora, label(core::Method::Lora)},
                                                     {&core::SizingRow::full, label(core::Method::Full)}};
    for (const auto& small : rows) {
        for (const auto& large : rows) {
            const auto* smallModel = catalog.findModel(small.modelId);
            const auto* largeModel = catalog.findModel(large.modelId);
            if (smallModel == nullptr || largeModel == nullptr || large.params <= small.params ||
                smallModel->arch.vocabSize <= largeModel->arch.vocabSize) {
                continue;
            }
            for (const auto& [column, method] : columns) {
                const double smallBill = hourlyBill(small.*column);
                const double largeBill = hourlyBill(large.*column);
                if (largeBill >= 0 && smallBill > largeBill) {
                    // A larger model on a cheaper card: the smaller one's vocabulary makes the difference.
                    return msg(QT_TRANSLATE_NOOP("gpusizer", "%1 needs more than %2 with %3: its vocabulary of %4 "
                                                             "tokens against %5 makes its logits (batch × sequence × "
                                                             "vocabulary) larger."),
                               small.modelName, large.modelName, method, count(smallModel->arch.vocabSize),
                               count(largeModel->arch.vocabSize));
                }
            }
        }
    }
    return {};
}

} // namespace gpusizer::present
