//! Unified patch text → [`DiffModel`].
//!
//! Reads what people paste: `git diff` / `git format-patch` output (extended headers for
//! renames and copies with similarity, new/deleted files, mode changes, `index` lines,
//! `Binary files … differ` and `GIT binary patch`, C-quoted names), plain `diff -u`
//! (timestamps after a tab), Mercurial (`diff -r REV file`) and Subversion (`Index: f` +
//! `====`) headers, `/dev/null` sides, `\ No newline at end of file`, and CRLF either in the
//! content or on every line of the patch (a patch that went through a Windows clipboard).
//!
//! One pass over the lines with one line of look-ahead; nothing is allocated from numbers
//! in the text (a hunk header claiming 999999999 lines reads only the lines that are
//! there), so the work is linear in the input and garbage yields "no file diffs" rather
//! than a panic. Text between file diffs (commit messages, `Only in …`) is skipped.

mod file;
mod hunk;
mod names;

use std::iter::Peekable;
use std::str::Split;

use super::error::{DiffErrorKind, DiffInputError};
use super::model::{DiffModel, FileDiff};
use super::words::WordBudget;
use file::{FileBuilder, Origin};
use hunk::{parse_hunk_header, read_hunk};
use names::HeaderName;

/// The contract's most files one patch may hold.
pub const MAX_PATCH_FILES: usize = 128;
/// The contract's most rows one patch may render (per file the larger of split and
/// unified rows, summed).
pub const MAX_PATCH_ROWS: usize = 120_000;

/// Complexity caps for [`parse_patch_with`]; `Default` is the contract's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PatchLimits {
    /// Most file diffs accepted.
    pub max_files: usize,
    /// Most rows accepted, counted as [`DiffModel::row_count`] does.
    pub max_rows: usize,
}

impl Default for PatchLimits {
    fn default() -> Self {
        PatchLimits {
            max_files: MAX_PATCH_FILES,
            max_rows: MAX_PATCH_ROWS,
        }
    }
}

/// Parses a patch under the contract's limits.
///
/// Errors, with the contract's messages: `Patch input did not contain any file diffs.`,
/// `Patch input contains too many files (max 128).`, and
/// `Patch input is too large to render (max 120000 lines).` (the file limit is reported
/// first when both are exceeded).
pub fn parse_patch(text: &str) -> Result<DiffModel, DiffInputError> {
    parse_patch_with(text, &PatchLimits::default())
}

/// [`parse_patch`] with explicit limits.
pub fn parse_patch_with(text: &str, limits: &PatchLimits) -> Result<DiffModel, DiffInputError> {
    // Drop the final terminator so the empty piece after it is not read as a blank line.
    let body = text.strip_suffix('\n').unwrap_or(text);
    let mut parser = Parser {
        lines: body.split('\n').peekable(),
        transport_crlf: patch_uses_crlf(body),
        limits: *limits,
        files: Vec::new(),
        file_count: 0,
        rows: 0,
        current: None,
        budget: WordBudget::new(),
    };
    parser.run()?;
    if parser.file_count == 0 {
        return Err(DiffInputError::new(
            DiffErrorKind::PatchEmpty,
            "Patch input did not contain any file diffs.",
        ));
    }
    if parser.rows > limits.max_rows {
        return Err(too_large(limits));
    }
    Ok(DiffModel {
        files: parser.files,
    })
}

fn too_many_files(limits: &PatchLimits) -> DiffInputError {
    DiffInputError::new(
        DiffErrorKind::PatchTooManyFiles,
        format!(
            "Patch input contains too many files (max {}).",
            limits.max_files
        ),
    )
}

fn too_large(limits: &PatchLimits) -> DiffInputError {
    DiffInputError::new(
        DiffErrorKind::PatchTooLarge,
        format!(
            "Patch input is too large to render (max {} lines).",
            limits.max_rows
        ),
    )
}

/// Whether the patch itself travelled with CRLF line ends: its first header line ends in
/// `\r`. Then one `\r` is transport and comes off every line; otherwise a `\r` at the end of
/// a content line is the file's own and stays.
fn patch_uses_crlf(body: &str) -> bool {
    body.split('\n')
        .find(|l| {
            l.starts_with("diff ")
                || l.starts_with("--- ")
                || l.starts_with("Index: ")
                || l.starts_with("@@ ")
        })
        .is_some_and(|l| l.ends_with('\r'))
}

/// Header lines are matched without a trailing `\r`, whatever the transport.
fn trim_cr(line: &str) -> &str {
    line.strip_suffix('\r').unwrap_or(line)
}

/// The single pass: the file being collected and the files already finished.
struct Parser<'a> {
    lines: Peekable<Split<'a, char>>,
    transport_crlf: bool,
    limits: PatchLimits,
    files: Vec<FileDiff>,
    /// Files seen, including those no longer stored once the row limit is passed.
    file_count: usize,
    rows: usize,
    current: Option<FileBuilder>,
    budget: WordBudget,
}

impl<'a> Parser<'a> {
    fn run(&mut self) -> Result<(), DiffInputError> {
        while let Some(raw) = self.lines.next() {
            let line = trim_cr(raw);
            self.line(line)?;
        }
        self.finish()
    }

    fn start(&mut self, file: FileBuilder) -> Result<(), DiffInputError> {
        self.finish()?;
        self.current = Some(file);
        Ok(())
    }

    /// Closes the current file and applies the limits. Past the row limit files are only
    /// counted, so a patch that is also over the file limit still reports that first, and
    /// memory stays bounded by one file.
    fn finish(&mut self) -> Result<(), DiffInputError> {
        let Some(builder) = self.current.take() else {
            return Ok(());
        };
        let Some(file) = builder.build(&mut self.budget) else {
            return Ok(());
        };
        self.file_count += 1;
        if self.file_count > self.limits.max_files {
            return Err(too_many_files(&self.limits));
        }
        self.rows = self.rows.saturating_add(file.row_count());
        if self.rows <= self.limits.max_rows {
            self.files.push(file);
        }
        Ok(())
    }

    fn peek_header(&mut self) -> Option<&'a str> {
        self.lines.peek().map(|l| trim_cr(l))
    }

    fn line(&mut self, line: &'a str) -> Result<(), DiffInputError> {
        if let Some(rest) = line.strip_prefix("diff --git ") {
            return self.start(FileBuilder::git(rest));
        }
        if let Some(rest) = line.strip_prefix("diff ") {
            // hg `diff -r REV file`, or the command line of `diff -u old new`.
            let fresh = self.current.as_ref().is_some_and(FileBuilder::is_fresh);
            if !fresh {
                self.start(FileBuilder::new(Origin::Other))?;
            }
            if let Some(file) = self.current.as_mut() {
                if file.fallback_name.is_none() {
                    file.fallback_name = names::hg_path(rest);
                }
            }
            return Ok(());
        }
        if let Some(name) = line.strip_prefix("Index: ") {
            if self.peek_header().is_some_and(|n| n.starts_with("====")) {
                self.lines.next();
                let mut file = FileBuilder::new(Origin::Other);
                file.fallback_name = Some(name.trim().to_string()).filter(|n| !n.is_empty());
                return self.start(file);
            }
            return Ok(());
        }
        if let Some(minus) = line.strip_prefix("--- ") {
            if let Some(plus) = self.peek_header().and_then(|n| n.strip_prefix("+++ ")) {
                self.lines.next();
                let attach = self.current.as_ref().is_some_and(FileBuilder::is_fresh);
                if !attach {
                    self.start(FileBuilder::new(Origin::Other))?;
                }
                if let Some(file) = self.current.as_mut() {
                    file.minus = Some(names::parse_header_name(minus));
                    file.plus = Some(names::parse_header_name(plus));
                }
                return Ok(());
            }
        }
        if line.starts_with("@@ ") {
            if let (Some(header), true) = (parse_hunk_header(line), self.current.is_some()) {
                let hunk = read_hunk(&mut self.lines, self.transport_crlf, header);
                if let (Some(hunk), Some(file)) = (hunk, self.current.as_mut()) {
                    file.hunks.push(hunk);
                }
            }
            return Ok(());
        }
        if let Some(rest) = line
            .strip_prefix("Binary files ")
            .and_then(|r| r.strip_suffix(" differ"))
        {
            return self.binary_files_line(rest);
        }
        if let Some(name) = line
            .strip_prefix("Binary file ")
            .and_then(|r| r.strip_suffix(" has changed"))
        {
            // Mercurial's wording, after its `diff -r` line.
            if !self.current.as_ref().is_some_and(FileBuilder::is_fresh) {
                self.start(FileBuilder::new(Origin::Other))?;
            }
            if let Some(file) = self.current.as_mut() {
                file.binary = true;
                if file.fallback_name.is_none() {
                    file.fallback_name = Some(name.trim().to_string());
                }
            }
            return Ok(());
        }
        if let Some(file) = self.current.as_mut() {
            if file.accepts_extended_headers() && file.extended_header(line) {
                return Ok(());
            }
            if line == "GIT binary patch"
                || line.starts_with("Cannot display: file marked as a binary type")
            {
                // The base85 payload that follows starts each line with a length letter,
                // so it never looks like a header and is skipped as free text.
                file.binary = true;
            }
        }
        Ok(())
    }

    fn binary_files_line(&mut self, names_text: &str) -> Result<(), DiffInputError> {
        let belongs = self.current.as_ref().is_some_and(|f| f.is_fresh());
        if !belongs {
            self.start(FileBuilder::new(Origin::Other))?;
        }
        let Some(file) = self.current.as_mut() else {
            return Ok(());
        };
        file.binary = true;
        if file.origin == Origin::Other {
            let (old, new) = names::split_binary_names(names_text);
            file.minus = Some(HeaderName {
                name: old,
                absent: false,
            });
            file.plus = Some(HeaderName {
                name: new,
                absent: false,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_transport_is_detected_from_headers() {
        assert!(patch_uses_crlf("diff --git a/x b/x\r\n--- a/x\r\n"));
        assert!(!patch_uses_crlf("diff --git a/x b/x\n+a\r\n"));
    }
}
