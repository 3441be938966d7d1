#!/usr/bin/env python3
"""Writes the libFuzzer dictionaries (dict/<target>.dict): the keys and enumerated values of each format, taken from
the field table (tests/data/broken/fields.json), the shipped catalogs and the test fixtures."""
import glob
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def keys_of(value, out):
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(k)
            keys_of(v, out)
    elif isinstance(value, list):
        for v in value:
            keys_of(v, out)


def strings_of(value, out):
    if isinstance(value, str) and len(value) < 40:
        out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            strings_of(v, out)
    elif isinstance(value, list):
        for v in value:
            strings_of(v, out)


LITERALS = {"{", "}", "[", "]", ":", ",", "true", "false", "null", "0", "-1", "1e400", "1e308", "0.5", "65536",
            "2147483648", "9223372036854775808", "\\u0000"}


def write(name, words):
    tokens = sorted(set(words) | LITERALS)
    with open(os.path.join(HERE, "dict", name + ".dict"), "w") as f:
        f.write(f"# {name}: format keys and values (written by make_dicts.py)\n")
        for i, t in enumerate(tokens):
            quoted = t if t in LITERALS else json.dumps(t)  # keys and values as JSON strings, the rest as they are
            f.write(f"w{i}={json.dumps(quoted)}\n")


def load(path):
    with open(path) as f:
        return json.load(f)


fields = load(os.path.join(ROOT, "tests", "data", "broken", "fields.json"))["fields"]
scenario = {"format", "version", "gpusizer-scenario", "params_billion"}
for field in fields:
    scenario.update(field["key"].split("."))
    scenario.update(field.get("choices", []))
for path in glob.glob(os.path.join(ROOT, "tests", "data", "hf-configs", "*.json")):
    keys_of(load(path), scenario)
write("scenario", scenario)

gpus = {"schemaVersion", "gpus"}
keys_of(load(os.path.join(ROOT, "catalogs", "gpus.json")), gpus)
write("gpu_catalog", gpus)

models = {"schemaVersion", "models"}
keys_of(load(os.path.join(ROOT, "catalogs", "models.json")), models)
write("model_catalog", models)

config = {"model_type", "--index--"}
for path in glob.glob(os.path.join(ROOT, "tests", "data", "hf-configs", "*.json")):
    keys_of(load(path), config)
    strings_of(load(path), config)
write("hf_config", config)

measurement = {"gpusizer-measurement"}
for path in glob.glob(os.path.join(ROOT, "tests", "data", "measurements", "*.json")):
    try:
        keys_of(load(path), measurement)
        strings_of(load(path), measurement)
    except json.JSONDecodeError:
        pass
write("measurement", measurement)
# Training configs are YAML as often as JSON: their keys and values go in bare, with YAML's own punctuation.
training = {": ", "\n", "  ", "- ", "&a ", "*a", "~", "--file--", "auto", "none", "yes", "on", "1e-4", "_component_"}
import re
for path in glob.glob(os.path.join(ROOT, "tests", "data", "training-configs", "**", "*.*"), recursive=True):
    with open(path) as f:
        text = f.read()
    training.update(re.findall(r"[A-Za-z_][A-Za-z0-9_.\-/]{1,39}", text))
with open(os.path.join(HERE, "dict", "training_config.dict"), "w") as f:
    f.write("# training_config: keys and values of the training-config fixtures (written by make_dicts.py)\n")
    for i, token in enumerate(sorted(training)):
        # libFuzzer's dictionary escapes: \\, \" and \xNN only.
        escaped = "".join(c if 32 <= ord(c) < 127 and c not in '"\\' else
                          ("\\" + c if c in '"\\' else f"\\x{ord(c):02x}") for c in token)
        f.write(f'w{i}="{escaped}"\n')
print("dictionaries written")
