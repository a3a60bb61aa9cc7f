//! The HTTP shell: parses requests into calls of the pipeline and maps results back.
//!
//! [`app`] builds the router over an [`AppState`]; [`serve`] runs it on a listener with
//! graceful shutdown. Handlers stay thin: blocking work goes to the bounded [`pool::Pool`].

pub mod activity;
pub mod api;
pub mod body;
mod conn;
pub mod diffs;
pub mod extract;
pub mod fonts;
pub mod guard;
pub mod hosts;
pub mod inflight;
pub mod metrics;
pub mod openapi;
pub mod pdf;
pub mod pool;
pub mod response;
pub mod routes;
pub mod sheet;
pub mod sheet_chart;
pub mod views;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use tokio::net::TcpListener;

use crate::config::Config;
use crate::diff::store::{ArtifactStore, DiskStore, StoreConfig};
use crate::preview::SnapshotStore;
use crate::workspace::{Door, WorkspaceSetupError, Workspaces};

/// Everything a request handler may use.
#[derive(Debug)]
pub struct AppState {
    /// The configuration in force.
    pub config: Config,
    /// The one door to the disk.
    pub door: Door,
    /// Preview snapshots.
    pub snapshots: SnapshotStore,
    /// Blocking work.
    pub pool: pool::Pool,
    /// PDF page rasters still running past their deadline (they cannot be stopped).
    pub pdf_overdue: std::sync::atomic::AtomicUsize,
    /// Remote miss throttling.
    pub throttle: guard::Throttle,
    /// Absolute base URL of this server (no trailing slash).
    pub base_url: String,
    /// CSP of previewd's own pages.
    pub shell_csp: String,
    /// When the state was made.
    pub started: Instant,
    /// Diff artifacts.
    pub diff_store: Arc<dyn ArtifactStore>,
    /// The shared store's counters and state (`local` when there is none).
    pub store_stats: Arc<crate::store::StoreStats>,
    /// PNG/PDF export (one warm, locked-down Chromium, started on first use).
    pub exporter: crate::export::Exporter,
    /// Base of viewer URLs when a call names none (configured viewer base, public origin,
    /// or this server's loopback address).
    pub diff_base_url: String,
    /// Counters for `GET /metrics`.
    pub metrics: metrics::Metrics,
    /// The `Host` names and `Origin`s this server answers to.
    pub hosts: hosts::HostPolicy,
    /// Budget of response bytes waiting for clients.
    pub inflight: Arc<inflight::Inflight>,
    /// The machine fonts the Office viewers serve (scanned at start).
    pub fonts: Arc<crate::office::fonts::FontCatalog>,
}

impl std::fmt::Debug for dyn ArtifactStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ArtifactStore")
    }
}

/// Why the service could not start.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// A configured workspace is unusable.
    #[error(transparent)]
    Workspace(#[from] WorkspaceSetupError),
    /// The diff artifact store cannot be opened.
    #[error("diff store: {0}")]
    Store(String),
    /// A configured URL is malformed.
    #[error("{0}")]
    Url(String),
}

impl AppState {
    /// Builds the state; `bound` is the address actually listened on (for default URLs).
    pub fn new(config: Config, bound: SocketAddr) -> Result<AppState, SetupError> {
        let workspaces = Workspaces::new(&config.workspaces, &config.workspace_parents)?;
        let (store, store_stats, objects) = open_stores(&config)?;
        let door = Door::new(workspaces, config.limits.clone())
            .allowing_hard_links(config.preview.allow_hard_links);
        let mut snapshots = SnapshotStore::new(config.snapshots.clone());
        if let Some(objects) = objects {
            snapshots = snapshots.with_shared(
                crate::store::snapshots::SharedSnapshots::new(
                    objects,
                    crate::store::snapshots::tenant_of(config.security.api_token.as_deref()),
                    config.store.tenant_max_snapshots,
                    config.store.tenant_max_snapshot_bytes,
                    config
                        .limits
                        .office_bytes
                        .max(config.limits.pdf_bytes)
                        .max(config.limits.image_bytes)
                        .max(config.limits.csv_bytes)
                        .max(config.limits.text_bytes),
                ),
                rebuild_snapshot(door.clone(), &config),
            );
        }
        let base_url = match &config.public_origin {
            Some(origin) => origin.trim_end_matches('/').to_string(),
            None => {
                let host = if bound.ip().is_unspecified() {
                    "127.0.0.1".to_string()
                } else if bound.is_ipv6() {
                    format!("[{}]", bound.ip())
                } else {
                    bound.ip().to_string()
                };
                format!("http://{host}:{}", bound.port())
            }
        };
        // Inline styles carry a document's own formatting (run colours, sizes, table
        // widths), generated from validated model values; scripts stay 'self' only. The
        // PDF viewer fetches each page's text layer from the snapshot, so 'self' may be
        // fetched (the shell runs only previewd's own script).
        let shell_csp = format!(
            "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-src 'self'; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'; frame-ancestors {}",
            config.security.frame_ancestors
        );
        let diff_base_url = match &config.diffs.viewer_base_url {
            Some(url) => crate::diff::normalize_base_url(url)
                .map_err(|e| SetupError::Url(format!("diffs.viewer_base_url: {}", e.message())))?,
            None => base_url.clone(),
        };
        let hosts = hosts::HostPolicy::new(
            bound.port(),
            &config.security.allowed_hosts,
            [
                config.public_origin.as_deref(),
                config.diffs.viewer_base_url.as_deref(),
            ]
            .into_iter()
            .flatten(),
        )
        .map_err(|e| SetupError::Url(e.to_string()))?;
        Ok(AppState {
            hosts,
            exporter: crate::export::Exporter::from_config(&config),
            diff_store: store,
            store_stats,
            diff_base_url,
            door,
            snapshots,
            pool: pool::Pool::new(&config.work),
            pdf_overdue: std::sync::atomic::AtomicUsize::new(0),
            throttle: guard::Throttle::new(&config.security),
            base_url,
            shell_csp,
            started: Instant::now(),
            metrics: metrics::Metrics::default(),
            inflight: inflight::Inflight::new(config.limits.inflight_bytes),
            fonts: Arc::new(crate::office::fonts::FontCatalog::scan(
                &config.fonts.dirs,
                config.fonts.max_font_bytes,
            )),
            config,
        })
    }
}

/// The diff artifact store the configuration names, and the counters of the shared store
/// behind it (a local one counts nothing).
type Stores = (
    Arc<dyn ArtifactStore>,
    Arc<crate::store::StoreStats>,
    Option<Arc<crate::store::Objects>>,
);

fn open_stores(config: &Config) -> Result<Stores, SetupError> {
    if config.store.backend == crate::config::StoreBackend::S3 {
        let objects =
            Arc::new(crate::store::Objects::open(&config.store).map_err(SetupError::Store)?);
        let stats = objects.stats();
        let store = crate::store::S3ArtifactStore::new(
            objects.clone(),
            config.diffs.max_artifact_bytes,
            config.diffs.max_total_bytes,
            StoreConfig::default().cleanup_interval,
        );
        return Ok((Arc::new(store), stats, Some(objects)));
    }
    let store = DiskStore::open(&StoreConfig {
        dir: config
            .diffs
            .data_dir
            .clone()
            .unwrap_or_else(crate::diff::store::default_dir),
        max_artifact_bytes: config.diffs.max_artifact_bytes,
        max_total_bytes: config.diffs.max_total_bytes,
        fsync: config.diffs.fsync,
        ..StoreConfig::default()
    })
    .map_err(|e| SetupError::Store(e.message()))?;
    Ok((
        Arc::new(store),
        Arc::new(crate::store::StoreStats::new("local")),
        None,
    ))
}

/// How this instance rebuilds a snapshot another one stored: the workspace by its id, the
/// path checked as a request's would be, the kind by name, and an Office file parsed (and
/// its heap measured) as at create.
fn rebuild_snapshot(door: Door, config: &Config) -> Box<crate::preview::snapshot::Rebuild> {
    use crate::workspace::{check_relative_path, FileKind, ScopedRead};
    let (office_limits, pdf_limits) = (config.office.clone(), config.pdf.clone());
    let path_bytes = config.limits.relative_path_bytes;
    Box::new(move |meta, bytes| {
        let root = door.workspaces().by_id(&meta.workspace_id)?;
        let relative = check_relative_path(&meta.relative_path, path_bytes)?;
        const KINDS: [FileKind; 12] = [
            FileKind::Html,
            FileKind::Markdown,
            FileKind::Source,
            FileKind::Text,
            FileKind::Image,
            FileKind::Docx,
            FileKind::Pptx,
            FileKind::Xlsx,
            FileKind::Csv,
            FileKind::Pdf,
            FileKind::Binary,
            FileKind::Other,
        ];
        let kind = KINDS
            .into_iter()
            .find(|k| k.as_str() == meta.kind)
            .ok_or(crate::error::Error::Internal)?;
        let read = ScopedRead {
            workspace_id: root.id.clone(),
            relative_path: relative,
            kind,
            size: meta.size,
            mtime_ms: meta.mtime_ms,
            sha256: meta.sha256.clone(),
            bytes: bytes.map(Arc::from),
        };
        let (office, heap) = crate::preview::heap::measure(|| {
            crate::preview::office::parse_with(&read, &office_limits, &pdf_limits)
        });
        Ok((root, read, office?, heap))
    })
}

/// The router over this state.
pub fn app(state: Arc<AppState>) -> Router {
    routes::router(state)
}

/// Serves `state` on `listener` until `shutdown` resolves, then finishes in-flight requests.
///
/// The accept loop is previewd's own so that it can bound what one client holds: each
/// client IP (loopback too; trusted proxies excepted, they speak for many) may keep
/// `security.max_connections_per_client` connections open, and a connection past that gets
/// one 429 `busy` answer and is closed. Every connection's socket is wrapped so that a
/// client that takes nothing of a pending response for `limits.write_timeout_seconds` is
/// dropped, which frees what its response held.
pub async fn serve(
    listener: TcpListener,
    state: Arc<AppState>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let router = app(state.clone());
    let clients = conn::Clients::new(
        state.config.security.max_connections_per_client,
        state.config.security.trusted_proxies.clone(),
    );
    let write_timeout = match state.config.limits.write_timeout_seconds {
        0 => None,
        secs => Some(std::time::Duration::from_secs(secs)),
    };
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of descriptors and the like: wait a moment rather than spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let io = hyper_util::rt::TokioIo::new(conn::TimedWrites::new(stream, write_timeout));
        match clients.admit(peer.ip()) {
            Some(slot) => {
                let service = conn::service(router.clone(), peer);
                let connection =
                    hyper::server::conn::http1::Builder::new().serve_connection(io, service);
                let watched = graceful.watch(connection);
                tokio::spawn(async move {
                    let _ = watched.await;
                    drop(slot);
                });
            }
            None => {
                tokio::spawn(conn::refuse(io));
            }
        }
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// Installs the SIGTERM handler now and returns a future that resolves on SIGTERM or
/// Ctrl-C. The handler is registered before the future is first polled, so a SIGTERM that
/// arrives right after start-up still shuts down gracefully instead of killing the process.
/// Call it inside the runtime.
pub fn shutdown_signal() -> impl std::future::Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    let term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    async move {
        let ctrl_c = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        #[cfg(unix)]
        let term = async move {
            match term {
                Some(mut s) => {
                    s.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        #[cfg(not(unix))]
        let term = std::future::pending::<()>();
        tokio::select! {
            _ = ctrl_c => {},
            _ = term => {},
        }
        tracing::info!("shutting down: finishing requests in flight");
    }
}
