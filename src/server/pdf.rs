//! The routes of the PDF viewer: a page's raster (`page/{n}?scale=`) and its text layer
//! (`text/{n}`). Both are made on the blocking pool on first request, cached in the
//! snapshot (and charged to the store) per page and scale, and served like media parts.
//! A raster past `pdf.page_timeout_ms` is answered with the "could not render this page
//! in time" tile (not cached: if the late render finishes, later requests get the page).

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;

use super::extract::{Path, Query};
use axum::http::{HeaderName, HeaderValue};
use axum::response::Response;
use serde::Deserialize;

use super::response::with_type;
use super::AppState;
use crate::error::Error;
use crate::pdf::PdfDocument;
use crate::preview::office::{pdf_error, OfficeModel};
use crate::preview::Snapshot;

const PNG_CSP: &str = "sandbox; default-src 'none'; style-src 'unsafe-inline'";

/// The query of a page request.
#[derive(Debug, Deserialize)]
pub struct PageQuery {
    /// Pixels per point (device pixel ratio included); 1.5 when absent.
    scale: Option<f32>,
}

/// Scales are rounded up to eighths, so nearby zoom levels share cached rasters.
fn quantize(scale: Option<f32>) -> f32 {
    let s = scale
        .filter(|s| s.is_finite())
        .unwrap_or(1.5)
        .clamp(0.25, 8.0);
    (s * 8.0).ceil() / 8.0
}

fn document(
    state: &AppState,
    id: &str,
    token: &str,
    page: &str,
) -> Result<(Arc<Snapshot>, Arc<PdfDocument>, usize), Error> {
    let snapshot = state.snapshots.get(id, token)?;
    let Some(OfficeModel::Pdf(doc)) = &snapshot.office else {
        return Err(Error::not_found("this file has no pages"));
    };
    let doc = doc.clone();
    let n: usize = page
        .parse()
        .ok()
        .filter(|n| (1..=doc.page_count()).contains(n))
        .ok_or_else(|| Error::not_found("no such page"))?;
    Ok((snapshot, doc, n))
}

/// `/p/{id}/{token}/page/{n}`: page `n` (1-based) as PNG.
pub async fn page(
    State(state): State<Arc<AppState>>,
    Path((id, token, n)): Path<(String, String, String)>,
    Query(query): Query<PageQuery>,
) -> Result<Response, Error> {
    let (snapshot, doc, n) = document(&state, &id, &token, &n)?;
    let scale = quantize(query.scale);
    let key = format!("pdf/page/{n}@{scale}");
    if let Some(bytes) = snapshot.rendered.media(&key) {
        return png(&state, bytes, None);
    }
    // A raster stops at the first object it looks up past its deadline
    // (`pdf::interrupt`), but one long content stream of paths runs to its end. A page
    // that ran past its deadline once is not started again (a finished late render still
    // lands in the cache above), and while late renders hold half the workers no new
    // raster starts: such a page then costs the worker it took, not the service.
    let overdue_cap = (state.pool.stats().workers / 2).max(1);
    if doc.is_slow(n - 1) || state.pdf_overdue.load(Ordering::SeqCst) >= overdue_cap {
        return timeout_tile(&state, doc, n, scale).await;
    }
    let timeout = Duration::from_millis(state.config.pdf.page_timeout_ms.max(1));
    let reader = snapshot.clone();
    let name = key.clone();
    let renderer = doc.clone();
    let status = Arc::new(AtomicU8::new(QUEUED));
    let job_status = status.clone();
    let late = state.clone();
    let job = state.pool.run(move || {
        if job_status
            .compare_exchange(QUEUED, RUNNING, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            // The request gave up while this waited for a worker.
            return Err(Error::Timeout(0));
        }
        // Counted down however the render ends, a panic in the renderer included.
        let _finish = Finish {
            status: job_status,
            state: late,
        };
        match reader.rendered.media(&name) {
            Some(bytes) => Ok(bytes),
            None => renderer
                .render(n - 1, scale)
                .map_err(pdf_error)
                .map(|raster| reader.rendered.keep_media(&name, Bytes::from(raster.png))),
        }
    });
    match tokio::time::timeout(timeout, job).await {
        Ok(Ok(bytes)) => {
            state.snapshots.recharge(&snapshot);
            png(&state, bytes, None)
        }
        Ok(Err(Error::Timeout(_))) | Err(_) => {
            tracing::warn!(page = n, "a PDF page did not render in time");
            // Counted before the job can see itself given up on, so its count-down never
            // comes first.
            state.pdf_overdue.fetch_add(1, Ordering::SeqCst);
            if status
                .compare_exchange(RUNNING, LATE, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                doc.mark_slow(n - 1);
            } else {
                state.pdf_overdue.fetch_sub(1, Ordering::SeqCst);
                let _ = status.compare_exchange(QUEUED, LATE, Ordering::SeqCst, Ordering::SeqCst);
            }
            timeout_tile(&state, doc, n, scale).await
        }
        Ok(Err(e)) => Err(e),
    }
}

/// Where a page's raster job is: waiting for a worker, running, finished, or given up on
/// by its request.
const QUEUED: u8 = 0;
const RUNNING: u8 = 1;
const DONE: u8 = 2;
const LATE: u8 = 3;

/// Marks a raster job finished; one its request gave up on is taken off the late count.
struct Finish {
    status: Arc<AtomicU8>,
    state: Arc<AppState>,
}

impl Drop for Finish {
    fn drop(&mut self) {
        if self
            .status
            .compare_exchange(RUNNING, DONE, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            self.state.pdf_overdue.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// The "could not render this page in time" tile, never cached.
async fn timeout_tile(
    state: &Arc<AppState>,
    doc: Arc<PdfDocument>,
    n: usize,
    scale: f32,
) -> Result<Response, Error> {
    let tile = tokio::task::spawn_blocking(move || doc.timeout_tile(n - 1, scale))
        .await
        .map_err(|_| Error::Internal)?
        .map_err(pdf_error)?;
    png(state, Bytes::from(tile.png), Some("timeout"))
}

fn png(
    state: &Arc<AppState>,
    bytes: Bytes,
    outcome: Option<&'static str>,
) -> Result<Response, Error> {
    let mut response = with_type(state.inflight.body(bytes)?, "image/png", Some(PNG_CSP));
    if let Some(outcome) = outcome {
        response.headers_mut().insert(
            HeaderName::from_static("x-previewd-page"),
            HeaderValue::from_static(outcome),
        );
        response.headers_mut().insert(
            axum::http::header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        );
    }
    Ok(response)
}

/// `/p/{id}/{token}/text/{n}`: the text runs of page `n` as JSON (`width`, `height` in
/// points as displayed, `runs`, `truncated`).
pub async fn text(
    State(state): State<Arc<AppState>>,
    Path((id, token, n)): Path<(String, String, String)>,
) -> Result<Response, Error> {
    let (snapshot, doc, n) = document(&state, &id, &token, &n)?;
    let key = format!("pdf/text/{n}");
    let bytes = match snapshot.rendered.media(&key) {
        Some(bytes) => bytes,
        None => {
            let reader = snapshot.clone();
            let bytes = state
                .pool
                .run(move || {
                    if let Some(bytes) = reader.rendered.media(&key) {
                        return Ok(bytes);
                    }
                    let text = doc.text(n - 1).map_err(pdf_error)?;
                    let (w, h) = doc.model.pages[n - 1].display_size();
                    let body = serde_json::to_vec(&serde_json::json!({
                        "page": n,
                        "width": w,
                        "height": h,
                        "runs": text.runs,
                        "truncated": text.truncated,
                    }))
                    .map_err(|_| Error::Internal)?;
                    Ok(reader.rendered.keep_media(&key, Bytes::from(body)))
                })
                .await?;
            state.snapshots.recharge(&snapshot);
            bytes
        }
    };
    Ok(with_type(
        state.inflight.body(bytes)?,
        "application/json",
        None,
    ))
}
