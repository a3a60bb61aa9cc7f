//! A bounded cache of syntax runs, so the same source is not highlighted again.
//!
//! Highlighting is most of the layout's time (syntect parses every line through its
//! regex grammar), and the same diff is often drawn many times: the viewer's Changes tab
//! and a chat bot asking for the image of one change, or PNG and PDF of the same call. The
//! runs depend only on the text, the language hint, the file name (which picks the
//! grammar) and the theme, so they are kept per exactly that key.
//!
//! Bounded two ways: at most [`MAX_ENTRIES`] sources and [`MAX_BYTES`] of keys and runs
//! together; the least recently used source goes first. Only successful results are kept:
//! highlighting that ran out of its time budget is tried again next time rather than
//! remembered as plain text.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

use crate::highlight::{highlight_runs, StyledRun};

/// Syntax runs of each line of one source.
pub type LineRuns = Vec<Vec<StyledRun>>;

/// Sources kept at most.
pub const MAX_ENTRIES: usize = 64;

/// Bytes of source text and runs kept at most (the service's memory budget is small).
pub const MAX_BYTES: usize = 4 * 1024 * 1024;

/// What the runs of a source depend on.
#[derive(PartialEq, Eq, Hash)]
struct Key {
    dark: bool,
    lang: Option<String>,
    file_name: String,
    text: String,
}

impl Key {
    fn bytes(&self) -> usize {
        self.text.len() + self.file_name.len() + self.lang.as_ref().map_or(0, String::len)
    }
}

struct Entry {
    hash: u64,
    key: Key,
    runs: Arc<LineRuns>,
    bytes: usize,
    used: u64,
}

/// The cache: a short list searched by hash (it holds at most [`MAX_ENTRIES`]).
pub struct RunsCache {
    inner: Mutex<Inner>,
    max_entries: usize,
    max_bytes: usize,
}

#[derive(Default)]
struct Inner {
    entries: Vec<Entry>,
    bytes: usize,
    tick: u64,
}

fn runs_bytes(runs: &LineRuns) -> usize {
    runs.iter()
        .map(|l| std::mem::size_of::<Vec<StyledRun>>() + std::mem::size_of_val(&l[..]))
        .sum()
}

impl RunsCache {
    /// An empty cache with the given bounds.
    pub fn new(max_entries: usize, max_bytes: usize) -> RunsCache {
        RunsCache {
            inner: Mutex::new(Inner::default()),
            max_entries,
            max_bytes,
        }
    }

    /// The runs of `text`, from the cache or from `compute` (kept when it succeeds and
    /// fits the bounds).
    pub fn get_or_compute(
        &self,
        text: &str,
        lang: Option<&str>,
        file_name: &str,
        dark: bool,
        compute: impl FnOnce() -> Option<LineRuns>,
    ) -> Option<Arc<LineRuns>> {
        let key = Key {
            dark,
            lang: lang.map(str::to_owned),
            file_name: file_name.to_owned(),
            text: text.to_owned(),
        };
        let hash = {
            let mut h = DefaultHasher::new();
            key.hash(&mut h);
            h.finish()
        };
        {
            let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            inner.tick += 1;
            let tick = inner.tick;
            if let Some(e) = inner
                .entries
                .iter_mut()
                .find(|e| e.hash == hash && e.key == key)
            {
                e.used = tick;
                return Some(Arc::clone(&e.runs));
            }
        }
        // Highlight outside the lock: two renders of different files run side by side.
        let runs = Arc::new(compute()?);
        let bytes = key.bytes() + runs_bytes(&runs);
        if bytes <= self.max_bytes {
            let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            if !inner.entries.iter().any(|e| e.hash == hash && e.key == key) {
                while !inner.entries.is_empty()
                    && (inner.entries.len() >= self.max_entries
                        || inner.bytes + bytes > self.max_bytes)
                {
                    let oldest = inner
                        .entries
                        .iter()
                        .enumerate()
                        .min_by_key(|(_, e)| e.used)
                        .map_or(0, |(i, _)| i);
                    let gone = inner.entries.swap_remove(oldest);
                    inner.bytes -= gone.bytes;
                }
                let used = inner.tick;
                inner.bytes += bytes;
                inner.entries.push(Entry {
                    hash,
                    key,
                    runs: Arc::clone(&runs),
                    bytes,
                    used,
                });
            }
        }
        Some(runs)
    }

    /// Sources held now.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entries
            .len()
    }

    /// Whether nothing is held.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The runs of `text` as [`highlight_runs`] gives them, through the process-wide cache.
pub fn runs(text: &str, lang: Option<&str>, file_name: &str, dark: bool) -> Option<Arc<LineRuns>> {
    static CACHE: OnceLock<RunsCache> = OnceLock::new();
    CACHE
        .get_or_init(|| RunsCache::new(MAX_ENTRIES, MAX_BYTES))
        .get_or_compute(text, lang, file_name, dark, || {
            highlight_runs(text, lang, file_name, dark)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn one_run() -> Option<LineRuns> {
        Some(vec![vec![StyledRun {
            start: 0,
            end: 3,
            color: Some([1, 2, 3, 255]),
            bold: false,
            italic: false,
        }]])
    }

    #[test]
    fn the_same_source_is_highlighted_once_and_a_different_one_again() {
        let cache = RunsCache::new(8, 1 << 20);
        let calls = Cell::new(0);
        let compute = || {
            calls.set(calls.get() + 1);
            one_run()
        };
        let a = cache.get_or_compute("fn a", None, "a.rs", false, compute);
        let b = cache.get_or_compute("fn a", None, "a.rs", false, compute);
        assert_eq!(calls.get(), 1);
        assert_eq!(a, b);
        // Theme, file name, hint and text are each part of the key.
        cache.get_or_compute("fn a", None, "a.rs", true, compute);
        cache.get_or_compute("fn a", None, "b.rs", false, compute);
        cache.get_or_compute("fn a", Some("rust"), "a.rs", false, compute);
        cache.get_or_compute("fn b", None, "a.rs", false, compute);
        assert_eq!(calls.get(), 5);
        assert_eq!(cache.len(), 5);
    }

    #[test]
    fn failures_are_not_kept() {
        let cache = RunsCache::new(8, 1 << 20);
        assert!(cache
            .get_or_compute("x", None, "a.rs", false, || None)
            .is_none());
        assert!(cache.is_empty());
        assert!(cache
            .get_or_compute("x", None, "a.rs", false, one_run)
            .is_some());
        assert_eq!(cache.len(), 1);
    }

    #[test]
    fn the_least_recently_used_source_is_dropped_at_either_bound() {
        let cache = RunsCache::new(2, 1 << 20);
        let calls = Cell::new(0);
        let compute = || {
            calls.set(calls.get() + 1);
            one_run()
        };
        cache.get_or_compute("one", None, "a.rs", false, compute);
        cache.get_or_compute("two", None, "a.rs", false, compute);
        // "one" is used again, so "two" is the one to go.
        cache.get_or_compute("one", None, "a.rs", false, compute);
        cache.get_or_compute("three", None, "a.rs", false, compute);
        assert_eq!((cache.len(), calls.get()), (2, 3));
        cache.get_or_compute("one", None, "a.rs", false, compute);
        assert_eq!(calls.get(), 3, "one was kept");
        cache.get_or_compute("two", None, "a.rs", false, compute);
        assert_eq!(calls.get(), 4, "two was dropped");

        // A byte bound smaller than one source keeps nothing, and still answers.
        let small = RunsCache::new(8, 16);
        let big = "x".repeat(100);
        assert!(small
            .get_or_compute(&big, None, "a.rs", false, one_run)
            .is_some());
        assert!(small.is_empty());
    }
}
