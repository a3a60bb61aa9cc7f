//! File activity over HTTP: the projection of a session's tool calls, and its Changes view
//! as a diff artifact.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::Value;

use super::body::JsonBody;
use super::diffs::{artifact_details, create_artifact, file_outcome};
use super::response::{json, parse_json};
use super::AppState;
use crate::activity::changes::changes_model;
use crate::activity::{project_session, SessionActivity, SessionInput, NO_CHANGES_MESSAGE};
use crate::diff::options::DiffDefaults;
use crate::diff::store::VIEWER_FILE;
use crate::diff::view::{render, Variant, ViewOptions};
use crate::diff::{DiffModel, DiffRequest, Mode};
use crate::error::Error;
use crate::export::{ExportError, ExportedFile};

/// Projects the input, refusing it as a whole only when root or cwd are unusable.
fn project(body: &[u8]) -> Result<(SessionInput, SessionActivity), Error> {
    let input: SessionInput = parse_json(body)?;
    let activity = project_session(&input).map_err(|e| Error::InvalidReference(e.message()))?;
    Ok((input, activity))
}

/// `POST /api/v1/activity`: the projection, with a `fileRef` on every file that can be
/// previewed (created or modified), ready for `POST /api/v1/previews`.
pub async fn activity(
    State(state): State<Arc<AppState>>,
    JsonBody(body): JsonBody,
) -> Result<Response, Error> {
    let value = state
        .pool
        .run(move || {
            let (input, activity) = project(&body)?;
            let mut value = serde_json::to_value(&activity).map_err(|_| Error::Internal)?;
            add_file_refs(
                &mut value,
                input.workspace_root.as_deref().unwrap_or_default(),
            );
            Ok(value)
        })
        .await?;
    Ok(json(StatusCode::OK, &value))
}

/// Adds `fileRef: {workspaceRoot, relativePath}` to the per-turn files and the Changes
/// groups whose file should still exist. The reference is re-resolved when used: a file
/// that is gone or now outside is refused then, and the record stays as it is.
fn add_file_refs(value: &mut Value, root: &str) {
    let file_ref =
        |path: &Value| serde_json::json!({ "workspaceRoot": root, "relativePath": path });
    if let Some(turns) = value.get_mut("turns").and_then(Value::as_array_mut) {
        for turn in turns {
            let files = turn.get_mut("files").and_then(Value::as_array_mut);
            for file in files.into_iter().flatten() {
                if file["action"] != "deleted" {
                    file["fileRef"] = file_ref(&file["relativePath"]);
                }
            }
        }
    }
    if let Some(groups) = value.get_mut("changes").and_then(Value::as_array_mut) {
        for group in groups {
            if group["deleted"] != true {
                group["fileRef"] = file_ref(&group["relativePath"]);
            }
        }
    }
}

/// The keys of a session document. With [`crate::diff::PRESENTATION_FIELDS`] they are all a Changes
/// call may hold; anything else is refused, so a misspelt `fileFormat` is an error, not a
/// silent viewer.
const SESSION_FIELDS: [&str; 4] = ["workspaceRoot", "executionCwd", "turns", "timeline"];

/// The title of a Changes view whose call names none.
const CHANGES_TITLE: &str = "Changes";

/// A Changes call, read and projected.
struct ChangesCall {
    /// How to show the changes: the `diffs` contract's presentation fields.
    request: DiffRequest,
    /// The paths the session changed.
    path_count: usize,
    /// One entry per turn and path.
    model: DiffModel,
}

/// Splits the body into the session and the `diffs` presentation fields, validates both,
/// and builds the Changes model.
fn read_changes_call(body: &[u8], defaults: &DiffDefaults) -> Result<ChangesCall, Error> {
    let value: Value = parse_json(body)?;
    let Value::Object(mut map) = value else {
        return Err(Error::InvalidRequest(
            "the body must be a JSON object".into(),
        ));
    };
    let request = DiffRequest::for_session(&map, &SESSION_FIELDS, CHANGES_TITLE, defaults)
        .map_err(|e| Error::InvalidRequest(e.message().to_string()))?;
    map.retain(|key, _| SESSION_FIELDS.contains(&key.as_str()));
    let input: SessionInput = serde_json::from_value(Value::Object(map)).map_err(|e| {
        Error::InvalidRequest(format!("the body does not have the expected fields: {e}"))
    })?;
    let activity = project_session(&input).map_err(|e| Error::InvalidReference(e.message()))?;
    Ok(ChangesCall {
        request,
        path_count: activity.changes.len(),
        model: changes_model(&activity.changes),
    })
}

/// `POST /api/v1/activity/changes`: the session's Changes view as a diff artifact, with
/// the `diffs` contract's presentation fields: `mode: "view"` (the default) stores the
/// viewer page, `"file"` a PNG or PDF drawn by the export engine (`export.engine`, native
/// by default, so no browser is needed), `"both"` the two; the answer carries the same
/// `viewerUrl`/`fileUrl`/`filePath`/… fields as `POST /api/v1/diffs`.
///
/// A session with no changes still gets a viewer page saying so (for `view` and `both`),
/// but no file: `changed: false` and [`NO_CHANGES_MESSAGE`], like the contract's answer
/// for identical texts.
pub async fn changes(
    State(state): State<Arc<AppState>>,
    JsonBody(body): JsonBody,
) -> Result<Response, Error> {
    let defaults = state.config.diffs.defaults.clone();
    let call = state
        .pool
        .run(move || read_changes_call(&body, &defaults))
        .await?;
    let changed = !call.model.files.is_empty();
    let mode = call.request.mode;
    if !changed && mode == Mode::File {
        return Ok(json(StatusCode::OK, &no_changes()));
    }
    let file = if changed && matches!(mode, Mode::File | Mode::Both) {
        Some(state.exporter.render_diff(&call.request, &call.model).await)
    } else {
        None
    };
    let work_state = state.clone();
    state
        .pool
        .run(move || store_changes(&work_state, &call, file))
        .await
}

/// `{"details": {"changed": false, "message": …}}`.
fn no_changes() -> Value {
    serde_json::json!({ "details": { "changed": false, "message": NO_CHANGES_MESSAGE } })
}

/// Stores the Changes artifact (the viewer page and/or the file) and answers its details.
fn store_changes(
    state: &AppState,
    call: &ChangesCall,
    file: Option<Result<ExportedFile, ExportError>>,
) -> Result<Response, Error> {
    let request = &call.request;
    let (file, file_error) = file_outcome(request.mode, file)?;
    let page = (request.mode != Mode::File).then(|| {
        let mut options = ViewOptions::from_request(request, Variant::Viewer);
        options.empty_note = NO_CHANGES_MESSAGE.to_string();
        render(&call.model, &options)
    });
    let mut payloads: Vec<(&str, &[u8])> = Vec::new();
    if let Some(page) = &page {
        payloads.push((VIEWER_FILE, page.as_bytes()));
    }
    if let Some(file) = &file {
        payloads.push((file.file_name(), &file.bytes));
    }
    let created = create_artifact(state, request, call.path_count, &payloads)?;
    let mut details = artifact_details(
        state,
        &created,
        request,
        call.path_count,
        page.is_some(),
        file.as_ref(),
        file_error,
    )?;
    details.insert("entryCount".into(), call.model.files.len().into());
    if call.model.files.is_empty() {
        details.insert("changed".into(), false.into());
        details.insert("message".into(), NO_CHANGES_MESSAGE.into());
    }
    Ok(json(
        StatusCode::OK,
        &serde_json::json!({ "details": details }),
    ))
}
