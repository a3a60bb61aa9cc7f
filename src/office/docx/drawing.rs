//! Pictures, text boxes and other drawing objects: DrawingML (`w:drawing`) and the older
//! VML (`w:pict`, `w:object`).
//!
//! Pictures resolve their relationship to a media part, whose header is sniffed (format,
//! pixel size, the pixel cap); linked pictures (`r:link`, external targets) are kept as a
//! named link that is never fetched. Text boxes become blocks of their own. Charts go
//! through the shared chart engine ([`crate::office::chart`]); diagrams are labelled
//! placeholders.

use crate::office::relationships::RelTarget;
use crate::office::xml::Element;
use crate::office::{Ns, OfficeErrorKind};

use crate::office::chart::model::Color as ChartColor;
use crate::office::chart::parse_chart;
use crate::office::pptx::color::ColorCtx;
use crate::office::pptx::model::{GeomPath, EMU_PER_POINT};

use super::model::{
    Anchor, Border, ChartFrame, Color, GroupChild, Image, ImageSource, Inline, Line, Placeholder,
    RelativeSize, ShapeGroup, TextBox, WordArt,
};
use super::parse::{Parser, UNDERSTOOD};
use super::props::emu;

/// The Office 2013 theme's colours, for a document without a theme part.
const OFFICE_SCHEME: [[u8; 3]; 12] = [
    [0x00, 0x00, 0x00],
    [0xFF, 0xFF, 0xFF],
    [0x44, 0x54, 0x6A],
    [0xE7, 0xE6, 0xE6],
    [0x44, 0x72, 0xC4],
    [0xED, 0x7D, 0x31],
    [0xA5, 0xA5, 0xA5],
    [0xFF, 0xC0, 0x00],
    [0x5B, 0x9B, 0xD5],
    [0x70, 0xAD, 0x47],
    [0x05, 0x63, 0xC1],
    [0x95, 0x4F, 0x72],
];

/// Size and placement shared by everything inside one `wp:inline`/`wp:anchor`.
#[derive(Debug, Clone, Default)]
struct Frame {
    width: f32,
    height: f32,
    alt: Option<String>,
    anchor: Option<Anchor>,
    /// The coordinate space of the group being walked (`wpg:wgp`), `None` outside groups:
    /// a group's shapes are sized and placed in its own units.
    group: Option<Group>,
    /// Fill and outline of the shape around a text box (`wps:spPr`).
    fill: Option<Color>,
    gradient: Option<(Color, Color, f32)>,
    outline: Option<Border>,
    /// Clockwise rotation of the shape, degrees.
    rotation: Option<f32>,
    /// The shape's preset geometry, when not a rectangle.
    geometry: Option<String>,
    /// Its adjust values (`a:avLst`).
    geometry_adjust: Vec<(String, f64)>,
    /// The shape's custom geometry (`a:custGeom`), evaluated; empty for a preset.
    custom_geometry: Vec<GeomPath>,
    /// Where a text box's text sits (`wps:bodyPr anchor`).
    text_anchor: Option<String>,
    /// Opacity of the fill, when not opaque.
    fill_opacity: Option<f32>,
    /// A text box's insets (`wps:bodyPr lIns` …), points.
    insets: Option<[f32; 4]>,
}

/// A DrawingML group's coordinate space: child units map to points from the frame's top
/// left as `origin + (v - child_offset) * scale` (`a:chOff`/`a:chExt` against the group's
/// own `a:off`/`a:ext`).
#[derive(Debug, Clone, Copy)]
struct Group {
    scale: (f32, f32),
    child_offset: (f32, f32),
    origin: (f32, f32),
}

impl Group {
    /// A point given in this group's units, in points from the frame's top left.
    fn point(&self, (x, y): (f32, f32)) -> (f32, f32) {
        (
            self.origin.0 + (x - self.child_offset.0) * self.scale.0,
            self.origin.1 + (y - self.child_offset.1) * self.scale.1,
        )
    }
}

impl Parser<'_, '_> {
    /// A `w:drawing`: one inline or anchored frame holding a picture, a shape, a group …
    pub(super) fn drawing(&mut self, el: Element<'_>) -> Vec<Inline> {
        let mut out = Vec::new();
        for frame_el in el.elements() {
            let anchored = frame_el.is(Ns::Wp, "anchor");
            if !(anchored || frame_el.is(Ns::Wp, "inline")) {
                continue;
            }
            let frame = frame_of(frame_el, anchored);
            let Some(data) = frame_el
                .child(Ns::A, "graphic")
                .and_then(|g| g.child(Ns::A, "graphicData"))
            else {
                continue;
            };
            self.graphic_content(data, &frame, &mut out);
        }
        out
    }

    /// Walks graphic content for pictures, text boxes, charts and diagrams, without
    /// descending into a text box's own content (its blocks are parsed separately).
    fn graphic_content(&mut self, el: Element<'_>, frame: &Frame, out: &mut Vec<Inline>) {
        for c in el.elements() {
            match (c.ns(), c.name()) {
                (Ns::Pic, "pic") => {
                    let blip = c
                        .child(Ns::Pic, "blipFill")
                        .and_then(|b| b.child(Ns::A, "blip"));
                    let props = c.child(Ns::Pic, "spPr");
                    let placed = in_group(props, frame);
                    let source = match blip {
                        Some(b) => self.blip_source(b),
                        None => ImageSource::Missing {
                            target: String::new(),
                        },
                    };
                    out.push(Inline::Image(Image {
                        source,
                        width: placed.width,
                        height: placed.height,
                        alt: frame.alt.clone(),
                        anchor: placed.anchor,
                        rotation: props.and_then(rotation),
                    }));
                }
                (Ns::W, "txbxContent") => {
                    let mut blocks = Vec::new();
                    self.blocks(c, &mut blocks, None);
                    out.push(Inline::TextBox(TextBox {
                        width: Some(frame.width).filter(|w| *w > 0.0),
                        height: Some(frame.height).filter(|h| *h > 0.0),
                        anchor: frame.anchor.clone(),
                        fill: frame.fill,
                        gradient: frame.gradient,
                        outline: frame.outline.clone(),
                        rotation: frame.rotation,
                        geometry: frame.geometry.clone(),
                        geometry_adjust: frame.geometry_adjust.clone(),
                        custom_geometry: frame.custom_geometry.clone(),
                        line: None,
                        text_anchor: frame.text_anchor.clone(),
                        fill_opacity: frame.fill_opacity,
                        insets: frame.insets,
                        blocks,
                    }));
                }
                (Ns::C, "chart") => out.push(self.chart(c, frame)),
                (Ns::Dgm, "relIds") => {
                    out.push(self.diagram(c, frame.width, frame.height, frame.anchor.clone()))
                }
                (Ns::Wpg, "wgp" | "grpSp") if frame.group.is_none() => {
                    out.push(self.drawing_group(c, frame));
                }
                (Ns::Wpg, "wgp" | "grpSp") => {
                    let inner = Frame {
                        group: Some(group_space(c, frame.group)),
                        ..frame.clone()
                    };
                    self.graphic_content(c, &inner, out);
                }
                (Ns::Wps, "wsp") => {
                    // Its text box has the shape's fill, outline and rotation and, in a
                    // group, the shape's own size and place.
                    let props = c.child(Ns::Wps, "spPr");
                    let style = c.child(Ns::Wps, "style");
                    let mut inner = in_group(props, frame);
                    inner.fill = self.shape_fill(props, style);
                    inner.fill_opacity = props
                        .and_then(|p| p.child(Ns::A, "solidFill"))
                        .and_then(|f| self.drawing_alpha(f));
                    inner.gradient = props.and_then(|p| self.linear_gradient(p));
                    inner.outline = self.shape_outline(props, style);
                    inner.rotation = props.and_then(rotation);
                    inner.geometry = props
                        .and_then(|p| p.child(Ns::A, "prstGeom"))
                        .and_then(|g| g.attr_local("prst"))
                        .filter(|g| *g != "rect")
                        .map(str::to_owned);
                    inner.geometry_adjust = props
                        .and_then(|p| p.child(Ns::A, "prstGeom"))
                        .map(crate::office::drawingml::adjust_values)
                        .unwrap_or_default();
                    inner.custom_geometry = props
                        .and_then(|p| custom_geometry(p, (inner.width, inner.height)))
                        .unwrap_or_default();
                    let body = c.child(Ns::Wps, "bodyPr");
                    inner.insets = body.and_then(body_insets);
                    inner.text_anchor = body
                        .and_then(|b| b.attr_local("anchor"))
                        .filter(|a| matches!(*a, "ctr" | "b"))
                        .map(str::to_owned);
                    let line = line_of(c, props, inner.geometry.as_deref());
                    let has_text = c
                        .child(Ns::Wps, "txbx")
                        .and_then(|t| t.child(Ns::W, "txbxContent"))
                        .is_some();
                    if has_text {
                        self.graphic_content(c, &inner, out);
                    } else if line.is_some()
                        || inner.fill.is_some()
                        || inner.outline.as_ref().is_some_and(|o| o.style != "none")
                    {
                        // A shape without text (a cover page's coloured panel): an empty
                        // box with its fill and outline.
                        out.push(Inline::TextBox(TextBox {
                            width: Some(inner.width).filter(|w| *w > 0.0),
                            height: Some(inner.height).filter(|h| *h > 0.0),
                            anchor: inner.anchor,
                            fill: inner.fill,
                            gradient: inner.gradient,
                            outline: Some(inner.outline.unwrap_or(Border {
                                style: "none",
                                width: 0.0,
                                color: None,
                                space: 0.0,
                                shadow: false,
                            })),
                            rotation: inner.rotation,
                            geometry: inner.geometry,
                            geometry_adjust: inner.geometry_adjust,
                            custom_geometry: inner.custom_geometry,
                            line,
                            text_anchor: None,
                            fill_opacity: inner.fill_opacity,
                            insets: None,
                            blocks: Vec::new(),
                        }));
                    }
                }
                _ => self.graphic_content(c, frame, out),
            }
        }
    }

    /// A group at the top of a drawing: one box of the frame's size holding the group's
    /// drawings, each placed in the group's own coordinate space (nested groups too).
    fn drawing_group(&mut self, el: Element<'_>, frame: &Frame) -> Inline {
        // Children are walked as if anchored at the group's top left: `in_group` then
        // gives each one its offset from there, which becomes its place in the group.
        let inner = Frame {
            group: Some(group_space(el, None)),
            anchor: Some(group_origin()),
            ..frame.clone()
        };
        let mut drawn = Vec::new();
        self.graphic_content(el, &inner, &mut drawn);
        Inline::Group(ShapeGroup {
            width: frame.width,
            height: frame.height,
            anchor: frame.anchor.clone(),
            children: drawn.into_iter().map(group_child).collect(),
        })
    }

    /// A colour child of `parent` (`a:srgbClr`, `a:schemeClr` with its modifiers …)
    /// resolved against the document's theme.
    fn drawing_color(&self, parent: Element<'_>) -> Option<Color> {
        let c = self.drawing_rgba(parent)?;
        Some(Color::rgb(c.r, c.g, c.b))
    }

    /// The opacity of a colour child of `parent` (`a:alpha` …), when it is not opaque.
    fn drawing_alpha(&self, parent: Element<'_>) -> Option<f32> {
        let a = self.drawing_rgba(parent)?.alpha;
        (a < 0.999).then_some(a.max(0.0))
    }

    fn drawing_rgba(&self, parent: Element<'_>) -> Option<crate::office::pptx::model::Color> {
        let scheme = self
            .colors
            .scheme(&OFFICE_SCHEME)
            .map(|[r, g, b]| ChartColor::rgb(u32::from_be_bytes([0, r, g, b])));
        ColorCtx::from_scheme(&scheme).child_color(parent)
    }

    /// A shape's fill: its own `a:solidFill` (or a gradient's middle colour, as one
    /// colour), nothing for `a:noFill`, else the colour of its style's `a:fillRef`.
    fn shape_fill(&self, props: Option<Element<'_>>, style: Option<Element<'_>>) -> Option<Color> {
        if let Some(p) = props {
            if let Some(f) = p.child(Ns::A, "solidFill") {
                return self.drawing_color(f);
            }
            if p.child(Ns::A, "noFill").is_some() {
                return None;
            }
            if let Some(g) = p.child(Ns::A, "gradFill") {
                let stops: Vec<Color> = g
                    .child(Ns::A, "gsLst")
                    .into_iter()
                    .flat_map(|l| l.elements())
                    .filter_map(|gs| self.drawing_color(gs))
                    .collect();
                return mean_color(stops.first()?, stops.last()?);
            }
        }
        let fill_ref = style?.child(Ns::A, "fillRef")?;
        (fill_ref.attr_local("idx")? != "0")
            .then(|| self.drawing_color(fill_ref))
            .flatten()
    }

    /// A linear gradient fill of shape properties: first and last stop, angle in degrees.
    fn linear_gradient(&self, props: Element<'_>) -> Option<(Color, Color, f32)> {
        let g = props.child(Ns::A, "gradFill")?;
        let angle = match g.child(Ns::A, "lin") {
            Some(lin) => lin.attr_local("ang")?.parse::<f32>().ok()? / 60_000.0,
            // Path gradients are not drawn as such: the mean colour stands for them.
            None if g.child(Ns::A, "path").is_some() => return None,
            None => 90.0,
        };
        let stops: Vec<Color> = g
            .child(Ns::A, "gsLst")?
            .elements()
            .filter_map(|gs| self.drawing_color(gs))
            .collect();
        Some((*stops.first()?, *stops.last()?, angle))
    }

    /// A shape's outline: its own `a:ln`, else its style's `a:lnRef` as a 0.75 pt line.
    fn shape_outline(
        &self,
        props: Option<Element<'_>>,
        style: Option<Element<'_>>,
    ) -> Option<Border> {
        let ln = props.and_then(|p| p.child(Ns::A, "ln"));
        let style_color = || {
            let r = style?.child(Ns::A, "lnRef")?;
            (r.attr_local("idx")? != "0")
                .then(|| self.drawing_color(r))
                .flatten()
        };
        match ln {
            Some(ln) => outline(ln, |f| self.drawing_color(f)).or_else(|| {
                style_color().map(|color| Border {
                    style: "single",
                    width: line_width(ln),
                    color: Some(color),
                    space: 0.0,
                    shadow: false,
                })
            }),
            None => style_color().map(|color| Border {
                style: "single",
                width: 0.75,
                color: Some(color),
                space: 0.0,
                shadow: false,
            }),
        }
    }

    /// A `c:chart`: its part (through the relationship of `r:id`) read by the shared
    /// chart engine against the document's theme, at the frame's size. A missing or
    /// damaged part is a labelled placeholder; a guard breach refuses the document.
    fn chart(&mut self, c: Element<'_>, frame: &Frame) -> Inline {
        let placeholder = || {
            Inline::Placeholder(Placeholder {
                kind: "chart".to_owned(),
                label: frame
                    .alt
                    .clone()
                    .map_or_else(|| "Chart".to_owned(), |a| format!("Chart: {a}")),
            })
        };
        let part = c
            .attr(Ns::R, "id")
            .and_then(|id| self.rels.get(id))
            .and_then(|r| match &r.target {
                RelTarget::Part(p) => Some(p.clone()),
                _ => None,
            })
            .filter(|p| self.package.has_part(p));
        let Some(part) = part else {
            self.warnings.push("A chart's part is missing".to_owned());
            return placeholder();
        };
        let doc = match self.package.read_xml(&part, UNDERSTOOD) {
            Ok(d) => d,
            Err(e) => {
                if matches!(
                    e.kind(),
                    OfficeErrorKind::MissingPart | OfficeErrorKind::MalformedXml
                ) {
                    self.warnings
                        .push("A chart's part could not be read".to_owned());
                } else {
                    self.fatal.get_or_insert(e);
                }
                return placeholder();
            }
        };
        let scheme = self
            .colors
            .scheme(&OFFICE_SCHEME)
            .map(|[r, g, b]| ChartColor::rgb(u32::from_be_bytes([0, r, g, b])));
        let colors = ColorCtx::from_scheme(&scheme);
        let mut chart = parse_chart(doc.root(), &colors);
        // Theme references name the document theme's fonts (Office's chart default is the
        // body font, `+mn-lt`).
        let face = match chart.font.get(..3) {
            Some("+mn") => self.fonts.minor.as_deref().map(str::to_owned),
            Some("+mj") => self.fonts.major.as_deref().map(str::to_owned),
            _ => Some(chart.font.clone()),
        };
        chart.font = face.unwrap_or_default();
        chart.part = Some(part);
        Inline::Chart(ChartFrame {
            chart: Box::new(chart),
            width: frame.width,
            height: frame.height,
            alt: frame.alt.clone(),
            anchor: frame.anchor.clone(),
        })
    }

    /// Resolves an `a:blip` (`r:embed` inside the package, `r:link` outside).
    fn blip_source(&mut self, blip: Element<'_>) -> ImageSource {
        if let Some(id) = blip.attr(Ns::R, "embed") {
            return self.image_rel(id);
        }
        if let Some(id) = blip.attr(Ns::R, "link") {
            return match self.rels.get(id).map(|r| &r.target) {
                Some(RelTarget::External(url) | RelTarget::Invalid(url)) => {
                    ImageSource::External { url: url.clone() }
                }
                Some(RelTarget::Part(p)) => ImageSource::External { url: p.clone() },
                None => ImageSource::Missing {
                    target: id.to_owned(),
                },
            };
        }
        ImageSource::Missing {
            target: String::new(),
        }
    }

    /// An image relationship: a media part (sniffed once), a link, or missing.
    pub(super) fn image_rel(&mut self, id: &str) -> ImageSource {
        let Some(rel) = self.rels.get(id) else {
            return ImageSource::Missing {
                target: id.to_owned(),
            };
        };
        match rel.target.clone() {
            RelTarget::External(url) => ImageSource::External { url },
            RelTarget::Invalid(target) => ImageSource::Missing { target },
            RelTarget::Part(part) => {
                let Some(name) = self.package.canonical_name(&part).map(str::to_owned) else {
                    return ImageSource::Missing { target: part };
                };
                self.register_media(&name);
                ImageSource::Part { part: name }
            }
        }
    }

    /// Records a media part once, with what its header says. An image over the pixel
    /// cap or a damaged part makes the whole document a refusal, as the guard requires;
    /// the error is stashed and raised by the caller.
    fn register_media(&mut self, part: &str) {
        let missing = |e: &crate::office::OfficeError| e.kind() == OfficeErrorKind::MissingPart;
        if let Err(e) = self.media.register(self.package, part, missing) {
            self.fatal.get_or_insert(e);
        }
    }

    /// VML content (`w:pict`, `w:object`): image data, text boxes and text paths.
    pub(super) fn vml(&mut self, el: Element<'_>) -> Vec<Inline> {
        let mut out = Vec::new();
        self.vml_content(el, &VmlShape::default(), &mut out);
        out
    }

    fn vml_content(&mut self, el: Element<'_>, shape: &VmlShape, out: &mut Vec<Inline>) {
        let size = shape.size;
        for c in el.elements() {
            match (c.ns(), c.name()) {
                (Ns::V, "imagedata") => {
                    let source = match c.attr(Ns::R, "id").or_else(|| c.attr(Ns::R, "pict")) {
                        Some(id) => self.image_rel(id),
                        None => ImageSource::Missing {
                            target: String::new(),
                        },
                    };
                    let (width, height) = size.unwrap_or((0.0, 0.0));
                    out.push(Inline::Image(Image {
                        source,
                        width,
                        height,
                        alt: c.attr(Ns::O, "title").map(str::to_owned),
                        anchor: shape.anchor.clone(),
                        rotation: shape.rotation,
                    }));
                }
                (Ns::W, "txbxContent") => {
                    let mut blocks = Vec::new();
                    self.blocks(c, &mut blocks, None);
                    out.push(Inline::TextBox(TextBox {
                        width: size.map(|s| s.0).filter(|w| *w > 0.0),
                        height: size.map(|s| s.1).filter(|h| *h > 0.0),
                        anchor: shape.anchor.clone(),
                        fill: shape.fill,
                        gradient: None,
                        outline: None,
                        rotation: shape.rotation,
                        geometry: None,
                        geometry_adjust: Vec::new(),
                        custom_geometry: Vec::new(),
                        line: None,
                        text_anchor: None,
                        fill_opacity: shape.fill.and(shape.opacity),
                        insets: shape.insets,
                        blocks,
                    }));
                }
                (Ns::V, "textpath") => {
                    let text = c.attr_local("string").unwrap_or("").trim();
                    if let (false, Some((width, height))) = (text.is_empty(), size) {
                        out.push(Inline::WordArt(WordArt {
                            text: text.to_owned(),
                            width,
                            height,
                            fill: shape.fill,
                            opacity: shape.opacity,
                            font: c
                                .attr(Ns::None, "style")
                                .and_then(|st| style_value(st, "font-family"))
                                .map(|f| f.trim_matches(|ch| ch == '"' || ch == '\'').to_owned())
                                .filter(|f| !f.is_empty()),
                            rotation: shape.rotation,
                            anchor: shape.anchor.clone(),
                        }));
                    }
                }
                (Ns::V, "group") => {
                    let style = c.attr(Ns::None, "style");
                    let size = style.and_then(vml_size).or(size);
                    let anchor = style.and_then(|st| vml_anchor(c, st));
                    self.vml_group(c, size, anchor, out);
                }
                (Ns::V, "shapetype") => {}
                (Ns::V, _) => {
                    let inner = VmlShape::of(c, shape);
                    self.vml_content(c, &inner, out);
                }
                _ => self.vml_content(c, shape, out),
            }
        }
    }
}

/// What a VML shape (`v:shape`, `v:rect` …) gives the content inside it.
#[derive(Debug, Clone, Default)]
struct VmlShape {
    size: Option<(f32, f32)>,
    anchor: Option<Anchor>,
    rotation: Option<f32>,
    fill: Option<Color>,
    opacity: Option<f32>,
    /// A `v:textbox`'s insets (`inset`), points.
    insets: Option<[f32; 4]>,
}

impl VmlShape {
    /// The shape `el` inside `outer`: its own size, placement, rotation and fill where
    /// it gives them.
    fn of(el: Element<'_>, outer: &VmlShape) -> VmlShape {
        let style = el.attr(Ns::None, "style");
        let fill_el = el.child(Ns::V, "fill");
        VmlShape {
            size: style.and_then(vml_size).or(outer.size),
            anchor: style
                .and_then(|s| vml_anchor(el, s))
                .or_else(|| outer.anchor.clone()),
            rotation: style
                .and_then(|s| style_value(s, "rotation"))
                .and_then(|r| r.trim_end_matches("fd").parse::<f32>().ok())
                .filter(|r| r.is_finite() && r.abs() >= 0.01)
                .or(outer.rotation),
            fill: el
                .attr_local("fillcolor")
                .and_then(vml_color)
                .or(outer.fill),
            opacity: fill_el
                .and_then(|f| f.attr_local("opacity"))
                .and_then(vml_fraction)
                .or(outer.opacity),
            insets: el
                .is(Ns::V, "textbox")
                .then(|| el.attr(Ns::None, "inset"))
                .flatten()
                .map(vml_insets)
                .or(outer.insets),
        }
    }
}

/// The value of `key` in a CSS-like `style` attribute.
fn style_value<'s>(style: &'s str, key: &str) -> Option<&'s str> {
    style.split(';').find_map(|decl| {
        let (k, v) = decl.split_once(':')?;
        (k.trim() == key).then(|| v.trim())
    })
}

/// A VML colour (`#RRGGBB`, `#RGB` or a few names, with an optional `[index]` suffix).
fn vml_color(v: &str) -> Option<Color> {
    let v = v.split_whitespace().next()?;
    let hex = v.strip_prefix('#').unwrap_or(v);
    let parsed = match hex.len() {
        6 => Color::from_hex(hex),
        3 => {
            let long: String = hex.chars().flat_map(|c| [c, c]).collect();
            Color::from_hex(&long)
        }
        _ => None,
    };
    parsed.or_else(|| match v {
        "black" => Some(Color::rgb(0, 0, 0)),
        "white" => Some(Color::rgb(255, 255, 255)),
        "silver" => Some(Color::rgb(0xC0, 0xC0, 0xC0)),
        "gray" => Some(Color::rgb(0x80, 0x80, 0x80)),
        "red" => Some(Color::rgb(255, 0, 0)),
        "blue" => Some(Color::rgb(0, 0, 255)),
        _ => None,
    })
}

/// A VML fraction: `0.5`, `50%` or a 16.16 fixed-point `32768f`.
fn vml_fraction(v: &str) -> Option<f32> {
    let v = v.trim();
    let f = if let Some(p) = v.strip_suffix('%') {
        p.parse::<f32>().ok()? / 100.0
    } else if let Some(x) = v.strip_suffix('f') {
        x.parse::<f32>().ok()? / 65536.0
    } else {
        v.parse::<f32>().ok()?
    };
    f.is_finite().then(|| f.clamp(0.0, 1.0))
}

/// The anchor of a VML shape positioned `absolute`: its `margin-left`/`margin-top` (or
/// `left`/`top`) offsets, `mso-position-*` alignment and reference, the wrap of its
/// `w10:wrap`, and behind the text for a negative `z-index`.
fn vml_anchor(el: Element<'_>, style: &str) -> Option<Anchor> {
    if style_value(style, "position") != Some("absolute") {
        return None;
    }
    let len = |k: &str| style_value(style, k).and_then(css_length);
    let align = |k: &str| {
        style_value(style, k)
            .filter(|a| *a != "absolute")
            .map(str::to_owned)
    };
    let relative = |k: &str, text: &str| {
        style_value(style, k).map(|r| match r {
            "text" => text.to_owned(),
            "char" => "character".to_owned(),
            other => other.to_owned(),
        })
    };
    let z = style_value(style, "z-index").and_then(|z| z.parse::<i64>().ok());
    let wrap = el
        .elements()
        .find(|c| c.name() == "wrap")
        .and_then(|w| w.attr_local("type"))
        .unwrap_or("none");
    Some(Anchor {
        align_h: align("mso-position-horizontal"),
        offset_h: len("margin-left").or_else(|| len("left")),
        // `mso-left-percent` and `mso-top-percent` are left to the stored offsets,
        // which Word writes beside them.
        share_h: None,
        relative_h: relative("mso-position-horizontal-relative", "column")
            .or_else(|| Some("column".to_owned())),
        align_v: align("mso-position-vertical"),
        offset_v: len("margin-top").or_else(|| len("top")),
        share_v: None,
        relative_v: relative("mso-position-vertical-relative", "paragraph")
            .or_else(|| Some("paragraph".to_owned())),
        wrap: wrap.to_owned(),
        behind_text: z.is_some_and(|z| z < 0),
        z_order: z.map(|z| z.unsigned_abs().min(u64::from(u32::MAX)) as u32),
        relative_width: vml_relative(style, "width"),
        relative_height: vml_relative(style, "height"),
    })
}

/// A VML relative size (`mso-width-percent`, tenths of a percent, of
/// `mso-width-relative`; the same for height), the VML form of `wp14:sizeRelH`.
fn vml_relative(style: &str, side: &str) -> Option<RelativeSize> {
    let share: f32 = style_value(style, &format!("mso-{side}-percent"))?
        .parse()
        .ok()?;
    let from = style_value(style, &format!("mso-{side}-relative")).unwrap_or("margin");
    relative_share(from, share / 1000.0)
}

impl Parser<'_, '_> {
    /// A `v:group` of `size` points: one box holding its shapes, which give their places
    /// and sizes in the group's own units (`coordsize`, 1000×1000 when absent, counted
    /// from `coordorigin`) spread over the group's size. Without a size, its content
    /// is read as loose shapes.
    fn vml_group(
        &mut self,
        group: Element<'_>,
        size: Option<(f32, f32)>,
        anchor: Option<Anchor>,
        out: &mut Vec<Inline>,
    ) {
        let Some((w, h)) = size else {
            self.vml_content(group, &VmlShape::default(), out);
            return;
        };
        let mut children = Vec::new();
        self.vml_group_children(group, (0.0, 0.0, w, h), &mut children);
        out.push(Inline::Group(ShapeGroup {
            width: w,
            height: h,
            anchor,
            children,
        }));
    }

    /// The shapes of the VML group `group`, whose box is `(x, y, w, h)` in points from
    /// the top group's top left, each at its place there; nested groups are flattened.
    fn vml_group_children(
        &mut self,
        group: Element<'_>,
        (x, y, w, h): (f32, f32, f32, f32),
        out: &mut Vec<GroupChild>,
    ) {
        let pair = |name: &str| {
            group
                .attr(Ns::None, name)
                .and_then(|v| v.split_once(','))
                .and_then(|(a, b)| {
                    Some((a.trim().parse::<f32>().ok()?, b.trim().parse::<f32>().ok()?))
                })
                .filter(|(a, b)| a.is_finite() && b.is_finite())
        };
        let (cw, ch) = pair("coordsize")
            .filter(|(a, b)| *a > 0.0 && *b > 0.0)
            .unwrap_or((1000.0, 1000.0));
        let origin = pair("coordorigin").unwrap_or((0.0, 0.0));
        let scale = (w / cw, h / ch);
        for c in group.elements() {
            if c.ns() != Ns::V || c.is(Ns::V, "shapetype") {
                continue;
            }
            let Some((cx, cy, width, height)) = c
                .attr(Ns::None, "style")
                .and_then(|st| vml_group_box(st, scale, origin))
            else {
                continue;
            };
            let (cx, cy) = (x + cx, y + cy);
            if c.is(Ns::V, "group") {
                self.vml_group_children(c, (cx, cy, width, height), out);
                continue;
            }
            let shape = VmlShape {
                size: Some((width, height)),
                anchor: None,
                ..VmlShape::of(c, &VmlShape::default())
            };
            let mut drawn = Vec::new();
            self.vml_content(c, &shape, &mut drawn);
            if drawn.is_empty() {
                drawn.extend(vml_plain_shape(c, &shape));
            }
            out.extend(drawn.into_iter().map(|inline| GroupChild {
                x: cx,
                y: cy,
                ..group_child(inline)
            }));
        }
    }
}

/// A VML shape without text or picture (a filled rectangle, an outlined circle): a box
/// of its fill and stroke, `None` when it paints neither.
fn vml_plain_shape(el: Element<'_>, shape: &VmlShape) -> Option<Inline> {
    let (width, height) = shape.size?;
    let off = |name: &str| {
        el.attr(Ns::None, name)
            .is_some_and(|v| matches!(v.trim(), "f" | "false"))
    };
    let fill = shape.fill.filter(|_| !off("filled"));
    let outline = el
        .attr(Ns::None, "strokecolor")
        .and_then(vml_color)
        .filter(|_| !off("stroked"))
        .map(|color| Border {
            style: "single",
            width: el
                .attr(Ns::None, "strokeweight")
                .and_then(css_length)
                .filter(|w| *w > 0.0)
                .unwrap_or(0.75)
                .min(72.0),
            color: Some(color),
            space: 0.0,
            shadow: false,
        });
    if fill.is_none() && outline.is_none() {
        return None;
    }
    let geometry = match el.name() {
        "oval" => Some("ellipse".to_owned()),
        "roundrect" => Some("roundRect".to_owned()),
        _ => None,
    };
    Some(Inline::TextBox(TextBox {
        width: Some(width).filter(|w| *w > 0.0),
        height: Some(height).filter(|h| *h > 0.0),
        anchor: None,
        fill,
        gradient: None,
        outline: Some(outline.unwrap_or(Border {
            style: "none",
            width: 0.0,
            color: None,
            space: 0.0,
            shadow: false,
        })),
        rotation: shape.rotation,
        geometry,
        geometry_adjust: Vec::new(),
        custom_geometry: Vec::new(),
        line: None,
        text_anchor: None,
        fill_opacity: fill.and(shape.opacity),
        insets: None,
        blocks: Vec::new(),
    }))
}

/// Place and size of a shape inside a VML group: left, top, width and height from its
/// `style`, in points from the group's top left. Bare numbers are group units counted
/// from `origin` and scaled by `scale` (points per unit); lengths with a unit are taken
/// as they are.
fn vml_group_box(
    style: &str,
    scale: (f32, f32),
    origin: (f32, f32),
) -> Option<(f32, f32, f32, f32)> {
    let length = |key: &str, per_unit: f32, from: f32| {
        let value = style_value(style, key)?;
        match value.parse::<f32>() {
            Ok(n) if n.is_finite() => Some((n - from) * per_unit),
            _ => css_length(value),
        }
    };
    Some((
        length("left", scale.0, origin.0).unwrap_or(0.0),
        length("top", scale.1, origin.1).unwrap_or(0.0),
        length("width", scale.0, 0.0)?,
        length("height", scale.1, 0.0)?,
    ))
}

/// A `v:textbox inset` (`left,top,right,bottom`, bare numbers in pixels, absent parts
/// Word's 0.1 in and 0.05 in) in points.
fn vml_insets(v: &str) -> [f32; 4] {
    let mut out = [7.2, 3.6, 7.2, 3.6];
    for (o, part) in out.iter_mut().zip(v.split(',')) {
        if let Some(p) = css_length(part.trim()).filter(|p| *p >= 0.0) {
            *o = p.min(288.0);
        }
    }
    out
}

/// The coordinate space of a DrawingML group (`wpg:wgp`, `wpg:grpSp`) inside the group
/// around it, if any: a top-level group fills the frame.
fn group_space(group: Element<'_>, outer: Option<Group>) -> Group {
    let props = group.elements().find(|c| c.name() == "grpSpPr");
    let xfrm = |name: &str| props.and_then(|p| xfrm_pair(p, name));
    let (ext, ch_ext) = (xfrm("ext"), xfrm("chExt"));
    let ch_off = xfrm("chOff").unwrap_or((0.0, 0.0));
    let (sx, sy) = outer.map_or((1.0, 1.0), |o| o.scale);
    let scale = match (ext, ch_ext) {
        (Some((w, h)), Some((cw, ch))) if w > 0.0 && h > 0.0 && cw > 0.0 && ch > 0.0 => {
            (sx * w / cw, sy * h / ch)
        }
        _ => (sx, sy),
    };
    let origin = match outer {
        Some(o) => o.point(xfrm("off").unwrap_or(o.child_offset)),
        None => (0.0, 0.0),
    };
    Group {
        scale,
        child_offset: ch_off,
        origin,
    }
}

/// A pair of an `a:xfrm` (`a:off`, `a:ext`, `a:chOff`, `a:chExt`) in points (unscaled).
fn xfrm_pair(props: Element<'_>, name: &str) -> Option<(f32, f32)> {
    let e = props.child(Ns::A, "xfrm")?.child(Ns::A, name)?;
    let (x, y) = if name.ends_with("Off") || name == "off" {
        ("x", "y")
    } else {
        ("cx", "cy")
    };
    Some((
        e.attr_local(x).and_then(emu)?,
        e.attr_local(y).and_then(emu)?,
    ))
}

/// The frame of a shape or picture inside a group: its own size and, when the group
/// floats, an anchor moved to its place in the group. Outside groups, `frame` itself.
fn in_group(props: Option<Element<'_>>, frame: &Frame) -> Frame {
    let mut inner = frame.clone();
    let Some(g) = frame.group else {
        return inner;
    };
    let Some(p) = props else {
        return inner;
    };
    if let Some((w, h)) = xfrm_ext(p, "ext") {
        inner.width = w * g.scale.0;
        inner.height = h * g.scale.1;
    }
    if let (Some(a), Some(off)) = (inner.anchor.as_mut(), xfrm_pair(p, "off")) {
        let (dx, dy) = g.point(off);
        // An aligned group keeps its children at its own aligned place.
        if a.align_h.is_none() {
            a.offset_h = Some(a.offset_h.unwrap_or(0.0) + dx);
        }
        if a.align_v.is_none() {
            a.offset_v = Some(a.offset_v.unwrap_or(0.0) + dy);
        }
    }
    inner
}

/// The anchor a group's drawings are walked with: the group's top left, so that their
/// offsets are their places in the group.
fn group_origin() -> Anchor {
    Anchor {
        align_h: None,
        offset_h: Some(0.0),
        share_h: None,
        relative_h: None,
        align_v: None,
        offset_v: Some(0.0),
        share_v: None,
        relative_v: None,
        wrap: "none".to_owned(),
        behind_text: false,
        z_order: None,
        relative_width: None,
        relative_height: None,
    }
}

/// A drawing walked inside a group, its anchor (offsets from the group's top left)
/// turned into its place in the group.
fn group_child(mut inline: Inline) -> GroupChild {
    let anchor = match &mut inline {
        Inline::Image(i) => i.anchor.take(),
        Inline::TextBox(b) => b.anchor.take(),
        Inline::Chart(c) => c.anchor.take(),
        Inline::Diagram(d) => d.anchor.take(),
        Inline::WordArt(w) => w.anchor.take(),
        _ => None,
    };
    let at = |v: Option<f32>| v.filter(|v| v.is_finite()).unwrap_or(0.0);
    GroupChild {
        x: anchor.as_ref().map_or(0.0, |a| at(a.offset_h)),
        y: anchor.as_ref().map_or(0.0, |a| at(a.offset_v)),
        inline,
    }
}

/// A text box's insets (`wps:bodyPr lIns`, `tIns`, `rIns`, `bIns`, EMU) in points, when
/// it gives any; an absent side is Word's default (0.1 in left and right, 0.05 in top
/// and bottom).
fn body_insets(body: Element<'_>) -> Option<[f32; 4]> {
    let names = ["lIns", "tIns", "rIns", "bIns"];
    if names.iter().all(|n| body.attr_local(n).is_none()) {
        return None;
    }
    let defaults = [7.2, 3.6, 7.2, 3.6];
    let mut out = defaults;
    for ((o, n), d) in out.iter_mut().zip(names).zip(defaults) {
        *o = body
            .attr_local(n)
            .and_then(emu)
            .filter(|v| v.is_finite() && *v >= 0.0)
            .map_or(d, |v| v.min(288.0));
    }
    Some(out)
}

/// The rotation of a shape's transform (`a:xfrm rot`, 60,000ths of a degree), when it has one.
fn rotation(props: Element<'_>) -> Option<f32> {
    let rot: f32 = props
        .child(Ns::A, "xfrm")?
        .attr_local("rot")?
        .parse()
        .ok()?;
    let deg = rot / 60_000.0;
    (deg.is_finite() && deg.abs() >= 0.01).then_some(deg)
}

/// The line a connector or line shape draws (`wps:cNvCnPr`, or a `line` or
/// `…Connector…` geometry): its kind, flips and arrowheads.
fn line_of(shape: Element<'_>, props: Option<Element<'_>>, geometry: Option<&str>) -> Option<Line> {
    let g = geometry.unwrap_or("");
    let connector = shape.child(Ns::Wps, "cNvCnPr").is_some();
    // The connector presets (`straightConnector1`, `bentConnector2`…5, `curvedConnector2`…5);
    // `flowChartConnector` is a circle, not one of them.
    let preset_line = g == "line"
        || ["straightConnector", "bentConnector", "curvedConnector"]
            .iter()
            .any(|p| g.starts_with(p));
    if !(connector || preset_line) {
        return None;
    }
    let kind = if g.starts_with("bentConnector") {
        "bent"
    } else if g.starts_with("curvedConnector") {
        "curved"
    } else {
        "straight"
    };
    let xfrm = props.and_then(|p| p.child(Ns::A, "xfrm"));
    let flag = |n: &str| {
        xfrm.and_then(|x| x.attr_local(n))
            .is_some_and(|v| matches!(v, "1" | "true"))
    };
    let ln = props.and_then(|p| p.child(Ns::A, "ln"));
    let arrow = |end: &str| {
        ln.and_then(|l| l.child(Ns::A, end))
            .and_then(|e| e.attr_local("type"))
            .is_some_and(|t| t != "none")
    };
    Some(Line {
        kind: kind.to_owned(),
        flip_h: flag("flipH"),
        flip_v: flag("flipV"),
        head_arrow: arrow("headEnd"),
        tail_arrow: arrow("tailEnd"),
    })
}

/// The colour halfway between two.
fn mean_color(a: &Color, b: &Color) -> Option<Color> {
    let [ar, ag, ab] = a.channels();
    let [br, bg, bb] = b.channels();
    let mid = |x: u8, y: u8| ((u16::from(x) + u16::from(y)) / 2) as u8;
    Some(Color::rgb(mid(ar, br), mid(ag, bg), mid(ab, bb)))
}

/// An extent (`a:ext`, `a:chExt`) of the `a:xfrm` in shape properties, in points; `None`
/// unless both sides are positive.
fn xfrm_ext(props: Element<'_>, name: &str) -> Option<(f32, f32)> {
    let ext = props.child(Ns::A, "xfrm")?.child(Ns::A, name)?;
    let w = ext.attr_local("cx").and_then(emu)?;
    let h = ext.attr_local("cy").and_then(emu)?;
    (w > 0.0 && h > 0.0).then_some((w, h))
}

/// The custom geometry (`a:custGeom`) of shape properties `props`, its guides evaluated
/// at the shape's own extent in its own units (EMU, or a group's child units), which
/// `w` and `h` are in; `size` (points) stands in when the shape has no `a:xfrm`.
/// `None` without a custom geometry or a size to evaluate it at.
fn custom_geometry(props: Element<'_>, size: (f32, f32)) -> Option<Vec<GeomPath>> {
    let geom = props.child(Ns::A, "custGeom")?;
    let ext = props
        .child(Ns::A, "xfrm")
        .and_then(|x| x.child(Ns::A, "ext"));
    let raw = |n: &str| {
        ext.and_then(|e| e.attr_local(n))
            .and_then(|v| v.trim().parse::<f64>().ok())
    };
    let (w, h) = match (raw("cx"), raw("cy")) {
        (Some(w), Some(h)) => (w, h),
        _ => (
            f64::from(size.0) * EMU_PER_POINT,
            f64::from(size.1) * EMU_PER_POINT,
        ),
    };
    let ok = |v: f64| v.is_finite() && v > 0.0;
    if !(ok(w) && ok(h)) {
        return None;
    }
    let paths = crate::office::pptx::geometry::custom_paths(geom, w, h);
    (!paths.is_empty()).then_some(paths)
}

/// A line's width (`a:ln w`, EMU): Word's 0.75 pt when absent, at most 72 pt.
fn line_width(ln: Element<'_>) -> f32 {
    ln.attr_local("w")
        .and_then(emu)
        .filter(|w| w.is_finite() && *w > 0.0)
        .unwrap_or(0.75)
        .min(72.0)
}

/// A shape outline (`a:ln`): none for `a:noFill`, else a solid line of its colour (through
/// `color`, which resolves the fill's colour child) and width; `None` when the line
/// names no colour of its own.
fn outline(ln: Element<'_>, color: impl Fn(Element<'_>) -> Option<Color>) -> Option<Border> {
    if ln.child(Ns::A, "noFill").is_some() {
        return Some(Border {
            style: "none",
            width: 0.0,
            color: None,
            space: 0.0,
            shadow: false,
        });
    }
    let color = ln.child(Ns::A, "solidFill").and_then(color)?;
    Some(Border {
        style: if ln.child(Ns::A, "prstDash").is_some() {
            "dashed"
        } else {
            "single"
        },
        width: line_width(ln),
        color: Some(color),
        space: 0.0,
        shadow: false,
    })
}

/// Extent, alt text and anchoring of a `wp:inline`/`wp:anchor`.
fn frame_of(el: Element<'_>, anchored: bool) -> Frame {
    let extent = el.child(Ns::Wp, "extent");
    let dim = |n: &str| {
        extent
            .and_then(|e| e.attr_local(n))
            .and_then(emu)
            .unwrap_or(0.0)
    };
    let doc_pr = el.child(Ns::Wp, "docPr");
    let alt = doc_pr.and_then(|d| {
        ["descr", "title"]
            .iter()
            .find_map(|n| d.attr_local(n))
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    });
    let anchor = anchored.then(|| {
        let pos = |name: &str, pct: &str| {
            let p = el.child(Ns::Wp, name);
            (
                p.and_then(|p| p.child(Ns::Wp, "align"))
                    .map(|a| a.text().trim().to_owned()),
                p.and_then(|p| p.child(Ns::Wp, "posOffset"))
                    .and_then(|o| emu(&o.text())),
                // Thousandths of a percent of the reference box; the `mc:Choice` that
                // holds it wins over the `wp:posOffset` fallback Word writes beside it.
                p.and_then(|p| p.child(Ns::Wp14, pct))
                    .and_then(|o| o.text().trim().parse::<f32>().ok())
                    .map(|v| v / 100_000.0)
                    .filter(|v| v.is_finite() && v.abs() <= 10.0),
                p.and_then(|p| p.attr_local("relativeFrom"))
                    .map(str::to_owned),
            )
        };
        let (align_h, offset_h, share_h, relative_h) = pos("positionH", "pctPosHOffset");
        let (align_v, offset_v, share_v, relative_v) = pos("positionV", "pctPosVOffset");
        let wrap = el
            .elements()
            .find_map(|c| {
                (c.ns() == Ns::Wp)
                    .then(|| c.name().strip_prefix("wrap"))
                    .flatten()
            })
            .map(|kind| {
                let mut k = kind.to_owned();
                if let Some(first) = k.get_mut(0..1) {
                    first.make_ascii_lowercase();
                }
                k
            })
            .unwrap_or_else(|| "none".to_owned());
        Anchor {
            align_h,
            offset_h,
            share_h,
            relative_h,
            align_v,
            offset_v,
            share_v,
            relative_v,
            wrap,
            behind_text: el
                .attr_local("behindDoc")
                .is_some_and(|v| matches!(v, "1" | "true")),
            z_order: el.attr_local("relativeHeight").and_then(|v| v.parse().ok()),
            relative_width: relative_size(el, "sizeRelH", "pctWidth"),
            relative_height: relative_size(el, "sizeRelV", "pctHeight"),
        }
    });
    Frame {
        width: dim("cx"),
        height: dim("cy"),
        alt,
        anchor,
        ..Frame::default()
    }
}

/// A Word 2010 relative size of anchor `el` (`wp14:sizeRelH` with `wp14:pctWidth`,
/// `wp14:sizeRelV` with `wp14:pctHeight`: thousandths of a percent of `relativeFrom`).
/// Word keeps the stored extent when the share is 0, so a 0 reads as none.
fn relative_size(el: Element<'_>, name: &str, pct: &str) -> Option<RelativeSize> {
    let rel = el.child(Ns::Wp14, name)?;
    let share: f32 = rel.child(Ns::Wp14, pct)?.text().trim().parse().ok()?;
    relative_share(
        rel.attr_local("relativeFrom").unwrap_or("margin"),
        share / 100_000.0,
    )
}

/// A relative size of `fraction` of `from`; `None` for no share or a hostile one (Word
/// caps `pctWidth`/`pctHeight` at 1000 %).
fn relative_share(from: &str, fraction: f32) -> Option<RelativeSize> {
    (fraction.is_finite() && fraction > 0.0).then(|| RelativeSize {
        from: from.to_owned(),
        fraction: fraction.min(10.0),
    })
}

/// Width and height from a VML `style` attribute (`width:186.95pt;height:110.55pt`).
fn vml_size(style: &str) -> Option<(f32, f32)> {
    let mut width = None;
    let mut height = None;
    for decl in style.split(';') {
        let Some((key, value)) = decl.split_once(':') else {
            continue;
        };
        let points = css_length(value.trim());
        match key.trim() {
            "width" => width = points,
            "height" => height = points,
            _ => {}
        }
    }
    Some((width?, height?))
}

/// A CSS length in points (pt, in, cm, mm, px; bare numbers are pixels as in VML).
fn css_length(v: &str) -> Option<f32> {
    let split = v
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .unwrap_or(v.len());
    let (num, unit) = v.split_at(split);
    let n: f32 = num.parse().ok()?;
    let pt = match unit.trim() {
        "pt" => n,
        "in" => n * 72.0,
        "cm" => n * 72.0 / 2.54,
        "mm" => n * 72.0 / 25.4,
        "px" | "" => n * 0.75,
        _ => return None,
    };
    pt.is_finite().then_some(pt)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vml_sizes() {
        assert_eq!(
            vml_size("position:absolute;width:186.95pt;height:110.55pt"),
            Some((186.95, 110.55))
        );
        assert_eq!(vml_size("width:1in;height:2.54cm"), Some((72.0, 72.0)));
        assert_eq!(vml_size("width:auto"), None);
    }
}
