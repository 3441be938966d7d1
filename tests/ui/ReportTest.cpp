// The PDF report, generated offscreen and read back with pdftotext (poppler-utils).
#include "DialogService.h"
#include "Format.h"
#include "Language.h"
#include "MainWindow.h"
#include "ScenarioController.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/plan/Compare.h"
#include "report/PdfExporter.h"
#include "report/ReportBuilder.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtGui/QAbstractTextDocumentLayout>
#include <QtGui/QTextBlock>
#include <QtGui/QTextDocument>
#include <cmath>
#include <gtest/gtest.h>
#include <sys/stat.h>

using namespace gpusizer;

namespace {

/// What a tool prints about a file (pdftotext, pdffonts).
QString toolOutput(const QString& tool, const QStringList& arguments) {
    QProcess process;
    process.start(tool, arguments);
    process.waitForFinished(30000);
    return QString::fromUtf8(process.readAllStandardOutput());
}

/// A PDF's text as pdftotext extracts it, as a search finds it (no normalisation).
QString rawPdfText(const QString& path) {
    return toolOutput(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), path, QStringLiteral("-")});
}

QString pdfText(const QString& path) {
    // Fonts set "fi" as a ligature glyph; compare text in its compatibility form.
    return rawPdfText(path).normalized(QString::NormalizationForm_KC);
}

/// The default scenario on an RTX 4090 exported as an A4 report with the Chinese catalog installed: the raw text and
/// pdffonts' list. English is installed again afterwards.
struct ChineseReport {
    QString raw;
    QString fonts;
};
ChineseReport exportChineseReport() {
    struct EnglishAfterwards {
        ~EnglishAfterwards() { ui::installLanguage(QStringLiteral("en")); }
    } restore; // no later test in the process runs in Chinese, however this one ends
    ChineseReport report;
    if (!ui::installLanguage(QStringLiteral("zh_CN"))) {
        return report;
    }
    ui::ScenarioController controller(catalogs::loadCatalogs().catalog);
    controller.update([](core::Scenario& s) { s.gpuId = "rtx-4090"; });
    ui::MainWindow window(controller);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("report-zh.pdf"));
    if (window.exportReport(path, QStringLiteral("A4"))) {
        report.raw = rawPdfText(path);
        report.fonts = toolOutput(QStringLiteral("pdffonts"), {path});
    }
    return report;
}

/// `what()` with the Chinese catalog installed (a context's words, a component's name), English again afterwards.
template <class What>
QString inChinese(What what) {
    ui::installLanguage(QStringLiteral("zh_CN"));
    const QString words = what();
    ui::installLanguage(QStringLiteral("en"));
    return words;
}

int pdfPages(const QString& path) {
    const QString info = toolOutput(QStringLiteral("pdfinfo"), {path});
    for (const QString& line : info.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("Pages:"))) {
            return line.mid(6).trimmed().toInt();
        }
    }
    return -1;
}

} // namespace

TEST(Report, PdfHoldsEverySectionComponentAndTheCoreNumbers) {
    ui::ScenarioController controller(catalogs::loadCatalogs().catalog);
    controller.update([](core::Scenario& s) { s.gpuId = "rtx-4090"; });
    ui::MainWindow window(controller);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("report.pdf"));
    ASSERT_TRUE(window.exportReport(path, QStringLiteral("A4")));
    const QString text = pdfText(path);
    ASSERT_FALSE(text.isEmpty()) << "pdftotext found no text (fonts missing?)";
    for (const char* section :
         {"GPU sizing report", "1. Inputs", "2. Memory per GPU", "3. Memory per GPU against sequence length",
          "4. Which GPUs fit", "5. Full fine-tuning, LoRA and QLoRA side by side", "6. Cards, time and cost",
          "7. If it does not fit: fixes in order of cost", "8. Choosing the method", "9. Sizing table",
          "10. Assumptions, formulas and measured accuracy", "Page 1 of"}) {
        EXPECT_TRUE(text.contains(QString::fromUtf8(section))) << section;
    }
    for (core::Component c : core::kAllComponents) {
        EXPECT_TRUE(text.contains(ui::componentName(c))) << core::componentKey(c);
    }
    EXPECT_TRUE(text.contains(QStringLiteral("Llama-3.1-8B")));
    const auto& e = controller.estimate();
    // The numbers are the core's: device, allocated and reserved per GPU, and the per-component table.
    EXPECT_TRUE(text.contains(ui::formatGiB(e.deviceBytes)));
    EXPECT_TRUE(text.contains(QStringLiteral("Allocated peak %1").arg(ui::formatGiB(e.allocatedPeakBytes))));
    EXPECT_TRUE(text.contains(QStringLiteral("Reserved peak %1").arg(ui::formatGiB(e.reservedPeakBytes))));
    EXPECT_TRUE(text.contains(ui::formatGiB(e.perGpu[core::Component::LogitsLoss])));
    // The GPU in mind (24 GB RTX 4090) is named in the summary, and the axis labels are real text (vector charts).
    EXPECT_TRUE(text.contains(QStringLiteral("GeForce RTX 4090")));
    EXPECT_TRUE(text.contains(QStringLiteral("GiB per GPU")));
    EXPECT_TRUE(text.contains(QStringLiteral("Sequence length (tokens")));
    // Methods side by side: the QLoRA total from the core's comparison.
    const auto variants = core::compareMethods(controller.scenario(), controller.catalog().gpus);
    EXPECT_TRUE(text.contains(ui::formatGiB(variants[2].estimate.deviceBytes)));
    EXPECT_TRUE(text.contains(QStringLiteral("Measured accuracy")));
    const int pages = pdfPages(path);
    EXPECT_GE(pages, 3);
    EXPECT_LE(pages, 8);
}

TEST(Report, InChineseEverySectionIsInTheCatalogsWordsWithItsGlyphsEmbedded) {
    const ChineseReport report = exportChineseReport();
    const QString text = report.raw.normalized(QString::NormalizationForm_KC);
    ASSERT_FALSE(text.isEmpty());
    for (const char* section : {"GPU sizing report", "1. Inputs", "2. Memory per GPU", "4. Which GPUs fit",
                                "6. Cards, time and cost", "10. Assumptions, formulas and measured accuracy"}) {
        // Looked up in the shipped catalog: the report shows the catalog's words, not English.
        const QString chinese = inChinese([&] { return QCoreApplication::translate("ReportBuilder", section); });
        EXPECT_NE(chinese, QString::fromUtf8(section)) << "no translation for " << section;
        EXPECT_TRUE(text.contains(chinese.normalized(QString::NormalizationForm_KC))) << section;
        EXPECT_FALSE(text.contains(QString::fromUtf8(section))) << "English heading left: " << section;
    }
    // CJK glyphs come from an embedded CJK font whose glyphs each have one code point (WenQuanYi Micro Hei, Debian's
    // fonts-wqy-microhei; printFont says why not Noto Sans CJK), so the text extracts as Chinese at all.
    EXPECT_TRUE(report.fonts.contains(QStringLiteral("WenQuanYi"))) << report.fonts.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("GeForce RTX 4090")));
}

TEST(Report, ASectionHeadingStaysOnItsChartsPageAndStartsANewPageOnlyWhenTheChartWouldNotFit) {
    ui::ScenarioController controller(catalogs::loadCatalogs().catalog);
    ui::ReportBuilder builder(controller.catalog());
    auto doc = builder.build({controller.scenario(), QStringLiteral("pages"), QDateTime::currentDateTime(), {}, {}});
    QTemporaryDir dir;
    ASSERT_TRUE(
        ui::exportPdf(*doc, dir.filePath(QStringLiteral("p.pdf")), QPageSize::A4, QStringLiteral("p")).isEmpty());
    // exportPdf left the document paginated as printed: read the layout back.
    QAbstractTextDocumentLayout* layout = doc->documentLayout();
    const double page = doc->pageSize().height();
    auto pageOf = [&](double y) { return static_cast<int>(std::floor(y / page)); };
    int checked = 0;
    double headingGap = -1.0;
    for (QTextBlock heading = doc->begin(); heading.isValid(); heading = heading.next()) {
        if (!heading.blockFormat().property(ui::kKeepWithChartProperty).toBool()) {
            continue;
        }
        QTextBlock chart = heading.next();
        while (chart.isValid() && !chart.text().contains(QChar::ObjectReplacementCharacter) &&
               !chart.blockFormat().property(ui::kKeepWithChartProperty).toBool()) {
            chart = chart.next();
        }
        if (!chart.isValid() || !chart.text().contains(QChar::ObjectReplacementCharacter)) {
            continue; // a marked section without a chart flows on
        }
        const QRectF h = layout->blockBoundingRect(heading);
        const QRectF c = layout->blockBoundingRect(chart);
        EXPECT_EQ(pageOf(h.top()), pageOf(c.bottom() - 1.0)) << heading.text().toStdString();
        if (heading.blockFormat().pageBreakPolicy() == QTextFormat::PageBreak_AlwaysBefore) {
            // It was moved: on the page before, the heading and everything up to the chart's end would not fit below
            // the last block there (heading top to chart bottom is the height it needs, with the heading's margin).
            const double bottom = layout->blockBoundingRect(heading.previous()).bottom();
            const double roomLeft = (pageOf(bottom - 1.0) + 1) * page - bottom;
            // The heading also needs its top margin: the gap above a heading that was not moved.
            ASSERT_GE(headingGap, 0.0) << "the first marked heading was moved";
            EXPECT_GT(c.bottom() - h.top() + headingGap, roomLeft) << heading.text().toStdString();
        } else {
            headingGap = h.top() - layout->blockBoundingRect(heading.previous()).bottom();
        }
        ++checked;
    }
    EXPECT_GE(checked, 3); // memory per GPU, against sequence length, method comparison (and the cost charts)
}

TEST(Report, APipeOrAFolderIsRefusedAndLeftAsItIsAndALinkIsWrittenThrough) {
    ui::ScenarioController controller(catalogs::loadCatalogs().catalog);
    ui::ReportBuilder builder(controller.catalog());
    auto doc = builder.build({controller.scenario(), QStringLiteral("out"), QDateTime::currentDateTime(), {}, {}});
    QTemporaryDir dir;
    const QString pipe = dir.filePath(QStringLiteral("pipe.pdf"));
    ASSERT_EQ(mkfifo(QFile::encodeName(pipe).constData(), 0600), 0);
    // QSaveFile renamed its temporary file over the target: a pipe (or /dev/full) became a regular file.
    const QString error = ui::exportPdf(*doc, pipe, QPageSize::A4, QStringLiteral("x"));
    EXPECT_TRUE(error.contains(QStringLiteral("not a regular file"))) << error.toStdString();
    EXPECT_TRUE(QFileInfo(pipe).exists() && !QFileInfo(pipe).isFile());
    QDir(dir.path()).mkdir(QStringLiteral("folder.pdf"));
    EXPECT_TRUE(ui::exportPdf(*doc, dir.filePath(QStringLiteral("folder.pdf")), QPageSize::A4, QStringLiteral("x"))
                    .contains(QStringLiteral("is a folder")));
    const QString link = dir.filePath(QStringLiteral("link.pdf"));
    ASSERT_TRUE(QFile::link(dir.filePath(QStringLiteral("real.pdf")), link));
    ASSERT_TRUE(ui::exportPdf(*doc, link, QPageSize::A4, QStringLiteral("x")).isEmpty());
    EXPECT_TRUE(QFileInfo(link).isSymLink());
    EXPECT_GT(pdfPages(dir.filePath(QStringLiteral("real.pdf"))), 3);
}

TEST(Report, TheCostSectionOpensWithTheOneHourTestAndEndsWithTheWholeBillAndTheCleanupOrder) {
    ui::ScenarioController controller(catalogs::loadCatalogs().catalog);
    ui::MainWindow window(controller);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bill.pdf"));
    ASSERT_TRUE(window.exportReport(path, QStringLiteral("A4")));
    const QString text = pdfText(path).simplified();
    // The summary on page 1 names the one-hour test too; section 6 opens with it.
    EXPECT_LT(text.indexOf(QStringLiteral("First, the one-hour test on the card you will rent:")),
              text.indexOf(QStringLiteral("1. Inputs")));
    const auto section = text.indexOf(QStringLiteral("6. Cards, time and cost"));
    ASSERT_GE(section, 0);
    const auto at = [&](const char* words) { return text.indexOf(QString::fromUtf8(words), section); };
    // In this order: the one-hour test, the bill, its sentences, the four steps.
    const auto trial = at("First, the one-hour test on the card you will rent:");
    const auto bill = at("The whole bill on");
    const auto spot = at("Spot (expected)");
    const auto finish = at("1. Finish the run:");
    const auto destroy = at("4. Destroy the instance:");
    EXPECT_GT(trial, section);
    EXPECT_GT(bill, trial);
    EXPECT_GT(spot, bill);
    EXPECT_GT(finish, spot);
    EXPECT_GT(destroy, finish);
    EXPECT_GE(at("Prices for"), 0);
}

TEST(Report, LetterPagesAreLetterSized) {
    ui::ScenarioController controller(catalogs::loadCatalogs().catalog);
    ui::ReportBuilder builder(controller.catalog());
    auto doc = builder.build({controller.scenario(), QStringLiteral("letter"), QDateTime::currentDateTime(), {}, {}});
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("letter.pdf"));
    ASSERT_TRUE(ui::exportPdf(*doc, path, QPageSize::Letter, QStringLiteral("letter")).isEmpty());
    QProcess process;
    process.start(QStringLiteral("pdfinfo"), {path});
    process.waitForFinished(30000);
    // US Letter is 612 x 792 points.
    EXPECT_TRUE(QString::fromUtf8(process.readAllStandardOutput()).contains(QStringLiteral("612 x 792")));
}

TEST(Report, AnUnwritablePathFailsInWordsAndLeavesNoFile) {
    ui::ScenarioController controller(catalogs::loadCatalogs().catalog);
    ui::ReportBuilder builder(controller.catalog());
    auto doc = builder.build({controller.scenario(), QStringLiteral("x"), QDateTime::currentDateTime(), {}, {}});
    QTemporaryDir dir;
    const QString readOnly = dir.filePath(QStringLiteral("ro"));
    ASSERT_TRUE(QDir().mkpath(readOnly));
    QFile::setPermissions(readOnly, QFileDevice::ReadOwner | QFileDevice::ExeOwner);
    const QString target = readOnly + QStringLiteral("/report.pdf");
    const QString error = ui::exportPdf(*doc, target, QPageSize::A4, QStringLiteral("x"));
    const bool runningAsRoot = QFile::exists(target); // root ignores permissions
    if (!runningAsRoot) {
        EXPECT_FALSE(error.isEmpty());
        EXPECT_TRUE(error.contains(target));
    }
    const QString missing = QStringLiteral("/nonexistent-folder/report.pdf");
    const QString missingError = ui::exportPdf(*doc, missing, QPageSize::A4, QStringLiteral("x"));
    EXPECT_TRUE(missingError.contains(missing));
    EXPECT_FALSE(QFile::exists(missing));
    EXPECT_TRUE(QDir(QStringLiteral("/nonexistent-folder")).entryList(QDir::Files).isEmpty());
}

TEST(Report, TheChinesePdfsTextIsTheWindowsCharactersNotLookAlikeRadicals) {
    const QString raw = exportChineseReport().raw;
    // Words of the window: the component names of its Breakdown table, and the report's own headings.
    QStringList phrases;
    for (core::Component c : core::kAllComponents) {
        phrases << inChinese([c] { return ui::componentName(c); });
    }
    for (const char* heading : {"GPU sizing report", "1. Inputs", "2. Memory per GPU"}) {
        phrases << inChinese([heading] { return QCoreApplication::translate("ReportBuilder", heading); });
    }
    ASSERT_FALSE(raw.isEmpty());
    // 使用 ("use") is the word the issue searched for; 用 was extracted as the Kangxi radical ⽤ (U+2F64).
    EXPECT_TRUE(raw.contains(QStringLiteral("使用"))) << "使用 not found";
    qsizetype radicals = 0;
    for (const QChar c : raw) {
        radicals += c.unicode() >= 0x2E80 && c.unicode() <= 0x2FDF ? 1 : 0;
    }
    EXPECT_EQ(radicals, 0) << "characters extracted as CJK radicals";
    for (const QString& phrase : phrases) {
        EXPECT_NE(phrase, phrase.toLatin1()) << "untranslated: " << phrase.toStdString();
        EXPECT_TRUE(raw.contains(phrase.trimmed())) << phrase.toStdString();
    }
}
