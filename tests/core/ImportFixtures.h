#pragma once
// Training-config files of tests/data/training-configs read as the CLI reads them, for the importer's tests and the
// tests that estimate an imported run.

#include "TestModels.h"
#include "gpusizer/import/TrainingConfig.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

namespace gpusizer::fixtures {

inline const std::string kDir = std::string(GPUSIZER_TEST_DATA_DIR) + "/training-configs/";

inline std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline core::ImportRequest request(std::initializer_list<const char*> files) {
    core::ImportRequest r;
    for (const char* f : files) {
        r.files.push_back({kDir + f, slurp(kDir + f), std::nullopt});
    }
    r.readReferenced = [](const std::string& path) -> std::optional<core::Result<std::string>> {
        if (!std::ifstream(path)) {
            return std::nullopt; // not there: the next place is tried
        }
        return core::Result<std::string>(slurp(path));
    };
    return r;
}

inline core::ImportedRun imported(std::initializer_list<const char*> files) {
    auto run = core::importTrainingConfigs(request(files), catalog());
    EXPECT_TRUE(run.has_value()) << (run ? "" : run.error().where + ": " + run.error().message());
    return run ? *run : core::ImportedRun{};
}

} // namespace gpusizer::fixtures
