// The walker over a format's rows and the reads that take their arguments from a row.

#include "KeyTable.h"

#include "gpusizer/import/ImportKeys.h"

#include <string>

namespace gpusizer::core::detail {

namespace {

std::string keyOf(const KeyRow& row, const std::string& prefix) {
    return prefix + row.key;
}

std::optional<bool> flagFallback(const KeyRow& row) {
    if (row.fallback == nullptr) {
        return std::nullopt;
    }
    return std::string_view(row.fallback) == "true";
}

std::optional<std::int64_t> integerFallback(const KeyRow& row) {
    if (row.fallback == nullptr) {
        return std::nullopt;
    }
    return std::stoll(row.fallback);
}

std::optional<double> numberFallback(const KeyRow& row) {
    if (row.fallback == nullptr) {
        return std::nullopt;
    }
    return std::stod(row.fallback);
}

std::optional<std::string> textFallback(const KeyRow& row) {
    if (row.fallback == nullptr) {
        return std::nullopt;
    }
    return std::string(row.fallback);
}

/// One direct row: read, then stored by its setter or its conversion.
Result<void> readRow(KeyReader& r, const KeyRow& row, const std::string& prefix) {
    switch (row.kind) {
    case ValueKind::Flag: {
        GPUSIZER_ASSIGN(auto v, readFlag(r, row, prefix));
        if (v && row.setFlag != nullptr) {
            row.setFlag(r.run(), *v);
        }
        return {};
    }
    case ValueKind::Integer: {
        GPUSIZER_ASSIGN(auto v, readInteger(r, row, prefix));
        if (v && row.setInteger != nullptr) {
            row.setInteger(r.run(), *v);
        }
        return {};
    }
    case ValueKind::Number: {
        GPUSIZER_ASSIGN(auto v, readNumber(r, row, prefix));
        if (v && row.setNumber != nullptr) {
            row.setNumber(r.run(), *v);
        }
        return {};
    }
    case ValueKind::Text: {
        GPUSIZER_ASSIGN(auto v, readText(r, row, prefix));
        if (v && row.convert != nullptr) {
            return row.convert(r, keyOf(row, prefix), *v);
        }
        return {};
    }
    case ValueKind::Ignored:
        r.ignore(keyOf(row, prefix), row.why);
        return {};
    case ValueKind::List:
    case ValueKind::Step:
        return {};
    }
    return {};
}

bool direct(const KeyRow& row) {
    return row.setFlag != nullptr || row.setInteger != nullptr || row.setNumber != nullptr || row.convert != nullptr ||
           row.kind == ValueKind::Ignored;
}

} // namespace

Result<void> walk(KeyReader& r, std::span<const KeyRow> rows, const std::string& prefix) {
    for (const KeyRow& row : rows) {
        if (row.step != nullptr) {
            GPUSIZER_CHECK(row.step(r, prefix));
        } else if (direct(row)) {
            GPUSIZER_CHECK(readRow(r, row, prefix));
        }
    }
    return {};
}

Result<std::optional<bool>> readFlag(KeyReader& r, const KeyRow& row, const std::string& prefix) {
    return r.flag(keyOf(row, prefix), row.field, row.source, flagFallback(row));
}

Result<std::optional<bool>> readFlagAt(KeyReader& r, const KeyRow& row, const std::string& key,
                                       std::optional<bool> fallback) {
    return r.flag(key, row.field, row.source, fallback);
}

Result<std::optional<std::int64_t>> readInteger(KeyReader& r, const KeyRow& row, const std::string& prefix) {
    return readIntegerAt(r, row, keyOf(row, prefix), integerFallback(row));
}

Result<std::optional<std::int64_t>> readIntegerAt(KeyReader& r, const KeyRow& row, const std::string& key,
                                                  std::optional<std::int64_t> fallback) {
    return r.integer(key, row.field, row.source, static_cast<std::int64_t>(row.min), static_cast<std::int64_t>(row.max),
                     fallback);
}

Result<std::optional<double>> readNumber(KeyReader& r, const KeyRow& row, const std::string& prefix) {
    return r.number(keyOf(row, prefix), row.field, row.source, row.min, row.max, numberFallback(row));
}

Result<std::optional<std::string>> readText(KeyReader& r, const KeyRow& row, const std::string& prefix) {
    return r.text(keyOf(row, prefix), row.field, row.source, textFallback(row));
}

Result<std::optional<std::string>> readTextAt(KeyReader& r, const KeyRow& row, const std::string& key) {
    return r.text(key, row.field, row.source, textFallback(row));
}

Result<std::optional<std::vector<std::string>>> readList(KeyReader& r, const KeyRow& row, const std::string& prefix) {
    return r.list(keyOf(row, prefix), row.field, row.source);
}

std::span<const KeyTable> keyTables() {
    static const std::vector<KeyTable> kTables = [] {
        std::vector<KeyTable> all;
        for (auto tables : {axolotlKeyTables(), llamaFactoryKeyTables(), torchtuneKeyTables(), trainerKeyTables(),
                            peftKeyTables(), accelerateKeyTables(), deepspeedKeyTables(), litgptKeyTables(),
                            arcticKeyTables(), verlKeyTables(), openRlhfKeyTables()}) {
            all.insert(all.end(), tables.begin(), tables.end());
        }
        return all;
    }();
    return kTables;
}

namespace {

std::string trimmed(std::string text) {
    while (!text.empty() && text.back() == ' ') {
        text.pop_back();
    }
    return text;
}

/// Markdown code: the text in backticks. (Appended, not `"`" + text`: GCC 12 at -O3 takes that concatenation for an
/// overlapping memcpy, its -Wrestrict false positive, bug 105329.)
std::string code(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 2);
    out += '`';
    out += text;
    out += '`';
    return out;
}

/// A row as the page shows it: its own words where it has them, else the key, field and default it reads with.
ImportKey shownRow(const KeyRow& row, std::string_view snapshot) {
    ImportKey key;
    key.key = row.shownKey != nullptr ? row.shownKey : code(row.key);
    if (row.kind == ValueKind::Ignored) {
        key.field = "(ignored: ";
        key.field += row.why;
        key.field += ")";
        return key;
    }
    key.field = row.shownField != nullptr ? row.shownField : row.field;
    if (row.shownDefault != nullptr) {
        key.fallback = row.shownDefault;
    } else if (row.fallback != nullptr) {
        key.fallback = row.kind == ValueKind::Text ? code(row.fallback) : row.fallback;
    }
    key.citation = row.source;
    std::string_view source = row.source;
    if (source.substr(0, snapshot.size()) == snapshot) {
        source.remove_prefix(snapshot.size());
    }
    key.source = std::string(source);
    return key;
}

} // namespace

} // namespace gpusizer::core::detail

namespace gpusizer::core {

std::vector<ImportKeyTable> importKeyTables() {
    std::vector<ImportKeyTable> out;
    for (const detail::KeyTable& table : detail::keyTables()) {
        ImportKeyTable shown{table.format, detail::trimmed(table.snapshot), {}};
        for (const detail::KeyRow& row : table.rows) {
            if (row.shownKey != nullptr && *row.shownKey == '\0') {
                continue; // shown with the row before it
            }
            ImportKey key = detail::shownRow(row, table.snapshot);
            // Keys ignored for the same reason share one line.
            if (row.kind == detail::ValueKind::Ignored && !shown.keys.empty() && shown.keys.back().field == key.field) {
                shown.keys.back().key += ", " + key.key;
                continue;
            }
            shown.keys.push_back(std::move(key));
        }
        out.push_back(std::move(shown));
    }
    return out;
}

} // namespace gpusizer::core
