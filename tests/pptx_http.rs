//! PowerPoint decks through the service: the Slides view, model and media, and the viewer
//! in real Chromium (keys, counter, notes, deep links, lazy slides).

mod common;

use common::browser::{eval, wait_for, TestBrowser};
use common::{ids, start};

const BENCH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/bench");
const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/pptx");

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
    let page = s
        .get(&format!("/p/{id}/{token}/"))
        .await
        .text()
        .await
        .unwrap();
    assert!(page.contains("pptx.js"));
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

#[tokio::test(flavor = "multi_thread")]
async fn the_slides_viewer_navigates_lazily() {
    let s = start(|_| {}).await;
    s.write(
        "big.pptx",
        std::fs::read(format!("{BENCH}/deck-300s.pptx")).unwrap(),
    );
    let body = s.preview_ok("big.pptx").await;
    let url = body["url"].as_str().unwrap().to_string();
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
    let key = |k: &str| {
        format!("document.querySelector('[data-pptx]').dispatchEvent(new KeyboardEvent('keydown', {{key: '{k}', bubbles: true}})); true")
    };
    eval(&page, &key("ArrowRight")).await;
    assert_eq!(eval(&page, current).await, "2");
    eval(&page, &key("PageDown")).await;
    assert_eq!(eval(&page, current).await, "3");
    eval(&page, &key("End")).await;
    assert_eq!(eval(&page, current).await, "300");
    eval(&page, &key("Home")).await;
    assert_eq!(eval(&page, current).await, "1");
    eval(
        &page,
        "document.querySelector('[data-pptx-action=next]').click(); true",
    )
    .await;
    assert_eq!(eval(&page, current).await, "2");
    // The notes toggle shows the speaker notes of the current slide.
    eval(
        &page,
        "document.querySelector('[data-pptx-action=notes]').click(); true",
    )
    .await;
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
