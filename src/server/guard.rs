//! Who may reach previewd, and the headers every response carries.
//!
//! [`web`] runs first and treats every request as possibly sent by a web page the user's
//! browser has open: the `Host` must be one of ours ([`super::hosts`]), `/api/*` refuses
//! cross-site requests (`Sec-Fetch-Site: cross-site`/`same-site`, or an `Origin` that is not
//! previewd's), and `/w/…`, which creates a snapshot, acts only for a top-level navigation,
//! so an `<img>` or `fetch` cannot. Together with `Content-Type: application/json` on every
//! JSON endpoint (`super::body`), no page can call the API without a CORS preflight, and
//! previewd answers no preflight.
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
///
/// Clients are told apart by IPv4 address and by IPv6 /64 prefix (one host usually holds a
/// whole /64, so single IPv6 addresses would give an attacker endless fresh names). The table
/// is bounded; when it is full of clients that are all locked out, further clients share one
/// overflow record, so they are still counted and locked out together rather than never.
#[derive(Debug)]
pub struct Throttle {
    limit: u32,
    window: Duration,
    lockout: Duration,
    max_clients: usize,
    table: Mutex<Table>,
}

#[derive(Debug, Default)]
struct Table {
    clients: HashMap<IpAddr, Record>,
    /// Shared by every client that found no room in `clients`.
    overflow: Option<Record>,
}

#[derive(Debug, Clone, Copy)]
struct Record {
    window_start: Instant,
    failures: u32,
    locked_until: Option<Instant>,
}

impl Record {
    fn new(now: Instant) -> Record {
        Record {
            window_start: now,
            failures: 0,
            locked_until: None,
        }
    }

    fn locked_at(&self, now: Instant) -> bool {
        self.locked_until.is_some_and(|u| u > now)
    }

    /// Seconds left of a lock-out, if locked now.
    fn left(&self, now: Instant) -> Option<u64> {
        let until = self.locked_until.filter(|u| *u > now)?;
        Some((until - now).as_secs().max(1))
    }
}

/// The throttling key of an address: itself for IPv4, its /64 prefix for IPv6.
fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let bits = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(bits.into())
            }
        },
    }
}

impl Throttle {
    /// A throttle with the configured limits.
    pub fn new(security: &SecurityConfig) -> Throttle {
        Throttle {
            limit: security.miss_limit.max(1),
            window: Duration::from_secs(security.miss_window_seconds.max(1)),
            lockout: Duration::from_secs(security.lockout_seconds.max(1)),
            max_clients: security.max_tracked_clients.max(1),
            table: Mutex::new(Table::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Seconds left of a lock-out, if the client is locked out now.
    pub fn locked(&self, ip: IpAddr) -> Option<u64> {
        let now = Instant::now();
        let table = self.lock();
        match table.clients.get(&client_key(ip)) {
            Some(record) => record.left(now),
            None => table.overflow.as_ref()?.left(now),
        }
    }

    /// Records a failed lookup.
    pub fn fail(&self, ip: IpAddr) {
        let key = client_key(ip);
        let now = Instant::now();
        let mut table = self.lock();
        let Table { clients, overflow } = &mut *table;
        if !clients.contains_key(&key) && clients.len() >= self.max_clients {
            // Keep the table bounded: forget clients that are neither locked out nor inside
            // a live window, then, if still full, the unlocked one whose window is oldest.
            clients.retain(|_, r| r.locked_at(now) || now - r.window_start < self.window);
            if clients.len() >= self.max_clients {
                let oldest = clients
                    .iter()
                    .filter(|(_, r)| !r.locked_at(now))
                    .min_by_key(|(_, r)| r.window_start)
                    .map(|(ip, _)| *ip);
                match oldest {
                    Some(oldest) => {
                        clients.remove(&oldest);
                    }
                    None => {
                        // Everyone tracked is locked out: count this client in the overflow.
                        let record = overflow.get_or_insert_with(|| Record::new(now));
                        self.count(record, now);
                        return;
                    }
                }
            }
        }
        let record = clients.entry(key).or_insert_with(|| Record::new(now));
        self.count(record, now);
    }

    fn count(&self, record: &mut Record, now: Instant) {
        if record.locked_at(now) {
            return;
        }
        if now - record.window_start >= self.window {
            *record = Record::new(now);
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
        let now = Instant::now();
        let mut table = self.lock();
        let key = client_key(ip);
        if table.clients.get(&key).is_some_and(|r| !r.locked_at(now)) {
            table.clients.remove(&key);
        }
    }

    /// Number of tracked clients.
    pub fn tracked(&self) -> usize {
        self.lock().clients.len()
    }
}

/// Refuses requests a web page could have sent on the user's behalf (see the module docs),
/// and paths that are not UTF-8, before any routing.
pub async fn web(State(state): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let headers = req.headers();
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .or_else(|| req.uri().authority().map(|a| a.as_str()));
    if !host.is_some_and(|h| state.hosts.allows_host(h)) {
        // Debug, not warn: any web page can send these, and a log line per refusal is a
        // lever on the log.
        tracing::debug!(host = ?host.map(|h| h.chars().take(100).collect::<String>()), "refused: host not allowed");
        return Error::ForbiddenHost.into_response();
    }
    let path = req.uri().path();
    if percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .is_err()
    {
        return if path.starts_with("/plugins/diffs/") {
            plain(StatusCode::NOT_FOUND, "Diff not found")
        } else {
            Error::InvalidRequest("the URL path is not valid UTF-8".into()).into_response()
        };
    }
    let fetch = |name: &str| headers.get(name).map(|v| v.as_bytes());
    if path.starts_with("/api/") {
        if matches!(
            fetch("sec-fetch-site"),
            Some(b"cross-site") | Some(b"same-site")
        ) {
            return Error::CrossSite("the API does not take requests from other sites".into())
                .into_response();
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let ours = origin.to_str().is_ok_and(|o| state.hosts.allows_origin(o));
            if !ours {
                return Error::CrossSite(
                    "the API does not take requests from other origins".into(),
                )
                .into_response();
            }
        }
    }
    if path.starts_with("/w/") {
        // Browsers send fetch metadata on every request; curl and other tools send none.
        // With metadata, only a top-level navigation may create a snapshot.
        let has_metadata = headers.keys().any(|k| k.as_str().starts_with("sec-fetch-"));
        let top_level = fetch("sec-fetch-mode") == Some(b"navigate")
            && fetch("sec-fetch-dest") == Some(b"document");
        if has_metadata && !top_level {
            return Error::CrossSite(
                "/w/ opens a file only when the browser navigates to it".into(),
            )
            .into_response();
        }
    }
    next.run(req).await
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
    // The diff viewer has its own switch: `--allow-remote` opens the API and the previews,
    // never the viewer by itself.
    let remote_allowed = if is_diff_viewer {
        state.config.diffs.allow_remote_viewer
    } else {
        security.allow_remote
    };
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
    // A handler that knows its answer never changes (a font by immutable id) says so.
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store, max-age=0"),
        );
    }
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

    #[test]
    fn a_table_full_of_locked_out_clients_still_counts_new_ones() {
        let mut s = sec();
        s.max_tracked_clients = 4;
        s.miss_limit = 3;
        let t = Throttle::new(&s);
        for i in 0..4u8 {
            for _ in 0..3 {
                t.fail(IpAddr::from([10, 0, 0, i]));
            }
            assert!(t.locked(IpAddr::from([10, 0, 0, i])).is_some());
        }
        let newcomer = IpAddr::from([10, 0, 1, 1]);
        for _ in 0..2 {
            t.fail(newcomer);
        }
        assert_eq!(t.locked(newcomer), None);
        t.fail(newcomer);
        assert!(
            t.locked(newcomer).is_some(),
            "the overflow bucket locks out"
        );
        assert!(t.tracked() <= 4);
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_64_prefix() {
        let mut s = sec();
        s.miss_limit = 3;
        let t = Throttle::new(&s);
        for i in 0..3u16 {
            t.fail(IpAddr::from([0x2001, 0xdb8, 0, 1, 0, 0, 0, i]));
        }
        assert!(t
            .locked(IpAddr::from([0x2001, 0xdb8, 0, 1, 9, 9, 9, 9]))
            .is_some());
        assert_eq!(
            t.locked(IpAddr::from([0x2001, 0xdb8, 0, 2, 0, 0, 0, 0])),
            None
        );
    }
}
