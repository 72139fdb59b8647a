#!/usr/bin/env bash
# demo-check.sh BUILD_DIR — `make demo`'s script (scripts/demo.sh) on make
# demo's programs (BUILD_DIR/demo), small (spmv -n 256), results in a
# temporary folder: with the benchmark's C driver, and with the CUDA program
# when nvcc built it. Its screen must hold what the demo is for: both runs
# passing, the cycles under LRR and GTO, the waveform's path (the file
# written, with its GTKWave save file) and the command to open it, and the
# area line (from a made-up `make area` table, and the command when there is
# none). The demo's programs take the RTL from their own plugin and link
# without LTO: their statistics must be the full CLI's, byte for byte.
set -u
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok()  { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

# A table as `make area` writes it, with the whole core's row.
printf '%s\n' 'block,params,instances,storage_bits,storage_total,gates,area45_um2' \
  'sched_core (whole core),NumWarps=64,1,12345,12345,67890,4242.5' > "$tmp/area.csv"

modes=(driver)
if [ -x build/bench/spmv ] && [ -e "$B/demo/lib/libcudart.so.13" ]; then
  modes+=(cuda)
else
  echo "SKIP: cuda mode: build/bench/spmv not built (no nvcc)"
fi
for mode in "${modes[@]}"; do
  out=$tmp/$mode
  csv=$tmp/area.csv
  [ "$mode" = cuda ] && csv=$tmp/none.csv   # no table: the command instead
  if ! DEMO_DIR=$B/demo DEMO_OUT=$out DEMO_MODE=$mode DEMO_ARGS="-n 256" DEMO_AREA_CSV=$csv \
       scripts/demo.sh > "$tmp/$mode.txt" 2>&1; then
    bad "$mode: scripts/demo.sh failed:"; sed 's/^/     /' "$tmp/$mode.txt"; continue
  fi
  s=$tmp/$mode.txt
  [ "$(grep -c 'spmv: PASS' "$s")" -eq 2 ] && ok "$mode: both runs pass" || bad "$mode: two 'spmv: PASS' lines expected"
  grep -qE '^cycles +[1-9][0-9]* +[1-9][0-9]*$' "$s" && ok "$mode: cycles under LRR and GTO" \
    || bad "$mode: no 'cycles LRR GTO' line"
  grep -qE '^GTO speedup over LRR: [0-9.]+$' "$s" && ok "$mode: speedup line" || bad "$mode: no speedup line"
  grep -q -- "--sched rtl --policy gto .*--fst $out/gto.fst" "$s" && ok "$mode: the GTO run writes the waveform" \
    || bad "$mode: the GTO command has no --fst $out/gto.fst"
  grep -q "): $out/gto.fst\$" "$s" && [ -s "$out/gto.fst" ] && [ -s "$out/gto.fst.gtkw" ] \
    && ok "$mode: waveform path printed, FST and save file written" || bad "$mode: waveform path or files missing"
  grep -qx "  open it:  gtkwave $out/gto.fst.gtkw" "$s" && ok "$mode: the command to open it" \
    || bad "$mode: no 'gtkwave $out/gto.fst.gtkw' line"
  if [ "$mode" = driver ]; then
    grep -q "area, kepler-k20x ($csv): 12345 storage bits, 67890 gates (NAND2/NOR2/INV), 4242.5 um2 at 45 nm" "$s" \
      && ok "driver: the area line from make area's table" || bad "driver: area line wrong: $(grep -i area "$s")"
    # the same runs on the full CLI (static RTL, LTO): the same statistics
    for pol in lrr gto; do
      extra=(); [ "$pol" = gto ] && extra=(--fst "$tmp/full.fst")
      "$B/bin/smcosim" run --sched rtl --policy "$pol" --json "$tmp/full-$pol.json" "${extra[@]}" \
          --bench spmv -n 256 > /dev/null 2>&1
      cmp -s "$tmp/full-$pol.json" "$out/$pol.json" && ok "driver: $pol statistics = $B/bin/smcosim's" \
        || bad "driver: $pol statistics differ from $B/bin/smcosim's"
    done
  else
    grep -q "not synthesized yet; make area AREA_SETS=kepler-k20x" "$s" \
      && ok "cuda: without a table, the command for one" || bad "cuda: no 'make area' line"
    cmp -s "$tmp/driver/lrr.json" "$out/lrr.json" && ok "cuda: LRR statistics = the C driver's" \
      || bad "cuda: LRR statistics differ from the C driver's"
  fi
done

echo "demo-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
