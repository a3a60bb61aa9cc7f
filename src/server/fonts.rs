//! Font routes: the machine fonts of the catalog by stable id (`/fonts/{id}`) and a
//! snapshot's embedded fonts (`/p/{id}/{token}/font/{n}`), for the `@font-face` rules the
//! Office viewers emit. Neither URL nor body ever names a host path.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue};
use axum::response::Response;

use super::response::with_type;
use super::AppState;
use crate::error::Error;
use crate::office::fonts::FontFile;

/// CSP of a font response: it is never a document.
const FONT_CSP: &str = "default-src 'none'";

/// A catalog id changes with its file, so the answer may be cached for good.
const MACHINE_CACHE: &str = "public, max-age=31536000, immutable";

/// A snapshot's bytes never change, but its URL carries a secret token.
const SNAPSHOT_CACHE: &str = "private, max-age=86400, immutable";

fn font_response(state: &AppState, file: FontFile, cache: &'static str) -> Result<Response, Error> {
    let mut response = with_type(
        state.inflight.body(Bytes::from(file.data))?,
        file.mime,
        Some(FONT_CSP),
    );
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    Ok(response)
}

/// `GET /fonts/{id}`: a catalogued machine font (a collection's face extracted alone).
pub async fn machine(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    if state.fonts.get(&id).is_none() {
        return Err(Error::not_found("no such font"));
    }
    let catalog = state.fonts.clone();
    let file = state
        .pool
        .run(move || {
            catalog
                .read(&id)
                .ok_or_else(|| Error::not_found("no such font"))
        })
        .await?;
    font_response(&state, file, MACHINE_CACHE)
}

/// `GET /p/{id}/{token}/font/{n}`: embedded face `n` of a DOCX or PPTX snapshot.
pub async fn embedded(
    State(state): State<Arc<AppState>>,
    Path((id, token, n)): Path<(String, String, String)>,
) -> Result<Response, Error> {
    let snapshot = state.snapshots.get(&id, &token)?;
    let index: usize = n
        .parse()
        .map_err(|_| Error::not_found("no such embedded font"))?;
    let model = snapshot
        .office
        .clone()
        .ok_or_else(|| Error::not_found("this file embeds no fonts"))?;
    let limits = state.config.office.clone();
    let file = state
        .pool
        .run(move || {
            let bytes = snapshot.read.bytes.as_deref().unwrap_or_default();
            crate::preview::office::embedded_font(bytes, &model, index, &limits)
        })
        .await?;
    font_response(&state, file, SNAPSHOT_CACHE)
}
