#!/usr/bin/env bash
# Install the Debian packages smcosim needs, only those that are missing.
# Called by `make deps` (and so by `make demo` / `make test`). Idempotent and
# quiet when everything is already there.
set -euo pipefail

packages=(
  build-essential        # gcc, g++ (the Verilator shim), make
  verilator              # RTL -> C++ (5.006 on Debian 12); ships GTKWave's fstapi
  yosys                  # synthesis for `make area`
  nextpnr-ice40          # place-and-route timing for `make area`
  fpga-icestorm          # iCE40 chip database used by nextpnr-ice40
  libcmocka-dev          # unit tests
  zlib1g-dev             # fstapi compression
  liblzma-dev            # xz-compressed Accel-Sim traces (csrc/trace/)
  gtkwave                # fst2vcd (reading waveforms back in tests), GTKWave itself
  pocl-opencl-icd        # CPU OpenCL device for the offload path
  ocl-icd-opencl-dev     # OpenCL ICD loader + headers
  opencl-headers
  gnuplot-nox            # plots
  python3                # small report scripts, the area flow
  libzstd1               # decompresses nvcc's default (zstd) fatbinaries, loaded at run time
  slurm-wlm              # the sweep engine's slurm executor; a one-node cluster in its test
  munge                  # Slurm's authentication
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing missing Debian packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  SUDO=sudo
else
  SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
# Install, do not start: slurm-wlm and munge ship system services, which the
# project never uses (its Slurm test starts its own daemons under a temporary
# folder, tests/sweep/slurm-cluster.sh), and whose start fails without a
# site's slurm.conf. invoke-rc.d asks the policy script named by POLICYRCD;
# 101 = "action not allowed".
policy=$(mktemp)
trap 'rm -f "$policy"' EXIT
printf '#!/bin/sh\nexit 101\n' >"$policy"
chmod +x "$policy"
$SUDO apt-get update -qq
$SUDO env POLICYRCD="$policy" DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
