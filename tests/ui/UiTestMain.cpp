// GoogleTest main for widget tests: a QApplication on the offscreen platform unless one is set.
#include "DialogService.h"

#include <QtCore/QTemporaryDir>
#include <QtWidgets/QApplication>
#include <gtest/gtest.h>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    // Settings and user folders of this process alone: ctest runs test processes in parallel, and one test's stored
    // calibration or recent files must not reach another's window.
    const QTemporaryDir home;
    qputenv("XDG_CONFIG_HOME", home.filePath(QStringLiteral("config")).toLocal8Bit());
    qputenv("XDG_DATA_HOME", home.filePath(QStringLiteral("data")).toLocal8Bit());
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("gpusizer-tests"));
    QApplication::setApplicationName(QStringLiteral("GPU Sizer tests"));
    gpusizer::ui::DialogService::setNonInteractive(true); // a forgotten dialog must fail a test, not hang it
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
