//! Lexical checks of a request's `relativePath`, before anything touches the disk.
//!
//! The path must be relative in every path family a client might think in (POSIX, Windows
//! drive, UNC), so that a path that means "absolute" on any platform is refused rather than
//! reinterpreted. Both `/` and `\` separate segments; `.` and empty segments drop out; any
//! `..` is refused outright (even one that would stay inside), because a reference that
//! climbs is never what a file card means.

use crate::error::Error;

/// A checked relative path: non-empty normal segments, joined with `/`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RelativePath(String);

impl RelativePath {
    /// The path with `/` separators.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The last segment (the file name).
    pub fn file_name(&self) -> &str {
        self.0.rsplit('/').next().unwrap_or(&self.0)
    }

    /// The folder part, without a trailing slash (empty at the root).
    pub fn parent(&self) -> &str {
        self.0.rsplit_once('/').map_or("", |(dir, _)| dir)
    }

    /// The segments of the path.
    pub fn segments(&self) -> impl Iterator<Item = &str> {
        self.0.split('/')
    }
}

impl std::fmt::Display for RelativePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Checks `raw` as a workspace-relative path; `max_bytes` bounds its length.
pub fn check_relative_path(raw: &str, max_bytes: usize) -> Result<RelativePath, Error> {
    let invalid = |why: &str| Error::InvalidReference(format!("relativePath {why}"));
    if raw.is_empty() {
        return Err(invalid("must not be empty"));
    }
    if raw.len() > max_bytes {
        return Err(invalid(&format!("is longer than {max_bytes} bytes")));
    }
    if raw.contains('\0') {
        return Err(invalid("must not contain a NUL byte"));
    }
    if raw.starts_with('/') || raw.starts_with('\\') {
        // Covers POSIX absolute paths and UNC (`\\host`, `//host`).
        return Err(invalid("must be relative, not absolute"));
    }
    let bytes = raw.as_bytes();
    if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        // `C:\x` and drive-relative `C:x` both name another root on Windows.
        return Err(invalid("must not name a drive"));
    }
    let mut segments = Vec::new();
    for segment in raw.split(['/', '\\']) {
        match segment {
            "" | "." => continue,
            ".." => return Err(invalid("must not contain `..`")),
            s => segments.push(s),
        }
    }
    if segments.is_empty() {
        return Err(invalid("names no file"));
    }
    Ok(RelativePath(segments.join("/")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(raw: &str) -> String {
        check_relative_path(raw, 4096).unwrap().0
    }

    fn refused(raw: &str) {
        assert!(
            matches!(
                check_relative_path(raw, 4096),
                Err(Error::InvalidReference(_))
            ),
            "{raw:?} was accepted"
        );
    }

    #[test]
    fn normal_paths_are_normalised() {
        assert_eq!(ok("docs/report.docx"), "docs/report.docx");
        assert_eq!(ok("./docs//a.md"), "docs/a.md");
        assert_eq!(ok("docs\\win\\a.md"), "docs/win/a.md");
        assert_eq!(ok("a/./b/"), "a/b");
        assert_eq!(ok("..foo/x"), "..foo/x");
        assert_eq!(ok("%2e%2e/x"), "%2e%2e/x");
    }

    #[test]
    fn every_family_of_escape_is_refused() {
        for raw in [
            "",
            "../x",
            "a/../../x",
            "a/..",
            "..\\x",
            "/etc/passwd",
            "\\x",
            "C:\\x",
            "C:x",
            "c:/x",
            "\\\\host\\share\\x",
            "//host/share/x",
            "a\0b",
            ".",
            "./",
            "/",
        ] {
            refused(raw);
        }
    }

    #[test]
    fn long_paths_are_refused() {
        let long = "a/".repeat(3000);
        assert!(check_relative_path(&long, 4096).is_err());
        assert!(check_relative_path("abc", 2).is_err());
    }

    #[test]
    fn parts() {
        let p = check_relative_path("a/b/c.txt", 100).unwrap();
        assert_eq!(p.file_name(), "c.txt");
        assert_eq!(p.parent(), "a/b");
        let p = check_relative_path("c.txt", 100).unwrap();
        assert_eq!(p.parent(), "");
    }
}
