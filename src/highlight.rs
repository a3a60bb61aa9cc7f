//! Syntax highlighting shared by the source view and the diff viewer.
//!
//! syntect parses the text once; both bundled themes (light, and dark under
//! `prefers-color-scheme: dark` or a `data-theme="dark"` ancestor) resolve every token to
//! a style, and each run of text is written as one flat `<span>` whose classes name those
//! styles: `lc3` (light text colour 3), `lg1` (light background 1), `lb`/`li`/`lu` (light
//! bold, italic, underline), and the same with `d` for dark. Text in both themes' default
//! style gets no span at all and takes the page's own colours.
//!
//! Why resolved styles rather than syntect's scope classes: scope classes nest four deep
//! and carry a dozen classes each, matched by descendant selectors. A 200-line diff page
//! was 385 KB with 5,000 spans, and style matching and layout of those spans was a third
//! of the browser's work for the page (the PNG export renders it too). Flat spans with a
//! few short classes make the same page a fraction of that, and the colours are exact: a
//! token that only the light theme styles is not left in its light colour in dark mode.
//!
//! The class names index each theme's colours in sorted order, so they are the same for
//! every document and every run, and [`stylesheet`] is one static sheet. The syntax
//! definitions load on first use, so an idle server does not pay for them. Text above the
//! caller's size cap, or of an unknown language, comes back as escaped plain lines:
//! highlighting degrades, it never fails.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use syntect::highlighting::{Color, FontStyle, Highlighter, Style, Theme, ThemeSet};
use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxReference, SyntaxSet};
use syntect::util::LinesWithEndings;

use crate::markup::escape_into;

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

/// One bundled theme with the class names of its styles.
struct Palette {
    theme: Theme,
    /// `l` for the light theme, `d` for the dark one.
    prefix: char,
    /// Every colour the theme's rules use, sorted: a class names its index here.
    colors: Vec<Color>,
    /// Which of `colors` some rule uses as a background (only those get a `g` rule).
    backgrounds: Vec<bool>,
}

impl Palette {
    fn new(theme: Theme, prefix: char) -> Palette {
        let mut colors: Vec<Color> = theme
            .scopes
            .iter()
            .flat_map(|item| [item.style.foreground, item.style.background])
            .flatten()
            .collect();
        colors.sort_by_key(|c| (c.r, c.g, c.b, c.a));
        colors.dedup();
        let backgrounds = colors
            .iter()
            .map(|c| theme.scopes.iter().any(|i| i.style.background == Some(*c)))
            .collect();
        Palette {
            theme,
            prefix,
            colors,
            backgrounds,
        }
    }

    fn index(&self, color: Color) -> Option<usize> {
        self.colors
            .binary_search_by_key(&(color.r, color.g, color.b, color.a), |c| {
                (c.r, c.g, c.b, c.a)
            })
            .ok()
    }

    /// Appends the classes of `style` (space-first), leaving out whatever equals the
    /// theme's default so that the page's own colours show through.
    fn push_classes(&self, out: &mut String, style: Style, default: Style) {
        let p = self.prefix;
        if style.foreground != default.foreground {
            if let Some(i) = self.index(style.foreground) {
                let _ = write!(out, " {p}c{i}");
            }
        }
        if style.background != default.background {
            if let Some(i) = self.index(style.background) {
                let _ = write!(out, " {p}g{i}");
            }
        }
        for (flag, name) in FONT_CLASSES {
            if style.font_style.contains(flag) {
                out.push(' ');
                out.push(p);
                out.push(name);
            }
        }
    }

    /// The rules of this theme's classes, each selector prefixed by `scope`.
    fn rules(&self, out: &mut String, scope: &str) {
        let p = self.prefix;
        for (i, (c, background)) in self.colors.iter().zip(&self.backgrounds).enumerate() {
            let _ = writeln!(out, "{scope}.{p}c{i} {{ color: {} }}", css_color(*c));
            if *background {
                let _ = writeln!(
                    out,
                    "{scope}.{p}g{i} {{ background-color: {} }}",
                    css_color(*c)
                );
            }
        }
        let _ = writeln!(out, "{scope}.{p}b {{ font-weight: bold }}");
        let _ = writeln!(out, "{scope}.{p}i {{ font-style: italic }}");
        let _ = writeln!(out, "{scope}.{p}u {{ text-decoration: underline }}");
    }
}

/// Font style flags and the letter of their class.
const FONT_CLASSES: [(FontStyle, char); 3] = [
    (FontStyle::BOLD, 'b'),
    (FontStyle::ITALIC, 'i'),
    (FontStyle::UNDERLINE, 'u'),
];

fn css_color(c: Color) -> String {
    if c.a == 0xff {
        format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b)
    } else {
        format!("#{:02x}{:02x}{:02x}{:02x}", c.r, c.g, c.b, c.a)
    }
}

/// The light and the dark palette, built on first use.
fn palettes() -> &'static (Palette, Palette) {
    static PALETTES: OnceLock<(Palette, Palette)> = OnceLock::new();
    PALETTES.get_or_init(|| {
        let mut themes = ThemeSet::load_defaults().themes;
        let light = themes.remove("InspiredGitHub").unwrap_or_default();
        let dark = themes.remove("base16-ocean.dark").unwrap_or_default();
        (Palette::new(light, 'l'), Palette::new(dark, 'd'))
    })
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
/// self-contained: flat spans, none open across a line end.
///
/// Returns `None` when no syntax matches, when syntect fails on the text, or when it takes
/// longer than [`HIGHLIGHT_TIME_LIMIT`]; the caller then shows plain text.
pub fn highlight_lines(text: &str, lang: Option<&str>, file_name: &str) -> Option<Vec<String>> {
    highlight_until(text, lang, file_name, Instant::now() + HIGHLIGHT_TIME_LIMIT)
}

/// How long one text may take to highlight. Callers cap the bytes they highlight, which
/// keeps ordinary code to tens of milliseconds; the grammars' regexes can still backtrack
/// badly on crafted text, and a page must not wait on that. Checked between lines.
pub const HIGHLIGHT_TIME_LIMIT: Duration = Duration::from_secs(2);

fn highlight_until(
    text: &str,
    lang: Option<&str>,
    file_name: &str,
    deadline: Instant,
) -> Option<Vec<String>> {
    let syntax = find_syntax(lang, file_name)?;
    let set = syntaxes();
    let mut styles = StyleCache::new();
    let mut parser = ParseState::new(syntax);
    let mut stack = ScopeStack::new();
    let mut lines = Vec::new();
    for line in LinesWithEndings::from(text) {
        if Instant::now() > deadline {
            return None;
        }
        let ops = parser.parse_line(line, set).ok()?;
        let body = line.strip_suffix('\n').unwrap_or(line);
        let mut out = String::with_capacity(body.len() + body.len() / 2);
        let mut run = Run::default();
        let mut pos = 0;
        // Each op applies at its offset: the text before it has the stack before it.
        for (at, op) in ops
            .iter()
            .map(|(at, op)| (Some(*at), Some(op)))
            .chain([(None, None)])
        {
            let end = at.unwrap_or(body.len()).min(body.len());
            if end > pos {
                // Offsets are regex match bounds, so char boundaries; should one not be,
                // the file is shown plain rather than the request failing.
                let piece = body.get(pos..end)?;
                run.push(&mut out, styles.classes(stack.as_slice()), piece);
                pos = end;
            }
            if let Some(op) = op {
                stack.apply(op).ok()?;
            }
        }
        run.close(&mut out);
        lines.push(out);
    }
    Some(lines)
}

/// One styled run of a highlighted line, for renderers that draw text themselves (the
/// native diff export): byte range within the line and the theme's resolved style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StyledRun {
    /// First byte of the run within its line.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
    /// Text colour as RGBA; `None` when it is the theme's default (the page colour shows).
    pub color: Option<[u8; 4]>,
    /// Bold text.
    pub bold: bool,
    /// Italic text.
    pub italic: bool,
}

/// Colour, bold and italic of a run.
type RunStyle = (Option<[u8; 4]>, bool, bool);

/// Highlights `text` like [`highlight_lines`], but returns per line the runs whose style
/// differs from the theme's default, in the light or the dark theme: the same themes and
/// the same parse, so a native drawing gets the viewer's colours.
pub fn highlight_runs(
    text: &str,
    lang: Option<&str>,
    file_name: &str,
    dark: bool,
) -> Option<Vec<Vec<StyledRun>>> {
    let syntax = find_syntax(lang, file_name)?;
    let set = syntaxes();
    let (light, dark_palette) = palettes();
    let theme = if dark {
        &dark_palette.theme
    } else {
        &light.theme
    };
    let highlighter = Highlighter::new(theme);
    let default = highlighter.get_default();
    let deadline = Instant::now() + HIGHLIGHT_TIME_LIMIT;
    // Resolved (colour, bold, italic) per scope stack; `None` for the default style.
    let mut known: HashMap<Vec<Scope>, Option<RunStyle>> = HashMap::new();
    let mut parser = ParseState::new(syntax);
    let mut stack = ScopeStack::new();
    let mut lines = Vec::new();
    for line in LinesWithEndings::from(text) {
        if Instant::now() > deadline {
            return None;
        }
        let ops = parser.parse_line(line, set).ok()?;
        let body_len = line.strip_suffix('\n').unwrap_or(line).len();
        let mut runs: Vec<StyledRun> = Vec::new();
        let mut pos = 0;
        for (at, op) in ops
            .iter()
            .map(|(at, op)| (Some(*at), Some(op)))
            .chain([(None, None)])
        {
            let end = at.unwrap_or(body_len).min(body_len);
            if end > pos {
                let style = *known.entry(stack.as_slice().to_vec()).or_insert_with(|| {
                    let s = highlighter.style_for_stack(stack.as_slice());
                    let color = (s.foreground != default.foreground).then_some([
                        s.foreground.r,
                        s.foreground.g,
                        s.foreground.b,
                        s.foreground.a,
                    ]);
                    let bold = s.font_style.contains(FontStyle::BOLD);
                    let italic = s.font_style.contains(FontStyle::ITALIC);
                    (color.is_some() || bold || italic).then_some((color, bold, italic))
                });
                if let Some((color, bold, italic)) = style {
                    match runs.last_mut() {
                        Some(last)
                            if last.end == pos
                                && (last.color, last.bold, last.italic)
                                    == (color, bold, italic) =>
                        {
                            last.end = end;
                        }
                        _ => runs.push(StyledRun {
                            start: pos,
                            end,
                            color,
                            bold,
                            italic,
                        }),
                    }
                }
                pos = end;
            }
            if let Some(op) = op {
                stack.apply(op).ok()?;
            }
        }
        lines.push(runs);
    }
    Some(lines)
}

/// The classes of each scope stack seen so far. Resolving a stack against a theme walks
/// all of its rules; a file repeats the same few hundred stacks, so each is resolved once.
struct StyleCache {
    light: Highlighter<'static>,
    dark: Highlighter<'static>,
    known: HashMap<Vec<Scope>, String>,
}

impl StyleCache {
    fn new() -> StyleCache {
        let (light, dark) = palettes();
        StyleCache {
            light: Highlighter::new(&light.theme),
            dark: Highlighter::new(&dark.theme),
            known: HashMap::new(),
        }
    }

    /// Space-first classes for text under `stack`; empty for the default style.
    fn classes(&mut self, stack: &[Scope]) -> &str {
        if !self.known.contains_key(stack) {
            let (light, dark) = palettes();
            let mut classes = String::new();
            light.push_classes(
                &mut classes,
                self.light.style_for_stack(stack),
                self.light.get_default(),
            );
            dark.push_classes(
                &mut classes,
                self.dark.style_for_stack(stack),
                self.dark.get_default(),
            );
            self.known.insert(stack.to_vec(), classes);
        }
        self.known.get(stack).map_or("", String::as_str)
    }
}

/// The span being written: consecutive pieces with the same classes share one.
#[derive(Default)]
struct Run {
    /// Classes of the open span (space-first), empty when no span is open.
    classes: String,
}

impl Run {
    fn push(&mut self, out: &mut String, classes: &str, text: &str) {
        if classes != self.classes {
            self.close(out);
            if !classes.is_empty() {
                out.push_str("<span class=\"");
                out.push_str(&classes[1..]);
                out.push_str("\">");
                self.classes.push_str(classes);
            }
        }
        escape_into(out, text);
    }

    fn close(&mut self, out: &mut String) {
        if !self.classes.is_empty() {
            out.push_str("</span>");
            self.classes.clear();
        }
    }
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

/// The stylesheet for the highlight classes: light unless the page is dark, dark under
/// `data-theme="dark"` or the system preference (unless the page says
/// `data-theme="light"`). The two never apply at once, so a token styled by one theme only
/// keeps the page's colours in the other.
pub fn stylesheet() -> &'static str {
    static CSS: OnceLock<String> = OnceLock::new();
    CSS.get_or_init(|| {
        let (light, dark) = palettes();
        let mut css = String::new();
        light.rules(&mut css, "[data-theme=\"light\"] ");
        css.push_str("@media not (prefers-color-scheme: dark) {\n");
        light.rules(&mut css, ":root:not([data-theme=\"dark\"]) ");
        css.push_str("}\n");
        dark.rules(&mut css, "[data-theme=\"dark\"] ");
        css.push_str("@media (prefers-color-scheme: dark) {\n");
        dark.rules(&mut css, ":root:not([data-theme=\"light\"]) ");
        css.push_str("}\n");
        css
    })
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
    fn past_the_deadline_highlighting_gives_up() {
        let text = "fn a() {}\n";
        assert!(
            highlight_until(text, None, "a.rs", Instant::now() + HIGHLIGHT_TIME_LIMIT).is_some()
        );
        let gone = Instant::now()
            .checked_sub(Duration::from_millis(1))
            .expect("the clock runs");
        assert_eq!(highlight_until(text, None, "a.rs", gone), None);
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
        assert!(css.contains("[data-theme=\"light\"] .lc0 { color: #"));
        assert!(css.contains("@media not (prefers-color-scheme: dark)"));
        assert!(css.contains("[data-theme=\"dark\"] .dc0 { color: #"));
        assert!(css.contains("@media (prefers-color-scheme: dark)"));
        // Light rules never name dark classes and the other way round.
        assert!(!css.contains("[data-theme=\"light\"] .d"));
        assert!(!css.contains("[data-theme=\"dark\"] .l"));
    }

    /// The classes of every span in `html`.
    fn span_classes(html: &str) -> Vec<&str> {
        html.split("<span class=\"")
            .skip(1)
            .flat_map(|rest| rest[..rest.find('"').unwrap()].split(' '))
            .collect()
    }

    #[test]
    fn spans_are_flat_and_every_class_has_a_rule() {
        let text = "/// Docs.\n#[derive(Debug)]\npub struct S<'a> { name: &'a str, n: u32 }\n\
                    fn f(s: S) -> u32 { if s.n > 2 { s.n * 3 } else { 0 } }\n";
        let lines = highlight_lines(text, None, "x.rs").unwrap();
        assert_eq!(lines.len(), 4);
        let css = stylesheet();
        let mut seen = 0;
        for line in &lines {
            // No span opens inside another.
            let mut depth = 0;
            for part in line.split('<').skip(1) {
                if part.starts_with("span ") {
                    depth += 1;
                    assert_eq!(depth, 1, "nested span in {line}");
                } else if part.starts_with("/span>") {
                    depth -= 1;
                }
            }
            assert_eq!(depth, 0, "{line}");
            for class in span_classes(line) {
                assert!(
                    css.contains(&format!(" .{class} {{")),
                    "no rule for {class}"
                );
                seen += 1;
            }
        }
        assert!(seen > 10, "{lines:?}");
    }

    #[test]
    fn default_text_has_no_span_and_styled_text_has_both_themes() {
        let lines = highlight_lines("let answer = 42;\n", None, "a.rs").unwrap();
        let line = &lines[0];
        // The identifier is in both themes' default colour: plain text, the page's colour.
        assert!(line.contains("</span> answer <span"), "{line}");
        let number = line
            .split("<span class=\"")
            .find(|s| s.contains("\">42<"))
            .unwrap_or_else(|| panic!("42 is styled: {line}"));
        assert!(number.starts_with("lc"), "{number}");
        assert!(number.contains(" dc"), "{number}");
    }

    #[test]
    fn a_syntax_error_mid_file_still_highlights_every_line() {
        let text = "fn main() {\n    let s = \"unterminated;\n}\n\n";
        let lines = highlight_lines(text, None, "a.rs").unwrap();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[3], "");
    }
}
