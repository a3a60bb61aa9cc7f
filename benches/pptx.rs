//! Parse and render of the benchmark decks (80 and 300 slides).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use previewd::office::pptx::{parse_pptx, render_html, RenderOptions};
use previewd::office::OfficeLimits;

fn decks(c: &mut Criterion) {
    let mut group = c.benchmark_group("pptx");
    group.sample_size(20);
    for name in ["deck-80s", "deck-300s"] {
        let path = format!("{}/fixtures/bench/{name}.pptx", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&path).unwrap();
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(format!("parse_{name}"), |b| {
            b.iter(|| parse_pptx(&bytes, &OfficeLimits::default()).unwrap())
        });
        let deck = parse_pptx(&bytes, &OfficeLimits::default()).unwrap();
        group.bench_function(format!("render_{name}"), |b| {
            b.iter(|| render_html(&deck, &RenderOptions::default()))
        });
        group.bench_function(format!("parse_render_{name}"), |b| {
            b.iter(|| {
                let deck = parse_pptx(&bytes, &OfficeLimits::default()).unwrap();
                render_html(&deck, &RenderOptions::default())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, decks);
criterion_main!(benches);
