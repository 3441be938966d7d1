#pragma once

#include <QtCore/QObject>
#include <QtGui/QPicture>
#include <QtGui/QTextObjectInterface>
#include <vector>

QT_FORWARD_DECLARE_CLASS(QTextDocument)
QT_FORWARD_DECLARE_CLASS(QTextCursor)

namespace gpusizer::ui {

/// Draws recorded chart pictures inside a QTextDocument. Painted to a QPdfWriter they stay vectors, so the PDF keeps
/// real text (axis labels, legends) instead of a bitmap.
class ChartObject final : public QObject, public QTextObjectInterface {
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)

public:
    /// The text-object type registered with a document's layout.
    static constexpr int kObjectType = QTextFormat::UserObject + 1;

    /// Registers the handler with the document (the document owns it).
    static ChartObject* install(QTextDocument* document);

    /// Inserts a picture at the cursor, as wide as the text column; `aspect` = height / width.
    void insert(QTextCursor& cursor, QPicture picture, double aspect);

    QSizeF intrinsicSize(QTextDocument* doc, int posInDocument, const QTextFormat& format) override;
    void drawObject(QPainter* painter, const QRectF& rect, QTextDocument* doc, int posInDocument,
                    const QTextFormat& format) override;

private:
    explicit ChartObject(QObject* parent) : QObject(parent) {}
    struct Entry {
        QPicture picture;
        double aspect = 0.6;
    };
    std::vector<Entry> m_pictures;
};

} // namespace gpusizer::ui
