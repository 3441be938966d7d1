#pragma once
// ASCII lower case, for matching names and keys that users spell in any case.

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace gpusizer::core::detail {

inline std::string lowercase(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

} // namespace gpusizer::core::detail
