#include "ChartPalette.h"

#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>

namespace gpusizer::ui {

bool isDark(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128;
}

void followPalette(QChart* chart, const QPalette& palette) {
    if (!isDark(palette)) {
        return; // the default light theme already matches
    }
    const QColor text = palette.color(QPalette::WindowText);
    const QColor grid = palette.color(QPalette::Window).lighter(180); // faint lines, as in the light theme
    chart->setBackgroundBrush(palette.color(QPalette::Base));
    chart->setTitleBrush(text);
    chart->legend()->setLabelColor(text);
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setGridLineColor(grid);
        axis->setMinorGridLineColor(grid.darker(130));
        axis->setLinePenColor(grid);
    }
}

} // namespace gpusizer::ui
