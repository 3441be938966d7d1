// Writes docs/accuracy.md: build/tests/core/gpusizer_accuracy_report > docs/accuracy.md
#include "CalibrationHarness.h"

#include <iostream>

int main(int argc, char** argv) {
    const std::string dataDir = argc > 1 ? argv[1] : GPUSIZER_TEST_DATA_DIR;
    try {
        std::cout << gpusizer::calibration::markdown(
            gpusizer::calibration::run(gpusizer::calibration::readCalibrationFile(dataDir)));
    } catch (const std::exception& ex) {
        std::cerr << "gpusizer_accuracy_report: " << ex.what() << "\n";
        return 2;
    }
    return 0;
}
