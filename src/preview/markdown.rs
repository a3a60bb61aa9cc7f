//! Markdown preview: CommonMark + GFM through pulldown-cmark, then sanitized with ammonia.
//!
//! Raw HTML in the document survives only as far as ammonia's allow-list: no scripts, no
//! event handlers, no `javascript:` URLs, no styles. Relative URLs are rewritten to the
//! snapshot's `doc/` prefix so images beside the file load through the scoped door; URLs
//! that climb out of the workspace are dropped.

use std::borrow::Cow;

use pulldown_cmark::{html, Options, Parser};

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
    html::push_html(&mut unsafe_html, Parser::new_ext(text, options));

    let rewrite = DocRewrite {
        dir: dir.to_string(),
        prefix: doc_prefix.to_string(),
    };
    ammonia::Builder::default()
        .add_tags(["input"])
        .add_tag_attributes("input", ["type", "checked", "disabled"])
        .add_generic_attributes(["id"])
        .add_tag_attributes("code", ["class"])
        .link_rel(Some("noopener noreferrer"))
        .url_relative(ammonia::UrlRelative::Custom(Box::new(rewrite)))
        .clean(&unsafe_html)
        .to_string()
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

/// Resolves a relative URL against the file's folder, under the `doc/` prefix.
fn rewrite_relative<'a>(url: &'a str, dir: &str, prefix: &str) -> Option<Cow<'a, str>> {
    if url.starts_with('#') {
        return Some(Cow::Borrowed(url));
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
    // A query means nothing to the door; only a fragment is kept.
    let fragment = suffix.find('#').map_or("", |i| &suffix[i..]);
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
        assert!(html.contains("href=\"doc/b.md#x\""), "{html}");
        assert!(!html.contains("passwd"), "{html}");
    }
}
