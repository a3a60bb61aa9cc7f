//! Rendering the views of a snapshot: source (plain past the highlight cap, and
//! highlighted under it) and Markdown.

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use previewd::config::{Limits, SnapshotConfig};
use previewd::preview::shell::{render, ShellOptions};
use previewd::preview::{SnapshotStore, View};
use previewd::workspace::{Door, WorkspaceFileRef, Workspaces};

fn snapshot_of(name: &str, text: &str) -> (SnapshotStore, previewd::preview::Created) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join(name), text).unwrap();
    let door = Door::new(
        Workspaces::new(std::slice::from_ref(&root), &[]).unwrap(),
        Limits::default(),
    );
    let reference = WorkspaceFileRef {
        workspace_root: root.to_string_lossy().into_owned(),
        relative_path: name.into(),
    };
    let (root, relative) = door.resolve(&reference).unwrap();
    let read = door.read_in(&root, relative).unwrap();
    let store = SnapshotStore::new(SnapshotConfig::default());
    let created = store.insert(root, read, None, 0);
    (store, created)
}

fn options() -> ShellOptions {
    ShellOptions {
        static_prefix: "../../../static/".into(),
        fonts_prefix: "../../../fonts/".into(),
        html_scripts: true,
        highlight_bytes: Limits::default().highlight_bytes,
        rendered_view_bytes: Limits::default().rendered_view_bytes,
        fonts: None,
        office_limits: Default::default(),
    }
}

/// Options that highlight `bytes` of source: the default cap is below the 200 KB bench.
fn highlighting(bytes: usize) -> ShellOptions {
    ShellOptions {
        highlight_bytes: bytes as u64,
        ..options()
    }
}

fn source_views(c: &mut Criterion) {
    let line = "    let value = compute(input, &mut state); // keep the loop busy\n";
    let big = line.repeat(2 * 1024 * 1024 / line.len());
    let small = line.repeat(200 * 1024 / line.len());
    let mut group = c.benchmark_group("render");
    group.sample_size(20);
    group.throughput(Throughput::Bytes(big.len() as u64));
    group.bench_function("source_2mib_plain", |b| {
        // A fresh snapshot each time: the rendered view is cached per snapshot.
        b.iter_batched(
            || snapshot_of("big.rs", &big),
            |(_store, created)| render(&created.snapshot, View::Source, &options()),
            criterion::BatchSize::LargeInput,
        )
    });
    group.throughput(Throughput::Bytes(small.len() as u64));
    group.bench_function("source_200k_highlighted", |b| {
        b.iter_batched(
            || snapshot_of("small.rs", &small),
            |(_store, created)| render(&created.snapshot, View::Source, &highlighting(small.len())),
            criterion::BatchSize::LargeInput,
        )
    });
    let cached = snapshot_of("big.rs", &big);
    let _ = render(&cached.1.snapshot, View::Source, &options());
    group.throughput(Throughput::Bytes(big.len() as u64));
    group.bench_function("source_2mib_cached", |b| {
        b.iter(|| render(&Arc::clone(&cached.1.snapshot), View::Source, &options()))
    });
    let md = "# Heading\n\nSome *text* with `code` and a [link](other.md).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\n".repeat(2000);
    group.throughput(Throughput::Bytes(md.len() as u64));
    group.bench_function("markdown_200k", |b| {
        b.iter(|| previewd::preview::markdown::render(&md, "docs", "doc/"))
    });
    group.finish();
}

criterion_group!(benches, source_views);
criterion_main!(benches);
