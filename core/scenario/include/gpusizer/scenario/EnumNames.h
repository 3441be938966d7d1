#pragma once
// The name tables behind toString / parseEnum / allValues: each room that owns an enumeration instantiates the
// three for it from one table (scenario's in Enums.cpp, memory's in EstimateEnums.cpp).

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace gpusizer::core {

template <class E>
std::optional<E> parseEnum(std::string_view text);
template <class E>
const std::vector<E>& allValues();

namespace detail {

/// Specialised once per enumeration, by GPUSIZER_NAMES, with its values and their names in declaration order.
template <class E>
struct Names;

template <class E>
const char* nameOf(E value) {
    for (const auto& [v, name] : Names<E>::table) {
        if (v == value) {
            return name;
        }
    }
    return "?";
}

} // namespace detail

template <class E>
std::optional<E> parseEnum(std::string_view text) {
    for (const auto& [v, name] : detail::Names<E>::table) {
        if (text == name) {
            return v;
        }
    }
    return std::nullopt;
}

template <class E>
const std::vector<E>& allValues() {
    static const std::vector<E> values = [] {
        std::vector<E> out;
        for (const auto& entry : detail::Names<E>::table) {
            out.push_back(entry.first);
        }
        return out;
    }();
    return values;
}

} // namespace gpusizer::core

// Both macros are used inside namespace gpusizer::core.
#define GPUSIZER_NAMES(E, ...)                                                                                         \
    template <>                                                                                                        \
    struct detail::Names<E> {                                                                                          \
        static constexpr std::pair<E, const char*> table[] = {__VA_ARGS__};                                            \
    };

#define GPUSIZER_ENUM_API(E)                                                                                           \
    const char* toString(E v) {                                                                                        \
        return detail::nameOf(v);                                                                                      \
    }                                                                                                                  \
    template std::optional<E> parseEnum<E>(std::string_view);                                                          \
    template const std::vector<E>& allValues<E>();
