// GoogleTest main for widget tests: a QApplication on the offscreen platform unless one is set.
#include "DialogService.h"

#include <QtWidgets/QApplication>
#include <gtest/gtest.h>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("gpusizer-tests"));
    QApplication::setApplicationName(QStringLiteral("GPU Sizer tests"));
    gpusizer::ui::DialogService::setNonInteractive(true); // a forgotten dialog must fail a test, not hang it
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
