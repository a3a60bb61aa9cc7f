//! DrawingML colours as SmartArt parts write them: `a:srgbClr`, `a:schemeClr`,
//! `a:sysClr`, `a:prstClr`, `a:scrgbClr`, with the transforms Office uses in diagrams
//! (`alpha`, `lumMod`, `lumOff`, `tint`, `shade`, `satMod`; offsets of zero, as Office
//! saves them, change nothing). The theme is the caller's: `scheme` maps a scheme slot
//! (`accent1`, `lt1`, `dk1` …) to its colour.

use crate::office::xml::Element;
use crate::office::Ns;

use super::model::Paint;

/// The colour of the first colour element under `parent` (e.g. an `a:solidFill`).
pub fn child_paint(parent: Element<'_>, scheme: &dyn Fn(&str) -> Option<[u8; 3]>) -> Option<Paint> {
    parent.elements().find_map(|c| resolve(c, scheme))
}

/// The colour `el` names, transforms applied; `None` for anything else.
pub fn resolve(el: Element<'_>, scheme: &dyn Fn(&str) -> Option<[u8; 3]>) -> Option<Paint> {
    if el.ns() != Ns::A {
        return None;
    }
    let base = match el.name() {
        "srgbClr" => el.attr_local("val").and_then(hex)?,
        "sysClr" => {
            el.attr_local("lastClr")
                .and_then(hex)
                .or_else(|| match el.attr_local("val") {
                    Some("window") => Some([255, 255, 255]),
                    Some("windowText") => Some([0, 0, 0]),
                    _ => None,
                })?
        }
        "schemeClr" => {
            let name = el.attr_local("val")?;
            // The default colour map of a document or slide.
            let slot = match name {
                "tx1" => "dk1",
                "bg1" => "lt1",
                "tx2" => "dk2",
                "bg2" => "lt2",
                other => other,
            };
            scheme(slot)?
        }
        "prstClr" => match el.attr_local("val")? {
            "black" => [0, 0, 0],
            "white" => [255, 255, 255],
            "red" => [255, 0, 0],
            "green" => [0, 128, 0],
            "blue" => [0, 0, 255],
            "gray" | "grey" => [128, 128, 128],
            _ => return None,
        },
        "scrgbClr" => {
            let c = |n: &str| el.attr_local(n).and_then(per_cent).unwrap_or(0.0);
            [unit(c("r")), unit(c("g")), unit(c("b"))]
        }
        _ => return None,
    };
    let mut rgb = base.map(|v| f64::from(v) / 255.0);
    let mut alpha = 1.0;
    for t in el.elements() {
        let Some(v) = t.attr_local("val").and_then(per_cent) else {
            continue;
        };
        match t.name() {
            "alpha" => alpha = v.clamp(0.0, 1.0),
            "lumMod" => rgb = with_hsl(rgb, |h, s, l| (h, s, l * v)),
            "lumOff" => rgb = with_hsl(rgb, |h, s, l| (h, s, l + v)),
            "satMod" => rgb = with_hsl(rgb, |h, s, l| (h, s * v, l)),
            "tint" => rgb = with_hsl(rgb, |h, s, l| (h, s, l * v + (1.0 - v))),
            "shade" => rgb = with_hsl(rgb, |h, s, l| (h, s, l * v)),
            _ => {}
        }
    }
    Some(Paint {
        rgb: rgb.map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8),
        alpha,
    })
}

/// `RRGGBB` hex.
fn hex(v: &str) -> Option<[u8; 3]> {
    let v = v.trim();
    if v.len() != 6 || !v.is_ascii() {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&v[i..i + 2], 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// A DrawingML percentage (`50000` = 50 %) as a fraction; `50%` spelled out too.
fn per_cent(v: &str) -> Option<f64> {
    let v = v.trim();
    let n = match v.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().ok()? / 100.0,
        None => v.parse::<f64>().ok()? / 100_000.0,
    };
    n.is_finite().then_some(n)
}

fn unit(c: f64) -> u8 {
    (c.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// `rgb` (0–1) with its hue (0–1 of a turn), saturation and lightness changed by `f`,
/// through the PPTX renderer's HSL conversion.
fn with_hsl(rgb: [f64; 3], f: impl Fn(f64, f64, f64) -> (f64, f64, f64)) -> [f64; 3] {
    use crate::office::pptx::color::{hsl_to_rgb, rgb_to_hsl};
    let (h, s, l) = rgb_to_hsl(rgb[0], rgb[1], rgb[2]);
    let (h, s, l) = f(h / 360.0, s, l);
    let (r, g, b) = hsl_to_rgb(h * 360.0, s.clamp(0.0, 1.0), l.clamp(0.0, 1.0));
    [r, g, b]
}
