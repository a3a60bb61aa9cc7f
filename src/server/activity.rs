//! File activity over HTTP: the projection of a session's tool calls, and its Changes view
//! as a diff artifact.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use serde::Serialize;
use serde_json::Value;

use super::body::JsonBody;
use super::diffs::save_viewer;
use super::response::{json, parse_json};
use super::AppState;
use crate::activity::changes::changes_model;
use crate::activity::{project_session, SessionActivity, SessionInput, NO_CHANGES_MESSAGE};
use crate::diff::store::NewArtifact;
use crate::diff::view::{render, Variant, ViewOptions};
use crate::error::Error;

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

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChangesDetails {
    artifact_id: String,
    viewer_url: String,
    viewer_path: String,
    title: String,
    expires_at: String,
    file_count: usize,
    entry_count: usize,
}

/// `POST /api/v1/activity/changes`: the session's Changes view as a viewer artifact.
pub async fn changes(
    State(state): State<Arc<AppState>>,
    JsonBody(body): JsonBody,
) -> Result<Response, Error> {
    let work_state = state.clone();
    let details = state
        .pool
        .run(move || {
            let (_, activity) = project(&body)?;
            let model = changes_model(&activity.changes);
            let defaults = &work_state.config.diffs.defaults;
            let title = "Changes".to_string();
            let mut options = ViewOptions::from_defaults(defaults, title.clone());
            options.variant = Variant::Viewer;
            options.empty_note = NO_CHANGES_MESSAGE.to_string();
            let page = render(&model, &options);
            let saved = save_viewer(
                &work_state,
                NewArtifact {
                    ttl: std::time::Duration::from_secs(defaults.ttl_seconds),
                    title: title.clone(),
                    input_kind: "activity".into(),
                    file_count: activity.changes.len() as u64,
                    mode: "view".into(),
                    context: serde_json::Map::new(),
                },
                &page,
                None,
            )?;
            Ok(ChangesDetails {
                artifact_id: saved.artifact_id,
                viewer_url: saved.viewer_url,
                viewer_path: saved.viewer_path,
                title,
                expires_at: saved.expires_at,
                file_count: activity.changes.len(),
                entry_count: model.files.len(),
            })
        })
        .await?;
    Ok(json(
        StatusCode::OK,
        &serde_json::json!({ "details": details }),
    ))
}
