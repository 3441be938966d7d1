// libFuzzer target: a Hugging Face config.json, optionally followed by a model.safetensors.index.json after a line
// "--index--"; every shape it accepts sizes as a full fine-tune at a short sequence.
#include "FuzzSupport.h"
#include "gpusizer/scenario/HfConfig.h"

#include <optional>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gpusizer;
    const std::string_view input = fuzz::bytesOf(data, size);
    constexpr std::string_view kSeparator = "\n--index--\n";
    std::string_view config = input;
    std::optional<std::string_view> index;
    if (const auto at = input.find(kSeparator); at != std::string_view::npos) {
        config = input.substr(0, at);
        index = input.substr(at + kSeparator.size());
    }
    const auto imported = core::importHfConfig(config, "config.json", index);
    if (imported) {
        fuzz::require(!index || imported->weightBytes > 0, "an accepted index gives the weights' size");
        core::Scenario s = core::defaultScenario(fuzz::catalog());
        s.modelId.clear();
        s.model = imported->arch;
        s.method = core::Method::Full;
        s.seqLen = 128;
        s.microBatch = 1;
        if (core::validate(s)) {
            fuzz::checkAccepted(s);
        }
    }
    return 0;
}
