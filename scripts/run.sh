#!/usr/bin/env bash
# Sets up a fresh machine, builds GPU Sizer and starts the GUI.
# Without a display it runs the app under Xvfb, saves a screenshot and says where it is.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/bootstrap.sh run # the application's packages only; scripts/test.sh adds the test tool chain
cmake --preset app
cmake --build --preset app -j "$(nproc)" --target gpusizer gpusizer-cli

app=build-app/app/gpusizer
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
    exec "$app" "$@"
fi

shot="${GPUSIZER_SCREENSHOT:-$PWD/build-app/gpusizer-screenshot.png}"
echo "run.sh: no display found; running under Xvfb and saving a screenshot"
xvfb-run -a -s "-screen 0 1440x900x24" "$app" --screenshot "$shot" "$@"
echo "run.sh: screenshot of the main window: $shot"
