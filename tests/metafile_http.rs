//! EMF and WMF pictures through the service: documents and decks show them as SVG
//! drawings served by the media route (not grey placeholders), and real Chromium decodes
//! and paints them under the route's CSP.

mod common;

use common::browser::{eval, wait_for, TestBrowser};
use common::{ids, start, TestServer};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/metafile");

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{FIXTURES}/{name}")).unwrap()
}

/// The `src` of every `<img>` of `page` naming a metafile part.
fn metafile_srcs(page: &str) -> Vec<String> {
    page.match_indices("src=\"media/")
        .map(|(i, _)| {
            let rest = &page[i + 5..];
            rest[..rest.find('"').unwrap()].to_owned()
        })
        .filter(|s| {
            let l = s.to_ascii_lowercase();
            l.ends_with(".emf") || l.ends_with(".wmf")
        })
        .collect()
}

/// Previews `rel`, checks the page shows its metafiles as images and that each is
/// served as SVG; returns the shell URL.
async fn shows_metafiles_as_svg(s: &TestServer, rel: &str, bytes: Vec<u8>) -> String {
    s.write(rel, bytes);
    let body = s.preview_ok(rel).await;
    let (id, token) = ids(&body);
    let page = s.get_text(&format!("/p/{id}/{token}/")).await;
    assert!(
        !page.contains("(not displayable)"),
        "{rel} still has a placeholder"
    );
    let srcs = metafile_srcs(&page);
    assert!(!srcs.is_empty(), "{rel} shows its metafile pictures");
    for src in &srcs {
        let r = s.get(&format!("/p/{id}/{token}/{src}")).await;
        assert_eq!(r.status(), 200, "{src}");
        assert_eq!(r.headers()["content-type"], "image/svg+xml", "{src}");
        let csp = r.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(csp.starts_with("sandbox; default-src 'none'"), "{csp}");
        let svg = r.text().await.unwrap();
        assert!(
            svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
            "{src}"
        );
        assert!(!svg.contains("<script"), "{src}");
    }
    body["url"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_docx_wmf_picture_is_served_as_svg() {
    let s = start(|_| {}).await;
    shows_metafiles_as_svg(
        &s,
        "docs/controls.docx",
        fixture("powertools-ContentControls.docx"),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_docx_ole_object_shows_its_emf_preview() {
    let s = start(|_| {}).await;
    shows_metafiles_as_svg(
        &s,
        "docs/embedded.docx",
        fixture("tika-EmbeddedDocument.docx"),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_pptx_ole_object_shows_its_emf_preview() {
    let s = start(|_| {}).await;
    shows_metafiles_as_svg(
        &s,
        "decks/ole.pptx",
        fixture("tika-testPPT_oleWorkbook.pptx"),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn chromium_decodes_and_paints_the_converted_pictures() {
    let s = start(|_| {}).await;
    let url = shows_metafiles_as_svg(
        &s,
        "docs/embedded.docx",
        fixture("tika-EmbeddedDocument.docx"),
    )
    .await;
    let browser = TestBrowser::launch().await;
    let page = browser.open(&url).await;
    wait_for(
        &page,
        "document.readyState === 'complete' && [...document.images].some(i => /\\.emf$/i.test(i.src))",
    )
    .await;
    // Each metafile image decodes (an SVG with a size), and drawn to a canvas it paints
    // something that is not transparent: the drawing, not an empty box.
    let painted = eval(
        &page,
        r#"(async () => {
            const imgs = [...document.images].filter(i => /\.(emf|wmf)$/i.test(i.src));
            const out = [];
            for (const img of imgs) {
                const fresh = new Image();
                fresh.src = img.src;
                await fresh.decode();
                const c = document.createElement('canvas');
                c.width = 200; c.height = 200;
                const g = c.getContext('2d');
                g.drawImage(fresh, 0, 0, 200, 200);
                const d = g.getImageData(0, 0, 200, 200).data;
                let inked = 0;
                for (let k = 3; k < d.length; k += 4) if (d[k] > 0) inked++;
                out.push([fresh.naturalWidth, inked]);
            }
            return out;
        })()"#,
    )
    .await;
    let list = painted.as_array().expect("a list");
    assert!(!list.is_empty());
    for entry in list {
        assert!(entry[0].as_f64().unwrap() > 0.0, "{painted}");
        assert!(
            entry[1].as_f64().unwrap() > 100.0,
            "too little ink: {painted}"
        );
    }
    browser.close().await;
}
