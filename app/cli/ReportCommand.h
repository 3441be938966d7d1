#pragma once

#include <iosfwd>
#include <string>

namespace gpusizer::cli {

/// gpusizer-cli report SCENARIO.json -o FILE.pdf [--page-size A4|Letter]: the sizing report as PDF, headless.
int reportCommand(const std::string& scenarioPath, const std::string& outputPath, const std::string& pageSize,
                  std::ostream& out, std::ostream& err);

} // namespace gpusizer::cli
