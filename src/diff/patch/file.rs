//! Everything learned about one file while its patch lines go by, and how those facts
//! become a [`FileDiff`]: which names win (rename/copy headers over `---`/`+++` over the
//! `diff --git` line over `Index:`), which status applies, and which files are dropped
//! because nothing about them changed.

use super::super::model::{FileDiff, FileStatus, Hunk, LineKind};
use super::super::words::{annotate_hunk, WordBudget};
use super::names::{self, HeaderName};

/// Which header family started a file; only git's carries extended header lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Origin {
    Git,
    Other,
}

/// Everything learned about one file while its lines go by.
#[derive(Debug)]
pub(super) struct FileBuilder {
    pub(super) origin: Origin,
    /// Names from the `diff --git` line, prefixes already dropped.
    pub(super) git_old: Option<String>,
    pub(super) git_new: Option<String>,
    /// Whether this file's names carry git's `a/` `b/` prefixes.
    pub(super) git_prefixed: bool,
    /// A name from `Index:` or hg's `diff -r` line, used when nothing better is known.
    pub(super) fallback_name: Option<String>,
    pub(super) minus: Option<HeaderName>,
    pub(super) plus: Option<HeaderName>,
    pub(super) rename_from: Option<String>,
    pub(super) rename_to: Option<String>,
    pub(super) copy_from: Option<String>,
    pub(super) copy_to: Option<String>,
    pub(super) similarity: Option<u8>,
    pub(super) old_mode: Option<String>,
    pub(super) new_mode: Option<String>,
    pub(super) new_file: bool,
    pub(super) deleted_file: bool,
    pub(super) binary: bool,
    pub(super) hunks: Vec<Hunk>,
}

impl FileBuilder {
    pub(super) fn new(origin: Origin) -> Self {
        FileBuilder {
            origin,
            git_old: None,
            git_new: None,
            git_prefixed: false,
            fallback_name: None,
            minus: None,
            plus: None,
            rename_from: None,
            rename_to: None,
            copy_from: None,
            copy_to: None,
            similarity: None,
            old_mode: None,
            new_mode: None,
            new_file: false,
            deleted_file: false,
            binary: false,
            hunks: Vec::new(),
        }
    }

    pub(super) fn git(names: &str) -> Self {
        let mut file = FileBuilder::new(Origin::Git);
        if let Some((old, new)) = names::split_git_names(names) {
            file.git_prefixed = names::has_git_prefixes(&old, &new);
            if file.git_prefixed {
                file.git_old = Some(names::strip_component(&old));
                file.git_new = Some(names::strip_component(&new));
            } else {
                file.git_old = Some(old);
                file.git_new = Some(new);
            }
        }
        file
    }

    /// Nothing but a header line seen yet: a following `diff …`/`---` line belongs to it.
    pub(super) fn is_fresh(&self) -> bool {
        self.minus.is_none() && self.hunks.is_empty() && !self.binary
    }

    /// Git extended headers come between `diff --git` and the first `---` or hunk.
    pub(super) fn accepts_extended_headers(&self) -> bool {
        self.origin == Origin::Git && self.minus.is_none() && self.hunks.is_empty()
    }

    /// Applies a git extended header line; false when `line` is not one.
    pub(super) fn extended_header(&mut self, line: &str) -> bool {
        let word = |s: &str| s.trim().to_string();
        if let Some(m) = line.strip_prefix("old mode ") {
            self.old_mode = Some(word(m));
        } else if let Some(m) = line.strip_prefix("new mode ") {
            self.new_mode = Some(word(m));
        } else if let Some(m) = line.strip_prefix("deleted file mode ") {
            self.deleted_file = true;
            self.old_mode = Some(word(m));
        } else if let Some(m) = line.strip_prefix("new file mode ") {
            self.new_file = true;
            self.new_mode = Some(word(m));
        } else if let Some(p) = line.strip_prefix("similarity index ") {
            self.similarity = parse_percent(p);
        } else if line.starts_with("dissimilarity index ") || line.starts_with("index ") {
            // Known and not needed: hashes and the dissimilarity of rewrites.
        } else if let Some(p) = line
            .strip_prefix("rename from ")
            .or_else(|| line.strip_prefix("rename old "))
        {
            self.rename_from = Some(names::parse_rest_name(p));
        } else if let Some(p) = line
            .strip_prefix("rename to ")
            .or_else(|| line.strip_prefix("rename new "))
        {
            self.rename_to = Some(names::parse_rest_name(p));
        } else if let Some(p) = line.strip_prefix("copy from ") {
            self.copy_from = Some(names::parse_rest_name(p));
        } else if let Some(p) = line.strip_prefix("copy to ") {
            self.copy_to = Some(names::parse_rest_name(p));
        } else {
            return false;
        }
        true
    }

    /// Drops the `a/` `b/` prefix from a `---`/`+++` name when this file uses them.
    fn clean(&self, name: Option<&String>, plain_prefixed: bool) -> Option<String> {
        let name = name?;
        let strip = match self.origin {
            Origin::Git => self.git_prefixed,
            Origin::Other => plain_prefixed,
        };
        Some(if strip {
            names::strip_component(name)
        } else {
            name.clone()
        })
    }

    /// Turns the collected facts into a file, or `None` when nothing about it changed
    /// (a lone `diff --git` line, an `Index:` with no body).
    pub(super) fn build(self, budget: &mut WordBudget) -> Option<FileDiff> {
        let minus_name = self.minus.as_ref().and_then(|h| h.name.as_ref());
        let plus_name = self.plus.as_ref().and_then(|h| h.name.as_ref());
        // Plain diffs drop the prefixes only when they look like git's on every named side.
        let plain_prefixed = match (minus_name, plus_name) {
            (Some(o), Some(n)) => o.starts_with("a/") && n.starts_with("b/"),
            (Some(o), None) => o.starts_with("a/"),
            (None, Some(n)) => n.starts_with("b/"),
            (None, None) => false,
        };
        let has_markers = self.minus.is_some();
        let added = self.new_file
            || self
                .minus
                .as_ref()
                .is_some_and(|h| h.name.is_none() || h.absent);
        let deleted = !added
            && (self.deleted_file
                || self
                    .plus
                    .as_ref()
                    .is_some_and(|h| h.name.is_none() || h.absent));

        let (mut old, mut new) = if has_markers {
            (
                self.clean(minus_name, plain_prefixed),
                self.clean(plus_name, plain_prefixed),
            )
        } else {
            (self.git_old.clone(), self.git_new.clone())
        };
        if let Some(from) = self.rename_from.clone().or_else(|| self.copy_from.clone()) {
            old = Some(from);
        }
        if let Some(to) = self.rename_to.clone().or_else(|| self.copy_to.clone()) {
            new = Some(to);
        }
        if old.is_none() && new.is_none() {
            old = self.fallback_name.clone();
            new = self.fallback_name.clone();
        }
        if added {
            old = None;
            new = new.or_else(|| self.git_new.clone());
        } else if deleted {
            new = None;
            old = old.or_else(|| self.git_old.clone());
        } else {
            if old.is_none() {
                old = new.clone();
            }
            if new.is_none() {
                new = old.clone();
            }
        }

        let renamed = self.rename_from.is_some() || self.rename_to.is_some();
        let copied = self.copy_from.is_some() || self.copy_to.is_some();
        let mode_changed = matches!((&self.old_mode, &self.new_mode), (Some(a), Some(b)) if a != b);
        let keep = !self.hunks.is_empty()
            || self.binary
            || added
            || deleted
            || renamed
            || copied
            || mode_changed;
        if !keep {
            return None;
        }
        let status = if added {
            FileStatus::Added
        } else if deleted {
            FileStatus::Deleted
        } else if renamed {
            FileStatus::Renamed
        } else if copied {
            FileStatus::Copied
        } else if self.binary {
            FileStatus::Binary
        } else if mode_changed && self.hunks.is_empty() {
            FileStatus::ModeChanged
        } else {
            FileStatus::Modified
        };

        let mut hunks = self.hunks;
        let (mut additions, mut deletions) = (0, 0);
        for hunk in &mut hunks {
            for line in &hunk.lines {
                match line.kind {
                    LineKind::Add => additions += 1,
                    LineKind::Delete => deletions += 1,
                    LineKind::Context => {}
                }
            }
            annotate_hunk(hunk, budget);
        }
        Some(FileDiff {
            old_path: old,
            new_path: new,
            status,
            similarity: self.similarity,
            old_mode: self.old_mode,
            new_mode: self.new_mode,
            is_binary: self.binary,
            additions,
            deletions,
            hunks,
            full_text_known: false,
            full_text: None,
            text_unknown: false,
        })
    }
}

fn parse_percent(s: &str) -> Option<u8> {
    let digits = s.trim().strip_suffix('%')?;
    let n: u32 = digits.parse().ok()?;
    Some(n.min(100) as u8)
}
