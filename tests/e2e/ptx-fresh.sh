#!/usr/bin/env bash
# The committed bench/ptx/*.ptx must equal what nvcc generates from
# bench/cuda/*.cu today (SKIP, said out loud, when nvcc is absent).
cd "$(dirname "$0")/../.." && exec bench/regen-ptx.sh --check
