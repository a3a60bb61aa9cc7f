//! Lexical containment of tool-call paths in the workspace (see `workspace-access.md`).
//!
//! Tool paths come from an agent and are untrusted. Before a path can become a file card it
//! must resolve, by string rules alone, to a place strictly inside the workspace root. This
//! is only a first filter: nothing here touches the disk, and the scoped read re-checks every
//! request. The rules differ by path family, and a tool path of another family than the root
//! is refused rather than reinterpreted, because guessing what a foreign path means on this
//! host is how traversal slips through.

use std::borrow::Cow;
use std::fmt;

/// Where an absolute path is anchored.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Anchor {
    /// POSIX `/`.
    Posix,
    /// Windows drive `C:\`; the letter is stored upper-case.
    Drive(char),
    /// Windows UNC `\\host\share\`.
    Unc { host: String, share: String },
}

impl Anchor {
    fn is_windows(&self) -> bool {
        !matches!(self, Anchor::Posix)
    }

    fn same_as(&self, other: &Anchor) -> bool {
        match (self, other) {
            (Anchor::Posix, Anchor::Posix) => true,
            (Anchor::Drive(a), Anchor::Drive(b)) => a == b,
            (Anchor::Unc { host, share }, Anchor::Unc { host: h, share: s }) => {
                same_ignoring_case(host, h) && same_ignoring_case(share, s)
            }
            _ => false,
        }
    }
}

/// A normalised absolute path: an anchor and its segments (no `.`, `..` or empty ones).
/// Bases own their segments; a tool path being resolved borrows them, so resolving does
/// not copy the cwd.
#[derive(Debug, Clone, PartialEq, Eq)]
struct AbsolutePath<S = String> {
    anchor: Anchor,
    segments: Vec<S>,
}

impl AbsolutePath<&str> {
    fn into_owned(self) -> AbsolutePath {
        AbsolutePath {
            anchor: self.anchor,
            segments: self.segments.into_iter().map(str::to_string).collect(),
        }
    }
}

/// Why `workspaceRoot` or `executionCwd` cannot be used as a base.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BaseError {
    /// `workspaceRoot` is missing, empty, relative or otherwise not an absolute path.
    InvalidRoot,
    /// `executionCwd` is missing, empty, relative or otherwise not an absolute path.
    InvalidCwd,
    /// The two are of different path families (POSIX versus Windows), or different drives.
    MixedFamilies,
    /// The cwd is not the root or a folder inside it.
    CwdOutsideRoot,
}

impl fmt::Display for BaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BaseError::InvalidRoot => "workspaceRoot must be an absolute path",
            BaseError::InvalidCwd => "executionCwd must be an absolute path",
            BaseError::MixedFamilies => {
                "workspaceRoot and executionCwd must be of the same path family"
            }
            BaseError::CwdOutsideRoot => "executionCwd must be inside workspaceRoot",
        })
    }
}

impl std::error::Error for BaseError {}

/// Why one tool path was refused. A refused path yields no activity; the call's other
/// paths are judged on their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathRejection {
    /// The path is empty.
    Empty,
    /// The path contains a NUL character.
    Nul,
    /// A Windows drive or UNC path under a POSIX root.
    WindowsPathOnPosix,
    /// `/x` or `\x` under a Windows root: rooted, but on which drive is unknown.
    RootedWithoutDrive,
    /// `C:x` under a Windows root: relative to a per-drive cwd previewd does not know.
    DriveRelative,
    /// `..` climbs above the top of the file system.
    ClimbsAboveTop,
    /// The resolved path is not inside the workspace root (another drive or share included).
    OutsideWorkspace,
    /// The path names the workspace root itself, not a file in it.
    IsWorkspaceRoot,
    /// The result would read as absolute in some family (a first segment like `C:`).
    AbsoluteLooking,
}

impl fmt::Display for PathRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PathRejection::Empty => "the path is empty",
            PathRejection::Nul => "the path contains a NUL character",
            PathRejection::WindowsPathOnPosix => "a Windows path under a POSIX workspace",
            PathRejection::RootedWithoutDrive => "a rooted path without a drive",
            PathRejection::DriveRelative => "a drive-relative path",
            PathRejection::ClimbsAboveTop => "the path climbs above the top of the file system",
            PathRejection::OutsideWorkspace => "the path is outside the workspace",
            PathRejection::IsWorkspaceRoot => "the path is the workspace root itself",
            PathRejection::AbsoluteLooking => "the relative path would read as absolute",
        })
    }
}

impl std::error::Error for PathRejection {}

/// The checked pair of `workspaceRoot` and `executionCwd` that tool paths resolve against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkspacePaths {
    root: AbsolutePath,
    cwd: AbsolutePath,
}

impl WorkspacePaths {
    /// Checks both bases: absolute, same family, cwd inside (or equal to) the root.
    pub fn new(workspace_root: &str, execution_cwd: &str) -> Result<Self, BaseError> {
        let root = parse_base(workspace_root).ok_or(BaseError::InvalidRoot)?;
        let cwd = parse_base(execution_cwd).ok_or(BaseError::InvalidCwd)?;
        if root.anchor.is_windows() != cwd.anchor.is_windows() {
            return Err(BaseError::MixedFamilies);
        }
        if !contains(&root, &cwd) {
            return Err(BaseError::CwdOutsideRoot);
        }
        Ok(WorkspacePaths { root, cwd })
    }

    /// Whether paths compare case-insensitively here (Windows drive and UNC roots).
    pub fn case_insensitive(&self) -> bool {
        self.root.anchor.is_windows()
    }

    /// Resolves a tool path to a `/`-separated path relative to the root, or says why not.
    pub fn resolve(&self, tool_path: &str) -> Result<String, PathRejection> {
        if tool_path.is_empty() {
            return Err(PathRejection::Empty);
        }
        if tool_path.contains('\0') {
            return Err(PathRejection::Nul);
        }
        if self.root.anchor.is_windows() {
            let (anchor, from_cwd, rest) = match windows_shape(tool_path) {
                WindowsShape::Unc => {
                    let (anchor, rest) =
                        split_unc(tool_path).ok_or(PathRejection::OutsideWorkspace)?;
                    (anchor, false, rest)
                }
                WindowsShape::Drive(letter, rest) => (Anchor::Drive(letter), false, rest),
                WindowsShape::DriveRelative => return Err(PathRejection::DriveRelative),
                WindowsShape::Rooted => return Err(PathRejection::RootedWithoutDrive),
                WindowsShape::Relative => (self.cwd.anchor.clone(), true, tool_path),
            };
            self.relative_to_root(anchor, from_cwd, rest)
        } else {
            if has_drive_prefix(tool_path) || tool_path.starts_with("\\\\") {
                return Err(PathRejection::WindowsPathOnPosix);
            }
            let unified = if tool_path.contains('\\') {
                Cow::Owned(tool_path.replace('\\', "/"))
            } else {
                Cow::Borrowed(tool_path)
            };
            match unified.strip_prefix('/') {
                Some(rest) => self.relative_to_root(Anchor::Posix, false, rest),
                None => self.relative_to_root(Anchor::Posix, true, &unified),
            }
        }
    }

    /// Resolves `rest` from the anchor's top or from the cwd, then expresses it relative to
    /// the root.
    fn relative_to_root(
        &self,
        anchor: Anchor,
        from_cwd: bool,
        rest: &str,
    ) -> Result<String, PathRejection> {
        let start: Vec<&str> = if from_cwd {
            self.cwd.segments.iter().map(String::as_str).collect()
        } else {
            Vec::new()
        };
        let resolved = push_segments(
            AbsolutePath {
                anchor,
                segments: start,
            },
            rest,
        )?;
        if !contains(&self.root, &resolved) {
            return Err(PathRejection::OutsideWorkspace);
        }
        let relative = resolved
            .segments
            .get(self.root.segments.len()..)
            .unwrap_or_default();
        let Some(first) = relative.first() else {
            return Err(PathRejection::IsWorkspaceRoot);
        };
        // Keep results valid as a `WorkspaceFileRef`: `C:x` would be drive-shaped there.
        if has_drive_prefix(first) {
            return Err(PathRejection::AbsoluteLooking);
        }
        Ok(relative.join("/"))
    }
}

/// How a path reads under Windows rules.
enum WindowsShape<'a> {
    /// `\\host\share…` (either separator).
    Unc,
    /// `C:\rest`: the upper-case letter and the rest after the separator.
    Drive(char, &'a str),
    /// `C:` not followed by a separator.
    DriveRelative,
    /// A single leading separator.
    Rooted,
    /// Anything else.
    Relative,
}

fn is_separator(c: char) -> bool {
    c == '/' || c == '\\'
}

fn windows_shape(path: &str) -> WindowsShape<'_> {
    let mut chars = path.chars();
    let first = chars.next();
    let second = chars.next();
    match (first, second) {
        (Some(a), Some(b)) if is_separator(a) && is_separator(b) => WindowsShape::Unc,
        (Some(a), _) if is_separator(a) => WindowsShape::Rooted,
        (Some(letter), Some(':')) if letter.is_ascii_alphabetic() => {
            // Both chars are ASCII, so byte 2 is a char boundary.
            let rest = path.get(2..).unwrap_or_default();
            match rest.strip_prefix(is_separator) {
                Some(after) => WindowsShape::Drive(letter.to_ascii_uppercase(), after),
                None => WindowsShape::DriveRelative,
            }
        }
        _ => WindowsShape::Relative,
    }
}

/// `C:` at the start, the mark of a Windows drive path.
fn has_drive_prefix(path: &str) -> bool {
    let mut chars = path.chars();
    matches!((chars.next(), chars.next()), (Some(letter), Some(':')) if letter.is_ascii_alphabetic())
}

/// Parses `workspaceRoot` or `executionCwd`; `None` unless it is absolute in some family.
fn parse_base(raw: &str) -> Option<AbsolutePath> {
    if raw.is_empty() || raw.contains('\0') {
        return None;
    }
    // A base is user configuration, not agent output, so `\\host` means UNC and `/x` POSIX.
    let (anchor, rest) = if raw.starts_with("\\\\") {
        split_unc(raw)?
    } else if let Some(rest) = raw.strip_prefix('/') {
        (Anchor::Posix, rest)
    } else if let WindowsShape::Drive(letter, rest) = windows_shape(raw) {
        (Anchor::Drive(letter), rest)
    } else {
        return None;
    };
    let top = AbsolutePath {
        anchor,
        segments: Vec::new(),
    };
    push_segments(top, rest).ok().map(AbsolutePath::into_owned)
}

/// Splits `\\host\share\rest` (either separator) into its anchor and the rest. Host and
/// share must be real names: `\\?\` and `\\.\` device paths are never a workspace.
fn split_unc(raw: &str) -> Option<(Anchor, &str)> {
    // The caller saw two separators first; both are ASCII, so byte 2 is a boundary.
    let body = raw.get(2..)?;
    let (host, after_host) = first_segment(body);
    let (share, rest) = first_segment(after_host);
    if host.is_empty() || host == "?" || host == "." {
        return None;
    }
    if share.is_empty() || share == "." || share == ".." {
        return None;
    }
    let anchor = Anchor::Unc {
        host: host.to_string(),
        share: share.to_string(),
    };
    Some((anchor, rest))
}

/// The text up to the first separator, and the text after it.
fn first_segment(text: &str) -> (&str, &str) {
    match text.find(is_separator) {
        // A separator is one ASCII byte, so both cuts fall on char boundaries.
        Some(at) => (
            text.get(..at).unwrap_or_default(),
            text.get(at + 1..).unwrap_or_default(),
        ),
        None => (text, ""),
    }
}

/// Appends `relative` to `base`, dropping `.` and empty segments and popping on `..`.
fn push_segments<'a>(
    mut base: AbsolutePath<&'a str>,
    relative: &'a str,
) -> Result<AbsolutePath<&'a str>, PathRejection> {
    let windows = base.anchor.is_windows();
    let pieces = relative.split(|c| c == '/' || (windows && c == '\\'));
    for piece in pieces {
        match piece {
            "" | "." => {}
            ".." => {
                if base.segments.pop().is_none() {
                    return Err(PathRejection::ClimbsAboveTop);
                }
            }
            name => base.segments.push(name),
        }
    }
    Ok(base)
}

/// Whether `inner` is `outer` or below it, segment by segment (so `/root` never contains
/// `/rooted`), ignoring case on Windows.
fn contains<A: AsRef<str>, B: AsRef<str>>(
    outer: &AbsolutePath<A>,
    inner: &AbsolutePath<B>,
) -> bool {
    if !outer.anchor.same_as(&inner.anchor) || inner.segments.len() < outer.segments.len() {
        return false;
    }
    let windows = outer.anchor.is_windows();
    outer.segments.iter().zip(&inner.segments).all(|(a, b)| {
        if windows {
            same_ignoring_case(a.as_ref(), b.as_ref())
        } else {
            a.as_ref() == b.as_ref()
        }
    })
}

/// Case-insensitive comparison as Windows file systems do it (close enough lexically).
pub fn same_ignoring_case(a: &str, b: &str) -> bool {
    a.chars()
        .flat_map(char::to_lowercase)
        .eq(b.chars().flat_map(char::to_lowercase))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base(root: &str, cwd: &str) -> WorkspacePaths {
        match WorkspacePaths::new(root, cwd) {
            Ok(paths) => paths,
            Err(err) => panic!("{root} / {cwd}: {err}"),
        }
    }

    #[test]
    fn bases_table() {
        use BaseError::*;
        let cases: Vec<(&str, &str, Result<(), BaseError>)> = vec![
            ("/w", "/w", Ok(())),
            ("/w", "/w/sub/../sub", Ok(())),
            ("/w/", "//w//x/.", Ok(())),
            ("C:\\w", "c:/W/x", Ok(())),
            ("\\\\host\\share\\w", "\\\\HOST\\Share\\w\\x", Ok(())),
            ("", "/w", Err(InvalidRoot)),
            ("/w", "", Err(InvalidCwd)),
            ("w", "/w", Err(InvalidRoot)),
            ("/w", "w", Err(InvalidCwd)),
            ("C:w", "C:\\w", Err(InvalidRoot)),
            ("/w\0", "/w", Err(InvalidRoot)),
            ("/..", "/", Err(InvalidRoot)),
            ("\\\\?\\C:\\w", "\\\\?\\C:\\w", Err(InvalidRoot)),
            ("\\\\host", "\\\\host", Err(InvalidRoot)),
            ("/w", "C:\\w", Err(MixedFamilies)),
            ("C:\\w", "/w", Err(MixedFamilies)),
            ("\\\\h\\s\\w", "/w", Err(MixedFamilies)),
            ("/w", "/", Err(CwdOutsideRoot)),
            ("/root", "/rooted", Err(CwdOutsideRoot)),
            ("C:\\w", "D:\\w", Err(CwdOutsideRoot)),
            ("C:\\w", "\\\\h\\s\\w", Err(CwdOutsideRoot)),
            ("/w", "/w/../v", Err(CwdOutsideRoot)),
        ];
        for (root, cwd, expected) in cases {
            assert_eq!(
                WorkspacePaths::new(root, cwd).map(|_| ()),
                expected,
                "{root:?} / {cwd:?}"
            );
        }
    }

    #[test]
    fn posix_paths_table() {
        use PathRejection::*;
        let paths = base("/home/ana/root", "/home/ana/root/src");
        let cases: Vec<(&str, Result<&str, PathRejection>)> = vec![
            ("main.rs", Ok("src/main.rs")),
            ("./a/./b.rs", Ok("src/a/b.rs")),
            ("../README.md", Ok("README.md")),
            ("a/../../docs//x.md", Ok("docs/x.md")),
            ("../../root/x", Ok("x")),
            ("/home/ana/root/x.txt", Ok("x.txt")),
            ("..\\x", Ok("x")),
            ("sub\\file.txt", Ok("src/sub/file.txt")),
            ("%2e%2e/x", Ok("src/%2e%2e/x")),
            ("über/ß.txt", Ok("src/über/ß.txt")),
            ("../../x", Err(OutsideWorkspace)),
            ("../../../../../../x", Err(ClimbsAboveTop)),
            ("a/../../../x", Err(OutsideWorkspace)),
            ("../../rooted/x", Err(OutsideWorkspace)),
            ("/home/ana/rooted/x", Err(OutsideWorkspace)),
            ("/etc/passwd", Err(OutsideWorkspace)),
            ("..", Err(IsWorkspaceRoot)),
            ("/home/ana/root", Err(IsWorkspaceRoot)),
            ("", Err(Empty)),
            ("a\0b", Err(Nul)),
            ("C:\\x", Err(WindowsPathOnPosix)),
            ("c:x", Err(WindowsPathOnPosix)),
            ("C:/x", Err(WindowsPathOnPosix)),
            ("\\\\host\\share\\x", Err(WindowsPathOnPosix)),
            ("../C:x", Err(AbsoluteLooking)),
        ];
        for (tool_path, expected) in cases {
            assert_eq!(
                paths.resolve(tool_path),
                expected.map(str::to_string),
                "{tool_path:?}"
            );
        }
        assert!(!paths.case_insensitive());
    }

    #[test]
    fn posix_is_case_sensitive() {
        let paths = base("/w/Root", "/w/Root");
        assert_eq!(
            paths.resolve("/w/root/x"),
            Err(PathRejection::OutsideWorkspace)
        );
    }

    #[test]
    fn windows_drive_paths_table() {
        use PathRejection::*;
        let paths = base("C:\\Users\\Ana\\Root", "c:\\users\\ana\\root\\src");
        let cases: Vec<(&str, Result<&str, PathRejection>)> = vec![
            ("main.rs", Ok("src/main.rs")),
            ("a\\b.rs", Ok("src/a/b.rs")),
            ("a/b.rs", Ok("src/a/b.rs")),
            ("..\\Docs\\X.md", Ok("Docs/X.md")),
            ("C:\\USERS\\ana\\ROOT\\x.txt", Ok("x.txt")),
            ("c:/users/ana/root/Sub/x.txt", Ok("Sub/x.txt")),
            ("..\\..\\x", Err(OutsideWorkspace)),
            ("..\\..\\RootEd\\x", Err(OutsideWorkspace)),
            ("C:\\Users\\Ana\\Rooted\\x", Err(OutsideWorkspace)),
            ("D:\\Users\\Ana\\Root\\x", Err(OutsideWorkspace)),
            ("\\\\host\\share\\x", Err(OutsideWorkspace)),
            ("/x", Err(RootedWithoutDrive)),
            ("\\Users\\Ana\\Root\\x", Err(RootedWithoutDrive)),
            ("C:x", Err(DriveRelative)),
            ("C:", Err(DriveRelative)),
            ("C:\\..\\x", Err(ClimbsAboveTop)),
            ("C:\\Users\\Ana\\Root", Err(IsWorkspaceRoot)),
            ("..\\C:x", Err(AbsoluteLooking)),
        ];
        for (tool_path, expected) in cases {
            assert_eq!(
                paths.resolve(tool_path),
                expected.map(str::to_string),
                "{tool_path:?}"
            );
        }
        assert!(paths.case_insensitive());
    }

    #[test]
    fn relative_resolution_keeps_the_cwd_spelling_under_the_root() {
        // The root match ignores case; the part below the root keeps the spelling it has.
        let paths = base("C:\\w", "C:\\W\\Src");
        assert_eq!(paths.resolve("x.rs").as_deref(), Ok("Src/x.rs"));
    }

    #[test]
    fn unc_paths_table() {
        use PathRejection::*;
        let paths = base("\\\\Server\\Share\\proj", "\\\\server\\share\\proj");
        let cases: Vec<(&str, Result<&str, PathRejection>)> = vec![
            ("a.txt", Ok("a.txt")),
            ("\\\\SERVER\\share\\Proj\\b\\c.txt", Ok("b/c.txt")),
            ("//server/share/proj/d.txt", Ok("d.txt")),
            ("\\\\other\\share\\proj\\a", Err(OutsideWorkspace)),
            ("\\\\server\\other\\proj\\a", Err(OutsideWorkspace)),
            ("\\\\server\\share\\project\\a", Err(OutsideWorkspace)),
            ("\\\\server", Err(OutsideWorkspace)),
            ("\\\\server\\share\\..\\x", Err(ClimbsAboveTop)),
            ("..\\x", Err(OutsideWorkspace)),
            ("C:\\proj\\a", Err(OutsideWorkspace)),
            ("/proj/a", Err(RootedWithoutDrive)),
            ("C:a", Err(DriveRelative)),
        ];
        for (tool_path, expected) in cases {
            assert_eq!(
                paths.resolve(tool_path),
                expected.map(str::to_string),
                "{tool_path:?}"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn resolved_paths_are_always_plain_relative(tool_path in "[a-zA-Z.:/\\\\é ]{0,24}") {
            for (root, cwd) in [("/w/r", "/w/r/s"), ("C:\\w\\r", "c:\\W\\r\\s"), ("\\\\h\\s\\r", "\\\\h\\s\\r\\x")] {
                let paths = base(root, cwd);
                if let Ok(relative) = paths.resolve(&tool_path) {
                    proptest::prop_assert!(!relative.is_empty());
                    proptest::prop_assert!(!relative.starts_with('/') && !relative.contains('\\'));
                    proptest::prop_assert!(relative.split('/').all(|seg| !seg.is_empty() && seg != "." && seg != ".."));
                    proptest::prop_assert!(!has_drive_prefix(&relative));
                }
            }
        }
    }

    #[test]
    fn root_at_top_of_file_system() {
        let paths = base("/", "/");
        assert_eq!(paths.resolve("etc/x").as_deref(), Ok("etc/x"));
        assert_eq!(paths.resolve("/"), Err(PathRejection::IsWorkspaceRoot));
        assert_eq!(paths.resolve(".."), Err(PathRejection::ClimbsAboveTop));
    }
}
