#!/usr/bin/env bash
# nvcc-built CUDA programs under `smcosim run --sched c|rtl|lockstep` through
# the drop-in libcudart.so.13 (the RTL comes from the plugin
# libsmc_vsched.so): every program passes its CPU check, and the RTL and
# lockstep back ends give the same cycles per launch as the C model (the
# scheduler core is the same design). A missing plugin is a clear error.
# Usage: tests/timing/cuda-backends.sh BUILD_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build}
export PATH=/usr/local/cuda/bin:$PATH
if ! command -v nvcc >/dev/null 2>&1 || [ ! -x build/bench/vectoradd ]; then
  echo "SKIP: nvcc not found or build/bench/ not built; the CUDA programs under --sched rtl|lockstep were not run"
  exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0; runs=0
fail() { echo "cuda-backends: FAIL: $*"; fails=$((fails + 1)); }
cycles_of() { python3 -c 'import json, sys; print(" ".join(str(x["cycles"]) for x in json.load(open(sys.argv[1]))["launches"]))' "$1"; }
for prog in vectoradd histogram scan; do
  for pol in lrr gto; do
    for s in c rtl lockstep; do
      out=$("$B/bin/smcosim" run --sched "$s" --policy "$pol" --json "$tmp/$prog.$pol.$s.json" \
            -- "build/bench/$prog" --size small 2>"$tmp/err")
      rc=$?; runs=$((runs + 1))
      [ $rc -eq 0 ] && [ "$out" = "$prog: PASS" ] ||
        { fail "$prog --sched $s --policy $pol: exit $rc, '$out'"; sed 's/^/  /' "$tmp/err" | head -5; continue; }
      grep -q "\"sched\": \"$s\"" "$tmp/$prog.$pol.$s.json" || fail "$prog: JSON does not say sched $s"
    done
    c=$(cycles_of "$tmp/$prog.$pol.c.json")
    [ -n "$c" ] || { fail "$prog $pol: no cycles in the JSON"; continue; }
    for s in rtl lockstep; do
      v=$(cycles_of "$tmp/$prog.$pol.$s.json")
      [ "$v" = "$c" ] || fail "$prog $pol: cycles per launch differ: c: $(echo $c) $s: $(echo $v)"
    done
  done
done
# without the plugin: a message that names it, a non-zero exit
SMCOSIM_VSCHED_PLUGIN=$tmp/missing.so "$B/bin/smcosim" run --sched rtl -- build/bench/vectoradd \
  --size small >/dev/null 2>"$tmp/err"
rc=$?; runs=$((runs + 1))
[ $rc -ne 0 ] && grep -q "libsmc_vsched.so" "$tmp/err" && grep -q "missing.so" "$tmp/err" ||
  fail "missing plugin: exit $rc, message: $(head -c 300 "$tmp/err")"
if [ $fails -ne 0 ]; then echo "cuda-backends: $fails of $runs checks failed"; exit 1; fi
echo "cuda-backends: $runs runs passed (3 programs x 2 policies x c/rtl/lockstep, same cycles; missing plugin reported)"
