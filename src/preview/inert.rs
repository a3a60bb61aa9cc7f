//! The served copy of a previewed HTML page, rewritten so that markup alone opens no
//! connection.
//!
//! CSP stops what the renderer fetches (`default-src 'none'`, `connect-src 'none'`, …), but
//! Chromium opens connections that no directive governs: resource hints
//! (`<link rel=preconnect|dns-prefetch|prefetch|prerender>`), a preconnect to a link's host
//! on hover or pointer-down, a frame whose navigation is refused only after a connection
//! to its host was made, a `<meta http-equiv=refresh>` that navigates the frame away, and
//! `ping` on a followed link. Those are removed from the bytes the browser gets:
//!
//! - resource-hint tokens leave `rel` (a `<link>` left with none is dropped);
//! - `<a>`/`<area>` keep only in-page `#fragment` targets, lose `ping`, `attributionsrc`
//!   and every other `href` (so nothing is a link the browser could warm up for);
//! - frames and embeds lose their sources (`src`, `srcdoc`, `data`);
//! - `<meta http-equiv>` refresh, link and DNS-prefetch switches, and speculation rules,
//!   are dropped.
//!
//! The rewrite is a token stream (lol_html), so the page keeps its own bytes elsewhere. It
//! must parse the page the way Chromium does, or a tag it misreads would slip through:
//! lol_html is strict (it refuses markup whose parse is ambiguous without a tree), a page
//! that starts with a UTF-16 byte order mark (which would override our UTF-8 charset) is
//! refused, and with scripts off `<noscript>` holds markup, not text, so its tags are
//! unwrapped first and the rewrite then sees their content as Chromium does. Refusals are
//! `unsupported`: the page is not shown rather than shown unsafely.

use lol_html::html_content::Element;
use lol_html::{element, HtmlRewriter, Settings};

use crate::error::Error;

/// `rel` tokens that make Chromium resolve or connect to a host without a fetch CSP sees.
const HINTS: &[&str] = &["preconnect", "dns-prefetch", "prefetch", "prerender"];

/// `http-equiv` values that act on the network or navigate.
const ACTIVE_EQUIV: &[&str] = &["refresh", "link", "x-dns-prefetch-control"];

/// Returns the page, whose scripts will run, with every markup-only way to open a
/// connection removed.
pub fn inert_page(page: &[u8]) -> Result<Vec<u8>, Error> {
    inert(page, true)
}

/// As [`inert_page`], for a page whose scripts will not run.
pub fn inert_page_without_scripts(page: &[u8]) -> Result<Vec<u8>, Error> {
    inert(page, false)
}

fn inert(page: &[u8], scripts: bool) -> Result<Vec<u8>, Error> {
    if page.starts_with(b"\xFE\xFF") || page.starts_with(b"\xFF\xFE") {
        return Err(refused());
    }
    if scripts {
        return rewrite(page, false);
    }
    // Chromium parses `<noscript>` content as markup when scripts cannot run, lol_html
    // always as text: drop the tags so both read what was inside as markup.
    let unwrapped = run(
        page,
        Settings::new().append_element_content_handler(element!("noscript", |el| {
            el.remove_and_keep_content();
            Ok(())
        })),
    )?;
    rewrite(&unwrapped, true)
}

/// The rewrite proper; `no_noscript` refuses any `<noscript>` still present (one nested
/// in another survives the unwrapping, and would again be read as text).
fn rewrite(page: &[u8], no_noscript: bool) -> Result<Vec<u8>, Error> {
    let mut settings = Settings::new();
    for handler in [
        element!("link[rel]", |el| {
            strip_hints(el);
            Ok(())
        }),
        element!("a, area", |el| {
            unlink(el);
            Ok(())
        }),
        element!("iframe, frame, embed, object", |el| {
            for name in ["src", "srcdoc", "data"] {
                el.remove_attribute(name);
            }
            Ok(())
        }),
        element!("meta[http-equiv]", |el| {
            let equiv = el.get_attribute("http-equiv").unwrap_or_default();
            if ACTIVE_EQUIV.contains(&equiv.trim().to_ascii_lowercase().as_str()) {
                el.remove();
            }
            Ok(())
        }),
        element!("script[type]", |el| {
            let kind = el.get_attribute("type").unwrap_or_default();
            if kind.trim().eq_ignore_ascii_case("speculationrules") {
                el.remove();
            }
            Ok(())
        }),
        element!("[attributionsrc]", |el| {
            el.remove_attribute("attributionsrc");
            Ok(())
        }),
    ] {
        settings = settings.append_element_content_handler(handler);
    }
    if no_noscript {
        settings = settings.append_element_content_handler(element!("noscript", |_el| Err(
            "nested noscript".into()
        )));
    }
    run(page, settings)
}

fn run(page: &[u8], settings: Settings<'_, '_>) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(page.len());
    let mut rewriter = HtmlRewriter::new(settings, |chunk: &[u8]| out.extend_from_slice(chunk));
    rewriter.write(page).map_err(|_| refused())?;
    rewriter.end().map_err(|_| refused())?;
    Ok(out)
}

fn refused() -> Error {
    Error::Unsupported("this page's markup cannot be made safe to preview".into())
}

/// Removes the resource-hint tokens from `rel`; a link left with none is dropped.
fn strip_hints(el: &mut Element<'_, '_>) {
    let rel = el.get_attribute("rel").unwrap_or_default();
    let kept: Vec<&str> = rel
        .split_ascii_whitespace()
        .filter(|t| !HINTS.iter().any(|h| t.eq_ignore_ascii_case(h)))
        .collect();
    if kept.len() == rel.split_ascii_whitespace().count() {
        return;
    }
    // A link left with no token, or whose `rel` cannot be rewritten, goes whole.
    if kept.is_empty() || el.set_attribute("rel", &kept.join(" ")).is_err() {
        el.remove();
    }
}

/// Keeps an in-page `#fragment` target; every other target, and `ping`, goes.
fn unlink(el: &mut Element<'_, '_>) {
    for name in ["href", "xlink:href"] {
        if let Some(target) = el.get_attribute(name) {
            if !target.trim_start().starts_with('#') {
                el.remove_attribute(name);
            }
        }
    }
    el.remove_attribute("ping");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(page: &str) -> String {
        String::from_utf8(inert_page(page.as_bytes()).unwrap()).unwrap()
    }

    fn off(page: &str) -> String {
        String::from_utf8(inert_page_without_scripts(page.as_bytes()).unwrap()).unwrap()
    }

    #[test]
    fn resource_hints_go_and_other_rel_tokens_stay() {
        let out = on("<link rel=preconnect href=//h><link rel=\"DNS-Prefetch\" href=//h>\
             <link rel=\"stylesheet prefetch\" href=a.css><link rel=prerender href=//h><link rel=icon href=i.png>");
        assert_eq!(
            out,
            "<link rel=\"stylesheet\" href=a.css><link rel=icon href=i.png>"
        );
    }

    #[test]
    fn links_keep_only_fragments() {
        let out = off("<a href=\"http://h/x\" ping=\"http://h/p\">x</a><a href=\"#n\">n</a>\
             <map><area href=//h/a></map><svg><a xlink:href=\"http://h/s\"><text>s</text></a></svg>");
        assert_eq!(
            out,
            "<a>x</a><a href=\"#n\">n</a><map><area></map><svg><a><text>s</text></a></svg>"
        );
    }

    #[test]
    fn frames_refresh_and_speculation_rules_go() {
        let out = on("<iframe src=\"http://h/\" srcdoc=\"<a href=//h>\"></iframe>\
             <meta http-equiv=\"Refresh\" content=\"0;url=http://h/\"><meta http-equiv=content-type content=\"text/html\">\
             <script type=speculationrules>{}</script><script>var a='<a href=//h>';</script><object data=//h></object>");
        assert_eq!(
            out,
            "<iframe></iframe><meta http-equiv=content-type content=\"text/html\">\
             <script>var a='<a href=//h>';</script><object></object>"
        );
    }

    #[test]
    fn noscript_holds_markup_only_when_scripts_are_off() {
        let page = "<noscript><a href=\"http://h/\">x</a></noscript>";
        // Scripts on: the browser reads it as text, so does the rewrite.
        assert_eq!(on(page), page);
        // Scripts off: Chromium parses the link, so it is unlinked.
        assert_eq!(off(page), "<a>x</a>");
        // A nested one would again hide markup from the rewrite: refused.
        let nested = "<noscript><noscript></noscript><a href=\"http://h/\">x</a></noscript>";
        assert_eq!(
            inert_page_without_scripts(nested.as_bytes())
                .unwrap_err()
                .code(),
            "unsupported"
        );
    }

    #[test]
    fn ambiguous_or_utf16_pages_are_refused() {
        let ambiguous = b"<select><xmp><script>1</script></select>";
        assert!(inert_page(ambiguous).is_err());
        assert!(inert_page(b"\xFF\xFE<\0a\0").is_err());
        // Bytes that are not UTF-8 pass through untouched.
        let out = inert_page(b"<p>\xff\xfe</p>").unwrap();
        assert_eq!(out, b"<p>\xff\xfe</p>");
    }
}
