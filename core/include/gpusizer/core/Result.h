#pragma once

#include <string>
#include <tl/expected.hpp>

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

/// A failure with a human-readable message and the place it refers to (file, entry, field path).
struct Error {
    ErrorCode code = ErrorCode::InvalidJson;
    std::string message;
    std::string where;
};

/// A value or the error that prevented it.
template <class T>
using Result = tl::expected<T, Error>;

/// Builds an unexpected Error in one expression.
inline tl::unexpected<Error> fail(ErrorCode code, std::string message, std::string where = {}) {
    return tl::unexpected<Error>(Error{code, std::move(message), std::move(where)});
}

/// A non-fatal note about input or results (unknown key, clamped value, rough estimate...).
struct Warning {
    std::string code;
    std::string message;
};

} // namespace gpusizer::core
