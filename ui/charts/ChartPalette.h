#pragma once

#include <QtGui/QPalette>

QT_FORWARD_DECLARE_CLASS(QChart)

namespace gpusizer::ui {

/// Whether a palette is dark (its window colour darker than mid grey).
bool isDark(const QPalette& palette);

/// On screen a chart follows the window's palette: in a dark one its background, plot area, axes, grid and legend
/// text turn dark too (Qt Charts' default theme is always light). Series keep their colours. The report's charts,
/// printed on white, never call this.
void followPalette(QChart* chart, const QPalette& palette);

} // namespace gpusizer::ui
