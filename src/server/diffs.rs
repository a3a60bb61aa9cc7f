//! The `diffs` tool back end over HTTP: `POST /api/v1/diffs` makes an artifact, and the
//! viewer routes serve it under the contract's access rules.
//!
//! The viewer's locality check, method check and lock-out run in [`super::guard`]; here
//! are the rest of the contract's checks in its order: a malformed id or token is a plain
//! 404 without touching storage, a missing, expired or wrong-token artifact is
//! `Diff not found or expired`.
//!
//! A `view` call stores the page's recipe, not the page: the first view renders and caches
//! it (see [`crate::diff::recipe`] for why). Every contract error is still found by the
//! call itself.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::body::JsonBody;
use super::guard::plain;
use super::response::{json, with_type};
use super::AppState;
use crate::diff::recipe::ViewerRecipe;
use crate::diff::store::{
    Artifact, ArtifactStore, Created, NewArtifact, StoreError, PDF_FILE, PNG_FILE, VIEWER_FILE,
    VIEWER_RECIPE_FILE,
};
use crate::diff::view::{VIEWER_JS, VIEWER_RUNTIME_JS};
use crate::diff::{
    build_model, DiffInputError, DiffModel, DiffOutcome, DiffRequest, InputKind, Mode,
    IDENTICAL_MESSAGE,
};
use crate::error::Error;
use crate::export::{ExportError, ExportedFile};
use crate::preview::snapshot::is_lower_hex;

/// The viewer page's Content-Security-Policy (contract string).
pub const VIEWER_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'none'; base-uri 'none'; frame-ancestors 'self'; object-src 'none'";

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

pub(super) fn store_error(e: StoreError) -> Error {
    match e {
        StoreError::TooLarge { .. } => Error::InvalidRequest(e.message()),
        StoreError::StorageFull { .. } => Error::StorageFull(e.message()),
        StoreError::Unavailable { .. } => Error::StoreUnavailable(e.message()),
        other => {
            tracing::warn!(code = other.code(), "diff store failed");
            Error::Internal
        }
    }
}

/// `POST /api/v1/diffs`: the contract and the model on the blocking pool, the PNG/PDF (for
/// `file` and `both`) on the exporter's own bounded browser, then the artifact on the pool.
pub async fn create(
    State(state): State<Arc<AppState>>,
    JsonBody(body): JsonBody,
) -> Result<Response, Error> {
    let defaults = state.config.diffs.defaults.clone();
    let prepared = state
        .pool
        .run(move || {
            let request = DiffRequest::from_json_bytes(&body, &defaults).map_err(input_error)?;
            prepare(request)
        })
        .await?;
    let Some(Prepared {
        request,
        model,
        file_count,
    }) = prepared
    else {
        return Ok(json(
            StatusCode::OK,
            &Answer {
                details: Unchanged {
                    changed: false,
                    message: IDENTICAL_MESSAGE,
                },
            },
        ));
    };
    let file = match (&request.mode, &model) {
        (Mode::File | Mode::Both, Some(model)) => {
            Some(state.exporter.render_diff(&request, model).await)
        }
        _ => None,
    };
    let work_state = state.clone();
    state
        .pool
        .run(move || store_artifact(&work_state, &request, file_count, file))
        .await
}

/// A call with something to show.
struct Prepared {
    request: DiffRequest,
    /// The model, built when the call itself needs it (a file to render, or a patch,
    /// whose parse is what finds its errors and counts its files).
    model: Option<DiffModel>,
    /// The `fileCount` to answer.
    file_count: usize,
}

/// Checks a validated call and builds what answering it needs; `None` for identical texts.
///
/// A before/after call in `view` mode needs no model now: its texts cannot fail to diff,
/// it is one file, and the page is rendered from the stored recipe when first opened.
fn prepare(request: DiffRequest) -> Result<Option<Prepared>, Error> {
    if request.is_unchanged() {
        return Ok(None);
    }
    if request.mode == Mode::View && request.input_kind() == InputKind::BeforeAfter {
        return Ok(Some(Prepared {
            request,
            model: None,
            file_count: 1,
        }));
    }
    Ok(match build_model(&request).map_err(input_error)? {
        DiffOutcome::Changed(model) => Some(Prepared {
            file_count: model.files.len(),
            model: Some(model),
            request,
        }),
        DiffOutcome::Unchanged => None,
    })
}

/// Stores the artifact for a prepared call and builds the contract's `details`.
fn store_artifact(
    state: &AppState,
    request: &DiffRequest,
    file_count: usize,
    file: Option<Result<ExportedFile, ExportError>>,
) -> Result<Response, Error> {
    let (file, file_error) = file_outcome(request.mode, file)?;
    // The viewer page is rendered when it is first opened (see `diff::recipe`): the
    // call stores only what renders it.
    let recipe =
        (request.mode != Mode::File).then(|| ViewerRecipe::from_request(request).to_bytes());
    let mut payloads: Vec<(&str, &[u8])> = Vec::new();
    if let Some(recipe) = &recipe {
        payloads.push((VIEWER_RECIPE_FILE, recipe));
    }
    if let Some(file) = &file {
        payloads.push((file.file_name(), &file.bytes));
    }
    let created = create_artifact(state, request, file_count, &payloads)?;
    let details = artifact_details(
        state,
        &created,
        request,
        file_count,
        recipe.is_some(),
        file.as_ref(),
        file_error,
    )?;
    Ok(json(
        StatusCode::OK,
        &serde_json::json!({ "details": details }),
    ))
}

/// Stores an artifact of `request` holding `payloads`, with the call's TTL, title, input
/// kind, mode and context, and counts it.
pub(super) fn create_artifact(
    state: &AppState,
    request: &DiffRequest,
    file_count: usize,
    payloads: &[(&str, &[u8])],
) -> Result<Created, Error> {
    let context = request
        .context
        .as_ref()
        .and_then(|c| serde_json::to_value(c).ok());
    let created = state
        .diff_store
        .create(
            NewArtifact {
                ttl: std::time::Duration::from_secs(request.ttl_seconds),
                title: request.title.clone(),
                input_kind: enum_name(&request.input_kind()),
                file_count: file_count as u64,
                mode: enum_name(&request.mode),
                context: match context {
                    Some(serde_json::Value::Object(map)) => map,
                    _ => serde_json::Map::new(),
                },
            },
            payloads,
        )
        .map_err(store_error)?;
    state.metrics.diff_artifact_created();
    Ok(created)
}

/// The contract's `details` of a created artifact: `changed`, id, expiry, title, input
/// kind, file count, mode and context; the viewer's URL and path when it has a viewer; the
/// file's fields (or `fileError`) when a file was asked for.
pub(super) fn artifact_details(
    state: &AppState,
    created: &Created,
    request: &DiffRequest,
    file_count: usize,
    with_viewer: bool,
    file: Option<&ExportedFile>,
    file_error: Option<String>,
) -> Result<serde_json::Map<String, serde_json::Value>, Error> {
    let mut details = serde_json::Map::new();
    let mut put = |k: &str, v: serde_json::Value| {
        details.insert(k.to_string(), v);
    };
    put("changed", true.into());
    put("artifactId", created.id().into());
    put(
        "expiresAt",
        crate::time::rfc3339(created.artifact.expires_at()).into(),
    );
    put("title", request.title.clone().into());
    put("inputKind", enum_name(&request.input_kind()).into());
    put("fileCount", file_count.into());
    put("mode", enum_name(&request.mode).into());
    if let Some(context) = &request.context {
        put("context", serde_json::to_value(context).unwrap_or_default());
    }
    let base = request.base_url.as_deref().unwrap_or(&state.diff_base_url);
    if with_viewer {
        let viewer_path = format!("/plugins/diffs/view/{}/{}", created.id(), created.token);
        put("viewerUrl", format!("{base}{viewer_path}").into());
        put("viewerPath", viewer_path.into());
    }
    put_file_details(&mut details, state, created, base, file, file_error)?;
    Ok(details)
}

/// What became of a call's PNG/PDF render: the file, or for `both` the reason it is
/// missing (the viewer still answers). For `file` a failed render is the call's error,
/// since there is nothing to fall back to.
pub(super) fn file_outcome(
    mode: Mode,
    file: Option<Result<ExportedFile, ExportError>>,
) -> Result<(Option<ExportedFile>, Option<String>), Error> {
    match file {
        None => Ok((None, None)),
        Some(Ok(file)) => Ok((Some(file), None)),
        Some(Err(e)) if mode == Mode::File => Err(e.into()),
        Some(Err(e)) => {
            tracing::warn!(error = %e, "diff file render failed; answering with the viewer only");
            Ok((None, Some(e.to_string())))
        }
    }
}

/// Adds the contract's fields for the artifact's stored file to `details` (`filePath`,
/// `fileUrl`, bytes, format, quality, scale, width, then the legacy `image*` aliases with
/// the same values), or `fileError`/`imageError` when the render failed.
fn put_file_details(
    details: &mut serde_json::Map<String, serde_json::Value>,
    state: &AppState,
    created: &Created,
    base: &str,
    file: Option<&ExportedFile>,
    file_error: Option<String>,
) -> Result<(), Error> {
    let mut put = |k: &str, v: serde_json::Value| {
        details.insert(k.to_string(), v);
    };
    if let Some(file) = file {
        let path = state
            .diff_store
            .file_path(created.id(), file.file_name())
            .map_err(store_error)?
            .to_string_lossy()
            .into_owned();
        let format = enum_name(&file.format);
        let quality = enum_name(&file.quality);
        put("filePath", path.clone().into());
        put(
            "fileUrl",
            file_url(base, created.id(), &created.token).into(),
        );
        put("path", path.clone().into());
        put("fileBytes", file.bytes.len().into());
        put("fileFormat", format.clone().into());
        put("fileQuality", quality.clone().into());
        put("fileScale", file.scale.into());
        put("fileMaxWidth", file.max_width.into());
        put("format", format.into());
        put("imagePath", path.into());
        put("imageBytes", file.bytes.len().into());
        put("imageQuality", quality.into());
        put("imageScale", file.scale.into());
        put("imageMaxWidth", file.max_width.into());
    }
    if let Some(error) = file_error {
        put("fileError", error.clone().into());
        put("imageError", error.into());
    }
    Ok(())
}

/// The contract spelling of a serde unit enum (`before_after`, `view`, …).
pub(super) fn enum_name<T: Serialize>(value: &T) -> String {
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
    match live_artifact(&state, id, token, viewer_page).await {
        Ok(Some(bytes)) => with_type(bytes, "text/html; charset=utf-8", Some(VIEWER_CSP)),
        Ok(None) => plain(StatusCode::NOT_FOUND, "Diff not found or expired"),
        Err(response) => response,
    }
}

/// Finds a live artifact by the diff routes' rules and runs `read` on it, on the pool.
/// A malformed id or token never touches storage: `Err` with the plain `Diff not found`;
/// `Err` also carries the response for a failure. `Ok(None)`: missing, expired, wrong
/// token, or `read` found nothing.
async fn live_artifact<T: Send + 'static>(
    state: &Arc<AppState>,
    id: String,
    token: String,
    read: impl FnOnce(&AppState, &Artifact) -> Result<Option<T>, Error> + Send + 'static,
) -> Result<Option<T>, Response> {
    if !is_lower_hex(&id, 20) || !is_lower_hex(&token, 48) {
        return Err(plain(StatusCode::NOT_FOUND, "Diff not found"));
    }
    let work_state = state.clone();
    state
        .pool
        .run(move || {
            let store = work_state.diff_store.as_ref();
            let Some(artifact) = store.get(&id, &token).map_err(store_error)? else {
                return Ok(None);
            };
            read(&work_state, &artifact)
        })
        .await
        .map_err(IntoResponse::into_response)
}

/// The viewer page of a live artifact: a stored page as is, or the page its recipe
/// renders, cached for the next view on the first one.
fn viewer_page(state: &AppState, artifact: &Artifact) -> Result<Option<Vec<u8>>, Error> {
    let store = state.diff_store.as_ref();
    if artifact.file(VIEWER_RECIPE_FILE).is_none() {
        return store.read_file(artifact, VIEWER_FILE).map_err(store_error);
    }
    if let Some(page) = store
        .read_derived(artifact, VIEWER_FILE)
        .map_err(store_error)?
    {
        return Ok(Some(page));
    }
    let Some(bytes) = store
        .read_file(artifact, VIEWER_RECIPE_FILE)
        .map_err(store_error)?
    else {
        // Swept between the lookup and now.
        return Ok(None);
    };
    let page = ViewerRecipe::from_bytes(&bytes)
        .and_then(|recipe| recipe.render())
        .map_err(|e| {
            tracing::warn!(artifact = %artifact.id, error = %e, "cannot render a stored diff viewer");
            Error::Internal
        })?
        .into_bytes();
    state.metrics.diff_view_rendered();
    // Two first views at once both render and both write; the rename makes either win whole.
    if let Err(e) = store.write_derived(artifact, VIEWER_FILE, &page) {
        tracing::debug!(artifact = %artifact.id, error = %e, "viewer page not cached");
    }
    Ok(Some(page))
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

/// The Content-Security-Policy of a served PNG/PDF file: nothing may load or run, the
/// file may not be framed by another site, and a browser opening it shows it alone.
pub const FILE_CSP: &str = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// Longest stem of a download name, in characters (all ASCII).
const DOWNLOAD_STEM_MAX: usize = 80;

/// A file name for `Content-Disposition` made from the artifact's title: ASCII letters,
/// digits, `.`, `_` and `-` only, so it needs no quoting rules, carries no path and
/// cannot end the header; separators collapse into one `-`, and an empty result is `diff`.
pub fn download_name(title: &str, extension: &str) -> String {
    let mapped: Vec<char> = title
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let mut stem = String::new();
    let mut i = 0;
    while i < mapped.len() {
        if mapped[i] != '-' && mapped[i] != '.' {
            stem.push(mapped[i]);
            i += 1;
            continue;
        }
        // A run of dots and dashes: a plain `.`/`..` stays (`lib.rs`), anything with a
        // separator in it is one `-` (so `a/../b` is `a-b`, never a parent step).
        let start = i;
        while i < mapped.len() && (mapped[i] == '-' || mapped[i] == '.') {
            i += 1;
        }
        let run = &mapped[start..i];
        if run.contains(&'-') {
            stem.push('-');
        } else {
            stem.extend(run);
        }
    }
    let stem: String = stem.chars().take(DOWNLOAD_STEM_MAX).collect();
    let stem = stem.trim_matches(['-', '.']);
    let stem = if stem.is_empty() { "diff" } else { stem };
    format!("{stem}.{extension}")
}

/// `{base}/plugins/diffs/file/{id}/{token}`: where a remote caller fetches the file that
/// `filePath` names on this host (same base and token as the viewer URL).
fn file_url(base: &str, id: &str, token: &str) -> String {
    format!("{base}/plugins/diffs/file/{id}/{token}")
}

/// A stored PNG/PDF ready to send.
struct ServedFile {
    bytes: Vec<u8>,
    content_type: &'static str,
    download_name: String,
}

/// The rendered file of a live artifact; `None` for a view-only artifact or one swept
/// between the lookup and the read.
fn stored_file(
    store: &dyn ArtifactStore,
    artifact: &Artifact,
) -> Result<Option<ServedFile>, Error> {
    const FILES: [(&str, &str, &str); 2] = [
        (PNG_FILE, "image/png", "png"),
        (PDF_FILE, "application/pdf", "pdf"),
    ];
    for (name, content_type, extension) in FILES {
        if artifact.file(name).is_none() {
            continue;
        }
        return Ok(store
            .read_file(artifact, name)
            .map_err(store_error)?
            .map(|bytes| ServedFile {
                bytes,
                content_type,
                download_name: download_name(&artifact.title, extension),
            }));
    }
    Ok(None)
}

/// `GET /plugins/diffs/file/{id}/{token}`: the artifact's PNG/PDF, under the viewer's
/// rules (locality, method and lock-out in [`super::guard`], the same token check and the
/// same plain 404s here). The body goes out under the in-flight byte budget like the other
/// file responses, so slow remote fetchers cannot pile up copies.
pub async fn file(
    State(state): State<Arc<AppState>>,
    Path((id, token)): Path<(String, String)>,
) -> Response {
    let found = live_artifact(&state, id, token, |state, artifact| {
        stored_file(state.diff_store.as_ref(), artifact)
    })
    .await;
    let served = match found {
        Ok(Some(served)) => served,
        Ok(None) => return plain(StatusCode::NOT_FOUND, "Diff not found or expired"),
        Err(response) => return response,
    };
    let body = match state.inflight.body(axum::body::Bytes::from(served.bytes)) {
        Ok(body) => body,
        Err(e) => return e.into_response(),
    };
    let mut response = with_type(body, served.content_type, Some(FILE_CSP));
    // The name is ASCII letters, digits, `.`, `_` and `-` (see `download_name`).
    if let Ok(value) =
        axum::http::HeaderValue::from_str(&format!("inline; filename=\"{}\"", served.download_name))
    {
        response
            .headers_mut()
            .insert(axum::http::header::CONTENT_DISPOSITION, value);
    }
    response
}
