//! The diff model: what both kinds of input (before/after texts, unified patches) become,
//! and what the viewer, the JSON output and the exporters read.
//!
//! Plain data, no HTML. Line text never includes the `\n` terminator; a carriage return
//! that belongs to the content stays in `text`, so a change from LF to CRLF is visible.
//! Word spans are byte ranges into `text` that always fall on char boundaries.

use serde::Serialize;

/// A whole diff: one entry per file, in input order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiffModel {
    /// The changed files.
    pub files: Vec<FileDiff>,
}

/// What happened to a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FileStatus {
    /// The file did not exist before.
    Added,
    /// The file does not exist after.
    Deleted,
    /// Content changed in place (possibly with a mode change too).
    Modified,
    /// Moved to a new path (possibly with edits; see `similarity`).
    Renamed,
    /// Copied to a new path from an existing one.
    Copied,
    /// Only the file mode changed.
    ModeChanged,
    /// A binary file changed; no line content is available.
    Binary,
}

/// One file's change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileDiff {
    /// Path before the change; `None` when the file did not exist (added) or no name is known.
    pub old_path: Option<String>,
    /// Path after the change; `None` when the file no longer exists (deleted) or no name is known.
    pub new_path: Option<String>,
    /// What happened to the file.
    pub status: FileStatus,
    /// Git's similarity percentage for renames and copies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub similarity: Option<u8>,
    /// File mode before (e.g. `100644`), when the patch states it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_mode: Option<String>,
    /// File mode after, when the patch states it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_mode: Option<String>,
    /// Whether the content is binary (no hunks).
    pub is_binary: bool,
    /// Number of added lines.
    pub additions: usize,
    /// Number of deleted lines.
    pub deletions: usize,
    /// The changed regions with their context, in file order.
    pub hunks: Vec<Hunk>,
    /// Whether the unchanged lines between hunks are known, so collapsed
    /// `N unmodified lines` gaps can be expanded (true for before/after input).
    pub full_text_known: bool,
    /// The unchanged text needed to expand gaps; present exactly when `full_text_known`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub full_text: Option<FullText>,
    /// Whether the change's text is unknown (an agent's path-only write or delete): then
    /// `additions` and `deletions` are unavailable, not zero, and views must say so.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub text_unknown: bool,
}

/// The text behind a before/after diff, kept so gaps between hunks can be expanded.
///
/// Only the new side is stored: every line in a gap is unchanged, so its new text is also
/// its old text; the old side's length is all that is needed to place the trailing gap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FullText {
    /// Line count of the old text.
    pub old_line_count: usize,
    /// Every line of the new text, without terminators.
    pub new_lines: Vec<String>,
    /// Whether the new text's last line lacks a trailing newline.
    pub new_missing_newline: bool,
}

/// A run of unchanged lines between (or around) hunks that the viewer collapses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Gap {
    /// Index of the hunk that follows the gap; `hunks.len()` for the gap after the last one.
    pub before_hunk: usize,
    /// First old line number in the gap (1-based).
    pub old_start: usize,
    /// First new line number in the gap (1-based).
    pub new_start: usize,
    /// Number of lines in the gap.
    pub len: usize,
}

/// A contiguous changed region with its context lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Hunk {
    /// First old line (1-based; for an empty range, the line before it, as in `@@ -3,0`).
    pub old_start: usize,
    /// Number of old lines (context + deleted).
    pub old_count: usize,
    /// First new line (1-based; same convention as `old_start`).
    pub new_start: usize,
    /// Number of new lines (context + added).
    pub new_count: usize,
    /// Text after the second `@@` (usually the enclosing function), trimmed.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub section: String,
    /// The lines, in patch order.
    pub lines: Vec<DiffLine>,
}

/// Role of a line in a hunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LineKind {
    /// Unchanged, present on both sides.
    Context,
    /// Present only in the new text.
    Add,
    /// Present only in the old text.
    Delete,
}

/// One line of a hunk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiffLine {
    /// Context, added or deleted.
    pub kind: LineKind,
    /// Line number in the old text (context and deleted lines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_line: Option<usize>,
    /// Line number in the new text (context and added lines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_line: Option<usize>,
    /// The content, without the `\n` terminator.
    pub text: String,
    /// The line is the last of its file and has no trailing newline.
    #[serde(skip_serializing_if = "is_false")]
    pub no_newline: bool,
    /// Changed byte ranges within `text` when this line pairs with a changed counterpart.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spans: Vec<WordSpan>,
}

/// A changed byte range `start..end` within a line's text, on char boundaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct WordSpan {
    /// First byte of the change.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl DiffLine {
    /// A line of `kind` with the given numbers and text, no flags, no spans.
    pub fn new(
        kind: LineKind,
        old_line: Option<usize>,
        new_line: Option<usize>,
        text: String,
    ) -> Self {
        DiffLine {
            kind,
            old_line,
            new_line,
            text,
            no_newline: false,
            spans: Vec::new(),
        }
    }
}

impl DiffModel {
    /// Total added lines over all files.
    pub fn additions(&self) -> usize {
        self.files.iter().map(|f| f.additions).sum()
    }

    /// Total deleted lines over all files.
    pub fn deletions(&self) -> usize {
        self.files.iter().map(|f| f.deletions).sum()
    }

    /// The rendering cost the contract limits: per file the larger of its split and
    /// unified row counts, summed.
    pub fn row_count(&self) -> usize {
        self.files.iter().map(FileDiff::row_count).sum()
    }

    /// Renders the model as a git-style unified patch that [`super::parse_patch`] reads
    /// back to the same files, hunks and counts.
    pub fn to_unified(&self) -> String {
        super::unified::render(self)
    }
}

impl FileDiff {
    /// The path to show for the file: the new one, or the old one for deletions.
    pub fn display_path(&self) -> &str {
        self.new_path
            .as_deref()
            .or(self.old_path.as_deref())
            .unwrap_or("")
    }

    /// Rows in the unified layout: one per line.
    pub fn unified_rows(&self) -> usize {
        self.hunks.iter().map(|h| h.lines.len()).sum()
    }

    /// Rows in the split layout: context lines take one row, and a run of changes takes as
    /// many rows as its longer side (deletions sit beside additions).
    pub fn split_rows(&self) -> usize {
        let mut rows = 0;
        for hunk in &self.hunks {
            let (mut del, mut add) = (0, 0);
            for line in &hunk.lines {
                match line.kind {
                    LineKind::Context => {
                        rows += del.max(add) + 1;
                        del = 0;
                        add = 0;
                    }
                    LineKind::Delete => del += 1,
                    LineKind::Add => add += 1,
                }
            }
            rows += del.max(add);
        }
        rows
    }

    /// `max(split rows, unified rows)`, the per-file count of the complexity limit.
    pub fn row_count(&self) -> usize {
        self.split_rows().max(self.unified_rows())
    }

    /// The collapsed runs of unchanged lines: before the first hunk, between hunks, and —
    /// when the full text is known — after the last one. Empty runs are left out.
    pub fn gaps(&self) -> Vec<Gap> {
        let mut gaps = Vec::new();
        // Next unseen line numbers on each side (1-based).
        let (mut old_next, mut new_next) = (1usize, 1usize);
        for (i, hunk) in self.hunks.iter().enumerate() {
            let (old_first, new_first) = hunk_first_lines(hunk);
            let len = new_first
                .saturating_sub(new_next)
                .min(old_first.saturating_sub(old_next));
            if len > 0 {
                gaps.push(Gap {
                    before_hunk: i,
                    old_start: old_next,
                    new_start: new_next,
                    len,
                });
            }
            old_next = old_first.saturating_add(hunk.old_count);
            new_next = new_first.saturating_add(hunk.new_count);
        }
        if let Some(full) = &self.full_text {
            let len = (full.new_lines.len() + 1).saturating_sub(new_next);
            if len > 0 {
                gaps.push(Gap {
                    before_hunk: self.hunks.len(),
                    old_start: old_next,
                    new_start: new_next,
                    len,
                });
            }
        }
        gaps
    }

    /// The lines of `gap` when the full text is known (`None` for patch input).
    pub fn gap_lines(&self, gap: &Gap) -> Option<&[String]> {
        let full = self.full_text.as_ref()?;
        let start = gap.new_start.checked_sub(1)?;
        full.new_lines.get(start..start.checked_add(gap.len)?)
    }
}

/// The 1-based first line a hunk covers on each side; a zero-count side (`-3,0`) names the
/// line before the range, so its first line is one further.
fn hunk_first_lines(hunk: &Hunk) -> (usize, usize) {
    let old = if hunk.old_count == 0 {
        hunk.old_start.saturating_add(1)
    } else {
        hunk.old_start
    };
    let new = if hunk.new_count == 0 {
        hunk.new_start.saturating_add(1)
    } else {
        hunk.new_start
    };
    (old, new)
}
