#!/usr/bin/env bash
# `make bench` row for TEG (docs/teg.md, R8): TEG and the cycle model on the
# same trace, warp-instructions per second of each and the ratio. The traces
# are teg validate's MatA (mm_abt_conflict) at W = 8 on kepler-k20x and the
# real NVBit matrixmul trace (tests/trace/real/, 600 times) on pascal-titanx.
# Host time: the wall time of the whole command (start-up, reading the text
# trace, the model), best of 3.
#   tests/teg/bench-teg.sh BUILD_DIR
set -eu
b=$1
smcosim=$b/bin/smcosim
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
best() {   # best CMD...: the shortest wall time of 3 runs, in seconds
    local t best=
    for _ in 1 2 3; do
        /usr/bin/time -o "$tmp/time" -f %e "$@" >/dev/null 2>&1
        t=$(tail -1 "$tmp/time")
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
    done
    echo "$best"
}
"$smcosim" teg validate --kernel mm_abt_conflict --warps 8 --config kepler-k20x --trace-out "$tmp/mata" \
    >/dev/null 2>&1 || { echo "bench-teg: teg validate failed" >&2; exit 1; }
: >"$tmp/mm.g"
for _ in $(seq 1 600); do echo "$here/trace/real/matrixmul-32-32/kernel-1.traceg.xz" >>"$tmp/mm.g"; done
printf '| trace | preset | warp-insts | TEG s | TEG warp-insts/s | cycle model s | cycle model warp-insts/s | TEG / cycle model |\n'
printf '|---|---|---:|---:|---:|---:|---:|---:|\n'
for spec in "MatA-W8:$tmp/mata/kernelslist.g:kepler-k20x" "matrixmul-32-32x600:$tmp/mm.g:pascal-titanx"; do
    IFS=: read -r name list preset <<<"$spec"
    "$smcosim" teg --trace "$list" --config "$preset" --json "$tmp/t.json" >/dev/null 2>&1 \
        || { echo "bench-teg: teg on $name failed" >&2; exit 1; }
    n=$(python3 -c "import json,sys; print(sum(k['warp_insts'] for k in json.load(open(sys.argv[1]))['kernels']))" "$tmp/t.json")
    tt=$(best "$smcosim" teg --trace "$list" --config "$preset")
    tr=$(best "$smcosim" run --trace "$list" --config "$preset")
    awk -v n="$name" -v p="$preset" -v w="$n" -v a="$tt" -v c="$tr" 'BEGIN {
        printf "| %s | %s | %d | %.3f | %.2f M | %.3f | %.2f M | %.1fx |\n", n, p, w, a, w / a / 1e6, c, w / c / 1e6, c / a }'
done
