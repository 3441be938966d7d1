#pragma once
// Typed tables and sections: what a view shows, built once from core results. The CLI renders them as text, the
// window through one generic table model, the report through its writer; the numbers are formatted in one place.

#include "gpusizer/present/Message.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gpusizer::present {

/// What a cell holds. The renderer formats the value by its kind (Format.h), so every view rounds alike.
enum class CellKind {
    Empty,
    Text,          ///< a message
    Bytes,         ///< GiB per the gib() rule
    Params,        ///< "8.03 B"
    Count,         ///< "2,048"
    Percent,       ///< a share shown as "9%"
    SignedPercent, ///< an error share shown as "+4.2%" / "−3.1%"
    Money,         ///< USD
    Hours,         ///< a duration given in hours ("45 min", "3.2 h", "2.1 days")
    Seconds,       ///< "0.42 s"
    Number,        ///< a plain number with `decimals` places
};

/// A verdict shade: green fits, amber tight (or fits with another layout), red does not fit; muted: does not apply.
enum class Tone { None, Good, Warn, Bad, Muted };
enum class Align { Left, Right };

struct Cell {
    CellKind kind = CellKind::Empty;
    double value = 0;  ///< bytes, count, share, USD, hours, seconds; also what the cell sorts by
    int decimals = -1; ///< Number, Seconds, Percent: places after the point (-1: the kind's default)
    Message text;      ///< Text cells; for a number, a label shown instead of it (e.g. "none") when set
    Message tooltip;
    Tone tone = Tone::None;
    bool strong = false;  ///< bold: totals, the scenario's own GPU
    std::string sortText; ///< a text cell's sort key when it differs from what it shows (a marked name)

    static Cell of(Message m);
    static Cell bytes(std::int64_t bytes);
    static Cell params(std::int64_t params);
    static Cell count(std::int64_t n);
    static Cell percent(double share, int decimals = 0);
    static Cell signedPercent(double share);
    static Cell money(double usd);
    static Cell hours(double h);
    static Cell seconds(double s, int decimals = 2);
    static Cell number(double v, int decimals);
    /// A number cell that shows a word instead ("none", "–") but still sorts by `sortValue`.
    static Cell label(Message m, double sortValue);

    Cell& withTooltip(Message m);
    Cell& withTone(Tone t);
    Cell& bold(bool on = true);
    bool numeric() const { return kind != CellKind::Empty && kind != CellKind::Text; }
};

struct Column {
    Message header;
    Align align = Align::Left;
    Message tooltip;
    Column(Message h, Align a = Align::Left, Message tip = {}) // NOLINT(google-explicit-constructor)
        : header(std::move(h)), align(a), tooltip(std::move(tip)) {}
};

/// Rows of cells under columns. `keys` names each row (a GPU id, a component key) for selection and filters.
struct Table {
    std::vector<Column> columns;
    std::vector<std::vector<Cell>> rows;
    std::vector<std::string> keys;
    /// Row names when the columns are the things compared (the window shows them as the vertical header; text and
    /// report renderers as a first column titled `rowHeaderTitle`).
    std::vector<Message> rowHeaders;
    Message rowHeaderTitle;

    /// Appends a row (and its key); returns its index.
    std::size_t add(std::vector<Cell> cells, std::string key = {});
    /// The same rows with only the given columns, in that order.
    Table select(const std::vector<std::size_t>& columnIndices) const;
};

/// A part of a section: a paragraph, a small note, a bulleted list or a table.
struct Block {
    enum class Kind { Paragraph, Note, Bullets, Table };
    Kind kind = Kind::Paragraph;
    std::vector<Message> lines; ///< one for a paragraph or a note, one per bullet
    Table table;
};

/// A titled group of blocks: one per report section, one per CLI command's output.
struct Section {
    Message title;
    std::vector<Block> blocks;

    Section& paragraph(Message m);
    Section& note(Message m);
    Section& bullets(std::vector<Message> items);
    Section& table(Table t);
};

/// The table with its row headers as a first column (for renderers without a vertical header).
Table withRowHeaderColumn(const Table& table);

/// The value of a numeric cell as text ("2.13 GiB", "+4.2%", "$12.34"); empty for text and empty cells.
std::string formatValue(const Cell& cell);
/// A cell in English: its label or text, else its formatted value.
std::string englishText(const Cell& cell);

/// Aligned columns for a terminal: header, then rows, each line prefixed by `indent`.
std::string renderText(const Table& table, const std::string& indent = "");
/// A section for a terminal: the title, paragraphs, bullets as "  - ", tables aligned.
std::string renderText(const Section& section);

} // namespace gpusizer::present
