#include "gpusizer/present/Table.h"

#include "gpusizer/present/Format.h"

#include <algorithm>
#include <cmath>

namespace gpusizer::present {

namespace {

Cell makeNumber(CellKind kind, double value, int decimals = -1) {
    Cell c;
    c.kind = kind;
    c.value = value;
    c.decimals = decimals;
    return c;
}

/// Display width of UTF-8 text: code points, not bytes (×, –, → and CJK are multi-byte).
std::size_t width(const std::string& s) {
    std::size_t n = 0;
    for (char ch : s) {
        n += (static_cast<unsigned char>(ch) & 0xC0U) != 0x80U ? 1 : 0;
    }
    return n;
}

std::string pad(const std::string& s, std::size_t to, Align align) {
    const std::size_t w = width(s);
    const std::string fill(to > w ? to - w : 0, ' ');
    return align == Align::Right ? fill + s : s + fill;
}

} // namespace

Table withRowHeaderColumn(const Table& t) {
    if (t.rowHeaders.empty()) {
        return t;
    }
    Table out;
    out.keys = t.keys;
    out.columns.emplace_back(t.rowHeaderTitle);
    out.columns.insert(out.columns.end(), t.columns.begin(), t.columns.end());
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        std::vector<Cell> cells{Cell::of(r < t.rowHeaders.size() ? t.rowHeaders[r] : Message{})};
        if (!t.rows[r].empty() && t.rows[r].front().strong) {
            cells.front().bold();
        }
        cells.insert(cells.end(), t.rows[r].begin(), t.rows[r].end());
        out.rows.push_back(std::move(cells));
    }
    return out;
}

Cell Cell::of(Message m) {
    Cell c;
    c.kind = CellKind::Text;
    c.text = std::move(m);
    return c;
}
Cell Cell::bytes(std::int64_t b) {
    return makeNumber(CellKind::Bytes, static_cast<double>(b));
}
Cell Cell::params(std::int64_t p) {
    return makeNumber(CellKind::Params, static_cast<double>(p));
}
Cell Cell::count(std::int64_t n) {
    return makeNumber(CellKind::Count, static_cast<double>(n));
}
Cell Cell::percent(double share, int decimals) {
    return makeNumber(CellKind::Percent, share, decimals);
}
Cell Cell::signedPercent(double share) {
    return makeNumber(CellKind::SignedPercent, share, 1);
}
Cell Cell::money(double usd) {
    return makeNumber(CellKind::Money, usd);
}
Cell Cell::hours(double h) {
    return makeNumber(CellKind::Hours, h);
}
Cell Cell::seconds(double s, int decimals) {
    return makeNumber(CellKind::Seconds, s, decimals);
}
Cell Cell::number(double v, int decimals) {
    return makeNumber(CellKind::Number, v, decimals);
}
Cell Cell::label(Message m, double sortValue) {
    Cell c = makeNumber(CellKind::Number, sortValue);
    c.text = std::move(m);
    return c;
}

Cell& Cell::withTooltip(Message m) {
    tooltip = std::move(m);
    return *this;
}
Cell& Cell::withTone(Tone t) {
    tone = t;
    return *this;
}
Cell& Cell::bold(bool on) {
    strong = on;
    return *this;
}

std::size_t Table::add(std::vector<Cell> cells, std::string key) {
    rows.push_back(std::move(cells));
    keys.push_back(std::move(key));
    return rows.size() - 1;
}

Table Table::select(const std::vector<std::size_t>& columnIndices) const {
    Table out;
    out.keys = keys;
    out.rowHeaders = rowHeaders;
    out.rowHeaderTitle = rowHeaderTitle;
    for (std::size_t c : columnIndices) {
        out.columns.push_back(columns.at(c));
    }
    for (const auto& row : rows) {
        std::vector<Cell> cells;
        for (std::size_t c : columnIndices) {
            cells.push_back(c < row.size() ? row[c] : Cell{});
        }
        out.rows.push_back(std::move(cells));
    }
    return out;
}

Section& Section::paragraph(Message m) {
    blocks.push_back({Block::Kind::Paragraph, {std::move(m)}, {}});
    return *this;
}
Section& Section::note(Message m) {
    blocks.push_back({Block::Kind::Note, {std::move(m)}, {}});
    return *this;
}
Section& Section::bullets(std::vector<Message> items) {
    blocks.push_back({Block::Kind::Bullets, std::move(items), {}});
    return *this;
}
Section& Section::table(Table t) {
    blocks.push_back({Block::Kind::Table, {}, std::move(t)});
    return *this;
}

std::string formatValue(const Cell& c) {
    switch (c.kind) {
    case CellKind::Empty:
    case CellKind::Text:
        return {};
    case CellKind::Bytes:
        return gib(static_cast<std::int64_t>(c.value));
    case CellKind::Params:
        return params(static_cast<std::int64_t>(c.value));
    case CellKind::Count:
        return count(static_cast<std::int64_t>(std::llround(c.value)));
    case CellKind::Percent:
        return percent(c.value, std::max(0, c.decimals));
    case CellKind::SignedPercent: {
        // Appending (not "+" + string&&) keeps GCC 12's -Wrestrict false positive away at -O3.
        std::string out = c.value >= 0 ? "+" : "";
        out += percent(c.value, c.decimals < 0 ? 1 : c.decimals);
        return out;
    }
    case CellKind::Money:
        return usd(c.value);
    case CellKind::Hours:
        return duration(c.value);
    case CellKind::Seconds:
        return number(c.value, c.decimals < 0 ? 2 : c.decimals) + " s";
    case CellKind::Number:
        return number(c.value, c.decimals < 0 ? 0 : c.decimals);
    }
    return {};
}

std::string englishText(const Cell& c) {
    if (c.kind == CellKind::Text || !c.text.empty()) {
        return english(c.text);
    }
    return formatValue(c);
}

std::string renderText(const Table& input, const std::string& indent) {
    const Table t = withRowHeaderColumn(input);
    std::vector<std::size_t> widths(t.columns.size(), 0);
    std::vector<std::string> headers;
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        headers.push_back(english(t.columns[c].header));
        widths[c] = width(headers.back());
    }
    std::vector<std::vector<std::string>> cells;
    for (const auto& row : t.rows) {
        std::vector<std::string> line;
        for (std::size_t c = 0; c < t.columns.size(); ++c) {
            line.push_back(c < row.size() ? englishText(row[c]) : std::string());
            widths[c] = std::max(widths[c], width(line.back()));
        }
        cells.push_back(std::move(line));
    }
    auto emit = [&](const std::vector<std::string>& line) {
        std::string out = indent;
        for (std::size_t c = 0; c < line.size(); ++c) {
            out += pad(line[c], widths[c], t.columns[c].align);
            out += c + 1 < line.size() ? "  " : "";
        }
        while (!out.empty() && out.back() == ' ') {
            out.pop_back();
        }
        return out + "\n";
    };
    std::string out = emit(headers);
    for (const auto& line : cells) {
        out += emit(line);
    }
    return out;
}

std::string renderText(const Section& s) {
    std::string out;
    if (!s.title.empty()) {
        out += english(s.title) + "\n";
    }
    for (const auto& b : s.blocks) {
        switch (b.kind) {
        case Block::Kind::Paragraph:
        case Block::Kind::Note:
            out += english(b.lines.front()) + "\n";
            break;
        case Block::Kind::Bullets:
            for (const auto& line : b.lines) {
                out += "  - " + english(line) + "\n";
            }
            break;
        case Block::Kind::Table:
            out += renderText(b.table, "  ");
            break;
        }
    }
    return out;
}

} // namespace gpusizer::present
