# Sourced by the offload scripts that drive `smcosim run` (offload-run.sh,
# offload-presets.sh). Needs $smc (the binary) and $tmp (a scratch folder);
# counts checks in $n and failures in $fail.
fail=0; n=0
# check LABEL SHELL-CONDITION: prints ok/FAIL
check() { n=$((n + 1)); if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
# run LABEL SMCOSIM-RUN-ARGS...: JSON in $tmp/LABEL.json, output in .err, exit in .rc
run() {
  local l=$1; shift
  "$smc" run --json "$tmp/$l.json" "$@" > "$tmp/$l.err" 2>&1
  echo $? > "$tmp/$l.rc"
}
# same_json A B: the JSON of two runs equal, the "sched" field aside
same_json() {
  sed 's/"sched": "[a-z]*"/"sched": "-"/' "$tmp/$1.json" > "$tmp/$1.cmp"
  sed 's/"sched": "[a-z]*"/"sched": "-"/' "$tmp/$2.json" > "$tmp/$2.cmp"
  [ -s "$tmp/$1.cmp" ] && cmp -s "$tmp/$1.cmp" "$tmp/$2.cmp"
}
