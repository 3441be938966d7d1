#pragma once
// PyTorch's caching allocator replayed over a training step's tensor allocations, for the
// reserved peak (torch.cuda.max_memory_reserved). docs/design/allocator-replay.md derives it; docs/memory-model.md §6
// says where the estimate uses it.

#include <cstdint>
#include <set>
#include <tuple>
#include <vector>

namespace gpusizer::core {

/// c10/cuda/CUDACachingAllocator.cpp with its defaults (one device, one stream, max_split_size unlimited, no
/// roundup_power2_divisions, expandable_segments off): blocks rounded to 512 B, a small pool for requests up to 1 MiB
/// carved from 2 MiB segments, a large pool whose misses get 20 MiB segments below 10 MiB and 2 MiB-rounded ones
/// above, best fit (smallest free block, then lowest address), splitting, merging within a segment only, and no
/// segment ever returned (nothing here runs out of memory).
class CachingAllocator {
public:
    /// New segments at descending addresses instead of ascending: which of two equal free blocks best fit takes
    /// follows the driver's addresses, which no planner knows, so the replay runs both.
    explicit CachingAllocator(bool descendingAddresses = false) : m_descending(descendingAddresses) {}

    /// A block of at least `bytes`; returns its handle.
    int malloc(std::int64_t bytes);
    /// Returns a block to its pool (a handle below 0 is ignored: "no tensor").
    void free(int block);

    std::int64_t allocated() const { return m_allocated; }
    std::int64_t reserved() const { return m_reserved; }
    std::int64_t allocatedPeak() const { return m_allocatedPeak; }
    std::int64_t reservedPeak() const { return m_reservedPeak; }
    int segments() const { return m_segments; }
    /// The peaks start again from what is in use now (torch.cuda.reset_peak_memory_stats).
    void resetPeaks() {
        m_allocatedPeak = m_allocated;
        m_reservedPeak = m_reserved;
    }

private:
    struct Block {
        std::int64_t size = 0;
        std::int64_t address = 0;
        int prev = -1; ///< the neighbours split from the same segment
        int next = -1;
        bool small = false;
        bool inUse = false;
    };
    using FreeKey = std::tuple<std::int64_t, std::int64_t, int>; // size, address, handle: BlockComparatorSize
    int newBlock(const Block& b);
    int newSegment(std::int64_t size, bool small);
    void mergeInto(int block, int neighbour);

    std::vector<Block> m_blocks;
    std::vector<int> m_spareHandles;
    std::set<FreeKey> m_pools[2]; // [0] large, [1] small
    bool m_descending = false;
    std::int64_t m_nextAddress = 0;
    std::int64_t m_allocated = 0;
    std::int64_t m_reserved = 0;
    std::int64_t m_allocatedPeak = 0;
    std::int64_t m_reservedPeak = 0;
    int m_segments = 0;
};

/// The training step a replay traces: a dense Llama-style decoder (RMSNorm, rotary q/k, gated MLP, SDPA with flash
/// attention) trained one GPU, transformers' own causal-LM loss, AdamW (foreach or fused) and
/// zero_grad(set_to_none=True), bf16 weights or fp32 weights under bf16 autocast, full fine-tuning or PEFT LoRA.
struct ReplayStep {
    std::int64_t hidden = 0;
    std::int64_t intermediate = 0;
    std::int64_t layers = 0;
    std::int64_t heads = 0;
    std::int64_t kvHeads = 0;
    std::int64_t headDim = 0;
    std::int64_t vocab = 0;
    bool tiedEmbeddings = false;
    bool qkvBias = false;
    std::int64_t microBatch = 1;
    std::int64_t seqLen = 0;
    std::int64_t accumulation = 1;
    bool recompute = false;      ///< full activation checkpointing, non-reentrant
    bool autocastFp32 = false;   ///< fp32 weights with bf16 autocast (AMP); otherwise bf16 weights
    bool fusedOptimizer = false; ///< fused AdamW: no foreach temporaries
    bool lora = false;
    std::uint8_t loraTargets = 0; ///< bit i: LinearRole i (q, k, v, o, gate, up, down) carries an adapter
    std::int64_t loraRank = 0;
    bool loraDropout = false;      ///< nn.Dropout before lora_A (its mask and output are saved)
    std::int64_t adapterBytes = 4; ///< PEFT adapters in fp32 (its default) or the model's 16 bits

    bool operator==(const ReplayStep&) const = default;
};

struct ReplayPeaks {
    std::int64_t allocated = 0;
    std::int64_t reserved = 0;
};

/// Two optimizer steps replayed (no traced run peaked later), new segments in ascending and in descending address
/// order; the larger reserved peak of the two. Remembers its last answers per thread: a search asks the same step
/// for every card.
ReplayPeaks replayTrainingStep(const ReplayStep& step);
/// One replay in one address order, `steps` optimizer steps (what the memoised answer is made of; tests).
ReplayPeaks replayTrainingStepOnce(const ReplayStep& step, bool descendingAddresses, int steps = 2);

} // namespace gpusizer::core
