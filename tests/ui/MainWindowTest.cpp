#include "MainWindow.h"

#include "ScenarioController.h"
#include "charts/BreakdownChartView.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/core/Units.h"

#include <QtWidgets/QSlider>
#include <cmath>
#include <gtest/gtest.h>

using namespace gpusizer;

TEST(MainWindow, SequenceSliderDrivesTheEstimateAndTheChart) {
    ui::ScenarioController controller(catalogs::loadCatalogs().catalog);
    ui::MainWindow window(controller);
    window.seqLenSlider()->setValue(13); // 2^13 = 8192 tokens
    EXPECT_EQ(controller.scenario().seqLen, 8192);
    const auto expected = core::estimate(controller.scenario());
    for (core::Component c : core::kAllComponents) {
        // The chart shows GiB rounded to 0.1.
        EXPECT_NEAR(window.breakdownChart()->valueGiB(0, c), core::toGiB(static_cast<double>(expected.perGpu[c])),
                    0.051)
            << core::componentKey(c);
    }
    EXPECT_GE(window.breakdownChart()->axisMaxGiB(), core::toGiB(static_cast<double>(expected.bandHighBytes)));
    EXPECT_TRUE(window.statusText().contains(QStringLiteral("Per GPU")));
    EXPECT_TRUE(window.statusText().contains(QStringLiteral("GiB")));
}

TEST(MainWindow, LongerSequencesNeedMoreActivationMemory) {
    ui::ScenarioController controller(catalogs::loadCatalogs().catalog);
    ui::MainWindow window(controller);
    window.seqLenSlider()->setValue(9);
    const double shortSeq = window.breakdownChart()->valueGiB(0, core::Component::Activations);
    window.seqLenSlider()->setValue(14);
    const double longSeq = window.breakdownChart()->valueGiB(0, core::Component::Activations);
    EXPECT_GT(longSeq, shortSeq);
}
