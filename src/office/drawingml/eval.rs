//! Evaluates a [`GeometryDef`] at a shape size: built-in variables, adjust values (the
//! document's overrides in place of the defaults), guides in order, then the text
//! rectangle and the path commands.
//!
//! Every value is kept finite and within ±[`LIMIT`]: a division by zero reads 0, a
//! square root of a negative number reads 0, and NaN or an infinity read 0, so hostile
//! adjust values or formulas give odd shapes, never a panic or a non-number in SVG.

use super::model::{CommandDef, FillMode, Formula, GeometryDef, Guide, Op, Operand, PointDef};

/// Largest magnitude of any evaluated value.
pub const LIMIT: f64 = 1e12;

/// Largest magnitude of an adjust value a document gives (angles reach 21 600 000).
const ADJUST_LIMIT: f64 = 1e8;

/// The built-in variable names (ECMA-376 Part 1, 20.1.10.56 `ST_ShapeGuideName`'s
/// predefined guides), in slot order.
pub const BUILTINS: [&str; 39] = [
    "w", "h", "l", "t", "r", "b", "hc", "vc", "wd2", "wd3", "wd4", "wd5", "wd6", "wd8", "wd10",
    "wd12", "wd32", "hd2", "hd3", "hd4", "hd5", "hd6", "hd8", "hd10", "ss", "ls", "ssd2", "ssd4",
    "ssd6", "ssd8", "ssd16", "ssd32", "cd2", "cd4", "cd8", "3cd4", "3cd8", "5cd8", "7cd8",
];

fn builtin_values(w: f64, h: f64) -> [f64; 39] {
    let ss = w.min(h);
    [
        w,
        h,
        0.0,
        0.0,
        w,
        h,
        w / 2.0,
        h / 2.0,
        w / 2.0,
        w / 3.0,
        w / 4.0,
        w / 5.0,
        w / 6.0,
        w / 8.0,
        w / 10.0,
        w / 12.0,
        w / 32.0,
        h / 2.0,
        h / 3.0,
        h / 4.0,
        h / 5.0,
        h / 6.0,
        h / 8.0,
        h / 10.0,
        ss,
        w.max(h),
        ss / 2.0,
        ss / 4.0,
        ss / 6.0,
        ss / 8.0,
        ss / 16.0,
        ss / 32.0,
        10_800_000.0,
        5_400_000.0,
        2_700_000.0,
        16_200_000.0,
        8_100_000.0,
        13_500_000.0,
        18_900_000.0,
    ]
}

/// A value held finite and within ±[`LIMIT`].
fn finite(v: f64) -> f64 {
    if v.is_finite() {
        v.clamp(-LIMIT, LIMIT)
    } else {
        0.0
    }
}

/// Guide values of one evaluation.
#[derive(Debug, Clone)]
pub struct Values {
    slots: Vec<f64>,
}

impl Values {
    /// The built-ins for a `w` × `h` shape and `slots` slots in all (the rest read 0).
    pub fn new(w: f64, h: f64, slots: usize) -> Values {
        let mut v = builtin_values(finite(w), finite(h)).to_vec();
        v.resize(slots.max(BUILTINS.len()), 0.0);
        Values { slots: v }
    }

    /// The value of an operand.
    pub fn get(&self, o: Operand) -> f64 {
        match o {
            Operand::Num(v) => finite(v),
            Operand::Slot(s) => self.slots.get(usize::from(s)).copied().unwrap_or(0.0),
        }
    }

    fn set(&mut self, slot: u16, v: f64) {
        if let Some(s) = self.slots.get_mut(usize::from(slot)) {
            *s = finite(v);
        }
    }

    /// Evaluates one formula.
    pub fn eval(&self, f: &Formula) -> f64 {
        let [x, y, z] = f.args.map(|a| self.get(a));
        let ang = |v: f64| (v / 60_000.0).to_radians();
        let div = |a: f64, b: f64| if b == 0.0 { 0.0 } else { a / b };
        finite(match f.op {
            Op::Val => x,
            Op::MulDiv => div(x * y, z),
            Op::AddSub => x + y - z,
            Op::AddDiv => div(x + y, z),
            Op::IfElse => {
                if x > 0.0 {
                    y
                } else {
                    z
                }
            }
            Op::Abs => x.abs(),
            Op::At2 => y.atan2(x).to_degrees() * 60_000.0,
            Op::Cat2 => x * z.atan2(y).cos(),
            Op::Sat2 => x * z.atan2(y).sin(),
            Op::Cos => x * ang(y).cos(),
            Op::Sin => x * ang(y).sin(),
            Op::Tan => x * ang(y).tan(),
            Op::Max => x.max(y),
            Op::Min => x.min(y),
            Op::Mod => (x * x + y * y + z * z).sqrt(),
            Op::Pin => {
                if y < x {
                    x
                } else if y > z {
                    z
                } else {
                    y
                }
            }
            Op::Sqrt => x.max(0.0).sqrt(),
        })
    }

    fn point(&self, p: PointDef) -> (f64, f64) {
        (self.get(p.x), self.get(p.y))
    }
}

/// An evaluated path command, in the path's coordinate space; arc angles in degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Command {
    /// Start a sub-path.
    MoveTo(f64, f64),
    /// Straight line.
    LineTo(f64, f64),
    /// Elliptical arc from the current point: radii, start angle, clockwise swing.
    ArcTo {
        /// Horizontal radius.
        wr: f64,
        /// Vertical radius.
        hr: f64,
        /// Start angle, degrees.
        start: f64,
        /// Swing, degrees.
        swing: f64,
    },
    /// Quadratic Bézier: control point, end point.
    QuadTo((f64, f64), (f64, f64)),
    /// Cubic Bézier: two control points, end point.
    CubicTo((f64, f64), (f64, f64), (f64, f64)),
    /// Close the sub-path.
    Close,
}

/// An evaluated path.
#[derive(Debug, Clone, PartialEq)]
pub struct Path {
    /// Width of the path's coordinate space; 0: the shape's.
    pub width: f64,
    /// Height of the path's coordinate space; 0: the shape's.
    pub height: f64,
    /// Interior paint.
    pub fill: FillMode,
    /// Stroked.
    pub stroke: bool,
    /// Commands.
    pub commands: Vec<Command>,
}

/// A geometry evaluated at one size.
#[derive(Debug, Clone, PartialEq)]
pub struct Outline {
    /// The paths in drawing order.
    pub paths: Vec<Path>,
    /// The text rectangle `[left, top, right, bottom]` in the shape's units (the whole
    /// box when the geometry gives none).
    pub text_rect: [f64; 4],
}

/// The value a document gives for adjust value `name` (`adj` and `adj1` name the same
/// first value: producers write either for one-value presets).
fn override_for(overrides: &[(String, f64)], name: &str) -> Option<f64> {
    let alias = match name {
        "adj" => Some("adj1"),
        "adj1" => Some("adj"),
        _ => None,
    };
    let found = overrides
        .iter()
        .find(|(n, _)| n == name)
        .or_else(|| alias.and_then(|a| overrides.iter().find(|(n, _)| n == a)));
    found
        .map(|(_, v)| *v)
        .filter(|v| v.is_finite())
        .map(|v| v.clamp(-ADJUST_LIMIT, ADJUST_LIMIT))
}

fn run(values: &mut Values, guides: &[Guide], overrides: &[(String, f64)]) {
    for g in guides {
        let v = override_for(overrides, &g.name).unwrap_or_else(|| values.eval(&g.formula));
        values.set(g.slot, v);
    }
}

/// Evaluates `def` for a `w` × `h` shape with the document's adjust values.
pub fn evaluate(def: &GeometryDef, w: f64, h: f64, overrides: &[(String, f64)]) -> Outline {
    let (w, h) = (finite(w).max(0.0), finite(h).max(0.0));
    let mut values = Values::new(w, h, def.slots);
    run(&mut values, &def.adjust, overrides);
    run(&mut values, &def.guides, &[]);
    let text_rect = match def.text_rect {
        Some(r) => {
            let [l, t, r, b] = r.map(|o| values.get(o));
            let rect = [l.min(r), t.min(b), l.max(r), t.max(b)];
            // A rectangle without area (a frame whose border fills it, a star with no
            // inner radius) would stack the text one letter a line: use the box.
            if rect[2] - rect[0] > 1e-9 && rect[3] - rect[1] > 1e-9 {
                rect
            } else {
                [0.0, 0.0, w, h]
            }
        }
        None => [0.0, 0.0, w, h],
    };
    let paths = def
        .paths
        .iter()
        .map(|p| Path {
            width: p.width,
            height: p.height,
            fill: p.fill,
            stroke: p.stroke,
            commands: p
                .commands
                .iter()
                .map(|c| match *c {
                    CommandDef::MoveTo(pt) => {
                        let (x, y) = values.point(pt);
                        Command::MoveTo(x, y)
                    }
                    CommandDef::LineTo(pt) => {
                        let (x, y) = values.point(pt);
                        Command::LineTo(x, y)
                    }
                    CommandDef::ArcTo {
                        wr,
                        hr,
                        start,
                        swing,
                    } => Command::ArcTo {
                        wr: values.get(wr),
                        hr: values.get(hr),
                        start: values.get(start) / 60_000.0,
                        swing: values.get(swing) / 60_000.0,
                    },
                    CommandDef::QuadTo(c1, p) => Command::QuadTo(values.point(c1), values.point(p)),
                    CommandDef::CubicTo(c1, c2, p) => {
                        Command::CubicTo(values.point(c1), values.point(c2), values.point(p))
                    }
                    CommandDef::Close => Command::Close,
                })
                .collect(),
        })
        .collect();
    Outline { paths, text_rect }
}
