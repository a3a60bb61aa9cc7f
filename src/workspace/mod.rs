//! The one door to the disk.
//!
//! A request names a file with a [`WorkspaceFileRef`]; [`Door::read`] resolves it (allowed
//! root, lexical checks, type check beneath the root through cap-std without opening for
//! reading, then the open and an `fstat` of that handle) and returns a [`ScopedRead`]. Nothing else in previewd opens workspace files or takes a path
//! from a request. Decisions are never cached: every call resolves again.

mod kind;
mod lexical;
mod links;
mod open;
mod read;
mod roots;

use serde::Deserialize;

pub use kind::{looks_binary, FileKind, BINARY_SNIFF_BYTES};
pub use lexical::{check_relative_path, RelativePath};
pub use read::{read_bounded, read_error, text_of, FileStat, ScopedRead};
pub use roots::{Root, WorkspaceSetupError, Workspaces};

use crate::config::Limits;
use crate::error::Error;

/// How a client names a workspace file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WorkspaceFileRef {
    /// Absolute path of the workspace root, as the client knows it.
    pub workspace_root: String,
    /// Path of the file relative to the root.
    pub relative_path: String,
}

/// What [`Door::read_or_open`] gives.
#[derive(Debug)]
pub enum Opened {
    /// The file, read whole.
    Read(ScopedRead),
    /// A large table, opened and checked but not read: `read` has its name, kind, size and
    /// mtime, no bytes and no digest; at most `limit` bytes may be read from `file`.
    Stream {
        /// The read as far as it is known.
        read: ScopedRead,
        /// The open handle the door checked.
        file: std::fs::File,
        /// The kind's size limit.
        limit: u64,
    },
}

/// The door: allowed roots plus the limits that apply to reads.
#[derive(Debug, Clone)]
pub struct Door {
    workspaces: Workspaces,
    limits: Limits,
    /// Serve regular files with more than one name (`preview.allow_hard_links`).
    allow_hard_links: bool,
}

impl Door {
    /// A door over these roots with these limits; hard-linked files are refused.
    pub fn new(workspaces: Workspaces, limits: Limits) -> Door {
        Door {
            workspaces,
            limits,
            allow_hard_links: false,
        }
    }

    /// The same door, serving hard-linked files when `allow` is set.
    pub fn allowing_hard_links(mut self, allow: bool) -> Door {
        self.allow_hard_links = allow;
        self
    }

    /// The allowed roots.
    pub fn workspaces(&self) -> &Workspaces {
        &self.workspaces
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Resolves a reference to its root and checked relative path, without opening anything.
    pub fn resolve(&self, r: &WorkspaceFileRef) -> Result<(Root, RelativePath), Error> {
        // The relative path is checked first: a malformed reference is the caller's bug and
        // says nothing about the host.
        let relative = check_relative_path(&r.relative_path, self.limits.relative_path_bytes)?;
        let root = self.workspaces.resolve(&r.workspace_root)?;
        Ok((root, relative))
    }

    /// Resolves and reads a file with the limit for its kind.
    pub fn read(&self, r: &WorkspaceFileRef) -> Result<ScopedRead, Error> {
        let (root, relative) = self.resolve(r)?;
        self.read_in(&root, relative)
    }

    /// Reads `relative` inside an already resolved `root` with the limit for its kind.
    pub fn read_in(&self, root: &Root, relative: RelativePath) -> Result<ScopedRead, Error> {
        let (file, meta) = open::open_beneath(&root.path, &relative, self.allow_hard_links)?;
        read::scoped_read_from(&root.id, relative, &file, &meta, &self.limits)
    }

    /// Like [`Door::read_in`], but a file of a kind for which `stream_above` gives a size
    /// (CSV and TSV tables, workbooks) and larger than that is not read here: it is opened
    /// with the same checks (its size from `fstat` within the kind's limit) and handed
    /// over, with a read that has no bytes or digest yet, to be read in the background
    /// from that one handle.
    pub fn read_or_open(
        &self,
        root: &Root,
        relative: RelativePath,
        stream_above: impl Fn(FileKind) -> Option<u64>,
    ) -> Result<Opened, Error> {
        let (file, meta) = open::open_beneath(&root.path, &relative, self.allow_hard_links)?;
        let kind = FileKind::from_file_name(relative.file_name());
        if stream_above(kind).is_none_or(|above| meta.len() <= above) {
            return read::scoped_read_from(&root.id, relative, &file, &meta, &self.limits)
                .map(Opened::Read);
        }
        let limit = kind.limit(&self.limits);
        if meta.len() > limit {
            return Err(Error::TooLarge {
                size: meta.len(),
                limit,
            });
        }
        let read = ScopedRead {
            workspace_id: root.id.clone(),
            relative_path: relative,
            kind,
            size: meta.len(),
            mtime_ms: read::mtime_ms(&meta),
            sha256: None,
            bytes: None,
        };
        Ok(Opened::Stream { read, file, limit })
    }

    /// Reads a sibling asset of a previewed page: same rules, the asset limit, any kind.
    pub fn read_asset(&self, root: &Root, relative: &RelativePath) -> Result<Vec<u8>, Error> {
        let (file, meta) = open::open_beneath(&root.path, relative, self.allow_hard_links)?;
        read::read_bounded(&file, &meta, self.limits.asset_bytes)
    }

    /// Size, kind and modification time, without reading the bytes.
    pub fn stat(&self, r: &WorkspaceFileRef) -> Result<FileStat, Error> {
        let (root, relative) = self.resolve(r)?;
        let meta = open::stat_beneath(&root.path, &relative, self.allow_hard_links)?;
        Ok(FileStat::new(&relative, &meta))
    }
}
