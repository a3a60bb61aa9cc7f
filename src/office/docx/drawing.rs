//! Pictures, text boxes and other drawing objects: DrawingML (`w:drawing`) and the older
//! VML (`w:pict`, `w:object`).
//!
//! Pictures resolve their relationship to a media part, whose header is sniffed (format,
//! pixel size, the pixel cap); linked pictures (`r:link`, external targets) are kept as a
//! named link that is never fetched. Text boxes become blocks of their own. Charts and
//! diagrams are labelled placeholders.

use crate::office::relationships::RelTarget;
use crate::office::xml::Element;
use crate::office::{Ns, OfficeErrorKind};

use super::model::{Anchor, Image, ImageSource, Inline, Placeholder, TextBox};
use super::parse::Parser;
use super::props::emu;

/// Size and placement shared by everything inside one `wp:inline`/`wp:anchor`.
#[derive(Debug, Clone, Default)]
struct Frame {
    width: f32,
    height: f32,
    alt: Option<String>,
    anchor: Option<Anchor>,
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
                    // A picture inside a group carries its own size.
                    let (w, h) = shape_size(c).unwrap_or((frame.width, frame.height));
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
                        blocks,
                    }));
                }
                (Ns::C, "chart") => out.push(Inline::Placeholder(Placeholder {
                    kind: "chart".to_owned(),
                    label: frame
                        .alt
                        .clone()
                        .map_or_else(|| "Chart".to_owned(), |a| format!("Chart: {a}")),
                })),
                (Ns::Dgm, "relIds") => out.push(self.diagram(c, frame.width, frame.height)),
                _ => self.graphic_content(c, frame, out),
            }
        }
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
                        blocks,
                    }));
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
    }
}

/// The `a:ext` of a shape's own transform, in points.
fn shape_size(el: Element<'_>) -> Option<(f32, f32)> {
    let ext = el
        .child(Ns::Pic, "spPr")
        .and_then(|s| s.child(Ns::A, "xfrm"))
        .and_then(|x| x.child(Ns::A, "ext"))?;
    let w = ext.attr_local("cx").and_then(emu)?;
    let h = ext.attr_local("cy").and_then(emu)?;
    (w > 0.0 && h > 0.0).then_some((w, h))
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
