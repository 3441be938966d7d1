// Writes docs/accuracy.md: build/tests/core/gpusizer_accuracy_report > docs/accuracy.md
#include "CalibrationHarness.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"

#include <iostream>

int main() {
    auto report = gpusizer::core::runCalibration(gpusizer::catalogs::shippedCalibrationJson());
    if (!report) {
        std::cerr << "gpusizer_accuracy_report: " << report.error().where << ": " << report.error().message << "\n";
        return 2;
    }
    std::cout << gpusizer::calibration::markdown(*report);
    return 0;
}
