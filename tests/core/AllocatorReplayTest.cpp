// PyTorch's caching allocator as the estimator replays it (c10/cuda/CUDACachingAllocator.cpp @001074d2), and the
// training step it replays (docs/design/allocator-replay.md). Expected figures are worked by hand from the allocator's
// rules and the step's tensor sizes.
#include "gpusizer/memory/AllocatorReplay.h"

#include "ReplaySteps.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/memory/Estimate.h"

#include <gtest/gtest.h>

namespace core = gpusizer::core;

namespace {

constexpr std::int64_t kMiB = 1LL << 20;
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

} // namespace

// round_size and the small pool: one byte takes a 512-byte block of a 2 MiB segment (kSmallBuffer); the next small
// request is carved from the same segment.
TEST(CachingAllocator, ASmallRequestTakesA512ByteBlockOfATwoMebibyteSegment) {
    core::CachingAllocator a;
    a.malloc(1);
    EXPECT_EQ(a.allocated(), 512);
    EXPECT_EQ(a.reserved(), 2 * kMiB);
    a.malloc(1000); // rounds to 1,024
    EXPECT_EQ(a.allocated(), 512 + 1024);
    EXPECT_EQ(a.reserved(), 2 * kMiB);
}

// get_allocation_size: a large request below 10 MiB gets a 20 MiB segment (kLargeBuffer), split because more than
// 1 MiB is left; a second 5 MiB request is served from the 15 MiB remainder without a new segment.
TEST(CachingAllocator, RequestsBelowTenMebibytesShareATwentyMebibyteSegment) {
    core::CachingAllocator a;
    a.malloc(5 * kMiB);
    a.malloc(5 * kMiB);
    EXPECT_EQ(a.allocated(), 10 * kMiB);
    EXPECT_EQ(a.reserved(), 20 * kMiB);
    EXPECT_EQ(a.segments(), 1);
}

// Above 10 MiB the segment is the request rounded up to 2 MiB: 11 MiB asks for 12 MiB, and the 1 MiB tail is not
// split off (the large pool splits only a remainder of more than kSmallSize), so the block handed out is 12 MiB.
TEST(CachingAllocator, ALargeRequestKeepsATailOfOneMebibyteOrLess) {
    core::CachingAllocator a;
    a.malloc(11 * kMiB);
    EXPECT_EQ(a.reserved(), 12 * kMiB);
    EXPECT_EQ(a.allocated(), 12 * kMiB);
}

// get_free_block is best fit: of two free blocks, 40 MiB (the lower address) and 30 MiB, a 25 MiB request takes the
// 30 MiB one; the 40 MiB block then serves a 40 MiB request without a new segment. (First fit by address would split
// the 40 MiB block and need a third segment for the 40 MiB request: 110 MiB.)
TEST(CachingAllocator, BestFitTakesTheSmallestFreeBlockThatFits) {
    core::CachingAllocator a;
    const int forty = a.malloc(40 * kMiB);
    const int thirty = a.malloc(30 * kMiB);
    a.free(thirty);
    a.free(forty);
    a.malloc(25 * kMiB);
    a.malloc(40 * kMiB);
    EXPECT_EQ(a.reserved(), 70 * kMiB);
    EXPECT_EQ(a.segments(), 2);
}

// Freed blocks merge only with neighbours split from the same segment: two free 100 MiB segments cannot serve
// 150 MiB, which takes a third (350 MiB reserved); pieces of one segment freed together serve its whole size again.
TEST(CachingAllocator, BlocksMergeWithinASegmentButNeverAcrossSegments) {
    core::CachingAllocator a;
    const int first = a.malloc(100 * kMiB);
    const int second = a.malloc(100 * kMiB);
    a.free(first);
    a.free(second);
    a.malloc(150 * kMiB);
    EXPECT_EQ(a.reserved(), 350 * kMiB);

    core::CachingAllocator b;
    b.free(b.malloc(100 * kMiB));
    const int front = b.malloc(40 * kMiB); // splits the segment: 40 MiB in use, 60 MiB free
    const int back = b.malloc(60 * kMiB);
    b.free(front);
    b.free(back);
    b.malloc(100 * kMiB);
    EXPECT_EQ(b.reserved(), 100 * kMiB);
    EXPECT_EQ(b.segments(), 1);
}

using gpusizer::testing::llama3bFullCheckpointed;

// docs/design/allocator-replay.md §2: step 0's loss makes four segments (the bf16 logits, 2TV, and three fp32 ones,
// 4TV each); the first optimizer step's lazily created AdamW states fill them, so step 1's loss makes all four again.
// T = 8,192 and V = 128,256 give 2TV = 2,004 MiB and 4TV = 4,008 MiB (both multiples of 2 MiB): the reserved peak of
// two steps exceeds that of one by 2,004 + 3 x 4,008 = 14,028 MiB.
TEST(AllocatorReplay, TheSecondStepReallocatesTheFourLossSegmentsTheStatesFilled) {
    const core::ReplayStep step = llama3bFullCheckpointed();
    const core::ReplayPeaks one = core::replayTrainingStepOnce(step, false, 1);
    const core::ReplayPeaks two = core::replayTrainingStepOnce(step, false, 2);
    EXPECT_EQ(two.reserved - one.reserved, (2004 + 3 * 4008) * kMiB);
    // A third step finds every block it needs cached: the peak stays.
    EXPECT_EQ(core::replayTrainingStepOnce(step, false, 3).reserved, two.reserved);
}

// The same run by hand (§2): after step 0 reserved is about what the first optimizer step needs, weights, gradients,
// states and foreach's sqrt list, 5 x 2 B x 3.2127e9 parameters = 29.92 GiB; step 1 adds the 13.70 GiB of loss
// segments: 43.62 GiB. Measured on the H200: 43.86 GiB (calibration/h200).
TEST(AllocatorReplay, FullFineTuningWithCheckpointingReservesFortyPercentAboveItsAllocatedPeak) {
    const core::ReplayPeaks peaks = core::replayTrainingStep(llama3bFullCheckpointed());
    const double parameters = 3.2127e9;
    const double handReserved = (5.0 * 2.0 * parameters + (2004.0 + 3.0 * 4008.0) * kMiB) / kGiB;
    EXPECT_NEAR(static_cast<double>(peaks.reserved) / kGiB, handReserved, 0.01 * handReserved);
    EXPECT_NEAR(static_cast<double>(peaks.reserved) / kGiB, 43.86, 0.05 * 43.86);
    // Allocated, measured 31.26 GiB: states (11.97 GiB) plus what is live at step 0's loss.
    EXPECT_NEAR(static_cast<double>(peaks.allocated) / kGiB, 31.26, 0.02 * 31.26);
}

// Fused AdamW allocates no state-sized sqrt list: the first step needs one parameter-sized copy less (5.98 GiB) and the
// reserved peak is lower.
TEST(AllocatorReplay, FusedAdamWReservesLessThanForeach) {
    core::ReplayStep step = llama3bFullCheckpointed();
    const core::ReplayPeaks foreach = core::replayTrainingStepOnce(step, false);
    step.fusedOptimizer = true;
    const core::ReplayPeaks fused = core::replayTrainingStepOnce(step, false);
    EXPECT_LT(fused.reserved, foreach.reserved);
    EXPECT_EQ(fused.allocated, foreach.allocated); // the peak is at the loss, before either step runs
}

namespace {

core::Scenario llama3bScenario() {
    core::Scenario s;
    s.model = gpusizer::catalogs::loadCatalogs().catalog.findModel("llama-3.2-3b")->arch;
    s.method = core::Method::Full;
    s.microBatch = 2;
    s.seqLen = 4096;
    s.checkpointing = core::Checkpointing::Full;
    return s;
}

} // namespace

// The estimate shows the replayed reserve where the trace follows the run, and says what the fit uses; a search
// (NumbersOnly) and a run the trace does not follow (ZeRO-3 over 8 GPUs) keep the allocated peak plus 5%.
TEST(AllocatorReplay, TheEstimateReportsTheReplayedReserveBesideTheOneTheFitUses) {
    const core::Scenario s = llama3bScenario();
    const core::Estimate e = core::estimate(s);
    EXPECT_EQ(e.reservedWithRoomBytes,
              core::replayTrainingStep(llama3bFullCheckpointed()).reserved + 32 * kMiB); // + cuBLAS workspace
    EXPECT_EQ(e.measuredReservedBytes(), e.reservedWithRoomBytes);
    EXPECT_NEAR(static_cast<double>(e.reservedPeakBytes), static_cast<double>(e.allocatedPeakBytes) * 1.05, 1.0);
    const bool said = std::any_of(e.assumptions.begin(), e.assumptions.end(), [](const core::Words& w) {
        return w.english().find("On a card with room the caching allocator keeps up to") != std::string::npos;
    });
    EXPECT_TRUE(said);

    EXPECT_EQ(core::estimate(s, core::Detail::NumbersOnly).reservedWithRoomBytes, 0);
    core::Scenario sharded = s;
    sharded.gpus = 8;
    sharded.sharding = core::Sharding::Zero3;
    const core::Estimate z3 = core::estimate(sharded);
    EXPECT_EQ(z3.reservedWithRoomBytes, 0);
    EXPECT_EQ(z3.measuredReservedBytes(), z3.reservedPeakBytes);
}

// From the second micro-batch of an accumulation on, each starts from the same blocks (the gradients held, the rest
// freed), which is why the estimate replays at most four: eight give the same peaks as four.
TEST(AllocatorReplay, MicroBatchesBeyondTheFourthRepeatTheFourth) {
    core::ReplayStep step = llama3bFullCheckpointed();
    step.microBatch = 1;
    step.seqLen = 2048;
    step.accumulation = 4;
    const core::ReplayPeaks four = core::replayTrainingStepOnce(step, false);
    step.accumulation = 8;
    const core::ReplayPeaks eight = core::replayTrainingStepOnce(step, false);
    EXPECT_EQ(eight.reserved, four.reserved);
    EXPECT_EQ(eight.allocated, four.allocated);
}
