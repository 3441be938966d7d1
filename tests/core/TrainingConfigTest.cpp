// Training configs read into scenarios. Each expected scenario is written by hand from the fixture's keys and the
// framework's documented defaults (the citation beside each expectation; docs/import.md has the same tables), and
// published measured runs re-created from config files estimate exactly as their hand-built calibration scenarios.

#include "gpusizer/import/TrainingConfig.h"

#include "ImportFixtures.h"
#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/scenario/FrameworkProfile.h"
#include "gpusizer/scenario/ScenarioJson.h"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace gpusizer {
namespace {

using core::ImportLine;
using core::LinearRole;
using fixtures::catalog;
using fixtures::imported;
using fixtures::kDir;
using fixtures::request;
using fixtures::slurp;

/// A scenario on a catalog model with the fields every mapper sets at their scenario defaults.
core::Scenario on(const char* modelId) {
    core::Scenario s;
    const core::ModelEntry* m = catalog().findModel(modelId);
    EXPECT_NE(m, nullptr) << modelId;
    s.modelId = modelId;
    s.model = m->arch;
    return s;
}

/// Compares field by field through the scenario file (every key the file has), names and notes aside.
void expectSameScenario(core::Scenario got, core::Scenario want) {
    got.name.clear();
    got.notes.clear();
    want.name.clear();
    want.notes.clear();
    const auto g = nlohmann::json::parse(core::scenarioToJson(got));
    const auto w = nlohmann::json::parse(core::scenarioToJson(want));
    for (const auto& [key, value] : w.items()) {
        EXPECT_EQ(g.value(key, nlohmann::json()), value) << "field " << key;
    }
    for (const auto& [key, value] : g.items()) {
        EXPECT_TRUE(w.contains(key)) << "unexpected field " << key << " = " << value.dump();
    }
}

const ImportLine* lineFor(const core::ImportedRun& run, const std::string& key) {
    for (const ImportLine& l : run.lines) {
        if (l.key == key) {
            return &l;
        }
    }
    return nullptr;
}

// --- Axolotl ---------------------------------------------------------------------------------------------------

TEST(TrainingConfig, AxolotlQloraKeyByKey) {
    const auto run = imported({"axolotl/olmo3-7b-qlora.yaml"});
    core::Scenario want = on("olmo-3-7b"); // base_model allenai/Olmo-3-7B-Instruct-SFT
    want.framework = core::Framework::Axolotl;
    want.method = core::Method::Qlora;             // adapter: qlora, load_in_4bit: true
    want.quantization = core::Quantization::Nf4Dq; // loaders/model.py builds nf4 with double quantization
    want.lora.rank = 32;                           // lora_r
    want.lora.alpha = 16;                          // lora_alpha
    want.lora.dropout = 0.05;                      // lora_dropout
    want.lora.targets = {LinearRole::Q,    LinearRole::K,  LinearRole::V,   LinearRole::O,
                         LinearRole::Gate, LinearRole::Up, LinearRole::Down}; // lora_target_linear: every linear
    want.seqLen = 2048;                                                       // sequence_len
    want.microBatch = 2;                                                      // micro_batch_size
    want.gradientAccumulation = 2;                                            // gradient_accumulation_steps
    want.optimizer = core::Optimizer::AdamW8bit;                              // optimizer: adamw_bnb_8bit
    want.overrides.optimizerStep = core::OptimizerStepKind::Fused;            // bitsandbytes' own kernel
    want.precision = core::Precision::Bf16;         // bf16: auto -> weights load in bf16 (resolve_dtype)
    want.checkpointing = core::Checkpointing::Full; // gradient_checkpointing: true
    want.attention = core::Attention::Flash;        // flash_attention: true
    want.loss = core::Loss::CutCrossEntropy;        // CutCrossEntropyPlugin; cut_cross_entropy defaults to true
    want.gpus = 1;
    expectSameScenario(run.scenario, want);
    // Every key of the file is in the report: used, defaulted or ignored with a reason.
    ASSERT_NE(lineFor(run, "learning_rate"), nullptr);
    EXPECT_EQ(lineFor(run, "learning_rate")->kind, ImportLine::Kind::Ignored);
    EXPECT_EQ(lineFor(run, "learning_rate")->why.english(),
              "does not change GPU memory (schedule, data, logging or output)");
    ASSERT_NE(lineFor(run, "cut_cross_entropy"), nullptr);
    EXPECT_EQ(lineFor(run, "cut_cross_entropy")->kind, ImportLine::Kind::Defaulted);
    EXPECT_NE(lineFor(run, "cut_cross_entropy")->why.english().find("cut_cross_entropy/args.py:33"), std::string::npos);
    ASSERT_NE(lineFor(run, "lora_r"), nullptr);
    EXPECT_EQ(lineFor(run, "lora_r")->file, kDir + "axolotl/olmo3-7b-qlora.yaml:10:1"); // line and column
    EXPECT_EQ(run.modelName, "allenai/Olmo-3-7B-Instruct-SFT");
    EXPECT_NE(run.scenario.notes.find("lora_r = 32 -> lora.rank"), std::string::npos);
}

TEST(TrainingConfig, AxolotlReadsTheDeepspeedFileItNames) {
    const auto run = imported({"axolotl/llama-3.1-8b-lora-zero3.yaml"});
    core::Scenario want = on("llama-3.1-8b");
    want.framework = core::Framework::Axolotl;
    want.method = core::Method::Lora;
    want.lora.rank = 16;
    want.lora.alpha = 32;
    want.lora.dropout = 0.05;
    want.lora.targets = {LinearRole::Q, LinearRole::K, LinearRole::V, LinearRole::O}; // lora_target_modules
    want.lora.saveLmHead = true;                                                      // lora_modules_to_save
    want.lora.dtype = core::AdapterDtype::Bf16; // DeepSpeed casts the module, adapters included, to bf16
    want.seqLen = 4096;
    want.microBatch = 1;           // train_micro_batch_size_per_gpu "auto": the trainer's micro_batch_size
    want.gradientAccumulation = 4; // "auto" likewise
    want.optimizer = core::Optimizer::PagedAdamW8bit;
    want.overrides.optimizerStep = core::OptimizerStepKind::Fused;
    // zero3_bf16.json: stage3_max_live_parameters 0, stage3_max_reuse_distance 0 (DeepSpeed's default is 1e9).
    want.overrides.zeroMaxLiveParameters = 0.0;
    want.overrides.zeroMaxReuseDistance = 0.0;
    want.precision = core::Precision::Bf16Fp32Master; // DeepSpeed bf16: 16-bit module, fp32 master weights
    want.checkpointing = core::Checkpointing::Full;
    want.attention = core::Attention::Flash; // attn_implementation: flash_attention_2
    want.sharding = core::Sharding::Zero3;   // zero_optimization.stage 3
    want.shardingEngine = core::ShardingEngine::Deepspeed;
    want.gpus = 1; // no count in either file: a note asks for --gpus
    expectSameScenario(run.scenario, want);
    ASSERT_EQ(run.files.size(), 2u);
    EXPECT_EQ(run.files[1].second, core::ConfigFormat::Deepspeed);
    EXPECT_EQ(run.files[1].first, kDir + "axolotl/deepspeed_configs/zero3_bf16.json");
    // "auto" buckets are transformers' hidden_size² (the profile's 0), not DeepSpeed's 5e8.
    EXPECT_FALSE(run.scenario.overrides.zeroReduceBucketElements.has_value());
    bool askedForCount = false;
    for (const auto& l : run.lines) {
        askedForCount = askedForCount || l.why.english().find("--gpus") != std::string::npos;
    }
    EXPECT_TRUE(askedForCount);
}

// --- LLaMA-Factory ---------------------------------------------------------------------------------------------

TEST(TrainingConfig, LlamaFactoryLoraKeyByKey) {
    const auto run = imported({"llama-factory/llama3_lora_sft.yaml"});
    core::Scenario want = on("llama-3.1-8b"); // Meta-Llama-3.1-8B-Instruct: the repository's older name
    want.framework = core::Framework::HfTrainer;
    want.method = core::Method::Lora; // finetuning_type: lora
    want.lora.rank = 8;               // lora_rank
    want.lora.alpha = 16;             // absent: 2 × lora_rank (finetuning_args.py __post_init__)
    want.lora.dropout = 0.0;          // absent: 0.0
    want.lora.targets = {LinearRole::Q,    LinearRole::K,  LinearRole::V,   LinearRole::O,
                         LinearRole::Gate, LinearRole::Up, LinearRole::Down}; // lora_target: all
    want.seqLen = 2048;                                                       // cutoff_len
    want.microBatch = 1;                                                      // per_device_train_batch_size
    want.gradientAccumulation = 8;
    want.optimizer = core::Optimizer::AdamW; // optim absent: adamw_torch_fused (transformers, torch >= 2.8)
    want.overrides.optimizerStep = core::OptimizerStepKind::Fused;
    want.precision = core::Precision::Bf16;         // bf16: true, weights loaded in bf16
    want.checkpointing = core::Checkpointing::Full; // on unless disable_gradient_checkpointing
    want.attention = core::Attention::Sdpa;         // flash_attn: auto
    want.gpus = 1;
    expectSameScenario(run.scenario, want);
    ASSERT_NE(lineFor(run, "lora_alpha"), nullptr);
    EXPECT_EQ(lineFor(run, "lora_alpha")->kind, ImportLine::Kind::Defaulted);
    EXPECT_EQ(lineFor(run, "lora_alpha")->value, "16.0");
}

TEST(TrainingConfig, LlamaFactoryQloraWithDeepspeedAndLiger) {
    const auto run = imported({"llama-factory/qwen2.5_qlora_ds3.yaml"});
    core::Scenario want = on("qwen2.5-7b"); // Qwen/Qwen2.5-7B-Instruct without its variant suffix
    want.framework = core::Framework::HfTrainer;
    want.method = core::Method::Qlora;           // quantization_bit: 4 (bitsandbytes)
    want.quantization = core::Quantization::Nf4; // double_quantization: false
    want.lora.rank = 16;
    want.lora.alpha = 16;
    want.lora.dropout = 0.05;
    want.lora.targets = {LinearRole::Q, LinearRole::V}; // lora_target: q_proj,v_proj
    want.lora.dtype = core::AdapterDtype::Bf16;         // DeepSpeed's bf16 module cast
    want.seqLen = 4096;
    want.microBatch = 2;
    want.gradientAccumulation = 4;
    want.optimizer = core::Optimizer::PagedAdamW8bit;
    want.overrides.optimizerStep = core::OptimizerStepKind::Fused;
    want.precision = core::Precision::Bf16Fp32Master;
    want.checkpointing = core::Checkpointing::Full;
    want.attention = core::Attention::Flash; // flash_attn: fa2
    want.loss = core::Loss::FusedLinear;     // enable_liger_kernel: apply_liger_kernel_to_qwen2()'s defaults,
    want.ligerRmsNorm = true;                // rms_norm, swiglu, rope and the fused linear cross-entropy
    want.ligerGlu = true;                    // (LLaMA-Factory model/model_utils/liger_kernel.py)
    want.ligerRope = true;
    want.sharding = core::Sharding::Zero3;
    want.shardingEngine = core::ShardingEngine::Deepspeed;
    want.gpus = 1;
    expectSameScenario(run.scenario, want);
}

// --- torchtune -------------------------------------------------------------------------------------------------

TEST(TrainingConfig, TorchtuneLoraKeyByKey) {
    const auto run = imported({"torchtune/3B_lora_single_device.yaml"});
    core::Scenario want = on("llama-3.2-3b"); // lora_llama3_2_3b
    want.framework = core::Framework::Torchtune;
    want.method = core::Method::Lora;
    want.lora.rank = 64;
    want.lora.alpha = 128;
    want.lora.dropout = 0.0;
    // lora_attn_modules [q_proj, v_proj, output_proj] + apply_lora_to_mlp (w1 gate, w2 down, w3 up)
    want.lora.targets = {LinearRole::Q,    LinearRole::V,    LinearRole::O,
                         LinearRole::Gate, LinearRole::Down, LinearRole::Up};
    want.seqLen = 4096; // tokenizer.max_seq_len
    want.microBatch = 2;
    want.gradientAccumulation = 1;           // absent: 1
    want.optimizer = core::Optimizer::AdamW; // torch.optim.AdamW, fused: True = the torchtune profile's
    want.checkpointing = core::Checkpointing::Full;
    want.activationOffload = true;
    want.compile = true;
    want.precision = core::Precision::Bf16; // dtype: bf16
    want.loss = core::Loss::Chunked;        // CEWithChunkedOutputLoss
    want.attention = core::Attention::Sdpa;
    want.gpus = 1;
    expectSameScenario(run.scenario, want);
}

TEST(TrainingConfig, TorchtuneOverridesAndDistributedLaunch) {
    auto r = request({"torchtune/8B_qlora_single_device.yaml"});
    r.overrides = {"batch_size=4", "tokenizer.max_seq_len=8192", "~compile", "model.lora_rank=16"};
    r.gpus = 4; // tune run --nproc_per_node 4 lora_finetune_distributed
    const auto run = core::importTrainingConfigs(r, catalog());
    ASSERT_TRUE(run.has_value()) << run.error().message();
    const core::Scenario& s = run->scenario;
    EXPECT_EQ(s.modelId, "llama-3.1-8b"); // qlora_llama3_1_8b
    EXPECT_EQ(s.method, core::Method::Qlora);
    EXPECT_EQ(s.microBatch, 4);
    EXPECT_EQ(s.seqLen, 8192);
    EXPECT_EQ(s.lora.rank, 16);
    EXPECT_FALSE(s.compile);
    EXPECT_EQ(s.gpus, 4);
    EXPECT_EQ(s.sharding, core::Sharding::Zero3); // distributed recipes shard with FSDP2
    EXPECT_EQ(s.loss, core::Loss::Chunked);       // LinearCrossEntropyLoss projects chunk by chunk
    EXPECT_EQ(s.overrides.chunkedLossProjectsPerChunk, std::optional<bool>(true));
    // A value from the command line points at no line of the file.
    ASSERT_NE(lineFor(*run, "batch_size"), nullptr);
    EXPECT_EQ(lineFor(*run, "batch_size")->file, kDir + "torchtune/8B_qlora_single_device.yaml");

    auto bad = request({"torchtune/8B_qlora_single_device.yaml"});
    bad.overrides = {"batch_size"};
    const auto refused = core::importTrainingConfigs(bad, catalog());
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().message(), "override 'batch_size' is not key=value or ~key");
}

TEST(TrainingConfig, TorchtuneNullLengthTakesTheDefaultAndSaysSo) {
    const auto run = imported({"torchtune/8B_qlora_single_device.yaml"});
    const ImportLine* l = lineFor(run, "tokenizer.max_seq_len");
    ASSERT_NE(l, nullptr);
    EXPECT_EQ(l->kind, ImportLine::Kind::Defaulted);
    EXPECT_EQ(run.scenario.seqLen, 2048);
}

// --- transformers / TRL + PEFT + accelerate / DeepSpeed --------------------------------------------------------

TEST(TrainingConfig, TrainerAdapterAndAccelerateDeepspeedKeyByKey) {
    const auto run = imported(
        {"transformers/sft_config.json", "transformers/adapter_config.json", "transformers/accelerate_deepspeed.yaml"});
    core::Scenario want = on("llama-2-70b"); // adapter_config base_model_name_or_path
    want.framework = core::Framework::HfTrainer;
    want.method = core::Method::Lora;
    want.lora.rank = 8;      // r
    want.lora.alpha = 16;    // lora_alpha
    want.lora.dropout = 0.1; // lora_dropout
    want.lora.targets = {LinearRole::Q,    LinearRole::K,  LinearRole::V,   LinearRole::O,
                         LinearRole::Gate, LinearRole::Up, LinearRole::Down}; // all-linear
    want.lora.dtype = core::AdapterDtype::Bf16;                               // DeepSpeed's module cast
    want.seqLen = 2048;                                                       // max_seq_length
    want.microBatch = 8;                                                      // per_device_train_batch_size
    want.gradientAccumulation = 4;
    want.optimizer = core::Optimizer::AdamW; // optim: adamw_torch = the profile's foreach step
    want.precision = core::Precision::Bf16Fp32Master;
    want.checkpointing = core::Checkpointing::Full;
    want.attention = core::Attention::Flash; // model_init_kwargs.attn_implementation
    want.gpus = 8;                           // num_processes
    want.sharding = core::Sharding::Zero3;   // zero_stage: 3
    want.shardingEngine = core::ShardingEngine::Deepspeed;
    // accelerate's generated DeepSpeed config names no buckets: DeepSpeed's defaults (zero/config.py:113, :215).
    want.overrides.zeroReduceBucketElements = 5e8;
    want.overrides.zeroPrefetchBucketElements = 5e7;
    expectSameScenario(run.scenario, want);
}

TEST(TrainingConfig, TheSameRunWithItsDeepspeedJsonIsTheSameScenario) {
    const auto run = imported({"transformers/sft_config.json", "transformers/adapter_config.json",
                               "transformers/accelerate_deepspeed_file.yaml"});
    ASSERT_EQ(run.files.size(), 4u);
    // The DeepSpeed JSON the accelerate config names is read right after it, before the adapter config.
    EXPECT_EQ(run.files[2].second, core::ConfigFormat::Deepspeed);
    EXPECT_EQ(run.files[2].first, kDir + "transformers/ds_zero3.json");
    EXPECT_EQ(run.scenario.precision, core::Precision::Bf16Fp32Master); // bf16.enabled "auto": the Trainer's bf16
    // ... and the run is the one accelerate's inline DeepSpeed keys describe, field by field.
    expectSameScenario(run.scenario, imported({"transformers/sft_config.json", "transformers/adapter_config.json",
                                               "transformers/accelerate_deepspeed.yaml"})
                                         .scenario);
}

// DeepSpeed 0.18.3's bf16 switches (runtime/precision_config.py:63,68 @edaa7221), both on under ZeRO-2, with the
// Trainer's bf16: the bf16 master recipe, not the fp32 master DeepSpeed keeps by default.
TEST(TrainingConfig, DeepspeedsBf16MasterSwitchesImportAsTheBf16MasterRecipe) {
    auto req = request({"transformers/sft_config.json", "transformers/adapter_config.json"});
    req.files.push_back({kDir + "ds_bf16_master.json",
                         R"({"bf16": {"enabled": "auto", "bf16_master_weights_and_grads": true,
                                      "bf16_optimizer_states": true},
                             "zero_optimization": {"stage": 2}})",
                         core::ConfigFormat::Deepspeed});
    const auto run = core::importTrainingConfigs(req, catalog());
    ASSERT_TRUE(run.has_value()) << run.error().where << ": " << run.error().message();
    EXPECT_EQ(run->scenario.precision, core::Precision::Bf16Bf16Master);
    EXPECT_EQ(run->scenario.sharding, core::Sharding::Zero2);
}

// zero/config.py:383 @edaa7221: overlap_comm defaults to on at stage 3 only. Set at stage 2 it doubles the reduce
// bucket (FrameworkBehaviour.DeepspeedOverlapCommDoublesZeroTwosReduceBucket); at stage 3 it is the default and changes
// nothing.
TEST(TrainingConfig, DeepspeedsOverlapCommIsReadAtStagesOneAndTwo) {
    for (const int stage : {2, 3}) {
        auto req = request({"transformers/sft_config.json", "transformers/adapter_config.json"});
        req.files.push_back(
            {kDir + "ds_overlap.json",
             R"({"zero_optimization": {"stage": )" + std::to_string(stage) + R"(, "overlap_comm": true}})",
             core::ConfigFormat::Deepspeed});
        const auto run = core::importTrainingConfigs(req, catalog());
        ASSERT_TRUE(run.has_value()) << run.error().where << ": " << run.error().message();
        EXPECT_EQ(run->scenario.overrides.zeroOverlapComm, stage == 2 ? std::optional<bool>(true) : std::nullopt);
        EXPECT_TRUE(std::any_of(run->lines.begin(), run->lines.end(), [](const core::ImportLine& l) {
            return l.key == "zero_optimization.overlap_comm" && l.kind == core::ImportLine::Kind::Used;
        }));
    }
}

TEST(TrainingConfig, TrainerWithAccelerateFsdp) {
    const auto run = imported(
        {"transformers/sft_config.json", "transformers/adapter_config.json", "transformers/accelerate_fsdp.yaml"});
    const core::Scenario& s = run.scenario;
    EXPECT_EQ(s.sharding, core::Sharding::Zero3);             // fsdp_sharding_strategy: FULL_SHARD
    EXPECT_EQ(s.shardingEngine, core::ShardingEngine::Fsdp1); // fsdp_version absent: 1
    EXPECT_EQ(s.precision, core::Precision::FsdpMixedBf16);   // fp32 load (no torch_dtype), bf16 mixed precision
    EXPECT_EQ(s.lora.dtype, core::AdapterDtype::Auto);        // PEFT's fp32 adapters
    EXPECT_EQ(s.gpus, 8);
}

TEST(TrainingConfig, QuantizationConfigMakesTheAdapterRunQlora) {
    const auto run =
        imported({"transformers/sft_config.json", "transformers/adapter_config.json", "transformers/bnb_config.json"});
    EXPECT_EQ(run.scenario.method, core::Method::Qlora);             // load_in_4bit
    EXPECT_EQ(run.scenario.quantization, core::Quantization::Nf4Dq); // nf4 + bnb_4bit_use_double_quant
    EXPECT_EQ(run.scenario.gpus, 1);
    EXPECT_EQ(run.scenario.precision, core::Precision::AmpBf16); // bf16 autocast over an fp32 load
}

// --- LitGPT ----------------------------------------------------------------------------------------------------

TEST(TrainingConfig, LitgptLoraKeyByKey) {
    const auto run = imported({"litgpt/llama-2-7b-lora.yaml"});
    core::Scenario want = on("llama-2-7b"); // checkpoints/meta-llama/Llama-2-7b-hf
    want.framework = core::Framework::Lightning;
    want.method = core::Method::Lora;
    want.precision = core::Precision::Bf16; // bf16-true
    want.lora.rank = 8;
    want.lora.alpha = 16;
    want.lora.dropout = 0.05;
    want.lora.targets = {LinearRole::Q, LinearRole::V}; // lora_query, lora_value
    want.microBatch = 1;
    want.gradientAccumulation = 128; // global 128 / (1 device) / micro-batch 1
    want.seqLen = 1304;
    want.optimizer = core::Optimizer::AdamW;
    want.loss = core::Loss::Chunked;                // chunked_cross_entropy, lm_head_chunk_size 128
    want.checkpointing = core::Checkpointing::None; // one device: no checkpointing in finetune/lora.py
    want.attention = core::Attention::Sdpa;
    want.gpus = 1;
    expectSameScenario(run.scenario, want);
}

TEST(TrainingConfig, LitgptQuantizedRunUsesPagedAdamW) {
    const auto run = imported({"litgpt/llama-2-7b-qlora-hub.yaml"});
    const core::Scenario& s = run.scenario;
    EXPECT_EQ(s.method, core::Method::Qlora);
    EXPECT_EQ(s.quantization, core::Quantization::Nf4);  // bnb.nf4
    EXPECT_EQ(s.optimizer, core::Optimizer::PagedAdamW); // lora.py:218: AdamW becomes bnb.optim.PagedAdamW
    EXPECT_EQ(s.lora.rank, 32);
    EXPECT_EQ(s.microBatch, 2);
    EXPECT_EQ(s.gradientAccumulation, 4); // 8 / 1 / 2
    EXPECT_EQ(s.seqLen, 512);
}

// --- Detection, models and errors ------------------------------------------------------------------------------

TEST(TrainingConfig, FormatsAreDetectedFromTheContent) {
    const std::pair<const char*, core::ConfigFormat> cases[] = {
        {"axolotl/olmo3-7b-qlora.yaml", core::ConfigFormat::Axolotl},
        {"axolotl/deepspeed_configs/zero3_bf16.json", core::ConfigFormat::Deepspeed},
        {"llama-factory/llama3_lora_sft.yaml", core::ConfigFormat::LlamaFactory},
        {"torchtune/3B_lora_single_device.yaml", core::ConfigFormat::Torchtune},
        {"transformers/sft_config.json", core::ConfigFormat::TrainingArguments},
        {"transformers/adapter_config.json", core::ConfigFormat::PeftAdapter},
        {"transformers/bnb_config.json", core::ConfigFormat::BitsAndBytes},
        {"transformers/accelerate_fsdp.yaml", core::ConfigFormat::Accelerate},
        {"litgpt/llama-2-7b-lora.yaml", core::ConfigFormat::Litgpt},
        {"arctic-training/llama70b-ulysses32.yaml", core::ConfigFormat::ArcticTraining},
    };
    for (const auto& [file, format] : cases) {
        EXPECT_EQ(core::detectConfigFormat(slurp(kDir + file)), std::optional(format)) << file;
    }
    EXPECT_EQ(core::detectConfigFormat(R"({"format": "gpusizer-scenario", "version": 1})"), std::nullopt);
    EXPECT_EQ(core::detectConfigFormat("just: a\nmapping: 1\n"), std::nullopt);
}

TEST(TrainingConfig, HuggingFaceIdsMatchTheCatalog) {
    const auto id = [](const char* hf) {
        const core::ModelEntry* m = core::matchCatalogModel(catalog(), hf);
        return m ? m->id : std::string("none");
    };
    EXPECT_EQ(id("meta-llama/Llama-3.1-8B"), "llama-3.1-8b");          // the repository in the sources
    EXPECT_EQ(id("META-LLAMA/llama-2-7b-HF"), "llama-2-7b");           // case-insensitive
    EXPECT_EQ(id("meta-llama/Llama-3.2-3B-Instruct"), "llama-3.2-3b"); // variant suffix
    EXPECT_EQ(id("someone/Llama-2-13B"), "llama-2-13b");               // organisation ignored, name matched
    EXPECT_EQ(id("meta-llama/Meta-Llama-3.1-8B-Instruct"), "llama-3.1-8b");
    EXPECT_EQ(id("acme/NotAModel-7B"), "none");
    EXPECT_EQ(id(""), "none");
}

TEST(TrainingConfig, UnknownModelAsksForItsConfig) {
    core::ImportRequest r;
    r.files.push_back({"run.yaml", "base_model: acme/Mystery-9B\nadapter: lora\nlora_r: 8\nmicro_batch_size: 1\n", {}});
    const auto refused = core::importTrainingConfigs(r, catalog());
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().code, core::kModelConfigNeeded);
    EXPECT_EQ(refused.error().where, "run.yaml:1:1: base_model");
    // Core names no control: the CLI adds its --model-config, the window asks for the file.
    EXPECT_EQ(refused.error().message(), "model 'acme/Mystery-9B' is not in the catalog: give its config.json");
    // With its config.json the same run imports, sized on that architecture.
    r.modelConfig =
        core::ConfigFile{"config.json", slurp(std::string(GPUSIZER_TEST_DATA_DIR) + "/hf-configs/mistral-7b-v0.1.json"),
                         core::ConfigFormat::ModelConfig};
    const auto run = core::importTrainingConfigs(r, catalog());
    ASSERT_TRUE(run.has_value()) << run.error().message();
    EXPECT_TRUE(run->scenario.modelId.empty());
    EXPECT_EQ(run->scenario.model.hiddenSize, 4096);
    EXPECT_EQ(run->scenario.model.numKvHeads, 8);
}

TEST(TrainingConfig, ErrorsNameFileLineColumnAndKey) {
    const auto importOne = [](const std::string& text) {
        core::ImportRequest r;
        r.files.push_back({"axolotl.yaml", text, {}});
        return core::importTrainingConfigs(r, catalog());
    };
    auto e = importOne("base_model: meta-llama/Llama-3.1-8B\nmicro_batch_size: two\nsequence_len: 512\n");
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().where, "axolotl.yaml:2:1: micro_batch_size");
    EXPECT_EQ(e.error().message(), "must be a whole number");
    e = importOne("base_model: meta-llama/Llama-3.1-8B\nmicro_batch_size: 0\n");
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().message(), "must be between 1 and 65536");
    e = importOne("base_model: x\nmicro_batch_size: [1\n");
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().where.rfind("axolotl.yaml:", 0), 0u); // the parser's line and column
    EXPECT_NE(e.error().message().find("not valid YAML"), std::string::npos);
    e = importOne("- a list\n- not a config\n");
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().message(), "not a training config: the file is not a mapping of keys");
    e = importOne("colour: blue\n");
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().code, core::ErrorCode::WrongFormat);
    e = importOne("base_model: meta-llama/Llama-3.1-8B\nadapter: ia3\nsequence_len: 512\n");
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().where, "axolotl.yaml:2:1: adapter");
}

TEST(TrainingConfig, AliasExpansionIsBounded) {
    // Nine levels of nine aliases each would expand to 9^9 values: refused, not expanded.
    std::ostringstream yaml; // (a stream: GCC 12's -Wrestrict misreads chains of string + at -O3)
    yaml << "base_model: meta-llama/Llama-3.1-8B\nsequence_len: 512\na0: &a0 [x, x, x, x, x, x, x, x, x]\n";
    for (int i = 1; i < 9; ++i) {
        yaml << 'a' << i << ": &a" << i << " [";
        for (int j = 0; j < 9; ++j) {
            yaml << (j ? ", " : "") << "*a" << i - 1;
        }
        yaml << "]\n";
    }
    const std::string text = yaml.str();
    core::ImportRequest r;
    r.files.push_back({"laughs.yaml", text, {}});
    const auto e = core::importTrainingConfigs(r, catalog());
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().code, core::ErrorCode::TooLarge);
}

TEST(TrainingConfig, MissingReferencedFileNamesWhoNamedIt) {
    core::ImportRequest r = request({});
    r.files.push_back(
        {kDir + "x.yaml", "base_model: meta-llama/Llama-3.1-8B\nsequence_len: 512\ndeepspeed: nowhere.json\n", {}});
    const auto e = core::importTrainingConfigs(r, catalog());
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().where, kDir + "x.yaml:3:1: deepspeed");
    // Every place it was looked for: as given (the working directory), next to the file, in each folder above.
    EXPECT_NE(e.error().message().find("tried nowhere.json, " + kDir + "nowhere.json"), std::string::npos)
        << e.error().message();
}

TEST(TrainingConfig, YamlScalarsAsPyYamlReadsThem) {
    // yes/on are true, 1e-4 a number, a quoted "true" a string (the adapter name below stays text).
    core::ImportRequest r;
    r.files.push_back({"a.yaml",
                       "base_model: meta-llama/Llama-3.1-8B\nadapter: lora\nlora_r: 8\nlora_alpha: 1.6e1\n"
                       "gradient_checkpointing: yes\nflash_attention: on\nlearning_rate: 1e-4\nsequence_len: 1_024\n",
                       {}});
    const auto run = core::importTrainingConfigs(r, catalog());
    ASSERT_TRUE(run.has_value()) << run.error().message();
    EXPECT_EQ(run->scenario.lora.alpha, 16.0);
    EXPECT_EQ(run->scenario.checkpointing, core::Checkpointing::Full);
    EXPECT_EQ(run->scenario.attention, core::Attention::Flash);
    EXPECT_EQ(run->scenario.seqLen, 1024);
    r.files[0].bytes += "micro_batch_size: \"2\"\n";
    const auto quoted = core::importTrainingConfigs(r, catalog());
    ASSERT_FALSE(quoted.has_value());
    EXPECT_EQ(quoted.error().message(), "must be a whole number");
}

TEST(TrainingConfig, ImportedScenarioSavesAndReopens) {
    const auto run = imported({"axolotl/olmo3-7b-qlora.yaml"});
    const std::string saved = core::scenarioToJson(run.scenario);
    const auto reopened = core::parseScenario(saved, "saved.json", catalog());
    ASSERT_TRUE(reopened.has_value()) << reopened.error().message();
    EXPECT_EQ(reopened->scenario.notes, run.scenario.notes);
    EXPECT_EQ(core::scenarioToJson(reopened->scenario), saved);
}

} // namespace
} // namespace gpusizer

namespace gpusizer {
namespace {

TEST(TrainingConfig, AxolotlLigerSwitchesNeedTheirPlugin) {
    const std::string base = "base_model: meta-llama/Llama-3.1-8B\nadapter: lora\nlora_r: 8\nsequence_len: 1024\n"
                             "liger_rms_norm: true\nliger_glu_activation: true\nliger_rope: true\n"
                             "liger_fused_linear_cross_entropy: true\n";
    core::ImportRequest r;
    r.files.push_back({"with.yaml", base + "plugins:\n  - axolotl.integrations.liger.LigerPlugin\n", {}});
    const auto with = core::importTrainingConfigs(r, catalog());
    ASSERT_TRUE(with.has_value()) << with.error().message();
    EXPECT_TRUE(with->scenario.ligerRmsNorm);
    EXPECT_TRUE(with->scenario.ligerGlu);
    EXPECT_TRUE(with->scenario.ligerRope);
    EXPECT_EQ(with->scenario.loss, core::Loss::FusedLinear);
    // Without LigerPlugin in plugins Axolotl never reads them (integrations/liger/plugin.py): ignored, and said so.
    r.files[0] = {"without.yaml", base, {}};
    const auto without = core::importTrainingConfigs(r, catalog());
    ASSERT_TRUE(without.has_value()) << without.error().message();
    EXPECT_FALSE(without->scenario.ligerRmsNorm);
    EXPECT_EQ(without->scenario.loss, core::Loss::Standard);
    ASSERT_NE(lineFor(*without, "liger_rms_norm"), nullptr);
    EXPECT_EQ(lineFor(*without, "liger_rms_norm")->kind, ImportLine::Kind::Ignored);
}

} // namespace
} // namespace gpusizer

namespace gpusizer {
namespace {

/// Imports in-memory files (name, text); a referenced file is looked up among them by the name it is asked for.
core::Result<core::ImportedRun> importTexts(std::vector<std::pair<std::string, std::string>> files,
                                            std::optional<std::int64_t> gpus = std::nullopt,
                                            std::vector<std::string> overrides = {}) {
    core::ImportRequest r;
    for (const auto& [name, text] : files) {
        r.files.push_back({name, text, std::nullopt});
    }
    r.gpus = gpus;
    r.overrides = std::move(overrides);
    r.readReferenced = [files](const std::string& path) -> std::optional<core::Result<std::string>> {
        for (const auto& [name, text] : files) {
            if (name == path) {
                return core::Result<std::string>(text);
            }
        }
        return std::nullopt;
    };
    return core::importTrainingConfigs(r, catalog());
}

core::ImportedRun ok(core::Result<core::ImportedRun> run) {
    EXPECT_TRUE(run.has_value()) << (run ? "" : run.error().where + ": " + run.error().message());
    return run ? *run : core::ImportedRun{};
}

const std::string kSft = R"({"per_device_train_batch_size": 2, "bf16": true, "max_seq_length": 1024})";
const std::string kAdapter = R"({"peft_type": "LORA", "r": 8, "lora_alpha": 16, "target_modules": ["q_proj", "v_proj"],
                                 "base_model_name_or_path": "meta-llama/Llama-3.1-8B"})";

TEST(TrainingConfigFramework, TheTrainersBf16WinsOverAccelerateMixedPrecision) {
    // transformers TrainingArguments.__post_init__: "if training args is specified, it will override the one
    // specified in the accelerate config" (it writes bf16 into ACCELERATE_MIXED_PRECISION).
    const auto run =
        ok(importTexts({{"sft.json", kSft},
                        {"adapter.json", kAdapter},
                        {"acc.yaml", "distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: 'no'\n"}}));
    EXPECT_EQ(run.scenario.precision, core::Precision::AmpBf16); // an fp32 load with bf16 autocast
    ASSERT_NE(lineFor(run, "mixed_precision"), nullptr);
}

TEST(TrainingConfigFramework, AxolotlFsdp2AtTheTopLevelTheOlderFsdpListAndInlineDeepspeed) {
    const std::string base = "base_model: meta-llama/Llama-3.1-8B\nadapter: lora\nlora_r: 8\nsequence_len: 1024\n";
    // axolotl schemas/validation.py:882-887: the top-level fsdp_version wins.
    auto run =
        ok(importTexts({{"a.yaml", base + "fsdp_version: 2\nfsdp_config:\n  reshard_after_forward: true\n"}}, 8));
    EXPECT_EQ(run.scenario.shardingEngine, core::ShardingEngine::Fsdp2);
    EXPECT_EQ(run.scenario.sharding, core::Sharding::Zero3);
    EXPECT_EQ(run.scenario.gpus, 8);
    // The older list form goes to TrainingArguments.fsdp: shard_grad_op with offload.
    run = ok(importTexts({{"b.yaml", base + "fsdp:\n  - shard_grad_op\n  - offload\n  - auto_wrap\n"}}, 2));
    EXPECT_EQ(run.scenario.sharding, core::Sharding::Zero2);
    EXPECT_EQ(run.scenario.offload, core::Offload::OptimizerAndParams);
    // A DeepSpeed config written inline (schemas/config.py:1032: str | dict).
    run = ok(importTexts(
        {{"c.yaml", base + "deepspeed:\n  zero_optimization:\n    stage: 3\n  bf16:\n    enabled: auto\n"}}));
    EXPECT_EQ(run.scenario.sharding, core::Sharding::Zero3);
    EXPECT_EQ(run.scenario.shardingEngine, core::ShardingEngine::Deepspeed);
    EXPECT_EQ(run.scenario.precision, core::Precision::Bf16Fp32Master);
}

TEST(TrainingConfigFramework, AReferencedDeepspeedFileIsFoundFromTheRepositoryRoot) {
    // LLaMA-Factory's examples name examples/deepspeed/... from the repository root, where llamafactory-cli runs.
    const auto run = imported({"llama-factory-repo/examples/train_lora/llama3_lora_sft_ds3.yaml"});
    ASSERT_EQ(run.files.size(), 2u);
    EXPECT_EQ(run.files[1].first, kDir + "llama-factory-repo/examples/deepspeed/ds_z3_config.json");
    EXPECT_EQ(run.scenario.sharding, core::Sharding::Zero3);
}

TEST(TrainingConfigFramework, AxolotlFp16AndTheLoadDtype) {
    // resolve_dtype: bf16 "auto" turns on only when fp16 is off.
    const auto run =
        ok(importTexts({{"a.yaml", "base_model: meta-llama/Llama-3.1-8B\nadapter: lora\nlora_r: 8\nfp16: true\n"}}));
    EXPECT_EQ(run.scenario.precision, core::Precision::Fp16);
}

TEST(TrainingConfigFramework, TrlLoadDtypeQloraAdaptersAndNoTruncation) {
    const std::string sft = R"({"per_device_train_batch_size": 1, "bf16": true, "max_length": null,
                                "model_init_kwargs": {"dtype": "bfloat16"}})";
    const std::string bnb = R"({"quant_method": "bitsandbytes", "_load_in_4bit": true, "bnb_4bit_quant_type": "nf4",
                                "bnb_4bit_use_double_quant": true})";
    const auto run = ok(importTexts({{"sft.json", sft}, {"adapter.json", kAdapter}, {"bnb.json", bnb}}));
    EXPECT_EQ(run.scenario.method, core::Method::Qlora);          // _load_in_4bit, the private spelling
    EXPECT_EQ(run.scenario.precision, core::Precision::Bf16);     // model_init_kwargs.dtype (transformers v5)
    EXPECT_EQ(run.scenario.lora.dtype, core::AdapterDtype::Bf16); // trl sft_trainer.py:1127-1130
    EXPECT_EQ(run.scenario.seqLen, 2048);                         // null: GPU Sizer's length, noted
    ASSERT_NE(lineFor(run, "max_length"), nullptr);
    EXPECT_EQ(lineFor(run, "max_length")->kind, ImportLine::Kind::Note);
    // peft_type and load_in_4bit both say something about the method: no "replaces" note between them.
    for (const auto& l : run.lines) {
        EXPECT_EQ(l.why.english().find("replaces"), std::string::npos) << l.key;
    }
}

TEST(TrainingConfigFramework, ARealConflictBetweenFilesIsNoted) {
    const std::string ds = R"({"zero_optimization": {"stage": 2}, "train_micro_batch_size_per_gpu": 4})";
    const auto run = ok(importTexts({{"sft.json", kSft}, {"adapter.json", kAdapter}, {"ds.json", ds}}));
    EXPECT_EQ(run.scenario.microBatch, 4);
    bool noted = false;
    for (const auto& l : run.lines) {
        noted = noted || (l.field == "micro_batch" && l.why.english().find("replaces 2") != std::string::npos);
    }
    EXPECT_TRUE(noted);
}

TEST(TrainingConfigFramework, LitgptRefusesWhatLitgptRefusesAndShardsWithFsdp2) {
    const std::string base = "checkpoint_dir: checkpoints/meta-llama/Llama-2-7b-hf\n";
    // lora.py:141-143: quantization with the default bf16-mixed precision.
    auto refused = importTexts({{"a.yaml", base + "quantize: bnb.nf4\n"}});
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().where, "a.yaml:2:1: quantize");
    // lora.py:152-157: quantization on more than one device.
    refused = importTexts({{"b.yaml", base + "precision: bf16-true\nquantize: bnb.nf4\ndevices: 2\n"}});
    ASSERT_FALSE(refused.has_value());
    EXPECT_NE(refused.error().message().find("one device"), std::string::npos);
    // Two devices: FSDP2 fully_shard, every Block checkpointed; accumulation 16 / 2 / 1 = 8.
    auto run = ok(importTexts({{"c.yaml", base + "precision: bf16-true\ndevices: 2\n"}}));
    EXPECT_EQ(run.scenario.gpus, 2);
    EXPECT_EQ(run.scenario.sharding, core::Sharding::Zero3);
    EXPECT_EQ(run.scenario.shardingEngine, core::ShardingEngine::Fsdp2);
    EXPECT_EQ(run.scenario.checkpointing, core::Checkpointing::Full);
    EXPECT_EQ(run.scenario.gradientAccumulation, 8);
    // devices: auto takes the launch's count; a defaulted count gives way to --gpus too.
    run = ok(importTexts({{"d.yaml", base + "precision: bf16-true\ndevices: auto\n"}}, 4));
    EXPECT_EQ(run.scenario.gpus, 4);
    run = ok(importTexts({{"e.yaml", base + "precision: bf16-true\n"}}, 4));
    EXPECT_EQ(run.scenario.gpus, 4);
}

TEST(TrainingConfigFramework, GpusReplacesACountNoFileGives) {
    const auto run = ok(importTexts(
        {{"sft.json", kSft}, {"adapter.json", kAdapter}, {"acc.yaml", "distributed_type: MULTI_GPU\n"}}, 4));
    EXPECT_EQ(run.scenario.gpus, 4); // accelerate's num_processes was only defaulted
}

TEST(TrainingConfigFramework, TorchtuneOverridesAsTuneRunTakesThem) {
    const std::string recipe = "model:\n  _component_: torchtune.models.llama3_1.lora_llama3_1_8b\n"
                               "  lora_attn_modules: [q_proj, v_proj]\n"
                               "tokenizer:\n  max_seq_len: 2048\nbatch_size: 2\ndtype: bf16\n"
                               "optimizer:\n  _component_: torch.optim.AdamW\n  fused: True\n";
    // A component key set by name, None as null, a missing key's removal refused (config/_utils.py).
    auto run = ok(importTexts({{"r.yaml", recipe}}, std::nullopt,
                              {"optimizer=bitsandbytes.optim.PagedAdamW8bit", "tokenizer.max_seq_len=None"}));
    EXPECT_EQ(run.scenario.optimizer, core::Optimizer::PagedAdamW8bit);
    EXPECT_EQ(lineFor(run, "tokenizer.max_seq_len")->kind, ImportLine::Kind::Defaulted);
    const auto refused = importTexts({{"r.yaml", recipe}}, std::nullopt, {"~nothere"});
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().message(), "cannot remove 'nothere': the file has no such key");
}

// optimizer_in_bwd runs the optimizer step inside backward in the full fine-tuning recipes only
// (full_finetune_single_device.py:151); the builder decides the method, so a full builder's file turns it on and a
// LoRA builder's does not.
TEST(TrainingConfigFramework, TorchtuneOptimizerInBackwardForFullFineTuningOnly) {
    const std::string tail = "\nbatch_size: 1\ndtype: bf16\noptimizer_in_bwd: True\n";
    const auto full =
        ok(importTexts({{"r.yaml", "model:\n  _component_: torchtune.models.llama3_2.llama3_2_1b" + tail}}));
    EXPECT_EQ(full.scenario.method, core::Method::Full);
    EXPECT_TRUE(full.scenario.optimizerInBackward);
    const auto lora = ok(importTexts({{"r.yaml", "model:\n  _component_: torchtune.models.llama3_2.lora_llama3_2_1b\n"
                                                 "  lora_attn_modules: [q_proj]" +
                                                     tail}}));
    EXPECT_FALSE(lora.scenario.optimizerInBackward);
}

TEST(TrainingConfigFramework, TorchtuneBuildersOfOtherFamiliesMatchTheCatalog) {
    for (const auto& [builder, id] :
         {std::pair{"qwen2_5_0_5b", "qwen2.5-0.5b"}, std::pair{"lora_qwen2_5_7b_instruct", "qwen2.5-7b"},
          std::pair{"phi4_14b", "phi-4"}, std::pair{"lora_llama3_2_1b", "llama-3.2-1b"}}) {
        const auto run =
            ok(importTexts({{"r.yaml", std::string("model:\n  _component_: torchtune.models.x.") + builder +
                                           "\n  lora_attn_modules: [q_proj]\nbatch_size: 1\ndtype: bf16\n"}}));
        EXPECT_EQ(run.scenario.modelId, id) << builder;
    }
}

TEST(TrainingConfigFramework, LlamaFactoryPrecisionUnderFsdpAndPureBf16) {
    const std::string full = "model_name_or_path: meta-llama/Llama-3.1-8B\nfinetuning_type: full\nbf16: true\n";
    // adapter.py:337-349 keeps the trainable weights in fp32; FSDP's MixedPrecision gathers them in bf16.
    auto run = ok(importTexts(
        {{"lf.yaml", full}, {"acc.yaml", "distributed_type: FSDP\nnum_processes: 8\nmixed_precision: bf16\n"}}));
    EXPECT_EQ(run.scenario.precision, core::Precision::FsdpMixedBf16);
    // pure_bf16 LoRA: no fp32 cast, adapters in bf16 (autocast_adapter_dtype=False).
    run = ok(importTexts({{"lf.yaml", "model_name_or_path: meta-llama/Llama-3.1-8B\npure_bf16: true\n"}}));
    EXPECT_EQ(run.scenario.lora.dtype, core::AdapterDtype::Bf16);
    EXPECT_EQ(run.scenario.precision, core::Precision::Bf16);
}

TEST(TrainingConfigFramework, ParameterOffloadNeedsZeroStage3) {
    const std::string ds = R"({"zero_optimization": {"stage": 2, "offload_param": {"device": "cpu"},
                               "offload_optimizer": {"device": "cpu"}}})";
    const auto run = ok(importTexts({{"sft.json", kSft}, {"adapter.json", kAdapter}, {"ds.json", ds}}));
    EXPECT_EQ(run.scenario.offload, core::Offload::Optimizer); // zero/config.py: offload_param only with stage 3
}

TEST(TrainingConfigFramework, PeftTargetModulesAsARegularExpression) {
    const std::string adapter = R"json({"peft_type": "LORA", "r": 8, "lora_alpha": 16,
                                        "target_modules": ".*\\.(q_proj|v_proj|down_proj)",
                                        "base_model_name_or_path": "meta-llama/Llama-3.1-8B"})json";
    const auto run = ok(importTexts({{"sft.json", kSft}, {"adapter.json", adapter}}));
    EXPECT_EQ(run.scenario.lora.targets, (std::vector{LinearRole::Q, LinearRole::V, LinearRole::Down}));
}

TEST(TrainingConfigFramework, PeftAdapterKindsAreReadFromTheirConfigs) {
    // peft/tuners/lora/config.py use_dora; vera/config.py r default 256, vera_dropout; ia3 and ln_tuning defaults
    // from utils/constants.py's Llama mappings (@5d602fdb).
    const std::string dora = R"({"peft_type": "LORA", "r": 8, "lora_alpha": 16, "use_dora": true,
                                 "target_modules": ["q_proj", "v_proj"], "base_model_name_or_path": "meta-llama/Llama-3.1-8B"})";
    auto run = ok(importTexts({{"sft.json", kSft}, {"adapter.json", dora}}));
    EXPECT_EQ(run.scenario.lora.kind, core::AdapterKind::Dora);
    ASSERT_NE(lineFor(run, "use_dora"), nullptr);
    EXPECT_EQ(lineFor(run, "use_dora")->field, "lora.kind");

    run = ok(importTexts(
        {{"sft.json", kSft},
         {"adapter.json",
          R"({"peft_type": "VERA", "vera_dropout": 0.1, "base_model_name_or_path": "meta-llama/Llama-3.1-8B"})"}}));
    EXPECT_EQ(run.scenario.lora.kind, core::AdapterKind::Vera);
    EXPECT_EQ(run.scenario.lora.rank, 256);
    EXPECT_DOUBLE_EQ(run.scenario.lora.dropout, 0.1);
    EXPECT_EQ(run.scenario.lora.targets, (std::vector{LinearRole::Q, LinearRole::V}));

    run = ok(importTexts(
        {{"sft.json", kSft},
         {"adapter.json", R"({"peft_type": "IA3", "base_model_name_or_path": "meta-llama/Llama-3.1-8B"})"}}));
    EXPECT_EQ(run.scenario.lora.kind, core::AdapterKind::Ia3);
    EXPECT_EQ(run.scenario.lora.targets, (std::vector{LinearRole::K, LinearRole::V, LinearRole::Down}));

    run = ok(importTexts(
        {{"sft.json", kSft},
         {"adapter.json", R"({"peft_type": "LN_TUNING", "base_model_name_or_path": "meta-llama/Llama-3.1-8B"})"}}));
    EXPECT_EQ(run.scenario.lora.kind, core::AdapterKind::LnTuning);
    EXPECT_TRUE(run.scenario.lora.targets.empty());

    // Another PEFT method is sized as LoRA and says so.
    run = ok(importTexts(
        {{"sft.json", kSft},
         {"adapter.json", R"({"peft_type": "LOKR", "r": 8, "base_model_name_or_path": "meta-llama/Llama-3.1-8B"})"}}));
    EXPECT_EQ(run.scenario.lora.kind, core::AdapterKind::Lora);
    EXPECT_TRUE(std::any_of(run.lines.begin(), run.lines.end(), [](const ImportLine& l) {
        return l.key == "peft_type" && l.kind == ImportLine::Kind::Note;
    }));
}

TEST(TrainingConfigFramework, DoraSwitchesOfAxolotlLlamaFactoryAndTorchtune) {
    const std::string axolotl = "base_model: meta-llama/Llama-3.1-8B\nadapter: lora\nlora_r: 16\n"
                                "lora_target_linear: true\npeft_use_dora: true\n"; // loaders/adapter.py:148
    EXPECT_EQ(ok(importTexts({{"a.yaml", axolotl}})).scenario.lora.kind, core::AdapterKind::Dora);
    const std::string factory = "model_name_or_path: meta-llama/Llama-3.1-8B\nstage: sft\nfinetuning_type: lora\n"
                                "use_dora: true\ncutoff_len: 1024\n"; // hparams/finetuning_args.py:103
    EXPECT_EQ(ok(importTexts({{"f.yaml", factory}})).scenario.lora.kind, core::AdapterKind::Dora);
    const std::string tune = "model:\n  _component_: torchtune.models.llama3_2.lora_llama3_2_3b\n"
                             "  lora_attn_modules: [q_proj, v_proj]\n  use_dora: true\n"
                             "optimizer:\n  _component_: torch.optim.AdamW\n";
    EXPECT_EQ(ok(importTexts({{"t.yaml", tune}})).scenario.lora.kind, core::AdapterKind::Dora);
}

TEST(TrainingConfigFramework, LlamaFactoryFreezeTuningTrainsTheLastLayersInFp32) {
    // hparams/finetuning_args.py FreezeArguments (freeze_trainable_layers, default 2); model/adapter.py
    // _setup_freeze_tuning casts the trained layers to fp32 unless pure_bf16; the model loads in bf16.
    const std::string factory = "model_name_or_path: meta-llama/Llama-3.1-8B\nstage: sft\nfinetuning_type: freeze\n"
                                "freeze_trainable_layers: 4\nbf16: true\ncutoff_len: 1024\n";
    const auto run = ok(importTexts({{"f.yaml", factory}}));
    EXPECT_EQ(run.scenario.method, core::Method::Full);
    EXPECT_EQ(run.scenario.trainableLayers, 4);
    EXPECT_EQ(run.scenario.precision, core::Precision::Bf16);
    EXPECT_TRUE(run.scenario.trainableLayersFp32);
    const std::string byDefault = "model_name_or_path: meta-llama/Llama-3.1-8B\nstage: sft\nfinetuning_type: freeze\n"
                                  "pure_bf16: true\ncutoff_len: 1024\n";
    const auto pure = ok(importTexts({{"f.yaml", byDefault}}));
    EXPECT_EQ(pure.scenario.trainableLayers, 2);
    EXPECT_FALSE(pure.scenario.trainableLayersFp32);
}

TEST(TrainingConfigFramework, AxolotlSequenceParallelismSplitsEachSequence) {
    // schemas/config.py:1101-1107: context_parallel_size, and the deprecated sequence_parallel_degree
    // (validation.py check_context_parallel_size copies it); ring-flash-attn.
    const std::string axolotl = "base_model: meta-llama/Llama-3.1-8B\nsequence_len: 32768\n"
                                "context_parallel_size: 4\n";
    const auto run = ok(importTexts({{"a.yaml", axolotl}}, 8));
    EXPECT_EQ(run.scenario.contextParallel, 4);
    EXPECT_EQ(run.scenario.contextParallelKind, core::ContextParallel::Ring);
    const std::string older = "base_model: meta-llama/Llama-3.1-8B\nsequence_len: 32768\nsequence_parallel_degree: 2\n";
    EXPECT_EQ(ok(importTexts({{"a.yaml", older}}, 8)).scenario.contextParallel, 2);
}

TEST(TrainingConfigFramework, ArcticTrainingKeyByKey) {
    // ArcticTraining @b28638e6 (config/trainer.py, config/model.py, config/data.py): Ulysses over
    // sequence_parallel_size ranks (the launch's processes: at least the degree), TiledMLP, the checkpointed inputs
    // on the host, model.type liger without SwiGLU under TiledMLP (model/liger_factory.py:42), DeepSpeed as written.
    const auto run = imported({"arctic-training/llama70b-ulysses32.yaml"});
    core::Scenario want = on("llama-3.1-70b");
    want.framework = core::Framework::Deepspeed;
    want.method = core::Method::Full;
    want.precision = core::Precision::Bf16Fp32Master;
    want.optimizer = core::Optimizer::AdamW;
    want.microBatch = 1;
    want.seqLen = 4'000'000;
    want.gpus = 32;
    want.contextParallel = 32;
    want.contextParallelKind = core::ContextParallel::Ulysses;
    want.tiledMlp = true;
    want.activationOffload = true;
    want.checkpointing = core::Checkpointing::Full;
    want.attention = core::Attention::Flash;
    want.ligerRmsNorm = true;
    want.ligerRope = true;
    want.ligerGlu = false;
    want.loss = core::Loss::FusedLinear;
    want.sharding = core::Sharding::Zero3;
    want.shardingEngine = core::ShardingEngine::Deepspeed;
    want.offload = core::Offload::Optimizer;
    want.overrides.zeroReduceBucketElements = 5e8; // DeepSpeed's defaults, the recipe sets zero_optimization itself
    want.overrides.zeroPrefetchBucketElements = 5e7;
    expectSameScenario(run.scenario, want);
    // Without a zero_optimization section build_deepspeed_config writes ZeRO-2 with buckets from the hidden size
    // (config/trainer.py:421-430): reduce_bucket_size 4096² = 16,777,216 elements, 32 MiB of bf16 in backward, not
    // DeepSpeed's 5e8. The trainer's micro-batch wins over DeepSpeed's (trainer.py:398).
    const auto zero2 = ok(importTexts({{"a.yaml", "type: sft\nmicro_batch_size: 2\nmodel:\n  name_or_path: "
                                                  "meta-llama/Llama-3.1-8B\ndata:\n  max_length: 16384\n"
                                                  "deepspeed:\n  train_micro_batch_size_per_gpu: 8\n"}},
                                      8));
    EXPECT_EQ(zero2.scenario.sharding, core::Sharding::Zero2);
    EXPECT_EQ(zero2.scenario.microBatch, 2);
    EXPECT_EQ(zero2.scenario.overrides.zeroReduceBucketElements, std::optional<double>(0.0));
    EXPECT_EQ(core::profileFor(zero2.scenario).zeroReduceBucketElements, 0.0); // the hidden-size rule
    // ... and the saved scenario reopens with it (the fuzzer found a 0 bucket the scenario file refused).
    const auto reopened = core::parseScenario(core::scenarioToJson(zero2.scenario), "saved", catalog());
    ASSERT_TRUE(reopened.has_value()) << reopened.error().message();
    EXPECT_EQ(reopened->scenario.overrides.zeroReduceBucketElements, std::optional<double>(0.0));
    EXPECT_EQ(zero2.scenario.seqLen, 16384);
    EXPECT_EQ(zero2.scenario.contextParallel, 1);
    EXPECT_EQ(zero2.scenario.gpus, 8);
}

TEST(TrainingConfigFramework, NamesThatAreNotUtf8AreShownNotCrashedOn) {
    const auto run = ok(importTexts({{"bad\xff.yaml", "base_model: meta-llama/Llama-3.1-8B\nadapter: lora\n"}}));
    EXPECT_NO_THROW((void)core::scenarioToJson(run.scenario));
    EXPECT_NE(run.scenario.name.find("bad\xEF\xBF\xBD.yaml"), std::string::npos);
    const auto refused = importTexts({{"a.yaml", "base_model: meta-llama/Llama-3.1-8B\n"}}, std::nullopt, {"\xff=1"});
    ASSERT_FALSE(refused.has_value());
}

} // namespace
} // namespace gpusizer

namespace gpusizer {
namespace {

TEST(TrainingConfig, WhatTheFrameworksValidatorRefusesIsRefusedWithItsLineAndKey) {
    const auto importOne = [](const char* name, const std::string& text) {
        core::ImportRequest r;
        r.files.push_back({name, text, {}});
        return core::importTrainingConfigs(r, catalog());
    };
    const std::string axolotl = "base_model: meta-llama/Llama-3.1-8B\nsequence_len: 512\nmicro_batch_size: 1\n";
    // Axolotl schemas/peft.py validate_qlora: qlora needs load_in_4bit: true, and never 8 bits.
    auto e = importOne("a.yaml", axolotl + "adapter: qlora\n");
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().where, "a.yaml:4:1: adapter");
    EXPECT_NE(e.error().message().find("needs load_in_4bit: true"), std::string::npos) << e.error().message();
    // Its merge branch: merging takes an unquantized base, so qlora without load_in_4bit is accepted there.
    EXPECT_TRUE(importOne("a.yaml", axolotl + "adapter: qlora\nmerge_lora: true\n").has_value());
    e = importOne("a.yaml", axolotl + "adapter: qlora\nmerge_lora: true\nload_in_4bit: true\n");
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().where, "a.yaml:6:1: load_in_4bit");
    // bf16 as pydantic reads it in lax mode: "yes" is true, "full" is no bool and no "auto".
    EXPECT_TRUE(importOne("a.yaml", axolotl + "adapter: lora\nbf16: \"yes\"\n").has_value());
    e = importOne("a.yaml", axolotl + "adapter: qlora\nload_in_4bit: true\nload_in_8bit: true\n");
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().where, "a.yaml:6:1: load_in_8bit");
    // normalize_attn_implementation: the new key and an older switch together.
    e = importOne("a.yaml", axolotl + "flash_attention: true\nattn_implementation: sdpa\n");
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().where, "a.yaml:5:1: attn_implementation");
    e = importOne("a.yaml", axolotl + "bf16: full\n");
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().where, "a.yaml:4:1: bf16");
    EXPECT_NE(e.error().message().find("not 'full'"), std::string::npos) << e.error().message();
    // LLaMA-Factory _verify_model_args and transformers' _validate_args.
    const std::string factory =
        "model_name_or_path: meta-llama/Llama-3.1-8B\nstage: sft\ncutoff_len: 1024\nbf16: true\n";
    e = importOne("f.yaml", factory + "finetuning_type: full\nquantization_bit: 4\n");
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().where, "f.yaml:6:1: quantization_bit");
    EXPECT_NE(e.error().message().find("finetuning_type: lora"), std::string::npos) << e.error().message();
    e = importOne("f.yaml", factory + "finetuning_type: lora\nfp16: true\n");
    ASSERT_FALSE(e.has_value());
    EXPECT_EQ(e.error().where, "f.yaml:6:1: fp16");
    EXPECT_NE(e.error().message().find("_validate_args"), std::string::npos) << e.error().message();
    // Axolotl's several older switches: the first of enums.py's order wins (xformers before flash).
    auto run = importOne("a.yaml", axolotl + "adapter: lora\nflash_attention: true\nxformers_attention: true\n");
    ASSERT_TRUE(run.has_value()) << run.error().message();
    EXPECT_EQ(run->scenario.attention, core::Attention::Flash);
    EXPECT_NE(std::find_if(run->lines.begin(), run->lines.end(),
                           [](const ImportLine& l) {
                               return l.key == "xformers_attention" && l.kind == ImportLine::Kind::Note;
                           }),
              run->lines.end());
    // ... and the report says the other switch was not used.
    EXPECT_NE(std::find_if(run->lines.begin(), run->lines.end(),
                           [](const ImportLine& l) {
                               return l.key == "flash_attention" && l.kind == ImportLine::Kind::Note &&
                                      l.why.english().find("not used") != std::string::npos;
                           }),
              run->lines.end());
}

TEST(TrainingConfig, AxolotlLoraWithLoadIn4bitUnderFsdpCastsToFp32UnlessCpuRamEfficientLoading) {
    // loaders/model.py:1002-1008: prepare_model_for_kbit_training (the fp32 cast) is skipped under FSDP with
    // cpu_ram_efficient_loading. FSDP over fp32 weights with bf16 on is FSDP mixed bf16; over bf16 weights, pure bf16.
    const auto precisionOf = [](const std::string& efficient) {
        core::ImportRequest r;
        r.files.push_back({"a.yaml",
                           "base_model: meta-llama/Llama-3.1-8B\nadapter: lora\nload_in_4bit: true\n"
                           "sequence_len: 512\nmicro_batch_size: 1\nfsdp_config:\n  fsdp_version: 2\n" +
                               efficient,
                           {}});
        const auto run = core::importTrainingConfigs(r, catalog());
        EXPECT_TRUE(run.has_value()) << run.error().message();
        return run ? run->scenario.precision : core::Precision::Fp32;
    };
    EXPECT_EQ(precisionOf(""), core::Precision::FsdpMixedBf16);
    EXPECT_EQ(precisionOf("  cpu_ram_efficient_loading: true\n"), core::Precision::Bf16);
}

TEST(TrainingConfig, AxolotlLoraWithLoadIn4bitIsASixteenBitBaseCastToFp32NotQlora) {
    core::ImportRequest r;
    r.files.push_back({"a.yaml",
                       "base_model: meta-llama/Llama-3.1-8B\nadapter: lora\nload_in_4bit: true\nsequence_len: 512\n"
                       "micro_batch_size: 1\ngradient_accumulation_steps: 1\n",
                       {}});
    const auto run = core::importTrainingConfigs(r, catalog());
    ASSERT_TRUE(run.has_value()) << run.error().message();
    // loaders/model.py:712 builds the 4-bit config for qlora only; prepare_model_for_kbit_training casts the 16-bit
    // base to fp32: an fp32 base under bf16 autocast.
    EXPECT_EQ(run->scenario.method, core::Method::Lora);
    EXPECT_EQ(run->scenario.precision, core::Precision::AmpBf16);
    EXPECT_NE(std::find_if(run->lines.begin(), run->lines.end(),
                           [](const ImportLine& l) {
                               return l.key == "load_in_4bit" && l.kind == ImportLine::Kind::Note &&
                                      l.why.english().find("quantizes only with adapter: qlora") != std::string::npos;
                           }),
              run->lines.end());
}

} // namespace
} // namespace gpusizer

namespace gpusizer {
namespace {

// Preference objectives from the configs that name them (docs/import.md): LLaMA-Factory stage/pref_loss, Axolotl rl,
// TRL's DPOConfig and KTOConfig by the keys only they have.
TEST(TrainingConfig, PreferenceObjectivesAreReadFromEachFormat) {
    // stage: dpo with pref_loss: sigmoid (finetuning_args.py): DPO; LoRA, so the reference is the policy with its
    // adapters disabled.
    const auto factory = imported({"llama-factory/llama3_lora_dpo.yaml"});
    EXPECT_EQ(factory.scenario.runKind, core::RunKind::Dpo);
    EXPECT_EQ(factory.scenario.method, core::Method::Lora);
    EXPECT_FALSE(core::keepsReferenceCopy(factory.scenario));
    ASSERT_NE(lineFor(factory, "pref_loss"), nullptr);
    EXPECT_EQ(lineFor(factory, "pref_loss")->value, "sigmoid");
    // rl: dpo with no adapter: full fine-tuning and a frozen reference copy.
    const auto axolotl = imported({"axolotl/llama-3.2-1b-full-dpo.yaml"});
    EXPECT_EQ(axolotl.scenario.runKind, core::RunKind::Dpo);
    EXPECT_EQ(axolotl.scenario.method, core::Method::Full);
    EXPECT_EQ(axolotl.scenario.microBatch, 2); // pairs per GPU
    EXPECT_TRUE(core::keepsReferenceCopy(axolotl.scenario));
    // DPOConfig: loss_type ["ipo"] (a list since TRL 1.x) and precompute_ref_log_probs.
    const auto dpo = imported({"transformers/dpo_config.json", "transformers/adapter_config.json"});
    EXPECT_EQ(dpo.scenario.runKind, core::RunKind::Ipo);
    EXPECT_EQ(dpo.scenario.referenceLogProbs, core::ReferenceLogProbs::Precomputed);
    EXPECT_EQ(dpo.scenario.seqLen, 1024); // max_length: prompt + completion
    ASSERT_NE(lineFor(dpo, "loss_type"), nullptr);
    EXPECT_EQ(lineFor(dpo, "loss_type")->value, "ipo");
    // KTOConfig: its desirable/undesirable weights.
    const auto kto = imported({"transformers/kto_config.json", "transformers/adapter_config.json"});
    EXPECT_EQ(kto.scenario.runKind, core::RunKind::Kto);
    EXPECT_EQ(kto.scenario.referenceLogProbs, core::ReferenceLogProbs::Model);
}

// GRPO from TRL's GRPOConfig (its generation keys) and from Axolotl's rl: grpo with its trl: section.
TEST(TrainingConfig, GrpoGenerationIsReadFromTrlAndAxolotl) {
    const auto trl = imported({"transformers/grpo_config.json", "transformers/adapter_config.json"});
    EXPECT_EQ(trl.scenario.runKind, core::RunKind::Grpo);
    EXPECT_EQ(trl.scenario.numGenerations, 8);
    EXPECT_EQ(trl.scenario.completionLength, 1024);
    EXPECT_EQ(trl.scenario.generation, core::Generation::VllmColocate); // use_vllm with vllm_mode colocate
    EXPECT_DOUBLE_EQ(trl.scenario.vllmMemoryUtilization, 0.3);
    EXPECT_TRUE(trl.scenario.vllmSleepMode);
    EXPECT_DOUBLE_EQ(trl.scenario.klBeta, 0.0);
    EXPECT_GT(trl.scenario.seqLen, 1024); // no prompt length in the file: at least one prompt token, and a note
    ASSERT_NE(lineFor(trl, "max_prompt_length"), nullptr);
    EXPECT_EQ(lineFor(trl, "max_prompt_length")->kind, ImportLine::Kind::Note);
    const auto axolotl = imported({"axolotl/qwen2.5-7b-grpo.yaml"});
    EXPECT_EQ(axolotl.scenario.runKind, core::RunKind::Grpo);
    EXPECT_EQ(axolotl.scenario.generation, core::Generation::VllmServer);
    EXPECT_EQ(axolotl.scenario.completionLength, 512);
    EXPECT_EQ(axolotl.scenario.seqLen,
              256 + 512); // trl.max_prompt_length + trl.max_completion_length, not sequence_len
    EXPECT_DOUBLE_EQ(axolotl.scenario.klBeta, 0.001);
    EXPECT_TRUE(core::usesReferenceModel(axolotl.scenario)); // beta != 0: LoRA's adapters disabled, no copy
    EXPECT_FALSE(core::keepsReferenceCopy(axolotl.scenario));
}

// PPO from TRL's PPOConfig, told apart by its keys (ppo_config.py @f2cd5771): response_length, num_ppo_epochs; the
// query length is the data's, so seq_len is at least response + 1 and noted.
TEST(TrainingConfig, PpoIsReadFromTrlsPpoConfig) {
    const auto trl = imported({"transformers/ppo_config.json", "transformers/adapter_config.json"});
    EXPECT_EQ(trl.scenario.runKind, core::RunKind::Ppo);
    EXPECT_EQ(trl.scenario.completionLength, 256);
    EXPECT_EQ(trl.scenario.ppoEpochs, 2);
    EXPECT_GT(trl.scenario.seqLen, 256);
    ASSERT_NE(lineFor(trl, "response_length"), nullptr);
    EXPECT_TRUE(core::usesReferenceModel(trl.scenario));
}

} // namespace
} // namespace gpusizer
