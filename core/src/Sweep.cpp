#include "gpusizer/core/Sweep.h"

namespace gpusizer::core {

std::vector<std::int64_t> powersOfTwo(std::int64_t from, std::int64_t to) {
    std::vector<std::int64_t> out;
    for (std::int64_t v = std::max<std::int64_t>(1, from); v <= to; v *= 2) {
        out.push_back(v);
    }
    return out;
}

namespace {

template <class Setter>
std::vector<SweepPoint> sweep(Scenario s, const std::vector<std::int64_t>& values, Setter setter) {
    std::vector<SweepPoint> out;
    out.reserve(values.size());
    for (std::int64_t v : values) {
        setter(s, v);
        const Estimate e = estimate(s, Detail::NumbersOnly);
        out.push_back({v, e.perGpu, e.deviceBytes, e.bandLowBytes, e.bandHighBytes});
    }
    return out;
}

} // namespace

std::vector<SweepPoint> sweepSeqLen(const Scenario& scenario, const std::vector<std::int64_t>& lengths) {
    return sweep(scenario, lengths, [](Scenario& s, std::int64_t v) { s.seqLen = v; });
}

std::vector<SweepPoint> sweepMicroBatch(const Scenario& scenario, const std::vector<std::int64_t>& batches) {
    return sweep(scenario, batches, [](Scenario& s, std::int64_t v) { s.microBatch = v; });
}

} // namespace gpusizer::core
