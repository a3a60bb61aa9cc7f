//! Following absolute symlinks that point back inside the root.
//!
//! cap-std refuses every absolute link target, because it cannot know where `/` is for a
//! capability. The spec (`workspace-access.md`, step 4) lets an absolute target through when
//! it resolves inside the root. When the open beneath the root is refused as an escape,
//! [`resolve`] walks the path one segment at a time *beneath the same capability*: each
//! segment is `lstat`ed, a link's text is read, a relative target replaces the link's
//! segment, and an absolute target must start with the canonical root (component-wise, so
//! `/…/ws` never admits `/…/wsx`), whose prefix is stripped before the rest is walked
//! beneath the root again. Any target outside, and any `..` that climbs above the root, is
//! `outside_workspace`. At most [`MAX_HOPS`] links are followed (loops end as `not_a_file`).
//!
//! The walk only decides a *relative* path; nothing is opened by it. The caller opens that
//! path beneath the capability again, so a link swapped in between the walk and the open
//! is judged by the open itself: a race can change which inside file is read, never reach
//! one outside. An absolute target must name the root by its canonical path; one that
//! reaches the root through another alias of it (a symlinked parent) counts as outside.

use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

use cap_std::fs::Dir;

use super::open::{loop_error, open_error};
use crate::error::Error;

/// Most links followed while resolving one path (the kernel's own `MAXSYMLINKS`).
pub const MAX_HOPS: usize = 40;

/// Resolves `relative` beneath `dir` (the capability for the canonical `root`), following
/// every link, absolute ones included, and returns an equivalent path relative to the root
/// with no link in it at the time of the walk. A missing segment ends the walk early: the
/// rest is appended unchanged, so the open that follows answers `not_found`.
pub fn resolve(dir: &Dir, root: &Path, relative: &Path) -> Result<PathBuf, Error> {
    // Segments still to walk, the next one last.
    let mut pending: Vec<OsString> = Vec::new();
    push_segments(&mut pending, relative)?;
    // Only real folders (and at the end the file) are ever in `resolved`, so `..` can be
    // applied to it lexically.
    let mut resolved = PathBuf::new();
    let mut hops = 0;
    while let Some(segment) = pending.pop() {
        if segment == ".." {
            if !resolved.pop() {
                return Err(Error::OutsideWorkspace);
            }
            continue;
        }
        let candidate = resolved.join(&segment);
        let meta = match dir.symlink_metadata(&candidate) {
            Ok(meta) => meta,
            Err(e)
                if e.kind() == std::io::ErrorKind::NotFound
                    || e.raw_os_error() == Some(libc::ENOTDIR) =>
            {
                let mut rest = candidate;
                while let Some(segment) = pending.pop() {
                    rest.push(segment);
                }
                return Ok(rest);
            }
            Err(e) => return Err(open_error(e)),
        };
        if !meta.file_type().is_symlink() {
            resolved = candidate;
            continue;
        }
        hops += 1;
        if hops > MAX_HOPS {
            return Err(loop_error());
        }
        let target = dir.read_link_contents(&candidate).map_err(open_error)?;
        if target.is_absolute() {
            let inside = target
                .strip_prefix(root)
                .map_err(|_| Error::OutsideWorkspace)?;
            resolved.clear();
            push_segments(&mut pending, inside)?;
        } else {
            // Relative to the folder holding the link, which is `resolved` as it stands.
            push_segments(&mut pending, &target)?;
        }
    }
    Ok(resolved)
}

/// Pushes the segments of `path` so that its first segment is popped next.
fn push_segments(pending: &mut Vec<OsString>, path: &Path) -> Result<(), Error> {
    let start = pending.len();
    for component in path.components() {
        match component {
            Component::Normal(name) => pending.push(name.to_owned()),
            Component::ParentDir => pending.push(OsString::from("..")),
            Component::CurDir => {}
            // Only a relative remainder gets here; a root or prefix means a bug upstream.
            Component::RootDir | Component::Prefix(_) => return Err(Error::OutsideWorkspace),
        }
    }
    pending[start..].reverse();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn setup() -> (tempfile::TempDir, PathBuf, Dir) {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap().join("ws");
        std::fs::create_dir_all(root.join("real")).unwrap();
        std::fs::write(root.join("real/f.txt"), "x").unwrap();
        let dir = Dir::open_ambient_dir(&root, cap_std::ambient_authority()).unwrap();
        (tmp, root, dir)
    }

    #[test]
    fn absolute_and_relative_links_become_one_plain_path() {
        let (_tmp, root, dir) = setup();
        symlink(root.join("real"), root.join("abs")).unwrap();
        symlink("../abs/f.txt", root.join("real/up")).unwrap();
        let r = |p: &str| resolve(&dir, &root, Path::new(p));
        assert_eq!(r("abs/f.txt").unwrap(), Path::new("real/f.txt"));
        assert_eq!(r("real/up").unwrap(), Path::new("real/f.txt"));
        assert_eq!(r("abs/missing/x").unwrap(), Path::new("real/missing/x"));
        assert_eq!(r("abs/f.txt/below").unwrap(), Path::new("real/f.txt/below"));
    }

    #[test]
    fn outward_targets_and_long_chains_are_refused() {
        let (_tmp, root, dir) = setup();
        let sibling = root.parent().unwrap().join("wsx");
        symlink(&sibling, root.join("sibling")).unwrap();
        symlink("../..", root.join("real/climb")).unwrap();
        let r = |p: &str| resolve(&dir, &root, Path::new(p));
        assert_eq!(r("sibling/x"), Err(Error::OutsideWorkspace));
        assert_eq!(r("real/climb/x"), Err(Error::OutsideWorkspace));
        // A chain one longer than the limit.
        for i in 0..=MAX_HOPS {
            symlink(format!("l{}", i + 1), root.join(format!("l{i}"))).unwrap();
        }
        std::fs::write(root.join(format!("l{}", MAX_HOPS + 1)), "end").unwrap();
        assert!(matches!(r("l0"), Err(Error::NotAFile(_))));
        assert_eq!(r("l1").unwrap(), Path::new(&format!("l{}", MAX_HOPS + 1)));
    }
}
