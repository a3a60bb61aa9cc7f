//! The whole-session entry point: request and response shapes and [`project_session`].
//!
//! Input fields a client may reasonably omit default to "absent" so that one malformed tool
//! call yields no activity instead of failing the request; only a missing or unusable
//! `workspaceRoot`/`executionCwd` fails it, because without them no path can be trusted.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::aggregate::{session_changes, turn_files, turn_path_entries, PathChanges, TurnFiles};
use super::paths::{BaseError, WorkspacePaths};
use super::project::project_tool_calls;
use super::records::FileActivity;

/// What the Changes view says for a session without file activity.
pub const NO_CHANGES_MESSAGE: &str = "This session has no file changes.";

/// A session's ACP timeline, grouped into display turns, with its workspace bases.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionInput {
    /// The workspace boundary; absolute. Required for any projection.
    #[serde(default)]
    pub workspace_root: Option<String>,
    /// The ACP working directory relative paths resolve against; inside the root.
    #[serde(default)]
    pub execution_cwd: Option<String>,
    /// The turns in display order (an assistant turn may hold tool calls only).
    #[serde(default)]
    pub turns: Vec<TurnInput>,
    /// Or, instead of `turns`, the raw ACP timeline the client recorded (`session/update`
    /// notifications and the client's session requests), grouped here as the display
    /// groups it (see [`super::timeline`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeline: Option<Vec<Value>>,
}

/// One display turn and its tool calls in order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnInput {
    /// The turn's id, copied to every record of the turn.
    #[serde(default)]
    pub turn_id: String,
    /// The turn's tool calls in timeline order.
    #[serde(default)]
    pub tool_calls: Vec<ToolCallInput>,
}

/// One ACP tool call as the timeline shows it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallInput {
    /// The call's identity; a repeated id counts once. Empty means malformed.
    #[serde(default)]
    pub tool_call_id: String,
    /// The ACP title, e.g. `write: src/a.rs`.
    #[serde(default)]
    pub title: Option<String>,
    /// The ACP status; only `completed` counts.
    #[serde(default)]
    pub status: Option<String>,
    /// The tool's input as the agent sent it, any JSON.
    #[serde(default)]
    pub raw_input: Value,
}

/// The projection of one session.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionActivity {
    /// Every record, in display order.
    pub activities: Vec<FileActivity>,
    /// File cards per turn, for turns with at least one file.
    pub turns: Vec<TurnFiles>,
    /// The Changes view: files in order of first activity, each with its turns.
    pub changes: Vec<PathChanges>,
}

impl SessionActivity {
    /// Whether the session changed no file (the Changes view then shows
    /// [`NO_CHANGES_MESSAGE`]).
    pub fn is_empty(&self) -> bool {
        self.activities.is_empty()
    }
}

/// Why a session could not be projected at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActivityError {
    /// `workspaceRoot` was not given.
    MissingWorkspaceRoot,
    /// `executionCwd` was not given.
    MissingExecutionCwd,
    /// The bases were given but cannot be used.
    InvalidBase(BaseError),
    /// Both `turns` and `timeline` were given.
    TurnsAndTimeline,
}

impl ActivityError {
    /// The stable, machine-readable code (every case is a bad reference in the request).
    pub fn code(&self) -> &'static str {
        "invalid_reference"
    }

    /// A human reason, naming only request fields (never a host path).
    pub fn message(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for ActivityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActivityError::MissingWorkspaceRoot => {
                f.write_str("workspaceRoot is required to project file activity")
            }
            ActivityError::MissingExecutionCwd => {
                f.write_str("executionCwd is required to project file activity")
            }
            ActivityError::InvalidBase(base) => base.fmt(f),
            ActivityError::TurnsAndTimeline => f.write_str("Provide turns or timeline, not both."),
        }
    }
}

impl std::error::Error for ActivityError {}

impl From<BaseError> for ActivityError {
    fn from(base: BaseError) -> Self {
        ActivityError::InvalidBase(base)
    }
}

/// Checks the session's bases; an empty string counts as missing.
pub fn session_paths(input: &SessionInput) -> Result<WorkspacePaths, ActivityError> {
    let root = input
        .workspace_root
        .as_deref()
        .filter(|root| !root.is_empty())
        .ok_or(ActivityError::MissingWorkspaceRoot)?;
    let cwd = input
        .execution_cwd
        .as_deref()
        .filter(|cwd| !cwd.is_empty())
        .ok_or(ActivityError::MissingExecutionCwd)?;
    Ok(WorkspacePaths::new(root, cwd)?)
}

/// Builds file cards and the Changes view from already projected records.
pub fn aggregate_session(activities: Vec<FileActivity>) -> SessionActivity {
    let entries = turn_path_entries(&activities);
    SessionActivity {
        turns: turn_files(&entries),
        changes: session_changes(&activities, entries),
        activities,
    }
}

/// Projects a session: records, per-turn file cards and the Changes view. Fails only when
/// the workspace bases are missing or unusable; bad tool calls just yield nothing.
///
/// A `timeline` is grouped into turns first; its `session/new` working directory stands in
/// for a missing `executionCwd`.
pub fn project_session(input: &SessionInput) -> Result<SessionActivity, ActivityError> {
    let Some(timeline) = &input.timeline else {
        let paths = session_paths(input)?;
        return Ok(aggregate_session(project_tool_calls(&paths, &input.turns)));
    };
    if !input.turns.is_empty() {
        return Err(ActivityError::TurnsAndTimeline);
    }
    let grouped = super::timeline::group(timeline);
    let grouped_input = SessionInput {
        workspace_root: input.workspace_root.clone(),
        execution_cwd: input
            .execution_cwd
            .clone()
            .filter(|cwd| !cwd.is_empty())
            .or(grouped.cwd),
        turns: grouped.turns,
        timeline: None,
    };
    let paths = session_paths(&grouped_input)?;
    Ok(aggregate_session(project_tool_calls(
        &paths,
        &grouped_input.turns,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn project(input: Value) -> Result<Value, ActivityError> {
        let input: SessionInput = serde_json::from_value(input).unwrap();
        project_session(&input).map(|out| serde_json::to_value(out).unwrap())
    }

    #[test]
    fn whole_input_errors() {
        let cases = [
            (
                json!({"executionCwd": "/w", "turns": []}),
                ActivityError::MissingWorkspaceRoot,
            ),
            (
                json!({"workspaceRoot": "/w", "executionCwd": "", "turns": []}),
                ActivityError::MissingExecutionCwd,
            ),
            (
                json!({"workspaceRoot": "w", "executionCwd": "/w"}),
                ActivityError::InvalidBase(BaseError::InvalidRoot),
            ),
            (
                json!({"workspaceRoot": "/w", "executionCwd": "C:\\w"}),
                ActivityError::InvalidBase(BaseError::MixedFamilies),
            ),
            (
                json!({"workspaceRoot": "/root", "executionCwd": "/rooted"}),
                ActivityError::InvalidBase(BaseError::CwdOutsideRoot),
            ),
        ];
        for (input, expected) in cases {
            let err = project(input.clone()).unwrap_err();
            assert_eq!(err, expected, "{input}");
            assert_eq!(err.code(), "invalid_reference");
            assert!(!err.message().is_empty());
        }
    }

    #[test]
    fn empty_session() {
        let out = project(json!({"workspaceRoot": "/w", "executionCwd": "/w"})).unwrap();
        assert_eq!(out, json!({"activities": [], "turns": [], "changes": []}));
    }

    #[test]
    fn lenient_tool_call_fields() {
        // A call with no title or input is an ordinary, malformed call: nothing, no error.
        let out = project(json!({
            "workspaceRoot": "/w", "executionCwd": "/w",
            "turns": [{"turnId": "t", "toolCalls": [{"toolCallId": "c", "status": "completed"}]}]
        }))
        .unwrap();
        assert_eq!(out["activities"], json!([]));
    }

    #[test]
    fn end_to_end_session() {
        let out = project(json!({
            "workspaceRoot": "/home/ana/proj",
            "executionCwd": "/home/ana/proj",
            "turns": [
                {"turnId": "t1", "toolCalls": [
                    {"toolCallId": "c1", "title": "write: notes.md", "status": "completed",
                     "rawInput": {"path": "notes.md", "content": "# Notes\nfirst\n"}},
                    {"toolCallId": "c2", "title": "edit", "status": "completed",
                     "rawInput": {"path": "/home/ana/proj/notes.md", "oldText": "first", "newText": "second"}},
                    {"toolCallId": "c3", "title": "read: notes.md", "status": "completed",
                     "rawInput": {"path": "notes.md"}}
                ]},
                {"turnId": "t2", "toolCalls": [
                    {"toolCallId": "c4", "title": "apply_patch", "status": "completed",
                     "rawInput": {"input": "*** Begin Patch\n*** Update File: notes.md\n*** Move to: docs/notes.md\n@@\n-second\n+third\n*** End Patch"}},
                    {"toolCallId": "c5", "title": "write", "status": "failed",
                     "rawInput": {"path": "x.md", "content": "x"}}
                ]}
            ]
        }))
        .unwrap();
        assert_eq!(
            out["turns"],
            json!([
                {"turnId": "t1", "files": [
                    {"relativePath": "notes.md", "action": "created", "added": 3, "removed": 1}
                ]},
                {"turnId": "t2", "files": [
                    {"relativePath": "notes.md", "action": "deleted", "added": null, "removed": null},
                    {"relativePath": "docs/notes.md", "action": "created", "added": 1, "removed": 1}
                ]}
            ])
        );
        assert_eq!(
            out["changes"],
            json!([
                {"relativePath": "notes.md", "deleted": true, "turns": [
                    {"turnId": "t1", "action": "created", "added": 3, "removed": 1,
                     "toolCallIds": ["c1", "c2"],
                     "diff": {"kind": "composed", "oldText": "", "newText": "# Notes\nsecond\n"}},
                    {"turnId": "t2", "action": "deleted", "added": null, "removed": null,
                     "toolCallIds": ["c4"], "diff": null}
                ]},
                {"relativePath": "docs/notes.md", "deleted": false, "turns": [
                    {"turnId": "t2", "action": "created", "added": 1, "removed": 1,
                     "toolCallIds": ["c4"],
                     "diff": {"kind": "composed", "oldText": "second", "newText": "third"}}
                ]}
            ])
        );
        assert_eq!(out["activities"].as_array().map(Vec::len), Some(4));
    }
}
