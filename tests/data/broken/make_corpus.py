#!/usr/bin/env python3
"""Writes the broken-input corpus: one file per case under tests/data/broken/<loader>/ and cases.json, the outcome
each must produce (exit status and words the message must contain). Run it from anywhere; it rewrites the corpus.

Expectations come from the file formats' rules (docs/formats.md, `gpusizer-cli fields --json`), not from the
program's output: a value outside a field's documented range names the field and "must be between"; a value of the
wrong JSON type names the field; a whole-file problem names the file. tests/cli/BrokenCorpusTest.cpp runs every case
in process (so the sanitizer build covers it).
"""
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.dirname(HERE)
BAD_INPUT = 2  # cli::kBadInput
OK = 0

cases = []


def write(loader, name, content):
    folder = os.path.join(HERE, loader)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name)
    mode = "wb" if isinstance(content, bytes) else "w"
    with open(path, mode) as f:
        f.write(content)
    return f"{loader}/{name}"


def case(loader, name, content, status, contains, command=None):
    rel = write(loader, name, content)
    cases.append({"file": rel, "loader": loader, "status": status, "contains": contains,
                  **({"command": command} if command else {})})


def dumps(doc):
    return json.dumps(doc, indent=1)


# ---- whole-file problems, for every loader (each names the file) ----
WHOLE_FILE = [
    ("empty.json", b"", ["not valid JSON"]),
    ("spaces.json", b"   \n\t  ", ["not valid JSON"]),
    ("truncated.json", b'{"format": "x", "version": 1, ', ["not valid JSON"]),
    ("not-json.json", b"format = scenario\n", ["not valid JSON"]),
    ("trailing-garbage.json", b'{"format": "x"} and more', ["not valid JSON"]),
    ("comment.json", b'// a comment\n{"format": "x"}', ["not valid JSON"]),
    ("nul-inside.json", b'{"format": "gpu\x00sizer"}', ["not valid JSON"]),
    ("nul-after.json", b'{"format": "x"}\x00', ["not valid JSON"]),
    ("invalid-utf8.json", b'{"name": "\xff\xfe"}', ["not valid JSON"]),
    ("huge-exponent.json", b'{"version": 1e400}', ["too large"]),
    ("huge-negative-exponent.json", b'{"version": -1e999}', ["too large"]),
    ("deep-nesting.json", b"[" * 65 + b"]" * 65, ["nested deeper than 64"]),
    ("deep-nesting-objects.json", b'{"a":' * 70 + b"1" + b"}" * 70, ["nested deeper than 64"]),
    ("unterminated-string.json", b'{"format": "gpusizer', ["not valid JSON"]),
    ("single-quotes.json", b"{'format': 'x'}", ["not valid JSON"]),
]


def whole_file_cases(loader, command):
    for name, content, words in WHOLE_FILE:
        case(loader, name, content, BAD_INPUT, [name] + words, command)


# ---- scenario ----
with open(os.path.join(DATA, "scenarios", "llama31-8b-lora.json")) as f:
    SCENARIO = json.load(f)

ESTIMATE = ["estimate", "{file}"]
whole_file_cases("scenario", ESTIMATE)
for name, doc in [("top-level-array.json", []), ("top-level-string.json", "scenario"), ("top-level-null.json", None),
                  ("top-level-number.json", 7)]:
    case("scenario", name, dumps(doc), BAD_INPUT, [name], ESTIMATE)


def scenario_case(name, change, contains):
    doc = json.loads(json.dumps(SCENARIO))
    change(doc)
    case("scenario", name, dumps(doc), BAD_INPUT, [name] + contains, ESTIMATE)


def set_key(key, value):
    def change(doc):
        if "." in key:
            outer, inner = key.split(".", 1)
            doc.setdefault(outer, {})[inner] = value
        else:
            doc[key] = value
    return change


def drop_key(key):
    return lambda doc: doc.pop(key)


# (A scenario without "format" is read as one: the key is optional for scenarios, docs/scenario-format.md.)
scenario_case("format-wrong.json", set_key("format", "gpusizer-measurement"), ["format"])
scenario_case("format-number.json", set_key("format", 1), ["format"])
scenario_case("version-newer.json", set_key("version", 2), ["version"])
scenario_case("version-text.json", set_key("version", "1"), ["version"])
scenario_case("version-zero.json", set_key("version", 0), ["version"])
scenario_case("model-missing.json", drop_key("model"), ["model"])
scenario_case("model-number.json", set_key("model", 8), ["model"])
scenario_case("model-unknown-id.json", set_key("model", "no-such-model"), ["no-such-model"])
scenario_case("model-empty-object.json", set_key("model", {}), ["model"])
scenario_case("model-params-negative.json", set_key("model", {"params_billion": -8}), ["params_billion"])
scenario_case("model-params-text.json", set_key("model", {"params_billion": "8"}), ["params_billion"])
scenario_case("model-params-too-large.json", set_key("model", {"params_billion": 31883}), ["params_billion"])
scenario_case("model-params-huge.json", set_key("model", {"params_billion": 1e300}), ["params_billion"])
scenario_case("model-shape-too-large.json",
              set_key("model", {"hidden_size": 1000000, "num_hidden_layers": 10000, "num_attention_heads": 1,
                                "intermediate_size": 10000000, "vocab_size": 10000000}),
              ["100 trillion"])
scenario_case("model-experts-per-token.json",
              set_key("model", {"hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
                                "intermediate_size": 14336, "vocab_size": 32000, "num_local_experts": 8,
                                "num_experts_per_tok": 9}),
              ["num_experts_per_tok"])
scenario_case("model-kv-heads-not-dividing.json",
              set_key("model", {"hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
                                "num_key_value_heads": 5, "intermediate_size": 14336, "vocab_size": 32000}),
              ["num_key_value_heads"])
scenario_case("model-dropout-huge.json",
              set_key("model", {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
                                "intermediate_size": 128, "vocab_size": 100, "attention_dropout": 1e308}),
              ["attention_dropout"])
scenario_case("model-learned-positions-huge.json",
              set_key("model", {"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12,
                                "vocab_size": 50257, "n_positions": 100000000}),
              ["n_positions"])
scenario_case("lora-not-object.json", set_key("lora", 16), ["lora"])
scenario_case("lora-targets-number.json", set_key("lora.targets", 5), ["targets"])
scenario_case("lora-targets-numbers.json", set_key("lora.targets", [1, 2]), ["targets"])
scenario_case("gpu-unknown.json", set_key("gpu", "no-such-gpu"), ["no-such-gpu"])
scenario_case("gpu-number.json", set_key("gpu", 4090), ["gpu"])
scenario_case("name-number.json", set_key("name", 5), ["name"])
scenario_case("name-object.json", set_key("name", {"a": 1}), ["name"])
scenario_case("tokens-too-many.json", lambda d: d.update({"seq_len": 16777216, "micro_batch": 65536}),
              ["petabyte"])

# Every field of the field table: values of the wrong type, and numbers outside the documented range.
with open(os.path.join(HERE, "fields.json")) as f:
    FIELDS = json.load(f)["fields"]
for field in FIELDS:
    key, kind = field["key"], field["type"]
    slug = key.replace(".", "-").replace("_", "-")
    if kind in ("integer", "number"):
        lo, hi = field["min"], field.get("max", field.get("below"))  # "below": an exclusive upper bound
        below = lo - 1 if kind == "integer" else lo - abs(lo) - 1.0
        scenario_case(f"{slug}-below-min.json", set_key(key, below), [key.split(".")[-1], "must be between"])
        scenario_case(f"{slug}-above-max.json", set_key(key, hi * 2 + 1), [key.split(".")[-1], "must be between"])
        scenario_case(f"{slug}-1e308.json", set_key(key, 1e308), [key.split(".")[-1], "must be between"])
        scenario_case(f"{slug}-text.json", set_key(key, "4"), [key.split(".")[-1], "must be"])
        scenario_case(f"{slug}-array.json", set_key(key, [4]), [key.split(".")[-1], "must be"])
        scenario_case(f"{slug}-bool.json", set_key(key, True), [key.split(".")[-1], "must be"])
        if kind == "integer":
            scenario_case(f"{slug}-fraction.json", set_key(key, lo + 0.5), [key.split(".")[-1], "integer"])
    elif kind == "boolean":
        scenario_case(f"{slug}-text.json", set_key(key, "yes"), [key.split(".")[-1], "true or false"])
        scenario_case(f"{slug}-number.json", set_key(key, 1), [key.split(".")[-1], "true or false"])
    elif kind == "choice":
        scenario_case(f"{slug}-unknown.json", set_key(key, "no-such-choice"), ["no-such-choice", "is not one of"])
        scenario_case(f"{slug}-number.json", set_key(key, 3), [key.split(".")[-1], "must be a string"])
        scenario_case(f"{slug}-array.json", set_key(key, ["x"]), [key.split(".")[-1], "must be a string"])

# ---- measurement result (compare-measured SCENARIO RESULT) ----
with open(os.path.join(DATA, "measurements", "tiny-full-gpu.json")) as f:
    MEASUREMENT = json.load(f)
COMPARE = ["compare-measured", "{data}/scenarios/tiny-full.json", "{file}"]
whole_file_cases("measurement", COMPARE)


def measurement_case(name, change, contains):
    doc = json.loads(json.dumps(MEASUREMENT))
    change(doc)
    case("measurement", name, dumps(doc), BAD_INPUT, [name] + contains, COMPARE)


measurement_case("format-missing.json", drop_key("format"), ["format"])
measurement_case("format-scenario.json", set_key("format", "gpusizer-scenario"), ["format"])
measurement_case("version-newer.json", set_key("version", 99), ["version"])
measurement_case("scenario-missing.json", drop_key("scenario"), ["scenario"])
measurement_case("scenario-number.json", set_key("scenario", 3), ["scenario"])
for key, value in MEASUREMENT.items():
    # "versions" (the libraries the script ran with) is informational: read by people, not by the loader.
    if key in ("format", "version", "scenario", "versions"):
        continue
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        measurement_case(f"{key}-text.json", set_key(key, "many"), [key])
        measurement_case(f"{key}-negative.json", set_key(key, -1), [key])
        measurement_case(f"{key}-1e308.json", set_key(key, 1e308), [key])
    elif isinstance(value, str):
        measurement_case(f"{key}-number.json", set_key(key, 12), [key])
    elif isinstance(value, dict):
        measurement_case(f"{key}-not-object.json", set_key(key, 12), [key])
        for inner, v in value.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                measurement_case(f"{key}-{inner}-text.json", set_key(f"{key}.{inner}", "many"), [inner])
                measurement_case(f"{key}-{inner}-negative.json", set_key(f"{key}.{inner}", -1), [inner])
                measurement_case(f"{key}-{inner}-1e308.json", set_key(f"{key}.{inner}", 1e308), [inner])

# ---- Hugging Face config.json (import-hf) ----
with open(os.path.join(DATA, "hf-configs", "llama-3.1-8b.json")) as f:
    CONFIG = json.load(f)
IMPORT = ["import-hf", "{file}"]
whole_file_cases("config", IMPORT)
for name, doc in [("top-level-array.json", []), ("top-level-string.json", "llama")]:
    case("config", name, dumps(doc), BAD_INPUT, [name], IMPORT)


def config_case(name, change, contains):
    doc = json.loads(json.dumps(CONFIG))
    change(doc)
    case("config", name, dumps(doc), BAD_INPUT, [name] + contains, IMPORT)


for key in ("hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size", "vocab_size",
            "num_key_value_heads"):
    if key != "num_key_value_heads":  # optional: absent means full multi-head attention
        config_case(f"{key}-missing.json", drop_key(key), [key])
    config_case(f"{key}-zero.json", set_key(key, 0), [key])
    config_case(f"{key}-negative.json", set_key(key, -4096), [key])
    config_case(f"{key}-fraction.json", set_key(key, 4096.5), [key, "integer"])
    config_case(f"{key}-text.json", set_key(key, "4096"), [key])
    config_case(f"{key}-huge.json", set_key(key, 1e12), [key])
config_case("kv-heads-not-dividing.json", set_key("num_key_value_heads", 5), ["num_key_value_heads"])
config_case("kv-heads-above-heads.json", set_key("num_key_value_heads", 64), ["num_key_value_heads"])
config_case("heads-not-dividing-hidden.json", set_key("num_attention_heads", 33), ["num_attention_heads"])
config_case("experts-per-token-above-experts.json",
            lambda d: d.update({"num_local_experts": 8, "num_experts_per_tok": 9}), ["num_experts_per_tok"])
config_case("experts-without-per-token.json", set_key("num_local_experts", 8), ["num_experts_per_tok"])
config_case("million-experts.json",
            lambda d: d.update({"num_local_experts": 1000000, "num_experts_per_tok": 2,
                                "moe_intermediate_size": 10000000}), ["100 trillion"])
config_case("hidden-dropout-two.json", set_key("hidden_dropout", 2), ["hidden_dropout"])
config_case("attention-dropout-text.json", set_key("attention_dropout", "0.1"), ["attention_dropout"])
config_case("attention-dropout-negative.json", set_key("attention_dropout", -5), ["attention_dropout"])
config_case("tie-embeddings-text.json", set_key("tie_word_embeddings", "no"), ["tie_word_embeddings", "true or false"])
config_case("attention-bias-number.json", set_key("attention_bias", 1), ["attention_bias", "true or false"])
config_case("model-type-number.json", set_key("model_type", 7), ["model_type", "must be a string"])
config_case("mlp-type-unknown.json", set_key("mlp_type", "swiglu-ish"), ["mlp_type"])
config_case("norm-type-unknown.json", set_key("norm_type", "batchnorm"), ["norm_type"])
config_case("head-dim-huge.json", set_key("head_dim", 9999999), ["head_dim"])
config_case("gpt2-n-positions-huge.json",
            lambda d: d.update({"model_type": "gpt2", "n_positions": 100000000}), ["n_positions"])
config_case("gpt2-n-positions-text.json", lambda d: d.update({"model_type": "gpt2", "n_positions": "1024"}),
            ["n_positions"])

# ---- model.safetensors.index.json (import-hf CONFIG --index FILE) ----
INDEX = ["import-hf", "{data}/hf-configs/llama-3.1-8b.json", "--index", "{file}"]
whole_file_cases("index", INDEX)
for name, doc, words in [
    ("no-metadata.json", {"weight_map": {}}, ["metadata.total_size"]),
    ("metadata-number.json", {"metadata": 5}, ["metadata.total_size"]),
    ("total-size-missing.json", {"metadata": {}}, ["metadata.total_size"]),
    ("total-size-half-byte.json", {"metadata": {"total_size": 0.5}}, ["metadata.total_size"]),
    ("total-size-zero.json", {"metadata": {"total_size": 0}}, ["metadata.total_size"]),
    ("total-size-negative.json", {"metadata": {"total_size": -16060522496}}, ["metadata.total_size"]),
    ("total-size-text.json", {"metadata": {"total_size": "16 GB"}}, ["metadata.total_size"]),
    ("total-size-fraction.json", {"metadata": {"total_size": 16060522496.5}}, ["metadata.total_size"]),
    ("total-size-petabytes.json", {"metadata": {"total_size": 1e16}}, ["metadata.total_size"]),
    ("top-level-array.json", [], ["metadata.total_size"]),
]:
    case("index", name, dumps(doc), BAD_INPUT, [name] + words, INDEX)

# ---- user GPU and model catalogs (read at start-up from GPUSIZER_CATALOG_DIR): a broken file is skipped, a bad
# entry left out, each with a warning naming the file; the command still runs (exit 0). ----
with open(os.path.join(DATA, "..", "..", "catalogs", "gpus.json")) as f:
    GPU = json.load(f)["gpus"][0]
with open(os.path.join(DATA, "..", "..", "catalogs", "models.json")) as f:
    MODEL = json.load(f)["models"][0]


def catalog_file_cases(loader, command):
    for name, content, words in WHOLE_FILE:
        case(loader, name, content, OK, [name] + words, command)


GPUS = ["gpus"]
MODELS = ["models"]
catalog_file_cases("gpu-catalog", GPUS)
catalog_file_cases("model-catalog", MODELS)


def gpu_case(name, change, contains):
    entry = json.loads(json.dumps(GPU))
    entry["id"] = "broken-gpu"
    change(entry)
    case("gpu-catalog", name, dumps({"schemaVersion": 1, "gpus": [entry]}), OK, [name] + contains, GPUS)


for key, value in GPU.items():
    if key in ("id", "sources", "notes"):
        continue
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        gpu_case(f"{key}-text.json", set_key(key, "lots"), [key])
        gpu_case(f"{key}-negative.json", set_key(key, -1), [key])
        gpu_case(f"{key}-1e308.json", set_key(key, 1e308), [key])
    elif isinstance(value, str):
        gpu_case(f"{key}-number.json", set_key(key, 7), [key])
    elif isinstance(value, dict):
        gpu_case(f"{key}-not-object.json", set_key(key, 7), [key])
gpu_case("id-number.json", set_key("id", 7), ["id"])
# What a card runs, how fast, and how it is billed (docs/catalogs.md): unknown features, an MFU above 1, a billing
# unit that no provider uses, a flag that is not a flag.
gpu_case("software-unknown-feature.json",
         set_key("software", {"stack": "CUDA", "lacks": {"warp-drive": "no such thing"}}), ["warp-drive"])
gpu_case("software-reason-empty.json",
         set_key("software", {"stack": "CUDA", "lacks": {"flash-attention-2": ""}}), ["flash-attention-2"])
gpu_case("training_throughput-mfu-2.json",
         set_key("training_throughput", {"mfu": 2, "stack": "CUDA", "citation": "x", "source": "x"}), ["mfu"])
gpu_case("training_throughput-no-source.json",
         set_key("training_throughput", {"mfu": 0.4, "stack": "CUDA", "citation": "x"}), ["source"])
gpu_case("multi_node-text.json", set_key("multi_node", "yes"), ["multi_node"])
gpu_case("sms-fraction.json", set_key("sms", 131.5), ["sms"])
gpu_case("sms-zero.json", set_key("sms", 0), ["sms"])
gpu_case("compute_capability-amd.json", set_key("vendor", "AMD"), ["compute_capability"])


def with_billing(billing):
    def change(entry):
        entry["price"]["billing"] = billing
    return change


gpu_case("price-billing-per-week.json", with_billing({"per": "week"}), ["per", "week"])
gpu_case("price-billing-negative-minimum.json", with_billing({"per": "minute", "minimum_minutes": -1}),
         ["minimum_minutes"])
case("gpu-catalog", "list-not-array.json", dumps({"schemaVersion": 1, "gpus": {"a": 1}}), OK,
     ["list-not-array.json", "gpus"], GPUS)
case("gpu-catalog", "schema-newer.json", dumps({"schemaVersion": 99, "gpus": []}), OK,
     ["schema-newer.json", "schemaVersion"], GPUS)


def model_case(name, change, contains):
    entry = json.loads(json.dumps(MODEL))
    entry["id"] = "broken-model"
    change(entry)
    case("model-catalog", name, dumps({"schemaVersion": 1, "models": [entry]}), OK, [name] + contains, MODELS)


model_case("config-missing.json", drop_key("config"), ["config"])
model_case("config-number.json", set_key("config", 3), ["config"])
model_case("published-params-text.json", set_key("published_params_billion", "7"), ["published_params_billion"])
model_case("published-params-negative.json", set_key("published_params_billion", -7), ["published_params_billion"])
model_case("name-number.json", set_key("name", 7), ["name"])
model_case("family-missing.json", drop_key("family"), ["family"])
model_case("hidden-size-zero.json", lambda e: e["config"].update({"hidden_size": 0}), ["hidden_size"])
model_case("hidden-size-text.json", lambda e: e["config"].update({"hidden_size": "4096"}), ["hidden_size"])
model_case("experts-per-token.json",
           lambda e: e["config"].update({"num_local_experts": 4, "num_experts_per_tok": 8}), ["num_experts_per_tok"])
model_case("shape-too-large.json",
           lambda e: e["config"].update({"hidden_size": 1000000, "num_hidden_layers": 10000,
                                         "intermediate_size": 10000000, "num_attention_heads": 1,
                                         "num_key_value_heads": 1}), ["100 trillion"])

# ---- training configs (import-config FILE) ----
IMPORT_CONFIG = ["import-config", "{file}"]


def yaml_text(doc, indent=0):
    """A small block-style YAML writer for the fixtures below (scalars as JSON, which YAML reads the same)."""
    out = ""
    for key, value in doc.items():
        pad = " " * indent
        if isinstance(value, dict):
            out += f"{pad}{key}:\n" + yaml_text(value, indent + 2)
        else:
            out += f"{pad}{key}: {json.dumps(value)}\n"
    return out


TRAINING = {
    "axolotl": {"base_model": "meta-llama/Llama-3.1-8B", "adapter": "lora", "lora_r": 16, "lora_alpha": 32,
                "lora_dropout": 0.05, "sequence_len": 2048, "micro_batch_size": 2, "gradient_accumulation_steps": 4,
                "gradient_checkpointing": True},
    "llama-factory": {"model_name_or_path": "meta-llama/Llama-3.1-8B", "stage": "sft", "finetuning_type": "lora",
                      "lora_rank": 8, "cutoff_len": 2048, "per_device_train_batch_size": 2,
                      "gradient_accumulation_steps": 8, "bf16": True},
    "torchtune": {"model": {"_component_": "torchtune.models.llama3_1.lora_llama3_1_8b",
                            "lora_attn_modules": ["q_proj", "v_proj"], "lora_rank": 8, "lora_alpha": 16},
                  "tokenizer": {"max_seq_len": 2048}, "batch_size": 2, "gradient_accumulation_steps": 8,
                  "dtype": "bf16", "enable_activation_checkpointing": True},
    "litgpt": {"checkpoint_dir": "checkpoints/meta-llama/Llama-2-7b-hf", "precision": "bf16-true", "devices": 1,
               "lora_r": 8, "lora_alpha": 16, "train": {"micro_batch_size": 1, "global_batch_size": 16,
                                                        "max_seq_length": 512}},
    "accelerate": {"distributed_type": "FSDP", "num_processes": 8, "mixed_precision": "bf16",
                   "fsdp_config": {"fsdp_sharding_strategy": "FULL_SHARD", "fsdp_offload_params": False}},
}


def training_case(fmt, name, change, contains, status=BAD_INPUT, extra=None):
    doc = json.loads(json.dumps(TRAINING[fmt]))
    change(doc)
    command = IMPORT_CONFIG + (extra or [])
    case("training-config", f"{fmt}-{name}", yaml_text(doc), status, [f"{fmt}-{name}"] + contains, command)


def set_path(path, value):
    def change(doc):
        node = doc
        parts = path.split(".")
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        node[parts[-1]] = value
    return change


# Whole-file problems of a YAML file (each names the file).
for name, content, words in [
    ("empty.yaml", b"", ["not a training config"]),
    ("only-comment.yaml", b"# nothing here\n", ["not a training config"]),
    ("list.yaml", b"- a\n- b\n", ["not a mapping"]),
    ("scalar.yaml", b"just text\n", ["not a mapping"]),
    ("tab-indent.yaml", b"model:\n\t_component_: x\n", ["not valid YAML"]),
    ("unclosed-flow.yaml", b"lora_target_modules: [q_proj, v_proj\n", ["not valid YAML"]),
    ("two-colons.yaml", b"base_model: a: b\n", ["not valid YAML"]),
    ("bad-alias.yaml", b"a: *nowhere\n", ["not valid YAML"]),
    ("nul.yaml", b"base_model: x\x00\n", ["NUL byte"]),
    ("deep-flow.yaml", b"a: " + b"[" * 100 + b"]" * 100 + b"\n", ["nests too deep"]),
    ("very-deep-flow.yaml", b"a: " + b"[" * 3000 + b"]" * 3000 + b"\n", ["YAML"]),
    ("alias-bomb.yaml", ("base_model: x\n" + "a0: &a0 [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]\n" for i in range(1, 9))).encode(),
     ["too many values"]),
    ("unknown-format.yaml", b"colour: blue\nsize: 3\n", ["not a training config of a known format"]),
    ("json-broken.json", b'{"per_device_train_batch_size": 8,', ["not valid JSON"]),
    ("json-deep.json", b'{"a":' * 70 + b"1" + b"}" * 70, ["nested deeper than 64"]),
]:
    case("training-config", name, content, BAD_INPUT, [name] + words, IMPORT_CONFIG)

# Keys of the wrong type or out of their range: the key named, with its line.
for fmt, key, value, words in [
    ("axolotl", "micro_batch_size", "two", ["micro_batch_size", "whole number"]),
    ("axolotl", "micro_batch_size", 0, ["micro_batch_size", "between 1 and"]),
    ("axolotl", "sequence_len", -5, ["sequence_len", "between 1 and"]),
    ("axolotl", "sequence_len", 1e300, ["sequence_len", "whole number"]),
    ("axolotl", "lora_r", "sixteen", ["lora_r", "whole number"]),
    ("axolotl", "lora_alpha", "lots", ["lora_alpha", "number"]),
    ("axolotl", "lora_dropout", 1.5, ["lora_dropout", "between 0 and"]),
    ("axolotl", "gradient_checkpointing", 3, ["gradient_checkpointing", "true or false"]),
    ("axolotl", "adapter", "ia3", ["adapter", "ia3"]),
    ("axolotl", "optimizer", {"name": "adamw"}, ["optimizer", "must be text"]),
    ("axolotl", "lora_target_modules", [1, 2], ["lora_target_modules", "list of names"]),
    ("axolotl", "lora_target_modules", ["q_proj", "frobnicator"], ["lora_target_modules", "frobnicator"]),
    ("axolotl", "attn_implementation", "telepathy", ["attn_implementation", "telepathy"]),
    ("axolotl", "base_model", "acme/NoSuchModel-3B", ["base_model", "not in the catalog", "--model-config"]),
    ("axolotl", "deepspeed", "missing-ds.json", ["deepspeed", "missing-ds.json"]),
    ("llama-factory", "finetuning_type", "oft", ["finetuning_type", "oft"]),
    ("llama-factory", "lora_rank", 0, ["lora_rank", "between 1 and"]),
    ("llama-factory", "cutoff_len", "long", ["cutoff_len", "whole number"]),
    ("llama-factory", "quantization_bit", 16, ["quantization_bit", "between 2 and 8"]),
    ("llama-factory", "flash_attn", "maybe", ["flash_attn", "maybe"]),
    ("llama-factory", "per_device_train_batch_size", 1000000, ["per_device_train_batch_size", "between 1 and"]),
    ("torchtune", "dtype", "fp16", ["dtype", "bf16 or fp32"]),
    ("torchtune", "batch_size", "2x", ["batch_size", "whole number"]),
    ("torchtune", "model.lora_rank", -1, ["model.lora_rank", "between 1 and"]),
    ("torchtune", "model.lora_attn_modules", "q_proj,sideways", ["model.lora_attn_modules", "sideways"]),
    ("torchtune", "tokenizer.max_seq_len", 0, ["tokenizer.max_seq_len", "between 1 and"]),
    ("torchtune", "enable_activation_checkpointing", "sometimes", ["enable_activation_checkpointing", "true or false"]),
    ("litgpt", "precision", "bf17-true", ["precision", "bf17-true"]),
    ("litgpt", "quantize", "bnb.nf5", ["quantize", "bnb.nf5"]),
    ("litgpt", "devices", 0, ["devices", "between 1 and"]),
    ("litgpt", "train.micro_batch_size", "one", ["train.micro_batch_size", "whole number"]),
    ("litgpt", "lora_query", "yes please", ["lora_query", "true or false"]),
    ("accelerate", "distributed_type", "TPU", ["distributed_type", "TPU"]),
    ("accelerate", "num_processes", 0, ["num_processes", "between 1 and"]),
    ("accelerate", "fsdp_config.fsdp_sharding_strategy", "HALF_SHARD", ["fsdp_sharding_strategy", "HALF_SHARD"]),
    ("accelerate", "fsdp_config.fsdp_offload_params", "no thanks", ["fsdp_offload_params", "true or false"]),
]:
    safe = key.replace(".", "-") + "-" + str(sum(1 for c in cases if c["file"].startswith(f"training-config/{fmt}-")))
    training_case(fmt, f"{safe}.yaml", set_path(key, value), words)

# What the framework's own validator refuses, refused on import with the key and the framework's rule.
for fmt, name, changes, words in [
    ("axolotl", "qlora-without-4bit.yaml", {"adapter": "qlora"}, ["adapter", "load_in_4bit: true", "validate_qlora"]),
    ("axolotl", "qlora-in-8bit.yaml", {"adapter": "qlora", "load_in_4bit": True, "load_in_8bit": True},
     ["load_in_8bit", "validate_qlora"]),
    ("axolotl", "attention-twice.yaml", {"flash_attention": True, "attn_implementation": "sdpa"},
     ["attn_implementation", "flash_attention", "keep one"]),
    ("axolotl", "bf16-full.yaml", {"bf16": "full"}, ["bf16", "'full'", "config.py:559"]),
    ("axolotl", "offload-without-checkpointing.yaml", {"gradient_checkpointing": False, "activation_offloading": True},
     ["activation_offloading", "gradient_checkpointing"]),
    ("llama-factory", "quantized-full.yaml", {"finetuning_type": "full", "quantization_bit": 4},
     ["quantization_bit", "finetuning_type: lora"]),
    ("llama-factory", "bnb-3-bit.yaml", {"quantization_bit": 3}, ["quantization_bit", "4 or 8 bits"]),
    ("llama-factory", "bf16-and-fp16.yaml", {"fp16": True}, ["fp16", "bf16 and fp16", "_validate_args"]),
    ("litgpt", "quantize-32.yaml", {"quantize": "bnb.nf4", "precision": "32"}, ["precision", "32-true"]),
    ("litgpt", "quantize-two-devices.yaml", {"quantize": "bnb.nf4", "devices": 2}, ["quantize", "more than one device"]),
    ("torchtune", "offload-without-checkpointing.yaml",
     {"enable_activation_checkpointing": False, "enable_activation_offloading": True},
     ["enable_activation_offloading", "activation checkpointing"]),
]:
    training_case(fmt, name, lambda d, c=changes: d.update(c), words)

# A torchtune run whose model builder is not one GPU Sizer knows: asked for its config.json.
training_case("torchtune", "unknown-builder.yaml", set_path("model._component_", "torchtune.models.acme.lora_acme_3b"),
              ["model._component_", "lora_acme_3b"])
# An override that is not key=value.
training_case("torchtune", "bad-override.yaml", lambda d: None, ["nothere", "no such key"],
              extra=["~nothere"])

# DeepSpeed and PEFT JSON files.
DS = {"zero_optimization": {"stage": 3}, "bf16": {"enabled": True}, "train_micro_batch_size_per_gpu": 2}
for name, change, words in [
    ("stage-4.json", lambda d: d["zero_optimization"].update({"stage": 4}), ["zero_optimization.stage", "between 0 and 3"]),
    ("stage-text.json", lambda d: d["zero_optimization"].update({"stage": "three"}), ["zero_optimization.stage"]),
    ("micro-batch-zero.json", lambda d: d.update({"train_micro_batch_size_per_gpu": 0}),
     ["train_micro_batch_size_per_gpu", "between 1 and"]),
    ("bf16-and-fp16.json", lambda d: d.update({"fp16": {"enabled": True}}), ["fp16.enabled", "runtime/config.py"]),
    ("bf16-master-stage-0.json",
     lambda d: (d["zero_optimization"].update({"stage": 0}),
                d["bf16"].update({"bf16_master_weights_and_grads": True, "bf16_optimizer_states": True})),
     ["bf16.bf16_master_weights_and_grads", "ZeRO stage 1, 2 or 3", "runtime/config.py:1041"]),
    ("bf16-states-without-master.json", lambda d: d["bf16"].update({"bf16_optimizer_states": True}),
     ["bf16.bf16_optimizer_states", "runtime/config.py:1047"]),
    ("bf16-master-without-states.json", lambda d: d["bf16"].update({"bf16_master_weights_and_grads": True}),
     ["bf16.bf16_master_weights_and_grads", "DeepSpeedCPUAdam", "stage3.py:295"]),
]:
    doc = json.loads(json.dumps(DS))
    change(doc)
    case("training-config", f"deepspeed-{name}", dumps(doc), BAD_INPUT, [f"deepspeed-{name}"] + words, IMPORT_CONFIG)
PEFT = {"peft_type": "LORA", "r": 8, "lora_alpha": 16, "target_modules": ["q_proj", "v_proj"],
        "base_model_name_or_path": "meta-llama/Llama-3.1-8B"}
for name, change, words in [
    ("r-zero.json", lambda d: d.update({"r": 0}), ["r", "between 1 and"]),
    ("alpha-text.json", lambda d: d.update({"lora_alpha": "x"}), ["lora_alpha", "number"]),
    ("targets-number.json", lambda d: d.update({"target_modules": 7}), ["target_modules", "list of names"]),
    ("no-model.json", lambda d: d.pop("base_model_name_or_path"), ["no model", "--model-config"]),
    ("regex-with-layers.json", lambda d: d.update({"target_modules": ".*proj", "layers_to_transform": [0, 1]}),
     ["layers_to_transform", "regex target_modules"]),
    ("pattern-alone.json", lambda d: d.update({"layers_pattern": "layers"}), ["layers_pattern", "layers_to_transform"]),
]:
    doc = json.loads(json.dumps(PEFT))
    change(doc)
    case("training-config", f"peft-{name}", dumps(doc), BAD_INPUT, [f"peft-{name}"] + words, IMPORT_CONFIG)

with open(os.path.join(HERE, "cases.json"), "w") as f:
    json.dump({"about": "Written by make_corpus.py; run by tests/cli/BrokenCorpusTest.cpp.", "cases": cases}, f,
              indent=1)
print(len(cases), "cases")
