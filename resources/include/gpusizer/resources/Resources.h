#pragma once

namespace gpusizer::resources {

/// Registers the compiled-in resources (needed when they live in a static library).
void initialize();

/// Resource path of the application icon.
inline constexpr const char* kAppIcon = ":/icons/io.github.gpusizer.GpuSizer.svg";

} // namespace gpusizer::resources
