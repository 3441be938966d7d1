#!/usr/bin/env bash
# Sets up a fresh machine, builds GPU Sizer and runs every test with ctest.
#   ./scripts/test.sh            dev preset (build/)
#   ./scripts/test.sh ci         ci preset (build-ci/, warnings are errors)
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-dev}"

./scripts/bootstrap.sh
cmake --preset "$preset"
cmake --build --preset "$preset" -j "$(nproc)"
ctest --preset "$preset" -j "$(nproc)"
