//! PowerPoint decks through the service: the Slides view, model and media, and the viewer
//! in real Chromium (keys, counter, notes, deep links, lazy slides, early set-up on slide
//! 1, several decks on one page).

mod common;

use chromiumoxide::Page;
use common::browser::{eval, wait_for, TestBrowser};
use common::{ids, start, TestServer};
use previewd::office::pptx::{
    parse_pptx, render_html, RenderOptions, ViewerScript, STYLESHEET, VIEWER_CSS,
};
use previewd::office::OfficeLimits;

const BENCH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/bench");
const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/corpus/pptx");
const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/pptx");

#[tokio::test(flavor = "multi_thread")]
async fn a_deck_has_slides_a_model_and_media() {
    let s = start(|_| {}).await;
    s.write(
        "deck.pptx",
        std::fs::read(format!("{BENCH}/deck-80s.pptx")).unwrap(),
    );
    let body = s.preview_ok("deck.pptx").await;
    assert_eq!(body["kind"], "pptx");
    assert_eq!(body["views"][0]["name"], "slides");
    let (id, token) = ids(&body);
    let page = s.get_text(&format!("/p/{id}/{token}/")).await;
    // The viewer script comes from previewd's static files (the shell's CSP allows only
    // 'self' scripts), right after slide 1 and neither deferred nor async.
    let tag = format!(
        "<script src=\"../../../static/{}/pptx.js\"></script>",
        previewd::preview::assets::version()
    );
    assert_eq!(page.matches("pptx.js").count(), 1);
    let at = page.find(&tag).expect("the viewer script element");
    assert!(page[..at].ends_with("</section>"));
    assert!(page.find("id=\"slide-1\"").unwrap() < at);
    assert!(at < page.find("id=\"slide-2\"").unwrap());
    assert!(page.contains("data-pptx"));
    assert_eq!(page.matches("<section class=\"pptx-slide").count(), 80);
    let model: serde_json::Value = s
        .get(&format!("/p/{id}/{token}/model.json"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(model["slides"].as_array().unwrap().len(), 80);
    let media = model["media"].as_array().unwrap();
    assert!(!media.is_empty(), "the bench deck has pictures");
    let part = media[0]["part"].as_str().unwrap();
    let r = s.get(&format!("/p/{id}/{token}/media/{part}")).await;
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("image/"));
    for asset in ["pptx.js", "pptx.css", "pptx-viewer.css"] {
        assert_eq!(
            s.get(&format!("/static/{asset}")).await.status(),
            200,
            "{asset}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn every_corpus_deck_opens_or_is_refused_with_a_reason() {
    let s = start(|_| {}).await;
    let mut names: Vec<_> = std::fs::read_dir(CORPUS)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".pptx"))
        .collect();
    names.sort();
    assert!(names.len() > 20);
    for name in names {
        s.write(&name, std::fs::read(format!("{CORPUS}/{name}")).unwrap());
        let r = s.preview(&name).await;
        assert_eq!(r.status(), 201, "{name}");
        let body: serde_json::Value = r.json().await.unwrap();
        let page = s
            .get(&format!(
                "/p/{}/{}/",
                body["previewId"].as_str().unwrap(),
                body["token"].as_str().unwrap()
            ))
            .await;
        assert_eq!(page.status(), 200, "{name}");
    }
}

/// A service with the bench deck `name` in its workspace, and the URL of its snapshot.
async fn serve_bench_deck(name: &str) -> (TestServer, String) {
    serve_deck(BENCH, name).await
}

/// A service with the deck `folder/name` in its workspace, and the URL of its snapshot.
async fn serve_deck(folder: &str, name: &str) -> (TestServer, String) {
    let s = start(|_| {}).await;
    s.write(name, std::fs::read(format!("{folder}/{name}")).unwrap());
    let body = s.preview_ok(name).await;
    let url = body["url"].as_str().unwrap().to_string();
    (s, url)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_slides_viewer_navigates_lazily() {
    let (_server, url) = serve_bench_deck("deck-300s.pptx").await;
    let browser = TestBrowser::launch().await;
    let page = browser.open(&url).await;
    wait_for(
        &page,
        "document.querySelector('[data-pptx].pptx-js') !== null",
    )
    .await;
    let current = "document.querySelector('.pptx-current').textContent";
    assert_eq!(eval(&page, current).await, "1");
    assert_eq!(
        eval(&page, "document.querySelector('.pptx-counter').textContent").await,
        "1 / 300"
    );
    // Most slides are still templates: the deck opened without building 300 slides.
    let templates = eval(
        &page,
        "document.querySelectorAll('template.pptx-tpl').length",
    )
    .await;
    assert!(templates.as_u64().unwrap() > 250, "{templates}");
    let deck = "document.querySelector('[data-pptx]')";
    run(&page, &key_on(deck, "ArrowRight")).await;
    assert_eq!(eval(&page, current).await, "2");
    run(&page, &key_on(deck, "PageDown")).await;
    assert_eq!(eval(&page, current).await, "3");
    run(&page, &key_on(deck, "End")).await;
    assert_eq!(eval(&page, current).await, "300");
    run(&page, &key_on(deck, "Home")).await;
    assert_eq!(eval(&page, current).await, "1");
    click(&page, "document.querySelector('[data-pptx-action=next]')").await;
    assert_eq!(eval(&page, current).await, "2");
    // The notes toggle shows the speaker notes of the current slide.
    click(&page, "document.querySelector('[data-pptx-action=notes]')").await;
    assert_eq!(
        eval(
            &page,
            "document.querySelector('[data-pptx]').classList.contains('pptx-show-notes')"
        )
        .await,
        true
    );
    assert_eq!(
        eval(
            &page,
            "document.querySelector('[data-pptx-action=notes]').getAttribute('aria-pressed')"
        )
        .await,
        "true"
    );
    // A deep link opens that slide.
    let deep = browser.open(&format!("{url}#slide-12")).await;
    wait_for(&deep, "document.querySelector('.pptx-current') && document.querySelector('.pptx-current').textContent === '12'").await;
    let visible = eval(&deep, "(function(){ var s = document.getElementById('slide-12'); return !!s && s.getBoundingClientRect().width > 0; })()").await;
    assert_eq!(visible, true);
    browser.close().await;
}

/// Runs a statement in the page (a click, a key), its value ignored.
async fn run(page: &Page, statement: &str) {
    eval(page, &format!("{statement}; true")).await;
}

/// Clicks the element `element` evaluates to.
async fn click(page: &Page, element: &str) {
    run(page, &format!("{element}.click()")).await;
}

/// A statement that dispatches a keydown of `key` on the element `target` evaluates to.
fn key_on(target: &str, key: &str) -> String {
    format!("{target}.dispatchEvent(new KeyboardEvent('keydown', {{key: '{key}', bubbles: true}}))")
}

/// Run in each new document before the page's scripts: records the first moment a deck is
/// set up (`.pptx-js`), with what had been parsed by then, and any CSP violation.
const EARLY_PROBE: &str = r#"(function () {
  window.__csp = [];
  document.addEventListener("securitypolicyviolation", function (e) {
    window.__csp.push(e.violatedDirective + " " + e.blockedURI);
  });
  window.__early = {};
  new MutationObserver(function () {
    document.querySelectorAll("[data-pptx].pptx-js").forEach(function (root) {
      var key = root.getAttribute("data-id-prefix") || "-";
      if (window.__early[key]) return;
      var cur = root.querySelector(".pptx-slide.is-current");
      window.__early[key] = {
        loading: document.readyState === "loading",
        sections: document.querySelectorAll(".pptx-slide").length,
        decks: document.querySelectorAll("[data-pptx]").length,
        current: cur ? cur.id : null,
        counter: root.querySelector(".pptx-current").textContent,
        thumb: !!root.querySelector('.pptx-thumb.is-current[data-slide="1"] .pptx-thumb-view > .pptx-stage')
      };
    });
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });
})();"#;

#[tokio::test(flavor = "multi_thread")]
async fn the_viewer_is_set_up_on_slide_1_before_later_slides_are_parsed() {
    // The bug: pptx.js was deferred, so the viewer took over only after all 300 slides of
    // the page were parsed, and readiness grew with the deck's length.
    let (_server, url) = serve_bench_deck("deck-300s.pptx").await;
    let browser = TestBrowser::launch().await;
    let page = browser.open_with_init_script(&url, EARLY_PROBE).await;
    let early = eval(&page, "window.__early['-']").await;
    // Set up while the page was still being parsed, with slide 1 the only slide parsed,
    // shown, counted and marked in the rail.
    assert_eq!(early["loading"], true, "{early}");
    assert_eq!(early["sections"], 1, "{early}");
    assert_eq!(early["current"], "slide-1", "{early}");
    assert_eq!(early["counter"], "1", "{early}");
    assert_eq!(early["thumb"], true, "{early}");
    // Once parsed, the rest is completed: thumbnails near the top are filled lazily, the
    // last one is not.
    wait_for(&page, "document.querySelector('.pptx-thumb[data-slide=\"2\"] .pptx-thumb-view > .pptx-stage') !== null").await;
    assert_eq!(
        eval(&page, "document.querySelector('.pptx-thumb[data-slide=\"300\"] .pptx-thumb-view').childElementCount").await,
        0
    );
    let current = "document.querySelector('.pptx-current').textContent";
    let prev_disabled = "document.querySelector('[data-pptx-action=prev]').disabled";
    let next_disabled = "document.querySelector('[data-pptx-action=next]').disabled";
    assert_eq!(eval(&page, prev_disabled).await, true);
    assert_eq!(eval(&page, next_disabled).await, false);
    // Buttons, keys on the page (one deck: no focus needed), the rail and #slide-N links.
    click(&page, "document.querySelector('[data-pptx-action=next]')").await;
    assert_eq!(eval(&page, current).await, "2");
    run(&page, &key_on("document.body", "ArrowRight")).await;
    assert_eq!(eval(&page, current).await, "3");
    click(
        &page,
        "document.querySelector('.pptx-thumb[data-slide=\"40\"]')",
    )
    .await;
    assert_eq!(eval(&page, current).await, "40");
    assert_eq!(
        eval(&page, "window.location.hash").await,
        "#slide-40",
        "a rail click updates the link"
    );
    eval(&page, "window.location.hash = '#slide-7'; true").await;
    wait_for(&page, &format!("{current} === '7'")).await;
    let shown = "(function(){ var s = document.querySelector('.pptx-slide.is-current > .pptx-stage'); return s ? s.closest('.pptx-slide').id + ' ' + (s.getBoundingClientRect().width > 0) : null; })()";
    assert_eq!(eval(&page, shown).await, "slide-7 true");
    run(&page, &key_on("document.body", "End")).await;
    assert_eq!(eval(&page, current).await, "300");
    assert_eq!(eval(&page, next_disabled).await, true);
    assert_eq!(eval(&page, shown).await, "slide-300 true");
    // The script loaded under the shell's CSP without any violation.
    assert_eq!(eval(&page, "window.__csp").await, serde_json::json!([]));
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn two_decks_on_one_page_are_set_up_early_and_kept_apart() {
    // Each deck carries the viewer script after its first slide, as a standalone page does.
    let bytes = std::fs::read(format!("{BENCH}/deck-80s.pptx")).unwrap();
    let deck = parse_pptx(&bytes, &OfficeLimits::default()).unwrap();
    let render = |prefix: &str| {
        render_html(
            &deck,
            &RenderOptions {
                id_prefix: prefix.into(),
                script: ViewerScript::Inline,
                ..RenderOptions::default()
            },
        )
    };
    let page_html = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>{STYLESHEET}{VIEWER_CSS}.pptx.pptx-js{{height:420px}}</style></head><body>{}{}</body></html>",
        render("a-"),
        render("b-")
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("decks.html");
    std::fs::write(&file, page_html).unwrap();
    let url = format!("file://{}#b-slide-3", file.display());
    let browser = TestBrowser::launch().await;
    let page = browser.open_with_init_script(&url, EARLY_PROBE).await;
    // Deck a was set up right after its first slide, before deck b existed; deck b, asked
    // for its slide 3 by the link, once that slide was parsed.
    let early = eval(&page, "window.__early").await;
    assert_eq!(early["a-"]["loading"], true, "{early}");
    assert_eq!(early["a-"]["sections"], 1, "{early}");
    assert_eq!(early["a-"]["decks"], 1, "{early}");
    assert_eq!(early["a-"]["current"], "a-slide-1", "{early}");
    wait_for(
        &page,
        "document.querySelector('#b-slide-3.is-current') !== null",
    )
    .await;
    let counters = "Array.from(document.querySelectorAll('.pptx-current')).map(function (c) { return c.textContent; }).join(',')";
    assert_eq!(eval(&page, counters).await, "1,3");
    // Keys aimed at deck b move deck b only; buttons of deck a move deck a only.
    run(
        &page,
        &key_on("document.querySelectorAll('[data-pptx]')[1]", "ArrowRight"),
    )
    .await;
    assert_eq!(eval(&page, counters).await, "1,4");
    click(&page, "document.querySelector('[data-pptx-action=next]')").await;
    assert_eq!(eval(&page, counters).await, "2,4");
    // With two decks, a key pressed on the page itself belongs to neither.
    run(&page, &key_on("document.body", "ArrowRight")).await;
    assert_eq!(eval(&page, counters).await, "2,4");
    // Each deck's notes toggle is its own.
    click(
        &page,
        "document.querySelectorAll('[data-pptx-action=notes]')[1]",
    )
    .await;
    assert_eq!(
        eval(&page, "Array.from(document.querySelectorAll('[data-pptx]')).map(function (d) { return d.classList.contains('pptx-show-notes'); }).join(',')").await,
        "false,true"
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn calibri_text_is_laid_out_with_the_line_metrics_office_uses() {
    // Chromium lays Calibri and Carlito out with their hhea metrics (ascent + descent =
    // 1.0 em); Office uses the Windows ones (0.952 + 0.269 em), which put each baseline
    // ≈ 0.1 em lower in the line. The stylesheet's `pptx-calibri` face carries the latter.
    let (_server, url) = serve_bench_deck("deck-80s.pptx").await;
    let browser = TestBrowser::launch().await;
    let page = browser.open_with_init_script(&url, EARLY_PROBE).await;
    wait_for(&page, "document.fonts.status === 'loaded'").await;
    let ratio = "(function () { var s = document.querySelector('#slide-1 .pptx-p span'); var r = s.getBoundingClientRect(); return Math.round(1000 * r.height / parseFloat(getComputedStyle(s).fontSize)); })()";
    let ratio = eval(&page, ratio).await.as_i64().unwrap();
    assert!(
        (1205..=1235).contains(&ratio),
        "content height {ratio}/1000 em"
    );
    let family = eval(
        &page,
        "getComputedStyle(document.querySelector('#slide-1 .pptx-p span')).fontFamily",
    )
    .await;
    assert!(
        family.as_str().unwrap().starts_with("pptx-calibri"),
        "{family}"
    );
    // Local fonts are not blocked by the shell's CSP.
    assert_eq!(eval(&page, "window.__csp").await, serde_json::json!([]));
    browser.close().await;
}

/// Evaluates `script` in Chromium on a generated deck (`fixtures/pptx/generated`) served
/// by the real router, once the page and its fonts have loaded.
async fn eval_on_generated_deck(deck: &str, script: &str) -> serde_json::Value {
    let (_server, url) = serve_deck(&format!("{FIXTURES}/generated"), deck).await;
    let browser = TestBrowser::launch().await;
    let page = browser.open(&url).await;
    wait_for(
        &page,
        "document.readyState === 'complete' && document.fonts.status === 'loaded'",
    )
    .await;
    let value = eval(&page, script).await;
    browser.close().await;
    value
}

/// PowerPoint puts a line's baseline one fifth of the text size above the line's bottom,
/// whatever the face; CSS puts it where each face's ascent and descent split the line
/// (3 px higher for Calibri than for Tahoma at 40 pt). The generated deck has six faces
/// at single spacing and at exactly 60 pt: every baseline lands at 40 pt (1.2 × 40 − 8)
/// and 52 pt (60 − 8) below its box's top.
#[tokio::test(flavor = "multi_thread")]
async fn every_face_puts_its_baseline_where_powerpoint_does() {
    let offsets = eval_on_generated_deck(
        "line-baselines.pptx",
        r#"(() => {
            const stage = document.querySelector('#slide-1 .pptx-stage');
            const pt = stage.getBoundingClientRect().width / 720;
            return [...stage.querySelectorAll('.pptx-sp')].map((sp) => {
                const probe = document.createElement('span');
                probe.style.cssText = 'display:inline-block;width:0;height:0';
                sp.querySelector('.pptx-p span').appendChild(probe);
                const at = (probe.getBoundingClientRect().top - sp.getBoundingClientRect().top) / pt;
                return [sp.dataset.name, Math.round(at * 10) / 10];
            });
        })()"#,
    )
    .await;
    let offsets: Vec<(String, f64)> = serde_json::from_value(offsets).unwrap();
    assert_eq!(offsets.len(), 12, "{offsets:?}");
    for (i, (face, at)) in offsets.iter().enumerate() {
        let want = if i < 6 { 40.0 } else { 52.0 };
        // Chromium rounds each face's ascent, descent and line top to whole pixels
        // (about 0.8 pt at this stage size); without the correction Calibri's baseline
        // is 2.3 pt high.
        assert!(
            (at - want).abs() <= 1.2,
            "{face}: baseline {at} pt, not {want}: {offsets:?}"
        );
    }
}

/// Tab stops land where PowerPoint puts them, in Chromium: left, right, centred and
/// decimal stops counted from the text origin (not the paragraph's margin), default stops
/// every `defTabSz`, a stop the text has passed skipped, and a hanging indent's stop at
/// its margin (generated deck: `fixtures/pptx/generated/make.py`).
#[tokio::test(flavor = "multi_thread")]
async fn tabs_reach_their_stops() {
    // Per box: its name, the right edge of the text before the last tab, and the left
    // and right edges of the run after it, in points from the box's left edge.
    let boxes = eval_on_generated_deck(
        "tab-stops.pptx",
        r#"(() => {
            const stage = document.querySelector('#slide-1 .pptx-stage');
            const pt = stage.getBoundingClientRect().width / 720;
            return [...stage.querySelectorAll('.pptx-sp')].map((sp) => {
                const left = sp.getBoundingClientRect().left;
                const runs = [...sp.querySelectorAll('.pptx-p span:not([class])')];
                const at = (x) => Math.round((x - left) / pt * 10) / 10;
                const first = runs[0].getBoundingClientRect();
                const last = runs[runs.length - 1].getBoundingClientRect();
                return [sp.dataset.name, at(first.right), at(last.left), at(last.right)];
            });
        })()"#,
    )
    .await;
    let boxes: Vec<(String, f64, f64, f64)> = serde_json::from_value(boxes).unwrap();
    assert_eq!(boxes.len(), 7, "{boxes:?}");
    let get = |name: &str| boxes.iter().find(|b| b.0 == name).unwrap().clone();
    // The text origin is the box's edge plus its 0.1 in (7.2 pt) inset.
    let origin = 7.2;
    let near = |got: f64, want: f64, what: &str| {
        assert!(
            (got - want).abs() <= 1.0,
            "{what}: {got} pt, not {want}: {boxes:?}"
        )
    };
    near(get("left").2, origin + 144.0, "left stop at 2 in");
    near(get("right").3, origin + 288.0, "right stop at 4 in");
    let center = get("center");
    near(
        (center.2 + center.3) / 2.0,
        origin + 216.0,
        "centred stop at 3 in",
    );
    near(get("decimal").2, origin + 216.0, "decimal point at 3 in");
    near(get("skip").2, origin + 216.0, "the stop after a passed one");
    near(get("hanging").2, origin + 36.0, "a hanging indent's stop");
    // Default stops every 0.5 in: the first one past the text.
    let (_, end, x, _) = get("default");
    let stop = ((end - origin) / 36.0).floor() * 36.0 + 36.0;
    near(x, origin + stop, "the next default stop");
}

/// Opened on `#slide-N`, the viewer marks that slide current, and only that one: the page
/// marks slide 1 current for script-less readers, and both once showed (display: flex),
/// slide 1 under the target.
#[tokio::test(flavor = "multi_thread")]
async fn a_deep_link_leaves_exactly_one_slide_current() {
    let (_server, url) = serve_bench_deck("deck-80s.pptx").await;
    let browser = TestBrowser::launch().await;
    let page = browser.open(&format!("{url}#slide-5")).await;
    wait_for(
        &page,
        "!!document.querySelector('[data-pptx].pptx-js') && document.querySelector('.pptx-current').textContent === '5'",
    )
    .await;
    let state = eval(
        &page,
        r#"(() => {
            const shown = [...document.querySelectorAll('.pptx-slide')].filter((s) => getComputedStyle(s).display !== 'none');
            return {
                current: [...document.querySelectorAll('.pptx-slide.is-current')].map((s) => s.id),
                shown: shown.map((s) => s.id),
                thumbs: [...document.querySelectorAll('.pptx-thumb.is-current')].map((t) => t.dataset.slide),
                ariaCurrent: document.querySelectorAll('.pptx-thumb[aria-current]').length,
            };
        })()"#,
    )
    .await;
    assert_eq!(state["current"], serde_json::json!(["slide-5"]), "{state}");
    assert_eq!(state["shown"], serde_json::json!(["slide-5"]), "{state}");
    assert_eq!(state["thumbs"], serde_json::json!(["5"]), "{state}");
    assert_eq!(state["ariaCurrent"], 1, "{state}");
    browser.close().await;
}

/// A thumbnail is a clone of its slide: no id may then be on the page twice, and each
/// `url(#id)` inside a thumbnail must point into that same thumbnail (duplicates made
/// Chromium paint the slide's gradient shapes empty when the rail was hidden).
#[tokio::test(flavor = "multi_thread")]
async fn thumbnails_share_no_ids_with_their_slides() {
    let s = start(|_| {}).await;
    // Five linear gradients on slide 1 (python-pptx's shape test deck).
    let deck = std::fs::read(format!("{CORPUS}/python-pptx-shp-common-props.pptx")).unwrap();
    s.write("grad.pptx", deck);
    let url = s.preview_ok("grad.pptx").await["url"]
        .as_str()
        .unwrap()
        .to_string();
    let browser = TestBrowser::launch().await;
    let page = browser.open(&url).await;
    wait_for(
        &page,
        "document.readyState === 'complete' && !!document.querySelector('[data-pptx].pptx-js')",
    )
    .await;
    // Show every slide once, so every thumbnail is filled and every slide materialised.
    let count = eval(
        &page,
        "parseInt(document.querySelector('[data-pptx]').dataset.count, 10)",
    )
    .await;
    for n in 1..=count.as_u64().unwrap() {
        run(&page, &format!("location.hash = '#slide-{n}'")).await;
        wait_for(&page, &format!("document.querySelector('.pptx-current').textContent === '{n}' && !!document.querySelector('.pptx-thumb[data-slide=\"{n}\"] .pptx-thumb-view > .pptx-stage')")).await;
    }
    let ids = eval(
        &page,
        r#"(() => {
            const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
            const dup = [...new Set(ids.filter((v, i) => ids.indexOf(v) !== i))];
            const refs = [...document.querySelectorAll('.pptx-thumb-view [fill^="url(#"], .pptx-thumb-view [clip-path^="url(#"]')];
            const astray = refs.filter((el) => {
                const v = el.getAttribute('fill') || el.getAttribute('clip-path');
                const m = /url\(#([^)]+)\)/.exec(v);
                const target = m && document.getElementById(m[1]);
                return !target || target.closest('.pptx-thumb-view') !== el.closest('.pptx-thumb-view');
            }).length;
            const gradients = document.querySelectorAll('.pptx-slide linearGradient, .pptx-slide radialGradient').length;
            return { dup, refs: refs.length, astray, gradients };
        })()"#,
    )
    .await;
    browser.close().await;
    assert!(
        ids["gradients"].as_u64().unwrap() > 0,
        "the deck draws gradients: {ids}"
    );
    assert!(
        ids["refs"].as_u64().unwrap() > 0,
        "thumbnails refer to them: {ids}"
    );
    assert_eq!(ids["dup"], serde_json::json!([]), "{ids}");
    assert_eq!(ids["astray"], 0, "{ids}");
}

/// Rows of the tables on slide 1 of the page: `[stored, drawn]` heights in points, read
/// from each row's inline height and its box in Chromium.
const ROW_HEIGHTS: &str = "(function () { var st = document.querySelector('#slide-1 .pptx-stage'); var pt = st.getBoundingClientRect().width / parseFloat(getComputedStyle(st).getPropertyValue('--sw')); return Array.from(document.querySelectorAll('#slide-1 .pptx-tbl')).map(function (t) { return Array.from(t.rows).map(function (r) { var m = /\\*([0-9.]+)\\)/.exec(r.style.height); return [m ? parseFloat(m[1]) : -1, r.getBoundingClientRect().height / pt]; }); }); })()";

#[tokio::test(flavor = "multi_thread")]
async fn table_rows_keep_their_stored_height_when_the_text_fits() {
    // ShapeCrawler's table deck: six rows of 370 840 EMU (29.2 pt) with one 18 pt line
    // each (21.6 pt + 7.2 pt of cell margins), 1 pt borders. PowerPoint draws borders on
    // the grid lines, so a row is as tall as stored; in CSS a collapsed border adds half
    // its width to each side of the cell.
    let (_s, url) = serve_deck(FIXTURES, "shapecrawler-table-case004.pptx").await;
    let browser = TestBrowser::launch().await;
    let page = browser.open(&url).await;
    wait_for(&page, "document.fonts.status === 'loaded' && document.querySelector('#slide-1 .pptx-tbl') !== null").await;
    let tables = eval(&page, ROW_HEIGHTS).await;
    let first = tables[0].as_array().expect("a table on slide 1");
    assert_eq!(first.len(), 6, "{tables}");
    for row in first {
        let (stored, drawn) = (row[0].as_f64().unwrap(), row[1].as_f64().unwrap());
        assert!((stored - 29.2).abs() < 0.05, "{tables}");
        assert!(
            (drawn - stored).abs() < 0.15,
            "row drawn {drawn} pt, stored {stored} pt: {tables}"
        );
    }
    browser.close().await;
}

/// Boxes of slide 1's text paragraphs, in slide points from the text box's top left.
const COLUMN_BOXES: &str = "(function () { var st = document.querySelector('#slide-1 .pptx-stage'); var pt = st.getBoundingClientRect().width / parseFloat(getComputedStyle(st).getPropertyValue('--sw')); var tx = document.querySelector('#slide-1 .pptx-tx'); var o = tx.getBoundingClientRect(); return Array.from(tx.querySelectorAll('p')).map(function (p) { var r = p.getBoundingClientRect(); return [p.textContent.trim(), (r.left - o.left) / pt, (r.top - o.top) / pt, r.width / pt]; }); })()";

#[tokio::test(flavor = "multi_thread")]
async fn text_box_columns_fill_one_after_the_other() {
    // A 432 × 144 pt box in two columns 36 pt apart (numCol="2" spcCol="457200"), 7.2 pt
    // side insets: each column (432 − 14.4 − 36) / 2 = 190.8 pt wide. Eight 18 pt lines
    // are more than one column holds: the first column fills before the second starts.
    let (_s, url) = serve_deck(&format!("{FIXTURES}/generated"), "text-columns.pptx").await;
    let browser = TestBrowser::launch().await;
    let page = browser.open(&url).await;
    wait_for(&page, "document.fonts.status === 'loaded' && document.querySelector('#slide-1 .pptx-tx p') !== null").await;
    let paras = eval(&page, COLUMN_BOXES).await;
    browser.close().await;
    let rows: Vec<(String, f64, f64, f64)> = paras
        .as_array()
        .expect("paragraphs")
        .iter()
        .map(|p| {
            (
                p[0].as_str().unwrap().to_owned(),
                p[1].as_f64().unwrap(),
                p[2].as_f64().unwrap(),
                p[3].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(rows.len(), 8, "{paras}");
    let (first, second): (Vec<_>, Vec<_>) = rows.iter().partition(|r| r.1 < 100.0);
    // Filled in order: column 1 holds the first paragraphs (more than half of them),
    // column 2 the rest.
    assert!(first.len() > 4 && !second.is_empty(), "{paras}");
    assert!(first.iter().all(|r| r.0 < second[0].0), "{paras}");
    for r in &first {
        assert!(
            (r.1 - 7.2).abs() < 0.5 && (r.3 - 190.8).abs() < 0.5,
            "{paras}"
        );
    }
    for r in &second {
        assert!((r.1 - (7.2 + 190.8 + 36.0)).abs() < 0.5, "{paras}");
    }
    // The second column starts at the top again.
    assert!((second[0].2 - first[0].2).abs() < 0.5, "{paras}");
}

/// The HTML of slide `n` of ShapeCrawler's chart deck 021 as the real router serves
/// its page.
async fn deck_021_slide(n: usize) -> String {
    let charts = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/charts");
    let s = start(|_| {}).await;
    let deck = std::fs::read(format!("{charts}/shapecrawler-021.pptx")).unwrap();
    s.write("charts.pptx", deck);
    let body = s.preview_ok("charts.pptx").await;
    let (id, token) = ids(&body);
    let page = s.get_text(&format!("/p/{id}/{token}/")).await;
    let from = page
        .find(&format!("id=\"slide-{n}\""))
        .unwrap_or_else(|| panic!("slide {n}"));
    let to = page[from..]
        .find(&format!("id=\"slide-{}\"", n + 1))
        .map_or(page.len(), |k| from + k);
    page[from..to].to_owned()
}

/// A chart on a date axis with the year labels its author drew over it as text boxes
/// (`c:userShapes`; ShapeCrawler's deck 021, slide 2): the served slide draws the chart
/// and, over it, the four years.
#[tokio::test(flavor = "multi_thread")]
async fn shapes_drawn_over_a_chart_are_served_with_it() {
    let slide = deck_021_slide(2).await;
    let slide = slide.as_str();
    assert_eq!(
        slide.matches("<svg class=\"pptx-chart-svg\"").count(),
        2,
        "{slide}"
    );
    let mut at = Vec::new();
    for year in ["2010", "2011", "2012", "2013"] {
        at.push(
            slide
                .find(&format!(">{year}<"))
                .unwrap_or_else(|| panic!("{year}")),
        );
    }
    // Each one drawn after a chart (over it, in the chart's group).
    let first_chart = slide.find("<svg class=\"pptx-chart-svg\"").unwrap();
    assert!(
        at.iter().all(|k| *k > first_chart),
        "{at:?} after {first_chart}"
    );
}

/// The real deck's first slide marks a share on each column with a dot from an XY
/// series on its own 0–100 axis (`shapecrawler-021`, chart 1): served through the real
/// router, the chart draws the four dots and their labels and the minor gridlines.
#[tokio::test]
async fn xy_dots_over_columns_are_served_with_the_chart() {
    let slide = deck_021_slide(1).await;
    let chart = &slide[slide.find("<svg class=\"pptx-chart-svg\"").expect("chart")..];
    let chart = &chart[..chart.find("</svg>").unwrap()];
    assert_eq!(
        chart.matches("<circle class=\"marker\"").count(),
        4,
        "{chart}"
    );
    for label in ["44%", "77%", "79%", "20%"] {
        assert!(
            chart.contains(&format!(">{label}</text>")),
            "{label}: {chart}"
        );
    }
    // Minor gridlines in the deck's faint grey (tx1 at 5 %), under the major ones.
    assert!(chart.matches("stroke=\"#F2F2F2\"").count() >= 20, "{chart}");
}
