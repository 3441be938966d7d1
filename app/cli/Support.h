#pragma once
// What every command shares: its parsed options, the catalogs and the scenario it reads, the planning options,
// reading and writing files (the same helpers the window uses), and how problems are printed.

#include "Cli.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/import/TrainingConfig.h"
#include "gpusizer/plan/Planning.h"
#include "gpusizer/scenario/Result.h"
#include "gpusizer/scenario/Scenario.h"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace gpusizer::cli {

/// The options of one invocation (after the command name).
struct Args {
    std::vector<std::string> positional;
    bool json = false;
    std::optional<std::string> index;
    std::optional<std::string> output;
    std::optional<std::string> gpu;
    std::optional<std::string> tokens;
    std::optional<std::string> basis; ///< import-lengths: max, p99 or p95
    std::optional<std::string> epochs;
    std::optional<std::string> mfu;
    bool spot = false;
    bool noOffload = false;
    std::optional<std::string> objective;
    std::optional<std::string> maxGpus;
    std::optional<std::string> network;
    std::optional<std::string> hostRamGib;
    std::optional<std::string> margin;
    // The bill (plan): core::BillAssumptions.
    std::optional<std::string> interruptionsPerDay;
    std::optional<std::string> storageGbps;
    std::optional<std::string> egressUsdPerGb;
    std::optional<std::string> keepDays;
    std::optional<std::string> checkpointHours;
    std::optional<std::string> restartMinutes;
    // Around the steps (core::FixedCostAssumptions), the deadline and the global batch.
    std::optional<std::string> provisionMinutes;
    std::optional<std::string> environmentMinutes;
    std::optional<std::string> downloadGbps;
    std::optional<std::string> deadlineHours;
    std::optional<std::string> globalBatch; ///< N (fixed) or MIN-MAX (flexible), sequences per optimizer step
    // Training-config import (import-config, and any command given a training config instead of a scenario).
    std::optional<std::string> modelConfig;
    std::optional<std::string> format;
    std::optional<std::string> gpus;
    std::vector<std::string> overrides; ///< tune run-style key=value / ~key
    std::string pageSize = "A4";
    std::optional<std::string> page; ///< import-keys: the template of docs/import.md
    std::string language; ///< report: the report's language (en, zh_CN); empty follows the locale, as the window does
    std::string unknownOption;
};

Args parseArgs(const std::vector<std::string>& args, std::size_t from);

/// "gpusizer-cli: <where>: <message>".
void printError(std::ostream& err, const core::Error& e);

/// The shipped catalogs and the user's catalog folder; problems with the user's files are warnings on err.
catalogs::LoadedCatalog loadCatalogs(std::ostream& err);

/// A file's bytes (catalogs::readDocument: a regular file within the size limit); prints why not.
std::optional<std::string> readInput(const std::string& path, std::ostream& err);

/// Writes a file atomically (catalogs::writeDocument); prints why not.
bool writeOutput(const std::string& path, const std::string& bytes, std::ostream& err);

/// Reads the one scenario file a command takes; prints the problem (and warnings) and returns nullopt on failure.
std::optional<core::Scenario> loadScenario(const Args& a, const core::Catalog& catalog, std::ostream& err);

/// Imports the positional training configs (with --model-config, --format, --gpus and key=value overrides); prints
/// the problem and returns nullopt on failure.
std::optional<core::ImportedRun> importRun(const Args& a, const core::Catalog& catalog, std::ostream& err);

/// The planning options of fit, plan, advise and sizing-table; nullopt (after printing why) when one is not valid.
std::optional<core::PlanInputs> planInputsFrom(const Args& a, const core::Scenario& scenario, std::ostream& err);

} // namespace gpusizer::cli
