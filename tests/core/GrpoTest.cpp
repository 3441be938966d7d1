// GRPO as TRL's GRPOTrainer runs it (huggingface/trl @f2cd5771, docs/memory-model.md §9): the KV cache of the
// generation batch, vLLM's share of the card in colocate mode with and without sleep mode, logits over the completion
// only, the reference model with a KL term, the batch checks and the generation time's floor. Expected values are
// derived by hand in each test.
#include "TestModels.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/plan/Advisor.h"
#include "gpusizer/plan/FitTable.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/plan/Planning.h"
#include "gpusizer/scenario/Catalog.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

using namespace gpusizer;
using core::Component;

namespace {

constexpr std::int64_t kLlama31_8b = 8'030'261'248;

// Llama-3.1-8B LoRA GRPO: 4 completions per micro-batch, 2 accumulation steps (TRL's generation batch: 8 completions
// per GPU), sequences of 512 prompt + 1024 completion tokens.
core::Scenario grpo(core::Generation generation) {
    core::Scenario s;
    s.model = fixtures::llama31_8b();
    s.method = core::Method::Lora;
    s.precision = core::Precision::Bf16;
    s.runKind = core::RunKind::Grpo;
    s.microBatch = 4;
    s.gradientAccumulation = 2;
    s.seqLen = 1536;
    s.completionLength = 1024;
    s.numGenerations = 8;
    s.generation = generation;
    s.checkpointing = core::Checkpointing::Full;
    return s;
}

const core::GpuSpec& h100() {
    static const core::Catalog c = catalogs::loadCatalogs().catalog;
    return *c.findGpu("h100-sxm");
}

} // namespace

// transformers' generate (and vLLM's paged cache) keep 2 x layers x key/value heads x head dim 16-bit values per
// token: 2 x 32 x 8 x 128 x 2 = 131,072 B for Llama-3.1-8B; 8 completions x 1536 tokens = 1,610,612,736 B.
TEST(Grpo, TheGenerationBatchKeepsItsKvCache) {
    const auto e = core::estimate(grpo(core::Generation::Transformers));
    EXPECT_TRUE(e.generates);
    EXPECT_EQ(e.generationKvCacheBytes, 1'610'612'736);
    // Logits and log-probs cover the completion only (logits_to_keep): 12 B x 4 x 1024 x 128,256 = 6,304,038,912 B.
    EXPECT_EQ(e.logitsBytesAtLoss, 6'304'038'912);
}

// Colocate: vLLM reserves gpu_memory_utilization x the card's memory at start-up (gpu_worker.py requested_memory) and
// keeps it through training; with sleep mode TRL frees it after each generation, so the trainer's step and the
// generation peak apart.
TEST(Grpo, ColocatedVllmHoldsItsShareOfTheCardUnlessItSleeps) {
    auto awake = grpo(core::Generation::VllmColocate);
    core::placeOnCard(awake, h100());
    const std::int64_t share = std::llround(0.3 * static_cast<double>(h100().usableBytes()));
    const auto e = core::estimate(awake);
    EXPECT_EQ(e.vllmShareBytes, share);
    EXPECT_EQ(e.vllmWeightsBytes, 2 * kLlama31_8b); // its own 16-bit copy, whole on every GPU (vLLM TP 1)
    EXPECT_EQ(e.perGpu[Component::Generation], share);
    EXPECT_NE(e.peakMoment, core::PeakMoment::Generation);
    // The smallest share holds the weights and the KV cache: (16,060,522,496 + 1,610,612,736) B of the card.
    EXPECT_DOUBLE_EQ(e.vllmSmallestShare,
                     (16'060'522'496.0 + 1'610'612'736.0) / static_cast<double>(h100().usableBytes()));
    EXPECT_GT(e.vllmLargestShare, e.vllmSmallestShare);

    auto asleep = awake;
    asleep.vllmSleepMode = true;
    const auto slept = core::estimate(asleep);
    // Asleep during the step: the peak is the generation, with the trainer's weights and the share, nothing of the
    // step's activations or logits.
    EXPECT_EQ(slept.peakMoment, core::PeakMoment::Generation);
    EXPECT_EQ(slept.perGpu[Component::Generation], share);
    EXPECT_EQ(slept.perGpu[Component::Activations], 0);
    EXPECT_EQ(slept.perGpu[Component::LogitsLoss], 0);
    EXPECT_LT(slept.deviceBytes, e.deviceBytes);

    // A share too small for the weights is sized at what vLLM needs.
    auto tiny = awake;
    tiny.vllmMemoryUtilization = 0.05;
    EXPECT_EQ(core::estimate(tiny).vllmShareBytes, 16'060'522'496 + 1'610'612'736);
}

// beta != 0 loads a reference model (a frozen copy under full fine-tuning); TRL's default beta = 0 loads none.
TEST(Grpo, AKlTermKeepsAReferenceModel) {
    auto full = grpo(core::Generation::Transformers);
    full.method = core::Method::Full;
    EXPECT_EQ(core::estimate(full).referenceModelBytes, 0);
    full.klBeta = 0.04;
    EXPECT_EQ(core::estimate(full).referenceModelBytes, 2 * kLlama31_8b);
}

// GRPOConfig's checks: the global generation batch divides by num_generations; seq_len is prompt + completion.
TEST(Grpo, TheBatchMustHoldWholeGroupsOfCompletions) {
    auto s = grpo(core::Generation::Transformers);
    s.numGenerations = 16; // 4 x 2 x 1 GPU = 8 completions: half a group
    auto refused = core::validate(s);
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().where, "num_generations");
    s.gpus = 2; // 16 completions over two GPUs: one group
    EXPECT_TRUE(core::validate(s).has_value());
    s.completionLength = 1536; // no prompt left
    refused = core::validate(s);
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().where, "completion_length");
}

// Decoding 1024 tokens reads the 16-bit weights once per token: at least 1024 x 16,060,522,496 B / 3.35 TB/s = 4.91 s
// per optimizer step on an H100 SXM, before the cache reads and the prefill; a small batch stays near that floor.
TEST(Grpo, GenerationTimeIsBoundByReadingTheWeightsPerToken) {
    auto s = grpo(core::Generation::VllmColocate);
    core::placeOnCard(s, h100());
    const auto t = core::stepTime(s, h100(), core::PlanInputs{});
    const double floor = 1024.0 * 16'060'522'496.0 / 3.35e12;
    EXPECT_GE(t.generationSeconds, floor);
    EXPECT_LT(t.generationSeconds, 1.5 * floor);
    EXPECT_GT(t.stepSeconds, t.generationSeconds);
}

// The advisor puts colocated vLLM to sleep before changing the method: the same training, and the share no longer
// sits beside the step's activations and logits.
TEST(Grpo, TheAdvisorPutsAnAwakeVllmToSleep) {
    auto s = grpo(core::Generation::VllmColocate);
    s.method = core::Method::Full;
    s.microBatch = 8;
    s.gradientAccumulation = 1;
    const auto& card = h100();
    core::placeOnCard(s, card);
    const auto advice = core::adviseOom(s, card);
    ASSERT_FALSE(advice.fitsAlready);
    const auto step = std::find_if(advice.steps.begin(), advice.steps.end(),
                                   [](const core::FixStep& f) { return f.kind == core::FixKind::VllmSleepMode; });
    ASSERT_NE(step, advice.steps.end());
    ASSERT_TRUE(step->applicable);
    EXPECT_TRUE(step->scenarioAlone.vllmSleepMode);
    EXPECT_GT(step->savingAlone, 0);
}

// Eight GPUs of 4 completions make 32, four groups of 8: a valid run although one GPU's 4 are half a group. The
// planner checks a layout on one card without GRPO's groups, which every layout of the same global batch keeps.
TEST(Grpo, ThePlannerPlacesARunWhoseGroupsSpanGpus) {
    auto s = grpo(core::Generation::VllmColocate);
    s.gpus = 8;
    s.gradientAccumulation = 1;
    ASSERT_TRUE(core::validate(s).has_value());
    const auto plan = core::planOnCard(s, h100(), core::PlanInputs{});
    EXPECT_TRUE(plan.found);
}

// The advisor keeps KTO at two examples per micro-batch (each example's KL completion is another's) and halves
// GRPO's completion with its sequence, so every scenario it proposes is one the trainers run.
TEST(Grpo, AdvisedScenariosStayValid) {
    auto kto = grpo(core::Generation::Transformers);
    kto.runKind = core::RunKind::Kto;
    kto.microBatch = 8;
    kto.seqLen = 4096;
    const auto& card = *fixtures::catalog().findGpu("rtx-4090");
    for (const auto& s : {kto, grpo(core::Generation::Transformers)}) {
        const auto advice = core::adviseOom(s, card);
        for (const auto& step : advice.steps) {
            if (step.applicable) {
                EXPECT_TRUE(core::validate(step.scenarioAlone).has_value())
                    << core::toString(s.runKind) << ": " << core::toString(step.kind);
            }
        }
    }
    // KTO's smaller micro-batch: 8 -> 2 with four times the accumulation.
    const auto advice = core::adviseOom(kto, card);
    const auto smaller = std::find_if(advice.steps.begin(), advice.steps.end(), [](const core::FixStep& f) {
        return f.kind == core::FixKind::SmallerMicroBatch;
    });
    ASSERT_NE(smaller, advice.steps.end());
    EXPECT_EQ(smaller->scenarioAlone.microBatch, 2);
    EXPECT_EQ(smaller->scenarioAlone.gradientAccumulation, 2 * 4);
}

// The one-card searches stay within runs of this kind: a GRPO sequence holds its completion and at least one prompt
// token, so the longest sequence is 0 (none fits) or above completion_length, never the 1..1024 a supervised run of the
// same shape would report.
TEST(Grpo, TheLongestSequenceOnOneCardKeepsTheCompletion) {
    core::Scenario s = grpo(core::Generation::Transformers);
    s.gradientAccumulation = 1;
    s.microBatch = 8;
    const auto usable = h100().usableBytes();
    for (const std::int64_t completion : {1024, 65536}) {
        s.completionLength = completion;
        s.seqLen = completion + 512;
        const std::int64_t longest = core::longestSequenceThatFits(s, usable);
        EXPECT_TRUE(longest == 0 || longest > completion) << completion << ": " << longest;
    }
    // With a 65,536-token completion nothing fits one H100, though a supervised run of the same shape would.
    core::Scenario sft = s;
    sft.runKind = core::RunKind::Sft;
    EXPECT_GT(core::longestSequenceThatFits(sft, usable), 0);
    EXPECT_LT(core::longestSequenceThatFits(sft, usable), 65536);
    EXPECT_EQ(core::longestSequenceThatFits(s, usable), 0);
}

// A vLLM server's GPUs are rented beside the trainer's for the whole run: the plan's GPU-hours are the billed wall time
// x (training GPUs + server GPUs), 2 + 2 here against 2 in colocate mode for the same wall time.
TEST(Grpo, TheServersGpusAreBilled) {
    core::Scenario s = grpo(core::Generation::VllmServer);
    s.gpus = 2;
    s.vllmGpus = 2;
    const core::PlanInputs in;
    const core::CostPlan plan = core::costPlan(s, h100(), in);
    const double billedHours = h100().billing.billed(plan.wallHours * 3600.0) / 3600.0;
    EXPECT_DOUBLE_EQ(plan.gpuHours, billedHours * 4.0);
    EXPECT_EQ(core::rentedGpus(s), 4);
    s.generation = core::Generation::VllmColocate;
    EXPECT_EQ(core::rentedGpus(s), 2);
}

// trl vllm-serve gives vLLM 90% of each of its GPUs (--gpu_memory_utilization 0.9, trl/scripts/vllm_serve.py): of an
// H100 SXM's 79.1 usable GiB, 71.19 GiB = 0.9 x 84,932,978,278 B = 76,439,680,450 B. Llama-3.1-70B's 70,553,706,496
// parameters are 141,107,412,992 B in 16 bits (131.42 GiB): one server GPU cannot load them at any training count, two
// (65.71 GiB each) can.
TEST(Grpo, TheServersGpusMustLoadTheWeights) {
    static const core::Catalog catalog = catalogs::loadCatalogs().catalog;
    core::Scenario s = grpo(core::Generation::VllmServer);
    s.modelId = "llama-3.1-70b";
    s.model = catalog.findModel(s.modelId)->arch;
    s.vllmGpus = 1;
    const core::PlanInputs in;
    const core::CardPlan one = core::planOnCard(s, h100(), in);
    EXPECT_FALSE(one.found);
    ASSERT_TRUE(one.fewerCards.has_value());
    EXPECT_EQ(one.fewerCards->why, core::Infeasible::VllmServer);
    EXPECT_EQ(one.fewerCards->estimate.vllmWeightsBytes, 141'107'412'992);
    EXPECT_NEAR(static_cast<double>(one.fewerCards->vllmServerBudgetBytes), 76'439'680'450.0, 1.0);
    EXPECT_EQ(one.fewerCards->vllmServerGpusNeeded, 2);

    s.vllmGpus = 2;
    const core::CardPlan two = core::planOnCard(s, h100(), in);
    ASSERT_TRUE(two.found);
    EXPECT_EQ(two.best.estimate.vllmWeightsBytes, 70'553'706'496);
    EXPECT_EQ(core::rentedGpus(two.best.scenario), two.best.scenario.gpus + 2);
}
