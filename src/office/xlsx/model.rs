//! The read-only workbook model: compact enough that a sheet of a million rows costs
//! about 16 bytes per cell and 16 per row, with no `String` per cell.
//!
//! Cells live in one vector per sheet in row order; [`Row`] records index into it, so a
//! block of rows is two binary searches away. Texts are pooled ([`TextPool`]: one string
//! and a vector of end offsets), formulas are a side table keyed by cell index, and
//! display text is made only when a block is asked for ([`Workbook::display`]).

use serde::Serialize;

use super::numfmt::FormatColor;
use super::style::{HAlign, Styles};
use crate::office::CoreProperties;

/// Many strings in one buffer: `text[ends[i-1]..ends[i]]` is string `i`.
#[derive(Debug, Clone, Default)]
pub struct TextPool {
    text: String,
    ends: Vec<u32>,
}

impl TextPool {
    /// Adds a string and returns its index (`None` past 4 GiB of text).
    pub fn push(&mut self, s: &str) -> Option<u32> {
        let end = u32::try_from(self.text.len().checked_add(s.len())?).ok()?;
        self.text.push_str(s);
        self.ends.push(end);
        u32::try_from(self.ends.len() - 1).ok()
    }

    /// String `i`, or `""` when there is none.
    pub fn get(&self, i: u32) -> &str {
        let i = i as usize;
        let Some(&end) = self.ends.get(i) else {
            return "";
        };
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        self.text.get(start as usize..end as usize).unwrap_or("")
    }

    /// How many strings it holds.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Frees spare capacity once the pool is complete.
    pub fn shrink(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }
}

/// What a cell holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[repr(u8)]
pub enum CellKind {
    /// A styled cell without a value.
    Blank,
    /// A number (the value's bits are an `f64`); dates are numbers with a date format.
    Number,
    /// An entry of the workbook's shared strings.
    Shared,
    /// A string of the sheet's own pool (inline strings, formula results, CSV fields).
    Text,
    /// A CSV field that reads as a number: shown as written, aligned like a number.
    NumericText,
    /// A boolean (0 or 1).
    Bool,
    /// An error such as `#DIV/0!` (a string of the sheet's pool).
    Error,
}

/// One cell: 16 bytes.
#[derive(Debug, Clone, Copy)]
pub struct Cell {
    /// The value's payload: `f64` bits, a string index or a boolean.
    pub value: u64,
    /// Zero-based column.
    pub col: u16,
    /// Index into the workbook's cell formats.
    pub style: u16,
    /// What `value` means.
    pub kind: CellKind,
}

impl Cell {
    /// The number a numeric cell holds.
    pub fn number(&self) -> f64 {
        f64::from_bits(self.value)
    }
}

/// One row that has cells or its own height.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    /// Zero-based row index.
    pub r: u32,
    /// Index of its first cell in [`Sheet::cells`]; its cells run to the next row's.
    pub first: u32,
    /// Custom height in pixels, 0 for the default.
    pub height: f32,
    /// Hidden rows are kept (their values can be searched) but drawn zero-height.
    pub hidden: bool,
}

/// A rectangle of cells, zero-based and inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Rect {
    /// First row.
    pub r0: u32,
    /// First column.
    pub c0: u32,
    /// Last row.
    pub r1: u32,
    /// Last column.
    pub c1: u32,
}

/// A run of columns with the same width or visibility.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ColumnRange {
    /// First column, zero-based.
    pub first: u32,
    /// Last column, inclusive.
    pub last: u32,
    /// Width in pixels.
    pub width: f32,
    /// Hidden columns are drawn zero-width.
    pub hidden: bool,
}

/// Where a hyperlink leads. Only web and mail links are kept as external targets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum LinkTarget {
    /// An `http`, `https` or `mailto` URL.
    Url {
        /// The URL.
        url: String,
    },
    /// A cell of this workbook (`Sheet2!B4`).
    Internal {
        /// Index of the sheet.
        sheet: usize,
        /// Zero-based row.
        row: u32,
        /// Zero-based column.
        col: u32,
    },
}

/// A hyperlink over a range of cells.
#[derive(Debug, Clone, Serialize)]
pub struct Hyperlink {
    /// The cells it covers.
    pub rect: Rect,
    /// Where it leads.
    pub target: LinkTarget,
}

/// A cell comment (note).
#[derive(Debug, Clone, Serialize)]
pub struct Comment {
    /// Zero-based row.
    pub row: u32,
    /// Zero-based column.
    pub col: u32,
    /// Its author, when the file names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// Its text.
    pub text: String,
}

/// Something drawn over the grid (a chart or a picture), anchored to cells
/// ([`super::drawing`] reads them).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Drawing {
    /// `chart` or `picture`.
    pub kind: &'static str,
    /// The cells it covers, from its anchor.
    pub rect: Rect,
    /// The chart's title or the picture's description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Where it is drawn, `[x, y, width, height]` in pixels of the sheet as the grid lays
    /// it out (column widths and row heights from the top-left corner of `A1`).
    #[serde(rename = "box")]
    pub bounds: [f32; 4],
    /// The picture's media part, served by the snapshot's `media/{part}` route, when a
    /// browser can show it (EMF and WMF pictures are served converted to SVG).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub media: Option<String>,
    /// Whether the chart engine draws the chart (`grid/chart/{sheet}/{n}`); when not,
    /// the viewer shows a labelled box.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub drawn: bool,
    /// The chart's area is painted white with a thin line, as Excel does unless the chart
    /// says it has no fill.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub opaque: bool,
    /// The chart, read from its part with its cached values.
    #[serde(skip)]
    pub chart: Option<Box<crate::office::chart::Chart>>,
}

/// Whether a sheet's tab is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Visibility {
    /// A normal tab.
    Visible,
    /// Hidden (can be unhidden in the application).
    Hidden,
    /// Hidden from the application's menu too.
    VeryHidden,
}

/// One worksheet.
#[derive(Debug, Clone)]
pub struct Sheet {
    /// Its tab name.
    pub name: String,
    /// Tab visibility.
    pub visibility: Visibility,
    /// Tab colour `0xRRGGBB`.
    pub tab_color: Option<u32>,
    /// Rows with cells or custom heights, ascending.
    pub rows: Vec<Row>,
    /// All cells, by row then column.
    pub cells: Vec<Cell>,
    /// Formula text by cell index, ascending by cell.
    pub formulas: Vec<(u32, u32)>,
    /// Inline strings, formula texts, errors and CSV fields.
    pub pool: TextPool,
    /// Rows in the used range (one past the last row with anything).
    pub row_count: u32,
    /// Columns in the used range.
    pub col_count: u32,
    /// Column widths and hidden columns.
    pub columns: Vec<ColumnRange>,
    /// Default column width in pixels.
    pub default_col_width: f32,
    /// Default row height in pixels.
    pub default_row_height: f32,
    /// Frozen rows at the top.
    pub frozen_rows: u32,
    /// Frozen columns at the left.
    pub frozen_cols: u32,
    /// Whether gridlines are shown.
    pub gridlines: bool,
    /// Merged ranges.
    pub merges: Vec<Rect>,
    /// Hyperlinks.
    pub links: Vec<Hyperlink>,
    /// Comments.
    pub comments: Vec<Comment>,
    /// Charts and pictures anchored to cells.
    pub drawings: Vec<Drawing>,
    /// Whether the first row is a header (CSV: guessed; workbooks: never assumed).
    pub header_row: bool,
    /// When the sheet had more cells than the limit: how many rows are kept.
    pub truncated_at: Option<u32>,
    /// Conditional-formatting rules in priority order ([`super::cond`]).
    pub conditional: Vec<super::cond::Rule>,
    /// How many of those previewd does not apply (their conditions are formulas).
    pub conditional_skipped: u32,
    /// A chart sheet: its one chart fills the tab, there are no cells.
    pub chart_sheet: bool,
    /// Tables (`xl/tables/`) with their styles resolved ([`super::tables`]).
    pub tables: Vec<super::tables::Table>,
}

impl Sheet {
    /// An empty sheet with default geometry.
    pub fn new(name: String) -> Sheet {
        Sheet {
            name,
            visibility: Visibility::Visible,
            tab_color: None,
            rows: Vec::new(),
            cells: Vec::new(),
            formulas: Vec::new(),
            pool: TextPool::default(),
            row_count: 0,
            col_count: 0,
            columns: Vec::new(),
            default_col_width: 64.0,
            default_row_height: 20.0,
            frozen_rows: 0,
            frozen_cols: 0,
            gridlines: true,
            merges: Vec::new(),
            links: Vec::new(),
            comments: Vec::new(),
            drawings: Vec::new(),
            header_row: false,
            truncated_at: None,
            conditional: Vec::new(),
            conditional_skipped: 0,
            chart_sheet: false,
            tables: Vec::new(),
        }
    }

    /// Index range into `rows` of the rows in `from..to`.
    pub fn row_span(&self, from: u32, to: u32) -> std::ops::Range<usize> {
        let a = self.rows.partition_point(|r| r.r < from);
        let b = self.rows.partition_point(|r| r.r < to);
        a..b
    }

    /// The cells of `rows[i]`.
    pub fn cells_of(&self, i: usize) -> &[Cell] {
        let start = self.rows[i].first as usize;
        let end = self
            .rows
            .get(i + 1)
            .map_or(self.cells.len(), |r| r.first as usize);
        &self.cells[start..end]
    }

    /// The formula text of cell index `cell`, when it has one.
    pub fn formula(&self, cell: u32) -> Option<&str> {
        self.formulas
            .binary_search_by_key(&cell, |&(c, _)| c)
            .ok()
            .map(|i| self.pool.get(self.formulas[i].1))
    }
}

/// Rich-text runs of one shared string: byte lengths and the CSS of each.
#[derive(Debug, Clone)]
pub struct RichText {
    /// Index of the shared string.
    pub index: u32,
    /// `(byte length, css)` in order; the lengths add up to the string.
    pub runs: Vec<(u32, String)>,
}

/// A parsed workbook (or CSV file, as a one-sheet workbook).
#[derive(Debug, Clone)]
pub struct Workbook {
    /// Sheets in tab order.
    pub sheets: Vec<Sheet>,
    /// The sheet shown first.
    pub active: usize,
    /// Dates count from 1904-01-01 instead of 1900-01-00.
    pub date1904: bool,
    /// Cell formats.
    pub styles: Styles,
    /// The shared-string table.
    pub shared: TextPool,
    /// Runs of the shared strings that have formatting, ascending by index.
    pub rich: Vec<RichText>,
    /// A macro-enabled workbook (`.xlsm`): macros are never run.
    pub has_macros: bool,
    /// Title, author and dates.
    pub properties: CoreProperties,
    /// Things shown with a note (a sheet that could not be read, a CSV's encoding).
    pub warnings: Vec<String>,
    /// `xlsx` or `csv`.
    pub source: &'static str,
}

/// A cell as shown.
#[derive(Debug, Clone, PartialEq)]
pub struct Display<'a> {
    /// The formatted text.
    pub text: std::borrow::Cow<'a, str>,
    /// A colour from the number format (`[Red]`).
    pub color: Option<FormatColor>,
    /// How a General-aligned cell of this value aligns.
    pub align: HAlign,
}

impl Workbook {
    /// A workbook of one empty sheet named `sheet`, plain styles and nothing else: what a
    /// file read in the background shows before its first rows are in.
    pub fn empty(sheet: String, source: &'static str) -> Workbook {
        Workbook {
            sheets: vec![Sheet::new(sheet)],
            active: 0,
            date1904: false,
            styles: Styles::plain(),
            shared: TextPool::default(),
            rich: Vec::new(),
            has_macros: false,
            properties: CoreProperties::default(),
            warnings: Vec::new(),
            source,
        }
    }

    /// The text, colour and natural alignment of a cell.
    pub fn display<'a>(&'a self, sheet: &'a Sheet, cell: &Cell) -> Display<'a> {
        use std::borrow::Cow;
        let fmt = self.styles.number_format(cell.style);
        let text_cell = |s: &'a str| {
            if fmt.is_general() {
                Display {
                    text: Cow::Borrowed(s),
                    color: None,
                    align: HAlign::Left,
                }
            } else {
                let f = fmt.format_text(s);
                Display {
                    text: Cow::Owned(f.text),
                    color: f.color,
                    align: HAlign::Left,
                }
            }
        };
        match cell.kind {
            CellKind::Blank => Display {
                text: Cow::Borrowed(""),
                color: None,
                align: HAlign::Left,
            },
            CellKind::Number => {
                let f = fmt.format_number(cell.number(), self.date1904);
                Display {
                    text: Cow::Owned(f.text),
                    color: f.color,
                    align: HAlign::Right,
                }
            }
            CellKind::Shared => text_cell(self.shared.get(cell.value as u32)),
            CellKind::Text => text_cell(sheet.pool.get(cell.value as u32)),
            CellKind::NumericText => Display {
                text: Cow::Borrowed(sheet.pool.get(cell.value as u32)),
                color: None,
                align: HAlign::Right,
            },
            CellKind::Bool => Display {
                text: Cow::Borrowed(if cell.value != 0 { "TRUE" } else { "FALSE" }),
                color: None,
                align: HAlign::Center,
            },
            CellKind::Error => Display {
                text: Cow::Borrowed(sheet.pool.get(cell.value as u32)),
                color: None,
                align: HAlign::Center,
            },
        }
    }

    /// The rich-text runs of a shared-string cell, when it has formatting.
    pub fn rich_runs(&self, cell: &Cell) -> Option<&[(u32, String)]> {
        if cell.kind != CellKind::Shared {
            return None;
        }
        let i = cell.value as u32;
        self.rich
            .binary_search_by_key(&i, |r| r.index)
            .ok()
            .map(|k| self.rich[k].runs.as_slice())
    }

    /// The picture parts the sheets show (each once), for the media route.
    pub fn pictures(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for p in self
            .sheets
            .iter()
            .flat_map(|s| &s.drawings)
            .filter_map(|d| d.media.as_deref())
        {
            if !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }

    /// The index of the sheet named `name` (ignoring ASCII case, as spreadsheets do).
    pub fn sheet_index(&self, name: &str) -> Option<usize> {
        self.sheets
            .iter()
            .position(|s| s.name.eq_ignore_ascii_case(name))
    }
}

/// `A`, `B`, … `Z`, `AA` … for a zero-based column.
pub fn column_name(col: u32) -> String {
    let mut n = col + 1;
    let mut out = Vec::new();
    while n > 0 {
        let rem = (n - 1) % 26;
        out.push(b'A' + rem as u8);
        n = (n - 1) / 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Parses `B12` (optionally with `$`) into a zero-based (row, column).
pub fn parse_cell_ref(s: &str) -> Option<(u32, u32)> {
    let s = s.trim().trim_start_matches('$');
    let letters = s.bytes().take_while(u8::is_ascii_alphabetic).count();
    if letters == 0 || letters > 3 {
        return None;
    }
    let mut col: u32 = 0;
    for b in s[..letters].bytes() {
        col = col * 26 + u32::from(b.to_ascii_uppercase() - b'A' + 1);
    }
    let digits = s[letters..].trim_start_matches('$');
    let row: u32 = digits.parse().ok()?;
    if row == 0 || col == 0 {
        return None;
    }
    Some((row - 1, col - 1))
}

/// Parses `A1:C3` (or a single cell) into a rectangle.
pub fn parse_range(s: &str) -> Option<Rect> {
    let (a, b) = s.split_once(':').unwrap_or((s, s));
    let (r0, c0) = parse_cell_ref(a)?;
    let (r1, c1) = parse_cell_ref(b)?;
    Some(Rect {
        r0: r0.min(r1),
        c0: c0.min(c1),
        r1: r0.max(r1),
        c1: c0.max(c1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_stay_small() {
        assert_eq!(std::mem::size_of::<Cell>(), 16);
        assert_eq!(std::mem::size_of::<Row>(), 16);
    }

    #[test]
    fn references_and_column_names() {
        assert_eq!(column_name(0), "A");
        assert_eq!(column_name(25), "Z");
        assert_eq!(column_name(26), "AA");
        assert_eq!(column_name(16383), "XFD");
        assert_eq!(parse_cell_ref("$B$12"), Some((11, 1)));
        assert_eq!(parse_cell_ref("XFD1048576"), Some((1_048_575, 16383)));
        assert_eq!(parse_cell_ref("A0"), None);
        assert_eq!(
            parse_range("C3:A1"),
            Some(Rect {
                r0: 0,
                c0: 0,
                r1: 2,
                c1: 2
            })
        );
    }

    #[test]
    fn pooled_text() {
        let mut p = TextPool::default();
        assert_eq!(p.push("ab"), Some(0));
        assert_eq!(p.push(""), Some(1));
        assert_eq!(p.push("cde"), Some(2));
        assert_eq!(
            (p.get(0), p.get(1), p.get(2), p.get(3)),
            ("ab", "", "cde", "")
        );
    }
}
