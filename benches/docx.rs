//! Parse and render of the benchmark reports (60 and 300 pages).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use previewd::office::docx::{parse_docx, render_html, RenderOptions};
use previewd::office::OfficeLimits;

fn reports(c: &mut Criterion) {
    let mut group = c.benchmark_group("docx");
    group.sample_size(30);
    for name in ["report-60p", "report-300p"] {
        let path = format!("{}/fixtures/bench/{name}.docx", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&path).unwrap();
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(format!("parse_{name}"), |b| {
            b.iter(|| parse_docx(&bytes, &OfficeLimits::default()).unwrap())
        });
        let doc = parse_docx(&bytes, &OfficeLimits::default()).unwrap();
        group.bench_function(format!("render_{name}"), |b| {
            b.iter(|| render_html(&doc, &RenderOptions::default()))
        });
        group.bench_function(format!("parse_render_{name}"), |b| {
            b.iter(|| {
                let doc = parse_docx(&bytes, &OfficeLimits::default()).unwrap();
                render_html(&doc, &RenderOptions::default())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, reports);
criterion_main!(benches);
