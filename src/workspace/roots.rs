//! The workspace roots a server was started with, and the rule for who may name one.
//!
//! A caller-supplied `workspaceRoot` is untrusted: it is canonicalized on every request and
//! must equal an allowed root, or be a direct child of an allowed parent folder. Canonical
//! forms of the configured roots are taken once at start-up, so a root later replaced by a
//! link to somewhere else no longer matches.

use std::path::{Path, PathBuf};

use crate::error::Error;

/// A workspace root that a request may use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// Id for browser URLs (`/w/{id}/…`): the folder's name.
    pub id: String,
    /// Canonical absolute path.
    pub path: PathBuf,
}

/// The allowed roots and parent folders.
#[derive(Debug, Clone, Default)]
pub struct Workspaces {
    roots: Vec<Root>,
    parents: Vec<PathBuf>,
}

/// Why the configured workspaces could not be set up (start-up only, never a request).
#[derive(Debug, thiserror::Error)]
#[error("workspace {path}: {reason}")]
pub struct WorkspaceSetupError {
    /// The configured path.
    pub path: PathBuf,
    /// What is wrong with it.
    pub reason: String,
}

impl Workspaces {
    /// Canonicalizes the configured roots and parents; each must be an existing directory.
    pub fn new(roots: &[PathBuf], parents: &[PathBuf]) -> Result<Workspaces, WorkspaceSetupError> {
        let canonical_dir = |p: &Path| -> Result<PathBuf, WorkspaceSetupError> {
            let c = std::fs::canonicalize(p).map_err(|e| WorkspaceSetupError {
                path: p.to_owned(),
                reason: e.to_string(),
            })?;
            if !c.is_dir() {
                return Err(WorkspaceSetupError {
                    path: p.to_owned(),
                    reason: "not a directory".into(),
                });
            }
            Ok(c)
        };
        let mut out = Workspaces::default();
        for p in roots {
            let path = canonical_dir(p)?;
            if out.roots.iter().any(|r| r.path == path) {
                continue;
            }
            let base = id_for(&path);
            let mut id = base.clone();
            let mut n = 2;
            while out.roots.iter().any(|r| r.id == id) {
                id = format!("{base}-{n}");
                n += 1;
            }
            out.roots.push(Root { id, path });
        }
        for p in parents {
            let path = canonical_dir(p)?;
            if !out.parents.contains(&path) {
                out.parents.push(path);
            }
        }
        Ok(out)
    }

    /// Whether no root at all is configured.
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty() && self.parents.is_empty()
    }

    /// The explicitly configured roots.
    pub fn roots(&self) -> &[Root] {
        &self.roots
    }

    /// Resolves a caller-named root: canonicalize, then it must be an allowed root.
    ///
    /// Any failure, including a root that does not exist, is `unknown_workspace`, so that the
    /// answer says nothing about what exists on the host.
    pub fn resolve(&self, raw: &str) -> Result<Root, Error> {
        if raw.is_empty() {
            return Err(Error::InvalidReference(
                "workspaceRoot must not be empty".into(),
            ));
        }
        if raw.contains('\0') {
            return Err(Error::InvalidReference(
                "workspaceRoot must not contain a NUL byte".into(),
            ));
        }
        let requested = Path::new(raw);
        if !requested.is_absolute() {
            return Err(Error::UnknownWorkspace);
        }
        let canonical = std::fs::canonicalize(requested).map_err(|_| Error::UnknownWorkspace)?;
        if let Some(root) = self.roots.iter().find(|r| r.path == canonical) {
            return Ok(root.clone());
        }
        if let Some(parent) = canonical.parent() {
            if self.parents.iter().any(|p| p == parent) && canonical.is_dir() {
                return Ok(Root {
                    id: id_for(&canonical),
                    path: canonical,
                });
            }
        }
        Err(Error::UnknownWorkspace)
    }

    /// Finds a root by its id (for `/w/{id}/…`): configured roots first, then children of
    /// the parent folders.
    pub fn by_id(&self, id: &str) -> Result<Root, Error> {
        if let Some(root) = self.roots.iter().find(|r| r.id == id) {
            return Ok(root.clone());
        }
        let plain = !id.is_empty() && id != "." && id != ".." && !id.contains(['/', '\\', '\0']);
        if plain {
            for parent in &self.parents {
                let candidate = parent.join(id);
                if let Ok(root) = self.resolve(&candidate.to_string_lossy()) {
                    return Ok(root);
                }
            }
        }
        Err(Error::UnknownWorkspace)
    }
}

fn id_for(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "root".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_configured_roots_resolve() {
        let tmp = tempfile::tempdir().unwrap();
        let ws = tmp.path().join("proj");
        let sibling = tmp.path().join("projected");
        std::fs::create_dir_all(&ws).unwrap();
        std::fs::create_dir_all(&sibling).unwrap();
        let w = Workspaces::new(std::slice::from_ref(&ws), &[]).unwrap();
        assert_eq!(w.resolve(ws.to_str().unwrap()).unwrap().id, "proj");
        // Trailing slash and `.` still canonicalize to the root.
        assert!(w.resolve(&format!("{}/.", ws.display())).is_ok());
        for bad in [
            "/".to_string(),
            sibling.display().to_string(),
            tmp.path().display().to_string(),
            format!("{}/missing", ws.display()),
            "relative".to_string(),
        ] {
            assert_eq!(w.resolve(&bad), Err(Error::UnknownWorkspace), "{bad}");
        }
    }

    #[test]
    fn parent_children_are_workspaces() {
        let tmp = tempfile::tempdir().unwrap();
        let a = tmp.path().join("a");
        std::fs::create_dir_all(a.join("deeper")).unwrap();
        let w = Workspaces::new(&[], &[tmp.path().to_owned()]).unwrap();
        assert_eq!(w.resolve(a.to_str().unwrap()).unwrap().id, "a");
        assert_eq!(w.by_id("a").unwrap().id, "a");
        assert!(w.resolve(a.join("deeper").to_str().unwrap()).is_err());
        assert!(w.resolve(tmp.path().to_str().unwrap()).is_err());
        assert!(w.by_id("..").is_err());
    }

    #[test]
    fn a_symlinked_root_counts_by_its_target() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().join("real");
        std::fs::create_dir_all(&real).unwrap();
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let w = Workspaces::new(&[real], &[]).unwrap();
        assert!(w.resolve(link.to_str().unwrap()).is_ok());
    }
}
