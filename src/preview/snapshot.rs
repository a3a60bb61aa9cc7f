//! Preview snapshots: one scoped read kept for a while, reachable by id and secret token.
//!
//! The store is bounded by count and by bytes (least recently used go first) and by age (an
//! expired snapshot is gone even before it is swept). Only a SHA-256 of the token is kept,
//! and tokens are compared in constant time; a wrong token and a missing snapshot are
//! indistinguishable to the caller.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use rand::RngCore;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::config::SnapshotConfig;
use crate::error::Error;
use crate::workspace::{Root, ScopedRead};

use super::office::OfficeModel;

/// Length of a snapshot id in hex characters (10 random bytes).
pub const ID_HEX_LEN: usize = 20;
/// Length of a token in hex characters (24 random bytes).
pub const TOKEN_HEX_LEN: usize = 48;

/// One file as it was read, with everything needed to serve its views.
#[derive(Debug)]
pub struct Snapshot {
    /// Public id (20 lowercase hex).
    pub id: String,
    token_hash: [u8; 32],
    /// The workspace root the file was read from (for sibling assets).
    pub root: Root,
    /// The one read every view is built from.
    pub read: ScopedRead,
    /// The parsed model of an Office file, made when the snapshot was.
    pub office: Option<OfficeModel>,
    /// Wall-clock expiry, for clients.
    pub expires_at: SystemTime,
    deadline: Instant,
    /// Rendered view bodies, made on first use and reused (switching views never re-reads
    /// and never re-renders).
    pub rendered: RenderCache,
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
}

impl Snapshot {
    fn weight(&self) -> u64 {
        self.read.bytes.as_ref().map_or(0, |b| b.len() as u64)
    }
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

#[derive(Debug, Default)]
struct Inner {
    entries: HashMap<String, Entry>,
    bytes: u64,
    tick: u64,
}

/// The bounded, in-memory snapshot store.
#[derive(Debug)]
pub struct SnapshotStore {
    config: SnapshotConfig,
    inner: Mutex<Inner>,
}

impl SnapshotStore {
    /// An empty store with these bounds.
    pub fn new(config: SnapshotConfig) -> SnapshotStore {
        SnapshotStore {
            config,
            inner: Mutex::new(Inner::default()),
        }
    }

    /// Keeps `read` as a new snapshot and returns it with its token.
    pub fn insert(&self, root: Root, read: ScopedRead, office: Option<OfficeModel>) -> Created {
        let id = random_hex(ID_HEX_LEN / 2);
        let token = random_hex(TOKEN_HEX_LEN / 2);
        let ttl = Duration::from_secs(self.config.ttl_seconds.max(1));
        let snapshot = Arc::new(Snapshot {
            id: id.clone(),
            token_hash: Sha256::digest(token.as_bytes()).into(),
            root,
            read,
            office,
            expires_at: SystemTime::now() + ttl,
            deadline: Instant::now() + ttl,
            rendered: RenderCache::default(),
        });
        let mut inner = self.lock();
        inner.tick += 1;
        let tick = inner.tick;
        inner.bytes += snapshot.weight();
        inner.entries.insert(
            id,
            Entry {
                snapshot: snapshot.clone(),
                last_used: tick,
            },
        );
        self.evict(&mut inner);
        Created { snapshot, token }
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
            return Err(missing());
        };
        if !bool::from(entry.snapshot.token_hash.ct_eq(&presented)) {
            return Err(missing());
        }
        if entry.snapshot.deadline <= now {
            let weight = entry.snapshot.weight();
            inner.entries.remove(id);
            inner.bytes -= weight;
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

    /// Bytes held by all snapshots.
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
        while inner.entries.len() > self.config.max_count.max(1)
            || (inner.bytes > self.config.max_bytes && inner.entries.len() > 1)
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

fn remove(inner: &mut Inner, id: &str) {
    if let Some(e) = inner.entries.remove(id) {
        inner.bytes -= e.snapshot.weight();
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
            self.insert(root(), read, None)
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
}
