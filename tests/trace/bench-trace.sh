#!/usr/bin/env bash
# `make bench` rows for trace-driven mode (docs/traces.md): simulated
# SM-cycles per second and warp-instructions per second when the shared real
# traces (tests/trace/real/, xz) are run from a kernelslist.g that lists each
# of them many times (vectoradd 3000, matrixmul 600 times x SCALE/100: a few
# seconds per back end), on the pascal-titanx preset, per scheduler back end.
# Host time is the wall time of the whole `smcosim run --trace`: start-up,
# reading and decompressing every kernel file, the simulation.
#   tests/trace/bench-trace.sh BUILD_DIR [SCALE] [BACKEND...]
set -eu
b=$1; shift
scale=${1:-100}; [ $# -gt 0 ] && shift
backends=("$@"); [ ${#backends[@]} -eq 0 ] && backends=(c rtl)
smcosim=$b/bin/smcosim
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Totals from the per-kernel summaries on stderr (no --json: rewriting the
# JSON of every kernel so far after each kernel would dominate the time).
# Each of these kernels is one CTA, so its SM-cycles are its cycles; the
# first run of each trace checks that against the JSON.
sum() { awk -v k="$2" '$1 == k { s += $2 } END { printf "%d", s }' "$1"; }
printf '%-18s %-8s %8s %12s %12s %12s %14s %14s\n' trace sched kernels cycles SM-cycles \
       warp-insts SM-cycles/s warp-insts/s
for pair in vectoradd-100-32:3000 matrixmul-32-32:600; do
  k=${pair%%:*}; repeat=$(( ${pair##*:} * scale / 100 )); [ "$repeat" -ge 1 ] || repeat=1
  "$smcosim" run --trace "$here/real/$k/kernelslist.g" --config pascal-titanx --json "$tmp/one.json" \
      > /dev/null 2>&1 || { echo "bench-trace: $k failed" >&2; exit 1; }
  python3 -c "import json,sys; l=json.load(open(sys.argv[1]))['launches'][0]; sys.exit(l['cycles'] != l['sm_active_cycles'])" \
      "$tmp/one.json" || { echo "bench-trace: $k: SM-cycles differ from cycles" >&2; exit 1; }
  list=$tmp/$k.g
  for i in $(seq "$repeat"); do echo "$here/real/$k/kernel-1.traceg.xz"; done > "$list"
  for be in "${backends[@]}"; do
    t0=$(date +%s.%N)
    "$smcosim" run --trace "$list" --config pascal-titanx --sched "$be" > /dev/null 2> "$tmp/log" \
      || { echo "bench-trace: $k/$be failed:" >&2; tail -5 "$tmp/log" >&2; exit 1; }
    host=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
    cyc=$(sum "$tmp/log" cycles); smc=$cyc
    wi=$(sum "$tmp/log" warp-instructions)
    awk -v n="$k" -v be="$be" -v r="$repeat" -v c="$cyc" -v s="$smc" -v w="$wi" -v h="$host" \
      'BEGIN { printf "%-18s %-8s %8d %12d %12d %12d %14.0f %14.0f\n", n, be, r, c, s, w, s / h, w / h }'
  done
done
