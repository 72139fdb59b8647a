#!/usr/bin/env bash
# readme-check.sh BUILD_DIR — the README says what exists: every docs/*.md is
# in its documentation list, every `make TARGET` it names is a target of this
# tree, every `smcosim SUBCOMMAND` it shows answers --help, and every folder
# of its layout exists.
set -u
B=${1:-build}
cd "$(dirname "$0")/../.."
readme=README.md
pass=0; fail=0
ok()  { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

for f in docs/*.md; do
    grep -qF -- "\`$f\`" "$readme" && ok "README lists $f" || bad "README does not list $f"
done

# Targets: "make NAME" anywhere, and the `results-*` names of the table row
# that lists several after one "make".
targets=$( { grep -oE '\bmake [a-z][a-z-]+' "$readme" | awk '{print $2}';
             grep -oE '`results-[a-z]+`' "$readme" | tr -d '`'; } | sort -u)
for t in $targets; do
    if make -n --no-print-directory "$t" >/dev/null 2>"$B/readme-make.err"; then
        ok "make $t exists"
    else
        bad "make $t: $(head -1 "$B/readme-make.err")"
    fi
done
rm -f "$B/readme-make.err"

for c in $(grep -oE '\bsmcosim [a-z][a-z-]+' "$readme" | awk '{print $2}' | sort -u); do
    "$B/bin/smcosim" "$c" --help >/dev/null 2>&1 && ok "smcosim $c --help" \
        || bad "smcosim $c --help fails (the README shows it)"
done

# The layout block: lines "    NAME/  text" between "## Layout" and the next heading.
for d in $(sed -n '/^## Layout/,/^## /p' "$readme" | grep -oE '^    [a-z-]+/' | tr -d ' /'); do
    [ -d "$d" ] && ok "layout folder $d/ exists" || bad "layout names $d/, which does not exist"
done

echo "readme-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
