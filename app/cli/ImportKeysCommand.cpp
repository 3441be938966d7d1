#include "Commands.h"
#include "gpusizer/import/ImportKeys.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

namespace gpusizer::cli {

namespace {

/// One format's keys as a markdown table (every table of the format, in reading order).
std::string markdownTable(core::ConfigFormat format, const std::vector<core::ImportKeyTable>& tables) {
    std::string out = "| key | scenario field | default when absent | source |\n|---|---|---|---|\n";
    for (const auto& table : tables) {
        if (table.format != format) {
            continue;
        }
        for (const auto& k : table.keys) {
            out += "| " + k.key + " | " + k.field + " | " + k.fallback + " | " + k.source + " |\n";
        }
    }
    return out;
}

std::string snapshotOf(core::ConfigFormat format, const std::vector<core::ImportKeyTable>& tables) {
    for (const auto& table : tables) {
        if (table.format == format) {
            return table.snapshot;
        }
    }
    return {};
}

/// The formats that have tables, once each, in the order of their first table.
std::vector<core::ConfigFormat> formatsOf(const std::vector<core::ImportKeyTable>& tables) {
    std::vector<core::ConfigFormat> formats;
    for (const auto& table : tables) {
        if (std::find(formats.begin(), formats.end(), table.format) == formats.end()) {
            formats.push_back(table.format);
        }
    }
    return formats;
}

/// The template with each line "@IMPORT_KEYS name@" replaced by that format's table; every format must be placed.
int writePage(const Args& a, const std::vector<core::ImportKeyTable>& tables, std::ostream& out, std::ostream& err) {
    const std::string& path = *a.page;
    const auto bytes = readInput(path, err);
    if (!bytes) {
        return kBadInput;
    }
    std::istringstream in(*bytes);
    std::vector<core::ConfigFormat> placed;
    std::string line;
    std::string page;
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string open = "@IMPORT_KEYS ";
        if (line.rfind(open, 0) != 0 || line.back() != '@') {
            page += line + "\n";
            continue;
        }
        const std::string name = line.substr(open.size(), line.size() - open.size() - 1);
        const auto format = core::parseConfigFormat(name);
        const auto formats = formatsOf(tables);
        if (!format || std::find(formats.begin(), formats.end(), *format) == formats.end()) {
            err << "gpusizer-cli: " << path << ":" << number << ": no key table for '" << name << "'\n";
            return kBadInput;
        }
        placed.push_back(*format);
        page += markdownTable(*format, tables);
    }
    for (core::ConfigFormat format : formatsOf(tables)) {
        if (std::find(placed.begin(), placed.end(), format) == placed.end()) {
            err << "gpusizer-cli: " << path << ": the page has no @IMPORT_KEYS " << core::toString(format) << "@\n";
            return kBadInput;
        }
    }
    if (a.output) {
        return writeOutput(*a.output, page, err) ? kOk : kOutputFailed;
    }
    out << page;
    return kOk;
}

} // namespace

int importKeysCommand(const Args& a, std::ostream& out, std::ostream& err) {
    const auto tables = core::importKeyTables();
    if (a.page) {
        return writePage(a, tables, out, err);
    }
    std::vector<core::ConfigFormat> formats = formatsOf(tables);
    if (!a.positional.empty()) {
        const auto format = core::parseConfigFormat(a.positional[0]);
        if (!format || std::find(formats.begin(), formats.end(), *format) == formats.end()) {
            err << "gpusizer-cli: no key table for '" << a.positional[0] << "' (";
            for (std::size_t i = 0; i < formats.size(); ++i) {
                err << (i == 0 ? "" : ", ") << core::toString(formats[i]);
            }
            err << ")\n";
            return kUsage;
        }
        formats = {*format};
    }
    if (a.json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& table : tables) {
            if (std::find(formats.begin(), formats.end(), table.format) == formats.end()) {
                continue;
            }
            for (const auto& k : table.keys) {
                list.push_back({{"format", core::toString(table.format)},
                                {"key", k.key},
                                {"field", k.field},
                                {"default", k.fallback},
                                {"source", k.citation}});
            }
        }
        out << nlohmann::json{{"format", "gpusizer-import-keys"}, {"version", 1}, {"keys", list}}.dump(2) << "\n";
        return kOk;
    }
    for (core::ConfigFormat format : formats) {
        out << "## " << core::toString(format) << " (" << snapshotOf(format, tables) << ")\n\n"
            << markdownTable(format, tables) << "\n";
    }
    return kOk;
}

} // namespace gpusizer::cli
