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

use super::model::{
    Anchor, Border, ChartFrame, Color, Image, ImageSource, Inline, Placeholder, TextBox,
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
    /// Points per child unit inside a group (`wpg:wgp`), `None` outside groups: a group's
    /// shapes are sized in its own coordinate space (`a:chExt` against `a:ext`).
    group_scale: Option<(f32, f32)>,
    /// Fill and outline of the shape around a text box (`wps:spPr`).
    fill: Option<Color>,
    outline: Option<Border>,
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
                    // A picture inside a group carries its own size, in group units.
                    let (w, h) = match (shape_size(c), frame.group_scale) {
                        (Some((w, h)), Some((sx, sy))) => (w * sx, h * sy),
                        (Some(size), None) => size,
                        (None, _) => (frame.width, frame.height),
                    };
                    let source = match blip {
                        Some(b) => self.blip_source(b),
                        None => ImageSource::Missing {
                            target: String::new(),
                        },
                    };
                    out.push(Inline::Image(Image {
                        source,
                        width: w,
                        height: h,
                        alt: frame.alt.clone(),
                        anchor: frame.anchor.clone(),
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
                        outline: frame.outline.clone(),
                        blocks,
                    }));
                }
                (Ns::C, "chart") => out.push(self.chart(c, frame)),
                (Ns::Dgm, "relIds") => out.push(self.diagram(c, frame.width, frame.height)),
                (Ns::Wpg, "wgp" | "grpSp") => {
                    let inner = Frame {
                        group_scale: Some(group_scale(c, frame.group_scale)),
                        ..frame.clone()
                    };
                    self.graphic_content(c, &inner, out);
                }
                (Ns::Wps, "wsp") => {
                    // Its text box has the shape's fill and outline and, in a group,
                    // the shape's own size.
                    let props = c.child(Ns::Wps, "spPr");
                    let mut inner = frame.clone();
                    if let (Some((w, h)), Some((sx, sy))) =
                        (props.and_then(|p| xfrm_ext(p, "ext")), frame.group_scale)
                    {
                        inner.width = w * sx;
                        inner.height = h * sy;
                    }
                    inner.fill = props
                        .and_then(|p| p.child(Ns::A, "solidFill"))
                        .and_then(rgb);
                    inner.outline = props.and_then(|p| p.child(Ns::A, "ln")).and_then(outline);
                    self.graphic_content(c, &inner, out);
                }
                _ => self.graphic_content(c, frame, out),
            }
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

    /// VML content (`w:pict`, `w:object`): image data and text boxes.
    pub(super) fn vml(&mut self, el: Element<'_>) -> Vec<Inline> {
        let mut out = Vec::new();
        self.vml_content(el, None, &mut out);
        out
    }

    fn vml_content(&mut self, el: Element<'_>, size: Option<(f32, f32)>, out: &mut Vec<Inline>) {
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
                        anchor: None,
                    }));
                }
                (Ns::W, "txbxContent") => {
                    let mut blocks = Vec::new();
                    self.blocks(c, &mut blocks, None);
                    out.push(Inline::TextBox(TextBox {
                        width: size.map(|s| s.0).filter(|w| *w > 0.0),
                        height: size.map(|s| s.1).filter(|h| *h > 0.0),
                        anchor: None,
                        fill: None,
                        outline: None,
                        blocks,
                    }));
                }
                (Ns::V, "group") => {
                    let size = c.attr(Ns::None, "style").and_then(vml_size).or(size);
                    self.vml_group(c, size, out);
                }
                (Ns::V, _) => {
                    let size = c.attr(Ns::None, "style").and_then(vml_size).or(size);
                    self.vml_content(c, size, out);
                }
                _ => self.vml_content(c, size, out),
            }
        }
    }
}

impl Parser<'_, '_> {
    /// A `v:group` of `size` points: its shapes give their sizes in the group's own
    /// units (`coordsize`, 1000×1000 when absent), spread over the group's size.
    fn vml_group(&mut self, group: Element<'_>, size: Option<(f32, f32)>, out: &mut Vec<Inline>) {
        let Some((w, h)) = size else {
            self.vml_content(group, None, out);
            return;
        };
        let (cw, ch) = group
            .attr(Ns::None, "coordsize")
            .and_then(|v| v.split_once(','))
            .and_then(|(a, b)| Some((a.trim().parse::<f32>().ok()?, b.trim().parse::<f32>().ok()?)))
            .filter(|(a, b)| a.is_finite() && b.is_finite() && *a > 0.0 && *b > 0.0)
            .unwrap_or((1000.0, 1000.0));
        let scale = (w / cw, h / ch);
        for c in group.elements() {
            let size = c
                .attr(Ns::None, "style")
                .and_then(|s| vml_group_size(s, scale));
            if c.is(Ns::V, "group") {
                self.vml_group(c, size, out);
            } else {
                self.vml_content(c, size, out);
            }
        }
    }
}

/// Width and height of a shape inside a VML group: bare numbers are group units, scaled
/// by `scale` (points per unit); lengths with a unit are taken as they are.
fn vml_group_size(style: &str, scale: (f32, f32)) -> Option<(f32, f32)> {
    let mut width = None;
    let mut height = None;
    for decl in style.split(';') {
        let Some((key, value)) = decl.split_once(':') else {
            continue;
        };
        let value = value.trim();
        let length = |per_unit: f32| match value.parse::<f32>() {
            Ok(n) if n.is_finite() => Some(n * per_unit),
            _ => css_length(value),
        };
        match key.trim() {
            "width" => width = length(scale.0),
            "height" => height = length(scale.1),
            _ => {}
        }
    }
    Some((width?, height?))
}

/// Points per child unit inside a DrawingML group (`a:ext` over `a:chExt` of its
/// `grpSpPr`), given the scale of the group around it.
fn group_scale(group: Element<'_>, outer: Option<(f32, f32)>) -> (f32, f32) {
    let (ox, oy) = outer.unwrap_or((1.0, 1.0));
    let props = group.elements().find(|c| c.name() == "grpSpPr");
    let ratio = props.and_then(|p| Some((xfrm_ext(p, "ext")?, xfrm_ext(p, "chExt")?)));
    match ratio {
        Some(((w, h), (cw, ch))) => (ox * w / cw, oy * h / ch),
        None => (ox, oy),
    }
}

/// An extent (`a:ext`, `a:chExt`) of the `a:xfrm` in shape properties, in points; `None`
/// unless both sides are positive.
fn xfrm_ext(props: Element<'_>, name: &str) -> Option<(f32, f32)> {
    let ext = props.child(Ns::A, "xfrm")?.child(Ns::A, name)?;
    let w = ext.attr_local("cx").and_then(emu)?;
    let h = ext.attr_local("cy").and_then(emu)?;
    (w > 0.0 && h > 0.0).then_some((w, h))
}

/// The colour of a fill given as `a:srgbClr` (scheme colours are not resolved here).
fn rgb(fill: Element<'_>) -> Option<Color> {
    Color::from_hex(fill.child(Ns::A, "srgbClr")?.attr_local("val")?)
}

/// A shape outline (`a:ln`): none for `a:noFill`, else a solid line of its RGB colour
/// and width (EMU; Word's 0.75 pt when absent).
fn outline(ln: Element<'_>) -> Option<Border> {
    if ln.child(Ns::A, "noFill").is_some() {
        return Some(Border {
            style: "none",
            width: 0.0,
            color: None,
        });
    }
    let color = ln.child(Ns::A, "solidFill").and_then(rgb)?;
    let width = ln
        .attr_local("w")
        .and_then(emu)
        .filter(|w| w.is_finite() && *w > 0.0)
        .unwrap_or(0.75)
        .min(72.0);
    Some(Border {
        style: if ln.child(Ns::A, "prstDash").is_some() {
            "dashed"
        } else {
            "single"
        },
        width,
        color: Some(color),
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
        let pos = |name: &str| {
            let p = el.child(Ns::Wp, name);
            (
                p.and_then(|p| p.child(Ns::Wp, "align"))
                    .map(|a| a.text().trim().to_owned()),
                p.and_then(|p| p.child(Ns::Wp, "posOffset"))
                    .and_then(|o| emu(&o.text())),
                p.and_then(|p| p.attr_local("relativeFrom"))
                    .map(str::to_owned),
            )
        };
        let (align_h, offset_h, relative_h) = pos("positionH");
        let (align_v, offset_v, relative_v) = pos("positionV");
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
            relative_h,
            align_v,
            offset_v,
            relative_v,
            wrap,
            behind_text: el
                .attr_local("behindDoc")
                .is_some_and(|v| matches!(v, "1" | "true")),
        }
    });
    Frame {
        width: dim("cx"),
        height: dim("cy"),
        alt,
        anchor,
        group_scale: None,
        fill: None,
        outline: None,
    }
}

/// The `a:ext` of a shape's own transform, in points.
fn shape_size(el: Element<'_>) -> Option<(f32, f32)> {
    xfrm_ext(el.child(Ns::Pic, "spPr")?, "ext")
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
