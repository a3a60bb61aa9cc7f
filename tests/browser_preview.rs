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
