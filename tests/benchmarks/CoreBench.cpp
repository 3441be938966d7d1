// Google Benchmark: one estimate, a sweep of 10,000 estimates, the fit table over the catalog, the advisor.
#include "../core/ReplaySteps.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/memory/AllocatorReplay.h"
#include "gpusizer/memory/Estimate.h"
#include "gpusizer/memory/ZeroFetch.h"
#include "gpusizer/plan/Advisor.h"
#include "gpusizer/plan/FitTable.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <array>
#include <benchmark/benchmark.h>

namespace {

const gpusizer::core::Catalog& catalog() {
    static const auto loaded = gpusizer::catalogs::loadCatalogs();
    return loaded.catalog;
}

void OneEstimate(benchmark::State& state) {
    const auto scenario = gpusizer::core::defaultScenario(catalog());
    for (auto _ : state) {
        benchmark::DoNotOptimize(gpusizer::core::estimate(scenario));
    }
}
BENCHMARK(OneEstimate);

void OneEstimateNumbersOnly(benchmark::State& state) {
    const auto scenario = gpusizer::core::defaultScenario(catalog());
    for (auto _ : state) {
        benchmark::DoNotOptimize(gpusizer::core::estimate(scenario, gpusizer::core::Detail::NumbersOnly));
    }
}
BENCHMARK(OneEstimateNumbersOnly);

// DeepSpeed ZeRO-3's coordinator replay for a Llama-2-70B LoRA run (the peft-docs-ds-01 layout), never from the memo:
// each iteration asks with another prefetch bucket.
void ZeroFetchReplay70b(benchmark::State& state) {
    const double h = 8192, f = 28672, kv = 1024;
    const std::array<double, 22> layer{0, 0, 0, 0,      h * h, 0,     0, 0, 0,     h * kv, 0,
                                       0, 0, 0, h * kv, 0,     h * h, 0, 0, h * f, h * f,  f * h};
    double bucket = 5e7;
    for (auto _ : state) {
        bucket += 1.0;
        benchmark::DoNotOptimize(gpusizer::core::zeroGatheredElements(
            {.layerModules = layer, .layers = 80, .head = 32000 * h, .recompute = true}, {.prefetchBucket = bucket}));
    }
}
BENCHMARK(ZeroFetchReplay70b);

// The caching-allocator replay of one step, never from the memo: both address orders, two optimizer steps. Llama-3.2-3B
// full fine-tuning with checkpointing at 2 x 4,096 tokens (the h200-l3b-full-gc-b2-s4096 run) and Llama-3.1-8B LoRA
// on every linear at 4 x 2,048 (h200-l8b-lora-all-r64-gc-b4-s2048).
void AllocatorReplay(benchmark::State& state, gpusizer::core::ReplayStep step) {
    for (auto _ : state) {
        benchmark::DoNotOptimize(gpusizer::core::replayTrainingStepOnce(step, false));
        benchmark::DoNotOptimize(gpusizer::core::replayTrainingStepOnce(step, true));
    }
}
BENCHMARK_CAPTURE(AllocatorReplay, llama3b_full_gc_2x4096, gpusizer::testing::llama3bFullCheckpointed())
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(AllocatorReplay, llama8b_lora_all_4x2048, gpusizer::testing::llama8bLoraEveryLinear())
    ->Unit(benchmark::kMillisecond);

void TenThousandEstimates(benchmark::State& state) {
    auto scenario = gpusizer::core::defaultScenario(catalog());
    for (auto _ : state) {
        std::int64_t sum = 0;
        for (int i = 0; i < 10'000; ++i) {
            scenario.seqLen = 128 + i * 13;
            scenario.microBatch = 1 + i % 16;
            sum += gpusizer::core::estimate(scenario).deviceBytes;
        }
        benchmark::DoNotOptimize(sum);
    }
}
BENCHMARK(TenThousandEstimates)->Unit(benchmark::kMillisecond);

void FitTableOverCatalog(benchmark::State& state) {
    const auto scenario = gpusizer::core::defaultScenario(catalog());
    const gpusizer::core::PlanInputs inputs;
    for (auto _ : state) {
        benchmark::DoNotOptimize(gpusizer::core::fitTable(scenario, catalog().gpus, inputs));
    }
}
BENCHMARK(FitTableOverCatalog)->Unit(benchmark::kMillisecond);

// The Advisor tab's two computations for the default scenario: the OOM ladder on an RTX 4090 and the sizing table.
void AdviseOomDefault(benchmark::State& state) {
    const auto scenario = gpusizer::core::defaultScenario(catalog());
    const auto& gpu = *catalog().findGpu("rtx-4090");
    for (auto _ : state) {
        benchmark::DoNotOptimize(gpusizer::core::adviseOom(scenario, gpu));
    }
}
BENCHMARK(AdviseOomDefault)->Unit(benchmark::kMillisecond);

void SizingTableDefault(benchmark::State& state) {
    const auto scenario = gpusizer::core::defaultScenario(catalog());
    for (auto _ : state) {
        benchmark::DoNotOptimize(gpusizer::core::sizingTable(scenario, catalog()));
    }
}
BENCHMARK(SizingTableDefault)->Unit(benchmark::kMillisecond);

void PlanOverCatalog(benchmark::State& state, const char* modelId, gpusizer::core::Method method,
                     std::int64_t globalBatch) {
    auto scenario = gpusizer::core::defaultScenario(catalog());
    const auto* m = catalog().findModel(modelId);
    scenario.modelId = m->id;
    scenario.model = m->arch;
    scenario.method = method;
    // The global batch bounds the data-parallel degree: a large one opens the most layouts to the search.
    scenario.microBatch = 1;
    scenario.gradientAccumulation = globalBatch;
    const gpusizer::core::PlanInputs inputs;
    std::int64_t candidates = 0;
    for (auto _ : state) {
        const auto plans = gpusizer::core::planCatalog(scenario, catalog().gpus, inputs);
        candidates = 0;
        for (const auto& p : plans) {
            candidates += p.candidatesTried;
        }
        benchmark::DoNotOptimize(plans);
    }
    state.counters["candidates"] = static_cast<double>(candidates);
}
// The whole search (every GPU x counts up to 1,024 x layouts x batch splits) for the default LoRA run (4 sequences per
// step), a 70B full fine-tune with 64 and a 671B MoE full fine-tune with 256 (issue 14's budget: 10 ms each, one core).
BENCHMARK_CAPTURE(PlanOverCatalog, default_8b_lora_batch4, "llama-3.1-8b", gpusizer::core::Method::Lora, 4)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PlanOverCatalog, llama70b_full_batch64, "llama-3.1-70b", gpusizer::core::Method::Full, 64)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(PlanOverCatalog, deepseek_v3_671b_full_batch256, "deepseek-v3", gpusizer::core::Method::Full, 256)
    ->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
