// verl's PPO trainer run as GRPO (volcengine/verl @b178a3cd, verl/trainer/main_ppo.py and its Hydra config
// trainer/config/*.yaml): the actor under FSDP with fp32 master weights and bf16 compute, vLLM generating on the same
// GPUs and put to sleep while the actor trains, the reference model when a KL term is on. Read from a launch script's
// overrides or from a YAML of the same keys.

#include "../FormatSteps.h"

namespace gpusizer::core::detail {

namespace {

Result<void> readEstimator(KeyReader& r, const std::string& prefix);
Result<void> readGpus(KeyReader& r, const std::string& prefix);
Result<void> readLengths(KeyReader& r, const std::string& prefix);
Result<void> readGenerations(KeyReader& r, const std::string& prefix);
Result<void> readRolloutEngine(KeyReader& r, const std::string& prefix);
Result<void> readKl(KeyReader& r, const std::string& prefix);
Result<void> readLora(KeyReader& r, const std::string& prefix);
Result<void> readStrategy(KeyReader& r, const std::string& prefix);
Result<void> readDtypes(KeyReader& r, const std::string& prefix);
Result<void> readBatches(KeyReader& r, const std::string& prefix);

#define VERL_CONFIG VERL "verl/trainer/config/"
#define VERL_WORKERS VERL "verl/workers/fsdp_workers.py"

constexpr const char* kPhaseOffload =
    QT_TRANSLATE_NOOP("gpusizer", "moves them to the host between generation and training; the training step, the "
                                  "peak sized here, has them on the GPU (fsdp_workers.py L682, L720)");

constexpr KeyRow kVerl[] = {
    {.key = "algorithm.adv_estimator",
     .field = "run_kind",
     .kind = ValueKind::Text,
     .fallback = "gae",
     .source = VERL_CONFIG "ppo_trainer.yaml:81",
     .step = readEstimator,
     .shownKey = "`algorithm.adv_estimator` (`grpo`, `rloo`, `reinforce_plus_plus`, `remax`, … ; `gae` refused)",
     .shownField = "run_kind `grpo` (the critic-free estimators generate and train alike); PPO with a critic (`gae`) "
                   "is refused with the reason"},
    {.key = "actor_rollout_ref.model.path",
     .field = "model",
     .kind = ValueKind::Text,
     .source = VERL_CONFIG "model/hf_model.yaml:10",
     .convert = applyModelName,
     .shownDefault = "required (verl's default is a local folder)"},
    {.key = "trainer.n_gpus_per_node",
     .field = "gpus",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "8",
     .source = VERL_CONFIG "ppo_trainer.yaml:156",
     .step = readGpus,
     .shownField = "gpus = n_gpus_per_node × nnodes (one pool for the actor, the rollout and the reference: "
                   "main_ppo.py L202-205)"},
    {.key = "trainer.nnodes",
     .field = "gpus",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "1",
     .source = VERL_CONFIG "ppo_trainer.yaml:153"},
    {.key = "data.max_prompt_length",
     .field = "seq_len",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 16'777'216,
     .fallback = "512",
     .source = VERL_CONFIG "data/legacy_data.yaml:35",
     .step = readLengths,
     .shownField = "seq_len = max_prompt_length + max_response_length"},
    {.key = "data.max_response_length",
     .field = "completion_length",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 16'777'216,
     .fallback = "512",
     .source = VERL_CONFIG "data/legacy_data.yaml:39"},
    {.key = "actor_rollout_ref.rollout.n",
     .field = "num_generations",
     .kind = ValueKind::Integer,
     .min = 2,
     .max = 65536,
     .fallback = "1",
     .source = VERL_CONFIG "rollout/rollout.yaml:108",
     .step = readGenerations,
     .shownField = "num_generations (GRPO needs 2 or more; verl's default 1 is refused)"},
    {.key = "actor_rollout_ref.rollout.name",
     .field = "generation",
     .kind = ValueKind::Text,
     .source = VERL_CONFIG "rollout/rollout.yaml:5",
     .step = readRolloutEngine,
     .shownKey = "`actor_rollout_ref.rollout.name` (`vllm`, `sglang`, `hf`)",
     .shownField = "generation `vllm-colocate` (the hybrid engine: the same GPUs, ppo_trainer.yaml:46-47; SGLang "
                   "sized as vLLM, noted) or `transformers`",
     .shownDefault = "required"},
    {.key = "actor_rollout_ref.rollout.gpu_memory_utilization",
     .field = "vllm_gpu_memory_utilization",
     .kind = ValueKind::Number,
     .min = 0.01,
     .max = 0.99,
     .fallback = "0.5",
     .source = VERL_CONFIG "rollout/rollout.yaml:32 (vLLM's share of the whole card, the actor's memory on top)",
     .setNumber = [](RunDraft& d, double v) { d.scenario.vllmMemoryUtilization = v; }},
    {.key = "actor_rollout_ref.rollout.free_cache_engine",
     .field = "vllm_sleep_mode",
     .kind = ValueKind::Flag,
     .fallback = "true",
     .source = VERL_CONFIG "rollout/rollout.yaml:47; ray_trainer.py L1397 sleep_replicas, "
                           "vllm_async_server.py L563-569 sleep(level=2): weights and KV cache freed",
     .setFlag = [](RunDraft& d, bool v) { d.scenario.vllmSleepMode = v; }},
    {.key = "actor_rollout_ref.rollout.tensor_model_parallel_size",
     .kind = ValueKind::Ignored,
     .source = VERL_CONFIG "rollout/rollout.yaml:50",
     .why = QT_TRANSLATE_NOOP("gpusizer", "vLLM's weights split over this many GPUs inside its share; the share, "
                                          "which is what the training GPUs give up, does not change")},
    {.key = "actor_rollout_ref.actor.use_kl_loss",
     .field = "kl_beta",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = VERL_CONFIG "actor/actor.yaml:95",
     .step = readKl,
     .shownField = "kl_beta = kl_loss_coef with use_kl_loss, or kl_ctrl.kl_coef with use_kl_in_reward (either makes "
                   "the reference model, ppo/utils.py L72-76); 0 otherwise"},
    {.key = "actor_rollout_ref.actor.kl_loss_coef",
     .field = "kl_beta",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 1e6,
     .fallback = "0.001",
     .source = VERL_CONFIG "actor/actor.yaml:105"},
    {.key = "algorithm.use_kl_in_reward",
     .field = "kl_beta",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = VERL_CONFIG "ppo_trainer.yaml:87"},
    {.key = "algorithm.kl_ctrl.kl_coef",
     .field = "kl_beta",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 1e6,
     .fallback = "0.001",
     .source = VERL_CONFIG "ppo_trainer.yaml:102"},
    {.key = "actor_rollout_ref.model.lora_rank",
     .field = "method",
     .kind = ValueKind::Integer,
     .min = 0,
     .max = 65536,
     .fallback = "0",
     .source = VERL_CONFIG "model/hf_model.yaml:43",
     .step = readLora,
     .shownField = "method full (0) or LoRA with lora.rank (PEFT, fsdp_workers.py L442-471; no dropout)"},
    {.key = "actor_rollout_ref.model.lora_alpha",
     .field = "lora.alpha",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 1e6,
     .fallback = "16",
     .source = VERL_CONFIG "model/hf_model.yaml:46"},
    {.key = "actor_rollout_ref.model.target_modules",
     .field = "lora.targets",
     .kind = ValueKind::List,
     .fallback = "all-linear",
     .source = VERL_CONFIG "model/hf_model.yaml:49"},
    {.key = "actor_rollout_ref.model.exclude_modules",
     .field = "lora.vision_targets",
     .kind = ValueKind::Text,
     .source = VERL_CONFIG "model/hf_model.yaml:52",
     .shownField = "lora.vision_targets `none` when it names the vision model (verl's VLM recipes: `.*visual.*`), "
                   "`encoder` when it names the projector",
     .shownDefault = "none (nothing excluded)"},
    {.key = "actor_rollout_ref.model.enable_gradient_checkpointing",
     .field = "gradient_checkpointing",
     .kind = ValueKind::Flag,
     .fallback = "true",
     .source = VERL_CONFIG "model/hf_model.yaml:34",
     .setFlag = [](RunDraft& d, bool v) { d.scenario.checkpointing = v ? Checkpointing::Full : Checkpointing::None; },
     .shownField = "gradient_checkpointing full / none"},
    {.key = "actor_rollout_ref.model.use_remove_padding",
     .field = "padded_batches",
     .kind = ValueKind::Flag,
     .fallback = "true",
     .source = VERL_CONFIG "model/hf_model.yaml:40",
     .setFlag = [](RunDraft& d, bool v) { d.scenario.paddedBatches = !v; },
     .shownField = "padded_batches off when true (the sequences unpadded into one, FlashAttention's varlen)"},
    {.key = "actor_rollout_ref.model.enable_activation_offload",
     .field = "activation_offload",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = VERL_CONFIG "model/hf_model.yaml:37",
     .setFlag = [](RunDraft& d, bool v) { d.scenario.activationOffload = v; }},
    {.key = "actor_rollout_ref.model.use_liger",
     .field = "liger_rms_norm",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = VERL_CONFIG "model/hf_model.yaml:58",
     .setFlag =
         [](RunDraft& d, bool v) {
             if (v) {
                 setLigerKernels(d.scenario);
             }
         },
     .shownField = "liger_rms_norm, liger_glu, liger_rope (apply_liger_kernel's defaults)"},
    {.key = "actor_rollout_ref.actor.strategy",
     .field = "sharding_engine",
     .kind = ValueKind::Text,
     .fallback = "fsdp",
     .source = VERL_CONFIG "actor/dp_actor.yaml:26",
     .step = readStrategy,
     .shownField = "sharding zero3 (FULL_SHARD over every GPU, fsdp_workers.py L108-124) with sharding_engine fsdp1 / "
                   "fsdp2; `megatron` refused (its own trainer config)"},
    {.key = "actor_rollout_ref.actor.fsdp_config.reshard_after_forward",
     .field = "sharding",
     .kind = ValueKind::Flag,
     .fallback = "true",
     .source = VERL_CONFIG "engine/fsdp.yaml:23",
     .shownField = "sharding zero3 (true) or zero2 (SHARD_GRAD_OP)"},
    {.key = "actor_rollout_ref.actor.fsdp_config.model_dtype",
     .field = "precision",
     .kind = ValueKind::Text,
     .fallback = "fp32",
     .source = VERL_CONFIG "engine/fsdp.yaml:33",
     .step = readDtypes,
     .shownField = "precision fsdp-mixed-bf16 (fp32 weights, gradients and AdamW states; bf16 compute: "
                   "fsdp_workers.py L313, L493-503) or bf16 with model_dtype bf16"},
    {.key = "actor_rollout_ref.actor.fsdp_config.dtype",
     .field = "precision",
     .kind = ValueKind::Text,
     .fallback = "bfloat16",
     .source = VERL_CONFIG "engine/fsdp.yaml:63"},
    {.key = "actor_rollout_ref.actor.ulysses_sequence_parallel_size",
     .field = "context_parallel",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 1024,
     .fallback = "1",
     .source = VERL_CONFIG "actor/dp_actor.yaml:34",
     .setInteger =
         [](RunDraft& d, std::int64_t v) {
             d.scenario.contextParallel = v;
             d.scenario.contextParallelKind = ContextParallel::Ulysses;
         },
     .shownField = "context_parallel (Ulysses)"},
    {.key = "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu",
     .field = "micro_batch",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .source = VERL_CONFIG "actor/actor.yaml:24 (sequences of prompt and response)",
     .step = readBatches,
     .shownField = "micro_batch; with use_dynamic_bsz the sequences of seq_len that ppo_max_token_len_per_gpu × "
                   "the Ulysses size holds",
     .shownDefault = "required unless use_dynamic_bsz"},
    {.key = "actor_rollout_ref.actor.use_dynamic_bsz",
     .field = "micro_batch",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = VERL_CONFIG "actor/actor.yaml:28"},
    {.key = "actor_rollout_ref.actor.ppo_max_token_len_per_gpu",
     .field = "micro_batch",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 1'000'000'000,
     .fallback = "16384",
     .source = VERL_CONFIG "actor/actor.yaml:33; workers/actor/dp_actor.py L552"},
    {.key = "actor_rollout_ref.actor.ppo_mini_batch_size",
     .field = "gradient_accumulation",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 1'000'000'000,
     .fallback = "256",
     .source = VERL_CONFIG "actor/actor.yaml:18",
     .shownField = "gradient_accumulation = ppo_mini_batch_size × n ÷ (GPUs ÷ Ulysses size) ÷ micro_batch "
                   "(fsdp_workers.py L240-242, L255)"},
    {.key = "actor_rollout_ref.actor.fsdp_config.param_offload",
     .kind = ValueKind::Ignored,
     .source = VERL_CONFIG "engine/fsdp.yaml:12",
     .why = kPhaseOffload},
    {.key = "actor_rollout_ref.actor.fsdp_config.optimizer_offload",
     .kind = ValueKind::Ignored,
     .source = VERL_CONFIG "engine/fsdp.yaml:16",
     .why = kPhaseOffload},
    {.key = "actor_rollout_ref.ref.fsdp_config.param_offload",
     .kind = ValueKind::Ignored,
     .source = VERL_WORKERS " L524-526, L552",
     .why = QT_TRANSLATE_NOOP("gpusizer", "verl offloads the reference's parameters to the host whatever this says "
                                          "(FSDP CPUOffload)")},
    {.key = "actor_rollout_ref.actor.ppo_epochs",
     .kind = ValueKind::Ignored,
     .source = VERL_CONFIG "actor/actor.yaml:111",
     .why = QT_TRANSLATE_NOOP("gpusizer", "passes of training over each rollout: the same memory; the time of one "
                                          "pass is what the plan prices")},
};

/// The critic-free estimators all generate rollout.n samples per prompt and train the actor on them as GRPO does.
Result<void> readEstimator(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kVerl, "algorithm.adv_estimator");
    GPUSIZER_ASSIGN(auto read, readText(r, row, prefix));
    const std::string estimator = read.value_or(row.fallback);
    if (estimator == "gae") {
        return tl::unexpected(r.error(
            prefix + row.key,
            QT_TRANSLATE_NOOP("gpusizer", "PPO with a critic (gae) is not imported: verl trains a critic model of its "
                                          "own (critic.model.path) beside the actor and generates with vLLM, which "
                                          "GPU Sizer's PPO (TRL's, transformers' generation) does not size; set a "
                                          "critic-free estimator such as grpo")));
    }
    r.run().scenario.runKind = RunKind::Grpo;
    if (estimator != "grpo") {
        r.noteKey(prefix + row.key, words(QT_TRANSLATE_NOOP("gpusizer", "%1 is sized as GRPO: the same rollouts and "
                                                                        "actor training, no critic"),
                                          estimator));
    }
    return {};
}

Result<void> readGpus(KeyReader& r, const std::string& prefix) {
    GPUSIZER_ASSIGN(auto perNode, readInteger(r, rowOf(kVerl, "trainer.n_gpus_per_node"), prefix));
    GPUSIZER_ASSIGN(auto nodes, readInteger(r, rowOf(kVerl, "trainer.nnodes"), prefix));
    r.run().gpus = perNode.value_or(8) * nodes.value_or(1);
    return {};
}

Result<void> readLengths(KeyReader& r, const std::string& prefix) {
    GPUSIZER_ASSIGN(auto prompt, readInteger(r, rowOf(kVerl, "data.max_prompt_length"), prefix));
    GPUSIZER_ASSIGN(auto response, readInteger(r, rowOf(kVerl, "data.max_response_length"), prefix));
    Scenario& s = r.run().scenario;
    s.completionLength = response.value_or(512);
    s.seqLen = prompt.value_or(512) + s.completionLength;
    return {};
}

Result<void> readGenerations(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kVerl, "actor_rollout_ref.rollout.n");
    // (read below its range first: verl's default of 1 is a valid config that GRPO cannot train on)
    GPUSIZER_ASSIGN(auto n, r.integer(prefix + row.key, row.field, row.source, 1, static_cast<std::int64_t>(row.max),
                                      std::stoll(row.fallback)));
    if (*n < 2) {
        return tl::unexpected(
            r.error(prefix + row.key, QT_TRANSLATE_NOOP("gpusizer", "GRPO compares the samples of a prompt: "
                                                                    "rollout.n must be 2 or more")));
    }
    r.run().scenario.numGenerations = *n;
    return {};
}

Result<void> readRolloutEngine(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kVerl, "actor_rollout_ref.rollout.name");
    GPUSIZER_ASSIGN(auto name, readText(r, row, prefix));
    if (!name || *name == "???") {
        return tl::unexpected(r.error(prefix + row.key, QT_TRANSLATE_NOOP("gpusizer", "verl needs the rollout engine "
                                                                                      "named: vllm, sglang or hf")));
    }
    Scenario& s = r.run().scenario;
    if (*name == "hf") {
        s.generation = Generation::Transformers;
        return {};
    }
    if (*name != "vllm" && *name != "sglang") {
        return tl::unexpected(r.error(
            prefix + row.key, words(QT_TRANSLATE_NOOP("gpusizer", "'%1' is not a rollout engine GPU Sizer sizes "
                                                                  "(vllm, sglang, hf)"),
                                    *name)));
    }
    s.generation = Generation::VllmColocate;
    if (*name == "sglang") {
        r.noteKey(prefix + row.key, QT_TRANSLATE_NOOP("gpusizer", "SGLang sized as vLLM: its gpu_memory_utilization "
                                                                  "is mem_fraction_static, a share of the memory free "
                                                                  "when it starts (async_sglang_server.py L260)"));
    }
    return {};
}

Result<void> readKl(KeyReader& r, const std::string& prefix) {
    GPUSIZER_ASSIGN(auto loss, readFlag(r, rowOf(kVerl, "actor_rollout_ref.actor.use_kl_loss"), prefix));
    GPUSIZER_ASSIGN(auto lossCoef, readNumber(r, rowOf(kVerl, "actor_rollout_ref.actor.kl_loss_coef"), prefix));
    GPUSIZER_ASSIGN(auto reward, readFlag(r, rowOf(kVerl, "algorithm.use_kl_in_reward"), prefix));
    GPUSIZER_ASSIGN(auto rewardCoef, readNumber(r, rowOf(kVerl, "algorithm.kl_ctrl.kl_coef"), prefix));
    Scenario& s = r.run().scenario;
    s.klBeta = *loss ? lossCoef.value_or(0.001) : *reward ? rewardCoef.value_or(0.001) : 0.0;
    if (s.klBeta > 0.0) {
        // Under LoRA the reference is the actor with its adapters disabled (ref_in_actor): no copy either way.
        s.overrides.referenceOffTrainingGpus = true;
        r.noteKey(prefix + rowOf(kVerl, "actor_rollout_ref.actor.use_kl_loss").key,
                  QT_TRANSLATE_NOOP("gpusizer", "verl keeps the reference model's parameters on the host (FSDP "
                                                "CPUOffload, fsdp_workers.py L524-526, L552) and gathers them only for "
                                                "its log-prob pass: the framework override "
                                                "reference_off_training_gpus leaves its copy out of the training "
                                                "step's peak"));
    }
    return {};
}

Result<void> readLora(KeyReader& r, const std::string& prefix) {
    GPUSIZER_ASSIGN(auto rank, readInteger(r, rowOf(kVerl, "actor_rollout_ref.model.lora_rank"), prefix));
    RunDraft& run = r.run();
    if (rank.value_or(0) == 0) {
        run.method = Method::Full;
        return {};
    }
    run.method = Method::Lora;
    setLoraRank(run, *rank);
    setLoraDropout(run, 0.0); // verl's LoraConfig names no dropout: PEFT's 0.0
    GPUSIZER_ASSIGN(auto alpha, readNumber(r, rowOf(kVerl, "actor_rollout_ref.model.lora_alpha"), prefix));
    setLoraAlpha(run, alpha.value_or(16.0));
    GPUSIZER_ASSIGN(auto targets, readList(r, rowOf(kVerl, "actor_rollout_ref.model.target_modules"), prefix));
    GPUSIZER_CHECK(applyTargets(r, prefix + "actor_rollout_ref.model.target_modules",
                                targets.value_or(std::vector<std::string>{"all-linear"})));
    const KeyRow& excludeRow = rowOf(kVerl, "actor_rollout_ref.model.exclude_modules");
    if (r.has(prefix + excludeRow.key)) {
        r.value(prefix + excludeRow.key);
        if (!applyVisionExclusion(r, prefix + excludeRow.key)) {
            r.noteKey(prefix + excludeRow.key,
                      QT_TRANSLATE_NOOP("gpusizer", "not modelled: every layer is sized with rank r on every target"));
        }
    }
    return {};
}

Result<void> readStrategy(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kVerl, "actor_rollout_ref.actor.strategy");
    GPUSIZER_ASSIGN(auto read, readText(r, row, prefix));
    const std::string strategy = read.value_or(row.fallback);
    if (strategy != "fsdp" && strategy != "fsdp2") {
        return tl::unexpected(r.error(
            prefix + row.key, words(QT_TRANSLATE_NOOP("gpusizer", "strategy '%1' is not imported (fsdp and fsdp2 are; "
                                                                  "Megatron runs from ppo_megatron_trainer.yaml)"),
                                    strategy)));
    }
    Scenario& s = r.run().scenario;
    r.run().fsdp = true;
    s.shardingEngine = strategy == "fsdp2" ? ShardingEngine::Fsdp2 : ShardingEngine::Fsdp1;
    GPUSIZER_ASSIGN(auto reshard,
                    readFlag(r, rowOf(kVerl, "actor_rollout_ref.actor.fsdp_config.reshard_after_forward"), prefix));
    s.sharding = reshard.value_or(true) ? Sharding::Zero3 : Sharding::Zero2;
    return {};
}

Result<void> readDtypes(KeyReader& r, const std::string& prefix) {
    GPUSIZER_ASSIGN(auto model, readText(r, rowOf(kVerl, "actor_rollout_ref.actor.fsdp_config.model_dtype"), prefix));
    GPUSIZER_ASSIGN(auto compute, readText(r, rowOf(kVerl, "actor_rollout_ref.actor.fsdp_config.dtype"), prefix));
    const auto is = [](const std::optional<std::string>& v, const char* a, const char* b) {
        return v && (*v == a || *v == b);
    };
    Scenario& s = r.run().scenario;
    r.run().precisionFixed = true;
    const bool bf16Compute = !compute || is(compute, "bfloat16", "bf16");
    if (is(model, "bfloat16", "bf16")) {
        s.precision = Precision::Bf16;
    } else if (!model || is(model, "fp32", "float32")) {
        s.precision = bf16Compute ? Precision::FsdpMixedBf16 : Precision::Fp32;
    } else {
        return tl::unexpected(r.error(prefix + "actor_rollout_ref.actor.fsdp_config.model_dtype",
                                      words(QT_TRANSLATE_NOOP("gpusizer", "'%1' is not a dtype GPU Sizer sizes here "
                                                                          "(fp32, bf16)"),
                                            *model)));
    }
    return {};
}

Result<void> readBatches(KeyReader& r, const std::string& prefix) {
    const KeyRow& microRow = rowOf(kVerl, "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu");
    GPUSIZER_ASSIGN(auto dynamic, readFlag(r, rowOf(kVerl, "actor_rollout_ref.actor.use_dynamic_bsz"), prefix));
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    std::int64_t micro = 1;
    if (*dynamic) {
        GPUSIZER_ASSIGN(auto budget,
                        readInteger(r, rowOf(kVerl, "actor_rollout_ref.actor.ppo_max_token_len_per_gpu"), prefix));
        // Micro-batches packed up to the token budget (× the Ulysses size): this many sequences of seq_len.
        const std::int64_t tokens = *budget * std::max<std::int64_t>(1, s.contextParallel);
        micro = std::max<std::int64_t>(1, tokens / std::max<std::int64_t>(1, s.seqLen));
        r.noteKey(prefix + microRow.key,
                  words(QT_TRANSLATE_NOOP("gpusizer", "use_dynamic_bsz: micro-batches packed to %1 tokens, sized as %2 "
                                                      "sequences of seq_len"),
                        std::to_string(tokens), std::to_string(micro)));
    } else {
        GPUSIZER_ASSIGN(auto read, readInteger(r, microRow, prefix));
        if (!read) {
            return tl::unexpected(
                r.error(prefix + microRow.key, QT_TRANSLATE_NOOP("gpusizer", "verl needs ppo_micro_batch_size_per_gpu "
                                                                             "unless use_dynamic_bsz is on")));
        }
        micro = *read;
    }
    setMicroBatch(run, micro);
    GPUSIZER_ASSIGN(auto mini, readInteger(r, rowOf(kVerl, "actor_rollout_ref.actor.ppo_mini_batch_size"), prefix));
    // Each rank's share of a mini-batch's sequences (fsdp_workers.py L240-242), in micro-batches.
    const std::int64_t ranks =
        std::max<std::int64_t>(1, run.gpus.value_or(1) / std::max<std::int64_t>(1, s.contextParallel));
    const std::int64_t perRank = std::max<std::int64_t>(1, *mini * s.numGenerations / ranks);
    setGradientAccumulation(run, std::max<std::int64_t>(1, perRank / micro));
    return {};
}

} // namespace

Result<void> readVerl(KeyReader& r) {
    setFramework(r, Framework::Generic, VERL "verl/workers/fsdp_workers.py (transformers models under FSDP)");
    // The actor's log-probabilities: flash-attn's fused cross-entropy over every token of the unpadded micro-batch,
    // its gradient written over the bf16 logits (dp_actor.py L253-269, torch_functional.py L103-126).
    r.run().scenario.overrides.logprobsInPlace = true;
    // The FSDP workers shard data only (Ulysses splits sequences); tensor and pipeline parallelism are Megatron's.
    r.run().scenario.overrides.runsTensorParallel = false;
    r.run().scenario.overrides.runsPipelineParallel = false;
    r.run().lines.push_back({ImportLine::Kind::Note, r.doc().position(""), "",
                             "logprobs_in_place, runs_tensor_parallel false, runs_pipeline_parallel false",
                             "framework_overrides",
                             verbatim(VERL "verl/workers/actor/dp_actor.py L253-269 (logprobs_from_logits, "
                                           "inplace_backward; flash-attn installed)")});
    return walk(r, kVerl);
}

std::span<const KeyTable> verlKeyTables() {
    static constexpr KeyTable kTables[] = {{ConfigFormat::Verl, VERL, kVerl}};
    return kTables;
}

} // namespace gpusizer::core::detail
