#pragma once
// Steps the caching-allocator replay is tested and benchmarked on, with the runs of calibration/h200 they are.

#include "gpusizer/memory/AllocatorReplay.h"

namespace gpusizer::testing {

/// Llama-3.2-3B (config.json: hidden 3072, intermediate 8192, 28 layers, 24 heads, 8 kv heads, vocab 128,256, tied),
/// full fine-tuning in bf16 with checkpointing at 2 x 4,096 tokens: the h200-l3b-full-gc-b2-s4096 run.
inline core::ReplayStep llama3bFullCheckpointed() {
    return {.hidden = 3072,
            .intermediate = 8192,
            .layers = 28,
            .heads = 24,
            .kvHeads = 8,
            .headDim = 128,
            .vocab = 128256,
            .tiedEmbeddings = true,
            .microBatch = 2,
            .seqLen = 4096,
            .recompute = true};
}

/// Llama-3.1-8B, LoRA r 64 on every linear in fp32, no dropout, checkpointing, 4 x 2,048 tokens: the
/// h200-l8b-lora-all-r64-gc-b4-s2048 run.
inline core::ReplayStep llama8bLoraEveryLinear() {
    return {.hidden = 4096,
            .intermediate = 14336,
            .layers = 32,
            .heads = 32,
            .kvHeads = 8,
            .headDim = 128,
            .vocab = 128256,
            .microBatch = 4,
            .seqLen = 2048,
            .recompute = true,
            .lora = true,
            .loraTargets = 0x7f,
            .loraRank = 64};
}

} // namespace gpusizer::testing
