//! Preview snapshots: one scoped read kept for a while, reachable by id and secret token.
//!
//! The store is bounded by count and by bytes (least recently used go first) and by age (an
//! expired snapshot is gone even before it is swept). Only a SHA-256 of the token is kept,
//! and tokens are compared in constant time; a wrong token and a missing snapshot are
//! indistinguishable to the caller.
//!
//! The bytes a snapshot is charged are what it holds: the file's bytes, the heap of its
//! parsed Office model (measured while parsing, see [`super::heap`]), and every view,
//! `model.json` body and media part cached on first use. Views are cached lazily, so whoever
//! fills a cache calls [`SnapshotStore::recharge`], which may evict older snapshots.
//! Snapshots of the same bytes at the same place (root, relative path, SHA-256) share one
//! [`Content`] and its caches, charged once; each still has its own id and token.

use std::collections::HashMap;
use std::ops::Deref;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::body::Bytes;
use rand::RngCore;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::config::SnapshotConfig;
use crate::error::Error;
use crate::markup::{escape, human_size};
use crate::store::snapshots::{remaining, SharedSnapshots, StoredSnapshot, PENDING_MAX};
use crate::workspace::{Root, ScopedRead};

use super::office::OfficeModel;

/// Length of a snapshot id in hex characters (10 random bytes).
pub const ID_HEX_LEN: usize = 20;
/// Length of a token in hex characters (24 random bytes).
pub const TOKEN_HEX_LEN: usize = 48;

/// One file as it was read, with everything needed to serve its views. What can be shared
/// with other snapshots of the same bytes is in [`Content`], reached through `Deref`.
#[derive(Debug)]
pub struct Snapshot {
    /// Public id (20 lowercase hex).
    pub id: String,
    token_hash: [u8; 32],
    /// The one read every view is built from (its bytes are the shared content's).
    pub read: ScopedRead,
    /// Wall-clock expiry, for clients.
    pub expires_at: SystemTime,
    deadline: Instant,
    content: Arc<Content>,
}

impl Deref for Snapshot {
    type Target = Content;

    fn deref(&self) -> &Content {
        &self.content
    }
}

/// What every snapshot of the same bytes shares: the model and the cached views.
#[derive(Debug)]
pub struct Content {
    serial: u64,
    /// The workspace root the file was read from (for sibling assets).
    pub root: Root,
    /// The parsed model of an Office file, made when the first snapshot was.
    pub office: Option<OfficeModel>,
    office_heap: u64,
    bytes: Option<Arc<[u8]>>,
    /// A large table still being read in the background (its bytes, digest and rows come
    /// from there; see [`crate::csv::live`]).
    pub live: Option<Arc<crate::csv::live::LiveTable>>,
    /// Rendered view bodies, made on first use and reused (switching views never re-reads
    /// and never re-renders).
    pub rendered: RenderCache,
}

impl Content {
    /// The bytes this content is charged: file bytes, measured model heap, cached bodies.
    pub fn weight(&self) -> u64 {
        self.bytes.as_ref().map_or(0, |b| b.len() as u64)
            + self.office_heap
            + self.rendered.bytes()
            + self.live.as_ref().map_or(0, |l| l.weight())
    }
}

impl Snapshot {
    /// The file's bytes: the read's, or a background read's once it has ended.
    pub fn bytes(&self) -> Option<Arc<[u8]>> {
        self.read
            .bytes
            .clone()
            .or_else(|| Some(self.live.as_ref()?.loaded()?.bytes.clone()))
    }

    /// The file's SHA-256: the read's, or a background read's once it has ended.
    pub fn sha256(&self) -> Option<String> {
        self.read
            .sha256
            .clone()
            .or_else(|| Some(self.live.as_ref()?.loaded()?.sha256.clone()))
    }
}

/// Lazily rendered view bodies of a snapshot.
#[derive(Debug, Default)]
pub struct RenderCache {
    /// The source view (escaped, highlighted lines).
    pub source: OnceLock<Arc<str>>,
    /// The rendered Markdown preview.
    pub markdown: OnceLock<Arc<str>>,
    /// The rendered Office document or deck.
    pub office: OnceLock<Arc<str>>,
    /// The model as JSON, serialised once.
    pub model_json: OnceLock<Bytes>,
    media: Mutex<HashMap<String, Bytes>>,
    /// Grid data of a workbook (its meta and row blocks), up to [`SHEET_CACHE_BYTES`].
    sheet: Mutex<HashMap<(usize, u32), Bytes>>,
}

/// Most bytes of grid blocks one snapshot content keeps; blocks past it are made again
/// on each request (cheap: a block is 200 rows formatted from the model).
pub const SHEET_CACHE_BYTES: u64 = 16 * 1024 * 1024;

impl RenderCache {
    /// Bytes held by every cached body.
    pub fn bytes(&self) -> u64 {
        let text = |slot: &OnceLock<Arc<str>>| slot.get().map_or(0, |s| s.len() as u64);
        let media: u64 = self
            .media_map()
            .iter()
            .map(|(k, v)| (k.len() + v.len()) as u64)
            .sum();
        text(&self.source)
            + text(&self.markdown)
            + text(&self.office)
            + self.model_json.get().map_or(0, |b| b.len() as u64)
            + media
            + self.sheet_bytes()
    }

    fn sheet_bytes(&self) -> u64 {
        let map = self.sheet.lock().unwrap_or_else(|p| p.into_inner());
        map.values().map(|v| v.len() as u64 + 16).sum()
    }

    /// A grid block (or the grid meta) made earlier, or `make`'s, kept while the cache
    /// has room.
    pub fn sheet_block(
        &self,
        key: (usize, u32),
        make: impl FnOnce() -> Option<Bytes>,
    ) -> Option<Bytes> {
        if let Some(b) = self
            .sheet
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
        {
            return Some(b.clone());
        }
        let made = make()?;
        let room = self.sheet_bytes() + made.len() as u64 <= SHEET_CACHE_BYTES;
        let mut map = self.sheet.lock().unwrap_or_else(|p| p.into_inner());
        if room {
            return Some(map.entry(key).or_insert(made).clone());
        }
        Some(made)
    }

    /// A media part read earlier.
    pub fn media(&self, part: &str) -> Option<Bytes> {
        self.media_map().get(part).cloned()
    }

    /// Keeps a media part's bytes and returns the kept copy (an earlier one wins a race).
    pub fn keep_media(&self, part: &str, data: Bytes) -> Bytes {
        self.media_map()
            .entry(part.to_string())
            .or_insert(data)
            .clone()
    }

    fn media_map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Bytes>> {
        self.media.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A rendered view as cached: the view itself, or, when it is over `limit` bytes, a notice
/// that says so (and links to the file itself) in its place.
pub fn capped_view(view: String, limit: u64) -> Arc<str> {
    if view.len() as u64 <= limit {
        return Arc::from(view);
    }
    let notice = format!(
        "<p class=\"notice\">This view is too large to show: it renders to {}, over the limit of {} for one view. <a href=\"raw\">The file itself</a> can still be downloaded.</p>",
        escape(&human_size(view.len() as u64)),
        escape(&human_size(limit)),
    );
    Arc::from(notice)
}

/// A freshly created snapshot and the only copy of its token.
#[derive(Debug, Clone)]
pub struct Created {
    /// The snapshot.
    pub snapshot: Arc<Snapshot>,
    /// The secret token (never stored).
    pub token: String,
}

#[derive(Debug)]
struct Entry {
    snapshot: Arc<Snapshot>,
    last_used: u64,
}

/// Where and what a file was: snapshots with the same key share their content.
type ContentKey = (PathBuf, String, String);

#[derive(Debug)]
struct Group {
    content: Arc<Content>,
    /// Snapshots in the store that use this content.
    refs: usize,
    /// What `Inner::bytes` holds for this content.
    charged: u64,
    key: Option<ContentKey>,
}

#[derive(Debug, Default)]
struct Inner {
    entries: HashMap<String, Entry>,
    groups: HashMap<u64, Group>,
    by_key: HashMap<ContentKey, u64>,
    bytes: u64,
    tick: u64,
    serial: u64,
}

/// Rebuilds, on this instance, the read, model and model heap of a snapshot another
/// instance stored (workspace by id, the path checked again, the Office file parsed).
pub type Rebuild = dyn Fn(
        &StoredSnapshot,
        Option<Vec<u8>>,
    ) -> Result<(Root, ScopedRead, Option<OfficeModel>, u64), Error>
    + Send
    + Sync;

/// The shared store behind the memory one, with `[store] backend = "s3"`.
struct Shared {
    store: SharedSnapshots,
    rebuild: Box<Rebuild>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("store", &self.store)
            .finish()
    }
}

/// The bounded, in-memory snapshot store; with a shared store behind it, snapshots are
/// also published there on create and loaded from there on a local miss.
#[derive(Debug)]
pub struct SnapshotStore {
    config: SnapshotConfig,
    inner: Mutex<Inner>,
    shared: Option<Shared>,
}

/// The metadata `store` keeps of `snapshot` (made on this instance with lifetime `ttl`)
/// when it is published: pending (no bytes, the size at open) while its table is still
/// being read.
fn stored_meta(store: &SharedSnapshots, snapshot: &Snapshot, ttl: Duration) -> StoredSnapshot {
    let read = &snapshot.read;
    // A snapshot made here expires `ttl` after it was made, so its creation is known
    // exactly, whether it is published at once or completed after its table's read.
    let created_at = snapshot.expires_at.checked_sub(ttl).unwrap_or(UNIX_EPOCH);
    let pending = snapshot.live.is_some();
    StoredSnapshot {
        version: 1,
        id: snapshot.id.clone(),
        token_sha256: hex::encode(snapshot.token_hash),
        tenant: store.tenant().to_string(),
        workspace_id: read.workspace_id.clone(),
        relative_path: read.relative_path.as_str().to_string(),
        kind: read.kind.as_str().to_string(),
        size: read.size,
        mtime_ms: read.mtime_ms,
        sha256: read.sha256.clone(),
        has_bytes: read.bytes.is_some(),
        pending,
        content_type: "application/octet-stream".to_string(),
        created_at_ms: crate::diff::store::unix_ms(created_at),
        expires_at_ms: crate::diff::store::unix_ms(snapshot.expires_at),
    }
}

fn content_key(root: &Root, read: &ScopedRead) -> Option<ContentKey> {
    read.bytes.as_ref()?;
    Some((
        root.path.clone(),
        read.relative_path.as_str().to_string(),
        read.sha256.clone()?,
    ))
}

impl SnapshotStore {
    /// An empty store with these bounds.
    pub fn new(config: SnapshotConfig) -> SnapshotStore {
        SnapshotStore {
            config,
            inner: Mutex::new(Inner::default()),
            shared: None,
        }
    }

    /// This store with `store` behind it: [`SnapshotStore::publish`] writes there, and a
    /// snapshot missing here is loaded from there and rebuilt with `rebuild`.
    pub fn with_shared(mut self, store: SharedSnapshots, rebuild: Box<Rebuild>) -> SnapshotStore {
        self.shared = Some(Shared { store, rebuild });
        self
    }

    /// Whether a shared store is behind this one.
    pub fn is_shared(&self) -> bool {
        self.shared.is_some()
    }

    /// Publishes a new snapshot to the shared store, if there is one (without one this
    /// does nothing). A snapshot that cannot be published is removed here too, so the
    /// caller never hands out a URL that only this instance could open. A table still
    /// being read in the background has no bytes yet: it is published as pending (other
    /// instances answer `busy` until it is complete) and completed by
    /// [`SnapshotStore::publish_loaded`] once its read ends.
    pub fn publish(&self, created: &Created) -> Result<(), Error> {
        let Some(shared) = &self.shared else {
            return Ok(());
        };
        let snapshot = &created.snapshot;
        let meta = stored_meta(&shared.store, snapshot, self.ttl());
        let published = blocking(|| shared.store.publish(&meta, snapshot.read.bytes.as_deref()));
        if published.is_err() {
            remove(&mut self.lock(), &snapshot.id);
        }
        published
    }

    /// Completes in the shared store a snapshot whose table [`SnapshotStore::publish`]
    /// published as pending, now that its read has ended: with its bytes when it was read
    /// whole, or by withdrawing it when it was not (this instance still shows the rows it
    /// read). Nobody waits for this, so a failure is logged: the pending snapshot then
    /// answers `busy` elsewhere until [`crate::store::snapshots::PENDING_MAX`] has passed.
    pub fn publish_loaded(&self, snapshot: &Snapshot) {
        let (Some(shared), Some(live)) = (&self.shared, &snapshot.live) else {
            return;
        };
        let pending = stored_meta(&shared.store, snapshot, self.ttl());
        let outcome = match live.loaded() {
            Some(loaded) => {
                let meta = StoredSnapshot {
                    size: loaded.bytes.len() as u64,
                    sha256: Some(loaded.sha256.clone()),
                    has_bytes: true,
                    pending: false,
                    ..pending.clone()
                };
                blocking(|| shared.store.complete(&meta, &loaded.bytes, pending.size))
            }
            None => blocking(|| shared.store.withdraw(&pending)),
        };
        if let Err(e) = outcome {
            tracing::warn!(snapshot = %snapshot.id, code = e.code(), "cannot complete a table's snapshot in the shared store");
        }
    }

    /// The content a live snapshot of the same bytes at the same place holds, if any: a
    /// caller can then skip parsing and use [`SnapshotStore::insert_shared`].
    pub fn shared_content(&self, root: &Root, read: &ScopedRead) -> Option<Arc<Content>> {
        let key = content_key(root, read)?;
        let inner = self.lock();
        let serial = inner.by_key.get(&key)?;
        inner.groups.get(serial).map(|g| g.content.clone())
    }

    /// Keeps `read` as a new snapshot and returns it with its token. `office_heap` is the
    /// measured heap of `office`. When the store already holds the same bytes from the same
    /// place, the new snapshot shares that content and `office` is dropped.
    pub fn insert(
        &self,
        root: Root,
        read: ScopedRead,
        office: Option<OfficeModel>,
        office_heap: u64,
    ) -> Created {
        let key = content_key(&root, &read);
        let mut inner = self.lock();
        let content = content_for(&mut inner, key.as_ref(), root, &read, office, office_heap);
        self.insert_locked(&mut inner, read, content, key)
    }

    /// Keeps a snapshot loaded from the shared store under its own id, token hash and
    /// remaining lifetime; an earlier load of the same id (a concurrent request) wins.
    fn insert_loaded(
        &self,
        identity: (String, [u8; 32], Duration),
        root: Root,
        read: ScopedRead,
        office: Option<OfficeModel>,
        office_heap: u64,
    ) -> Arc<Snapshot> {
        let key = content_key(&root, &read);
        let mut inner = self.lock();
        if let Some(entry) = inner.entries.get(&identity.0) {
            return entry.snapshot.clone();
        }
        let content = content_for(&mut inner, key.as_ref(), root, &read, office, office_heap);
        self.insert_as(&mut inner, read, content, key, identity)
    }

    /// A snapshot missing from memory, from the shared store: token and expiry checked
    /// against its stored metadata, then its read and model rebuilt here.
    fn get_shared(&self, id: &str, presented: &[u8; 32]) -> Result<Arc<Snapshot>, Error> {
        let missing = || Error::not_found("no such preview, or it has expired");
        let Some(shared) = &self.shared else {
            return Err(missing());
        };
        let Some((meta, bytes)) = blocking(|| shared.store.load(id))? else {
            return Err(missing());
        };
        let mut stored = [0u8; 32];
        let token_ok = hex::decode_to_slice(&meta.token_sha256, &mut stored).is_ok()
            && bool::from(stored.ct_eq(presented));
        let left = remaining(&meta, SystemTime::now());
        let (true, Some(left)) = (token_ok, left) else {
            return Err(missing());
        };
        if meta.pending {
            let since = Duration::from_millis(
                crate::diff::store::unix_ms(SystemTime::now()).saturating_sub(meta.created_at_ms),
            );
            if since >= PENDING_MAX {
                // Its reader died or dropped it: it will never be complete.
                return Err(missing());
            }
            return Err(Error::Busy {
                reason: "This preview is a table still being read by the instance that made it; try again in a moment.".to_string(),
                retry_after: Some(1),
            });
        }
        let (root, read, office, heap) = blocking(|| (shared.rebuild)(&meta, bytes))?;
        Ok(self.insert_loaded((id.to_string(), stored, left), root, read, office, heap))
    }

    /// Keeps `read` (no bytes yet) as a new snapshot of a table `live` is reading. It
    /// shares with no other snapshot: its digest is not known yet.
    pub fn insert_live(
        &self,
        root: Root,
        read: ScopedRead,
        live: Arc<crate::csv::live::LiveTable>,
    ) -> Created {
        let mut inner = self.lock();
        inner.serial += 1;
        let content = Arc::new(Content {
            serial: inner.serial,
            root,
            bytes: None,
            office: None,
            office_heap: 0,
            live: Some(live),
            rendered: RenderCache::default(),
        });
        self.insert_locked(&mut inner, read, content, None)
    }

    /// The lifetime of a snapshot made here.
    fn ttl(&self) -> Duration {
        Duration::from_secs(self.config.ttl_seconds.max(1))
    }

    /// Keeps `read` as a new snapshot (own id and token) over `content` from
    /// [`SnapshotStore::shared_content`].
    pub fn insert_shared(&self, read: ScopedRead, content: Arc<Content>) -> Created {
        let key = content_key(&content.root, &read);
        let mut inner = self.lock();
        self.insert_locked(&mut inner, read, content, key)
    }

    fn insert_locked(
        &self,
        inner: &mut Inner,
        read: ScopedRead,
        content: Arc<Content>,
        key: Option<ContentKey>,
    ) -> Created {
        let id = random_hex(ID_HEX_LEN / 2);
        let token = random_hex(TOKEN_HEX_LEN / 2);
        let ttl = self.ttl();
        let token_hash = Sha256::digest(token.as_bytes()).into();
        let snapshot = self.insert_as(inner, read, content, key, (id, token_hash, ttl));
        Created { snapshot, token }
    }

    /// Keeps `read` over `content` as snapshot `identity` (id, token hash, lifetime).
    fn insert_as(
        &self,
        inner: &mut Inner,
        mut read: ScopedRead,
        content: Arc<Content>,
        key: Option<ContentKey>,
        (id, token_hash, ttl): (String, [u8; 32], Duration),
    ) -> Arc<Snapshot> {
        // The new read's own copy of the bytes is dropped for the shared one.
        read.bytes = content.bytes.clone();
        let snapshot = Arc::new(Snapshot {
            id: id.clone(),
            token_hash,
            read,
            expires_at: SystemTime::now() + ttl,
            deadline: Instant::now() + ttl,
            content: content.clone(),
        });
        let serial = content.serial;
        match inner.groups.get_mut(&serial) {
            Some(group) => group.refs += 1,
            None => {
                let charged = content.weight();
                inner.bytes += charged;
                if let Some(key) = &key {
                    inner.by_key.insert(key.clone(), serial);
                }
                inner.groups.insert(
                    serial,
                    Group {
                        content,
                        refs: 1,
                        charged,
                        key,
                    },
                );
            }
        }
        inner.tick += 1;
        let tick = inner.tick;
        inner.entries.insert(
            id,
            Entry {
                snapshot: snapshot.clone(),
                last_used: tick,
            },
        );
        self.evict(inner);
        snapshot
    }

    /// Charges the store again for `snapshot`'s content after a cache of it was filled,
    /// evicting the least recently used snapshots if that puts the store over its budget.
    pub fn recharge(&self, snapshot: &Snapshot) {
        let mut inner = self.lock();
        let Some(group) = inner.groups.get_mut(&snapshot.content.serial) else {
            // Evicted meanwhile: what it holds goes away with its last user.
            return;
        };
        let weight = group.content.weight();
        let before = std::mem::replace(&mut group.charged, weight);
        inner.bytes = inner.bytes - before + weight;
        self.evict(&mut inner);
    }

    /// Finds a live snapshot by id and token. Malformed ids and tokens never reach the map.
    pub fn get(&self, id: &str, token: &str) -> Result<Arc<Snapshot>, Error> {
        let missing = || Error::not_found("no such preview, or it has expired");
        if !is_lower_hex(id, ID_HEX_LEN) || !is_lower_hex(token, TOKEN_HEX_LEN) {
            return Err(missing());
        }
        let presented: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        let mut inner = self.lock();
        inner.tick += 1;
        let tick = inner.tick;
        let now = Instant::now();
        let Some(entry) = inner.entries.get_mut(id) else {
            drop(inner);
            return self.get_shared(id, &presented);
        };
        if !bool::from(entry.snapshot.token_hash.ct_eq(&presented)) {
            return Err(missing());
        }
        if entry.snapshot.deadline <= now {
            remove(&mut inner, id);
            return Err(missing());
        }
        entry.last_used = tick;
        Ok(entry.snapshot.clone())
    }

    /// Number of live snapshots (expired ones not yet swept included).
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    /// Whether the store is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes charged for all snapshots (shared content once).
    pub fn bytes(&self) -> u64 {
        self.lock().bytes
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave the map inconsistent in a way that
        // matters more than refusing service, so a poisoned lock is taken over.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn evict(&self, inner: &mut Inner) {
        let now = Instant::now();
        let expired: Vec<String> = inner
            .entries
            .iter()
            .filter(|(_, e)| e.snapshot.deadline <= now)
            .map(|(k, _)| k.clone())
            .collect();
        for id in expired {
            remove(inner, &id);
        }
        // The most recently used content stays even when it alone is over the budget: the
        // budget bounds what is kept besides the file being looked at.
        while inner.entries.len() > self.config.max_count.max(1)
            || (inner.bytes > self.config.max_bytes && inner.groups.len() > 1)
        {
            let Some(oldest) = inner
                .entries
                .iter()
                .min_by_key(|(_, e)| e.last_used)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            remove(inner, &oldest);
        }
    }
}

/// The content a new snapshot of `read` uses: a live one of the same bytes at the same
/// place, or a new one holding `office`.
fn content_for(
    inner: &mut Inner,
    key: Option<&ContentKey>,
    root: Root,
    read: &ScopedRead,
    office: Option<OfficeModel>,
    office_heap: u64,
) -> Arc<Content> {
    let existing = key
        .and_then(|k| inner.by_key.get(k))
        .and_then(|serial| inner.groups.get(serial))
        .map(|g| g.content.clone());
    existing.unwrap_or_else(|| {
        inner.serial += 1;
        Arc::new(Content {
            serial: inner.serial,
            root,
            bytes: read.bytes.clone(),
            office,
            office_heap,
            live: None,
            rendered: RenderCache::default(),
        })
    })
}

/// Runs blocking store I/O from wherever `get` is called: on a multi-thread runtime's
/// worker (an async handler) it tells the runtime first, so other tasks move off it.
fn blocking<T>(f: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current() {
        Ok(handle) if handle.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(f)
        }
        _ => f(),
    }
}

fn remove(inner: &mut Inner, id: &str) {
    let Some(entry) = inner.entries.remove(id) else {
        return;
    };
    let serial = entry.snapshot.content.serial;
    let Some(group) = inner.groups.get_mut(&serial) else {
        return;
    };
    group.refs -= 1;
    if group.refs == 0 {
        if let Some(group) = inner.groups.remove(&serial) {
            inner.bytes -= group.charged;
            if let Some(key) = group.key {
                if inner.by_key.get(&key) == Some(&serial) {
                    inner.by_key.remove(&key);
                }
            }
        }
    }
}

/// `n` random bytes as lowercase hex.
pub fn random_hex(n: usize) -> String {
    let mut bytes = vec![0u8; n];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// Whether `s` is exactly `len` lowercase hex digits.
pub fn is_lower_hex(s: &str, len: usize) -> bool {
    s.len() == len && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::{check_relative_path, FileKind};

    fn read(bytes: usize) -> ScopedRead {
        ScopedRead {
            workspace_id: "w".into(),
            relative_path: check_relative_path("a.txt", 100).unwrap(),
            kind: FileKind::Text,
            size: bytes as u64,
            mtime_ms: None,
            sha256: None,
            bytes: Some(vec![b'x'; bytes].into()),
        }
    }

    fn root() -> Root {
        Root {
            id: "w".into(),
            path: "/tmp".into(),
        }
    }

    impl SnapshotStore {
        fn insert_plain(&self, read: ScopedRead) -> Created {
            self.insert(root(), read, None, 0)
        }
    }

    fn store(max_count: usize, max_bytes: u64, ttl: u64) -> SnapshotStore {
        SnapshotStore::new(SnapshotConfig {
            ttl_seconds: ttl,
            max_count,
            max_bytes,
        })
    }

    #[test]
    fn token_is_required_and_ids_have_the_right_shape() {
        let s = store(10, 1000, 60);
        let c = s.insert_plain(read(3));
        assert!(is_lower_hex(&c.snapshot.id, ID_HEX_LEN));
        assert!(is_lower_hex(&c.token, TOKEN_HEX_LEN));
        assert!(s.get(&c.snapshot.id, &c.token).is_ok());
        let mut wrong = c.token.clone();
        wrong.replace_range(0..1, if wrong.starts_with('0') { "1" } else { "0" });
        assert_eq!(
            s.get(&c.snapshot.id, &wrong).unwrap_err().code(),
            "not_found"
        );
        assert!(s.get(&c.snapshot.id, &c.token.to_uppercase()).is_err());
        assert!(s.get("short", &c.token).is_err());
    }

    #[test]
    fn least_recently_used_goes_first() {
        let s = store(2, 1000, 60);
        let a = s.insert_plain(read(1));
        let b = s.insert_plain(read(1));
        s.get(&a.snapshot.id, &a.token).unwrap();
        let _c = s.insert_plain(read(1));
        assert!(s.get(&a.snapshot.id, &a.token).is_ok());
        assert!(s.get(&b.snapshot.id, &b.token).is_err());
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn bytes_are_bounded() {
        let s = store(10, 100, 60);
        let a = s.insert_plain(read(60));
        let b = s.insert_plain(read(60));
        assert!(s.get(&a.snapshot.id, &a.token).is_err());
        assert!(s.get(&b.snapshot.id, &b.token).is_ok());
        assert_eq!(s.bytes(), 60);
    }

    #[test]
    fn expired_snapshots_are_gone() {
        let s = SnapshotStore::new(SnapshotConfig {
            ttl_seconds: 1,
            max_count: 10,
            max_bytes: 1000,
        });
        let Created { snapshot, token } = s.insert_plain(read(1));
        let id = snapshot.id.clone();
        drop(snapshot);
        // Force expiry without sleeping: move the deadline into the past.
        {
            let mut inner = s.lock();
            let entry = inner.entries.get_mut(&id).unwrap();
            Arc::get_mut(&mut entry.snapshot).unwrap().deadline =
                Instant::now() - Duration::from_secs(1);
        }
        assert!(s.get(&id, &token).is_err());
        assert_eq!(s.len(), 0);
        assert_eq!(s.bytes(), 0);
    }

    fn hashed(bytes: usize, sha: &str) -> ScopedRead {
        ScopedRead {
            sha256: Some(sha.into()),
            ..read(bytes)
        }
    }

    #[test]
    fn unchanged_bytes_share_one_content_charged_once() {
        let s = store(10, 1000, 60);
        let a = s.insert_plain(hashed(100, "aa"));
        let shared = s.shared_content(&root(), &hashed(100, "aa")).unwrap();
        let b = s.insert_shared(hashed(100, "aa"), shared);
        let c = s.insert_plain(hashed(100, "aa"));
        assert_eq!(s.len(), 3);
        assert_eq!(s.bytes(), 100);
        assert!(Arc::ptr_eq(&a.snapshot.content, &b.snapshot.content));
        assert!(Arc::ptr_eq(&a.snapshot.content, &c.snapshot.content));
        assert_ne!(a.snapshot.id, b.snapshot.id);
        // Other bytes at the same path are a content of their own.
        let d = s.insert_plain(hashed(100, "bb"));
        assert!(!Arc::ptr_eq(&a.snapshot.content, &d.snapshot.content));
        assert_eq!(s.bytes(), 200);
    }

    #[test]
    fn cached_views_are_charged_and_evict_older_snapshots() {
        let s = store(10, 1000, 60);
        let old = s.insert_plain(read(100));
        let new = s.insert_plain(read(100));
        assert_eq!(s.bytes(), 200);
        new.snapshot
            .rendered
            .source
            .set(Arc::from("x".repeat(500)))
            .unwrap();
        s.recharge(&new.snapshot);
        assert_eq!(s.bytes(), 700);
        new.snapshot
            .rendered
            .keep_media("word/media/a.png", Bytes::from(vec![0u8; 400]));
        s.recharge(&new.snapshot);
        // 100 + 500 + 400 + the part name, over 1000 with the old one: it goes.
        assert!(s.get(&old.snapshot.id, &old.token).is_err());
        assert_eq!(s.bytes(), 100 + 500 + 400 + "word/media/a.png".len() as u64);
    }

    #[test]
    fn a_view_over_the_cap_is_a_notice() {
        assert_eq!(&*capped_view("abc".into(), 3), "abc");
        let notice = capped_view("x".repeat(5000), 1024);
        assert!(notice.contains("too large to show"), "{notice}");
        assert!(notice.len() < 1000);
    }
}
