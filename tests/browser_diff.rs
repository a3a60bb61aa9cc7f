//! The diff viewer in real Chromium: hostile text stays inert, the toolbar toggles without
//! a reload, and collapsed unchanged lines expand in place.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use chromiumoxide::cdp::browser_protocol::page::EventJavascriptDialogOpening;
use common::browser::{eval, wait_for, TestBrowser};
use common::start;
use futures::StreamExt;
use serde_json::json;

const HOSTILE: &str = "</script><script>alert(1)</script><img src=x onerror=alert(2)>";

#[tokio::test(flavor = "multi_thread")]
async fn the_viewer_is_inert_and_interactive() {
    let s = start(|_| {}).await;
    let mut before = String::new();
    let mut after = String::new();
    for i in 0..80 {
        before.push_str(&format!("line {i} {HOSTILE}\n"));
        after.push_str(&if i == 40 {
            format!("changed {i} {HOSTILE}\n")
        } else {
            format!("line {i} {HOSTILE}\n")
        });
    }
    let r = s
        .post_json(
            "/api/v1/diffs",
            &json!({"before": before, "after": after, "path": format!("{HOSTILE}.txt"),
                    "title": HOSTILE, "mode": "view", "layout": "unified", "theme": "light"}),
        )
        .await;
    assert_eq!(r.status(), 200);
    let body: serde_json::Value = r.json().await.unwrap();
    let url = body["details"]["viewerUrl"].as_str().unwrap().to_string();

    let browser = TestBrowser::launch().await;
    let page = browser.browser.new_page("about:blank").await.unwrap();
    let dialogs = Arc::new(AtomicUsize::new(0));
    let mut events = page
        .event_listener::<EventJavascriptDialogOpening>()
        .await
        .unwrap();
    let seen = dialogs.clone();
    tokio::spawn(async move {
        while events.next().await.is_some() {
            seen.fetch_add(1, Ordering::SeqCst);
        }
    });
    page.goto(url.as_str()).await.unwrap();
    page.wait_for_navigation().await.unwrap();
    wait_for(&page, "document.querySelectorAll('tr.gap').length > 0").await;

    // Nothing hostile is live: only the viewer's two scripts (besides inert JSON data
    // blocks), no element with a handler.
    assert_eq!(
        eval(&page, "Array.from(document.scripts).filter(s => s.type !== 'application/json').map(s => s.getAttribute('src')).join(' ')").await,
        "../../assets/viewer-runtime.js ../../assets/viewer.js"
    );
    assert_eq!(
        eval(&page, "document.querySelectorAll('img').length").await,
        0
    );
    assert_eq!(
        eval(&page, "Array.from(document.querySelectorAll('*')).filter(e => Array.from(e.attributes).some(a => a.name.startsWith('on'))).length").await,
        0
    );
    let title = eval(&page, "document.querySelector('h1.title').textContent").await;
    assert_eq!(title, HOSTILE, "the title shows as text");

    // Toolbar toggles act without a reload: a marker set now survives them all.
    eval(&page, "window.__marker = 'kept'; true").await;
    eval(
        &page,
        "document.querySelector('button[data-set=layout][data-value=split]').click(); true",
    )
    .await;
    assert_eq!(
        eval(&page, "document.documentElement.dataset.layout").await,
        "split"
    );
    wait_for(&page, "document.querySelectorAll('tr td.num').length > 0").await;
    for toggle in ["wrap", "numbers", "bg"] {
        let get = format!("document.documentElement.dataset.{toggle}");
        let was = eval(&page, &get).await;
        eval(
            &page,
            &format!("document.querySelector('button[data-toggle={toggle}]').click(); true"),
        )
        .await;
        let now = eval(&page, &get).await;
        assert_ne!(now, was, "{toggle} toggled");
        assert!(now == "on" || now == "off", "{toggle}: {now}");
    }
    eval(
        &page,
        "document.querySelector('button[data-set=theme][data-value=dark]').click(); true",
    )
    .await;
    assert_eq!(
        eval(&page, "document.documentElement.dataset.theme").await,
        "dark"
    );
    eval(
        &page,
        "document.querySelector('button[data-set=layout][data-value=unified]').click(); true",
    )
    .await;
    assert_eq!(eval(&page, "window.__marker").await, "kept");

    // A collapsed run expands in place.
    let rows_before = eval(
        &page,
        "document.querySelectorAll('table.diff tbody tr:not(.gap)').length",
    )
    .await;
    let gaps_before = eval(&page, "document.querySelectorAll('tr.gap').length").await;
    eval(
        &page,
        "document.querySelector('tr.gap button.gap-label').click(); true",
    )
    .await;
    wait_for(
        &page,
        &format!(
            "document.querySelectorAll('table.diff tbody tr:not(.gap)').length > {rows_before}"
        ),
    )
    .await;
    let gaps_after = eval(&page, "document.querySelectorAll('tr.gap').length").await;
    assert!(gaps_after.as_u64().unwrap() < gaps_before.as_u64().unwrap());
    assert_eq!(eval(&page, "window.__marker").await, "kept");
    assert_eq!(dialogs.load(Ordering::SeqCst), 0, "a dialog opened");
    browser.close().await;
}

/// The colour a stylesheet rule for `.{class}` under `scope` sets, as Chromium reports it
/// (`rgb(r, g, b)`).
fn rule_color(css: &str, scope: &str, class: &str) -> String {
    let rule = format!("{scope}.{class} {{ color: #");
    let at = css.find(&rule).unwrap_or_else(|| panic!("no rule {rule}")) + rule.len();
    let hex = &css[at..at + 6];
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
    format!("rgb({}, {}, {})", byte(0), byte(2), byte(4))
}

#[tokio::test(flavor = "multi_thread")]
async fn syntax_colours_follow_the_theme_toggle() {
    let s = start(|_| {}).await;
    let r = s
        .post_json(
            "/api/v1/diffs",
            &json!({"before": "fn main() {\n    let x = 1;\n}\n",
                    "after": "fn main() {\n    let x = 2;\n}\n",
                    "path": "src/main.rs", "mode": "view", "theme": "light"}),
        )
        .await;
    assert_eq!(r.status(), 200);
    let body: serde_json::Value = r.json().await.unwrap();
    let url = body["details"]["viewerUrl"].as_str().unwrap().to_string();

    // What the highlighter says `let` and `=` are, in each theme.
    let line = previewd::highlight::highlight_lines("let x = 2;", None, "main.rs")
        .unwrap()
        .remove(0);
    let classes_of = |token: &str| -> Vec<String> {
        let end = line.find(&format!("\">{token}</span>")).unwrap();
        let start = line[..end].rfind("class=\"").unwrap() + 7;
        line[start..end].split(' ').map(str::to_string).collect()
    };
    let css = previewd::highlight::stylesheet();
    let keyword = classes_of("let");
    let light_class = keyword.iter().find(|c| c.starts_with("lc")).unwrap();
    let dark_class = keyword.iter().find(|c| c.starts_with("dc")).unwrap();
    let light = rule_color(css, "[data-theme=\"light\"] ", light_class);
    let dark = rule_color(css, "[data-theme=\"dark\"] ", dark_class);
    assert_ne!(light, dark);

    let browser = TestBrowser::launch().await;
    let page = browser.open(&url).await;
    let style_of = |prop: &str| {
        format!(
            "(() => {{ const s = Array.from(document.querySelectorAll('td.code span'))\
             .find(e => e.textContent === 'let'); return getComputedStyle(s).{prop}; }})()"
        )
    };
    wait_for(
        &page,
        "document.querySelectorAll('td.code span').length > 0",
    )
    .await;
    assert_eq!(eval(&page, &style_of("color")).await, light.as_str());
    eval(
        &page,
        "document.querySelector('button[data-set=theme][data-value=dark]').click(); true",
    )
    .await;
    assert_eq!(eval(&page, &style_of("color")).await, dark.as_str());

    // A style only the light theme gives (InspiredGitHub's bold keywords) is gone in dark.
    assert!(keyword.iter().any(|c| c == "lb") && !keyword.iter().any(|c| c == "db"));
    assert_eq!(eval(&page, &style_of("fontWeight")).await, "400");
    eval(
        &page,
        "document.querySelector('button[data-set=theme][data-value=light]').click(); true",
    )
    .await;
    assert_eq!(eval(&page, &style_of("fontWeight")).await, "700");
    browser.close().await;
}
