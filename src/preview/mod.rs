//! File previews: snapshots of one scoped read and the views built from them.
//!
//! A snapshot keeps the [`ScopedRead`](crate::workspace::ScopedRead) of a file; the shell,
//! every view, the raw bytes and the sandboxed HTML document are all served from it. Only
//! sibling assets of a previewed HTML page are read again, each by a fresh scoped read.

pub mod assets;
pub mod document;
pub mod heap;
pub mod image;
pub mod inert;
pub mod markdown;
pub mod office;
pub mod sheet;
pub mod shell;
pub mod snapshot;
pub mod views;

pub use snapshot::{Created, Snapshot, SnapshotStore};
pub use views::{views_for, View};
