//! What the grid viewer and the command line get from a [`Workbook`]: the sheet geometry
//! and styles once (`meta`), blocks of rows with their display text on demand, a search,
//! the whole model as JSON, and a standalone HTML page of the first rows of each sheet.
//!
//! Display text is made here, per request, from the compact model: nothing per cell is
//! kept beyond the 16-byte [`Cell`].

use std::fmt::Write;

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use super::cond;
use super::model::{column_name, Cell, CellKind, LinkTarget, Sheet, Visibility, Workbook};
use super::style::HAlign;
use crate::markup::escape;

/// Rows per block the viewer fetches.
pub const BLOCK_ROWS: u32 = 200;

/// How much of a workbook is read, for the meta: a table read in the background grows
/// (its sheets' `rowCount` are the rows known so far) until it is complete.
#[derive(Debug, Clone)]
pub struct Loading {
    /// No more rows will come.
    pub complete: bool,
    /// Rows (records) read so far, across the table.
    pub rows_known: u32,
    /// The file's SHA-256, once known.
    pub sha256: Option<String>,
}

impl Loading {
    /// A workbook parsed whole.
    pub fn complete(book: &Workbook, sha256: Option<String>) -> Loading {
        Loading {
            complete: true,
            rows_known: book.sheets.iter().map(|s| s.row_count).max().unwrap_or(0),
            sha256,
        }
    }
}

/// The viewer's first request: workbook and sheet geometry, styles, links, comments and
/// drawings, no cell values; with how much of it is read (`complete`, `rowsKnown`,
/// `sha256`).
pub fn meta_json(book: &Workbook, loading: &Loading) -> Vec<u8> {
    serde_json::to_vec(&Meta(book, loading)).unwrap_or_default()
}

struct Meta<'a>(&'a Workbook, &'a Loading);

impl Serialize for Meta<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let b = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("source", b.source)?;
        m.serialize_entry("complete", &self.1.complete)?;
        m.serialize_entry("rowsKnown", &self.1.rows_known)?;
        m.serialize_entry("sha256", &self.1.sha256)?;
        m.serialize_entry("active", &b.active)?;
        m.serialize_entry("hasMacros", &b.has_macros)?;
        m.serialize_entry("warnings", &b.warnings)?;
        m.serialize_entry("blockRows", &BLOCK_ROWS)?;
        m.serialize_entry("styles", &b.styles.cell_formats)?;
        let sheets: Vec<SheetMeta<'_>> = b.sheets.iter().map(SheetMeta).collect();
        m.serialize_entry("sheets", &sheets)?;
        m.end()
    }
}

struct SheetMeta<'a>(&'a Sheet);

impl Serialize for SheetMeta<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let sh = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("name", &sh.name)?;
        m.serialize_entry("visibility", &sh.visibility)?;
        m.serialize_entry("tabColor", &sh.tab_color.map(|c| format!("#{c:06x}")))?;
        m.serialize_entry("rowCount", &sh.row_count)?;
        m.serialize_entry("colCount", &sh.col_count)?;
        m.serialize_entry("defaultColWidth", &sh.default_col_width)?;
        m.serialize_entry("defaultRowHeight", &sh.default_row_height)?;
        m.serialize_entry("columns", &sh.columns)?;
        // Only rows whose height differs from the default: [row, px] (hidden rows are 0).
        let heights: Vec<(u32, f32)> = sh
            .rows
            .iter()
            .filter(|r| r.hidden || r.height > 0.0)
            .map(|r| (r.r, if r.hidden { 0.0 } else { r.height }))
            .collect();
        m.serialize_entry("rowHeights", &heights)?;
        m.serialize_entry("frozenRows", &sh.frozen_rows)?;
        m.serialize_entry("frozenCols", &sh.frozen_cols)?;
        m.serialize_entry("gridlines", &sh.gridlines)?;
        m.serialize_entry("merges", &sh.merges)?;
        m.serialize_entry("links", &sh.links)?;
        m.serialize_entry("comments", &sh.comments)?;
        m.serialize_entry("drawings", &sh.drawings)?;
        m.serialize_entry("chartSheet", &sh.chart_sheet)?;
        m.serialize_entry("tables", &sh.tables)?;
        m.serialize_entry("headerRow", &sh.header_row)?;
        m.serialize_entry("truncatedAt", &sh.truncated_at)?;
        m.serialize_entry("conditionalSkipped", &sh.conditional_skipped)?;
        // Formulas saved without a result (files written by libraries that do not
        // calculate): the viewer shows their formula instead of an empty cell.
        let uncalculated = sh
            .formulas
            .iter()
            .filter(|(i, _)| {
                sh.cells
                    .get(*i as usize)
                    .is_some_and(|c| c.kind == CellKind::Blank)
            })
            .count();
        m.serialize_entry("uncalculated", &uncalculated)?;
        m.end()
    }
}

fn align_code(a: HAlign) -> &'static str {
    match a {
        HAlign::Right => "r",
        HAlign::Center => "c",
        _ => "l",
    }
}

/// One cell as the viewer draws it.
struct CellOut<'a> {
    book: &'a Workbook,
    sheet: &'a Sheet,
    cell: &'a Cell,
    index: u32,
    row: u32,
}

impl Serialize for CellOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let d = self.book.display(self.sheet, self.cell);
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("c", &self.cell.col)?;
        m.serialize_entry("s", &self.cell.style)?;
        if !d.text.is_empty() {
            m.serialize_entry("t", &d.text)?;
        }
        m.serialize_entry("a", align_code(d.align))?;
        if let Some(c) = d.color {
            m.serialize_entry("k", &format!("#{:06x}", c.0))?;
        }
        if let Some(f) = self.sheet.formula(self.index) {
            m.serialize_entry("f", f)?;
        }
        if let Some(cf) = cond::apply(self.book, self.sheet, self.row, self.cell) {
            if !cf.css.is_empty() {
                m.serialize_entry("x", &cf.css)?;
            }
            if let Some((len, color)) = cf.bar {
                m.serialize_entry("bar", &(len, format!("#{color:06x}")))?;
            }
            if let Some((glyph, color)) = cf.icon {
                m.serialize_entry("icon", &(glyph, format!("#{color:06x}")))?;
            }
            if cf.hide_value {
                m.serialize_entry("hv", &true)?;
            }
        }
        if let Some(runs) = self.book.rich_runs(self.cell) {
            let text = self.book.shared.get(self.cell.value as u32);
            let mut at = 0usize;
            let mut out: Vec<(&str, &str)> = Vec::with_capacity(runs.len());
            for (len, css) in runs {
                let end = (at + *len as usize).min(text.len());
                if let Some(piece) = text.get(at..end) {
                    out.push((piece, css));
                }
                at = end;
            }
            m.serialize_entry("rich", &out)?;
        }
        m.end()
    }
}

struct RowsOut<'a> {
    book: &'a Workbook,
    sheet: &'a Sheet,
    span: std::ops::Range<usize>,
}

impl Serialize for RowsOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.span.len()))?;
        for i in self.span.clone() {
            let row = &self.sheet.rows[i];
            let first = row.first;
            let cells: Vec<CellOut<'_>> = self
                .sheet
                .cells_of(i)
                .iter()
                .enumerate()
                .map(|(k, cell)| CellOut {
                    book: self.book,
                    sheet: self.sheet,
                    cell,
                    index: first + k as u32,
                    row: row.r,
                })
                .collect();
            seq.serialize_element(&(row.r, cells))?;
        }
        seq.end()
    }
}

/// Rows `from..from + count` of sheet `sheet` as JSON: `{"from", "to", "rows": [[r,
/// [cell…]]…]}`, with `"partial": true` when more of its rows are still being read;
/// `None` when there is no such sheet.
pub fn rows_json(
    book: &Workbook,
    sheet: usize,
    from: u32,
    count: u32,
    partial: bool,
) -> Option<Vec<u8>> {
    let sh = book.sheets.get(sheet)?;
    let to = from.saturating_add(count);
    #[derive(Serialize)]
    struct Block<'a> {
        from: u32,
        to: u32,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        partial: bool,
        rows: RowsOut<'a>,
    }
    serde_json::to_vec(&Block {
        from,
        to,
        partial,
        rows: RowsOut {
            book,
            sheet: sh,
            span: sh.row_span(from, to),
        },
    })
    .ok()
}

/// The first `max` cells of sheet `sheet` whose shown text contains `query` (ignoring
/// case), in row order: `[[row, col]…]`.
pub fn search(book: &Workbook, sheet: usize, query: &str, max: usize) -> Vec<(u32, u16)> {
    let Some(sh) = book.sheets.get(sheet) else {
        return Vec::new();
    };
    let needle = query.to_lowercase();
    if needle.is_empty() {
        return Vec::new();
    }
    let mut hits = Vec::new();
    for i in 0..sh.rows.len() {
        for cell in sh.cells_of(i) {
            let d = book.display(sh, cell);
            if contains_ignoring_case(&d.text, &needle) {
                hits.push((sh.rows[i].r, cell.col));
                if hits.len() >= max {
                    return hits;
                }
            }
        }
    }
    hits
}

fn contains_ignoring_case(hay: &str, lower_needle: &str) -> bool {
    if hay.is_ascii() && lower_needle.is_ascii() {
        let (h, n) = (hay.as_bytes(), lower_needle.as_bytes());
        return n.len() <= h.len() && h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n));
    }
    hay.to_lowercase().contains(lower_needle)
}

/// The whole model as JSON (`--format json`, `model.json`): every sheet with its
/// geometry and every cell with its type, raw value, shown text and formula.
pub fn model_json(book: &Workbook) -> serde_json::Result<Vec<u8>> {
    serde_json::to_vec(&Model(book))
}

struct Model<'a>(&'a Workbook);

impl Serialize for Model<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let b = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("source", b.source)?;
        m.serialize_entry("date1904", &b.date1904)?;
        m.serialize_entry("active", &b.active)?;
        m.serialize_entry("hasMacros", &b.has_macros)?;
        m.serialize_entry("properties", &b.properties)?;
        m.serialize_entry("warnings", &b.warnings)?;
        let sheets: Vec<SheetModel<'_>> = b.sheets.iter().map(|sh| SheetModel(b, sh)).collect();
        m.serialize_entry("sheets", &sheets)?;
        m.end()
    }
}

struct SheetModel<'a>(&'a Workbook, &'a Sheet);

impl Serialize for SheetModel<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (b, sh) = (self.0, self.1);
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("meta", &SheetMeta(sh))?;
        m.serialize_entry("cells", &CellsModel(b, sh))?;
        m.end()
    }
}

struct CellsModel<'a>(&'a Workbook, &'a Sheet);

impl Serialize for CellsModel<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (b, sh) = (self.0, self.1);
        let mut seq = s.serialize_seq(Some(sh.cells.len()))?;
        for i in 0..sh.rows.len() {
            let row = sh.rows[i];
            for (k, cell) in sh.cells_of(i).iter().enumerate() {
                let index = row.first + k as u32;
                let d = b.display(sh, cell);
                let value = match cell.kind {
                    CellKind::Number => serde_json::json!(cell.number()),
                    CellKind::Bool => serde_json::json!(cell.value != 0),
                    CellKind::Blank => serde_json::Value::Null,
                    CellKind::Shared => serde_json::json!(b.shared.get(cell.value as u32)),
                    _ => serde_json::json!(sh.pool.get(cell.value as u32)),
                };
                #[derive(Serialize)]
                struct C<'x> {
                    #[serde(rename = "ref")]
                    reference: String,
                    #[serde(rename = "type")]
                    kind: CellKind,
                    value: serde_json::Value,
                    text: &'x str,
                    #[serde(skip_serializing_if = "Option::is_none")]
                    formula: Option<&'x str>,
                    format: &'x str,
                }
                seq.serialize_element(&C {
                    reference: format!("{}{}", column_name(u32::from(cell.col)), row.r + 1),
                    kind: cell.kind,
                    value,
                    text: &d.text,
                    formula: sh.formula(index),
                    format: &b.styles.cell_format(cell.style).format_code,
                })?;
            }
        }
        seq.end()
    }
}

/// The stylesheet of the standalone page and of the grid's cells.
pub const TABLE_CSS: &str = include_str!("../../../viewers/sheet/table.css");

/// A standalone page: each visible sheet as an HTML table of its first `max_rows` rows,
/// styled like the workbook, with a note where a sheet was cut. No script.
pub fn standalone_html(book: &Workbook, title: &str, max_rows: u32) -> String {
    standalone_html_with(book, title, max_rows, &std::collections::HashMap::new())
}

/// [`standalone_html`] with the pictures of the sheets as URLs by part (`data:` URLs in
/// a file written by the command line); charts are drawn inline as SVG.
pub fn standalone_html_with(
    book: &Workbook,
    title: &str,
    max_rows: u32,
    media_urls: &std::collections::HashMap<String, String>,
) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let _ = write!(
        out,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{}</title><style>{TABLE_CSS}",
        escape(title)
    );
    for (i, f) in book.styles.cell_formats.iter().enumerate() {
        if !f.css.is_empty() {
            let _ = write!(out, ".s{i}{{{}}}", f.css.replace('<', ""));
        }
    }
    out.push_str("</style></head><body class=\"sheet-page\">");
    if book.has_macros {
        out.push_str("<p class=\"note\">This workbook contains macros; they are never run.</p>");
    }
    for w in &book.warnings {
        let _ = write!(out, "<p class=\"note\">{}</p>", escape(w));
    }
    for (si, sh) in book.sheets.iter().enumerate() {
        if sh.visibility != Visibility::Visible {
            continue;
        }
        let _ = write!(out, "<section class=\"sheet\" id=\"sheet-{si}\"><h2");
        if let Some(c) = sh.tab_color {
            let _ = write!(out, " style=\"border-bottom-color:#{c:06x}\"");
        }
        let _ = write!(out, ">{}</h2>", escape(&sh.name));
        // A chart sheet has no cells: only its chart.
        if !sh.chart_sheet {
            render_table(book, sh, max_rows, &mut out);
        }
        let shown_rows = sh.row_count.min(max_rows);
        if sh.row_count > max_rows {
            let _ = write!(
                out,
                "<p class=\"note\">The first {shown_rows} of {} rows are shown.</p>",
                sh.row_count
            );
        }
        if let Some(at) = sh.truncated_at {
            let _ = write!(
                out,
                "<p class=\"note\">This sheet has more cells than previewd keeps; rows from {} on are not shown.</p>",
                at + 1
            );
        }
        super::drawing::standalone_figures(sh, media_urls, &mut out);
        out.push_str("</section>");
    }
    out.push_str("</body></html>");
    out
}

fn col_width(sh: &Sheet, c: u32) -> f32 {
    sh.columns
        .iter()
        .find(|r| r.first <= c && c <= r.last)
        .map_or(
            sh.default_col_width,
            |r| if r.hidden { 0.0 } else { r.width },
        )
}

fn render_table(book: &Workbook, sh: &Sheet, max_rows: u32, out: &mut String) {
    let rows = sh.row_count.min(max_rows);
    let cols = sh.col_count.min(256);
    let grid = if sh.gridlines { "" } else { " no-grid" };
    let _ = write!(
        out,
        "<table class=\"grid{grid}\"><colgroup><col class=\"rh\">"
    );
    for c in 0..cols {
        let _ = write!(out, "<col style=\"width:{}px\">", col_width(sh, c));
    }
    out.push_str("</colgroup><thead><tr><th></th>");
    for c in 0..cols {
        let _ = write!(out, "<th>{}</th>", column_name(c));
    }
    out.push_str("</tr></thead><tbody>");
    // Cells covered by a merge are left out; the anchor spans them.
    let covered = |r: u32, c: u32| {
        sh.merges
            .iter()
            .any(|m| m.r0 <= r && r <= m.r1 && m.c0 <= c && c <= m.c1 && (m.r0, m.c0) != (r, c))
    };
    let mut ri = 0usize;
    for r in 0..rows {
        while ri < sh.rows.len() && sh.rows[ri].r < r {
            ri += 1;
        }
        let row = sh.rows.get(ri).filter(|x| x.r == r);
        if row.is_some_and(|x| x.hidden) {
            continue;
        }
        let h = row.map_or(0.0, |x| x.height);
        if h > 0.0 {
            let _ = write!(out, "<tr style=\"height:{h}px\">");
        } else {
            out.push_str("<tr>");
        }
        let _ = write!(out, "<th>{}</th>", r + 1);
        let cells = row.map_or(&[][..], |_| sh.cells_of(ri));
        let mut k = 0;
        for c in 0..cols {
            if covered(r, c) {
                continue;
            }
            while k < cells.len() && u32::from(cells[k].col) < c {
                k += 1;
            }
            let cell = cells.get(k).filter(|x| u32::from(x.col) == c);
            let mut attrs = String::new();
            if let Some(m) = sh.merges.iter().find(|m| (m.r0, m.c0) == (r, c)) {
                let _ = write!(
                    attrs,
                    " rowspan=\"{}\" colspan=\"{}\"",
                    m.r1 - m.r0 + 1,
                    m.c1 - m.c0 + 1
                );
            }
            let table = super::tables::cell_css(book, sh, r, c, cell.map_or(0, |x| x.style));
            let Some(cell) = cell else {
                if let Some(css) = &table {
                    let _ = write!(attrs, " style=\"{}\"", escape(css));
                }
                let _ = write!(out, "<td{attrs}></td>");
                continue;
            };
            let f = book.styles.cell_format(cell.style);
            let d = book.display(sh, cell);
            let align = match f.align {
                HAlign::General => align_code(d.align),
                other => align_code(other),
            };
            let wrap = if f.wrap { " wrap" } else { "" };
            let _ = write!(out, "<td class=\"s{} a{align}{wrap}\"{attrs}", cell.style);
            let cf = cond::apply(book, sh, r, cell).unwrap_or_default();
            let mut style = table.unwrap_or_default();
            if let Some(color) = d.color {
                let _ = write!(style, "color:#{:06x};", color.0);
            }
            style.push_str(&cf.css);
            if let Some((len, color)) = cf.bar {
                let p = (len * 100.0).round();
                let _ = write!(
                    style,
                    "background-image:linear-gradient(90deg,#{color:06x},#ffffff {p}%,transparent {p}%);"
                );
            }
            if !style.is_empty() {
                let _ = write!(out, " style=\"{}\"", escape(&style));
            }
            out.push('>');
            if let Some((glyph, color)) = cf.icon {
                let _ = write!(out, "<span style=\"color:#{color:06x}\">{glyph}</span> ");
            }
            let d = if cf.hide_value {
                super::model::Display {
                    text: std::borrow::Cow::Borrowed(""),
                    ..d
                }
            } else {
                d
            };
            let link = sh
                .links
                .iter()
                .find(|l| l.rect.r0 <= r && r <= l.rect.r1 && l.rect.c0 <= c && c <= l.rect.c1);
            match link.map(|l| &l.target) {
                Some(LinkTarget::Url { url }) => {
                    let _ = write!(
                        out,
                        "<a href=\"{}\" rel=\"noopener noreferrer\">{}</a>",
                        escape(url),
                        escape(&d.text)
                    );
                }
                _ => out.push_str(&escape(&d.text)),
            }
            out.push_str("</td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
}
