//! Which `Host` names and `Origin`s previewd answers to.
//!
//! previewd listens where a browser can reach it, and every web site that browser opens can
//! send it requests. Two attacks follow. With DNS rebinding, a page on
//! `http://attacker.example:8791` has its name re-pointed at 127.0.0.1 and becomes
//! same-origin with the API; the only trace of it is the `Host` header, which still names
//! the attacker's domain. With cross-site requests, a page on another origin sends simple
//! requests without a preflight. [`HostPolicy`] answers both questions: is this `Host` one of
//! ours, and is this `Origin` one of ours.
//!
//! Allowed are:
//! - `127.0.0.1`, `localhost` and `[::1]` (and any IP literal) on the listening port. An IP
//!   literal cannot be rebound: a browser that sends `Host: 10.0.0.5:8791` connected to
//!   10.0.0.5 because the user asked for that address, so an address is as good as a name
//!   the operator configured. This is what makes `--allow-remote` on `0.0.0.0` work without
//!   configuration;
//! - the hosts of `public_origin` and `diffs.viewer_base_url` (any port when the URL names
//!   none, since a proxy in front may or may not keep it);
//! - each entry of `security.allowed_hosts`: `name` (any port) or `name:port`.
//!
//! Names compare case-insensitively and without a trailing dot. Everything else, a missing
//! `Host` included, is refused.

use std::net::{IpAddr, Ipv6Addr};

/// The set of authorities previewd answers to.
#[derive(Debug, Clone)]
pub struct HostPolicy {
    /// The port previewd listens on (loopback names and IP literals must use it).
    port: u16,
    /// Configured names, lowercase, with the port they must use (`None`: any).
    names: Vec<(String, Option<u16>)>,
}

/// Why an allowed-host entry could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("security.allowed_hosts: `{0}` is not a host name or `name:port`")]
pub struct BadHostEntry(pub String);

impl HostPolicy {
    /// The policy for a server listening on `port` with these configured `allowed` entries
    /// and the URLs it builds links with (`public_origin`, `diffs.viewer_base_url`).
    pub fn new<'a>(
        port: u16,
        allowed: &[String],
        urls: impl IntoIterator<Item = &'a str>,
    ) -> Result<HostPolicy, BadHostEntry> {
        let mut names = Vec::new();
        for entry in allowed {
            let (host, port) =
                parse_authority(entry.trim()).ok_or_else(|| BadHostEntry(entry.clone()))?;
            names.push((host, port));
        }
        for url in urls {
            if let Some((_, host, port)) = split_origin(url) {
                names.push((host, port));
            }
        }
        Ok(HostPolicy { port, names })
    }

    /// Whether a request with this `Host` header value is for previewd.
    pub fn allows_host(&self, host: &str) -> bool {
        parse_authority(host).is_some_and(|(name, port)| self.allows(&name, port.or(Some(80))))
    }

    /// Whether an `Origin` header value names previewd itself. `null` (a sandboxed or
    /// privacy-sensitive context) is never ours.
    pub fn allows_origin(&self, origin: &str) -> bool {
        match split_origin(origin) {
            Some((scheme, name, port)) => {
                let default = if scheme == "https" { 443 } else { 80 };
                self.allows(&name, Some(port.unwrap_or(default)))
            }
            None => false,
        }
    }

    fn allows(&self, name: &str, port: Option<u16>) -> bool {
        if is_loopback_name(name) || is_ip_literal(name) {
            return port == Some(self.port);
        }
        self.names
            .iter()
            .any(|(n, p)| n == name && (p.is_none() || *p == port))
    }
}

fn is_loopback_name(name: &str) -> bool {
    name == "localhost"
}

fn is_ip_literal(name: &str) -> bool {
    match name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        Some(v6) => v6.parse::<Ipv6Addr>().is_ok(),
        None => name.parse::<IpAddr>().is_ok_and(|ip| ip.is_ipv4()),
    }
}

/// Splits `host[:port]` (IPv6 in brackets) into a lowercase host without a trailing dot and
/// the port. `None` for anything that is not an authority a browser would send.
fn parse_authority(raw: &str) -> Option<(String, Option<u16>)> {
    let (host, port) = if raw.starts_with('[') {
        let close = raw.find(']')?;
        let rest = &raw[close + 1..];
        let port = match rest.strip_prefix(':') {
            Some(p) => Some(p),
            None if rest.is_empty() => None,
            None => return None,
        };
        (&raw[..=close], port)
    } else {
        match raw.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (raw, None),
        }
    };
    let port = match port {
        None | Some("") => None,
        Some(p) if p.bytes().all(|b| b.is_ascii_digit()) => Some(p.parse::<u16>().ok()?),
        Some(_) => return None,
    };
    let host = host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase();
    let valid = if host.starts_with('[') {
        is_ip_literal(&host)
    } else {
        !host.is_empty()
            && host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
    };
    valid.then_some((host, port))
}

/// Splits `scheme://authority[/path]` into the scheme, host and port.
fn split_origin(url: &str) -> Option<(String, String, Option<u16>)> {
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return None;
    }
    let (host, port) = parse_authority(authority)?;
    Some((scheme, host, port))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(allowed: &[&str], urls: &[&str]) -> HostPolicy {
        let allowed: Vec<String> = allowed.iter().map(|s| s.to_string()).collect();
        HostPolicy::new(8791, &allowed, urls.iter().copied()).unwrap()
    }

    #[test]
    fn loopback_names_need_the_listening_port() {
        let p = policy(&[], &[]);
        for ok in [
            "127.0.0.1:8791",
            "localhost:8791",
            "LOCALHOST.:8791",
            "[::1]:8791",
            "10.1.2.3:8791",
        ] {
            assert!(p.allows_host(ok), "{ok}");
        }
        for bad in [
            "127.0.0.1",
            "localhost:8792",
            "attacker.example:8791",
            "attacker.example",
            "",
            "127.0.0.1:8791:1",
            "[::1]x:8791",
            "::1:8791",
            "127.1:8791",
            "a b:8791",
            "localhost:99999",
        ] {
            assert!(!p.allows_host(bad), "{bad}");
        }
    }

    #[test]
    fn configured_names_and_url_hosts_are_allowed() {
        let p = policy(
            &["preview.lan", "box.lan:9000"],
            &[
                "https://Docs.Example.com/base",
                "http://viewer.example:8080",
            ],
        );
        assert!(p.allows_host("preview.lan:1234"));
        assert!(p.allows_host("box.lan:9000"));
        assert!(!p.allows_host("box.lan:9001"));
        assert!(p.allows_host("docs.example.com"));
        assert!(p.allows_host("viewer.example:8080"));
        assert!(!p.allows_host("viewer.example"));
        assert!(!p.allows_host("other.example"));
    }

    #[test]
    fn origins_are_ours_only_when_their_authority_is() {
        let p = policy(&[], &["https://docs.example.com"]);
        assert!(p.allows_origin("http://127.0.0.1:8791"));
        assert!(p.allows_origin("http://localhost:8791"));
        assert!(p.allows_origin("https://docs.example.com"));
        assert!(!p.allows_origin("http://127.0.0.1:3000"));
        assert!(!p.allows_origin("http://attacker.example:8791"));
        assert!(!p.allows_origin("null"));
        assert!(!p.allows_origin("file://"));
        assert!(!p.allows_origin("http://u@127.0.0.1:8791"));
    }

    #[test]
    fn bad_entries_are_refused() {
        let bad = HostPolicy::new(1, &["a/b".to_string()], std::iter::empty()).unwrap_err();
        assert_eq!(bad, BadHostEntry("a/b".into()));
    }
}
