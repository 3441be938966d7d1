#include "gpusizer/present/Format.h"

#include "gpusizer/scenario/Units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpusizer::present {

std::string number(double value, int decimals) {
    if (!std::isfinite(value)) {
        return "–";
    }
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, std::abs(value));
    std::string digits(buffer);
    const auto dot = digits.find('.');
    std::string whole = digits.substr(0, dot);
    const std::string fraction = dot == std::string::npos ? "" : digits.substr(dot);
    std::string grouped;
    for (std::size_t i = 0; i < whole.size(); ++i) {
        if (i > 0 && (whole.size() - i) % 3 == 0) {
            grouped += ',';
        }
        grouped += whole[i];
    }
    const bool negative = value < 0 && (grouped + fraction).find_first_not_of("0.,") != std::string::npos;
    return (negative ? "-" : "") + grouped + fraction;
}

std::string plainNumber(double value) {
    for (int decimals = 0; decimals < 3; ++decimals) {
        const double scale = std::pow(10.0, decimals);
        if (std::abs(std::round(value * scale) - value * scale) < 1e-6 * std::max(1.0, std::abs(value * scale))) {
            return number(value, decimals);
        }
    }
    return number(value, 3);
}

std::string gib(std::int64_t bytes) {
    const double v = core::toGiB(static_cast<double>(bytes));
    return number(v, std::abs(v) < 10.0 ? 2 : 1) + " GiB";
}

std::string gibTotal(std::int64_t perGpu, std::int64_t gpus) {
    const double v = core::toGiB(static_cast<double>(perGpu) * static_cast<double>(gpus));
    return number(v, std::abs(v) < 10.0 ? 2 : 1) + " GiB";
}

std::string gb(double bytes) {
    const double v = bytes / core::kGB;
    if (std::abs(v) < 1.0 && v != 0.0) {
        // An adapter of a few MB would read "0.0 GB".
        const double mb = bytes / 1e6;
        return number(mb, std::abs(mb) < 10.0 ? 1 : 0) + " MB";
    }
    return number(v, std::abs(v) < 100.0 ? 1 : 0) + " GB";
}

std::string count(std::int64_t value) {
    return number(static_cast<double>(value), 0);
}

std::string percent(double share, int decimals) {
    return number(share * 100.0, decimals) + "%";
}

std::string usd(double dollars) {
    std::string out = "$"; // appended, not "$" + string: GCC 12 reports a false -Wrestrict on that at -O2 and above
    out += number(dollars, std::abs(dollars) < 100.0 ? 2 : 0);
    return out;
}

std::string duration(double hours) {
    if (!std::isfinite(hours)) {
        return "–";
    }
    if (hours * 60.0 < 1.0) {
        return number(hours * 3600.0, 0) + " s";
    }
    if (hours < 1.0) {
        return number(hours * 60.0, 0) + " min";
    }
    if (hours < 48.0) {
        return number(hours, hours < 10.0 ? 1 : 0) + " h";
    }
    return number(hours / 24.0, hours < 240.0 ? 1 : 0) + " days";
}

std::string params(std::int64_t value) {
    const double p = static_cast<double>(value);
    if (p >= 1e9) {
        return number(p / 1e9, p >= 1e11 ? 0 : 2) + " B";
    }
    if (p >= 1e6) {
        return number(p / 1e6, 1) + " M";
    }
    return count(value);
}

} // namespace gpusizer::present
