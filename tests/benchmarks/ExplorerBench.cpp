// QBENCHMARK: "move a slider -> estimate -> update models and charts -> paint" for each tab of the explorer.
// Run: QT_QPA_PLATFORM=offscreen build/tests/benchmarks/gpusizer_explorer_bench; figures go to docs/performance.md.
#include "MainWindow.h"
#include "ScenarioController.h"
#include "explorer/InputPanel.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"

#include <QtTest/QtTest>
#include <QtWidgets/QSlider>
#include <QtWidgets/QTabWidget>

using namespace gpusizer;

class ExplorerBench final : public QObject {
    Q_OBJECT

private slots:
    void sliderToRepaint_data() {
        QTest::addColumn<QString>("tab");
        for (const char* tab : {"breakdown", "sequence", "fit", "compare", "plan", "advisor"}) {
            QTest::newRow(tab) << QString::fromLatin1(tab);
        }
    }

    void sliderToRepaint() {
        QFETCH(QString, tab);
        ui::ScenarioController controller(catalogs::loadCatalogs().catalog);
        ui::MainWindow window(controller);
        window.selectTab(tab);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSlider* slider = window.inputPanel()->seqLenSlider();
        int step = 0;
        QBENCHMARK {
            slider->setValue(9 + (step++ % 6)); // 512 ... 16,384 tokens, as when dragging
            window.repaint();                   // synchronous paint of the whole window
        }
    }
};

QTEST_MAIN(ExplorerBench)
#include "ExplorerBench.moc"
