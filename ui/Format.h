#pragma once

#include "gpusizer/core/Catalog.h"
#include "gpusizer/core/Estimate.h"

#include <QtCore/QString>
#include <QtGui/QColor>

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

} // namespace gpusizer::ui
