// OpenRLHF's trainers read from a launch script (OpenRLHF/OpenRLHF @3c3be623, v0.11.0): openrlhf.cli.train_ppo_ray run
// as GRPO (the critic-free advantage estimators), train_dpo and train_sft, each a DeepSpeed engine over a
// transformers model. The options are v0.10.2's dotted names; a script with the older flat names (--pretrain,
// --micro_train_batch_size) is read through openRlhfCurrentFlag and says so.

#include "../ConfigDocument.h"
#include "../FormatSteps.h"

#include <array>

namespace gpusizer::core::detail {

namespace {

Result<void> readEntryPoint(KeyReader& r, const std::string& prefix);
Result<void> readEstimator(KeyReader& r, const std::string& prefix);
Result<void> readLengths(KeyReader& r, const std::string& prefix);
Result<void> readLayout(KeyReader& r, const std::string& prefix);
Result<void> readPlacement(KeyReader& r, const std::string& prefix);
Result<void> readZero(KeyReader& r, const std::string& prefix);
Result<void> readLora(KeyReader& r, const std::string& prefix);
Result<void> readEntropy(KeyReader& r, const std::string& prefix);

#define OPENRLHF_PPO OPENRLHF "openrlhf/cli/train_ppo_ray.py:"
#define OPENRLHF_DPO OPENRLHF "openrlhf/cli/train_dpo.py:"

bool isPpo(const KeyReader& r) {
    const auto* entry = r.peek("entry_point");
    return entry != nullptr && entry->is_string() && entry->get<std::string>() == "train_ppo_ray";
}

constexpr KeyRow kOpenRlhf[] = {
    {.key = "entry_point",
     .field = "run_kind",
     .kind = ValueKind::Text,
     .source = OPENRLHF "openrlhf/cli/",
     .step = readEntryPoint,
     .shownKey = "the module after `python3 -m` / `deepspeed --module`: `openrlhf.cli.train_ppo_ray`, `train_dpo`, "
                 "`train_sft`",
     .shownField = "run_kind grpo (train_ppo_ray with a critic-free estimator), dpo (ipo with --model.ipo_enable), sft",
     .shownDefault = "required"},
    {.key = "actor.model_name_or_path",
     .field = "model",
     .kind = ValueKind::Text,
     .source = OPENRLHF_PPO "517 (the actor's, the reference's and vLLM's weights: L66-69, L173, L176)",
     .convert = applyModelName,
     .shownKey = "`actor.model_name_or_path` (train_ppo_ray; before v0.10.2 `--pretrain`)"},
    {.key = "model.model_name_or_path",
     .field = "model",
     .kind = ValueKind::Text,
     .source = OPENRLHF_DPO "299; train_sft.py:214",
     .convert = applyModelName,
     .shownKey = "`model.model_name_or_path` (train_dpo, train_sft; before v0.10.2 `--pretrain`)"},
    {.key = "algo.advantage.estimator",
     .field = "run_kind",
     .kind = ValueKind::Text,
     .fallback = "gae",
     .source = OPENRLHF_PPO "477-483; only gae makes a critic (L600-606)",
     .step = readEstimator,
     .shownKey = "`algo.advantage.estimator` (`group_norm`, `dr_grpo`, `rloo`, `reinforce_baseline`, `reinforce`; "
                 "`gae` refused)",
     .shownField = "run_kind grpo: the critic-free estimators generate and train the actor alike; PPO with a critic "
                   "(`gae`, the default) is refused with the reason"},
    {.key = "rollout.n_samples_per_prompt",
     .field = "num_generations",
     .kind = ValueKind::Integer,
     .min = 2,
     .max = 65536,
     .fallback = "1",
     .source = OPENRLHF_PPO "413-415",
     .shownField = "num_generations (GRPO needs 2 or more; the default 1 is refused)"},
    {.key = "algo.kl.init_coef",
     .field = "kl_beta",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 1e6,
     .fallback = "0.01",
     .source = OPENRLHF_PPO "419 (a reference model exists only above 0: L93-103)"},
    {.key = "data.max_len",
     .field = "seq_len",
     .kind = ValueKind::Integer,
     .min = 2,
     .max = 16'777'216,
     .source = OPENRLHF_PPO "379; train_dpo.py:318 (512); train_sft.py:284",
     .step = readLengths,
     .shownField = "seq_len (prompt and completion together; vLLM's max_model_len)",
     .shownDefault = "2048 (train_ppo_ray, train_sft), 512 (train_dpo)"},
    {.key = "rollout.max_new_tokens",
     .field = "completion_length",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 16'777'216,
     .source = OPENRLHF_PPO "380-385 (None: up to max_len less the prompt)",
     .shownDefault = "max_len − 1 (None lets a completion fill what its prompt leaves of max_len: the longest is "
                     "sized)"},
    {.key = "prompt_max_len",
     .field = "seq_len",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 16'777'216,
     .source = OPENRLHF "before d0e088b6 (removed): the prompt's share of the sequence",
     .shownField = "seq_len = prompt_max_len + generate_max_len, within a max_len given beside them (scripts older "
                   "than max_len)",
     .shownDefault = "1024 (before d0e088b6)"},
    {.key = "generate_max_len",
     .field = "completion_length",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 16'777'216,
     .source = OPENRLHF "before d0e088b6 (removed)"},
    {.key = "train.micro_batch_size",
     .field = "micro_batch",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .source = OPENRLHF_PPO "393 (1); train_dpo.py:188 (8, pairs); train_sft.py:166 (8)",
     .step = readLayout,
     .shownDefault = "1 (train_ppo_ray), 8 (train_dpo, train_sft)"},
    {.key = "train.batch_size",
     .field = "gradient_accumulation",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 1'000'000'000,
     .fallback = "128",
     .source = OPENRLHF_PPO "394; openrlhf/utils/deepspeed/deepspeed.py L110-116",
     .shownField = "gradient_accumulation = batch_size × ring_attn_size × tensor_parallel_size ÷ micro_batch ÷ GPUs"},
    {.key = "train.dynamic_batch_enable",
     .field = "micro_batch",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = OPENRLHF_PPO "359 (turns packing on: L647-653)"},
    {.key = "train.max_tokens_per_gpu",
     .field = "micro_batch",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 1'000'000'000,
     .fallback = "16192",
     .source = OPENRLHF_PPO "361",
     .shownField = "micro_batch: with dynamic_batch_enable, the sequences of seq_len this many tokens hold"},
    {.key = "actor.num_nodes",
     .field = "gpus",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "1",
     .source = OPENRLHF_PPO "213",
     .shownField = "gpus = actor.num_nodes × actor.num_gpus_per_node (the actor's own torch.distributed world: "
                   "ray/launcher.py L30, L241); train_dpo and train_sft take the launcher's count (--gpus)"},
    {.key = "actor.num_gpus_per_node",
     .field = "gpus",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "8",
     .source = OPENRLHF_PPO "214"},
    {.key = "ds.ring_attn_size",
     .field = "context_parallel",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 1024,
     .fallback = "1",
     .source = OPENRLHF_PPO "506 (turns packing on: L642-645)",
     .shownField = "context_parallel (ring)"},
    {.key = "ds.tensor_parallel_size",
     .field = "tensor_parallel",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 1024,
     .fallback = "1",
     .source = OPENRLHF_PPO "353 (DeepSpeed AutoTP: deepspeed_utils.py L65-67)"},
    {.key = "train.colocate_all",
     .field = "generation",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = OPENRLHF_PPO "223-228 (one placement group for actor, reference, reward and vLLM: L41-50, L75, L89-138)",
     .step = readPlacement,
     .shownField =
         "generation vllm-colocate (vLLM's engines on the actor's GPUs) or, without it (or with "
         "train.async_enable, L75), vllm-server on vllm.num_engines × vllm.tensor_parallel_size GPUs of their "
         "own"},
    {.key = "train.async_enable",
     .field = "generation",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = OPENRLHF_PPO "274 (vLLM not in the shared placement group: L56, L75)"},
    {.key = "train.colocate_actor_ref",
     .field = "framework_overrides",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = OPENRLHF_PPO "206-211",
     .shownField = "reference_off_training_gpus unless the reference shares the actor's GPUs (this or colocate_all)"},
    {.key = "vllm.num_engines",
     .field = "vllm_gpus",
     .kind = ValueKind::Integer,
     .min = 0,
     .max = 65536,
     .source = OPENRLHF_PPO "231-233 (0 or None: no vLLM, L55; samples_generator.py generates with vLLM only)",
     .shownField = "vllm_gpus = num_engines × tensor_parallel_size (server placement); none is refused (v0.11 "
                   "generates with vLLM only)",
     .shownDefault = "required"},
    {.key = "vllm.tensor_parallel_size",
     .field = "vllm_gpus",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 1024,
     .fallback = "1",
     .source = OPENRLHF_PPO "234-239"},
    {.key = "vllm.gpu_memory_utilization",
     .field = "vllm_gpu_memory_utilization",
     .kind = ValueKind::Number,
     .min = 0.01,
     .max = 0.99,
     .fallback = "0.95",
     .source = OPENRLHF_PPO "250-255 (vllm_engine.py L278: vLLM's share of the whole card)"},
    {.key = "vllm.enable_sleep",
     .field = "vllm_sleep_mode",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = OPENRLHF_PPO "244-249 (forced off without colocate_all: L663-665; samples_generator.py L66-83)"},
    {.key = "ref.offload",
     .field = "framework_overrides",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = OPENRLHF "openrlhf/cli/train_ppo_ray.py:522; train_dpo.py:213 (offload_param to the host: "
                        "deepspeed_utils.py L96-97)",
     .shownField = "reference_off_training_gpus at ZeRO-3 (below it the reference's eval config runs stage 0, whose "
                   "engine moves the module to the GPU: deepspeed.py L493; noted)"},
    {.key = "actor.entropy_coef",
     .field = "",
     .kind = ValueKind::Number,
     .min = -1e6,
     .max = 1e6,
     .source = OPENRLHF "openrlhf/trainer/ray/ppo_actor.py L301 (any value, 0 too, computes the entropy: "
                        "models/utils.py L183-186)",
     .step = readEntropy,
     .shownField = "noted: the entropy of the fp32 logits (a compiled softmax) is not sized beside the log-probs"},
    {.key = "ref.num_nodes",
     .kind = ValueKind::Ignored,
     .source = OPENRLHF_PPO "200",
     .why = QT_TRANSLATE_NOOP("gpusizer", "the reference's own GPUs without colocation: not in the GPU count or the "
                                          "bill (noted)")},
    {.key = "ref.num_gpus_per_node",
     .kind = ValueKind::Ignored,
     .source = OPENRLHF_PPO "201",
     .why = QT_TRANSLATE_NOOP("gpusizer", "the reference's own GPUs without colocation: not in the GPU count or the "
                                          "bill (noted)")},
    {.key = "reward.model_name_or_path",
     .kind = ValueKind::Ignored,
     .source = OPENRLHF_PPO "518 (a reward group only without a remote URL: L132-142)",
     .why = QT_TRANSLATE_NOOP("gpusizer", "a reward model is not sized: on GPUs of its own without colocation, and "
                                          "noted as missing from the actor's GPUs with colocate_all")},
    {.key = "ds.zero_stage",
     .field = "sharding",
     .kind = ValueKind::Integer,
     .min = 0,
     .max = 3,
     .fallback = "2",
     .source = OPENRLHF_PPO "308; train_dpo.py:205; train_sft.py:178",
     .step = readZero,
     .shownField = "sharding zero0-3 under DeepSpeed's engine; the reference runs ZeRO-3 only at stage 3, else "
                   "whole (deepspeed.py L493): as the weights shard"},
    {.key = "ds.param_dtype",
     .field = "precision",
     .kind = ValueKind::Text,
     .fallback = "bf16",
     .source = OPENRLHF_PPO "311-317 (the load dtype and DeepSpeed's bf16 / fp16 switch: deepspeed_utils.py L49-54, "
                            "models/actor.py L113, L154)",
     .shownField = "precision bf16 with fp32 master weights and Adam states (DeepSpeed's engine), fp16 likewise"},
    {.key = "ds.adam_offload",
     .field = "offload",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = OPENRLHF_PPO "322 (offload_optimizer to the host: deepspeed_utils.py L25-28)"},
    {.key = "ds.overlap_comm",
     .field = "framework_overrides",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = OPENRLHF_PPO "338 (deepspeed_utils.py L40-42)",
     .shownField = "zero_overlap_comm"},
    {.key = "actor.gradient_checkpointing_enable",
     .field = "gradient_checkpointing",
     .kind = ValueKind::Flag,
     .source = OPENRLHF_PPO "309 (non-reentrant: models/actor.py gradient_checkpointing_enable)",
     .setFlag = [](RunDraft& d, bool v) { d.scenario.checkpointing = v ? Checkpointing::Full : Checkpointing::None; },
     .shownKey = "`actor.gradient_checkpointing_enable` (train_ppo_ray), `model.gradient_checkpointing_enable` "
                 "(train_dpo, train_sft)",
     .shownField = "gradient_checkpointing full / none",
     .shownDefault = "false"},
    {.key = "model.gradient_checkpointing_enable",
     .field = "gradient_checkpointing",
     .kind = ValueKind::Flag,
     .source = OPENRLHF_DPO "191; train_sft.py:168",
     .setFlag = [](RunDraft& d, bool v) { d.scenario.checkpointing = v ? Checkpointing::Full : Checkpointing::None; }},
    {.key = "ds.attn_implementation",
     .field = "attention",
     .kind = ValueKind::Text,
     .fallback = "flash_attention_2",
     .source = OPENRLHF_PPO "323-328",
     .convert = applyAttention},
    {.key = "ds.packing_samples",
     .field = "padded_batches",
     .kind = ValueKind::Flag,
     .source = OPENRLHF_PPO "356 (unpadded into one sequence: models/actor.py L236-240)",
     .setFlag = [](RunDraft& d, bool v) { d.scenario.paddedBatches = !v; },
     .shownField = "padded_batches off when true (dynamic_batch_enable and ring_attn_size turn it on)",
     .shownDefault = "false"},
    {.key = "ds.use_liger_kernel",
     .field = "liger_rms_norm",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = OPENRLHF_PPO "336",
     .setFlag =
         [](RunDraft& d, bool v) {
             if (v) {
                 setLigerKernels(d.scenario);
             }
         },
     .shownField = "liger_rms_norm, liger_glu, liger_rope (apply_liger_kernel's defaults)"},
    {.key = "ds.load_in_4bit",
     .field = "method",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = OPENRLHF_PPO "364 (NF4 with double quantization: models/actor.py L115-122)",
     .setFlag = [](RunDraft& d, bool v) { d.load4bit = v; },
     .shownField = "method qlora with a LoRA rank"},
    {.key = "ds.lora.rank",
     .field = "method",
     .kind = ValueKind::Integer,
     .min = 0,
     .max = 65536,
     .fallback = "0",
     .source = OPENRLHF_PPO "365 (PEFT above 0: models/actor.py L177-188)",
     .step = readLora,
     .shownField = "method full (0) or LoRA with lora.rank"},
    {.key = "ds.lora.alpha",
     .field = "lora.alpha",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 1e6,
     .fallback = "16",
     .source = OPENRLHF_PPO "366"},
    {.key = "ds.lora.dropout",
     .field = "lora.dropout",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 1,
     .fallback = "0",
     .source = OPENRLHF_PPO "368"},
    {.key = "ds.lora.target_modules",
     .field = "lora.targets",
     .kind = ValueKind::List,
     .fallback = "all-linear",
     .source = OPENRLHF_PPO "367"},
    {.key = "model.ipo_enable",
     .field = "run_kind",
     .kind = ValueKind::Flag,
     .source = OPENRLHF_DPO "238-240 (dpo_trainer.py L64)",
     .setFlag =
         [](RunDraft& d, bool v) {
             if (v && d.scenario.runKind == RunKind::Dpo) {
                 d.scenario.runKind = RunKind::Ipo;
             }
         },
     .shownField = "run_kind ipo",
     .shownDefault = "false"},
    {.key = "algo.kl.use_loss",
     .kind = ValueKind::Ignored,
     .source = OPENRLHF_PPO "484-486 (ppo_actor.py L319-330)",
     .why = QT_TRANSLATE_NOOP("gpusizer", "the KL term in the loss rather than the reward: the same reference pass")},
    {.key = "rollout.batch_size",
     .kind = ValueKind::Ignored,
     .source = OPENRLHF_PPO "373",
     .why = QT_TRANSLATE_NOOP("gpusizer", "prompts per rollout: vLLM's KV cache lives in its share of the card, and "
                                          "the generation's time is priced per completion token")},
    {.key = "ds.enable_sleep",
     .kind = ValueKind::Ignored,
     .source = OPENRLHF_PPO "347-352 (deepspeed_utils.py L156-178)",
     .why = QT_TRANSLATE_NOOP("gpusizer", "moves the actor's optimizer states, gradients and master weights to the "
                                          "host between updates; the training step, the peak sized here, has them on "
                                          "the GPU")},
    {.key = "vllm.enforce_eager",
     .kind = ValueKind::Ignored,
     .source = OPENRLHF_PPO "243",
     .why = QT_TRANSLATE_NOOP("gpusizer", "CUDA graphs are captured inside vLLM's share of the card")},
    {.key = "model.beta",
     .kind = ValueKind::Ignored,
     .source = OPENRLHF_DPO "237",
     .why = QT_TRANSLATE_NOOP("gpusizer", "the loss's temperature: no memory or time")},
    {.key = "train.max_epochs",
     .kind = ValueKind::Ignored,
     .source = OPENRLHF_PPO "378",
     .why = QT_TRANSLATE_NOOP("gpusizer", "passes over the data: the step count, not the step")},
};

/// The flags v0.10.2 renamed (ed62d0e2), as v0.10.1.post2 spelled them (train_ppo_ray.py, train_dpo.py,
/// train_sft.py @ff481ecd), for every entry point; "pretrain" and "gradient_checkpointing" below.
constexpr std::array<std::pair<std::string_view, std::string_view>, 39> kRenamed{{
    {"use_dynamic_batch", "train.dynamic_batch_enable"},
    {"train_max_tokens_per_gpu", "train.max_tokens_per_gpu"},
    {"async_train", "train.async_enable"},
    {"micro_train_batch_size", "train.micro_batch_size"},
    {"train_batch_size", "train.batch_size"},
    {"max_len", "data.max_len"},
    {"max_new_tokens", "rollout.max_new_tokens"},
    {"n_samples_per_prompt", "rollout.n_samples_per_prompt"},
    {"advantage_estimator", "algo.advantage.estimator"},
    {"init_kl_coef", "algo.kl.init_coef"},
    {"actor_num_nodes", "actor.num_nodes"},
    {"actor_num_gpus_per_node", "actor.num_gpus_per_node"},
    {"ref_num_nodes", "ref.num_nodes"},
    {"ref_num_gpus_per_node", "ref.num_gpus_per_node"},
    {"colocate_all_models", "train.colocate_all"},
    {"colocate_actor_ref", "train.colocate_actor_ref"},
    {"vllm_num_engines", "vllm.num_engines"},
    {"vllm_tensor_parallel_size", "vllm.tensor_parallel_size"},
    {"vllm_gpu_memory_utilization", "vllm.gpu_memory_utilization"},
    {"vllm_enable_sleep", "vllm.enable_sleep"},
    {"enforce_eager", "vllm.enforce_eager"},
    {"deepspeed_enable_sleep", "ds.enable_sleep"},
    {"zero_stage", "ds.zero_stage"},
    {"param_dtype", "ds.param_dtype"},
    {"adam_offload", "ds.adam_offload"},
    {"overlap_comm", "ds.overlap_comm"},
    {"attn_implementation", "ds.attn_implementation"},
    {"packing_samples", "ds.packing_samples"},
    {"use_liger_kernel", "ds.use_liger_kernel"},
    {"load_in_4bit", "ds.load_in_4bit"},
    {"lora_rank", "ds.lora.rank"},
    {"lora_alpha", "ds.lora.alpha"},
    {"lora_dropout", "ds.lora.dropout"},
    {"target_modules", "ds.lora.target_modules"},
    {"ring_attn_size", "ds.ring_attn_size"},
    {"ds_tensor_parallel_size", "ds.tensor_parallel_size"},
    {"ref_reward_offload", "ref.offload"},
    {"reward_pretrain", "reward.model_name_or_path"},
    {"remote_rm_url", "reward.remote_url"},
}};

Result<void> readEntryPoint(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kOpenRlhf, "entry_point");
    GPUSIZER_ASSIGN(auto entry, readText(r, row, prefix));
    Scenario& s = r.run().scenario;
    const std::string name = entry.value_or("");
    if (name == "train_ppo_ray") {
        s.runKind = RunKind::Grpo; // the estimator's row decides whether it can be sized
    } else if (name == "train_dpo") {
        s.runKind = RunKind::Dpo;
    } else if (name != "train_sft") {
        return tl::unexpected(r.error(
            prefix + row.key, words(QT_TRANSLATE_NOOP("gpusizer", "openrlhf.cli.%1 is not imported (train_ppo_ray, "
                                                                  "train_dpo and train_sft are)"),
                                    name)));
    }
    return {};
}

/// The critic-free estimators generate n samples per prompt and train the actor on them as GRPO does.
Result<void> readEstimator(KeyReader& r, const std::string& prefix) {
    if (!isPpo(r)) {
        return {};
    }
    const KeyRow& row = rowOf(kOpenRlhf, "algo.advantage.estimator");
    GPUSIZER_ASSIGN(auto read, readText(r, row, prefix));
    const std::string estimator = read.value_or(row.fallback);
    if (estimator == "gae") {
        return tl::unexpected(
            r.error(prefix + row.key,
                    QT_TRANSLATE_NOOP("gpusizer",
                                      "PPO with a critic (gae, OpenRLHF's default) is not imported: OpenRLHF trains "
                                      "a critic model of its own beside the actor, on its own GPUs or colocated, "
                                      "which GPU Sizer's PPO (TRL's, policy and value in one backward) does not "
                                      "size; set a critic-free estimator such as group_norm")));
    }
    if (estimator != "group_norm") {
        r.noteKey(prefix + row.key, words(QT_TRANSLATE_NOOP("gpusizer", "%1 is sized as GRPO: the same rollouts and "
                                                                        "actor training, no critic"),
                                          estimator));
    }
    const KeyRow& samples = rowOf(kOpenRlhf, "rollout.n_samples_per_prompt");
    // (read below its range first: the default of 1 is a valid config that GRPO cannot train on)
    GPUSIZER_ASSIGN(auto n, r.integer(prefix + samples.key, samples.field, samples.source, 1,
                                      static_cast<std::int64_t>(samples.max), 1));
    if (*n < 2) {
        return tl::unexpected(r.error(prefix + samples.key,
                                      QT_TRANSLATE_NOOP("gpusizer", "GPU Sizer sizes these estimators as GRPO, which "
                                                                    "compares the samples of a prompt: "
                                                                    "rollout.n_samples_per_prompt must be 2 or more")));
    }
    r.run().scenario.numGenerations = *n;
    GPUSIZER_ASSIGN(auto kl, readNumber(r, rowOf(kOpenRlhf, "algo.kl.init_coef"), prefix));
    r.run().scenario.klBeta = kl.value_or(0.01);
    return {};
}

/// max_len bounds prompt and completion together; a completion without max_new_tokens may fill what its prompt
/// leaves, so the longest (max_len − 1) is sized. Scripts older than max_len give the two parts.
Result<void> readLengths(KeyReader& r, const std::string& prefix) {
    Scenario& s = r.run().scenario;
    const bool ppo = isPpo(r);
    // Before d0e088b6 both parts defaulted to 1,024 and a given max_len bounded their sum (train_ppo_ray.py L44,
    // L347-348 there).
    const KeyRow& promptRow = rowOf(kOpenRlhf, "prompt_max_len");
    const KeyRow& generateRow = rowOf(kOpenRlhf, "generate_max_len");
    if (ppo && (r.has(prefix + promptRow.key) || r.has(prefix + generateRow.key))) {
        GPUSIZER_ASSIGN(auto prompt, r.integer(prefix + promptRow.key, promptRow.field, promptRow.source, 1,
                                               static_cast<std::int64_t>(promptRow.max), 1024));
        GPUSIZER_ASSIGN(auto completion, r.integer(prefix + generateRow.key, generateRow.field, generateRow.source, 1,
                                                   static_cast<std::int64_t>(generateRow.max), 1024));
        GPUSIZER_ASSIGN(auto bound, readInteger(r, rowOf(kOpenRlhf, "data.max_len"), prefix));
        s.seqLen = bound ? std::min(*bound, *prompt + *completion) : *prompt + *completion;
        s.completionLength = std::min(*completion, s.seqLen - 1);
        return {};
    }
    const KeyRow& row = rowOf(kOpenRlhf, "data.max_len");
    const std::int64_t fallback = s.runKind == RunKind::Dpo ? 512 : 2048;
    GPUSIZER_ASSIGN(auto maxLen, r.integer(prefix + row.key, row.field, row.source, static_cast<std::int64_t>(row.min),
                                           static_cast<std::int64_t>(row.max), fallback));
    s.seqLen = *maxLen;
    if (!ppo) {
        return {};
    }
    const KeyRow& newRow = rowOf(kOpenRlhf, "rollout.max_new_tokens");
    GPUSIZER_ASSIGN(auto newTokens, readInteger(r, newRow, prefix));
    if (newTokens) {
        s.completionLength = std::min(*newTokens, s.seqLen - 1);
        return {};
    }
    s.completionLength = s.seqLen - 1;
    r.noteKey(prefix + row.key, QT_TRANSLATE_NOOP("gpusizer", "no rollout.max_new_tokens: a completion may fill what "
                                                              "its prompt leaves of max_len, so completion_length is "
                                                              "max_len − 1 (the longest); set it to size shorter "
                                                              "completions"));
    return {};
}

/// The actor's world (train_ppo_ray's Ray group; the deepspeed launcher's for the others), its micro-batches and the
/// accumulation OpenRLHF derives: batch × ring × tp ÷ micro ÷ world (deepspeed.py L110-116).
Result<void> readLayout(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    const bool ppo = isPpo(r);
    if (ppo) {
        GPUSIZER_ASSIGN(auto nodes, readInteger(r, rowOf(kOpenRlhf, "actor.num_nodes"), prefix));
        GPUSIZER_ASSIGN(auto perNode, readInteger(r, rowOf(kOpenRlhf, "actor.num_gpus_per_node"), prefix));
        run.gpus = nodes.value_or(1) * perNode.value_or(8);
        run.gpusDefaulted = !r.has(prefix + "actor.num_nodes") && !r.has(prefix + "actor.num_gpus_per_node");
    }
    GPUSIZER_ASSIGN(auto ring, readInteger(r, rowOf(kOpenRlhf, "ds.ring_attn_size"), prefix));
    if (ring.value_or(1) > 1) {
        s.contextParallel = *ring;
        s.contextParallelKind = ContextParallel::Ring;
        s.paddedBatches = false; // ring attention packs the samples (train_ppo_ray.py L642-645)
    }
    GPUSIZER_ASSIGN(auto tp, readInteger(r, rowOf(kOpenRlhf, "ds.tensor_parallel_size"), prefix));
    s.tensorParallel = tp.value_or(1);
    const KeyRow& microRow = rowOf(kOpenRlhf, "train.micro_batch_size");
    GPUSIZER_ASSIGN(auto dynamic, readFlag(r, rowOf(kOpenRlhf, "train.dynamic_batch_enable"), prefix));
    std::int64_t micro = 1;
    if (ppo && *dynamic) {
        GPUSIZER_ASSIGN(auto budget, readInteger(r, rowOf(kOpenRlhf, "train.max_tokens_per_gpu"), prefix));
        micro = std::max<std::int64_t>(1, *budget / std::max<std::int64_t>(1, s.seqLen));
        s.paddedBatches = false;
        r.noteKey(prefix + microRow.key,
                  words(QT_TRANSLATE_NOOP("gpusizer", "dynamic_batch_enable: micro-batches packed to %1 tokens, sized "
                                                      "as %2 sequences of seq_len"),
                        std::to_string(*budget), std::to_string(micro)));
    } else {
        GPUSIZER_ASSIGN(auto read, r.integer(prefix + microRow.key, microRow.field, microRow.source, 1,
                                             static_cast<std::int64_t>(microRow.max), ppo ? 1 : 8));
        micro = *read;
    }
    setMicroBatch(run, micro);
    GPUSIZER_ASSIGN(auto batch, readInteger(r, rowOf(kOpenRlhf, "train.batch_size"), prefix));
    run.globalBatch = batch.value_or(128) * s.contextParallel * s.tensorParallel;
    run.globalBatchKey = "train.batch_size";
    return {};
}

/// Where vLLM and the reference run (train_ppo_ray.py L41-138): with colocate_all, every model on the actor's GPUs;
/// otherwise vLLM's engines and the reference (unless colocate_actor_ref) on GPUs of their own.
Result<void> readPlacement(KeyReader& r, const std::string& prefix) {
    Scenario& s = r.run().scenario;
    const bool ppo = isPpo(r);
    if (ppo) {
        GPUSIZER_ASSIGN(auto colocated, readFlag(r, rowOf(kOpenRlhf, "train.colocate_all"), prefix));
        GPUSIZER_ASSIGN(auto async, readFlag(r, rowOf(kOpenRlhf, "train.async_enable"), prefix));
        const bool all = *colocated && !*async; // asynchronous training keeps vLLM apart (L75)
        GPUSIZER_ASSIGN(auto actorRef, readFlag(r, rowOf(kOpenRlhf, "train.colocate_actor_ref"), prefix));
        GPUSIZER_ASSIGN(auto engines, readInteger(r, rowOf(kOpenRlhf, "vllm.num_engines"), prefix));
        GPUSIZER_ASSIGN(auto vllmTp, readInteger(r, rowOf(kOpenRlhf, "vllm.tensor_parallel_size"), prefix));
        GPUSIZER_ASSIGN(auto share, readNumber(r, rowOf(kOpenRlhf, "vllm.gpu_memory_utilization"), prefix));
        GPUSIZER_ASSIGN(auto sleep, readFlag(r, rowOf(kOpenRlhf, "vllm.enable_sleep"), prefix));
        if (engines.value_or(0) == 0) {
            return tl::unexpected(
                r.error(prefix + "vllm.num_engines", QT_TRANSLATE_NOOP("gpusizer", "OpenRLHF generates with vLLM only "
                                                                                   "(samples_generator.py): set "
                                                                                   "vllm.num_engines")));
        }
        if (all) {
            s.generation = Generation::VllmColocate;
            s.vllmMemoryUtilization = share.value_or(0.95);
            s.vllmSleepMode = *sleep;
        } else {
            s.generation = Generation::VllmServer;
            s.vllmGpus = *engines * vllmTp.value_or(1);
            s.vllmMemoryUtilization = share.value_or(0.95);
        }
        if (s.klBeta > 0.0 && !all && !*actorRef) {
            s.overrides.referenceOffTrainingGpus = true;
            r.noteKey(prefix + "train.colocate_actor_ref",
                      QT_TRANSLATE_NOOP("gpusizer", "the reference model runs on GPUs of its own (ref.num_nodes × "
                                                    "ref.num_gpus_per_node): not on the actor's, and not in the GPU "
                                                    "count or the bill"));
        }
        const bool localReward = r.has(prefix + "reward.model_name_or_path") && !r.has(prefix + "reward.remote_url");
        if (localReward && all) {
            r.noteKey(prefix + "reward.model_name_or_path",
                      QT_TRANSLATE_NOOP("gpusizer", "a reward model on the actor's GPUs is not sized: its weights "
                                                    "(whole below ZeRO-3, sharded at it) add to every GPU"));
        }
    }
    GPUSIZER_ASSIGN(auto offload, readFlag(r, rowOf(kOpenRlhf, "ref.offload"), prefix));
    const auto* stage = r.peek(prefix + "ds.zero_stage");
    const bool zero3 = stage != nullptr && stage->is_number_integer() && stage->get<std::int64_t>() == 3;
    if (*offload && zero3) {
        s.overrides.referenceOffTrainingGpus = true;
    } else if (*offload) {
        r.noteKey(prefix + "ref.offload",
                  QT_TRANSLATE_NOOP("gpusizer", "below ZeRO-3 the reference's eval config runs stage 0, where "
                                                "DeepSpeed's engine moves the module to the GPU: offload_param does "
                                                "not apply, and its copy is counted"));
    }
    return {};
}

Result<void> readZero(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    GPUSIZER_ASSIGN(auto stage, readInteger(r, rowOf(kOpenRlhf, "ds.zero_stage"), prefix));
    s.sharding = shardingForZeroStage(stage.value_or(2));
    s.shardingEngine = ShardingEngine::Deepspeed;
    run.deepspeed = true;
    const KeyRow& dtypeRow = rowOf(kOpenRlhf, "ds.param_dtype");
    GPUSIZER_ASSIGN(auto dtype, readText(r, dtypeRow, prefix));
    const std::string d = dtype.value_or("bf16");
    if (d != "bf16" && d != "fp16") {
        return tl::unexpected(r.error(prefix + dtypeRow.key,
                                      words(QT_TRANSLATE_NOOP("gpusizer", "'%1' is not a dtype OpenRLHF takes (bf16, "
                                                                          "fp16)"),
                                            d)));
    }
    run.compute = d;
    run.loadDtype = d;
    run.loadDtypeWhere = r.doc().position(prefix + dtypeRow.key);
    GPUSIZER_ASSIGN(auto adam, readFlag(r, rowOf(kOpenRlhf, "ds.adam_offload"), prefix));
    if (*adam) {
        s.offload = Offload::Optimizer;
    }
    GPUSIZER_ASSIGN(auto overlap, readFlag(r, rowOf(kOpenRlhf, "ds.overlap_comm"), prefix));
    if (*overlap) {
        s.overrides.zeroOverlapComm = true;
    }
    return {};
}

Result<void> readEntropy(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kOpenRlhf, "actor.entropy_coef");
    if (!isPpo(r) || !r.has(prefix + row.key)) {
        return {};
    }
    GPUSIZER_ASSIGN(auto coef, readNumber(r, row, prefix));
    (void)coef;
    r.noteKey(prefix + row.key,
              QT_TRANSLATE_NOOP("gpusizer", "given at all, the actor computes the entropy of its fp32 logits (a "
                                            "compiled softmax, held through backward): not sized beside the "
                                            "log-probs' bytes per logit element, so the estimate is low by what it "
                                            "keeps"));
    return {};
}

Result<void> readLora(KeyReader& r, const std::string& prefix) {
    GPUSIZER_ASSIGN(auto rank, readInteger(r, rowOf(kOpenRlhf, "ds.lora.rank"), prefix));
    RunDraft& run = r.run();
    if (rank.value_or(0) == 0) {
        run.method = Method::Full;
        return {};
    }
    run.method = Method::Lora;
    setLoraRank(run, *rank);
    GPUSIZER_ASSIGN(auto alpha, readNumber(r, rowOf(kOpenRlhf, "ds.lora.alpha"), prefix));
    setLoraAlpha(run, alpha.value_or(16.0));
    GPUSIZER_ASSIGN(auto dropout, readNumber(r, rowOf(kOpenRlhf, "ds.lora.dropout"), prefix));
    setLoraDropout(run, dropout.value_or(0.0));
    const KeyRow& targetRow = rowOf(kOpenRlhf, "ds.lora.target_modules");
    GPUSIZER_ASSIGN(auto targets, readList(r, targetRow, prefix));
    return applyTargets(r, prefix + targetRow.key, targets.value_or(std::vector<std::string>{"all-linear"}));
}

} // namespace

std::optional<std::string> openRlhfCurrentFlag(std::string_view entryPoint, std::string_view flag) {
    const bool ppo = entryPoint == "train_ppo_ray";
    if (flag == "pretrain") {
        return std::string(ppo ? "actor.model_name_or_path" : "model.model_name_or_path");
    }
    if (flag == "gradient_checkpointing") {
        return std::string(ppo ? "actor.gradient_checkpointing_enable" : "model.gradient_checkpointing_enable");
    }
    if (flag == "ref_pretrain" && !ppo) {
        return std::string("ref.model_name_or_path");
    }
    if (flag == "ipo" && !ppo) {
        return std::string("model.ipo_enable");
    }
    if (flag == "ref_offload" && !ppo) {
        return std::string("ref.offload");
    }
    for (const auto& [old, current] : kRenamed) {
        if (flag == old) {
            return std::string(current);
        }
    }
    return std::nullopt;
}

Result<void> readOpenRlhf(KeyReader& r) {
    setFramework(r, Framework::Deepspeed,
                 OPENRLHF "openrlhf/utils/deepspeed/deepspeed.py (transformers models under deepspeed.initialize)");
    Scenario& s = r.run().scenario;
    s.checkpointing = Checkpointing::None; // its gradient_checkpointing_enable flags are off unless given
    s.paddedBatches = true;                // padded to the longest unless packing_samples
    // Every trainer takes its log-probs through Actor.forward: the whole output upcast to fp32, flash-attn's
    // cross-entropy (models/actor.py L265-285, models/utils.py L139-150); the reference is a model of its own.
    s.overrides.logprobsFromFp32Logits = true;
    s.overrides.referenceCopyWithAdapters = true;
    // deepspeed.initialize without its pipeline engine: data parallelism, ZeRO, AutoTP and ring attention only.
    s.overrides.runsPipelineParallel = false;
    r.run().lines.push_back({ImportLine::Kind::Note, r.doc().position(""), "",
                             "logprobs_from_fp32_logits, reference_copy_with_adapters, runs_pipeline_parallel false",
                             "framework_overrides",
                             verbatim(OPENRLHF "openrlhf/models/actor.py L265-285, models/utils.py L139-150; "
                                               "cli/train_dpo.py L42-52, trainer/ray/launcher.py L104-124")});
    for (const auto& [current, written] : r.doc().spelledAs) {
        r.noteKey(current, words(QT_TRANSLATE_NOOP("gpusizer", "written %1, OpenRLHF's name before v0.10.2: read as "
                                                               "--%2"),
                                 written, current));
    }
    return walk(r, kOpenRlhf);
}

std::span<const KeyTable> openRlhfKeyTables() {
    static constexpr KeyTable kTables[] = {{ConfigFormat::OpenRlhf, OPENRLHF, kOpenRlhf}};
    return kTables;
}

} // namespace gpusizer::core::detail
