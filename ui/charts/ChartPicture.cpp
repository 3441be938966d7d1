#include "ChartPicture.h"

#include "../report/PrintFont.h"

#include <QtCharts/QAbstractAxis>
#include <QtCharts/QAbstractBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QXYSeries>
#include <QtGui/QPainter>
#include <QtWidgets/QGraphicsScene>
#include <QtWidgets/QGraphicsSimpleTextItem>
#include <QtWidgets/QGraphicsTextItem>

namespace gpusizer::ui {

namespace {

/// Every text of the chart in the print families (printFont), sizes and weights kept.
void usePrintFonts(QChart* chart, QGraphicsScene* scene) {
    chart->setTitleFont(printFont(chart->titleFont()));
    chart->legend()->setFont(printFont(chart->legend()->font()));
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsFont(printFont(axis->labelsFont()));
        axis->setTitleFont(printFont(axis->titleFont()));
    }
    for (QAbstractSeries* series : chart->series()) {
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
            for (QBarSet* set : bars->barSets()) {
                set->setLabelFont(printFont(set->labelFont()));
            }
        } else if (auto* xy = qobject_cast<QXYSeries*>(series)) {
            xy->setPointLabelsFont(printFont(xy->pointLabelsFont()));
        }
    }
    // Labels the views place on the scene themselves (a capacity line's name, a marker's value).
    for (QGraphicsItem* item : scene->items()) {
        if (auto* simple = dynamic_cast<QGraphicsSimpleTextItem*>(item)) {
            simple->setFont(printFont(simple->font()));
        } else if (auto* rich = dynamic_cast<QGraphicsTextItem*>(item)) {
            rich->setFont(printFont(rich->font()));
        }
    }
}

} // namespace

QPicture chartPicture(QChartView* view, QSize size) {
    QChart* chart = view->chart();
    usePrintFonts(chart, view->scene());
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->resize(size);
    chart->setBackgroundRoundness(0);
    QPicture picture;
    QPainter painter(&picture);
    painter.setRenderHint(QPainter::Antialiasing);
    view->scene()->setSceneRect(QRectF(QPointF(0, 0), size));
    view->scene()->render(&painter, QRectF(QPointF(0, 0), size), QRectF(QPointF(0, 0), size));
    painter.end();
    picture.setBoundingRect(QRect(QPoint(0, 0), size));
    return picture;
}

} // namespace gpusizer::ui
