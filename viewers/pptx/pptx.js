// PPTX viewer: turns each rendered deck ([data-pptx]) into a one-slide-at-a-time viewer
// with a thumbnail rail, previous/next buttons, keys, a counter, a notes toggle and
// #slide-N deep links. Slides after the first arrive inside <template> elements and are
// materialised only when shown (or about to be); thumbnails are filled as they scroll
// into view. All state lives in a closure per deck, so any number of decks can share a
// page. No inline handlers: the page's CSP allows only this file.
//
// The renderer places this script, neither deferred nor async, right after a deck's first
// slide. It then runs while the rest of the page is still being parsed and sets that deck
// up on slide 1 at once, however many slides follow; what needs the whole deck (later
// slides, lazy thumbnails, #slide-N links to later slides) is completed on
// DOMContentLoaded. Loaded anywhere else, it sets every deck up when the page is parsed.
(function () {
  "use strict";

  // Sets a deck up. While the page is still being parsed (the script sits right after the
  // deck's first slide) only what is already there is used: slide 1, the toolbar and the
  // rail. finish() then completes the set-up once the page is parsed.
  function setup(root) {
    if (root.hasAttribute("data-pptx-ready")) return;
    var partial = document.readyState === "loading";
    // A #slide-N link to a later slide of this deck waits for that slide to be parsed:
    // until then the slides stack as without script, slide 1 on top.
    if (partial && hashSlide(root) > 1) {
      document.addEventListener("DOMContentLoaded", function () { setup(root); });
      return;
    }
    root.setAttribute("data-pptx-ready", "");
    var slides = [];
    function collect() {
      slides = Array.prototype.filter.call(root.querySelectorAll(".pptx-slide"), function (s) {
        return s.closest("[data-pptx]") === root;
      });
      // While parsing, the last slide found may not be complete yet: leave it out.
      if (partial && slides.length > 1) slides.pop();
    }
    collect();
    if (!slides.length) return;
    root.classList.add("pptx-js");
    // The rail and the toolbar come before the slides, so they are complete already.
    var thumbs = Array.prototype.slice.call(root.querySelectorAll(".pptx-thumb"));
    var counter = root.querySelector(".pptx-current");
    var prevBtn = root.querySelector('[data-pptx-action="prev"]');
    var nextBtn = root.querySelector('[data-pptx-action="next"]');
    var notesBtn = root.querySelector('[data-pptx-action="notes"]');
    var total = parseInt(root.getAttribute("data-count"), 10) || slides.length;
    var current = -1;

    function template(i) {
      var s = slides[i];
      if (!s) return null;
      for (var c = s.firstElementChild; c; c = c.nextElementSibling) {
        if (c.tagName === "TEMPLATE" && c.classList.contains("pptx-tpl")) return c;
      }
      return null;
    }

    function stageOf(i) {
      var s = slides[i];
      if (!s) return null;
      for (var c = s.firstElementChild; c; c = c.nextElementSibling) {
        if (c.classList.contains("pptx-stage")) return c;
      }
      return null;
    }

    function materialise(i) {
      var t = template(i);
      if (t) {
        t.parentNode.insertBefore(t.content.cloneNode(true), t);
        t.parentNode.removeChild(t);
      }
      return stageOf(i);
    }

    function fillThumb(th) {
      var view = th.querySelector(".pptx-thumb-view");
      if (!view || view.firstChild) return;
      var i = parseInt(th.getAttribute("data-slide"), 10) - 1;
      var t = template(i);
      var src = t ? t.content.firstElementChild : stageOf(i);
      if (!src) return;
      var clone = src.cloneNode(true);
      clone.setAttribute("aria-hidden", "true");
      clone.setAttribute("inert", "");
      uniqueIds(clone, "-thumb");
      view.appendChild(clone);
    }

    function idle(fn) {
      if (window.requestIdleCallback) window.requestIdleCallback(fn, { timeout: 500 });
      else window.setTimeout(fn, 50);
    }

    function show(i, opts) {
      opts = opts || {};
      if (partial && i > slides.length - 1) collect();
      if (i < 0) i = 0;
      if (i > slides.length - 1) i = slides.length - 1;
      if (i === current) return;
      materialise(i);
      if (current < 0) {
        // The page marks slide 1 current so that it shows without script; the first
        // slide shown (slide N of a #slide-N link) takes that over.
        slides.forEach(function (s, k) { if (k !== i) s.classList.remove("is-current"); });
        thumbs.forEach(function (th, k) {
          if (k === i) return;
          th.classList.remove("is-current");
          th.removeAttribute("aria-current");
        });
      } else {
        slides[current].classList.remove("is-current");
        if (thumbs[current]) {
          thumbs[current].classList.remove("is-current");
          thumbs[current].removeAttribute("aria-current");
        }
      }
      current = i;
      slides[i].classList.add("is-current");
      var th = thumbs[i];
      if (th) {
        th.classList.add("is-current");
        th.setAttribute("aria-current", "true");
        fillThumb(th);
        if (opts.scrollThumb !== false) th.scrollIntoView({ block: "nearest" });
      }
      if (counter) counter.textContent = String(i + 1);
      if (prevBtn) prevBtn.disabled = i === 0;
      if (nextBtn) nextBtn.disabled = i >= (partial ? total : slides.length) - 1;
      if (opts.hash && window.history && window.history.replaceState) {
        window.history.replaceState(null, "", "#" + slides[i].id);
      }
      // Have the neighbours ready before they are asked for.
      idle(function () {
        materialise(i + 1);
        materialise(i - 1);
      });
    }

    function step(d) {
      show(current + d, { hash: true });
    }

    function toggleNotes() {
      var on = root.classList.toggle("pptx-show-notes");
      if (notesBtn) notesBtn.setAttribute("aria-pressed", on ? "true" : "false");
    }

    function onKey(e) {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      var t = e.target;
      if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
      switch (e.key) {
        case "ArrowRight": case "ArrowDown": case "PageDown": step(1); break;
        case "ArrowLeft": case "ArrowUp": case "PageUp": step(-1); break;
        case "Home": show(0, { hash: true }); break;
        case "End": show(slides.length - 1, { hash: true }); break;
        default: return;
      }
      e.preventDefault();
    }

    function fromHash() {
      var n = hashSlide(root);
      if (!(n >= 1 && n <= slides.length)) return false;
      show(n - 1, {});
      return true;
    }

    root.addEventListener("click", function (e) {
      var el = e.target instanceof Element ? e.target : null;
      if (!el) return;
      var action = el.closest("[data-pptx-action]");
      if (action && root.contains(action)) {
        var a = action.getAttribute("data-pptx-action");
        if (a === "prev") step(-1);
        else if (a === "next") step(1);
        else if (a === "notes") toggleNotes();
        return;
      }
      var jump = el.closest("[data-pptx-goto],.pptx-thumb");
      if (jump && root.contains(jump)) {
        e.preventDefault();
        var n = parseInt(jump.getAttribute("data-pptx-goto") || jump.getAttribute("data-slide"), 10);
        if (n >= 1) show(n - 1, { hash: true, scrollThumb: !jump.classList.contains("pptx-thumb") });
      }
    });
    root.addEventListener("keydown", onKey);
    window.addEventListener("hashchange", fromHash);
    // With a single deck on the page, keys work without focusing it first.
    document.addEventListener("keydown", function (e) {
      // Keys aimed at the deck itself were handled by its own listener already.
      if (root.contains(e.target)) return;
      var active = document.activeElement;
      if (active && active !== document.body && active !== document.documentElement) return;
      if (document.querySelectorAll("[data-pptx]").length !== 1) return;
      onKey(e);
    });

    // What needs the whole deck: every slide, lazy thumbnails and links to later slides.
    function finish() {
      partial = false;
      collect();
      if (nextBtn) nextBtn.disabled = current === slides.length - 1;
      window.addEventListener("hashchange", fromHash);
      if ("IntersectionObserver" in window) {
        var io = new IntersectionObserver(function (entries) {
          entries.forEach(function (en) {
            if (en.isIntersecting) {
              fillThumb(en.target);
              io.unobserve(en.target);
            }
          });
        }, { root: root.querySelector(".pptx-rail"), rootMargin: "200px" });
        thumbs.forEach(function (th) { io.observe(th); });
      } else {
        idle(function () { thumbs.forEach(fillThumb); });
      }
      if (!fromHash() && current < 0) show(0, {});
      // Have the neighbours ready before they are asked for (they were not parsed yet
      // when slide 1 was shown).
      idle(function () {
        materialise(current + 1);
        materialise(current - 1);
      });
    }

    if (partial) {
      show(0, {});
      document.addEventListener("DOMContentLoaded", finish);
    } else {
      finish();
    }
  }

  // Gives every id inside a thumbnail's clone SUFFIX, and points the clone's references
  // (url(#id) in attributes, #id in href) at the renamed ids. Without it each SVG gradient,
  // clip path or marker of a slide would be on the page twice, which is invalid, and
  // url(#id) would resolve to the rail's copy: hidden or scrolled away, the slide's shapes
  // would then paint empty in Chromium.
  function uniqueIds(clone, suffix) {
    var named = clone.querySelectorAll("[id]");
    if (!named.length) return;
    var map = Object.create(null);
    Array.prototype.forEach.call(named, function (el) {
      map[el.id] = el.id + suffix;
      el.id = map[el.id];
    });
    var urlRef = /url\(\s*(['"]?)#([^'")\s]+)\1\s*\)/g;
    var all = [clone].concat(Array.prototype.slice.call(clone.querySelectorAll("*")));
    all.forEach(function (el) {
      Array.prototype.forEach.call(el.attributes, function (attr) {
        var v = attr.value;
        if (v.indexOf("#") < 0) return;
        var nv = v.replace(urlRef, function (m, q, id) {
          return map[id] ? "url(#" + map[id] + ")" : m;
        });
        if (attr.localName === "href" && nv.charAt(0) === "#" && map[nv.slice(1)]) nv = "#" + map[nv.slice(1)];
        if (nv !== v) attr.value = nv;
      });
    });
  }

  // The slide number a #slide-N fragment names in this deck (0 when it names none).
  function hashSlide(root) {
    var h = window.location.hash.slice(1);
    try { h = decodeURIComponent(h); } catch (err) { return 0; }
    var prefix = root.getAttribute("data-id-prefix") || "";
    if (h.indexOf(prefix + "slide-") !== 0) return 0;
    var rest = h.slice(prefix.length + 6);
    return /^[0-9]+$/.test(rest) ? parseInt(rest, 10) : 0;
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-pptx]"), setup);
  }

  // Decks inserted later (a viewer shell switching views) are set up too. The observer
  // starts only once the page is parsed, so no deck is set up half-read by it.
  function start() {
    init();
    if (!("MutationObserver" in window)) return;
    new MutationObserver(function (records) {
      for (var i = 0; i < records.length; i++) {
        var added = records[i].addedNodes;
        for (var j = 0; j < added.length; j++) {
          var n = added[j];
          if (n.nodeType === 1 && (n.hasAttribute("data-pptx") || n.querySelector("[data-pptx]"))) {
            init();
            return;
          }
        }
      }
    }).observe(document.documentElement, { childList: true, subtree: true });
  }

  // Run right after a deck's first slide: set that deck up now.
  var here = document.currentScript;
  var deck = document.readyState === "loading" && here ? here.closest("[data-pptx]") : null;
  if (deck) setup(deck);
  // The script may be on a page once per deck; only its first run watches the page.
  if (document.documentElement.hasAttribute("data-pptx-watch")) return;
  document.documentElement.setAttribute("data-pptx-watch", "");
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
