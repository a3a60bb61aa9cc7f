//! Page layout in the rendered HTML: sections and their columns, spacing rules, the
//! document grid, and the paragraph mark's formatting (issue #15). Layout in a real
//! browser is measured by `tests/browser_docx_layout.rs`.

use super::support::{para, w_part, DocxFixture};
use crate::office::docx::{parse_docx, render_html, RenderOptions};
use crate::office::OfficeLimits;

fn render(fixture: &DocxFixture) -> String {
    let doc = parse_docx(&fixture.build(), &OfficeLimits::default()).unwrap();
    render_html(&doc, &RenderOptions::default())
}

/// The opening tag of the element whose text starts with `text`.
fn tag_before<'h>(html: &'h str, text: &str) -> &'h str {
    let at = html
        .find(text)
        .unwrap_or_else(|| panic!("{text:?} not in {html}"));
    let open = html[..at]
        .rfind("<p ")
        .expect("a paragraph opens before it");
    &html[open..at]
}

/// A paragraph ending a section with the given `w:sectPr` content.
fn section_end(text: &str, sect: &str) -> String {
    format!(r#"<w:p><w:pPr><w:sectPr>{sect}</w:sectPr></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"#)
}

#[test]
fn a_continuous_section_keeps_its_own_columns_on_the_same_page() {
    // A one-column title, then a two-column body with a separator after a continuous
    // break, then a one-column tail after another: one page, three sets.
    let body = format!(
        "{}{}{}{}{}",
        section_end("Title", ""),
        para("Left text"),
        section_end(
            "More text",
            r#"<w:type w:val="continuous"/><w:cols w:num="2" w:space="360" w:sep="1"/>"#
        ),
        para("Tail"),
        r#"<w:sectPr><w:type w:val="continuous"/></w:sectPr>"#,
    );
    let html = render(&DocxFixture::new(&body));
    assert_eq!(
        html.matches("<section class=\"docx-page\"").count(),
        1,
        "{html}"
    );
    let cols = html
        .find("docx-columns")
        .unwrap_or_else(|| panic!("no column set: {html}"));
    let title = html.find("Title").unwrap();
    let left = html.find("Left text").unwrap();
    let close = html[cols..].find("</div>").unwrap() + cols;
    let tail = html.find("Tail").unwrap();
    assert!(
        title < cols && cols < left && left < close && close < tail,
        "{html}"
    );
    let set = &html[html[..cols].rfind('<').unwrap()..left];
    assert!(set.contains("column-count:2;"), "{set}");
    assert!(set.contains("column-gap:18pt;"), "{set}");
    assert!(set.contains("column-rule:0.75pt solid #000000;"), "{set}");
}

#[test]
fn each_section_shows_its_own_column_count() {
    // The first section's columns used to apply to every later section on its page.
    let body = format!(
        "{}{}{}",
        section_end("Three", r#"<w:cols w:num="3"/>"#),
        para("One column"),
        r#"<w:sectPr><w:type w:val="continuous"/><w:cols w:num="1"/></w:sectPr>"#,
    );
    let html = render(&DocxFixture::new(&body));
    assert_eq!(html.matches("column-count:").count(), 1, "{html}");
    assert!(html.contains("column-count:3;"), "{html}");
    let set_end =
        html.find("Three").unwrap() + html[html.find("Three").unwrap()..].find("</div>").unwrap();
    assert!(html.find("One column").unwrap() > set_end, "{html}");
}

#[test]
fn unequal_columns_split_at_column_breaks_form_a_grid() {
    let body = format!(
        r#"<w:p><w:r><w:t>Narrow</w:t><w:br w:type="column"/><w:t>Wide</w:t></w:r></w:p>{}"#,
        r#"<w:sectPr><w:cols w:num="2" w:equalWidth="0" w:sep="1"><w:col w:w="2000" w:space="400"/><w:col w:w="6000"/></w:cols></w:sectPr>"#
    );
    let html = render(&DocxFixture::new(&body));
    assert!(
        html.contains("grid-template-columns:100pt 20pt 300pt;"),
        "{html}"
    );
    let narrow = html.find("Narrow").unwrap();
    let second = html
        .find("grid-column:3;grid-row:1;border-left:0.75pt solid #000000;padding-left:10pt;margin-left:-10pt")
        .unwrap_or_else(|| panic!("{html}"));
    let wide = html.find("Wide").unwrap();
    assert!(narrow < second && second < wide, "{html}");
}

#[test]
fn a_column_break_in_equal_columns_starts_the_next_column() {
    let body = format!(
        r#"<w:p><w:r><w:t>First</w:t><w:br w:type="column"/><w:t>Second</w:t></w:r></w:p>{}"#,
        r#"<w:sectPr><w:cols w:num="2"/></w:sectPr>"#
    );
    let html = render(&DocxFixture::new(&body));
    let first = html.find("First").unwrap();
    let start = html
        .find("<div class=\"docx-column-start\"")
        .unwrap_or_else(|| panic!("{html}"));
    let second = html.find("Second").unwrap();
    assert!(first < start && start < second, "{html}");
}

#[test]
fn paragraph_mark_formatting_never_reaches_the_text() {
    // Red bold on the paragraph mark only: the text stays black and regular; an empty
    // paragraph and the list label do take the mark's formatting.
    let mark = r#"<w:rPr><w:b/><w:color w:val="FF0000"/><w:sz w:val="40"/></w:rPr>"#;
    let body = format!(
        r#"<w:p><w:pPr>{mark}</w:pPr><w:r><w:t>Plain words</w:t></w:r></w:p><w:p><w:pPr>{mark}</w:pPr></w:p>"#
    );
    let html = render(&DocxFixture::new(&body));
    let text = tag_before(&html, "Plain words");
    assert!(!text.contains("#FF0000"), "{text}");
    assert!(!text.contains("bold"), "{text}");
    assert!(!text.contains("font-size:20pt"), "{text}");
    let empty = html.find("docx-empty").unwrap();
    let empty_tag = &html[empty..empty + html[empty..].find('>').unwrap()];
    assert!(empty_tag.contains("font-size:20pt"), "{empty_tag}");
}

/// Word's automatic spacing (`w:beforeAutospacing`, `w:afterAutospacing`, as Word
/// gives pasted web pages) is 14 pt whatever the `w:before`/`w:after` beside it says,
/// none between two items of one list (nor above the first paragraph of a cell or of the
/// document), and an explicit `0` turns it off again.
#[test]
fn automatic_spacing_is_fourteen_points_and_none_inside_a_list() {
    let styles = w_part(
        "styles",
        r#"<w:style w:type="paragraph" w:default="1" w:styleId="Normal"/>
           <w:style w:type="paragraph" w:styleId="NormalWeb"><w:basedOn w:val="Normal"/><w:pPr><w:spacing w:before="100" w:beforeAutospacing="1" w:after="100" w:afterAutospacing="1"/></w:pPr></w:style>"#,
    );
    let numbering = w_part(
        "numbering",
        r#"<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>"#,
    );
    let web = |t: &str, extra: &str| {
        format!(
            r#"<w:p><w:pPr><w:pStyle w:val="NormalWeb"/>{extra}</w:pPr><w:r><w:t>{t}</w:t></w:r></w:p>"#
        )
    };
    let item = r#"<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>"#;
    let body = format!(
        "{}{}{}{}{}{}<w:tbl><w:tblGrid><w:gridCol w:w=\"2000\"/></w:tblGrid><w:tr><w:tc>{}</w:tc></w:tr></w:tbl>",
        web("Top", ""),
        web("Lone", ""),
        web("First", item),
        web("Second", item),
        web("Third", item),
        web("Off", r#"<w:spacing w:beforeAutospacing="0" w:before="40"/>"#),
        web("Cell", ""),
    );
    let mut f = DocxFixture::new(&body);
    f.styles = Some(styles);
    f.numbering = Some(numbering);
    let html = render(&f);
    let top = tag_before(&html, "Top");
    assert!(
        !top.contains("margin-top") && top.contains("margin-bottom:14pt"),
        "{top}"
    );
    let web_p = tag_before(&html, "Lone");
    assert!(
        web_p.contains("margin-top:14pt") && web_p.contains("margin-bottom:14pt"),
        "{web_p}"
    );
    let first = tag_before(&html, "First");
    assert!(
        first.contains("margin-top:14pt") && !first.contains("margin-bottom"),
        "{first}"
    );
    let second = tag_before(&html, "Second");
    assert!(
        !second.contains("margin-top") && !second.contains("margin-bottom"),
        "{second}"
    );
    let third = tag_before(&html, "Third");
    assert!(
        !third.contains("margin-top") && third.contains("margin-bottom:14pt"),
        "{third}"
    );
    let off = tag_before(&html, "Off");
    assert!(
        off.contains("margin-top:2pt") && off.contains("margin-bottom:14pt"),
        "{off}"
    );
    let cell = tag_before(&html, "Cell");
    assert!(
        !cell.contains("margin-top") && cell.contains("margin-bottom:14pt"),
        "{cell}"
    );
}

#[test]
fn contextual_spacing_drops_the_space_between_paragraphs_of_one_style() {
    let styles = w_part(
        "styles",
        r#"<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:pPr><w:spacing w:after="160"/></w:pPr></w:style>
           <w:style w:type="paragraph" w:styleId="ListParagraph"><w:basedOn w:val="Normal"/><w:pPr><w:spacing w:before="120"/><w:contextualSpacing/></w:pPr></w:style>"#,
    );
    let item = |t: &str| {
        format!(
            r#"<w:p><w:pPr><w:pStyle w:val="ListParagraph"/></w:pPr><w:r><w:t>{t}</w:t></w:r></w:p>"#
        )
    };
    let body = format!(
        "{}{}{}{}{}",
        para("Intro"),
        item("One"),
        item("Two"),
        item("Three"),
        para("After")
    );
    let mut f = DocxFixture::new(&body);
    f.styles = Some(styles);
    let html = render(&f);
    assert!(
        tag_before(&html, "Intro").contains("margin-bottom:8pt"),
        "{html}"
    );
    let one = tag_before(&html, "One");
    assert!(
        one.contains("margin-top:6pt") && !one.contains("margin-bottom"),
        "{one}"
    );
    let two = tag_before(&html, "Two");
    assert!(
        !two.contains("margin-top") && !two.contains("margin-bottom"),
        "{two}"
    );
    let three = tag_before(&html, "Three");
    assert!(
        !three.contains("margin-top") && three.contains("margin-bottom:8pt"),
        "{three}"
    );
}

#[test]
fn lines_snap_to_the_document_grid_pitch() {
    // 312 twips = 15.6 pt a line, the usual grid of a Chinese document in 10.5 pt text.
    let styles = w_part(
        "styles",
        r#"<w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="21"/></w:rPr></w:rPrDefault></w:docDefaults>"#,
    );
    let body = format!(
        "{}{}{}{}",
        para("Grid text"),
        r#"<w:p><w:pPr><w:spacing w:line="360" w:lineRule="auto"/></w:pPr><w:r><w:t>Half again</w:t></w:r></w:p>"#,
        r#"<w:p><w:pPr><w:snapToGrid w:val="0"/></w:pPr><w:r><w:t>Off grid</w:t></w:r></w:p>"#,
        r#"<w:sectPr><w:docGrid w:type="lines" w:linePitch="312"/></w:sectPr>"#
    );
    let mut f = DocxFixture::new(&body);
    f.styles = Some(styles);
    let html = render(&f);
    assert!(
        tag_before(&html, "Grid text").contains("line-height:15.6pt"),
        "{html}"
    );
    assert!(
        tag_before(&html, "Half again").contains("line-height:23.4pt"),
        "{html}"
    );
    assert!(
        !tag_before(&html, "Off grid").contains("line-height"),
        "{html}"
    );
    // The default grid places lines freely.
    let free = DocxFixture::new(&format!(
        "{}{}",
        para("Free"),
        r#"<w:sectPr><w:docGrid w:linePitch="312"/></w:sectPr>"#
    ));
    assert!(!tag_before(&render(&free), "Free").contains("line-height"));
}

#[test]
fn vml_groups_size_their_shapes_in_their_own_coordinates() {
    // 2000×1000 units drawn as 200×100 pt: a 1000×500 shape is 100×50 pt, not
    // 1000×500 pixels.
    let body = r#"<w:p><w:r><w:pict xmlns:v="urn:schemas-microsoft-com:vml"><v:group style="width:200pt;height:100pt" coordsize="2000,1000"><v:shape style="position:absolute;left:0;top:0;width:1000;height:500"><v:textbox><w:txbxContent><w:p><w:r><w:t>Grouped box</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></v:group></w:pict></w:r></w:p>"#;
    let html = render(&DocxFixture::new(body));
    let at = html.find("Grouped box").unwrap();
    let open = html[..at].rfind("docx-textbox").unwrap();
    let tag = &html[open..at];
    assert!(tag.contains("width:100pt;min-height:50pt;"), "{tag}");
}

#[test]
fn drawingml_groups_size_their_shapes_in_their_own_coordinates() {
    // A group 2 × 1 inches whose children use a coordinate space twice as large.
    let body = r#"<w:p><w:r><w:drawing xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wpg="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wp:inline><wp:extent cx="1828800" cy="914400"/><wp:docPr id="1" name="Group"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup"><wpg:wgp><wpg:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1828800" cy="914400"/><a:chOff x="0" y="0"/><a:chExt cx="3657600" cy="1828800"/></a:xfrm></wpg:grpSpPr><wps:wsp><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1828800" cy="914400"/></a:xfrm></wps:spPr><wps:txbx><w:txbxContent><w:p><w:r><w:t>Half box</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp></wpg:wgp></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"#;
    let html = render(&DocxFixture::new(body));
    let at = html.find("Half box").unwrap();
    let open = html[..at].rfind("docx-textbox").unwrap();
    let tag = &html[open..at];
    // 1828800 EMU = 144 pt in child units, half that on the page.
    assert!(tag.contains("width:72pt;min-height:36pt;"), "{tag}");
}

#[test]
fn drawingml_text_boxes_keep_their_fill_and_outline() {
    let shape = |props: &str, text: &str| {
        format!(
            r#"<w:p><w:r><w:drawing xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wp:inline><wp:extent cx="914400" cy="457200"/><wp:docPr id="1" name="Box"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:spPr>{props}</wps:spPr><wps:txbx><w:txbxContent><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"#
        )
    };
    let body = format!(
        "{}{}",
        shape(
            r#"<a:solidFill><a:srgbClr val="FFF2CC"/></a:solidFill><a:ln w="25400"><a:solidFill><a:srgbClr val="C00000"/></a:solidFill></a:ln>"#,
            "Filled box"
        ),
        shape(r#"<a:noFill/><a:ln><a:noFill/></a:ln>"#, "Bare box")
    );
    let html = render(&DocxFixture::new(&body));
    let tag = |text: &str| {
        let at = html.find(text).unwrap();
        let open = html[..at].rfind("docx-textbox").unwrap();
        html[open..at].to_owned()
    };
    let filled = tag("Filled box");
    assert!(filled.contains("background-color:#FFF2CC;"), "{filled}");
    assert!(filled.contains("border:2pt solid #C00000;"), "{filled}");
    let bare = tag("Bare box");
    assert!(bare.contains("border:none;"), "{bare}");
    assert!(!bare.contains("background-color"), "{bare}");
}
