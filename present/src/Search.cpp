#include "gpusizer/present/Search.h"

namespace gpusizer::present {

namespace {

/// Lower case, '_' read as '.', every other character that is not a letter, digit or '.' a word break (one space).
std::string normalised(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        if (c >= 'A' && c <= 'Z') {
            out += static_cast<char>(c - 'A' + 'a');
        } else if (c == '_') {
            out += '.';
        } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || (c & 0x80) != 0) {
            out += c; // bytes of non-ASCII letters stay as they are
        } else if (!out.empty() && out.back() != ' ') {
            out += ' ';
        }
    }
    return out;
}

} // namespace

bool matchesQuery(std::string_view text, std::string_view query) {
    const std::string haystack = normalised(text);
    const std::string words = normalised(query);
    std::size_t start = 0;
    while (start < words.size()) {
        std::size_t end = words.find(' ', start);
        if (end == std::string::npos) {
            end = words.size();
        }
        if (end > start && haystack.find(words.substr(start, end - start)) == std::string::npos) {
            return false;
        }
        start = end + 1;
    }
    return true;
}

} // namespace gpusizer::present
