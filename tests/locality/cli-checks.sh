#!/usr/bin/env bash
# `smcosim run --locality KERNEL=HINT,...` (docs/locality.md): a bad value is
# refused before the program starts, with a message naming the kernel and the
# value; a good one reaches the launch record of the kernel it names (and
# only that kernel).
#   tests/locality/cli-checks.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
. tests/lib/cli-refused.sh "${1:-build}"   # B, cli, tmp, fails, check, refused
refused "hint out of range"   "kernel conv2d: hint '7'"  --locality gemm=1,conv2d=7
refused "hint not auto"       "kernel gemm: hint 'autox'" --locality gemm=autox
refused "hint not a number"   "kernel gemm: hint 'x'"    --locality gemm=x
refused "entry without ="     "'gemm': expected KERNEL=HINT" --locality gemm
refused "kernel named twice"  "kernel gemm is given twice" --locality gemm=1,gemm=2
refused "gpu.locality_hint out of range" "gpu.locality_hint" --set gpu.locality_hint=4

# 2mm has two kernels: only the one named gets the hint
"$cli" run --json "$tmp/s.json" --locality mm2_kernel1=2 --bench 2mm --size small >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && python3 - "$tmp/s.json" <<'PY'
import json, sys
L = json.load(open(sys.argv[1]))["launches"]
h = {l["kernel"]: l.get("locality_hint", 0) for l in L}
sys.exit(0 if h == {"mm2_kernel1": 2, "mm2_kernel2": 0} else 1)
PY
check "--locality reaches the named kernel's launch only (exit $rc)" $?

# gpu.locality_hint=auto (docs/locality.md, "Automatic detection"): gemm's
# blocks of one row read the same rows of A and those of one column the same
# columns of B (type 1); conv2d's 3x3 window reads lines of the neighbouring
# blocks only (type 2); transpose_naive reads every element once (no shared
# line: 0). jacobi2d's first kernel detects at its first launch and its later
# launches run with the detected hint.
"$cli" run --json "$tmp/a.json" --set gpu.locality_hint=auto --bench gemm conv2d transpose jacobi2d --size small >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && python3 - "$tmp/a.json" <<'PY'
import json, sys
L = json.load(open(sys.argv[1]))["launches"]
det = {}
for l in L:
    if "locality_detected" in l:
        det.setdefault(l["kernel"], l["locality_detected"])
ok = det.get("gemm") == 1 and det.get("conv2d") == 2 and det.get("transpose_naive") == 0
j = [l for l in L if l["kernel"] == "jacobi2d_kernel1"]
ok = ok and "locality_detected" in j[0] and len(j) > 1 and all(
    l.get("locality_hint", 0) == j[0]["locality_detected"] and "locality_detected" not in l for l in j[1:])
sys.exit(0 if ok else 1)
PY
check "auto detects gemm 1, conv2d 2, transpose 0 and applies it to later launches (exit $rc)" $?

# --locality KERNEL=auto: only the named kernel detects
"$cli" run --json "$tmp/b.json" --locality jacobi2d_kernel1=auto --bench jacobi2d --size small >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && python3 - "$tmp/b.json" <<'PY'
import json, sys
L = json.load(open(sys.argv[1]))["launches"]
d = [l["kernel"] for l in L if "locality_detected" in l]
sys.exit(0 if d == ["jacobi2d_kernel1"] else 1)
PY
check "--locality KERNEL=auto: the named kernel detects, the other does not (exit $rc)" $?

echo "locality cli-checks: $fails failed checks"
[ $fails -eq 0 ]
