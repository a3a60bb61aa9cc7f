//! Validation of a viewer base URL (the call's `baseUrl`, or the configured
//! `viewerBaseUrl`): an http or https origin plus an optional path, nothing else.
//!
//! A small hand-written check rather than a general URL parser, because the accepted
//! shape is narrow and the output is pasted in front of `/plugins/diffs/view/…`, so it must
//! come out canonical: lowercase scheme and host, default port dropped, dot and empty
//! path segments resolved, trailing slashes stripped, and only characters that need no
//! escaping in a URL.

use super::error::{DiffErrorKind, DiffInputError};

/// Checks `raw` (already trimmed) and returns the canonical base, without a trailing slash.
///
/// Errors carry the contract's three messages: `Invalid baseUrl: <raw>` for anything that
/// is not a URL of the accepted shape, `baseUrl must use http or https: <raw>` for another
/// scheme, and `baseUrl must not include query/hash: <raw>` for a `?` or `#` part.
pub fn normalize_base_url(raw: &str) -> Result<String, DiffInputError> {
    let invalid = || {
        DiffInputError::new(
            DiffErrorKind::InvalidBaseUrl,
            format!("Invalid baseUrl: {raw}"),
        )
    };

    let (scheme, rest) = raw.split_once(':').ok_or_else(invalid)?;
    if !is_scheme(scheme) {
        return Err(invalid());
    }
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return Err(DiffInputError::new(
            DiffErrorKind::InvalidBaseUrl,
            format!("baseUrl must use http or https: {raw}"),
        ));
    }
    let rest = rest.strip_prefix("//").ok_or_else(invalid)?;
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let host_port = normalize_authority(&scheme, authority).ok_or_else(invalid)?;

    if tail.contains(['?', '#']) {
        return Err(DiffInputError::new(
            DiffErrorKind::InvalidBaseUrl,
            format!("baseUrl must not include query/hash: {raw}"),
        ));
    }
    let path = normalize_path(tail).ok_or_else(invalid)?;
    Ok(format!("{scheme}://{host_port}{path}"))
}

fn is_scheme(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// `host[:port]`, lowercased, default port dropped. `None` when it is not a plain origin:
/// credentials (`user@`) are refused because an origin has none and they would leak into
/// every link handed out.
fn normalize_authority(scheme: &str, authority: &str) -> Option<String> {
    if authority.contains('@') {
        return None;
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (inner, after) = v6.split_once(']')?;
        if inner.is_empty()
            || !inner
                .chars()
                .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
        {
            return None;
        }
        let port = match after {
            "" => None,
            p => Some(p.strip_prefix(':')?),
        };
        (format!("[{}]", inner.to_ascii_lowercase()), port)
    } else {
        let (host, port) = match authority.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        };
        let ok = !host.is_empty()
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'));
        if !ok {
            return None;
        }
        (host.to_ascii_lowercase(), port)
    };
    let default_port = if scheme == "https" { 443 } else { 80 };
    match port {
        None | Some("") => Some(host),
        Some(p) => {
            if p.len() > 5 || !p.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let n: u32 = p.parse().ok()?;
            if n > 65_535 {
                None
            } else if n == default_port {
                Some(host)
            } else {
                Some(format!("{host}:{n}"))
            }
        }
    }
}

/// Resolves `.`/`..` segments, drops trailing slashes, and refuses characters that would
/// need escaping (spaces, quotes, angle brackets, backslashes, non-ASCII) or a broken `%`.
fn normalize_path(path: &str) -> Option<String> {
    let bytes = path.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            if !hex.iter().all(u8::is_ascii_hexdigit) {
                return None;
            }
            i += 3;
            continue;
        }
        let allowed = b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&b);
        if !allowed {
            return None;
        }
        i += 1;
    }
    let mut segments: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            s => segments.push(s),
        }
    }
    if segments.is_empty() {
        Some(String::new())
    } else {
        Some(format!("/{}", segments.join("/")))
    }
}
