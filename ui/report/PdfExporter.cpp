#include "PdfExporter.h"

#include "../Present.h"
#include "PrintFont.h"
#include "gpusizer/catalogs/Files.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QSaveFile>
#include <QtGui/QAbstractTextDocumentLayout>
#include <QtGui/QPainter>
#include <QtGui/QPdfWriter>
#include <QtGui/QTextBlock>
#include <QtGui/QTextCursor>
#include <QtGui/QTextDocument>
#include <cmath>

namespace gpusizer::ui {

namespace {
constexpr int kResolutionDpi = 300;
constexpr double kMarginMm = 16.0;
constexpr double kHeaderMm = 8.0; // header band above the text, footer band below
} // namespace

QPageSize::PageSizeId pageSizeFromName(const QString& name) {
    if (name.compare(QLatin1String("A4"), Qt::CaseInsensitive) == 0) {
        return QPageSize::A4;
    }
    if (name.compare(QLatin1String("Letter"), Qt::CaseInsensitive) == 0) {
        return QPageSize::Letter;
    }
    return QPageSize::Custom;
}

void keepHeadingsWithTheirCharts(QTextDocument& document) {
    const double pageHeight = document.pageSize().height();
    if (pageHeight <= 0) {
        return;
    }
    QAbstractTextDocumentLayout* layout = document.documentLayout();
    auto pageOf = [&](double y) { return static_cast<int>(std::floor(y / pageHeight)); };
    // In document order, so that each decision is taken on the layout the earlier ones produced.
    for (QTextBlock heading = document.begin(); heading.isValid(); heading = heading.next()) {
        if (!heading.blockFormat().property(kKeepWithChartProperty).toBool()) {
            continue;
        }
        QTextCursor cursor(heading);
        QTextBlockFormat format = heading.blockFormat();
        format.setPageBreakPolicy(QTextFormat::PageBreak_Auto);
        cursor.setBlockFormat(format);
        // An edit relays out only part of the document, and tables further down can land elsewhere after a whole
        // layout (what printing does): measure on a whole one.
        document.markContentsDirty(0, document.characterCount());
        // The section's chart: the first block after the heading holding an object, before the next heading.
        QTextBlock chart;
        for (QTextBlock b = heading.next(); b.isValid(); b = b.next()) {
            if (b.blockFormat().property(kKeepWithChartProperty).toBool()) {
                break;
            }
            if (b.text().contains(QChar::ObjectReplacementCharacter)) {
                chart = b;
                break;
            }
        }
        if (!chart.isValid()) {
            continue;
        }
        const int headingPage = pageOf(layout->blockBoundingRect(heading).top());
        const int chartPage = pageOf(layout->blockBoundingRect(chart).bottom() - 1.0);
        if (chartPage != headingPage) {
            format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
            cursor.setBlockFormat(format);
            document.markContentsDirty(0, document.characterCount());
        }
    }
}

QString exportPdf(QTextDocument& document, const QString& path, QPageSize::PageSizeId pageSize,
                  const QString& headerText) {
    // Through links to the file they name; a device (/dev/full), a pipe or a folder is refused, not "written".
    const auto target = catalogs::outputTarget(path.toStdString());
    if (!target) {
        return QCoreApplication::translate("PdfExporter", "Cannot write %1: %2").arg(path, text(target.error().words));
    }
    QSaveFile file(QString::fromStdString(target->string()));
    if (!file.open(QIODevice::WriteOnly)) {
        return QCoreApplication::translate("PdfExporter", "Cannot write %1: %2").arg(path, file.errorString());
    }
    {
        QPdfWriter writer(&file);
        writer.setResolution(kResolutionDpi);
        writer.setPageSize(QPageSize(pageSize));
        writer.setPageMargins(QMarginsF(kMarginMm, kMarginMm, kMarginMm, kMarginMm), QPageLayout::Millimeter);
        writer.setTitle(headerText);
        writer.setCreator(QStringLiteral("GPU Sizer"));

        const QRectF page = writer.pageLayout().paintRectPixels(kResolutionDpi);
        const double band = kHeaderMm / 25.4 * kResolutionDpi;
        const QSizeF body(page.width(), page.height() - 2 * band);

        document.documentLayout()->setPaintDevice(&writer);
        document.setPageSize(body);
        keepHeadingsWithTheirCharts(document);
        const int pages = document.pageCount();

        QPainter painter;
        if (!painter.begin(&writer)) {
            file.cancelWriting();
            return QCoreApplication::translate("PdfExporter", "Cannot start a PDF in %1").arg(path);
        }
        QFont small = printFont(QFont());
        small.setPointSizeF(7.5);
        for (int i = 0; i < pages; ++i) {
            if (i > 0) {
                writer.newPage();
            }
            painter.setFont(small);
            painter.setPen(QColor(0x55, 0x55, 0x55));
            const QRectF header(0, 0, page.width(), band * 0.8);
            painter.drawText(header, Qt::AlignLeft | Qt::AlignTop, headerText);
            painter.drawText(header, Qt::AlignRight | Qt::AlignTop, QStringLiteral("GPU Sizer"));
            painter.drawLine(QPointF(0, band * 0.85), QPointF(page.width(), band * 0.85));
            const QRectF footer(0, page.height() - band * 0.7, page.width(), band * 0.7);
            painter.drawText(footer, Qt::AlignHCenter | Qt::AlignBottom,
                             QCoreApplication::translate("PdfExporter", "Page %1 of %2").arg(i + 1).arg(pages));

            painter.save();
            painter.translate(0, band);
            const QRectF clip(0, 0, body.width(), body.height());
            painter.setClipRect(clip);
            painter.translate(0, -i * body.height());
            QAbstractTextDocumentLayout::PaintContext context;
            context.clip = QRectF(0, i * body.height(), body.width(), body.height());
            context.palette.setColor(QPalette::Text, Qt::black);
            document.documentLayout()->draw(&painter, context);
            painter.restore();
        }
        painter.end();
    }
    if (!file.commit()) {
        return QCoreApplication::translate("PdfExporter", "Cannot write %1: %2").arg(path, file.errorString());
    }
    return {};
}

} // namespace gpusizer::ui
