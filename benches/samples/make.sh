#!/usr/bin/env bash
# Re-makes the two reviewed sample images of the diff export (light and dark) from the
# before/after pair in fixtures/samples/.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --quiet --bin previewd
for theme in light dark; do
  cfg=$(mktemp --suffix=.toml)
  printf '[diffs.defaults]\ntheme = "%s"\n' "$theme" > "$cfg"
  ./target/debug/previewd diff --before fixtures/samples/before.rs --after fixtures/samples/after.rs \
    --format png --config "$cfg" -o "benches/samples/diff-$theme.png"
  rm -f "$cfg"
done
