//! Hostile and broken decks: each is a clear refusal or a deck with a degraded slide,
//! quickly, and nothing panics. (Bombs, traversal names, billion laughs and truncated
//! zips are refused by the package layer; see `hostile.rs`.)

use super::support::{png_header, pptx_p, pptx_sp, PptxFixture, PptxSlide, ZipBuilder};
use crate::office::pptx::model::{Presentation, Shape, ShapeKind};
use crate::office::pptx::{parse_pptx, render_html, RenderOptions};
use crate::office::{OfficeError, OfficeErrorKind, OfficeLimits};

fn try_parse(bytes: &[u8]) -> Result<Presentation, OfficeError> {
    let r = parse_pptx(bytes, &OfficeLimits::default());
    if let Ok(p) = &r {
        // Whatever parses also renders.
        render_html(p, &RenderOptions::default());
    }
    r
}

fn parses(f: &PptxFixture) -> Presentation {
    try_parse(&f.build()).expect("degraded, not refused")
}

fn ok_slide(text: &str) -> PptxSlide {
    PptxSlide::new(&pptx_sp(2, None, Some((0, 0, 100, 100)), "", &pptx_p(text)))
}

#[test]
fn slides_pointing_outside_the_package_are_shown_as_missing() {
    let mut f = PptxFixture::new(vec![ok_slide("first"), ok_slide("second")]);
    // The list names rId900 (climbs out of the package), rId901 (a URL as an internal
    // target) and rId902 (no such relationship) between the two real slides.
    f.order = Some(vec![0, 800, 801, 802, 1]);
    f.pres_rels = vec![
        (
            "rId900".into(),
            "slide".into(),
            "../../../../evil.xml".into(),
        ),
        (
            "rId901".into(),
            "slide".into(),
            "https://example.com/slide.xml".into(),
        ),
    ];
    let pres = parses(&f);
    assert_eq!(pres.slides.len(), 5);
    for i in [1, 2, 3] {
        let bad = &pres.slides[i];
        assert!(bad.part.is_none(), "{bad:?}");
        assert!(bad.missing.is_some());
    }
    assert!(pres.slides[1]
        .missing
        .as_deref()
        .unwrap()
        .contains("outside the package"));
    assert!(pres.slides[3]
        .missing
        .as_deref()
        .unwrap()
        .contains("does not exist"));
    assert!(pres.slides[0].missing.is_none() && pres.slides[4].missing.is_none());
    let html = render_html(&pres, &RenderOptions::default());
    assert!(html.contains("Slide 2 could not be shown"));
    assert!(html.contains("first") && html.contains("second"));
    assert!(pres.warnings.iter().any(|w| w.starts_with("Slide 2:")));
}

#[test]
fn a_missing_slide_part_does_not_hide_the_deck() {
    let mut gone = ok_slide("never seen");
    gone.omit_part = true;
    let p = parses(&PptxFixture::new(vec![
        ok_slide("one"),
        gone,
        ok_slide("three"),
    ]));
    assert_eq!(p.slides.len(), 3);
    assert_eq!(p.slides[1].part.as_deref(), Some("ppt/slides/slide2.xml"));
    assert!(p.slides[1].missing.as_deref().unwrap().contains("missing"));
    assert!(p.slides[2].missing.is_none());
}

#[test]
fn a_malformed_slide_is_missing_but_a_hostile_one_refuses_the_deck() {
    let mut f = PptxFixture::new(vec![ok_slide("one"), ok_slide("two")]);
    f.slides[1].tree = "<p:sp><a:unclosed></p:sp>".to_owned();
    let p = parses(&f);
    assert!(p.slides[0].missing.is_none());
    assert!(p.slides[1]
        .missing
        .as_deref()
        .unwrap()
        .contains("malformed XML"));

    let mut f = PptxFixture::new(vec![ok_slide("one")]);
    f.parts = vec![(
        "ppt/slides/slide1.xml".into(),
        b"<!DOCTYPE x [<!ENTITY a \"aaaa\">]><p:sld/>".to_vec(),
    )];
    f.slides[0].omit_part = true;
    let e = try_parse(&f.build()).unwrap_err();
    assert_eq!(e.kind(), OfficeErrorKind::XmlDtd);
}

#[test]
fn relationship_loops_and_missing_layouts_degrade() {
    // The layout's "master" is the slide itself: slide → layout → slide.
    let mut f = PptxFixture::new(vec![PptxSlide::new(&pptx_sp(
        2,
        Some(r#"type="title""#),
        None,
        "",
        &pptx_p("Looped"),
    ))]);
    f.layout_master_target = Some("../slides/slide1.xml".to_owned());
    let p = parses(&f);
    assert!(p.slides[0].missing.is_none());
    // The master comes from the presentation instead, so the title still has a place.
    assert_eq!(p.slides[0].shapes[0].frame.x, 457_200);
    assert!(
        p.warnings
            .iter()
            .any(|w| w.contains("slideMaster") || w.contains("master")),
        "{:?}",
        p.warnings
    );

    let mut f = PptxFixture::new(vec![ok_slide("no layout")]);
    f.omit_layout = true;
    let p = parses(&f);
    assert!(p.slides[0].missing.is_none());
    assert!(p.slides[0].layer.is_none());
    assert!(p.warnings.iter().any(|w| w.contains("layout")));
    assert!(render_html(&p, &RenderOptions::default()).contains("no layout"));

    // No theme at all: Office's default colours.
    let mut f = PptxFixture::new(vec![ok_slide("plain")]);
    f.theme = None;
    assert!(parses(&f).slides[0].missing.is_none());
}

#[test]
fn absurd_extents_and_rotations_are_capped() {
    let sp = r#"<p:sp><p:nvSpPr><p:cNvPr id="2" name="Huge"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm rot="-99999999999999999999" flipH="1"><a:off x="-9223372036854775808" y="1e308"/><a:ext cx="99999999999999999999999" cy="-5"/></a:xfrm><a:prstGeom prst="star5"><a:avLst><a:gd name="adj" fmla="val 1e300"/></a:avLst></a:prstGeom><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill><a:ln w="999999999999"/></p:spPr><p:txBody><a:bodyPr lIns="-5" rot="NaN"/><a:lstStyle/><a:p><a:pPr marL="99999999999" indent="-99999999999" lvl="99"/><a:r><a:rPr sz="99999999" spc="-999999" baseline="9000000"/><a:t>still here</a:t></a:r></a:p></p:txBody></p:sp>"#;
    let mut f = PptxFixture::new(vec![PptxSlide::new(sp)]);
    f.size = (1, 99_999_999_999);
    let p = parses(&f);
    assert_eq!((p.slide_width, p.slide_height), (914_400, 51_206_400));
    let s = &p.slides[0].shapes[0];
    let fr = &s.frame;
    assert!(fr.x.abs() <= 1 << 40 && fr.y.abs() <= 1 << 40 && fr.width <= 1 << 40);
    assert!(fr.height >= 0 && fr.width >= 0);
    assert!((0.0..360.0).contains(&fr.rotation));
    let ShapeKind::Shape(a) = &s.kind else {
        panic!()
    };
    let t = a.text.as_ref().unwrap();
    let para = &t.paragraphs[0];
    assert_eq!(para.level, 8);
    assert!(para.runs[0].size <= 4000.0);
    assert_eq!(t.insets[0], 0);
    let html = render_html(&p, &RenderOptions::default());
    assert!(html.contains("still here"));
    assert!(!html.contains("NaN") && !html.contains("inf"));
}

fn depth(shapes: &[Shape]) -> usize {
    shapes
        .iter()
        .map(|s| match &s.kind {
            ShapeKind::Group(g) => 1 + depth(&g.children),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

fn nested_groups(levels: usize) -> String {
    let open = r#"<p:grpSp><p:nvGrpSpPr><p:cNvPr id="9" name="G"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="10" y="10"/><a:ext cx="1000" cy="1000"/><a:chOff x="0" y="0"/><a:chExt cx="500" cy="500"/></a:xfrm></p:grpSpPr>"#;
    let mut s = open.repeat(levels);
    s.push_str(&pptx_sp(
        3,
        None,
        Some((0, 0, 10, 10)),
        "",
        &pptx_p("deepest"),
    ));
    s.push_str(&"</p:grpSp>".repeat(levels));
    s
}

#[test]
fn deep_group_nesting_is_flattened_not_lost() {
    // 100 levels fit the XML depth limit; past 32 the groups are flattened.
    let p = parses(&PptxFixture::new(vec![PptxSlide::new(&nested_groups(100))]));
    assert!(depth(&p.slides[0].shapes) <= 33);
    assert!(Presentation::slide_text(&p.slides[0]).contains("deepest"));
    // Unknown wrappers nested to just under the XML depth limit are walked too.
    let wrappers = format!(
        "{}{}{}",
        "<p:wrap>".repeat(240),
        pptx_sp(3, None, Some((0, 0, 10, 10)), "", &pptx_p("wrapped")),
        "</p:wrap>".repeat(240)
    );
    let p = parses(&PptxFixture::new(vec![PptxSlide::new(&wrappers)]));
    assert!(Presentation::slide_text(&p.slides[0]).contains("wrapped"));
    // Past the XML depth limit the deck is refused by the guard.
    let e = try_parse(&PptxFixture::new(vec![PptxSlide::new(&nested_groups(260))]).build())
        .unwrap_err();
    assert_eq!(e.kind(), OfficeErrorKind::XmlTooDeep);
}

#[test]
fn an_image_over_the_pixel_cap_refuses_the_deck() {
    let mut slide = PptxSlide::new(
        r#"<p:pic><p:nvPicPr><p:cNvPr id="2" name="P"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="rId5"/></p:blipFill><p:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="10" cy="10"/></a:xfrm></p:spPr></p:pic>"#,
    );
    slide.rels = vec![(
        "rId5".into(),
        "image".into(),
        "../media/big.png".into(),
        false,
    )];
    let mut f = PptxFixture::new(vec![slide]);
    f.parts = vec![("ppt/media/big.png".into(), png_header(100_000, 100_000))];
    let e = try_parse(&f.build()).unwrap_err();
    assert_eq!(e.kind(), OfficeErrorKind::ImageTooLarge);
}

#[test]
fn documents_and_junk_are_not_presentations() {
    let docx = super::support::minimal_docx(&super::support::para("hi"), &[]);
    let e = try_parse(&docx).unwrap_err();
    assert_eq!(e.kind(), OfficeErrorKind::Unsupported);
    assert!(e.reason().contains("not a presentation"));

    // A package whose main part is not p:presentation.
    let bytes = ZipBuilder::new()
        .file(
            "[Content_Types].xml",
            r#"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>"#,
        )
        .file(
            "_rels/.rels",
            r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="ppt/presentation.xml"/></Relationships>"#,
        )
        .file("ppt/presentation.xml", "<x/>")
        .finish();
    assert_eq!(
        try_parse(&bytes).unwrap_err().kind(),
        OfficeErrorKind::Unsupported
    );
    assert_eq!(
        try_parse(b"not a zip at all").unwrap_err().kind(),
        OfficeErrorKind::NotAPackage
    );
}

#[test]
fn truncated_corpus_decks_never_panic() {
    let bytes = std::fs::read(format!(
        "{}/python-pptx-test.pptx",
        super::support::PPTX_CORPUS
    ))
    .unwrap();
    for cut in [10, 100, 1000, bytes.len() / 2, bytes.len() - 10] {
        let _ = try_parse(&bytes[..cut]);
    }
    // Flipping bytes in the middle: a refusal or a deck, never a panic.
    let mut flipped = bytes.clone();
    for i in (200..flipped.len()).step_by(997) {
        flipped[i] ^= 0x5A;
    }
    let _ = try_parse(&flipped);
}

/// A paragraph with ten thousand tab stops and a run of fifty thousand tabs: the stops
/// are cut to 64, the line lays out 64 tab boxes and keeps the rest of its tabs as text.
#[test]
fn a_flood_of_tabs_and_stops_stays_bounded() {
    let stops: String = (1..=10_000)
        .map(|i| format!(r#"<a:tab pos="{}" algn="r"/>"#, i * 1000))
        .collect();
    let text = "x\t".repeat(50_000);
    let body = format!(
        r#"<a:p><a:pPr><a:tabLst>{stops}</a:tabLst></a:pPr><a:r><a:t>{text}</a:t></a:r></a:p>"#
    );
    let f = PptxFixture::new(vec![PptxSlide::new(&pptx_sp(
        2,
        None,
        Some((0, 0, 9_000_000, 1_000_000)),
        "",
        &body,
    ))]);
    let p = parses(&f);
    let ShapeKind::Shape(a) = &p.slides[0].shapes[0].kind else {
        panic!("a text box")
    };
    let para = &a.text.as_ref().expect("text").paragraphs[0];
    assert_eq!(para.tabs.len(), 64);
    let html = render_html(&p, &RenderOptions::default());
    assert_eq!(html.matches("class=\"pptx-tabbox").count(), 64);
    // Every tab is still in the text (drawn zero wide in the boxes, as is after them).
    assert_eq!(html.matches('\t').count(), 50_000);
}
