//! previewd as a web page sees it: the `Host` allow-list (DNS rebinding), cross-site
//! requests to the API and to `/w/…`, the remote-viewer switch, throttling under a full
//! client table, and JSON errors for bodies and paths the framework would answer in text.
//! The browser cases run in real Chromium with a name pointed at loopback, as a rebound
//! name would be.

mod common;

use common::browser::{eval, TestBrowser};
use common::{error_of, start};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// One raw HTTP/1.1 request with these header lines; the status code and the body.
async fn raw(addr: std::net::SocketAddr, head: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!("{head}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    stream.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

fn code_of(body: &str) -> String {
    let value: serde_json::Value =
        serde_json::from_str(body).unwrap_or_else(|e| panic!("not a JSON error ({e}): {body}"));
    value["error"]["code"]
        .as_str()
        .unwrap_or("<none>")
        .to_string()
}

/// A server that answers every request with `page` (an attacker's site).
async fn attacker_site(page: String) -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let page = page.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 4096];
                let _ = socket.read(&mut buf).await;
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{page}",
                    page.len()
                );
                let _ = socket.write_all(answer.as_bytes()).await;
            });
        }
    });
    port
}

#[tokio::test(flavor = "multi_thread")]
async fn only_our_host_names_are_answered() {
    let s = start(|c| {
        c.security.allowed_hosts = vec!["preview.lan".into()];
        c.public_origin = Some("https://docs.example.com/previewd".into());
    })
    .await;
    s.write("secret.txt", "top secret");
    let port = s.addr.port();
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
        "preview.lan".to_string(),
        "docs.example.com".to_string(),
    ] {
        let (status, _) = raw(s.addr, &format!("GET /healthz HTTP/1.1\r\nHost: {host}")).await;
        assert_eq!(status, 200, "{host}");
    }
    for host in [
        format!("attacker.example:{port}"),
        format!("127.0.0.1.attacker.example:{port}"),
        format!("localhost:{}", port.wrapping_add(1)),
        "evil".to_string(),
    ] {
        for target in ["/healthz", "/w/ws/secret.txt", "/metrics", "/nope"] {
            let (status, body) =
                raw(s.addr, &format!("GET {target} HTTP/1.1\r\nHost: {host}")).await;
            assert_eq!(
                (status, code_of(&body)),
                (403, "forbidden_host".into()),
                "{host} {target}"
            );
        }
    }
    // No Host at all (HTTP/1.0) is refused too.
    let (status, body) = raw(s.addr, "GET /healthz HTTP/1.0").await;
    assert_eq!((status, code_of(&body)), (403, "forbidden_host".into()));
    assert_eq!(s.state.snapshots.len(), 0, "nothing was created");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rebound_name_cannot_read_workspace_files_in_chromium() {
    let s = start(|_| {}).await;
    s.write("secret.txt", "top secret");
    let port = s.addr.port();
    let browser =
        TestBrowser::launch_with(&["host-resolver-rules=MAP attacker.example 127.0.0.1"]).await;
    // The page is on the attacker's name, now resolving to previewd: same origin as the API.
    let page = browser
        .open(&format!("http://attacker.example:{port}/healthz"))
        .await;
    let steal = format!(
        r#"(async () => {{
            const r = await fetch('/api/v1/previews', {{method: 'POST',
                headers: {{'content-type': 'application/json'}},
                body: JSON.stringify({{workspaceRoot: {root}, relativePath: 'secret.txt'}})}});
            if (!r.ok) return 'refused ' + r.status + ' ' + (await r.text());
            const snap = await r.json();
            const raw = await fetch('/p/' + snap.previewId + '/' + snap.token + '/raw');
            return await raw.text();
        }})()"#,
        root = serde_json::to_string(&s.root_str()).unwrap()
    );
    let got = eval(&page, &steal).await;
    let got = got.as_str().unwrap_or_default().to_string();
    assert!(
        !got.contains("top secret"),
        "the rebound page read the file: {got}"
    );
    assert!(
        got.starts_with("refused 403") && got.contains("forbidden_host"),
        "{got}"
    );
    let direct = eval(
        &page,
        "fetch('/w/ws/secret.txt').then(r => r.status + ' ' + r.url)",
    )
    .await;
    assert!(direct.as_str().unwrap().starts_with("403"), "{direct}");
    assert_eq!(s.state.snapshots.len(), 0);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn other_sites_cannot_make_snapshots_in_chromium() {
    let s = start(|_| {}).await;
    s.write("secret.txt", "top secret");
    let port = s.addr.port();
    let root = serde_json::to_string(&s.root_str()).unwrap();
    // A page of another site fires every request a page can send without a preflight.
    let page = format!(
        r#"<!doctype html><body><script>
        const api = 'http://127.0.0.1:{port}';
        const body = JSON.stringify({{workspaceRoot: {root}, relativePath: 'secret.txt'}});
        const sent = [];
        for (const path of ['/api/v1/previews', '/api/v1/stat', '/api/v1/diffs', '/api/v1/activity']) {{
            sent.push(fetch(api + path, {{method: 'POST', mode: 'no-cors', body}}).catch(() => 0));
            sent.push(fetch(api + path, {{method: 'POST', mode: 'no-cors',
                headers: {{'content-type': 'application/x-www-form-urlencoded'}}, body}}).catch(() => 0));
            sent.push(fetch(api + path, {{method: 'POST', headers: {{'content-type': 'application/json'}}, body}}).catch(() => 0));
        }}
        const img = new Image();
        img.src = api + '/w/ws/secret.txt';
        sent.push(new Promise(r => {{ img.onload = img.onerror = r; }}));
        const frame = document.createElement('iframe');
        frame.src = api + '/w/ws/secret.txt';
        document.body.appendChild(frame);
        sent.push(new Promise(r => setTimeout(r, 1500)));
        Promise.all(sent).then(() => {{ document.body.dataset.done = '1'; }});
        </script></body>"#
    );
    let site = attacker_site(page).await;
    let browser =
        TestBrowser::launch_with(&["host-resolver-rules=MAP attacker.example 127.0.0.1"]).await;
    for origin in [
        format!("http://attacker.example:{site}/"),
        format!("http://127.0.0.1:{site}/"),
    ] {
        let tab = browser.open(&origin).await;
        common::browser::wait_for(&tab, "document.body.dataset.done === '1'").await;
        assert_eq!(
            s.state.snapshots.len(),
            0,
            "a page of {origin} made a snapshot"
        );
        assert_eq!(
            s.state.metrics.diff_artifacts_created(),
            0,
            "a page of {origin} made a diff artifact"
        );
    }
    // The user following a link to /w/… (a top-level navigation) still opens the file.
    let tab = browser
        .open(&format!("http://127.0.0.1:{port}/w/ws/secret.txt"))
        .await;
    let url = tab.url().await.unwrap().unwrap_or_default();
    assert!(url.contains("/p/"), "{url}");
    assert_eq!(s.state.snapshots.len(), 1);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn json_endpoints_need_a_json_content_type() {
    let s = start(|_| {}).await;
    s.write("a.txt", "a");
    let body = json!({"workspaceRoot": s.root_str(), "relativePath": "a.txt"}).to_string();
    for path in [
        "/api/v1/previews",
        "/api/v1/stat",
        "/api/v1/diffs",
        "/api/v1/activity",
        "/api/v1/activity/changes",
    ] {
        for content_type in [
            None,
            Some("text/plain"),
            Some("text/plain;charset=UTF-8"),
            Some("application/x-www-form-urlencoded"),
            Some("multipart/form-data; boundary=x"),
        ] {
            let mut request = s.http.post(format!("{}{path}", s.base)).body(body.clone());
            if let Some(t) = content_type {
                request = request.header("content-type", t);
            }
            let r = request.send().await.unwrap();
            assert_eq!(
                error_of(r).await,
                (415, "unsupported_media_type".into()),
                "{path} {content_type:?}"
            );
        }
    }
    let ok = s
        .http
        .post(format!("{}/api/v1/stat", s.base))
        .header("content-type", "application/json; charset=utf-8")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    assert_eq!(s.state.snapshots.len(), 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_api_refuses_cross_site_requests_and_foreign_origins() {
    let s = start(|_| {}).await;
    s.write("a.txt", "a");
    let port = s.addr.port();
    let body = json!({"workspaceRoot": s.root_str(), "relativePath": "a.txt"});
    let post = |headers: Vec<(&'static str, String)>| {
        let mut r = s
            .http
            .post(format!("{}/api/v1/previews", s.base))
            .json(&body);
        for (k, v) in headers {
            r = r.header(k, v);
        }
        r.send()
    };
    for headers in [
        vec![("sec-fetch-site", "cross-site".to_string())],
        vec![("sec-fetch-site", "same-site".to_string())],
        vec![("origin", "http://attacker.example".to_string())],
        vec![(
            "origin",
            format!("http://127.0.0.1:{}", port.wrapping_add(1)),
        )],
        vec![("origin", "null".to_string())],
        vec![
            ("origin", format!("http://127.0.0.1:{port}")),
            ("sec-fetch-site", "cross-site".to_string()),
        ],
    ] {
        let r = post(headers.clone()).await.unwrap();
        assert_eq!(
            error_of(r).await,
            (403, "cross_site_request".into()),
            "{headers:?}"
        );
    }
    assert_eq!(s.state.snapshots.len(), 0);
    for headers in [
        vec![],
        vec![("sec-fetch-site", "same-origin".to_string())],
        vec![("sec-fetch-site", "none".to_string())],
        vec![("origin", format!("http://localhost:{port}"))],
    ] {
        assert_eq!(
            post(headers.clone()).await.unwrap().status(),
            201,
            "{headers:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn browse_entry_acts_only_for_top_level_navigations() {
    let s = start(|_| {}).await;
    s.write("a.txt", "a");
    let get = |headers: &[(&str, &str)]| {
        let mut r = s.http.get(format!("{}/w/ws/a.txt", s.base));
        for (k, v) in headers {
            r = r.header(*k, *v);
        }
        r.send()
    };
    for headers in [
        &[("sec-fetch-mode", "no-cors"), ("sec-fetch-dest", "image")][..],
        &[("sec-fetch-mode", "cors"), ("sec-fetch-dest", "empty")],
        &[("sec-fetch-mode", "navigate"), ("sec-fetch-dest", "iframe")],
        &[("sec-fetch-site", "cross-site")],
    ] {
        let r = get(headers).await.unwrap();
        assert_eq!(
            error_of(r).await,
            (403, "cross_site_request".into()),
            "{headers:?}"
        );
    }
    assert_eq!(s.state.snapshots.len(), 0);
    for headers in [
        &[][..],
        &[
            ("sec-fetch-mode", "navigate"),
            ("sec-fetch-dest", "document"),
            ("sec-fetch-site", "cross-site"),
        ],
    ] {
        assert_eq!(get(headers).await.unwrap().status(), 303, "{headers:?}");
    }
    assert_eq!(s.state.snapshots.len(), 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn allow_remote_alone_does_not_open_the_diff_viewer() {
    let s = start(|c| {
        c.security.allow_remote = true;
        c.security.api_token = Some("t0ken".into());
        c.security.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    // Every request comes through the trusted proxy; 127.0.0.1 as the client is local.
    let r = s
        .http
        .post(format!("{}/api/v1/diffs", s.base))
        .header("x-forwarded-for", "127.0.0.1")
        .json(&json!({"before": "a\n", "after": "b\n", "path": "x.txt"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let details: serde_json::Value = r.json().await.unwrap();
    let path = details["details"]["viewerPath"]
        .as_str()
        .unwrap()
        .to_string();
    let local = s.get_as(&path, "127.0.0.1").await;
    assert_eq!(local.status(), 200, "loopback sees it");
    for p in [path.as_str(), "/plugins/diffs/assets/viewer.js"] {
        let remote = s.get_as(p, "203.0.113.5").await;
        assert_eq!(remote.status(), 404, "{p}");
        assert_eq!(remote.text().await.unwrap(), "Diff not found");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_client_table_full_of_locked_out_clients_still_locks_out_newcomers() {
    let s = start(|c| {
        c.security.allow_remote = true;
        c.security.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        c.security.max_tracked_clients = 3;
        c.security.miss_limit = 5;
    })
    .await;
    let miss = "/p/00000000000000000000/000000000000000000000000000000000000000000000000/";
    for i in 0..3 {
        let ip = format!("198.51.100.{i}");
        for _ in 0..5 {
            s.get_as(miss, &ip).await;
        }
        assert_eq!(s.get_as(miss, &ip).await.status(), 429, "{ip}");
    }
    // Fresh addresses: before the fix, none of them was ever counted.
    let mut statuses = Vec::new();
    for i in 0..300 {
        let ip = format!("192.0.2.{}", i % 250);
        statuses.push(s.get_as(miss, &ip).await.status().as_u16());
    }
    assert!(statuses.contains(&429), "300 misses, no lock-out");
    assert!(s.state.throttle.tracked() <= 3);
}

#[tokio::test(flavor = "multi_thread")]
async fn oversized_bodies_and_non_utf8_paths_get_json_errors() {
    let s = start(|c| c.limits.request_body_bytes = 1024).await;
    let big = json!({"workspaceRoot": "x".repeat(4096), "relativePath": "a"});
    for path in ["/api/v1/previews", "/api/v1/diffs", "/api/v1/activity"] {
        let r = s.post_json(path, &big).await;
        assert_eq!(r.headers()["content-type"], "application/json", "{path}");
        let body: serde_json::Value = r.json().await.unwrap();
        assert_eq!(body["error"]["code"], "request_too_large", "{path}: {body}");
        assert_eq!(body["error"]["limit"], 1024);
    }
    let port = s.addr.port();
    for target in ["/p/%FF%FE/x/", "/w/ws/%C3%28.txt", "/static/%80"] {
        let (status, body) = raw(
            s.addr,
            &format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}"),
        )
        .await;
        assert_eq!(status, 400, "{target}: {body}");
        assert_eq!(code_of(&body), "invalid_request", "{target}");
    }
    // The diff viewer keeps its plain-text contract bodies.
    let (status, body) = raw(
        s.addr,
        &format!("GET /plugins/diffs/view/%FF/x HTTP/1.1\r\nHost: 127.0.0.1:{port}"),
    )
    .await;
    assert_eq!((status, body.as_str()), (404, "Diff not found"));
}
