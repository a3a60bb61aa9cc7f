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

use super::geometry::{arrow_head, shape_paths, SubPath};
use super::model::{
    Align, AutoShape, Chart, Color, Embedded, Fill, Frame, Geometry, GradientKind, ImageSource,
    Line, Link, MediaPart, Paragraph, Picture, Presentation, Run, RunKind, Shape, ShapeKind, Slide,
    Spacing, Table, TextBody, VerticalAnchor, EMU_PER_POINT,
};

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
        match &s.kind {
            ShapeKind::Shape(a) => self.auto_shape(a, f),
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
        if has_fill || a.line.is_some() {
            self.geometry_svg(&a.geometry, &a.fill, a.line.as_ref(), f);
        }
        if let Some(t) = &a.text {
            self.text_body(t);
        }
    }

    /// The SVG drawing a geometry with a fill and an outline.
    fn geometry_svg(&mut self, geometry: &Geometry, fill: &Fill, line: Option<&Line>, f: &Frame) {
        let w = f.width as f64 / EMU_PER_POINT;
        let h = f.height as f64 / EMU_PER_POINT;
        let lw = line.map_or(0.0, |l| (l.width as f64 / EMU_PER_POINT).max(0.0));
        let heads = line.is_some_and(|l| l.head.is_some() || l.tail.is_some());
        // Room around the box for the stroke and arrow heads.
        let m = (lw * if heads { 4.0 } else { 1.0 }).max(1.0) + 1.0;
        let paths = shape_paths(geometry, w, h);
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
        let fill_attr = self.svg_fill(fill, w, h, &paths);
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
        for p in &paths {
            let fill_here = if p.fill { fill_attr.as_str() } else { "none" };
            let stroke_here = if p.stroke { stroke.as_str() } else { "none" };
            if fill_here == "none" && stroke_here == "none" {
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
            self.arrow_heads(l, &paths, lw.max(0.75));
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
    fn svg_fill(&mut self, fill: &Fill, w: f64, h: f64, paths: &[SubPath]) -> String {
        match fill {
            Fill::None => "none".to_owned(),
            Fill::Solid { color } => css_color(color),
            Fill::Pattern {
                preset,
                foreground,
                background,
            } => css_color(&mix(background, foreground, pattern_share(preset))),
            Fill::Gradient(g) => {
                let id = self.fresh_id("g");
                let stops = g
                    .stops
                    .iter()
                    .map(|s| {
                        format!(
                            "<stop offset=\"{}\" stop-color=\"{}\"{}/>",
                            n(s.position),
                            css_color(&Color {
                                alpha: 1.0,
                                ..s.color
                            }),
                            if s.color.alpha < 0.999 {
                                format!(" stop-opacity=\"{}\"", n(f64::from(s.color.alpha)))
                            } else {
                                String::new()
                            }
                        )
                    })
                    .collect::<String>();
                match g.kind {
                    GradientKind::Linear { angle } => {
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
                        let _ = write!(
                            self.out,
                            "<defs><radialGradient id=\"{id}\" cx=\"{}\" cy=\"{}\" r=\"0.75\">{stops}</radialGradient></defs>",
                            n(cx),
                            n(cy)
                        );
                    }
                }
                format!("url(#{id})")
            }
            Fill::Picture { source, crop, .. } => {
                let Some(url) = self.image_url(source) else {
                    return "#D9D9D9".to_owned();
                };
                // Clip the picture to the outline, then paint nothing else.
                let id = self.fresh_id("c");
                let cw = (1.0 - crop.left - crop.right).max(0.01);
                let ch = (1.0 - crop.top - crop.bottom).max(0.01);
                let _ = write!(self.out, "<defs><clipPath id=\"{id}\">");
                for p in paths.iter().filter(|p| p.fill) {
                    let _ = write!(self.out, "<path d=\"{}\"/>", p.d);
                }
                let _ = write!(
                    self.out,
                    "</clipPath></defs><image href=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" preserveAspectRatio=\"none\" clip-path=\"url(#{id})\"/>",
                    attr(&url),
                    n(-crop.left / cw * w),
                    n(-crop.top / ch * h),
                    n(w / cw),
                    n(h / ch)
                );
                "none".to_owned()
            }
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
                    tile: false,
                };
                self.geometry_svg(&p.geometry, &fill, p.line.as_ref(), f);
                return;
            }
            Some(url) => {
                let cw = (1.0 - p.crop.left - p.crop.right).max(0.01);
                let ch = (1.0 - p.crop.top - p.crop.bottom).max(0.01);
                self.out.push_str("<div class=\"pptx-pic\"");
                if f.flip_h || f.flip_v {
                    let _ = write!(
                        self.out,
                        " style=\"transform:scale({},{})\"",
                        if f.flip_h { -1 } else { 1 },
                        if f.flip_v { -1 } else { 1 }
                    );
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

    fn text_body(&mut self, t: &TextBody) {
        let [l, top, r, b] = t.insets;
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
        match t.vertical.as_str() {
            "vert" | "eaVert" | "wordArtVert" | "mongolianVert" | "wordArtVertRtl" => {
                self.out.push_str(";writing-mode:vertical-rl");
            }
            "vert270" => self
                .out
                .push_str(";writing-mode:vertical-rl;transform:rotate(180deg)"),
            _ => {}
        }
        if t.rotation != 0.0 {
            let _ = write!(self.out, ";transform:rotate({}deg)", n(t.rotation));
        }
        if t.columns > 1 {
            let _ = write!(self.out, ";column-count:{}", t.columns);
        }
        self.out.push_str("\">");
        for (i, p) in t.paragraphs.iter().enumerate() {
            self.paragraph(p, i == 0);
        }
        self.out.push_str("</div>");
    }

    fn paragraph(&mut self, p: &Paragraph, first: bool) {
        let first_size = p
            .runs
            .iter()
            .find(|r| r.kind != RunKind::Break)
            .map_or(p.end_size, |r| r.size);
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
        if p.margin_left != 0 {
            let _ = write!(
                style,
                "padding-{}:{};",
                if p.rtl { "right" } else { "left" },
                len(p.margin_left as f64 / EMU_PER_POINT)
            );
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
        let after = spacing(&p.space_after);
        if after > 0.0 {
            let _ = write!(style, "margin-bottom:{};", len(after));
        }
        match p.line_spacing {
            Spacing::Percent(pc) if (pc - 100.0).abs() > 0.01 => {
                let _ = write!(style, "line-height:{};", n(1.2 * pc / 100.0));
            }
            Spacing::Points(v) => {
                let _ = write!(style, "line-height:{};", len(v));
            }
            _ => {}
        }
        let _ = write!(style, "font-size:{}", len(first_size));
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
            let _ = write!(self.out, "<span class=\"pptx-bu\" style=\"{bs}\">");
            escape_into(&mut self.out, &b.text);
            self.out.push_str("</span>");
        }
        let has_text = p.runs.iter().any(|r| !r.text.is_empty());
        for r in &p.runs {
            self.run(r);
        }
        if !has_text {
            // Keeps an empty paragraph one line tall.
            self.out.push_str("<br>");
        }
        self.out.push_str("</p>");
    }

    fn run(&mut self, r: &Run) {
        if r.kind == RunKind::Break {
            self.out.push_str("<br>");
            return;
        }
        if r.text.is_empty() {
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
        let _ = write!(self.out, "<span style=\"{s}\">");
        escape_into(&mut self.out, &r.text);
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
        for row in &t.rows {
            let _ = write!(
                self.out,
                "<tr style=\"height:{}\">",
                len(row.height as f64 / EMU_PER_POINT)
            );
            for cell in &row.cells {
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
                let [l, tp, r, b] = cell.text.insets;
                let _ = write!(
                    style,
                    "padding:{} {} {} {};",
                    len(tp as f64 / EMU_PER_POINT),
                    len(r as f64 / EMU_PER_POINT),
                    len(b as f64 / EMU_PER_POINT),
                    len(l as f64 / EMU_PER_POINT)
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
                            len((b.width as f64 / EMU_PER_POINT).max(0.5)),
                            if b.dash == "solid" { "solid" } else { "dashed" },
                            css_color(&b.color)
                        );
                    }
                }
                let _ = write!(self.out, " style=\"{style}\">");
                for (i, p) in cell.text.paragraphs.iter().enumerate() {
                    self.paragraph(p, i == 0);
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
        let kind = c.chart_types.first().map_or("chart", String::as_str);
        let label = format!(
            "{} chart{}",
            capitalise(kind),
            if c.chart_types.len() > 1 {
                " (combined)"
            } else {
                ""
            }
        );
        self.out
            .push_str("<div class=\"pptx-chart\" role=\"img\" aria-label=\"");
        escape_into(&mut self.out, &label);
        if let Some(t) = &c.title {
            self.out.push_str(": ");
            escape_into(&mut self.out, t);
        }
        self.out.push_str("\">");
        if let Some(t) = &c.title {
            self.out.push_str("<div class=\"pptx-chart-title\">");
            escape_into(&mut self.out, t);
            self.out.push_str("</div>");
        }
        let drawn = self.chart_svg(c, kind, w, h - if c.title.is_some() { 24.0 } else { 0.0 });
        // A drawn chart names its type in its tooltip and label; one that cannot be drawn
        // is a placeholder saying what it is.
        if !drawn {
            self.out.push_str("<div class=\"pptx-ph\"><strong>");
            escape_into(&mut self.out, &label);
            self.out.push_str("</strong></div>");
        }
        self.out.push_str("</div>");
    }

    /// A plain drawing of column, bar, line, area and pie charts from cached values, with
    /// the value axis (labels, gridlines), the category labels and the legend where the
    /// chart has them, their text at the chart's own sizes.
    fn chart_svg(&mut self, c: &Chart, kind: &str, w: f64, h: f64) -> bool {
        let points = c.series.iter().map(|s| s.values.len()).max().unwrap_or(0);
        if points == 0 || w < 10.0 || h < 10.0 {
            return false;
        }
        let values = || {
            c.series
                .iter()
                .flat_map(|s| s.values.iter().flatten().copied())
        };
        let pie = matches!(kind, "pie" | "doughnut");
        let horizontal = kind == "bar";
        let color = |i: usize| {
            c.series
                .get(i)
                .and_then(|s| s.color)
                .or_else(|| c.palette.get(i % c.palette.len().max(1)).copied())
                .unwrap_or(Color::rgb(0x4472C4))
        };
        let _ = write!(
            self.out,
            "<svg class=\"pptx-chart-svg\" viewBox=\"0 0 {} {}\" preserveAspectRatio=\"none\" aria-hidden=\"true\">",
            n(w),
            n(h)
        );

        // The legend (only when the chart has one): a column at the side or a row above or
        // below, as `legendPos` says; a pie's legend names its slices.
        let legend: Vec<(&str, Color)> = match &c.legend {
            None => Vec::new(),
            Some(_) if pie => c
                .categories
                .iter()
                .enumerate()
                .map(|(i, name)| {
                    let col = c.palette.get(i % c.palette.len().max(1)).copied();
                    (name.as_str(), col.unwrap_or(Color::rgb(0x4472C4)))
                })
                .collect(),
            Some(_) => c
                .series
                .iter()
                .enumerate()
                .map(|(i, s)| (s.name.as_deref().unwrap_or(""), color(i)))
                .collect(),
        };
        let mut legend: Vec<(&str, Color)> = legend.into_iter().take(24).collect();
        let ls = c.legend.as_ref().map_or(DEFAULT_CHART_TEXT, |l| l.size);
        let pos = c.legend.as_ref().map_or("r", |l| l.position.as_str());
        let key = ls * 0.6;
        let row_h = ls * 1.4;
        let item_w = |name: &str| key + ls * 0.3 + text_width(name, ls) + ls * 0.8;
        let side = !legend.is_empty() && matches!(pos, "r" | "l" | "tr");
        let legend_w = if side {
            legend
                .iter()
                .map(|(name, _)| item_w(name))
                .fold(0.0, f64::max)
                .min(w * 0.4)
        } else {
            0.0
        };
        let legend_h = if legend.is_empty() || side {
            0.0
        } else {
            row_h + ls * 0.3
        };
        // A bar chart stacks its series bottom-up; a legend column lists them in the same
        // order as drawn, top-down.
        if side && horizontal {
            legend.reverse();
        }
        // The box the plot and its axis labels share.
        let bx = if side && pos == "l" { legend_w } else { 0.0 };
        let by = if pos == "t" { legend_h } else { 0.0 };
        let (bw, bh) = (w - legend_w, h - legend_h);

        // Axis labels: values beside (or, for bars, under) the plot, categories under (or,
        // for bars, beside) it.
        let axis = c.value_axis.as_ref().filter(|_| !pie);
        let vs = axis.map_or(DEFAULT_CHART_TEXT, |a| a.size);
        let value_labels = axis.is_some_and(|a| a.labels);
        let cs = c.label_size;
        let labels = !pie && !c.categories.is_empty();
        let category_w = if labels && horizontal {
            (c.categories
                .iter()
                .map(|l| text_width(l, cs))
                .fold(0.0, f64::max)
                + cs * 0.5)
                .min(bw * 0.3)
        } else {
            0.0
        };
        let margin = (bw.min(bh) * 0.04).max(4.0);
        let bottom = if horizontal {
            if value_labels {
                vs * 1.4
            } else {
                0.0
            }
        } else if labels {
            cs * 1.4
        } else {
            0.0
        };
        let py = by + margin;
        let ph = (by + bh - py - bottom - margin * 0.5).max(1.0);
        // The scale: about one interval per two label heights up the value axis (one and a
        // half across it, for bars), as Office spaces its automatic major units.
        let length = if horizontal {
            (bw - category_w - 2.0 * margin) / (vs * 1.5)
        } else {
            ph / (vs * 2.0)
        };
        let scale = AxisScale::new(
            values().fold(0.0_f64, f64::min),
            values().fold(0.0_f64, f64::max),
            length.floor().clamp(2.0, 10.0),
        );
        let (min, span) = (scale.min, (scale.max - scale.min).max(1e-9));
        let ticks = scale.ticks();
        let value_w = if value_labels {
            ticks
                .iter()
                .map(|t| text_width(&general_number(*t), vs))
                .fold(0.0, f64::max)
                + vs * 0.5
        } else {
            0.0
        };
        let left = if horizontal { category_w } else { value_w };
        let px = bx + left.max(margin);
        let pw = (bx + bw - px - margin).max(1.0);
        let y_of = |v: f64| py + ph - (v - min) / span * ph;
        let x_of = |v: f64| px + (v - min) / span * pw;
        match kind {
            "pie" | "doughnut" => {
                let s = &c.series[0];
                let total: f64 = s.values.iter().flatten().map(|v| v.abs()).sum();
                if total <= 0.0 {
                    self.out.push_str("</svg>");
                    return false;
                }
                let (cx, cy, r) = (bx + bw / 2.0, by + bh / 2.0, bw.min(bh) * 0.42);
                let mut a = -90.0_f64;
                for (i, v) in s.values.iter().enumerate() {
                    let v = v.unwrap_or(0.0).abs();
                    let sweep = v / total * 360.0;
                    if sweep <= 0.0 {
                        continue;
                    }
                    let (a0, a1) = (a.to_radians(), (a + sweep).to_radians());
                    let large = i32::from(sweep > 180.0);
                    let fill = c
                        .palette
                        .get(i % c.palette.len().max(1))
                        .copied()
                        .unwrap_or(color(0));
                    if sweep >= 359.99 {
                        let _ = write!(
                            self.out,
                            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"/>",
                            n(cx),
                            n(cy),
                            n(r),
                            css_color(&fill)
                        );
                    } else {
                        let _ = write!(
                            self.out,
                            "<path d=\"M{} {}L{} {}A{} {} 0 {large} 1 {} {}Z\" fill=\"{}\" stroke=\"#fff\" stroke-width=\"1\"/>",
                            n(cx),
                            n(cy),
                            n(cx + r * a0.cos()),
                            n(cy + r * a0.sin()),
                            n(r),
                            n(r),
                            n(cx + r * a1.cos()),
                            n(cy + r * a1.sin()),
                            css_color(&fill)
                        );
                    }
                    a += sweep;
                }
                if kind == "doughnut" {
                    let _ = write!(
                        self.out,
                        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#fff\"/>",
                        n(cx),
                        n(cy),
                        n(r * 0.5)
                    );
                }
            }
            "column" | "bar" | "line" | "area" | "scatter" | "radar" => {
                // Gridlines and value labels first, so the data is drawn over them.
                if let Some(a) = axis {
                    for t in &ticks {
                        let (x, y) = (x_of(*t), y_of(*t));
                        if a.gridlines {
                            let d = if horizontal {
                                format!("M{} {}V{}", n(x), n(py), n(py + ph))
                            } else {
                                format!("M{} {}H{}", n(px), n(y), n(px + pw))
                            };
                            let _ = write!(
                                self.out,
                                "<path d=\"{d}\" fill=\"none\" stroke=\"#D9D9D9\" stroke-width=\"0.75\"/>"
                            );
                        }
                        if a.labels {
                            let (lx, ly, anchor) = if horizontal {
                                (x, py + ph + vs * 1.1, "middle")
                            } else {
                                (px - vs * 0.3, y + vs * 0.35, "end")
                            };
                            self.chart_text(lx, ly, vs, anchor, &general_number(*t));
                        }
                    }
                }
                // Axes.
                let _ = write!(
                    self.out,
                    "<path d=\"M{} {}V{}H{}\" fill=\"none\" stroke=\"#BFBFBF\" stroke-width=\"0.75\"/>",
                    n(px),
                    n(py),
                    n(py + ph),
                    n(px + pw)
                );
                let ns = c.series.len().max(1) as f64;
                let slot = pw / points as f64;
                for (si, s) in c.series.iter().enumerate() {
                    let col = css_color(&color(si));
                    match kind {
                        "column" | "bar" => {
                            for (i, v) in s.values.iter().enumerate() {
                                let Some(v) = v else { continue };
                                if horizontal {
                                    let slot_h = ph / points as f64;
                                    let bh = slot_h * 0.7 / ns;
                                    // Office puts the first category at the bottom
                                    // and, within it, the first series lowest.
                                    let y = py + ph
                                        - slot_h * i as f64
                                        - slot_h * 0.15
                                        - bh * (si + 1) as f64;
                                    let x0 = px + (0.0 - min) / span * pw;
                                    let x1 = px + (v - min) / span * pw;
                                    let _ = write!(
                                        self.out,
                                        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{col}\"/>",
                                        n(x0.min(x1)),
                                        n(y),
                                        n((x1 - x0).abs()),
                                        n(bh)
                                    );
                                } else {
                                    let bw = slot * 0.7 / ns;
                                    let x = px + slot * i as f64 + slot * 0.15 + bw * si as f64;
                                    let (y0, y1) = (y_of(0.0), y_of(*v));
                                    let _ = write!(
                                        self.out,
                                        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{col}\"/>",
                                        n(x),
                                        n(y0.min(y1)),
                                        n(bw),
                                        n((y1 - y0).abs())
                                    );
                                }
                            }
                        }
                        _ => {
                            let mut d = String::new();
                            for (i, v) in s.values.iter().enumerate() {
                                let Some(v) = v else { continue };
                                let x = px + slot * (i as f64 + 0.5);
                                let _ = write!(
                                    d,
                                    "{}{} {}",
                                    if d.is_empty() { "M" } else { "L" },
                                    n(x),
                                    n(y_of(*v))
                                );
                            }
                            if d.is_empty() {
                                continue;
                            }
                            if kind == "area" {
                                let _ = write!(
                                    self.out,
                                    "<path d=\"{d}L{} {}L{} {}Z\" fill=\"{col}\" fill-opacity=\"0.8\"/>",
                                    n(px + slot * (points as f64 - 0.5)),
                                    n(y_of(0.0)),
                                    n(px + slot * 0.5),
                                    n(y_of(0.0))
                                );
                            } else {
                                let _ = write!(
                                    self.out,
                                    "<path d=\"{d}\" fill=\"none\" stroke=\"{col}\" stroke-width=\"2\" stroke-linejoin=\"round\"/>"
                                );
                            }
                        }
                    }
                }
            }
            _ => {
                self.out.push_str("</svg>");
                return false;
            }
        }
        if labels {
            let count = c.categories.len().min(points.max(1));
            let slot = if horizontal { ph } else { pw } / count.max(1) as f64;
            // Thin the labels out when they would overlap.
            let need = if horizontal {
                cs * 1.2
            } else {
                c.categories
                    .iter()
                    .take(count)
                    .map(|l| text_width(l, cs))
                    .fold(0.0, f64::max)
                    + cs * 0.2
            };
            let every = (need / slot).ceil().max(1.0) as usize;
            for (i, label) in c.categories.iter().take(count).enumerate() {
                if i % every != 0 {
                    continue;
                }
                let (x, y, anchor) = if horizontal {
                    (
                        px - cs * 0.3,
                        py + ph - slot * (i as f64 + 0.5) + cs * 0.35,
                        "end",
                    )
                } else {
                    (px + slot * (i as f64 + 0.5), py + ph + cs * 1.1, "middle")
                };
                self.chart_text(x, y, cs, anchor, label);
            }
        }
        if !legend.is_empty() {
            let total_h = row_h * legend.len() as f64;
            let total_w: f64 = legend.iter().map(|(name, _)| item_w(name)).sum();
            let mut x = if side {
                if pos == "l" {
                    ls * 0.3
                } else {
                    w - legend_w + ls * 0.3
                }
            } else {
                ((w - total_w) / 2.0).max(2.0)
            };
            let mut y = match pos {
                "tr" => margin,
                "t" => ls * 0.15,
                "b" => h - legend_h + ls * 0.15,
                _ => ((h - total_h) / 2.0).max(0.0),
            };
            for (name, col) in &legend {
                let _ = write!(
                    self.out,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                    n(x),
                    n(y + (row_h - key) / 2.0),
                    n(key),
                    n(key),
                    css_color(col)
                );
                self.chart_text(
                    x + key + ls * 0.3,
                    y + row_h / 2.0 + ls * 0.35,
                    ls,
                    "start",
                    name,
                );
                if side {
                    y += row_h;
                } else {
                    x += item_w(name);
                }
            }
        }
        self.out.push_str("</svg>");
        true
    }

    /// One label of a chart, `size` points high, at most 40 characters.
    fn chart_text(&mut self, x: f64, y: f64, size: f64, anchor: &str, text: &str) {
        let _ = write!(
            self.out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"#595959\" text-anchor=\"{anchor}\">",
            n(x),
            n(y),
            n(size)
        );
        escape_into(&mut self.out, &text.chars().take(40).collect::<String>());
        self.out.push_str("</text>");
    }
}

/// Office's chart text size when the chart sets none, in points.
const DEFAULT_CHART_TEXT: f64 = 10.0;

/// The width of a chart label, estimated: 0.45 em a character (about Calibri's average
/// advance), at most 40 characters.
fn text_width(text: &str, size: f64) -> f64 {
    text.chars().take(40).count() as f64 * size * 0.45
}

/// A value axis's range and major unit, chosen the way Office's automatic scaling does in
/// the common case: zero included, 5 % of the range added beyond the data so a bar never
/// ends on the frame, then the smallest round step (1, 2 or 5 × 10ⁿ) that needs at most
/// `intervals` intervals, the ends on whole steps.
#[derive(Debug, Clone, Copy, PartialEq)]
struct AxisScale {
    min: f64,
    max: f64,
    step: f64,
}

impl AxisScale {
    fn new(lo: f64, hi: f64, intervals: f64) -> AxisScale {
        let (lo, hi) = (lo.min(0.0), hi.max(0.0));
        let range = hi - lo;
        if !range.is_finite() || range <= 0.0 {
            return AxisScale {
                min: 0.0,
                max: 1.0,
                step: 0.2,
            };
        }
        let hi = if hi > 0.0 { hi + range * 0.05 } else { hi };
        let lo = if lo < 0.0 { lo - range * 0.05 } else { lo };
        let rough = (hi - lo) / intervals.max(1.0);
        let magnitude = 10f64.powf(rough.log10().floor());
        let step = magnitude
            * match rough / magnitude {
                r if r <= 1.0 => 1.0,
                r if r <= 2.0 => 2.0,
                r if r <= 5.0 => 5.0,
                _ => 10.0,
            };
        AxisScale {
            min: (lo / step).floor() * step,
            max: (hi / step).ceil() * step,
            step,
        }
    }

    /// The values of the major ticks, from `min` to `max`.
    fn ticks(&self) -> Vec<f64> {
        let count = ((self.max - self.min) / self.step).round().clamp(1.0, 50.0) as usize;
        (0..=count)
            .map(|i| self.min + self.step * i as f64)
            .collect()
    }
}

/// A number as Office's General format shows an axis value: no trailing zeros, no
/// floating-point noise.
fn general_number(v: f64) -> String {
    let s = format!("{:.6}", v);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_owned()
    } else {
        s.to_owned()
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
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
            }
        }
        Fill::Picture { source, tile, .. } => match r.image_url(source) {
            Some(url) => format!(
                "background:#fff url(&quot;{}&quot;) {}",
                attr(&css_url(&url)),
                if *tile {
                    "repeat"
                } else {
                    "center/100% 100% no-repeat"
                }
            ),
            None => "background:#fff".to_owned(),
        },
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
    fn axis_scales_are_round_with_headroom() {
        let scale = |lo, hi, n| {
            let s = AxisScale::new(lo, hi, n);
            (s.min, s.max, s.step)
        };
        // 5 plus 5 % is 5.25: up to 6 in steps of 1 when six intervals fit, of 2 when three.
        assert_eq!(scale(0.0, 5.0, 6.0), (0.0, 6.0, 1.0));
        assert_eq!(scale(0.0, 5.0, 3.0), (0.0, 6.0, 2.0));
        assert_eq!(scale(2.0, 4.3, 5.0), (0.0, 5.0, 1.0));
        assert_eq!(scale(0.0, 870.0, 5.0), (0.0, 1000.0, 200.0));
        assert_eq!(scale(-3.0, 7.0, 5.0), (-5.0, 10.0, 5.0));
        assert_eq!(scale(0.0, 0.0, 5.0), (0.0, 1.0, 0.2));
        assert_eq!(AxisScale::new(0.0, 5.0, 6.0).ticks().len(), 7);
        assert_eq!(general_number(0.1 + 0.2), "0.3");
        assert_eq!(general_number(-0.0), "0");
        assert_eq!(general_number(1_000_000.0), "1000000");
        assert_eq!(general_number(-2.5), "-2.5");
    }

    #[test]
    fn dashes_scale_with_width() {
        assert_eq!(dash_array("dash", 2.0).as_deref(), Some("6 2"));
        assert_eq!(dash_array("solid", 2.0), None);
    }
}
