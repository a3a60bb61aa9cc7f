//! The PDF viewer in real Chromium on a 200-page document written by the test: page 1 is
//! painted before any other page is asked for, only pages in view are rasterized, the
//! text layer selects the page's words, and the browser's find reaches a later page and
//! brings its raster in; on a real two-page file, fit width, fit page, zoom steps, the
//! outline panel and the device pixel ratio.

mod common;

use std::time::Duration;

use chromiumoxide::Page;
use common::browser::{eval, TestBrowser};
use common::{ids, start};
use previewd::pdf::writer::{document, PageSpec};

const PAGES: usize = 200;

fn long_document() -> Vec<u8> {
    let pages: Vec<PageSpec> = (1..=PAGES)
        .map(|n| {
            PageSpec::new(612.0, 792.0)
                .text(72.0, 720.0, 24.0, &format!("Page {n} of {PAGES}"))
                .text(
                    72.0,
                    680.0,
                    12.0,
                    "The quick brown fox jumps over the lazy dog",
                )
                .text(72.0, 660.0, 12.0, &format!("needle{n}x marks this page"))
        })
        .collect();
    document(&pages, "Long", &[])
}

/// Polls `expression` until it is `true`, for up to `seconds` (a debug build answers 200
/// text requests slowly).
async fn wait_long(page: &Page, expression: &str, seconds: u64) {
    for _ in 0..seconds * 10 {
        if eval(page, expression).await == serde_json::Value::Bool(true) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let state = eval(
        page,
        "(() => { const s = document.querySelector('.pdf-pages'); const sel = getSelection(); return {scrollTop: s.scrollTop, height: s.clientHeight, selection: sel.toString(), anchor: sel.anchorNode && sel.anchorNode.parentElement && sel.anchorNode.parentElement.closest('.pdf-page') && sel.anchorNode.parentElement.closest('.pdf-page').id, painted: Array.from(document.querySelectorAll('.pdf-page[data-state]')).map(p => p.id)}; })()",
    )
    .await;
    panic!("timed out waiting for {expression}; viewer: {state}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_long_pdf_paints_page_one_first_selects_text_and_finds_later_pages() {
    let s = start(|_| {}).await;
    s.write("long.pdf", long_document());
    let (id, token) = ids(&s.preview_ok("long.pdf").await);
    let browser = TestBrowser::launch().await;
    let page = browser.open(&format!("{}/p/{id}/{token}/", s.base)).await;
    wait_long(
        &page,
        "document.getElementById('page-1').dataset.state === 'painted'",
        60,
    )
    .await;

    // Rasters asked for so far: page 1, before anything else.
    let requests = eval(
        &page,
        "performance.getEntriesByType('resource').filter(e => e.name.includes('/page/')).map(e => ({n: +e.name.split('/page/')[1].split('?')[0], start: e.startTime, end: e.responseEnd}))",
    )
    .await;
    let requests = requests.as_array().unwrap();
    let first = requests
        .iter()
        .find(|r| r["n"] == 1)
        .expect("page 1 was requested");
    for r in requests.iter().filter(|r| r["n"] != 1) {
        assert!(
            r["start"].as_f64().unwrap() >= first["end"].as_f64().unwrap(),
            "page {} was requested before page 1 arrived: {requests:?}",
            r["n"]
        );
    }
    assert!(
        requests.len() <= 2,
        "only pages in view are rasterized: {requests:?}"
    );
    assert_eq!(
        eval(&page, "document.querySelector('.pdf-count').textContent").await,
        "of 200"
    );

    // Selecting page 1's text layer gives its words.
    wait_long(
        &page,
        "document.getElementById('page-1').dataset.text === 'ready'",
        30,
    )
    .await;
    let selected = eval(
        &page,
        "(() => { const r = document.createRange(); r.selectNodeContents(document.querySelector('#page-1 .pdf-text')); const s = getSelection(); s.removeAllRanges(); s.addRange(r); return s.toString(); })()",
    )
    .await;
    let selected = selected.as_str().unwrap();
    assert!(selected.contains("Page 1 of 200"), "{selected}");
    assert!(
        selected.contains("The quick brown fox jumps over the lazy dog"),
        "{selected}"
    );
    // The layer is aligned with the raster: the title's span starts one inch in and one
    // inch down (its baseline 72 pt below the top minus the ascent), at the page's zoom.
    let placed = eval(
        &page,
        "(() => { const p = document.getElementById('page-1').getBoundingClientRect(); const t = document.querySelector('#page-1 .pdf-text span').getBoundingClientRect(); const z = p.width / 612; return [(t.left - p.left) / z, (t.top - p.top) / z, t.width / z]; })()",
    )
    .await;
    let placed: Vec<f64> = serde_json::from_value(placed).unwrap();
    assert!((placed[0] - 72.0).abs() < 1.0, "{placed:?}");
    assert!((placed[1] - (72.0 - 24.0 * 0.8)).abs() < 2.0, "{placed:?}");
    // Helvetica's width of the title, to within the fallback font's rounding.
    assert!(placed[2] > 120.0 && placed[2] < 190.0, "{placed:?}");

    // Find reaches a page far below, scrolls to it and its raster is then asked for.
    wait_long(
        &page,
        "document.getElementById('page-150').dataset.text === 'ready'",
        120,
    )
    .await;
    assert_eq!(
        eval(
            &page,
            "getSelection().removeAllRanges(), window.find('needle150x')"
        )
        .await,
        true
    );
    wait_long(
        &page,
        "document.getElementById('page-150').dataset.state === 'painted'",
        60,
    )
    .await;
    let number = eval(&page, "document.querySelector('.pdf-page-input').value").await;
    let number: u64 = number.as_str().unwrap().parse().unwrap();
    assert!((149..=151).contains(&number), "{number}");
    let rasters = eval(
        &page,
        "performance.getEntriesByType('resource').filter(e => e.name.includes('/page/')).length",
    )
    .await;
    assert!(
        rasters.as_u64().unwrap() < 10,
        "pages skipped by the jump were not rasterized: {rasters}"
    );

    // The page box and jump: page 42 through the toolbar.
    eval(&page, "(() => { const i = document.querySelector('.pdf-page-input'); i.value = '42'; i.dispatchEvent(new Event('change')); })()").await;
    wait_long(
        &page,
        "document.getElementById('page-42').dataset.state === 'painted'",
        60,
    )
    .await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn zoom_modes_the_outline_and_the_device_pixel_ratio_drive_the_rasters() {
    let s = start(|_| {}).await;
    // Two A4 pages (595 × 842 pt) with an outline entry for page 2 (Apache Tika's file).
    s.write(
        "b.pdf",
        std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/pdf/tika-testPDF_bookmarks.pdf"
        ))
        .unwrap(),
    );
    let (id, token) = ids(&s.preview_ok("b.pdf").await);
    let browser = TestBrowser::launch().await;
    let page = browser
        .open_at_ratio(&format!("{}/p/{id}/{token}/", s.base), 2.0)
        .await;
    // A high-density screen: the rasters must follow its ratio of 2.
    let dpr = eval(&page, "window.devicePixelRatio")
        .await
        .as_f64()
        .unwrap();
    assert_eq!(dpr, 2.0, "the emulated device pixel ratio");
    wait_long(
        &page,
        "document.getElementById('page-1').dataset.state === 'painted'",
        60,
    )
    .await;
    // Page box width, the pane's inner width and height, the raster's scale in the
    // request and its pixel width, for page `n`.
    let state = |n: u32| {
        let page = &page;
        async move {
            let v = eval(
                page,
                &format!("(() => {{ const p = document.getElementById('page-{n}'); const s = document.querySelector('.pdf-pages'); const img = p.querySelector('.pdf-raster'); return [p.getBoundingClientRect().width, p.getBoundingClientRect().height, s.clientWidth - 24, s.clientHeight - 24, +p.dataset.scale, img ? img.naturalWidth : 0]; }})()"),
            )
            .await;
            serde_json::from_value::<Vec<f64>>(v).unwrap()
        }
    };
    // Fit width: the page fills the pane's width, and its raster is asked for at the zoom
    // times the device pixel ratio (rounded up to an eighth), so it is sharp.
    let [w, _, avail_w, _, scale, _] = state(1).await[..] else {
        unreachable!()
    };
    assert!((w - avail_w).abs() < 1.0, "fit width: {w} in {avail_w}");
    let zoom = w / 595.0;
    assert_eq!(
        scale,
        (zoom * dpr * 8.0).ceil() / 8.0,
        "zoom {zoom}, ratio {dpr}"
    );
    // The raster at that scale replaces the first one when it arrives (the page was
    // painted first at the scale it had before the pane was measured).
    wait_long(
        &page,
        &format!("(() => {{ const img = document.querySelector('#page-1 .pdf-raster'); return !!img && img.naturalWidth === {}; }})()", (595.0 * scale).floor()),
        60,
    )
    .await;

    // Fit page: the whole page shows in the pane.
    eval(&page, "(() => { const z = document.querySelector('.pdf-zoom'); z.value = 'fit-page'; z.dispatchEvent(new Event('change')); })()").await;
    let [w, h, avail_w, avail_h, _, _] = state(1).await[..] else {
        unreachable!()
    };
    assert!(
        h <= avail_h + 1.0 && w <= avail_w + 1.0,
        "fit page: {w} × {h} in {avail_w} × {avail_h}"
    );
    assert!(
        (h - avail_h).abs() < 1.0 || (w - avail_w).abs() < 1.0,
        "fit page touches one side: {w} × {h} in {avail_w} × {avail_h}"
    );
    let fitted = w / 595.0;

    // A step in: the next level above, and a raster asked for at that zoom.
    eval(
        &page,
        "document.querySelector('button[data-act=\"zoom-in\"]').click()",
    )
    .await;
    let levels = [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0];
    let next = levels.into_iter().find(|l| *l > fitted + 0.001).unwrap();
    let [w, ..] = state(1).await[..] else {
        unreachable!()
    };
    assert!((w - 595.0 * next).abs() < 1.0, "zoom in from {fitted}: {w}");
    // The page asks for its raster at the new zoom, and that raster replaces the old one.
    let asked = eval(&page, "+document.getElementById('page-1').dataset.scale").await;
    let asked = asked.as_f64().unwrap();
    assert_eq!(asked, (next * dpr * 8.0).ceil() / 8.0);
    wait_long(
        &page,
        &format!("(() => {{ const imgs = document.querySelectorAll('#page-1 .pdf-raster'); return imgs.length === 1 && imgs[0].complete && imgs[0].naturalWidth === {}; }})()", (595.0 * asked).floor()),
        60,
    )
    .await;
    assert_eq!(
        eval(&page, "document.querySelector('.pdf-zoom').value").await,
        next.to_string()
    );

    // The outline panel opens and its entry leads to page 2.
    eval(
        &page,
        "document.querySelector('button[data-act=\"outline\"]').click()",
    )
    .await;
    assert_eq!(
        eval(&page, "document.querySelector('.pdf-outline').hidden").await,
        false
    );
    eval(
        &page,
        "document.querySelector('.pdf-outline a[data-page=\"2\"]').click()",
    )
    .await;
    wait_long(
        &page,
        "document.querySelector('.pdf-page-input').value === '2' && document.getElementById('page-2').dataset.state === 'painted'",
        60,
    )
    .await;
    let top = eval(&page, "document.getElementById('page-2').getBoundingClientRect().top - document.querySelector('.pdf-pages').getBoundingClientRect().top").await;
    // At the top of the pane, below the column's 12 px padding. (Before the column was
    // positioned, the jump measured from the page body and landed 72 px past the top.)
    let top = top.as_f64().unwrap();
    assert!(
        (top - 12.0).abs() < 1.5,
        "page 2 starts at the pane's top: {top}"
    );
    browser.close().await;
}
