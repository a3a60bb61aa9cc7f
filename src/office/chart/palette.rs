//! The automatic series colours: the theme's six accents in turn, then the same six
//! darkened and lightened, in the order of Office's default colour style ("colorful",
//! `colors1.xml`: `lumMod 60 %`, `lumMod 80 % lumOff 20 %`, `lumMod 80 %`, …).

use crate::office::pptx::color::ColorCtx;

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
    let l = (l * modulate + offset).clamp(0.0, 1.0);
    let hue = |p: f64, q: f64, t: f64| {
        let t = t.rem_euclid(1.0);
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
    let (r, g, b) = if s == 0.0 {
        (l, l, l)
    } else {
        let q = if l < 0.5 {
            l * (1.0 + s)
        } else {
            l + s - l * s
        };
        let p = 2.0 * l - q;
        (
            hue(p, q, h + 1.0 / 3.0),
            hue(p, q, h),
            hue(p, q, h - 1.0 / 3.0),
        )
    };
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
