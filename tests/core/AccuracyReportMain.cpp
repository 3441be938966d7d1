// Writes docs/accuracy.md: build/tests/core/gpusizer_accuracy_report > docs/accuracy.md
// With --band-table it prints the band table for core/src/Band.cpp instead.
#include "CalibrationHarness.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"

#include <cstring>
#include <iostream>

int main(int argc, char** argv) {
    auto report = gpusizer::core::runCalibration(gpusizer::catalogs::shippedCalibrationJson(),
                                                 gpusizer::catalogs::loadCatalogs().catalog);
    if (!report) {
        std::cerr << "gpusizer_accuracy_report: " << report.error().where << ": " << report.error().message() << "\n";
        return 2;
    }
    if (argc > 1 && std::strcmp(argv[1], "--band-table") == 0) {
        std::cout << gpusizer::calibration::bandTableSource(*report);
        return 0;
    }
    std::cout << gpusizer::calibration::markdown(*report);
    return 0;
}
