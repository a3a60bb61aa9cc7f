//! Before/after texts → model: hunks with three lines of context, line numbers, the
//! newline-at-end rule, word spans, and the data that expands collapsed gaps.

use crate::diff::{diff_texts, FileStatus, Gap, LineKind, WordSpan};

fn numbered(n: usize) -> String {
    (1..=n).map(|i| format!("line {i}\n")).collect()
}

#[test]
fn one_changed_line_gives_one_hunk_with_context() {
    let before = numbered(20);
    let after = before.replace("line 10\n", "line ten\n");
    let model = diff_texts(Some("notes.txt"), &before, &after);
    let file = &model.files[0];
    assert_eq!(file.status, FileStatus::Modified);
    assert_eq!(
        (file.old_path.as_deref(), file.new_path.as_deref()),
        (Some("notes.txt"), Some("notes.txt"))
    );
    assert_eq!((file.additions, file.deletions), (1, 1));
    assert!(file.full_text_known);
    assert_eq!(file.hunks.len(), 1);
    let h = &file.hunks[0];
    assert_eq!(
        (h.old_start, h.old_count, h.new_start, h.new_count),
        (7, 7, 7, 7)
    );
    let kinds: Vec<LineKind> = h.lines.iter().map(|l| l.kind).collect();
    use LineKind::*;
    assert_eq!(
        kinds,
        [Context, Context, Context, Delete, Add, Context, Context, Context]
    );
    assert_eq!(
        (
            h.lines[0].old_line,
            h.lines[0].new_line,
            h.lines[0].text.as_str()
        ),
        (Some(7), Some(7), "line 7")
    );
    assert_eq!((h.lines[3].old_line, h.lines[3].new_line), (Some(10), None));
    assert_eq!((h.lines[4].old_line, h.lines[4].new_line), (None, Some(10)));
    assert_eq!(h.lines[3].spans, vec![WordSpan { start: 5, end: 7 }]);
    assert_eq!(h.lines[4].spans, vec![WordSpan { start: 5, end: 8 }]);
}

#[test]
fn gaps_around_the_hunk_expand_from_the_full_text() {
    let before = numbered(20);
    let after = before.replace("line 10\n", "line ten\n");
    let model = diff_texts(None, &before, &after);
    let file = &model.files[0];
    let gaps = file.gaps();
    assert_eq!(
        gaps,
        [
            Gap {
                before_hunk: 0,
                old_start: 1,
                new_start: 1,
                len: 6
            },
            Gap {
                before_hunk: 1,
                old_start: 14,
                new_start: 14,
                len: 7
            },
        ]
    );
    assert_eq!(
        file.gap_lines(&gaps[0]).unwrap(),
        ["line 1", "line 2", "line 3", "line 4", "line 5", "line 6"]
    );
    assert_eq!(file.gap_lines(&gaps[1]).unwrap().last().unwrap(), "line 20");
    let full = file.full_text.as_ref().unwrap();
    assert_eq!(
        (
            full.old_line_count,
            full.new_lines.len(),
            full.new_missing_newline
        ),
        (20, 20, false)
    );
}

#[test]
fn distant_changes_make_two_hunks_and_a_middle_gap() {
    let before = numbered(30);
    let after = before
        .replace("line 5\n", "line five\n")
        .replace("line 25\n", "");
    let file = &diff_texts(None, &before, &after).files[0];
    assert_eq!(file.hunks.len(), 2);
    let h2 = &file.hunks[1];
    assert_eq!(
        (h2.old_start, h2.old_count, h2.new_start, h2.new_count),
        (22, 7, 22, 6)
    );
    let middle = file
        .gaps()
        .into_iter()
        .find(|g| g.before_hunk == 1)
        .unwrap();
    assert_eq!((middle.old_start, middle.new_start, middle.len), (9, 9, 13));
    assert_eq!(file.gap_lines(&middle).unwrap()[0], "line 9");
    // After the second hunk: old 29..30 ↔ new 28..29.
    let tail = file
        .gaps()
        .into_iter()
        .find(|g| g.before_hunk == 2)
        .unwrap();
    assert_eq!((tail.old_start, tail.new_start, tail.len), (29, 28, 2));
    assert_eq!(file.gap_lines(&tail).unwrap(), ["line 29", "line 30"]);
}

#[test]
fn adding_a_trailing_newline_changes_the_last_line() {
    let file = &diff_texts(None, "a\nb", "a\nb\n").files[0];
    let lines: Vec<(LineKind, &str, bool)> = file.hunks[0]
        .lines
        .iter()
        .map(|l| (l.kind, l.text.as_str(), l.no_newline))
        .collect();
    assert_eq!(
        lines,
        [
            (LineKind::Context, "a", false),
            (LineKind::Delete, "b", true),
            (LineKind::Add, "b", false),
        ]
    );
}

#[test]
fn empty_before_is_all_additions_from_line_zero() {
    let file = &diff_texts(Some("new.txt"), "", "x\ny\n").files[0];
    let h = &file.hunks[0];
    assert_eq!(
        (h.old_start, h.old_count, h.new_start, h.new_count),
        (0, 0, 1, 2)
    );
    assert_eq!((file.additions, file.deletions), (2, 0));
    assert!(file.gaps().is_empty());
}

#[test]
fn crlf_versus_lf_is_a_visible_change() {
    let file = &diff_texts(None, "a\nb\n", "a\r\nb\n").files[0];
    let h = &file.hunks[0];
    assert_eq!(h.lines[0].text, "a");
    assert_eq!(h.lines[1].text, "a\r");
    assert_eq!((file.additions, file.deletions), (1, 1));
}

#[test]
fn word_spans_sit_on_char_boundaries() {
    let file = &diff_texts(None, "naïve café ok\n", "naïve crème ok\n").files[0];
    let add = file.hunks[0]
        .lines
        .iter()
        .find(|l| l.kind == LineKind::Add)
        .unwrap();
    let del = file.hunks[0]
        .lines
        .iter()
        .find(|l| l.kind == LineKind::Delete)
        .unwrap();
    assert_eq!(&add.text[add.spans[0].start..add.spans[0].end], "crème");
    assert_eq!(&del.text[del.spans[0].start..del.spans[0].end], "café");
}

#[test]
fn neighbouring_changed_words_merge_across_a_space() {
    let file = &diff_texts(None, "let total = a + b;\n", "let sum = x * b;\n").files[0];
    let add = file.hunks[0]
        .lines
        .iter()
        .find(|l| l.kind == LineKind::Add)
        .unwrap();
    let shown: Vec<&str> = add
        .spans
        .iter()
        .map(|s| &add.text[s.start..s.end])
        .collect();
    assert_eq!(shown, ["sum", "x *"]);
}

#[test]
fn wholly_different_lines_get_no_spans() {
    let file = &diff_texts(None, "alpha beta\n", "gamma delta\n").files[0];
    assert!(file.hunks[0].lines.iter().all(|l| l.spans.is_empty()));
}

#[test]
fn unequal_change_runs_pair_in_order() {
    let file = &diff_texts(None, "x = 1\ny = 2\n", "x = 10\n").files[0];
    let lines = &file.hunks[0].lines;
    // `x = 1` pairs with `x = 10`; `y = 2` has no partner and no spans.
    assert_eq!(lines[0].spans, vec![WordSpan { start: 4, end: 5 }]);
    assert!(lines[1].spans.is_empty());
    assert_eq!(lines[2].spans, vec![WordSpan { start: 4, end: 6 }]);
}

#[test]
fn row_counts_follow_the_layouts() {
    // One context row, then two deletions beside three additions: split takes 1 + 3 rows,
    // unified 1 + 5.
    let file = &diff_texts(None, "a\nb\nc\n", "a\nx\ny\nz\n").files[0];
    assert_eq!(file.unified_rows(), 6);
    assert_eq!(file.split_rows(), 4);
    assert_eq!(file.row_count(), 6);
}

#[test]
fn json_shape_of_a_text_diff() {
    let model = diff_texts(Some("a.txt"), "a\n", "b\n");
    let v = serde_json::to_value(&model).unwrap();
    let f = &v["files"][0];
    assert_eq!(f["status"], "modified");
    assert_eq!(f["fullTextKnown"], true);
    assert_eq!(f["fullText"]["newLines"][0], "b");
    assert_eq!(f["fullText"]["oldLineCount"], 1);
    assert_eq!(f["hunks"][0]["lines"][1]["kind"], "add");
    assert_eq!(f["hunks"][0]["lines"][1]["newLine"], 1);
}
