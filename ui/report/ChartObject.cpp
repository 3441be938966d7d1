#include "ChartObject.h"

#include <QtGui/QAbstractTextDocumentLayout>
#include <QtGui/QPainter>
#include <QtGui/QTextCursor>
#include <QtGui/QTextDocument>

namespace gpusizer::ui {

namespace {
constexpr int kPictureIndexProperty = QTextFormat::UserProperty + 1;
} // namespace

ChartObject* ChartObject::install(QTextDocument* document) {
    auto* handler = new ChartObject(document);
    document->documentLayout()->registerHandler(kObjectType, handler);
    return handler;
}

void ChartObject::insert(QTextCursor& cursor, QPicture picture, double aspect) {
    QTextCharFormat format;
    format.setObjectType(kObjectType);
    format.setProperty(kPictureIndexProperty, static_cast<int>(m_pictures.size()));
    m_pictures.push_back({std::move(picture), aspect});
    cursor.insertText(QString(QChar::ObjectReplacementCharacter), format);
}

QSizeF ChartObject::intrinsicSize(QTextDocument* doc, int, const QTextFormat& format) {
    const int index = format.property(kPictureIndexProperty).toInt();
    const double width = doc->pageSize().width() > 0 ? doc->pageSize().width() - 2 * doc->documentMargin() : 600.0;
    return {width, width * m_pictures[static_cast<std::size_t>(index)].aspect};
}

void ChartObject::drawObject(QPainter* painter, const QRectF& rect, QTextDocument*, int, const QTextFormat& format) {
    const auto& entry = m_pictures[static_cast<std::size_t>(format.property(kPictureIndexProperty).toInt())];
    const QRect source = entry.picture.boundingRect();
    if (source.isEmpty()) {
        return;
    }
    painter->save();
    painter->translate(rect.topLeft());
    // Playing a QPicture back rescales it from the picture's resolution to the device's; undo that here so the
    // recorded chart fills exactly the object's rectangle.
    const double dpiCorrection = painter->device() != nullptr ? static_cast<double>(entry.picture.logicalDpiX()) /
                                                                    painter->device()->logicalDpiX()
                                                              : 1.0;
    painter->scale(rect.width() / source.width() * dpiCorrection, rect.height() / source.height() * dpiCorrection);
    painter->translate(-source.topLeft());
    painter->drawPicture(0, 0, entry.picture);
    painter->restore();
}

} // namespace gpusizer::ui
