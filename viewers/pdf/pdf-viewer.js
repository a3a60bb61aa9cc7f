// previewd's PDF viewer. The server renders pages; this script only decides which pages
// to ask for (those in view, at the zoom times the device pixel ratio), lays each page's
// text runs over its raster so selection and find work, and drives the toolbar.
(function () {
  'use strict';
  var root = document.getElementById('pdf-viewer');
  if (!root) return;
  var scroller = root.querySelector('.pdf-pages');
  var pages = Array.prototype.slice.call(scroller.querySelectorAll('.pdf-page'));
  var input = root.querySelector('.pdf-page-input');
  var zoomSelect = root.querySelector('.pdf-zoom');
  var outline = root.querySelector('.pdf-outline');
  var LEVELS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4];
  // Text layers of pages not yet in view are fetched in the background (so the browser's
  // find reaches them), up to this many pages.
  var BACKGROUND_TEXT_PAGES = 400;
  var mode = 'fit-width';
  var zoom = 1;
  var current = 1;
  var visible = new Set();
  var measure = document.createElement('canvas').getContext('2d');

  function size(p) { return { w: +p.dataset.w, h: +p.dataset.h }; }

  function fitHeight() {
    var top = root.getBoundingClientRect().top + window.scrollY;
    root.style.height = Math.max(320, window.innerHeight - top) + 'px';
  }

  function computeZoom() {
    var availW = scroller.clientWidth - 24;
    var availH = scroller.clientHeight - 24;
    if (mode === 'fit-width') {
      var widest = 1;
      for (var i = 0; i < pages.length; i++) widest = Math.max(widest, size(pages[i]).w);
      return clamp(availW / widest);
    }
    if (mode === 'fit-page') {
      var s = size(pages[current - 1]);
      return clamp(Math.min(availW / s.w, availH / s.h));
    }
    return clamp(+mode);
  }

  function clamp(z) { return Math.max(0.1, Math.min(8, z || 1)); }

  function pixelScale() { return Math.min(8, zoom * (window.devicePixelRatio || 1)); }

  function quantized() { return Math.ceil(pixelScale() * 8) / 8; }

  function layout() {
    var keep = current;
    zoom = computeZoom();
    pages.forEach(function (p) {
      var s = size(p);
      p.style.width = (s.w * zoom) + 'px';
      p.style.height = (s.h * zoom) + 'px';
      var layer = p.querySelector('.pdf-text');
      if (layer) layer.style.transform = 'scale(' + zoom + ')';
      p.querySelectorAll('.pdf-link').forEach(function (a) {
        a.style.left = (a.dataset.x * zoom) + 'px';
        a.style.top = (a.dataset.y * zoom) + 'px';
        a.style.width = (a.dataset.w * zoom) + 'px';
        a.style.height = (a.dataset.h * zoom) + 'px';
      });
      if (p.dataset.scale && +p.dataset.scale !== quantized()) {
        if (visible.has(p)) paint(p); else p.dataset.stale = '1';
      }
    });
    go(keep, true);
  }

  // Asks for the page's raster at the current scale; the old raster stays until the new
  // one has loaded. Zoom steps can ask again before a raster arrives, and rasters arrive
  // in any order: each one removes only those asked for before it, so the last one asked
  // for is the one that stays.
  var asked = 0;
  function paint(p) {
    var scale = quantized();
    if (p.dataset.scale && +p.dataset.scale === scale && !p.dataset.stale) return;
    p.dataset.scale = scale;
    delete p.dataset.stale;
    var img = new Image();
    var order = ++asked;
    img.className = 'pdf-raster';
    img.alt = '';
    img.decoding = 'async';
    img.dataset.order = order;
    img.onload = function () {
      // Already replaced by a raster asked for later.
      if (!img.isConnected) return;
      p.querySelectorAll('.pdf-raster').forEach(function (other) {
        if (+other.dataset.order < order) other.remove();
      });
      p.dataset.state = 'painted';
      if (p.dataset.page === '1') startBackgroundText();
    };
    img.onerror = function () { p.dataset.state = 'failed'; };
    img.src = 'page/' + p.dataset.page + '?scale=' + scale;
    p.insertBefore(img, p.firstChild);
  }

  function loadText(p) {
    if (p.dataset.text) return Promise.resolve();
    p.dataset.text = 'loading';
    return fetch('text/' + p.dataset.page, { credentials: 'same-origin' })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (data) { buildText(p, data); p.dataset.text = 'ready'; })
      .catch(function () { p.dataset.text = 'failed'; });
  }

  function buildText(p, data) {
    var layer = document.createElement('div');
    layer.className = 'pdf-text';
    layer.style.width = data.width + 'px';
    layer.style.height = data.height + 'px';
    layer.style.transform = 'scale(' + zoom + ')';
    var runs = data.runs || [];
    for (var i = 0; i < runs.length; i++) {
      var run = runs[i];
      var span = document.createElement('span');
      span.textContent = run.t;
      var ascent = run.s * 0.8;
      span.style.left = run.x + 'px';
      span.style.top = (run.y - ascent) + 'px';
      span.style.fontSize = run.s + 'px';
      span.style.transformOrigin = '0 ' + ascent + 'px';
      measure.font = run.s + 'px sans-serif';
      var natural = measure.measureText(run.t).width;
      var transform = run.a ? 'rotate(' + run.a + 'deg) ' : '';
      if (natural > 0 && run.w > 0) transform += 'scaleX(' + (run.w / natural) + ')';
      if (transform) span.style.transform = transform;
      layer.appendChild(span);
      var next = runs[i + 1];
      // Breaks between lines and spaces between runs of one line make copied text read
      // as it does on the page.
      if (next && Math.abs(next.y - run.y) > run.s * 0.5) layer.appendChild(document.createElement('br'));
      else if (next) layer.appendChild(document.createTextNode(' '));
    }
    var link = p.querySelector('.pdf-link');
    p.insertBefore(layer, link);
  }

  var backgroundStarted = false;
  function startBackgroundText() {
    if (backgroundStarted) return;
    backgroundStarted = true;
    var queue = pages.slice(0, BACKGROUND_TEXT_PAGES);
    function next() {
      var p = queue.shift();
      if (!p) return;
      loadText(p).then(function () { setTimeout(next, 0); });
    }
    next();
    next();
  }

  var observer = new IntersectionObserver(function (entries) {
    entries.forEach(function (e) {
      if (e.isIntersecting) {
        visible.add(e.target);
        paint(e.target);
        loadText(e.target);
      } else {
        visible.delete(e.target);
      }
    });
  }, { root: scroller, rootMargin: '0px' });

  function pageAtTop() {
    var mark = scroller.scrollTop + scroller.clientHeight * 0.3;
    var lo = 0, hi = pages.length - 1;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (pages[mid].offsetTop + pages[mid].offsetHeight < mark) lo = mid + 1; else hi = mid;
    }
    return lo + 1;
  }

  var ticking = false;
  scroller.addEventListener('scroll', function () {
    if (ticking) return;
    ticking = true;
    requestAnimationFrame(function () {
      ticking = false;
      current = pageAtTop();
      if (document.activeElement !== input) input.value = current;
    });
  });

  function go(n, instant) {
    n = Math.max(1, Math.min(pages.length, n | 0));
    current = n;
    input.value = n;
    scroller.scrollTop = pages[n - 1].offsetTop - 12;
    if (!instant) pages[n - 1].focus && pages[n - 1].focus({ preventScroll: true });
  }

  function setMode(value) {
    mode = value;
    var option = zoomSelect.querySelector('option[value="' + value + '"]');
    if (!option) {
      option = document.createElement('option');
      option.value = value;
      option.textContent = Math.round(+value * 100) + '%';
      zoomSelect.appendChild(option);
    }
    zoomSelect.value = value;
    layout();
  }

  function step(dir) {
    var z = zoom;
    var level = dir > 0
      ? LEVELS.find(function (l) { return l > z + 0.001; }) || LEVELS[LEVELS.length - 1]
      : LEVELS.slice().reverse().find(function (l) { return l < z - 0.001; }) || LEVELS[0];
    setMode(String(level));
  }

  root.querySelector('.pdf-toolbar').addEventListener('click', function (e) {
    var button = e.target.closest('button');
    if (!button) return;
    var act = button.dataset.act;
    if (act === 'prev') go(current - 1);
    else if (act === 'next') go(current + 1);
    else if (act === 'zoom-in') step(1);
    else if (act === 'zoom-out') step(-1);
    else if (act === 'outline' && outline) {
      outline.hidden = !outline.hidden;
      button.setAttribute('aria-pressed', String(!outline.hidden));
      layout();
    }
  });
  // A match that the page's find (`window.find`) or the keyboard selected out of view is
  // brought into view (Chromium selects it without scrolling the page column); the page's
  // raster then follows through the observer.
  // Only a selection that moved: Chromium also fires `selectionchange` when focus moves
  // (the page box's jump focuses the target page), and answering that with a scroll
  // back to an old match undid the jump.
  var lastSelection = [];
  document.addEventListener('selectionchange', function () {
    var selection = document.getSelection();
    if (!selection || selection.isCollapsed || !selection.focusNode) return;
    var now = [selection.anchorNode, selection.anchorOffset, selection.focusNode, selection.focusOffset];
    var same = now.every(function (v, i) { return v === lastSelection[i]; });
    lastSelection = now;
    if (same) return;
    var node = selection.focusNode.nodeType === 1 ? selection.focusNode : selection.focusNode.parentElement;
    var span = node && node.closest && node.closest('.pdf-text span');
    if (!span || !scroller.contains(span)) return;
    var view = scroller.getBoundingClientRect();
    var at = span.getBoundingClientRect();
    if (at.bottom < view.top || at.top > view.bottom) {
      scroller.scrollTop += at.top - view.top - scroller.clientHeight / 3;
    }
  });
  zoomSelect.addEventListener('change', function () { setMode(zoomSelect.value); });
  input.addEventListener('change', function () { go(+input.value); });
  input.addEventListener('keydown', function (e) { if (e.key === 'Enter') go(+input.value); });
  if (outline) {
    outline.addEventListener('click', function (e) {
      var a = e.target.closest('a[data-page]');
      if (!a) return;
      e.preventDefault();
      go(+a.dataset.page);
    });
  }
  // The panel may start hidden (another view selected): the fit is computed whenever the
  // column's width changes, which includes being shown.
  var lastWidth = scroller.clientWidth;
  new ResizeObserver(function () {
    if (scroller.clientWidth === lastWidth) return;
    lastWidth = scroller.clientWidth;
    if (mode === 'fit-width' || mode === 'fit-page') layout();
  }).observe(scroller);
  window.addEventListener('resize', fitHeight);
  // A zoom of the browser changes the device pixel ratio: sharper pages are asked for.
  if (window.matchMedia) {
    var watchRatio = function () {
      var query = window.matchMedia('(resolution: ' + (window.devicePixelRatio || 1) + 'dppx)');
      query.addEventListener('change', function () { layout(); watchRatio(); }, { once: true });
    };
    watchRatio();
  }

  fitHeight();
  layout();
  pages.forEach(function (p) { observer.observe(p); });
})();
