//! Part names: checking zip entry names and resolving relationship targets.
//!
//! Inside this crate a part name is the zip entry name: no leading slash, `/` separated,
//! e.g. `word/media/image1.png`. OPC compares part names ASCII-case-insensitively, so the
//! package indexes parts by [`fold`]ed names. Relationship targets are URI references
//! resolved against the source part's folder; a target that would climb above the package
//! root is never turned into a part name.

/// Why an entry name is refused, for the error reason.
pub(crate) fn check_entry_name(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        return Err("empty entry name");
    }
    if name.contains('\\') {
        // A backslash is not legal in a part name, and on Windows extractors it is a
        // separator: `..\x` and `C:\x` tricks hide behind it.
        return Err("entry name contains a backslash");
    }
    if name.starts_with('/') {
        return Err("absolute entry name");
    }
    if name.chars().any(|c| c.is_control()) {
        return Err("entry name contains a control character");
    }
    let trimmed = name.strip_suffix('/').unwrap_or(name);
    for (i, segment) in trimmed.split('/').enumerate() {
        match segment {
            "" => return Err("entry name has an empty segment"),
            "." | ".." => return Err("entry name contains a `.` or `..` segment"),
            _ => {}
        }
        if i == 0 && segment.len() == 2 && segment.ends_with(':') {
            return Err("entry name starts with a drive letter");
        }
    }
    Ok(())
}

/// The case-folded form used to index and compare part names.
pub(crate) fn fold(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// The folder of a part (`word/document.xml` → `word/`), empty for root-level parts.
pub fn part_folder(part: &str) -> &str {
    match part.rfind('/') {
        Some(i) => &part[..=i],
        None => "",
    }
}

/// The relationships part that belongs to `source` (`word/document.xml` →
/// `word/_rels/document.xml.rels`); the package's own relationships for an empty source.
pub fn rels_part_for(source: &str) -> String {
    let folder = part_folder(source);
    let file = &source[folder.len()..];
    format!("{folder}_rels/{file}.rels")
}

/// Resolves an internal relationship `target` against the `source` part.
///
/// Returns the normalised part name, or `None` when the target is not a usable internal
/// reference: it climbs above the package root, carries a scheme, or is empty.
pub fn resolve_target(source: &str, target: &str) -> Option<String> {
    // Fragments and queries never name a different part.
    let target = target.split(['#', '?']).next().unwrap_or("");
    let target = percent_decode(target.trim())?;
    if target.is_empty() || target.contains('\\') || has_scheme(&target) {
        return None;
    }
    let mut segments: Vec<&str> = Vec::new();
    let joined;
    let path = if let Some(absolute) = target.strip_prefix('/') {
        absolute
    } else {
        joined = format!("{}{}", part_folder(source), target);
        &joined
    };
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                // Climbing above the root is refused, not clamped: clamping would let a
                // hostile target alias an unrelated part.
                segments.pop()?;
            }
            s => segments.push(s),
        }
    }
    if segments.is_empty() {
        return None;
    }
    Some(segments.join("/"))
}

/// Whether a URI reference starts with a scheme (`http:`, `file:`, `c:` …).
fn has_scheme(s: &str) -> bool {
    match s.find(':') {
        Some(i) => {
            let scheme = &s[..i];
            !scheme.is_empty()
                && !scheme.contains('/')
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        }
        None => false,
    }
}

/// Decodes `%XX` escapes; `None` when the result is not UTF-8 or decodes to a NUL.
pub(crate) fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_owned());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok());
            if let Some(v) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b);
        i += 1;
    }
    let decoded = String::from_utf8(out).ok()?;
    if decoded.contains('\0') {
        return None;
    }
    Some(decoded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_names() {
        assert!(check_entry_name("word/document.xml").is_ok());
        assert!(check_entry_name("word/").is_ok());
        assert!(check_entry_name("[Content_Types].xml").is_ok());
        assert_eq!(
            check_entry_name("../x"),
            Err("entry name contains a `.` or `..` segment")
        );
        assert_eq!(
            check_entry_name("word/../../x"),
            Err("entry name contains a `.` or `..` segment")
        );
        assert_eq!(check_entry_name("/etc/passwd"), Err("absolute entry name"));
        assert_eq!(
            check_entry_name("..\\x"),
            Err("entry name contains a backslash")
        );
        assert_eq!(
            check_entry_name("C:/x"),
            Err("entry name starts with a drive letter")
        );
        assert_eq!(
            check_entry_name("a//b"),
            Err("entry name has an empty segment")
        );
    }

    #[test]
    fn targets_resolve_relative_to_source_folder() {
        assert_eq!(
            resolve_target("word/document.xml", "media/image1.png").as_deref(),
            Some("word/media/image1.png")
        );
        assert_eq!(
            resolve_target("word/document.xml", "../customXml/item1.xml").as_deref(),
            Some("customXml/item1.xml")
        );
        assert_eq!(
            resolve_target("", "word/document.xml").as_deref(),
            Some("word/document.xml")
        );
        assert_eq!(
            resolve_target("word/document.xml", "/word/styles.xml").as_deref(),
            Some("word/styles.xml")
        );
        assert_eq!(
            resolve_target("word/document.xml", "./media/a%20b.png").as_deref(),
            Some("word/media/a b.png")
        );
    }

    #[test]
    fn targets_never_leave_the_package() {
        assert_eq!(
            resolve_target("word/document.xml", "../../etc/passwd"),
            None
        );
        assert_eq!(resolve_target("", "../x.xml"), None);
        assert_eq!(
            resolve_target("word/document.xml", "file:///etc/passwd"),
            None
        );
        assert_eq!(resolve_target("word/document.xml", "C:/x.png"), None);
        assert_eq!(resolve_target("word/document.xml", "..\\x.png"), None);
        assert_eq!(resolve_target("word/document.xml", ""), None);
    }

    #[test]
    fn rels_part_names() {
        assert_eq!(
            rels_part_for("word/document.xml"),
            "word/_rels/document.xml.rels"
        );
        assert_eq!(rels_part_for(""), "_rels/.rels");
    }
}
