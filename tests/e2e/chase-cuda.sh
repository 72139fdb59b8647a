#!/usr/bin/env bash
# bench/sidebyside/chase.cu, an ordinary CUDA program that measures the
# unloaded load latency of each level with %clock, run on the drop-in
# runtime: its cycles per load must be the configuration's arithmetic as
# `smcosim config` states it (the unloaded latencies measured through the
# memory model's own interface, docs/memory-model.md) plus the LD/ST path's
# stages before the unit (ldst.id_oc + ldst.collectors stage + ldst.oc_ex:
# 3 on fermi-gtx480, 0 without the path). The same program is what
# docs/memory-model.md ("Side by side") runs on GPGPU-Sim.
# SKIP (said out loud) without nvcc or the runtime.
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib/cuda-prog.sh
cuda_sidebyside_open chase
fails=0
for preset in fermi-gtx480 kepler-k20x si-7970; do
  cfg=$(build/bin/smcosim config --config "$preset")
  read -r l1 l2 dram < <(sed -n 's/.*L1 hit \([0-9]*\), L2 hit \([0-9]*\), DRAM \([0-9]*\) core cycles.*/\1 \2 \3/p' <<<"$cfg")
  idoc=$(awk '$1 == "ldst.id_oc" {print $3}' <<<"$cfg")
  path=0; [ "${idoc:-0}" -gt 0 ] && path=3
  [ -n "${l1:-}" ] || { echo "FAIL: $preset: no unloaded-latency line in smcosim config"; fails=1; continue; }
  out=$(build/bin/smcosim run --config "$preset" -- "$prog" 2>/dev/null)
  grep -qx "chase: PASS" <<<"$out" || { echo "FAIL: $preset: chase did not pass: $out"; fails=1; continue; }
  # cycles per load, whole cycles: L1 and L2 carry the loop's add, compare
  # and branch once per 32 loads (at most 2 cycles per load at L1, nothing
  # measurable over 2048 L2 hits); a DRAM access lies between a row hit and
  # a bank with another row open (a precharge, dram.tRP, more than the
  # unloaded closed-bank latency), so between the L2 hit and that.
  m1=$(awk '$2 == "l1" {print int($6)}' <<<"$out")
  m2=$(awk '$2 == "l2" {print int($6)}' <<<"$out")
  md=$(awk '$2 == "dram" {print int($6)}' <<<"$out")
  trp=$(awk '$1 == "dram.tRP" {print $3}' <<<"$cfg")
  cmhz=$(awk '$1 == "clock.core_mhz" {print $3}' <<<"$cfg")
  dmhz=$(awk '$1 == "clock.dram_mhz" {print $3}' <<<"$cfg")
  [ "${dmhz:-0}" -gt 0 ] && [ "${cmhz:-0}" -gt 0 ] && trp=$(( (trp * cmhz + dmhz - 1) / dmhz ))
  e1=$((l1 + path)); e2=$((l2 + path)); ed=$((dram + path + trp))
  ok=1
  { [ "$m1" -ge "$e1" ] && [ "$m1" -le $((e1 + 2)) ]; } || ok=0
  [ "$m2" -eq "$e2" ] || ok=0
  { [ "$md" -gt "$e2" ] && [ "$md" -le "$ed" ]; } || ok=0
  if [ $ok = 1 ]; then
    echo "ok   $preset: chase l1 $m1 (config $e1), l2 $m2 ($e2), dram $md (<= $ed)"
  else
    echo "FAIL $preset: chase l1 $m1 l2 $m2 dram $md; config: l1 $e1..$((e1 + 2)), l2 $e2, dram $((e2 + 1))..$ed"
    fails=1
  fi
done
exit $fails
