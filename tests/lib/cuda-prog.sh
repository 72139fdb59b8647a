# The opening of a test script that runs one nvcc-built test program of
# tests/timing/ under `smcosim run` (event-time.sh, hang-check.sh). Source
# it from the repository root:
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
