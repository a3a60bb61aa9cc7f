//! Counters of the shared store's operations, for `/metrics`, and its last known state,
//! for `/healthz`.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::time::Duration;

/// The operations counted, in the order of [`Op::ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// An object written.
    Put,
    /// An object read.
    Get,
    /// An object deleted.
    Delete,
    /// A listing (one page or a whole prefix).
    List,
}

impl Op {
    /// Every operation, in counter order.
    pub const ALL: [Op; 4] = [Op::Put, Op::Get, Op::Delete, Op::List];

    /// The label value in `/metrics`.
    pub fn name(self) -> &'static str {
        match self {
            Op::Put => "put",
            Op::Get => "get",
            Op::Delete => "delete",
            Op::List => "list",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// What the last finished operation says about the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreState {
    /// Nothing has been asked of the store yet.
    Unknown,
    /// The last operation got an answer.
    Ok,
    /// The last operation ran out of deadline and retries.
    Unavailable,
}

impl StoreState {
    /// The word `/healthz` shows.
    pub fn name(self) -> &'static str {
        match self {
            StoreState::Unknown => "unknown",
            StoreState::Ok => "ok",
            StoreState::Unavailable => "unavailable",
        }
    }
}

/// Operation counters of one store; plain atomics bumped once per operation.
#[derive(Debug)]
pub struct StoreStats {
    backend: &'static str,
    operations: [AtomicU64; 4],
    errors: [AtomicU64; 4],
    /// Total time spent per operation kind, microseconds (retries included).
    micros: [AtomicU64; 4],
    retries: AtomicU64,
    state: AtomicU8,
}

impl StoreStats {
    /// Counters for a store of this backend (`local` or `s3`).
    pub fn new(backend: &'static str) -> StoreStats {
        StoreStats {
            backend,
            operations: Default::default(),
            errors: Default::default(),
            micros: Default::default(),
            retries: AtomicU64::new(0),
            state: AtomicU8::new(0),
        }
    }

    /// `local` or `s3`.
    pub fn backend(&self) -> &'static str {
        self.backend
    }

    /// The last known state. The local store is always `ok`: it has no network to lose.
    pub fn state(&self) -> StoreState {
        if self.backend == "local" {
            return StoreState::Ok;
        }
        match self.state.load(Ordering::Relaxed) {
            1 => StoreState::Ok,
            2 => StoreState::Unavailable,
            _ => StoreState::Unknown,
        }
    }

    /// Records one finished operation: `failed` when it ran out of deadline and retries
    /// (an answer such as "not found" is a success of the store).
    pub(crate) fn record(&self, op: Op, took: Duration, failed: bool) {
        let i = op.index();
        self.operations[i].fetch_add(1, Ordering::Relaxed);
        self.micros[i].fetch_add(
            u64::try_from(took.as_micros()).unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
        if failed {
            self.errors[i].fetch_add(1, Ordering::Relaxed);
        }
        self.state
            .store(if failed { 2 } else { 1 }, Ordering::Relaxed);
    }

    /// Counts one retried attempt.
    pub(crate) fn retried(&self) {
        self.retries.fetch_add(1, Ordering::Relaxed);
    }

    /// Operations of kind `op` so far.
    pub fn operations(&self, op: Op) -> u64 {
        self.operations[op.index()].load(Ordering::Relaxed)
    }

    /// Failed operations of kind `op` so far.
    pub fn errors(&self, op: Op) -> u64 {
        self.errors[op.index()].load(Ordering::Relaxed)
    }

    /// Seconds spent in operations of kind `op` so far.
    pub fn seconds(&self, op: Op) -> f64 {
        self.micros[op.index()].load(Ordering::Relaxed) as f64 / 1e6
    }

    /// Attempts retried so far.
    pub fn retries(&self) -> u64 {
        self.retries.load(Ordering::Relaxed)
    }
}
