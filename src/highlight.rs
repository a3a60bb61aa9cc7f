//! Syntax highlighting shared by the source view and the diff viewer.
//!
//! syntect turns text into spans with CSS classes (`hl-…`); the colours live in one
//! stylesheet made from two bundled themes (light, and dark under
//! `prefers-color-scheme: dark` or a `data-theme="dark"` ancestor). The syntax definitions
//! load on first use, so an idle server does not pay for them. Text above the caller's size
//! cap, or of an unknown language, comes back as escaped plain lines: highlighting degrades,
//! it never fails.

use std::sync::OnceLock;

use syntect::highlighting::ThemeSet;
use syntect::html::{css_for_theme_with_class_style, ClassStyle, ClassedHTMLGenerator};
use syntect::parsing::{SyntaxReference, SyntaxSet};
use syntect::util::LinesWithEndings;

use crate::markup::escape_into;

const CLASS_STYLE: ClassStyle = ClassStyle::SpacedPrefixed { prefix: "hl-" };

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

/// Finds a syntax by a language hint (`rust`, `py`, `TypeScript`) or a file name.
fn find_syntax(lang: Option<&str>, file_name: &str) -> Option<&'static SyntaxReference> {
    let set = syntaxes();
    if let Some(lang) = lang.map(str::trim).filter(|l| !l.is_empty()) {
        let lower = lang.to_ascii_lowercase();
        let by_hint = set
            .find_syntax_by_token(&lower)
            .or_else(|| set.find_syntax_by_name(lang))
            .or_else(|| alias(&lower).and_then(|ext| set.find_syntax_by_extension(ext)));
        if by_hint.is_some() {
            return by_hint;
        }
    }
    let lower = file_name.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map_or(lower.as_str(), |(_, e)| e);
    set.find_syntax_by_extension(ext)
        .or_else(|| alias(ext).and_then(|e| set.find_syntax_by_extension(e)))
        .filter(|s| s.name != "Plain Text")
}

/// Languages the bundled set lacks, mapped to the nearest one it has.
fn alias(lang: &str) -> Option<&'static str> {
    Some(match lang {
        "typescript" | "ts" | "tsx" | "mts" | "cts" => "js",
        "jsx" | "mjs" | "cjs" | "javascript" => "js",
        "shell" | "zsh" | "fish" => "sh",
        "jsonc" | "json5" => "json",
        "kt" | "kts" | "kotlin" => "java",
        "vue" | "svelte" | "astro" => "html",
        "scss" | "sass" | "less" => "css",
        "dockerfile" | "containerfile" => "sh",
        _ => return None,
    })
}

/// Whether a syntax is known for this hint or file name.
pub fn language_name(lang: Option<&str>, file_name: &str) -> Option<&'static str> {
    find_syntax(lang, file_name).map(|s| s.name.as_str())
}

/// Highlights `text` into one HTML fragment per line (no line breaks inside), each
/// self-contained: spans open at a line end are closed and reopened on the next line.
///
/// Returns `None` when no syntax matches; the caller then shows plain text.
pub fn highlight_lines(text: &str, lang: Option<&str>, file_name: &str) -> Option<Vec<String>> {
    let syntax = find_syntax(lang, file_name)?;
    let set = syntaxes();
    let mut generator = ClassedHTMLGenerator::new_with_class_style(syntax, set, CLASS_STYLE);
    for line in LinesWithEndings::from(text) {
        if generator
            .parse_html_for_line_which_includes_newline(line)
            .is_err()
        {
            return None;
        }
    }
    Some(split_html_lines(&generator.finalize()))
}

/// Splits syntect's output (only `<span class="…">`, `</span>` and escaped text) into
/// self-contained lines.
fn split_html_lines(html: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut open: Vec<&str> = Vec::new();
    let mut current = String::new();
    let mut rest = html;
    let mut has_text = false;
    while !rest.is_empty() {
        if rest.starts_with("<span") {
            let end = rest.find('>').map_or(rest.len(), |i| i + 1);
            open.push(&rest[..end]);
            current.push_str(&rest[..end]);
            rest = &rest[end..];
        } else if let Some(after) = rest.strip_prefix("</span>") {
            open.pop();
            current.push_str("</span>");
            rest = after;
        } else if let Some(after) = rest.strip_prefix('\n') {
            for _ in &open {
                current.push_str("</span>");
            }
            lines.push(std::mem::take(&mut current));
            has_text = false;
            for tag in &open {
                current.push_str(tag);
            }
            rest = after;
        } else {
            let end = rest.find(['<', '\n']).unwrap_or(rest.len()).max(1);
            has_text = true;
            current.push_str(&rest[..end]);
            rest = &rest[end..];
        }
    }
    // A tail after the final newline that holds only span tags is not a line.
    if has_text {
        for _ in &open {
            current.push_str("</span>");
        }
        lines.push(current);
    }
    lines
}

/// Escapes `text` into plain lines (the fallback when highlighting is off or unknown).
pub fn plain_lines(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text
        .split('\n')
        .map(|line| {
            let line = line.strip_suffix('\r').unwrap_or(line);
            let mut out = String::with_capacity(line.len());
            escape_into(&mut out, line);
            out
        })
        .collect();
    if text.ends_with('\n') {
        lines.pop();
    }
    lines
}

/// The stylesheet for `hl-…` classes: light by default, dark under the system preference
/// or an explicit `data-theme` attribute.
pub fn stylesheet() -> &'static str {
    static CSS: OnceLock<String> = OnceLock::new();
    CSS.get_or_init(|| {
        let themes = ThemeSet::load_defaults();
        let light = themes
            .themes
            .get("InspiredGitHub")
            .and_then(|t| css_for_theme_with_class_style(t, CLASS_STYLE).ok())
            .unwrap_or_default();
        let dark = themes
            .themes
            .get("base16-ocean.dark")
            .and_then(|t| css_for_theme_with_class_style(t, CLASS_STYLE).ok())
            .unwrap_or_default();
        let scoped_dark = scope_rules(&dark, "[data-theme=\"dark\"] ");
        let media_dark = scope_rules(&dark, ":root:not([data-theme=\"light\"]) ");
        format!(
            "{light}\n{scoped_dark}\n@media (prefers-color-scheme: dark) {{\n{media_dark}\n}}\n"
        )
    })
}

/// Prefixes every selector of a flat stylesheet with `prefix`.
fn scope_rules(css: &str, prefix: &str) -> String {
    let mut out = String::with_capacity(css.len() * 2);
    for rule in css.split_inclusive('}') {
        let Some((selectors, body)) = rule.split_once('{') else {
            out.push_str(rule);
            continue;
        };
        // Comments from syntect precede selectors; keep only the selector text.
        let selectors = match selectors.rfind("*/") {
            Some(i) => &selectors[i + 2..],
            None => selectors,
        };
        let scoped: Vec<String> = selectors
            .split(',')
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
            .map(|s| format!("{prefix}{s}"))
            .collect();
        if scoped.is_empty() {
            continue;
        }
        out.push_str(&scoped.join(", "));
        out.push_str(" {");
        out.push_str(body);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_self_contained() {
        let text = "/* a\nb */\nfn main() {}\n";
        let lines = highlight_lines(text, None, "x.rs").unwrap();
        assert_eq!(lines.len(), 3);
        for line in &lines {
            assert_eq!(
                line.matches("<span").count(),
                line.matches("</span>").count(),
                "{line}"
            );
            assert!(!line.contains('\n'));
        }
        let text_of = |html: &str| {
            let mut out = String::new();
            let mut in_tag = false;
            for c in html.chars() {
                match c {
                    '<' => in_tag = true,
                    '>' => in_tag = false,
                    c if !in_tag => out.push(c),
                    _ => {}
                }
            }
            out
        };
        assert_eq!(text_of(&lines[0]), "/* a");
        assert_eq!(text_of(&lines[1]), "b */");
        assert_eq!(text_of(&lines[2]), "fn main() {}");
        assert!(
            lines[1].starts_with("<span"),
            "the comment span reopens: {}",
            lines[1]
        );
    }

    #[test]
    fn markup_in_code_is_escaped() {
        let lines = highlight_lines("let s = \"</script>\";\n", None, "a.rs").unwrap();
        assert!(lines[0].contains("&lt;/script&gt;"), "{}", lines[0]);
    }

    #[test]
    fn unknown_languages_have_no_syntax() {
        assert!(highlight_lines("x", None, "x.unknownext").is_none());
        assert!(language_name(Some("python"), "x").is_some());
        assert!(language_name(Some("ts"), "x").is_some());
    }

    #[test]
    fn plain_lines_escape_and_drop_the_final_newline() {
        assert_eq!(plain_lines("<a>\r\nb\n"), vec!["&lt;a&gt;", "b"]);
        assert_eq!(plain_lines("a\n\nb"), vec!["a", "", "b"]);
    }

    #[test]
    fn stylesheet_has_both_themes() {
        let css = stylesheet();
        assert!(css.contains(".hl-"));
        assert!(css.contains("prefers-color-scheme: dark"));
        assert!(css.contains("[data-theme=\"dark\"] .hl-"));
    }
}
