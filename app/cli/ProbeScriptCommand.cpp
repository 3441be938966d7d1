#include "Commands.h"
#include "gpusizer/plan/ProbeScript.h"

namespace gpusizer::cli {

int probeScriptCommand(const Args& a, std::ostream& out, std::ostream& err) {
    if (a.positional.empty() || !a.output) {
        err << "gpusizer-cli: probe-script needs a scenario file and -o probe.py\n";
        return kUsage;
    }
    const auto loaded = loadCatalogs(err);
    const auto scenario = loadScenario(a, loaded.catalog, err);
    if (!scenario) {
        return kBadInput;
    }
    const std::string script = core::probeScript(*scenario);
    if (!writeOutput(*a.output, script, err)) {
        return kOutputFailed;
    }
    out << "measurement script written to " << *a.output << "\nrun it on the GPU: python3 " << *a.output
        << " --out result.json\n";
    return kOk;
}

} // namespace gpusizer::cli
