#pragma once

#include "gpusizer/memory/Estimate.h"
#include "gpusizer/scenario/Catalog.h"

#include <QtCore/QString>
#include <QtGui/QColor>
#include <QtGui/QPalette>

namespace gpusizer::ui {

/// "21.3 GiB" — binary gibibytes, one decimal (two below 10 GiB).
QString formatGiB(std::int64_t bytes);
/// "1.24 B" / "350 M" parameters.
QString formatParams(std::int64_t params);
/// "2,048" with the locale's grouping.
QString formatCount(std::int64_t value);
/// "9%" style share.
QString formatPercent(double share);

/// A GPU's name as charts and tables show it ("RTX 4090" rather than "GeForce RTX 4090").
QString shortGpuName(const core::GpuSpec& gpu);

/// Display name of a component ("Optimizer states").
QString componentName(core::Component component);
/// One-sentence explanation of a component (tooltips, report).
QString componentDescription(core::Component component);
/// The component's fixed chart colour (Tableau 10; readable on light and dark backgrounds).
QColor componentColor(core::Component component);

/// WCAG 2 contrast ratio of two colours, 1 to 21 (relative luminance of sRGB; AA asks 4.5 for text).
double contrastRatio(const QColor& a, const QColor& b);
/// Greyed text that still reads: between the palette's text and base colours, as far towards the base as WCAG AA's
/// 4.5:1 allows on both the base and the alternate base (the Advisor's rows that do not apply, in light and dark).
QColor mutedTextColor(const QPalette& palette);

} // namespace gpusizer::ui
