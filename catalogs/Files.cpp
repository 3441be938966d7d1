#include "gpusizer/catalogs/Files.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <system_error>

namespace gpusizer::catalogs {

namespace fs = std::filesystem;

namespace {

using core::words;

core::Error fileError(core::ErrorCode code, core::Words reason, const fs::path& path) {
    return core::Error{code, std::move(reason), path.string()};
}

std::string bytesText(std::int64_t n) {
    return std::to_string(n / (1024 * 1024)) + " MiB";
}

} // namespace

core::Result<std::string> readDocument(const fs::path& path, std::int64_t maxBytes) {
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
        return tl::unexpected(fileError(
            core::ErrorCode::Unreadable,
            words(QT_TRANSLATE_NOOP("gpusizer", "cannot open the file: %1"),
                  ec ? core::verbatim(ec.message()) : core::Words(QT_TRANSLATE_NOOP("gpusizer", "no such file"))),
            path));
    }
    if (fs::is_directory(status)) {
        return tl::unexpected(
            fileError(core::ErrorCode::Unreadable, QT_TRANSLATE_NOOP("gpusizer", "is a folder, not a file"), path));
    }
    if (!fs::is_regular_file(status)) {
        // A FIFO or a device would block or never end.
        return tl::unexpected(
            fileError(core::ErrorCode::Unreadable, QT_TRANSLATE_NOOP("gpusizer", "is not a regular file"), path));
    }
    const auto size = fs::file_size(path, ec);
    if (!ec && static_cast<std::int64_t>(size) > maxBytes) {
        return tl::unexpected(fileError(
            core::ErrorCode::TooLarge,
            words(QT_TRANSLATE_NOOP("gpusizer", "is larger than the %1 a document may have"), bytesText(maxBytes)),
            path));
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return tl::unexpected(
            fileError(core::ErrorCode::Unreadable,
                      words(QT_TRANSLATE_NOOP("gpusizer", "cannot open the file: %1"), std::strerror(errno)), path));
    }
    std::string bytes(static_cast<std::size_t>(maxBytes) + 1, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (in.bad()) {
        return tl::unexpected(
            fileError(core::ErrorCode::Unreadable, QT_TRANSLATE_NOOP("gpusizer", "cannot read the file"), path));
    }
    bytes.resize(static_cast<std::size_t>(in.gcount()));
    if (static_cast<std::int64_t>(bytes.size()) > maxBytes) {
        return tl::unexpected(fileError(
            core::ErrorCode::TooLarge,
            words(QT_TRANSLATE_NOOP("gpusizer", "is larger than the %1 a document may have"), bytesText(maxBytes)),
            path));
    }
    return bytes;
}

core::Result<fs::path> outputTarget(const fs::path& path) {
    // Follow a chain of links to the file they name (a dangling link included), so that the link stays a link and
    // the file it names is written; a FIFO, a device (/dev/full) or a folder at the end is refused, never replaced.
    fs::path target = path;
    std::error_code ec;
    for (int hops = 0; fs::is_symlink(fs::symlink_status(target, ec)); ++hops) {
        if (hops == 40) {
            return tl::unexpected(fileError(core::ErrorCode::Unwritable,
                                            QT_TRANSLATE_NOOP("gpusizer", "too many levels of symbolic links"), path));
        }
        const fs::path next = fs::read_symlink(target, ec);
        if (ec) {
            return tl::unexpected(
                fileError(core::ErrorCode::Unwritable,
                          words(QT_TRANSLATE_NOOP("gpusizer", "cannot follow the link: %1"), ec.message()), path));
        }
        target = next.is_absolute() ? next : target.parent_path() / next;
    }
    const fs::file_status status = fs::status(target, ec);
    if (fs::exists(status) && !fs::is_regular_file(status)) {
        return tl::unexpected(
            fileError(core::ErrorCode::Unwritable,
                      fs::is_directory(status)
                          ? core::Words(QT_TRANSLATE_NOOP("gpusizer", "is a folder: give a file name"))
                          : core::Words(QT_TRANSLATE_NOOP(
                                "gpusizer", "exists and is not a regular file (a device or a pipe); choose a file")),
                      path));
    }
    return target;
}

core::Result<void> writeDocument(const fs::path& path, const std::string& bytes) {
    auto resolved = outputTarget(path);
    if (!resolved) {
        return tl::unexpected(resolved.error());
    }
    const fs::path target = *resolved;
    std::error_code ec;
    const fs::path temporary = target.string() + ".part";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) {
            return tl::unexpected(fileError(
                core::ErrorCode::Unwritable,
                words(QT_TRANSLATE_NOOP("gpusizer", "cannot create the file: %1"), std::strerror(errno)), path));
        }
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.flush();
        if (!out) {
            const std::string reason = std::strerror(errno);
            out.close();
            fs::remove(temporary, ec);
            return tl::unexpected(fileError(core::ErrorCode::Unwritable,
                                            words(QT_TRANSLATE_NOOP("gpusizer", "cannot write the file: %1"), reason),
                                            path));
        }
    }
    fs::rename(temporary, target, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(temporary, ignored);
        return tl::unexpected(
            fileError(core::ErrorCode::Unwritable,
                      words(QT_TRANSLATE_NOOP("gpusizer", "cannot replace the file: %1"), ec.message()), path));
    }
    return {};
}

fs::path userCatalogDir() {
    if (const char* dir = std::getenv("GPUSIZER_CATALOG_DIR"); dir != nullptr && *dir != '\0') {
        return dir;
    }
    fs::path base;
#if defined(_WIN32)
    if (const char* appData = std::getenv("APPDATA"); appData != nullptr && *appData != '\0') {
        base = appData;
    }
#elif defined(__APPLE__)
    if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
        base = fs::path(home) / "Library" / "Application Support";
    }
#else
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg != nullptr && *xdg != '\0') {
        base = xdg;
    } else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
        base = fs::path(home) / ".local" / "share";
    }
#endif
    if (base.empty()) {
        return {};
    }
    return base / "gpusizer" / "GPU Sizer" / "catalogs";
}

core::Result<core::ImportRequest> trainingConfigRequest(const std::vector<std::string>& paths,
                                                        const std::string& modelConfig) {
    core::ImportRequest request;
    for (const std::string& path : paths) {
        auto bytes = readDocument(path);
        if (!bytes) {
            return tl::unexpected(bytes.error());
        }
        request.files.push_back({path, std::move(*bytes), std::nullopt});
    }
    if (!modelConfig.empty()) {
        auto bytes = readDocument(modelConfig);
        if (!bytes) {
            return tl::unexpected(bytes.error());
        }
        request.modelConfig = core::ConfigFile{modelConfig, std::move(*bytes), core::ConfigFormat::ModelConfig};
    }
    request.readReferenced = [](const std::string& path) -> std::optional<core::Result<std::string>> {
        std::error_code ec;
        if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec)) || ec) {
            return std::nullopt;
        }
        return readDocument(path);
    };
    return request;
}

} // namespace gpusizer::catalogs
