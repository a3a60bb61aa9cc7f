//! From ACP tool calls to file-activity records.
//!
//! Only what a successful file-editing call declared becomes activity: its tool is read from
//! the title, its status must be `completed`, its input must have the documented shape, and
//! every path must pass the lexical workspace rules. Anything else stays an ordinary tool
//! call and yields nothing, because an activity record is a claim shown to the user.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::patch_grammar::{parse_patch, PatchSection};
use super::paths::{same_ignoring_case, WorkspacePaths};
use super::records::{FileAction, FileActivity, FileChangeFragment, TextPair, ToolName};
use super::session::TurnInput;

/// Path fields of `write` and `edit` input, most preferred first.
pub const PATH_FIELDS: [&str; 4] = ["path", "file_path", "filePath", "file"];

/// The only status whose calls count.
pub const COMPLETED: &str = "completed";

/// Reads the tool from an ACP title: the trimmed, lower-cased text before the first `:`
/// must be exactly `write`, `edit` or `apply_patch`. `Write File` and `writer:` are not.
pub fn tool_name_from_title(title: &str) -> Option<ToolName> {
    let head = title.split(':').next().unwrap_or_default();
    match head.trim().to_lowercase().as_str() {
        "write" => Some(ToolName::Write),
        "edit" => Some(ToolName::Edit),
        "apply_patch" => Some(ToolName::ApplyPatch),
        _ => None,
    }
}

/// One file change declared by one call, before it is tied to a turn and numbered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredChange {
    /// The path relative to the workspace root, `/`-separated.
    pub relative_path: String,
    /// What the call declared.
    pub action: FileAction,
    /// The declared replacements in order.
    pub fragments: Vec<TextPair>,
}

/// The changes one completed call of `tool` declared with `raw_input`. Malformed input,
/// a patch grammar error or an unsafe write/edit path yields nothing; in a valid patch each
/// section with an unsafe path is dropped on its own.
pub fn declared_changes(
    paths: &WorkspacePaths,
    tool: ToolName,
    raw_input: &Value,
) -> Vec<DeclaredChange> {
    match tool {
        ToolName::Write => write_changes(paths, raw_input).into_iter().collect(),
        ToolName::Edit => edit_changes(paths, raw_input).into_iter().collect(),
        ToolName::ApplyPatch => patch_changes(paths, raw_input),
    }
}

/// The first path field, in precedence order, that holds a non-empty string.
pub fn tool_path(raw_input: &Value) -> Option<&str> {
    PATH_FIELDS.iter().find_map(|field| {
        raw_input
            .get(field)
            .and_then(Value::as_str)
            .filter(|path| !path.is_empty())
    })
}

fn write_changes(paths: &WorkspacePaths, raw_input: &Value) -> Option<DeclaredChange> {
    let relative_path = paths.resolve(tool_path(raw_input)?).ok()?;
    // Without string content the path is still known: a record whose counts are unknown.
    let fragments = raw_input
        .get("content")
        .and_then(Value::as_str)
        .map(|content| vec![TextPair::new("", content)])
        .unwrap_or_default();
    Some(DeclaredChange {
        relative_path,
        action: FileAction::Created,
        fragments,
    })
}

fn edit_changes(paths: &WorkspacePaths, raw_input: &Value) -> Option<DeclaredChange> {
    let relative_path = paths.resolve(tool_path(raw_input)?).ok()?;
    let mut fragments: Vec<TextPair> = raw_input
        .get("edits")
        .and_then(Value::as_array)
        .map(|edits| edits.iter().filter_map(text_pair).collect())
        .unwrap_or_default();
    fragments.extend(text_pair(raw_input));
    // A completed edit on a valid path changed the file even if no entry was readable.
    Some(DeclaredChange {
        relative_path,
        action: FileAction::Modified,
        fragments,
    })
}

/// `{oldText, newText}` with both strings; the `old_string`/`new_string` aliases are not
/// read, on purpose (the spec limits inputs to the official shapes).
fn text_pair(value: &Value) -> Option<TextPair> {
    let old = value.get("oldText")?.as_str()?;
    let new = value.get("newText")?.as_str()?;
    Some(TextPair::new(old, new))
}

fn patch_changes(paths: &WorkspacePaths, raw_input: &Value) -> Vec<DeclaredChange> {
    let Some(text) = raw_input.get("input").and_then(Value::as_str) else {
        return Vec::new();
    };
    let Ok(patch) = parse_patch(text) else {
        return Vec::new();
    };
    let mut changes = Vec::new();
    for section in patch.sections {
        match section {
            PatchSection::Add { path, contents, .. } => {
                if let Ok(relative_path) = paths.resolve(&path) {
                    changes.push(DeclaredChange {
                        relative_path,
                        action: FileAction::Created,
                        fragments: vec![TextPair::new("", contents)],
                    });
                }
            }
            PatchSection::Delete { path, .. } => {
                if let Ok(relative_path) = paths.resolve(&path) {
                    changes.push(DeclaredChange {
                        relative_path,
                        action: FileAction::Deleted,
                        fragments: Vec::new(),
                    });
                }
            }
            PatchSection::Update {
                path,
                move_to,
                chunks,
                ..
            } => {
                let fragments: Vec<TextPair> = chunks
                    .iter()
                    .map(|chunk| TextPair::new(chunk.old_text(), chunk.new_text()))
                    .collect();
                let Ok(source) = paths.resolve(&path) else {
                    continue;
                };
                let destination = match move_to {
                    None => None,
                    Some(dest) => match paths.resolve(&dest) {
                        Ok(dest) => Some(dest),
                        // An unsafe destination drops the whole section, source included.
                        Err(_) => continue,
                    },
                };
                changes.extend(update_changes(paths, source, destination, fragments));
            }
        }
    }
    changes
}

/// An update, split into delete + create when it moves the file elsewhere.
fn update_changes(
    paths: &WorkspacePaths,
    source: String,
    destination: Option<String>,
    fragments: Vec<TextPair>,
) -> Vec<DeclaredChange> {
    let same = |a: &str, b: &str| {
        if paths.case_insensitive() {
            same_ignoring_case(a, b)
        } else {
            a == b
        }
    };
    match destination {
        Some(dest) if !same(&source, &dest) => vec![
            DeclaredChange {
                relative_path: source,
                action: FileAction::Deleted,
                fragments: Vec::new(),
            },
            DeclaredChange {
                relative_path: dest,
                action: FileAction::Created,
                fragments,
            },
        ],
        _ => vec![DeclaredChange {
            relative_path: source,
            action: FileAction::Modified,
            fragments,
        }],
    }
}

/// Keeps one spelling per path where paths ignore case, so `Src/A.rs` and `src/a.rs` in a
/// Windows workspace are one file card (the first spelling seen wins).
struct PathSpelling {
    case_insensitive: bool,
    first: HashMap<String, String>,
}

impl PathSpelling {
    fn canonical(&mut self, path: String) -> String {
        if !self.case_insensitive {
            return path;
        }
        self.first
            .entry(path.to_lowercase())
            .or_insert(path)
            .clone()
    }
}

/// Projects the tool calls of a session's turns into numbered activity records.
///
/// A `toolCallId` counts once: after a call with that id produced activity, later calls with
/// the same id are ignored (so a call first seen while pending still counts once completed).
/// Calls without an id are malformed and yield nothing.
pub fn project_tool_calls(paths: &WorkspacePaths, turns: &[TurnInput]) -> Vec<FileActivity> {
    let mut activities: Vec<FileActivity> = Vec::new();
    let mut counted: HashSet<&str> = HashSet::new();
    let mut fragment_sequence: u64 = 0;
    let mut spelling = PathSpelling {
        case_insensitive: paths.case_insensitive(),
        first: HashMap::new(),
    };
    for turn in turns {
        for call in &turn.tool_calls {
            if call.tool_call_id.is_empty()
                || counted.contains(call.tool_call_id.as_str())
                || call.status.as_deref() != Some(COMPLETED)
            {
                continue;
            }
            let Some(tool) = call.title.as_deref().and_then(tool_name_from_title) else {
                continue;
            };
            let changes = declared_changes(paths, tool, &call.raw_input);
            if changes.is_empty() {
                continue;
            }
            counted.insert(call.tool_call_id.as_str());
            for change in changes {
                let fragments = change
                    .fragments
                    .into_iter()
                    .map(|pair| {
                        let sequence = fragment_sequence;
                        fragment_sequence += 1;
                        FileChangeFragment {
                            old_text: pair.old_text,
                            new_text: pair.new_text,
                            sequence,
                        }
                    })
                    .collect();
                activities.push(FileActivity {
                    turn_id: turn.turn_id.clone(),
                    tool_call_id: call.tool_call_id.clone(),
                    tool_name: tool,
                    relative_path: spelling.canonical(change.relative_path),
                    action: change.action,
                    fragments,
                    sequence: activities.len() as u64,
                });
            }
        }
    }
    activities
}

#[cfg(test)]
mod tests {
    use super::super::session::ToolCallInput;
    use super::*;
    use serde_json::json;

    fn posix() -> WorkspacePaths {
        WorkspacePaths::new("/w", "/w").unwrap()
    }

    fn call(id: &str, title: &str, status: &str, raw_input: Value) -> ToolCallInput {
        ToolCallInput {
            tool_call_id: id.into(),
            title: Some(title.into()),
            status: Some(status.into()),
            raw_input,
        }
    }

    fn turn(id: &str, calls: Vec<ToolCallInput>) -> TurnInput {
        TurnInput {
            turn_id: id.into(),
            tool_calls: calls,
        }
    }

    fn changes(tool: ToolName, raw_input: Value) -> Vec<(String, FileAction, Vec<TextPair>)> {
        declared_changes(&posix(), tool, &raw_input)
            .into_iter()
            .map(|c| (c.relative_path, c.action, c.fragments))
            .collect()
    }

    fn patch(body: &str) -> Value {
        json!({ "input": format!("*** Begin Patch\n{body}\n*** End Patch") })
    }

    #[test]
    fn titles_table() {
        let cases = [
            ("write", Some(ToolName::Write)),
            ("Write", Some(ToolName::Write)),
            (" WRITE : x", Some(ToolName::Write)),
            ("write: /w/a.txt", Some(ToolName::Write)),
            ("edit: a.txt: more", Some(ToolName::Edit)),
            ("apply_patch", Some(ToolName::ApplyPatch)),
            ("Apply_Patch: 3 files", Some(ToolName::ApplyPatch)),
            ("Write File", None),
            ("writer:", None),
            ("apply patch", None),
            ("read: a.txt", None),
            ("", None),
            (":write", None),
        ];
        for (title, expected) in cases {
            assert_eq!(tool_name_from_title(title), expected, "{title:?}");
        }
    }

    #[test]
    fn only_completed_calls_count() {
        let input = json!({"path": "a.txt", "content": "x"});
        for status in [
            "pending",
            "in_progress",
            "running",
            "failed",
            "cancelled",
            "Completed",
            "",
        ] {
            let turns = [turn("t", vec![call("c", "write", status, input.clone())])];
            assert!(
                project_tool_calls(&posix(), &turns).is_empty(),
                "status {status:?}"
            );
        }
        let turns = [turn("t", vec![call("c", "write", "completed", input)])];
        assert_eq!(project_tool_calls(&posix(), &turns).len(), 1);
    }

    #[test]
    fn missing_title_or_status_or_id_is_malformed() {
        let input = json!({"path": "a.txt", "content": "x"});
        let mut no_title = call("c", "write", "completed", input.clone());
        no_title.title = None;
        let mut no_status = call("c", "write", "completed", input.clone());
        no_status.status = None;
        let no_id = call("", "write", "completed", input);
        for c in [no_title, no_status, no_id] {
            assert!(project_tool_calls(&posix(), &[turn("t", vec![c])]).is_empty());
        }
    }

    #[test]
    fn path_field_precedence() {
        let cases = [
            (
                json!({"path": "1", "file_path": "2", "filePath": "3", "file": "4"}),
                "1",
            ),
            (json!({"file_path": "2", "filePath": "3", "file": "4"}), "2"),
            (json!({"filePath": "3", "file": "4"}), "3"),
            (json!({"file": "4"}), "4"),
            (json!({"path": "", "file_path": 7, "filePath": "3"}), "3"),
        ];
        for (input, expected) in cases {
            assert_eq!(tool_path(&input), Some(expected), "{input}");
        }
        assert_eq!(tool_path(&json!({"filename": "x"})), None);
        assert_eq!(tool_path(&json!("a.txt")), None);
    }

    #[test]
    fn write_shapes() {
        assert_eq!(
            changes(ToolName::Write, json!({"path": "a.txt", "content": "hi\n"})),
            vec![(
                "a.txt".into(),
                FileAction::Created,
                vec![TextPair::new("", "hi\n")]
            )]
        );
        // Path-only: a record without fragments, so its counts will be unknown.
        assert_eq!(
            changes(ToolName::Write, json!({"path": "a.txt", "content": 5})),
            vec![("a.txt".into(), FileAction::Created, vec![])]
        );
        assert!(changes(ToolName::Write, json!({"content": "x"})).is_empty());
        assert!(changes(ToolName::Write, json!({"path": "../x", "content": "x"})).is_empty());
        assert!(changes(ToolName::Write, Value::Null).is_empty());
    }

    #[test]
    fn edit_shapes() {
        let input = json!({
            "file_path": "src/a.rs",
            "edits": [
                {"oldText": "a", "newText": "b"},
                {"oldText": "c"},
                {"old_string": "d", "new_string": "e"},
                "junk",
                {"oldText": 1, "newText": "x"},
                {"oldText": "f", "newText": "g"}
            ],
            "oldText": "h",
            "newText": "i"
        });
        assert_eq!(
            changes(ToolName::Edit, input),
            vec![(
                "src/a.rs".into(),
                FileAction::Modified,
                vec![
                    TextPair::new("a", "b"),
                    TextPair::new("f", "g"),
                    TextPair::new("h", "i")
                ]
            )]
        );
        // `old_string`/`new_string` are not read: a path-only modified record remains.
        assert_eq!(
            changes(
                ToolName::Edit,
                json!({"path": "a", "old_string": "x", "new_string": "y"})
            ),
            vec![("a".into(), FileAction::Modified, vec![])]
        );
    }

    #[test]
    fn patch_sections_and_unsafe_hunks() {
        let input = patch(
            "*** Add File: new.txt\n+n\n*** Add File: ../escape.txt\n+e\n*** Delete File: old.txt\n*** Delete File: /etc/passwd\n*** Update File: u.txt\n@@\n-a\n+b\n*** Update File: /w/../x\n-q",
        );
        assert_eq!(
            changes(ToolName::ApplyPatch, input),
            vec![
                (
                    "new.txt".into(),
                    FileAction::Created,
                    vec![TextPair::new("", "n\n")]
                ),
                ("old.txt".into(), FileAction::Deleted, vec![]),
                (
                    "u.txt".into(),
                    FileAction::Modified,
                    vec![TextPair::new("a", "b")]
                ),
            ]
        );
    }

    #[test]
    fn patch_grammar_error_rejects_everything() {
        let input = patch("*** Add File: a.txt\n+a\n*** Update File: b.txt\n@@");
        assert!(changes(ToolName::ApplyPatch, input).is_empty());
        assert!(changes(ToolName::ApplyPatch, json!({"patch": "x"})).is_empty());
    }

    #[test]
    fn moves_split_collapse_or_drop() {
        let split = patch("*** Update File: a.txt\n*** Move to: dir/b.txt\n-x\n+y");
        assert_eq!(
            changes(ToolName::ApplyPatch, split),
            vec![
                ("a.txt".into(), FileAction::Deleted, vec![]),
                (
                    "dir/b.txt".into(),
                    FileAction::Created,
                    vec![TextPair::new("x", "y")]
                ),
            ]
        );
        let collapse = patch("*** Update File: a.txt\n*** Move to: ./sub/../a.txt\n-x\n+y");
        assert_eq!(
            changes(ToolName::ApplyPatch, collapse),
            vec![(
                "a.txt".into(),
                FileAction::Modified,
                vec![TextPair::new("x", "y")]
            )]
        );
        let unsafe_dest = patch(
            "*** Update File: a.txt\n*** Move to: ../../b.txt\n-x\n+y\n*** Delete File: c.txt",
        );
        assert_eq!(
            changes(ToolName::ApplyPatch, unsafe_dest),
            vec![("c.txt".into(), FileAction::Deleted, vec![])]
        );
        let unsafe_source = patch("*** Update File: /etc/a\n*** Move to: b.txt\n-x");
        assert!(changes(ToolName::ApplyPatch, unsafe_source).is_empty());
    }

    #[test]
    fn windows_move_collapses_ignoring_case_and_spelling_is_unified() {
        let paths = WorkspacePaths::new("C:\\w", "C:\\w").unwrap();
        let moved = json!({"input": "*** Begin Patch\n*** Update File: Src\\A.rs\n*** Move to: src/a.RS\n-x\n*** End Patch"});
        let turns = [turn(
            "t",
            vec![
                call("c1", "apply_patch", "completed", moved),
                call(
                    "c2",
                    "edit",
                    "completed",
                    json!({"path": "C:\\W\\SRC\\a.rs", "oldText": "y", "newText": "z"}),
                ),
            ],
        )];
        let records = project_tool_calls(&paths, &turns);
        let shape: Vec<(&str, FileAction)> = records
            .iter()
            .map(|r| (r.relative_path.as_str(), r.action))
            .collect();
        assert_eq!(
            shape,
            vec![
                ("Src/A.rs", FileAction::Modified),
                ("Src/A.rs", FileAction::Modified)
            ]
        );
    }

    #[test]
    fn duplicate_ids_count_once_and_sequences_are_derived() {
        let write = json!({"path": "a.txt", "content": "x"});
        let edit = json!({"path": "a.txt", "edits": [{"oldText": "x", "newText": "y"}, {"oldText": "y", "newText": "z"}]});
        let turns = [
            turn(
                "t1",
                vec![
                    call("c1", "write", "pending", write.clone()),
                    call("c1", "write", "completed", write.clone()),
                    call("c1", "write", "completed", write.clone()),
                ],
            ),
            turn(
                "t2",
                vec![
                    call("c1", "write", "completed", write),
                    call("c2", "edit", "completed", edit),
                ],
            ),
        ];
        let records = project_tool_calls(&posix(), &turns);
        let shape: Vec<(&str, &str, u64, Vec<u64>)> = records
            .iter()
            .map(|r| {
                (
                    r.turn_id.as_str(),
                    r.tool_call_id.as_str(),
                    r.sequence,
                    r.fragments.iter().map(|f| f.sequence).collect(),
                )
            })
            .collect();
        assert_eq!(
            shape,
            vec![("t1", "c1", 0, vec![0]), ("t2", "c2", 1, vec![1, 2])]
        );
    }

    #[test]
    fn roots_of_each_family() {
        let cases = [
            ("/w", "/w/sub", "../a.txt", Some("a.txt")),
            ("/w", "/w/sub", "../../a.txt", None),
            ("/root", "/root", "/rooted/a.txt", None),
            ("/w", "/w", "C:\\w\\a.txt", None),
            ("C:\\w", "C:\\w\\sub", "..\\a.txt", Some("a.txt")),
            ("C:\\w", "C:\\w", "/w/a.txt", None),
            ("C:\\w", "C:\\w", "C:a.txt", None),
            ("C:\\w", "C:\\w", "c:\\W\\a.txt", Some("a.txt")),
            (
                "\\\\h\\s\\w",
                "\\\\h\\s\\w",
                "\\\\H\\S\\w\\a.txt",
                Some("a.txt"),
            ),
            ("\\\\h\\s\\w", "\\\\h\\s\\w", "C:\\w\\a.txt", None),
        ];
        for (root, cwd, path, expected) in cases {
            let paths = WorkspacePaths::new(root, cwd).unwrap();
            let got = declared_changes(
                &paths,
                ToolName::Write,
                &json!({"path": path, "content": ""}),
            );
            assert_eq!(
                got.first().map(|c| c.relative_path.as_str()),
                expected,
                "{root} {cwd} {path}"
            );
        }
    }
}
