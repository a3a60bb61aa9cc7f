// The grid viewer's drawing layer: charts and pictures anchored to cells, drawn over the
// panes of the virtualised grid (sheet.js calls in here once per pane and frame).
//
// Each drawing's box comes from the server in sheet pixels (meta.json `drawings[].box`,
// measured with the same column widths and row heights the grid is laid out with), so a
// pane only subtracts its scroll offset: the drawing sits on its cells and scrolls with
// them, and one that crosses a frozen line is cut by the panes as the cells are. Charts
// are SVG images from the snapshot (grid/chart/{sheet}/{n}), pictures its media parts;
// as images neither runs script. Elements are kept between frames (sheet.js rebuilds the
// panes on every scroll) so an image is not fetched and decoded again.
(function () {
  "use strict";

  // Where the grid's routes and the snapshot's media are from this page (the viewer's
  // root says: in the shell's Sheet panel or on the grid page).
  var root = document.getElementById("sheet");
  var GRID = root ? root.dataset.grid || "" : "";
  var SNAPSHOT = root ? root.dataset.snapshot || "" : "../";

  var kept = new Map(); // "sheet:drawing:pane" -> element
  var keptSheet = -1;

  function place(e, x, y, w, h) {
    e.style.left = x + "px";
    e.style.top = y + "px";
    e.style.width = w + "px";
    e.style.height = h + "px";
  }

  function label(d) {
    return (d.kind === "chart" ? "Chart: " : "Picture: ") + (d.title || "untitled");
  }

  // A drawing's element: an image when there is something to show, else a labelled box.
  function make(si, i, d, src) {
    var e;
    if (src) {
      e = document.createElement("img");
      e.alt = label(d);
      e.draggable = false;
      e.decoding = "async";
      e.src = src;
      e.className = "drawing-img " + (d.kind === "chart" ? "chart" : "picture") + (d.opaque ? " opaque" : "");
    } else {
      e = document.createElement("div");
      e.className = "drawing";
      e.textContent = label(d);
    }
    e.dataset.drawing = si + ":" + i;
    return e;
  }

  function source(si, i, d) {
    if (d.kind === "chart" && d.drawn) return GRID + "chart/" + si + "/" + i;
    if (d.kind === "picture" && d.media) return SNAPSHOT + "media/" + d.media.split("/").map(encodeURIComponent).join("/");
    return null;
  }

  function forSheet(si) {
    if (keptSheet !== si) { kept = new Map(); keptSheet = si; }
  }

  // Rows and columns the grid must reach so that every drawing can be scrolled to.
  function extent(sh) {
    var rows = 0, cols = 0;
    (sh.drawings || []).forEach(function (d) {
      rows = Math.max(rows, d.rect.r1 + 2);
      cols = Math.max(cols, d.rect.c1 + 2);
    });
    return { rows: rows, cols: cols };
  }

  // Draws the drawings that meet a pane showing sheet space [ox, ox + w) × [oy, oy + h).
  function draw(pane, si, sh, ox, oy, w, h, paneKey) {
    forSheet(si);
    (sh.drawings || []).forEach(function (d, i) {
      var b = d.box;
      if (!b || b[2] <= 0 || b[3] <= 0) return;
      if (b[0] + b[2] < ox || b[0] > ox + w || b[1] + b[3] < oy || b[1] > oy + h) return;
      var key = si + ":" + i + ":" + paneKey;
      var e = kept.get(key);
      if (!e) { e = make(si, i, d, source(si, i, d)); kept.set(key, e); }
      place(e, b[0] - ox, b[1] - oy, b[2], b[3]);
      pane.appendChild(e);
    });
  }

  // A chart sheet: its chart fills the view, drawn at the view's size.
  function chartSheet(view, si, sh, W, H) {
    forSheet(si);
    var d = (sh.drawings || [])[0];
    var ext = document.getElementById("extent");
    if (ext) { ext.style.width = "1px"; ext.style.height = "1px"; }
    if (!d) {
      var empty = document.createElement("div");
      empty.className = "drawing";
      empty.textContent = "This chart sheet has no chart.";
      place(empty, 0, 0, W, H);
      view.appendChild(empty);
      return;
    }
    var src = source(si, 0, d);
    if (src) src += "?w=" + Math.round(W) + "&h=" + Math.round(H);
    var key = si + ":0:sheet";
    var e = kept.get(key);
    if (!e || e.dataset.src !== String(src)) {
      e = make(si, 0, d, src);
      e.dataset.src = String(src);
      kept.set(key, e);
    }
    place(e, 0, 0, W, H);
    view.appendChild(e);
  }

  window.previewdDrawings = { draw: draw, extent: extent, chartSheet: chartSheet };
})();
