#include "Commands.h"
#include "gpusizer/plan/Advisor.h"
#include "gpusizer/present/AdviceText.h"
#include "gpusizer/present/Json.h"
#include "gpusizer/present/Table.h"

namespace gpusizer::cli {

int adviseCommand(const Args& a, std::ostream& out, std::ostream& err) {
    const auto loaded = loadCatalogs(err);
    if (!a.gpu) {
        err << "gpusizer-cli: advise needs --gpu ID (see gpusizer-cli gpus)\n";
        return kUsage;
    }
    const core::GpuSpec* gpu = loaded.catalog.findGpu(*a.gpu);
    if (gpu == nullptr) {
        err << "gpusizer-cli: --gpu: '" << *a.gpu << "' is not in the GPU catalog\n";
        return kBadInput;
    }
    const auto scenario = loadScenario(a, loaded.catalog, err);
    if (!scenario) {
        return kBadInput;
    }
    const auto inputs = planInputsFrom(a, *scenario, err);
    if (!inputs) {
        return kBadInput;
    }
    const auto advice = core::adviseOom(*scenario, *gpu, *inputs);
    if (a.json) {
        out << present::adviceJson(advice, *scenario, *gpu, *inputs).dump(2) << "\n";
        return kOk;
    }
    if (advice.fitsAlready) {
        out << present::english(present::adviceConclusion(advice, *gpu)) << "\n";
        return kOk;
    }
    out << present::renderText(present::ladderTable(advice, *scenario, *gpu, *inputs));
    out << "\n" << present::english(present::adviceConclusion(advice, *gpu)) << "\n";
    return kOk;
}

} // namespace gpusizer::cli
