//! Field instructions (`HYPERLINK "url" \l "anchor" \o "tip"`, `PAGE`, `TOC …`).
//!
//! Fields are shown by their cached result; only `HYPERLINK` changes what is built (the
//! result becomes a link), so that is the one instruction parsed here.

use super::model::LinkTarget;

/// Splits an instruction into words, honouring double quotes (`\"` is a literal quote).
pub(crate) fn tokens(instruction: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = instruction.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut word = String::new();
        if c == '"' {
            chars.next();
            while let Some(c) = chars.next() {
                match c {
                    '\\' if chars.peek() == Some(&'"') => {
                        word.push('"');
                        chars.next();
                    }
                    '"' => break,
                    c => word.push(c),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                word.push(c);
                chars.next();
            }
        }
        out.push(word);
    }
    out
}

/// The field's name (first word, upper-cased), e.g. `HYPERLINK`, `PAGE`.
pub(crate) fn field_name(instruction: &str) -> String {
    instruction
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase()
}

/// The target and tooltip of a `HYPERLINK` field; `None` for other fields.
pub(crate) fn hyperlink(instruction: &str) -> Option<(LinkTarget, Option<String>)> {
    let words = tokens(instruction);
    let mut words = words.into_iter();
    if !words.next()?.eq_ignore_ascii_case("HYPERLINK") {
        return None;
    }
    let mut url = None;
    let mut anchor = None;
    let mut tooltip = None;
    while let Some(word) = words.next() {
        match word.as_str() {
            "\\l" => anchor = words.next(),
            "\\o" => tooltip = words.next(),
            // Switches with an argument that do not matter for a viewer.
            "\\t" => {
                words.next();
            }
            s if s.starts_with('\\') => {}
            _ if url.is_none() => url = Some(word),
            _ => {}
        }
    }
    let target = match (url, anchor) {
        (Some(url), Some(anchor)) => LinkTarget::External {
            url: format!("{url}#{anchor}"),
        },
        (Some(url), None) => LinkTarget::External { url },
        (None, Some(anchor)) => LinkTarget::Internal { anchor },
        (None, None) => return None,
    };
    Some((target, tooltip))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hyperlink_fields() {
        assert_eq!(
            hyperlink(r#" HYPERLINK "https://example.com/a b" \o "tip" "#),
            Some((
                LinkTarget::External {
                    url: "https://example.com/a b".into()
                },
                Some("tip".into())
            ))
        );
        assert_eq!(
            hyperlink(r#"HYPERLINK \l "_Toc123""#),
            Some((
                LinkTarget::Internal {
                    anchor: "_Toc123".into()
                },
                None
            ))
        );
        assert_eq!(hyperlink("PAGE"), None);
        assert_eq!(field_name("  page \\* MERGEFORMAT"), "PAGE");
        assert_eq!(tokens(r#"A "b \"c\"" d"#), ["A", "b \"c\"", "d"]);
    }
}
