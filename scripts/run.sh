#!/usr/bin/env bash
# Sets up a fresh machine, builds GPU Sizer and starts the GUI.
# After scripts/test.sh it starts the application from the test build (build/, or build-ci/ in CI) instead of
# building it again in build-app/: only what changed since is compiled.
# Without a display it runs the app under Xvfb, saves a screenshot and says where it is.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/bootstrap.sh run # the application's packages only; scripts/test.sh adds the test tool chain
preset=app
build_dir=build-app
for candidate in dev:build ci:build-ci; do
    if [ -f "${candidate#*:}/CMakeCache.txt" ] && [ -f "${candidate#*:}/build.ninja" ]; then
        preset=${candidate%%:*}
        build_dir=${candidate#*:}
        echo "run.sh: reusing the build in $build_dir/ (from scripts/test.sh)"
        break
    fi
done
if [ "$preset" = app ]; then
    cmake --preset app
fi
cmake --build --preset "$preset" -j "$(nproc)" --target gpusizer gpusizer-cli

app="$build_dir/app/gpusizer"
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
    exec "$app" "$@"
fi

shot="${GPUSIZER_SCREENSHOT:-$PWD/$build_dir/gpusizer-screenshot.png}"
echo "run.sh: no display found; running under Xvfb and saving a screenshot"
xvfb-run -a -s "-screen 0 1440x900x24" "$app" --screenshot "$shot" "$@"
echo "run.sh: screenshot of the main window: $shot"
