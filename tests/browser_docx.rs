//! DOCX in real Chromium. The 60-page benchmark report: the page frame is laid out
//! and painted, the text is there, and a screenshot is kept for a person to review at
//! `target/test-artifacts/report-60p.png`. Equations: laid out by the browser as MathML.

mod common;

use chromiumoxide::cdp::browser_protocol::emulation::SetDeviceMetricsOverrideParams;
use chromiumoxide::cdp::browser_protocol::page::CaptureScreenshotFormat;
use chromiumoxide::page::ScreenshotParams;
use common::browser::{eval, wait_for, TestBrowser};
use common::docx::{docx_with_body, docx_with_parts};
use common::start;

const REPORT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/bench/report-60p.docx"
);
const ARTIFACTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/test-artifacts");

/// The viewport the screenshot is taken at: wide enough for a Letter page (612 pt = 816 px)
/// with the desk around it, so the review image shows the frame as a reader sees it.
const VIEWPORT: (u32, u32) = (1200, 900);

/// Paper and desk colours of `render.css` (`--docx-paper`, `--docx-desk`).
const PAPER: [u8; 3] = [0xff, 0xff, 0xff];
const DESK: [u8; 3] = [0xe8, 0xe8, 0xec];

#[tokio::test(flavor = "multi_thread")]
async fn report_60p_shows_its_page_frame_and_text_and_is_screenshotted() {
    let s = start(|_| {}).await;
    s.write("reports/report-60p.docx", std::fs::read(REPORT).unwrap());
    let body = s.preview_ok("reports/report-60p.docx").await;
    assert_eq!(body["views"][0]["name"], "document");
    let shell_url = body["url"].as_str().unwrap().to_string();

    let browser = TestBrowser::launch().await;
    let page = browser.open(&shell_url).await;
    page.execute(SetDeviceMetricsOverrideParams::new(
        VIEWPORT.0 as i64,
        VIEWPORT.1 as i64,
        1.0,
        false,
    ))
    .await
    .expect("set the viewport");
    wait_for(
        &page,
        "document.readyState === 'complete' && document.querySelector('#view-document .docx-page') !== null",
    )
    .await;
    // Web fonts and the stylesheet must have settled before layout is measured.
    eval(&page, "document.fonts.ready.then(() => true)").await;

    // Measured as opened, unscrolled: what a reader sees first.
    let frame = eval(
        &page,
        r#"(() => {
            const view = document.getElementById('view-document');
            const pageEl = view.querySelector('.docx-page');
            const r = pageEl.getBoundingClientRect();
            const cs = getComputedStyle(pageEl);
            const desk = getComputedStyle(view.querySelector('article.docx'));
            const firstPara = pageEl.querySelector('.docx-body > *');
            return {
                viewHidden: view.hidden,
                display: cs.display,
                visibility: cs.visibility,
                left: r.left, top: r.top, width: r.width, height: r.height,
                paper: cs.backgroundColor,
                desk: desk.backgroundColor,
                pages: view.querySelectorAll('.docx-page').length,
                firstParagraph: firstPara && firstPara.textContent,
                firstHeading: (view.querySelector('h1') || {}).textContent,
                text: view.innerText,
                innerWidth: window.innerWidth,
                innerHeight: window.innerHeight,
                dpr: window.devicePixelRatio,
            };
        })()"#,
    )
    .await;

    // The frame is shown, laid out with a real size, and painted as paper on the desk
    // (which proves docx.css loaded: without it both would be transparent).
    assert_eq!(frame["viewHidden"], false, "{frame}");
    assert_eq!(frame["display"], "flow-root", "{frame}");
    assert_eq!(frame["visibility"], "visible", "{frame}");
    let width = frame["width"].as_f64().unwrap();
    let height = frame["height"].as_f64().unwrap();
    // 612 pt Letter paper is 816 CSS px; the viewport is wide enough not to shrink it.
    assert!((width - 816.0).abs() < 1.0, "page frame width {width}");
    // min-height is the paper height (792 pt = 1056 px); a section's text only adds to it.
    assert!(height >= 1055.0, "page frame height {height}");
    assert_eq!(frame["paper"], "rgb(255, 255, 255)", "{frame}");
    assert_eq!(frame["desk"], "rgb(232, 232, 236)", "{frame}");
    assert!(frame["pages"].as_u64().unwrap() >= 1, "{frame}");

    // The text is present and rendered (innerText skips what CSS hides).
    assert_eq!(
        frame["firstParagraph"], "Quarterly report",
        "the title opens page 1"
    );
    assert_eq!(
        frame["firstHeading"],
        "Section 1: Revenue token budget render"
    );
    let text = frame["text"].as_str().unwrap();
    for needle in [
        "Quarterly report",
        "Section 1: Revenue token budget render",
        "Chart plan render owner artifact workspace",
    ] {
        assert!(text.contains(needle), "visible text lacks {needle:?}");
    }

    let png = page
        .screenshot(
            ScreenshotParams::builder()
                .format(CaptureScreenshotFormat::Png)
                .build(),
        )
        .await
        .expect("screenshot");
    std::fs::create_dir_all(ARTIFACTS).unwrap();
    let artifact = format!("{ARTIFACTS}/report-60p.png");
    std::fs::write(&artifact, &png).unwrap();
    browser.close().await;

    // The artifact is a real PNG of the viewport.
    let image = image::load_from_memory_with_format(&png, image::ImageFormat::Png)
        .expect("the screenshot decodes as PNG")
        .to_rgb8();
    assert_eq!(
        (frame["innerWidth"].as_u64(), frame["innerHeight"].as_u64()),
        (Some(VIEWPORT.0.into()), Some(VIEWPORT.1.into())),
        "{frame}"
    );
    assert_eq!(frame["dpr"].as_f64(), Some(1.0), "{frame}");
    assert_eq!(image.dimensions(), VIEWPORT, "{artifact}");

    // And it shows the frame: paper inside the page's top margin, desk just above it.
    let left = frame["left"].as_f64().unwrap();
    let top = frame["top"].as_f64().unwrap();
    assert!(top >= 16.0, "desk visible above the frame: {frame}");
    let pixel = |x: f64, y: f64| image.get_pixel(x as u32, y as u32).0;
    let inside = (left + width / 2.0, top + 20.0);
    // Clear of the frame's 4 px shadow, inside the desk's 16 px padding.
    let above = (left + width / 2.0, top - 10.0);
    assert_eq!(pixel(inside.0, inside.1), PAPER, "paper at {inside:?}");
    assert_eq!(pixel(above.0, above.1), DESK, "desk at {above:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn equations_are_laid_out_as_math_by_the_browser() {
    let r = |t: &str| format!("<m:r><m:t>{t}</m:t></m:r>");
    let fraction = format!(
        "{}<m:f><m:num>{}</m:num><m:den>{}</m:den></m:f>",
        r("x="),
        r("a+b"),
        r("2c")
    );
    let sum = format!(
        "<m:nary><m:naryPr><m:chr m:val=\"∑\"/><m:limLoc m:val=\"undOvr\"/></m:naryPr><m:sub>{}</m:sub><m:sup>{}</m:sup><m:e>{}</m:e></m:nary>",
        r("i=1"),
        r("n"),
        r("i")
    );
    let body = format!(
        "<w:p><w:r><w:t xml:space=\"preserve\">Inline </w:t></w:r><m:oMath>{}<m:sSup><m:e>{}</m:e><m:sup>{}</m:sup></m:sSup></m:oMath></w:p>\
         <w:p><m:oMathPara><m:oMath>{fraction}</m:oMath></m:oMathPara></w:p>\
         <w:p><m:oMathPara><m:oMath>{sum}</m:oMath></m:oMathPara></w:p>",
        r("E=m"),
        r("c"),
        r("2")
    );
    let (_s, browser, page) = open_body(
        "math.docx",
        &body,
        "document.querySelectorAll('#view-document math').length === 3",
    )
    .await;
    eval(&page, "document.fonts.ready.then(() => true)").await;
    let layout = eval(
        &page,
        r#"(() => {
            const box = (el) => { const r = el.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, height: r.height }; };
            const maths = [...document.querySelectorAll('#view-document math')];
            const frac = document.querySelector('#view-document mfrac');
            const num = frac.children[0].getBoundingClientRect();
            const den = frac.children[1].getBoundingClientRect();
            const text = document.querySelector('#view-document .docx-body p');
            return {
                ns: maths.map((m) => m.namespaceURI),
                display: maths.map((m) => getComputedStyle(m).display),
                boxes: maths.map(box),
                numBottom: num.bottom, denTop: den.top,
                lineHeight: parseFloat(getComputedStyle(text).fontSize),
                sup: box(document.querySelector('#view-document msup > :last-child')),
                base: box(document.querySelector('#view-document msup > :first-child')),
            };
        })()"#,
    )
    .await;
    browser.close().await;

    // The browser parsed real MathML (not unknown HTML elements) and laid it out as math:
    // the inline equation in the line, the two display equations as blocks.
    assert!(
        layout["ns"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n == "http://www.w3.org/1998/Math/MathML"),
        "{layout}"
    );
    // `inline math` computes to its short form.
    assert_eq!(layout["display"][0], "math", "{layout}");
    assert_eq!(layout["display"][1], "block math", "{layout}");
    // The fraction stacks: numerator above denominator, taller than a line of text.
    assert!(
        layout["numBottom"].as_f64().unwrap() <= layout["denTop"].as_f64().unwrap(),
        "{layout}"
    );
    let boxes = layout["boxes"].as_array().unwrap();
    let frac_height = boxes[1]["height"].as_f64().unwrap();
    assert!(
        frac_height > 1.6 * layout["lineHeight"].as_f64().unwrap(),
        "{layout}"
    );
    // Display equations do not overlap each other.
    assert!(
        boxes[1]["bottom"].as_f64().unwrap() <= boxes[2]["top"].as_f64().unwrap() + 0.5,
        "{layout}"
    );
    // The superscript is raised above its base.
    assert!(
        layout["sup"]["top"].as_f64().unwrap() < layout["base"]["top"].as_f64().unwrap(),
        "{layout}"
    );
}

/// The Document view's review buttons, in Chromium: "Tracked changes" hides deletions and
/// shows insertions as plain text, "Comments" hides the comments panel and the marks in the
/// text; pressed again, both come back. Read from computed styles, as a reader sees them.
#[tokio::test(flavor = "multi_thread")]
async fn review_toggles_switch_tracked_changes_and_comments() {
    const W: &str = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
    let body = "<w:p><w:r><w:t xml:space=\"preserve\">Kept </w:t></w:r>\
        <w:ins w:id=\"1\" w:author=\"Ann\"><w:r><w:t>added</w:t></w:r></w:ins>\
        <w:del w:id=\"2\" w:author=\"Ann\"><w:r><w:delText>removed</w:delText></w:r></w:del>\
        <w:commentRangeStart w:id=\"0\"/><w:r><w:t>noted</w:t></w:r><w:commentRangeEnd w:id=\"0\"/>\
        <w:r><w:commentReference w:id=\"0\"/></w:r></w:p>";
    let comments = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><w:comments xmlns:w="{W}"><w:comment w:id="0" w:author="Bo"><w:p><w:r><w:t>Check this</w:t></w:r></w:p></w:comment></w:comments>"#
    );
    let rels = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" Target="comments.xml"/></Relationships>"#;
    let bytes = docx_with_parts(
        body,
        &[
            ("word/comments.xml", comments),
            ("word/_rels/document.xml.rels", rels.to_string()),
        ],
    );
    let (_s, browser, page) = open_docx(
        "review.docx",
        bytes,
        "!!document.querySelector('#view-document del.docx-del') && !!document.querySelector('#view-document .docx-comments')",
    )
    .await;
    let state = r#"(() => {
        const v = document.getElementById('view-document');
        const cs = (sel) => getComputedStyle(v.querySelector(sel));
        const pressed = (cls) => { const b = v.querySelector(`button.class-toggle[data-class="${cls}"]`); return b ? b.getAttribute('aria-pressed') : null; };
        return {
            del: cs('del.docx-del').display,
            ins: cs('ins.docx-ins').textDecorationLine,
            panel: cs('.docx-comments').display,
            mark: cs('.docx-comment-range').backgroundColor,
            ref: cs('.docx-comment-ref').display,
            revisions: pressed('docx-hide-revisions'),
            comments: pressed('docx-hide-comments'),
        };
    })()"#;
    let click = |class: &'static str| {
        format!("document.querySelector('#view-document button.class-toggle[data-class=\"{class}\"]').click(); true")
    };
    let shown = eval(&page, state).await;
    assert_eq!(shown["del"], "inline", "{shown}");
    assert_eq!(shown["ins"], "underline", "{shown}");
    assert_eq!(shown["panel"], "block", "{shown}");
    assert_ne!(shown["mark"], "rgba(0, 0, 0, 0)", "{shown}");
    assert_eq!(shown["revisions"], "true", "{shown}");

    eval(&page, &click("docx-hide-revisions")).await;
    let hidden = eval(&page, state).await;
    assert_eq!(hidden["revisions"], "false", "{hidden}");
    assert_eq!(hidden["del"], "none", "deletions hidden: {hidden}");
    assert_eq!(hidden["ins"], "none", "insertions as plain text: {hidden}");
    assert_eq!(hidden["panel"], "block", "comments untouched: {hidden}");

    assert_eq!(shown["comments"], "true", "a Comments toggle: {shown}");
    eval(&page, &click("docx-hide-comments")).await;
    let quiet = eval(&page, state).await;
    assert_eq!(quiet["comments"], "false", "{quiet}");
    assert_eq!(quiet["panel"], "none", "{quiet}");
    assert_eq!(quiet["mark"], "rgba(0, 0, 0, 0)", "{quiet}");
    assert_eq!(quiet["ref"], "none", "{quiet}");

    eval(&page, &click("docx-hide-revisions")).await;
    eval(&page, &click("docx-hide-comments")).await;
    assert_eq!(eval(&page, state).await, shown);
    browser.close().await;
}

/// Hidden text (`w:vanish`) takes no room on the page, as in Word's and LibreOffice's
/// default view and print: the words after it close up (it was drawn dimmed).
#[tokio::test(flavor = "multi_thread")]
async fn hidden_text_is_not_shown() {
    let body = "<w:p><w:r><w:t xml:space=\"preserve\">Shown </w:t></w:r>\
        <w:r><w:rPr><w:vanish/></w:rPr><w:t xml:space=\"preserve\">secret words </w:t></w:r>\
        <w:r><w:t>after</w:t></w:r></w:p>";
    let (_s, browser, page) = open_body(
        "hidden.docx",
        body,
        "document.querySelector('#view-document .docx-body p') !== null",
    )
    .await;
    let seen = eval(
        &page,
        r#"(() => {
            const p = document.querySelector('#view-document .docx-body p');
            const hidden = p.querySelector('.docx-hidden');
            return { text: p.innerText, kept: hidden ? hidden.textContent : null, rects: hidden ? hidden.getClientRects().length : -1 };
        })()"#,
    )
    .await;
    browser.close().await;
    assert_eq!(seen["text"], "Shown after", "{seen}");
    assert_eq!(seen["kept"], "secret words ", "still in the markup: {seen}");
    assert_eq!(seen["rects"], 0, "{seen}");
}

/// A service with a document of `body` as `name`, and its viewer shell open in Chromium
/// once the page is loaded and `ready` (a script expression) holds.
async fn open_body(
    name: &str,
    body: &str,
    ready: &str,
) -> (common::TestServer, TestBrowser, chromiumoxide::Page) {
    open_docx(name, docx_with_body(body), ready).await
}

/// [`open_body`] for a package of any `bytes`.
async fn open_docx(
    name: &str,
    bytes: Vec<u8>,
    ready: &str,
) -> (common::TestServer, TestBrowser, chromiumoxide::Page) {
    let s = start(|_| {}).await;
    s.write(name, bytes);
    let shell_url = s.preview_ok(name).await["url"]
        .as_str()
        .unwrap()
        .to_string();
    let browser = TestBrowser::launch().await;
    let page = browser.open(&shell_url).await;
    wait_for(
        &page,
        &format!("document.readyState === 'complete' && {ready}"),
    )
    .await;
    (s, browser, page)
}
