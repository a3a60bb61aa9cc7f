//! DOCX page layout in real Chromium (issue #15): each section's columns side by side
//! on the page they share, column breaks, and unequal columns, measured from the boxes
//! the browser lays out.

mod common;

use common::browser::{eval, wait_for, TestBrowser};
use common::docx::docx_with_body;
use common::start;

const VARIOUS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/docx/tika-testWORD_various.docx"
);

/// Boxes of the paragraphs of the document view whose text is one of `texts`.
const BOXES: &str = r#"((texts) => {
    const out = {};
    for (const p of document.querySelectorAll('#view-document .docx-p')) {
        const t = p.textContent.trim();
        if (texts.includes(t)) {
            const r = p.getBoundingClientRect();
            out[t] = { left: r.left, right: r.right, top: r.top, width: r.width };
        }
    }
    const page = document.querySelector('#view-document .docx-page').getBoundingClientRect();
    out.page = { left: page.left, right: page.right, width: page.width };
    out.pages = document.querySelectorAll('#view-document .docx-page').length;
    return out;
})"#;

async fn boxes(shell_url: &str, texts: &[&str]) -> serde_json::Value {
    let browser = TestBrowser::launch().await;
    let page = browser.open(shell_url).await;
    wait_for(
        &page,
        "document.readyState === 'complete' && document.querySelector('#view-document .docx-page') !== null",
    )
    .await;
    eval(&page, "document.fonts.ready.then(() => true)").await;
    let list = serde_json::to_string(texts).unwrap();
    let out = eval(&page, &format!("{BOXES}({list})")).await;
    browser.close().await;
    out
}

fn f(v: &serde_json::Value, key: &str, side: &str) -> f64 {
    v[key][side]
        .as_f64()
        .unwrap_or_else(|| panic!("no {key}.{side} in {v}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_continuous_two_column_section_lays_out_side_by_side_under_one_column_text() {
    let s = start(|_| {}).await;
    s.write("various.docx", std::fs::read(VARIOUS).unwrap());
    let url = s.preview_ok("various.docx").await["url"]
        .as_str()
        .unwrap()
        .to_string();
    let texts = [
        "Here is a list:",
        "Row 1 column 1",
        "Row 2 column 1",
        "Row 1 column 2",
        "Row 2 column 2",
    ];
    let b = boxes(&url, &texts).await;
    // The two-column section follows the one-column text on the same page.
    assert_eq!(b["pages"], 1, "{b}");
    // The first section is one column: its text runs past the page's middle.
    let middle = f(&b, "page", "left") + f(&b, "page", "width") / 2.0;
    assert!(f(&b, "Here is a list:", "right") > middle + 100.0, "{b}");
    // Balanced: two paragraphs a column, the second column right of the first.
    for row in [1, 2] {
        let left = format!("Row {row} column 1");
        let right = format!("Row {row} column 2");
        assert!(f(&b, &right, "left") >= f(&b, &left, "right"), "{b}");
        assert!(
            (f(&b, &right, "top") - f(&b, &left, "top")).abs() < 1.0,
            "{b}"
        );
    }
    // 720 twips between the columns: 36 pt = 48 px.
    let gap = f(&b, "Row 1 column 2", "left") - f(&b, "Row 1 column 1", "right");
    assert!((gap - 48.0).abs() < 1.5, "gap {gap}: {b}");
}

#[tokio::test(flavor = "multi_thread")]
async fn column_breaks_and_unequal_columns_place_text_where_the_document_says() {
    let body = concat!(
        // Equal columns: one short paragraph, then a column break.
        r#"<w:p><w:r><w:t>First</w:t><w:br w:type="column"/><w:t>Second</w:t></w:r></w:p>"#,
        r#"<w:p><w:pPr><w:sectPr><w:cols w:num="2"/></w:sectPr></w:pPr></w:p>"#,
        // Unequal columns on the next page: 100 pt and 300 pt, 20 pt apart.
        r#"<w:p><w:r><w:t>Narrow</w:t><w:br w:type="column"/><w:t>Wide</w:t></w:r></w:p>"#,
        r#"<w:sectPr><w:cols w:num="2" w:equalWidth="0"><w:col w:w="2000" w:space="400"/><w:col w:w="6000"/></w:cols></w:sectPr>"#,
    );
    let s = start(|_| {}).await;
    s.write("columns.docx", docx_with_body(body));
    let url = s.preview_ok("columns.docx").await["url"]
        .as_str()
        .unwrap()
        .to_string();
    let b = boxes(&url, &["First", "Second", "Narrow", "Wide"]).await;
    assert_eq!(b["pages"], 2, "{b}");
    // A short first column still ends at the break: "Second" tops the next column.
    assert!(f(&b, "Second", "left") >= f(&b, "First", "right"), "{b}");
    assert!(
        (f(&b, "Second", "top") - f(&b, "First", "top")).abs() < 1.0,
        "{b}"
    );
    // The unequal columns keep their widths (100 pt = 133.3 px, 300 pt = 400 px) and gap.
    assert!((f(&b, "Narrow", "width") - 133.33).abs() < 1.0, "{b}");
    assert!((f(&b, "Wide", "width") - 400.0).abs() < 1.0, "{b}");
    let gap = f(&b, "Wide", "left") - f(&b, "Narrow", "right");
    assert!((gap - 26.67).abs() < 1.0, "gap {gap}: {b}");
    assert!(
        (f(&b, "Wide", "top") - f(&b, "Narrow", "top")).abs() < 1.0,
        "{b}"
    );
}
