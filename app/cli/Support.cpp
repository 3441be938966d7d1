#include "Support.h"

#include "gpusizer/catalogs/Files.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <exception>
#include <filesystem>
#include <string_view>

namespace gpusizer::cli {

namespace {

/// `batch_size=4`, `model.lora_rank=16`, `~compile`: a dotted name before '=' (or after '~'), no path.
bool looksLikeOverride(const std::string& a) {
    const bool remove = a.rfind('~', 0) == 0;
    const std::string key = remove ? a.substr(1, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 1)
                                   : a.substr(0, a.find('='));
    if ((!remove && a.find('=') == std::string::npos) || key.empty() ||
        std::isdigit(static_cast<unsigned char>(key.front())) != 0) {
        return false;
    }
    return std::all_of(key.begin(), key.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.'; });
}

} // namespace

Args parseArgs(const std::vector<std::string>& args, std::size_t from) {
    Args out;
    for (std::size_t i = from; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--json") {
            out.json = true;
        } else if (a == "--index" && i + 1 < args.size()) {
            out.index = args[++i];
        } else if (a == "--tokens" && i + 1 < args.size()) {
            out.tokens = args[++i];
        } else if (a == "--basis" && i + 1 < args.size()) {
            out.basis = args[++i];
        } else if (a == "--epochs" && i + 1 < args.size()) {
            out.epochs = args[++i];
        } else if (a == "--mfu" && i + 1 < args.size()) {
            out.mfu = args[++i];
        } else if (a == "--spot") {
            out.spot = true;
        } else if (a == "--no-offload") {
            out.noOffload = true;
        } else if (a == "--objective" && i + 1 < args.size()) {
            out.objective = args[++i];
        } else if (a == "--max-gpus" && i + 1 < args.size()) {
            out.maxGpus = args[++i];
        } else if (a == "--network" && i + 1 < args.size()) {
            out.network = args[++i];
        } else if (a == "--host-ram-gib" && i + 1 < args.size()) {
            out.hostRamGib = args[++i];
        } else if (a == "--margin" && i + 1 < args.size()) {
            out.margin = args[++i];
        } else if (a == "--interruptions-per-day" && i + 1 < args.size()) {
            out.interruptionsPerDay = args[++i];
        } else if (a == "--storage-gbps" && i + 1 < args.size()) {
            out.storageGbps = args[++i];
        } else if (a == "--egress-usd-per-gb" && i + 1 < args.size()) {
            out.egressUsdPerGb = args[++i];
        } else if (a == "--keep-days" && i + 1 < args.size()) {
            out.keepDays = args[++i];
        } else if (a == "--checkpoint-hours" && i + 1 < args.size()) {
            out.checkpointHours = args[++i];
        } else if (a == "--restart-minutes" && i + 1 < args.size()) {
            out.restartMinutes = args[++i];
        } else if (a == "--provision-minutes" && i + 1 < args.size()) {
            out.provisionMinutes = args[++i];
        } else if (a == "--environment-minutes" && i + 1 < args.size()) {
            out.environmentMinutes = args[++i];
        } else if (a == "--download-gbps" && i + 1 < args.size()) {
            out.downloadGbps = args[++i];
        } else if (a == "--deadline-hours" && i + 1 < args.size()) {
            out.deadlineHours = args[++i];
        } else if (a == "--global-batch" && i + 1 < args.size()) {
            out.globalBatch = args[++i];
        } else if (a == "--gpu" && i + 1 < args.size()) {
            out.gpu = args[++i];
        } else if ((a == "-o" || a == "--output") && i + 1 < args.size()) {
            out.output = args[++i];
        } else if (a == "--model-config" && i + 1 < args.size()) {
            out.modelConfig = args[++i];
        } else if (a == "--format" && i + 1 < args.size()) {
            out.format = args[++i];
        } else if (a == "--gpus" && i + 1 < args.size()) {
            out.gpus = args[++i];
        } else if (a == "--page-size" && i + 1 < args.size()) {
            out.pageSize = args[++i];
        } else if (a == "--page" && i + 1 < args.size()) {
            out.page = args[++i];
        } else if (a == "--language" && i + 1 < args.size()) {
            out.language = args[++i];
        } else if (a.rfind("--", 0) == 0) {
            out.unknownOption = a;
        } else if (looksLikeOverride(a) && !std::filesystem::exists(a)) {
            out.overrides.push_back(a); // tune run-style key=value, not a file
        } else {
            out.positional.push_back(a);
        }
    }
    return out;
}

void printError(std::ostream& err, const core::Error& e) {
    err << "gpusizer-cli: " << (e.where.empty() ? "" : e.where + ": ") << e.message() << "\n";
}

catalogs::LoadedCatalog loadCatalogs(std::ostream& err) {
    auto loaded = catalogs::loadCatalogsWithFolder(catalogs::userCatalogDir());
    for (const auto& e : loaded.fileErrors) {
        err << "warning: catalog file skipped: " << e.where << ": " << e.message() << "\n";
    }
    for (const auto& r : loaded.rejected) {
        err << "warning: catalog entry left out: " << r.error.where << ": " << r.error.message() << "\n";
    }
    return loaded;
}

std::optional<std::string> readInput(const std::string& path, std::ostream& err) {
    auto bytes = catalogs::readDocument(path);
    if (!bytes) {
        printError(err, bytes.error());
        return std::nullopt;
    }
    return std::move(*bytes);
}

bool writeOutput(const std::string& path, const std::string& bytes, std::ostream& err) {
    const auto written = catalogs::writeDocument(path, bytes);
    if (!written) {
        printError(err, written.error());
        return false;
    }
    return true;
}

std::optional<core::ImportedRun> importRun(const Args& a, const core::Catalog& catalog, std::ostream& err) {
    std::optional<core::ConfigFormat> format;
    if (a.format) {
        format = core::parseConfigFormat(*a.format);
        if (!format) {
            err << "gpusizer-cli: --format must be axolotl, llama-factory, torchtune, transformers, peft, "
                   "bitsandbytes, hf-config, accelerate, deepspeed, litgpt, arctic-training, verl or openrlhf, not '"
                << *a.format << "'\n";
            return std::nullopt;
        }
    }
    auto read = catalogs::trainingConfigRequest(a.positional, a.modelConfig.value_or(""));
    if (!read) {
        printError(err, read.error());
        return std::nullopt;
    }
    core::ImportRequest request = std::move(*read);
    if (!request.files.empty()) {
        request.files.front().format = format; // --format names the first file's
    }
    if (a.gpus) {
        try {
            std::size_t used = 0;
            const long long n = std::stoll(*a.gpus, &used);
            if (used != a.gpus->size() || n < 1 || n > 100000) {
                throw std::invalid_argument("range");
            }
            request.gpus = n;
        } catch (const std::exception&) {
            err << "gpusizer-cli: --gpus must be a whole number from 1 to 100000, not '" << *a.gpus << "'\n";
            return std::nullopt;
        }
    }
    request.overrides = a.overrides;
    auto run = core::importTrainingConfigs(request, catalog);
    if (!run) {
        // Core's words name no control; here the flags that answer them.
        core::Error e = run.error();
        const std::string_view id = e.words.text != nullptr ? e.words.text : "";
        if (e.code == core::kModelConfigNeeded && id.find("give its config.json") != std::string_view::npos) {
            e.words = core::words("%1 (--model-config)", e.words);
        } else if (e.code == core::ErrorCode::WrongFormat &&
                   id.rfind("not a training config of a known format", 0) == 0) {
            e.words = core::words("%1; --format names it", e.words);
        }
        printError(err, e);
        return std::nullopt;
    }
    return std::move(*run);
}

std::optional<core::Scenario> loadScenario(const Args& a, const core::Catalog& catalog, std::ostream& err) {
    if (a.positional.empty()) {
        err << "gpusizer-cli: this command needs a scenario file or training configs\n";
        return std::nullopt;
    }
    const auto bytes = readInput(a.positional[0], err);
    if (!bytes) {
        return std::nullopt;
    }
    // A training config (or several files of one run) is imported; its report goes to stderr.
    if (a.positional.size() > 1 || a.format || core::detectConfigFormat(*bytes)) {
        auto run = importRun(a, catalog, err);
        if (!run) {
            return std::nullopt;
        }
        err << "imported " << run->scenario.name << " (gpusizer-cli import-config shows what was read)\n";
        return std::move(run->scenario);
    }
    if (!a.overrides.empty() || a.gpus || a.modelConfig) {
        err << "gpusizer-cli: key=value overrides, --gpus and --model-config apply to training configs; "
            << a.positional[0] << " is a scenario file (change it, or its fields, instead)\n";
        return std::nullopt;
    }
    auto parsed = core::parseScenario(*bytes, a.positional[0], catalog);
    if (!parsed) {
        printError(err, parsed.error());
        return std::nullopt;
    }
    for (const auto& w : parsed->warnings) {
        err << "warning: " << w.message() << "\n";
    }
    return parsed->scenario;
}

namespace {

/// Parses a number option (positive, or from 0 when `zeroAllowed`); prints the problem and returns nullopt when it is
/// not one.
std::optional<double> numberOption(const std::optional<std::string>& text, const char* option, double fallback,
                                   double max, bool zeroAllowed, std::ostream& err) {
    if (!text) {
        return fallback;
    }
    try {
        std::size_t used = 0;
        const double v = std::stod(*text, &used);
        if (used == text->size() && (zeroAllowed ? v >= 0 : v > 0) && v <= max && std::isfinite(v)) {
            return v;
        }
    } catch (const std::exception&) {
    }
    err << "gpusizer-cli: " << option << " must be a " << (zeroAllowed ? "number from 0" : "positive number")
        << " up to " << max << ", not '" << *text << "'\n";
    return std::nullopt;
}

std::optional<double> positiveNumber(const std::optional<std::string>& text, const char* option, double fallback,
                                     double max, std::ostream& err) {
    return numberOption(text, option, fallback, max, false, err);
}

/// The bill's options into `bill`; false (after printing why) when one is not valid.
bool readBillOptions(const Args& a, core::BillAssumptions& bill, std::ostream& err) {
    const auto rate =
        numberOption(a.interruptionsPerDay, "--interruptions-per-day", bill.interruptionsPerDay, 1000, true, err);
    const auto write = numberOption(a.storageGbps, "--storage-gbps", bill.storageWriteGBs, 1000, false, err);
    const auto egress = numberOption(a.egressUsdPerGb, "--egress-usd-per-gb", bill.egressUsdPerGb, 100, true, err);
    const auto keep = numberOption(a.keepDays, "--keep-days", bill.keepDays, 3650, true, err);
    const auto restart = numberOption(a.restartMinutes, "--restart-minutes", bill.restartMinutes, 10000, true, err);
    const auto interval = numberOption(a.checkpointHours, "--checkpoint-hours", 1.0, 100000, false, err);
    if (!rate || !write || !egress || !keep || !restart || !interval) {
        return false;
    }
    bill.interruptionsPerDay = *rate;
    bill.storageWriteGBs = *write;
    bill.storageReadGBs = *write; // one volume: reads back at the speed it writes
    bill.egressUsdPerGb = *egress;
    bill.keepDays = *keep;
    bill.restartMinutes = *restart;
    if (a.checkpointHours) {
        bill.checkpointIntervalHours = *interval;
    }
    return true;
}

/// The fixed costs' options into `fixed`; false (after printing why) when one is not valid.
bool readFixedCostOptions(const Args& a, core::FixedCostAssumptions& fixed, std::ostream& err) {
    const auto provision =
        numberOption(a.provisionMinutes, "--provision-minutes", fixed.provisionMinutes, 10000, true, err);
    const auto environment =
        numberOption(a.environmentMinutes, "--environment-minutes", fixed.environmentMinutes, 10000, true, err);
    const auto download = numberOption(a.downloadGbps, "--download-gbps", fixed.downloadGBs, 1000, true, err);
    if (!provision || !environment || !download) {
        return false;
    }
    fixed.provisionMinutes = *provision;
    fixed.environmentMinutes = *environment;
    fixed.downloadGBs = *download;
    return true;
}

/// --global-batch N (fixed at N sequences) or MIN-MAX (flexible within the range); false after printing why not.
bool readGlobalBatch(const std::string& text, core::GlobalBatch& batch, std::ostream& err) {
    const auto dash = text.find('-');
    const auto parse = [](const std::string& part) -> std::optional<std::int64_t> {
        if (part.empty() || part.size() > 9 || !std::all_of(part.begin(), part.end(), [](char c) {
                return std::isdigit(static_cast<unsigned char>(c));
            })) {
            return std::nullopt;
        }
        const std::int64_t v = std::stoll(part);
        return v >= 1 ? std::optional<std::int64_t>(v) : std::nullopt;
    };
    const auto lo = parse(text.substr(0, dash));
    const auto hi = dash == std::string::npos ? lo : parse(text.substr(dash + 1));
    if (!lo || !hi || *hi < *lo) {
        err << "gpusizer-cli: --global-batch must be a number of sequences (16) or a range (16-64), not '" << text
            << "'\n";
        return false;
    }
    batch.flexible = true;
    batch.minSequences = *lo;
    batch.maxSequences = *hi;
    return true;
}

} // namespace

/// The planning options of fit and plan; nullopt (after printing why) when one is not valid.
std::optional<core::PlanInputs> planInputsFrom(const Args& a, const core::Scenario& scenario, std::ostream& err) {
    core::PlanInputs in;
    const auto tokens = positiveNumber(a.tokens, "--tokens", in.datasetTokens, 1e16, err);
    const auto epochs = positiveNumber(a.epochs, "--epochs", in.epochs, 1e4, err);
    const auto mfu = positiveNumber(a.mfu, "--mfu", 1.0, 1.0, err);
    const auto maxGpus = positiveNumber(a.maxGpus, "--max-gpus", static_cast<double>(in.maxGpus), 1048576, err);
    const auto deadline = positiveNumber(a.deadlineHours, "--deadline-hours", 1.0, 1e6, err);
    if (!tokens || !epochs || !mfu || !maxGpus || !deadline) {
        return std::nullopt;
    }
    in.datasetTokens = *tokens;
    in.datasetTokensStated = a.tokens.has_value();
    in = core::withDatasetTokens(in, scenario); // without --tokens, the imported lengths' tokens
    in.epochs = *epochs;
    if (a.mfu) {
        in.mfu = *mfu; // else each card's published figure
    }
    if (a.deadlineHours) {
        in.deadlineHours = *deadline;
    }
    if (a.globalBatch && !readGlobalBatch(*a.globalBatch, in.globalBatch, err)) {
        return std::nullopt;
    }
    if (!readFixedCostOptions(a, in.fixed, err)) {
        return std::nullopt;
    }
    in.maxGpus = static_cast<std::int64_t>(*maxGpus);
    in.spot = a.spot;
    in.allowOffload = !a.noOffload;
    if (a.objective) {
        static const std::pair<const char*, core::Objective> kObjectives[] = {
            {"cost", core::Objective::Cost}, {"time", core::Objective::Time}, {"balanced", core::Objective::Balanced}};
        bool known = false;
        for (const auto& [name, value] : kObjectives) {
            if (*a.objective == name) {
                in.objective = value;
                known = true;
            }
        }
        if (!known) {
            err << "gpusizer-cli: --objective must be cost, time or balanced, not '" << *a.objective << "'\n";
            return std::nullopt;
        }
    }
    if (in.deadlineHours && in.objective != core::Objective::Cost) {
        // Only the cost objective reads a deadline: under the others it would be ignored without a word.
        err << "gpusizer-cli: --deadline-hours applies to --objective cost (the cheapest plan that finishes in time)\n";
        return std::nullopt;
    }
    if (a.network) {
        bool known = false;
        for (auto n : {core::Network::Ib400, core::Network::Roce200, core::Network::Eth100, core::Network::Eth25}) {
            if (*a.network == core::toString(n)) {
                in.cluster.network = n;
                known = true;
            }
        }
        if (!known) {
            err << "gpusizer-cli: --network must be ib400, roce200, eth100 or eth25, not '" << *a.network << "'\n";
            return std::nullopt;
        }
    }
    if (a.hostRamGib) {
        const auto ram = positiveNumber(a.hostRamGib, "--host-ram-gib", 0, 1048576, err);
        if (!ram) {
            return std::nullopt;
        }
        in.hostRamGiBPerNode = *ram;
    }
    if (a.margin) {
        const auto margin = positiveNumber(a.margin, "--margin", 0, 1000, err);
        if (!margin) {
            return std::nullopt;
        }
        in.marginShare = *margin / 100.0;
    }
    if (!readBillOptions(a, in.bill, err)) {
        return std::nullopt;
    }
    return in;
}

} // namespace gpusizer::cli
