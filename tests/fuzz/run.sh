#!/usr/bin/env bash
# Runs the libFuzzer targets (built by: cmake --preset fuzz && cmake --build --preset fuzz).
# Usage: tests/fuzz/run.sh [seconds-per-target] [target...]   (default: 60 s, every target)
# Each target starts from its seeds (the test fixtures of its format, good and broken) and its dictionary, keeps the
# corpus it grows in build-fuzz/corpus/<target>, and writes any crashing input to build-fuzz/findings/<target>/.
# Exit status 1 when any target found a crash, a leak, a timeout or a broken invariant.
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(scenario gpu_catalog model_catalog hf_config measurement training_config)
build=build-fuzz
data=tests/data

seeds() { # target -> the fixture files of its format, and the inputs of past findings
    ls tests/fuzz/regressions/"$1"-* 2>/dev/null
    case $1 in
        scenario) ls $data/scenarios/*.json $data/broken/scenario/*.json ;;
        gpu_catalog) ls catalogs/gpus.json $data/broken-catalogs/*.json $data/broken/gpu-catalog/*.json ;;
        model_catalog) ls catalogs/models.json $data/broken/model-catalog/*.json ;;
        hf_config) ls $data/hf-configs/*.json $data/broken/config/*.json $data/broken/index/*.json ;;
        measurement) ls $data/measurements/*.json $data/broken/measurement/*.json ;;
        training_config) find $data/training-configs -type f; ls $data/broken/training-config/* ;;
    esac
}

status=0
for target in "${targets[@]}"; do
    binary=$build/tests/fuzz/gpusizer_fuzz_$target
    [[ -x $binary ]] || { echo "fuzz: $binary is not built (cmake --build --preset fuzz)" >&2; exit 2; }
    corpus=$build/corpus/$target
    seed=$build/seeds/$target
    findings=$build/findings/$target
    mkdir -p "$corpus" "$seed" "$findings"
    seeds "$target" | xargs -I{} cp {} "$seed/"
    log=$build/fuzz-$target.log
    echo "== fuzz $target for ${seconds}s ($(ls "$seed" | wc -l) seeds)"
    # -timeout: one input may take at most 10 s (a hang is a finding); -rss_limit_mb: 2 GiB (unbounded growth is).
    "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -dict="tests/fuzz/dict/$target.dict" \
        -artifact_prefix="$findings/" -print_final_stats=1 "$corpus" "$seed" > "$log" 2>&1
    rc=$?
    grep -E "^#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units|stat::peak_rss_mb|cov:" "$log" | tail -n 3
    if [[ $rc -ne 0 ]] || ls "$findings" | grep -q .; then
        echo "fuzz: $target FOUND A PROBLEM (exit $rc); the input is in $findings/, the log in $log" >&2
        tail -n 40 "$log" >&2
        status=1
    fi
done
exit $status
