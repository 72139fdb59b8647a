#!/usr/bin/env bash
# `make bench` table of the timing model's speed: simulated SM-cycles per
# second (cycles of SMs with resident CTAs, summed over SMs) and
# warp-instructions per second, per scheduler back end, on a memory-bound and
# a compute-bound benchmark (default preset, default sizes). Host time is the
# simulation time the model reports ("simulation ... s host"), not the
# driver's set-up or CPU reference check.
#   tests/timing/bench-timing.sh BUILD_DIR [BACKEND...]
set -eu
b=$1; shift
backends=("$@"); [ ${#backends[@]} -eq 0 ] && backends=(c rtl)
smcosim=$b/bin/smcosim
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# (keys that the memory model's members also use are matched with their
# neighbour in the launch record: "cycles" is followed by "warp_insts")
sum() {
  if [ "$2" = cycles ]; then grep -o '"cycles": [0-9]*, "warp_insts"' "$1"
  else grep -o "\"$2\": [0-9.]*" "$1"; fi | awk '{s += $2} END {printf "%d", s}'
}
printf '%-10s %-10s %-8s %-5s %-16s %12s %12s %10s %14s %14s\n' benchmark kind sched haws preset cycles \
       SM-cycles warp-insts SM-cycles/s warp-insts/s
# one row: benchmark kind back-end haws preset ("" = the default)
row() {
  local name=$1 kind=$2 be=$3 haws=$4 preset=$5
  "$smcosim" run ${preset:+--config "$preset"} --sched "$be" --set "sched.haws=$haws" \
      --json "$tmp/s.json" --bench "$name" > /dev/null 2> "$tmp/log" \
    || { echo "bench-timing: $name/$be/haws=$haws/${preset:-default} failed:" >&2; tail -5 "$tmp/log" >&2; exit 1; }
  host=$(grep -o 'simulation *[0-9.]* s host' "$tmp/log" | awk '{s += $2} END {print s}')
  cyc=$(sum "$tmp/s.json" cycles); smc=$(sum "$tmp/s.json" sm_active_cycles)
  wi=$(sum "$tmp/s.json" warp_insts)
  awk -v n="$name" -v k="$kind" -v be="$be" -v hw="$haws" -v p="${preset:-default}" -v c="$cyc" \
      -v s="$smc" -v w="$wi" -v h="$host" \
    'BEGIN { printf "%-10s %-10s %-8s %-5s %-16s %12d %12d %10d %14.0f %14.0f\n", n, k, be, hw, p, c, s, w, s / h, w / h }'
}
# spmv: irregular CSR gathers (memory-bound); gemm: fp32 multiply-add loops
# (compute-bound); matmul (naive and tiled) without and with HAWS
# (sched.haws=warp: the issue asks that HAWS cost at most 20 % of
# SM-cycles/s; HAWS also changes the cycles, so compare the rates); default
# sizes
for triple in spmv:memory:off gemm:compute:off matmul:memory:off matmul:memory:warp; do
  name=${triple%%:*}; rest=${triple#*:}; kind=${rest%%:*}; haws=${rest##*:}
  for be in "${backends[@]}"; do
    row "$name" "$kind" "$be" "$haws" ""
  done
done
# every preset of the seeds' machines, C model (issue 36: the faithful
# fermi-gtx480 beside the one-clock fermi-gtx480-v1; its clock domains, LD/ST
# path and per-opcode latencies cost work per core cycle, a 700-MHz core
# cycle does twice the work of a 1400-MHz one: compare warp-insts/s)
for preset in kepler-k20x fermi-gtx480-v1 fermi-gtx480 si-7970; do
  for pair in spmv:memory gemm:compute; do
    row "${pair%%:*}" "${pair#*:}" c off "$preset"
  done
done
