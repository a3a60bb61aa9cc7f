//! Floating objects of real Word files (issue #15): shapes and text boxes placed from
//! their anchors, with theme fills, z-order and rotation, and VML watermarks.

use crate::office::docx::model::{Block, Inline, Section};
use crate::office::docx::parse_docx;
use crate::office::docx::render::{render_html, RenderOptions};
use crate::office::OfficeLimits;

const DOCX: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/docx");

fn open(name: &str) -> crate::office::docx::model::Document {
    let bytes = std::fs::read(format!("{DOCX}/{name}")).unwrap();
    parse_docx(&bytes, &OfficeLimits::default()).unwrap()
}

/// The `style` attributes of the elements whose opening tag starts with `tag`.
fn styles<'h>(html: &'h str, tag: &str) -> Vec<&'h str> {
    html.match_indices(tag)
        .filter_map(|(i, _)| {
            let rest = &html[i..];
            let end = rest.find('>')?;
            let open = &rest[..end];
            let s = open.find("style=\"")? + 7;
            Some(&open[s..s + open[s..].find('"')?])
        })
        .collect()
}

#[test]
fn cover_page_shapes_sit_at_their_page_anchors_with_theme_fills_and_z_order() {
    // Open-Xml-PowerTools' CoverPage: Word's "Cover Pages" gallery page. A page-sized
    // gradient panel behind the text, a navy (theme dk2) block and a white panel with a
    // grey outline, each anchored to the page, and text boxes on top.
    let html = render_html(
        &open("powertools-CoverPage.docx"),
        &RenderOptions::default(),
    );
    let boxes = styles(&html, "<span class=\"docx-textbox\"");
    let navy = boxes
        .iter()
        .find(|s| s.contains("background-color:#44546A"))
        .unwrap_or_else(|| panic!("no navy (theme dk2) block: {boxes:?}"));
    assert!(
        navy.contains("position:absolute;left:278.45pt;top:19.8pt;"),
        "{navy}"
    );
    // The panel behind the text: the gradient's colour, under the page's text.
    let panel = boxes
        .iter()
        .find(|s| s.contains("width:581.4pt"))
        .unwrap_or_else(|| panic!("no page panel: {boxes:?}"));
    assert!(panel.contains("background-color:#"), "{panel}");
    assert!(panel.contains("z-index:-"), "{panel}");
    // relativeHeight orders the rest: the navy block (251661312) over the white panel
    // (251660288), as LibreOffice draws it, and the author's text box (251664384) over both.
    let z = |s: &str| -> i64 {
        let i = s.find("z-index:").unwrap() + 8;
        s[i..s[i..].find(';').unwrap() + i].parse().unwrap()
    };
    let white = boxes
        .iter()
        .find(|s| s.contains("background-color:#FFFFFF"))
        .unwrap();
    assert!(z(navy) > z(white), "{navy} / {white}");
    let author = boxes
        .iter()
        .find(|s| s.contains("width:220.3pt;min-height:21.15pt"))
        .unwrap();
    assert!(author.contains("position:absolute"), "{author}");
    assert!(z(author) > z(navy), "{author} / {navy}");
    // The page is the stacking context, so "behind" stays on the paper.
    assert!(crate::office::docx::render::STYLESHEET.contains("isolation: isolate"));
}

#[test]
fn a_vml_watermark_is_drawn_centred_on_the_margins_and_rotated() {
    // Open-Xml-PowerTools' SectionWithWatermark: "CONFIDENTIAL" as a VML text path in the
    // header, 527.85 × 131.95 pt, centred on the margin box, rotated 315°, half silver.
    let doc = open("powertools-SectionWithWatermark.docx");
    let section: &Section = &doc.sections[0];
    let art = doc
        .headers_footers
        .iter()
        .flat_map(|h| &h.blocks)
        .filter_map(|b| match b {
            Block::Paragraph(p) => Some(&p.inlines),
            _ => None,
        })
        .flatten()
        .find_map(|i| match i {
            Inline::WordArt(w) => Some(w),
            _ => None,
        })
        .expect("the watermark's text path");
    assert_eq!(art.text, "CONFIDENTIAL");
    assert_eq!((art.width, art.height), (527.85, 131.95));
    assert_eq!(art.rotation, Some(315.0));
    assert_eq!(art.opacity, Some(0.5));
    assert_eq!(art.fill.map(|c| c.to_string()).as_deref(), Some("#C0C0C0"));
    let anchor = art.anchor.as_ref().expect("positioned");
    assert!(anchor.behind_text);
    let html = render_html(&doc, &RenderOptions::default());
    let svg = styles(&html, "<svg class=\"docx-wordart\"");
    assert_eq!(svg.len(), 1, "{svg:?}");
    let p = &section.page;
    let left = p.margin_left + (p.width - p.margin_left - p.margin_right - 527.85) / 2.0;
    let top = p.margin_top + (p.height - p.margin_top - p.margin_bottom - 131.95) / 2.0;
    let value = |key: &str| -> f32 {
        let i = svg[0]
            .find(key)
            .unwrap_or_else(|| panic!("{key} in {}", svg[0]))
            + key.len();
        svg[0][i..].split("pt").next().unwrap().parse().unwrap()
    };
    assert!(svg[0].contains("position:absolute;"), "{}", svg[0]);
    assert!((value("left:") - left).abs() < 0.02, "{left}: {}", svg[0]);
    assert!((value("top:") - top).abs() < 0.02, "{top}: {}", svg[0]);
    assert!(svg[0].contains("transform:rotate(315deg);"), "{}", svg[0]);
    assert!(html.contains("textLength=\"527.85\""));
    assert!(html.contains(">CONFIDENTIAL</text>"));
}

#[test]
fn flowchart_connectors_are_strokes_and_preset_shapes_keep_their_outline() {
    // Open-Xml-PowerTools' Shape: a rectangle, a right arrow, an elbow connector ending in
    // a triangle and a vertically flipped S-curve connector.
    let html = render_html(&open("powertools-Shape.docx"), &RenderOptions::default());
    let lines: Vec<&str> = html
        .match_indices("<svg class=\"docx-line\"")
        .map(|(i, _)| &html[i..i + html[i..].find("</svg>").unwrap()])
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    // The elbow: across, down, across, with one arrowhead at its end.
    let elbow = lines.iter().find(|l| l.contains("H")).expect("an elbow");
    assert!(elbow.contains("fill=\"none\" stroke=\"#"), "{elbow}");
    assert_eq!(
        elbow.matches("<path").count(),
        2,
        "stroke and arrowhead: {elbow}"
    );
    // The S-curve is flipped: it starts at the bottom left (y = its height).
    let curve = lines.iter().find(|l| l.contains("C")).expect("a curve");
    let height = styles(curve, "<svg")[0]
        .split("height:")
        .nth(1)
        .and_then(|v| v.split("pt").next())
        .unwrap()
        .to_owned();
    assert!(curve.contains(&format!("d=\"M0 {height}C")), "{curve}");
    // Connectors are not boxes: no text box with a border stands for them.
    let boxes = styles(&html, "<span class=\"docx-textbox\"");
    assert_eq!(boxes.len(), 2, "the rectangle and the arrow: {boxes:?}");
    // The arrow is drawn from the standard's rightArrow definition as SVG behind its
    // text (it was a CSS clip-path approximation before).
    let arrow = html
        .match_indices("<svg class=\"docx-geom\"")
        .map(|(i, _)| &html[i..i + html[i..].find("</svg>").unwrap()])
        .collect::<Vec<_>>();
    assert_eq!(arrow.len(), 1, "{arrow:?}");
    let d = arrow[0]
        .split("d=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    // Seven corners: shaft, head, shaft.
    assert_eq!(d.matches('L').count(), 6, "{d}");
    assert!(d.starts_with("M0 ") && d.ends_with('Z'), "{d}");
}
