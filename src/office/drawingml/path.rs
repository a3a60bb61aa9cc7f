//! Evaluated paths to SVG path data: arcs as cubic Béziers, each path scaled from its
//! own coordinate space to the shape box, with the end points and directions that arrow
//! heads attach to.

use std::f64::consts::PI;
use std::fmt::Write as _;

use super::eval::{Command, Path};
use super::model::FillMode;

/// A point.
pub type P = (f64, f64);

/// One drawable sub-path, in the units of the shape box it was made for.
#[derive(Debug, Clone, PartialEq)]
pub struct SubPath {
    /// SVG path data.
    pub d: String,
    /// Filled.
    pub fill: bool,
    /// How the fill is shaded (`darken` …); `Norm` for a plain fill.
    pub shade: FillMode,
    /// Stroked.
    pub stroke: bool,
    /// The first point and the next distinct point (for a head arrow), when open.
    pub start: Option<(P, P)>,
    /// The last point and the point it arrives from (for a tail arrow), when open.
    pub end: Option<(P, P)>,
}

/// A number for path data: two decimals, no trailing zeros, no `-0`.
pub fn fmt(v: f64) -> String {
    let r = (v * 100.0).round() / 100.0;
    if r == 0.0 || !r.is_finite() {
        "0".to_owned()
    } else {
        format!("{r}")
    }
}

/// Builds SVG path data and remembers the end tangents.
#[derive(Debug)]
pub struct PathBuilder {
    d: String,
    cur: P,
    start: P,
    /// First point and the next distinct point after it.
    first: Option<P>,
    first_dir: Option<P>,
    /// The point before the current one (control point for curves).
    prev: P,
    fill: FillMode,
    stroke: bool,
    open: bool,
}

impl Default for PathBuilder {
    fn default() -> Self {
        PathBuilder::new()
    }
}

impl PathBuilder {
    /// An empty, filled and stroked path.
    pub fn new() -> Self {
        PathBuilder {
            d: String::new(),
            cur: (0.0, 0.0),
            start: (0.0, 0.0),
            first: None,
            first_dir: None,
            prev: (0.0, 0.0),
            fill: FillMode::Norm,
            stroke: true,
            open: true,
        }
    }

    fn note_dir(&mut self, toward: P) {
        if self.first_dir.is_none() && self.first.is_some_and(|f| f != toward) {
            self.first_dir = Some(toward);
        }
    }

    /// Starts a sub-path at `p`.
    pub fn m(&mut self, p: P) -> &mut Self {
        let _ = write!(self.d, "M{} {}", fmt(p.0), fmt(p.1));
        self.cur = p;
        self.start = p;
        self.prev = p;
        self.open = true;
        if self.first.is_none() {
            self.first = Some(p);
        }
        self
    }

    /// A line to `p`.
    pub fn l(&mut self, p: P) -> &mut Self {
        let _ = write!(self.d, "L{} {}", fmt(p.0), fmt(p.1));
        self.note_dir(p);
        self.prev = self.cur;
        self.cur = p;
        self
    }

    /// A closed polygon.
    pub fn poly(&mut self, pts: &[P]) -> &mut Self {
        for (i, p) in pts.iter().enumerate() {
            if i == 0 {
                self.m(*p);
            } else {
                self.l(*p);
            }
        }
        self.z()
    }

    /// A cubic Bézier to `p`.
    pub fn c(&mut self, c1: P, c2: P, p: P) -> &mut Self {
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

    /// A quadratic Bézier to `p`.
    pub fn q(&mut self, c: P, p: P) -> &mut Self {
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
    /// angle `st` (degrees, measured as the visual angle from the centre, as DrawingML
    /// does); sweep `sw` degrees clockwise. Drawn as cubic segments of at most 90°.
    pub fn arc(&mut self, wr: f64, hr: f64, st: f64, sw: f64) -> &mut Self {
        self.arc_scaled(wr, hr, st, sw, (1.0, 1.0))
    }

    /// [`PathBuilder::arc`] for an arc given in a path space that is scaled by `scale` to
    /// the box: its angles are measured on the unscaled ellipse.
    fn arc_scaled(&mut self, wr: f64, hr: f64, st: f64, sw: f64, scale: P) -> &mut Self {
        let (wr, hr) = (wr.abs(), hr.abs());
        if (wr == 0.0 && hr == 0.0) || sw == 0.0 || !sw.is_finite() || !st.is_finite() {
            // No radius or no swing: the arc ends where it starts.
            return self;
        }
        let st = st % 360.0;
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
        let (rx, ry) = (wr * scale.0, hr * scale.1);
        if wr == 0.0 || hr == 0.0 {
            // The ellipse is flat (a bracket with adjust 0): the pen still travels to the
            // arc's end, along the segment the ellipse became. Visual angles mean nothing
            // on a segment, so the angles are taken as the ellipse's parameter.
            let (a0, a1) = (st.to_radians(), (st + sw).to_radians());
            let centre = (self.cur.0 - rx * a0.cos(), self.cur.1 - ry * a0.sin());
            return self.l((centre.0 + rx * a1.cos(), centre.1 + ry * a1.sin()));
        }
        let centre = (self.cur.0 - rx * t0.cos(), self.cur.1 - ry * t0.sin());
        let pieces = (dt.abs() / (PI / 2.0)).ceil().clamp(1.0, 4.0) as usize;
        let step = dt / pieces as f64;
        let k = 4.0 / 3.0 * (step / 4.0).tan();
        let mut t = t0;
        for _ in 0..pieces {
            let t2 = t + step;
            let p1 = (centre.0 + rx * t.cos(), centre.1 + ry * t.sin());
            let p2 = (centre.0 + rx * t2.cos(), centre.1 + ry * t2.sin());
            let c1 = (p1.0 - k * rx * t.sin(), p1.1 + k * ry * t.cos());
            let c2 = (p2.0 + k * rx * t2.sin(), p2.1 - k * ry * t2.cos());
            self.c(c1, c2, p2);
            t = t2;
        }
        self
    }

    /// Closes the sub-path.
    pub fn z(&mut self) -> &mut Self {
        self.d.push('Z');
        self.prev = self.cur;
        self.cur = self.start;
        self.open = false;
        self
    }

    /// A whole ellipse as a closed sub-path.
    pub fn ellipse(&mut self, cx: f64, cy: f64, rx: f64, ry: f64) -> &mut Self {
        self.m((cx + rx, cy));
        self.arc(rx, ry, 0.0, 360.0);
        self.z()
    }

    /// Not filled.
    pub fn no_fill(&mut self) -> &mut Self {
        self.fill = FillMode::None;
        self
    }

    /// The path built so far, leaving the builder empty.
    pub fn finish(&mut self) -> SubPath {
        let start = match (self.first, self.first_dir) {
            (Some(f), Some(d)) if self.open => Some((f, d)),
            _ => None,
        };
        let end = (self.open && self.cur != self.prev).then_some((self.cur, self.prev));
        SubPath {
            d: std::mem::take(&mut self.d),
            fill: self.fill != FillMode::None,
            shade: self.fill,
            stroke: self.stroke,
            start,
            end,
        }
    }
}

/// The parameter of the point of an ellipse (radii `rx`, `ry`) that lies at the visual
/// angle `deg` from its centre, as DrawingML measures arc angles.
fn ellipse_param(rx: f64, ry: f64, deg: f64) -> f64 {
    let a = deg.to_radians();
    (rx * a.sin()).atan2(ry * a.cos())
}

/// Draws evaluated paths in a box of `w` × `h`: each path is scaled from its own
/// coordinate space (`width` × `height`, or the box's when 0) to the box.
pub fn svg_paths(paths: &[Path], w: f64, h: f64) -> Vec<SubPath> {
    paths
        .iter()
        .map(|p| {
            let sx = if p.width > 0.0 { w / p.width } else { 1.0 };
            let sy = if p.height > 0.0 { h / p.height } else { 1.0 };
            let s = |(x, y): P| (x * sx, y * sy);
            let mut b = PathBuilder::new();
            b.fill = p.fill;
            b.stroke = p.stroke;
            for c in &p.commands {
                match *c {
                    Command::MoveTo(x, y) => {
                        b.m(s((x, y)));
                    }
                    Command::LineTo(x, y) => {
                        b.l(s((x, y)));
                    }
                    Command::ArcTo {
                        wr,
                        hr,
                        start,
                        swing,
                    } => {
                        b.arc_scaled(wr, hr, start, swing, (sx, sy));
                    }
                    Command::QuadTo(c1, p) => {
                        b.q(s(c1), s(p));
                    }
                    Command::CubicTo(c1, c2, p) => {
                        b.c(s(c1), s(c2), s(p));
                    }
                    Command::Close => {
                        b.z();
                    }
                }
            }
            b.finish()
        })
        .collect()
}
