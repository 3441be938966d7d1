// DeepSpeed ZeRO-3's parameter coordinator (deepspeed/runtime/zero/partitioned_param_coordinator.py, v0.13.2 and
// @edaa7221): fetch_sub_module gathers the module's own parameters, then prefetches along the recorded trace while
// fewer than min(stage3_max_live_parameters - gathered, stage3_prefetch_bucket_size) elements are in flight (L353-377);
// release_sub_module keeps a parameter whose popped later use is pending or that recurs before the scan from the
// next fetch has passed stage3_max_reuse_distance elements (__params_to_release, L487-518). Traces worked by hand.
#include "gpusizer/memory/ZeroFetch.h"

#include "TestModels.h"
#include "gpusizer/import/TrainingConfig.h"
#include "gpusizer/memory/Estimate.h"

#include <array>
#include <gtest/gtest.h>
#include <span>
#include <tuple>

using namespace gpusizer;
using core::Component;

// Two layers of two 4e8-element modules a, b, a 1e8 output projection h, checkpointed, no prefetch. The trace:
//  0 a0  1 b0  2 a1  3 b1  4 h(fwd)  5 h(bwd)  6 a1  7 b1 (recompute)  8 b1  9 a1 (backward)  10 a0 11 b0  12 b0 13 a0
// Reuse distance 1e9: a1 at 2 recurs at 6 after b1 + h + h = 6e8 < 1e9, kept; b1 at 3 recurs at 7 after 6e8, kept;
// a0 at 0 recurs at 10 after more than 1e9, released. At the loss (4): a1 + b1 + h = 9e8, held through h's backward
// (5, part of the loss); in the layers' backward (from 6) h is gone: a1 + b1 = 8e8, then a0 + b0 = 8e8.
// Reuse distance 5e8: the scan from 3 passes b1 (4e8) and h (5e8) and stops: a1 and b1 go after their forward; at the
// loss only h (1e8); in backward each module alone, at most 4e8.
TEST(ZeroFetch, RecomputedLayersStayGatheredFromForwardWithinTheReuseDistance) {
    const std::array<double, 2> layer{4e8, 4e8};
    const core::ZeroStepTrace trace{.layerModules = layer, .layers = 2, .head = 1e8, .recompute = true};
    const auto kept = core::zeroGatheredElements(trace, {.prefetchBucket = 0, .maxReuseDistance = 1e9});
    EXPECT_DOUBLE_EQ(kept.atLoss, 9e8);
    EXPECT_DOUBLE_EQ(kept.inBackward, 8e8);
    EXPECT_DOUBLE_EQ(kept.most, 9e8);
    const auto released = core::zeroGatheredElements(trace, {.prefetchBucket = 0, .maxReuseDistance = 5e8});
    EXPECT_DOUBLE_EQ(released.atLoss, 1e8);
    EXPECT_DOUBLE_EQ(released.inBackward, 4e8);
}

// Calls without partitioned parameters (z) prefetch too. Layers {z, A, z, B} of 3e8-element A and B, three layers,
// no checkpointing, prefetch bucket 1e8, max live 5e8, reuse distance 0 (every module released after use).
//  t0 z: prefetch A0 (3e8).  t1 A0: budget min(5e8 - 3e8, 1e8) > 0, prefetch B0: 6e8; A0 released: 3e8.
//  t2 z: prefetch A1: 6e8.   t3 B0: budget 5e8 - 6e8 < 0, nothing; released: 3e8. ... and so on: the prefetch runs
// one module past max live (6e8), the module's own fetch ignoring the limit; in backward the same 6e8 (B2 released
// at once and fetched again next to the prefetched A2).
TEST(ZeroFetch, PrefetchRunsAheadUntilMaxLiveParametersOnCallsWithoutParameters) {
    const std::array<double, 4> layer{0, 3e8, 0, 3e8};
    const core::ZeroStepTrace trace{.layerModules = layer, .layers = 3, .head = 0, .recompute = false};
    const auto g =
        core::zeroGatheredElements(trace, {.prefetchBucket = 1e8, .maxReuseDistance = 0, .maxLiveParameters = 5e8});
    EXPECT_DOUBLE_EQ(g.most, 6e8);
    EXPECT_DOUBLE_EQ(g.inBackward, 6e8);
    // Max live 0: no prefetch at all; each module is gathered alone.
    const auto alone =
        core::zeroGatheredElements(trace, {.prefetchBucket = 1e8, .maxReuseDistance = 0, .maxLiveParameters = 0});
    EXPECT_DOUBLE_EQ(alone.most, 3e8);
}

namespace {

core::Scenario deepspeedLora7b() {
    core::Scenario s = fixtures::lora7b();
    s.framework = core::Framework::Deepspeed;
    s.gpus = 8;
    s.sharding = core::Sharding::Zero3;
    s.shardingEngine = core::ShardingEngine::Deepspeed;
    s.overrides.zeroMaxLiveParameters = 0; // no prefetch
    return s;
}

} // namespace

// Llama-2-7B per layer: q, k, v, o 4096 x 4096 = 16,777,216 each; gate, up, down 4096 x 11008 = 45,088,768 each
// (202,375,168 a layer, 6,476,005,376 over 32 layers); lm_head 32000 x 4096 = 131,072,000. LoRA's 4096 x 8 tensors are
// under the 1e5 persistence threshold. Reuse distance 0: only the module computing is gathered, at most a 45,088,768
// gate / up / down. Reuse distance past the whole trace: nothing is ever released, and from the first backward call
// every linear and lm_head are gathered: 6,607,077,376 elements, all of them already at the loss, where reuse
// distance 0 holds lm_head alone. The peak is at the loss either way; in bf16 the difference there is
// (6,607,077,376 - 131,072,000) x 2 B = 12,952,010,752 B of transient.
TEST(ZeroFetch, AnUnboundedReuseDistanceKeepsTheWholeModelGathered) {
    auto s = deepspeedLora7b();
    s.overrides.zeroMaxReuseDistance = 0;
    const auto released = core::estimate(s);
    s.overrides.zeroMaxReuseDistance = 1e15;
    const auto kept = core::estimate(s);
    ASSERT_EQ(released.peakMoment, core::PeakMoment::ForwardEnd);
    ASSERT_EQ(kept.peakMoment, core::PeakMoment::ForwardEnd);
    EXPECT_NEAR(static_cast<double>(kept.perGpu[Component::Transient] - released.perGpu[Component::Transient]),
                12'952'010'752.0, 4.0);
}

// DeepSpeed reads the limits under their aliases or their field names (zero/config.py; Axolotl's current
// deepspeed_configs/zero3_bf16.json writes max_live_parameters: 0, max_reuse_distance: 0).
TEST(ZeroFetch, TheDeepspeedConfigsLimitsAreRead) {
    core::ImportRequest r;
    r.files = {{"ds.json",
                R"({"zero_optimization": {"stage": 3, "max_live_parameters": 0,
                    "stage3_max_reuse_distance": 3e8}, "bf16": {"enabled": true}})",
                core::ConfigFormat::Deepspeed}};
    r.modelConfig = core::ConfigFile{"config.json",
                                     R"({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
                                         "num_attention_heads": 32, "intermediate_size": 11008,
                                         "vocab_size": 32000})",
                                     std::nullopt};
    const auto run = core::importTrainingConfigs(r, fixtures::catalog());
    ASSERT_TRUE(run) << run.error().message();
    EXPECT_EQ(run->scenario.overrides.zeroMaxLiveParameters, 0.0);
    EXPECT_EQ(run->scenario.overrides.zeroMaxReuseDistance, 3e8);
}

// The replay covers only the layers the coordinator can see from the loss and one steady layer of backward, checked
// against two more; every layer's replay gives the same three figures (Llama-2-70B and -7B layers, a sparse layer that
// ramps slowly, with and without checkpointing, DeepSpeed's limits, a small bucket and smaller limits).
TEST(ZeroFetch, TheLastLayersDecideThePeaks) {
    const double h70 = 8192, f70 = 28672, kv70 = 1024;
    const std::array<double, 10> llama70{0,         h70 * h70, h70 * kv70, h70 * kv70, 0,
                                         h70 * h70, 0,         h70 * f70,  h70 * f70,  f70 * h70};
    const double h7 = 4096, f7 = 11008;
    const std::array<double, 10> llama7{0, h7 * h7, h7 * h7, h7 * h7, 0, h7 * h7, 0, h7 * f7, h7 * f7, f7 * h7};
    // Few calls per layer and a small bucket: the prefetch ramps towards max live over more layers than it reaches.
    const std::array<double, 9> sparse{8.39e6, 1.05e6, 1.05e6, 8.39e6, 0, 0, 29.4e6, 29.4e6, 29.4e6};
    for (const auto& [layer, layers, head] : {std::tuple{std::span<const double>(llama70), 80, 32000 * h70},
                                              std::tuple{std::span<const double>(llama7), 32, 32000 * h7},
                                              std::tuple{std::span<const double>(sparse), 60, 311e6}}) {
        for (bool recompute : {true, false}) {
            for (const core::ZeroFetchLimits limits :
                 {core::ZeroFetchLimits{}, core::ZeroFetchLimits{.prefetchBucket = 1e6},
                  core::ZeroFetchLimits{.prefetchBucket = 1e7, .maxReuseDistance = 3e8, .maxLiveParameters = 2e8}}) {
                core::ZeroStepTrace window{
                    .layerModules = layer, .layers = layers, .head = head, .recompute = recompute};
                core::ZeroStepTrace every = window;
                every.everyLayer = true;
                const auto a = core::zeroGatheredElements(window, limits);
                const auto b = core::zeroGatheredElements(every, limits);
                EXPECT_EQ(a.inBackward, b.inBackward) << layers << " layers, recompute " << recompute;
                EXPECT_EQ(a.atLoss, b.atLoss) << layers << " layers, recompute " << recompute;
                EXPECT_EQ(a.most, b.most) << layers << " layers, recompute " << recompute;
            }
        }
    }
}
