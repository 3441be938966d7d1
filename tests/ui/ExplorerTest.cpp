// Widget tests of the explorer window on the offscreen platform: inputs drive the estimate, views show core numbers.
#include "CalibrationStore.h"
#include "DialogService.h"
#include "Format.h"
#include "FrozenColumnTableView.h"
#include "ImportReportDialog.h"
#include "LengthsDialog.h"
#include "MainWindow.h"
#include "ScenarioController.h"
#include "Startup.h"
#include "TableModel.h"
#include "WrappedLabel.h"
#include "charts/BreakdownChartView.h"
#include "charts/ChartPalette.h"
#include "charts/LengthsChartView.h"
#include "charts/PlanCharts.h"
#include "charts/SeqLenChartView.h"
#include "explorer/AdvisorView.h"
#include "explorer/BreakdownView.h"
#include "explorer/CompareView.h"
#include "explorer/FitTableModel.h"
#include "explorer/FitView.h"
#include "explorer/InputPanel.h"
#include "explorer/PlanView.h"
#include "explorer/SeqLenView.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/plan/Advisor.h"
#include "gpusizer/plan/Bill.h"
#include "gpusizer/plan/Compare.h"
#include "gpusizer/plan/Planning.h"
#include "gpusizer/plan/ProbeScript.h"
#include "gpusizer/present/AdviceText.h"
#include "gpusizer/present/Format.h"
#include "gpusizer/present/Search.h"
#include "gpusizer/scenario/ScenarioJson.h"
#include "gpusizer/scenario/Units.h"

#include <QtCharts/QAbstractAxis>
#include <QtCharts/QAbstractBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QValueAxis>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QLocale>
#include <QtCore/QMimeData>
#include <QtCore/QMultiMap>
#include <QtCore/QRegularExpression>
#include <QtCore/QSortFilterProxyModel>
#include <QtCore/QTemporaryDir>
#include <QtGui/QColor>
#include <QtGui/QDragEnterEvent>
#include <QtGui/QDropEvent>
#include <QtGui/QFont>
#include <QtGui/QGuiApplication>
#include <QtGui/QIcon>
#include <QtGui/QTextDocument>
#include <QtGui/QWheelEvent>
#include <QtTest/QTest>
#include <QtWidgets/QAbstractButton>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QGroupBox>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QScrollArea>
#include <QtWidgets/QScrollBar>
#include <QtWidgets/QSlider>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QTableView>
#include <QtWidgets/QTableWidget>
#include <QtWidgets/QToolButton>
#include <algorithm>
#include <gtest/gtest.h>

using namespace gpusizer;

namespace {

double gib(std::int64_t bytes) {
    return core::toGiB(static_cast<double>(bytes));
}

struct Fixture {
    ui::ScenarioController controller{catalogs::loadCatalogs().catalog};
    ui::MainWindow window{controller};
};

} // namespace

TEST(Explorer, DefaultScenarioIsLlama8bLoraAt2048TokensTimesFour) {
    Fixture f;
    const auto& s = f.controller.scenario();
    EXPECT_EQ(s.modelId, "llama-3.1-8b");
    EXPECT_EQ(s.method, core::Method::Lora);
    EXPECT_EQ(s.seqLen, 2048);
    EXPECT_EQ(s.microBatch, 4);
    EXPECT_TRUE(f.window.inputPanel()->methodButton(core::Method::Lora)->isChecked());
}

TEST(Explorer, SequenceSliderDrivesTheBreakdownChartAndTable) {
    Fixture f;
    f.window.inputPanel()->seqLenSlider()->setValue(13); // 2^13 = 8192 tokens
    EXPECT_EQ(f.controller.scenario().seqLen, 8192);
    EXPECT_EQ(f.window.inputPanel()->seqLenSpin()->value(), 8192);
    f.window.breakdownView()->refreshNow();
    const auto expected = core::estimate(f.controller.scenario());
    for (core::Component c : core::kAllComponents) {
        // The chart shows GiB rounded to 0.1.
        EXPECT_NEAR(f.window.breakdownView()->chart()->valueGiB(0, c), gib(expected.perGpu[c]), 0.051)
            << core::componentKey(c);
    }
    const auto* table = f.window.breakdownView()->table();
    EXPECT_EQ(table->rowCount(),
              static_cast<int>(core::kComponentCount)); // no Generation row: every other one and the total
    const QString total =
        table->data(table->index(table->rowCount() - 1, ui::ComponentTableModel::GiBPerGpu), Qt::DisplayRole)
            .toString();
    EXPECT_EQ(total, QStringLiteral("%1 GiB").arg(QLocale().toString(gib(expected.deviceBytes), 'f', 1)));
    EXPECT_TRUE(f.window.statusText().contains(QStringLiteral("Per GPU")));
    EXPECT_TRUE(f.window.statusText().contains(QStringLiteral("Total across")));
}

TEST(Explorer, TypedSequenceLengthAndBatchSliderUpdateTheScenario) {
    Fixture f;
    f.window.inputPanel()->seqLenSpin()->setValue(3000);
    EXPECT_EQ(f.controller.scenario().seqLen, 3000);
    f.window.inputPanel()->microBatchSlider()->setValue(16);
    EXPECT_EQ(f.controller.scenario().microBatch, 16);
    // Activations and logits grow linearly with tokens: 16 x 3000 vs 4 x 2048 tokens.
    EXPECT_GT(f.controller.estimate().perGpu[core::Component::LogitsLoss],
              core::estimate(core::defaultScenario(f.controller.catalog())).perGpu[core::Component::LogitsLoss] * 5);
}

TEST(Explorer, MethodButtonsAndModelSizeSliderMoveTheEstimate) {
    Fixture f;
    QTest::mouseClick(f.window.inputPanel()->methodButton(core::Method::Full), Qt::LeftButton);
    EXPECT_EQ(f.controller.scenario().method, core::Method::Full);
    EXPECT_EQ(f.controller.estimate().trainableParams, f.controller.estimate().params.total);
    // The size slider switches to a size-derived model: ~70 B parameters.
    f.window.inputPanel()->sizeSlider()->setValue(ui::InputPanel::sizeToSlider(70.0));
    EXPECT_TRUE(f.controller.scenario().model.sizeDerived);
    EXPECT_NEAR(static_cast<double>(f.controller.estimate().params.total) / 1e9, 70.0, 3.5);
    // Picking a catalog model moves the slider to its size.
    auto* picker = f.window.inputPanel()->modelPicker();
    const int index = picker->findData(QStringLiteral("llama-3.2-1b"));
    ASSERT_GE(index, 0);
    picker->setCurrentIndex(index);
    emit picker->activated(index);
    EXPECT_EQ(f.controller.scenario().modelId, "llama-3.2-1b");
    EXPECT_EQ(f.window.inputPanel()->sizeSlider()->value(), ui::InputPanel::sizeToSlider(1.236));
}

TEST(Explorer, FitTableColoursFollowHandMadeCases) {
    core::GpuSpec card;
    card.id = "card";
    card.name = "Card";
    card.memoryGiBStated = 80;
    card.memoryGiBUsable = 80;
    ui::FitTableModel model;
    std::vector<core::FitRow> rows(4);
    for (auto& r : rows) {
        r.gpu = &card;
    }
    // With a 10% margin: 70 GiB x 1.1 = 77 <= 80 fits (green); 76 x 1.1 = 83.6 > 80 >= 76 tight (amber);
    // 90 > 80 does not fit: amber when the planner finds another count or layout, red when nothing fits.
    const double margin = 0.10;
    rows[0].asIs.verdict = core::fitVerdict(core::gibToBytes(70), card.usableBytes(), margin);
    rows[1].asIs.verdict = core::fitVerdict(core::gibToBytes(76), card.usableBytes(), margin);
    rows[2].asIs.verdict = core::fitVerdict(core::gibToBytes(90), card.usableBytes(), margin);
    rows[2].best.found = true;
    rows[3].asIs.verdict = core::fitVerdict(core::gibToBytes(90), card.usableBytes(), margin);
    model.setRows(rows, core::PlanInputs{}, "card");
    auto colour = [&](int row) {
        return model.data(model.index(row, ui::FitTableModel::YourLayout), Qt::BackgroundRole).value<QColor>();
    };
    EXPECT_EQ(rows[0].asIs.verdict, core::FitVerdict::Fits);
    EXPECT_EQ(rows[1].asIs.verdict, core::FitVerdict::Tight);
    EXPECT_EQ(rows[2].asIs.verdict, core::FitVerdict::DoesNotFit);
    EXPECT_EQ(colour(0), QColor(0xc8, 0xe6, 0xc9));
    EXPECT_EQ(colour(1), QColor(0xff, 0xe0, 0x82));
    EXPECT_EQ(colour(2), QColor(0xff, 0xe0, 0x82));
    EXPECT_EQ(colour(3), QColor(0xff, 0xcd, 0xd2));
    // The scenario's GPU is marked and bold.
    EXPECT_TRUE(
        model.data(model.index(0, ui::FitTableModel::Gpu), Qt::DisplayRole).toString().startsWith(QStringLiteral("▶")));
    EXPECT_TRUE(model.data(model.index(0, ui::FitTableModel::Gpu), Qt::FontRole).value<QFont>().bold());
}

TEST(Explorer, FitViewListsTheCatalogSortedAndFiltered) {
    Fixture f;
    auto* fit = f.window.fitView();
    fit->refreshNow();
    EXPECT_EQ(fit->model()->rowCount(), static_cast<int>(f.controller.catalog().gpus.size()));
    // Full fine-tuning of an 8B model in bf16 + fp32 master + AdamW: 16 B x 8,030,261,248 = 119.7 GiB of model states
    // alone, so no 24 GB card can be green.
    f.controller.setMethod(core::Method::Full);
    f.controller.update([](core::Scenario& s) { s.precision = core::Precision::Bf16Fp32Master; });
    fit->refreshNow();
    for (int r = 0; r < fit->model()->rowCount(); ++r) {
        const auto& row = fit->model()->row(r);
        if (row.gpu->memoryGiBStated <= 24) {
            EXPECT_EQ(row.asIs.verdict, core::FitVerdict::DoesNotFit) << row.gpu->id;
        }
    }
    fit->minMemoryFilter()->setValue(100);
    for (int r = 0; r < fit->proxy()->rowCount(); ++r) {
        EXPECT_GE(fit->proxy()
                      ->data(fit->proxy()->index(r, ui::FitTableModel::Memory), ui::FitTableModel::SortRole)
                      .toDouble(),
                  100.0);
    }
    fit->vendorFilter()->setCurrentIndex(fit->vendorFilter()->findData(QStringLiteral("AMD")));
    EXPECT_GE(fit->proxy()->rowCount(), 1);
    for (int r = 0; r < fit->proxy()->rowCount(); ++r) {
        EXPECT_EQ(fit->proxy()->data(fit->proxy()->index(r, 0), ui::FitTableModel::VendorRole).toString(),
                  QStringLiteral("AMD"));
    }
}

TEST(Explorer, CompareViewShowsFullLoraAndQloraFromTheCore) {
    Fixture f;
    auto* compare = f.window.compareView();
    compare->refreshNow();
    const auto expected = core::compareMethods(f.controller.scenario(), f.controller.catalog().gpus);
    ASSERT_EQ(compare->model()->columnCount(), 3);
    for (int c = 0; c < 3; ++c) {
        const auto& v = compare->model()->variants()[static_cast<std::size_t>(c)];
        EXPECT_EQ(v.label, expected[static_cast<std::size_t>(c)].label);
        EXPECT_EQ(v.estimate.deviceBytes, expected[static_cast<std::size_t>(c)].estimate.deviceBytes);
        EXPECT_NEAR(compare->chart()->valueGiB(c, core::Component::Weights),
                    gib(expected[static_cast<std::size_t>(c)].estimate.perGpu[core::Component::Weights]), 0.051);
    }
    // QLoRA stores the base in 4 bits: fewer weight bytes than LoRA; full trains everything.
    EXPECT_LT(compare->model()->variants()[2].estimate.perGpu[core::Component::Weights],
              compare->model()->variants()[1].estimate.perGpu[core::Component::Weights]);
    EXPECT_EQ(compare->model()->variants()[0].estimate.trainableParams,
              compare->model()->variants()[0].estimate.params.total);
    compare->setAxis(ui::CompareView::Axis::Optimizers);
    EXPECT_EQ(compare->model()->columnCount(), 4);
}

TEST(Explorer, SequenceChartPlotsTheSweepAndTheCurrentPoint) {
    Fixture f;
    auto* view = f.window.seqLenView();
    view->refreshNow();
    const auto points = view->chart()->usagePoints();
    ASSERT_EQ(points.size(), 11); // 128 ... 131072
    EXPECT_DOUBLE_EQ(points.front().x(), 128.0);
    EXPECT_DOUBLE_EQ(points.back().x(), 131072.0);
    core::Scenario at4k = f.controller.scenario();
    at4k.seqLen = 4096;
    EXPECT_NEAR(points[5].y(), gib(core::estimate(at4k).deviceBytes), 1e-9);
    EXPECT_DOUBLE_EQ(view->chart()->markerPoint().x(), 2048.0);
    EXPECT_TRUE(view->captionText().contains(QStringLiteral("tokens")));
}

TEST(Explorer, SaveAndOpenRoundTripTheScenario) {
    Fixture f;
    QTemporaryDir dir;
    f.controller.update([](core::Scenario& s) {
        s.seqLen = 4096;
        s.method = core::Method::Qlora;
        s.gpus = 2;
        s.sharding = core::Sharding::Zero3;
    });
    const QString path = dir.filePath(QStringLiteral("mine.json"));
    ASSERT_TRUE(f.window.saveTo(path));
    EXPECT_FALSE(f.window.isModified());
    const std::int64_t saved = f.controller.estimate().deviceBytes;

    Fixture g;
    ASSERT_TRUE(g.window.openFile(path));
    EXPECT_EQ(g.controller.scenario().seqLen, 4096);
    EXPECT_EQ(g.controller.scenario().method, core::Method::Qlora);
    EXPECT_EQ(g.controller.scenario().sharding, core::Sharding::Zero3);
    EXPECT_EQ(g.controller.estimate().deviceBytes, saved);
    EXPECT_EQ(g.window.recentFiles().value(0), QFileInfo(path).absoluteFilePath());
    EXPECT_TRUE(g.window.inputPanel()->methodButton(core::Method::Qlora)->isChecked());
}

TEST(Explorer, ABadFileIsReportedAndTheCurrentWorkStays) {
    Fixture f;
    f.controller.update([](core::Scenario& s) { s.seqLen = 777; });
    ui::DialogService::setRecordErrors(true);
    ui::DialogService::shownErrors().clear();
    const QString bad = QStringLiteral(GPUSIZER_TEST_DATA_DIR "/scenarios/bad-enum.json");
    EXPECT_FALSE(f.window.openFile(bad));
    ASSERT_EQ(ui::DialogService::shownErrors().size(), 1);
    EXPECT_TRUE(ui::DialogService::shownErrors().front().contains(QStringLiteral("optimizer")));
    EXPECT_TRUE(ui::DialogService::shownErrors().front().contains(QStringLiteral("adamx")));
    EXPECT_EQ(f.controller.scenario().seqLen, 777);
    EXPECT_TRUE(f.window.isModified());
    // A save into a folder that does not exist fails in words and leaves nothing behind.
    ui::DialogService::shownErrors().clear();
    EXPECT_FALSE(f.window.saveTo(QStringLiteral("/nonexistent-dir/x.json")));
    EXPECT_EQ(ui::DialogService::shownErrors().size(), 1);
    ui::DialogService::setRecordErrors(false);
}

TEST(Explorer, ImportingAConfigJsonSwitchesToThatArchitecture) {
    Fixture f;
    ASSERT_TRUE(f.window.importConfig(QStringLiteral(GPUSIZER_TEST_DATA_DIR "/hf-configs/mistral-7b-v0.1.json")));
    EXPECT_TRUE(f.controller.scenario().modelId.empty());
    EXPECT_EQ(f.controller.estimate().params.total, 7'241'732'096);
}

TEST(Explorer, TabsAreSelectableByName) {
    Fixture f;
    EXPECT_TRUE(f.window.selectTab(QStringLiteral("fit")));
    EXPECT_EQ(f.window.currentView(), f.window.fitView());
    EXPECT_TRUE(f.window.selectTab(QStringLiteral("explorer")));
    EXPECT_EQ(f.window.currentView(), f.window.breakdownView());
    EXPECT_FALSE(f.window.selectTab(QStringLiteral("nonsense")));
}

TEST(Explorer, InvalidCombinationsAreRefusedWithAMessage) {
    Fixture f;
    QString message;
    QObject::connect(&f.controller, &ui::ScenarioController::changeRejected,
                     [&](const QString& text) { message = text; });
    f.window.inputPanel()->gpuCountSpin()->setValue(3);
    f.controller.update([](core::Scenario& s) { s.tensorParallel = 2; }); // 3 GPUs cannot hold TP=2
    EXPECT_TRUE(message.contains(QStringLiteral("tensor_parallel")));
    EXPECT_EQ(f.controller.scenario().tensorParallel, 1);
}

TEST(Explorer, AdvisorLadderMatchesTheCoreAndFollowsTheGpuPicker) {
    Fixture f;
    auto* advisor = f.window.advisorView();
    advisor->refreshNow();
    const auto* gpu = advisor->ladderGpu();
    ASSERT_NE(gpu, nullptr);
    EXPECT_EQ(gpu->id, "rtx-4090"); // no GPU in the scenario: the 24 GB example card
    const auto expected = core::adviseOom(f.controller.scenario(), *gpu);
    ASSERT_EQ(advisor->ladder()->rowCount(), static_cast<int>(expected.steps.size()));
    for (int r = 0; r < advisor->ladder()->rowCount(); ++r) {
        EXPECT_EQ(advisor->ladder()->advice().steps[static_cast<std::size_t>(r)].savingAlone,
                  expected.steps[static_cast<std::size_t>(r)].savingAlone);
    }
    EXPECT_TRUE(advisor->combinationText().contains(QStringLiteral("The fewest and cheapest fixes that fit")));
    // On an H200 the default scenario fits: no ladder.
    advisor->gpuPicker()->setCurrentIndex(advisor->gpuPicker()->findData(QStringLiteral("h200")));
    EXPECT_EQ(advisor->ladder()->rowCount(), 0);
    // The verdict names the recipe and the framework it holds for (the default: pure bf16, transformers + PEFT).
    EXPECT_TRUE(advisor->combinationText().contains(
        QStringLiteral("H200 SXM (139.5 GiB usable), bf16 (pure) on generic (transformers + PEFT): fits with the")))
        << advisor->combinationText().toStdString();
    EXPECT_TRUE(advisor->combinationText().contains(QStringLiteral("no fix needed")));
    // The sizing table has the five size classes and the scenario's model.
    EXPECT_EQ(advisor->sizing()->rowCount(), 6);
    EXPECT_TRUE(advisor->recommendationText().contains(QStringLiteral("Recommended")));
}

TEST(Explorer, TheWindowRestoresItsLastSession) {
    {
        Fixture f;
        f.controller.update([](core::Scenario& s) {
            s.seqLen = 6144;
            s.method = core::Method::Full;
        });
        f.window.selectTab(QStringLiteral("fit"));
        f.window.saveSession();
    }
    Fixture g;
    g.window.restoreSession();
    EXPECT_EQ(g.controller.scenario().seqLen, 6144);
    EXPECT_EQ(g.controller.scenario().method, core::Method::Full);
    EXPECT_EQ(g.window.currentView(), g.window.fitView());
    EXPECT_TRUE(g.window.isModified()); // unsaved work stays marked as such
}

TEST(Explorer, PlanViewShowsThePlannersAnswerAndScaling) {
    Fixture f;
    auto* plan = f.window.planView();
    plan->refreshNow();
    const auto in = f.controller.planInputs();
    const auto expected = core::planCatalog(f.controller.scenario(), f.controller.catalog().gpus, in);
    ASSERT_EQ(plan->table()->results().size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(plan->table()->results()[i].found, expected[i].found);
        EXPECT_DOUBLE_EQ(plan->table()->results()[i].best.plan.costOnDemandUsd, expected[i].best.plan.costOnDemandUsd);
    }
    EXPECT_TRUE(plan->rankingText().contains(QStringLiteral("Rent:")));
    EXPECT_GT(plan->costTime()->pointCount(), 0);
    EXPECT_EQ(plan->scaling()->pciePoints().size(), 7); // 1 ... 64 GPUs
    // No dataset size given: every answer says which it assumed.
    EXPECT_TRUE(plan->rankingText().contains(QStringLiteral("assumed: set your dataset")));
    // Twice the dataset, twice the training steps' time; the start-up and the final copy stay as they were.
    plan->tokensSpin()->setValue(100.0);
    EXPECT_FALSE(plan->rankingText().contains(QStringLiteral("assumed: set your dataset")));
    const core::CostPlan before = plan->table()->results()[0].best.plan;
    plan->tokensSpin()->setValue(200.0);
    const core::CostPlan after = plan->table()->results()[0].best.plan;
    EXPECT_NEAR(after.stepHours, 2.0 * before.stepHours, 0.01 * before.stepHours);
    EXPECT_NEAR(after.fixed.totalSeconds(), before.fixed.totalSeconds(), 1e-9);
    // The objective is shared: the fit tab sees it too.
    plan->objectivePicker()->setCurrentIndex(
        plan->objectivePicker()->findData(static_cast<int>(core::Objective::Time)));
    EXPECT_EQ(f.controller.planInputs().objective, core::Objective::Time);
}

TEST(Explorer, PlanViewShowsTheOneHourTestFirstAndTheWholeBillOfThePlanToRent) {
    Fixture f;
    auto* plan = f.window.planView();
    plan->refreshNow();
    const auto in = f.controller.planInputs();
    const auto& s = f.controller.scenario();
    // The same one-hour test and bill the core computes (and the CLI and the report print).
    const core::TrialHour trial = core::oneHourTest(s, f.controller.catalog().gpus, in);
    ASSERT_TRUE(trial.gpu.has_value());
    EXPECT_TRUE(plan->trialText().startsWith(QStringLiteral("First, the one-hour test")));
    EXPECT_TRUE(plan->trialText().contains(QString::fromStdString(trial.gpu->name)));
    EXPECT_TRUE(plan->trialText().contains(QString::fromStdString(present::usd(trial.usdForHour))));
    const auto results = core::planCatalog(s, f.controller.catalog().gpus, in);
    const auto ranking = core::rank(results, in);
    ASSERT_GE(ranking.chosen, 0);
    const auto& chosen = results[static_cast<std::size_t>(ranking.chosen)];
    const core::RunBill bill = core::runBill(chosen.best, *chosen.gpu, in);
    for (const QString& part :
         {QStringLiteral("The whole bill on"), QStringLiteral("Spot (expected)"), QStringLiteral("Checkpoint every"),
          QStringLiteral("Prices for"), QString::fromStdString(present::usd(bill.totalOnDemandUsd))}) {
        EXPECT_TRUE(plan->billText().contains(part)) << part.toStdString();
    }
    // More interruptions cost more on spot: the tab's input reaches the bill.
    const auto rate = plan->findChildren<QDoubleSpinBox*>();
    QDoubleSpinBox* interruptions = nullptr;
    for (auto* box : rate) {
        if (box->suffix().contains(QStringLiteral("interruptions"))) {
            interruptions = box;
        }
    }
    ASSERT_NE(interruptions, nullptr);
    interruptions->setValue(20.0);
    EXPECT_DOUBLE_EQ(f.controller.planInputs().bill.interruptionsPerDay, 20.0);
    // Beside the test, the measurement script for it: the button writes what File › Export writes.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("probe.py"));
    ui::DialogService::setNextFileName(path);
    auto* button = plan->findChild<QPushButton*>(QStringLiteral("exportProbeScript"));
    ASSERT_NE(button, nullptr);
    button->click();
    QFile script(path);
    ASSERT_TRUE(script.open(QIODevice::ReadOnly));
    EXPECT_EQ(script.readAll().toStdString(), core::probeScript(f.controller.scenario()));
}

TEST(Explorer, MeasurementScriptExportAndImportRoundTrip) {
    Fixture f;
    QTemporaryDir dir;
    const QString script = dir.filePath(QStringLiteral("probe.py"));
    ASSERT_TRUE(f.window.exportProbeScript(script));
    QFile file(script);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_TRUE(file.readAll().contains("gpusizer-measurement"));
    // A measurement of another model is refused in words; a matching one is compared.
    ui::DialogService::setRecordErrors(true);
    ui::DialogService::shownErrors().clear();
    EXPECT_TRUE(f.window.importMeasurement(QStringLiteral(GPUSIZER_TEST_DATA_DIR "/measurements/tiny-full-gpu.json"))
                    .isEmpty());
    EXPECT_EQ(ui::DialogService::shownErrors().size(), 1);
    ui::DialogService::setRecordErrors(false);
    ASSERT_TRUE(f.window.openFile(QStringLiteral(GPUSIZER_TEST_DATA_DIR "/scenarios/tiny-full.json")));
    ui::DialogService::setNextYesNo(false); // decline the calibration offer
    const QString text =
        f.window.importMeasurement(QStringLiteral(GPUSIZER_TEST_DATA_DIR "/measurements/tiny-full-gpu.json"));
    EXPECT_TRUE(text.contains(QStringLiteral("allocated")));
    EXPECT_TRUE(text.contains(QStringLiteral("measured")));
}

TEST(Explorer, ImportedGpuMeasurementsCalibrateOnlyWhenTheUserAgrees) {
    ui::CalibrationStore::clear();
    Fixture f;
    ASSERT_TRUE(f.window.openFile(QStringLiteral(GPUSIZER_TEST_DATA_DIR "/scenarios/tiny-full.json")));
    const QString result = QStringLiteral(GPUSIZER_TEST_DATA_DIR "/measurements/tiny-full-gpu.json");
    // Declined: the measurement is kept with the scenario, nothing is calibrated.
    ui::DialogService::setNextYesNo(false);
    EXPECT_FALSE(f.window.importMeasurement(result).isEmpty());
    EXPECT_EQ(f.controller.scenario().measurements.size(), 1u);
    EXPECT_TRUE(ui::CalibrationStore::all().isEmpty());
    EXPECT_EQ(f.controller.scenario().overheadCorrectionBytes, 0);
    // Accepted: the fitted correction is stored, applied, and said in the status bar.
    ui::DialogService::setNextYesNo(true);
    EXPECT_FALSE(f.window.importMeasurement(result).isEmpty());
    ASSERT_EQ(ui::CalibrationStore::all().size(), 1);
    const auto stored = ui::CalibrationStore::all().front();
    EXPECT_EQ(stored.gpuId, QStringLiteral("h100-sxm"));
    EXPECT_EQ(stored.runs, 2);
    EXPECT_EQ(f.controller.scenario().overheadCorrectionBytes, stored.overheadCorrectionBytes);
    EXPECT_TRUE(f.window.statusText().contains(QStringLiteral("calibrated")));
    // The breakdown shows the measured figures next to the estimate.
    f.window.breakdownView()->refreshNow();
    EXPECT_TRUE(f.window.breakdownView()->summaryText().contains(QStringLiteral("Measured")));
    // Reset (Help › Calibrations) removes it.
    f.window.resetCalibrations();
    EXPECT_TRUE(ui::CalibrationStore::all().isEmpty());
    EXPECT_EQ(f.controller.scenario().overheadCorrectionBytes, 0);
    EXPECT_FALSE(f.window.statusText().contains(QStringLiteral("calibrated")));
}

TEST(Explorer, ACalibrationAppliesOnlyWhereItWasMeasuredAndIsNeverSavedUnasked) {
    ui::CalibrationStore::clear();
    ui::StoredCalibration h100;
    h100.gpuId = QStringLiteral("h100-sxm");
    h100.framework = QStringLiteral("generic");
    h100.overheadCorrectionBytes = 3LL << 30; // +3 GiB, an arbitrary correction easy to recognise
    h100.runs = 2;
    ui::CalibrationStore::save(h100);
    Fixture f;
    f.controller.reloadCalibrations();
    f.controller.update([](core::Scenario& s) {
        s.gpuId = "h100-sxm";
        s.framework = core::Framework::Generic;
        s.overheadCorrectionBytes = 0;
    });
    // On the H100 under the generic profile: applied to what every view computes with, said in the status bar...
    EXPECT_EQ(f.controller.scenario().overheadCorrectionBytes, 3LL << 30);
    EXPECT_TRUE(f.window.statusText().contains(QStringLiteral("calibrated")));
    // ...but not part of the user's own settings.
    EXPECT_EQ(f.controller.ownScenario().overheadCorrectionBytes, 0);
    // The estimate is the uncalibrated one plus the 3 GiB (the device figure carries the overhead one to one).
    EXPECT_EQ(f.controller.estimate().deviceBytes - core::estimate(f.controller.ownScenario()).deviceBytes, 3LL << 30);
    // Another GPU: not applied; the estimate is the uncalibrated one.
    f.controller.setGpuId("a100-80gb-sxm");
    EXPECT_EQ(f.controller.scenario().overheadCorrectionBytes, 0);
    EXPECT_FALSE(f.window.statusText().contains(QStringLiteral("calibrated")));
    // Back on the H100 but under another framework: not applied either.
    f.controller.update([](core::Scenario& s) {
        s.gpuId = "h100-sxm";
        s.framework = core::Framework::Axolotl;
    });
    EXPECT_EQ(f.controller.scenario().overheadCorrectionBytes, 0);
    EXPECT_EQ(f.controller.estimate().deviceBytes, core::estimate(f.controller.ownScenario()).deviceBytes);
    // Saved while calibrated: the file has no correction.
    f.controller.update([](core::Scenario& s) { s.framework = core::Framework::Generic; });
    ASSERT_EQ(f.controller.scenario().overheadCorrectionBytes, 3LL << 30);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("calibrated.json"));
    ASSERT_TRUE(f.window.saveTo(path));
    QFile saved(path);
    ASSERT_TRUE(saved.open(QIODevice::ReadOnly));
    const auto reread = core::parseScenario(saved.readAll().toStdString(), "calibrated.json", f.controller.catalog());
    ASSERT_TRUE(reread.has_value());
    EXPECT_EQ(reread->scenario.overheadCorrectionBytes, 0);
    // Kept in the scenario on request: then it is the file's own and survives a reset of the calibrations.
    f.controller.keepCalibrationInScenario();
    EXPECT_EQ(f.controller.ownScenario().overheadCorrectionBytes, 3LL << 30);
    EXPECT_TRUE(f.window.statusText().contains(QStringLiteral("kept in this scenario")));
    f.window.resetCalibrations();
    EXPECT_EQ(f.controller.scenario().overheadCorrectionBytes, 3LL << 30);
    EXPECT_FALSE(f.controller.appliedCalibration().has_value());
    ui::CalibrationStore::clear();
}

namespace {

void wheelOver(QWidget* w, int steps) {
    const QPointF at(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent wheel(at, w->mapToGlobal(at), QPoint(), QPoint(0, -120 * steps), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(w, &wheel);
}

} // namespace

TEST(Explorer, TheWheelScrollsThePanelAndChangesAValueOnlyWhenItsControlHasTheFocus) {
    Fixture f;
    f.window.resize(1360, 700);
    f.window.show();
    f.window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&f.window));
    auto* toggle = f.window.inputPanel()->findChild<QToolButton*>(QStringLiteral("advancedToggle"));
    ASSERT_NE(toggle, nullptr);
    toggle->setChecked(true); // the advanced options: taller than the panel at 700 px
    QCoreApplication::processEvents();
    auto* checkpointing = f.window.findChild<QComboBox*>(QStringLiteral("field:gradient_checkpointing"));
    ASSERT_NE(checkpointing, nullptr);
    auto* scroll = qobject_cast<QScrollArea*>(f.window.inputPanel()->parentWidget()->parentWidget());
    ASSERT_NE(scroll, nullptr);
    const auto before = f.controller.scenario().checkpointing;
    const int scrolledBefore = scroll->verticalScrollBar()->value();
    ASSERT_FALSE(checkpointing->hasFocus());
    wheelOver(checkpointing, 3);
    EXPECT_EQ(f.controller.scenario().checkpointing, before) << "the wheel changed an unfocused input";
    EXPECT_GT(scroll->verticalScrollBar()->value(), scrolledBefore)
        << "the panel did not scroll (max " << scroll->verticalScrollBar()->maximum() << ", window "
        << f.window.height() << ", panel " << f.window.inputPanel()->height() << ", viewport "
        << scroll->viewport()->height() << ")";
    // Given the focus (a click or Tab), the wheel is the control's.
    checkpointing->setFocus(Qt::TabFocusReason);
    ASSERT_TRUE(checkpointing->hasFocus());
    wheelOver(checkpointing, 1);
    EXPECT_NE(f.controller.scenario().checkpointing, before);
    // The wheel alone never takes the focus.
    EXPECT_EQ(checkpointing->focusPolicy(), Qt::StrongFocus);
}

TEST(Explorer, TheAdapterPickerSetsTheKindAndGreysWhatItLeavesUnused) {
    Fixture f;
    f.window.resize(1024, 700);
    f.window.show();
    auto* toggle = f.window.inputPanel()->findChild<QToolButton*>(QStringLiteral("advancedToggle"));
    ASSERT_NE(toggle, nullptr);
    toggle->setChecked(true);
    QCoreApplication::processEvents();
    // Open, the form fits the panel: nothing wider than the scroll area's viewport.
    auto* scroll = qobject_cast<QScrollArea*>(f.window.inputPanel()->parentWidget()->parentWidget());
    ASSERT_NE(scroll, nullptr);
    EXPECT_LE(f.window.inputPanel()->minimumSizeHint().width(), scroll->viewport()->width());
    auto* picker = f.window.findChild<QComboBox*>(QStringLiteral("field:lora.kind"));
    auto* rank = f.window.findChild<QWidget*>(QStringLiteral("field:lora.rank"));
    ASSERT_NE(picker, nullptr);
    ASSERT_NE(rank, nullptr);
    picker->setFocus(Qt::TabFocusReason);
    const int ia3 = picker->findData(static_cast<int>(core::AdapterKind::Ia3));
    ASSERT_GE(ia3, 0);
    picker->setCurrentIndex(ia3);
    emit picker->activated(ia3);
    EXPECT_EQ(f.controller.scenario().lora.kind, core::AdapterKind::Ia3);
    EXPECT_FALSE(rank->isEnabled()); // IA3 has no rank
    const int dora = picker->findData(static_cast<int>(core::AdapterKind::Dora));
    picker->setCurrentIndex(dora);
    emit picker->activated(dora);
    EXPECT_EQ(f.controller.scenario().lora.kind, core::AdapterKind::Dora);
    EXPECT_TRUE(rank->isEnabled());
}

TEST(Explorer, TheScenarioNameFollowsModelAndMethodUntilTheUserNamesIt) {
    Fixture f;
    EXPECT_EQ(f.controller.scenario().name, "Llama-3.1-8B LoRA");
    f.controller.setMethod(core::Method::Full);
    EXPECT_EQ(f.controller.scenario().name, "Llama-3.1-8B Full");
    f.controller.setModelId("qwen2.5-7b");
    EXPECT_EQ(f.controller.scenario().name, "Qwen2.5-7B Full");
    EXPECT_TRUE(f.window.windowTitle().contains(QStringLiteral("Qwen2.5-7B Full")));
    // 8.0 B parameters from the size alone: the name says what it is.
    f.controller.setModelSizeBillion(8.0);
    EXPECT_EQ(f.controller.scenario().name.find("B model Full") != std::string::npos, true)
        << f.controller.scenario().name;
    // Named by the user: it stays through later changes, and is what a save writes.
    f.controller.update([](core::Scenario& s) { s.name = "my sweep"; });
    f.controller.setMethod(core::Method::Qlora);
    f.controller.setModelId("qwen2.5-7b");
    EXPECT_EQ(f.controller.scenario().name, "my sweep");
    // A file's own name is kept when it is opened.
    ASSERT_TRUE(f.window.openFile(QStringLiteral(GPUSIZER_TEST_DATA_DIR "/scenarios/tiny-full.json")));
    EXPECT_EQ(f.controller.scenario().name, "tiny full");
}

namespace {

/// The Alt+letter of a text ("Save &as…" → 'a'), or 0.
QChar mnemonicOf(const QString& text) {
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text[i] == QLatin1Char('&')) {
            if (text[i + 1] == QLatin1Char('&')) {
                ++i;
                continue;
            }
            return text[i + 1].toLower();
        }
    }
    return QChar();
}

/// Every mnemonic the user can press in the window as it is now (menu bar, tab bar, and the visible labels, buttons
/// and groups), with the text it belongs to.
QMultiMap<QChar, QString> visibleMnemonics(const ui::MainWindow& window) {
    QMultiMap<QChar, QString> out;
    auto add = [&](const QString& text) {
        if (const QChar m = mnemonicOf(text); !m.isNull()) {
            out.insert(m, text);
        }
    };
    for (const QAction* a : window.menuBar()->actions()) {
        add(a->text());
    }
    for (int i = 0; i < window.tabs()->count(); ++i) {
        add(window.tabs()->tabText(i));
    }
    for (const QWidget* w : window.findChildren<QWidget*>()) {
        if (!w->isVisibleTo(&window)) {
            continue;
        }
        if (const auto* label = qobject_cast<const QLabel*>(w); label != nullptr && label->buddy() != nullptr) {
            add(label->text());
        } else if (const auto* button = qobject_cast<const QAbstractButton*>(w)) {
            add(button->text());
        } else if (const auto* group = qobject_cast<const QGroupBox*>(w); group != nullptr && group->isCheckable()) {
            add(group->title());
        }
    }
    return out;
}

} // namespace

TEST(Explorer, NoTwoMnemonicsAreTheSameOnAnyTabWithTheAdvancedOptionsOpenOrClosed) {
    Fixture f;
    f.window.resize(1360, 820);
    f.window.show();
    auto* toggle = f.window.inputPanel()->findChild<QToolButton*>(QStringLiteral("advancedToggle"));
    ASSERT_NE(toggle, nullptr);
    for (bool open : {false, true}) {
        toggle->setChecked(open);
        for (int i = 0; i < f.window.tabs()->count(); ++i) {
            f.window.tabs()->setCurrentIndex(i);
            QCoreApplication::processEvents();
            const auto mnemonics = visibleMnemonics(f.window);
            for (const QChar key : mnemonics.uniqueKeys()) {
                const QStringList texts = mnemonics.values(key);
                EXPECT_EQ(texts.size(), 1)
                    << "Alt+" << QString(key).toStdString() << " on tab " << f.window.tabs()->tabText(i).toStdString()
                    << (open ? " (advanced open)" : "") << ": " << texts.join(QStringLiteral(" | ")).toStdString();
            }
        }
    }
}

TEST(Explorer, EveryFileActionHasAShortcut) {
    Fixture f;
    const QMenu* file = f.window.menuBar()->actions().front()->menu();
    ASSERT_NE(file, nullptr);
    QStringList shortcuts;
    int actions = 0;
    for (const QAction* a : file->actions()) {
        if (a->isSeparator() || a->menu() != nullptr) {
            continue; // Open recent is a submenu of files
        }
        ++actions;
        EXPECT_FALSE(a->shortcut().isEmpty()) << a->text().toStdString();
        shortcuts << a->shortcut().toString();
    }
    shortcuts.removeDuplicates();
    EXPECT_EQ(shortcuts.size(), actions) << "two File actions share a shortcut";
}

TEST(Explorer, TheVerdictBannerSaysFitsTightOrDoesNotFitOnTheChosenCardAndWhatToRent) {
    Fixture f;
    auto* view = f.window.breakdownView();
    const auto usable = [&](const char* id) { return f.controller.catalog().findGpu(id)->usableBytes(); };
    const auto margin = [&] { return core::fitMargin(f.controller.scenario(), f.controller.planInputs()); };
    // No GPU: no verdict, and the banner says which card the chart's line is.
    f.controller.setGpuId("");
    view->refreshNow();
    EXPECT_FALSE(view->bannerVerdict().has_value());
    EXPECT_TRUE(view->bannerText().contains(QStringLiteral("No GPU chosen")));
    EXPECT_TRUE(view->bannerText().contains(QStringLiteral("RTX 4090")));
    EXPECT_TRUE(view->bannerText().contains(QStringLiteral("What to rent")));
    // The default (32.9 GiB per GPU) on an RTX 4090, 23.6 GiB usable: does not fit, by the figures it names.
    f.controller.setGpuId("rtx-4090");
    view->refreshNow();
    ASSERT_GT(f.controller.estimate().deviceBytes, usable("rtx-4090"));
    EXPECT_EQ(view->bannerVerdict(), core::FitVerdict::DoesNotFit);
    EXPECT_TRUE(view->bannerText().contains(QStringLiteral("does not fit")));
    EXPECT_TRUE(view->bannerText().contains(ui::formatGiB(f.controller.estimate().deviceBytes)));
    // On an H100 (79.1 GiB usable) it fits with the margin: 32.9 × (1 + margin) < 79.1.
    f.controller.setGpuId("h100-sxm");
    view->refreshNow();
    ASSERT_LT(static_cast<double>(f.controller.estimate().deviceBytes) * (1.0 + margin()),
              static_cast<double>(usable("h100-sxm")));
    EXPECT_EQ(view->bannerVerdict(), core::FitVerdict::Fits);
    EXPECT_TRUE(view->bannerText().contains(QStringLiteral("fits with the")));
    // Tight: the estimate fits but not with the margin (device ≤ usable < device × (1 + margin)). The sequence length
    // where that happens on an A100 40GB is searched, the condition checked on the estimate itself.
    f.controller.setGpuId("a100-40gb-sxm");
    bool found = false;
    for (std::int64_t seq = 2048; seq <= 8192 && !found; seq += 16) {
        f.controller.setSeqLen(seq);
        const auto device = static_cast<double>(f.controller.estimate().deviceBytes);
        const auto limit = static_cast<double>(usable("a100-40gb-sxm"));
        found = device <= limit && device * (1.0 + margin()) > limit;
    }
    ASSERT_TRUE(found) << "no sequence length between 2,048 and 8,192 is tight on the A100 40GB";
    view->refreshNow();
    EXPECT_EQ(view->bannerVerdict(), core::FitVerdict::Tight);
    EXPECT_TRUE(view->bannerText().contains(QStringLiteral("tight")));
}

TEST(Explorer, ModelSearchMatchesWordsInAnyOrderAndARejectedEntryResetsTheBox) {
    // The matcher: every word, any order, '_' read as '.'.
    EXPECT_TRUE(present::matchesQuery("Llama-3.1-70B (70.55 B) llama-3.1-70b", "llama 3.1 70b"));
    EXPECT_TRUE(present::matchesQuery("Llama-3.1-70B (70.55 B) llama-3.1-70b", "70B LLAMA 3_1"));
    EXPECT_FALSE(present::matchesQuery("Llama-3.1-70B (70.55 B) llama-3.1-70b", "qwen 70b"));
    EXPECT_TRUE(present::matchesQuery("anything", "  "));
    Fixture f;
    f.window.show();
    auto* picker = f.window.findChild<QComboBox*>(QStringLiteral("modelPicker"));
    ASSERT_NE(picker, nullptr);
    picker->lineEdit()->clear();
    QTest::keyClicks(picker->lineEdit(), QStringLiteral("llama 3.1 70b"));
    QTest::keyClick(picker->lineEdit(), Qt::Key_Return);
    EXPECT_EQ(f.controller.scenario().modelId, "llama-3.1-70b");
    // Nothing matches: the box shows the model in use again, not the typed text.
    picker->lineEdit()->clear();
    QTest::keyClicks(picker->lineEdit(), QStringLiteral("no such model"));
    QTest::keyClick(picker->lineEdit(), Qt::Key_Return);
    EXPECT_EQ(f.controller.scenario().modelId, "llama-3.1-70b");
    EXPECT_TRUE(picker->currentText().startsWith(QStringLiteral("Llama-3.1-70B")))
        << picker->currentText().toStdString();
}

TEST(Explorer, TheWindowFits1024By700AndNeverResizesItself) {
    Fixture f;
    EXPECT_LE(f.window.minimumSizeHint().width(), 1024);
    // A 700-pixel screen less a window manager's title bar (openbox: 20 px, others up to about 32).
    EXPECT_LE(f.window.minimumSizeHint().height(), 700 - 32);
    f.window.resize(1024, 700);
    f.window.show();
    auto* toggle = f.window.inputPanel()->findChild<QToolButton*>(QStringLiteral("advancedToggle"));
    ASSERT_NE(toggle, nullptr);
    toggle->setChecked(true);
    auto* axis = f.window.compareView()->findChild<QComboBox*>();
    ASSERT_NE(axis, nullptr);
    for (int i = 0; i < f.window.tabs()->count(); ++i) {
        f.window.tabs()->setCurrentIndex(i);
        // Compare: every axis, precision recipes (the longest labels) included.
        for (int a = 0; a < (f.window.currentView() == f.window.compareView() ? axis->count() : 1); ++a) {
            if (f.window.currentView() == f.window.compareView()) {
                axis->setCurrentIndex(a);
            }
            QCoreApplication::processEvents();
            EXPECT_EQ(f.window.size(), QSize(1024, 700)) << "tab " << i << ", axis " << a;
        }
    }
}

TEST(Explorer, AValueLabelCrossedByACapacityLineIsHiddenAndOneClearOfItIsShown) {
    // Owned by a window that outlives the checks, and deleted through the event loop like every other view here:
    // a chart view destroyed on the stack while shown leaves Qt's deferred deletions to LeakSanitizer.
    Fixture f;
    auto* owner = new QWidget(&f.window, Qt::Window);
    auto& view = *new ui::BreakdownChartView(owner);
    owner->resize(400, 400);
    view.resize(400, 400);
    owner->show();
    QCoreApplication::processEvents();
    core::ComponentBytes parts;
    parts[core::Component::Weights] = core::gibToBytes(20);     // segment 0-20 GiB, label at 10 GiB
    parts[core::Component::Activations] = core::gibToBytes(20); // segment 20-40 GiB, label at 30 GiB
    const ui::BreakdownBar bar{QStringLiteral("Per GPU"), parts, core::gibToBytes(38), core::gibToBytes(44)};
    // Axis: 44 GiB x 1.08 = 47.5 -> 50 GiB. A label is one line of text (about 16 px) on a plot of ~300 px, so it
    // spans about +/- (8 + 2) px = +/- 1.7 GiB around its middle.
    view.setBars({bar}, {{QStringLiteral("card A"), core::gibToBytes(30), QColor(Qt::gray)}}); // through 30 GiB
    EXPECT_FALSE(view.labelsShown(core::Component::Activations));
    EXPECT_TRUE(view.labelsShown(core::Component::Weights));
    view.setBars({bar}, {{QStringLiteral("card B"), core::gibToBytes(24), QColor(Qt::gray)}}); // 6 GiB below the label
    EXPECT_TRUE(view.labelsShown(core::Component::Activations));
    EXPECT_TRUE(view.labelsShown(core::Component::Weights));
    owner->deleteLater();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

TEST(Explorer, BreakdownAndCompareTablesShowEveryColumnWholeAt1024By700AndTheChartLinesKeyWraps) {
    Fixture f;
    f.window.resize(1024, 700);
    f.window.show();
    f.window.tabs()->setCurrentIndex(0);
    QCoreApplication::processEvents();
    auto* table = f.window.breakdownView()->findChild<QTableView*>();
    ASSERT_NE(table, nullptr);
    int columns = 0;
    for (int c = 0; c < table->model()->columnCount(); ++c) {
        // No column narrower than its widest cell (Qt would elide "Optimizer states", "Total per GPU (device)").
        const int width = table->horizontalHeader()->sectionSize(c);
        for (int r = 0; r < table->model()->rowCount(); ++r) {
            const QString cell = table->model()->index(r, c).data().toString();
            EXPECT_GE(width, table->fontMetrics().horizontalAdvance(cell)) << cell.toStdString();
        }
        columns += width;
    }
    EXPECT_LE(columns, table->viewport()->width());
    // The whole table lies inside the window, not past its right edge.
    EXPECT_LE(table->mapTo(&f.window, QPoint(table->width(), 0)).x(), f.window.width());
    // The component table is the chart's key; the whisker and the card's line are keyed in a label that wraps
    // (Qt's legend elided "RTX 4090 (23.…" at this width).
    auto* chart = f.window.breakdownView()->findChild<ui::BreakdownChartView*>();
    ASSERT_NE(chart, nullptr);
    EXPECT_FALSE(chart->chart()->legend()->isVisible());
    auto* key = f.window.breakdownView()->findChild<QLabel*>(QStringLiteral("chartLineKey"));
    ASSERT_NE(key, nullptr);
    EXPECT_TRUE(key->wordWrap());
    EXPECT_TRUE(key->text().contains(QStringLiteral("Expected&nbsp;range")));
    EXPECT_TRUE(key->text().contains(QStringLiteral("RTX&nbsp;4090&nbsp;(23.6&nbsp;GiB)")))
        << key->text().toStdString();
    // Compare: the table keeps every variant's column inside the window, its rows carry the components' swatches.
    f.window.tabs()->setCurrentIndex(3);
    QCoreApplication::processEvents();
    auto* compare = f.window.compareView()->findChild<QTableView*>();
    ASSERT_NE(compare, nullptr);
    EXPECT_LE(compare->mapTo(&f.window, QPoint(compare->width(), 0)).x(), f.window.width());
    EXPECT_FALSE(compare->model()->headerData(0, Qt::Vertical, Qt::DecorationRole).value<QIcon>().isNull());
}

TEST(Explorer, TheSequenceChartKeepsTheCurveAndEveryCardInViewAndACardKeepsItsColour) {
    Fixture f;
    // Llama-3.1-70B full fine-tuning: up to 131,072 tokens the curve climbs far above any card.
    f.controller.setModelId("llama-3.1-70b");
    f.controller.setMethod(core::Method::Full);
    f.controller.setGpuId("");
    f.window.seqLenView()->refreshNow();
    const auto* chart = f.window.seqLenView()->chart();
    double highest = 0;
    for (const QPointF& p : chart->usagePoints()) {
        highest = std::max(highest, p.y());
    }
    const QPointF range = chart->yRange();
    EXPECT_GE(range.y(), highest) << "the curve leaves the top of the chart";
    // The smallest card drawn (RTX 4090, 23.6 GiB usable) is above the axis's floor.
    EXPECT_LE(range.x(), 23.6);
    // Without a GPU the lines are RTX 4090, L40S, H100 SXM, H200; with the H100 chosen it comes first. Its colour is
    // the same either way, and the "Now" marker's red is no card's colour.
    const QColor h100Unselected = chart->capacityColor(2);
    f.controller.setGpuId("h100-sxm");
    f.window.seqLenView()->refreshNow();
    EXPECT_EQ(chart->capacityColor(0), h100Unselected);
    for (int i = 0; i < 4; ++i) {
        EXPECT_NE(chart->capacityColor(i), QColor(0xe1, 0x57, 0x59)) << "line " << i;
    }
}

TEST(Explorer, TheSizingTableSaysWhenASmallerModelNeedsMoreBecauseOfItsVocabulary) {
    const auto catalog = catalogs::loadCatalogs().catalog;
    const auto* h100 = catalog.findGpu("h100-sxm");
    ASSERT_NE(h100, nullptr);
    // Llama-3.1-8B (vocab_size 128,256 in its config.json) on 2 × H100, Llama-2-13B (32,000) on 1 × H100 under full
    // fine-tuning: the note names both vocabularies.
    const double price = h100->priceOnDemandUsdHour; // a cell's bill: cards x price
    const core::SizingCell one{h100, 1, 0, price, 0, 0, {}};
    core::SizingRow eight{
        "7-8B", "Llama-3.1-8B", "llama-3.1-8b", 8'030'000'000, one, one, {h100, 2, 0, 2 * price, 0, 0, {}}};
    core::SizingRow thirteen{"13B", "Llama-2-13B", "llama-2-13b", 13'020'000'000, one, one, one};
    const std::string note = present::english(present::sizingVocabularyNote({eight, thirteen}, catalog));
    EXPECT_NE(note.find("Llama-3.1-8B needs more than Llama-2-13B with Full fine-tuning"), std::string::npos) << note;
    EXPECT_NE(note.find("128,256"), std::string::npos) << note;
    EXPECT_NE(note.find("32,000"), std::string::npos) << note;
    // In order (the larger model needs at least as much): no note.
    eight.full = one;
    EXPECT_TRUE(present::sizingVocabularyNote({eight, thirteen}, catalog).empty());
}

TEST(Explorer, TheGpuColumnStaysInPlaceWhileTheFitTableScrollsSideways) {
    Fixture f;
    f.window.resize(1024, 700);
    f.window.show();
    f.window.selectTab(QStringLiteral("fit"));
    QCoreApplication::processEvents();
    auto* table = f.window.fitView()->findChild<ui::FrozenColumnTableView*>();
    ASSERT_NE(table, nullptr);
    auto* frozen = table->frozenView();
    table->horizontalScrollBar()->setValue(table->horizontalScrollBar()->maximum());
    QCoreApplication::processEvents();
    ASSERT_GT(table->horizontalScrollBar()->maximum(), 0) << "the table is not wider than its view at 1024 px";
    // Scrolled all the way right: the GPU names still show at the left edge, row for row with the table.
    EXPECT_TRUE(frozen->isVisible());
    EXPECT_LE(frozen->geometry().left(), table->frameWidth());
    EXPECT_EQ(frozen->columnWidth(0), table->columnWidth(0));
    EXPECT_LT(table->columnViewportPosition(0), 0) << "the table itself did scroll";
    // Scrolled down, sorted by another column, the first column resized: still row for row, as wide as the column.
    table->verticalScrollBar()->setValue(table->verticalScrollBar()->maximum());
    table->sortByColumn(ui::FitTableModel::Cost, Qt::DescendingOrder);
    table->setColumnWidth(0, table->columnWidth(0) + 40);
    QCoreApplication::processEvents();
    ASSERT_GT(table->verticalScrollBar()->value(), 0);
    for (int r = 0; r < table->model()->rowCount(); ++r) {
        EXPECT_EQ(frozen->rowViewportPosition(r), table->rowViewportPosition(r)) << "row " << r;
    }
    EXPECT_EQ(frozen->columnWidth(0), table->columnWidth(0));
    EXPECT_EQ(frozen->geometry().width(), table->columnWidth(0));
}

TEST(Explorer, TheAdvisorStacksItsLowerHalfInANarrowWindowAndSetsItSideBySideInAWideOne) {
    Fixture f;
    f.window.show();
    f.window.selectTab(QStringLiteral("advisor"));
    f.window.resize(1024, 700);
    QCoreApplication::processEvents();
    EXPECT_FALSE(f.window.advisorView()->sideBySide());
    EXPECT_LE(f.window.advisorView()->minimumSizeHint().width(), f.window.advisorView()->width());
    f.window.resize(1600, 900);
    QCoreApplication::processEvents();
    EXPECT_TRUE(f.window.advisorView()->sideBySide());
}

TEST(Explorer, ChartsFollowADarkPaletteOnScreenWhileTheReportsStayLight) {
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    ui::BreakdownChartView onScreen;
    onScreen.followPalette(dark);
    ui::BreakdownChartView forTheReport;
    const core::Estimate e = core::estimate(core::defaultScenario(catalogs::loadCatalogs().catalog));
    for (ui::BreakdownChartView* view : {&onScreen, &forTheReport}) {
        view->setBars({{QStringLiteral("Per GPU"), e.perGpu, e.bandLowBytes, e.bandHighBytes}}, {});
    }
    // After setBars rebuilt the axes: the screen's chart is dark with light labels, the report's is light.
    EXPECT_LT(onScreen.chart()->backgroundBrush().color().lightness(), 128);
    for (QAbstractAxis* axis : onScreen.chart()->axes()) {
        EXPECT_GT(axis->labelsColor().lightness(), 128);
    }
    for (QAbstractAxis* axis : forTheReport.chart()->axes()) {
        EXPECT_LT(axis->labelsColor().lightness(), 128); // the light theme's dark labels, for paper
    }
}

TEST(Explorer, CompareHeadsItsColumnsWithTheChartsShortLabelsAndTheFullOnesInTheTooltip) {
    Fixture f;
    auto* axis = f.window.compareView()->findChild<QComboBox*>();
    ASSERT_NE(axis, nullptr);
    axis->setCurrentIndex(2); // precision recipes
    f.window.compareView()->refreshNow();
    auto* table = f.window.compareView()->findChild<QTableView*>();
    ASSERT_NE(table, nullptr);
    QStringList headers;
    QStringList tooltips;
    for (int c = 0; c < table->model()->columnCount(); ++c) {
        headers << table->model()->headerData(c, Qt::Horizontal).toString();
        tooltips << table->model()->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
    }
    EXPECT_TRUE(headers.contains(QStringLiteral("bf16+fp32"))) << headers.join(QStringLiteral(" | ")).toStdString();
    EXPECT_TRUE(tooltips.contains(QStringLiteral("bf16 + fp32 master weights")))
        << tooltips.join(QStringLiteral(" | ")).toStdString();
    for (const QString& h : headers) {
        EXPECT_LE(h.size(), 10) << h.toStdString(); // short enough for a bar's label and a narrow column
    }
}

namespace {

QString trainingConfig(const char* name) {
    return QStringLiteral(GPUSIZER_TEST_DATA_DIR "/training-configs/") + QLatin1String(name);
}

/// A file with `text` in `dir`, for a test to import.
QString writtenFile(const QTemporaryDir& dir, const char* name, const char* text) {
    const QString path = dir.filePath(QLatin1String(name));
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(text);
    return path;
}

ui::ImportReportDialog* importReportOf(ui::MainWindow& window) {
    return window.findChild<ui::ImportReportDialog*>(QStringLiteral("importReport"));
}

} // namespace

TEST(Explorer, ImportingTrainingConfigsMakesTheirScenarioAndShowsTheReport) {
    Fixture f;
    ui::DialogService::setNonInteractive(true);
    ASSERT_TRUE(f.window.importTrainingConfigs({trainingConfig("transformers/sft_config.json"),
                                                trainingConfig("transformers/adapter_config.json"),
                                                trainingConfig("transformers/accelerate_deepspeed.yaml")}));
    const core::Scenario& s = f.controller.scenario();
    EXPECT_EQ(s.modelId, "llama-2-70b");
    EXPECT_EQ(s.gpus, 8);
    EXPECT_EQ(s.sharding, core::Sharding::Zero3);
    EXPECT_EQ(s.microBatch, 8);
    EXPECT_TRUE(f.window.isModified()); // a new scenario, not saved yet
    ui::ImportReportDialog* report = importReportOf(f.window);
    ASSERT_NE(report, nullptr);
    EXPECT_TRUE(report->isVisible());
    // What the import decided (the precision the files add up to, the framework) reads as words, not codes.
    auto* cells = report->findChild<QTableWidget*>();
    ASSERT_NE(cells, nullptr);
    QStringList values;
    for (int r = 0; r < cells->rowCount(); ++r) {
        if (cells->item(r, 1)->text() == QStringLiteral("—")) {
            values << cells->item(r, 2)->text();
        }
    }
    EXPECT_TRUE(values.contains(QStringLiteral("transformers Trainer"))) << values.join(" | ").toStdString();
    EXPECT_FALSE(values.contains(QStringLiteral("hf-trainer"))) << values.join(" | ").toStdString();
    EXPECT_FALSE(values.contains(QStringLiteral("bf16-fp32-master"))) << values.join(" | ").toStdString();
    const int all = report->visibleRows();
    report->showOnly(core::ImportLine::Kind::Ignored);
    EXPECT_GT(report->visibleRows(), 0);
    EXPECT_LT(report->visibleRows(), all);
    // The report stays with the scenario: File › Show import report shows its notes.
    auto* show = f.window.findChild<QAction*>(QStringLiteral("showImportReport"));
    ASSERT_NE(show, nullptr);
    EXPECT_TRUE(show->isEnabled());
    EXPECT_NE(s.notes.find("per_device_train_batch_size = 8 -> micro_batch"), std::string::npos);
    ui::DialogService::setNonInteractive(false);
}

TEST(Explorer, AnUnknownModelIsAskedForAsItsConfigJson) {
    Fixture f;
    QTemporaryDir dir;
    const QString path =
        writtenFile(dir, "run.yaml", "base_model: acme/Mystery-7B\nadapter: lora\nlora_r: 8\nsequence_len: 1024\n");
    ui::DialogService::setNonInteractive(true);
    // Declined: nothing changes.
    const auto before = core::scenarioToJson(f.controller.scenario());
    EXPECT_FALSE(f.window.importTrainingConfigs({path}));
    EXPECT_EQ(core::scenarioToJson(f.controller.scenario()), before);
    // Accepted, with the config.json chosen: the run imports on that architecture.
    ui::DialogService::setNextYesNo(true);
    ui::DialogService::setNextFileName(QStringLiteral(GPUSIZER_TEST_DATA_DIR "/hf-configs/mistral-7b-v0.1.json"));
    ASSERT_TRUE(f.window.importTrainingConfigs({path}));
    EXPECT_EQ(f.controller.estimate().params.total, 7'241'732'096);
    EXPECT_EQ(f.controller.scenario().seqLen, 1024);
    ui::DialogService::setNonInteractive(false);
}

TEST(Explorer, ABrokenTrainingConfigIsReportedWithItsLineAndTheWorkStays) {
    Fixture f;
    f.controller.update([](core::Scenario& s) { s.seqLen = 777; });
    QTemporaryDir dir;
    const QString path =
        writtenFile(dir, "axolotl.yaml", "base_model: meta-llama/Llama-3.1-8B\nmicro_batch_size: lots\n");
    ui::DialogService::setNonInteractive(true);
    ui::DialogService::shownErrors().clear();
    EXPECT_FALSE(f.window.importTrainingConfigs({path}));
    ASSERT_EQ(ui::DialogService::shownErrors().size(), 1);
    EXPECT_TRUE(ui::DialogService::shownErrors().front().contains(QStringLiteral("axolotl.yaml:2:1: micro_batch_size")))
        << ui::DialogService::shownErrors().front().toStdString();
    EXPECT_EQ(f.controller.scenario().seqLen, 777);
    ui::DialogService::setNonInteractive(false);
}

TEST(Explorer, DroppedTrainingConfigsImportAndADroppedScenarioOpens) {
    Fixture f;
    ui::DialogService::setNonInteractive(true);
    const auto drop = [&](const QStringList& paths) {
        auto* mime = new QMimeData;
        QList<QUrl> urls;
        for (const QString& p : paths) {
            urls << QUrl::fromLocalFile(p);
        }
        mime->setUrls(urls);
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&f.window, &enter);
        EXPECT_TRUE(enter.isAccepted());
        QDropEvent dropped(QPointF(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&f.window, &dropped);
        delete mime;
    };
    drop({trainingConfig("litgpt/llama-2-7b-lora.yaml")});
    EXPECT_EQ(f.controller.scenario().modelId, "llama-2-7b");
    EXPECT_EQ(f.controller.scenario().gradientAccumulation, 128);
    drop({QStringLiteral(GPUSIZER_TEST_DATA_DIR "/scenarios/tiny-full.json")});
    EXPECT_EQ(f.controller.scenario().method, core::Method::Full);
    ui::DialogService::setNonInteractive(false);
}

TEST(Explorer, AWrappedLabelForgetsItsHeightsWhenItsTextOrFontChanges) {
    // The Plan tab's labels remember their height per width (layouts ask many times per pass); a stale height would
    // clip a longer text or leave a gap under a shorter one. Compared with a plain QLabel given the same text.
    ui::WrappedLabel cached;
    QLabel plain;
    plain.setWordWrap(true);
    const QString shortText = QStringLiteral("Rent: 1 × Gaudi 2.");
    const QString longText = QString(QStringLiteral("The whole bill, line after line. ")).repeated(12);
    for (const QString& text : {shortText, longText, shortText}) {
        cached.setText(text);
        plain.setText(text);
        EXPECT_EQ(cached.heightForWidth(200), plain.heightForWidth(200)) << text.toStdString();
    }
    QFont larger = cached.font();
    larger.setPointSizeF(larger.pointSizeF() * 2);
    cached.setText(longText);
    plain.setText(longText);
    const int before = cached.heightForWidth(200);
    cached.setFont(larger);
    plain.setFont(larger);
    EXPECT_EQ(cached.heightForWidth(200), plain.heightForWidth(200));
    EXPECT_GT(cached.heightForWidth(200), before);
}

TEST(Explorer, DatasetLengthsSetTheSequenceAndTheTokensThePlanPrices) {
    Fixture f;
    QTemporaryDir dir;
    const QString script = dir.filePath(QStringLiteral("lengths.py"));
    ASSERT_TRUE(f.window.exportDatasetScript(script));
    QFile file(script);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_TRUE(file.readAll().contains("gpusizer-lengths"));
    // twenty-examples.json: the dataset script over 20 examples of 10, 20, ..., 190 and 400 tokens
    // (tests/cli/CliTest.cpp derives every figure). At p95 = 190 one example is cut by 210 tokens: 2,090 remain.
    const QString text = f.window.importDatasetLengths(
        QStringLiteral(GPUSIZER_TEST_DATA_DIR "/lengths/twenty-examples.json"), core::LengthBasis::P95);
    EXPECT_TRUE(text.contains(QStringLiteral("one example is cut, losing 210 tokens"))) << text.toStdString();
    EXPECT_EQ(f.controller.scenario().seqLen, 190);
    ASSERT_TRUE(f.controller.scenario().dataset.has_value());
    EXPECT_DOUBLE_EQ(f.controller.planInputs().datasetTokens, 2090.0);
    EXPECT_TRUE(f.controller.planInputs().datasetTokensStated);
    // A file that is not a dataset script's result is refused in words, and nothing changes.
    ui::DialogService::setRecordErrors(true);
    ui::DialogService::shownErrors().clear();
    EXPECT_TRUE(f.window
                    .importDatasetLengths(QStringLiteral(GPUSIZER_TEST_DATA_DIR "/measurements/tiny-full-gpu.json"),
                                          core::LengthBasis::Longest)
                    .isEmpty());
    EXPECT_EQ(ui::DialogService::shownErrors().size(), 1);
    EXPECT_EQ(f.controller.scenario().seqLen, 190);
    ui::DialogService::setRecordErrors(false);

    // File › Import dataset lengths… shows the histogram (6, 6, 7 and 1 examples in the bins 1-16 .. 257-512, as the
    // CLI test derives) and lets the user size by the longest example, p99 or p95, saying what each cuts.
    const auto lengths =
        f.window.readDatasetLengths(QStringLiteral(GPUSIZER_TEST_DATA_DIR "/lengths/twenty-examples.json"));
    ASSERT_TRUE(lengths.has_value());
    ui::LengthsDialog dialog(*lengths, &f.window);
    const auto* chart = dialog.findChild<ui::LengthsChartView*>();
    ASSERT_NE(chart, nullptr);
    EXPECT_EQ(chart->counts(), (QList<qreal>{6, 6, 7, 1}));
    EXPECT_EQ(dialog.basis(), core::LengthBasis::Longest);
    EXPECT_TRUE(dialog.choiceText().contains(QStringLiteral("Sequence length 400 (the longest example): no example "
                                                            "is cut")))
        << dialog.choiceText().toStdString();
    auto* basis = dialog.findChild<QComboBox*>(QStringLiteral("lengthsBasis"));
    ASSERT_NE(basis, nullptr);
    basis->setFocus();
    QTest::keyClick(basis, Qt::Key_Down); // p99: the 99th of 20 sorted lengths is the longest, 400
    QTest::keyClick(basis, Qt::Key_Down); // p95: 190
    EXPECT_EQ(dialog.basis(), core::LengthBasis::P95);
    EXPECT_TRUE(dialog.choiceText().contains(QStringLiteral("one example is cut, losing 210 tokens")))
        << dialog.choiceText().toStdString();
}

namespace {

/// One window per test process: a second window built in the same test leaves Qt Charts' deferred deletions of the
/// first to an event loop that never runs (LeakSanitizer reports them).
void expectNoControlClippedAfterDraggingTheSizeSlider(QSize size) {
    {
        Fixture f;
        f.window.resize(size);
        f.window.show();
        auto* toggle = f.window.inputPanel()->findChild<QToolButton*>(QStringLiteral("advancedToggle"));
        ASSERT_NE(toggle, nullptr);
        toggle->setChecked(true);
        // 10^(107/100) = 11.7 B: a size-only model, with its long "derived from the size" label.
        f.window.inputPanel()->sizeSlider()->setValue(107);
        QCoreApplication::processEvents();
        ASSERT_TRUE(f.controller.scenario().model.sizeDerived);
        auto* area = f.window.findChild<QScrollArea*>(QStringLiteral("inputScroll"));
        ASSERT_NE(area, nullptr);
        const QWidget* viewport = area->viewport();
        // Nothing sideways to scroll to: every control lies within the panel's visible width.
        EXPECT_FALSE(area->horizontalScrollBar()->isVisible()) << size.width();
        int checked = 0;
        for (QWidget* w : f.window.inputPanel()->findChildren<QWidget*>()) {
            const bool control = qobject_cast<QAbstractButton*>(w) != nullptr ||
                                 qobject_cast<QAbstractSpinBox*>(w) != nullptr ||
                                 qobject_cast<QComboBox*>(w) != nullptr || qobject_cast<QSlider*>(w) != nullptr ||
                                 qobject_cast<QLabel*>(w) != nullptr;
            if (!control || !w->isVisibleTo(&f.window) || w->window() != &f.window) {
                continue;
            }
            const QRect inViewport(w->mapTo(viewport, QPoint(0, 0)), w->size());
            EXPECT_GE(inViewport.left(), 0) << w->objectName().toStdString() << " at " << size.width();
            EXPECT_LT(inViewport.right(), viewport->width())
                << w->metaObject()->className() << " " << w->objectName().toStdString() << " at " << size.width();
            ++checked;
        }
        EXPECT_GT(checked, 60); // the basics, the advanced form and the LoRA targets
        auto* sizeLabel = f.window.inputPanel()->findChild<QLabel*>(QStringLiteral("sizeLabel"));
        ASSERT_NE(sizeLabel, nullptr);
        EXPECT_TRUE(sizeLabel->text().contains(QStringLiteral("derived from the size")));
    }
}

} // namespace

TEST(Explorer, DraggingTheSizeSliderClipsNoControlOfThePanelAt1024By700) {
    expectNoControlClippedAfterDraggingTheSizeSlider(QSize(1024, 700));
}

TEST(Explorer, DraggingTheSizeSliderClipsNoControlOfThePanelAt1920By1080) {
    expectNoControlClippedAfterDraggingTheSizeSlider(QSize(1920, 1080));
}

TEST(Explorer, EveryTableIsOneTabStopAndTheArrowKeysMoveInsideIt) {
    Fixture f;
    f.window.resize(1024, 700);
    f.window.show();
    QApplication::setActiveWindow(&f.window);
    const auto tables = f.window.findChildren<QAbstractItemView*>();
    ASSERT_GE(tables.size(), 6); // breakdown, fit (and its frozen column), compare, plan, the advisor's two
    for (const QAbstractItemView* table : tables) {
        EXPECT_FALSE(table->tabKeyNavigation()) << table->objectName().toStdString();
    }
    for (int tab : {0, 2}) { // the component table (24 cells) and the GPU fit table (about 250)
        f.window.tabs()->setCurrentIndex(tab);
        QCoreApplication::processEvents();
        auto* table = f.window.currentView()->findChild<QTableView*>();
        ASSERT_NE(table, nullptr);
        table->setFocus();
        table->setCurrentIndex(table->model()->index(0, 0));
        QTest::keyClick(table, Qt::Key_Down);
        EXPECT_EQ(table->currentIndex().row(), 1) << "tab " << tab;
        QTest::keyClick(table, Qt::Key_Tab);
        EXPECT_NE(QApplication::focusWidget(), table) << "tab " << tab << ": Tab left the table";
        EXPECT_EQ(table->currentIndex().row(), 1);
    }
}

TEST(Explorer, FileDialogsStartInTheFolderOfTheLastFileChosen) {
    const QTemporaryDir dir;
    ASSERT_TRUE(QDir(dir.path()).mkpath(QStringLiteral("runs")));
    const QString runs = QDir(dir.path()).filePath(QStringLiteral("runs"));
    ui::DialogService::setNextFileNames({QDir(runs).filePath(QStringLiteral("axolotl.yaml"))});
    ui::DialogService::openFiles(nullptr, QStringLiteral("Import"), QString());
    EXPECT_EQ(ui::DialogService::startFolder(), runs);
    // A save dialog suggests its file name in that folder; a path the caller already knows stays as it is.
    EXPECT_EQ(ui::DialogService::startPath(QStringLiteral("report.pdf")), QDir(runs).filePath("report.pdf"));
    EXPECT_EQ(ui::DialogService::startPath(QStringLiteral("/srv/plans/a.json")), QStringLiteral("/srv/plans/a.json"));
    // A remembered folder that is gone falls back to the home folder.
    ASSERT_TRUE(QDir(runs).removeRecursively());
    EXPECT_EQ(ui::DialogService::startFolder(), QDir::homePath());
}

TEST(Explorer, TheWindowsImportErrorsSpeakOfTheWindowNotOfCommandLineFlags) {
    Fixture f;
    QTemporaryDir dir;
    ui::DialogService::setNonInteractive(true);
    // A YAML of no known format, and a framework's refusal (Axolotl validate_qlora).
    for (const auto& [name, content] :
         {std::pair{"colours.yaml", "colour: blue\nsize: 3\n"},
          std::pair{"qlora.yaml", "base_model: meta-llama/Llama-3.1-8B\nadapter: qlora\nsequence_len: 512\n"}}) {
        ui::DialogService::shownErrors().clear();
        EXPECT_FALSE(f.window.importTrainingConfigs({writtenFile(dir, name, content)}));
        ASSERT_EQ(ui::DialogService::shownErrors().size(), 1) << name;
        const QString shown = ui::DialogService::shownErrors().front();
        EXPECT_TRUE(shown.contains(QString::fromLatin1(name))) << shown.toStdString();
        EXPECT_FALSE(shown.contains(QStringLiteral("--"))) << shown.toStdString();
    }
    ui::DialogService::setNonInteractive(false);
}

namespace {

/// Every text the window shows on its tabs: labels, buttons, table cells and headers, chart axes.
QStringList shownTexts(ui::MainWindow& window) {
    QStringList texts;
    for (int tab = 0; tab < window.tabs()->count(); ++tab) {
        window.tabs()->setCurrentIndex(tab);
        QCoreApplication::processEvents();
        for (const QLabel* label : window.findChildren<QLabel*>()) {
            QTextDocument doc;
            doc.setHtml(label->text());
            texts << (Qt::mightBeRichText(label->text()) ? doc.toPlainText() : label->text());
        }
        for (const QAbstractButton* button : window.findChildren<QAbstractButton*>()) {
            texts << button->text();
        }
        for (const QAbstractItemView* view : window.findChildren<QAbstractItemView*>()) {
            const QAbstractItemModel* model = view->model();
            if (model == nullptr) {
                continue;
            }
            for (int c = 0; c < model->columnCount(); ++c) {
                texts << model->headerData(c, Qt::Horizontal).toString();
            }
            for (int r = 0; r < model->rowCount(); ++r) {
                for (int c = 0; c < model->columnCount(); ++c) {
                    texts << model->index(r, c).data().toString();
                }
            }
        }
        for (const QChart* chart : window.findChildren<QChart*>()) {
            for (const QAbstractAxis* axis : chart->axes()) {
                texts << axis->titleText();
            }
        }
    }
    return texts;
}

} // namespace

TEST(Explorer, UserTextShowsNoInternalCodeAndNoNumberInScientificNotation) {
    Fixture f;
    f.window.resize(1360, 820);
    f.window.show();
    // The codes of the scenario file and the estimate's JSON that are not words (forward_end, attention-core, ...).
    QStringList codes{QStringLiteral("'generic'"), QStringLiteral("hf-trainer"), QStringLiteral("per-parameter")};
    for (core::PeakMoment m : {core::PeakMoment::ForwardEnd, core::PeakMoment::LastLayerRecompute,
                               core::PeakMoment::BackwardEnd, core::PeakMoment::OptimizerStep}) {
        codes << QString::fromLatin1(core::toString(m));
    }
    for (core::SelectivePolicy p : {core::SelectivePolicy::AttentionCore, core::SelectivePolicy::OpLevel}) {
        codes << QString::fromLatin1(core::toString(p));
    }
    for (core::Precision p :
         {core::Precision::AmpBf16, core::Precision::Bf16Fp32Master, core::Precision::FsdpMixedBf16}) {
        codes << QString::fromLatin1(core::toString(p));
    }
    const QRegularExpression scientific(QStringLiteral("\\d[.,]?\\d*[eE][+-]\\d"));
    // The default run, and a 405 B full fine-tune at 131,072 tokens whose bars run into thousands of GiB.
    for (int run = 0; run < 2; ++run) {
        if (run == 1) {
            f.controller.update([&f](core::Scenario& s) {
                s.modelId = "llama-3.1-405b";
                s.model = f.controller.catalog().findModel("llama-3.1-405b")->arch;
                s.method = core::Method::Full;
                s.seqLen = 131072;
                s.precision = core::Precision::Bf16Fp32Master;
                s.checkpointing = core::Checkpointing::Selective;
            });
        }
        for (const QString& t : shownTexts(f.window)) {
            for (const QString& code : codes) {
                EXPECT_FALSE(t.contains(code)) << code.toStdString() << " in: " << t.toStdString();
            }
            EXPECT_FALSE(scientific.match(t).hasMatch()) << t.toStdString();
        }
        // The bar labels: Qt Charts writes each value with the series' precision in %g.
        QAbstractBarSeries* bars = nullptr;
        for (QAbstractSeries* series : f.window.breakdownView()->chart()->chart()->series()) {
            bars = bars != nullptr ? bars : qobject_cast<QAbstractBarSeries*>(series);
        }
        ASSERT_NE(bars, nullptr);
        double largest = 0;
        for (const QBarSet* set : bars->barSets()) {
            for (int i = 0; i < set->count(); ++i) {
                largest = std::max(largest, set->at(i));
                const QString label = QString::number(set->at(i), 'g', bars->labelsPrecision());
                EXPECT_FALSE(label.contains(QLatin1Char('e'))) << label.toStdString();
            }
        }
        EXPECT_GT(largest, run == 1 ? 1000.0 : 1.0);
    }
}

TEST(Explorer, EveryTextColourOfTheLightAndDarkPalettesReadsAtWcagAA) {
    // Hand check of the formula: black on white is (1 + 0.05) / (0 + 0.05) = 21:1; #777 on #eee (the old muted
    // rows): 119/255 -> ((0.4667 + 0.055) / 1.055)^2.4 = 0.1845, 238/255 -> 0.8550, (0.9050) / (0.2345) = 3.86:1.
    EXPECT_NEAR(ui::contrastRatio(Qt::black, Qt::white), 21.0, 1e-9);
    EXPECT_NEAR(ui::contrastRatio(QColor(0x77, 0x77, 0x77), QColor(0xee, 0xee, 0xee)), 3.86, 0.005);
    for (const auto& [name, palette] : {std::pair{"light", ui::lightPalette()}, std::pair{"dark", ui::darkPalette()}}) {
        const auto check = [&, name = name](QPalette::ColorRole text, QPalette::ColorRole background) {
            EXPECT_GE(ui::contrastRatio(palette.color(text), palette.color(background)), 4.5)
                << name << ": role " << text << " on " << background;
        };
        check(QPalette::WindowText, QPalette::Window);
        check(QPalette::Text, QPalette::Base);
        check(QPalette::Text, QPalette::AlternateBase);
        check(QPalette::ButtonText, QPalette::Button);
        check(QPalette::HighlightedText, QPalette::Highlight);
        check(QPalette::ToolTipText, QPalette::ToolTipBase);
        check(QPalette::PlaceholderText, QPalette::Base);
        // Rows that do not apply (the Advisor's ladder): greyed, yet readable on both row colours.
        const QColor muted = ui::mutedTextColor(palette);
        EXPECT_GE(ui::contrastRatio(muted, palette.color(QPalette::Base)), 4.5) << name;
        EXPECT_GE(ui::contrastRatio(muted, palette.color(QPalette::AlternateBase)), 4.5) << name;
        EXPECT_LT(ui::contrastRatio(muted, palette.color(QPalette::Base)),
                  ui::contrastRatio(palette.color(QPalette::Text), palette.color(QPalette::Base)))
            << name << ": muted must still look muted";
        // Tinted cells and the verdict banner: black text on the tone's pastel, whatever the palette.
        for (present::Tone tone : {present::Tone::Good, present::Tone::Warn, present::Tone::Bad}) {
            EXPECT_GE(ui::contrastRatio(Qt::black, ui::toneColor(tone)), 4.5) << name;
        }
        // A chart on screen follows the palette: its labels on its background.
        QChart chart;
        chart.addAxis(new QValueAxis(), Qt::AlignLeft);
        ui::followPalette(&chart, palette);
        // The light theme paints a gradient: every stop of it must carry the labels.
        const QBrush brush = chart.backgroundBrush();
        QList<QColor> backgrounds{brush.color()};
        if (brush.gradient() != nullptr) {
            backgrounds.clear();
            for (const auto& stop : brush.gradient()->stops()) {
                backgrounds << stop.second;
            }
        }
        for (const QColor& background : backgrounds) {
            EXPECT_GE(ui::contrastRatio(chart.axes().front()->labelsColor(), background), 4.5) << name;
            EXPECT_GE(ui::contrastRatio(chart.legend()->labelColor(), background), 4.5) << name;
        }
    }
}

TEST(Explorer, TheAdvisorsRowsThatDoNotApplyAreGreyedOnTheViewsOwnBackground) {
    ui::TableModel model;
    present::Table table;
    table.columns = {{present::msg("Fix"), present::Align::Left}};
    present::Cell cell;
    cell.kind = present::CellKind::Text;
    cell.text = present::msg("does not apply");
    cell.tone = present::Tone::Muted;
    table.rows = {{cell}};
    table.keys = {"x"};
    model.setTable(table);
    const QModelIndex index = model.index(0, 0);
    EXPECT_FALSE(index.data(Qt::BackgroundRole).isValid()); // no bright grey band in a dark view
    // Its text reads on the view's background (AA), yet stands back from the rows that apply.
    for (const QPalette& palette : {ui::lightPalette(), ui::darkPalette()}) {
        QGuiApplication::setPalette(palette);
        const QColor text = model.index(0, 0).data(Qt::ForegroundRole).value<QColor>();
        const QColor base = palette.color(QPalette::Base);
        EXPECT_GE(ui::contrastRatio(text, base), 4.5);
        EXPECT_LT(ui::contrastRatio(text, base), ui::contrastRatio(palette.color(QPalette::Text), base) * 0.8);
    }
    QGuiApplication::setPalette(QPalette());
}
