//! The grid viewer of a workbook or CSV snapshot: its page, its script and styles, the
//! sheet geometry (`meta.json`), blocks of rows, and search. Blocks are made from the
//! snapshot's model on the work pool and cached in the snapshot (charged to the store).

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;

use super::extract::{Path, Query};
use axum::response::Response;

use super::response::with_type;
use super::AppState;
use crate::error::Error;
use crate::markup::{escape, fill};
use crate::office::xlsx::grid::{self, BLOCK_ROWS};
use crate::office::xlsx::model::Workbook;
use crate::preview::office::OfficeModel;
use crate::preview::Snapshot;

/// The grid page's policy: its own script and styles, fetches to this origin only.
pub const GRID_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'; frame-ancestors 'self'";

const PAGE: &str = include_str!("../../viewers/sheet/grid.html");
const SCRIPT: &str = include_str!("../../viewers/sheet/sheet.js");
const STYLE: &str = include_str!("../../viewers/sheet/sheet.css");

/// Most search hits returned at once.
const MAX_HITS: usize = 500;

fn workbook(snapshot: &Snapshot) -> Result<Arc<Workbook>, Error> {
    match &snapshot.office {
        Some(OfficeModel::Sheet(book)) => Ok(book.clone()),
        _ => Err(Error::not_found("this file has no sheet view")),
    }
}

/// `GET /p/{id}/{token}/grid/`: the viewer page.
pub async fn page(
    State(state): State<Arc<AppState>>,
    Path((id, token)): Path<(String, String)>,
) -> Result<Response, Error> {
    let snapshot = state.snapshots.get(&id, &token)?;
    workbook(&snapshot)?;
    let body = fill(PAGE, &[("name", &escape(snapshot.read.file_name()))]);
    Ok(with_type(body, "text/html; charset=utf-8", Some(GRID_CSP)))
}

/// `GET /p/{id}/{token}/grid/{file}`: `sheet.js`, `sheet.css` or `meta.json`.
pub async fn file(
    State(state): State<Arc<AppState>>,
    Path((id, token, file)): Path<(String, String, String)>,
) -> Result<Response, Error> {
    let snapshot = state.snapshots.get(&id, &token)?;
    let book = workbook(&snapshot)?;
    match file.as_str() {
        "sheet.js" => Ok(with_type(
            SCRIPT,
            "text/javascript; charset=utf-8",
            Some("default-src 'none'"),
        )),
        "sheet.css" => Ok(with_type(
            Bytes::from(format!("{}\n{STYLE}", grid::TABLE_CSS)),
            "text/css; charset=utf-8",
            Some("default-src 'none'"),
        )),
        "meta.json" => {
            let cached = snapshot.clone();
            let body = state
                .pool
                .run(move || {
                    Ok(cached.rendered.sheet_block((usize::MAX, 0), || {
                        Some(Bytes::from(grid::meta_json(&book)))
                    }))
                })
                .await?
                .unwrap_or_default();
            state.snapshots.recharge(&snapshot);
            Ok(with_type(
                state.inflight.body(body)?,
                "application/json",
                None,
            ))
        }
        _ => Err(Error::not_found("no such grid file")),
    }
}

/// `GET /p/{id}/{token}/grid/rows/{sheet}/{block}`: rows `block × 200 ..` of a sheet.
pub async fn rows(
    State(state): State<Arc<AppState>>,
    Path((id, token, sheet, block)): Path<(String, String, usize, u32)>,
) -> Result<Response, Error> {
    let snapshot = state.snapshots.get(&id, &token)?;
    let book = workbook(&snapshot)?;
    if sheet >= book.sheets.len() || block > (1 << 20) / BLOCK_ROWS {
        return Err(Error::not_found("no such block"));
    }
    let cached = snapshot.clone();
    let body = state
        .pool
        .run(move || {
            Ok(cached.rendered.sheet_block((sheet, block), || {
                grid::rows_json(&book, sheet, block * BLOCK_ROWS, BLOCK_ROWS).map(Bytes::from)
            }))
        })
        .await?
        .ok_or_else(|| Error::not_found("no such block"))?;
    state.snapshots.recharge(&snapshot);
    Ok(with_type(
        state.inflight.body(body)?,
        "application/json",
        None,
    ))
}

/// `GET /p/{id}/{token}/grid/find/{sheet}?q=…`: the first cells whose shown text holds
/// the query, `[[row, col]…]`.
pub async fn find(
    State(state): State<Arc<AppState>>,
    Path((id, token, sheet)): Path<(String, String, usize)>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, Error> {
    let snapshot = state.snapshots.get(&id, &token)?;
    let book = workbook(&snapshot)?;
    let q: String = query
        .get("q")
        .map_or("", String::as_str)
        .chars()
        .take(256)
        .collect();
    let hits = state
        .pool
        .run(move || Ok(grid::search(&book, sheet, &q, MAX_HITS)))
        .await?;
    let body = serde_json::to_vec(&hits).map_err(|_| Error::Internal)?;
    Ok(with_type(body, "application/json", None))
}
