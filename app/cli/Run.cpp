#include "Commands.h"
#include "gpusizer/scenario/Version.h"

#include <algorithm>
#include <ostream>

namespace gpusizer::cli {

const std::vector<Command>& commands() {
    static const std::vector<Command> kCommands{
        {"estimate", "estimate SCENARIO.json [--json]", "peak GPU memory per GPU, component by component",
         estimateCommand},
        {"gpus", "gpus [--json]", "the GPU catalog", gpusCommand},
        {"models", "models [--json]", "the model catalog", modelsCommand},
        {"import-hf", "import-hf CONFIG.json [--index model.safetensors.index.json] [--json]",
         "read a Hugging Face config.json", importHfCommand},
        {"import-config",
         "import-config FILE... [key=value...] [--model-config config.json] [--format NAME] [--gpus N] [--json] "
         "[-o scenario.json]",
         "a scenario from Axolotl, LLaMA-Factory, torchtune, transformers/TRL, PEFT, accelerate, DeepSpeed, "
         "LitGPT or ArcticTraining configs, or verl / OpenRLHF launch scripts, with what was read",
         importConfigCommand},
        {"advise", "advise SCENARIO.json --gpu ID [--tokens N] [PLAN OPTIONS] [--json]",
         "out-of-memory fixes in order of cost, each with its saving", adviseCommand},
        {"sizing-table", "sizing-table SCENARIO.json [PLAN OPTIONS] [--json]",
         "the card, count and layout the planner rents per model size and method", sizingTableCommand},
        {"fit", "fit SCENARIO.json [--tokens N] [PLAN OPTIONS] [--json]",
         "per GPU: the count and layout to rent, and why fewer cards fail", fitCommand},
        {"plan", "plan SCENARIO.json [--tokens N] [PLAN OPTIONS] [--json]",
         "the same with time, GPU-hours and cost, ranked by the objective", planCommand},
        {"probe-script", "probe-script SCENARIO.json -o probe.py",
         "a Python script that measures the scenario on a real GPU", probeScriptCommand},
        {"dataset-script", "dataset-script SCENARIO.json -o lengths.py",
         "a Python script that measures your data's sequence lengths with the model's tokenizer", datasetScriptCommand},
        {"import-lengths", "import-lengths SCENARIO.json LENGTHS.json [--basis max|p99|p95] -o scenario.json",
         "set seq_len from your data's lengths and keep its token count for time and cost", importLengthsCommand},
        {"compare-measured", "compare-measured SCENARIO.json RESULT.json [--json]",
         "estimate against the script's measurement", compareMeasuredCommand},
        {"report", "report SCENARIO.json -o FILE.pdf [--page-size A4|Letter] [--language en|zh_CN]",
         "the sizing report as PDF", reportCommand},
        {"fields", "fields [--json]", "the scenario file's fields: type, allowed values, default", fieldsCommand},
        {"import-keys", "import-keys [FORMAT] [--json] [--page TEMPLATE [-o FILE]]",
         "the keys import-config reads per format: field, default, source (--page: docs/import.md from its template)",
         importKeysCommand},
    };
    return kCommands;
}

std::string usageText() {
    std::string text = "Usage: gpusizer-cli <command> [options]\n\nCommands:\n";
    constexpr std::size_t kColumn = 38;
    for (const auto& c : commands()) {
        const std::string synopsis = std::string("  ") + c.synopsis;
        if (synopsis.size() + 1 < kColumn) {
            text += synopsis + std::string(kColumn - synopsis.size(), ' ') + c.summary + "\n";
        } else {
            text += synopsis + "\n" + std::string(kColumn, ' ') + c.summary + "\n";
        }
    }
    text += R"(  help                                this text
  --version                           print the version

Training configs: estimate, fit, plan, advise, sizing-table, probe-script and report take training configs in
place of SCENARIO.json (several files of one run, key=value overrides, --model-config, --format, --gpus as for
import-config; docs/import.md lists every key read).

Plan options (fit, plan, advise, sizing-table; every time and cost is for the tokens below, and says so):
  --tokens N                            your dataset's tokens (default: the scenario's imported dataset lengths,
                                        else 1e8, shown as an assumption)
  --epochs E                            passes over the dataset (default 1)
  --objective cost|time|balanced        what to minimise (default cost, start-up included; balanced: the cheapest
                                        plan within 1.5x of the fastest wall time)
  --deadline-hours H                    with cost: the cheapest plan that finishes within H hours
  --global-batch N|MIN-MAX              sequences per optimizer step: fixed (default: micro-batch x accumulation x
                                        GPUs of the scenario) or any in the range, trading accumulation for cards
  --mfu X                               the matmuls' share of every card's BF16 peak, recomputation counted (HFU;
                                        default: each card's published figure, or 0.25 where none is published)
  --spot                                rank on spot prices
  --provision-minutes M                 instances allocated and booted, per run (default 10)
  --environment-minutes M               the image pulled or the packages installed (default 6)
  --download-gbps N                     the base model's download, GB/s per node (default 0.4; 0: already there)
  --no-offload                          never plan CPU offload
  --max-gpus N                          the most cards you accept (default 1024)
  --network ib400|roce200|eth100|eth25  the network between nodes (default: by card, see docs/planning.md)
  --host-ram-gib N                      host RAM per node (default: the catalog's typical node)
  --margin PCT                          fit margin over the estimate in percent (default: the estimate's band)

Bill options (plan; defaults and sources in docs/planning.md):
  --interruptions-per-day N             spot interruptions per node and day (default 1: a preemptible VM's 24 h)
  --checkpoint-hours H                  the checkpoint interval (default: Young's optimum for the spot rate)
  --storage-gbps N                      checkpoint write and read bandwidth per node, GB/s (default 1)
  --restart-minutes M                   a replacement instance up and relaunched, before the reload (default 10)
  --keep-days N                         days the checkpoints stay stored after the run (default 7)
  --egress-usd-per-gb N                 traffic out to the internet (default 0.09)

User catalogs: files named gpus*.json / models*.json in the user's catalog folder ($XDG_DATA_HOME/gpusizer/GPU
Sizer/catalogs on Linux, or $GPUSIZER_CATALOG_DIR) add entries or override shipped ones by id; prices*.json there
replace the prices of the GPUs they name (docs/planning.md).
Memory is reported in GiB (2^30 bytes) per GPU unless labelled "total".
Exit status: 0 ok, 1 usage error, 2 bad input (the message names the file, field and reason), 3 output not written.
)";
    return text;
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (args.empty()) {
        err << usageText();
        return kUsage;
    }
    const std::string& name = args[0];
    if (name == "--version" || name == "version") {
        out << "gpusizer-cli " << core::versionString() << "\n";
        return kOk;
    }
    if (name == "help" || name == "--help" || name == "-h") {
        out << usageText();
        return kOk;
    }
    const auto& table = commands();
    const auto command = std::find_if(table.begin(), table.end(), [&](const Command& c) { return name == c.name; });
    if (command == table.end()) {
        err << "gpusizer-cli: unknown command '" << name << "'\n" << usageText();
        return kUsage;
    }
    const Args a = parseArgs(args, 1);
    if (!a.unknownOption.empty()) {
        err << "gpusizer-cli: unknown option '" << a.unknownOption << "'\n" << usageText();
        return kUsage;
    }
    return command->run(a, out, err);
}

} // namespace gpusizer::cli
