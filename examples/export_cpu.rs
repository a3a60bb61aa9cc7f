//! Where a warm PNG export spends CPU: renders one diff repeatedly through the exporter
//! and reads the CPU time of every Chromium process (and of this one) from `/proc`.
//!
//! ```sh
//! cargo run --release --example export_cpu              # 200-line diff (the issue's)
//! LINES=10 cargo run --release --example export_cpu     # a small one, for the fixed cost
//! ```
//!
//! Prints wall time per render, sequential and 20 at once, and CPU milliseconds per render
//! spent by Chromium and by previewd. Linux only (reads `/proc`).
//!
//! More environment knobs:
//! - `THREADS=1` also splits the sequential renders' Chromium CPU by process kind
//!   (browser, renderer, gpu-process) and thread name;
//! - `DUMP_HTML=PATH` writes the image page that is rendered, `HTML_FILE=PATH` renders
//!   that file instead (to compare two versions of the page);
//! - `OUT_PNG=PATH` writes the first PNG.

use std::time::Instant;

use previewd::config::BrowserConfig;
use previewd::diff::view::{self, Variant, ViewOptions};
use previewd::diff::{build_model, DiffDefaults, DiffOutcome, DiffRequest};
use previewd::export::{Exporter, PngOptions};

/// CPU milliseconds (user + system) of one `/proc/{pid}/stat`.
fn cpu_ms(stat: &str) -> Option<f64> {
    stat_ms(stat, false)
}

/// CPU milliseconds of one `/proc/{pid}/stat`, with `children` also that of its exited
/// and reaped children (`cutime`, `cstime`).
fn stat_ms(stat: &str, children: bool) -> Option<f64> {
    let fields: Vec<&str> = stat.get(stat.rfind(')')? + 2..)?.split(' ').collect();
    let field = |i: usize| fields.get(i)?.parse::<u64>().ok();
    let mut ticks = field(11)? + field(12)?;
    if children {
        ticks += field(13)? + field(14)?;
    }
    // USER_HZ is 100 on Linux.
    Some(ticks as f64 * 10.0)
}

/// CPU milliseconds of every live process whose name contains "chrom", and of the
/// children they have reaped: a renderer that exits mid-run (its tab closed) still counts,
/// through its zygote.
fn chromium_cpu_ms() -> f64 {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0.0;
    };
    entries
        .flatten()
        .filter(|e| {
            std::fs::read_to_string(e.path().join("comm")).is_ok_and(|c| c.contains("chrom"))
        })
        .filter_map(|e| stat_ms(&std::fs::read_to_string(e.path().join("stat")).ok()?, true))
        .sum()
}

/// CPU milliseconds of every thread of every Chromium process, keyed by
/// "process kind / thread name" (threads of the same name summed).
fn chromium_threads() -> std::collections::BTreeMap<String, f64> {
    let mut out = std::collections::BTreeMap::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in entries.flatten() {
        if !std::fs::read_to_string(e.path().join("comm")).is_ok_and(|c| c.contains("chrom")) {
            continue;
        }
        let cmdline = std::fs::read_to_string(e.path().join("cmdline")).unwrap_or_default();
        let kind = cmdline
            .split(['\0', ' '])
            .find_map(|a| a.strip_prefix("--type="))
            .unwrap_or("browser")
            .to_string();
        let Ok(tasks) = std::fs::read_dir(e.path().join("task")) else {
            continue;
        };
        for t in tasks.flatten() {
            let name = std::fs::read_to_string(t.path().join("comm")).unwrap_or_default();
            let Some(ms) = std::fs::read_to_string(t.path().join("stat"))
                .ok()
                .and_then(|s| cpu_ms(&s))
            else {
                continue;
            };
            *out.entry(format!("{kind} / {}", name.trim()))
                .or_insert(0.0) += ms;
        }
    }
    out
}

fn own_cpu_ms() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| cpu_ms(&s))
        .unwrap_or(0.0)
}

fn main() {
    let lines: usize = std::env::var("LINES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let exporter = Exporter::new(&BrowserConfig {
        queue: 64,
        // Keep one browser for the whole run so no process exits mid-measurement.
        restart_after_renders: 0,
        ..BrowserConfig::default()
    });
    let line = |i: usize, changed: bool| {
        if changed {
            format!("    let value_{i} = compute_all({i}, \"label {i}\", true);\n")
        } else {
            format!("    let value_{i} = compute({i}, \"label {i}\");\n")
        }
    };
    let before: String = (0..lines).map(|i| line(i, false)).collect();
    let after: String = (0..lines).map(|i| line(i, i % 2 == 0)).collect();
    let request = DiffRequest::from_json(
        &serde_json::json!({
            "before": format!("fn run() {{\n{before}}}\n"),
            "after": format!("fn run() {{\n{after}}}\n"),
            "path": "src/run.rs",
            "mode": "file",
        }),
        &DiffDefaults::default(),
    )
    .expect("valid request");
    let Ok(DiffOutcome::Changed(model)) = build_model(&request) else {
        panic!("the texts differ")
    };
    let html = view::render(
        &model,
        &ViewOptions::from_request(&request, Variant::Image { max_width: 960 }),
    );
    let html = match std::env::var_os("HTML_FILE") {
        Some(path) => std::fs::read_to_string(path).expect("html file"),
        None => html,
    };
    if let Some(path) = std::env::var_os("DUMP_HTML") {
        std::fs::write(path, &html).expect("dump");
    }
    let options = PngOptions::from(&request.file);
    let first = rt
        .block_on(exporter.render_png(&html, &options))
        .expect("render");
    if let Some(path) = std::env::var_os("OUT_PNG") {
        std::fs::write(path, &first.bytes).expect("write the PNG");
    }
    println!(
        "{lines}-line diff: PNG {}×{} at scale {} ({:.1} MP, {} bytes)",
        first.width,
        first.height,
        first.scale,
        f64::from(first.width) * f64::from(first.height) / 1e6,
        first.bytes.len()
    );

    let n = 10;
    let threads = chromium_threads();
    let (chromium, own, started) = (chromium_cpu_ms(), own_cpu_ms(), Instant::now());
    for _ in 0..n {
        rt.block_on(exporter.render_png(&html, &options))
            .expect("render");
    }
    println!(
        "sequential: {:.0} ms wall per render; CPU per render: Chromium {:.0} ms, previewd {:.0} ms",
        started.elapsed().as_secs_f64() * 1000.0 / f64::from(n),
        (chromium_cpu_ms() - chromium) / f64::from(n),
        (own_cpu_ms() - own) / f64::from(n)
    );
    if std::env::var_os("THREADS").is_some() {
        for (name, ms) in chromium_threads() {
            let per = (ms - threads.get(&name).copied().unwrap_or(0.0)) / f64::from(n);
            if per >= 1.0 {
                println!("  {per:6.0} ms  {name}");
            }
        }
    }

    let n = 20;
    let (chromium, own, started) = (chromium_cpu_ms(), own_cpu_ms(), Instant::now());
    rt.block_on(async {
        let renders = (0..n).map(|_| exporter.render_png(&html, &options));
        for result in futures::future::join_all(renders).await {
            result.expect("render");
        }
    });
    println!(
        "{n} at once: {:.2} renders/s; CPU per render: Chromium {:.0} ms, previewd {:.0} ms",
        f64::from(n) / started.elapsed().as_secs_f64(),
        (chromium_cpu_ms() - chromium) / f64::from(n),
        (own_cpu_ms() - own) / f64::from(n)
    );
    rt.block_on(exporter.close());
}
