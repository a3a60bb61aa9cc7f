//! Who may reach previewd, and the headers every response carries.
//!
//! A request is *local* only when its peer address is loopback and it carries none of the
//! forwarding headers (`x-forwarded-for`, `x-real-ip`, `forwarded`, `x-forwarded-host`,
//! `x-forwarded-proto`): a local reverse proxy forwarding someone else must not make that
//! someone local. Behind a configured trusted proxy the client is the last
//! `x-forwarded-for` hop; an unclear client address fails closed (non-local).
//!
//! Non-local requests get 404 unless remote access is configured; then API calls need the
//! bearer token, and failed lookups by a remote client are counted: too many within the
//! window lock that client out for a while (429 with `Retry-After`). Loopback is never
//! counted.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use subtle::ConstantTimeEq;
use tracing::Instrument;

use super::AppState;
use crate::config::SecurityConfig;
use crate::error::Error;

/// Headers that reveal a request was forwarded.
pub const FORWARDING_HEADERS: [&str; 5] = [
    "x-forwarded-for",
    "x-real-ip",
    "forwarded",
    "x-forwarded-host",
    "x-forwarded-proto",
];

/// Where a request comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Client {
    /// Loopback, not forwarded.
    Local,
    /// Anyone else, by address (used for throttling).
    Remote(IpAddr),
    /// A forwarded request whose client address cannot be determined.
    Unclear,
}

impl Client {
    /// Whether the request is local.
    pub fn is_local(self) -> bool {
        self == Client::Local
    }
}

/// Classifies a request by its peer address and headers.
pub fn classify(peer: Option<IpAddr>, headers: &HeaderMap, security: &SecurityConfig) -> Client {
    let Some(peer) = peer else {
        return Client::Unclear;
    };
    if security.trusted_proxies.contains(&peer) {
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .rfind(|s| !s.is_empty());
        return match forwarded.and_then(|s| s.parse::<IpAddr>().ok()) {
            Some(ip) if ip.is_loopback() => Client::Local,
            Some(ip) => Client::Remote(ip),
            None => Client::Unclear,
        };
    }
    let forwarded = FORWARDING_HEADERS.iter().any(|h| headers.contains_key(*h));
    if peer.is_loopback() && !forwarded {
        Client::Local
    } else {
        Client::Remote(peer)
    }
}

/// Counts failed lookups of remote clients and locks out those with too many.
#[derive(Debug)]
pub struct Throttle {
    limit: u32,
    window: Duration,
    lockout: Duration,
    max_clients: usize,
    clients: Mutex<HashMap<IpAddr, Record>>,
}

#[derive(Debug, Clone, Copy)]
struct Record {
    window_start: Instant,
    failures: u32,
    locked_until: Option<Instant>,
}

impl Throttle {
    /// A throttle with the configured limits.
    pub fn new(security: &SecurityConfig) -> Throttle {
        Throttle {
            limit: security.miss_limit.max(1),
            window: Duration::from_secs(security.miss_window_seconds.max(1)),
            lockout: Duration::from_secs(security.lockout_seconds.max(1)),
            max_clients: security.max_tracked_clients.max(1),
            clients: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, Record>> {
        self.clients.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Seconds left of a lock-out, if the client is locked out now.
    pub fn locked(&self, ip: IpAddr) -> Option<u64> {
        let now = Instant::now();
        let clients = self.lock();
        let until = clients.get(&ip)?.locked_until?;
        (until > now).then(|| (until - now).as_secs().max(1))
    }

    /// Records a failed lookup.
    pub fn fail(&self, ip: IpAddr) {
        let now = Instant::now();
        let mut clients = self.lock();
        if !clients.contains_key(&ip) && clients.len() >= self.max_clients {
            // Keep the table bounded: forget clients that are neither locked out nor inside
            // a live window, then, if still full, the one whose window is oldest.
            clients.retain(|_, r| {
                r.locked_until.is_some_and(|u| u > now) || now - r.window_start < self.window
            });
            if clients.len() >= self.max_clients {
                if let Some(oldest) = clients
                    .iter()
                    .filter(|(_, r)| r.locked_until.is_none_or(|u| u <= now))
                    .min_by_key(|(_, r)| r.window_start)
                    .map(|(ip, _)| *ip)
                {
                    clients.remove(&oldest);
                } else {
                    return;
                }
            }
        }
        let record = clients.entry(ip).or_insert(Record {
            window_start: now,
            failures: 0,
            locked_until: None,
        });
        if now - record.window_start >= self.window {
            record.window_start = now;
            record.failures = 0;
        }
        record.failures += 1;
        if record.failures >= self.limit {
            record.locked_until = Some(now + self.lockout);
            record.failures = 0;
            record.window_start = now;
        }
    }

    /// A success clears the client's count.
    pub fn clear(&self, ip: IpAddr) {
        let mut clients = self.lock();
        if clients
            .get(&ip)
            .is_some_and(|r| r.locked_until.is_none_or(|u| u <= Instant::now()))
        {
            clients.remove(&ip);
        }
    }

    /// Number of tracked clients.
    pub fn tracked(&self) -> usize {
        self.lock().len()
    }
}

/// Access control: locality, remote policy, bearer token for the API, and throttling.
pub async fn access(State(state): State<Arc<AppState>>, mut req: Request, next: Next) -> Response {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let security = &state.config.security;
    let client = classify(peer, req.headers(), security);
    req.extensions_mut().insert(client);
    let path = req.uri().path();
    let is_diff_viewer = path.starts_with("/plugins/diffs/");
    let remote_allowed =
        security.allow_remote || (is_diff_viewer && state.config.diffs.allow_remote_viewer);
    if !client.is_local() && !remote_allowed {
        return if is_diff_viewer {
            plain(StatusCode::NOT_FOUND, "Diff not found")
        } else {
            Error::not_found("not found").into_response()
        };
    }
    // The viewer contract checks the method before any lock-out.
    if is_diff_viewer && req.method() != Method::GET {
        return plain(StatusCode::METHOD_NOT_ALLOWED, "Method not allowed");
    }
    if client.is_local() {
        return next.run(req).await;
    }
    let Client::Remote(ip) = client else {
        // Remote access is on but the client cannot be identified: fail closed.
        return Error::not_found("not found").into_response();
    };
    if let Some(retry) = state.throttle.locked(ip) {
        let mut response = if is_diff_viewer {
            plain(StatusCode::TOO_MANY_REQUESTS, "Too Many Requests")
        } else {
            Error::Busy {
                reason: "Too Many Requests".into(),
                retry_after: None,
            }
            .into_response()
        };
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(retry));
        return response;
    }
    let needs_bearer = path.starts_with("/api/") || path.starts_with("/w/") || path == "/metrics";
    if needs_bearer && !bearer_ok(req.headers(), security.api_token.as_deref()) {
        state.throttle.fail(ip);
        return Error::Unauthorized.into_response();
    }
    let response = next.run(req).await;
    let status = response.status();
    if status == StatusCode::NOT_FOUND || status == StatusCode::UNAUTHORIZED {
        state.throttle.fail(ip);
    } else if status.is_success() {
        state.throttle.clear(ip);
    }
    response
}

fn bearer_ok(headers: &HeaderMap, expected: Option<&str>) -> bool {
    // Without a configured token, the API is not offered to remote clients at all.
    let Some(expected) = expected.filter(|t| !t.is_empty()) else {
        return false;
    };
    let presented = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    presented.len() == expected.len() && bool::from(presented.as_bytes().ct_eq(expected.as_bytes()))
}

/// A plain-text response (the diff viewer's contract bodies are plain text).
pub fn plain(status: StatusCode, text: &'static str) -> Response {
    let mut response = (status, text).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// Headers on every response, HEAD answered exactly like GET, and a request id in the log.
pub async fn headers(State(state): State<Arc<AppState>>, mut req: Request, next: Next) -> Response {
    let is_head = req.method() == Method::HEAD;
    if is_head {
        // Route HEAD as GET so the response (and its length) is the GET response; the body
        // is dropped below.
        *req.method_mut() = Method::GET;
    }
    let request_id = crate::preview::snapshot::random_hex(8);
    let method = if is_head {
        "HEAD"
    } else {
        req.method().as_str()
    }
    .to_string();
    // Log the route template, never the raw path: view URLs carry secret tokens.
    let route = req
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map(|m| m.as_str().to_string())
        .unwrap_or_else(|| route_family(req.uri().path()).to_string());
    let started = Instant::now();
    let span = tracing::info_span!("request", id = %request_id, %method, %route);
    let mut response = next.run(req).instrument(span.clone()).await;
    state.metrics.response(response.status());
    let headers = response.headers_mut();
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("no-store, max-age=0"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    if let Ok(v) = HeaderValue::from_str(&request_id) {
        headers.insert("x-request-id", v);
    }
    let status = response.status();
    span.in_scope(|| {
        tracing::info!(
            status = status.as_u16(),
            elapsed_us = started.elapsed().as_micros() as u64,
            "handled"
        )
    });
    if is_head {
        let (mut parts, body) = response.into_parts();
        let length = axum::body::HttpBody::size_hint(&body).exact();
        if let Some(n) = length {
            parts
                .headers
                .insert(header::CONTENT_LENGTH, HeaderValue::from(n));
        }
        response = Response::from_parts(parts, axum::body::Body::empty());
    }
    response
}

/// The first path segment, for logging requests that matched no route.
fn route_family(path: &str) -> &str {
    let trimmed = path.trim_start_matches('/');
    match trimmed.find('/') {
        // Index within `path`, not within `trimmed`: the leading slashes are kept.
        Some(i) => &path[..path.len() - trimmed.len() + i],
        None => path,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sec() -> SecurityConfig {
        SecurityConfig::default()
    }

    #[test]
    fn route_family_is_the_first_segment_with_its_slashes() {
        assert_eq!(route_family("/abc/x"), "/abc");
        assert_eq!(route_family("//abc/x"), "//abc");
        assert_eq!(route_family("//\u{e9}/x"), "//\u{e9}");
        assert_eq!(route_family("/abc"), "/abc");
        assert_eq!(route_family("/"), "/");
    }

    #[test]
    fn loopback_without_forwarding_is_local() {
        let h = HeaderMap::new();
        assert_eq!(
            classify(Some("127.0.0.1".parse().unwrap()), &h, &sec()),
            Client::Local
        );
        assert_eq!(
            classify(Some("::1".parse().unwrap()), &h, &sec()),
            Client::Local
        );
        assert_eq!(
            classify(Some("10.0.0.2".parse().unwrap()), &h, &sec()),
            Client::Remote("10.0.0.2".parse().unwrap())
        );
        assert_eq!(classify(None, &h, &sec()), Client::Unclear);
    }

    #[test]
    fn any_forwarding_header_makes_loopback_remote() {
        for name in FORWARDING_HEADERS {
            let mut h = HeaderMap::new();
            h.insert(name, HeaderValue::from_static("127.0.0.1"));
            assert!(
                !classify(Some("127.0.0.1".parse().unwrap()), &h, &sec()).is_local(),
                "{name}"
            );
        }
    }

    #[test]
    fn trusted_proxy_uses_the_last_hop_and_fails_closed() {
        let mut s = sec();
        s.trusted_proxies = vec!["10.0.0.1".parse().unwrap()];
        let proxy = Some("10.0.0.1".parse().unwrap());
        let mut h = HeaderMap::new();
        assert_eq!(classify(proxy, &h, &s), Client::Unclear);
        h.insert(
            "x-forwarded-for",
            HeaderValue::from_static("1.2.3.4, 127.0.0.1"),
        );
        assert_eq!(classify(proxy, &h, &s), Client::Local);
        h.insert(
            "x-forwarded-for",
            HeaderValue::from_static("127.0.0.1, 5.6.7.8"),
        );
        assert_eq!(
            classify(proxy, &h, &s),
            Client::Remote("5.6.7.8".parse().unwrap())
        );
        h.insert("x-forwarded-for", HeaderValue::from_static("garbage"));
        assert_eq!(classify(proxy, &h, &s), Client::Unclear);
    }

    #[test]
    fn forty_failures_lock_out_and_success_clears() {
        let t = Throttle::new(&sec());
        let ip: IpAddr = "10.1.1.1".parse().unwrap();
        for _ in 0..39 {
            t.fail(ip);
        }
        assert_eq!(t.locked(ip), None);
        t.clear(ip);
        for _ in 0..39 {
            t.fail(ip);
        }
        assert_eq!(t.locked(ip), None, "the success reset the count");
        t.fail(ip);
        let left = t.locked(ip).unwrap();
        assert!((1..=60).contains(&left));
        t.clear(ip);
        assert!(t.locked(ip).is_some(), "a lock-out outlives a success");
    }

    #[test]
    fn the_client_table_is_bounded() {
        let mut s = sec();
        s.max_tracked_clients = 4;
        let t = Throttle::new(&s);
        for i in 0..100u8 {
            t.fail(IpAddr::from([10, 0, 0, i]));
        }
        assert!(t.tracked() <= 4);
    }
}
