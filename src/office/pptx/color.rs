//! DrawingML colours: the six ways to name one and the transforms that follow it.
//!
//! A colour element (`a:srgbClr`, `a:schemeClr`, `a:sysClr`, `a:prstClr`, `a:scrgbClr`,
//! `a:hslClr`) names a base colour; its children transform it in document order
//! (`lumMod`, `lumOff`, `tint`, `shade`, `alpha`, `satMod` …). Scheme colours go through the
//! colour map of the slide in force (`tx1` → `dk1` …) into the theme's colour scheme;
//! `phClr` is the colour a style reference passes into a theme format style.

use crate::office::xml::Element;
use crate::office::Ns;

use super::model::Color;

/// The twelve colour slots of a theme colour scheme, in scheme order.
pub(crate) const SLOTS: [&str; 12] = [
    "dk1", "lt1", "dk2", "lt2", "accent1", "accent2", "accent3", "accent4", "accent5", "accent6",
    "hlink", "folHlink",
];

/// The index of a theme slot name.
pub(super) fn slot_index(name: &str) -> Option<usize> {
    SLOTS.iter().position(|s| *s == name)
}

/// A colour map (`p:clrMap`): for each of the twelve names a slide may use, the theme slot
/// it stands for. Index order: bg1, tx1, bg2, tx2, accent1–6, hlink, folHlink.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct ClrMap([u8; 12]);

/// The names a colour map maps, in [`ClrMap`] index order.
const MAPPED: [&str; 12] = [
    "bg1", "tx1", "bg2", "tx2", "accent1", "accent2", "accent3", "accent4", "accent5", "accent6",
    "hlink", "folHlink",
];

impl Default for ClrMap {
    /// The usual light mapping: bg1 = lt1, tx1 = dk1, bg2 = lt2, tx2 = dk2.
    fn default() -> Self {
        ClrMap([1, 0, 3, 2, 4, 5, 6, 7, 8, 9, 10, 11])
    }
}

impl ClrMap {
    /// Reads a `p:clrMap` (or `a:overrideClrMapping`), starting from `base` for anything
    /// it does not say.
    pub(super) fn from_xml(el: Element<'_>, base: ClrMap) -> ClrMap {
        let mut map = base;
        for (i, name) in MAPPED.iter().enumerate() {
            if let Some(slot) = el.attr(Ns::None, name).and_then(slot_index) {
                map.0[i] = slot as u8;
            }
        }
        map
    }

    /// The theme slot a scheme colour name stands for.
    fn slot(&self, name: &str) -> Option<usize> {
        if let Some(i) = MAPPED.iter().position(|m| *m == name) {
            return Some(self.0[i] as usize);
        }
        slot_index(name)
    }
}

/// What a colour resolves against: the theme's twelve colours, the colour map in force
/// and the placeholder colour of a style reference.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ColorCtx<'t> {
    pub(super) scheme: &'t [Color; 12],
    pub(super) map: ClrMap,
    pub(super) ph: Option<Color>,
}

impl<'t> ColorCtx<'t> {
    /// A context over a theme's twelve colours (in [`SLOTS`] order) with the usual light
    /// colour map, for parts outside a deck (a Word document's charts).
    pub(crate) fn from_scheme(scheme: &'t [Color; 12]) -> ColorCtx<'t> {
        ColorCtx {
            scheme,
            map: ClrMap::default(),
            ph: None,
        }
    }

    /// The same context with `phClr` standing for `ph`.
    pub(super) fn with_ph(self, ph: Option<Color>) -> ColorCtx<'t> {
        ColorCtx { ph, ..self }
    }

    /// A scheme colour by name (`tx1`, `hlink`, `accent2` …) through the colour map.
    pub(crate) fn scheme_color(&self, name: &str) -> Option<Color> {
        self.map.slot(name).map(|s| self.scheme[s])
    }

    /// The colour of the first colour element among the children of `parent` (e.g. an
    /// `a:solidFill`).
    pub(crate) fn child_color(&self, parent: Element<'_>) -> Option<Color> {
        parent.elements().find_map(|c| self.color(c))
    }

    /// Resolves a colour element; `None` when `el` is not one or names nothing known.
    pub(crate) fn color(&self, el: Element<'_>) -> Option<Color> {
        if el.ns() != Ns::A {
            return None;
        }
        let base = match el.name() {
            "srgbClr" => el.attr(Ns::None, "val").and_then(parse_hex)?,
            "schemeClr" => {
                let name = el.attr(Ns::None, "val")?;
                if name == "phClr" {
                    self.ph.unwrap_or(Color::rgb(0))
                } else {
                    let slot = self.map.slot(name)?;
                    self.scheme[slot]
                }
            }
            "sysClr" => el
                .attr(Ns::None, "lastClr")
                .and_then(parse_hex)
                .or_else(|| system_color(el.attr(Ns::None, "val")?))?,
            "prstClr" => preset_color(el.attr(Ns::None, "val")?)?,
            "scrgbClr" => {
                let c = |n: &str| {
                    el.attr(Ns::None, n)
                        .and_then(percent)
                        .map(|v| to_srgb(v.clamp(0.0, 1.0)))
                        .unwrap_or(0.0)
                };
                from_unit(c("r"), c("g"), c("b"))
            }
            "hslClr" => {
                let hue = el
                    .attr(Ns::None, "hue")
                    .and_then(number)
                    .map_or(0.0, |h| h / 60_000.0);
                let sat = el.attr(Ns::None, "sat").and_then(percent).unwrap_or(0.0);
                let lum = el.attr(Ns::None, "lum").and_then(percent).unwrap_or(0.0);
                let (r, g, b) = hsl_to_rgb(hue, sat.clamp(0.0, 1.0), lum.clamp(0.0, 1.0));
                from_unit(r, g, b)
            }
            _ => return None,
        };
        Some(transform(base, el))
    }
}

/// Applies the transform children of a colour element in order.
fn transform(base: Color, el: Element<'_>) -> Color {
    let mut rgb = [
        f64::from(base.r) / 255.0,
        f64::from(base.g) / 255.0,
        f64::from(base.b) / 255.0,
    ];
    let mut alpha = f64::from(base.alpha);
    for m in el.elements() {
        if m.ns() != Ns::A {
            continue;
        }
        let v = m.attr(Ns::None, "val").and_then(percent);
        let name = m.name();
        match (name, v) {
            ("alpha", Some(v)) => alpha = v,
            ("alphaMod", Some(v)) => alpha *= v,
            ("alphaOff", Some(v)) => alpha += v,
            ("lum" | "lumMod" | "lumOff" | "sat" | "satMod" | "satOff", Some(v)) => {
                let (h, mut s, mut l) = rgb_to_hsl(rgb[0], rgb[1], rgb[2]);
                match name {
                    "lum" => l = v,
                    "lumMod" => l *= v,
                    "lumOff" => l += v,
                    "sat" => s = v,
                    "satMod" => s *= v,
                    _ => s += v,
                }
                let (r, g, b) = hsl_to_rgb(h, s.clamp(0.0, 1.0), l.clamp(0.0, 1.0));
                rgb = [r, g, b];
            }
            ("hue" | "hueMod" | "hueOff", _) => {
                let raw = m.attr(Ns::None, "val").and_then(number).unwrap_or(0.0);
                let (mut h, s, l) = rgb_to_hsl(rgb[0], rgb[1], rgb[2]);
                match name {
                    "hue" => h = raw / 60_000.0,
                    "hueMod" => h *= raw / 100_000.0,
                    _ => h += raw / 60_000.0,
                }
                let (r, g, b) = hsl_to_rgb(h.rem_euclid(360.0), s, l);
                rgb = [r, g, b];
            }
            // Tints and shades mix with white or black in linear light, as Office does;
            // mixing in sRGB makes `tx1 tint 75%` far too dark.
            ("tint", Some(v)) => {
                for c in &mut rgb {
                    *c = tint_channel(*c, v);
                }
            }
            ("shade", Some(v)) => {
                for c in &mut rgb {
                    *c = to_srgb(to_linear(*c) * v);
                }
            }
            ("comp", _) => {
                let (h, s, l) = rgb_to_hsl(rgb[0], rgb[1], rgb[2]);
                let (r, g, b) = hsl_to_rgb((h + 180.0).rem_euclid(360.0), s, l);
                rgb = [r, g, b];
            }
            ("inv", _) => rgb = rgb.map(|c| 1.0 - c),
            ("gray", _) => {
                let y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
                rgb = [y; 3];
            }
            (
                "redMod" | "greenMod" | "blueMod" | "redOff" | "greenOff" | "blueOff" | "red"
                | "green" | "blue",
                Some(v),
            ) => {
                let i = match &name[..3] {
                    "red" => 0,
                    "gre" => 1,
                    _ => 2,
                };
                let lin = to_linear(rgb[i]);
                let lin = if name.ends_with("Mod") {
                    lin * v
                } else if name.ends_with("Off") {
                    lin + v
                } else {
                    v
                };
                rgb[i] = to_srgb(lin.clamp(0.0, 1.0));
            }
            _ => {}
        }
        for c in &mut rgb {
            *c = c.clamp(0.0, 1.0);
        }
    }
    let mut out = from_unit(rgb[0], rgb[1], rgb[2]);
    out.alpha = alpha.clamp(0.0, 1.0) as f32;
    out
}

/// A DrawingML percentage (`100000` = 100 %) as a fraction; also accepts `"50%"`.
pub(super) fn percent(v: &str) -> Option<f64> {
    let v = v.trim();
    let n = if let Some(p) = v.strip_suffix('%') {
        number(p)? / 100.0
    } else {
        number(v)? / 100_000.0
    };
    Some(n)
}

/// A finite decimal number.
pub(crate) fn number(v: &str) -> Option<f64> {
    let n: f64 = v.trim().parse().ok()?;
    n.is_finite().then_some(n)
}

/// `RRGGBB` as a colour.
pub(super) fn parse_hex(v: &str) -> Option<Color> {
    let v = v.trim();
    if v.len() != 6 || !v.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(v, 16).ok().map(Color::rgb)
}

fn from_unit(r: f64, g: f64, b: f64) -> Color {
    let q = |c: f64| (c.clamp(0.0, 1.0) * 255.0).round() as u8;
    Color {
        r: q(r),
        g: q(g),
        b: q(b),
        alpha: 1.0,
    }
}

/// One channel (0–1) tinted by `v` (`a:tint`: 1 keeps it, 0 is white).
fn tint_channel(c: f64, v: f64) -> f64 {
    to_srgb(to_linear(c) * v + (1.0 - v))
}

/// `color` tinted by `v` (`a:tint val`, 0–1), as a `<a:tint>` child would tint it.
pub(crate) fn tinted(color: Color, v: f64) -> Color {
    let channel = |c: u8| (tint_channel(f64::from(c) / 255.0, v) * 255.0).round() as u8;
    Color {
        r: channel(color.r),
        g: channel(color.g),
        b: channel(color.b),
        ..color
    }
}

fn to_linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn to_srgb(c: f64) -> f64 {
    let c = c.clamp(0.0, 1.0);
    if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// RGB (0–1) to hue (degrees), saturation and lightness (0–1).
pub(crate) fn rgb_to_hsl(r: f64, g: f64, b: f64) -> (f64, f64, f64) {
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let l = (max + min) / 2.0;
    let d = max - min;
    if d < 1e-12 {
        return (0.0, 0.0, l);
    }
    let s = if l > 0.5 {
        d / (2.0 - max - min)
    } else {
        d / (max + min)
    };
    let h = if max == r {
        ((g - b) / d).rem_euclid(6.0)
    } else if max == g {
        (b - r) / d + 2.0
    } else {
        (r - g) / d + 4.0
    };
    (h * 60.0, s, l)
}

/// Hue (degrees), saturation and lightness (0–1) to RGB (0–1).
pub(crate) fn hsl_to_rgb(h: f64, s: f64, l: f64) -> (f64, f64, f64) {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let hp = h.rem_euclid(360.0) / 60.0;
    let x = c * (1.0 - (hp.rem_euclid(2.0) - 1.0).abs());
    let (r, g, b) = match hp as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    (r + m, g + m, b + m)
}

/// Windows system colours, for `a:sysClr` without a `lastClr`.
fn system_color(name: &str) -> Option<Color> {
    Some(Color::rgb(match name {
        "window" | "btnHighlight" | "highlightText" | "menu" | "infoText" => 0xFFFFFF,
        "windowText" | "menuText" | "btnText" | "captionText" => 0x000000,
        "btnFace" | "menuBar" | "3dLight" => 0xF0F0F0,
        "btnShadow" | "grayText" => 0xA0A0A0,
        "highlight" | "hotLight" => 0x0078D7,
        "activeCaption" => 0x99B4D1,
        "inactiveCaption" => 0xBFCDDB,
        "3dDkShadow" => 0x696969,
        "infoBk" => 0xFFFFE1,
        "appWorkspace" => 0xABABAB,
        "background" => 0x000000,
        _ => return None,
    }))
}

/// DrawingML preset colour names (`a:prstClr`): the CSS/X11 names, with `dk`, `lt` and
/// `med` standing for dark, light and medium.
fn preset_color(name: &str) -> Option<Color> {
    let lower = name.to_ascii_lowercase();
    let full = if let Some(rest) = lower.strip_prefix("dk") {
        format!("dark{rest}")
    } else if let Some(rest) = lower.strip_prefix("lt") {
        format!("light{rest}")
    } else if let Some(rest) = lower.strip_prefix("med") {
        if rest.starts_with("ium") {
            lower.clone()
        } else {
            format!("medium{rest}")
        }
    } else {
        lower
    };
    let full = full.replace("grey", "gray");
    NAMED
        .binary_search_by(|(n, _)| n.cmp(&full.as_str()))
        .ok()
        .map(|i| Color::rgb(NAMED[i].1))
}

/// Named colours, sorted by name for binary search.
const NAMED: &[(&str, u32)] = &[
    ("aliceblue", 0xF0F8FF),
    ("antiquewhite", 0xFAEBD7),
    ("aqua", 0x00FFFF),
    ("aquamarine", 0x7FFFD4),
    ("azure", 0xF0FFFF),
    ("beige", 0xF5F5DC),
    ("bisque", 0xFFE4C4),
    ("black", 0x000000),
    ("blanchedalmond", 0xFFEBCD),
    ("blue", 0x0000FF),
    ("blueviolet", 0x8A2BE2),
    ("brown", 0xA52A2A),
    ("burlywood", 0xDEB887),
    ("cadetblue", 0x5F9EA0),
    ("chartreuse", 0x7FFF00),
    ("chocolate", 0xD2691E),
    ("coral", 0xFF7F50),
    ("cornflowerblue", 0x6495ED),
    ("cornsilk", 0xFFF8DC),
    ("crimson", 0xDC143C),
    ("cyan", 0x00FFFF),
    ("darkblue", 0x00008B),
    ("darkcyan", 0x008B8B),
    ("darkgoldenrod", 0xB8860B),
    ("darkgray", 0xA9A9A9),
    ("darkgreen", 0x006400),
    ("darkkhaki", 0xBDB76B),
    ("darkmagenta", 0x8B008B),
    ("darkolivegreen", 0x556B2F),
    ("darkorange", 0xFF8C00),
    ("darkorchid", 0x9932CC),
    ("darkred", 0x8B0000),
    ("darksalmon", 0xE9967A),
    ("darkseagreen", 0x8FBC8F),
    ("darkslateblue", 0x483D8B),
    ("darkslategray", 0x2F4F4F),
    ("darkturquoise", 0x00CED1),
    ("darkviolet", 0x9400D3),
    ("deeppink", 0xFF1493),
    ("deepskyblue", 0x00BFFF),
    ("dimgray", 0x696969),
    ("dodgerblue", 0x1E90FF),
    ("firebrick", 0xB22222),
    ("floralwhite", 0xFFFAF0),
    ("forestgreen", 0x228B22),
    ("fuchsia", 0xFF00FF),
    ("gainsboro", 0xDCDCDC),
    ("ghostwhite", 0xF8F8FF),
    ("gold", 0xFFD700),
    ("goldenrod", 0xDAA520),
    ("gray", 0x808080),
    ("green", 0x008000),
    ("greenyellow", 0xADFF2F),
    ("honeydew", 0xF0FFF0),
    ("hotpink", 0xFF69B4),
    ("indianred", 0xCD5C5C),
    ("indigo", 0x4B0082),
    ("ivory", 0xFFFFF0),
    ("khaki", 0xF0E68C),
    ("lavender", 0xE6E6FA),
    ("lavenderblush", 0xFFF0F5),
    ("lawngreen", 0x7CFC00),
    ("lemonchiffon", 0xFFFACD),
    ("lightblue", 0xADD8E6),
    ("lightcoral", 0xF08080),
    ("lightcyan", 0xE0FFFF),
    ("lightgoldenrodyellow", 0xFAFAD2),
    ("lightgray", 0xD3D3D3),
    ("lightgreen", 0x90EE90),
    ("lightpink", 0xFFB6C1),
    ("lightsalmon", 0xFFA07A),
    ("lightseagreen", 0x20B2AA),
    ("lightskyblue", 0x87CEFA),
    ("lightslategray", 0x778899),
    ("lightsteelblue", 0xB0C4DE),
    ("lightyellow", 0xFFFFE0),
    ("lime", 0x00FF00),
    ("limegreen", 0x32CD32),
    ("linen", 0xFAF0E6),
    ("magenta", 0xFF00FF),
    ("maroon", 0x800000),
    ("mediumaquamarine", 0x66CDAA),
    ("mediumblue", 0x0000CD),
    ("mediumorchid", 0xBA55D3),
    ("mediumpurple", 0x9370DB),
    ("mediumseagreen", 0x3CB371),
    ("mediumslateblue", 0x7B68EE),
    ("mediumspringgreen", 0x00FA9A),
    ("mediumturquoise", 0x48D1CC),
    ("mediumvioletred", 0xC71585),
    ("midnightblue", 0x191970),
    ("mintcream", 0xF5FFFA),
    ("mistyrose", 0xFFE4E1),
    ("moccasin", 0xFFE4B5),
    ("navajowhite", 0xFFDEAD),
    ("navy", 0x000080),
    ("oldlace", 0xFDF5E6),
    ("olive", 0x808000),
    ("olivedrab", 0x6B8E23),
    ("orange", 0xFFA500),
    ("orangered", 0xFF4500),
    ("orchid", 0xDA70D6),
    ("palegoldenrod", 0xEEE8AA),
    ("palegreen", 0x98FB98),
    ("paleturquoise", 0xAFEEEE),
    ("palevioletred", 0xDB7093),
    ("papayawhip", 0xFFEFD5),
    ("peachpuff", 0xFFDAB9),
    ("peru", 0xCD853F),
    ("pink", 0xFFC0CB),
    ("plum", 0xDDA0DD),
    ("powderblue", 0xB0E0E6),
    ("purple", 0x800080),
    ("red", 0xFF0000),
    ("rosybrown", 0xBC8F8F),
    ("royalblue", 0x4169E1),
    ("saddlebrown", 0x8B4513),
    ("salmon", 0xFA8072),
    ("sandybrown", 0xF4A460),
    ("seagreen", 0x2E8B57),
    ("seashell", 0xFFF5EE),
    ("sienna", 0xA0522D),
    ("silver", 0xC0C0C0),
    ("skyblue", 0x87CEEB),
    ("slateblue", 0x6A5ACD),
    ("slategray", 0x708090),
    ("snow", 0xFFFAFA),
    ("springgreen", 0x00FF7F),
    ("steelblue", 0x4682B4),
    ("tan", 0xD2B48C),
    ("teal", 0x008080),
    ("thistle", 0xD8BFD8),
    ("tomato", 0xFF6347),
    ("turquoise", 0x40E0D0),
    ("violet", 0xEE82EE),
    ("wheat", 0xF5DEB3),
    ("white", 0xFFFFFF),
    ("whitesmoke", 0xF5F5F5),
    ("yellow", 0xFFFF00),
    ("yellowgreen", 0x9ACD32),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_colours_are_sorted_and_found() {
        assert!(NAMED.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(preset_color("dkBlue"), Some(Color::rgb(0x00008B)));
        assert_eq!(preset_color("ltGray"), Some(Color::rgb(0xD3D3D3)));
        assert_eq!(preset_color("medSeaGreen"), Some(Color::rgb(0x3CB371)));
        assert_eq!(preset_color("red"), Some(Color::rgb(0xFF0000)));
        assert_eq!(preset_color("nope"), None);
    }

    #[test]
    fn hsl_round_trips() {
        let (h, s, l) = rgb_to_hsl(0.2, 0.4, 0.8);
        let (r, g, b) = hsl_to_rgb(h, s, l);
        assert!((r - 0.2).abs() < 1e-9 && (g - 0.4).abs() < 1e-9 && (b - 0.8).abs() < 1e-9);
    }

    #[test]
    fn percentages() {
        assert_eq!(percent("75000"), Some(0.75));
        assert_eq!(percent("50%"), Some(0.5));
        assert_eq!(percent("x"), None);
    }
}
