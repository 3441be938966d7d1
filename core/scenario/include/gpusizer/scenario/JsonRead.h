#pragma once
// Internal helpers for strict, path-aware JSON reading (catalogs, scenarios, measurement imports).

#include "gpusizer/scenario/Result.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#define GPUSIZER_CONCAT_INNER(a, b) a##b
#define GPUSIZER_CONCAT(a, b) GPUSIZER_CONCAT_INNER(a, b)
/// Evaluates a Result; on error returns it from the enclosing function, else assigns the value to lhs.
#define GPUSIZER_ASSIGN(lhs, expr)                                                                                     \
    auto GPUSIZER_CONCAT(result_, __LINE__) = (expr);                                                                  \
    if (!GPUSIZER_CONCAT(result_, __LINE__)) {                                                                         \
        return tl::unexpected(std::move(GPUSIZER_CONCAT(result_, __LINE__).error()));                                  \
    }                                                                                                                  \
    lhs = std::move(*GPUSIZER_CONCAT(result_, __LINE__))

/// Evaluates a Result<void>; on error returns it from the enclosing function.
#define GPUSIZER_CHECK(expr)                                                                                           \
    if (auto check = (expr); !check) {                                                                                 \
        return tl::unexpected(std::move(check.error()));                                                               \
    }

namespace gpusizer::core::detail {

/// Largest document any loader accepts, and the deepest nesting (checked before parsing).
inline constexpr std::size_t kMaxDocumentBytes = 16u << 20;
inline constexpr int kMaxNestingDepth = 64;

/// Parses bytes into JSON with a size and depth guard; errors name `where`.
/// No exception escapes it: a number out of a double's range (1e400) is an error like any other.
Result<nlohmann::json> parseDocument(std::string_view bytes, std::string_view where);

/// A library exception's message without nlohmann's "[json.exception.type_error.302] (/pointer) " prefix.
std::string libraryReason(const std::exception& ex);

/// Reads the fields of one JSON object, each error naming "<where>: <field>" and the reason.
class ObjectReader {
public:
    ObjectReader(const nlohmann::json& object, std::string where) : m_object(object), m_where(std::move(where)) {}

    bool has(const char* key) const;
    Result<std::string> string(const char* key) const;
    Result<std::optional<std::string>> optionalString(const char* key) const;
    Result<double> number(const char* key, double min, double max) const;
    Result<std::optional<double>> optionalNumber(const char* key, double min, double max) const;
    Result<std::int64_t> integer(const char* key, std::int64_t min, std::int64_t max) const;
    Result<std::optional<std::int64_t>> optionalInteger(const char* key, std::int64_t min, std::int64_t max) const;
    Result<std::optional<bool>> optionalBool(const char* key) const;
    Result<bool> boolean(const char* key) const;
    /// The named child object (required).
    Result<ObjectReader> object(const char* key) const;
    const nlohmann::json& raw() const { return m_object; }
    std::string field(const char* key) const { return m_where + ": " + key; }
    const std::string& where() const { return m_where; }

private:
    const nlohmann::json& m_object;
    std::string m_where;
};

/// The "format" and "version" of a GPU Sizer document: the format must be `expected` (else `mismatch`, a text with
/// %1 for the format found) and the version at most 1.
Result<void> checkFormatVersion(const ObjectReader& r, std::string_view expected, const char* mismatch);

} // namespace gpusizer::core::detail
