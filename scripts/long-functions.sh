#!/usr/bin/env bash
# Functions over 80 lines in core/, present/, ui/ and app/, by clang-tidy's readability-function-size (its count:
# the lines from the signature to the closing brace, blank lines and comments included).
# usage: scripts/long-functions.sh BUILD_DIR [--check LIST]   (BUILD_DIR: a configured build, for compile_commands.json)
#   prints "FILE FUNCTION LINES" for each, sorted;
#   with --check, fails when the tree has one that LIST does not name, or LIST names one that is now short enough
#   (the list only shrinks: remove the line once the function is cut).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: long-functions.sh BUILD_DIR [--check LIST]}
if [[ ! -f "$build/compile_commands.json" ]]; then
    echo "long-functions: no $build/compile_commands.json (configure the build first)" >&2
    exit 2
fi
command -v clang-tidy > /dev/null || { echo "long-functions: clang-tidy is not installed" >&2; exit 2; }
config() { echo "{Checks: '-*,readability-function-size', CheckOptions: [{key: readability-function-size.LineThreshold, value: $1}]}"; }
# A check that finds nothing must have looked: at a 5-line threshold one of core's files has long functions.
hits=$(clang-tidy -p "$build" --quiet --config="$(config 5)" --extra-arg=-Wno-everything core/plan/src/Planner.cpp \
    2>/dev/null | grep -c "exceeds recommended size" || true)
if [[ "$hits" -eq 0 ]]; then
    echo "long-functions: clang-tidy analyzed nothing (is $build configured for this tree?)" >&2
    exit 2
fi
found=$(git ls-files 'core/*.cpp' 'present/*.cpp' 'ui/*.cpp' 'app/*.cpp' |
    { xargs -P "$(nproc)" -n 4 clang-tidy -p "$build" --quiet --config="$(config 80)" --extra-arg=-Wno-everything 2>/dev/null || true; } |
    awk -v root="$PWD/" '
        /warning: function .* exceeds recommended size/ { split($1, at, ":"); file = at[1]; sub(root, "", file);
            match($0, /function \x27[^\x27]+\x27/); name = substr($0, RSTART + 10, RLENGTH - 11) }
        /note: [0-9]+ lines including/ { match($0, /[0-9]+ lines/); print file, name, substr($0, RSTART, RLENGTH - 6) }' |
    sort -u)
if [[ "${2:-}" != "--check" ]]; then
    printf '%s\n' "$found"
    exit 0
fi
list=${3:?--check needs the list file}
known=$({ grep -v '^#' "$list" || true; } | awk 'NF { print $1, $2 }' | sort -u)
now=$(printf '%s\n' "$found" | awk 'NF { print $1, $2 }' | sort -u)
new=$(comm -13 <(printf '%s\n' "$known") <(printf '%s\n' "$now"))
cut=$(comm -23 <(printf '%s\n' "$known") <(printf '%s\n' "$now"))
echo "long-functions: $(printf '%s\n' "$now" | grep -c . || true) function(s) over 80 lines, $(printf '%s\n' "$known" | grep -c . || true) listed in $list"
status=0
if [[ -n "$new" ]]; then
    echo "Over 80 lines and not listed (cut them into named steps):"
    printf '%s\n' "$found" | grep -F -f <(printf '%s\n' "$new") | sed 's/^/  /'
    status=1
fi
if [[ -n "$cut" ]]; then
    echo "Listed but now 80 lines or fewer (remove them from $list):"
    printf '%s\n' "$cut" | sed 's/^/  /'
    status=1
fi
exit $status
