// previewd diff viewer runtime: turns one file's JSON (written by diff::view) into table
// rows for either layout. Pure functions, no DOM access, so viewer.js can build any slice of
// rows when it is needed and rebuild after a layout switch or an expansion.
//
// File JSON: { hunks: [{o, oc, n, nc, s, l: [[kind, old, new, cellHtml, noNewline]]}],
//              gaps: [{b, o, n, len, l: [cellHtml] | null}], x: expandUnchanged }
// kind: 0 context, 1 added, 2 deleted; line number 0 means "none". Cell HTML was escaped
// by the server; everything else that reaches markup (numbers, section text) is escaped
// here. The markup matches the rows diff::view writes itself.
(function (global) {
  "use strict";

  var KIND = ["ctx", "add", "del"];
  var ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
  var EOF_MARK = '<span class="eof" title="No newline at end of file" aria-label="No newline at end of file"></span>';

  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) { return ENTITIES[c]; });
  }

  function unmodified(n) {
    return n === 1 ? "1 unmodified line" : n + " unmodified lines";
  }

  // Per gap: lines shown from its top (continuing the hunk above) and from its bottom
  // (leading into the hunk below).
  function initialState(file) {
    return file.gaps.map(function (g) {
      return { top: file.x && g.l ? g.len : 0, bottom: 0 };
    });
  }

  // Row descriptors:
  //   {t: "u", k, o, n, h, e}             unified line
  //   {t: "s", l: side|null, r: side|null} split pair; side = {k, n, h, e}
  //   {t: "g", g, rem, hunk, first, last, exp}   collapsed gap
  //   {t: "hh", hunk}                       hunk header without a gap
  function buildRows(file, layout, state) {
    var rows = [];
    var hunks = file.hunks;
    var split = layout === "split";
    var gapBefore = {};
    file.gaps.forEach(function (g, i) { gapBefore[g.b] = i; });

    function context(o, n, h) {
      if (split) rows.push({ t: "s", l: { k: 0, n: o, h: h, e: 0 }, r: { k: 0, n: n, h: h, e: 0 } });
      else rows.push({ t: "u", k: 0, o: o, n: n, h: h, e: 0 });
    }

    for (var i = 0; i <= hunks.length; i++) {
      var gi = gapBefore[i];
      if (gi !== undefined) {
        var g = file.gaps[gi];
        var st = state[gi];
        var top = Math.min(st.top, g.len);
        var bottom = Math.min(st.bottom, g.len - top);
        var rem = g.len - top - bottom;
        var k;
        if (g.l) for (k = 0; k < top; k++) context(g.o + k, g.n + k, g.l[k]);
        if (rem > 0) {
          rows.push({ t: "g", g: gi, rem: rem, hunk: hunks[i] || null, first: i === 0, last: i === hunks.length, exp: !!g.l });
        }
        if (g.l) for (k = g.len - bottom; k < g.len; k++) context(g.o + k, g.n + k, g.l[k]);
      } else if (i < hunks.length && hunks[i].s) {
        rows.push({ t: "hh", hunk: hunks[i] });
      }
      if (i === hunks.length) break;
      var lines = hunks[i].l;
      if (split) {
        splitRows(rows, lines);
      } else {
        for (var j = 0; j < lines.length; j++) {
          var L = lines[j];
          rows.push({ t: "u", k: L[0], o: L[1], n: L[2], h: L[3], e: L[4] });
        }
      }
    }
    return rows;
  }

  // Context on both sides; within a run of changes, the i-th deletion beside the i-th addition.
  function splitRows(rows, lines) {
    function side(L) { return { k: L[0], n: L[0] === 2 ? L[1] : L[2], h: L[3], e: L[4] }; }
    var j = 0;
    while (j < lines.length) {
      var L = lines[j];
      if (L[0] === 0) {
        rows.push({ t: "s", l: { k: 0, n: L[1], h: L[3], e: L[4] }, r: { k: 0, n: L[2], h: L[3], e: L[4] } });
        j++;
        continue;
      }
      // A change run lasts until the next context line; deletions and additions pair up
      // in order (the model's split row count).
      var dels = [], adds = [];
      while (j < lines.length && lines[j][0] !== 0) {
        (lines[j][0] === 2 ? dels : adds).push(lines[j]);
        j++;
      }
      for (var k = 0; k < Math.max(dels.length, adds.length); k++) {
        rows.push({
          t: "s",
          l: k < dels.length ? side(dels[k]) : null,
          r: k < adds.length ? side(adds[k]) : null
        });
      }
    }
  }

  function sign(kind, opt) {
    if (!opt.classic) return "";
    return kind === 1 ? "+" : kind === 2 ? "-" : "";
  }

  function num(n) { return n > 0 ? String(n) : ""; }

  function range(h) {
    var out = '<span class="range">@@ -' + h.o + "," + h.oc + " +" + h.n + "," + h.nc + " @@";
    if (h.s) out += ' <span class="section">' + esc(h.s) + "</span>";
    return out + "</span>";
  }

  function gapButtons(row, opt) {
    if (row.rem <= opt.step) return "";
    var out = '<span class="gap-btns">';
    if (!row.first) {
      out += '<button type="button" class="xp" data-gap="' + row.g + '" data-dir="down" title="Show ' + opt.step +
        ' more lines below" aria-label="Show ' + opt.step + ' more lines below">\u2193</button>';
    }
    if (!row.last) {
      out += '<button type="button" class="xp" data-gap="' + row.g + '" data-dir="up" title="Show ' + opt.step +
        ' more lines above" aria-label="Show ' + opt.step + ' more lines above">\u2191</button>';
    }
    return out + "</span>";
  }

  // opt: {cols, classic, step}
  function rowHtml(row, opt) {
    var out, cls;
    switch (row.t) {
      case "u":
        cls = KIND[row.k];
        return '<tr class="' + cls + '"><td class="num">' + num(row.o) + '</td><td class="num">' + num(row.n) +
          '</td><td class="sign">' + sign(row.k, opt) + '</td><td class="code">' + row.h + (row.e ? EOF_MARK : "") + "</td></tr>";
      case "s":
        out = "<tr>";
        [row.l, row.r].forEach(function (s) {
          if (!s) {
            out += '<td class="num empty"></td><td class="sign empty"></td><td class="code empty"></td>';
            return;
          }
          var c = KIND[s.k];
          out += '<td class="num ' + c + '">' + num(s.n) + '</td><td class="sign ' + c + '">' + sign(s.k, opt) +
            '</td><td class="code ' + c + '">' + s.h + (s.e ? EOF_MARK : "") + "</td>";
        });
        return out + "</tr>";
      case "g":
        out = '<tr class="gap" data-gap="' + row.g + '"><td colspan="' + opt.cols + '"><div class="gap-row">';
        if (row.exp) {
          out += gapButtons(row, opt) + '<button type="button" class="xp gap-label" data-gap="' + row.g +
            '" data-dir="all" title="Show all ' + row.rem + ' hidden lines">' + unmodified(row.rem) + "</button>";
        } else {
          out += '<span class="gap-label">' + unmodified(row.rem) + "</span>";
        }
        if (row.hunk) out += range(row.hunk);
        return out + "</div></td></tr>";
      case "hh":
        return '<tr class="hunk"><td colspan="' + opt.cols + '"><div class="gap-row">' + range(row.hunk) + "</div></td></tr>";
    }
    return "";
  }

  function rowsHtml(rows, from, to, opt) {
    var parts = new Array(to - from);
    for (var i = from; i < to; i++) parts[i - from] = rowHtml(rows[i], opt);
    return parts.join("");
  }

  // What identifies a row across layouts: its line numbers, or its gap.
  function rowKey(row) {
    switch (row.t) {
      case "u": return { o: row.o, n: row.n };
      case "s": return { o: row.l ? row.l.n : 0, n: row.r ? row.r.n : 0 };
      case "g": return { g: row.g };
      default: return { hh: row.hunk };
    }
  }

  function findRow(rows, key) {
    for (var i = 0; i < rows.length; i++) {
      var k = rowKey(rows[i]);
      if (key.n && k.n === key.n) return i;
      if (!key.n && key.o && k.o === key.o) return i;
      if (key.g !== undefined && k.g === key.g) return i;
      if (key.hh && k.hh === key.hh) return i;
    }
    return -1;
  }

  // Reveals lines of gap `gi`: "down" continues the hunk above, "up" leads into the hunk
  // below, "all" opens the rest.
  function expand(file, state, gi, dir, step) {
    var g = file.gaps[gi], st = state[gi];
    if (!g || !g.l || !st) return;
    var rem = g.len - st.top - st.bottom;
    if (dir === "down") st.top += Math.min(step, rem);
    else if (dir === "up") st.bottom += Math.min(step, rem);
    else st.top = g.len - st.bottom;
  }

  global.PreviewdDiffRuntime = {
    esc: esc,
    initialState: initialState,
    buildRows: buildRows,
    rowHtml: rowHtml,
    rowsHtml: rowsHtml,
    rowKey: rowKey,
    findRow: findRow,
    expand: expand
  };
})(window);
