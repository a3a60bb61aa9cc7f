#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls exactly this).
#
# On a fresh Debian machine it first installs what the tests need: Debian's Chromium for
# the real-browser tests and the export, poppler-utils (pdfinfo, pdftotext) to check the
# exported PDFs, Carlito for the PPTX text-layout test and DejaVu Math for equations. Then: formatting, lints, and every test (unit, HTTP over a real
# listener, real symlinks and FIFOs, the Office corpus, real Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || need_apt+=(chromium)
command -v cc >/dev/null 2>&1 || need_apt+=(build-essential)
command -v pdftotext >/dev/null 2>&1 || need_apt+=(poppler-utils)
# Carlito (metric twin of Calibri, the Office theme font) for the PPTX layout tests.
fc-list 2>/dev/null | grep -qi carlito || need_apt+=(fonts-crosextra-carlito)
# A font with an OpenType MATH table, for the DOCX equation layout test.
fc-list 2>/dev/null | grep -qi 'DejaVu Math' || need_apt+=(fonts-dejavu-extra)
# Node.js and npm for the OpenClaw plugin's tests (tests/openclaw_plugin.rs).
command -v node >/dev/null 2>&1 || need_apt+=(nodejs)
command -v npm >/dev/null 2>&1 || need_apt+=(npm)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "installing: ${need_apt[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
fi

cargo fmt --all -- --check
cargo clippy --all-targets --locked -- -D warnings
cargo test --all-targets --locked
