//! The charts of a workbook's sheets as SVG images, for the grid viewer's drawing layer:
//! `GET /p/{id}/{token}/grid/chart/{sheet}/{n}` draws drawing `n` of sheet `sheet` (its
//! index in the sheet's `drawings` of `meta.json`) through the shared chart engine, at
//! its anchor's size or at `?w=&h=` pixels (a chart sheet fills the viewer's pane).

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::response::Response;

use super::extract::{Path, Query};
use super::response::with_type;
use super::AppState;
use crate::error::Error;
use crate::office::xlsx::drawing::chart_svg;

/// The policy of a chart image: an SVG of shapes and text only, nothing it may load.
const CHART_CSP: &str = "sandbox; default-src 'none'; style-src 'unsafe-inline'";

/// The smallest and largest side a chart is drawn at, in pixels.
const SIDE: (f64, f64) = (16.0, 4096.0);

/// `GET /p/{id}/{token}/grid/chart/{sheet}/{n}?w=&h=`: the chart as `image/svg+xml`; 404
/// when the snapshot is not a workbook, there is no such chart, or it has nothing to draw
/// (the viewer then keeps its labelled box).
pub async fn chart(
    State(state): State<Arc<AppState>>,
    Path((id, token, sheet, n)): Path<(String, String, usize, usize)>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, Error> {
    let snapshot = state.snapshots.get(&id, &token)?;
    // A workbook read in the background draws the charts of the sheets read so far.
    let book = super::sheet::workbook(&snapshot)
        .map_err(|_| Error::not_found("this file has no charts"))?;
    let drawing = book
        .with(|book| {
            book.sheets
                .get(sheet)
                .and_then(|s| s.drawings.get(n))
                .filter(|d| d.chart.is_some())
                .cloned()
        })
        .ok_or_else(|| Error::not_found("no such chart"))?;
    let bounds = drawing.bounds;
    let size = |key: &str, anchor: f32| {
        query
            .get(key)
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|v| v.is_finite())
            .unwrap_or(f64::from(anchor))
            .clamp(SIDE.0, SIDE.1)
    };
    let (w, h) = (size("w", bounds[2]), size("h", bounds[3]));
    let svg = state
        .pool
        .run(move || Ok(chart_svg(&drawing, w, h, "chart")))
        .await?
        .ok_or_else(|| Error::not_found("this chart has nothing to draw"))?;
    Ok(with_type(
        state.inflight.body(Bytes::from(svg))?,
        "image/svg+xml",
        Some(CHART_CSP),
    ))
}
