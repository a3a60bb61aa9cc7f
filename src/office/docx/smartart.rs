//! The DOCX side of SmartArt (`dgm:relIds` in a drawing): the diagram's drawing part
//! when Word saved one, else previewd's layout of its data model (`crate::office::smartart`),
//! else the labelled placeholder.

use crate::office::smartart::{self, Diagram, Source};
use crate::office::xml::Element;
use crate::office::{Ns, RelTarget};

use super::model::{Anchor, DiagramFrame, Inline, Placeholder};
use super::parse::{Parser, UNDERSTOOD};

impl Parser<'_, '_> {
    /// A SmartArt graphic of `width` × `height` points, floating as `anchor` says.
    pub(super) fn diagram(
        &mut self,
        ids: Element<'_>,
        width: f32,
        height: f32,
        anchor: Option<Anchor>,
    ) -> Inline {
        self.diagram_of(ids, f64::from(width), f64::from(height))
            .map_or_else(
                || {
                    Inline::Placeholder(Placeholder {
                        kind: "diagram".to_owned(),
                        label: "Diagram (SmartArt)".to_owned(),
                    })
                },
                |diagram| Inline::Diagram(DiagramFrame { diagram, anchor }),
            )
    }

    fn diagram_of(&mut self, ids: Element<'_>, width: f64, height: f64) -> Option<Diagram> {
        if !(width > 1.0 && height > 1.0) {
            return None;
        }
        let part = |id: Option<&str>| match id.and_then(|id| self.rels.get(id)).map(|r| &r.target) {
            Some(RelTarget::Part(p)) => self.package.canonical_name(p).map(str::to_owned),
            _ => None,
        };
        let data_part = part(ids.attr(Ns::R, "dm"))?;
        // A damaged or over-limit part leaves the placeholder; the rest of the document
        // is unaffected.
        let data = self.package.read_xml(&data_part, UNDERSTOOD).ok()?;
        let colors = &self.colors;
        let scheme = |slot: &str| colors.scheme_rgb(slot);
        let drawing = smartart::drawing_part(data.root(), &data_part, &self.rels)
            .and_then(|p| self.package.canonical_name(&p).map(str::to_owned))
            .and_then(|p| self.package.read_xml(&p, UNDERSTOOD).ok());
        if let Some(doc) = drawing {
            let shapes = smartart::parse::drawing(doc.root(), &scheme);
            if !shapes.is_empty() {
                return Some(Diagram {
                    width,
                    height,
                    source: Source::Drawing,
                    shapes,
                });
            }
        }
        let accent = scheme("accent1").unwrap_or([0x44, 0x72, 0xC4]);
        let shapes = smartart::layout::layout(
            &smartart::parse::data_tree(data.root()),
            width,
            height,
            accent,
        );
        (!shapes.is_empty()).then_some(Diagram {
            width,
            height,
            source: Source::Layout,
            shapes,
        })
    }
}
