// One question, one answer: "does this scenario fit this card at this count, and with which layout?" asked of the
// GPU fit tab, the status bar, the Plan tab, the advisor, the sizing table, the PDF report and the CLI.
#include "MainWindow.h"
#include "Present.h"
#include "ScenarioController.h"
#include "explorer/AdvisorView.h"
#include "explorer/FitTableModel.h"
#include "explorer/FitView.h"
#include "explorer/PlanView.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/plan/Advisor.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/present/PlanText.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtWidgets/QComboBox>
#include <gtest/gtest.h>

using namespace gpusizer;

namespace {

/// Llama-3.1-8B full fine-tune (bf16 with fp32 master weights, AdamW) on 4 GPUs with ZeRO-3, 1 x 2,048 tokens.
core::Scenario fourCardZero3(const core::Catalog& catalog, const char* gpuId) {
    core::Scenario s = core::defaultScenario(catalog);
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16Fp32Master;
    s.optimizer = core::Optimizer::AdamW;
    s.microBatch = 1;
    s.seqLen = 2048;
    s.checkpointing = core::Checkpointing::Full;
    s.gpus = 4;
    s.sharding = core::Sharding::Zero3;
    s.gpuId = gpuId;
    return s;
}

/// pdftotext's words with every run of white space made one space (table cells and wrapped lines).
QString pdfWords(const QString& path) {
    QProcess process;
    process.start(QStringLiteral("pdftotext"), {path, QStringLiteral("-")});
    process.waitForFinished(30000);
    return QString::fromUtf8(process.readAllStandardOutput())
        .normalized(QString::NormalizationForm_KC)
        .replace(QRegularExpression(QStringLiteral("\\s+")), QStringLiteral(" "));
}

QJsonObject cliFitFor(const QString& scenarioPath, const std::string& gpuId) {
    QProcess cli;
    cli.start(QStringLiteral(GPUSIZER_CLI), {QStringLiteral("fit"), scenarioPath, QStringLiteral("--json")});
    cli.waitForFinished(60000);
    const auto doc = QJsonDocument::fromJson(cli.readAllStandardOutput());
    for (const auto& r : doc.object().value(QStringLiteral("results")).toArray()) {
        if (r.toObject().value(QStringLiteral("gpu")).toString().toStdString() == gpuId) {
            return r.toObject();
        }
    }
    return {};
}

int fitRowOf(const ui::FitTableModel& model, const std::string& gpuId) {
    for (int r = 0; r < model.rowCount(); ++r) {
        if (model.row(r).gpu->id == gpuId) {
            return r;
        }
    }
    return -1;
}

} // namespace

class EveryView : public ::testing::TestWithParam<const char*> {};

TEST_P(EveryView, GivesThePlannersVerdictForTheSameScenarioCardAndCount) {
    ui::ScenarioController controller(catalogs::loadCatalogs().catalog);
    ui::MainWindow window(controller);
    const core::Scenario s = fourCardZero3(controller.catalog(), GetParam());
    controller.setScenario(s);
    const core::GpuSpec& gpu = *controller.catalog().findGpu(GetParam());
    const core::PlanInputs in = controller.planInputs();

    // The core's answer, and the hand check of it. ZeRO-3 over 4 cards keeps 16 B x 8.03e9 / 4 = 32.1 GB = 29.9 GiB of
    // model states per GPU before activations: within an H100's 79.1 GiB with any margin under 100%, beyond an RTX
    // 4090's 23.6 GiB whatever the activations.
    const core::Candidate expected = core::fitAsIs(s, gpu, in);
    const bool h100 = gpu.id == "h100-sxm";
    EXPECT_EQ(expected.fits(), h100);
    EXPECT_EQ(expected.verdict, h100 ? core::FitVerdict::Fits : core::FitVerdict::DoesNotFit);
    EXPECT_GT(expected.deviceBytes, static_cast<std::int64_t>(16.0 * 8.03e9 / 4.0));
    const QString sentence = ui::text(present::fitSentence(expected, gpu));
    const QString word = ui::text(present::verdictWord(expected.verdict));
    const core::CardPlan plan = core::planOnCard(s, gpu, in);

    // GPU fit tab: the "Your layout" column and the "Best layout" column.
    window.fitView()->refreshNow();
    const auto* fit = window.fitView()->model();
    const int row = fitRowOf(*fit, gpu.id);
    ASSERT_GE(row, 0);
    EXPECT_EQ(fit->row(row).asIs.verdict, expected.verdict);
    EXPECT_EQ(fit->data(fit->index(row, ui::FitTableModel::YourLayout), Qt::DisplayRole).toString(),
              QStringLiteral("%1 on 4").arg(word));
    ASSERT_EQ(fit->row(row).best.found, plan.found);
    EXPECT_EQ(fit->data(fit->index(row, ui::FitTableModel::BestLayout), Qt::DisplayRole).toString(),
              ui::text(present::cardsAndParallelism(plan.best.scenario)));
    EXPECT_TRUE(fit->data(fit->index(row, ui::FitTableModel::BestLayout), Qt::ToolTipRole)
                    .toString()
                    .startsWith(ui::text(present::layoutParts(plan.best.scenario))));

    // Status bar.
    EXPECT_TRUE(window.statusText().contains(sentence)) << window.statusText().toStdString();

    // Plan tab: the same chosen count and layout for this card.
    window.planView()->refreshNow();
    bool planRowSeen = false;
    for (const auto& r : window.planView()->table()->results()) {
        if (r.gpu->id == gpu.id) {
            planRowSeen = true;
            ASSERT_EQ(r.found, plan.found);
            EXPECT_EQ(r.best.scenario.gpus, plan.best.scenario.gpus);
            EXPECT_EQ(ui::text(present::layoutParts(r.best.scenario)),
                      ui::text(present::layoutParts(plan.best.scenario)));
        }
    }
    EXPECT_TRUE(planRowSeen);
    // The planner never says no at a count where the user's own layout runs.
    if (expected.fits()) {
        EXPECT_TRUE(core::fitAtCount(s, gpu, s.gpus, in).fits());
    }

    // Advisor: "already fits" exactly when the verdict is fits, in the same sentence.
    auto* advisor = window.advisorView();
    advisor->gpuPicker()->setCurrentIndex(advisor->gpuPicker()->findData(QString::fromStdString(gpu.id)));
    advisor->refreshNow();
    const core::OomAdvice advice = core::adviseOom(s, gpu, in);
    EXPECT_EQ(advice.fitsAlready, expected.fits());
    EXPECT_EQ(advice.asIs.verdict, expected.verdict);
    if (expected.fits()) {
        EXPECT_TRUE(advisor->combinationText().contains(sentence)) << advisor->combinationText().toStdString();
    } else {
        EXPECT_EQ(advisor->ladder()->rowCount(), static_cast<int>(advice.steps.size()));
    }

    // Sizing table, the scenario's own model in full fine-tuning: the card and count it names fit at that count
    // (without offload, as the table sizes GPU memory) and the next smaller count of that card does not.
    const auto& sizing = advisor->sizing()->rows();
    ASSERT_FALSE(sizing.empty());
    const core::SizingCell& cell = sizing.back().full;
    ASSERT_NE(cell.gpu, nullptr);
    core::Scenario sized = s;
    sized.sharding = core::Sharding::None;
    core::PlanInputs inMemory = in;
    inMemory.allowOffload = false;
    EXPECT_TRUE(core::fitAtCount(sized, *cell.gpu, cell.cards, inMemory).fits());
    std::int64_t smaller = 0;
    for (std::int64_t n : core::cardCounts(*cell.gpu, in.maxGpus)) {
        smaller = n < cell.cards ? n : smaller;
    }
    if (smaller > 0) {
        EXPECT_FALSE(core::fitAtCount(sized, *cell.gpu, smaller, inMemory).fits());
    }

    // The PDF report: the summary states the same sentence, the fit table the same word at the same count.
    QTemporaryDir dir;
    const QString pdf = dir.filePath(QStringLiteral("report.pdf"));
    ASSERT_TRUE(window.exportReport(pdf, QStringLiteral("A4")));
    const QString words = pdfWords(pdf);
    EXPECT_TRUE(words.contains(sentence)) << sentence.toStdString();
    // The scenario's GPU is marked ▶ in the report's fit table, as in the window's.
    EXPECT_TRUE(words.contains(QStringLiteral("▶ %1 %2 on 4").arg(QString::fromStdString(gpu.name), word)));

    // The CLI: the same verdict for the scenario's layout, the same count and layout to rent.
    const QString scenarioPath = dir.filePath(QStringLiteral("scenario.json"));
    QFile file(scenarioPath);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(core::scenarioToJson(s)));
    file.close();
    const QJsonObject cli = cliFitFor(scenarioPath, gpu.id);
    ASSERT_FALSE(cli.isEmpty());
    const QJsonObject yours = cli.value(QStringLiteral("your_layout")).toObject();
    EXPECT_EQ(yours.value(QStringLiteral("verdict")).toString(), word);
    EXPECT_EQ(yours.value(QStringLiteral("fits")).toBool(), expected.fits());
    EXPECT_EQ(cli.value(QStringLiteral("fits")).toBool(), plan.found);
    if (plan.found) {
        const QJsonObject chosen = cli.value(QStringLiteral("chosen")).toObject();
        EXPECT_EQ(chosen.value(QStringLiteral("gpus")).toInt(), plan.best.scenario.gpus);
        EXPECT_EQ(chosen.value(QStringLiteral("layout")).toString(),
                  ui::text(present::layoutParts(plan.best.scenario)));
    }
}

INSTANTIATE_TEST_SUITE_P(FitsAndDoesNot, EveryView, ::testing::Values("h100-sxm", "rtx-4090"), [](const auto& p) {
    return std::string(p.param == std::string("h100-sxm") ? "H100" : "Rtx4090");
});

// The card in mind sizes NCCL's buffers for its node in the window as in the planner: the Breakdown tab's device figure
// is the planner's for that card. 8 x H100 SXM under DeepSpeed ZeRO-3: two communicators of 24 channels x 2 pairs x
// 12 MiB + 24 x 6 MiB x 8 NVLink SHARP heads = 2 x 1,728 MiB; with no card, 2 x 576 MiB (NVLink, no SHARP).
TEST(EveryViewNccl, TheChosenCardSizesNcclInTheWindowAsInThePlanner) {
    ui::ScenarioController controller(catalogs::loadCatalogs().catalog);
    core::Scenario s = fourCardZero3(controller.catalog(), "");
    s.gpus = 8;
    s.shardingEngine = core::ShardingEngine::Deepspeed;
    controller.setScenario(s);
    EXPECT_EQ(controller.estimate().ncclBufferBytes, 2 * 576LL << 20);
    controller.setGpuId("h100-sxm");
    EXPECT_EQ(controller.estimate().ncclBufferBytes, 2 * 1728LL << 20);
    const core::Candidate planner =
        core::fitAsIs(controller.scenario(), *controller.catalog().findGpu("h100-sxm"), controller.planInputs());
    EXPECT_EQ(controller.estimate().deviceBytes, planner.deviceBytes);
}
