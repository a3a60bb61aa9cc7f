//! Theme colours (`a:clrScheme` of `word/theme/theme1.xml`) and the WordprocessingML
//! attributes that point into them (`w:themeColor`, `w:themeFill`, with tints and shades).
//!
//! A colour attribute group is resolved in one place, [`ThemeColors::resolve`]: when the
//! theme attribute names a slot the theme defines, that slot's colour (lightened by the
//! tint or darkened by the shade) wins over the literal hex value, as in Word; otherwise
//! the literal value is used as before (`auto` and malformed values give no colour).

use crate::office::xml::Element;
use crate::office::Ns;

use super::model::Color;
use super::props::hex_color;

/// The twelve colour slots of a theme, as `#RRGGBB`.
#[derive(Debug, Clone, Default)]
pub(crate) struct ThemeColors {
    /// `(slot, colour)`: `dk1`, `lt1`, `dk2`, `lt2`, `accent1`…`accent6`, `hlink`,
    /// `folHlink`.
    slots: Vec<(String, Color)>,
}

/// The names of one colour attribute group on an element.
pub(crate) struct ColorAttrs {
    /// The literal hex value (`w:color`, `w:val`, `w:fill`).
    pub value: &'static str,
    /// The theme slot (`w:themeColor`, `w:themeFill`).
    pub theme: &'static str,
    /// Tint, `00`–`FF` (`w:themeTint`, `w:themeFillTint`).
    pub tint: &'static str,
    /// Shade, `00`–`FF` (`w:themeShade`, `w:themeFillShade`).
    pub shade: &'static str,
}

/// `w:color w:val` of a run.
pub(crate) const RUN_COLOR: ColorAttrs = ColorAttrs {
    value: "val",
    theme: "themeColor",
    tint: "themeTint",
    shade: "themeShade",
};

/// `w:color` of borders, underlines and shading patterns.
pub(crate) const LINE_COLOR: ColorAttrs = ColorAttrs {
    value: "color",
    theme: "themeColor",
    tint: "themeTint",
    shade: "themeShade",
};

/// `w:fill` of shading.
pub(crate) const FILL_COLOR: ColorAttrs = ColorAttrs {
    value: "fill",
    theme: "themeFill",
    tint: "themeFillTint",
    shade: "themeFillShade",
};

impl ThemeColors {
    /// Reads `a:clrScheme` from a parsed theme part.
    pub fn from_theme(root: Element<'_>) -> ThemeColors {
        let mut colors = ThemeColors::default();
        let Some(scheme) = root.find(Ns::A, "clrScheme") else {
            return colors;
        };
        for slot in scheme.elements().filter(|e| e.ns() == Ns::A) {
            let color = slot.elements().find_map(|c| match (c.ns(), c.name()) {
                (Ns::A, "srgbClr") => c.attr_local("val").and_then(hex_color),
                // System colours carry the colour they had when saved.
                (Ns::A, "sysClr") => c.attr_local("lastClr").and_then(hex_color),
                _ => None,
            });
            if let Some(color) = color {
                colors.slots.push((slot.name().to_owned(), color));
            }
        }
        colors
    }

    /// The twelve slots in DrawingML scheme order (`dk1`, `lt1`, `dk2`, `lt2`,
    /// `accent1`…`accent6`, `hlink`, `folHlink`) as RGB, for DrawingML parts (charts)
    /// that resolve `a:schemeClr` against the theme; a missing slot is `fallback`'s.
    pub fn scheme(&self, fallback: &[[u8; 3]; 12]) -> [[u8; 3]; 12] {
        const ORDER: [&str; 12] = [
            "dk1", "lt1", "dk2", "lt2", "accent1", "accent2", "accent3", "accent4", "accent5",
            "accent6", "hlink", "folHlink",
        ];
        let mut out = *fallback;
        for (i, name) in ORDER.iter().enumerate() {
            if let Some(c) = self.slot(name) {
                out[i] = c.channels();
            }
        }
        out
    }

    /// The colour of a `w:themeColor` value, without tint or shade.
    fn slot(&self, name: &str) -> Option<Color> {
        // Word's names for the slots a document refers to.
        let slot = match name {
            "dark1" | "text1" => "dk1",
            "light1" | "background1" => "lt1",
            "dark2" | "text2" => "dk2",
            "light2" | "background2" => "lt2",
            "hyperlink" => "hlink",
            "followedHyperlink" => "folHlink",
            other => other,
        };
        self.slots.iter().find(|(s, _)| s == slot).map(|(_, c)| *c)
    }

    /// The colour of a DrawingML scheme slot (`accent1`, `lt1`, `dk1` …), for SmartArt.
    pub(crate) fn scheme_rgb(&self, slot: &str) -> Option<[u8; 3]> {
        self.slot(slot).map(Color::channels)
    }

    /// The colour of one attribute group of `el`: the theme slot (tinted or shaded) when
    /// the theme defines it, else the literal hex value.
    pub fn resolve(&self, el: Element<'_>, attrs: &ColorAttrs) -> Option<Color> {
        let themed = el
            .attr(Ns::W, attrs.theme)
            .and_then(|name| self.slot(name))
            .map(Color::channels);
        if let Some(base) = themed {
            let byte = |name: &str| {
                el.attr(Ns::W, name)
                    .and_then(|v| u8::from_str_radix(v.trim(), 16).ok())
            };
            let color = match (byte(attrs.tint), byte(attrs.shade)) {
                (Some(tint), _) => tinted(base, tint),
                (None, Some(shade)) => shaded(base, shade),
                (None, None) => base,
            };
            let [r, g, b] = color;
            return Some(Color::rgb(r, g, b));
        }
        el.attr(Ns::W, attrs.value).and_then(hex_color)
    }
}

/// A tint keeps `tint/255` of the colour and mixes in white for the rest, on the HSL
/// lightness: `L' = L·t + (1 − t)`.
fn tinted(color: [u8; 3], tint: u8) -> [u8; 3] {
    let t = f64::from(tint) / 255.0;
    with_lightness(color, |l| l * t + (1.0 - t))
}

/// A shade keeps `shade/255` of the HSL lightness: `L' = L·s`.
fn shaded(color: [u8; 3], shade: u8) -> [u8; 3] {
    let s = f64::from(shade) / 255.0;
    with_lightness(color, |l| l * s)
}

/// Converts to HSL, changes the lightness, converts back.
fn with_lightness(color: [u8; 3], change: impl Fn(f64) -> f64) -> [u8; 3] {
    let [r, g, b] = color.map(|c| f64::from(c) / 255.0);
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let l = (max + min) / 2.0;
    let d = max - min;
    let (h, s) = if d == 0.0 {
        (0.0, 0.0)
    } else {
        let s = if l > 0.5 {
            d / (2.0 - max - min)
        } else {
            d / (max + min)
        };
        let h = if max == r {
            (g - b) / d + if g < b { 6.0 } else { 0.0 }
        } else if max == g {
            (b - r) / d + 2.0
        } else {
            (r - g) / d + 4.0
        };
        (h / 6.0, s)
    };
    let l = change(l).clamp(0.0, 1.0);
    let channel = |v: f64| (v * 255.0).round().clamp(0.0, 255.0) as u8;
    if s == 0.0 {
        return [channel(l); 3];
    }
    let q = if l < 0.5 {
        l * (1.0 + s)
    } else {
        l + s - l * s
    };
    let p = 2.0 * l - q;
    let hue = |mut t: f64| {
        if t < 0.0 {
            t += 1.0;
        }
        if t > 1.0 {
            t -= 1.0;
        }
        if t < 1.0 / 6.0 {
            p + (q - p) * 6.0 * t
        } else if t < 0.5 {
            q
        } else if t < 2.0 / 3.0 {
            p + (q - p) * (2.0 / 3.0 - t) * 6.0
        } else {
            p
        }
    };
    [
        channel(hue(h + 1.0 / 3.0)),
        channel(hue(h)),
        channel(hue(h - 1.0 / 3.0)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tint_lightens_and_shade_darkens_on_lightness() {
        // accent1 of the Office theme.
        let accent = [0x44, 0x72, 0xC4];
        assert_eq!(tinted(accent, 0xFF), accent);
        assert_eq!(shaded(accent, 0xFF), accent);
        assert_eq!(tinted(accent, 0), [255, 255, 255]);
        assert_eq!(shaded(accent, 0), [0, 0, 0]);
        // The swatches Word offers for Accent 1 (lighter 60% and 40%, darker 25% and 50%)
        // come out within one step per channel: Word rounds differently.
        let near =
            |got: [u8; 3], word: [u8; 3]| got.iter().zip(word).all(|(g, w)| g.abs_diff(w) <= 1);
        assert!(near(tinted(accent, 0x66), [0xB4, 0xC6, 0xE7]));
        assert!(near(tinted(accent, 0x99), [0x8E, 0xAA, 0xDB]));
        assert!(near(shaded(accent, 0xBF), [0x2F, 0x54, 0x96]));
        assert!(near(shaded(accent, 0x80), [0x1F, 0x38, 0x64]));
        assert!(!near(shaded(accent, 0x80), [0x1F, 0x38, 0x60]));
        // Greys stay grey.
        assert_eq!(tinted([0, 0, 0], 0x80), [127, 127, 127]);
    }
}
