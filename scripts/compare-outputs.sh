#!/usr/bin/env bash
# Runs two builds' gpusizer-cli over every input the repository has (tests/data scenarios and training configs,
# docs/images scenarios, the Hugging Face configs, the measurements) and diffs what they print: a refactoring must
# change nothing. Also compares the accuracy report where both builds have it.
# usage: scripts/compare-outputs.sh BEFORE_BUILD AFTER_BUILD   e.g. a worktree of the commit before, built, and build/
#   git worktree add /tmp/before HEAD~1 && (cd /tmp/before && cmake --preset dev && cmake --build --preset dev)
set -euo pipefail
cd "$(dirname "$0")/.."
before=${1:?usage: compare-outputs.sh BEFORE_BUILD AFTER_BUILD}
after=${2:?usage: compare-outputs.sh BEFORE_BUILD AFTER_BUILD}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

record() { # build out
    local cli=$1/app/gpusizer-cli out=$2 key
    mkdir -p "$out"
    "$cli" gpus --json > "$out/gpus.json"
    "$cli" models --json > "$out/models.json"
    "$cli" fields --json > "$out/fields.json"
    for s in tests/data/scenarios/*.json docs/images/*.json; do
        key=$(echo "$s" | tr '/' '_')
        for c in estimate plan fit sizing-table; do
            { "$cli" "$c" "$s" --json || echo "rc=$?"; } > "$out/$key.$c.json" 2>&1
            { "$cli" "$c" "$s" || echo "rc=$?"; } > "$out/$key.$c.txt" 2>&1
        done
        { "$cli" advise "$s" --gpu rtx-4090 || echo "rc=$?"; } > "$out/$key.advise.txt" 2>&1
        { "$cli" probe-script "$s" -o "$out/$key.probe.py" || echo "rc=$?"; } > /dev/null 2>&1
    done
    while IFS= read -r f; do
        key=$(echo "$f" | tr '/' '_')
        { "$cli" import-config "$f" --json || echo "rc=$?"; } > "$out/$key.import.json" 2>&1
        { "$cli" import-config "$f" || echo "rc=$?"; } > "$out/$key.import.txt" 2>&1
        { "$cli" plan "$f" || echo "rc=$?"; } > "$out/$key.plan.txt" 2>&1
    done < <(find tests/data/training-configs -type f | sort)
    for f in tests/data/hf-configs/*.json; do
        { "$cli" import-hf "$f" --json || echo "rc=$?"; } > "$out/$(echo "$f" | tr '/' '_').hf.json" 2>&1
    done
    for f in tests/data/measurements/*.json; do
        { "$cli" compare-measured tests/data/scenarios/tiny-full.json "$f" --json || echo "rc=$?"; } \
            > "$out/$(echo "$f" | tr '/' '_').compare.json" 2>&1
    done
    if [[ -x $1/tests/core/gpusizer_accuracy_report ]]; then
        # Source paths quoted in the page may move with a refactoring; the figures may not.
        "$1/tests/core/gpusizer_accuracy_report" | sed -E 's#`core/[A-Za-z/]+\.(cpp|h)`#`(source)`#g' > "$out/accuracy.md"
    fi
}
record "$before" "$work/before"
record "$after" "$work/after"
[[ -f $work/before/accuracy.md && -f $work/after/accuracy.md ]] || rm -f "$work"/*/accuracy.md
if diff -r "$work/before" "$work/after"; then
    echo "compare-outputs: $(ls "$work/after" | wc -l) outputs, identical"
else
    echo "compare-outputs: the outputs differ (above)"
    exit 1
fi
