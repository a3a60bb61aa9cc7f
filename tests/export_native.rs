//! The native export engine, with no browser anywhere: sizes, caps and scale lowering,
//! the size-limit error, PDFs (page cap, extractable text, embedded subset fonts), hard
//! text (CJK, emoji, tabs, CRLF, a 10,000-character line, empty files), hostile input,
//! and the HTTP API on a server whose browser path points at nothing.
//!
//! PDF text is read back with `pdftotext` from Debian's poppler-utils, which the README's
//! test command installs.

mod common;
#[path = "../benches/common/native_diff.rs"]
mod native_diff;

use std::process::Command;

use common::pdftotext;
use previewd::diff::{build_model, DiffDefaults, DiffModel, DiffRequest};
use previewd::export::native::{self, NativeOutput};
use previewd::export::{ExportError, SIZE_LIMIT_MESSAGE};
use serde_json::{json, Value};

fn diff(body: Value) -> (DiffRequest, DiffModel) {
    let request = DiffRequest::from_json(&body, &DiffDefaults::default()).unwrap();
    let model = build_model(&request).unwrap().model().unwrap().clone();
    (request, model)
}

fn render(body: Value) -> Result<NativeOutput, ExportError> {
    let (request, model) = diff(body);
    native::render(&request, &model)
}

fn decode(png: &[u8]) -> image::RgbImage {
    image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .expect("a decodable PNG")
        .into_rgb8()
}

/// `n` lines that all change.
fn changed(n: usize) -> (String, String) {
    let before = (0..n).map(|i| format!("let v{i} = old({i});\n")).collect();
    let after = (0..n)
        .map(|i| format!("let v{i} = new({i}, x);\n"))
        .collect();
    (before, after)
}

/// `tool` (a poppler utility) on `pdf`, then `args`: its stdout and stderr.
fn poppler(tool: &str, pdf: &[u8], args: &[&str]) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("diff.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = Command::new(tool)
        .arg(&path)
        .args(args)
        .output()
        .expect("poppler-utils is needed: run the README's test command");
    assert!(out.status.success(), "{out:?}");
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    (text(out.stdout), text(out.stderr))
}

#[test]
fn a_cjk_pdf_embeds_its_cff_face_as_opentype() {
    // Noto Sans CJK (installed by the test command) has CFF outlines: declared as
    // TrueType, poppler warns "Mismatch between font type and embedded font file".
    let pdf = render(json!({
        "before": "a\n", "after": "你好，世界\n", "fileFormat": "pdf",
    }))
    .unwrap();
    assert_eq!(pdf.missing_glyphs, 0);
    let (text, warnings) = poppler("pdftotext", &pdf.bytes, &["-"]);
    assert!(text.contains("你好，世界"), "{text}");
    assert!(!warnings.contains("Mismatch"), "{warnings}");
    let (fonts, _) = poppler("pdffonts", &pdf.bytes, &[]);
    assert!(fonts.contains("CID Type 0C (OT)"), "{fonts}");
    assert!(
        fonts.contains("CID TrueType"),
        "the shipped face stays TrueType: {fonts}"
    );
}

#[test]
fn png_is_the_frame_times_the_scale() {
    for scale in [1.0, 1.5, 2.0, 2.37] {
        let out = render(json!({
            "before": "a\nb\nc\n", "after": "a\nB\nc\n", "path": "x.txt",
            "mode": "file", "fileScale": scale,
        }))
        .unwrap();
        assert_eq!(out.scale, scale);
        assert_eq!(out.css_width, 960.0);
        let want_w = (960.0 * scale).round() as u32;
        let want_h = (f64::from(out.css_height) * scale).round() as u32;
        assert_eq!((out.width, out.height), (want_w, want_h), "scale {scale}");
        let img = decode(&out.bytes);
        assert_eq!(img.dimensions(), (want_w, want_h));
    }
    // fileMaxWidth sets the frame width.
    let out =
        render(json!({"before": "a\n", "after": "b\n", "fileMaxWidth": 1500, "fileScale": 1}))
            .unwrap();
    assert_eq!(out.width, 1500);
}

#[test]
fn the_frame_has_the_theme_background_and_coloured_rows() {
    for (theme, bg) in [("light", [255, 255, 255]), ("dark", [0x0d, 0x11, 0x17])] {
        let out = render(json!({
            "before": "same\nold line\n", "after": "same\nnew line\n", "theme": theme,
            "fileScale": 1,
        }))
        .unwrap();
        let img = decode(&out.bytes);
        assert_eq!(img.get_pixel(2, 2).0, bg, "{theme} corner");
        // Some pixels are the added row's green tint and some the deleted row's red one.
        let add = if theme == "light" {
            [0xe6, 0xff, 0xec]
        } else {
            [0x12, 0x26, 0x1e]
        };
        let count = |c: [u8; 3]| {
            img.pixels()
                .filter(|p| p.0.iter().zip(c).all(|(a, b)| a.abs_diff(b) <= 2))
                .count()
        };
        assert!(count(add) > 1000, "{theme}: added rows are tinted");
    }
}

#[test]
fn pixel_cap_lowers_the_scale_then_refuses() {
    // About 3,400 CSS px tall: over 8 MP at scale 2, under it at scale 1.
    let (before, after) = changed(70);
    let out = render(json!({"before": before, "after": after, "fileQuality": "standard"})).unwrap();
    assert!(out.scale < 2.0 && out.scale >= 1.0, "{}", out.scale);
    assert!(u64::from(out.width) * u64::from(out.height) <= 8_000_000);
    // The largest scale that fits, to 0.01: one step up is over the cap.
    let up = out.scale + 0.01;
    let over = (960.0 * up).round() * (f64::from(out.css_height) * up).round();
    assert!(
        over > 8_000_000.0,
        "{} is not the largest fitting scale",
        out.scale
    );
    assert_eq!(decode(&out.bytes).dimensions(), (out.width, out.height));

    // Over the cap even at scale 1.
    let (before, after) = changed(400);
    let err = render(json!({"before": before, "after": after})).unwrap_err();
    assert_eq!(err, ExportError::SizeLimit);
    assert_eq!(err.to_string(), SIZE_LIMIT_MESSAGE);
    let mapped = previewd::Error::from(err);
    assert_eq!(mapped.code(), "image_too_large");
}

#[test]
fn sixty_page_pdf_is_refused() {
    // 60 pages of 1056 CSS px at 24 px a row.
    let (before, after) = changed(60 * 1056 / 48 + 10);
    let (request, model) = diff(json!({
        "before": before, "after": after, "fileFormat": "pdf", "fileQuality": "print",
    }));
    assert_eq!(
        native::render(&request, &model),
        Err(ExportError::SizeLimit)
    );
    // The page cap itself, with no pixel cap in the way.
    let frame = native::frame(&request, &model, f32::MAX).unwrap();
    assert!(frame.height > 60.0 * 1056.0, "{}", frame.height);
    assert_eq!(native::pdf(&frame, u64::MAX), Err(ExportError::SizeLimit));
    // Forty pages are fine without the pixel cap.
    let (before, after) = changed(40 * 1056 / 48);
    let (request, model) = diff(json!({"before": before, "after": after, "fileFormat": "pdf"}));
    let frame = native::frame(&request, &model, f32::MAX).unwrap();
    assert!(native::pdf(&frame, u64::MAX).is_ok());
}

#[test]
fn pdf_text_is_extractable_and_the_font_is_a_subset() {
    let out = render(json!({
        "before": "alpha\nbravo\ncharlie\n",
        "after": "alpha\nbravo_quartz_marker\ncharlie\n",
        "path": "notes.txt",
        "fileFormat": "pdf",
        "theme": "light",
    }))
    .unwrap();
    assert!(out.bytes.starts_with(b"%PDF-"));
    assert_eq!(out.width, 960);
    let text = pdftotext(&out.bytes);
    for want in ["bravo_quartz_marker", "notes.txt", "charlie", "+1", "-1"] {
        assert!(text.contains(want), "{want} in {text}");
    }
    let raw = String::from_utf8_lossy(&out.bytes);
    assert!(raw.contains("/FontFile2"), "the font is embedded");
    assert!(raw.contains("+DejaVuSansMono"), "as a subset");
    // The whole face is 340 KB; the subset of a few dozen glyphs is a small part of it.
    assert!(out.bytes.len() < 60_000, "{} bytes", out.bytes.len());
    // Same input, same bytes.
    let again = render(json!({
        "before": "alpha\nbravo\ncharlie\n",
        "after": "alpha\nbravo_quartz_marker\ncharlie\n",
        "path": "notes.txt",
        "fileFormat": "pdf",
        "theme": "light",
    }))
    .unwrap();
    assert_eq!(out.bytes, again.bytes);
}

#[test]
fn cjk_and_emoji_render_and_unknown_glyphs_are_counted() {
    let plain = render(json!({"before": "hello\n", "after": "hello world\n"})).unwrap();
    assert_eq!(plain.missing_glyphs, 0);
    let out = render(json!({
        "before": "greeting = \"hello\"\n",
        "after": "greeting = \"你好，世界 🎉🚀\"\n",
        "path": "i18n.py", "fileFormat": "png",
    }))
    .unwrap();
    // Eight such characters; whatever the machine's fonts lack is a box, and counted.
    assert!(out.missing_glyphs <= 8, "{}", out.missing_glyphs);
    decode(&out.bytes);
    let text = pdftotext(
        &render(json!({
            "before": "a\n", "after": "\u{10FFFD}b\n", "fileFormat": "pdf",
        }))
        .unwrap()
        .bytes,
    );
    assert!(text.contains('b'), "{text}");
    let pua = render(json!({"before": "a\n", "after": "\u{10FFFD}b\n"})).unwrap();
    assert_eq!(pua.missing_glyphs, 1, "a character no font has is one box");
}

#[test]
fn a_ten_thousand_character_line_wraps_inside_the_frame() {
    let long = "x".repeat(10_000);
    let out = render(json!({
        "before": "short\n", "after": format!("{long}\n"), "fileScale": 1,
    }))
    .unwrap();
    assert_eq!(out.width, 960);
    // About 95 characters of 9 px fit beside the numbers: ≥ 100 wrapped lines of 24 px.
    assert!(out.css_height > 100.0 * 24.0, "{}", out.css_height);
    assert!(out.css_height < 140.0 * 24.0 + 400.0, "{}", out.css_height);
    // PDF of the same: the text is all there.
    let pdf = render(json!({
        "before": "short\n", "after": format!("{long}\n"), "fileFormat": "pdf",
    }))
    .unwrap();
    let text = pdftotext(&pdf.bytes).replace("Text diff", "");
    assert_eq!(text.chars().filter(|c| *c == 'x').count(), 10_000);
}

#[test]
fn a_tab_reaches_the_next_stop_of_four() {
    let tab = render(json!({"before": "a\n", "after": "\tx\n", "fileScale": 1})).unwrap();
    let spaces = render(json!({"before": "a\n", "after": "    x\n", "fileScale": 1})).unwrap();
    assert_eq!(decode(&tab.bytes), decode(&spaces.bytes));
    let mid = render(json!({"before": "a\n", "after": "ab\tx\n", "fileScale": 1})).unwrap();
    let mid_spaces = render(json!({"before": "a\n", "after": "ab  x\n", "fileScale": 1})).unwrap();
    assert_eq!(decode(&mid.bytes), decode(&mid_spaces.bytes));
}

#[test]
fn crlf_lines_render_and_mixed_endings_show_the_cr() {
    let lf = render(json!({"before": "a\nb\n", "after": "a\nc\n", "fileScale": 1})).unwrap();
    let crlf =
        render(json!({"before": "a\r\nb\r\n", "after": "a\r\nc\r\n", "fileScale": 1})).unwrap();
    // Same rows; only the header's CRLF tag differs.
    assert_eq!(lf.css_height, crlf.css_height);
    assert_ne!(decode(&lf.bytes), decode(&crlf.bytes));
    let mixed = render(json!({"before": "a\r\nb\n", "after": "a\r\nc\n", "fileScale": 1})).unwrap();
    assert_eq!(mixed.css_height, lf.css_height);
    // The CR of the one CRLF line is drawn as a pill after its text.
    let (a, b) = (decode(&lf.bytes), decode(&mixed.bytes));
    let differing_rows: Vec<u32> = (0..a.height())
        .filter(|&y| (0..a.width()).any(|x| a.get_pixel(x, y) != b.get_pixel(x, y)))
        .collect();
    assert!(!differing_rows.is_empty());
    let text = pdftotext(
        &render(json!({"before": "a\r\nb\n", "after": "a\r\nc\n", "fileFormat": "pdf"}))
            .unwrap()
            .bytes,
    );
    assert!(text.contains("1 a") && text.contains("2 c"), "{text}");
}

#[test]
fn empty_files_render() {
    for (before, after) in [("", "x\n"), ("x\n", ""), ("", "\n")] {
        let out = render(json!({"before": before, "after": after, "fileScale": 1})).unwrap();
        assert_eq!(out.width, 960);
        decode(&out.bytes);
    }
    // A patch whose only file is an empty new file has no rows, only its note.
    let patch = "diff --git a/e.txt b/e.txt\nnew file mode 100644\nindex 0000000..e69de29\n";
    let out = render(json!({"patch": patch, "fileFormat": "pdf"})).unwrap();
    assert!(pdftotext(&out.bytes).contains("Empty file added."));
}

#[test]
fn a_patch_with_renames_and_binary_files_shows_its_summary() {
    let patch = std::fs::read_to_string("fixtures/patches/renames-binary.patch").unwrap();
    let out = render(json!({"patch": patch, "fileFormat": "pdf", "theme": "light"})).unwrap();
    let text = pdftotext(&out.bytes);
    for want in [
        "3 files changed",
        "Renamed 90%",
        "Binary",
        "Binary file not shown.",
        "src/old_name.rs",
        "src/new_name.rs",
    ] {
        assert!(text.contains(want), "{want} in {text}");
    }
}

#[test]
fn hostile_input_is_bounded_and_never_panics() {
    // 120,000 rows: refused by the cap long before all are laid out.
    let mut patch = String::from("--- a/big.txt\n+++ b/big.txt\n@@ -1,60000 +1,60000 @@\n");
    for i in 0..60_000 {
        patch.push_str(&format!("-old {i}\n+new {i}\n"));
    }
    assert_eq!(
        render(json!({"patch": patch})).unwrap_err(),
        ExportError::SizeLimit
    );
    // A 512 KiB line (wraps past any cap).
    let line = "y".repeat(512 * 1024 - 1);
    assert_eq!(
        render(json!({"before": "a\n", "after": format!("{line}\n")})).unwrap_err(),
        ExportError::SizeLimit
    );
    // Controls, bidi overrides, 1,000 stacked combining marks, in both formats.
    let nasty = format!(
        "a\u{0}\u{1b}[31m\u{7f}\u{feff}\u{202e}evil\u{202c}\u{2066}x\u{2069} e{}\n",
        "\u{301}".repeat(1000)
    );
    for format in ["png", "pdf"] {
        let out = render(json!({
            "before": "a\n", "after": nasty, "fileFormat": format, "layout": "split",
        }))
        .unwrap();
        assert!(!out.bytes.is_empty());
    }
    let text = pdftotext(
        &render(json!({"before": "a\n", "after": nasty, "fileFormat": "pdf"}))
            .unwrap()
            .bytes,
    );
    // The override is shown as its code point, in logical order, and reorders nothing.
    assert!(text.contains("U+202E"), "{text}");
    assert!(text.contains("evil"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn file_and_both_modes_work_with_no_browser_at_all() {
    let s =
        common::start(|c| c.browser.executable_path = Some("/nonexistent/chromium".into())).await;
    let post = |body: Value| {
        let s = &s;
        async move {
            let r = s.post_json("/api/v1/diffs", &body).await;
            let status = r.status().as_u16();
            (status, r.json::<Value>().await.unwrap())
        }
    };
    let (status, body) =
        post(json!({"before": "a\nb\n", "after": "a\nc\n", "mode": "file", "fileScale": 1})).await;
    assert_eq!(status, 200, "{body}");
    let d = &body["details"];
    assert!(d.get("viewerUrl").is_none());
    assert_eq!(d["fileFormat"], "png");
    assert_eq!(d["fileScale"], 1.0);
    assert_eq!(d["fileMaxWidth"], 960);
    let bytes = std::fs::read(d["filePath"].as_str().unwrap()).unwrap();
    assert_eq!(d["fileBytes"], bytes.len());
    assert_eq!(decode(&bytes).width(), 960);

    let (status, body) =
        post(json!({"before": "a\n", "after": "b\n", "mode": "both", "fileFormat": "pdf"})).await;
    assert_eq!(status, 200, "{body}");
    let d = &body["details"];
    assert!(d["viewerUrl"].is_string());
    assert!(d.get("fileError").is_none(), "{body}");
    let bytes = std::fs::read(d["filePath"].as_str().unwrap()).unwrap();
    assert!(bytes.starts_with(b"%PDF-"));

    // The size-limit error is the contract's, as with the browser.
    let (before, after) = changed(400);
    let (status, body) = post(json!({"before": before, "after": after, "mode": "file"})).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["error"]["code"], "image_too_large");
    assert_eq!(body["error"]["message"], SIZE_LIMIT_MESSAGE);

    let health: Value = s.get("/healthz").await.json().await.unwrap();
    assert_eq!(
        health["browser"]["state"], "not_started",
        "no browser was needed"
    );
    assert_eq!(health["exportEngines"]["engine"], "native");
    assert_eq!(health["exportEngines"]["native"]["renders"], 2);
    assert_eq!(health["exportEngines"]["native"]["failures"], 1);
    assert_eq!(health["exportEngines"]["chromium"]["renders"], 0);
    assert_eq!(health["export"]["renders"], 2);
    let metrics = s.get_text("/metrics").await;
    assert!(
        metrics.contains("previewd_export_engine_renders_total{engine=\"native\"} 2"),
        "{metrics}"
    );
    assert!(metrics.contains("previewd_export_engine_renders_total{engine=\"chromium\"} 0"));
}

#[test]
fn png_is_the_same_every_time_with_cached_highlighting_and_glyphs() {
    let (before, after) = changed(40);
    let body = json!({"before": before, "after": after, "path": "src/lib.rs",
                      "mode": "file", "layout": "split", "theme": "dark"});
    let first = render(body.clone()).unwrap();
    // Another render in between puts other glyphs, sizes and syntax runs in the caches.
    render(
        json!({"before": "fn a() {}\n", "after": "fn b() {}\n", "path": "a.rs",
                  "mode": "file", "fileScale": 3}),
    )
    .unwrap();
    let second = render(body.clone()).unwrap();
    assert_eq!(
        first.bytes, second.bytes,
        "the second render is the same image"
    );
    assert_eq!(first.width, second.width);
    // The rows are coloured (highlighting reached the picture both times).
    let img = decode(&second.bytes);
    let colours: std::collections::HashSet<_> = img.pixels().map(|p| p.0).collect();
    assert!(colours.len() > 16, "{} colours", colours.len());
}

/// The colour type of a PNG (its `IHDR`): 3 is a palette image, 2 is RGB.
fn colour_type(png: &[u8]) -> u8 {
    assert_eq!(&png[12..16], b"IHDR", "IHDR first");
    png[25]
}

#[test]
fn every_frame_of_the_fidelity_set_is_a_palette_image() {
    // The frames with the most colour pairs: several files with their badges and
    // rounded headers (the patch), word marks, dark translucent tints over each other.
    let patch = std::fs::read_to_string("fixtures/patches/renames-binary.patch").unwrap();
    let (before, after) = changed(30);
    let code = json!({"before": before, "after": after, "path": "src/lib.rs"});
    let words = json!({"before": "one two three\n", "after": "one 2 three four\n",
                       "path": "a.txt"});
    for (base, theme, layout) in [
        (json!({ "patch": patch }), "light", "unified"),
        (json!({ "patch": patch }), "dark", "split"),
        (code.clone(), "light", "split"),
        (code, "dark", "unified"),
        (words, "dark", "split"),
    ] {
        for scale in [1.0, 1.06, 2.0] {
            let mut body = base.clone();
            body["mode"] = json!("file");
            body["theme"] = json!(theme);
            body["layout"] = json!(layout);
            body["fileScale"] = json!(scale);
            let out = render(body).unwrap();
            assert_eq!(
                colour_type(&out.bytes),
                3,
                "{theme} {layout} at {scale}: an RGB image, {} colours",
                decode(&out.bytes)
                    .pixels()
                    .map(|p| p.0)
                    .collect::<std::collections::HashSet<_>>()
                    .len()
            );
        }
    }
    // The benchmarks' 200-line diff at the `standard` preset: lowered to scale 1.06 by
    // the pixel cap, so every box edge falls inside a pixel.
    let (request, model) = native_diff::diff_200("png");
    let out = native::render(&request, &model).unwrap();
    assert!(out.scale < 2.0, "lowered: {}", out.scale);
    assert_eq!(
        colour_type(&out.bytes),
        3,
        "the benchmark's frame at {}",
        out.scale
    );
}
