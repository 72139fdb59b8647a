#!/usr/bin/env bash
# stats.per_sm (docs/statistics.md, "Per SM"): through `smcosim run`, with a
# benchmark and with a CUDA program on the drop-in runtime, every launch
# gets one "per_sm" entry per SM whose figures add up to the launch's
# (issue slots by reason, idle slots, active cycles, CTAs), and each SM's
# slots are its active cycles times its schedulers (one slot per scheduler
# and cycle); without the key there is no "per_sm" and every other statistic
# is the same; a bad value names the key. (The launch's totals are computed
# as these sums, so the sums also check that summation; the per-SM counting
# itself is what the unchanged golden statistics check, tests/golden.)
#   tests/timing/per-sm.sh BUILD_DIR
set -u
b=${1:-build}
cli=$b/bin/smcosim
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
for v in $(compgen -e | grep '^SMCOSIM_'); do unset "$v"; done

# sums ON.json OFF.json SCHEDULERS: the identities; prints what is wrong
sums() {
  python3 - "$@" <<'PY'
import json, sys
on = json.load(open(sys.argv[1]))["launches"]
off = json.load(open(sys.argv[2]))["launches"]
ns = int(sys.argv[3])
bad = []
if len(on) != len(off) or not on:
    bad.append("%d launches with the key, %d without" % (len(on), len(off)))
for i, (l, o) in enumerate(zip(on, off)):
    p = l.pop("per_sm", None)
    if p is None:
        bad.append("launch %d: no per_sm" % i); continue
    if "per_sm" in o:
        bad.append("launch %d: per_sm without the key" % i)
    if l != o:
        bad.append("launch %d: statistics differ with the key" % i)
    if [e["sm"] for e in p] != list(range(l["sms"])):
        bad.append("launch %d: per_sm holds SMs %s, the GPU has %d" % (i, [e["sm"] for e in p], l["sms"]))
    for k in l["issue_slots"]:
        if sum(e["issue_slots"][k] for e in p) != l["issue_slots"][k]:
            bad.append("launch %d: %s does not add up" % (i, k))
    for k, total in (("idle_slots", "idle_slots"), ("active_cycles", "sm_active_cycles"),
                     ("ctas", "blocks")):
        if sum(e[k] for e in p) != l[total]:
            bad.append("launch %d: %s does not add up to %s" % (i, k, total))
    for e in p:
        if sum(e["issue_slots"].values()) != ns * e["active_cycles"]:
            bad.append("launch %d sm %d: %d slots in %d active cycles x %d schedulers"
                       % (i, e["sm"], sum(e["issue_slots"].values()), e["active_cycles"], ns))
    if sum(1 for e in p if e["ctas"]) < min(2, l["blocks"]):
        bad.append("launch %d: the CTAs ran on fewer than two SMs" % i)
if bad:
    sys.exit("\n".join(bad[:10]))
PY
}

# a benchmark of several launches and many CTAs, on a preset with 2 schedulers
"$cli" run --config fermi-gtx480 --set stats.per_sm=1 --json "$tmp/on.json" --bench bfs --size small \
    > "$tmp/on.out" 2>&1
check "bench with stats.per_sm runs" "grep -q 'bfs: PASS' '$tmp/on.out'"
"$cli" run --config fermi-gtx480 --json "$tmp/off.json" --bench bfs --size small > "$tmp/off.out" 2>&1
check "bench: per-SM figures add up to the launch's" "sums '$tmp/on.json' '$tmp/off.json' 2"
check "bench: the text summary has the per-SM table" \
  "grep -q '^  per SM .*CTAs .*active_cycles .*issued' '$tmp/on.out' && grep -q '^    sm29 ' '$tmp/on.out' && ! grep -q '^  per SM' '$tmp/off.out'"

# a CUDA program, written the way people write them, on the default preset
prog=$b/tests/runtime/cu/rt_misc
if [ -x "$prog" ]; then
  "$cli" run --set stats.per_sm=1 --json "$tmp/pon.json" -- "$prog" > "$tmp/pon.out" 2>&1; st=$?
  check "CUDA program with stats.per_sm exits 0 ($st)" "[ $st -eq 0 ]"
  "$cli" run --json "$tmp/poff.json" -- "$prog" > "$tmp/poff.out" 2>&1
  check "CUDA program: per-SM figures add up to each launch's" "sums '$tmp/pon.json' '$tmp/poff.json' 4"
elif command -v nvcc > /dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "FAIL $prog is not built (nvcc is here: make check builds it)"; fail=1
else
  echo "SKIP: nvcc not found; the CUDA program under stats.per_sm was not run"
fi

"$cli" run --set stats.per_sm=2 --bench vectoradd --size small > "$tmp/bad.out" 2>&1; st=$?
check "a bad value names the key (exit $st)" "[ $st -ne 0 ] && grep -q 'stats.per_sm' '$tmp/bad.out'"
exit $fail
