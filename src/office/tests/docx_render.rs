//! Rendering: every corpus document renders with all of its main-part text, in order;
//! features come out as the HTML a viewer needs; nothing unsafe gets through.

use super::support::{
    list_para, main_part_texts, para, png_header, w_part, DocxFixture, DOCX_CORPUS, PPTX_THEME,
};
use crate::markup::escape;
use crate::office::docx::{parse_docx, render_html, RenderOptions};
use crate::office::OfficeLimits;

fn render(bytes: &[u8]) -> String {
    let doc = parse_docx(bytes, &OfficeLimits::default()).unwrap();
    render_html(&doc, &RenderOptions::default())
}

#[test]
fn every_corpus_document_renders_all_its_text_in_order() {
    let mut files: Vec<_> = std::fs::read_dir(DOCX_CORPUS)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "docx"))
        .collect();
    files.push(format!("{DOCX_CORPUS}/../../bench/report-60p.docx").into());
    files.sort();
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let html = render(&bytes);
        let mut cursor = 0;
        for text in main_part_texts(&bytes) {
            let text = escape(&text);
            match html[cursor..].find(&text) {
                Some(at) => cursor += at + text.len(),
                None => panic!("{}: {text:?} missing after byte {cursor}", path.display()),
            }
        }
        assert!(html.starts_with("<article class=\"docx\""));
        assert!(html.contains("class=\"docx-page\""), "{}", path.display());
        assert!(!html.contains("<script"), "{}", path.display());
    }
}

#[test]
fn features_render_as_semantic_html() {
    let styles = w_part(
        "styles",
        r#"<w:style w:type="paragraph" w:styleId="H2"><w:name w:val="heading 2"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>"#,
    );
    let numbering = w_part(
        "numbering",
        r#"<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:start w:val="5"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
           <w:lvl w:ilvl="1"><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2."/></w:lvl>
           <w:lvl w:ilvl="2"><w:numFmt w:val="lowerRoman"/><w:lvlText w:val="%3."/></w:lvl></w:abstractNum>
           <w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num>"#,
    );
    let footnotes = w_part(
        "footnotes",
        &format!(r#"<w:footnote w:id="1">{}</w:footnote>"#, para("Note text")),
    );
    let body = format!(
        concat!(
            r#"<w:p><w:pPr><w:pStyle w:val="H2"/></w:pPr><w:r><w:t>Heading &lt;two&gt;</w:t></w:r></w:p>"#,
            "{}{}{}{}",
            r#"<w:p><w:r><w:t>See</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r>"#,
            r#"<w:ins w:author="A"><w:r><w:t>added</w:t></w:r></w:ins><w:del w:author="B"><w:r><w:delText>gone</w:delText></w:r></w:del>"#,
            r#"<w:hyperlink r:id="rIdJs"><w:r><w:t>bad link</w:t></w:r></w:hyperlink>"#,
            r#"<w:hyperlink r:id="rIdOk"><w:r><w:t>good link</w:t></w:r></w:hyperlink></w:p>"#,
            r#"<w:tbl><w:tblGrid><w:gridCol w:w="1000"/><w:gridCol w:w="1000"/></w:tblGrid>"#,
            r#"<w:tr><w:tc><w:tcPr><w:gridSpan w:val="2"/></w:tcPr><w:p><w:r><w:t>span</w:t></w:r></w:p></w:tc></w:tr>"#,
            r#"<w:tr><w:tc><w:tcPr><w:vMerge w:val="restart"/></w:tcPr><w:p><w:r><w:t>tall</w:t></w:r></w:p></w:tc><w:tc><w:p/></w:tc></w:tr>"#,
            r#"<w:tr><w:tc><w:tcPr><w:vMerge/></w:tcPr><w:p/></w:tc><w:tc><w:p/></w:tc></w:tr></w:tbl>"#,
            r#"<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="127000" cy="254000"/><wp:docPr id="1" name="p" descr="dot &quot;x&quot;"/>"#,
            r#"<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:blipFill><a:blip r:embed="rIdImg"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"#,
        ),
        list_para(1, 0, "five"),
        list_para(1, 1, "letter"),
        list_para(1, 2, "roman"),
        list_para(1, 2, "roman2"),
    );
    let mut f = DocxFixture::new(&body);
    f.styles = Some(styles);
    f.numbering = Some(numbering);
    f.footnotes = Some(footnotes);
    f.rels.push((
        "rIdJs".into(),
        "hyperlink".into(),
        "javascript:alert(1)".into(),
        true,
    ));
    f.rels.push((
        "rIdOk".into(),
        "hyperlink".into(),
        "https://example.com/?a=1&b=2".into(),
        true,
    ));
    f.rels.push((
        "rIdImg".into(),
        "image".into(),
        "media/dot.png".into(),
        false,
    ));
    f.parts
        .push(("word/media/dot.png".into(), png_header(2, 4)));
    let html = render(&f.build());

    assert!(
        html.contains(r#"<h2 class="docx-p docx-s-H2">Heading &lt;two&gt;</h2>"#),
        "{html}"
    );
    for label in ["5.", "a.", "i.", "ii."] {
        assert!(
            // No indents: the tab after the label goes to the first default stop.
            html.contains(&format!(
                r#"<span class="docx-list-label" style="min-width:36pt;">{label}</span>"#
            )),
            "label {label}"
        );
    }
    assert!(html.contains(
        r##"<sup class="docx-note-ref"><a href="#docx-fn-1" id="docx-fnref-1">1</a></sup>"##
    ));
    assert!(html.contains(r#"<div class="docx-note" id="docx-fn-1">"#));
    assert!(html.contains(r#"<ins class="docx-ins" title="A">added</ins>"#));
    assert!(html.contains(r#"<del class="docx-del" title="B">gone</del>"#));
    // An unsafe scheme never becomes a link; the address is only shown on hover.
    assert!(!html.contains("href=\"javascript"));
    assert!(html
        .contains(r#"<span class="docx-link-inert" title="javascript:alert(1)">bad link</span>"#));
    assert!(html.contains(r#"<a href="https://example.com/?a=1&amp;b=2" rel="noopener noreferrer" target="_blank">good link</a>"#));
    assert!(html.contains(r#"<td colspan="2""#));
    assert!(html.contains(r#"<td rowspan="2""#));
    assert_eq!(
        html.matches("<td").count(),
        4,
        "the covered cell is not a cell"
    );
    assert!(html.contains(r#"<img src="media/word/media/dot.png" alt="dot &quot;x&quot;" style="width:10pt;aspect-ratio:10/20;" loading="lazy">"#), "{html}");
}

#[test]
fn page_frames_follow_sections_and_page_breaks_and_fill_page_numbers() {
    let mut f = DocxFixture::new(&format!(
        concat!(
            "{}",
            r#"<w:p><w:r><w:t>before</w:t><w:br w:type="page"/><w:t>after</w:t></w:r></w:p>"#,
            r#"<w:p><w:pPr><w:pageBreakBefore/></w:pPr><w:r><w:t>third</w:t></w:r></w:p>"#,
            r#"<w:sectPr><w:footerReference w:type="default" r:id="rIdF"/><w:pgSz w:w="11906" w:h="16838"/></w:sectPr>"#
        ),
        para("first")
    ));
    f.rels
        .push(("rIdF".into(), "footer".into(), "footer1.xml".into(), false));
    f.parts.push((
        "word/footer1.xml".into(),
        w_part(
            "ftr",
            r#"<w:p><w:r><w:t xml:space="preserve">Page </w:t></w:r><w:fldSimple w:instr="PAGE"><w:r><w:t>1</w:t></w:r></w:fldSimple><w:r><w:t xml:space="preserve"> of </w:t></w:r><w:fldSimple w:instr="NUMPAGES"><w:r><w:t>1</w:t></w:r></w:fldSimple></w:p>"#,
        )
        .into_bytes(),
    ));
    let html = render(&f.build());
    assert_eq!(html.matches("<section class=\"docx-page\"").count(), 3);
    assert!(html.contains("--page-w:595.3pt;--page-h:841.9pt"));
    for n in 1..=3 {
        assert!(
            html.contains(&format!(
                r#"Page <span class="docx-pgnum" data-field="PAGE">{n}</span> of <span class="docx-pgnum" data-field="NUMPAGES">3</span>"#
            )),
            "footer of page {n}: {html}"
        );
    }
    let first = html.find("first").unwrap();
    let before = html.find("before").unwrap();
    let second_page = html[before..].find("docx-page").unwrap() + before;
    let after = html.find("after").unwrap();
    assert!(first < before && before < second_page && second_page < after);
}

#[test]
fn equations_render_as_mathml_and_keep_their_text() {
    let m = "http://schemas.openxmlformats.org/officeDocument/2006/math";
    let body = format!(
        concat!(
            r#"<w:p><w:r><w:t>Area:</w:t></w:r><m:oMath xmlns:m="{m}"><m:r><m:t>A=π</m:t></m:r>"#,
            r#"<m:sSup><m:e><m:r><m:t>r</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup></m:oMath></w:p>"#,
            r#"<w:p><m:oMathPara xmlns:m="{m}"><m:oMath><m:f><m:num><m:r><m:t>a</m:t></m:r></m:num>"#,
            r#"<m:den><m:r><m:t>b&lt;c</m:t></m:r></m:den></m:f></m:oMath></m:oMathPara></w:p>"#,
        ),
        m = m
    );
    let bytes = DocxFixture::new(&body).build();
    let html = render(&bytes);
    assert!(html.contains(
        "<math><mrow><mi>A</mi><mo>=</mo><mi>π</mi><msup><mrow><mi>r</mi></mrow><mrow><mn>2</mn></mrow></msup></mrow></math>"
    ), "{html}");
    assert!(html.contains(
        "<math display=\"block\"><mrow><mfrac><mrow><mi>a</mi></mrow><mrow><mi>b</mi><mo>&lt;</mo><mi>c</mi></mrow></mfrac></mrow></math>"
    ), "{html}");
    // The model keeps the equation's characters for text extraction and search.
    let doc = parse_docx(&bytes, &OfficeLimits::default()).unwrap();
    let json = serde_json::to_string(&doc).unwrap();
    assert!(json.contains("\"type\":\"math\""));
    assert!(json.contains("\"type\":\"scripts\""));
}

/// A fixture whose main part relates to `word/theme/theme1.xml` (Office's 2013 colours:
/// accent1 4472C4, accent2 ED7D31, accent6 70AD47, dk2 44546A).
fn with_theme(mut fixture: DocxFixture) -> DocxFixture {
    fixture.rels.push((
        "rId60".into(),
        "theme".into(),
        "theme/theme1.xml".into(),
        false,
    ));
    fixture.parts.push((
        "word/theme/theme1.xml".into(),
        PPTX_THEME.as_bytes().to_vec(),
    ));
    fixture
}

#[test]
fn theme_colours_resolve_from_the_theme_part() {
    let run =
        |rpr: &str, text: &str| format!(r#"<w:r><w:rPr>{rpr}</w:rPr><w:t>{text}</w:t></w:r>"#);
    let body = format!(
        concat!(
            "<w:p>{}{}{}{}{}{}</w:p>",
            r#"<w:p><w:pPr><w:pBdr><w:bottom w:val="single" w:sz="8" w:color="000000" w:themeColor="text2"/></w:pBdr>"#,
            r#"<w:shd w:val="clear" w:color="auto" w:fill="FFFFFF" w:themeFill="accent2" w:themeFillShade="BF"/></w:pPr>"#,
            r#"<w:r><w:t>Ruled</w:t></w:r></w:p>"#,
        ),
        run(
            r#"<w:color w:val="FF0000" w:themeColor="accent2"/>"#,
            "Themed"
        ),
        run(r#"<w:color w:val="00FF00"/>"#, "Literal"),
        run(
            r#"<w:color w:val="000000" w:themeColor="accent1" w:themeShade="80"/>"#,
            "Shaded"
        ),
        run(
            r#"<w:shd w:val="clear" w:color="auto" w:fill="FFFFFF" w:themeFill="accent1" w:themeFillTint="66"/>"#,
            "Filled"
        ),
        run(
            r#"<w:u w:val="single" w:color="000000" w:themeColor="accent2"/>"#,
            "Underlined"
        ),
        run(r#"<w:rStyle w:val="Accent"/>"#, "Styled"),
    );
    let mut fixture = DocxFixture::new(&body);
    fixture.styles = Some(w_part(
        "styles",
        r#"<w:style w:type="character" w:styleId="Accent"><w:name w:val="Accent"/><w:rPr><w:color w:val="111111" w:themeColor="accent6"/></w:rPr></w:style>"#,
    ));
    let html = render(&with_theme(fixture.clone()).build());
    let span_of = |text: &str| {
        let end = html
            .find(&format!(">{text}<"))
            .unwrap_or_else(|| panic!("{text} missing"));
        let start = html[..end].rfind("<span").unwrap();
        html[start..end].to_owned()
    };
    assert!(
        span_of("Themed").contains("color:#ED7D31"),
        "{}",
        span_of("Themed")
    );
    assert!(span_of("Literal").contains("color:#00FF00"));
    // Accent 1 darker 50% and lighter 60% (Word's swatches are 1F3864 and B4C6E7: it
    // rounds differently).
    assert!(
        span_of("Shaded").contains("color:#203965"),
        "{}",
        span_of("Shaded")
    );
    assert!(span_of("Filled").contains("background-color:#B4C7E7"));
    let underlined = span_of("Underlined");
    assert!(
        underlined.contains("text-decoration-color:#ED7D31"),
        "{underlined}"
    );
    assert!(span_of("Styled").contains("color:#70AD47"));
    let ruled = &html[..html.find(">Ruled<").unwrap()];
    let ruled = &ruled[ruled.rfind("<p").unwrap()..];
    assert!(ruled.contains("border-bottom:1pt solid #44546A"), "{ruled}");
    // Accent 2 (ED7D31) darker 25%.
    assert!(ruled.contains("background-color:#C55A11"), "{ruled}");

    // Without a theme part the literal values stay.
    let html = render(&fixture.build());
    assert!(html.contains("color:#FF0000"));
    assert!(html.contains("color:#111111"));
    assert!(!html.contains("#ED7D31"));
}

/// The `<p …>…</p>` holding `text`.
fn paragraph_with<'h>(html: &'h str, text: &str) -> &'h str {
    let at = html
        .find(text)
        .unwrap_or_else(|| panic!("{text:?} in {html}"));
    let start = html[..at].rfind("<p").unwrap();
    let end = at + html[at..].find("</p>").unwrap() + 4;
    &html[start..end]
}

fn tab_run() -> &'static str {
    "<w:r><w:tab/></w:r>"
}

#[test]
fn tab_stops_resolve_through_styles_and_lay_out_leaders_and_alignment() {
    // A table-of-contents style with a right stop at the text edge (dot leader) and a
    // left stop the paragraph clears; the entry sits in an internal link as Word writes it.
    let styles = w_part(
        "styles",
        r#"<w:style w:type="paragraph" w:styleId="TocBase"><w:name w:val="TocBase"/>
             <w:pPr><w:tabs><w:tab w:val="left" w:pos="1000"/></w:tabs></w:pPr></w:style>
           <w:style w:type="paragraph" w:styleId="TOC1"><w:name w:val="toc 1"/><w:basedOn w:val="TocBase"/>
             <w:pPr><w:tabs><w:tab w:val="right" w:leader="dot" w:pos="9350"/></w:tabs></w:pPr></w:style>"#,
    );
    let body = format!(
        concat!(
            r#"<w:p><w:pPr><w:pStyle w:val="TOC1"/><w:tabs><w:tab w:val="clear" w:pos="1000"/></w:tabs></w:pPr>"#,
            r#"<w:hyperlink w:anchor="_Toc1"><w:r><w:t>Heading &amp; more</w:t></w:r>{tab}<w:r><w:t>12</w:t></w:r></w:hyperlink></w:p>"#,
            // Left stop 2160 with the paragraph indented 720: 72pt after the indent.
            r#"<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="2160"/></w:tabs><w:ind w:left="720"/></w:pPr>"#,
            r#"<w:r><w:t>Name:</w:t></w:r>{tab}<w:r><w:t>Ada</w:t></w:r></w:p>"#,
            // Centre and right stops (a header line), then a decimal stop.
            r#"<w:p><w:pPr><w:tabs><w:tab w:val="center" w:pos="4680"/><w:tab w:val="right" w:leader="hyphen" w:pos="9360"/></w:tabs></w:pPr>"#,
            r#"<w:r><w:t>Left</w:t></w:r>{tab}<w:r><w:t>Mid</w:t></w:r>{tab}<w:r><w:t>End</w:t></w:r></w:p>"#,
            r#"<w:p><w:pPr><w:tabs><w:tab w:val="decimal" w:leader="underscore" w:pos="4320"/></w:tabs></w:pPr>"#,
            r#"<w:r><w:t>Cost</w:t></w:r>{tab}<w:r><w:t>12.50</w:t></w:r></w:p>"#,
            // No custom stop: a plain tab character for the default stops.
            r#"<w:p><w:r><w:t>Plain</w:t></w:r>{tab}<w:r><w:t>tab</w:t></w:r></w:p>"#,
        ),
        tab = tab_run()
    );
    let mut f = DocxFixture::new(&body);
    f.styles = Some(styles);
    let html = render(&f.build());

    let toc = paragraph_with(&html, "Heading &amp; more");
    assert_eq!(
        toc,
        concat!(
            r#"<p class="docx-p docx-s-TOC1">"#,
            r#"<span class="docx-tabbox docx-tabbox-to-stop" style="width:467.5pt">"#,
            r##"<span class="docx-tabseg"><a href="#docx-bm-_Toc1">Heading &amp; more</a></span>"##,
            r#"<span class="docx-leader docx-leader-dot"></span>"#,
            r##"<span class="docx-tabseg docx-tab-end"><a href="#docx-bm-_Toc1">12</a></span>"##,
            "</span></p>"
        ),
        "the cleared 50pt stop is gone, the number ends at the right stop"
    );
    let form = paragraph_with(&html, "Name:");
    assert!(
        form.contains(concat!(
            r#"<span class="docx-tabbox" style="min-width:72pt"><span class="docx-tabseg">Name:</span>"#,
            r#"<span class="docx-leader"></span></span>Ada</p>"#
        )),
        "{form}"
    );
    let header = paragraph_with(&html, "Mid");
    assert!(
        header.contains(concat!(
            r#"<span class="docx-tabbox docx-tabbox-to-stop" style="width:234pt"><span class="docx-tabseg">Left</span>"#,
            r#"<span class="docx-leader"></span><span class="docx-tabseg docx-tab-center">Mid</span></span>"#,
            r#"<span class="docx-tabbox docx-tabbox-to-stop" style="width:234pt"><span class="docx-leader docx-leader-hyphen"></span>"#,
            r#"<span class="docx-tabseg docx-tab-end">End</span></span>"#
        )),
        "{header}"
    );
    let decimal = paragraph_with(&html, "Cost");
    assert!(
        decimal.contains(concat!(
            r#"<span class="docx-leader docx-leader-underscore"></span>"#,
            r#"<span class="docx-tabseg docx-tab-end">12</span></span>.50</p>"#
        )),
        "{decimal}"
    );
    let plain = paragraph_with(&html, "Plain");
    assert!(
        plain.contains("Plain<span class=\"docx-tab\">\t</span>tab"),
        "{plain}"
    );
    assert!(!plain.contains("docx-tabbox"));
    // Word's default stop interval when settings say nothing.
    assert!(html.starts_with(r#"<article class="docx" style="tab-size:36pt"#));
}

#[test]
fn default_tab_stop_comes_from_settings() {
    let mut f = DocxFixture::new(&format!(
        "<w:p><w:r><w:t>a</w:t></w:r>{}<w:r><w:t>b</w:t></w:r></w:p>",
        tab_run()
    ));
    f.with_settings(r#"<w:defaultTabStop w:val="360"/>"#);
    let bytes = f.build();
    let doc = parse_docx(&bytes, &OfficeLimits::default()).unwrap();
    assert_eq!(doc.default_tab_stop, 18.0);
    let html = render(&bytes);
    assert!(html.starts_with(r#"<article class="docx" style="tab-size:18pt"#));
}

/// Text that neither the document defaults nor a style sizes is 10 pt, as Word and
/// LibreOffice show it (`powertools-HC061-Hyperlink-in-Field` was drawn at the page's
/// 11 pt): the page frame takes the size, paragraphs stay as they were. A document whose
/// defaults size the text keeps the frame's own default.
#[test]
fn text_no_style_sizes_is_ten_points() {
    let bytes = DocxFixture::new(&para("Unsized")).build();
    let doc = parse_docx(&bytes, &OfficeLimits::default()).unwrap();
    assert_eq!(doc.unsized_text, Some(10.0));
    let html = render(&bytes);
    assert!(
        html.starts_with(r#"<article class="docx" style="tab-size:36pt;--docx-size:10pt">"#),
        "{html}"
    );
    let mut sized = DocxFixture::new(&para("Sized"));
    sized.styles = Some(w_part(
        "styles",
        r#"<w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults>"#,
    ));
    let bytes = sized.build();
    assert_eq!(
        parse_docx(&bytes, &OfficeLimits::default())
            .unwrap()
            .unsized_text,
        None
    );
    assert!(render(&bytes).starts_with(r#"<article class="docx" style="tab-size:36pt">"#));
}

#[test]
fn a_hanging_indent_is_a_tab_stop_and_breaks_start_new_lines() {
    // "1.<tab>text" with a hanging indent: the tab reaches the indent (Word's implicit
    // stop). After the line break the stops count from the indent again.
    let body = format!(
        concat!(
            r#"<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="2880"/></w:tabs><w:ind w:left="720" w:hanging="360"/></w:pPr>"#,
            r#"<w:r><w:t>1.</w:t></w:r>{tab}<w:r><w:t>first</w:t><w:br/><w:t>x</w:t></w:r>{tab}<w:r><w:t>second</w:t></w:r></w:p>"#,
        ),
        tab = tab_run()
    );
    let html = render(&DocxFixture::new(&body).build());
    let p = paragraph_with(&html, "first");
    assert!(
        p.contains(concat!(
            r#"<span class="docx-tabbox" style="min-width:18pt"><span class="docx-tabseg">1.</span>"#,
            r#"<span class="docx-leader"></span></span>first<br>"#,
            r#"<span class="docx-tabbox" style="min-width:108pt"><span class="docx-tabseg">x</span>"#,
            r#"<span class="docx-leader"></span></span>second</p>"#
        )),
        "{p}"
    );
}

#[test]
fn comment_ranges_are_highlighted_across_runs_links_and_paragraphs_and_linked_both_ways() {
    let body = concat!(
        r#"<w:p><w:r><w:t xml:space="preserve">Before </w:t></w:r><w:commentRangeStart w:id="7"/>"#,
        r#"<w:r><w:t xml:space="preserve">start </w:t></w:r>"#,
        r#"<w:hyperlink w:anchor="bm"><w:r><w:t>in</w:t></w:r><w:commentRangeStart w:id="8"/><w:r><w:t>link</w:t></w:r></w:hyperlink>"#,
        r#"<w:r><w:rPr><w:b/></w:rPr><w:t>bold</w:t></w:r></w:p>"#,
        // Between paragraphs: comment 8 ends before the next paragraph's text.
        r#"<w:commentRangeEnd w:id="8"/>"#,
        r#"<w:p><w:r><w:t>carried</w:t></w:r><w:commentRangeEnd w:id="7"/>"#,
        r#"<w:r><w:commentReference w:id="7"/></w:r><w:r><w:t xml:space="preserve"> after</w:t></w:r></w:p>"#,
    );
    let mut f = DocxFixture::new(body);
    f.comments = Some(w_part(
        "comments",
        &format!(
            r#"<w:comment w:id="7" w:author="Ann &lt;A&gt;">{}</w:comment><w:comment w:id="8" w:author="Bo">{}</w:comment>"#,
            para("Outer"),
            para("Inner")
        ),
    ));
    let bytes = f.build();
    let html = render(&bytes);
    let mark = |id: &str, first: bool| {
        if first {
            format!(
                r#"<mark class="docx-comment-range" data-comment="{id}" id="docx-crange-{id}">"#
            )
        } else {
            format!(r#"<mark class="docx-comment-range" data-comment="{id}">"#)
        }
    };
    assert_eq!(
        paragraph_with(&html, "Before"),
        format!(
            concat!(
                r#"<p class="docx-p">Before {m7}start </mark>"#,
                r##"<a href="#docx-bm-bm">{m7b}in{m8}link</mark></mark></a>"##,
                r#"{m7b}{m8b}<span style="font-weight:bold;">bold</span></mark></mark></p>"#
            ),
            m7 = mark("7", true),
            m7b = mark("7", false),
            m8 = mark("8", true),
            m8b = mark("8", false),
        )
    );
    assert_eq!(
        paragraph_with(&html, "carried"),
        format!(
            r##"<p class="docx-p">{}carried</mark><a class="docx-comment-ref" href="#docx-comment-7" id="docx-cref-7">[1]</a> after</p>"##,
            mark("7", false)
        )
    );
    // The panel leads back to where each range starts.
    assert!(html.contains(concat!(
        r#"<div class="docx-comment" id="docx-comment-7"><div class="docx-comment-meta">"#,
        r##"<a class="docx-comment-back" href="#docx-crange-7">[1]</a> Ann &lt;A&gt;</div>"##
    )));
    assert!(html.contains(r##"<a class="docx-comment-back" href="#docx-crange-8">[2]</a> Bo"##));
    assert_eq!(html.matches("id=\"docx-crange-7\"").count(), 1);

    // Without the panel there is nothing to highlight for.
    let doc = parse_docx(&bytes, &OfficeLimits::default()).unwrap();
    let plain = render_html(
        &doc,
        &RenderOptions {
            comments: false,
            ..RenderOptions::default()
        },
    );
    assert!(!plain.contains("<mark"));
    assert!(plain.contains(r#"<p class="docx-p">carried after</p>"#));
}

#[test]
fn a_comment_range_inside_a_tab_box_stays_inside_its_segments() {
    let body = concat!(
        r#"<w:p><w:pPr><w:tabs><w:tab w:val="right" w:leader="dot" w:pos="9000"/></w:tabs></w:pPr>"#,
        r#"<w:commentRangeStart w:id="1"/><w:r><w:t>Title</w:t></w:r><w:r><w:tab/></w:r><w:r><w:t>9</w:t></w:r>"#,
        r#"<w:commentRangeEnd w:id="1"/></w:p>"#,
    );
    let mut f = DocxFixture::new(body);
    f.comments = Some(w_part(
        "comments",
        &format!(
            r#"<w:comment w:id="1" w:author="C">{}</w:comment>"#,
            para("c")
        ),
    ));
    let html = render(&f.build());
    assert_eq!(
        paragraph_with(&html, "Title"),
        concat!(
            r#"<p class="docx-p"><span class="docx-tabbox docx-tabbox-to-stop" style="width:450pt">"#,
            r#"<span class="docx-tabseg"><mark class="docx-comment-range" data-comment="1" id="docx-crange-1">Title</mark></span>"#,
            r#"<span class="docx-leader docx-leader-dot"></span>"#,
            r#"<span class="docx-tabseg docx-tab-end"><mark class="docx-comment-range" data-comment="1">9</mark></span></span></p>"#
        )
    );
}

/// A tab goes to the first stop past the text before it, measured in the face the page
/// draws it in: ten capital Ms of Calibri (Carlito) at 11 pt are about 94 pt wide, past a
/// 72 pt stop, so the tab reaches the 144 pt one. The length estimate used when the
/// machine has no such face (0.45 em a letter, 49.5 pt) would stop at 72 pt and draw
/// the x over the Ms.
#[test]
fn tabs_choose_their_stop_by_the_texts_real_width() {
    let body = format!(
        concat!(
            r#"<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="1440"/><w:tab w:val="left" w:pos="2880"/></w:tabs></w:pPr>"#,
            r#"<w:r><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:sz w:val="22"/></w:rPr><w:t>MMMMMMMMMM</w:t></w:r>{tab}"#,
            r#"<w:r><w:t>x</w:t></w:r></w:p>"#,
        ),
        tab = tab_run()
    );
    let doc = parse_docx(&DocxFixture::new(&body).build(), &OfficeLimits::default()).unwrap();
    let plan = machine_plan(&["Calibri"]);
    let measured = render_html(
        &doc,
        &RenderOptions {
            fonts: plan,
            ..RenderOptions::default()
        },
    );
    let p = paragraph_with(&measured, "MMMMMMMMMM");
    assert!(p.contains(r#"style="min-width:144pt""#), "{p}");
    let estimated = render_html(&doc, &RenderOptions::default());
    let p = paragraph_with(&estimated, "MMMMMMMMMM");
    assert!(p.contains(r#"style="min-width:72pt""#), "{p}");
}

/// The font plan of a document whose font table names `names`, with the machine's fonts.
fn machine_plan(names: &[&str]) -> crate::office::fonts::FontPlan {
    use crate::office::fonts::{
        DocumentFonts, FontCatalog, FontHints, FontPlan, FontSources, MachineFonts, NamedFont,
    };
    let catalog = FontCatalog::scan(&crate::config::FontsConfig::default().dirs, 64 << 20);
    assert!(
        !catalog.family_faces("Carlito").is_empty(),
        "scripts/test.sh installs fonts-crosextra-carlito"
    );
    let fonts = DocumentFonts {
        named: names
            .iter()
            .map(|n| NamedFont {
                name: (*n).into(),
                hints: FontHints::default(),
            })
            .collect(),
        embedded: Vec::new(),
    };
    FontPlan::new(
        &fonts,
        &FontSources {
            machine: Some(MachineFonts {
                catalog: &catalog,
                url_prefix: None,
            }),
            embedded: None,
            embedded_urls: &Default::default(),
            pptx_calibri: false,
        },
    )
}

/// Single spacing is the face's own line: Calibri's (Carlito's) 1.2207 em, times the
/// multiple; the paragraph box is set in the face of most of its text, a run in another
/// face sets that multiple of its own face's line, and a face the machine does not know
/// counts as the page's 1.15 em. Exact heights are the paragraph's alone.
#[test]
fn line_heights_are_the_faces_single_lines_times_the_multiple() {
    let run = |face: &str, text: &str| {
        format!(
            r#"<w:r><w:rPr><w:rFonts w:ascii="{face}" w:hAnsi="{face}" w:eastAsia="Microsoft YaHei"/></w:rPr><w:t>{text}</w:t></w:r>"#
        )
    };
    let body = format!(
        concat!(
            r#"<w:p><w:pPr><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/></w:rPr></w:pPr>{}</w:p>"#,
            r#"<w:p><w:pPr><w:spacing w:line="276" w:lineRule="auto"/></w:pPr>{}{}</w:p>"#,
            r#"<w:p><w:pPr><w:spacing w:line="300" w:lineRule="exact"/></w:pPr>{}{}</w:p>"#,
            r#"<w:p>{}</w:p>"#,
            r#"<w:p>{}{}</w:p>"#,
        ),
        run("Calibri", "Single"),
        run("Calibri", "Multiple "),
        run("Calibri", "中文"),
        run("Calibri", "Exact "),
        run("Calibri", "中文"),
        run("Unknown Face", "Unknown"),
        run("Verdana", "Mostly Verdana "),
        run("Calibri", "a"),
    );
    let mut fixture = DocxFixture::new(&body);
    fixture.styles = Some(w_part(
        "styles",
        r#"<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/></w:rPr></w:rPrDefault></w:docDefaults>"#,
    ));
    let doc = parse_docx(&fixture.build(), &OfficeLimits::default()).unwrap();
    let html = render_html(
        &doc,
        &RenderOptions {
            fonts: machine_plan(&["Calibri", "Microsoft YaHei", "Verdana"]),
            ..RenderOptions::default()
        },
    );
    let single = paragraph_with(&html, "Single");
    assert!(single.contains("line-height:1.2207;"), "{single}");
    // 1.15 × 1.2207 for the paragraph, 1.15 × 1.448 (Noto Sans CJK) for the Chinese run.
    let multiple = paragraph_with(&html, "Multiple");
    assert!(multiple.contains("line-height:1.4038;"), "{multiple}");
    assert!(
        multiple.contains("line-height:1.6652;\">中文"),
        "{multiple}"
    );
    let exact = paragraph_with(&html, "Exact");
    assert_eq!(exact.matches("line-height").count(), 1, "{exact}");
    assert!(exact.contains("line-height:15pt;"), "{exact}");
    let unknown = paragraph_with(&html, "Unknown");
    assert!(!unknown.contains("line-height"), "{unknown}");
    // A Calibri document's paragraph of Verdana text: the box is Verdana's (DejaVu
    // Sans, 1.1641 em), and the Calibri run sets its own line.
    let verdana = paragraph_with(&html, "Mostly Verdana");
    assert!(
        verdana.starts_with(
            r#"<p class="docx-p" style="line-height:1.1641;font-family:&#39;Verdana&#39;"#
        ),
        "{verdana}"
    );
    assert!(verdana.contains("line-height:1.2207;\">a<"), "{verdana}");
}

/// A side border lies its `w:space` outside the text: the paragraph's margin gives up
/// the space and the line so the text keeps its indent; a `nil` side takes nothing.
#[test]
fn paragraph_borders_sit_their_space_outside_the_indent() {
    let html = render(
        &DocxFixture::new(concat!(
            r#"<w:p><w:pPr><w:pBdr><w:left w:val="single" w:sz="8" w:space="4"/></w:pBdr><w:ind w:left="720"/></w:pPr><w:r><w:t>Boxed</w:t></w:r></w:p>"#,
            r#"<w:p><w:pPr><w:pBdr><w:left w:val="nil" w:space="4"/></w:pBdr><w:ind w:left="720"/></w:pPr><w:r><w:t>Unboxed</w:t></w:r></w:p>"#,
        ))
        .build(),
    );
    // 36 pt of indent less 4 pt of space and 1 pt of line.
    let boxed = paragraph_with(&html, "Boxed");
    assert!(boxed.contains("margin-left:31pt;"), "{boxed}");
    assert!(boxed.contains("padding-left:4pt;"), "{boxed}");
    let unboxed = paragraph_with(&html, "Unboxed");
    assert!(unboxed.contains("margin-left:36pt;"), "{unboxed}");
    assert!(!unboxed.contains("padding-left"), "{unboxed}");
}

/// Neighbours with the same borders are one box (`powertools-RP052`'s three boxed
/// title lines): the top line above the first, the bottom line (and its 30 pt of space)
/// below the last, the between line between them, and the space between them inside
/// the box. A paragraph with other borders starts a box of its own.
/// Runs that turn off what their paragraph style turns on lose it (`tika-
/// testWORD_emptyParaInTextbox`: a Normal style with strike-through and small capitals
/// under runs with `w:strike w:val="0"`, all drawn struck through). A decoration set on
/// the paragraph would be drawn across every run inside it, whatever the run says, so the
/// paragraph leaves lines to its runs; capitals are switched off on the run.
#[test]
fn runs_turn_off_the_strike_and_capitals_of_their_style() {
    let mut f = DocxFixture::new(concat!(
        r#"<w:p><w:r><w:rPr><w:strike w:val="0"/><w:smallCaps w:val="0"/><w:caps w:val="0"/></w:rPr><w:t>Plain words</w:t></w:r></w:p>"#,
        r#"<w:p><w:r><w:t>Styled words</w:t></w:r></w:p>"#,
    ));
    f.styles = Some(w_part(
        "styles",
        r#"<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:rPr><w:strike/><w:smallCaps/><w:caps/><w:u w:val="single"/></w:rPr></w:style>"#,
    ));
    let html = render(&f.build());
    let plain = paragraph_with(&html, "Plain words");
    let open = &plain[..plain.find('>').unwrap()];
    assert!(!open.contains("text-decoration"), "{plain}");
    assert!(plain.contains("font-variant:normal;"), "{plain}");
    assert!(plain.contains("text-transform:none;"), "{plain}");
    assert!(plain.contains("text-decoration-line:underline;"), "{plain}");
    let styled = paragraph_with(&html, "Styled words");
    assert!(
        styled.contains("text-decoration-line:underline line-through;"),
        "{styled}"
    );
}

/// A border with `w:shadow` repeats its bottom and right lines outside the box (a hard
/// box shadow as wide as the line); in a group of bordered paragraphs only the last one
/// casts the bottom part, and a border without the flag casts none.
#[test]
fn shadowed_borders_repeat_the_bottom_and_right_lines() {
    let side = |name: &str, shadow: &str| {
        format!(r#"<w:{name} w:val="single" w:sz="24" w:space="1" w:color="1F3864"{shadow}/>"#)
    };
    let bdr = |shadow: &str| {
        format!(
            "<w:pBdr>{}{}{}{}</w:pBdr>",
            side("top", shadow),
            side("left", shadow),
            side("bottom", shadow),
            side("right", shadow)
        )
    };
    let para = |text: &str, b: &str| {
        format!(r#"<w:p><w:pPr>{b}</w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"#)
    };
    let shadowed = bdr(r#" w:shadow="1""#);
    let html = render(
        &DocxFixture::new(&format!(
            "{}{}{}{}",
            para("Upper", &shadowed),
            para("Lower", &shadowed),
            para("Between", ""),
            para("Flat", &bdr("")),
        ))
        .build(),
    );
    let upper = paragraph_with(&html, "Upper");
    assert!(upper.contains("box-shadow:3pt 0 0 0 #1F3864;"), "{upper}");
    let lower = paragraph_with(&html, "Lower");
    assert!(
        lower.contains("box-shadow:3pt 0 0 0 #1F3864,3pt 3pt 0 0 #1F3864;"),
        "{lower}"
    );
    assert!(
        !paragraph_with(&html, "Flat").contains("box-shadow"),
        "{html}"
    );
}

#[test]
fn paragraphs_with_the_same_borders_share_one_box() {
    let borders = r#"<w:pBdr><w:top w:val="single" w:sz="6" w:space="1"/><w:left w:val="single" w:sz="6" w:space="1"/><w:bottom w:val="single" w:sz="6" w:space="30"/><w:right w:val="single" w:sz="6" w:space="1"/><w:between w:val="dotted" w:sz="4" w:space="2"/></w:pBdr>"#;
    let para = |text: &str, bdr: &str| {
        format!(
            r#"<w:p><w:pPr>{bdr}<w:spacing w:before="60" w:after="200"/></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"#
        )
    };
    let other = borders.replace(r#"w:sz="6""#, r#"w:sz="12""#);
    let html = render(
        &DocxFixture::new(&format!(
            "{}{}{}{}",
            para("One", borders),
            para("Two", borders),
            para("Three", borders),
            para("Four", &other),
        ))
        .build(),
    );
    let one = paragraph_with(&html, "One");
    assert!(one.contains("border-top:0.75pt solid"), "{one}");
    assert!(!one.contains("border-bottom"), "{one}");
    // The larger of 10 pt after and 3 pt before, inside the box.
    assert!(one.contains("padding-bottom:10pt;"), "{one}");
    assert!(!one.contains("margin-bottom"), "{one}");
    let two = paragraph_with(&html, "Two");
    assert!(
        two.contains("border-top:0.5pt dotted"),
        "the between line: {two}"
    );
    assert!(two.contains("padding-top:2pt;"), "{two}");
    assert!(!two.contains("margin-top"), "{two}");
    assert!(two.contains("border-left:0.75pt solid"), "{two}");
    let three = paragraph_with(&html, "Three");
    assert!(three.contains("border-bottom:0.75pt solid"), "{three}");
    assert!(three.contains("padding-bottom:30pt;"), "{three}");
    assert!(three.contains("margin-bottom:10pt;"), "{three}");
    let four = paragraph_with(&html, "Four");
    assert!(four.contains("border-top:1.5pt solid"), "{four}");
    assert!(four.contains("margin-top:3pt;"), "{four}");
}

/// Pattern shading is the mix of its pattern colour over its fill, as Word shows it on
/// screen: `pct5` of automatic black over no fill is the light grey F2F2F2; a thin
/// stripe covers a quarter.
#[test]
fn pattern_shading_mixes_its_colour_into_the_fill() {
    let html = render(
        &DocxFixture::new(concat!(
            r#"<w:p><w:pPr><w:shd w:val="pct5" w:color="auto" w:fill="auto"/></w:pPr><w:r><w:t>Grey</w:t></w:r></w:p>"#,
            r#"<w:p><w:pPr><w:shd w:val="pct50" w:color="FF0000" w:fill="FFFFFF"/></w:pPr><w:r><w:t>Pink</w:t></w:r></w:p>"#,
            r#"<w:p><w:pPr><w:shd w:val="thinHorzStripe" w:color="000000" w:fill="FFFF00"/></w:pPr><w:r><w:t>Olive</w:t></w:r></w:p>"#,
            r#"<w:p><w:pPr><w:shd w:val="clear" w:color="000000" w:fill="00FF00"/></w:pPr><w:r><w:t>Green</w:t></w:r></w:p>"#,
        ))
        .build(),
    );
    let fill = |text: &str| {
        let p = paragraph_with(&html, text);
        let at = p.find("background-color:").map(|i| i + 17);
        at.map(|i| p[i..i + 7].to_owned())
    };
    assert_eq!(fill("Grey").as_deref(), Some("#F2F2F2"));
    assert_eq!(fill("Pink").as_deref(), Some("#FF8080"));
    assert_eq!(fill("Olive").as_deref(), Some("#BFBF00"));
    assert_eq!(fill("Green").as_deref(), Some("#00FF00"));
}

/// A document laid out as Word 2010 or older (compatibility mode 14 or lower, or none
/// named) outdents a left-aligned table by its first cell's left margin, so that the
/// cell's text lines up with the body text; mode 15 puts the table's edge at its indent,
/// and a centred table is not moved (LibreOffice 7.4 measured the same on these files).
#[test]
fn tables_of_older_word_versions_line_their_text_up_with_the_margin() {
    let table = |jc: &str, ind: u32, cell_margin: &str| {
        format!(
            r#"<w:tbl><w:tblPr>{jc}<w:tblInd w:w="{ind}" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc><w:tcPr>{cell_margin}</w:tcPr><w:p><w:r><w:t>Cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"#
        )
    };
    let body = [
        table("", 0, ""),
        table("", 720, ""),
        table(
            "",
            0,
            r#"<w:tcMar><w:left w:w="200" w:type="dxa"/></w:tcMar>"#,
        ),
        table(r#"<w:jc w:val="center"/>"#, 0, ""),
    ]
    .concat();
    let tables = |mode: Option<u32>| -> Vec<String> {
        let mut f = DocxFixture::new(&body);
        if let Some(mode) = mode {
            f.with_settings(&format!(r#"<w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="{mode}"/></w:compat>"#));
        }
        let html = render(&f.build());
        html.match_indices("<table")
            .map(|(at, _)| html[at..at + html[at..].find('>').unwrap()].to_owned())
            .collect()
    };
    for mode in [None, Some(14), Some(12)] {
        let got = tables(mode);
        assert!(got[0].contains("margin-left:-5.4pt;"), "{mode:?}: {got:?}");
        assert!(got[1].contains("margin-left:30.6pt;"), "{mode:?}: {got:?}");
        assert!(got[2].contains("margin-left:-10pt;"), "{mode:?}: {got:?}");
        assert!(
            got[3].contains("margin-left:auto;margin-right:auto;"),
            "{got:?}"
        );
        assert!(!got[3].contains("-5.4pt"), "{got:?}");
    }
    let got = tables(Some(15));
    assert!(!got[0].contains("margin-left"), "{got:?}");
    assert!(got[1].contains("margin-left:36pt;"), "{got:?}");
    assert!(!got[2].contains("margin-left"), "{got:?}");
}

/// A standalone page carries the pagination script inline, whole (a script body cannot
/// hold `</script`); a page for a host leaves it to the host. Page number fields are
/// marked for the script to number again.
#[test]
fn standalone_pages_carry_the_pagination_script() {
    use crate::office::docx::PAGES_JS;
    assert!(!PAGES_JS.contains("</script"));
    let doc = parse_docx(
        &DocxFixture::new(&para("Text")).build(),
        &OfficeLimits::default(),
    )
    .unwrap();
    let standalone = render_html(
        &doc,
        &RenderOptions {
            standalone: true,
            ..RenderOptions::default()
        },
    );
    assert!(
        standalone.ends_with(&format!("<script>{PAGES_JS}</script></body></html>\n")),
        "{standalone}"
    );
    let hosted = render_html(&doc, &RenderOptions::default());
    assert!(!hosted.contains("<script"), "{hosted}");
}

/// Text set in Symbol shows what the font draws at its code points (`a` is α, `W` Ω,
/// `·` at 0xB7 a bullet, as `w:sym` does), and the page names Unicode faces for it, never a
/// face called Symbol.
#[test]
fn symbol_font_text_becomes_the_unicode_it_shows() {
    let body = r#"<w:p><w:r><w:t xml:space="preserve">Greek </w:t></w:r><w:r><w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol"/></w:rPr><w:t>a·bW</w:t></w:r></w:p>"#;
    let html = render(&DocxFixture::new(body).build());
    let p = paragraph_with(&html, "Greek");
    assert!(p.contains(">α•βΩ</span>"), "{p}");
    assert!(
        p.contains("font-family:&#39;OpenSymbol&#39;,&#39;DejaVu Sans&#39;,sans-serif"),
        "{p}"
    );
    assert!(!p.contains("&#39;Symbol&#39;"), "{p}");
}

/// Word's default bullet, Symbol's 0xB7, is drawn in Carlito, whose U+2022 is Symbol's
/// size (0.35 em against Symbol's 0.36); the symbol stand-in OpenSymbol draws it at
/// 0.26 em. Other labels in Symbol keep the symbol stand-ins.
#[test]
fn the_symbol_bullet_is_drawn_at_symbols_size() {
    let numbering = w_part(
        "numbering",
        r#"<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="&#xF0B7;"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr><w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol" w:hint="default"/></w:rPr></w:lvl>
           <w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/><w:lvlText w:val="&#xF0A8;"/><w:pPr><w:ind w:left="1440" w:hanging="360"/></w:pPr><w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol" w:hint="default"/></w:rPr></w:lvl></w:abstractNum>
           <w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num>"#,
    );
    let mut f = DocxFixture::new(&format!(
        "{}{}",
        list_para(1, 0, "dot"),
        list_para(1, 1, "diamond")
    ));
    f.numbering = Some(numbering);
    let html = render(&f.build());
    let dot = paragraph_with(&html, "dot");
    assert!(dot.contains(">•</span>"), "{dot}");
    assert!(dot.contains("font-family:&#39;Carlito&#39;"), "{dot}");
    let diamond = paragraph_with(&html, "diamond");
    assert!(
        diamond.contains("font-family:&#39;OpenSymbol&#39;,&#39;DejaVu Sans&#39;"),
        "{diamond}"
    );
}

/// Numbering a paragraph style names sits under the style's own indent (Word draws a
/// List Bullet 2 style at its 54 pt over its level's 81 pt, keeping the level's hanging
/// indent); numbering on the paragraph itself sits over the style. A bullet in a symbol
/// font leaves the line to the text (its stand-in face is taller).
#[test]
fn style_numbering_sits_under_the_styles_indent() {
    let styles = w_part(
        "styles",
        r#"<w:style w:type="paragraph" w:styleId="ListBullet2"><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr><w:ind w:left="1080"/></w:pPr></w:style>"#,
    );
    let numbering = w_part(
        "numbering",
        r#"<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="&#xF0A7;"/><w:pPr><w:ind w:left="1620" w:hanging="360"/></w:pPr><w:rPr><w:rFonts w:ascii="Wingdings" w:hAnsi="Wingdings" w:hint="default"/></w:rPr></w:lvl></w:abstractNum>
           <w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num>"#,
    );
    let body = concat!(
        r#"<w:p><w:pPr><w:pStyle w:val="ListBullet2"/></w:pPr><w:r><w:t>styled</w:t></w:r></w:p>"#,
        r#"<w:p><w:pPr><w:pStyle w:val="ListBullet2"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>direct</w:t></w:r></w:p>"#,
    );
    let mut f = DocxFixture::new(body);
    f.styles = Some(styles);
    f.numbering = Some(numbering);
    let html = render(&f.build());
    let styled = paragraph_with(&html, "styled");
    assert!(
        styled.contains("margin-left:54pt;text-indent:-18pt"),
        "{styled}"
    );
    assert!(styled.contains("line-height:0;"), "{styled}");
    let direct = paragraph_with(&html, "direct");
    assert!(
        direct.contains("margin-left:81pt;text-indent:-18pt"),
        "{direct}"
    );
}
