// accelerate's config YAML (`accelerate config`), and the FSDP keys it shares with Axolotl and the Trainer, as tables.

#include "../FormatSteps.h"

namespace gpusizer::core::detail {

using nlohmann::json;

namespace {

#define DEEPSPEED_PLUGIN ACCELERATE "utils/dataclasses.py DeepSpeedPlugin"
#define FSDP_PLUGIN ACCELERATE "utils/dataclasses.py FullyShardedDataParallelPlugin"

Result<void> applyDistributedType(KeyReader& r, const std::string& key, const std::string& type);
Result<void> readProcesses(KeyReader& r, const std::string& prefix);
Result<void> applyMixedPrecision(KeyReader& r, const std::string& key, const std::string& mixed);
Result<void> readDeepspeedPlugin(KeyReader& r, const std::string& prefix);
Result<void> readFsdpPlugin(KeyReader& r, const std::string& prefix);

constexpr KeyRow kAccelerate[] = {
    {.key = "distributed_type",
     .field = "sharding",
     .kind = ValueKind::Text,
     .fallback = "NO",
     .source = ACCELERATE "utils/dataclasses.py DistributedType",
     .convert = applyDistributedType,
     .shownKey = "`distributed_type` (`NO`, `MULTI_GPU`, `DEEPSPEED`, `FSDP`)",
     .shownField = "sharding, sharding_engine"},
    {.key = "num_processes",
     .field = "gpus",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 100000,
     .fallback = "1",
     .source = ACCELERATE "commands/config/config_args.py:180 (all machines' processes)",
     .step = readProcesses,
     .shownField = "gpus (every machine's processes)",
     .shownDefault = "1 (`--gpus` replaces a count no file gives)"},
    {.key = "num_machines",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 100000,
     .fallback = "1",
     .source = ACCELERATE "commands/config/config_args.py:181",
     .setInteger = [](RunDraft&, std::int64_t) {}, // num_processes already counts every machine's processes
     .shownField = "(read: num_processes already counts every machine's)"},
    {.key = "mixed_precision",
     .field = "precision",
     .kind = ValueKind::Text,
     .source = ACCELERATE "commands/config/cluster.py:792",
     .convert = applyMixedPrecision,
     .shownKey = "`mixed_precision` (`no`, `bf16`, `fp16`; `fp8` sized as bf16, noted)",
     .shownField = "precision, when no trainer file sets bf16 / fp16"},
    {.key = "deepspeed_config.deepspeed_config_file",
     .kind = ValueKind::Text,
     .source = ACCELERATE "commands/config/cluster.py:248",
     .step = readDeepspeedPlugin,
     .shownField = "the DeepSpeed JSON it names, read instead of the keys below",
     .shownDefault = "none"},
    {.key = "deepspeed_config.zero_stage",
     .field = "sharding",
     .kind = ValueKind::Integer,
     .min = 0,
     .max = 3,
     .fallback = "2",
     .source = DEEPSPEED_PLUGIN},
    {.key = "deepspeed_config.offload_optimizer_device",
     .field = "offload",
     .kind = ValueKind::Text,
     .fallback = "none",
     .source = DEEPSPEED_PLUGIN,
     .shownKey = "`deepspeed_config.offload_optimizer_device` / `offload_param_device` (`cpu`, `nvme`; parameters "
                 "only at stage 3)"},
    {.key = "deepspeed_config.offload_param_device",
     .field = "offload",
     .kind = ValueKind::Text,
     .fallback = "none",
     .source = DEEPSPEED_PLUGIN,
     .shownKey = ""},
    {.key = "deepspeed_config.gradient_accumulation_steps",
     .field = "gradient_accumulation",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .source = DEEPSPEED_PLUGIN},
    {.key = "deepspeed_config.",
     .field = "framework_overrides",
     .source = DEEPSPEED "zero/config.py:113, :215",
     .shownKey = "(the generated DeepSpeed config's buckets)",
     .shownField = "framework_overrides: reduce 5e8, prefetch 5e7 elements",
     .shownDefault = "DeepSpeed's defaults: the plugin names no bucket"},
    {.key = "fsdp_config.", .step = readFsdpPlugin, .shownKey = ""},
};

/// The layout, checked where the file names it; DeepSpeed's and FSDP's sections are read by their rows below.
Result<void> applyDistributedType(KeyReader& r, const std::string& key, const std::string& type) {
    RunDraft& run = r.run();
    if (type == "DEEPSPEED") {
        run.deepspeed = true;
        run.scenario.shardingEngine = ShardingEngine::Deepspeed;
    } else if (type == "MULTI_GPU" || type == "NO") {
        run.scenario.sharding = Sharding::None;
    } else if (type != "FSDP") {
        return tl::unexpected(
            r.error(key, words(QT_TRANSLATE_NOOP("gpusizer", "'%1' is not a GPU layout GPU Sizer sizes (NO, MULTI_GPU, "
                                                             "DEEPSPEED, FSDP)"),
                               type)));
    }
    return {};
}

/// The distributed_type the file names (read by its row), or accelerate's NO.
std::string distributedType(const KeyReader& r) {
    const json* type = r.peek("distributed_type");
    return type != nullptr && type->is_string() ? type->get<std::string>() : "NO";
}

Result<void> readProcesses(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kAccelerate, "num_processes");
    GPUSIZER_ASSIGN(auto processes, readInteger(r, row, prefix));
    r.run().gpus = *processes;
    r.run().gpusDefaulted = !r.has(prefix + row.key);
    return {};
}

Result<void> applyMixedPrecision(KeyReader& r, const std::string& key, const std::string& mixed) {
    RunDraft& run = r.run();
    const std::string launcher = mixed == "bf16" || mixed == "fp16" ? mixed : mixed == "fp8" ? "bf16" : "";
    if (mixed == "fp8") {
        r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "accelerate's fp8 backends are not read: sized as bf16 (float8 "
                                                     "models torchao's Float8Linear)"));
    }
    if (!run.computeFromTrainer) {
        run.compute = launcher;
    } else if (launcher != run.compute) {
        // TrainingArguments.__post_init__: "if training args is specified, it will override the one specified in
        // the accelerate config".
        r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "the Trainer's bf16 / fp16 overrides it"));
    }
    return {};
}

/// The DeepSpeedPlugin's keys, or the DeepSpeed JSON its deepspeed_config_file names instead.
Result<void> readDeepspeedPlugin(KeyReader& r, const std::string& prefix) {
    if (distributedType(r) != "DEEPSPEED") {
        return {};
    }
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    const KeyRow& fileRow = rowOf(kAccelerate, "deepspeed_config.deepspeed_config_file");
    const std::string fileKey = prefix + fileRow.key;
    if (const json* file = r.value(fileKey);
        file != nullptr && file->is_string() && file->get<std::string>() != "none") {
        addReference(r, fileKey, file->get<std::string>());
        run.lines.push_back({ImportLine::Kind::Used, r.doc().position(fileKey), fileKey, file->get<std::string>(), "",
                             verbatim(fileRow.source)});
        return {};
    }
    GPUSIZER_ASSIGN(auto stage, readInteger(r, rowOf(kAccelerate, "deepspeed_config.zero_stage"), prefix));
    s.sharding = shardingForZeroStage(*stage);
    for (const auto& [row, level] :
         {std::pair{&rowOf(kAccelerate, "deepspeed_config.offload_optimizer_device"), Offload::Optimizer},
          std::pair{&rowOf(kAccelerate, "deepspeed_config.offload_param_device"), Offload::OptimizerAndParams}}) {
        GPUSIZER_ASSIGN(auto device, readText(r, *row, prefix));
        applyDeepspeedOffload(r, prefix + row->key, device, level);
    }
    GPUSIZER_ASSIGN(auto accumulation,
                    readInteger(r, rowOf(kAccelerate, "deepspeed_config.gradient_accumulation_steps"), prefix));
    if (accumulation) {
        s.gradientAccumulation = *accumulation;
    }
    // The config DeepSpeedPlugin writes names no bucket sizes: DeepSpeed's own defaults apply.
    deepspeedBucketDefaults(r, prefix + "deepspeed_config.");
    return {};
}

Result<void> readFsdpPlugin(KeyReader& r, const std::string& prefix) {
    if (distributedType(r) != "FSDP") {
        return {};
    }
    return readFsdpConfig(r, prefix + "fsdp_config.", FSDP_PLUGIN);
}

/// accelerate's FSDP keys, with or without the older fsdp_ prefix; the source is the plugin's, or the caller's.
constexpr KeyRow kFsdp[] = {
    {.key = "fsdp_version",
     .field = "sharding_engine",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 2,
     .fallback = "1",
     .source = FSDP_PLUGIN,
     .shownKey = "`fsdp_config.fsdp_version`",
     .shownField = "sharding_engine `fsdp1` / `fsdp2`"},
    {.key = "fsdp_sharding_strategy",
     .field = "sharding",
     .kind = ValueKind::Text,
     .fallback = "FULL_SHARD",
     .source = FSDP_PLUGIN,
     .shownKey = "`fsdp_config.fsdp_sharding_strategy` (`FULL_SHARD` or 1, `SHARD_GRAD_OP` or 2, `NO_SHARD` or 3, "
                 "`HYBRID_SHARD` 4, `HYBRID_SHARD_ZERO2` 5) or `fsdp_reshard_after_forward`",
     .shownField = "sharding ZeRO-3 / ZeRO-2 / none"},
    {.key = "fsdp_offload_params",
     .field = "offload",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = FSDP_PLUGIN,
     .shownKey = "`fsdp_config.fsdp_offload_params`",
     .shownField = "offload `optimizer+params` (parameters, gradients and states on the host)"},
    {.key = "fsdp_activation_checkpointing",
     .field = "gradient_checkpointing",
     .kind = ValueKind::Flag,
     .source = FSDP_PLUGIN,
     .shownKey = "`fsdp_config.fsdp_activation_checkpointing`",
     .shownField = "gradient_checkpointing full",
     .shownDefault = "false"},
};

/// The sharding strategy by name or number (v1), or reshard_after_forward (v2).
Result<void> readShardingStrategy(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    const std::string strategyKey = spelling(
        r, prefix,
        {"fsdp_sharding_strategy", "sharding_strategy", "fsdp_reshard_after_forward", "reshard_after_forward"});
    const json* v = r.value(strategyKey);
    if (v == nullptr) {
        run.lines.push_back({ImportLine::Kind::Defaulted, r.doc().position(""), strategyKey, "FULL_SHARD", "sharding",
                             verbatim(ACCELERATE "utils/dataclasses.py: FULL_SHARD (v1), reshard_after_forward "
                                                 "true (v2)")});
        return {};
    }
    const std::string text = v->is_string() ? v->get<std::string>() : v->dump();
    if (text == "FULL_SHARD" || text == "1" || text == "HYBRID_SHARD" || text == "4" || text == "true") {
        s.sharding = Sharding::Zero3;
    } else if (text == "SHARD_GRAD_OP" || text == "2" || text == "HYBRID_SHARD_ZERO2" || text == "5" ||
               text == "false") {
        s.sharding = Sharding::Zero2;
    } else if (text == "NO_SHARD" || text == "3") {
        s.sharding = Sharding::None;
    } else {
        return tl::unexpected(r.error(
            strategyKey, words(QT_TRANSLATE_NOOP("gpusizer", "sharding strategy '%1' is not an FSDP one"), text)));
    }
    run.lines.push_back({ImportLine::Kind::Used, r.doc().position(strategyKey), strategyKey, text, "sharding",
                         verbatim(ACCELERATE "utils/dataclasses.py FullyShardedDataParallelPlugin (1 = "
                                             "FULL_SHARD, 2 = SHARD_GRAD_OP, 3 = NO_SHARD)")});
    return {};
}

} // namespace

Result<void> readAccelerate(KeyReader& r) {
    return walk(r, kAccelerate);
}

Result<void> readFsdpConfig(KeyReader& r, const std::string& prefix, const char* source) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    run.fsdp = true;
    s.sharding = Sharding::Zero3;
    const KeyRow& versionRow = rowOf(kFsdp, "fsdp_version");
    GPUSIZER_ASSIGN(auto version,
                    r.integer(spelling(r, prefix, {"fsdp_version", "version"}), versionRow.field, source,
                              static_cast<std::int64_t>(versionRow.min), static_cast<std::int64_t>(versionRow.max),
                              std::stoll(versionRow.fallback)));
    s.shardingEngine = version == 2 ? ShardingEngine::Fsdp2 : ShardingEngine::Fsdp1;
    GPUSIZER_CHECK(readShardingStrategy(r, prefix));
    const KeyRow& offloadRow = rowOf(kFsdp, "fsdp_offload_params");
    GPUSIZER_ASSIGN(auto offload, r.flag(spelling(r, prefix, {"fsdp_offload_params", "offload_params"}),
                                         offloadRow.field, source, false));
    if (*offload) {
        s.offload = Offload::OptimizerAndParams; // CPUOffload(offload_params=True): parameters, gradients, states
    }
    const KeyRow& checkpointingRow = rowOf(kFsdp, "fsdp_activation_checkpointing");
    GPUSIZER_ASSIGN(auto ac, r.flag(spelling(r, prefix, {"fsdp_activation_checkpointing", "activation_checkpointing"}),
                                    checkpointingRow.field, source));
    if (ac && *ac) {
        s.checkpointing = Checkpointing::Full;
    }
    return {};
}

std::span<const KeyTable> accelerateKeyTables() {
    static constexpr KeyTable kTables[] = {
        {ConfigFormat::Accelerate, ACCELERATE, kAccelerate},
        {ConfigFormat::Accelerate, ACCELERATE, kFsdp},
    };
    return kTables;
}

} // namespace gpusizer::core::detail
