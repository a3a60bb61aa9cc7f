#!/usr/bin/env bash
# Builds the Debian package (target/debian/previewd_<version>_<arch>.deb) and checks the
# systemd unit. Installs cargo-deb when it is missing; the test suite does not need this.
#
#   bash packaging/build-deb.sh
#   sudo apt install ./target/debian/previewd_*.deb
#   sudo systemctl enable --now previewd
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-deb >/dev/null 2>&1 || cargo install --locked cargo-deb
if command -v systemd-analyze >/dev/null 2>&1; then
  # `verify` checks the unit's syntax and that ExecStart's program exists; point it at the
  # binary the package installs by checking a copy with the path rewritten to the build.
  cargo build --release --locked
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  sed "s#/usr/bin/previewd#$PWD/target/release/previewd#" packaging/previewd.service > "$tmp/previewd.service"
  systemd-analyze verify "$tmp/previewd.service"
  echo "systemd-analyze verify: ok"
fi
cargo deb --locked
ls -l target/debian/*.deb
