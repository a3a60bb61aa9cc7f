//! The store's byte budget (`diffs.max_total_bytes`).
//!
//! The total is counted once when the store opens (one walk of the data directory) and then
//! kept as a running sum: every write reserves its bytes *before* it touches the disk, and
//! every deletion gives back what it measured in the folder it removed. A reservation is an
//! atomic check-and-add, so two calls can never both take room that only one of them fits.
//!
//! The budget also remembers the earliest expiry of the artifacts it knows, so a full store
//! sweeps only when a sweep can free something, not on every refused call.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// How deep [`tree_bytes`] descends; the store's own layout is two levels deep.
const MAX_DEPTH: usize = 8;

/// The running total against the cap.
#[derive(Debug)]
pub(super) struct Quota {
    max: u64,
    used: AtomicU64,
    /// Earliest expiry (unix ms) of a live artifact; 0 when unknown, so that the first
    /// full store sweeps; `u64::MAX` when nothing will expire.
    next_expiry_ms: AtomicU64,
}

/// Bytes taken from the budget; given back on drop unless [`Reserved::keep`] is called.
#[must_use]
pub(super) struct Reserved<'a> {
    quota: &'a Quota,
    bytes: u64,
}

impl Reserved<'_> {
    /// The bytes were written: they stay counted.
    pub(super) fn keep(self) {
        std::mem::forget(self);
    }
}

impl Drop for Reserved<'_> {
    fn drop(&mut self) {
        self.quota.release(self.bytes);
    }
}

impl Quota {
    /// A budget of `max` bytes of which `used` are already on disk.
    pub(super) fn new(max: u64, used: u64) -> Quota {
        Quota {
            max,
            used: AtomicU64::new(used),
            next_expiry_ms: AtomicU64::new(0),
        }
    }

    /// The cap.
    pub(super) fn max(&self) -> u64 {
        self.max
    }

    /// Bytes counted now.
    pub(super) fn used(&self) -> u64 {
        self.used.load(Ordering::SeqCst)
    }

    /// Takes `bytes` if they fit under the cap, atomically.
    pub(super) fn try_reserve(&self, bytes: u64) -> Option<Reserved<'_>> {
        self.used
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |used| {
                used.checked_add(bytes).filter(|&total| total <= self.max)
            })
            .ok()
            .map(|_| Reserved { quota: self, bytes })
    }

    /// Counts bytes that are on disk whether or not they fit (leftovers of a failed write).
    pub(super) fn add(&self, bytes: u64) {
        self.used.fetch_add(bytes, Ordering::SeqCst);
    }

    /// Gives back bytes that left the disk.
    pub(super) fn release(&self, bytes: u64) {
        // Files changed by hand can make a measurement exceed what was counted; the total
        // never wraps below zero.
        let _ = self
            .used
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |used| {
                Some(used.saturating_sub(bytes))
            });
    }

    /// Notes a new artifact's expiry.
    pub(super) fn note_expiry(&self, expires_at_ms: u64) {
        self.next_expiry_ms
            .fetch_min(expires_at_ms, Ordering::SeqCst);
    }

    /// Whether an artifact may have expired by `now_ms`, so a sweep can free room.
    pub(super) fn sweep_may_help(&self, now_ms: u64) -> bool {
        now_ms >= self.next_expiry_ms.load(Ordering::SeqCst)
    }

    /// A sweep starts: it will report the earliest expiry it keeps. Creates finishing
    /// meanwhile still note theirs (sweeps run one at a time).
    pub(super) fn begin_sweep(&self) {
        self.next_expiry_ms.store(u64::MAX, Ordering::SeqCst);
    }

    /// A sweep ended; `earliest` is the earliest expiry it kept (0 when it failed midway and
    /// so knows nothing).
    pub(super) fn end_sweep(&self, earliest: u64) {
        self.note_expiry(earliest);
    }
}

/// Bytes of the regular files under `path` (or of `path` itself), without following links;
/// 0 when it is missing.
pub(super) fn tree_bytes(path: &Path) -> u64 {
    tree_bytes_at(path, 0)
}

fn tree_bytes_at(path: &Path, depth: usize) -> u64 {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return 0;
    };
    if meta.is_file() {
        return meta.len();
    }
    if !meta.is_dir() || depth >= MAX_DEPTH {
        return 0;
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        tracing::warn!(path = %path.display(), "cannot list a diff store folder to count it");
        return 0;
    };
    entries
        .flatten()
        .map(|entry| tree_bytes_at(&entry.path(), depth + 1))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reservations_fit_under_the_cap_or_fail_whole() {
        let q = Quota::new(100, 30);
        let a = q.try_reserve(70).expect("fits exactly");
        assert!(q.try_reserve(1).is_none());
        assert_eq!(q.used(), 100);
        drop(a);
        assert_eq!(q.used(), 30);
        q.try_reserve(50).unwrap().keep();
        assert_eq!(q.used(), 80);
        q.release(500);
        assert_eq!(q.used(), 0);
        assert!(q.try_reserve(u64::MAX).is_none());
    }

    #[test]
    fn concurrent_reservations_never_overshoot() {
        let q = std::sync::Arc::new(Quota::new(1000, 0));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let q = q.clone();
                std::thread::spawn(move || {
                    (0..1000)
                        .filter(|_| q.try_reserve(7).map(Reserved::keep).is_some())
                        .count()
                })
            })
            .collect();
        let granted: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
        assert_eq!(granted, 1000 / 7);
        assert_eq!(q.used(), 7 * (1000 / 7));
    }

    #[test]
    fn sweeps_are_due_only_once_something_may_have_expired() {
        let q = Quota::new(10, 0);
        assert!(q.sweep_may_help(5), "unknown at first");
        q.begin_sweep();
        q.end_sweep(u64::MAX);
        assert!(!q.sweep_may_help(u64::MAX - 1));
        q.note_expiry(50);
        assert!(!q.sweep_may_help(49));
        assert!(q.sweep_may_help(50));
    }

    #[test]
    fn tree_bytes_counts_files_not_links() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("a/b")).unwrap();
        std::fs::write(tmp.path().join("a/x"), [0u8; 10]).unwrap();
        std::fs::write(tmp.path().join("a/b/y"), [0u8; 5]).unwrap();
        std::os::unix::fs::symlink("/etc", tmp.path().join("a/link")).unwrap();
        assert_eq!(tree_bytes(tmp.path()), 15);
        assert_eq!(tree_bytes(&tmp.path().join("missing")), 0);
    }
}
