//! Projection + aggregation of a session with 2,000 tool calls (write, edit, apply_patch
//! mixed) over 50 files.

use criterion::{criterion_group, criterion_main, Criterion};
use previewd::activity::project_session;
use serde_json::json;

fn session() -> previewd::activity::SessionInput {
    let mut turns = Vec::new();
    let mut call = 0;
    for t in 0..100 {
        let mut calls = Vec::new();
        for k in 0..20 {
            let file = (t * 7 + k) % 50;
            let path = format!("src/file_{file}.rs");
            let id = format!("call-{call}");
            call += 1;
            let (title, input) = match k % 3 {
                0 => (
                    format!("write: {path}"),
                    json!({"path": path, "content": format!("fn f{t}() {{}}\n// turn {t}\n")}),
                ),
                1 => (
                    format!("edit: {path}"),
                    json!({"path": path, "oldText": format!("// turn {}", t.max(1) - 1), "newText": format!("// turn {t} edited")}),
                ),
                _ => (
                    "apply_patch".to_string(),
                    json!({"input": format!("*** Begin Patch\n*** Update File: {path}\n@@\n-fn f{t}() {{}}\n+fn g{t}() {{}}\n*** End Patch")}),
                ),
            };
            calls.push(
                json!({"toolCallId": id, "title": title, "status": "completed", "rawInput": input}),
            );
        }
        turns.push(json!({"turnId": format!("t{t}"), "toolCalls": calls}));
    }
    serde_json::from_value(json!({"workspaceRoot": "/ws", "executionCwd": "/ws", "turns": turns}))
        .unwrap()
}

fn projection(c: &mut Criterion) {
    let input = session();
    let calls: usize = input.turns.iter().map(|t| t.tool_calls.len()).sum();
    assert_eq!(calls, 2_000);
    let mut group = c.benchmark_group("activity");
    group.sample_size(30);
    group.bench_function("project_2000_calls_50_files", |b| {
        b.iter(|| project_session(&input).unwrap())
    });
    group.finish();
}

criterion_group!(benches, projection);
criterion_main!(benches);
