//! [`Objects`]: blocking put/get/delete/list on one S3-compatible bucket, with a deadline
//! per attempt, bounded jittered retries, and counters.
//!
//! previewd's store callers run on the blocking pool and expect plain calls, while
//! `object_store` is async. The client therefore runs on a small runtime of its own (one
//! worker thread) and each call waits for its result on a channel. Keeping the network on
//! its own runtime also means a stalled store cannot starve the server's runtime: only
//! pool threads wait, each at most [`Objects::budget`].

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use futures::StreamExt;
use object_store::aws::AmazonS3Builder;
use object_store::path::Path as ObjectPath;
use object_store::{
    Attribute, Attributes, ClientOptions, GetOptions, ObjectStore, ObjectStoreExt, PutMode,
    PutOptions, PutPayload, RetryConfig,
};
use rand::Rng;

use super::stats::{Op, StoreStats};
use crate::config::SharedStoreConfig;
use crate::diff::store::{is_lower_hex, ID_HEX_LEN, ORPHAN_MAX_AGE};

/// The object user metadata key holding an object's expiry (unix milliseconds).
pub const EXPIRES_METADATA: &str = "expires-at-ms";
/// Most objects one listing returns; a prefix holding more is listed in part (the sweep
/// then finishes on its next run).
const MAX_LISTED: usize = 100_000;
/// First retry's backoff; each further retry doubles it, up to [`MAX_BACKOFF`].
const BASE_BACKOFF: Duration = Duration::from_millis(50);
/// Longest wait between two attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(1);

/// Why an object operation did not give its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ObjectError {
    /// A create-if-absent write found the key taken.
    AlreadyExists,
    /// The store did not answer within the deadline and retries, or refused the request
    /// (bad credentials, missing bucket); details are in the log.
    Unavailable {
        /// What was being done, for the error message.
        op: &'static str,
    },
}

/// One listed object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// The key below the configured prefix (`diffs/{id}/meta.json`).
    pub key: String,
    /// Size in bytes.
    pub size: u64,
    /// Last modification, unix milliseconds.
    pub modified_ms: u64,
}

/// The objects of one artifact or snapshot, as a sweep sees them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Group {
    /// Their keys (below the configured prefix).
    pub keys: Vec<String>,
    /// The newest modification among them, unix milliseconds.
    pub newest_ms: u64,
}

impl Group {
    /// Whether even the newest of them is [`ORPHAN_MAX_AGE`] old at `now_ms`: left by a
    /// writer that is gone, not one still writing.
    pub fn abandoned(&self, now_ms: u64) -> bool {
        let max_ms = u64::try_from(ORPHAN_MAX_AGE.as_millis()).unwrap_or(u64::MAX);
        now_ms.saturating_sub(self.newest_ms) >= max_ms
    }
}

/// A bucket (and key prefix) of an S3-compatible store.
pub struct Objects {
    /// The store's own runtime; `None` only while dropping (see `Drop`).
    runtime: Option<tokio::runtime::Runtime>,
    /// Where operations are spawned.
    handle: tokio::runtime::Handle,
    store: Arc<dyn ObjectStore>,
    bucket: String,
    /// `{prefix}/` or empty.
    prefix: String,
    deadline: Duration,
    max_retries: u32,
    stats: Arc<StoreStats>,
}

impl std::fmt::Debug for Objects {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Objects")
            .field("bucket", &self.bucket)
            .field("prefix", &self.prefix)
            .field("deadline", &self.deadline)
            .field("max_retries", &self.max_retries)
            .finish()
    }
}

/// How one attempt ended.
enum Attempt<T> {
    Done(T),
    Exists,
    /// Worth another try: a timeout, a connection failure, a 5xx.
    Retry(String),
    /// No retry will help (credentials, a missing bucket, a bad request).
    Fatal(String),
}

impl Objects {
    /// A client for the bucket of `config`; nothing is sent until the first operation.
    pub fn open(config: &SharedStoreConfig) -> Result<Objects, String> {
        let bucket = config
            .bucket
            .clone()
            .filter(|b| !b.is_empty())
            .ok_or("store.bucket is required with store.backend = \"s3\"")?;
        let deadline = Duration::from_millis(config.operation_timeout_ms.max(1));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("previewd-store")
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the store runtime: {e}"))?;
        // `from_env` reads AWS_* (credentials, region, endpoint); the file's keys win.
        let mut builder = AmazonS3Builder::from_env()
            .with_bucket_name(&bucket)
            .with_allow_http(config.allow_http)
            .with_client_options(
                ClientOptions::new()
                    .with_timeout(deadline)
                    .with_connect_timeout(deadline)
                    .with_allow_http(config.allow_http),
            )
            // Retries are ours (see `run`), so one deadline bounds each attempt.
            .with_retry(RetryConfig {
                max_retries: 0,
                retry_timeout: deadline,
                ..RetryConfig::default()
            });
        let region = config.region.clone().or_else(|| {
            ["AWS_DEFAULT_REGION", "AWS_REGION"]
                .iter()
                .find_map(|k| std::env::var(k).ok())
        });
        builder = builder.with_region(region.unwrap_or_else(|| "us-east-1".to_string()));
        if let Some(endpoint) = &config.endpoint {
            builder = builder.with_endpoint(endpoint);
        }
        if let Some(key) = &config.access_key_id {
            builder = builder.with_access_key_id(key);
        }
        if let Some(secret) = &config.secret_access_key {
            builder = builder.with_secret_access_key(secret);
        }
        let store = {
            let _inside = runtime.enter();
            builder
                .build()
                .map_err(|e| format!("cannot configure the S3 store: {e}"))?
        };
        let prefix = config.prefix.trim_matches('/');
        Ok(Objects {
            handle: runtime.handle().clone(),
            runtime: Some(runtime),
            store: Arc::new(store),
            prefix: if prefix.is_empty() {
                String::new()
            } else {
                format!("{prefix}/")
            },
            bucket,
            deadline,
            max_retries: config.max_retries,
            stats: Arc::new(StoreStats::new("s3")),
        })
    }

    /// The counters of this store.
    pub fn stats(&self) -> Arc<StoreStats> {
        self.stats.clone()
    }

    /// `s3://{bucket}/{prefix}{key}`: where an object is, for an operator (never a
    /// credential).
    pub fn address(&self, key: &str) -> String {
        format!("s3://{}/{}{key}", self.bucket, self.prefix)
    }

    /// The longest one operation can take: every attempt's deadline plus the backoffs.
    pub fn budget(&self) -> Duration {
        let attempts = self.max_retries.saturating_add(1);
        (self.deadline + MAX_BACKOFF) * attempts
    }

    fn path(&self, key: &str) -> Result<ObjectPath, ObjectError> {
        ObjectPath::parse(format!("{}{key}", self.prefix)).map_err(|e| {
            tracing::warn!(key, error = %e, "invalid object key");
            ObjectError::Unavailable { op: "name object" }
        })
    }

    /// Writes `bytes` at `key` with a content type and an expiry in its metadata. With
    /// `create`, the write succeeds only if the key is absent (`If-None-Match: *`), else
    /// [`ObjectError::AlreadyExists`]; without, it replaces what is there. Either way a
    /// reader sees the old object or the whole new one, never a part.
    pub fn put(
        &self,
        key: &str,
        bytes: Vec<u8>,
        content_type: &'static str,
        expires_at_ms: u64,
        create: bool,
    ) -> Result<(), ObjectError> {
        let path = self.path(key)?;
        let payload = PutPayload::from(bytes);
        self.run(Op::Put, "store write", move |store| {
            let path = path.clone();
            let payload = payload.clone();
            Box::pin(async move {
                let mut attributes = Attributes::new();
                attributes.insert(Attribute::ContentType, content_type.into());
                attributes.insert(
                    Attribute::Metadata(EXPIRES_METADATA.into()),
                    expires_at_ms.to_string().into(),
                );
                let options = PutOptions {
                    mode: if create {
                        PutMode::Create
                    } else {
                        PutMode::Overwrite
                    },
                    attributes,
                    ..PutOptions::default()
                };
                store.put_opts(&path, payload, options).await.map(|_| ())
            })
        })
    }

    /// The bytes at `key`, read as a stream and refused past `max_bytes` (`None`, logged,
    /// as for a missing key).
    pub fn get(&self, key: &str, max_bytes: u64) -> Result<Option<Vec<u8>>, ObjectError> {
        let path = self.path(key)?;
        let found = self.run(Op::Get, "store read", move |store| {
            let path = path.clone();
            Box::pin(async move {
                let result = match store.get_opts(&path, GetOptions::default()).await {
                    Ok(result) => result,
                    Err(object_store::Error::NotFound { .. }) => return Ok(None),
                    Err(e) => return Err(e),
                };
                if result.meta.size > max_bytes {
                    tracing::warn!(key = %path, size = result.meta.size, "stored object over its size cap");
                    return Ok(None);
                }
                let mut bytes = Vec::with_capacity(usize::try_from(result.meta.size).unwrap_or(0));
                let mut stream = result.into_stream();
                while let Some(chunk) = stream.next().await {
                    bytes.extend_from_slice(&chunk?);
                    if bytes.len() as u64 > max_bytes {
                        // It grew between the answer's header and its body.
                        return Ok(None);
                    }
                }
                Ok(Some(bytes))
            })
        })?;
        Ok(found)
    }

    /// Deletes `key`; a missing key is not an error.
    pub fn delete(&self, key: &str) -> Result<(), ObjectError> {
        let path = self.path(key)?;
        self.run(Op::Delete, "store delete", move |store| {
            let path = path.clone();
            Box::pin(async move {
                match store.delete(&path).await {
                    Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
                    Err(e) => Err(e),
                }
            })
        })
    }

    /// Every object below `dir` (a key prefix ending in `/`), up to [`MAX_LISTED`].
    pub fn list(&self, dir: &str) -> Result<Vec<Listed>, ObjectError> {
        let path = self.path(dir.trim_end_matches('/'))?;
        let strip = self.prefix.clone();
        self.run(Op::List, "store list", move |store| {
            let path = path.clone();
            let strip = strip.clone();
            Box::pin(async move {
                let mut stream = store.list(Some(&path));
                let mut listed = Vec::new();
                while let Some(meta) = stream.next().await {
                    let meta = meta?;
                    let key = meta.location.as_ref();
                    listed.push(Listed {
                        key: key.strip_prefix(strip.as_str()).unwrap_or(key).to_string(),
                        size: meta.size,
                        modified_ms: u64::try_from(meta.last_modified.timestamp_millis())
                            .unwrap_or(0),
                    });
                    if listed.len() >= MAX_LISTED {
                        break;
                    }
                }
                Ok(listed)
            })
        })
    }

    /// Every object below `folder` (`diffs/`, `snapshots/`) grouped by the id that
    /// follows the folder in its key (`{folder}{id}/…`); keys without a valid id (20
    /// lowercase hex digits) are passed over.
    pub fn list_by_id(&self, folder: &str) -> Result<BTreeMap<String, Group>, ObjectError> {
        let mut groups: BTreeMap<String, Group> = BTreeMap::new();
        for object in self.list(folder)? {
            let Some(id) = object
                .key
                .strip_prefix(folder)
                .and_then(|rest| rest.split('/').next())
                .filter(|id| is_lower_hex(id, ID_HEX_LEN))
            else {
                continue;
            };
            let group = groups.entry(id.to_string()).or_default();
            group.newest_ms = group.newest_ms.max(object.modified_ms);
            group.keys.push(object.key);
        }
        Ok(groups)
    }

    /// Runs `attempt` on the store's runtime until it succeeds, gives an answer, or the
    /// deadline and retries are used up; waits for the outcome on the calling thread.
    fn run<T: Send + 'static>(
        &self,
        op: Op,
        what: &'static str,
        attempt: impl Fn(Arc<dyn ObjectStore>) -> BoxFuture<'static, object_store::Result<T>>
            + Send
            + 'static,
    ) -> Result<T, ObjectError> {
        let started = Instant::now();
        let (store, deadline, retries, stats) = (
            self.store.clone(),
            self.deadline,
            self.max_retries,
            self.stats.clone(),
        );
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.handle.spawn(async move {
            let mut tried = 0;
            let outcome = loop {
                let attempted =
                    classify(tokio::time::timeout(deadline, attempt(store.clone())).await);
                match attempted {
                    Attempt::Done(value) => break Ok(value),
                    Attempt::Exists => break Err(ObjectError::AlreadyExists),
                    Attempt::Retry(reason) if tried < retries => {
                        tried += 1;
                        stats.retried();
                        tracing::debug!(
                            op = what,
                            attempt = tried,
                            reason,
                            "retrying store operation"
                        );
                        tokio::time::sleep(backoff(tried)).await;
                    }
                    Attempt::Retry(reason) | Attempt::Fatal(reason) => {
                        tracing::warn!(
                            op = what,
                            attempts = tried + 1,
                            reason,
                            "store operation failed"
                        );
                        break Err(ObjectError::Unavailable { op: what });
                    }
                }
            };
            let _ = tx.send(outcome);
        });
        // The task always ends within its budget; the margin only guards against a
        // runtime that stopped running tasks (then this thread must not wait forever).
        let outcome = rx
            .recv_timeout(self.budget() + Duration::from_secs(1))
            .unwrap_or(Err(ObjectError::Unavailable { op: what }));
        let failed = matches!(outcome, Err(ObjectError::Unavailable { .. }));
        self.stats.record(op, started.elapsed(), failed);
        outcome
    }
}

impl Drop for Objects {
    // A runtime may not be dropped (which waits for its threads) inside another runtime's
    // task, and the last user of a store may well be one: let its thread wind down alone.
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Sorts one attempt's result: a value, an answer, or a failure worth retrying or not.
fn classify<T>(result: Result<object_store::Result<T>, tokio::time::error::Elapsed>) -> Attempt<T> {
    use object_store::Error as E;
    match result {
        Err(_) => Attempt::Retry("deadline passed".to_string()),
        Ok(Ok(value)) => Attempt::Done(value),
        Ok(Err(E::AlreadyExists { .. } | E::Precondition { .. } | E::NotModified { .. })) => {
            Attempt::Exists
        }
        Ok(Err(
            e @ (E::PermissionDenied { .. }
            | E::Unauthenticated { .. }
            | E::NotSupported { .. }
            | E::NotImplemented { .. }
            | E::InvalidPath { .. }
            | E::NotFound { .. }),
        )) => Attempt::Fatal(e.to_string()),
        Ok(Err(e)) => Attempt::Retry(e.to_string()),
    }
}

/// The wait before retry `n` (1-based): exponential, capped, with full jitter over its
/// upper half so instances that failed together do not retry together.
fn backoff(n: u32) -> Duration {
    let ceiling = BASE_BACKOFF
        .saturating_mul(1 << n.saturating_sub(1).min(16))
        .min(MAX_BACKOFF);
    let half = ceiling / 2;
    half + half.mul_f64(rand::rng().random::<f64>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_is_capped_and_jittered() {
        for n in 1..20 {
            let ceiling = BASE_BACKOFF
                .saturating_mul(1 << (n - 1).min(16))
                .min(MAX_BACKOFF);
            let wait = backoff(n);
            assert!(
                wait >= ceiling / 2 && wait <= ceiling,
                "retry {n}: {wait:?}"
            );
        }
        let waits: std::collections::HashSet<_> = (0..32).map(|_| backoff(3)).collect();
        assert!(waits.len() > 1, "jitter makes waits differ");
    }

    #[test]
    fn an_unreachable_store_fails_within_its_budget() {
        // A listener that accepts (the kernel's backlog) but never answers, like a
        // stopped server: every attempt must end at its deadline.
        let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let config = SharedStoreConfig {
            backend: crate::config::StoreBackend::S3,
            bucket: Some("b".into()),
            endpoint: Some(format!("http://{}", silent.local_addr().unwrap())),
            access_key_id: Some("k".into()),
            secret_access_key: Some("s".into()),
            allow_http: true,
            operation_timeout_ms: 200,
            max_retries: 1,
            ..SharedStoreConfig::default()
        };
        let objects = Objects::open(&config).unwrap();
        let got = objects.get("diffs/x/meta.json", 1024);
        assert_eq!(got, Err(ObjectError::Unavailable { op: "store read" }));
        let stats = objects.stats();
        assert_eq!(stats.errors(Op::Get), 1);
        assert_eq!(stats.retries(), 1);
        assert_eq!(stats.state(), super::super::StoreState::Unavailable);
    }
}
