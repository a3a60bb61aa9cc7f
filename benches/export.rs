//! Diff export with a warm browser: one PNG of a 200-line diff at a time (latency), and
//! twenty at once (throughput on the configured two tabs).
//!
//! The run also writes the same image page to `$TMPDIR/previewd-export-bench/diff-200.html`
//! and prints its frame size and scale, so a cold `chromium --headless --screenshot` of the
//! very same page can be timed beside it (see `benches/README.md`).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use previewd::config::BrowserConfig;
use previewd::diff::view::{self, Variant, ViewOptions};
use previewd::diff::{build_model, DiffDefaults, DiffModel, DiffRequest};
use previewd::export::{Exporter, PngOptions};

/// 100 changed lines of Rust: 200 rows in the unified view.
fn diff_200() -> (DiffRequest, DiffModel) {
    let before: String = (0..100)
        .map(|i| format!("    let value_{i} = compute(input_{i}, &mut state); // step {i}\n"))
        .collect();
    let after: String = (0..100)
        .map(|i| {
            format!(
                "    let value_{i} = compute_cached(input_{i}, &cache, &mut state); // step {i}\n"
            )
        })
        .collect();
    let json = serde_json::json!({
        "before": format!("fn run() {{\n{before}}}\n"),
        "after": format!("fn run() {{\n{after}}}\n"),
        "path": "src/pipeline.rs",
        "mode": "file",
        "fileFormat": "png",
        "fileQuality": "standard",
    });
    let request = DiffRequest::from_json(&json, &DiffDefaults::default()).unwrap();
    let model = build_model(&request).unwrap().model().unwrap().clone();
    (request, model)
}

fn export(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    // Room in the queue for the twenty-at-once run. The render deadline counts the wait
    // for a tab, and the last of twenty waits for nine rounds on two tabs: the default
    // 20 s failed that run on a loaded machine (and in `cargo test --all-targets`, which
    // runs each bench once in a debug build). The bench measures time, it does not test
    // the deadline.
    let exporter = Exporter::new(&BrowserConfig {
        queue: 32,
        render_timeout_ms: 180_000,
        ..BrowserConfig::default()
    });
    let (request, model) = diff_200();
    let html = view::render(
        &model,
        &ViewOptions::from_request(&request, Variant::Image { max_width: 960 }),
    );
    let options = PngOptions::from(&request.file);

    // Warm-up (starts the browser) and the page for the cold comparison.
    let first = rt.block_on(exporter.render_png(&html, &options)).unwrap();
    let dir = std::env::temp_dir().join("previewd-export-bench");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("diff-200.html"), &html).unwrap();
    std::fs::write(dir.join("warm.png"), &first.bytes).unwrap();
    eprintln!(
        "page: {} — frame {}×{} CSS px, scale {}, PNG {}×{} ({} bytes)",
        dir.join("diff-200.html").display(),
        first.css_width,
        first.css_height,
        first.scale,
        first.width,
        first.height,
        first.bytes.len()
    );

    let mut group = c.benchmark_group("export");
    group.sample_size(30);
    group.bench_function("png_200_lines_warm", |b| {
        b.iter(|| rt.block_on(exporter.render_diff(&request, &model)).unwrap())
    });
    group.bench_function("png_200_lines_warm_html_only", |b| {
        b.iter(|| rt.block_on(exporter.render_png(&html, &options)).unwrap())
    });
    group.sample_size(10);
    group.throughput(Throughput::Elements(20));
    group.bench_function("png_200_lines_20_concurrent", |b| {
        b.iter(|| {
            rt.block_on(async {
                let renders = (0..20).map(|_| exporter.render_png(&html, &options));
                for result in futures::future::join_all(renders).await {
                    result.unwrap();
                }
            })
        })
    });
    group.finish();
    rt.block_on(exporter.close());
}

criterion_group!(benches, export);
criterion_main!(benches);
