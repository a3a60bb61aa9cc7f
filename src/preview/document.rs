//! Serving a workspace HTML page (and its sibling assets) into the preview sandbox.
//!
//! The page is confined twice: the shell embeds it in `<iframe sandbox="allow-scripts">`,
//! and the document response carries its own `Content-Security-Policy: sandbox …` so that
//! opening the document URL directly is just as confined. In the resulting opaque origin the
//! page's scripts run, but cannot reach the network, previewd's cookies, forms, popups or
//! the shell. A small bootstrap makes links and forms inert.
//!
//! Residual risks with scripts on (README, "HTML Preview"): a page can load workspace
//! scripts and styles and so read what they hold; WebRTC can carry data out, and Chromium
//! enforces no CSP directive against it; a frame's self-navigation is refused by the
//! shell's `frame-src` only after a connection is opened. Setting
//! `preview.html_scripts = false` closes them: the page then runs no script at all.

/// CSP of a previewed document when its scripts may run (the contract string).
pub const DOC_CSP_SCRIPTS: &str = "sandbox allow-scripts; default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; media-src 'self' data: blob:; connect-src 'none'; form-action 'none'; frame-ancestors 'self'";

/// CSP of a previewed document with scripts switched off by config.
pub const DOC_CSP_NO_SCRIPTS: &str = "sandbox; default-src 'none'; script-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; media-src 'self' data: blob:; connect-src 'none'; form-action 'none'; frame-ancestors 'self'";

/// The iframe `sandbox` attribute matching the CSP above.
pub fn iframe_sandbox(scripts: bool) -> &'static str {
    if scripts {
        "allow-scripts"
    } else {
        ""
    }
}

/// The document CSP for the configured script policy.
pub fn doc_csp(scripts: bool) -> &'static str {
    if scripts {
        DOC_CSP_SCRIPTS
    } else {
        DOC_CSP_NO_SCRIPTS
    }
}

/// Makes links and forms inert: a click on a link (other than an in-page `#fragment`) and
/// every form submission are cancelled before the browser acts on them.
const INERT_BOOTSTRAP: &str = "<script>(function(){var d=document;function inert(e){var t=e.target,a=t&&t.closest?t.closest('a[href],area[href]'):null;if(a&&(a.getAttribute('href')||'').charAt(0)!=='#'){e.preventDefault();}}d.addEventListener('click',inert,true);d.addEventListener('auxclick',inert,true);d.addEventListener('submit',function(e){e.preventDefault();},true);try{var F=HTMLFormElement.prototype;F.submit=function(){};F.requestSubmit=function(){};}catch(_){}})();</script>";

/// Returns the page with the inert bootstrap inserted before any of its own content (after
/// a leading doctype, so the page keeps its rendering mode).
pub fn with_bootstrap(page: &[u8]) -> Vec<u8> {
    let at = doctype_end(page).unwrap_or(0);
    let mut out = Vec::with_capacity(page.len() + INERT_BOOTSTRAP.len());
    out.extend_from_slice(&page[..at]);
    out.extend_from_slice(INERT_BOOTSTRAP.as_bytes());
    out.extend_from_slice(&page[at..]);
    out
}

/// End offset of a leading `<!doctype …>` (after an optional BOM and white space).
fn doctype_end(page: &[u8]) -> Option<usize> {
    let mut i = if page.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    while i < page.len() && page[i].is_ascii_whitespace() {
        i += 1;
    }
    let rest = &page[i..];
    if rest.len() >= 9 && rest[..9].eq_ignore_ascii_case(b"<!doctype") {
        let close = rest.iter().position(|&b| b == b'>')?;
        return Some(i + close + 1);
    }
    None
}

/// The content type for a sibling asset, by extension. Unknown types are served as
/// `application/octet-stream` (with `nosniff`, the browser will not guess).
pub fn content_type(file_name: &str) -> &'static str {
    let lower = file_name.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
    match ext {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" | "cjs" => "text/javascript; charset=utf-8",
        "json" | "map" => "application/json",
        "txt" | "md" | "csv" => "text/plain; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "bmp" => "image/bmp",
        "ico" => "image/x-icon",
        "avif" => "image/avif",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "otf" => "font/otf",
        "mp3" => "audio/mpeg",
        "wav" => "audio/wav",
        "ogg" => "audio/ogg",
        "mp4" => "video/mp4",
        "webm" => "video/webm",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bootstrap_goes_after_the_doctype() {
        let out = with_bootstrap(b"<!DOCTYPE html>\n<html><body>x</body></html>");
        let s = String::from_utf8(out).unwrap();
        assert!(s.starts_with("<!DOCTYPE html><script>"), "{s}");
        assert!(s.ends_with("\n<html><body>x</body></html>"));
    }

    #[test]
    fn bootstrap_goes_first_without_a_doctype() {
        let s = String::from_utf8(with_bootstrap(b"<p>hi")).unwrap();
        assert!(s.starts_with("<script>"));
        assert!(s.ends_with("<p>hi"));
        // Bytes that are not UTF-8 pass through untouched.
        let out = with_bootstrap(b"\xff\xfe<p>");
        assert!(out.ends_with(b"\xff\xfe<p>"));
    }

    #[test]
    fn the_contract_policy_is_byte_exact() {
        assert_eq!(
            DOC_CSP_SCRIPTS,
            "sandbox allow-scripts; default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; media-src 'self' data: blob:; connect-src 'none'; form-action 'none'; frame-ancestors 'self'"
        );
    }

    #[test]
    fn types() {
        assert_eq!(content_type("a.PNG"), "image/png");
        assert_eq!(content_type("x"), "application/octet-stream");
    }
}
