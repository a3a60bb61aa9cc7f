//! Diff artifacts in-process: contract + model + viewer page for a before/after pair of
//! 5,000 lines with 5% changed, and for a 2 MiB, 100-file git patch.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use previewd::diff::view::{render, Variant, ViewOptions};
use previewd::diff::{build_model, DiffDefaults, DiffOutcome, DiffRequest};

fn texts() -> (String, String) {
    let mut before = String::new();
    let mut after = String::new();
    for i in 0..5_000 {
        let line = format!("    let value_{i} = compute({i}, &state); // line {i}\n");
        before.push_str(&line);
        if i % 20 == 7 {
            after.push_str(&format!(
                "    let value_{i} = compute_fast({i}, &state); // line {i}\n"
            ));
        } else {
            after.push_str(&line);
        }
    }
    (before, after)
}

fn patch_100_files() -> String {
    let mut patch = String::new();
    let mut file = 0;
    while patch.len() < 2 * 1024 * 1024 {
        let n = file % 100;
        patch.push_str(&format!(
            "diff --git a/src/mod_{file}.rs b/src/mod_{file}.rs\nindex 1111111..2222222 100644\n--- a/src/mod_{file}.rs\n+++ b/src/mod_{file}.rs\n"
        ));
        for h in 0..20 {
            let start = h * 40 + 1;
            patch.push_str(&format!("@@ -{start},7 +{start},7 @@ fn f{h}() {{\n"));
            for k in 0..3 {
                patch.push_str(&format!(
                    " context line {k} of hunk {h} in file {n} with some text\n"
                ));
            }
            patch.push_str(&format!(
                "-    old_call({h}, {n}); // the previous behaviour of this line\n"
            ));
            patch.push_str(&format!(
                "+    new_call({h}, {n}); // the new behaviour of this line\n"
            ));
            for k in 3..6 {
                patch.push_str(&format!(
                    " context line {k} of hunk {h} in file {n} with some text\n"
                ));
            }
        }
        file += 1;
        if file == 100 {
            break;
        }
    }
    patch
}

fn run(body: &serde_json::Value) -> String {
    let request = DiffRequest::from_json(body, &DiffDefaults::default()).unwrap();
    let DiffOutcome::Changed(model) = build_model(&request).unwrap() else {
        panic!("the inputs differ");
    };
    render(
        &model,
        &ViewOptions::from_request(&request, Variant::Viewer),
    )
}

fn diffs(c: &mut Criterion) {
    let mut group = c.benchmark_group("diff");
    group.sample_size(30);
    let (before, after) = texts();
    let body =
        serde_json::json!({"before": before, "after": after, "path": "src/lib.rs", "mode": "view"});
    group.throughput(Throughput::Bytes((before.len() + after.len()) as u64));
    group.bench_function("before_after_5000_lines_5pct", |b| b.iter(|| run(&body)));
    let patch = patch_100_files();
    let body = serde_json::json!({"patch": patch, "mode": "view"});
    group.throughput(Throughput::Bytes(patch.len() as u64));
    group.bench_function("git_patch_100_files", |b| b.iter(|| run(&body)));
    group.finish();
}

criterion_group!(benches, diffs);
criterion_main!(benches);
