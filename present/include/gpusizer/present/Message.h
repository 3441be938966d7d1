#pragma once

#include <string>
#include <utility>
#include <vector>

/// Marks a message text for Qt's lupdate (context "gpusizer") without depending on Qt: the text is its own id.
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(scope, x) x
#endif
#define GPUSIZER_MSG(x) QT_TRANSLATE_NOOP("gpusizer", x)

namespace gpusizer::present {

/// Translation context of every message text (what ui passes to QCoreApplication::translate).
inline constexpr const char* kContext = "gpusizer";
/// The id of a list message: its arguments joined with ", " (translated as a separator).
inline constexpr const char* kListId = "\x01list";

/// Words for a user: an English source text with %1..%9 placeholders (the translation id) and its arguments, each
/// itself a message — words to translate in turn, or a literal (a name, an already formatted number). The CLI
/// renders it in English; ui translates every level.
struct Message {
    const char* text = ""; ///< the translation id; empty for a literal
    std::string literal;   ///< shown as it is when `text` is empty
    std::vector<Message> args;
    bool empty() const { return (text == nullptr || *text == '\0') && literal.empty(); }
};

/// Text shown as it is (a name, a file path, a JSON key, a formatted number): nothing to translate.
inline Message verbatim(std::string s) {
    Message m;
    m.literal = std::move(s);
    return m;
}

namespace detail {
inline Message arg(Message m) {
    return m;
}
inline Message arg(std::string s) {
    return verbatim(std::move(s));
}
inline Message arg(const char* s) {
    return verbatim(s);
}
} // namespace detail

/// A message with its arguments (strings become literals, messages stay messages).
template <class... Args>
Message msg(const char* text, Args&&... args) {
    Message m;
    m.text = text;
    m.args = {detail::arg(std::forward<Args>(args))...};
    return m;
}

/// Messages joined with ", " (the layout's parts, a list of fixes).
inline Message joined(std::vector<Message> parts) {
    Message m;
    m.text = kListId;
    m.args = std::move(parts);
    return m;
}

/// Substitutes %1..%9 in `text` with `args` (the renderers' shared step: English as is, ui after translating).
std::string substitute(const std::string& text, const std::vector<std::string>& args);

/// The message in English.
std::string english(const Message& m);

/// Messages joined with ", " in English.
std::string english(const std::vector<Message>& parts);

} // namespace gpusizer::present
