//! The session's Changes view as a diff model: grouped by file in order of first activity,
//! one diff per turn and path, deleted files marked.
//!
//! Each entry is labelled with its turn (`notes.md · turn t2`), since a file changed in
//! several turns appears once per turn. A turn whose edits could not be composed into one
//! before/after pair is shown as its fragments joined by a blank line and labelled as
//! separate edits, so the page never claims they form one patch.

use crate::diff::{diff_texts, DiffModel, FileDiff, FileStatus};

use super::aggregate::PathChanges;
use super::display_diff::DisplayDiff;
use super::records::FileAction;

/// Builds the Changes view's model from the session's grouped changes.
pub fn changes_model(changes: &[PathChanges]) -> DiffModel {
    let mut files = Vec::new();
    for group in changes {
        for turn in &group.turns {
            let mut label = format!("{} · turn {}", group.relative_path, turn.turn_id);
            let file = match (&turn.diff, turn.action) {
                (None, FileAction::Deleted) => deleted(label),
                (None, _) => no_text(label, turn.action),
                (Some(diff), action) => {
                    if matches!(diff, DisplayDiff::Fragments { .. }) {
                        label.push_str(" (separate edits)");
                    }
                    // Changed, then deleted in the same turn: the rows show what the turn
                    // wrote, the badge that the file is gone at the turn's end.
                    if action == FileAction::Deleted {
                        label.push_str(if diff.old_text().is_empty() {
                            " (written, then deleted)"
                        } else {
                            " (changed, then deleted)"
                        });
                    }
                    let mut model = diff_texts(Some(&label), diff.old_text(), diff.new_text());
                    match model.files.pop() {
                        Some(mut file) => {
                            if action == FileAction::Created && diff.old_text().is_empty() {
                                file.status = FileStatus::Added;
                                file.old_path = None;
                            } else if action == FileAction::Deleted {
                                file.status = FileStatus::Deleted;
                                file.new_path = None;
                            }
                            file
                        }
                        // Identical texts (e.g. a rewrite with the same content): nothing
                        // changed in this turn, which is still worth a row.
                        None => no_text(label, action),
                    }
                }
            };
            files.push(file);
        }
    }
    DiffModel { files }
}

/// A deletion the tool calls did not give the text of: what it removed is unknown.
fn deleted(label: String) -> FileDiff {
    FileDiff {
        old_path: Some(label),
        new_path: None,
        status: FileStatus::Deleted,
        text_unknown: true,
        ..empty()
    }
}

/// A change whose text the tool calls did not state (e.g. a path-only write).
fn no_text(label: String, action: FileAction) -> FileDiff {
    let status = match action {
        FileAction::Created => FileStatus::Added,
        FileAction::Deleted => FileStatus::Deleted,
        FileAction::Modified => FileStatus::Modified,
    };
    FileDiff {
        old_path: (action != FileAction::Created).then(|| label.clone()),
        new_path: (action != FileAction::Deleted).then_some(label),
        status,
        text_unknown: true,
        ..empty()
    }
}

fn empty() -> FileDiff {
    FileDiff {
        old_path: None,
        new_path: None,
        status: FileStatus::Modified,
        similarity: None,
        old_mode: None,
        new_mode: None,
        is_binary: false,
        additions: 0,
        deletions: 0,
        hunks: Vec::new(),
        full_text_known: false,
        full_text: None,
        text_unknown: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::activity::aggregate::TurnChange;

    fn turn(id: &str, action: FileAction, diff: Option<DisplayDiff>) -> TurnChange {
        TurnChange {
            turn_id: id.into(),
            action,
            added: None,
            removed: None,
            tool_call_ids: vec![],
            diff,
        }
    }

    #[test]
    fn one_diff_per_turn_and_path_in_group_order() {
        let changes = vec![
            PathChanges {
                relative_path: "a.md".into(),
                deleted: true,
                turns: vec![
                    turn(
                        "t1",
                        FileAction::Created,
                        Some(DisplayDiff::Composed {
                            old_text: String::new(),
                            new_text: "x\ny\n".into(),
                        }),
                    ),
                    turn("t2", FileAction::Deleted, None),
                ],
            },
            PathChanges {
                relative_path: "b.rs".into(),
                deleted: false,
                turns: vec![turn(
                    "t1",
                    FileAction::Modified,
                    Some(DisplayDiff::Fragments {
                        old_text: "a\n\nc\n".into(),
                        new_text: "b\n\nd\n".into(),
                        fragments: vec![],
                    }),
                )],
            },
        ];
        let model = changes_model(&changes);
        let labels: Vec<_> = model
            .files
            .iter()
            .map(|f| (f.old_path.clone(), f.new_path.clone(), f.status))
            .collect();
        assert_eq!(
            labels,
            vec![
                (None, Some("a.md · turn t1".into()), FileStatus::Added),
                (Some("a.md · turn t2".into()), None, FileStatus::Deleted),
                (
                    Some("b.rs · turn t1 (separate edits)".into()),
                    Some("b.rs · turn t1 (separate edits)".into()),
                    FileStatus::Modified
                ),
            ]
        );
        assert_eq!(model.files[0].additions, 2);
        assert_eq!((model.files[2].additions, model.files[2].deletions), (2, 2));
    }

    fn page(model: &DiffModel) -> String {
        let options = crate::diff::view::ViewOptions::from_defaults(
            &crate::diff::options::DiffDefaults::default(),
            "Changes",
        );
        crate::diff::view::render(model, &options)
    }

    #[test]
    fn a_file_written_then_deleted_in_one_turn_is_shown_deleted() {
        let changes = vec![PathChanges {
            relative_path: "tmp.txt".into(),
            deleted: true,
            turns: vec![turn(
                "t1",
                FileAction::Deleted,
                Some(DisplayDiff::Composed {
                    old_text: String::new(),
                    new_text: "scratch\n".into(),
                }),
            )],
        }];
        let model = changes_model(&changes);
        let file = &model.files[0];
        assert_eq!(file.status, FileStatus::Deleted);
        assert_eq!(
            file.old_path.as_deref(),
            Some("tmp.txt · turn t1 (written, then deleted)")
        );
        assert_eq!(file.new_path, None);
        let html = page(&model);
        assert!(html.contains("class=\"badge deleted\""), "{html}");
        assert!(!html.contains("class=\"badge added\""), "{html}");
    }

    #[test]
    fn changes_without_text_show_no_invented_counts() {
        // Path-only records: the activity contract gives their counts as unavailable.
        let changes = vec![
            PathChanges {
                relative_path: "new.bin".into(),
                deleted: false,
                turns: vec![turn("t1", FileAction::Created, None)],
            },
            PathChanges {
                relative_path: "old.txt".into(),
                deleted: true,
                turns: vec![turn("t1", FileAction::Deleted, None)],
            },
            PathChanges {
                relative_path: "m.txt".into(),
                deleted: false,
                turns: vec![turn("t1", FileAction::Modified, None)],
            },
        ];
        let model = changes_model(&changes);
        assert!(model.files.iter().all(|f| f.text_unknown));
        let html = page(&model);
        for invented in [
            "+0",
            "-0",
            "Empty file added.",
            "Empty file deleted.",
            "No content changes.",
        ] {
            assert!(!html.contains(invented), "{invented:?} in {html}");
        }
        assert_eq!(html.matches("no line counts").count(), 6, "{html}");
        assert!(html.contains("3 without line counts"), "{html}");
        assert!(html.contains("File deleted; the tool call did not state its text."));
    }

    #[test]
    fn an_empty_session_has_no_files() {
        assert!(changes_model(&[]).files.is_empty());
    }
}
