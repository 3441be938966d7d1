#!/usr/bin/env python3
"""Prints the rows of docs/planning.md's "Against published practice" table: for each scenario of docs/practice/
(runs.json gives its token count and the card published practice used), what `gpusizer-cli plan` recommends with the
default objective, its first test, and its plan on the practice's card.
Usage: scripts/practice-table.py [build/app/gpusizer-cli]"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CLI = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "app", "gpusizer-cli")
PRACTICE = os.path.join(ROOT, "docs", "practice")


def hours(h):
    if h < 1:
        return f"{h * 60:.0f} min"
    if h < 48:
        return f"{h:.1f} h"
    return f"{h / 24:.1f} days"


def on_card(doc, run):
    """The planner's choice on the card published practice used: count, layout, time and cost."""
    card = next(r for r in doc["results"] if r["gpu"] == run["practice_card"])
    if not card.get("fits"):
        return "does not fit"
    best = card["chosen"]
    return f"{best['gpus']} × {best['layout']}, {hours(best['wall_hours'])}, ${best['cost_on_demand_usd']:,.0f}"


with open(os.path.join(PRACTICE, "runs.json")) as f:
    runs = json.load(f)
for run in runs:
    path = os.path.join(PRACTICE, run["file"])
    out = subprocess.run([CLI, "plan", path, "--tokens", run["tokens"], "--json"], capture_output=True, text=True,
                         check=True).stdout
    doc = json.loads(out)
    chosen = doc["ranking"]["chosen"]
    gpus = {g["id"]: g for g in json.loads(subprocess.run([CLI, "gpus", "--json"], capture_output=True, text=True,
                                                          check=True).stdout)["gpus"]}
    if chosen is None:
        print(f"| {run['file'][:-5]} | {run['tokens']} | nothing fits | |")
        continue
    row = next(r for r in doc["results"] if r["gpu"] == chosen)["chosen"]
    test = doc["one_hour_test"]
    name = gpus[chosen]["name"]
    print(f"| {run['file'][:-5]} | {run['tokens']} | {row['gpus']} × {name}: {row['layout']} | "
          f"{hours(row['wall_hours'])}, ${row['cost_on_demand_usd']:,.0f} | "
          f"{test['gpus']} × {gpus[test['gpu']]['name']} ({test['scope'].replace('_', ' ')}) | {on_card(doc, run)} |")
