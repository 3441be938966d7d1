#include "Commands.h"

#if GPUSIZER_CLI_HAS_REPORT
#include "ReportCommand.h"
#endif

#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/core/Advisor.h"
#include "gpusizer/core/EstimateJson.h"
#include "gpusizer/core/FitTable.h"
#include "gpusizer/core/HfConfig.h"
#include "gpusizer/core/Measurement.h"
#include "gpusizer/core/Planner.h"
#include "gpusizer/core/ProbeScript.h"
#include "gpusizer/core/ScenarioJson.h"
#include "gpusizer/core/Units.h"
#include "gpusizer/core/Version.h"
#include "gpusizer/present/AdviceText.h"
#include "gpusizer/present/EstimateText.h"
#include "gpusizer/present/Format.h"
#include "gpusizer/present/PlanTables.h"
#include "gpusizer/present/PlanText.h"
#include "gpusizer/present/Table.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

namespace gpusizer::cli {

namespace {

using nlohmann::json;

constexpr const char* kUsageText = R"(Usage: gpusizer-cli <command> [options]

Commands:
  estimate SCENARIO.json [--json]       peak GPU memory per GPU, component by component
  gpus [--json]                         the GPU catalog
  models [--json]                       the model catalog
  import-hf CONFIG.json [--index model.safetensors.index.json] [--json]
                                        read a Hugging Face config.json
  advise SCENARIO.json --gpu ID [--json]
                                        out-of-memory fixes in order of cost, each with its saving
  sizing-table SCENARIO.json [--json]   smallest card and count per model size and method
  fit SCENARIO.json [PLAN OPTIONS] [--json]
                                        per GPU: the count and layout to rent, and why fewer cards fail
  plan SCENARIO.json --tokens N [--epochs E] [--mfu 0.4] [--spot] [PLAN OPTIONS] [--json]
                                        the same with time, GPU-hours and cost, ranked by the objective
  probe-script SCENARIO.json -o probe.py
                                        a Python script that measures the scenario on a real GPU
  compare-measured SCENARIO.json RESULT.json [--json]
                                        estimate against the script's measurement
  report SCENARIO.json -o FILE.pdf [--page-size A4|Letter]
                                        the sizing report as PDF
  help                                  this text
  --version                             print the version

Plan options (fit, plan):
  --objective cost|time|balanced        what to minimise (balanced: the cheapest plan within 1.5x of the fastest)
  --no-offload                          never plan CPU offload
  --max-gpus N                          the most cards you accept (default 1024)
  --network ib400|roce200|eth100|eth25  the network between nodes (default: by card, see docs/planning.md)
  --host-ram-gib N                      host RAM per node (default: the catalog's typical node)
  --margin PCT                          fit margin over the estimate in percent (default: the estimate's band)

User catalogs: files named gpus*.json / models*.json in $XDG_DATA_HOME/gpusizer/GPU Sizer/catalogs
(or $GPUSIZER_CATALOG_DIR) add entries or override shipped ones by id.
Memory is reported in GiB (2^30 bytes) per GPU unless labelled "total".
Exit status: 0 ok, 1 usage error, 2 bad input (the message names the file, field and reason).
)";

struct Args {
    std::vector<std::string> positional;
    bool json = false;
    std::optional<std::string> index;
    std::optional<std::string> output;
    std::optional<std::string> gpu;
    std::optional<std::string> tokens;
    std::optional<std::string> epochs;
    std::optional<std::string> mfu;
    bool spot = false;
    bool noOffload = false;
    std::optional<std::string> objective;
    std::optional<std::string> maxGpus;
    std::optional<std::string> network;
    std::optional<std::string> hostRamGib;
    std::optional<std::string> margin;
    std::string pageSize = "A4";
    std::string unknownOption;
};

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
        } else if (a == "--gpu" && i + 1 < args.size()) {
            out.gpu = args[++i];
        } else if ((a == "-o" || a == "--output") && i + 1 < args.size()) {
            out.output = args[++i];
        } else if (a == "--page-size" && i + 1 < args.size()) {
            out.pageSize = args[++i];
        } else if (a.rfind("--", 0) == 0) {
            out.unknownOption = a;
        } else {
            out.positional.push_back(a);
        }
    }
    return out;
}

std::optional<std::string> readFile(const std::string& path, std::ostream& err) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        err << "gpusizer-cli: cannot open '" << path << "'\n";
        return std::nullopt;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

using present::gib;

std::string billions(std::int64_t params) {
    return present::params(params);
}

void printError(std::ostream& err, const core::Error& e) {
    err << "gpusizer-cli: " << (e.where.empty() ? "" : e.where + ": ") << e.message << "\n";
}

/// The user's catalog folder, the same one the GUI reads (QStandardPaths::AppDataLocation on Linux).
std::filesystem::path userCatalogDir() {
    if (const char* dir = std::getenv("GPUSIZER_CATALOG_DIR"); dir != nullptr && *dir != '\0') {
        return dir;
    }
    std::filesystem::path base;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg != nullptr && *xdg != '\0') {
        base = xdg;
    } else if (const char* home = std::getenv("HOME"); home != nullptr) {
        base = std::filesystem::path(home) / ".local" / "share";
    } else {
        return {};
    }
    return base / "gpusizer" / "GPU Sizer" / "catalogs";
}

} // namespace

catalogs::LoadedCatalog loadCatalogs(std::ostream& err) {
    auto loaded = catalogs::loadCatalogsWithFolder(userCatalogDir());
    for (const auto& e : loaded.fileErrors) {
        err << "warning: catalog file skipped: " << e.where << ": " << e.message << "\n";
    }
    for (const auto& r : loaded.rejected) {
        err << "warning: catalog entry left out: " << r.error.where << ": " << r.error.message << "\n";
    }
    return loaded;
}

namespace {

int estimateCommand(const Args& a, std::ostream& out, std::ostream& err) {
    if (a.positional.size() != 1) {
        err << "gpusizer-cli: estimate needs exactly one scenario file\n" << kUsageText;
        return kUsage;
    }
    const auto bytes = readFile(a.positional[0], err);
    if (!bytes) {
        return kBadInput;
    }
    const auto loaded = loadCatalogs(err);
    auto parsed = core::parseScenario(*bytes, a.positional[0], loaded.catalog);
    if (!parsed) {
        printError(err, parsed.error());
        return kBadInput;
    }
    for (const auto& w : parsed->warnings) {
        err << "warning: " << w.message << "\n";
    }
    const core::Scenario& s = parsed->scenario;
    const core::Estimate e = core::estimate(s);
    if (a.json) {
        out << core::estimateToJson(e).dump(2) << "\n";
        return kOk;
    }
    const std::string modelName = s.modelId.empty() ? s.model.name : s.modelId;
    out << "Model       " << modelName << "  (" << billions(e.params.total) << " parameters, "
        << billions(e.trainableParams) << " trainable)\n";
    out << "Run         " << core::toString(s.method) << ", " << core::toString(s.precision) << ", "
        << core::toString(s.optimizer) << ", micro-batch " << s.microBatch << " x " << s.seqLen
        << " tokens, checkpointing " << core::toString(s.checkpointing) << ", attention " << core::toString(s.attention)
        << "\n";
    out << "Layout      " << s.gpus << " GPU(s), sharding " << core::toString(s.sharding) << " ("
        << core::toString(e.profile.engine) << "), TP " << s.tensorParallel << ", PP " << s.pipelineParallel
        << ", offload " << core::toString(s.offload) << "\n\n";
    out << "Per GPU, at the peak (" << core::toString(e.peakMoment) << "):\n";
    out << present::renderText(
        present::componentTable(e).select({present::CompKey, present::CompBytes, present::CompShare}), "  ");
    out << "  " << std::left << std::setw(20) << "allocated peak" << std::right << std::setw(12)
        << gib(e.allocatedPeakBytes) << "   (torch.cuda.max_memory_allocated)\n";
    out << "  " << std::left << std::setw(20) << "reserved peak" << std::right << std::setw(12)
        << gib(e.reservedPeakBytes) << "   (torch.cuda.max_memory_reserved)\n";
    out << "  " << std::left << std::setw(20) << "device" << std::right << std::setw(12) << gib(e.deviceBytes)
        << "   (nvidia-smi; expected " << gib(e.bandLowBytes) << " - " << gib(e.bandHighBytes) << ")\n";
    if (s.gpus > 1) {
        out << "Total across " << s.gpus << " GPUs: " << gib(e.deviceBytes * s.gpus) << "\n";
    }
    if (e.cpuOffloadBytesTotal > 0) {
        out << "Host RAM for offload: " << gib(e.cpuOffloadBytesPerGpu) << " per GPU, " << gib(e.cpuOffloadBytesTotal)
            << " total\n";
    }
    out << "\nWarnings:\n";
    for (const auto& w : e.warnings) {
        out << "  - " << w.message << "\n";
    }
    out << "Assumptions:\n";
    for (const auto& text : e.assumptions) {
        out << "  - " << text << "\n";
    }
    return kOk;
}

/// Reads the one scenario file a command takes; prints the problem and returns nullopt on failure.
std::optional<core::Scenario> loadScenario(const Args& a, const core::Catalog& catalog, std::ostream& err) {
    if (a.positional.size() != 1) {
        err << "gpusizer-cli: this command needs exactly one scenario file\n";
        return std::nullopt;
    }
    const auto bytes = readFile(a.positional[0], err);
    if (!bytes) {
        return std::nullopt;
    }
    auto parsed = core::parseScenario(*bytes, a.positional[0], catalog);
    if (!parsed) {
        printError(err, parsed.error());
        return std::nullopt;
    }
    for (const auto& w : parsed->warnings) {
        err << "warning: " << w.message << "\n";
    }
    return parsed->scenario;
}

/// Parses a positive number option; prints the problem and returns nullopt when it is not one.
std::optional<double> positiveNumber(const std::optional<std::string>& text, const char* option, double fallback,
                                     double max, std::ostream& err) {
    if (!text) {
        return fallback;
    }
    try {
        std::size_t used = 0;
        const double v = std::stod(*text, &used);
        if (used == text->size() && v > 0 && v <= max && std::isfinite(v)) {
            return v;
        }
    } catch (const std::exception&) {
    }
    err << "gpusizer-cli: " << option << " must be a positive number up to " << max << ", not '" << *text << "'\n";
    return std::nullopt;
}

/// The planning options of fit and plan; nullopt (after printing why) when one is not valid.
std::optional<core::PlanInputs> planInputsFrom(const Args& a, std::ostream& err) {
    core::PlanInputs in;
    const auto tokens = positiveNumber(a.tokens, "--tokens", in.datasetTokens, 1e16, err);
    const auto epochs = positiveNumber(a.epochs, "--epochs", in.epochs, 1e4, err);
    const auto mfu = positiveNumber(a.mfu, "--mfu", in.mfu, 1.0, err);
    const auto maxGpus = positiveNumber(a.maxGpus, "--max-gpus", static_cast<double>(in.maxGpus), 1048576, err);
    if (!tokens || !epochs || !mfu || !maxGpus) {
        return std::nullopt;
    }
    in.datasetTokens = *tokens;
    in.epochs = *epochs;
    in.mfu = *mfu;
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
    return in;
}

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
    const auto inputs = planInputsFrom(a, err);
    if (!inputs) {
        return kBadInput;
    }
    const auto advice = core::adviseOom(*scenario, *gpu, *inputs);
    if (a.json) {
        json steps = json::array();
        for (const auto& step : advice.steps) {
            json j{{"fix", core::toString(step.kind)},
                   {"applicable", step.applicable},
                   {"price", present::english(present::fixPrice(step.kind))}};
            if (step.applicable) {
                j["change"] = present::english(present::fixChange(step, *scenario, *gpu, *inputs));
                j["saving_bytes"] = step.savingAlone;
                j["device_bytes_after"] = step.deviceAfterAlone;
                j["fits_alone"] = step.fitsAlone;
            } else {
                j["not_applicable_because"] = present::english(present::fixBlocker(step.blocker));
            }
            steps.push_back(j);
        }
        json combination = json::array();
        for (auto kind : advice.combination) {
            combination.push_back(core::toString(kind));
        }
        json doc{{"format", "gpusizer-advice"},
                 {"version", 1},
                 {"gpu", gpu->id},
                 {"device_bytes", advice.deviceBytes},
                 {"usable_bytes", advice.usableBytes},
                 {"fits", advice.fitsAlready},
                 {"steps", steps}};
        if (advice.fittingScenario) {
            doc["first_fitting_combination"] = {{"fixes", combination},
                                                {"device_bytes", advice.deviceAfterCombination}};
        }
        out << doc.dump(2) << "\n";
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

int sizingTableCommand(const Args& a, std::ostream& out, std::ostream& err) {
    const auto loaded = loadCatalogs(err);
    const auto scenario = loadScenario(a, loaded.catalog, err);
    if (!scenario) {
        return kBadInput;
    }
    const auto inputs = planInputsFrom(a, err);
    if (!inputs) {
        return kBadInput;
    }
    const auto rows = core::sizingTable(*scenario, loaded.catalog, *inputs);
    auto cellJson = [](const core::SizingCell& c) {
        return c.gpu == nullptr
                   ? json(nullptr)
                   : json{{"gpu", c.gpu->id}, {"cards", c.cards}, {"device_bytes_per_gpu", c.devicePerGpu}};
    };
    if (a.json) {
        json list = json::array();
        for (const auto& r : rows) {
            list.push_back({{"label", present::english(present::sizingLabel(r))},
                            {"params", r.params},
                            {"qlora", cellJson(r.qlora)},
                            {"lora", cellJson(r.lora)},
                            {"full", cellJson(r.full)}});
        }
        out << json{{"format", "gpusizer-sizing-table"},
                    {"version", 1},
                    {"seq_len", scenario->seqLen},
                    {"micro_batch", scenario->microBatch},
                    {"rows", list}}
                   .dump(2)
            << "\n";
        return kOk;
    }
    out << "Cheapest catalog card x count in memory at " << scenario->seqLen << " tokens x " << scenario->microBatch
        << " per GPU (ZeRO-3 beyond one card):\n";
    out << present::renderText(present::sizingTable(rows));
    return kOk;
}

json candidateJson(const core::Candidate& c, const core::GpuSpec& gpu) {
    const auto& s = c.scenario;
    json j{{"gpus", s.gpus},
           {"sharding", core::toString(s.sharding)},
           {"sharding_engine", core::toString(core::profileFor(s).engine)},
           {"tensor_parallel", s.tensorParallel},
           {"pipeline_parallel", s.pipelineParallel},
           {"expert_parallel", s.expertParallel},
           {"offload", core::toString(s.offload)},
           {"micro_batch", s.microBatch},
           {"gradient_accumulation", s.gradientAccumulation},
           {"gradient_checkpointing", core::toString(s.checkpointing)},
           {"precision", core::toString(s.precision)},
           {"layout", present::english(present::layoutParts(s))},
           {"device_bytes_per_gpu", c.deviceBytes},
           {"margin_share", c.marginShare},
           {"verdict", present::english(present::verdictWord(c.verdict))},
           {"fits", c.fits()},
           {"host_ram_bytes_per_node", c.hostRamPerNodeBytes},
           {"host_ram_limit_bytes_per_node", c.hostRamLimitBytes},
           {"fp16_instead_of_bf16", c.fp16Instead},
           {"global_batch_sequences", c.globalBatchSequences}};
    if (!c.fits()) {
        j["why_not"] = present::english(present::whyNot(c));
        return j;
    }
    const auto& p = c.plan;
    j["step_seconds"] = p.step.stepSeconds;
    j["compute_seconds"] = p.step.computeSeconds;
    j["exposed_comm_seconds"] = p.step.exposedCommSeconds;
    j["offload_seconds"] = p.step.offloadSeconds;
    j["comm_bytes_per_gpu_per_step"] = static_cast<std::int64_t>(p.step.commBytesPerGpu);
    j["link"] = present::english(present::linkName(p.step.link, gpu));
    j["tokens_per_second"] = p.step.tokensPerSecond;
    j["steps"] = p.steps;
    j["wall_hours"] = p.wallHours;
    j["gpu_hours"] = p.gpuHours;
    j["cost_on_demand_usd"] = p.costOnDemandUsd;
    j["cost_spot_usd"] = p.costSpotUsd;
    j["checkpoint_bytes"] = static_cast<std::int64_t>(p.checkpointBytes);
    j["storage_usd"] = p.storageUsd;
    return j;
}

json planJson(const core::CardPlan& r, const core::Candidate& asIs, const core::PlanInputs& in) {
    json j{{"gpu", r.gpu->id}, {"fits", r.found}};
    j["your_layout"] = candidateJson(asIs, *r.gpu);
    if (r.fewerCards) {
        j["fewer_cards"] = candidateJson(*r.fewerCards, *r.gpu);
        j["why_fewer_fail"] = present::english(present::whyNot(*r.fewerCards));
    }
    if (!r.found) {
        return j;
    }
    j["chosen"] = candidateJson(r.best, *r.gpu);
    json runners = json::array();
    for (const auto& c : r.runnersUp) {
        json rj = candidateJson(c, *r.gpu);
        rj["why_lost"] = present::english(present::whyLost(r.best, c, in));
        runners.push_back(rj);
    }
    j["runners_up"] = runners;
    return j;
}

int fitOrPlanCommand(const Args& a, bool withCost, std::ostream& out, std::ostream& err) {
    const auto loaded = loadCatalogs(err);
    const auto scenario = loadScenario(a, loaded.catalog, err);
    if (!scenario) {
        return kBadInput;
    }
    if (withCost && !a.tokens) {
        err << "gpusizer-cli: plan needs --tokens N (dataset tokens per epoch)\n";
        return kUsage;
    }
    const auto inputs = planInputsFrom(a, err);
    if (!inputs) {
        return kBadInput;
    }
    // The fit table's rows: the scenario's own layout and the planner's choice on each card, the same answers the
    // GPU fit tab and the Plan tab show.
    const auto rows = core::fitTable(*scenario, loaded.catalog.gpus, *inputs);
    std::vector<core::CardPlan> results;
    std::vector<core::Candidate> own;
    for (const auto& r : rows) {
        results.push_back(r.best);
        own.push_back(r.asIs);
    }
    const auto ranking = core::rank(results, *inputs);
    const double margin = core::fitMargin(*scenario, *inputs);
    if (a.json) {
        json list = json::array();
        for (std::size_t i = 0; i < results.size(); ++i) {
            list.push_back(planJson(results[i], own[i], *inputs));
        }
        auto idOf = [&](int i) { return i < 0 ? json(nullptr) : json(results[static_cast<std::size_t>(i)].gpu->id); };
        json doc{{"format", withCost ? "gpusizer-plan" : "gpusizer-fit"},
                 {"version", 2},
                 {"inputs",
                  {{"objective", core::toString(inputs->objective)},
                   {"objective_rule", present::english(present::objectiveRule(inputs->objective))},
                   {"margin_share", margin},
                   {"network", core::toString(inputs->cluster.network)},
                   {"max_gpus", inputs->maxGpus},
                   {"allow_offload", inputs->allowOffload},
                   {"dataset_tokens", inputs->datasetTokens},
                   {"epochs", inputs->epochs},
                   {"mfu", inputs->mfu},
                   {"spot", inputs->spot}}},
                 {"results", list},
                 {"ranking",
                  {{"chosen", idOf(ranking.chosen)},
                   {"cheapest", idOf(ranking.cheapest)},
                   {"fastest", idOf(ranking.fastest)}}}};
        out << doc.dump(2) << "\n";
        return kOk;
    }
    out << "Fit margin " << present::percent(margin) << " over the estimate (the estimate's measured band"
        << (inputs->marginShare ? ", as given" : "")
        << "); objective: " << present::english(present::objectiveRule(inputs->objective)) << ".\n\n";
    if (!withCost) {
        out << present::renderText(present::fitTable(rows, *inputs, scenario->gpuId, present::LayoutText::Full)
                                       .select({present::FitGpu, present::FitYours, present::FitBest,
                                                present::FitMaxBatch, present::FitMaxSeq}));
        for (const auto& r : results) {
            std::vector<present::Message> notes =
                r.found ? present::candidateNotes(r.best) : std::vector<present::Message>{};
            if (r.fewerCards) {
                notes.push_back(present::msg(GPUSIZER_MSG("%1 cards: %2"), present::count(r.fewerCards->scenario.gpus),
                                             present::whyNot(*r.fewerCards)));
            }
            for (const auto& n : notes) {
                out << "  " << r.gpu->name << ": " << present::english(n) << "\n";
            }
        }
    } else {
        out << present::renderText(present::planTable(results, *inputs, ranking.chosen, present::LayoutText::Full)
                                       .select({present::PlanGpu, present::PlanLayout, present::PlanPerGpu,
                                                present::PlanHours, present::PlanGpuHours, present::PlanCost}));
        out << "\nRunners-up and why they lost:\n";
        for (const auto& r : results) {
            const auto lines = present::planDetails(r, *inputs);
            for (std::size_t i = 0; i < lines.size(); ++i) {
                out << (i == 0 ? "  " : "      ") << present::english(lines[i]) << "\n";
            }
        }
    }
    out << "\n" << present::english(present::rentSentence(results, ranking, *inputs)) << "\n";
    if (withCost) {
        if (ranking.chosen >= 0) {
            out << present::english(
                       present::storageSentence(results[static_cast<std::size_t>(ranking.chosen)], *inputs))
                << "\n";
        }
        out << "MFU " << inputs->mfu << ", " << inputs->datasetTokens << " tokens x " << inputs->epochs
            << " epochs; prices illustrative.\n";
    }
    return kOk;
}

int probeScriptCommand(const Args& a, std::ostream& out, std::ostream& err) {
    if (a.positional.size() != 1 || !a.output) {
        err << "gpusizer-cli: probe-script needs a scenario file and -o probe.py\n";
        return kUsage;
    }
    const auto loaded = loadCatalogs(err);
    const auto scenario = loadScenario(a, loaded.catalog, err);
    if (!scenario) {
        return kBadInput;
    }
    const std::string script = core::probeScript(*scenario);
    const std::string temporary = *a.output + ".tmp";
    {
        std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
        file << script;
        if (!file.flush()) {
            err << "gpusizer-cli: cannot write '" << *a.output << "'\n";
            std::remove(temporary.c_str());
            return kOutputFailed;
        }
    }
    if (std::rename(temporary.c_str(), a.output->c_str()) != 0) {
        err << "gpusizer-cli: cannot write '" << *a.output << "'\n";
        std::remove(temporary.c_str());
        return kOutputFailed;
    }
    out << "measurement script written to " << *a.output << "\nrun it on the GPU: python3 " << *a.output
        << " --out result.json\n";
    return kOk;
}

int compareMeasuredCommand(const Args& a, std::ostream& out, std::ostream& err) {
    if (a.positional.size() != 2) {
        err << "gpusizer-cli: compare-measured needs a scenario file and a result file\n";
        return kUsage;
    }
    const auto loaded = loadCatalogs(err);
    Args scenarioArgs = a;
    scenarioArgs.positional = {a.positional[0]};
    const auto scenario = loadScenario(scenarioArgs, loaded.catalog, err);
    if (!scenario) {
        return kBadInput;
    }
    const auto bytes = readFile(a.positional[1], err);
    if (!bytes) {
        return kBadInput;
    }
    const auto measurement = core::parseMeasurement(*bytes, a.positional[1], loaded.catalog);
    if (!measurement) {
        printError(err, measurement.error());
        return kBadInput;
    }
    const auto comparison = core::compareMeasured(*scenario, *measurement, loaded.catalog);
    if (!comparison) {
        printError(err, comparison.error());
        return kBadInput;
    }
    if (a.json) {
        json rows = json::array();
        for (const auto& r : comparison->rows) {
            json j{{"what", r.what}, {"available", r.available}, {"estimated", r.estimated}};
            if (r.available) {
                j["measured"] = r.measured;
                j["error_share"] = r.errorShare;
            }
            rows.push_back(j);
        }
        json notes = json::array();
        for (const auto& n : comparison->notes) {
            notes.push_back({{"code", n.code}, {"message", n.message}});
        }
        out << json{{"format", "gpusizer-comparison"},
                    {"version", 1},
                    {"device", measurement->device},
                    {"cpu_run", measurement->cpuRun()},
                    {"gpu", comparison->gpu != nullptr ? json(comparison->gpu->id) : json(nullptr)},
                    {"rows", rows},
                    {"notes", notes}}
                   .dump(2)
            << "\n";
        return kOk;
    }
    out << "Measured on " << present::english(present::runLabel(*measurement)) << " with "
        << measurement->implementation << ":\n";
    out << present::renderText(
        present::measuredTable({{present::runLabel(*measurement), *comparison}})
            .select({present::MeasFigure, present::MeasEstimated, present::MeasMeasured, present::MeasError}),
        "  ");
    for (const auto& n : comparison->notes) {
        out << "note: " << n.message << "\n";
    }
    return kOk;
}

int gpusCommand(const Args& a, std::ostream& out, std::ostream& err) {
    const auto loaded = loadCatalogs(err);
    if (a.json) {
        json list = json::array();
        for (const auto& g : loaded.catalog.gpus) {
            list.push_back({{"id", g.id},
                            {"vendor", g.vendor},
                            {"name", g.name},
                            {"memory_gib", g.memoryGiBStated},
                            {"usable_gib", g.memoryGiBUsable},
                            {"bandwidth_tbs", g.bandwidthTBs},
                            {"bf16_tflops", g.bf16Tflops},
                            {"fp8_tflops", g.fp8Tflops},
                            {"link", g.link.kind},
                            {"link_gbs", g.link.bandwidthGBs},
                            {"price_on_demand_usd_hour", g.priceOnDemandUsdHour},
                            {"price_spot_usd_hour", g.priceSpotUsdHour}});
        }
        out << json{{"format", "gpusizer-gpus"}, {"version", 1}, {"gpus", list}}.dump(2) << "\n";
        return kOk;
    }
    out << std::left << std::setw(18) << "id" << std::setw(30) << "name" << std::right << std::setw(10) << "GiB"
        << std::setw(10) << "usable" << std::setw(10) << "BF16 TF" << std::setw(10) << "$/h"
        << "\n";
    for (const auto& g : loaded.catalog.gpus) {
        out << std::left << std::setw(18) << g.id << std::setw(30) << g.name << std::right << std::fixed
            << std::setprecision(0) << std::setw(10) << g.memoryGiBStated << std::setprecision(1) << std::setw(10)
            << g.memoryGiBUsable << std::setprecision(0) << std::setw(10) << g.bf16Tflops << std::setprecision(2)
            << std::setw(10) << g.priceOnDemandUsdHour << "\n";
    }
    out << "(GiB = 2^30 bytes; prices illustrative, per GPU-hour on demand)\n";
    return kOk;
}

int modelsCommand(const Args& a, std::ostream& out, std::ostream& err) {
    const auto loaded = loadCatalogs(err);
    if (a.json) {
        json list = json::array();
        for (const auto& m : loaded.catalog.models) {
            list.push_back({{"id", m.id},
                            {"name", m.name},
                            {"family", m.family},
                            {"params", core::countParams(m.arch).total},
                            {"published_params_billion", m.publishedParamsBillion},
                            {"config", core::archToHfConfig(m.arch)}});
        }
        out << json{{"format", "gpusizer-models"}, {"version", 1}, {"models", list}}.dump(2) << "\n";
        return kOk;
    }
    out << std::left << std::setw(20) << "id" << std::setw(28) << "name" << std::right << std::setw(14) << "params"
        << "\n";
    for (const auto& m : loaded.catalog.models) {
        out << std::left << std::setw(20) << m.id << std::setw(28) << m.name << std::right << std::setw(14)
            << billions(core::countParams(m.arch).total) << "\n";
    }
    return kOk;
}

int importHfCommand(const Args& a, std::ostream& out, std::ostream& err) {
    if (a.positional.size() != 1) {
        err << "gpusizer-cli: import-hf needs exactly one config.json\n" << kUsageText;
        return kUsage;
    }
    const auto config = readFile(a.positional[0], err);
    if (!config) {
        return kBadInput;
    }
    std::optional<std::string> index;
    if (a.index) {
        index = readFile(*a.index, err);
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
        json warnings = json::array();
        for (const auto& w : imported->warnings) {
            warnings.push_back({{"code", w.code}, {"message", w.message}});
        }
        json doc{{"format", "gpusizer-import"},
                 {"version", 1},
                 {"model_type", imported->modelType},
                 {"params", {{"total", params.total}, {"active_per_token", params.activePerToken}}},
                 {"config", core::archToHfConfig(imported->arch)},
                 {"warnings", warnings}};
        if (imported->weightBytes) {
            doc["weight_bytes"] = *imported->weightBytes;
        }
        out << doc.dump(2) << "\n";
        return kOk;
    }
    out << "model_type  " << imported->modelType << "\n";
    out << "parameters  " << billions(params.total) << " (" << params.total << ")";
    if (imported->arch.isMoe()) {
        out << ", " << billions(params.activePerToken) << " active per token";
    }
    out << "\n";
    if (imported->weightBytes) {
        out << "weights     " << gib(*imported->weightBytes) << " (from the safetensors index)\n";
    }
    for (const auto& w : imported->warnings) {
        out << "assumed     " << w.message << "\n";
    }
    return kOk;
}

} // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (args.empty()) {
        err << kUsageText;
        return kUsage;
    }
    const std::string& command = args[0];
    if (command == "--version" || command == "version") {
        out << "gpusizer-cli " << core::versionString() << "\n";
        return kOk;
    }
    if (command == "help" || command == "--help" || command == "-h") {
        out << kUsageText;
        return kOk;
    }
    const Args a = parseArgs(args, 1);
    if (!a.unknownOption.empty()) {
        err << "gpusizer-cli: unknown option '" << a.unknownOption << "'\n" << kUsageText;
        return kUsage;
    }
    if (command == "estimate") {
        return estimateCommand(a, out, err);
    }
    if (command == "gpus") {
        return gpusCommand(a, out, err);
    }
    if (command == "models") {
        return modelsCommand(a, out, err);
    }
    if (command == "import-hf") {
        return importHfCommand(a, out, err);
    }
    if (command == "advise") {
        return adviseCommand(a, out, err);
    }
    if (command == "sizing-table") {
        return sizingTableCommand(a, out, err);
    }
    if (command == "probe-script") {
        return probeScriptCommand(a, out, err);
    }
    if (command == "compare-measured") {
        return compareMeasuredCommand(a, out, err);
    }
    if (command == "fit") {
        return fitOrPlanCommand(a, false, out, err);
    }
    if (command == "plan") {
        return fitOrPlanCommand(a, true, out, err);
    }
    if (command == "report") {
        if (a.positional.size() != 1 || !a.output) {
            err << "gpusizer-cli: report needs a scenario file and -o FILE.pdf\n" << kUsageText;
            return kUsage;
        }
#if GPUSIZER_CLI_HAS_REPORT
        return reportCommand(a.positional[0], *a.output, a.pageSize, out, err);
#else
        err << "gpusizer-cli: this build has no Qt user interface, so it cannot draw the PDF report\n";
        return kUsage;
#endif
    }
    err << "gpusizer-cli: unknown command '" << command << "'\n" << kUsageText;
    return kUsage;
}

} // namespace gpusizer::cli
