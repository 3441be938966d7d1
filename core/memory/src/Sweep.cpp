#include "gpusizer/memory/Sweep.h"

namespace gpusizer::core {

std::vector<std::int64_t> powersOfTwo(std::int64_t from, std::int64_t to) {
    std::vector<std::int64_t> out;
    for (std::int64_t v = std::max<std::int64_t>(1, from); v <= to; v *= 2) {
        out.push_back(v);
    }
    return out;
}

std::vector<SweepPoint> sweepSeqLen(const Scenario& scenario, const std::vector<std::int64_t>& lengths) {
    Scenario s = scenario;
    std::vector<SweepPoint> out;
    out.reserve(lengths.size());
    for (std::int64_t length : lengths) {
        s.seqLen = length;
        const Estimate e = estimate(s, Detail::NumbersOnly);
        out.push_back({length, e.perGpu, e.deviceBytes, e.bandLowBytes, e.bandHighBytes});
    }
    return out;
}

} // namespace gpusizer::core
