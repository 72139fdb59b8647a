#!/usr/bin/env bash
# The area flow's parameter sets named after a GPU preset must describe the
# scheduler core that preset simulates: every Verilog parameter in
# fpga/param-sets/PRESET.conf must equal the preset's key as printed by
# `smcosim config --config PRESET` (csrc/config/gpu_config.c).
#   usage: tests/area/preset-params.sh path/to/smcosim
set -u
smcosim=${1:?usage: preset-params.sh SMCOSIM}
declare -A key=(
  [NumWarps]=sm.max_warps [NumSchedulers]=sched.num [RegIdWidth]=sched.reg_id_width
  [IbufDepth]=sched.ibuf_depth [SbEntries]=sched.sb_entries [WbPorts]=sched.wb_ports
)
fail=0; checked=0
for conf in fpga/param-sets/*.conf; do
  preset=$(basename "$conf" .conf)
  cfg=$("$smcosim" config --config "$preset" 2>/dev/null) || continue   # not a GPU preset (tiny)
  for param in "${!key[@]}"; do
    want=$(awk -v k="${key[$param]}" '$1 == k { print $3 }' <<<"$cfg")
    got=$(awk -v p="$param" '$1 == p && $2 == "=" { print $3 }' "$conf")
    checked=$((checked + 1))
    if [ -z "$got" ]; then
      echo "FAIL $conf: $param missing (preset $preset has ${key[$param]} = $want)"; fail=1
    elif [ "$got" != "$want" ]; then
      echo "FAIL $conf: $param = $got but preset $preset has ${key[$param]} = $want"; fail=1
    fi
  done
done
[ $checked -gt 0 ] || { echo "FAIL: no parameter set matched a GPU preset"; exit 1; }
echo "preset-params: $checked parameters checked"
exit $fail
