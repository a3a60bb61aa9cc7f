//! Escaping for HTML text, attributes, and JSON embedded in a page.
//!
//! Every piece of user text previewd puts into a page goes through one of these.

use std::fmt::Write;

/// Escapes text for an HTML element body or a double- or single-quoted attribute value.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    escape_into(&mut out, text);
    out
}

/// Appends the escaped form of `text` to `out`.
pub fn escape_into(out: &mut String, text: &str) {
    let mut last = 0;
    for (i, b) in text.bytes().enumerate() {
        let rep = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            _ => continue,
        };
        out.push_str(&text[last..i]);
        out.push_str(rep);
        last = i + 1;
    }
    out.push_str(&text[last..]);
}

/// Serializes `value` as JSON that is safe inside a `<script type="application/json">`
/// element: `<`, `>`, `&` and the line separators are written as `\u` escapes, so no text
/// can close the element or open a comment.
pub fn json_for_script<T: serde::Serialize>(value: &T) -> String {
    let raw = serde_json::to_string(value).unwrap_or_else(|_| "null".to_string());
    let mut out = String::with_capacity(raw.len() + 16);
    for c in raw.chars() {
        match c {
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Percent-encodes a workspace-relative path for use in a URL path, keeping `/`.
pub fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// A human size: `512 B`, `12.3 KiB`, `4.0 MiB`.
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// Fills `{{key}}` placeholders of a template with already-escaped values. A placeholder
/// without a value is left empty; templates are ours, so that is a bug caught by tests.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|(_, v)| v.len()).sum::<usize>());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            out.push_str(&rest[start..]);
            return out;
        };
        let key = &after[..end];
        debug_assert!(
            values.iter().any(|(k, _)| *k == key),
            "template key {key} has no value"
        );
        if let Some((_, v)) = values.iter().find(|(k, _)| *k == key) {
            out.push_str(v);
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
        assert_eq!(escape("héllo"), "héllo");
    }

    #[test]
    fn json_cannot_close_a_script() {
        let s = json_for_script(&serde_json::json!({"t": "</script><!--"}));
        assert!(!s.contains('<'), "{s}");
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back["t"], "</script><!--");
    }

    #[test]
    fn paths_are_percent_encoded() {
        assert_eq!(encode_path("a b/ç#?.html"), "a%20b/%C3%A7%23%3F.html");
    }

    #[test]
    fn templates_fill_once() {
        assert_eq!(
            fill("<b>{{a}}</b>{{b}}", &[("a", "1"), ("b", "{{a}}")]),
            "<b>1</b>{{a}}"
        );
    }

    #[test]
    fn sizes() {
        assert_eq!(human_size(512), "512 B");
        assert_eq!(human_size(1536), "1.5 KiB");
        assert_eq!(human_size(3 * 1024 * 1024), "3.0 MiB");
    }
}
