//! Tables: grid, widths, borders, shading, spans and vertical merges.
//!
//! Vertical merges are resolved after all rows are read: a cell that starts a merge
//! (`w:vMerge w:val="restart"`) gets a `row_span` counting the cells below it, in the
//! same grid column, that continue the merge. Continuation cells stay in the model,
//! flagged, with their (normally empty) content, so nothing is dropped.

use std::rc::Rc;

use crate::office::xml::Element;
use crate::office::Ns;

use super::model::{
    Align, Anchor, Block, Margins, Revision, RowRevision, Table, TableCell, TableRow, VerticalText,
    Width,
};
use super::parse::{number_attr, twips_attr, Parser};
use super::props::{borders, overlay_borders, shading, val};
use super::styles::{margins, table_pr, CondFormat, Style};

/// Word's default cell padding: 0.08" left and right.
const DEFAULT_CELL_MARGINS: Margins = Margins {
    top: 0.0,
    right: 5.4,
    bottom: 0.0,
    left: 5.4,
};

/// How a cell takes part in a vertical merge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum VMerge {
    None,
    Restart,
    Continue,
}

impl Parser<'_, '_> {
    pub(super) fn table(&mut self, el: Element<'_>) -> Table {
        let props = el.child(Ns::W, "tblPr");
        let style_id = props
            .and_then(|p| p.child(Ns::W, "tblStyle"))
            .and_then(val)
            .map(str::to_owned)
            .or_else(|| self.styles.default_table.clone());
        let style = style_id.as_deref().and_then(|id| self.styles.shared(id));

        let mut table = Table {
            style_id,
            cell_margins: DEFAULT_CELL_MARGINS,
            ..Table::default()
        };
        if let Some(style) = &style {
            table.borders = style.table.borders.clone();
            if let Some(m) = style.table.cell_margins {
                table.cell_margins = m;
            }
        }
        if let Some(p) = props {
            let direct = table_pr(p, &self.colors);
            overlay_borders(&mut table.borders, &direct.borders);
            if let Some(m) = direct.cell_margins {
                table.cell_margins = m;
            }
            table.width = p.child(Ns::W, "tblW").and_then(width);
            table.align = match p.child(Ns::W, "jc").and_then(val) {
                Some("center") => Align::Center,
                Some("right" | "end") => Align::Right,
                _ => Align::Left,
            };
            table.indent = p
                .child(Ns::W, "tblInd")
                .and_then(|i| twips_attr(i, "w"))
                .unwrap_or(0.0);
            table.fixed_layout = p
                .child(Ns::W, "tblLayout")
                .and_then(|l| l.attr(Ns::W, "type"))
                == Some("fixed");
            table.right_to_left = p
                .child(Ns::W, "bidiVisual")
                .is_some_and(super::props::on_off);
            table.float = p.child(Ns::W, "tblpPr").map(floating);
        }
        if let Some(grid) = el.child(Ns::W, "tblGrid") {
            table.columns = grid
                .children_named(Ns::W, "gridCol")
                .map(|c| twips_attr(c, "w").unwrap_or(0.0).max(0.0))
                .collect();
        }

        let mut rows_el = Vec::new();
        collect_rows(el, &mut rows_el);
        let direct_bands = props.map(|p| table_pr(p, &self.colors)).unwrap_or_default();
        let mut ctx = TableContext {
            look: props
                .and_then(|p| p.child(Ns::W, "tblLook"))
                .map(Look::from_xml)
                .unwrap_or_default(),
            rows: rows_el.len(),
            grid: table.columns.len() as u32,
            row_band: direct_bands
                .row_band
                .or(style.as_ref().and_then(|s| s.table.row_band))
                .unwrap_or(1),
            col_band: direct_bands
                .col_band
                .or(style.as_ref().and_then(|s| s.table.col_band))
                .unwrap_or(1),
            style,
            formats: Vec::new(),
        };
        let mut merges: Vec<Vec<VMerge>> = Vec::new();
        for (r, tr) in rows_el.into_iter().enumerate() {
            let (row, row_merges) = self.row(tr, r, &mut ctx);
            table.rows.push(row);
            merges.push(row_merges);
        }
        table.rows.shrink_to_fit();
        resolve_vertical_merges(&mut table.rows, &merges);
        if self.outdent_tables && table.align == Align::Left && !table.right_to_left {
            table.indent -= table
                .rows
                .first()
                .and_then(|r| r.cells.first())
                .and_then(|c| c.margins)
                .map_or(table.cell_margins.left, |m| m.left);
        }
        table
    }

    fn row(
        &mut self,
        tr: Element<'_>,
        r: usize,
        ctx: &mut TableContext,
    ) -> (TableRow, Vec<VMerge>) {
        let mut row = TableRow::default();
        if let Some(p) = tr.child(Ns::W, "trPr") {
            if let Some(h) = p.child(Ns::W, "trHeight") {
                row.height = twips_attr(h, "val");
                row.exact_height = h.attr(Ns::W, "hRule") == Some("exact");
            }
            row.header = p
                .child(Ns::W, "tblHeader")
                .is_some_and(super::props::on_off);
            row.grid_before = p
                .child(Ns::W, "gridBefore")
                .and_then(val)
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            row.grid_after = p
                .child(Ns::W, "gridAfter")
                .and_then(val)
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            for (name, inserted) in [("ins", true), ("del", false)] {
                if let Some(r) = p.child(Ns::W, name) {
                    row.revision = Some(RowRevision {
                        inserted,
                        revision: Revision {
                            author: r.attr(Ns::W, "author").map(str::to_owned),
                            date: r.attr(Ns::W, "date").map(str::to_owned),
                        },
                    });
                }
            }
        }
        let mut cells_el = Vec::new();
        collect_cells(tr, None, &mut cells_el);
        let mut merges = Vec::with_capacity(cells_el.len());
        row.cells.reserve_exact(cells_el.len());
        let mut col = row.grid_before;
        for (tc, sdt) in cells_el {
            let span = tc
                .child(Ns::W, "tcPr")
                .and_then(|p| p.child(Ns::W, "gridSpan"))
                .and_then(val)
                .and_then(|v| v.parse::<u32>().ok())
                .unwrap_or(1)
                .clamp(1, 1000);
            let cond = ctx.format_for(r, col, col.saturating_add(span));
            col = col.saturating_add(span);
            let (cell, merge) = match sdt {
                Some(sdt) => self.in_content_control(sdt, |p| p.cell(tc, cond)),
                None => self.cell(tc, cond),
            };
            row.cells.push(cell);
            merges.push(merge);
        }
        (row, merges)
    }

    fn cell(&mut self, tc: Element<'_>, cond: Rc<CondFormat>) -> (TableCell, VMerge) {
        let mut cell = TableCell {
            col_span: 1,
            row_span: 1,
            ..TableCell::default()
        };
        let mut merge = VMerge::None;
        if let Some(p) = tc.child(Ns::W, "tcPr") {
            cell.col_span = p
                .child(Ns::W, "gridSpan")
                .and_then(val)
                .and_then(|v| v.parse::<u32>().ok())
                .unwrap_or(1)
                .clamp(1, 1000);
            cell.width = p.child(Ns::W, "tcW").and_then(width);
            cell.shading = p
                .child(Ns::W, "shd")
                .and_then(|s| shading(s, &self.colors))
                .flatten();
            cell.v_align = p.child(Ns::W, "vAlign").and_then(val).map(|v| {
                match v {
                    "both" => "center",
                    other => other,
                }
                .to_owned()
            });
            cell.borders = p
                .child(Ns::W, "tcBorders")
                .map(|b| borders(b, &self.colors))
                .unwrap_or_default();
            cell.margins = p.child(Ns::W, "tcMar").map(margins);
            cell.vertical = match p.child(Ns::W, "textDirection").and_then(val) {
                Some("btLr") => Some(VerticalText::Up),
                Some("tbRl" | "tbRlV") => Some(VerticalText::Down),
                _ => None,
            };
            if let Some(v) = p.child(Ns::W, "vMerge") {
                merge = match val(v) {
                    Some("restart") => VMerge::Restart,
                    _ => VMerge::Continue,
                };
            }
            // The legacy horizontal merge marks a cell covered by its left neighbour.
            if p.child(Ns::W, "hMerge").and_then(val) == Some("continue") {
                cell.merged_continuation = true;
            }
        }
        // The style's region formatting sits under the cell's own.
        if cell.shading.is_none() {
            cell.shading = cond.shading.flatten();
        }
        let mut borders = cond.borders.clone();
        overlay_borders(&mut borders, &cell.borders);
        cell.borders = borders;
        // Paragraphs inside take the table style's paragraph and run properties.
        self.table_styles.push(cond);
        self.blocks(tc, &mut cell.blocks, None);
        // Word's automatic space before is not kept at the top of a cell.
        if let Some(Block::Paragraph(first)) = cell.blocks.first_mut() {
            if first.format.auto_space_before {
                first.format.space_before = 0.0;
            }
        }
        // Most cells hold one paragraph; growth slack here was a third of a large
        // report's model.
        cell.blocks.shrink_to_fit();
        self.table_styles.pop();
        (cell, merge)
    }
}

/// Which regions of a table its style's conditional formats apply to (`w:tblLook`).
#[derive(Debug, Clone, Copy)]
struct Look {
    first_row: bool,
    last_row: bool,
    first_col: bool,
    last_col: bool,
    h_band: bool,
    v_band: bool,
}

impl Default for Look {
    /// Word's default look: header row, first column, banded rows.
    fn default() -> Self {
        Look {
            first_row: true,
            last_row: false,
            first_col: true,
            last_col: false,
            h_band: true,
            v_band: false,
        }
    }
}

impl Look {
    fn from_xml(el: Element<'_>) -> Look {
        // The legacy form is a hex bit mask in w:val; explicit attributes win.
        let bits = val(el)
            .and_then(|v| u32::from_str_radix(v, 16).ok())
            .unwrap_or(0x04A0);
        let flag = |name: &str, bit: u32| match el.attr(Ns::W, name) {
            Some(v) => matches!(v, "1" | "true" | "on"),
            None => bits & bit != 0,
        };
        Look {
            first_row: flag("firstRow", 0x0020),
            last_row: flag("lastRow", 0x0040),
            first_col: flag("firstColumn", 0x0080),
            last_col: flag("lastColumn", 0x0100),
            h_band: !flag("noHBand", 0x0200),
            v_band: !flag("noVBand", 0x0400),
        }
    }
}

/// What a row and its cells need to know about their table.
struct TableContext {
    style: Option<Rc<Style>>,
    /// Region formats built so far, by the set of regions merged into them: a table has
    /// only a handful of distinct ones (header, bands, corners), and merging them again
    /// for every cell cost more than reading the cells.
    formats: Vec<(u16, Rc<CondFormat>)>,
    look: Look,
    rows: usize,
    grid: u32,
    row_band: u32,
    col_band: u32,
}

impl TableContext {
    /// The table style's formatting for the cell at row `r` spanning grid columns
    /// `start..end`: base properties, then regions in Word's order of precedence
    /// (whole table, column bands, row bands, first/last column, first/last row, corners).
    fn format_for(&mut self, r: usize, start: u32, end: u32) -> Rc<CondFormat> {
        let regions = self.regions(r, start, end);
        if let Some((_, f)) = self.formats.iter().find(|(set, _)| *set == regions) {
            return Rc::clone(f);
        }
        let mut f = CondFormat::default();
        if let Some(style) = &self.style {
            f.ppr = style.ppr.clone();
            f.rpr = style.rpr.clone();
            for (bit, region) in REGIONS.iter().enumerate() {
                if regions & (1 << bit) != 0 {
                    if let Some(cond) = style.conditional.get(*region) {
                        f.overlay(cond);
                    }
                }
            }
        }
        let f = Rc::new(f);
        self.formats.push((regions, Rc::clone(&f)));
        f
    }

    /// The regions (bits into [`REGIONS`]) a cell at row `r` spanning grid columns
    /// `start..end` lies in; none without a table style.
    fn regions(&self, r: usize, start: u32, end: u32) -> u16 {
        if self.style.is_none() {
            return 0;
        }
        let look = self.look;
        let first_row = look.first_row && r == 0;
        let last_row = look.last_row && r + 1 == self.rows && self.rows > 1;
        let first_col = look.first_col && start == 0;
        let last_col = look.last_col && self.grid > 0 && end >= self.grid;
        let mut regions = region_bit("wholeTable");
        if look.v_band && !first_col && !last_col {
            let c = start.saturating_sub(u32::from(look.first_col)) / self.col_band;
            regions |= region_bit(if c.is_multiple_of(2) {
                "band1Vert"
            } else {
                "band2Vert"
            });
        }
        if look.h_band && !first_row && !last_row {
            let header = usize::from(look.first_row);
            let b = r.saturating_sub(header) / self.row_band as usize;
            regions |= region_bit(if b.is_multiple_of(2) {
                "band1Horz"
            } else {
                "band2Horz"
            });
        }
        for (region, hit) in [
            ("firstCol", first_col),
            ("lastCol", last_col),
            ("firstRow", first_row),
            ("lastRow", last_row),
            ("nwCell", first_row && first_col),
            ("neCell", first_row && last_col),
            ("swCell", last_row && first_col),
            ("seCell", last_row && last_col),
        ] {
            if hit {
                regions |= region_bit(region);
            }
        }
        regions
    }
}

/// Table style regions in Word's order of precedence, weakest first: formats are merged
/// in this order, so a later region wins.
const REGIONS: [&str; 13] = [
    "wholeTable",
    "band1Vert",
    "band2Vert",
    "band1Horz",
    "band2Horz",
    "firstCol",
    "lastCol",
    "firstRow",
    "lastRow",
    "nwCell",
    "neCell",
    "swCell",
    "seCell",
];

/// The bit of a region in a set of [`REGIONS`].
fn region_bit(region: &str) -> u16 {
    REGIONS
        .iter()
        .position(|r| *r == region)
        .map_or(0, |i| 1 << i)
}

/// Rows, looking through wrappers (`w:sdt`, `w:customXml`) that may hold them.
fn collect_rows<'e>(el: Element<'e>, out: &mut Vec<Element<'e>>) {
    for c in el.elements() {
        if c.is(Ns::W, "tr") {
            out.push(c);
        } else if c.is(Ns::W, "sdt") || c.is(Ns::W, "customXml") || c.is(Ns::W, "sdtContent") {
            collect_rows(c, out);
        }
    }
}

/// Cells, looking through wrappers, each with the innermost content control around it
/// (a cell-level check box).
fn collect_cells<'e>(
    el: Element<'e>,
    sdt: Option<Element<'e>>,
    out: &mut Vec<(Element<'e>, Option<Element<'e>>)>,
) {
    for c in el.elements() {
        if c.is(Ns::W, "tc") {
            out.push((c, sdt));
        } else if c.is(Ns::W, "sdt") {
            collect_cells(c, Some(c), out);
        } else if c.is(Ns::W, "customXml") || c.is(Ns::W, "sdtContent") {
            collect_cells(c, sdt, out);
        }
    }
}

/// A preferred width (`w:tblW`, `w:tcW`).
fn width(el: Element<'_>) -> Option<Width> {
    let w = number_attr(el, "w");
    match el.attr(Ns::W, "type") {
        Some("auto") => Some(Width::Auto),
        Some("nil") => None,
        // Fiftieths of a percent, or an explicit "50%".
        Some("pct") => match el.attr(Ns::W, "w") {
            Some(v) if v.ends_with('%') => {
                super::props::number(v.trim_end_matches('%')).map(Width::Percent)
            }
            _ => w.map(|w| Width::Percent(w / 50.0)),
        },
        _ => w.map(|w| Width::Points(w / 20.0)),
    }
}

/// Computes row spans from vertical merge marks, by grid column.
fn resolve_vertical_merges(rows: &mut [TableRow], merges: &[Vec<VMerge>]) {
    // Grid column where each cell starts.
    let starts: Vec<Vec<u32>> = rows
        .iter()
        .map(|row| {
            let mut col = row.grid_before;
            row.cells
                .iter()
                .map(|c| {
                    let start = col;
                    col = col.saturating_add(c.col_span);
                    start
                })
                .collect()
        })
        .collect();
    let merge_at = |r: usize, col: u32| -> Option<(usize, VMerge)> {
        let i = starts.get(r)?.iter().position(|&s| s == col)?;
        Some((i, *merges.get(r)?.get(i)?))
    };
    for (r, row_starts) in starts.iter().enumerate() {
        for (i, &col) in row_starts.iter().enumerate() {
            let Some(&kind) = merges.get(r).and_then(|m| m.get(i)) else {
                continue;
            };
            match kind {
                VMerge::Restart => {
                    let mut span = 1;
                    while let Some((j, VMerge::Continue)) = merge_at(r + span, col) {
                        rows[r + span].cells[j].merged_continuation = true;
                        rows[r + span].cells[j].row_span = 0;
                        span += 1;
                    }
                    rows[r].cells[i].row_span = span as u32;
                }
                VMerge::Continue => {
                    // A continuation with nothing above to continue stands alone.
                    let above = r
                        .checked_sub(1)
                        .and_then(|a| merge_at(a, col))
                        .is_some_and(|(_, k)| k != VMerge::None);
                    if !above {
                        rows[r].cells[i].merged_continuation = false;
                        rows[r].cells[i].row_span = 1;
                    }
                }
                VMerge::None => {}
            }
        }
    }
}

/// The placement of a floating table (`w:tblpPr`, ECMA-376 Part 1 §17.4.58) as a
/// drawing's anchor: `horzAnchor`/`vertAnchor` name the reference box (`text`, the
/// default, is the column and the paragraph the table stands at), `tblpX`/`tblpY` the
/// offsets from it and `tblpXSpec`/`tblpYSpec` an alignment that wins over them. Text
/// wraps around a floating table.
fn floating(p: Element<'_>) -> Anchor {
    let attr = |name: &str| p.attr(Ns::W, name);
    let spec = |name: &str| {
        attr(name)
            .filter(|v| {
                matches!(
                    *v,
                    "left" | "center" | "right" | "inside" | "outside" | "top" | "bottom"
                )
            })
            .map(str::to_owned)
    };
    Anchor {
        align_h: spec("tblpXSpec"),
        offset_h: twips_attr(p, "tblpX"),
        share_h: None,
        relative_h: Some(
            match attr("horzAnchor") {
                Some("page") => "page",
                Some("margin") => "margin",
                _ => "column",
            }
            .to_owned(),
        ),
        align_v: spec("tblpYSpec"),
        offset_v: twips_attr(p, "tblpY"),
        share_v: None,
        relative_v: Some(
            match attr("vertAnchor") {
                Some("page") => "page",
                Some("margin") => "margin",
                _ => "paragraph",
            }
            .to_owned(),
        ),
        wrap: "square".to_owned(),
        behind_text: false,
        z_order: None,
        relative_width: None,
        relative_height: None,
    }
}
