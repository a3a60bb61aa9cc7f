//! The file-activity records: what one successful tool call declared about one file.
//!
//! These are the spec's `FileChangeFragment` and `FileActivity`, serialised in camelCase so a
//! chat client can read them as they are. Sequences are display order derived by the
//! projection, not identities: replaying the same timeline yields the same numbers.

use serde::{Deserialize, Serialize};

/// The file-editing tools whose completed calls count as file activity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolName {
    /// `write`: a whole document, or only a path.
    Write,
    /// `edit`: old/new text replacements in one file.
    Edit,
    /// `apply_patch`: a patch envelope over several files.
    ApplyPatch,
}

impl ToolName {
    /// The tool's name as it appears in titles and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolName::Write => "write",
            ToolName::Edit => "edit",
            ToolName::ApplyPatch => "apply_patch",
        }
    }
}

/// What a tool call declared it did to a file. `Created` states intent, not that the file
/// did not exist before.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FileAction {
    /// A whole document was written, or a file was added (or moved here).
    Created,
    /// Part of an existing document was replaced.
    Modified,
    /// The file was removed (or moved away).
    Deleted,
}

/// One declared replacement: `old_text` became `new_text`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileChangeFragment {
    /// The text before (empty for a whole-document write or an added file).
    pub old_text: String,
    /// The text after.
    pub new_text: String,
    /// Display order of this fragment across the whole session (0-based).
    pub sequence: u64,
}

/// An old/new text pair without a sequence: a fragment before numbering, or one piece of a
/// display diff.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextPair {
    /// The text before.
    pub old_text: String,
    /// The text after.
    pub new_text: String,
}

impl TextPair {
    /// Builds a pair from anything string-like.
    pub fn new(old_text: impl Into<String>, new_text: impl Into<String>) -> Self {
        TextPair {
            old_text: old_text.into(),
            new_text: new_text.into(),
        }
    }
}

/// One file touched by one completed tool call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileActivity {
    /// The assistant turn the call belongs to.
    pub turn_id: String,
    /// The ACP tool call that declared the change.
    pub tool_call_id: String,
    /// Which tool made it.
    pub tool_name: ToolName,
    /// Path relative to the workspace root, `/`-separated, never empty or climbing.
    pub relative_path: String,
    /// What the call declared.
    pub action: FileAction,
    /// The declared replacements in order; empty for deletes and path-only writes.
    pub fragments: Vec<FileChangeFragment>,
    /// Display order of this record across the whole session (0-based).
    pub sequence: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_serialise_in_camel_case() {
        let record = FileActivity {
            turn_id: "t1".into(),
            tool_call_id: "c1".into(),
            tool_name: ToolName::ApplyPatch,
            relative_path: "src/a.rs".into(),
            action: FileAction::Created,
            fragments: vec![FileChangeFragment {
                old_text: String::new(),
                new_text: "x\n".into(),
                sequence: 0,
            }],
            sequence: 3,
        };
        let json = serde_json::to_value(&record).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "turnId": "t1", "toolCallId": "c1", "toolName": "apply_patch",
                "relativePath": "src/a.rs", "action": "created",
                "fragments": [{"oldText": "", "newText": "x\n", "sequence": 0}],
                "sequence": 3
            })
        );
        let back: FileActivity = serde_json::from_value(json).unwrap();
        assert_eq!(back, record);
    }
}
