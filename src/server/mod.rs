//! The HTTP shell: parses requests into calls of the pipeline and maps results back.
//!
//! [`app`] builds the router over an [`AppState`]; [`serve`] runs it on a listener with
//! graceful shutdown. Handlers stay thin: blocking work goes to the bounded [`pool::Pool`].

pub mod api;
pub mod guard;
pub mod pool;
pub mod response;
pub mod routes;
pub mod views;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use tokio::net::TcpListener;

use crate::config::Config;
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
    /// Remote miss throttling.
    pub throttle: guard::Throttle,
    /// Absolute base URL of this server (no trailing slash).
    pub base_url: String,
    /// CSP of previewd's own pages.
    pub shell_csp: String,
    /// When the state was made.
    pub started: Instant,
}

impl AppState {
    /// Builds the state; `bound` is the address actually listened on (for default URLs).
    pub fn new(config: Config, bound: SocketAddr) -> Result<AppState, WorkspaceSetupError> {
        let workspaces = Workspaces::new(&config.workspaces, &config.workspace_parents)?;
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
        let shell_csp = format!(
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-src 'self'; font-src 'self'; connect-src 'none'; base-uri 'none'; form-action 'none'; object-src 'none'; frame-ancestors {}",
            config.security.frame_ancestors
        );
        Ok(AppState {
            door: Door::new(workspaces, config.limits.clone()),
            snapshots: SnapshotStore::new(config.snapshots.clone()),
            pool: pool::Pool::new(&config.work),
            throttle: guard::Throttle::new(&config.security),
            base_url,
            shell_csp,
            started: Instant::now(),
            config,
        })
    }
}

/// The router over this state.
pub fn app(state: Arc<AppState>) -> Router {
    routes::router(state)
}

/// Serves `state` on `listener` until `shutdown` resolves, then finishes in-flight requests.
pub async fn serve(
    listener: TcpListener,
    state: Arc<AppState>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(
        listener,
        app(state).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await
}

/// Resolves on SIGTERM or Ctrl-C.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
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
