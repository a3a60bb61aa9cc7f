//! Fonts of the Office viewers through the real router and in real Chromium: the page's
//! `@font-face` rules point at previewd's own font URLs, those serve the machine's open
//! fonts and the document's embedded (de-obfuscated) fonts with long cache headers, and
//! Chromium lays out a Verdana run with DejaVu Sans, a Calibri run with Carlito, an
//! MS Mincho run with Noto Serif CJK JP, and the embedded face from previewd's URL.

mod common;

use std::io::Write;

use chromiumoxide::cdp::browser_protocol::css::{
    EnableParams, GetPlatformFontsForNodeParams, PlatformFontUsage,
};
use chromiumoxide::cdp::browser_protocol::dom;
use common::browser::{eval, wait_for, TestBrowser};
use common::{error_of, ids, start};

/// DejaVu Sans Mono (the repository's shipped copy; licence in `assets/fonts`), embedded
/// in the generated document under another family name.
const EMBEDDED_TTF: &[u8] = include_bytes!("../assets/fonts/DejaVuSansMono.ttf");
const FONT_KEY: &str = "{3A6F09C2-7B1D-4E58-A0C3-9D2E61F4B785}";
const REAL_DOCX: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/docx/lotest-041_fdo_67303.docx"
);

/// Obfuscates a font as ECMA-376 Part 1, 17.8.1 says: the first 32 bytes XORed with the
/// GUID's bytes, taken from the last hex pair of the GUID string to the first.
fn obfuscate(font: &[u8], guid: &str) -> Vec<u8> {
    let hex: String = guid.chars().filter(|c| c.is_ascii_hexdigit()).collect();
    let key: Vec<u8> = (0..16)
        .map(|i| u8::from_str_radix(&hex[30 - 2 * i..32 - 2 * i], 16).unwrap())
        .collect();
    let mut out = font.to_vec();
    for (i, b) in out.iter_mut().take(32).enumerate() {
        *b ^= key[i % 16];
    }
    out
}

fn run(font: &str, text: &str) -> String {
    format!(
        "<w:p><w:r><w:rPr><w:rFonts w:ascii=\"{font}\" w:hAnsi=\"{font}\" w:eastAsia=\"{font}\"/></w:rPr><w:t>{text}</w:t></w:r></w:p>"
    )
}

/// A Word package whose font table describes Verdana, Tahoma, Calibri and MS Mincho and embeds
/// an obfuscated face.
fn fonts_docx() -> Vec<u8> {
    let w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
    let r = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
    let body = [
        run("Verdana", "Verdana sample"),
        run("Calibri", "Calibri sample"),
        run("MS Mincho", "明朝の見本"),
        run("Embedded Face", "Embedded sample"),
        run("Georgia", "Georgia sample"),
        run("Tahoma", "Tahoma sample"),
        run("Tahoma", "Tahoma italic sample").replace("<w:rPr>", "<w:rPr><w:i/>"),
        "<w:p><m:oMath><m:r><m:t>x+y=z</m:t></m:r></m:oMath></w:p>".to_string(),
    ]
    .concat();
    let document = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><w:document xmlns:w=\"{w}\" xmlns:r=\"{r}\" xmlns:m=\"http://schemas.openxmlformats.org/officeDocument/2006/math\"><w:body>{body}</w:body></w:document>"
    );
    let font_table = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><w:fonts xmlns:w=\"{w}\" xmlns:r=\"{r}\">\
         <w:font w:name=\"Verdana\"><w:panose1 w:val=\"020B0604030504040204\"/><w:charset w:val=\"00\"/><w:family w:val=\"swiss\"/><w:pitch w:val=\"variable\"/></w:font>\
         <w:font w:name=\"Tahoma\"><w:panose1 w:val=\"020B0604030504040204\"/><w:charset w:val=\"00\"/><w:family w:val=\"swiss\"/><w:pitch w:val=\"variable\"/></w:font>\
         <w:font w:name=\"Georgia\"><w:panose1 w:val=\"02040502050405020303\"/><w:family w:val=\"roman\"/><w:pitch w:val=\"variable\"/></w:font>\
         <w:font w:name=\"Calibri\"><w:panose1 w:val=\"020F0502020204030204\"/><w:family w:val=\"swiss\"/><w:pitch w:val=\"variable\"/></w:font>\
         <w:font w:name=\"MS Mincho\"><w:altName w:val=\"ＭＳ 明朝\"/><w:charset w:val=\"80\"/><w:family w:val=\"modern\"/><w:pitch w:val=\"fixed\"/></w:font>\
         <w:font w:name=\"Embedded Face\"><w:family w:val=\"modern\"/><w:pitch w:val=\"fixed\"/><w:embedRegular r:id=\"rId1\" w:fontKey=\"{FONT_KEY}\"/></w:font>\
         </w:fonts>"
    );
    let parts: Vec<(&str, Vec<u8>)> = vec![
        ("[Content_Types].xml", r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="odttf" ContentType="application/vnd.openxmlformats-officedocument.obfuscatedFont"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/fontTable.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.fontTable+xml"/></Types>"#.into()),
        ("_rels/.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#.into()),
        ("word/_rels/document.xml.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/fontTable" Target="fontTable.xml"/></Relationships>"#.into()),
        ("word/_rels/fontTable.xml.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/font" Target="fonts/font1.odttf"/></Relationships>"#.into()),
        ("word/document.xml", document.into_bytes()),
        ("word/fontTable.xml", font_table.into_bytes()),
        ("word/fonts/font1.odttf", obfuscate(EMBEDDED_TTF, FONT_KEY)),
    ];
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in parts {
        zip.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(&bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// The shell page of a preview, its HTML-escaped style attributes read back as CSS.
async fn shell_page(s: &common::TestServer, preview: &serde_json::Value) -> String {
    let (id, token) = ids(preview);
    s.get_text(&format!("/p/{id}/{token}/"))
        .await
        .replace("&#39;", "'")
}

/// Every `url(…)` of the page's `@font-face` rules.
fn font_urls(page: &str) -> Vec<String> {
    page.match_indices("@font-face{")
        .filter_map(|(i, _)| {
            let rule = &page[i..i + page[i..].find('}')?];
            let at = rule.find("url(")? + 4;
            Some(rule[at..at + rule[at..].find(')')?].to_string())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn font_urls_of_a_rendered_page_serve_fonts_with_cache_headers() {
    let s = start(|_| {}).await;
    s.write("fonts.docx", fonts_docx());
    let body = s.preview_ok("fonts.docx").await;
    let (id, token) = ids(&body);
    let shell = s.get(&format!("/p/{id}/{token}/")).await;
    let csp = shell.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(csp.contains("font-src 'self';"), "{csp}");
    // Style attributes are HTML-escaped: read them back as CSS.
    let page = shell.text().await.unwrap().replace("&#39;", "'");
    assert!(
        page.contains("font-family:'Verdana','DejaVu Sans',sans-serif"),
        "Verdana's stack"
    );
    assert!(page.contains("font-family:'Carlito','Calibri','Liberation Sans',sans-serif"));
    assert!(page.contains("font-family:'MS Mincho','Noto Serif CJK JP',serif"));
    assert!(page.contains("font-family:'Embedded Face','Liberation Mono',monospace"));
    let urls = font_urls(&page);
    let machine: Vec<&String> = urls
        .iter()
        .filter(|u| u.starts_with("../../../fonts/"))
        .collect();
    assert!(
        machine.len() >= 8,
        "Carlito, DejaVu Sans … are declared: {urls:?}"
    );
    assert!(
        urls.iter().all(|u| !u.contains("/usr/")),
        "no host path: {urls:?}"
    );
    assert_eq!(
        urls.iter().filter(|u| *u == "font/0").count(),
        1,
        "{urls:?}"
    );

    for url in &machine {
        let font_id = url.rsplit('/').next().unwrap();
        let r = s.get(&format!("/fonts/{font_id}")).await;
        assert_eq!(r.status(), 200, "{url}");
        let h = r.headers().clone();
        assert!(
            matches!(h["content-type"].to_str().unwrap(), "font/ttf" | "font/otf"),
            "{h:?}"
        );
        assert_eq!(h["cache-control"], "public, max-age=31536000, immutable");
        assert_eq!(h["content-security-policy"], "default-src 'none'");
        assert_eq!(h["x-content-type-options"], "nosniff");
        let bytes = r.bytes().await.unwrap();
        ttf_parser::Face::parse(&bytes, 0).expect("a font the browser can read");
    }

    // The embedded face comes back de-obfuscated: the very font that was embedded.
    let r = s.get(&format!("/p/{id}/{token}/font/0")).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "font/ttf");
    assert_eq!(
        r.headers()["cache-control"],
        "private, max-age=86400, immutable"
    );
    assert_eq!(&r.bytes().await.unwrap()[..], EMBEDDED_TTF);

    assert_eq!(
        error_of(s.get("/fonts/0123456789abcdef").await).await,
        (404, "not_found".into())
    );
    assert_eq!(
        error_of(s.get("/fonts/..%2F..%2Fetc%2Fpasswd").await).await,
        (404, "not_found".into())
    );
    assert_eq!(
        error_of(s.get(&format!("/p/{id}/{token}/font/1")).await).await,
        (404, "not_found".into())
    );
    assert_eq!(
        error_of(s.get(&format!("/p/{id}/{token}/font/x")).await).await,
        (404, "not_found".into())
    );
    // Other answers keep their no-store header.
    let r = s.get(&format!("/p/{id}/{token}/model.json")).await;
    assert_eq!(r.headers()["cache-control"], "no-store, max-age=0");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_real_font_table_gives_open_stacks() {
    let s = start(|_| {}).await;
    s.write("fdo67303.docx", std::fs::read(REAL_DOCX).unwrap());
    let body = s.preview_ok("fdo67303.docx").await;
    let page = shell_page(&s, &body).await;
    // Its runs are in Segoe UI, which the font table calls swiss.
    assert!(
        page.contains("font-family:'Segoe UI','Liberation Sans',sans-serif"),
        "Segoe UI stack"
    );
    // Verdana is in the table: DejaVu Sans is declared, served by previewd.
    let declares =
        |family: &str| page.contains(&format!("@font-face{{font-family:'{family}';src:local("));
    for family in [
        "DejaVu Sans",
        "Carlito",
        "Caladea",
        "Liberation Serif",
        "Liberation Mono",
    ] {
        assert!(declares(family), "{family} is declared");
    }
}

/// PowerPoint keeps no font table: a font a deck's runs name outside its theme (python-pptx's
/// Verdana run) gets its stand-in declared and served all the same, with its line metrics.
#[tokio::test(flavor = "multi_thread")]
async fn a_decks_run_fonts_get_their_stand_ins_served() {
    let s = start(|_| {}).await;
    s.write(
        "typeface.pptx",
        std::fs::read("fixtures/corpus/pptx/python-pptx-txt-font-typeface.pptx").unwrap(),
    );
    let body = s.preview_ok("typeface.pptx").await;
    let (id, token) = ids(&body);
    let page = s
        .get_text(&format!("/p/{id}/{token}/"))
        .await
        .replace("&#39;", "'");
    let rule = page
        .match_indices("@font-face{font-family:'DejaVu Sans';src:local('DejaVuSans'),url(")
        .map(|(i, _)| &page[i..i + page[i..].find('}').unwrap()])
        .next()
        .expect("Verdana's stand-in is declared with a served source");
    assert!(
        rule.ends_with("ascent-override:92.82%;descent-override:23.58%;line-gap-override:0%"),
        "{rule}"
    );
    let url = font_urls(&format!("{rule}}}")).pop().unwrap();
    let font_id = url
        .strip_prefix("../../../fonts/")
        .expect("a machine font URL");
    let font = s.get(&format!("/fonts/{font_id}")).await;
    assert_eq!(font.status(), 200, "{url}");
}

/// Waits for the web fonts the page uses, then enables the DOM and CSS domains that
/// [`platform_fonts`] asks.
async fn fonts_in_and_inspectable(page: &chromiumoxide::Page) {
    eval(page, "Promise.all([...document.fonts].filter(f => f.status !== 'unloaded').map(f => f.loaded)).then(() => true)").await;
    page.execute(dom::EnableParams::default())
        .await
        .expect("DOM.enable");
    page.execute(EnableParams::default())
        .await
        .expect("CSS.enable");
}

/// The faces Chromium actually drew a node's text with.
async fn platform_fonts(page: &chromiumoxide::Page, selector: &str) -> Vec<PlatformFontUsage> {
    let node = page.find_element(selector).await.expect(selector);
    page.execute(GetPlatformFontsForNodeParams::new(node.node_id))
        .await
        .expect("CSS.getPlatformFontsForNode")
        .result
        .fonts
        .clone()
}

/// The family Chromium actually drew a node's text with, and whether it was a web font.
async fn platform_font(page: &chromiumoxide::Page, selector: &str) -> (String, bool) {
    let fonts = platform_fonts(page, selector).await;
    let first = fonts.first().expect("text was drawn").clone();
    (first.family_name, first.is_custom_font)
}

#[tokio::test(flavor = "multi_thread")]
async fn chromium_draws_each_run_with_its_resolved_open_font() {
    let s = start(|_| {}).await;
    s.write("fonts.docx", fonts_docx());
    let body = s.preview_ok("fonts.docx").await;
    let browser = TestBrowser::launch().await;
    let page = browser.open(body["url"].as_str().unwrap()).await;
    wait_for(&page, "document.readyState === 'complete' && document.querySelector('#view-document .docx-page') !== null").await;
    eval(&page, "document.fonts.ready.then(() => true)").await;
    let tagged = eval(
        &page,
        r#"(() => {
            const probes = {'Verdana sample': 'verdana', 'Calibri sample': 'calibri', '明朝の見本': 'mincho', 'Embedded sample': 'embedded', 'Georgia sample': 'georgia', 'Tahoma sample': 'tahoma', 'Tahoma italic sample': 'tahoma-italic'};
            let n = 0;
            // A run whose face is its paragraph's own draws in the paragraph's box.
            for (const el of document.querySelectorAll('#view-document span, #view-document p')) {
                const probe = probes[el.textContent];
                if (probe && el.children.length === 0) { el.setAttribute('data-probe', probe); n++; }
            }
            return n;
        })()"#,
    )
    .await;
    assert_eq!(tagged, 7, "every sample run is an element of its own");
    // Wait for the web fonts the samples use (the embedded face comes from previewd).
    fonts_in_and_inspectable(&page).await;
    assert_eq!(
        platform_font(&page, "[data-probe=verdana]").await.0,
        "DejaVu Sans"
    );
    assert_eq!(
        platform_font(&page, "[data-probe=calibri]").await.0,
        "Carlito"
    );
    assert_eq!(
        platform_font(&page, "[data-probe=mincho]").await.0,
        "Noto Serif CJK JP"
    );
    // The embedded face (DejaVu Sans Mono inside) is a downloaded web font, not the
    // machine's DejaVu Sans Mono nor Liberation Mono next in its stack.
    let embedded = platform_font(&page, "[data-probe=embedded]").await;
    assert_eq!(embedded, ("DejaVu Sans Mono".to_string(), true));
    // Georgia's metric twin ships inside previewd and is served by it; a machine that
    // has Gelasio installed (the fidelity harness installs it) takes it by local().
    let (family, served) = platform_font(&page, "[data-probe=georgia]").await;
    assert_eq!(family, "Gelasio");
    let installed = std::process::Command::new("fc-list")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("Gelasio"))
        .unwrap_or(false);
    assert!(
        served || installed,
        "Gelasio drawn from neither previewd nor the machine"
    );
    let loaded = eval(
        &page,
        "[...document.fonts].filter(f => f.family.replace(/[\"']/g, '') === 'Embedded Face').map(f => f.status)",
    )
    .await;
    assert_eq!(loaded, serde_json::json!(["loaded"]));
    // Wine's Tahoma sets USE_TYPO_METRICS, so Chromium alone would give its lines the typo
    // ascent (1566 + 423 of 2048 units, 0.97 em); Office uses the Windows ascent and
    // descent (2049 + 423, 1.21 em), which the page declares as overrides.
    assert_eq!(
        platform_font(&page, "[data-probe=tahoma]").await.0,
        "Tahoma"
    );
    // Wine's Tahoma has no italic face: italic runs are its upright face slanted, as in
    // Office, not the next family of the stack (the Hebrew fallback's italic face once
    // made the family look italic-capable, so Latin italic fell to DejaVu Sans Oblique).
    assert_eq!(
        platform_font(&page, "[data-probe=tahoma-italic]").await.0,
        "Tahoma"
    );
    // Equations: Cambria Math is missing, so TeX Gyre Termes Math, the free math face
    // nearest its widths (DejaVu Math's glyphs are about 40 % wider and pushed table
    // columns apart).
    assert_eq!(
        platform_font(&page, "#view-document math mi").await.0,
        "TeX Gyre Termes Math"
    );
    let height = eval(
        &page,
        "(() => { const s = document.querySelector('[data-probe=tahoma]'); const r = document.createRange(); r.selectNodeContents(s); return Math.round(1000 * r.getBoundingClientRect().height / parseFloat(getComputedStyle(s).fontSize)); })()",
    )
    .await;
    let height = height.as_i64().unwrap();
    // (Chromium rounds ascent and descent to whole pixels: 15 + 3 px at 11 pt.)
    assert!(
        (1195..=1240).contains(&height),
        "Tahoma line {height}/1000 em"
    );
    browser.close().await;
}

/// A PowerPoint deck whose embedded face is MicroType Express compressed, as PowerPoint
/// writes every `.fntdata`: python-pptx's two-slide text deck with the Calibri Bold
/// Italic part of a ShapeCrawler deck (`fixtures/fonts/README.md`) added to it.
fn deck_with_mtx_font() -> Vec<u8> {
    use std::io::Read;
    let source = std::fs::read("fixtures/corpus/pptx/python-pptx-txt-text.pptx").unwrap();
    let mut input = zip::ZipArchive::new(std::io::Cursor::new(source)).unwrap();
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for i in 0..input.len() {
        let mut entry = input.by_index(i).unwrap();
        let name = entry.name().unwrap().to_string();
        let mut text = Vec::new();
        entry.read_to_end(&mut text).unwrap();
        let edit = |from: &str, to: &str| {
            let s = String::from_utf8(text.clone()).unwrap();
            assert!(s.contains(from), "{name} holds {from}");
            s.replacen(from, to, 1).into_bytes()
        };
        let bytes = match name.as_str() {
            "[Content_Types].xml" => edit(
                "<Default Extension=\"xml\"",
                "<Default Extension=\"fntdata\" ContentType=\"application/x-fontdata\"/><Default Extension=\"xml\"",
            ),
            "ppt/_rels/presentation.xml.rels" => edit(
                "</Relationships>",
                "<Relationship Id=\"rIdF1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/font\" Target=\"fonts/font1.fntdata\"/></Relationships>",
            ),
            "ppt/presentation.xml" => edit(
                "<p:notesSz cx=\"6858000\" cy=\"9144000\"/>",
                "<p:notesSz cx=\"6858000\" cy=\"9144000\"/><p:embeddedFontLst><p:embeddedFont><p:font typeface=\"Calibri\" panose=\"020F0502020204030204\" pitchFamily=\"34\" charset=\"0\"/><p:boldItalic r:id=\"rIdF1\"/></p:embeddedFont></p:embeddedFontLst>",
            ),
            _ => text,
        };
        zip.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(&bytes).unwrap();
    }
    zip.start_file(
        "ppt/fonts/font1.fntdata",
        zip::write::SimpleFileOptions::default(),
    )
    .unwrap();
    zip.write_all(
        &std::fs::read("fixtures/fonts/shapecrawler-case008-calibri-bold-italic.fntdata").unwrap(),
    )
    .unwrap();
    zip.finish().unwrap().into_inner()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_microtype_express_face_of_a_deck_is_served_as_truetype() {
    let s = start(|_| {}).await;
    s.write("deck.pptx", deck_with_mtx_font());
    let (id, token) = ids(&s.preview_ok("deck.pptx").await);
    let page = s.get_text(&format!("/p/{id}/{token}/")).await;
    let urls = font_urls(&page);
    assert!(urls.iter().any(|u| u == "font/0"), "{urls:?}");
    let r = s.get(&format!("/p/{id}/{token}/font/0")).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "font/ttf");
    let bytes = r.bytes().await.unwrap();
    assert_eq!(
        &bytes[..4],
        b"\x00\x01\x00\x00",
        "a TrueType font, no longer EOT"
    );
    let face = ttf_parser::Face::parse(&bytes, 0).expect("a font the browser can load");
    let family = face
        .names()
        .into_iter()
        .find(|n| n.name_id == ttf_parser::name_id::FAMILY && n.is_unicode())
        .and_then(|n| n.to_string());
    assert_eq!(family.as_deref(), Some("Calibri"));
    assert!(face.is_bold() && face.is_italic());
    let a = face.glyph_index('A').expect("'A' is in the subset");
    assert!(face.glyph_bounding_box(a).is_some(), "'A' has its outline");
}

/// Hebrew in a Times New Roman run: Liberation Serif, its stand-in, has no Hebrew, so the
/// page declares DejaVu Sans under Liberation Serif's name for Hebrew alone, and a bold
/// heading is drawn in its bold face (Chromium's own fallback drew it in the regular face
/// with a faint synthetic bold).
#[tokio::test(flavor = "multi_thread")]
async fn hebrew_in_a_face_without_it_is_drawn_in_the_declared_fallback() {
    let s = start(|_| {}).await;
    let body = r#"<w:p><w:pPr><w:bidi/></w:pPr><w:r><w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman" w:cs="Times New Roman"/><w:b/><w:bCs/><w:rtl/><w:sz w:val="48"/><w:szCs w:val="48"/></w:rPr><w:t>ארצות הברית</w:t></w:r></w:p>"#;
    s.write("hebrew.docx", common::docx::docx_with_body(body));
    let shown = s.preview_ok("hebrew.docx").await;
    let page_url = shown["url"].as_str().unwrap();
    let html = shell_page(&s, &shown).await;
    assert!(
        html.contains("@font-face{font-family:'Liberation Serif';src:local('DejaVuSans-Bold')"),
        "{html}"
    );
    let browser = TestBrowser::launch().await;
    let page = browser.open(page_url).await;
    wait_for(&page, "document.readyState === 'complete' && document.querySelector('#view-document .docx-page') !== null").await;
    eval(
        &page,
        r#"(() => {
            for (const el of document.querySelectorAll('#view-document span, #view-document p')) {
                if (el.textContent === 'ארצות הברית' && el.children.length === 0) { el.setAttribute('data-probe', 'hebrew'); return true; }
            }
            return false;
        })()"#,
    )
    .await;
    fonts_in_and_inspectable(&page).await;
    // The letters' face (the space between the words is Liberation Serif's).
    let fonts = platform_fonts(&page, "[data-probe=hebrew]").await;
    let letters = fonts
        .iter()
        .max_by_key(|f| f.glyph_count as i64)
        .expect("text was drawn");
    // (A `local()` source counts as no web font: the face's own name tells the bold.)
    assert_eq!(letters.post_script_name, "DejaVuSans-Bold", "{fonts:?}");
    browser.close().await;
}
