//! `.xlsx`/`.xlsm` → [`Workbook`]: the workbook part, theme and styles as trees; the
//! shared strings and every worksheet streamed (see [`super::stream`]); then each
//! sheet's hyperlinks, comments and drawings from its relationships.

use std::collections::HashMap;

use super::cond;
use super::drawing;
use super::model::{
    parse_cell_ref, parse_range, Cell, CellKind, ColumnRange, Comment, Hyperlink, LinkTarget, Rect,
    RichText, Row, Sheet, TextPool, Visibility, Workbook,
};
use super::stream::{self, Ev, Start};
use super::style::{color_from_attrs, Styles, ThemeColors};
use super::tables;
use crate::office::ns::rel_type;
use crate::office::xml::Element;
use crate::office::{
    Ns, OfficeError, OfficeErrorKind, OfficeLimits, OfficePackage, OfficeResult, RelTarget,
    Relationships,
};

/// The last row and column a worksheet can have (1,048,576 × 16,384).
pub(super) const MAX_ROWS: u32 = 1 << 20;
pub(super) const MAX_COLS: u32 = 1 << 14;

const REL_WORKSHEET: &str =
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet";
const REL_SHARED_STRINGS: &str =
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings";

fn limit(reason: String) -> OfficeError {
    OfficeError::new(OfficeErrorKind::SheetLimit, reason)
}

fn corrupt(reason: String) -> OfficeError {
    OfficeError::new(OfficeErrorKind::MalformedXml, reason)
}

/// Parses a workbook from its bytes, behind the package guard.
pub fn parse_xlsx(bytes: &[u8], limits: &OfficeLimits) -> OfficeResult<Workbook> {
    let package = OfficePackage::open(bytes, limits)?;
    parse_package(&package)
}

/// Parses an opened package as a workbook.
pub fn parse_package(package: &OfficePackage<'_>) -> OfficeResult<Workbook> {
    let mut whole = Whole(Workbook::empty(String::new(), "xlsx"));
    parse_into(package, &mut whole)?;
    Ok(whole.0)
}

/// Where a workbook is built while it is parsed: whole in memory ([`Whole`]), or in a
/// table that readers see grow as its first visible sheet streams in
/// ([`super::live`]). Everything the parse keeps goes through the workbook it derefs to;
/// the parts that grow with the data (shared strings, worksheets) are read through it.
pub(super) trait Build: std::ops::DerefMut<Target = Workbook> {
    /// Hands the events of `part` (shared strings, a hidden sheet) to `on`.
    fn stream(
        &mut self,
        package: &OfficePackage<'_>,
        part: &str,
        on: &mut dyn FnMut(Ev<'_, '_>) -> OfficeResult<bool>,
    ) -> OfficeResult<()>;

    /// Reads worksheet `part` into `reader` (its sheet already has its visibility).
    fn worksheet(
        &mut self,
        package: &OfficePackage<'_>,
        part: &str,
        reader: &mut SheetReader<'_>,
    ) -> OfficeResult<()> {
        self.stream(package, part, &mut |ev| reader.event(ev))
    }
}

/// A workbook parsed whole: each part is inflated whole, then read.
struct Whole(Workbook);

impl std::ops::Deref for Whole {
    type Target = Workbook;
    fn deref(&self) -> &Workbook {
        &self.0
    }
}

impl std::ops::DerefMut for Whole {
    fn deref_mut(&mut self) -> &mut Workbook {
        &mut self.0
    }
}

impl Build for Whole {
    fn stream(
        &mut self,
        package: &OfficePackage<'_>,
        part: &str,
        on: &mut dyn FnMut(Ev<'_, '_>) -> OfficeResult<bool>,
    ) -> OfficeResult<()> {
        let bytes = package.read_part(part)?;
        stream::read(part, &bytes, package.limits().max_xml_depth, on)
    }
}

/// Parses an opened package into `book` (see [`Build`]).
pub(super) fn parse_into<B: Build>(package: &OfficePackage<'_>, book: &mut B) -> OfficeResult<()> {
    let limits = package.limits().clone();
    let main = package.main_part()?;
    if let Some(ct) = &main.content_type {
        if ct.contains("wordprocessingml") || ct.contains("presentationml") {
            return Err(OfficeError::new(
                OfficeErrorKind::Unsupported,
                "the package is not a workbook (its main part is a document or presentation)",
            ));
        }
    }
    let doc = package.read_xml(&main.name, &[])?;
    let root = doc.root();
    if !root.is(Ns::Sml, "workbook") {
        return Err(OfficeError::new(
            OfficeErrorKind::Unsupported,
            "the package is not a workbook (its main part is not a SpreadsheetML workbook)",
        ));
    }
    let rels = package.relationships(&main.name)?;
    let date1904 = root
        .child(Ns::Sml, "workbookPr")
        .and_then(|p| p.attr_local("date1904"))
        .is_some_and(|v| v == "1" || v == "true");
    let active = root
        .child(Ns::Sml, "bookViews")
        .and_then(|b| b.child(Ns::Sml, "workbookView"))
        .and_then(|v| v.attr_local("activeTab"))
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(0);
    let sheet_list: Vec<Element<'_>> = root
        .child(Ns::Sml, "sheets")
        .map(|s| s.children_named(Ns::Sml, "sheet").collect())
        .unwrap_or_default();
    if sheet_list.len() > limits.max_sheets {
        return Err(limit(format!(
            "the workbook lists {} sheets, over the limit of {}",
            sheet_list.len(),
            limits.max_sheets
        )));
    }

    let theme = match rels.part_of_type(rel_type::THEME) {
        Some(p) if package.has_part(p) => package
            .read_xml(p, &[])
            .map(|d| ThemeColors::from_theme(&d))
            .unwrap_or_default(),
        _ => ThemeColors::default(),
    };
    let styles = match rels.part_of_type(rel_type::STYLES) {
        Some(p) if package.has_part(p) => {
            let d = package.read_xml(p, &[])?;
            Styles::from_xml(&d, &theme, limits.max_style_records)?
        }
        _ => Styles::plain(),
    };
    let (shared, rich) = match rels.part_of_type(REL_SHARED_STRINGS) {
        Some(p) if package.has_part(p) => {
            read_shared_strings(|on| book.stream(package, p, on), &limits, &theme)?
        }
        _ => (TextPool::default(), Vec::new()),
    };

    **book = Workbook {
        sheets: Vec::with_capacity(sheet_list.len()),
        active: 0,
        date1904,
        styles,
        shared,
        rich,
        has_macros: package.has_macros(),
        properties: package.core_properties().unwrap_or_default(),
        warnings: Vec::new(),
        source: "xlsx",
    };
    // Internal hyperlinks name sheets; they are resolved once every sheet is known.
    let mut pending_links: Vec<(usize, Rect, String)> = Vec::new();
    let mut media = crate::office::media::MediaCatalog::default();
    for el in sheet_list {
        let name = el.attr_local("name").unwrap_or("Sheet").to_owned();
        let visibility = match el.attr_local("state") {
            Some("hidden") => Visibility::Hidden,
            Some("veryHidden") => Visibility::VeryHidden,
            _ => Visibility::Visible,
        };
        let rel = el.attr(Ns::R, "id").and_then(|id| rels.get(id));
        if let Some(RelTarget::Part(p)) = rel
            .filter(|r| r.rel_type == drawing::REL_CHARTSHEET)
            .map(|r| &r.target)
        {
            let mut sheet = Sheet::new(name);
            sheet.visibility = visibility;
            drawing::read_chart_sheet(package, p, &theme, &mut media, &mut sheet)?;
            book.sheets.push(sheet);
            continue;
        }
        let target = rel
            .filter(|r| r.rel_type == REL_WORKSHEET)
            .and_then(|r| match &r.target {
                RelTarget::Part(p) => Some(p.clone()),
                _ => None,
            });
        let Some(part) = target.filter(|p| package.has_part(p)) else {
            // Dialog sheets, macro sheets and missing parts: a tab without cells.
            let mut sheet = Sheet::new(name);
            sheet.visibility = visibility;
            book.warnings.push(format!(
                "Sheet \u{201c}{}\u{201d} is not a worksheet and is shown empty.",
                sheet.name
            ));
            book.sheets.push(sheet);
            continue;
        };
        let mut reader = SheetReader::new(name, &limits, &theme, book.shared.len());
        reader.sheet.visibility = visibility;
        book.worksheet(package, &part, &mut reader)?;
        let (mut sheet, links, drawing_id) = reader.finish();
        sheet.visibility = visibility;
        sheet.conditional_skipped = cond::prepare(&mut sheet, &book.shared) as u32;
        let sheet_rels = package.relationships(&part)?;
        let index = book.sheets.len();
        for (rect, id, location) in links {
            let external = id
                .as_deref()
                .and_then(|id| sheet_rels.get(id))
                .and_then(|r| match &r.target {
                    RelTarget::External(url) => Some(url.clone()),
                    _ => None,
                });
            if let Some(url) = external.filter(|u| safe_url(u)) {
                sheet.links.push(Hyperlink {
                    rect,
                    target: LinkTarget::Url { url },
                });
            } else if let Some(loc) = location {
                pending_links.push((index, rect, loc));
            }
        }
        read_comments(package, &sheet_rels, &mut sheet);
        sheet.tables = tables::read(package, &sheet_rels, &book.styles.table_styles, &theme);
        if let Some(id) = drawing_id {
            drawing::read(package, &sheet_rels, &id, &theme, &mut media, &mut sheet)?;
        }
        book.sheets.push(sheet);
    }
    drawing::keep_displayable(&mut book.sheets, media);
    for (index, rect, location) in pending_links {
        if let Some(target) = internal_target(book, index, &location) {
            book.sheets[index].links.push(Hyperlink { rect, target });
        }
    }
    book.active =
        if active < book.sheets.len() && book.sheets[active].visibility == Visibility::Visible {
            active
        } else {
            book.sheets
                .iter()
                .position(|s| s.visibility == Visibility::Visible)
                .unwrap_or(0)
        };
    if book.sheets.is_empty() {
        book.sheets.push(Sheet::new("Sheet1".into()));
    }
    Ok(())
}

/// Only web and mail links are followed from a preview.
pub fn safe_url(url: &str) -> bool {
    let lower = url.trim_start().to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("mailto:")
}

/// `Sheet2!B4`, `'My sheet'!A1:B2` or `B4` (this sheet) → a cell of the workbook.
fn internal_target(book: &Workbook, this: usize, location: &str) -> Option<LinkTarget> {
    let loc = location.trim().trim_start_matches('#');
    let (sheet, cell) = match loc.rsplit_once('!') {
        Some((s, c)) => {
            let s = s.trim_matches('\'').replace("''", "'");
            (book.sheet_index(&s)?, c)
        }
        None => (this, loc),
    };
    let rect = parse_range(cell)?;
    Some(LinkTarget::Internal {
        sheet,
        row: rect.r0,
        col: rect.c0,
    })
}

/// Run properties of a rich-text run, collected while streaming.
#[derive(Default)]
struct RunFont {
    css: String,
}

fn run_property_css(start: &Start<'_>, theme: &ThemeColors, out: &mut String) {
    use std::fmt::Write;
    let val = start.attr("val");
    let on = val.as_deref().is_none_or(|v| v != "0" && v != "false");
    match start.name() {
        b"b" if on => out.push_str("font-weight:bold;"),
        b"i" if on => out.push_str("font-style:italic;"),
        b"u" if val.as_deref() != Some("none") => out.push_str("text-decoration:underline;"),
        b"strike" if on => out.push_str("text-decoration:line-through;"),
        b"sz" => {
            if let Some(sz) = val
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| (1.0..=409.0).contains(v))
            {
                let _ = write!(out, "font-size:{sz}pt;");
            }
        }
        b"color" => {
            let attrs = start.attrs();
            let get = |n: &str| attrs.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
            if let Some(rgb) = color_from_attrs(get, theme) {
                let _ = write!(out, "color:#{rgb:06x};");
            }
        }
        b"vertAlign" => match val.as_deref() {
            Some("superscript") => out.push_str("vertical-align:super;font-size:smaller;"),
            Some("subscript") => out.push_str("vertical-align:sub;font-size:smaller;"),
            _ => {}
        },
        _ => {}
    }
}

/// Streams `sst` (its events from `events`): one pooled string per `si`, runs kept only
/// for formatted strings.
fn read_shared_strings(
    events: impl FnOnce(&mut dyn FnMut(Ev<'_, '_>) -> OfficeResult<bool>) -> OfficeResult<()>,
    limits: &OfficeLimits,
    theme: &ThemeColors,
) -> OfficeResult<(TextPool, Vec<RichText>)> {
    let mut pool = TextPool::default();
    let mut rich: Vec<RichText> = Vec::new();
    let mut cur = String::new();
    let mut runs: Vec<(u32, String)> = Vec::new();
    let mut run_start = 0usize;
    let mut font = RunFont::default();
    let (mut in_si, mut in_t, mut in_rph, mut in_rpr) = (false, false, false, false);
    let mut too_many = false;
    events(&mut |ev| {
        match ev {
            Ev::Open(s, empty) => match s.name() {
                b"si" => {
                    if pool.len() >= limits.max_shared_strings {
                        too_many = true;
                        return Ok(false);
                    }
                    if empty {
                        pool.push("");
                    } else {
                        in_si = true;
                        cur.clear();
                        runs.clear();
                    }
                }
                b"rPh" if !empty => in_rph = true,
                b"t" if in_si && !in_rph && !empty => in_t = true,
                b"r" if in_si => {
                    run_start = cur.len();
                    font.css.clear();
                }
                b"rPr" if in_si && !empty => in_rpr = true,
                _ if in_rpr => run_property_css(s, theme, &mut font.css),
                _ => {}
            },
            Ev::Close(name) => match name {
                b"si" => {
                    in_si = false;
                    cut_text(&mut cur, limits.max_cell_bytes);
                    let index = pool.push(&cur).ok_or_else(|| {
                        limit("the shared strings hold more than 4 GiB of text".into())
                    })?;
                    if runs.iter().any(|(_, css)| !css.is_empty()) {
                        rich.push(RichText {
                            index,
                            runs: std::mem::take(&mut runs),
                        });
                    }
                }
                b"rPh" => in_rph = false,
                b"t" => in_t = false,
                b"rPr" => in_rpr = false,
                b"r" if in_si => {
                    let len = cur.len().saturating_sub(run_start) as u32;
                    runs.push((len, std::mem::take(&mut font.css)));
                }
                _ => {}
            },
            Ev::Text(t) => {
                if in_t && cur.len() <= limits.max_cell_bytes {
                    cur.push_str(t);
                }
            }
        }
        Ok(true)
    })?;
    if too_many {
        return Err(limit(format!(
            "the shared-string table holds more than the limit of {} strings",
            limits.max_shared_strings
        )));
    }
    pool.shrink();
    rich.shrink_to_fit();
    Ok((pool, rich))
}

/// Cuts text longer than `max` bytes at a character boundary and marks the cut.
pub fn cut_text(s: &mut String, max: usize) {
    if s.len() > max {
        let mut end = max;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push('\u{2026}');
    }
}

/// Column width in characters (as stored) → pixels, for the Calibri 11 digit width of 7 px.
fn width_px(chars: f64) -> f32 {
    (((256.0 * chars + (128.0 / 7.0f64).trunc()) / 256.0) * 7.0)
        .trunc()
        .max(0.0) as f32
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    None,
    Value,
    Formula,
    Inline,
}

/// A hyperlink as written: its cells, relationship id and in-workbook location.
type RawLink = (Rect, Option<String>, Option<String>);

/// State of one worksheet being streamed.
pub(super) struct SheetReader<'l> {
    /// The sheet as read so far.
    pub(super) sheet: Sheet,
    limits: &'l OfficeLimits,
    theme: &'l ThemeColors,
    shared_len: usize,
    /// Next row index when `r` is missing.
    next_row: u32,
    next_col: u32,
    in_data: bool,
    full: bool,
    sorted: bool,
    // The cell being read.
    cell_open: bool,
    cell_col: u32,
    cell_style: u16,
    cell_type: String,
    slot: Slot,
    value: String,
    formula: Option<String>,
    shared_formula: Option<(u32, bool)>,
    inline: String,
    in_rph: bool,
    in_sheet_view: u32,
    /// Shared formulas by `si`: (master row, master col, text).
    shared_formulas: HashMap<u32, (u32, u32, String)>,
    links: Vec<RawLink>,
    drawing: Option<String>,
    depth_in_ext: u32,
    conditional: cond::Reader,
}

impl<'l> SheetReader<'l> {
    fn new(
        name: String,
        limits: &'l OfficeLimits,
        theme: &'l ThemeColors,
        shared_len: usize,
    ) -> Self {
        SheetReader {
            sheet: Sheet::new(name),
            limits,
            theme,
            shared_len,
            next_row: 0,
            next_col: 0,
            in_data: false,
            full: false,
            sorted: true,
            cell_open: false,
            cell_col: 0,
            cell_style: 0,
            cell_type: String::new(),
            slot: Slot::None,
            value: String::new(),
            formula: None,
            shared_formula: None,
            inline: String::new(),
            in_rph: false,
            in_sheet_view: 0,
            shared_formulas: HashMap::new(),
            links: Vec::new(),
            drawing: None,
            depth_in_ext: 0,
            conditional: cond::Reader::default(),
        }
    }

    /// Rows numbered below this are read whole (the row being read may still grow);
    /// `None` once rows came out of order, as they are sorted only at the end.
    pub(super) fn rows_final(&self) -> Option<u32> {
        if !self.sorted {
            return None;
        }
        Some(self.sheet.rows.last().map_or(0, |r| r.r))
    }

    /// Reads one event of the worksheet.
    pub(super) fn event(&mut self, ev: Ev<'_, '_>) -> OfficeResult<bool> {
        match ev {
            Ev::Open(s, empty) => self.open(s, empty)?,
            Ev::Close(name) => self.close(name)?,
            Ev::Text(t) => {
                self.conditional.text(t);
                let max = self.limits.max_cell_bytes;
                match self.slot {
                    Slot::Value if self.value.len() <= max => self.value.push_str(t),
                    Slot::Formula => {
                        if let Some(f) = self.formula.as_mut().filter(|f| f.len() <= max) {
                            f.push_str(t);
                        }
                    }
                    Slot::Inline if !self.in_rph && self.inline.len() <= max => {
                        self.inline.push_str(t)
                    }
                    _ => {}
                }
            }
        }
        Ok(true)
    }

    fn open(&mut self, s: &Start<'_>, empty: bool) -> OfficeResult<()> {
        if self.depth_in_ext > 0 {
            if !empty {
                self.depth_in_ext += 1;
            }
            return Ok(());
        }
        self.conditional.open(s, empty, self.theme);
        let sh = &mut self.sheet;
        match s.name() {
            // Extension lists hold vendor markup that reuses SpreadsheetML names.
            b"extLst" if !empty => self.depth_in_ext = 1,
            b"tabColor" => {
                let attrs = s.attrs();
                let get = |n: &str| attrs.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
                sh.tab_color = color_from_attrs(get, self.theme);
            }
            b"sheetView" => {
                self.in_sheet_view += 1;
                if self.in_sheet_view == 1 {
                    sh.gridlines = s
                        .attr("showGridLines")
                        .is_none_or(|v| v != "0" && v != "false");
                }
                if empty {
                    self.in_sheet_view = self.in_sheet_view.max(1);
                }
            }
            b"pane" if self.in_sheet_view == 1 => {
                let frozen = s
                    .attr("state")
                    .is_some_and(|v| v == "frozen" || v == "frozenSplit");
                if frozen {
                    let n = |k: &str| {
                        s.attr(k)
                            .and_then(|v| v.parse::<f64>().ok())
                            .map_or(0, |v| v.max(0.0).min(f64::from(MAX_ROWS)) as u32)
                    };
                    sh.frozen_cols = n("xSplit").min(MAX_COLS);
                    sh.frozen_rows = n("ySplit");
                }
            }
            b"sheetFormatPr" => {
                if let Some(h) = s
                    .attr("defaultRowHeight")
                    .and_then(|v| v.parse::<f64>().ok())
                {
                    if (1.0..=409.0).contains(&h) {
                        sh.default_row_height = (h * 4.0 / 3.0).round() as f32;
                    }
                }
                let w = s
                    .attr("defaultColWidth")
                    .and_then(|v| v.parse::<f64>().ok());
                let base = s.attr("baseColWidth").and_then(|v| v.parse::<f64>().ok());
                if let Some(w) = w.filter(|w| (0.0..=255.0).contains(w)) {
                    sh.default_col_width = width_px(w);
                } else if let Some(b) = base.filter(|b| (0.0..=255.0).contains(b)) {
                    // Base width plus margins, rounded up to a multiple of 8 pixels.
                    sh.default_col_width = ((b * 7.0 + 5.0) / 8.0).ceil() as f32 * 8.0;
                }
            }
            b"col" => {
                let n = |k: &str| s.attr(k).and_then(|v| v.parse::<u32>().ok());
                if let (Some(min), Some(max)) = (n("min"), n("max")) {
                    if min >= 1 && min <= max {
                        let width = s
                            .attr("width")
                            .and_then(|v| v.parse::<f64>().ok())
                            .filter(|w| (0.0..=255.0).contains(w))
                            .map_or(sh.default_col_width, width_px);
                        let hidden = s.attr("hidden").is_some_and(|v| v == "1" || v == "true");
                        if sh.columns.len() < MAX_COLS as usize {
                            sh.columns.push(ColumnRange {
                                first: min - 1,
                                last: (max - 1).min(MAX_COLS - 1),
                                width,
                                hidden,
                            });
                        }
                    }
                }
            }
            b"sheetData" => self.in_data = !empty,
            b"row" if self.in_data && !self.full => self.open_row(s)?,
            b"c" if self.in_data && !self.full => {
                let col = match s.attr("r") {
                    Some(r) => match parse_cell_ref(&r) {
                        Some((_, c)) => c,
                        None => return Err(corrupt(format!("a cell has the bad reference {r:?}"))),
                    },
                    None => self.next_col,
                };
                if col >= MAX_COLS {
                    return Err(corrupt(format!(
                        "a cell lies in column {}, past the last column a worksheet can have ({MAX_COLS})",
                        col + 1
                    )));
                }
                self.next_col = col + 1;
                self.cell_col = col;
                self.cell_style = s
                    .attr("s")
                    .and_then(|v| v.parse::<u32>().ok())
                    .map_or(0, |v| v.min(u32::from(u16::MAX)) as u16);
                self.cell_type.clear();
                self.cell_type
                    .push_str(s.attr("t").as_deref().unwrap_or("n"));
                self.value.clear();
                self.inline.clear();
                self.formula = None;
                self.shared_formula = None;
                self.cell_open = true;
                if empty {
                    self.close_cell()?;
                }
            }
            b"v" if self.cell_open && !empty => self.slot = Slot::Value,
            b"f" if self.cell_open => {
                let shared = s.attr("t").is_some_and(|t| t == "shared");
                let si = s.attr("si").and_then(|v| v.parse::<u32>().ok());
                self.formula = Some(String::new());
                if let (true, Some(si)) = (shared, si) {
                    self.shared_formula = Some((si, s.attr("ref").is_some()));
                }
                if !empty {
                    self.slot = Slot::Formula;
                }
            }
            b"is" if self.cell_open && !empty => self.slot = Slot::Inline,
            b"rPh" if !empty => self.in_rph = true,
            b"mergeCell" => {
                if let Some(rect) = s.attr("ref").and_then(|r| parse_range(&r)) {
                    if sh.merges.len() < self.limits.max_sheet_cells {
                        sh.merges.push(rect);
                    }
                }
            }
            b"hyperlink" => {
                if let Some(rect) = s.attr("ref").and_then(|r| parse_range(&r)) {
                    if self.links.len() < 100_000 {
                        self.links.push((
                            rect,
                            s.attr("id").map(|v| v.into_owned()),
                            s.attr("location").map(|v| v.into_owned()),
                        ));
                    }
                }
            }
            b"drawing" => self.drawing = s.attr("id").map(|v| v.into_owned()),
            _ => {}
        }
        Ok(())
    }

    fn open_row(&mut self, s: &Start<'_>) -> OfficeResult<()> {
        let r = match s.attr("r") {
            Some(v) => match v.trim().parse::<u64>() {
                Ok(n) if n >= 1 => n - 1,
                _ => return Err(corrupt(format!("a row has the bad number {v:?}"))),
            },
            None => u64::from(self.next_row),
        };
        if r >= u64::from(MAX_ROWS) {
            return Err(corrupt(format!(
                "the sheet has a row numbered {}, past the last row a worksheet can have ({MAX_ROWS})",
                r + 1
            )));
        }
        let r = r as u32;
        if self.sheet.cells.len() >= self.limits.max_sheet_cells {
            // Keep what fits: the first rows, with a note.
            self.full = true;
            self.sheet.truncated_at = Some(r);
            return Ok(());
        }
        if self.sheet.rows.last().is_some_and(|last| last.r >= r) {
            self.sorted = false;
        }
        self.next_row = r + 1;
        self.next_col = 0;
        let hidden = s.attr("hidden").is_some_and(|v| v == "1" || v == "true");
        let height = s
            .attr("ht")
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|h| (0.0..=409.5).contains(h))
            .map_or(0.0, |h| (h * 4.0 / 3.0).round() as f32);
        let custom = s
            .attr("customHeight")
            .is_some_and(|v| v == "1" || v == "true");
        let height = if custom || (height - self.sheet.default_row_height).abs() > 0.5 {
            height
        } else {
            0.0
        };
        self.sheet.rows.push(Row {
            r,
            first: self.sheet.cells.len() as u32,
            height,
            hidden,
        });
        Ok(())
    }

    fn close(&mut self, name: &[u8]) -> OfficeResult<()> {
        if self.depth_in_ext > 0 {
            self.depth_in_ext -= 1;
            return Ok(());
        }
        self.conditional.close(name);
        match name {
            b"v" | b"f" | b"is" => self.slot = Slot::None,
            b"rPh" => self.in_rph = false,
            b"c" if self.cell_open => self.close_cell()?,
            b"sheetData" => self.in_data = false,
            b"sheetView" => {}
            b"sheetViews" => self.in_sheet_view = 2,
            _ => {}
        }
        Ok(())
    }

    fn close_cell(&mut self) -> OfficeResult<()> {
        self.cell_open = false;
        self.slot = Slot::None;
        let Some(row) = self.sheet.rows.last().map(|r| r.r) else {
            return Ok(());
        };
        let sh = &mut self.sheet;
        let max = self.limits.max_cell_bytes;
        let push_text = |pool: &mut TextPool, s: &mut String| {
            cut_text(s, max);
            pool.push(s).map(u64::from)
        };
        let has_value = !self.value.is_empty();
        let (kind, value) = match self.cell_type.as_str() {
            "s" => match self.value.trim().parse::<usize>() {
                Ok(i) if i < self.shared_len => (CellKind::Shared, i as u64),
                _ => (CellKind::Blank, 0),
            },
            "b" => (
                CellKind::Bool,
                u64::from(self.value.trim() == "1" || self.value.trim() == "true"),
            ),
            "e" => match push_text(&mut sh.pool, &mut self.value) {
                Some(i) => (CellKind::Error, i),
                None => (CellKind::Blank, 0),
            },
            "inlineStr" => match push_text(&mut sh.pool, &mut self.inline) {
                Some(i) => (CellKind::Text, i),
                None => (CellKind::Blank, 0),
            },
            "str" | "d" => match has_value
                .then(|| push_text(&mut sh.pool, &mut self.value))
                .flatten()
            {
                Some(i) => (CellKind::Text, i),
                None => (CellKind::Blank, 0),
            },
            _ => match self.value.trim().parse::<f64>() {
                Ok(v) if v.is_finite() => (CellKind::Number, v.to_bits()),
                _ if has_value => match push_text(&mut sh.pool, &mut self.value) {
                    Some(i) => (CellKind::Text, i),
                    None => (CellKind::Blank, 0),
                },
                _ => (CellKind::Blank, 0),
            },
        };
        let formula = self.take_formula(row);
        if kind == CellKind::Blank && self.cell_style == 0 && formula.is_none() {
            return Ok(());
        }
        let sh = &mut self.sheet;
        if let Some(last) = sh.cells.last() {
            let row_first = sh.rows.last().map_or(0, |r| r.first as usize);
            if sh.cells.len() > row_first && u32::from(last.col) >= self.cell_col {
                self.sorted = false;
            }
        }
        let index = sh.cells.len() as u32;
        sh.cells.push(Cell {
            value,
            col: self.cell_col as u16,
            style: self.cell_style,
            kind,
        });
        if let Some(f) = formula {
            if let Some(i) = sh.pool.push(&f) {
                sh.formulas.push((index, i));
            }
        }
        sh.row_count = sh.row_count.max(row + 1);
        sh.col_count = sh.col_count.max(self.cell_col + 1);
        Ok(())
    }

    /// The formula text of the cell just read: its own, or its shared formula's master
    /// text with relative references moved to this cell.
    fn take_formula(&mut self, row: u32) -> Option<String> {
        let text = self.formula.take()?;
        match self.shared_formula.take() {
            Some((si, true)) if !text.is_empty() => {
                if self.shared_formulas.len() < 100_000 {
                    self.shared_formulas
                        .insert(si, (row, self.cell_col, text.clone()));
                }
                Some(format!("={text}"))
            }
            Some((si, _)) if text.is_empty() => {
                let (r0, c0, master) = self.shared_formulas.get(&si)?;
                let moved = shift_references(
                    master,
                    i64::from(row) - i64::from(*r0),
                    i64::from(self.cell_col) - i64::from(*c0),
                );
                Some(format!("={moved}"))
            }
            _ if text.is_empty() => None,
            _ => Some(format!("={text}")),
        }
    }

    fn finish(mut self) -> (Sheet, Vec<RawLink>, Option<String>) {
        if !self.sorted {
            sort_sheet(&mut self.sheet);
        }
        let sh = &mut self.sheet;
        for r in &sh.rows {
            if r.height > 0.0 || r.hidden {
                sh.row_count = sh.row_count.max(r.r + 1);
            }
        }
        for m in &sh.merges {
            sh.row_count = sh.row_count.max(m.r1 + 1);
            sh.col_count = sh.col_count.max(m.c1 + 1);
        }
        sh.row_count = sh.row_count.max(sh.frozen_rows).min(MAX_ROWS);
        sh.col_count = sh.col_count.max(sh.frozen_cols).min(MAX_COLS);
        sh.cells.shrink_to_fit();
        sh.rows.shrink_to_fit();
        sh.formulas.shrink_to_fit();
        sh.merges.shrink_to_fit();
        sh.pool.shrink();
        sh.conditional = std::mem::take(&mut self.conditional.rules);
        (self.sheet, self.links, self.drawing)
    }
}

/// Puts rows (and cells within rows) in order for files that wrote them out of order;
/// rows written twice are merged.
fn sort_sheet(sheet: &mut Sheet) {
    let mut spans: Vec<(Row, usize, usize)> = (0..sheet.rows.len())
        .map(|i| {
            let start = sheet.rows[i].first as usize;
            let end = sheet
                .rows
                .get(i + 1)
                .map_or(sheet.cells.len(), |r| r.first as usize);
            (sheet.rows[i], start, end)
        })
        .collect();
    spans.sort_by_key(|(r, _, _)| r.r);
    let mut formulas: HashMap<u32, u32> = sheet.formulas.iter().copied().collect();
    let mut cells = Vec::with_capacity(sheet.cells.len());
    let mut rows: Vec<Row> = Vec::with_capacity(spans.len());
    let mut new_formulas = Vec::with_capacity(sheet.formulas.len());
    for (row, start, end) in spans {
        if rows.last().is_none_or(|l: &Row| l.r != row.r) {
            rows.push(Row {
                first: cells.len() as u32,
                ..row
            });
        }
        let mut idx: Vec<usize> = (start..end).collect();
        idx.sort_by_key(|&i| sheet.cells[i].col);
        for i in idx {
            if let Some(f) = formulas.remove(&(i as u32)) {
                new_formulas.push((cells.len() as u32, f));
            }
            cells.push(sheet.cells[i]);
        }
    }
    // Cells of a row written twice may now be out of column order: sort each row.
    for i in 0..rows.len() {
        let start = rows[i].first as usize;
        let end = rows.get(i + 1).map_or(cells.len(), |r| r.first as usize);
        let sorted = cells[start..end].windows(2).all(|w| w[0].col <= w[1].col);
        if !sorted {
            // Rare (duplicate rows); formulas of such rows keep their text but may move.
            cells[start..end].sort_by_key(|c| c.col);
        }
    }
    new_formulas.sort_unstable();
    sheet.cells = cells;
    sheet.rows = rows;
    sheet.formulas = new_formulas;
}

/// Moves the relative A1 references of a formula by (`dr`, `dc`); `$`-anchored parts,
/// strings, sheet-qualified names and function names are left alone.
pub fn shift_references(formula: &str, dr: i64, dc: i64) -> String {
    let b = formula.as_bytes();
    let mut out = String::with_capacity(formula.len() + 8);
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            let end = formula[i + 1..].find('"').map_or(b.len(), |p| i + 2 + p);
            out.push_str(&formula[i..end]);
            i = end;
            continue;
        }
        if c == b'\'' {
            let end = formula[i + 1..].find('\'').map_or(b.len(), |p| i + 2 + p);
            out.push_str(&formula[i..end]);
            i = end;
            continue;
        }
        let prev_word =
            i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'.');
        if !prev_word && (c == b'$' || c.is_ascii_alphabetic()) {
            if let Some((len, text)) = shift_one(&formula[i..], dr, dc) {
                out.push_str(&text);
                i += len;
                continue;
            }
            // Not a reference: copy the whole word.
            let end = formula[i..]
                .find(|ch: char| {
                    !(ch.is_ascii_alphanumeric() || ch == '_' || ch == '.' || ch == '$')
                })
                .map_or(b.len(), |p| i + p);
            out.push_str(&formula[i..end.max(i + 1)]);
            i = end.max(i + 1);
            continue;
        }
        let ch = formula[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// One `$A$1`-style reference at the start of `s`: its length and moved text.
fn shift_one(s: &str, dr: i64, dc: i64) -> Option<(usize, String)> {
    let b = s.as_bytes();
    let mut i = 0;
    let col_abs = b.first() == Some(&b'$');
    if col_abs {
        i += 1;
    }
    let letters_start = i;
    while i < b.len() && b[i].is_ascii_alphabetic() {
        i += 1;
    }
    let letters = &s[letters_start..i];
    if letters.is_empty() || letters.len() > 3 {
        return None;
    }
    let row_abs = b.get(i) == Some(&b'$');
    if row_abs {
        i += 1;
    }
    let digits_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i == digits_start {
        return None;
    }
    // A name such as LOG10( is a function, not a cell.
    if b.get(i)
        .is_some_and(|&c| c == b'(' || c.is_ascii_alphabetic() || c == b'_')
    {
        return None;
    }
    let (row, col) = parse_cell_ref(&format!("{letters}{}", &s[digits_start..i]))?;
    let row = if row_abs {
        i64::from(row)
    } else {
        i64::from(row) + dr
    };
    let col = if col_abs {
        i64::from(col)
    } else {
        i64::from(col) + dc
    };
    if row < 0 || col < 0 {
        return Some((i, "#REF!".into()));
    }
    Some((
        i,
        format!(
            "{}{}{}{}",
            if col_abs { "$" } else { "" },
            super::model::column_name(col as u32),
            if row_abs { "$" } else { "" },
            row + 1
        ),
    ))
}

fn read_comments(package: &OfficePackage<'_>, rels: &Relationships, sheet: &mut Sheet) {
    let Some(part) = rels.part_of_type(rel_type::COMMENTS) else {
        return;
    };
    let Ok(doc) = package.read_xml(part, &[]) else {
        return;
    };
    let root = doc.root();
    let authors: Vec<String> = root
        .child(Ns::Sml, "authors")
        .map(|a| {
            a.children_named(Ns::Sml, "author")
                .map(|e| e.text().into_owned())
                .collect()
        })
        .unwrap_or_default();
    let Some(list) = root.child(Ns::Sml, "commentList") else {
        return;
    };
    for c in list.children_named(Ns::Sml, "comment") {
        let Some((row, col)) = c.attr_local("ref").and_then(parse_cell_ref) else {
            continue;
        };
        let mut text = String::new();
        // Plain text is a `t` child, rich text `r` runs of `t`; `rPh` phonetic guides
        // are not part of the text.
        if let Some(t) = c.child(Ns::Sml, "text") {
            for el in t.elements() {
                if el.is(Ns::Sml, "t") {
                    text.push_str(&el.text());
                } else if el.is(Ns::Sml, "r") {
                    if let Some(rt) = el.child(Ns::Sml, "t") {
                        text.push_str(&rt.text());
                    }
                }
            }
        }
        let author = c
            .attr_local("authorId")
            .and_then(|i| i.parse::<usize>().ok())
            .and_then(|i| authors.get(i).cloned())
            .filter(|a| !a.is_empty());
        sheet.comments.push(Comment {
            row,
            col,
            author,
            text,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_formulas_move_relative_references() {
        assert_eq!(shift_references("A1+$B1*B$2+$C$3", 2, 1), "B3+$B3*C$2+$C$3");
        assert_eq!(
            shift_references("SUM(A1:A3)&\"A1\"", 1, 0),
            "SUM(A2:A4)&\"A1\""
        );
        assert_eq!(shift_references("LOG10(A1)", 0, 1), "LOG10(B1)");
        assert_eq!(shift_references("'Sheet A1'!A1", 1, 0), "'Sheet A1'!A2");
        assert_eq!(shift_references("A1", -1, 0), "#REF!");
    }

    #[test]
    fn widths_follow_the_digit_width() {
        assert_eq!(width_px(9.140625), 64.0);
        assert_eq!(width_px(8.43), 59.0);
        assert!(safe_url("https://example.org/x"));
        assert!(safe_url("mailto:a@b.c"));
        assert!(!safe_url("javascript:alert(1)"));
        assert!(!safe_url("file:///etc/passwd"));
    }
}
