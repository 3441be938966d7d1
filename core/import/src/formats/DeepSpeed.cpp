// A DeepSpeed JSON config (a file of its own, or the section a trainer writes inline), as a table.

#include "../FormatSteps.h"
#include "gpusizer/scenario/FrameworkProfile.h"

#include <tuple>

namespace gpusizer::core::detail {

using nlohmann::json;

namespace {

#define ZERO_CONFIG DEEPSPEED "deepspeed/runtime/zero/config.py"
#define ZERO_ELEMENTS ZERO_CONFIG " (elements, default 1e9)"
#define RUNTIME_CONSTANTS DEEPSPEED "deepspeed/runtime/constants.py"

// Read in readDeepspeed's order by the steps below, which take the stage and the launcher's defaults: the rows give
// them their fields, ranges and sources, and the page its lines.
constexpr KeyRow kDeepspeed[] = {
    {.key = "zero_optimization.stage",
     .field = "sharding",
     .kind = ValueKind::Integer,
     .min = 0,
     .max = 3,
     .fallback = "0",
     .source = ZERO_CONFIG ":95"},
    {.key = "zero_optimization.offload_optimizer.device",
     .field = "offload",
     .kind = ValueKind::Text,
     .source = DEEPSPEED "deepspeed/runtime/zero/offload_config.py (none, cpu, nvme)",
     .shownKey = "`zero_optimization.offload_optimizer.device` / `offload_param.device` (`cpu`, `nvme`; parameters "
                 "only at stage 3)",
     .shownDefault = "`none`"},
    {.key = "zero_optimization.offload_param.device",
     .field = "offload",
     .kind = ValueKind::Text,
     .source = DEEPSPEED "deepspeed/runtime/zero/offload_config.py (none, cpu, nvme)",
     .shownKey = ""},
    {.key = "zero_optimization.reduce_bucket_size",
     .field = "framework_overrides",
     .kind = ValueKind::Number,
     .fallback = "5e8",
     .source = ZERO_CONFIG ":113",
     .shownField = "framework_overrides.zero_reduce_bucket_elements; `auto`: hidden_size²"},
    {.key = "zero_optimization.stage3_prefetch_bucket_size",
     .field = "framework_overrides",
     .kind = ValueKind::Number,
     .fallback = "5e7",
     .source = ZERO_CONFIG ":215",
     .shownField = "framework_overrides.zero_prefetch_bucket_elements; `auto`: 0.9 × hidden_size²"},
    {.key = "zero_optimization.overlap_comm",
     .field = "framework_overrides",
     .kind = ValueKind::Flag,
     .source = ZERO_CONFIG ":383 (default: on at stage 3 only)",
     .shownField = "framework_overrides.zero_overlap_comm when true at stage 1 or 2 (a second reduce bucket)",
     .shownDefault = "on at stage 3 only"},
    {.key = "zero_optimization.stage3_max_reuse_distance",
     .field = "framework_overrides",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 1e15,
     .source = ZERO_ELEMENTS,
     .shownKey = "`zero_optimization.stage3_max_reuse_distance` (or `max_reuse_distance`)",
     .shownField = "framework_overrides.zero_max_reuse_distance (only when not 1e9)",
     .shownDefault = "1e9"},
    {.key = "zero_optimization.stage3_max_live_parameters",
     .field = "framework_overrides",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 1e15,
     .source = ZERO_ELEMENTS,
     .shownKey = "`zero_optimization.stage3_max_live_parameters` (or `max_live_parameters`)",
     .shownField = "framework_overrides.zero_max_live_parameters (only when not 1e9)",
     .shownDefault = "1e9"},
    {.key = "train_micro_batch_size_per_gpu",
     .field = "micro_batch",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .source = RUNTIME_CONSTANTS,
     .shownField = "micro_batch; `auto`: the Trainer's"},
    {.key = "gradient_accumulation_steps",
     .field = "gradient_accumulation",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .source = RUNTIME_CONSTANTS,
     .shownField = "gradient_accumulation; `auto`: the Trainer's"},
    {.key = "bf16.enabled",
     .field = "precision",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = RUNTIME_CONSTANTS " (default false)",
     .shownKey = "`bf16.enabled` (or `bfloat16.enabled`) / `fp16.enabled`",
     .shownField = "precision; `auto`: the Trainer's bf16 / fp16 (a trainer file's flag wins); both true: refused "
                   "(runtime/config.py:827)"},
    {.key = "fp16.enabled",
     .field = "precision",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = RUNTIME_CONSTANTS " (default false)",
     .shownKey = ""},
    {.key = "bf16.bf16_master_weights_and_grads",
     .field = "precision",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = DEEPSPEED "runtime/precision_config.py:63",
     .shownKey = "`bf16.bf16_master_weights_and_grads` + `bf16.bf16_optimizer_states`",
     .shownField = "precision bf16 master weights, gradients and optimizer states (12 B per parameter); needs a ZeRO "
                   "stage, and the states need the master (runtime/config.py:1041-1049); a bf16 master with fp32 "
                   "states only with the optimizer offloaded"},
    {.key = "bf16.bf16_optimizer_states",
     .field = "precision",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = DEEPSPEED "runtime/precision_config.py:68",
     .shownKey = ""},
    {.key = "activation_checkpointing",
     .kind = ValueKind::Ignored,
     .why = QT_TRANSLATE_NOOP("gpusizer", "only models that call deepspeed.checkpointing use it; Hugging Face "
                                          "models checkpoint through gradient_checkpointing")},
};

Result<void> readOffload(KeyReader& r, const std::string& prefix) {
    for (const auto& [row, level] :
         {std::pair{&rowOf(kDeepspeed, "zero_optimization.offload_optimizer.device"), Offload::Optimizer},
          std::pair{&rowOf(kDeepspeed, "zero_optimization.offload_param.device"), Offload::OptimizerAndParams}}) {
        GPUSIZER_ASSIGN(auto device, readText(r, *row, prefix));
        applyDeepspeedOffload(r, prefix + row->key, device, level);
    }
    return {};
}

/// overlap_comm doubles ZeRO-1/2's IPG buffer; DeepSpeed turns it on by default at stage 3 only, where it does not.
Result<void> readOverlapComm(KeyReader& r, const std::string& prefix, std::int64_t stage) {
    GPUSIZER_ASSIGN(auto overlap, readFlag(r, rowOf(kDeepspeed, "zero_optimization.overlap_comm"), prefix));
    if (overlap && *overlap && stage <= 2) {
        r.run().scenario.overrides.zeroOverlapComm = true;
    }
    return {};
}

/// ZeRO-3's gathered working set (partitioned_param_coordinator.py); absent, DeepSpeed's 1e9 is the profile's.
/// DeepSpeed takes the alias or the field name (zero/config.py; config_utils.py allow_population_by_field_name):
/// Axolotl's zero3_bf16.json writes max_live_parameters.
Result<void> readZero3WorkingSet(KeyReader& r, const std::string& prefix) {
    Scenario& s = r.run().scenario;
    const FrameworkProfile profile;
    const std::string zero = prefix + "zero_optimization.";
    for (const auto& [row, name, field, fallback] :
         {std::tuple{&rowOf(kDeepspeed, "zero_optimization.stage3_max_reuse_distance"), "max_reuse_distance",
                     &ProfileOverrides::zeroMaxReuseDistance, profile.zeroMaxReuseDistance},
          std::tuple{&rowOf(kDeepspeed, "zero_optimization.stage3_max_live_parameters"), "max_live_parameters",
                     &ProfileOverrides::zeroMaxLiveParameters, profile.zeroMaxLiveParameters}}) {
        const std::string alias = prefix + row->key;
        const std::string key = r.value(alias) != nullptr ? alias : zero + name;
        GPUSIZER_ASSIGN(auto elements, r.number(key, row->field, row->source, row->min, row->max));
        if (elements && *elements != fallback) { // an override only where the file differs from the profile
            s.overrides.*field = *elements;
        }
    }
    return {};
}

/// "auto" values are the Trainer's (transformers integrations/deepspeed.py trainer_config_process).
Result<void> readBatch(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    for (const auto& [row, field] :
         {std::pair{&rowOf(kDeepspeed, "train_micro_batch_size_per_gpu"), &Scenario::microBatch},
          std::pair{&rowOf(kDeepspeed, "gradient_accumulation_steps"), &Scenario::gradientAccumulation}}) {
        const std::string k = prefix + row->key;
        const json* v = r.value(k);
        if (v != nullptr && v->is_string() && v->get<std::string>() == "auto") {
            run.lines.push_back({ImportLine::Kind::Used, r.doc().position(k), k, "auto → " + std::to_string(s.*field),
                                 row->field,
                                 verbatim("transformers integrations/deepspeed.py trainer_config_process: the "
                                          "Trainer's value")});
        } else if (v != nullptr) {
            GPUSIZER_ASSIGN(auto n, readIntegerAt(r, *row, k, std::nullopt));
            s.*field = *n;
        }
    }
    return {};
}

/// DeepSpeed's bf16 master options (runtime/precision_config.py:63,68, v0.18.3+), with the checks its config and
/// optimizers make: both need a ZeRO stage (config.py:1041-1049), the optimizer states need the master, and a bf16
/// master with fp32 states runs only with the optimizer offloaded to DeepSpeedCPUAdam (base_optimizer.py:510-512,
/// stage_1_and_2.py:292, stage3.py:295).
Result<void> readBf16Master(KeyReader& r, const std::string& section, bool bf16, std::int64_t stage) {
    RunDraft& run = r.run();
    const KeyRow& masterRow = rowOf(kDeepspeed, "bf16.bf16_master_weights_and_grads");
    const KeyRow& statesRow = rowOf(kDeepspeed, "bf16.bf16_optimizer_states");
    const std::string masterKey = section + "bf16_master_weights_and_grads";
    const std::string statesKey = section + "bf16_optimizer_states";
    GPUSIZER_ASSIGN(auto master, readFlagAt(r, masterRow, masterKey, false));
    GPUSIZER_ASSIGN(auto states, readFlagAt(r, statesRow, statesKey, false));
    if (!*master && !*states) {
        return {};
    }
    if (!bf16) {
        r.noteKey(*master ? masterKey : statesKey,
                  QT_TRANSLATE_NOOP("gpusizer", "bf16 is not enabled: DeepSpeed's bf16 options do not apply"));
        return {};
    }
    if (stage == 0) {
        return tl::unexpected(r.error(*master ? masterKey : statesKey,
                                      QT_TRANSLATE_NOOP("gpusizer", "DeepSpeed runs its bf16 master weights and "
                                                                    "optimizer states under ZeRO stage 1, 2 or 3 only "
                                                                    "(runtime/config.py:1041)")));
    }
    if (*states && !*master) {
        return tl::unexpected(r.error(statesKey, QT_TRANSLATE_NOOP("gpusizer", "DeepSpeed refuses "
                                                                               "bf16_optimizer_states without "
                                                                               "bf16_master_weights_and_grads "
                                                                               "(runtime/config.py:1047)")));
    }
    if (!*states) {
        if (run.scenario.offload == Offload::None) {
            return tl::unexpected(r.error(
                masterKey, QT_TRANSLATE_NOOP("gpusizer", "DeepSpeed runs a bf16 master with fp32 optimizer states "
                                                         "only with the optimizer offloaded to DeepSpeedCPUAdam "
                                                         "(zero/stage_1_and_2.py:292, stage3.py:295); set "
                                                         "bf16_optimizer_states too")));
        }
        r.noteKey(masterKey, QT_TRANSLATE_NOOP("gpusizer", "the master copy and fp32 states live on the CPU with "
                                                           "the offloaded optimizer: the GPU holds what it holds with "
                                                           "an fp32 master, which is sized (host RAM 2 B per "
                                                           "parameter high)"));
        return {};
    }
    run.deepspeedBf16Master = true;
    return {};
}

/// The bf16 / fp16 sections: which 16-bit mode the engine runs (the Trainer's flag wins, as transformers makes it),
/// and DeepSpeed's bf16 master switches.
Result<void> readPrecision(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    // "bfloat16" is the older spelling of "bf16" (runtime/constants.py BFLOAT16_OLD).
    const std::string bf16Key = r.has(prefix + "bfloat16.enabled") ? "bfloat16.enabled" : "bf16.enabled";
    const json* bf16On = r.doc().find(prefix + bf16Key);
    const json* fp16On = r.doc().find(prefix + "fp16.enabled");
    if (bf16On != nullptr && fp16On != nullptr && *bf16On == true && *fp16On == true) {
        // runtime/config.py:827-828 asserts that at most one 16-bit mode is on.
        return tl::unexpected(r.error(prefix + "fp16.enabled",
                                      QT_TRANSLATE_NOOP("gpusizer", "DeepSpeed refuses bf16 and fp16 enabled together "
                                                                    "(runtime/config.py:827)")));
    }
    for (const auto& [key, row, dtype] :
         {std::tuple{bf16Key, &rowOf(kDeepspeed, "bf16.enabled"), "bf16"},
          std::tuple{std::string("fp16.enabled"), &rowOf(kDeepspeed, "fp16.enabled"), "fp16"}}) {
        const std::string k = prefix + key;
        const json* v = r.value(k);
        if (v != nullptr && v->is_boolean()) {
            if (v->get<bool>() && !run.computeFromTrainer) {
                run.compute = dtype;
            } else if (v->get<bool>() != (run.compute == dtype) && run.computeFromTrainer) {
                r.noteKey(k,
                          QT_TRANSLATE_NOOP("gpusizer", "differs from the Trainer's bf16 / fp16, which transformers "
                                                        "refuses (trainer_config_finalize): the Trainer's is sized"));
            }
            run.lines.push_back(
                {ImportLine::Kind::Used, r.doc().position(k), k, v->dump(), row->field, verbatim(row->source)});
        } else if (v != nullptr) {
            run.lines.push_back({ImportLine::Kind::Used, r.doc().position(k), k, shown(*v), row->field,
                                 verbatim("transformers trainer_config_process: the Trainer's bf16 / fp16")});
        }
    }
    return {};
}

} // namespace

Result<void> readDeepspeed(KeyReader& r, const std::string& prefix, const ZeroDefaults& defaults) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    run.deepspeed = true;
    s.shardingEngine = ShardingEngine::Deepspeed;
    const KeyRow& stageRow = rowOf(kDeepspeed, "zero_optimization.stage");
    GPUSIZER_ASSIGN(auto stage, r.integer(prefix + stageRow.key, stageRow.field, defaults.stageSource,
                                          static_cast<std::int64_t>(stageRow.min),
                                          static_cast<std::int64_t>(stageRow.max), defaults.stage));
    s.sharding = shardingForZeroStage(*stage);
    GPUSIZER_CHECK(readOffload(r, prefix));
    deepspeedBucketDefaults(r, prefix + "zero_optimization.", defaults);
    GPUSIZER_CHECK(readOverlapComm(r, prefix, *stage));
    GPUSIZER_CHECK(readZero3WorkingSet(r, prefix));
    GPUSIZER_CHECK(readBatch(r, prefix));
    GPUSIZER_CHECK(readPrecision(r, prefix));
    const std::string bf16Key = r.has(prefix + "bfloat16.enabled") ? "bfloat16." : "bf16.";
    GPUSIZER_CHECK(readBf16Master(r, prefix + bf16Key, run.compute == "bf16", *stage));
    GPUSIZER_CHECK(walk(r, std::span(kDeepspeed).last(1), prefix)); // activation_checkpointing: ignored
    if (s.sharding == Sharding::Zero3) {
        run.lines.push_back({ImportLine::Kind::Note, r.doc().position(""), "", "", "",
                             QT_TRANSLATE_NOOP("gpusizer", "DeepSpeed ZeRO-3 with a transformers model: zero.Init "
                                                           "partitions the model as it loads")});
    }
    return {};
}

std::span<const KeyTable> deepspeedKeyTables() {
    static constexpr KeyTable kTables[] = {{ConfigFormat::Deepspeed, DEEPSPEED, kDeepspeed}};
    return kTables;
}

} // namespace gpusizer::core::detail
