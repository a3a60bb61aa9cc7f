//! The PPTX viewer model: what a deck shows, resolved, with no HTML in it.
//!
//! Inheritance is already applied: a placeholder carries the position its layout or master
//! gave it, text carries the sizes, colours and fonts of the whole style chain
//! (presentation defaults → master text styles → master, layout and slide list styles →
//! paragraph → run), theme colours are resolved through the colour map with their
//! modifiers, and auto-numbered bullets carry their computed label ("2.", "b)").
//!
//! Positions and sizes are in EMU (914 400 per inch, 12 700 per point) in slide
//! coordinates: a shape inside a group has the box its group's child transform gives it on
//! the slide, and the group keeps its own rotation and flips, which apply to the whole
//! subtree about the group's centre. Font sizes are in points. Colours serialise as
//! `#RRGGBB` (or `#RRGGBBAA` when translucent). The model serialises to camelCase JSON for
//! the `model.json` view.

use serde::{Serialize, Serializer};

pub use crate::office::media::{ImageSource, MediaPart};

use crate::office::CoreProperties;

/// EMU per point.
pub const EMU_PER_POINT: f64 = 12_700.0;

/// A parsed presentation.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Presentation {
    /// Title, author and dates.
    pub properties: CoreProperties,
    /// The package declares macros (`.pptm`); they are never run.
    pub has_macros: bool,
    /// Slide width in EMU.
    pub slide_width: i64,
    /// Slide height in EMU.
    pub slide_height: i64,
    /// Slides in `sldIdLst` order, hidden ones included (and marked).
    pub slides: Vec<Slide>,
    /// Shapes that layouts and masters draw behind the slides using them, shared.
    pub layers: Vec<Layer>,
    /// Image parts the deck shows, with what their headers say.
    pub media: Vec<MediaPart>,
    /// Things shown degraded (missing parts, unreadable slides …), for the viewer.
    pub warnings: Vec<String>,
}

/// One slide of the deck.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Slide {
    /// Position in the deck, from 1.
    pub number: usize,
    /// The slide part, when the relationship resolves to one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part: Option<String>,
    /// Why the slide could not be read (missing or damaged part); the slide is then shown
    /// as an empty stage saying so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<String>,
    /// Hidden in the slide show (`show="0"`); still listed, marked.
    pub hidden: bool,
    /// The slide's own name (`p:cSld/@name`), rarely set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Name of the layout it uses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layout_name: Option<String>,
    /// Index into [`Presentation::layers`] of the master and layout shapes drawn behind
    /// this slide's own shapes (`None` when the slide hides them or has no layout).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layer: Option<usize>,
    /// The background, resolved through layout and master.
    pub background: Fill,
    /// The slide's own shapes, back to front.
    pub shapes: Vec<Shape>,
    /// Speaker notes, one string per paragraph (empty when there are none).
    pub notes: Vec<String>,
}

/// Shapes a layout (and, unless it hides them, its master) draws on every slide using it.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Layer {
    /// The layout part.
    pub layout: String,
    /// The master part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub master: Option<String>,
    /// Master shapes then layout shapes, back to front; placeholders are not included
    /// (they only lend position and style to the slides).
    pub shapes: Vec<Shape>,
}

/// One shape on a slide, a layout or inside a group.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Shape {
    /// `cNvPr/@id`.
    pub id: u32,
    /// `cNvPr/@name`.
    pub name: String,
    /// Alternative text (`descr`, else `title`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alt: Option<String>,
    /// Hidden in the slide show (`cNvPr/@hidden`): kept, not drawn.
    pub hidden: bool,
    /// Where it sits on the slide.
    pub frame: Frame,
    /// The placeholder it fills, when it is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placeholder: Option<PlaceholderRef>,
    /// A click hyperlink on the whole shape.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<Link>,
    /// Shadows and glow drawn around it (auto shapes and pictures).
    #[serde(skip_serializing_if = "Effects::is_empty")]
    pub effects: Effects,
    /// What it is.
    pub kind: ShapeKind,
}

/// The effects of a shape that are drawn (`a:effectLst`, or its style's `a:effectRef`).
/// Reflections and 3-D are not read.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Effects {
    /// A shadow cast behind the shape (`a:outerShdw`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outer_shadow: Option<Shadow>,
    /// A shadow inside the shape's edge (`a:innerShdw`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inner_shadow: Option<Shadow>,
    /// A soft glow around the shape (`a:glow`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub glow: Option<Glow>,
    /// Soft edges (`a:softEdge`): the outline fades out over this radius in EMU.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub soft_edge: Option<f64>,
}

impl Effects {
    /// Whether no effect is drawn.
    pub fn is_empty(&self) -> bool {
        *self == Effects::default()
    }
}

/// A shadow: an offset, blurred copy of the shape's outline in one colour.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Shadow {
    /// Horizontal offset in EMU (`dist` along `dir`), positive to the right.
    pub dx: f64,
    /// Vertical offset in EMU, positive downwards.
    pub dy: f64,
    /// Blur radius in EMU (`blurRad`).
    pub blur: f64,
    /// Colour, with its opacity.
    pub color: Color,
}

/// A glow around a shape.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Glow {
    /// Radius in EMU (`rad`).
    pub radius: f64,
    /// Colour, with its opacity.
    pub color: Color,
}

/// A shape's box in slide EMU, and how it is turned.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Frame {
    /// Left edge.
    pub x: i64,
    /// Top edge.
    pub y: i64,
    /// Width.
    pub width: i64,
    /// Height.
    pub height: i64,
    /// Clockwise rotation in degrees, about the box centre, in `[0, 360)`.
    pub rotation: f64,
    /// Mirrored left to right.
    pub flip_h: bool,
    /// Mirrored top to bottom.
    pub flip_v: bool,
}

/// Which placeholder of the layout a shape fills.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlaceholderRef {
    /// `ph/@type` (`title`, `body`, `ctrTitle`, `subTitle`, `dt`, `ftr`, `sldNum`, `pic` …;
    /// `obj` when absent).
    pub kind: String,
    /// `ph/@idx` (0 when absent).
    pub idx: u32,
}

/// What a shape is.
// Auto shapes are most shapes, so boxing them would add an allocation per shape.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum ShapeKind {
    /// A shape with geometry, fill, outline and maybe text (`p:sp`, `p:cxnSp`).
    Shape(AutoShape),
    /// A picture (`p:pic`).
    Picture(Picture),
    /// A group (`p:grpSp`); children are in slide coordinates.
    Group(Group),
    /// A table (`a:tbl` in a `p:graphicFrame`).
    Table(Table),
    /// A chart, drawn by the shared chart engine.
    Chart(Chart),
    /// Something shown as a labelled box (SmartArt, OLE object without a picture, media).
    Embedded(Embedded),
}

/// A `p:sp` or `p:cxnSp`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AutoShape {
    /// The outline of the shape.
    pub geometry: Geometry,
    /// Interior fill.
    pub fill: Fill,
    /// Outline; `None` draws none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<Line>,
    /// Text, when the shape has any (empty placeholders have none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<TextBody>,
    /// A connector (`p:cxnSp`).
    pub connector: bool,
}

/// The outline of a shape.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Geometry {
    /// A preset (`a:prstGeom`), drawn by name with its adjust values.
    Preset {
        /// `prst` (`rect`, `roundRect`, `rightArrow` …).
        name: String,
        /// Adjust values from `a:avLst` (`adj`, `adj1` …) as written (mostly 1/100 000).
        adjust: Vec<(String, f64)>,
    },
    /// A custom outline (`a:custGeom`), guides evaluated.
    Custom {
        /// Sub-paths.
        paths: Vec<GeomPath>,
    },
}

impl Default for Geometry {
    fn default() -> Self {
        Geometry::Preset {
            name: "rect".to_owned(),
            adjust: Vec::new(),
        }
    }
}

/// One path of a custom geometry, in its own coordinate space.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GeomPath {
    /// Width of the path's coordinate space (0: the shape's width in EMU).
    pub width: f64,
    /// Height of the path's coordinate space (0: the shape's height in EMU).
    pub height: f64,
    /// Filled (`fill != "none"`).
    pub fill: bool,
    /// Stroked.
    pub stroke: bool,
    /// Drawing commands.
    pub commands: Vec<PathCommand>,
}

/// A path drawing command, in path coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum PathCommand {
    /// Start a sub-path.
    MoveTo {
        /// X.
        x: f64,
        /// Y.
        y: f64,
    },
    /// Straight line.
    LineTo {
        /// X.
        x: f64,
        /// Y.
        y: f64,
    },
    /// Elliptical arc from the current point (angles in degrees, clockwise).
    ArcTo {
        /// Horizontal radius.
        wr: f64,
        /// Vertical radius.
        hr: f64,
        /// Start angle.
        start: f64,
        /// Swing angle.
        swing: f64,
    },
    /// Quadratic Bézier.
    QuadTo {
        /// Control X.
        x1: f64,
        /// Control Y.
        y1: f64,
        /// End X.
        x: f64,
        /// End Y.
        y: f64,
    },
    /// Cubic Bézier.
    CubicTo {
        /// First control X.
        x1: f64,
        /// First control Y.
        y1: f64,
        /// Second control X.
        x2: f64,
        /// Second control Y.
        y2: f64,
        /// End X.
        x: f64,
        /// End Y.
        y: f64,
    },
    /// Close the sub-path.
    Close,
}

/// An sRGB colour with opacity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Color {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Opacity, 0 (transparent) to 1.
    pub alpha: f32,
}

impl Color {
    /// An opaque colour from `0xRRGGBB`.
    pub const fn rgb(v: u32) -> Color {
        Color {
            r: (v >> 16) as u8,
            g: (v >> 8) as u8,
            b: v as u8,
            alpha: 1.0,
        }
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    pub fn hex(&self) -> String {
        let mut s = format!("#{:02X}{:02X}{:02X}", self.r, self.g, self.b);
        if self.alpha < 0.999 {
            let a = (self.alpha.clamp(0.0, 1.0) * 255.0).round() as u8;
            s.push_str(&format!("{a:02X}"));
        }
        s
    }
}

impl Serialize for Color {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.hex())
    }
}

/// How an area is filled.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Fill {
    /// Nothing (transparent).
    #[default]
    None,
    /// One colour.
    Solid {
        /// The colour.
        color: Color,
    },
    /// A gradient.
    Gradient(Gradient),
    /// A picture stretched (or tiled) over the area.
    Picture {
        /// The image.
        source: ImageSource,
        /// Part of the image cut away on each side (`a:srcRect`).
        crop: Crop,
        /// How the picture is tiled (`a:tile`); `None` when it is stretched.
        #[serde(skip_serializing_if = "Option::is_none")]
        tile: Option<Tile>,
        /// Where a stretched picture lies (`a:stretch/a:fillRect`): insets from each
        /// side of the area as fractions of it, negative to reach past it.
        stretch: Crop,
        /// `a:duotone`: the picture in shades between a dark and a light colour.
        #[serde(skip_serializing_if = "Option::is_none")]
        duotone: Option<[Color; 2]>,
        /// `a:alphaModFix`: the picture's opacity, 0 to 1; `None` when opaque.
        #[serde(skip_serializing_if = "Option::is_none")]
        alpha: Option<f64>,
    },
    /// A two-colour preset pattern (drawn as its 8 × 8 bitmap; the pictorial presets as a
    /// blend of its colours).
    Pattern {
        /// Pattern name (`pct50`, `dkDnDiag` …).
        preset: String,
        /// Foreground colour.
        foreground: Color,
        /// Background colour.
        background: Color,
    },
}

/// How a picture fill repeats (`a:tile`, ECMA-376 Part 1, 20.1.8.58).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tile {
    /// Horizontal offset of the first tile in EMU (`tx`), after alignment.
    pub offset_x: f64,
    /// Vertical offset in EMU (`ty`).
    pub offset_y: f64,
    /// Tile width as a fraction of the picture's own size (`sx`).
    pub scale_x: f64,
    /// Tile height as a fraction of the picture's own size (`sy`).
    pub scale_y: f64,
    /// Every other tile mirrored horizontally (`flip="x"` or `"xy"`).
    pub flip_x: bool,
    /// Every other tile mirrored vertically (`flip="y"` or `"xy"`).
    pub flip_y: bool,
    /// The corner or edge the tiling starts from (`algn`): 0, 0.5 or 1 of the area's
    /// width and height (`tl` is 0, 0; `ctr` is 0.5, 0.5; `br` is 1, 1).
    pub align: (f64, f64),
}

/// A gradient fill.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Gradient {
    /// Linear with an angle, or a path (radial) shape.
    pub kind: GradientKind,
    /// Stops in position order.
    pub stops: Vec<GradientStop>,
    /// The gradient turns with the shape (`rotWithShape`, true unless `"0"`); when false
    /// the gradient keeps its place on the slide however the shape is turned: a linear
    /// one its angle, a radial or rectangular one its focus.
    pub rotate_with_shape: bool,
}

/// The shape of a gradient.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum GradientKind {
    /// Along a line at `angle` degrees clockwise from left-to-right.
    Linear {
        /// Angle in degrees.
        angle: f64,
    },
    /// Circles radiating from a point (`path="circle"`), as a fraction of the box (below
    /// 0 or over 1 when the focus lies outside it); the last stop reaches the corner
    /// farthest from it.
    Radial {
        /// Centre X (0–1).
        cx: f64,
        /// Centre Y (0–1).
        cy: f64,
    },
    /// Nested rectangles from the focus rectangle (`a:fillToRect`, the first stop) out
    /// to the box's edges (the last stop): `path="rect"`, and `path="shape"`, which is
    /// drawn the same way. The focus may lie partly or wholly outside the box (fractions
    /// below 0 or over 1).
    Rect {
        /// Focus left edge as a fraction of the width.
        left: f64,
        /// Focus top edge as a fraction of the height.
        top: f64,
        /// Focus right edge as a fraction of the width (from the left).
        right: f64,
        /// Focus bottom edge as a fraction of the height (from the top).
        bottom: f64,
    },
}

/// One stop of a gradient.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GradientStop {
    /// Position, 0–1.
    pub position: f64,
    /// Colour at that position.
    pub color: Color,
}

/// Fractions (0–1) of an image cut from each side (`a:srcRect`, may be negative to pad).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Crop {
    /// From the left.
    pub left: f64,
    /// From the top.
    pub top: f64,
    /// From the right.
    pub right: f64,
    /// From the bottom.
    pub bottom: f64,
}

impl Crop {
    /// Whether nothing is cut.
    pub fn is_empty(&self) -> bool {
        *self == Crop::default()
    }
}

/// An outline.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Line {
    /// Width in EMU (hairlines are given one pixel by the renderer).
    pub width: i64,
    /// Colour (solid lines; a gradient line takes its first stop).
    pub color: Color,
    /// Dash pattern (`solid`, `dash`, `dot`, `lgDash`, `sysDash`, `dashDot` …).
    pub dash: String,
    /// Line cap: `flat`, `rnd`, `sq`.
    pub cap: String,
    /// Line join: `round`, `bevel`, `miter`.
    pub join: String,
    /// Arrow head at the start of the path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<LineEnd>,
    /// Arrow head at the end of the path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tail: Option<LineEnd>,
}

/// An arrow head.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LineEnd {
    /// `triangle`, `stealth`, `diamond`, `oval`, `arrow`.
    pub kind: String,
    /// `sm`, `med`, `lg`.
    pub width: String,
    /// `sm`, `med`, `lg`.
    pub length: String,
}

/// A text frame.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TextBody {
    /// Insets left, top, right, bottom in EMU.
    pub insets: [i64; 4],
    /// Vertical anchoring of the text block.
    pub anchor: VerticalAnchor,
    /// Centre the text block horizontally (`anchorCtr`).
    pub anchor_center: bool,
    /// Lines wrap at the frame width.
    pub wrap: bool,
    /// Text direction (`horz`, `vert`, `vert270`, `eaVert`, `wordArtVert` …).
    pub vertical: String,
    /// Extra rotation of the text in degrees (`bodyPr/@rot`).
    pub rotation: f64,
    /// Text columns (`numCol`), filled one after the other as PowerPoint does.
    pub columns: u32,
    /// Space between text columns, EMU (`spcCol`).
    pub column_gap: i64,
    /// Autofit: `none`, `normal` (shrink on overflow) or `shape` (resize shape).
    pub autofit: String,
    /// `normAutofit/@fontScale` as a fraction (1 = unscaled); already applied to sizes.
    pub font_scale: f64,
    /// `normAutofit/@lnSpcReduction` as a fraction; already applied to line spacing.
    pub line_reduction: f64,
    /// Paragraphs.
    pub paragraphs: Vec<Paragraph>,
}

/// Vertical anchoring of text in its frame.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum VerticalAnchor {
    /// Top.
    #[default]
    Top,
    /// Centre.
    Middle,
    /// Bottom.
    Bottom,
}

/// Horizontal alignment of a paragraph.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Align {
    /// Left.
    #[default]
    Left,
    /// Centre.
    Center,
    /// Right.
    Right,
    /// Justified.
    Justify,
    /// Distributed.
    Distributed,
}

/// A paragraph spacing value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "unit", content = "value", rename_all = "camelCase")]
pub enum Spacing {
    /// Points.
    Points(f64),
    /// Percent of the line (100 = single).
    Percent(f64),
}

/// A paragraph of a text frame, with its style chain resolved.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Paragraph {
    /// Outline level, 0–8.
    pub level: u8,
    /// Alignment.
    pub align: Align,
    /// Left margin in EMU.
    pub margin_left: i64,
    /// Right margin in EMU (`marR`): the paragraph wraps that far inside the frame.
    pub margin_right: i64,
    /// First-line indent in EMU (negative for a hanging bullet).
    pub indent: i64,
    /// Space before.
    pub space_before: Spacing,
    /// Space after.
    pub space_after: Spacing,
    /// Line spacing (`Percent(100)` is single).
    pub line_spacing: Spacing,
    /// Right-to-left.
    pub rtl: bool,
    /// The bullet or number shown, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bullet: Option<Bullet>,
    /// Runs, breaks and fields.
    pub runs: Vec<Run>,
    /// Font size of the paragraph mark (sets the height of an empty paragraph), points.
    pub end_size: f64,
    /// Custom tab stops (`a:tabLst`), in position order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tabs: Vec<TabStop>,
    /// Distance between default tab stops in EMU (`defTabSz`, one inch unless set).
    pub default_tab: i64,
}

/// The default tab stop distance when no `defTabSz` is set: one inch (ECMA-376 21.1.2.2.7).
pub const DEFAULT_TAB: i64 = 914_400;

/// A custom tab stop of a paragraph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TabStop {
    /// Position in EMU from the text origin: the frame's left edge plus its left inset
    /// (not the paragraph's margin), as PowerPoint's ruler measures it.
    pub pos: i64,
    /// How the text after the tab lines up on the stop.
    pub align: TabAlign,
}

/// Alignment of the text after a tab at its stop.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum TabAlign {
    /// The text starts at the stop.
    #[default]
    Left,
    /// The text is centred on the stop.
    Center,
    /// The text ends at the stop.
    Right,
    /// The text's decimal point sits on the stop.
    Decimal,
}

/// A bullet or auto-number label.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Bullet {
    /// What is shown: the character, or the computed number label (`"3."`, `"c)"`).
    pub text: String,
    /// Font of the bullet character.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub font: Option<String>,
    /// Colour (else the first run's colour).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    /// Size in points.
    pub size: f64,
    /// The scheme (`arabicPeriod` …) when auto-numbered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheme: Option<String>,
}

/// A run of text.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    /// What it is.
    pub kind: RunKind,
    /// The text (empty for breaks).
    pub text: String,
    /// Size in points (autofit scale applied).
    pub size: f64,
    /// Bold.
    pub bold: bool,
    /// Italic.
    pub italic: bool,
    /// Underline style (`sng`, `dbl`, `wavy` …), when underlined.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub underline: Option<String>,
    /// Strike-through (`sngStrike`, `dblStrike`), when struck.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strike: Option<String>,
    /// Text colour.
    pub color: Color,
    /// Highlight colour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub highlight: Option<Color>,
    /// Outer shadow of the glyphs (`a:rPr/a:effectLst/a:outerShdw`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shadow: Option<Shadow>,
    /// Latin font, theme references resolved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub font: Option<String>,
    /// Baseline shift in percent (positive: superscript).
    pub baseline: f64,
    /// `all` or `small` capitals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caps: Option<String>,
    /// Extra letter spacing in points.
    pub spacing: f64,
    /// Hyperlink (only http, https, mailto and jumps inside the deck are kept).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<Link>,
}

/// The kinds of runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum RunKind {
    /// Text.
    Text,
    /// A line break (`a:br`).
    Break,
    /// A field (`a:fld`), showing its text.
    Field {
        /// `slidenum`, `datetime1` …
        field: String,
    },
}

/// A hyperlink target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Link {
    /// An http, https or mailto URL.
    Url {
        /// The URL.
        url: String,
    },
    /// A jump to a slide of this deck.
    Slide {
        /// Slide number (from 1).
        number: usize,
    },
}

/// A `p:pic`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Picture {
    /// The image.
    pub source: ImageSource,
    /// Part of the image cut away.
    pub crop: Crop,
    /// `a:alphaModFix`: the picture's opacity, 0 to 1; `None` when opaque.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alpha: Option<f64>,
    /// Clip outline (a rect unless the picture was given another shape).
    pub geometry: Geometry,
    /// Fill behind the picture (shows through transparency).
    pub fill: Fill,
    /// Outline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<Line>,
}

/// A `p:grpSp`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Group {
    /// Children, back to front, framed in slide coordinates.
    pub children: Vec<Shape>,
}

/// A table.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Table {
    /// Column widths in EMU.
    pub columns: Vec<i64>,
    /// Rows.
    pub rows: Vec<TableRow>,
}

/// A table row.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TableRow {
    /// Height in EMU (a minimum: text may make it taller).
    pub height: i64,
    /// One cell per grid column, merged ones included and marked.
    pub cells: Vec<TableCell>,
}

/// A table cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TableCell {
    /// Columns spanned (1 unless merged across).
    pub col_span: u32,
    /// Rows spanned (1 unless merged down).
    pub row_span: u32,
    /// Covered by a cell to its left (`hMerge`) or above (`vMerge`): not drawn.
    pub merged: bool,
    /// Fill (table style applied).
    pub fill: Fill,
    /// Borders left, top, right, bottom.
    pub borders: [Option<Line>; 4],
    /// Text, with margins as insets.
    pub text: TextBody,
}

/// A chart: the shared chart engine's model.
pub use crate::office::chart::model::Chart;

/// Content shown as a labelled box.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Embedded {
    /// `diagram`, `oleObject`, `media`, `unknown`.
    pub kind: String,
    /// What the box says.
    pub label: String,
    /// A preview picture, when the object carries one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preview: Option<ImageSource>,
}

impl Presentation {
    /// Whether `part` is a media part the deck shows and a browser can display (only
    /// those should be served).
    pub fn shows_media(&self, part: &str) -> bool {
        self.media.iter().any(|m| m.part == part && m.displayable)
    }

    /// All text of a slide's own shapes, in shape order, runs concatenated and
    /// paragraphs separated by newlines (for search and tests).
    pub fn slide_text(slide: &Slide) -> String {
        let mut out = String::new();
        for shape in &slide.shapes {
            shape_text(shape, &mut out);
        }
        out
    }

    /// Every font the deck's text names (runs and bullets on slides, layouts and masters),
    /// each once, in first use: the page declares their stand-ins, as it does the theme's
    /// fonts, because PowerPoint lists no font table.
    pub fn font_names(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        let shapes = self
            .slides
            .iter()
            .flat_map(|s| s.shapes.iter())
            .chain(self.layers.iter().flat_map(|l| l.shapes.iter()));
        for shape in shapes {
            visit_shapes(shape, &mut |s| {
                for body in own_bodies(s) {
                    for p in &body.paragraphs {
                        let bullet = p.bullet.as_ref().and_then(|b| b.font.as_deref());
                        let runs = p.runs.iter().filter_map(|r| r.font.as_deref());
                        for name in bullet.into_iter().chain(runs) {
                            if !names.iter().any(|n| n == name) {
                                names.push(name.to_owned());
                            }
                        }
                    }
                }
            });
        }
        names
    }
}

/// Calls `f` with a shape and then each of its descendants (group children), depth first.
pub fn visit_shapes<'s>(shape: &'s Shape, f: &mut impl FnMut(&'s Shape)) {
    f(shape);
    if let ShapeKind::Group(g) = &shape.kind {
        for child in &g.children {
            visit_shapes(child, f);
        }
    }
}

/// The text frames of one shape itself (not of its children): a shape's own text, or
/// every cell of a table.
pub fn own_bodies(shape: &Shape) -> Vec<&TextBody> {
    match &shape.kind {
        ShapeKind::Shape(s) => s.text.iter().collect(),
        ShapeKind::Table(t) => t
            .rows
            .iter()
            .flat_map(|row| row.cells.iter().map(|c| &c.text))
            .collect(),
        _ => Vec::new(),
    }
}

/// Appends the text of a shape (and its children) to `out`.
pub fn shape_text(shape: &Shape, out: &mut String) {
    visit_shapes(shape, &mut |s| {
        for body in own_bodies(s) {
            body_text(body, out);
        }
        if let ShapeKind::Chart(c) = &s.kind {
            if let Some(t) = &c.title {
                out.push_str(t);
                out.push('\n');
            }
        }
    });
}

/// Appends the text of a text frame to `out`.
pub fn body_text(body: &TextBody, out: &mut String) {
    for p in &body.paragraphs {
        for r in &p.runs {
            match r.kind {
                RunKind::Break => out.push('\n'),
                _ => out.push_str(&r.text),
            }
        }
        out.push('\n');
    }
}
