//! JSON API handlers: preview snapshots, stat, health.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use serde::Serialize;

use super::body::JsonBody;
use super::response::{json, parse_json};
use super::AppState;
use crate::csv::live::{LiveTable, FIRST_ROWS};
use crate::error::Error;
use crate::preview::{views_for, Created};
use crate::workspace::{FileKind, Opened, Root, ScopedRead, WorkspaceFileRef};

/// A view of a snapshot as listed in the API.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ViewLink {
    /// `preview`, `source`, `image`, `info`.
    pub name: &'static str,
    /// Label for a switcher.
    pub label: &'static str,
    /// Path on this server.
    pub path: String,
    /// Absolute URL.
    pub url: String,
}

/// The answer to `POST /api/v1/previews`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotInfo {
    /// Snapshot id.
    pub preview_id: String,
    /// The secret that, with the id, reaches the snapshot's views.
    pub token: String,
    /// File name.
    pub name: String,
    /// Path relative to the workspace root.
    pub relative_path: String,
    /// Detected kind.
    pub kind: FileKind,
    /// Size in bytes.
    pub size: u64,
    /// SHA-256 of the bytes read; `null` for a large table still being read in the
    /// background (its `grid/meta.json` gives it once the last byte is in).
    pub sha256: Option<String>,
    /// Modification time, milliseconds since the epoch.
    pub mtime_ms: Option<u64>,
    /// When the snapshot expires (RFC 3339).
    pub expires_at: String,
    /// The shell URL (default view).
    pub url: String,
    /// Views, default first.
    pub views: Vec<ViewLink>,
}

impl SnapshotInfo {
    /// Describes a created snapshot; `base` is the absolute origin (+ path) of this server.
    pub fn new(created: &Created, base: &str) -> SnapshotInfo {
        let s = &created.snapshot;
        let prefix = format!("/p/{}/{}/", s.id, created.token);
        SnapshotInfo {
            preview_id: s.id.clone(),
            token: created.token.clone(),
            name: s.read.file_name().to_string(),
            relative_path: s.read.relative_path.to_string(),
            kind: s.read.kind,
            size: s.read.size,
            sha256: s.sha256(),
            mtime_ms: s.read.mtime_ms,
            expires_at: crate::time::rfc3339(s.expires_at),
            url: format!("{base}{prefix}"),
            views: views_for(s.read.kind)
                .iter()
                .map(|v| ViewLink {
                    name: v.name(),
                    label: v.label(),
                    path: format!("{prefix}{}", v.name()),
                    url: format!("{base}{prefix}{}", v.name()),
                })
                .collect(),
        }
    }
}

/// `POST /api/v1/previews`: read the file once and keep it as a snapshot.
pub async fn create_preview(
    State(state): State<Arc<AppState>>,
    JsonBody(body): JsonBody,
) -> Result<Response, Error> {
    let reference: WorkspaceFileRef = parse_json(&body)?;
    let created = create_snapshot(&state, reference).await?;
    Ok(json(
        StatusCode::CREATED,
        &SnapshotInfo::new(&created, &state.base_url),
    ))
}

/// Resolves, reads (on the blocking pool) and stores a snapshot. Unchanged bytes already
/// in the store are not parsed again: the new snapshot shares the earlier one's content.
/// A large table is read in the background ([`crate::csv::live`]): its snapshot is kept
/// and returned once its first rows are in.
pub async fn create_snapshot(
    state: &Arc<AppState>,
    reference: WorkspaceFileRef,
) -> Result<Created, Error> {
    let door = state.door.clone();
    let limits = state.config.office.clone();
    let pdf_limits = state.config.pdf.clone();
    let (csv_above, xlsx_above) = (
        state.config.limits.csv_stream_bytes,
        state.config.limits.xlsx_stream_bytes,
    );
    let store = state.clone();
    let made = state
        .pool
        .run(move || {
            let (root, relative) = door.resolve(&reference)?;
            let stream_above = |kind| match kind {
                FileKind::Csv => Some(csv_above),
                FileKind::Xlsx => Some(xlsx_above),
                _ => None,
            };
            let read = match door.read_or_open(&root, relative.clone(), stream_above)? {
                Opened::Read(read) => read,
                Opened::Stream { read, file, limit } => {
                    let (size, name) = (read.size, read.file_name());
                    let started = match read.kind {
                        FileKind::Xlsx => {
                            crate::office::xlsx::live::start(file, size, limit, name, &limits)
                        }
                        _ => LiveTable::start(file, size, limit, name, &limits),
                    };
                    match started {
                        Some(live) => return Ok(Made::Live(root, read, live)),
                        // Enough tables are loading: this one is read whole.
                        None => door.read_in(&root, relative)?,
                    }
                }
            };
            if let Some(content) = store.snapshots.shared_content(&root, &read) {
                let created = store.snapshots.insert_shared(read, content);
                store.snapshots.publish(&created)?;
                return Ok(Made::Done(created));
            }
            // Office files are parsed now, so a file that cannot be shown is refused at
            // once with its reason instead of failing later in a view. What the model
            // keeps on the heap is measured here and charged to the store.
            let (office, heap) = crate::preview::heap::measure(|| {
                crate::preview::office::parse_with(&read, &limits, &pdf_limits)
            });
            let created = store.snapshots.insert(root, read, office?, heap);
            // With a shared store, any instance can open it from here on.
            store.snapshots.publish(&created)?;
            Ok(Made::Done(created))
        })
        .await?;
    let (root, read, live) = match made {
        Made::Done(created) => return Ok(created),
        Made::Live(root, read, live) => (root, read, live),
    };
    // As long as a parse of the whole file could have taken (a workbook's shared strings
    // come before its first row), then the answer comes anyway and the grid waits.
    let first_wait = Duration::from_millis(state.config.work.deadline_ms);
    let progress = live.wait_rows(FIRST_ROWS, first_wait).await;
    if progress.failed {
        // Refused before anything was shown (it grew past its limit, or a read failed).
        return Err(live.take_error().unwrap_or(Error::Internal));
    }
    let created = state.snapshots.insert_live(root, read, live.clone());
    // With a shared store, other instances learn of it now (and answer `busy` until its
    // bytes are there); the tenant's quota is checked here, as for any snapshot.
    state.snapshots.publish(&created)?;
    // The store charged an estimate; once the load has ended it charges what it holds,
    // and the shared store gets the bytes. That upload must not hold up the viewer's
    // `complete` (the hook runs before it), so it goes to the runtime's blocking threads.
    let snapshot = Arc::downgrade(&created.snapshot);
    let state = state.clone();
    let runtime = tokio::runtime::Handle::current();
    live.on_complete(move || {
        if let Some(snapshot) = snapshot.upgrade() {
            state.snapshots.recharge(&snapshot);
            if state.snapshots.is_shared() {
                runtime.spawn_blocking(move || state.snapshots.publish_loaded(&snapshot));
            }
        }
    });
    Ok(created)
}

enum Made {
    Done(Created),
    Live(Root, ScopedRead, Arc<LiveTable>),
}

/// `POST /api/v1/stat`: size, kind and mtime without reading the bytes.
pub async fn stat(
    State(state): State<Arc<AppState>>,
    JsonBody(body): JsonBody,
) -> Result<Response, Error> {
    let reference: WorkspaceFileRef = parse_json(&body)?;
    let door = state.door.clone();
    let stat = state.pool.run(move || door.stat(&reference)).await?;
    Ok(json(StatusCode::OK, &stat))
}

/// `GET /healthz`.
pub async fn health(State(state): State<Arc<AppState>>) -> Response {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Health {
        status: &'static str,
        version: &'static str,
        uptime_seconds: u64,
        snapshots: usize,
        snapshot_bytes: u64,
        pool: crate::server::pool::PoolStats,
        browser: crate::export::BrowserState,
        export: crate::export::ExportStats,
        export_engines: crate::export::EngineStats,
        store: StoreHealth,
    }
    #[derive(Serialize)]
    struct StoreHealth {
        backend: &'static str,
        state: &'static str,
    }
    json(
        StatusCode::OK,
        &Health {
            // Still alive and serving what needs no store, but not all it should.
            status: if state.store_stats.state() == crate::store::StoreState::Unavailable {
                "degraded"
            } else {
                "ok"
            },
            version: env!("CARGO_PKG_VERSION"),
            uptime_seconds: state.started.elapsed().as_secs(),
            snapshots: state.snapshots.len(),
            snapshot_bytes: state.snapshots.bytes(),
            pool: state.pool.stats(),
            // Reported without starting the browser.
            browser: state.exporter.state(),
            export: state.exporter.stats(),
            export_engines: state.exporter.engine_stats(),
            store: StoreHealth {
                backend: state.store_stats.backend(),
                state: state.store_stats.state().name(),
            },
        },
    )
}
