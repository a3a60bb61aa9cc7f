//! The parsed form of one DrawingML geometry (a preset of ECMA-376 Part 1 Annex D or a
//! document's `a:custGeom`): guides as formulas over numbered slots, paths as commands
//! over operands. Names are resolved once when parsing, so evaluating a geometry at a
//! size is a walk over two small vectors with no string look-ups.

/// A value a formula or a path command reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Operand {
    /// A literal number.
    Num(f64),
    /// The value of a guide or built-in variable (`w`, `ss`, `cd4` …).
    Slot(u16),
}

/// The seventeen guide formula operators of ECMA-376 Part 1, 20.1.9.11.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `val x`: x.
    Val,
    /// `*/ x y z`: x · y / z.
    MulDiv,
    /// `+- x y z`: x + y − z.
    AddSub,
    /// `+/ x y z`: (x + y) / z.
    AddDiv,
    /// `?: x y z`: y when x > 0, else z.
    IfElse,
    /// `abs x`.
    Abs,
    /// `at2 x y`: the angle of the vector (x, y), in 60 000ths of a degree.
    At2,
    /// `cat2 x y z`: x · cos(atan2(z, y)).
    Cat2,
    /// `sat2 x y z`: x · sin(atan2(z, y)).
    Sat2,
    /// `cos x y`: x · cos(y), y in 60 000ths of a degree.
    Cos,
    /// `sin x y`: x · sin(y).
    Sin,
    /// `tan x y`: x · tan(y).
    Tan,
    /// `max x y`.
    Max,
    /// `min x y`.
    Min,
    /// `mod x y z`: √(x² + y² + z²).
    Mod,
    /// `pin x y z`: y held between x and z.
    Pin,
    /// `sqrt x`.
    Sqrt,
}

impl Op {
    /// The operator spelled `token` in a formula.
    pub fn from_token(token: &str) -> Option<Op> {
        Some(match token {
            "val" => Op::Val,
            "*/" => Op::MulDiv,
            "+-" => Op::AddSub,
            "+/" => Op::AddDiv,
            "?:" => Op::IfElse,
            "abs" => Op::Abs,
            "at2" => Op::At2,
            "cat2" => Op::Cat2,
            "sat2" => Op::Sat2,
            "cos" => Op::Cos,
            "sin" => Op::Sin,
            "tan" => Op::Tan,
            "max" => Op::Max,
            "min" => Op::Min,
            "mod" => Op::Mod,
            "pin" => Op::Pin,
            "sqrt" => Op::Sqrt,
            _ => return None,
        })
    }
}

/// A guide formula: an operator and up to three arguments (missing ones read 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Formula {
    /// The operator.
    pub op: Op,
    /// Its arguments.
    pub args: [Operand; 3],
}

/// One guide (`a:gd`): the slot it writes and its formula.
#[derive(Debug, Clone, PartialEq)]
pub struct Guide {
    /// The guide's name, kept for adjust values (`adj`, `adj1` …) a document overrides.
    pub name: Box<str>,
    /// Where its value goes.
    pub slot: u16,
    /// How it is computed.
    pub formula: Formula,
}

/// How a path's interior is painted (`a:path fill`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FillMode {
    /// Not filled.
    None,
    /// The shape's fill.
    #[default]
    Norm,
    /// The fill, lightened a lot.
    Lighten,
    /// The fill, lightened a little.
    LightenLess,
    /// The fill, darkened a lot.
    Darken,
    /// The fill, darkened a little.
    DarkenLess,
}

impl FillMode {
    /// The mode named by a `fill` attribute; unknown values fill normally.
    pub fn from_attr(v: Option<&str>) -> FillMode {
        match v {
            Some("none") => FillMode::None,
            Some("lighten") => FillMode::Lighten,
            Some("lightenLess") => FillMode::LightenLess,
            Some("darken") => FillMode::Darken,
            Some("darkenLess") => FillMode::DarkenLess,
            _ => FillMode::Norm,
        }
    }

    /// The overlay that shades a fill for this mode: a colour (`#000` or `#fff`) and its
    /// opacity, drawn over the normal fill so it works for gradients and patterns too.
    /// The amounts (40 % and 20 %) follow what PowerPoint shows for the folded corners,
    /// scroll ends and ribbon backs that use these modes.
    pub fn overlay(self) -> Option<(&'static str, f64)> {
        match self {
            FillMode::Darken => Some(("#000", 0.4)),
            FillMode::DarkenLess => Some(("#000", 0.2)),
            FillMode::Lighten => Some(("#fff", 0.4)),
            FillMode::LightenLess => Some(("#fff", 0.2)),
            FillMode::None | FillMode::Norm => None,
        }
    }
}

/// A point of a path command.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointDef {
    /// X.
    pub x: Operand,
    /// Y.
    pub y: Operand,
}

/// A path command before evaluation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CommandDef {
    /// `a:moveTo`.
    MoveTo(PointDef),
    /// `a:lnTo`.
    LineTo(PointDef),
    /// `a:arcTo`: radii, start angle and swing (60 000ths of a degree).
    ArcTo {
        /// Horizontal radius.
        wr: Operand,
        /// Vertical radius.
        hr: Operand,
        /// Start angle.
        start: Operand,
        /// Swing angle, clockwise.
        swing: Operand,
    },
    /// `a:quadBezTo`: control point, end point.
    QuadTo(PointDef, PointDef),
    /// `a:cubicBezTo`: two control points, end point.
    CubicTo(PointDef, PointDef, PointDef),
    /// `a:close`.
    Close,
}

/// One `a:path` before evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct PathDef {
    /// Width of the path's own coordinate space (`w`); 0 means the shape's.
    pub width: f64,
    /// Height of the path's own coordinate space (`h`); 0 means the shape's.
    pub height: f64,
    /// Interior paint.
    pub fill: FillMode,
    /// Stroked with the shape's outline (`stroke`, default true).
    pub stroke: bool,
    /// Commands.
    pub commands: Vec<CommandDef>,
}

/// A whole geometry before evaluation.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GeometryDef {
    /// Adjust values with their defaults (`a:avLst`), evaluated first.
    pub adjust: Vec<Guide>,
    /// Guides (`a:gdLst`), evaluated in order after the adjust values.
    pub guides: Vec<Guide>,
    /// Number of slots (built-ins first, then each distinct guide name).
    pub slots: usize,
    /// The text rectangle (`a:rect l t r b`), when given.
    pub text_rect: Option<[Operand; 4]>,
    /// The paths, drawn in order.
    pub paths: Vec<PathDef>,
}
