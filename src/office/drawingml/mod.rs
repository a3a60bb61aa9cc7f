//! DrawingML geometry, shared by the PPTX and DOCX renderers: the 187 preset shapes of
//! ECMA-376 Part 1 (Annex D, `presetShapeDefinitions.xml`, committed here as
//! `presets.xml`; see `README.md` beside this file) and documents' custom geometry
//! (`a:custGeom`), both read into one [`GeometryDef`] form and evaluated by one guide
//! formula evaluator.
//!
//! - [`parse`] reads a geometry element (a preset definition or an `a:custGeom`);
//! - [`eval`] evaluates it at a shape size with the document's adjust values into
//!   [`eval::Outline`]: paths of plain commands and the text rectangle;
//! - [`path`] turns evaluated paths into SVG path data.
//!
//! The preset definitions are parsed once, on first use, and shared (see
//! [`preset`]); evaluating one for a shape is a pass over its guides and commands.

pub mod eval;
pub mod model;
pub mod parse;
pub mod path;

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::office::xml::{parse_xml, XmlOptions};

pub use eval::{evaluate, Command, Outline, Path};
pub use model::{FillMode, GeometryDef};
pub use path::{svg_paths, PathBuilder, SubPath, P};

/// The preset definitions, in the compact form `compact_presets.py` writes from the
/// standard's file.
const PRESETS_XML: &str = include_str!("presets.xml");

/// Limits for the committed definitions: generous, as the data is ours, but still
/// bounded so a bad edit cannot make a runaway table.
const PRESET_LIMITS: parse::Limits = parse::Limits {
    guides: 1_000,
    commands: 2_000,
    paths: 32,
};

fn presets() -> &'static HashMap<Box<str>, GeometryDef> {
    static PRESETS: OnceLock<HashMap<Box<str>, GeometryDef>> = OnceLock::new();
    PRESETS.get_or_init(|| {
        let opts = XmlOptions {
            max_depth: 16,
            max_nodes: 200_000,
            understood: &[],
        };
        // The data is compiled in and checked by the tests: a parse failure here is a
        // broken build, and the renderers then draw every preset as its box.
        let Ok(doc) = parse_xml("presets.xml", PRESETS_XML.as_bytes(), &opts) else {
            return HashMap::new();
        };
        let mut map = HashMap::with_capacity(200);
        for el in doc.root().elements() {
            map.insert(el.name().into(), parse::geometry(el, PRESET_LIMITS));
        }
        map
    })
}

/// The definition of preset `name` (`rect`, `roundRect`, `gear9` …), when the standard
/// has one.
pub fn preset(name: &str) -> Option<&'static GeometryDef> {
    presets().get(name)
}

/// The names of every preset, in no particular order.
pub fn preset_names() -> impl Iterator<Item = &'static str> {
    presets().keys().map(|k| &**k)
}

/// Most adjust values read from one `a:prstGeom` (the presets have at most eight).
const MAX_ADJUST: usize = 16;

/// The document's adjust values of an `a:prstGeom` (`a:avLst/a:gd`, `fmla="val N"`), as
/// name and number; other formulas and non-finite numbers are skipped.
pub fn adjust_values(prst_geom: crate::office::xml::Element<'_>) -> Vec<(String, f64)> {
    let Some(list) = prst_geom.elements().find(|e| e.name() == "avLst") else {
        return Vec::new();
    };
    list.elements()
        .filter(|e| e.name() == "gd")
        .take(MAX_ADJUST)
        .filter_map(|gd| {
            let name = gd.attr_local("name")?;
            let v: f64 = gd
                .attr_local("fmla")?
                .trim()
                .strip_prefix("val")?
                .trim()
                .parse()
                .ok()?;
            let name_ok = name.len() <= 16 && name.bytes().all(|b| b.is_ascii_alphanumeric());
            (v.is_finite() && name_ok).then(|| (name.to_owned(), v))
        })
        .collect()
}

/// Evaluates preset `name` for a `w` × `h` shape with the document's adjust values; an
/// unknown name draws the box (`rect`).
pub fn preset_outline(name: &str, w: f64, h: f64, adjust: &[(String, f64)]) -> Outline {
    match preset(name).or_else(|| preset("rect")) {
        Some(def) => evaluate(def, w, h, adjust),
        None => box_outline(w, h),
    }
}

/// The outline of the plain box, for when no definition can be had.
fn box_outline(w: f64, h: f64) -> Outline {
    Outline {
        paths: vec![Path {
            width: 0.0,
            height: 0.0,
            fill: FillMode::Norm,
            stroke: true,
            commands: vec![
                Command::MoveTo(0.0, 0.0),
                Command::LineTo(w, 0.0),
                Command::LineTo(w, h),
                Command::LineTo(0.0, h),
                Command::Close,
            ],
        }],
        text_rect: [0.0, 0.0, w, h],
    }
}

#[cfg(test)]
mod tests;
