//! Draws a [`Chart`] as one SVG element, in the chart frame's own points.
//!
//! The output is deterministic (numbers rounded to hundredths; the only ids, of series'
//! gradients, start with the caller's [`SvgOptions::id_prefix`]), all text is escaped, and its size is bounded by the parser's caps on series and points. Text is
//! measured by an estimate from the font size ([`text_width`]) scaled to the drawing
//! typeface ([`font_width_scale`]).
//!
//! Layout, as Office does it in the common case: the title on top, the legend on its
//! side, the plot area in what is left (or where `c:manualLayout` puts it), with room
//! for tick labels. Category labels that do not fit their slot are turned −45°, then
//! −90°; they are never thinned out. 3-D charts are drawn as their 2-D equivalent.

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::markup::escape_into;

use super::dates::DateGrid;
use super::model::{
    Axis, AxisKind, CategoryGroup, Chart, Color, DataLabels, Grouping, LabelBox, LabelPart, Plot,
    PlotKind, Series, TextStyle, TickMark,
};
use super::parse::format_number;
use super::scale::Scale;

/// How the SVG element is marked up.
#[derive(Debug, Clone, Copy)]
pub struct SvgOptions<'a> {
    /// The width in em of a text in the face the page draws the chart in (the document's
    /// font plan), when the caller can measure it; otherwise text is measured with
    /// [`text_width`] scaled by [`font_width_scale`].
    pub measure: Option<Measure<'a>>,
    /// Its `class` attribute.
    pub class: &'a str,
    /// Its `font-family` attribute (a CSS font stack, already safe to quote).
    pub font_family: &'a str,
    /// It fills its container (`width` and `height` of 100 %).
    pub fill_container: bool,
    /// A chart whose plots hold no series at all is drawn as its bare chart area (a slide
    /// shows it so); otherwise there is no SVG and the caller shows a labelled box (a
    /// workbook's chart sheet would be a blank page).
    pub draw_empty: bool,
    /// What its ids start with: unique in the page that holds it (a page of several
    /// charts would otherwise paint one chart's bars with another's gradient).
    pub id_prefix: &'a str,
}

impl Default for SvgOptions<'_> {
    fn default() -> Self {
        SvgOptions {
            class: "chart-svg",
            font_family: "Carlito, Calibri, 'Liberation Sans', Arial, sans-serif",
            fill_container: false,
            draw_empty: false,
            measure: None,
            id_prefix: "chart",
        }
    }
}

/// Measures a text in em in the chart's drawing face; `None` when it cannot.
#[derive(Clone, Copy)]
pub struct Measure<'a>(pub &'a dyn Fn(&str) -> Option<f64>);

impl std::fmt::Debug for Measure<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Measure")
    }
}

/// How wide chart text is drawn: measured in the drawing face when the caller can,
/// else estimated ([`text_width`] times the face's [`font_width_scale`]).
#[derive(Clone, Copy)]
pub(super) struct Width<'a> {
    /// The drawing typeface's width over Calibri's, for the estimate.
    scale: f64,
    face: Option<Measure<'a>>,
}

impl Width<'_> {
    /// The width of `text` at `size` points.
    pub(super) fn of(&self, text: &str, size: f64) -> f64 {
        match self.face.and_then(|m| (m.0)(text)) {
            Some(em) if em.is_finite() && em >= 0.0 => em * size,
            _ => text_width(text, size) * self.scale,
        }
    }
}

/// The accessible name of a chart: its type ("Column chart", "(combined)" for combo
/// charts) and its title.
pub fn accessible_label(c: &Chart) -> String {
    let kind = c.chart_types.first().map_or("chart", String::as_str);
    let mut label = String::new();
    let mut chars = kind.chars();
    if let Some(f) = chars.next() {
        label.extend(f.to_uppercase());
        label.push_str(chars.as_str());
    }
    label.push_str(" chart");
    if c.chart_types.len() > 1 {
        label.push_str(" (combined)");
    }
    if let Some(t) = &c.title {
        label.push_str(": ");
        label.push_str(t);
    }
    label
}

/// Most characters of one label that are drawn.
const MAX_LABEL: usize = 60;
/// Most lines of one data label that are drawn.
pub(super) const MAX_LABEL_LINES: usize = 8;
/// Line height of data-label text, in ems.
pub(super) const LABEL_LINE: f64 = 1.2;
/// The gap between an axis and the labels beside it, in points: 1 mm, whatever the
/// label size (LibreOffice's renderings of PowerPoint charts keep it so; a gap in ems
/// pushes large labels out of a tight manual layout).
pub(super) const LABEL_GAP: f64 = 2.83;
/// Most legend entries drawn.
const MAX_LEGEND: usize = 64;
/// The width of every legend key when a line is among the entries, in points: 8 mm.
const LINE_KEY_W: f64 = 22.68;

/// The SVG of `chart` in a `w` × `h` point frame; `None` when there is nothing to draw
/// (no plot with a drawable type and values), so the caller shows a placeholder.
pub fn render_svg(chart: &Chart, w: f64, h: f64, opts: &SvgOptions<'_>) -> Option<String> {
    if !(w.is_finite() && h.is_finite()) || w < 10.0 || h < 10.0 {
        return None;
    }
    let drawn = drawable(chart);
    let authored_empty = !drawn && opts.draw_empty && empty_as_authored(chart);
    if !drawn && !authored_empty {
        return None;
    }
    let mut svg = Svg {
        out: String::new(),
        wide: Width {
            scale: font_width_scale(opts.font_family),
            face: opts.measure,
        },
        frame: (w, h),
        gradients: Vec::new(),
    };
    let _ = write!(
        svg.out,
        "<svg class=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\"{} preserveAspectRatio=\"none\" font-family=\"{}\" aria-hidden=\"true\">",
        opts.class,
        n(w),
        n(h),
        if opts.fill_container {
            " width=\"100%\" height=\"100%\""
        } else {
            ""
        },
        opts.font_family
    );
    svg.gradients(chart, opts.id_prefix);
    if let Some(bg) = chart.background {
        let _ = write!(
            svg.out,
            "<rect width=\"{}\" height=\"{}\" fill=\"{}\"/>",
            n(w),
            n(h),
            bg.hex()
        );
    }
    // The chart area's outline, inside the frame (a stroke on the edge would be cut in half).
    if let Some((color, width)) = chart.border {
        let _ = write!(
            svg.out,
            "<rect class=\"chart-border\" x=\"{h}\" y=\"{h}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"/>",
            n((w - width).max(0.0)),
            n((h - width).max(0.0)),
            color.hex(),
            n(width),
            h = n(width / 2.0)
        );
    }
    // Margins as LibreOffice lays out PowerPoint's charts (measured on real decks): 2 %
    // of the height above the title (or the plot) and 0.3 % below the legend (at 1.5 %
    // and 0.8 % the gridlines of 18 chart slides sat 2 to 3 px above LibreOffice's), the
    // title's baseline 1.3 title sizes below its top and the plot about 2.1 title sizes
    // below that; the sides keep 2 % of the width (gridlines of nine automatic plots
    // end there in LibreOffice; they ended 2 % earlier), and a legend keeps 3 % of the
    // smaller dimension from what it sits beside.
    let pad = (w.min(h) * 0.03).clamp(3.0, 10.0);
    let side = w * 0.02;
    let (top, bottom) = (h * 0.02, h * 0.003);
    let mut area = Rect {
        x: side,
        y: top,
        w: w - 2.0 * side,
        h: h - top - bottom,
    };
    if let Some(t) = &chart.title {
        let s = &chart.title_style;
        svg.text(w / 2.0, top + s.size * 1.35, s, "middle", None, t);
        let band = (s.size * 2.2).min(area.h * 0.4);
        area.y += band;
        area.h -= band;
    }
    if authored_empty {
        // The chart area as the author left it: its fill and title, no plot.
        svg.out.push_str("</svg>");
        return Some(svg.out);
    }
    let entries = legend_entries(chart);
    if let Some(l) = chart.legend.as_ref().filter(|_| !entries.is_empty()) {
        area = legend(&mut svg, l, &entries, area, pad, w);
    }
    let plot_box = match chart.plot_layout {
        Some(m) => Rect {
            x: m.x * w,
            y: m.y * h,
            w: m.w * w,
            h: m.h * h,
        },
        None => area,
    };
    let inner = chart.plot_layout.is_some_and(|m| m.inner);
    let first = chart.plots.iter().find(|p| p.kind != PlotKind::Other)?;
    match first.kind {
        PlotKind::Pie | PlotKind::Doughnut => {
            super::pie::draw(&mut svg, chart, first, plot_box, inner)
        }
        PlotKind::Radar => radar(&mut svg, chart, first, plot_box),
        PlotKind::Surface => super::contour::draw(&mut svg, chart, first, plot_box),
        PlotKind::Scatter | PlotKind::Bubble => scatter(&mut svg, chart, plot_box, inner),
        _ => cartesian(&mut svg, chart, plot_box, inner),
    }
    svg.out.push_str("</svg>");
    Some(svg.out)
}

/// Whether the chart part was read and its plots, all of drawn types, hold no series at
/// all: a chart the author emptied (`shapecrawler-025_chart`'s doughnut), which
/// PowerPoint shows as its bare chart area. A series without cached values is not this:
/// its data exists but cannot be shown, so the caller's placeholder says so.
fn empty_as_authored(chart: &Chart) -> bool {
    chart.part.is_some()
        && !chart.plots.is_empty()
        && chart
            .plots
            .iter()
            .all(|p| p.kind != PlotKind::Other && p.series.is_empty())
}

/// An axis that is drawn (not deleted).
fn shown(a: Option<&Axis>) -> Option<&Axis> {
    a.filter(|a| !a.deleted)
}

/// Whether any plot has a type that is drawn and at least one value.
fn drawable(chart: &Chart) -> bool {
    chart.plots.iter().any(|p| {
        p.kind != PlotKind::Other
            && p.series
                .iter()
                .any(|s| s.values.iter().any(Option::is_some))
    })
}

/// A rectangle in chart points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Rect {
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) w: f64,
    pub(super) h: f64,
}

/// A number for SVG: at most two decimals, no trailing zeros, 0 for non-finite values.
pub(super) fn n(v: f64) -> String {
    if !v.is_finite() {
        return "0".to_owned();
    }
    let r = (v * 100.0).round() / 100.0;
    if r == 0.0 {
        "0".to_owned()
    } else {
        format!("{r}")
    }
}

/// The estimated width of `text` at `size` points in Calibri: per-character advances
/// close to Calibri's (narrow letters a quarter em, capitals and digits about half, wide
/// letters and CJK more; Cyrillic like the Latin letters of its shapes). Other typefaces
/// scale it by [`font_width_scale`].
pub fn text_width(text: &str, size: f64) -> f64 {
    let em: f64 = text
        .chars()
        .take(MAX_LABEL)
        .map(|c| match c {
            'i' | 'j' | 'l' | 'I' | '.' | ',' | ':' | ';' | '\'' | '!' | '|' => 0.23,
            'f' | 't' | 'r' | ' ' | '(' | ')' | '-' | '[' | ']' => 0.33,
            'm' | 'w' => 0.8,
            'M' | 'W' | '%' | '@' => 0.85,
            '0'..='9' => 0.507,
            c if c.is_ascii_uppercase() => 0.58,
            c if c.is_ascii() => 0.48,
            // Cyrillic: the wide letters (ж м ш щ ы ю ф and their capitals), the narrow
            // г and т, else the widths of Latin capitals and lower case.
            'Ж' | 'М' | 'Ш' | 'Щ' | 'Ы' | 'Ю' | 'Ф' => 0.85,
            'ж' | 'м' | 'ш' | 'щ' | 'ы' | 'ю' | 'ф' => 0.7,
            'г' | 'т' => 0.37,
            '\u{410}'..='\u{42F}' => 0.58,
            '\u{430}'..='\u{44F}' => 0.48,
            c if (c as u32) >= 0x2E80 => 1.0,
            _ => 0.55,
        })
        .sum();
    em * size
}

/// How much wider than Calibri the first typeface of a CSS font stack that the table
/// knows sets ordinary text (Latin words and figures), so that labels are measured in
/// the font they are drawn in. Faces the table does not know (an embedded face's alias,
/// a font that is not installed and falls through) are skipped; with none known, 1.
/// The ratios are those of the metric-compatible faces a browser substitutes (Carlito,
/// Liberation, DejaVu) over a sample of chart text.
pub fn font_width_scale(stack: &str) -> f64 {
    stack
        .split(',')
        .map(|f| {
            f.trim()
                .trim_matches(|c| c == '\'' || c == '"')
                .to_ascii_lowercase()
        })
        .find_map(|f| match f.as_str() {
            "carlito" | "calibri" => Some(1.0),
            "liberation sans" | "arial" | "arimo" | "helvetica" => Some(1.125),
            "liberation sans narrow" | "arial narrow" => Some(0.92),
            "liberation serif" | "times new roman" | "tinos" => Some(1.01),
            "dejavu sans" | "verdana" => Some(1.26),
            "caladea" | "cambria" => Some(0.96),
            "gelasio" | "georgia" => Some(1.08),
            _ => None,
        })
        .unwrap_or(1.0)
}

/// The SVG being written.
pub(super) struct Svg<'a> {
    pub(super) out: String,
    /// How wide its text is drawn.
    pub(super) wide: Width<'a>,
    /// The chart frame's width and height in points (labels dragged by their author are
    /// offset in fractions of it).
    pub(super) frame: (f64, f64),
    /// The series drawn with a gradient, and its id.
    pub(super) gradients: Vec<(&'a Series, String)>,
}

impl<'a> Svg<'a> {
    /// Defines the gradients of the chart's series, each across the box of the shape it
    /// fills (`objectBoundingBox`), as Office fills each bar with the whole gradient.
    fn gradients(&mut self, chart: &'a Chart, prefix: &str) {
        let series = chart.plots.iter().flat_map(|p| p.series.iter());
        for (k, s) in series.filter(|s| s.gradient.is_some()).enumerate() {
            let Some(g) = &s.gradient else { continue };
            let id = format!("{prefix}-g{k}");
            if self.gradients.is_empty() {
                self.out.push_str("<defs>");
            }
            match g.angle {
                Some(angle) => {
                    let (sin, cos) = angle.to_radians().sin_cos();
                    let _ = write!(
                        self.out,
                        "<linearGradient id=\"{id}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\">",
                        n(0.5 - cos / 2.0),
                        n(0.5 - sin / 2.0),
                        n(0.5 + cos / 2.0),
                        n(0.5 + sin / 2.0)
                    );
                }
                None => {
                    let _ = write!(self.out, "<radialGradient id=\"{id}\">");
                }
            }
            for (pos, c) in &g.stops {
                let _ = write!(
                    self.out,
                    "<stop offset=\"{}\" stop-color=\"{}\"",
                    n(*pos),
                    c.hex()
                );
                if c.alpha < 1.0 {
                    let _ = write!(self.out, " stop-opacity=\"{}\"", n(f64::from(c.alpha)));
                }
                self.out.push_str("/>");
            }
            self.out.push_str(if g.angle.is_some() {
                "</linearGradient>"
            } else {
                "</radialGradient>"
            });
            self.gradients.push((s, id));
        }
        if !self.gradients.is_empty() {
            self.out.push_str("</defs>");
        }
    }

    /// The paint of a shape of series `s` filled with `color`: the series' gradient when
    /// the colour is the series' own (not a point's or a varied one), else the colour.
    pub(super) fn paint(&self, s: &Series, color: Color) -> String {
        match self.gradients.iter().find(|(g, _)| std::ptr::eq(*g, s)) {
            Some((_, id)) if color == s.color => format!("url(#{id})"),
            _ => color.hex(),
        }
    }

    /// One line of text; `rotate` turns it around its anchor point.
    pub(super) fn text(
        &mut self,
        x: f64,
        y: f64,
        s: &TextStyle,
        anchor: &str,
        rotate: Option<f64>,
        t: &str,
    ) {
        let _ = write!(
            self.out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\" text-anchor=\"{anchor}\"",
            n(x),
            n(y),
            n(s.size),
            s.color.hex()
        );
        if s.bold {
            self.out.push_str(" font-weight=\"bold\"");
        }
        if let Some(r) = rotate.filter(|r| *r != 0.0) {
            let _ = write!(
                self.out,
                " transform=\"rotate({} {} {})\"",
                n(r),
                n(x),
                n(y)
            );
        }
        self.out.push('>');
        escape_into(
            &mut self.out,
            &t.chars().take(MAX_LABEL).collect::<String>(),
        );
        self.out.push_str("</text>");
    }

    pub(super) fn rect(
        &mut self,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: Option<Color>,
        line: Option<Color>,
    ) {
        let fill = fill.map_or("none".to_owned(), |c| c.hex());
        self.rect_paint(x, y, w, h, &fill, line);
    }

    /// A rectangle filled with `fill` (a colour or a gradient's `url(#…)`).
    pub(super) fn rect_paint(
        &mut self,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: &str,
        line: Option<Color>,
    ) {
        let _ = write!(
            self.out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\"",
            n(x),
            n(y),
            n(w.max(0.0)),
            n(h.max(0.0)),
        );
        if let Some(l) = line {
            let _ = write!(self.out, " stroke=\"{}\" stroke-width=\"0.75\"", l.hex());
        }
        self.out.push_str("/>");
    }

    /// Gridlines across `rect`: vertical lines at the x positions `at` when `vertical`,
    /// else horizontal ones at those y positions.
    fn grid(&mut self, rect: Rect, vertical: bool, at: impl Iterator<Item = f64>, color: Color) {
        for p in at {
            let d = if vertical {
                format!("M{} {}V{}", n(p), n(rect.y), n(rect.y + rect.h))
            } else {
                format!("M{} {}H{}", n(rect.x), n(p), n(rect.x + rect.w))
            };
            self.line(&d, color, 0.75);
        }
    }

    /// The plot area's own fill and outline (`c:plotArea/c:spPr`), under the gridlines.
    pub(super) fn plot_back(&mut self, chart: &Chart, r: Rect) {
        if chart.plot_fill.is_none() && chart.plot_border.is_none() {
            return;
        }
        let _ = write!(
            self.out,
            "<rect class=\"plot-area\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"",
            n(r.x),
            n(r.y),
            n(r.w.max(0.0)),
            n(r.h.max(0.0)),
            chart.plot_fill.map_or("none".to_owned(), |c| c.hex())
        );
        if let Some((color, width)) = chart.plot_border {
            let _ = write!(
                self.out,
                " stroke=\"{}\" stroke-width=\"{}\"",
                color.hex(),
                n(width)
            );
        }
        self.out.push_str("/>");
    }

    /// A data label over its box: one line with its baseline at `y`, or several (a
    /// separator's line breaks) centred on that line.
    pub(super) fn data_label(&mut self, x: f64, y: f64, l: &DataLabels, anchor: &str, text: &str) {
        let s = &l.text;
        let lines: Vec<&str> = text
            .split('\n')
            .map(|t| t.trim_end_matches('\r'))
            .take(MAX_LABEL_LINES)
            .collect();
        let step = s.size * LABEL_LINE;
        let first = y - step * (lines.len() - 1) as f64 / 2.0;
        if !l.frame.is_empty() {
            let w = lines
                .iter()
                .map(|t| self.wide.of(t, s.size))
                .fold(0.0, f64::max);
            let cx = match anchor {
                "middle" => x,
                "end" => x - w / 2.0,
                _ => x + w / 2.0,
            };
            // A line's middle sits 0.35 em above its baseline.
            let cy = first - s.size * 0.35 + step * (lines.len() - 1) as f64 / 2.0;
            let (ix, iy) = l.frame.inset;
            let h = step * lines.len() as f64;
            self.label_frame(cx, cy, w + 2.0 * ix, h + 2.0 * iy, &l.frame);
        }
        for (k, line) in lines.iter().enumerate() {
            self.text(x, first + step * k as f64, s, anchor, None, line);
        }
    }

    /// A label's box, `w` by `h` points (its insets included) centred on (cx, cy).
    pub(super) fn label_frame(&mut self, cx: f64, cy: f64, w: f64, h: f64, frame: &LabelBox) {
        if frame.is_empty() {
            return;
        }
        self.rect(cx - w / 2.0, cy - h / 2.0, w, h, frame.fill, frame.outline);
    }

    /// How far a label its author dragged moves, in points (`offset` in fractions of
    /// the frame, see [`point_label`]).
    pub(super) fn dragged(&self, offset: Option<(f64, f64)>) -> (f64, f64) {
        offset.map_or((0.0, 0.0), |(x, y)| (x * self.frame.0, y * self.frame.1))
    }

    /// A stroked path.
    pub(super) fn line(&mut self, d: &str, color: Color, width: f64) {
        let _ = write!(
            self.out,
            "<path d=\"{d}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-linejoin=\"round\"/>",
            color.hex(),
            n(width)
        );
    }

    /// A marker of shape `symbol` (`c:symbol`), `size` points across, centred on (x, y).
    fn marker(&mut self, x: f64, y: f64, size: f64, color: Color, symbol: &str) {
        let h = size / 2.0;
        let c = color.hex();
        let poly = |pts: &[(f64, f64)]| {
            let at: Vec<(f64, f64)> = pts.iter().map(|(px, py)| (x + px, y + py)).collect();
            poly_path(&at) + "Z"
        };
        // Strokes of the line-drawn shapes: a sixth of the size, at least a hairline.
        let stroke = (size / 6.0).max(0.75);
        let lines = |d: String| {
            format!(
                "<path class=\"marker\" d=\"{d}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"{}\"/>",
                n(stroke)
            )
        };
        let arm =
            |dx: f64, dy: f64| format!("M{} {}L{} {}", n(x - dx), n(y - dy), n(x + dx), n(y + dy));
        let shape = match symbol {
            "square" => format!(
                "<rect class=\"marker\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{c}\"/>",
                n(x - h),
                n(y - h),
                n(size),
                n(size)
            ),
            "diamond" => format!(
                "<path class=\"marker\" d=\"{}\" fill=\"{c}\"/>",
                poly(&[(0.0, -h), (h, 0.0), (0.0, h), (-h, 0.0)])
            ),
            "triangle" => format!(
                "<path class=\"marker\" d=\"{}\" fill=\"{c}\"/>",
                poly(&[(0.0, -h), (h, h), (-h, h)])
            ),
            "x" => lines(arm(h, h) + &arm(h, -h)),
            "star" => lines(arm(h, h) + &arm(h, -h) + &arm(0.0, h)),
            "plus" => lines(arm(h, 0.0) + &arm(0.0, h)),
            "dash" => format!(
                "<rect class=\"marker\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{c}\"/>",
                n(x - h),
                n(y - size / 8.0),
                n(size),
                n(size / 4.0)
            ),
            "dot" => format!(
                "<circle class=\"marker\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{c}\"/>",
                n(x),
                n(y),
                n(h / 2.0)
            ),
            _ => format!(
                "<circle class=\"marker\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{c}\"/>",
                n(x),
                n(y),
                n(h)
            ),
        };
        self.out.push_str(&shape);
    }
}

// ----- legend ------------------------------------------------------------------------

/// How many columns a row legend of entries `widths` wide takes in `room`: all of them
/// when they fit one row; else the most whose columns (each its widest entry) fit, then
/// as few as still give that number of rows, so the rows are filled evenly.
fn legend_columns(widths: &[f64], room: f64) -> usize {
    let n = widths.len().max(1);
    if widths.iter().sum::<f64>() <= room {
        return n;
    }
    let fits = |c: usize| column_widths(widths, c).iter().sum::<f64>() <= room;
    let most = (1..n).rev().find(|c| fits(*c)).unwrap_or(1);
    let rows = n.div_ceil(most);
    n.div_ceil(rows)
}

/// The widths of `columns` legend columns filled row by row with entries `widths` wide:
/// each its widest entry.
fn column_widths(widths: &[f64], columns: usize) -> Vec<f64> {
    (0..columns)
        .map(|k| {
            widths
                .iter()
                .skip(k)
                .step_by(columns.max(1))
                .fold(0.0, |a, b| f64::max(a, *b))
        })
        .collect()
}

/// A legend entry: its text, colour, whether its key is a line and the marker drawn on
/// that line (size and symbol), as Office keys a series with markers.
struct Entry<'c> {
    label: Cow<'c, str>,
    color: Color,
    /// The series it stands for, whose gradient fills its key.
    series: Option<&'c Series>,
    line: bool,
    marker: Option<(f64, &'c str)>,
}

/// The legend's entries: the points of a pie (or of a one-series plot with varied
/// colours), else the series, minus deleted entries.
fn legend_entries(chart: &Chart) -> Vec<Entry<'_>> {
    let Some(l) = &chart.legend else {
        return Vec::new();
    };
    // A surface's legend lists its value bands.
    if let Some(p) = chart.plots.first().filter(|p| p.kind == PlotKind::Surface) {
        let mut out: Vec<Entry<'_>> = super::contour::legend_entries(chart, p)
            .into_iter()
            .map(|(label, color)| Entry {
                label: Cow::Owned(label),
                color,
                series: None,
                line: false,
                marker: None,
            })
            .collect();
        out.truncate(MAX_LEGEND);
        return out;
    }
    let by_point = chart.plots.first().filter(|p| {
        matches!(p.kind, PlotKind::Pie | PlotKind::Doughnut)
            || (p.vary_colors && p.series.len() == 1 && chart.plots.len() == 1)
    });
    let mut out: Vec<Entry<'_>> = match by_point.and_then(|p| p.series.first().map(|s| (p, s))) {
        Some((_, s)) => s
            .categories
            .iter()
            .enumerate()
            .map(|(i, c)| Entry {
                label: Cow::Borrowed(c.as_str()),
                color: point_color(s, i, true, chart),
                series: None,
                line: false,
                marker: None,
            })
            .collect(),
        None => chart
            .plots
            .iter()
            .filter(|p| p.kind != PlotKind::Other)
            .flat_map(|p| {
                p.series.iter().map(move |s| Entry {
                    label: Cow::Borrowed(s.name.as_deref().unwrap_or("")),
                    color: s.color,
                    series: Some(s),
                    line: matches!(p.kind, PlotKind::Line | PlotKind::Radar)
                        || (p.kind == PlotKind::Scatter && !s.no_line),
                    marker: (s.marker
                        && matches!(p.kind, PlotKind::Line | PlotKind::Radar | PlotKind::Scatter))
                    .then_some((s.marker_size, s.marker_symbol.as_str())),
                })
            })
            .collect(),
    };
    let mut i = 0;
    out.retain(|_| {
        i += 1;
        l.deleted.binary_search(&(i - 1)).is_err()
    });
    // A side legend lists bars and stacks in the order they are drawn, top down.
    let side = matches!(l.position.as_str(), "r" | "l" | "tr");
    let reversed = chart
        .plots
        .first()
        .is_some_and(|p| p.kind == PlotKind::Bar && (p.horizontal || p.grouping.stacks()));
    if side && reversed && by_point.is_none() {
        out.reverse();
    }
    out.truncate(MAX_LEGEND);
    out
}

/// Draws the legend and returns the area left for the plot.
fn legend(
    svg: &mut Svg,
    l: &super::model::Legend,
    entries: &[Entry<'_>],
    area: Rect,
    pad: f64,
    w: f64,
) -> Rect {
    let wide = svg.wide;
    let s = &l.text;
    // LibreOffice's legend metrics, measured on PowerPoint decks at 12 pt: a key 0.6 of
    // the text size high, centred 0.22 size above the baseline, 0.2 size before the
    // text and two thirds of the size after each entry (the keys were 0.7 size, centred
    // on the row, and entries 5 px further apart at 12 pt). Keys are square, but when
    // any entry is a line every key is 8 mm wide, bars' keys too (`shapecrawler-018`).
    let key = s.size * 0.6;
    let any_line = entries.iter().any(|e| e.line);
    let key_w = if any_line { LINE_KEY_W } else { key };
    let (gap, trail) = (s.size * 0.2, s.size * 0.67);
    let row_h = s.size * 1.45;
    let item_w = |e: &Entry<'_>| key_w + gap + wide.of(&e.label, s.size) + trail;
    let draw = |svg: &mut Svg, e: &Entry<'_>, x: f64, y: f64| {
        let mid = y + row_h / 2.0;
        let baseline = mid + s.size * 0.3;
        let centre_y = baseline - s.size * 0.22;
        if e.line {
            svg.line(
                &format!("M{} {}H{}", n(x), n(centre_y), n(x + key_w)),
                e.color,
                s.size * 0.2,
            );
        }
        if let Some((size, symbol)) = e.marker {
            // The series' marker on the middle of its key, no larger than the key.
            let centre = x + key_w / 2.0;
            svg.marker(centre, centre_y, size.min(key), e.color, symbol);
        } else if !e.line {
            let fill = match e.series {
                Some(series) => svg.paint(series, e.color),
                None => e.color.hex(),
            };
            svg.rect_paint(x, centre_y - key / 2.0, key_w, key, &fill, None);
        }
        svg.text(x + key_w + gap, baseline, s, "start", None, &e.label);
    };
    let mut rest = area;
    match l.position.as_str() {
        "t" | "b" => {
            // One row, centred, when the entries fit the chart's width; else a grid of
            // aligned columns (each as wide as its widest entry), as many as fit, with
            // the entries spread evenly over the rows that needs: four entries of which
            // three fit a row are two rows of two, not three and one.
            let widths: Vec<f64> = entries.iter().map(item_w).collect();
            let columns = legend_columns(&widths, area.w);
            let rows: Vec<&[Entry<'_>]> = entries.chunks(columns).collect();
            let col_w = column_widths(&widths, columns);
            let rows = &rows[..rows
                .len()
                .min(((area.h * 0.4) / row_h).floor().max(1.0) as usize)];
            let total_h = row_h * rows.len() as f64;
            let top = if l.position == "t" {
                area.y
            } else {
                area.y + area.h - total_h
            };
            let single = rows.len() == 1;
            for (r, row) in rows.iter().enumerate() {
                // A single row is spaced by its own entries' widths.
                let row_w: f64 = if single {
                    row.iter().map(item_w).sum()
                } else {
                    col_w.iter().sum()
                };
                let mut x = (w - row_w) / 2.0 + trail / 2.0;
                for (c, e) in row.iter().enumerate() {
                    draw(svg, e, x.max(0.0), top + row_h * r as f64);
                    x += if single { item_w(e) } else { col_w[c] };
                }
            }
            // A row legend keeps most of an em from the plot's labels.
            let band = total_h + pad * 0.5 + s.size * 0.5;
            rest.h -= band;
            if l.position == "t" {
                rest.y += band;
            }
        }
        pos => {
            let col_w = entries
                .iter()
                .map(item_w)
                .fold(0.0, f64::max)
                .min(area.w * 0.45);
            let fit = ((area.h / row_h).floor().max(1.0) as usize).min(entries.len());
            let total_h = row_h * fit as f64;
            let x = if pos == "l" {
                area.x
            } else {
                area.x + area.w - col_w + s.size * 0.2
            };
            let y = if pos == "tr" {
                area.y
            } else {
                area.y + (area.h - total_h) / 2.0
            };
            for (i, e) in entries.iter().take(fit).enumerate() {
                draw(svg, e, x, y + row_h * i as f64);
            }
            rest.w -= col_w + pad * 0.5;
            if pos == "l" {
                rest.x += col_w + pad * 0.5;
            }
        }
    }
    rest.w = rest.w.max(1.0);
    rest.h = rest.h.max(1.0);
    rest
}

// ----- colours and labels ------------------------------------------------------------

/// The fill of point `i`: its `c:dPt` colour, else (varied) the accent cycle, else the
/// series colour.
pub(super) fn point_color(s: &Series, i: usize, varied: bool, chart: &Chart) -> Color {
    if let Some(c) = s
        .points
        .binary_search_by_key(&i, |p| p.index)
        .ok()
        .and_then(|k| s.points[k].color)
    {
        return c;
    }
    if varied {
        return chart.varied_color(i);
    }
    s.color
}

impl Chart {
    /// The automatic colour of point `i` of a plot with varied colours.
    fn varied_color(&self, i: usize) -> Color {
        self.palette
            .get(i % self.palette.len().max(1))
            .copied()
            .unwrap_or(Color::rgb(0x4472C4))
    }
}

/// The text of a data label, its parts joined by the labels' separator (Office's
/// default when the part sets none; `share` is given for pie slices only).
pub(super) fn label_text(
    l: &DataLabels,
    s: &Series,
    i: usize,
    v: f64,
    share: Option<f64>,
    category: Option<&str>,
) -> String {
    let series_name = || s.name.clone().unwrap_or_default();
    let category = || category.map_or_else(|| (i + 1).to_string(), str::to_owned);
    let value = || format_number(v, l.format_code.as_deref().or(s.format_code.as_deref()));
    let percent = || {
        share.map(|p| {
            let code = l.format_code.as_deref().filter(|c| c.contains('%'));
            format_number(p, Some(code.unwrap_or("0%")))
        })
    };
    if let Some(custom) = &l.custom {
        return custom
            .iter()
            .map(|part| match part {
                LabelPart::Text(t) => t.clone(),
                LabelPart::Value => value(),
                LabelPart::Category => category(),
                LabelPart::SeriesName => series_name(),
                LabelPart::Percent => percent().unwrap_or_default(),
            })
            .collect();
    }
    let mut parts: Vec<String> = Vec::new();
    if l.series_name {
        parts.push(series_name());
    }
    if l.category {
        parts.push(category());
    }
    if l.value {
        parts.push(value());
    }
    if l.percent {
        parts.extend(percent());
    }
    parts.join(l.separator_or_default(share.is_some()))
}

/// The labels in force for a series: its own, else its plot's.
fn labels_of<'a>(p: &'a Plot, s: &'a Series) -> Option<&'a DataLabels> {
    s.labels.as_ref().or(p.labels.as_ref()).filter(|l| l.any())
}

/// The label of point `i` and where its author dragged it (fractions of the frame):
/// the point's own `c:dLbl` when it has one (`None` when deleted or showing nothing),
/// else its series' or plot's labels.
pub(super) fn point_label<'a>(
    p: &'a Plot,
    s: &'a Series,
    i: usize,
) -> Option<(&'a DataLabels, Option<(f64, f64)>)> {
    match s.point_labels.binary_search_by_key(&i, |l| l.index) {
        Ok(k) => {
            let own = &s.point_labels[k];
            own.labels
                .as_ref()
                .filter(|l| l.any())
                .map(|l| (l, own.offset))
        }
        Err(_) => labels_of(p, s).map(|l| (l, None)),
    }
}

// ----- pie and doughnut --------------------------------------------------------------

/// The slices of a pie: `(point, degrees)` for each point with a non-zero value, the
/// degrees summing to 360 (negative values count by their size, as in Office); empty
/// when there is nothing to share.
pub fn slice_sweeps(values: &[Option<f64>]) -> Vec<(usize, f64)> {
    let total: f64 = values.iter().flatten().map(|v| v.abs()).sum();
    if !(total > 0.0 && total.is_finite()) {
        return Vec::new();
    }
    values
        .iter()
        .enumerate()
        .filter_map(|(i, v)| {
            let v = v.map(f64::abs).filter(|v| *v > 0.0)?;
            Some((i, v / total * 360.0))
        })
        .collect()
}

// ----- category charts: bars, lines, areas -------------------------------------------

/// The stacked (or plain) extent of a plot's values: the lowest and highest value, sum
/// or share it reaches.
fn extent(p: &Plot) -> Option<(f64, f64)> {
    let n = p.series.iter().map(|s| s.values.len()).max().unwrap_or(0);
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    if p.grouping.stacks() {
        for i in 0..n {
            let (mut pos, mut neg, mut abs) = (0.0, 0.0, 0.0);
            for s in &p.series {
                let v = s.values.get(i).copied().flatten().unwrap_or(0.0);
                if v >= 0.0 {
                    pos += v
                } else {
                    neg += v
                }
                abs += v.abs();
            }
            if p.grouping == Grouping::PercentStacked {
                if abs > 0.0 {
                    (pos, neg) = (pos / abs, neg / abs);
                } else {
                    continue;
                }
            }
            lo = lo.min(neg).min(pos);
            hi = hi.max(pos).max(neg);
        }
    } else {
        for v in p.series.iter().flat_map(|s| s.values.iter().flatten()) {
            lo = lo.min(*v);
            hi = hi.max(*v);
        }
    }
    (lo.is_finite() && hi.is_finite()).then_some((lo, hi))
}

/// A value axis with its scale, the plots it measures and where its labels go.
struct ValueScale<'c> {
    axis: Option<&'c Axis>,
    scale: Scale,
    format: Option<String>,
    secondary: bool,
}

/// How many intervals an axis of length `len` has room for, at most ten: one label
/// height per interval up a vertical axis, the widest label and a gap of one em across a
/// horizontal one (`labels` are the texts of its extreme values, measured at `size` in a
/// typeface `wide` times Calibri's). PowerPoint and LibreOffice both stop at about ten
/// intervals and pack them that densely when the axis is short.
fn interval_room(len: f64, across: bool, size: f64, wide: Width<'_>, labels: &[String]) -> f64 {
    let per = if across {
        labels.iter().map(|l| wide.of(l, size)).fold(size, f64::max) + size
    } else {
        size * 1.15
    };
    (len / per).floor().clamp(2.0, 10.0)
}

/// The scale of `axis` (its fixed bounds and unit, when set) over data from `lo` to `hi`.
fn axis_scale(axis: Option<&Axis>, (lo, hi): (f64, f64), intervals: f64, percent: bool) -> Scale {
    Scale::auto(
        lo,
        hi,
        axis.and_then(|a| a.min),
        axis.and_then(|a| a.max),
        axis.and_then(|a| a.major_unit),
        intervals,
        percent,
    )
}

/// Where a value axis is drawn, which sets how many intervals fit on it.
#[derive(Clone, Copy)]
struct AxisRoom<'a> {
    /// Its length in points.
    len: f64,
    /// It runs across (the value axis of bars), so labels stand side by side.
    across: bool,
    /// How wide its labels are drawn.
    wide: Width<'a>,
}

/// The scale of the value axis `id` over the plots measured on it.
fn value_scale<'c>(
    chart: &'c Chart,
    plots: &[&'c Plot],
    id: Option<u32>,
    room: AxisRoom,
    secondary: bool,
) -> ValueScale<'c> {
    let axis = id.and_then(|id| chart.axis(id));
    let mine: Vec<&&Plot> = plots
        .iter()
        .filter(|p| p.axis_ids.get(1).copied() == id || id.is_none())
        .collect();
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in &mine {
        if let Some((a, b)) = extent(p) {
            lo = lo.min(a);
            hi = hi.max(b);
        }
    }
    let percent = mine.iter().any(|p| p.grouping == Grouping::PercentStacked);
    let format = axis
        .and_then(|a| a.format_code.clone())
        .or_else(|| percent.then(|| "0%".to_owned()))
        .or_else(|| {
            mine.iter()
                .flat_map(|p| p.series.iter())
                .find_map(|s| s.format_code.clone())
        });
    let size = axis.map_or(chart.text.size, |a| a.text.size);
    let extremes: Vec<String> = if percent {
        vec![1.0, -1.0]
    } else {
        vec![lo, hi]
    }
    .into_iter()
    .filter(|v| v.is_finite())
    .map(|v| format_number(v, format.as_deref()))
    .collect();
    let scale = axis_scale(
        axis,
        (lo, hi),
        interval_room(room.len, room.across, size, room.wide, &extremes),
        percent,
    );
    ValueScale {
        axis,
        scale,
        format,
        secondary,
    }
}

/// How category labels are turned to fit: level while the widest one fits its slot
/// with a hair of space (PowerPoint and LibreOffice turn them only when neighbours would
/// touch), else −45°, else −90°.
fn label_rotation(slot: f64, widest: f64, size: f64, fixed: Option<f64>) -> f64 {
    if let Some(r) = fixed {
        return r;
    }
    if widest + size * 0.1 <= slot {
        0.0
    } else if slot >= size * 1.45 {
        -45.0
    } else {
        -90.0
    }
}

/// How far left of its category's centre a label turned by `rotation` reaches: its run
/// along the turned baseline, less the nudge right that [`cartesian`] gives turned text.
fn turned_reach(width: f64, size: f64, rotation: f64) -> f64 {
    if rotation == 0.0 {
        return 0.0;
    }
    width * rotation.abs().to_radians().cos() - size * 0.3 * rotation.abs() / 90.0
}

/// The room to add left of a plot `len` wide, whose labels start `left` in, so that no
/// turned category label (each reaching `reach` left of its centre) runs out of the chart.
/// Moving the plot right also narrows its slots; the answer allows for that.
fn turned_overhang(
    labels: &[(usize, &str)],
    count: usize,
    reversed: bool,
    len: f64,
    left: f64,
    reach: impl Fn(&str) -> f64,
) -> f64 {
    let count = count.max(1) as f64;
    labels
        .iter()
        .map(|&(i, c)| {
            let k = if reversed {
                count - 1.0 - i as f64
            } else {
                i as f64
            };
            // left + e + (len - e) * (k + 0.5) / count >= reach
            let share = (k + 0.5) / count;
            let short = reach(c) - left - len * share;
            if short > 0.0 {
                short / (1.0 - share).max(0.05)
            } else {
                0.0
            }
        })
        .fold(0.0, f64::max)
}

/// The length of a major tick mark, in points (Office draws about 4).
const TICK: f64 = 4.0;

/// The room tick marks pointing out of the plot take before an axis's labels.
fn tick_room(a: &Axis) -> f64 {
    match (a.line, a.ticks) {
        (Some(_), TickMark::Out | TickMark::Cross) => TICK,
        _ => 0.0,
    }
}

/// Major tick marks of `kind` on an axis line lying `across` (horizontal: the line runs
/// along x at y = `line`; else along y at x = `line`), one at each of `at`; `out` is the
/// sign of the direction away from the plot.
fn tick_marks(
    svg: &mut Svg,
    kind: TickMark,
    color: Color,
    across: bool,
    line: f64,
    out: f64,
    at: &[f64],
) {
    let (from, to) = match kind {
        TickMark::None => return,
        TickMark::Out => (line, line + out * TICK),
        TickMark::In => (line - out * TICK, line),
        TickMark::Cross => (line - out * TICK, line + out * TICK),
    };
    let mut d = String::new();
    for p in at {
        if across {
            let _ = write!(d, "M{} {}V{}", n(*p), n(from), n(to));
        } else {
            let _ = write!(d, "M{} {}H{}", n(from), n(*p), n(to));
        }
    }
    if !d.is_empty() {
        svg.line(&d, color, 0.75);
    }
}

/// The room to add on the left of a plot and to take off its right so that level labels
/// centred on tick marks (categories on the ticks: the first at the plot's left edge, the
/// last at its right), each `half(label)` wide on either side, stay inside a chart `total`
/// wide; the plot starts `left` in and is `len` wide.
fn edge_label_room(
    labels: &[(usize, &str)],
    count: usize,
    reversed: bool,
    total: f64,
    left: f64,
    len: f64,
    half: impl Fn(&str) -> f64,
) -> (f64, f64) {
    let last = (count.max(2) - 1) as f64;
    let at = |i: usize| {
        let f = i as f64 / last;
        if reversed {
            1.0 - f
        } else {
            f
        }
    };
    // Left first: the plot moves right, keeping its right edge.
    let l = labels
        .iter()
        .map(|&(i, c)| half(c) - (left + len * at(i)))
        .fold(0.0, f64::max);
    let (left, len) = (left + l, len - l);
    // Then its right edge comes in: a label at fraction f moves by f of that.
    let r = labels
        .iter()
        .filter(|&&(i, _)| at(i) > 0.0)
        .map(|&(i, c)| (left + len * at(i) + half(c) - total) / at(i))
        .fold(0.0, f64::max);
    (l, r)
}

/// The band a rotated label needs below the axis.
fn rotated_height(widest: f64, size: f64, rotation: f64) -> f64 {
    let a = rotation.abs().to_radians();
    widest * a.sin() + size * a.cos() + size * 0.4
}

fn cartesian(svg: &mut Svg, chart: &Chart, b: Rect, inner: bool) {
    let wide = svg.wide;
    let plots: Vec<&Plot> = chart
        .plots
        .iter()
        .filter(|p| matches!(p.kind, PlotKind::Bar | PlotKind::Line | PlotKind::Area))
        .collect();
    let Some(first) = plots.first() else { return };
    let cat_axis = first.axis_ids.first().and_then(|id| chart.axis(*id));
    // A date axis places the points by their dates: the plots re-laid on its slots.
    let grid = cat_axis
        .filter(|a| a.kind == AxisKind::Date)
        .and_then(|a| DateGrid::new(a, &plots, chart.date1904));
    let mut plots: Vec<&Plot> = match &grid {
        Some(g) => g.plots.iter().collect(),
        None => plots,
    };
    // An XY series drawn with bars or lines (the dots of a "bar with markers" chart) is
    // placed by category: x = 1 at the first category's centre, as Office places it; a
    // date axis re-lays its plots by date, which XY values have not.
    let categorised = plots.len();
    if grid.is_none() {
        plots.extend(chart.plots.iter().filter(|p| p.kind == PlotKind::Scatter));
    }
    let first = plots[0];
    let horizontal = first.kind == PlotKind::Bar && first.horizontal;
    let count = plots[..categorised]
        .iter()
        .flat_map(|p| p.series.iter())
        .map(|s| s.values.len().max(s.categories.len()))
        .max()
        .unwrap_or(0)
        .max(1);
    let categories: Vec<String> = (0..count)
        .map(|i| {
            plots
                .iter()
                .flat_map(|p| p.series.iter())
                .find_map(|s| s.categories.get(i).filter(|c| !c.is_empty()).cloned())
                .unwrap_or_else(|| {
                    // Without categories Office numbers them.
                    if plots
                        .iter()
                        .any(|p| p.series.iter().any(|s| !s.categories.is_empty()))
                    {
                        String::new()
                    } else {
                        (i + 1).to_string()
                    }
                })
        })
        .collect();
    // Outer category levels (multi-level categories), from the first series that has
    // them, when the axis shows its labels that way.
    let levels: &[Vec<CategoryGroup>] = match shown(cat_axis) {
        Some(a) if a.labels && a.multi_level => plots
            .iter()
            .flat_map(|p| p.series.iter())
            .map(|s| s.category_levels.as_slice())
            .find(|l| !l.is_empty())
            .unwrap_or_default(),
        _ => &[],
    };
    let level_size = cat_axis.map_or(chart.text.size, |a| a.text.size);
    // Each level is a row under the labels of columns, or a column left of the labels of
    // bars, its labels turned to read upwards (as Excel and LibreOffice draw them).
    let level_row = level_size * 1.6;
    let level_widths: Vec<f64> = vec![level_row; levels.len()];
    let primary_id = first.axis_ids.get(1).copied();
    let secondary_id = plots
        .iter()
        .filter_map(|p| p.axis_ids.get(1).copied())
        .find(|id| Some(*id) != primary_id);
    let cat_shown = shown(cat_axis).filter(|a| a.labels);
    let cat_style = cat_axis.map_or(chart.text, |a| a.text);
    let cat_reversed = cat_axis.is_some_and(|a| a.reversed);
    // A deleted axis keeps its title: Office deletes the axis, not the title element
    // inside it (`powertools-CU013`'s "Axis Title" beside a deleted value axis).
    let cat_title = cat_axis.and_then(|a| a.title.as_deref().map(|t| (t, a.title_style)));

    // Value axes: the interval count follows the axis length ([`interval_room`]), first
    // estimated from the plot box, then from the plot rectangle.
    let room = |len: f64| AxisRoom {
        len,
        across: horizontal,
        wide,
    };
    // An inner layout is the plot rectangle itself: its axis is that long. Otherwise the
    // labels take some of the box, about a fifth.
    let value_len_hint = if horizontal { b.w } else { b.h } * if inner { 1.0 } else { 0.8 };
    let mut primary = value_scale(chart, &plots, primary_id, room(value_len_hint), false);
    let secondary =
        secondary_id.map(|id| value_scale(chart, &plots, Some(id), room(value_len_hint), true));
    // The widest tick label of a value axis, and that plus the half size of room Office
    // leaves beside it.
    let tick_text_w = |v: &ValueScale<'_>| {
        shown(v.axis).filter(|a| a.labels).map_or(0.0, |a| {
            v.scale
                .ticks()
                .iter()
                .map(|t| wide.of(&format_number(*t, v.format.as_deref()), a.text.size))
                .fold(0.0, f64::max)
        })
    };
    // Value labels take their widest text and one label gap (not half a label size
    // more: the plot began 3 to 4 px after LibreOffice's).
    let label_w = |v: &ValueScale<'_>| {
        shown(v.axis)
            .filter(|a| a.labels)
            .map_or(0.0, |a| tick_text_w(v) + LABEL_GAP + tick_room(a))
    };
    let title_band = |a: Option<&Axis>| {
        a.and_then(|a| a.title.as_ref().map(|_| a.title_style.size * 1.5))
            .unwrap_or(0.0)
    };

    // A date axis labels its major ticks, not every slot.
    let ticks = grid.as_ref().map(|g| {
        let len = if horizontal { b.h } else { b.w } * 0.9;
        g.ticks(len, &|t| wide.of(t, cat_style.size))
    });
    // The category labels drawn and the slots they are drawn at.
    let cat_labels: Vec<(usize, &str)> = match &ticks {
        Some(t) => t.iter().map(|(i, c)| (*i, c.as_str())).collect(),
        None => categories.iter().map(String::as_str).enumerate().collect(),
    };
    // The room along the axis for one label, of an axis `len` long.
    let label_slot = |len: f64| match ticks.as_deref() {
        Some([a, b, ..]) => len * (b.0 - a.0) as f64 / count as f64,
        Some(_) => len,
        None => len / count as f64,
    };

    // The plot rectangle.
    let widest_cat = cat_labels
        .iter()
        .map(|(_, c)| wide.of(c, cat_style.size))
        .fold(0.0, f64::max);
    let mut rect = b;
    let mut rotation = 0.0;
    if horizontal {
        let left = cat_shown.map_or(0.0, |_| widest_cat.min(b.w * 0.4) + cat_style.size * 0.5)
            + level_widths.iter().sum::<f64>()
            + title_band(cat_axis);
        let vs = shown(primary.axis)
            .filter(|a| a.labels)
            .map_or(0.0, |a| a.text.size * 1.5);
        let bottom = vs + title_band(primary.axis);
        let top = secondary
            .as_ref()
            .and_then(|s| shown(s.axis))
            .map_or(0.0, |a| a.text.size * 1.5);
        if !inner {
            rect = Rect {
                x: b.x + left,
                y: b.y + top,
                w: (b.w - left).max(1.0),
                h: (b.h - bottom - top).max(1.0),
            };
            primary = value_scale(chart, &plots, primary_id, room(rect.w), false);
        }
    } else {
        let mut left = label_w(&primary) + title_band(primary.axis);
        let right = secondary
            .as_ref()
            .map_or(0.0, |s| label_w(s) + title_band(s.axis));
        let mut pw = (b.w - left - right).max(1.0);
        let slot = label_slot(pw);
        let fixed = cat_axis.and_then(|a| a.text.rotation);
        let bottom = match cat_shown {
            Some(_) => {
                rotation = label_rotation(slot, widest_cat, cat_style.size, fixed);
                // A turned label hangs left of its category: where the first ones would
                // run out of the chart, Office moves the plot right rather than cut them.
                let extra = turned_overhang(&cat_labels, count, cat_reversed, pw, left, |c| {
                    turned_reach(wide.of(c, cat_style.size), cat_style.size, rotation)
                });
                if extra > 0.0 && extra < pw * 0.5 {
                    left += extra;
                    pw -= extra;
                }
                // Points on the tick marks put the first and last labels, level, centred
                // on the plot's edges: the plot is narrowed so that they stay in the
                // chart (`powertools-CU017`'s last date was cut).
                let on_ticks = primary.axis.is_some_and(|a| a.mid_category) && count > 1;
                if rotation == 0.0 && on_ticks {
                    let (l, r) =
                        edge_label_room(&cat_labels, count, cat_reversed, b.w, left, pw, |c| {
                            wide.of(c, cat_style.size) / 2.0
                        });
                    if l + r < pw * 0.5 {
                        left += l;
                        pw -= l + r;
                    }
                }
                rotated_height(widest_cat, cat_style.size, rotation).min(b.h * 0.45)
            }
            None => 0.0,
        } + level_row * levels.len() as f64
            + title_band(cat_axis);
        // Room above the plot for half of the top tick's label, whichever text is larger
        // (an 18 pt value axis beside 10 pt categories had its top label cut).
        let value_size = shown(primary.axis)
            .filter(|a| a.labels)
            .map_or(0.0, |a| a.text.size);
        let head = cat_style.size.max(value_size) * 0.5;
        if !inner {
            rect = Rect {
                x: b.x + left,
                y: b.y + head,
                w: pw,
                h: (b.h - bottom - head).max(1.0),
            };
            // Recompute the scale for the real axis length.
            primary = value_scale(chart, &plots, primary_id, room(rect.h), false);
        } else {
            // An inner layout keeps the tick labels outside its rectangle; where they
            // would run out of the chart, Office narrows the plot so that they fit rather
            // than cut them (021's 10000000 % labels beside a plot 0.106 of the width in).
            // The labels start past the tick marks that point out of the plot.
            let ticks = |v: &ValueScale<'_>| shown(v.axis).map_or(0.0, tick_room);
            let left = tick_text_w(&primary) + title_band(primary.axis) + ticks(&primary);
            let right = secondary
                .as_ref()
                .map_or(0.0, |s| tick_text_w(s) + title_band(s.axis) + ticks(s));
            let room_left = left + LABEL_GAP - rect.x;
            if room_left > 0.0 {
                rect.x += room_left;
                rect.w = (rect.w - room_left).max(1.0);
            }
            let room_right = rect.x + rect.w + right + LABEL_GAP - svg.frame.0;
            if secondary.is_some() && room_right > 0.0 {
                rect.w = (rect.w - room_right).max(1.0);
            }
            let slot = label_slot(rect.w);
            rotation = cat_shown.map_or(0.0, |_| {
                label_rotation(slot, widest_cat, cat_style.size, fixed)
            });
        }
    }
    let secondary = secondary_id.map(|id| {
        let len = if horizontal { rect.w } else { rect.h };
        value_scale(chart, &plots, Some(id), room(len), true)
    });

    // Where a value lands: y for columns, x for bars.
    let place = |v: &ValueScale<'_>, value: f64| {
        let mut f = v.scale.fraction(value);
        if v.axis.is_some_and(|a| a.reversed) {
            f = 1.0 - f;
        }
        if horizontal {
            rect.x + f * rect.w
        } else {
            rect.y + rect.h - f * rect.h
        }
    };
    let mid_cat = primary.axis.is_some_and(|a| a.mid_category) && count > 1;
    let slot = if horizontal { rect.h } else { rect.w } / count as f64;
    // The centre of category `i` along the category axis.
    let along = |i: f64| {
        let k = if cat_reversed {
            count as f64 - 1.0 - i
        } else {
            i
        };
        let off = if mid_cat {
            k * (if horizontal { rect.h } else { rect.w }) / (count as f64 - 1.0)
        } else {
            slot * (k + 0.5)
        };
        if horizontal {
            // The first category is at the bottom.
            rect.y + rect.h - off
        } else {
            rect.x + off
        }
    };

    // The plot area's fill, then gridlines, under everything else. A deleted axis keeps
    // its gridlines (deleting an axis in Office takes its line and labels, not them).
    svg.plot_back(chart, rect);
    // Minor gridlines first, so the major ones lie over them.
    for major in [false, true] {
        for v in std::iter::once(&primary).chain(secondary.iter()) {
            let Some(a) = v.axis else { continue };
            let (color, ticks) = if major {
                (a.gridlines, v.scale.ticks())
            } else {
                (a.minor_gridlines, v.scale.minor_ticks(a.minor_unit))
            };
            if let Some(color) = color {
                svg.grid(
                    rect,
                    horizontal,
                    ticks.into_iter().map(|t| place(v, t)),
                    color,
                );
            }
        }
    }
    if let Some(color) = cat_axis.and_then(|a| a.gridlines) {
        let bounds: Vec<usize> = match &ticks {
            Some(_) => cat_labels.iter().map(|(i, _)| *i).collect(),
            None => (0..=count).collect(),
        };
        let start = if horizontal { rect.y } else { rect.x };
        let at = bounds.into_iter().map(|i| start + slot * i as f64);
        svg.grid(rect, !horizontal, at, color);
    }

    // Plots: areas first, then bars, then lines and XY points, as Office layers them.
    let mut labels: Vec<(f64, f64, &DataLabels, &str, String)> = Vec::new();
    let by_index = |_: &Series, i: usize| Some(i as f64);
    for kind in [
        PlotKind::Area,
        PlotKind::Bar,
        PlotKind::Line,
        PlotKind::Scatter,
    ] {
        for p in plots.iter().filter(|p| p.kind == kind) {
            let v = match (&secondary, p.axis_ids.get(1).copied()) {
                (Some(s), Some(id)) if Some(id) == secondary_id => s,
                _ => &primary,
            };
            if kind == PlotKind::Scatter {
                let points = p.series.iter().map(|s| s.values.len()).max().unwrap_or(0);
                let slot_of = xy_slots(chart, p, count);
                let style = LineStyle {
                    horizontal,
                    slot_of: &slot_of,
                };
                let stacks = stack_values(p, points);
                lines(
                    svg,
                    p,
                    &stacks,
                    v,
                    &place,
                    &along,
                    style,
                    &categories,
                    &mut labels,
                );
                continue;
            }
            let stacks = stack_values(p, count);
            match kind {
                PlotKind::Bar => bars(
                    svg,
                    chart,
                    p,
                    &stacks,
                    v,
                    slot,
                    horizontal,
                    &place,
                    &along,
                    &categories,
                    &mut labels,
                ),
                _ => lines(
                    svg,
                    p,
                    &stacks,
                    v,
                    &place,
                    &along,
                    LineStyle {
                        horizontal,
                        slot_of: &by_index,
                    },
                    &categories,
                    &mut labels,
                ),
            }
        }
    }

    // Axis lines: the category axis where the value axis has 0 (or its minimum).
    if let Some(a) = shown(cat_axis) {
        if let Some(color) = a.line {
            let base = place(&primary, primary.scale.clamp(0.0));
            let d = if horizontal {
                format!("M{} {}V{}", n(base), n(rect.y), n(rect.y + rect.h))
            } else {
                format!("M{} {}H{}", n(rect.x), n(base), n(rect.x + rect.w))
            };
            svg.line(&d, color, 0.75);
            // Ticks between the categories, or at each one when the points sit on them.
            let len = if horizontal { rect.h } else { rect.w };
            let at: Vec<f64> = if mid_cat {
                (0..count).map(|i| along(i as f64)).collect()
            } else {
                let start = if horizontal { rect.y } else { rect.x };
                (0..=count)
                    .map(|k| start + len * k as f64 / count as f64)
                    .collect()
            };
            // Outward is down under columns, left of bars.
            let out = if horizontal { -1.0 } else { 1.0 };
            tick_marks(svg, a.ticks, color, !horizontal, base, out, &at);
        }
    }
    for v in std::iter::once(&primary).chain(secondary.iter()) {
        let Some(a) = shown(v.axis) else { continue };
        let far = v.secondary || a.position == "r" || a.position == "t";
        if let Some(color) = a.line {
            // Office 2013+ value axes have no line (`a:ln/a:noFill`); older ones do.
            let (d, at_line, out) = if horizontal {
                let y = if far { rect.y } else { rect.y + rect.h };
                let d = format!("M{} {}H{}", n(rect.x), n(y), n(rect.x + rect.w));
                (d, y, if far { -1.0 } else { 1.0 })
            } else {
                let x = if far { rect.x + rect.w } else { rect.x };
                let d = format!("M{} {}V{}", n(x), n(rect.y), n(rect.y + rect.h));
                (d, x, if far { 1.0 } else { -1.0 })
            };
            svg.line(&d, color, 0.75);
            let at: Vec<f64> = v.scale.ticks().iter().map(|t| place(v, *t)).collect();
            tick_marks(svg, a.ticks, color, horizontal, at_line, out, &at);
        }
        if a.labels {
            for t in v.scale.ticks() {
                let text = format_number(t, v.format.as_deref());
                let at = place(v, t);
                let s = &a.text;
                if horizontal {
                    let y = if far {
                        rect.y - s.size * 0.4 - tick_room(a)
                    } else {
                        rect.y + rect.h + s.size * 1.1 + tick_room(a)
                    };
                    svg.text(at, y, s, "middle", None, &text);
                } else if far {
                    svg.text(
                        rect.x + rect.w + LABEL_GAP + tick_room(a),
                        at + s.size * 0.35,
                        s,
                        "start",
                        None,
                        &text,
                    );
                } else {
                    svg.text(
                        rect.x - LABEL_GAP - tick_room(a),
                        at + s.size * 0.35,
                        s,
                        "end",
                        None,
                        &text,
                    );
                }
            }
        }
    }
    // Value axis titles, of deleted axes too.
    for v in std::iter::once(&primary).chain(secondary.iter()) {
        let Some(a) = v.axis else { continue };
        let Some(t) = &a.title else { continue };
        let far = v.secondary || a.position == "r" || a.position == "t";
        let s = &a.title_style;
        if horizontal {
            let y = if far {
                rect.y - s.size * 2.0
            } else {
                b.y + b.h - s.size * 0.3
            };
            svg.text(rect.x + rect.w / 2.0, y, s, "middle", None, t);
        } else {
            let x = if far {
                b.x + b.w - s.size * 0.3
            } else {
                b.x + s.size * 0.9
            };
            let rot = if far { 90.0 } else { -90.0 };
            svg.text(x, rect.y + rect.h / 2.0, s, "middle", Some(rot), t);
        }
    }
    // Category labels: every one, turned when they do not fit.
    if let Some(a) = cat_shown {
        let s = &a.text;
        // Labels start past the tick marks that point out of the plot.
        let room = tick_room(a);
        for &(i, c) in &cat_labels {
            let at = along(i as f64);
            if horizontal {
                svg.text(
                    rect.x - LABEL_GAP - room,
                    at + s.size * 0.35,
                    s,
                    "end",
                    None,
                    c,
                );
            } else if rotation == 0.0 {
                svg.text(
                    at,
                    rect.y + rect.h + s.size * 1.1 + room,
                    s,
                    "middle",
                    None,
                    c,
                );
            } else {
                // Turned text hangs from its end at the tick.
                let y = rect.y + rect.h + s.size * 0.6 + room;
                let x = at + s.size * 0.3 * rotation.abs() / 90.0;
                svg.text(x, y, s, "end", Some(rotation), c);
            }
        }
    }
    if !levels.is_empty() {
        // Where the boundary before category `i` lies along the category axis.
        let edge = |i: usize| {
            let k = if cat_reversed {
                count.saturating_sub(i)
            } else {
                i
            } as f64
                * slot;
            if horizontal {
                rect.y + rect.h - k
            } else {
                rect.x + k
            }
        };
        let color = cat_axis
            .and_then(|a| a.line)
            .unwrap_or(Color::rgb(0xBFBFBF));
        let s = &cat_style;
        // Columns: the rows start under the labels; bars: the columns left of them.
        let labels_band = if horizontal {
            widest_cat.min(b.w * 0.4) + s.size * 0.5
        } else {
            rotated_height(widest_cat, s.size, rotation).min(b.h * 0.45)
        };
        let mut outer = labels_band;
        for (level, width) in levels.iter().zip(&level_widths) {
            let depth = if horizontal { *width } else { level_row };
            for g in level {
                let (from, to) = (edge(g.start), edge(g.end));
                let mid = (from + to) / 2.0;
                if horizontal {
                    let x = rect.x - outer - depth / 2.0 + s.size * 0.35;
                    svg.text(x, mid, s, "middle", Some(-90.0), &g.label);
                } else {
                    let y = rect.y + rect.h + outer + depth / 2.0 + s.size * 0.35;
                    svg.text(mid, y, s, "middle", None, &g.label);
                }
            }
            // Group boundaries run from the axis across the labels to this level's edge.
            let far = outer + depth;
            let mut bounds: Vec<usize> = level.iter().map(|g| g.start).collect();
            bounds.extend(level.last().map(|g| g.end));
            for i in bounds {
                let at = edge(i);
                let d = if horizontal {
                    format!("M{} {}H{}", n(rect.x), n(at), n(rect.x - far))
                } else {
                    format!(
                        "M{} {}V{}",
                        n(at),
                        n(rect.y + rect.h),
                        n(rect.y + rect.h + far)
                    )
                };
                svg.line(&d, color, 0.75);
            }
            outer = far;
        }
    }
    if let Some((t, s)) = cat_title {
        if horizontal {
            svg.text(
                b.x + s.size * 0.9,
                rect.y + rect.h / 2.0,
                &s,
                "middle",
                Some(-90.0),
                t,
            );
        } else {
            svg.text(
                rect.x + rect.w / 2.0,
                b.y + b.h - s.size * 0.3,
                &s,
                "middle",
                None,
                t,
            );
        }
    }
    for (x, y, l, anchor, t) in labels {
        svg.data_label(x, y, l, anchor, &t);
    }
}

/// For every series and category: the value's base and top in axis units (stacked
/// on the series before it, or shares of the category's total for 100 %).
fn stack_values(p: &Plot, count: usize) -> Vec<Vec<Option<(f64, f64)>>> {
    let mut pos = vec![0.0; count];
    let mut neg = vec![0.0; count];
    let totals: Vec<f64> = (0..count)
        .map(|i| {
            p.series
                .iter()
                .map(|s| s.values.get(i).copied().flatten().unwrap_or(0.0).abs())
                .sum()
        })
        .collect();
    p.series
        .iter()
        .map(|s| {
            (0..count)
                .map(|i| {
                    let v = s.values.get(i).copied().flatten()?;
                    if !p.grouping.stacks() {
                        return Some((0.0, v));
                    }
                    let v = if p.grouping == Grouping::PercentStacked {
                        if totals[i] > 0.0 {
                            v / totals[i]
                        } else {
                            0.0
                        }
                    } else {
                        v
                    };
                    let acc = if v >= 0.0 { &mut pos[i] } else { &mut neg[i] };
                    let base = *acc;
                    *acc += v;
                    Some((base, *acc))
                })
                .collect()
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn bars<'c>(
    svg: &mut Svg,
    chart: &Chart,
    p: &'c Plot,
    stacks: &[Vec<Option<(f64, f64)>>],
    v: &ValueScale<'_>,
    slot: f64,
    horizontal: bool,
    place: &dyn Fn(&ValueScale<'_>, f64) -> f64,
    along: &dyn Fn(f64) -> f64,
    categories: &[String],
    labels: &mut Vec<(f64, f64, &'c DataLabels, &'static str, String)>,
) {
    // Office's cluster: k bars of width w overlapping by o·w, then a gap of g·w.
    let k = if p.grouping.stacks() {
        1.0
    } else {
        p.series.len().max(1) as f64
    };
    let o = if p.grouping.stacks() {
        1.0
    } else {
        p.overlap / 100.0
    };
    let g = p.gap_width / 100.0;
    let bw = slot / (k - (k - 1.0) * o + g);
    let cluster = bw * (k - (k - 1.0) * o);
    let varied = p.vary_colors && p.series.len() == 1;
    for (si, s) in p.series.iter().enumerate() {
        let shift = if p.grouping.stacks() {
            0.0
        } else {
            si as f64 * bw * (1.0 - o)
        };
        let line = s.line.filter(|_| !s.no_line);
        for (i, seg) in stacks[si].iter().enumerate() {
            let Some((base, top)) = *seg else { continue };
            let centre = along(i as f64);
            // Offset inside the slot, first series nearest the axis origin side.
            let lead = centre - cluster / 2.0 + shift;
            let (a, z) = (place(v, v.scale.clamp(base)), place(v, v.scale.clamp(top)));
            let fill = match s.no_fill {
                true => "none".to_owned(),
                false => svg.paint(s, point_color(s, i, varied, chart)),
            };
            if horizontal {
                // Bars go up the axis: the first series is lowest in its cluster.
                let y = centre + cluster / 2.0 - shift - bw;
                svg.rect_paint(a.min(z), y, (z - a).abs(), bw, &fill, line);
            } else {
                svg.rect_paint(lead, a.min(z), bw, (z - a).abs(), &fill, line);
            }
            if let Some((l, moved)) = point_label(p, s, i) {
                let (dx, dy) = svg.dragged(moved);
                let raw = s.values.get(i).copied().flatten().unwrap_or(0.0);
                let cat = categories.get(i).map(String::as_str);
                let text = label_text(l, s, i, raw, None, cat);
                let pos = l.position.as_deref().unwrap_or(if p.grouping.stacks() {
                    "ctr"
                } else {
                    "outEnd"
                });
                let size = l.text.size;
                let up = top >= base;
                let along_bar = match pos {
                    "ctr" => (a + z) / 2.0,
                    "inBase" => a + if up == horizontal { size } else { -size } * 0.8,
                    "inEnd" => z + if up == horizontal { -size } else { size } * 0.8,
                    _ => {
                        z + if up == horizontal {
                            size * 0.3
                        } else {
                            -size * 0.3
                        }
                    }
                };
                if horizontal {
                    let y = centre + cluster / 2.0 - shift - bw / 2.0 + size * 0.35;
                    let anchor = match pos {
                        "ctr" => "middle",
                        "inEnd" => "end",
                        _ => "start",
                    };
                    labels.push((along_bar + dx, y + dy, l, anchor, text));
                } else {
                    let y = if pos == "ctr" {
                        along_bar + size * 0.35
                    } else {
                        along_bar
                    };
                    labels.push((lead + bw / 2.0 + dx, y + dy, l, "middle", text));
                }
            }
        }
    }
}

/// Where the data label of a point at `(x, y)` goes and how it is anchored, by its
/// `c:dLblPos` (to the right when unset: the default of line, scatter and bubble
/// labels; `ctr` centres it on the point or bubble).
fn point_label_at(l: &DataLabels, x: f64, y: f64) -> (f64, f64, &'static str) {
    let size = l.text.size;
    match l.position.as_deref().unwrap_or("r") {
        "t" => (x, y - size * 0.5, "middle"),
        "b" => (x, y + size * 1.2, "middle"),
        "l" => (x - size * 0.5, y + size * 0.35, "end"),
        "ctr" => (x, y + size * 0.35, "middle"),
        _ => (x + size * 0.5, y + size * 0.35, "start"),
    }
}

/// How [`lines`] lays its points out.
#[derive(Clone, Copy)]
struct LineStyle<'a> {
    /// Bars run across: categories up the side, values along the bottom.
    horizontal: bool,
    /// The category slot (0 the first, fractions between) of a series' point `i`, `None`
    /// for a point not drawn.
    slot_of: &'a dyn Fn(&Series, usize) -> Option<f64>,
}

/// Where an XY series drawn among categories puts its points: text X values (or none)
/// number the points 1, 2, 3 … and number `x` lies at the centre of category `x`, so
/// that X values 1 to n fall on the n categories; X values well outside the categories
/// (a series on its own horizontal value axis) are spread over the plot width by that
/// axis's scale instead.
fn xy_slots<'c>(
    chart: &'c Chart,
    p: &'c Plot,
    count: usize,
) -> impl Fn(&Series, usize) -> Option<f64> + 'c {
    let xs = || {
        p.series
            .iter()
            .flat_map(|s| s.x_values.iter().flatten())
            .copied()
    };
    let in_slots = xs().all(|x| (0.5..=count as f64 + 0.5).contains(&x));
    let (lo, hi) = xs().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    });
    let axis = p.axis_ids.first().and_then(|id| chart.axis(*id));
    let scale = axis_scale(axis, (lo, hi), 5.0, false);
    move |s: &Series, i: usize| {
        if s.x_values.is_empty() {
            return Some(i as f64);
        }
        let x = s.x_values.get(i).copied().flatten()?;
        Some(if in_slots {
            x - 1.0
        } else {
            scale.fraction(x) * count as f64 - 0.5
        })
    }
}

#[allow(clippy::too_many_arguments)]
fn lines<'c>(
    svg: &mut Svg,
    p: &'c Plot,
    stacks: &[Vec<Option<(f64, f64)>>],
    v: &ValueScale<'_>,
    place: &dyn Fn(&ValueScale<'_>, f64) -> f64,
    along: &dyn Fn(f64) -> f64,
    style: LineStyle<'_>,
    categories: &[String],
    labels: &mut Vec<(f64, f64, &'c DataLabels, &'static str, String)>,
) {
    let LineStyle {
        horizontal,
        slot_of,
    } = style;
    let xy = |slot: f64, val: f64| {
        let (c, w) = (along(slot), place(v, v.scale.clamp(val)));
        if horizontal {
            (w, c)
        } else {
            (c, w)
        }
    };
    // Areas are drawn last series first so the stacked ones nearer the axis stay visible.
    let order: Vec<usize> = if p.kind == PlotKind::Area {
        (0..p.series.len()).rev().collect()
    } else {
        (0..p.series.len()).collect()
    };
    for si in order {
        let s = &p.series[si];
        // Each point: its index, category slot, base and top.
        let pts: Vec<(usize, f64, f64, f64)> = stacks[si]
            .iter()
            .enumerate()
            .filter_map(|(i, seg)| {
                let (b, t) = (*seg)?;
                Some((i, slot_of(s, i)?, b, t))
            })
            .collect();
        if pts.is_empty() {
            continue;
        }
        if p.kind == PlotKind::Area {
            let mut d = String::new();
            for (_, c, _, t) in &pts {
                let (x, y) = xy(*c, *t);
                let _ = write!(
                    d,
                    "{}{} {}",
                    if d.is_empty() { "M" } else { "L" },
                    n(x),
                    n(y)
                );
            }
            for (_, c, b, _) in pts.iter().rev() {
                let (x, y) = xy(*c, *b);
                let _ = write!(d, "L{} {}", n(x), n(y));
            }
            if !s.no_fill {
                let fill = svg.paint(s, s.color);
                let _ = write!(svg.out, "<path class=\"area\" d=\"{d}Z\" fill=\"{fill}\"/>");
            }
        } else if !s.no_line {
            let points: Vec<(f64, f64)> = pts.iter().map(|(_, c, _, t)| xy(*c, *t)).collect();
            let d = if s.smooth {
                smooth_path(&points)
            } else {
                poly_path(&points)
            };
            svg.line(&d, s.line.unwrap_or(s.color), s.line_width);
        }
        if s.marker {
            for (_, c, _, t) in &pts {
                let (x, y) = xy(*c, *t);
                svg.marker(x, y, s.marker_size, s.color, &s.marker_symbol);
            }
        }
        for (i, c, _, t) in &pts {
            let Some((l, moved)) = point_label(p, s, *i) else {
                continue;
            };
            let (dx, dy) = svg.dragged(moved);
            let (x, y) = xy(*c, *t);
            let raw = s.values.get(*i).copied().flatten().unwrap_or(0.0);
            let text = label_text(l, s, *i, raw, None, categories.get(*i).map(String::as_str));
            let (lx, ly, anchor) = point_label_at(l, x + dx, y + dy);
            labels.push((lx, ly, l, anchor, text));
        }
    }
}

fn poly_path(points: &[(f64, f64)]) -> String {
    let mut d = String::new();
    for (x, y) in points {
        let _ = write!(
            d,
            "{}{} {}",
            if d.is_empty() { "M" } else { "L" },
            n(*x),
            n(*y)
        );
    }
    d
}

/// A smoothed line through the points (Catmull-Rom as cubic Béziers).
fn smooth_path(points: &[(f64, f64)]) -> String {
    if points.len() < 3 {
        return poly_path(points);
    }
    let mut d = format!("M{} {}", n(points[0].0), n(points[0].1));
    for i in 0..points.len() - 1 {
        let p0 = points[i.saturating_sub(1)];
        let (p1, p2) = (points[i], points[i + 1]);
        let p3 = points[(i + 2).min(points.len() - 1)];
        let c1 = (p1.0 + (p2.0 - p0.0) / 6.0, p1.1 + (p2.1 - p0.1) / 6.0);
        let c2 = (p2.0 - (p3.0 - p1.0) / 6.0, p2.1 - (p3.1 - p1.1) / 6.0);
        let _ = write!(
            d,
            "C{} {} {} {} {} {}",
            n(c1.0),
            n(c1.1),
            n(c2.0),
            n(c2.1),
            n(p2.0),
            n(p2.1)
        );
    }
    d
}

// ----- scatter and bubble ------------------------------------------------------------

fn scatter(svg: &mut Svg, chart: &Chart, b: Rect, inner: bool) {
    let wide = svg.wide;
    let plots: Vec<&Plot> = chart
        .plots
        .iter()
        .filter(|p| matches!(p.kind, PlotKind::Scatter | PlotKind::Bubble))
        .collect();
    let Some(first) = plots.first() else { return };
    let x_of = |s: &Series, i: usize| match s.x_values.get(i) {
        Some(v) => *v,
        None if s.x_values.is_empty() => Some(i as f64 + 1.0),
        None => None,
    };
    let (mut xlo, mut xhi, mut ylo, mut yhi) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for s in plots.iter().flat_map(|p| p.series.iter()) {
        for (i, y) in s.values.iter().enumerate() {
            if let (Some(x), Some(y)) = (x_of(s, i), y) {
                xlo = xlo.min(x);
                xhi = xhi.max(x);
                ylo = ylo.min(*y);
                yhi = yhi.max(*y);
            }
        }
    }
    // The horizontal value axis is the one at the bottom (or top).
    let ids: Vec<&Axis> = first
        .axis_ids
        .iter()
        .filter_map(|id| chart.axis(*id))
        .collect();
    let x_axis = ids
        .iter()
        .copied()
        .find(|a| matches!(a.position.as_str(), "b" | "t"));
    let y_axis = ids
        .iter()
        .copied()
        .find(|a| matches!(a.position.as_str(), "l" | "r"));
    let ys = y_axis.map_or(chart.text.size, |a| a.text.size);
    let xs = x_axis.map_or(chart.text.size, |a| a.text.size);
    let fmt_y = y_axis
        .and_then(|a| a.format_code.clone())
        .or_else(|| first.series.first().and_then(|s| s.format_code.clone()));
    let fmt_x = x_axis.and_then(|a| a.format_code.clone());
    let y_scale = axis_scale(
        y_axis,
        (ylo, yhi),
        interval_room(b.h * 0.8, false, ys, wide, &[]),
        false,
    );
    let x_scale = axis_scale(
        x_axis,
        (xlo, xhi),
        interval_room(
            b.w * 0.8,
            true,
            xs,
            wide,
            &[xlo, xhi]
                .into_iter()
                .filter(|v| v.is_finite())
                .map(|v| format_number(v, fmt_x.as_deref()))
                .collect::<Vec<_>>(),
        ),
        false,
    );
    let left = shown(y_axis).filter(|a| a.labels).map_or(0.0, |a| {
        y_scale
            .ticks()
            .iter()
            .map(|t| wide.of(&format_number(*t, fmt_y.as_deref()), a.text.size))
            .fold(0.0, f64::max)
            + LABEL_GAP
            + tick_room(a)
    }) + y_axis
        .and_then(|a| a.title.as_ref().map(|_| a.title_style.size * 1.5))
        .unwrap_or(0.0);
    // The last X label is centred on the plot's right edge: half of it beside the plot.
    let right = shown(x_axis).filter(|a| a.labels).map_or(0.0, |a| {
        x_scale.ticks().last().map_or(0.0, |t| {
            wide.of(&format_number(*t, fmt_x.as_deref()), a.text.size) / 2.0
        })
    });
    let bottom = shown(x_axis)
        .filter(|a| a.labels)
        .map_or(0.0, |a| a.text.size * 1.5)
        + x_axis
            .and_then(|a| a.title.as_ref().map(|_| a.title_style.size * 1.5))
            .unwrap_or(0.0);
    let rect = if inner {
        b
    } else {
        Rect {
            x: b.x + left,
            y: b.y + ys * 0.5,
            w: (b.w - left - right).max(1.0),
            h: (b.h - bottom - ys * 0.5).max(1.0),
        }
    };
    let px = |x: f64| rect.x + x_scale.fraction(x_scale.clamp(x)) * rect.w;
    let py = |y: f64| rect.y + rect.h - y_scale.fraction(y_scale.clamp(y)) * rect.h;
    svg.plot_back(chart, rect);
    // Minor gridlines under the major ones.
    for major in [false, true] {
        for (a, vertical) in [(y_axis, false), (x_axis, true)] {
            let Some(a) = a else { continue };
            let scale = if vertical { &x_scale } else { &y_scale };
            let (color, ticks) = if major {
                (a.gridlines, scale.ticks())
            } else {
                (a.minor_gridlines, scale.minor_ticks(a.minor_unit))
            };
            let Some(color) = color else { continue };
            let at = ticks
                .into_iter()
                .map(|t| if vertical { px(t) } else { py(t) });
            svg.grid(rect, vertical, at, color);
        }
    }
    // Bubbles: the largest is a quarter of the plot's smaller side across, at 100 %.
    let max_size = plots
        .iter()
        .flat_map(|p| p.series.iter())
        .flat_map(|s| s.sizes.iter().flatten())
        .map(|v| v.abs())
        .fold(0.0, f64::max);
    let mut labels: Vec<(f64, f64, &DataLabels, &str, String)> = Vec::new();
    for p in &plots {
        for s in &p.series {
            let pts: Vec<(usize, f64, f64)> = s
                .values
                .iter()
                .enumerate()
                .filter_map(|(i, y)| Some((i, px(x_of(s, i)?), py((*y)?))))
                .collect();
            if p.kind == PlotKind::Bubble {
                for (i, x, y) in &pts {
                    let size = s.sizes.get(*i).copied().flatten().unwrap_or(0.0).abs();
                    if max_size <= 0.0 || size <= 0.0 {
                        continue;
                    }
                    let r = (size / max_size).sqrt() * rect.w.min(rect.h) * 0.125 * p.bubble_scale
                        / 100.0;
                    let color = point_color(s, *i, false, chart);
                    let fill = svg.paint(s, color);
                    // Automatic bubbles are see-through, so that those behind show; a
                    // fill the file sets is drawn as set (shapecrawler-021's gradients).
                    let opacity = if s.automatic {
                        0.75
                    } else {
                        f64::from(color.alpha)
                    };
                    let _ = write!(svg.out, "<circle class=\"bubble\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" fill-opacity=\"{}\"/>", n(*x), n(*y), n(r), n(opacity));
                }
            } else {
                if !s.no_line && pts.len() > 1 {
                    let points: Vec<(f64, f64)> = pts.iter().map(|(_, x, y)| (*x, *y)).collect();
                    let d = if s.smooth {
                        smooth_path(&points)
                    } else {
                        poly_path(&points)
                    };
                    svg.line(&d, s.line.unwrap_or(s.color), s.line_width);
                }
                if s.marker || s.no_line {
                    for (i, x, y) in &pts {
                        svg.marker(
                            *x,
                            *y,
                            s.marker_size,
                            point_color(s, *i, false, chart),
                            &s.marker_symbol,
                        );
                    }
                }
            }
            for (i, x, y) in &pts {
                if let Some((l, moved)) = point_label(p, s, *i) {
                    let (dx, dy) = svg.dragged(moved);
                    let raw = s.values.get(*i).copied().flatten().unwrap_or(0.0);
                    let text = label_text(
                        l,
                        s,
                        *i,
                        raw,
                        None,
                        s.categories.get(*i).map(String::as_str),
                    );
                    let (lx, ly, anchor) = point_label_at(l, *x + dx, *y + dy);
                    labels.push((lx, ly, l, anchor, text));
                }
            }
        }
    }
    // Axes and their labels.
    if let Some(a) = shown(y_axis) {
        if let Some(c) = a.line {
            svg.line(
                &format!("M{} {}V{}", n(rect.x), n(rect.y), n(rect.y + rect.h)),
                c,
                0.75,
            );
            let at: Vec<f64> = y_scale.ticks().iter().map(|t| py(*t)).collect();
            tick_marks(svg, a.ticks, c, false, rect.x, -1.0, &at);
        }
        if a.labels {
            for t in y_scale.ticks() {
                svg.text(
                    rect.x - LABEL_GAP - tick_room(a),
                    py(t) + a.text.size * 0.35,
                    &a.text,
                    "end",
                    None,
                    &format_number(t, fmt_y.as_deref()),
                );
            }
        }
    }
    if let Some(a) = shown(x_axis) {
        if let Some(c) = a.line {
            let y0 = py(y_scale.clamp(0.0));
            svg.line(
                &format!("M{} {}H{}", n(rect.x), n(y0), n(rect.x + rect.w)),
                c,
                0.75,
            );
            let at: Vec<f64> = x_scale.ticks().iter().map(|t| px(*t)).collect();
            tick_marks(svg, a.ticks, c, true, y0, 1.0, &at);
        }
        if a.labels {
            for t in x_scale.ticks() {
                svg.text(
                    px(t),
                    rect.y + rect.h + a.text.size * 1.1 + tick_room(a),
                    &a.text,
                    "middle",
                    None,
                    &format_number(t, fmt_x.as_deref()),
                );
            }
        }
    }
    // Axis titles, of deleted axes too (as in `cartesian`).
    if let Some((a, t)) = y_axis.and_then(|a| a.title.as_ref().map(|t| (a, t))) {
        svg.text(
            b.x + a.title_style.size * 0.9,
            rect.y + rect.h / 2.0,
            &a.title_style,
            "middle",
            Some(-90.0),
            t,
        );
    }
    if let Some((a, t)) = x_axis.and_then(|a| a.title.as_ref().map(|t| (a, t))) {
        svg.text(
            rect.x + rect.w / 2.0,
            b.y + b.h - a.title_style.size * 0.3,
            &a.title_style,
            "middle",
            None,
            t,
        );
    }
    for (x, y, l, anchor, t) in labels {
        svg.data_label(x, y, l, anchor, &t);
    }
}

// ----- radar -------------------------------------------------------------------------

/// The names of a plot's first `count` categories: the first series' that has one, else
/// the category's number.
pub(super) fn category_names(p: &Plot, count: usize) -> Vec<String> {
    (0..count)
        .map(|i| {
            p.series
                .iter()
                .find_map(|s| s.categories.get(i).cloned())
                .unwrap_or_else(|| (i + 1).to_string())
        })
        .collect()
}

fn radar(svg: &mut Svg, chart: &Chart, p: &Plot, b: Rect) {
    let wide = svg.wide;
    let count = p.series.iter().map(|s| s.values.len()).max().unwrap_or(0);
    if count < 3 {
        return;
    }
    let value_axis = p.axis_ids.get(1).and_then(|id| chart.axis(*id));
    let cat_axis = p.axis_ids.first().and_then(|id| chart.axis(*id));
    let cs = cat_axis.map_or(chart.text, |a| a.text);
    let cats = category_names(p, count);
    let widest = cats.iter().map(|c| wide.of(c, cs.size)).fold(0.0, f64::max);
    let r = ((b.w / 2.0 - widest - cs.size).min(b.h / 2.0 - cs.size * 1.8)).max(b.w.min(b.h) * 0.2);
    let (cx, cy) = (b.x + b.w / 2.0, b.y + b.h / 2.0);
    let (lo, hi) = extent(p).unwrap_or((0.0, 1.0));
    let scale = Scale::auto(
        lo,
        hi,
        value_axis.and_then(|a| a.min),
        value_axis.and_then(|a| a.max),
        value_axis.and_then(|a| a.major_unit),
        (r / (cs.size * 2.0)).floor().clamp(2.0, 8.0),
        false,
    );
    let at = |i: usize, v: f64| {
        let a = (i as f64 / count as f64 * 360.0 - 90.0).to_radians();
        let d = scale.fraction(scale.clamp(v)) * r;
        (cx + d * a.cos(), cy + d * a.sin())
    };
    let grid = value_axis
        .and_then(|a| a.gridlines)
        .unwrap_or(Color::rgb(0xD9D9D9));
    for t in scale.ticks() {
        let pts: Vec<(f64, f64)> = (0..count).map(|i| at(i, t)).collect();
        svg.line(&format!("{}Z", poly_path(&pts)), grid, 0.75);
    }
    for (i, cat) in cats.iter().enumerate() {
        let (x, y) = at(i, scale.max);
        svg.line(
            &format!("M{} {}L{} {}", n(cx), n(cy), n(x), n(y)),
            grid,
            0.75,
        );
        if cat_axis.is_none_or(|a| !a.deleted && a.labels) {
            let a = (i as f64 / count as f64 * 360.0 - 90.0).to_radians();
            let (lx, ly) = (
                cx + (r + cs.size * 0.5) * a.cos(),
                cy + (r + cs.size * 0.5) * a.sin(),
            );
            let anchor = if a.cos().abs() < 0.2 {
                "middle"
            } else if a.cos() > 0.0 {
                "start"
            } else {
                "end"
            };
            let dy = if a.sin() < -0.2 {
                0.0
            } else if a.sin() > 0.2 {
                cs.size * 0.8
            } else {
                cs.size * 0.35
            };
            svg.text(lx, ly + dy, &cs, anchor, None, cat);
        }
    }
    if let Some(a) = value_axis.filter(|a| !a.deleted && a.labels) {
        let fmt = a
            .format_code
            .clone()
            .or_else(|| p.series.first().and_then(|s| s.format_code.clone()));
        for t in scale.ticks() {
            let (x, y) = at(0, t);
            svg.text(
                x - a.text.size * 0.3,
                y + a.text.size * 0.35,
                &a.text,
                "end",
                None,
                &format_number(t, fmt.as_deref()),
            );
        }
    }
    let stacks = stack_values(p, count);
    for (si, s) in p.series.iter().enumerate() {
        let pts: Vec<(f64, f64)> = stacks[si]
            .iter()
            .enumerate()
            .filter_map(|(i, seg)| seg.map(|(_, t)| at(i, t)))
            .collect();
        if pts.is_empty() {
            continue;
        }
        if p.filled {
            let _ = write!(
                svg.out,
                "<path class=\"area\" d=\"{}Z\" fill=\"{}\" fill-opacity=\"0.6\"/>",
                poly_path(&pts),
                s.color.hex()
            );
        } else if !s.no_line {
            svg.line(
                &format!("{}Z", poly_path(&pts)),
                s.line.unwrap_or(s.color),
                s.line_width,
            );
        }
        if s.marker {
            for (x, y) in &pts {
                svg.marker(*x, *y, s.marker_size, s.color, &s.marker_symbol);
            }
        }
    }
}
