//! Check boxes, legacy form fields, page borders and anchored SmartArt (issues #15, #14):
//! hand-built packages for the attribute mixes, real Word and LibreOffice files for the
//! rest. Assertions go through the model's JSON and the rendered HTML.

use serde_json::Value;

use super::support::DocxFixture;
use crate::office::docx::parse_docx;
use crate::office::docx::render::{render_html, RenderOptions};
use crate::office::OfficeLimits;

const DOCX: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/docx");

const W14: &str = "http://schemas.microsoft.com/office/word/2010/wordml";

fn open(path: &str) -> Vec<u8> {
    std::fs::read(format!("{DOCX}/{path}")).unwrap()
}

/// The model's JSON and the page HTML of a package.
fn model_and_html(bytes: &[u8]) -> (Value, String) {
    let doc = parse_docx(bytes, &OfficeLimits::default()).expect("parses");
    let json = serde_json::to_value(&doc).unwrap();
    (json, render_html(&doc, &RenderOptions::default()))
}

/// Every JSON object under `v` whose `type` is `ty`.
fn of_type<'v>(v: &'v Value, ty: &str, out: &mut Vec<&'v Value>) {
    match v {
        Value::Object(map) => {
            if map.get("type").and_then(Value::as_str) == Some(ty) {
                out.push(v);
            }
            map.values().for_each(|c| of_type(c, ty, out));
        }
        Value::Array(items) => items.iter().for_each(|c| of_type(c, ty, out)),
        _ => {}
    }
}

fn all_of_type<'v>(v: &'v Value, ty: &str) -> Vec<&'v Value> {
    let mut out = Vec::new();
    of_type(v, ty, &mut out);
    out
}

/// The opening tags (up to `>`) of the elements whose opening starts with `start`.
fn tags<'h>(html: &'h str, start: &str) -> Vec<&'h str> {
    html.match_indices(start)
        .filter_map(|(i, _)| html[i..].find('>').map(|end| &html[i..i + end]))
        .collect()
}

/// What follows each check box's opening tag up to its closing `</span></span>`.
fn check_boxes(html: &str) -> Vec<(bool, String)> {
    html.match_indices("<span class=\"docx-checkbox\"")
        .map(|(i, _)| {
            let rest = &html[i..];
            let checked = rest[..rest.find('>').unwrap()].contains("aria-checked=\"true\"");
            let body = &rest[rest.find('>').unwrap() + 1..];
            // The symbol: the text of the inner run, without tags.
            let mut text = String::new();
            let mut in_tag = false;
            for c in body.chars() {
                match c {
                    '<' => in_tag = true,
                    '>' => in_tag = false,
                    _ if !in_tag => text.push(c),
                    _ => {}
                }
                if !in_tag && !text.is_empty() {
                    break;
                }
            }
            (checked, text)
        })
        .collect()
}

fn content_control(checked: bool, states: &str, content: &str) -> String {
    format!(
        r#"<w:sdt><w:sdtPr><w14:checkbox xmlns:w14="{W14}"><w14:checked w14:val="{}"/>{states}</w14:checkbox></w:sdtPr><w:sdtContent>{content}</w:sdtContent></w:sdt>"#,
        u8::from(checked)
    )
}

#[test]
fn content_control_check_boxes_show_the_symbol_of_their_state() {
    let wingdings = r#"<w14:checkedState w14:val="F0FE" w14:font="Wingdings"/><w14:uncheckedState w14:val="F0A8" w14:font="Wingdings"/>"#;
    let gothic = r#"<w14:checkedState w14:val="2612" w14:font="MS Gothic"/><w14:uncheckedState w14:val="2610" w14:font="MS Gothic"/>"#;
    let sym = r#"<w:r><w:rPr><w:rFonts w:ascii="Wingdings" w:hAnsi="Wingdings"/></w:rPr><w:sym w:font="Wingdings" w:char="F0FE"/></w:r>"#;
    let body = format!(
        concat!(
            // In a paragraph, Wingdings states, the glyph cached as a w:sym.
            r#"<w:p><w:r><w:t xml:space="preserve">Done </w:t></w:r>{}</w:p>"#,
            // Around a paragraph, Word's default states, the glyph cached as text.
            r#"{}"#,
            // Around a table cell (Word's to-do list templates).
            r#"<w:tbl><w:tr>{}<w:tc><w:p><w:r><w:t>Book the rooms</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"#,
        ),
        content_control(true, wingdings, sym),
        content_control(
            false,
            gothic,
            r#"<w:p><w:r><w:rPr><w:rFonts w:ascii="MS Gothic" w:hAnsi="MS Gothic"/></w:rPr><w:t>☐ Not yet</w:t></w:r></w:p>"#
        ),
        content_control(
            true,
            gothic,
            r#"<w:tc><w:p><w:r><w:t>☒</w:t></w:r></w:p></w:tc>"#
        ),
    );
    let (json, html) = model_and_html(&DocxFixture::new(&body).build());
    let boxes = all_of_type(&json, "checkBox");
    assert_eq!(boxes.len(), 3, "{json}");
    assert_eq!(boxes[0]["checked"], true);
    assert_eq!(
        boxes[0]["text"], "☑",
        "Wingdings F0FE is a box with a check"
    );
    assert_eq!(boxes[0]["font"], "Wingdings");
    assert_eq!(boxes[1]["checked"], false);
    assert_eq!(boxes[1]["text"], "☐");
    assert_eq!(boxes[1]["format"]["font"], "MS Gothic");
    assert_eq!(boxes[2]["checked"], true);
    assert_eq!(boxes[2]["text"], "☒");
    assert_eq!(
        check_boxes(&html),
        [
            (true, "☑".to_owned()),
            (false, "☐".to_owned()),
            (true, "☒".to_owned())
        ]
    );
    // The cached glyph is replaced, not shown twice, and the text after it stays.
    assert!(!html.contains('\u{F0FE}'), "a private-use glyph leaked");
    assert_eq!(html.matches('☐').count(), 1);
    assert!(html.contains(" Not yet"));
}

#[test]
fn real_word_to_do_list_check_boxes_keep_their_states() {
    // Open-Xml-PowerTools' HC006-Test-01: Word's travel checklist template, one check box
    // content control around the first cell of each row; the first row is checked.
    let (json, html) = model_and_html(&open("powertools-HC006-Test-01.docx"));
    let boxes = all_of_type(&json, "checkBox");
    assert!(boxes.len() >= 10, "{}", boxes.len());
    assert_eq!(boxes[0]["checked"], true);
    assert!(boxes[1..].iter().all(|b| b["checked"] == false));
    let shown = check_boxes(&html);
    assert_eq!(shown.len(), boxes.len());
    assert_eq!(shown[0], (true, "☒".to_owned()));
    assert!(shown[1..].iter().all(|(c, t)| !c && t == "☐"), "{shown:?}");
}

/// A complex field with form data, as Word writes one.
fn form_field(ff: &str, instr: &str, result: Option<&str>) -> String {
    let result = result.map_or(String::new(), |r| {
        format!(
            r#"<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t xml:space="preserve">{r}</w:t></w:r>"#
        )
    });
    format!(
        r#"<w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="F"/><w:enabled/>{ff}</w:ffData></w:fldChar></w:r><w:r><w:instrText xml:space="preserve"> {instr} </w:instrText></w:r>{result}<w:r><w:fldChar w:fldCharType="end"/></w:r>"#
    )
}

fn form_fields_document(settings: Option<&str>) -> Vec<u8> {
    let body = format!(
        r#"<w:p>{}<w:r><w:t xml:space="preserve"> yes </w:t></w:r>{}<w:r><w:t xml:space="preserve"> no; name: </w:t></w:r>{}<w:r><w:t xml:space="preserve">; size: </w:t></w:r>{}</w:p>"#,
        form_field(
            r#"<w:checkBox><w:size w:val="24"/><w:default w:val="1"/></w:checkBox>"#,
            "FORMCHECKBOX",
            None
        ),
        form_field(
            r#"<w:checkBox><w:sizeAuto/><w:default w:val="1"/><w:checked w:val="0"/></w:checkBox>"#,
            "FORMCHECKBOX",
            None
        ),
        form_field(
            r#"<w:textInput><w:default w:val="Name"/></w:textInput>"#,
            "FORMTEXT",
            Some("Jane Doe")
        ),
        form_field(
            r#"<w:ddList><w:result w:val="2"/><w:listEntry w:val="Small"/><w:listEntry w:val="Medium"/><w:listEntry w:val="Large"/></w:ddList>"#,
            "FORMDROPDOWN",
            None
        ),
    );
    let mut fixture = DocxFixture::new(&body);
    if let Some(settings) = settings {
        fixture.with_settings(settings);
    }
    fixture.build()
}

#[test]
fn legacy_form_fields_show_a_box_their_text_and_the_selected_entry() {
    let (json, html) = model_and_html(&form_fields_document(None));
    let boxes = all_of_type(&json, "checkBox");
    assert_eq!(boxes.len(), 2, "{json}");
    // Checked by its default; 12 pt from w:size (half-points).
    assert_eq!(boxes[0]["checked"], true);
    assert_eq!(boxes[0]["formField"], true);
    assert_eq!(boxes[0]["format"]["size"], 12.0);
    // w:checked overrides the default.
    assert_eq!(boxes[1]["checked"], false);
    assert_eq!(
        check_boxes(&html),
        [(true, "☒".to_owned()), (false, "☐".to_owned())]
    );
    let box_tags = tags(&html, "<span class=\"docx-checkbox\"");
    assert_eq!(box_tags.len(), 2);
    assert!(html.contains("font-size:12pt"), "{html}");
    // The text field shows its result, the drop-down its third entry; both shaded grey,
    // as Word shows form fields unless the document turns that off.
    let plain: String = {
        let mut s = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                _ if !in_tag => s.push(c),
                _ => {}
            }
        }
        s
    };
    assert!(
        plain.contains("☒ yes ☐ no; name: Jane Doe; size: Large"),
        "{plain}"
    );
    assert!(!plain.contains("Medium"));
    let shaded = html.matches("background-color:#D9D9D9").count();
    assert!(shaded >= 4, "every form field shaded: {shaded} in {html}");

    // w:doNotShadeFormData turns the shading off.
    let (_, html) = model_and_html(&form_fields_document(Some("<w:doNotShadeFormData/>")));
    assert!(!html.contains("#D9D9D9"), "{html}");
    assert!(html.contains("Large"));
}

#[test]
fn real_word_form_text_fields_show_their_result() {
    // Open-Xml-PowerTools' HC009-Test-04: a project template with FORMTEXT fields whose
    // results are bracketed prompts. Its settings say `w:doNotShadeFormData`, so Word shows
    // them unshaded.
    let (json, html) = model_and_html(&open("powertools-HC009-Test-04.docx"));
    assert!(html.contains("[frequency, date, time, and locations of meetings]"));
    let fields = all_of_type(&json, "field");
    let form_text = fields
        .iter()
        .filter(|f| f["instruction"] == "FORMTEXT")
        .count();
    assert_eq!(form_text, 1, "the file has one FORMTEXT field");
    assert!(
        !html.contains("#D9D9D9"),
        "the document turns form shading off"
    );
}

#[test]
fn page_borders_written_by_libreoffice_frame_the_text() {
    // fixtures/docx/page-borders/make.sh: LibreOffice's export of a page border 14 pt
    // from the text, 2.25 pt red at the top and bottom, 0.75 pt dashed blue at the sides.
    let (json, html) = model_and_html(&open("page-borders/page-borders.docx"));
    let b = &json["sections"][0]["pageBorders"];
    assert_eq!(b["offsetFrom"], "text", "{json}");
    assert_eq!(b["display"], "allPages");
    assert_eq!(b["top"]["line"]["width"], 2.25);
    assert_eq!(b["top"]["line"]["color"], "#C00000");
    assert_eq!(b["top"]["space"], 14.0);
    assert_eq!(b["left"]["line"]["style"], "dashed");
    let frames = tags(&html, "<div class=\"docx-page-border\"");
    assert_eq!(frames.len(), 1, "{html}");
    // Margins 85.75 pt (left) and 73.1 pt (top): the border's outer edge is the space
    // and the line's width further out.
    let f = frames[0];
    assert!(f.contains("left:71pt;top:56.85pt;"), "{f}");
    assert!(f.contains("border-top:2.25pt solid #C00000;"), "{f}");
    assert!(f.contains("border-left:0.75pt dashed #1F4E79;"), "{f}");
    assert!(f.contains("z-index:1;"), "{f}");
}

#[test]
fn page_borders_in_words_attribute_mix() {
    // The same file with the border rewritten as Word writes one: from the page edge,
    // first page only, behind the text, a theme colour, double sides and an art border.
    let (json, html) = model_and_html(&open("page-borders/page-borders-word.docx"));
    let b = &json["sections"][0]["pageBorders"];
    assert_eq!(b["offsetFrom"], "page", "{json}");
    assert_eq!(b["display"], "firstPage");
    assert_eq!(b["behindText"], true);
    assert_eq!(b["top"]["line"]["color"], "#ED7D31", "accent2 of the theme");
    assert_eq!(b["top"]["line"]["width"], 3.0);
    assert_eq!(b["left"]["line"]["style"], "double");
    // An art border: named in the model, drawn as a line of its width (points).
    assert_eq!(b["bottom"]["art"], "apples");
    assert_eq!(b["bottom"]["line"]["style"], "single");
    assert_eq!(b["bottom"]["line"]["width"], 20.0);
    assert_eq!(html.matches("<section class=\"docx-page\"").count(), 2);
    let frames = tags(&html, "<div class=\"docx-page-border\"");
    assert_eq!(frames.len(), 1, "first page only: {html}");
    let first_page = html.find("aria-label=\"Page 1\"").unwrap();
    let second_page = html.find("aria-label=\"Page 2\"").unwrap();
    let at = html.find("<div class=\"docx-page-border\"").unwrap();
    assert!(first_page < at && at < second_page);
    let f = frames[0];
    // 24 pt from each page edge of an A4 page (595.3 × 841.9 pt).
    assert!(
        f.contains("left:24pt;top:24pt;width:547.3pt;height:793.9pt;"),
        "{f}"
    );
    assert!(f.contains("border-top:3pt solid #ED7D31;"), "{f}");
    assert!(f.contains("border-bottom:20pt solid #000000;"), "{f}");
    assert!(f.contains("z-index:-1;"), "{f}");
}

#[test]
fn an_anchored_smartart_floats_like_other_drawings() {
    // Open-Xml-PowerTools' DB007-Abstract: a SmartArt diagram anchored 288 pt right of the
    // column's left edge, square wrap: Word floats it at the right with the text beside it.
    let (json, html) = model_and_html(&open("powertools-DB007-Abstract.docx"));
    let diagrams = all_of_type(&json, "diagram");
    assert_eq!(diagrams.len(), 1);
    assert_eq!(diagrams[0]["anchor"]["wrap"], "square", "{}", diagrams[0]);
    assert_eq!(diagrams[0]["anchor"]["offsetH"], 288.0);
    let boxes = tags(&html, "<span class=\"docx-diagram\"");
    assert_eq!(boxes.len(), 1, "the diagram is in a placed box");
    let b = boxes[0];
    assert!(b.contains("width:163.85pt;height:88.65pt;"), "{b}");
    assert!(b.contains("float:right;"), "{b}");
    // Its SVG follows in the box.
    let at = html.find("<span class=\"docx-diagram\"").unwrap();
    assert!(html[at..].find("<svg").unwrap() < html[at..].find("</span>").unwrap());
}
