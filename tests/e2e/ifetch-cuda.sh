#!/usr/bin/env bash
# bench/sidebyside/ifetch.cu, an ordinary CUDA program (one warp, 1,024
# independent adds in a straight line, three launches), on the drop-in
# runtime under fermi-gtx480, whose L1 instruction cache is GPGPU-Sim
# 3.2.1's (2 KB; docs/memory-model.md, "Instruction cache"):
#  - every launch misses every line of its code: the kernel has no branch,
#    so its warp-instructions are its code, x 8 bytes (l1i.inst_bytes) from
#    l1i.code_base (a line boundary) = 8 KB and a little, ceil(/ 128) lines,
#    four times what the L1I holds, so LRU keeps none for the next launch;
#    every instruction is fetched with a hit once its line is in;
#  - a miss costs the line's round trip: from the second launch on the code
#    is in the L2, so each line adds the unloaded L2 latency that `smcosim
#    config` states, less the few cycles the instructions already buffered
#    issue meanwhile (at most 20); the first launch finds it in DRAM: more
#    than an L2 hit, at most a closed-bank DRAM access and a precharge;
#  - with an ideal cache (l1i.sets = 0) there is no "l1i" member.
# SKIP (said out loud) without nvcc or the runtime.
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib/cuda-prog.sh
cuda_sidebyside_open ifetch
cfg=$(build/bin/smcosim config --config fermi-gtx480)
read -r l2 dram < <(sed -n 's/.*L2 hit \([0-9]*\), DRAM \([0-9]*\) core cycles.*/\1 \2/p' <<<"$cfg")
trp=$(awk '$1 == "dram.tRP" {print $3}' <<<"$cfg")
cmhz=$(awk '$1 == "clock.core_mhz" {print $3}' <<<"$cfg")
dmhz=$(awk '$1 == "clock.dram_mhz" {print $3}' <<<"$cfg")
trp=$(( (trp * cmhz + dmhz - 1) / dmhz ))
fails=0
for set in "" "--set l1i.sets=0"; do
  # shellcheck disable=SC2086
  out=$(build/bin/smcosim run --config fermi-gtx480 $set --json "$tmp/ifetch${set:+-ideal}.json" \
        -- "$prog" 2>&1)
  grep -qx "ifetch: PASS" <<<"$out" || { echo "FAIL: ifetch ${set:-}: $out"; fails=1; }
done
python3 - "$tmp/ifetch.json" "$tmp/ifetch-ideal.json" "$l2" "$dram" "$trp" <<'PY' || fails=1
import json, sys
ic = json.load(open(sys.argv[1]))["launches"]
ideal = json.load(open(sys.argv[2]))["launches"]
l2, dram, trp = (int(a) for a in sys.argv[3:6])
bad = 0
def check(ok, what):
    global bad
    print(("ok   " if ok else "FAIL ") + what)
    bad |= not ok
check(len(ic) == 3 and len(ideal) == 3, f"three launches each ({len(ic)}, {len(ideal)})")
for k, (a, b) in enumerate(zip(ic, ideal), 1):
    m = a["memory"].get("l1i", {})
    n = a["warp_insts"]
    lines = (n * 8 + 127) // 128
    check(1024 < n < 1100 and m.get("misses") == lines and m.get("fills") == lines
          and m.get("hits") == n and m.get("merges") == 0 and m.get("refused") == 0,
          f"launch {k}: l1i {m} ({lines} lines, {n} hits)")
    check("l1i" not in b["memory"], f"launch {k}: no l1i member with an ideal cache")
    per = (a["cycles"] - b["cycles"]) / lines
    lo, hi = (l2 - 20, l2) if k > 1 else (l2, dram + trp)
    check(lo <= per <= hi, f"launch {k}: {per:.1f} cycles per line missed "
          f"({a['cycles']} against {b['cycles']}; expected {lo}..{hi})")
sys.exit(bad)
PY
exit $fails
