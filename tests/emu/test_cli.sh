#!/usr/bin/env bash
# test_cli.sh — the `smcosim` command line: dispatch, usage errors (exit 2),
# ptx-info output and load errors (exit 1 with file:line:col).
# Usage: tests/emu/test_cli.sh BUILD_DIR
set -u
cli="${1:-build}/bin/smcosim"
pass=0; fail=0
check() {   # name, expected status, command..., then a grep pattern in $out
  local name=$1 want=$2 pat=$3; shift 3
  out=$("$@" 2>&1); local st=$?
  if [ "$st" -eq "$want" ] && grep -q -- "$pat" <<<"$out"; then
    pass=$((pass + 1)); echo "[       OK ] $name"
  else
    fail=$((fail + 1)); echo "[  FAILED  ] $name (status $st, want $want; pattern '$pat')"; echo "$out" | head -5
  fi
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '.version 9.0\n.target sm_75\n.address_size 64\n.entry k()\n{\n\tbogus.op;\n}\n' > "$tmp/bad.ptx"
check "no arguments: usage, exit 2"      2 "usage: smcosim"        "$cli"
check "unknown subcommand: exit 2"       2 "unknown subcommand"    "$cli" frobnicate
check "help lists ptx-info"              0 "ptx-info"              "$cli" --help
check "ptx-info without file: exit 2"    2 "usage: smcosim ptx-info" "$cli" ptx-info
check "ptx-info lists kernels"           0 "kernel _Z4vaddPKfS0_Pfi" "$cli" ptx-info tests/emu/ptx/basics.ptx
check "ptx-info smem of misc"            0 "512 bytes smem"        "$cli" ptx-info tests/emu/ptx/basics.ptx
check "ptx-info bad file: located error" 1 "bad.ptx:6:2: error"    "$cli" ptx-info "$tmp/bad.ptx"
check "ptx-info missing file"            1 "No such file"          "$cli" ptx-info "$tmp/none.ptx"
echo "[==========] cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
