//! File names in patch headers: git's C-style quoting, the `a/` `b/` prefixes, timestamps
//! and revision labels after a tab, and the ambiguous `diff --git a/x b/x` line.
//!
//! Every function here is linear in its input and total: malformed quoting falls back to
//! the raw text instead of failing, since a name is display data, not something we open.

/// A name from a `---`/`+++` line, with what followed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HeaderName {
    /// The decoded name, prefix not yet stripped; `None` for `/dev/null`.
    pub name: Option<String>,
    /// Whether a label after the name says the file does not exist on that side
    /// (svn's `(nonexistent)` and `(revision 0)`).
    pub absent: bool,
}

/// Decodes a git-quoted name starting at `s[0] == '"'`. Returns the name and the text after
/// the closing quote, or `None` if the quote is never closed.
pub(crate) fn parse_quoted(s: &str) -> Option<(String, &str)> {
    let bytes = s.as_bytes();
    if bytes.first() != Some(&b'"') {
        return None;
    }
    let mut out: Vec<u8> = Vec::new();
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return Some((String::from_utf8_lossy(&out).into_owned(), &s[i + 1..])),
            b'\\' => {
                let &esc = bytes.get(i + 1)?;
                i += 2;
                match esc {
                    b'a' => out.push(0x07),
                    b'b' => out.push(0x08),
                    b't' => out.push(b'\t'),
                    b'n' => out.push(b'\n'),
                    b'v' => out.push(0x0b),
                    b'f' => out.push(0x0c),
                    b'r' => out.push(b'\r'),
                    b'0'..=b'7' => {
                        // Up to three octal digits, as C and git write them (`\303\251`).
                        let mut value = u32::from(esc - b'0');
                        let mut digits = 1;
                        while digits < 3 {
                            match bytes.get(i) {
                                Some(&d @ b'0'..=b'7') => {
                                    value = value * 8 + u32::from(d - b'0');
                                    i += 1;
                                    digits += 1;
                                }
                                _ => break,
                            }
                        }
                        out.push((value & 0xff) as u8);
                    }
                    other => out.push(other),
                }
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    None
}

/// Reads the name on a `--- ` / `+++ ` line (the marker already removed).
pub(crate) fn parse_header_name(s: &str) -> HeaderName {
    let s = s.trim_start_matches(' ');
    let (name, rest) = if s.starts_with('"') {
        match parse_quoted(s) {
            Some((name, rest)) => (name, rest),
            None => (s.to_string(), ""),
        }
    } else {
        match s.split_once('\t') {
            Some((name, rest)) => (name.to_string(), rest),
            None => {
                let cut = timestamp_start(s).unwrap_or(s.len());
                (s[..cut].to_string(), &s[cut..])
            }
        }
    };
    let name = name.trim_end().to_string();
    let label = rest.trim();
    let absent = label == "(nonexistent)" || label == "(revision 0)";
    HeaderName {
        name: if name == "/dev/null" || name.is_empty() {
            None
        } else {
            Some(name)
        },
        absent,
    }
}

/// Where a space-separated timestamp (`2024-01-31 10:00:00 …`) starts, for `diff -u`
/// output whose tab was turned into spaces on the way.
fn timestamp_start(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut from = 0;
    while let Some(pos) = s[from..].find(' ') {
        let at = from + pos;
        let d = bytes.get(at + 1..at + 11)?;
        let is_date = d.len() == 10
            && d[..4].iter().all(u8::is_ascii_digit)
            && d[4] == b'-'
            && d[5..7].iter().all(u8::is_ascii_digit)
            && d[7] == b'-'
            && d[8..10].iter().all(u8::is_ascii_digit);
        if is_date {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Reads a name that runs to the end of its line (`rename from x`, `copy to "y"`).
pub(crate) fn parse_rest_name(s: &str) -> String {
    let s = s.trim_end();
    if s.starts_with('"') {
        if let Some((name, _)) = parse_quoted(s) {
            return name;
        }
    }
    s.to_string()
}

/// Splits the two names of `diff --git A B` (marker removed). Quoted names are exact; for
/// unquoted names with spaces git's own rule applies: the split is where both halves name
/// the same path once their first component is dropped (`a/x y b/x y`). Renames with
/// spaces stay ambiguous here and are fixed later from `rename from`/`rename to`.
pub(crate) fn split_git_names(s: &str) -> Option<(String, String)> {
    if s.starts_with('"') {
        let (old, rest) = parse_quoted(s)?;
        let rest = rest.strip_prefix(' ')?;
        let new = if rest.starts_with('"') {
            parse_quoted(rest)?.0
        } else {
            rest.to_string()
        };
        return Some((old, new));
    }
    if s.ends_with('"') {
        if let Some(pos) = s.rfind(" \"") {
            let new = parse_quoted(&s[pos + 1..])?.0;
            return Some((s[..pos].to_string(), new));
        }
    }
    // Same name on both sides: the halves have equal length around a middle space.
    if s.len() % 2 == 1 {
        let mid = s.len() / 2;
        if s.as_bytes()[mid] == b' ' && s.is_char_boundary(mid) {
            let (old, new) = (&s[..mid], &s[mid + 1..]);
            if drop_first_component(old) == drop_first_component(new) {
                return Some((old.to_string(), new.to_string()));
            }
        }
    }
    if let Some(pos) = s.find(" b/") {
        return Some((s[..pos].to_string(), s[pos + 1..].to_string()));
    }
    let (old, new) = s.split_once(' ')?;
    Some((old.to_string(), new.to_string()))
}

fn drop_first_component(path: &str) -> &str {
    path.split_once('/').map_or(path, |(_, rest)| rest)
}

/// Git's prefixes for the old side (`a/`, and the mnemonic `c/ i/ o/` and `1/`).
const OLD_PREFIXES: [&str; 5] = ["a/", "c/", "i/", "o/", "1/"];
/// Git's prefixes for the new side (`b/`, and the mnemonic `i/ w/` and `2/`).
const NEW_PREFIXES: [&str; 4] = ["b/", "i/", "w/", "2/"];

/// Whether `old`/`new` both carry one of git's prefixes, so one leading component should be
/// dropped from every name of that file (what `git apply -p1` does).
pub(crate) fn has_git_prefixes(old: &str, new: &str) -> bool {
    OLD_PREFIXES.iter().any(|p| old.starts_with(p))
        && NEW_PREFIXES.iter().any(|p| new.starts_with(p))
}

/// Drops the first path component (`a/src/x` → `src/x`).
pub(crate) fn strip_component(name: &str) -> String {
    drop_first_component(name).to_string()
}

/// Parses the path at the end of an hg `diff -r REV [-r REV] PATH` line (marker removed).
pub(crate) fn hg_path(s: &str) -> Option<String> {
    let mut rest = s;
    loop {
        rest = rest.trim_start();
        let Some(after) = rest.strip_prefix("-r ") else {
            break;
        };
        let after = after.trim_start();
        rest = after.split_once(' ').map_or("", |(_, r)| r);
    }
    let rest = rest.trim();
    (!rest.is_empty() && !rest.starts_with('-')).then(|| rest.to_string())
}

/// Splits `Binary files A and B differ` (both markers removed) into its names.
pub(crate) fn split_binary_names(s: &str) -> (Option<String>, Option<String>) {
    let parse = |part: &str| -> Option<String> {
        let part = part.trim();
        let name = if part.starts_with('"') {
            parse_quoted(part).map_or_else(|| part.to_string(), |(n, _)| n)
        } else {
            part.to_string()
        };
        (name != "/dev/null" && !name.is_empty()).then_some(name)
    };
    match s.split_once(" and ") {
        Some((a, b)) => (parse(a), parse(b)),
        None => (parse(s), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_octal_escapes_decode_to_utf8() {
        let (name, rest) = parse_quoted("\"a/t\\303\\251st\" tail").unwrap();
        assert_eq!(name, "a/tést");
        assert_eq!(rest, " tail");
    }

    #[test]
    fn quoted_c_escapes_decode() {
        let (name, _) = parse_quoted(r#""a\tb\nc\"d\\e""#).unwrap();
        assert_eq!(name, "a\tb\nc\"d\\e");
    }

    #[test]
    fn unterminated_quote_is_none() {
        assert_eq!(parse_quoted("\"abc"), None);
        assert_eq!(parse_quoted("\"abc\\"), None);
    }

    #[test]
    fn header_name_drops_timestamp_and_labels() {
        let n = parse_header_name("a/x.c\t2024-01-01 10:00:00.000000000 +0100");
        assert_eq!(n.name.as_deref(), Some("a/x.c"));
        let n = parse_header_name("x.c 2024-01-01 10:00:00");
        assert_eq!(n.name.as_deref(), Some("x.c"));
        let n = parse_header_name("new.txt\t(nonexistent)");
        assert_eq!(n.name.as_deref(), Some("new.txt"));
        assert!(n.absent);
        assert_eq!(parse_header_name("/dev/null").name, None);
        let n = parse_header_name("\"b/t\\303\\251st file.txt\"\t");
        assert_eq!(n.name.as_deref(), Some("b/tést file.txt"));
    }

    #[test]
    fn git_names_split_on_equal_halves() {
        assert_eq!(
            split_git_names("a/with space.txt b/with space.txt"),
            Some(("a/with space.txt".into(), "b/with space.txt".into()))
        );
        assert_eq!(
            split_git_names("a/x b/y"),
            Some(("a/x".into(), "b/y".into()))
        );
        assert_eq!(
            split_git_names("\"a/t\\303\\251\" \"b/t\\303\\251\""),
            Some(("a/té".into(), "b/té".into()))
        );
        assert_eq!(split_git_names("lonely"), None);
    }

    #[test]
    fn hg_path_skips_revisions() {
        assert_eq!(
            hg_path("-r 5a1e8c2f3b4d -r 9c0d1e2f3a4b src/app.py").as_deref(),
            Some("src/app.py")
        );
        assert_eq!(
            hg_path("-r 5a1e8c2f3b4d src/app.py").as_deref(),
            Some("src/app.py")
        );
        assert_eq!(hg_path("-r abc"), None);
    }

    #[test]
    fn binary_names_split() {
        assert_eq!(
            split_binary_names("a/x.png and b/x.png"),
            (Some("a/x.png".into()), Some("b/x.png".into()))
        );
        assert_eq!(
            split_binary_names("/dev/null and b/y"),
            (None, Some("b/y".into()))
        );
    }
}
