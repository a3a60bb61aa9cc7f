//! Fidelity of the native engine against Chromium: the same twelve diffs and a session's
//! Changes view rendered by both engines at the same scale must have the same size and an SSIM of at least 0.95.
//!
//! Chromium renders the viewer's image variant, which loads the same shipped DejaVu Sans
//! Mono faces the native engine draws with, so the comparison is of layout and painting,
//! not of fonts. The browser is found the way the export finds it; a missing browser fails
//! the test with instructions, it never skips.
//!
//! With `PREVIEWD_WRITE_SAMPLES=1` the test also writes each pair side by side (native
//! left, Chromium right) to `benches/samples/native-vs-chromium/`, which is how the
//! committed pictures there were made.

use previewd::activity::changes::changes_model;
use previewd::activity::{project_session, SessionInput};
use previewd::config::BrowserConfig;
use previewd::diff::{build_model, DiffDefaults, DiffIndicators, DiffModel, DiffRequest};
use previewd::export::{Discovery, Exporter};
use serde_json::{json, Value};

/// The lowest SSIM a pair may have.
const MIN_SSIM: f64 = 0.95;

/// The device scale of both renders: the `standard` preset's.
const SCALE: f64 = 2.0;

const RUST_BEFORE: &str = "use std::collections::BTreeMap;\n\nfn main() {\n    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();\n    for word in \"the quick brown fox\".split_whitespace() {\n        *counts.entry(word).or_default() += 1;\n    }\n    for (word, n) in &counts {\n        println!(\"{word:>6} {n}\");\n    }\n}\n";
const RUST_AFTER: &str = "use std::collections::BTreeMap;\n\nfn main() {\n    let text = std::env::args().nth(1).unwrap_or_default();\n    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();\n    for word in text.split_whitespace() {\n        *counts.entry(word).or_default() += 1;\n    }\n    for (word, n) in &counts {\n        println!(\"{word:>10} {n:>4}\");\n    }\n}\n";
const PROSE_BEFORE: &str = "The service shows workspace files safely.\nIt renders diffs in a browser.\nImages take a third of a second.\nNothing else changes here.\n";
const PROSE_AFTER: &str = "The service shows workspace files safely and at once.\nIt renders diffs natively, without a browser.\nImages take a few milliseconds.\nNothing else changes here.\n";

fn long_lines() -> (String, String) {
    let words = "alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima ";
    let before = format!("short line\n{}\nend\n", words.repeat(4));
    let after = format!("short line\n{}mike\nend\n", words.repeat(4));
    (before, after)
}

struct Case {
    name: &'static str,
    body: Value,
    tweak: fn(&mut DiffRequest),
}

fn cases() -> Vec<Case> {
    let patch = std::fs::read_to_string("fixtures/patches/renames-binary.patch").unwrap();
    let (long_before, long_after) = long_lines();
    let rust = |layout: &str, theme: &str| {
        json!({"before": RUST_BEFORE, "after": RUST_AFTER, "path": "src/main.rs",
               "layout": layout, "theme": theme})
    };
    let none = |_: &mut DiffRequest| {};
    vec![
        Case {
            name: "unified-light",
            body: rust("unified", "light"),
            tweak: none,
        },
        Case {
            name: "unified-dark",
            body: rust("unified", "dark"),
            tweak: none,
        },
        Case {
            name: "split-light",
            body: rust("split", "light"),
            tweak: none,
        },
        Case {
            name: "split-dark",
            body: rust("split", "dark"),
            tweak: none,
        },
        Case {
            name: "words-light",
            body: json!({"before": PROSE_BEFORE, "after": PROSE_AFTER, "path": "notes.txt",
                         "theme": "light"}),
            tweak: none,
        },
        Case {
            name: "words-split-dark",
            body: json!({"before": PROSE_BEFORE, "after": PROSE_AFTER, "path": "notes.txt",
                         "theme": "dark", "layout": "split"}),
            tweak: none,
        },
        Case {
            name: "wrap-on-light",
            body: json!({"before": long_before, "after": long_after, "path": "words.txt",
                         "theme": "light"}),
            tweak: |r| r.presentation.word_wrap = true,
        },
        Case {
            name: "wrap-off-split-light",
            body: json!({"before": long_before, "after": long_after, "path": "words.txt",
                         "theme": "light", "layout": "split"}),
            tweak: |r| r.presentation.word_wrap = false,
        },
        Case {
            name: "patch-light",
            body: json!({"patch": patch, "theme": "light"}),
            tweak: none,
        },
        Case {
            name: "patch-split-dark",
            body: json!({"patch": patch, "theme": "dark", "layout": "split"}),
            tweak: none,
        },
        Case {
            name: "classic-light",
            body: rust("unified", "light"),
            tweak: |r| r.presentation.diff_indicators = DiffIndicators::Classic,
        },
        Case {
            // A session's Changes view: turn labels, and files whose counts are unknown.
            name: "changes-dark",
            body: changes_session(),
            tweak: |_| {},
        },
        Case {
            name: "plain-dark",
            body: rust("unified", "dark"),
            tweak: |r| {
                r.presentation.diff_indicators = DiffIndicators::None;
                r.presentation.show_line_numbers = false;
                r.presentation.background = false;
            },
        },
    ]
}

/// The keys of a session document (the rest of a Changes call is presentation).
const SESSION_KEYS: [&str; 3] = ["workspaceRoot", "executionCwd", "turns"];

/// A session with a write, an edit and a patch that adds, moves and deletes, as the
/// Changes view of `POST /api/v1/activity/changes` shows it.
fn changes_session() -> Value {
    let patch = "*** Begin Patch\n*** Add File: ../docs/new.md\n+hello\n+world\n*** Update File: lib.rs\n*** Move to: core.rs\n@@\n-fn old() {}\n+fn new() {}\n*** Delete File: ../old.txt\n*** End Patch";
    json!({
        "workspaceRoot": "/w", "executionCwd": "/w/src", "theme": "dark",
        "turns": [
            {"turnId": "t1", "toolCalls": [
                {"toolCallId": "c1", "title": "write: notes.md", "status": "completed",
                 "rawInput": {"path": "../notes.md", "content": "# Notes\nfirst\n"}}]},
            {"turnId": "t2", "toolCalls": [
                {"toolCallId": "c2", "title": "edit: notes.md", "status": "completed",
                 "rawInput": {"file_path": "../notes.md", "oldText": "first", "newText": "second"}},
                {"toolCallId": "c3", "title": "apply_patch", "status": "completed",
                 "rawInput": {"input": patch}}]}
        ]
    })
}

fn request(case: &Case) -> (DiffRequest, DiffModel) {
    let mut body = case.body.clone();
    body["mode"] = json!("file");
    body["fileScale"] = json!(SCALE);
    let defaults = DiffDefaults::default();
    if let Some(map) = body.as_object().filter(|m| m.contains_key("turns")) {
        let request = DiffRequest::for_session(map, &SESSION_KEYS, "Changes", &defaults).unwrap();
        let session: SessionInput = serde_json::from_value(json!({
            "workspaceRoot": body["workspaceRoot"],
            "executionCwd": body["executionCwd"],
            "turns": body["turns"],
        }))
        .unwrap();
        let activity = project_session(&session).unwrap();
        return (request, changes_model(&activity.changes));
    }
    let mut request = DiffRequest::from_json(&body, &defaults).unwrap();
    (case.tweak)(&mut request);
    let model = build_model(&request).unwrap().model().unwrap().clone();
    (request, model)
}

fn gray(img: &image::RgbImage) -> Vec<f64> {
    img.pixels()
        .map(|p| 0.299 * f64::from(p[0]) + 0.587 * f64::from(p[1]) + 0.114 * f64::from(p[2]))
        .collect()
}

/// Mean SSIM of two equal-sized images over 8 × 8 windows every 4 px (luma).
fn ssim(a: &image::RgbImage, b: &image::RgbImage) -> f64 {
    let (w, h) = (a.width() as usize, a.height() as usize);
    let (ga, gb) = (gray(a), gray(b));
    let (c1, c2) = ((0.01f64 * 255.0).powi(2), (0.03f64 * 255.0).powi(2));
    let (mut total, mut windows) = (0.0, 0usize);
    let mut y = 0;
    while y + 8 <= h {
        let mut x = 0;
        while x + 8 <= w {
            let (mut sa, mut sb, mut saa, mut sbb, mut sab) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for yy in y..y + 8 {
                for xx in x..x + 8 {
                    let (p, q) = (ga[yy * w + xx], gb[yy * w + xx]);
                    sa += p;
                    sb += q;
                    saa += p * p;
                    sbb += q * q;
                    sab += p * q;
                }
            }
            let n = 64.0;
            let (ma, mb) = (sa / n, sb / n);
            let va = saa / n - ma * ma;
            let vb = sbb / n - mb * mb;
            let cov = sab / n - ma * mb;
            total += ((2.0 * ma * mb + c1) * (2.0 * cov + c2))
                / ((ma * ma + mb * mb + c1) * (va + vb + c2));
            windows += 1;
            x += 4;
        }
        y += 4;
    }
    total / windows.max(1) as f64
}

/// Distinct colours of an image (a native PNG is a palette image of at most 256).
fn colours(img: &image::RgbImage) -> usize {
    img.pixels()
        .map(|p| p.0)
        .collect::<std::collections::HashSet<_>>()
        .len()
}

fn side_by_side(a: &image::RgbImage, b: &image::RgbImage) -> image::RgbImage {
    let gap = 12;
    let w = a.width() + gap + b.width();
    let h = a.height().max(b.height());
    let mut out = image::RgbImage::from_pixel(w, h, image::Rgb([128, 128, 128]));
    image::imageops::replace(&mut out, a, 0, 0);
    image::imageops::replace(&mut out, b, i64::from(a.width() + gap), 0);
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn native_images_match_chromium() {
    if let Err(e) = Discovery::from_process(None).find() {
        panic!(
            "the fidelity test needs Chromium ({e}): run the README's test command (it \
             installs Debian's `chromium`) or set PREVIEWD_BROWSER"
        );
    }
    let chromium = Exporter::new(&BrowserConfig::default());
    let write = std::env::var_os("PREVIEWD_WRITE_SAMPLES").is_some();
    let dir = std::path::Path::new("benches/samples/native-vs-chromium");
    if write {
        std::fs::create_dir_all(dir).unwrap();
    }
    let mut failures = Vec::new();
    let mut report = String::new();
    for case in cases() {
        let (request, model) = request(&case);
        let native = previewd::export::native::render(&request, &model).unwrap();
        let browser = chromium.render_diff(&request, &model).await.unwrap();
        let a = image::load_from_memory(&native.bytes).unwrap().into_rgb8();
        let b = image::load_from_memory(&browser.bytes).unwrap().into_rgb8();
        if write {
            // Committed at half size (CSS px), to keep the repository small.
            let pair = side_by_side(&a, &b);
            let (w, h) = (pair.width() / 2, pair.height() / 2);
            image::imageops::resize(&pair, w, h, image::imageops::FilterType::Triangle)
                .save(dir.join(format!("{}.png", case.name)))
                .unwrap();
        }
        if a.dimensions() != b.dimensions() {
            failures.push(format!(
                "{}: native {:?}, chromium {:?}",
                case.name,
                a.dimensions(),
                b.dimensions()
            ));
            continue;
        }
        let score = ssim(&a, &b);
        report.push_str(&format!(
            "{} {:.4} ({} colours)\n",
            case.name,
            score,
            colours(&a)
        ));
        if score < MIN_SSIM {
            failures.push(format!("{}: SSIM {score:.4}", case.name));
        }
    }
    chromium.close().await;
    println!("{report}");
    assert!(failures.is_empty(), "{failures:#?}\n{report}");
}

#[test]
fn ssim_is_one_for_equal_images_and_low_for_different_ones() {
    let a = image::RgbImage::from_fn(64, 64, |x, y| image::Rgb([(x * 4) as u8, (y * 4) as u8, 9]));
    assert!((ssim(&a, &a) - 1.0).abs() < 1e-9);
    let b = image::RgbImage::from_fn(64, 64, |x, _| {
        image::Rgb([if x % 2 == 0 { 0 } else { 255 }; 3])
    });
    assert!(ssim(&a, &b) < 0.5);
}
