//! Markdown preview: CommonMark + GFM through pulldown-cmark, then sanitized with ammonia.
//!
//! Raw HTML in the document survives only as far as ammonia's allow-list: no scripts, no
//! event handlers, no `javascript:` URLs, no styles. Relative URLs are rewritten to the
//! snapshot's `doc/` prefix so images beside the file load through the scoped door; URLs
//! that climb out of the workspace are dropped.
//!
//! Every `id` in the output carries [`ID_PREFIX`]: the Markdown is rendered inside the
//! shell, whose own elements are found by id (`view-source`, `tab-preview`, …), so a
//! document's `<div id="view-source">` would otherwise take the Source tab's place. In-page
//! links (`#x`) get the same prefix, so footnote references and links to headings (which
//! get GitHub-style ids from their text) still land on their targets.

use std::borrow::Cow;

use std::collections::HashMap;

use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};

/// What every id of a rendered document starts with (the same prefix GitHub uses, so
/// links people copied from there keep working after the `#`).
pub const ID_PREFIX: &str = "user-content-";

/// Renders Markdown to sanitized HTML. `dir` is the folder of the Markdown file relative to
/// the workspace root (`""` at the root); `doc_prefix` is the URL prefix that serves
/// workspace files (e.g. `doc/`).
pub fn render(text: &str, dir: &str, doc_prefix: &str) -> String {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_GFM;
    let mut unsafe_html = String::with_capacity(text.len() * 3 / 2);
    html::push_html(
        &mut unsafe_html,
        with_heading_ids(Parser::new_ext(text, options)).into_iter(),
    );

    let rewrite = DocRewrite {
        dir: dir.to_string(),
        prefix: doc_prefix.to_string(),
    };
    ammonia::Builder::default()
        .add_tags(["input"])
        .add_tag_attributes("input", ["type", "checked", "disabled"])
        .add_generic_attributes(["id"])
        .id_prefix(Some(ID_PREFIX))
        .add_tag_attributes("code", ["class"])
        .link_rel(Some("noopener noreferrer"))
        .url_relative(ammonia::UrlRelative::Custom(Box::new(rewrite)))
        .clean(&unsafe_html)
        .to_string()
}

/// Gives every heading without an id one made from its text: lower case, spaces to `-`,
/// other punctuation dropped, `-1`, `-2`, … on repeats.
fn with_heading_ids<'a>(events: impl Iterator<Item = Event<'a>>) -> Vec<Event<'a>> {
    let mut out: Vec<Event<'a>> = events.collect();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut i = 0;
    while i < out.len() {
        if let Event::Start(Tag::Heading { id: None, .. }) = &out[i] {
            let mut text = String::new();
            let mut j = i + 1;
            while j < out.len() && !matches!(out[j], Event::End(TagEnd::Heading(_))) {
                if let Event::Text(t) | Event::Code(t) = &out[j] {
                    text.push_str(t);
                }
                j += 1;
            }
            let base = slug(&text);
            let n = seen.entry(base.clone()).or_insert(0);
            let slug = if *n == 0 { base } else { format!("{base}-{n}") };
            *n += 1;
            if let Event::Start(Tag::Heading { id, .. }) = &mut out[i] {
                *id = Some(CowStr::from(slug));
            }
            i = j;
        }
        i += 1;
    }
    out
}

fn slug(text: &str) -> String {
    text.trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

struct DocRewrite {
    dir: String,
    prefix: String,
}

impl<'a> ammonia::UrlRelativeEvaluate<'a> for DocRewrite {
    fn evaluate<'url>(&self, url: &'url str) -> Option<Cow<'url, str>> {
        rewrite_relative(url, &self.dir, &self.prefix)
    }
}

/// `#x` as `#user-content-x` (a bare `#` stays as it is).
fn prefixed_fragment(fragment: &str) -> String {
    match fragment.strip_prefix('#') {
        Some(name) if !name.is_empty() => format!("#{ID_PREFIX}{name}"),
        _ => fragment.to_string(),
    }
}

/// Resolves a relative URL against the file's folder, under the `doc/` prefix.
fn rewrite_relative<'a>(url: &'a str, dir: &str, prefix: &str) -> Option<Cow<'a, str>> {
    if url.starts_with('#') {
        return Some(Cow::Owned(prefixed_fragment(url)));
    }
    // Root-relative URLs would name previewd's own routes, not workspace files.
    if url.starts_with('/') {
        return None;
    }
    let (path, suffix) = match url.find(['?', '#']) {
        Some(i) => (&url[..i], &url[i..]),
        None => (url, ""),
    };
    let mut segments: Vec<&str> = dir.split('/').filter(|s| !s.is_empty()).collect();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                segments.pop()?;
            }
            s => segments.push(s),
        }
    }
    // A query means nothing to the door; only a fragment is kept, prefixed like the ids
    // of the Markdown preview it may lead to.
    let fragment = suffix
        .find('#')
        .map_or(String::new(), |i| prefixed_fragment(&suffix[i..]));
    Some(Cow::Owned(format!(
        "{prefix}{}{fragment}",
        segments.join("/")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gfm_features_render() {
        let html = render(
            "| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] open\n\n~~gone~~\n\nnote[^1]\n\n[^1]: the note\n",
            "",
            "doc/",
        );
        assert!(html.contains("<table>"), "{html}");
        assert!(html.contains("<del>gone</del>"), "{html}");
        assert!(html.contains("type=\"checkbox\""), "{html}");
        assert!(html.contains("the note"), "{html}");
    }

    #[test]
    fn active_content_is_removed() {
        let html = render(
            "<script>alert(1)</script>\n\n[x](javascript:alert(1))\n\n<img src=x onerror=alert(1)>\n\n<a href=\"#\" onclick=\"alert(1)\">c</a>\n\n<iframe src=\"https://e.com\"></iframe>\n\n<style>body{}</style>\n",
            "",
            "doc/",
        );
        let lower = html.to_ascii_lowercase();
        for bad in [
            "<script",
            "javascript:",
            "onerror",
            "onclick",
            "<iframe",
            "<style",
        ] {
            assert!(!lower.contains(bad), "{bad} survived: {html}");
        }
    }

    #[test]
    fn relative_urls_go_through_the_doc_prefix() {
        let html = render(
            "![d](img/dot.png) [up](../b.md#x) [top](../../../etc/passwd)",
            "docs",
            "doc/",
        );
        assert!(html.contains("src=\"doc/docs/img/dot.png\""), "{html}");
        assert!(html.contains("href=\"doc/b.md#user-content-x\""), "{html}");
        assert!(!html.contains("passwd"), "{html}");
    }

    #[test]
    fn user_ids_are_prefixed_and_in_page_links_follow() {
        let html = render(
            "# Intro Part\n\n<div id=\"view-source\">x</div>\n\nsee [intro](#intro-part) and note[^n]\n\n# Intro Part\n\n[^n]: the note\n",
            "",
            "doc/",
        );
        assert!(!html.contains("id=\"view-source\""), "{html}");
        assert!(html.contains("id=\"user-content-view-source\""), "{html}");
        assert!(
            html.contains("<h1 id=\"user-content-intro-part\">"),
            "{html}"
        );
        assert!(
            html.contains("<h1 id=\"user-content-intro-part-1\">"),
            "{html}"
        );
        assert!(html.contains("href=\"#user-content-intro-part\""), "{html}");
        assert!(html.contains("href=\"#user-content-n\""), "{html}");
        assert!(html.contains("id=\"user-content-n\""), "{html}");
    }
}
