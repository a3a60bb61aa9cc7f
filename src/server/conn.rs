//! Per-connection guards of the accept loop: connections per client IP, and a deadline on
//! writes a client does not take.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::response::IntoResponse;
use axum::Router;
use hyper::body::Incoming;
use hyper::Request;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;
use tower_service::Service;

use crate::error::Error;

/// Open connections by client IP.
#[derive(Debug, Clone)]
pub struct Clients {
    max: usize,
    exempt: Arc<Vec<IpAddr>>,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One admitted connection; the count of its client goes down when it is dropped.
#[derive(Debug)]
pub struct Slot {
    clients: Clients,
    ip: Option<IpAddr>,
}

impl Clients {
    /// At most `max` connections per IP; `exempt` (trusted proxies) are not counted.
    pub fn new(max: usize, exempt: Vec<IpAddr>) -> Clients {
        Clients {
            max: max.max(1),
            exempt: Arc::new(exempt),
            open: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// A slot for one more connection of `ip`, or `None` when it holds its maximum.
    pub fn admit(&self, ip: IpAddr) -> Option<Slot> {
        let ip = ip.to_canonical();
        if self.exempt.contains(&ip) {
            return Some(Slot {
                clients: self.clone(),
                ip: None,
            });
        }
        let mut open = self.lock();
        let count = open.entry(ip).or_insert(0);
        if *count >= self.max {
            return None;
        }
        *count += 1;
        Some(Slot {
            clients: self.clone(),
            ip: Some(ip),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let Some(ip) = self.ip else { return };
        let mut open = self.clients.lock();
        if let Some(count) = open.get_mut(&ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&ip);
            }
        }
    }
}

/// The router for one connection, with the peer address its handlers read
/// (`ConnectInfo<SocketAddr>`).
pub fn service(
    router: Router,
    peer: SocketAddr,
) -> impl hyper::service::Service<
    Request<Incoming>,
    Response = axum::response::Response,
    Error = std::convert::Infallible,
    Future = impl Future<Output = Result<axum::response::Response, std::convert::Infallible>> + Send,
> + Clone {
    hyper::service::service_fn(move |mut request: Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        let mut router = router.clone();
        async move { router.call(request).await }
    })
}

/// How long a refused connection may take to send its request.
const REFUSE_WITHIN: Duration = Duration::from_secs(10);

/// Answers the first request of a connection over the client's limit with 429 `busy`,
/// then closes it.
pub async fn refuse<I>(io: I)
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let service = hyper::service::service_fn(|_request: Request<Incoming>| async {
        Ok::<_, std::convert::Infallible>(
            Error::Busy {
                reason: "this client has too many connections open".into(),
                retry_after: Some(1),
            }
            .into_response(),
        )
    });
    let connection = hyper::server::conn::http1::Builder::new()
        .keep_alive(false)
        .serve_connection(io, service);
    let _ = tokio::time::timeout(REFUSE_WITHIN, connection).await;
}

/// A socket whose writes fail once they have made no progress for `timeout`: hyper then
/// drops the connection and with it the response it was sending.
pub struct TimedWrites<S> {
    inner: S,
    timeout: Option<Duration>,
    stalled: Option<Pin<Box<Sleep>>>,
}

impl<S> TimedWrites<S> {
    /// Wraps `inner`; `None` never times out.
    pub fn new(inner: S, timeout: Option<Duration>) -> Self {
        TimedWrites {
            inner,
            timeout,
            stalled: None,
        }
    }

    /// Maps one poll of a write: progress clears the deadline, a pending write starts it
    /// (or fails when it has passed).
    fn check<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.stalled = None;
            return poll;
        }
        let Some(timeout) = self.timeout else {
            return poll;
        };
        let sleep = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match sleep.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client took nothing of the response in time",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for TimedWrites<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for TimedWrites<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.check(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.check(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_flush(cx);
        self.check(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
