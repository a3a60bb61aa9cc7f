//! Charts and pictures over the grid: a sheet's drawing part (`xl/drawings/drawingN.xml`)
//! read into [`Drawing`]s placed in the grid's pixels, and chart sheets.
//!
//! Each anchor (`xdr:twoCellAnchor`, `xdr:oneCellAnchor`, `xdr:absoluteAnchor`) becomes a
//! box measured with the same column widths and row heights the viewer lays the grid out
//! with, so a drawing sits on its cells and scrolls with them. A `xdr:graphicFrame` that
//! holds a `c:chart` is read through the shared chart engine ([`crate::office::chart`]) from
//! the values cached in its part (formulas are never computed); a `xdr:pic` names its
//! image part, registered like the pictures of documents and decks (EMF and WMF converted
//! to SVG when served). `editAs` only says how Excel moves a drawing while cells are
//! edited, so a read-only view ignores it.

use crate::office::chart::{accessible_label, parse_chart, render_svg, Chart, SvgOptions};
use crate::office::media::MediaCatalog;
use crate::office::pptx::color::ColorCtx;
use crate::office::pptx::model::Color;
use crate::office::xml::Element;
use crate::office::{
    Ns, OfficeError, OfficeErrorKind, OfficePackage, OfficeResult, RelTarget, Relationships,
};

use super::model::{column_name, Drawing, Rect, Sheet};
use super::style::ThemeColors;
use crate::markup::escape;

const REL_DRAWING: &str =
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing";
const REL_CHART: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart";
/// The relationship type of a chart sheet part (from the workbook).
pub const REL_CHARTSHEET: &str =
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/chartsheet";

/// EMUs in one CSS pixel (914,400 an inch, 96 pixels an inch).
const EMU_PER_PX: f64 = 9525.0;
/// Most drawings kept on one sheet.
const MAX_DRAWINGS: usize = 1_000;
/// The largest box side kept, in pixels (a sheet is at most about 30 million pixels
/// tall; a drawing claiming more is cut to this).
const MAX_SIDE: f64 = 100_000.0;

/// The chart engine's font stack, as the grid's cells use it.
pub const CHART_FONTS: &str = "Carlito, Calibri, 'Liberation Sans', Arial, sans-serif";

/// A picture or chart part that cannot be read degrades to a placeholder; a guard breach
/// (an over-large part, a zip bomb) refuses the workbook.
fn degradable(e: &OfficeError) -> bool {
    matches!(
        e.kind(),
        OfficeErrorKind::MissingPart | OfficeErrorKind::MalformedXml
    )
}

/// One cell corner of an anchor: a cell and an offset into it, in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Marker {
    col: u32,
    row: u32,
    dx: f64,
    dy: f64,
}

/// Where an anchor puts its drawing, before it is measured against the sheet.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Place {
    /// From one cell corner to another.
    TwoCell(Marker, Marker),
    /// From a cell corner, with a size in pixels.
    OneCell(Marker, f64, f64),
    /// At a position in pixels from `A1`'s corner, with a size.
    Absolute(f64, f64, f64, f64),
}

fn emu_px(el: Option<Element<'_>>, name: &str) -> Option<f64> {
    let v = el?.attr_local(name)?.trim().parse::<f64>().ok()?;
    v.is_finite().then(|| (v / EMU_PER_PX).clamp(0.0, MAX_SIDE))
}

fn marker(anchor: Element<'_>, name: &str) -> Option<Marker> {
    let p = anchor.child(Ns::Xdr, name)?;
    let text = |k: &str| p.child(Ns::Xdr, k).map(|e| e.text().trim().to_owned());
    let cell = |k: &str| text(k)?.parse::<u32>().ok();
    let off = |k: &str| {
        text(k)
            .and_then(|t| t.parse::<f64>().ok())
            .filter(|v| v.is_finite())
            .map_or(0.0, |v| (v / EMU_PER_PX).clamp(0.0, MAX_SIDE))
    };
    Some(Marker {
        col: cell("col")?.min(super::parse::MAX_COLS - 1),
        row: cell("row")?.min(super::parse::MAX_ROWS - 1),
        dx: off("colOff"),
        dy: off("rowOff"),
    })
}

fn place(anchor: Element<'_>) -> Option<Place> {
    let ext = anchor.child(Ns::Xdr, "ext");
    match anchor.name() {
        "twoCellAnchor" => Some(Place::TwoCell(
            marker(anchor, "from")?,
            marker(anchor, "to")?,
        )),
        "oneCellAnchor" => Some(Place::OneCell(
            marker(anchor, "from")?,
            emu_px(ext, "cx")?,
            emu_px(ext, "cy")?,
        )),
        "absoluteAnchor" => {
            let pos = anchor.child(Ns::Xdr, "pos");
            Some(Place::Absolute(
                emu_px(pos, "x").unwrap_or(0.0),
                emu_px(pos, "y").unwrap_or(0.0),
                emu_px(ext, "cx")?,
                emu_px(ext, "cy")?,
            ))
        }
        _ => None,
    }
}

/// Column lefts and row tops of a sheet in pixels, laid out as the grid viewer does
/// (`sheet.js` `makeGeometry`): each column its width (the last `<col>` range naming it
/// wins, hidden ones zero), each row the default height unless it has its own (hidden
/// ones zero).
pub struct Layout {
    col_x: Vec<f64>,
    default_col: f64,
    default_row: f64,
    /// Rows whose height differs from the default, ascending: (row, sum of the height
    /// differences of the rows before it and itself).
    rows: Vec<(u32, f64)>,
}

impl Layout {
    /// The layout of `sheet` for columns `0..cols` (columns past that have the default
    /// width).
    pub fn new(sheet: &Sheet, cols: u32) -> Layout {
        let cols = cols.min(super::parse::MAX_COLS) as usize;
        let def = f64::from(sheet.default_col_width);
        let mut widths = vec![def; cols];
        for r in &sheet.columns {
            let first = r.first as usize;
            let last = (r.last as usize).min(cols.saturating_sub(1));
            for w in widths.iter_mut().take(last + 1).skip(first) {
                *w = if r.hidden { 0.0 } else { f64::from(r.width) };
            }
        }
        let mut col_x = Vec::with_capacity(cols + 1);
        col_x.push(0.0);
        for w in widths {
            col_x.push(col_x[col_x.len() - 1] + w);
        }
        let default_row = f64::from(sheet.default_row_height);
        let mut rows = Vec::new();
        let mut sum = 0.0;
        for r in sheet.rows.iter().filter(|r| r.hidden || r.height > 0.0) {
            let h = if r.hidden { 0.0 } else { f64::from(r.height) };
            sum += h - default_row;
            rows.push((r.r, sum));
        }
        Layout {
            col_x,
            default_col: def,
            default_row,
            rows,
        }
    }

    /// The left edge of column `c`.
    pub fn col_x(&self, c: u32) -> f64 {
        let c = c as usize;
        match self.col_x.get(c) {
            Some(x) => *x,
            None => {
                let last = self.col_x.len() - 1;
                self.col_x[last] + (c - last) as f64 * self.default_col
            }
        }
    }

    /// The top edge of row `r`.
    pub fn row_y(&self, r: u32) -> f64 {
        let k = self.rows.partition_point(|(row, _)| *row < r);
        let before = if k == 0 { 0.0 } else { self.rows[k - 1].1 };
        f64::from(r) * self.default_row + before
    }

    /// The column whose band holds `x` (the last one at or left of it).
    fn col_at(&self, x: f64) -> u32 {
        let k = self.col_x.partition_point(|cx| *cx <= x);
        if k < self.col_x.len() {
            return k.saturating_sub(1) as u32;
        }
        let last = self.col_x.len() - 1;
        let past = if self.default_col > 0.0 {
            ((x - self.col_x[last]) / self.default_col).floor() as usize
        } else {
            0
        };
        ((last + past) as u32).min(super::parse::MAX_COLS - 1)
    }

    /// The row whose band holds `y`.
    fn row_at(&self, y: f64) -> u32 {
        let (mut lo, mut hi) = (0u32, super::parse::MAX_ROWS - 1);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if self.row_y(mid) <= y {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    }

    fn point(&self, m: Marker) -> (f64, f64) {
        (self.col_x(m.col) + m.dx, self.row_y(m.row) + m.dy)
    }

    /// The box `[x, y, w, h]` of a placement and the cells it covers.
    fn measure(&self, p: Place) -> ([f32; 4], Rect) {
        let (x0, y0, x1, y1) = match p {
            Place::TwoCell(a, b) => {
                let (x0, y0) = self.point(a);
                let (x1, y1) = self.point(b);
                (x0, y0, x1.max(x0), y1.max(y0))
            }
            Place::OneCell(a, w, h) => {
                let (x0, y0) = self.point(a);
                (x0, y0, x0 + w, y0 + h)
            }
            Place::Absolute(x, y, w, h) => (x, y, x + w, y + h),
        };
        let w = (x1 - x0).min(MAX_SIDE);
        let h = (y1 - y0).min(MAX_SIDE);
        let (c0, r0) = (self.col_at(x0), self.row_at(y0));
        // The last cell the box reaches into (a box ending on a cell edge stops before it).
        let c1 = self.col_at((x0 + w - 0.5).max(x0)).max(c0);
        let r1 = self.row_at((y0 + h - 0.5).max(y0)).max(r0);
        let r = |v: f64| ((v * 100.0).round() / 100.0) as f32;
        ([r(x0), r(y0), r(w), r(h)], Rect { r0, c0, r1, c1 })
    }
}

/// The chart colours of a workbook's theme: SpreadsheetML numbers the slots lt1, dk1,
/// lt2, dk2 …, DrawingML names them dk1, lt1, dk2, lt2 ….
pub fn chart_scheme(theme: &ThemeColors) -> [Color; 12] {
    let t = &theme.0;
    let order = [1, 0, 3, 2, 4, 5, 6, 7, 8, 9, 10, 11];
    order.map(|i| Color::rgb(t[i]))
}

/// A drawing part's contents, read against the sheet's layout.
struct PartReader<'p, 'a> {
    package: &'p OfficePackage<'a>,
    part: String,
    rels: Relationships,
    scheme: [Color; 12],
}

impl PartReader<'_, '_> {
    fn target(&self, id: Option<&str>, rel_type: &str) -> Option<String> {
        let r = self.rels.get(id?)?;
        if !rel_type.is_empty() && r.rel_type != rel_type {
            return None;
        }
        match &r.target {
            RelTarget::Part(p) if self.package.has_part(p) => Some(p.clone()),
            _ => None,
        }
    }

    /// The chart and whether its chart area is painted (Excel fills it white with a thin
    /// grey line unless `c:chartSpace/c:spPr` says `a:noFill`).
    fn chart(&self, el: Element<'_>) -> OfficeResult<Option<(Chart, bool)>> {
        let Some(part) = self.target(el.attr(Ns::R, "id"), REL_CHART) else {
            return Ok(None);
        };
        let doc = match self.package.read_xml(&part, &[]) {
            Ok(d) => d,
            Err(e) if degradable(&e) => return Ok(None),
            Err(e) => return Err(e),
        };
        let mut chart = parse_chart(doc.root(), &ColorCtx::from_scheme(&self.scheme));
        chart.part = Some(part);
        let opaque = doc
            .root()
            .child(Ns::C, "spPr")
            .is_none_or(|sp| sp.child(Ns::A, "noFill").is_none());
        Ok(Some((chart, opaque)))
    }

    /// The drawings of the part's anchors, in document order.
    fn read(&self, layout_of: impl Fn(u32) -> Layout, media: &mut MediaCatalog) -> Vec<Drawing> {
        let mut out = Vec::new();
        let Ok(doc) = self.package.read_xml(&self.part, &[Ns::C]) else {
            return out;
        };
        let anchors: Vec<(Element<'_>, Place)> = doc
            .root()
            .elements()
            .filter_map(|a| Some((a, place(a)?)))
            .take(MAX_DRAWINGS)
            .collect();
        let cols = anchors
            .iter()
            .map(|(_, p)| match p {
                Place::TwoCell(a, b) => a.col.max(b.col) + 1,
                Place::OneCell(a, _, _) => a.col + 1,
                Place::Absolute(..) => 0,
            })
            .max()
            .unwrap_or(0);
        let layout = layout_of(cols.max(64));
        for (anchor, p) in anchors {
            let (bounds, rect) = layout.measure(p);
            if let Some(d) = self.drawing(anchor, bounds, rect, media) {
                out.push(d);
            }
        }
        out
    }

    fn drawing(
        &self,
        anchor: Element<'_>,
        bounds: [f32; 4],
        rect: Rect,
        media: &mut MediaCatalog,
    ) -> Option<Drawing> {
        let base = |kind, title| Drawing {
            kind,
            rect,
            title,
            bounds,
            media: None,
            drawn: false,
            opaque: false,
            chart: None,
        };
        if let Some(frame) = anchor.child(Ns::Xdr, "graphicFrame") {
            let el = frame.find(Ns::C, "chart")?;
            let chart = self.chart(el).ok().flatten();
            let mut d = base("chart", None);
            if let Some((c, opaque)) = chart {
                d.opaque = opaque;
                d.title = Some(c.title.clone().unwrap_or_else(|| accessible_label(&c)));
                // The engine says whether there is anything to draw (a type it draws,
                // cached values) by drawing it once at a nominal size.
                d.drawn = render_svg(&c, 400.0, 300.0, &SvgOptions::default()).is_some();
                d.chart = Some(Box::new(c));
            }
            return Some(d);
        }
        let pic = anchor.child(Ns::Xdr, "pic")?;
        let title = pic
            .find(Ns::Xdr, "cNvPr")
            .and_then(|p| {
                p.attr_local("descr")
                    .filter(|t| !t.is_empty())
                    .or(p.attr_local("name"))
            })
            .map(str::to_owned)
            .filter(|t| !t.is_empty());
        let mut d = base("picture", title);
        let blip = pic.find(Ns::A, "blip");
        if let Some(part) = self.target(blip.and_then(|b| b.attr(Ns::R, "embed")), "") {
            if media.register(self.package, &part, degradable).is_ok() {
                d.media = Some(part);
            }
        }
        Some(d)
    }
}

/// Reads the drawing part `id` of a worksheet's relationships into `sheet.drawings`. The
/// pictures it shows are registered in `media`; the caller keeps only those a browser
/// can display.
pub(super) fn read(
    package: &OfficePackage<'_>,
    sheet_rels: &Relationships,
    id: &str,
    theme: &ThemeColors,
    media: &mut MediaCatalog,
    sheet: &mut Sheet,
) -> OfficeResult<()> {
    let Some(RelTarget::Part(part)) = sheet_rels
        .get(id)
        .filter(|r| r.rel_type == REL_DRAWING)
        .map(|r| &r.target)
    else {
        return Ok(());
    };
    let reader = PartReader {
        package,
        part: part.clone(),
        rels: package.relationships(part).unwrap_or_default(),
        scheme: chart_scheme(theme),
    };
    let found = reader.read(|cols| Layout::new(sheet, cols), media);
    sheet.drawings.extend(found);
    Ok(())
}

/// A chart sheet (`xl/chartsheets/sheetN.xml`): a tab without cells whose drawing (one
/// chart, usually absolutely anchored) fills it.
pub(super) fn read_chart_sheet(
    package: &OfficePackage<'_>,
    part: &str,
    theme: &ThemeColors,
    media: &mut MediaCatalog,
    sheet: &mut Sheet,
) -> OfficeResult<()> {
    sheet.chart_sheet = true;
    let doc = match package.read_xml(part, &[]) {
        Ok(d) => d,
        Err(e) if degradable(&e) => return Ok(()),
        Err(e) => return Err(e),
    };
    let rels = package.relationships(part).unwrap_or_default();
    if let Some(id) = doc
        .root()
        .child(Ns::Sml, "drawing")
        .and_then(|d| d.attr(Ns::R, "id"))
    {
        read(package, &rels, id, theme, media, sheet)?;
    }
    Ok(())
}

/// Keeps a picture's part only when a browser can show it (the rest keep their labelled
/// box), from what `media` found in its header.
pub(super) fn keep_displayable(sheets: &mut [Sheet], media: MediaCatalog) {
    let shown: std::collections::HashSet<String> = media
        .into_parts()
        .into_iter()
        .filter(|m| m.displayable)
        .map(|m| m.part)
        .collect();
    for d in sheets.iter_mut().flat_map(|s| s.drawings.iter_mut()) {
        if d.media.as_ref().is_some_and(|p| !shown.contains(p)) {
            d.media = None;
        }
    }
}

/// The SVG of a chart drawing at `w` × `h` pixels (the chart engine works in points, at
/// 96 pixels an inch), or `None` when it has nothing to draw. Its ids start with
/// `id_prefix`.
pub fn chart_svg(d: &Drawing, w: f64, h: f64, id_prefix: &str) -> Option<String> {
    let chart = d.chart.as_deref()?;
    let opts = SvgOptions {
        class: "sheet-chart",
        font_family: CHART_FONTS,
        fill_container: true,
        draw_empty: false,
        // The grid's fixed stack has no plan to measure with: estimated widths.
        measure: None,
        id_prefix,
    };
    render_svg(chart, w * 0.75, h * 0.75, &opts)
}

/// The drawings of a sheet for the standalone page (which has no script to place them
/// over a scrolled grid): each at its anchor's size after the table, charts as inline SVG,
/// pictures from `media_urls` (by part), with the cell it is anchored at.
pub fn standalone_figures(
    sheet: &Sheet,
    media_urls: &std::collections::HashMap<String, String>,
    out: &mut String,
) {
    use std::fmt::Write;
    for (k, d) in sheet.drawings.iter().enumerate() {
        let w = f64::from(d.bounds[2]).clamp(16.0, 4000.0);
        let h = f64::from(d.bounds[3]).clamp(16.0, 4000.0);
        let _ = write!(
            out,
            "<figure class=\"drawing\" style=\"margin:12px 0;width:{w}px\"><div style=\"width:{w}px;height:{h}px;border:1px solid #d4d4d4\">"
        );
        let label = escape(d.title.as_deref().unwrap_or("untitled"));
        let drawn = match (d.kind, &d.media) {
            ("chart", _) => chart_svg(d, w, h, &format!("chart{k}")).map(|svg| out.push_str(&svg)),
            (_, Some(part)) => media_urls.get(part).map(|url| {
                let _ = write!(
                    out,
                    "<img src=\"{}\" alt=\"{label}\" style=\"width:100%;height:100%;display:block\">",
                    escape(url)
                );
            }),
            _ => None,
        };
        if drawn.is_none() {
            let _ = write!(out, "<p class=\"note\" style=\"margin:8px\">{label}</p>");
        }
        let _ = write!(
            out,
            "</div><figcaption class=\"note\">{} at {}{}: {label}</figcaption></figure>",
            if d.kind == "chart" {
                "Chart"
            } else {
                "Picture"
            },
            column_name(d.rect.c0),
            d.rect.r0 + 1,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::office::xlsx::model::{ColumnRange, Row};

    fn sheet() -> Sheet {
        let mut s = Sheet::new("S".into());
        s.default_col_width = 64.0;
        s.default_row_height = 20.0;
        s.columns.push(ColumnRange {
            first: 1,
            last: 2,
            width: 100.0,
            hidden: false,
        });
        s.columns.push(ColumnRange {
            first: 3,
            last: 3,
            width: 50.0,
            hidden: true,
        });
        s.rows.push(Row {
            r: 2,
            first: 0,
            height: 40.0,
            hidden: false,
        });
        s.rows.push(Row {
            r: 4,
            first: 0,
            height: 0.0,
            hidden: true,
        });
        s
    }

    #[test]
    fn layout_follows_widths_heights_and_hidden_bands() {
        let l = Layout::new(&sheet(), 8);
        assert_eq!(l.col_x(0), 0.0);
        assert_eq!(l.col_x(1), 64.0);
        assert_eq!(l.col_x(3), 264.0);
        // Column D is hidden: E starts where D does.
        assert_eq!(l.col_x(4), 264.0);
        // Past the measured columns, the default width.
        assert_eq!(l.col_x(10), 264.0 + 6.0 * 64.0);
        assert_eq!(l.row_y(2), 40.0);
        assert_eq!(l.row_y(3), 80.0);
        // Row 5 is hidden.
        assert_eq!(l.row_y(5), 100.0);
        assert_eq!(l.row_y(6), 120.0);
        assert_eq!(l.col_at(263.0), 2);
        assert_eq!(l.row_at(85.0), 3);
    }

    #[test]
    fn anchors_measure_to_the_grid() {
        let l = Layout::new(&sheet(), 8);
        let from = Marker {
            col: 1,
            row: 2,
            dx: 10.0,
            dy: 5.0,
        };
        let to = Marker {
            col: 3,
            row: 6,
            dx: 0.0,
            dy: 0.0,
        };
        let (b, rect) = l.measure(Place::TwoCell(from, to));
        assert_eq!(b, [74.0, 45.0, 190.0, 75.0]);
        assert_eq!(
            rect,
            Rect {
                r0: 2,
                c0: 1,
                r1: 5,
                c1: 2
            }
        );
        let (b, _) = l.measure(Place::OneCell(from, 30.0, 12.0));
        assert_eq!(b, [74.0, 45.0, 30.0, 12.0]);
        let (b, rect) = l.measure(Place::Absolute(0.0, 0.0, 64.0, 20.0));
        assert_eq!(b, [0.0, 0.0, 64.0, 20.0]);
        assert_eq!(
            rect,
            Rect {
                r0: 0,
                c0: 0,
                r1: 0,
                c1: 0
            }
        );
    }

    #[test]
    fn theme_slots_are_reordered_for_drawingml() {
        let s = chart_scheme(&ThemeColors::default());
        assert_eq!(s[0], Color::rgb(0x000000));
        assert_eq!(s[1], Color::rgb(0xFFFFFF));
        assert_eq!(s[2], Color::rgb(0x1F497D));
        assert_eq!(s[4], Color::rgb(0x4F81BD));
    }
}
