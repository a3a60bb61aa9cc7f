//! DOCX feature tests on small hand-built packages, one per feature, asserting model
//! values.

use super::support::{list_para, para, png_header, w_part, DocxFixture};
use crate::office::docx::model::{
    inlines_text, Align, Block, BreakKind, CommentMarkKind, Document, ImageSource, Inline,
    LineSpacing, LinkTarget, NoteKind, Paragraph, Table, VerticalAlign, Width,
};
use crate::office::docx::parse_docx;
use crate::office::{OfficeErrorKind, OfficeLimits};

fn parse(fixture: &DocxFixture) -> Document {
    parse_docx(&fixture.build(), &OfficeLimits::default()).expect("fixture parses")
}

fn blocks(doc: &Document) -> Vec<&Block> {
    doc.sections.iter().flat_map(|s| s.blocks.iter()).collect()
}

fn paragraphs(doc: &Document) -> Vec<&Paragraph> {
    blocks(doc)
        .into_iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) => Some(p),
            _ => None,
        })
        .collect()
}

fn tables(doc: &Document) -> Vec<&Table> {
    blocks(doc)
        .into_iter()
        .filter_map(|b| match b {
            Block::Table(t) => Some(t),
            _ => None,
        })
        .collect()
}

fn text_of(inlines: &[Inline]) -> String {
    let mut s = String::new();
    inlines_text(inlines, &mut s);
    s
}

fn list_labels(doc: &Document) -> Vec<String> {
    paragraphs(doc)
        .iter()
        .map(|p| p.list.as_ref().map_or(String::new(), |l| l.text.clone()))
        .collect()
}

const STYLES: &str = r#"
<w:docDefaults>
  <w:rPrDefault><w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:sz w:val="20"/></w:rPr></w:rPrDefault>
  <w:pPrDefault><w:pPr><w:spacing w:after="100" w:line="276" w:lineRule="auto"/></w:pPr></w:pPrDefault>
</w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Base"><w:name w:val="Base"/><w:basedOn w:val="Normal"/>
  <w:pPr><w:jc w:val="center"/><w:ind w:left="720"/></w:pPr><w:rPr><w:b/><w:color w:val="FF0000"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Child"><w:name w:val="Child"/><w:basedOn w:val="Base"/>
  <w:pPr><w:spacing w:before="240" w:after="480"/></w:pPr><w:rPr><w:i/><w:sz w:val="28"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/>
  <w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:sz w:val="32"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Kop3"><w:name w:val="heading 3"/></w:style>
<w:style w:type="paragraph" w:styleId="LoopA"><w:name w:val="LoopA"/><w:basedOn w:val="LoopB"/><w:rPr><w:u w:val="double"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="LoopB"><w:name w:val="LoopB"/><w:basedOn w:val="LoopA"/><w:rPr><w:strike/></w:rPr></w:style>
<w:style w:type="character" w:styleId="Emph"><w:name w:val="Emph"/><w:rPr><w:highlight w:val="yellow"/><w:vertAlign w:val="superscript"/></w:rPr></w:style>
"#;

#[test]
fn style_inheritance_defaults_chain_then_direct() {
    let mut f = DocxFixture::new(concat!(
        r#"<w:p><w:pPr><w:pStyle w:val="Child"/></w:pPr>"#,
        r#"<w:r><w:t>styled</w:t></w:r>"#,
        r#"<w:r><w:rPr><w:color w:val="00FF00"/><w:b w:val="0"/></w:rPr><w:t>direct</w:t></w:r>"#,
        r#"<w:r><w:rPr><w:rStyle w:val="Emph"/></w:rPr><w:t>char</w:t></w:r></w:p>"#,
        r#"<w:p><w:r><w:t>plain</w:t></w:r></w:p>"#,
    ));
    f.styles = Some(w_part("styles", STYLES));
    let doc = parse(&f);
    let ps = paragraphs(&doc);

    let child = ps[0];
    assert_eq!(child.style_id.as_deref(), Some("Child"));
    assert_eq!(child.format.align, Align::Center, "from Base");
    assert_eq!(child.format.indent_left, 36.0, "from Base");
    assert_eq!(child.format.space_before, 12.0, "from Child");
    assert_eq!(
        child.format.space_after, 24.0,
        "Child overrides docDefaults"
    );
    assert_eq!(
        child.format.line_spacing,
        Some(LineSpacing::Multiple(1.15)),
        "from docDefaults"
    );
    let Inline::Text { text, format } = &child.inlines[0] else {
        panic!("text")
    };
    assert_eq!(text, "styled");
    assert!(format.bold && format.italic);
    assert_eq!(format.color.as_deref(), Some("#FF0000"));
    assert_eq!(format.size, Some(14.0));
    assert_eq!(format.font.as_deref(), Some("Arial"));
    let Inline::Text { format, .. } = &child.inlines[1] else {
        panic!("text")
    };
    assert_eq!(format.color.as_deref(), Some("#00FF00"), "direct wins");
    assert!(!format.bold, "direct b=0 wins over the style");
    assert!(format.italic);
    let Inline::Text { format, .. } = &child.inlines[2] else {
        panic!("text")
    };
    assert_eq!(format.highlight.as_deref(), Some("#FFFF00"));
    assert_eq!(format.vertical_align, Some(VerticalAlign::Superscript));
    assert!(
        format.bold,
        "character style layers over the paragraph style"
    );

    let plain = ps[1];
    assert_eq!(plain.style_id.as_deref(), Some("Normal"), "default style");
    let Inline::Text { format, .. } = &plain.inlines[0] else {
        panic!("text")
    };
    assert_eq!(format.size, Some(10.0));
    assert!(!format.bold);
}

#[test]
fn cyclic_based_on_chain_terminates() {
    let mut f = DocxFixture::new(
        r#"<w:p><w:pPr><w:pStyle w:val="LoopA"/></w:pPr><w:r><w:t>loop</w:t></w:r></w:p>"#,
    );
    f.styles = Some(w_part("styles", STYLES));
    let doc = parse(&f);
    let Inline::Text { format, .. } = &paragraphs(&doc)[0].inlines[0] else {
        panic!("text")
    };
    assert_eq!(format.underline.as_deref(), Some("double"));
    assert!(format.strike);
}

#[test]
fn headings_from_outline_level_and_style_name() {
    let mut f = DocxFixture::new(concat!(
        r#"<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Title</w:t></w:r></w:p>"#,
        r#"<w:p><w:pPr><w:pStyle w:val="Kop3"/></w:pPr><w:r><w:t>Sub</w:t></w:r></w:p>"#,
        r#"<w:p><w:pPr><w:outlineLvl w:val="1"/></w:pPr><w:r><w:t>Direct</w:t></w:r></w:p>"#,
        r#"<w:p><w:r><w:t>Body</w:t></w:r></w:p>"#,
    ));
    f.styles = Some(w_part("styles", STYLES));
    let doc = parse(&f);
    let levels: Vec<Option<u8>> = paragraphs(&doc).iter().map(|p| p.heading_level).collect();
    assert_eq!(levels, [Some(1), Some(3), Some(2), None]);
}

const NUMBERING: &str = r#"
<w:abstractNum w:abstractNumId="10">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2."/><w:pPr><w:ind w:left="1440" w:hanging="360"/></w:pPr></w:lvl>
  <w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="lowerRoman"/><w:lvlText w:val="%3."/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="20">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2."/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="30">
  <w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="&#xF0B7;"/><w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol"/></w:rPr></w:lvl>
  <w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/><w:lvlText w:val="o"/><w:rPr><w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/></w:rPr></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="40">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="%1)"/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlRestart w:val="0"/><w:lvlText w:val="(%2)"/></w:lvl>
</w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="10"/></w:num>
<w:num w:numId="2"><w:abstractNumId w:val="10"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="5"/></w:lvlOverride></w:num>
<w:num w:numId="3"><w:abstractNumId w:val="10"/></w:num>
<w:num w:numId="4"><w:abstractNumId w:val="20"/></w:num>
<w:num w:numId="5"><w:abstractNumId w:val="30"/></w:num>
<w:num w:numId="6"><w:abstractNumId w:val="40"/></w:num>
"#;

fn numbered(paras: &[(u32, u8)]) -> Document {
    let body: String = paras
        .iter()
        .enumerate()
        .map(|(i, (num, lvl))| list_para(*num, *lvl, &format!("item {i}")))
        .collect();
    let mut f = DocxFixture::new(&body);
    f.numbering = Some(w_part("numbering", NUMBERING));
    parse(&f)
}

#[test]
fn numbering_levels_formats_and_nesting() {
    let doc = numbered(&[
        (1, 0),
        (1, 1),
        (1, 1),
        (1, 2),
        (1, 2),
        (1, 2),
        (1, 0),
        (1, 1),
    ]);
    assert_eq!(
        list_labels(&doc),
        ["1.", "a.", "b.", "i.", "ii.", "iii.", "2.", "a."]
    );
    let p = paragraphs(&doc)[1];
    let list = p.list.as_ref().unwrap();
    assert_eq!((list.level, list.format.as_str()), (1, "lowerLetter"));
    assert_eq!(p.format.indent_left, 72.0, "indent from the level");
    assert_eq!(p.format.indent_first_line, -18.0, "hanging from the level");
}

#[test]
fn numbering_restart_by_override_and_continuation_across_instances() {
    let doc = numbered(&[(1, 0), (1, 0), (2, 0), (2, 0), (3, 0), (1, 0)]);
    // numId 2 overrides the start: its own list from 5. numId 3 shares the abstract
    // definition without overrides: it continues numId 1.
    assert_eq!(list_labels(&doc), ["1.", "2.", "5.", "6.", "3.", "4."]);
}

#[test]
fn numbering_multi_level_templates_bullets_and_no_restart() {
    let doc = numbered(&[(4, 0), (4, 1), (4, 1), (4, 0), (4, 1)]);
    assert_eq!(list_labels(&doc), ["1.", "1.1.", "1.2.", "2.", "2.1."]);

    let doc = numbered(&[(5, 0), (5, 1)]);
    assert_eq!(list_labels(&doc), ["•", "◦"]);
    assert!(paragraphs(&doc)[0].list.as_ref().unwrap().bullet);

    // lvlRestart 0: level 2 keeps counting across level-1 items.
    let doc = numbered(&[(6, 0), (6, 1), (6, 0), (6, 1)]);
    assert_eq!(list_labels(&doc), ["I)", "(1)", "II)", "(2)"]);
}

#[test]
fn numbering_zero_id_and_unknown_ids_are_unnumbered() {
    let doc = numbered(&[(0, 0), (99, 0), (1, 7)]);
    assert_eq!(list_labels(&doc), ["", "", ""]);
}

#[test]
fn tables_spans_merges_widths_borders_shading_nesting() {
    let cell = |props: &str, text: &str| {
        format!("<w:tc><w:tcPr>{props}</w:tcPr><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:tc>")
    };
    let nested = format!(
        "<w:tbl><w:tblGrid><w:gridCol w:w=\"1000\"/></w:tblGrid><w:tr>{}</w:tr></w:tbl>",
        cell("", "inner")
    );
    let body = format!(
        concat!(
            r#"<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/><w:jc w:val="center"/>"#,
            r#"<w:tblBorders><w:top w:val="single" w:sz="8" w:color="FF0000"/><w:insideV w:val="dashed" w:sz="4"/></w:tblBorders></w:tblPr>"#,
            r#"<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="3000"/><w:gridCol w:w="4000"/></w:tblGrid>"#,
            "<w:tr>{}{}</w:tr>",
            "<w:tr>{}{}{}</w:tr>",
            "<w:tr>{}<w:tc><w:tcPr><w:gridSpan w:val=\"2\"/></w:tcPr>{}<w:p/></w:tc></w:tr>",
            "</w:tbl>"
        ),
        cell(
            r#"<w:gridSpan w:val="2"/><w:tcW w:w="5000" w:type="dxa"/>"#,
            "wide"
        ),
        cell(
            r#"<w:vMerge w:val="restart"/><w:shd w:val="clear" w:fill="00FF00"/>"#,
            "tall"
        ),
        cell("", "a"),
        cell("", "b"),
        cell("<w:vMerge/>", ""),
        cell("", "c"),
        nested,
    );
    let doc = parse(&DocxFixture::new(&body));
    let t = tables(&doc)[0];
    assert_eq!(t.columns, [100.0, 150.0, 200.0]);
    assert_eq!(t.width, Some(Width::Percent(100.0)));
    assert_eq!(t.align, Align::Center);
    let top = t.borders.top.as_ref().unwrap();
    assert_eq!((top.style, top.width), ("single", 1.0));
    assert_eq!(top.color.as_deref(), Some("#FF0000"));
    assert_eq!(t.borders.inside_v.as_ref().unwrap().style, "dashed");

    let spans: Vec<Vec<(u32, u32, bool)>> = t
        .rows
        .iter()
        .map(|r| {
            r.cells
                .iter()
                .map(|c| (c.col_span, c.row_span, c.merged_continuation))
                .collect()
        })
        .collect();
    assert_eq!(
        spans,
        [
            vec![(2, 1, false), (1, 2, false)],
            vec![(1, 1, false), (1, 1, false), (1, 0, true)],
            vec![(1, 1, false), (2, 1, false)],
        ]
    );
    let tall = &t.rows[0].cells[1];
    assert_eq!(tall.shading.as_deref(), Some("#00FF00"));
    assert_eq!(t.rows[0].cells[0].width, Some(Width::Points(250.0)));

    let Block::Table(inner) = &t.rows[2].cells[1].blocks[0] else {
        panic!("nested table")
    };
    let Block::Paragraph(p) = &inner.rows[0].cells[0].blocks[0] else {
        panic!("paragraph")
    };
    assert_eq!(text_of(&p.inlines), "inner");
}

const FOOTNOTES: &str = r#"
<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>
<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>
<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> First note.</w:t></w:r></w:p></w:footnote>
<w:footnote w:id="2"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> Second note.</w:t></w:r></w:p></w:footnote>
"#;

#[test]
fn footnotes_numbered_in_reference_order() {
    let mut f = DocxFixture::new(concat!(
        r#"<w:p><w:r><w:t>One</w:t></w:r><w:r><w:footnoteReference w:id="2"/></w:r>"#,
        r#"<w:r><w:t>Two</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p>"#,
    ));
    f.footnotes = Some(w_part("footnotes", FOOTNOTES));
    let doc = parse(&f);
    let refs: Vec<(String, String)> = paragraphs(&doc)[0]
        .inlines
        .iter()
        .filter_map(|i| match i {
            Inline::NoteReference {
                kind: NoteKind::Footnote,
                id,
                label,
                ..
            } => Some((id.clone(), label.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(refs, [("2".into(), "1".into()), ("1".into(), "2".into())]);
    let notes: Vec<(&str, &str)> = doc
        .footnotes
        .iter()
        .map(|n| (n.id.as_str(), n.label.as_str()))
        .collect();
    assert_eq!(notes, [("2", "1"), ("1", "2")]);
    let Block::Paragraph(p) = &doc.footnotes[0].blocks[0] else {
        panic!("paragraph")
    };
    assert!(matches!(p.inlines[0], Inline::NoteMark { .. }));
    assert_eq!(text_of(&p.inlines), " Second note.");
}

#[test]
fn tracked_insertions_and_deletions_are_marked() {
    let doc = parse(&DocxFixture::new(concat!(
        r#"<w:p><w:r><w:t xml:space="preserve">Keep </w:t></w:r>"#,
        r#"<w:ins w:id="1" w:author="Ann" w:date="2024-01-02T03:04:05Z"><w:r><w:t>new</w:t></w:r></w:ins>"#,
        r#"<w:del w:id="2" w:author="Bob"><w:r><w:delText>old</w:delText></w:r></w:del></w:p>"#,
    )));
    let inlines = &paragraphs(&doc)[0].inlines;
    let Inline::Inserted { revision, children } = &inlines[1] else {
        panic!("insertion: {inlines:?}")
    };
    assert_eq!(revision.author.as_deref(), Some("Ann"));
    assert_eq!(revision.date.as_deref(), Some("2024-01-02T03:04:05Z"));
    assert_eq!(text_of(children), "new");
    let Inline::Deleted { revision, children } = &inlines[2] else {
        panic!("deletion")
    };
    assert_eq!(revision.author.as_deref(), Some("Bob"));
    assert_eq!(text_of(children), "old");
}

#[test]
fn hyperlinks_external_internal_and_field() {
    let mut f = DocxFixture::new(concat!(
        r#"<w:p><w:hyperlink r:id="rIdL" w:anchor="part2"><w:r><w:t>ext</w:t></w:r></w:hyperlink>"#,
        r#"<w:hyperlink w:anchor="_Toc1"><w:r><w:t>int</w:t></w:r></w:hyperlink>"#,
        r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK "mailto:a@b.c" </w:instrText></w:r>"#,
        r#"<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>mail</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>"#,
    ));
    f.rels.push((
        "rIdL".into(),
        "hyperlink".into(),
        "https://example.com/doc".into(),
        true,
    ));
    let doc = parse(&f);
    let links: Vec<(LinkTarget, String)> = paragraphs(&doc)[0]
        .inlines
        .iter()
        .filter_map(|i| match i {
            Inline::Hyperlink {
                target, children, ..
            } => Some((target.clone(), text_of(children))),
            _ => None,
        })
        .collect();
    assert_eq!(
        links,
        [
            (
                LinkTarget::External {
                    url: "https://example.com/doc#part2".into()
                },
                "ext".into()
            ),
            (
                LinkTarget::Internal {
                    anchor: "_Toc1".into()
                },
                "int".into()
            ),
            (
                LinkTarget::External {
                    url: "mailto:a@b.c".into()
                },
                "mail".into()
            ),
        ]
    );
}

#[test]
fn fields_show_their_result_and_keep_the_instruction() {
    let doc = parse(&DocxFixture::new(concat!(
        r#"<w:p><w:fldSimple w:instr=" PAGE "><w:r><w:t>7</w:t></w:r></w:fldSimple>"#,
        r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>NUMPAGES</w:instrText></w:r>"#,
        r#"<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>42</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>"#,
        r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve">IF </w:instrText></w:r>"#,
        r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>MERGEFIELD x</w:instrText></w:r>"#,
        r#"<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>"#,
        r#"<w:r><w:instrText xml:space="preserve"> = 1 "yes" "no"</w:instrText></w:r>"#,
        r#"<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>yes</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>"#,
    )));
    let fields: Vec<(String, String)> = paragraphs(&doc)[0]
        .inlines
        .iter()
        .filter_map(|i| match i {
            Inline::Field {
                instruction,
                children,
            } => Some((instruction.clone(), text_of(children))),
            _ => None,
        })
        .collect();
    assert_eq!(
        fields,
        [
            ("PAGE".into(), "7".into()),
            ("NUMPAGES".into(), "42".into()),
            (r#"IF 1 = 1 "yes" "no""#.into(), "yes".into()),
        ]
    );
}

#[test]
fn images_inline_anchored_and_external() {
    let drawing = |frame: &str, id_attr: &str| {
        format!(
            concat!(
                r#"<w:p><w:r><w:drawing>{frame_open}<wp:extent cx="1270000" cy="635000"/>"#,
                r#"<wp:docPr id="1" name="Picture 1" descr="A chart"/>"#,
                r#"<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">"#,
                r#"<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:blipFill><a:blip {id_attr}/></pic:blipFill></pic:pic>"#,
                r#"</a:graphicData></a:graphic>{frame_close}</w:drawing></w:r></w:p>"#
            ),
            frame_open = frame,
            frame_close = if frame.starts_with("<wp:inline") {
                "</wp:inline>"
            } else {
                "</wp:anchor>"
            },
            id_attr = id_attr,
        )
    };
    let wp = r#"xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing""#;
    let body = format!(
        "{}{}{}",
        drawing(&format!("<wp:inline {wp}>"), r#"r:embed="rIdImg""#),
        drawing(
            &format!(
                r#"<wp:anchor {wp} behindDoc="1"><wp:positionH relativeFrom="page"><wp:posOffset>254000</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:align>top</wp:align></wp:positionV><wp:wrapSquare/>"#
            ),
            r#"r:embed="rIdImg""#
        ),
        drawing(&format!("<wp:inline {wp}>"), r#"r:link="rIdExt""#),
    );
    let mut f = DocxFixture::new(&body);
    f.rels.push((
        "rIdImg".into(),
        "image".into(),
        "media/image1.png".into(),
        false,
    ));
    f.rels.push((
        "rIdExt".into(),
        "image".into(),
        "file:///C:/pictures/secret.png".into(),
        true,
    ));
    f.parts
        .push(("word/media/image1.png".into(), png_header(10, 20)));
    let doc = parse(&f);
    let images: Vec<_> = paragraphs(&doc)
        .iter()
        .flat_map(|p| p.inlines.iter())
        .filter_map(|i| match i {
            Inline::Image(img) => Some(img.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(images.len(), 3);
    assert_eq!(
        images[0].source,
        ImageSource::Part {
            part: "word/media/image1.png".into()
        }
    );
    assert_eq!((images[0].width, images[0].height), (100.0, 50.0));
    assert_eq!(images[0].alt.as_deref(), Some("A chart"));
    assert!(images[0].anchor.is_none());
    let anchor = images[1].anchor.as_ref().unwrap();
    assert_eq!(anchor.offset_h, Some(20.0));
    assert_eq!(anchor.relative_h.as_deref(), Some("page"));
    assert_eq!(anchor.align_v.as_deref(), Some("top"));
    assert_eq!(anchor.wrap, "square");
    assert!(anchor.behind_text);
    assert_eq!(
        images[2].source,
        ImageSource::External {
            url: "file:///C:/pictures/secret.png".into()
        }
    );
    assert_eq!(doc.media.len(), 1, "one part, sniffed once");
    assert_eq!(doc.media[0].pixels, Some((10, 20)));
    assert!(doc.media[0].displayable);
}

#[test]
fn image_over_the_pixel_cap_refuses_the_document() {
    let mut f = DocxFixture::new(concat!(
        r#"<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="width:10pt;height:10pt">"#,
        r#"<v:imagedata r:id="rIdBig"/></v:shape></w:pict></w:r></w:p>"#,
    ));
    f.rels.push((
        "rIdBig".into(),
        "image".into(),
        "media/big.png".into(),
        false,
    ));
    f.parts
        .push(("word/media/big.png".into(), png_header(20_000, 20_000)));
    let err = parse_docx(&f.build(), &OfficeLimits::default()).unwrap_err();
    assert_eq!(err.kind(), OfficeErrorKind::ImageTooLarge);
    assert_eq!(err.code(), "corrupt");
}

#[test]
fn text_boxes_from_drawingml_choice_or_vml_fallback() {
    let choice = concat!(
        r#"<w:p><w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" "#,
        r#"xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml">"#,
        r#"<mc:Choice Requires="REQ"><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing">"#,
        r#"<wp:extent cx="2540000" cy="1270000"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData>"#,
        r#"<wps:wsp><wps:txbx><w:txbxContent><w:p><w:r><w:t>from choice</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp>"#,
        r#"</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>"#,
        r#"<mc:Fallback><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="width:72pt;height:36pt"><v:textbox>"#,
        r#"<w:txbxContent><w:p><w:r><w:t>from fallback</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>"#,
        r#"</mc:AlternateContent></w:r></w:p>"#
    );
    for (requires, text, size) in [
        ("wps", "from choice", (200.0, 100.0)),
        ("w14", "from fallback", (72.0, 36.0)),
    ] {
        let doc = parse(&DocxFixture::new(&choice.replace("REQ", requires)));
        let Inline::TextBox(b) = &paragraphs(&doc)[0].inlines[0] else {
            panic!("text box")
        };
        assert_eq!((b.width, b.height), (Some(size.0), Some(size.1)));
        assert_eq!(doc.body_text(), format!("{text}\n\n"));
    }
}

#[test]
fn sections_split_at_paragraph_section_properties() {
    let mut f = DocxFixture::new(&format!(
        concat!(
            "{}",
            r#"<w:p><w:pPr><w:sectPr><w:headerReference w:type="default" r:id="rIdH"/><w:pgSz w:w="12240" w:h="15840"/>"#,
            r#"<w:pgMar w:top="1440" w:right="1800" w:bottom="1440" w:left="1800" w:header="720" w:footer="720"/><w:titlePg/></w:sectPr></w:pPr>"#,
            r#"<w:r><w:t>end of one</w:t></w:r></w:p>{}"#,
            r#"<w:sectPr><w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/><w:type w:val="continuous"/></w:sectPr>"#
        ),
        para("first"),
        para("second")
    ));
    f.rels
        .push(("rIdH".into(), "header".into(), "header1.xml".into(), false));
    f.parts.push((
        "word/header1.xml".into(),
        w_part("hdr", &para("Running head")).into_bytes(),
    ));
    let doc = parse(&f);
    assert_eq!(doc.sections.len(), 2);
    let one = &doc.sections[0];
    assert_eq!(one.blocks.len(), 2);
    assert_eq!((one.page.width, one.page.height), (612.0, 792.0));
    assert_eq!(one.page.margin_left, 90.0);
    assert!(one.title_page);
    assert_eq!(one.headers.default.as_deref(), Some("word/header1.xml"));
    let two = &doc.sections[1];
    assert_eq!(two.blocks.len(), 1);
    assert!(two.page.landscape);
    assert_eq!(two.page.width, 841.9);
    assert_eq!(
        two.start,
        crate::office::docx::model::SectionStart::Continuous
    );
    assert_eq!(doc.headers_footers.len(), 1);
    assert!(!doc.headers_footers[0].is_footer);
    let mut text = String::new();
    crate::office::docx::model::blocks_text(&doc.headers_footers[0].blocks, &mut text);
    assert_eq!(text, "Running head\n");
}

#[test]
fn comments_are_read_with_their_marks() {
    let mut f = DocxFixture::new(concat!(
        r#"<w:p><w:commentRangeStart w:id="0"/><w:r><w:t>commented</w:t></w:r><w:commentRangeEnd w:id="0"/>"#,
        r#"<w:r><w:commentReference w:id="0"/></w:r></w:p>"#,
    ));
    f.comments = Some(w_part(
        "comments",
        &format!(
            r#"<w:comment w:id="0" w:author="Reviewer" w:initials="RV" w:date="2024-05-06T00:00:00Z">{}</w:comment>"#,
            para("Please check.")
        ),
    ));
    let doc = parse(&f);
    let marks: Vec<CommentMarkKind> = paragraphs(&doc)[0]
        .inlines
        .iter()
        .filter_map(|i| match i {
            Inline::CommentMark { id, mark } if id == "0" => Some(*mark),
            _ => None,
        })
        .collect();
    assert_eq!(
        marks,
        [
            CommentMarkKind::Start,
            CommentMarkKind::End,
            CommentMarkKind::Reference
        ]
    );
    let c = &doc.comments[0];
    assert_eq!(
        (c.author.as_str(), c.initials.as_deref()),
        ("Reviewer", Some("RV"))
    );
    let mut text = String::new();
    crate::office::docx::model::blocks_text(&c.blocks, &mut text);
    assert_eq!(text, "Please check.\n");
}

#[test]
fn runs_tabs_breaks_symbols_and_wrappers() {
    let doc = parse(&DocxFixture::new(concat!(
        r#"<w:p><w:r><w:t>a</w:t><w:tab/><w:t>b</w:t><w:br/><w:t>c</w:t><w:br w:type="page"/>"#,
        r#"<w:sym w:font="Wingdings" w:char="F0FC"/><w:noBreakHyphen/></w:r>"#,
        r#"<w:smartTag w:uri="x" w:element="y"><w:r><w:t>tagged</w:t></w:r></w:smartTag>"#,
        r#"<w:sdt><w:sdtContent><w:r><w:t>control</w:t></w:r></w:sdtContent></w:sdt>"#,
        r#"<w:customXml w:element="z"><w:r><w:rPr><w:caps/><w:u/><w:strike/></w:rPr><w:t>custom</w:t></w:r></w:customXml></w:p>"#,
        r#"<w:sdt><w:sdtContent><w:p><w:r><w:t>block control</w:t></w:r></w:p></w:sdtContent></w:sdt>"#,
        r#"<w:altChunk r:id="rIdHtml"/>"#,
    )));
    let ps = paragraphs(&doc);
    let kinds: Vec<&str> = ps[0]
        .inlines
        .iter()
        .map(|i| match i {
            Inline::Text { .. } => "text",
            Inline::Tab => "tab",
            Inline::Break {
                kind: BreakKind::Line,
            } => "line",
            Inline::Break {
                kind: BreakKind::Page,
            } => "page",
            Inline::Symbol { .. } => "symbol",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        ["text", "tab", "text", "line", "text", "page", "symbol", "text", "text"]
    );
    assert_eq!(
        text_of(&ps[0].inlines),
        "a\tb\nc\n✓\u{2011}taggedcontrolcustom"
    );
    let Some(Inline::Text { format, .. }) = ps[0].inlines.last() else {
        panic!("text")
    };
    assert!(format.caps && format.strike);
    assert_eq!(format.underline.as_deref(), Some("single"));
    assert_eq!(text_of(&ps[1].inlines), "block control");
    assert!(matches!(
        blocks(&doc).last(),
        Some(Block::Placeholder(p)) if p.kind == "altChunk"
    ));
    assert_eq!(doc.warnings.len(), 1);
}

#[test]
fn core_properties_and_macros_flag() {
    let mut f = DocxFixture::new(&para("x"));
    f.core = Some(
        r#"<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Quarterly</dc:title><dc:creator>Ann</dc:creator></cp:coreProperties>"#
            .into(),
    );
    let doc = parse(&f);
    assert_eq!(doc.properties.title.as_deref(), Some("Quarterly"));
    assert_eq!(doc.properties.creator.as_deref(), Some("Ann"));
    assert!(!doc.has_macros);
}

#[test]
fn corpus_numbering_and_notes_have_expected_values() {
    let corpus = super::support::DOCX_CORPUS;
    let read = |name: &str| {
        parse_docx(
            &std::fs::read(format!("{corpus}/{name}")).unwrap(),
            &OfficeLimits::default(),
        )
        .unwrap()
    };
    let doc = read("mammoth-footnotes.docx");
    assert_eq!(doc.footnotes.len(), 2);
    assert_eq!(doc.footnotes[0].label, "1");
    let doc = read("mammoth-endnotes.docx");
    assert!(!doc.endnotes.is_empty());
    let doc = read("mammoth-strict-format.docx");
    assert!(!doc.body_text().trim().is_empty());
    let doc = read("mammoth-tables.docx");
    assert!(!tables(&doc).is_empty());
}

const STACK: usize = 1024 * 1024;

/// Runs `f` on a thread with a small stack, as a blocking-pool worker might have.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(f)
        .unwrap()
        .join()
        .expect("no stack overflow")
}

#[test]
fn deepest_accepted_nesting_does_not_overflow_the_stack() {
    // Tables nested as deep as the XML depth limit allows (3 levels per table).
    let mut body = para("deep");
    for _ in 0..82 {
        body = format!("<w:tbl><w:tr><w:tc>{body}</w:tc></w:tr></w:tbl>");
    }
    let tables = DocxFixture::new(&body).build();
    // Inline wrappers nested to the limit.
    let mut run = "<w:r><w:t>inner</w:t></w:r>".to_owned();
    for i in 0..250 {
        let wrapper = if i % 2 == 0 { "w:ins" } else { "w:smartTag" };
        run = format!("<{wrapper}>{run}</{wrapper}>");
    }
    let inlines = DocxFixture::new(&format!("<w:p>{run}</w:p>")).build();
    on_small_stack(move || {
        for bytes in [tables, inlines] {
            let doc = parse_docx(&bytes, &OfficeLimits::default()).unwrap();
            let html = crate::office::docx::render_html(&doc, &Default::default());
            let text = doc.body_text();
            assert!(text.contains("deep") || text.contains("inner"), "text kept");
            assert!(html.len() > 100);
            drop(doc);
        }
    });
}

#[test]
fn mutated_documents_never_panic() {
    let mut f = DocxFixture::new(&format!(
        "{}{}{}",
        list_para(1, 0, "one"),
        r#"<w:tbl><w:tr><w:tc><w:tcPr><w:gridSpan w:val="2"/><w:vMerge w:val="restart"/></w:tcPr><w:p><w:r><w:t>cell</w:t></w:r></w:p></w:tc></w:tr><w:tr><w:tc><w:tcPr><w:vMerge/></w:tcPr><w:p/></w:tc></w:tr></w:tbl>"#,
        r#"<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>PAGE</w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p>"#
    ));
    f.numbering = Some(w_part("numbering", NUMBERING));
    f.styles = Some(w_part("styles", STYLES));
    f.footnotes = Some(w_part("footnotes", FOOTNOTES));
    // Stored entries, so byte flips land in the XML rather than in deflate streams.
    let mut zip = super::support::ZipBuilder::new();
    let original = f.build();
    let package = crate::office::OfficePackage::open(&original, &OfficeLimits::default()).unwrap();
    for name in package.part_names().map(str::to_owned).collect::<Vec<_>>() {
        zip = zip.stored(&name, package.read_part(&name).unwrap());
    }
    let base = zip.finish();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..1500 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut bytes = base.clone();
        let at = (seed as usize) % bytes.len();
        let replacement =
            [b'<', b'>', b'/', b'"', b'0', b'9', b'&', 0xFF][(seed >> 40) as usize % 8];
        bytes[at] = replacement;
        // Damaged CRCs are refused; the point is that nothing panics on the way.
        if let Ok(doc) = parse_docx(&bytes, &OfficeLimits::default()) {
            let _ = crate::office::docx::render_html(&doc, &Default::default());
        }
    }
}

#[test]
fn table_style_regions_header_row_and_bands() {
    let styles = w_part(
        "styles",
        r#"<w:style w:type="table" w:styleId="Grid"><w:name w:val="Grid"/>
             <w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4"/></w:tblBorders></w:tblPr>
             <w:tblStylePr w:type="firstRow"><w:rPr><w:b/><w:color w:val="FFFFFF"/></w:rPr><w:tcPr><w:shd w:val="clear" w:fill="4F81BD"/></w:tcPr></w:tblStylePr>
             <w:tblStylePr w:type="band1Horz"><w:tcPr><w:shd w:val="clear" w:fill="DBE5F1"/></w:tcPr></w:tblStylePr>
             <w:tblStylePr w:type="firstCol"><w:rPr><w:i/></w:rPr></w:tblStylePr>
           </w:style>"#,
    );
    let table = |look: &str| {
        let row = |a: &str, b: &str| {
            format!(
                "<w:tr><w:tc>{}</w:tc><w:tc>{}</w:tc></w:tr>",
                para(a),
                para(b)
            )
        };
        format!(
            r#"<w:tbl><w:tblPr><w:tblStyle w:val="Grid"/>{look}</w:tblPr><w:tblGrid><w:gridCol w:w="100"/><w:gridCol w:w="100"/></w:tblGrid>{}{}{}</w:tbl>"#,
            row("h1", "h2"),
            row("a1", "a2"),
            row("b1", "b2")
        )
    };
    let mut f = DocxFixture::new(&format!(
        "{}{}",
        table(r#"<w:tblLook w:val="04A0" w:firstRow="1" w:firstColumn="1" w:noHBand="0"/>"#),
        table(r#"<w:tblLook w:val="0620"/>"#)
    ));
    f.styles = Some(styles);
    let doc = parse(&f);
    let ts = tables(&doc);
    let shading = |t: &Table| -> Vec<Option<String>> {
        t.rows
            .iter()
            .map(|r| r.cells[1].shading.map(|c| c.to_string()))
            .collect()
    };
    let run = |t: &Table, r: usize, c: usize| {
        let Block::Paragraph(p) = &t.rows[r].cells[c].blocks[0] else {
            panic!("paragraph")
        };
        let Inline::Text { format, .. } = &p.inlines[0] else {
            panic!("text")
        };
        (
            format.bold,
            format.italic,
            format.color.map(|c| c.to_string()),
        )
    };
    assert_eq!(
        shading(ts[0]),
        [Some("#4F81BD".into()), Some("#DBE5F1".into()), None]
    );
    assert_eq!(run(ts[0], 0, 1), (true, false, Some("#FFFFFF".into())));
    assert_eq!(run(ts[0], 1, 0), (false, true, None), "first column");
    assert_eq!(run(ts[0], 1, 1), (false, false, None));
    // 0x0620: header row on, first column off, no row bands.
    assert_eq!(shading(ts[1]), [Some("#4F81BD".into()), None, None]);
    assert_eq!(run(ts[1], 1, 0), (false, false, None));
    assert_eq!(ts[0].borders.top.as_ref().unwrap().width, 0.5);
}

/// `w:eastAsia` names the face of Chinese, Japanese and Korean text only: a run that sets
/// just it keeps its inherited Latin face for Latin text (`lotest-parapr`'s
/// "(Confucius)" had been drawn in SimSun's stand-in, a size too large), and a run that
/// sets just `w:cs` keeps it too.
#[test]
fn east_asian_faces_apply_to_east_asian_text_only() {
    let mut f = DocxFixture::new(concat!(
        r#"<w:p>"#,
        r#"<w:r><w:rPr><w:rFonts w:eastAsia="SimSun"/></w:rPr><w:t>(Confucius)</w:t></w:r>"#,
        r#"<w:r><w:rPr><w:rFonts w:eastAsia="SimSun"/></w:rPr><w:t>孔子</w:t></w:r>"#,
        r#"<w:r><w:rPr><w:rFonts w:eastAsia="MS Mincho"/></w:rPr><w:t>ひらがな</w:t></w:r>"#,
        r#"<w:r><w:rPr><w:rFonts w:cs="Arial"/></w:rPr><w:t>Plain</w:t></w:r>"#,
        r#"<w:r><w:rPr><w:rFonts w:ascii="Arial" w:eastAsia="SimSun"/></w:rPr><w:t>Named</w:t></w:r>"#,
        r#"</w:p>"#,
    ));
    f.styles = Some(w_part(
        "styles",
        r#"<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman"/></w:rPr></w:style>"#,
    ));
    let doc = parse(&f);
    let fonts: Vec<(String, String)> = paragraphs(&doc)[0]
        .inlines
        .iter()
        .filter_map(|i| match i {
            Inline::Text { text, format } => Some((
                text.clone(),
                format.font.as_deref().unwrap_or("").to_owned(),
            )),
            _ => None,
        })
        .collect();
    let font = |t: &str| {
        fonts
            .iter()
            .find(|f| f.0 == t)
            .map(|f| f.1.as_str())
            .unwrap_or_else(|| panic!("{t}: {fonts:?}"))
    };
    assert_eq!(font("(Confucius)"), "Times New Roman", "{fonts:?}");
    assert_eq!(font("孔子"), "SimSun", "{fonts:?}");
    assert_eq!(font("ひらがな"), "MS Mincho", "{fonts:?}");
    assert_eq!(font("Plain"), "Times New Roman", "{fonts:?}");
    assert_eq!(font("Named"), "Arial", "{fonts:?}");
}

/// Right-to-left and complex-script text takes the complex-script twins of size, weight
/// and font (`w:szCs`, `w:bCs`, `w:rFonts/@w:cs`), as Word sets Arabic: a style of
/// 11 pt Latin and 15 pt Arabic (`powertools-RP051-Arabic`) drew its Arabic at 11 pt.
#[test]
fn complex_script_runs_take_their_complex_script_properties() {
    let mut f = DocxFixture::new(concat!(
        r#"<w:p><w:pPr><w:bidi/></w:pPr>"#,
        r#"<w:r><w:rPr><w:rtl/></w:rPr><w:t>النظر</w:t></w:r>"#,
        r#"<w:r><w:t>Latin</w:t></w:r>"#,
        r#"<w:r><w:t>שלום</w:t></w:r>"#,
        r#"<w:r><w:rPr><w:b/><w:bCs w:val="0"/><w:rtl/></w:rPr><w:t>عربي</w:t></w:r>"#,
        r#"<w:r><w:rPr><w:sz w:val="40"/><w:cs/></w:rPr><w:t>forced</w:t></w:r>"#,
        r#"</w:p>"#,
    ));
    f.styles = Some(w_part(
        "styles",
        r#"<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman" w:cs="Traditional Arabic"/><w:sz w:val="22"/><w:szCs w:val="30"/></w:rPr></w:style>"#,
    ));
    let doc = parse(&f);
    let p = paragraphs(&doc)[0];
    let formats: Vec<(String, f32, bool, String)> = p
        .inlines
        .iter()
        .filter_map(|i| match i {
            Inline::Text { text, format } => Some((
                text.clone(),
                format.size.unwrap_or(0.0),
                format.bold,
                format.font.as_deref().unwrap_or("").to_owned(),
            )),
            _ => None,
        })
        .collect();
    let get = |t: &str| {
        formats
            .iter()
            .find(|f| f.0 == t)
            .unwrap_or_else(|| panic!("{t}: {formats:?}"))
    };
    assert_eq!(get("النظر").1, 15.0, "{formats:?}");
    assert_eq!(get("النظر").3, "Traditional Arabic");
    assert_eq!(get("Latin").1, 11.0);
    assert_eq!(get("Latin").3, "Times New Roman");
    // Hebrew in a run not marked right-to-left is still complex script.
    assert_eq!(get("שלום").1, 15.0);
    // Bold for Latin text, not for this run's Arabic (bCs off).
    assert!(!get("عربي").2, "{formats:?}");
    // w:cs makes a run complex script whatever its letters; it sets only w:sz, so the
    // style's szCs applies.
    assert_eq!(get("forced").1, 15.0);
}
