//! Opening a file *beneath* a workspace root, through a capability handle.
//!
//! cap-std resolves the path inside the root directory handle (with `openat2` and
//! `RESOLVE_BENEATH` where the kernel has it, else component by component without following
//! links out), so `..`, absolute paths and links whose targets lie outside the root are
//! refused by the open itself. An absolute link that points back inside the root is
//! rewritten by [`super::links`] and the rewritten path is opened beneath the root again.
//!
//! The type is checked before anything is opened for reading: the path is first opened
//! with `O_PATH`, which resolves it and pins the inode without running a FIFO's or a
//! device driver's `open`, and that handle is `fstat`ed. Only a regular file passes, and one
//! with more than one name (a hard link) only when allowed: a path-based door cannot tell
//! where a file's other names live, so a hard link inside may be a file from outside, and
//! the refusal is `outside_workspace`. `stat` ends there. A read then opens the same path
//! beneath the root for reading and `fstat`s that handle: its device and inode must be the
//! ones checked, so a swap between the check and the open is refused, not read.

use std::fs::{File, Metadata};
use std::io;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

use cap_std::fs::{Dir, OpenOptions, OpenOptionsExt};

use super::lexical::RelativePath;
use super::links;
use crate::error::Error;

/// A path checked beneath a root: the capability, the path to open in it, and the
/// metadata of the regular file it named when checked.
struct Checked {
    dir: Dir,
    path: PathBuf,
    meta: Metadata,
}

/// The metadata of `relative` beneath the (already allowed, canonical) `root`, checked to
/// be a regular file, without opening it for reading.
pub fn stat_beneath(
    root: &Path,
    relative: &RelativePath,
    allow_hard_links: bool,
) -> Result<Metadata, Error> {
    Ok(check_beneath(root, relative, allow_hard_links)?.meta)
}

/// Opens `relative` beneath the (already allowed, canonical) `root` for reading, once it is
/// known to be a regular file, and returns the handle with its own `fstat`. Never blocks on
/// a FIFO and never opens one or a device.
pub fn open_beneath(
    root: &Path,
    relative: &RelativePath,
    allow_hard_links: bool,
) -> Result<(File, Metadata), Error> {
    let checked = check_beneath(root, relative, allow_hard_links)?;
    let mut options = OpenOptions::new();
    // The checked inode is a regular file, but the path may name another one by now.
    // O_NONBLOCK: opening a swapped-in FIFO must not wait for a writer. O_NOCTTY: a
    // terminal device must never become ours.
    options
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    let file = checked
        .dir
        .open_with(&checked.path, &options)
        .map_err(open_error)?
        .into_std();
    let meta = fstat(&file)?;
    if (meta.dev(), meta.ino()) != (checked.meta.dev(), checked.meta.ino()) {
        return Err(Error::not_found(
            "the file at this path was replaced while it was being opened; try again",
        ));
    }
    // Same inode, but a name may have been added since the check.
    check_regular(&meta, allow_hard_links)?;
    Ok((file, meta))
}

/// Resolves `relative` beneath `root` with `O_PATH` and checks what it names.
fn check_beneath(
    root: &Path,
    relative: &RelativePath,
    allow_hard_links: bool,
) -> Result<Checked, Error> {
    let dir = Dir::open_ambient_dir(root, cap_std::ambient_authority()).map_err(|e| {
        tracing::warn!(error = %e, "cannot open an allowed workspace root");
        Error::UnknownWorkspace
    })?;
    let path = PathBuf::from(relative.as_str());
    let (handle, path) = match open_path(&dir, &path) {
        Ok(handle) => (handle, path),
        Err(e) if is_escape(&e) => {
            // Perhaps an absolute link back inside; anything else is refused by the walk.
            let resolved = links::resolve(&dir, root, &path)?;
            let resolved = if resolved.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                resolved
            };
            (open_path(&dir, &resolved).map_err(open_error)?, resolved)
        }
        Err(e) => return Err(open_error(e)),
    };
    let meta = fstat(&handle)?;
    check_regular(&meta, allow_hard_links)?;
    Ok(Checked { dir, path, meta })
}

/// Opens `path` beneath `dir` with `O_PATH`: resolved, links inside followed, nothing read
/// and no driver's `open` run.
fn open_path(dir: &Dir, path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true).custom_flags(libc::O_PATH);
    dir.open_with(path, &options).map(|f| f.into_std())
}

fn fstat(file: &File) -> Result<Metadata, Error> {
    file.metadata().map_err(|e| {
        tracing::warn!(error = %e, "fstat failed on an open handle");
        Error::Internal
    })
}

/// Only regular files pass; hard-linked ones only when allowed.
fn check_regular(meta: &Metadata, allow_hard_links: bool) -> Result<(), Error> {
    let kind = meta.file_type();
    if kind.is_file() {
        if meta.nlink() > 1 && !allow_hard_links {
            return Err(Error::HardLinked);
        }
        return Ok(());
    }
    let what = if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a named pipe"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else {
        "not a regular file"
    };
    Err(Error::NotAFile(format!("the path names {what}")))
}

/// cap-std reports an escape (`..`, absolute link target, link out of the root) as
/// PermissionDenied without an OS errno (a real EACCES carries one), or as EXDEV.
fn is_escape(e: &io::Error) -> bool {
    matches!(
        (e.kind(), e.raw_os_error()),
        (io::ErrorKind::PermissionDenied, None) | (_, Some(libc::EXDEV))
    )
}

/// The error for a path that runs into a loop of links.
pub(super) fn loop_error() -> Error {
    Error::NotAFile("the path runs into a symbolic link loop".into())
}

/// Maps an open error to a stable code without leaking the OS text.
pub(super) fn open_error(e: io::Error) -> Error {
    if is_escape(&e) {
        return Error::OutsideWorkspace;
    }
    match (e.kind(), e.raw_os_error()) {
        (io::ErrorKind::PermissionDenied, Some(_)) => Error::PermissionDenied,
        (io::ErrorKind::NotFound, _) | (_, Some(libc::ENOTDIR)) => {
            Error::not_found("no file at this path")
        }
        (_, Some(libc::ELOOP)) => loop_error(),
        (_, Some(libc::ENAMETOOLONG)) => {
            Error::InvalidReference("relativePath has a segment that is too long".into())
        }
        (_, Some(libc::ENXIO)) | (_, Some(libc::ENODEV)) => {
            Error::NotAFile("the path names a device or socket".into())
        }
        (io::ErrorKind::InvalidInput, _) => {
            Error::InvalidReference("relativePath is not a valid path".into())
        }
        _ => {
            tracing::warn!(error = %e, "unexpected error opening a workspace file");
            Error::Internal
        }
    }
}
