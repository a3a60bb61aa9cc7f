//! Resolve + scoped read of a 100 KiB file through the workspace door.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use previewd::config::Limits;
use previewd::workspace::{Door, WorkspaceFileRef, Workspaces};

fn resolve_and_read(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("ws");
    std::fs::create_dir_all(root.join("src/deep")).unwrap();
    let text = "let answer = 42; // a line of source code for the bench\n".repeat(100 * 1024 / 57);
    std::fs::write(root.join("src/deep/file.rs"), &text).unwrap();
    let door = Door::new(
        Workspaces::new(std::slice::from_ref(&root), &[]).unwrap(),
        Limits::default(),
    );
    let reference = WorkspaceFileRef {
        workspace_root: root.to_string_lossy().into_owned(),
        relative_path: "src/deep/file.rs".into(),
    };
    let mut group = c.benchmark_group("workspace");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("resolve_read_100k", |b| {
        b.iter(|| door.read(&reference).unwrap())
    });
    group.bench_function("stat", |b| b.iter(|| door.stat(&reference).unwrap()));
    group.finish();
}

criterion_group!(benches, resolve_and_read);
criterion_main!(benches);
