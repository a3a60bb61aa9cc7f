//! Shape outlines: preset geometries drawn as SVG paths, custom geometry (`a:custGeom`)
//! with its guide formulas, and arrow heads.
//!
//! Presets are written here from their geometric descriptions (a rounded rectangle's
//! corner radius is `adj` of the shorter side, an arrow's shaft is `adj1` of the height
//! …), in points of the shape's own box; unknown presets fall back to the box itself.
//! Custom geometry is evaluated when parsing (its guides need the shape size) and stored
//! in the model as plain commands.

use std::collections::HashMap;
use std::f64::consts::PI;
use std::fmt::Write as _;

use crate::office::xml::Element;
use crate::office::Ns;

use super::color::number;
use super::model::{GeomPath, Geometry, LineEnd, PathCommand};

/// A point.
pub(super) type P = (f64, f64);

/// One drawable sub-path, in points of the shape box.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct SubPath {
    /// SVG path data.
    pub(super) d: String,
    /// Filled.
    pub(super) fill: bool,
    /// Stroked.
    pub(super) stroke: bool,
    /// The first point and the direction the path leaves it (for a head arrow).
    pub(super) start: Option<(P, P)>,
    /// The last point and the direction the path arrives (for a tail arrow).
    pub(super) end: Option<(P, P)>,
}

/// Builds SVG path data and remembers the end tangents.
struct PathBuilder {
    d: String,
    cur: P,
    start: P,
    /// First point and the next distinct point after it.
    first: Option<P>,
    first_dir: Option<P>,
    /// The point before the current one (control point for curves).
    prev: P,
    fill: bool,
    stroke: bool,
    open: bool,
}

fn fmt(v: f64) -> String {
    let r = (v * 100.0).round() / 100.0;
    if r == 0.0 {
        "0".to_owned()
    } else {
        format!("{r}")
    }
}

impl PathBuilder {
    fn new() -> Self {
        PathBuilder {
            d: String::new(),
            cur: (0.0, 0.0),
            start: (0.0, 0.0),
            first: None,
            first_dir: None,
            prev: (0.0, 0.0),
            fill: true,
            stroke: true,
            open: true,
        }
    }

    fn note_dir(&mut self, toward: P) {
        if self.first_dir.is_none() && self.first.is_some_and(|f| f != toward) {
            self.first_dir = Some(toward);
        }
    }

    fn m(&mut self, p: P) -> &mut Self {
        let _ = write!(self.d, "M{} {}", fmt(p.0), fmt(p.1));
        self.cur = p;
        self.start = p;
        self.prev = p;
        if self.first.is_none() {
            self.first = Some(p);
        }
        self
    }

    fn l(&mut self, p: P) -> &mut Self {
        let _ = write!(self.d, "L{} {}", fmt(p.0), fmt(p.1));
        self.note_dir(p);
        self.prev = self.cur;
        self.cur = p;
        self
    }

    fn poly(&mut self, pts: &[P]) -> &mut Self {
        for (i, p) in pts.iter().enumerate() {
            if i == 0 {
                self.m(*p);
            } else {
                self.l(*p);
            }
        }
        self.z()
    }

    fn c(&mut self, c1: P, c2: P, p: P) -> &mut Self {
        let _ = write!(
            self.d,
            "C{} {} {} {} {} {}",
            fmt(c1.0),
            fmt(c1.1),
            fmt(c2.0),
            fmt(c2.1),
            fmt(p.0),
            fmt(p.1)
        );
        self.note_dir(c1);
        self.prev = if c2 == p { c1 } else { c2 };
        self.cur = p;
        self
    }

    fn q(&mut self, c: P, p: P) -> &mut Self {
        let _ = write!(
            self.d,
            "Q{} {} {} {}",
            fmt(c.0),
            fmt(c.1),
            fmt(p.0),
            fmt(p.1)
        );
        self.note_dir(c);
        self.prev = c;
        self.cur = p;
        self
    }

    /// DrawingML `arcTo`: the current point is on an ellipse of radii `wr`, `hr` at the
    /// (visual) angle `st`; sweep `sw` degrees clockwise. Drawn as cubic segments.
    fn arc(&mut self, wr: f64, hr: f64, st: f64, sw: f64) -> &mut Self {
        if wr <= 0.0 || hr <= 0.0 || sw == 0.0 || !sw.is_finite() || !st.is_finite() {
            return self;
        }
        let param = |deg: f64| ellipse_param(wr, hr, deg);
        let t0 = param(st);
        let sw = sw.clamp(-360.0, 360.0);
        let mut dt = param(st + sw) - t0;
        if sw.abs() >= 359.999 {
            dt = sw.signum() * 2.0 * PI;
        } else if sw > 0.0 && dt <= 0.0 {
            dt += 2.0 * PI;
        } else if sw < 0.0 && dt >= 0.0 {
            dt -= 2.0 * PI;
        }
        let centre = (self.cur.0 - wr * t0.cos(), self.cur.1 - hr * t0.sin());
        let pieces = (dt.abs() / (PI / 2.0)).ceil().max(1.0) as usize;
        let step = dt / pieces as f64;
        let k = 4.0 / 3.0 * (step / 4.0).tan();
        let mut t = t0;
        for _ in 0..pieces {
            let t2 = t + step;
            let p1 = (centre.0 + wr * t.cos(), centre.1 + hr * t.sin());
            let p2 = (centre.0 + wr * t2.cos(), centre.1 + hr * t2.sin());
            let c1 = (p1.0 - k * wr * t.sin(), p1.1 + k * hr * t.cos());
            let c2 = (p2.0 + k * wr * t2.sin(), p2.1 - k * hr * t2.cos());
            self.c(c1, c2, p2);
            t = t2;
        }
        self
    }

    fn z(&mut self) -> &mut Self {
        self.d.push('Z');
        self.cur = self.start;
        self.open = false;
        self
    }

    /// A whole ellipse as a closed sub-path.
    fn ellipse(&mut self, cx: f64, cy: f64, rx: f64, ry: f64) -> &mut Self {
        self.m((cx + rx, cy));
        self.arc(rx, ry, 0.0, 360.0);
        self.z()
    }

    fn no_fill(&mut self) -> &mut Self {
        self.fill = false;
        self
    }

    fn finish(&mut self) -> SubPath {
        let start = match (self.first, self.first_dir) {
            (Some(f), Some(d)) if self.open => Some((f, d)),
            _ => None,
        };
        let end = (self.open && self.cur != self.prev).then_some((self.cur, self.prev));
        SubPath {
            d: std::mem::take(&mut self.d),
            fill: self.fill,
            stroke: self.stroke,
            start,
            end,
        }
    }
}

/// The adjust values of a preset, with the spec's defaults for missing ones.
struct Adj<'a>(&'a [(String, f64)]);

impl Adj<'_> {
    fn get(&self, name: &str, default: f64) -> f64 {
        let v = self
            .0
            .iter()
            .find(|(n, _)| n == name || (name == "adj1" && n == "adj"))
            .map_or(default, |(_, v)| *v);
        if v.is_finite() {
            v
        } else {
            default
        }
    }
}

/// The sub-paths that draw `geometry` in a box of `w` × `h` points.
pub(super) fn shape_paths(geometry: &Geometry, w: f64, h: f64) -> Vec<SubPath> {
    match geometry {
        Geometry::Preset { name, adjust } => preset(name, w, h, &Adj(adjust)),
        Geometry::Custom { paths } => custom(paths, w, h),
    }
}

fn custom(paths: &[GeomPath], w: f64, h: f64) -> Vec<SubPath> {
    paths
        .iter()
        .map(|p| {
            let sx = if p.width > 0.0 { w / p.width } else { 1.0 };
            let sy = if p.height > 0.0 { h / p.height } else { 1.0 };
            let mut b = PathBuilder::new();
            b.fill = p.fill;
            b.stroke = p.stroke;
            for c in &p.commands {
                match *c {
                    PathCommand::MoveTo { x, y } => {
                        b.m((x * sx, y * sy));
                        b.open = true;
                    }
                    PathCommand::LineTo { x, y } => {
                        b.l((x * sx, y * sy));
                    }
                    PathCommand::ArcTo {
                        wr,
                        hr,
                        start,
                        swing,
                    } => {
                        b.arc(wr * sx, hr * sy, start, swing);
                    }
                    PathCommand::QuadTo { x1, y1, x, y } => {
                        b.q((x1 * sx, y1 * sy), (x * sx, y * sy));
                    }
                    PathCommand::CubicTo {
                        x1,
                        y1,
                        x2,
                        y2,
                        x,
                        y,
                    } => {
                        b.c((x1 * sx, y1 * sy), (x2 * sx, y2 * sy), (x * sx, y * sy));
                    }
                    PathCommand::Close => {
                        b.z();
                    }
                }
            }
            b.finish()
        })
        .collect()
}

/// A polygon with vertices on a unit circle, stretched so its bounding box fills the
/// shape box (regular polygons and stars).
fn fitted(points: &[P], w: f64, h: f64) -> Vec<P> {
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &(x, y) in points {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    let sx = if x1 > x0 { w / (x1 - x0) } else { 0.0 };
    let sy = if y1 > y0 { h / (y1 - y0) } else { 0.0 };
    points
        .iter()
        .map(|&(x, y)| ((x - x0) * sx, (y - y0) * sy))
        .collect()
}

fn regular(n: usize, w: f64, h: f64) -> Vec<P> {
    let pts: Vec<P> = (0..n)
        .map(|k| {
            let a = (-90.0 + 360.0 * k as f64 / n as f64).to_radians();
            (a.cos(), a.sin())
        })
        .collect();
    fitted(&pts, w, h)
}

fn star(n: usize, inner: f64, w: f64, h: f64) -> Vec<P> {
    let mut pts = Vec::with_capacity(2 * n);
    for k in 0..2 * n {
        let a = (-90.0 + 180.0 * k as f64 / n as f64).to_radians();
        let r = if k % 2 == 0 { 1.0 } else { inner };
        pts.push((r * a.cos(), r * a.sin()));
    }
    // Fit by the outer points only, as PowerPoint does.
    let outer: Vec<P> = pts.iter().step_by(2).copied().collect();
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &(x, y) in &outer {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    let sx = if x1 > x0 { w / (x1 - x0) } else { 0.0 };
    let sy = if y1 > y0 { h / (y1 - y0) } else { 0.0 };
    pts.iter()
        .map(|&(x, y)| ((x - x0) * sx, (y - y0) * sy))
        .collect()
}

/// Rounded rectangle outline with per-corner radii (tl, tr, br, bl).
fn rounded(b: &mut PathBuilder, w: f64, h: f64, r: [f64; 4]) {
    let [tl, tr, br, bl] = r.map(|v| v.max(0.0));
    b.m((0.0, tl));
    b.arc(tl, tl, 180.0, 90.0);
    b.l((w - tr, 0.0));
    b.arc(tr, tr, 270.0, 90.0);
    b.l((w, h - br));
    b.arc(br, br, 0.0, 90.0);
    b.l((bl, h));
    b.arc(bl, bl, 90.0, 90.0);
    b.z();
}

/// A rectangle (optionally rounded by `r`) with a callout wedge toward `tip`.
fn wedge_rect(b: &mut PathBuilder, w: f64, h: f64, tip: P, r: f64) {
    let dx = tip.0 - w / 2.0;
    let dy = tip.1 - h / 2.0;
    let inside = tip.0 >= 0.0 && tip.0 <= w && tip.1 >= 0.0 && tip.1 <= h;
    let vertical = dy.abs() * w >= dx.abs() * h;
    // The wedge's base on the edge nearest the tip, on the tip's side of the centre.
    let base = |len: f64, before: bool| {
        if before {
            (len * 2.0 / 12.0, len * 5.0 / 12.0)
        } else {
            (len * 7.0 / 12.0, len * 10.0 / 12.0)
        }
    };
    let r = r.min(w / 2.0).min(h / 2.0).max(0.0);
    b.m((0.0, r));
    b.arc(r, r, 180.0, 90.0);
    if !inside && vertical && dy < 0.0 {
        let (a, c) = base(w, dx < 0.0);
        b.l((a, 0.0)).l(tip).l((c, 0.0));
    }
    b.l((w - r, 0.0));
    b.arc(r, r, 270.0, 90.0);
    if !inside && !vertical && dx > 0.0 {
        let (a, c) = base(h, dy < 0.0);
        b.l((w, a)).l(tip).l((w, c));
    }
    b.l((w, h - r));
    b.arc(r, r, 0.0, 90.0);
    if !inside && vertical && dy >= 0.0 {
        let (a, c) = base(w, dx < 0.0);
        b.l((c, h)).l(tip).l((a, h));
    }
    b.l((r, h));
    b.arc(r, r, 90.0, 90.0);
    if !inside && !vertical && dx <= 0.0 {
        let (a, c) = base(h, dy < 0.0);
        b.l((0.0, c)).l(tip).l((0.0, a));
    }
    b.z();
}

/// A scalloped ellipse (clouds).
fn cloud(b: &mut PathBuilder, w: f64, h: f64) {
    let n = 11;
    let (cx, cy, rx, ry) = (w / 2.0, h / 2.0, w / 2.0 * 0.86, h / 2.0 * 0.86);
    let at = |k: f64, s: f64| {
        let a = (k * 360.0 / n as f64 - 90.0).to_radians();
        (cx + rx * s * a.cos(), cy + ry * s * a.sin())
    };
    b.m(at(0.0, 1.0));
    for k in 0..n {
        let k = k as f64;
        b.q(at(k + 0.5, 1.32), at(k + 1.0, 1.0));
    }
    b.z();
}

#[allow(clippy::too_many_lines)]
fn preset(name: &str, w: f64, h: f64, a: &Adj<'_>) -> Vec<SubPath> {
    let ss = w.min(h);
    let mut b = PathBuilder::new();
    let mut extra: Vec<SubPath> = Vec::new();
    // An adjust value as a fraction (values are in 1/100 000).
    let f = |n: &str, d: f64| a.get(n, d) / 100_000.0;
    match name {
        "ellipse"
        | "flowChartConnector"
        | "flowChartOr"
        | "flowChartSummingJunction"
        | "sun"
        | "smileyFace" => {
            b.ellipse(w / 2.0, h / 2.0, w / 2.0, h / 2.0);
        }
        "roundRect" | "flowChartAlternateProcess" => {
            let r = ss * f("adj", 16_667.0).clamp(0.0, 0.5);
            rounded(&mut b, w, h, [r; 4]);
        }
        "round1Rect" => {
            let r = ss * f("adj", 16_667.0).clamp(0.0, 0.5);
            rounded(&mut b, w, h, [0.0, r, 0.0, 0.0]);
        }
        "round2SameRect" => {
            let r1 = ss * f("adj1", 16_667.0).clamp(0.0, 0.5);
            let r2 = ss * f("adj2", 0.0).clamp(0.0, 0.5);
            rounded(&mut b, w, h, [r1, r1, r2, r2]);
        }
        "round2DiagRect" => {
            let r1 = ss * f("adj1", 16_667.0).clamp(0.0, 0.5);
            let r2 = ss * f("adj2", 0.0).clamp(0.0, 0.5);
            rounded(&mut b, w, h, [r1, r2, r1, r2]);
        }
        "flowChartTerminator" => {
            let rx = (w * 0.161).min(w / 2.0);
            let ry = h / 2.0;
            b.m((rx, 0.0)).l((w - rx, 0.0));
            b.arc(rx, ry, 270.0, 180.0);
            b.l((rx, h));
            b.arc(rx, ry, 90.0, 180.0);
            b.z();
        }
        "snip1Rect" => {
            let d = ss * f("adj", 16_667.0).clamp(0.0, 0.5);
            b.poly(&[(0.0, 0.0), (w - d, 0.0), (w, d), (w, h), (0.0, h)]);
        }
        "snip2SameRect" => {
            let d1 = ss * f("adj1", 16_667.0).clamp(0.0, 0.5);
            let d2 = ss * f("adj2", 0.0).clamp(0.0, 0.5);
            b.poly(&[
                (d1, 0.0),
                (w - d1, 0.0),
                (w, d1),
                (w, h - d2),
                (w - d2, h),
                (d2, h),
                (0.0, h - d2),
                (0.0, d1),
            ]);
        }
        "snipRoundRect" => {
            let r = ss * f("adj1", 16_667.0).clamp(0.0, 0.5);
            let d = ss * f("adj2", 16_667.0).clamp(0.0, 0.5);
            b.m((r, 0.0))
                .l((w - d, 0.0))
                .l((w, d))
                .l((w, h))
                .l((0.0, h));
            b.l((0.0, r));
            b.arc(r, r, 180.0, 90.0);
            b.z();
        }
        "triangle" | "flowChartExtract" => {
            let x = w * f("adj", 50_000.0).clamp(0.0, 1.0);
            b.poly(&[(0.0, h), (x, 0.0), (w, h)]);
        }
        "flowChartMerge" => {
            b.poly(&[(0.0, 0.0), (w, 0.0), (w / 2.0, h)]);
        }
        "rtTriangle" => {
            b.poly(&[(0.0, h), (0.0, 0.0), (w, h)]);
        }
        "diamond" | "flowChartDecision" => {
            b.poly(&[(w / 2.0, 0.0), (w, h / 2.0), (w / 2.0, h), (0.0, h / 2.0)]);
        }
        "flowChartSort" => {
            b.poly(&[(w / 2.0, 0.0), (w, h / 2.0), (w / 2.0, h), (0.0, h / 2.0)]);
            extra.push(
                PathBuilder::new()
                    .m((0.0, h / 2.0))
                    .l((w, h / 2.0))
                    .no_fill()
                    .finish(),
            );
        }
        "parallelogram" | "flowChartInputOutput" => {
            let x = if name == "parallelogram" {
                (ss * f("adj", 25_000.0)).clamp(0.0, w)
            } else {
                w / 5.0
            };
            b.poly(&[(0.0, h), (x, 0.0), (w, 0.0), (w - x, h)]);
        }
        "trapezoid" => {
            let x = (ss * f("adj", 25_000.0)).clamp(0.0, w / 2.0);
            b.poly(&[(0.0, h), (x, 0.0), (w - x, 0.0), (w, h)]);
        }
        "flowChartManualOperation" => {
            b.poly(&[(0.0, 0.0), (w, 0.0), (w * 0.8, h), (w * 0.2, h)]);
        }
        "flowChartManualInput" => {
            b.poly(&[(0.0, h * 0.2), (w, 0.0), (w, h), (0.0, h)]);
        }
        "flowChartOffpageConnector" => {
            b.poly(&[
                (0.0, 0.0),
                (w, 0.0),
                (w, h * 0.8),
                (w / 2.0, h),
                (0.0, h * 0.8),
            ]);
        }
        "flowChartPunchedCard" => {
            b.poly(&[(w * 0.2, 0.0), (w, 0.0), (w, h), (0.0, h), (0.0, h * 0.2)]);
        }
        "pentagon" => {
            b.poly(&regular(5, w, h));
        }
        "heptagon" => {
            b.poly(&regular(7, w, h));
        }
        "decagon" => {
            b.poly(&regular(10, w, h));
        }
        "dodecagon" => {
            b.poly(&regular(12, w, h));
        }
        "hexagon" | "flowChartPreparation" => {
            let x = if name == "hexagon" {
                (ss * f("adj", 25_000.0)).clamp(0.0, w / 2.0)
            } else {
                w / 5.0
            };
            b.poly(&[
                (0.0, h / 2.0),
                (x, 0.0),
                (w - x, 0.0),
                (w, h / 2.0),
                (w - x, h),
                (x, h),
            ]);
        }
        "octagon" => {
            let d = (ss * f("adj", 29_289.0)).clamp(0.0, ss / 2.0);
            b.poly(&[
                (0.0, d),
                (d, 0.0),
                (w - d, 0.0),
                (w, d),
                (w, h - d),
                (w - d, h),
                (d, h),
                (0.0, h - d),
            ]);
        }
        "chevron" => {
            let x = (ss * f("adj", 50_000.0)).clamp(0.0, w);
            b.poly(&[
                (0.0, 0.0),
                (w - x, 0.0),
                (w, h / 2.0),
                (w - x, h),
                (0.0, h),
                (x, h / 2.0),
            ]);
        }
        "homePlate" => {
            let x = (ss * f("adj", 50_000.0)).clamp(0.0, w);
            b.poly(&[(0.0, 0.0), (w - x, 0.0), (w, h / 2.0), (w - x, h), (0.0, h)]);
        }
        "rightArrow" | "leftArrow" | "notchedRightArrow" | "stripedRightArrow" => {
            let dy = h * f("adj1", 50_000.0).clamp(0.0, 1.0) / 2.0;
            let head = (ss * f("adj2", 50_000.0)).clamp(0.0, w);
            let x1 = w - head;
            // The notch is as deep as the head would be at the shaft's half-height.
            let notch = if name == "notchedRightArrow" {
                dy * head / (h / 2.0).max(f64::EPSILON)
            } else {
                0.0
            };
            let mut pts = vec![
                (0.0, h / 2.0 - dy),
                (x1, h / 2.0 - dy),
                (x1, 0.0),
                (w, h / 2.0),
                (x1, h),
                (x1, h / 2.0 + dy),
                (0.0, h / 2.0 + dy),
            ];
            if notch > 0.0 {
                pts.push((notch.min(x1), h / 2.0));
            }
            if name == "leftArrow" {
                pts.iter_mut().for_each(|p| p.0 = w - p.0);
            }
            b.poly(&pts);
        }
        "upArrow" | "downArrow" => {
            let dx = w * f("adj1", 50_000.0).clamp(0.0, 1.0) / 2.0;
            let head = (ss * f("adj2", 50_000.0)).clamp(0.0, h);
            let mut pts = vec![
                (w / 2.0 - dx, h),
                (w / 2.0 - dx, head),
                (0.0, head),
                (w / 2.0, 0.0),
                (w, head),
                (w / 2.0 + dx, head),
                (w / 2.0 + dx, h),
            ];
            if name == "downArrow" {
                pts.iter_mut().for_each(|p| p.1 = h - p.1);
            }
            b.poly(&pts);
        }
        "leftRightArrow" => {
            let dy = h * f("adj1", 50_000.0).clamp(0.0, 1.0) / 2.0;
            let x1 = (ss * f("adj2", 50_000.0)).clamp(0.0, w / 2.0);
            let x2 = w - x1;
            b.poly(&[
                (0.0, h / 2.0),
                (x1, 0.0),
                (x1, h / 2.0 - dy),
                (x2, h / 2.0 - dy),
                (x2, 0.0),
                (w, h / 2.0),
                (x2, h),
                (x2, h / 2.0 + dy),
                (x1, h / 2.0 + dy),
                (x1, h),
            ]);
        }
        "upDownArrow" => {
            let dx = w * f("adj1", 50_000.0).clamp(0.0, 1.0) / 2.0;
            let y1 = (ss * f("adj2", 50_000.0)).clamp(0.0, h / 2.0);
            let y2 = h - y1;
            b.poly(&[
                (w / 2.0, 0.0),
                (w, y1),
                (w / 2.0 + dx, y1),
                (w / 2.0 + dx, y2),
                (w, y2),
                (w / 2.0, h),
                (0.0, y2),
                (w / 2.0 - dx, y2),
                (w / 2.0 - dx, y1),
                (0.0, y1),
            ]);
        }
        "line" | "straightConnector1" => {
            b.m((0.0, 0.0)).l((w, h)).no_fill();
        }
        "bentConnector2" => {
            b.m((0.0, 0.0)).l((w, 0.0)).l((w, h)).no_fill();
        }
        "bentConnector3" => {
            let x1 = w * f("adj1", 50_000.0);
            b.m((0.0, 0.0)).l((x1, 0.0)).l((x1, h)).l((w, h)).no_fill();
        }
        "bentConnector4" => {
            let x1 = w * f("adj1", 50_000.0);
            let y2 = h * f("adj2", 50_000.0);
            b.m((0.0, 0.0))
                .l((x1, 0.0))
                .l((x1, y2))
                .l((w, y2))
                .l((w, h))
                .no_fill();
        }
        "bentConnector5" => {
            let x1 = w * f("adj1", 50_000.0);
            let y2 = h * f("adj2", 50_000.0);
            let x3 = w * f("adj3", 50_000.0);
            b.m((0.0, 0.0))
                .l((x1, 0.0))
                .l((x1, y2))
                .l((x3, y2))
                .l((x3, h))
                .l((w, h))
                .no_fill();
        }
        "curvedConnector2" => {
            b.m((0.0, 0.0))
                .c((w / 2.0, 0.0), (w, h / 2.0), (w, h))
                .no_fill();
        }
        "curvedConnector3" | "curvedConnector4" | "curvedConnector5" => {
            let x = w * f("adj1", 50_000.0);
            b.m((0.0, 0.0))
                .c((x / 2.0, 0.0), (x, h / 4.0), (x, h / 2.0))
                .c((x, h * 0.75), ((x + w) / 2.0, h), (w, h))
                .no_fill();
        }
        "wedgeRectCallout" | "wedgeRoundRectCallout" => {
            let tip = (
                w / 2.0 + w * f("adj1", -20_833.0),
                h / 2.0 + h * f("adj2", 62_500.0),
            );
            let r = if name == "wedgeRoundRectCallout" {
                ss * f("adj3", 16_667.0).clamp(0.0, 0.5)
            } else {
                0.0
            };
            wedge_rect(&mut b, w, h, tip, r);
        }
        "wedgeEllipseCallout" => {
            let tip = (
                w / 2.0 + w * f("adj1", -20_833.0),
                h / 2.0 + h * f("adj2", 62_500.0),
            );
            let (rx, ry) = (w / 2.0, h / 2.0);
            // The visual angle of the tip from the centre; the wedge leaves the ellipse
            // 11 degrees either side of it.
            let ang = (tip.1 - ry).atan2(tip.0 - rx).to_degrees();
            let on = |deg: f64| ellipse_point(rx, ry, deg);
            let inside = ((tip.0 - rx) / rx.max(f64::EPSILON)).powi(2)
                + ((tip.1 - ry) / ry.max(f64::EPSILON)).powi(2)
                <= 1.0;
            if inside {
                b.ellipse(rx, ry, rx, ry);
            } else {
                b.m(on(ang + 11.0));
                b.arc(rx, ry, ang + 11.0, 338.0);
                b.l(tip);
                b.z();
            }
        }
        "cloudCallout" | "cloud" => {
            cloud(&mut b, w, h);
            if name == "cloudCallout" {
                let tip = (
                    w / 2.0 + w * f("adj1", -20_833.0),
                    h / 2.0 + h * f("adj2", 62_500.0),
                );
                for (i, t) in [0.9, 0.7, 0.45].iter().enumerate() {
                    let p = (
                        w / 2.0 + (tip.0 - w / 2.0) * t,
                        h / 2.0 + (tip.1 - h / 2.0) * t,
                    );
                    let r = ss * (0.03 + 0.025 * i as f64);
                    extra.push(PathBuilder::new().ellipse(p.0, p.1, r, r).finish());
                }
            }
        }
        "borderCallout1"
        | "callout1"
        | "accentCallout1"
        | "accentBorderCallout1"
        | "borderCallout2"
        | "callout2"
        | "accentCallout2"
        | "accentBorderCallout2"
        | "borderCallout3"
        | "callout3"
        | "accentCallout3"
        | "accentBorderCallout3" => {
            let bordered = !name.starts_with("callout") && !name.starts_with("accentCallout");
            let mut rect = PathBuilder::new();
            rect.poly(&[(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]);
            rect.stroke = bordered;
            extra.push(rect.finish());
            let n = name
                .chars()
                .last()
                .and_then(|c| c.to_digit(10))
                .unwrap_or(1);
            let defaults: &[(f64, f64)] = match n {
                1 => &[(18_750.0, -8_333.0), (112_500.0, -38_333.0)],
                2 => &[
                    (18_750.0, -8_333.0),
                    (18_750.0, -16_667.0),
                    (112_500.0, -46_667.0),
                ],
                _ => &[
                    (18_750.0, -8_333.0),
                    (18_750.0, -16_667.0),
                    (100_000.0, -16_667.0),
                    (112_963.0, -8_333.0),
                ],
            };
            for (i, (dy, dx)) in defaults.iter().enumerate() {
                let y = h * a.get(&format!("adj{}", 2 * i + 1), *dy) / 100_000.0;
                let x = w * a.get(&format!("adj{}", 2 * i + 2), *dx) / 100_000.0;
                if i == 0 {
                    b.m((x, y));
                } else {
                    b.l((x, y));
                }
            }
            b.no_fill();
            // The leader line is the last sub-path so arrow heads attach to it.
            let leader = b.finish();
            extra.push(leader);
            return extra;
        }
        "star4" | "star5" | "star6" | "star7" | "star8" | "star10" | "star12" | "star16"
        | "star24" | "star32" => {
            let n: usize = name[4..].parse().unwrap_or(5);
            let default = match n {
                4 => 12_500.0,
                5 => 19_098.0,
                6 => 28_868.0,
                7 => 34_601.0,
                10 => 42_533.0,
                _ => 37_500.0,
            };
            let inner = (a.get("adj", default) / 50_000.0).clamp(0.0, 1.0);
            b.poly(&star(n, inner, w, h));
        }
        "plus" | "cross" | "mathPlus" => {
            let d = (ss * f("adj", 25_000.0)).clamp(0.0, ss / 2.0);
            b.poly(&[
                (d, 0.0),
                (w - d, 0.0),
                (w - d, d),
                (w, d),
                (w, h - d),
                (w - d, h - d),
                (w - d, h),
                (d, h),
                (d, h - d),
                (0.0, h - d),
                (0.0, d),
                (d, d),
            ]);
        }
        "mathMinus" => {
            let dy = h * f("adj1", 23_520.0) / 2.0;
            b.poly(&[
                (w * 0.12, h / 2.0 - dy),
                (w * 0.88, h / 2.0 - dy),
                (w * 0.88, h / 2.0 + dy),
                (w * 0.12, h / 2.0 + dy),
            ]);
        }
        "frame" => {
            let d = (ss * f("adj1", 12_500.0)).clamp(0.0, ss / 2.0);
            b.poly(&[(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]);
            b.poly(&[(d, d), (d, h - d), (w - d, h - d), (w - d, d)]);
        }
        "donut" | "noSmoking" => {
            let d = (ss * f("adj", 25_000.0)).clamp(0.0, ss / 2.0);
            b.ellipse(w / 2.0, h / 2.0, w / 2.0, h / 2.0);
            b.ellipse(w / 2.0, h / 2.0, w / 2.0 - d, h / 2.0 - d);
        }
        "can" | "flowChartMagneticDisk" => {
            let ry = if name == "can" {
                (ss * f("adj", 25_000.0) / 2.0).clamp(0.0, h / 2.0)
            } else {
                h / 6.0
            };
            let rx = w / 2.0;
            b.m((0.0, ry));
            b.arc(rx, ry, 180.0, 180.0);
            b.l((w, h - ry));
            b.arc(rx, ry, 0.0, 180.0);
            b.z();
            let mut top = PathBuilder::new();
            top.m((0.0, ry));
            top.arc(rx, ry, 180.0, -180.0);
            extra.push(top.no_fill().finish());
        }
        "cube" => {
            let d = (ss * f("adj", 25_000.0)).clamp(0.0, ss);
            b.poly(&[(0.0, d), (w - d, d), (w - d, h), (0.0, h)]);
            extra.push(
                PathBuilder::new()
                    .poly(&[(0.0, d), (d, 0.0), (w, 0.0), (w - d, d)])
                    .finish(),
            );
            extra.push(
                PathBuilder::new()
                    .poly(&[(w - d, d), (w, 0.0), (w, h - d), (w - d, h)])
                    .finish(),
            );
        }
        "foldedCorner" => {
            let d = (ss * f("adj", 16_667.0)).clamp(0.0, ss);
            b.poly(&[(0.0, 0.0), (w, 0.0), (w, h - d), (w - d, h), (0.0, h)]);
            extra.push(
                PathBuilder::new()
                    .poly(&[(w - d, h), (w - d * 0.8, h - d * 0.8), (w, h - d)])
                    .finish(),
            );
        }
        "bevel" => {
            let d = (ss * f("adj", 12_500.0)).clamp(0.0, ss / 2.0);
            b.poly(&[(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]);
            extra.push(
                PathBuilder::new()
                    .poly(&[(d, d), (w - d, d), (w - d, h - d), (d, h - d)])
                    .finish(),
            );
        }
        "plaque" => {
            let r = (ss * f("adj", 16_667.0)).clamp(0.0, ss / 2.0);
            b.m((0.0, r));
            b.arc(r, r, 90.0, -90.0);
            b.l((w - r, 0.0));
            b.arc(r, r, 180.0, -90.0);
            b.l((w, h - r));
            b.arc(r, r, 270.0, -90.0);
            b.l((r, h));
            b.arc(r, r, 0.0, -90.0);
            b.z();
        }
        "heart" => {
            b.m((w / 2.0, h / 4.0))
                .c((w * 0.6, 0.0), (w, 0.0), (w, h / 3.0))
                .c((w, h * 0.6), (w * 0.6, h * 0.75), (w / 2.0, h))
                .c((w * 0.4, h * 0.75), (0.0, h * 0.6), (0.0, h / 3.0))
                .c((0.0, 0.0), (w * 0.4, 0.0), (w / 2.0, h / 4.0))
                .z();
        }
        "lightningBolt" => {
            const PTS: [(f64, f64); 11] = [
                (8_472.0, 0.0),
                (12_860.0, 6_080.0),
                (11_050.0, 6_797.0),
                (16_577.0, 12_007.0),
                (14_767.0, 12_877.0),
                (21_600.0, 21_600.0),
                (10_012.0, 14_915.0),
                (12_222.0, 13_987.0),
                (5_022.0, 9_705.0),
                (7_602.0, 8_382.0),
                (0.0, 3_890.0),
            ];
            let pts: Vec<P> = PTS
                .iter()
                .map(|(x, y)| (x / 21_600.0 * w, y / 21_600.0 * h))
                .collect();
            b.poly(&pts);
        }
        "moon" => {
            let d = w * f("adj", 50_000.0).clamp(0.0, 0.875);
            b.m((w, 0.0));
            b.arc(w, h / 2.0, 270.0, -180.0);
            b.c((w - d * 1.3, h * 0.75), (w - d * 1.3, h * 0.25), (w, 0.0));
            b.z();
        }
        "arc" => {
            let st = a.get("adj1", 16_200_000.0) / 60_000.0;
            let en = a.get("adj2", 0.0) / 60_000.0;
            let sw = (en - st).rem_euclid(360.0);
            let (rx, ry) = (w / 2.0, h / 2.0);
            b.m(ellipse_point(rx, ry, st));
            b.arc(rx, ry, st, if sw == 0.0 { 360.0 } else { sw });
            b.no_fill();
        }
        "pie" | "chord" => {
            let st = a.get("adj1", 0.0) / 60_000.0;
            let en = a.get("adj2", 16_200_000.0) / 60_000.0;
            let sw = (en - st).rem_euclid(360.0);
            let (rx, ry) = (w / 2.0, h / 2.0);
            b.m(ellipse_point(rx, ry, st));
            b.arc(rx, ry, st, sw);
            if name == "pie" {
                b.l((rx, ry));
            }
            b.z();
        }
        "leftBracket" | "rightBracket" => {
            let r = (ss * f("adj", 8_333.0)).clamp(0.0, h / 2.0);
            b.m((w, 0.0));
            b.arc(w, r, 270.0, -90.0);
            b.l((0.0, h - r));
            b.arc(w, r, 180.0, -90.0);
            b.no_fill();
            let mut p = b.finish();
            if name == "rightBracket" {
                p = mirror_x(&p, w);
            }
            return vec![p];
        }
        "leftBrace" | "rightBrace" => {
            let r = (ss * f("adj1", 8_333.0)).clamp(0.0, h / 4.0);
            let mid = h * f("adj2", 50_000.0).clamp(0.0, 1.0);
            let x = w / 2.0;
            b.m((w, 0.0))
                .q((x, 0.0), (x, r))
                .l((x, mid - r))
                .q((x, mid), (0.0, mid))
                .q((x, mid), (x, mid + r))
                .l((x, h - r))
                .q((x, h), (w, h))
                .no_fill();
            let mut p = b.finish();
            if name == "rightBrace" {
                p = mirror_x(&p, w);
            }
            return vec![p];
        }
        "bracketPair" => {
            let r = (ss * f("adj", 16_667.0)).clamp(0.0, ss / 2.0);
            let mut left = PathBuilder::new();
            left.m((r, h));
            left.arc(r, r, 90.0, 90.0);
            left.l((0.0, r));
            left.arc(r, r, 180.0, 90.0);
            let mut right = PathBuilder::new();
            right.m((w - r, 0.0));
            right.arc(r, r, 270.0, 90.0);
            right.l((w, h - r));
            right.arc(r, r, 0.0, 90.0);
            return vec![left.no_fill().finish(), right.no_fill().finish()];
        }
        "flowChartPredefinedProcess" => {
            b.poly(&[(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]);
            for x in [w / 8.0, w * 7.0 / 8.0] {
                extra.push(PathBuilder::new().m((x, 0.0)).l((x, h)).no_fill().finish());
            }
        }
        "flowChartDocument" => {
            b.m((0.0, 0.0))
                .l((w, 0.0))
                .l((w, h * 0.8))
                .c((w * 0.7, h * 0.65), (w * 0.3, h * 1.1), (0.0, h * 0.9))
                .z();
        }
        "flowChartDelay" => {
            b.m((0.0, 0.0)).l((w / 2.0, 0.0));
            b.arc(w / 2.0, h / 2.0, 270.0, 180.0);
            b.l((0.0, h)).z();
        }
        "wave" | "doubleWave" => {
            let amp = h * f("adj1", 12_500.0).clamp(0.0, 0.2);
            b.m((0.0, amp))
                .c((w / 3.0, -amp), (w * 2.0 / 3.0, amp * 3.0), (w, amp))
                .l((w, h - amp))
                .c(
                    (w * 2.0 / 3.0, h + amp),
                    (w / 3.0, h - amp * 3.0),
                    (0.0, h - amp),
                )
                .z();
        }
        _ => {
            b.poly(&[(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]);
        }
    }
    let mut out = vec![b.finish()];
    out.extend(extra);
    out
}

/// Mirrors a sub-path left to right within width `w` by re-writing its numbers.
fn mirror_x(p: &SubPath, w: f64) -> SubPath {
    let mut d = String::with_capacity(p.d.len());
    let mut is_x = true;
    let mut num = String::new();
    let flush = |num: &mut String, d: &mut String, is_x: &mut bool| {
        if num.is_empty() {
            return;
        }
        let v: f64 = num.parse().unwrap_or(0.0);
        if !d.is_empty() && !d.ends_with(|c: char| c.is_ascii_alphabetic()) {
            d.push(' ');
        }
        d.push_str(&fmt(if *is_x { w - v } else { v }));
        *is_x = !*is_x;
        num.clear();
    };
    for ch in p.d.chars() {
        if ch.is_ascii_digit() || ch == '.' || (ch == '-' && num.is_empty()) || ch == 'e' {
            num.push(ch);
        } else {
            flush(&mut num, &mut d, &mut is_x);
            if ch.is_ascii_alphabetic() {
                d.push(ch);
                is_x = true;
            }
        }
    }
    flush(&mut num, &mut d, &mut is_x);
    let m = |o: Option<(P, P)>| o.map(|(a, b)| ((w - a.0, a.1), (w - b.0, b.1)));
    SubPath {
        d,
        fill: p.fill,
        stroke: p.stroke,
        start: m(p.start),
        end: m(p.end),
    }
}

/// SVG for an arrow head at `tip`, arriving from `from`, for a line `width` points
/// wide. Filled heads use `fill`; the open `arrow` kind is stroked.
pub(super) fn arrow_head(end: &LineEnd, tip: P, from: P, width: f64) -> (String, bool) {
    let scale = |s: &str| match s {
        "sm" => 2.0,
        "lg" => 5.0,
        _ => 3.0,
    };
    let lw = width.max(1.0);
    let half = scale(&end.width) * lw / 2.0;
    let len = scale(&end.length) * lw;
    let (dx, dy) = (tip.0 - from.0, tip.1 - from.1);
    let norm = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = if norm > 1e-9 {
        (dx / norm, dy / norm)
    } else {
        (1.0, 0.0)
    };
    let (nx, ny) = (-uy, ux);
    let at = |along: f64, across: f64| {
        (
            tip.0 - ux * along + nx * across,
            tip.1 - uy * along + ny * across,
        )
    };
    let pts: Vec<P> = match end.kind.as_str() {
        "stealth" => vec![
            at(0.0, 0.0),
            at(len, half),
            at(len * 0.6, 0.0),
            at(len, -half),
        ],
        "diamond" => vec![
            at(-len / 2.0, 0.0),
            at(0.0, half),
            at(len / 2.0, 0.0),
            at(0.0, -half),
        ],
        "oval" => {
            let mut b = PathBuilder::new();
            b.ellipse(tip.0, tip.1, len / 2.0, half);
            return (b.finish().d, true);
        }
        "arrow" => {
            let mut b = PathBuilder::new();
            b.m(at(len, half)).l(at(0.0, 0.0)).l(at(len, -half));
            return (b.finish().d, false);
        }
        _ => vec![at(0.0, 0.0), at(len, half), at(len, -half)],
    };
    let mut b = PathBuilder::new();
    b.poly(&pts);
    (b.finish().d, true)
}

// ----- custom geometry -------------------------------------------------------------

/// Most guides and path commands read from one custom geometry.
const MAX_GUIDES: usize = 1_000;
const MAX_COMMANDS: usize = 20_000;

/// Reads an `a:custGeom` for a shape of `w` × `h` EMU, evaluating its guides.
pub(super) fn custom_geometry(el: Element<'_>, w: f64, h: f64) -> Geometry {
    let mut vars = Guides::new(w, h);
    for list in ["avLst", "gdLst"] {
        if let Some(l) = el.child(Ns::A, list) {
            for gd in l.children_named(Ns::A, "gd").take(MAX_GUIDES) {
                if let (Some(name), Some(fmla)) =
                    (gd.attr(Ns::None, "name"), gd.attr(Ns::None, "fmla"))
                {
                    let v = vars.eval(fmla);
                    vars.set(name, v);
                }
            }
        }
    }
    let mut paths = Vec::new();
    let mut budget = MAX_COMMANDS;
    if let Some(list) = el.child(Ns::A, "pathLst") {
        for p in list.children_named(Ns::A, "path") {
            let dim = |n: &str| {
                p.attr(Ns::None, n)
                    .and_then(number)
                    .filter(|v| *v > 0.0)
                    .unwrap_or(0.0)
            };
            let mut commands = Vec::new();
            for c in p.elements() {
                if budget == 0 {
                    break;
                }
                budget -= 1;
                let pts: Vec<(f64, f64)> = c
                    .children_named(Ns::A, "pt")
                    .take(3)
                    .map(|pt| {
                        (
                            vars.value(pt.attr(Ns::None, "x").unwrap_or("0")),
                            vars.value(pt.attr(Ns::None, "y").unwrap_or("0")),
                        )
                    })
                    .collect();
                let cmd = match (c.name(), pts.as_slice()) {
                    ("moveTo", [p0, ..]) => PathCommand::MoveTo { x: p0.0, y: p0.1 },
                    ("lnTo", [p0, ..]) => PathCommand::LineTo { x: p0.0, y: p0.1 },
                    ("quadBezTo", [p1, p0, ..]) => PathCommand::QuadTo {
                        x1: p1.0,
                        y1: p1.1,
                        x: p0.0,
                        y: p0.1,
                    },
                    ("cubicBezTo", [p1, p2, p0]) => PathCommand::CubicTo {
                        x1: p1.0,
                        y1: p1.1,
                        x2: p2.0,
                        y2: p2.1,
                        x: p0.0,
                        y: p0.1,
                    },
                    ("arcTo", _) => {
                        let g = |n: &str| vars.value(c.attr(Ns::None, n).unwrap_or("0"));
                        PathCommand::ArcTo {
                            wr: g("wR"),
                            hr: g("hR"),
                            start: g("stAng") / 60_000.0,
                            swing: g("swAng") / 60_000.0,
                        }
                    }
                    ("close", _) => PathCommand::Close,
                    _ => continue,
                };
                commands.push(cmd);
            }
            paths.push(GeomPath {
                width: dim("w"),
                height: dim("h"),
                fill: p.attr(Ns::None, "fill") != Some("none"),
                stroke: !matches!(p.attr(Ns::None, "stroke"), Some("0" | "false")),
                commands,
            });
        }
    }
    Geometry::Custom { paths }
}

/// Guide values of one geometry, with the built-in names.
struct Guides {
    vars: HashMap<String, f64>,
}

impl Guides {
    fn new(w: f64, h: f64) -> Guides {
        let ss = w.min(h);
        let mut vars = HashMap::new();
        let builtins: [(&str, f64); 37] = [
            ("w", w),
            ("h", h),
            ("l", 0.0),
            ("t", 0.0),
            ("r", w),
            ("b", h),
            ("hc", w / 2.0),
            ("vc", h / 2.0),
            ("wd2", w / 2.0),
            ("wd3", w / 3.0),
            ("wd4", w / 4.0),
            ("wd5", w / 5.0),
            ("wd6", w / 6.0),
            ("wd8", w / 8.0),
            ("wd10", w / 10.0),
            ("wd12", w / 12.0),
            ("wd32", w / 32.0),
            ("hd2", h / 2.0),
            ("hd3", h / 3.0),
            ("hd4", h / 4.0),
            ("hd5", h / 5.0),
            ("hd6", h / 6.0),
            ("hd8", h / 8.0),
            ("hd10", h / 10.0),
            ("ss", ss),
            ("ls", w.max(h)),
            ("ssd2", ss / 2.0),
            ("ssd4", ss / 4.0),
            ("ssd6", ss / 6.0),
            ("ssd8", ss / 8.0),
            ("ssd16", ss / 16.0),
            ("ssd32", ss / 32.0),
            ("cd2", 10_800_000.0),
            ("cd4", 5_400_000.0),
            ("cd8", 2_700_000.0),
            ("3cd4", 16_200_000.0),
            ("3cd8", 8_100_000.0),
        ];
        for (k, v) in builtins {
            vars.insert(k.to_owned(), v);
        }
        vars.insert("5cd8".to_owned(), 13_500_000.0);
        vars.insert("7cd8".to_owned(), 18_900_000.0);
        Guides { vars }
    }

    fn set(&mut self, name: &str, v: f64) {
        if self.vars.len() < MAX_GUIDES + 64 {
            self.vars.insert(name.to_owned(), v);
        }
    }

    /// A number or a guide name.
    fn value(&self, token: &str) -> f64 {
        let token = token.trim();
        let v = number(token)
            .or_else(|| self.vars.get(token).copied())
            .unwrap_or(0.0);
        if v.is_finite() {
            v.clamp(-1e12, 1e12)
        } else {
            0.0
        }
    }

    /// Evaluates a guide formula (`*/ w adj 100000`, `+- a b c`, `?: x y z` …).
    fn eval(&self, fmla: &str) -> f64 {
        let mut parts = fmla.split_ascii_whitespace();
        let op = parts.next().unwrap_or("");
        let args: Vec<f64> = parts.take(3).map(|t| self.value(t)).collect();
        let x = args.first().copied().unwrap_or(0.0);
        let y = args.get(1).copied().unwrap_or(0.0);
        let z = args.get(2).copied().unwrap_or(0.0);
        let ang = |v: f64| (v / 60_000.0).to_radians();
        let div = |a: f64, b: f64| if b == 0.0 { 0.0 } else { a / b };
        let v = match op {
            "val" => x,
            "*/" => div(x * y, z),
            "+-" => x + y - z,
            "+/" => div(x + y, z),
            "?:" => {
                if x > 0.0 {
                    y
                } else {
                    z
                }
            }
            "abs" => x.abs(),
            "at2" => y.atan2(x).to_degrees() * 60_000.0,
            "cat2" => x * z.atan2(y).cos(),
            "sat2" => x * z.atan2(y).sin(),
            "cos" => x * ang(y).cos(),
            "sin" => x * ang(y).sin(),
            "tan" => x * ang(y).tan(),
            "max" => x.max(y),
            "min" => x.min(y),
            "mod" => (x * x + y * y + z * z).sqrt(),
            "pin" => {
                if y < x {
                    x
                } else if y > z {
                    z
                } else {
                    y
                }
            }
            "sqrt" => x.max(0.0).sqrt(),
            _ => 0.0,
        };
        if v.is_finite() {
            v.clamp(-1e12, 1e12)
        } else {
            0.0
        }
    }
}

/// The parameter of the point of an ellipse (radii `rx`, `ry`) that lies at the visual
/// angle `deg` from its centre, as DrawingML measures arc angles.
fn ellipse_param(rx: f64, ry: f64, deg: f64) -> f64 {
    let a = deg.to_radians();
    (rx * a.sin()).atan2(ry * a.cos())
}

/// The point at visual angle `deg` on the ellipse inscribed in the box `2rx × 2ry`.
fn ellipse_point(rx: f64, ry: f64, deg: f64) -> (f64, f64) {
    let t = ellipse_param(rx, ry, deg);
    (rx + rx * t.cos(), ry + ry * t.sin())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(name: &str, w: f64, h: f64) -> String {
        preset(name, w, h, &Adj(&[]))[0].d.clone()
    }

    #[test]
    fn simple_presets() {
        assert_eq!(d("rect", 10.0, 5.0), "M0 0L10 0L10 5L0 5Z");
        assert_eq!(d("diamond", 10.0, 4.0), "M5 0L10 2L5 4L0 2Z");
        assert_eq!(d("triangle", 10.0, 4.0), "M0 4L5 0L10 4Z");
        assert_eq!(
            d("rightArrow", 100.0, 50.0),
            "M0 12.5L75 12.5L75 0L100 25L75 50L75 37.5L0 37.5Z"
        );
        assert_eq!(
            d("chevron", 100.0, 40.0),
            "M0 0L80 0L100 20L80 40L0 40L20 20Z"
        );
        // Unknown presets draw their box.
        assert_eq!(d("gear9", 2.0, 2.0), "M0 0L2 0L2 2L0 2Z");
    }

    #[test]
    fn adjusted_round_rect_and_star() {
        let p = preset(
            "roundRect",
            100.0,
            50.0,
            &Adj(&[("adj".to_owned(), 20_000.0)]),
        );
        assert!(p[0].d.starts_with("M0 10C"), "{}", p[0].d);
        let star = d("star5", 100.0, 100.0);
        assert_eq!(star.matches('L').count(), 9);
        assert!(star.starts_with("M50 0L"));
    }

    #[test]
    fn lines_know_their_ends() {
        let p = &preset("straightConnector1", 10.0, 0.0, &Adj(&[]))[0];
        assert!(!p.fill);
        assert_eq!(p.start, Some(((0.0, 0.0), (10.0, 0.0))));
        assert_eq!(p.end, Some(((10.0, 0.0), (0.0, 0.0))));
        let bent = &preset("bentConnector3", 10.0, 10.0, &Adj(&[]))[0];
        assert_eq!(bent.end, Some(((10.0, 10.0), (5.0, 10.0))));
    }

    #[test]
    fn arcs_become_curves() {
        let p = d("ellipse", 20.0, 10.0);
        assert_eq!(p.matches('C').count(), 4);
        assert!(p.starts_with("M20 5C"));
    }

    #[test]
    fn guide_formulas() {
        let mut g = Guides::new(1000.0, 500.0);
        assert_eq!(g.eval("*/ w 1 4"), 250.0);
        assert_eq!(g.eval("+- w h 100"), 1400.0);
        assert_eq!(g.eval("?: -1 2 3"), 3.0);
        assert_eq!(g.eval("pin 0 900 500"), 500.0);
        assert_eq!(g.eval("*/ 1 2 0"), 0.0);
        g.set("a", 7.0);
        assert_eq!(g.eval("val a"), 7.0);
        assert!((g.eval("cos 100 5400000")).abs() < 1e-9);
    }
}
