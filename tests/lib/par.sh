# Independent jobs of a test script, run in the background a few at a time,
# their output printed afterwards in the order they were started (so a log
# reads the same however the jobs interleaved). Source it:
#
#   . tests/lib/par.sh
#   par_init "$tmp"             # a directory for the jobs' output; PAR_JOBS
#                               # (default: the number of CPUs) at a time
#   par some_function ARGS...   # one job; a non-zero status is a failed job
#   par_wait                    # prints every job's output in order and sets
#                               # par_failed to the number of failed jobs
#
# A job runs in a subshell: what it changes in the script's variables is lost,
# so a job reports through its output and its exit status only.
par_init() {
  _par_dir=$1
  _par_n=${PAR_JOBS:-$(nproc 2>/dev/null || echo 2)}
  _par_i=0
  par_failed=0
}

par() {
  while [ "$(jobs -rp | wc -l)" -ge "$_par_n" ]; do wait -n; done
  _par_i=$((_par_i + 1))
  local f=$_par_dir/par.$_par_i
  { "$@" >"$f.out" 2>&1; echo $? >"$f.rc"; } &
}

par_wait() {
  wait
  local i rc
  par_failed=0
  for ((i = 1; i <= _par_i; i++)); do
    cat "$_par_dir/par.$i.out"
    rc=$(cat "$_par_dir/par.$i.rc" 2>/dev/null || echo lost)
    [ "$rc" = 0 ] || par_failed=$((par_failed + 1))
  done
  _par_i=0
}
