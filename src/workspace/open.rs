//! Opening a file *beneath* a workspace root, through a capability handle.
//!
//! cap-std resolves the path inside the root directory handle (with `openat2` and
//! `RESOLVE_BENEATH` where the kernel has it, else component by component without following
//! links out), so `..`, absolute paths and links whose targets lie outside the root are
//! refused by the open itself. There is no separate "check, then open" step that a swapped
//! parent directory could race. The opened handle is then `fstat`ed: only regular files pass.

use std::fs::{File, Metadata};
use std::io;
use std::path::Path;

use cap_std::fs::{Dir, OpenOptions, OpenOptionsExt};

use super::lexical::RelativePath;
use crate::error::Error;

/// Opens `relative` beneath the (already allowed, canonical) `root` and checks that the
/// handle is a regular file. Never blocks on a FIFO.
pub fn open_beneath(root: &Path, relative: &RelativePath) -> Result<(File, Metadata), Error> {
    let dir = Dir::open_ambient_dir(root, cap_std::ambient_authority()).map_err(|e| {
        tracing::warn!(error = %e, "cannot open an allowed workspace root");
        Error::UnknownWorkspace
    })?;
    let mut options = OpenOptions::new();
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. It has no
    // effect on regular files. O_NOCTTY: a terminal device must never become ours.
    options
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    let file = dir
        .open_with(relative.as_str(), &options)
        .map_err(open_error)?
        .into_std();
    let meta = file.metadata().map_err(|e| {
        tracing::warn!(error = %e, "fstat failed on an open handle");
        Error::Internal
    })?;
    let kind = meta.file_type();
    if !kind.is_file() {
        let what = if kind.is_dir() {
            "a directory"
        } else if std::os::unix::fs::FileTypeExt::is_fifo(&kind) {
            "a named pipe"
        } else if std::os::unix::fs::FileTypeExt::is_socket(&kind) {
            "a socket"
        } else if std::os::unix::fs::FileTypeExt::is_char_device(&kind)
            || std::os::unix::fs::FileTypeExt::is_block_device(&kind)
        {
            "a device"
        } else {
            "not a regular file"
        };
        return Err(Error::NotAFile(format!("the path names {what}")));
    }
    Ok((file, meta))
}

/// Maps an open error to a stable code without leaking the OS text.
fn open_error(e: io::Error) -> Error {
    match (e.kind(), e.raw_os_error()) {
        // cap-std reports an escape (`..`, absolute link target, link out of the root) as
        // PermissionDenied without an OS errno; a real EACCES carries one.
        (io::ErrorKind::PermissionDenied, None) => Error::OutsideWorkspace,
        (_, Some(libc::EXDEV)) => Error::OutsideWorkspace,
        (io::ErrorKind::PermissionDenied, Some(_)) => Error::PermissionDenied,
        (io::ErrorKind::NotFound, _) | (_, Some(libc::ENOTDIR)) => {
            Error::not_found("no file at this path")
        }
        (_, Some(libc::ELOOP)) => Error::NotAFile("the path runs into a symbolic link loop".into()),
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
