//! Before/after texts → a one-file [`DiffModel`], via a line diff from `similar`.
//!
//! Lines are compared with their terminators, so `a` and `a\n` differ (the last line gains
//! or loses its newline, as git shows it) and so do `a\n` and `a\r\n`. Hunks carry three
//! lines of context, as `git diff` does, and the new text is kept whole in
//! [`FullText`] so the viewer can expand the collapsed runs between hunks.

use std::time::{Duration, Instant};

use similar::{group_diff_ops, DiffOp};

use super::model::{DiffLine, DiffModel, FileDiff, FileStatus, FullText, Hunk, LineKind};
use super::ops::diff_ops;
use super::words::{annotate_hunk, WordBudget};

/// Context lines around each change, as `git diff` uses by default.
pub const CONTEXT_LINES: usize = 3;

/// How long the line diff may refine its script. Ordinary changes finish in milliseconds;
/// texts with almost nothing in common would otherwise take seconds to minutes (Myers is
/// quadratic in the differences) while holding a worker. Past it, the rest of the texts
/// is shown as one replacement.
pub const LINE_DIFF_TIME_LIMIT: Duration = Duration::from_millis(500);

/// Diffs two texts line by line. `path` names the file on both sides.
///
/// Identical texts give a file with no hunks; callers that must refuse that case
/// (the `diffs` contract answers `changed: false`) check equality first.
pub fn diff_texts(path: Option<&str>, before: &str, after: &str) -> DiffModel {
    let old: Vec<&str> = before.split_inclusive('\n').collect();
    let new: Vec<&str> = after.split_inclusive('\n').collect();
    let ops = diff_ops(&old, &new, Instant::now().checked_add(LINE_DIFF_TIME_LIMIT));

    let mut budget = WordBudget::new();
    let mut hunks = Vec::new();
    let (mut additions, mut deletions) = (0, 0);
    for group in group_diff_ops(ops, CONTEXT_LINES) {
        let Some(first) = group.first() else {
            continue;
        };
        // The ops are contiguous (see `ops`), so cursors from the group's start follow them
        // exactly and the counts are the lines emitted.
        let (mut o, mut n) = (first.old_range().start, first.new_range().start);
        let (old_first, new_first) = (o, n);
        let mut lines = Vec::new();
        for op in &group {
            let (old_len, new_len) = (op.old_range().len(), op.new_range().len());
            if let DiffOp::Equal { len, .. } = *op {
                for _ in 0..len {
                    lines.push(line(LineKind::Context, Some(o + 1), Some(n + 1), new[n]));
                    o += 1;
                    n += 1;
                }
                continue;
            }
            for _ in 0..old_len {
                lines.push(line(LineKind::Delete, Some(o + 1), None, old[o]));
                o += 1;
            }
            for _ in 0..new_len {
                lines.push(line(LineKind::Add, None, Some(n + 1), new[n]));
                n += 1;
            }
            deletions += old_len;
            additions += new_len;
        }
        let mut hunk = Hunk {
            old_start: header_start(old_first, o - old_first),
            old_count: o - old_first,
            new_start: header_start(new_first, n - new_first),
            new_count: n - new_first,
            section: String::new(),
            lines,
        };
        annotate_hunk(&mut hunk, &mut budget);
        hunks.push(hunk);
    }

    let full_text = FullText {
        old_line_count: old.len(),
        new_lines: new
            .iter()
            .map(|l| strip_terminator(l).0.to_string())
            .collect(),
        new_missing_newline: new.last().is_some_and(|l| !l.ends_with('\n')),
    };
    let path = path.map(str::to_string);
    DiffModel {
        files: vec![FileDiff {
            old_path: path.clone(),
            new_path: path,
            status: FileStatus::Modified,
            similarity: None,
            old_mode: None,
            new_mode: None,
            is_binary: false,
            additions,
            deletions,
            hunks,
            full_text_known: true,
            text_unknown: false,
            full_text: Some(full_text),
        }],
    }
}

/// Unified-diff convention: an empty range names the line before it (`-0,0` at the top).
fn header_start(start: usize, len: usize) -> usize {
    if len == 0 {
        start
    } else {
        start + 1
    }
}

fn strip_terminator(raw: &str) -> (&str, bool) {
    match raw.strip_suffix('\n') {
        Some(text) => (text, false),
        None => (raw, true),
    }
}

fn line(kind: LineKind, old_line: Option<usize>, new_line: Option<usize>, raw: &str) -> DiffLine {
    let (text, no_newline) = strip_terminator(raw);
    let mut line = DiffLine::new(kind, old_line, new_line, text.to_string());
    line.no_newline = no_newline;
    line
}
