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

/// Words for a user: an English source text with %1..%9 placeholders (the translation id) and its arguments,
/// already formatted (numbers, units, names). The CLI prints it in English; ui translates the text first.
struct Message {
    const char* text = "";
    std::vector<std::string> args;
    bool empty() const { return text == nullptr || *text == '\0'; }
};

/// A message with its arguments.
template <class... Args>
Message msg(const char* text, Args&&... args) {
    return Message{text, {std::string(std::forward<Args>(args))...}};
}

/// Substitutes %1..%9 in `text` with `args` (the renderers' shared step: English as is, ui after translating).
std::string substitute(const std::string& text, const std::vector<std::string>& args);

/// The message in English.
std::string english(const Message& m);

/// Messages joined with ", " in English.
std::string english(const std::vector<Message>& parts);

} // namespace gpusizer::present

namespace gpusizer::present {

/// Text shown as it is (a name, a file path, a JSON key): a message with no words to translate.
inline Message verbatim(std::string s) {
    return Message{"%1", {std::move(s)}};
}

} // namespace gpusizer::present
