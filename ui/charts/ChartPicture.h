#pragma once

#include <QtCore/QSize>
#include <QtGui/QPicture>

QT_FORWARD_DECLARE_CLASS(QChartView)

namespace gpusizer::ui {

/// Records a chart view's chart as vector drawing commands at `size` (logical pixels), for reports.
/// Works on views that were never shown: the chart itself is resized and its scene rendered.
QPicture chartPicture(QChartView* view, QSize size);

} // namespace gpusizer::ui
