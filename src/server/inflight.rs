//! A global budget on response bytes waiting for clients.
//!
//! Raw files, media parts and `model.json` bodies are views of bytes a snapshot holds
//! ([`Bytes`] slices, never a copy per request). Each response reserves its length from
//! [`Inflight`] before it is sent and hands the body out in chunks; a chunk's share is given
//! back when hyper drops it, i.e. once it has been written to the socket. A client that stops
//! reading therefore keeps its unsent bytes reserved, and when the budget is spent further
//! responses are refused with 429 `busy` instead of piling up.
//!
//! The count is of response bytes, not of distinct memory: fifty clients reading the same
//! part reserve it fifty times though they share one copy. That makes it a bound, on the safe
//! side. A response is admitted while nothing else is in flight even if it alone is larger
//! than the budget, so a file under the size limits can always be downloaded.

use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use http_body::{Frame, SizeHint};

use crate::error::Error;

/// Bytes a body hands to hyper at a time.
const CHUNK: usize = 64 * 1024;

/// The budget shared by every connection.
#[derive(Debug)]
pub struct Inflight {
    limit: u64,
    used: AtomicU64,
}

impl Inflight {
    /// A budget of `limit` bytes.
    pub fn new(limit: u64) -> Arc<Inflight> {
        Arc::new(Inflight {
            limit,
            used: AtomicU64::new(0),
        })
    }

    /// Response bytes reserved and not yet written.
    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }

    /// A body that sends `data` in chunks under this budget, or `busy` when the budget
    /// cannot take it now.
    pub fn body(self: &Arc<Self>, data: Bytes) -> Result<Body, Error> {
        let len = data.len() as u64;
        let admitted = self
            .used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                (used == 0 || used.saturating_add(len) <= self.limit).then(|| used + len)
            });
        if admitted.is_err() {
            return Err(Error::Busy {
                reason: "too many response bytes are waiting for slow clients; try again shortly"
                    .into(),
                retry_after: Some(1),
            });
        }
        Ok(Body::new(Chunked {
            data,
            reserved: Share {
                budget: self.clone(),
                bytes: len,
            },
        }))
    }
}

/// Reserved bytes, given back on drop.
#[derive(Debug)]
struct Share {
    budget: Arc<Inflight>,
    bytes: u64,
}

impl Share {
    /// Moves `bytes` of this share into a share of their own.
    fn split(&mut self, bytes: u64) -> Share {
        self.bytes -= bytes;
        Share {
            budget: self.budget.clone(),
            bytes,
        }
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        self.budget.used.fetch_sub(self.bytes, Ordering::AcqRel);
    }
}

/// One chunk on its way to the socket, holding its share of the budget.
struct Chunk {
    data: Bytes,
    _share: Share,
}

impl AsRef<[u8]> for Chunk {
    fn as_ref(&self) -> &[u8] {
        &self.data
    }
}

/// The body: what is left to send and its reservation.
struct Chunked {
    data: Bytes,
    reserved: Share,
}

impl http_body::Body for Chunked {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if self.data.is_empty() {
            return Poll::Ready(None);
        }
        let n = self.data.len().min(CHUNK);
        let data = self.data.split_to(n);
        let share = self.reserved.split(n as u64);
        Poll::Ready(Some(Ok(Frame::data(Bytes::from_owner(Chunk {
            data,
            _share: share,
        })))))
    }

    fn is_end_stream(&self) -> bool {
        self.data.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.data.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    #[tokio::test]
    async fn bytes_are_reserved_until_written_and_refused_past_the_budget() {
        let budget = Inflight::new(100);
        let a = budget.body(Bytes::from(vec![1u8; 60])).unwrap();
        assert_eq!(budget.used(), 60);
        let refused = budget.body(Bytes::from(vec![2u8; 60])).unwrap_err();
        assert_eq!(refused.code(), "busy");
        let small = budget.body(Bytes::from(vec![3u8; 40])).unwrap();
        assert_eq!(budget.used(), 100);
        drop(small);
        assert_eq!(budget.used(), 60);
        let collected = a.collect().await.unwrap().to_bytes();
        assert_eq!(collected.len(), 60);
        // The one chunk is still held (collecting one chunk does not copy it)...
        assert_eq!(budget.used(), 60);
        // ... and once it is dropped, as hyper does after writing it, its share is back.
        drop(collected);
        assert_eq!(budget.used(), 0);
        // Alone, a body larger than the budget is admitted.
        let big = budget.body(Bytes::from(vec![4u8; 500])).unwrap();
        assert_eq!(budget.used(), 500);
        drop(big);
        assert_eq!(budget.used(), 0);
    }
}
