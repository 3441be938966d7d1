#include "Commands.h"
#include "gpusizer/present/Format.h"
#include "gpusizer/present/Json.h"
#include "gpusizer/scenario/HfConfig.h"
#include "gpusizer/scenario/ModelArch.h"

namespace gpusizer::cli {

int importHfCommand(const Args& a, std::ostream& out, std::ostream& err) {
    if (a.positional.size() != 1) {
        err << "gpusizer-cli: import-hf needs exactly one config.json\n" << usageText();
        return kUsage;
    }
    const auto config = readInput(a.positional[0], err);
    if (!config) {
        return kBadInput;
    }
    std::optional<std::string> index;
    if (a.index) {
        index = readInput(*a.index, err);
        if (!index) {
            return kBadInput;
        }
    }
    auto imported =
        core::importHfConfig(*config, a.positional[0], index ? std::optional<std::string_view>(*index) : std::nullopt,
                             a.index.value_or("model.safetensors.index.json"));
    if (!imported) {
        printError(err, imported.error());
        return kBadInput;
    }
    const auto params = core::countParams(imported->arch);
    if (a.json) {
        out << present::importJson(*imported).dump(2) << "\n";
        return kOk;
    }
    out << "model_type  " << imported->modelType << "\n";
    out << "parameters  " << present::params(params.total) << " (" << params.total << ")";
    if (imported->arch.isMoe()) {
        out << ", " << present::params(params.activePerToken) << " active per token";
    }
    out << "\n";
    if (imported->weightBytes) {
        out << "weights     " << present::gib(*imported->weightBytes) << " (from the safetensors index)\n";
    }
    for (const auto& w : imported->warnings) {
        out << "assumed     " << w.message() << "\n";
    }
    return kOk;
}

} // namespace gpusizer::cli
