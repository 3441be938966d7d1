#include "gpusizer/memory/AllocatorReplay.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <limits>

namespace gpusizer::core {

namespace {

// c10/cuda/CUDACachingAllocator.cpp @001074d2, the constants at the top of the file.
constexpr std::int64_t kMiB = 1LL << 20;
constexpr std::int64_t kMinBlockSize = 512;     // every request is rounded up to a multiple of this
constexpr std::int64_t kSmallSize = kMiB;       // largest request served from the small pool
constexpr std::int64_t kSmallBuffer = 2 * kMiB; // a small-pool segment
constexpr std::int64_t kMinLargeAlloc = 10 * kMiB;
constexpr std::int64_t kLargeBuffer = 20 * kMiB; // the segment of a large-pool request below kMinLargeAlloc
constexpr std::int64_t kRoundLarge = 2 * kMiB;
/// Separates segments in the replay's address space so that no two ever touch (cudaMalloc's ranges are disjoint).
constexpr std::int64_t kSegmentGap = 1LL << 30;
constexpr std::int64_t kAddressTop = 1LL << 60;

std::int64_t roundUp(std::int64_t n, std::int64_t unit) {
    return (n + unit - 1) / unit * unit;
}

/// round_size.
std::int64_t roundSize(std::int64_t n) {
    return n < kMinBlockSize ? kMinBlockSize : roundUp(n, kMinBlockSize);
}

/// get_allocation_size: the segment a miss asks cudaMalloc for.
std::int64_t allocationSize(std::int64_t n) {
    if (n <= kSmallSize) {
        return kSmallBuffer;
    }
    if (n < kMinLargeAlloc) {
        return kLargeBuffer;
    }
    return roundUp(n, kRoundLarge);
}

} // namespace

int CachingAllocator::newBlock(const Block& b) {
    if (!m_spareHandles.empty()) {
        const int handle = m_spareHandles.back();
        m_spareHandles.pop_back();
        m_blocks[static_cast<std::size_t>(handle)] = b;
        return handle;
    }
    m_blocks.push_back(b);
    return static_cast<int>(m_blocks.size()) - 1;
}

/// alloc_block: the only place reserved memory grows.
int CachingAllocator::newSegment(std::int64_t size, bool small) {
    Block b;
    b.size = size;
    b.small = small;
    b.address = m_descending ? kAddressTop - m_nextAddress - size : m_nextAddress;
    m_nextAddress += size + kSegmentGap;
    m_reserved += size;
    m_reservedPeak = std::max(m_reservedPeak, m_reserved);
    ++m_segments;
    return newBlock(b);
}

int CachingAllocator::malloc(std::int64_t bytes) {
    const std::int64_t size = roundSize(bytes);
    const bool small = size <= kSmallSize;
    std::set<FreeKey>& pool = m_pools[small ? 1 : 0];
    // get_free_block: the smallest free block that fits, ties to the lowest address.
    int handle = -1;
    const auto it = pool.lower_bound({size, std::numeric_limits<std::int64_t>::min(), -1});
    if (it != pool.end()) {
        handle = std::get<2>(*it);
        pool.erase(it);
    } else {
        handle = newSegment(allocationSize(size), small);
    }
    // should_split: the small pool splits any remainder of at least 512 B, the large pool one of more than 1 MiB.
    const std::int64_t remaining = m_blocks[static_cast<std::size_t>(handle)].size - size;
    if (small ? remaining >= kMinBlockSize : remaining > kSmallSize) {
        Block rest;
        rest.size = remaining;
        rest.small = small;
        rest.address = m_blocks[static_cast<std::size_t>(handle)].address + size;
        rest.prev = handle;
        rest.next = m_blocks[static_cast<std::size_t>(handle)].next;
        const int restHandle = newBlock(rest);
        Block& b = m_blocks[static_cast<std::size_t>(handle)]; // after newBlock, which may grow the vector
        if (b.next >= 0) {
            m_blocks[static_cast<std::size_t>(b.next)].prev = restHandle;
        }
        b.next = restHandle;
        b.size = size;
        pool.insert({rest.size, rest.address, restHandle});
    }
    Block& b = m_blocks[static_cast<std::size_t>(handle)];
    b.inUse = true;
    m_allocated += b.size;
    m_allocatedPeak = std::max(m_allocatedPeak, m_allocated);
    return handle;
}

/// try_merge_blocks: a free neighbour (same segment) joins the freed block.
void CachingAllocator::mergeInto(int block, int neighbour) {
    Block& b = m_blocks[static_cast<std::size_t>(block)];
    const Block n = m_blocks[static_cast<std::size_t>(neighbour)];
    m_pools[n.small ? 1 : 0].erase({n.size, n.address, neighbour});
    if (neighbour == b.prev) {
        b.address = n.address;
        b.prev = n.prev;
        if (n.prev >= 0) {
            m_blocks[static_cast<std::size_t>(n.prev)].next = block;
        }
    } else {
        b.next = n.next;
        if (n.next >= 0) {
            m_blocks[static_cast<std::size_t>(n.next)].prev = block;
        }
    }
    b.size += n.size;
    m_spareHandles.push_back(neighbour);
}

void CachingAllocator::free(int block) {
    if (block < 0) {
        return;
    }
    Block& b = m_blocks[static_cast<std::size_t>(block)];
    assert(b.inUse && "a block freed twice"); // the trace frees each tensor once
    b.inUse = false;
    m_allocated -= b.size;
    for (const int neighbour : {b.prev, b.next}) {
        if (neighbour >= 0 && !m_blocks[static_cast<std::size_t>(neighbour)].inUse) {
            mergeInto(block, neighbour);
        }
    }
    const Block& merged = m_blocks[static_cast<std::size_t>(block)];
    m_pools[merged.small ? 1 : 0].insert({merged.size, merged.address, block});
}

namespace {

/// The seven linears of a decoder layer, in LinearRole order.
enum Linear : std::uint8_t { Q, K, V, O, Gate, Up, Down, kLinears };

/// A decoder layer's saved tensors for backward (handles; -1: not kept).
struct LayerSaved {
    std::vector<int> norm1, norm2;       // the RMSNorms' fp32 input, rstd and normalised output
    std::array<int, 5> attention{};      // rotated q and k, v, SDPA's output and its log-sum-exp
    std::vector<int> attentionLora;      // PEFT's cast input and lora_A output for q, k, v, o
    std::array<int, 4> mlp{};            // gate, act(gate), up, act(gate) * up
    std::vector<int> mlpLora;            // the same for gate, up, down
    std::vector<int> normOut1, normOut2; // norm outputs (and autocast copies) kept as linear inputs
    int residual = -1;                   // the fp32 residual under autocast, which the second norm keeps
};

/// The tensors a training step allocates and frees, in the order it does (harness.py of calibration/h200 on
/// transformers 5.17 / PyTorch 2.11), at tensor granularity: docs/design/allocator-replay.md §3.
class StepTrace {
public:
    StepTrace(const ReplayStep& step, bool descending);
    ReplayPeaks run(int steps);

private:
    struct Param {
        std::int64_t numel = 0;
        bool trainable = false;
        bool adapter = false;
    };
    // Parameter slots inside a layer: the linears, the q/k/v biases, two norms, lora_A and lora_B per linear.
    static constexpr int kBias = kLinears;
    static constexpr int kNorm1 = kBias + 3;
    static constexpr int kNorm2 = kNorm1 + 1;
    static constexpr int kLoraA = kNorm2 + 1;
    static constexpr int kLoraB = kLoraA + kLinears;
    static constexpr int kSlots = kLoraB + kLinears;

    int alloc(std::int64_t bytes) { return m_a.malloc(bytes); }
    void release(std::initializer_list<int> blocks) {
        for (const int b : blocks) {
            m_a.free(b);
        }
    }
    void release(const std::vector<int>& blocks) {
        for (const int b : blocks) {
            m_a.free(b);
        }
    }
    bool adapted(int linear) const { return m_s.lora && ((m_s.loraTargets >> linear) & 1U) != 0; }
    /// Autograd keeps a linear's input for its weight gradient (full) or for PEFT's lora_A.
    bool keepsInput(int linear) const { return !m_s.lora || adapted(linear); }
    std::int64_t paramBytes(int p) const;
    int addParam(std::int64_t numel, bool trainable, bool adapter);
    void build();
    void gradient(int param, std::int64_t bytes = 0);
    std::int64_t in(int linear) const;
    std::int64_t out(int linear) const;

    int normForward(bool save, std::vector<int>& saved);
    int normBackward(std::vector<int>& saved, int param);
    int autocastCopy(std::int64_t inputBytes);
    int linearForward(int linear, bool save, std::vector<int>& saved);
    int attentionForward(bool save, LayerSaved& sv);
    int mlpForward(bool save, LayerSaved& sv);
    int layerForward(bool save, int layer, LayerSaved& sv);
    int linearBackward(int linear, int layer);
    int rotaryBackward(int grad, std::int64_t width);
    int layerBackward(int dy, LayerSaved& sv, int layer);
    void microStep();
    void optimizerStep();

    ReplayStep m_s;
    CachingAllocator m_a;
    std::int64_t m_tokens = 0;
    std::int64_t m_q = 0;  // query width, heads x head_dim
    std::int64_t m_kv = 0; // key/value width
    std::int64_t m_c = 2;  // compute bytes (bf16 activations)
    std::int64_t m_rb = 2; // residual-stream bytes: fp32 under autocast (the fp32 embedding output)
    std::int64_t m_pb = 2; // parameter bytes
    std::vector<Param> m_params;
    std::vector<std::array<int, kSlots>> m_layerParams;
    int m_embed = -1, m_finalNorm = -1, m_lmHead = -1;
    std::vector<int> m_grads;
    std::vector<std::array<int, 2>> m_states;
    int m_layer = 0; // the layer whose linears the current pass runs
};

StepTrace::StepTrace(const ReplayStep& step, bool descending) : m_s(step), m_a(descending) {
    m_tokens = m_s.microBatch * m_s.seqLen;
    m_q = m_s.heads * m_s.headDim;
    m_kv = m_s.kvHeads * m_s.headDim;
    m_rb = m_s.autocastFp32 ? 4 : 2;
    m_pb = m_s.autocastFp32 ? 4 : 2;
}

std::int64_t StepTrace::in(int linear) const {
    switch (linear) {
    case O:
        return m_q;
    case Down:
        return m_s.intermediate;
    default:
        return m_s.hidden;
    }
}

std::int64_t StepTrace::out(int linear) const {
    switch (linear) {
    case Q:
        return m_q;
    case K:
    case V:
        return m_kv;
    case Gate:
    case Up:
        return m_s.intermediate;
    default:
        return m_s.hidden;
    }
}

std::int64_t StepTrace::paramBytes(int p) const {
    const Param& param = m_params[static_cast<std::size_t>(p)];
    return param.numel * (param.adapter ? m_s.adapterBytes : m_pb);
}

int StepTrace::addParam(std::int64_t numel, bool trainable, bool adapter) {
    m_params.push_back({numel, trainable, adapter});
    return static_cast<int>(m_params.size()) - 1;
}

/// The parameters in registration order, each its own allocation (from_pretrained); PEFT's adapters after them.
void StepTrace::build() {
    const bool full = !m_s.lora;
    m_embed = addParam(m_s.vocab * m_s.hidden, full, false);
    m_layerParams.assign(static_cast<std::size_t>(m_s.layers), {});
    for (auto& slots : m_layerParams) {
        slots.fill(-1);
        for (int l = 0; l < kLinears; ++l) {
            slots[static_cast<std::size_t>(l)] = addParam(out(l) * in(l), full, false);
            if (m_s.qkvBias && l <= V) {
                slots[static_cast<std::size_t>(kBias + l)] = addParam(out(l), full, false);
            }
        }
        slots[kNorm1] = addParam(m_s.hidden, full, false);
        slots[kNorm2] = addParam(m_s.hidden, full, false);
    }
    m_finalNorm = addParam(m_s.hidden, full, false);
    m_lmHead = m_s.tiedEmbeddings ? m_embed : addParam(m_s.vocab * m_s.hidden, full, false);
    for (auto& slots : m_layerParams) {
        for (int l = 0; l < kLinears; ++l) {
            if (adapted(l)) {
                slots[static_cast<std::size_t>(kLoraA + l)] = addParam(m_s.loraRank * in(l), true, true);
                slots[static_cast<std::size_t>(kLoraB + l)] = addParam(out(l) * m_s.loraRank, true, true);
            }
        }
    }
    for (int p = 0; p < static_cast<int>(m_params.size()); ++p) {
        alloc(paramBytes(p));
    }
    m_grads.assign(m_params.size(), -1);
}

/// AccumulateGrad: the first gradient becomes .grad; later ones are added in place and freed.
void StepTrace::gradient(int param, std::int64_t bytes) {
    const int g = alloc(bytes > 0 ? bytes : paramBytes(param));
    int& slot = m_grads[static_cast<std::size_t>(param)];
    if (slot >= 0) {
        m_a.free(g);
    } else {
        slot = g;
    }
}

/// transformers' LlamaRMSNorm: x.float(), pow(2).mean, rsqrt, the product, back to the input dtype, times weight.
int StepTrace::normForward(bool save, std::vector<int>& saved) {
    const std::int64_t t = m_tokens;
    const std::int64_t h = m_s.hidden;
    const int upcast = m_rb != 4 ? alloc(4 * t * h) : -1; // a no-op on an fp32 residual stream
    const int squares = alloc(4 * t * h);
    const int variance = alloc(4 * t);
    m_a.free(squares);
    const int rstd = alloc(4 * t);
    const int normalised = alloc(4 * t * h);
    if (!save) {
        m_a.free(upcast);
    }
    int cast = normalised;
    if (m_rb != 4) {
        cast = alloc(m_rb * t * h);
        m_a.free(normalised);
    }
    const int output = alloc(m_rb * t * h);
    if (save) {
        saved = {upcast, rstd, cast};
        if (m_s.lora && cast != normalised) {
            // A frozen weight needs no saved normalised input.
            m_a.free(cast);
            saved = {upcast, rstd};
        }
    } else {
        release({rstd, cast});
    }
    m_a.free(variance);
    return output;
}

int StepTrace::normBackward(std::vector<int>& saved, int param) {
    const std::int64_t t = m_tokens;
    const std::int64_t h = m_s.hidden;
    const int weightProduct = alloc(m_rb * t * h); // summed for the weight's gradient
    m_a.free(weightProduct);
    if (!m_s.lora) {
        gradient(param);
    }
    const int dNormalised = alloc(m_rb * t * h);
    const int dUpcast = alloc(4 * t * h);
    m_a.free(dNormalised);
    const int d1 = alloc(4 * t * h);
    const int product = alloc(4 * t * h);
    const int dRstd = alloc(4 * t);
    m_a.free(product);
    const int d2 = alloc(4 * t * h);
    release({dUpcast, dRstd});
    const int dx = alloc(m_rb * t * h);
    release({d1, d2});
    release(saved);
    saved.clear();
    return dx;
}

/// Under autocast a linear casts its fp32 input to bf16 (not cached: the input is not a leaf).
int StepTrace::autocastCopy(std::int64_t inputBytes) {
    return m_s.autocastFp32 && inputBytes == 4 ? alloc(2 * m_tokens * m_s.hidden) : -1;
}

/// A linear's output; with LoRA, PEFT's LoraLayer.forward: x cast to the adapter dtype, lora_B(lora_A(x)) * scaling
/// added to the base output.
int StepTrace::linearForward(int linear, bool save, std::vector<int>& saved) {
    const std::int64_t t = m_tokens;
    int y = alloc(m_c * t * out(linear));
    if (!adapted(linear)) {
        return y;
    }
    const std::int64_t lb = m_s.adapterBytes;
    int castInput = lb != m_c ? alloc(lb * t * in(linear)) : -1;
    int dropMask = -1;
    if (m_s.loraDropout) {
        // native_dropout: a bool mask and the dropped input, both saved (dropout's backward and lora_A's weight
        // gradient); the cast copy is not needed after it.
        dropMask = alloc(t * in(linear));
        const int dropped = alloc(lb * t * in(linear));
        m_a.free(castInput);
        castInput = dropped;
    }
    const int aOut = alloc(lb * t * m_s.loraRank);
    const int bOut = alloc(lb * t * out(linear));
    const int scaled = alloc(lb * t * out(linear));
    m_a.free(bOut);
    int sum = alloc(std::max(lb, m_c) * t * out(linear));
    m_a.free(scaled);
    if (lb != m_c) {
        const int cast = alloc(m_c * t * out(linear));
        m_a.free(sum);
        sum = cast;
    }
    if (save) {
        saved.insert(saved.end(), {dropMask, castInput, aOut});
    } else {
        release({dropMask, castInput, aOut});
    }
    m_a.free(y);
    y = sum;
    return y;
}

/// q, k, v; rotary embedding on q and k (x * cos + rotate_half(x) * sin); SDPA (flash); o.
int StepTrace::attentionForward(bool save, LayerSaved& sv) {
    const std::int64_t t = m_tokens;
    int q = linearForward(Q, save, sv.attentionLora);
    int k = linearForward(K, save, sv.attentionLora);
    const int v = linearForward(V, save, sv.attentionLora);
    for (auto [x, width] : {std::pair<int*, std::int64_t>{&q, m_q}, {&k, m_kv}}) {
        const std::int64_t bytes = m_c * t * width;
        const int timesCos = alloc(bytes);
        const int negated = alloc(bytes / 2);
        const int rotated = alloc(bytes);
        m_a.free(negated);
        const int timesSin = alloc(bytes);
        m_a.free(rotated);
        const int embedded = alloc(bytes);
        release({timesCos, timesSin, *x});
        *x = embedded;
    }
    const int attnOut = alloc(m_c * t * m_q);
    const int logSumExp = alloc(4 * m_s.microBatch * m_s.heads * m_s.seqLen);
    if (save) {
        sv.attention = {q, k, v, attnOut, logSumExp};
    } else {
        release({q, k, v, logSumExp});
    }
    const int projected = linearForward(O, save, sv.attentionLora);
    if (!save) {
        m_a.free(attnOut);
    }
    return projected;
}

/// down(act(gate(x)) * up(x)).
int StepTrace::mlpForward(bool save, LayerSaved& sv) {
    const std::int64_t t = m_tokens;
    const std::int64_t f = m_s.intermediate;
    const int gate = linearForward(Gate, save, sv.mlpLora);
    const int act = alloc(m_c * t * f);
    if (!save) {
        m_a.free(gate);
    }
    const int up = linearForward(Up, save, sv.mlpLora);
    int product = alloc(m_c * t * f);
    if (!save) {
        release({act, up});
    }
    const int down = linearForward(Down, save, sv.mlpLora);
    if (!save || !keepsInput(Down)) {
        m_a.free(product);
        product = -1;
    }
    if (save) {
        sv.mlp = {gate, act, up, product};
    }
    return down;
}

int StepTrace::layerForward(bool save, int layer, LayerSaved& sv) {
    m_layer = layer;
    sv = LayerSaved{};
    sv.attention.fill(-1);
    sv.mlp.fill(-1);
    const std::int64_t t = m_tokens;
    const std::int64_t h = m_s.hidden;
    std::vector<int> norm1;
    const int out1 = normForward(save, norm1);
    sv.normOut1 = {out1, autocastCopy(m_rb), autocastCopy(m_rb), autocastCopy(m_rb)};
    const int projected = attentionForward(save, sv);
    if (!save || !(keepsInput(Q) || keepsInput(K) || keepsInput(V))) {
        release(sv.normOut1);
        sv.normOut1.clear();
    }
    const int h1 = alloc(m_rb * t * h);
    m_a.free(projected);
    std::vector<int> norm2;
    const int out2 = normForward(save, norm2);
    sv.normOut2 = {out2, autocastCopy(m_rb), autocastCopy(m_rb)};
    const int down = mlpForward(save, sv);
    if (!save || !(keepsInput(Gate) || keepsInput(Up))) {
        release(sv.normOut2);
        sv.normOut2.clear();
    }
    const int y = alloc(m_rb * t * h);
    m_a.free(down);
    sv.norm1 = std::move(norm1);
    sv.norm2 = std::move(norm2);
    // An fp32 residual stream: the second norm's x.float() is x itself, which it saves.
    if (save && m_rb == 4) {
        sv.residual = h1;
    } else {
        m_a.free(h1);
    }
    return y;
}

/// The input's gradient and the weight's (or, with LoRA, the adapter's) for one linear.
int StepTrace::linearBackward(int linear, int layer) {
    const std::int64_t t = m_tokens;
    const auto& slots = m_layerParams[static_cast<std::size_t>(layer)];
    const int dx = alloc(m_c * t * in(linear));
    if (!m_s.lora) {
        // Under autocast the bf16 weight gradient is cast to the fp32 parameter's dtype.
        const int half = m_s.autocastFp32 ? alloc(2 * in(linear)*out(linear)) : -1;
        gradient(slots[static_cast<std::size_t>(linear)]);
        m_a.free(half);
    } else if (adapted(linear)) {
        const std::int64_t lb = m_s.adapterBytes;
        const int dB = alloc(lb * t * out(linear));
        gradient(slots[static_cast<std::size_t>(kLoraB + linear)]);
        const int dA = alloc(lb * t * m_s.loraRank);
        gradient(slots[static_cast<std::size_t>(kLoraA + linear)]);
        int dCast = alloc(lb * t * in(linear));
        if (m_s.loraDropout) {
            const int throughDropout = alloc(lb * t * in(linear)); // native_dropout_backward: grad * mask * scale
            m_a.free(dCast);
            dCast = throughDropout;
        }
        release({dB, dA});
        const int dBack = lb != m_c ? alloc(m_c * t * in(linear)) : -1;
        release({dCast, dBack});
    }
    return dx;
}

/// The gradient through x * cos + rotate_half(x) * sin.
int StepTrace::rotaryBackward(int grad, std::int64_t width) {
    const std::int64_t bytes = m_c * m_tokens * width;
    const int timesCos = alloc(bytes);
    const int timesSin = alloc(bytes);
    const int unrotated = alloc(bytes);
    m_a.free(timesSin);
    const int dx = alloc(bytes);
    release({timesCos, unrotated, grad});
    return dx;
}

int StepTrace::layerBackward(int dy, LayerSaved& sv, int layer) {
    const std::int64_t t = m_tokens;
    const std::int64_t f = m_s.intermediate;
    const std::int64_t h = m_s.hidden;
    const auto& slots = m_layerParams[static_cast<std::size_t>(layer)];
    const auto [gate, act, up, product] = sv.mlp;
    // MLP
    const int dProduct = linearBackward(Down, layer);
    m_a.free(product);
    const int dAct = alloc(m_c * t * f);
    const int dUp = alloc(m_c * t * f);
    release({dProduct, act, up});
    const int dxUp = linearBackward(Up, layer);
    m_a.free(dUp);
    const int dGate = alloc(m_c * t * f);
    release({dAct, gate});
    const int dxGate = linearBackward(Gate, layer);
    m_a.free(dGate);
    m_a.free(dxGate); // accumulated into dxUp
    release(sv.mlpLora);
    release(sv.normOut2);
    const int dNorm2 = normBackward(sv.norm2, slots[kNorm2]);
    m_a.free(dxUp);
    const int dh1 = alloc(m_rb * t * h);
    release({dNorm2, dy});
    // Attention: SDPA's flash backward (dq, dk and dv expanded to the query heads, an fp32 dq accumulator).
    const auto [qe, ke, v, attnOut, logSumExp] = sv.attention;
    const int dAttn = linearBackward(O, layer);
    const int accumulator = alloc(4 * t * m_q);
    int dq = alloc(m_c * t * m_q);
    const int dkExpanded = alloc(m_c * t * m_q);
    const int dvExpanded = alloc(m_c * t * m_q);
    const int dSoftmax = alloc(4 * m_s.microBatch * m_s.heads * m_s.seqLen);
    int dk = alloc(m_c * t * m_kv);
    const int dv = alloc(m_c * t * m_kv);
    release({dkExpanded, dvExpanded, accumulator, dSoftmax, dAttn, qe, ke, v, attnOut, logSumExp});
    release(sv.attentionLora);
    dq = rotaryBackward(dq, m_q);
    dk = rotaryBackward(dk, m_kv);
    const int dxQ = linearBackward(Q, layer);
    m_a.free(dq);
    const int dxK = linearBackward(K, layer);
    release({dk, dxK});
    const int dxV = linearBackward(V, layer);
    release({dv, dxV});
    if (m_s.qkvBias && !m_s.lora) {
        for (int l = Q; l <= V; ++l) {
            gradient(slots[static_cast<std::size_t>(kBias + l)]);
        }
    }
    release(sv.normOut1);
    const int dNorm1 = normBackward(sv.norm1, slots[kNorm1]);
    release({dxQ, sv.residual});
    const int dx = alloc(m_rb * t * h);
    release({dNorm1, dh1});
    return dx;
}

/// One micro-batch: forward, transformers' ForCausalLMLoss (logits.float(), log_softmax kept for nll), the output
/// dropped before backward, backward (each layer recomputed first under checkpointing).
void StepTrace::microStep() {
    const std::int64_t t = m_tokens;
    const std::int64_t h = m_s.hidden;
    const std::int64_t vocab = m_s.vocab;
    const int ids = alloc(8 * t);
    const int cos = alloc(2 * t * m_s.headDim);
    const int sin = alloc(2 * t * m_s.headDim);
    std::vector<int> inputs{alloc(m_rb * t * h)}; // the embedding output, then each layer's
    std::vector<LayerSaved> saved(static_cast<std::size_t>(m_s.layers));
    for (int l = 0; l < m_s.layers; ++l) {
        inputs.push_back(layerForward(!m_s.recompute, l, saved[static_cast<std::size_t>(l)]));
    }
    std::vector<int> finalNormSaved;
    const int normed = normForward(true, finalNormSaved);
    const int normedCast = autocastCopy(m_rb);
    const int logits = alloc(m_c * t * vocab);
    const int upcast = alloc(4 * t * vocab);
    const int logSoftmax = alloc(4 * t * vocab);
    release({upcast, logits});
    const int dNll = alloc(4 * t * vocab);
    const int dLogSoftmax = alloc(4 * t * vocab);
    release({dNll, logSoftmax});
    const int dLogits = alloc(m_c * t * vocab);
    m_a.free(dLogSoftmax);
    const int dNormed = alloc(m_c * t * h);
    if (!m_s.lora) {
        const int half = m_s.autocastFp32 ? alloc(2 * vocab * h) : -1;
        gradient(m_lmHead);
        m_a.free(half);
    }
    release({dLogits, normedCast});
    int dy = normBackward(finalNormSaved, m_finalNorm);
    release({dNormed, normed});
    for (int l = static_cast<int>(m_s.layers) - 1; l >= 0; --l) {
        LayerSaved& sv = saved[static_cast<std::size_t>(l)];
        if (m_s.recompute) {
            m_a.free(layerForward(true, l, sv)); // the recomputed output is dropped
        }
        const int dx = layerBackward(dy, sv, l);
        m_a.free(inputs[static_cast<std::size_t>(l) + 1]);
        dy = dx;
    }
    if (!m_s.lora) {
        gradient(m_embed, vocab * h * m_pb); // embedding_dense_backward
    }
    release({dy, inputs.front(), ids, cos, sin});
}

/// AdamW: states created lazily at the first step (exp_avg, exp_avg_sq per parameter), foreach's _foreach_sqrt
/// list of state size, then zero_grad(set_to_none=True).
void StepTrace::optimizerStep() {
    if (m_states.empty()) {
        m_states.assign(m_params.size(), {-1, -1});
        for (int p = 0; p < static_cast<int>(m_params.size()); ++p) {
            if (m_params[static_cast<std::size_t>(p)].trainable) {
                m_states[static_cast<std::size_t>(p)] = {alloc(paramBytes(p)), alloc(paramBytes(p))};
            }
        }
    }
    if (!m_s.fusedOptimizer) {
        std::vector<int> sqrt;
        for (int p = 0; p < static_cast<int>(m_params.size()); ++p) {
            if (m_params[static_cast<std::size_t>(p)].trainable) {
                sqrt.push_back(alloc(paramBytes(p)));
            }
        }
        release(sqrt);
    }
    for (int& g : m_grads) {
        m_a.free(g);
        g = -1;
    }
}

ReplayPeaks StepTrace::run(int steps) {
    build();
    m_a.resetPeaks();
    for (int step = 0; step < steps; ++step) {
        for (std::int64_t micro = 0; micro < m_s.accumulation; ++micro) {
            microStep();
        }
        optimizerStep();
    }
    return {m_a.allocatedPeak(), m_a.reservedPeak()};
}

} // namespace

ReplayPeaks replayTrainingStepOnce(const ReplayStep& step, bool descendingAddresses, int steps) {
    return StepTrace(step, descendingAddresses).run(steps);
}

ReplayPeaks replayTrainingStep(const ReplayStep& step) {
    struct Memo {
        ReplayStep step;
        ReplayPeaks peaks;
    };
    // A search asks the same step for every card and count; a slider revisits recent values.
    constexpr std::size_t kRemembered = 16;
    thread_local std::vector<Memo> memo;
    thread_local std::size_t next = 0;
    for (const Memo& m : memo) {
        if (m.step == step) {
            return m.peaks;
        }
    }
    const ReplayPeaks ascending = replayTrainingStepOnce(step, false);
    const ReplayPeaks descending = replayTrainingStepOnce(step, true);
    const ReplayPeaks peaks{ascending.allocated, std::max(ascending.reserved, descending.reserved)};
    if (memo.size() < kRemembered) {
        memo.push_back({step, peaks});
    } else {
        memo[next] = {step, peaks};
        next = (next + 1) % kRemembered;
    }
    return peaks;
}

} // namespace gpusizer::core
