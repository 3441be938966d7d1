#include "gpusizer/scenario/ScenarioFields.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace gpusizer::core {

namespace {

constexpr const char* kContext = "gpusizer"; // the translation context of every field's words

template <class E>
std::vector<FieldChoice> choicesOf() {
    std::vector<FieldChoice> out;
    for (E v : allValues<E>()) {
        out.push_back({toString(v), static_cast<int>(v)});
    }
    return out;
}

/// What every field has: its key, type, words and the methods it applies to.
ScenarioField described(const char* key, FieldType type, const char* label, const char* tooltip, unsigned methods) {
    ScenarioField f;
    f.key = key;
    f.type = type;
    f.label = label;
    f.tooltip = tooltip;
    f.methods = methods;
    return f;
}

/// A choice's values and accessors for an enum member of what `owner` reaches from the scenario (itself, or its
/// LoRA settings).
template <class E, class Owner, class Reach>
ScenarioField choiceOf(ScenarioField f, E Owner::*member, Reach owner) {
    f.choices = choicesOf<E>();
    f.defaultValue = static_cast<double>(static_cast<int>(Owner{}.*member));
    f.get = [member, owner](const Scenario& s) { return static_cast<double>(static_cast<int>(owner(s).*member)); };
    f.set = [member, owner](Scenario& s, double v) { owner(s).*member = static_cast<E>(static_cast<int>(v)); };
    return f;
}

ScenarioField integer(const char* key, const char* label, const char* tooltip, double min, double max,
                      std::int64_t Scenario::*member, unsigned methods = kForAll) {
    ScenarioField f = described(key, FieldType::Integer, label, tooltip, methods);
    f.min = min;
    f.max = max;
    f.defaultValue = static_cast<double>(Scenario{}.*member);
    f.get = [member](const Scenario& s) { return static_cast<double>(s.*member); };
    f.set = [member](Scenario& s, double v) { s.*member = static_cast<std::int64_t>(std::llround(v)); };
    return f;
}

ScenarioField flag(const char* key, const char* label, const char* tooltip, bool Scenario::*member,
                   unsigned methods = kForAll) {
    ScenarioField f = described(key, FieldType::Flag, label, tooltip, methods);
    f.defaultValue = (Scenario{}.*member) ? 1.0 : 0.0;
    f.get = [member](const Scenario& s) { return (s.*member) ? 1.0 : 0.0; };
    f.set = [member](Scenario& s, double v) { s.*member = v != 0.0; };
    return f;
}

template <class E>
ScenarioField choice(const char* key, const char* label, const char* tooltip, E Scenario::*member,
                     unsigned methods = kForAll) {
    return choiceOf(
        described(key, FieldType::Choice, label, tooltip, methods), member, [](auto& s) -> auto& { return s; });
}

/// A choice among the LoRA settings ("lora.*", the adapter methods only).
template <class E>
ScenarioField loraChoice(const char* key, const char* label, const char* tooltip, E LoraSettings::*member) {
    return choiceOf(
        described(key, FieldType::Choice, label, tooltip, kForAdapters), member,
        [](auto& s) -> auto& { return s.lora; });
}

ScenarioField special(const char* key, const char* label, const char* tooltip, unsigned methods = kForAll) {
    return described(key, FieldType::Special, label, tooltip, methods);
}

/// The scenario's name and the model it sizes.
std::vector<ScenarioField> modelFields() {
    std::vector<ScenarioField> t;
    t.push_back(special("name", QT_TRANSLATE_NOOP("gpusizer", "Name"),
                        QT_TRANSLATE_NOOP("gpusizer", "A label for reports and titles.")));
    t.push_back(special("notes", QT_TRANSLATE_NOOP("gpusizer", "Notes"),
                        QT_TRANSLATE_NOOP("gpusizer", "Free text kept with the scenario (an imported training "
                                                      "config's import report).")));
    t.push_back(special("model", QT_TRANSLATE_NOOP("gpusizer", "Model"),
                        QT_TRANSLATE_NOOP("gpusizer",
                                          "A catalog id, a Hugging Face config.json object, or {\"params_billion\": "
                                          "N} for a Llama-style model of that size.")));
    return t;
}

/// How the model is trained: the method, the dtypes and the optimizer.
std::vector<ScenarioField> trainingMethodFields() {
    std::vector<ScenarioField> t;
    t.push_back(
        choice("method", QT_TRANSLATE_NOOP("gpusizer", "Method"),
               QT_TRANSLATE_NOOP("gpusizer", "Full fine-tuning trains every weight; LoRA freezes the base and trains "
                                             "adapters; QLoRA stores the base in 4 bits."),
               &Scenario::method));
    ScenarioField kind =
        choice("run_kind", QT_TRANSLATE_NOOP("gpusizer", "Objective"),
               QT_TRANSLATE_NOOP("gpusizer",
                                 "What the run optimises: supervised fine-tuning, or a preference objective as "
                                 "TRL runs it. DPO, IPO, ORPO and SimPO put each example's chosen and rejected "
                                 "sequences through the model together (twice the activations and logits of a "
                                 "micro-batch); DPO, IPO and KTO also need the reference model's log-probabilities "
                                 "(a second frozen copy of the model under full fine-tuning). GRPO and PPO generate "
                                 "their sequences as they train; PPO also trains a value model in full (even under "
                                 "LoRA) and keeps a frozen reward model."),
               &Scenario::runKind);
    kind.writtenWhen = [](const Scenario& s) { return s.runKind != RunKind::Sft; };
    t.push_back(kind);
    ScenarioField reference = choice(
        "reference_log_probs", QT_TRANSLATE_NOOP("gpusizer", "Reference log-probs"),
        QT_TRANSLATE_NOOP("gpusizer", "DPO, IPO and KTO: run the reference model every step (a frozen copy under full "
                                      "fine-tuning, the model with its adapters disabled under LoRA), or compute its "
                                      "log-probabilities once before training (precompute_ref_log_probs: no copy "
                                      "while training). Ignored by the other objectives."),
        &Scenario::referenceLogProbs);
    reference.writtenWhen = [](const Scenario& s) { return referenceCanBePrecomputed(s); };
    t.push_back(reference);
    ScenarioField layers = integer(
        "trainable_layers", QT_TRANSLATE_NOOP("gpusizer", "Trainable layers"),
        QT_TRANSLATE_NOOP("gpusizer", "Train only the last n decoder layers and freeze the rest, embeddings and "
                                      "lm_head (LLaMA-Factory freeze tuning); 0 trains every weight. Without "
                                      "checkpointing the frozen layers keep nothing for backward."),
        0, 1000000, &Scenario::trainableLayers, kForFull);
    layers.writtenWhen = [](const Scenario& s) { return s.method == Method::Full && s.trainableLayers > 0; };
    t.push_back(layers);
    ScenarioField layersFp32 =
        flag("trainable_layers_fp32", QT_TRANSLATE_NOOP("gpusizer", "Trained layers in fp32"),
             QT_TRANSLATE_NOOP("gpusizer", "Freeze tuning: the trained layers are cast to fp32 (with fp32 gradients "
                                           "and optimizer states) beside the frozen ones in the precision's dtype, as "
                                           "LLaMA-Factory does unless pure_bf16."),
             &Scenario::trainableLayersFp32, kForFull);
    layersFp32.writtenWhen = [](const Scenario& s) { return s.method == Method::Full && s.trainableLayers > 0; };
    t.push_back(layersFp32);
    t.push_back(
        choice("precision", QT_TRANSLATE_NOOP("gpusizer", "Precision"),
               QT_TRANSLATE_NOOP("gpusizer", "Where weights, gradients and optimizer states live and in which dtype: "
                                             "bf16 (2+2+4 B/param with AdamW), bf16 with fp32 master (2+2+4+8), AMP "
                                             "(4+4+8), fp32."),
               &Scenario::precision));
    t.push_back(
        choice("optimizer", QT_TRANSLATE_NOOP("gpusizer", "Optimizer"),
               QT_TRANSLATE_NOOP("gpusizer", "Optimizer states per trainable parameter: AdamW 2 states, 8-bit Adam ~2 "
                                             "B, SGD-momentum/Lion 1 state, Adafactor factored."),
               &Scenario::optimizer));
    t.push_back(
        flag("optimizer_in_backward", QT_TRANSLATE_NOOP("gpusizer", "Step in backward"),
             QT_TRANSLATE_NOOP("gpusizer", "Free each gradient as soon as its parameter steps: only the largest "
                                           "gradient is alive (no gradient accumulation)."),
             &Scenario::optimizerInBackward));
    return t;
}

/// Where a vision-language model's adapters reach: written (and enabled) for such a model only.
ScenarioField visionTargetsField() {
    ScenarioField vision = loraChoice(
        "lora.vision_targets", QT_TRANSLATE_NOOP("gpusizer", "Adapters on the image side"),
        QT_TRANSLATE_NOOP("gpusizer",
                          "A vision-language model: adapters on the vision encoder's linears too, or on the encoder's "
                          "and the projector's. PEFT's all-linear reaches both (Gemma 3's projector is a bare weight "
                          "and is not reached); LLaMA-Factory's all reaches neither unless freeze_vision_tower is "
                          "false (then the encoder). The encoder then saves activations and runs backward."),
        &LoraSettings::visionTargets);
    vision.writtenWhen = [](const Scenario& s) { return s.model.vision.present(); };
    vision.enabledWhen = vision.writtenWhen;
    return vision;
}

/// LoRA's adapters and QLoRA's quantized base: the adapter methods' fields.
std::vector<ScenarioField> adapterFields() {
    std::vector<ScenarioField> t;
    t.push_back(
        loraChoice("lora.kind", QT_TRANSLATE_NOOP("gpusizer", "Adapter"),
                   QT_TRANSLATE_NOOP(
                       "gpusizer",
                       "Which adapter trains on the frozen base: LoRA; DoRA (adds a magnitude per output row and keeps "
                       "two more tensors per adapted module, slower); LoRA-FA (A frozen: no gradient or state for A); "
                       "VeRA (shared frozen random matrices, two scaling vectors per module); IA3 (one scaling vector "
                       "per module); LayerNorm tuning (trainable copies of the norms, no adapters on linears)."),
                   &LoraSettings::kind));

    ScenarioField rank;
    rank.key = "lora.rank";
    rank.type = FieldType::Integer;
    rank.label = QT_TRANSLATE_NOOP("gpusizer", "LoRA rank");
    rank.tooltip = QT_TRANSLATE_NOOP("gpusizer", "LoRA rank r: each adapted linear adds r × (in + out) trainable "
                                                 "parameters (LoRA-FA r × out; VeRA r + out, its shared rank).");
    rank.methods = kForAdapters;
    rank.min = 1;
    rank.max = 65536;
    rank.defaultValue = static_cast<double>(LoraSettings{}.rank);
    rank.get = [](const Scenario& s) { return static_cast<double>(s.lora.rank); };
    rank.set = [](Scenario& s, double v) { s.lora.rank = static_cast<std::int64_t>(std::llround(v)); };
    t.push_back(rank);

    ScenarioField alpha;
    alpha.key = "lora.alpha";
    alpha.type = FieldType::Number;
    alpha.label = QT_TRANSLATE_NOOP("gpusizer", "LoRA alpha");
    alpha.tooltip = QT_TRANSLATE_NOOP("gpusizer", "LoRA scaling numerator (alpha / r); no effect on memory.");
    alpha.methods = kForAdapters;
    alpha.min = 0;
    alpha.max = 1e6;
    alpha.defaultValue = LoraSettings{}.alpha;
    alpha.get = [](const Scenario& s) { return s.lora.alpha; };
    alpha.set = [](Scenario& s, double v) { s.lora.alpha = v; };
    t.push_back(alpha);

    ScenarioField dropout;
    dropout.key = "lora.dropout";
    dropout.type = FieldType::Number;
    dropout.label = QT_TRANSLATE_NOOP("gpusizer", "LoRA dropout");
    dropout.tooltip = QT_TRANSLATE_NOOP(
        "gpusizer", "LoRA dropout: above 0 every adapted module saves its own dropout output and mask.");
    dropout.methods = kForAdapters;
    dropout.min = 0;
    dropout.max = 1;
    dropout.maxExclusive = true;
    dropout.defaultValue = LoraSettings{}.dropout;
    dropout.get = [](const Scenario& s) { return s.lora.dropout; };
    dropout.set = [](Scenario& s, double v) { s.lora.dropout = v; };
    t.push_back(dropout);

    t.push_back(loraChoice(
        "lora.dtype", QT_TRANSLATE_NOOP("gpusizer", "Adapter dtype"),
        QT_TRANSLATE_NOOP(
            "gpusizer",
            "Adapter dtype; auto follows the framework (PEFT keeps adapters in fp32, torchtune and LitGPT in bf16)."),
        &LoraSettings::dtype));
    t.push_back(visionTargetsField());
    t.push_back(
        special("lora.targets", QT_TRANSLATE_NOOP("gpusizer", "LoRA targets"),
                QT_TRANSLATE_NOOP("gpusizer", "The projections that get an adapter in every layer (q_proj … down_proj, "
                                              "\"all-linear\", lm_head, embed_tokens)."),
                kForAdapters));
    t.push_back(special("lora.modules_to_save", QT_TRANSLATE_NOOP("gpusizer", "Modules to save"),
                        QT_TRANSLATE_NOOP("gpusizer",
                                          "PEFT modules_to_save: a trainable full copy of lm_head or the embeddings "
                                          "beside the frozen original."),
                        kForAdapters));

    t.push_back(
        choice("quantization", QT_TRANSLATE_NOOP("gpusizer", "Quantization"),
               QT_TRANSLATE_NOOP("gpusizer", "QLoRA base storage: NF4 0.56 B/weight, NF4 with double quantization 0.52 "
                                             "B/weight, LLM.int8 1 B/weight."),
               &Scenario::quantization, kForQlora));
    return t;
}

/// The batch: micro-batch, sequence length and accumulation steps.
std::vector<ScenarioField> batchFields() {
    std::vector<ScenarioField> t;
    t.push_back(integer("micro_batch", QT_TRANSLATE_NOOP("gpusizer", "Micro-batch"),
                        QT_TRANSLATE_NOOP("gpusizer", "Sequences per GPU per forward pass: activations and logits grow "
                                                      "linearly with it."),
                        1, 65536, &Scenario::microBatch));
    t.push_back(
        integer("seq_len", QT_TRANSLATE_NOOP("gpusizer", "Sequence length"),
                QT_TRANSLATE_NOOP("gpusizer", "Tokens per sequence: activations and logits grow with it — use your "
                                              "longest sequence (or packing length), not the average."),
                1, 16777216, &Scenario::seqLen));
    t.push_back(flag("padded_batches", QT_TRANSLATE_NOOP("gpusizer", "Padded batches"),
                     QT_TRANSLATE_NOOP("gpusizer", "Samples of a micro-batch are padded to the longest and the model "
                                                   "gets an attention mask (the Trainer's padding collator). With a "
                                                   "mask, SDPA in transformers copies the key/value heads out to one "
                                                   "per query head; off for fixed-length chunks fed without a mask."),
                     &Scenario::paddedBatches));
    t.push_back(
        integer("gradient_accumulation", QT_TRANSLATE_NOOP("gpusizer", "Gradient accumulation"),
                QT_TRANSLATE_NOOP("gpusizer", "Gradient accumulation steps: above 1 the gradients stay alive through "
                                              "every forward pass."),
                1, 1000000, &Scenario::gradientAccumulation));
    return t;
}

/// Activation memory: what the forward pass keeps for the backward pass, and where.
std::vector<ScenarioField> activationFields() {
    std::vector<ScenarioField> t;
    t.push_back(choice("gradient_checkpointing", QT_TRANSLATE_NOOP("gpusizer", "Checkpointing"),
                       QT_TRANSLATE_NOOP("gpusizer",
                                         "Gradient checkpointing: full keeps one tensor per layer and recomputes the "
                                         "rest (~30% more compute); selective drops only what the framework "
                                         "recomputes cheaply; auto lets the planner choose."),
                       &Scenario::checkpointing));
    ScenarioField every =
        integer("checkpoint_every", QT_TRANSLATE_NOOP("gpusizer", "Checkpoint every"),
                QT_TRANSLATE_NOOP("gpusizer", "every-nth: checkpoint every n-th block fully and keep the "
                                              "others whole (torchtitan selective_ac_option \"n\")."),
                1, 10000, &Scenario::checkpointEvery);
    every.writtenWhen = [](const Scenario& s) { return s.checkpointing == Checkpointing::EveryNth; };
    t.push_back(every);
    t.push_back(
        choice("attention", QT_TRANSLATE_NOOP("gpusizer", "Attention"),
               QT_TRANSLATE_NOOP("gpusizer", "Attention kernel: flash/SDPA store no seq² scores; eager stores them for "
                                             "every head and layer."),
               &Scenario::attention));
    t.push_back(choice("loss", QT_TRANSLATE_NOOP("gpusizer", "Loss"),
                       QT_TRANSLATE_NOOP("gpusizer",
                                         "Cross-entropy: standard holds batch × sequence × vocabulary logits in fp32 "
                                         "several times; chunked keeps about one 16-bit copy; fused kernels never "
                                         "hold them."),
                       &Scenario::loss));
    t.push_back(
        flag("activation_offload", QT_TRANSLATE_NOOP("gpusizer", "Offload activations to CPU"),
             QT_TRANSLATE_NOOP("gpusizer", "Keep only about two layers of saved activations on the GPU; the rest wait "
                                           "in pinned host memory."),
             &Scenario::activationOffload));
    t.push_back(
        flag("compile", QT_TRANSLATE_NOOP("gpusizer", "torch.compile"),
             QT_TRANSLATE_NOOP("gpusizer", "Compiling fuses norms, activations and RoPE, saving activation memory."),
             &Scenario::compile));
    t.push_back(choice(
        "float8", QT_TRANSLATE_NOOP("gpusizer", "float8 training"),
        QT_TRANSLATE_NOOP("gpusizer", "torchao float8 matmuls in the decoder linears (tensorwise or rowwise "
                                      "scaling): faster on cards with FP8 tensor cores; the linears still save their "
                                      "16-bit inputs, so activations do not shrink."),
        &Scenario::float8, kForFull));
    ScenarioField gather = flag(
        "float8_all_gather", QT_TRANSLATE_NOOP("gpusizer", "float8 all-gather"),
        QT_TRANSLATE_NOOP("gpusizer", "FSDP2 gathers the float8 linears' weights in 1 byte instead of 2 (tensorwise "
                                      "scaling only): half the gathered layer and its traffic."),
        &Scenario::float8AllGather, kForFull);
    gather.writtenWhen = [](const Scenario& s) { return s.float8 != Float8::Off; };
    t.push_back(gather);
    t.push_back(flag("liger_rms_norm", QT_TRANSLATE_NOOP("gpusizer", "Liger RMSNorm"),
                     QT_TRANSLATE_NOOP("gpusizer", "Liger's fused RMSNorm saves its 16-bit input and one fp32 value "
                                                   "per token instead of the fp32 upcast."),
                     &Scenario::ligerRmsNorm));
    t.push_back(flag("liger_glu", QT_TRANSLATE_NOOP("gpusizer", "Liger SwiGLU / GeGLU"),
                     QT_TRANSLATE_NOOP("gpusizer", "Liger's fused gated activation saves the gate and up outputs and "
                                                   "recomputes the activation: one intermediate-sized tensor less per "
                                                   "layer."),
                     &Scenario::ligerGlu));
    t.push_back(
        flag("liger_rope", QT_TRANSLATE_NOOP("gpusizer", "Liger RoPE"),
             QT_TRANSLATE_NOOP("gpusizer", "Liger's rotary embedding kernel is faster; it keeps what eager RoPE "
                                           "keeps (cos and sin), so memory does not change."),
             &Scenario::ligerRope));
    t.push_back(flag("tiled_mlp", QT_TRANSLATE_NOOP("gpusizer", "Tiled MLP"),
                     QT_TRANSLATE_NOOP("gpusizer", "DeepSpeed's TiledMLP (ArcticTraining tiled_mlp_compute): the MLP "
                                                   "runs in tiles of about hidden-size tokens and saves only its "
                                                   "input; backward recomputes one tile at a time. For long "
                                                   "sequences; one more MLP forward per step."),
                     &Scenario::tiledMlp));
    return t;
}

/// The training stack, and single behaviours of it set explicitly.
std::vector<ScenarioField> frameworkFields() {
    std::vector<ScenarioField> t;
    t.push_back(choice("framework", QT_TRANSLATE_NOOP("gpusizer", "Framework"),
                       QT_TRANSLATE_NOOP("gpusizer",
                                         "Training stack: decides behaviours such as the loss upcast, adapter dtype "
                                         "and optimizer kernel (see docs/memory-model.md)."),
                       &Scenario::framework));
    t.push_back(choice("transformers_version", QT_TRANSLATE_NOOP("gpusizer", "transformers version"),
                       QT_TRANSLATE_NOOP("gpusizer",
                                         "The transformers release the run uses: 4.46 to 4.48 make one more fp32 copy "
                                         "of the logits; 4.45 and older return fp32 logits from the model; before 4.54 "
                                         "SDPA repeats grouped key/value heads; 5.x (current) runs experts through "
                                         "grouped_mm and makes a frozen vision encoder record its graph under "
                                         "checkpointing."),
                       &Scenario::transformersVersion));
    t.push_back(choice("peft_version", QT_TRANSLATE_NOOP("gpusizer", "PEFT version"),
                       QT_TRANSLATE_NOOP("gpusizer",
                                         "The PEFT release: since 0.12 adapters on a 16-bit model are made in fp32; "
                                         "0.11 and older make them in the model's dtype (2 bytes per adapter "
                                         "parameter, gradient and state instead of 4). Current is 0.12 and later."),
                       &Scenario::peftVersion));
    t.push_back(choice("torch_version", QT_TRANSLATE_NOOP("gpusizer", "PyTorch version"),
                       QT_TRANSLATE_NOOP("gpusizer",
                                         "The PyTorch release: 1.x zero-fills gradients instead of freeing them (they "
                                         "stay through the next forward) and runs AdamW one parameter at a time. "
                                         "Current is 2.0 and later."),
                       &Scenario::torchVersion));
    t.push_back(special(
        "framework_overrides", QT_TRANSLATE_NOOP("gpusizer", "Framework overrides"),
        QT_TRANSLATE_NOOP("gpusizer", "Single framework behaviours set explicitly (docs/memory-model.md §7).")));
    return t;
}

/// The cards in the run and how model states, layers and experts are divided among them (or offloaded).
std::vector<ScenarioField> parallelFields() {
    std::vector<ScenarioField> t;
    t.push_back(
        integer("gpus", QT_TRANSLATE_NOOP("gpusizer", "GPUs"),
                QT_TRANSLATE_NOOP("gpusizer", "GPUs in the run: with ZeRO/FSDP, model states are divided among them; "
                                              "activations are not."),
                1, 1048576, &Scenario::gpus));
    t.push_back(
        choice("sharding", QT_TRANSLATE_NOOP("gpusizer", "Sharding"),
               QT_TRANSLATE_NOOP("gpusizer", "ZeRO stage: 1 shards optimizer states, 2 also gradients, 3 (FSDP full "
                                             "shard) also weights."),
               &Scenario::sharding));
    t.push_back(
        choice("sharding_engine", QT_TRANSLATE_NOOP("gpusizer", "Sharding engine"),
               QT_TRANSLATE_NOOP("gpusizer", "Who shards: DeepSpeed ZeRO, FSDP1 (flat parameters), FSDP2 (per "
                                             "parameter), Megatron's distributed optimizer or ColossalAI's Gemini "
                                             "(parameter chunks); auto follows the framework. Decides gathered "
                                             "parameters, offload and gradients of frozen weights."),
               &Scenario::shardingEngine));
    t.push_back(
        choice("adapter_wrapping", QT_TRANSLATE_NOOP("gpusizer", "Adapter wrapping"),
               QT_TRANSLATE_NOOP("gpusizer", "FSDP1 with adapters: separate (PEFT's wrap policy, applied by the "
                                             "transformers Trainer) gives gradients to the adapters only; mixed "
                                             "(LitGPT's per-block units) computes gradients for every frozen weight of "
                                             "the block too."),
               &Scenario::adapterWrapping, kForAdapters));
    t.push_back(
        integer("tensor_parallel", QT_TRANSLATE_NOOP("gpusizer", "Tensor parallel"),
                QT_TRANSLATE_NOOP("gpusizer", "Tensor parallel degree: splits every layer's weights and activations "
                                              "across GPUs; must divide the attention heads and the key/value heads."),
                1, 1024, &Scenario::tensorParallel));
    t.push_back(integer("pipeline_parallel", QT_TRANSLATE_NOOP("gpusizer", "Pipeline parallel"),
                        QT_TRANSLATE_NOOP("gpusizer", "Pipeline stages: split the layers; the first stage still holds "
                                                      "activations of every in-flight micro-batch."),
                        1, 1024, &Scenario::pipelineParallel));
    ScenarioField ep = integer("expert_parallel", QT_TRANSLATE_NOOP("gpusizer", "Expert parallel"),
                               QT_TRANSLATE_NOOP("gpusizer", "MoE: routed experts split over this many GPUs of the "
                                                             "data-parallel group; must divide the experts."),
                               1, 1024, &Scenario::expertParallel);
    ep.writtenWhen = [](const Scenario& s) { return s.expertParallel > 1; };
    t.push_back(ep);
    ScenarioField cp = integer(
        "context_parallel", QT_TRANSLATE_NOOP("gpusizer", "Context parallel"),
        QT_TRANSLATE_NOOP("gpusizer", "Split each sequence over this many GPUs: activations and logits per GPU "
                                      "divide by it, model states are sharded over them too; attention traffic is "
                                      "added to the step."),
        1, 1024, &Scenario::contextParallel);
    cp.writtenWhen = [](const Scenario& s) { return s.contextParallel > 1; };
    t.push_back(cp);
    ScenarioField cpKind =
        choice("context_parallel_kind", QT_TRANSLATE_NOOP("gpusizer", "Context parallel kind"),
               QT_TRANSLATE_NOOP("gpusizer", "ring: k/v chunks passed around the GPUs (torchtitan "
                                             "context_parallel_degree); ulysses: all-to-all to a "
                                             "split of the heads for attention (DeepSpeed Ulysses, "
                                             "ArcticTraining); the heads must divide by the degree."),
               &Scenario::contextParallelKind);
    cpKind.writtenWhen = [](const Scenario& s) { return s.contextParallel > 1; };
    t.push_back(cpKind);
    t.push_back(
        choice("offload", QT_TRANSLATE_NOOP("gpusizer", "Offload"),
               QT_TRANSLATE_NOOP("gpusizer", "ZeRO-Offload: move optimizer states (and parameters) to host RAM."),
               &Scenario::offload));
    return t;
}

/// The card in mind, a measured CUDA context and overhead correction, and measured runs of the scenario.
std::vector<ScenarioField> deviceFields() {
    std::vector<ScenarioField> t;
    t.push_back(
        special("gpu", QT_TRANSLATE_NOOP("gpusizer", "GPU in mind"),
                QT_TRANSLATE_NOOP("gpusizer", "The card you have in mind: its usable memory is drawn across the charts "
                                              "and the verdicts name it.")));
    t.push_back(
        special("cuda_context_gib", QT_TRANSLATE_NOOP("gpusizer", "CUDA context"),
                QT_TRANSLATE_NOOP("gpusizer", "A measured CUDA context size in GiB (default 0.5 GiB, lazy module "
                                              "loading).")));
    t.push_back(special("overhead_correction_gib", QT_TRANSLATE_NOOP("gpusizer", "Overhead correction"),
                        QT_TRANSLATE_NOOP("gpusizer", "A device-memory correction saved with the scenario (GiB).")));
    t.push_back(
        special("measurements", QT_TRANSLATE_NOOP("gpusizer", "Measurements"),
                QT_TRANSLATE_NOOP("gpusizer", "Measured runs of this scenario (gpusizer-measurement documents).")));
    t.push_back(special("dataset", QT_TRANSLATE_NOOP("gpusizer", "Dataset lengths"),
                        QT_TRANSLATE_NOOP("gpusizer", "Your data's length distribution (the dataset script's "
                                                      "gpusizer-lengths result): seq_len was set from it, and its "
                                                      "tokens price the run.")));
    return t;
}

/// A real number of the scenario within [min, max].
ScenarioField number(const char* key, const char* label, const char* tooltip, double min, double max,
                     double Scenario::*member) {
    ScenarioField f = described(key, FieldType::Number, label, tooltip, kForAll);
    f.min = min;
    f.max = max;
    f.defaultValue = Scenario{}.*member;
    f.get = [member](const Scenario& s) { return s.*member; };
    f.set = [member](Scenario& s, double v) { s.*member = v; };
    return f;
}

/// A vision-language model's images (docs/memory-model.md §10): written only for a model with a vision encoder.
std::vector<ScenarioField> imageFields() {
    std::vector<ScenarioField> t;
    t.push_back(integer("images_per_sample", QT_TRANSLATE_NOOP("gpusizer", "Images per example"),
                        QT_TRANSLATE_NOOP("gpusizer", "Images in each example. Their tokens are part of seq_len, as "
                                                      "the trainers' max_length and cutoff_len count them; the "
                                                      "encoder runs over their patches."),
                        0, 4096, &Scenario::imagesPerSample));
    t.push_back(integer("image_width", QT_TRANSLATE_NOOP("gpusizer", "Image width"),
                        QT_TRANSLATE_NOOP("gpusizer", "Pixels before the processor resizes: Qwen-VL keeps the aspect "
                                                      "and about the area (dynamic resolution); Gemma 3 and LLaVA "
                                                      "resize to a fixed square."),
                        1, 65536, &Scenario::imageWidth));
    t.push_back(integer("image_height", QT_TRANSLATE_NOOP("gpusizer", "Image height"),
                        QT_TRANSLATE_NOOP("gpusizer", "Pixels before the processor resizes."), 1, 65536,
                        &Scenario::imageHeight));
    t.push_back(integer("image_max_pixels", QT_TRANSLATE_NOOP("gpusizer", "Image max pixels"),
                        QT_TRANSLATE_NOOP("gpusizer", "Qwen-VL: the largest width x height an image is resized to "
                                                      "(LLaMA-Factory image_max_pixels, the processor's max_pixels); "
                                                      "0 keeps the released processor's 12,845,056."),
                        0, 1LL << 32, &Scenario::imageMaxPixels));
    t.push_back(flag("freeze_vision_tower", QT_TRANSLATE_NOOP("gpusizer", "Freeze vision tower"),
                     QT_TRANSLATE_NOOP("gpusizer", "Full fine-tuning: the vision encoder keeps its weights (no "
                                                   "gradients, optimizer states or saved activations for it). "
                                                   "LLaMA-Factory's default; TRL trains it."),
                     &Scenario::freezeVisionTower, kForFull));
    t.push_back(flag("freeze_projector", QT_TRANSLATE_NOOP("gpusizer", "Freeze projector"),
                     QT_TRANSLATE_NOOP("gpusizer", "Full fine-tuning: the projector from the encoder into the "
                                                   "language model keeps its weights (LLaMA-Factory's "
                                                   "freeze_multi_modal_projector)."),
                     &Scenario::freezeProjector, kForFull));
    for (ScenarioField& f : t) {
        f.writtenWhen = [](const Scenario& s) { return s.model.vision.present(); };
        f.enabledWhen = f.writtenWhen;
    }
    return t;
}

/// GRPO's generation (TRL's GRPOConfig @f2cd5771): written only for a GRPO scenario.
std::vector<ScenarioField> generationFields() {
    std::vector<ScenarioField> t;
    t.push_back(integer("num_generations", QT_TRANSLATE_NOOP("gpusizer", "Completions per prompt"),
                        QT_TRANSLATE_NOOP("gpusizer", "GRPO's num_generations: completions sampled per prompt (TRL "
                                                      "default 8); the global generation batch must divide by it."),
                        2, 65536, &Scenario::numGenerations));
    t.push_back(integer("completion_length", QT_TRANSLATE_NOOP("gpusizer", "Completion length"),
                        QT_TRANSLATE_NOOP("gpusizer", "GRPO's max_completion_length: the generated part of each "
                                                      "sequence (seq_len is prompt + completion); the logits and "
                                                      "log-probs cover only it."),
                        1, 16777216, &Scenario::completionLength));
    t.push_back(number("kl_beta", QT_TRANSLATE_NOOP("gpusizer", "KL coefficient"),
                       QT_TRANSLATE_NOOP("gpusizer", "GRPO's beta: above 0 a reference model is kept (a frozen copy "
                                                     "under full fine-tuning); TRL's default 0 loads none."),
                       0.0, 1e6, &Scenario::klBeta));
    t.push_back(choice("generation", QT_TRANSLATE_NOOP("gpusizer", "Generation"),
                       QT_TRANSLATE_NOOP("gpusizer", "Where GRPO generates: transformers' generate on the training "
                                                     "GPUs (its KV cache), vLLM in the trainer's process on the same "
                                                     "GPUs (colocate: its share of memory), or a vLLM server on GPUs "
                                                     "of its own."),
                       &Scenario::generation));
    t.push_back(number("vllm_gpu_memory_utilization", QT_TRANSLATE_NOOP("gpusizer", "vLLM memory share"),
                       QT_TRANSLATE_NOOP("gpusizer", "Colocate: the share of each GPU's memory vLLM takes for its "
                                                     "weights, KV cache and buffers (TRL default 0.3). The estimate "
                                                     "says the largest share that leaves the trainer room."),
                       0.01, 0.99, &Scenario::vllmMemoryUtilization));
    t.push_back(flag("vllm_sleep_mode", QT_TRANSLATE_NOOP("gpusizer", "vLLM sleep mode"),
                     QT_TRANSLATE_NOOP("gpusizer", "Colocate: vLLM releases its weights and KV cache while the trainer "
                                                   "runs forward and backward (vllm_enable_sleep_mode), so the two "
                                                   "phases peak apart."),
                     &Scenario::vllmSleepMode));
    t.push_back(
        integer("vllm_gpus", QT_TRANSLATE_NOOP("gpusizer", "vLLM server GPUs"),
                QT_TRANSLATE_NOOP("gpusizer", "Server mode: the GPUs trl vllm-serve runs on (its tensor-parallel "
                                              "size), beside the training GPUs."),
                1, 1024, &Scenario::vllmGpus));
    t.push_back(integer("ppo_epochs", QT_TRANSLATE_NOOP("gpusizer", "PPO epochs"),
                        QT_TRANSLATE_NOOP("gpusizer", "PPO's num_ppo_epochs: passes of training over each rollout "
                                                      "(TRL default 4); the step time counts each."),
                        1, 1000, &Scenario::ppoEpochs));
    for (ScenarioField& f : t) {
        const std::string key = f.key;
        if (key == "completion_length") {
            f.writtenWhen = [](const Scenario& s) { return generatesOnline(s); };
        } else if (key == "ppo_epochs") {
            f.writtenWhen = [](const Scenario& s) { return s.runKind == RunKind::Ppo; };
        } else {
            f.writtenWhen = [](const Scenario& s) { return s.runKind == RunKind::Grpo; };
        }
    }
    return t;
}

/// The whole table, group by group. Its order is the reader's, the writer's and `gpusizer-cli fields`', so keep it.
std::vector<ScenarioField> build() {
    std::vector<ScenarioField> t;
    for (auto* group : {modelFields, trainingMethodFields, adapterFields, batchFields, imageFields, generationFields,
                        activationFields, frameworkFields, parallelFields, deviceFields}) {
        std::vector<ScenarioField> fields = group();
        t.insert(t.end(), std::make_move_iterator(fields.begin()), std::make_move_iterator(fields.end()));
    }
    return t;
}

std::string grouped(double v) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.15g", v);
    std::string digits(buffer);
    if (digits.find_first_of(".e") != std::string::npos) {
        return digits;
    }
    std::string out;
    const bool negative = !digits.empty() && digits.front() == '-';
    const std::string whole = negative ? digits.substr(1) : digits;
    for (std::size_t i = 0; i < whole.size(); ++i) {
        if (i > 0 && (whole.size() - i) % 3 == 0) {
            out += ',';
        }
        out += whole[i];
    }
    return (negative ? "-" : "") + out;
}

} // namespace

bool appliesTo(unsigned methods, Method m) {
    const unsigned bit = m == Method::Full ? kForFull : (m == Method::Lora ? kForLora : kForQlora);
    return (methods & bit) != 0U;
}

std::string ScenarioField::leafKey() const {
    const std::string k = key;
    const auto dot = k.find('.');
    return dot == std::string::npos ? k : k.substr(dot + 1);
}

bool ScenarioField::inLora() const {
    return std::string(key).rfind("lora.", 0) == 0;
}

std::string ScenarioField::codeOf(int value) const {
    for (const auto& c : choices) {
        if (c.value == value) {
            return c.code;
        }
    }
    return {};
}

std::vector<ScenarioField>& mutableScenarioFields() {
    static std::vector<ScenarioField> table = build();
    (void)kContext;
    return table;
}

const std::vector<ScenarioField>& scenarioFields() {
    return mutableScenarioFields();
}

const ScenarioField* findField(std::string_view key) {
    const auto& t = scenarioFields();
    const auto it = std::find_if(t.begin(), t.end(), [&](const ScenarioField& f) { return key == f.key; });
    return it == t.end() ? nullptr : &*it;
}

std::optional<Words> rangeProblem(const ScenarioField& f, double value) {
    if (f.type != FieldType::Integer && f.type != FieldType::Number) {
        return std::nullopt;
    }
    const bool tooHigh = f.maxExclusive ? value >= f.max : value > f.max;
    if (std::isfinite(value) && value >= f.min && !tooHigh) {
        return std::nullopt;
    }
    return f.maxExclusive
               ? words(QT_TRANSLATE_NOOP("gpusizer", "must be at least %1 and below %2"), grouped(f.min),
                       grouped(f.max))
               : words(QT_TRANSLATE_NOOP("gpusizer", "must be between %1 and %2"), grouped(f.min), grouped(f.max));
}

} // namespace gpusizer::core
