//! Serving a workspace HTML page (and its sibling assets) into the preview sandbox.
//!
//! The page is confined twice: the shell embeds it in `<iframe sandbox="allow-scripts">`,
//! and the document response carries its own `Content-Security-Policy: sandbox …` so that
//! opening the document URL directly is just as confined. In the resulting opaque origin the
//! page's scripts run, but cannot reach the network, previewd's cookies, forms, popups or
//! the shell. A small bootstrap makes links and forms inert, and the served copy has every
//! markup-only way to open a connection removed ([`super::inert`]).
//!
//! # What `doc/` serves
//!
//! A preview token is a capability for one page and its own assets, not for the
//! workspace ([`scope`], [`DocScope::allows`]): only HTML and SVG snapshots have `doc/`,
//! and it answers only files inside the page's own folder subtree, never a dotfile or a
//! file in a dot-folder (`.env`, `.git/…`); anything else is 404. A Markdown snapshot keeps
//! a narrower `doc/` for the images beside it that its view shows (the view is in the shell,
//! whose CSP loads images only from `'self'`), under the same subtree rule.
//!
//! A top-level visit to another HTML or SVG page of that subtree (a link followed from the
//! Markdown view, say) still becomes a fresh snapshot of that page, framed by its own shell.
//! That is no way out of the subtree: the new page's own subtree lies inside the old one,
//! and a page outside it is 404 before any snapshot is made.
//!
//! # Why assets use the page's own token
//!
//! The sandboxed page can read its token from its URL. A second capability for assets,
//! absent from the page's URL, would not narrow anything: the page must be able to load its
//! assets, so whatever such a key opened, the page's script could read and hold anyway, and
//! a leaked page token opens the same subtree the page's script already sees (and the
//! snapshot's own views, which show the same bytes). What bounds a leak is the scope above
//! and the snapshot's lifetime, so one token it is.
//!
//! # CORS
//!
//! Fonts and module scripts requested from the sandbox's opaque origin are CORS requests
//! (`Sec-Fetch-Mode: cors`, `Origin: null`); Chromium refuses them without an
//! `Access-Control-Allow-Origin` that matches. Only such requests for a font or a script
//! get one, and it is `null` (the opaque origin), not `*`: every other response carries none,
//! so no other origin may read an asset through CORS.
//!
//! # `base-uri`
//!
//! The contract policy lacks `base-uri`, so a page's `<base href>` could send its relative
//! loads to another host. The document carries a second policy, [`DOC_CSP_EXTRA`], as a
//! second `Content-Security-Policy` header rather than text appended to the first: the
//! contract header stays byte for byte what `spec/previews.md` says (clients and tests
//! compare it), while browsers enforce every policy they get, so the effective policy is the
//! intersection of both.
//!
//! # Residual risks
//!
//! With scripts on (README, "HTML Preview sandbox"): a page can load the subtree's scripts
//! and styles and so read what they hold; WebRTC can carry data out, and Chromium enforces no
//! CSP directive against it; a script can still build the links, hints and frames the rewrite
//! took out of the markup (a `preconnect`, a frame CSP refuses, a link the pointer touches:
//! each opens one TCP connection to the host it names, checked in Chromium 156), and a
//! frame's self-navigation is refused by the shell's `frame-src` only after a connection is
//! opened. Setting `preview.html_scripts = false`
//! closes them: the page then runs no script at all, and its markup alone opens nothing.

use crate::workspace::{FileKind, RelativePath};

/// CSP of a previewed document when its scripts may run (the contract string).
pub const DOC_CSP_SCRIPTS: &str = "sandbox allow-scripts; default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; media-src 'self' data: blob:; connect-src 'none'; form-action 'none'; frame-ancestors 'self'";

/// CSP of a previewed document with scripts switched off by config.
pub const DOC_CSP_NO_SCRIPTS: &str = "sandbox; default-src 'none'; script-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; media-src 'self' data: blob:; connect-src 'none'; form-action 'none'; frame-ancestors 'self'";

/// The second document policy, enforced beside the contract one (see the module docs).
/// `frame-src 'none'` repeats what `default-src 'none'` implies, so that no later change
/// to the contract string can let the page frame anything.
pub const DOC_CSP_EXTRA: &str = "base-uri 'none'; frame-src 'none'; object-src 'none'";

/// What a snapshot's `doc/` may serve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocScope {
    /// An HTML or SVG page: the page and every file of its subtree.
    Page,
    /// A Markdown file: the images of its subtree (and top-level visits to its pages).
    Images,
}

/// The `doc/` scope of a snapshot of `kind` at `page`, or `None` when it has no `doc/`.
pub fn scope(kind: FileKind, page: &RelativePath) -> Option<DocScope> {
    match kind {
        FileKind::Html => Some(DocScope::Page),
        FileKind::Image if extension(page.file_name()) == "svg" => Some(DocScope::Page),
        FileKind::Markdown => Some(DocScope::Images),
        _ => None,
    }
}

impl DocScope {
    /// Whether `wanted` may be served as a subresource of the page at `page`.
    pub fn allows(self, page: &RelativePath, wanted: &RelativePath) -> bool {
        if !in_subtree(page, wanted) {
            return false;
        }
        match self {
            DocScope::Page => true,
            DocScope::Images => content_type(wanted.file_name()).starts_with("image/"),
        }
    }
}

/// Whether `wanted` lies in the folder subtree of `page`, with no segment below that
/// folder that is hidden (starts with a dot).
pub fn in_subtree(page: &RelativePath, wanted: &RelativePath) -> bool {
    let dir = page.parent();
    let below = if dir.is_empty() {
        Some(wanted.as_str())
    } else {
        wanted
            .as_str()
            .strip_prefix(dir)
            .and_then(|rest| rest.strip_prefix('/'))
    };
    below.is_some_and(|rest| !rest.is_empty() && rest.split('/').all(|s| !s.starts_with('.')))
}

/// Whether a request for an asset of `file_name` is a CORS request from the sandbox's
/// opaque origin that the browser needs allowed to use it (fonts and module scripts).
pub fn needs_cors(file_name: &str, fetch_mode: Option<&[u8]>, origin: Option<&[u8]>) -> bool {
    let kind = content_type(file_name);
    fetch_mode == Some(b"cors")
        && origin == Some(b"null")
        && (kind.starts_with("font/") || kind.starts_with("text/javascript"))
}

/// The type an SVG is served as: an image to image requests (`Sec-Fetch-Dest: image`),
/// plain text to anything else. Opened as a document, an SVG is a page whose links
/// navigate and whose `foreignObject` frames connect, none of which CSP stops and none of
/// which an image can do; a client that sends no fetch metadata gets text, not a page.
pub fn svg_type(fetch_dest: Option<&[u8]>) -> &'static str {
    if fetch_dest == Some(b"image") {
        "image/svg+xml"
    } else {
        "text/plain; charset=utf-8"
    }
}

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
    match extension(file_name).as_str() {
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

/// The lower-cased extension of a file name (empty without one).
fn extension(file_name: &str) -> String {
    let lower = file_name.to_ascii_lowercase();
    lower
        .rsplit_once('.')
        .map_or(String::new(), |(_, e)| e.to_string())
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

    fn rel(p: &str) -> RelativePath {
        crate::workspace::check_relative_path(p, 4096).unwrap()
    }

    #[test]
    fn the_subtree_is_the_page_folder_without_hidden_entries() {
        let page = rel("site/index.html");
        for yes in ["site/index.html", "site/img/a.png", "site/a/b/c.js"] {
            assert!(in_subtree(&page, &rel(yes)), "{yes}");
        }
        for no in [
            "index.html",
            "other/a.png",
            "sitemap/a.png",
            "site2/a.png",
            "site/.env",
            "site/.git/config",
            "site/a/.hidden/b.png",
        ] {
            assert!(!in_subtree(&page, &rel(no)), "{no}");
        }
        let root_page = rel("index.html");
        assert!(in_subtree(&root_page, &rel("any/where.css")));
        assert!(!in_subtree(&root_page, &rel(".env")));
        assert!(!in_subtree(&root_page, &rel(".config/x.js")));
    }

    #[test]
    fn scopes_by_kind() {
        let page = rel("d/p.html");
        assert_eq!(scope(FileKind::Html, &page), Some(DocScope::Page));
        assert_eq!(
            scope(FileKind::Image, &rel("d/p.svg")),
            Some(DocScope::Page)
        );
        assert_eq!(scope(FileKind::Image, &rel("d/p.png")), None);
        assert_eq!(scope(FileKind::Source, &rel("d/p.rs")), None);
        let md = rel("d/README.md");
        let images = scope(FileKind::Markdown, &md).unwrap();
        assert!(images.allows(&md, &rel("d/img/a.png")));
        assert!(!images.allows(&md, &rel("d/notes.txt")));
        assert!(!images.allows(&md, &rel("other/a.png")));
    }

    #[test]
    fn svg_is_an_image_only_to_image_requests() {
        assert_eq!(svg_type(Some(b"image")), "image/svg+xml");
        for dest in [
            Some(&b"document"[..]),
            Some(b"iframe"),
            Some(b"object"),
            None,
        ] {
            assert_eq!(svg_type(dest), "text/plain; charset=utf-8");
        }
    }

    #[test]
    fn cors_only_for_opaque_origin_fonts_and_scripts() {
        let cors = Some(&b"cors"[..]);
        let null = Some(&b"null"[..]);
        assert!(needs_cors("f.woff2", cors, null));
        assert!(needs_cors("m.mjs", cors, null));
        assert!(!needs_cors("a.png", cors, null));
        assert!(!needs_cors("f.woff2", Some(b"no-cors"), null));
        assert!(!needs_cors("f.woff2", cors, Some(b"https://evil.example")));
        assert!(!needs_cors("f.woff2", None, None));
    }
}
