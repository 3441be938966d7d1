#include "ChartPicture.h"

#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtGui/QPainter>
#include <QtWidgets/QGraphicsScene>

namespace gpusizer::ui {

QPicture chartPicture(QChartView* view, QSize size) {
    QChart* chart = view->chart();
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
