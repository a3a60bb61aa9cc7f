//! Slide text laid out in real Chromium, measured from the boxes the browser lays out.

mod common;

use common::browser::{eval, wait_for, TestBrowser};
use common::pptx::deck_with_shapes;
use common::{ids, start};

/// A text box `width` EMU wide holding one bulleted paragraph of `text` at 18 pt.
fn bulleted_box(width: u32, text: &str) -> String {
    format!(
        r#"<p:sp><p:nvSpPr><p:cNvPr id="2" name="Text"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="914400" y="914400"/><a:ext cx="{width}" cy="1828800"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr wrap="square"/><a:lstStyle/><a:p><a:pPr marL="342900" indent="-342900"><a:buFont typeface="Arial"/><a:buChar char="&#8226;"/></a:pPr><a:r><a:rPr lang="en-US" sz="1800"/><a:t>{text}</a:t></a:r></a:p></p:txBody></p:sp>"#
    )
}

/// The tops of the bullet and of each line box of the text after it, in px.
async fn bullet_and_lines(deck: Vec<u8>) -> serde_json::Value {
    let s = start(|_| {}).await;
    s.write("deck.pptx", deck);
    let body = s.preview_ok("deck.pptx").await;
    let (id, token) = ids(&body);
    let browser = TestBrowser::launch().await;
    let page = browser.open(&format!("{}/p/{id}/{token}/", s.base)).await;
    wait_for(
        &page,
        "document.readyState === 'complete' && document.querySelector('#slide-1 .pptx-bu') !== null",
    )
    .await;
    eval(&page, "document.fonts.ready.then(() => true)").await;
    let out = eval(
        &page,
        r#"(() => {
            const el = document.querySelector('#slide-1 .pptx-bu');
            const bu = el.getBoundingClientRect();
            const run = el.closest('p').querySelector('span:not(.pptx-bu):not(.pptx-bu-keep)');
            // One entry per line (a line of several words has a rect per word).
            const lines = [];
            for (const r of run.getClientRects()) {
                if (!lines.some(l => Math.abs(l.top - r.top) < 1)) lines.push({ top: r.top, bottom: r.bottom, left: r.left });
            }
            // What a reader copies: the paragraph selected whole.
            const range = document.createRange();
            range.selectNodeContents(el.closest('p'));
            const sel = window.getSelection();
            sel.removeAllRanges();
            sel.addRange(range);
            const copied = sel.toString();
            return { bullet: { top: bu.top, bottom: bu.bottom, right: bu.right }, lines, copied };
        })()"#,
    )
    .await;
    browser.close().await;
    out
}

/// A first word wider than the line stays beside its bullet and is broken there, as
/// PowerPoint breaks it (`shapecrawler-009_table`'s narrow cells); Chromium had left the
/// bullet alone on a line above the word.
#[tokio::test(flavor = "multi_thread")]
async fn a_long_first_word_stays_beside_its_bullet() {
    // 1.2 in wide, less the 0.375 in hang and the insets: too narrow for the word.
    let deck = deck_with_shapes(&bulleted_box(
        1_097_280,
        "Supercalifragilisticexpialidocious",
    ));
    let got = bullet_and_lines(deck).await;
    let lines = got["lines"].as_array().unwrap();
    assert!(lines.len() >= 2, "the word is broken over lines: {got}");
    let first = lines[0]["top"].as_f64().unwrap();
    let second = lines[1]["top"].as_f64().unwrap();
    // The bullet's glyph lies on the first line of text, not a line above it.
    let bullet_mid =
        (got["bullet"]["top"].as_f64().unwrap() + got["bullet"]["bottom"].as_f64().unwrap()) / 2.0;
    assert!(
        bullet_mid >= first - 2.0 && bullet_mid < second,
        "bullet at {bullet_mid}, lines at {first} and {second}: {got}"
    );
    assert!(
        lines[0]["left"].as_f64().unwrap() >= got["bullet"]["right"].as_f64().unwrap() - 0.5,
        "{got}"
    );
}

/// Ordinary words still wrap at spaces, the first line beside the bullet; the bullet is
/// not copied with the text.
#[tokio::test(flavor = "multi_thread")]
async fn short_words_after_a_bullet_wrap_at_spaces() {
    let deck = deck_with_shapes(&bulleted_box(1_097_280, "one two three four five six"));
    let got = bullet_and_lines(deck).await;
    let lines = got["lines"].as_array().unwrap();
    assert!(lines.len() >= 2, "{got}");
    let bullet_mid =
        (got["bullet"]["top"].as_f64().unwrap() + got["bullet"]["bottom"].as_f64().unwrap()) / 2.0;
    let first = lines[0]["top"].as_f64().unwrap();
    let second = lines[1]["top"].as_f64().unwrap();
    assert!(bullet_mid >= first - 2.0 && bullet_mid < second, "{got}");
    // A copy holds the words only: no bullet, no word joiner.
    assert_eq!(got["copied"], "one two three four five six", "{got}");
}
