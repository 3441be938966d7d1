#include "gpusizer/scenario/JsonRead.h"

#include <cmath>

namespace gpusizer::core::detail {

using nlohmann::json;

std::string libraryReason(const std::exception& ex) {
    std::string reason = ex.what();
    // nlohmann's messages start with "[json.exception.parse_error.101] " (and may carry a JSON pointer in
    // parentheses); keep the readable part.
    if (auto pos = reason.find("] "); pos != std::string::npos) {
        reason = reason.substr(pos + 2);
    }
    if (!reason.empty() && reason.front() == '(') {
        if (auto close = reason.find(") "); close != std::string::npos) {
            reason = reason.substr(close + 2);
        }
    }
    return reason;
}

Result<json> parseDocument(std::string_view bytes, std::string_view where) {
    if (bytes.size() > kMaxDocumentBytes) {
        return fail(ErrorCode::OutOfRange, QT_TRANSLATE_NOOP("gpusizer", "file is larger than 16 MiB"),
                    std::string(where));
    }
    // nlohmann stops at a NUL byte and takes what came before it as the whole document.
    if (const auto nul = bytes.find('\0'); nul != std::string_view::npos) {
        return fail(ErrorCode::InvalidJson,
                    words(QT_TRANSLATE_NOOP("gpusizer", "not valid JSON (a NUL byte at offset %1: not a text file)"),
                          std::to_string(nul)),
                    std::string(where));
    }
    int depth = 0;
    bool inString = false;
    bool escaped = false;
    for (char ch : bytes) {
        if (inString) {
            if (escaped) {
                escaped = false;
            } else if (ch == '\\') {
                escaped = true;
            } else if (ch == '"') {
                inString = false;
            }
            continue;
        }
        if (ch == '"') {
            inString = true;
        } else if (ch == '{' || ch == '[') {
            if (++depth > kMaxNestingDepth) {
                return fail(ErrorCode::InvalidJson, QT_TRANSLATE_NOOP("gpusizer", "nested deeper than 64 levels"),
                            std::string(where));
            }
        } else if (ch == '}' || ch == ']') {
            --depth;
        }
    }
    try {
        return json::parse(bytes.begin(), bytes.end());
    } catch (const json::out_of_range& ex) {
        // A number no double holds (1e400): nlohmann throws out_of_range 406 rather than a parse error.
        return fail(
            ErrorCode::OutOfRange,
            words(QT_TRANSLATE_NOOP("gpusizer", "holds a number too large for any field (%1)"), libraryReason(ex)),
            std::string(where));
    } catch (const json::exception& ex) {
        return fail(ErrorCode::InvalidJson,
                    words(QT_TRANSLATE_NOOP("gpusizer", "not valid JSON (%1)"), libraryReason(ex)), std::string(where));
    }
}

bool ObjectReader::has(const char* key) const {
    return m_object.contains(key) && !m_object[key].is_null();
}

Result<std::string> ObjectReader::string(const char* key) const {
    auto v = optionalString(key);
    if (!v) {
        return tl::unexpected(v.error());
    }
    if (!*v) {
        return fail(ErrorCode::MissingField,
                    words(QT_TRANSLATE_NOOP("gpusizer", "required field '%1' is missing"), key), field(key));
    }
    return **v;
}

Result<std::optional<std::string>> ObjectReader::optionalString(const char* key) const {
    if (!has(key)) {
        return std::optional<std::string>{};
    }
    const json& v = m_object[key];
    if (!v.is_string()) {
        return fail(ErrorCode::WrongType, words(QT_TRANSLATE_NOOP("gpusizer", "'%1' must be a string"), key),
                    field(key));
    }
    return std::optional<std::string>(v.get<std::string>());
}

Result<std::optional<double>> ObjectReader::optionalNumber(const char* key, double min, double max) const {
    if (!has(key)) {
        return std::optional<double>{};
    }
    const json& v = m_object[key];
    if (!v.is_number()) {
        return fail(ErrorCode::WrongType, words(QT_TRANSLATE_NOOP("gpusizer", "'%1' must be a number"), key),
                    field(key));
    }
    const double d = v.get<double>();
    if (!std::isfinite(d) || d < min || d > max) {
        return fail(ErrorCode::OutOfRange,
                    words(QT_TRANSLATE_NOOP("gpusizer", "'%1' = %2 must be between %3 and %4"), key, v.dump(),
                          json(min).dump(), json(max).dump()),
                    field(key));
    }
    return std::optional<double>(d);
}

Result<double> ObjectReader::number(const char* key, double min, double max) const {
    auto v = optionalNumber(key, min, max);
    if (!v) {
        return tl::unexpected(v.error());
    }
    if (!*v) {
        return fail(ErrorCode::MissingField,
                    words(QT_TRANSLATE_NOOP("gpusizer", "required field '%1' is missing"), key), field(key));
    }
    return **v;
}

Result<std::optional<std::int64_t>> ObjectReader::optionalInteger(const char* key, std::int64_t min,
                                                                  std::int64_t max) const {
    if (!has(key)) {
        return std::optional<std::int64_t>{};
    }
    const json& v = m_object[key];
    const bool integral = v.is_number_integer() || (v.is_number_float() && std::isfinite(v.get<double>()) &&
                                                    v.get<double>() == std::floor(v.get<double>()));
    if (!integral) {
        return fail(ErrorCode::WrongType, words(QT_TRANSLATE_NOOP("gpusizer", "'%1' must be an integer"), key),
                    field(key));
    }
    const double d = v.get<double>();
    if (d < static_cast<double>(min) || d > static_cast<double>(max)) {
        return fail(ErrorCode::OutOfRange,
                    words(QT_TRANSLATE_NOOP("gpusizer", "'%1' = %2 must be between %3 and %4"), key, v.dump(),
                          std::to_string(min), std::to_string(max)),
                    field(key));
    }
    return std::optional<std::int64_t>(static_cast<std::int64_t>(d));
}

Result<std::int64_t> ObjectReader::integer(const char* key, std::int64_t min, std::int64_t max) const {
    auto v = optionalInteger(key, min, max);
    if (!v) {
        return tl::unexpected(v.error());
    }
    if (!*v) {
        return fail(ErrorCode::MissingField,
                    words(QT_TRANSLATE_NOOP("gpusizer", "required field '%1' is missing"), key), field(key));
    }
    return **v;
}

Result<std::optional<bool>> ObjectReader::optionalBool(const char* key) const {
    if (!has(key)) {
        return std::optional<bool>{};
    }
    const json& v = m_object[key];
    if (!v.is_boolean()) {
        return fail(ErrorCode::WrongType, words(QT_TRANSLATE_NOOP("gpusizer", "'%1' must be true or false"), key),
                    field(key));
    }
    return std::optional<bool>(v.get<bool>());
}

Result<bool> ObjectReader::boolean(const char* key) const {
    auto v = optionalBool(key);
    if (!v) {
        return tl::unexpected(v.error());
    }
    if (!*v) {
        return fail(ErrorCode::MissingField,
                    words(QT_TRANSLATE_NOOP("gpusizer", "required field '%1' is missing"), key), field(key));
    }
    return **v;
}

Result<ObjectReader> ObjectReader::object(const char* key) const {
    if (!has(key)) {
        return fail(ErrorCode::MissingField,
                    words(QT_TRANSLATE_NOOP("gpusizer", "required object '%1' is missing"), key), field(key));
    }
    const json& v = m_object[key];
    if (!v.is_object()) {
        return fail(ErrorCode::WrongType, words(QT_TRANSLATE_NOOP("gpusizer", "'%1' must be an object"), key),
                    field(key));
    }
    return ObjectReader(v, field(key));
}

Result<void> checkFormatVersion(const ObjectReader& r, std::string_view expected, const char* mismatch) {
    GPUSIZER_ASSIGN(auto format, r.string("format"));
    if (format != expected) {
        return fail(ErrorCode::WrongFormat, words(mismatch, format), r.field("format"));
    }
    GPUSIZER_ASSIGN(auto version, r.integer("version", 1, 1000));
    if (version > 1) {
        return fail(ErrorCode::WrongFormat,
                    words(QT_TRANSLATE_NOOP("gpusizer", "version %1 is newer than this GPU Sizer reads"),
                          std::to_string(version)),
                    r.field("version"));
    }
    return {};
}

} // namespace gpusizer::core::detail
