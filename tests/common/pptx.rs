//! PowerPoint decks built in memory for the browser tests: python-pptx's minimal deck
//! (`fixtures/corpus/pptx`, MIT) with one slide added.

use std::io::{Read, Write};

const MINIMAL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/corpus/pptx/python-pptx-minimal.pptx"
);

/// The minimal deck with one slide on its layout whose shape tree holds `shapes`
/// (`p:sp` elements with the `a:` and `p:` namespaces declared).
pub fn deck_with_shapes(shapes: &str) -> Vec<u8> {
    let slide = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>{shapes}</p:spTree></p:cSld></p:sld>"#
    );
    let slide_rels = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slideLayout" Target="../slideLayouts/slideLayout1.xml"/></Relationships>"#;
    let mut input = zip::ZipArchive::new(std::io::Cursor::new(std::fs::read(MINIMAL).unwrap()))
        .expect("the minimal deck");
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    for i in 0..input.len() {
        let mut entry = input.by_index(i).unwrap();
        let name = entry.name().expect("an entry name").to_string();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).unwrap();
        let text = || String::from_utf8(bytes.clone()).unwrap();
        let bytes = match name.as_str() {
            "[Content_Types].xml" => text()
                .replace("</Types>", r#"<Override PartName="/ppt/slides/slide1.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/></Types>"#)
                .into_bytes(),
            "ppt/_rels/presentation.xml.rels" => text()
                .replace("</Relationships>", r#"<Relationship Id="rId99" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide1.xml"/></Relationships>"#)
                .into_bytes(),
            "ppt/presentation.xml" => text()
                .replace("</p:sldMasterIdLst>", r#"</p:sldMasterIdLst><p:sldIdLst><p:sldId id="256" r:id="rId99"/></p:sldIdLst>"#)
                .into_bytes(),
            _ => bytes,
        };
        out.start_file(name, options).unwrap();
        out.write_all(&bytes).unwrap();
    }
    for (name, text) in [
        ("ppt/slides/slide1.xml", slide.as_str()),
        ("ppt/slides/_rels/slide1.xml.rels", slide_rels),
    ] {
        out.start_file(name, options).unwrap();
        out.write_all(text.as_bytes()).unwrap();
    }
    out.finish().unwrap().into_inner()
}
