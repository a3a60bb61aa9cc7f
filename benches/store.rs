//! Snapshot create + view through two instances: the shared S3 store (moto on loopback)
//! against the local default, in one run (issue #19's speed check).
//!
//! `cargo bench --bench store` starts moto (`target/moto-venv`, see scripts/test.sh), then
//! for each setup two `previewd serve` processes: with `s3` both share the bucket and each
//! round creates a snapshot on A and opens it (`raw`) on B, the first view there loading
//! it from the store; with `local` each round creates and opens on A alone (a local
//! snapshot exists only on its own instance). With `PREVIEWD_BENCH_BASELINE=/path/to/previewd`
//! the local setup also runs on that binary (e.g. main's), to compare the default store's
//! speed before and after. Rounds: `PREVIEWD_BENCH_ROUNDS` (default 300).

#[path = "../tests/store_moto/mod.rs"]
mod store_moto;

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use store_moto::{Instance, Moto};

struct Figures {
    per_second: f64,
    p50: Duration,
    p99: Duration,
}

async fn rounds(create_on: &str, view_on: &str, ws: &Path, n: usize) -> Figures {
    let http = reqwest::Client::new();
    let reference = json!({"workspaceRoot": ws.to_str().unwrap(), "relativePath": "notes.md"});
    let mut took = Vec::with_capacity(n);
    let started = Instant::now();
    for _ in 0..n {
        let t = Instant::now();
        let made: serde_json::Value = http
            .post(format!("{create_on}/api/v1/previews"))
            .json(&reference)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let (id, token) = (
            made["previewId"].as_str().unwrap(),
            made["token"].as_str().unwrap(),
        );
        let raw = http
            .get(format!("{view_on}/p/{id}/{token}/raw"))
            .send()
            .await
            .unwrap();
        assert_eq!(raw.status(), 200);
        raw.bytes().await.unwrap();
        took.push(t.elapsed());
    }
    let total = started.elapsed();
    took.sort();
    Figures {
        per_second: n as f64 / total.as_secs_f64(),
        p50: took[n / 2],
        p99: took[(n * 99 / 100).min(n - 1)],
    }
}

fn report(name: &str, f: &Figures) {
    println!(
        "{name:<28} {:>8.1} rounds/s   p50 {:>7.2} ms   p99 {:>7.2} ms",
        f.per_second,
        f.p50.as_secs_f64() * 1e3,
        f.p99.as_secs_f64() * 1e3
    );
}

#[tokio::main]
async fn main() {
    let n: usize = std::env::var("PREVIEWD_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    std::fs::create_dir(&ws).unwrap();
    std::fs::write(ws.join("notes.md"), "# Notes\n\n".repeat(200)).unwrap();
    // Many rounds: quotas and the memory store must not be what the bench measures.
    let roomy = [
        ("PREVIEWD_STORE__TENANT_MAX_SNAPSHOTS", "100000"),
        ("PREVIEWD_SNAPSHOTS__MAX_COUNT", "100000"),
    ];
    let moto = Moto::start(tmp.path());
    {
        let a = Instance::start("s3-a", tmp.path(), &ws, &moto.endpoint, &roomy);
        let b = Instance::start("s3-b", tmp.path(), &ws, &moto.endpoint, &roomy);
        report(
            "s3, create A + view B",
            &rounds(&a.base, &b.base, &ws, n).await,
        );
    }
    let local = [
        ("PREVIEWD_STORE__BACKEND", "local"),
        ("PREVIEWD_SNAPSHOTS__MAX_COUNT", "100000"),
    ];
    let a = Instance::start("local-a", tmp.path(), &ws, &moto.endpoint, &local);
    report(
        "local, create + view on A",
        &rounds(&a.base, &a.base, &ws, n).await,
    );
    if let Ok(baseline) = std::env::var("PREVIEWD_BENCH_BASELINE") {
        let base = Instance::start_binary(Path::new(&baseline), "baseline", tmp.path(), &ws, &[]);
        report(
            "baseline local, same",
            &rounds(&base.base, &base.base, &ws, n).await,
        );
    }
}
