#pragma once
// What the format readers share: the snapshots their sources cite, and the conversions several formats make (LoRA
// target names, attention implementations, optimizer names, DeepSpeed's offload and buckets).

#include "KeyTable.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

// The snapshots the keys were read from.
#define AXOLOTL "axolotl @067b021c "
#define LLAMAFACTORY "LLaMA-Factory @ff6d4d12 "
#define LITGPT "litgpt @26857050 "
#define TORCHTUNE "torchtune @bd2a0fc7 "
#define TRANSFORMERS "transformers @00349ae8 "
#define TRL "trl @f2cd5771 "
#define PEFT "peft @5d602fdb "
#define ACCELERATE "accelerate @16cb6eb8 "
#define DEEPSPEED "DeepSpeed @edaa7221 "
#define ARCTIC "ArcticTraining @b28638e6 "
#define VERL "verl @b178a3cd "
#define OPENRLHF "OpenRLHF @3c3be623 "

namespace gpusizer::core::detail {

void setFramework(KeyReader& r, Framework f, const char* source);
/// The model a file names (its path or hub id), with where it names it.
Result<void> applyModelName(KeyReader& r, const std::string& key, const std::string& name);
/// The first of several spellings the file has ("offload_params" and the older "fsdp_offload_params").
std::string spelling(const KeyReader& r, const std::string& prefix, std::initializer_list<const char*> names);
/// LoRA targets from module names; "all-linear" / LLaMA-Factory "all" cover every decoder linear.
Result<void> applyTargets(KeyReader& r, const std::string& key, const std::vector<std::string>& names);
/// PEFT's exclude_modules (a regex or names, matched against full module names: tuners_utils.py @5d602fdb) that
/// name the vision model (visual, vision_tower, vision_model) or the projector take the image side back out of
/// `all-linear`'s reach (noted); false when it changes nothing.
bool applyVisionExclusion(KeyReader& r, const std::string& key);
/// PEFT target_modules (and Axolotl's lora_target_modules): a list of names, or one string that PEFT matches as a
/// full regular expression ("all-linear" aside; tuners/lora/config.py). From a regex, the module names it spells.
Result<std::optional<std::vector<std::string>>> regexTargets(KeyReader& r, const std::string& key, const char* source);
/// PEFT modules_to_save: full trainable copies of the head or the embedding.
Result<void> applyModulesToSave(KeyReader& r, const std::string& key, const char* source);
Result<void> applyAttention(KeyReader& r, const std::string& key, const std::string& impl);
/// pydantic's lax-mode spellings of a bool (case-insensitive): "true" / "false", or nothing for another word.
std::optional<std::string> pydanticBool(const std::string& text);
/// transformers' TrainingArguments refuses bf16 and fp16 together (training_args.py _validate_args); the Trainer's
/// files and LLaMA-Factory's go through it.
Result<void> refuseBf16WithFp16(KeyReader& r, bool bf16, bool fp16);
/// Sets an optimizer-step override only when the file's choice differs from what the framework's profile assumes.
void setOptimizerStep(Scenario& s, OptimizerStepKind step);
void deepspeedBucketDefaults(KeyReader& r, const std::string& prefix, const ZeroDefaults& defaults = {});
Sharding shardingForZeroStage(std::int64_t stage);
/// Offload from the device names of DeepSpeed: optimizer states at ZeRO-1 and up, parameters only at ZeRO-3
/// (zero/config.py offload_param: "valid only with stage 3").
void applyDeepspeedOffload(KeyReader& r, const std::string& key, std::optional<std::string> device, Offload level);
/// The trainer's own 16-bit switch (it wins over accelerate's mixed_precision).
void setTrainerCompute(RunDraft& run, const std::string& compute);
/// An objective by the name a config gives it (Axolotl rl:, LLaMA-Factory pref_loss, TRL loss_type): the run kind.
std::optional<RunKind> preferenceObjective(const std::string& name);
/// Sets the run kind a config's key names, or notes that the objective is sized as supervised training.
void applyObjective(KeyReader& r, const std::string& key, const std::string& name);
/// GRPO's generation keys, at `prefix` (TRL's GRPOConfig at the top level, Axolotl's under trl:), with the source that
/// passes them on; `completionDefault` is the max_completion_length of the TRL release that reads them.
Result<void> readGrpoKeys(KeyReader& r, const std::string& prefix, const char* source, std::int64_t completionDefault);
// Setters the rows of several formats share (a row names one where a value goes straight into a field).
void setLoraRank(RunDraft& d, std::int64_t rank);
void setLoraAlpha(RunDraft& d, double alpha);
void setLoraDropout(RunDraft& d, double dropout);
void setDoraWhenOn(RunDraft& d, bool dora); ///< use_dora: true makes the adapter DoRA; false keeps the kind
void setMicroBatch(RunDraft& d, std::int64_t sequences);
void setGradientAccumulation(RunDraft& d, std::int64_t steps);
void setSeqLen(RunDraft& d, std::int64_t tokens);
/// apply_liger_kernel_to_<model>()'s defaults: rope, rms_norm and swiglu (monkey_patch.py @ead96b61).
void setLigerKernels(Scenario& s);

} // namespace gpusizer::core::detail
