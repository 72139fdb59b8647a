# What the `smcosim run` check scripts share. Source it after `cd` to the
# repository, with the build directory as $1 of the script:
#
#   . tests/lib/cli-refused.sh "${1:-build}"
#
# It sets B (the build directory), cli ($B/bin/smcosim; the script fails at
# once when it is not built), tmp (a directory removed at exit: $tmp/out and
# $tmp/err hold the last command's output) and fails (the failed checks), and
# defines
#   check NAME STATUS        ok/FAIL line; a FAIL shows $tmp/err's first lines
#   refused NAME TEXT ARGS... `smcosim run ARGS -- PROGRAM` must exit 2 with
#                            TEXT on stderr, without starting the program,
#                            and without the follow-up lines that used to
#                            blur such a message
B=$1
cli=$B/bin/smcosim
[ -x "$cli" ] || { echo "FAIL: $cli is not built"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
check() { if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; sed 's/^/     | /' "$tmp/err" | head -8; fails=$((fails + 1)); fi; }
refused() {
  local name=$1 text=$2; shift 2
  "$cli" run "$@" -- /bin/echo PROGRAM-STARTED >"$tmp/out" 2>"$tmp/err"; local rc=$?
  [ $rc -eq 2 ] && grep -qF -- "$text" "$tmp/err" && ! grep -q PROGRAM-STARTED "$tmp/out" &&
    ! grep -q "cannot create" "$tmp/err" && ! grep -q "no launch statistics" "$tmp/err"
  check "$name (exit $rc)" $?
}
