// Writes docs/accuracy.md: build/tests/core/gpusizer_accuracy_report > docs/accuracy.md
// With --band-table it prints the band table for core/memory/src/Band.cpp instead; with --rows, the target rows as
// tab-separated values (id, publication, band class, errors named and generic, measured and estimated GiB, framework).
#include "CalibrationHarness.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"

#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

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
    if (argc > 1 && std::strcmp(argv[1], "--rows") == 0) {
        for (const auto* r : report->targetRows()) {
            std::cout << r->id << "\t" << r->sourceKey << "\t" << r->bandClass.frameworkNamed << "\t"
                      << static_cast<int>(r->bandClass.method) << "\t" << r->bandClass.multiGpu << "\t" << r->errorShare
                      << "\t" << r->genericErrorShare << "\t" << r->measuredGiB << "\t" << r->estimatedGiB << "\t"
                      << r->framework << "\n";
        }
        return 0;
    }
    std::ifstream in(std::string(GPUSIZER_TEST_DATA_DIR) + "/calibration/measured-h200.json", std::ios::binary);
    const std::string h200Json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto h200 = gpusizer::calibration::runH200(h200Json, gpusizer::catalogs::loadCatalogs().catalog);
    if (!h200) {
        std::cerr << "gpusizer_accuracy_report: " << h200.error().where << ": " << h200.error().message() << "\n";
        return 2;
    }
    std::cout << gpusizer::calibration::markdown(*report, *h200);
    return 0;
}
