//! Every corpus deck parses (none is refused), every `a:t` of every listed slide reaches
//! that slide's rendered HTML in document order, and the benchmark decks keep all their
//! text, notes and pictures.

use super::support::{part_texts, PPTX_BENCH, PPTX_CORPUS};
use crate::markup::escape;
use crate::office::pptx::model::Presentation;
use crate::office::pptx::{parse_pptx, render_html, render_slide, RenderOptions};
use crate::office::OfficeLimits;

/// Checks that the texts of each slide part appear, escaped and in order, in the HTML of
/// that slide; returns how many texts were checked.
fn assert_slides_keep_text(name: &str, bytes: &[u8], pres: &Presentation) -> usize {
    let opts = RenderOptions::default();
    let mut checked = 0;
    for (i, slide) in pres.slides.iter().enumerate() {
        let html = render_slide(pres, i, &opts);
        let Some(part) = slide.part.as_deref().filter(|_| slide.missing.is_none()) else {
            assert!(
                html.contains("could not be shown"),
                "{name}: slide {}",
                i + 1
            );
            continue;
        };
        let mut cursor = 0;
        for text in part_texts(bytes, part) {
            // A slide-number field's placeholder shows the number instead.
            if text == "‹#›" {
                continue;
            }
            let escaped = escape(&text);
            match html[cursor..].find(&escaped) {
                Some(at) => cursor += at + escaped.len(),
                None => panic!(
                    "{name} slide {}: text {text:?} missing or out of order after byte {cursor}",
                    i + 1
                ),
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn every_corpus_deck_parses_and_keeps_its_slide_text() {
    let mut files: Vec<_> = std::fs::read_dir(PPTX_CORPUS)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pptx"))
        .collect();
    files.sort();
    assert!(files.len() >= 58, "corpus has {} decks", files.len());
    let mut checked = 0;
    let mut slides = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        // No corpus deck is refused: each parses, whatever it lacks.
        let pres =
            parse_pptx(&bytes, &OfficeLimits::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        slides += pres.slides.len();
        for (i, s) in pres.slides.iter().enumerate() {
            assert_eq!(s.number, i + 1, "{name}");
        }
        checked += assert_slides_keep_text(&name, &bytes, &pres);
        // The whole deck renders and the model serialises (the model.json view).
        let html = render_html(&pres, &RenderOptions::default());
        assert_eq!(
            html.matches("<section class=\"pptx-slide").count(),
            pres.slides.len(),
            "{name}"
        );
        serde_json::to_string(&pres).unwrap();
    }
    assert!(slides >= 110, "only {slides} slides");
    assert!(checked >= 130, "only {checked} texts checked");
}

#[test]
fn corpus_decks_with_known_shapes() {
    let open = |name: &str| {
        let bytes = std::fs::read(format!("{PPTX_CORPUS}/{name}")).unwrap();
        parse_pptx(&bytes, &OfficeLimits::default()).unwrap()
    };
    // No slides: an empty deck, not an error.
    let empty = open("python-pptx-no-slides.pptx");
    assert!(empty.slides.is_empty());
    assert!(render_html(&empty, &RenderOptions::default()).contains("has no slides"));
    // Layout relationships missing from the package: the listed slide still shows.
    let missing = open("python-pptx-missing_rels_item.pptx");
    assert_eq!(missing.slides.len(), 1);
    assert!(missing.slides[0].missing.is_none());
    // Charts are labelled with their type and carry their series.
    let charts = open("python-pptx-cht-charts.pptx");
    let chart = charts.slides[0]
        .shapes
        .iter()
        .find_map(|s| match &s.kind {
            crate::office::pptx::model::ShapeKind::Chart(c) => Some(c),
            _ => None,
        })
        .expect("a chart");
    assert_eq!(chart.chart_types, vec!["bar".to_owned()]);
    assert_eq!(chart.plots[0].series.len(), 3);
    assert_eq!(chart.plots[0].series[0].categories[0], "Category 1");
    assert_eq!(chart.plots[0].series[0].values[0], Some(4.3));
    // python-pptx's chart decks: text at the chart's 18 pt, the value axis with its
    // gridlines; a legend on the right where the chart has one, none where it has not.
    use crate::office::chart::model::AxisKind;
    let axis_of = |kind| chart.axes.iter().find(|a| a.kind == kind);
    let axis = axis_of(AxisKind::Value).expect("a value axis");
    assert_eq!(
        (axis.gridlines.is_some(), axis.labels, axis.text.size),
        (true, true, 18.0)
    );
    assert_eq!(
        axis_of(AxisKind::Category).expect("categories").text.size,
        18.0
    );
    let legends = open("python-pptx-cht-legend.pptx");
    let legend_of = |i: usize| {
        legends.slides[i].shapes.iter().find_map(|s| match &s.kind {
            crate::office::pptx::model::ShapeKind::Chart(c) => Some(c.legend.clone()),
            _ => None,
        })
    };
    let right = legend_of(0).flatten().expect("slide 1 has a legend");
    assert_eq!((right.position.as_str(), right.text.size), ("r", 18.0));
    assert_eq!(legend_of(1), Some(None));
    // SmartArt is drawn from the shapes PowerPoint saved for it, text included.
    let shapes = open("python-pptx-shp-shapes.pptx");
    let diagram = shapes.slides[0]
        .shapes
        .iter()
        .find(|s| s.name == "Diagram 7")
        .expect("the diagram");
    let crate::office::pptx::model::ShapeKind::Group(g) = &diagram.kind else {
        panic!("diagram not drawn: {:?}", diagram.kind)
    };
    assert!(g.children.len() >= 5);
    let mut text = String::new();
    crate::office::pptx::model::shape_text(diagram, &mut text);
    assert!(
        text.contains("shapes[5]") && text.contains("Smart Art"),
        "{text:?}"
    );
    // Notes.
    let notes = open("python-pptx-sld-notes.pptx");
    assert!(notes.slides.iter().any(|s| !s.notes.is_empty()));
}

#[test]
fn bench_decks_keep_text_notes_and_pictures() {
    for (name, count) in [("deck-80s.pptx", 80), ("deck-300s.pptx", 300)] {
        let bytes = std::fs::read(format!("{PPTX_BENCH}/{name}")).unwrap();
        let pres = parse_pptx(&bytes, &OfficeLimits::default()).unwrap();
        assert_eq!(pres.slides.len(), count, "{name}");
        assert!(pres.warnings.is_empty(), "{name}: {:?}", pres.warnings);
        assert!(
            pres.slides
                .iter()
                .all(|s| s.notes.iter().any(|n| n.starts_with("Speaker notes: "))),
            "{name}: every slide has notes"
        );
        assert!(pres.media.len() >= count / 4, "{name}: pictures");
        assert!(pres.media.iter().all(|m| m.displayable));
        let checked = assert_slides_keep_text(name, &bytes, &pres);
        assert!(checked >= count * 3, "{name}: {checked}");
        // Lazy rendering: every slide but the first waits in a template.
        let html = render_html(&pres, &RenderOptions::default());
        assert_eq!(
            html.matches("<template class=\"pptx-tpl\">").count(),
            count - 1
        );
        assert!(!html.contains("<script"));
    }
}
