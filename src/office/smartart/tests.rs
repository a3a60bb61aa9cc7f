//! SmartArt: real files from the corpus (drawing part present, and removed), and hostile
//! parts (cycles, floods, absurd numbers, markup in text).

use std::io::{Cursor, Read, Write};

use crate::office::docx::model::{Block, Inline};
use crate::office::pptx::model::ShapeKind;
use crate::office::xml::{parse_xml, XmlOptions};
use crate::office::{OfficeLimits, Relationships};

use super::model::{Diagram, Source};
use super::{drawing_part, layout, parse, render};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures");

fn xml(text: &str) -> crate::office::xml::XmlDoc {
    let opts = XmlOptions {
        max_depth: 256,
        max_nodes: 2_000_000,
        understood: &[],
    };
    parse_xml("test.xml", text.as_bytes(), &opts).expect("xml")
}

const DGM: &str = r#"xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main""#;

fn pt(id: &str, text: &str) -> String {
    format!(
        r#"<dgm:pt modelId="{id}"><dgm:t><a:p><a:r><a:t>{text}</a:t></a:r></a:p></dgm:t></dgm:pt>"#
    )
}

fn cxn(src: &str, dest: &str, ord: u32) -> String {
    format!(r#"<dgm:cxn modelId="c{src}{dest}" srcId="{src}" destId="{dest}" srcOrd="{ord}"/>"#)
}

/// The inlines of every paragraph of a document, flattened.
fn inlines(blocks: &[Block]) -> Vec<Inline> {
    let mut out = Vec::new();
    for b in blocks {
        if let Block::Paragraph(p) = b {
            out.extend(p.inlines.iter().cloned());
        }
    }
    out
}

#[test]
fn data_tree_follows_par_of_connections_in_source_order() {
    let doc = xml(&format!(
        r#"<dgm:dataModel {DGM}><dgm:ptLst><dgm:pt modelId="d" type="doc"/>{}{}{}{}<dgm:pt modelId="s" type="sibTrans"/></dgm:ptLst><dgm:cxnLst>{}{}{}{}<dgm:cxn modelId="x" type="presOf" srcId="a" destId="c"/></dgm:cxnLst></dgm:dataModel>"#,
        pt("a", "Top"),
        pt("b", "Second"),
        pt("c", "Child of top"),
        pt("e", "Child two"),
        cxn("d", "b", 1),
        cxn("d", "a", 0),
        cxn("a", "e", 1),
        cxn("a", "c", 0),
    ));
    let tree = parse::data_tree(doc.root());
    assert_eq!(tree.len(), 2);
    assert_eq!(tree[0].text, "Top");
    assert_eq!(tree[1].text, "Second");
    let kids: Vec<&str> = tree[0].children.iter().map(|n| n.text.as_str()).collect();
    assert_eq!(kids, ["Child of top", "Child two"]);
    assert_eq!(tree[0].depth(), 2);
}

#[test]
fn cycles_and_floods_give_a_bounded_tree() {
    // a → b → a, plus a self loop: each node is kept once.
    let doc = xml(&format!(
        r#"<dgm:dataModel {DGM}><dgm:ptLst><dgm:pt modelId="d" type="doc"/>{}{}</dgm:ptLst><dgm:cxnLst>{}{}{}{}</dgm:cxnLst></dgm:dataModel>"#,
        pt("a", "A"),
        pt("b", "B"),
        cxn("d", "a", 0),
        cxn("a", "b", 0),
        cxn("b", "a", 0),
        cxn("b", "b", 1),
    ));
    let tree = parse::data_tree(doc.root());
    assert_eq!(tree.len(), 1);
    assert_eq!(tree[0].children.len(), 1);
    assert!(tree[0].children[0].children.is_empty());

    // 20 000 nodes under the document point, and a chain 1 000 deep.
    let mut pts = String::from(r#"<dgm:pt modelId="d" type="doc"/>"#);
    let mut cxns = String::new();
    for i in 0..20_000 {
        pts.push_str(&pt(&format!("n{i}"), "x"));
        cxns.push_str(&cxn(
            if i < 1_000 && i > 0 { "n0" } else { "d" },
            &format!("n{i}"),
            i,
        ));
    }
    for i in 1..1_000 {
        cxns.push_str(&cxn(&format!("n{}", i - 1), &format!("n{i}"), 0));
    }
    let doc = xml(&format!(
        r#"<dgm:dataModel {DGM}><dgm:ptLst>{pts}</dgm:ptLst><dgm:cxnLst>{cxns}</dgm:cxnLst></dgm:dataModel>"#
    ));
    let tree = parse::data_tree(doc.root());
    fn count(n: &[super::Node]) -> usize {
        n.iter().map(|n| 1 + count(&n.children)).sum()
    }
    assert!(count(&tree) <= parse::MAX_NODES, "{}", count(&tree));
    assert!(tree.iter().map(super::Node::depth).max().unwrap() <= parse::MAX_DEPTH + 1);
    // The layout of that flood stays inside its frame.
    for s in layout::layout(&tree, 400.0, 300.0, [0x44, 0x72, 0xC4]) {
        assert!(
            s.x >= 0.0 && s.y >= 0.0 && s.x + s.width <= 400.01 && s.y + s.height <= 300.01,
            "{s:?}"
        );
    }
}

#[test]
fn hostile_drawing_numbers_and_text_stay_finite_and_escaped() {
    let doc = xml(&format!(
        r#"<dsp:drawing xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" {DGM}><dsp:spTree>
        <dsp:sp><dsp:spPr><a:xfrm rot="NaN"><a:off x="1e400" y="-5"/><a:ext cx="-100" cy="9e300"/></a:xfrm><a:prstGeom prst="roundRect&quot;/&gt;"/><a:solidFill><a:srgbClr val="ZZZZZZ"/></a:solidFill></dsp:spPr>
        <dsp:txBody><a:p><a:r><a:rPr sz="-4"/><a:t>&lt;script&gt;alert(1)&lt;/script&gt; &amp; "q"</a:t></a:r></a:p></dsp:txBody></dsp:sp>
        <dsp:sp><dsp:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="12700" cy="12700"/></a:xfrm><a:prstGeom prst="blockArc"/></dsp:spPr></dsp:sp>
        <dsp:sp><dsp:nvSpPr/></dsp:sp>
        </dsp:spTree></dsp:drawing>"#
    ));
    let shapes = parse::drawing(doc.root(), &|_| None);
    // The shape without spPr is skipped; the others are kept, sizes clamped.
    assert_eq!(shapes.len(), 2);
    let s = &shapes[0];
    assert!(
        s.x.is_finite() && s.height.is_finite() && s.width == 0.0,
        "{s:?}"
    );
    assert_eq!(s.geometry, "rect", "an odd preset name is not kept");
    assert_eq!(s.font_size, 12.0);
    let svg = render::svg(&Diagram {
        width: 100.0,
        height: 50.0,
        source: Source::Drawing,
        shapes,
    });
    assert!(!svg.contains("<script"), "{svg}");
    assert!(svg.contains("&lt;script&gt;"), "{svg}");
    assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
    // blockArc without text is not drawn as a box.
    assert_eq!(svg.matches("<path").count(), 1, "{svg}");
}

#[test]
fn scheme_colours_take_their_transforms() {
    let doc = xml(
        r#"<a:solidFill xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:schemeClr val="accent1"><a:lumMod val="50000"/><a:alpha val="40000"/></a:schemeClr></a:solidFill>"#,
    );
    let paint = super::color::child_paint(doc.root(), &|s| {
        (s == "accent1").then_some([0x44, 0x72, 0xC4])
    })
    .unwrap();
    // Office shows #1F3864 ("Accent 1, darker 50 %"); HSL rounding may differ by one.
    let near = paint
        .rgb
        .iter()
        .zip([0x1f_u8, 0x38, 0x64])
        .all(|(a, b)| a.abs_diff(b) <= 1);
    assert!(near, "{}", paint.hex());
    assert!((paint.alpha - 0.4).abs() < 1e-9);
    let doc = xml(
        r#"<a:solidFill xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:schemeClr val="bg1"/></a:solidFill>"#,
    );
    let lt1 = super::color::child_paint(doc.root(), &|s| (s == "lt1").then_some([255, 255, 255]));
    assert_eq!(lt1.unwrap().hex(), "#ffffff");
}

#[test]
fn the_drawing_part_is_found_without_data_model_ext() {
    let rels_xml = |targets: &[&str]| {
        let items: String = targets
            .iter()
            .enumerate()
            .map(|(i, t)| {
                format!(
                    r#"<Relationship Id="rId{i}" Type="{}" Target="{t}"/>"#,
                    super::DIAGRAM_DRAWING_REL
                )
            })
            .collect();
        xml(&format!(
            r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{items}</Relationships>"#
        ))
    };
    let data = xml(&format!(r#"<dgm:dataModel {DGM}/>"#));
    let one = rels_xml(&["../diagrams/drawing7.xml"]);
    let rels = Relationships::from_xml("ppt/slides/slide1.xml", one.root());
    assert_eq!(
        drawing_part(data.root(), "ppt/diagrams/data2.xml", &rels).as_deref(),
        Some("ppt/diagrams/drawing7.xml")
    );
    let two = rels_xml(&["../diagrams/drawing1.xml", "../diagrams/drawing2.xml"]);
    let rels = Relationships::from_xml("ppt/slides/slide1.xml", two.root());
    assert_eq!(
        drawing_part(data.root(), "ppt/diagrams/data2.xml", &rels).as_deref(),
        Some("ppt/diagrams/drawing2.xml")
    );
    assert_eq!(
        drawing_part(data.root(), "ppt/diagrams/data9.xml", &rels),
        None
    );
}

#[test]
fn a_word_smartart_is_drawn_from_its_drawing_part() {
    let bytes = std::fs::read(format!("{FIXTURES}/docx/powertools-SmartArt.docx")).unwrap();
    let doc = crate::office::docx::parse_docx(&bytes, &OfficeLimits::default()).unwrap();
    let blocks: Vec<Block> = doc
        .sections
        .iter()
        .flat_map(|s| s.blocks.iter().cloned())
        .collect();
    let diagrams: Vec<Diagram> = inlines(&blocks)
        .into_iter()
        .filter_map(|i| match i {
            Inline::Diagram(d) => Some(d.diagram),
            _ => None,
        })
        .collect();
    assert_eq!(diagrams.len(), 1);
    let d = &diagrams[0];
    assert_eq!(d.source, Source::Drawing);
    assert_eq!((d.width, d.height), (432.0, 252.0));
    let texts: Vec<&str> = d
        .shapes
        .iter()
        .flat_map(|s| &s.text)
        .map(String::as_str)
        .collect();
    assert_eq!(texts, ["Item 1", "Item 2", "Item 3"]);
    // The item boxes are filled with the theme's accent 1 (this theme's is #5B9BD5).
    let item = d.shapes.iter().find(|s| s.text == ["Item 1"]).unwrap();
    assert_eq!(item.fill.unwrap().hex(), "#5b9bd5");
    let html = crate::office::docx::render::render_html(&doc, &Default::default());
    assert!(
        html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"smartart\""),
        "drawn, not a placeholder"
    );
    assert!(!html.contains("docx-placeholder"));
}

/// A copy of the zip `bytes` without the entries `drop` names.
fn without(bytes: &[u8], drop: &[&str]) -> Vec<u8> {
    let mut zin = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    let mut zout = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for i in 0..zin.len() {
        let mut f = zin.by_index(i).unwrap();
        let name = f.name().unwrap().into_owned();
        if drop.contains(&name.as_str()) {
            continue;
        }
        let mut data = Vec::new();
        f.read_to_end(&mut data).unwrap();
        zout.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        zout.write_all(&data).unwrap();
    }
    zout.finish().unwrap().into_inner()
}

#[test]
fn a_deck_without_the_drawing_part_gets_hierarchy_boxes() {
    let bytes = std::fs::read(format!("{FIXTURES}/pptx/tika-testPPT_diagramData.pptx")).unwrap();
    let limits = OfficeLimits::default();
    let group = |bytes: &[u8]| {
        let deck = crate::office::pptx::parse_pptx(bytes, &limits).unwrap();
        let shape = deck.slides[0]
            .shapes
            .iter()
            .find(|s| matches!(&s.kind, ShapeKind::Group(_)))
            .cloned()
            .expect("the SmartArt is a group of shapes");
        (
            shape.frame,
            match shape.kind {
                ShapeKind::Group(g) => g.children,
                _ => unreachable!(),
            },
        )
    };
    // With Office's drawing part: its shapes.
    let (_, drawn) = group(&bytes);
    assert!(!drawn.is_empty());
    // Without it: previewd's boxes, one per text node, the org chart's levels as rows.
    let (frame, boxes) = group(&without(&bytes, &["ppt/diagrams/drawing1.xml"]));
    let text = |s: &crate::office::pptx::model::Shape| match &s.kind {
        ShapeKind::Shape(a) => a.text.as_ref().unwrap().paragraphs[0].runs[0].text.clone(),
        _ => String::new(),
    };
    let texts: Vec<String> = boxes.iter().map(text).collect();
    assert_eq!(
        texts,
        [
            "President",
            "VP – HR",
            "Manager 1",
            "VP - Marketing",
            "Manager 1"
        ]
    );
    let top = &boxes[0].frame;
    let vp = &boxes[1].frame;
    let manager = &boxes[2].frame;
    assert!(top.y < vp.y && vp.y < manager.y, "a row per level");
    assert!(top.width > vp.width, "the president spans both VPs");
    for b in &boxes {
        let f = &b.frame;
        assert!(
            f.x >= frame.x
                && f.y >= frame.y
                && f.x + f.width <= frame.x + frame.width + 1
                && f.y + f.height <= frame.y + frame.height + 1,
            "{f:?} in {frame:?}"
        );
    }
}

#[test]
fn a_flat_list_is_a_column_or_a_short_row() {
    let nodes: Vec<super::Node> = ["One", "Two", "Three"]
        .iter()
        .map(|t| super::Node {
            text: (*t).to_owned(),
            children: Vec::new(),
        })
        .collect();
    let wide = layout::layout(&nodes, 600.0, 200.0, [0, 0, 0]);
    assert!(
        wide.windows(2).all(|w| w[0].x < w[1].x && w[0].y == w[1].y),
        "a row: {wide:?}"
    );
    let tall = layout::layout(&nodes, 200.0, 600.0, [0, 0, 0]);
    assert!(
        tall.windows(2).all(|w| w[0].y < w[1].y && w[0].x == w[1].x),
        "a column: {tall:?}"
    );
    assert!(layout::layout(&nodes, f64::NAN, 10.0, [0, 0, 0]).is_empty());
    assert!(layout::layout(&[], 100.0, 100.0, [0, 0, 0]).is_empty());
    assert!(layout::fit("a very long label that needs many lines", 40.0, 20.0) >= 6.0);
}

#[test]
fn turned_shapes_keep_upright_text_and_style_placeholders_paint_nothing() {
    // As Word saves a picture-accent list: the text box turned by 180°, a picture fill and
    // the style's placeholder colours (scrgbClr 0 0 0).
    let doc = xml(&format!(
        r#"<dsp:drawing xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" {DGM}><dsp:spTree>
        <dsp:sp><dsp:spPr><a:xfrm rot="10800000"><a:off x="0" y="0"/><a:ext cx="254000" cy="127000"/></a:xfrm><a:prstGeom prst="roundRect"/><a:solidFill><a:srgbClr val="5B9BD5"/></a:solidFill></dsp:spPr>
        <dsp:style><a:lnRef idx="2"><a:scrgbClr r="0" g="0" b="0"/></a:lnRef><a:fillRef idx="1"><a:scrgbClr r="0" g="0" b="0"/></a:fillRef><a:effectRef idx="0"><a:scrgbClr r="0" g="0" b="0"/></a:effectRef><a:fontRef idx="minor"><a:srgbClr val="FFFFFF"/></a:fontRef></dsp:style>
        <dsp:txBody><a:p><a:r><a:t>Crusty</a:t></a:r></a:p></dsp:txBody></dsp:sp>
        <dsp:sp><dsp:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="127000" cy="127000"/></a:xfrm><a:prstGeom prst="roundRect"/><a:blipFill><a:blip/></a:blipFill></dsp:spPr>
        <dsp:style><a:lnRef idx="2"><a:scrgbClr r="0" g="0" b="0"/></a:lnRef><a:fillRef idx="1"><a:scrgbClr r="0" g="0" b="0"/></a:fillRef><a:effectRef idx="0"><a:scrgbClr r="0" g="0" b="0"/></a:effectRef><a:fontRef idx="minor"/></dsp:style></dsp:sp>
        </dsp:spTree></dsp:drawing>"#
    ));
    let shapes = parse::drawing(doc.root(), &|_| None);
    assert_eq!(shapes[0].rotation, 180.0);
    assert_eq!(
        shapes[0].text_color.hex(),
        "#ffffff",
        "the font reference's colour"
    );
    assert_eq!(shapes[1].fill, None, "no black box for a picture fill");
    assert_eq!(shapes[1].line, None);
    let svg = render::svg(&Diagram {
        width: 20.0,
        height: 10.0,
        source: Source::Drawing,
        shapes,
    });
    let turned = svg.find("rotate(180").unwrap();
    let group_end = turned + svg[turned..].find("</g>").unwrap();
    let text = svg.find("<div>Crusty").unwrap();
    assert!(
        text > group_end,
        "the text is outside the turned group: {svg}"
    );
}

/// The text of a drawing shape keeps the body's own insets (Word writes 3.3 pt in a
/// 51 pt box, where "Imperdiet" at 11 pt just fits); a body that names none gets
/// DrawingML's defaults.
#[test]
fn a_shapes_text_keeps_its_bodys_insets() {
    let doc = xml(&format!(
        r#"<dsp:drawing xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" {DGM}><dsp:spTree>
        <dsp:sp><dsp:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="650279" cy="390167"/></a:xfrm><a:prstGeom prst="rect"/></dsp:spPr>
        <dsp:txBody><a:bodyPr lIns="41910" tIns="12700" rIns="41910" bIns="0"/><a:p><a:r><a:rPr sz="1100"/><a:t>Imperdiet</a:t></a:r></a:p></dsp:txBody></dsp:sp>
        <dsp:sp><dsp:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="650279" cy="390167"/></a:xfrm><a:prstGeom prst="rect"/></dsp:spPr>
        <dsp:txBody><a:bodyPr/><a:p><a:r><a:t>Libero</a:t></a:r></a:p></dsp:txBody></dsp:sp>
        </dsp:spTree></dsp:drawing>"#
    ));
    let shapes = parse::drawing(doc.root(), &|_| None);
    assert_eq!(shapes[0].insets, [3.3, 1.0, 3.3, 0.0]);
    assert_eq!(shapes[1].insets, super::model::DEFAULT_INSETS);
    let svg = render::svg(&Diagram {
        width: 60.0,
        height: 40.0,
        source: Source::Drawing,
        shapes,
    });
    assert!(svg.contains("padding:1px 3.3px 0px 3.3px;"), "{svg}");
    assert!(svg.contains("padding:3.6px 7.2px 3.6px 7.2px;"), "{svg}");
}
