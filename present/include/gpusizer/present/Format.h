#pragma once
// Numbers as every view shows them: one rounding rule per unit, for the CLI, the window and the report alike.

#include <cstdint>
#include <string>

namespace gpusizer::present {

/// "2.13 GiB", "21.3 GiB", "1,234.5 GiB": binary gibibytes, two decimals below 10 GiB, one above.
std::string gib(std::int64_t bytes);
/// `perGpu` bytes times `gpus`, taken in floating point (a million cards times a petabyte overflows 64 bits).
std::string gibTotal(std::int64_t perGpu, std::int64_t gpus);
/// "80 GB": decimal gigabytes (vendor capacities, storage), no decimals from 100 GB; below 1 GB in MB ("13.6 MB").
std::string gb(double bytes);
/// "2,048" with thousands separators.
std::string count(std::int64_t value);
/// "9%", or with decimals "9.4%".
std::string percent(double share, int decimals = 0);
/// "$1,234" from $100, "$12.34" below.
std::string usd(double dollars);
/// "45 min", "3.2 h", "2.1 days": minutes under an hour, hours under two days.
std::string duration(double hours);
/// "1.24 B" / "350 M" parameters.
std::string params(std::int64_t params);
/// A number with `decimals` places and thousands separators.
std::string number(double value, int decimals);
/// A number with as few places as it needs, up to three: "80", "79.1", "3.35", "0.05".
std::string plainNumber(double value);

} // namespace gpusizer::present
