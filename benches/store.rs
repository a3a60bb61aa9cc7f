//! Snapshot create + view through two instances: the shared S3 store (moto on loopback)
//! against the local default, in one run (issue #19's speed check).
//!
//! `cargo bench --bench store` starts moto (`target/moto-venv`, see scripts/test.sh), then
//! for each setup `previewd serve` processes: with `s3` two share the bucket and each round
//! creates a snapshot on A and opens it (`raw`) on B, the first view there loading it from
//! the store; with `local` each round creates and opens on one instance (a local snapshot
//! exists only on its own instance). With `PREVIEWD_BENCH_BASELINE=/path/to/previewd` the
//! local setup also runs on that binary (e.g. main's before the store), with the same
//! environment, to compare the default store's speed before and after.
//!
//! The machine may be shared, so the setups are interleaved: each repetition runs every
//! setup once, local and baseline in alternating order (one goes first, then the other),
//! and the comparison is the ratio of the two within each repetition, with its spread.
//! Rounds per setup and repetition: `PREVIEWD_BENCH_ROUNDS` (default 300, after
//! `PREVIEWD_BENCH_WARMUP` unmeasured ones, default 30); repetitions:
//! `PREVIEWD_BENCH_REPEATS` (default 3). `PREVIEWD_BENCH_S3=0` leaves the s3 setup out,
//! for a long local-against-baseline comparison: each s3 round adds a quota marker that
//! later rounds list again, so its rate falls from one repetition to the next.
//!
//! `cargo test --all-targets` runs this binary too, without `--bench`: it then does a few
//! rounds of each setup once, so the bench keeps working without making the suite slow.

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

/// `warmup` unmeasured rounds, then `n` measured ones, of create on `create_on` and view
/// on `view_on`.
async fn rounds(create_on: &str, view_on: &str, ws: &Path, warmup: usize, n: usize) -> Figures {
    let http = reqwest::Client::new();
    let reference = json!({"workspaceRoot": ws.to_str().unwrap(), "relativePath": "notes.md"});
    let mut took = Vec::with_capacity(n);
    let mut started = Instant::now();
    for round in 0..warmup + n {
        if round == warmup {
            started = Instant::now();
        }
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
        if round >= warmup {
            took.push(t.elapsed());
        }
    }
    let total = started.elapsed();
    took.sort();
    Figures {
        per_second: n as f64 / total.as_secs_f64(),
        p50: took[n / 2],
        p99: took[(n * 99 / 100).min(n - 1)],
    }
}

fn report(rep: usize, name: &str, f: &Figures) {
    println!(
        "rep {rep}  {name:<28} {:>8.1} rounds/s   p50 {:>7.2} ms   p99 {:>7.2} ms",
        f.per_second,
        f.p50.as_secs_f64() * 1e3,
        f.p99.as_secs_f64() * 1e3
    );
}

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[tokio::main]
async fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let (n, warmup, repeats) = if bench {
        (
            env_or("PREVIEWD_BENCH_ROUNDS", 300).max(1),
            env_or("PREVIEWD_BENCH_WARMUP", 30),
            env_or("PREVIEWD_BENCH_REPEATS", 3).max(1),
        )
    } else {
        (5, 0, 1)
    };
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
    let s3_a = Instance::start("s3-a", tmp.path(), &ws, &moto.endpoint, &roomy);
    let s3_b = Instance::start("s3-b", tmp.path(), &ws, &moto.endpoint, &roomy);
    // The local setups get exactly the same environment, which an older binary knows too
    // (an unknown `PREVIEWD_STORE__*` variable would stop it).
    let plain = [("PREVIEWD_SNAPSHOTS__MAX_COUNT", "100000")];
    let this = Path::new(env!("CARGO_BIN_EXE_previewd"));
    let local = Instance::start_binary(this, "local", tmp.path(), &ws, &plain);
    let baseline = std::env::var("PREVIEWD_BENCH_BASELINE").ok().map(|binary| {
        Instance::start_binary(Path::new(&binary), "baseline", tmp.path(), &ws, &plain)
    });
    let with_s3 = std::env::var("PREVIEWD_BENCH_S3").map_or(true, |v| v != "0");
    let mut ratios = Vec::new();
    for rep in 1..=repeats {
        if with_s3 {
            let s3 = rounds(&s3_a.base, &s3_b.base, &ws, warmup, n).await;
            report(rep, "s3, create A + view B", &s3);
        }
        let Some(baseline) = &baseline else {
            let f = rounds(&local.base, &local.base, &ws, warmup, n).await;
            report(rep, "local, create + view", &f);
            continue;
        };
        // Alternate which goes first, so a drift of the machine's load favours neither.
        let mut order = [
            ("local, create + view", &local),
            ("baseline local, same", baseline),
        ];
        if rep % 2 == 0 {
            order.reverse();
        }
        let mut per_second = [0.0; 2];
        for (name, instance) in order {
            let f = rounds(&instance.base, &instance.base, &ws, warmup, n).await;
            report(rep, name, &f);
            per_second[usize::from(name.starts_with("baseline"))] = f.per_second;
        }
        ratios.push(per_second[0] / per_second[1]);
    }
    if !ratios.is_empty() {
        let mut sorted = ratios.clone();
        sorted.sort_by(f64::total_cmp);
        let shown: Vec<String> = ratios.iter().map(|r| format!("{r:.3}")).collect();
        println!(
            "local / baseline rounds/s: median {:.3}, min {:.3}, max {:.3} over {} repetitions ({})",
            sorted[sorted.len() / 2],
            sorted[0],
            sorted[sorted.len() - 1],
            sorted.len(),
            shown.join(", ")
        );
    }
}
