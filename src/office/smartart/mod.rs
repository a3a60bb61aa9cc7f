//! SmartArt (DrawingML diagrams) for both Office renderers.
//!
//! A SmartArt graphic is stored as a data model (`dgm:dataModel`: the text nodes and how
//! they connect) plus, when Office saved it, a drawing part (`dsp:drawing`: the shapes
//! Office laid out). Office's own layout engine is not reimplemented here. When the
//! drawing part is there, its shapes are read ([`parse::drawing`]); when it is missing, the
//! data model's text nodes are laid out as simple list or hierarchy boxes
//! ([`layout::layout`]) so the area shows the diagram's content instead of a blank box.
//! [`render::svg`] draws either result as one inline SVG (the DOCX renderer); the PPTX
//! parser turns the laid-out boxes into its own shapes ([`pptx::shapes`]).

pub mod color;
pub mod layout;
pub mod model;
pub mod parse;
pub mod pptx;
pub mod render;

pub use model::{Diagram, DiagramShape, Node, Source};

/// Relationship type of a diagram's drawing part, written by Office 2007 and later.
pub const DIAGRAM_DRAWING_REL: &str =
    "http://schemas.microsoft.com/office/2007/relationships/diagramDrawing";

/// The drawing part that belongs to the data part `data_part`, given the host part's
/// relationships: the data part's `dsp:dataModelExt/@relId` names it; without that, the
/// host's only `diagramDrawing` relationship, or the one whose file number matches the
/// data part's (`data2.xml` ↔ `drawing2.xml`).
pub fn drawing_part(
    data_root: crate::office::xml::Element<'_>,
    data_part: &str,
    rels: &crate::office::Relationships,
) -> Option<String> {
    use crate::office::RelTarget;
    let target = |r: &crate::office::Relationship| match &r.target {
        RelTarget::Part(p) => Some(p.clone()),
        _ => None,
    };
    if let Some(part) = data_root
        .descendants()
        .find(|e| e.name() == "dataModelExt")
        .and_then(|e| e.attr_local("relId"))
        .and_then(|id| rels.get(id))
        .and_then(target)
    {
        return Some(part);
    }
    let drawings: Vec<String> = rels
        .iter()
        .filter(|r| r.rel_type == DIAGRAM_DRAWING_REL)
        .filter_map(target)
        .collect();
    if drawings.len() == 1 {
        return drawings.into_iter().next();
    }
    let number = |p: &str| -> String {
        let file = p.rsplit('/').next().unwrap_or(p);
        file.chars().filter(char::is_ascii_digit).collect()
    };
    let want = number(data_part);
    if want.is_empty() {
        return None;
    }
    drawings.into_iter().find(|d| number(d) == want)
}

#[cfg(test)]
mod tests;
