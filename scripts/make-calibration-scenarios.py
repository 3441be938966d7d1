#!/usr/bin/env python3
"""Turns the published measurements in tests/data/calibration/measured*.json into GPU Sizer scenarios.

Each row's configuration is read as its source states it (see the row's notes); where the source is silent the
choice made here is written in the row's "interpretation". Rows the estimator cannot represent are kept with an
"excluded" reason. Output: catalogs/calibration.json (committed; rerun this after editing the rules).
Nothing here is fitted to the measured values: the measured figure is copied, never used to choose a setting.
"""
import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
# measured.json and measured-2.json: copies of the project's shared calibration files, in this order; measured-3.json:
# rows this project read from huggingface/peft's method comparison, torchtitan's benchmarks and ArcticTraining's
# long-sequence recipes (each names its source file at a commit); measured-4.json: preference, RL and vision-language
# runs and ColossalAI's Gemini benchmark, each with the scenario its source states written out and every choice the source leaves open in its
# interpretation.
ROWS = [row for name in ("measured.json", "measured-2.json", "measured-3.json", "measured-4.json")
        for row in json.loads((ROOT / "tests/data/calibration" / name).read_text())]
CATALOG_MODELS = {m["id"]: m["config"] for m in json.loads((ROOT / "catalogs/models.json").read_text())["models"]}

# A reserved or device figure at or above this share of the card's memory is capacity-bound (see below).
CAPACITY_BOUND_SHARE = 0.85
EXACT_KINDS = ("exact", "packed", "padded", "left-padded", "longest")
KNOWN_MEASURES = {"allocated": "allocated", "reserved": "reserved", "nvidia-smi": "device"}
# Multi-GPU rows whose card is named plainly enough to pick its catalog entry: H100 80 GB in 8-GPU nodes is the HGX
# (SXM, NVSwitch) board of the PEFT docs' and ArcticTraining's clusters. Other names stay without a card.
CATALOG_GPUS = {"H100 80GB": "h100-sxm", "H200 141GB": "h200"}


def hf_config(arch, model_type, **extra):
    cfg = {
        "model_type": model_type,
        "hidden_size": arch["hidden_size"],
        "num_hidden_layers": arch["num_layers"],
        "num_attention_heads": arch["num_heads"],
        "num_key_value_heads": arch["num_kv_heads"],
        "intermediate_size": arch["intermediate_size"],
        "vocab_size": arch["vocab_size"],
        "tie_word_embeddings": arch["tied_embeddings"],
    }
    cfg.update(extra)
    return cfg


# arch_family prefix in measured.json -> Hugging Face model_type
FAMILY_MODEL_TYPES = [
    ("llama", "llama"),
    ("qwen v1", "qwen"),
    ("phi", "phi"),
    ("gpt-neox", "gpt_neox"),
    ("bloom", "bloom"),
    ("bert", "bert"),
]


def model_type_of(row):
    family = (row["model_arch"] or {}).get("arch_family", "")
    for prefix, model_type in FAMILY_MODEL_TYPES:
        if family.startswith(prefix):
            return model_type
    return None


def lora_targets(row):
    names = []
    for t in row["lora"]["target_modules"]:
        if t.startswith("MLP"):
            names += ["gate_proj", "up_proj", "down_proj"]
        elif t.startswith("w3"):
            names += ["up_proj"]
        elif t.startswith("output (lm head)"):
            names.append("lm_head")
        else:
            names.append(t)
    return names


def base(row, model, **fields):
    s = {"format": "gpusizer-scenario", "version": 1, "name": row["id"], "model": model}
    s.update(fields)
    return s


# torchtune rows measured before PR #1119 (2024-06-25) brought back FrozenNF4Linear for non-adapted linears.
TORCHTUNE_BEFORE_FROZEN_NF4 = ("torchtune-qlora-tutorial", "torchtune-readme2405")


def torchtune(row):
    rid = row["id"]
    arch = row["model_arch"]
    model = hf_config(arch, "llama")
    other = row["other_settings"] or ""
    s = base(row, model, framework="torchtune", precision="bf16", optimizer="adamw", attention="sdpa",
             micro_batch=row["micro_batch"], seq_len=row["seq_len"], method=row["method"],
             gradient_checkpointing="full" if row["grad_checkpointing"] else "none",
             gpus=row["num_gpus"], sharding="zero3" if "fsdp" in (row["sharding"] or "") else "none")
    interp = ["torchtune profile: fused AdamW as in its configs, adapters in bf16"]
    if row["method"] == "qlora" and rid.startswith(TORCHTUNE_BEFORE_FROZEN_NF4):
        # Between torchtune PR #658 (2024-04-04) and PR #1119 (2024-06-25) quantize_base quantized only the
        # LoRA-adapted linears; since #1119 every decoder linear is NF4 (FrozenNF4Linear), the profile's default.
        s["framework_overrides"] = {"quantizes_only_adapted_linears": True}
        interp.append("published before torchtune PR #1119: NF4 on the LoRA-adapted linears only")
    if rid.startswith("torchtune-flags"):
        n = int(rid.split("-")[-1])
        # The README's rows are cumulative: each technique is added on top of the previous row.
        s["compile"] = n >= 3
        s["loss"] = "chunked" if n >= 4 else "standard"
        s["gradient_checkpointing"] = "full" if n >= 5 else "none"
        s["optimizer_in_backward"] = 6 <= n <= 8
        s["activation_offload"] = n >= 7
        if n == 8:
            # The README row is labelled "8-bit AdamW"; the class is not stated (the config's default would be the
            # paged variant, whose states live outside PyTorch's allocator). Read as the README names it.
            s["optimizer"] = "adamw-8bit"
    else:
        s["compile"] = "compile" in (row["method_detail"] or "") or "compile" in other
        s["loss"] = "standard"
    if rid.startswith("torchtune-readme2409"):
        # README (PR #1664): "batch size 2 (without gradient accumulation), a dataset packed to sequence length 2048,
        # and torch compile enabled"; the loss is each config's (CEWithChunkedOutputLoss, CrossEntropyLoss for 405B).
        s["compile"] = True
        s["loss"] = "chunked" if "chunked" in other.lower() or "CEWithChunkedOutputLoss" in other else "standard"
        interp.append("README note: compile on, packed 2048-token batches of 2; loss as the config names it")
        if row["cpu_offload"]:
            s["offload"] = "optimizer+params"  # fsdp_cpu_offload=True -> FSDP2 CPUOffloadPolicy
            interp.append("fsdp_cpu_offload=True: FSDP2 CPUOffloadPolicy, parameters, gradients and AdamW on the CPU")
    elif rid.startswith("torchtune-pr961"):
        s["compile"] = False
        s["loss"] = "standard"  # May 2024: the chunked loss did not exist yet (PR #1390, August 2024)
        interp.append("7B_full_low_memory of May 2024: standard loss, no compile")
    if not rid.startswith("torchtune-flags") and "PagedAdamW" in (row["optimizer"] or ""):
        s["optimizer"] = "paged-adamw-8bit" if "PagedAdamW8bit" in row["optimizer"] else "paged-adamw"
        if "optimizer_in_bwd=True" in (row["optimizer"] or ""):
            s["optimizer_in_backward"] = True
    if row["method"] in ("lora", "qlora"):
        s["lora"] = {"rank": row["lora"]["rank"], "alpha": row["lora"]["alpha"], "dropout": row["lora"]["dropout"] or 0.0,
                     "targets": lora_targets(row)}
    if row["method"] == "qlora":
        s["quantization"] = "nf4-dq"
        interp.append("torchao NF4 quantizes its block scales to 8 bits (like double quantization): nf4-dq")
    return s, interp


def litgpt(row):
    arch = row["model_arch"]
    mt = model_type_of(row)
    model = hf_config(arch, mt)
    fsdp = "fsdp" in (row["sharding"] or "")
    s = base(row, model, framework="lightning", method=row["method"], micro_batch=row["micro_batch"],
             seq_len=row["seq_len"], attention="sdpa", loss="chunked", gpus=row["num_gpus"],
             sharding="zero3" if fsdp else "none", gradient_checkpointing="full" if row["grad_checkpointing"] else "none",
             gradient_accumulation=max(1, 128 // (row["micro_batch"] * row["num_gpus"])))
    mixed = "bf16-mixed" in (row["base_dtype"] or "")
    s["precision"] = "amp-bf16" if mixed else "bf16"
    s["optimizer"] = "paged-adamw" if "Paged" in (row["optimizer"] or "") else "adamw"
    s["lora"] = {"rank": row["lora"]["rank"], "alpha": row["lora"]["alpha"], "dropout": row["lora"]["dropout"],
                 "targets": ["q_proj", "v_proj"]}
    if row["method"] == "qlora":
        s["quantization"] = "nf4-dq" if "nf4-dq" in (row["quantization"] or "") else "nf4"
    interp = ["LitGPT finetune/lora.py: bf16-true keeps weights, grads and AdamW states in bf16; logits in 128-token "
              "chunks with a bf16 cross-entropy (no fp32 upcast); global batch 128 by gradient accumulation"]
    return s, interp


def qwen(row):
    arch = row["model_arch"]
    model = hf_config(arch, "qwen")
    detail = row["method_detail"] or ""
    s = base(row, model, framework="hf-trainer", micro_batch=row["micro_batch"], seq_len=row["seq_len"],
             gradient_checkpointing="full", attention="flash", loss="standard", gradient_accumulation=8,
             gpus=row["num_gpus"], method=row["method"], optimizer="adamw")
    interp = ["Qwen (v1) remote code computes the loss on bf16 logits (no fp32 upcast)"]
    s["framework_overrides"] = {"loss_upcasts_logits": False}
    if row["method"] == "full":
        s["precision"] = "bf16-fp32-master"
        s["framework"] = "deepspeed"
        s["sharding"] = "zero3"
    elif row["method"] == "qlora":
        s["precision"] = "fp16"
        s["quantization"] = "nf4"
        s["sharding"] = "zero2"
        s["framework"] = "deepspeed"  # finetune_qlora_single_gpu.sh runs DeepSpeed ZeRO-2
        interp.append("GPTQ int4 (0.5 B + group scales) sized as NF4 (0.5 B + 1/16 B): within 2% of the weight bytes")
    else:
        s["precision"] = "bf16"
        zero = (row["sharding"] or "none").split(" ")[0]
        s["sharding"] = zero if zero in ("zero2", "zero3") else "none"
        if s["sharding"] != "none":
            s["framework"] = "deepspeed"  # the multi-GPU LoRA scripts run DeepSpeed (ZeRO-2, or ZeRO-3 for 72B)
    interp.append("single-GPU LoRA runs the plain HF Trainer; full, QLoRA and multi-GPU LoRA run DeepSpeed")
    if row["lora"]:
        s["lora"] = {"rank": row["lora"]["rank"], "alpha": row["lora"]["alpha"], "dropout": row["lora"]["dropout"],
                     "targets": ["c_attn", "c_proj", "w1", "w2"], "dtype": "fp32"}
        if row["lora"].get("modules_to_save"):
            # 'LoRA (emb)': PEFT modules_to_save=['wte', 'lm_head'] trains full copies of both
            s["lora"]["modules_to_save"] = ["embed_tokens", "lm_head"]
            interp.append("modules_to_save wte and lm_head: trainable copies beside the frozen originals")
    return s, interp


def bert(row):
    arch = row["model_arch"]
    model = hf_config(arch, "bert", hidden_dropout_prob=0.1, attention_probs_dropout_prob=0.1,
                      max_position_embeddings=512, type_vocab_size=2)
    opt = row["optimizer"] or ""
    optimizer = "adafactor" if "Adafactor" in opt else ("adamw-8bit" if "8bit" in opt else "adamw")
    s = base(row, model, framework="hf-trainer", method="full", micro_batch=row["micro_batch"], seq_len=row["seq_len"],
             precision="amp-fp16" if "fp16" in (row["base_dtype"] or "") else "fp32", optimizer=optimizer,
             attention="eager", gradient_checkpointing="full" if row["grad_checkpointing"] else "none",
             gradient_accumulation=4 if "=4" in (row["other_settings"] or "") else 1,
             cuda_context_gib=1343 / 1024)
    s["framework_overrides"] = {"optimizer_step": "per-parameter", "gradients_freed_after_step": False}
    interp = ["transformers 2022: Trainer's model.zero_grad() zero-filled gradients (PyTorch 1.x), so they persist "
              "through the next forward; adamw_hf/Adafactor/bnb step one parameter at a time",
              "CUDA context 1343 MiB as measured by the same source on the same GPU"]
    return s, interp


def bloom(row):
    arch = row["model_arch"]
    model = hf_config(arch, "bloom")
    s = base(row, model, framework="hf-trainer", method="lora", micro_batch=row["micro_batch"], seq_len=row["seq_len"],
             precision="fp32", optimizer="adamw", attention="eager", gradient_checkpointing="none",
             lora={"rank": 8, "alpha": 32, "dropout": 0.1, "targets": ["query_key_value"]})
    s["framework_overrides"] = {"optimizer_step": "per-parameter", "gradients_freed_after_step": False}
    interp = ["PyTorch 1.13-era accelerate loop: AdamW without foreach, zero_grad() keeps gradients",
              "the README prints 'GB' from MiB-based counters: taken as GiB (unit uncertain, ~7%)"]
    return s, interp


ARCH_MODEL_TYPES = {"llama": "llama", "mistral": "mistral"}


def answerai(row):
    arch = row["model_arch"]
    model = hf_config(arch, ARCH_MODEL_TYPES.get((arch.get("arch_family") or "llama").split(" ")[0], "llama"))
    sharding = row["sharding"] or ""
    s = base(row, model, framework="hf-trainer", method=row["method"], precision="bf16", optimizer="adamw",
             micro_batch=row["micro_batch"], seq_len=row["seq_len"], gradient_checkpointing="full",
             attention="sdpa", loss="standard", gpus=row["num_gpus"], sharding_engine="fsdp1",
             adapter_wrapping="separate")
    s["sharding"] = "none" if sharding.startswith("ddp") else "zero3"
    if sharding.startswith("fsdp_offload"):
        s["offload"] = "optimizer+params"
    s["lora"] = {"rank": 64, "alpha": 16, "dropout": 0.1,
                 "targets": ["q_proj", "k_proj", "v_proj", "gate_proj", "up_proj", "down_proj"], "dtype": "bf16"}
    interp = ["fsdp_qlora train.py @05ed9f2a: FSDP1 (use_orig_params=False, limit_all_gathers) with every trainable "
              "leaf in its own unit; --precision bf16 casts the whole model, adapters included, to bf16; torch AdamW "
              "(foreach); the model's own loss (fp32 upcast); 'DDP' rows are FSDP NO_SHARD"]
    if row["method"] == "qlora":
        s["quantization"] = "nf4-dq"  # bnb Linear4bit(compress_statistics=True by default)
        s.setdefault("framework_overrides", {})["kbit_upcasts_non_quantized"] = False
        interp.append("bnb Linear4bit NF4 with its default double quantization, quant_storage bf16; no "
                      "prepare_model_for_kbit_training (the rest stays bf16)")
    if s.get("offload"):
        interp.append("use_cpu_offload: FSDP1 CPUOffload(offload_params=True), AdamW on the CPU")
    return s, interp


def peft_docs(row):
    arch = row["model_arch"]
    model = hf_config(arch, "llama")
    rid = row["id"]
    s = base(row, model, framework="hf-trainer", method=row["method"], micro_batch=row["micro_batch"],
             seq_len=row["seq_len"], gradient_checkpointing="full", attention="flash", loss="standard",
             gpus=row["num_gpus"], sharding="zero3", optimizer="adamw",
             gradient_accumulation=2 if row["method"] == "qlora" else 4)
    s["lora"] = {"rank": 8, "alpha": 16, "dropout": 0.1, "targets": "all-linear"}
    interp = ["PEFT docs examples/sft (TRL SFTTrainer, Trainer's default AdamW), flash-attention 2, packed 2048"]
    if "-ds-" in rid:
        # DeepSpeed bf16: the engine casts the module to bf16 and keeps fp32 master weights in the optimizer.
        s["sharding_engine"] = "deepspeed"
        s["precision"] = "bf16-fp32-master"
        s["lora"]["dtype"] = "bf16"
        # accelerate launched from a YAML with no DeepSpeed JSON writes zero_optimization with only stage, offload
        # and stage3_gather_16bit_weights_on_model_save (accelerate v0.27.2 utils/dataclasses.py L692-705), so the
        # Trainer's "auto" bucket sizes never apply: DeepSpeed's defaults do (runtime/zero/config.py).
        s.setdefault("framework_overrides", {}).update(
            {"zero_reduce_bucket_elements": 5e8, "zero_prefetch_bucket_elements": 5e7})
        interp.append("DeepSpeed ZeRO-3 with bf16: module cast to bf16, fp32 master copies; accelerate's generated "
                      "DeepSpeed config leaves the buckets at DeepSpeed's defaults (reduce 5e8, prefetch 5e7)")
    else:
        s["sharding_engine"] = "fsdp1"
        s["adapter_wrapping"] = "separate"  # the Trainer applies PEFT's fsdp_auto_wrap_policy
        s["precision"] = "fsdp-mixed-bf16" if row["method"] == "lora" else "bf16"
        interp.append("FSDP1 via accelerate, adapters in their own units (Trainer + PEFT fsdp_auto_wrap_policy)")
        if row["method"] == "lora":
            interp.append("model loaded in fp32: fp32 shards, bf16 gathered compute (FSDP MixedPrecision)")
    if row["method"] == "qlora":
        s["quantization"] = "nf4-dq"
        s.setdefault("framework_overrides", {})["kbit_upcasts_non_quantized"] = False
        interp.append("NF4 with double quantization stored as bf16; non-quantized weights stay bf16 (FSDP and ZeRO-3 "
                      "need one dtype)")
    if row["cpu_offload"]:
        s["offload"] = "optimizer+params"
        interp.append("fsdp_offload_params: parameters, gradients and optimizer on the CPU")
    return s, interp


def torchtitan(row):
    arch = row["model_arch"]
    model = hf_config(arch, "llama")
    other = row["other_settings"] or ""
    s = base(row, model, framework="torchtitan", method="full", precision="fsdp-mixed-bf16", optimizer="adamw",
             micro_batch=row["micro_batch"], seq_len=row["seq_len"], attention="sdpa", loss="standard",
             gpus=row["num_gpus"], sharding="zero3",
             gradient_checkpointing="selective" if row["grad_checkpointing"] == "selective (op-level SAC)" else "full",
             compile="compile" in other)
    interp = ["torchtitan @9dec370: FSDP2 MixedPrecisionPolicy(param bf16, reduce fp32) over fp32 parameters, AdamW "
              "foreach (optimizer.fused off), op-level selective AC, cross_entropy on logits.float() with the logits "
              "deleted before backward"]
    if s["compile"]:
        # torchtitan @9dec370 train.py: "compiling loss function causes CUDA errors, turning off for now": --compile
        # compiled the layers only (the loss followed from d1f62be, 2025-02-20).
        s["framework_overrides"] = {"compile_covers_loss": False}
        interp.append("compile: the layers only; the loss was not compiled at 9dec370")
    if "Float8" in (row["base_dtype"] or "") + (row["other_settings"] or ""):
        # torchtitan @9dec370 config_manager.py: --float8.enable_float8_linear swaps every nn.Linear but "output"
        # for torchao Float8Linear with dynamic tensorwise scaling (rowwise came later); the float8 all-gather is a
        # separate flag, off by default, and the benchmark does not say it was on.
        s["float8"] = "tensorwise"
    if row.get("context_parallel", 1) > 1:
        # torchtitan's context parallel: PyTorch's ring attention (context_parallel_degree), states sharded over
        # the dp_shard_cp mesh.
        s["context_parallel"] = row["context_parallel"]
        s["context_parallel_kind"] = "ring"
        interp.append("float8: torchao Float8Linear, dynamic tensorwise scaling (the only recipe at 9dec370); float8 "
                      "all-gather not stated: off, torchtitan's default")
    return s, interp


def peft_method_comparison(row):
    kind = row["method_detail"] or "lora"
    fields = dict(framework="hf-trainer", method=row["method"], precision="bf16", optimizer="adamw",
                  micro_batch=row["micro_batch"], seq_len=row["seq_len"], attention="sdpa", loss="standard",
                  gradient_checkpointing="full" if row["grad_checkpointing"] else "none")
    lora = row["lora"]
    if lora:
        fields["lora"] = {"kind": kind, "rank": lora["rank"] or 8, "dropout": lora["dropout"],
                          "targets": [] if kind == "ln-tuning" else lora["target_modules"], "dtype": "fp32"}
        if lora["alpha"]:
            fields["lora"]["alpha"] = lora["alpha"]
    s = base(row, hf_config(row["model_arch"], "llama"), **fields)
    interp = ["peft method_comparison/MetaMathQA run.py: a bf16 model without AMP (use_amp false), adapters upcast "
              "to fp32 (autocast_adapter_dtype), torch AdamW (foreach), SDPA, the loss on the model's logits; the "
              "longest batch taken as max_seq_length tokens"]
    if kind == "lora-fa":
        interp.append("LoRA-FA: create_lorafa_optimizer freezes lora_A; LoraFAOptimizer keeps Adam states of lora_B "
                      "only (sized as AdamW on the trainable parameters)")
    return s, interp


ALST_MODELS = {"meta-llama/Llama-3.1-8B-Instruct": "llama-3.1-8b", "meta-llama/Llama-3.1-70B-Instruct": "llama-3.1-70b",
               "Qwen/Qwen3-32B": "qwen3-32b"}


def alst(row):
    model = dict(CATALOG_MODELS[ALST_MODELS[row["model"]]])
    sp = row["sequence_parallel"]
    s = base(row, model, framework="deepspeed", method="full", precision="bf16-fp32-master", optimizer="adamw",
             micro_batch=1, seq_len=row["seq_len"], gradient_checkpointing="full", attention="flash",
             loss="standard", gpus=row["num_gpus"], sharding="zero3", sharding_engine="deepspeed",
             offload="optimizer+params" if row["offload_params"] else "optimizer")
    interp = ["ArcticTraining SFT: a transformers model under deepspeed.initialize (the deepspeed profile: the recipe's "
              "zero_optimization leaves DeepSpeed's default buckets), ZeRO-3 with a bf16 module and fp32 master states "
              "on the host (cpu_adam), gradient_checkpointing_enable(), flash-attention; packed sequences up to "
              "max_length"]
    if sp > 1:
        s["context_parallel"] = sp
        s["context_parallel_kind"] = "ulysses"
        interp.append("sequence_parallel_size %d: DeepSpeed Ulysses over all the run's GPUs" % sp)
    if row["liger"]:
        # model.type "liger": AutoLigerKernelForCausalLM with its defaults (RoPE, RMSNorm, SwiGLU and the fused linear
        # cross-entropy), but no SwiGLU when TiledMLP patches the MLP (model/liger_factory.py:42).
        s.update(liger_rms_norm=True, liger_glu=not row["tiled_mlp"], liger_rope=True, loss="fused-linear")
        interp.append("model.type liger: Liger RoPE, RMSNorm, fused linear cross-entropy, and SwiGLU unless TiledMLP "
                      "replaces the MLP")
    if row["tiled_mlp"]:
        s["tiled_mlp"] = True
        interp.append("tiled_mlp_compute: DeepSpeed TiledMLP")
    if row["checkpoint_offload"]:
        s["activation_offload"] = True
        interp.append("activation_checkpoint_cpu_offload: the checkpointed layer inputs in host memory")
    return s, interp


AXOLOTL_MODELS = {"allenai/Olmo-3-7B-Instruct-SFT": "olmo-3-7b", "mistralai/Ministral-8B-Instruct-2410": "ministral-8b",
                  "mistralai/Magistral-Small-2507": "mistral-small-3.1-24b",
                  "ByteDance-Seed/Seed-OSS-36B-Instruct": "seed-oss-36b"}
AXOLOTL_ACCUMULATION = {"axolotl-example-01": 2}


def axolotl(row):
    model = dict(CATALOG_MODELS[AXOLOTL_MODELS[row["model"]]])
    s = base(row, model, framework="axolotl", method="qlora", precision="bf16",
             optimizer="adamw-8bit", micro_batch=row["micro_batch"], seq_len=row["seq_len"],
             gradient_checkpointing="full", attention="flash", loss="cut-cross-entropy", quantization="nf4-dq",
             gradient_accumulation=AXOLOTL_ACCUMULATION.get(row["id"], 4), gpus=1)
    s["lora"] = {"rank": 32, "alpha": 16, "dropout": 0.05, "targets": "all-linear"}
    interp = ["Axolotl examples @067b021c: QLoRA (bnb_4bit_use_double_quant defaults on in loaders/model.py), "
              "prepare_model_for_kbit_training on one GPU, CutCrossEntropyPlugin, flash-attention 2, bnb 8-bit AdamW"]
    return s, interp


def stated(row):
    """Rows that carry their scenario as the source states it (measured-4.json)."""
    return dict(row["scenario"]), list(row["interpretation"])


def exclusion(row):
    rid = row["id"]
    if row["measure_kind"] == "estimate":
        return "the published figure is an estimate, not a measurement"
    if row["id"].startswith("peft-readme") and row["model"].startswith("bigscience/") and "bloomz" not in row["model"]:
        return "encoder-decoder (T5/mT5): not modelled"
    if row["cpu_offload"] and rid.startswith("peft-readme"):
        return "DeepSpeed offload configuration not published"
    if row["method"] == "other":
        return "LLaMA-Adapter (prefix adapter) is not a method GPU Sizer models"
    if rid == "torchtune-readme2405-07":
        return "settings unknown (no config existed at that commit)"
    if rid in ("torchtune-readme2409-02", "torchtune-readme2409-04"):
        return "the settings that differ from the RTX 4090 row of the same table are not documented"
    return None


out = []
for row in ROWS:
    entry = {"id": row["id"], "model": row["model"], "method": row["method"], "measured_gib": row["measured_gib"],
             "measure_kind": row["measure_kind"], "seq_len_kind": (row["seq_len_kind"] or "").split(" ")[0],
             "source": row["source"], "source_url": row["source_url"]}
    why = exclusion(row)
    if why:
        entry["excluded"] = why
        out.append(entry)
        continue
    src = row["id"]
    if src.startswith("torchtune"):
        scenario, interp = torchtune(row)
    elif src.startswith("litgpt"):
        scenario, interp = litgpt(row)
    elif src.startswith("qwen1"):
        scenario, interp = qwen(row)
    elif src.startswith("hf-perf"):
        scenario, interp = bert(row)
    elif src.startswith("peft-readme-06"):
        scenario, interp = bloom(row)
    elif src.startswith("answerai"):
        scenario, interp = answerai(row)
    elif src.startswith("peft-docs"):
        scenario, interp = peft_docs(row)
    elif src.startswith("torchtitan"):
        scenario, interp = torchtitan(row)
    elif src.startswith("axolotl"):
        scenario, interp = axolotl(row)
    elif src.startswith("peft-mc"):
        scenario, interp = peft_method_comparison(row)
    elif src.startswith("alst"):
        scenario, interp = alst(row)
    elif src.startswith("runkind") or src.startswith("colossalai"):
        scenario, interp = stated(row)
    else:
        entry["excluded"] = "no rule for this source"
        out.append(entry)
        continue
    total = row["value_scope"].startswith("total")
    entry["compare"] = KNOWN_MEASURES.get(row["measure_kind"], "device")
    if row["measure_kind"] == "unclear" and (row.get("reliability") or "").startswith("measured_torch_allocator"):
        # torchtune's logs name the allocator's counters (active/alloc/reserved) but the table not which: the
        # allocated peak, not the device total (paged optimizer states and the CUDA context are outside them).
        entry["compare"] = "allocated"
    entry["per_gpu_divisor"] = row["num_gpus"] if total else 1
    entry["target"] = row["measure_kind"] in KNOWN_MEASURES and entry["seq_len_kind"] in EXACT_KINDS
    card = re.search(r"(\d+)\s*GB", row["gpu"] or "")
    if card and row["measure_kind"] in ("reserved", "nvidia-smi") and \
            entry["measured_gib"] / entry["per_gpu_divisor"] >= CAPACITY_BOUND_SHARE * float(card.group(1)):
        # The caching allocator frees cached blocks only when an allocation fails, so a reserved (or device) figure
        # near the card's capacity is bounded by the card, not by what the run needs: compared, not a target.
        entry["capacity_bound"] = True
        entry["target"] = False
    gpu = CATALOG_GPUS.get(row["gpu"])
    if gpu and row["num_gpus"] > 1:
        # The card sizes NCCL's buffers (its node's NVLink / NVSwitch); single-GPU rows have none.
        scenario["gpu"] = gpu
        interp = interp + [f"{row['gpu']} x {row['num_gpus']}: catalog card {gpu} (8-GPU HGX nodes, NVSwitch)"]
    entry["interpretation"] = interp
    entry["scenario"] = scenario
    out.append(entry)

doc = {"format": "gpusizer-calibration", "version": 1,
       "generated_by": "scripts/make-calibration-scenarios.py from tests/data/calibration/measured.json "
                       "(a copy of the project's shared calibration file; every row names its source)",
       "rows": out}
(ROOT / "catalogs/calibration.json").write_text(json.dumps(doc, indent=1) + "\n")
used = [r for r in out if "scenario" in r]
print(f"{len(out)} rows: {len(used)} usable, {sum(r['target'] for r in used)} in the target set, "
      f"{len(out) - len(used)} excluded")
