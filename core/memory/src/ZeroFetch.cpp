#include "gpusizer/memory/ZeroFetch.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace gpusizer::core {

namespace {

/// The recorded trace: which module each fetch is for, in order (record_module in the pre-forward and pre-backward
/// hooks), and where the loss and backward begin.
struct Trace {
    std::vector<std::size_t> module; // module id per fetch
    std::vector<double> elements;    // elements per module id
    std::ptrdiff_t headForward = -1;
    std::size_t backwardStart = 0;
};

Trace recordTrace(const ZeroStepTrace& step) {
    Trace tr;
    const std::size_t perLayer = step.layerModules.size();
    const auto layers = static_cast<std::size_t>(std::max(1, step.layers));
    const std::size_t head = layers * perLayer;
    tr.elements.reserve(head + 1);
    for (std::size_t j = 0; j < layers; ++j) {
        tr.elements.insert(tr.elements.end(), step.layerModules.begin(), step.layerModules.end());
    }
    tr.elements.push_back(step.head);
    tr.module.reserve(layers * perLayer * (step.recompute ? 3 : 2) + 2);
    for (std::size_t j = 0; j < layers; ++j) {
        for (std::size_t k = 0; k < perLayer; ++k) {
            tr.module.push_back(j * perLayer + k);
        }
    }
    if (step.head > 0) {
        tr.headForward = static_cast<std::ptrdiff_t>(tr.module.size());
        tr.module.push_back(head); // forward
        tr.module.push_back(head); // backward, right after the loss
    }
    tr.backwardStart = tr.module.size(); // the layers' backward: lm_head's is part of the loss
    for (std::size_t j = layers; j-- > 0;) {
        if (step.recompute) {
            // Non-reentrant checkpointing reruns the layer's forward when its backward first needs a saved tensor.
            for (std::size_t k = 0; k < perLayer; ++k) {
                tr.module.push_back(j * perLayer + k);
            }
        }
        for (std::size_t k = perLayer; k-- > 0;) {
            tr.module.push_back(j * perLayer + k);
        }
    }
    return tr;
}

/// Layers the coordinator can see from one fetch: the reuse scan and the prefetch reach at most
/// max(reuse distance, max live) elements (plus one module), behind and ahead.
int layersThatDecideThePeaks(const ZeroStepTrace& step, const ZeroFetchLimits& limits) {
    double layerElements = 0;
    for (double e : step.layerModules) {
        layerElements += e;
    }
    if (layerElements <= 0) {
        return step.layers;
    }
    const double reach = std::max(limits.maxReuseDistance, limits.maxLiveParameters) + step.head;
    // Reach behind the loss and ahead of the last exact backward layer, twice over with the recompute, plus the
    // layers at the loss and one steady layer of backward.
    const double layers = 2.0 * std::ceil(reach / layerElements) + 4.0;
    return layers >= static_cast<double>(step.layers) ? step.layers : static_cast<int>(layers);
}

ZeroGathered replay(const ZeroStepTrace& step, const ZeroFetchLimits& limits) {
    const Trace tr = recordTrace(step);
    const std::size_t steps = tr.module.size();
    // prefix[t]: elements of the fetches before t, for the reuse-distance scan (__params_to_release).
    std::vector<double> prefix(steps + 1, 0.0);
    for (std::size_t t = 0; t < steps; ++t) {
        prefix[t + 1] = prefix[t] + tr.elements[tr.module[t]];
    }
    // nextUse[t]: the fetch that next uses the module of fetch t (steps: none).
    std::vector<std::size_t> nextUse(steps);
    std::vector<std::size_t> seen(tr.elements.size());
    std::fill(seen.begin(), seen.end(), steps);
    for (std::size_t t = steps; t-- > 0;) {
        nextUse[t] = seen[tr.module[t]];
        seen[tr.module[t]] = t;
    }
    constexpr auto kNever = std::numeric_limits<std::ptrdiff_t>::min();
    std::vector<char> available(tr.elements.size(), 0);
    // __most_recent_step_id_param_fetched_for: the latest use whose queue entry has been popped.
    std::vector<std::ptrdiff_t> mostRecent(tr.elements.size(), kNever);
    std::size_t queue = 0; // __param_queue: the next trace entry not yet popped
    double gathered = 0;   // __n_available_params
    ZeroGathered out;
    auto gather = [&](std::size_t id) {
        available[id] = 1;
        gathered += tr.elements[id];
    };
    for (std::size_t t = 0; t < steps; ++t) {
        const std::size_t x = tr.module[t];
        const auto now = static_cast<std::ptrdiff_t>(t);
        if (available[x] == 0) {
            gather(x); // the module's own fetch, whatever the limits
        }
        if (mostRecent[x] < now) { // its queue entry is popped now, not by an earlier prefetch
            mostRecent[x] = now;
            queue = std::max(queue, t + 1);
        }
        // Prefetch: pop entries until a bucket's worth of unavailable elements is in flight; entries already
        // available are popped too, which records their use as seen.
        const double budget = std::min(limits.maxLiveParameters - gathered, limits.prefetchBucket);
        double prefetching = 0;
        while (limits.prefetchBucket > 0 && queue < steps && prefetching < budget) {
            const std::size_t y = tr.module[queue];
            mostRecent[y] = std::max(mostRecent[y], static_cast<std::ptrdiff_t>(queue));
            if (available[y] == 0) {
                gather(y);
                prefetching += tr.elements[y];
            }
            ++queue;
        }
        out.most = std::max(out.most, gathered);
        if (now == tr.headForward) {
            out.atLoss = gathered;
        }
        if (t >= tr.backwardStart) {
            out.inBackward = std::max(out.inBackward, gathered);
        }
        // Release after the module ran, unless a popped later use is pending or the module recurs within the reuse
        // distance: the scan from the next fetch breaks once it has passed maxReuseDistance elements.
        const bool skippedUse = mostRecent[x] > now + 1;
        const bool reusedSoon = nextUse[t] < steps && prefix[nextUse[t]] - prefix[t + 1] < limits.maxReuseDistance;
        if (!skippedUse && !reusedSoon) {
            available[x] = 0;
            gathered -= tr.elements[x];
        }
    }
    return out;
}

/// A question asked before and its answer (the layer's modules copied: the trace only views them).
struct Memo {
    std::vector<double> modules;
    int layers = 0;
    double head = 0;
    bool recompute = false;
    ZeroFetchLimits limits;
    ZeroGathered result;

    bool answers(const ZeroStepTrace& step, const ZeroFetchLimits& l) const {
        return layers == step.layers && head == step.head && recompute == step.recompute &&
               limits.prefetchBucket == l.prefetchBucket && limits.maxReuseDistance == l.maxReuseDistance &&
               limits.maxLiveParameters == l.maxLiveParameters &&
               std::equal(modules.begin(), modules.end(), step.layerModules.begin(), step.layerModules.end());
    }
};

/// The replay of the last layers, checked against two more: where the ramp towards max live takes longer than the
/// reach (few calls per layer, a small prefetch bucket), every layer.
ZeroGathered replayWindow(const ZeroStepTrace& step, const ZeroFetchLimits& limits) {
    ZeroStepTrace window = step;
    window.layers = layersThatDecideThePeaks(step, limits);
    if (window.layers >= step.layers) {
        return replay(step, limits);
    }
    const ZeroGathered near = replay(window, limits);
    window.layers = std::min(step.layers, window.layers + 2);
    const ZeroGathered wider = replay(window, limits);
    const bool settled = near.inBackward == wider.inBackward && near.atLoss == wider.atLoss && near.most == wider.most;
    return settled ? near : replay(step, limits);
}

} // namespace

ZeroGathered zeroGatheredElements(const ZeroStepTrace& step, const ZeroFetchLimits& limits) {
    if (step.everyLayer) {
        return replay(step, limits);
    }
    // A few recent answers: a search asks about a handful of layouts, each for many counts and batches.
    constexpr std::size_t kRemembered = 8;
    thread_local std::vector<Memo> memo;
    thread_local std::size_t next = 0;
    for (const Memo& m : memo) {
        if (m.answers(step, limits)) {
            return m.result;
        }
    }
    const ZeroGathered result = replayWindow(step, limits);
    Memo entry{
        {step.layerModules.begin(), step.layerModules.end()}, step.layers, step.head, step.recompute, limits, result};
    if (memo.size() < kRemembered) {
        memo.push_back(std::move(entry));
    } else {
        memo[next] = std::move(entry);
        next = (next + 1) % kRemembered;
    }
    return result;
}

} // namespace gpusizer::core
