//! File delivery for remote callers (issue #13, item 5): the rendered PNG/PDF of a diff
//! artifact fetched through its `fileUrl` on a real listener, under the viewer's access
//! rules, with its own headers. The renders run in real Chromium (a missing browser fails).

mod common;

use common::{start, TestServer};
use serde_json::{json, Value};

async fn diff(s: &TestServer, body: Value) -> Value {
    let mut call = s.http.post(format!("{}/api/v1/diffs", s.base)).json(&body);
    if !s.state.config.security.trusted_proxies.is_empty() {
        // Behind a trusted proxy, a request without the client address fails closed.
        call = call.header("x-forwarded-for", "127.0.0.1");
    }
    let r = call.send().await.unwrap();
    let status = r.status().as_u16();
    let body: Value = r.json().await.unwrap();
    assert_eq!(status, 200, "{body}");
    body
}

/// The path (and query) of an absolute URL.
fn path_of(url: &str) -> String {
    let rest = url.split_once("://").unwrap().1;
    rest[rest.find('/').unwrap()..].to_string()
}

fn str_of<'a>(details: &'a Value, key: &str) -> &'a str {
    details[key]
        .as_str()
        .unwrap_or_else(|| panic!("no {key}: {details}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn file_url_serves_the_png_at_file_path_with_its_headers() {
    let s = start(|_| {}).await;
    let body = diff(
        &s,
        json!({"before": "a\nb\n", "after": "a\nc\n", "mode": "file", "fileScale": 1,
               "title": "src/lib.rs: rename"}),
    )
    .await;
    let d = &body["details"];
    let id = str_of(d, "artifactId");
    let file_url = str_of(d, "fileUrl");
    let prefix = format!(
        "http://127.0.0.1:{}/plugins/diffs/file/{id}/",
        s.addr.port()
    );
    assert!(file_url.starts_with(&prefix), "{file_url}");
    assert!(
        d.get("viewerUrl").is_none(),
        "file mode still makes no viewer"
    );

    let r = s.http.get(file_url).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let h = r.headers().clone();
    let got = r.bytes().await.unwrap();
    let on_disk = std::fs::read(str_of(d, "filePath")).unwrap();
    assert_eq!(got.as_ref(), on_disk.as_slice(), "the bytes at filePath");
    assert_eq!(d["fileBytes"], on_disk.len());
    assert_eq!(h["content-type"], "image/png");
    assert_eq!(h["x-content-type-options"], "nosniff");
    assert_eq!(h["cache-control"], "no-store, max-age=0");
    assert_eq!(h["referrer-policy"], "no-referrer");
    assert_eq!(
        h["content-security-policy"],
        previewd::server::diffs::FILE_CSP
    );
    assert_eq!(
        h["content-disposition"],
        "inline; filename=\"src-lib.rs-rename.png\""
    );
    assert!(
        !h.contains_key("access-control-allow-origin"),
        "no ACAO: {h:?}"
    );
    assert_eq!(h["content-length"], on_disk.len().to_string());

    // HEAD answers like GET, without the body.
    let head = s.http.head(file_url).send().await.unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(head.headers()["content-length"], on_disk.len().to_string());
    assert_eq!(head.headers()["content-type"], "image/png");
    // Other methods: the viewer's plain 405.
    let r = s.http.post(file_url).send().await.unwrap();
    assert_eq!(
        (r.status().as_u16(), r.text().await.unwrap()),
        (405, "Method not allowed".into())
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn both_mode_pdf_has_a_file_url_beside_the_viewer() {
    let s = start(|c| c.diffs.viewer_base_url = Some("http://previewd.test:9/base/".into())).await;
    let body = diff(
        &s,
        json!({"patch": "--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-one\n+two\n",
               "mode": "both", "fileFormat": "pdf"}),
    )
    .await;
    let d = &body["details"];
    let file_url = str_of(d, "fileUrl");
    let viewer_url = str_of(d, "viewerUrl");
    // Built like viewerUrl: the configured base, its path kept, the slash stripped.
    assert!(
        file_url.starts_with("http://previewd.test:9/base/plugins/diffs/file/"),
        "{file_url}"
    );
    assert!(viewer_url.starts_with("http://previewd.test:9/base/plugins/diffs/view/"));
    // The token is the artifact's one token: the file URL and the viewer URL share it.
    assert_eq!(
        file_url.rsplit('/').next(),
        viewer_url.rsplit('/').next(),
        "one token per artifact"
    );
    // Through the listener (the base prefix is a proxy's; previewd serves the bare path).
    let local = path_of(file_url).replacen("/base", "", 1);
    let r = s.get(&local).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "application/pdf");
    assert_eq!(
        r.headers()["content-disposition"],
        "inline; filename=\"Patch-diff.pdf\""
    );
    let got = r.bytes().await.unwrap();
    assert!(got.starts_with(b"%PDF-"));
    assert_eq!(
        got.as_ref(),
        std::fs::read(str_of(d, "filePath")).unwrap().as_slice()
    );

    // A call's baseUrl wins for the file URL as for the viewer URL.
    let body = diff(
        &s,
        json!({"before": "a\n", "after": "b\n", "mode": "file",
               "baseUrl": "https://gw.example.com/openclaw"}),
    )
    .await;
    assert!(str_of(&body["details"], "fileUrl")
        .starts_with("https://gw.example.com/openclaw/plugins/diffs/file/"));
}

#[tokio::test(flavor = "multi_thread")]
async fn wrong_token_unknown_id_view_only_and_expired_are_not_found() {
    let s = start(|_| {}).await;
    let body = diff(
        &s,
        json!({"before": "a\n", "after": "b\n", "mode": "file", "ttlSeconds": 1}),
    )
    .await;
    let d = &body["details"];
    let id = str_of(d, "artifactId").to_string();
    let good = path_of(str_of(d, "fileUrl"));
    let view = diff(&s, json!({"before": "a\n", "after": "c\n", "mode": "view"})).await;
    let view_path = str_of(&view["details"], "viewerPath").replace("/view/", "/file/");

    let not_found = |text: &'static str| (404u16, text.to_string());
    let answer = |r: reqwest::Response| async move {
        let status = r.status().as_u16();
        assert_eq!(r.headers()["content-type"], "text/plain; charset=utf-8");
        (status, r.text().await.unwrap())
    };
    let wrong = format!("/plugins/diffs/file/{id}/{}", "0".repeat(48));
    assert_eq!(
        answer(s.get(&wrong).await).await,
        not_found("Diff not found or expired")
    );
    let unknown = format!("/plugins/diffs/file/{}/{}", "a".repeat(20), "b".repeat(48));
    assert_eq!(
        answer(s.get(&unknown).await).await,
        not_found("Diff not found or expired")
    );
    assert_eq!(
        answer(s.get("/plugins/diffs/file/xyz/abc").await).await,
        not_found("Diff not found")
    );
    assert_eq!(
        s.get(&format!("{good}/extra")).await.status(),
        404,
        "nothing below a file URL"
    );
    // A view-only artifact has no file to serve, whatever its token opens.
    assert_eq!(
        answer(s.get(&view_path).await).await,
        not_found("Diff not found or expired")
    );
    assert_eq!(s.get(&good).await.status(), 200);
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    assert_eq!(
        answer(s.get(&good).await).await,
        not_found("Diff not found or expired")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn remote_callers_are_refused_unless_the_viewer_is_remote() {
    let proxied = |c: &mut previewd::Config| {
        c.security.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    };
    let s = start(proxied).await;
    let body = diff(&s, json!({"before": "a\n", "after": "b\n", "mode": "file"})).await;
    let path = path_of(str_of(&body["details"], "fileUrl"));
    let r = s.get_as(&path, "198.51.100.7").await;
    assert_eq!(
        (r.status().as_u16(), r.text().await.unwrap()),
        (404, "Diff not found".into())
    );
    assert_eq!(s.get_as(&path, "127.0.0.1").await.status(), 200);
    // `--allow-remote` opens the API, not the diff routes.
    let s = start(|c| {
        proxied(c);
        c.security.allow_remote = true;
    })
    .await;
    let body = diff(&s, json!({"before": "a\n", "after": "b\n", "mode": "file"})).await;
    let path = path_of(str_of(&body["details"], "fileUrl"));
    assert_eq!(s.get_as(&path, "198.51.100.7").await.status(), 404);

    let s = start(|c| {
        proxied(c);
        c.diffs.allow_remote_viewer = true;
    })
    .await;
    let body = diff(&s, json!({"before": "a\n", "after": "b\n", "mode": "file"})).await;
    let d = &body["details"];
    let path = path_of(str_of(d, "fileUrl"));
    let r = s.get_as(&path, "198.51.100.7").await;
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.bytes().await.unwrap().as_ref(),
        std::fs::read(str_of(d, "filePath")).unwrap().as_slice()
    );
    // Remote misses count toward the viewer's lock-out.
    let wrong = format!(
        "/plugins/diffs/file/{}/{}",
        str_of(d, "artifactId"),
        "0".repeat(48)
    );
    for _ in 0..40 {
        assert_eq!(s.get_as(&wrong, "198.51.100.7").await.status(), 404);
    }
    let r = s.get_as(&path, "198.51.100.7").await;
    assert_eq!(r.status(), 429);
    assert!(r.headers().contains_key("retry-after"));
}

#[test]
fn download_names_are_safe() {
    use previewd::server::diffs::download_name;
    assert_eq!(download_name("Text diff", "png"), "Text-diff.png");
    assert_eq!(download_name("../../etc/passwd", "pdf"), "etc-passwd.pdf");
    assert_eq!(
        download_name("a\"b\r\nContent-Type: x", "png"),
        "a-b-Content-Type-x.png"
    );
    assert_eq!(download_name("日本語", "png"), "diff.png");
    assert_eq!(download_name("...", "pdf"), "diff.pdf");
    let long = download_name(&"x".repeat(500), "png");
    assert_eq!(long, format!("{}.png", "x".repeat(80)));
}
