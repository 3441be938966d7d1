#include "gpusizer/scenario/Result.h"

namespace gpusizer::core {

std::string substitute(std::string_view text, const std::vector<std::string>& args) {
    std::string out;
    out.reserve(text.size() + 16);
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 1 < text.size() && text[i + 1] >= '1' && text[i + 1] <= '9') {
            const auto index = static_cast<std::size_t>(text[i + 1] - '1');
            if (index < args.size()) {
                out += args[index];
            }
            ++i;
            continue;
        }
        out += text[i];
    }
    return out;
}

std::string Words::english() const {
    if (text == nullptr || *text == '\0') {
        return literal;
    }
    if (std::string_view(text) == kListId) {
        std::string out;
        for (const auto& a : args) {
            out += (out.empty() ? "" : ", ") + a.english();
        }
        return out;
    }
    std::vector<std::string> parts;
    parts.reserve(args.size());
    for (const auto& a : args) {
        parts.push_back(a.english());
    }
    return substitute(text, parts);
}

} // namespace gpusizer::core
