#pragma once
// Architectures used by several tests, copied from the models' config.json files (public facts).

#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/scenario/ModelArch.h"
#include "gpusizer/scenario/Scenario.h"

namespace gpusizer::fixtures {

/// meta-llama/Llama-2-7b-hf config.json.
inline core::ModelArch llama2_7b() {
    core::ModelArch a;
    a.name = "Llama-2-7B";
    a.hiddenSize = 4096;
    a.numLayers = 32;
    a.numHeads = 32;
    a.numKvHeads = 32;
    a.intermediateSize = 11008;
    a.vocabSize = 32000;
    return a;
}

/// meta-llama/Llama-3.2-1B config.json (tied embeddings; head_dim 64).
inline core::ModelArch llama32_1b() {
    core::ModelArch a;
    a.name = "Llama-3.2-1B";
    a.hiddenSize = 2048;
    a.numLayers = 16;
    a.numHeads = 32;
    a.numKvHeads = 8;
    a.intermediateSize = 8192;
    a.vocabSize = 128256;
    a.tiedEmbeddings = true;
    return a;
}

/// meta-llama/Llama-3.2-3B config.json (tied embeddings).
inline core::ModelArch llama32_3b() {
    core::ModelArch a;
    a.name = "Llama-3.2-3B";
    a.hiddenSize = 3072;
    a.numLayers = 28;
    a.numHeads = 24;
    a.numKvHeads = 8;
    a.intermediateSize = 8192;
    a.vocabSize = 128256;
    a.tiedEmbeddings = true;
    return a;
}

/// meta-llama/Llama-3.1-8B config.json.
inline core::ModelArch llama31_8b() {
    core::ModelArch a;
    a.name = "Llama-3.1-8B";
    a.hiddenSize = 4096;
    a.numLayers = 32;
    a.numHeads = 32;
    a.numKvHeads = 8;
    a.intermediateSize = 14336;
    a.vocabSize = 128256;
    return a;
}

/// Qwen/Qwen3-8B config.json: head_dim 128, untied embeddings; q_norm and k_norm over head_dim (modeling_qwen3.py).
inline core::ModelArch qwen3_8b() {
    core::ModelArch a;
    a.name = "Qwen3-8B";
    a.hiddenSize = 4096;
    a.numLayers = 36;
    a.numHeads = 32;
    a.numKvHeads = 8;
    a.headDim = 128;
    a.intermediateSize = 12288;
    a.vocabSize = 151936;
    a.qkNorm = core::QkNorm::PerHead;
    return a;
}

/// Llama-2-7B LoRA r8 on q and v in bf16 (bf16 adapters), every layer checkpointed, one GPU.
inline core::Scenario lora7b() {
    core::Scenario s;
    s.model = llama2_7b();
    s.method = core::Method::Lora;
    s.precision = core::Precision::Bf16;
    s.lora.rank = 8;
    s.lora.targets = {core::LinearRole::Q, core::LinearRole::V};
    s.lora.dtype = core::AdapterDtype::Bf16;
    s.checkpointing = core::Checkpointing::Full;
    return s;
}

/// The shipped catalogs, loaded once per test program.
inline const core::Catalog& catalog() {
    static const auto loaded = catalogs::loadCatalogs();
    return loaded.catalog;
}

/// Full fine-tuning in bf16, every layer checkpointed, flash attention, one sequence of `seqLen` tokens: where the
/// long-sequence tests start.
inline core::Scenario checkpointedFullRun(const core::ModelArch& arch, std::int64_t seqLen) {
    core::Scenario s;
    s.model = arch;
    s.method = core::Method::Full;
    s.precision = core::Precision::Bf16;
    s.checkpointing = core::Checkpointing::Full;
    s.attention = core::Attention::Flash;
    s.microBatch = 1;
    s.seqLen = seqLen;
    return s;
}

/// ArcticTraining's run-h100-sp32-llama-70b recipe (calibration row alst-06): Llama-3.1-70B on 4,000,000-token
/// sequences, Ulysses over 32 GPUs, TiledMLP, checkpoint offload, Liger (no SwiGLU under TiledMLP), ZeRO-3 with the
/// optimizer on the host.
inline core::Scenario arcticLlama70bUlysses32() {
    core::Scenario s = checkpointedFullRun(catalog().findModel("llama-3.1-70b")->arch, 4'000'000);
    s.modelId = "llama-3.1-70b";
    s.framework = core::Framework::Deepspeed;
    s.precision = core::Precision::Bf16Fp32Master;
    s.loss = core::Loss::FusedLinear;
    s.ligerRmsNorm = s.ligerRope = true;
    s.tiledMlp = true;
    s.activationOffload = true;
    s.gpus = 32;
    s.sharding = core::Sharding::Zero3;
    s.shardingEngine = core::ShardingEngine::Deepspeed;
    s.offload = core::Offload::Optimizer;
    s.contextParallel = 32;
    s.contextParallelKind = core::ContextParallel::Ulysses;
    return s;
}

} // namespace gpusizer::fixtures
