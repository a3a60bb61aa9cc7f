//! One warm, locked-down headless Chromium shared by every PNG/PDF render.
//!
//! ```text
//! render ─► Pool::acquire ── full (active + queued ≥ limit)? ─► Busy (429)
//!              │ semaphore permit (bounded tabs), then the current Instance:
//!              │   none / exited / disconnected / retired after N renders ─► launch a new one
//!              ▼
//!           Lease { Instance, Tab } ─► Tab::load(html) ─► png / pdf ─► Lease::finish
//!              (dropped early, e.g. by the deadline: the tab is closed, the browser stays)
//! ```
//!
//! **Process.** previewd starts Chromium itself rather than through chromiumoxide's
//! launcher, because only then can it be sure nothing outlives it: the browser gets its own
//! process group (dropping an [`Instance`] SIGKILLs the whole group, zygotes and renderers
//! included), and on Linux a parent-death signal, so even a killed previewd leaves no
//! browser behind. The spawn happens on one long-lived thread because Linux delivers the
//! parent-death signal when the *thread* that forked exits, and async runtime threads come
//! and go. Each browser gets a private temporary profile, removed after the process group
//! is gone. Its stderr is drained by a thread for the DevTools address (and so that a
//! chatty browser never blocks on a full pipe).
//!
//! **Network lock.** Every tab has request interception on (`Fetch.enable`, pattern `*`)
//! before it loads anything, and every paused request is failed — except the one document
//! request of the render in flight, to a fixed fake origin (`https://previewd.invalid/`),
//! which is fulfilled from memory with a CSP that allows no scripts, no connections, no
//! frames and only `data:` images and fonts. Nothing is ever continued to the network, so
//! there are no redirects to follow. Script execution is also disabled in the tab, Chromium
//! resolves no host names (`--host-resolver-rules`), and site isolation is off so that
//! every frame's requests pass through the tab's own interception.
//!
//! **Lifetime.** The browser starts on the first render, closes after an idle period,
//! is replaced when it exits or its connection drops, and is replaced after a number of
//! renders. [`Shared`] holds its state and counters for `/healthz`, readable without
//! starting anything.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use base64::Engine as _;
use chromiumoxide::browser::Browser;
use chromiumoxide::cdp::browser_protocol::browser::CloseParams;
use chromiumoxide::cdp::browser_protocol::emulation::{
    SetDeviceMetricsOverrideParams, SetEmulatedMediaParams, SetScriptExecutionDisabledParams,
};
use chromiumoxide::cdp::browser_protocol::fetch::{
    EnableParams as FetchEnableParams, EventRequestPaused, FailRequestParams, FulfillRequestParams,
    HeaderEntry, RequestPattern, RequestStage,
};
use chromiumoxide::cdp::browser_protocol::network::{ErrorReason, ResourceType};
use chromiumoxide::cdp::browser_protocol::target::{CloseTargetParams, CreateTargetParams};
use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
use chromiumoxide::error::CdpError;
use chromiumoxide::handler::HandlerConfig;
use chromiumoxide::Page;
use futures::StreamExt;
use serde::Serialize;
use tokio::sync::{Semaphore, SemaphorePermit};

use super::discover::Discovery;
use super::ExportError;
use crate::config::BrowserConfig;

/// Origin of the documents a render loads. `.invalid` can never resolve, and the request
/// never reaches a resolver anyway: it is fulfilled from memory.
pub const DOCUMENT_ORIGIN: &str = "https://previewd.invalid";

/// The policy sent with every rendered document. The image page needs nothing but inline
/// styles; `data:` stays allowed for images and fonts a page may embed.
pub const DOCUMENT_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; \
     font-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The flags Chromium is started with: the contract's seven and `--disable-quic` first; the
/// rest keep a headless browser quiet, deterministic and inside its lock.
pub const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",
    // No name resolution at all: a request that slipped past interception (a preconnect, a
    // prefetch) still reaches nothing.
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--disable-extensions",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--disable-breakpad",
    "--disable-dev-shm-usage",
    "--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication,\
     site-per-process,IsolateOrigins,IsolateSandboxedIframes",
    "--disable-site-isolation-trials",
    "--no-default-browser-check",
    "--no-pings",
    "--password-store=basic",
    "--use-mock-keychain",
    "--metrics-recording-only",
    "--force-color-profile=srgb",
    "--hide-scrollbars",
    "--mute-audio",
];

/// How long a graceful `Browser.close` may take before the process group is killed.
const GRACEFUL_CLOSE: Duration = Duration::from_secs(2);

/// Lines of browser stderr kept for the log when a launch fails.
const STDERR_TAIL_LINES: usize = 20;

/// Where the browser is, as `/healthz` reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum BrowserState {
    /// No browser runs: none was needed yet, or it was closed after being idle.
    NotStarted,
    /// A browser runs and takes renders.
    Ready,
    /// The last launch failed, or the browser exited or disconnected; the next render
    /// tries again.
    Failed {
        /// Why, without host paths.
        reason: String,
    },
}

/// Counters of the export, as `/healthz` and metrics report them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportStats {
    /// Renders that produced a file.
    pub renders: u64,
    /// Renders that failed (size limits, timeouts, browser failures; not 429s).
    pub failures: u64,
    /// Renders refused because the queue was full.
    pub rejected: u64,
    /// Browsers started.
    pub launches: u64,
    /// Browsers replaced because they exited, disconnected or reached their render budget.
    pub restarts: u64,
    /// Renders waiting for a tab right now.
    pub queue_length: usize,
    /// Renders running right now.
    pub active_renders: usize,
    /// Requests the network lock refused.
    pub blocked_requests: u64,
}

/// The limits and knobs of the pool, resolved from [`BrowserConfig`].
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    pub executable_path: Option<PathBuf>,
    pub max_concurrent: usize,
    pub queue: usize,
    pub render_timeout: Duration,
    pub launch_timeout: Duration,
    pub idle_close: Option<Duration>,
    pub restart_after: Option<u64>,
}

impl From<&BrowserConfig> for Settings {
    fn from(c: &BrowserConfig) -> Self {
        Settings {
            executable_path: c.executable_path.clone(),
            max_concurrent: c.max_concurrent_renders.max(1),
            queue: c.queue,
            render_timeout: Duration::from_millis(c.render_timeout_ms.max(1)),
            launch_timeout: Duration::from_millis(c.launch_timeout_ms.max(1)),
            idle_close: (c.idle_close_seconds > 0)
                .then(|| Duration::from_secs(c.idle_close_seconds)),
            restart_after: (c.restart_after_renders > 0).then_some(c.restart_after_renders),
        }
    }
}

/// State and counters shared with background tasks; never needs the browser to answer.
#[derive(Debug, Default)]
pub(crate) struct Shared {
    state: Mutex<Option<BrowserState>>,
    pub renders: AtomicU64,
    pub failures: AtomicU64,
    pub rejected: AtomicU64,
    launches: AtomicU64,
    restarts: AtomicU64,
    blocked: AtomicU64,
    in_system: AtomicUsize,
    active: AtomicUsize,
    /// Id of the instance currently serving, so a stale instance's exit does not mark a
    /// fresh one failed.
    current_instance: AtomicU64,
    current_pid: AtomicU32,
    /// Test hook: a document containing this marker is never answered (a hung render).
    stall_marker: Mutex<Option<String>>,
}

impl Shared {
    fn set_state(&self, state: BrowserState) {
        *self.state.lock().unwrap_or_else(|e| e.into_inner()) = Some(state);
    }

    pub fn state(&self) -> BrowserState {
        self.state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .unwrap_or(BrowserState::NotStarted)
    }

    pub fn stats(&self) -> ExportStats {
        let in_system = self.in_system.load(Ordering::SeqCst);
        let active = self.active.load(Ordering::SeqCst);
        ExportStats {
            renders: self.renders.load(Ordering::Relaxed),
            failures: self.failures.load(Ordering::Relaxed),
            rejected: self.rejected.load(Ordering::Relaxed),
            launches: self.launches.load(Ordering::Relaxed),
            restarts: self.restarts.load(Ordering::Relaxed),
            queue_length: in_system.saturating_sub(active),
            active_renders: active,
            blocked_requests: self.blocked.load(Ordering::Relaxed),
        }
    }

    pub fn set_stall_marker(&self, marker: Option<String>) {
        *self.stall_marker.lock().unwrap_or_else(|e| e.into_inner()) = marker;
    }

    fn stalls(&self, html: &str) -> bool {
        self.stall_marker
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_deref()
            .is_some_and(|m| html.contains(m))
    }

    pub fn pid(&self) -> Option<u32> {
        match self.current_pid.load(Ordering::SeqCst) {
            0 => None,
            pid => Some(pid),
        }
    }
}

/// The bounded, lazily started browser pool behind an `Exporter`.
pub(crate) struct Pool {
    settings: Settings,
    pub shared: Arc<Shared>,
    permits: Semaphore,
    current: tokio::sync::Mutex<Option<Arc<Instance>>>,
    last_used: Mutex<Instant>,
    next_instance: AtomicU64,
    next_document: AtomicU64,
    me: Weak<Pool>,
}

impl Pool {
    pub fn new(settings: Settings) -> Arc<Pool> {
        Arc::new_cyclic(|me| Pool {
            permits: Semaphore::new(settings.max_concurrent),
            settings,
            shared: Arc::new(Shared::default()),
            current: tokio::sync::Mutex::new(None),
            last_used: Mutex::new(Instant::now()),
            next_instance: AtomicU64::new(1),
            next_document: AtomicU64::new(1),
            me: me.clone(),
        })
    }

    pub fn render_timeout(&self) -> Duration {
        self.settings.render_timeout
    }

    fn touch(&self) {
        *self.last_used.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    /// Waits for a tab of a live browser, starting or replacing the browser as needed.
    /// Refuses at once when the queue is full. The caller bounds the wait with its deadline.
    pub async fn acquire(&self) -> Result<Lease<'_>, ExportError> {
        let limit = self.settings.max_concurrent + self.settings.queue;
        let seat = Seat::take(&self.shared, limit).ok_or_else(|| {
            self.shared.rejected.fetch_add(1, Ordering::Relaxed);
            ExportError::Busy
        })?;
        let permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| ExportError::Browser("the export pool is closed".into()))?;
        let active = Active::start(&self.shared);
        self.touch();
        let instance = self.instance().await?;
        let tab = match instance.take_idle_tab() {
            Some(tab) => tab,
            None => Tab::open(&instance, &self.shared).await?,
        };
        Ok(Lease {
            pool: self,
            instance,
            tab: Some(tab),
            _active: active,
            _permit: permit,
            _seat: seat,
        })
    }

    /// The serving instance, launched (or replaced) under the lock so concurrent renders
    /// share one launch.
    async fn instance(&self) -> Result<Arc<Instance>, ExportError> {
        let mut current = self.current.lock().await;
        if let Some(instance) = current.as_ref() {
            if instance.usable() {
                return Ok(instance.clone());
            }
            // Exited, disconnected or retired: renders still holding it finish or fail on
            // their own; it dies with its last reference.
            self.shared.restarts.fetch_add(1, Ordering::Relaxed);
            if let Some(old) = current.take() {
                old.closing.store(true, Ordering::SeqCst);
            }
        }
        let id = self.next_instance.fetch_add(1, Ordering::Relaxed);
        match Instance::launch(id, &self.settings, &self.shared).await {
            Ok(instance) => {
                self.shared.launches.fetch_add(1, Ordering::Relaxed);
                self.shared.current_instance.store(id, Ordering::SeqCst);
                self.shared
                    .current_pid
                    .store(instance.pid, Ordering::SeqCst);
                self.shared.set_state(BrowserState::Ready);
                *current = Some(instance.clone());
                if let Some(idle) = self.settings.idle_close {
                    tokio::spawn(idle_watch(self.me.clone(), id, idle));
                }
                Ok(instance)
            }
            Err(e) => {
                self.shared.current_pid.store(0, Ordering::SeqCst);
                self.shared
                    .set_state(BrowserState::Failed { reason: e.reason() });
                Err(e)
            }
        }
    }

    /// A fresh document URL for one render.
    fn document_url(&self) -> String {
        let n = self.next_document.fetch_add(1, Ordering::Relaxed);
        format!("{DOCUMENT_ORIGIN}/render/{n}")
    }

    /// Closes the browser now (it starts again on the next render).
    pub async fn close(&self) {
        let instance = self.current.lock().await.take();
        if let Some(instance) = instance {
            self.shared.current_pid.store(0, Ordering::SeqCst);
            self.shared.set_state(BrowserState::NotStarted);
            instance.close().await;
        }
    }
}

/// Closes the browser once no render has used it for `idle`.
async fn idle_watch(pool: Weak<Pool>, instance_id: u64, idle: Duration) {
    loop {
        let due = {
            let Some(pool) = pool.upgrade() else { return };
            let last = *pool.last_used.lock().unwrap_or_else(|e| e.into_inner());
            last + idle
        };
        tokio::time::sleep_until(due.into()).await;
        let Some(pool) = pool.upgrade() else { return };
        let mut current = pool.current.lock().await;
        match current.as_ref() {
            Some(instance) if instance.id == instance_id => {}
            // Replaced or closed meanwhile; the replacement has its own watcher.
            _ => return,
        }
        let last = *pool.last_used.lock().unwrap_or_else(|e| e.into_inner());
        if pool.shared.active.load(Ordering::SeqCst) > 0 || last.elapsed() < idle {
            continue;
        }
        let instance = current.take();
        pool.shared.current_pid.store(0, Ordering::SeqCst);
        pool.shared.set_state(BrowserState::NotStarted);
        drop(current);
        if let Some(instance) = instance {
            tracing::debug!(pid = instance.pid, "closing the idle export browser");
            instance.close().await;
        }
        return;
    }
}

/// A place in the system (running or queued); refused when the system is full.
struct Seat<'a>(&'a Shared);

impl<'a> Seat<'a> {
    fn take(shared: &'a Shared, limit: usize) -> Option<Seat<'a>> {
        shared
            .in_system
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < limit).then_some(n + 1)
            })
            .ok()
            .map(|_| Seat(shared))
    }
}

impl Drop for Seat<'_> {
    fn drop(&mut self) {
        self.0.in_system.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Marks a render as running (not queued) for the counters and the idle watcher.
struct Active<'a>(&'a Shared);

impl<'a> Active<'a> {
    fn start(shared: &'a Shared) -> Active<'a> {
        shared.active.fetch_add(1, Ordering::SeqCst);
        Active(shared)
    }
}

impl Drop for Active<'_> {
    fn drop(&mut self) {
        self.0.active.fetch_sub(1, Ordering::SeqCst);
    }
}

/// One render's tab on one browser. Dropping it without [`Lease::finish`] (an error, the
/// deadline) closes the tab; the browser stays.
pub(crate) struct Lease<'a> {
    pool: &'a Pool,
    instance: Arc<Instance>,
    tab: Option<Tab>,
    // Field order is drop order: the render stops counting as active before its permit
    // frees a place for the next one.
    _active: Active<'a>,
    _permit: SemaphorePermit<'a>,
    _seat: Seat<'a>,
}

impl Lease<'_> {
    pub fn page(&self) -> &Page {
        &self
            .tab
            .as_ref()
            .expect("a lease holds its tab until finished")
            .page
    }

    /// Loads `html` as the tab's document, through the network lock, and waits for its
    /// `load` event (every subresource settled, which here means refused).
    pub async fn load(&self, html: String) -> Result<(), ExportError> {
        let tab = self
            .tab
            .as_ref()
            .expect("a lease holds its tab until finished");
        let url = self.pool.document_url();
        *tab.document.lock().unwrap_or_else(|e| e.into_inner()) = Some(Document {
            url: url.clone(),
            html,
        });
        let result = tab.page.goto(url).await;
        tab.document
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        result.map_err(|e| self.browser_error("load the page", e))?;
        Ok(())
    }

    /// Sets the viewport (CSS px) and device scale factor for what follows.
    pub async fn set_viewport(
        &self,
        width: u32,
        height: u32,
        scale: f64,
    ) -> Result<(), ExportError> {
        let params = SetDeviceMetricsOverrideParams::builder()
            .width(i64::from(width))
            .height(i64::from(height))
            .device_scale_factor(scale)
            .mobile(false)
            .build()
            .map_err(ExportError::Browser)?;
        self.page()
            .execute(params)
            .await
            .map_err(|e| self.browser_error("set the viewport", e))?;
        Ok(())
    }

    /// Evaluates `expression` (awaiting a promise) and returns its JSON value. Works with
    /// page scripts disabled: DevTools evaluation is not page script.
    pub async fn eval(&self, expression: &str) -> Result<serde_json::Value, ExportError> {
        let params = EvaluateParams::builder()
            .expression(expression)
            .await_promise(true)
            .return_by_value(true)
            .build()
            .map_err(ExportError::Browser)?;
        let result = self
            .page()
            .evaluate_expression(params)
            .await
            .map_err(|e| self.browser_error("measure the page", e))?;
        Ok(result.into_value().unwrap_or(serde_json::Value::Null))
    }

    /// Whether the browser under this lease still runs and is connected.
    pub fn browser_alive(&self) -> bool {
        self.instance.alive.load(Ordering::SeqCst)
            && self
                .instance
                .process
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .running()
    }

    /// A CDP failure, worded for the log; marks the browser for replacement when the
    /// failure means it is gone.
    pub fn browser_error(&self, doing: &str, e: CdpError) -> ExportError {
        if !self.instance.usable() || matches!(e, CdpError::Ws(_) | CdpError::ChannelSendError(_)) {
            self.instance.alive.store(false, Ordering::SeqCst);
        }
        tracing::warn!(error = %e, "export browser failed to {doing}");
        ExportError::Browser(format!("the browser failed to {doing}"))
    }

    /// The render succeeded: the tab goes back for the next render, and the browser is
    /// retired once it has served its budget.
    pub fn finish(mut self) {
        self.pool.shared.renders.fetch_add(1, Ordering::Relaxed);
        self.pool.touch();
        let served = self.instance.renders.fetch_add(1, Ordering::Relaxed) + 1;
        if self
            .pool
            .settings
            .restart_after
            .is_some_and(|limit| served >= limit)
        {
            self.instance.retired.store(true, Ordering::SeqCst);
        }
        if let Some(tab) = self.tab.take() {
            self.instance.return_tab(tab);
        }
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        self.pool.touch();
        // A tab still here was not finished: its page may be hung or half-loaded.
        if let Some(tab) = self.tab.take() {
            tab.close_in_background();
        }
    }
}

/// The document a tab's interceptor may answer once.
struct Document {
    url: String,
    html: String,
}

/// A tab with its network lock.
pub(crate) struct Tab {
    page: Page,
    document: Arc<Mutex<Option<Document>>>,
    interceptor: tokio::task::JoinHandle<()>,
    instance: Weak<Instance>,
}

impl Tab {
    async fn open(instance: &Arc<Instance>, shared: &Arc<Shared>) -> Result<Tab, ExportError> {
        let fail = |doing: &str, e: CdpError| {
            tracing::warn!(error = %e, "export browser failed to {doing}");
            ExportError::Browser(format!("the browser failed to {doing}"))
        };
        let page = instance
            .browser
            .new_page(CreateTargetParams::new("about:blank"))
            .await
            .map_err(|e| fail("open a tab", e))?;
        // The listener exists before interception is on, so no paused request is missed.
        let mut paused = page
            .event_listener::<EventRequestPaused>()
            .await
            .map_err(|e| fail("listen for requests", e))?;
        page.execute(
            FetchEnableParams::builder()
                .pattern(
                    RequestPattern::builder()
                        .url_pattern("*")
                        .request_stage(RequestStage::Request)
                        .build(),
                )
                .handle_auth_requests(false)
                .build(),
        )
        .await
        .map_err(|e| fail("enable request interception", e))?;
        page.execute(SetScriptExecutionDisabledParams::new(true))
            .await
            .map_err(|e| fail("disable scripts", e))?;
        // Screen media even when printing, so the PDF looks like the viewer.
        page.execute(SetEmulatedMediaParams::builder().media("screen").build())
            .await
            .map_err(|e| fail("set the media type", e))?;

        let document: Arc<Mutex<Option<Document>>> = Arc::default();
        let interceptor = {
            let page = page.clone();
            let document = document.clone();
            let shared = shared.clone();
            tokio::spawn(async move {
                while let Some(event) = paused.next().await {
                    intercept(&page, &document, &shared, &event).await;
                }
            })
        };
        Ok(Tab {
            page,
            document,
            interceptor,
            instance: Arc::downgrade(instance),
        })
    }

    /// Closes the target from the browser side (works even when the page's renderer
    /// hangs) without making the caller wait.
    fn close_in_background(self) {
        self.interceptor.abort();
        let Some(instance) = self.instance.upgrade() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let target = self.page.target_id().clone();
        runtime.spawn(async move {
            let close = instance.browser.execute(CloseTargetParams::new(target));
            if tokio::time::timeout(GRACEFUL_CLOSE, close).await.is_err() {
                tracing::warn!("closing an export tab timed out");
            }
        });
    }
}

impl Drop for Tab {
    fn drop(&mut self) {
        self.interceptor.abort();
    }
}

/// The network lock's decision for one paused request: the render's own document is
/// fulfilled from memory once; everything else is refused.
async fn intercept(
    page: &Page,
    document: &Mutex<Option<Document>>,
    shared: &Shared,
    event: &EventRequestPaused,
) {
    let own = if event.resource_type == ResourceType::Document {
        let mut slot = document.lock().unwrap_or_else(|e| e.into_inner());
        match slot.as_ref() {
            Some(doc) if doc.url == event.request.url => slot.take(),
            _ => None,
        }
    } else {
        None
    };
    let Some(doc) = own else {
        shared.blocked.fetch_add(1, Ordering::Relaxed);
        tracing::debug!(url = %event.request.url, "export network lock refused a request");
        let fail = FailRequestParams::new(event.request_id.clone(), ErrorReason::BlockedByClient);
        if let Err(e) = page.execute(fail).await {
            tracing::debug!(error = %e, "failing a paused request");
        }
        return;
    };
    if shared.stalls(&doc.html) {
        // Test hook: leave the request paused forever, as a hung page would be.
        return;
    }
    let body = base64::engine::general_purpose::STANDARD.encode(doc.html.as_bytes());
    let fulfill = FulfillRequestParams::builder()
        .request_id(event.request_id.clone())
        .response_code(200)
        .response_headers([
            HeaderEntry::new("Content-Type", "text/html; charset=utf-8"),
            HeaderEntry::new("Content-Security-Policy", DOCUMENT_CSP),
            HeaderEntry::new("Cache-Control", "no-store"),
        ])
        .body(body)
        .build();
    match fulfill {
        Ok(params) => {
            if let Err(e) = page.execute(params).await {
                tracing::warn!(error = %e, "fulfilling the render document");
            }
        }
        Err(e) => tracing::warn!(error = %e, "building the document response"),
    }
}

/// One running browser: its process group, profile, CDP connection and idle tabs.
pub(crate) struct Instance {
    id: u64,
    pid: u32,
    browser: Browser,
    process: Mutex<ProcessGroup>,
    alive: Arc<AtomicBool>,
    closing: Arc<AtomicBool>,
    retired: AtomicBool,
    renders: AtomicU64,
    idle_tabs: Mutex<Vec<Tab>>,
    handler: tokio::task::JoinHandle<()>,
    // Last: removed after the process group is dead (fields drop after `Drop::drop`).
    _profile: tempfile::TempDir,
}

impl Instance {
    async fn launch(
        id: u64,
        settings: &Settings,
        shared: &Arc<Shared>,
    ) -> Result<Arc<Instance>, ExportError> {
        let found = Discovery::from_process(settings.executable_path.as_deref())
            .find()
            .map_err(|e| ExportError::NoBrowser(e.to_string()))?;
        tracing::info!(path = %found.path.display(), source = ?found.source, "starting the export browser");
        let profile = tempfile::Builder::new()
            .prefix("previewd-chromium-")
            .tempdir()
            .map_err(|e| {
                tracing::warn!(error = %e, "creating a browser profile folder");
                ExportError::Browser("could not create a private browser profile".into())
            })?;
        let (process, endpoint) = spawn_browser(found.path.clone(), profile.path()).await?;
        let pid = process.pid;
        let url = match tokio::time::timeout(settings.launch_timeout, endpoint).await {
            Ok(Ok(Ok(url))) => url,
            Ok(Ok(Err(tail))) => {
                tracing::warn!(stderr = %tail.join("\n"), "the export browser exited before it was ready");
                return Err(ExportError::NoBrowser(
                    "The browser exited before it was ready.".into(),
                ));
            }
            Ok(Err(_)) => {
                return Err(ExportError::NoBrowser(
                    "The browser closed its output before it was ready.".into(),
                ));
            }
            Err(_) => {
                tracing::warn!(stderr = %process.stderr_tail(), "the export browser did not start in time");
                return Err(ExportError::NoBrowser(format!(
                    "The browser did not start within {} ms.",
                    settings.launch_timeout.as_millis()
                )));
            }
        };
        let config = HandlerConfig {
            viewport: None,
            request_intercept: false,
            cache_enabled: false,
            request_timeout: settings.render_timeout,
            ..HandlerConfig::default()
        };
        let (browser, mut handler) =
            Browser::connect_with_config(url, config)
                .await
                .map_err(|e| {
                    tracing::warn!(error = %e, "connecting to the export browser");
                    ExportError::NoBrowser(
                        "Could not connect to the browser's DevTools endpoint.".into(),
                    )
                })?;
        let alive = Arc::new(AtomicBool::new(true));
        let closing = Arc::new(AtomicBool::new(false));
        let handler = {
            let alive = alive.clone();
            let closing = closing.clone();
            let shared = shared.clone();
            tokio::spawn(async move {
                loop {
                    match handler.next().await {
                        Some(Ok(())) => {}
                        Some(Err(CdpError::Ws(e))) => {
                            tracing::debug!(error = %e, "export browser connection ended");
                            break;
                        }
                        Some(Err(e)) => tracing::debug!(error = %e, "export browser handler"),
                        None => break,
                    }
                }
                alive.store(false, Ordering::SeqCst);
                if !closing.load(Ordering::SeqCst)
                    && shared.current_instance.load(Ordering::SeqCst) == id
                {
                    tracing::warn!(pid, "the export browser exited or disconnected");
                    shared.set_state(BrowserState::Failed {
                        reason:
                            "The browser exited or disconnected; the next render starts a new one."
                                .into(),
                    });
                }
            })
        };
        Ok(Arc::new(Instance {
            id,
            pid,
            browser,
            process: Mutex::new(process),
            alive,
            closing,
            retired: AtomicBool::new(false),
            renders: AtomicU64::new(0),
            idle_tabs: Mutex::new(Vec::new()),
            handler,
            _profile: profile,
        }))
    }

    /// Still connected, still running and not retired.
    fn usable(&self) -> bool {
        self.alive.load(Ordering::SeqCst)
            && !self.retired.load(Ordering::SeqCst)
            && self
                .process
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .running()
    }

    fn take_idle_tab(&self) -> Option<Tab> {
        self.idle_tabs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
    }

    fn return_tab(&self, tab: Tab) {
        if self.usable() {
            self.idle_tabs
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(tab);
        }
    }

    /// Asks the browser to quit, briefly; the drop that follows kills what is left.
    async fn close(self: Arc<Self>) {
        self.closing.store(true, Ordering::SeqCst);
        let _ = tokio::time::timeout(GRACEFUL_CLOSE, self.browser.execute(CloseParams::default()))
            .await;
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.closing.store(true, Ordering::SeqCst);
        self.handler.abort();
        // Tabs hold tasks that talk to this browser; stop them before it goes.
        self.idle_tabs
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        // `process` is killed by its own drop, before `_profile` is removed.
    }
}

/// A browser process started in its own process group; killing the group on drop takes
/// every helper process with it.
pub(crate) struct ProcessGroup {
    child: Child,
    pid: u32,
    exited: bool,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
}

impl ProcessGroup {
    fn stderr_tail(&self) -> String {
        let tail = self.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
        tail.iter().cloned().collect::<Vec<_>>().join("\n")
    }

    fn running(&mut self) -> bool {
        if !self.exited {
            self.exited = !matches!(self.child.try_wait(), Ok(None));
        }
        !self.exited
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        #[cfg(unix)]
        {
            // The group id is the leader's pid, which cannot be reused while the group has
            // members, so this reaches only processes of this browser.
            let pgid = self.pid as libc::pid_t;
            // SAFETY: kill(2) with a negative pid signals a process group; no memory is
            // involved.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

type Job = Box<dyn FnOnce() + Send>;

/// The one thread that starts browsers; see the module docs for why it must live forever.
fn launcher() -> &'static Mutex<mpsc::Sender<Job>> {
    static LAUNCHER: OnceLock<Mutex<mpsc::Sender<Job>>> = OnceLock::new();
    LAUNCHER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("previewd-browser-launcher".into())
            .spawn(move || {
                for job in rx {
                    job();
                }
            })
            .expect("spawn the browser launcher thread");
        Mutex::new(tx)
    })
}

/// The DevTools address, or the stderr tail when the browser ended first.
type Endpoint = tokio::sync::oneshot::Receiver<Result<String, Vec<String>>>;

/// Starts the browser on the launcher thread and returns its process group and a receiver
/// for its DevTools address.
async fn spawn_browser(
    exe: PathBuf,
    profile: &Path,
) -> Result<(ProcessGroup, Endpoint), ExportError> {
    let profile = profile.to_path_buf();
    let (tx, rx) = tokio::sync::oneshot::channel();
    let job: Job = Box::new(move || {
        let _ = tx.send(spawn_on_this_thread(&exe, &profile));
    });
    launcher()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send(job)
        .map_err(|_| ExportError::Browser("the browser launcher thread is gone".into()))?;
    let mut child = rx
        .await
        .map_err(|_| ExportError::Browser("the browser launcher thread is gone".into()))?
        .map_err(|e| {
            tracing::warn!(error = %e, "starting the export browser");
            ExportError::NoBrowser("The browser executable could not be started.".into())
        })?;
    let pid = child.id();
    let stderr = child.stderr.take();
    let tail: Arc<Mutex<VecDeque<String>>> = Arc::default();
    let (endpoint_tx, endpoint_rx) = tokio::sync::oneshot::channel();
    if let Some(stderr) = stderr {
        let tail = tail.clone();
        std::thread::Builder::new()
            .name("previewd-browser-stderr".into())
            .spawn(move || drain_stderr(stderr, endpoint_tx, &tail))
            .map_err(|_| ExportError::Browser("could not start a thread".into()))?;
    }
    Ok((
        ProcessGroup {
            child,
            pid,
            exited: false,
            stderr_tail: tail,
        },
        endpoint_rx,
    ))
}

fn spawn_on_this_thread(exe: &Path, profile: &Path) -> std::io::Result<Child> {
    // Chromium makes an `org.chromium.Chromium.*` folder in the temp directory on every
    // launch and leaves it behind; pointed at a folder inside the profile, it goes away
    // with the profile.
    let tmp = profile.join("tmp");
    std::fs::create_dir_all(&tmp)?;
    let mut cmd = Command::new(exe);
    cmd.args(CHROMIUM_FLAGS)
        .env("TMPDIR", &tmp)
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: getpid is async-signal-safe and called before the fork.
        let parent = unsafe { libc::getpid() };
        // SAFETY: the closure runs between fork and exec and calls only async-signal-safe
        // functions (prctl, getppid); it allocates nothing.
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The parent may have died before the signal was armed.
                if libc::getppid() != parent {
                    return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
    }
    cmd.spawn()
}

/// Reads the browser's stderr until it closes: the DevTools address goes to `endpoint`, the
/// last lines stay in `tail` for the log.
fn drain_stderr(
    stderr: std::process::ChildStderr,
    endpoint: tokio::sync::oneshot::Sender<Result<String, Vec<String>>>,
    tail: &Mutex<VecDeque<String>>,
) {
    const MARKER: &str = "DevTools listening on ";
    let mut endpoint = Some(endpoint);
    let mut reader = BufReader::new(stderr);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
        if let Some(at) = line.find(MARKER) {
            if let Some(tx) = endpoint.take() {
                let _ = tx.send(Ok(line[at + MARKER.len()..].trim().to_string()));
                continue;
            }
        }
        let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
        if tail.len() == STDERR_TAIL_LINES {
            tail.pop_front();
        }
        tail.push_back(line);
    }
    if let Some(tx) = endpoint.take() {
        let lines = tail
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned()
            .collect();
        let _ = tx.send(Err(lines));
    }
}
