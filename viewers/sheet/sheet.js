// The grid viewer: virtualised rows and columns over blocks of rows fetched from the
// snapshot (grid/rows/{sheet}/{block}). The page holds only the cells on screen: every
// frame lays out the visible rows and columns of the four panes (frozen corner, frozen
// rows, frozen columns, the scrolled body) from the sheet's geometry and the loaded
// blocks. Text goes in with textContent only; links are http(s)/mailto from the model.
(function () {
  "use strict";
  var HEAD_H = 20;
  var MAX_EXTENT = 15000000; // px; taller sheets scroll in proportion
  var MAX_ROWS = 1048576;
  var MAX_COLS = 16384;

  var meta = null;
  var si = 0; // sheet index
  var sh = null; // sheet meta
  var blocks = new Map(); // block -> Map(row -> cells)
  var pending = new Map();
  var geo = null;
  var sel = { r: 0, c: 0 };
  var header = true;
  var hits = [];
  var hitAt = -1;
  var frame = 0;
  var wantRow = -1; // a row asked for (scrollToRow) before the table had it
  var POLL_MS = 300; // how often the meta is read again while the table is still read
  // Timing for benches/sheet_first_screen.js: off unless an init script set
  // window.previewdSheetTiming, so a normal page records nothing. Marks go to the User
  // Timing buffer; the first cell drawn from each newly arrived block gets an
  // `elementtiming` name, so the page's Element Timing entry says when it was painted.
  var TIMING = window.previewdSheetTiming === true;
  var fresh = new Set(); // blocks arrived and not yet drawn (timing only)
  function mark(name) { if (TIMING) performance.mark("sheet:" + name); }
  mark("script");

  // The viewer's root says where the grid's routes are from this page: "grid/" in the
  // preview shell's Sheet panel, "" on the grid page itself.
  var root = document.getElementById("sheet");
  var GRID = root.dataset.grid || "";
  var scroller = document.getElementById("scroller");
  var extent = document.getElementById("extent");
  var view = document.getElementById("view");
  var refEl = document.getElementById("cell-ref");
  var valueEl = document.getElementById("cell-value");
  var notesEl = document.getElementById("notes");
  var tabsEl = document.getElementById("tabs");
  var findEl = document.getElementById("find");
  var hitsEl = document.getElementById("hits");
  var headerBtn = document.getElementById("header-toggle");

  function colName(c) {
    var s = "";
    c += 1;
    while (c > 0) {
      var m = (c - 1) % 26;
      s = String.fromCharCode(65 + m) + s;
      c = Math.floor((c - 1) / 26);
    }
    return s;
  }

  function el(tag, cls, parent) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (parent) parent.appendChild(e);
    return e;
  }

  function place(e, x, y, w, h) {
    e.style.left = x + "px";
    e.style.top = y + "px";
    e.style.width = w + "px";
    e.style.height = h + "px";
  }

  // Geometry of one sheet: column lefts as a prefix array, rows as default height plus
  // sparse exceptions (custom heights, hidden rows) with prefix sums of their deltas.
  function makeGeometry() {
    // Drawings past the used range (drawings.js) widen the grid so they can be reached.
    var reach = window.previewdDrawings ? window.previewdDrawings.extent(sh) : { rows: 0, cols: 0 };
    var nCols = Math.min(MAX_COLS, Math.max(sh.colCount + 4, 26, reach.cols));
    var nRows = Math.min(MAX_ROWS, Math.max(sh.rowCount + 20, 100, reach.rows));
    var widths = new Float64Array(nCols);
    for (var c = 0; c < nCols; c++) widths[c] = sh.defaultColWidth;
    sh.columns.forEach(function (r) {
      for (var c = r.first; c <= Math.min(r.last, nCols - 1); c++) widths[c] = r.hidden ? 0 : r.width;
    });
    var colX = new Float64Array(nCols + 1);
    for (c = 0; c < nCols; c++) colX[c + 1] = colX[c] + widths[c];
    var def = sh.defaultRowHeight;
    var exR = [], exH = [], exD = [0];
    sh.rowHeights.forEach(function (p) {
      exR.push(p[0]);
      exH.push(p[1]);
      exD.push(exD[exD.length - 1] + (p[1] - def));
    });
    var g = { nCols: nCols, nRows: nRows, colX: colX, def: def, exR: exR, exH: exH, exD: exD };
    var digits = String(nRows).length;
    g.headW = 14 + 8 * digits;
    g.total = rowY(g, nRows);
    g.scale = g.total > MAX_EXTENT ? g.total / MAX_EXTENT : 1;
    return g;
  }

  // Number of exceptions with row < r.
  function exBefore(g, r) {
    var lo = 0, hi = g.exR.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (g.exR[mid] < r) lo = mid + 1; else hi = mid;
    }
    return lo;
  }
  function rowY(g, r) { return r * g.def + g.exD[exBefore(g, r)]; }
  function rowH(g, r) {
    var k = exBefore(g, r);
    return k < g.exR.length && g.exR[k] === r ? g.exH[k] : g.def;
  }
  // The row whose band holds y.
  function rowAt(g, y) {
    var lo = 0, hi = g.nRows - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (rowY(g, mid) <= y) lo = mid; else hi = mid - 1;
    }
    return lo;
  }
  function colAt(g, x) {
    var lo = 0, hi = g.nCols - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (g.colX[mid] <= x) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  function frozenRows() {
    if (meta.source === "csv") return sh.headerRow && header ? 1 : 0;
    return Math.min(sh.frozenRows, geo.nRows - 1);
  }
  function frozenCols() { return Math.min(sh.frozenCols, geo.nCols - 1); }

  // The sheet y at the top of the body. The scroller holds it divided by geo.scale (tall
  // sheets scroll in proportion), rounded by the browser. A position set by script is kept
  // exactly while the scroller is where it was put: a sheet still being read is re-scaled
  // at every poll, and reading the rounded value back each time made the view drift (by a
  // whole row after a few dozen polls).
  var exactTop = null;
  function sheetTop() {
    if (exactTop && scroller.scrollTop === exactTop.scroll) return exactTop.y;
    exactTop = null;
    return scroller.scrollTop * geo.scale;
  }
  function setSheetTop(y) {
    scroller.scrollTop = y / geo.scale;
    var at = scroller.scrollTop;
    // Clamped by the scroll extent: what shows is where the scroller went.
    exactTop = { scroll: at, y: Math.abs(at * geo.scale - y) > geo.scale ? at * geo.scale : y };
  }

  function blockOf(r) { return Math.floor(r / meta.blockRows); }

  function load(b) {
    var had = blocks.get(b);
    if ((had && !had.stale) || pending.has(b) || b < 0 || b * meta.blockRows >= geo.nRows) return;
    var sheetAt = si;
    var path = "rows/" + si + "/" + b;
    var got = early && early.path === path ? early.rows : fetchRows(path);
    early = null;
    var p = got
      .then(function (data) {
        pending.delete(b);
        if (sheetAt !== si) return;
        var m = new Map();
        data.rows.forEach(function (row) { m.set(row[0], row[1]); });
        // A block answered before all its rows were read is fetched again later.
        m.partial = !!data.partial;
        blocks.set(b, m);
        if (TIMING) { mark("in:" + b); fresh.add(b); }
        schedule();
      })
      .catch(function () { pending.delete(b); });
    pending.set(b, p);
  }

  function rowCells(r) {
    var b = blocks.get(blockOf(r));
    if (!b || b.stale) load(blockOf(r));
    if (!b) return null;
    return b.get(r) || [];
  }

  function cellAt(r, c) {
    var cells = rowCells(r);
    if (!cells) return null;
    var lo = 0, hi = cells.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (cells[mid].c < c) lo = mid + 1; else hi = mid;
    }
    return lo < cells.length && cells[lo].c === c ? cells[lo] : null;
  }

  function inRect(m, r, c) { return m.r0 <= r && r <= m.r1 && m.c0 <= c && c <= m.c1; }
  function mergeAt(r, c) {
    for (var i = 0; i < sh.merges.length; i++) if (inRect(sh.merges[i], r, c)) return sh.merges[i];
    return null;
  }
  function linkAt(r, c) {
    for (var i = 0; i < sh.links.length; i++) if (inRect(sh.links[i].rect, r, c)) return sh.links[i].target;
    return null;
  }
  var notesByCell = new Map();

  function schedule() {
    if (!frame) frame = requestAnimationFrame(function () { frame = 0; render(); });
  }

  // The visible rows of a pane: [first, last] for y in [y0, y1) of sheet space.
  function rowsIn(y0, y1, from, to) {
    var out = [];
    var r = Math.max(from, rowAt(geo, y0));
    for (; r < to; r++) {
      var y = rowY(geo, r);
      if (y >= y1) break;
      out.push(r);
      if (out.length > 400) break;
    }
    return out;
  }
  function colsIn(x0, x1, from, to) {
    var out = [];
    for (var c = Math.max(from, colAt(geo, x0)); c < to; c++) {
      if (geo.colX[c] >= x1) break;
      out.push(c);
      if (out.length > 300) break;
    }
    return out;
  }

  function drawCell(pane, r, c, ox, oy, cols, lastCol) {
    var cell = cellAt(r, c);
    var merge = mergeAt(r, c);
    if (merge && (merge.r0 !== r || merge.c0 !== c)) return;
    var note = notesByCell.get(r + ":" + c);
    // Table styles (tables.js), which also fill a table's empty cells.
    var tcss = window.previewdTables ? window.previewdTables.css(sh, meta.styles, r, c, cell ? cell.s : 0) : "";
    if (!cell && !merge && !note && !tcss) return;
    var style = cell ? meta.styles[cell.s] || {} : {};
    var x = geo.colX[c], y = rowY(geo, r);
    var w = merge ? geo.colX[Math.min(merge.c1 + 1, geo.nCols)] - x : geo.colX[c + 1] - x;
    var h = merge ? rowY(geo, merge.r1 + 1) - y : rowH(geo, r);
    if (w <= 0 || h <= 0) return;
    var d = el("div", "cell s" + (cell ? cell.s : 0), pane);
    var align = style.align && style.align !== "general" ? style.align : null;
    var a = align === "right" ? "r" : align === "center" || align === "centerContinuous" ? "c" : align ? "l" : cell ? cell.a : "l";
    if (a === "r") d.classList.add("ar");
    if (a === "c") d.classList.add("ac");
    if (style.wrap) d.classList.add("wrap");
    if (r === 0 && meta.source === "csv" && sh.headerRow && header) d.classList.add("hdr");
    if (note) { d.classList.add("note"); d.title = note; }
    if (cell && hitAt >= 0 && hits[hitAt] && hits[hitAt][0] === r && hits[hitAt][1] === c) d.classList.add("hit");
    // Unwrapped left-aligned text flows over empty neighbours, as in a spreadsheet.
    // A table's fill stays in its cell, and text does not flow into a table's cells.
    var inTable = function (cc) { return window.previewdTables && window.previewdTables.css(sh, meta.styles, r, cc, 0); };
    if (cell && cell.t && !merge && !style.wrap && a === "l" && !style.rotation && tcss.indexOf("background") < 0) {
      var end = c + 1;
      while (end < lastCol && end < c + 20 && !cellAt(r, end) && !mergeAt(r, end) && !inTable(end)) end++;
      w = geo.colX[end] - x;
    }
    // A left or top border is drawn over the neighbour's right or bottom one, so that
    // two bordered cells share one line, as in a spreadsheet, instead of a doubled one.
    if (style.edgeL) { x -= 1; w += 1; }
    if (style.edgeT) { y -= 1; h += 1; }
    place(d, x - ox, y - oy, w, h);
    if (style.indent) d.style.paddingLeft = (3 + 9 * style.indent) + "px";
    if (tcss) d.style.cssText += ";" + tcss;
    if (cell && cell.k) d.style.color = cell.k;
    // Conditional formatting, measured by the server: CSS of the matching rules, a data
    // bar behind the value, an icon at the left edge.
    if (cell && cell.x) d.style.cssText += ";" + cell.x.replace(/[<{}]/g, "");
    if (cell && cell.bar) {
      var bar = el("div", "dbar", d);
      bar.style.width = Math.max(0, Math.min(100, cell.bar[0] * 100)) + "%";
      bar.style.backgroundImage = "linear-gradient(90deg," + cell.bar[1] + ",#fff)";
    }
    if (cell && cell.icon) {
      var icon = el("span", "cficon", d);
      icon.textContent = cell.icon[0];
      icon.style.color = cell.icon[1];
    }
    var span = el("span", null, d);
    if (style.rotation) {
      d.classList.add("rot");
      var deg = style.rotation === 255 ? 0 : style.rotation <= 90 ? -style.rotation : style.rotation - 90;
      if (style.rotation === 255) { span.style.writingMode = "vertical-rl"; span.style.textOrientation = "upright"; }
      else span.style.transform = "rotate(" + deg + "deg)";
    }
    if (!cell) return;
    var target = linkAt(r, c);
    var host = span;
    if (target && target.kind === "url") {
      host = el("a", null, span);
      host.href = target.url;
      host.target = "_blank";
      host.rel = "noopener noreferrer";
    } else if (target && target.kind === "internal") {
      host = el("a", null, span);
      host.href = "#";
      host.addEventListener("click", function (ev) {
        ev.preventDefault();
        jump(target.sheet, target.row, target.col);
      });
    }
    if (cell.rich) {
      cell.rich.forEach(function (run) {
        var s = el("span", null, host);
        s.textContent = run[0];
        if (run[1]) s.style.cssText = run[1];
      });
    } else if (cell.hv) {
      host.textContent = "";
    } else if (!cell.t && cell.f) {
      // Saved without a result: the formula, marked, rather than an empty cell.
      host.textContent = cell.f;
      d.classList.add("nocalc");
    } else {
      host.textContent = cell.t || "";
    }
    if (TIMING && fresh.has(blockOf(r)) && host.textContent) {
      fresh.delete(blockOf(r));
      host.setAttribute("elementtiming", "block-" + blockOf(r));
      mark("drawn:" + blockOf(r));
    }
  }

  function drawPane(x, y, w, h, rows, cols, ox, oy, lastCol) {
    if (w <= 0 || h <= 0) return;
    var pane = el("div", "pane", view);
    place(pane, x, y, w, h);
    // ox, oy: sheet coordinates of the pane's top-left corner.
    rows.forEach(function (r) {
      var gy = rowY(geo, r) - oy;
      var gl = el("div", "gl", pane);
      place(gl, 0, gy + rowH(geo, r) - 1, w, 1);
    });
    cols.forEach(function (c) {
      var gl = el("div", "gl", pane);
      place(gl, geo.colX[c + 1] - ox - 1, 0, 1, h);
    });
    // Merged ranges whose anchor is scrolled away still show.
    var seen = new Set();
    rows.forEach(function (r) {
      cols.forEach(function (c) {
        var m = mergeAt(r, c);
        if (m) {
          var key = m.r0 + ":" + m.c0;
          if (seen.has(key)) return;
          seen.add(key);
          drawCell(pane, m.r0, m.c0, ox, oy, cols, lastCol);
        } else {
          drawCell(pane, r, c, ox, oy, cols, lastCol);
        }
      });
    });
    // Charts and pictures over the cells (drawings.js).
    if (window.previewdDrawings) window.previewdDrawings.draw(pane, si, sh, ox, oy, w, h, x + "," + y);
    if (sel.r >= 0) {
      var sm = mergeAt(sel.r, sel.c);
      var sr0 = sm ? sm.r0 : sel.r, sc0 = sm ? sm.c0 : sel.c, sr1 = sm ? sm.r1 : sel.r, sc1 = sm ? sm.c1 : sel.c;
      var b = el("div", "selection", pane);
      place(b, geo.colX[sc0] - ox - 1, rowY(geo, sr0) - oy - 1,
        geo.colX[Math.min(sc1 + 1, geo.nCols)] - geo.colX[sc0] + 1, rowY(geo, sr1 + 1) - rowY(geo, sr0) + 1);
    }
  }

  function render() {
    if (!geo) return;
    var W = scroller.clientWidth, H = scroller.clientHeight;
    view.style.width = W + "px";
    view.style.height = H + "px";
    view.className = "cells" + (sh.gridlines ? "" : " no-grid");
    view.textContent = "";
    if (sh.chartSheet && window.previewdDrawings) {
      window.previewdDrawings.chartSheet(view, si, sh, W, H);
      document.body.dataset.ready = "1";
      return;
    }
    var fr = frozenRows(), fc = frozenCols();
    var fH = rowY(geo, fr), fW = geo.colX[fc];
    var vy = sheetTop(), vx = scroller.scrollLeft;
    var bodyX = geo.headW + fW, bodyY = HEAD_H + fH;
    var bodyW = W - bodyX, bodyH = H - bodyY;
    var topRows = fr ? rowsIn(0, fH, 0, fr) : [];
    var leftCols = fc ? colsIn(0, fW, 0, fc) : [];
    var rows = rowsIn(fH + vy, fH + vy + bodyH, fr, geo.nRows);
    var cols = colsIn(fW + vx, fW + vx + bodyW, fc, geo.nCols);
    var lastCol = cols.length ? cols[cols.length - 1] + 1 : fc;
    // Prefetch the blocks around what is shown.
    if (rows.length) { load(blockOf(rows[0]) - 1); load(blockOf(rows[rows.length - 1]) + 1); }
    drawPane(bodyX, bodyY, bodyW, bodyH, rows, cols, fW + vx, fH + vy, lastCol);
    drawPane(bodyX, HEAD_H, bodyW, fH, topRows, cols, fW + vx, 0, lastCol);
    drawPane(geo.headW, bodyY, fW, bodyH, rows, leftCols, 0, fH + vy, fc);
    drawPane(geo.headW, HEAD_H, fW, fH, topRows, leftCols, 0, 0, fc);
    // Column letters and row numbers.
    var selM = mergeAt(sel.r, sel.c);
    leftCols.concat(cols).forEach(function (c) {
      var w = geo.colX[c + 1] - geo.colX[c];
      if (w <= 0) return;
      var x = c < fc ? geo.headW + geo.colX[c] : bodyX + geo.colX[c] - fW - vx;
      if (x + w < geo.headW || (c >= fc && x + w < bodyX)) return;
      var h = el("div", "colhead", view);
      place(h, x, 0, w, HEAD_H);
      h.textContent = colName(c);
      if (selM ? selM.c0 <= c && c <= selM.c1 : c === sel.c) h.classList.add("on");
    });
    topRows.concat(rows).forEach(function (r) {
      var rh = rowH(geo, r);
      if (rh <= 0) return;
      var y = r < fr ? HEAD_H + rowY(geo, r) : bodyY + rowY(geo, r) - fH - vy;
      var h = el("div", "rowhead", view);
      place(h, 0, y, geo.headW, rh);
      h.textContent = String(r + 1);
      if (selM ? selM.r0 <= r && r <= selM.r1 : r === sel.r) h.classList.add("on");
    });
    var corner = el("div", "corner", view);
    place(corner, 0, 0, geo.headW, HEAD_H);
    if (fr) { var lh = el("div", "freeze-h", view); place(lh, geo.headW, bodyY - 1, W - geo.headW, 1); }
    if (fc) { var lv = el("div", "freeze-v", view); place(lv, bodyX - 1, HEAD_H, 1, H - HEAD_H); }
    document.body.dataset.firstRow = rows.length ? String(rows[0]) : "";
    document.body.dataset.ready = "1";
    updateBar();
  }

  function updateBar() {
    refEl.textContent = colName(sel.c) + (sel.r + 1);
    valueEl.textContent = "";
    var cell = cellAt(sel.r, sel.c);
    var v = el("span", "text", valueEl);
    v.textContent = cell && cell.t ? cell.t : "";
    if (cell && cell.f) { var f = el("span", "formula", valueEl); f.textContent = cell.f; }
    var note = notesByCell.get(sel.r + ":" + sel.c);
    if (note) { var n = el("span", "comment", valueEl); n.textContent = "Note: " + note; }
    var link = linkAt(sel.r, sel.c);
    if (link && link.kind === "url") { var l = el("span", "comment", valueEl); l.textContent = link.url; }
  }

  function setExtent() {
    extent.style.width = (geo.headW + geo.colX[geo.nCols]) + "px";
    extent.style.height = (HEAD_H + geo.total / geo.scale) + "px";
  }

  // Scrolls so that (r, c) is inside the body pane.
  function reveal(r, c) {
    var fr = frozenRows(), fc = frozenCols();
    var fH = rowY(geo, fr), fW = geo.colX[fc];
    var bodyH = scroller.clientHeight - HEAD_H - fH, bodyW = scroller.clientWidth - geo.headW - fW;
    if (r >= fr) {
      var y = rowY(geo, r) - fH, vy = sheetTop();
      if (y < vy) setSheetTop(y);
      else if (y + rowH(geo, r) > vy + bodyH) setSheetTop(y + rowH(geo, r) - bodyH);
    }
    if (c >= fc) {
      var x = geo.colX[c] - fW;
      if (x < scroller.scrollLeft) scroller.scrollLeft = x;
      else if (geo.colX[c + 1] - fW > scroller.scrollLeft + bodyW) scroller.scrollLeft = geo.colX[c + 1] - fW - bodyW;
    }
  }

  function select(r, c) {
    sel.r = Math.max(0, Math.min(geo.nRows - 1, r));
    sel.c = Math.max(0, Math.min(geo.nCols - 1, c));
    reveal(sel.r, sel.c);
    schedule();
  }

  function step(dr, dc) {
    var r = sel.r, c = sel.c;
    var m = mergeAt(r, c);
    if (m) { if (dr > 0) r = m.r1; if (dc > 0) c = m.c1; if (dr < 0) r = m.r0; if (dc < 0) c = m.c0; }
    do { r += dr; } while (dr && r > 0 && r < geo.nRows - 1 && rowH(geo, r) <= 0);
    do { c += dc; } while (dc && c > 0 && c < geo.nCols - 1 && geo.colX[c + 1] - geo.colX[c] <= 0);
    select(r, c);
  }

  scroller.addEventListener("keydown", function (e) {
    var page = Math.max(1, Math.floor((scroller.clientHeight - HEAD_H) / geo.def) - 1);
    var handled = true;
    switch (e.key) {
      case "ArrowDown": case "Enter": step(1, 0); break;
      case "ArrowUp": step(-1, 0); break;
      case "ArrowRight": step(0, 1); break;
      case "ArrowLeft": step(0, -1); break;
      case "Tab": step(0, e.shiftKey ? -1 : 1); break;
      case "PageDown": select(sel.r + page, sel.c); break;
      case "PageUp": select(sel.r - page, sel.c); break;
      case "Home": if (e.ctrlKey || e.metaKey) select(0, 0); else select(sel.r, 0); break;
      case "End":
        if (e.ctrlKey || e.metaKey) select(Math.max(0, sh.rowCount - 1), Math.max(0, sh.colCount - 1));
        else select(sel.r, Math.max(0, sh.colCount - 1));
        break;
      default: handled = false;
    }
    if (e.key === "f" && (e.ctrlKey || e.metaKey)) { findEl.focus(); handled = true; }
    if (handled) e.preventDefault();
  });

  // A scroll asks for the blocks it shows at once, not a frame later from the render.
  function onScroll() {
    if (geo) {
      var fH = rowY(geo, frozenRows());
      var y = fH + sheetTop();
      load(blockOf(rowAt(geo, y)));
      load(blockOf(rowAt(geo, y + scroller.clientHeight)));
    }
    schedule();
  }
  scroller.addEventListener("scroll", onScroll, { passive: true });
  window.addEventListener("resize", schedule);
  // The shell's panel may be hidden when the page loads (opened on another view) and
  // shown later, or resized without a window resize: lay out again at the new size, and
  // start loading the first time the grid has a size at all.
  if (window.ResizeObserver) {
    new ResizeObserver(function () {
      if (!scroller.clientHeight) return;
      if (!started) start();
      else schedule();
    }).observe(scroller);
  }

  scroller.addEventListener("mousedown", function (e) {
    if (e.target.closest && e.target.closest("a")) return;
    var rect = scroller.getBoundingClientRect();
    var px = e.clientX - rect.left, py = e.clientY - rect.top;
    var fr = frozenRows(), fc = frozenCols();
    var fH = rowY(geo, fr), fW = geo.colX[fc];
    if (px < geo.headW || py < HEAD_H) return;
    var sx = px - geo.headW, sy = py - HEAD_H;
    var x = sx < fW ? sx : sx + scroller.scrollLeft;
    var y = sy < fH ? sy : sy + sheetTop();
    sel.r = rowAt(geo, y);
    sel.c = colAt(geo, x);
    scroller.focus();
    schedule();
  });

  function jump(sheet, r, c) {
    if (sheet !== si) showSheet(sheet);
    select(r, c);
  }

  function showSheet(i) {
    si = i;
    sh = meta.sheets[i];
    blocks = new Map();
    pending = new Map();
    hits = [];
    hitAt = -1;
    hitsEl.textContent = "";
    readNotes();
    geo = makeGeometry();
    setExtent();
    setSheetTop(0);
    scroller.scrollLeft = 0;
    sel = { r: frozenRows(), c: 0 };
    if (sel.r >= geo.nRows) sel.r = 0;
    markTab();
    headerBtn.hidden = !(meta.source === "csv" && sh.headerRow);
    showNotes();
    schedule();
  }

  function markTab() {
    Array.prototype.forEach.call(tabsEl.querySelectorAll("button"), function (b) {
      var on = Number(b.dataset.sheet) === si;
      b.setAttribute("aria-selected", String(on));
      b.tabIndex = on ? 0 : -1;
    });
  }

  function readNotes() {
    notesByCell = new Map();
    sh.comments.forEach(function (n) {
      notesByCell.set(n.row + ":" + n.col, (n.author ? n.author + ": " : "") + n.text);
    });
  }

  function showNotes() {
    notesEl.textContent = "";
    var add = function (t) { el("p", null, notesEl).textContent = t; };
    if (!meta.complete) add("Reading the file: " + meta.rowsKnown.toLocaleString("en") + " rows so far.");
    if (meta.hasMacros) add("This workbook contains macros; they are never run.");
    meta.warnings.forEach(add);
    if (sh.truncatedAt !== null && sh.truncatedAt !== undefined) {
      add("This sheet has more cells than previewd keeps: the first " + sh.truncatedAt + " rows are shown.");
    }
    if (sh.uncalculated > 0) {
      add(sh.uncalculated + (sh.uncalculated === 1 ? " formula was" : " formulas were") +
        " saved without a calculated result; previewd never calculates, so " +
        (sh.uncalculated === 1 ? "it is" : "they are") + " shown as written, in grey.");
    }
    if (sh.conditionalSkipped > 0) {
      add(sh.conditionalSkipped + " conditional-formatting " + (sh.conditionalSkipped === 1 ? "rule is" : "rules are") +
        " not shown: " + (sh.conditionalSkipped === 1 ? "its condition is a formula or it covers" : "their conditions are formulas or they cover") +
        " too many cells.");
    }
    var undrawn = sh.drawings.filter(function (d) { return d.kind === "chart" && !d.drawn; }).length;
    if (undrawn) add(undrawn + (undrawn === 1 ? " chart is" : " charts are") + " shown as labelled boxes: no cached values or a chart type previewd does not draw.");
  }

  function buildTabs() {
    tabsEl.textContent = "";
    var hidden = 0;
    meta.sheets.forEach(function (s, i) {
      if (s.visibility !== "visible") { hidden++; return; }
      var b = el("button", null, tabsEl);
      b.type = "button";
      b.setAttribute("role", "tab");
      b.dataset.sheet = String(i);
      b.textContent = s.name;
      if (s.tabColor) b.style.borderBottomColor = s.tabColor;
      b.addEventListener("click", function () { showSheet(i); scroller.focus(); });
    });
    if (hidden) {
      el("span", "hidden-count", tabsEl).textContent = hidden + (hidden === 1 ? " hidden sheet" : " hidden sheets");
    }
  }

  function hiddenSheets() {
    return meta.sheets.filter(function (s) { return s.visibility !== "visible"; }).length;
  }

  function runFind() {
    var q = findEl.value;
    if (!q) { hits = []; hitAt = -1; hitsEl.textContent = ""; schedule(); return; }
    fetch(GRID + "find/" + si + "?q=" + encodeURIComponent(q), { credentials: "same-origin" })
      .then(function (res) { return res.ok ? res.json() : []; })
      .then(function (found) {
        hits = found;
        hitAt = found.length ? 0 : -1;
        hitsEl.textContent = found.length ? "1/" + found.length + (found.length >= 500 ? "+" : "") : "none";
        if (found.length) select(found[0][0], found[0][1]); else schedule();
      });
  }
  findEl.addEventListener("keydown", function (e) {
    if (e.key !== "Enter") return;
    e.preventDefault();
    if (hits.length && findEl.dataset.q === findEl.value) {
      hitAt = (hitAt + (e.shiftKey ? hits.length - 1 : 1)) % hits.length;
      hitsEl.textContent = (hitAt + 1) + "/" + hits.length;
      select(hits[hitAt][0], hits[hitAt][1]);
    } else {
      findEl.dataset.q = findEl.value;
      runFind();
    }
  });

  headerBtn.addEventListener("click", function () {
    header = !header;
    headerBtn.setAttribute("aria-pressed", String(header));
    schedule();
  });

  function installStyles() {
    var css = "";
    meta.styles.forEach(function (s, i) {
      if (s.css) css += ".s" + i + "{" + s.css.replace(/[<{}]/g, "") + "}\n";
      s.edgeL = /(^|;)border-left:/.test(s.css || "");
      s.edgeT = /(^|;)border-top:/.test(s.css || "");
    });
    var st = document.createElement("style");
    st.textContent = css;
    document.head.appendChild(st);
  }

  // A table still being read: its rows grow (taller scroll extent, blocks past the old
  // end), the scroll position and the selection stay. A workbook's sheets are listed as
  // they are read, and the one shown while it streams gains what its part says after the
  // cells (merged cells, links, notes, conditional formats) once it is read whole.
  function grow(m) {
    var top = sheetTop();
    var ended = m.complete && !meta.complete;
    meta.complete = m.complete;
    meta.rowsKnown = m.rowsKnown;
    meta.sha256 = m.sha256;
    meta.warnings = m.warnings;
    m.sheets.forEach(function (nu, i) {
      if (meta.sheets[i]) Object.assign(meta.sheets[i], nu);
      else meta.sheets.push(nu);
    });
    if (tabsEl.querySelectorAll("button").length + hiddenSheets() !== meta.sheets.length) {
      buildTabs();
      markTab();
    }
    readNotes();
    blocks.forEach(function (rows, b) {
      if (rows.partial) blocks.delete(b);
      // Shown until fetched again, with what the end of the sheet added.
      else if (ended && meta.source !== "csv") rows.stale = true;
    });
    geo = makeGeometry();
    setExtent();
    setSheetTop(top);
    headerBtn.hidden = !(meta.source === "csv" && sh.headerRow);
    showNotes();
    if (wantRow >= 0 && (wantRow < sh.rowCount || meta.complete)) {
      var r = Math.min(wantRow, geo.nRows - 1);
      wantRow = -1;
      window.previewdSheet.scrollToRow(r);
    }
    if (meta.complete) document.body.dataset.complete = "1";
    schedule();
  }

  function poll() {
    setTimeout(function () {
      fetch(GRID + "meta.json", { credentials: "same-origin" })
        .then(function (res) { return res.ok ? res.json() : null; })
        .then(function (m) {
          if (m) grow(m);
          if (!meta.complete) poll();
        })
        .catch(function () { poll(); });
    }, POLL_MS);
  }

  function fetchRows(path) {
    return fetch(GRID + path, { credentials: "same-origin" })
      .then(function (res) { return res.ok ? res.json() : { rows: [] }; });
  }

  // The first block is asked for (and parsed) while the meta is, not after it: the page
  // preloads both, and the first load of that block takes this answer instead of a fetch.
  // A viewer in a hidden panel starts when it is first shown (the ResizeObserver above).
  var early = null;
  var started = false;
  function start() {
    started = true;
    var first = root.dataset.firstBlock;
    if (first) early = { path: first, rows: fetchRows(first) };
    fetch(GRID + "meta.json", { credentials: "same-origin" })
      .then(function (res) { return res.json(); })
      .then(function (m) {
        mark("meta");
        meta = m;
        installStyles();
        buildTabs();
        showSheet(Math.min(meta.active, meta.sheets.length - 1));
        if (meta.complete) document.body.dataset.complete = "1";
        else poll();
      });
  }
  if (!root.closest("[hidden]")) start();

  // For tests and embedding: scroll the body so that row r is the first one shown.
  window.previewdSheet = {
    scrollToRow: function (r) {
      // Past the rows read so far: go as far as there is, and on when they come.
      if (!meta.complete && r >= sh.rowCount) wantRow = r;
      r = Math.min(r, geo.nRows - 1);
      var fH = rowY(geo, frozenRows());
      setSheetTop(rowY(geo, r) - fH);
      onScroll();
    },
    select: select,
  };
})();
