#!/usr/bin/env bash
# The benchmark suite end to end (docs/benchmarks.md).
#
#   bench/run-suite.sh [--cuda|--emu] [--size small|default|large|paper] [NAME...]
#
# --cuda  builds the CUDA programs bench/cuda/NAME.cu with nvcc (into
#         build/bench/) and runs each unmodified on the project's drop-in
#         runtime (LD_LIBRARY_PATH=build/lib, libcudart.so.13);
# --emu   runs the same kernels from the committed PTX through
#         build/bin/smcosim-bench (no nvcc needed).
# Default: --cuda when nvcc and the runtime's sources are present, else --emu.
# Without NAME: the default suite (smcosim-bench --names). Prints one line
# per benchmark and "benchmarks: N passed, M failed"; exits 1 if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH

mode=auto size=default names=()
while [ $# -gt 0 ]; do
  case $1 in
    --cuda) mode=cuda ;;
    --emu) mode=emu ;;
    --size) [ $# -ge 2 ] || { echo "run-suite: --size needs a value" >&2; exit 2; }
            size=$2; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "run-suite: unknown option '$1'" >&2; exit 2 ;;
    *) names+=("$1") ;;
  esac
  shift
done
case $size in small|default|large|paper) ;; *) echo "run-suite: unknown --size '$size'" >&2; exit 2 ;; esac

have_nvcc=0; command -v nvcc >/dev/null 2>&1 && have_nvcc=1
if [ $mode = auto ]; then
  if [ $have_nvcc = 1 ] && [ -f csrc/runtime/module.mk ]; then mode=cuda; else mode=emu; fi
fi
bench_bin=build/bin/smcosim-bench
# make for what is missing; independent of a calling make's jobserver.
build() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -j2 "$@" >/dev/null; }

# The tools this mode needs, built by make (a no-op when up to date).
targets=("$bench_bin")
if [ $mode = cuda ]; then
  [ $have_nvcc = 1 ] || { echo "run-suite: --cuda needs nvcc (not found)" >&2; exit 2; }
  targets+=(build/lib/libcudart.so.13)
fi
if ! build "${targets[@]}"; then
  echo "run-suite: could not build ${targets[*]}" >&2; exit 2
fi
if [ ${#names[@]} -eq 0 ]; then
  mapfile -t names < <("$bench_bin" --names)
fi

if [ $mode = emu ]; then
  echo "run-suite: ${#names[@]} benchmarks from bench/ptx/ through $bench_bin (size $size)"
  exec "$bench_bin" --size "$size" "${names[@]}"
fi

echo "run-suite: ${#names[@]} CUDA programs on the drop-in runtime build/lib/libcudart.so.13 (size $size)"
progs=()
for n in "${names[@]}"; do
  [ -f "bench/cuda/$n.cu" ] || { echo "run-suite: no bench/cuda/$n.cu" >&2; exit 2; }
  progs+=("build/bench/$n")
done
if ! build "${progs[@]}"; then
  echo "run-suite: nvcc failed to build the CUDA programs" >&2; exit 2
fi
pass=0; fail=0
for n in "${names[@]}"; do
  start=$(date +%s%N)
  out=$(LD_LIBRARY_PATH="$PWD/build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        "build/bench/$n" --size "$size" 2>&1)
  rc=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  secs=$(printf '%d.%02d' $((ms / 1000)) $((ms % 1000 / 10)))
  if [ $rc -eq 0 ] && grep -qx "$n: PASS" <<<"$out"; then
    pass=$((pass + 1)); echo "$n: PASS (${secs}s)"
  else
    fail=$((fail + 1))
    echo "$n: FAIL (exit $rc, ${secs}s)"
    sed 's/^/    /' <<<"$out" | tail -n 15
  fi
done
echo "benchmarks: $pass passed, $fail failed"
[ $fail -eq 0 ]
