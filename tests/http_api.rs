//! The HTTP service through a real listener: snapshots, views, errors, headers, methods,
//! access rules and throttling.

mod common;

use common::{error_of, ids, start, tiny_png};
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn html_snapshot_lists_its_views_and_serves_them_from_one_read() {
    let s = start(|_| {}).await;
    s.write(
        "site/page.html",
        "<!doctype html><h1>Hello</h1><img src=\"img/dot.png\">",
    );
    s.write("site/img/dot.png", tiny_png());
    let body = s.preview_ok("site/page.html").await;
    assert_eq!(body["kind"], "html");
    assert_eq!(body["name"], "page.html");
    assert_eq!(body["relativePath"], "site/page.html");
    assert_eq!(
        body["size"],
        "<!doctype html><h1>Hello</h1><img src=\"img/dot.png\">".len()
    );
    assert_eq!(body["sha256"].as_str().unwrap().len(), 64);
    assert!(body["expiresAt"].as_str().unwrap().ends_with('Z'));
    let views: Vec<&str> = body["views"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(views, ["preview", "source"]);
    let (id, token) = ids(&body);
    assert_eq!(body["url"], format!("{}/p/{id}/{token}/", s.base));

    // The file changes on disk after the snapshot was made.
    s.write("site/page.html", "<!doctype html><h1>CHANGED</h1>");

    let shell = s.get(&format!("/p/{id}/{token}/")).await;
    assert_eq!(shell.status(), 200);
    let csp = shell.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        csp.starts_with("default-src 'none'; script-src 'self'"),
        "{csp}"
    );
    let html = shell.text().await.unwrap();
    assert!(html.contains("sandbox=\"allow-scripts\""), "{html}");
    assert!(!html.contains("allow-same-origin"));
    assert!(html.contains(body["sha256"].as_str().unwrap()));

    let source = s.get_text(&format!("/p/{id}/{token}/source")).await;
    assert!(
        source.contains("Hello"),
        "source shows the snapshot, not the changed file"
    );
    assert!(!source.contains("CHANGED"));
    assert!(!source.contains("<h1>Hello"), "markup is escaped");
    assert!(source.contains(body["sha256"].as_str().unwrap()));

    let doc = s.get(&format!("/p/{id}/{token}/doc/site/page.html")).await;
    assert_eq!(doc.status(), 200);
    assert_eq!(
        doc.headers()["content-security-policy"],
        "sandbox allow-scripts; default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; media-src 'self' data: blob:; connect-src 'none'; form-action 'none'; frame-ancestors 'self'"
    );
    // No CORS grant for the page itself (only opaque-origin font and script requests).
    assert!(doc.headers().get("access-control-allow-origin").is_none());
    let text = doc.text().await.unwrap();
    assert!(text.contains("<h1>Hello</h1>"));
    assert!(
        text.starts_with("<!doctype html><script>"),
        "bootstrap after the doctype"
    );

    let img = s
        .get(&format!("/p/{id}/{token}/doc/site/img/dot.png"))
        .await;
    assert_eq!(img.status(), 200);
    assert_eq!(img.headers()["content-type"], "image/png");
    assert_eq!(img.bytes().await.unwrap().as_ref(), tiny_png().as_slice());
}

#[tokio::test(flavor = "multi_thread")]
async fn sibling_reads_stay_inside_the_workspace() {
    let s = start(|_| {}).await;
    s.write("page.html", "<p>x</p>");
    s.write_outside("secret.txt", "SECRET");
    std::os::unix::fs::symlink(s.outside.join("secret.txt"), s.root.join("leak.txt")).unwrap();
    let (id, token) = ids(&s.preview_ok("page.html").await);
    for path in [
        "leak.txt",
        "missing.png",
        "..%2fsecret.txt",
        "%2e%2e/outside/secret.txt",
    ] {
        let r = s.get(&format!("/p/{id}/{token}/doc/{path}")).await;
        assert_eq!(r.status(), 404, "{path}");
        assert!(!r.text().await.unwrap().contains("SECRET"));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn wrong_tokens_and_malformed_ids_look_like_missing_snapshots() {
    let s = start(|_| {}).await;
    s.write("a.txt", "a");
    let (id, token) = ids(&s.preview_ok("a.txt").await);
    let wrong = format!(
        "{}{}",
        &token[..47],
        if token.ends_with('0') { "1" } else { "0" }
    );
    for path in [
        format!("/p/{id}/{wrong}/"),
        format!("/p/{id}/{}/", token.to_uppercase()),
        format!("/p/{}/{token}/", "0".repeat(20)),
        format!("/p/short/{token}/"),
        format!("/p/{id}/{token}/nosuchview"),
        format!("/p/{id}/{token}/preview"),
    ] {
        assert_eq!(
            error_of(s.get(&path).await).await,
            (404, "not_found".into()),
            "{path}"
        );
    }
    assert_eq!(s.get(&format!("/p/{id}/{token}/")).await.status(), 200);

    // Without the trailing slash a live snapshot redirects to its folder form; anything
    // else is missing, and a decoded `//host` never reaches `Location`.
    let r = s.get(&format!("/p/{id}/{token}")).await;
    assert_eq!(r.status(), 303);
    assert_eq!(r.headers()["location"], format!("{token}/").as_str());
    for path in [
        format!("/p/{id}/{wrong}"),
        "/p/0123/%2F%2Fevil.example".to_string(),
        format!("/p/{id}/https:%2F%2Fevil.example"),
    ] {
        let r = s.get(&path).await;
        assert!(r.headers().get("location").is_none(), "{path}");
        assert_eq!(error_of(r).await, (404, "not_found".into()), "{path}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn workspace_pages_opened_as_a_tab_get_their_own_framed_preview() {
    let s = start(|_| {}).await;
    s.write("site/index.html", "<p>index</p>");
    s.write(
        "site/logo.svg",
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>1</script></svg>",
    );
    s.write("site/app.js", "let x = 1;");
    let (id, token) = ids(&s.preview_ok("site/index.html").await);
    let as_tab = |path: &str| {
        s.http
            .get(format!("{}/p/{id}/{token}/doc/{path}", s.base))
            .header("sec-fetch-dest", "document")
    };
    for (path, view) in [("site/logo.svg", "image"), ("site/index.html", "preview")] {
        let r = as_tab(path).send().await.unwrap();
        assert_eq!(r.status(), 303, "{path}");
        let location = r.headers()["location"].to_str().unwrap().to_string();
        let shell = reqwest::Url::parse(&format!("{}/p/{id}/{token}/doc/{path}", s.base))
            .unwrap()
            .join(&location)
            .unwrap();
        if path == "site/index.html" {
            // The page itself: back to its own shell.
            assert_eq!(location, "../../preview");
        } else {
            assert!(!shell.path().contains(&token), "a fresh snapshot: {shell}");
        }
        let page = s.http.get(shell.clone()).send().await.unwrap();
        assert_eq!(page.status(), 200, "{shell}");
        assert!(page.text().await.unwrap().contains(view), "{shell}");
    }
    // Scripts and images are not pages: served as before, under the sandbox CSP.
    let r = as_tab("site/app.js").send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .starts_with("sandbox"));
    // Framed (no fetch metadata saying otherwise), the sibling SVG is just served.
    let r = s.get(&format!("/p/{id}/{token}/doc/site/logo.svg")).await;
    assert_eq!(r.status(), 200);
}

/// One raw HTTP/1.1 request on a fresh connection; the whole response as text.
async fn raw_request(addr: std::net::SocketAddr, target: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    stream.read_to_end(&mut out).await.unwrap();
    String::from_utf8_lossy(&out).into_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn unmatched_paths_with_any_characters_get_a_404() {
    let s = start(|_| {}).await;
    // Raw UTF-8 in the request target (hyper accepts it), after doubled slashes: the
    // request log's route family once sliced such a path inside a character and panicked.
    for target in ["//\u{e9}/x", "/\u{e9}\u{e9}/x", "///\u{1F600}/y", "//ab/x"] {
        let response = raw_request(s.addr, target).await;
        assert!(response.starts_with("HTTP/1.1 404"), "{target}: {response}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn expired_snapshots_are_gone() {
    let s = start(|c| c.snapshots.ttl_seconds = 1).await;
    s.write("a.txt", "a");
    let (id, token) = ids(&s.preview_ok("a.txt").await);
    assert_eq!(s.get(&format!("/p/{id}/{token}/")).await.status(), 200);
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    assert_eq!(
        error_of(s.get(&format!("/p/{id}/{token}/")).await).await,
        (404, "not_found".into())
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_bodies_get_clear_codes() {
    let s = start(|_| {}).await;
    let post_raw = |body: &'static str| {
        s.http
            .post(format!("{}/api/v1/previews", s.base))
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    for body in ["{", "[]", "not json", ""] {
        assert_eq!(
            error_of(post_raw(body).await.unwrap()).await,
            (400, "invalid_request".into()),
            "{body}"
        );
    }
    let missing = s
        .post_json("/api/v1/previews", &json!({"workspaceRoot": s.root_str()}))
        .await;
    assert_eq!(error_of(missing).await, (400, "invalid_request".into()));
    let unknown = s
        .post_json(
            "/api/v1/previews",
            &json!({"workspaceRoot": s.root_str(), "relativePath": "a", "extra": 1}),
        )
        .await;
    let body: serde_json::Value = unknown.json().await.unwrap();
    assert_eq!(body["error"]["code"], "invalid_request");
    assert!(body["error"]["message"].as_str().unwrap().contains("extra"));
    let wrong_type = s
        .post_json(
            "/api/v1/previews",
            &json!({"workspaceRoot": 5, "relativePath": "a"}),
        )
        .await;
    assert_eq!(error_of(wrong_type).await, (400, "invalid_request".into()));
}

#[tokio::test(flavor = "multi_thread")]
async fn stat_reports_metadata_without_bytes() {
    let s = start(|_| {}).await;
    s.write("docs/r.md", "# hi\n");
    let r = s
        .post_json(
            "/api/v1/stat",
            &json!({"workspaceRoot": s.root_str(), "relativePath": "docs/r.md"}),
        )
        .await;
    assert_eq!(r.status(), 200);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["size"], 5);
    assert_eq!(body["kind"], "markdown");
    assert_eq!(body["name"], "r.md");
    assert!(body["mtimeMs"].as_u64().unwrap() > 1_600_000_000_000);
    assert!(body.get("sha256").is_none());
    let missing = s
        .post_json(
            "/api/v1/stat",
            &json!({"workspaceRoot": s.root_str(), "relativePath": "nope"}),
        )
        .await;
    assert_eq!(error_of(missing).await, (404, "not_found".into()));
}

#[tokio::test(flavor = "multi_thread")]
async fn methods_head_and_headers() {
    let s = start(|_| {}).await;
    s.write("a.rs", "fn main() {}\n");
    let (id, token) = ids(&s.preview_ok("a.rs").await);
    let r = s.get("/api/v1/previews").await;
    assert_eq!(error_of(r).await, (405, "method_not_allowed".into()));
    let r = s
        .http
        .delete(format!("{}/p/{id}/{token}/", s.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 405);

    for path in [
        format!("/p/{id}/{token}/"),
        format!("/p/{id}/{token}/raw"),
        "/healthz".to_string(),
        "/static/shell.js".to_string(),
        "/nope".to_string(),
    ] {
        let get = s.get(&path).await;
        let get_headers = get.headers().clone();
        let get_body = get.bytes().await.unwrap();
        let head = s
            .http
            .head(format!("{}{path}", s.base))
            .send()
            .await
            .unwrap();
        assert_eq!(
            head.status().as_u16(),
            if path == "/nope" { 404 } else { 200 }
        );
        assert_eq!(
            head.headers()["content-length"].to_str().unwrap(),
            get_body.len().to_string(),
            "{path}"
        );
        assert_eq!(head.headers()["content-type"], get_headers["content-type"]);
        assert!(head.bytes().await.unwrap().is_empty());
        for (name, value) in [
            ("cache-control", "no-store, max-age=0"),
            ("x-content-type-options", "nosniff"),
            ("referrer-policy", "no-referrer"),
        ] {
            assert_eq!(get_headers[name], value, "{path} {name}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn forwarded_requests_on_loopback_fail_closed() {
    let s = start(|_| {}).await;
    s.write("a.txt", "a");
    for header in [
        "x-forwarded-for",
        "x-real-ip",
        "forwarded",
        "x-forwarded-host",
        "x-forwarded-proto",
    ] {
        let r = s
            .http
            .post(format!("{}/api/v1/previews", s.base))
            .header(header, "127.0.0.1")
            .json(&json!({"workspaceRoot": s.root_str(), "relativePath": "a.txt"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 404, "{header}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn remote_clients_need_the_bearer_token_and_are_throttled() {
    // The test client reaches the server through a trusted proxy (loopback) that names a
    // remote client, so the remote rules apply deterministically on any machine.
    let s = start(|c| {
        c.security.allow_remote = true;
        c.security.api_token = Some("s3cret-token".into());
        c.security.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    s.write("a.txt", "a");
    let remote = |ip: &'static str| {
        let mut h = reqwest::header::HeaderMap::new();
        h.insert("x-forwarded-for", ip.parse().unwrap());
        h
    };
    let body = json!({"workspaceRoot": s.root_str(), "relativePath": "a.txt"});
    let r = s
        .http
        .post(format!("{}/api/v1/previews", s.base))
        .headers(remote("203.0.113.7"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(error_of(r).await, (401, "unauthorized".into()));
    let r = s
        .http
        .post(format!("{}/api/v1/previews", s.base))
        .headers(remote("203.0.113.7"))
        .bearer_auth("s3cret-token")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
    let (id, token) = ids(&r.json().await.unwrap());
    // The tokenized view needs no bearer token.
    let view = s.get_as(&format!("/p/{id}/{token}/"), "203.0.113.7").await;
    assert_eq!(view.status(), 200);

    let wrong = format!("/p/{id}/{}/", "0".repeat(48));
    let miss = |ip: &'static str| s.get_as(&wrong, ip);
    // 39 misses, then a success clears the count.
    for _ in 0..39 {
        assert_eq!(miss("203.0.113.8").await.status(), 404);
    }
    let ok = s.get_as(&format!("/p/{id}/{token}/"), "203.0.113.8").await;
    assert_eq!(ok.status(), 200);
    for _ in 0..39 {
        assert_eq!(miss("203.0.113.8").await.status(), 404);
    }
    // The 40th miss within the window locks the client out.
    assert_eq!(miss("203.0.113.8").await.status(), 404);
    let locked = miss("203.0.113.8").await;
    assert_eq!(locked.status(), 429);
    let retry: u64 = locked.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry));
    // Even a right token is refused while locked out; other clients are unaffected.
    let still = s.get_as(&format!("/p/{id}/{token}/"), "203.0.113.8").await;
    assert_eq!(still.status(), 429);
    assert_eq!(miss("203.0.113.9").await.status(), 404);
    // Loopback (here: the proxy naming a loopback client) is never counted.
    for _ in 0..50 {
        assert_eq!(miss("127.0.0.1").await.status(), 404);
    }
    let local = s.get_as(&format!("/p/{id}/{token}/"), "127.0.0.1").await;
    assert_eq!(local.status(), 200);
    // Behind a trusted proxy, a request without a client address fails closed.
    assert_eq!(s.get(&format!("/p/{id}/{token}/")).await.status(), 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn remote_clients_get_nothing_by_default() {
    let s = start(|c| c.security.trusted_proxies = vec!["127.0.0.1".parse().unwrap()]).await;
    s.write("a.txt", "a");
    let created = s
        .http
        .post(format!("{}/api/v1/previews", s.base))
        .header("x-forwarded-for", "127.0.0.1")
        .json(&json!({"workspaceRoot": s.root_str(), "relativePath": "a.txt"}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let (id, token) = ids(&created.json().await.unwrap());
    let r = s
        .http
        .get(format!("{}/p/{id}/{token}/", s.base))
        .header("x-forwarded-for", "198.51.100.1")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn browser_entry_redirects_to_a_fresh_snapshot() {
    let s = start(|_| {}).await;
    s.write("docs/guide.md", "# Guide\n");
    let r = s.get("/w/ws/docs/guide.md").await;
    assert_eq!(r.status(), 303);
    let location = r.headers()["location"].to_str().unwrap().to_string();
    assert!(location.starts_with("../../../p/"), "{location}");
    let target = reqwest::Url::parse(&format!("{}/w/ws/docs/guide.md", s.base))
        .unwrap()
        .join(&location)
        .unwrap();
    let page = s.http.get(target).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains(">Guide</h1>"));
    assert_eq!(
        error_of(s.get("/w/nope/docs/guide.md").await).await,
        (403, "unknown_workspace".into())
    );
    assert_eq!(
        error_of(s.get("/w/ws/docs/missing.md").await).await,
        (404, "not_found".into())
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn markdown_renders_without_active_content() {
    let s = start(|_| {}).await;
    s.write(
        "n.md",
        "# Title\n\n<script>window.pwned=1</script>\n\n[click](javascript:alert(1))\n\n<img src=x onerror=alert(1)>\n\n<a href=\"https://example.com\" onclick=\"x()\">ext</a>\n\n- [x] task\n",
    );
    let (id, token) = ids(&s.preview_ok("n.md").await);
    let html = s.get_text(&format!("/p/{id}/{token}/preview")).await;
    let article = &html[html.find("<article").unwrap()..html.find("</article>").unwrap()];
    let lower = article.to_ascii_lowercase();
    assert!(lower.contains("<h1 id=\"user-content-title\">title</h1>"));
    for bad in ["<script", "javascript:", "onerror", "onclick"] {
        assert!(!lower.contains(bad), "{bad} survived: {article}");
    }
    assert!(lower.contains("rel=\"noopener noreferrer\""));
    assert!(lower.contains("type=\"checkbox\""));
}

#[tokio::test(flavor = "multi_thread")]
async fn images_binaries_and_text_views() {
    let s = start(|c| c.limits.highlight_bytes = 64).await;
    s.write("p.png", tiny_png());
    s.write("data.txt", b"abc\0def");
    s.write("big.rs", "fn main() { let x = 1; }\n".repeat(10));
    s.write("bad.txt", b"ok \xff\xfe bytes");
    s.write("blob.xyz", b"whatever");

    let body = s.preview_ok("p.png").await;
    assert_eq!(body["kind"], "image");
    let (id, token) = ids(&body);
    let page = s.get_text(&format!("/p/{id}/{token}/")).await;
    assert!(page.contains("1 × 1 px"), "{page}");
    let raw = s.get(&format!("/p/{id}/{token}/raw")).await;
    assert_eq!(raw.headers()["content-type"], "image/png");

    let body = s.preview_ok("data.txt").await;
    assert_eq!(body["kind"], "binary");
    let (id, token) = ids(&body);
    assert_eq!(body["views"][0]["name"], "info");
    assert_eq!(
        error_of(s.get(&format!("/p/{id}/{token}/raw")).await).await,
        (415, "unsupported".into())
    );

    let (id, token) = ids(&s.preview_ok("big.rs").await);
    let page = s.get_text(&format!("/p/{id}/{token}/")).await;
    assert!(
        page.contains("Highlighting is off"),
        "past the cap: plain text"
    );
    assert_eq!(page.matches("<span class=\"line\">").count(), 10);

    let (id, token) = ids(&s.preview_ok("bad.txt").await);
    let page = s.get_text(&format!("/p/{id}/{token}/")).await;
    assert!(page.contains("not valid UTF-8"));
    assert!(page.contains('\u{FFFD}'));

    let body = s.preview_ok("blob.xyz").await;
    assert_eq!(body["kind"], "other");
    use sha2::Digest;
    assert_eq!(
        body["sha256"],
        hex::encode(sha2::Sha256::digest(b"whatever"))
    );
}

/// The value of one sample line of a Prometheus exposition page.
fn sample(page: &str, series: &str) -> u64 {
    page.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no {series} in\n{page}"))
        .parse()
        .unwrap()
}

/// `GET /metrics` from loopback, checked for status and content type.
async fn metrics_page(s: &common::TestServer) -> String {
    let r = s.get("/metrics").await;
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.headers()["content-type"],
        "text/plain; version=0.0.4; charset=utf-8"
    );
    r.text().await.unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn metrics_count_responses_and_diff_work_and_need_the_token_remotely() {
    let s = start(|_| {}).await;
    let before = metrics_page(&s).await;
    assert!(before.contains("# TYPE previewd_http_responses_total counter"));
    assert_eq!(
        sample(&before, "previewd_browser_state{state=\"not_started\"}"),
        1
    );
    assert_eq!(sample(&before, "previewd_export_renders_total"), 0);
    let ok_before = sample(&before, "previewd_http_responses_total{class=\"2xx\"}");
    let missing_before = sample(&before, "previewd_http_responses_total{class=\"4xx\"}");

    assert_eq!(s.get("/no/such/route").await.status(), 404);
    let r = s
        .post_json(
            "/api/v1/diffs",
            &json!({"before": "a\n", "after": "b\n", "mode": "view"}),
        )
        .await;
    let body: serde_json::Value = r.json().await.unwrap();
    let viewer = body["details"]["viewerPath"].as_str().unwrap().to_string();
    for _ in 0..2 {
        assert_eq!(s.get(&viewer).await.status(), 200);
    }

    let after = metrics_page(&s).await;
    // The earlier /metrics page, the diff call and two views; the 404 apart.
    assert_eq!(
        sample(&after, "previewd_http_responses_total{class=\"2xx\"}"),
        ok_before + 4
    );
    assert_eq!(
        sample(&after, "previewd_http_responses_total{class=\"4xx\"}"),
        missing_before + 1
    );
    assert_eq!(sample(&after, "previewd_diff_artifacts_created_total"), 1);
    // Rendered once, on the first view; the second was the cached page.
    assert_eq!(sample(&after, "previewd_diff_views_rendered_total"), 1);
    assert!(!after.contains(&s.root_str()), "no paths in metrics");

    // Remote scrapers (allowed only when remote access is on) need the API token.
    let s = start(|c| {
        c.security.allow_remote = true;
        c.security.api_token = Some("s3cret-token".into());
        c.security.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    let remote = |bearer: Option<&str>| {
        let mut r = s
            .http
            .get(format!("{}/metrics", s.base))
            .header("x-forwarded-for", "203.0.113.9");
        if let Some(token) = bearer {
            r = r.bearer_auth(token);
        }
        r.send()
    };
    assert_eq!(
        error_of(remote(None).await.unwrap()).await,
        (401, "unauthorized".into())
    );
    assert_eq!(remote(Some("s3cret-token")).await.unwrap().status(), 200);
}

/// previewd's own assets are linked under their version and cached for good there; the
/// grid page of a sheet links them the same way, so a second preview fetches none again.
#[tokio::test(flavor = "multi_thread")]
async fn pages_link_versioned_assets_that_browsers_may_keep() {
    let s = start(|_| {}).await;
    s.write("t.csv", "a,b\n1,2\n");
    let body = s.preview_ok("t.csv").await;
    let (id, token) = ids(&body);
    let version = previewd::preview::assets::version();
    let shell = s.get_text(&format!("/p/{id}/{token}/")).await;
    let grid = s.get_text(&format!("/p/{id}/{token}/grid/")).await;
    for (page, root, files) in [
        (
            &shell,
            "../../../",
            &["base.css", "shell.css", "highlight.css", "shell.js"][..],
        ),
        (
            &grid,
            "../../../../",
            &["sheet.css", "drawings.js", "tables.js", "sheet.js"][..],
        ),
    ] {
        for file in files {
            let link = format!("\"{root}static/{version}/{file}\"");
            assert!(page.contains(&link), "{link} in {page}");
            let r = s.get(&format!("/static/{version}/{file}")).await;
            assert_eq!(r.status(), 200, "{file}");
            assert_eq!(
                r.headers()["cache-control"],
                "public, max-age=31536000, immutable"
            );
            assert_eq!(r.headers()["content-security-policy"], "default-src 'none'");
            let bytes = r.bytes().await.unwrap();
            // An old page's version, and no version: the same bytes, never kept.
            for path in [
                format!("/static/0123456789abcdef/{file}"),
                format!("/static/{file}"),
            ] {
                let r = s.get(&path).await;
                assert_eq!(
                    r.headers()["cache-control"],
                    "no-store, max-age=0",
                    "{path}"
                );
                assert_eq!(r.bytes().await.unwrap(), bytes, "{path}");
            }
        }
    }
    assert!(!shell.contains("\"../../../static/base.css\""));
    // The pages themselves stay uncached, and unknown assets are 404 under any version.
    let r = s.get(&format!("/p/{id}/{token}/grid/")).await;
    assert_eq!(r.headers()["cache-control"], "no-store, max-age=0");
    assert_eq!(
        s.get(&format!("/static/{version}/nope.js")).await.status(),
        404
    );
    assert_eq!(
        s.get(&format!("/static/{version}/..%2Fnope"))
            .await
            .status(),
        404
    );
    // The grid's scripts are no longer files of the snapshot.
    assert_eq!(
        s.get(&format!("/p/{id}/{token}/grid/sheet.js"))
            .await
            .status(),
        404
    );
}
