#pragma once

#include "gpusizer/scenario/Result.h"

#include <string>
#include <utility>
#include <vector>

namespace gpusizer::present {

/// Translation context of every message text (what ui passes to QCoreApplication::translate).
inline constexpr const char* kContext = "gpusizer";
using core::kListId;

/// Words for a user: an English source text with %1..%9 placeholders (the translation id) and its arguments, each
/// itself a message — words to translate in turn, or a literal (a name, an already formatted number). The same type
/// as core's words (errors, warnings, assumptions), so that every level translates alike. The CLI renders it in
/// English; ui translates every level.
using Message = core::Words;
using core::joined;
using core::verbatim;

/// A message with its arguments (strings become literals, messages stay messages).
template <class... Args>
Message msg(const char* text, Args&&... args) {
    return core::words(text, std::forward<Args>(args)...);
}

/// The message in English.
std::string english(const Message& m);

/// Messages joined with ", " in English.
std::string english(const std::vector<Message>& parts);

} // namespace gpusizer::present
