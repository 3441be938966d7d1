// GPU Sizer desktop application: parse the command line, build the window, run.
#include "Startup.h"

#include <QtWidgets/QApplication>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const auto options = gpusizer::ui::parseStartupOptions(app);
    return gpusizer::ui::runGui(app, options);
}
