#include "ConfigDocument.h"

#include "gpusizer/scenario/JsonRead.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>
#include <yaml-cpp/yaml.h>

namespace gpusizer::core::detail {

using nlohmann::json;

std::string ConfigDocument::at(const std::string& key) const {
    return position(key) + ": " + key;
}

std::string ConfigDocument::position(const std::string& key) const {
    if (const auto m = marks.find(key); m != marks.end()) {
        return displayable(path) + ":" + std::to_string(m->second.first) + ":" + std::to_string(m->second.second);
    }
    return displayable(path);
}

const json* ConfigDocument::find(std::string_view dottedKey) const {
    const json* node = &root;
    std::size_t start = 0;
    while (start <= dottedKey.size()) {
        const std::size_t dot = dottedKey.find('.', start);
        const std::string part(
            dottedKey.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
        if (!node->is_object()) {
            return nullptr;
        }
        const auto it = node->find(part);
        if (it == node->end()) {
            return nullptr;
        }
        node = &*it;
        if (dot == std::string_view::npos) {
            return node;
        }
        start = dot + 1;
    }
    return nullptr;
}

json& dottedSlot(json& root, std::string_view dottedKey) {
    json* node = &root;
    std::size_t start = 0;
    for (std::size_t dot = dottedKey.find('.'); dot != std::string_view::npos; dot = dottedKey.find('.', start)) {
        json& child = (*node)[std::string(dottedKey.substr(start, dot - start))];
        if (!child.is_object()) {
            child = json::object();
        }
        node = &child;
        start = dot + 1;
    }
    return (*node)[std::string(dottedKey.substr(start))];
}

/// The offset of the first byte that is not part of well-formed UTF-8, or npos. yaml-cpp passes such bytes through,
/// and a name or a report line holding them could not be saved as JSON.
std::size_t invalidUtf8Offset(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        if (length == 0 || i + length > s.size() || (length == 2 && c < 0xC2) || (length == 4 && c > 0xF4)) {
            return i;
        }
        for (std::size_t k = 1; k < length; ++k) {
            if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) {
                return i;
            }
        }
        const auto next = static_cast<unsigned char>(s[i + 1 < s.size() ? i + 1 : i]);
        if ((c == 0xE0 && next < 0xA0) || (c == 0xED && next > 0x9F) || (c == 0xF0 && next < 0x90) ||
            (c == 0xF4 && next > 0x8F)) {
            return i; // overlong forms and UTF-16 surrogates
        }
        i += length;
    }
    return std::string_view::npos;
}

namespace {

/// A plain scalar as PyYAML's resolver reads it (YAML 1.1), with OmegaConf's reading of 1e-4 as a number.
json plainScalar(const std::string& text) {
    static const std::set<std::string> kNull{"", "~", "null", "Null", "NULL"};
    static const std::set<std::string> kTrue{"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"};
    static const std::set<std::string> kFalse{"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"};
    if (kNull.count(text) != 0) {
        return nullptr;
    }
    if (kTrue.count(text) != 0) {
        return true;
    }
    if (kFalse.count(text) != 0) {
        return false;
    }
    std::string digits;
    for (char c : text) {
        if (c != '_') {
            digits += c;
        }
    }
    const char* begin = digits.data() + (digits.rfind('+', 0) == 0 ? 1 : 0);
    const char* end = digits.data() + digits.size();
    std::int64_t whole = 0;
    if (auto [p, ec] = std::from_chars(begin, end, whole); ec == std::errc() && p == end) {
        return whole;
    }
    double real = 0;
    if (auto [p, ec] = std::from_chars(begin, end, real); ec == std::errc() && p == end && std::isfinite(real)) {
        return real;
    }
    return text;
}

struct Converter {
    ConfigDocument& doc;
    std::size_t nodes = 0;

    Result<json> convert(const YAML::Node& node, const std::string& path, int depth) {
        if (++nodes > kMaxConfigNodes || depth > kMaxNestingDepth) {
            return fail(ErrorCode::TooLarge,
                        QT_TRANSLATE_NOOP("gpusizer", "expands to too many values or nests too deep (aliases?)"),
                        doc.at(path));
        }
        switch (node.Type()) {
        case YAML::NodeType::Null:
        case YAML::NodeType::Undefined:
            return json(nullptr);
        case YAML::NodeType::Scalar:
            // yaml-cpp writes some escapes ("\_", "\xA0") as single bytes: what is not UTF-8 is refused here.
            if (invalidUtf8Offset(node.Scalar()) != std::string_view::npos) {
                return fail(ErrorCode::InvalidJson,
                            QT_TRANSLATE_NOOP("gpusizer", "an escape in this value is not valid UTF-8"), doc.at(path));
            }
            // A quoted scalar carries the non-specific tag "!": it is a string whatever it spells.
            return node.Tag() == "!" || node.Tag() == "tag:yaml.org,2002:str" ? json(node.Scalar())
                                                                              : plainScalar(node.Scalar());
        case YAML::NodeType::Sequence: {
            json out = json::array();
            for (std::size_t i = 0; i < node.size(); ++i) {
                GPUSIZER_ASSIGN(json item, convert(node[i], path + "[" + std::to_string(i) + "]", depth + 1));
                out.push_back(std::move(item));
            }
            return out;
        }
        case YAML::NodeType::Map: {
            json out = json::object();
            for (const auto& entry : node) {
                if (!entry.first.IsScalar()) {
                    return fail(ErrorCode::WrongType, QT_TRANSLATE_NOOP("gpusizer", "a key must be plain text"),
                                doc.at(path));
                }
                const std::string key = entry.first.Scalar();
                if (invalidUtf8Offset(key) != std::string_view::npos) {
                    return fail(ErrorCode::InvalidJson,
                                QT_TRANSLATE_NOOP("gpusizer", "an escape in this key is not valid UTF-8"),
                                doc.at(path));
                }
                const std::string child = path.empty() ? key : path + "." + key;
                const YAML::Mark mark = entry.first.Mark();
                doc.marks[child] = {mark.line + 1, mark.column + 1};
                GPUSIZER_ASSIGN(json value, convert(entry.second, child, depth + 1));
                out[key] = std::move(value);
            }
            return out;
        }
        }
        return json(nullptr);
    }
};

bool looksLikeJson(std::string_view bytes) {
    const auto first = bytes.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && bytes[first] == '{';
}

/// The guards every text document passes: its size, no NUL byte, well-formed UTF-8.
Result<void> checkText(std::string_view bytes, const std::string& path) {
    if (bytes.size() > kMaxDocumentBytes) {
        return fail(ErrorCode::TooLarge, QT_TRANSLATE_NOOP("gpusizer", "file is larger than 16 MiB"), path);
    }
    if (const auto nul = bytes.find('\0'); nul != std::string_view::npos) {
        return fail(
            ErrorCode::InvalidJson,
            words(QT_TRANSLATE_NOOP("gpusizer", "not a text file (a NUL byte at offset %1)"), std::to_string(nul)),
            path);
    }
    if (const auto bad = invalidUtf8Offset(bytes); bad != std::string_view::npos) {
        return fail(
            ErrorCode::InvalidJson,
            words(QT_TRANSLATE_NOOP("gpusizer", "not a text file (invalid UTF-8 at offset %1)"), std::to_string(bad)),
            path);
    }
    return {};
}

} // namespace

Result<ConfigDocument> readConfigDocument(std::string_view bytes, std::string path) {
    ConfigDocument doc;
    doc.path = std::move(path);
    if (looksLikeJson(bytes)) {
        GPUSIZER_ASSIGN(doc.root, parseDocument(bytes, doc.path));
        return doc;
    }
    GPUSIZER_CHECK(checkText(bytes, doc.path));
    YAML::Node node;
    try {
        node = YAML::Load(std::string(bytes));
    } catch (const YAML::Exception& ex) {
        return fail(ErrorCode::InvalidJson, words(QT_TRANSLATE_NOOP("gpusizer", "not valid YAML (%1)"), ex.msg),
                    doc.path + ":" + std::to_string(ex.mark.line + 1) + ":" + std::to_string(ex.mark.column + 1));
    }
    if (!node.IsMap()) {
        return fail(ErrorCode::WrongFormat,
                    QT_TRANSLATE_NOOP("gpusizer", "not a training config: the file is not a mapping of keys"),
                    doc.path);
    }
    try {
        Converter converter{doc};
        GPUSIZER_ASSIGN(doc.root, converter.convert(node, "", 0));
    } catch (const YAML::Exception& ex) {
        return fail(ErrorCode::InvalidJson, words(QT_TRANSLATE_NOOP("gpusizer", "not valid YAML (%1)"), ex.msg),
                    doc.path);
    }
    return doc;
}

namespace {

/// Where each byte of a logical command line stood in the file.
struct ScriptLine {
    std::string text;
    std::vector<std::pair<int, int>> at; ///< 1-based line and column of text[i]
};

/// The file's logical lines: a line ending in a backslash goes on with the next (POSIX sh), comments dropped.
std::vector<ScriptLine> logicalLines(std::string_view bytes) {
    std::vector<ScriptLine> out(1);
    int line = 1;
    int column = 1;
    bool comment = false;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const char c = bytes[i];
        if (c == '\\' && i + 1 < bytes.size() && bytes[i + 1] == '\n' && !comment) {
            ++i;
            ++line;
            column = 1;
            continue;
        }
        if (c == '\n') {
            out.emplace_back();
            comment = false;
            ++line;
            column = 1;
            continue;
        }
        // A '#' starting a word begins a comment (inside a word it is the word's).
        comment =
            comment ||
            (c == '#' && (out.back().text.empty() || std::isspace(static_cast<unsigned char>(out.back().text.back()))));
        if (!comment && c != '\r') {
            out.back().text += c;
            out.back().at.emplace_back(line, column);
        }
        ++column;
    }
    return out;
}

/// A line's words, quotes removed (single quotes literal, double quotes and bare words with $NAME and ${NAME} taken
/// from the variables the script set before), each with where it began.
std::vector<std::pair<std::string, std::pair<int, int>>> shellWords(const ScriptLine& line,
                                                                    const std::map<std::string, std::string>& vars) {
    std::vector<std::pair<std::string, std::pair<int, int>>> words;
    const std::string& t = line.text;
    std::size_t i = 0;
    while (i < t.size()) {
        while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i]))) {
            ++i;
        }
        if (i >= t.size()) {
            break;
        }
        const auto start = line.at[i];
        std::string word;
        char quote = 0;
        while (i < t.size() && (quote != 0 || !std::isspace(static_cast<unsigned char>(t[i])))) {
            const char c = t[i];
            if (quote == 0 && (c == '\'' || c == '"')) {
                quote = c;
            } else if (c == quote) {
                quote = 0;
            } else if (c == '$' && quote != '\'') {
                const bool braced = i + 1 < t.size() && t[i + 1] == '{';
                std::size_t end = i + (braced ? 2 : 1);
                while (end < t.size() && (std::isalnum(static_cast<unsigned char>(t[end])) || t[end] == '_')) {
                    ++end;
                }
                const std::string name = t.substr(i + (braced ? 2 : 1), end - i - (braced ? 2 : 1));
                const auto known = vars.find(name);
                if (name.empty() || known == vars.end() || (braced && (end >= t.size() || t[end] != '}'))) {
                    word += c; // left as written: the reader reports what it cannot resolve
                } else {
                    word += known->second;
                    i = braced ? end : end - 1;
                }
            } else {
                word += c;
            }
            ++i;
        }
        words.emplace_back(std::move(word), start);
    }
    return words;
}

bool isName(std::string_view s, bool dotted) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (dotted && (c == '.' || c == '-'));
    });
}

} // namespace

namespace {

/// The module a launch script runs, and how its arguments are written.
struct Launcher {
    std::string_view module; ///< a word holding this starts the command ("verl.trainer.main_ppo")
    bool hydra;              ///< Hydra's key=value overrides; otherwise argparse's --key value
};

constexpr Launcher kVerlLauncher{"verl.trainer.main_ppo", true};
constexpr Launcher kOpenRlhfLauncher{"openrlhf.cli.", false};

/// The value as Hydra or argparse hands it to the framework: a YAML scalar or flow list; None and null are null.
json scriptValue(const std::string& text, const std::string& path) {
    if (text == "None" || text == "null") {
        return nullptr;
    }
    if (auto scalar = readConfigDocument("v: " + text, path)) {
        return scalar->root["v"];
    }
    return text; // what YAML cannot read stays the text written
}

using ScriptWords = std::vector<std::pair<std::string, std::pair<int, int>>>;

/// Hydra's overrides after the module: key=value, +key=value (add), ++key=value (add or replace).
void readHydraOverrides(ScriptWords::const_iterator w, ScriptWords::const_iterator end, ConfigDocument& doc) {
    for (; w != end; ++w) {
        std::string word = w->first;
        word.erase(0, std::min(word.find_first_not_of('+'), word.size()));
        const auto eq = word.find('=');
        if (eq == std::string::npos || !isName(word.substr(0, eq), true)) {
            continue; // python's own flags, "$@", redirections
        }
        const std::string key = word.substr(0, eq);
        dottedSlot(doc.root, key) = scriptValue(word.substr(eq + 1), doc.path);
        doc.marks[key] = w->second;
    }
}

/// Where the command's arguments end: a pipe, a list operator, a redirection (2>&1, >log), the script's own
/// arguments ($@, $*) or a variable the script did not set.
bool endsArguments(const std::string& word) {
    if (word.empty()) {
        return false;
    }
    static const std::set<std::string> kOperators{"|", "||", "&", "&&", ";", "$@", "${@}", "$*", "${*}"};
    const std::size_t digits = word.find_first_not_of("0123456789");
    return kOperators.count(word) > 0 || word.front() == '$' ||
           (digits != std::string::npos && (word[digits] == '<' || word[digits] == '>'));
}

/// argparse's options after the module: --key value, --key=value, --key a b c (nargs), --flag alone (store_true);
/// OpenRLHF's dotted names (--actor.model_name_or_path) nest, its names from before v0.10.2 are read as today's.
void readArgparseOptions(ScriptWords::const_iterator w, ScriptWords::const_iterator end, const std::string& entryPoint,
                         ConfigDocument& doc) {
    while (w != end && !endsArguments(w->first)) {
        const std::string& word = w->first;
        if (word.rfind("--", 0) != 0 || word.size() < 3) {
            ++w; // a stray word
            continue;
        }
        const auto eq = word.find('=');
        const std::string written = word.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        const auto at = w->second;
        ++w;
        if (!isName(written, true)) {
            continue;
        }
        std::string key = written;
        if (const auto current = openRlhfCurrentFlag(entryPoint, written)) {
            key = *current;
            doc.spelledAs[key] = "--" + written;
        }
        json value = true;
        if (eq != std::string::npos) {
            value = scriptValue(word.substr(eq + 1), doc.path);
        } else {
            std::vector<json> values;
            for (; w != end && w->first.rfind("--", 0) != 0 && !endsArguments(w->first); ++w) {
                values.push_back(scriptValue(w->first, doc.path));
            }
            if (values.size() == 1) {
                value = std::move(values.front());
            } else if (values.size() > 1) {
                value = std::move(values);
            }
        }
        dottedSlot(doc.root, key) = std::move(value);
        doc.marks[key] = at;
    }
}

/// The launcher whose module a line of the script names (comments left out), or nullptr.
const Launcher* launcherOf(std::string_view bytes) {
    for (const ScriptLine& line : logicalLines(bytes)) {
        for (const Launcher* l : {&kVerlLauncher, &kOpenRlhfLauncher}) {
            if (line.text.find(l->module) != std::string::npos) {
                return l;
            }
        }
    }
    return nullptr;
}

} // namespace

std::optional<ConfigFormat> launchScriptFormat(std::string_view bytes) {
    const Launcher* l = launcherOf(bytes);
    if (l == nullptr) {
        return std::nullopt;
    }
    return l->hydra ? ConfigFormat::Verl : ConfigFormat::OpenRlhf;
}

Result<ConfigDocument> readLaunchScript(std::string_view bytes, std::string path) {
    ConfigDocument doc;
    doc.path = std::move(path);
    GPUSIZER_CHECK(checkText(bytes, doc.path));
    doc.root = json::object();
    const Launcher* launcher = launcherOf(bytes);
    std::map<std::string, std::string> vars;
    bool found = false;
    for (const ScriptLine& line : logicalLines(bytes)) {
        const auto words = shellWords(line, vars);
        if (words.empty()) {
            continue;
        }
        const auto command =
            launcher == nullptr ? words.end() : std::find_if(words.begin(), words.end(), [&](const auto& w) {
                return w.first.find(launcher->module) != std::string::npos;
            });
        if (command == words.end()) {
            // NAME=value (or export NAME=value) alone on a line: a variable later words may use.
            const std::size_t first = words.front().first == "export" ? 1 : 0;
            if (words.size() == first + 1) {
                const std::string& w = words[first].first;
                const auto eq = w.find('=');
                if (eq != std::string::npos && isName(w.substr(0, eq), false)) {
                    vars[w.substr(0, eq)] = w.substr(eq + 1);
                }
            }
            continue;
        }
        if (found) {
            return fail(
                ErrorCode::WrongFormat,
                core::words(QT_TRANSLATE_NOOP("gpusizer", "line %1 starts a second `%2` command: import one run "
                                                          "per script"),
                            std::to_string(command->second.first), std::string(launcher->module)),
                doc.path);
        }
        found = true;
        const auto array = std::find_if(std::next(command), words.end(),
                                        [](const auto& w) { return w.first.find("[@]}") != std::string::npos; });
        if (array != words.end()) {
            return fail(
                ErrorCode::WrongFormat,
                core::words(QT_TRANSLATE_NOOP("gpusizer", "line %1: options passed through a bash array (%2) are not "
                                                          "read; write them on the command"),
                            std::to_string(array->second.first), array->first),
                doc.path);
        }
        if (launcher->hydra) {
            readHydraOverrides(std::next(command), words.end(), doc);
        } else {
            // The entry point (train_ppo_ray, train_dpo, train_sft) decides the run kind: kept as a key of its own.
            const std::string& word = command->first;
            std::string entryPoint = word.substr(word.find(launcher->module) + launcher->module.size());
            entryPoint.resize(std::min(
                entryPoint.size(),
                entryPoint.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789")));
            doc.root["entry_point"] = entryPoint;
            doc.marks["entry_point"] = command->second;
            readArgparseOptions(std::next(command), words.end(), entryPoint, doc);
        }
    }
    if (!found) {
        return fail(ErrorCode::WrongFormat,
                    QT_TRANSLATE_NOOP("gpusizer", "no `python3 -m verl.trainer.main_ppo` or `python3 -m "
                                                  "openrlhf.cli.…` command in the script"),
                    doc.path);
    }
    return doc;
}

} // namespace gpusizer::core::detail
