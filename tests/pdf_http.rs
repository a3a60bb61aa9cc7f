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
    assert!(shell.contains(&format!(
        "static/{}/pdf-viewer.js",
        previewd::preview::assets::version()
    )));
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

/// A JBIG2 segment (T.88, 7.2): number, type, no referred segments, page 1, its data.
fn jbig2_segment(number: u32, kind: u8, body: &[u8]) -> Vec<u8> {
    let mut s = number.to_be_bytes().to_vec();
    s.extend_from_slice(&[kind, 0, 1]);
    s.extend_from_slice(&(body.len() as u32).to_be_bytes());
    s.extend_from_slice(body);
    s
}

/// A JBIG2 stream that declares a `w` × `h` page and ends it (no region: the decoder
/// allocates the page bitmap from this alone).
fn jbig2_page(w: u32, h: u32) -> Vec<u8> {
    let mut info = w.to_be_bytes().to_vec();
    info.extend_from_slice(&h.to_be_bytes());
    info.extend_from_slice(&[0; 11]);
    let mut data = jbig2_segment(0, 48, &info);
    data.extend(jbig2_segment(1, 49, &[]));
    data
}

/// A JPEG 2000 codestream's start whose SIZ marker declares `w` × `h`.
fn jpx_head(w: u32, h: u32) -> Vec<u8> {
    let mut siz = vec![0xff, 0x4f, 0xff, 0x51, 0, 41, 0, 0];
    siz.extend_from_slice(&w.to_be_bytes());
    siz.extend_from_slice(&h.to_be_bytes());
    siz.extend_from_slice(&[0; 30]);
    siz
}

fn ascii_hex(data: &[u8]) -> Vec<u8> {
    let mut out: String = data.iter().map(|b| format!("{b:02x}")).collect();
    out.push('>');
    out.into_bytes()
}

fn ascii85(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in data.chunks(4) {
        let mut word = [0u8; 4];
        word[..chunk.len()].copy_from_slice(chunk);
        let mut n = u32::from_be_bytes(word);
        if n == 0 && chunk.len() == 4 {
            out.push(b'z');
            continue;
        }
        let mut digits = [0u8; 5];
        for d in digits.iter_mut().rev() {
            *d = b'!' + (n % 85) as u8;
            n /= 85;
        }
        out.extend_from_slice(&digits[..chunk.len() + 1]);
    }
    out.extend_from_slice(b"~>");
    out
}

/// A page that draws one 10 × 10 image, its stream `filters` and `data`.
fn image_page(filters: &str, data: &[u8]) -> Vec<u8> {
    let image = stream(
        &format!("/Type /XObject /Subtype /Image /Width 10 /Height 10 /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter {filters}"),
        data,
    );
    one_page(
        "/Resources << /XObject << /Im1 5 0 R >> >>",
        stream("", b"q 200 0 0 200 0 0 cm /Im1 Do Q"),
        vec![image],
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn bombs_behind_ascii_filters_are_refused_and_small_images_render() {
    // A low cap, so the bombs stay affordable if one got through to the decoder.
    let s = start(|c| c.pdf.max_image_pixels = 1_000_000).await;
    let bomb = jbig2_page(4000, 4000);
    let jpx = jpx_head(4000, 4000);
    let cases: Vec<(&str, &str, Vec<u8>)> = vec![
        ("jbig2.pdf", "/JBIG2Decode", bomb.clone()),
        (
            "jbig2-flate.pdf",
            "[/FlateDecode /JBIG2Decode]",
            zlib(&bomb, 6),
        ),
        (
            "jbig2-hex.pdf",
            "[/ASCIIHexDecode /JBIG2Decode]",
            ascii_hex(&bomb),
        ),
        ("jbig2-a85.pdf", "[/A85 /JBIG2Decode]", ascii85(&bomb)),
        (
            "jbig2-hex-flate.pdf",
            "[/AHx /Fl /JBIG2Decode]",
            ascii_hex(&zlib(&bomb, 6)),
        ),
        (
            "jpx-hex.pdf",
            "[/ASCIIHexDecode /JPXDecode]",
            ascii_hex(&jpx),
        ),
        ("jpx-a85.pdf", "[/ASCII85Decode /JPXDecode]", ascii85(&jpx)),
    ];
    for (name, filters, data) in cases {
        let (status, code, message) = refused(&s, name, image_page(filters, &data)).await;
        assert_eq!(
            (status, code.as_str()),
            (422, "corrupt"),
            "{name}: {message}"
        );
        assert!(
            message.contains("4000 × 4000") && message.contains("pdf.max_image_pixels"),
            "{name}: {message}"
        );
    }
    // Behind LZW the codestream is not read, so it is refused as such.
    let (status, code, message) = refused(
        &s,
        "jbig2-lzw.pdf",
        image_page("[/LZWDecode /JBIG2Decode]", &bomb),
    )
    .await;
    assert_eq!((status, code.as_str()), (422, "corrupt"), "{message}");
    assert!(message.contains("LZW"), "{message}");
    // A deflate bomb spelled in hex or base 85 is measured like the bare one.
    let deflated = zlib(&vec![0u8; 64 << 20], 9);
    for (name, filters, data) in [
        (
            "bomb-hex.pdf",
            "[/ASCIIHexDecode /FlateDecode]",
            ascii_hex(&deflated),
        ),
        ("bomb-a85.pdf", "[/A85 /Fl]", ascii85(&deflated)),
    ] {
        let content = stream(&format!("/Filter {filters}"), &data);
        let (status, code, message) = refused(&s, name, one_page("", content, vec![])).await;
        assert_eq!(
            (status, code.as_str()),
            (422, "corrupt"),
            "{name}: {message}"
        );
        assert!(
            message.contains("pdf.max_inflate_ratio"),
            "{name}: {message}"
        );
    }
    // A JBIG2 page under the cap opens, and its page request is a page, behind the same
    // filters.
    for (name, filters, data) in [
        ("small.pdf", "/JBIG2Decode", jbig2_page(900, 900)),
        (
            "small-hex.pdf",
            "[/ASCIIHexDecode /JBIG2Decode]",
            ascii_hex(&jbig2_page(900, 900)),
        ),
    ] {
        s.write(name, image_page(filters, &data));
        let (id, token) = ids(&s.preview_ok(name).await);
        let response = s.get(&format!("/p/{id}/{token}/page/1?scale=1")).await;
        assert_eq!(response.status(), 200, "{name}");
        assert!(
            response.headers().get("x-previewd-page").is_none(),
            "{name}"
        );
        let img = image::load_from_memory(&response.bytes().await.unwrap()).unwrap();
        assert_eq!((img.width(), img.height()), (200, 200), "{name}");
    }
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

#[tokio::test(flavor = "multi_thread")]
async fn launch_actions_embedded_files_and_links_into_files_are_not_exposed() {
    let s = start(|_| {}).await;
    // An open action that launches a program, an embedded file, a form field whose action
    // submits the form, and link annotations that launch, go to another file and import
    // data: none of them is an http(s) URL, so none reaches the model or the page.
    let objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R /OpenAction << /S /Launch /F (calc.exe) >> /Names << /EmbeddedFiles << /Names [(evil.exe) 6 0 R] >> >> /AcroForm << /Fields [8 0 R] >> >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Annots [5 0 R 9 0 R 10 0 R 8 0 R] >>".to_vec(),
        stream("", b"BT /F1 12 Tf 20 100 Td (actions) Tj ET"),
        b"<< /Type /Annot /Subtype /Link /Rect [10 10 100 30] /A << /S /Launch /F (calc.exe) >> >>".to_vec(),
        b"<< /Type /Filespec /F (evil.exe) /EF << /F 7 0 R >> >>".to_vec(),
        stream("/Type /EmbeddedFile", b"MZ not a program"),
        b"<< /Type /Annot /Subtype /Widget /FT /Btn /T (go) /Rect [10 40 100 60] /A << /S /SubmitForm /F << /FS /URL /F (https://attacker.example/submit) >> >> >>".to_vec(),
        b"<< /Type /Annot /Subtype /Link /Rect [10 70 100 90] /A << /S /GoToR /F (other.pdf) /D [0 /Fit] >> >>".to_vec(),
        b"<< /Type /Annot /Subtype /Link /Rect [10 120 100 140] /A << /S /ImportData /F (data.fdf) >> >>".to_vec(),
    ];
    s.write("actions.pdf", assemble(&objects));
    let (id, token) = ids(&s.preview_ok("actions.pdf").await);
    let model = json(&s, &format!("/p/{id}/{token}/model.json")).await;
    assert!(
        model["pages"][0]["links"].as_array().unwrap().is_empty(),
        "{model}"
    );
    let shell = s.get_text(&format!("/p/{id}/{token}/")).await;
    for word in [
        "calc.exe",
        "evil.exe",
        "other.pdf",
        "attacker.example",
        "data.fdf",
    ] {
        assert!(!shell.contains(word), "{word}");
        assert!(!model.to_string().contains(word), "{word}");
    }
    let info = s.get_text(&format!("/p/{id}/{token}/info")).await;
    assert!(!info.contains("evil.exe"));
    // The page itself renders.
    let response = s.get(&format!("/p/{id}/{token}/page/1?scale=1")).await;
    assert_eq!(response.status(), 200);
    assert!(response.headers().get("x-previewd-page").is_none());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_document_over_the_page_limit_is_refused_with_the_key() {
    let s = start(|c| c.pdf.max_pages = 2).await;
    let pages = vec![PageSpec::new(100.0, 100.0); 3];
    let (status, code, message) = refused(&s, "three.pdf", document(&pages, "three", &[])).await;
    assert_eq!((status, code.as_str()), (422, "corrupt"), "{message}");
    assert!(
        message.contains("3 pages") && message.contains("pdf.max_pages"),
        "{message}"
    );
    s.write("two.pdf", document(&pages[..2], "two", &[]));
    s.preview_ok("two.pdf").await;
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

/// `count` small filled squares in one content stream: a raster of seconds with no object
/// looked up, which the deadline cannot stop (only the service's late-render cap holds it).
fn squares(count: usize) -> String {
    let mut content = String::with_capacity(count * 16);
    for i in 0..count {
        content.push_str(&format!("{} {} 1 1 re f\n", i % 190, (i / 190) % 190));
    }
    content
}

/// `levels` nested forms, objects `first`.., each drawing the next four times, the last a
/// square: 4^(levels-1) squares, and an object looked up for each `Do`.
fn nested_forms(first: usize, levels: usize) -> Vec<Vec<u8>> {
    (0..levels)
        .map(|level| {
            let (content, resources) = if level + 1 < levels {
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

/// The pool's running jobs, from `/healthz`.
async fn running(s: &TestServer) -> u64 {
    json(s, "/healthz").await["pool"]["running"]
        .as_u64()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn slow_pages_take_one_worker_each_and_at_most_half_the_pool() {
    let s = start(|c| {
        c.pdf.page_timeout_ms = 300;
        c.work.workers = 4;
    })
    .await;
    // Pages 1-3 are slow in a way the deadline cannot stop (one long stream of paths),
    // page 4 is empty.
    let mut pages: Vec<PageSpec> = (0..3)
        .map(|_| PageSpec {
            content: squares(150_000),
            ..PageSpec::new(200.0, 200.0)
        })
        .collect();
    pages.push(PageSpec::new(200.0, 200.0));
    s.write("slow3.pdf", document(&pages, "slow", &[]));
    let (id, token) = ids(&s.preview_ok("slow3.pdf").await);
    let page = |n: u32| {
        let path = format!("/p/{id}/{token}/page/{n}?scale=1");
        let s = &s;
        async move { s.get(&path).await }
    };
    let r = page(1).await;
    assert_eq!(r.headers()["x-previewd-page"], "timeout");
    assert_eq!(running(&s).await, 1, "page 1 keeps its worker");
    // Asked again, page 1 is not started a second time.
    let r = page(1).await;
    assert_eq!(r.headers()["x-previewd-page"], "timeout");
    assert_eq!(running(&s).await, 1, "a slow page is not rendered twice");
    let r = page(2).await;
    assert_eq!(r.headers()["x-previewd-page"], "timeout");
    assert_eq!(running(&s).await, 2);
    // Two late renders hold half of the four workers: page 3 is not started.
    let r = page(3).await;
    assert_eq!(r.headers()["x-previewd-page"], "timeout");
    assert_eq!(
        running(&s).await,
        2,
        "no raster starts while half the pool is late"
    );
    // The rest of the service still works.
    let layer = json(&s, &format!("/p/{id}/{token}/text/4")).await;
    assert!(layer["runs"].as_array().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_page_past_its_deadline_gives_its_worker_back() {
    let s = start(|c| {
        c.pdf.page_timeout_ms = 300;
        c.work.workers = 2;
    })
    .await;
    // Eleven nested forms: 4^10 (about a million) squares, minutes of raster in a debug
    // build, each drawn through a `Do` that looks its form up.
    let file = one_page(
        "/Resources << /XObject << /X 5 0 R >> >>",
        stream("", b"/X Do"),
        nested_forms(5, 11),
    );
    s.write("forms.pdf", file);
    let (id, token) = ids(&s.preview_ok("forms.pdf").await);
    let path = format!("/p/{id}/{token}/page/1?scale=1");
    let r = s.get(&path).await;
    assert_eq!(r.headers()["x-previewd-page"], "timeout");
    // The render stops at its deadline, so its worker comes back. Polled, with a bound far
    // past the deadline (the render itself would take minutes).
    let mut left = running(&s).await;
    for _ in 0..300 {
        if left == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        left = running(&s).await;
    }
    assert_eq!(left, 0, "the late raster still holds its worker");
    // Asked again, the page is the tile at once and starts no render.
    let r = s.get(&path).await;
    assert_eq!(r.headers()["x-previewd-page"], "timeout");
    assert_eq!(running(&s).await, 0);
    let layer = json(&s, &format!("/p/{id}/{token}/text/1")).await;
    assert!(layer["runs"].as_array().unwrap().is_empty());
}
