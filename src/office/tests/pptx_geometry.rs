//! Preset geometry on a real deck: ShapeCrawler's `062_shape-adjustments` test deck (two
//! slides, 115 presets with adjust values; `fixtures/pptx/`), rendered to HTML, draws
//! every preset with its own outline from the standard's definitions.

use crate::office::pptx::model::{Geometry, Shape, ShapeKind};
use crate::office::pptx::{parse_pptx, render_slide, RenderOptions};
use crate::office::OfficeLimits;

const DECK: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/pptx/shapecrawler-062_shape-adjustments.pptx"
);

/// Presets whose first path is their whole box (the callouts' text box; the connectors
/// and lines are open paths).
const BOX_FIRST: &[&str] = &[
    "rect",
    "callout1",
    "callout2",
    "callout3",
    "accentCallout1",
    "accentCallout2",
    "accentCallout3",
    "borderCallout1",
    "borderCallout2",
    "borderCallout3",
    "accentBorderCallout1",
    "accentBorderCallout2",
    "accentBorderCallout3",
];

/// The `d` of every `<path>` in the rendered element of the shape named `name`.
fn shape_paths<'h>(html: &'h str, name: &str) -> Vec<&'h str> {
    let at = html
        .find(&format!("data-name=\"{name}\""))
        .unwrap_or_else(|| panic!("shape {name} is rendered"));
    let rest = &html[at..];
    let end = rest[1..]
        .find("<div class=\"pptx-sp")
        .map_or(rest.len(), |e| e + 1);
    rest[..end]
        .split("<path d=\"")
        .skip(1)
        .filter_map(|p| p.split('"').next())
        .collect()
}

fn presets(shapes: &[Shape], out: &mut Vec<(String, String, f64, f64)>) {
    for s in shapes {
        match &s.kind {
            ShapeKind::Shape(a) => {
                if let Geometry::Preset { name, .. } = &a.geometry {
                    out.push((
                        s.name.clone(),
                        name.clone(),
                        s.frame.width as f64 / 12_700.0,
                        s.frame.height as f64 / 12_700.0,
                    ));
                }
            }
            ShapeKind::Group(g) => presets(&g.children, out),
            _ => {}
        }
    }
}

fn num(v: f64) -> String {
    crate::office::drawingml::path::fmt(v)
}

#[test]
fn shape_adjustments_deck_draws_each_preset_with_its_own_outline() {
    let bytes = std::fs::read(DECK).expect("fixture deck");
    let pres = parse_pptx(&bytes, &OfficeLimits::default()).expect("deck parses");
    let opts = RenderOptions::default();
    let mut checked = 0;
    for (i, slide) in pres.slides.iter().enumerate() {
        let html = render_slide(&pres, i, &opts);
        let mut shapes = Vec::new();
        presets(&slide.shapes, &mut shapes);
        for (shape, preset, w, h) in shapes {
            let paths = shape_paths(&html, &shape);
            if paths.is_empty() {
                // Only the unfilled text placeholders (the slide number) draw nothing.
                assert_eq!(preset, "rect", "{shape} ({preset}) is drawn");
                continue;
            }
            let the_box = format!("M0 0L{w} 0L{w} {h}L0 {h}Z", w = num(w), h = num(h));
            // The deck's right bracket has adjust 0: no curve at its ends, so its fill
            // path is exactly its box, as the standard's formulas give.
            if !BOX_FIRST.contains(&preset.as_str()) && shape != "RightBracket" {
                assert_ne!(paths[0], the_box, "{shape} ({preset}) is drawn as its box");
            }
            checked += 1;
        }
        let html_paths = |name: &str| shape_paths(&html, name).join(" ");
        if i == 1 {
            // A gear has teeth: many straight edges and arcs between them.
            let gear = html_paths("Gear9");
            assert!(gear.matches('L').count() >= 27, "Gear9: {gear}");
            // The math signs are several parts: ÷ is a bar and two dots.
            let divide = html_paths("MathDivide");
            assert!(divide.matches('M').count() >= 3, "MathDivide: {divide}");
            // Callouts keep their leader line as an open last path.
            let callout = shape_paths(&html, "Callout1");
            assert!(callout.len() >= 2 && !callout.last().unwrap().ends_with('Z'));
        }
    }
    assert!(checked >= 110, "{checked} preset shapes checked");
}

#[test]
fn preset_text_sits_in_the_geometry_text_rectangle() {
    let bytes = std::fs::read(DECK).expect("fixture deck");
    let pres = parse_pptx(&bytes, &OfficeLimits::default()).expect("deck parses");
    let html = render_slide(&pres, 0, &RenderOptions::default());
    // The donut's text box is inset like an ellipse's (by 14.6 % of its size), on top of
    // the body's own 0.1 in / 0.05 in insets: the left inset is more than 7.2 pt.
    let at = html.find("data-name=\"Donut\"").expect("donut rendered");
    let tx = &html[at..];
    let style = &tx[tx.find("pptx-tx").expect("donut has text")..];
    let il = style
        .split("--il:")
        .nth(1)
        .and_then(|s| s.split(|c: char| !(c.is_ascii_digit() || c == '.')).next())
        .and_then(|v| v.parse::<f64>().ok())
        .expect("left inset");
    assert!(il > 7.3, "left inset {il} pt includes the text rectangle");
}
