//! The grid viewer of a workbook or CSV snapshot: its page, its script and styles, the
//! sheet geometry (`meta.json`), blocks of rows, and search. Blocks are made from the
//! snapshot's model on the work pool and cached in the snapshot (charged to the store). A
//! large table read in the background ([`crate::csv::live`]) is served as far as it is read.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;

use super::extract::{Path, Query};
use axum::response::Response;

use super::response::with_type;
use super::AppState;
use crate::csv::live::LiveTable;
use crate::error::Error;
use crate::markup::{escape, fill};
use crate::office::xlsx::grid::{self, BLOCK_ROWS};
use crate::office::xlsx::model::Workbook;
use crate::preview::office::OfficeModel;
use crate::preview::sheet as sheet_view;
use crate::preview::Snapshot;

/// The grid page's policy: its own script and styles, fetches to this origin only.
pub const GRID_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'; frame-ancestors 'self'";

const PAGE: &str = include_str!("../../viewers/sheet/grid.html");

/// Most search hits returned at once.
const MAX_HITS: usize = 500;

/// A snapshot's workbook: parsed whole, or a table still being read in the background.
pub(super) enum Book {
    Whole(Arc<Workbook>),
    Live(Arc<LiveTable>),
}

impl Book {
    /// Runs `f` on the workbook as it is now (a live table's read lock is held meanwhile).
    pub(super) fn with<T>(&self, f: impl FnOnce(&Workbook) -> T) -> T {
        match self {
            Book::Whole(book) => f(book),
            Book::Live(live) => f(&live.book()),
        }
    }

    /// How far the table is read: whole books are complete.
    fn loading(&self, snapshot: &Snapshot) -> grid::Loading {
        match self {
            Book::Whole(book) => grid::Loading::complete(book, snapshot.sha256()),
            Book::Live(live) => {
                let p = live.progress();
                grid::Loading {
                    complete: p.indexed,
                    rows_known: p.rows,
                    sha256: snapshot.sha256(),
                }
            }
        }
    }
}

pub(super) fn workbook(snapshot: &Snapshot) -> Result<Book, Error> {
    match (&snapshot.office, &snapshot.live) {
        (Some(OfficeModel::Sheet(book)), _) => Ok(Book::Whole(book.clone())),
        (_, Some(live)) => Ok(Book::Live(live.clone())),
        _ => Err(Error::not_found("this file has no sheet view")),
    }
}

/// Longest a row block past the rows read so far waits for them.
const BLOCK_WAIT: Duration = Duration::from_secs(10);

/// `GET /p/{id}/{token}/grid/`: the viewer alone on a page (the shell draws the same
/// viewer in its Sheet panel, [`crate::preview::sheet`]).
pub async fn page(
    State(state): State<Arc<AppState>>,
    Path((id, token)): Path<(String, String)>,
) -> Result<Response, Error> {
    let snapshot = state.snapshots.get(&id, &token)?;
    workbook(&snapshot)?;
    let host = sheet_view::Host::GridPage;
    let body = fill(
        PAGE,
        &[
            ("name", &escape(snapshot.read.file_name())),
            ("preload", &sheet_view::preloads(&snapshot, host)),
            // The service's root from `/p/{id}/{token}/grid/`.
            (
                "head",
                &sheet_view::head(&crate::preview::assets::prefix("../../../../")),
            ),
            ("viewer", &sheet_view::viewer(&snapshot, host)),
        ],
    );
    Ok(with_type(body, "text/html; charset=utf-8", Some(GRID_CSP)))
}

/// `GET /p/{id}/{token}/grid/{file}`: `meta.json` (the page's scripts and stylesheet are
/// static assets, [`crate::preview::assets`]).
pub async fn file(
    State(state): State<Arc<AppState>>,
    Path((id, token, file)): Path<(String, String, String)>,
) -> Result<Response, Error> {
    let snapshot = state.snapshots.get(&id, &token)?;
    let book = workbook(&snapshot)?;
    match file.as_str() {
        "meta.json" => {
            let cached = snapshot.clone();
            let body = state
                .pool
                .run(move || {
                    let loading = book.loading(&cached);
                    let make = || Bytes::from(book.with(|b| grid::meta_json(b, &loading)));
                    // A table still being read says so anew on every request; the meta
                    // is kept once the table and its digest are final.
                    if !loading.complete || loading.sha256.is_none() {
                        return Ok(Some(make()));
                    }
                    Ok(cached
                        .rendered
                        .sheet_block((usize::MAX, 0), || Some(make())))
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

/// `GET /p/{id}/{token}/grid/rows/{sheet}/{block}`: rows `block × 200 ..` of a sheet. A
/// block of a table still being read waits (at most [`BLOCK_WAIT`]) for its rows; one
/// answered before all of them are in says `"partial": true` and is not kept.
pub async fn rows(
    State(state): State<Arc<AppState>>,
    Path((id, token, sheet, block)): Path<(String, String, usize, u32)>,
) -> Result<Response, Error> {
    let snapshot = state.snapshots.get(&id, &token)?;
    let book = workbook(&snapshot)?;
    if sheet >= book.with(|b| b.sheets.len()) || block > (1 << 20) / BLOCK_ROWS {
        return Err(Error::not_found("no such block"));
    }
    let from = block * BLOCK_ROWS;
    // `whole`: every row of the block is in. `keep`: the block is final and cached; a
    // workbook's sheet still being read may gain conditional formats at its end.
    let (whole, keep) = match &book {
        Book::Whole(_) => (true, true),
        Book::Live(live) if live.progress().sheet != sheet => (true, true),
        Book::Live(live) => {
            let p = live.wait_rows(from + BLOCK_ROWS, BLOCK_WAIT).await;
            let whole = p.indexed || p.rows >= from + BLOCK_ROWS;
            (
                whole,
                whole && (p.complete || book.with(|b| b.source == "csv")),
            )
        }
    };
    let cached = snapshot.clone();
    let body = state
        .pool
        .run(move || {
            let make = || book.with(|b| grid::rows_json(b, sheet, from, BLOCK_ROWS, !whole));
            if !keep {
                return Ok(make().map(Bytes::from));
            }
            Ok(cached
                .rendered
                .sheet_block((sheet, block), || make().map(Bytes::from)))
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
/// the query, `[[row, col]…]` (of a table still being read: among the rows read so far).
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
        .run(move || Ok(book.with(|b| grid::search(b, sheet, &q, MAX_HITS))))
        .await?;
    let body = serde_json::to_vec(&hits).map_err(|_| Error::Internal)?;
    Ok(with_type(body, "application/json", None))
}

/// Waits until a table read in the background is read to its end (or stopped), at most
/// [`crate::csv::live::READ_WAIT`]; a `timeout` error past that.
async fn read_whole(live: &LiveTable) -> Result<(), Error> {
    let wait = crate::csv::live::READ_WAIT;
    if live.wait_complete(wait).await.complete {
        Ok(())
    } else {
        Err(Error::Timeout(wait.as_millis() as u64))
    }
}

/// A picture of a workbook read in the background (`media/{part}`): the file's bytes and
/// the sheets' picture list are whole once the load has ended, so the request waits for
/// it (at most [`crate::csv::live::READ_WAIT`]); the bytes are then kept like any media.
pub async fn live_media(
    state: &Arc<AppState>,
    snapshot: &Arc<Snapshot>,
    part: String,
) -> Result<Bytes, Error> {
    let live = snapshot
        .live
        .clone()
        .ok_or_else(|| Error::not_found("this file has no media"))?;
    read_whole(&live).await?;
    let limits = state.config.office.clone();
    let reader = snapshot.clone();
    let bytes = state
        .pool
        .run(move || {
            if !live.book().pictures().contains(&part.as_str()) {
                return Err(Error::not_found("no such media part"));
            }
            // A load that stopped early keeps its rows but not the file's bytes.
            let loaded = live
                .loaded()
                .ok_or_else(|| Error::not_found("this file could not be read to its end"))?;
            let data = crate::preview::office::media_part(&loaded.bytes, &part, &limits)?;
            Ok(reader.rendered.keep_media(&part, Bytes::from(data)))
        })
        .await?;
    state.snapshots.recharge(snapshot);
    Ok(bytes)
}

/// `model.json` of a table read in the background: made once the whole file is in (the
/// request waits for it, at most [`crate::csv::live::READ_WAIT`]), then kept.
pub async fn live_model_json(
    state: &Arc<AppState>,
    snapshot: Arc<Snapshot>,
    live: Arc<LiveTable>,
) -> Result<Response, Error> {
    let body = match snapshot.rendered.model_json.get() {
        Some(body) => body.clone(),
        None => {
            read_whole(&live).await?;
            let json = state
                .pool
                .run(move || {
                    let book = live.book();
                    grid::model_json(&book).map_err(|_| Error::Internal)
                })
                .await?;
            super::views::keep_model_json(state, &snapshot, json)
        }
    };
    super::views::model_json_response(state, body)
}
