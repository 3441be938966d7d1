#!/usr/bin/env bash
# The bootstrap's decision on a machine that lacks packages, for each kind of user: root, passwordless sudo, sudo that
# wants a password (no terminal; a terminal and a refusal), no sudo at all, and nothing missing. id, sudo, dpkg-query
# and apt-get are stubs on an otherwise empty PATH, so nothing is installed; each case checks the exit status, what
# ran, and that the lines for an administrator are printed whenever the script cannot install by itself.
set -uo pipefail
bootstrap="$(cd "$(dirname "$0")/../.." && pwd)/scripts/bootstrap.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

stub() { # name body
    printf '#!/bin/bash\n%s\n' "$2" > "$work/bin/$1"
    chmod +x "$work/bin/$1"
}

setup() { # uid dpkg-status sudo: none|nopass|password-refuses|password-accepts
    rm -rf "$work/bin" "$work/log"
    mkdir -p "$work/bin"
    : > "$work/log"
    stub id "echo $1"
    stub dpkg-query "echo $2"
    stub apt-get "echo \"apt-get \$*\" >> $work/log"
    case $3 in
        none) ;;
        nopass) stub sudo "echo \"sudo \$*\" >> $work/log; if [ \"\$1\" = -n ]; then exit 0; fi; \"\$@\"" ;;
        password-refuses) stub sudo "echo \"sudo \$*\" >> $work/log
if [ \"\$1\" = -n ]; then echo 'sudo: a password is required' >&2; exit 1; fi
if [ \"\$1\" = -v ]; then echo 'user is not in the sudoers file' >&2; exit 1; fi
\"\$@\"" ;;
        password-accepts) stub sudo "echo \"sudo \$*\" >> $work/log
if [ \"\$1\" = -n ]; then exit 1; fi
if [ \"\$1\" = -v ]; then exit 0; fi
\"\$@\"" ;;
    esac
}

run() { # runs the bootstrap (test set) with stdin from /dev/null; sets status, out, err
    out=$(PATH="$work/bin" /bin/bash "$bootstrap" run < /dev/null 2> "$work/err")
    status=$?
    err=$(cat "$work/err")
}

check() { # description condition...
    local what=$1
    shift
    if "$@"; then
        echo "ok   - $what"
    else
        echo "FAIL - $what"
        echo "  status: $status"; echo "  stdout: $out"; echo "  stderr: $err"; echo "  log: $(cat "$work/log")"
        failures=$((failures + 1))
    fi
}
has() { grep -qF -- "$2" <<< "$1"; }
lacks() { ! grep -qF -- "$2" <<< "$1"; }
admin_lines_printed() { has "$err" "  apt-get update" && has "$err" "  apt-get install --no-install-recommends"; }

setup 0 not-installed none
run
check "root installs with apt-get, without sudo" \
    test "$status" -eq 0 -a "$(head -n 1 "$work/log")" = "apt-get update"
check "root: apt-get install ran" has "$(cat "$work/log")" "apt-get install -y --no-install-recommends"

setup 1000 not-installed nopass
run
check "passwordless sudo installs through sudo" \
    test "$status" -eq 0 -a "$(sed -n 2p "$work/log")" = "sudo apt-get update"

setup 1000 not-installed password-refuses
run
check "sudo wanting a password without a terminal stops with status 1" test "$status" -eq 1
check "... and prints the lines for an administrator" admin_lines_printed
check "... and never asks sudo for a password or runs apt-get" \
    test "$(cat "$work/log")" = "sudo -n true"

setup 1000 not-installed none
run
check "no sudo stops with status 1" test "$status" -eq 1
check "... and prints the lines for an administrator" admin_lines_printed
check "... and runs nothing" test ! -s "$work/log"

setup 1000 installed nopass
run
check "nothing missing: nothing runs" test "$status" -eq 0 -a ! -s "$work/log"
check "... and says so" has "$out" "packages present"

# At a terminal (script(1) gives the bootstrap one): sudo is asked once; a refusal stops with the lines printed first.
if script_cmd=$(command -v script); then
    setup 1000 not-installed password-refuses
    out=$(PATH="$work/bin" SHELL=/bin/bash "$script_cmd" -qec "/bin/bash $bootstrap run" /dev/null 2>&1)
    status=$?
    err=$out
    check "at a terminal, a refused sudo stops with status 1" test "$status" -eq 1
    check "... after printing the lines for an administrator" admin_lines_printed
    check "... and says sudo refused" has "$out" "sudo refused"
    check "... having asked sudo once" test "$(grep -c -- '^sudo -v' "$work/log")" -eq 1
    setup 1000 not-installed password-accepts
    out=$(PATH="$work/bin" SHELL=/bin/bash "$script_cmd" -qec "/bin/bash $bootstrap run" /dev/null 2>&1)
    status=$?
    check "at a terminal, an accepted password installs through sudo" \
        has "$(cat "$work/log")" "sudo apt-get install -y --no-install-recommends"
else
    echo "skip - script(1) is not installed: the terminal cases were not run"
fi

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"
