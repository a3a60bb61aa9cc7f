// Pages for the DOCX Document view. The server draws each page of a section as one frame
// and breaks frames only where the document says (page and section breaks): it cannot
// know where the browser's lines fall. Once the fonts are in, this script splits a frame
// whose body runs past its page's bottom margin into pages, as a word processor does:
// blocks that do not fit move to a new frame with the section's header and footer, a
// paragraph is split between its lines (two lines at least on each side, Word's widow
// and orphan control; none when it keeps its lines together), a table between its rows
// (repeating its header rows, keeping rows kept with the next together), and a paragraph
// kept with the next goes with it. Page number fields are numbered again afterwards. A
// resize of the view undoes and redoes it, since the text wraps anew in a narrower frame.
//
// Limits: a frame holding columns (`.docx-set`) is left as drawn; a block taller than a
// page stays whole on its page; a paragraph holding a text box or a floating object
// stays whole (floating objects move with the paragraph that anchors them).
(function () {
  "use strict";

  // A length custom property of a frame (`--page-h`, in pt), in CSS px.
  function length(frame, name) {
    const probe = document.createElement("div");
    probe.style.cssText = "position:absolute;visibility:hidden;height:var(" + name + ")";
    frame.appendChild(probe);
    const h = probe.getBoundingClientRect().height;
    probe.remove();
    return h;
  }

  // The y (viewport px) below which a frame's body may not draw: the bottom margin, or
  // the footer's top where the footer reaches higher (Word ends the body above it). The
  // footer's text ends --ftr above the frame's bottom, which is still the unsplit
  // frame's, so its top on the page is found from the height of its text (its box
  // reaches up to the page's top; objects it places itself do not count).
  function limitOf(frame) {
    const bottom = frame.getBoundingClientRect().top + length(frame, "--page-h");
    const margin = bottom - length(frame, "--m-bottom");
    const footer = frame.querySelector(":scope > footer");
    if (!footer) return margin;
    const end = footer.getBoundingClientRect().bottom;
    let top = end;
    Array.from(footer.children).forEach(function (c) {
      if (getComputedStyle(c).position === "absolute") return;
      top = Math.min(top, c.getBoundingClientRect().top - parseFloat(getComputedStyle(c).marginTop || "0"));
    });
    return Math.min(margin, bottom - length(frame, "--ftr") - (end - top));
  }

  // What stands in a line as one piece: pictures, charts, diagrams, equations.
  const ATOM = "img, svg, math, .docx-chart, .docx-diagram, .docx-placeholder, .docx-group";

  // Where the lines of a paragraph start: [{node, offset, top, bottom}], `offset` -1 for
  // a line that starts with a piece (`node`, an inline picture, say) rather than text.
  // A line is as tall as what it holds: a picture reaches above the text beside it.
  function lines(p) {
    const out = [];
    const walk = document.createTreeWalker(p, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT, {
      acceptNode: function (n) {
        if (n.nodeType === Node.TEXT_NODE) return NodeFilter.FILTER_ACCEPT;
        if (n.matches(".docx-list-label, .docx-textbox")) return NodeFilter.FILTER_REJECT;
        return n.matches(ATOM) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP;
      },
    });
    const range = document.createRange();
    let node;
    let last = null;
    const add = function (node, offset, r) {
      if (!last || r.top >= last.bottom - 1) {
        last = { node: node, offset: offset, top: r.top, bottom: r.bottom };
        out.push(last);
      } else {
        last.top = Math.min(last.top, r.top);
        last.bottom = Math.max(last.bottom, r.bottom);
      }
    };
    while ((node = walk.nextNode())) {
      if (node.nodeType === Node.ELEMENT_NODE) {
        // A piece is measured whole and not walked into.
        const r = node.getBoundingClientRect();
        if (r.height) add(node, -1, r);
        continue;
      }
      const text = node.data;
      for (let i = 0; i < text.length; i++) {
        if (text[i] === " " || text[i] === "\u2060") continue;
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const r = range.getBoundingClientRect();
        if (r.height) add(node, i, r);
      }
    }
    return out;
  }

  // Header rows (cells drawn as <th>) lead a table and repeat on each of its pages.
  function headerRows(t) {
    const rows = Array.from(t.rows);
    let n = 0;
    while (n < rows.length && rows[n].cells.length && Array.from(rows[n].cells).every(function (c) { return c.tagName === "TH"; })) n++;
    return n;
  }

  // Where a frame's body breaks into pages, measured on the layout as the server drew it
  // (one pass of reads, so a long document is laid out once, not once per page): a list
  // of cuts, each before block `index`, or inside it at a line (`line`: its first
  // character) or a row (`row`).
  function plan(frame, body) {
    const blocks = Array.from(body.children);
    const cuts = [];
    if (blocks.length === 0) return cuts;
    // The top of a block's box, its space above included.
    const topOf = function (b) {
      return b.getBoundingClientRect().top - parseFloat(getComputedStyle(b).marginTop || "0");
    };
    // From the first block's space above: the body shares the page's formatting context
    // with the header, so that space is outside the body's own box.
    const avail = limitOf(frame) - topOf(blocks[0]);
    if (avail <= 0) return cuts;
    let start = topOf(blocks[0]);
    let first = true; // the block being looked at opens its page
    let opened = 0; // the block the page opened with (or inside)
    let kept = -1; // the block a keep-with-next chain was last moved for
    // Where a page that would open with block `i` opens instead: before the paragraphs
    // above it that keep with their next (Word's "keep with next": a heading goes with
    // the text it heads), unless that chain runs up to the page's first block (then
    // Word breaks it as if unkept).
    const keepStart = function (i) {
      let j = i;
      while (j - 1 > opened && blocks[j - 1].hasAttribute("data-keep-next")) j--;
      return j;
    };
    // A page opening with block `i`: `false` when it opened earlier, with a chain of
    // kept paragraphs; the caller then looks at block `i` again on that new page.
    const open = function (i) {
      const j = kept === i ? i : keepStart(i);
      cuts.push({ index: j });
      opened = j;
      start = topOf(blocks[j]);
      first = true;
      if (j === i) return true;
      kept = i;
      first = false;
      return false;
    };
    blocks: for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i];
      const r = block.getBoundingClientRect();
      if (r.bottom - start <= avail + 0.5) {
        first = false;
        continue;
      }
      // Paragraphs holding text boxes or floating objects (placed from the paragraph)
      // stay whole; inline pictures are pieces of their lines.
      const paragraph = /^(P|H[1-6])$/.test(block.tagName) &&
        !block.querySelector('.docx-textbox, [style*="position:absolute"], [style*="float:"]');
      // Lines kept together split only when they are taller than a page.
      if (paragraph && !(block.hasAttribute("data-keep-lines") && r.height <= avail)) {
        // Cut between lines, two at least on each side of a cut, as often as it takes.
        const all = lines(block);
        let from = 0;
        for (;;) {
          let k = from;
          while (k < all.length && all[k].bottom - start <= avail + 0.5) k++;
          if (k >= all.length) break;
          if (all.length - k < 2) k = all.length - 2;
          if (k - from < 2) {
            if (from === 0 && !first) {
              if (!open(i)) {
                i--;
                continue blocks;
              }
              start = all[0].top;
              continue;
            }
            k = Math.max(k, from + 1);
            if (k >= all.length) break;
          }
          cuts.push({ index: i, line: all[k] });
          opened = i;
          start = all[k].top;
          from = k;
          first = true;
        }
        first = false;
        continue;
      }
      if (block.tagName === "TABLE") {
        const rows = Array.from(block.rows);
        const heads = headerRows(block);
        const headHeight = heads ? rows[heads - 1].getBoundingClientRect().bottom - rows[0].getBoundingClientRect().top : 0;
        let from = heads;
        for (;;) {
          let k = from;
          while (k < rows.length && rows[k].getBoundingClientRect().bottom - start <= avail + 0.5) k++;
          if (k >= rows.length) break;
          // Rows are not split: one taller than a page would be no better on the next
          // (and would leave this one blank), so it stays and fills this page.
          const tall = rows[k].getBoundingClientRect();
          if (tall.height + headHeight > avail + 0.5) {
            start = tall.bottom - avail - 1;
            from = k + 1;
            first = false;
            if (from >= rows.length) break;
            continue;
          }
          // A row holding a paragraph kept with the next goes to the next page with the
          // row after it (Word's rule: "keep with next" on all rows but the last keeps a
          // table on one page). A chain reaching back to the table's first row on a page
          // with blocks above moves the whole table; one reaching the page's first row
          // breaks as if unkept.
          let kept = k;
          while (kept > from && rows[kept - 1].querySelector("[data-keep-next]")) kept--;
          if (kept > from || (from === heads && !first)) k = kept;
          if (k === from) {
            if (k === heads && !first) {
              if (!open(i)) {
                i--;
                continue blocks;
              }
              start = r.top;
              continue;
            }
            k = from + 1;
            if (k >= rows.length) break;
          }
          cuts.push({ index: i, row: k });
          opened = i;
          start = rows[k].getBoundingClientRect().top - headHeight;
          from = k;
          first = true;
        }
        first = false;
        continue;
      }
      if (!first && !open(i)) {
        i--;
        continue;
      }
      // A block taller than a page stays whole on its own page, which it fills.
      if (r.bottom - start > avail + 0.5) start = r.bottom - avail - 1;
      first = false;
    }
    return cuts;
  }

  // The continuation of paragraph `p` from `line` on (taken out of `p`).
  function restOfParagraph(p, line) {
    const range = document.createRange();
    if (line.offset < 0) range.setStartBefore(line.node);
    else range.setStart(line.node, line.offset);
    range.setEndAfter(p.lastChild);
    const rest = p.cloneNode(false);
    rest.appendChild(range.extractContents());
    rest.style.textIndent = "0";
    rest.style.marginTop = "0";
    rest.dataset.docxRest = "";
    p.dataset.docxSplit = "";
    return rest;
  }

  // The continuation of table `t` from row `row` on, its header rows repeated.
  function restOfTable(t, row) {
    const rows = Array.from(t.rows);
    const heads = headerRows(t);
    const rest = t.cloneNode(false);
    Array.from(t.children).forEach(function (c) {
      if (c.tagName === "COLGROUP") rest.appendChild(c.cloneNode(true));
    });
    const body = document.createElement("tbody");
    rows.slice(0, heads).forEach(function (r) {
      const copy = r.cloneNode(true);
      copy.dataset.docxRepeat = "";
      body.appendChild(copy);
    });
    rows.slice(row).forEach(function (r) { body.appendChild(r); });
    rest.appendChild(body);
    rest.dataset.docxRest = "";
    t.dataset.docxSplit = "";
    return rest;
  }

  // A new frame for the page after `frame`: its attributes, page border, header and
  // footer (the section's later pages' own when the server gave them), an empty body.
  function nextFrame(frame) {
    const next = frame.cloneNode(false);
    next.dataset.docxContinued = "";
    const later = frame.querySelector(":scope > template.docx-later-pages");
    Array.from(frame.children).forEach(function (c) {
      if (c.tagName === "TEMPLATE") {
        next.appendChild(c.cloneNode(true));
      } else if (c.classList.contains("docx-body")) {
        next.appendChild(c.cloneNode(false));
      } else if (later && (c.tagName === "HEADER" || c.tagName === "FOOTER")) {
        const own = later.content.querySelector(c.tagName.toLowerCase());
        if (own) next.appendChild(own.cloneNode(true));
      } else {
        next.appendChild(c.cloneNode(true));
      }
    });
    if (later) {
      // A later page of a section with a first-page header has the others' header and
      // footer, even where the first page had none.
      ["header", "footer"].forEach(function (tag) {
        const own = later.content.querySelector(tag);
        if (own && !next.querySelector(":scope > " + tag)) {
          const body = next.querySelector(":scope > .docx-body");
          next.insertBefore(own.cloneNode(true), tag === "header" ? body : body.nextSibling);
        }
      });
    }
    return next;
  }

  // Breaks `frame` into pages: measures, then moves (one layout for the whole frame).
  function split(frame) {
    const body = frame.querySelector(":scope > .docx-body");
    if (!body || body.querySelector(":scope > .docx-set")) return;
    const blocks = Array.from(body.children);
    const cuts = plan(frame, body);
    if (cuts.length === 0) return;
    // The elements that open a page: a cut block, or the continuation a cut inside a
    // block makes (cut from the last, so earlier cuts' places stay where measured).
    const opens = new Set();
    for (let c = cuts.length - 1; c >= 0; c--) {
      const cut = cuts[c];
      const block = blocks[cut.index];
      if (cut.line) {
        const rest = restOfParagraph(block, cut.line);
        block.after(rest);
        opens.add(rest);
      } else if (cut.row !== undefined) {
        const rest = restOfTable(block, cut.row);
        block.after(rest);
        opens.add(rest);
      } else {
        opens.add(block);
      }
    }
    let current = frame;
    let target = body;
    const frames = [];
    Array.from(body.children).forEach(function (b) {
      if (opens.has(b)) {
        current = nextFrame(frame);
        frames.push(current);
        target = current.querySelector(":scope > .docx-body");
      }
      if (target !== body) target.appendChild(b);
    });
    frame.after.apply(frame, frames);
  }

  // Numbers the frames and their page number fields.
  function number(root) {
    const frames = Array.from(root.querySelectorAll(".docx-page"));
    frames.forEach(function (frame, i) {
      frame.setAttribute("aria-label", "Page " + (i + 1));
      parity(frame, i + 1);
      frame.querySelectorAll(".docx-pgnum").forEach(function (f) {
        f.textContent = String(f.dataset.field === "PAGE" ? i + 1 : frames.length);
      });
    });
  }

  // With different odd and even headers (the frame carries a template of the even
  // pages'), page `n` takes the header and footer of its parity, unless it is its
  // section's title page. The server chose by its own count of frames, which the split
  // frames have since changed.
  function parity(frame, n) {
    const even = frame.querySelector(":scope > template.docx-even-pages");
    if (!even) return;
    if (frame.hasAttribute("data-docx-title-page") && !frame.hasAttribute("data-docx-continued")) return;
    const own = n % 2 === 0 ? even : frame.querySelector(":scope > template.docx-later-pages");
    const body = frame.querySelector(":scope > .docx-body");
    ["header", "footer"].forEach(function (tag) {
      const want = own && own.content.querySelector(tag);
      const have = frame.querySelector(":scope > " + tag);
      if (have && want && have.innerHTML === want.innerHTML) return;
      if (have) have.remove();
      if (want && body) frame.insertBefore(want.cloneNode(true), tag === "header" ? body : body.nextSibling);
    });
  }

  // Puts everything back into the frames the server drew.
  function join(root) {
    Array.from(root.querySelectorAll(".docx-page[data-docx-continued]")).reverse().forEach(function (frame) {
      const prev = frame.previousElementSibling;
      const to = prev && prev.querySelector(":scope > .docx-body");
      const from = frame.querySelector(":scope > .docx-body");
      if (to && from) {
        Array.from(from.children).forEach(function (b) {
          const last = to.lastElementChild;
          if (b.hasAttribute("data-docx-rest") && last && last.hasAttribute("data-docx-split")) {
            if (b.tagName === "TABLE") {
              const body = last.tBodies[last.tBodies.length - 1] || last;
              Array.from(b.tBodies).forEach(function (tb) {
                Array.from(tb.rows).forEach(function (r) {
                  if (r.hasAttribute("data-docx-repeat")) r.remove();
                  else body.appendChild(r);
                });
              });
            } else {
              while (b.firstChild) last.appendChild(b.firstChild);
              last.normalize();
            }
            last.removeAttribute("data-docx-split");
          } else {
            to.appendChild(b);
          }
        });
      }
      frame.remove();
    });
  }

  function paginate(root) {
    join(root);
    Array.from(root.querySelectorAll(".docx-page")).forEach(split);
    number(root);
  }

  // Paginates each document once its fonts are in, again when a face loads later (text
  // in it reflows) and whenever its width changes (a resized pane, or a hidden view
  // shown: a hidden one has no layout to measure).
  function start() {
    const roots = Array.from(document.querySelectorAll("article.docx"));
    if (roots.length === 0) return;
    const runs = roots.map(function (root) {
      let width = -1;
      return function (force) {
        const w = root.getBoundingClientRect().width;
        if (w === 0 || (w === width && !force)) return;
        width = w;
        paginate(root);
      };
    });
    let timer = 0;
    const fonts = document.fonts;
    // Lays the pages out; when that made faces load (text on the new pages uses them),
    // again once they are in. `data-docx-paginated` on the root element tells a test or
    // a screenshot that the pages are final.
    // (A face starts loading when a frame is painted with it: look after two frames.)
    const settle = function (force) {
      runs.forEach(function (run) { run(force); });
      requestAnimationFrame(function () {
        requestAnimationFrame(function () {
          if (fonts && fonts.status === "loading") {
            fonts.ready.then(function () { settle(true); });
          } else {
            document.documentElement.dataset.docxPaginated = String(Date.now());
          }
        });
      });
    };
    const later = function (force) {
      clearTimeout(timer);
      timer = setTimeout(function () { settle(force); }, 100);
    };
    // Reading a box lays the page out, which starts loading the faces its text uses;
    // `fonts.ready` then waits for them.
    roots.forEach(function (root) { root.getBoundingClientRect(); });
    const ready = fonts && fonts.ready ? fonts.ready : Promise.resolve();
    ready.then(function () {
      settle(true);
      if (fonts && fonts.addEventListener) fonts.addEventListener("loadingdone", function () { later(true); });
      if (window.ResizeObserver) {
        const observer = new ResizeObserver(function () { later(false); });
        roots.forEach(function (root) { observer.observe(root); });
      }
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
