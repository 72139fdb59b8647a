#!/usr/bin/env bash
# The offload back end through `smcosim run` (docs/offload.md):
#   - --sched offload:T gives statistics JSON identical to --sched c (but
#     the "sched" field) on benchmarks under several policies, HAWS and
#     OAWS included;
#   - --check-rtl offload:T:K (the C model drives, its tokens replayed on T
#     K cycles at a time) passes with JSON identical to a plain run for
#     K = 1, 7, 4096; a flip injected into one SM's device outputs at one
#     cycle (SMCOSIM_TEST_LOCKSTEP_INJECT=SM:CYCLE) fails the run with the
#     same report for every K, naming the SM, cycle and signal lockstep
#     names for the same injection;
#   - errors name their cause and exit non-zero.
# T: every transport of SMCOSIM_OFFLOAD_TRANSPORTS (comma-separated
# "name[:arg]", default cmodel).
#   tests/offload/offload-run.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
b=${1:-build}
smc=$b/bin/smcosim
[ -x "$smc" ] || { echo "FAIL: $smc is not built"; exit 1; }
for v in $(compgen -e | grep '^SMCOSIM_' | grep -v '^SMCOSIM_OFFLOAD_TRANSPORTS$'); do unset "$v"; done
transports=${SMCOSIM_OFFLOAD_TRANSPORTS:-cmodel}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. tests/offload/run-lib.sh
cases="vectoradd:lrr gemm:gto spmv:two-level bfs:oaws-dyn kmeans:swl:4"

IFS=, read -r -a tlist <<< "$transports"
for t in "${tlist[@]}"; do
  for c in $cases; do
    bench=${c%%:*}; pol=${c#*:}; l=$(echo "$bench-$pol" | tr -d :)
    [ -f "$tmp/c-$l.json" ] || run "c-$l" --sched c --policy "$pol" --bench "$bench" --size small
    run "o-$l" --sched "offload:$t" --policy "$pol" --bench "$bench" --size small
    check "$t: $bench $pol: offload JSON = c JSON" \
      "[ \$(cat $tmp/o-$l.rc) -eq 0 ] && grep -q '\"sched\": \"offload\"' $tmp/o-$l.json && same_json c-$l o-$l"
  done
  # HAWS: hint-mode fetches, RCU return passes, branch outcomes cross the wire too
  [ -f "$tmp/c-haws.json" ] || run c-haws --sched c --set sched.haws=warp --bench gemm --size small
  run o-haws --sched "offload:$t" --set sched.haws=warp --bench gemm --size small
  check "$t: gemm HAWS: offload JSON = c JSON" "[ \$(cat $tmp/o-haws.rc) -eq 0 ] && same_json c-haws o-haws"
  # the transport from the configuration key instead of --sched offload:T
  run o-key --sched offload --set "sched.offload_transport=$t" --bench vectoradd --size small
  check "$t: sched.offload_transport selects it" "[ \$(cat $tmp/o-key.rc) -eq 0 ] && same_json c-vectoradd-lrr o-key"

  # replay/check
  for k in 1 7 4096; do
    run "chk-$k" --sched c --check-rtl "offload:$t:$k" --policy gto --bench gemm --size small
    check "$t: --check-rtl k=$k passes, JSON = plain run" \
      "[ \$(cat $tmp/chk-$k.rc) -eq 0 ] && same_json c-gemm-gto chk-$k"
    SMCOSIM_TEST_LOCKSTEP_INJECT=3:500 run "inj-$k" --sched c --check-rtl "offload:$t:$k" --policy gto --bench gemm --size small
    grep -o 'failed on SM [0-9]* at cycle [0-9]*: offload check mismatch at cycle [0-9]*: [^ ]*: [a-z]*=0x[0-9a-f]* offload=0x[0-9a-f]*' \
      "$tmp/inj-$k.err" | head -1 > "$tmp/inj-$k.msg"
    check "$t: k=$k: injected flip fails the run" "[ \$(cat $tmp/inj-$k.rc) -ne 0 ]"
    check "$t: k=$k: reported at SM 3, its cycle 500, stall_reason[0]" \
      "grep -q 'SM 3 at cycle 499: offload check mismatch at cycle 500: stall_reason\[0\]:' $tmp/inj-$k.msg"
  done
  check "$t: the report does not depend on k" "cmp -s $tmp/inj-1.msg $tmp/inj-7.msg && cmp -s $tmp/inj-1.msg $tmp/inj-4096.msg"
done

# the same injection under lockstep (the C model's side flipped): same SM, cycles, signal
SMCOSIM_TEST_LOCKSTEP_INJECT=3:500 run ls --sched lockstep --mismatch-window 0 --policy gto --bench gemm --size small
check "lockstep reports the same SM, cycles and signal" \
  "grep -q 'SM 3 at cycle 499: lockstep mismatch at cycle 500: stall_reason\[0\]:' $tmp/ls.err"

# The netlist transport (OpenCL on PoCL) end to end: a core the netlist
# tests build a program for (8 warps, 4 schedulers: 8_4_8_4_2_3_8_8), so
# the presets' minutes-long Yosys runs stay out of make test.
if [ -f build/offload/8_4_8_4_2_3_8_8.snl ]; then
  export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/build/offload/pocl-cache}
  small="--set sm.max_warps=8 --set sm.max_threads=256 --set sched.num=4 --set sched.reg_id_width=8 --set sched.ibuf_depth=4
         --set sched.sb_entries=2 --set sched.wb_ports=3"
  for c in vectoradd:lrr gemm:gto bfs:oaws-dyn; do
    bench=${c%%:*}; pol=${c#*:}; l=$(echo "nl-$bench-$pol" | tr -d :)
    run "c-$l" --sched c $small --policy "$pol" --bench "$bench" --size small
    run "o-$l" --sched offload:netlist $small --policy "$pol" --bench "$bench" --size small
    check "netlist: $bench $pol (8_4_8_4_2_3 core): offload JSON = c JSON" \
      "[ \$(cat $tmp/c-$l.rc) -eq 0 ] && [ \$(cat $tmp/o-$l.rc) -eq 0 ] && same_json c-$l o-$l"
  done
  run nl-chk --sched c --check-rtl offload:netlist:64 $small --policy gto --bench gemm --size small
  check "netlist: --check-rtl k=64 passes, JSON = plain run" \
    "[ \$(cat $tmp/nl-chk.rc) -eq 0 ] && same_json c-nl-gemm-gto nl-chk"
  # the default transport of --sched offload is netlist; make test builds
  # no program for the Kepler preset (make check-long does): without it the
  # message names the file, with it the run equals the C model's
  if [ ! -f build/offload/64_4_8_2_6_4_8_8.snl ]; then
    run nl-missing --sched offload --bench vectoradd --size small
    check "netlist: a preset without a program file fails naming the file" \
      "[ \$(cat $tmp/nl-missing.rc) -ne 0 ] && grep -q '64_4_8_2_6_4_8_8.snl' $tmp/nl-missing.err"
  else
    # built by an earlier check-long: current, it must equal the C model;
    # from an older rtl/, it must be refused as stale, naming the file
    run c-kepler --sched c --bench vectoradd --size small
    run o-kepler --sched offload --bench vectoradd --size small
    if grep -q 'stale:' "$tmp/o-kepler.err"; then
      check "netlist: the Kepler preset's program is from an older rtl/: refused as stale, naming it" \
        "[ \$(cat $tmp/o-kepler.rc) -ne 0 ] && grep -q '64_4_8_2_6_4_8_8.snl: stale' $tmp/o-kepler.err"
    else
      check "netlist: the Kepler preset's program (built by check-long): offload JSON = c JSON" \
        "[ \$(cat $tmp/c-kepler.rc) -eq 0 ] && [ \$(cat $tmp/o-kepler.rc) -eq 0 ] && same_json c-kepler o-kepler"
    fi
  fi
else
  echo "FAIL: build/offload/8_4_8_4_2_3_8_8.snl is not built (make test builds it)"; fail=1
fi

# errors: the cause named, a non-zero exit
err_case() {   # label, expected text, args...
  local l=$1 want=$2; shift 2
  run "e-$l" "$@" --bench vectoradd --size small
  check "error $l: exit != 0 and names '$want'" "[ \$(cat $tmp/e-$l.rc) -ne 0 ] && grep -qF -e \"$want\" $tmp/e-$l.err"
}
err_case unknown "offload transport 'warp-drive': unknown" --sched offload:warp-drive
err_case device "offload transport cmodel failed: injected device failure" --sched offload:cmodel:fail_at=40
err_case check-device "transport cmodel failed: injected device failure" --sched c --check-rtl offload:cmodel:fail_at=0:8
err_case k0 "--check-rtl 'offload:cmodel:0': K must be" --sched c --check-rtl offload:cmodel:0
err_case check-spec "expected off or offload" --sched c --check-rtl verilator
err_case check-offload "not of --sched offload" --sched offload:cmodel --check-rtl offload:cmodel
err_case fst "no waveform" --sched offload:cmodel --fst "$tmp/x.fst"
err_case bad-sched "unknown scheduler back end 'offlaod'" --sched offlaod
[ $fail -eq 0 ] || { echo "offload-run: FAIL"; exit 1; }
echo "offload-run: $n checks passed"
