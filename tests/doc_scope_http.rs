//! What a preview token reaches under `doc/`: the page's own folder subtree, never a hidden
//! entry, only for kinds that have a page, and with no CORS grant beyond what the sandbox
//! needs.

mod common;

use common::{ids, start, tiny_png};

#[tokio::test(flavor = "multi_thread")]
async fn doc_serves_only_the_page_folder_subtree() {
    let s = start(|_| {}).await;
    s.write("site/index.html", "<p>page</p>");
    s.write("site/img/a.png", tiny_png());
    s.write("site/sub/page.html", "<p>sub</p>");
    s.write("top.css", "p{}");
    s.write("other/b.png", tiny_png());
    s.write("sitemap/c.png", tiny_png());
    s.write("site/.env", "SECRET=1");
    s.write("site/.git/config", "SECRET=2");
    s.write("site/sub/.hidden/d.png", tiny_png());
    s.write("other/page.html", "<p>SECRET page</p>");
    s.write("site/.hidden/page.html", "<p>SECRET page</p>");
    let (id, token) = ids(&s.preview_ok("site/index.html").await);
    let get = |path: &str, dest: Option<&str>| {
        let mut r = s.http.get(format!("{}/p/{id}/{token}/doc/{path}", s.base));
        if let Some(dest) = dest {
            r = r.header("sec-fetch-dest", dest);
        }
        r.send()
    };
    for path in ["site/index.html", "site/img/a.png", "site/sub/page.html"] {
        assert_eq!(get(path, None).await.unwrap().status(), 200, "{path}");
    }
    for path in [
        "top.css",
        "other/b.png",
        "sitemap/c.png",
        "site/.env",
        "site/.git/config",
        "site/sub/.hidden/d.png",
        "other/page.html",
        "site/.hidden/page.html",
    ] {
        for dest in [None, Some("document"), Some("iframe")] {
            let r = get(path, dest).await.unwrap();
            assert_eq!(r.status(), 404, "{path} {dest:?}");
            assert!(r.headers().get("location").is_none(), "{path} {dest:?}");
            assert!(!r.text().await.unwrap().contains("SECRET"), "{path}");
        }
    }
    // A page of the subtree opened as a tab still gets its own framed preview.
    let r = get("site/sub/page.html", Some("document")).await.unwrap();
    assert_eq!(r.status(), 303);
}

#[tokio::test(flavor = "multi_thread")]
async fn only_pages_and_markdown_have_doc() {
    let s = start(|_| {}).await;
    s.write("d/a.rs", "fn main() {}");
    s.write("d/notes.txt", "notes");
    s.write("d/pic.png", tiny_png());
    s.write("d/logo.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
    s.write("d/README.md", "![x](img/x.png)");
    s.write("d/img/x.png", tiny_png());
    s.write("d/page.html", "<p>page</p>");
    for file in ["d/a.rs", "d/notes.txt", "d/pic.png"] {
        let (id, token) = ids(&s.preview_ok(file).await);
        for path in [file, "d/page.html", "d/img/x.png"] {
            let r = s.get(&format!("/p/{id}/{token}/doc/{path}")).await;
            assert_eq!(r.status(), 404, "{file}: {path}");
        }
    }
    // An SVG is an image only to image requests; anything else gets it as text, from
    // `doc/` and from `raw` alike.
    let (id, token) = ids(&s.preview_ok("d/logo.svg").await);
    for view in ["doc/d/logo.svg", "raw"] {
        let url = format!("{}/p/{id}/{token}/{view}", s.base);
        let r = s
            .http
            .get(&url)
            .header("sec-fetch-dest", "image")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["content-type"], "image/svg+xml", "{view}");
        for dest in [None, Some("document"), Some("iframe"), Some("object")] {
            let mut request = s.http.get(&url);
            if let Some(dest) = dest {
                request = request.header("sec-fetch-dest", dest);
            }
            let r = request.send().await.unwrap();
            if dest == Some("document") && view != "raw" {
                assert_eq!(r.status(), 303, "a tab on the SVG goes to its shell");
                continue;
            }
            assert_eq!(
                r.headers()["content-type"],
                "text/plain; charset=utf-8",
                "{view} {dest:?}"
            );
        }
    }
    // Markdown: the images its view shows, nothing else.
    let (id, token) = ids(&s.preview_ok("d/README.md").await);
    let r = s.get(&format!("/p/{id}/{token}/doc/d/img/x.png")).await;
    assert_eq!(r.status(), 200);
    for path in ["d/notes.txt", "d/page.html", "d/a.rs", "d/README.md"] {
        let r = s.get(&format!("/p/{id}/{token}/doc/{path}")).await;
        assert_eq!(r.status(), 404, "markdown: {path}");
    }
    // A link followed from its view (a tab) opens a file of its subtree in its own
    // preview; nothing outside the subtree, and no hidden file.
    s.write("d/.env", "SECRET=1");
    s.write("elsewhere.md", "# elsewhere");
    for (path, status) in [
        ("d/notes.txt", 303),
        ("d/page.html", 303),
        ("d/.env", 404),
        ("elsewhere.md", 404),
    ] {
        let r = s
            .http
            .get(format!("{}/p/{id}/{token}/doc/{path}", s.base))
            .header("sec-fetch-dest", "document")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), status, "markdown tab: {path}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn cors_is_granted_only_to_opaque_origin_fonts_and_scripts() {
    let s = start(|_| {}).await;
    s.write("site/index.html", "<p>page</p>");
    s.write("site/f.woff2", "font bytes");
    s.write("site/m.mjs", "export {}");
    s.write("site/a.png", tiny_png());
    let (id, token) = ids(&s.preview_ok("site/index.html").await);
    let get = |path: &str, cors: Option<&str>| {
        let mut r = s
            .http
            .get(format!("{}/p/{id}/{token}/doc/site/{path}", s.base));
        if let Some(origin) = cors {
            r = r.header("sec-fetch-mode", "cors").header("origin", origin);
        }
        r.send()
    };
    for path in ["f.woff2", "m.mjs"] {
        let r = get(path, Some("null")).await.unwrap();
        assert_eq!(r.headers()["access-control-allow-origin"], "null", "{path}");
        for origin in [None, Some("https://evil.example")] {
            let r = get(path, origin).await.unwrap();
            assert!(
                r.headers().get("access-control-allow-origin").is_none(),
                "{path} {origin:?}"
            );
        }
    }
    for path in ["index.html", "a.png"] {
        let r = get(path, Some("null")).await.unwrap();
        assert!(
            r.headers().get("access-control-allow-origin").is_none(),
            "{path}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn documents_carry_the_contract_policy_and_base_uri_none() {
    for scripts in [true, false] {
        let s = start(|c| c.preview.html_scripts = scripts).await;
        s.write("index.html", "<p>page</p>");
        let (id, token) = ids(&s.preview_ok("index.html").await);
        let r = s.get(&format!("/p/{id}/{token}/doc/index.html")).await;
        let policies: Vec<&str> = r
            .headers()
            .get_all("content-security-policy")
            .iter()
            .map(|v| v.to_str().unwrap())
            .collect();
        assert_eq!(policies.len(), 2, "{policies:?}");
        assert!(policies[0].starts_with("sandbox"), "{policies:?}");
        assert!(!policies[0].contains("base-uri"), "contract string kept");
        assert!(policies[1].contains("base-uri 'none'"), "{policies:?}");
    }
}
