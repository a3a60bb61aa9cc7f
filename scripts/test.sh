#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls exactly this).
#
# On a fresh Debian machine it first installs what the tests need: Debian's Chromium for
# the real-browser tests and the export, poppler-utils (pdfinfo, pdftotext) to check the
# exported PDFs, Carlito for the PPTX text-layout test, Caladea, Liberation, DejaVu and Noto CJK
# for the font resolver's tests, DejaVu Math for equations, and schemathesis
# (in a venv) for the OpenAPI contract test, and moto (in a venv) for the shared-store tests. Then: formatting, lints, and every test (unit, HTTP over a real
# listener, real symlinks and FIFOs, the Office corpus, real Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || need_apt+=(chromium)
command -v cc >/dev/null 2>&1 || need_apt+=(build-essential)
command -v pdftotext >/dev/null 2>&1 || need_apt+=(poppler-utils)
# Carlito (metric twin of Calibri, the Office theme font) for the PPTX layout tests.
# `grep -q` would stop reading at the first match, and with pipefail the fc-list it cut
# off (SIGPIPE) would count as "missing": every font was reinstalled on every run.
fc-list 2>/dev/null | grep -i carlito >/dev/null || need_apt+=(fonts-crosextra-carlito)
# The open families of the font resolver's stacks (tests/fonts.rs draws Verdana with DejaVu
# Sans, Calibri with Carlito, MS Mincho with Noto Serif CJK JP, and serves Caladea and Liberation).
fc-list 2>/dev/null | grep -i caladea >/dev/null || need_apt+=(fonts-crosextra-caladea)
fc-list 2>/dev/null | grep -i 'Liberation Serif' >/dev/null || need_apt+=(fonts-liberation)
fc-list 2>/dev/null | grep -i 'DejaVu Sans' >/dev/null || need_apt+=(fonts-dejavu-core)
fc-list 2>/dev/null | grep -i 'Noto Serif CJK' >/dev/null || need_apt+=(fonts-noto-cjk)
# Stand-ins for Office theme faces (catalog test): URW Gothic for Century Gothic, Gillius
# ADF for Gill Sans MT, Open Sans for Aptos.
fc-list 2>/dev/null | grep -i 'URW Gothic' >/dev/null || need_apt+=(fonts-urw-base35)
fc-list 2>/dev/null | grep -i 'Gillius ADF' >/dev/null || need_apt+=(fonts-adf-gillius)
fc-list 2>/dev/null | grep -i 'Open Sans' >/dev/null || need_apt+=(fonts-open-sans)
# Wine's Tahoma (drawn to Tahoma's widths), outside fontconfig's folders: a file test.
[ -f /usr/share/wine/fonts/tahoma.ttf ] || need_apt+=(fonts-wine)
# Fonts with an OpenType MATH table, for the DOCX equation tests: TeX Gyre Termes Math
# (the equation face, tests/fonts.rs) and DejaVu Math after it.
fc-list 2>/dev/null | grep -i 'DejaVu Math' >/dev/null || need_apt+=(fonts-dejavu-extra)
fc-list 2>/dev/null | grep -i 'TeX Gyre Termes Math' >/dev/null || need_apt+=(fonts-texgyre-math)
# systemd-analyze, to verify the packaged systemd unit.
command -v systemd-analyze >/dev/null 2>&1 || need_apt+=(systemd)
# Python with venv, for the schemathesis contract test of the OpenAPI description.
command -v python3 >/dev/null 2>&1 && python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need_apt+=(python3 python3-venv)
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

# schemathesis (pinned) in a venv of its own inside target/: Debian's Python refuses
# system-wide pip installs, and the suite must not depend on what else is installed.
if ! command -v schemathesis >/dev/null 2>&1; then
  venv=target/schemathesis-venv
  [ -x "$venv/bin/schemathesis" ] || {
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check schemathesis==4.32.5
  }
  export PATH="$PWD/$venv/bin:$PATH"
fi

# moto (pinned) in a venv of its own, for the shared-store tests (tests/store_s3.rs): a
# real S3-protocol server (conditional puts included) from PyPI, started by the tests
# themselves on a free loopback port, so no S3 account or internet is needed.
moto_venv=target/moto-venv
[ -x "$moto_venv/bin/moto_server" ] || {
  python3 -m venv "$moto_venv"
  "$moto_venv/bin/pip" install -q --disable-pip-version-check 'moto[server]==5.2.5'
}
export PATH="$PWD/$moto_venv/bin:$PATH"

cargo fmt --all -- --check
cargo clippy --all-targets --locked -- -D warnings
cargo test --all-targets --locked
