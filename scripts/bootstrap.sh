#!/usr/bin/env bash
# Installs the Debian packages GPU Sizer needs. Idempotent: asks dpkg first and calls apt-get only for what is
# missing. Needs root, or sudo.
#   ./scripts/bootstrap.sh run    what building and running the application needs (scripts/run.sh)
#   ./scripts/bootstrap.sh        also what the tests, the benchmarks and packaging need (scripts/test.sh, CI)
# Before asking sudo for anything it checks whether sudo will work without a password; where it will not (the user is
# not in sudoers, or a password is needed and nobody is at the terminal) it prints the lines to give an administrator.
# tests/scripts/bootstrap_test.sh runs each case with stubbed id, sudo, dpkg-query and apt-get.
set -euo pipefail
set_name="${1:-all}"

run_packages=(
    build-essential cmake ninja-build pkg-config
    qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libqt6svg6
    qt6-tools-dev qt6-l10n-tools qt6-translations-l10n
    nlohmann-json3-dev libexpected-dev libyaml-cpp-dev
    fonts-dejavu-core fonts-noto-cjk fonts-wqy-microhei xvfb xauth
    libxkbcommon-dev # Qt6Gui's CMake package looks for it: without it every configure prints "Could NOT find XKB"
)
test_packages=(
    libgtest-dev libgmock-dev libbenchmark-dev poppler-utils
    desktop-file-utils appstream file dpkg-dev clang-format clang-tidy
    clang libclang-rt-dev
    python3 python3-torch python3-sentencepiece # the probe and the dataset script, run on the CPU by the tests
)
case "$set_name" in
    run) packages=("${run_packages[@]}") ;;
    all) packages=("${run_packages[@]}" "${test_packages[@]}") ;;
    *) echo "bootstrap: unknown set '$set_name' (run, or nothing for everything)" >&2; exit 2 ;;
esac

missing=()
for pkg in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
    if [ "$status" != "installed" ]; then
        missing+=("$pkg")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "bootstrap: all ${#packages[@]} packages present"
    exit 0
fi

# The lines an administrator can run for us, printed whenever we cannot run them ourselves.
admin_lines() {
    echo "  apt-get update" >&2
    echo "  apt-get install --no-install-recommends ${missing[*]}" >&2
}

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "bootstrap: installing packages needs root, and sudo is not installed." >&2
        echo "bootstrap: run this script as root, or ask an administrator to run:" >&2
        admin_lines
        exit 1
    fi
    if ! sudo -n true 2>/dev/null; then
        # Either a password is needed or this user may not use sudo at all (sudo cannot tell us which without
        # asking): say what to ask for first, then try once if someone is at the terminal.
        echo "bootstrap: installing packages needs root, and sudo wants a password (or this user may not use sudo)." >&2
        echo "bootstrap: if sudo refuses, run this script as root or ask an administrator to run:" >&2
        admin_lines
        if [ ! -t 0 ]; then
            echo "bootstrap: no terminal to type a password in: stopping." >&2
            exit 1
        fi
        if ! sudo -v; then
            echo "bootstrap: sudo refused; ask an administrator to run the lines above." >&2
            exit 1
        fi
    fi
    sudo_cmd=(sudo)
fi
echo "bootstrap: installing ${#missing[@]} package(s): ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update
# Progress stays visible: the test set alone is several hundred MB (python3-torch).
"${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
echo "bootstrap: done"
