//! Charts in Word documents and decks, end to end: package → model → HTML with SVG.

use super::support::DocxFixture;
use crate::office::docx::model::{Block, Document, Inline};
use crate::office::docx::{parse_docx, render_html, RenderOptions};
use crate::office::pptx::model::ShapeKind;
use crate::office::pptx::{self, parse_pptx};
use crate::office::OfficeLimits;

const CHARTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/charts");

/// A paragraph holding an inline chart frame of 288 × 216 pt showing relationship `rid`.
fn chart_paragraph(rid: &str) -> String {
    format!(
        concat!(
            r#"<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="3657600" cy="2743200"/>"#,
            r#"<wp:docPr id="1" name="Chart 1" descr="Sales"/>"#,
            r#"<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">"#,
            r#"<c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="{rid}"/>"#,
            r#"</a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"#
        ),
        rid = rid
    )
}

const PIE: &str = r#"<?xml version="1.0" encoding="UTF-8"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Sales by region</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:pieChart><c:varyColors val="1"/><c:ser><c:idx val="0"/><c:tx><c:v>2024</c:v></c:tx><c:cat><c:strLit><c:ptCount val="3"/><c:pt idx="0"><c:v>North</c:v></c:pt><c:pt idx="1"><c:v>South</c:v></c:pt><c:pt idx="2"><c:v>East</c:v></c:pt></c:strLit></c:cat><c:val><c:numLit><c:ptCount val="3"/><c:pt idx="0"><c:v>3</c:v></c:pt><c:pt idx="1"><c:v>5</c:v></c:pt><c:pt idx="2"><c:v>2</c:v></c:pt></c:numLit></c:val></c:ser></c:pieChart></c:plotArea><c:legend><c:legendPos val="r"/></c:legend></c:chart></c:chartSpace>"#;

fn inlines(doc: &Document) -> Vec<&Inline> {
    doc.sections
        .iter()
        .flat_map(|s| s.blocks.iter())
        .filter_map(|b| match b {
            Block::Paragraph(p) => Some(p.inlines.iter()),
            _ => None,
        })
        .flatten()
        .collect()
}

#[test]
fn docx_charts_render_as_svg_not_a_placeholder() {
    let mut f = DocxFixture::new(&format!(
        "{}{}",
        chart_paragraph("rIdC"),
        chart_paragraph("rIdGone")
    ));
    f.rels.push((
        "rIdC".into(),
        "chart".into(),
        "charts/chart1.xml".into(),
        false,
    ));
    f.rels.push((
        "rIdGone".into(),
        "chart".into(),
        "charts/missing.xml".into(),
        false,
    ));
    f.parts
        .push(("word/charts/chart1.xml".into(), PIE.as_bytes().to_vec()));
    let doc = parse_docx(&f.build(), &OfficeLimits::default()).unwrap();
    let found = inlines(&doc);
    let Inline::Chart(c) = found[0] else {
        panic!("not a chart: {:?}", found[0])
    };
    assert_eq!((c.width, c.height), (288.0, 216.0));
    assert_eq!(c.chart.title.as_deref(), Some("Sales by region"));
    assert_eq!(c.chart.part.as_deref(), Some("word/charts/chart1.xml"));
    // The missing part stays a labelled placeholder.
    assert!(matches!(found[1], Inline::Placeholder(p) if p.label == "Chart: Sales"));
    let html = render_html(&doc, &RenderOptions::default());
    assert!(html.contains("<span class=\"docx-chart\" style=\"display:inline-block;width:288pt;height:216pt;\" role=\"img\" aria-label=\"Pie chart: Sales by region\">"), "{html}");
    assert!(html.contains("<svg class=\"docx-chart-svg\""));
    // The fixture's theme has no font scheme: the chart keeps the default stack.
    assert!(html.contains("font-family=\"Carlito, Calibri,"), "{html}");
    assert_eq!(html.matches("class=\"slice\"").count(), 3);
    for name in ["North", "South", "East", "Sales by region"] {
        assert!(html.contains(&format!(">{name}</text>")), "{name}");
    }
    serde_json::to_string(&doc).unwrap();
}

#[test]
fn real_docx_chart_from_word_is_drawn() {
    // Open-Xml-PowerTools' CU001: a clustered bar chart Word saved with its cache.
    let bytes = std::fs::read(format!(
        "{CHARTS}/powertools-CU001-Chart-Cached-Data-01.docx"
    ))
    .unwrap();
    let doc = parse_docx(&bytes, &OfficeLimits::default()).unwrap();
    let chart = inlines(&doc)
        .into_iter()
        .find_map(|i| match i {
            Inline::Chart(c) => Some(c),
            _ => None,
        })
        .expect("a chart");
    assert_eq!(chart.chart.chart_types, ["bar"]);
    let series: Vec<_> = chart.chart.series().collect();
    assert!(!series.is_empty() && series[0].values.iter().any(Option::is_some));
    // Its text is in the theme's body font (no typeface of its own), Calibri here.
    assert_eq!(chart.chart.font, "Calibri");
    let html = render_html(&doc, &RenderOptions::default());
    assert!(html.contains("<svg class=\"docx-chart-svg\""));
    assert!(
        !html.contains("docx-placeholder"),
        "no chart placeholder left"
    );
    // Every category of the chart is labelled.
    for cat in &series[0].categories {
        assert!(
            html.contains(&format!(">{}</text>", crate::markup::escape(cat))),
            "{cat}"
        );
    }
    assert!(html.matches("<rect ").count() >= series.iter().map(|s| s.values.len()).sum::<usize>());
}

#[test]
fn real_pptx_chart_is_drawn_by_the_engine() {
    let bytes = std::fs::read(format!("{CHARTS}/shapecrawler-003_chart.pptx")).unwrap();
    let deck = parse_pptx(&bytes, &OfficeLimits::default()).unwrap();
    let charts: Vec<_> = deck
        .slides
        .iter()
        .flat_map(|s| s.shapes.iter())
        .filter_map(|s| match &s.kind {
            ShapeKind::Chart(c) => Some(c),
            _ => None,
        })
        .collect();
    assert!(!charts.is_empty());
    let html = pptx::render_html(&deck, &pptx::RenderOptions::default());
    assert_eq!(
        html.matches("<svg class=\"pptx-chart-svg\"").count(),
        charts.len()
    );
    use crate::office::chart::model::AxisKind;
    for c in charts {
        // Where the category axis is shown, every category is labelled.
        let shown = c
            .axes
            .iter()
            .any(|a| a.kind == AxisKind::Category && !a.deleted && a.labels);
        assert!(c.series().next().is_some());
        for s in c.series().filter(|_| shown) {
            for cat in s.categories.iter().filter(|c| !c.is_empty()) {
                assert!(
                    html.contains(&format!(">{}</text>", crate::markup::escape(cat))),
                    "{cat}"
                );
            }
        }
    }
}

/// `shapecrawler-021` slide 2: a line chart on a date axis of 787 daily points listed
/// newest first, with no tick labels of its own; its years are four text boxes its
/// author drew over it (`c:userShapes`, anchored in fractions of the chart).
#[test]
fn shapes_drawn_over_a_chart_are_placed_in_its_frame() {
    let bytes = std::fs::read(format!("{CHARTS}/shapecrawler-021.pptx")).unwrap();
    let deck = parse_pptx(&bytes, &OfficeLimits::default()).unwrap();
    let groups: Vec<_> = deck.slides[1]
        .shapes
        .iter()
        .filter_map(|s| match &s.kind {
            ShapeKind::Group(g) => Some((s, g)),
            _ => None,
        })
        .collect();
    assert_eq!(groups.len(), 1, "one chart carries user shapes");
    let (outer, group) = groups[0];
    let ShapeKind::Chart(chart) = &group.children[0].kind else {
        panic!("the chart comes first: {:?}", group.children[0].kind)
    };
    assert_eq!(group.children[0].frame, outer.frame);
    use crate::office::chart::model::AxisKind;
    assert!(chart
        .axes
        .iter()
        .any(|a| a.kind == AxisKind::Date && !a.labels));
    let f = &outer.frame;
    let mut years = Vec::new();
    for child in &group.children[1..] {
        let c = &child.frame;
        assert!(
            c.x >= f.x && c.x + c.width <= f.x + f.width,
            "{c:?} in {f:?}"
        );
        assert!(
            c.y >= f.y && c.y + c.height <= f.y + f.height,
            "{c:?} in {f:?}"
        );
        let json = serde_json::to_string(&child.kind).unwrap();
        let year = ["2010", "2011", "2012", "2013"]
            .into_iter()
            .find(|y| json.contains(y))
            .unwrap_or_else(|| panic!("a year label: {json}"));
        years.push((c.x, year));
    }
    // The 2012 box's anchor: from x 0.54348, y 0.873 of the chart.
    let (x2012, _) = years.iter().find(|(_, y)| *y == "2012").unwrap();
    let expected = f.x + (0.54348 * f.width as f64).round() as i64;
    assert_eq!(*x2012, expected);
    years.sort();
    assert_eq!(
        years.iter().map(|(_, y)| *y).collect::<Vec<_>>(),
        ["2010", "2011", "2012", "2013"]
    );
    let html = pptx::render_html(&deck, &pptx::RenderOptions::default());
    for y in ["2010", "2011", "2012", "2013"] {
        assert!(html.contains(&format!(">{y}<")), "{y}");
    }
}
