//! [`S3ArtifactStore`]: diff artifacts in the shared bucket, under the same rules as the
//! disk store (token hash only, expiry checked on every read, metadata last, nothing
//! half-written ever served).
//!
//! # The byte cap
//!
//! `diffs.max_total_bytes` bounds the whole `diffs/` folder of the configured prefix: every
//! instance (and every tenant) writing there shares it, as every user of one data directory
//! shares the disk store's. An instance counts the folder (one listing) before its first
//! write and again when its count is over [`USAGE_REFRESH`] old; in between it adds what it
//! writes itself. A write that would not fit by that count is checked against a fresh one,
//! then against a fresh one after sweeping expired artifacts, and refused with
//! `storage_full` (507) only then, so a refusal is never made on an old figure. What other
//! instances wrote since this one last counted can overshoot the cap, by at most what they
//! write in [`USAGE_REFRESH`].

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use super::objects::{ObjectError, Objects};
use crate::diff::store::{
    check_derived, is_lower_hex, plan, random_hex, serialize_meta, unix_ms, valid_file_name,
    Artifact, ArtifactStore, CleanupReport, Created, NewArtifact, StoreError, ID_HEX_LEN,
    MAX_META_BYTES, META_FILE, TOKEN_HEX_LEN,
};

/// 80-bit ids practically never collide; a create-if-absent refusal picks another.
const CREATE_ATTEMPTS: usize = 4;

/// How long an instance trusts its count of the folder's bytes (see the module docs): a
/// listing of `diffs/` costs a request per thousand objects, too many to make per write.
pub const USAGE_REFRESH: Duration = Duration::from_secs(10);

/// This instance's count of the bytes below `diffs/`.
#[derive(Debug, Default)]
struct Usage {
    bytes: u64,
    /// When the folder was last listed; `None` before the first count.
    counted: Option<Instant>,
}

/// Diff artifacts in an S3-compatible bucket shared by every instance.
#[derive(Debug)]
pub struct S3ArtifactStore {
    objects: Arc<Objects>,
    max_artifact_bytes: u64,
    max_total_bytes: u64,
    cleanup_interval: Duration,
    last_cleanup: Mutex<Option<Instant>>,
    usage: Mutex<Usage>,
}

impl S3ArtifactStore {
    /// Artifacts in `objects`, each at most `max_artifact_bytes`, all of them together at
    /// most `max_total_bytes` (see the module docs); the opportunistic sweep runs at most
    /// once per `cleanup_interval` on each instance.
    pub fn new(
        objects: Arc<Objects>,
        max_artifact_bytes: u64,
        max_total_bytes: u64,
        cleanup_interval: Duration,
    ) -> S3ArtifactStore {
        S3ArtifactStore {
            objects,
            max_artifact_bytes,
            max_total_bytes,
            cleanup_interval,
            last_cleanup: Mutex::new(None),
            usage: Mutex::new(Usage::default()),
        }
    }

    /// Takes `bytes` of the folder's budget for a write, or refuses it with
    /// [`StoreError::StorageFull`] when even a fresh count after a sweep leaves no room.
    fn admit(&self, now: SystemTime, bytes: u64) -> Result<(), StoreError> {
        let fits = |used: u64| used.saturating_add(bytes) <= self.max_total_bytes;
        {
            let mut usage = self.usage();
            let recent = usage.counted.is_some_and(|at| at.elapsed() < USAGE_REFRESH);
            if recent && fits(usage.bytes) {
                usage.bytes = usage.bytes.saturating_add(bytes);
                return Ok(());
            }
        }
        // An old count, or one with no room: count again (without the lock; a listing can
        // take a while) before refusing anything.
        let mut used = self.count()?;
        if !fits(used) {
            let swept = self.cleanup_at(now)?;
            if swept.expired + swept.orphans > 0 {
                used = self.count()?;
            }
        }
        let mut usage = self.usage();
        usage.counted = Some(Instant::now());
        usage.bytes = used;
        if !fits(used) {
            return Err(StoreError::StorageFull {
                max: self.max_total_bytes,
            });
        }
        // Counted until the next listing, whether or not the write then succeeds: a count
        // a little high only makes the next write recount sooner.
        usage.bytes = used.saturating_add(bytes);
        Ok(())
    }

    /// The bytes of every object below `diffs/`, by one listing.
    fn count(&self) -> Result<u64, StoreError> {
        let listed = self.objects.list("diffs/").map_err(unavailable)?;
        Ok(listed.iter().map(|o| o.size).sum())
    }

    fn usage(&self) -> std::sync::MutexGuard<'_, Usage> {
        self.usage.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn meta_key(id: &str) -> String {
        format!("diffs/{id}/{META_FILE}")
    }

    fn file_key(id: &str, name: &str) -> String {
        format!("diffs/{id}/files/{name}")
    }

    fn derived_key(id: &str, name: &str) -> String {
        format!("diffs/{id}/derived/{name}")
    }

    /// The metadata of artifact `id` as stored, whatever its expiry; `None` when absent
    /// or not a valid artifact of this id.
    fn read_meta(&self, id: &str) -> Result<Option<Artifact>, StoreError> {
        let Some(bytes) = self
            .objects
            .get(&Self::meta_key(id), MAX_META_BYTES)
            .map_err(unavailable)?
        else {
            return Ok(None);
        };
        match serde_json::from_slice::<Artifact>(&bytes) {
            Ok(artifact) if artifact.id == id => Ok(Some(artifact)),
            Ok(_) => Ok(None),
            Err(e) => {
                tracing::warn!(artifact = id, error = %e, "corrupt diff artifact metadata in the store");
                Ok(None)
            }
        }
    }

    /// Writes the payloads of a new artifact under a fresh id, then its metadata. `Ok(None)`
    /// when the id turned out to be taken (pick another).
    fn try_create(
        &self,
        artifact: &Artifact,
        files: &[(&str, &[u8])],
    ) -> Result<Option<()>, StoreError> {
        let id = &artifact.id;
        let expires = artifact.expires_at_ms;
        let json = serialize_meta(artifact)?;
        for (name, bytes) in files {
            match self.objects.put(
                &Self::file_key(id, name),
                bytes.to_vec(),
                content_type(name),
                expires,
                true,
            ) {
                Ok(()) => {}
                Err(ObjectError::AlreadyExists) => return Ok(None),
                Err(e) => return Err(unavailable(e)),
            }
        }
        // The publish: before this object exists no reader sees the artifact, and
        // create-if-absent means no two writers can both publish one id.
        match self
            .objects
            .put(&Self::meta_key(id), json, "application/json", expires, true)
        {
            Ok(()) => Ok(Some(())),
            Err(ObjectError::AlreadyExists) => Ok(None),
            Err(e) => Err(unavailable(e)),
        }
    }

    /// Deletes every object of `id`, metadata first so the artifact disappears at once and
    /// a failure part way leaves an orphan (invisible, swept later), not a broken artifact.
    fn delete_objects(&self, id: &str, keys: &[String]) -> Result<(), StoreError> {
        let meta = Self::meta_key(id);
        self.objects.delete(&meta).map_err(unavailable)?;
        for key in keys.iter().filter(|k| **k != meta) {
            self.objects.delete(key).map_err(unavailable)?;
        }
        Ok(())
    }

    fn cleanup_at(&self, now: SystemTime) -> Result<CleanupReport, StoreError> {
        let groups = self.objects.list_by_id("diffs/").map_err(unavailable)?;
        let mut report = CleanupReport::default();
        let now_ms = unix_ms(now);
        for (id, group) in groups {
            let has_meta = group.keys.iter().any(|k| *k == Self::meta_key(&id));
            let expired = if has_meta {
                match self.read_meta(&id) {
                    Ok(Some(artifact)) if !artifact.is_expired(now) => continue,
                    Ok(Some(_)) => true,
                    // Unreadable metadata is treated like none: an orphan by age.
                    Ok(None) => false,
                    Err(_) => {
                        report.failed += 1;
                        continue;
                    }
                }
            } else {
                false
            };
            if !expired && !group.abandoned(now_ms) {
                // Perhaps another instance is writing it right now.
                report.young_orphans += 1;
                continue;
            }
            match self.delete_objects(&id, &group.keys) {
                Ok(()) if expired => report.expired += 1,
                Ok(()) => report.orphans += 1,
                Err(_) => report.failed += 1,
            }
        }
        Ok(report)
    }
}

impl ArtifactStore for S3ArtifactStore {
    fn create(&self, new: NewArtifact, files: &[(&str, &[u8])]) -> Result<Created, StoreError> {
        let now = SystemTime::now();
        let (mut artifact, token, total) = plan(now, new, files, self.max_artifact_bytes)?;
        artifact.id = random_hex::<10>();
        // Every attempt's metadata is as long: only its random id differs.
        let meta_bytes = serialize_meta(&artifact)?.len() as u64;
        self.admit(now, total.saturating_add(meta_bytes))?;
        for attempt in 0..CREATE_ATTEMPTS {
            if attempt > 0 {
                artifact.id = random_hex::<10>();
            }
            match self.try_create(&artifact, files) {
                Ok(Some(())) => {
                    self.maybe_cleanup();
                    let paths = artifact
                        .files
                        .iter()
                        .map(|f| {
                            let address =
                                self.objects.address(&Self::file_key(&artifact.id, &f.name));
                            (f.name.clone(), PathBuf::from(address))
                        })
                        .collect();
                    return Ok(Created {
                        token,
                        artifact,
                        paths,
                    });
                }
                Ok(None) => continue,
                Err(e) => {
                    // Nothing was published; what was written is an orphan. Removing it
                    // now is a courtesy (the sweep would, a day later).
                    let keys: Vec<String> = files
                        .iter()
                        .map(|(name, _)| Self::file_key(&artifact.id, name))
                        .collect();
                    if let Err(cleanup) = self.delete_objects(&artifact.id, &keys) {
                        tracing::debug!(code = cleanup.code(), "failed create left an orphan");
                    }
                    return Err(e);
                }
            }
        }
        tracing::warn!("could not find a free diff artifact id in the store");
        Err(StoreError::Io {
            op: "create artifact",
        })
    }

    fn get(&self, id: &str, token: &str) -> Result<Option<Artifact>, StoreError> {
        if !is_lower_hex(id, ID_HEX_LEN) || !is_lower_hex(token, TOKEN_HEX_LEN) {
            return Ok(None);
        }
        let Some(artifact) = self.read_meta(id)? else {
            return Ok(None);
        };
        let token_ok = artifact.token_matches(token);
        let live = !artifact.is_expired(SystemTime::now());
        Ok((token_ok && live).then_some(artifact))
    }

    fn read_file(&self, artifact: &Artifact, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        if !is_lower_hex(&artifact.id, ID_HEX_LEN)
            || !valid_file_name(name)
            || artifact.file(name).is_none()
        {
            return Ok(None);
        }
        self.objects
            .get(&Self::file_key(&artifact.id, name), self.max_artifact_bytes)
            .map_err(unavailable)
    }

    fn read_derived(&self, artifact: &Artifact, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        if !is_lower_hex(&artifact.id, ID_HEX_LEN)
            || !valid_file_name(name)
            || artifact.file(name).is_some()
        {
            return Ok(None);
        }
        self.objects
            .get(
                &Self::derived_key(&artifact.id, name),
                self.max_artifact_bytes,
            )
            .map_err(unavailable)
    }

    fn write_derived(
        &self,
        artifact: &Artifact,
        name: &str,
        bytes: &[u8],
    ) -> Result<(), StoreError> {
        check_derived(artifact, name, bytes, self.max_artifact_bytes)?;
        // Under the same cap as the payloads; a refused page is served uncached.
        self.admit(SystemTime::now(), bytes.len() as u64)?;
        // A derived file is determined by the payloads, so two instances rendering it at
        // once write the same bytes: overwrite is safe, and each put is atomic.
        self.objects
            .put(
                &Self::derived_key(&artifact.id, name),
                bytes.to_vec(),
                content_type(name),
                artifact.expires_at_ms,
                false,
            )
            .map_err(unavailable)
    }

    fn file_path(&self, id: &str, name: &str) -> Result<PathBuf, StoreError> {
        if !is_lower_hex(id, ID_HEX_LEN) {
            return Err(StoreError::InvalidId);
        }
        if !valid_file_name(name) {
            return Err(StoreError::InvalidFileName);
        }
        Ok(PathBuf::from(
            self.objects.address(&Self::file_key(id, name)),
        ))
    }

    fn delete(&self, id: &str) -> Result<bool, StoreError> {
        if !is_lower_hex(id, ID_HEX_LEN) {
            return Ok(false);
        }
        let keys: Vec<String> = self
            .objects
            .list(&format!("diffs/{id}/"))
            .map_err(unavailable)?
            .into_iter()
            .map(|o| o.key)
            .collect();
        if keys.is_empty() {
            return Ok(false);
        }
        self.delete_objects(id, &keys)?;
        Ok(true)
    }

    fn cleanup(&self, now: SystemTime) -> Result<CleanupReport, StoreError> {
        self.cleanup_at(now)
    }

    fn maybe_cleanup(&self) -> Option<CleanupReport> {
        {
            let mut last = self.last_cleanup.lock().unwrap_or_else(|p| p.into_inner());
            let now = Instant::now();
            if last.is_some_and(|at| now.saturating_duration_since(at) < self.cleanup_interval) {
                return None;
            }
            *last = Some(now);
        }
        match self.cleanup_at(SystemTime::now()) {
            Ok(report) => Some(report),
            Err(e) => {
                tracing::warn!(code = e.code(), "opportunistic diff store cleanup failed");
                None
            }
        }
    }
}

/// The content type stored with a payload, from its name's extension.
fn content_type(name: &str) -> &'static str {
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("pdf") => "application/pdf",
        _ => "application/octet-stream",
    }
}

/// The artifact store's error for an object store failure.
pub(crate) fn unavailable(e: ObjectError) -> StoreError {
    match e {
        ObjectError::Unavailable { op } => StoreError::Unavailable { op },
        // Only create-if-absent writes can meet this, and they handle it themselves.
        ObjectError::AlreadyExists => StoreError::Unavailable { op: "store write" },
    }
}
