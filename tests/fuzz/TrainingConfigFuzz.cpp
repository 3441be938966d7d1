// libFuzzer target: the training configs of one run. The input is split at lines "--file--" into up to four files
// (the first named with the bytes of a path of its own, so odd file names are reached too); a part that starts with
// "--overrides--" gives tune run-style overrides, one a line. Any file a config names reads as the last part. Every
// run it accepts sizes and saves.
#include "FuzzSupport.h"
#include "gpusizer/import/TrainingConfig.h"

#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gpusizer;
    const std::string_view input = fuzz::bytesOf(data, size);
    constexpr std::string_view kSeparator = "\n--file--\n";
    constexpr std::string_view kOverrides = "--overrides--\n";
    std::vector<std::string_view> parts;
    for (std::size_t start = 0; parts.size() < 4;) {
        const auto at = input.find(kSeparator, start);
        parts.push_back(input.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
        if (at == std::string_view::npos) {
            break;
        }
        start = at + kSeparator.size();
    }
    core::ImportRequest request;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (parts[i].substr(0, kOverrides.size()) == kOverrides) {
            std::string_view rest = parts[i].substr(kOverrides.size());
            while (!rest.empty()) {
                const auto nl = rest.find('\n');
                request.overrides.emplace_back(rest.substr(0, nl));
                rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
            }
            continue;
        }
        // The first file's name: its first line when the file starts with "#name ", else train.yaml.
        std::string name = "train" + std::to_string(i) + ".yaml";
        std::string_view bytes = parts[i];
        if (bytes.substr(0, 6) == "#name ") {
            const auto nl = bytes.find('\n');
            name = std::string(bytes.substr(6, nl == std::string_view::npos ? std::string_view::npos : nl - 6));
        }
        request.files.push_back({name, std::string(bytes), std::nullopt});
    }
    const std::string referenced(parts.back());
    request.readReferenced = [&](const std::string&) -> std::optional<core::Result<std::string>> {
        return core::Result<std::string>(referenced);
    };
    const auto run = core::importTrainingConfigs(request, fuzz::catalog());
    if (run) {
        fuzz::require(!run->lines.empty(), "an accepted import reports what it read");
        fuzz::checkAccepted(run->scenario);
    }
    return 0;
}
