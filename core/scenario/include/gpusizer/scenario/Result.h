#pragma once

#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <utility>
#include <vector>

namespace gpusizer::core {

/// What kind of failure a loader or the estimator reports; the UI turns codes into words.
enum class ErrorCode {
    InvalidJson,  ///< the bytes are not JSON (or not UTF-8)
    WrongFormat,  ///< valid JSON, but not the document kind or version expected
    MissingField, ///< a required field is absent
    WrongType,    ///< a field has the wrong JSON type
    OutOfRange,   ///< a number is negative, zero where it must not be, or absurdly large
    UnknownValue, ///< an enumeration value that does not exist
    UnknownId,    ///< a catalog id that is not in the catalog
    DuplicateId,  ///< two catalog entries share an id
    Inconsistent, ///< fields that contradict each other (e.g. heads not dividing hidden size)
    Unreadable,   ///< the file could not be opened or read (missing, a folder, a special file)
    TooLarge,     ///< the file is larger than a document may be
    Unwritable,   ///< the file could not be written (or is not a regular file to replace)
};

/// Marks an English message id for Qt's lupdate without depending on Qt: every id is written
/// QT_TRANSLATE_NOOP("gpusizer", "...") where it is used (lupdate reads the literal call, not a macro of ours); ui
/// translates it, the CLI prints it as it is.
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(scope, x) x
#endif

/// The id of a list: its arguments joined with ", " (translated as a separator).
inline constexpr const char* kListId = "\x01list";

/// Words for a user as data: a message id (English with %1..%9 placeholders, a QT_TRANSLATE_NOOP("gpusizer", ...)
/// literal) and its arguments, each itself words to translate in turn or a literal (a name, a key, a number, a file
/// path) shown as it is. ui translates every level; the CLI prints English.
struct Words {
    const char* text = ""; ///< the message id; empty for a literal
    std::string literal;   ///< shown as it is when `text` is empty
    std::vector<Words> args;
    Words() = default;
    Words(const char* id) : text(id) {} // NOLINT(google-explicit-constructor): a literal id is words without arguments
    bool empty() const { return (text == nullptr || *text == '\0') && literal.empty(); }
    /// The words in English.
    std::string english() const;
};

/// Text shown as it is (a name, a file path, a JSON key, a formatted number): nothing to translate.
inline Words verbatim(std::string s) {
    Words w;
    w.literal = std::move(s);
    return w;
}

namespace detail {
inline Words wordsArg(Words w) {
    return w;
}
inline Words wordsArg(std::string s) {
    return verbatim(std::move(s));
}
inline Words wordsArg(const char* s) {
    return verbatim(s);
}
} // namespace detail

/// Words with arguments in one expression: words(QT_TRANSLATE_NOOP("gpusizer", "'%1' must be a number"), key). Strings
/// become literals, words stay words.
template <class... Args>
Words words(const char* id, Args&&... args) {
    Words w(id);
    w.args = {detail::wordsArg(std::forward<Args>(args))...};
    return w;
}

/// Words joined with ", " (the layout's parts, a list of fixes).
inline Words joined(std::vector<Words> parts) {
    Words w(kListId);
    w.args = std::move(parts);
    return w;
}

/// Replaces %1..%9 in `text` by `args` (a missing argument becomes nothing).
std::string substitute(std::string_view text, const std::vector<std::string>& args);

/// A failure: its kind, its words and the place it refers to (file, entry, field path).
struct Error {
    ErrorCode code = ErrorCode::InvalidJson;
    Words words;
    std::string where;
    /// The reason in English (the CLI; ui translates `words`).
    std::string message() const { return words.english(); }
};

/// A value or the error that prevented it.
template <class T>
using Result = tl::expected<T, Error>;

/// Builds an unexpected Error in one expression.
inline tl::unexpected<Error> fail(ErrorCode code, Words words, std::string where = {}) {
    return tl::unexpected<Error>(Error{code, std::move(words), std::move(where)});
}

/// A non-fatal note about input or results (unknown key, clamped value, rough estimate...): a stable code (JSON) and
/// its words.
struct Warning {
    std::string code;
    Words words;
    std::string message() const { return words.english(); }
};

} // namespace gpusizer::core
