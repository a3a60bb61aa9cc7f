//! The frame as a display list: the viewer's image variant (`.frame` of
//! `diff::view::render` with `Variant::Image`) drawn from the diff model, in CSS px.
//!
//! The geometry follows `viewers/diff/diff.css` rule by rule — 16 px frame padding, the
//! title row, the changed-files summary, one bordered box per file with its header, then
//! table rows of `round(fontSize × lineSpacing)` px per visual line, columns of
//! `num-ch × 1ch + 20 px` for line numbers and 8/`1ch + 14`/6 px for the indicators — so
//! [`super::raster`] and [`super::pdf`] only paint what is listed here.
//!
//! Layout stops with [`TooTall`] as soon as the frame passes the height the caller allows
//! (derived from the pixel or page cap), so a 120,000-line patch or a 512 KiB line costs
//! no more than the largest frame that could be drawn.
//!
//! Table cells have no padding: the stylesheet's `table.diff td { padding: 0 }` outranks
//! the per-class paddings of `td.num` and `td.code`, so numbers end at their column's edge
//! and code starts at its own.

use std::sync::Arc;

use super::fonts::{fonts, FaceId, GlyphRef, REGULAR};
use super::runs_cache::{self, LineRuns};
use super::text::{self, Atom, AtomKind, PILL_MARGIN, PILL_PAD, PILL_SCALE};
use super::theme::{Palette, Rgba};
use crate::diff::input::Presentation;
use crate::diff::model::{DiffLine, DiffModel, FileDiff, FileStatus, Hunk, LineKind};
use crate::diff::options::{DiffIndicators, Layout, Theme};
use crate::highlight::{language_name, StyledRun};

/// An axis-aligned box, CSS px.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left.
    pub x: f32,
    /// Top.
    pub y: f32,
    /// Width.
    pub w: f32,
    /// Height.
    pub h: f32,
}

impl Rect {
    fn new(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect { x, y, w, h }
    }

    /// The edges `(x0, y0, x1, y1)` on whole CSS px, where Chromium puts a box's
    /// rectangle before the device scale is applied (a box at 185.41 px is painted from
    /// device row 370 at scale 2, not from a blend of rows 370 to 372).
    pub fn snapped_edges(&self) -> (f32, f32, f32, f32) {
        (
            self.x.round(),
            self.y.round(),
            (self.x + self.w).round(),
            (self.y + self.h).round(),
        )
    }
}

/// One glyph at its pen position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glyph {
    /// Pen x, CSS px.
    pub x: f32,
    /// Baseline y, CSS px.
    pub y: f32,
    /// Face.
    pub face: FaceId,
    /// Glyph index.
    pub gid: u16,
    /// The character it shows (for the PDF's text layer).
    pub ch: char,
}

/// What to paint, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A filled (optionally rounded) box.
    Fill {
        /// Where.
        rect: Rect,
        /// Colour.
        color: Rgba,
        /// Corner radius, CSS px.
        radius: f32,
    },
    /// A 1 px border drawn inside `rect`.
    Stroke {
        /// Where.
        rect: Rect,
        /// Colour.
        color: Rgba,
        /// Corner radius, CSS px.
        radius: f32,
    },
    /// The diagonal hatching of an empty split cell (1 px lines every 7 px, at 135°).
    Hatch {
        /// Where.
        rect: Rect,
        /// Line colour.
        color: Rgba,
    },
    /// Glyphs of one size and colour.
    Text {
        /// Font size, CSS px.
        size: f32,
        /// Colour.
        color: Rgba,
        /// The glyphs.
        glyphs: Vec<Glyph>,
    },
}

/// The laid-out frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// Width, CSS px (the request's `fileMaxWidth`).
    pub width: f32,
    /// Height, CSS px.
    pub height: f32,
    /// Page background.
    pub background: Rgba,
    /// Paint order.
    pub items: Vec<Item>,
    /// Characters no font had (drawn as boxes).
    pub missing_glyphs: usize,
}

/// The frame would be taller than allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooTall;

/// What the layout needs from the request.
#[derive(Debug, Clone)]
pub struct LayoutOptions {
    /// Frame width, CSS px.
    pub width: u32,
    /// Page title.
    pub title: String,
    /// Unified or split.
    pub layout: Layout,
    /// Light or dark.
    pub theme: Theme,
    /// Font size, spacing, numbers, indicators, background (the image always wraps).
    pub presentation: Presentation,
    /// Show unchanged runs whose text is known.
    pub expand_unchanged: bool,
    /// Language hint.
    pub lang: Option<String>,
    /// Bytes of code that may be highlighted in total (the viewer's budget).
    pub highlight_max_bytes: usize,
    /// Tallest frame allowed, CSS px.
    pub max_height: f32,
}

const PAD: f32 = 16.0;
const SANS_LH: f32 = 1.45;

/// Vertical metrics of the shipped face at `size`, rounded to whole px as browsers do.
fn ascent_descent(size: f32) -> (f32, f32) {
    let face = fonts().face(REGULAR);
    ((face.ascent * size).round(), (face.descent * size).round())
}

/// Baseline of text of `size` centred in a line box `line_height` tall starting at `top`.
fn baseline(top: f32, line_height: f32, size: f32) -> f32 {
    let (a, d) = ascent_descent(size);
    top + (line_height - (a + d)) / 2.0 + a
}

fn advance_of(size: f32) -> f32 {
    let f = fonts();
    let g = f.resolve('0', false);
    f.face(g.face).advance(g.gid, size)
}

struct Builder {
    items: Vec<Item>,
    missing: usize,
    max_height: f32,
    p: Palette,
}

impl Builder {
    fn fill(&mut self, rect: Rect, color: Rgba, radius: f32) {
        if !color.is_clear() && rect.w > 0.0 && rect.h > 0.0 {
            self.items.push(Item::Fill {
                rect,
                color,
                radius,
            });
        }
    }

    fn stroke(&mut self, rect: Rect, color: Rgba, radius: f32) {
        self.items.push(Item::Stroke {
            rect,
            color,
            radius,
        });
    }

    fn check(&self, y: f32) -> Result<(), TooTall> {
        if y > self.max_height {
            Err(TooTall)
        } else {
            Ok(())
        }
    }

    fn push_glyph(&mut self, glyphs: &mut Vec<Glyph>, x: f32, y: f32, ch: char, g: GlyphRef) {
        if g.missing {
            self.missing += 1;
        }
        glyphs.push(Glyph {
            x,
            y,
            face: g.face,
            gid: g.gid,
            ch,
        });
    }

    /// A one-line string at `x`, baseline `y`; returns its width.
    fn label(&mut self, x: f32, y: f32, s: &str, size: f32, bold: bool, color: Rgba) -> f32 {
        let atoms = text::atoms(s, size, |_| bold);
        let mut glyphs = Vec::new();
        let mut pen = x;
        for a in &atoms {
            self.atom(&mut glyphs, a, pen, y, size);
            pen += a.width;
        }
        self.text(size, color, glyphs);
        pen - x
    }

    fn text(&mut self, size: f32, color: Rgba, glyphs: Vec<Glyph>) {
        if !glyphs.is_empty() {
            self.items.push(Item::Text {
                size,
                color,
                glyphs,
            });
        }
    }

    /// Draws one atom at pen `x`, baseline `y`: glyphs go to `glyphs`, a pill is painted
    /// at once (its box first, then its label).
    fn atom(&mut self, glyphs: &mut Vec<Glyph>, a: &Atom, x: f32, y: f32, size: f32) {
        match &a.kind {
            AtomKind::Glyph { ch, glyph, marks } => {
                self.push_glyph(glyphs, x, y, *ch, *glyph);
                for (m, g) in marks {
                    self.push_glyph(glyphs, x, y, *m, *g);
                }
            }
            AtomKind::Space { .. } => {
                let g = fonts().resolve(' ', false);
                self.push_glyph(glyphs, x, y, ' ', g);
            }
            AtomKind::Pill { label } => {
                let small = size * PILL_SCALE;
                let lh = small * 1.3;
                let (asc, desc) = ascent_descent(small);
                let top = y - ((lh - (asc + desc)) / 2.0 + asc);
                let w = a.width - 2.0 * PILL_MARGIN;
                let (bg, fg) = (self.p.ctl_bg, self.p.ctl_fg);
                self.fill(Rect::new(x + PILL_MARGIN, top, w, lh), bg, 3.0);
                self.label(x + PILL_MARGIN + PILL_PAD, y, label, small, false, fg);
            }
        }
    }
}

/// Syntax of one file: the name shown in its header, and the colours of each line.
enum Syntax {
    Highlighted(&'static str),
    Plain,
    OverBudget,
}

/// One line of code to draw: its text (CR stripped), colours, word marks.
struct CodeLine<'a> {
    text: &'a str,
    runs: &'a [StyledRun],
    line: &'a DiffLine,
    show_cr: bool,
}

/// Lays out the whole frame.
pub fn layout(model: &DiffModel, o: &LayoutOptions) -> Result<Frame, TooTall> {
    let p = Palette::of(o.theme, o.presentation.background);
    let mut b = Builder {
        items: Vec::new(),
        missing: 0,
        max_height: o.max_height,
        p,
    };
    let width = o.width as f32;
    let inner = width - 2.0 * PAD;
    let mut y = PAD;

    // Title row: h1 (16 px, 600) and the stats, baseline-aligned.
    let title_lh = 16.0 * SANS_LH;
    let stats = stats_with(model, &p);
    let stats_w: f32 = stats
        .iter()
        .map(|(s, ..)| text::text_width(s, 12.0, true))
        .sum::<f32>()
        + 8.0 * (stats.len() as f32 - 1.0);
    let title_atoms = text::atoms(&o.title, 16.0, |_| true);
    let title_room = (inner - stats_w - 12.0).max(advance_of(16.0));
    let (placed, lines) = text::place(&title_atoms, title_room, advance_of(16.0), true, 64);
    let mut glyphs = Vec::new();
    let mut title_right: f32 = 0.0;
    for (a, q) in title_atoms.iter().zip(&placed) {
        let base = baseline(y + q.line as f32 * title_lh, title_lh, 16.0);
        b.atom(&mut glyphs, a, PAD + q.x, base, 16.0);
        if q.line == 0 {
            title_right = title_right.max(q.x + q.width);
        }
    }
    b.text(16.0, p.fg, glyphs);
    let first_base = baseline(y, title_lh, 16.0);
    let mut x = PAD + title_right + 12.0;
    for (s, bold, color) in &stats {
        x += b.label(x, first_base, s, 12.0, *bold, *color) + 8.0;
    }
    y += lines as f32 * title_lh + 12.0;

    if model.files.is_empty() {
        let lh = 14.0 * SANS_LH;
        let note = crate::diff::view::DEFAULT_EMPTY_NOTE;
        b.label(
            PAD + 16.0,
            baseline(y + 16.0, lh, 14.0),
            note,
            14.0,
            false,
            p.muted,
        );
        y += lh + 32.0;
    }
    if model.files.len() > 1 {
        y = summary(&mut b, model, PAD, y, inner)?;
    }
    let mut budget = o.highlight_max_bytes;
    let single = model.files.len() == 1;
    for file in &model.files {
        y = file_box(&mut b, file, o, single, &mut budget, PAD, y, inner)?;
        y += 16.0;
        b.check(y)?;
    }
    y += PAD;
    b.check(y)?;
    Ok(Frame {
        width,
        height: y,
        background: p.bg,
        items: b.items,
        missing_glyphs: b.missing,
    })
}

/// The stats of the title row: `N files changed` (more than one file), `+a`, `-d`.
fn stats_with(model: &DiffModel, p: &Palette) -> Vec<(String, bool, Rgba)> {
    let mut out = Vec::new();
    if model.files.len() > 1 {
        out.push((
            format!("{} files changed", model.files.len()),
            false,
            p.muted,
        ));
    }
    // As the viewer: totals over the files whose counts are known, and how many are not.
    let n = model.files.len();
    let unknown = model.files.iter().filter(|f| f.text_unknown).count();
    if unknown < n || n == 0 {
        out.push((format!("+{}", model.additions()), true, p.add_strong));
        out.push((format!("-{}", model.deletions()), true, p.del_strong));
    }
    if unknown > 0 {
        out.push((format!("{unknown} without line counts"), false, p.muted));
    }
    out
}

/// A badge of a file: text and colour.
fn badges(file: &FileDiff, p: &Palette) -> Vec<(String, Rgba)> {
    let mut out = Vec::new();
    match file.status {
        FileStatus::Added => out.push(("Added".to_string(), p.add_strong)),
        FileStatus::Deleted => out.push(("Deleted".to_string(), p.del_strong)),
        FileStatus::Renamed | FileStatus::Copied => {
            let word = if file.status == FileStatus::Renamed {
                "Renamed"
            } else {
                "Copied"
            };
            let text = match file.similarity {
                Some(s) => format!("{word} {s}%"),
                None => word.to_string(),
            };
            out.push((text, p.badge_rename));
        }
        FileStatus::Modified | FileStatus::ModeChanged | FileStatus::Binary => {}
    }
    if file.is_binary || file.status == FileStatus::Binary {
        out.push(("Binary".to_string(), p.muted));
    }
    if let (Some(old), Some(new)) = (&file.old_mode, &file.new_mode) {
        if old != new {
            out.push((format!("{old} → {new}"), p.badge_mode));
        }
    }
    out
}

const BADGE_SIZE: f32 = 11.0;
const PILL_H: f32 = 18.0;

/// Width of a badge pill (`font: 600 11px/16px; padding: 0 7px; border: 1px`).
fn badge_width(s: &str) -> f32 {
    text::text_width(s, BADGE_SIZE, true) + 14.0 + 2.0
}

/// Draws a badge whose box is centred on `mid`; returns its width.
fn badge(b: &mut Builder, x: f32, mid: f32, s: &str, color: Rgba) -> f32 {
    let w = badge_width(s);
    let top = mid - PILL_H / 2.0;
    b.stroke(Rect::new(x, top, w, PILL_H), color, PILL_H / 2.0);
    b.label(
        x + 8.0,
        baseline(top + 1.0, 16.0, BADGE_SIZE),
        s,
        BADGE_SIZE,
        true,
        color,
    );
    w
}

/// A bordered tag (`.lang`: 11 px, padding 0 5 px, radius 4 px); returns its width.
fn tag(b: &mut Builder, x: f32, mid: f32, s: &str) -> f32 {
    let w = text::text_width(s, BADGE_SIZE, false) + 12.0;
    let top = mid - PILL_H / 2.0;
    let (border, muted) = (b.p.border, b.p.muted);
    b.stroke(Rect::new(x, top, w, PILL_H), border, 4.0);
    b.label(
        x + 6.0,
        baseline(top + 1.0, 16.0, BADGE_SIZE),
        s,
        BADGE_SIZE,
        false,
        muted,
    );
    w
}

/// `+a -d` in 12 px mono, right-aligned at `right`; returns the left edge.
fn counts(b: &mut Builder, right: f32, mid: f32, add: usize, del: usize, extra: f32) -> f32 {
    let plus = format!("+{add}");
    let minus = format!("-{del}");
    let wp = text::text_width(&plus, 12.0, true);
    let wm = text::text_width(&minus, 12.0, true);
    let left = right - extra - wm - 6.0 - wp;
    let base = baseline(mid - 12.0 * SANS_LH / 2.0, 12.0 * SANS_LH, 12.0);
    let (add_c, del_c) = (b.p.add_strong, b.p.del_strong);
    b.label(left, base, &plus, 12.0, true, add_c);
    b.label(left + wp + 6.0, base, &minus, 12.0, true, del_c);
    left
}

/// The viewer's `no line counts` (12 px, muted) right-aligned at `right`, in place of
/// the counts of a file whose text the tool call did not state: never invented zeroes.
fn unknown_counts(b: &mut Builder, right: f32, mid: f32) {
    const NO_COUNTS: &str = "no line counts";
    let left = right - text::text_width(NO_COUNTS, 12.0, false);
    let base = baseline(mid - 12.0 * SANS_LH / 2.0, 12.0 * SANS_LH, 12.0);
    let muted = b.p.muted;
    b.label(left, base, NO_COUNTS, 12.0, false, muted);
}

/// The changed-files summary of a multi-file patch; returns the y below it.
fn summary(b: &mut Builder, model: &DiffModel, x: f32, y: f32, w: f32) -> Result<f32, TooTall> {
    let p = b.p;
    let h2_lh = 13.0 * SANS_LH;
    let head_h = 16.0 + h2_lh;
    let li_h = 6.0 + 12.5 * SANS_LH;
    let height = 1.0 + head_h + 1.0 + 8.0 + li_h * model.files.len() as f32 + 1.0;
    b.check(y + height)?;
    b.fill(Rect::new(x, y, w, height), p.bg, 8.0);
    b.fill(Rect::new(x + 1.0, y + 1.0, w - 2.0, head_h), p.panel, 7.0);
    b.fill(
        Rect::new(x + 1.0, y + 1.0 + head_h - 7.0, w - 2.0, 7.0),
        p.panel,
        0.0,
    );
    b.fill(
        Rect::new(x + 1.0, y + 1.0 + head_h, w - 2.0, 1.0),
        p.border,
        0.0,
    );
    let title = format!("{} files changed", model.files.len());
    b.label(
        x + 13.0,
        baseline(y + 9.0, h2_lh, 13.0),
        &title,
        13.0,
        true,
        p.fg,
    );
    let mut top = y + 1.0 + head_h + 1.0 + 4.0;
    for file in &model.files {
        let mid = top + li_h / 2.0;
        let mut cx = x + 13.0;
        let base = baseline(mid - 12.5 * SANS_LH / 2.0, 12.5 * SANS_LH, 12.5);
        cx += path_label(b, file, cx, base, false, p.accent, "(unnamed)") + 8.0;
        for (s, color) in badges(file, &p) {
            cx += badge(b, cx, mid, &s, color) + 8.0;
        }
        if file.text_unknown {
            unknown_counts(b, x + w - 13.0, mid);
            top += li_h;
            continue;
        }
        // Five 8 px blocks, 1 px apart, after the counts.
        let blocks_w = 5.0 * 8.0 + 4.0 + 2.0;
        counts(
            b,
            x + w - 13.0,
            mid,
            file.additions,
            file.deletions,
            blocks_w + 6.0,
        );
        let mut bx = x + w - 13.0 - blocks_w + 2.0;
        for class in diffstat_blocks(file.additions, file.deletions) {
            let color = match class {
                1 => p.add_strong,
                2 => p.del_strong,
                _ => p.block_none,
            };
            b.fill(Rect::new(bx, mid - 4.0, 8.0, 8.0), color, 1.0);
            bx += 9.0;
        }
        top += li_h;
    }
    b.stroke(Rect::new(x, y, w, height), p.border, 8.0);
    Ok(y + height + 16.0)
}

/// The five diffstat blocks: 1 green, 2 red, 0 empty (the viewer's rounding).
fn diffstat_blocks(add: usize, del: usize) -> [u8; 5] {
    let total = add + del;
    let (mut green, mut red) = (0, 0);
    if total > 0 {
        let filled = total.min(5);
        green = ((add as f64 / total as f64) * filled as f64).round() as usize;
        if add > 0 && green == 0 {
            green = 1;
        }
        red = filled.saturating_sub(green);
        if del > 0 && red == 0 && green > 1 {
            green -= 1;
            red = 1;
        }
    }
    let mut out = [0u8; 5];
    for (i, slot) in out.iter_mut().enumerate() {
        *slot = if i < green {
            1
        } else if i < green + red {
            2
        } else {
            0
        };
    }
    out
}

/// A file's path (`old → new` for renames and copies) at `x`, baseline `base`.
fn path_label(
    b: &mut Builder,
    file: &FileDiff,
    x: f32,
    base: f32,
    bold: bool,
    color: Rgba,
    fallback: &str,
) -> f32 {
    let size = 12.5;
    match (&file.old_path, &file.new_path, file.status) {
        (Some(old), Some(new), FileStatus::Renamed | FileStatus::Copied) if old != new => {
            let muted = b.p.muted;
            let mut w = b.label(x, base, old, size, false, muted);
            w += b.label(x + w, base, " → ", size, false, muted);
            w + b.label(x + w, base, new, size, bold, color)
        }
        _ => {
            let path = file.display_path();
            let shown = if path.is_empty() { fallback } else { path };
            b.label(x, base, shown, size, bold, color)
        }
    }
}

/// Column geometry of a file's table.
struct Cols {
    num_w: f32,
    sign_w: f32,
    code_w: f32,
    fs: f32,
    ch: f32,
    row_h: f32,
}

/// One file's box at `y`; returns the y below it (before its 16 px margin).
#[allow(clippy::too_many_arguments)]
fn file_box(
    b: &mut Builder,
    file: &FileDiff,
    o: &LayoutOptions,
    single: bool,
    budget: &mut usize,
    x: f32,
    y: f32,
    w: f32,
) -> Result<f32, TooTall> {
    let p = b.p;
    let pres = &o.presentation;
    let name = file.display_path();
    let hint = o.lang.as_deref().map(str::trim).filter(|l| !l.is_empty());
    let lang = if single || language_name(None, name).is_none() {
        hint
    } else {
        None
    };
    let has_rows = file.hunks.iter().any(|h| !h.lines.is_empty());

    // Line text with CRs stripped, and whether the file's line ends are mixed.
    let (mut with_cr, mut without_cr) = (false, false);
    for line in file.hunks.iter().flat_map(|h| &h.lines) {
        if !line.no_newline {
            let cr = line.text.ends_with('\r');
            with_cr |= cr;
            without_cr |= !cr;
        }
    }
    let mixed = with_cr && without_cr;

    // Highlighting, as the viewer spends its budget: new side (context + added), old side
    // (context + deleted) when anything was deleted.
    let has_deletes = file
        .hunks
        .iter()
        .flat_map(|h| &h.lines)
        .any(|l| l.kind == LineKind::Delete);
    let mut new_src = String::new();
    let mut old_src = String::new();
    for line in file.hunks.iter().flat_map(|h| &h.lines) {
        let t = line.text.strip_suffix('\r').unwrap_or(&line.text);
        if line.kind != LineKind::Delete {
            new_src.push_str(t);
            new_src.push('\n');
        }
        if line.kind == LineKind::Delete || (line.kind == LineKind::Context && has_deletes) {
            old_src.push_str(t);
            old_src.push('\n');
        }
    }
    let syntax_name = language_name(lang, name);
    let mut syntax = match syntax_name {
        None => Syntax::Plain,
        Some(_) => Syntax::OverBudget,
    };
    let dark = o.theme == Theme::Dark;
    // Runs of the new side's lines and of the old side's.
    let mut runs: Option<(Arc<LineRuns>, Arc<LineRuns>)> = None;
    if let Some(sname) = syntax_name {
        let cost = new_src.len() + old_src.len();
        if cost <= *budget {
            *budget -= cost;
            // Through the cache: the same diff drawn again is not highlighted again.
            let new_r = runs_cache::runs(&new_src, lang, name, dark);
            let old_r = if old_src.is_empty() {
                Some(Arc::default())
            } else {
                runs_cache::runs(&old_src, lang, name, dark)
            };
            match (new_r, old_r) {
                (Some(n), Some(o)) => {
                    runs = Some((n, o));
                    syntax = Syntax::Highlighted(sname);
                }
                _ => syntax = Syntax::Plain,
            }
        }
    }

    // Header.
    let head_content = 12.5 * SANS_LH;
    let head_h = 14.0 + head_content;
    let top = y + 1.0;
    let mid = top + 7.0 + head_content / 2.0;
    let mut head = Builder {
        items: Vec::new(),
        missing: 0,
        max_height: f32::MAX,
        p,
    };
    let base = baseline(top + 7.0, head_content, 12.5);
    let mut cx = x + 13.0;
    cx += path_label(&mut head, file, cx, base, true, p.fg, &o.title) + 8.0;
    for (s, color) in badges(file, &p) {
        cx += badge(&mut head, cx, mid, &s, color) + 8.0;
    }
    match syntax {
        Syntax::Highlighted(n) => cx += tag(&mut head, cx, mid, n) + 8.0,
        Syntax::OverBudget => cx += tag(&mut head, cx, mid, "Plain text") + 8.0,
        Syntax::Plain => {}
    }
    if with_cr && !without_cr {
        tag(&mut head, cx, mid, "CRLF");
    }
    if file.text_unknown {
        unknown_counts(&mut head, x + w - 13.0, mid);
    } else {
        counts(
            &mut head,
            x + w - 13.0,
            mid,
            file.additions,
            file.deletions,
            0.0,
        );
    }

    let body_top = top + head_h + 1.0;
    let mut body = Builder {
        items: Vec::new(),
        missing: 0,
        max_height: o.max_height,
        p,
    };
    let mut yy = body_top;
    if !has_rows {
        let lh = 14.0 * SANS_LH;
        body.label(
            x + 17.0,
            baseline(yy + 16.0, lh, 14.0),
            crate::diff::view::empty_note(file),
            14.0,
            false,
            p.muted,
        );
        yy += lh + 32.0;
    } else {
        let fs = pres.font_size.clamp(8, 40) as f32;
        let spacing = if pres.line_spacing.is_finite() {
            pres.line_spacing.clamp(1.0, 3.0) as f32
        } else {
            1.6
        };
        let ch = advance_of(fs);
        let mut max_line = 1usize;
        for hunk in &file.hunks {
            max_line = max_line
                .max(hunk.old_start.saturating_add(hunk.old_count))
                .max(hunk.new_start.saturating_add(hunk.new_count));
        }
        if let Some(full) = &file.full_text {
            max_line = max_line.max(full.new_lines.len()).max(full.old_line_count);
        }
        let num_ch = max_line.to_string().len().max(2) as f32;
        let num_w = if pres.show_line_numbers {
            num_ch * ch + 20.0
        } else {
            0.0
        };
        let sign_w = match pres.diff_indicators {
            DiffIndicators::Bars => 8.0,
            DiffIndicators::Classic => ch + 14.0,
            DiffIndicators::None => 6.0,
        };
        let table_w = w - 2.0;
        let code_w = match o.layout {
            Layout::Unified => table_w - 2.0 * num_w - sign_w,
            Layout::Split => (table_w - 2.0 * num_w - 2.0 * sign_w) / 2.0,
        };
        let cols = Cols {
            num_w,
            sign_w,
            code_w,
            fs,
            ch,
            row_h: (fs * spacing).round(),
        };
        let empty: Vec<StyledRun> = Vec::new();
        let (mut ni, mut oi) = (0usize, 0usize);
        let mut lines_of: Vec<Vec<CodeLine>> = Vec::with_capacity(file.hunks.len());
        for hunk in &file.hunks {
            let mut v = Vec::with_capacity(hunk.lines.len());
            for line in &hunk.lines {
                let (t, cr) = match line.text.strip_suffix('\r') {
                    Some(t) => (t, true),
                    None => (line.text.as_str(), false),
                };
                let r: &[StyledRun] = match &runs {
                    Some((n, old)) => match line.kind {
                        LineKind::Context => {
                            ni += 1;
                            if has_deletes {
                                oi += 1;
                            }
                            n.get(ni - 1).map_or(&empty[..], |x| &x[..])
                        }
                        LineKind::Add => {
                            ni += 1;
                            n.get(ni - 1).map_or(&empty[..], |x| &x[..])
                        }
                        LineKind::Delete => {
                            oi += 1;
                            old.get(oi - 1).map_or(&empty[..], |x| &x[..])
                        }
                    },
                    None => &empty[..],
                };
                v.push(CodeLine {
                    text: t,
                    runs: r,
                    line,
                    show_cr: cr && mixed,
                });
            }
            lines_of.push(v);
        }
        yy = rows(&mut body, file, o, &cols, &lines_of, x + 1.0, yy)?;
    }
    let height = yy - y + 1.0;
    b.check(y + height)?;
    b.fill(Rect::new(x, y, w, height), p.bg, 8.0);
    b.fill(Rect::new(x + 1.0, top, w - 2.0, head_h), p.panel, 7.0);
    b.fill(
        Rect::new(x + 1.0, top + head_h - 7.0, w - 2.0, 7.0),
        p.panel,
        0.0,
    );
    b.fill(
        Rect::new(x + 1.0, top + head_h, w - 2.0, 1.0),
        p.border,
        0.0,
    );
    b.items.append(&mut head.items);
    b.items.append(&mut body.items);
    b.missing += head.missing + body.missing;
    b.stroke(Rect::new(x, y, w, height), p.border, 8.0);
    Ok(y + height)
}

/// The table rows of a file from `y`; returns the y below them.
fn rows(
    b: &mut Builder,
    file: &FileDiff,
    o: &LayoutOptions,
    c: &Cols,
    lines: &[Vec<CodeLine>],
    x: f32,
    mut y: f32,
) -> Result<f32, TooTall> {
    let gaps = file.gaps();
    let table_w = c.code_w + 2.0 * c.num_w + c.sign_w;
    let table_w = match o.layout {
        Layout::Unified => table_w,
        Layout::Split => table_w + c.code_w + c.sign_w,
    };
    for i in 0..=file.hunks.len() {
        let hunk = file.hunks.get(i);
        match gaps.iter().find(|g| g.before_hunk == i) {
            Some(g) if o.expand_unchanged && file.gap_lines(g).is_some() => {
                for (k, text) in file.gap_lines(g).unwrap_or_default().iter().enumerate() {
                    let line = DiffLine::new(
                        LineKind::Context,
                        Some(g.old_start + k),
                        Some(g.new_start + k),
                        text.strip_suffix('\r').unwrap_or(text).to_string(),
                    );
                    let cl = CodeLine {
                        text: &line.text,
                        runs: &[],
                        line: &line,
                        show_cr: false,
                    };
                    y = match o.layout {
                        Layout::Unified => unified_row(b, c, &cl, x, y)?,
                        Layout::Split => split_row(b, c, Some(&cl), Some(&cl), x, y)?,
                    };
                }
            }
            Some(g) => {
                let label = if g.len == 1 {
                    "1 unmodified line".to_string()
                } else {
                    format!("{} unmodified lines", g.len)
                };
                y = gap_row(b, c, Some(&label), hunk, x, y, table_w)?;
            }
            None => {
                if let Some(h) = hunk.filter(|h| !h.section.is_empty()) {
                    y = gap_row(b, c, None, Some(h), x, y, table_w)?;
                }
            }
        }
        let Some(hunk_lines) = lines.get(i) else {
            break;
        };
        match o.layout {
            Layout::Unified => {
                for cl in hunk_lines {
                    y = unified_row(b, c, cl, x, y)?;
                }
            }
            Layout::Split => {
                let mut j = 0;
                while j < hunk_lines.len() {
                    if hunk_lines[j].line.kind == LineKind::Context {
                        y = split_row(b, c, Some(&hunk_lines[j]), Some(&hunk_lines[j]), x, y)?;
                        j += 1;
                        continue;
                    }
                    let (mut dels, mut adds) = (Vec::new(), Vec::new());
                    while j < hunk_lines.len() && hunk_lines[j].line.kind != LineKind::Context {
                        if hunk_lines[j].line.kind == LineKind::Delete {
                            dels.push(j);
                        } else {
                            adds.push(j);
                        }
                        j += 1;
                    }
                    for k in 0..dels.len().max(adds.len()) {
                        let l = dels.get(k).map(|&d| &hunk_lines[d]);
                        let r = adds.get(k).map(|&a| &hunk_lines[a]);
                        y = split_row(b, c, l, r, x, y)?;
                    }
                }
            }
        }
    }
    Ok(y)
}

/// A collapsed gap (`N unmodified lines` and the next hunk's range) or a hunk header.
fn gap_row(
    b: &mut Builder,
    c: &Cols,
    label: Option<&str>,
    next: Option<&Hunk>,
    x: f32,
    y: f32,
    w: f32,
) -> Result<f32, TooTall> {
    b.check(y + c.row_h)?;
    let p = b.p;
    b.fill(Rect::new(x, y, w, c.row_h), p.gap_bg, 0.0);
    let mut cx = x + 8.0;
    let mid = y + c.row_h / 2.0;
    if let Some(label) = label {
        let lh = 12.0 * 1.4;
        let base = baseline(mid - lh / 2.0, lh, 12.0);
        cx += 6.0 + b.label(cx + 6.0, base, label, 12.0, false, p.gap_fg) + 6.0 + 8.0;
    }
    if let Some(h) = next {
        let size = 12.0 * 0.95;
        let lh = size * 1.4;
        let base = baseline(mid - lh / 2.0, lh, size);
        let mut range = format!(
            "@@ -{},{} +{},{} @@",
            h.old_start, h.old_count, h.new_start, h.new_count
        );
        if !h.section.is_empty() {
            range.push(' ');
            range.push_str(&h.section);
        }
        // One line: the rest of a very long section is cut at the row's end.
        let room = ((x + w - cx) / advance_of(size)).max(0.0) as usize;
        let shown: String = range.chars().take(room).collect();
        b.label(cx, base, &shown, size, false, p.gap_fg.faded(0.85));
    }
    Ok(y + c.row_h)
}

/// Colours of a row kind: (row background, number background, number colour, sign colour).
fn kind_colors(p: &Palette, kind: LineKind, background: bool) -> (Rgba, Rgba, Rgba, Rgba) {
    match kind {
        LineKind::Context => (Rgba::CLEAR, Rgba::CLEAR, p.num_fg, p.fg),
        LineKind::Add => (
            p.add_bg,
            p.add_num,
            if background { p.fg } else { p.add_strong },
            p.add_strong,
        ),
        LineKind::Delete => (
            p.del_bg,
            p.del_num,
            if background { p.fg } else { p.del_strong },
            p.del_strong,
        ),
    }
}

/// The code of one cell, wrapped into `width`: lines used and a painter for later (the
/// row's height is known only once every cell is measured).
struct CellText {
    atoms: Vec<Atom>,
    placed: Vec<text::Placed>,
    lines: u32,
}

fn measure(c: &Cols, cl: &CodeLine, width: f32, max_lines: u32) -> CellText {
    let runs = cl.runs;
    let bold_at = |byte: usize| {
        runs.iter()
            .find(|r| r.start <= byte && byte < r.end)
            .is_some_and(|r| r.bold)
    };
    let mut atoms = text::atoms(cl.text, c.fs, bold_at);
    if cl.show_cr {
        let label = "\u{240d}".to_string();
        atoms.push(Atom {
            byte: cl.text.len(),
            width: text::pill_width(&label, c.fs),
            kind: AtomKind::Pill { label },
        });
    }
    if cl.line.no_newline {
        // `.eof::after`: ⊘ 6 px after the text, at 0.9em.
        let g = fonts().resolve('\u{2298}', false);
        atoms.push(Atom {
            byte: usize::MAX,
            width: 6.0 + fonts().face(g.face).advance(g.gid, c.fs * 0.9),
            kind: AtomKind::Glyph {
                ch: '\u{2298}',
                glyph: g,
                marks: Vec::new(),
            },
        });
    }
    let (placed, lines) = text::place(&atoms, width, c.ch, true, max_lines);
    CellText {
        atoms,
        placed,
        lines,
    }
}

/// Paints a measured cell's text (word marks first) with its top-left at (`x`, `y`).
fn paint_cell(b: &mut Builder, c: &Cols, cl: &CodeLine, t: &CellText, x: f32, y: f32) {
    let p = b.p;
    let (asc, desc) = ascent_descent(c.fs);
    let word = match cl.line.kind {
        LineKind::Delete => p.del_word,
        _ => p.add_word,
    };
    let marked = |byte: usize| {
        cl.line
            .spans
            .iter()
            .any(|s| s.start <= byte && byte < s.end)
    };
    // Word marks: one rounded box per run of marked atoms on a visual line.
    let mut run: Option<(u32, f32, f32)> = None;
    for (a, q) in t.atoms.iter().zip(&t.placed) {
        let on = a.byte != usize::MAX && marked(a.byte);
        match (&mut run, on) {
            (Some((line, _, end)), true) if *line == q.line => *end = q.x + q.width,
            (_, true) => {
                if let Some((line, start, end)) = run.take() {
                    let base = baseline(y + line as f32 * c.row_h, c.row_h, c.fs);
                    b.fill(
                        Rect::new(x + start, base - asc, end - start, asc + desc),
                        word,
                        3.0,
                    );
                }
                run = Some((q.line, q.x, q.x + q.width));
            }
            (_, false) => {
                if let Some((line, start, end)) = run.take() {
                    let base = baseline(y + line as f32 * c.row_h, c.row_h, c.fs);
                    b.fill(
                        Rect::new(x + start, base - asc, end - start, asc + desc),
                        word,
                        3.0,
                    );
                }
            }
        }
    }
    if let Some((line, start, end)) = run {
        let base = baseline(y + line as f32 * c.row_h, c.row_h, c.fs);
        b.fill(
            Rect::new(x + start, base - asc, end - start, asc + desc),
            word,
            3.0,
        );
    }
    // Glyphs, grouped by colour.
    let mut groups: Vec<(Rgba, f32, Vec<Glyph>)> = Vec::new();
    for (a, q) in t.atoms.iter().zip(&t.placed) {
        let base = baseline(y + q.line as f32 * c.row_h, c.row_h, c.fs);
        let (color, size, pen) = if a.byte == usize::MAX {
            (p.del_strong, c.fs * 0.9, x + q.x + 6.0)
        } else {
            let color = cl
                .runs
                .iter()
                .find(|r| r.start <= a.byte && a.byte < r.end)
                .and_then(|r| r.color)
                .map_or(p.fg, |[r, g, bl, al]| {
                    Rgba::rgba(r, g, bl, f32::from(al) / 255.0)
                });
            (color, c.fs, x + q.x)
        };
        let mut glyphs = Vec::new();
        b.atom(&mut glyphs, a, pen, base, size);
        if glyphs.is_empty() {
            continue;
        }
        match groups.last_mut() {
            Some((gc, gs, list)) if *gc == color && *gs == size => list.extend(glyphs),
            _ => groups.push((color, size, glyphs)),
        }
    }
    for (color, size, glyphs) in groups {
        b.text(size, color, glyphs);
    }
}

/// A line number right-aligned in its cell.
fn number(b: &mut Builder, c: &Cols, n: Option<usize>, right: f32, y: f32, color: Rgba) {
    if c.num_w <= 0.0 {
        return;
    }
    if let Some(n) = n.filter(|n| *n > 0) {
        let s = n.to_string();
        let size = c.fs * 0.86;
        let w = text::text_width(&s, size, false);
        let base = baseline(y, c.row_h, size);
        b.label(right - w, base, &s, size, false, color);
    }
}

/// The indicator of a changed line in its sign cell.
#[allow(clippy::too_many_arguments)]
fn sign(
    b: &mut Builder,
    c: &Cols,
    kind: LineKind,
    x: f32,
    y: f32,
    h: f32,
    color: Rgba,
    bars: bool,
) {
    if kind == LineKind::Context {
        return;
    }
    if bars {
        b.fill(Rect::new(x, y, 3.0, h), color, 0.0);
    } else if c.sign_w > c.ch {
        let s = if kind == LineKind::Add { "+" } else { "-" };
        let base = baseline(y, c.row_h, c.fs);
        b.label(x + (c.sign_w - c.ch) / 2.0, base, s, c.fs, false, color);
    }
}

fn max_lines(b: &Builder, c: &Cols, y: f32) -> u32 {
    (((b.max_height - y) / c.row_h).max(1.0) as u32).saturating_add(1)
}

fn unified_row(b: &mut Builder, c: &Cols, cl: &CodeLine, x: f32, y: f32) -> Result<f32, TooTall> {
    let p = b.p;
    let code_x = x + 2.0 * c.num_w + c.sign_w;
    let t = measure(c, cl, c.code_w, max_lines(b, c, y));
    let h = t.lines as f32 * c.row_h;
    b.check(y + h)?;
    let kind = cl.line.kind;
    let (row_bg, num_bg, num_fg, sign_fg) = kind_colors(&p, kind, !p.add_bg.is_clear());
    b.fill(
        Rect::new(x, y, 2.0 * c.num_w + c.sign_w + c.code_w, h),
        row_bg,
        0.0,
    );
    b.fill(Rect::new(x, y, 2.0 * c.num_w, h), num_bg, 0.0);
    number(b, c, cl.line.old_line, x + c.num_w, y, num_fg);
    number(b, c, cl.line.new_line, x + 2.0 * c.num_w, y, num_fg);
    let bars = c.sign_w == 8.0;
    sign(b, c, kind, x + 2.0 * c.num_w, y, h, sign_fg, bars);
    paint_cell(b, c, cl, &t, code_x, y);
    Ok(y + h)
}

fn split_row(
    b: &mut Builder,
    c: &Cols,
    left: Option<&CodeLine>,
    right: Option<&CodeLine>,
    x: f32,
    y: f32,
) -> Result<f32, TooTall> {
    let p = b.p;
    let half = c.num_w + c.sign_w + c.code_w;
    let limit = max_lines(b, c, y);
    let measured: Vec<Option<CellText>> = [left, right]
        .iter()
        .map(|s| s.map(|cl| measure(c, cl, c.code_w, limit)))
        .collect();
    let lines = measured
        .iter()
        .flatten()
        .map(|t| t.lines)
        .max()
        .unwrap_or(1);
    let h = lines as f32 * c.row_h;
    b.check(y + h)?;
    for (i, (side, t)) in [left, right].iter().zip(&measured).enumerate() {
        let sx = x + i as f32 * half;
        match (side, t) {
            (Some(cl), Some(t)) => {
                let kind = cl.line.kind;
                let (row_bg, num_bg, num_fg, sign_fg) = kind_colors(&p, kind, !p.add_bg.is_clear());
                b.fill(Rect::new(sx, y, half, h), row_bg, 0.0);
                b.fill(Rect::new(sx, y, c.num_w, h), num_bg, 0.0);
                let n = match kind {
                    LineKind::Delete => cl.line.old_line,
                    LineKind::Context if i == 0 => cl.line.old_line,
                    _ => cl.line.new_line,
                };
                number(b, c, n, sx + c.num_w, y, num_fg);
                sign(b, c, kind, sx + c.num_w, y, h, sign_fg, c.sign_w == 8.0);
                paint_cell(b, c, cl, t, sx + c.num_w + c.sign_w, y);
            }
            _ => {
                b.fill(Rect::new(sx, y, half, h), p.empty_bg, 0.0);
                // Each of the three empty cells starts its own hatching, as each `td`
                // paints its own gradient.
                let mut cx = sx;
                for cw in [c.num_w, c.sign_w, c.code_w] {
                    if cw > 0.0 {
                        b.items.push(Item::Hatch {
                            rect: Rect::new(cx, y, cw, h),
                            color: p.hatch,
                        });
                    }
                    cx += cw;
                }
            }
        }
    }
    b.fill(Rect::new(x + half, y, 1.0, h), p.border, 0.0);
    Ok(y + h)
}
