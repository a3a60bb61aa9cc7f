//! The automatic series colours: the theme's six accents in turn, then the same six
//! darkened and lightened, in the order of Office's default colour style ("colorful",
//! `colors1.xml`: `lumMod 60 %`, `lumMod 80 % lumOff 20 %`, `lumMod 80 %`, …).

use crate::office::pptx::color::{hsl_to_rgb, rgb_to_hsl, ColorCtx};

use super::model::Color;

/// The luminance changes (`lumMod`, `lumOff`) of each round of six series.
const VARIATIONS: [(f64, f64); 9] = [
    (1.0, 0.0),
    (0.6, 0.0),
    (0.8, 0.2),
    (0.8, 0.0),
    (0.6, 0.4),
    (0.5, 0.0),
    (0.7, 0.3),
    (0.7, 0.0),
    (0.5, 0.5),
];

/// Office's accent1 when a theme has none (the 2013 Office theme's blue).
const FALLBACK: Color = Color::rgb(0x4472C4);

/// The colour of the series (or varied point) with index `idx`.
pub(crate) fn series_color(colors: &ColorCtx<'_>, idx: usize) -> Color {
    let accent = colors
        .scheme_color(&format!("accent{}", idx % 6 + 1))
        .unwrap_or(FALLBACK);
    let (m, o) = VARIATIONS[(idx / 6) % VARIATIONS.len()];
    luminance(accent, m, o)
}

/// `lumMod`/`lumOff` on the HSL lightness, as DrawingML defines them.
pub fn luminance(c: Color, modulate: f64, offset: f64) -> Color {
    if modulate == 1.0 && offset == 0.0 {
        return c;
    }
    let [r, g, b] = [c.r, c.g, c.b].map(|v| f64::from(v) / 255.0);
    let (h, s, l) = rgb_to_hsl(r, g, b);
    let (r, g, b) = hsl_to_rgb(h, s, (l * modulate + offset).clamp(0.0, 1.0));
    let q = |v: f64| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    Color {
        r: q(r),
        g: q(g),
        b: q(b),
        alpha: c.alpha,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn darkening_and_lightening_keep_the_hue() {
        let blue = Color::rgb(0x4472C4);
        assert_eq!(luminance(blue, 1.0, 0.0), blue);
        let dark = luminance(blue, 0.6, 0.0);
        assert!(dark.r < blue.r && dark.g < blue.g && dark.b < blue.b);
        assert!(dark.b > dark.r, "still blue");
        let light = luminance(blue, 0.6, 0.4);
        assert!(light.r > blue.r && light.b > blue.b);
        assert_eq!(luminance(Color::rgb(0x808080), 0.5, 0.5).r, 192);
    }
}
