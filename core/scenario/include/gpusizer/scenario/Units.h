#pragma once

#include <cstdint>

namespace gpusizer::core {

/// Binary units: GiB = 2^30 bytes (what PyTorch and nvidia-smi print as "GiB"/"MiB").
inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
/// Decimal units: GB = 10^9 bytes (what vendors print on the box: "80 GB").
inline constexpr double kGB = 1e9;

/// Bytes to GiB as a double.
constexpr double toGiB(double bytes) {
    return bytes / kGiB;
}
/// GiB to bytes (rounded down).
constexpr std::int64_t gibToBytes(double gib) {
    return static_cast<std::int64_t>(gib * kGiB);
}

} // namespace gpusizer::core
