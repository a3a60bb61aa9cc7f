// Table styles over the grid's cells (sheet.js asks for each cell it draws, and for the
// empty cells inside a table, which a table still fills and bands).
//
// meta.json gives each table its rectangle, header and totals rows, the banding and
// first/last-column flags, and its style's parts resolved to CSS values (from the
// built-in definitions or the workbook's own table styles; see src/office/xlsx/tables.rs,
// whose `Table::cell` and `cell_css` this follows). Parts are layered as Excel does; a
// cell's own format wins over the table's.
(function () {
  "use strict";

  var PARTS = ["wholeTable", "firstColumnStripe", "secondColumnStripe", "firstRowStripe",
    "secondRowStripe", "lastColumn", "firstColumn", "headerRow", "totalRow"];
  var SIDES = ["left", "right", "top", "bottom"];

  // The region (r0, c0, r1, c1) part `name` of table t covers, when it reaches (r, c).
  function region(t, name, r, c) {
    var q = t.rect, first = q.r0 + t.headerRows, last = q.r1 - t.totalsRows;
    var inData = first <= last && r >= first && r <= last;
    var g = null;
    if (name === "wholeTable") g = q;
    else if (name === "headerRow" && t.headerRows > 0 && r < first) g = { r0: q.r0, c0: q.c0, r1: first - 1, c1: q.c1 };
    else if (name === "totalRow" && t.totalsRows > 0 && r > last) g = { r0: last + 1, c0: q.c0, r1: q.r1, c1: q.c1 };
    else if (name === "firstColumn" && t.firstColumn && c === q.c0) g = { r0: q.r0, c0: c, r1: q.r1, c1: c };
    else if (name === "lastColumn" && t.lastColumn && c === q.c1) g = { r0: q.r0, c0: c, r1: q.r1, c1: c };
    else if ((name === "firstRowStripe" || name === "secondRowStripe") && t.rowStripes && inData) {
      if (((r - first) % 2 === 0) !== (name === "firstRowStripe")) return null;
      g = { r0: r, c0: q.c0, r1: r, c1: q.c1 };
    } else if ((name === "firstColumnStripe" || name === "secondColumnStripe") && t.columnStripes && inData) {
      if (((c - q.c0) % 2 === 0) !== (name === "firstColumnStripe")) return null;
      g = { r0: first, c0: c, r1: last, c1: c };
    }
    return g && g.r0 <= r && r <= g.r1 && g.c0 <= c && c <= g.c1 ? g : null;
  }

  function look(t, r, c) {
    var out = { fill: null, color: null, bold: false, borders: [null, null, null, null] };
    PARTS.forEach(function (name) {
      var p = t.parts[name];
      if (!p) return;
      var g = region(t, name, r, c);
      if (!g) return;
      if (p.fill) out.fill = p.fill;
      if (p.color) out.color = p.color;
      if (p.bold) out.bold = true;
      // A line between two cells is drawn once, as the left or top border of the later.
      var side = [c === g.c0 ? 0 : 4, c === g.c1 ? 1 : -1, r === g.r0 ? 2 : 5, r === g.r1 ? 3 : -1];
      side.forEach(function (s, k) { if (s >= 0 && p.borders[s]) out.borders[k] = p.borders[s]; });
    });
    return out;
  }

  function textColor(css) {
    var m = /(?:^|;)\s*color:\s*([^;]+)/.exec(css || "");
    return m ? m[1].trim() : null;
  }

  // The CSS the table under (r, c) gives a cell of style s, or "" when none does.
  function css(sh, styles, r, c, s) {
    var tables = sh.tables || [];
    for (var i = 0; i < tables.length; i++) {
      var q = tables[i].rect;
      if (r < q.r0 || r > q.r1 || c < q.c0 || c > q.c1) continue;
      var l = look(tables[i], r, c);
      var own = (styles[s] && styles[s].css) || "", normal = (styles[0] && styles[0].css) || "";
      var out = "";
      if (l.fill && own.indexOf("background") < 0) out += "background:" + l.fill + ";";
      var ownColor = textColor(own);
      if (ownColor === textColor(normal)) ownColor = null;
      if (l.color && !ownColor) out += "color:" + l.color + ";";
      if (l.bold && own.indexOf("font-weight") < 0) out += "font-weight:bold;";
      l.borders.forEach(function (b, k) {
        if (b && own.indexOf("border-" + SIDES[k] + ":") < 0) out += "border-" + SIDES[k] + ":" + b + ";";
      });
      return out;
    }
    return "";
  }

  window.previewdTables = { css: css };
})();
