#pragma once

#include <string_view>

namespace gpusizer::core {

/// The product version, "MAJOR.MINOR.PATCH", as set in the top-level CMakeLists.txt.
std::string_view versionString();

} // namespace gpusizer::core
