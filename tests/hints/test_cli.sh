#!/usr/bin/env bash
# test_cli.sh — `smcosim ptx-info --hints` (docs/haws.md "Hint pass"): the
# per-kernel counts agree with the instruction lines and the chain lines
# printed below them (structure, not copied output), options and hint files
# reach the pass, bad input exits non-zero naming the key or rule.
# Usage: tests/hints/test_cli.sh BUILD_DIR
set -u
cli="${1:-build}/bin/smcosim"
pass=0; fail=0
ok()  { pass=$((pass + 1)); echo "[       OK ] $1"; }
bad() { fail=$((fail + 1)); echo "[  FAILED  ] $1"; [ -n "${2:-}" ] && echo "$2" | head -8; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Per kernel: the HAWS summary line's counts against the lines below it.
# Prints one line per kernel: "name ok" or "name MISMATCH what".
consistency() {
  awk '
    function flush() {
      if (k == "") return
      why = ""
      if (sp != n_stall) why = why " stall points " sp "/" n_stall
      if (ch != n_entry || ch != n_chain) why = why " chains " ch "/" n_entry "/" n_chain
      if (hi != n_member) why = why " hinted " hi "/" n_member
      if (rn != n_rename) why = why " renames " rn "/" n_rename
      for (m in owner) if (!(owner[m] in entry)) why = why " member-of-unknown-stall " owner[m]
      print k, (why == "" ? "ok" : "MISMATCH" why)
    }
    /: kernel / { flush(); k = $NF; n_stall = n_entry = n_chain = n_member = n_rename = 0; delete owner; delete entry }
    /^    HAWS: / { sp = $2; ch = $5; hi = $7; rn = $14 }
    /^ +[0-9]+ +[0-9]+ [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f] / {
      if ($0 ~ /stall point/) n_stall++
      if ($0 ~ /stall point, chain ->/) { n_entry++; entry[$1] = 1 }
      if ($0 ~ /member of /) { n_member++; for (i = 1; i <= NF; i++) if ($i == "of") { o = $(i + 1); sub(/,/, "", o); owner[$1] = o; break } }
      if ($0 ~ /rename r[0-9]+ => r[0-9]+/) n_rename++
    }
    /^    chain [0-9]+ \(line/ { n_chain++ }
    END { flush() }'
}

out=$("$cli" ptx-info --hints tests/hints/ptx/hints.ptx 2>&1); st=$?
res=$(consistency <<<"$out")
nk=$(grep -c '^\.visible \.entry' tests/hints/ptx/hints.ptx)
if [ $st -eq 0 ] && ! grep -q MISMATCH <<<"$res" && [ "$(grep -c ' ok$' <<<"$res")" -eq "$nk" ]; then ok "ptx-info --hints: counts agree with the listing ($nk kernels)"
else bad "ptx-info --hints: counts agree with the listing" "$res"; fi
# the fig53 chain as worked out by hand: 3 -> 4 -> 6
if grep -q '^    chain 3 (line [0-9]*): -> 4 -> 6$' <<<"$(awk '/kernel fig53/{f=1} /kernel war_rename/{f=0} f' <<<"$out")"
then ok "fig53: chain 3 -> 4 -> 6"; else bad "fig53: chain 3 -> 4 -> 6" "$out"; fi
# every instruction of the kernel is listed
n=$(awk '/kernel eight_members/{f=1;next} /: kernel /{f=0} f && /^ +[0-9]+ +[0-9]+ [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f] /' <<<"$out" | wc -l)
if [ "$n" -eq 27 ]; then ok "eight_members: 27 instruction lines"; else bad "eight_members: $n instruction lines, want 27"; fi

all_ok=1
for f in bench/ptx/*.ptx; do
  o=$("$cli" ptx-info --hints "$f" 2>&1) || { all_ok=0; bad "$f: exit status" "$o"; continue; }
  r=$(consistency <<<"$o")
  grep -q MISMATCH <<<"$r" && { all_ok=0; bad "$f" "$r"; }
done
[ $all_ok -eq 1 ] && ok "bench/ptx: every kernel's counts agree with its listing"
chains=$("$cli" ptx-info --hints bench/ptx/matmul.ptx | awk '/kernel matmul_naive/{f=1} /kernel matmul_tiled/{f=0} f && /^    HAWS:/{print $5}')
if [ "${chains:-0}" -gt 0 ]; then ok "matmul_naive has chains ($chains)"; else bad "matmul_naive has no chain"; fi

# options reach the pass
# HAWS line fields: $10 "(M" memory members, $12 branch members
members() { awk -v f="$1" '/^    HAWS:/{v = $f; gsub(/[^0-9]/, "", v); s += v} END{print s + 0}'; }
mem1=$("$cli" ptx-info --hints tests/hints/ptx/hints.ptx | members 10)
mem=$("$cli" ptx-info --hints --set haws.mem_hints=0 tests/hints/ptx/hints.ptx | members 10)
[ "$mem1" -gt 0 ] || bad "hints.ptx has no memory members by default"
if [ "$mem" -eq 0 ]; then ok "--set haws.mem_hints=0: no memory members"; else bad "--set haws.mem_hints=0: $mem memory members"; fi
br1=$("$cli" ptx-info --hints bench/ptx/matmul.ptx | members 12)
br=$("$cli" ptx-info --hints --set haws.branch_hints=off bench/ptx/matmul.ptx | members 12)
[ "$br1" -gt 0 ] || bad "matmul.ptx has no branch members by default"
if [ "$br" -eq 0 ]; then ok "--set haws.branch_hints=off: no branch members"; else bad "--set haws.branch_hints=off: $br"; fi

# a hint file, readable form, replaces the pass's words for fig53 only
printf 'fig53 3 offset=1 # entry\nfig53 4 offset=0\n' > "$tmp/h.txt"
o=$("$cli" ptx-info --hints --set "haws.hints_file=$tmp/h.txt" tests/hints/ptx/hints.ptx 2>&1)
if grep -q '^    chain 3 (line [0-9]*): -> 4$' <<<"$o" && grep -q 'hints from file' <<<"$o" &&
   [ "$(grep -c 'hints from file' <<<"$o")" -eq 1 ]; then ok "hint file replaces one kernel's hints"
else bad "hint file replaces one kernel's hints" "$o"; fi

# errors
printf 'barrier_shadow 3 offset=2\nbarrier_shadow 5 offset=0\n' > "$tmp/bad.txt"
o=$("$cli" ptx-info --hints --set "haws.hints_file=$tmp/bad.txt" tests/hints/ptx/hints.ptx 2>&1); st=$?
if [ $st -eq 1 ] && grep -q 'kernel barrier_shadow pc 5 (line [0-9]*): HAWS hint names a barrier.*\[rule barrier-member\]' <<<"$o"
then ok "unsafe hint file: exit 1 naming kernel, pc, line and rule"; else bad "unsafe hint file (status $st)" "$o"; fi
o=$("$cli" ptx-info --hints --set haws.validate=0 --set "haws.hints_file=$tmp/bad.txt" tests/hints/ptx/hints.ptx 2>&1); st=$?
if [ $st -eq 0 ]; then ok "haws.validate=0 accepts it"; else bad "haws.validate=0 (status $st)" "$o"; fi
printf 'fig53 3 offset=x\n' > "$tmp/malformed.txt"
o=$("$cli" ptx-info --hints --set "haws.hints_file=$tmp/malformed.txt" tests/hints/ptx/hints.ptx 2>&1); st=$?
if [ $st -eq 1 ] && grep -q "malformed.txt:1: field 'offset'" <<<"$o"; then ok "malformed hint file: file, line and field"
else bad "malformed hint file (status $st)" "$o"; fi
o=$("$cli" ptx-info --hints --set haws.bogus=1 tests/hints/ptx/hints.ptx 2>&1); st=$?
if [ $st -eq 2 ] && grep -q "haws.bogus" <<<"$o"; then ok "unknown key: exit 2 naming it"; else bad "unknown key (status $st)" "$o"; fi
o=$("$cli" ptx-info --hints 2>&1); st=$?
if [ $st -eq 2 ] && grep -q "usage: smcosim ptx-info" <<<"$o"; then ok "no file: usage, exit 2"; else bad "no file (status $st)" "$o"; fi
o=$("$cli" ptx-info tests/hints/ptx/hints.ptx 2>&1)
if ! grep -q "HAWS" <<<"$o"; then ok "without --hints: no HAWS lines"; else bad "without --hints" "$o"; fi

echo "[==========] hints cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
