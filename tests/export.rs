//! Diff export to PNG and PDF against real Chromium.
//!
//! The browser is found the way the export finds it (config, `PREVIEWD_BROWSER` and the
//! other variables, `PATH`, usual places); a missing browser fails the tests with
//! instructions, it never skips them. PDF checks use `pdfinfo`/`pdftotext` from Debian's
//! poppler-utils, which the README's test command installs.
//!
//! Browser tests run one at a time: each starts its own Chromium, and several at once on a
//! 2-core machine would turn deadlines into noise.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use previewd::config::BrowserConfig;
use previewd::diff::view::{self, Variant, ViewOptions};
use previewd::diff::{build_model, DiffDefaults, DiffModel, DiffRequest};
use previewd::export::{
    BrowserState, Discovery, ExportError, Exporter, PdfOptions, PdfPaper, PngOptions,
    NO_BROWSER_MESSAGE, PDF_PAGE_CSS_PX, SIZE_LIMIT_MESSAGE,
};

/// One browser test at a time (see the module docs).
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Marker that makes the exporter's test hook hold a document request forever.
const STALL: &str = "<!-- previewd-test-stall -->";

fn require_browser() {
    if let Err(e) = Discovery::from_process(None).find() {
        panic!(
            "export tests need Chromium ({e}): run the README's test command (it installs \
             Debian's `chromium`) or set PREVIEWD_BROWSER to a Chromium executable"
        );
    }
}

fn exporter_with(tweak: impl FnOnce(&mut BrowserConfig)) -> Exporter {
    require_browser();
    let mut config = BrowserConfig::default();
    tweak(&mut config);
    Exporter::new(&config)
}

fn diff(json: serde_json::Value) -> (DiffRequest, DiffModel) {
    let request = DiffRequest::from_json(&json, &DiffDefaults::default()).unwrap();
    let model = build_model(&request).unwrap().model().unwrap().clone();
    (request, model)
}

/// `lines` numbered lines, every one different between before and after.
fn changed_lines(lines: usize) -> (String, String) {
    let before = (0..lines)
        .map(|i| format!("let value_{i} = compute({i});\n"))
        .collect();
    let after = (0..lines)
        .map(|i| format!("let value_{i} = compute_faster({i}, cache);\n"))
        .collect();
    (before, after)
}

fn image_size(png: &[u8]) -> (u32, u32) {
    let img =
        image::load_from_memory_with_format(png, image::ImageFormat::Png).expect("a decodable PNG");
    (img.width(), img.height())
}

fn poppler(tool: &str, pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.pdf");
    std::fs::write(&file, pdf).unwrap();
    let out = Command::new(tool)
        .arg(&file)
        .args(if tool == "pdftotext" {
            &["-"][..]
        } else {
            &[][..]
        })
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "{tool} is needed for the PDF checks ({e}): run the README's test command (it \
                 installs Debian's poppler-utils) or `apt-get install poppler-utils`"
            )
        });
    assert!(out.status.success(), "{tool} failed: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// Live (non-zombie) processes whose process group is `pgid`.
fn group_members(pgid: u32) -> Vec<u32> {
    let mut members = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // Fields after the parenthesised command: state, ppid, pgrp, …
        let Some(close) = stat.rfind(')') else {
            continue;
        };
        let fields: Vec<&str> = stat[close + 2..].split(' ').collect();
        if fields.len() > 2 && fields[0] != "Z" && fields[2] == pgid.to_string() {
            members.push(pid);
        }
    }
    members
}

/// Polls (test-side only) until `done` holds or `limit` passes.
async fn eventually(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    done()
}

fn profile_dir_of(pid: u32) -> PathBuf {
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap();
    cmdline
        .split(|b| *b == 0)
        .filter_map(|arg| std::str::from_utf8(arg).ok())
        .find_map(|arg| arg.strip_prefix("--user-data-dir="))
        .map(PathBuf::from)
        .expect("the browser runs with a private profile")
}

/// A TCP listener on a random loopback port that counts connections.
struct Canary {
    port: u16,
    hits: Arc<AtomicUsize>,
}

impl Canary {
    fn start() -> Canary {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let hits = Arc::new(AtomicUsize::new(0));
        let counter = hits.clone();
        std::thread::spawn(move || {
            for mut stream in listener.incoming().flatten() {
                counter.fetch_add(1, Ordering::SeqCst);
                // Answer, so that a leak shows as a hit rather than as a hung page.
                let mut buf = [0u8; 1024];
                let _ = stream.read(&mut buf);
                let _ = stream.write_all(
                    b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                );
            }
        });
        Canary { port, hits }
    }

    fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }
}

/// Watches a file with inotify: any open or read of it by any process is recorded.
struct FileWatch {
    fd: i32,
}

impl FileWatch {
    fn new(path: &Path) -> FileWatch {
        let fd = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
        assert!(fd >= 0);
        let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        let wd =
            unsafe { libc::inotify_add_watch(fd, c.as_ptr(), libc::IN_OPEN | libc::IN_ACCESS) };
        assert!(wd >= 0);
        FileWatch { fd }
    }

    fn events(&self) -> usize {
        let mut buf = [0u8; 4096];
        let n = unsafe { libc::read(self.fd, buf.as_mut_ptr().cast(), buf.len()) };
        n.max(0) as usize
    }
}

impl Drop for FileWatch {
    fn drop(&mut self) {
        unsafe { libc::close(self.fd) };
    }
}

#[tokio::test]
async fn state_is_readable_without_starting_a_browser() {
    let exporter = Exporter::new(&BrowserConfig::default());
    assert_eq!(exporter.state(), BrowserState::NotStarted);
    assert_eq!(exporter.browser_pid(), None);
    assert_eq!(exporter.stats().launches, 0);
    let json = serde_json::to_value(exporter.state()).unwrap();
    assert_eq!(json, serde_json::json!({"state": "not_started"}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn png_of_a_small_diff_is_the_frame_times_the_scale() {
    let _serial = SERIAL.lock().await;
    let exporter = exporter_with(|_| {});
    let (request, model) = diff(serde_json::json!({
        "before": "fn main() {\n    println!(\"hello\");\n}\n",
        "after": "fn main() {\n    println!(\"hello, world\");\n}\n",
        "path": "src/main.rs",
        "mode": "file",
        "fileFormat": "png",
        "fileQuality": "standard",
    }));
    let file = exporter.render_diff(&request, &model).await.unwrap();
    assert_eq!(file.file_name(), "diff.png");
    assert_eq!(file.scale, 2.0, "a small diff keeps the preset's scale");
    assert_eq!(file.max_width, 960);
    let (w, h) = image_size(&file.bytes);
    assert_eq!((w, h), (file.width, file.height));
    assert_eq!(w, 960 * 2);
    assert!(h > 100 && h < 1000, "a three-line diff is short: {h}");

    // Height matches the frame, measured independently of the export.
    let html = view::render(
        &model,
        &ViewOptions::from_request(&request, Variant::Image { max_width: 960 }),
    );
    let out = exporter
        .render_png(
            &html,
            &PngOptions {
                scale: 1.5,
                width: 960,
                max_pixels: 8_000_000,
            },
        )
        .await
        .unwrap();
    assert_eq!(out.width, 1440);
    assert_eq!(out.height, (out.css_height * 1.5).round() as u32);
    assert_eq!(out.css_width, 960.0);
    assert_eq!(image_size(&out.bytes), (out.width, out.height));
    assert_eq!(exporter.stats().renders, 2);
    assert_eq!(exporter.stats().launches, 1, "one warm browser for both");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pixel_cap_lowers_the_scale_then_refuses() {
    let _serial = SERIAL.lock().await;
    let exporter = exporter_with(|_| {});
    // 400 rows of 24 px at `print` (1400 px, scale 3, 24 MP) cannot stay at scale 3.
    let (before, after) = changed_lines(200);
    let (request, model) = diff(serde_json::json!({
        "before": before, "after": after, "path": "tall.rs",
        "mode": "file", "fileFormat": "png", "fileQuality": "print",
    }));
    let file = exporter.render_diff(&request, &model).await.unwrap();
    assert!(
        file.scale < 3.0 && file.scale >= 1.0,
        "lowered: {}",
        file.scale
    );
    let (w, h) = image_size(&file.bytes);
    assert_eq!(w, (1400.0 * file.scale).round() as u32);
    assert!(u64::from(w) * u64::from(h) <= 24_000_000, "{w}×{h}");
    assert!(h > 8192, "tall enough to be stitched from tiles: {h}");

    // Too tall even at scale 1: refused with the contract's words, by the browser path…
    let tall = "<!doctype html><body style=\"margin:0\"><div class=\"frame\" \
                style=\"width:960px;height:9000px;background:#eee\">x</div></body>";
    let err = exporter
        .render_png(
            tall,
            &PngOptions {
                scale: 2.0,
                width: 960,
                max_pixels: 8_000_000,
            },
        )
        .await
        .unwrap_err();
    assert_eq!(err, ExportError::SizeLimit);
    assert_eq!(
        err.to_string(),
        "Diff frame did not render within image size limits."
    );
    assert_eq!(SIZE_LIMIT_MESSAGE, err.to_string());
    // …and by the early estimate for a diff that is hopeless from its row count.
    let (before, after) = changed_lines(2000);
    let (request, model) = diff(serde_json::json!({
        "before": before, "after": after, "mode": "file", "fileQuality": "standard",
    }));
    let err = exporter.render_diff(&request, &model).await.unwrap_err();
    assert_eq!(err.to_string(), SIZE_LIMIT_MESSAGE);
    let mapped = previewd::Error::from(err);
    assert_eq!(mapped.code(), "image_too_large");
    assert_eq!(mapped.to_string(), SIZE_LIMIT_MESSAGE);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pdf_is_one_page_sized_to_the_frame_with_searchable_text() {
    let _serial = SERIAL.lock().await;
    let exporter = exporter_with(|_| {});
    let (request, model) = diff(serde_json::json!({
        "before": "alpha\nbravo\ncharlie\n",
        "after": "alpha\nbravo_quartz_marker\ncharlie\n",
        "path": "notes.txt",
        "mode": "file",
        "fileFormat": "pdf",
        "theme": "light",
    }));
    let file = exporter.render_diff(&request, &model).await.unwrap();
    assert_eq!(file.file_name(), "diff.pdf");
    assert!(file.bytes.starts_with(b"%PDF-"));
    assert_eq!(file.pages, 1);
    let info = poppler("pdfinfo", &file.bytes);
    assert!(info.contains("Pages:           1"), "{info}");
    let size = info
        .lines()
        .find_map(|l| l.strip_prefix("Page size:"))
        .expect("pdfinfo reports the page size");
    let numbers: Vec<f64> = size
        .split_whitespace()
        .filter_map(|t| t.parse().ok())
        .collect();
    // CSS px → pt is × 72/96; Chromium rounds the paper size to its own units.
    assert!((numbers[0] - 960.0 * 0.75).abs() < 1.0, "{size}");
    assert!(
        (numbers[1] - f64::from(file.height) * 0.75).abs() < 2.0,
        "{size} vs {}",
        file.height
    );
    let text = poppler("pdftotext", &file.bytes);
    assert!(text.contains("bravo_quartz_marker"), "{text}");
    assert!(text.contains("notes.txt"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pdf_past_fifty_pages_is_refused() {
    let _serial = SERIAL.lock().await;
    let exporter = exporter_with(|_| {});
    let height = PDF_PAGE_CSS_PX * 50.0 + 10.0;
    let html = format!(
        "<!doctype html><body style=\"margin:0\"><div class=\"frame\" \
         style=\"width:640px;height:{height}px\">long</div></body>"
    );
    let options = PdfOptions {
        width: 640,
        max_pixels: u64::MAX,
        max_pages: 50,
        paper: PdfPaper::Frame,
    };
    let err = exporter.render_pdf(&html, &options).await.unwrap_err();
    assert_eq!(err.to_string(), SIZE_LIMIT_MESSAGE);
    // Over the pixel cap (at scale 1) is refused too.
    let options = PdfOptions {
        max_pixels: 640 * 1000,
        ..options
    };
    let short = html.replace(&format!("{height}px"), "2000px");
    let err = exporter.render_pdf(&short, &options).await.unwrap_err();
    assert_eq!(err, ExportError::SizeLimit);
    // Letter paging of a 3-page frame.
    let html3 = html.replace(&format!("{height}px"), "3000px");
    let out = exporter
        .render_pdf(
            &html3,
            &PdfOptions {
                paper: PdfPaper::Letter,
                max_pixels: u64::MAX,
                ..options
            },
        )
        .await
        .unwrap();
    assert!(out.pages >= 3, "{}", out.pages);
    let info = poppler("pdfinfo", &out.bytes);
    assert!(info.contains("612 x 792 pts"), "{info}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rendered_pages_reach_no_network_and_no_file() {
    let _serial = SERIAL.lock().await;
    let exporter = exporter_with(|_| {});
    let canary = Canary::start();
    let port = canary.port;
    let secret_dir = tempfile::tempdir().unwrap();
    let secret = secret_dir.path().join("secret.html");
    std::fs::write(&secret, "<p>secret</p>").unwrap();
    let watch = FileWatch::new(&secret);
    let secret_url = format!("file://{}", secret.display());

    // As diff text: escaped, so it must not even become a request.
    let evil = format!(
        "<img src=\"http://127.0.0.1:{port}/x\">\n\
         <div style=\"background:url(http://127.0.0.1:{port}/y)\"></div>\n\
         <iframe src=\"file:///etc/passwd\"></iframe>\n<img src=\"{secret_url}\">\n"
    );
    for format in ["png", "pdf"] {
        let (request, model) = diff(serde_json::json!({
            "before": "safe\n", "after": evil, "path": "evil.html",
            "mode": "file", "fileFormat": format,
        }));
        exporter.render_diff(&request, &model).await.unwrap();
    }

    // As a real page: every way a page can reach out.
    let page = format!(
        r#"<!doctype html><html><head>
<link rel="preconnect" href="http://127.0.0.1:{port}">
<link rel="dns-prefetch" href="http://127.0.0.1:{port}">
<link rel="prefetch" href="http://127.0.0.1:{port}/prefetch">
<link rel="stylesheet" href="http://127.0.0.1:{port}/style.css">
<style>@import url(http://127.0.0.1:{port}/import.css);
.frame {{ background: url(http://127.0.0.1:{port}/bg.png) }}
@font-face {{ font-family: canary; src: url(http://127.0.0.1:{port}/font.woff) }}</style>
<script>new WebSocket("ws://127.0.0.1:{port}/ws"); fetch("http://127.0.0.1:{port}/fetch");</script>
<meta http-equiv="refresh" content="0;url=http://127.0.0.1:{port}/refresh">
</head><body style="margin:0"><div class="frame" style="width:700px;font-family:canary">
<img src="http://127.0.0.1:{port}/img">
<iframe src="file:///etc/passwd"></iframe>
<iframe src="{secret_url}"></iframe><img src="{secret_url}">
<iframe src="http://127.0.0.1:{port}/frame"></iframe>
<iframe src="data:text/html,<meta http-equiv=refresh content='0;url=http://127.0.0.1:{port}/data'>"></iframe>
<object data="http://127.0.0.1:{port}/object"></object>
<video src="http://127.0.0.1:{port}/video.mp4" autoplay></video>
<form action="http://127.0.0.1:{port}/form"><input type="image" src="http://127.0.0.1:{port}/input"></form>
</div></body></html>"#
    );
    let png = exporter
        .render_png(
            &page,
            &PngOptions {
                scale: 1.0,
                width: 700,
                max_pixels: 8_000_000,
            },
        )
        .await;
    let pdf = exporter
        .render_pdf(
            &page,
            &PdfOptions {
                width: 700,
                max_pixels: 8_000_000,
                max_pages: 50,
                paper: PdfPaper::Frame,
            },
        )
        .await;
    // Give anything that slipped out time to arrive before counting.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(canary.hits(), 0, "the canary was reached");
    assert_eq!(watch.events(), 0, "the local file was opened");
    png.unwrap();
    pdf.unwrap();
    assert!(
        exporter.stats().blocked_requests > 0,
        "the interception saw and refused the page's navigation attempts"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn renders_past_the_bound_are_refused_as_busy() {
    let _serial = SERIAL.lock().await;
    let exporter = exporter_with(|c| {
        c.max_concurrent_renders = 1;
        c.queue = 1;
        c.render_timeout_ms = 3_000;
    });
    exporter.stall_documents_containing(Some(STALL));
    let stalled = format!("<!doctype html><div class=\"frame\">{STALL}</div>");
    let options = PngOptions {
        scale: 1.0,
        width: 640,
        max_pixels: 8_000_000,
    };
    let (a, b, c) = tokio::join!(
        exporter.render_png(&stalled, &options),
        exporter.render_png(&stalled, &options),
        async {
            // Starts after the first two hold the tab and the queue place.
            tokio::time::sleep(Duration::from_millis(200)).await;
            let busy = exporter.render_png(&stalled, &options).await;
            (busy, exporter.stats())
        }
    );
    let (busy, during) = c;
    assert_eq!(busy.unwrap_err(), ExportError::Busy);
    assert_eq!(during.queue_length, 1, "{during:?}");
    assert_eq!(during.active_renders, 1, "{during:?}");
    assert!(matches!(a, Err(ExportError::Timeout(_))), "{a:?}");
    assert!(matches!(b, Err(ExportError::Timeout(_))), "{b:?}");
    let busy = previewd::Error::from(ExportError::Busy);
    assert_eq!(busy.status(), 429);
    assert_eq!(exporter.stats().rejected, 1);

    // Twenty at once with the default bound (2 tabs + 8 queued): each succeeds or is busy.
    let exporter = exporter_with(|_| {});
    let page = "<!doctype html><div class=\"frame\" style=\"width:640px\">twenty</div>";
    let results =
        futures::future::join_all((0..20).map(|_| exporter.render_png(page, &options))).await;
    let ok = results.iter().filter(|r| r.is_ok()).count();
    let busy = results
        .iter()
        .filter(|r| matches!(r, Err(ExportError::Busy)))
        .count();
    assert_eq!(ok + busy, 20, "{results:?}");
    assert!(ok >= 10, "all that fit the bound succeed: {ok}");
    assert_eq!(exporter.stats().launches, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_render_times_out_and_the_browser_survives() {
    let _serial = SERIAL.lock().await;
    // The deadline also bounds the healthy renders around the stall: 2 s timed those out on
    // a 2-core machine under a load of 11, so it leaves them room.
    const DEADLINE_MS: u64 = 8_000;
    let exporter = exporter_with(|c| c.render_timeout_ms = DEADLINE_MS);
    exporter.stall_documents_containing(Some(STALL));
    let options = PngOptions {
        scale: 1.0,
        width: 640,
        max_pixels: 8_000_000,
    };
    let page = "<!doctype html><div class=\"frame\">fine</div>";
    exporter.render_png(page, &options).await.unwrap();
    let pid = exporter.browser_pid().unwrap();

    // The error names the deadline that fired; no wall-clock bound is asserted.
    let err = exporter
        .render_png(&format!("{page}{STALL}"), &options)
        .await
        .unwrap_err();
    assert_eq!(err, ExportError::Timeout(DEADLINE_MS));
    assert_eq!(previewd::Error::from(err).status(), 503);

    exporter.render_png(page, &options).await.unwrap();
    assert_eq!(
        exporter.browser_pid(),
        Some(pid),
        "the same browser serves on"
    );
    assert_eq!(exporter.state(), BrowserState::Ready);
    let stats = exporter.stats();
    assert_eq!((stats.renders, stats.failures, stats.launches), (2, 1, 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_browser_is_replaced() {
    let _serial = SERIAL.lock().await;
    let exporter = exporter_with(|c| c.render_timeout_ms = 5_000);
    let options = PngOptions {
        scale: 1.0,
        width: 640,
        max_pixels: 8_000_000,
    };
    let page = "<!doctype html><div class=\"frame\">alive</div>";
    exporter.render_png(page, &options).await.unwrap();
    let first = exporter.browser_pid().unwrap();

    // Killed between renders: the next render starts a new browser.
    unsafe { libc::kill(first as i32, libc::SIGKILL) };
    assert!(
        eventually(Duration::from_secs(5), || !group_members(first)
            .contains(&first))
        .await
    );
    exporter.render_png(page, &options).await.unwrap();
    let second = exporter.browser_pid().unwrap();
    assert_ne!(second, first);
    assert!(exporter.stats().restarts >= 1);

    // Killed in the middle of a render: that render fails cleanly (or is retried on a
    // fresh browser), and the next one succeeds.
    exporter.stall_documents_containing(Some(STALL));
    let killer = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        unsafe { libc::kill(second as i32, libc::SIGKILL) };
    };
    let stalled = format!("{page}{STALL}");
    let (mid, ()) = tokio::join!(exporter.render_png(&stalled, &options), killer);
    assert!(mid.is_err(), "a stalled page cannot succeed: {mid:?}");
    exporter.stall_documents_containing(None);
    exporter.render_png(page, &options).await.unwrap();
    let third = exporter.browser_pid().unwrap();
    assert_ne!(third, second);
    assert_eq!(exporter.state(), BrowserState::Ready);
    drop(exporter);
    for pid in [first, second, third] {
        assert!(
            eventually(Duration::from_secs(5), || group_members(pid).is_empty()).await,
            "browser group {pid} left processes behind"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_the_exporter_leaves_no_process_and_no_profile() {
    let _serial = SERIAL.lock().await;
    let exporter = exporter_with(|_| {});
    let options = PngOptions {
        scale: 1.0,
        width: 640,
        max_pixels: 8_000_000,
    };
    exporter
        .render_png("<!doctype html><div class=\"frame\">x</div>", &options)
        .await
        .unwrap();
    let pid = exporter.browser_pid().unwrap();
    let members = group_members(pid);
    assert!(
        members.len() > 1,
        "zygotes and renderers share the group: {members:?}"
    );
    let profile = profile_dir_of(pid);
    assert!(profile.is_dir());
    // Chromium's own temp folders (`org.chromium.Chromium.*`) go inside the profile, not
    // into the shared temp directory where they used to be left behind.
    let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap();
    let tmpdir = environ
        .split(|b| *b == 0)
        .find_map(|v| v.strip_prefix(b"TMPDIR="))
        .map(|v| std::path::PathBuf::from(String::from_utf8_lossy(v).into_owned()))
        .expect("the browser has its own TMPDIR");
    assert!(
        tmpdir.starts_with(&profile),
        "{tmpdir:?} is outside {profile:?}"
    );
    assert!(tmpdir.is_dir());
    drop(exporter);
    assert!(
        eventually(Duration::from_secs(5), || group_members(pid).is_empty()).await,
        "left behind: {:?}",
        group_members(pid)
    );
    assert!(!profile.exists(), "the private profile is removed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_browser_closes_and_restarts_after_its_render_budget() {
    let _serial = SERIAL.lock().await;
    let exporter = exporter_with(|c| {
        c.idle_close_seconds = 1;
        c.restart_after_renders = 2;
    });
    let options = PngOptions {
        scale: 1.0,
        width: 640,
        max_pixels: 8_000_000,
    };
    let page = "<!doctype html><div class=\"frame\">x</div>";
    for _ in 0..3 {
        exporter.render_png(page, &options).await.unwrap();
    }
    let stats = exporter.stats();
    assert_eq!((stats.launches, stats.restarts), (2, 1), "{stats:?}");
    let pid = exporter.browser_pid().unwrap();
    assert!(
        eventually(Duration::from_secs(5), || exporter.state()
            == BrowserState::NotStarted)
        .await
    );
    assert_eq!(exporter.browser_pid(), None);
    assert!(eventually(Duration::from_secs(5), || group_members(pid).is_empty()).await);
    exporter.render_png(page, &options).await.unwrap();
    assert_eq!(exporter.state(), BrowserState::Ready);
}

#[tokio::test]
async fn no_usable_browser_gives_the_contract_message() {
    let dir = tempfile::tempdir().unwrap();
    let not_executable = dir.path().join("chromium");
    std::fs::write(&not_executable, "not a program").unwrap();
    let exporter = Exporter::new(&BrowserConfig {
        executable_path: Some(not_executable),
        ..BrowserConfig::default()
    });
    let (request, model) = diff(serde_json::json!({
        "before": "a\n", "after": "b\n", "mode": "file",
    }));
    let err = exporter.render_diff(&request, &model).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "Diff PNG/PDF rendering requires a Chromium-compatible browser. Set \
         browser.executablePath or install Chrome/Chromium. browser.executablePath does not \
         name an executable file."
    );
    assert!(err.to_string().starts_with(NO_BROWSER_MESSAGE));
    assert!(
        !err.to_string().contains(dir.path().to_str().unwrap()),
        "no host path"
    );
    match exporter.state() {
        BrowserState::Failed { reason } => assert!(reason.contains("executablePath"), "{reason}"),
        other => panic!("expected failed, got {other:?}"),
    }
    let mapped = previewd::Error::from(err);
    assert_eq!(mapped.code(), "browser_unavailable");
    assert_eq!(mapped.status(), 503);

    // A program that never offers DevTools fails the launch within its timeout.
    let fake = dir.path().join("fake-browser");
    std::fs::write(&fake, "#!/bin/sh\nexec sleep 30\n").unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let exporter = Exporter::new(&BrowserConfig {
        executable_path: Some(fake),
        launch_timeout_ms: 500,
        ..BrowserConfig::default()
    });
    let err = exporter.render_diff(&request, &model).await.unwrap_err();
    assert!(
        matches!(&err, ExportError::NoBrowser(r) if r.contains("did not start")),
        "{err}"
    );
}
