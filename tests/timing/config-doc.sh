#!/usr/bin/env bash
# docs/config.md must hold exactly the key table `smcosim config --markdown`
# prints (regenerate it with that command when a key changes).
set -eu
bin=$1
want=$("$bin" config --markdown)
have=$(sed -n '/^Generated with `smcosim config --markdown`./,$p' docs/config.md | tail -n +3)
if [ "$want" != "$have" ]; then
  echo "docs/config.md: the key table differs from 'smcosim config --markdown':"
  diff <(printf '%s\n' "$have") <(printf '%s\n' "$want") | head -20
  exit 1
fi
echo "docs/config.md: key table up to date ($(printf '%s\n' "$want" | wc -l) lines)"
