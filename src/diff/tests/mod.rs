//! Tests of the diff module: the contract (one per message and alias), the patch parser on
//! real `git diff` output and hand-written `diff -u`/hg/svn samples, hostile inputs, the
//! before/after model, and round-trip properties.

mod contract;
mod hostile;
mod patch_fixtures;
mod properties;
mod text_model;

use std::path::PathBuf;

/// Reads `fixtures/patches/<name>`; the scratch crate and the main crate both put
/// `fixtures/` beside their manifest.
pub(super) fn fixture(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "fixtures", "patches", name]
        .iter()
        .collect();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}
