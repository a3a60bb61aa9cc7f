//! Syntax highlighting of arbitrary text: every line comes back as flat, balanced spans
//! whose text is the input's, escaped.

use previewd::highlight::highlight_lines;

/// File names whose syntaxes the fuzzer drives; the first byte picks one.
const NAMES: &[&str] = &[
    "a.rs", "a.py", "a.js", "a.html", "a.md", "a.json", "a.sh", "a.c",
];

/// One input.
pub fn run(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let name = NAMES[usize::from(pick) % NAMES.len()];
    let Some(lines) = highlight_lines(text, None, name) else {
        return;
    };
    assert_eq!(lines.len(), text.lines().count());
    for (line, source) in lines.iter().zip(text.split('\n')) {
        assert!(!line.contains('\n'));
        assert_eq!(
            line.matches("<span").count(),
            line.matches("</span>").count()
        );
        // Only our own spans are markup: `<` from the text is always escaped.
        assert_eq!(line.matches('<').count(), 2 * line.matches("<span").count());
        assert_eq!(unmarked(line), source);
    }
}

/// The text of a highlighted line: tags dropped, entities decoded.
fn unmarked(line: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in line.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}
