//! The shared object store: where previewd keeps its state when several instances serve
//! the same URLs (`[store] backend = "s3"`).
//!
//! The embedded default (`backend = "local"`) is unchanged: diff artifacts in
//! [`crate::diff::store::DiskStore`] and snapshots in process memory, with no store round
//! trip at all. With `s3`, every instance reads and writes one bucket through
//! [`Objects`], a blocking facade over the `object_store` crate (so AWS S3, MinIO, R2 and
//! other S3-compatible servers need configuration only). The bucket layout:
//!
//! ```text
//! {prefix}/diffs/{id}/files/{name}     payloads, create-if-absent, written first
//! {prefix}/diffs/{id}/derived/{name}   cached renders (viewer.html), shared by instances
//! {prefix}/diffs/{id}/meta.json        written LAST and create-if-absent: the artifact
//!                                      exists once this object does (atomic publish)
//! {prefix}/snapshots/{id}/bytes        a snapshot's scoped read, written first
//! {prefix}/snapshots/{id}/meta.json    its metadata (token hash only), written last
//!                                      (first, as pending, for a table still being read)
//! {prefix}/tenants/{tenant}/{marker}   one empty object per live snapshot: the quota
//! ```
//!
//! Every object also carries its expiry as user metadata (`x-amz-meta-expires-at-ms`) so a
//! bucket tool can see it; the sweep ([`S3ArtifactStore`]'s cleanup) deletes expired
//! artifacts and snapshots and orphans (objects without a `meta.json`, left by an instance
//! killed mid-write) once they are [`crate::diff::store::ORPHAN_MAX_AGE`] old. A bucket
//! lifecycle rule is the documented backstop (README, "Many instances").
//!
//! A store that is slow or down never hangs a request: each attempt has a deadline, a
//! failed attempt is retried a bounded number of times with jittered backoff, and then
//! the operation fails as `store_unavailable` (503).

mod artifacts;
mod objects;
pub mod snapshots;
pub mod stats;

pub use artifacts::S3ArtifactStore;
pub use objects::{ObjectError, Objects};
pub use stats::{StoreState, StoreStats};
