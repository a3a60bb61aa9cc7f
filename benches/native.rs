//! The native export engine on the 200-line diff at the `standard` preset: layout alone,
//! a whole PNG (layout, paint, encode) and a whole PDF. No browser. Figures and the HTTP
//! throughput run are in `benches/README.md`.

use criterion::{criterion_group, criterion_main, Criterion};
use previewd::diff::{build_model, DiffDefaults, DiffModel, DiffRequest};
use previewd::export::native;

/// 200 lines of Rust with every other one changed (as `benches/native_http.sh` posts).
fn diff_200(format: &str) -> (DiffRequest, DiffModel) {
    let before: String = (0..200)
        .map(|i| format!("    let value_{i} = compute({i}, &state); // line {i}\n"))
        .collect();
    let after: String = (0..200)
        .map(|i| {
            if i % 2 == 1 {
                format!("    let value_{i} = compute_fast({i}, &state); // line {i}\n")
            } else {
                format!("    let value_{i} = compute({i}, &state); // line {i}\n")
            }
        })
        .collect();
    let json = serde_json::json!({
        "before": before, "after": after, "path": "src/lib.rs", "mode": "file",
        "fileFormat": format, "fileQuality": "standard",
    });
    let request = DiffRequest::from_json(&json, &DiffDefaults::default()).unwrap();
    let model = build_model(&request).unwrap().model().unwrap().clone();
    (request, model)
}

fn bench(c: &mut Criterion) {
    let (png_req, model) = diff_200("png");
    let (pdf_req, _) = diff_200("pdf");
    let first = native::render(&png_req, &model).unwrap();
    println!(
        "PNG {}x{} at scale {} ({} bytes); frame {}x{} CSS px",
        first.width,
        first.height,
        first.scale,
        first.bytes.len(),
        first.css_width,
        first.css_height
    );
    let mut g = c.benchmark_group("native");
    g.bench_function("layout_200_lines", |b| {
        b.iter(|| native::frame(&png_req, &model, f32::MAX).unwrap())
    });
    g.bench_function("png_200_lines_standard", |b| {
        b.iter(|| native::render(&png_req, &model).unwrap())
    });
    g.bench_function("pdf_200_lines", |b| {
        b.iter(|| native::render(&pdf_req, &model).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
