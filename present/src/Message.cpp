#include "gpusizer/present/Message.h"

namespace gpusizer::present {

std::string substitute(const std::string& text, const std::vector<std::string>& args) {
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

std::string english(const Message& m) {
    if (m.text == nullptr || *m.text == '\0') {
        return m.literal;
    }
    if (std::string(m.text) == kListId) {
        return english(m.args);
    }
    std::vector<std::string> args;
    args.reserve(m.args.size());
    for (const auto& a : m.args) {
        args.push_back(english(a));
    }
    return substitute(m.text, args);
}

std::string english(const std::vector<Message>& parts) {
    std::string out;
    for (const auto& p : parts) {
        out += (out.empty() ? "" : ", ") + english(p);
    }
    return out;
}

} // namespace gpusizer::present
