#include "Commands.h"
#include "gpusizer/plan/ProbeScript.h"
#include "gpusizer/present/LengthsText.h"
#include "gpusizer/scenario/DatasetLengths.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <algorithm>

namespace gpusizer::cli {

int datasetScriptCommand(const Args& a, std::ostream& out, std::ostream& err) {
    if (a.positional.empty() || !a.output) {
        err << "gpusizer-cli: dataset-script needs a scenario file and -o lengths.py\n";
        return kUsage;
    }
    const auto loaded = loadCatalogs(err);
    const auto scenario = loadScenario(a, loaded.catalog, err);
    if (!scenario) {
        return kBadInput;
    }
    if (!writeOutput(*a.output, core::datasetScript(*scenario), err)) {
        return kOutputFailed;
    }
    out << "dataset script written to " << *a.output << "\nrun it where your data is: python3 " << *a.output
        << " DATA --tokenizer TOKENIZER_FOLDER --out lengths.json\n";
    return kOk;
}

int importLengthsCommand(const Args& a, std::ostream& out, std::ostream& err) {
    if (a.positional.size() != 2 || !a.output) {
        err << "gpusizer-cli: import-lengths needs a scenario file, the dataset script's result and -o scenario.json\n";
        return kUsage;
    }
    const auto basis = core::lengthBasisFromString(a.basis.value_or("max"));
    if (!basis) {
        err << "gpusizer-cli: --basis must be max, p99 or p95, not '" << *a.basis << "'\n";
        return kUsage;
    }
    const auto loaded = loadCatalogs(err);
    Args scenarioArgs = a;
    scenarioArgs.positional = {a.positional[0]};
    auto scenario = loadScenario(scenarioArgs, loaded.catalog, err);
    if (!scenario) {
        return kBadInput;
    }
    const auto bytes = readInput(a.positional[1], err);
    if (!bytes) {
        return kBadInput;
    }
    auto lengths = core::parseDatasetLengths(*bytes, a.positional[1]);
    if (!lengths) {
        printError(err, lengths.error());
        return kBadInput;
    }
    out << present::english(present::lengthsSummary(*lengths)) << "\n";
    const auto bins = present::lengthBins(*lengths);
    std::int64_t most = 1;
    for (const auto& bin : bins) {
        most = std::max(most, bin.count);
    }
    for (const auto& bin : bins) { // a bar of up to 40 marks per bin
        const auto marks = static_cast<std::size_t>((bin.count * 40 + most - 1) / most);
        out << "  " << std::string(bin.label.size() < 16 ? 16 - bin.label.size() : 0, ' ') << bin.label << " "
            << std::string(marks, '#') << " " << bin.count << "\n";
    }
    core::applyDatasetLengths(*scenario, std::move(*lengths), *basis);
    out << present::english(present::lengthsChoice(*scenario->dataset, *basis)) << "\n"
        << present::english(present::lengthsBatching(*scenario->dataset, *basis)) << "\n";
    if (!writeOutput(*a.output, core::scenarioToJson(*scenario), err)) {
        return kOutputFailed;
    }
    out << "scenario written to " << *a.output << " (seq_len " << scenario->seqLen
        << "; fit, plan and advise price its tokens unless --tokens says otherwise)\n";
    return kOk;
}

} // namespace gpusizer::cli
