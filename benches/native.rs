//! The native export engine on the 200-line diff at the `standard` preset: layout alone,
//! a whole PNG (layout, paint, encode) and a whole PDF. No browser. Figures and the HTTP
//! throughput run are in `benches/README.md`.

use criterion::{criterion_group, criterion_main, Criterion};
use previewd::export::native;

#[path = "common/native_diff.rs"]
mod native_diff;
use native_diff::diff_200;

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
