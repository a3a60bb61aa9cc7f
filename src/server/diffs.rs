//! The `diffs` tool back end over HTTP: `POST /api/v1/diffs` makes an artifact, and the
//! viewer routes serve it under the contract's access rules.
//!
//! The viewer's locality check, method check and lock-out run in [`super::guard`]; here
//! are the rest of the contract's checks in its order: a malformed id or token is a plain
//! 404 without touching storage, a missing, expired or wrong-token artifact is
//! `Diff not found or expired`.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::guard::plain;
use super::response::{json, with_type};
use super::AppState;
use crate::diff::store::{NewArtifact, StoreError, VIEWER_FILE};
use crate::diff::view::{render, Variant, ViewOptions, VIEWER_JS, VIEWER_RUNTIME_JS};
use crate::diff::{
    build_model, DiffContext, DiffInputError, DiffOutcome, DiffRequest, InputKind, Mode,
    IDENTICAL_MESSAGE,
};
use crate::error::Error;
use crate::preview::snapshot::is_lower_hex;

/// The viewer page's Content-Security-Policy (contract string).
pub const VIEWER_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'none'; base-uri 'none'; frame-ancestors 'self'; object-src 'none'";

/// Why a file could not be made while the export is not part of this build.
pub const EXPORT_UNAVAILABLE: &str =
    "PNG/PDF export is not available in this previewd build yet; use mode \"view\".";

/// The `details` object of a successful call.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Details {
    changed: bool,
    artifact_id: String,
    viewer_url: String,
    viewer_path: String,
    title: String,
    expires_at: String,
    input_kind: InputKind,
    file_count: usize,
    mode: Mode,
    #[serde(skip_serializing_if = "Option::is_none")]
    context: Option<DiffContext>,
    #[serde(skip_serializing_if = "Option::is_none")]
    file_error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    image_error: Option<String>,
}

#[derive(Debug, Serialize)]
struct Answer<T: Serialize> {
    details: T,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Unchanged {
    changed: bool,
    message: &'static str,
}

fn input_error(e: DiffInputError) -> Error {
    Error::InvalidRequest(e.message().to_string())
}

fn store_error(e: StoreError) -> Error {
    match e {
        StoreError::TooLarge { .. } => Error::InvalidRequest(e.message()),
        other => {
            tracing::warn!(code = other.code(), "diff store failed");
            Error::Internal
        }
    }
}

/// `POST /api/v1/diffs`.
pub async fn create(State(state): State<Arc<AppState>>, body: Bytes) -> Result<Response, Error> {
    let work_state = state.clone();
    let answer = state
        .pool
        .run(move || make_artifact(&work_state, &body))
        .await?;
    Ok(answer)
}

fn make_artifact(state: &AppState, body: &[u8]) -> Result<Response, Error> {
    let request =
        DiffRequest::from_json_bytes(body, &state.config.diffs.defaults).map_err(input_error)?;
    let model = match build_model(&request).map_err(input_error)? {
        DiffOutcome::Changed(model) => model,
        DiffOutcome::Unchanged => {
            return Ok(json(
                StatusCode::OK,
                &Answer {
                    details: Unchanged {
                        changed: false,
                        message: IDENTICAL_MESSAGE,
                    },
                },
            ))
        }
    };
    if request.mode == Mode::File {
        return Err(Error::Unsupported(EXPORT_UNAVAILABLE.into()));
    }
    let page = render(
        &model,
        &ViewOptions::from_request(&request, Variant::Viewer),
    );
    let context = request.context.clone().unwrap_or_default();
    let saved = save_viewer(
        state,
        NewArtifact {
            ttl: std::time::Duration::from_secs(request.ttl_seconds),
            title: request.title.clone(),
            input_kind: enum_name(&request.input_kind()),
            file_count: model.files.len() as u64,
            mode: enum_name(&request.mode),
            context: match serde_json::to_value(&context) {
                Ok(serde_json::Value::Object(map)) => map,
                _ => serde_json::Map::new(),
            },
        },
        &page,
        request.base_url.as_deref(),
    )?;
    let (file_error, image_error) = if request.mode == Mode::Both {
        (
            Some(EXPORT_UNAVAILABLE.to_string()),
            Some(EXPORT_UNAVAILABLE.to_string()),
        )
    } else {
        (None, None)
    };
    Ok(json(
        StatusCode::OK,
        &Answer {
            details: Details {
                changed: true,
                artifact_id: saved.artifact_id,
                viewer_url: saved.viewer_url,
                viewer_path: saved.viewer_path,
                title: request.title.clone(),
                expires_at: saved.expires_at,
                input_kind: request.input_kind(),
                file_count: model.files.len(),
                mode: request.mode,
                context: request.context.clone(),
                file_error,
                image_error,
            },
        },
    ))
}

/// Where a saved viewer page can be reached.
#[derive(Debug)]
pub struct SavedViewer {
    /// The artifact id.
    pub artifact_id: String,
    /// `/plugins/diffs/view/{id}/{token}`.
    pub viewer_path: String,
    /// The path on the chosen base URL.
    pub viewer_url: String,
    /// Expiry, RFC 3339.
    pub expires_at: String,
}

/// Stores a rendered viewer page as an artifact and builds its URLs (`base_url` from the
/// call wins over the configured base).
pub fn save_viewer(
    state: &AppState,
    meta: NewArtifact,
    page: &str,
    base_url: Option<&str>,
) -> Result<SavedViewer, Error> {
    let created = state
        .diff_store
        .create(meta, &[(VIEWER_FILE, page.as_bytes())])
        .map_err(store_error)?;
    let base = base_url.unwrap_or(&state.diff_base_url);
    let viewer_path = format!("/plugins/diffs/view/{}/{}", created.id(), created.token);
    Ok(SavedViewer {
        artifact_id: created.id().to_string(),
        viewer_url: format!("{base}{viewer_path}"),
        viewer_path,
        expires_at: crate::time::rfc3339(created.artifact.expires_at()),
    })
}

/// The contract spelling of a serde unit enum (`before_after`, `view`, …).
fn enum_name<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

/// `GET /plugins/diffs/view/{id}/{token}`.
pub async fn viewer(
    State(state): State<Arc<AppState>>,
    Path((id, token)): Path<(String, String)>,
) -> Response {
    if !is_lower_hex(&id, 20) || !is_lower_hex(&token, 48) {
        return plain(StatusCode::NOT_FOUND, "Diff not found");
    }
    let store = state.diff_store.clone();
    let page = state
        .pool
        .run(move || {
            let Some(artifact) = store.get(&id, &token).map_err(store_error)? else {
                return Ok(None);
            };
            store.read_file(&artifact, VIEWER_FILE).map_err(store_error)
        })
        .await;
    match page {
        Ok(Some(bytes)) => with_type(bytes, "text/html; charset=utf-8", Some(VIEWER_CSP)),
        Ok(None) => plain(StatusCode::NOT_FOUND, "Diff not found or expired"),
        Err(e) => e.into_response(),
    }
}

/// `GET /plugins/diffs/assets/{name}`: the viewer's two scripts, from memory.
pub async fn asset(Path(name): Path<String>) -> Response {
    let body = match name.as_str() {
        "viewer.js" => VIEWER_JS,
        "viewer-runtime.js" => VIEWER_RUNTIME_JS,
        _ => return plain(StatusCode::NOT_FOUND, "Not found"),
    };
    with_type(
        body,
        "text/javascript; charset=utf-8",
        Some("default-src 'none'"),
    )
}
