//! Custom geometry on arbitrary bytes: parse them as XML, read the root as an
//! `a:custGeom` with the document limits, evaluate it at a few sizes (with the first
//! guide overridden as an adjust value) and draw it as SVG path data. Nothing may panic,
//! and every number written must be finite.

use previewd::office::drawingml::{evaluate, parse, svg_paths};
use previewd::office::xml::{parse_xml, XmlOptions};

/// One input.
pub fn run(data: &[u8]) {
    let opts = XmlOptions {
        max_depth: 64,
        max_nodes: 200_000,
        understood: &[],
    };
    let Ok(doc) = parse_xml("fuzz.xml", data, &opts) else {
        return;
    };
    let def = parse::geometry(doc.root(), parse::DOCUMENT_LIMITS);
    let adjust: Vec<(String, f64)> = def
        .adjust
        .first()
        .map(|g| (g.name.to_string(), f64::from(data.len() as u32) * 1e6))
        .into_iter()
        .collect();
    for (w, h) in [(100.0, 50.0), (0.0, 0.0), (1e9, 1e-9)] {
        let outline = evaluate(&def, w, h, &adjust);
        assert!(outline.text_rect.iter().all(|v| v.is_finite()));
        for p in svg_paths(&outline.paths, 96.0, 48.0) {
            for token in p.d.split(|c: char| c.is_ascii_alphabetic() || c == ' ') {
                if !token.is_empty() {
                    assert!(token.parse::<f64>().is_ok_and(f64::is_finite), "{token}");
                }
            }
        }
    }
}
