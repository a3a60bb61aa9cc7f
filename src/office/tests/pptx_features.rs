//! PPTX feature tests on small hand-built decks (see `PptxFixture` in `support.rs`), one
//! per feature, asserting model values and the markup they become.

use super::support::{png_header, pptx_p, pptx_sp, PptxFixture, PptxSlide};
use crate::office::pptx::model::{
    Align, AutoShape, Color, Fill, Frame, Geometry, GradientKind, ImageSource, Link, PathCommand,
    Presentation, RunKind, Shape, ShapeKind, Spacing, TabAlign, Table, TextBody, VerticalAnchor,
};
use crate::office::pptx::{
    parse_pptx, render_html, render_slide, RenderOptions, ViewerScript, VIEWER_JS,
};
use crate::office::OfficeLimits;

fn parse(f: &PptxFixture) -> Presentation {
    parse_pptx(&f.build(), &OfficeLimits::default()).expect("fixture parses")
}

fn one_slide(tree: &str) -> Presentation {
    parse(&PptxFixture::new(vec![PptxSlide::new(tree)]))
}

fn auto(s: &Shape) -> &AutoShape {
    match &s.kind {
        ShapeKind::Shape(a) => a,
        other => panic!("not an auto shape: {other:?}"),
    }
}

fn text(s: &Shape) -> &TextBody {
    auto(s).text.as_ref().expect("shape has text")
}

fn html_of(p: &Presentation, i: usize) -> String {
    render_slide(p, i, &RenderOptions::default())
}

const LAYOUT_TITLE: &str = r#"<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title 1"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="1000000" y="500000"/><a:ext cx="7000000" cy="900000"/></a:xfrm></p:spPr><p:txBody><a:bodyPr anchor="b"/><a:lstStyle><a:lvl1pPr algn="l"><a:defRPr sz="4000"/></a:lvl1pPr></a:lstStyle><a:p><a:r><a:t>Layout prompt</a:t></a:r></a:p></p:txBody></p:sp><p:sp><p:nvSpPr><p:cNvPr id="3" name="Content 2"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>Layout body prompt</a:t></a:r></a:p></p:txBody></p:sp>"#;

#[test]
fn placeholders_inherit_position_and_style_from_layout_and_master() {
    let tree = [
        pptx_sp(2, Some(r#"type="title""#), None, "", &pptx_p("Slide title")),
        pptx_sp(
            3,
            Some(r#"idx="1""#),
            None,
            "",
            r#"<a:p><a:r><a:t>First</a:t></a:r></a:p><a:p><a:pPr lvl="1"/><a:r><a:t>Second</a:t></a:r></a:p>"#,
        ),
    ]
    .concat();
    let mut f = PptxFixture::new(vec![PptxSlide::new(&tree)]);
    f.layout_tree = LAYOUT_TITLE.to_owned();
    let p = parse(&f);
    let shapes = &p.slides[0].shapes;
    // The title takes the layout's box; the body, whose layout placeholder has none,
    // the master's.
    assert_eq!(
        (
            shapes[0].frame.x,
            shapes[0].frame.y,
            shapes[0].frame.width,
            shapes[0].frame.height
        ),
        (1_000_000, 500_000, 7_000_000, 900_000)
    );
    assert_eq!(
        (shapes[1].frame.x, shapes[1].frame.y, shapes[1].frame.width),
        (457_200, 1_600_200, 8_229_600)
    );
    let ph = shapes[0].placeholder.as_ref().unwrap();
    assert_eq!((ph.kind.as_str(), ph.idx), ("title", 0));
    // Title text: the layout's size and alignment over the master's title style, the
    // theme's major font, anchored at the bottom by the layout.
    let title = text(&shapes[0]);
    assert_eq!(title.anchor, VerticalAnchor::Bottom);
    let para = &title.paragraphs[0];
    assert_eq!(para.align, Align::Left);
    assert_eq!(para.runs[0].size, 40.0);
    assert_eq!(para.runs[0].font.as_deref(), Some("Calibri Light"));
    assert!(para.bullet.is_none());
    // Body: the master's body style by level, with its bullets and indents.
    let body = text(&shapes[1]);
    let (l1, l2) = (&body.paragraphs[0], &body.paragraphs[1]);
    assert_eq!((l1.level, l1.runs[0].size), (0, 32.0));
    assert_eq!((l2.level, l2.runs[0].size), (1, 28.0));
    assert_eq!(l1.bullet.as_ref().unwrap().text, "•");
    assert_eq!(l2.bullet.as_ref().unwrap().text, "–");
    assert_eq!((l1.margin_left, l1.indent), (342_900, -342_900));
    assert_eq!(l1.space_before, Spacing::Percent(20.0));
    assert_eq!(l1.runs[0].font.as_deref(), Some("Calibri"));
    // Prompt text of layouts and masters is never shown.
    let html = html_of(&p, 0);
    assert!(html.contains("Slide title") && !html.contains("Layout prompt"));
    assert!(!html.contains("Master title") && !html.contains("Master text"));
    assert!(html.contains("--x:78.74;--y:39.37;--w:551.181;--h:70.866"));
}

#[test]
fn theme_colours_resolve_with_modifiers_and_the_colour_map() {
    let runs = r#"<a:p><a:r><a:rPr><a:solidFill><a:schemeClr val="accent1"><a:lumMod val="75000"/></a:schemeClr></a:solidFill></a:rPr><a:t>darker</a:t></a:r><a:r><a:rPr><a:solidFill><a:schemeClr val="accent1"><a:lumMod val="60000"/><a:lumOff val="40000"/></a:schemeClr></a:solidFill></a:rPr><a:t>lighter</a:t></a:r><a:r><a:rPr><a:solidFill><a:schemeClr val="tx1"><a:tint val="75000"/></a:schemeClr></a:solidFill></a:rPr><a:t>tint</a:t></a:r><a:r><a:rPr><a:solidFill><a:srgbClr val="FF0000"><a:alpha val="50000"/></a:srgbClr></a:solidFill></a:rPr><a:t>alpha</a:t></a:r><a:r><a:rPr><a:solidFill><a:prstClr val="dkGreen"/></a:solidFill></a:rPr><a:t>preset</a:t></a:r><a:r><a:rPr><a:solidFill><a:sysClr val="window" lastClr="FEFEFE"/></a:solidFill></a:rPr><a:t>system</a:t></a:r><a:r><a:t>default</a:t></a:r></a:p>"#;
    let fill = r#"<a:solidFill><a:schemeClr val="accent2"><a:shade val="50000"/></a:schemeClr></a:solidFill>"#;
    let p = one_slide(&pptx_sp(4, None, Some((0, 0, 100, 100)), fill, runs));
    let shape = &p.slides[0].shapes[0];
    let colors: Vec<String> = text(shape).paragraphs[0]
        .runs
        .iter()
        .map(|r| r.color.hex())
        .collect();
    assert_eq!(
        colors,
        [
            "#2F5597",
            "#8FAADC",
            "#898989",
            "#FF000080",
            "#006400",
            "#FEFEFE",
            "#000000"
        ]
    );
    // A shade darkens in linear light: ED7D31 at 50 % is AE5A21.
    assert_eq!(
        auto(shape).fill,
        Fill::Solid {
            color: Color::rgb(0xAE5A21)
        }
    );
}

#[test]
fn colour_map_overrides_apply_to_inherited_text_and_backgrounds() {
    let mut dark = PptxSlide::new(&pptx_sp(
        4,
        None,
        Some((0, 0, 100, 100)),
        "",
        &pptx_p("on dark"),
    ));
    dark.clr_map = Some(r#"<a:overrideClrMapping bg1="dk1" tx1="lt1" bg2="dk2" tx2="lt2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>"#.to_owned());
    let light = PptxSlide::new(&pptx_sp(
        4,
        None,
        Some((0, 0, 100, 100)),
        "",
        &pptx_p("on light"),
    ));
    let p = parse(&PptxFixture::new(vec![dark, light]));
    // The master's background (bg1) and the default text colour (tx1) follow the map.
    assert_eq!(
        p.slides[0].background,
        Fill::Solid {
            color: Color::rgb(0)
        }
    );
    assert_eq!(
        text(&p.slides[0].shapes[0]).paragraphs[0].runs[0].color,
        Color::rgb(0xFFFFFF)
    );
    assert_eq!(
        p.slides[1].background,
        Fill::Solid {
            color: Color::rgb(0xFFFFFF)
        }
    );
    assert_eq!(
        text(&p.slides[1].shapes[0]).paragraphs[0].runs[0].color,
        Color::rgb(0)
    );
}

#[test]
fn rotation_and_flips_are_kept_and_drawn() {
    let sp = r#"<p:sp><p:nvSpPr><p:cNvPr id="5" name="Arrow"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm rot="5400000" flipH="1"><a:off x="1270000" y="2540000"/><a:ext cx="2540000" cy="1270000"/></a:xfrm><a:prstGeom prst="rightArrow"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="00FF00"/></a:solidFill></p:spPr></p:sp>"#;
    let p = one_slide(sp);
    let shape = &p.slides[0].shapes[0];
    assert_eq!(
        shape.frame,
        Frame {
            x: 1_270_000,
            y: 2_540_000,
            width: 2_540_000,
            height: 1_270_000,
            rotation: 90.0,
            flip_h: true,
            flip_v: false,
        }
    );
    assert_eq!(
        auto(shape).geometry,
        Geometry::Preset {
            name: "rightArrow".to_owned(),
            adjust: vec![]
        }
    );
    let html = html_of(&p, 0);
    assert!(html.contains("--x:100;--y:200;--w:200;--h:100;transform:rotate(90deg)"));
    assert!(html.contains(";transform:scale(-1,1)\">"));
    assert!(html
        .contains(r##"<path d="M0 25L150 25L150 0L200 50L150 100L150 75L0 75Z" fill="#00FF00""##));
}

#[test]
fn groups_scale_their_children() {
    let child = pptx_sp(
        3,
        None,
        Some((500_000, 0, 500_000, 500_000)),
        r#"<a:prstGeom prst="ellipse"><a:avLst/></a:prstGeom>"#,
        &pptx_p("in group"),
    );
    let inner = format!(
        r#"<p:grpSp><p:nvGrpSpPr><p:cNvPr id="4" name="Inner"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="500000"/><a:ext cx="1000000" cy="500000"/><a:chOff x="0" y="0"/><a:chExt cx="500000" cy="500000"/></a:xfrm></p:grpSpPr>{}</p:grpSp>"#,
        pptx_sp(5, None, Some((0, 0, 500_000, 500_000)), "", "")
    );
    let group = format!(
        r#"<p:grpSp><p:nvGrpSpPr><p:cNvPr id="2" name="Group"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm rot="1800000"><a:off x="1000000" y="1000000"/><a:ext cx="2000000" cy="1000000"/><a:chOff x="0" y="0"/><a:chExt cx="1000000" cy="1000000"/></a:xfrm></p:grpSpPr>{child}{inner}</p:grpSp>"#
    );
    let p = one_slide(&group);
    let g = &p.slides[0].shapes[0];
    assert_eq!(
        (g.frame.x, g.frame.width, g.frame.rotation),
        (1_000_000, 2_000_000, 30.0)
    );
    let ShapeKind::Group(grp) = &g.kind else {
        panic!("not a group")
    };
    // Child space 1 000 000 wide maps to 2 000 000: x doubles, y stays.
    let c = &grp.children[0].frame;
    assert_eq!(
        (c.x, c.y, c.width, c.height),
        (2_000_000, 1_000_000, 1_000_000, 500_000)
    );
    // A nested group composes both transforms: 500 000 of its child space is 1 000 000
    // of the outer child space, which is 2 000 000 on the slide.
    let ShapeKind::Group(nested) = &grp.children[1].kind else {
        panic!("not a group")
    };
    let n = &nested.children[0].frame;
    assert_eq!(
        (n.x, n.y, n.width, n.height),
        (1_000_000, 1_500_000, 2_000_000, 500_000)
    );
    let html = html_of(&p, 0);
    // Children are placed relative to their group; the group turns as a whole.
    assert!(html.contains(
        "pptx-grp\" style=\"--x:78.74;--y:78.74;--w:157.48;--h:78.74;transform:rotate(30deg)"
    ));
    assert!(html.contains("--x:78.74;--y:0;--w:78.74;--h:39.37"));
    assert!(html.contains("in group"));
}

#[test]
fn hidden_shapes_and_group_fills() {
    let hidden = pptx_sp(2, None, Some((0, 0, 10, 10)), "", &pptx_p("secret"))
        .replace(r#"name="Shape 2""#, r#"name="Shape 2" hidden="1""#);
    let group = format!(
        r#"<p:grpSp><p:nvGrpSpPr><p:cNvPr id="4" name="G"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="100" cy="100"/><a:chOff x="0" y="0"/><a:chExt cx="100" cy="100"/></a:xfrm><a:solidFill><a:srgbClr val="123456"/></a:solidFill></p:grpSpPr>{}</p:grpSp>"#,
        pptx_sp(5, None, Some((0, 0, 50, 50)), "<a:grpFill/>", "")
    );
    let p = one_slide(&format!("{hidden}{group}"));
    let shapes = &p.slides[0].shapes;
    assert!(shapes[0].hidden);
    let ShapeKind::Group(g) = &shapes[1].kind else {
        panic!("not a group")
    };
    assert_eq!(
        auto(&g.children[0]).fill,
        Fill::Solid {
            color: Color::rgb(0x123456)
        }
    );
    let html = html_of(&p, 0);
    // Hidden text stays in the page (searchable, counted) but is not drawn.
    assert!(html.contains(r#"data-name="Shape 2" hidden>"#) && html.contains("secret"));
}

#[test]
fn cropped_pictures_and_unshowable_formats() {
    let pic = |id: u32, rid: &str, crop: &str| {
        format!(
            r#"<p:pic><p:nvPicPr><p:cNvPr id="{id}" name="Picture {id}" descr="A chart"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="{rid}"/>{crop}<a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1270000" cy="1270000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>"#
        )
    };
    let tree = [
        pic(2, "rId5", r#"<a:srcRect l="25000" t="10000" r="25000"/>"#),
        pic(3, "rId6", ""),
        pic(4, "rId404", ""),
    ]
    .concat();
    let mut slide = PptxSlide::new(&tree);
    slide.rels = vec![
        (
            "rId5".into(),
            "image".into(),
            "../media/image1.png".into(),
            false,
        ),
        (
            "rId6".into(),
            "image".into(),
            "../media/image2.emf".into(),
            false,
        ),
    ];
    let mut f = PptxFixture::new(vec![slide]);
    let mut emf = vec![1u8, 0, 0, 0];
    emf.resize(40, 0);
    emf.extend_from_slice(b" EMF");
    f.parts = vec![
        ("ppt/media/image1.png".into(), png_header(640, 480)),
        ("ppt/media/image2.emf".into(), emf),
    ];
    let p = parse(&f);
    let ShapeKind::Picture(pic1) = &p.slides[0].shapes[0].kind else {
        panic!("not a picture")
    };
    assert_eq!(
        pic1.source,
        ImageSource::Part {
            part: "ppt/media/image1.png".into()
        }
    );
    assert_eq!(
        (
            pic1.crop.left,
            pic1.crop.top,
            pic1.crop.right,
            pic1.crop.bottom
        ),
        (0.25, 0.1, 0.25, 0.0)
    );
    assert_eq!(p.media.len(), 2);
    assert_eq!(p.media[0].pixels, Some((640, 480)));
    assert!(p.media[0].displayable && !p.media[1].displayable);
    let ShapeKind::Picture(pic3) = &p.slides[0].shapes[2].kind else {
        panic!("not a picture")
    };
    assert!(matches!(pic3.source, ImageSource::Missing { .. }));
    let html = html_of(&p, 0);
    // Half the width is cut: the image is drawn twice as wide, shifted left by a half.
    assert!(html.contains(r#"<img src="media/ppt/media/image1.png" alt="A chart" loading="lazy" decoding="async" draggable="false" style="left:-50%;top:-11.111%;width:200%;height:111.111%">"#));
    assert!(html.contains("EMF image (not displayable)"));
    assert!(html.contains("Missing image"));
}

#[test]
fn tables_merge_cells_and_apply_the_default_style() {
    let cell = |attrs: &str, t: &str, pr: &str| {
        format!(
            r#"<a:tc {attrs}><a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>{t}</a:t></a:r></a:p></a:txBody><a:tcPr{pr}</a:tc>"#
        )
    };
    let rows = [
        format!(
            r#"<a:tr h="370840">{}{}{}</a:tr>"#,
            cell(r#"gridSpan="2""#, "wide", "/>"),
            cell(r#"hMerge="1""#, "", "/>"),
            cell("", "head", "/>")
        ),
        format!(
            r#"<a:tr h="370840">{}{}{}</a:tr>"#,
            cell(
                r#"rowSpan="2""#,
                "tall",
                r#" anchor="ctr"><a:solidFill><a:srgbClr val="FFFF00"/></a:solidFill></a:tcPr>"#
            ),
            cell("", "b", "/>"),
            cell("", "c", "/>")
        ),
        format!(
            r#"<a:tr h="370840">{}{}{}</a:tr>"#,
            cell(r#"vMerge="1""#, "", "/>"),
            cell("", "d", "/>"),
            cell("", "e", "/>")
        ),
    ]
    .concat();
    let frame = format!(
        r#"<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table 3"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="1524000" y="1397000"/><a:ext cx="6096000" cy="1112520"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr firstRow="1" bandRow="1"><a:tableStyleId>{{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}}</a:tableStyleId></a:tblPr><a:tblGrid><a:gridCol w="2032000"/><a:gridCol w="2032000"/><a:gridCol w="2032000"/></a:tblGrid>{rows}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>"#
    );
    let p = one_slide(&frame);
    let shape = &p.slides[0].shapes[0];
    assert_eq!((shape.frame.x, shape.frame.y), (1_524_000, 1_397_000));
    let ShapeKind::Table(Table { columns, rows }) = &shape.kind else {
        panic!("not a table")
    };
    assert_eq!(columns, &vec![2_032_000; 3]);
    let r0 = &rows[0].cells;
    assert_eq!(
        (r0[0].col_span, r0[1].merged, r0[2].merged),
        (2, true, false)
    );
    let r1 = &rows[1].cells;
    assert_eq!(
        (r1[0].row_span, r1[0].text.anchor),
        (2, VerticalAnchor::Middle)
    );
    assert!(rows[2].cells[0].merged);
    // The cell's own fill beats the style; the header row is accent1 with white bold
    // text; body rows are banded with accent1 tints.
    assert_eq!(
        r1[0].fill,
        Fill::Solid {
            color: Color::rgb(0xFFFF00)
        }
    );
    assert_eq!(
        r0[0].fill,
        Fill::Solid {
            color: Color::rgb(0x4472C4)
        }
    );
    let head = &r0[0].text.paragraphs[0].runs[0];
    assert!(head.bold);
    assert_eq!(head.color, Color::rgb(0xFFFFFF));
    assert_ne!(r1[1].fill, rows[2].cells[1].fill);
    let html = html_of(&p, 0);
    assert!(html.contains("<td colspan=\"2\""));
    assert!(html.contains("<td rowspan=\"2\""));
    assert_eq!(html.matches("<td").count(), 7);
    assert!(html.contains("wide") && html.contains("tall"));
}

#[test]
fn auto_numbered_bullets_count_per_level() {
    let body = r#"<a:p><a:pPr><a:buFont typeface="+mj-lt"/><a:buAutoNum type="arabicPeriod"/></a:pPr><a:r><a:t>one</a:t></a:r></a:p>
<a:p><a:pPr lvl="1"><a:buAutoNum type="alphaLcParenR"/></a:pPr><a:r><a:t>one-a</a:t></a:r></a:p>
<a:p><a:pPr lvl="1"><a:buAutoNum type="alphaLcParenR"/></a:pPr><a:r><a:t>one-b</a:t></a:r></a:p>
<a:p><a:pPr lvl="1"><a:buAutoNum type="alphaLcParenR"/></a:pPr><a:endParaRPr/></a:p>
<a:p><a:pPr lvl="1"><a:buAutoNum type="alphaLcParenR"/></a:pPr><a:r><a:t>one-c</a:t></a:r></a:p>
<a:p><a:pPr><a:buAutoNum type="arabicPeriod"/></a:pPr><a:r><a:t>two</a:t></a:r></a:p>
<a:p><a:pPr lvl="1"><a:buAutoNum type="romanUcPeriod" startAt="4"/></a:pPr><a:r><a:t>two-iv</a:t></a:r></a:p>
<a:p><a:pPr><a:buNone/></a:pPr><a:r><a:t>break</a:t></a:r></a:p>
<a:p><a:pPr><a:buAutoNum type="arabicPeriod"/></a:pPr><a:r><a:t>restart</a:t></a:r></a:p>"#;
    let p = one_slide(&pptx_sp(3, Some(r#"idx="1""#), None, "", body));
    let labels: Vec<String> = text(&p.slides[0].shapes[0])
        .paragraphs
        .iter()
        .map(|para| {
            para.bullet
                .as_ref()
                .map_or(String::new(), |b| b.text.clone())
        })
        .collect();
    assert_eq!(labels, ["1.", "a)", "b)", "", "c)", "2.", "IV.", "", "1."]);
    let para = &text(&p.slides[0].shapes[0]).paragraphs[1];
    assert_eq!(para.level, 1);
    assert_eq!(
        para.bullet.as_ref().unwrap().scheme.as_deref(),
        Some("alphaLcParenR")
    );
    // The bullet font resolves through the theme.
    assert_eq!(
        text(&p.slides[0].shapes[0]).paragraphs[0]
            .bullet
            .as_ref()
            .unwrap()
            .font
            .as_deref(),
        Some("Calibri Light")
    );
    let html = html_of(&p, 0);
    assert!(html.contains(">b)</span>"));
}

/// A Wingdings bullet is drawn as the Unicode shape its character stands for, in the
/// faces that stand in for symbol fonts (OpenSymbol first), not in the text's face,
/// whose square was a third larger (`shapecrawler-031`).
#[test]
fn symbol_font_bullets_are_drawn_in_the_symbol_stand_ins() {
    let body = r#"<a:p><a:pPr><a:buFont typeface="Wingdings"/><a:buChar char="&#xF06E;"/></a:pPr><a:r><a:rPr><a:latin typeface="Tahoma"/></a:rPr><a:t>squared</a:t></a:r></a:p>"#;
    let p = one_slide(&pptx_sp(3, None, Some((0, 0, 100, 100)), "", body));
    let html = html_of(&p, 0);
    let start = html.find("class=\"pptx-bu\"").expect("a bullet");
    let bullet = &html[start..start + html[start..].find("</span>").expect("end")];
    assert!(bullet.ends_with(">\u{25A0}"), "{bullet}");
    assert!(
        bullet.contains("font-family:'OpenSymbol','DejaVu Sans'"),
        "{bullet}"
    );
}

#[test]
fn hidden_slides_order_and_notes() {
    let mut hidden = PptxSlide::new(&pptx_sp(
        2,
        None,
        Some((0, 0, 10, 10)),
        "",
        &pptx_p("second part"),
    ));
    hidden.attrs = r#"show="0""#.to_owned();
    hidden.notes = vec!["Say hello &amp; smile".to_owned(), "Then leave".to_owned()];
    let first = PptxSlide::new(&pptx_sp(
        2,
        None,
        Some((0, 0, 10, 10)),
        "",
        &pptx_p("first part"),
    ));
    let mut f = PptxFixture::new(vec![first, hidden]);
    // The list, not the part names, gives the order.
    f.order = Some(vec![1, 0]);
    let p = parse(&f);
    assert_eq!(p.slides[0].part.as_deref(), Some("ppt/slides/slide2.xml"));
    assert!(p.slides[0].hidden && !p.slides[1].hidden);
    assert_eq!(p.slides[0].notes, vec!["Say hello & smile", "Then leave"]);
    assert!(p.slides[1].notes.is_empty());
    let html = render_html(&p, &RenderOptions::default());
    let first_section = html.find("id=\"slide-1\"").unwrap();
    assert!(html[first_section..].starts_with(
        "id=\"slide-1\" data-slide=\"1\" aria-label=\"Slide 1 of 2, hidden\" data-hidden>"
    ));
    assert!(html.find("second part").unwrap() < html.find("first part").unwrap());
    assert!(html.contains("<aside class=\"pptx-notes\" aria-label=\"Speaker notes\"><p>Say hello &amp; smile</p><p>Then leave</p></aside>"));
    assert!(html.contains("class=\"pptx-thumb is-hidden\""));
}

#[test]
fn hyperlinks_keep_only_safe_schemes_and_slide_jumps() {
    let body = r#"<a:p><a:r><a:rPr><a:hlinkClick r:id="rId7"/></a:rPr><a:t>web</a:t></a:r><a:r><a:rPr><a:hlinkClick r:id="rId8"/></a:rPr><a:t>script</a:t></a:r><a:r><a:rPr><a:hlinkClick r:id="rId9"/></a:rPr><a:t>mail</a:t></a:r><a:r><a:rPr><a:hlinkClick r:id="rId10" action="ppaction://hlinksldjump"/></a:rPr><a:t>jump</a:t></a:r></a:p>"#;
    let mut slide = PptxSlide::new(&pptx_sp(2, None, Some((0, 0, 10, 10)), "", body));
    slide.rels = vec![
        (
            "rId7".into(),
            "hyperlink".into(),
            "https://example.com/?a=1&amp;b=&quot;2&quot;".into(),
            true,
        ),
        (
            "rId8".into(),
            "hyperlink".into(),
            "javascript:alert(1)".into(),
            true,
        ),
        (
            "rId9".into(),
            "hyperlink".into(),
            "mailto:a@example.com".into(),
            true,
        ),
        ("rId10".into(), "slide".into(), "slide2.xml".into(), false),
    ];
    let p = parse(&PptxFixture::new(vec![slide, PptxSlide::new("")]));
    let runs = &text(&p.slides[0].shapes[0]).paragraphs[0].runs;
    assert_eq!(
        runs[0].link,
        Some(Link::Url {
            url: "https://example.com/?a=1&b=\"2\"".into()
        })
    );
    assert_eq!(runs[1].link, None);
    assert!(matches!(runs[2].link, Some(Link::Url { .. })));
    assert_eq!(runs[3].link, Some(Link::Slide { number: 2 }));
    // Links take the theme's hyperlink colour, underlined.
    assert_eq!(runs[0].color, Color::rgb(0x0563C1));
    assert_eq!(runs[0].underline.as_deref(), Some("sng"));
    let html = html_of(&p, 0);
    assert!(html.contains(r#"href="https://example.com/?a=1&amp;b=&quot;2&quot;" target="_blank" rel="noopener noreferrer""#));
    assert!(!html.contains("javascript"));
    assert!(html.contains(r##"href="#slide-2" data-pptx-goto="2""##));
}

#[test]
fn text_is_escaped_everywhere() {
    let body =
        "<a:p><a:r><a:t>&lt;script&gt;alert('x')&lt;/script&gt; &amp; more</a:t></a:r></a:p>";
    let mut sp = pptx_sp(2, None, Some((0, 0, 10, 10)), "", body);
    sp = sp.replace(
        "name=\"Shape 2\"",
        "name=\"&quot;&gt;&lt;img src=x&gt;\" descr=\"&lt;b&gt;\"",
    );
    let mut slide = PptxSlide::new(&sp);
    slide.notes = vec!["&lt;/aside&gt;".to_owned()];
    let p = parse(&PptxFixture::new(vec![slide]));
    let html = render_html(&p, &RenderOptions::default());
    assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more"));
    assert!(!html.contains("<script"));
    assert!(!html.contains("<img src=x"));
    assert!(!html.contains("<b>"));
    assert!(html.contains("<p>&lt;/aside&gt;</p>"));
}

#[test]
fn fills_lines_arrows_and_custom_geometry() {
    let grad = r#"<a:prstGeom prst="roundRect"><a:avLst><a:gd name="adj" fmla="val 50000"/></a:avLst></a:prstGeom><a:gradFill><a:gsLst><a:gs pos="0"><a:srgbClr val="FF0000"/></a:gs><a:gs pos="100000"><a:srgbClr val="0000FF"/></a:gs></a:gsLst><a:lin ang="5400000"/></a:gradFill><a:ln w="25400"><a:solidFill><a:srgbClr val="00FF00"/></a:solidFill><a:prstDash val="dash"/></a:ln>"#;
    let connector = r#"<p:cxnSp><p:nvCxnSpPr><p:cNvPr id="3" name="Arrow"/><p:cNvCxnSpPr/><p:nvPr/></p:nvCxnSpPr><p:spPr><a:xfrm flipV="1"><a:off x="0" y="0"/><a:ext cx="1270000" cy="0"/></a:xfrm><a:prstGeom prst="straightConnector1"><a:avLst/></a:prstGeom><a:ln w="12700"><a:solidFill><a:srgbClr val="000000"/></a:solidFill><a:tailEnd type="triangle"/></a:ln></p:spPr><p:style><a:lnRef idx="2"><a:schemeClr val="accent1"/></a:lnRef><a:fillRef idx="0"><a:schemeClr val="accent1"/></a:fillRef><a:effectRef idx="0"><a:schemeClr val="accent1"/></a:effectRef><a:fontRef idx="minor"><a:schemeClr val="tx1"/></a:fontRef></p:style></p:cxnSp>"#;
    let free = r#"<a:custGeom><a:avLst/><a:gdLst><a:gd name="half" fmla="*/ w 1 2"/></a:gdLst><a:pathLst><a:path w="100" h="100"><a:moveTo><a:pt x="0" y="0"/></a:moveTo><a:lnTo><a:pt x="100" y="50"/></a:lnTo><a:cubicBezTo><a:pt x="50" y="100"/><a:pt x="20" y="100"/><a:pt x="0" y="100"/></a:cubicBezTo><a:close/></a:path></a:pathLst></a:custGeom><a:noFill/><a:ln w="12700"><a:solidFill><a:srgbClr val="000000"/></a:solidFill></a:ln>"#;
    let styled = r#"<a:prstGeom prst="ellipse"><a:avLst/></a:prstGeom>"#;
    let style = r#"<p:style><a:lnRef idx="2"><a:schemeClr val="accent1"><a:shade val="50000"/></a:schemeClr></a:lnRef><a:fillRef idx="1"><a:schemeClr val="accent1"/></a:fillRef><a:effectRef idx="0"><a:schemeClr val="accent1"/></a:effectRef><a:fontRef idx="minor"><a:schemeClr val="lt1"/></a:fontRef></p:style>"#;
    let tree = [
        pptx_sp(2, None, Some((0, 0, 1270000, 635000)), grad, ""),
        connector.to_owned(),
        pptx_sp(4, None, Some((0, 0, 2540000, 1270000)), free, ""),
        pptx_sp(
            5,
            None,
            Some((0, 0, 1270000, 1270000)),
            styled,
            &pptx_p("styled"),
        )
        .replace("</p:spPr>", &format!("</p:spPr>{style}")),
    ]
    .concat();
    let p = one_slide(&tree);
    let s = &p.slides[0].shapes;
    let a = auto(&s[0]);
    assert!(matches!(&a.fill, Fill::Gradient(g) if g.stops.len() == 2));
    let line = a.line.as_ref().unwrap();
    assert_eq!(
        (line.width, line.dash.as_str(), line.color),
        (25_400, "dash", Color::rgb(0x00FF00))
    );
    // The connector: the style's 2 pt accent line, narrowed and recoloured by its own
    // outline, with an arrow head at its end.
    let c = auto(&s[1]);
    assert!(c.connector && c.fill == Fill::None);
    let cl = c.line.as_ref().unwrap();
    assert_eq!((cl.width, cl.color), (12_700, Color::rgb(0)));
    assert_eq!(cl.tail.as_ref().unwrap().kind, "triangle");
    assert!(s[1].frame.flip_v);
    // Custom geometry keeps its commands in path units.
    let Geometry::Custom { paths } = &auto(&s[2]).geometry else {
        panic!("not custom")
    };
    assert_eq!(
        paths[0].commands[1],
        PathCommand::LineTo { x: 100.0, y: 50.0 }
    );
    assert_eq!(paths[0].commands.len(), 4);
    assert_eq!(auto(&s[2]).fill, Fill::None);
    // Style references: fill accent1, line accent1 shaded, text lt1.
    let st = auto(&s[3]);
    assert_eq!(
        st.fill,
        Fill::Solid {
            color: Color::rgb(0x4472C4)
        }
    );
    assert_eq!(st.line.as_ref().unwrap().width, 25_400);
    assert_eq!(
        text(&s[3]).paragraphs[0].runs[0].color,
        Color::rgb(0xFFFFFF)
    );
    let html = html_of(&p, 0);
    assert!(
        html.contains("<linearGradient id=\"pptx-s1-g1\" x1=\"0.5\" y1=\"0\" x2=\"0.5\" y2=\"1\">")
    );
    assert!(html.contains("stroke-dasharray=\"6 2\""));
    // The custom path scaled from 100×100 path units to 200×100 points.
    assert!(html.contains("d=\"M0 0L200 50C100 100 40 100 0 100Z\" fill=\"none\""));
    // The arrow head: a filled triangle at the line's end (100, 0).
    assert!(html.contains("<path d=\"M100 0L97 1.5L97 -1.5Z\" fill=\"#000000\""));
}

#[test]
fn autofit_scales_text_and_line_spacing() {
    let body = r#"<p:txBody><a:bodyPr lIns="0" tIns="0" rIns="0" bIns="0" wrap="none" anchor="ctr" vert="vert270"><a:normAutofit fontScale="50000" lnSpcReduction="20000"/></a:bodyPr><a:lstStyle/><a:p><a:pPr><a:lnSpc><a:spcPct val="90000"/></a:lnSpc><a:spcAft><a:spcPts val="600"/></a:spcAft></a:pPr><a:r><a:rPr sz="4000" b="1" i="1" u="sng" strike="sngStrike" baseline="30000" cap="all"><a:latin typeface="Georgia"/></a:rPr><a:t>Big</a:t></a:r><a:br><a:rPr sz="4000"/></a:br><a:fld type="slidenum" id="{x}"><a:t>‹#›</a:t></a:fld></a:p></p:txBody>"#;
    let sp = format!(
        r#"<p:sp><p:nvSpPr><p:cNvPr id="2" name="Fit"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="100" cy="100"/></a:xfrm></p:spPr>{body}</p:sp>"#
    );
    let p = one_slide(&sp);
    let t = text(&p.slides[0].shapes[0]);
    assert_eq!(
        (t.autofit.as_str(), t.font_scale, t.line_reduction),
        ("normal", 0.5, 0.2)
    );
    assert_eq!(
        (t.insets, t.wrap, t.anchor),
        ([0; 4], false, VerticalAnchor::Middle)
    );
    assert_eq!(t.vertical, "vert270");
    let para = &t.paragraphs[0];
    // The reduction is subtracted from the percentage (90 % − 20 %), not applied as a
    // factor (which would give 72 %).
    assert_eq!(para.line_spacing, Spacing::Percent(70.0));
    assert_eq!(para.space_after, Spacing::Points(6.0));
    let r = &para.runs[0];
    assert_eq!(r.size, 20.0);
    assert!(r.bold && r.italic);
    assert_eq!(
        (r.underline.as_deref(), r.strike.as_deref()),
        (Some("sng"), Some("sngStrike"))
    );
    assert_eq!(
        (r.baseline, r.caps.as_deref(), r.font.as_deref()),
        (30.0, Some("all"), Some("Georgia"))
    );
    assert_eq!(para.runs[1].kind, RunKind::Break);
    // A slide-number field shows the slide's number.
    assert_eq!(para.runs[2].text, "1");
    let html = html_of(&p, 0);
    assert!(html.contains("pptx-tx pptx-nowrap"));
    assert!(html.contains("writing-mode:vertical-rl;transform:rotate(180deg)"));
    assert!(html.contains("line-height:0.84;"));
    assert!(html.contains("text-decoration:underline line-through"));
    assert!(html.contains("font-family:'Gelasio','Georgia','Liberation Serif',serif"));
}

#[test]
fn backgrounds_inherit_from_the_master() {
    let mut f = PptxFixture::new(vec![PptxSlide::new(""), PptxSlide::new("")]);
    f.master_bg = r#"<p:bg><p:bgPr><a:gradFill><a:gsLst><a:gs pos="0"><a:schemeClr val="accent1"/></a:gs><a:gs pos="100000"><a:schemeClr val="accent2"/></a:gs></a:gsLst><a:lin ang="0"/></a:gradFill><a:effectLst/></p:bgPr></p:bg>"#.to_owned();
    f.slides[1].before_tree =
        r#"<p:bg><p:bgRef idx="1003"><a:schemeClr val="accent6"/></p:bgRef></p:bg>"#.to_owned();
    let p = parse(&f);
    assert!(
        matches!(&p.slides[0].background, Fill::Gradient(g) if g.stops[1].color == Color::rgb(0xED7D31))
    );
    // bgRef 1003: the third background style (phClr shaded to 90 %).
    let Fill::Solid { color } = p.slides[1].background else {
        panic!("solid background expected")
    };
    assert_ne!(color, Color::rgb(0x70AD47));
    let html = html_of(&p, 0);
    assert!(html.contains("background:linear-gradient(90deg,#4472C4 0%,#ED7D31 100%)"));
}

#[test]
fn layout_and_master_decorations_are_shared_layers() {
    let logo = pptx_sp(
        9,
        None,
        Some((0, 6_400_000, 9_144_000, 458_000)),
        r#"<a:solidFill><a:schemeClr val="accent1"/></a:solidFill>"#,
        &pptx_p("Company footer"),
    );
    let mut f = PptxFixture::new(vec![
        PptxSlide::new(&pptx_sp(
            2,
            Some(r#"type="title""#),
            None,
            "",
            &pptx_p("One"),
        )),
        PptxSlide::new(""),
        PptxSlide::new(""),
    ]);
    f.master_extra = logo;
    f.slides[2].attrs = r#"showMasterSp="0""#.to_owned();
    let p = parse(&f);
    assert_eq!(p.layers.len(), 1);
    assert_eq!(p.layers[0].shapes.len(), 1);
    assert_eq!(
        (p.slides[0].layer, p.slides[1].layer, p.slides[2].layer),
        (Some(0), Some(0), None)
    );
    assert!(html_of(&p, 1).contains("Company footer"));
    assert!(!html_of(&p, 2).contains("Company footer"));
}

/// A one-slide deck whose only shape is a 400 × 300 pt frame showing `chart` (a
/// `c:chartSpace` part).
fn chart_deck(chart: &str) -> Presentation {
    chart_deck_with(chart, Vec::new())
}

/// [`chart_deck`] with more parts in the package (the chart's relationships …).
fn chart_deck_with(chart: &str, more: Vec<(String, Vec<u8>)>) -> Presentation {
    let frame = r#"<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Chart 3"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="0" y="0"/><a:ext cx="5080000" cy="3810000"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rId3"/></a:graphicData></a:graphic></p:graphicFrame>"#;
    let mut slide = PptxSlide::new(frame);
    slide.rels = vec![(
        "rId3".into(),
        "chart".into(),
        "../charts/chart1.xml".into(),
        false,
    )];
    let mut f = PptxFixture::new(vec![slide]);
    f.parts = vec![("ppt/charts/chart1.xml".into(), chart.as_bytes().to_vec())];
    f.parts.extend(more);
    parse(&f)
}

fn chart_of(p: &Presentation) -> &crate::office::pptx::model::Chart {
    let ShapeKind::Chart(c) = &p.slides[0].shapes[0].kind else {
        panic!("not a chart")
    };
    c
}

/// The number in attribute `name` of the last element that starts before `needle`.
fn attr_before(html: &str, needle: &str, name: &str) -> f64 {
    let at = html.find(needle).unwrap_or_else(|| panic!("{needle}"));
    let key = format!(" {name}=\"");
    let head = &html[..at];
    let value = &head[head.rfind(&key).unwrap() + key.len()..];
    value[..value.find('"').unwrap()].parse().unwrap()
}

const CHART_SERIES: &str = r#"<c:ser><c:idx val="0"/><c:tx><c:v>2024</c:v></c:tx><c:cat><c:strLit><c:ptCount val="2"/><c:pt idx="0"><c:v>North</c:v></c:pt><c:pt idx="1"><c:v>South</c:v></c:pt></c:strLit></c:cat><c:val><c:numLit><c:ptCount val="2"/><c:pt idx="0"><c:v>3</c:v></c:pt><c:pt idx="1"><c:v>5</c:v></c:pt></c:numLit></c:val></c:ser>"#;

#[test]
fn charts_show_title_and_type() {
    let chart = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>Sales by region</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart><c:barDir val="col"/>{CHART_SERIES}</c:barChart></c:plotArea></c:chart></c:chartSpace>"#
    );
    let p = chart_deck(&chart);
    let c = chart_of(&p);
    assert_eq!(c.title.as_deref(), Some("Sales by region"));
    assert_eq!(c.chart_types, ["column"]);
    let s = &c.plots[0].series[0];
    assert_eq!(s.name.as_deref(), Some("2024"));
    assert_eq!(s.values, [Some(3.0), Some(5.0)]);
    assert_eq!(s.color, Color::rgb(0x4472C4));
    // No c:legend, no axes: none is drawn; text at Office's default 10 pt.
    assert_eq!((&c.legend, c.axes.len(), c.text.size), (&None, 0, 10.0));
    let html = html_of(&p, 0);
    assert!(html.contains("aria-label=\"Column chart: Sales by region\""));
    assert!(html.contains("<rect "));
    assert!(!html.contains(">2024</text>"), "no legend");
    assert!(!html.contains("#D9D9D9"), "no gridlines");
}

#[test]
fn charts_keep_legend_position_value_axis_and_text_sizes() {
    let txpr = |sz: u32| {
        format!(
            r#"<c:txPr><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="{sz}"/></a:pPr><a:endParaRPr lang="en-US"/></a:p></c:txPr>"#
        )
    };
    let axes = |val_axis: &str| {
        format!(
            r#"<c:catAx><c:axId val="1"/><c:delete val="0"/><c:axPos val="b"/>{}<c:crossAx val="2"/></c:catAx><c:valAx><c:axId val="2"/>{val_axis}<c:crossAx val="1"/></c:valAx>"#,
            txpr(1200)
        )
    };
    let chart = |axes: &str, legend: &str| {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:plotArea><c:barChart><c:barDir val="col"/>{CHART_SERIES}<c:axId val="1"/><c:axId val="2"/></c:barChart>{axes}</c:plotArea>{legend}</c:chart>{}</c:chartSpace>"#,
            txpr(1800)
        )
    };
    // Legend at the bottom with its own size; the value axis takes the chart's 18 pt,
    // the category axis its own 12 pt.
    let shown = chart(
        &axes(
            r#"<c:delete val="0"/><c:axPos val="l"/><c:majorGridlines/><c:tickLblPos val="nextTo"/>"#,
        ),
        &format!(
            r#"<c:legend><c:legendPos val="b"/>{}</c:legend>"#,
            txpr(1400)
        ),
    );
    let p = chart_deck(&shown);
    let c = chart_of(&p);
    let legend = c.legend.as_ref().expect("a legend");
    assert_eq!((legend.position.as_str(), legend.text.size), ("b", 14.0));
    let axis = c.axis(2).expect("a value axis");
    assert_eq!(
        (axis.gridlines.is_some(), axis.labels, axis.text.size),
        (true, true, 18.0)
    );
    assert_eq!(c.axis(1).expect("a category axis").text.size, 12.0);
    let html = html_of(&p, 0);
    // Values 3 and 5 on a 0–6 axis (5 plus 5 % headroom, rounded up to the step of 1):
    // seven labels and gridlines.
    for v in 0..=6 {
        assert!(
            html.contains(&format!(
                "font-size=\"18\" fill=\"#595959\" text-anchor=\"end\">{v}</text>"
            )),
            "{v}"
        );
    }
    assert!(!html.contains(">7</text>"));
    // Gridlines without a line of their own: the chart style's grey, as the two axis
    // lines.
    assert_eq!(html.matches("stroke=\"#898989\"").count(), 9);
    assert!(html.contains("font-size=\"12\" fill=\"#595959\" text-anchor=\"middle\">North</text>"));
    // The legend row is under the plot, below the category labels.
    assert!(attr_before(&html, ">2024</text>", "y") > attr_before(&html, ">North</text>", "y"));
    assert!(html.contains("font-size=\"14\" fill=\"#595959\" text-anchor=\"start\">2024</text>"));

    // A legend without legendPos is on the right; tick labels can be switched off while
    // gridlines stay; a deleted value axis loses its labels and line but keeps its
    // gridlines (Office's delete removes the axis, not the gridlines; LibreOffice draws
    // them too).
    let right = chart(
        &axes(
            r#"<c:delete val="0"/><c:axPos val="l"/><c:majorGridlines/><c:tickLblPos val="none"/>"#,
        ),
        "<c:legend/>",
    );
    let p = chart_deck(&right);
    let c = chart_of(&p);
    assert_eq!(c.legend.as_ref().map(|l| l.position.as_str()), Some("r"));
    assert_eq!(
        c.axis(2).map(|a| (a.gridlines.is_some(), a.labels)),
        Some((true, false))
    );
    let html = html_of(&p, 0);
    assert!(!html.contains("text-anchor=\"end\""), "no value labels");
    assert!(html.contains("stroke=\"#898989\""), "gridlines");
    assert!(
        attr_before(&html, ">2024</text>", "x") > attr_before(&html, ">South</text>", "x"),
        "legend right of the plot"
    );
    let deleted = chart(&axes(r#"<c:delete val="1"/><c:majorGridlines/>"#), "");
    let p = chart_deck(&deleted);
    assert!(chart_of(&p).axis(2).expect("kept").deleted);
    let html = html_of(&p, 0);
    assert!(html.contains("stroke=\"#898989\""), "gridlines: {html}");
    assert!(
        !html.contains("text-anchor=\"end\""),
        "no value labels: {html}"
    );
}

#[test]
fn render_options_prefix_ids_and_media() {
    let mut slide = PptxSlide::new(
        r#"<p:pic><p:nvPicPr><p:cNvPr id="2" name="P"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="rId5"/></p:blipFill><p:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="10" cy="10"/></a:xfrm></p:spPr></p:pic>"#,
    );
    slide.rels = vec![(
        "rId5".into(),
        "image".into(),
        "../media/a b.png".into(),
        false,
    )];
    let mut f = PptxFixture::new(vec![slide, PptxSlide::new("")]);
    f.parts = vec![("ppt/media/a b.png".into(), png_header(2, 2))];
    let p = parse(&f);
    let opts = RenderOptions {
        id_prefix: "d2-".into(),
        media_prefix: "/p/x/media/".into(),
        ..RenderOptions::default()
    };
    let html = render_html(&p, &opts);
    assert!(html.contains("id=\"d2-slide-2\""));
    assert!(html.contains("href=\"#d2-slide-1\""));
    assert!(html.contains("data-id-prefix=\"d2-\""));
    assert!(html.contains("src=\"/p/x/media/ppt/media/a%20b.png\""));
    let mut urls = std::collections::HashMap::new();
    urls.insert(
        "ppt/media/a b.png".to_owned(),
        "data:image/png;base64,AAAA".to_owned(),
    );
    let html = render_html(
        &p,
        &RenderOptions {
            media_urls: urls,
            standalone: true,
            lazy: false,
            script: ViewerScript::Inline,
            ..RenderOptions::default()
        },
    );
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("src=\"data:image/png;base64,AAAA\""));
    assert!(!html.contains("<template class"));
    // The standalone page carries the viewer script inline, right after slide 1 (not in
    // the head, and before slide 2), so the viewer runs before later slides are parsed.
    let script = html.find("<script>").expect("inline viewer script");
    assert!(html[script..].contains("data-pptx-ready"));
    assert!(html.find("id=\"slide-1\"").unwrap() < script);
    assert!(script < html.find("id=\"slide-2\"").unwrap());
    assert!(html.find("</head>").unwrap() < script);
    assert_eq!(html.matches("<script").count(), 1);
    // The script body cannot end its element early.
    assert!(!VIEWER_JS.contains("</script"));
}

#[test]
fn the_viewer_script_by_url_sits_after_slide_1_and_not_at_all_by_default() {
    let p = parse(&PptxFixture::new(vec![
        PptxSlide::new(""),
        PptxSlide::new(""),
        PptxSlide::new(""),
    ]));
    let html = render_html(
        &p,
        &RenderOptions {
            script: ViewerScript::Src("../static/pptx.js?a=1&b=\"2\"".into()),
            ..RenderOptions::default()
        },
    );
    let tag = "<script src=\"../static/pptx.js?a=1&amp;b=&quot;2&quot;\"></script>";
    let at = html.find(tag).expect("escaped script element");
    assert_eq!(html.matches("<script").count(), 1);
    // Right after slide 1's section: neither deferred nor async, it runs at that point.
    assert!(html[..at].ends_with("</section>"));
    assert!(at < html.find("id=\"slide-2\"").unwrap());
    // Inside the deck, so the script can tell which deck it belongs to.
    assert!(html.find("data-pptx").unwrap() < at);
    assert!(!html.contains("<script>"));
    assert!(!render_html(&p, &RenderOptions::default()).contains("<script"));
    // A deck without slides still gets its script (inside the deck element).
    let empty = parse(&PptxFixture::new(vec![]));
    let html = render_html(
        &empty,
        &RenderOptions {
            script: ViewerScript::Src("v.js".into()),
            ..RenderOptions::default()
        },
    );
    assert!(
        html.ends_with("<script src=\"v.js\"></script></div>"),
        "{html}"
    );
}

#[test]
fn percent_space_before_is_a_share_of_the_text_size_not_of_the_line() {
    // The master's body style gives spcBef 20 % at 32 pt (see PPTX_TX_STYLES); a second
    // paragraph mixes 32 pt and 40 pt runs.
    let body = r#"<a:p><a:r><a:t>first</a:t></a:r></a:p><a:p><a:r><a:t>second</a:t></a:r></a:p><a:p><a:r><a:t>small </a:t></a:r><a:r><a:rPr sz="4000"/><a:t>big</a:t></a:r></a:p>"#;
    let p = one_slide(&pptx_sp(3, Some("idx=\"1\""), None, "", body));
    let t = text(&p.slides[0].shapes[0]);
    assert_eq!(t.paragraphs[1].space_before, Spacing::Percent(20.0));
    let html = html_of(&p, 0);
    let paras: Vec<&str> = html.split("<p class=\"pptx-p\"").skip(1).collect();
    assert_eq!(paras.len(), 3);
    // No space above the frame's first paragraph.
    assert!(!paras[0].contains("margin-top"), "{}", paras[0]);
    // 20 % of 32 pt is 6.4 pt (not 20 % of a 1.2 × 32 pt line, 7.68 pt).
    assert!(
        paras[1].contains("margin-top:calc(var(--pt)*6.4);"),
        "{}",
        paras[1]
    );
    // The largest text of the paragraph counts: 20 % of 40 pt.
    assert!(
        paras[2].contains("margin-top:calc(var(--pt)*8);"),
        "{}",
        paras[2]
    );
}

#[test]
fn a_line_break_ending_a_paragraph_keeps_its_empty_line() {
    // PowerPoint shows the line a trailing `a:br` opens; a `<br>` ending an HTML block
    // opens none, so the paragraph needs a second one.
    let body = r#"<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr sz="2000"/><a:t>Ends</a:t></a:r><a:br><a:rPr sz="2000"/></a:br></a:p><a:p><a:r><a:rPr sz="2000"/><a:t>Mid</a:t></a:r><a:br/><a:r><a:rPr sz="2000"/><a:t>dle</a:t></a:r></a:p></p:txBody>"#;
    let sp = format!(
        r#"<p:sp><p:nvSpPr><p:cNvPr id="2" name="Breaks"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="3000000" cy="2000000"/></a:xfrm></p:spPr>{body}</p:sp>"#
    );
    let p = one_slide(&sp);
    let html = html_of(&p, 0);
    let paras: Vec<&str> = html
        .split("<p class=\"pptx-p\"")
        .skip(1)
        .map(|s| s.split("</p>").next().unwrap())
        .collect();
    assert_eq!(paras.len(), 2, "{html}");
    assert!(paras[0].contains("Ends</span>"), "{}", paras[0]);
    assert_eq!(paras[0].matches("<br>").count(), 2, "{}", paras[0]);
    assert!(paras[0].ends_with("<br><br>"), "{}", paras[0]);
    // A break between runs is one line break, nothing added.
    assert_eq!(paras[1].matches("<br>").count(), 1, "{}", paras[1]);
}

#[test]
fn shadows_and_glow_from_the_effect_list_and_the_theme_effect_style() {
    use super::support::PPTX_THEME;
    use crate::office::pptx::model::Shadow;
    // Effect style 3 of the theme casts a shadow in its reference colour (`phClr`).
    let theme = PPTX_THEME.replacen(
        "<a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst>",
        r#"<a:effectStyle><a:effectLst><a:outerShdw blurRad="38100" dist="25400" dir="5400000"><a:schemeClr val="phClr"><a:alpha val="50000"/></a:schemeClr></a:outerShdw></a:effectLst></a:effectStyle></a:effectStyleLst>"#,
        1,
    );
    assert_ne!(theme, PPTX_THEME);
    let style = r#"<p:style><a:lnRef idx="0"><a:schemeClr val="accent1"/></a:lnRef><a:fillRef idx="1"><a:schemeClr val="accent1"/></a:fillRef><a:effectRef idx="3"><a:srgbClr val="FF0000"/></a:effectRef><a:fontRef idx="minor"/></p:style>"#;
    let sp = |id: u32, effects: &str| {
        format!(
            r#"<p:sp><p:nvSpPr><p:cNvPr id="{id}" name="S{id}"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1270000" cy="1270000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom>{effects}</p:spPr>{style}</p:sp>"#
        )
    };
    let tree = [
        sp(2, ""),
        sp(3, "<a:effectLst/>"),
        sp(4, r#"<a:effectLst><a:glow rad="127000"><a:srgbClr val="00FF00"/></a:glow><a:innerShdw blurRad="63500" dist="50800" dir="0"><a:srgbClr val="000000"/></a:innerShdw></a:effectLst>"#),
    ]
    .concat();
    let mut deck = PptxFixture::new(vec![PptxSlide::new(&tree)]);
    deck.theme = Some(theme);
    let p = parse(&deck);
    let shapes = &p.slides[0].shapes;
    let shadow = shapes[0].effects.outer_shadow.expect("the style's shadow");
    assert!(
        shadow.dx.abs() < 1e-6 && (shadow.dy - 25_400.0).abs() < 1e-6,
        "{shadow:?}"
    );
    assert_eq!(shadow.blur, 38_100.0);
    assert_eq!(shadow.color.hex(), "#FF000080");
    // An empty effect list of the shape's own removes the style's effects.
    assert!(shapes[1].effects.is_empty(), "{:?}", shapes[1].effects);
    let e = &shapes[2].effects;
    assert_eq!(e.outer_shadow, None);
    assert_eq!(
        e.inner_shadow,
        Some(Shadow {
            dx: 50_800.0,
            dy: 0.0,
            blur: 63_500.0,
            color: Color::rgb(0),
        })
    );
    assert_eq!(
        e.glow.map(|g| (g.radius, g.color.hex())),
        Some((127_000.0, "#00FF00".to_owned()))
    );
    let html = html_of(&p, 0);
    assert!(
        html.contains(
            "filter:drop-shadow(calc(var(--pt)*0) calc(var(--pt)*2) calc(var(--pt)*3) #FF000080)"
        ),
        "{html}"
    );
    assert!(
        html.contains("drop-shadow(0 0 calc(var(--pt)*5) #00FF00)"),
        "{html}"
    );
    assert!(html.contains("<feOffset dx=\"4\" dy=\"0\""), "{html}");
    assert!(
        html.contains("<feGaussianBlur stdDeviation=\"2.5\"/>"),
        "{html}"
    );
}

#[test]
fn text_runs_cast_their_own_shadow() {
    // ShapeCrawler's decks shadow the letters of a text box (`a:rPr/a:effectLst`), not
    // the box.
    let body = r#"<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr sz="2400"><a:effectLst><a:outerShdw blurRad="38100" dist="38100" dir="2700000" algn="tl"><a:srgbClr val="000000"><a:alpha val="50000"/></a:srgbClr></a:outerShdw></a:effectLst></a:rPr><a:t>Shadowed</a:t></a:r><a:r><a:rPr sz="2400"/><a:t>plain</a:t></a:r></a:p></p:txBody>"#;
    let sp = format!(
        r#"<p:sp><p:nvSpPr><p:cNvPr id="2" name="T"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="3000000" cy="1000000"/></a:xfrm></p:spPr>{body}</p:sp>"#
    );
    let p = one_slide(&sp);
    let runs = &text(&p.slides[0].shapes[0]).paragraphs[0].runs;
    let s = runs[0].shadow.expect("a shadow on the first run");
    // 3 pt at 45°: 2.12 pt right and down.
    assert!(
        (s.dx - s.dy).abs() < 1e-6 && (s.dx - 26_940.7).abs() < 1.0,
        "{s:?}"
    );
    assert_eq!(s.color.hex(), "#00000080");
    assert_eq!(runs[1].shadow, None);
    let html = html_of(&p, 0);
    assert!(
        html.contains(";text-shadow:calc(var(--pt)*2.121) calc(var(--pt)*2.121) calc(var(--pt)*3) #00000080\">Shadowed"),
        "{html}"
    );
    assert_eq!(html.matches("text-shadow").count(), 1, "{html}");
}

#[test]
fn rectangular_gradients_and_rot_with_shape() {
    let rect = r#"<a:gradFill rotWithShape="0"><a:gsLst><a:gs pos="0"><a:srgbClr val="FFFFFF"/></a:gs><a:gs pos="100000"><a:srgbClr val="000000"/></a:gs></a:gsLst><a:path path="rect"><a:fillToRect l="50000" t="50000" r="50000" b="50000"/></a:path></a:gradFill>"#;
    let crossed = r#"<a:gradFill><a:gsLst><a:gs pos="0"><a:srgbClr val="FFFFFF"/></a:gs><a:gs pos="100000"><a:srgbClr val="000000"/></a:gs></a:gsLst><a:path path="shape"><a:fillToRect l="80000" t="0" r="80000" b="100000"/></a:path></a:gradFill>"#;
    let turned = r#"<a:gradFill rotWithShape="0"><a:gsLst><a:gs pos="0"><a:srgbClr val="FF0000"/></a:gs><a:gs pos="100000"><a:srgbClr val="0000FF"/></a:gs></a:gsLst><a:lin ang="0"/></a:gradFill>"#;
    let tree = [
        pptx_sp(2, None, Some((0, 0, 2_540_000, 1_270_000)), rect, ""),
        pptx_sp(3, None, Some((0, 0, 1_270_000, 1_270_000)), crossed, ""),
        pptx_sp(4, None, Some((0, 0, 1_270_000, 1_270_000)), turned, "")
            .replace("<a:xfrm>", r#"<a:xfrm rot="5400000">"#),
    ]
    .concat();
    let p = one_slide(&tree);
    let s = &p.slides[0].shapes;
    let Fill::Gradient(g) = &auto(&s[0]).fill else {
        panic!("gradient expected")
    };
    assert_eq!(
        g.kind,
        GradientKind::Rect {
            left: 0.5,
            top: 0.5,
            right: 0.5,
            bottom: 0.5
        }
    );
    assert!(!g.rotate_with_shape);
    // Crossing sides (l + r > 1) collapse to their midpoint; `shape` is drawn as `rect`.
    let Fill::Gradient(g) = &auto(&s[1]).fill else {
        panic!("gradient expected")
    };
    assert_eq!(
        g.kind,
        GradientKind::Rect {
            left: 0.5,
            top: 0.0,
            right: 0.5,
            bottom: 0.0
        }
    );
    let html = html_of(&p, 0);
    // The 200 × 100 pt box: bands from the centre (100, 50) out to every edge.
    assert!(html.contains("patternUnits=\"userSpaceOnUse\" width=\"200\" height=\"100\""));
    assert!(html.contains("gradientUnits=\"userSpaceOnUse\" x1=\"0\" y1=\"50\" x2=\"0\" y2=\"0\""));
    assert!(html.contains("<polygon points=\"200,0 100,50 100,50 200,100\""));
    // The turned shape's linear gradient keeps its slide angle: 0° − 90° = straight up.
    assert!(
        html.contains("x1=\"0.5\" y1=\"1\" x2=\"0.5\" y2=\"0\""),
        "counter-rotated gradient missing"
    );
}

#[test]
fn tiled_stretched_and_duotone_picture_fills() {
    let tiled = r#"<a:blipFill><a:blip r:embed="rId5"/><a:tile tx="127000" ty="0" sx="50000" sy="50000" flip="x" algn="tl"/></a:blipFill>"#;
    let stretched = r#"<a:blipFill><a:blip r:embed="rId5"><a:duotone><a:srgbClr val="000000"/><a:srgbClr val="FF0000"/></a:duotone></a:blip><a:srcRect/><a:stretch><a:fillRect l="-25000" r="-25000"/></a:stretch></a:blipFill>"#;
    let tree = [
        pptx_sp(2, None, Some((0, 0, 2_540_000, 1_270_000)), tiled, ""),
        pptx_sp(3, None, Some((0, 0, 2_540_000, 1_270_000)), stretched, ""),
    ]
    .concat();
    let mut slide = PptxSlide::new(&tree);
    slide.rels = vec![(
        "rId5".into(),
        "image".into(),
        "../media/image1.png".into(),
        false,
    )];
    let mut f = PptxFixture::new(vec![slide]);
    f.parts = vec![("ppt/media/image1.png".into(), png_header(160, 80))];
    let p = parse(&f);
    let s = &p.slides[0].shapes;
    let Fill::Picture { tile: Some(t), .. } = &auto(&s[0]).fill else {
        panic!("tiled picture expected: {:?}", auto(&s[0]).fill)
    };
    assert_eq!(
        (t.offset_x, t.scale_x, t.flip_x, t.flip_y),
        (127_000.0, 0.5, true, false)
    );
    let Fill::Picture {
        tile: None,
        stretch,
        duotone: Some(d),
        ..
    } = &auto(&s[1]).fill
    else {
        panic!("stretched duotone picture expected")
    };
    assert_eq!((stretch.left, stretch.right), (-0.25, -0.25));
    assert_eq!(d[1], Color::rgb(0xFF0000));
    let html = html_of(&p, 0);
    // 160 × 80 px at 96 dpi is 120 × 60 pt; at 50 % a tile is 60 × 30, two wide when
    // flipped, starting 10 pt in.
    assert!(
        html.contains("x=\"10\" y=\"0\" width=\"120\" height=\"30\""),
        "tile pattern missing"
    );
    assert!(html.contains("scale(-1 1)"));
    // The stretched picture reaches a quarter of the width past each side.
    assert!(html.contains("x=\"-50\" y=\"0\" width=\"300\" height=\"100\""));
    assert!(html.contains("<feFuncR type=\"table\" tableValues=\"0 1\"/>"));
}

#[test]
fn theme_picture_backgrounds_come_from_the_theme_part() {
    let mut f = PptxFixture::new(vec![PptxSlide::new("")]);
    let theme = f.theme.clone().unwrap().replace(
        r#"<a:solidFill><a:schemeClr val="phClr"><a:shade val="90000"/></a:schemeClr></a:solidFill></a:bgFillStyleLst>"#,
        r#"<a:blipFill><a:blip r:embed="rId1"/><a:tile tx="0" ty="0" sx="100000" sy="100000" flip="none" algn="tl"/></a:blipFill></a:bgFillStyleLst>"#,
    ).replace("<a:theme ", r#"<a:theme xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" "#);
    f.theme = Some(theme);
    f.master_bg =
        r#"<p:bg><p:bgRef idx="1003"><a:schemeClr val="bg1"/></p:bgRef></p:bg>"#.to_owned();
    f.parts = vec![
        ("ppt/media/wood.png".into(), png_header(64, 64)),
        (
            "ppt/theme/_rels/theme1.xml.rels".into(),
            br#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../media/wood.png"/></Relationships>"#.to_vec(),
        ),
    ];
    let p = parse(&f);
    let Fill::Picture {
        source,
        tile: Some(_),
        ..
    } = &p.slides[0].background
    else {
        panic!(
            "tiled picture background expected: {:?}",
            p.slides[0].background
        )
    };
    assert_eq!(
        source,
        &ImageSource::Part {
            part: "ppt/media/wood.png".into()
        }
    );
    // Drawn as an SVG layer of 48 pt tiles (64 px) under the shapes.
    let html = html_of(&p, 0);
    assert!(html.contains("pptx-bg"));
    assert!(html.contains("width=\"48\" height=\"48\""));
}

#[test]
fn soft_edges_fade_shapes_and_pictures() {
    let soft = r#"<a:prstGeom prst="ellipse"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="4472C4"/></a:solidFill><a:effectLst><a:softEdge rad="127000"/></a:effectLst>"#;
    let p = one_slide(&pptx_sp(
        2,
        None,
        Some((0, 0, 1_270_000, 1_270_000)),
        soft,
        "",
    ));
    assert_eq!(p.slides[0].shapes[0].effects.soft_edge, Some(127_000.0));
    let html = html_of(&p, 0);
    // A 10 pt radius: eroded by 5 pt, blurred by 2.5 pt.
    assert!(html.contains("<feMorphology in=\"SourceAlpha\" operator=\"erode\" radius=\"5\"/><feGaussianBlur stdDeviation=\"2.5\""));
    assert!(html.contains("<g filter=\"url(#pptx-s1-e"));
}

#[test]
fn a_real_theme_recolours_its_background_picture() {
    // Open-Xml-PowerTools' Apex theme: `p:bgRef idx="1003"` names the theme's picture
    // style fill, stretched and recoloured with `a:duotone` between shades of `bg1`.
    let bytes = include_bytes!("../../../fixtures/pptx/powertools-ApexTheme.pptx");
    let p = parse_pptx(bytes, &OfficeLimits::default()).expect("deck parses");
    let Fill::Picture {
        source: ImageSource::Part { part },
        tile: None,
        duotone: Some([dark, light]),
        ..
    } = &p.slides[0].background
    else {
        panic!(
            "duotone picture background expected: {:?}",
            p.slides[0].background
        )
    };
    assert_eq!(part, "ppt/media/image1.jpeg");
    assert!(
        u32::from(dark.r) + u32::from(dark.g) + u32::from(dark.b)
            < u32::from(light.r) + u32::from(light.g) + u32::from(light.b)
    );
    let html = html_of(&p, 0);
    assert!(html.contains("class=\"pptx-sp pptx-bg\""));
    assert!(html.contains("<feColorMatrix type=\"matrix\""));
}

#[test]
fn preset_patterns_are_drawn_as_their_bitmaps() {
    let patt = |prst: &str| {
        format!(
            r#"<a:pattFill prst="{prst}"><a:fgClr><a:srgbClr val="FF0000"/></a:fgClr><a:bgClr><a:srgbClr val="FFFFFF"/></a:bgClr></a:pattFill>"#
        )
    };
    let tree = [
        pptx_sp(
            2,
            None,
            Some((0, 0, 1_270_000, 1_270_000)),
            &patt("ltUpDiag"),
            "",
        ),
        pptx_sp(
            3,
            None,
            Some((0, 0, 1_270_000, 1_270_000)),
            &patt("weave"),
            "",
        ),
    ]
    .concat();
    let p = one_slide(&tree);
    let html = html_of(&p, 0);
    // A 6 pt cell on white with the red diagonal's pixels.
    assert!(html.contains(
        "patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\"><rect width=\"6\" height=\"6\" fill=\"#FFFFFF\"/>"
    ));
    assert_eq!(html.matches("<pattern ").count(), 1, "weave stays a blend");
    assert!(html.contains("fill=\"url(#pptx-s1-p"));
}

/// `shapecrawler-036`: a slide's body placeholder with the "no index" idx (4294967295, as
/// converters write it) on a title layout. The layout has no body placeholder, only a
/// right-aligned, bullet-less subtitle; PowerPoint and LibreOffice take the master's body
/// style, so the text keeps its left alignment and its bullets.
#[test]
fn a_body_placeholder_without_a_layout_twin_takes_the_master_body_not_the_subtitle() {
    let layout = r#"<p:sp><p:nvSpPr><p:cNvPr id="3" name="Subtitle 2"/><p:cNvSpPr/><p:nvPr><p:ph type="subTitle" idx="1"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="1500000" y="4000000"/><a:ext cx="7000000" cy="1000000"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/><a:lstStyle><a:lvl1pPr marL="0" indent="0" algn="r"><a:buNone/></a:lvl1pPr></a:lstStyle><a:p><a:r><a:t>Subtitle prompt</a:t></a:r></a:p></p:txBody></p:sp>"#;
    let tree = pptx_sp(
        4,
        Some(r#"type="body" idx="4294967295""#),
        Some((600_000, 1_300_000, 8_000_000, 4_000_000)),
        "",
        &pptx_p("Decree of 7 May"),
    );
    let mut f = PptxFixture::new(vec![PptxSlide::new(&tree)]);
    f.layout_tree = layout.to_owned();
    let p = parse(&f);
    let para = &text(&p.slides[0].shapes[0]).paragraphs[0];
    assert_eq!(para.align, Align::Left);
    assert_eq!(para.bullet.as_ref().map(|b| b.text.as_str()), Some("•"));
    assert_eq!((para.margin_left, para.indent), (342_900, -342_900));
    assert_eq!(para.runs[0].size, 32.0);
}

/// `shapecrawler-005_chart`: the master lays a hatch picture over the whole slide at 10 %
/// opacity (`a:alphaModFix amt="10000"`); drawn opaque, it hid the theme's gradient.
#[test]
fn pictures_and_picture_fills_keep_their_alpha_mod_fix_opacity() {
    let pic = r#"<p:pic><p:nvPicPr><p:cNvPr id="2" name="Hatch"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="rId5"><a:alphaModFix amt="10000"/></a:blip><a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1270000" cy="1270000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>"#;
    let oval = pic
        .replace("id=\"2\"", "id=\"3\"")
        .replace("10000", "30000")
        .replace("prst=\"rect\"", "prst=\"ellipse\"");
    let fill = r#"<a:blipFill><a:blip r:embed="rId5"><a:alphaModFix amt="50000"/></a:blip><a:stretch><a:fillRect/></a:stretch></a:blipFill>"#;
    let opaque = r#"<a:blipFill><a:blip r:embed="rId5"><a:alphaModFix amt="100000"/></a:blip><a:stretch><a:fillRect/></a:stretch></a:blipFill>"#;
    let tree = [
        pic.to_owned(),
        oval,
        pptx_sp(4, None, Some((0, 0, 2_540_000, 1_270_000)), fill, ""),
        pptx_sp(5, None, Some((0, 0, 2_540_000, 1_270_000)), opaque, ""),
    ]
    .concat();
    let mut slide = PptxSlide::new(&tree);
    slide.before_tree = r#"<p:bg><p:bgPr><a:blipFill><a:blip r:embed="rId5"><a:alphaModFix amt="20000"/></a:blip><a:stretch><a:fillRect/></a:stretch></a:blipFill><a:effectLst/></p:bgPr></p:bg>"#.to_owned();
    slide.rels = vec![(
        "rId5".into(),
        "image".into(),
        "../media/image1.png".into(),
        false,
    )];
    let mut f = PptxFixture::new(vec![slide]);
    f.parts = vec![("ppt/media/image1.png".into(), png_header(16, 16))];
    let html = html_of(&parse(&f), 0);
    // The plain picture: its box at 10 %; the oval one: its clipped image at 30 %.
    assert!(html.contains("opacity:0.1;"), "picture opacity missing");
    assert!(
        html.contains(" opacity=\"0.3\""),
        "clipped picture opacity missing"
    );
    // The shape's picture fill at 50 %, the background picture at 20 %.
    assert!(html.contains(" opacity=\"0.5\""), "fill opacity missing");
    assert!(
        html.contains(" opacity=\"0.2\""),
        "background opacity missing"
    );
    // 100 % is opaque: no attribute for it.
    assert!(!html.contains(" opacity=\"1\""));
}

#[test]
fn gradient_focus_outside_the_shape_stays_outside() {
    let stops = r#"<a:gsLst><a:gs pos="0"><a:srgbClr val="FFFFFF"/></a:gs><a:gs pos="100000"><a:srgbClr val="000000"/></a:gs></a:gsLst>"#;
    // A circle focus half a box right of the shape; a rectangle focus (a point) half a box
    // above and left of it.
    let radial = format!(
        r#"<a:gradFill>{stops}<a:path path="circle"><a:fillToRect l="150000" t="50000" r="-50000" b="50000"/></a:path></a:gradFill>"#
    );
    let rect = format!(
        r#"<a:gradFill>{stops}<a:path path="rect"><a:fillToRect l="-50000" t="-50000" r="150000" b="150000"/></a:path></a:gradFill>"#
    );
    let tree = [
        pptx_sp(2, None, Some((0, 0, 1_270_000, 1_270_000)), &radial, ""),
        pptx_sp(3, None, Some((0, 0, 1_270_000, 1_270_000)), &rect, ""),
    ]
    .concat();
    let p = one_slide(&tree);
    let s = &p.slides[0].shapes;
    let Fill::Gradient(g) = &auto(&s[0]).fill else {
        panic!("gradient expected")
    };
    assert_eq!(g.kind, GradientKind::Radial { cx: 1.5, cy: 0.5 });
    let Fill::Gradient(g) = &auto(&s[1]).fill else {
        panic!("gradient expected")
    };
    assert_eq!(
        g.kind,
        GradientKind::Rect {
            left: -0.5,
            top: -0.5,
            right: -0.5,
            bottom: -0.5
        }
    );
    let html = html_of(&p, 0);
    // The 100 pt box sees the outer rings of a circle centred at (150, 50): its last stop
    // reaches the far corner, √(150² + 50²) away.
    assert!(
        html.contains("gradientUnits=\"userSpaceOnUse\" cx=\"150\" cy=\"50\" r=\"158.114\">"),
        "{html}"
    );
    // From the focus at (−50, −50): only the bottom and right bands reach the box, each
    // from the focus to the far edge; the top and left ones are left out.
    assert!(
        html.contains("x1=\"0\" y1=\"-50\" x2=\"0\" y2=\"100\""),
        "{html}"
    );
    assert!(
        html.contains("x1=\"-50\" y1=\"0\" x2=\"100\" y2=\"0\""),
        "{html}"
    );
    assert!(!html.contains("x2=\"0\" y2=\"0\""), "{html}");
}

#[test]
fn rot_with_shape_off_keeps_radial_and_rect_focus_on_the_slide() {
    let stops = r#"<a:gsLst><a:gs pos="0"><a:srgbClr val="FFFFFF"/></a:gs><a:gs pos="100000"><a:srgbClr val="000000"/></a:gs></a:gsLst>"#;
    let fill = |path: &str, turns: &str| {
        format!(
            r#"<a:gradFill rotWithShape="{turns}">{stops}<a:path path="{path}"><a:fillToRect l="0" t="0" r="100000" b="100000"/></a:path></a:gradFill>"#
        )
    };
    let turned = |id: u32, sp_pr: &str| {
        pptx_sp(id, None, Some((0, 0, 2_540_000, 1_270_000)), sp_pr, "")
            .replace("<a:xfrm>", r#"<a:xfrm rot="1800000">"#)
    };
    let tree = [
        turned(2, &fill("circle", "0")),
        turned(3, &fill("rect", "0")),
        turned(4, &fill("circle", "1")),
    ]
    .concat();
    let p = one_slide(&tree);
    let html = html_of(&p, 0);
    // The shape turns 30° by CSS; its radial fill takes −30° about the box centre.
    assert!(
        html.contains("cx=\"0\" cy=\"0\" r=\"223.607\" gradientTransform=\"rotate(-30 100 50)\">"),
        "{html}"
    );
    // The rect fill too, in a cell reaching w + h = 300 pt past each edge, filled with
    // the last stop.
    assert!(
        html.contains("patternUnits=\"userSpaceOnUse\" x=\"-300\" y=\"-300\" width=\"800\" height=\"700\" viewBox=\"-300 -300 800 700\" patternTransform=\"rotate(-30 100 50)\"><rect x=\"-300\" y=\"-300\" width=\"800\" height=\"700\" fill=\"#000000\"/>"),
        "{html}"
    );
    // With rotWithShape on (the default), the fill turns with the shape: no counter-turn.
    assert_eq!(html.matches("rotate(-30 100 50)").count(), 2, "{html}");
}

#[test]
fn text_columns_get_a_block_of_their_own_with_the_column_gap() {
    let body = r#"<a:p><a:r><a:t>In columns</a:t></a:r></a:p>"#;
    let tree = pptx_sp(2, None, Some((0, 0, 5_486_400, 1_828_800)), "", body)
        .replace("<a:bodyPr/>", r#"<a:bodyPr numCol="3" spcCol="228600"/>"#);
    let p = one_slide(&tree);
    let t = text(&p.slides[0].shapes[0]);
    assert_eq!((t.columns, t.column_gap), (3, 228_600));
    let html = html_of(&p, 0);
    // The text body is a flex box, which CSS never splits into columns: the paragraphs go
    // in a block inside it.
    assert!(
        html.contains(
            "<div class=\"pptx-cols\" style=\"column-count:3;column-gap:calc(18*var(--pt))\"><p"
        ),
        "{html}"
    );
    assert!(!html.contains(";column-count"), "{html}");
}

#[test]
fn a_decks_own_table_style_and_cell_margins_apply() {
    // A style of the deck's `ppt/tableStyles.xml`: grey whole table, green first row with
    // white text; the second cell gives its own margins and sits at the bottom.
    let styles = r#"<?xml version="1.0" encoding="UTF-8"?><a:tblStyleLst xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" def="{00000000-0000-0000-0000-000000000001}"><a:tblStyle styleId="{00000000-0000-0000-0000-000000000001}" styleName="Deck style"><a:wholeTbl><a:tcTxStyle><a:srgbClr val="333333"/></a:tcTxStyle><a:tcStyle><a:fill><a:solidFill><a:srgbClr val="D9D9D9"/></a:solidFill></a:fill></a:tcStyle></a:wholeTbl><a:firstRow><a:tcTxStyle b="on"><a:srgbClr val="FFFFFF"/></a:tcTxStyle><a:tcStyle><a:fill><a:solidFill><a:srgbClr val="00B050"/></a:solidFill></a:fill></a:tcStyle></a:firstRow></a:tblStyle></a:tblStyleLst>"#;
    let cell = |t: &str, pr: &str| {
        format!(
            r#"<a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>{t}</a:t></a:r></a:p></a:txBody><a:tcPr{pr}</a:tc>"#
        )
    };
    let frame = format!(
        r#"<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="0" y="0"/><a:ext cx="4064000" cy="741680"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr firstRow="1"><a:tableStyleId>{{00000000-0000-0000-0000-000000000001}}</a:tableStyleId></a:tblPr><a:tblGrid><a:gridCol w="2032000"/><a:gridCol w="2032000"/></a:tblGrid><a:tr h="370840">{}{}</a:tr><a:tr h="370840">{}{}</a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>"#,
        cell("head", "/>"),
        cell("head 2", "/>"),
        cell("body", "/>"),
        cell(
            "tight",
            r#" marL="0" marR="12700" marT="25400" marB="0" anchor="b"/>"#
        ),
    );
    let mut deck = PptxFixture::new(vec![PptxSlide::new(&frame)]);
    deck.pres_rels.push((
        "rId9".into(),
        "tableStyles".into(),
        "tableStyles.xml".into(),
    ));
    deck.parts
        .push(("ppt/tableStyles.xml".into(), styles.as_bytes().to_vec()));
    let p = parse(&deck);
    let ShapeKind::Table(Table { rows, .. }) = &p.slides[0].shapes[0].kind else {
        panic!("not a table")
    };
    let solid = |hex: u32| Fill::Solid {
        color: Color::rgb(hex),
    };
    let head = &rows[0].cells[0];
    assert_eq!(head.fill, solid(0x00B050));
    let run = &head.text.paragraphs[0].runs[0];
    assert!(run.bold);
    assert_eq!(run.color, Color::rgb(0xFFFFFF));
    let body = &rows[1].cells[0];
    assert_eq!(body.fill, solid(0xD9D9D9));
    assert_eq!(body.text.paragraphs[0].runs[0].color, Color::rgb(0x333333));
    // Default margins (0.1 in, 0.05 in) unless the cell gives its own.
    assert_eq!(body.text.insets, [91_440, 45_720, 91_440, 45_720]);
    let tight = &rows[1].cells[1];
    assert_eq!(tight.text.insets, [0, 25_400, 12_700, 0]);
    assert_eq!(tight.text.anchor, VerticalAnchor::Bottom);
}

#[test]
fn vertical_text_runs_top_to_bottom_or_bottom_to_top() {
    let body = r#"<a:p><a:r><a:t>Upright</a:t></a:r></a:p>"#;
    let tree = ["vert", "eaVert", "vert270", "horz"]
        .iter()
        .enumerate()
        .map(|(i, v)| {
            pptx_sp(
                i as u32 + 2,
                None,
                Some((0, 0, 914_400, 1_828_800)),
                "",
                body,
            )
            .replace("<a:bodyPr/>", &format!(r#"<a:bodyPr vert="{v}"/>"#))
        })
        .collect::<String>();
    let p = one_slide(&tree);
    let html = html_of(&p, 0);
    // `vert` and `eaVert` read top to bottom; `vert270` bottom to top (turned half round).
    assert_eq!(
        html.matches(";writing-mode:vertical-rl").count(),
        3,
        "{html}"
    );
    assert_eq!(
        html.matches(";writing-mode:vertical-rl;transform:rotate(180deg)")
            .count(),
        1,
        "{html}"
    );
    assert_eq!(text(&p.slides[0].shapes[3]).vertical, "horz");
}

/// `shapecrawler-031`: a converted deck narrows one paragraph with `marR` (1274445 EMU =
/// 100.35 pt); the paragraph wraps that far inside its frame, the next one does not.
#[test]
fn a_paragraphs_right_margin_narrows_only_that_paragraph() {
    let body = concat!(
        r#"<a:p><a:pPr marL="756285" marR="1274445" indent="-286385"/><a:r><a:t>Narrow</a:t></a:r></a:p>"#,
        r#"<a:p><a:pPr marL="756285" indent="-286385"/><a:r><a:t>Wide</a:t></a:r></a:p>"#,
    );
    let tree = pptx_sp(
        2,
        None,
        Some((383_540, 1_128_777, 8_264_525, 4_846_955)),
        "",
        body,
    );
    let p = one_slide(&tree);
    let paras = &text(&p.slides[0].shapes[0]).paragraphs;
    assert_eq!(
        (paras[0].margin_right, paras[1].margin_right),
        (1_274_445, 0)
    );
    let html = html_of(&p, 0);
    assert_eq!(html.matches("padding-right:").count(), 1, "{html}");
    assert!(
        html.contains("padding-right:calc(var(--pt)*100.35)"),
        "{html}"
    );
}

/// `a:tabLst` and `defTabSz` reach the model: stops in position order, the same position
/// kept once, a negative one dropped; a paragraph that sets none has one-inch defaults.
/// Its text keeps the tab character, drawn zero wide inside the box of its stop.
#[test]
fn a_paragraphs_tab_stops_are_read_in_order() {
    let body = concat!(
        r#"<a:p><a:pPr defTabSz="457200"><a:tabLst><a:tab pos="2743200" algn="r"/>"#,
        r#"<a:tab pos="914400" algn="ctr"/><a:tab pos="914400" algn="l"/>"#,
        r#"<a:tab pos="-5" algn="l"/><a:tab pos="1828800" algn="dec"/></a:tabLst></a:pPr>"#,
        r#"<a:r><a:t>a&#9;b</a:t></a:r></a:p>"#,
        r#"<a:p><a:r><a:t>plain</a:t></a:r></a:p>"#,
    );
    let p = one_slide(&pptx_sp(
        2,
        None,
        Some((0, 0, 6_000_000, 2_000_000)),
        "",
        body,
    ));
    let paras = &text(&p.slides[0].shapes[0]).paragraphs;
    let stops: Vec<(i64, TabAlign)> = paras[0].tabs.iter().map(|t| (t.pos, t.align)).collect();
    assert_eq!(
        stops,
        vec![
            (914_400, TabAlign::Center),
            (1_828_800, TabAlign::Decimal),
            (2_743_200, TabAlign::Right)
        ]
    );
    assert_eq!(paras[0].default_tab, 457_200);
    assert!(paras[1].tabs.is_empty());
    assert_eq!(paras[1].default_tab, 914_400);
    let html = html_of(&p, 0);
    assert!(
        html.contains(r#"<span class="pptx-tab">	</span>"#),
        "{html}"
    );
    assert_eq!(html.matches("class=\"pptx-tabbox").count(), 1, "{html}");
}

/// A table cell's `vert` turns its text (`shapecrawler-001` slide 2: "Id5" reads top to
/// bottom, and its row grows to the text's length); the cell beside it stays level.
#[test]
fn a_table_cells_vertical_text_turns_inside_the_cell() {
    let cell = |t: &str, pr: &str| {
        format!(
            r#"<a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>{t}</a:t></a:r></a:p></a:txBody><a:tcPr{pr}/></a:tc>"#
        )
    };
    let frame = format!(
        r#"<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="0" y="0"/><a:ext cx="4064000" cy="370840"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr/><a:tblGrid><a:gridCol w="2032000"/><a:gridCol w="2032000"/></a:tblGrid><a:tr h="370840">{}{}</a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>"#,
        cell("Id5", r#" vert="vert""#),
        cell("level", ""),
    );
    let p = parse(&PptxFixture::new(vec![PptxSlide::new(&frame)]));
    let ShapeKind::Table(Table { rows, .. }) = &p.slides[0].shapes[0].kind else {
        panic!("not a table")
    };
    assert_eq!(rows[0].cells[0].text.vertical, "vert");
    assert_eq!(rows[0].cells[1].text.vertical, "horz");
    let html = html_of(&p, 0);
    let turned = html
        .find(r#"<div style="writing-mode:vertical-rl">"#)
        .expect(&html);
    let id5 = html.find(">Id5<").expect("cell text");
    let level = html.find(">level<").expect("cell text");
    assert!(turned < id5 && id5 < level, "{html}");
    assert_eq!(html.matches("writing-mode").count(), 1, "{html}");
}

/// A frame's last paragraph adds no space after it (`shapecrawler-autoshape-case001`:
/// SmartArt gives its one paragraph per box 35 % space after; PowerPoint centres the text
/// without it, where counting it put every label 5 pt high). Paragraphs before the last
/// keep theirs.
#[test]
fn the_last_paragraph_adds_no_space_after_it() {
    let para = |t: &str| {
        format!(
            r#"<a:p><a:pPr><a:spcAft><a:spcPct val="35000"/></a:spcAft></a:pPr><a:r><a:rPr sz="2000"/><a:t>{t}</a:t></a:r></a:p>"#
        )
    };
    let body = format!("{}{}", para("upper"), para("lower"));
    let p = one_slide(&pptx_sp(
        2,
        None,
        Some((0, 0, 4_000_000, 2_000_000)),
        "",
        &body,
    ));
    let html = html_of(&p, 0);
    assert!(
        paragraph_tag(&html, "upper").contains("margin-bottom:calc(var(--pt)*7)"),
        "{html}"
    );
    assert!(
        !paragraph_tag(&html, "lower").contains("margin-bottom"),
        "{html}"
    );
}

/// The opening `<p>` tag of the paragraph whose text holds `>word<`.
fn paragraph_tag<'h>(html: &'h str, word: &str) -> &'h str {
    let end = html.find(&format!(">{word}<")).expect("word");
    let start = html[..end].rfind("<p class=\"pptx-p\"").expect("paragraph");
    &html[start..start + html[start..].find('>').expect("tag")]
}

/// A paragraph sets its own line (its strut) in the face of most of its text: a strut in
/// the stage's Calibri stand-in made every line of another face about 1 px taller than
/// 1.2 × size (`shapecrawler-031`, Tahoma). Runs in other faces, no larger, get no line
/// height of their own, so a space in Times New Roman between Tahoma words does not
/// stretch the line either; a larger run still does.
#[test]
fn a_paragraph_sets_its_line_in_the_face_of_most_of_its_text() {
    let run = |face: &str, size: u32, text: &str| {
        format!(
            r#"<a:r><a:rPr sz="{size}"><a:latin typeface="{face}"/></a:rPr><a:t>{text}</a:t></a:r>"#
        )
    };
    let body = [
        format!(
            "<a:p>{}{}</a:p>",
            run("Tahoma", 1800, "One "),
            run("Tahoma", 1800, "face")
        ),
        format!(
            "<a:p>{}{}{}{}</a:p>",
            run("Tahoma", 1800, "Two"),
            run("Times New Roman", 1800, " "),
            run("Georgia", 1800, "faces"),
            run("Georgia", 2400, "Big")
        ),
    ]
    .concat();
    let tree = pptx_sp(2, None, Some((0, 0, 6_000_000, 4_000_000)), "", &body);
    let html = html_of(&one_slide(&tree), 0);
    let para_of = |word: &str| paragraph_tag(&html, word);
    assert!(para_of("One ").contains("font-family:'Tahoma'"), "{html}");
    assert!(!html.contains("line-height:0\">One"), "{html}");
    assert!(para_of("Two").contains("font-family:'Gelasio'"), "{html}");
    let span_of = |word: &str| {
        let end = html.find(&format!(">{word}<")).expect("word");
        &html[html[..end].rfind("<span").unwrap()..end]
    };
    assert!(span_of("Two").ends_with(";line-height:0\""), "{html}");
    assert!(span_of(" ").ends_with(";line-height:0\""), "{html}");
    assert!(!span_of("faces").contains("line-height"), "{html}");
    assert!(!span_of("Big").contains("line-height"), "{html}");
}

/// Each line is as tall as the text on it: a title of a 60 pt line and a 48 pt line in one
/// paragraph (`onlyoffice-sample`) gives the paragraph's own line the smaller size, since
/// CSS makes every line at least as tall as that (the 48 pt line came out 60 pt tall).
#[test]
fn a_paragraphs_own_line_is_as_small_as_its_smallest_text() {
    let body = r#"<a:p><a:r><a:rPr sz="6000" b="1"/><a:t>European Knights</a:t></a:r><a:br/><a:r><a:rPr sz="4800"/><a:t>(XII-XVI centuries)</a:t></a:r></a:p>"#;
    let tree = pptx_sp(2, None, Some((0, 0, 6_000_000, 4_000_000)), "", body);
    let html = html_of(&one_slide(&tree), 0);
    let tag = paragraph_tag(&html, "European Knights");
    assert!(tag.contains("font-size:calc(var(--pt)*48)"), "{html}");
    assert!(!tag.contains("font-size:calc(var(--pt)*60)"), "{html}");
}

/// `shapecrawler-031`: "Radiology → make requests", the arrow a Wingdings run written as
/// U+F0E0. It shows the arrow in the text's face (the run before it), not a missing-glyph
/// box, and the paragraph's line is then set in that one face.
#[test]
fn a_wingdings_run_between_words_shows_its_arrow() {
    let body = r#"<a:p><a:r><a:rPr><a:latin typeface="Tahoma"/></a:rPr><a:t>Radiology </a:t></a:r><a:r><a:rPr><a:latin typeface="Wingdings"/><a:cs typeface="Wingdings"/></a:rPr><a:t>&#xF0E0;</a:t></a:r><a:r><a:rPr><a:latin typeface="Tahoma"/></a:rPr><a:t> make</a:t></a:r></a:p>"#;
    let tree = pptx_sp(2, None, Some((0, 0, 6_000_000, 4_000_000)), "", body);
    let p = one_slide(&tree);
    let runs = &text(&p.slides[0].shapes[0]).paragraphs[0].runs;
    assert_eq!(runs[1].text, "\u{2794}");
    assert_eq!(runs[1].font.as_deref(), Some("Tahoma"));
    let html = html_of(&p, 0);
    assert!(!html.contains('\u{F0E0}'));
    assert!(
        paragraph_tag(&html, "Radiology ").contains("font-family:'Tahoma'"),
        "{html}"
    );
    // Leading the paragraph, it takes the paragraph's own face (the theme's here).
    let body = r#"<a:p><a:r><a:rPr><a:latin typeface="Wingdings"/></a:rPr><a:t>&#xF0E0;</a:t></a:r><a:r><a:t> make</a:t></a:r></a:p>"#;
    let tree = pptx_sp(2, None, Some((0, 0, 6_000_000, 4_000_000)), "", body);
    let p = one_slide(&tree);
    let runs = &text(&p.slides[0].shapes[0]).paragraphs[0].runs;
    assert_eq!(runs[0].font, runs[1].font);
}

/// Line spacing other than single takes its difference above the text (measured against
/// LibreOffice: a 150 % paragraph's first line sits a whole extra half line lower, a 90 %
/// one higher), so the paragraph's text is shifted by half the difference CSS splits.
#[test]
fn line_spacing_above_or_below_single_moves_the_text_by_half_the_difference() {
    let para = |spacing: &str, text: &str| {
        format!(
            r#"<a:p><a:pPr><a:lnSpc>{spacing}</a:lnSpc></a:pPr><a:r><a:rPr sz="3200"/><a:t>{text}</a:t></a:r></a:p>"#
        )
    };
    let body = [
        para(r#"<a:spcPct val="150000"/>"#, "Loose"),
        para(r#"<a:spcPct val="90000"/>"#, "Tight"),
        para(r#"<a:spcPts val="4000"/>"#, "Exact"),
        para(r#"<a:spcPct val="100000"/>"#, "Single"),
    ]
    .concat();
    let tree = pptx_sp(2, None, Some((0, 0, 6_000_000, 4_000_000)), "", &body);
    let html = html_of(&one_slide(&tree), 0);
    let style_of = |word: &str| paragraph_tag(&html, word);
    // 1.2 × 32 pt × 0.5 = 19.2 pt extra: 9.6 pt lower.
    assert!(style_of("Loose").contains("line-height:1.8;position:relative;top:calc(var(--pt)*9.6)"));
    // 1.2 × 32 pt × −0.1 = −3.84 pt: 1.92 pt higher.
    assert!(style_of("Tight").contains("top:calc(var(--pt)*-1.92)"));
    // 40 pt exact against 38.4 pt single: 0.8 pt lower.
    assert!(style_of("Exact").contains("top:calc(var(--pt)*0.8)"));
    assert!(!style_of("Single").contains("position:relative"));
}

/// `shapecrawler-025_chart`: a chart pasted from another file keeps that file's colours
/// in a theme override part; its `accent1` bars are that scheme's, not the deck's.
#[test]
fn a_charts_theme_override_gives_it_its_own_colours_and_fonts() {
    let chart = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:plotArea><c:barChart><c:barDir val="col"/>{}</c:barChart></c:plotArea></c:chart></c:chartSpace>"#,
        CHART_SERIES.replace(
            "<c:cat>",
            r#"<c:spPr><a:solidFill><a:schemeClr val="accent1"/></a:solidFill></c:spPr><c:cat>"#
        )
    );
    let plain = chart_deck(&chart);
    assert_eq!(
        chart_of(&plain).plots[0].series[0].color,
        Color::rgb(0x4472C4)
    );

    let rels = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/themeOverride" Target="../theme/themeOverride1.xml"/></Relationships>"#;
    let over = r#"<?xml version="1.0" encoding="UTF-8"?><a:themeOverride xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:clrScheme name="Other"><a:accent1><a:srgbClr val="86BC25"/></a:accent1></a:clrScheme><a:fontScheme name="Other"><a:majorFont><a:latin typeface="Georgia"/></a:majorFont><a:minorFont><a:latin typeface="Verdana"/></a:minorFont></a:fontScheme></a:themeOverride>"#;
    let p = chart_deck_with(
        &chart,
        vec![
            (
                "ppt/charts/_rels/chart1.xml.rels".into(),
                rels.as_bytes().to_vec(),
            ),
            (
                "ppt/theme/themeOverride1.xml".into(),
                over.as_bytes().to_vec(),
            ),
        ],
    );
    assert_eq!(chart_of(&p).plots[0].series[0].color, Color::rgb(0x86BC25));
    // Its text takes the override's body font (Office's chart default, `+mn-lt`).
    assert_eq!(chart_of(&p).font, "Verdana");
    assert!(html_of(&p, 0).contains("font-family=\"'Verdana','DejaVu Sans',sans-serif\""));
    // Without an override, the deck's body font (Calibri, drawn as `pptx-calibri`).
    assert_eq!(chart_of(&plain).font, "Calibri");
    assert!(html_of(&plain, 0).contains("font-family=\"'pptx-calibri',"));
}

/// A chart's typeface is untrusted text that ends up in an SVG attribute: only the
/// resolver's safe characters get there.
#[test]
fn a_hostile_chart_typeface_stays_inside_its_attribute() {
    let chart = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:plotArea><c:barChart><c:barDir val="col"/>{CHART_SERIES}</c:barChart></c:plotArea></c:chart><c:txPr><a:bodyPr/><a:p><a:pPr><a:defRPr><a:latin typeface="Evil&quot;&gt;&lt;script&gt;x()&lt;/script&gt;"/></a:defRPr></a:pPr></a:p></c:txPr></c:chartSpace>"#
    );
    let html = html_of(&chart_deck(&chart), 0);
    assert!(!html.contains("<script>x()"), "{html}");
    assert!(
        html.contains("font-family=\"'Evilscriptxscript',"),
        "{html}"
    );
}

/// A slide-number field the layout draws itself (a text box, not a placeholder, as in
/// `shapecrawler-024_chart`) shows each slide's own number, though the slides share the
/// layout.
#[test]
fn a_layout_drawn_slide_number_shows_each_slides_number() {
    let mut f = PptxFixture::new(vec![
        PptxSlide::new(""),
        PptxSlide::new(""),
        PptxSlide::new(""),
    ]);
    f.layout_tree = pptx_sp(
        10,
        None,
        Some((8_000_000, 6_300_000, 600_000, 300_000)),
        "",
        r#"<a:p><a:fld id="{9}" type="slidenum"><a:rPr lang="en-US"/><a:t>‹#›</a:t></a:fld></a:p>"#,
    );
    let p = parse(&f);
    for (i, want) in ["1", "2", "3"].into_iter().enumerate() {
        let layer = &p.layers[p.slides[i].layer.unwrap()];
        let runs: Vec<&str> = layer
            .shapes
            .iter()
            .filter_map(|s| match &s.kind {
                ShapeKind::Shape(a) => a.text.as_ref(),
                _ => None,
            })
            .flat_map(|t| t.paragraphs.iter().flat_map(|p| p.runs.iter()))
            .filter(|r| matches!(&r.kind, RunKind::Field { field } if field == "slidenum"))
            .map(|r| r.text.as_str())
            .collect();
        assert_eq!(runs, [want], "slide {}", i + 1);
        assert!(
            html_of(&p, i).contains(&format!(">{want}<")),
            "slide {}",
            i + 1
        );
    }
    // Layers without such a field are still shared.
    let plain = parse(&PptxFixture::new(vec![
        PptxSlide::new(""),
        PptxSlide::new(""),
    ]));
    assert_eq!(plain.slides[0].layer, plain.slides[1].layer);
}
