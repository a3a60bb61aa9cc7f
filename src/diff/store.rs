//! The diff artifact store: viewer pages (and later PNG/PDF exports) kept on disk for a
//! limited time, reachable by id and secret token.
//!
//! [`ArtifactStore`] is the seam: the embedded default is [`DiskStore`], a plain directory
//! (default `$TMPDIR/previewd-diffs`); the shared S3-compatible backend for many instances
//! is [`crate::store::S3ArtifactStore`] (same rules, object keys instead of files). An artifact is a folder named by its id holding its payload files and a
//! `meta.json`:
//!
//! ```text
//! {dir}/                       0700, owned by this user
//!   {id}/                      id = 20 lowercase hex, 0700
//!     viewer-recipe.json       payloads, 0600, each written atomically and fsynced
//!     diff.png | diff.pdf        (or viewer.html for a page rendered up front)
//!     meta.json                written LAST: the artifact exists only once complete
//!     viewer.html              derived: rendered from the recipe on first view, atomic,
//!                              not synced, not in meta.json (losing it costs a re-render)
//! ```
//!
//! Rules the rest of previewd relies on:
//! - Only a SHA-256 of the token is stored; presented tokens are compared in constant time.
//!   A malformed id or token (wrong length, not lowercase hex) is refused before any disk
//!   access, so it can never name a path.
//! - An expired artifact is gone for [`ArtifactStore::get`] even before cleanup deletes it.
//! - Every file goes to a temp file in the artifact folder, is fsynced and then renamed; the
//!   metadata goes last. A crash mid-write leaves a folder without metadata (an orphan),
//!   which readers ignore and the sweep removes once it is 24 h old (younger orphans may
//!   still be mid-write). A failed create removes what it made.
//! - Artifacts survive a restart: a new [`DiskStore`] over the same directory finds them.
//! - Symlinks are never followed inside the store: folders and files are opened with
//!   `O_NOFOLLOW`, and the sweep deletes planted links without following them.
//! - Errors carry no paths or OS text (those go to `tracing`), so their messages are safe to
//!   show a client.
//! - The whole store holds at most `max_total_bytes` ([`quota`]): every write reserves its
//!   bytes first; when they do not fit, expired artifacts are swept and, if that frees too
//!   little, the write is refused with [`StoreError::StorageFull`] instead of made. A
//!   derived file (a viewer page cached on first view) obeys the same budget; the server
//!   then serves the page it rendered without caching it, since the artifact is already
//!   stored and paid for and refusing its view would break a link the caller was given.

use std::collections::HashSet;
use std::fmt;
use std::fs::{self, DirBuilder, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

mod quota;

use quota::{tree_bytes, Quota, Reserved};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// Length of an artifact id in hex characters (10 random bytes).
pub const ID_HEX_LEN: usize = 20;
/// Length of an artifact token in hex characters (24 random bytes).
pub const TOKEN_HEX_LEN: usize = 48;
/// Payload name of the viewer page.
pub const VIEWER_FILE: &str = "viewer.html";
/// Payload name of a viewer page's recipe ([`crate::diff::recipe::ViewerRecipe`]); the
/// page itself is then a derived file called [`VIEWER_FILE`], rendered on first view.
pub const VIEWER_RECIPE_FILE: &str = "viewer-recipe.json";
/// Payload name of an exported PNG.
pub const PNG_FILE: &str = "diff.png";
/// Payload name of an exported PDF.
pub const PDF_FILE: &str = "diff.pdf";
/// Default cap on the payload bytes of one artifact (all its files together).
pub const DEFAULT_MAX_ARTIFACT_BYTES: u64 = 128 * 1024 * 1024;
/// Default cap on the bytes of the whole store (every file of every artifact).
pub const DEFAULT_MAX_TOTAL_BYTES: u64 = 1024 * 1024 * 1024;
/// Default minimum time between two opportunistic cleanups.
pub const DEFAULT_CLEANUP_INTERVAL: Duration = Duration::from_secs(5 * 60);
/// Age after which a folder without metadata is considered abandoned and swept.
pub const ORPHAN_MAX_AGE: Duration = Duration::from_secs(24 * 60 * 60);

/// The metadata file; never a valid payload name.
pub(crate) const META_FILE: &str = "meta.json";
/// Version of the `meta.json` layout, for later migrations.
const META_VERSION: u32 = 1;
/// Metadata is small (title ≤ 1 KiB, a few context strings); anything bigger is not ours.
pub(crate) const MAX_META_BYTES: u64 = 1024 * 1024;
/// Payload names are short, fixed names chosen by previewd, not by callers.
const MAX_FILE_NAME_LEN: usize = 64;
/// 80-bit ids practically never collide; a few retries cover the impossible case.
const CREATE_ATTEMPTS: usize = 4;

/// The default data directory: `$TMPDIR/previewd-diffs`.
pub fn default_dir() -> PathBuf {
    std::env::temp_dir().join("previewd-diffs")
}

/// Settings of a [`DiskStore`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreConfig {
    /// Data directory; created (0700) when missing. Default [`default_dir`].
    pub dir: PathBuf,
    /// Refuse artifacts whose payloads together exceed this many bytes.
    pub max_artifact_bytes: u64,
    /// Most bytes the whole store may hold, every file counted.
    pub max_total_bytes: u64,
    /// Minimum time between two runs of [`ArtifactStore::maybe_cleanup`].
    pub cleanup_interval: Duration,
    /// fsync files and folders so a complete artifact survives a power loss. Turning it off
    /// keeps the atomicity (temp file + rename, metadata last) but not the durability; it
    /// is for throughput on disks where fsync is slow.
    pub fsync: bool,
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig {
            dir: default_dir(),
            max_artifact_bytes: DEFAULT_MAX_ARTIFACT_BYTES,
            max_total_bytes: DEFAULT_MAX_TOTAL_BYTES,
            cleanup_interval: DEFAULT_CLEANUP_INTERVAL,
            fsync: true,
        }
    }
}

/// Why a store operation failed. Messages never carry paths or OS errors (those are logged),
/// so they are safe to show a client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// The payloads together exceed the configured per-artifact cap.
    TooLarge {
        /// Bytes offered.
        bytes: u64,
        /// The configured cap.
        max: u64,
    },
    /// The store holds `max_total_bytes` already, even after sweeping expired artifacts.
    StorageFull {
        /// The configured cap on the whole store.
        max: u64,
    },
    /// A payload name is not a short lowercase file name, is reserved, or repeats.
    InvalidFileName,
    /// An artifact id is not 20 lowercase hex characters.
    InvalidId,
    /// The store directory is a symlink, not a directory, not owned by this user, or not
    /// writable.
    UnusableDir,
    /// A disk operation failed; the details went to the log.
    Io {
        /// What the store was doing, for logs and metrics.
        op: &'static str,
    },
    /// The shared object store ([`crate::store`]) did not answer within its deadline and
    /// retries, or refused the request; the details went to the log.
    Unavailable {
        /// What the store was doing.
        op: &'static str,
    },
}

impl StoreError {
    /// A short, stable, snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            StoreError::TooLarge { .. } => "artifact_too_large",
            StoreError::StorageFull { .. } => "storage_full",
            StoreError::InvalidFileName => "invalid_artifact_file_name",
            StoreError::InvalidId => "invalid_artifact_id",
            StoreError::UnusableDir => "store_dir_unusable",
            StoreError::Io { .. } => "store_io",
            StoreError::Unavailable { .. } => "store_unavailable",
        }
    }

    /// The text to show the caller.
    pub fn message(&self) -> String {
        match self {
            StoreError::TooLarge { bytes, max } => {
                format!("Diff artifact is too large to store ({bytes} bytes, max {max} bytes).")
            }
            StoreError::StorageFull { max } => format!(
                "The diff artifact store is full (diffs.max_total_bytes = {max} bytes); try again once older diff artifacts expire."
            ),
            StoreError::InvalidFileName => "Invalid diff artifact file name.".to_owned(),
            StoreError::InvalidId => "Invalid diff artifact id.".to_owned(),
            StoreError::UnusableDir => {
                "The diff store directory is not a private directory owned by this user.".to_owned()
            }
            StoreError::Io { .. } => "Diff artifact storage failed.".to_owned(),
            StoreError::Unavailable { op } => format!(
                "The shared artifact store is unavailable ({op} did not succeed in time); try again shortly."
            ),
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for StoreError {}

/// What the caller supplies for a new artifact; the store adds id, token hash, times and
/// the file list.
#[derive(Debug, Clone, PartialEq)]
pub struct NewArtifact {
    /// Lifetime from now (the contract clamps it to 1–21600 s before it gets here).
    pub ttl: Duration,
    /// Viewer title.
    pub title: String,
    /// `before_after` or `patch`.
    pub input_kind: String,
    /// Number of files in the diff.
    pub file_count: u64,
    /// `view`, `file` or `both`.
    pub mode: String,
    /// The caller's context object (agentId, sessionId, …), echoed back later.
    pub context: serde_json::Map<String, serde_json::Value>,
}

/// One stored payload file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredFile {
    /// Payload name, e.g. [`VIEWER_FILE`].
    pub name: String,
    /// Format taken from the name's extension: `html`, `png`, `pdf`.
    pub format: String,
    /// Size in bytes.
    pub bytes: u64,
}

/// A complete artifact's metadata, as kept in `meta.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Artifact {
    /// Layout version of the metadata.
    pub version: u32,
    /// Public id (20 lowercase hex).
    pub id: String,
    /// Lowercase hex SHA-256 of the token; the token itself is never stored.
    token_sha256: String,
    /// Creation time, unix milliseconds.
    pub created_at_ms: u64,
    /// Expiry time, unix milliseconds; at and after it the artifact is gone.
    pub expires_at_ms: u64,
    /// Viewer title.
    pub title: String,
    /// `before_after` or `patch`.
    pub input_kind: String,
    /// Number of files in the diff.
    pub file_count: u64,
    /// `view`, `file` or `both`.
    pub mode: String,
    /// The caller's context object.
    pub context: serde_json::Map<String, serde_json::Value>,
    /// The payload files, in the order they were given.
    #[serde(default)]
    pub files: Vec<StoredFile>,
}

impl Artifact {
    /// Expiry as a wall-clock time.
    pub fn expires_at(&self) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(self.expires_at_ms)
    }

    /// Creation as a wall-clock time.
    pub fn created_at(&self) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(self.created_at_ms)
    }

    /// Whether the artifact is gone at `now`.
    pub fn is_expired(&self, now: SystemTime) -> bool {
        unix_ms(now) >= self.expires_at_ms
    }

    /// The payload entry called `name`, if the artifact has one.
    pub fn file(&self, name: &str) -> Option<&StoredFile> {
        self.files.iter().find(|f| f.name == name)
    }

    /// Constant-time check of a (well-formed) token against the stored hash.
    pub(crate) fn token_matches(&self, token: &str) -> bool {
        let mut stored = [0u8; 32];
        if hex::decode_to_slice(&self.token_sha256, &mut stored).is_err() {
            return false;
        }
        let presented: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        bool::from(stored.ct_eq(&presented))
    }
}

/// A freshly created artifact and the only copy of its token.
#[derive(Clone)]
pub struct Created {
    /// The secret token (48 lowercase hex); only its hash is on disk.
    pub token: String,
    /// The stored metadata.
    pub artifact: Artifact,
    /// Absolute path of each payload file, by name (the export returns it as `filePath`).
    pub paths: Vec<(String, PathBuf)>,
}

impl Created {
    /// The artifact id.
    pub fn id(&self) -> &str {
        &self.artifact.id
    }

    /// Absolute path of the payload called `name`.
    pub fn path(&self, name: &str) -> Option<&Path> {
        self.paths
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, p)| p.as_path())
    }
}

impl fmt::Debug for Created {
    // The token is a bearer secret: keep it out of logs that print values with `{:?}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Created")
            .field("token", &"<redacted>")
            .field("artifact", &self.artifact)
            .field("paths", &self.paths)
            .finish()
    }
}

/// What one cleanup pass did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CleanupReport {
    /// Expired artifacts deleted.
    pub expired: usize,
    /// Orphan folders (no valid metadata) older than [`ORPHAN_MAX_AGE`] deleted, plus
    /// planted symlinks removed.
    pub orphans: usize,
    /// Orphan folders kept because they are young and may be mid-write.
    pub young_orphans: usize,
    /// Entries that could not be inspected or deleted (logged).
    pub failed: usize,
}

/// Where diff artifacts live. Implementations are shared across request threads; the server
/// calls them from a blocking pool, so they may block on I/O.
pub trait ArtifactStore: Send + Sync {
    /// Stores a complete artifact with the given payloads (`(name, bytes)`; names like
    /// [`VIEWER_FILE`]) and returns its id, token and file paths. Either everything is
    /// stored or nothing is left behind.
    fn create(&self, new: NewArtifact, files: &[(&str, &[u8])]) -> Result<Created, StoreError>;

    /// The artifact `id` if `token` is its token and it has not expired. Malformed ids or
    /// tokens, unknown ids, wrong tokens and expired artifacts are all `Ok(None)`.
    fn get(&self, id: &str, token: &str) -> Result<Option<Artifact>, StoreError>;

    /// The bytes of payload `name` of an artifact returned by [`ArtifactStore::get`];
    /// `None` when it has no such payload (or it vanished, e.g. swept meanwhile).
    fn read_file(&self, artifact: &Artifact, name: &str) -> Result<Option<Vec<u8>>, StoreError>;

    /// The bytes of derived file `name` of an artifact: something its payloads determine,
    /// cached by [`ArtifactStore::write_derived`]. `None` when not (or no longer) cached.
    fn read_derived(&self, artifact: &Artifact, name: &str) -> Result<Option<Vec<u8>>, StoreError>;

    /// Caches derived file `name` beside an artifact's payloads. Atomic (a reader sees the
    /// whole file or none) but not synced and not listed in the metadata: losing it costs
    /// only its re-computation. `name` must not be one of the artifact's payloads.
    fn write_derived(
        &self,
        artifact: &Artifact,
        name: &str,
        bytes: &[u8],
    ) -> Result<(), StoreError>;

    /// Absolute local path of payload `name` of artifact `id` (whether or not it exists).
    fn file_path(&self, id: &str, name: &str) -> Result<PathBuf, StoreError>;

    /// Deletes artifact `id`; `Ok(false)` when there was none (or the id is malformed).
    fn delete(&self, id: &str) -> Result<bool, StoreError>;

    /// Deletes artifacts expired at `now` and orphan folders older than [`ORPHAN_MAX_AGE`].
    fn cleanup(&self, now: SystemTime) -> Result<CleanupReport, StoreError>;

    /// Runs [`ArtifactStore::cleanup`] unless one ran less than the configured interval
    /// ago; `None` when skipped. Failures are logged, never returned.
    fn maybe_cleanup(&self) -> Option<CleanupReport>;
}

/// The embedded store: one folder per artifact under a private data directory.
#[derive(Debug)]
pub struct DiskStore {
    /// Absolute, checked at open.
    root: PathBuf,
    max_artifact_bytes: u64,
    cleanup_interval: Duration,
    fsync: bool,
    /// When the last opportunistic cleanup started; `None` until the first one.
    last_cleanup: Mutex<Option<Instant>>,
    /// The byte budget of the whole store.
    quota: Quota,
    /// Held by a sweep: one runs at a time, and a full store's writers wait for it.
    sweep_lock: Mutex<()>,
    /// Held while a derived file is written or an artifact folder is measured and removed,
    /// so a deletion gives back exactly the bytes that were counted in the folder.
    folder_lock: Mutex<()>,
    /// Test hook: fail a create after its payloads are written, before the metadata.
    #[cfg(test)]
    fail_before_meta: std::sync::atomic::AtomicBool,
}

/// Refuses a derived file whose artifact id, name or size no store may write: the one rule
/// of both backends (a derived name never shadows a payload).
pub(crate) fn check_derived(
    artifact: &Artifact,
    name: &str,
    bytes: &[u8],
    max_artifact_bytes: u64,
) -> Result<(), StoreError> {
    if !is_lower_hex(&artifact.id, ID_HEX_LEN) {
        return Err(StoreError::InvalidId);
    }
    if !valid_file_name(name) || artifact.file(name).is_some() {
        return Err(StoreError::InvalidFileName);
    }
    if bytes.len() as u64 > max_artifact_bytes {
        return Err(StoreError::TooLarge {
            bytes: bytes.len() as u64,
            max: max_artifact_bytes,
        });
    }
    Ok(())
}

impl DiskStore {
    /// Opens (creating when missing) the store directory of `config`. The directory must
    /// be a real directory (not a symlink) owned by this user and writable; its permissions
    /// are tightened to 0700 because artifacts are readable by anyone holding a path.
    pub fn open(config: &StoreConfig) -> Result<Self, StoreError> {
        let root = std::path::absolute(&config.dir)
            .map_err(|e| io_error("resolve store dir", &config.dir, e))?;
        DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&root)
            .map_err(|e| io_error("create store dir", &root, e))?;
        let meta =
            fs::symlink_metadata(&root).map_err(|e| io_error("inspect store dir", &root, e))?;
        if meta.file_type().is_symlink() || !meta.is_dir() {
            tracing::warn!(path = %root.display(), "diff store dir is a symlink or not a directory");
            return Err(StoreError::UnusableDir);
        }
        // Ownership first, so a directory someone else owns is never modified.
        check_owned_and_writable(&root, meta.uid())?;
        if meta.mode() & 0o7777 != 0o700 {
            fs::set_permissions(&root, fs::Permissions::from_mode(0o700)).map_err(|e| {
                tracing::warn!(path = %root.display(), error = %e, "cannot make diff store dir private");
                StoreError::UnusableDir
            })?;
        }
        // The one walk of the store: from here on the total is kept as a running sum.
        let used = tree_bytes(&root);
        Ok(DiskStore {
            root,
            max_artifact_bytes: config.max_artifact_bytes,
            cleanup_interval: config.cleanup_interval,
            fsync: config.fsync,
            last_cleanup: Mutex::new(None),
            quota: Quota::new(config.max_total_bytes, used),
            sweep_lock: Mutex::new(()),
            folder_lock: Mutex::new(()),
            #[cfg(test)]
            fail_before_meta: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// The absolute data directory.
    pub fn dir(&self) -> &Path {
        &self.root
    }

    /// Bytes the store holds by its running count.
    pub fn used_bytes(&self) -> u64 {
        self.quota.used()
    }

    /// Reserves `bytes` of the budget; when they do not fit, sweeps expired artifacts (if
    /// one may have expired since the last sweep) and tries once more.
    fn reserve(&self, now: SystemTime, bytes: u64) -> Result<Reserved<'_>, StoreError> {
        if let Some(reserved) = self.quota.try_reserve(bytes) {
            return Ok(reserved);
        }
        {
            let _sweeping = lock(&self.sweep_lock);
            // Another writer's sweep may have made room while this one waited.
            if let Some(reserved) = self.quota.try_reserve(bytes) {
                return Ok(reserved);
            }
            if self.quota.sweep_may_help(unix_ms(now)) {
                if let Err(e) = self.sweep(now) {
                    tracing::warn!(code = e.code(), "diff store sweep for room failed");
                }
            }
        }
        self.quota
            .try_reserve(bytes)
            .ok_or(StoreError::StorageFull {
                max: self.quota.max(),
            })
    }

    /// Removes one artifact folder (or planted entry) and gives back its counted bytes.
    fn remove_folder(&self, path: &Path) -> io::Result<()> {
        let _folder = lock(&self.folder_lock);
        let before = tree_bytes(path);
        // remove_dir_all removes a symlink itself and never descends through links.
        let result = fs::remove_dir_all(path);
        self.quota.release(before.saturating_sub(tree_bytes(path)));
        result
    }

    fn create_at(
        &self,
        now: SystemTime,
        new: NewArtifact,
        files: &[(&str, &[u8])],
    ) -> Result<Created, StoreError> {
        // Everything the caller can get wrong is refused before the disk is touched.
        let (mut artifact, token, total) = plan(now, new, files, self.max_artifact_bytes)?;
        artifact.id = self.make_artifact_dir()?;
        let dir = self.root.join(&artifact.id);
        let written = serialize_meta(&artifact).and_then(|json| {
            let reserved = self.reserve(now, total.saturating_add(json.len() as u64))?;
            self.write_artifact(&dir, &json, files)?;
            reserved.keep();
            Ok(())
        });
        if let Err(err) = written {
            // A failed create leaves nothing behind (its reservation went back with the
            // error); if even this fails, the folder has no metadata, so it is an invisible
            // orphan that the sweep removes later, counted until then.
            if let Err(e) = fs::remove_dir_all(&dir) {
                tracing::warn!(path = %dir.display(), error = %e, "cannot remove a failed diff artifact");
                self.quota.add(tree_bytes(&dir));
            }
            return Err(err);
        }
        self.quota.note_expiry(artifact.expires_at_ms);

        let paths = artifact
            .files
            .iter()
            .map(|f| (f.name.clone(), dir.join(&f.name)))
            .collect();
        Ok(Created {
            token,
            artifact,
            paths,
        })
    }

    /// Creates a fresh, private folder for a new id.
    fn make_artifact_dir(&self) -> Result<String, StoreError> {
        for _ in 0..CREATE_ATTEMPTS {
            let id = random_hex::<10>();
            let dir = self.root.join(&id);
            // mkdir never follows a symlink in the last component: a planted link makes it
            // fail with AlreadyExists, and we simply pick another id.
            match DirBuilder::new().mode(0o700).create(&dir) {
                Ok(()) => return Ok(id),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(io_error("create artifact dir", &dir, e)),
            }
        }
        tracing::warn!("could not find a free diff artifact id");
        Err(StoreError::Io {
            op: "create artifact dir",
        })
    }

    fn write_artifact(
        &self,
        dir: &Path,
        meta_json: &[u8],
        files: &[(&str, &[u8])],
    ) -> Result<(), StoreError> {
        for (name, bytes) in files {
            self.write_atomic(dir, name, bytes)?;
        }
        #[cfg(test)]
        if self
            .fail_before_meta
            .load(std::sync::atomic::Ordering::SeqCst)
        {
            return Err(StoreError::Io { op: "test failure" });
        }
        if self.fsync {
            // The payload renames must be durable before the metadata can appear.
            sync_dir(dir)?;
        }
        self.write_atomic(dir, META_FILE, meta_json)?;
        if self.fsync {
            sync_dir(dir)?;
            sync_dir(&self.root)?;
        }
        Ok(())
    }

    /// Writes `bytes` to a temp file in `dir`, syncs it and renames it to `name`.
    fn write_atomic(&self, dir: &Path, name: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.write_atomic_with(dir, name, bytes, self.fsync)
    }

    /// [`DiskStore::write_atomic`], synced to disk only when `sync` is set.
    fn write_atomic_with(
        &self,
        dir: &Path,
        name: &str,
        bytes: &[u8],
        sync: bool,
    ) -> Result<(), StoreError> {
        let tmp = dir.join(format!(".tmp-{}", random_hex::<8>()));
        let result = (|| {
            // create_new (O_EXCL) never follows or reuses an existing entry.
            let mut file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&tmp)?;
            file.write_all(bytes)?;
            if sync {
                file.sync_all()?;
            }
            drop(file);
            // rename replaces a directory entry; it never follows a link at the target.
            fs::rename(&tmp, dir.join(name))
        })();
        result.map_err(|e| {
            // Best effort; the caller removes the whole folder anyway.
            let _ = fs::remove_file(&tmp);
            io_error("write artifact file", &dir.join(name), e)
        })
    }

    fn get_at(
        &self,
        now: SystemTime,
        id: &str,
        token: &str,
    ) -> Result<Option<Artifact>, StoreError> {
        if !is_lower_hex(id, ID_HEX_LEN) || !is_lower_hex(token, TOKEN_HEX_LEN) {
            return Ok(None);
        }
        let artifact = match self.read_meta(id) {
            Ok(MetaRead::Valid(artifact)) => artifact,
            Ok(MetaRead::Missing | MetaRead::Invalid) => return Ok(None),
            Err(e) => return Err(io_error("read metadata", &self.root.join(id), e)),
        };
        // Both checks run whatever the outcome of the other, and expiry reveals nothing
        // without a valid token anyway.
        let token_ok = artifact.token_matches(token);
        let live = !artifact.is_expired(now);
        Ok((token_ok && live).then_some(*artifact))
    }

    /// Reads and checks `{id}/meta.json` without following symlinks.
    fn read_meta(&self, id: &str) -> io::Result<MetaRead> {
        let dir = self.root.join(id);
        match open_nofollow(&dir, true) {
            Ok(_) => {}
            Err(e) if is_absent(&e) => return Ok(MetaRead::Missing),
            Err(e) => return Err(e),
        }
        let file = match open_nofollow(&dir.join(META_FILE), false) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(MetaRead::Missing),
            Err(e) if is_absent(&e) => return Ok(MetaRead::Invalid),
            Err(e) => return Err(e),
        };
        let Some(bytes) = read_regular(file, MAX_META_BYTES)? else {
            tracing::warn!(path = %dir.display(), "diff artifact metadata is not a small regular file");
            return Ok(MetaRead::Invalid);
        };
        match serde_json::from_slice::<Artifact>(&bytes) {
            // A folder copied or renamed by hand is not the artifact its metadata names.
            Ok(artifact) if artifact.id == id => Ok(MetaRead::Valid(Box::new(artifact))),
            Ok(_) => Ok(MetaRead::Invalid),
            Err(e) => {
                tracing::warn!(path = %dir.display(), error = %e, "corrupt diff artifact metadata");
                Ok(MetaRead::Invalid)
            }
        }
    }

    fn read_file_inner(&self, id: &str, name: &str) -> io::Result<Option<Vec<u8>>> {
        let dir = self.root.join(id);
        match open_nofollow(&dir, true) {
            Ok(_) => {}
            Err(e) if is_absent(&e) => return Ok(None),
            Err(e) => return Err(e),
        }
        let file = match open_nofollow(&dir.join(name), false) {
            Ok(file) => file,
            Err(e) if is_absent(&e) => return Ok(None),
            Err(e) => return Err(e),
        };
        let bytes = read_regular(file, self.max_artifact_bytes)?;
        if bytes.is_none() {
            tracing::warn!(path = %dir.join(name).display(), "diff artifact file is not a regular file within the size cap");
        }
        Ok(bytes)
    }

    fn maybe_cleanup_at(&self, now: Instant) -> Option<CleanupReport> {
        {
            // A poisoned lock only means a panic elsewhere mid-update; the Option is valid.
            let mut last = self.last_cleanup.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(at) = *last {
                if now.saturating_duration_since(at) < self.cleanup_interval {
                    return None;
                }
            }
            // Claimed before running, so concurrent callers skip instead of sweeping twice.
            *last = Some(now);
        }
        match self.cleanup(SystemTime::now()) {
            Ok(report) => Some(report),
            Err(e) => {
                tracing::warn!(code = e.code(), "opportunistic diff store cleanup failed");
                None
            }
        }
    }

    /// Inspects one top-level entry during cleanup; `earliest` becomes the earliest expiry
    /// of an artifact it keeps.
    fn sweep_entry(
        &self,
        now: SystemTime,
        entry: &fs::DirEntry,
        report: &mut CleanupReport,
        earliest: &mut u64,
    ) {
        let name = entry.file_name();
        let Some(name) = name.to_str().filter(|n| is_lower_hex(n, ID_HEX_LEN)) else {
            // Not something the store made; leave it alone.
            return;
        };
        let path = entry.path();
        let file_type = match entry.file_type() {
            Ok(t) => t,
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "cannot inspect diff store entry");
                report.failed += 1;
                return;
            }
        };
        if file_type.is_symlink() {
            // The store never makes links: one with an id's name was planted. Removing the
            // link itself never touches its target.
            match fs::remove_file(&path) {
                Ok(()) => report.orphans += 1,
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => {
                    tracing::warn!(path = %path.display(), error = %e, "cannot remove symlink in diff store");
                    report.failed += 1;
                }
            }
            return;
        }
        if !file_type.is_dir() {
            return;
        }
        let expired = match self.read_meta(name) {
            Ok(MetaRead::Valid(artifact)) => {
                if !artifact.is_expired(now) {
                    *earliest = (*earliest).min(artifact.expires_at_ms);
                    return;
                }
                true
            }
            Ok(MetaRead::Missing | MetaRead::Invalid) => false,
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "cannot read diff artifact metadata");
                report.failed += 1;
                return;
            }
        };
        if !expired {
            // An orphan's age is the folder's mtime, which moves with every file created or
            // renamed in it, so a create still in progress always looks young.
            let old = entry.metadata().and_then(|m| m.modified()).map(|mtime| {
                now.duration_since(mtime)
                    .is_ok_and(|age| age >= ORPHAN_MAX_AGE)
            });
            match old {
                Ok(true) => {}
                Ok(false) => {
                    report.young_orphans += 1;
                    return;
                }
                Err(e) => {
                    tracing::warn!(path = %path.display(), error = %e, "cannot read diff store entry time");
                    report.failed += 1;
                    return;
                }
            }
        }
        match self.remove_folder(&path) {
            Ok(()) if expired => report.expired += 1,
            Ok(()) => report.orphans += 1,
            // Deleted concurrently (another sweep, or an explicit delete).
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "cannot delete diff artifact");
                report.failed += 1;
            }
        }
    }
}

impl ArtifactStore for DiskStore {
    /// Also runs [`ArtifactStore::maybe_cleanup`] after a successful create, on the
    /// calling thread.
    fn create(&self, new: NewArtifact, files: &[(&str, &[u8])]) -> Result<Created, StoreError> {
        let created = self.create_at(SystemTime::now(), new, files)?;
        self.maybe_cleanup();
        Ok(created)
    }

    fn get(&self, id: &str, token: &str) -> Result<Option<Artifact>, StoreError> {
        self.get_at(SystemTime::now(), id, token)
    }

    fn read_file(&self, artifact: &Artifact, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        // Only listed payloads: never the metadata or a temp file.
        if !is_lower_hex(&artifact.id, ID_HEX_LEN)
            || !valid_file_name(name)
            || artifact.file(name).is_none()
        {
            return Ok(None);
        }
        self.read_file_inner(&artifact.id, name)
            .map_err(|e| io_error("read artifact file", &self.root.join(&artifact.id), e))
    }

    fn read_derived(&self, artifact: &Artifact, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        if !is_lower_hex(&artifact.id, ID_HEX_LEN)
            || !valid_file_name(name)
            || artifact.file(name).is_some()
        {
            return Ok(None);
        }
        self.read_file_inner(&artifact.id, name)
            .map_err(|e| io_error("read derived file", &self.root.join(&artifact.id), e))
    }

    fn write_derived(
        &self,
        artifact: &Artifact,
        name: &str,
        bytes: &[u8],
    ) -> Result<(), StoreError> {
        check_derived(artifact, name, bytes, self.max_artifact_bytes)?;
        let dir = self.root.join(&artifact.id);
        let cached = || fs::symlink_metadata(dir.join(name)).is_ok_and(|m| m.is_file());
        if cached() {
            // Nothing to write, so nothing to reserve (checked again under the lock).
            return Ok(());
        }
        // Reserve before taking the folder lock: a full store's reservation sweeps expired
        // artifacts, and removing their folders takes that lock. An unused reservation is
        // given back when dropped.
        let reserved = self.reserve(SystemTime::now(), bytes.len() as u64)?;
        let _folder = lock(&self.folder_lock);
        // The folder must still be a real directory (not swept, not replaced by a link).
        open_nofollow(&dir, true).map_err(|e| io_error("open artifact dir", &dir, e))?;
        if cached() {
            // Already cached by a concurrent first view: a derived file is determined by
            // the payloads, so the copy on disk is the same bytes (and is counted once).
            return Ok(());
        }
        self.write_atomic_with(&dir, name, bytes, false)?;
        reserved.keep();
        Ok(())
    }

    fn file_path(&self, id: &str, name: &str) -> Result<PathBuf, StoreError> {
        if !is_lower_hex(id, ID_HEX_LEN) {
            return Err(StoreError::InvalidId);
        }
        if !valid_file_name(name) {
            return Err(StoreError::InvalidFileName);
        }
        Ok(self.root.join(id).join(name))
    }

    fn delete(&self, id: &str) -> Result<bool, StoreError> {
        if !is_lower_hex(id, ID_HEX_LEN) {
            return Ok(false);
        }
        let dir = self.root.join(id);
        match self.remove_folder(&dir) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(io_error("delete artifact", &dir, e)),
        }
    }

    fn cleanup(&self, now: SystemTime) -> Result<CleanupReport, StoreError> {
        let _sweeping = lock(&self.sweep_lock);
        self.sweep(now)
    }

    fn maybe_cleanup(&self) -> Option<CleanupReport> {
        self.maybe_cleanup_at(Instant::now())
    }
}

impl DiskStore {
    /// One cleanup pass; the caller holds `sweep_lock`.
    fn sweep(&self, now: SystemTime) -> Result<CleanupReport, StoreError> {
        self.quota.begin_sweep();
        let entries = match fs::read_dir(&self.root) {
            Ok(entries) => entries,
            Err(e) => {
                self.quota.end_sweep(0);
                return Err(io_error("list store dir", &self.root, e));
            }
        };
        let mut report = CleanupReport::default();
        let mut earliest = u64::MAX;
        for entry in entries {
            match entry {
                Ok(entry) => self.sweep_entry(now, &entry, &mut report, &mut earliest),
                Err(e) => {
                    tracing::warn!(error = %e, "cannot read diff store entry");
                    report.failed += 1;
                }
            }
        }
        // An entry that could not be read may hold an expiry this pass did not see.
        self.quota
            .end_sweep(if report.failed > 0 { 0 } else { earliest });
        Ok(report)
    }
}

/// Checks a new artifact's payloads against the per-artifact cap and the naming rules and
/// makes its metadata (id still empty) and token; also returns the payloads' total bytes.
/// Shared by every [`ArtifactStore`], so they refuse the same calls the same way.
pub(crate) fn plan(
    now: SystemTime,
    new: NewArtifact,
    files: &[(&str, &[u8])],
    max_artifact_bytes: u64,
) -> Result<(Artifact, String, u64), StoreError> {
    let total = files.iter().fold(0u64, |sum, (_, bytes)| {
        sum.saturating_add(bytes.len() as u64)
    });
    if total > max_artifact_bytes {
        return Err(StoreError::TooLarge {
            bytes: total,
            max: max_artifact_bytes,
        });
    }
    let mut seen = HashSet::new();
    for (name, _) in files {
        if !valid_file_name(name) || !seen.insert(*name) {
            return Err(StoreError::InvalidFileName);
        }
    }
    let token = random_hex::<24>();
    let created_at_ms = unix_ms(now);
    let ttl_ms = u64::try_from(new.ttl.as_millis()).unwrap_or(u64::MAX);
    let artifact = Artifact {
        version: META_VERSION,
        id: String::new(),
        token_sha256: hex::encode(Sha256::digest(token.as_bytes())),
        created_at_ms,
        expires_at_ms: created_at_ms.saturating_add(ttl_ms),
        title: new.title,
        input_kind: new.input_kind,
        file_count: new.file_count,
        mode: new.mode,
        context: new.context,
        files: files
            .iter()
            .map(|(name, bytes)| StoredFile {
                name: (*name).to_owned(),
                format: format_of(name).to_owned(),
                bytes: bytes.len() as u64,
            })
            .collect(),
    };
    Ok((artifact, token, total))
}

/// Takes a lock that guards no data of its own; a panic elsewhere does not poison it.
fn lock(mutex: &Mutex<()>) -> std::sync::MutexGuard<'_, ()> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

/// The metadata as written to `meta.json`.
pub(crate) fn serialize_meta(artifact: &Artifact) -> Result<Vec<u8>, StoreError> {
    serde_json::to_vec_pretty(artifact).map_err(|e| {
        tracing::warn!(error = %e, "cannot serialize diff artifact metadata");
        StoreError::Io {
            op: "serialize metadata",
        }
    })
}

/// Outcome of reading an artifact's metadata.
enum MetaRead {
    /// No folder or no `meta.json`: not an artifact (perhaps mid-write).
    Missing,
    /// Something is there but it is not a valid artifact of this id.
    Invalid,
    /// A complete artifact.
    Valid(Box<Artifact>),
}

/// Logs an I/O failure with its detail and returns the detail-free error.
fn io_error(op: &'static str, path: &Path, e: io::Error) -> StoreError {
    tracing::warn!(op, path = %path.display(), error = %e, "diff store I/O failed");
    StoreError::Io { op }
}

/// Confirms the store directory belongs to the uid this process writes files as, by
/// creating and removing a probe file (which also proves it is writable). Unlike a
/// permission check this also holds for root, who may write into anyone's directory.
fn check_owned_and_writable(root: &Path, dir_uid: u32) -> Result<(), StoreError> {
    let probe = root.join(format!(".probe-{}", random_hex::<8>()));
    let created = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&probe)
        .and_then(|f| f.metadata());
    let _ = fs::remove_file(&probe);
    match created {
        Ok(meta) if meta.uid() == dir_uid => Ok(()),
        Ok(_) => {
            tracing::warn!(path = %root.display(), "diff store dir is owned by another user");
            Err(StoreError::UnusableDir)
        }
        Err(e) => {
            tracing::warn!(path = %root.display(), error = %e, "diff store dir is not writable");
            Err(StoreError::UnusableDir)
        }
    }
}

/// Opens a file (or, with `dir`, a directory) for reading without following a symlink in
/// the last component and without blocking on a FIFO.
fn open_nofollow(path: &Path, dir: bool) -> io::Result<File> {
    let mut flags = libc::O_NOFOLLOW | libc::O_NONBLOCK;
    if dir {
        flags |= libc::O_DIRECTORY;
    }
    OpenOptions::new().read(true).custom_flags(flags).open(path)
}

/// Errors that mean "nothing usable here": missing, a symlink we refuse to follow (ELOOP),
/// or a file where a folder should be (ENOTDIR).
fn is_absent(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::NotFound
        || matches!(e.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR))
}

/// Reads an open file if it is a regular file of at most `max` bytes; `None` otherwise.
fn read_regular(file: File, max: u64) -> io::Result<Option<Vec<u8>>> {
    let meta = file.metadata()?;
    if !meta.is_file() || meta.len() > max {
        return Ok(None);
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    // take(max + 1): a file that grew after the fstat is caught instead of read unbounded.
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= max).then_some(bytes))
}

/// fsyncs a directory so the entries created or renamed in it are durable.
fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    open_nofollow(dir, true)
        .and_then(|d| d.sync_all())
        .map_err(|e| io_error("sync dir", dir, e))
}

/// `len` lowercase hex digits and nothing else.
pub(crate) fn is_lower_hex(s: &str, len: usize) -> bool {
    s.len() == len && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A payload name: short, lowercase `[a-z0-9._-]`, starting with a letter or digit (so never
/// a hidden/temp name or `..`), and not the metadata file.
pub(crate) fn valid_file_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_FILE_NAME_LEN
        && name != META_FILE
        && name.as_bytes()[0].is_ascii_alphanumeric()
        && name
            .bytes()
            .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'.' | b'_' | b'-'))
}

/// The format recorded for a payload: its extension (`html`, `png`, `pdf`).
fn format_of(name: &str) -> &str {
    name.rsplit_once('.').map_or("", |(_, ext)| ext)
}

/// `N` random bytes from the thread-local CSPRNG, as lowercase hex.
pub(crate) fn random_hex<const N: usize>() -> String {
    let mut bytes = [0u8; N];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// Unix milliseconds; times before the epoch count as the epoch.
pub(crate) fn unix_ms(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    const HOUR: Duration = Duration::from_secs(3600);

    fn config(dir: &Path) -> StoreConfig {
        StoreConfig {
            dir: dir.to_path_buf(),
            // Tests drive cleanup explicitly; creates must not sweep behind their back.
            cleanup_interval: Duration::from_secs(365 * 24 * 3600),
            ..StoreConfig::default()
        }
    }

    fn open(dir: &Path) -> DiskStore {
        DiskStore::open(&config(dir)).expect("open store")
    }

    fn new_artifact(ttl: Duration) -> NewArtifact {
        let mut context = serde_json::Map::new();
        context.insert("agentId".into(), "agent-7".into());
        context.insert("sessionId".into(), "s-1".into());
        NewArtifact {
            ttl,
            title: "src/lib.rs".into(),
            input_kind: "before_after".into(),
            file_count: 1,
            mode: "view".into(),
            context,
        }
    }

    const PAGE: &[u8] = b"<!doctype html><title>diff</title>";

    fn create(store: &DiskStore, now: SystemTime, ttl: Duration) -> Created {
        store
            .create_at(now, new_artifact(ttl), &[(VIEWER_FILE, PAGE)])
            .expect("create")
    }

    #[test]
    fn derived_files_are_cached_beside_payloads_but_never_replace_them() {
        let tmp = tempfile::tempdir().unwrap();
        let store = open(tmp.path());
        let now = SystemTime::now();
        let created = store
            .create_at(now, new_artifact(HOUR), &[(VIEWER_RECIPE_FILE, b"{}")])
            .expect("create");
        let artifact = store
            .get_at(now, created.id(), &created.token)
            .unwrap()
            .unwrap();
        assert_eq!(store.read_derived(&artifact, VIEWER_FILE).unwrap(), None);
        store.write_derived(&artifact, VIEWER_FILE, PAGE).unwrap();
        assert_eq!(
            store
                .read_derived(&artifact, VIEWER_FILE)
                .unwrap()
                .as_deref(),
            Some(PAGE)
        );
        // Not a payload: the metadata does not list it and read_file does not serve it.
        let again = store
            .get_at(now, created.id(), &created.token)
            .unwrap()
            .unwrap();
        assert_eq!(again.files.len(), 1);
        assert_eq!(store.read_file(&again, VIEWER_FILE).unwrap(), None);
        // Payloads, the metadata and odd names can be neither written nor read as derived.
        for name in [VIEWER_RECIPE_FILE, META_FILE, "../x", ".tmp-1", ""] {
            assert!(
                store.write_derived(&artifact, name, PAGE).is_err(),
                "{name}"
            );
            assert_eq!(store.read_derived(&artifact, name).unwrap(), None, "{name}");
        }
        let big = vec![b'x'; 16];
        let small = DiskStore::open(&StoreConfig {
            max_artifact_bytes: 8,
            ..config(tmp.path())
        })
        .unwrap();
        assert!(matches!(
            small.write_derived(&artifact, "big.html", &big),
            Err(StoreError::TooLarge { .. })
        ));
        // A swept artifact gets no derived file back.
        assert!(store.delete(created.id()).unwrap());
        assert!(store.write_derived(&artifact, VIEWER_FILE, PAGE).is_err());
        assert!(!tmp.path().join(created.id()).exists());
    }

    /// Writes a folder that looks like an artifact whose token is `token`, bypassing every
    /// check of `create`.
    fn plant(root: &Path, id: &str, token: &str, expires_at_ms: u64) {
        let dir = root.join(id);
        fs::create_dir(&dir).unwrap();
        fs::write(dir.join(VIEWER_FILE), PAGE).unwrap();
        let meta = serde_json::json!({
            "version": 1, "id": id,
            "tokenSha256": hex::encode(Sha256::digest(token.as_bytes())),
            "createdAtMs": 0, "expiresAtMs": expires_at_ms, "title": "planted",
            "inputKind": "patch", "fileCount": 1, "mode": "view", "context": {},
            "files": [{"name": VIEWER_FILE, "format": "html", "bytes": PAGE.len()}],
        });
        fs::write(dir.join(META_FILE), serde_json::to_vec(&meta).unwrap()).unwrap();
    }

    fn set_mtime(path: &Path, t: SystemTime) {
        File::open(path).unwrap().set_modified(t).unwrap();
    }

    fn entries(root: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(root)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    fn all_file_bytes(dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        for entry in fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                all_file_bytes(&entry.path(), out);
            } else {
                out.push((entry.path(), fs::read(entry.path()).unwrap()));
            }
        }
    }

    fn contains(haystack: &[u8], needle: &[u8]) -> bool {
        haystack.windows(needle.len()).any(|w| w == needle)
    }

    #[test]
    fn create_get_round_trip() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("diffs");
        let store = open(&root);
        let now = SystemTime::now();
        let created = create(&store, now, Duration::from_secs(1800));

        assert!(is_lower_hex(created.id(), ID_HEX_LEN));
        assert!(is_lower_hex(&created.token, TOKEN_HEX_LEN));
        let got = store
            .get_at(now, created.id(), &created.token)
            .unwrap()
            .expect("artifact");
        assert_eq!(got, created.artifact);
        assert_eq!(got.title, "src/lib.rs");
        assert_eq!(got.input_kind, "before_after");
        assert_eq!(got.mode, "view");
        assert_eq!(got.file_count, 1);
        assert_eq!(got.context["agentId"], "agent-7");
        assert_eq!(got.expires_at_ms - got.created_at_ms, 1_800_000);
        assert_eq!(got.created_at_ms, unix_ms(now));
        assert_eq!(
            got.files,
            vec![StoredFile {
                name: VIEWER_FILE.into(),
                format: "html".into(),
                bytes: PAGE.len() as u64
            }]
        );
        assert_eq!(
            store.read_file(&got, VIEWER_FILE).unwrap().as_deref(),
            Some(PAGE)
        );
        // Unlisted names are never served, the metadata least of all.
        assert_eq!(store.read_file(&got, META_FILE).unwrap(), None);
        assert_eq!(store.read_file(&got, PNG_FILE).unwrap(), None);

        let path = store.file_path(created.id(), VIEWER_FILE).unwrap();
        assert!(path.is_absolute());
        assert_eq!(created.path(VIEWER_FILE), Some(path.as_path()));
        assert_eq!(path, root.join(created.id()).join(VIEWER_FILE));
        assert_eq!(fs::read(&path).unwrap(), PAGE);

        let mode = |p: &Path| fs::metadata(p).unwrap().mode() & 0o777;
        assert_eq!(mode(&root), 0o700);
        assert_eq!(mode(&root.join(created.id())), 0o700);
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(&root.join(created.id()).join(META_FILE)), 0o600);
        // Only the payload and the metadata remain: no temp files.
        assert_eq!(
            entries(&root.join(created.id())),
            vec![META_FILE.to_owned(), VIEWER_FILE.to_owned()]
        );
        assert!(!format!("{created:?}").contains(&created.token));
        // Object-safe, so the server can hold any backend as `Arc<dyn ArtifactStore>`.
        let dyn_store: &dyn ArtifactStore = &store;
        assert!(dyn_store
            .get(created.id(), &created.token)
            .unwrap()
            .is_some());
    }

    #[test]
    fn two_files_and_the_public_create() {
        let tmp = tempfile::tempdir().unwrap();
        let store = open(tmp.path());
        let created = store
            .create(
                new_artifact(HOUR),
                &[(VIEWER_FILE, PAGE), (PNG_FILE, b"\x89PNG fake")],
            )
            .unwrap();
        let got = store.get(created.id(), &created.token).unwrap().unwrap();
        assert_eq!(got.file(PNG_FILE).unwrap().format, "png");
        assert_eq!(got.file(PNG_FILE).unwrap().bytes, 9);
        assert_eq!(
            store.read_file(&got, PNG_FILE).unwrap().unwrap(),
            b"\x89PNG fake"
        );
        assert_ne!(
            store.create(new_artifact(HOUR), &[]).unwrap().id(),
            created.id()
        );
    }

    #[test]
    fn wrong_token_is_none() {
        let tmp = tempfile::tempdir().unwrap();
        let store = open(tmp.path());
        let now = SystemTime::now();
        let created = create(&store, now, HOUR);
        let other = random_hex::<24>();
        assert_eq!(store.get_at(now, created.id(), &other).unwrap(), None);
        assert_eq!(
            store
                .get_at(now, &random_hex::<10>(), &created.token)
                .unwrap(),
            None
        );
        // Same token on another artifact's id.
        let second = create(&store, now, HOUR);
        assert_eq!(
            store.get_at(now, second.id(), &created.token).unwrap(),
            None
        );
    }

    #[test]
    fn malformed_ids_and_tokens_never_reach_the_disk() {
        let tmp = tempfile::tempdir().unwrap();
        let store = open(tmp.path());
        let far = unix_ms(SystemTime::now() + HOUR);
        let good_id = "0123456789abcdef0123";
        let good_token = "0123456789abcdef0123456789abcdef0123456789abcdef";

        // Control: a planted folder with a lowercase id and token IS found, so the planted
        // folders below would be found too if the malformed values reached the disk.
        plant(tmp.path(), good_id, good_token, far);
        assert!(store.get(good_id, good_token).unwrap().is_some());

        let upper_id = "0123456789ABCDEF0123";
        plant(tmp.path(), upper_id, good_token, far);
        assert_eq!(store.get(upper_id, good_token).unwrap(), None);
        assert!(!store.delete(upper_id).unwrap());
        assert!(tmp.path().join(upper_id).exists());

        let upper_token = "0123456789ABCDEF0123456789abcdef0123456789abcdef";
        let id2 = "00000000000000000002";
        plant(tmp.path(), id2, upper_token, far);
        assert_eq!(store.get(id2, upper_token).unwrap(), None);

        for (id, token) in [
            ("0123456789abcdef012", good_token),   // 19
            ("0123456789abcdef01234", good_token), // 21
            ("0123456789abcdef012g", good_token),  // not hex
            ("../../../../etc/pass", good_token),  // traversal
            (good_id, &good_token[1..]),           // 47
            (good_id, &format!("{good_token}0")),  // 49
            (good_id, "0123456789abcdef0123456789abcdef0123456789abcde "), // space
            ("", ""),
        ] {
            assert_eq!(store.get(id, token).unwrap(), None, "{id:?} {token:?}");
        }
        assert_eq!(
            store.file_path(upper_id, VIEWER_FILE),
            Err(StoreError::InvalidId)
        );
        assert_eq!(
            store.file_path(good_id, "../meta.json"),
            Err(StoreError::InvalidFileName)
        );
    }

    #[test]
    fn expired_is_gone_before_cleanup() {
        let tmp = tempfile::tempdir().unwrap();
        let store = open(tmp.path());
        let t0 = SystemTime::now();
        let created = create(&store, t0, Duration::from_secs(60));
        let at = |secs| t0 + Duration::from_secs(secs);
        assert!(store
            .get_at(at(59), created.id(), &created.token)
            .unwrap()
            .is_some());
        assert_eq!(
            store.get_at(at(60), created.id(), &created.token).unwrap(),
            None
        );
        assert!(tmp.path().join(created.id()).join(META_FILE).exists());
        // The public get uses the real clock: an artifact created an hour ago with a
        // one-minute TTL is gone.
        let old = create(&store, t0 - HOUR, Duration::from_secs(60));
        assert_eq!(store.get(old.id(), &old.token).unwrap(), None);
    }

    #[test]
    fn cleanup_removes_expired_and_old_orphans_only() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let store = open(root);
        let now = SystemTime::now();

        let expired = create(&store, now - HOUR, Duration::from_secs(10));
        let live = create(&store, now, HOUR);

        let old_orphan = root.join("aaaaaaaaaaaaaaaaaaaa");
        fs::create_dir(&old_orphan).unwrap();
        fs::write(old_orphan.join(VIEWER_FILE), PAGE).unwrap();
        set_mtime(&old_orphan, now - ORPHAN_MAX_AGE - HOUR);

        let young_orphan = root.join("bbbbbbbbbbbbbbbbbbbb");
        fs::create_dir(&young_orphan).unwrap();
        fs::write(young_orphan.join(".tmp-0011223344556677"), PAGE).unwrap();
        set_mtime(&young_orphan, now - ORPHAN_MAX_AGE + HOUR);

        let corrupt = root.join("cccccccccccccccccccc");
        fs::create_dir(&corrupt).unwrap();
        fs::write(corrupt.join(META_FILE), b"{not json").unwrap();
        set_mtime(&corrupt, now - ORPHAN_MAX_AGE - HOUR);

        // A planted link to a folder outside the store: the link goes, the target stays.
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("keep.txt"), b"keep").unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("dddddddddddddddddddd")).unwrap();

        // Not named like an id: not ours to delete.
        fs::create_dir(root.join("notes")).unwrap();
        set_mtime(&root.join("notes"), now - ORPHAN_MAX_AGE - HOUR);

        let report = store.cleanup(now).unwrap();
        assert_eq!(
            report,
            CleanupReport {
                expired: 1,
                orphans: 3,
                young_orphans: 1,
                failed: 0
            }
        );
        let mut expect = vec![
            live.id().to_owned(),
            "bbbbbbbbbbbbbbbbbbbb".to_owned(),
            "notes".to_owned(),
        ];
        expect.sort();
        assert_eq!(entries(root), expect);
        assert!(!root.join(expired.id()).exists());
        assert_eq!(fs::read(outside.path().join("keep.txt")).unwrap(), b"keep");
        assert!(store.get(live.id(), &live.token).unwrap().is_some());

        // A second pass finds nothing new.
        assert_eq!(
            store.cleanup(now).unwrap(),
            CleanupReport {
                young_orphans: 1,
                ..CleanupReport::default()
            }
        );
    }

    #[test]
    fn restart_keeps_live_artifacts() {
        let tmp = tempfile::tempdir().unwrap();
        let (id, token) = {
            let store = open(tmp.path());
            let created = create(&store, SystemTime::now(), HOUR);
            (created.id().to_owned(), created.token)
        };
        let reopened = open(tmp.path());
        let got = reopened
            .get(&id, &token)
            .unwrap()
            .expect("survives restart");
        assert_eq!(
            reopened.read_file(&got, VIEWER_FILE).unwrap().as_deref(),
            Some(PAGE)
        );
        assert_eq!(
            reopened.cleanup(SystemTime::now()).unwrap(),
            CleanupReport::default()
        );
        assert!(reopened.get(&id, &token).unwrap().is_some());
    }

    #[test]
    fn crash_mid_write_is_invisible_and_swept_when_old() {
        let tmp = tempfile::tempdir().unwrap();
        let store = open(tmp.path());
        let id = "0123456789abcdef0123";
        let token = random_hex::<24>();
        // What a crash between the payload rename and the metadata leaves behind.
        let dir = tmp.path().join(id);
        fs::create_dir(&dir).unwrap();
        fs::write(dir.join(VIEWER_FILE), PAGE).unwrap();
        fs::write(dir.join(".tmp-8899aabbccddeeff"), b"{\"id\":").unwrap();

        assert_eq!(store.get(id, &token).unwrap(), None);
        let now = SystemTime::now();
        assert_eq!(store.cleanup(now).unwrap().young_orphans, 1);
        assert!(dir.exists());
        set_mtime(&dir, now - ORPHAN_MAX_AGE);
        assert_eq!(store.cleanup(now).unwrap().orphans, 1);
        assert!(!dir.exists());
    }

    #[test]
    fn failed_create_leaves_nothing_behind() {
        let tmp = tempfile::tempdir().unwrap();
        let store = open(tmp.path());
        store.fail_before_meta.store(true, Ordering::SeqCst);
        let err = store
            .create_at(
                SystemTime::now(),
                new_artifact(HOUR),
                &[(VIEWER_FILE, PAGE)],
            )
            .unwrap_err();
        assert_eq!(err.code(), "store_io");
        assert_eq!(err.message(), "Diff artifact storage failed.");
        assert_eq!(entries(tmp.path()), Vec::<String>::new());
    }

    #[test]
    fn only_the_token_hash_is_on_disk() {
        let tmp = tempfile::tempdir().unwrap();
        let store = open(tmp.path());
        let created = create(&store, SystemTime::now(), HOUR);
        let hash = hex::encode(Sha256::digest(created.token.as_bytes()));
        let mut files = Vec::new();
        all_file_bytes(tmp.path(), &mut files);
        assert_eq!(files.len(), 2);
        for (path, bytes) in &files {
            assert!(
                !contains(bytes, created.token.as_bytes()),
                "token in {path:?}"
            );
        }
        let meta = fs::read(tmp.path().join(created.id()).join(META_FILE)).unwrap();
        assert!(contains(&meta, hash.as_bytes()));
        let json: serde_json::Value = serde_json::from_slice(&meta).unwrap();
        assert_eq!(json["tokenSha256"], hash.as_str());
        assert_eq!(json["id"], created.id());
    }

    #[test]
    fn maybe_cleanup_is_throttled() {
        let tmp = tempfile::tempdir().unwrap();
        let store = DiskStore::open(&StoreConfig {
            dir: tmp.path().to_path_buf(),
            ..StoreConfig::default()
        })
        .unwrap();
        assert_eq!(store.cleanup_interval, Duration::from_secs(300));
        let t0 = Instant::now();
        let expired = create(&store, SystemTime::now() - HOUR, Duration::from_secs(1));
        assert_eq!(store.maybe_cleanup_at(t0).map(|r| r.expired), Some(1));
        assert!(!tmp.path().join(expired.id()).exists());

        let expired = create(&store, SystemTime::now() - HOUR, Duration::from_secs(1));
        let just_before = t0 + Duration::from_secs(299);
        assert_eq!(store.maybe_cleanup_at(just_before), None);
        assert!(tmp.path().join(expired.id()).exists());
        assert_eq!(
            store
                .maybe_cleanup_at(t0 + Duration::from_secs(300))
                .map(|r| r.expired),
            Some(1)
        );
        assert!(!tmp.path().join(expired.id()).exists());

        // The public create sweeps too, within the same throttle: the window just restarted.
        let stale = create(&store, SystemTime::now() - HOUR, Duration::from_secs(1));
        store
            .create(new_artifact(HOUR), &[(VIEWER_FILE, PAGE)])
            .unwrap();
        assert!(tmp.path().join(stale.id()).exists());
    }

    #[test]
    fn first_public_create_runs_cleanup() {
        let tmp = tempfile::tempdir().unwrap();
        let store = DiskStore::open(&StoreConfig {
            dir: tmp.path().to_path_buf(),
            ..StoreConfig::default()
        })
        .unwrap();
        let stale = create(&store, SystemTime::now() - HOUR, Duration::from_secs(1));
        let fresh = store
            .create(new_artifact(HOUR), &[(VIEWER_FILE, PAGE)])
            .unwrap();
        assert!(!tmp.path().join(stale.id()).exists());
        assert!(tmp.path().join(fresh.id()).exists());
    }

    #[test]
    fn payload_cap_and_names_are_checked_before_the_disk() {
        let tmp = tempfile::tempdir().unwrap();
        let store = DiskStore::open(&StoreConfig {
            max_artifact_bytes: 100,
            ..config(tmp.path())
        })
        .unwrap();
        let sixty = [b'x'; 60];
        let forty_one = [b'y'; 41];
        let err = store
            .create(
                new_artifact(HOUR),
                &[(VIEWER_FILE, &sixty), (PNG_FILE, &forty_one)],
            )
            .unwrap_err();
        assert_eq!(
            err,
            StoreError::TooLarge {
                bytes: 101,
                max: 100
            }
        );
        assert_eq!(err.code(), "artifact_too_large");
        assert_eq!(
            err.to_string(),
            "Diff artifact is too large to store (101 bytes, max 100 bytes)."
        );
        assert_eq!(entries(tmp.path()), Vec::<String>::new());
        let ok = store
            .create(
                new_artifact(HOUR),
                &[(VIEWER_FILE, &sixty), (PNG_FILE, &forty_one[..40])],
            )
            .unwrap();
        assert_eq!(ok.artifact.files[1].bytes, 40);

        for bad in [
            "",
            META_FILE,
            ".hidden",
            "a/b",
            "..",
            "Viewer.html",
            "a b",
            &"x".repeat(65),
        ] {
            assert_eq!(
                store
                    .create(new_artifact(HOUR), &[(bad, PAGE)])
                    .unwrap_err(),
                StoreError::InvalidFileName,
                "{bad:?}"
            );
        }
        assert_eq!(
            store
                .create(
                    new_artifact(HOUR),
                    &[(VIEWER_FILE, PAGE), (VIEWER_FILE, PAGE)]
                )
                .unwrap_err(),
            StoreError::InvalidFileName
        );
        assert_eq!(entries(tmp.path()), vec![ok.id().to_owned()]);
    }

    #[test]
    fn corrupt_or_planted_state_is_not_an_artifact() {
        let tmp = tempfile::tempdir().unwrap();
        let store = open(tmp.path());
        let far = unix_ms(SystemTime::now() + HOUR);
        let token = random_hex::<24>();

        let corrupt = "11111111111111111111";
        fs::create_dir(tmp.path().join(corrupt)).unwrap();
        fs::write(tmp.path().join(corrupt).join(META_FILE), b"\0\xff garbage").unwrap();
        assert_eq!(store.get(corrupt, &token).unwrap(), None);

        // Metadata naming another id (a copied folder).
        let copied = "22222222222222222222";
        plant(tmp.path(), "33333333333333333333", &token, far);
        fs::create_dir(tmp.path().join(copied)).unwrap();
        fs::copy(
            tmp.path().join("33333333333333333333").join(META_FILE),
            tmp.path().join(copied).join(META_FILE),
        )
        .unwrap();
        assert_eq!(store.get(copied, &token).unwrap(), None);
        assert!(store.get("33333333333333333333", &token).unwrap().is_some());

        // meta.json as a symlink to a valid metadata file elsewhere is not followed.
        let linked = "44444444444444444444";
        fs::create_dir(tmp.path().join(linked)).unwrap();
        let outside = tempfile::tempdir().unwrap();
        plant(outside.path(), linked, &token, far);
        std::os::unix::fs::symlink(
            outside.path().join(linked).join(META_FILE),
            tmp.path().join(linked).join(META_FILE),
        )
        .unwrap();
        assert_eq!(store.get(linked, &token).unwrap(), None);

        // The artifact folder itself as a symlink is not followed either.
        let dir_link = "55555555555555555555";
        plant(outside.path(), dir_link, &token, far);
        std::os::unix::fs::symlink(outside.path().join(dir_link), tmp.path().join(dir_link))
            .unwrap();
        assert_eq!(store.get(dir_link, &token).unwrap(), None);

        // A payload swapped for a symlink is not read through.
        let swapped = "66666666666666666666";
        plant(tmp.path(), swapped, &token, far);
        let artifact = store.get(swapped, &token).unwrap().unwrap();
        fs::remove_file(tmp.path().join(swapped).join(VIEWER_FILE)).unwrap();
        fs::write(outside.path().join("secret"), b"secret").unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("secret"),
            tmp.path().join(swapped).join(VIEWER_FILE),
        )
        .unwrap();
        assert_eq!(store.read_file(&artifact, VIEWER_FILE).unwrap(), None);

        assert!(store.delete(swapped).unwrap());
        assert!(!store.delete(swapped).unwrap());
        assert_eq!(store.get(swapped, &token).unwrap(), None);
    }

    #[test]
    fn open_refuses_a_symlinked_dir_and_tightens_permissions() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().join("real");
        fs::create_dir(&real).unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o755)).unwrap();
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert_eq!(
            DiskStore::open(&config(&link)).unwrap_err(),
            StoreError::UnusableDir
        );
        let file = tmp.path().join("file");
        fs::write(&file, b"").unwrap();
        assert!(DiskStore::open(&config(&file)).is_err());

        let store = open(&real);
        assert_eq!(fs::metadata(&real).unwrap().mode() & 0o777, 0o700);
        assert_eq!(store.dir(), real.as_path());
        // The ownership probe leaves nothing behind.
        assert_eq!(entries(&real), Vec::<String>::new());

        // A directory pre-created by another user (as in a shared /tmp) is refused and left
        // untouched. Changing the owner needs root; elsewhere this part is skipped.
        let foreign = tmp.path().join("foreign");
        fs::create_dir(&foreign).unwrap();
        fs::set_permissions(&foreign, fs::Permissions::from_mode(0o777)).unwrap();
        if std::os::unix::fs::chown(&foreign, Some(65534), Some(65534)).is_ok() {
            assert_eq!(
                DiskStore::open(&config(&foreign)).unwrap_err(),
                StoreError::UnusableDir
            );
            assert_eq!(fs::metadata(&foreign).unwrap().mode() & 0o777, 0o777);
            assert_eq!(entries(&foreign), Vec::<String>::new());
        }
        assert_eq!(
            StoreConfig::default().dir,
            std::env::temp_dir().join("previewd-diffs")
        );
    }

    fn open_with_quota(dir: &Path, max_total_bytes: u64) -> DiskStore {
        DiskStore::open(&StoreConfig {
            max_total_bytes,
            ..config(dir)
        })
        .expect("open store")
    }

    /// The bytes one test artifact takes, measured in a scratch store.
    fn one_artifact_bytes() -> u64 {
        let probe = tempfile::tempdir().unwrap();
        let store = open(probe.path());
        create(&store, SystemTime::now(), HOUR);
        store.used_bytes()
    }

    #[test]
    fn the_running_total_matches_the_disk_through_create_delete_and_sweep() {
        let tmp = tempfile::tempdir().unwrap();
        let store = open(tmp.path());
        let now = SystemTime::now();
        assert_eq!(store.used_bytes(), 0);
        let a = create(&store, now, HOUR);
        let b = create(&store, now, Duration::from_secs(1));
        assert_eq!(store.used_bytes(), tree_bytes(tmp.path()));
        store
            .write_derived(&a.artifact, "page.html", b"derived")
            .unwrap();
        // A second write of a cached derived file changes nothing, and counts nothing.
        store
            .write_derived(&a.artifact, "page.html", b"derived")
            .unwrap();
        assert_eq!(store.used_bytes(), tree_bytes(tmp.path()));
        // A restart counts what is there.
        assert_eq!(open(tmp.path()).used_bytes(), store.used_bytes());
        assert!(store.delete(a.id()).unwrap());
        assert_eq!(store.used_bytes(), tree_bytes(tmp.path()));
        let report = store.cleanup(now + HOUR).unwrap();
        assert_eq!(report.expired, 1);
        assert!(!tmp.path().join(b.id()).exists());
        assert_eq!(store.used_bytes(), 0);
    }

    #[test]
    fn a_full_store_sweeps_expired_artifacts_then_refuses() {
        let tmp = tempfile::tempdir().unwrap();
        let one = one_artifact_bytes();
        let store = open_with_quota(tmp.path(), 2 * one + one / 2);
        let now = SystemTime::now();
        let short = create(&store, now, Duration::from_secs(1));
        create(&store, now, HOUR);
        let full = store.create_at(now, new_artifact(HOUR), &[(VIEWER_FILE, PAGE)]);
        assert_eq!(
            full.unwrap_err(),
            StoreError::StorageFull {
                max: 2 * one + one / 2
            }
        );
        assert_eq!(
            entries(tmp.path()).len(),
            2,
            "a refused create leaves nothing"
        );
        // Derived files obey the same budget.
        assert_eq!(
            store.write_derived(&short.artifact, "page.html", &vec![b'x'; one as usize]),
            Err(StoreError::StorageFull {
                max: 2 * one + one / 2
            })
        );
        // Later, the short-lived one has expired: the create sweeps it and fits.
        let later = now + Duration::from_secs(2);
        store
            .create_at(later, new_artifact(HOUR), &[(VIEWER_FILE, PAGE)])
            .expect("room after the sweep");
        assert!(!tmp.path().join(short.id()).exists());
        assert_eq!(store.used_bytes(), tree_bytes(tmp.path()));
        // Nothing else expires soon, so a full store refuses without sweeping again.
        assert!(!store.quota.sweep_may_help(unix_ms(later)));
        assert!(matches!(
            store.create_at(later, new_artifact(HOUR), &[(VIEWER_FILE, PAGE)]),
            Err(StoreError::StorageFull { .. })
        ));
    }

    #[test]
    fn caching_a_derived_file_in_a_full_store_may_sweep_expired_artifacts() {
        // A first view of a full store's artifact caches its page: the reservation sweeps
        // the expired artifacts, and that sweep removes folders under the folder lock, so
        // the write must not be holding it then (it did, and the view hung for good).
        let tmp = tempfile::tempdir().unwrap();
        let one = one_artifact_bytes();
        let store = open_with_quota(tmp.path(), 2 * one + one / 2);
        let long_ago = SystemTime::now() - HOUR;
        let expired = create(&store, long_ago, Duration::from_secs(1));
        let live = create(&store, SystemTime::now(), HOUR);
        store
            .write_derived(&live.artifact, "page.html", &vec![b'x'; one as usize])
            .expect("the sweep made room");
        assert!(!tmp.path().join(expired.id()).exists(), "swept");
        assert!(tmp.path().join(live.id()).join("page.html").is_file());
        assert_eq!(store.used_bytes(), tree_bytes(tmp.path()));
    }
}
