// previewd diff viewer: toolbar toggles (no reload), expand controls on collapsed gaps, and
// lazy rows. Each file's rows live in its JSON data block; the table holds one <tbody> per
// chunk of rows. A chunk is built when it comes within a screenful or two of the viewport
// and replaced by a placeholder of its measured height when it drifts far away, so the DOM
// stays small whatever the size of the diff. Row markup comes from viewer-runtime.js.
(function () {
  "use strict";

  var R = window.PreviewdDiffRuntime;
  var root = document.documentElement;
  if (!R || root.getAttribute("data-variant") !== "viewer") return;

  var CHUNK = 100;               // rows per <tbody>
  var NEAR = "1500px 0px";       // build chunks this far ahead of the viewport
  var FAR = "6000px 0px";        // drop chunks farther away than this
  var STEP = parseInt(root.getAttribute("data-step"), 10) || 20;
  var files = [];
  var near = null, far = null;

  function layout() { return root.getAttribute("data-layout") === "split" ? "split" : "unified"; }

  function rowOptions() {
    return { cols: layout() === "split" ? 6 : 4, classic: root.getAttribute("data-indicators") === "classic", step: STEP };
  }

  function rowPx() {
    var v = parseFloat(getComputedStyle(root).getPropertyValue("--row-h"));
    return v > 0 ? v : 24;
  }

  var COLS = {
    unified: '<col class="c-num"><col class="c-num"><col class="c-sign"><col class="c-code">',
    split: '<col class="c-num"><col class="c-sign"><col class="c-code"><col class="c-num"><col class="c-sign"><col class="c-code">'
  };

  // ---- chunks -------------------------------------------------------------------------

  function placeholder(f, ch) {
    var tb = document.createElement("tbody");
    tb.className = "ph";
    var tr = tb.insertRow();
    var td = tr.insertCell();
    td.colSpan = rowOptions().cols;
    td.style.height = (ch.h || (ch.to - ch.from) * rowPx()) + "px";
    tb._file = f;
    tb._chunk = ch;
    return tb;
  }

  function materialise(f, ch) {
    if (ch.live) return;
    var tb = document.createElement("tbody");
    tb.className = "chunk";
    tb.innerHTML = R.rowsHtml(f.rows, ch.from, ch.to, rowOptions());
    tb._file = f;
    tb._chunk = ch;
    near.unobserve(ch.el);
    f.table.replaceChild(tb, ch.el);
    ch.el = tb;
    ch.live = true;
    far.observe(tb);
  }

  function dematerialise(f, ch, height) {
    if (!ch.live) return;
    ch.h = height;
    var ph = placeholder(f, ch);
    far.unobserve(ch.el);
    f.table.replaceChild(ph, ch.el);
    ch.el = ph;
    ch.live = false;
    near.observe(ph);
  }

  function onNear(entries) {
    entries.forEach(function (e) {
      var ch = e.target._chunk;
      if (e.isIntersecting && ch && !ch.live && ch.el === e.target) materialise(e.target._file, ch);
    });
  }

  function onFar(entries) {
    entries.forEach(function (e) {
      var ch = e.target._chunk;
      if (!e.isIntersecting && ch && ch.live && ch.el === e.target) {
        dematerialise(e.target._file, ch, e.boundingClientRect.height);
      }
    });
  }

  // (Re)builds a file's chunks from chunk `from` on; earlier chunks hold rows that did not
  // change and stay as they are.
  function build(f, from) {
    f.rows = R.buildRows(f.data, layout(), f.state);
    var c;
    for (c = from; c < f.chunks.length; c++) {
      var old = f.chunks[c];
      near.unobserve(old.el);
      far.unobserve(old.el);
      old.el.remove();
    }
    f.chunks.length = Math.min(from, f.chunks.length);
    if (from === 0) {
      // The rows or placeholder the server wrote.
      Array.prototype.slice.call(f.table.tBodies).forEach(function (tb) { tb.remove(); });
    }
    var count = Math.ceil(f.rows.length / CHUNK);
    var frag = document.createDocumentFragment();
    for (c = f.chunks.length; c < count; c++) {
      var ch = { i: c, from: c * CHUNK, to: Math.min(f.rows.length, (c + 1) * CHUNK), el: null, live: false, h: 0 };
      ch.el = placeholder(f, ch);
      frag.appendChild(ch.el);
      f.chunks.push(ch);
      near.observe(ch.el);
    }
    f.table.appendChild(frag);
  }

  // Builds, right now, the chunks of `f` on screen, so a rebuild never flashes empty.
  function materialiseVisible(f) {
    var top = -window.innerHeight, bottom = 2 * window.innerHeight;
    var hits = f.chunks.filter(function (ch) {
      if (ch.live) return false;
      var r = ch.el.getBoundingClientRect();
      return r.bottom >= top && r.top <= bottom && r.height >= 0 && f.el.open;
    });
    hits.forEach(function (ch) { materialise(f, ch); });
  }

  function rowElement(f, index) {
    var ch = f.chunks[Math.floor(index / CHUNK)];
    if (!ch) return null;
    if (!ch.live) materialise(f, ch);
    return ch.el.rows[index - ch.from] || null;
  }

  // ---- keeping the reader's place ----------------------------------------------------

  function toolbarBottom() {
    var bar = document.getElementById("toolbar");
    return bar ? bar.getBoundingClientRect().bottom : 0;
  }

  function captureAnchor() {
    var table = document.querySelector("details.file[open] table.diff");
    var x = table ? Math.max(table.getBoundingClientRect().left + 4, 4) : 24;
    var y = toolbarBottom() + 40;
    var el = document.elementFromPoint(x, y);
    var tr = el && el.closest ? el.closest("tr") : null;
    var tb = tr ? tr.parentNode : null;
    if (tb && tb._chunk && tb._chunk.live) {
      var ri = tb._chunk.from + Array.prototype.indexOf.call(tb.rows, tr);
      var row = tb._file.rows[ri];
      if (row) return { f: tb._file, key: R.rowKey(row), y: tr.getBoundingClientRect().top };
    }
    var det = el && el.closest ? el.closest("details.file") : null;
    return det ? { el: det, y: det.getBoundingClientRect().top } : null;
  }

  function restoreAnchor(a) {
    if (!a) return;
    var target = a.el || null;
    if (a.f) {
      var ri = R.findRow(a.f.rows, a.key);
      target = ri >= 0 ? rowElement(a.f, ri) : a.f.el;
    }
    if (target) window.scrollBy(0, target.getBoundingClientRect().top - a.y);
  }

  function rebuildAll() {
    var a = captureAnchor();
    files.forEach(function (f) {
      f.table.querySelector("colgroup").innerHTML = COLS[layout()];
      build(f, 0);
    });
    files.forEach(materialiseVisible);
    restoreAnchor(a);
  }

  // ---- toolbar -----------------------------------------------------------------------

  function press(selector, on) {
    Array.prototype.forEach.call(document.querySelectorAll(selector), function (b) {
      b.setAttribute("aria-pressed", on(b) ? "true" : "false");
    });
  }

  function setChoice(name, value) {
    if (root.getAttribute("data-" + name) === value) return;
    if (name === "layout") {
      root.setAttribute("data-layout", value);
      rebuildAll();
    } else {
      root.setAttribute("data-" + name, value);
    }
    press('button[data-set="' + name + '"]', function (b) { return b.getAttribute("data-value") === value; });
  }

  function toggle(name) {
    var on = root.getAttribute("data-" + name) !== "on";
    // Wrap and line numbers change row heights: keep the line at the top in place.
    var a = name === "wrap" || name === "numbers" ? captureAnchor() : null;
    root.setAttribute("data-" + name, on ? "on" : "off");
    press('button[data-toggle="' + name + '"]', function () { return on; });
    if (a) restoreAnchor(a);
  }

  function expandAll() {
    var a = captureAnchor();
    files.forEach(function (f) {
      var changed = false;
      f.data.gaps.forEach(function (g, gi) {
        if (g.l) {
          R.expand(f.data, f.state, gi, "all", STEP);
          changed = true;
        }
      });
      if (changed) build(f, 0);
    });
    files.forEach(materialiseVisible);
    restoreAnchor(a);
  }

  function onExpand(button) {
    var det = button.closest("details.file");
    var f = det ? det._viewer : null;
    var gi = parseInt(button.getAttribute("data-gap"), 10);
    var dir = button.getAttribute("data-dir");
    if (!f || isNaN(gi)) return;
    var tr = button.closest("tr");
    var y = tr ? tr.getBoundingClientRect().top : 0;
    var ri = -1;
    for (var i = 0; i < f.rows.length; i++) {
      if (f.rows[i].t === "g" && f.rows[i].g === gi) { ri = i; break; }
    }
    if (ri < 0) return;
    var g = f.data.gaps[gi], st = f.state[gi];
    // Keep the control under the pointer while it remains; once the gap is fully open,
    // keep the first newly shown line where the gap row was.
    var firstHidden = st.top;
    R.expand(f.data, f.state, gi, dir, STEP);
    var left = g.len - st.top - st.bottom;
    var key = left > 0 ? { g: gi } : { n: g.n + firstHidden };
    build(f, Math.floor(ri / CHUNK));
    materialiseVisible(f);
    restoreAnchor({ f: f, key: key, y: y });
    if (left > 0) {
      // Keyboard users keep their place: the same arrow, or the label once arrows go.
      var gapRow = f.el.querySelector('tr.gap[data-gap="' + gi + '"]');
      var again = gapRow && (gapRow.querySelector('button[data-dir="' + dir + '"]') || gapRow.querySelector("button.gap-label"));
      if (again) again.focus({ preventScroll: true });
    }
  }

  // ---- start -------------------------------------------------------------------------

  function start() {
    near = new IntersectionObserver(onNear, { rootMargin: NEAR });
    far = new IntersectionObserver(onFar, { rootMargin: FAR });
    Array.prototype.forEach.call(document.querySelectorAll("details.file[data-file]"), function (el) {
      var script = document.getElementById("diff-data-" + el.getAttribute("data-file"));
      var table = el.querySelector("table.diff");
      if (!script || !table) return;
      var data;
      try { data = JSON.parse(script.textContent); } catch (e) { return; }
      var f = { el: el, table: table, data: data, state: R.initialState(data), rows: [], chunks: [] };
      el._viewer = f;
      files.push(f);
      build(f, 0);
    });
    files.forEach(materialiseVisible);
    root.classList.add("js");

    var bar = document.getElementById("toolbar");
    if (bar) {
      var setBarHeight = function () { root.style.setProperty("--toolbar-h", bar.offsetHeight + "px"); };
      setBarHeight();
      if (window.ResizeObserver) new ResizeObserver(setBarHeight).observe(bar);
      bar.addEventListener("click", function (e) {
        var b = e.target.closest("button");
        if (!b) return;
        if (b.hasAttribute("data-set")) setChoice(b.getAttribute("data-set"), b.getAttribute("data-value"));
        else if (b.hasAttribute("data-toggle")) toggle(b.getAttribute("data-toggle"));
        else if (b.getAttribute("data-action") === "expand-all") {
          expandAll();
          b.hidden = true;
        }
      });
    }
    document.addEventListener("click", function (e) {
      var b = e.target.closest ? e.target.closest("button.xp") : null;
      if (b) {
        e.preventDefault();
        onExpand(b);
      }
    });
    // A file opened again after being collapsed has placeholders on screen.
    files.forEach(function (f) {
      f.el.addEventListener("toggle", function () { if (f.el.open) materialiseVisible(f); });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
