#pragma once

#include <QtCore/QString>
#include <QtGui/QPageSize>

QT_FORWARD_DECLARE_CLASS(QTextDocument)

namespace gpusizer::ui {

/// Prints a report document to PDF with a header and "page i of n" footer on every page.
/// The file appears only when complete (QSaveFile: written beside the target, then renamed).
/// Returns an error message in words, empty on success.
QString exportPdf(QTextDocument& document, const QString& path, QPageSize::PageSizeId pageSize,
                  const QString& headerText);

/// Block-format property of a section heading that must not end a page apart from its section's first chart.
inline constexpr int kKeepWithChartProperty = 0x100000 + 1; // QTextFormat::UserProperty + 1

/// QTextDocument has no keep-with-next: after pagination, each heading marked kKeepWithChartProperty starts a new
/// page only if its chart would otherwise begin on a later page than the heading (no page is left mostly empty).
void keepHeadingsWithTheirCharts(QTextDocument& document);

/// "A4" or "Letter" (case-insensitive) to a page size; nullopt-like QPageSize::Custom for anything else.
QPageSize::PageSizeId pageSizeFromName(const QString& name);

} // namespace gpusizer::ui
