// libFuzzer target: a training config (YAML or JSON, any of the import formats), optionally followed after a line
// "--file--" by the bytes of any file it names (a DeepSpeed JSON); every run it accepts sizes and saves.
#include "FuzzSupport.h"
#include "gpusizer/core/TrainingConfig.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gpusizer;
    const std::string_view input = fuzz::bytesOf(data, size);
    constexpr std::string_view kSeparator = "\n--file--\n";
    std::string_view config = input;
    std::string referenced = "{}";
    if (const auto at = input.find(kSeparator); at != std::string_view::npos) {
        config = input.substr(0, at);
        referenced = std::string(input.substr(at + kSeparator.size()));
    }
    core::ImportRequest request;
    request.files.push_back({"train.yaml", std::string(config), std::nullopt});
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
