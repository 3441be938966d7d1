// Google Benchmark: one estimate, a sweep of 10,000 estimates, the fit table over the catalog.
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/core/Estimate.h"
#include "gpusizer/core/FitTable.h"
#include "gpusizer/core/Planning.h"
#include "gpusizer/core/ScenarioJson.h"

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
    for (auto _ : state) {
        benchmark::DoNotOptimize(gpusizer::core::fitTable(scenario, catalog().gpus));
    }
}
BENCHMARK(FitTableOverCatalog)->Unit(benchmark::kMillisecond);

void FitSearchOverCatalog(benchmark::State& state) {
    auto scenario = gpusizer::core::defaultScenario(catalog());
    const gpusizer::core::PlanInputs inputs;
    for (auto _ : state) {
        benchmark::DoNotOptimize(gpusizer::core::fitSearch(scenario, catalog().gpus, inputs));
    }
}
BENCHMARK(FitSearchOverCatalog)->Unit(benchmark::kMillisecond);

void FitSearch70bFullOverCatalog(benchmark::State& state) {
    auto scenario = gpusizer::core::defaultScenario(catalog());
    const auto* m = catalog().findModel("llama-3.1-70b");
    scenario.modelId = m->id;
    scenario.model = m->arch;
    scenario.method = gpusizer::core::Method::Full;
    const gpusizer::core::PlanInputs inputs;
    for (auto _ : state) {
        benchmark::DoNotOptimize(gpusizer::core::fitSearch(scenario, catalog().gpus, inputs));
    }
}
BENCHMARK(FitSearch70bFullOverCatalog)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
