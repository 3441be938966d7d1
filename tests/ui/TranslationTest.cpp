// Under zh_CN every word the window shows comes from the catalog: no English phrase is left in a label, button,
// group, tab, menu, tooltip, combo box or table header (identifiers, units and names are not phrases and may stay).
#include "Language.h"
#include "MainWindow.h"
#include "ScenarioController.h"
#include "explorer/BreakdownView.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"

#include <QtCore/QAbstractItemModel>
#include <QtCore/QCoreApplication>
#include <QtCore/QRegularExpression>
#include <QtGui/QAction>
#include <QtWidgets/QAbstractButton>
#include <QtWidgets/QAbstractItemView>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QGroupBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QScrollBar>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QTableView>
#include <gtest/gtest.h>
#include <vector>

using namespace gpusizer;

namespace {

/// Two lower-case English words in a row ("per gpu", "does not fit"): a phrase someone forgot to translate.
/// Identifiers (seq_len, adamw_8bit), units (GiB), names (Llama 3.1 8B, H100 SXM) do not match.
bool hasEnglishPhrase(const QString& text) {
    static const QRegularExpression tags(QStringLiteral("<[^>]*>"));
    static const QRegularExpression phrase(QStringLiteral("(?<![\\w./'-])[a-z]{3,} [a-z]{3,}(?![\\w'-])"));
    QString plain = text;
    plain.remove(tags);
    return phrase.match(plain).hasMatch();
}

/// The texts with an English phrase, each after where it was found.
struct Texts {
    QStringList all;
    void add(const QString& where, const QString& text) {
        if (hasEnglishPhrase(text)) {
            all << where + QStringLiteral(": ") + text;
        }
    }
};

void collectMenus(Texts& out, const QMenu* menu) {
    for (const QAction* a : menu->actions()) {
        out.add(QStringLiteral("menu"), a->text());
        if (a->menu() != nullptr) {
            collectMenus(out, a->menu());
        }
    }
}

void collectModel(Texts& out, const QAbstractItemModel* model) {
    for (int c = 0; c < model->columnCount(); ++c) {
        out.add(QStringLiteral("header"), model->headerData(c, Qt::Horizontal).toString());
        out.add(QStringLiteral("header tooltip"), model->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString());
    }
    for (int r = 0; r < model->rowCount(); ++r) {
        out.add(QStringLiteral("row header"), model->headerData(r, Qt::Vertical).toString());
        for (int c = 0; c < model->columnCount(); ++c) {
            out.add(QStringLiteral("cell"), model->index(r, c).data().toString());
            out.add(QStringLiteral("cell tooltip"), model->index(r, c).data(Qt::ToolTipRole).toString());
        }
    }
}

Texts visibleTexts(const ui::MainWindow& window) {
    Texts out;
    out.add(QStringLiteral("status"), window.statusText());
    for (const QWidget* w : window.findChildren<QWidget*>()) {
        out.add(QStringLiteral("tooltip"), w->toolTip());
        if (const auto* label = qobject_cast<const QLabel*>(w)) {
            out.add(QStringLiteral("label"), label->text());
        } else if (const auto* button = qobject_cast<const QAbstractButton*>(w)) {
            out.add(QStringLiteral("button"), button->text());
        } else if (const auto* group = qobject_cast<const QGroupBox*>(w)) {
            out.add(QStringLiteral("group"), group->title());
        } else if (const auto* combo = qobject_cast<const QComboBox*>(w)) {
            for (int i = 0; i < combo->count(); ++i) {
                out.add(QStringLiteral("choice"), combo->itemText(i));
                out.add(QStringLiteral("choice tooltip"), combo->itemData(i, Qt::ToolTipRole).toString());
            }
        } else if (const auto* tabs = qobject_cast<const QTabWidget*>(w)) {
            for (int i = 0; i < tabs->count(); ++i) {
                out.add(QStringLiteral("tab"), tabs->tabText(i));
                out.add(QStringLiteral("tab tooltip"), tabs->tabToolTip(i));
            }
        } else if (const auto* view = qobject_cast<const QAbstractItemView*>(w); view != nullptr && view->model()) {
            collectModel(out, view->model());
        }
    }
    for (const QMenu* menu : window.menuBar()->findChildren<QMenu*>()) {
        collectMenus(out, menu);
    }
    return out;
}

/// Puts English back however a test ends, so that no later test in the process runs in Chinese.
struct EnglishAfterwards {
    ~EnglishAfterwards() { ui::installLanguage(QStringLiteral("en")); }
};

} // namespace

TEST(Translations, EveryWordOfTheWindowComesFromTheChineseCatalog) {
    const EnglishAfterwards restore;
    ASSERT_TRUE(ui::installLanguage(QStringLiteral("zh_CN")));
    {
        ui::ScenarioController controller{catalogs::loadCatalogs().catalog};
        ui::MainWindow window{controller};
        window.resize(1360, 820);
        window.show();
        QStringList english;
        // Every tab once, so that lazily refreshed views fill their tables and texts.
        for (int i = 0; i < window.tabs()->count(); ++i) {
            window.tabs()->setCurrentIndex(i);
            QCoreApplication::processEvents();
            for (const QString& t : visibleTexts(window).all) {
                if (!english.contains(t)) {
                    english << t;
                }
            }
        }
        EXPECT_TRUE(english.isEmpty()) << english.size() << " English text(s) under zh_CN:\n"
                                       << english.join(QLatin1Char('\n')).toStdString();
        // The catalog really is in use: the File menu is Chinese.
        EXPECT_EQ(window.menuBar()->actions().front()->text(), QStringLiteral("文件(&F)"));
    }
    ASSERT_TRUE(ui::installLanguage(QStringLiteral("en")));
}

TEST(Translations, TheDetectorFindsEnglishPhrasesAndSparesIdentifiersAndNames) {
    EXPECT_TRUE(hasEnglishPhrase(QStringLiteral("显存 does not fit")));
    EXPECT_TRUE(hasEnglishPhrase(QStringLiteral("<b>per gpu</b>")));
    EXPECT_FALSE(hasEnglishPhrase(QStringLiteral("Llama 3.1 8B · H100 SXM · 80 GB")));
    EXPECT_FALSE(hasEnglishPhrase(QStringLiteral("seq_len 2048, adamw_8bit, bf16-fp32-master")));
    EXPECT_FALSE(hasEnglishPhrase(QStringLiteral("每 GPU 12.3 GiB")));
}

TEST(Translations, ViewLanguageRemembersTheChoiceAndAsksForTheWindowInIt) {
    ui::setChosenLanguage(QString());
    ui::ScenarioController controller{catalogs::loadCatalogs().catalog};
    ui::MainWindow window{controller};
    QStringList asked;
    QObject::connect(&window, &ui::MainWindow::languageChosen, [&](const QString& code) { asked << code; });
    auto* chinese = window.findChild<QAction*>(QStringLiteral("language:zh_CN"));
    ASSERT_NE(chinese, nullptr);
    chinese->trigger();
    EXPECT_EQ(asked, QStringList{QStringLiteral("zh_CN")});
    EXPECT_EQ(ui::chosenLanguage(), QStringLiteral("zh_CN"));
    // The remembered choice wins over the system locale; an explicit request (--language) over both.
    EXPECT_EQ(ui::resolveLanguage(), QStringLiteral("zh_CN"));
    EXPECT_EQ(ui::resolveLanguage(QStringLiteral("en")), QStringLiteral("en"));
    EXPECT_EQ(ui::resolveLanguage(QStringLiteral("xx_YY")), QStringLiteral("zh_CN")); // not shipped: ignored
    window.findChild<QAction*>(QStringLiteral("language:system"))->trigger();
    EXPECT_TRUE(ui::chosenLanguage().isEmpty());
    EXPECT_EQ(asked.size(), 2);
}

TEST(Translations, EnglishSaysOneGpuAndFourGpusNotGpuS) {
    ASSERT_TRUE(ui::installLanguage(QStringLiteral("en")));
    ui::ScenarioController controller{catalogs::loadCatalogs().catalog};
    ui::MainWindow window{controller};
    EXPECT_TRUE(window.statusText().contains(QStringLiteral("Total across 1 GPU:")))
        << window.statusText().toStdString();
    controller.update([](core::Scenario& s) { s.gpus = 4; });
    EXPECT_TRUE(window.statusText().contains(QStringLiteral("Total across 4 GPUs:")))
        << window.statusText().toStdString();
    EXPECT_FALSE(window.statusText().contains(QStringLiteral("GPU(s)")));
}

namespace {

/// The window as runGui's relanguage builds it after View › Language: every row of the component table in view. One
/// window per test process (a second one leaves Qt Charts' deferred deletions to no event loop: LeakSanitizer).
void expectEveryComponentRowInView(const std::vector<const char*>& languages) {
    const EnglishAfterwards restore;
    for (const char* language : languages) {
        ASSERT_TRUE(ui::installLanguage(QString::fromLatin1(language)));
    }
    const char* language = languages.back();
    ui::ScenarioController controller{catalogs::loadCatalogs().catalog};
    ui::MainWindow window{controller};
    // 1024 x 640: what is left of a 700-pixel screen under a title bar and a panel; the page may scroll.
    window.resize(1024, 640);
    window.show();
    window.tabs()->setCurrentIndex(0);
    QCoreApplication::processEvents();
    auto* table = window.breakdownView()->findChild<QTableView*>();
    ASSERT_NE(table, nullptr);
    const int rows = table->model()->rowCount();
    ASSERT_EQ(rows, 8); // seven components and the total
    EXPECT_EQ(table->verticalScrollBar()->maximum(), 0) << language << ": the table scrolls";
    const QRect last = table->visualRect(table->model()->index(rows - 1, 0));
    EXPECT_LT(last.bottom(), table->viewport()->height()) << language << ": the total row is cut";
}

} // namespace

TEST(Translations, TheComponentTableShowsEveryRowInChinese) {
    expectEveryComponentRowInView({"zh_CN"});
}

TEST(Translations, TheComponentTableShowsEveryRowInEnglishAfterASwitchFromChinese) {
    expectEveryComponentRowInView({"zh_CN", "en"});
}
