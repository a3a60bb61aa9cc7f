//! The theme part (`a:theme`): the colour scheme, the major/minor fonts and the format
//! scheme that style references (`p:style`, `p:bgRef`) point into.

use crate::office::xml::{Element, XmlDoc};
use crate::office::Ns;

use super::color::{slot_index, ClrMap, ColorCtx};
use super::model::Color;

/// Office's default colour scheme, used when a deck has no theme.
const DEFAULT_COLORS: [u32; 12] = [
    0x000000, 0xFFFFFF, 0x44546A, 0xE7E6E6, 0x4472C4, 0xED7D31, 0xA5A5A5, 0xFFC000, 0x5B9BD5,
    0x70AD47, 0x0563C1, 0x954F72,
];

/// Typefaces of one font collection (`a:majorFont`, `a:minorFont`).
#[derive(Debug, Clone, Default)]
pub(super) struct FontSet {
    pub(super) latin: Option<String>,
    pub(super) east_asian: Option<String>,
    pub(super) complex: Option<String>,
}

/// A parsed theme. The XML is kept for the format scheme, whose fills and lines are read
/// with the colour a style reference passes in.
#[derive(Debug)]
pub(super) struct Theme {
    pub(super) colors: [Color; 12],
    pub(super) major: FontSet,
    pub(super) minor: FontSet,
    /// The theme's part name, whose relationships name the pictures of picture style
    /// fills (a tiled wood background); `None` for the built-in default.
    pub(super) part: Option<String>,
    doc: Option<XmlDoc>,
}

impl Default for Theme {
    fn default() -> Self {
        Theme {
            colors: DEFAULT_COLORS.map(Color::rgb),
            major: FontSet {
                latin: Some("Calibri Light".to_owned()),
                ..FontSet::default()
            },
            minor: FontSet {
                latin: Some("Calibri".to_owned()),
                ..FontSet::default()
            },
            part: None,
            doc: None,
        }
    }
}

/// The twelve colours of `base` with those `scheme` (an `a:clrScheme`) sets put over them.
pub(super) fn scheme_over(base: &[Color; 12], scheme: Element<'_>) -> [Color; 12] {
    // Scheme colours are plain (srgbClr/sysClr); resolve them without a scheme.
    let plain = ColorCtx {
        scheme: base,
        map: ClrMap::default(),
        ph: None,
    };
    let mut colors = *base;
    for slot_el in scheme.elements() {
        if let Some(i) = slot_index(slot_el.name()) {
            if let Some(c) = plain.child_color(slot_el) {
                colors[i] = c;
            }
        }
    }
    colors
}

impl Theme {
    /// Reads a theme part; anything it lacks keeps Office's defaults.
    pub(super) fn from_doc(doc: XmlDoc) -> Theme {
        let mut theme = Theme::default();
        let root = doc.root();
        let elements = root.child(Ns::A, "themeElements");
        if let Some(scheme) = elements.and_then(|e| e.child(Ns::A, "clrScheme")) {
            theme.colors = scheme_over(&theme.colors, scheme);
        }
        if let Some(fonts) = elements.and_then(|e| e.child(Ns::A, "fontScheme")) {
            let set = |name: &str| {
                let f = fonts.child(Ns::A, name);
                let face = |n: &str| {
                    f.and_then(|f| f.child(Ns::A, n))
                        .and_then(|e| e.attr(Ns::None, "typeface"))
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(str::to_owned)
                };
                FontSet {
                    latin: face("latin"),
                    east_asian: face("ea"),
                    complex: face("cs"),
                }
            };
            let major = set("majorFont");
            let minor = set("minorFont");
            if major.latin.is_some() {
                theme.major = major;
            }
            if minor.latin.is_some() {
                theme.minor = minor;
            }
        }
        theme.doc = Some(doc);
        theme
    }

    /// Resolves a typeface: theme references (`+mj-lt`, `+mn-ea` …) become the theme's
    /// fonts; other names are returned as written.
    pub(super) fn typeface(&self, face: &str) -> Option<String> {
        let face = face.trim();
        if face.is_empty() {
            return None;
        }
        let Some(rest) = face.strip_prefix('+') else {
            return Some(face.to_owned());
        };
        let set = match rest.get(..2) {
            Some("mj") => &self.major,
            Some("mn") => &self.minor,
            _ => return None,
        };
        match rest.get(3..) {
            Some("ea") => set.east_asian.clone().or_else(|| set.latin.clone()),
            Some("cs") => set.complex.clone().or_else(|| set.latin.clone()),
            _ => set.latin.clone(),
        }
    }

    /// The format-scheme entry a style reference `idx` points at: fills 1–999 are
    /// `a:fillStyleLst`, 1001 and up `a:bgFillStyleLst`; lines use `a:lnStyleLst`, effects
    /// `a:effectStyleLst`.
    pub(super) fn format_style(&self, list: StyleList, idx: u32) -> Option<Element<'_>> {
        let fmt = self
            .doc
            .as_ref()?
            .root()
            .child(Ns::A, "themeElements")?
            .child(Ns::A, "fmtScheme")?;
        let (name, index) = match list {
            StyleList::Fill if idx >= 1001 => ("bgFillStyleLst", idx - 1001),
            StyleList::Fill => ("fillStyleLst", idx.checked_sub(1)?),
            StyleList::Line => ("lnStyleLst", idx.checked_sub(1)?),
            StyleList::Effect => ("effectStyleLst", idx.checked_sub(1)?),
        };
        fmt.child(Ns::A, name)?.elements().nth(index as usize)
    }
}

/// Which list of the format scheme a reference indexes.
#[derive(Debug, Clone, Copy)]
pub(super) enum StyleList {
    /// Fills (and background fills from 1001).
    Fill,
    /// Lines.
    Line,
    /// Effect styles (`a:effectStyleLst`).
    Effect,
}
