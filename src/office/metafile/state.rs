//! The device context a metafile draws against: the selected pen, brush and font, colours
//! and modes, the mapping from logical to device units, the clip and the current position.
//! SaveDC pushes a copy of it; RestoreDC pops back.

/// An RGB colour from a COLORREF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Color(pub u8, pub u8, pub u8);

impl Color {
    /// Black, the default pen and text colour.
    pub const BLACK: Color = Color(0, 0, 0);
    /// White, the default brush and background colour.
    pub const WHITE: Color = Color(255, 255, 255);

    /// A COLORREF (`0x00bbggrr`).
    pub fn from_colorref(v: u32) -> Color {
        Color(v as u8, (v >> 8) as u8, (v >> 16) as u8)
    }

    /// `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// How a pen's line is broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dash {
    /// An unbroken line.
    Solid,
    /// Dashes.
    Dash,
    /// Dots.
    Dot,
    /// Dash, dot.
    DashDot,
    /// Dash, dot, dot.
    DashDotDot,
    /// No line at all.
    Null,
}

/// A pen (PS_* style bits decoded).
#[derive(Debug, Clone, PartialEq)]
pub struct Pen {
    /// Line colour.
    pub color: Color,
    /// Width in logical units; 0 draws one device pixel.
    pub width: f64,
    /// Dash pattern.
    pub dash: Dash,
    /// SVG `stroke-linecap`.
    pub cap: &'static str,
    /// SVG `stroke-linejoin`.
    pub join: &'static str,
}

impl Pen {
    /// Decodes a pen style word, width and colour.
    pub fn new(style: u32, width: f64, color: Color) -> Pen {
        let dash = match style & 0x0F {
            1 => Dash::Dash,
            2 => Dash::Dot,
            3 => Dash::DashDot,
            4 => Dash::DashDotDot,
            5 => Dash::Null,
            _ => Dash::Solid,
        };
        let cap = match style & 0x0F00 {
            0x0100 => "square",
            0x0200 => "butt",
            _ => "round",
        };
        let join = match style & 0xF000 {
            0x1000 => "bevel",
            0x2000 => "miter",
            _ => "round",
        };
        Pen {
            color,
            width: width.abs(),
            dash,
            cap,
            join,
        }
    }

    /// The stock black pen.
    pub fn black() -> Pen {
        Pen::new(0, 0.0, Color::BLACK)
    }
}

/// A brush.
#[derive(Debug, Clone, PartialEq)]
pub enum Brush {
    /// A solid colour.
    Solid(Color),
    /// Nothing is filled.
    Null,
    /// A pattern written to the SVG's definitions (hatches, bitmap patterns): its id.
    Pattern(String),
}

/// A logical font.
#[derive(Debug, Clone, PartialEq)]
pub struct Font {
    /// The face name, as written (escaped on output).
    pub face: String,
    /// `lfHeight`: negative is the em height, positive the cell height, 0 a default.
    pub height: f64,
    /// Weight, 400 normal, 700 bold.
    pub weight: u32,
    /// Italic.
    pub italic: bool,
    /// Underlined.
    pub underline: bool,
    /// Struck out.
    pub strike: bool,
    /// Angle of the baseline in tenths of a degree, counter-clockwise.
    pub escapement: f64,
    /// `lfCharSet` (2 is the symbol set).
    pub charset: u8,
}

impl Default for Font {
    fn default() -> Self {
        Font {
            face: String::new(),
            height: 0.0,
            weight: 400,
            italic: false,
            underline: false,
            strike: false,
            escapement: 0.0,
            charset: 0,
        }
    }
}

/// A GDI object in the metafile's object table.
#[derive(Debug, Clone, PartialEq)]
pub enum Object {
    /// A pen.
    Pen(Pen),
    /// A brush.
    Brush(Brush),
    /// A font.
    Font(Font),
    /// A palette, region or other object that takes a slot but does not change drawing.
    Other,
}

/// An affine transform: `x' = a·x + c·y + e`, `y' = b·x + d·y + f` (the XFORM layout).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Xform {
    /// M11.
    pub a: f64,
    /// M12.
    pub b: f64,
    /// M21.
    pub c: f64,
    /// M22.
    pub d: f64,
    /// Dx.
    pub e: f64,
    /// Dy.
    pub f: f64,
}

impl Xform {
    /// The identity.
    pub const IDENTITY: Xform = Xform {
        a: 1.0,
        b: 0.0,
        c: 0.0,
        d: 1.0,
        e: 0.0,
        f: 0.0,
    };

    /// Maps a point.
    pub fn apply(&self, x: f64, y: f64) -> (f64, f64) {
        (
            self.a * x + self.c * y + self.e,
            self.b * x + self.d * y + self.f,
        )
    }

    /// Maps a vector (no translation).
    pub fn apply_vec(&self, x: f64, y: f64) -> (f64, f64) {
        (self.a * x + self.c * y, self.b * x + self.d * y)
    }

    /// `self` first, then `next`.
    pub fn then(&self, next: &Xform) -> Xform {
        Xform {
            a: self.a * next.a + self.b * next.c,
            b: self.a * next.b + self.b * next.d,
            c: self.c * next.a + self.d * next.c,
            d: self.c * next.b + self.d * next.d,
            e: self.e * next.a + self.f * next.c + next.e,
            f: self.e * next.b + self.f * next.d + next.f,
        }
    }

    /// The determinant of the linear part.
    pub fn det(&self) -> f64 {
        self.a * self.d - self.b * self.c
    }

    /// Whether every coefficient is finite and the transform is not degenerate.
    pub fn is_usable(&self) -> bool {
        [self.a, self.b, self.c, self.d, self.e, self.f]
            .iter()
            .all(|v| v.is_finite() && v.abs() < 1e12)
            && self.det().abs() > 1e-12
    }
}

/// Mapping modes (MM_*).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapMode {
    /// One logical unit is one device pixel.
    Text,
    /// Fixed metric or imperial units (y up): device pixels per logical unit.
    Fixed(u32),
    /// Window and viewport extents, equal scale on both axes.
    Isotropic,
    /// Window and viewport extents.
    Anisotropic,
}

/// The drawing state SaveDC saves.
#[derive(Debug, Clone, PartialEq)]
pub struct Dc {
    /// Selected pen.
    pub pen: Pen,
    /// Selected brush.
    pub brush: Brush,
    /// Selected font.
    pub font: Font,
    /// Text colour.
    pub text_color: Color,
    /// Background colour (opaque text backgrounds, hatch gaps).
    pub bk_color: Color,
    /// Background mode OPAQUE (else TRANSPARENT).
    pub bk_opaque: bool,
    /// TA_* text alignment flags.
    pub text_align: u32,
    /// Polygon fill mode WINDING (else ALTERNATE, even-odd).
    pub winding: bool,
    /// Arcs drawn clockwise (AD_CLOCKWISE).
    pub clockwise: bool,
    /// Mapping mode.
    pub map_mode: MapMode,
    /// Window origin.
    pub window_org: (f64, f64),
    /// Window extent.
    pub window_ext: (f64, f64),
    /// Viewport origin.
    pub viewport_org: (f64, f64),
    /// Viewport extent.
    pub viewport_ext: (f64, f64),
    /// World transform (world → page).
    pub world: Xform,
    /// Current position, logical.
    pub cur: (f64, f64),
    /// The clip: the id of a `<clipPath>` already written, or none.
    pub clip: Option<String>,
}

impl Default for Dc {
    fn default() -> Self {
        Dc {
            pen: Pen::black(),
            brush: Brush::Solid(Color::WHITE),
            font: Font::default(),
            text_color: Color::BLACK,
            bk_color: Color::WHITE,
            bk_opaque: true,
            text_align: 0,
            winding: false,
            clockwise: false,
            map_mode: MapMode::Text,
            window_org: (0.0, 0.0),
            window_ext: (1.0, 1.0),
            viewport_org: (0.0, 0.0),
            viewport_ext: (1.0, 1.0),
            world: Xform::IDENTITY,
            cur: (0.0, 0.0),
            clip: None,
        }
    }
}

impl Dc {
    /// The page → device mapping, given the device's pixels per millimetre (for the fixed
    /// mapping modes).
    pub fn page_to_device(&self, px_per_mm: (f64, f64)) -> Xform {
        let (sx, sy) = match self.map_mode {
            MapMode::Text => (1.0, 1.0),
            MapMode::Fixed(mm) => {
                // Millimetres per logical unit of MM_LOMETRIC … MM_TWIPS; y grows upwards.
                let per = match mm {
                    2 => 0.1,
                    3 => 0.01,
                    4 => 0.254,
                    5 => 0.0254,
                    _ => 25.4 / 1440.0,
                };
                (per * px_per_mm.0, -per * px_per_mm.1)
            }
            MapMode::Isotropic | MapMode::Anisotropic => {
                let ratio = |v: f64, w: f64| if w == 0.0 { 1.0 } else { v / w };
                let sx = ratio(self.viewport_ext.0, self.window_ext.0);
                let sy = ratio(self.viewport_ext.1, self.window_ext.1);
                if self.map_mode == MapMode::Isotropic {
                    let m = sx.abs().min(sy.abs());
                    (m.copysign(sx), m.copysign(sy))
                } else {
                    (sx, sy)
                }
            }
        };
        Xform {
            a: sx,
            b: 0.0,
            c: 0.0,
            d: sy,
            e: self.viewport_org.0 - self.window_org.0 * sx,
            f: self.viewport_org.1 - self.window_org.1 * sy,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xform_composition_applies_first_then_next() {
        let scale = Xform {
            a: 2.0,
            d: 3.0,
            ..Xform::IDENTITY
        };
        let shift = Xform {
            e: 10.0,
            f: 20.0,
            ..Xform::IDENTITY
        };
        assert_eq!(scale.then(&shift).apply(1.0, 1.0), (12.0, 23.0));
        assert_eq!(shift.then(&scale).apply(1.0, 1.0), (22.0, 63.0));
    }

    #[test]
    fn anisotropic_and_isotropic_mapping() {
        let mut dc = Dc {
            map_mode: MapMode::Anisotropic,
            window_org: (100.0, 100.0),
            window_ext: (1000.0, 500.0),
            viewport_ext: (100.0, 100.0),
            ..Dc::default()
        };
        assert_eq!(
            dc.page_to_device((1.0, 1.0)).apply(1100.0, 600.0),
            (100.0, 100.0)
        );
        dc.map_mode = MapMode::Isotropic;
        assert_eq!(
            dc.page_to_device((1.0, 1.0)).apply(1100.0, 600.0),
            (100.0, 50.0)
        );
        dc.map_mode = MapMode::Fixed(3);
        dc.window_org = (0.0, 0.0);
        dc.viewport_org = (0.0, 0.0);
        let (x, y) = dc.page_to_device((4.0, 4.0)).apply(100.0, 100.0);
        assert!((x - 4.0).abs() < 1e-9 && (y + 4.0).abs() < 1e-9);
    }

    #[test]
    fn pen_styles() {
        let p = Pen::new(0x0001_2201, 3.0, Color(1, 2, 3));
        assert_eq!((p.dash, p.cap, p.join), (Dash::Dash, "butt", "miter"));
        assert_eq!(Pen::new(5, 1.0, Color::BLACK).dash, Dash::Null);
        assert_eq!(Color::from_colorref(0x00336699).hex(), "#996633");
    }
}
