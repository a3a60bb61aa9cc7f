//! The Office Math (OMML) reader and MathML writer on arbitrary XML.

use previewd::office::math;
use previewd::office::ns::Ns;
use previewd::office::xml::{parse_xml, XmlOptions};

/// One input.
pub fn run(data: &[u8]) {
    let opts = XmlOptions {
        max_depth: 256,
        max_nodes: 100_000,
        understood: &[],
    };
    let Ok(doc) = parse_xml("fuzz.xml", data, &opts) else {
        return;
    };
    let root = doc.root();
    for el in std::iter::once(root).chain(root.descendants()) {
        if el.ns() == Ns::M {
            let eq = math::parse(el);
            let html = eq.to_mathml();
            assert!(!html.contains("<script"));
            let _ = eq.text();
        }
    }
}
