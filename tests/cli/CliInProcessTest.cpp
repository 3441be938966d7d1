// The CLI's commands called in process (cli::run), as the executable runs them: every command's text and JSON,
// the command table and the usage text, and the errors for bad files. Fast, and covered by the sanitizer build.
#include "Cli.h"
#include "Commands.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/plan/Bill.h"
#include "gpusizer/plan/Planner.h"
#include "gpusizer/present/BillText.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace gpusizer;

namespace {

struct Ran {
    int status = -1;
    std::string out;
    std::string err;
};

Ran run(std::vector<std::string> args) {
    std::ostringstream out;
    std::ostringstream err;
    Ran r;
    r.status = cli::run(args, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

std::string data(const std::string& name) {
    return std::string(GPUSIZER_TEST_DATA_DIR) + "/" + name;
}

} // namespace

TEST(CliInProcess, TheUsageListsEveryCommandOfTheTable) {
    const Ran r = run({"help"});
    ASSERT_EQ(r.status, cli::kOk);
    for (const auto& c : cli::commands()) {
        EXPECT_NE(r.out.find(std::string("  ") + c.synopsis), std::string::npos) << c.name;
        EXPECT_NE(r.out.find(c.summary), std::string::npos) << c.name;
    }
    EXPECT_EQ(run({"no-such-command"}).status, cli::kUsage);
    EXPECT_EQ(run({"estimate", data("scenarios/llama31-8b-lora.json"), "--bogus"}).status, cli::kUsage);
}

TEST(CliInProcess, EveryCommandWithJsonWritesItsVersionedFormat) {
    const std::string scenario = data("scenarios/llama31-8b-lora.json");
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
        {{"estimate", scenario, "--json"}, "gpusizer-estimate"},
        {{"gpus", "--json"}, "gpusizer-gpus"},
        {{"models", "--json"}, "gpusizer-models"},
        {{"import-hf", data("hf-configs/llama-3.1-8b.json"), "--json"}, "gpusizer-import"},
        {{"advise", scenario, "--gpu", "rtx-4090", "--json"}, "gpusizer-advice"},
        {{"sizing-table", scenario, "--json"}, "gpusizer-sizing-table"},
        {{"fit", scenario, "--json"}, "gpusizer-fit"},
        {{"plan", scenario, "--tokens", "1e8", "--json"}, "gpusizer-plan"},
        {{"compare-measured", data("scenarios/tiny-full.json"), data("measurements/tiny-full-gpu.json"), "--json"},
         "gpusizer-comparison"},
        {{"import-config", data("training-configs/axolotl/olmo3-7b-qlora.yaml"), "--json"}, "gpusizer-import-config"},
    };
    for (const auto& [args, format] : cases) {
        const Ran r = run(args);
        ASSERT_EQ(r.status, cli::kOk) << args.front() << ": " << r.err;
        const auto doc = nlohmann::json::parse(r.out);
        EXPECT_EQ(doc.at("format"), format) << args.front();
        EXPECT_TRUE(doc.at("version").is_number_integer()) << args.front();
    }
}

TEST(CliInProcess, TextOutputsShowTheSameTablesAsTheWindow) {
    const std::string scenario = data("scenarios/llama31-8b-lora.json");
    const Ran estimate = run({"estimate", scenario});
    ASSERT_EQ(estimate.status, cli::kOk);
    EXPECT_NE(estimate.out.find("GiB per GPU"), std::string::npos); // the component table's header
    const Ran advise = run({"advise", scenario, "--gpu", "rtx-4090"});
    ASSERT_EQ(advise.status, cli::kOk);
    EXPECT_NE(advise.out.find("Fix (cheapest first)"), std::string::npos);
    EXPECT_NE(advise.out.find("The fewest and cheapest fixes that fit"), std::string::npos);
    const Ran sizing = run({"sizing-table", scenario});
    ASSERT_EQ(sizing.status, cli::kOk);
    EXPECT_NE(sizing.out.find("Your model (llama-3.1-8b)"), std::string::npos);
    const Ran fit = run({"fit", scenario});
    ASSERT_EQ(fit.status, cli::kOk);
    EXPECT_NE(fit.out.find("Best on this card"), std::string::npos);
    EXPECT_NE(fit.out.find("Rent: "), std::string::npos);
    const Ran plan = run({"plan", scenario, "--tokens", "1e8"});
    ASSERT_EQ(plan.status, cli::kOk);
    EXPECT_NE(plan.out.find("Runners-up and why they lost"), std::string::npos);
}

TEST(CliInProcess, BadFilesAreRefusedWithTheFileAndTheReason) {
    const auto dir = std::filesystem::temp_directory_path() / "gpusizer_cli_inprocess";
    std::filesystem::create_directories(dir / "a-folder.json");
    const Ran folder = run({"estimate", (dir / "a-folder.json").string()});
    EXPECT_EQ(folder.status, cli::kBadInput);
    EXPECT_NE(folder.err.find("a-folder.json: is a folder, not a file"), std::string::npos) << folder.err;
    const Ran missing = run({"estimate", (dir / "missing.json").string()});
    EXPECT_EQ(missing.status, cli::kBadInput);
    EXPECT_NE(missing.err.find("missing.json: cannot open the file"), std::string::npos) << missing.err;
    // A probe script written over a folder fails in words and leaves no partial file behind.
    const Ran over =
        run({"probe-script", data("scenarios/llama31-8b-lora.json"), "-o", (dir / "a-folder.json").string()});
    EXPECT_EQ(over.status, cli::kOutputFailed);
    EXPECT_NE(over.err.find("a-folder.json: is a folder: give a file name"), std::string::npos) << over.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "a-folder.json.part"));
    std::filesystem::remove_all(dir);
}

TEST(CliInProcess, AStepLongerThanTheHourIsTestedAsOneStepAtItsCost) {
    // Llama-3.1-70B on 16,000,000-token sequences over 64 GPUs: one step's attention alone is about 2e21 FLOPs, hours
    // on any card, so the test is one step and its price is the hourly rate times the step.
    const auto dir = std::filesystem::temp_directory_path() / "gpusizer_cli_longstep";
    std::filesystem::create_directories(dir);
    const auto file = dir / "long.json";
    std::ofstream(file) << R"({"format": "gpusizer-scenario", "version": 1, "model": "llama-3.1-70b",
        "method": "full", "precision": "bf16-fp32-master", "framework": "deepspeed", "micro_batch": 1,
        "seq_len": 16000000, "gradient_checkpointing": "full", "attention": "flash", "loss": "fused-linear",
        "liger_rms_norm": true, "liger_rope": true, "tiled_mlp": true, "activation_offload": true, "gpus": 64,
        "sharding": "zero3", "sharding_engine": "deepspeed", "offload": "optimizer", "context_parallel": 64,
        "context_parallel_kind": "ulysses"})";
    const Ran text = run({"plan", file.string(), "--tokens", "1e8"});
    ASSERT_EQ(text.status, cli::kOk) << text.err;
    EXPECT_EQ(text.out.rfind("First, the one-hour test on the card you will rent:", 0), 0u) << text.out.substr(0, 300);
    EXPECT_NE(text.out.find("then one step, which takes"), std::string::npos) << text.out.substr(0, 600);
    const Ran json = run({"plan", file.string(), "--tokens", "1e8", "--json"});
    ASSERT_EQ(json.status, cli::kOk) << json.err;
    const auto trial = nlohmann::json::parse(json.out).at("one_hour_test");
    const double steps = trial.at("steps_in_hour").get<double>();
    EXPECT_LT(steps, 1.0);
    // The test is the set-up and one step: the hourly rate times their hours (the step's is 1 / steps in an hour),
    // billed by the minute at most.
    const double hours = trial.at("setup_seconds").get<double>() / 3600.0 + 1.0 / steps;
    const double rate = trial.at("usd_for_hour").get<double>();
    EXPECT_GE(trial.at("usd_for_test").get<double>(), rate * hours - 1e-6);
    EXPECT_LE(trial.at("usd_for_test").get<double>(), rate * (hours + 1.0 / 60.0));
    EXPECT_NE(text.out.find("--warmup 0 --steps 1"), std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST(CliInProcess, PlanPrintsTheOneHourTestFirstAndEmitsTheWholeBillWithItsOptions) {
    const std::string scenario = data("scenarios/llama31-8b-lora.json");
    const Ran text = run({"plan", scenario, "--tokens", "1e8"});
    ASSERT_EQ(text.status, cli::kOk) << text.err;
    EXPECT_EQ(text.out.rfind("First, the one-hour test", 0), 0u) << text.out.substr(0, 200);
    for (const char* part : {"The whole bill on", "Spot (expected)", "Checkpoint every",
                             "When it is done, in this order:", "4. Destroy the instance"}) {
        EXPECT_NE(text.out.find(part), std::string::npos) << part;
    }
    const Ran json =
        run({"plan", scenario, "--tokens", "1e8", "--json", "--interruptions-per-day", "0", "--storage-gbps", "2",
             "--egress-usd-per-gb", "0", "--keep-days", "0", "--checkpoint-hours", "0.5"});
    ASSERT_EQ(json.status, cli::kOk) << json.err;
    const auto doc = nlohmann::json::parse(json.out);
    const auto& bill = doc.at("bill");
    EXPECT_EQ(bill.at("assumptions").at("interruptions_per_node_day").get<double>(), 0.0);
    EXPECT_EQ(bill.at("assumptions").at("storage_write_gb_per_s").get<double>(), 2.0);
    EXPECT_EQ(bill.at("checkpoint_interval_hours").get<double>(), 0.5);
    // No egress price, no interruptions: traffic is free and spot takes exactly the on-demand wall time.
    EXPECT_EQ(bill.at("egress_usd").get<double>(), 0.0);
    EXPECT_EQ(bill.at("spot").at("expected_interruptions").get<double>(), 0.0);
    EXPECT_TRUE(bill.at("spot").at("mean_hours_between_interruptions").is_null()); // infinite: JSON has no infinity
    EXPECT_DOUBLE_EQ(bill.at("spot").at("wall_hours").get<double>(),
                     bill.at("on_demand").at("wall_hours").get<double>());
    EXPECT_EQ(bill.at("cleanup").size(), 4u);
    EXPECT_TRUE(doc.at("one_hour_test").at("usd_for_hour").get<double>() > 0);
    // A bad value is refused by name.
    const Ran bad = run({"plan", scenario, "--tokens", "1e8", "--interruptions-per-day", "-1"});
    EXPECT_EQ(bad.status, cli::kBadInput);
    EXPECT_NE(bad.err.find("--interruptions-per-day"), std::string::npos) << bad.err;
}

TEST(CliInProcess, TrainingConfigsImportAndEveryScenarioCommandTakesThem) {
    const std::string dir = data("training-configs/transformers/");
    const std::vector<std::string> files{dir + "sft_config.json", dir + "adapter_config.json",
                                         dir + "accelerate_deepspeed.yaml"};
    // import-config: the report (every key), then the scenario; -o writes the scenario file.
    std::vector<std::string> args{"import-config"};
    args.insert(args.end(), files.begin(), files.end());
    Ran r = run(args);
    ASSERT_EQ(r.status, cli::kOk) << r.err;
    EXPECT_NE(r.out.find("used     per_device_train_batch_size = 8 -> micro_batch"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("ignored  learning_rate = 0.0001"), std::string::npos);
    EXPECT_NE(r.out.find("default  deepspeed_config.reduce_bucket_size = 500000000.0 -> framework_overrides"),
              std::string::npos)
        << r.out;
    const std::filesystem::path saved = std::filesystem::temp_directory_path() / "gpusizer-imported.json";
    args.insert(args.end(), {"-o", saved.string()});
    ASSERT_EQ(run(args).status, cli::kOk);
    // estimate on the configs and on the saved scenario: the same figures.
    std::vector<std::string> direct{"estimate"};
    direct.insert(direct.end(), files.begin(), files.end());
    direct.emplace_back("--json");
    const Ran fromConfigs = run(direct);
    ASSERT_EQ(fromConfigs.status, cli::kOk) << fromConfigs.err;
    EXPECT_NE(fromConfigs.err.find("imported Llama-2-70B LoRA"), std::string::npos) << fromConfigs.err;
    const Ran fromScenario = run({"estimate", saved.string(), "--json"});
    ASSERT_EQ(fromScenario.status, cli::kOk) << fromScenario.err;
    EXPECT_EQ(nlohmann::json::parse(fromConfigs.out)["per_gpu"], nlohmann::json::parse(fromScenario.out)["per_gpu"]);
    std::filesystem::remove(saved);
    // fit, plan, advise and probe-script take them too; so does a single YAML with tune run overrides.
    EXPECT_EQ(run({"fit", data("training-configs/litgpt/llama-2-7b-lora.yaml"), "--json"}).status, cli::kOk);
    EXPECT_EQ(run({"plan", data("training-configs/axolotl/olmo3-7b-qlora.yaml"), "--tokens", "1e7"}).status, cli::kOk);
    EXPECT_EQ(run({"advise", data("training-configs/axolotl/olmo3-7b-qlora.yaml"), "--gpu", "rtx-4090"}).status,
              cli::kOk);
    const Ran overridden = run({"import-config", data("training-configs/torchtune/8B_qlora_single_device.yaml"),
                                "batch_size=8", "--gpus", "2", "--json"});
    ASSERT_EQ(overridden.status, cli::kOk) << overridden.err;
    const auto doc = nlohmann::json::parse(overridden.out);
    EXPECT_EQ(doc["scenario"]["micro_batch"], 8);
    EXPECT_EQ(doc["scenario"]["gpus"], 2);
    EXPECT_EQ(doc["scenario"]["sharding"], "zero3");
    EXPECT_EQ(doc["files"][0]["format"], "torchtune");
    // --format names the format when the content does not; a wrong name is a usage error.
    const Ran forced =
        run({"import-config", data("training-configs/transformers/ds_zero3.json"), "--format", "litgpt"});
    EXPECT_EQ(forced.status, cli::kBadInput);
    EXPECT_NE(forced.err.find("the files name no model"), std::string::npos) << forced.err;
    EXPECT_EQ(run({"import-config", dir + "ds_zero3.json", "--format", "yaml"}).status, cli::kBadInput);
    EXPECT_EQ(run({"import-config"}).status, cli::kUsage);
    const Ran unknownModel = run({"import-config", dir + "sft_config.json"});
    EXPECT_EQ(unknownModel.status, cli::kBadInput);
    EXPECT_NE(unknownModel.err.find("--model-config"), std::string::npos) << unknownModel.err;
    const Ran withModel =
        run({"import-config", dir + "sft_config.json", "--model-config", data("hf-configs/mistral-7b-v0.1.json")});
    EXPECT_EQ(withModel.status, cli::kOk) << withModel.err;
}

TEST(CliInProcess, ADeadlineNoPlanMeetsRentsTheFastestAndSaysSo) {
    // 1e9 tokens of an 8B LoRA cannot finish in six minutes on any card: the set-up alone (instance 10 min,
    // environment 6 min) is longer. The plan to rent is then the fastest, and the Rent line says none meets it.
    const Ran r =
        run({"plan", data("scenarios/llama31-8b-lora.json"), "--tokens", "1e9", "--deadline-hours", "0.1", "--json"});
    ASSERT_EQ(r.status, cli::kOk) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc.at("ranking").at("chosen"), doc.at("ranking").at("fastest"));
    const Ran text =
        run({"plan", data("scenarios/llama31-8b-lora.json"), "--tokens", "1e9", "--deadline-hours", "0.1"});
    EXPECT_NE(text.out.find("no plan finishes within 6 min, so this is the fastest"), std::string::npos) << text.out;
}

TEST(CliInProcess, TheFirstTestSaysWhatMeasuresItWhereTheScriptCannot) {
    // The default LoRA run on 1e8 tokens is rented on one Gaudi 2 (published MFU 0.60 at $1.30 an hour): the exported
    // script needs CUDA or ROCm, so the first test must not tell the user to run it there.
    const Ran r = run({"plan", data("scenarios/llama31-8b-lora.json"), "--tokens", "1e8"});
    ASSERT_EQ(r.status, cli::kOk) << r.err;
    ASSERT_NE(r.out.find("First, the one-hour test on the card you will rent: 1 × Gaudi 2"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("The measurement script runs on CUDA and ROCm only: on SynapseAI"), std::string::npos);
    EXPECT_EQ(r.out.find("Export the measurement script and run it there"), std::string::npos);
}

TEST(CliInProcess, TheFirstTestOfShardedQloraRunsTheScriptUnderTorchrunUnlessTheScriptCannotShardIt) {
    // Llama-3.1-70B QLoRA with ZeRO-3 over 2 H100 (one node): the script shards the 4-bit base with FSDP1
    // (FSDP-QLoRA), so the test is the rental under torchrun. An 8-bit base or IA3 adapters it cannot shard there.
    const auto loaded = catalogs::loadCatalogs();
    const core::GpuSpec& h100 = *loaded.catalog.findGpu("h100-sxm");
    core::Scenario s = core::defaultScenario(loaded.catalog);
    s.modelId = "llama-3.1-70b";
    s.model = loaded.catalog.findModel("llama-3.1-70b")->arch;
    s.method = core::Method::Qlora;
    s.gpus = 2;
    s.sharding = core::Sharding::Zero3;
    s.microBatch = 1;
    s.seqLen = 2048;
    const core::PlanInputs in;
    const auto sentence = [&](const core::Scenario& run) {
        const core::Candidate rental = core::fitAsIs(run, h100, in);
        EXPECT_TRUE(rental.fits());
        return present::english(present::trialSentence(core::firstTest(rental, h100, in)));
    };
    EXPECT_NE(sentence(s).find("torchrun --nproc-per-node 2 probe.py"), std::string::npos) << sentence(s);
    core::Scenario int8 = s;
    int8.quantization = core::Quantization::Int8;
    EXPECT_NE(sentence(int8).find("not this layout"), std::string::npos) << sentence(int8);
    core::Scenario ia3 = s;
    ia3.lora.kind = core::AdapterKind::Ia3;
    EXPECT_NE(sentence(ia3).find("not this layout"), std::string::npos) << sentence(ia3);
}

TEST(CliInProcess, TheFirstTestOfGrpoRunsTheScriptWhereItGeneratesAndSaysWhatItLeavesOut) {
    // Llama-3.1-8B GRPO with LoRA on one H100: the script generates with transformers as the run does, so the test is
    // the script; with vLLM colocated it still checks the training step, and says vLLM's share is not measured; a
    // ZeRO-3 GRPO over two cards it does not run (its generation would need the gathered weights).
    const auto loaded = catalogs::loadCatalogs();
    const core::GpuSpec& h100 = *loaded.catalog.findGpu("h100-sxm");
    core::Scenario s = core::defaultScenario(loaded.catalog);
    s.runKind = core::RunKind::Grpo;
    s.method = core::Method::Lora;
    s.microBatch = 4;
    s.gradientAccumulation = 2;
    s.numGenerations = 8;
    s.seqLen = 1024;
    s.completionLength = 512;
    const core::PlanInputs in;
    const auto sentence = [&](const core::Scenario& run) {
        const core::Candidate rental = core::fitAsIs(run, h100, in);
        EXPECT_TRUE(rental.fits()) << rental.scenario.name;
        return present::english(present::trialSentence(core::firstTest(rental, h100, in)));
    };
    EXPECT_NE(sentence(s).find("Export the measurement script and run it there before renting the run: python3 "
                               "probe.py."),
              std::string::npos)
        << sentence(s);
    core::Scenario colocated = s;
    colocated.generation = core::Generation::VllmColocate;
    colocated.vllmSleepMode = true;
    EXPECT_NE(sentence(colocated).find("(python3 probe.py): it generates with transformers, not vLLM"),
              std::string::npos)
        << sentence(colocated);
    core::Scenario sharded = s;
    sharded.gpus = 2;
    sharded.sharding = core::Sharding::Zero3;
    EXPECT_NE(sentence(sharded).find("runs neither PPO, a sharded GRPO run nor images"), std::string::npos)
        << sentence(sharded);
}

TEST(CliInProcess, AVllmServerThatCannotLoadTheModelSaysHowManyGpusWould) {
    // GRPO with a vLLM server on 1 GPU of Llama-3.1-70B's 131.4 GiB of 16-bit weights: an H100 SXM gives vLLM 0.9
    // x 79.1 = 71.2 GiB, so no count of training H100s helps; 2 server GPUs (65.7 GiB each) would
    // (Grpo.TheServersGpusMustLoadTheWeights has the arithmetic).
    const auto dir = std::filesystem::temp_directory_path() / "gpusizer_cli_vllm_server";
    std::filesystem::create_directories(dir);
    const auto file = dir / "grpo70b.json";
    std::ofstream(file) << R"({"format": "gpusizer-scenario", "version": 1, "model": "llama-3.1-70b",
        "method": "lora", "run_kind": "grpo", "precision": "bf16", "micro_batch": 8, "gradient_accumulation": 2,
        "seq_len": 1536, "completion_length": 1024, "num_generations": 8, "generation": "vllm-server",
        "vllm_gpus": 1, "gradient_checkpointing": "full", "gpus": 1, "gpu": "h100-sxm"})";
    const Ran fit = run({"fit", file.string()});
    ASSERT_EQ(fit.status, cli::kOk) << fit.err;
    const auto h100 = fit.out.find("H100 SXM5");
    ASSERT_NE(h100, std::string::npos);
    const std::string row = fit.out.substr(h100, fit.out.find('\n', h100) - h100);
    EXPECT_NE(row.find("vLLM server needs 2 GPUs"), std::string::npos) << row;
    EXPECT_NE(fit.out.find("the vLLM server's GPUs cannot load the model: 131.4 GiB of 16-bit weights each, "
                           "vllm-serve uses 90% of the card (71.2 GiB); set vllm_gpus to 2 or more"),
              std::string::npos)
        << fit.out;
}
