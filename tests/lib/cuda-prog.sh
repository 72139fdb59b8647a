# The opening of a test script that runs one nvcc-built test program under
# `smcosim run`. Source it from the repository root.
#
# A test program of tests/timing/ (event-time.sh, hang-check.sh):
#
#   . tests/lib/cuda-prog.sh
#   cuda_prog_open BUILD_DIR NAME "what is not checked without it"
#
# sets b (the build directory), prog ($b/tests/timing/NAME) and tmp (a
# directory removed when the script exits); without the program (no nvcc,
# so it was not built) it prints a SKIP line and exits 0 instead.
cuda_prog_open() {
  b=$1
  prog=$b/tests/timing/$2
  if [ ! -x "$prog" ]; then
    echo "SKIP: nvcc not found; $prog was not built, $3"
    exit 0
  fi
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
}

# A side-by-side program of bench/sidebyside/ (chase-cuda.sh,
# ifetch-cuda.sh), built by `make` as build/bench/NAME:
#
#   cuda_sidebyside_open NAME
#
# sets prog (build/bench/NAME) and tmp (removed at exit) and puts nvcc's
# directory on PATH; without nvcc or the drop-in runtime it prints a SKIP
# line and exits 0, and a program that should have been built and was not
# is a FAIL.
cuda_sidebyside_open() {
  export PATH=/usr/local/cuda/bin:$PATH
  if ! command -v nvcc >/dev/null 2>&1 || [ ! -f csrc/runtime/module.mk ]; then
    echo "SKIP: nvcc or the drop-in runtime is missing; $1.cu was not built or run"
    exit 0
  fi
  prog=build/bench/$1
  [ -x "$prog" ] || { echo "FAIL: $prog is not built"; exit 1; }
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
}
