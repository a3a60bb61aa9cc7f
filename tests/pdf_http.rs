//! PDFs through the service: real files from the corpus (page counts and sizes as `pdfinfo`
//! reports them, the words `pdftotext` extracts, both written down here from one run of
//! poppler), encryption, hostile files built here, the page and text routes, and the CLI.

mod common;

use std::collections::HashMap;
use std::io::Write;

use common::{error_of, ids, start, TestServer};
use previewd::pdf::writer::{assemble, document, PageSpec};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/pdf");

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{FIXTURES}/{name}")).unwrap()
}

const TIKA_TEXT: &str = "Apache Tika - Apache Tika http://incubator.apache.org/tika/ Tika - Content Analysis Toolkit Apache Tika is a toolkit for detecting and extracting metadata and structured text content from various documents using existing parser libraries. Apache Tika is an effort undergoing incubation at The Apache Software Foundation (ASF), sponsored by the Apache Lucene PMC. Incubation is required of all newly accepted projects until a further review indicates that the infrastructure, communications, and decision making process have stabilized in a manner consistent with other successful ASF projects. While incubation status is not necessarily a reflection of the completeness or stability of the code, it does indicate that the project has yet to be fully endorsed by the ASF. See the Apache Tika Incubation Status page for the current incubation status. Latest News March 22nd, 2007: Apache Tika project started The Apache Tika project was formally started when the Tika proposal was accepted by the Apache Incubator PMC. 1 of 1 15.9.2007 11:02";

/// Width and height in points and rotation in degrees of one page, as `pdfinfo` says.
type PageSize = (f64, f64, u64);

/// `(file, pages, pdftotext's words)`, from `pdfinfo -f 1 -l N` and `pdftotext` (poppler 22).
fn corpus() -> Vec<(&'static str, Vec<PageSize>, &'static str)> {
    vec![
        ("tika-testPDF.pdf", vec![(595.0, 842.0, 0)], TIKA_TEXT),
        // The same page turned by /Rotate 90: its words in another order.
        (
            "tika-testPDF_rotated.pdf",
            vec![(595.0, 842.0, 90)],
            TIKA_TEXT,
        ),
        (
            "tika-testPDF_bookmarks.pdf",
            vec![(595.0, 842.0, 0), (595.0, 842.0, 0)],
            "This is a page about France This is a page about Denmark",
        ),
        (
            "tika-testPDFTwoTextBoxes.pdf",
            vec![(612.0, 792.0, 0)],
            "Left column line 1 Right column line 1 Left column line 2 Right column line 2",
        ),
        (
            "tika-testPDF_no_extract_no_accessibility_owner_empty.pdf",
            vec![(612.0, 792.0, 0)],
            "Hello World",
        ),
        (
            "tika-testPDF_jsActionOnPage.pdf",
            vec![(612.0, 792.0, 0)],
            "",
        ),
    ]
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The share of `expected`'s words (with repeats) found in `got`.
fn recall(expected: &str, got: &str) -> f64 {
    let mut have: HashMap<String, usize> = HashMap::new();
    for w in words(got) {
        *have.entry(w).or_default() += 1;
    }
    let wanted = words(expected);
    if wanted.is_empty() {
        return 1.0;
    }
    let found = wanted
        .iter()
        .filter(|w| match have.get_mut(*w) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        })
        .count();
    found as f64 / wanted.len().max(1) as f64
}

async fn json(s: &TestServer, path: &str) -> serde_json::Value {
    let response = s.get(path).await;
    assert_eq!(response.status(), 200, "{path}");
    response.json().await.unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn real_pdfs_have_poppler_page_sizes_and_words() {
    let s = start(|_| {}).await;
    for (name, sizes, text) in corpus() {
        s.write(name, fixture(name));
        let body = s.preview_ok(name).await;
        assert_eq!(body["kind"], "pdf", "{name}");
        assert_eq!(body["views"][0]["name"], "pages", "{name}");
        let (id, token) = ids(&body);
        let model = json(&s, &format!("/p/{id}/{token}/model.json")).await;
        assert_eq!(model["pageCount"], sizes.len(), "{name}");
        let mut all_text = String::new();
        for (i, (w, h, rot)) in sizes.iter().enumerate() {
            let page = &model["pages"][i];
            assert!(
                (page["width"].as_f64().unwrap() - w).abs() < 0.5,
                "{name}: {page}"
            );
            assert!(
                (page["height"].as_f64().unwrap() - h).abs() < 0.5,
                "{name}: {page}"
            );
            assert_eq!(page["rotation"], *rot, "{name}");
            let layer = json(&s, &format!("/p/{id}/{token}/text/{}", i + 1)).await;
            // The layer is in displayed points: a turned page is as wide as it is high.
            let (dw, dh) = if rot % 180 == 90 { (h, w) } else { (w, h) };
            assert!(
                (layer["width"].as_f64().unwrap() - dw).abs() < 0.5,
                "{name}"
            );
            assert!(
                (layer["height"].as_f64().unwrap() - dh).abs() < 0.5,
                "{name}"
            );
            for run in layer["runs"].as_array().unwrap() {
                let (x, y) = (run["x"].as_f64().unwrap(), run["y"].as_f64().unwrap());
                assert!(
                    x > -1.0 && x < dw + 1.0 && y > -1.0 && y < dh + 1.0,
                    "{name}: {run}"
                );
                all_text.push_str(run["t"].as_str().unwrap());
                all_text.push(' ');
            }
        }
        let r = recall(text, &all_text);
        assert!(r >= 0.97, "{name}: recall {r}, text layer: {all_text}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_pdf_has_a_pages_view_rasters_cached_per_scale_and_an_info_view() {
    let s = start(|_| {}).await;
    s.write("b.pdf", fixture("tika-testPDF_bookmarks.pdf"));
    let body = s.preview_ok("b.pdf").await;
    let (id, token) = ids(&body);
    let shell = s.get_text(&format!("/p/{id}/{token}/")).await;
    assert!(shell.contains("id=\"pdf-viewer\""));
    assert_eq!(shell.matches("class=\"pdf-page\"").count(), 2);
    assert!(shell.contains("static/pdf-viewer.js"));
    // The outline leads to pages.
    assert!(
        shell.contains("data-page=\"2\">Denmark bookmark is here</a>"),
        "{shell}"
    );
    let info = s.get_text(&format!("/p/{id}/{token}/info")).await;
    assert!(
        info.contains("<dt>Producer</dt><dd>PDFlib 4.0.1 (PHP/Linux 2.2.16)</dd>"),
        "{info}"
    );
    assert!(info.contains("<dt>Pages</dt><dd>2</dd>"));
    assert!(info.contains("Helvetica-Bold (Type1)"), "{info}");

    let before = s.state.snapshots.bytes();
    let page = s.get(&format!("/p/{id}/{token}/page/2?scale=1")).await;
    assert_eq!(page.status(), 200);
    assert_eq!(page.headers()["content-type"], "image/png");
    let png = page.bytes().await.unwrap();
    let img = image::load_from_memory(&png).unwrap();
    assert_eq!((img.width(), img.height()), (595, 842));
    // Cached: the same bytes again, charged to the store once.
    let after = s.state.snapshots.bytes();
    assert!(after >= before + png.len() as u64, "{before} → {after}");
    let again = s
        .get(&format!("/p/{id}/{token}/page/2?scale=1"))
        .await
        .bytes()
        .await
        .unwrap();
    assert_eq!(again, png);
    assert_eq!(s.state.snapshots.bytes(), after);
    // Another scale is another raster.
    let big = s
        .get(&format!("/p/{id}/{token}/page/2?scale=2"))
        .await
        .bytes()
        .await
        .unwrap();
    assert_eq!(image::load_from_memory(&big).unwrap().width(), 1190);
    for bad in ["0", "3", "x", "-1"] {
        let (status, code) = error_of(s.get(&format!("/p/{id}/{token}/page/{bad}")).await).await;
        assert_eq!((status, code.as_str()), (404, "not_found"), "{bad}");
    }
    // A file of another kind has no pages.
    s.write("a.txt", "text");
    let (tid, ttoken) = ids(&s.preview_ok("a.txt").await);
    let (status, _) = error_of(s.get(&format!("/p/{tid}/{ttoken}/page/1")).await).await;
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn only_pdfs_without_a_user_password_open() {
    let s = start(|_| {}).await;
    s.write(
        "user.pdf",
        fixture("tika-testPDF_no_extract_no_accessibility_owner_user.pdf"),
    );
    let response = s.preview("user.pdf").await;
    let status = response.status().as_u16();
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (422, Some("encrypted")),
        "{body}"
    );
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("password"));
    s.write(
        "empty.pdf",
        fixture("tika-testPDF_no_extract_no_accessibility_owner_empty.pdf"),
    );
    let (id, token) = ids(&s.preview_ok("empty.pdf").await);
    let model = json(&s, &format!("/p/{id}/{token}/model.json")).await;
    assert_eq!(model["encrypted"], true);
    let layer = json(&s, &format!("/p/{id}/{token}/text/1")).await;
    assert_eq!(layer["runs"][0]["t"], "Hello World");
}

fn zlib(data: &[u8], level: u32) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(level));
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn stream(dict: &str, data: &[u8]) -> Vec<u8> {
    let mut out = format!("<< {dict} /Length {} >>\nstream\n", data.len()).into_bytes();
    out.extend_from_slice(data);
    out.extend_from_slice(b"\nendstream");
    out
}

/// A one-page document whose page has `page_extra` in its dictionary and `content`.
fn one_page(page_extra: &str, content: Vec<u8>, more: Vec<Vec<u8>>) -> Vec<u8> {
    let mut objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R {page_extra} >>"
        )
        .into_bytes(),
        content,
    ];
    objects.extend(more);
    assemble(&objects)
}

async fn refused(s: &TestServer, name: &str, bytes: Vec<u8>) -> (u16, String, String) {
    s.write(name, bytes);
    let response = s.preview(name).await;
    let status = response.status().as_u16();
    let body: serde_json::Value = response.json().await.unwrap();
    (
        status,
        body["error"]["code"].as_str().unwrap_or("").to_string(),
        body["error"]["message"].as_str().unwrap_or("").to_string(),
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn hostile_pdfs_are_refused_with_the_limit_they_break() {
    let s = start(|_| {}).await;
    // 64 MiB of zeros in about 64 KiB.
    let bomb = stream("/Filter /FlateDecode", &zlib(&vec![0u8; 64 << 20], 9));
    let (status, code, message) = refused(&s, "bomb.pdf", one_page("", bomb, vec![])).await;
    assert_eq!((status, code.as_str()), (422, "corrupt"), "{message}");
    assert!(message.contains("pdf.max_inflate_ratio"), "{message}");

    let image = stream(
        "/Type /XObject /Subtype /Image /Width 100000 /Height 100000 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode",
        &zlib(&[0u8; 1000], 1),
    );
    let file = one_page(
        "/Resources << /XObject << /Im1 5 0 R >> >>",
        stream("", b"q 200 0 0 200 0 0 cm /Im1 Do Q"),
        vec![image],
    );
    let (_, code, message) = refused(&s, "image.pdf", file).await;
    assert_eq!(code, "corrupt");
    assert!(
        message.contains("100000 × 100000") && message.contains("pdf.max_image_pixels"),
        "{message}"
    );

    // A JPEG 2000 image that claims 10 × 10 in its dictionary and 60000 × 60000 in its
    // own header.
    let mut siz = vec![0xff, 0x4f, 0xff, 0x51, 0, 41, 0, 0];
    siz.extend_from_slice(&60_000u32.to_be_bytes());
    siz.extend_from_slice(&60_000u32.to_be_bytes());
    siz.extend_from_slice(&[0; 30]);
    let jpx = stream(
        "/Type /XObject /Subtype /Image /Width 10 /Height 10 /Filter /JPXDecode",
        &siz,
    );
    let file = one_page(
        "/Resources << /XObject << /Im1 5 0 R >> >>",
        stream("", b"q 200 0 0 200 0 0 cm /Im1 Do Q"),
        vec![jpx],
    );
    let (_, code, message) = refused(&s, "jpx.pdf", file).await;
    assert_eq!(code, "corrupt");
    assert!(message.contains("60000 × 60000"), "{message}");

    // A million objects.
    let mut objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>".to_vec(),
    ];
    objects.extend((0..1_000_000).map(|_| b"null".to_vec()));
    let (_, code, message) = refused(&s, "many.pdf", assemble(&objects)).await;
    assert_eq!(code, "corrupt");
    assert!(message.contains("pdf.max_objects"), "{message}");

    // Not a PDF at all.
    let (status, code, _) = refused(&s, "fake.pdf", b"<html>no</html>".to_vec()).await;
    assert_eq!((status, code.as_str()), (422, "corrupt"));
}

#[tokio::test(flavor = "multi_thread")]
async fn broken_structure_ends_in_a_page_or_a_clear_error() {
    let s = start(|_| {}).await;
    // A cross-reference section whose /Prev is itself.
    let mut file = one_page(
        "",
        stream("", b"BT /F1 12 Tf 20 100 Td (loop) Tj ET"),
        vec![],
    );
    let text = String::from_utf8_lossy(&file).into_owned();
    let xref = text.rfind("startxref\n").unwrap();
    let offset: usize = text[xref + 10..].lines().next().unwrap().parse().unwrap();
    let patched = text.replace("trailer\n<< ", &format!("trailer\n<< /Prev {offset} "));
    file = patched.into_bytes();
    s.write("loop.pdf", &file);
    let response = s.preview("loop.pdf").await;
    assert_eq!(response.status(), 201, "an xref loop is read once");

    // A page tree that lists itself among its kids.
    let objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>".to_vec(),
        stream("", b"0 0 1 rg 10 10 50 50 re f"),
    ];
    s.write("cycle.pdf", assemble(&objects));
    let response = s.preview("cycle.pdf").await;
    let status = response.status().as_u16();
    let body: serde_json::Value = response.json().await.unwrap();
    match status {
        201 => {
            let (id, token) = ids(&body);
            let model = json(&s, &format!("/p/{id}/{token}/model.json")).await;
            assert!(model["pageCount"].as_u64().unwrap() <= 2, "{model}");
        }
        _ => assert_eq!(
            (status, body["error"]["code"].as_str()),
            (422, Some("corrupt"))
        ),
    }

    // A font whose program is garbage: the page still renders and has a text layer.
    let font = b"<< /Type /Font /Subtype /TrueType /BaseFont /Broken /FirstChar 32 /LastChar 126 /FontDescriptor 6 0 R >>".to_vec();
    let descriptor = b"<< /Type /FontDescriptor /FontName /Broken /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 7 0 R >>".to_vec();
    let program = stream("", &[0xde, 0xad, 0xbe, 0xef].repeat(500));
    let file = one_page(
        "/Resources << /Font << /F1 5 0 R >> >>",
        stream("", b"BT /F1 12 Tf 20 100 Td (broken font) Tj ET"),
        vec![font, descriptor, program],
    );
    s.write("font.pdf", file);
    let (id, token) = ids(&s.preview_ok("font.pdf").await);
    let page = s.get(&format!("/p/{id}/{token}/page/1?scale=1")).await;
    assert_eq!(page.status(), 200);
    image::load_from_memory(&page.bytes().await.unwrap()).unwrap();
    let layer = json(&s, &format!("/p/{id}/{token}/text/1")).await;
    assert!(layer["runs"].is_array());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_huge_page_renders_within_the_pixel_caps() {
    // A small pixel cap keeps the render quick in a debug build; the default (24 MP) works
    // the same way.
    let s = start(|c| c.pdf.max_page_pixels = 2_000_000).await;
    let page = PageSpec::new(100_000.0, 100_000.0).rect(0.0, 0.0, 50_000.0, 50_000.0, 0.0);
    s.write("huge.pdf", document(&[page], "huge", &[]));
    let (id, token) = ids(&s.preview_ok("huge.pdf").await);
    let response = s.get(&format!("/p/{id}/{token}/page/1?scale=1.5")).await;
    assert_eq!(response.status(), 200);
    assert!(response.headers().get("x-previewd-page").is_none());
    let img = image::load_from_memory(&response.bytes().await.unwrap())
        .unwrap()
        .to_luma8();
    assert!(u64::from(img.width()) * u64::from(img.height()) <= 2_000_000);
    assert!(img.width() > 1000, "{}", img.width());
    // The black quarter is where it belongs: bottom left in PDF space.
    assert_eq!(img.get_pixel(img.width() / 4, img.height() * 3 / 4)[0], 0);
    assert_eq!(img.get_pixel(img.width() * 3 / 4, img.height() / 4)[0], 255);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_page_past_its_deadline_is_a_tile_and_the_others_still_render() {
    let s = start(|c| c.pdf.page_timeout_ms = 400).await;
    // 600,000 small filled paths take seconds to rasterize even in a release build; a
    // page with one word takes milliseconds.
    let mut heavy = String::new();
    for i in 0..600_000 {
        heavy.push_str(&format!("{} {} 1 1 re f\n", i % 190, (i / 190) % 190));
    }
    let pages = [
        PageSpec {
            content: heavy,
            ..PageSpec::new(200.0, 200.0)
        },
        PageSpec::new(200.0, 200.0).text(20.0, 100.0, 12.0, "light"),
    ];
    s.write("slow.pdf", document(&pages, "slow", &[]));
    let (id, token) = ids(&s.preview_ok("slow.pdf").await);
    let response = s.get(&format!("/p/{id}/{token}/page/1?scale=1")).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["x-previewd-page"], "timeout");
    let tile = image::load_from_memory(&response.bytes().await.unwrap()).unwrap();
    assert_eq!((tile.width(), tile.height()), (200, 200));
    // The other page is unaffected.
    let response = s.get(&format!("/p/{id}/{token}/page/2?scale=1")).await;
    assert!(response.headers().get("x-previewd-page").is_none());
    image::load_from_memory(&response.bytes().await.unwrap()).unwrap();
    let layer = json(&s, &format!("/p/{id}/{token}/text/2")).await;
    assert_eq!(layer["runs"][0]["t"], "light");
}

#[tokio::test(flavor = "multi_thread")]
async fn only_http_links_are_exposed_and_actions_are_not() {
    let s = start(|_| {}).await;
    let page = PageSpec::new(300.0, 300.0)
        .text(20.0, 250.0, 12.0, "links")
        .link("https://example.com/ok", [10.0, 240.0, 100.0, 260.0])
        .link("javascript:alert(1)", [10.0, 200.0, 100.0, 220.0])
        .link("file:///etc/passwd", [10.0, 160.0, 100.0, 180.0]);
    s.write("links.pdf", document(&[page], "links", &[]));
    let (id, token) = ids(&s.preview_ok("links.pdf").await);
    let model = json(&s, &format!("/p/{id}/{token}/model.json")).await;
    let links = model["pages"][0]["links"].as_array().unwrap();
    assert_eq!(links.len(), 1, "{links:?}");
    assert_eq!(links[0]["url"], "https://example.com/ok");
    let shell = s.get_text(&format!("/p/{id}/{token}/")).await;
    assert!(shell.contains(
        "href=\"https://example.com/ok\" target=\"_blank\" rel=\"noopener noreferrer nofollow\""
    ));
    assert!(!shell.contains("javascript:") && !shell.contains("file:///"));
    // A JavaScript open action on a page: the file opens, nothing of the script shows.
    s.write("js.pdf", fixture("tika-testPDF_jsActionOnPage.pdf"));
    let (id, token) = ids(&s.preview_ok("js.pdf").await);
    let shell = s.get_text(&format!("/p/{id}/{token}/")).await;
    assert!(!shell.to_lowercase().contains("app.alert"), "{shell}");
}

#[test]
fn the_cli_renders_a_page_and_prints_text_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("b.pdf");
    std::fs::write(&file, fixture("tika-testPDF_bookmarks.pdf")).unwrap();
    let out = dir.path().join("page.png");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_previewd"))
        .args(["preview"])
        .arg(&file)
        .args(["--format", "png", "--page", "2", "--scale", "1", "-o"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let img = image::open(&out).unwrap();
    assert_eq!((img.width(), img.height()), (595, 842));
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_previewd"))
        .args(["preview"])
        .arg(&file)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["pageCount"], 2);
    assert_eq!(json["text"][1]["text"], "This is a page about Denmark");
    let missing = std::process::Command::new(env!("CARGO_BIN_EXE_previewd"))
        .args(["preview"])
        .arg(&file)
        .args(["--format", "png", "--page", "3"])
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("not_found"));
}

/// A page of eight nested forms each drawing the next four times: 4^8 (65,536) squares, a
/// raster of seconds that cannot be stopped. (Not more: the test's runtime waits for the
/// renders to end before the test can finish.)
fn slow_page_objects(first: usize) -> Vec<Vec<u8>> {
    const LEVELS: usize = 8;
    (0..LEVELS)
        .map(|level| {
            let (content, resources) = if level + 1 < LEVELS {
                (
                    "/X Do /X Do /X Do /X Do".to_string(),
                    format!("/Resources << /XObject << /X {} 0 R >> >>", first + level + 1),
                )
            } else {
                ("0 0 1 1 re f".to_string(), String::new())
            };
            format!(
                "<< /Type /XObject /Subtype /Form /BBox [0 0 200 200] {resources} /Length {} >>\nstream\n{content}\nendstream",
                content.len()
            )
            .into_bytes()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn slow_pages_take_one_worker_each_and_at_most_half_the_pool() {
    let s = start(|c| {
        c.pdf.page_timeout_ms = 300;
        c.work.workers = 4;
    })
    .await;
    // Pages 1-3 are slow, page 4 is empty. Objects: catalog 1, pages 2, page dicts 3-6,
    // contents 7-10, then eight forms per slow page.
    let mut objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R 6 0 R] /Count 4 >>".to_vec(),
    ];
    for p in 0..4 {
        let resources = if p < 3 {
            format!("/Resources << /XObject << /X {} 0 R >> >>", 11 + 8 * p)
        } else {
            String::new()
        };
        objects.push(
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] {resources} /Contents {} 0 R >>",
                7 + p
            )
            .into_bytes(),
        );
    }
    for p in 0..4 {
        let content = if p < 3 { "/X Do" } else { "" };
        objects.push(stream("", content.as_bytes()));
    }
    for p in 0..3 {
        objects.extend(slow_page_objects(11 + 8 * p));
    }
    s.write("slow3.pdf", assemble(&objects));
    let (id, token) = ids(&s.preview_ok("slow3.pdf").await);
    let running = || async {
        json(&s, "/healthz").await["pool"]["running"]
            .as_u64()
            .unwrap()
    };
    let page = |n: u32| {
        let path = format!("/p/{id}/{token}/page/{n}?scale=1");
        let s = &s;
        async move { s.get(&path).await }
    };
    let r = page(1).await;
    assert_eq!(r.headers()["x-previewd-page"], "timeout");
    assert_eq!(running().await, 1, "page 1 keeps its worker");
    // Asked again, page 1 is not started a second time.
    let r = page(1).await;
    assert_eq!(r.headers()["x-previewd-page"], "timeout");
    assert_eq!(running().await, 1, "a slow page is not rendered twice");
    let r = page(2).await;
    assert_eq!(r.headers()["x-previewd-page"], "timeout");
    assert_eq!(running().await, 2);
    // Two late renders hold half of the four workers: page 3 is not started.
    let r = page(3).await;
    assert_eq!(r.headers()["x-previewd-page"], "timeout");
    assert_eq!(
        running().await,
        2,
        "no raster starts while half the pool is late"
    );
    // The rest of the service still works.
    let layer = json(&s, &format!("/p/{id}/{token}/text/4")).await;
    assert!(layer["runs"].as_array().unwrap().is_empty());
}
