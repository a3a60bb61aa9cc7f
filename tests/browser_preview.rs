//! The HTML Preview sandbox and the Source view in real Chromium.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::browser::{eval, eval_in_frame, wait_for, TestBrowser};
use common::{start, tiny_png};

/// A listener that counts every connection made to it: the canary for escapes.
async fn canary() -> (u16, Arc<AtomicUsize>, Arc<std::sync::Mutex<Vec<String>>>) {
    use tokio::io::AsyncReadExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let hits = Arc::new(AtomicUsize::new(0));
    let lines = Arc::new(std::sync::Mutex::new(Vec::new()));
    let counter = hits.clone();
    let seen = lines.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            counter.fetch_add(1, Ordering::SeqCst);
            let seen = seen.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 1024];
                let n = socket.read(&mut buf).await.unwrap_or(0);
                let text = String::from_utf8_lossy(&buf[..n]);
                seen.lock()
                    .unwrap()
                    .push(text.lines().next().unwrap_or("").to_string());
            });
        }
    });
    (port, hits, lines)
}

fn agent_page(canary: u16) -> String {
    format!(
        r#"<!doctype html>
<html><head><title>agent page</title></head>
<body>
<h1 id="h">Agent page</h1>
<img id="dot" src="img/dot.png" alt="dot">
<a id="out" href="http://127.0.0.1:{canary}/link">a link</a>
<form id="f" action="http://127.0.0.1:{canary}/form" method="post"><input name="q" value="x"></form>
<script>
  var r = {{}};
  document.body.setAttribute('data-marker', 'scripts-ran');
  r.origin = String(self.origin);
  try {{ r.parent = parent.document.title; }} catch (e) {{ r.parent = 'denied'; }}
  try {{ r.cookie = document.cookie; }} catch (e) {{ r.cookie = 'denied'; }}
  try {{ top.location.href = 'http://127.0.0.1:{canary}/top'; r.top = 'attempted'; }} catch (e) {{ r.top = 'denied'; }}
  try {{ var w = window.open('http://127.0.0.1:{canary}/popup'); r.popup = w ? 'opened' : 'blocked'; }} catch (e) {{ r.popup = 'denied'; }}
  new Image().src = 'http://127.0.0.1:{canary}/img';
  fetch('http://127.0.0.1:{canary}/fetch').then(function () {{ r.fetch = 'ok'; done(); }}, function () {{ r.fetch = 'blocked'; done(); }});
  function done() {{ document.body.setAttribute('data-result', JSON.stringify(r)); }}
</script>
</body></html>"#
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn html_preview_runs_scripts_in_a_sandbox_that_reaches_nothing() {
    let (port, hits, lines) = canary().await;
    let s = start(|_| {}).await;
    s.write("site/index.html", agent_page(port));
    s.write("site/img/dot.png", tiny_png());
    // Another page of the workspace that takes the tab away if it is the top.
    s.write(
        "site/other.html",
        format!(
            "<!doctype html><title>other page</title><h1>Other</h1>\
             <script>if (window === top) {{ location.href = 'http://127.0.0.1:{port}/other-top'; }}\
             else {{ document.body.setAttribute('data-framed', 'yes'); }}</script>"
        ),
    );
    let body = s.preview_ok("site/index.html").await;
    let sha = body["sha256"].as_str().unwrap().to_string();
    let shell_url = body["url"].as_str().unwrap().to_string();

    let browser = TestBrowser::launch().await;
    let page = browser.open(&shell_url).await;

    // The page's own script ran inside the frame, and its relative image loaded.
    wait_for(&page, "document.querySelector('iframe.doc') !== null").await;
    let mut result = serde_json::Value::Null;
    for _ in 0..200 {
        result = eval_in_frame(
            &page,
            "site/index.html",
            "JSON.stringify({marker: document.body && document.body.getAttribute('data-marker'), result: document.body && document.body.getAttribute('data-result'), img: (function(i){ return i && i.complete ? i.naturalWidth : -1; })(document.getElementById('dot'))})",
        )
        .await;
        let parsed: serde_json::Value =
            serde_json::from_str(result.as_str().unwrap_or("{}")).unwrap_or_default();
        if parsed["result"].is_string() && parsed["img"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let parsed: serde_json::Value = serde_json::from_str(result.as_str().unwrap()).unwrap();
    assert_eq!(parsed["marker"], "scripts-ran", "scripts run: {parsed}");
    assert_eq!(parsed["img"], 1, "relative image loaded: {parsed}");
    let r: serde_json::Value = serde_json::from_str(parsed["result"].as_str().unwrap()).unwrap();
    assert_eq!(r["origin"], "null", "opaque origin: {r}");
    assert_eq!(r["parent"], "denied", "no access to the shell: {r}");
    assert_eq!(r["fetch"], "blocked", "no network: {r}");
    assert_ne!(r["popup"], "opened", "no popups: {r}");

    // Links and forms are inert: clicking and submitting goes nowhere.
    eval_in_frame(
        &page,
        "site/index.html",
        "document.getElementById('out').click(); try { document.getElementById('f').submit(); } catch (e) {} ; true",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;

    // The shell is unchanged and nothing reached the canary.
    assert_eq!(eval(&page, "location.href").await, shell_url.as_str());
    assert_eq!(
        eval(&page, "document.querySelector('.bar .name').textContent").await,
        "index.html"
    );
    let frame_url = eval(&page, "document.querySelector('iframe.doc').src").await;
    assert!(
        frame_url
            .as_str()
            .unwrap()
            .ends_with("/doc/site/index.html"),
        "{frame_url}"
    );
    assert_eq!(
        hits.load(Ordering::SeqCst),
        0,
        "the canary received {:?}",
        lines.lock().unwrap()
    );

    // The file changes on disk; Source still shows the snapshot, escaped, same SHA-256.
    s.write("site/index.html", "<p>rewritten</p>");
    eval(&page, "document.getElementById('tab-source').click(); true").await;
    wait_for(&page, "!document.getElementById('view-source').hidden").await;
    assert_eq!(
        eval(&page, "document.getElementById('view-preview').hidden").await,
        true
    );
    let source_text = eval(&page, "document.getElementById('source-code').textContent").await;
    let source_text = source_text.as_str().unwrap();
    assert!(
        source_text.contains("<h1 id=\"h\">Agent page</h1>"),
        "markup shown as text"
    );
    assert!(!source_text.contains("rewritten"));
    assert_eq!(
        eval(
            &page,
            "document.querySelectorAll('#source-code script').length"
        )
        .await,
        0
    );
    assert_eq!(
        eval(&page, "document.querySelector('.sha').dataset.sha256").await,
        sha.as_str()
    );
    assert!(eval(&page, "location.pathname")
        .await
        .as_str()
        .unwrap()
        .ends_with("/source"));

    // A fresh load of the Source URL is built from the same snapshot.
    let source_page = browser.open(&format!("{shell_url}source")).await;
    assert_eq!(
        eval(
            &source_page,
            "document.querySelector('.sha').dataset.sha256"
        )
        .await,
        sha.as_str()
    );
    let text = eval(
        &source_page,
        "document.getElementById('source-code').textContent",
    )
    .await;
    assert!(text.as_str().unwrap().contains("Agent page"));
    // The preview frame was never loaded on a page opened on Source.
    assert_eq!(
        eval(
            &source_page,
            "document.querySelector('iframe.doc').getAttribute('src')"
        )
        .await,
        serde_json::Value::Null
    );

    // Opening the document URL directly lands on the shell, which frames it in the
    // sandbox (there its attempt to navigate `top` fails as above).
    let direct = browser
        .open(&format!("{shell_url}doc/site/index.html"))
        .await;
    wait_for(&direct, "document.querySelector('iframe.doc') !== null").await;
    assert_eq!(
        eval(&direct, "location.href").await,
        format!("{shell_url}preview").as_str()
    );

    // So does another page of the workspace opened as a whole tab (a link followed from
    // the Markdown view, say): it gets its own fresh preview, framed in the sandbox,
    // instead of running at the top with the power to navigate the tab.
    let sibling = browser
        .open(&format!("{shell_url}doc/site/other.html"))
        .await;
    wait_for(&sibling, "document.querySelector('iframe.doc') !== null").await;
    let landed = eval(&sibling, "location.href").await;
    let landed = landed.as_str().unwrap();
    assert!(landed.contains("/p/") && landed.ends_with('/'), "{landed}");
    assert!(
        !landed.starts_with(shell_url.as_str()),
        "a new snapshot: {landed}"
    );
    assert!(
        eval(&sibling, "document.title")
            .await
            .as_str()
            .unwrap()
            .contains("other.html"),
        "the shell shows the other page"
    );
    let mut framed = serde_json::Value::Null;
    for _ in 0..200 {
        framed = eval_in_frame(
            &sibling,
            "/doc/",
            "document.body.getAttribute('data-framed')",
        )
        .await;
        if framed == "yes" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(framed, "yes", "the other page runs framed, not as the top");

    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        hits.load(Ordering::SeqCst),
        0,
        "the canary received {:?}",
        lines.lock().unwrap()
    );
    browser.close().await;
}

/// Opens the preview of `rel` in a fresh Chromium and waits for the shell's frame; returns
/// the browser, the tab and the preview URL.
async fn open_preview(
    s: &common::TestServer,
    rel: &str,
) -> (TestBrowser, chromiumoxide::Page, String) {
    let url = s.preview_ok(rel).await["url"].as_str().unwrap().to_string();
    let browser = TestBrowser::launch().await;
    let page = browser.open(&url).await;
    wait_for(&page, "document.querySelector('iframe.doc') !== null").await;
    (browser, page, url)
}

/// Evaluates `expression` (a string) in the frame whose URL contains `url_part` until
/// `done` holds of it (at most ~5 s); returns the last value.
async fn poll_frame(
    page: &chromiumoxide::Page,
    url_part: &str,
    expression: &str,
    done: impl Fn(&str) -> bool,
) -> String {
    let mut text = String::new();
    for _ in 0..100 {
        let value = eval_in_frame(page, url_part, expression).await;
        text = value.as_str().unwrap_or("").to_string();
        if done(&text) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    text
}

/// The canary's hits so far, with the request lines it read, for an assertion message.
fn hits_of(hits: &AtomicUsize, lines: &std::sync::Mutex<Vec<String>>) -> (usize, Vec<String>) {
    (hits.load(Ordering::SeqCst), lines.lock().unwrap().clone())
}

/// Hovers over, presses, releases (a click) at `(x, y)` of the tab, pausing after each so
/// that Chromium has time to warm up a connection if it would.
async fn hover_press_click(page: &chromiumoxide::Page, x: f64, y: f64) {
    use chromiumoxide::cdp::browser_protocol::input::{
        DispatchMouseEventParams, DispatchMouseEventType, MouseButton,
    };
    use chromiumoxide::layout::Point;
    page.move_mouse(Point { x, y }).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let press = DispatchMouseEventParams::builder()
        .x(x)
        .y(y)
        .button(MouseButton::Left)
        .click_count(1);
    page.execute(
        press
            .clone()
            .r#type(DispatchMouseEventType::MousePressed)
            .build()
            .unwrap(),
    )
    .await
    .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    page.execute(
        press
            .r#type(DispatchMouseEventType::MouseReleased)
            .build()
            .unwrap(),
    )
    .await
    .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
}

/// A page whose markup alone names the canary in every way that needs no script: resource
/// hints, a frame, a refresh, and links (an `<a>` with `ping`, an image map's `<area>`, an
/// SVG link, and one inside `<noscript>`) laid out in 40-pixel rows from the top.
fn markup_only_page(canary: u16) -> String {
    let c = format!("http://127.0.0.1:{canary}");
    format!(
        r##"<!doctype html><html><head>
<link rel="preconnect" href="{c}/">
<link rel="dns-prefetch" href="{c}/">
<link rel="prefetch" href="{c}/prefetch">
<link rel="prerender" href="{c}/prerender">
<meta http-equiv="refresh" content="1;url={c}/refresh">
<style>body{{margin:0}} .row{{position:absolute;left:0;width:300px;height:40px;display:block;background:#ddd}}</style>
</head><body>
<a class="row" style="top:0" href="{c}/link" ping="{c}/ping">link</a>
<img class="row" style="top:50px" src="img/dot.png" usemap="#m" alt="map">
<map name="m"><area shape="rect" coords="0,0,300,40" href="{c}/area" alt="area"></map>
<svg class="row" style="top:100px" width="300" height="40"><a href="{c}/svg-link"><rect width="300" height="40" fill="#88f"/></a></svg>
<noscript><a class="row" style="top:150px" href="{c}/noscript">noscript link</a></noscript>
<iframe style="position:absolute;top:200px;left:0;width:300px;height:60px" src="{c}/frame"></iframe>
</body></html>"##
    )
}

/// An SVG that names the canary in a link and in a `foreignObject` frame.
fn markup_only_svg(canary: u16) -> String {
    let c = format!("http://127.0.0.1:{canary}");
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200">
<a href="{c}/svg-raw-link"><rect width="300" height="40" fill="red"/></a>
<foreignObject y="60" width="400" height="120"><iframe xmlns="http://www.w3.org/1999/xhtml" src="{c}/fo-frame" width="300" height="100"></iframe></foreignObject>
</svg>"#
    )
}

/// Points the mouse at each 40-pixel row of [`markup_only_page`] in the preview frame.
async fn touch_every_row(page: &chromiumoxide::Page) {
    let rect = eval(
        page,
        "(function(){var r=document.querySelector('iframe.doc').getBoundingClientRect();return [r.left,r.top];})()",
    )
    .await;
    let (left, top) = (rect[0].as_f64().unwrap(), rect[1].as_f64().unwrap());
    for row in [0.0, 50.0, 100.0, 150.0] {
        hover_press_click(page, left + 20.0, top + row + 20.0).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn with_scripts_off_markup_opens_no_connection() {
    let (port, hits, lines) = canary().await;
    let s = start(|c| c.preview.html_scripts = false).await;
    s.write("site/index.html", markup_only_page(port));
    s.write("site/img/dot.png", tiny_png());
    s.write("site/pic.svg", markup_only_svg(port));
    let svg = s.preview_ok("site/pic.svg").await;
    let svg_url = svg["url"].as_str().unwrap().to_string();

    let (browser, page, page_url) = open_preview(&s, "site/index.html").await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    touch_every_row(&page).await;
    assert_eq!(hits_of(&hits, &lines), (0, vec![]), "the page");
    assert_eq!(eval(&page, "location.href").await, page_url.as_str());

    // The SVG, opened from its raw URL as a tab and from the page's `doc/` as a tab.
    for url in [
        format!("{svg_url}raw"),
        format!("{page_url}doc/site/pic.svg"),
    ] {
        let tab = browser.open(&url).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        hover_press_click(&tab, 20.0, 20.0).await;
        assert_eq!(hits_of(&hits, &lines), (0, vec![]), "{url}");
        if url.contains("/doc/") {
            // The page's tab on the SVG landed on the SVG's own shell, which shows it.
            wait_for(
                &tab,
                "(function(i){return !!i && i.complete && i.naturalWidth === 400;})(document.querySelector('figure.image img'))",
            )
            .await;
        }
    }
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn with_scripts_on_static_markup_opens_no_connection() {
    let (port, hits, lines) = canary().await;
    let s = start(|_| {}).await;
    let page = markup_only_page(port).replace(
        "</head>",
        &format!(
            "<script type=\"speculationrules\">{{\"prefetch\":[{{\"source\":\"list\",\"urls\":[\"http://127.0.0.1:{port}/speculation\"]}}]}}</script></head>"
        ),
    );
    s.write("site/index.html", page);
    s.write("site/img/dot.png", tiny_png());
    let page_url = s.preview_ok("site/index.html").await["url"]
        .as_str()
        .unwrap()
        .to_string();

    let browser = TestBrowser::launch().await;
    let page = browser.open(&page_url).await;
    wait_for(&page, "document.querySelector('iframe.doc') !== null").await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    touch_every_row(&page).await;
    assert_eq!(hits_of(&hits, &lines), (0, vec![]));
    assert_eq!(eval(&page, "location.href").await, page_url.as_str());
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_base_element_does_not_move_relative_loads() {
    let (port, hits, lines) = canary().await;
    let s = start(|_| {}).await;
    s.write(
        "site/index.html",
        format!(
            "<!doctype html><base href=\"http://127.0.0.1:{port}/\"><img id=\"dot\" src=\"img/dot.png\">\
             <script src=\"app.js\"></script>"
        ),
    );
    s.write("site/img/dot.png", tiny_png());
    s.write(
        "site/app.js",
        "document.documentElement.setAttribute('data-app', 'ran');",
    );
    let (browser, page, _) = open_preview(&s, "site/index.html").await;
    let state = poll_frame(
        &page,
        "/doc/site/index.html",
        "JSON.stringify([document.getElementById('dot').complete && document.getElementById('dot').naturalWidth, document.documentElement.getAttribute('data-app'), document.baseURI])",
        |t| t.starts_with("[1,\"ran\""),
    )
    .await;
    let state: serde_json::Value = serde_json::from_str(&state).unwrap();
    assert_eq!(
        state[0], 1,
        "the image loaded from the page's folder: {state}"
    );
    assert_eq!(
        state[1], "ran",
        "the script loaded from the page's folder: {state}"
    );
    assert!(
        state[2].as_str().unwrap().ends_with("/doc/site/index.html"),
        "{state}"
    );
    assert_eq!(hits_of(&hits, &lines), (0, vec![]));
    browser.close().await;
}

/// A real TrueType font to serve as a sibling: Debian's DejaVu Sans, which the README's
/// test command installs (with `fonts-dejavu-extra`).
fn system_font() -> Vec<u8> {
    let out = std::process::Command::new("fc-match")
        .args(["-f", "%{file}", "DejaVu Sans:style=Book"])
        .output()
        .expect("fc-match runs (fontconfig; the README's test command installs the fonts)");
    let path = String::from_utf8(out.stdout).unwrap();
    assert!(
        path.ends_with(".ttf"),
        "DejaVu Sans is installed (run the README's test command): {path}"
    );
    std::fs::read(path).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_sibling_font_and_module_script_load_in_the_sandbox() {
    let s = start(|_| {}).await;
    s.write(
        "site/index.html",
        "<!doctype html><style>@font-face{font-family:Sib;src:url(fonts/sib.ttf)}\
         p{font-family:Sib}</style><p id=\"p\">text</p>\
         <script type=\"module\" src=\"js/main.mjs\"></script>",
    );
    s.write("site/fonts/sib.ttf", system_font());
    s.write(
        "site/js/main.mjs",
        "import { mark } from './dep.mjs'; mark();",
    );
    s.write(
        "site/js/dep.mjs",
        "export function mark() { document.documentElement.setAttribute('data-module', 'ran'); }",
    );
    let (browser, page, _) = open_preview(&s, "site/index.html").await;
    let state = poll_frame(
        &page,
        "/doc/site/index.html",
        "(document.fonts.load('16px Sib').then(function(){}), JSON.stringify([Array.from(document.fonts).map(function(f){return f.status;}).join(), document.documentElement.getAttribute('data-module')]))",
        |t| t.contains("loaded") && t.contains("ran") || t.contains("error"),
    )
    .await;
    assert_eq!(
        state, "[\"loaded\",\"ran\"]",
        "the font and the module loaded"
    );
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn markdown_ids_leave_the_shell_alone_and_footnotes_work() {
    let s = start(|_| {}).await;
    let filler = "Filler paragraph.\n\n".repeat(80);
    s.write(
        "README.md",
        format!(
            "# Title\n\n<div id=\"view-source\">hostile</div>\n\n<p id=\"source-code\">hostile code</p>\n\n\
             <span id=\"tab-source\">hostile tab</span>\n\nA claim.[^1] See [the end](#the-end).\n\n{filler}## The end\n\n{filler}[^1]: The footnote.\n"
        ),
    );
    let url = s.preview_ok("README.md").await["url"]
        .as_str()
        .unwrap()
        .to_string();
    let browser = TestBrowser::launch().await;
    let page = browser.open(&url).await;

    // The Source tab still shows the source, and Preview comes back.
    eval(&page, "document.getElementById('tab-source').click(); true").await;
    wait_for(
        &page,
        "!document.querySelector('section.view-source').hidden",
    )
    .await;
    assert_eq!(
        eval(&page, "document.getElementById('view-source').tagName + ':' + document.getElementById('view-source').hidden").await,
        "SECTION:false"
    );
    let code = eval(&page, "document.getElementById('source-code').tagName + ':' + document.getElementById('source-code').textContent.indexOf('# Title')").await;
    assert_eq!(code, "PRE:0");
    assert_eq!(
        eval(
            &page,
            "document.querySelector('section.view-preview').hidden"
        )
        .await,
        true
    );
    eval(
        &page,
        "document.getElementById('tab-preview').click(); true",
    )
    .await;
    wait_for(
        &page,
        "!document.querySelector('section.view-preview').hidden",
    )
    .await;

    // A footnote reference targets and scrolls to its footnote (out of view before).
    let in_view = "(function(t){var r=t.getBoundingClientRect();return r.top >= 0 && r.bottom <= innerHeight;})";
    assert_eq!(
        eval(&page, &format!("{in_view}(document.querySelector('.footnote-definition, [id$=\"1\"]:not(sup)') || document.body.lastElementChild)")).await,
        false
    );
    eval(
        &page,
        "document.querySelector('.markdown sup a').click(); true",
    )
    .await;
    wait_for(&page, "location.hash !== ''").await;
    let hash = eval(&page, "location.hash").await;
    let target = eval(
        &page,
        &format!("(function(){{var t=document.querySelector(':target');return !!t && t.textContent.indexOf('The footnote') >= 0 && {in_view}(t);}})()"),
    )
    .await;
    assert_eq!(target, true, "the footnote is the target, in view ({hash})");
    // So does a link to a heading.
    eval(
        &page,
        "scrollTo(0, 0); document.querySelector('.markdown a[href$=\"the-end\"]').click(); true",
    )
    .await;
    let heading = eval(
        &page,
        "(function(){var t=document.querySelector(':target');return t && t.tagName + ':' + t.textContent;})()",
    )
    .await;
    assert_eq!(heading, "H2:The end");

    browser.close().await;
}

/// The HTML Preview's frame and the sheet grid fill the pane under the bar: a frame left at
/// Chromium's default 300 × 150 px, or a grid sized by its content, shows a sliver of a
/// page or workbook in a wide window.
#[tokio::test(flavor = "multi_thread")]
async fn framed_views_fill_the_pane_below_the_bar() {
    let s = start(|_| {}).await;
    s.write("table.csv", "name,value\nA,1\nB,2\n");
    s.write("page.html", "<!doctype html><p>hello</p>");
    for (rel, selector) in [("table.csv", ".sheet-viewer"), ("page.html", "iframe.doc")] {
        let url = s.preview_ok(rel).await["url"].as_str().unwrap().to_string();
        let browser = TestBrowser::launch().await;
        let page = browser.open(&url).await;
        wait_for(
            &page,
            &format!("document.querySelector('{selector}') !== null"),
        )
        .await;
        let sizes = eval(
            &page,
            &format!(
                "(function(){{var f=document.querySelector('section.view:not([hidden]) {selector}').getBoundingClientRect();\
                 var m=document.querySelector('main').getBoundingClientRect();\
                 return [Math.round(f.width), Math.round(m.width), Math.round(f.height), Math.round(m.height)];}})()"
            ),
        )
        .await;
        let v: Vec<i64> = sizes
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_i64().unwrap())
            .collect();
        assert!(v[1] > 600 && v[3] > 300, "{rel}: main is {v:?}");
        assert_eq!(v[0], v[1], "{rel}: frame width vs pane width");
        assert_eq!(v[2], v[3], "{rel}: frame height vs pane height");
        browser.close().await;
    }
}
