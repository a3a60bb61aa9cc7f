//! Groups of drawings (issue #15): a DrawingML group (`wpg:wgp`) or a VML group
//! (`v:group`) is one box of its extent, its drawings placed inside it in the group's
//! own coordinate space (`a:chOff`/`a:chExt`, `coordorigin`/`coordsize`), not in points.
//! The real file is ONLYOFFICE's sample letter; its layout in Chromium is measured by
//! `tests/browser_docx_layout.rs`.

use super::support::DocxFixture;
use crate::office::docx::model::{Block, Document, Inline, ShapeGroup, TextBox};
use crate::office::docx::{parse_docx, render_html, RenderOptions};
use crate::office::OfficeLimits;

const SAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/docx/onlyoffice-sample.docx"
);

fn groups(doc: &Document) -> Vec<&ShapeGroup> {
    fn walk<'d>(inlines: &'d [Inline], out: &mut Vec<&'d ShapeGroup>) {
        for i in inlines {
            match i {
                Inline::Group(g) => out.push(g),
                Inline::Hyperlink { children, .. }
                | Inline::Field { children, .. }
                | Inline::Inserted { children, .. } => walk(children, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    for b in doc.sections.iter().flat_map(|s| &s.blocks) {
        if let Block::Paragraph(p) = b {
            walk(&p.inlines, &mut out);
        }
    }
    out
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 0.05
}

fn text_box(i: &Inline) -> &TextBox {
    match i {
        Inline::TextBox(b) => b,
        other => panic!("a text box expected, not {other:?}"),
    }
}

#[test]
fn a_real_drawingml_group_is_one_box_with_its_shapes_in_child_units() {
    let doc = parse_docx(&std::fs::read(SAMPLE).unwrap(), &OfficeLimits::default()).unwrap();
    let found = groups(&doc);
    assert_eq!(found.len(), 1, "one group in the body");
    let g = found[0];
    // wp:extent 6,152,514 × 1,331,865 EMU; the children count 62,296 × 13,486 units.
    assert!(close(g.width, 484.45) && close(g.height, 104.87), "{g:?}");
    assert!(g.anchor.is_none(), "an inline group");
    let (sx, sy) = (g.width / 62_296.0, g.height / 13_486.0);
    let c = &g.children;
    assert_eq!(c.len(), 4, "{c:?}");
    // The panel: the whole group, its 2.745 % accent fill kept, its text box insets.
    let panel = text_box(&c[0].inline);
    assert!(close(c[0].x, 0.0) && close(c[0].y, 0.0));
    assert!(close(panel.width.unwrap(), g.width) && close(panel.height.unwrap(), g.height));
    assert!(panel.fill.is_some(), "{panel:?}");
    let alpha = panel.fill_opacity.expect("the panel's alpha");
    assert!((alpha - 0.02745).abs() < 0.001, "{alpha}");
    assert_eq!(panel.insets, Some([7.2, 3.6, 7.2, 3.6]));
    // The shapes at their child offsets, scaled: not points, not the group's corner.
    for (child, (x, y, w, h), geometry) in [
        (
            &c[1],
            (4364.0, 5930.0, 824.0, 2495.0),
            "flowChartManualOperation",
        ),
        (
            &c[2],
            (2253.0, 5296.0, 4984.0, 4896.0),
            "flowChartConnector",
        ),
        (&c[3], (4409.0, 8827.0, 762.0, 730.0), "flowChartConnector"),
    ] {
        let b = text_box(&child.inline);
        assert!(
            close(child.x, x * sx) && close(child.y, y * sy),
            "{child:?}"
        );
        assert!(close(b.width.unwrap(), w * sx) && close(b.height.unwrap(), h * sy));
        assert_eq!(b.geometry.as_deref(), Some(geometry));
        assert!(b.anchor.is_none(), "placed by the group, not anchored");
    }
    // The ring has no fill and a 1 pt outline; the dot a fill and no outline.
    let ring = text_box(&c[2].inline);
    assert!(ring.fill.is_none());
    assert!(ring.outline.as_ref().is_some_and(|o| close(o.width, 1.0)));
    assert!(text_box(&c[3].inline).fill.is_some());

    let html = render_html(&doc, &RenderOptions::default());
    // (The header holds a group of its own; this one is the body's.)
    assert!(
        html.contains(
            "<span class=\"docx-group\" role=\"group\" style=\"width:484.45pt;height:104.87pt;\">"
        ),
        "the group's box"
    );
    let ring_at = format!(
        "<span class=\"docx-group-item\" style=\"left:{}pt;top:{}pt;width:{}pt;height:{}pt\">",
        (2253.0 * sx * 100.0).round() / 100.0,
        (5296.0 * sy * 100.0).round() / 100.0,
        (4984.0 * sx * 100.0).round() / 100.0,
        (4896.0 * sy * 100.0).round() / 100.0
    );
    let ring = &html[html.find(&ring_at).expect(&ring_at)..];
    // A flowchart connector is a circle (an SVG preset), not a connector line.
    assert!(
        ring.starts_with(&format!("{ring_at}<span class=\"docx-textbox\""))
            && ring.contains("docx-geom"),
        "{}",
        &ring[..300]
    );
    // The panel's fill is drawn at its own opacity: #RRGGBB and an alpha byte of 7.
    assert!(
        html.contains("07;padding:3.6pt 7.2pt 3.6pt 7.2pt;"),
        "panel fill"
    );
}

const VML: &str = r#"xmlns:v="urn:schemas-microsoft-com:vml""#;

#[test]
fn a_vml_group_places_its_shapes_from_its_coordinate_origin() {
    // 2000 × 1000 units from (1000, 500), drawn as 200 × 100 pt, 10 pt from the column.
    let body = format!(
        r##"<w:p><w:r><w:pict {VML}><v:group style="position:absolute;margin-left:10pt;margin-top:0;width:200pt;height:100pt" coordorigin="1000,500" coordsize="2000,1000"><v:shape style="position:absolute;left:1500;top:750;width:500;height:250" fillcolor="#2D71AF"><v:fill opacity="32768f"/><v:textbox inset="0,0,0,0"><w:txbxContent><w:p><w:r><w:t>Grouped box</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape><v:oval style="position:absolute;left:1000;top:500;width:200;height:200" filled="f" strokecolor="#A9A9A9" strokeweight="1pt"/><v:group style="position:absolute;left:2000;top:1000;width:1000;height:500" coordsize="100,100"><v:rect style="position:absolute;left:50;top:50;width:50;height:50" fillcolor="red"/></v:group></v:group></w:pict></w:r></w:p>"##
    );
    let doc = parse_docx(&DocxFixture::new(&body).build(), &OfficeLimits::default()).unwrap();
    let found = groups(&doc);
    assert_eq!(found.len(), 1);
    let g = found[0];
    assert_eq!((g.width, g.height), (200.0, 100.0));
    assert_eq!(g.anchor.as_ref().and_then(|a| a.offset_h), Some(10.0));
    let placed: Vec<(f32, f32, f32, f32)> = g
        .children
        .iter()
        .map(|c| {
            let b = text_box(&c.inline);
            (c.x, c.y, b.width.unwrap(), b.height.unwrap())
        })
        .collect();
    // (1500 − 1000) × 0.1 = 50 pt; the nested group's rect: its origin at (100, 50) pt,
    // then half of its 100 × 50 pt box.
    assert_eq!(
        placed,
        [
            (50.0, 25.0, 50.0, 25.0),
            (0.0, 0.0, 20.0, 20.0),
            (150.0, 75.0, 50.0, 25.0)
        ]
    );
    let boxed = text_box(&g.children[0].inline);
    assert_eq!(boxed.fill_opacity, Some(0.5));
    assert_eq!(boxed.insets, Some([0.0; 4]));
    let ring = text_box(&g.children[1].inline);
    assert_eq!(ring.geometry.as_deref(), Some("ellipse"));
    assert!(ring.fill.is_none());
    assert_eq!(ring.outline.as_ref().map(|o| o.width), Some(1.0));
    assert!(text_box(&g.children[2].inline).fill.is_some());

    let html = render_html(&doc, &RenderOptions::default());
    assert!(html.contains(
        "<span class=\"docx-group-item\" style=\"left:50pt;top:25pt;width:50pt;height:25pt\">"
    ));
    assert!(html.contains(
        "<span class=\"docx-group-item\" style=\"left:150pt;top:75pt;width:50pt;height:25pt\">"
    ));
    assert!(html.contains("background-color:#2D71AF80;"), "{html}");
}
