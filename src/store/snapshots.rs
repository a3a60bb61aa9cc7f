//! Snapshots in the shared bucket: a snapshot made on one instance opens on any other.
//!
//! What is stored is what the snapshot was made from (the scoped read's bytes and its
//! metadata, the token's SHA-256 only), never what is derived from it: parsed models and
//! rendered views stay per instance, rebuilt from the bytes on the first request an
//! instance sees (see [`crate::preview::snapshot::SnapshotStore::get`]).
//!
//! Quotas are per tenant: the identity a request authenticates as. previewd has one API
//! token (`security.api_token`), so its holder is one tenant, keyed by a hash of the token
//! (never the token), and a server without a token has the one tenant `global`. Each live
//! snapshot has a marker object `tenants/{tenant}/{expiresAtMs}-{bytes}-{id}`: one listing
//! of the tenant's folder gives its live count and bytes without reading any metadata.
//! Instances check the quota before they publish, so two creates racing on two instances
//! can overshoot it by one snapshot each; it bounds a tenant's use, not an exact count.
//!
//! # Tables still being read
//!
//! A large CSV or workbook is read in the background ([`crate::csv::live`]): its POST
//! answers before the instance has its bytes. Such a snapshot is published at once as
//! *pending* (metadata with `pending: true` and no bytes, and its quota marker charged the
//! size the file had when it was opened), so every instance knows its id and checks its
//! token; another instance answers it with `busy` (429, `Retry-After: 1`) until the read
//! ends. Then the instance that read it stores the bytes and replaces the metadata with the
//! complete one ([`SharedSnapshots::complete`]), moving the marker to the size actually
//! read; a read that fails withdraws the snapshot from the store
//! ([`SharedSnapshots::withdraw`]), so other instances answer `not_found` while the reader
//! still shows the rows it had. A snapshot still pending [`PENDING_MAX`] after its creation
//! (its reader died or dropped it) is treated as missing.

use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::objects::{ObjectError, Objects};
use crate::diff::store::{unix_ms, MAX_META_BYTES, META_FILE};
use crate::error::Error;
use crate::preview::snapshot::{is_lower_hex, ID_HEX_LEN};

/// Version of the snapshot metadata layout.
const META_VERSION: u32 = 1;

/// Longest a snapshot may stay pending (its table still being read on the instance that
/// made it) before other instances treat it as gone. Far longer than reading the largest
/// table a kind's limit allows, even on a busy machine; an instance that died mid-read
/// leaves its snapshot unanswerable for no longer than this.
pub const PENDING_MAX: Duration = Duration::from_secs(10 * 60);

/// A snapshot's metadata as stored in `snapshots/{id}/meta.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredSnapshot {
    /// Layout version.
    pub version: u32,
    /// Public id (20 lowercase hex).
    pub id: String,
    /// Lowercase hex SHA-256 of the token; the token is never stored.
    pub token_sha256: String,
    /// The tenant whose quota the snapshot counts against.
    pub tenant: String,
    /// The workspace's id (instances serve the same workspaces under the same ids).
    pub workspace_id: String,
    /// The path relative to the workspace root.
    pub relative_path: String,
    /// The detected kind (`FileKind`'s JSON name).
    pub kind: String,
    /// Size of the file at the read.
    pub size: u64,
    /// Modification time at the read, unix milliseconds.
    pub mtime_ms: Option<u64>,
    /// SHA-256 of the bytes read.
    pub sha256: Option<String>,
    /// Whether `snapshots/{id}/bytes` holds the read's bytes.
    pub has_bytes: bool,
    /// The instance that made it is still reading its table: no bytes yet, and `size` is
    /// the size the file had when it was opened (absent in metadata written before
    /// tables were shared: false).
    #[serde(default)]
    pub pending: bool,
    /// Content type of the stored bytes.
    pub content_type: String,
    /// Creation, unix milliseconds.
    pub created_at_ms: u64,
    /// Expiry, unix milliseconds; at and after it the snapshot is gone.
    pub expires_at_ms: u64,
}

/// A stored snapshot's metadata and, when it has them, its bytes.
pub type Loaded = (StoredSnapshot, Option<Vec<u8>>);

/// The shared snapshot folder of a bucket, with one tenant's quota.
#[derive(Debug)]
pub struct SharedSnapshots {
    objects: std::sync::Arc<Objects>,
    tenant: String,
    max_count: usize,
    max_bytes: u64,
    max_read_bytes: u64,
}

/// The tenant of a server: a short hash of its API token, or `global` without one.
pub fn tenant_of(api_token: Option<&str>) -> String {
    match api_token.filter(|t| !t.is_empty()) {
        Some(token) => format!("t-{}", &hex::encode(Sha256::digest(token.as_bytes()))[..16]),
        None => "global".to_string(),
    }
}

impl SharedSnapshots {
    /// Snapshots in `objects` for `tenant`, who may hold `max_count` live snapshots of
    /// `max_bytes` together; a stored read over `max_read_bytes` is refused on load.
    pub fn new(
        objects: std::sync::Arc<Objects>,
        tenant: String,
        max_count: usize,
        max_bytes: u64,
        max_read_bytes: u64,
    ) -> SharedSnapshots {
        SharedSnapshots {
            objects,
            tenant,
            max_count,
            max_bytes,
            max_read_bytes,
        }
    }

    /// This server's tenant.
    pub fn tenant(&self) -> &str {
        &self.tenant
    }

    /// Live snapshots and their bytes of this tenant, from its markers.
    pub fn usage(&self, now: SystemTime) -> Result<(usize, u64), Error> {
        let now_ms = unix_ms(now);
        let listed = self
            .objects
            .list(&format!("tenants/{}/", self.tenant))
            .map_err(unavailable)?;
        let mut count = 0;
        let mut bytes = 0u64;
        for object in listed {
            if let Some((expires, size, _)) = parse_marker(&object.key) {
                if expires > now_ms {
                    count += 1;
                    bytes = bytes.saturating_add(size);
                }
            }
        }
        Ok((count, bytes))
    }

    /// Stores a new snapshot: its bytes first, its metadata last (it is visible once the
    /// metadata is), then its quota marker. Refused with `storage_full` when the tenant's
    /// quota has no room for it.
    pub fn publish(&self, meta: &StoredSnapshot, bytes: Option<&[u8]>) -> Result<(), Error> {
        let (count, used) = self.usage(SystemTime::now())?;
        if count >= self.max_count || used.saturating_add(meta.size) > self.max_bytes {
            return Err(Error::StorageFull(format!(
                "The snapshot quota of this tenant is used up ({count} of {} snapshots, {used} of {} bytes in store.tenant_max_snapshots / store.tenant_max_snapshot_bytes); try again once older snapshots expire.",
                self.max_count, self.max_bytes
            )));
        }
        let id = &meta.id;
        let expires = meta.expires_at_ms;
        if let Some(bytes) = bytes {
            self.put_bytes(meta, bytes)?;
        }
        let json = meta_json(meta)?;
        self.put_new(
            &format!("snapshots/{id}/{META_FILE}"),
            json,
            "application/json",
            expires,
        )?;
        self.put_new(
            &self.marker_key(meta, meta.size),
            Vec::new(),
            "application/octet-stream",
            expires,
        )
    }

    /// Completes a snapshot [`SharedSnapshots::publish`]ed as pending, whose table has
    /// now been read whole: its bytes first, then `meta` (complete) in place of the
    /// pending metadata, then its quota marker moved from `pending_size` (the size at
    /// open) to the size read. The tenant's quota is not checked again: the snapshot was
    /// admitted at its POST, and its URL has been handed out.
    pub fn complete(
        &self,
        meta: &StoredSnapshot,
        bytes: &[u8],
        pending_size: u64,
    ) -> Result<(), Error> {
        let id = &meta.id;
        let expires = meta.expires_at_ms;
        self.put_bytes(meta, bytes)?;
        // This instance wrote the pending metadata under its own fresh id, so replacing it
        // cannot clobber another snapshot; each put is atomic, so a reader sees the
        // pending metadata or the complete one.
        self.objects
            .put(
                &format!("snapshots/{id}/{META_FILE}"),
                meta_json(meta)?,
                "application/json",
                expires,
                false,
            )
            .map_err(unavailable)?;
        if meta.size != pending_size {
            self.put_new(
                &self.marker_key(meta, meta.size),
                Vec::new(),
                "application/octet-stream",
                expires,
            )?;
            self.objects
                .delete(&self.marker_key(meta, pending_size))
                .map_err(unavailable)?;
        }
        Ok(())
    }

    /// Removes a pending snapshot whose table could not be read whole: metadata first
    /// (other instances answer `not_found` from then on), then its quota marker.
    pub fn withdraw(&self, meta: &StoredSnapshot) -> Result<(), Error> {
        self.objects
            .delete(&format!("snapshots/{}/{META_FILE}", meta.id))
            .map_err(unavailable)?;
        self.objects
            .delete(&self.marker_key(meta, meta.size))
            .map_err(unavailable)
    }

    /// Writes the read's bytes of `meta`'s snapshot (before its metadata says they are there).
    fn put_bytes(&self, meta: &StoredSnapshot, bytes: &[u8]) -> Result<(), Error> {
        self.put_new(
            &format!("snapshots/{}/bytes", meta.id),
            bytes.to_vec(),
            "application/octet-stream",
            meta.expires_at_ms,
        )
    }

    /// `tenants/{tenant}/{expiresAtMs}-{bytes}-{id}`: the quota marker of `meta` charged
    /// `size` bytes.
    fn marker_key(&self, meta: &StoredSnapshot, size: u64) -> String {
        format!(
            "tenants/{}/{:013}-{size}-{}",
            self.tenant, meta.expires_at_ms, meta.id
        )
    }

    fn put_new(
        &self,
        key: &str,
        bytes: Vec<u8>,
        content_type: &'static str,
        expires: u64,
    ) -> Result<(), Error> {
        match self.objects.put(key, bytes, content_type, expires, true) {
            Ok(()) => Ok(()),
            // 80-bit random ids: a taken key is not a collision but a bug or an attack.
            Err(ObjectError::AlreadyExists) => {
                tracing::warn!(key, "snapshot object exists already");
                Err(Error::Internal)
            }
            Err(e) => Err(unavailable(e)),
        }
    }

    /// The metadata and bytes of snapshot `id`, whatever its expiry or token (the caller
    /// checks both); `None` when there is no complete snapshot of that id.
    pub fn load(&self, id: &str) -> Result<Option<Loaded>, Error> {
        if !is_lower_hex(id, ID_HEX_LEN) {
            return Ok(None);
        }
        let Some(json) = self
            .objects
            .get(&format!("snapshots/{id}/{META_FILE}"), MAX_META_BYTES)
            .map_err(unavailable)?
        else {
            return Ok(None);
        };
        let meta = match serde_json::from_slice::<StoredSnapshot>(&json) {
            Ok(meta) if meta.id == id && meta.version == META_VERSION => meta,
            Ok(_) => return Ok(None),
            Err(e) => {
                tracing::warn!(snapshot = id, error = %e, "corrupt snapshot metadata in the store");
                return Ok(None);
            }
        };
        if !meta.has_bytes {
            return Ok(Some((meta, None)));
        }
        let bytes = self
            .objects
            .get(&format!("snapshots/{id}/bytes"), self.max_read_bytes)
            .map_err(unavailable)?;
        // Metadata promising bytes that are gone (swept meanwhile) is no snapshot.
        Ok(bytes.map(|b| (meta, Some(b))))
    }

    /// Deletes expired snapshots (metadata first), orphans older than
    /// [`crate::diff::store::ORPHAN_MAX_AGE`], and expired quota markers; returns how many were deleted.
    pub fn sweep(&self, now: SystemTime) -> Result<usize, Error> {
        let now_ms = unix_ms(now);
        let mut deleted = 0;
        for object in self.objects.list("tenants/").map_err(unavailable)? {
            let expired =
                parse_marker(&object.key).is_some_and(|(expires, _, _)| expires <= now_ms);
            if expired {
                self.objects.delete(&object.key).map_err(unavailable)?;
                deleted += 1;
            }
        }
        let groups = self.objects.list_by_id("snapshots/").map_err(unavailable)?;
        for (id, group) in groups {
            let meta_key = format!("snapshots/{id}/{META_FILE}");
            let has_meta = group.keys.contains(&meta_key);
            let expired = has_meta
                && match self.load_meta_expiry(&id)? {
                    Some(expires) => expires <= now_ms,
                    None => false,
                };
            let orphan = !has_meta && group.abandoned(now_ms);
            if expired || orphan {
                // The metadata goes first: a failure part way leaves an invisible orphan.
                let mut keys = group.keys;
                keys.sort_by_key(|k| *k != meta_key);
                for key in keys {
                    self.objects.delete(&key).map_err(unavailable)?;
                }
                deleted += 1;
            }
        }
        Ok(deleted)
    }

    fn load_meta_expiry(&self, id: &str) -> Result<Option<u64>, Error> {
        let json = self
            .objects
            .get(&format!("snapshots/{id}/{META_FILE}"), MAX_META_BYTES)
            .map_err(unavailable)?;
        Ok(json
            .and_then(|j| serde_json::from_slice::<StoredSnapshot>(&j).ok())
            .map(|m| m.expires_at_ms))
    }
}

fn meta_json(meta: &StoredSnapshot) -> Result<Vec<u8>, Error> {
    serde_json::to_vec(meta).map_err(|e| {
        tracing::warn!(error = %e, "cannot serialize snapshot metadata");
        Error::Internal
    })
}

/// `(expiresAtMs, bytes, id)` of a marker key `tenants/{tenant}/{expires}-{bytes}-{id}`.
fn parse_marker(key: &str) -> Option<(u64, u64, &str)> {
    let name = key.rsplit('/').next()?;
    let mut parts = name.splitn(3, '-');
    let expires = parts.next()?.parse().ok()?;
    let bytes = parts.next()?.parse().ok()?;
    let id = parts.next().filter(|id| is_lower_hex(id, ID_HEX_LEN))?;
    Some((expires, bytes, id))
}

/// A snapshot's remaining lifetime at `now`, from its stored expiry.
pub fn remaining(meta: &StoredSnapshot, now: SystemTime) -> Option<Duration> {
    let left = meta.expires_at_ms.checked_sub(unix_ms(now))?;
    (left > 0).then(|| Duration::from_millis(left))
}

fn unavailable(e: ObjectError) -> Error {
    let op = match e {
        ObjectError::Unavailable { op } => op,
        ObjectError::AlreadyExists => "store write",
    };
    Error::StoreUnavailable(format!(
        "The shared snapshot store is unavailable ({op} did not succeed in time); try again shortly."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_parse_and_tenants_hide_the_token() {
        let key = "tenants/global/1700000000000-42-0123456789abcdef0123";
        assert_eq!(
            parse_marker(key),
            Some((1_700_000_000_000, 42, "0123456789abcdef0123"))
        );
        assert_eq!(
            parse_marker("tenants/global/x-1-0123456789abcdef0123"),
            None
        );
        assert_eq!(tenant_of(None), "global");
        assert_eq!(tenant_of(Some("")), "global");
        let t = tenant_of(Some("s3cret"));
        assert!(
            t.starts_with("t-") && t.len() == 18 && !t.contains("s3cret"),
            "{t}"
        );
        assert_ne!(t, tenant_of(Some("other")));
    }
}
