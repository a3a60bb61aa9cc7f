//! PPTX → [`Presentation`]: the presentation part, slides in `sldIdLst` order, the
//! slide → layout → master → theme chain, and the shape tree walk.
//!
//! Masters, layouts and themes are read once and shared by every slide using them. A
//! slide whose part is missing, unreadable or malformed is kept as a "missing" slide with
//! its reason, so one bad part does not hide the rest of the deck; guard breaches (bombs,
//! oversized parts or images, DTDs) refuse the whole deck, as the container guard
//! requires. The chain is followed a fixed number of steps (slide, layout, master,
//! theme), so a relationship loop cannot make the walk go round.

use crate::office::media::MediaCatalog;
use std::collections::HashMap;
use std::rc::Rc;

use crate::office::relationships::{RelTarget, Relationships};
use crate::office::smartart;
use crate::office::xml::{Element, XmlDoc};
use crate::office::{Ns, OfficeError, OfficeErrorKind, OfficeLimits, OfficePackage, OfficeResult};

use super::color::{number, ClrMap, ColorCtx};
use super::effect::{effect_list, style_effects};
use super::fill::{blip, blip_alpha, fill_in, line, style_fill, style_line};
use super::geometry::custom_geometry;
use super::model::{
    AutoShape, Color, Effects, Embedded, Fill, Frame, Geometry, Group, ImageSource, Layer, Line,
    Link, Picture, PlaceholderRef, Presentation, RunKind, Shape, ShapeKind, Slide,
};
use super::table::{default_style_doc, table, TableCtx};
use super::text::{
    has_content, overlay_list, overlay_runs, safe_name, text_body, BodyProps, Levels, RunProps,
    TextCtx,
};
use super::theme::Theme;
use crate::office::chart::parse_chart;

/// Relationship types of PresentationML, transitional spelling.
mod rel {
    pub(super) const SLIDE: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide";
    pub(super) const LAYOUT: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideLayout";
    pub(super) const MASTER: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideMaster";
    pub(super) const NOTES: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide";
    pub(super) const THEME: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/theme";
    pub(super) const TABLE_STYLES: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/tableStyles";
}

/// Namespaces whose `mc:Choice` content this parser reads: none beyond the core ones, so
/// the `mc:Fallback` branch (written for readers like this one) is taken.
const UNDERSTOOD: &[Ns] = &[];

/// Most slides read from one deck.
const MAX_SLIDES: usize = 10_000;
/// Group nesting kept as groups; deeper groups are flattened into their ancestor.
const MAX_GROUP_DEPTH: usize = 32;
/// Most shapes read from one shape tree (all levels together).
const MAX_SHAPES: usize = 50_000;
/// Coordinates are kept within ±2^40 EMU (about 30 km): absurd extents are capped.
const MAX_COORD: f64 = 1_099_511_627_776.0;
/// Slide sizes PowerPoint accepts: 1 inch to 56 inches.
const SLIDE_MIN: i64 = 914_400;
const SLIDE_MAX: i64 = 51_206_400;

/// Opens `bytes` as a presentation package and parses it.
pub fn parse_pptx(bytes: &[u8], limits: &OfficeLimits) -> OfficeResult<Presentation> {
    let package = OfficePackage::open(bytes, limits)?;
    parse_package(&package)
}

/// Parses an already opened package as a presentation.
pub fn parse_package(package: &OfficePackage<'_>) -> OfficeResult<Presentation> {
    let main = package.main_part()?;
    if let Some(ct) = &main.content_type {
        if ct.contains("wordprocessingml") || ct.contains("spreadsheetml") {
            return Err(OfficeError::new(
                OfficeErrorKind::Unsupported,
                "the package is not a presentation (its main part is a document or workbook)",
            ));
        }
    }
    let pres_doc = package.read_xml(&main.name, UNDERSTOOD)?;
    let root = pres_doc.root();
    if !root.is(Ns::P, "presentation") {
        return Err(OfficeError::new(
            OfficeErrorKind::Unsupported,
            "the package is not a presentation (its main part is not p:presentation)",
        ));
    }
    let rels = package.relationships(&main.name)?;

    let size = root.child(Ns::P, "sldSz");
    let dim = |n: &str, d: i64| {
        size.and_then(|s| s.attr(Ns::None, n))
            .and_then(number)
            .map_or(d, |v| (v as i64).clamp(SLIDE_MIN, SLIDE_MAX))
    };
    let mut pres = Presentation {
        properties: package.core_properties()?,
        has_macros: package.has_macros(),
        slide_width: dim("cx", 9_144_000),
        slide_height: dim("cy", 6_858_000),
        ..Presentation::default()
    };

    // Slide targets first, so links can jump to a slide by part name.
    let ids: Vec<Option<String>> = root
        .child(Ns::P, "sldIdLst")
        .into_iter()
        .flat_map(|l| l.children_named(Ns::P, "sldId"))
        .take(MAX_SLIDES)
        .map(|s| s.attr(Ns::R, "id").map(str::to_owned))
        .collect();
    let mut slide_numbers = HashMap::new();
    for (i, id) in ids.iter().enumerate() {
        if let Some(RelTarget::Part(p)) =
            id.as_deref().and_then(|id| rels.get(id)).map(|r| &r.target)
        {
            slide_numbers.entry(p.to_ascii_lowercase()).or_insert(i + 1);
        }
    }
    let table_styles = match rels.part_of_type(rel::TABLE_STYLES) {
        Some(p) if package.has_part(p) => tolerate(package.read_xml(p, UNDERSTOOD))?,
        _ => None,
    };
    let first_master = root
        .child(Ns::P, "sldMasterIdLst")
        .and_then(|l| l.child(Ns::P, "sldMasterId"))
        .and_then(|m| m.attr(Ns::R, "id"))
        .and_then(|id| match &rels.get(id)?.target {
            RelTarget::Part(p) => Some(p.clone()),
            _ => None,
        })
        .or_else(|| rels.part_of_type(rel::MASTER).map(str::to_owned));

    let mut parser = Parser {
        package,
        slide_numbers: Rc::new(slide_numbers),
        masters: HashMap::new(),
        layouts: HashMap::new(),
        themes: HashMap::new(),
        layer_index: HashMap::new(),
        layers: Vec::new(),
        media: MediaCatalog::default(),
        warnings: Vec::new(),
        fatal: None,
        shape_budget: MAX_SHAPES,
        builtin_table: default_style_doc(),
        base_levels: HashMap::new(),
        group_fills: Vec::new(),
    };
    let fallback_master = match first_master {
        Some(m) => parser.master(&m)?,
        None => None,
    };
    let shared = Shared {
        pres: root,
        table_styles: table_styles.as_ref().map(XmlDoc::root),
        fallback_master,
    };

    for (i, id) in ids.iter().enumerate() {
        let number = i + 1;
        let target = id.as_deref().and_then(|id| rels.get(id)).map(|r| &r.target);
        let slide = match target {
            Some(RelTarget::Part(p)) if rels_type_is(&rels, id.as_deref(), rel::SLIDE) => {
                parser.slide(&shared, number, p)?
            }
            Some(RelTarget::Part(p)) => {
                missing(number, Some(p), "the slide relationship has the wrong type")
            }
            Some(RelTarget::External(t) | RelTarget::Invalid(t)) => missing(
                number,
                None,
                &format!("the slide points outside the package ({})", printable(t)),
            ),
            None => missing(
                number,
                None,
                "the slide list names a relationship that does not exist",
            ),
        };
        if let Some(why) = &slide.missing {
            parser.warnings.push(format!("Slide {number}: {why}"));
        }
        pres.slides.push(slide);
        if let Some(e) = parser.fatal.take() {
            return Err(e);
        }
    }
    pres.layers = std::mem::take(&mut parser.layers);
    pres.media = std::mem::take(&mut parser.media).into_parts();
    pres.warnings = std::mem::take(&mut parser.warnings);
    Ok(pres)
}

/// Whether relationship `id` of `rels` has type `ty`.
fn rels_type_is(rels: &Relationships, id: Option<&str>, ty: &str) -> bool {
    id.and_then(|id| rels.get(id))
        .is_some_and(|r| r.rel_type == ty)
}

/// A slide shown as missing, with the reason.
fn missing(number: usize, part: Option<&str>, why: &str) -> Slide {
    Slide {
        number,
        part: part.map(str::to_owned),
        missing: Some(why.to_owned()),
        background: Fill::Solid {
            color: Color::rgb(0xFFFFFF),
        },
        ..Slide::default()
    }
}

/// Errors that make one part unreadable without making the deck hostile.
fn degradable(e: &OfficeError) -> bool {
    matches!(
        e.kind(),
        OfficeErrorKind::MissingPart | OfficeErrorKind::MalformedXml
    )
}

/// Turns a degradable error into `None`; guard breaches pass through.
fn tolerate<T>(r: OfficeResult<T>) -> OfficeResult<Option<T>> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(e) if degradable(&e) => Ok(None),
        Err(e) => Err(e),
    }
}

/// A name made safe to quote in a warning: control characters escaped, length capped.
fn printable(s: &str) -> String {
    let mut out: String = s.chars().take(80).flat_map(char::escape_default).collect();
    if s.chars().count() > 80 {
        out.push('…');
    }
    out
}

/// A master part, read once.
struct MasterPart {
    part: String,
    doc: XmlDoc,
    rels: Relationships,
    theme: Rc<Theme>,
    clr_map: ClrMap,
}

/// A layout part, read once.
struct LayoutPart {
    part: String,
    doc: XmlDoc,
    rels: Relationships,
    master: Option<Rc<MasterPart>>,
}

/// What every slide shares.
struct Shared<'d> {
    pres: Element<'d>,
    table_styles: Option<Element<'d>>,
    fallback_master: Option<Rc<MasterPart>>,
}

/// A part whose XML is being read, with the relationships its ids resolve against.
#[derive(Clone, Copy)]
struct PartRef<'e> {
    root: Element<'e>,
    rels: &'e Relationships,
}

/// Which part a shape tree belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Slide,
    Layout,
    Master,
}

/// Everything a shape on one slide resolves against.
struct Env<'e> {
    pres: Element<'e>,
    master: Option<PartRef<'e>>,
    layout: Option<PartRef<'e>>,
    theme: &'e Theme,
    /// Identifies the master (and so the theme) for caches; 0 without one.
    master_key: usize,
    colors: ColorCtx<'e>,
    slide_number: usize,
    table_styles: Option<Element<'e>>,
    builtin_table: Option<Element<'e>>,
}

impl Env<'_> {
    fn text_ctx(&self) -> TextCtx<'_> {
        TextCtx {
            colors: self.colors,
            theme: self.theme,
            slide_number: self.slide_number,
        }
    }
}

/// Maps child coordinates of a group to slide coordinates: `X = x·sx + tx`.
#[derive(Debug, Clone, Copy)]
struct Affine {
    sx: f64,
    sy: f64,
    tx: f64,
    ty: f64,
}

impl Affine {
    /// Coordinates relative to `frame`'s corner (a drawing part placed in a frame).
    fn at(frame: &Frame) -> Affine {
        Affine {
            tx: frame.x as f64,
            ty: frame.y as f64,
            ..Affine::IDENTITY
        }
    }

    const IDENTITY: Affine = Affine {
        sx: 1.0,
        sy: 1.0,
        tx: 0.0,
        ty: 0.0,
    };
}

/// Keeps a coordinate finite and within range.
fn coord(v: f64) -> i64 {
    if v.is_finite() {
        v.clamp(-MAX_COORD, MAX_COORD).round() as i64
    } else {
        0
    }
}

/// The raw `a:xfrm` (or `p:xfrm`) numbers.
#[derive(Debug, Clone, Copy, Default)]
struct Xfrm {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    rot: f64,
    flip_h: bool,
    flip_v: bool,
    ch: Option<(f64, f64, f64, f64)>,
}

fn read_xfrm(el: Element<'_>) -> Xfrm {
    let num = |e: Option<Element<'_>>, n: &str| {
        e.and_then(|e| e.attr(Ns::None, n))
            .and_then(number)
            .map_or(0.0, |v| v.clamp(-MAX_COORD, MAX_COORD))
    };
    let off = el.child(Ns::A, "off");
    let ext = el.child(Ns::A, "ext");
    let ch_off = el.child(Ns::A, "chOff");
    let ch_ext = el.child(Ns::A, "chExt");
    let flag = |n: &str| {
        el.attr(Ns::None, n)
            .is_some_and(|v| matches!(v, "1" | "true"))
    };
    Xfrm {
        x: num(off, "x"),
        y: num(off, "y"),
        w: num(ext, "cx").max(0.0),
        h: num(ext, "cy").max(0.0),
        rot: el
            .attr(Ns::None, "rot")
            .and_then(number)
            .map_or(0.0, |r| (r / 60_000.0).rem_euclid(360.0)),
        flip_h: flag("flipH"),
        flip_v: flag("flipV"),
        ch: (ch_off.is_some() || ch_ext.is_some()).then(|| {
            (
                num(ch_off, "x"),
                num(ch_off, "y"),
                num(ch_ext, "cx").max(0.0),
                num(ch_ext, "cy").max(0.0),
            )
        }),
    }
}

fn frame_of(x: &Xfrm, m: &Affine) -> Frame {
    let rot = if x.rot.is_finite() { x.rot } else { 0.0 };
    Frame {
        x: coord(x.x * m.sx + m.tx),
        y: coord(x.y * m.sy + m.ty),
        width: coord(x.w * m.sx).max(0),
        height: coord(x.h * m.sy).max(0),
        rotation: if rot >= 360.0 { 0.0 } else { rot },
        flip_h: x.flip_h,
        flip_v: x.flip_v,
    }
}

/// The placeholder of a shape element: (type, idx, idx given).
fn placeholder(el: Element<'_>) -> Option<(String, u32, bool)> {
    let nv = el.elements().find(|c| c.name().starts_with("nv"))?;
    let ph = nv.child(Ns::P, "nvPr")?.child(Ns::P, "ph")?;
    let kind = safe_name(ph.attr(Ns::None, "type").unwrap_or("obj"));
    let idx = ph
        .attr(Ns::None, "idx")
        .and_then(|v| v.trim().parse::<u32>().ok());
    Some((kind, idx.unwrap_or(0), idx.is_some()))
}

/// The placeholder family a type inherits from on the master.
fn master_kind(kind: &str) -> &str {
    match kind {
        "title" | "ctrTitle" => "title",
        "dt" | "ftr" | "sldNum" => kind,
        _ => "body",
    }
}

/// Finds the placeholder matching `kind`/`idx` in a layout or master shape tree.
fn find_placeholder<'e>(
    tree: Element<'e>,
    kind: &str,
    idx: u32,
    has_idx: bool,
    by_family: bool,
) -> Option<Element<'e>> {
    let phs: Vec<(Element<'e>, String, u32)> = tree
        .elements()
        .filter_map(|e| placeholder(e).map(|(k, i, _)| (e, k, i)))
        .collect();
    if !by_family {
        if has_idx && idx != 0 {
            if let Some((e, _, _)) = phs.iter().find(|(_, _, i)| *i == idx) {
                return Some(*e);
            }
        }
        if let Some((e, _, _)) = phs.iter().find(|(_, k, _)| k == kind) {
            return Some(*e);
        }
    }
    // A subtitle is its own kind on a layout: a body placeholder that has no twin there
    // (such as the "no index" idx 4294967295 converters write) takes the master's body,
    // not a title layout's right-aligned, bullet-less subtitle, as PowerPoint does.
    let family = master_kind(kind);
    let subtitle = kind == "subTitle";
    phs.iter()
        .find(|(_, k, _)| master_kind(k) == family && (by_family || (k == "subTitle") == subtitle))
        .map(|(e, _, _)| *e)
}

fn sp_tree(root: Element<'_>) -> Option<Element<'_>> {
    root.child(Ns::P, "cSld")?.child(Ns::P, "spTree")
}

fn sp_pr(el: Element<'_>) -> Option<Element<'_>> {
    pchild(el, "spPr")
}

/// A `p:` child, or its SmartArt drawing twin (`dsp:`, a namespace read as "other").
fn pchild<'e>(el: Element<'e>, name: &str) -> Option<Element<'e>> {
    el.elements()
        .find(|c| c.name() == name && matches!(c.ns(), Ns::P | Ns::Other))
}

/// Parser state for one deck.
struct Parser<'p, 'a> {
    package: &'p OfficePackage<'a>,
    /// Slide part (folded) → slide number, for jump links.
    slide_numbers: Rc<HashMap<String, usize>>,
    masters: HashMap<String, Option<Rc<MasterPart>>>,
    layouts: HashMap<String, Option<Rc<LayoutPart>>>,
    themes: HashMap<String, Rc<Theme>>,
    layer_index: HashMap<(String, ClrMap), usize>,
    layers: Vec<Layer>,
    media: MediaCatalog,
    warnings: Vec<String>,
    /// A guard breach met deep inside the walk (an image over the pixel cap); the deck is
    /// refused once the current slide is done.
    fatal: Option<OfficeError>,
    /// Shapes still allowed in the current tree.
    shape_budget: usize,
    builtin_table: Option<XmlDoc>,
    /// Fills of the groups around the shape being read, for `a:grpFill`.
    group_fills: Vec<Fill>,
    /// Base text levels by (master, text style, colour map).
    base_levels: HashMap<(usize, &'static str, ClrMap), Rc<Levels>>,
}

impl Parser<'_, '_> {
    // ----- parts ---------------------------------------------------------------------

    fn warn(&mut self, w: String) {
        if self.warnings.len() < 200 && !self.warnings.contains(&w) {
            self.warnings.push(w);
        }
    }

    /// A part's relationships; a damaged relationships part counts as none (with a
    /// warning), so the part still shows what needs no relationship.
    fn rels_of(&mut self, part: &str) -> OfficeResult<Relationships> {
        match tolerate(self.package.relationships(part))? {
            Some(r) => Ok(r),
            None => {
                self.warn(format!(
                    "The relationships of {} are unreadable",
                    printable(part)
                ));
                Ok(Relationships::default())
            }
        }
    }

    fn theme(&mut self, part: Option<&str>) -> OfficeResult<Rc<Theme>> {
        let Some(part) = part.filter(|p| self.package.has_part(p)) else {
            return Ok(Rc::new(Theme::default()));
        };
        if let Some(t) = self.themes.get(part) {
            return Ok(t.clone());
        }
        let theme = match tolerate(self.package.read_xml(part, UNDERSTOOD))? {
            Some(doc) if doc.root().is(Ns::A, "theme") => {
                let mut theme = Theme::from_doc(doc);
                theme.part = Some(part.to_owned());
                theme
            }
            _ => {
                self.warn(format!("The theme {} is unreadable", printable(part)));
                Theme::default()
            }
        };
        let theme = Rc::new(theme);
        self.themes.insert(part.to_owned(), theme.clone());
        Ok(theme)
    }

    /// Part `part` as XML; `None` when it is absent or unreadable in a way a deck survives.
    fn read_if_present(&self, part: &str) -> OfficeResult<Option<XmlDoc>> {
        if self.package.has_part(part) {
            tolerate(self.package.read_xml(part, UNDERSTOOD))
        } else {
            Ok(None)
        }
    }

    fn master(&mut self, part: &str) -> OfficeResult<Option<Rc<MasterPart>>> {
        if let Some(m) = self.masters.get(part) {
            return Ok(m.clone());
        }
        // Mark as in progress so a loop back here finds "no master".
        self.masters.insert(part.to_owned(), None);
        let doc = self.read_if_present(part)?;
        let master = match doc {
            Some(doc) if doc.root().is(Ns::P, "sldMaster") => {
                let rels = self.rels_of(part)?;
                let theme = self.theme(rels.part_of_type(rel::THEME))?;
                let clr_map = doc
                    .root()
                    .child(Ns::P, "clrMap")
                    .map_or_else(ClrMap::default, |m| ClrMap::from_xml(m, ClrMap::default()));
                Some(Rc::new(MasterPart {
                    part: part.to_owned(),
                    doc,
                    rels,
                    theme,
                    clr_map,
                }))
            }
            _ => {
                self.warn(format!(
                    "The slide master {} is missing or unreadable",
                    printable(part)
                ));
                None
            }
        };
        self.masters.insert(part.to_owned(), master.clone());
        Ok(master)
    }

    fn layout(&mut self, part: &str) -> OfficeResult<Option<Rc<LayoutPart>>> {
        if let Some(l) = self.layouts.get(part) {
            return Ok(l.clone());
        }
        self.layouts.insert(part.to_owned(), None);
        let doc = self.read_if_present(part)?;
        let layout = match doc {
            Some(doc) if doc.root().is(Ns::P, "sldLayout") => {
                let rels = self.rels_of(part)?;
                let master = match rels.part_of_type(rel::MASTER).map(str::to_owned) {
                    Some(m) => self.master(&m)?,
                    None => None,
                };
                Some(Rc::new(LayoutPart {
                    part: part.to_owned(),
                    doc,
                    rels,
                    master,
                }))
            }
            _ => {
                self.warn(format!(
                    "The slide layout {} is missing or unreadable",
                    printable(part)
                ));
                None
            }
        };
        self.layouts.insert(part.to_owned(), layout.clone());
        Ok(layout)
    }

    /// Records a media part once, with what its header says. An image over the pixel cap
    /// refuses the deck (the error is stashed and raised after the slide).
    fn register_media(&mut self, part: &str) {
        if let Err(e) = self.media.register(self.package, part, degradable) {
            self.fatal.get_or_insert(e);
        }
    }

    /// The theme fill a style reference (`a:fillRef`, `p:bgRef`) points at; its pictures
    /// are the theme part's relationships.
    fn style_fill(&mut self, reference: Element<'_>, env: &Env<'_>) -> Option<Fill> {
        let rels = match env.theme.part.as_deref() {
            Some(part) => self.rels_of(part).unwrap_or_default(),
            None => Relationships::default(),
        };
        let mut images = |id: &str| self.image(&rels, id);
        style_fill(reference, env.theme, &env.colors, &mut images)
    }

    /// The theme override of chart part `part` (`a:themeOverride`): its colour scheme over
    /// `base` and its Latin theme fonts; `None` when it has none or it is unreadable (the
    /// deck's theme stands).
    fn chart_override(&mut self, part: &str, base: &[Color; 12]) -> Option<ChartOverride> {
        let rels = self.rels_of(part).ok()?;
        let target = rels.part_of_type(crate::office::ns::rel_type::THEME_OVERRIDE)?;
        let name = self.package.canonical_name(target)?.to_owned();
        let doc = self.package.read_xml(&name, UNDERSTOOD).ok()?;
        let root = doc.root();
        let font = |which: &str| {
            root.child(Ns::A, "fontScheme")?
                .child(Ns::A, which)?
                .child(Ns::A, "latin")?
                .attr(Ns::None, "typeface")
                .map(str::trim)
                .filter(|f| !f.is_empty())
                .map(str::to_owned)
        };
        Some(ChartOverride {
            colors: root
                .child(Ns::A, "clrScheme")
                .map(|scheme| super::theme::scheme_over(base, scheme)),
            major: font("majorFont"),
            minor: font("minorFont"),
        })
    }

    /// An image relationship of a part: a media part (sniffed once), a link, or missing.
    fn image(&mut self, rels: &Relationships, id: &str) -> ImageSource {
        let Some(r) = rels.get(id) else {
            return ImageSource::Missing {
                target: id.to_owned(),
            };
        };
        match &r.target {
            RelTarget::External(url) => ImageSource::External { url: url.clone() },
            RelTarget::Invalid(t) => ImageSource::Missing { target: t.clone() },
            RelTarget::Part(p) => match self.package.canonical_name(p).map(str::to_owned) {
                Some(name) => {
                    self.register_media(&name);
                    ImageSource::Part { part: name }
                }
                None => ImageSource::Missing { target: p.clone() },
            },
        }
    }

    /// The preview picture of a PowerPoint 2007 OLE object, which sits in the slide's VML
    /// drawing part: the `v:shape` whose id is the object's `spid`. `None` when that part
    /// is missing or unreadable (the object keeps its label).
    fn ole_vml_preview(&mut self, rels: &Relationships, spid: &str) -> Option<ImageSource> {
        const VML: &str =
            "http://schemas.openxmlformats.org/officeDocument/2006/relationships/vmlDrawing";
        let part = self
            .package
            .canonical_name(rels.part_of_type(VML)?)?
            .to_owned();
        let doc = self.package.read_xml(&part, UNDERSTOOD).ok()?;
        let shape = doc.root().descendants().find(|e| {
            e.is(Ns::V, "shape")
                && (e.attr(Ns::None, "id") == Some(spid) || e.attr(Ns::O, "spid") == Some(spid))
        })?;
        let data = shape.descendants().find(|e| e.is(Ns::V, "imagedata"))?;
        let id = data
            .attr(Ns::O, "relid")
            .or_else(|| data.attr(Ns::R, "id"))?;
        let vml_rels = self.package.relationships(&part).ok()?;
        Some(self.image(&vml_rels, id))
    }

    // ----- slides --------------------------------------------------------------------

    fn slide(&mut self, shared: &Shared<'_>, number: usize, part: &str) -> OfficeResult<Slide> {
        let Some(part) = self.package.canonical_name(part).map(str::to_owned) else {
            return Ok(missing(
                number,
                Some(part),
                "the slide part is missing from the package",
            ));
        };
        let doc = match self.package.read_xml(&part, UNDERSTOOD) {
            Ok(d) => d,
            Err(e) if degradable(&e) => {
                return Ok(missing(number, Some(&part), e.reason()));
            }
            Err(e) => return Err(e),
        };
        let root = doc.root();
        if !root.is(Ns::P, "sld") {
            return Ok(missing(
                number,
                Some(&part),
                "the slide part is not a slide",
            ));
        }
        let rels = self.rels_of(&part)?;
        let layout = match rels.part_of_type(rel::LAYOUT).map(str::to_owned) {
            Some(l) => self.layout(&l)?,
            None => None,
        };
        if layout.is_none() {
            self.warn(format!(
                "Slide {number} has no readable layout; shown without one"
            ));
        }
        let master = layout
            .as_ref()
            .and_then(|l| l.master.clone())
            .or_else(|| shared.fallback_master.clone());
        let theme = match &master {
            Some(m) => m.theme.clone(),
            None => Rc::new(Theme::default()),
        };

        // Colour map: master, then the layout's override, then the slide's.
        let mut clr_map = master.as_ref().map_or_else(ClrMap::default, |m| m.clr_map);
        for over in [layout.as_ref().map(|l| l.doc.root()), Some(root)]
            .into_iter()
            .flatten()
        {
            if let Some(o) = over
                .child(Ns::P, "clrMapOvr")
                .and_then(|c| c.child(Ns::A, "overrideClrMapping"))
            {
                clr_map = ClrMap::from_xml(o, clr_map);
            }
        }

        let builtin = self.builtin_table.take();
        let env = Env {
            pres: shared.pres,
            master: master.as_ref().map(|m| PartRef {
                root: m.doc.root(),
                rels: &m.rels,
            }),
            layout: layout.as_ref().map(|l| PartRef {
                root: l.doc.root(),
                rels: &l.rels,
            }),
            theme: &theme,
            master_key: master.as_ref().map_or(0, |m| Rc::as_ptr(m) as usize),
            colors: ColorCtx {
                scheme: &theme.colors,
                map: clr_map,
                ph: None,
            },
            slide_number: number,
            table_styles: shared.table_styles,
            builtin_table: builtin.as_ref().map(XmlDoc::root),
        };
        let own = PartRef { root, rels: &rels };

        let background = self.background(&env, own);
        let show_master = |r: Element<'_>| r.attr(Ns::None, "showMasterSp") != Some("0");
        let layer = match (&layout, show_master(root)) {
            (Some(l), true) => Some(self.layer(&env, l, clr_map)),
            _ => None,
        };
        self.shape_budget = MAX_SHAPES;
        let shapes = match sp_tree(root) {
            Some(tree) => self.shapes(&env, own, Level::Slide, tree, &Affine::IDENTITY, 0),
            None => Vec::new(),
        };
        let notes = match rels.part_of_type(rel::NOTES).map(str::to_owned) {
            Some(n) => self.notes(&n)?,
            None => Vec::new(),
        };
        self.builtin_table = builtin;
        Ok(Slide {
            number,
            part: Some(part),
            missing: None,
            hidden: root
                .attr(Ns::None, "show")
                .is_some_and(|v| matches!(v, "0" | "false")),
            name: root
                .child(Ns::P, "cSld")
                .and_then(|c| c.attr(Ns::None, "name"))
                .map(str::to_owned)
                .filter(|n| !n.is_empty()),
            layout_name: layout.as_ref().and_then(|l| {
                l.doc
                    .root()
                    .child(Ns::P, "cSld")
                    .and_then(|c| c.attr(Ns::None, "name"))
                    .map(str::to_owned)
            }),
            layer,
            background,
            shapes,
            notes,
        })
    }

    /// The background: the slide's own, else its layout's, else its master's; white when
    /// none says anything.
    fn background(&mut self, env: &Env<'_>, own: PartRef<'_>) -> Fill {
        for part in [Some(own), env.layout, env.master].into_iter().flatten() {
            let Some(bg) = part
                .root
                .child(Ns::P, "cSld")
                .and_then(|c| c.child(Ns::P, "bg"))
            else {
                continue;
            };
            if let Some(pr) = bg.child(Ns::P, "bgPr") {
                let rels = part.rels;
                let mut images = |id: &str| self.image(rels, id);
                if let Some(f) = fill_in(pr, &env.colors, &mut images, None) {
                    return f;
                }
            }
            if let Some(r) = bg.child(Ns::P, "bgRef") {
                if let Some(f) = self.style_fill(r, env) {
                    return f;
                }
            }
        }
        Fill::Solid {
            color: env
                .colors
                .scheme_color("bg1")
                .unwrap_or(Color::rgb(0xFFFFFF)),
        }
    }

    /// The shared layer of master and layout shapes for a layout under a colour map.
    fn layer(&mut self, env: &Env<'_>, layout: &LayoutPart, map: ClrMap) -> usize {
        let key = (layout.part.clone(), map);
        if let Some(&i) = self.layer_index.get(&key) {
            return i;
        }
        let mut shapes = Vec::new();
        self.shape_budget = MAX_SHAPES;
        let layout_ref = PartRef {
            root: layout.doc.root(),
            rels: &layout.rels,
        };
        if layout.doc.root().attr(Ns::None, "showMasterSp") != Some("0") {
            if let Some(m) = env.master {
                if let Some(tree) = sp_tree(m.root) {
                    shapes.extend(self.shapes(env, m, Level::Master, tree, &Affine::IDENTITY, 0));
                }
            }
        }
        if let Some(tree) = sp_tree(layout_ref.root) {
            shapes.extend(self.shapes(env, layout_ref, Level::Layout, tree, &Affine::IDENTITY, 0));
        }
        let i = self.layers.len();
        // A slide-number field drawn by the master or layout (not a placeholder) shows
        // each slide's own number: such a layer is built for every slide, not shared.
        let shared = !shows_slide_number(&shapes);
        self.layers.push(Layer {
            layout: layout.part.clone(),
            master: layout.master.as_ref().map(|m| m.part.clone()),
            shapes,
        });
        if shared {
            self.layer_index.insert(key, i);
        }
        i
    }

    /// Speaker notes: the paragraphs of the notes page's body placeholder.
    fn notes(&mut self, part: &str) -> OfficeResult<Vec<String>> {
        if !self.package.has_part(part) {
            self.warn(format!("The notes part {} is missing", printable(part)));
            return Ok(Vec::new());
        }
        let Some(doc) = tolerate(self.package.read_xml(part, UNDERSTOOD))? else {
            self.warn(format!("The notes part {} is unreadable", printable(part)));
            return Ok(Vec::new());
        };
        let Some(tree) = sp_tree(doc.root()) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for sp in tree.descendants().filter(|e| e.is(Ns::P, "sp")) {
            if placeholder(sp).is_none_or(|(k, _, _)| k != "body") {
                continue;
            }
            let Some(tx) = sp.child(Ns::P, "txBody") else {
                continue;
            };
            for p in tx.children_named(Ns::A, "p") {
                let mut s = String::new();
                for e in p.descendants() {
                    if e.is(Ns::A, "t") {
                        s.push_str(&e.text());
                    } else if e.is(Ns::A, "br") {
                        s.push('\n');
                    }
                }
                out.push(s);
            }
        }
        while out.last().is_some_and(|s| s.trim().is_empty()) {
            out.pop();
        }
        Ok(out)
    }

    // ----- shapes --------------------------------------------------------------------

    /// Walks a shape tree (`p:spTree` or a group's children).
    fn shapes(
        &mut self,
        env: &Env<'_>,
        own: PartRef<'_>,
        level: Level,
        tree: Element<'_>,
        m: &Affine,
        depth: usize,
    ) -> Vec<Shape> {
        let mut out = Vec::new();
        for el in tree.elements() {
            if el.ns() != Ns::P {
                continue;
            }
            if self.shape_budget == 0 {
                self.warn("A shape tree has too many shapes; the rest are not shown".to_owned());
                break;
            }
            // Placeholders of layouts and masters only lend position and style.
            if level != Level::Slide && placeholder(el).is_some() {
                continue;
            }
            self.shape_budget -= 1;
            match el.name() {
                "sp" | "cxnSp" => out.push(self.auto_shape(env, own, level, el, m)),
                "pic" => out.push(self.picture(env, own, level, el, m)),
                "graphicFrame" => out.push(self.graphic_frame(env, own, level, el, m)),
                "grpSp" => {
                    let xfrm = el
                        .child(Ns::P, "grpSpPr")
                        .and_then(|p| p.child(Ns::A, "xfrm"))
                        .map(read_xfrm)
                        .unwrap_or_default();
                    let frame = frame_of(&xfrm, m);
                    let (cx, cy, cw, ch) = xfrm.ch.unwrap_or((xfrm.x, xfrm.y, xfrm.w, xfrm.h));
                    let kx = if cw > 0.0 { xfrm.w / cw } else { 1.0 };
                    let ky = if ch > 0.0 { xfrm.h / ch } else { 1.0 };
                    let child = Affine {
                        sx: m.sx * kx,
                        sy: m.sy * ky,
                        tx: (xfrm.x - cx * kx) * m.sx + m.tx,
                        ty: (xfrm.y - cy * ky) * m.sy + m.ty,
                    };
                    // Children filled with `a:grpFill` take the group's fill.
                    let inherited = self.group_fills.last().cloned();
                    let group_fill = el
                        .child(Ns::P, "grpSpPr")
                        .and_then(|pr| {
                            let rels = own.rels;
                            let mut images = |id: &str| self.image(rels, id);
                            fill_in(pr, &env.colors, &mut images, inherited.as_ref())
                        })
                        .or(inherited)
                        .unwrap_or_default();
                    self.group_fills.push(group_fill);
                    let children = self.shapes(env, own, level, el, &child, depth + 1);
                    self.group_fills.pop();
                    if depth >= MAX_GROUP_DEPTH {
                        // Too deep to nest further: keep the children, drop the group.
                        out.extend(children);
                        continue;
                    }
                    let group =
                        self.make_shape(own, el, frame, None, ShapeKind::Group(Group { children }));
                    out.push(group);
                }
                // Ink, the tree's own properties and extensions hold no shapes.
                "contentPart" | "nvGrpSpPr" | "grpSpPr" | "extLst" => {}
                _ => {
                    // Unknown wrappers may still hold shapes.
                    let inner = self.shapes(env, own, level, el, m, depth + 1);
                    out.extend(inner);
                }
            }
        }
        out
    }

    /// A shape with the id, name, alt text, hidden flag and click link of its `cNvPr`.
    fn make_shape(
        &self,
        own: PartRef<'_>,
        el: Element<'_>,
        frame: Frame,
        placeholder: Option<PlaceholderRef>,
        kind: ShapeKind,
    ) -> Shape {
        let c_nv = el
            .elements()
            .find(|c| c.name().starts_with("nv"))
            .and_then(|nv| pchild(nv, "cNvPr"));
        let attr = |n: &str| c_nv.and_then(|c| c.attr(Ns::None, n));
        let alt = ["descr", "title"]
            .iter()
            .find_map(|n| attr(n))
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned);
        Shape {
            id: attr("id").and_then(|v| v.trim().parse().ok()).unwrap_or(0),
            name: attr("name").unwrap_or("").chars().take(200).collect(),
            alt,
            hidden: attr("hidden").is_some_and(|v| matches!(v, "1" | "true")),
            frame,
            placeholder,
            link: c_nv
                .and_then(|c| c.child(Ns::A, "hlinkClick"))
                .and_then(|h| link_with(&self.slide_numbers, own.rels, h)),
            effects: Effects::default(),
            kind,
        }
    }

    /// Effects through the chain: the nearest `spPr` with an `a:effectLst` (an empty one
    /// removes them), else the nearest `p:style/a:effectRef`.
    fn effects(env: &Env<'_>, chain: &[Element<'_>]) -> Effects {
        if let Some(lst) = chain
            .iter()
            .rev()
            .find_map(|e| sp_pr(*e).and_then(|p| p.child(Ns::A, "effectLst")))
        {
            return effect_list(lst, &env.colors);
        }
        chain
            .iter()
            .rev()
            .find_map(|e| pchild(*e, "style"))
            .and_then(|s| s.child(Ns::A, "effectRef"))
            .map(|r| style_effects(r, env.theme, &env.colors))
            .unwrap_or_default()
    }

    /// The chain of elements a slide shape inherits from: master placeholder, layout
    /// placeholder, then the shape itself (lowest first).
    fn chain<'e>(
        &self,
        env: &Env<'e>,
        level: Level,
        el: Element<'e>,
    ) -> (Vec<Element<'e>>, Option<PlaceholderRef>) {
        let Some((kind, idx, has_idx)) = placeholder(el) else {
            return (vec![el], None);
        };
        let mut chain = Vec::with_capacity(3);
        if level == Level::Slide {
            let layout_ph = env
                .layout
                .and_then(|l| sp_tree(l.root))
                .and_then(|t| find_placeholder(t, &kind, idx, has_idx, false));
            let master_kind_of = layout_ph
                .and_then(placeholder)
                .map_or_else(|| kind.clone(), |(k, _, _)| k);
            let master_ph = env
                .master
                .and_then(|m| sp_tree(m.root))
                .and_then(|t| find_placeholder(t, &master_kind_of, 0, false, true));
            chain.extend(master_ph);
            chain.extend(layout_ph);
        }
        chain.push(el);
        (chain, Some(PlaceholderRef { kind, idx }))
    }

    /// The frame of the nearest element in the chain with a transform. A placeholder
    /// that inherits its position takes the layout's slide coordinates as they are.
    fn frame_from_chain(chain: &[Element<'_>], m: &Affine) -> Frame {
        fn xfrm_of<'e>(e: &Element<'e>) -> Option<Element<'e>> {
            e.child(Ns::P, "xfrm")
                .or_else(|| sp_pr(*e).and_then(|s| s.child(Ns::A, "xfrm")))
        }
        let last = chain.len().saturating_sub(1);
        match chain
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, e)| Some((i, xfrm_of(e)?)))
        {
            Some((i, x)) if i == last => frame_of(&read_xfrm(x), m),
            Some((_, x)) => frame_of(&read_xfrm(x), &Affine::IDENTITY),
            None => frame_of(&Xfrm::default(), m),
        }
    }

    fn auto_shape(
        &mut self,
        env: &Env<'_>,
        own: PartRef<'_>,
        level: Level,
        el: Element<'_>,
        m: &Affine,
    ) -> Shape {
        let (chain, ph) = self.chain(env, level, el);
        let frame = Self::frame_from_chain(&chain, m);
        let connector = el.name() == "cxnSp";
        let geometry = geometry_of(&chain, &frame);
        let (fill, line) = self.fill_and_line(env, own, &chain);
        let text = if connector {
            None
        } else {
            pchild(el, "txBody")
                .map(|tx| self.text(env, own, &chain, ph.as_ref(), tx))
                .filter(|t| !t.paragraphs.is_empty())
        };
        let kind = ShapeKind::Shape(AutoShape {
            geometry,
            fill,
            line,
            text,
            connector,
        });
        let mut shape = self.make_shape(own, el, frame, ph, kind);
        shape.effects = Self::effects(env, &chain);
        shape
    }

    /// Fill and outline through the chain: the nearest `spPr` that names one, else the
    /// nearest `p:style` reference; outlines lay `a:ln` attributes over the style's.
    fn fill_and_line(
        &mut self,
        env: &Env<'_>,
        own: PartRef<'_>,
        chain: &[Element<'_>],
    ) -> (Fill, Option<Line>) {
        let style = chain.iter().rev().find_map(|e| pchild(*e, "style"));
        let group = self.group_fills.last().cloned();
        let mut fill = None;
        for (i, e) in chain.iter().enumerate().rev() {
            let Some(pr) = sp_pr(*e) else { continue };
            // Only the shape's own part resolves its picture fills.
            let rels = own.rels;
            let own_level = i + 1 == chain.len();
            let mut images = |id: &str| {
                if own_level {
                    self.image(rels, id)
                } else {
                    ImageSource::Missing {
                        target: id.to_owned(),
                    }
                }
            };
            if let Some(f) = fill_in(pr, &env.colors, &mut images, group.as_ref()) {
                fill = Some(f);
                break;
            }
        }
        let fill = fill
            .or_else(|| {
                style
                    .and_then(|s| s.child(Ns::A, "fillRef"))
                    .and_then(|r| self.style_fill(r, env))
            })
            .unwrap_or_default();
        let mut line_out = style
            .and_then(|s| s.child(Ns::A, "lnRef"))
            .and_then(|r| style_line(r, env.theme, &env.colors));
        for e in chain {
            if let Some(ln) = sp_pr(*e).and_then(|p| p.child(Ns::A, "ln")) {
                line_out = line(ln, &env.colors, line_out.take());
            }
        }
        (fill, line_out)
    }

    /// The presentation's default text style under the master's title, body or other
    /// style (`"none"` for shapes that are not placeholders), read once per master and
    /// colour map.
    fn base_levels(&mut self, env: &Env<'_>, style: &'static str) -> Rc<Levels> {
        let key = (env.master_key, style, env.colors.map);
        if let Some(l) = self.base_levels.get(&key) {
            return l.clone();
        }
        let mut levels: Levels = Default::default();
        if let Some(d) = env.pres.child(Ns::P, "defaultTextStyle") {
            overlay_list(&mut levels, d, &env.colors);
        }
        if style != "none" {
            if let Some(s) = env
                .master
                .and_then(|m| m.root.child(Ns::P, "txStyles"))
                .and_then(|t| t.child(Ns::P, style))
            {
                overlay_list(&mut levels, s, &env.colors);
            }
        }
        let levels = Rc::new(levels);
        self.base_levels.insert(key, levels.clone());
        levels
    }

    fn text(
        &mut self,
        env: &Env<'_>,
        own: PartRef<'_>,
        chain: &[Element<'_>],
        ph: Option<&PlaceholderRef>,
        tx: Element<'_>,
    ) -> super::model::TextBody {
        let colors = &env.colors;
        let style = match ph.map(|p| master_kind(&p.kind)) {
            Some("title") => "titleStyle",
            Some("body") => "bodyStyle",
            Some(_) => "otherStyle",
            None => "none",
        };
        let base = self.base_levels(env, style);
        // The shape style's font reference sets colour and font for unstyled text.
        let font_ref = chain
            .iter()
            .rev()
            .find_map(|e| pchild(*e, "style"))
            .and_then(|s| s.child(Ns::A, "fontRef"));
        let mut body = BodyProps::default();
        let mut lists = Vec::new();
        for e in chain {
            let tx_el = pchild(*e, "txBody");
            let list = tx_el.and_then(|t| t.child(Ns::A, "lstStyle"));
            if has_content(list) {
                lists.extend(list);
            }
            if let Some(b) = tx_el.and_then(|t| t.child(Ns::A, "bodyPr")) {
                body.overlay(b);
            }
        }
        let owned;
        let levels: &Levels = if font_ref.is_none() && lists.is_empty() {
            &base
        } else {
            let mut l = (*base).clone();
            if let Some(font_ref) = font_ref {
                let mut run = RunProps::default();
                run.color = colors.child_color(font_ref);
                run.latin = match font_ref.attr(Ns::None, "idx") {
                    Some("major") => Some("+mj-lt".to_owned()),
                    Some("minor") => Some("+mn-lt".to_owned()),
                    _ => None,
                };
                overlay_runs(&mut l, &run);
            }
            for list in lists {
                overlay_list(&mut l, list, colors);
            }
            owned = l;
            &owned
        };
        let numbers = self.slide_numbers.clone();
        let mut links = |h: Element<'_>| link_with(&numbers, own.rels, h);
        text_body(tx, levels, None, &body, &env.text_ctx(), &mut links)
    }

    fn picture(
        &mut self,
        env: &Env<'_>,
        own: PartRef<'_>,
        level: Level,
        el: Element<'_>,
        m: &Affine,
    ) -> Shape {
        let (chain, ph) = self.chain(env, level, el);
        let frame = Self::frame_from_chain(&chain, m);
        let (source, crop, alpha) = match el.child(Ns::P, "blipFill") {
            Some(b) => {
                let rels = own.rels;
                let mut images = |id: &str| self.image(rels, id);
                let (source, crop) = blip(b, &mut images);
                (source, crop, blip_alpha(b))
            }
            None => (
                ImageSource::Missing {
                    target: String::new(),
                },
                Default::default(),
                None,
            ),
        };
        let geometry = geometry_of(&chain, &frame);
        let (fill, line) = self.fill_and_line(env, own, &chain);
        let kind = ShapeKind::Picture(Picture {
            source,
            crop,
            alpha,
            geometry,
            fill,
            line,
        });
        let mut shape = self.make_shape(own, el, frame, ph, kind);
        shape.effects = Self::effects(env, &chain);
        shape
    }

    fn graphic_frame(
        &mut self,
        env: &Env<'_>,
        own: PartRef<'_>,
        level: Level,
        el: Element<'_>,
        m: &Affine,
    ) -> Shape {
        let (chain, ph) = self.chain(env, level, el);
        let frame = Self::frame_from_chain(&chain, m);
        let name = el
            .elements()
            .find(|c| c.name().starts_with("nv"))
            .and_then(|nv| nv.child(Ns::P, "cNvPr"))
            .and_then(|c| c.attr(Ns::None, "name"))
            .unwrap_or("")
            .to_owned();
        let data = el
            .child(Ns::A, "graphic")
            .and_then(|g| g.child(Ns::A, "graphicData"));
        let kind = match data {
            Some(d) => self.graphic_data(env, own, d, &name, &frame),
            None => ShapeKind::Embedded(Embedded {
                kind: "unknown".to_owned(),
                label: "Object".to_owned(),
                preview: None,
            }),
        };
        self.make_shape(own, el, frame, ph, kind)
    }

    fn graphic_data(
        &mut self,
        env: &Env<'_>,
        own: PartRef<'_>,
        data: Element<'_>,
        name: &str,
        frame: &Frame,
    ) -> ShapeKind {
        if let Some(tbl) = data.child(Ns::A, "tbl") {
            let levels = self.base_levels(env, "none");
            let text_ctx = env.text_ctx();
            let ctx = TableCtx {
                text: &text_ctx,
                styles: env.table_styles,
                builtin: env.builtin_table,
                levels: &levels,
            };
            let rels = own.rels;
            let numbers = self.slide_numbers.clone();
            let mut links = |h: Element<'_>| link_with(&numbers, rels, h);
            let mut images = |id: &str| self.image(rels, id);
            let t = table(tbl, &ctx, &mut images, &mut links);
            return ShapeKind::Table(t);
        }
        if let Some(c) = data.child(Ns::C, "chart") {
            let target = c
                .attr(Ns::R, "id")
                .and_then(|id| own.rels.get(id))
                .and_then(|r| match &r.target {
                    RelTarget::Part(p) => Some(p.clone()),
                    _ => None,
                });
            let doc = match &target {
                Some(p) if self.package.has_part(p) => {
                    match tolerate(self.package.read_xml(p, UNDERSTOOD)) {
                        Ok(d) => d,
                        Err(e) => {
                            self.fatal.get_or_insert(e);
                            None
                        }
                    }
                }
                _ => None,
            };
            // A chart copied from another deck or workbook keeps that file's colours in a
            // theme override part; its scheme replaces the deck's for this chart.
            let over = target
                .as_deref()
                .filter(|_| doc.is_some())
                .and_then(|p| self.chart_override(p, env.colors.scheme))
                .unwrap_or_default();
            let colors = match &over.colors {
                Some(s) => ColorCtx {
                    scheme: s,
                    ..env.colors
                },
                None => env.colors,
            };
            let mut ch = match &doc {
                Some(d) => parse_chart(d.root(), &colors),
                None => super::model::Chart::empty(),
            };
            if doc.is_none() {
                self.warn(format!("The chart \"{}\" is missing", printable(name)));
            }
            // Theme font references resolve against the override's fonts, then the deck's.
            let face = match ch.font.get(..3) {
                Some("+mn") => over.minor.clone(),
                Some("+mj") => over.major.clone(),
                _ => None,
            };
            ch.font = face
                .or_else(|| env.theme.typeface(&ch.font))
                .unwrap_or_default();
            let drawn_over = match (&doc, &target) {
                (Some(d), Some(p)) => self.chart_user_shapes(env, p, d.root(), frame),
                _ => Vec::new(),
            };
            ch.part = target;
            if drawn_over.is_empty() {
                return ShapeKind::Chart(ch);
            }
            // The chart and the shapes its author drew over it, as one group.
            let mut children = vec![Shape {
                id: 0,
                name: name.to_owned(),
                alt: None,
                hidden: false,
                frame: *frame,
                placeholder: None,
                link: None,
                effects: Default::default(),
                kind: ShapeKind::Chart(ch),
            }];
            children.extend(drawn_over);
            return ShapeKind::Group(Group { children });
        }
        if let Some(ids) = data.child(Ns::Dgm, "relIds") {
            return self.diagram(env, own, ids, frame);
        }
        // OLE objects carry a preview picture (`p:oleObj/p:pic`, or an image id).
        if let Some(ole) = data.descendants().find(|e| e.is(Ns::P, "oleObj")) {
            let prog = ole.attr(Ns::None, "progId").map(|p| {
                p.chars()
                    .filter(|c| !c.is_control())
                    .take(60)
                    .collect::<String>()
            });
            let preview = ole
                .descendants()
                .find(|e| e.is(Ns::P, "blipFill"))
                .map(|b| {
                    let rels = own.rels;
                    let mut images = |id: &str| self.image(rels, id);
                    blip(b, &mut images).0
                })
                .or_else(|| self.ole_vml_preview(own.rels, ole.attr(Ns::None, "spid")?));
            return ShapeKind::Embedded(Embedded {
                kind: "oleObject".to_owned(),
                label: match prog {
                    Some(p) if !p.is_empty() => format!("Embedded object ({p})"),
                    _ => "Embedded object".to_owned(),
                },
                preview,
            });
        }
        ShapeKind::Embedded(Embedded {
            kind: "unknown".to_owned(),
            label: "Object".to_owned(),
            preview: None,
        })
    }

    /// SmartArt: the shapes PowerPoint saved in the diagram's drawing part, else a
    /// labelled box listing the text of its data part.
    fn diagram(
        &mut self,
        env: &Env<'_>,
        own: PartRef<'_>,
        ids: Element<'_>,
        frame: &Frame,
    ) -> ShapeKind {
        let part_of = |id: Option<&str>| {
            id.and_then(|id| own.rels.get(id))
                .and_then(|r| match &r.target {
                    RelTarget::Part(p) => Some(p.clone()),
                    _ => None,
                })
        };
        let data_part = part_of(ids.attr(Ns::R, "dm")).filter(|p| self.package.has_part(p));
        let data =
            data_part
                .as_ref()
                .and_then(|p| match tolerate(self.package.read_xml(p, UNDERSTOOD)) {
                    Ok(d) => d,
                    Err(e) => {
                        self.fatal.get_or_insert(e);
                        None
                    }
                });
        let Some(data) = data else {
            return ShapeKind::Embedded(Embedded {
                kind: "diagram".to_owned(),
                label: "Diagram (SmartArt)".to_owned(),
                preview: None,
            });
        };
        // The data part names the drawing through a slide relationship.
        let drawing = smartart::drawing_part(
            data.root(),
            data_part.as_deref().unwrap_or_default(),
            own.rels,
        )
        .filter(|p| self.package.has_part(p));
        if let Some(part) = drawing {
            match tolerate(self.package.read_xml(&part, UNDERSTOOD)) {
                Ok(Some(doc)) => {
                    if let Some(shapes) = self.diagram_drawing(env, &part, &doc, frame) {
                        return ShapeKind::Group(Group { children: shapes });
                    }
                }
                Ok(None) => {}
                Err(e) => {
                    self.fatal.get_or_insert(e);
                }
            }
        }
        // No drawing part: the data model's text nodes in previewd's own boxes.
        let accent = env
            .colors
            .scheme_color("accent1")
            .unwrap_or(Color::rgb(0x4472C4));
        let boxes = smartart::layout::layout(
            &smartart::parse::data_tree(data.root()),
            frame.width as f64 / 12_700.0,
            frame.height as f64 / 12_700.0,
            [accent.r, accent.g, accent.b],
        );
        if !boxes.is_empty() {
            let children = smartart::pptx::shapes(&boxes, frame);
            return ShapeKind::Group(Group { children });
        }
        let mut label = "Diagram (SmartArt)".to_owned();
        let mut count = 0;
        for para in data.root().descendants().filter(|e| e.is(Ns::A, "p")) {
            let s: String = para
                .descendants()
                .filter(|e| e.is(Ns::A, "t"))
                .map(|t| t.text().into_owned())
                .collect();
            if !s.trim().is_empty() && count < 200 {
                label.push('\n');
                label.push_str(&s);
                count += 1;
            }
        }
        ShapeKind::Embedded(Embedded {
            kind: "diagram".to_owned(),
            label,
            preview: None,
        })
    }

    /// The shapes drawn over a chart (`c:userShapes`): the chart drawing part's anchors
    /// (`cdr:relSizeAnchor`, from and to as fractions of the chart; `cdr:absSizeAnchor`,
    /// from and a size in EMU) placed in the chart's frame. Text boxes, shapes, connectors
    /// and pictures are read as on a slide.
    fn chart_user_shapes(
        &mut self,
        env: &Env<'_>,
        chart_part: &str,
        chart: Element<'_>,
        frame: &Frame,
    ) -> Vec<Shape> {
        let Some(id) = chart
            .child(Ns::C, "userShapes")
            .and_then(|u| u.attr(Ns::R, "id"))
        else {
            return Vec::new();
        };
        let rels = self.rels_of(chart_part).unwrap_or_default();
        let part = rels
            .get(id)
            .and_then(|r| match &r.target {
                RelTarget::Part(p) => Some(p.clone()),
                _ => None,
            })
            .filter(|p| self.package.has_part(p));
        let Some(part) = part else {
            return Vec::new();
        };
        let doc = match tolerate(self.package.read_xml(&part, UNDERSTOOD)) {
            Ok(Some(d)) => d,
            Ok(None) => return Vec::new(),
            Err(e) => {
                self.fatal.get_or_insert(e);
                return Vec::new();
            }
        };
        let drawing_rels = self.rels_of(&part).unwrap_or_default();
        let own = PartRef {
            root: doc.root(),
            rels: &drawing_rels,
        };
        let m = Affine::at(frame);
        let (fw, fh) = (frame.width as f64, frame.height as f64);
        // A fraction of the chart (`cdr:x`, `cdr:y`), within it.
        let fraction = |el: Element<'_>, name: &str| {
            pchild(el, name)
                .and_then(|v| v.text().trim().parse::<f64>().ok())
                .filter(|v| v.is_finite())
                .map(|v| v.clamp(0.0, 1.0))
        };
        let mut out = Vec::new();
        for anchor in doc.root().elements().filter(|e| e.ns() == Ns::Other) {
            let Some(from) = pchild(anchor, "from") else {
                continue;
            };
            let (Some(x0), Some(y0)) = (fraction(from, "x"), fraction(from, "y")) else {
                continue;
            };
            let size = match anchor.name() {
                "relSizeAnchor" => pchild(anchor, "to").and_then(|to| {
                    Some((
                        (fraction(to, "x")? - x0) * fw,
                        (fraction(to, "y")? - y0) * fh,
                    ))
                }),
                "absSizeAnchor" => pchild(anchor, "ext").and_then(|e| {
                    let emu = |name: &str| {
                        e.attr(Ns::None, name)
                            .and_then(|v| v.trim().parse::<f64>().ok())
                            .filter(|v| v.is_finite() && *v >= 0.0)
                            .map(|v| v.min(fw.max(fh) * 4.0))
                    };
                    Some((emu("cx")?, emu("cy")?))
                }),
                _ => None,
            };
            let Some((w, h)) = size.filter(|(w, h)| *w >= 0.0 && *h >= 0.0) else {
                continue;
            };
            let Some(el) = anchor
                .elements()
                .find(|e| matches!(e.name(), "sp" | "cxnSp" | "pic"))
            else {
                continue;
            };
            if self.shape_budget == 0 {
                break;
            }
            self.shape_budget -= 1;
            let mut shape = if el.name() == "pic" {
                self.picture(env, own, Level::Layout, el, &m)
            } else {
                self.auto_shape(env, own, Level::Layout, el, &m)
            };
            shape.frame.x = frame.x + (x0 * fw).round() as i64;
            shape.frame.y = frame.y + (y0 * fh).round() as i64;
            shape.frame.width = w.round() as i64;
            shape.frame.height = h.round() as i64;
            out.push(shape);
        }
        out
    }

    /// The shapes of a SmartArt drawing part (`dsp:drawing`), placed in the frame. A
    /// shape whose text box (`dsp:txXfrm`) is not its outline becomes two shapes.
    fn diagram_drawing(
        &mut self,
        env: &Env<'_>,
        part: &str,
        doc: &XmlDoc,
        frame: &Frame,
    ) -> Option<Vec<Shape>> {
        let tree = pchild(doc.root(), "spTree")?;
        let rels = self.rels_of(part).unwrap_or_default();
        let own = PartRef {
            root: doc.root(),
            rels: &rels,
        };
        let m = Affine::at(frame);
        let mut out = Vec::new();
        for sp in tree
            .descendants()
            .filter(|e| e.name() == "sp" && e.ns() == Ns::Other)
        {
            if self.shape_budget == 0 {
                break;
            }
            self.shape_budget -= 1;
            let mut shape = self.auto_shape(env, own, Level::Layout, sp, &m);
            let text_frame = pchild(sp, "txXfrm").map(|x| frame_of(&read_xfrm(x), &m));
            if let (Some(tf), ShapeKind::Shape(a)) = (text_frame, &mut shape.kind) {
                if tf != shape.frame && a.text.is_some() {
                    let text = a.text.take();
                    out.push(shape.clone());
                    shape.frame = tf;
                    shape.kind = ShapeKind::Shape(AutoShape {
                        geometry: Geometry::default(),
                        fill: Fill::None,
                        line: None,
                        text,
                        connector: false,
                    });
                }
            }
            out.push(shape);
        }
        Some(out)
    }
}

/// Whether any of the shapes (in groups too) shows a slide-number field.
fn shows_slide_number(shapes: &[Shape]) -> bool {
    shapes.iter().any(|s| match &s.kind {
        ShapeKind::Shape(a) => a.text.as_ref().is_some_and(|t| {
            t.paragraphs
                .iter()
                .flat_map(|p| p.runs.iter())
                .any(|r| matches!(&r.kind, RunKind::Field { field } if field == "slidenum"))
        }),
        ShapeKind::Group(g) => shows_slide_number(&g.children),
        _ => false,
    })
}

/// A hyperlink: only http, https and mailto URLs, and jumps to slides of this deck.
fn link_with(
    slide_numbers: &HashMap<String, usize>,
    rels: &Relationships,
    el: Element<'_>,
) -> Option<Link> {
    let id = el.attr(Ns::R, "id").filter(|id| !id.is_empty());
    let action = el.attr(Ns::None, "action").unwrap_or("");
    match id.and_then(|id| rels.get(id)).map(|r| &r.target) {
        Some(RelTarget::External(url)) => {
            let u = url.trim();
            let lower = u.to_ascii_lowercase();
            ["http://", "https://", "mailto:"]
                .iter()
                .any(|s| lower.starts_with(s))
                .then(|| Link::Url { url: u.to_owned() })
        }
        Some(RelTarget::Part(p)) if action.contains("hlinksldjump") => slide_numbers
            .get(&p.to_ascii_lowercase())
            .map(|&number| Link::Slide { number }),
        _ => None,
    }
}

/// The geometry of the nearest element in the chain that names one.
fn geometry_of(chain: &[Element<'_>], frame: &Frame) -> Geometry {
    for e in chain.iter().rev() {
        let Some(pr) = e.elements().find(|c| c.name() == "spPr") else {
            continue;
        };
        if let Some(p) = pr.child(Ns::A, "prstGeom") {
            let adjust = p
                .child(Ns::A, "avLst")
                .into_iter()
                .flat_map(|l| l.children_named(Ns::A, "gd"))
                .take(16)
                .filter_map(|gd| {
                    let name = safe_name(gd.attr(Ns::None, "name")?);
                    let v = gd
                        .attr(Ns::None, "fmla")?
                        .trim()
                        .strip_prefix("val")
                        .and_then(number)?;
                    Some((name, v))
                })
                .collect();
            return Geometry::Preset {
                name: safe_name(p.attr(Ns::None, "prst").unwrap_or("rect")),
                adjust,
            };
        }
        if let Some(c) = pr.child(Ns::A, "custGeom") {
            return custom_geometry(c, frame.width as f64, frame.height as f64);
        }
    }
    Geometry::default()
}

/// What a chart's theme override part sets (each `None` where it sets nothing).
#[derive(Debug, Default)]
struct ChartOverride {
    colors: Option<[Color; 12]>,
    major: Option<String>,
    minor: Option<String>,
}
