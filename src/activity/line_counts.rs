//! Added/removed line counts for declared fragments.
//!
//! Counts describe what the tool calls declared, fragment by fragment, not a diff of the
//! file on disk. A path with nothing countable has *unknown* counts (`None`, JSON `null`):
//! a path-only write or a delete says nothing about lines, and showing `+0 −0` would claim
//! that nothing changed.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use similar::{capture_diff_slices_deadline, Algorithm, DiffOp};

/// How long one fragment's line diff may search for a minimal answer. Past it the diff
/// library falls back to a coarser (still correct, possibly larger) diff, so a hostile
/// fragment of many distinct lines cannot stall a request.
const FRAGMENT_DIFF_TIME_LIMIT: Duration = Duration::from_millis(200);

/// Lines added and removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineCounts {
    /// Lines present after but not before.
    pub added: u64,
    /// Lines present before but not after.
    pub removed: u64,
}

impl LineCounts {
    fn plus(self, other: LineCounts) -> LineCounts {
        LineCounts {
            added: self.added.saturating_add(other.added),
            removed: self.removed.saturating_add(other.removed),
        }
    }
}

/// Counts one fragment: CRLF becomes LF first, so a line-ending change alone counts nothing.
pub fn fragment_line_counts(old_text: &str, new_text: &str) -> LineCounts {
    let old = normalise_newlines(old_text);
    let new = normalise_newlines(new_text);
    let old_lines: Vec<&str> = old.lines().collect();
    let new_lines: Vec<&str> = new.lines().collect();
    let deadline = Instant::now().checked_add(FRAGMENT_DIFF_TIME_LIMIT);
    let ops = capture_diff_slices_deadline(Algorithm::Myers, &old_lines, &new_lines, deadline);
    ops.iter().fold(LineCounts::default(), |counts, op| {
        let (removed, added) = match *op {
            DiffOp::Equal { .. } => (0, 0),
            DiffOp::Delete { old_len, .. } => (old_len, 0),
            DiffOp::Insert { new_len, .. } => (0, new_len),
            DiffOp::Replace {
                old_len, new_len, ..
            } => (old_len, new_len),
        };
        counts.plus(LineCounts {
            added: added as u64,
            removed: removed as u64,
        })
    })
}

/// Sums the counts of several fragments; `None` when there is no fragment to count.
pub fn sum_line_counts<'a, I>(fragments: I) -> Option<LineCounts>
where
    I: IntoIterator<Item = (&'a str, &'a str)>,
{
    fragments
        .into_iter()
        .map(|(old, new)| fragment_line_counts(old, new))
        .reduce(LineCounts::plus)
}

fn normalise_newlines(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains("\r\n") {
        std::borrow::Cow::Owned(text.replace("\r\n", "\n"))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(added: u64, removed: u64) -> LineCounts {
        LineCounts { added, removed }
    }

    #[test]
    fn fragment_counts_table() {
        let cases = [
            ("", "a\nb\n", counts(2, 0)),
            ("", "a\nb", counts(2, 0)),
            ("a\nb\n", "", counts(0, 2)),
            ("foo", "bar", counts(1, 1)),
            ("a\nb\nc", "a\nB\nc", counts(1, 1)),
            ("a\nb", "a\nb\nc\nd", counts(2, 0)),
            ("same", "same", counts(0, 0)),
            ("", "", counts(0, 0)),
            ("a\r\nb\r\n", "a\nb\n", counts(0, 0)),
            ("a\r\nb\r\n", "a\nc\n", counts(1, 1)),
            ("ü\n✓", "ü\n✗", counts(1, 1)),
        ];
        for (old, new, expected) in cases {
            assert_eq!(
                fragment_line_counts(old, new),
                expected,
                "{old:?} -> {new:?}"
            );
        }
    }

    #[test]
    fn sums_and_unknown() {
        assert_eq!(sum_line_counts([]), None);
        assert_eq!(
            sum_line_counts([("", "a\nb\n"), ("a", "x\ny")]),
            Some(counts(4, 1))
        );
    }
}
