# Shared by run.sh, run_corpus.sh and run_docx.sh (sourced, not run): setup of the tools,
# the previewd binary and the renderer versions line. Expects HERE, ROOT and WORK set.

# The Python with scikit-image, Pillow and numpy (PYTHON=path/to/venv/bin/python to choose).
PYTHON=${PYTHON:-python3}

say() { echo "fidelity: $*" >&2; }

# How LibreOffice's PDF pages become pixels (see README.md, "The rasteriser"):
#   RASTER     pdftoppm (poppler's Splash, the default) or pdftocairo (its Cairo back end)
#   SUPERSAMPLE  N > 1 renders at N times the size and averages each N×N block down
#              (a box filter), the page's area coverage without one rasteriser's
#              sampling artefacts; 1 (the default) renders at the size itself
RASTER=${RASTER:-pdftoppm}
SUPERSAMPLE=${SUPERSAMPLE:-1}
case "$RASTER" in pdftoppm | pdftocairo) ;; *)
    echo "fidelity: RASTER must be pdftoppm or pdftocairo, not $RASTER" >&2
    exit 2
    ;;
esac
case "$SUPERSAMPLE" in [1-4]) ;; *)
    echo "fidelity: SUPERSAMPLE must be 1 to 4, not $SUPERSAMPLE" >&2
    exit 2
    ;;
esac

# Rasterises pages FIRST..LAST of PDF at W×H pixels into PREFIX-N.png.
fidelity_raster() {
    local pdf=$1 prefix=$2 w=$3 h=$4 first=$5 last=$6 k=$SUPERSAMPLE
    "$RASTER" -png -f "$first" -l "$last" -scale-to-x $((w * k)) -scale-to-y $((h * k)) "$pdf" "$prefix"
    if [ "$k" -gt 1 ]; then
        "$PYTHON" - "$w" "$h" "$prefix"-*.png <<'PY'
import sys
from PIL import Image
w, h = int(sys.argv[1]), int(sys.argv[2])
for f in sys.argv[3:]:
    Image.open(f).convert("RGB").resize((w, h), Image.BOX).save(f)
PY
    fi
}

# Installs what is missing (idempotent); NO_SETUP=1 skips it. Needs root for apt.
fidelity_setup() {
    if [ "${NO_SETUP:-}" != 1 ]; then
        # `grep -q` would stop at the first match and, under pipefail, the fc-list it cut
        # off (SIGPIPE) would count as a missing font: not -q.
        local need_apt=()
        command -v soffice >/dev/null || need_apt+=(libreoffice-impress-nogui libreoffice-writer-nogui)
        command -v pdftoppm >/dev/null || need_apt+=(poppler-utils)
        fc-list | grep -i carlito >/dev/null || need_apt+=(fonts-crosextra-carlito)
        fc-list | grep -i 'liberation sans' >/dev/null || need_apt+=(fonts-liberation)
        [ -x /usr/bin/chromium ] || need_apt+=(chromium)
        if [ ${#need_apt[@]} -gt 0 ]; then
            say "apt-get install ${need_apt[*]}"
            apt-get update -qq
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >&2
            fc-cache -f >/dev/null
        fi
        "$PYTHON" -c 'import skimage, PIL, numpy' 2>/dev/null ||
            "$PYTHON" -m pip install --quiet scikit-image pillow numpy >&2
        if [ ! -f "$WORK/node/node_modules/playwright-core/package.json" ]; then
            npm install --prefix "$WORK/node" --no-audit --no-fund --silent playwright-core@1 >&2
        fi
    fi
    export NODE_PATH="$WORK/node/node_modules"
    # Faces the service serves that fontconfig does not see: the ones previewd ships
    # (Gelasio) and Wine's Tahoma (served under Tahoma's own name from the default
    # fonts.dirs). The standalone page shot here names them by local() only, so they are
    # put where Chromium finds them, as a client of the service gets them. LibreOffice sees
    # them too (a deck in Tahoma is then drawn with Tahoma's widths on both sides): a PDF
    # cached by a run before this (KEEP_LO) was made without them.
    local fonts="$HOME/.local/share/fonts/previewd" wine=/usr/share/wine/fonts
    if ! cmp -s "$ROOT/assets/fonts/Gelasio-Regular.ttf" "$fonts/Gelasio-Regular.ttf" ||
        { [ -f "$wine/tahoma.ttf" ] && [ ! -f "$fonts/tahoma.ttf" ]; }; then
        mkdir -p "$fonts"
        cp "$ROOT"/assets/fonts/Gelasio-*.ttf "$fonts/"
        for f in tahoma.ttf tahomabd.ttf; do
            [ -f "$wine/$f" ] && cp "$wine/$f" "$fonts/"
        done
        fc-cache -f "$fonts" >/dev/null
    fi
}

# Sets PREVIEWD: the given binary, else a fresh release build of this checkout.
fidelity_previewd() {
    if [ -z "${PREVIEWD:-}" ]; then
        (cd "$ROOT" && cargo build --release --quiet --bin previewd)
        PREVIEWD=$ROOT/target/release/previewd
    fi
}

# One line naming every renderer, for the report.
fidelity_versions() {
    # FIDELITY_LABEL names the binary when it is not this checkout's (e.g. main's build).
    printf 'previewd %s; %s; %s; %s' \
        "${FIDELITY_LABEL:-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')}" \
        "$(/usr/bin/chromium --version 2>/dev/null | head -n 1 | sed 's/ built on.*//')" \
        "$(soffice --version | head -n 1 | cut -d' ' -f1-2)" \
        "$("$RASTER" -v 2>&1 | head -n 1)$([ "$SUPERSAMPLE" = 1 ] || echo " at ${SUPERSAMPLE}× size, box-filtered down")"
}

# Converts the given files to PDF in one LibreOffice process, into OUTDIR, with FILTER.
# Files whose PDF is already there are skipped when KEEP_LO=1 (the default of the corpus
# scripts), so a re-run renders only previewd's side.
fidelity_soffice() {
    local outdir=$1 filter=$2
    shift 2
    local todo=() f base
    for f in "$@"; do
        base=$(basename "${f%.*}")
        if [ "${KEEP_LO:-1}" = 1 ] && [ -s "$outdir/$base.pdf" ]; then continue; fi
        todo+=("$f")
    done
    mkdir -p "$outdir"
    [ ${#todo[@]} -gt 0 ] || { say "LibreOffice: all ${#} PDFs cached in $outdir"; return 0; }
    say "LibreOffice: converting ${#todo[@]} file(s)"
    # One process converts the files in order; a file that crashes it ends the run with
    # the rest unconverted. The first file still without a PDF is then the one that
    # stopped it: it is left out and the rest converted by a new process.
    while [ ${#todo[@]} -gt 0 ]; do
        timeout "${LO_TIMEOUT:-3600}" soffice -env:UserInstallation="file://$WORK/lo-profile" --headless \
            --convert-to "$filter" --outdir "$outdir" "${todo[@]}" >>"$outdir/../soffice.log" 2>&1 || true
        local left=() stopped=""
        for f in "${todo[@]}"; do
            base=$(basename "${f%.*}")
            [ -s "$outdir/$base.pdf" ] && continue
            if [ -z "$stopped" ]; then stopped=$f; else left+=("$f"); fi
        done
        [ -n "$stopped" ] && say "LibreOffice made no PDF of $(basename "$stopped"); ${#left[@]} file(s) left"
        todo=("${left[@]}")
    done
}
