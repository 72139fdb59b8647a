#!/usr/bin/env bash
# --fst for nvcc-built CUDA programs (which never destroy their device), with
# every back end (c: the C model's ports; rtl, lockstep: every RTL signal): the
# waveform is complete when the program exits, with no intermediate files
# left; a program of several launches gets them all on one time axis, the
# back end's signals aligned with the C side's; the statistics are those of
# a run without --fst. Read back with fst2vcd.
#   tests/timing/fst-cuda.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
b=${1:-build}
command -v fst2vcd > /dev/null || { echo "FAIL: fst2vcd is not installed (scripts/install-deps.sh installs gtkwave)"; exit 1; }
if ! command -v /usr/local/cuda/bin/nvcc > /dev/null 2>&1 || [ ! -x build/bench/scan ]; then
  echo "SKIP: nvcc not found or build/bench/ not built; --fst on CUDA programs was not checked"
  exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }

# The VCD's times never go back, and the C side's sched0.issue_valid equals
# bit 0 of the back end's issue_valid_o at every time (the two sides are on
# one time axis, launch after launch). Prints "ok" or what is wrong.
aligned() {
  python3 - "$1" << 'EOF'
import sys
ids, scope, vals, last, bad = {}, [], {}, -1, None
cur = {}
t = 0
samples = []
for line in open(sys.argv[1]):
    w = line.split()
    if not w:
        continue
    if w[0] == '$scope':
        scope.append(w[2])
    elif w[0] == '$upscope':
        scope.pop()
    elif w[0] == '$var':
        name = '.'.join(scope + [w[4]])
        if name.endswith('sched0.issue_valid') and 'cmodel' in name:
            ids['c'] = w[3]
        elif w[4] == 'issue_valid_o' and len(scope) == 2:
            ids['rtl'] = w[3]
    elif line[0] == '#':
        nt = int(line[1:])
        if nt < last:
            bad = 'time goes back from %d to %d' % (last, nt)
            break
        if 'c' in cur and 'rtl' in cur:
            samples.append((t, cur['c'], cur['rtl']))
        t = last = nt
    else:
        if line[0] == 'b':
            v, i = w[0][1:], w[1]
        else:
            v, i = line[0], line[1:].strip()
        for k, want in ids.items():
            if i == want:
                cur[k] = v
samples.append((t, cur.get('c'), cur.get('rtl')))
if bad is None:
    if len(ids) != 2:
        bad = 'signals not found: %s' % ids
    else:
        # compare at whole cycles (c ns = 10c units of 100 ps; c.5 ns are edges)
        for (tt, c, r) in samples:
            if tt % 10 == 0 and c is not None and r is not None and int(c, 2) != (int(r, 2) & 1):
                bad = 'at time %d: C side issue_valid %s, back end issue_valid_o %s' % (tt, c, r)
                break
print(bad or 'ok')
EOF
}

cycles_of() { python3 -c 'import json, sys; print(" ".join(str(x["cycles"]) for x in json.load(open(sys.argv[1]))["launches"]))' "$1"; }

for s in c rtl lockstep; do
  # scan: three launches; the default window (0:20000) holds all of them
  ( cd "$tmp" && "$OLDPWD/$b/bin/smcosim" run --sched "$s" --fst w.fst --json w.json \
      -- "$OLDPWD/build/bench/scan" --size small > out 2> err )
  rc=$?
  check "$s: scan passes (exit $rc)" "[ $rc -eq 0 ] && grep -q 'scan: PASS' '$tmp/out'"
  check "$s: waveform and save file written" "[ -s '$tmp/w.fst' ] && [ -s '$tmp/w.fst.gtkw' ]"
  check "$s: no intermediate files left" "[ -z \"\$(ls '$tmp' | grep -E '^w\\.fst\\.(rtl|tmp)')\" ]"
  fst2vcd "$tmp/w.fst" > "$tmp/w.vcd" 2> /dev/null
  check "$s: fst2vcd reads it" "[ -s '$tmp/w.vcd' ]"
  r=$(aligned "$tmp/w.vcd")
  check "$s: one time axis, back end and C side aligned ($r)" "[ '$r' = ok ]"
  "$b/bin/smcosim" run --sched "$s" --json "$tmp/plain.json" -- build/bench/scan --size small > /dev/null 2>&1
  check "$s: same cycles as without --fst ($(cycles_of "$tmp/w.json"))" \
    "[ \"\$(cycles_of '$tmp/w.json')\" = \"\$(cycles_of '$tmp/plain.json')\" ]"
  n=$(grep -c '^#' "$tmp/w.vcd")
  check "$s: all three launches are in it ($n times)" "[ '$n' -gt 9000 ]"
  rm -f "$tmp"/w.*
done

# a window that ends inside the first launch
( cd "$tmp" && "$OLDPWD/$b/bin/smcosim" run --sched rtl --fst w.fst --fst-window 100:300 \
    -- "$OLDPWD/build/bench/vectoradd" --size small > out 2> err )
rc=$?
check "window: exit 0 ($rc)" "[ $rc -eq 0 ]"
check "window: waveform written, nothing else" "[ -s '$tmp/w.fst' ] && [ -z \"\$(ls '$tmp' | grep -E '^w\\.fst\\.(rtl|tmp)')\" ]"
fst2vcd "$tmp/w.fst" > "$tmp/w.vcd" 2> /dev/null
first=$(grep -m1 '^#' "$tmp/w.vcd" | tr -d '#'); last=$(grep '^#' "$tmp/w.vcd" | tail -1 | tr -d '#')
check "window: cycles 100..299 (t=$first..$last)" "[ '$first' = 1000 ] && [ '$last' = 2995 ]"
# a window no launch reaches: no file, nothing left behind
rm -f "$tmp"/w.*
( cd "$tmp" && "$OLDPWD/$b/bin/smcosim" run --sched rtl --fst w.fst --fst-window 50000:60000 \
    -- "$OLDPWD/build/bench/vectoradd" --size small > out 2> err )
check "window past the end: no file left at all" "[ -z \"\$(ls '$tmp' | grep -E '^w\\.fst')\" ]"
exit $fail
