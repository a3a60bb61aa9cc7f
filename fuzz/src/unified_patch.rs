//! The unified-patch parser (git, diff -u, hg, svn) on arbitrary text: never panics, and a
//! parsed model renders back to a patch that parses again.

/// One input.
pub fn run(data: &str) {
    if let Ok(model) = previewd::diff::parse_patch(data) {
        let again = model.to_unified();
        let _ = previewd::diff::parse_patch(&again);
    }
}
