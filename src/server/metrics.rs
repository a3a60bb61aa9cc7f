//! `GET /metrics`: the service's counters in the Prometheus text exposition format
//! (version 0.0.4), for scraping by Prometheus or anything that reads it.
//!
//! Counters are plain atomics bumped on the request path; the page is assembled on demand
//! from them and from the gauges the other parts already keep (snapshot store, blocking
//! pool, exporter). Nothing here names a path, a token or a workspace: label values are
//! fixed words.

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;

use super::response::with_type;
use super::AppState;
use crate::export::BrowserState;

/// Content type of the text exposition format.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Counters kept by the HTTP layer and the diff routes.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Responses by status class: 1xx … 5xx (index 0 … 4).
    responses: [AtomicU64; 5],
    /// Diff artifacts created by `POST /api/v1/diffs`.
    diff_artifacts: AtomicU64,
    /// Viewer pages rendered from a recipe on first view.
    diff_views_rendered: AtomicU64,
}

impl Metrics {
    /// Counts one response.
    pub fn response(&self, status: StatusCode) {
        let class = usize::from(status.as_u16() / 100).clamp(1, 5) - 1;
        self.responses[class].fetch_add(1, Ordering::Relaxed);
    }

    /// Counts one created diff artifact.
    pub fn diff_artifact_created(&self) {
        self.diff_artifacts.fetch_add(1, Ordering::Relaxed);
    }

    /// Diff artifacts created so far.
    pub fn diff_artifacts_created(&self) -> u64 {
        self.diff_artifacts.load(Ordering::Relaxed)
    }

    /// Counts one viewer page rendered on first view.
    pub fn diff_view_rendered(&self) {
        self.diff_views_rendered.fetch_add(1, Ordering::Relaxed);
    }
}

/// One metric family being written: `# HELP`, `# TYPE`, then samples.
struct Page(String);

impl Page {
    fn family(&mut self, name: &str, kind: &str, help: &str) -> &mut Self {
        let _ = writeln!(self.0, "# HELP previewd_{name} {help}");
        let _ = writeln!(self.0, "# TYPE previewd_{name} {kind}");
        self
    }

    fn sample(&mut self, name: &str, labels: &str, value: impl std::fmt::Display) -> &mut Self {
        let _ = if labels.is_empty() {
            writeln!(self.0, "previewd_{name} {value}")
        } else {
            writeln!(self.0, "previewd_{name}{{{labels}}} {value}")
        };
        self
    }

    fn one(&mut self, name: &str, kind: &str, help: &str, value: impl std::fmt::Display) {
        self.family(name, kind, help).sample(name, "", value);
    }
}

/// The exposition text for the current state.
pub fn render(state: &AppState) -> String {
    let mut page = Page(String::with_capacity(4096));
    let m = &state.metrics;
    page.one(
        "uptime_seconds",
        "gauge",
        "Seconds since the service started.",
        state.started.elapsed().as_secs(),
    );
    page.family(
        "http_responses_total",
        "counter",
        "HTTP responses sent, by status class.",
    );
    for (i, count) in m.responses.iter().enumerate() {
        let labels = format!("class=\"{}xx\"", i + 1);
        page.sample(
            "http_responses_total",
            &labels,
            count.load(Ordering::Relaxed),
        );
    }
    page.one(
        "log_lines_dropped_total",
        "counter",
        "Log lines dropped because the reader of the log did not keep up.",
        crate::logging::dropped_lines(),
    );
    page.one(
        "snapshots",
        "gauge",
        "Live preview snapshots.",
        state.snapshots.len(),
    );
    page.one(
        "snapshot_bytes",
        "gauge",
        "Bytes held by live preview snapshots.",
        state.snapshots.bytes(),
    );
    let pool = state.pool.stats();
    page.one(
        "pool_workers",
        "gauge",
        "Blocking work slots.",
        pool.workers,
    );
    page.one(
        "pool_running",
        "gauge",
        "Blocking jobs running.",
        pool.running,
    );
    page.one(
        "pool_waiting",
        "gauge",
        "Blocking jobs waiting for a slot.",
        pool.waiting,
    );
    page.one(
        "diff_artifacts_created_total",
        "counter",
        "Diff artifacts created.",
        m.diff_artifacts.load(Ordering::Relaxed),
    );
    page.one(
        "diff_views_rendered_total",
        "counter",
        "Diff viewer pages rendered on first view.",
        m.diff_views_rendered.load(Ordering::Relaxed),
    );

    store_families(&mut page, &state.store_stats);

    let browser = state.exporter.state();
    page.family(
        "browser_state",
        "gauge",
        "State of the export browser: 1 for the current state.",
    );
    for (name, on) in [
        ("not_started", browser == BrowserState::NotStarted),
        ("ready", browser == BrowserState::Ready),
        ("failed", matches!(browser, BrowserState::Failed { .. })),
    ] {
        page.sample("browser_state", &format!("state=\"{name}\""), u8::from(on));
    }
    let export = state.exporter.stats();
    page.one(
        "export_renders_total",
        "counter",
        "PNG/PDF renders that produced a file.",
        export.renders,
    );
    page.one(
        "export_failures_total",
        "counter",
        "PNG/PDF renders that failed (limits, timeouts, browser failures).",
        export.failures,
    );
    let engines = state.exporter.engine_stats();
    for (name, help, pick) in [
        (
            "export_engine_renders_total",
            "PNG/PDF renders that produced a file, by engine.",
            (|c: &crate::export::EngineCounter| c.renders)
                as fn(&crate::export::EngineCounter) -> u64,
        ),
        (
            "export_engine_failures_total",
            "PNG/PDF renders that failed, by engine.",
            |c: &crate::export::EngineCounter| c.failures,
        ),
    ] {
        page.family(name, "counter", help);
        page.sample(name, "engine=\"native\"", pick(&engines.native));
        page.sample(name, "engine=\"chromium\"", pick(&engines.chromium));
    }
    page.one(
        "export_missing_glyphs_total",
        "counter",
        "Characters the native renderer found in no font (drawn as boxes).",
        engines.missing_glyphs,
    );
    page.one(
        "export_rejected_total",
        "counter",
        "PNG/PDF renders refused because the queue was full.",
        export.rejected,
    );
    page.one(
        "export_browser_launches_total",
        "counter",
        "Export browsers started.",
        export.launches,
    );
    page.one(
        "export_browser_restarts_total",
        "counter",
        "Export browsers replaced after exiting, disconnecting or reaching their render budget.",
        export.restarts,
    );
    page.one(
        "export_queue_length",
        "gauge",
        "Renders waiting for a tab.",
        export.queue_length,
    );
    page.one(
        "export_active_renders",
        "gauge",
        "Renders running.",
        export.active_renders,
    );
    page.one(
        "export_blocked_requests_total",
        "counter",
        "Requests of rendered pages refused by the network lock.",
        export.blocked_requests,
    );
    page.0
}

/// `GET /metrics`.
pub async fn metrics(State(state): State<Arc<AppState>>) -> Response {
    with_type(render(&state), CONTENT_TYPE, None)
}

/// The shared store's families: operations, failures and time by operation, retries, and
/// whether it answers (all zero, state 1, for the local store).
fn store_families(page: &mut Page, stats: &crate::store::StoreStats) {
    use crate::store::stats::Op;
    for (name, kind, help) in [
        (
            "store_operations_total",
            "counter",
            "Shared store operations, by operation.",
        ),
        (
            "store_errors_total",
            "counter",
            "Shared store operations that failed after their deadline and retries.",
        ),
        (
            "store_operation_seconds_total",
            "counter",
            "Time spent in shared store operations (retries included), by operation.",
        ),
    ] {
        page.family(name, kind, help);
        for op in Op::ALL {
            let labels = format!("op=\"{}\"", op.name());
            match name {
                "store_operations_total" => page.sample(name, &labels, stats.operations(op)),
                "store_errors_total" => page.sample(name, &labels, stats.errors(op)),
                _ => page.sample(name, &labels, stats.seconds(op)),
            };
        }
    }
    page.one(
        "store_retries_total",
        "counter",
        "Shared store attempts retried after a failure or a deadline.",
        stats.retries(),
    );
    page.one(
        "store_up",
        "gauge",
        "1 when the last shared store operation got an answer (always 1 for the local store).",
        u8::from(stats.state() != crate::store::StoreState::Unavailable),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_classes_are_counted_apart() {
        let m = Metrics::default();
        m.response(StatusCode::OK);
        m.response(StatusCode::CREATED);
        m.response(StatusCode::NOT_FOUND);
        m.response(StatusCode::SERVICE_UNAVAILABLE);
        let counts: Vec<u64> = m
            .responses
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .collect();
        assert_eq!(counts, [0, 2, 0, 1, 1]);
    }
}
