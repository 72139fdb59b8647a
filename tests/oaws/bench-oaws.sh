#!/usr/bin/env bash
# `make bench` table of what OAWS and its peers cost in simulation speed
# (issue 18: OAWS on, at least 80 % of GTO's SM-cycles/s): simulated
# SM-cycles per second of each policy on the fermi-gtx480 preset (the
# paper's Table 1), default sizes, divergent benchmarks, and the ratio to
# GTO on the same back end. Host time is the simulation time the model
# reports ("simulation ... s host"); each row is the best of REPS runs
# (default 2; the host is shared, so single runs are noisy). The rtl rows
# run the core and, under OAWS, the DLC as Verilated RTL.
#   tests/oaws/bench-oaws.sh BUILD_DIR [REPS]
set -eu
b=$1; reps=${2:-2}
smcosim=$b/bin/smcosim
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sum() {   # FILE KEY: the key summed over the launch records
  grep -o "\"$2\": [0-9.]*" "$1" | awk '{s += $2} END {printf "%d", s}'
}
rate() {   # BENCH POLICY SCHED -> best SM-cycles/s of $reps runs
  local best=0
  for _ in $(seq "$reps"); do
    "$smcosim" run --config fermi-gtx480 --policy "$2" --sched "$3" --json "$tmp/s.json" \
        --bench "$1" > /dev/null 2> "$tmp/log" \
      || { echo "bench-oaws: $1/$2/$3 failed:" >&2; tail -5 "$tmp/log" >&2; exit 1; }
    local host smc
    host=$(grep -o 'simulation *[0-9.]* s host' "$tmp/log" | awk '{s += $2} END {print s}')
    smc=$(sum "$tmp/s.json" sm_active_cycles)
    best=$(awk -v s="$smc" -v h="$host" -v b="$best" 'BEGIN { r = s / h; print (r > b ? r : b) }')
  done
  echo "$best"
}
printf '%-8s %-8s %-14s %14s %10s\n' benchmark sched policy SM-cycles/s vs-GTO
row() {   # BENCH SCHED POLICY...
  local name=$1 be=$2; shift 2
  local gto; gto=$(rate "$name" gto "$be")
  printf '%-8s %-8s %-14s %14.0f %10s\n' "$name" "$be" gto "$gto" 1.00
  for p in "$@"; do
    local r; r=$(rate "$name" "$p" "$be")
    awk -v n="$name" -v be="$be" -v p="$p" -v r="$r" -v g="$gto" \
      'BEGIN { printf "%-8s %-8s %-14s %14.0f %10.2f\n", n, be, p, r, r / g }'
  done
}
for name in spmv atax bfs; do
  row "$name" c oaws-static oaws-dyn ccws mascar
done
row spmv rtl oaws-dyn
