// torchtune's recipe config YAML (the model builder's arguments and the recipe's keys), as tables.

#include "../FormatSteps.h"

#include <algorithm>
#include <cctype>

namespace gpusizer::core::detail {

using nlohmann::json;

namespace {

#define TORCHTUNE_BUILDERS TORCHTUNE "torchtune/models/llama3_1/_model_builders.py:84-91"
#define TORCHTUNE_RECIPE TORCHTUNE "recipes/lora_finetune_single_device.py"

/// torchtune builder -> catalog id: the family's prefix ("llama3_1_" -> "llama-3.1-"), then the size with its
/// decimal ("0_5b" -> "0.5b") and the rest hyphenated ("7b_instruct" -> "7b-instruct", a variant matchCatalogModel
/// strips).
std::string torchtuneModelId(const std::string& builder) {
    static const std::pair<const char*, const char*> kWhole[] = {{"phi4_14b", "phi-4"}, {"phi3_mini", "phi-3-mini"}};
    for (const auto& [name, id] : kWhole) {
        if (builder == name) {
            return id;
        }
    }
    static const std::pair<const char*, const char*> kFamilies[] = {
        {"llama3_3_", "llama-3.3-"}, {"llama3_2_", "llama-3.2-"}, {"llama3_1_", "llama-3.1-"}, {"llama3_", "llama-3-"},
        {"llama2_", "llama-2-"},     {"qwen2_5_", "qwen2.5-"},    {"qwen3_", "qwen3-"},        {"gemma2_", "gemma-2-"},
        {"mistral_", "mistral-"},    {"phi3_", "phi-3-"},
    };
    for (const auto& [family, prefix] : kFamilies) {
        const std::string f(family);
        if (builder.rfind(f, 0) != 0) {
            continue;
        }
        std::string rest = builder.substr(f.size());
        for (std::size_t i = 1; i + 2 < rest.size(); ++i) {
            if (rest[i] == '_' && std::isdigit(static_cast<unsigned char>(rest[i - 1])) &&
                std::isdigit(static_cast<unsigned char>(rest[i + 1]))) {
                rest[i] = '.'; // 0_5b, 1_5b
            }
        }
        std::replace(rest.begin(), rest.end(), '_', '-');
        return std::string(prefix) + rest;
    }
    return builder;
}

Result<void> readBuilder(KeyReader& r, const std::string& prefix);
Result<void> readAdapter(KeyReader& r, const std::string& prefix);
Result<void> readQuantizeBase(KeyReader& r, const std::string& prefix);
Result<void> readTargets(KeyReader& r, const std::string& prefix);
Result<void> readMaxSeqLen(KeyReader& r, const std::string& prefix);
Result<void> readPacked(KeyReader& r, const std::string& prefix);
Result<void> applyOptimizer(KeyReader& r, const std::string& key, const std::string& component);
Result<void> readActivationOffloading(KeyReader& r, const std::string& prefix);
Result<void> applyDtype(KeyReader& r, const std::string& key, const std::string& dtype);
Result<void> applyLoss(KeyReader& r, const std::string& key, const std::string& component);

constexpr KeyRow kBuilder[] = {
    {.key = "model._component_",
     .field = "model",
     .kind = ValueKind::Text,
     .source = TORCHTUNE_BUILDERS,
     .step = readBuilder,
     .shownKey = "`model._component_` (`lora_llama3_1_8b`, `qlora_llama3_2_3b`, `llama2_7b`, …)",
     .shownField = "model, method (`lora_`, `qlora_` prefixes)",
     .shownDefault = "required"},
    {.key = "model.", .step = readAdapter, .shownKey = ""}, // the LoRA builders' arguments (kAdapter)
};

/// The LoRA and QLoRA builders' arguments: quantize_base, the adapted modules, rank, alpha, dropout, DoRA.
constexpr KeyRow kAdapter[] = {
    {.key = "model.quantize_base",
     .field = "method",
     .kind = ValueKind::Flag,
     .source = TORCHTUNE_BUILDERS,
     .step = readQuantizeBase,
     .shownField = "method QLoRA (torchao NF4)",
     .shownDefault = "true for `qlora_` builders"},
    {.key = "model.lora_attn_modules",
     .field = "lora.targets",
     .kind = ValueKind::List,
     .source = TORCHTUNE_BUILDERS,
     .step = readTargets,
     .shownDefault = "required"},
    {.key = "model.apply_lora_to_mlp",
     .field = "lora.targets",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = TORCHTUNE_BUILDERS,
     .shownField = "lora.targets w1, w2, w3"},
    {.key = "model.apply_lora_to_output",
     .field = "lora.targets",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = TORCHTUNE_BUILDERS,
     .shownField = "lora.targets lm_head"},
    {.key = "model.lora_rank",
     .field = "lora.rank",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "8",
     .source = TORCHTUNE_BUILDERS,
     .setInteger = setLoraRank},
    {.key = "model.lora_alpha",
     .field = "lora.alpha",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 1e6,
     .fallback = "16",
     .source = TORCHTUNE_BUILDERS,
     .setNumber = setLoraAlpha},
    {.key = "model.lora_dropout",
     .field = "lora.dropout",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 0.999,
     .fallback = "0.0",
     .source = TORCHTUNE_BUILDERS,
     .setNumber = setLoraDropout},
    {.key = "model.use_dora",
     .field = "lora.kind",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = TORCHTUNE_BUILDERS,
     .setFlag = setDoraWhenOn,
     .shownField = "lora.kind `dora` (torchtune's `DoRALinear`)"},
};

constexpr KeyRow kRecipe[] = {
    {.key = "tokenizer.max_seq_len",
     .field = "seq_len",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 10000000,
     .source = TORCHTUNE "torchtune/models/llama3/_tokenizer.py:82",
     .step = readMaxSeqLen,
     .shownDefault = "null: batches padded to their longest sample; GPU Sizer's 2,048 sized (noted)"},
    {.key = "dataset.packed",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = TORCHTUNE_RECIPE,
     .step = readPacked,
     .shownField = "(noted: every row is max_seq_len tokens long)"},
    {.key = "batch_size",
     .field = "micro_batch",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .source = TORCHTUNE_RECIPE,
     .setInteger = setMicroBatch,
     .shownDefault = "required"},
    {.key = "gradient_accumulation_steps",
     .field = "gradient_accumulation",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .fallback = "1",
     .source = TORCHTUNE_RECIPE,
     .setInteger = setGradientAccumulation},
    {.key = "optimizer._component_",
     .field = "optimizer",
     .kind = ValueKind::Text,
     .source = TORCHTUNE_RECIPE,
     .convert = applyOptimizer,
     .shownField = "optimizer (`AdamW`, `AdamW8bit`, `PagedAdamW`, `PagedAdamW8bit`, `SGD`; another sized as AdamW, "
                   "noted)",
     .shownDefault = "required"},
    {.key = "optimizer.fused",
     .field = "framework_overrides",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = "torch.optim.AdamW(fused=...): default foreach on CUDA",
     .shownField = "optimizer step fused / foreach (AdamW)"},
    {.key = "optimizer_in_bwd",
     .field = "optimizer_in_backward",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = TORCHTUNE "recipes/full_finetune_single_device.py:151",
     .setFlag = [](RunDraft& d, bool v) { d.scenario.optimizerInBackward = v && d.method == Method::Full; },
     .shownField = "optimizer_in_backward (full fine-tuning only)"},
    {.key = "enable_activation_checkpointing",
     .field = "gradient_checkpointing",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = TORCHTUNE "recipes/lora_finetune_single_device.py:180",
     .setFlag = [](RunDraft& d, bool v) { d.scenario.checkpointing = v ? Checkpointing::Full : Checkpointing::None; }},
    {.key = "enable_activation_offloading",
     .field = "activation_offload",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = TORCHTUNE "recipes/lora_finetune_single_device.py:183",
     .step = readActivationOffloading,
     .shownField = "activation_offload (refused without checkpointing, as every recipe refuses it)"},
    {.key = "compile",
     .field = "compile",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = TORCHTUNE "recipes/lora_finetune_single_device.py:255",
     .setFlag = [](RunDraft& d, bool v) { d.scenario.compile = v; }},
    {.key = "dtype",
     .field = "precision",
     .kind = ValueKind::Text,
     .fallback = "fp32",
     .source = TORCHTUNE "torchtune/training/precision.py:18-23",
     .convert = applyDtype,
     .shownKey = "`dtype` (`bf16`, `fp32`)"},
    {.key = "loss._component_",
     .field = "loss",
     .kind = ValueKind::Text,
     .source = TORCHTUNE "torchtune/modules/loss/",
     .convert = applyLoss,
     .shownField = "loss: `CEWithChunkedOutputLoss` chunked; `LinearCrossEntropyLoss` chunked with the projection per "
                   "chunk; others standard"},
    {.key = "fsdp_cpu_offload",
     .field = "offload",
     .kind = ValueKind::Flag,
     .fallback = "false",
     .source = TORCHTUNE "recipes/lora_finetune_distributed.py:145",
     .setFlag =
         [](RunDraft& d, bool v) {
             if (v) {
                 d.scenario.offload = Offload::OptimizerAndParams;
             }
         },
     .shownField = "offload `optimizer+params`"},
};

/// The builder names the model and the method; a builder of a family the catalog has names its catalog id, any other
/// is named as the file names it.
Result<void> readBuilder(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    const KeyRow& row = rowOf(kBuilder, "model._component_");
    const std::string key = prefix + row.key;
    GPUSIZER_ASSIGN(auto component, readText(r, row, prefix));
    if (!component) {
        return tl::unexpected(
            r.error(key, QT_TRANSLATE_NOOP("gpusizer", "a torchtune recipe names its model builder")));
    }
    std::string builder = component->substr(component->find_last_of('.') + 1);
    run.method = Method::Full;
    if (builder.rfind("qlora_", 0) == 0) {
        run.method = Method::Qlora;
        builder = builder.substr(6);
    } else if (builder.rfind("lora_", 0) == 0) {
        run.method = Method::Lora;
        builder = builder.substr(5);
    }
    const std::string catalogId = torchtuneModelId(builder);
    run.modelName = catalogId != builder ? catalogId : *component;
    run.modelWhere = r.doc().at(key);
    return {};
}

Result<void> readAdapter(KeyReader& r, const std::string& prefix) {
    if (*r.run().method == Method::Full) {
        return {};
    }
    return walk(r, kAdapter, prefix);
}

/// quantize_base defaults to true in the qlora_ builders and false in the lora_ ones (_model_builders.py:91, :250).
Result<void> readQuantizeBase(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    const KeyRow& row = rowOf(kAdapter, "model.quantize_base");
    GPUSIZER_ASSIGN(auto quantize, readFlagAt(r, row, prefix + row.key, *run.method == Method::Qlora));
    if (*quantize) {
        run.method = Method::Qlora;
        // torchao NF4Tensor: 4-bit blocks of 64 with their scalers quantized again (double quantization).
        run.scenario.quantization = Quantization::Nf4Dq;
    }
    return {};
}

/// lora_attn_modules, with w1, w2, w3 for apply_lora_to_mlp and the output projection for apply_lora_to_output.
Result<void> readTargets(KeyReader& r, const std::string& prefix) {
    const KeyRow& attnRow = rowOf(kAdapter, "model.lora_attn_modules");
    const std::string attnKey = prefix + attnRow.key;
    GPUSIZER_ASSIGN(auto attn, readList(r, attnRow, prefix));
    if (!attn) {
        return tl::unexpected(
            r.error(attnKey, QT_TRANSLATE_NOOP("gpusizer", "the LoRA builders need lora_attn_modules")));
    }
    std::vector<std::string> names = *attn;
    GPUSIZER_ASSIGN(auto mlp, readFlag(r, rowOf(kAdapter, "model.apply_lora_to_mlp"), prefix));
    if (*mlp) {
        names.insert(names.end(), {"w1", "w2", "w3"});
    }
    GPUSIZER_ASSIGN(auto output, readFlag(r, rowOf(kAdapter, "model.apply_lora_to_output"), prefix));
    if (*output) {
        names.emplace_back("lm_head");
    }
    return applyTargets(r, attnKey, names);
}

/// The tokenizer's max_seq_len (null: padded to each batch's longest).
Result<void> readMaxSeqLen(KeyReader& r, const std::string& prefix) {
    RunDraft& run = r.run();
    const KeyRow& row = rowOf(kRecipe, "tokenizer.max_seq_len");
    GPUSIZER_ASSIGN(auto length, readInteger(r, row, prefix));
    if (length) {
        run.scenario.seqLen = *length;
        return {};
    }
    run.lines.push_back({ImportLine::Kind::Defaulted, r.doc().position(""), prefix + row.key,
                         std::to_string(run.scenario.seqLen), row.field,
                         QT_TRANSLATE_NOOP("gpusizer", "null: torchtune pads each batch to its longest sample; GPU "
                                                       "Sizer's default length is sized (set yours)")});
    return {};
}

Result<void> readPacked(KeyReader& r, const std::string& prefix) {
    const KeyRow& row = rowOf(kRecipe, "dataset.packed");
    GPUSIZER_ASSIGN(auto packed, readFlag(r, row, prefix));
    if (*packed) {
        r.noteKey(prefix + row.key, QT_TRANSLATE_NOOP("gpusizer", "packed: every row is max_seq_len tokens long"));
    }
    return {};
}

/// The optimizer's component, and whether torch's AdamW runs fused.
Result<void> applyOptimizer(KeyReader& r, const std::string& key, const std::string& component) {
    Scenario& s = r.run().scenario;
    if (component.find("PagedAdamW8bit") != std::string::npos) {
        s.optimizer = Optimizer::PagedAdamW8bit;
    } else if (component.find("PagedAdamW") != std::string::npos) {
        s.optimizer = Optimizer::PagedAdamW;
    } else if (component.find("AdamW8bit") != std::string::npos) {
        s.optimizer = Optimizer::AdamW8bit;
    } else if (component.find("SGD") != std::string::npos) {
        s.optimizer = Optimizer::Sgd;
    } else if (component.find("AdamW") != std::string::npos || component.find("Adam") != std::string::npos) {
        s.optimizer = Optimizer::AdamW;
        const KeyRow& fusedRow = rowOf(kRecipe, "optimizer.fused");
        const std::string fusedKey = key.substr(0, key.size() - std::string_view("_component_").size()) + "fused";
        GPUSIZER_ASSIGN(auto fused, readFlagAt(r, fusedRow, fusedKey, false));
        setOptimizerStep(s, *fused ? OptimizerStepKind::Fused : OptimizerStepKind::Foreach);
    } else {
        r.noteKey(key, QT_TRANSLATE_NOOP("gpusizer", "not modelled: sized as AdamW"));
    }
    return {};
}

/// Every recipe refuses offloading without checkpointing (lora_finetune_single_device.py:186-194 and the three
/// others); the row before has set checkpointing.
Result<void> readActivationOffloading(KeyReader& r, const std::string& prefix) {
    Scenario& s = r.run().scenario;
    const KeyRow& row = rowOf(kRecipe, "enable_activation_offloading");
    GPUSIZER_ASSIGN(auto offload, readFlag(r, row, prefix));
    if (*offload && s.checkpointing != Checkpointing::Full) {
        return tl::unexpected(
            r.error(prefix + row.key, QT_TRANSLATE_NOOP("gpusizer", "torchtune refuses activation offloading without "
                                                                    "activation checkpointing "
                                                                    "(lora_finetune_single_device.py:186)")));
    }
    s.activationOffload = *offload;
    return {};
}

/// The training dtype: bf16 or fp32, never mixed.
Result<void> applyDtype(KeyReader& r, const std::string& key, const std::string& dtype) {
    if (dtype == "bf16") {
        r.run().scenario.precision = Precision::Bf16;
    } else if (dtype == "fp32") {
        r.run().scenario.precision = Precision::Fp32;
    } else {
        return tl::unexpected(r.error(key, QT_TRANSLATE_NOOP("gpusizer", "torchtune trains in bf16 or fp32")));
    }
    return {};
}

Result<void> applyLoss(KeyReader& r, const std::string& /*key*/, const std::string& component) {
    Scenario& s = r.run().scenario;
    if (component.find("CEWithChunkedOutputLoss") != std::string::npos) {
        s.loss = Loss::Chunked;
    } else if (component.find("LinearCrossEntropyLoss") != std::string::npos) {
        s.loss = Loss::Chunked; // the output projection is applied chunk by chunk inside the loss
        s.overrides.chunkedLossProjectsPerChunk = true;
    } else {
        s.loss = Loss::Standard;
    }
    return {};
}

} // namespace

Result<void> readTorchtune(KeyReader& r) {
    RunDraft& run = r.run();
    Scenario& s = run.scenario;
    setFramework(r, Framework::Torchtune, TORCHTUNE "recipes/*_finetune_*.py");
    run.precisionFixed = true;
    GPUSIZER_CHECK(walk(r, kBuilder));
    GPUSIZER_CHECK(walk(r, kRecipe));
    s.attention = Attention::Sdpa;
    // tune run --nproc_per_node N picks a distributed recipe, which shards with FSDP2 (training.shard_model).
    if (run.gpus.value_or(0) > 1 || (!run.gpus && r.has("fsdp_cpu_offload"))) {
        s.sharding = Sharding::Zero3;
    }
    return {};
}

std::span<const KeyTable> torchtuneKeyTables() {
    static constexpr KeyTable kTables[] = {
        {ConfigFormat::Torchtune, TORCHTUNE, kBuilder},
        {ConfigFormat::Torchtune, TORCHTUNE, kAdapter},
        {ConfigFormat::Torchtune, TORCHTUNE, kRecipe},
    };
    return kTables;
}

} // namespace gpusizer::core::detail
