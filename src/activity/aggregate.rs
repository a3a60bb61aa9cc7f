//! From activity records to what a chat client shows: file cards per turn and the
//! session-wide Changes view.
//!
//! A turn may touch one file several times; the client still shows one button per path, so
//! records are folded per turn and path ([`TurnPathEntry`]). The Changes view regroups those
//! entries by path, in the order files were first touched, each listing its turns in order.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::display_diff::{compose_display_diff, DiffStep, DisplayDiff};
use super::line_counts::{sum_line_counts, LineCounts};
use super::records::{FileAction, FileActivity, ToolName};

/// Everything one turn did to one path, folded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnPathEntry {
    /// The turn.
    pub turn_id: String,
    /// The path relative to the workspace root.
    pub relative_path: String,
    /// The folded action (see [`fold_action`]).
    pub action: FileAction,
    /// The tool calls that touched the path in this turn, in order, each once.
    pub tool_call_ids: Vec<String>,
    /// Line counts over the distinct fragments; `None` when there is none to count.
    pub counts: Option<LineCounts>,
    /// The display diff; `None` when there is no fragment to show.
    pub diff: Option<DisplayDiff>,
}

/// One file card of a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileSummary {
    /// The path relative to the workspace root.
    pub relative_path: String,
    /// The folded action.
    pub action: FileAction,
    /// Lines added, or `null` when unknown.
    pub added: Option<u64>,
    /// Lines removed, or `null` when unknown.
    pub removed: Option<u64>,
}

/// The file cards of one turn, in the order the turn first touched each path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnFiles {
    /// The turn.
    pub turn_id: String,
    /// One entry per path.
    pub files: Vec<FileSummary>,
}

/// One turn's change to one file in the Changes view: at most one diff per turn and path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnChange {
    /// The turn.
    pub turn_id: String,
    /// The folded action; `deleted` marks a file this turn removed.
    pub action: FileAction,
    /// Lines added, or `null` when unknown.
    pub added: Option<u64>,
    /// Lines removed, or `null` when unknown.
    pub removed: Option<u64>,
    /// The tool calls behind this change, in order.
    pub tool_call_ids: Vec<String>,
    /// What to show; `null` when the calls declared no text (a delete, a path-only write).
    pub diff: Option<DisplayDiff>,
}

/// One file in the Changes view with its turns in chronological order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PathChanges {
    /// The path relative to the workspace root.
    pub relative_path: String,
    /// Whether the file's last change in the session deleted it.
    pub deleted: bool,
    /// The turns that changed the file, in order.
    pub turns: Vec<TurnChange>,
}

/// Folds the actions of one turn on one path: a later `deleted` or `created` wins, a later
/// `modified` keeps an earlier `created` (editing what was just written is still a create)
/// and otherwise reads `modified`. `None` for no actions.
pub fn fold_action<I: IntoIterator<Item = FileAction>>(actions: I) -> Option<FileAction> {
    actions.into_iter().reduce(|folded, next| match next {
        FileAction::Modified if folded == FileAction::Created => FileAction::Created,
        other => other,
    })
}

/// Whether a record states a whole document rather than a piece of one: a `write` with
/// content, or an added file. A moved-in file also reads `created` but carries update
/// fragments; it is told apart by not being a single text from nothing.
pub fn is_full_document(activity: &FileActivity) -> bool {
    activity.action == FileAction::Created
        && matches!(activity.tool_name, ToolName::Write | ToolName::ApplyPatch)
        && matches!(activity.fragments.as_slice(), [only] if only.old_text.is_empty())
}

/// Folds one turn's records for one path (given in order) into its entry.
pub fn fold_turn_path(records: &[&FileActivity]) -> Option<TurnPathEntry> {
    let first = records.first()?;
    let action = fold_action(records.iter().map(|record| record.action))?;
    let mut tool_call_ids: Vec<String> = Vec::new();
    for record in records {
        if !tool_call_ids.contains(&record.tool_call_id) {
            tool_call_ids.push(record.tool_call_id.clone());
        }
    }
    let steps: Vec<DiffStep<'_>> = records
        .iter()
        .flat_map(|record| {
            let full_document = is_full_document(record);
            record.fragments.iter().map(move |fragment| DiffStep {
                old_text: &fragment.old_text,
                new_text: &fragment.new_text,
                full_document,
            })
        })
        .collect();
    // A change reported twice is counted once, as it is shown once.
    let mut seen = HashSet::new();
    let counts = sum_line_counts(
        steps
            .iter()
            .filter(|step| seen.insert((step.old_text, step.new_text)))
            .map(|step| (step.old_text, step.new_text)),
    );
    Some(TurnPathEntry {
        turn_id: first.turn_id.clone(),
        relative_path: first.relative_path.clone(),
        action,
        tool_call_ids,
        counts,
        diff: compose_display_diff(&steps),
    })
}

/// Folds records into one entry per turn and path: turns in order of first appearance,
/// paths within a turn in order of first activity.
pub fn turn_path_entries(activities: &[FileActivity]) -> Vec<TurnPathEntry> {
    let mut groups: Vec<Vec<&FileActivity>> = Vec::new();
    let mut turn_order: Vec<&str> = Vec::new();
    let mut per_turn: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut index: HashMap<(&str, &str), usize> = HashMap::new();
    for activity in activities {
        let key = (activity.turn_id.as_str(), activity.relative_path.as_str());
        match index.get(&key) {
            Some(&group) => {
                if let Some(records) = groups.get_mut(group) {
                    records.push(activity);
                }
            }
            None => {
                index.insert(key, groups.len());
                per_turn
                    .entry(key.0)
                    .or_insert_with(|| {
                        turn_order.push(key.0);
                        Vec::new()
                    })
                    .push(groups.len());
                groups.push(vec![activity]);
            }
        }
    }
    turn_order
        .iter()
        .filter_map(|turn| per_turn.get(turn))
        .flatten()
        .filter_map(|&group| groups.get(group))
        .filter_map(|records| fold_turn_path(records))
        .collect()
}

/// The file cards per turn, turns in order of first appearance.
pub fn turn_files(entries: &[TurnPathEntry]) -> Vec<TurnFiles> {
    let mut turns: Vec<TurnFiles> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for entry in entries {
        let summary = FileSummary {
            relative_path: entry.relative_path.clone(),
            action: entry.action,
            added: entry.counts.map(|c| c.added),
            removed: entry.counts.map(|c| c.removed),
        };
        let slot = *index.entry(entry.turn_id.as_str()).or_insert_with(|| {
            turns.push(TurnFiles {
                turn_id: entry.turn_id.clone(),
                files: Vec::new(),
            });
            turns.len() - 1
        });
        if let Some(turn) = turns.get_mut(slot) {
            turn.files.push(summary);
        }
    }
    turns
}

/// The Changes view: paths in order of first activity in `activities`, each with its turns
/// in the order of `entries` (chronological when built by [`turn_path_entries`]).
pub fn session_changes(
    activities: &[FileActivity],
    entries: Vec<TurnPathEntry>,
) -> Vec<PathChanges> {
    let mut by_path: HashMap<String, Vec<TurnChange>> = HashMap::new();
    for entry in entries {
        by_path
            .entry(entry.relative_path)
            .or_default()
            .push(TurnChange {
                turn_id: entry.turn_id,
                action: entry.action,
                added: entry.counts.map(|c| c.added),
                removed: entry.counts.map(|c| c.removed),
                tool_call_ids: entry.tool_call_ids,
                diff: entry.diff,
            });
    }
    let mut changes = Vec::new();
    for activity in activities {
        // Taking the group out means each path is listed once, at its first activity.
        let Some(turns) = by_path.remove(activity.relative_path.as_str()) else {
            continue;
        };
        let deleted = turns
            .last()
            .is_some_and(|turn| turn.action == FileAction::Deleted);
        changes.push(PathChanges {
            relative_path: activity.relative_path.clone(),
            deleted,
            turns,
        });
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::super::records::FileChangeFragment;
    use super::*;
    use FileAction::*;

    fn record(
        turn: &str,
        call: &str,
        tool: ToolName,
        path: &str,
        action: FileAction,
        fragments: &[(&str, &str)],
    ) -> FileActivity {
        FileActivity {
            turn_id: turn.into(),
            tool_call_id: call.into(),
            tool_name: tool,
            relative_path: path.into(),
            action,
            fragments: fragments
                .iter()
                .enumerate()
                .map(|(i, (old, new))| FileChangeFragment {
                    old_text: old.to_string(),
                    new_text: new.to_string(),
                    sequence: i as u64,
                })
                .collect(),
            sequence: 0,
        }
    }

    fn write(turn: &str, call: &str, path: &str, content: &str) -> FileActivity {
        record(turn, call, ToolName::Write, path, Created, &[("", content)])
    }

    fn edit(turn: &str, call: &str, path: &str, old: &str, new: &str) -> FileActivity {
        record(turn, call, ToolName::Edit, path, Modified, &[(old, new)])
    }

    fn delete(turn: &str, call: &str, path: &str) -> FileActivity {
        record(turn, call, ToolName::ApplyPatch, path, Deleted, &[])
    }

    #[test]
    fn action_fold_table() {
        let cases: Vec<(Vec<FileAction>, Option<FileAction>)> = vec![
            (vec![], None),
            (vec![Modified], Some(Modified)),
            (vec![Created, Modified], Some(Created)),
            (vec![Created, Modified, Modified], Some(Created)),
            (vec![Modified, Created], Some(Created)),
            (vec![Created, Deleted], Some(Deleted)),
            (vec![Modified, Deleted], Some(Deleted)),
            (vec![Deleted, Created], Some(Created)),
            (vec![Deleted, Modified], Some(Modified)),
            (vec![Created, Deleted, Modified], Some(Modified)),
        ];
        for (actions, expected) in cases {
            assert_eq!(fold_action(actions.clone()), expected, "{actions:?}");
        }
    }

    #[test]
    fn one_entry_per_turn_and_path_in_first_activity_order() {
        let activities = vec![
            write("t1", "c1", "b.txt", "b\n"),
            write("t1", "c2", "a.txt", "a\n"),
            edit("t1", "c3", "b.txt", "b", "B"),
            edit("t2", "c4", "a.txt", "a", "A"),
        ];
        let entries = turn_path_entries(&activities);
        let keys: Vec<(&str, &str, FileAction)> = entries
            .iter()
            .map(|e| (e.turn_id.as_str(), e.relative_path.as_str(), e.action))
            .collect();
        assert_eq!(
            keys,
            vec![
                ("t1", "b.txt", Created),
                ("t1", "a.txt", Created),
                ("t2", "a.txt", Modified)
            ]
        );
        assert_eq!(entries[0].tool_call_ids, vec!["c1", "c3"]);
        assert_eq!(
            entries[0].diff,
            Some(DisplayDiff::Composed {
                old_text: "".into(),
                new_text: "B\n".into()
            })
        );
        // Counts sum fragments: +1 for the write, +1 −1 for the edit.
        assert_eq!(
            entries[0].counts,
            Some(LineCounts {
                added: 2,
                removed: 1
            })
        );
    }

    #[test]
    fn turn_files_and_unknown_counts() {
        let activities = vec![
            record("t1", "c1", ToolName::Write, "p.txt", Created, &[]),
            delete("t1", "c2", "gone.txt"),
            edit("t2", "c3", "p.txt", "x\r\ny\r\n", "x\ny\nz\n"),
        ];
        let turns = turn_files(&turn_path_entries(&activities));
        assert_eq!(
            serde_json::to_value(&turns).unwrap(),
            serde_json::json!([
                {"turnId": "t1", "files": [
                    {"relativePath": "p.txt", "action": "created", "added": null, "removed": null},
                    {"relativePath": "gone.txt", "action": "deleted", "added": null, "removed": null}
                ]},
                {"turnId": "t2", "files": [
                    {"relativePath": "p.txt", "action": "modified", "added": 1, "removed": 0}
                ]}
            ])
        );
    }

    #[test]
    fn duplicate_fragments_count_once() {
        let activities = vec![
            edit("t1", "c1", "a", "x", "y"),
            record(
                "t1",
                "c2",
                ToolName::Edit,
                "a",
                Modified,
                &[("x", "y"), ("q", "r")],
            ),
        ];
        let entries = turn_path_entries(&activities);
        assert_eq!(
            entries[0].counts,
            Some(LineCounts {
                added: 2,
                removed: 2
            })
        );
    }

    #[test]
    fn full_document_detection() {
        assert!(is_full_document(&write("t", "c", "a", "x")));
        assert!(is_full_document(&record(
            "t",
            "c",
            ToolName::ApplyPatch,
            "a",
            Created,
            &[("", "x\n")]
        )));
        assert!(!is_full_document(&record(
            "t",
            "c",
            ToolName::ApplyPatch,
            "a",
            Created,
            &[("a", "b")]
        )));
        assert!(!is_full_document(&edit("t", "c", "a", "", "x")));
        assert!(!is_full_document(&record(
            "t",
            "c",
            ToolName::Write,
            "a",
            Created,
            &[]
        )));
    }

    #[test]
    fn changes_group_by_path_in_first_activity_order() {
        let activities = vec![
            write("t1", "c1", "z.txt", "1\n"),
            write("t1", "c2", "a.txt", "a\n"),
            edit("t2", "c3", "a.txt", "a", "b"),
            edit("t2", "c4", "z.txt", "1", "2"),
            delete("t3", "c5", "z.txt"),
            write("t3", "c6", "m.txt", "m"),
        ];
        let entries = turn_path_entries(&activities);
        let changes = session_changes(&activities, entries);
        type Shape<'a> = (&'a str, bool, Vec<(&'a str, FileAction)>);
        let shape: Vec<Shape<'_>> = changes
            .iter()
            .map(|c| {
                (
                    c.relative_path.as_str(),
                    c.deleted,
                    c.turns
                        .iter()
                        .map(|t| (t.turn_id.as_str(), t.action))
                        .collect(),
                )
            })
            .collect();
        assert_eq!(
            shape,
            vec![
                (
                    "z.txt",
                    true,
                    vec![("t1", Created), ("t2", Modified), ("t3", Deleted)]
                ),
                ("a.txt", false, vec![("t1", Created), ("t2", Modified)]),
                ("m.txt", false, vec![("t3", Created)]),
            ]
        );
        let deleted_turn = &changes[0].turns[2];
        assert_eq!(
            (deleted_turn.added, deleted_turn.removed, &deleted_turn.diff),
            (None, None, &None)
        );
    }

    #[test]
    fn empty_session_has_no_changes() {
        assert!(turn_path_entries(&[]).is_empty());
        assert!(session_changes(&[], Vec::new()).is_empty());
        assert!(turn_files(&[]).is_empty());
    }

    #[test]
    fn move_destination_fragments_do_not_replace_a_write() {
        // A write, then the same turn moves another file onto the path with an update chunk.
        let activities = vec![
            write("t1", "c1", "a.txt", "one\ntwo\n"),
            record(
                "t1",
                "c2",
                ToolName::ApplyPatch,
                "a.txt",
                Created,
                &[("two", "TWO"), ("one", "ONE")],
            ),
        ];
        let entries = turn_path_entries(&activities);
        assert_eq!(
            entries[0].diff,
            Some(DisplayDiff::Composed {
                old_text: "".into(),
                new_text: "ONE\nTWO\n".into()
            })
        );
    }
}
