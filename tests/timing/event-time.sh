#!/usr/bin/env bash
# cudaEventElapsedTime under `smcosim run` (timing mode): the elapsed time
# between events around two launches equals the sum of the launches' cycles
# in the statistics JSON divided by the preset's clock (gpu.clock_mhz), for
# two presets with different clocks. SKIP without nvcc.
#   tests/timing/event-time.sh BUILD_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib/cuda-prog.sh
cuda_prog_open "${1:-build}" event_time "cudaEventElapsedTime not checked"
fail=0
# preset and its clock in MHz as the seed tables give it (docs/config.md):
# kepler-k20x 732 MHz, fermi-gtx480 700 MHz (GPGPU-Sim 3.2.1's core clock),
# fermi-gtx480-v1 1400 MHz (Table 1)
for pc in kepler-k20x:732 fermi-gtx480:700 fermi-gtx480-v1:1400; do
  preset=${pc%%:*} mhz=${pc##*:}
  out=$("$b/bin/smcosim" run --config "$preset" --json "$tmp/$preset.json" -- "$prog" 2> "$tmp/err")
  rc=$?
  if [ $rc -ne 0 ]; then echo "FAIL $preset: exit $rc"; sed 's/^/  /' "$tmp/err" | head -5; fail=1; continue; fi
  ms=$(awk '/^elapsed_ms/ { print $2 }' <<<"$out")
  khz=$(awk '/^clock_khz/ { print $2 }' <<<"$out")
  cycles=$(python3 -c 'import json, sys; l = json.load(open(sys.argv[1]))["launches"]; print(sum(x["cycles"] for x in l), len(l))' "$tmp/$preset.json")
  set -- $cycles; sum=$1 nl=$2
  [ "$nl" = 2 ] || { echo "FAIL $preset: expected 2 launches in the JSON, found $nl"; fail=1; continue; }
  [ "$khz" = $((mhz * 1000)) ] || { echo "FAIL $preset: clock rate $khz kHz, expected $((mhz * 1000))"; fail=1; }
  want=$(awk -v c="$sum" -v m="$mhz" 'BEGIN { printf "%.9g", c / (m * 1000.0) }')
  if awk -v a="$ms" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * 1e-6) }'; then
    echo "ok   $preset: elapsed $ms ms = $sum cycles / $mhz MHz"
  else
    echo "FAIL $preset: elapsed $ms ms, expected $want ms ($sum cycles / $mhz MHz)"; fail=1
  fi
done
[ $fail -eq 0 ] || { echo "event-time: FAIL"; exit 1; }
echo "event-time: 3 presets passed"
