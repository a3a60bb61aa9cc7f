//! The `diffs` tool back end through a real listener: the contract's answers and messages,
//! URL precedence, the viewer's access rules, lifetime and restart.

mod common;

use common::start;
use serde_json::{json, Value};

async fn diff(s: &common::TestServer, body: Value) -> (u16, Value) {
    let r = s.post_json("/api/v1/diffs", &body).await;
    let status = r.status().as_u16();
    (status, r.json().await.unwrap())
}

fn message(body: &Value) -> &str {
    body["error"]["message"].as_str().unwrap_or("")
}

fn path_of(url: &str) -> String {
    let rest = url.split_once("://").unwrap().1;
    rest[rest.find('/').unwrap()..].to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn view_mode_makes_a_viewer_artifact() {
    let s = start(|_| {}).await;
    let (status, body) = diff(
        &s,
        json!({"before": "a\nb\nc\n", "after": "a\nB\nc\n", "path": "src/x.rs", "mode": "view",
               "context": {"agentId": "ag", "sessionId": "se", "messageChannel": "chan", "agentAccountId": "acc"}}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let d = &body["details"];
    assert_eq!(d["changed"], true);
    assert_eq!(d["title"], "src/x.rs");
    assert_eq!(d["inputKind"], "before_after");
    assert_eq!(d["fileCount"], 1);
    assert_eq!(d["mode"], "view");
    assert_eq!(d["context"]["agentId"], "ag");
    assert_eq!(d["context"]["agentAccountId"], "acc");
    let id = d["artifactId"].as_str().unwrap();
    assert_eq!(id.len(), 20);
    let viewer_path = d["viewerPath"].as_str().unwrap();
    assert!(viewer_path.starts_with(&format!("/plugins/diffs/view/{id}/")));
    assert_eq!(
        viewer_path.len(),
        "/plugins/diffs/view/".len() + 20 + 1 + 48
    );
    assert_eq!(d["viewerUrl"], format!("{}{viewer_path}", s.base));
    assert!(d["expiresAt"].as_str().unwrap().ends_with('Z'));
    assert!(d.get("fileError").is_none());

    let page = s.get(viewer_path).await;
    assert_eq!(page.status(), 200);
    assert_eq!(
        page.headers()["content-security-policy"],
        "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'none'; base-uri 'none'; frame-ancestors 'self'; object-src 'none'"
    );
    assert_eq!(page.headers()["cache-control"], "no-store, max-age=0");
    let html = page.text().await.unwrap();
    assert!(html.contains("src/x.rs"));
    assert!(html.contains("../../assets/viewer.js"));
    for asset in ["viewer.js", "viewer-runtime.js"] {
        let r = s.get(&format!("/plugins/diffs/assets/{asset}")).await;
        assert_eq!(r.status(), 200);
        assert_eq!(
            r.headers()["content-type"],
            "text/javascript; charset=utf-8"
        );
        assert!(r.text().await.unwrap().len() > 100);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_viewer_page_is_rendered_on_first_view_then_served_from_its_cache() {
    let s = start(|_| {}).await;
    let before: String = (0..300).map(|i| format!("let v{i} = {i};\n")).collect();
    let after = before.replace("let v150 = 150;", "let v150 = 4242;");
    let (status, body) = diff(
        &s,
        json!({"before": before, "after": after, "path": "src/lib.rs", "mode": "view", "theme": "light"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let id = body["details"]["artifactId"].as_str().unwrap();
    let path = body["details"]["viewerPath"].as_str().unwrap();
    let store = &s.state.diff_store;
    let recipe = store.file_path(id, "viewer-recipe.json").unwrap();
    let cached = store.file_path(id, "viewer.html").unwrap();
    assert!(recipe.is_file(), "the call stores what renders the page");
    assert!(
        !cached.exists(),
        "the page is not rendered before anyone opens it"
    );

    let first = s.get_text(path).await;
    assert!(first.contains("data-theme=\"light\""));
    assert!(first.contains("4242"));
    assert!(first.contains("<span class=\"lc"), "highlighted as Rust");
    assert_eq!(std::fs::read_to_string(&cached).unwrap(), first);

    // A lost cache is rendered again, byte for byte.
    std::fs::remove_file(&cached).unwrap();
    assert_eq!(s.get_text(path).await, first);
    // Later views are the cached file.
    std::fs::write(&cached, "cached page").unwrap();
    assert_eq!(s.get_text(path).await, "cached page");
    // A damaged recipe is a server error, never a page; the wrong token still reveals nothing.
    std::fs::remove_file(&cached).unwrap();
    std::fs::write(&recipe, "{").unwrap();
    assert_eq!(s.get(path).await.status(), 500);
    let wrong = format!("/plugins/diffs/view/{id}/{}", "0".repeat(48));
    assert_eq!(s.get(&wrong).await.status(), 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn identical_input_makes_nothing() {
    let s = start(|_| {}).await;
    let (status, body) = diff(&s, json!({"before": "same\n", "after": "same\n"})).await;
    assert_eq!(status, 200);
    assert_eq!(body["details"]["changed"], false);
    assert_eq!(
        body["details"]["message"],
        "Before and after are identical — no changes to render."
    );
    let entries = std::fs::read_dir(s.root.parent().unwrap().join("diffs"))
        .unwrap()
        .count();
    assert_eq!(entries, 0, "no artifact was made");
}

#[tokio::test(flavor = "multi_thread")]
async fn contract_messages_are_exact() {
    let s = start(|_| {}).await;
    let cases = [
        (
            json!({"patch": "x", "before": "a", "after": "b"}),
            "Provide either patch or before/after input, not both.",
        ),
        (
            json!({"before": "a"}),
            "Provide patch or both before and after text.",
        ),
        (json!({}), "Provide patch or both before and after text."),
        (
            json!({"before": "a".repeat(524_289), "after": "b"}),
            "before exceeds maximum size (524288 bytes).",
        ),
        (
            json!({"patch": "p".repeat(2_097_153)}),
            "patch exceeds maximum size (2097152 bytes).",
        ),
        (
            json!({"before": "a", "after": "b", "baseUrl": "ftp://x.example"}),
            "baseUrl must use http or https: ftp://x.example",
        ),
        (
            json!({"before": "a", "after": "b", "baseUrl": "https://x.example/?q=1"}),
            "baseUrl must not include query/hash: https://x.example/?q=1",
        ),
        (
            json!({"patch": "just some words\n"}),
            "Patch input did not contain any file diffs.",
        ),
    ];
    for (body, expected) in cases {
        let (status, answer) = diff(&s, body).await;
        assert_eq!(status, 400, "{answer}");
        assert_eq!(message(&answer), expected);
    }
    let mut many = String::new();
    for i in 0..129 {
        many.push_str(&format!("--- a/f{i}\n+++ b/f{i}\n@@ -1 +1 @@\n-a\n+b\n"));
    }
    let (status, answer) = diff(&s, json!({"patch": many})).await;
    assert_eq!(
        (status, message(&answer)),
        (400, "Patch input contains too many files (max 128).")
    );
    let mut long = String::from("--- a/big\n+++ b/big\n@@ -0,0 +1,120001 @@\n");
    for _ in 0..120_001 {
        long.push_str("+x\n");
    }
    let (status, answer) = diff(&s, json!({"patch": long})).await;
    assert_eq!(
        (status, message(&answer)),
        (
            400,
            "Patch input is too large to render (max 120000 lines)."
        )
    );
    // Unknown fields are refused, naming the field.
    let (status, answer) = diff(&s, json!({"before": "a", "after": "b", "colour": "red"})).await;
    assert_eq!(status, 400);
    assert!(message(&answer).contains("colour"), "{answer}");
}

#[tokio::test(flavor = "multi_thread")]
async fn base_url_precedence() {
    // Call baseUrl first.
    let s = start(|c| {
        c.diffs.viewer_base_url = Some("https://viewer.example/base/".into());
        c.public_origin = Some("https://public.example".into());
    })
    .await;
    let (_, body) = diff(&s, json!({"before": "a\n", "after": "b\n", "mode": "view", "baseUrl": "https://call.example/p/"})).await;
    assert!(
        body["details"]["viewerUrl"]
            .as_str()
            .unwrap()
            .starts_with("https://call.example/p/plugins/diffs/view/"),
        "{body}"
    );
    // Then the configured viewer base.
    let (_, body) = diff(&s, json!({"before": "a\n", "after": "b\n", "mode": "view"})).await;
    assert!(
        body["details"]["viewerUrl"]
            .as_str()
            .unwrap()
            .starts_with("https://viewer.example/base/plugins/diffs/view/"),
        "{body}"
    );
    // Then the public origin.
    let s = start(|c| c.public_origin = Some("https://public.example/".into())).await;
    let (_, body) = diff(&s, json!({"before": "a\n", "after": "b\n", "mode": "view"})).await;
    assert!(
        body["details"]["viewerUrl"]
            .as_str()
            .unwrap()
            .starts_with("https://public.example/plugins/diffs/view/"),
        "{body}"
    );
    // Then loopback with the port.
    let s = start(|_| {}).await;
    let (_, body) = diff(&s, json!({"before": "a\n", "after": "b\n", "mode": "view"})).await;
    assert!(
        body["details"]["viewerUrl"]
            .as_str()
            .unwrap()
            .starts_with(&format!(
                "http://127.0.0.1:{}/plugins/diffs/view/",
                s.addr.port()
            )),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn viewer_access_rules_in_contract_order() {
    let s = start(|c| {
        c.diffs.allow_remote_viewer = true;
        c.security.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    let local = |b: reqwest::RequestBuilder| b.header("x-forwarded-for", "127.0.0.1");
    let r = local(s.http.post(format!("{}/api/v1/diffs", s.base)))
        .json(&json!({"before": "a\n", "after": "b\n", "mode": "view"}))
        .send()
        .await
        .unwrap();
    let body: Value = r.json().await.unwrap();
    let path = body["details"]["viewerPath"].as_str().unwrap().to_string();
    let id = body["details"]["artifactId"].as_str().unwrap().to_string();

    let remote = |b: reqwest::RequestBuilder| b.header("x-forwarded-for", "203.0.113.50");
    // 405 before anything else that is not locality.
    let r = local(s.http.post(format!("{}{path}", s.base)))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 405);
    assert_eq!(r.text().await.unwrap(), "Method not allowed");
    // Malformed id / token: plain 404.
    let r = remote(s.http.get(format!("{}/plugins/diffs/view/xyz/abc", s.base)))
        .send()
        .await
        .unwrap();
    assert_eq!(
        (r.status().as_u16(), r.text().await.unwrap()),
        (404, "Diff not found".into())
    );
    // Wrong token: not found or expired.
    let wrong = format!("/plugins/diffs/view/{id}/{}", "0".repeat(48));
    let r = remote(s.http.get(format!("{}{wrong}", s.base)))
        .send()
        .await
        .unwrap();
    assert_eq!(
        (r.status().as_u16(), r.text().await.unwrap()),
        (404, "Diff not found or expired".into())
    );
    // The remote viewer works with the right token.
    let r = remote(s.http.get(format!("{}{path}", s.base)))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    // 40 failures within the window lock the client out; the success above cleared the
    // two before it.
    for _ in 0..40 {
        let r = remote(s.http.get(format!("{}{wrong}", s.base)))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 404);
    }
    let r = remote(s.http.get(format!("{}{path}", s.base)))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 429);
    assert!(r.headers().contains_key("retry-after"));
    assert_eq!(r.text().await.unwrap(), "Too Many Requests");
    // Even locked out, a wrong method is still 405 (checked first).
    let r = remote(s.http.delete(format!("{}{path}", s.base)))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 405);
    // HEAD equals GET.
    let get = local(s.http.get(format!("{}{path}", s.base)))
        .send()
        .await
        .unwrap();
    let get_len = get.bytes().await.unwrap().len();
    let head = local(s.http.head(format!("{}{path}", s.base)))
        .send()
        .await
        .unwrap();
    assert_eq!(
        head.headers()["content-length"].to_str().unwrap(),
        get_len.to_string()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn remote_viewers_get_nothing_by_default() {
    let s = start(|c| c.security.trusted_proxies = vec!["127.0.0.1".parse().unwrap()]).await;
    let r = s
        .http
        .post(format!("{}/api/v1/diffs", s.base))
        .header("x-forwarded-for", "127.0.0.1")
        .json(&json!({"before": "a\n", "after": "b\n", "mode": "view"}))
        .send()
        .await
        .unwrap();
    let body: Value = r.json().await.unwrap();
    let path = body["details"]["viewerPath"].as_str().unwrap().to_string();
    let r = s
        .http
        .get(format!("{}{path}", s.base))
        .header("x-forwarded-for", "198.51.100.7")
        .send()
        .await
        .unwrap();
    assert_eq!(
        (r.status().as_u16(), r.text().await.unwrap()),
        (404, "Diff not found".into())
    );
    // A forwarding header on loopback without a trusted proxy fails closed too.
    let s = start(|_| {}).await;
    let (_, body) = diff(&s, json!({"before": "a\n", "after": "b\n", "mode": "view"})).await;
    let path = body["details"]["viewerPath"].as_str().unwrap().to_string();
    let r = s
        .http
        .get(format!("{}{path}", s.base))
        .header("x-real-ip", "127.0.0.1")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn expired_artifacts_are_gone_and_live_ones_survive_a_restart() {
    let s = start(|_| {}).await;
    let (_, short) = diff(
        &s,
        json!({"before": "a\n", "after": "b\n", "mode": "view", "ttlSeconds": "1"}),
    )
    .await;
    let (_, long) = diff(&s, json!({"before": "a\n", "after": "c\n", "mode": "view"})).await;
    let short_url = path_of(short["details"]["viewerUrl"].as_str().unwrap());
    let long_path = long["details"]["viewerPath"].as_str().unwrap().to_string();
    assert_eq!(s.get(&short_url).await.status(), 200);
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let r = s.get(&short_url).await;
    assert_eq!(
        (r.status().as_u16(), r.text().await.unwrap()),
        (404, "Diff not found or expired".into())
    );
    let s = s.restart().await;
    assert_eq!(s.get(&long_path).await.status(), 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn file_mode_renders_a_png_and_no_viewer() {
    // The browser engine; tests/export_native.rs covers the default (native) one.
    let s = start(|c| c.export.engine = previewd::config::ExportEngine::Chromium).await;
    let health: Value = s.get("/healthz").await.json().await.unwrap();
    assert_eq!(
        health["browser"]["state"], "not_started",
        "healthz starts no browser"
    );
    let (status, body) = diff(
        &s,
        json!({"before": "a\nb\n", "after": "a\nc\n", "mode": "file", "fileScale": 1}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let d = &body["details"];
    assert!(d.get("viewerUrl").is_none(), "file mode makes no viewer");
    assert_eq!(d["fileFormat"], "png");
    assert_eq!(d["format"], "png");
    assert_eq!(d["fileQuality"], "standard");
    assert_eq!(d["imageQuality"], "standard");
    assert_eq!(d["fileScale"], 1.0);
    assert_eq!(d["fileMaxWidth"], 960);
    assert_eq!(d["imageMaxWidth"], 960);
    assert_eq!(d["path"], d["filePath"]);
    assert_eq!(d["imagePath"], d["filePath"]);
    let path = d["filePath"].as_str().unwrap();
    assert!(std::path::Path::new(path).is_absolute());
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(d["fileBytes"], bytes.len());
    assert_eq!(d["imageBytes"], bytes.len());
    let png = image::load_from_memory(&bytes).unwrap();
    assert_eq!(png.width(), 960, "the frame width at scale 1");
    let health: Value = s.get("/healthz").await.json().await.unwrap();
    assert_eq!(health["browser"]["state"], "ready");
    assert_eq!(health["export"]["renders"], 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn both_mode_returns_viewer_and_pdf() {
    let s = start(|_| {}).await;
    let (status, body) = diff(
        &s,
        json!({"before": "a\n", "after": "b\n", "mode": "both", "fileFormat": "pdf"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let d = &body["details"];
    assert!(d["viewerUrl"].is_string());
    assert_eq!(d["fileFormat"], "pdf");
    let bytes = std::fs::read(d["filePath"].as_str().unwrap()).unwrap();
    assert!(bytes.starts_with(b"%PDF-"));
    assert!(d.get("fileError").is_none());
    assert_eq!(s.get(d["viewerPath"].as_str().unwrap()).await.status(), 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn without_a_browser_file_mode_fails_and_both_keeps_the_viewer() {
    let s = start(|c| {
        c.browser.executable_path = Some("/nonexistent/chromium".into());
        c.export.engine = previewd::config::ExportEngine::Chromium;
    })
    .await;
    let (status, body) = diff(&s, json!({"before": "a\n", "after": "b\n", "mode": "file"})).await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["error"]["code"], "browser_unavailable");
    assert!(message(&body).starts_with("Diff PNG/PDF rendering requires a Chromium-compatible browser. Set browser.executablePath or install Chrome/Chromium. "), "{body}");
    let (status, body) = diff(&s, json!({"before": "a\n", "after": "b\n", "mode": "both"})).await;
    assert_eq!(status, 200);
    assert!(body["details"]["viewerUrl"].is_string());
    assert!(body["details"]["fileError"]
        .as_str()
        .unwrap()
        .starts_with("Diff PNG/PDF rendering requires"));
    assert_eq!(body["details"]["fileError"], body["details"]["imageError"]);
    assert!(body["details"].get("filePath").is_none());
}

/// A view call whose artifact has the same size for every `i` (only digits differ).
fn sized_call(i: usize, ttl: Option<&str>) -> Value {
    let lines = "line\n".repeat(800);
    let mut body = json!({
        "before": format!("{lines}{i:06}\n"),
        "after": format!("{lines}{:06}\n", i + 1),
        "path": "src/x.rs",
        "mode": "view",
    });
    if let Some(ttl) = ttl {
        body["ttlSeconds"] = ttl.into();
    }
    body
}

/// Bytes of every file under the server's diff data directory.
fn store_bytes(s: &common::TestServer) -> u64 {
    fn walk(dir: &std::path::Path) -> u64 {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let meta = std::fs::symlink_metadata(e.path()).unwrap();
                if meta.is_dir() {
                    walk(&e.path())
                } else {
                    meta.len()
                }
            })
            .sum()
    }
    walk(s.state.config.diffs.data_dir.as_ref().unwrap())
}

/// Folders (artifacts) in the server's diff data directory.
fn store_folders(s: &common::TestServer) -> usize {
    std::fs::read_dir(s.state.config.diffs.data_dir.as_ref().unwrap())
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_type().unwrap().is_dir())
        .count()
}

/// The store bytes one [`sized_call`] artifact takes, measured on a scratch server.
async fn one_artifact_bytes() -> u64 {
    let scratch = start(|_| {}).await;
    let (status, body) = diff(&scratch, sized_call(0, Some("1"))).await;
    assert_eq!(status, 200, "{body}");
    store_bytes(&scratch)
}

/// Asserts a `507 storage_full` JSON answer.
fn assert_storage_full(status: u16, body: &Value) {
    assert_eq!(status, 507, "{body}");
    assert_eq!(body["error"]["code"], "storage_full", "{body}");
    assert!(message(body).contains("diffs.max_total_bytes"), "{body}");
    assert!(!message(body).contains("/tmp"), "{body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_full_store_refuses_new_artifacts_until_old_ones_expire() {
    let one = one_artifact_bytes().await;
    let quota = 2 * one + one / 2;
    let s = start(|c| c.diffs.max_total_bytes = quota).await;
    // Four seconds of life: the steps before the sleep must all run before the first two
    // expire, with room for a loaded machine (one second was not enough under a full build).
    let (status, first) = diff(&s, sized_call(1, Some("4"))).await;
    assert_eq!(status, 200, "{first}");
    let (status, second) = diff(&s, sized_call(2, Some("4"))).await;
    assert_eq!(status, 200, "{second}");
    let (status, body) = diff(&s, sized_call(3, None)).await;
    assert_storage_full(status, &body);
    assert_eq!(store_folders(&s), 2, "a refused call leaves nothing behind");
    assert!(store_bytes(&s) <= quota);

    // Opening a viewer of a full store renders the page but does not cache it.
    let id = first["details"]["artifactId"].as_str().unwrap();
    let page = s
        .get_text(first["details"]["viewerPath"].as_str().unwrap())
        .await;
    assert!(page.contains("src/x.rs"));
    assert!(
        page.len() as u64 > quota - store_bytes(&s),
        "premise: the page does not fit in what is left"
    );
    let cached = s.state.diff_store.file_path(id, "viewer.html").unwrap();
    assert!(!cached.exists(), "a page was cached past the quota");

    // Once both have expired, the next call sweeps them and fits.
    tokio::time::sleep(std::time::Duration::from_millis(4100)).await;
    let (status, body) = diff(&s, sized_call(4, None)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(store_folders(&s), 1, "the expired artifacts were swept");
    // The new artifact's page is cached on its first view exactly when it fits.
    let id = body["details"]["artifactId"].as_str().unwrap();
    let room = quota - store_bytes(&s);
    let page = s
        .get_text(body["details"]["viewerPath"].as_str().unwrap())
        .await;
    let cached = s.state.diff_store.file_path(id, "viewer.html").unwrap();
    assert_eq!(cached.is_file(), page.len() as u64 <= room, "room {room}");
    assert!(store_bytes(&s) <= quota);
}

#[tokio::test(flavor = "multi_thread")]
async fn concurrent_calls_never_share_the_last_room() {
    let one = one_artifact_bytes().await;
    let quota = 2 * one + one / 2;
    let s = std::sync::Arc::new(start(|c| c.diffs.max_total_bytes = quota).await);
    let calls = (0..8).map(|i| {
        let s = s.clone();
        tokio::spawn(async move { diff(&s, sized_call(10 + i, None)).await })
    });
    let mut made = 0;
    for call in futures::future::join_all(calls).await {
        let (status, body) = call.unwrap();
        if status == 200 {
            made += 1;
        } else {
            assert_storage_full(status, &body);
        }
    }
    assert_eq!(made, 2, "exactly two artifacts fit");
    assert_eq!(store_folders(&s), 2);
    assert!(store_bytes(&s) <= quota);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_restart_counts_what_the_store_already_holds() {
    let one = one_artifact_bytes().await;
    let quota = 2 * one + one / 2;
    let s = start(|c| c.diffs.max_total_bytes = quota).await;
    for i in 0..2 {
        let (status, body) = diff(&s, sized_call(i, None)).await;
        assert_eq!(status, 200, "{body}");
    }
    let s = s.restart().await;
    let (status, body) = diff(&s, sized_call(5, None)).await;
    assert_storage_full(status, &body);
    assert_eq!(store_folders(&s), 2);
}
