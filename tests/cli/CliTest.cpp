// Runs the real gpusizer-cli binary and checks what a user sees: output, exit status, messages.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace {

struct RunResult {
    int status = -1;
    std::string out;
    std::string err;
};

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

RunResult runCli(const std::string& arguments, const std::string& environment = {}) {
    const auto errFile = std::filesystem::temp_directory_path() / ("gpusizer_cli_err_" + std::to_string(::getpid()));
    const std::string command = (environment.empty() ? "" : "env '" + environment + "' ") + std::string(GPUSIZER_CLI) +
                                " " + arguments + " 2>" + errFile.string();
    RunResult r;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) {
        return r;
    }
    std::array<char, 4096> buffer{};
    std::size_t n = 0;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
        r.out.append(buffer.data(), n);
    }
    const int raw = ::pclose(pipe);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.err = slurp(errFile);
    std::filesystem::remove(errFile);
    return r;
}

std::string data(const std::string& name) {
    return std::string(GPUSIZER_TEST_DATA_DIR) + "/" + name;
}

} // namespace

TEST(Cli, VersionPrintsTheProjectVersion) {
    const auto r = runCli("--version");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, "gpusizer-cli 0.1.0\n");
}

TEST(Cli, NoArgumentsIsAUsageError) {
    const auto r = runCli("");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("Usage: gpusizer-cli"), std::string::npos);
}

// docs/scenario-format.md quotes `gpusizer-cli fields` whole: the page cannot drift from the field table.
TEST(Cli, TheScenarioFormatPageQuotesTheFieldTable) {
    const auto r = runCli("fields");
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream in(std::string(GPUSIZER_DOCS_DIR) + "/scenario-format.md");
    const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string open = "```\n";
    const auto start = page.find(open + "Scenario file fields");
    ASSERT_NE(start, std::string::npos);
    const auto end = page.find("```", start + open.size());
    ASSERT_NE(end, std::string::npos);
    EXPECT_EQ(page.substr(start + open.size(), end - start - open.size()), r.out);
}

// docs/import.md is its template with the readers' own key tables: the page cannot drift from the code that reads.
TEST(Cli, TheImportPageIsPrintedFromTheReadersTables) {
    const auto r = runCli("import-keys --page " + std::string(GPUSIZER_DOCS_DIR) + "/import.md.in");
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream in(std::string(GPUSIZER_DOCS_DIR) + "/import.md");
    const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(page, r.out) << "docs/import.md is stale: cmake --build --preset dev --target import_doc";
    // PEFT's LoRA rank: PEFT's LoraConfig default r = 8 (tuners/lora/config.py), read from the row the reader uses.
    EXPECT_NE(page.find("| `r` | lora.rank | 8 | src/peft/tuners/lora/config.py LoraConfig |"), std::string::npos);
}

// A template that leaves a format's table out, or names one that has none, is refused with the line.
TEST(Cli, TheImportPageTemplateMustPlaceEveryTable) {
    const auto dir = std::filesystem::temp_directory_path() / "gpusizer-import-keys";
    std::filesystem::create_directories(dir);
    const auto missing = dir / "missing.md.in";
    std::ofstream(missing) << "# Importing\n\n@IMPORT_KEYS peft@\n";
    auto r = runCli("import-keys --page " + missing.string());
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("the page has no @IMPORT_KEYS axolotl@"), std::string::npos) << r.err; // the first it lacks
    const auto unknown = dir / "unknown.md.in";
    std::ofstream(unknown) << "x\n@IMPORT_KEYS megatron@\n";
    r = runCli("import-keys --page " + unknown.string());
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("unknown.md.in:2: no key table for 'megatron'"), std::string::npos) << r.err;
}

// One format's keys as JSON, each with its whole citation: accelerate's num_processes defaults to 1
// (accelerate commands/config/config_args.py:180), and a row citing another repository keeps that repository's commit.
TEST(Cli, ImportKeysJsonCitesEachKeysSourceWhole) {
    const auto r = runCli("import-keys accelerate --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc.at("format"), "gpusizer-import-keys");
    const auto& keys = doc.at("keys");
    const auto find = [&](const std::string& key) {
        for (const auto& k : keys) {
            EXPECT_EQ(k.at("format"), "accelerate"); // only the format asked for
            if (k.at("key") == key) {
                return k;
            }
        }
        return nlohmann::json();
    };
    const auto processes = find("`num_processes`");
    ASSERT_FALSE(processes.is_null()) << r.out;
    EXPECT_EQ(processes.at("field"), "gpus (every machine's processes)");
    EXPECT_EQ(processes.at("source"),
              "accelerate @16cb6eb8 commands/config/config_args.py:180 (all machines' processes)");
    const auto buckets = find("(the generated DeepSpeed config's buckets)");
    ASSERT_FALSE(buckets.is_null()) << r.out;
    EXPECT_EQ(buckets.at("source"), "DeepSpeed @edaa7221 zero/config.py:113, :215"); // not under accelerate's commit
    const auto unknown = runCli("import-keys megatron");
    EXPECT_EQ(unknown.status, 1);
    EXPECT_NE(unknown.err.find("no key table for 'megatron' (axolotl, "), std::string::npos) << unknown.err;
}

TEST(Cli, EstimateJsonHasStableKeysAndIntegerBytes) {
    const auto r = runCli("estimate " + data("scenarios/llama31-8b-lora.json") + " --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc.at("format"), "gpusizer-estimate");
    EXPECT_EQ(doc.at("version"), 1);
    // LoRA r16 on q and v of Llama-3.1-8B: per layer q 16*(4096+4096) + v 16*(4096+1024) = 212,992; x32 = 6,815,744
    EXPECT_EQ(doc.at("params").at("trainable"), 6'815'744);
    EXPECT_EQ(doc.at("params").at("total"), 8'030'261'248);
    const auto& perGpu = doc.at("per_gpu");
    std::int64_t sum = 0;
    for (const char* key :
         {"weights", "gradients", "optimizer_states", "activations", "logits_loss", "transient", "overhead"}) {
        ASSERT_TRUE(perGpu.at("components").at(key).is_number_integer()) << key;
        sum += perGpu.at("components").at(key).get<std::int64_t>();
    }
    EXPECT_EQ(sum, perGpu.at("device_bytes").get<std::int64_t>());
    EXPECT_LE(perGpu.at("allocated_peak_bytes").get<std::int64_t>(),
              perGpu.at("reserved_peak_bytes").get<std::int64_t>());
    EXPECT_LT(perGpu.at("band").at("low_bytes").get<std::int64_t>(), perGpu.at("device_bytes").get<std::int64_t>());
}

TEST(Cli, EstimateTextShowsGiBAndLabels) {
    const auto r = runCli("estimate " + data("scenarios/llama31-8b-lora.json"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Per GPU"), std::string::npos);
    EXPECT_NE(r.out.find("GiB"), std::string::npos);
    EXPECT_NE(r.out.find("optimizer_states"), std::string::npos);
    EXPECT_NE(r.out.find("nvidia-smi"), std::string::npos);
}

TEST(Cli, UnknownKeysWarnButDoNotFail) {
    const auto r = runCli("estimate " + data("scenarios/hf-config-full.json") + " --json");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("favourite_colour"), std::string::npos);
    EXPECT_EQ(nlohmann::json::parse(r.out).at("data_parallel"), 8);
}

TEST(Cli, BadInputExitsTwoAndNamesTheProblem) {
    struct Case {
        const char* file;
        const char* mustMention;
    };
    for (const Case& c :
         {Case{"scenarios/truncated.json", "not valid JSON"}, Case{"scenarios/bad-enum.json", "optimizer"},
          Case{"scenarios/negative-batch.json", "micro_batch"},
          Case{"scenarios/missing-model-keys.json", "num_attention_heads"},
          Case{"scenarios/does-not-exist.json", "cannot open"}}) {
        const auto r = runCli(std::string("estimate ") + data(c.file));
        EXPECT_EQ(r.status, 2) << c.file;
        EXPECT_NE(r.err.find(c.mustMention), std::string::npos) << c.file << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << c.file;
    }
}

TEST(Cli, CatalogListsAreJson) {
    const auto gpus = runCli("gpus --json");
    ASSERT_EQ(gpus.status, 0);
    EXPECT_GE(nlohmann::json::parse(gpus.out).at("gpus").size(), 25u);
    const auto models = runCli("models --json");
    ASSERT_EQ(models.status, 0);
    EXPECT_GE(nlohmann::json::parse(models.out).at("models").size(), 30u);
}

TEST(Cli, UserCatalogFilesOverrideShippedEntriesAndBrokenOnesAreReported) {
    const auto dir = std::filesystem::temp_directory_path() / ("gpusizer_cli_catalogs_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "gpus-mine.json") << R"json({"schemaVersion": 1, "gpus": [
        {"id": "my-card", "vendor": "Acme", "name": "Acme One", "memory_gib": 16, "usable_gib": 15,
         "bandwidth_tbs": 0.5, "bf16_tflops": 50, "fp32_tflops": 10,
         "interconnect": {"pcie_gen": 4, "pcie_lanes": 16, "link": "none", "link_gbs": 0},
         "gpus_per_node": 1, "ecc": false, "form_factor": "PCIe", "tdp_w": 200,
         "price": {"on_demand_usd_hour": 0.2, "spot_usd_hour": 0.1, "as_of": "2026-11", "note": "prices vary"},
         "sources": ["vendor sheet"]},
        {"id": "half-card", "vendor": "Acme"}]})json";
    std::ofstream(dir / "models-broken.json") << "{ not json";
    std::filesystem::create_directories(dir / "gpus-folder.json"); // named like a catalog, but cannot be read
    std::ofstream(dir / "scenario-on-my-card.json")
        << R"json({"format": "gpusizer-scenario", "version": 1, "model": "llama-2-7b", "gpu": "my-card"})json";
    const auto r = runCli("gpus --json", "GPUSIZER_CATALOG_DIR=" + dir.string());
    // Every command reads the same folder, the PDF report included.
    ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
    const auto pdf = dir / "report.pdf";
    const auto report = runCli("report " + (dir / "scenario-on-my-card.json").string() + " -o " + pdf.string(),
                               "GPUSIZER_CATALOG_DIR=" + dir.string());
    const bool pdfWritten = std::filesystem::exists(pdf);
    std::filesystem::remove_all(dir);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Acme One"), std::string::npos);
    EXPECT_NE(r.err.find("half-card"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("models-broken.json"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("gpus-folder.json: is a folder, not a file"), std::string::npos) << r.err;
    EXPECT_EQ(report.status, 0) << report.err;
    EXPECT_TRUE(pdfWritten);
}

TEST(Cli, ImportHfReportsCountsAndTheIndexSize) {
    const auto r = runCli("import-hf " + data("hf-configs/llama-3.1-8b.json") + " --index " +
                          data("hf-configs/llama-3.1-8b.safetensors.index.json") + " --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc.at("params").at("total"), 8'030'261'248);
    EXPECT_EQ(doc.at("weight_bytes"), 16'060'522'496);
    const auto bad = runCli("import-hf " + data("scenarios/truncated.json"));
    EXPECT_EQ(bad.status, 2);
}

TEST(Cli, ReportWritesAPdfHeadlessly) {
    const auto out =
        std::filesystem::temp_directory_path() / ("gpusizer_cli_report_" + std::to_string(::getpid()) + ".pdf");
    const auto r =
        runCli("report " + data("scenarios/llama31-8b-lora.json") + " -o " + out.string() + " --page-size Letter",
               "QT_QPA_PLATFORM=offscreen");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("report written to"), std::string::npos);
    ASSERT_TRUE(std::filesystem::exists(out));
    std::ifstream pdf(out, std::ios::binary);
    std::string head(5, '\0');
    pdf.read(head.data(), 5);
    EXPECT_EQ(head, "%PDF-");
    std::filesystem::remove(out);
    EXPECT_EQ(runCli("report " + data("scenarios/llama31-8b-lora.json") + " -o x.pdf --page-size A3").status, 1);
    EXPECT_EQ(runCli("report " + data("scenarios/bad-enum.json") + " -o x.pdf", "QT_QPA_PLATFORM=offscreen").status, 2);
}

TEST(Cli, AdviseAndSizingTableAreJson) {
    const auto advice = runCli("advise " + data("scenarios/llama31-8b-lora.json") + " --gpu rtx-4090 --json");
    ASSERT_EQ(advice.status, 0) << advice.err;
    const auto doc = nlohmann::json::parse(advice.out);
    EXPECT_FALSE(doc.at("fits").get<bool>());
    EXPECT_EQ(doc.at("steps").size(), 20u); // one per FixKind rung
    EXPECT_EQ(doc.at("steps")[0].at("fix"), "smaller_micro_batch");
    EXPECT_TRUE(doc.contains("first_fitting_combination"));
    EXPECT_EQ(runCli("advise " + data("scenarios/llama31-8b-lora.json")).status, 1);                 // no --gpu
    EXPECT_EQ(runCli("advise " + data("scenarios/llama31-8b-lora.json") + " --gpu nope").status, 2); // unknown GPU
    const auto table = runCli("sizing-table " + data("scenarios/llama31-8b-lora.json") + " --json");
    ASSERT_EQ(table.status, 0) << table.err;
    EXPECT_EQ(nlohmann::json::parse(table.out).at("rows").size(), 6u);
}

TEST(Cli, FitAndPlanRankConfigurations) {
    const auto fit = runCli("fit " + data("scenarios/hf-config-full.json") + " --json");
    ASSERT_EQ(fit.status, 0) << fit.err;
    const auto fitDoc = nlohmann::json::parse(fit.out);
    EXPECT_EQ(fitDoc.at("version"), 2); // version 2: the planner's chosen layout, runners-up and reasons
    EXPECT_GE(fitDoc.at("results").size(), 25u);
    const auto plan = runCli("plan " + data("scenarios/llama31-8b-lora.json") + " --tokens 1e8 --epochs 2 --json");
    ASSERT_EQ(plan.status, 0) << plan.err;
    const auto doc = nlohmann::json::parse(plan.out);
    EXPECT_EQ(doc.at("inputs").at("epochs"), 2.0);
    EXPECT_EQ(doc.at("inputs").at("objective"), "cost"); // the default: the cheapest plan, fixed costs included
    EXPECT_TRUE(doc.at("ranking").at("cheapest").is_string());
    EXPECT_TRUE(doc.at("ranking").at("chosen").is_string());
    for (const auto& r : doc.at("results")) {
        if (r.at("fits").get<bool>()) {
            const auto& c = r.at("chosen");
            // Billed hours: the wall time on every card, rounded up to the price's billing unit (a minute at most
            // in the shipped catalog).
            const double cards = c.at("gpus").get<double>();
            EXPECT_GE(c.at("gpu_hours").get<double>(), c.at("wall_hours").get<double>() * cards - 1e-9);
            EXPECT_LE(c.at("gpu_hours").get<double>(), (c.at("wall_hours").get<double>() + 1.0 / 60.0) * cards);
            for (const auto& ru : r.at("runners_up")) {
                EXPECT_FALSE(ru.at("why_lost").get<std::string>().empty());
            }
        }
    }
    EXPECT_EQ(runCli("plan " + data("scenarios/llama31-8b-lora.json")).status, 1);                    // no --tokens
    EXPECT_EQ(runCli("plan " + data("scenarios/llama31-8b-lora.json") + " --tokens lots").status, 2); // not a number
}

TEST(Cli, PlanOptionsReachThePlanner) {
    const std::string scenario = data("scenarios/llama31-8b-lora.json");
    const auto cost = runCli("plan " + scenario +
                             " --tokens 1e8 --objective cost --no-offload --max-gpus 16 "
                             "--network eth100 --host-ram-gib 512 --margin 20 --json");
    ASSERT_EQ(cost.status, 0) << cost.err;
    const auto doc = nlohmann::json::parse(cost.out);
    EXPECT_EQ(doc.at("inputs").at("objective"), "cost");
    EXPECT_EQ(doc.at("inputs").at("network"), "eth100");
    EXPECT_EQ(doc.at("inputs").at("max_gpus"), 16);
    EXPECT_EQ(doc.at("inputs").at("allow_offload"), false);
    EXPECT_DOUBLE_EQ(doc.at("inputs").at("margin_share").get<double>(), 0.20);
    for (const auto& r : doc.at("results")) {
        if (r.at("fits").get<bool>()) {
            EXPECT_LE(r.at("chosen").at("gpus").get<int>(), 16);
            EXPECT_EQ(r.at("chosen").at("offload"), "none");
            EXPECT_DOUBLE_EQ(r.at("chosen").at("margin_share").get<double>(), 0.20);
        }
    }
    for (const char* bad : {" --objective cheapest", " --network wifi", " --margin -3", " --max-gpus 0"}) {
        EXPECT_EQ(runCli("plan " + scenario + " --tokens 1e8" + bad).status, 2) << bad;
    }
}

namespace {

/// Debian's python3 (with python3-torch from the bootstrap) when present, else whatever python3 is on PATH.
std::string python() {
    return std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
}

bool pythonHasTorch() {
    return std::system((python() + " -c 'import torch' >/dev/null 2>&1").c_str()) == 0;
}

/// One CPU step of the measurement script for `scenario`, written with its script, log and result under `dir`: the
/// script's exit status (-1 when probe-script refused the scenario), what it printed, and its result (null when it
/// wrote none).
struct CpuRun {
    int status = -1;
    std::string log;
    nlohmann::json result;
};

CpuRun runScriptOnCpu(const nlohmann::json& scenario, const std::filesystem::path& dir) {
    std::filesystem::create_directories(dir);
    const auto scenarioFile = dir / "scenario.json";
    const auto script = dir / "probe.py";
    const auto result = dir / "result.json";
    const auto log = dir / "log.txt";
    std::filesystem::remove(result);
    std::ofstream(scenarioFile) << scenario.dump();
    CpuRun out;
    const auto generated = runCli("probe-script " + scenarioFile.string() + " -o " + script.string());
    if (generated.status != 0) {
        out.log = generated.err;
        return out;
    }
    const std::string run = python() + " " + script.string() + " --device cpu --steps 1 --warmup 0 --out " +
                            result.string() + " > " + log.string() + " 2>&1";
    out.status = std::system(run.c_str());
    out.log = slurp(log);
    if (std::filesystem::exists(result)) {
        out.result = nlohmann::json::parse(slurp(result));
    }
    return out;
}

} // namespace

TEST(Cli, MeasurementScriptsCompileForEveryMethod) {
    for (const char* scenario : {"scenarios/tiny-full.json", "scenarios/tiny-lora.json", "scenarios/tiny-qlora.json",
                                 "scenarios/llama31-8b-lora.json"}) {
        const auto script =
            std::filesystem::temp_directory_path() / ("gpusizer_probe_" + std::to_string(::getpid()) + ".py");
        const auto r = runCli("probe-script " + data(scenario) + " -o " + script.string());
        ASSERT_EQ(r.status, 0) << scenario << ": " << r.err;
        EXPECT_EQ(std::system((python() + " -m py_compile " + script.string()).c_str()), 0) << scenario;
        const std::string text = slurp(script);
        EXPECT_NE(text.find("gpusizer-measurement"), std::string::npos);
        EXPECT_NE(text.find("max_memory_allocated"), std::string::npos);
        std::filesystem::remove(script);
    }
}

TEST(Cli, CpuSmokeRunsOfTheScriptAreReadBack) {
    if (!pythonHasTorch()) {
        GTEST_SKIP() << "python3-torch is not installed (scripts/bootstrap.sh installs it)";
    }
    for (const char* scenario : {"scenarios/tiny-full.json", "scenarios/tiny-lora.json"}) {
        const auto dir = std::filesystem::temp_directory_path() / ("gpusizer_smoke_" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        const auto script = dir / "probe.py";
        const auto result = dir / "result.json";
        ASSERT_EQ(runCli("probe-script " + data(scenario) + " -o " + script.string()).status, 0);
        const std::string run = python() + " " + script.string() + " --device cpu --steps 2 --warmup 1 --out " +
                                result.string() + " >/dev/null 2>&1";
        ASSERT_EQ(std::system(run.c_str()), 0) << scenario;
        const auto r = runCli("compare-measured " + data(scenario) + " " + result.string() + " --json");
        ASSERT_EQ(r.status, 0) << scenario << ": " << r.err;
        const auto doc = nlohmann::json::parse(r.out);
        EXPECT_TRUE(doc.at("cpu_run").get<bool>()); // CPU runs are marked, never calibrate
        const auto written = nlohmann::json::parse(slurp(result));
        EXPECT_EQ(written.at("built_on"), "meta");
        EXPECT_GT(written.at("seconds_to_first_step").get<double>(), 0.0);
        EXPECT_EQ(written.at("optimizer_options"), nlohmann::json({{"foreach", true}})); // the generic profile's
        // The script's model is the scenario's: the tiny Llama has 2 x 128 x 64 embeddings and 2 layers of
        // 36,992 parameters (+ 64 for the final norm) = 106,816; LoRA r16 on q and v adds 2 x (2,048 + 1,536).
        const std::int64_t base = 106'816;
        const bool lora = std::string(scenario).find("lora") != std::string::npos;
        EXPECT_EQ(written.at("params_total").get<std::int64_t>(), lora ? base + 7'168 : base);
        std::filesystem::remove_all(dir);
    }
}

// The script runs the preference objectives as TRL computes them (its own log-probabilities, the reference pass,
// ORPO's NLL, KTO's KL completions): each runs a CPU step and records the objective; a full fine-tuning DPO builds its
// frozen reference copy, a LoRA one runs the reference with its adapters disabled.
TEST(Cli, TheScriptRunsEachPreferenceObjective) {
    if (!pythonHasTorch()) {
        GTEST_SKIP() << "python3-torch is not installed (scripts/bootstrap.sh installs it)";
    }
    struct Case {
        const char* kind;
        const char* scenario;
        bool copy;
    };
    for (const Case& c :
         {Case{"dpo", "scenarios/tiny-full.json", true}, Case{"ipo", "scenarios/tiny-lora.json", false},
          Case{"orpo", "scenarios/tiny-full.json", false}, Case{"simpo", "scenarios/tiny-lora.json", false},
          Case{"kto", "scenarios/tiny-lora.json", false}}) {
        const auto dir = std::filesystem::temp_directory_path() /
                         ("gpusizer_pref_" + std::string(c.kind) + std::to_string(::getpid()));
        auto scenario = nlohmann::json::parse(slurp(data(c.scenario)));
        scenario["run_kind"] = c.kind;
        scenario["micro_batch"] = 2;
        const CpuRun ran = runScriptOnCpu(scenario, dir);
        ASSERT_EQ(ran.status, 0) << c.kind << ": " << ran.log;
        const nlohmann::json& written = ran.result;
        EXPECT_EQ(written.at("scenario").at("run_kind"), c.kind);
        EXPECT_EQ(ran.log.find("reference model: a frozen copy") != std::string::npos, c.copy) << c.kind;
        // Paired objectives put 2 x 2 sequences of the tiny scenario's length through each step.
        const double rows = std::string(c.kind) == "kto" ? 2.0 : 4.0;
        const double perStep = rows * scenario.at("seq_len").get<double>();
        EXPECT_NEAR(written.at("tokens_per_second").get<double>() * written.at("step_seconds")[0].get<double>(),
                    perStep, perStep * 1e-9)
            << c.kind;
        std::filesystem::remove_all(dir);
    }
}

// An OpenRLHF DPO scenario (its reference model beside the adapters, its fp32 log-probs) runs TRL's way in the script:
// the result's scenario says so, so that compare-measured estimates what ran rather than OpenRLHF's layout.
TEST(Cli, TheScriptRecordsTheFrameworkBehavioursItDoesNotRun) {
    if (!pythonHasTorch()) {
        GTEST_SKIP() << "python3-torch is not installed (scripts/bootstrap.sh installs it)";
    }
    const auto dir = std::filesystem::temp_directory_path() / ("gpusizer_openrlhf_" + std::to_string(::getpid()));
    auto scenario = nlohmann::json::parse(slurp(data("scenarios/tiny-lora.json")));
    scenario["run_kind"] = "dpo";
    scenario["micro_batch"] = 1;
    scenario["framework_overrides"] = {{"logprobs_from_fp32_logits", true}, {"reference_copy_with_adapters", true}};
    const CpuRun openrlhf = runScriptOnCpu(scenario, dir);
    ASSERT_EQ(openrlhf.status, 0) << openrlhf.log;
    const auto& ran = openrlhf.result.at("scenario");
    EXPECT_EQ(ran.at("framework_overrides").at("logprobs_from_fp32_logits"), false);
    EXPECT_EQ(ran.at("framework_overrides").at("reference_copy_with_adapters"), false);
    EXPECT_NE(openrlhf.log.find("framework_overrides.reference_copy_with_adapters: true -> false"), std::string::npos);
    // ColossalAI's booster and its loop, which keeps the model's output, are not what the script runs: the result
    // names the generic stack it did run.
    scenario["run_kind"] = "sft";
    scenario.erase("framework_overrides");
    scenario["framework"] = "colossalai";
    const CpuRun colossal = runScriptOnCpu(scenario, dir);
    ASSERT_EQ(colossal.status, 0) << colossal.log;
    EXPECT_EQ(colossal.result.at("scenario").at("framework"), "generic");
    std::filesystem::remove_all(dir);
}

// GRPO as TRL's transformers path runs it: each step samples micro_batch x gradient_accumulation completions with a
// key/value cache, takes the reference's log-probs with a KL term, then trains a micro-batch at a time; a full
// fine-tuning GRPO with a KL term builds its frozen reference copy. vLLM is not run: the result says the run was
// measured with transformers' generation instead.
TEST(Cli, TheScriptRunsGrpoWithItsOwnGeneration) {
    if (!pythonHasTorch()) {
        GTEST_SKIP() << "python3-torch is not installed (scripts/bootstrap.sh installs it)";
    }
    const auto dir = std::filesystem::temp_directory_path() / ("gpusizer_grpo_" + std::to_string(::getpid()));
    auto scenario = nlohmann::json::parse(slurp(data("scenarios/tiny-full.json")));
    scenario["run_kind"] = "grpo";
    scenario["completion_length"] = 16;
    scenario["num_generations"] = 2;
    scenario["micro_batch"] = 2;
    scenario["gradient_accumulation"] = 2;
    scenario["kl_beta"] = 0.04;
    scenario["generation"] = "vllm-colocate";
    const CpuRun grpo = runScriptOnCpu(scenario, dir);
    ASSERT_EQ(grpo.status, 0) << grpo.log;
    const nlohmann::json& written = grpo.result;
    const auto& ran = written.at("scenario");
    EXPECT_EQ(ran.at("run_kind"), "grpo");
    EXPECT_EQ(ran.at("gradient_accumulation"), 2); // a step is an optimizer step over its generation batch
    EXPECT_EQ(ran.at("generation"), "transformers");
    EXPECT_NE(grpo.log.find("4 completions of 16 tokens"), std::string::npos) << grpo.log;
    EXPECT_NE(grpo.log.find("reference model: a frozen copy"), std::string::npos) << grpo.log;
    // 2 x 2 sequences of the tiny scenario's length trained per step.
    const double perStep = 4.0 * scenario.at("seq_len").get<double>();
    EXPECT_NEAR(written.at("tokens_per_second").get<double>() * written.at("step_seconds")[0].get<double>(), perStep,
                perStep * 1e-9);
    std::filesystem::remove_all(dir);
}

// PPO's value and reward models and a vision-language model's images are not something the script runs: it says so
// and stops, rather than measuring another step.
TEST(Cli, TheScriptRefusesPpoAndImages) {
    if (!pythonHasTorch()) {
        GTEST_SKIP() << "python3-torch is not installed (scripts/bootstrap.sh installs it)";
    }
    const auto dir = std::filesystem::temp_directory_path() / ("gpusizer_refused_" + std::to_string(::getpid()));
    auto ppo = nlohmann::json::parse(slurp(data("scenarios/tiny-lora.json")));
    ppo["run_kind"] = "ppo";
    ppo["completion_length"] = 16;
    // A tiny LLaVA-style encoder: 2 blocks 32 wide over 28 x 28 images of 14-pixel patches, 4 tokens each.
    auto images = nlohmann::json::parse(slurp(data("scenarios/tiny-lora.json")));
    images["model"]["vision_config"] = {
        {"gpusizer_family", "llava"}, {"hidden_size", 32}, {"depth", 2},      {"num_heads", 2},
        {"intermediate_size", 64},    {"patch_size", 14},  {"image_size", 28}};
    images["images_per_sample"] = 1;
    for (const auto& [scenario, says] : {std::pair{ppo, "does not run PPO's value and reward models"},
                                         std::pair{images, "builds the language model only"}}) {
        const CpuRun refused = runScriptOnCpu(scenario, dir);
        EXPECT_NE(refused.status, 0);
        EXPECT_NE(refused.log.find(says), std::string::npos) << refused.log;
        EXPECT_TRUE(refused.result.is_null());
    }
    std::filesystem::remove_all(dir);
}

TEST(Cli, TheScriptRecordsTheRunItMeasuredWhereItCannotRunTheScenario) {
    if (!pythonHasTorch()) {
        GTEST_SKIP() << "python3-torch is not installed (scripts/bootstrap.sh installs it)";
    }
    // Two GPUs with ZeRO-3 and a chunked loss: one process on one GPU runs neither.
    const auto dir = std::filesystem::temp_directory_path() / ("gpusizer_layout_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    auto scenario = nlohmann::json::parse(slurp(data("scenarios/tiny-lora.json")));
    scenario["gpus"] = 2;
    scenario["sharding"] = "zero3";
    scenario["loss"] = "chunked";
    scenario["activation_offload"] = true;     // save_on_cpu: run, not listed
    scenario["precision"] = "fsdp-mixed-bf16"; // one process: autocast over fp32 weights
    const auto scenarioFile = dir / "two-gpus.json";
    std::ofstream(scenarioFile) << scenario.dump();
    const auto script = dir / "probe.py";
    const auto result = dir / "result.json";
    ASSERT_EQ(runCli("probe-script " + scenarioFile.string() + " -o " + script.string()).status, 0);
    const std::string run = python() + " " + script.string() + " --device cpu --steps 1 --warmup 0 --out " +
                            result.string() + " >/dev/null 2>&1";
    ASSERT_EQ(std::system(run.c_str()), 0);
    const auto written = nlohmann::json::parse(slurp(result));
    const auto& ran = written.at("scenario");
    EXPECT_EQ(ran.at("gpus"), 1);
    EXPECT_EQ(ran.at("sharding"), "none");
    EXPECT_EQ(ran.at("loss"), "standard");
    EXPECT_EQ(ran.at("activation_offload"), true);
    EXPECT_EQ(ran.at("precision"), "amp-bf16");
    EXPECT_EQ(ran.at("framework_overrides").at("optimizer_step"), "foreach"); // torch.optim.AdamW's default
    // The stack that ran: Debian 12's PyTorch is 1.13, which the scenario's torch_version records.
    const bool torchOne = written.at("versions").at("torch").get<std::string>().rfind("1.", 0) == 0;
    EXPECT_EQ(ran.at("torch_version"), torchOne ? "1.x" : "current");
    // gpus, sharding, loss, precision, and the PyTorch release where it is not the scenario's
    EXPECT_EQ(written.at("not_as_in_scenario").size(), torchOne ? 5u : 4u);
    const auto r = runCli("compare-measured " + scenarioFile.string() + " " + result.string() + " --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto notes = nlohmann::json::parse(r.out).at("notes");
    EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const nlohmann::json& n) {
        return n.at("code") == "not_as_in_scenario" &&
               n.at("message").get<std::string>().find("gpus: 2 -> 1") != std::string::npos;
    }));
    std::filesystem::remove_all(dir);
}

TEST(Cli, TwoProcessesOfTheScriptWriteEveryRanksFigures) {
    if (!pythonHasTorch()) {
        GTEST_SKIP() << "python3-torch is not installed (scripts/bootstrap.sh installs it)";
    }
    // Two ranks with gloo, launched with the environment torchrun gives each process (MASTER_ADDR, MASTER_PORT,
    // WORLD_SIZE, RANK, LOCAL_RANK): Debian's torchrun (PyTorch 1.13) fails on Python 3.11 before starting a worker
    // (elastic/multiprocessing/api.py to_map: Std.from_str returns None), so the test starts the two itself.
    const auto dir = std::filesystem::temp_directory_path() / ("gpusizer_ddp_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto script = dir / "probe.py";
    const auto result = dir / "result.json";
    ASSERT_EQ(runCli("probe-script " + data("scenarios/tiny-lora.json") + " -o " + script.string()).status, 0);
    const std::string port = std::to_string(20000 + ::getpid() % 20000);
    std::string launch = "cd " + dir.string() + " && (";
    for (const char* rank : {"0", "1"}) {
        launch += "MASTER_ADDR=127.0.0.1 MASTER_PORT=" + port + " WORLD_SIZE=2 RANK=" + rank + " LOCAL_RANK=" + rank +
                  " timeout 120 " + python() + " " + script.string() + " --device cpu --steps 2 --warmup 1 --out " +
                  result.string() + " >/dev/null 2>&1 & ";
    }
    launch += "wait)";
    ASSERT_EQ(std::system(launch.c_str()), 0);
    const auto written = nlohmann::json::parse(slurp(result));
    EXPECT_EQ(written.at("world_size"), 2);
    EXPECT_EQ(written.at("engine"), "ddp");
    EXPECT_EQ(written.at("built_on"), "meta"); // every parameter a meta tensor before it was made real
    ASSERT_EQ(written.at("ranks").size(), 2u);
    EXPECT_EQ(written.at("ranks")[0].at("rank"), 0);
    EXPECT_EQ(written.at("ranks")[1].at("rank"), 1);
    EXPECT_EQ(written.at("ranks")[1].at("step_seconds").size(), 2u);
    EXPECT_EQ(written.at("scenario").at("gpus"), 2);
    EXPECT_EQ(written.at("params_total"), 106'816 + 7'168); // as CpuSmokeRunsOfTheScriptAreReadBack derives
    const auto r = runCli("compare-measured " + data("scenarios/tiny-lora.json") + " " + result.string() + " --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto notes = nlohmann::json::parse(r.out).at("notes");
    EXPECT_TRUE(std::any_of(notes.begin(), notes.end(),
                            [](const nlohmann::json& n) { return n.at("code") == "largest_rank"; }));
    std::filesystem::remove_all(dir);
}

TEST(Cli, TwoProcessesOfAShardedQloraScriptChooseFsdpOneBeforeTheyNeedTheGpu) {
    if (!pythonHasTorch()) {
        GTEST_SKIP() << "python3-torch is not installed (scripts/bootstrap.sh installs it)";
    }
    // QLoRA over two GPUs with ZeRO-3 on the generic stack (whose engine is DeepSpeed): the script shards the 4-bit
    // base with FSDP1 and PEFT's wrap policy, says so, and only then needs the CUDA GPU and bitsandbytes a CPU has
    // not. The run itself needs a GPU (docs/verify.md); this checks the layout it chooses.
    const auto dir = std::filesystem::temp_directory_path() / ("gpusizer_fsdpq_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    auto scenario = nlohmann::json::parse(slurp(data("scenarios/tiny-qlora.json")));
    scenario["gpus"] = 2;
    scenario["sharding"] = "zero3";
    const auto file = dir / "s.json";
    std::ofstream(file) << scenario.dump();
    const auto script = dir / "probe.py";
    ASSERT_EQ(runCli("probe-script " + file.string() + " -o " + script.string()).status, 0);
    const std::string port = std::to_string(40000 + ::getpid() % 20000); // apart from the DDP test's 20000s
    std::string launch = "cd " + dir.string() + " && (";
    for (const char* rank : {"0", "1"}) {
        launch += "MASTER_ADDR=127.0.0.1 MASTER_PORT=" + port + " WORLD_SIZE=2 RANK=" + rank + " LOCAL_RANK=" + rank +
                  " timeout 120 " + python() + " " + script.string() + " --device cpu > " + (dir / "out").string() +
                  rank + " 2>&1 & ";
    }
    launch += "wait)";
    std::system(launch.c_str()); // both ranks stop at the GPU check (status 2)
    const std::string said = slurp(dir / "out0");
    EXPECT_NE(said.find("not as in the scenario: sharding_engine: \"auto\" -> \"fsdp1\""), std::string::npos) << said;
    EXPECT_NE(said.find("adapter_wrapping: \"auto\" -> \"separate\""), std::string::npos) << said;
    EXPECT_NE(said.find("QLoRA needs a CUDA GPU"), std::string::npos) << said;
    EXPECT_EQ(said.find("not run by this script"), std::string::npos) << said;
    std::filesystem::remove_all(dir);
}

TEST(Cli, TheScriptMeasuresWithTheStacksCheckpointing) {
    // torchtune checkpoints non-reentrant (training/activations.py), Axolotl sets use_reentrant=True
    // (normalize_config); the transformers Trainer leaves it to transformers (null).
    const std::vector<std::pair<std::string, nlohmann::json>> stacks{
        {"torchtune", false}, {"axolotl", true}, {"hf-trainer", nullptr}};
    for (const auto& [framework, reentrant] : stacks) {
        const auto dir = std::filesystem::temp_directory_path() / ("gpusizer_stack_" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        auto scenario = nlohmann::json::parse(slurp(data("scenarios/tiny-lora.json")));
        scenario["framework"] = framework;
        const auto file = dir / "s.json";
        std::ofstream(file) << scenario.dump();
        const auto script = dir / "probe.py";
        ASSERT_EQ(runCli("probe-script " + file.string() + " -o " + script.string()).status, 0);
        const std::string text = slurp(script);
        const std::string opening = "STACK = json.loads(r'''";
        const auto start = text.find(opening) + opening.size();
        const auto stack = nlohmann::json::parse(text.substr(start, text.find("'''", start) - start));
        EXPECT_EQ(stack.at("checkpoint_reentrant"), reentrant) << framework;
        EXPECT_EQ(stack.at("framework"), framework);
        std::filesystem::remove_all(dir);
    }
}

TEST(Cli, TheDatasetScriptMeasuresYourDataAndTheImportSizesByIt) {
    if (std::system((python() + " -c 'import sentencepiece' >/dev/null 2>&1").c_str()) != 0) {
        GTEST_SKIP() << "python3-sentencepiece is not installed (scripts/bootstrap.sh installs it)";
    }
    // A word-level SentencePiece tokenizer over w0..w19 (one token per word, no special tokens) and 20 examples of
    // 10, 20, ..., 190 words and one of 400.
    const auto dir = std::filesystem::temp_directory_path() / ("gpusizer_lengths_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir / "tok");
    const auto maker = dir / "make.py";
    std::ofstream(maker)
        << "import io, json, sentencepiece as spm\n"
           "words = ['w%d' % i for i in range(20)]\n"
           "m = io.BytesIO()\n"
           "spm.SentencePieceTrainer.train(sentence_iterator=iter([' '.join(words)]), model_writer=m,"
           " model_type='word', vocab_size=23, minloglevel=2)\n"
           "open('tok/tokenizer.model', 'wb').write(m.getvalue())\n"
           "with open('data.jsonl', 'w') as f:\n"
           "    for n in list(range(10, 200, 10)) + [400]:\n"
           "        f.write(json.dumps({'text': ' '.join(words[i % 20] for i in range(n))}) + '\\n')\n";
    ASSERT_EQ(std::system(("cd " + dir.string() + " && " + python() + " make.py").c_str()), 0);
    const auto script = dir / "lengths.py";
    const auto result = dir / "lengths.json";
    ASSERT_EQ(runCli("dataset-script " + data("scenarios/tiny-lora.json") + " -o " + script.string()).status, 0);
    const std::string run = python() + " " + script.string() + " " + (dir / "data.jsonl").string() + " --tokenizer " +
                            (dir / "tok").string() + " --out " + result.string() + " >/dev/null";
    ASSERT_EQ(std::system(run.c_str()), 0);
    const auto doc = nlohmann::json::parse(slurp(result));
    EXPECT_EQ(doc.at("count"), 20);
    EXPECT_EQ(doc.at("total_tokens"), 2300); // 10 x (1 + ... + 19) + 400
    EXPECT_EQ(doc.at("max"), 400);
    EXPECT_EQ(doc.at("p99"), 400);                         // nearest rank: ceil(0.99 x 20) = the 20th
    EXPECT_EQ(doc.at("p95"), 190);                         // ceil(0.95 x 20) = the 19th
    EXPECT_DOUBLE_EQ(doc.at("median").get<double>(), 105); // (100 + 110) / 2
    EXPECT_DOUBLE_EQ(doc.at("mean").get<double>(), 115);   // 2,300 / 20
    EXPECT_EQ(doc.at("histogram").at("edges"), nlohmann::json({0, 64, 128, 256, 512}));
    EXPECT_EQ(doc.at("histogram").at("counts"), nlohmann::json({6, 6, 7, 1})); // 10-60, 70-120, 130-190, 400
    EXPECT_EQ(doc.at("micro_batch"), 2);                                       // tiny-lora's
    const auto& p95 = doc.at("at").at("p95");
    EXPECT_EQ(p95.at("truncated_examples"), 1);
    EXPECT_EQ(p95.at("truncated_tokens"), 210); // 400 - 190
    EXPECT_EQ(p95.at("tokens"), 2090);
    // Pairs in order, each padded to its longer: 2 x (20 + 40 + ... + 180) = 1,800, and (190, 400 cut to 190) 380.
    EXPECT_EQ(p95.at("padded_tokens"), 2180);
    EXPECT_EQ(p95.at("packed_batches"), 6); // ceil(2,090 / (2 x 190))
    EXPECT_EQ(p95.at("packed_tokens"), 2280);

    const auto sized = dir / "sized.json";
    const auto imported = runCli("import-lengths " + data("scenarios/tiny-lora.json") + " " + result.string() +
                                 " --basis p95 -o " + sized.string());
    ASSERT_EQ(imported.status, 0) << imported.err;
    EXPECT_NE(imported.out.find("Sequence length 190 (p95): one example is cut, losing 210 tokens"), std::string::npos)
        << imported.out;
    const auto scenario = nlohmann::json::parse(slurp(sized));
    EXPECT_EQ(scenario.at("seq_len"), 190);
    EXPECT_EQ(scenario.at("dataset").at("basis"), "p95");
    // plan without --tokens prices the data's tokens after the cut, as the user's own.
    const auto plan = runCli("plan " + sized.string() + " --json");
    ASSERT_EQ(plan.status, 0) << plan.err;
    const auto inputs = nlohmann::json::parse(plan.out).at("inputs");
    EXPECT_DOUBLE_EQ(inputs.at("dataset_tokens").get<double>(), 2090);
    EXPECT_TRUE(inputs.at("dataset_tokens_stated").get<bool>());
    EXPECT_EQ(runCli("import-lengths " + data("scenarios/tiny-lora.json") + " " + result.string() + " --basis p50 -o " +
                     sized.string())
                  .status,
              1);
    std::filesystem::remove_all(dir);
}

TEST(Cli, BadMeasurementsAreRefusedWithTheReason) {
    const auto good = runCli("compare-measured " + data("scenarios/tiny-full.json") + " " +
                             data("measurements/tiny-full-gpu.json") + " --json");
    ASSERT_EQ(good.status, 0) << good.err;
    const auto doc = nlohmann::json::parse(good.out);
    EXPECT_FALSE(doc.at("cpu_run").get<bool>());
    EXPECT_EQ(doc.at("gpu"), "h100-sxm"); // "NVIDIA H100 80GB HBM3" is the SXM part
    struct Case {
        const char* file;
        const char* mustMention;
    };
    for (const Case& c :
         {Case{"measurements/other-model.json", "another model"}, Case{"measurements/truncated.json", "not valid JSON"},
          Case{"measurements/wrong-format.json", "gpusizer-measurement"},
          Case{"measurements/cuda-without-memory.json", "max_memory_allocated_bytes"}}) {
        const auto r = runCli("compare-measured " + data("scenarios/tiny-full.json") + " " + data(c.file));
        EXPECT_EQ(r.status, 2) << c.file;
        EXPECT_NE(r.err.find(c.mustMention), std::string::npos) << c.file << ": " << r.err;
    }
}

TEST(Cli, TheReportFollowsLanguageOrTheLocaleAsTheWindowDoes) {
    const auto pdfText = [](const std::filesystem::path& pdf) {
        const std::string command = "pdftotext " + pdf.string() + " -";
        std::string text;
        FILE* pipe = ::popen(command.c_str(), "r");
        std::array<char, 4096> buffer{};
        std::size_t n = 0;
        while (pipe != nullptr && (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
            text.append(buffer.data(), n);
        }
        if (pipe != nullptr) {
            ::pclose(pipe);
        }
        return text;
    };
    const auto out =
        std::filesystem::temp_directory_path() / ("gpusizer_cli_report_zh_" + std::to_string(::getpid()) + ".pdf");
    const std::string scenario = data("scenarios/llama31-8b-lora.json");
    // "GPU 选型报告" is the catalog's title for "GPU sizing report" (resources/translations/gpusizer_zh_CN.ts).
    auto r = runCli("report " + scenario + " -o " + out.string() + " --language zh_CN");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(pdfText(out).find("GPU 选型报告"), std::string::npos);
    r = runCli("report " + scenario + " -o " + out.string(), "LANG=zh_CN.UTF-8");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(pdfText(out).find("GPU 选型报告"), std::string::npos);
    r = runCli("report " + scenario + " -o " + out.string() + " --language en", "LANG=zh_CN.UTF-8");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(pdfText(out).find("GPU sizing report"), std::string::npos);
    std::filesystem::remove(out);
    r = runCli("report " + scenario + " -o " + out.string() + " --language tlh");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("unknown language 'tlh'"), std::string::npos) << r.err;
}
