//! [`Presentation`] → HTML: a pure function of the model and [`RenderOptions`].
//!
//! Each slide is a stage `<div>` with the slide's aspect ratio and `container-type:
//! inline-size`; `--pt` is one slide point in container units, so every position, size,
//! inset and font size written as a multiple of `--pt` scales with the stage, and the
//! same markup serves as a full slide and as a thumbnail. Shapes are absolutely placed
//! boxes (`--x`, `--y`, `--w`, `--h` in points, relative to their group); geometry is an
//! inline SVG drawn in the shape's own points; text is HTML over it.
//!
//! Every text and attribute is escaped; CSS values come only from numbers, colours the
//! parser built, font names reduced to safe characters, and media URLs from the options
//! (part names percent-encoded). Links are live only for http, https and mailto URLs and
//! for jumps to slides of the deck. SVG ids (gradients, clips) carry the deck's
//! [`RenderOptions::id_prefix`] and a counter, so several decks can share a page.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::markup::{encode_path, escape_into};

use super::geometry::{self, arrow_head, shape_paths, SubPath};
use super::model::{
    Align, AutoShape, Chart, Color, Effects, Embedded, Fill, Frame, Geometry, GradientKind,
    ImageSource, Line, Link, MediaPart, Paragraph, Picture, Presentation, Run, RunKind, Shadow,
    Shape, ShapeKind, Slide, Spacing, TabAlign, Table, TextBody, VerticalAnchor, EMU_PER_POINT,
};
use super::paint;
use super::tabs;

/// The stylesheet slide markup needs (stages, shapes, text, tables).
pub const STYLESHEET: &str = include_str!("render.css");

/// The viewer chrome's stylesheet (rail, toolbar, single-slide view, notes).
pub const VIEWER_CSS: &str = include_str!("../../../viewers/pptx/pptx.css");

/// The viewer script: navigation, keys, counter, notes toggle, deep links and lazy
/// slides, for every `[data-pptx]` deck on the page; no globals.
pub const VIEWER_JS: &str = include_str!("../../../viewers/pptx/pptx.js");

/// How to render a deck.
#[derive(Debug, Clone)]
pub struct RenderOptions {
    /// URL prefix under which media parts are served (`{prefix}{part}`, part
    /// percent-encoded), e.g. `"media/"`.
    pub media_prefix: String,
    /// URLs for specific media parts (e.g. `data:` URLs for a standalone page); these win
    /// over `media_prefix`.
    pub media_urls: HashMap<String, String>,
    /// Prefix of element ids (`{prefix}slide-3`) and SVG ids, unique per deck on a page.
    pub id_prefix: String,
    /// Put every slide after the first inside a `<template>` that the viewer script
    /// materialises on demand (a 300-slide deck then opens like a 3-slide one).
    pub lazy: bool,
    /// Render the viewer chrome (toolbar, thumbnail rail).
    pub chrome: bool,
    /// Render speaker notes (the viewer shows them on demand).
    pub notes: bool,
    /// Wrap the deck in a complete HTML document with both stylesheets.
    pub standalone: bool,
    /// Whether and how the deck carries the viewer script.
    pub script: ViewerScript,
    /// Font stacks and served faces (`crate::office::fonts`); empty: stacks by name.
    pub fonts: crate::office::fonts::FontPlan,
}

/// Where the viewer script comes from. Whichever it is, the `<script>` element is placed
/// right after the first slide (after the deck's end when it has none), and it is neither
/// deferred nor async: the browser runs it as soon as slide 1 is parsed, so the viewer is
/// set up on slide 1 without waiting for the rest of the document, however long the deck
/// (`pptx.js` completes the set-up of later slides and thumbnails on `DOMContentLoaded`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ViewerScript {
    /// No script: the host page loads `pptx.js` itself (or shows the slides stacked).
    None,
    /// The script's text inline (a standalone page opened without a server).
    Inline,
    /// `<script src="…">` with this URL (a page whose CSP allows only `'self'` scripts).
    Src(String),
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            media_prefix: "media/".to_owned(),
            media_urls: HashMap::new(),
            id_prefix: String::new(),
            lazy: true,
            chrome: true,
            notes: true,
            standalone: false,
            script: ViewerScript::None,
            fonts: Default::default(),
        }
    }
}

/// Renders the deck to HTML.
pub fn render_html(pres: &Presentation, opts: &RenderOptions) -> String {
    let mut r = Renderer::new(pres, opts);
    if opts.standalone {
        r.out
            .push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>");
        escape_into(
            &mut r.out,
            pres.properties.title.as_deref().unwrap_or("Presentation"),
        );
        r.out.push_str("</title><style>");
        r.out.push_str(STYLESHEET);
        r.out.push_str(VIEWER_CSS);
        r.out
            .push_str("html,body{height:100%;margin:0}body{display:flex}</style>");
        r.out.push_str("</head><body>");
    }
    r.out.push_str(&opts.fonts.style_element());
    r.deck();
    if opts.standalone {
        r.out.push_str("</body></html>\n");
    }
    r.out
}

/// Renders one slide's stage (no chrome, no template): for serving slides one by one
/// and for tests. `index` counts from 0; out of range gives an empty string.
pub fn render_slide(pres: &Presentation, index: usize, opts: &RenderOptions) -> String {
    let Some(slide) = pres.slides.get(index) else {
        return String::new();
    };
    let mut r = Renderer::new(pres, opts);
    r.stage(slide);
    r.out
}

struct Renderer<'d, 'o> {
    pres: &'d Presentation,
    opts: &'o RenderOptions,
    out: String,
    media: HashMap<&'d str, &'d MediaPart>,
    /// Counter for SVG ids.
    next_id: usize,
    /// The slide being rendered, for SVG ids.
    slide_no: usize,
    /// Slide width in points (`--sw`).
    slide_w: f64,
    /// Soft-edge radius in points of the shape being drawn (`a:softEdge`).
    soft_edge: Option<f64>,
    /// The face and size that set the lines of the paragraph being written (`None`
    /// inside: the stage's default face).
    line: Option<(Option<String>, f64)>,
}

/// The stage's default font stack, as `render.css` gives `.pptx-stage`.
const STAGE_FONT: &str = "'pptx-calibri','Calibri','Carlito','Liberation Sans',Arial,sans-serif";

/// The face of most of a paragraph's visible text (`None` inside: the stage's default
/// face), which sets its lines; `None` for a paragraph without runs.
fn line_face(p: &Paragraph) -> Option<Option<&str>> {
    let mut counts: Vec<(Option<&str>, usize)> = Vec::new();
    for r in p.runs.iter().filter(|r| r.kind != RunKind::Break) {
        let visible = r.text.chars().filter(|c| !c.is_whitespace()).count();
        match counts.iter_mut().find(|e| e.0 == r.font.as_deref()) {
            Some(e) => e.1 += visible,
            None => counts.push((r.font.as_deref(), visible)),
        }
    }
    let mut best: Option<(Option<&str>, usize)> = None;
    for (face, n) in counts {
        if best.is_none_or(|b| n > b.1) {
            best = Some((face, n));
        }
    }
    best.map(|b| b.0)
}

/// A number for CSS and SVG: at most three decimals, no trailing zeros.
fn n(v: f64) -> String {
    if !v.is_finite() {
        return "0".to_owned();
    }
    let r = (v * 1000.0).round() / 1000.0;
    if r == 0.0 {
        "0".to_owned()
    } else {
        format!("{r}")
    }
}

/// EMU to points, formatted.
fn pt(emu: i64) -> String {
    n(emu as f64 / EMU_PER_POINT)
}

/// A CSS length of `v` slide points.
fn len(v: f64) -> String {
    format!("calc(var(--pt)*{})", n(v))
}

/// The CSS filter drawing a shape's outer shadow and glow (CSS `drop-shadow` blurs with a
/// standard deviation of half its radius, as a `blurRad` is read). A glow has no offset;
/// two stacked half-radius shadows give it the body a single blur lacks.
fn effects_filter(e: &Effects) -> Option<String> {
    let mut out = Vec::new();
    if let Some(g) = &e.glow {
        let shadow = format!(
            "drop-shadow(0 0 {} {})",
            len(g.radius / EMU_PER_POINT / 2.0),
            css_color(&g.color)
        );
        out.push(shadow.clone());
        out.push(shadow);
    }
    if let Some(s) = &e.outer_shadow {
        out.push(format!(
            "drop-shadow({} {} {} {})",
            len(s.dx / EMU_PER_POINT),
            len(s.dy / EMU_PER_POINT),
            len(s.blur / EMU_PER_POINT),
            css_color(&s.color)
        ));
    }
    (!out.is_empty()).then(|| out.join(" "))
}

/// The width a table border is drawn with, in points (hairlines get half a point).
fn border_width(b: &Line) -> f64 {
    (b.width as f64 / EMU_PER_POINT).max(0.5)
}

/// Half of each collapsed border around cell (`row`, `col`) — left, top, right, bottom —
/// in points: on a shared edge CSS draws the wider of the two cells' borders.
fn collapsed_half_borders(t: &Table, row: usize, col: usize) -> [f64; 4] {
    let cell_at = |r: usize, c: usize| t.rows.get(r).and_then(|row| row.cells.get(c));
    let width = |r: usize, c: usize, side: usize| {
        cell_at(r, c)
            .and_then(|cell| cell.borders[side].as_ref())
            .map_or(0.0, border_width)
    };
    let Some(cell) = cell_at(row, col) else {
        return [0.0; 4];
    };
    let (right, below) = (
        col + cell.col_span.max(1) as usize,
        row + cell.row_span.max(1) as usize,
    );
    let own = |side: usize| width(row, col, side);
    let left = col.checked_sub(1).map_or(0.0, |c| width(row, c, 2));
    let top = row.checked_sub(1).map_or(0.0, |r| width(r, col, 3));
    [
        own(0).max(left) / 2.0,
        own(1).max(top) / 2.0,
        own(2).max(width(row, right, 0)) / 2.0,
        own(3).max(width(below, col, 1)) / 2.0,
    ]
}

/// A CSS font stack from the resolver (`crate::office::fonts`): metric-compatible open
/// families, the deck's font, look-alikes, a generic family. Calibri first as the
/// stylesheet's `pptx-calibri` face: Calibri or Carlito with the line metrics Office uses
/// (see render.css).
fn font_stack(name: &str, fonts: &crate::office::fonts::FontPlan) -> String {
    let Some(stack) = fonts.stack(name) else {
        return String::new();
    };
    if name.trim().eq_ignore_ascii_case("calibri") {
        format!("'pptx-calibri',{stack}")
    } else {
        stack.into_owned()
    }
}

fn css_color(c: &Color) -> String {
    c.hex()
}

fn mix(a: &Color, b: &Color, t: f64) -> Color {
    let m = |x: u8, y: u8| (f64::from(x) * (1.0 - t) + f64::from(y) * t).round() as u8;
    Color {
        r: m(a.r, b.r),
        g: m(a.g, b.g),
        b: m(a.b, b.b),
        alpha: a.alpha,
    }
}

/// The share of foreground a pattern shows (`pct25` → 0.25; others about half).
fn pattern_share(preset: &str) -> f64 {
    preset
        .strip_prefix("pct")
        .and_then(|p| p.parse::<f64>().ok())
        .map_or(0.5, |p| (p / 100.0).clamp(0.0, 1.0))
}

impl<'d, 'o> Renderer<'d, 'o> {
    fn new(pres: &'d Presentation, opts: &'o RenderOptions) -> Self {
        Renderer {
            pres,
            opts,
            out: String::with_capacity(16 * 1024 + pres.slides.len() * 4096),
            media: pres.media.iter().map(|m| (m.part.as_str(), m)).collect(),
            next_id: 0,
            slide_no: 0,
            slide_w: pres.slide_width as f64 / EMU_PER_POINT,
            soft_edge: None,
            line: None,
        }
    }

    fn fresh_id(&mut self, kind: &str) -> String {
        self.next_id += 1;
        let prefix: String = self
            .opts
            .id_prefix
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
            .collect();
        // The slide number keeps ids apart when slides are rendered one by one.
        format!("{prefix}pptx-s{}-{kind}{}", self.slide_no, self.next_id)
    }

    fn slide_id(&self, number: usize) -> String {
        let mut s = String::new();
        escape_into(&mut s, &self.opts.id_prefix);
        let _ = write!(s, "slide-{number}");
        s
    }

    fn deck(&mut self) {
        let pres = self.pres;
        let count = pres.slides.len();
        let ratio = pres.slide_width as f64 / pres.slide_height.max(1) as f64;
        self.out
            .push_str("<div class=\"pptx\" data-pptx data-id-prefix=\"");
        escape_into(&mut self.out, &self.opts.id_prefix);
        let _ = write!(
            self.out,
            "\" data-count=\"{count}\" tabindex=\"0\" role=\"region\" style=\"--ratio:{}\" aria-label=\"",
            n(ratio)
        );
        let title = pres.properties.title.as_deref().unwrap_or("Presentation");
        escape_into(&mut self.out, title);
        self.out.push_str("\">");
        if !pres.warnings.is_empty() {
            self.out
                .push_str("<details class=\"pptx-warnings\"><summary>");
            let _ = write!(
                self.out,
                "{} part{} of this deck could not be shown as written",
                pres.warnings.len(),
                if pres.warnings.len() == 1 { "" } else { "s" }
            );
            self.out.push_str("</summary><ul>");
            for w in &pres.warnings {
                self.out.push_str("<li>");
                escape_into(&mut self.out, w);
                self.out.push_str("</li>");
            }
            self.out.push_str("</ul></details>");
        }
        if self.opts.chrome && count > 0 {
            self.toolbar(count);
            self.rail();
        }
        self.out.push_str("<div class=\"pptx-slides\">");
        if count == 0 {
            self.out
                .push_str("<p class=\"pptx-empty\">This presentation has no slides.</p>");
        }
        for (i, slide) in pres.slides.iter().enumerate() {
            let id = self.slide_id(slide.number);
            let _ = write!(
                self.out,
                "<section class=\"pptx-slide{}\" id=\"{id}\" data-slide=\"{}\" aria-label=\"Slide {} of {count}{}\"{}>",
                if i == 0 { " is-current" } else { "" },
                slide.number,
                slide.number,
                if slide.hidden { ", hidden" } else { "" },
                if slide.hidden { " data-hidden" } else { "" },
            );
            if slide.hidden {
                self.out
                    .push_str("<span class=\"pptx-hidden-badge\">Hidden slide</span>");
            }
            let lazy = self.opts.lazy && i > 0;
            if lazy {
                self.out.push_str("<template class=\"pptx-tpl\">");
            }
            self.stage(slide);
            if lazy {
                self.out.push_str("</template>");
            }
            if self.opts.notes && !slide.notes.is_empty() {
                self.out
                    .push_str("<aside class=\"pptx-notes\" aria-label=\"Speaker notes\">");
                for para in &slide.notes {
                    self.out.push_str("<p>");
                    escape_into(&mut self.out, para);
                    self.out.push_str("</p>");
                }
                self.out.push_str("</aside>");
            }
            self.out.push_str("</section>");
            if i == 0 {
                self.viewer_script();
            }
        }
        self.out.push_str("</div>");
        if count == 0 {
            self.viewer_script();
        }
        self.out.push_str("</div>");
    }

    /// The viewer script's element (see [`ViewerScript`] for why it sits after slide 1).
    fn viewer_script(&mut self) {
        match &self.opts.script {
            ViewerScript::None => {}
            ViewerScript::Inline => {
                self.out.push_str("<script>");
                // A script body cannot contain `</script`; ours does not (a test checks).
                self.out.push_str(VIEWER_JS);
                self.out.push_str("</script>");
            }
            ViewerScript::Src(src) => {
                self.out.push_str("<script src=\"");
                escape_into(&mut self.out, src);
                self.out.push_str("\"></script>");
            }
        }
    }

    fn toolbar(&mut self, count: usize) {
        let _ = write!(
            self.out,
            concat!(
                "<div class=\"pptx-bar\" role=\"toolbar\" aria-label=\"Slides\">",
                "<button type=\"button\" class=\"pptx-btn\" data-pptx-action=\"prev\" aria-label=\"Previous slide\" title=\"Previous slide\">\u{2039}</button>",
                "<span class=\"pptx-counter\" aria-live=\"polite\"><span class=\"pptx-current\">1</span> / {}</span>",
                "<button type=\"button\" class=\"pptx-btn\" data-pptx-action=\"next\" aria-label=\"Next slide\" title=\"Next slide\">\u{203A}</button>",
                "<button type=\"button\" class=\"pptx-btn pptx-notes-toggle\" data-pptx-action=\"notes\" aria-pressed=\"false\">Notes</button>",
                "</div>"
            ),
            count
        );
    }

    fn rail(&mut self) {
        self.out
            .push_str("<nav class=\"pptx-rail\" aria-label=\"Slide thumbnails\"><ol>");
        for slide in &self.pres.slides {
            let id = self.slide_id(slide.number);
            let _ = write!(
                self.out,
                "<li><a class=\"pptx-thumb{}\" href=\"#{id}\" data-slide=\"{}\" aria-label=\"Slide {}{}\"><span class=\"pptx-thumb-n\">{}</span><span class=\"pptx-thumb-view\"></span></a></li>",
                if slide.hidden { " is-hidden" } else { "" },
                slide.number,
                slide.number,
                if slide.hidden { " (hidden)" } else { "" },
                slide.number
            );
        }
        self.out.push_str("</ol></nav>");
    }

    /// One slide's stage.
    fn stage(&mut self, slide: &Slide) {
        self.slide_no = slide.number;
        self.next_id = 0;
        let _ = write!(
            self.out,
            "<div class=\"pptx-stage\" style=\"aspect-ratio:{}/{};--sw:{};{}\">",
            self.pres.slide_width,
            self.pres.slide_height.max(1),
            n(self.slide_w),
            background_css(&slide.background, self)
        );
        if let Some(why) = &slide.missing {
            let _ = write!(
                self.out,
                "<div class=\"pptx-missing\" role=\"note\">Slide {} could not be shown: ",
                slide.number
            );
            escape_into(&mut self.out, why);
            self.out.push_str("</div></div>");
            return;
        }
        if needs_svg(&slide.background) {
            // CSS cannot draw this background (a rectangular gradient, a tiled,
            // placed or recoloured picture): paint it as a slide-sized shape under the
            // rest, over the CSS approximation.
            let frame = Frame {
                width: self.pres.slide_width,
                height: self.pres.slide_height,
                ..Frame::default()
            };
            let _ = write!(
                self.out,
                "<div class=\"pptx-sp pptx-bg\" style=\"--x:0;--y:0;--w:{};--h:{}\" aria-hidden=\"true\">",
                pt(frame.width),
                pt(frame.height)
            );
            self.geometry_svg(&Geometry::default(), &slide.background, None, &frame);
            self.out.push_str("</div>");
        }
        if let Some(layer) = slide.layer.and_then(|i| self.pres.layers.get(i)) {
            for s in &layer.shapes {
                self.shape(s, (0, 0), 0);
            }
        }
        for s in &slide.shapes {
            self.shape(s, (0, 0), 0);
        }
        self.out.push_str("</div>");
    }

    /// A shape placed relative to its parent's origin (EMU).
    fn shape(&mut self, s: &Shape, origin: (i64, i64), depth: usize) {
        let f = &s.frame;
        let _ = write!(
            self.out,
            "<div class=\"pptx-sp{}\" style=\"--x:{};--y:{};--w:{};--h:{}",
            match s.kind {
                ShapeKind::Group(_) => " pptx-grp",
                _ => "",
            },
            pt(f.x.saturating_sub(origin.0)),
            pt(f.y.saturating_sub(origin.1)),
            pt(f.width),
            pt(f.height)
        );
        let group = matches!(s.kind, ShapeKind::Group(_));
        let mut transform = String::new();
        if f.rotation != 0.0 {
            let _ = write!(transform, "rotate({}deg)", n(f.rotation));
        }
        // Flips mirror a group's whole content; other shapes flip only their drawing.
        if group && (f.flip_h || f.flip_v) {
            let _ = write!(
                transform,
                " scale({},{})",
                if f.flip_h { -1 } else { 1 },
                if f.flip_v { -1 } else { 1 }
            );
        }
        if !transform.is_empty() {
            let _ = write!(self.out, ";transform:{}", transform.trim());
        }
        if let Some(filter) = effects_filter(&s.effects) {
            let _ = write!(self.out, ";filter:{filter}");
        }
        self.out.push('"');
        if !s.name.is_empty() {
            self.out.push_str(" data-name=\"");
            escape_into(&mut self.out, &s.name);
            self.out.push('"');
        }
        if let Some(alt) = &s.alt {
            self.out.push_str(" title=\"");
            escape_into(&mut self.out, alt);
            self.out.push('"');
        }
        if s.hidden {
            self.out.push_str(" hidden");
        }
        self.out.push('>');
        let link_open = s.link.as_ref().map(|l| self.link_open(l, true));
        if let Some(open) = &link_open {
            self.out.push_str(open);
        }
        let outer_soft_edge = self.soft_edge;
        if let Some(r) = s.effects.soft_edge {
            self.soft_edge = Some(r / EMU_PER_POINT);
        }
        match &s.kind {
            ShapeKind::Shape(a) => {
                self.auto_shape(a, f);
                if let Some(inner) = &s.effects.inner_shadow {
                    self.inner_shadow(&a.geometry, inner, f);
                }
            }
            ShapeKind::Picture(p) => self.picture(p, f, s.alt.as_deref()),
            ShapeKind::Group(g) => {
                if depth < 64 {
                    for c in &g.children {
                        self.shape(c, (f.x, f.y), depth + 1);
                    }
                }
            }
            ShapeKind::Table(t) => self.table(t),
            ShapeKind::Chart(c) => self.chart(c, f),
            ShapeKind::Embedded(e) => self.embedded(e),
        }
        self.soft_edge = outer_soft_edge;
        if link_open.is_some() {
            self.out.push_str("</a>");
        }
        self.out.push_str("</div>");
    }

    /// The opening tag of a link (`block` for whole-shape links).
    fn link_open(&self, link: &Link, block: bool) -> String {
        let class = if block {
            "pptx-link pptx-link-block"
        } else {
            "pptx-link"
        };
        match link {
            Link::Url { url } => {
                let mut s = format!("<a class=\"{class}\" href=\"");
                escape_into(&mut s, url);
                s.push_str("\" target=\"_blank\" rel=\"noopener noreferrer\">");
                s
            }
            Link::Slide { number } => format!(
                "<a class=\"{class}\" href=\"#{}\" data-pptx-goto=\"{number}\">",
                self.slide_id(*number)
            ),
        }
    }

    // ----- geometry ------------------------------------------------------------------

    fn auto_shape(&mut self, a: &AutoShape, f: &Frame) {
        let has_fill = a.fill != Fill::None;
        // One evaluation of the geometry per shape: its paths and its text rectangle.
        let outline = geometry::outline(
            &a.geometry,
            f.width as f64 / EMU_PER_POINT,
            f.height as f64 / EMU_PER_POINT,
        );
        if has_fill || a.line.is_some() {
            self.paths_svg(&outline.paths, &a.fill, a.line.as_ref(), f);
        }
        if let Some(t) = &a.text {
            self.text_body(t, geometry::text_insets(outline.text_rect, f));
        }
    }

    /// The SVG drawing a geometry with a fill and an outline.
    fn geometry_svg(&mut self, geometry: &Geometry, fill: &Fill, line: Option<&Line>, f: &Frame) {
        let w = f.width as f64 / EMU_PER_POINT;
        let h = f.height as f64 / EMU_PER_POINT;
        self.paths_svg(&shape_paths(geometry, w, h), fill, line, f);
    }

    /// The SVG drawing a geometry's sub-paths with a fill and an outline.
    fn paths_svg(&mut self, paths: &[SubPath], fill: &Fill, line: Option<&Line>, f: &Frame) {
        let w = f.width as f64 / EMU_PER_POINT;
        let h = f.height as f64 / EMU_PER_POINT;
        let lw = line.map_or(0.0, |l| (l.width as f64 / EMU_PER_POINT).max(0.0));
        let heads = line.is_some_and(|l| l.head.is_some() || l.tail.is_some());
        // Room around the box for the stroke and arrow heads.
        let m = (lw * if heads { 4.0 } else { 1.0 }).max(1.0) + 1.0;
        // The svg box is the shape box grown by `m` points on every side (see the
        // stylesheet), so strokes and arrow heads past the box are not cut off.
        let _ = write!(
            self.out,
            "<svg class=\"pptx-geom\" viewBox=\"{} {} {} {}\" preserveAspectRatio=\"none\" aria-hidden=\"true\" style=\"--m:{}",
            n(-m),
            n(-m),
            n(w + 2.0 * m),
            n(h + 2.0 * m),
            n(m)
        );
        if f.flip_h || f.flip_v {
            let _ = write!(
                self.out,
                ";transform:scale({},{})",
                if f.flip_h { -1 } else { 1 },
                if f.flip_v { -1 } else { 1 }
            );
        }
        self.out.push_str("\">");
        let fill_attr = self.svg_fill(fill, f, paths);
        let soft = self.soft_edge.filter(|r| *r > 0.0);
        if let Some(r) = soft {
            let id = self.fresh_id("e");
            self.out.push_str(&paint::soft_edge_filter(&id, r));
            let _ = write!(self.out, "<g filter=\"url(#{id})\">");
        }
        let (stroke, stroke_extra) = match line {
            Some(l) if l.color.alpha > 0.0 => {
                let mut extra = format!(
                    " stroke-width=\"{}\" stroke-linecap=\"{}\" stroke-linejoin=\"{}\"",
                    n(lw.max(0.75)),
                    match l.cap.as_str() {
                        "rnd" => "round",
                        "sq" => "square",
                        _ => "butt",
                    },
                    match l.join.as_str() {
                        "bevel" => "bevel",
                        "miter" => "miter",
                        _ => "round",
                    }
                );
                if let Some(d) = dash_array(&l.dash, lw.max(0.75)) {
                    let _ = write!(extra, " stroke-dasharray=\"{d}\"");
                }
                (css_color(&l.color), extra)
            }
            _ => ("none".to_owned(), String::new()),
        };
        for p in paths {
            let fill_here = if p.fill { fill_attr.as_str() } else { "none" };
            let stroke_here = if p.stroke { stroke.as_str() } else { "none" };
            if fill_here == "none" && stroke_here == "none" {
                continue;
            }
            if let Some(shade) = p.shade.overlay().filter(|_| fill_here != "none") {
                // A shaded fill (`darken` …: a can's lid, a scroll's curl): the fill, a
                // translucent black or white over it, then the stroke on top.
                let _ = write!(
                    self.out,
                    "<path d=\"{d}\" fill=\"{fill_here}\" fill-rule=\"evenodd\" stroke=\"none\"/><path d=\"{d}\" fill=\"{}\" fill-opacity=\"{}\" fill-rule=\"evenodd\" stroke=\"none\"/>",
                    shade.0,
                    n(shade.1),
                    d = p.d
                );
                if stroke_here != "none" {
                    let _ = write!(
                        self.out,
                        "<path d=\"{}\" fill=\"none\" stroke=\"{stroke_here}\"{stroke_extra}/>",
                        p.d
                    );
                }
                continue;
            }
            let _ = write!(
                self.out,
                "<path d=\"{}\" fill=\"{fill_here}\" fill-rule=\"evenodd\" stroke=\"{stroke_here}\"{}/>",
                p.d,
                if stroke_here == "none" { "" } else { stroke_extra.as_str() }
            );
        }
        if let Some(l) = line.filter(|l| l.color.alpha > 0.0) {
            self.arrow_heads(l, paths, lw.max(0.75));
        }
        if soft.is_some() {
            self.out.push_str("</g>");
        }
        self.out.push_str("</svg>");
    }

    /// An inner shadow (`a:innerShdw`) over a shape's interior: the outside of the
    /// outline, blurred and offset, kept where it falls inside the outline.
    fn inner_shadow(&mut self, geometry: &Geometry, shadow: &Shadow, f: &Frame) {
        let w = f.width as f64 / EMU_PER_POINT;
        let h = f.height as f64 / EMU_PER_POINT;
        let id = self.fresh_id("s");
        let _ = write!(
            self.out,
            "<svg class=\"pptx-geom\" viewBox=\"0 0 {} {}\" preserveAspectRatio=\"none\" aria-hidden=\"true\" style=\"--m:0{}\"><defs><filter id=\"{id}\" x=\"-50%\" y=\"-50%\" width=\"200%\" height=\"200%\"><feComponentTransfer in=\"SourceAlpha\"><feFuncA type=\"table\" tableValues=\"1 0\"/></feComponentTransfer><feGaussianBlur stdDeviation=\"{}\"/><feOffset dx=\"{}\" dy=\"{}\" result=\"out\"/><feFlood flood-color=\"{}\" flood-opacity=\"{}\"/><feComposite in2=\"out\" operator=\"in\"/><feComposite in2=\"SourceAlpha\" operator=\"in\"/></filter></defs>",
            n(w),
            n(h),
            if f.flip_h || f.flip_v {
                format!(
                    ";transform:scale({},{})",
                    if f.flip_h { -1 } else { 1 },
                    if f.flip_v { -1 } else { 1 }
                )
            } else {
                String::new()
            },
            n(shadow.blur / EMU_PER_POINT / 2.0),
            n(shadow.dx / EMU_PER_POINT),
            n(shadow.dy / EMU_PER_POINT),
            css_color(&Color {
                alpha: 1.0,
                ..shadow.color
            }),
            n(f64::from(shadow.color.alpha))
        );
        for p in shape_paths(geometry, w, h).iter().filter(|p| p.fill) {
            let _ = write!(
                self.out,
                "<path d=\"{}\" fill=\"#000\" fill-rule=\"evenodd\" filter=\"url(#{id})\"/>",
                p.d
            );
        }
        self.out.push_str("</svg>");
    }

    fn arrow_heads(&mut self, l: &Line, paths: &[SubPath], lw: f64) {
        let open: Vec<&SubPath> = paths.iter().filter(|p| p.stroke).collect();
        let color = css_color(&l.color);
        let draw = |out: &mut String, end: &super::model::LineEnd, tip, from| {
            let (d, filled) = arrow_head(end, tip, from, lw);
            if filled {
                let _ = write!(out, "<path d=\"{d}\" fill=\"{color}\" stroke=\"none\"/>");
            } else {
                let _ = write!(
                    out,
                    "<path d=\"{d}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"{}\" stroke-linejoin=\"round\"/>",
                    n(lw)
                );
            }
        };
        if let (Some(head), Some((tip, toward))) = (&l.head, open.first().and_then(|p| p.start)) {
            // The head sits at the first point, pointing away from the path.
            draw(&mut self.out, head, tip, toward);
        }
        if let (Some(tail), Some((tip, from))) = (&l.tail, open.last().and_then(|p| p.end)) {
            draw(&mut self.out, tail, tip, from);
        }
    }

    /// An SVG paint for a fill, adding gradient or pattern definitions as needed.
    fn svg_fill(&mut self, fill: &Fill, f: &Frame, paths: &[SubPath]) -> String {
        let w = f.width as f64 / EMU_PER_POINT;
        let h = f.height as f64 / EMU_PER_POINT;
        match fill {
            Fill::None => "none".to_owned(),
            Fill::Solid { color } => css_color(color),
            Fill::Pattern {
                preset,
                foreground,
                background,
            } => match paint::pattern_bits(preset) {
                Some(bits) => {
                    let id = self.fresh_id("p");
                    self.out
                        .push_str(&paint::pattern(&id, &bits, foreground, background));
                    format!("url(#{id})")
                }
                None => css_color(&mix(background, foreground, pattern_share(preset))),
            },
            Fill::Gradient(g) => {
                let id = self.fresh_id("g");
                let stops = paint::gradient_stops(&g.stops);
                // The shape's box is turned by CSS: a fill that must not turn with it
                // (rotWithShape="0") takes the opposite turn.
                let counter_turn = if g.rotate_with_shape {
                    0.0
                } else {
                    -f.rotation
                };
                match g.kind {
                    GradientKind::Linear { angle } => {
                        let angle = angle + counter_turn;
                        // A line through the box centre along the angle, long enough
                        // that the end stops touch the far corners.
                        let a = angle.to_radians();
                        let (ux, uy) = (a.cos(), a.sin());
                        let half = (ux.abs() + uy.abs()) / 2.0;
                        let _ = write!(
                            self.out,
                            "<defs><linearGradient id=\"{id}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\">{stops}</linearGradient></defs>",
                            n(0.5 - ux * half),
                            n(0.5 - uy * half),
                            n(0.5 + ux * half),
                            n(0.5 + uy * half)
                        );
                    }
                    GradientKind::Radial { cx, cy } => {
                        // Circles, not ellipses stretched to the box (PowerPoint and
                        // LibreOffice both draw circles); the last stop reaches the
                        // corner farthest from the focus, so an off-centre focus
                        // (`fillToRect`) still shades the whole box.
                        // A focus outside the box keeps its place there; the box shows the
                        // outer rings. A counter-turned focus turns about the box centre.
                        let (px, py) = (cx * w, cy * h);
                        let r = px.max(w - px).hypot(py.max(h - py));
                        let turn = if counter_turn.abs() >= 0.01 {
                            format!(
                                " gradientTransform=\"rotate({} {} {})\"",
                                n(counter_turn),
                                n(w / 2.0),
                                n(h / 2.0)
                            )
                        } else {
                            String::new()
                        };
                        let _ = write!(
                            self.out,
                            "<defs><radialGradient id=\"{id}\" gradientUnits=\"userSpaceOnUse\" cx=\"{}\" cy=\"{}\" r=\"{}\"{turn}>{stops}</radialGradient></defs>",
                            n(px),
                            n(py),
                            n(r)
                        );
                    }
                    GradientKind::Rect {
                        left,
                        top,
                        right,
                        bottom,
                    } => {
                        let focus = (left * w, top * h, right * w, bottom * h);
                        self.out.push_str(&paint::rect_gradient(
                            &id,
                            &g.stops,
                            focus,
                            (w, h),
                            counter_turn,
                        ));
                    }
                }
                format!("url(#{id})")
            }
            Fill::Picture {
                source,
                crop,
                tile,
                stretch,
                duotone,
                alpha,
            } => {
                let Some(url) = self.image_url(source) else {
                    return "#D9D9D9".to_owned();
                };
                let filter = duotone.as_ref().map(|d| {
                    let id = self.fresh_id("d");
                    self.out.push_str(&paint::duotone_filter(&id, d));
                    format!(" filter=\"url(#{id})\"")
                });
                // The image's own attributes: its recolouring and its opacity.
                let mut filter = filter.unwrap_or_default();
                if let Some(a) = alpha {
                    let _ = write!(filter, " opacity=\"{}\"", n(*a));
                }
                if let Some(tile) = tile {
                    let id = self.fresh_id("t");
                    let size = self.image_points(source);
                    self.out.push_str(&paint::tile_pattern(
                        &id,
                        &attr(&url),
                        tile,
                        size,
                        (w, h),
                        &filter,
                    ));
                    return format!("url(#{id})");
                }
                // Clip the picture to the outline, then paint nothing else. The picture
                // lies in the fill rectangle (`a:fillRect`), its crop cut away.
                let id = self.fresh_id("c");
                let fx = stretch.left * w;
                let fy = stretch.top * h;
                let fw = ((1.0 - stretch.left - stretch.right) * w).max(0.01);
                let fh = ((1.0 - stretch.top - stretch.bottom) * h).max(0.01);
                let cw = (1.0 - crop.left - crop.right).max(0.01);
                let ch = (1.0 - crop.top - crop.bottom).max(0.01);
                let _ = write!(self.out, "<defs><clipPath id=\"{id}\">");
                for p in paths.iter().filter(|p| p.fill) {
                    let _ = write!(self.out, "<path d=\"{}\"/>", p.d);
                }
                let _ = write!(
                    self.out,
                    "</clipPath></defs><g clip-path=\"url(#{id})\"><image href=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" preserveAspectRatio=\"none\"{filter}/></g>",
                    attr(&url),
                    n(fx - crop.left / cw * fw),
                    n(fy - crop.top / ch * fh),
                    n(fw / cw),
                    n(fh / ch)
                );
                "none".to_owned()
            }
        }
    }

    /// A picture's own size in points at 96 pixels per inch (the size a tile has at
    /// 100 %); an inch square when its pixel size is unknown (metafiles).
    fn image_points(&self, source: &ImageSource) -> (f64, f64) {
        let pixels = match source {
            ImageSource::Part { part } => self.media.get(part.as_str()).and_then(|m| m.pixels),
            _ => None,
        };
        match pixels {
            Some((pw, ph)) if pw > 0 && ph > 0 => (f64::from(pw) * 0.75, f64::from(ph) * 0.75),
            _ => (72.0, 72.0),
        }
    }

    fn image_url(&self, source: &ImageSource) -> Option<String> {
        let ImageSource::Part { part } = source else {
            return None;
        };
        let media = self.media.get(part.as_str());
        if !media.is_some_and(|m| m.displayable) {
            return None;
        }
        Some(
            self.opts
                .media_urls
                .get(part)
                .cloned()
                .unwrap_or_else(|| format!("{}{}", self.opts.media_prefix, encode_path(part))),
        )
    }

    // ----- pictures ------------------------------------------------------------------

    fn picture(&mut self, p: &Picture, f: &Frame, alt: Option<&str>) {
        if p.fill != Fill::None {
            self.geometry_svg(&p.geometry, &p.fill, None, f);
        }
        let url = self.image_url(&p.source);
        let rect = matches!(&p.geometry, Geometry::Preset { name, .. } if name == "rect");
        match url {
            // A picture cut to a shape (an ellipse, a rounded frame) is drawn clipped by
            // its outline; plain pictures are images the browser can load lazily.
            Some(_) if !rect => {
                let fill = Fill::Picture {
                    source: p.source.clone(),
                    crop: p.crop,
                    tile: None,
                    stretch: Default::default(),
                    duotone: None,
                    alpha: p.alpha,
                };
                self.geometry_svg(&p.geometry, &fill, p.line.as_ref(), f);
                return;
            }
            Some(url) => {
                let cw = (1.0 - p.crop.left - p.crop.right).max(0.01);
                let ch = (1.0 - p.crop.top - p.crop.bottom).max(0.01);
                self.out.push_str("<div class=\"pptx-pic\"");
                let mut style = String::new();
                if let Some(a) = p.alpha {
                    let _ = write!(style, "opacity:{};", n(a));
                }
                if f.flip_h || f.flip_v {
                    let _ = write!(
                        style,
                        "transform:scale({},{});",
                        if f.flip_h { -1 } else { 1 },
                        if f.flip_v { -1 } else { 1 }
                    );
                }
                if let Some(r) = self.soft_edge.filter(|r| *r > 0.0) {
                    // Soft edges of a plain picture: two edge-fading masks, one across
                    // and one down, kept where both are opaque.
                    let fade = |dir: &str| {
                        format!(
                            "linear-gradient(to {dir},transparent,#000 {0},#000 calc(100% - {0}),transparent)",
                            len(r)
                        )
                    };
                    let _ = write!(
                        style,
                        "mask-image:{},{};mask-composite:intersect;",
                        fade("right"),
                        fade("bottom")
                    );
                }
                if !style.is_empty() {
                    let _ = write!(self.out, " style=\"{style}\"");
                }
                let _ = write!(self.out, "><img src=\"{}\" alt=\"", attr(&url));
                escape_into(&mut self.out, alt.unwrap_or(""));
                let _ = write!(
                    self.out,
                    "\" loading=\"lazy\" decoding=\"async\" draggable=\"false\" style=\"left:{}%;top:{}%;width:{}%;height:{}%\"></div>",
                    n(-p.crop.left / cw * 100.0),
                    n(-p.crop.top / ch * 100.0),
                    n(100.0 / cw),
                    n(100.0 / ch)
                );
            }
            None => {
                let label = self.image_label(&p.source);
                self.out.push_str("<div class=\"pptx-ph\">");
                escape_into(&mut self.out, &label);
                self.out.push_str("</div>");
            }
        }
        if let Some(l) = &p.line {
            self.geometry_svg(&p.geometry, &Fill::None, Some(l), f);
        }
    }

    fn image_label(&self, source: &ImageSource) -> String {
        match source {
            ImageSource::Part { part } => {
                let kind = self
                    .media
                    .get(part.as_str())
                    .and_then(|m| m.format)
                    .map(|f| format!("{f:?}").to_uppercase())
                    .unwrap_or_else(|| "Unknown".to_owned());
                format!("{kind} image (not displayable)")
            }
            ImageSource::External { url } => format!("Linked image not loaded: {url}"),
            ImageSource::Missing { .. } => "Missing image".to_owned(),
        }
    }

    fn embedded(&mut self, e: &Embedded) {
        if let Some(url) = e.preview.as_ref().and_then(|p| self.image_url(p)) {
            let _ = write!(
                self.out,
                "<div class=\"pptx-pic\"><img src=\"{}\" alt=\"\" loading=\"lazy\" style=\"left:0;top:0;width:100%;height:100%\"></div>",
                attr(&url)
            );
            return;
        }
        self.out.push_str("<div class=\"pptx-ph pptx-embed\">");
        for (i, line) in e.label.lines().enumerate() {
            if i == 0 {
                self.out.push_str("<strong>");
                escape_into(&mut self.out, line);
                self.out.push_str("</strong>");
            } else {
                self.out.push_str("<span>");
                escape_into(&mut self.out, line);
                self.out.push_str("</span>");
            }
        }
        self.out.push_str("</div>");
    }

    // ----- text ----------------------------------------------------------------------

    /// A text body; `extra` (EMU, left, top, right, bottom) is the geometry's text
    /// rectangle inside the shape box, added to the body's own insets.
    fn text_body(&mut self, t: &TextBody, extra: [i64; 4]) {
        let [l, top, r, b] = [0, 1, 2, 3].map(|i| t.insets[i].saturating_add(extra[i]));
        let _ = write!(
            self.out,
            "<div class=\"pptx-tx{}\" style=\"--il:{};--it:{};--ir:{};--ib:{}",
            if t.wrap { "" } else { " pptx-nowrap" },
            pt(l),
            pt(top),
            pt(r),
            pt(b)
        );
        match t.anchor {
            VerticalAnchor::Top => {}
            VerticalAnchor::Middle => self.out.push_str(";justify-content:center"),
            VerticalAnchor::Bottom => self.out.push_str(";justify-content:flex-end"),
        }
        if t.anchor_center {
            self.out.push_str(";align-items:center");
        }
        if let Some(css) = vertical_css(&t.vertical) {
            self.out.push(';');
            self.out.push_str(css);
        }
        if t.rotation != 0.0 {
            let _ = write!(self.out, ";transform:rotate({}deg)", n(t.rotation));
        }
        self.out.push_str("\">");
        // Columns need a block container of their own: the text body is a flex box,
        // which CSS never splits into columns.
        if t.columns > 1 {
            let _ = write!(
                self.out,
                "<div class=\"pptx-cols\" style=\"column-count:{};column-gap:calc({}*var(--pt))\">",
                t.columns,
                pt(t.column_gap)
            );
        }
        let last = t.paragraphs.len().saturating_sub(1);
        for (i, p) in t.paragraphs.iter().enumerate() {
            self.paragraph(p, i == 0, i == last);
        }
        if t.columns > 1 {
            self.out.push_str("</div>");
        }
        self.out.push_str("</div>");
    }

    fn paragraph(&mut self, p: &Paragraph, first: bool, last: bool) {
        let first_size = p
            .runs
            .iter()
            .find(|r| r.kind != RunKind::Break)
            .map_or(p.end_size, |r| r.size);
        // The paragraph's own line (its strut) is as small as its smallest text: every
        // line of CSS is at least as tall as the strut, while PowerPoint sizes each line
        // by the text on it (a 48 pt line after a 60 pt one in the same paragraph).
        let strut_size = p
            .runs
            .iter()
            .filter(|r| r.kind != RunKind::Break && !r.text.is_empty())
            .map(|r| r.size)
            .reduce(f64::min)
            .unwrap_or(first_size);
        self.out.push_str("<p class=\"pptx-p\" style=\"");
        let mut style = String::new();
        match p.align {
            Align::Left => {}
            Align::Center => style.push_str("text-align:center;"),
            Align::Right => style.push_str("text-align:right;"),
            Align::Justify | Align::Distributed => style.push_str("text-align:justify;"),
        }
        if p.rtl {
            style.push_str("direction:rtl;");
        }
        // marL and marR are the paragraph's start and end margins (mirrored in RTL).
        let (start, end) = if p.rtl {
            ("right", "left")
        } else {
            ("left", "right")
        };
        for (margin, side) in [(p.margin_left, start), (p.margin_right, end)] {
            if margin != 0 {
                let _ = write!(
                    style,
                    "padding-{side}:{};",
                    len(margin as f64 / EMU_PER_POINT)
                );
            }
        }
        if p.indent != 0 {
            let _ = write!(
                style,
                "text-indent:{};",
                len(p.indent as f64 / EMU_PER_POINT)
            );
        }
        // Space before and after in percent is a percentage of the text size, the largest
        // on the line (ECMA-376 21.1.2.2.11 spcPct: "spcPct 200000 … is 200 % of the size
        // of the largest text on each line"), so 20 % at 32 pt is 6.4 pt. Line spacing in
        // percent is different: 100 % is single spacing, one line of 1.2 × the size.
        let largest = p
            .runs
            .iter()
            .filter(|r| r.kind != RunKind::Break)
            .map(|r| r.size)
            .fold(first_size, f64::max);
        let spacing = |s: &Spacing| match *s {
            Spacing::Points(v) => v,
            Spacing::Percent(pc) => largest * pc / 100.0,
        };
        // PowerPoint adds no space above a frame's first paragraph.
        let before = if first { 0.0 } else { spacing(&p.space_before) };
        if before > 0.0 {
            let _ = write!(style, "margin-top:{};", len(before));
        }
        // Nor below its last: SmartArt gives every node's one paragraph 35 % space after,
        // and PowerPoint (as LibreOffice) centres the text in its box without it.
        let after = if last { 0.0 } else { spacing(&p.space_after) };
        if after > 0.0 {
            let _ = write!(style, "margin-bottom:{};", len(after));
        }
        // A line taller or shorter than single spacing (1.2 × size) takes the difference
        // above its text, not half above and half below as CSS does: PowerPoint and
        // LibreOffice keep each line's descent at its bottom, so 150 % moves the text of a
        // top-anchored frame down by the whole extra half line, and 90 % (the title style
        // of Office's themes) moves it up. The paragraph's box is the same either way, so
        // shifting its text by half the difference is the whole correction.
        let extra = match p.line_spacing {
            Spacing::Percent(pc) if (pc - 100.0).abs() > 0.01 => {
                let _ = write!(style, "line-height:{};", n(1.2 * pc / 100.0));
                1.2 * largest * (pc / 100.0 - 1.0)
            }
            Spacing::Points(v) => {
                let _ = write!(style, "line-height:{};", len(v));
                v - 1.2 * largest
            }
            _ => 0.0,
        };
        // PowerPoint sets a line's baseline one fifth of the text size above its bottom,
        // whatever the face (LibreOffice's PowerPoint mode does the same: measured with
        // Calibri, Arial, Tahoma, Verdana, Times New Roman and Georgia at 40 pt, at 80,
        // 100 and 150 % and at exact spacings, the baselines fall on the same pixel row).
        // CSS puts it where the face's ascent and descent split the line, higher for
        // every face whose ascent less descent is under 0.8 em (Calibri's 0.68: 3 px at
        // 40 pt): the paragraph is moved down by the difference.
        let face = line_face(p);
        let split = self
            .opts
            .fonts
            .line_metrics(face.flatten())
            .map_or(0.0, |m| (0.8 - f64::from(m.ascent - m.descent)) * largest);
        let shift = (extra + split) / 2.0;
        if shift.abs() > 0.01 {
            let _ = write!(style, "position:relative;top:{};", len(shift));
        }
        let _ = write!(style, "font-size:{}", len(strut_size));
        // PowerPoint's line is 1.2 × the size of its text, with the baseline where the
        // text's face puts it. CSS makes a line the union of every run's box, each split
        // by its own face's ascent and descent, so a space or an arrow in another face
        // made the line 1–2 px taller. The paragraph's own line (its strut) is therefore
        // set in the face of most of its text, and runs in other faces no larger than it
        // (`run` gives them no line height) do not stretch it.
        if let Some(Some(font)) = face {
            let stack = font_stack(font, &self.opts.fonts);
            if !stack.is_empty() {
                let _ = write!(style, ";font-family:{stack}");
            }
        }
        self.line = face.map(|f| (f.map(str::to_owned), strut_size));
        self.out.push_str(&style);
        self.out.push_str("\">");
        if let Some(b) = &p.bullet {
            let mut bs = format!("font-size:{}", len(b.size));
            if let Some(c) = &b.color {
                let _ = write!(bs, ";color:{}", css_color(c));
            }
            if let Some(f) = b
                .font
                .as_deref()
                .map(|f| font_stack(f, &self.opts.fonts))
                .filter(|s| !s.is_empty())
            {
                let _ = write!(bs, ";font-family:{f}");
            }
            if p.indent < 0 {
                let _ = write!(bs, ";min-width:{}", len(-p.indent as f64 / EMU_PER_POINT));
            } else {
                bs.push_str(";padding-right:0.5em");
            }
            // The bullet and a word joiner in a box that does not wrap: the first word
            // stays beside the bullet and, when wider than the line, is broken there as
            // PowerPoint breaks it. CSS allows a break after any inline block (a word
            // joiner beside it alone does not stop that), which left the bullet alone
            // on its line above the word in narrow cells.
            let _ = write!(
                self.out,
                "<span class=\"pptx-bu-keep\"><span class=\"pptx-bu\" style=\"{bs}\">"
            );
            escape_into(&mut self.out, &b.text);
            self.out.push_str("</span>\u{2060}</span>");
        }
        let has_text = p.runs.iter().any(|r| !r.text.is_empty());
        if tabs::has_tabs(p) {
            self.tabbed_runs(p);
        } else {
            for r in &p.runs {
                self.run(r);
            }
        }
        // Keeps an empty paragraph one line tall, and keeps the empty line a break at the
        // end of a paragraph opens (a `<br>` ending a block opens none in HTML).
        if !has_text || p.runs.last().is_some_and(|r| r.kind == RunKind::Break) {
            self.out.push_str("<br>");
        }
        self.out.push_str("</p>");
    }

    /// The runs of a paragraph with tabs: per tab a box from the previous stop to the one
    /// the tab reaches (`tabs.rs` picks it), holding the text before the tab and, for a
    /// right, centred or decimal stop, the text after it at the box's end.
    fn tabbed_runs(&mut self, p: &Paragraph) {
        // A bullet that does not hang takes its text's width plus the half-em gap.
        let bullet_width = p.bullet.as_ref().map_or(0.0, |b| {
            let em = self
                .opts
                .fonts
                .text_width_em(b.font.as_deref(), false, &b.text)
                .unwrap_or(0.6 * b.text.chars().count() as f64);
            b.size * em + b.size * 0.5
        });
        let lines = tabs::lines(p, &self.opts.fonts, bullet_width);
        for line in &lines {
            let mut consumed = 0;
            for (k, &(align, width)) in line.stops.iter().enumerate() {
                let (class, prop) = match align {
                    TabAlign::Left => ("pptx-tabbox", "min-width"),
                    _ => ("pptx-tabbox pptx-tabbox-to", "width"),
                };
                let _ = write!(
                    self.out,
                    "<span class=\"{class}\" style=\"{prop}:{}\">",
                    len(width)
                );
                if consumed <= k {
                    self.out.push_str("<span class=\"pptx-tabseg\">");
                    self.pieces(p, &line.segments[k]);
                    self.out.push_str("</span>");
                }
                consumed = k + 1;
                self.out.push_str("<span class=\"pptx-tab\">\t</span>");
                match align {
                    TabAlign::Left => {}
                    TabAlign::Right | TabAlign::Center => {
                        let class = if align == TabAlign::Center {
                            "pptx-tab-center"
                        } else {
                            "pptx-tab-end"
                        };
                        let _ = write!(self.out, "<span class=\"{class}\">");
                        self.pieces(p, &line.segments[k + 1]);
                        self.out.push_str("</span>");
                        consumed = k + 2;
                    }
                    TabAlign::Decimal => {
                        let segment = &line.segments[k + 1];
                        let (head, tail) = tabs::split_decimal(p, segment)
                            .unwrap_or_else(|| (segment.clone(), Vec::new()));
                        self.out.push_str("<span class=\"pptx-tab-end\">");
                        self.pieces(p, &head);
                        self.out.push_str("</span></span>");
                        self.pieces(p, &tail);
                        consumed = k + 2;
                        continue;
                    }
                }
                self.out.push_str("</span>");
            }
            // The text after the line's last stop (and, past the tabs laid out, the rest
            // of the line with its tabs as they are).
            for (k, segment) in line.segments.iter().enumerate().skip(consumed) {
                if k > consumed {
                    self.out.push('\t');
                }
                self.pieces(p, segment);
            }
            if line.broken {
                self.out.push_str("<br>");
            }
        }
    }

    fn pieces(&mut self, p: &Paragraph, pieces: &[tabs::Piece]) {
        for piece in pieces {
            let r = &p.runs[piece.run];
            self.run_text(r, &r.text[piece.text.clone()]);
        }
    }

    fn run(&mut self, r: &Run) {
        if r.kind == RunKind::Break {
            self.out.push_str("<br>");
            return;
        }
        self.run_text(r, &r.text);
    }

    /// A run, or a piece of its text.
    fn run_text(&mut self, r: &Run, text: &str) {
        if text.is_empty() {
            return;
        }
        let link = r.link.as_ref().map(|l| self.link_open(l, false));
        if let Some(open) = &link {
            self.out.push_str(open);
        }
        let mut s = format!("font-size:{};color:{}", len(r.size), css_color(&r.color));
        if let Some(f) = r
            .font
            .as_deref()
            .map(|f| font_stack(f, &self.opts.fonts))
            .filter(|s| !s.is_empty())
        {
            let _ = write!(s, ";font-family:{f}");
        }
        if let Some((face, size)) = &self.line {
            if r.font.is_none() && face.is_some() {
                let _ = write!(s, ";font-family:{STAGE_FONT}");
            }
            if r.font != *face && r.size <= size + 0.01 && r.baseline == 0.0 {
                s.push_str(";line-height:0");
            }
        }
        if r.bold {
            s.push_str(";font-weight:bold");
        }
        if r.italic {
            s.push_str(";font-style:italic");
        }
        let mut deco = Vec::new();
        if r.underline.is_some() {
            deco.push("underline");
        }
        if r.strike.is_some() {
            deco.push("line-through");
        }
        if !deco.is_empty() {
            let _ = write!(s, ";text-decoration:{}", deco.join(" "));
            if r.underline.as_deref() == Some("dbl") || r.strike.as_deref() == Some("dblStrike") {
                s.push_str(" double");
            }
        }
        if r.baseline != 0.0 {
            let _ = write!(
                s,
                ";vertical-align:{}%;font-size:{}",
                n(r.baseline),
                len(r.size * 2.0 / 3.0)
            );
        }
        match r.caps.as_deref() {
            Some("all") => s.push_str(";text-transform:uppercase"),
            Some("small") => s.push_str(";font-variant:small-caps"),
            _ => {}
        }
        if r.spacing != 0.0 {
            let _ = write!(s, ";letter-spacing:{}", len(r.spacing));
        }
        if let Some(h) = &r.highlight {
            let _ = write!(s, ";background:{}", css_color(h));
        }
        if let Some(sh) = &r.shadow {
            // A text-shadow's blur radius is read as twice the standard deviation, as
            // `blurRad` is.
            let _ = write!(
                s,
                ";text-shadow:{} {} {} {}",
                len(sh.dx / EMU_PER_POINT),
                len(sh.dy / EMU_PER_POINT),
                len(sh.blur / EMU_PER_POINT),
                css_color(&sh.color)
            );
        }
        let _ = write!(self.out, "<span style=\"{s}\">");
        escape_into(&mut self.out, text);
        self.out.push_str("</span>");
        if link.is_some() {
            self.out.push_str("</a>");
        }
    }

    // ----- tables ----------------------------------------------------------------------

    fn table(&mut self, t: &Table) {
        let total: i64 = t.columns.iter().sum();
        let _ = write!(
            self.out,
            "<table class=\"pptx-tbl\" style=\"width:{}\"><colgroup>",
            len(total as f64 / EMU_PER_POINT)
        );
        for c in &t.columns {
            let _ = write!(
                self.out,
                "<col style=\"width:{}\">",
                len(*c as f64 / EMU_PER_POINT)
            );
        }
        self.out.push_str("</colgroup>");
        for (ri, row) in t.rows.iter().enumerate() {
            let _ = write!(
                self.out,
                "<tr style=\"height:{}\">",
                len(row.height as f64 / EMU_PER_POINT)
            );
            for (ci, cell) in row.cells.iter().enumerate() {
                if cell.merged {
                    continue;
                }
                self.out.push_str("<td");
                if cell.col_span > 1 {
                    let _ = write!(self.out, " colspan=\"{}\"", cell.col_span);
                }
                if cell.row_span > 1 {
                    let _ = write!(self.out, " rowspan=\"{}\"", cell.row_span);
                }
                let mut style = String::new();
                // PowerPoint centres borders on the grid lines and keeps a row as tall as
                // stored while its text fits. A collapsed CSS border puts half its width
                // inside each cell it separates, on top of the padding, so the margins
                // give that half back.
                let half = collapsed_half_borders(t, ri, ci);
                let [l, tp, r, b] = cell.text.insets.map(|v| v as f64 / EMU_PER_POINT);
                let _ = write!(
                    style,
                    "padding:{} {} {} {};",
                    len((tp - half[1]).max(0.0)),
                    len((r - half[2]).max(0.0)),
                    len((b - half[3]).max(0.0)),
                    len((l - half[0]).max(0.0))
                );
                style.push_str(match cell.text.anchor {
                    VerticalAnchor::Top => "vertical-align:top;",
                    VerticalAnchor::Middle => "vertical-align:middle;",
                    VerticalAnchor::Bottom => "vertical-align:bottom;",
                });
                match &cell.fill {
                    Fill::None => {}
                    Fill::Solid { color } => {
                        let _ = write!(style, "background:{};", css_color(color));
                    }
                    other => {
                        let css = background_css(other, self);
                        style.push_str(&css);
                    }
                }
                for (side, b) in ["left", "top", "right", "bottom"].iter().zip(&cell.borders) {
                    if let Some(b) = b {
                        let _ = write!(
                            style,
                            "border-{side}:{} {} {};",
                            len(border_width(b)),
                            if b.dash == "solid" { "solid" } else { "dashed" },
                            css_color(&b.color)
                        );
                    }
                }
                let _ = write!(self.out, " style=\"{style}\">");
                // Vertical text (`a:tcPr/@vert`) turns inside the cell, which grows to
                // its length as PowerPoint's does.
                let turn = vertical_css(&cell.text.vertical);
                if let Some(css) = turn {
                    let _ = write!(self.out, "<div style=\"{css}\">");
                }
                let last = cell.text.paragraphs.len().saturating_sub(1);
                for (i, p) in cell.text.paragraphs.iter().enumerate() {
                    self.paragraph(p, i == 0, i == last);
                }
                if turn.is_some() {
                    self.out.push_str("</div>");
                }
                self.out.push_str("</td>");
            }
            self.out.push_str("</tr>");
        }
        self.out.push_str("</table>");
    }

    // ----- charts ----------------------------------------------------------------------

    fn chart(&mut self, c: &Chart, f: &Frame) {
        let w = f.width as f64 / EMU_PER_POINT;
        let h = f.height as f64 / EMU_PER_POINT;
        // The chart's text is set in its own typeface (the theme's body font unless the
        // part names one), through the same resolver as the slide's text.
        let stack = font_stack(&c.font, &self.opts.fonts);
        // Labels, legends and axis room measured in that face (the font plan's advances).
        let fonts = &self.opts.fonts;
        let measure = |t: &str| fonts.text_width_em(Some(&c.font), false, t);
        let measure = crate::office::chart::Measure(&measure);
        super::chart::chart_html(&mut self.out, c, (w, h), &stack, Some(measure));
    }
}

/// The CSS that turns text of direction `vertical` (`a:bodyPr/@vert`, `a:tcPr/@vert`):
/// `vert` and the East Asian kinds run top to bottom, `vert270` bottom to top; `None` for
/// horizontal text.
fn vertical_css(vertical: &str) -> Option<&'static str> {
    match vertical {
        "vert" | "eaVert" | "wordArtVert" | "mongolianVert" | "wordArtVertRtl" => {
            Some("writing-mode:vertical-rl")
        }
        "vert270" => Some("writing-mode:vertical-rl;transform:rotate(180deg)"),
        _ => None,
    }
}

/// A URL made safe inside a CSS string: quotes, backslashes and line breaks encoded.
fn css_url(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    for c in url.chars() {
        match c {
            '"' => out.push_str("%22"),
            '\'' => out.push_str("%27"),
            '\\' => out.push_str("%5C"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// An attribute value escaped.
fn attr(v: &str) -> String {
    crate::markup::escape(v)
}

/// CSS declarations painting a fill as a background.
fn background_css(fill: &Fill, r: &Renderer<'_, '_>) -> String {
    match fill {
        Fill::None => "background:transparent".to_owned(),
        Fill::Solid { color } => format!("background:{}", css_color(color)),
        Fill::Pattern {
            preset,
            foreground,
            background,
        } => format!(
            "background:{}",
            css_color(&mix(background, foreground, pattern_share(preset)))
        ),
        Fill::Gradient(g) => {
            let stops = g
                .stops
                .iter()
                .map(|s| format!("{} {}%", css_color(&s.color), n(s.position * 100.0)))
                .collect::<Vec<_>>()
                .join(",");
            match g.kind {
                // DrawingML angles run clockwise from "towards the right"; CSS angles
                // clockwise from "towards the top".
                GradientKind::Linear { angle } => {
                    format!("background:linear-gradient({}deg,{stops})", n(angle + 90.0))
                }
                GradientKind::Radial { cx, cy } => format!(
                    "background:radial-gradient(circle at {}% {}%,{stops})",
                    n(cx * 100.0),
                    n(cy * 100.0)
                ),
                // Approximation under the SVG layer `needs_svg` asks for (table cells
                // keep it): an ellipse around the focus.
                GradientKind::Rect {
                    left,
                    top,
                    right,
                    bottom,
                } => format!(
                    "background:radial-gradient(farthest-corner at {}% {}%,{stops})",
                    n((left + right) * 50.0),
                    n((top + bottom) * 50.0)
                ),
            }
        }
        Fill::Picture { source, tile, .. } => match r.image_url(source) {
            Some(url) => format!(
                "background:#fff url(&quot;{}&quot;) {}",
                attr(&css_url(&url)),
                if tile.is_some() {
                    "repeat"
                } else {
                    "center/100% 100% no-repeat"
                }
            ),
            None => "background:#fff".to_owned(),
        },
    }
}

/// Whether a slide background needs an SVG layer: CSS draws solid colours, linear and
/// circular gradients, plain stretched pictures and blended patterns itself.
fn needs_svg(fill: &Fill) -> bool {
    match fill {
        Fill::Gradient(g) => matches!(g.kind, GradientKind::Rect { .. }),
        Fill::Pattern { preset, .. } => paint::pattern_bits(preset).is_some(),
        Fill::Picture {
            tile,
            stretch,
            duotone,
            crop,
            alpha,
            ..
        } => {
            tile.is_some()
                || duotone.is_some()
                || alpha.is_some()
                || !stretch.is_empty()
                || !crop.is_empty()
        }
        _ => false,
    }
}

/// An SVG dash array for a DrawingML preset dash, in multiples of the line width.
fn dash_array(dash: &str, lw: f64) -> Option<String> {
    let pattern: &[f64] = match dash {
        "dot" | "sysDot" => &[1.0, 1.0],
        "dash" | "sysDash" => &[3.0, 1.0],
        "lgDash" => &[8.0, 3.0],
        "dashDot" | "sysDashDot" => &[4.0, 3.0, 1.0, 3.0],
        "lgDashDot" => &[8.0, 3.0, 1.0, 3.0],
        "lgDashDotDot" | "sysDashDotDot" => &[8.0, 3.0, 1.0, 3.0, 1.0, 3.0],
        _ => return None,
    };
    Some(
        pattern
            .iter()
            .map(|v| n(v * lw))
            .collect::<Vec<_>>()
            .join(" "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        assert_eq!(n(1.0), "1");
        assert_eq!(n(0.12345), "0.123");
        assert_eq!(n(-0.0001), "0");
        assert_eq!(n(f64::NAN), "0");
        assert_eq!(pt(12_700), "1");
    }

    #[test]
    fn font_names_cannot_escape_css() {
        let plan = crate::office::fonts::FontPlan::default();
        assert_eq!(
            font_stack("Arial');x:url(y", &plan),
            "'Arialxurly','Liberation Sans',sans-serif"
        );
        assert_eq!(
            font_stack("Calibri", &plan),
            "'pptx-calibri','Carlito','Calibri','Liberation Sans',sans-serif".to_owned()
        );
        assert_eq!(font_stack("';", &plan), "");
    }

    #[test]
    fn dashes_scale_with_width() {
        assert_eq!(dash_array("dash", 2.0).as_deref(), Some("6 2"));
        assert_eq!(dash_array("solid", 2.0), None);
    }
}
