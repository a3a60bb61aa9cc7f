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
    // 45.5 % of the 612 pt page from its left edge (`wp14:pctPosHOffset`; the
    // `wp:posOffset` fallback beside it rounds to 278.45 pt).
    assert!(
        navy.contains("position:absolute;left:278.46pt;top:19.8pt;"),
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
    // 36 % of the page wide (`wp14:sizeRelH`; its stored extent says 220.3 pt).
    let author = boxes
        .iter()
        .find(|s| s.contains("width:220.32pt;min-height:21.15pt"))
        .unwrap_or_else(|| panic!("no author box: {boxes:?}"));
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

/// Every inline of `blocks` (paragraphs only, hyperlinks and fields opened).
fn inlines(blocks: &[Block]) -> Vec<&Inline> {
    fn walk<'d>(inlines: &'d [Inline], out: &mut Vec<&'d Inline>) {
        for i in inlines {
            out.push(i);
            if let Inline::Hyperlink { children, .. }
            | Inline::Field { children, .. }
            | Inline::Inserted { children, .. } = i
            {
                walk(children, out);
            }
        }
    }
    let mut out = Vec::new();
    for b in blocks {
        if let Block::Paragraph(p) = b {
            walk(&p.inlines, &mut out);
        }
    }
    out
}

#[test]
fn a_page_relative_line_takes_its_share_of_the_margin_height_and_of_the_page_width() {
    // Apache Tika's testWORD_template (Word's résumé template): each header holds a
    // vertical line (`prst="line"`) stored 99 pt tall, whose `wp14:sizeRelV` makes it
    // 105 % of the margin height instead, centred on the page, 34 % of the page width
    // from its left edge (`wp14:pctPosHOffset`: the first page's header gives no other
    // horizontal position). Word and LibreOffice draw it down the whole page.
    let doc = open("tika-testWORD_template.docx");
    let lines: Vec<&crate::office::docx::model::TextBox> = doc
        .headers_footers
        .iter()
        .filter(|h| !h.is_footer)
        .flat_map(|h| inlines(&h.blocks))
        .filter_map(|i| match i {
            Inline::TextBox(b) if b.line.is_some() => Some(b),
            _ => None,
        })
        .collect();
    assert_eq!(lines.len(), 2, "one line in each header: {lines:?}");
    for line in &lines {
        let a = line.anchor.as_ref().expect("anchored");
        let h = a.relative_height.as_ref().expect("a relative height");
        assert_eq!((h.from.as_str(), h.fraction), ("margin", 1.05));
        assert_eq!(a.relative_width, None, "pctWidth 0 keeps the stored width");
        assert_eq!(a.share_h, Some(0.34));
        assert_eq!(
            line.height,
            Some(99.0),
            "the stored extent stays in the model"
        );
    }
    // On the 612 × 792 pt page with 54 pt top and bottom margins: 718.2 pt tall, its top
    // at (792 − 718.2) / 2, its left at 0.34 × 612.
    let html = render_html(&doc, &RenderOptions::default());
    let drawn = styles(&html, "<svg class=\"docx-line\"");
    assert!(!drawn.is_empty(), "no line drawn");
    for s in &drawn {
        assert!(s.contains("width:2.16pt;height:718.2pt;"), "{s}");
        assert!(s.contains("left:208.08pt;top:36.9pt;"), "{s}");
    }
}

#[test]
fn header_shapes_with_custom_geometry_are_drawn_as_their_outlines() {
    // ONLYOFFICE's sample letter: the page-top artwork in the header is a group of 38
    // `a:custGeom` polygons (triangles and quadrilaterals of the low-poly banner), each
    // with a solid theme fill. They are drawn as their paths, not as filled boxes.
    let doc = crate::office::docx::parse_docx(
        &std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/docx/onlyoffice-sample.docx"
        ))
        .unwrap(),
        &OfficeLimits::default(),
    )
    .unwrap();
    let header = doc
        .headers_footers
        .iter()
        .find(|h| !h.is_footer)
        .expect("a header");
    let shapes: Vec<&crate::office::docx::model::TextBox> = inlines(&header.blocks)
        .into_iter()
        .filter_map(|i| match i {
            Inline::Group(g) => Some(g),
            _ => None,
        })
        .flat_map(|g| &g.children)
        .filter_map(|c| match &c.inline {
            Inline::TextBox(b) => Some(b),
            _ => None,
        })
        .collect();
    assert_eq!(shapes.len(), 38, "the banner's 38 polygons");
    for s in &shapes {
        assert!(s.geometry.is_none(), "{s:?}");
        assert!(!s.custom_geometry.is_empty(), "a custom outline: {s:?}");
        assert!(s.fill.is_some(), "{s:?}");
    }
    // The first one: a pentagon in a 685,800 × 542,925 path space (five corners).
    let first = &shapes[0].custom_geometry;
    assert_eq!((first[0].width, first[0].height), (685_800.0, 542_925.0));
    let html = render_html(&doc, &RenderOptions::default());
    let start = html.find("<header class=\"docx-header\"").expect("header");
    let end = start + html[start..].find("</header>").unwrap();
    let header_html = &html[start..end];
    let geoms: Vec<&str> = header_html
        .match_indices("<svg class=\"docx-geom\"")
        .map(|(i, _)| &header_html[i..i + header_html[i..].find("</svg>").unwrap()])
        .collect();
    assert_eq!(geoms.len(), shapes.len(), "one outline a shape");
    let d = geoms[0]
        .split("d=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    assert!(d.starts_with('M') && d.ends_with('Z'), "{d}");
    assert_eq!(d.matches('L').count(), 5, "{d}");
    // The boxes themselves paint nothing: no rectangle of colour under each polygon.
    for s in styles(header_html, "<span class=\"docx-textbox\"") {
        assert!(!s.contains("background-color"), "{s}");
    }
}
