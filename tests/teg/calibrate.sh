#!/usr/bin/env bash
# tests/teg/calibrate.sh BUILD — `smcosim teg calibrate --quick` (TEG's
# calibration microbenchmarks, seed 003; ../shared/design/teg.md §5.5, R5,
# §6 item 6; docs/teg.md, "Calibration") on kepler-k20x and fermi-gtx480:
# every configured exec latency recovered exactly, every accept interval
# within 5 %, the shared and L1 latencies and the bank-conflict slope. The
# expected values come from the configuration (`smcosim config --config P`,
# worked out below), never from the program's own output; the two
# fermi-gtx480 rows its per-opcode latencies (unit.opcode_latency = g321)
# move are expected at what that table gives, from the same keys. Also:
# --out reads back with `smcosim teg params --params FILE`, --json parses,
# the committed kernels are fresh (nvcc), bad arguments exit 2.
set -u
B=${1:-build}
SMC=$B/bin/smcosim
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
ok()  { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }

if [ ! -x "$SMC" ]; then echo "SKIP: $SMC not built"; exit 0; fi

# 1. the committed kernels and PTX are what the generator and nvcc give
out=$(bench/microbench/regen.sh --check teg teg-validate 2>&1); st=$?
echo "$out" | grep '^SKIP' || true
[ $st -eq 0 ] && ok "teg_kernels.cu/.ptx and teg_validate.ptx fresh" \
    || { echo "$out"; bad "teg_kernels.cu/.ptx and teg_validate.ptx fresh"; }

# 2. arguments
"$SMC" teg calibrate --bogus >"$T/o" 2>"$T/e"; st=$?
[ $st -eq 2 ] && grep -q "bad argument '--bogus'" "$T/e" && grep -q "usage: smcosim teg calibrate" "$T/e" \
    && ok "bad argument: exit 2, usage" || bad "bad argument (status $st)"
"$SMC" teg calibrate --config no-such-preset >"$T/o" 2>"$T/e"; st=$?
[ $st -eq 2 ] && grep -q "no-such-preset" "$T/e" && ok "unknown preset: exit 2, named" || bad "unknown preset (status $st)"
"$SMC" teg calibrate --ptx "$T/none.ptx" >"$T/o" 2>"$T/e"; st=$?
[ $st -eq 2 ] && grep -q "none.ptx" "$T/e" && ok "missing PTX: exit 2, named" || bad "missing PTX (status $st)"
"$SMC" teg calibrate --help >"$T/o" 2>"$T/e"; st=$?
[ $st -eq 0 ] && grep -q "usage: smcosim teg calibrate" "$T/o" && ok "--help" || bad "--help (status $st)"

# 3. both presets; the unwritable --out of the second run must fail with
#    status 1 and leave nothing behind
for P in kepler-k20x fermi-gtx480; do
    if "$SMC" teg calibrate --config $P --quick --out "$T/$P.params" --json "$T/$P.json" >"$T/$P.md" 2>"$T/$P.err"; then
        ok "$P: calibrate --quick ran"
    else
        bad "$P: calibrate --quick: $(tail -3 "$T/$P.err")"; continue
    fi
    "$SMC" config --config $P >"$T/$P.cfg" 2>&1 || bad "$P: smcosim config"
    [ -e "$T/$P.params.tmp" ] || [ -e "$T/$P.json.tmp" ] && bad "$P: a .tmp file was left"
    if "$SMC" teg params --params "$T/$P.params" --keys >"$T/$P.keys" 2>"$T/$P.kerr"; then
        ok "$P: --out reads back (teg params --params FILE)"
    else
        bad "$P: --out does not read back: $(cat "$T/$P.kerr")"
    fi
    grep -q "^| class | instruction | exec configured | exec calibrated" "$T/$P.md" \
        && ok "$P: the R5 table is printed" || bad "$P: no R5 table"
    # The checks: expected values from the configuration's keys.
    python3 - "$P" "$T/$P.cfg" "$T/$P.json" "$T/$P.keys" <<'EOF' || fails=$((fails + 1))
import json, sys
preset, cfgf, jsonf, keysf = sys.argv[1:5]
def keys(path):
    d = {}
    for line in open(path):
        if line.startswith("#") or "=" not in line:
            continue
        k, v = line.split("=", 1)
        d[k.strip()] = v.split("#", 1)[0].strip()
    return d
cfg, tk = keys(cfgf), keys(keysf)
res = json.load(open(jsonf))
num = lambda k: int(cfg[k])
engines, wb = num("sched.num"), num("sched.wb_ports")
g321 = cfg["unit.opcode_latency"] == "g321"
inst = lambda u: num(f"unit.{u}.private") * engines + num(f"unit.{u}.shared")
# The unit of each class in the cycle model and in TEG's from-config set
# (docs/timing-model.md "Functional units"; csrc/teg/teg_params.c): integer
# multiply on the int unit, double on the dpu, sin on the sfu, the rest on sp.
unit = {"int": "sp", "int_mul": "int", "fp32": "sp", "fmul": "sp", "fp64": "dpu", "sfu": "sfu", "conv": "sp"}
bad = 0
def check(cond, what):
    global bad
    print(("ok   " if cond else "FAIL ") + f"{preset}: {what}")
    bad += not cond
for c in res["classes"]:
    if c["info"] or c["class"] not in unit:
        continue
    k, u = c["class"], unit[c["class"]]
    # exec: unit.K.latency; with g321 a conversion is "every other opcode:
    # latency 1" plus unit.issue_stages (the key's own description)
    want = num(f"unit.{u}.latency")
    why = f"unit.{u}.latency"
    if g321 and k == "conv":
        want, why = 1 + num("unit.issue_stages"), "g321: 1 + unit.issue_stages"
    check(c["exec"]["calibrated"] == want, f"{k} exec {c['exec']['calibrated']} == {want} ({why})")
    check(tk.get(f"{k}.exec") == str(want), f"{k}.exec = {tk.get(f'{k}.exec')} in --out")
    # accept: the from-config interval unit.K.ii of one of its inst(K) units;
    # the SM's throughput min(sched.num, inst / ii, sched.wb_ports) (GPUDIAG's
    # rule, docs/gpudiag.md); with g321 double precision runs on the sp
    # units at unit.dpu.ii (the dp ADD initiation column), so TEG's one dpu
    # sees inst(dpu) / throughput
    ii, n_model, n_teg = num(f"unit.{u}.ii"), inst(u), inst(u)
    if g321 and k == "fp64":
        n_model = inst("sp")
    thr = min(engines, n_model / ii, wb)
    want_acc = n_teg / thr
    a = c["accept"]
    check(abs(a["throughput"] - thr) <= 0.05 * thr, f"{k} throughput {a['throughput']:.3f} within 5 % of {thr:.3f}")
    if thr >= engines:   # issue-bound: any interval up to n / throughput fits
        check(a["issue_bound"] and a["calibrated"] >= 0.95 * ii and a["file"] == ii,
              f"{k} accept issue-bound: {a['calibrated']:.2f} >= {ii}, file {a['file']} == {ii}")
    else:
        check(abs(a["calibrated"] - want_acc) <= 0.05 * want_acc and a["file"] == round(want_acc),
              f"{k} accept {a['calibrated']:.2f} within 5 % of {want_acc:g}, file {a['file']}")
    check(tk.get(f"{k}.accept") == str(a["file"]), f"{k}.accept = {tk.get(f'{k}.accept')} in --out")
# memory: the buffered LD/ST path adds 3 cycles (ldst.id_oc > 0,
# docs/timing-model.md); a bank degree d adds d - 1 (docs/memory-model.md)
path = 3 if num("ldst.id_oc") > 0 else 0
sm = res["smem"]
check(sm["latency"]["calibrated"] == num("smem.latency") + path,
      f"smem latency {sm['latency']['calibrated']} == smem.latency + {path}")
check(abs(sm["pass_cycles"]["calibrated"] - 1.0) < 1e-6 and sm["worst_residual"] < 1e-6,
      f"smem pass_cycles {sm['pass_cycles']['calibrated']} == 1, residual {sm['worst_residual']}")
gm = res["gmem"]
check(gm["l1_hit"] == num("l1d.latency") + path, f"L1 hit {gm['l1_hit']} == l1d.latency + {path}")
check(tk.get("gmem.latency") == str(int(gm["latency"]["calibrated"] + 0.5)) and gm["latency"]["calibrated"] > gm["l1_hit"],
      f"gmem.latency = {tk.get('gmem.latency')} in --out (DRAM chase {gm['latency']['calibrated']:.2f})")
check(tk.get("smem.latency") == str(num("smem.latency") + path), f"smem.latency = {tk.get('smem.latency')} in --out")
check(int(tk.get("gmem.inflight_bytes", "0")) == gm["inflight_bytes"]["calibrated"] > 0,
      f"gmem.inflight_bytes = {tk.get('gmem.inflight_bytes')} in --out")
sys.exit(1 if bad else 0)
EOF
done

# 4. a file that cannot be written: status 1, nothing left
"$SMC" teg calibrate --config kepler-k20x --quick --out "$T/no/such/dir/x.params" >"$T/o" 2>"$T/e"; st=$?
[ $st -eq 1 ] && grep -q "cannot write" "$T/e" && [ ! -e "$T/no" ] && ok "unwritable --out: exit 1" \
    || bad "unwritable --out (status $st): $(cat "$T/e" | tail -2)"

[ $fails -eq 0 ] && echo "calibrate: PASS" || echo "calibrate: $fails FAILED"
exit $((fails != 0))
