//! Hunks: the `@@ -a,b +c,d @@ section` header and the body lines after it.
//!
//! The body is read against the header's counts, one line of look-ahead at a time, and
//! stops at the first line that cannot belong to the hunk. Counts are never used to size
//! anything, so `@@ -1,999999999 +1 @@` reads only the lines that are really there.

use std::iter::Peekable;
use std::str::Split;

use super::super::model::{DiffLine, Hunk, LineKind};

/// The numbers of a `@@ -a,b +c,d @@ section` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct HunkHeader {
    old_start: usize,
    old_count: usize,
    new_start: usize,
    new_count: usize,
    section: String,
}

/// Parses a hunk header; `None` when the line is not one, and it is then skipped as text.
pub(super) fn parse_hunk_header(line: &str) -> Option<HunkHeader> {
    let rest = line.strip_prefix("@@ -")?;
    let (old, rest) = rest.split_once(' ')?;
    let rest = rest.strip_prefix('+')?;
    let (new, rest) = rest.split_once(' ').unwrap_or((rest, ""));
    let section = rest.strip_prefix("@@")?.trim().to_string();
    let (old_start, old_count) = parse_range(old)?;
    let (new_start, new_count) = parse_range(new)?;
    Some(HunkHeader {
        old_start,
        old_count,
        new_start,
        new_count,
        section,
    })
}

/// Largest line number or count a hunk header may give. No text has four billion lines,
/// and with every start and count at most this, `start + count` cannot overflow anywhere
/// downstream.
const MAX_HEADER_NUMBER: usize = u32::MAX as usize;

/// `start[,count]`; the count defaults to 1. Only plain digits, and values past
/// [`MAX_HEADER_NUMBER`] make the header invalid rather than wrap.
fn parse_range(s: &str) -> Option<(usize, usize)> {
    let number = |d: &str| -> Option<usize> {
        if d.is_empty() || !d.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        d.parse().ok().filter(|n| *n <= MAX_HEADER_NUMBER)
    };
    match s.split_once(',') {
        Some((start, count)) => Some((number(start)?, number(count)?)),
        None => Some((number(s)?, 1)),
    }
}

/// Reads a hunk body after its header, stopping at the first line that cannot belong
/// to it (a truncated hunk keeps the lines it has; its counts are the lines read).
pub(super) fn read_hunk(
    lines: &mut Peekable<Split<'_, char>>,
    transport_crlf: bool,
    header: HunkHeader,
) -> Option<Hunk> {
    let (mut old_left, mut new_left) = (header.old_count, header.new_count);
    let mut old_no = header.old_start.max(1);
    let mut new_no = header.new_start.max(1);
    let mut out: Vec<DiffLine> = Vec::new();
    let (mut old_seen, mut new_seen) = (0usize, 0usize);
    while let Some(&raw) = lines.peek() {
        let content = if transport_crlf {
            super::trim_cr(raw)
        } else {
            raw
        };
        if let Some(b'\\') = content.as_bytes().first() {
            // `\ No newline at end of file` (in any language) marks the line before.
            lines.next();
            if let Some(last) = out.last_mut() {
                last.no_newline = true;
            }
            continue;
        }
        if old_left == 0 && new_left == 0 {
            break;
        }
        let (kind, text) = match content.as_bytes().first() {
            // Some tools strip the lone space of an empty context line.
            None => (LineKind::Context, ""),
            Some(b' ') => (LineKind::Context, &content[1..]),
            Some(b'-') => (LineKind::Delete, &content[1..]),
            Some(b'+') => (LineKind::Add, &content[1..]),
            Some(_) => break,
        };
        let fits = match kind {
            LineKind::Context => old_left > 0 && new_left > 0,
            LineKind::Delete => old_left > 0,
            LineKind::Add => new_left > 0,
        };
        if !fits {
            break;
        }
        lines.next();
        let line = match kind {
            LineKind::Context => {
                old_left -= 1;
                new_left -= 1;
                old_seen += 1;
                new_seen += 1;
                let l = DiffLine::new(kind, Some(old_no), Some(new_no), text.to_string());
                old_no = old_no.saturating_add(1);
                new_no = new_no.saturating_add(1);
                l
            }
            LineKind::Delete => {
                old_left -= 1;
                old_seen += 1;
                let l = DiffLine::new(kind, Some(old_no), None, text.to_string());
                old_no = old_no.saturating_add(1);
                l
            }
            LineKind::Add => {
                new_left -= 1;
                new_seen += 1;
                let l = DiffLine::new(kind, None, Some(new_no), text.to_string());
                new_no = new_no.saturating_add(1);
                l
            }
        };
        out.push(line);
    }
    if out.is_empty() {
        return None;
    }
    Some(Hunk {
        old_start: if old_seen == 0 {
            header.old_start
        } else {
            header.old_start.max(1)
        },
        old_count: old_seen,
        new_start: if new_seen == 0 {
            header.new_start
        } else {
            header.new_start.max(1)
        },
        new_count: new_seen,
        section: header.section,
        lines: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunk_header_forms() {
        let h = parse_hunk_header("@@ -1,3 +1,4 @@ fn main()").unwrap();
        assert_eq!(
            (h.old_start, h.old_count, h.new_start, h.new_count),
            (1, 3, 1, 4)
        );
        assert_eq!(h.section, "fn main()");
        let h = parse_hunk_header("@@ -1 +1 @@").unwrap();
        assert_eq!(
            (h.old_start, h.old_count, h.new_start, h.new_count),
            (1, 1, 1, 1)
        );
        let h = parse_hunk_header("@@ -0,0 +1,2 @@").unwrap();
        assert_eq!(
            (h.old_start, h.old_count, h.new_start, h.new_count),
            (0, 0, 1, 2)
        );
        assert!(parse_hunk_header("@@ -1,99999999999999999999999 +1 @@").is_none());
        assert!(parse_hunk_header("@@ -x +1 @@").is_none());
        assert!(parse_hunk_header("@@ -1 +1").is_none());
    }
}
