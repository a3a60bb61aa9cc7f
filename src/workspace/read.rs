//! The scoped read: one bounded read from one open handle, with its metadata and digest.

use std::fs::{File, Metadata};
use std::io::Read;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::kind::{looks_binary, FileKind};
use super::lexical::RelativePath;
use crate::error::Error;

/// Everything previewd knows about one file, taken from one handle at one moment.
///
/// Every view of a file is built from one `ScopedRead`; switching views never re-reads.
#[derive(Debug, Clone)]
pub struct ScopedRead {
    /// The workspace's id.
    pub workspace_id: String,
    /// The path relative to the root, with `/` separators.
    pub relative_path: RelativePath,
    /// Kind detected from the name (and content for text kinds).
    pub kind: FileKind,
    /// Size in bytes at the time of the read.
    pub size: u64,
    /// Modification time, milliseconds since the Unix epoch.
    pub mtime_ms: Option<u64>,
    /// Lower-case hex SHA-256 of the bytes read (absent only when an `other` file is larger
    /// than the hashing limit).
    pub sha256: Option<String>,
    /// The bytes, kept for kinds that are shown (`None` for `binary` and `other`).
    pub bytes: Option<Arc<[u8]>>,
}

/// Metadata of a file without its bytes (`POST /api/v1/stat`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileStat {
    /// Path relative to the root.
    pub relative_path: String,
    /// The file name.
    pub name: String,
    /// Kind from the name alone (content is not read, so `binary` is never reported here).
    pub kind: FileKind,
    /// Size in bytes.
    pub size: u64,
    /// Modification time, milliseconds since the Unix epoch.
    pub mtime_ms: Option<u64>,
}

impl FileStat {
    /// Builds the stat from an fstat of the open handle.
    pub fn new(relative: &RelativePath, meta: &Metadata) -> FileStat {
        FileStat {
            relative_path: relative.to_string(),
            name: relative.file_name().to_string(),
            kind: FileKind::from_file_name(relative.file_name()),
            size: meta.len(),
            mtime_ms: mtime_ms(meta),
        }
    }
}

impl ScopedRead {
    /// The file name (last path segment).
    pub fn file_name(&self) -> &str {
        self.relative_path.file_name()
    }

    /// The bytes as text: UTF-8 with a leading BOM stripped; invalid sequences replaced.
    /// The flag says whether anything was replaced.
    pub fn text(&self) -> Option<(std::borrow::Cow<'_, str>, bool)> {
        Some(text_of(self.bytes.as_deref()?))
    }
}

/// Bytes as text: UTF-8 with a leading BOM stripped; invalid sequences replaced. The flag
/// says whether anything was replaced.
pub fn text_of(bytes: &[u8]) -> (std::borrow::Cow<'_, str>, bool) {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => (std::borrow::Cow::Borrowed(s), false),
        Err(_) => (String::from_utf8_lossy(bytes), true),
    }
}

pub(crate) fn mtime_ms(meta: &Metadata) -> Option<u64> {
    meta.modified()
        .ok()
        .and_then(|t: SystemTime| t.duration_since(UNIX_EPOCH).ok())
        .map(|d| d.as_millis() as u64)
}

/// Reads the open file under `limit`: the size from `fstat` is checked first, then at most
/// `limit + 1` bytes are read so a file that grows during the read is caught as `too_large`.
pub fn read_bounded(mut file: &File, meta: &Metadata, limit: u64) -> Result<Vec<u8>, Error> {
    if meta.len() > limit {
        return Err(Error::TooLarge {
            size: meta.len(),
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize + 1);
    (&mut file)
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    if bytes.len() as u64 > limit {
        return Err(Error::TooLarge {
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// Hashes the open file in fixed-size chunks without keeping its bytes; `None` when it is
/// larger than `limit` (checked before and during the read).
pub fn hash_bounded(mut file: &File, meta: &Metadata, limit: u64) -> Result<Option<String>, Error> {
    if meta.len() > limit {
        return Ok(None);
    }
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    let mut total = 0u64;
    loop {
        let n = file.read(&mut buf).map_err(read_error)?;
        if n == 0 {
            break;
        }
        total += n as u64;
        if total > limit {
            return Ok(None);
        }
        hasher.update(&buf[..n]);
    }
    Ok(Some(hex::encode(hasher.finalize())))
}

/// The service's error for a failed read of an open workspace file (the OS message is
/// logged, never shown).
pub fn read_error(e: std::io::Error) -> Error {
    if e.raw_os_error() == Some(libc::EISDIR) {
        return Error::NotAFile("the path names a directory".into());
    }
    tracing::warn!(error = %e, "read failed on an open workspace file");
    Error::Internal
}

/// Builds the [`ScopedRead`] from an open regular file.
pub fn scoped_read_from(
    workspace_id: &str,
    relative: RelativePath,
    file: &File,
    meta: &Metadata,
    limits: &crate::config::Limits,
) -> Result<ScopedRead, Error> {
    let named = FileKind::from_file_name(relative.file_name());
    let (kind, sha256, bytes, size) = if named.keeps_bytes() {
        let bytes = read_bounded(file, meta, named.limit(limits))?;
        let kind = if named.is_text() && looks_binary(&bytes) {
            FileKind::Binary
        } else if named == FileKind::Text && crate::csv::looks_like_table(&bytes) {
            // `text/csv` content under a plain-text name: shown as a table (its Source
            // view stays).
            FileKind::Csv
        } else {
            named
        };
        let sha = hex::encode(Sha256::digest(&bytes));
        let size = bytes.len() as u64;
        let kept = kind
            .keeps_bytes()
            .then(|| Arc::from(bytes.into_boxed_slice()));
        (kind, Some(sha), kept, size)
    } else {
        let sha = hash_bounded(file, meta, limits.other_hash_bytes)?;
        (named, sha, None, meta.len())
    };
    Ok(ScopedRead {
        workspace_id: workspace_id.to_string(),
        relative_path: relative,
        kind,
        size,
        mtime_ms: mtime_ms(meta),
        sha256,
        bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_file_that_grows_after_fstat_is_too_large() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("grow.txt");
        std::fs::write(&path, vec![b'a'; 100]).unwrap();
        let file = File::open(&path).unwrap();
        let meta = file.metadata().unwrap();
        assert_eq!(meta.len(), 100);
        // The file grows between the size check and the read.
        let mut writer = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        writer.write_all(&[b'b'; 100]).unwrap();
        let err = read_bounded(&file, &meta, 150).unwrap_err();
        assert_eq!(
            err,
            Error::TooLarge {
                size: 151,
                limit: 150
            }
        );
    }

    #[test]
    fn size_is_checked_before_reading() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.txt");
        std::fs::write(&path, vec![b'a'; 10]).unwrap();
        let file = File::open(&path).unwrap();
        let meta = file.metadata().unwrap();
        assert_eq!(
            read_bounded(&file, &meta, 9).unwrap_err(),
            Error::TooLarge { size: 10, limit: 9 }
        );
        assert_eq!(read_bounded(&file, &meta, 10).unwrap().len(), 10);
    }

    #[test]
    fn hashing_stops_past_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.bin");
        std::fs::write(&path, b"abc").unwrap();
        let file = File::open(&path).unwrap();
        let meta = file.metadata().unwrap();
        assert_eq!(
            hash_bounded(&file, &meta, 3).unwrap().as_deref(),
            Some("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        );
        let file = File::open(&path).unwrap();
        assert_eq!(hash_bounded(&file, &meta, 2).unwrap(), None);
    }
}
