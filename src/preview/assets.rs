//! previewd's own stylesheets and scripts (`/static/…`), embedded in the binary, and the
//! version that lets a browser keep them.
//!
//! Every view page loads several of these; sent `no-store` (the service's default), a
//! browser fetched them again for every preview it opened, and a sheet opened in the
//! shell waited for two rounds of them (the shell's, then its grid frame's) before the
//! first row. Pages therefore link them under `/static/{version}/{file}`, where the
//! version is a digest of every asset's bytes: an answer under the current version is
//! cached for good (`immutable`), a new build changes every URL, and an old page asking
//! for an old version gets the current bytes uncached.

use std::sync::LazyLock;

use sha2::{Digest, Sha256};

/// The cache policy of an asset asked for under the current version.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// An embedded asset: its bytes and `Content-Type`.
#[derive(Debug, Clone, Copy)]
pub struct Asset {
    /// The file's text.
    pub body: &'static str,
    /// Its media type with charset.
    pub content_type: &'static str,
}

const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";

/// The grid's stylesheet: the table styles shared with the standalone page, then the
/// viewer's own.
static SHEET_CSS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{}\n{}",
        crate::office::xlsx::grid::TABLE_CSS,
        include_str!("../../viewers/sheet/sheet.css")
    )
});

/// Every asset by name, in a fixed order (the version digest depends on it).
fn all() -> [(&'static str, Asset); 15] {
    let asset = |body, content_type| Asset { body, content_type };
    [
        (
            "base.css",
            asset(include_str!("../../static/base.css"), CSS),
        ),
        (
            "shell.css",
            asset(include_str!("../../viewers/shell/shell.css"), CSS),
        ),
        (
            "shell.js",
            asset(include_str!("../../viewers/shell/shell.js"), JS),
        ),
        ("highlight.css", asset(crate::highlight::stylesheet(), CSS)),
        ("docx.css", asset(crate::office::docx::STYLESHEET, CSS)),
        ("docx-pages.js", asset(crate::office::docx::PAGES_JS, JS)),
        ("pptx.css", asset(crate::office::pptx::STYLESHEET, CSS)),
        (
            "pptx-viewer.css",
            asset(crate::office::pptx::VIEWER_CSS, CSS),
        ),
        ("pptx.js", asset(crate::office::pptx::VIEWER_JS, JS)),
        (
            "pdf-viewer.js",
            asset(include_str!("../../viewers/pdf/pdf-viewer.js"), JS),
        ),
        (
            "pdf-viewer.css",
            asset(include_str!("../../viewers/pdf/pdf-viewer.css"), CSS),
        ),
        ("sheet.css", asset(SHEET_CSS.as_str(), CSS)),
        (
            "sheet.js",
            asset(include_str!("../../viewers/sheet/sheet.js"), JS),
        ),
        (
            "drawings.js",
            asset(include_str!("../../viewers/sheet/drawings.js"), JS),
        ),
        (
            "tables.js",
            asset(include_str!("../../viewers/sheet/tables.js"), JS),
        ),
    ]
}

/// The asset called `name`, if previewd has one.
pub fn get(name: &str) -> Option<Asset> {
    all().into_iter().find(|(n, _)| *n == name).map(|(_, a)| a)
}

/// The digest of every asset (16 hex digits): the `{version}` of their URLs.
pub fn version() -> &'static str {
    static VERSION: LazyLock<String> = LazyLock::new(|| {
        let mut hasher = Sha256::new();
        for (name, asset) in all() {
            hasher.update(name.as_bytes());
            hasher.update([0]);
            hasher.update(asset.body.as_bytes());
            hasher.update([0]);
        }
        hex::encode(&hasher.finalize()[..8])
    });
    &VERSION
}

/// `{root}static/{version}/`: where a page whose URL is `root` below the service's root
/// links the assets.
pub fn prefix(root: &str) -> String {
    format!("{root}static/{}/", version())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_asset_is_found_by_its_name() {
        for (name, asset) in all() {
            assert_eq!(get(name).unwrap().body, asset.body, "{name}");
            assert!(!asset.body.is_empty(), "{name}");
        }
        assert!(get("../Cargo.toml").is_none());
    }

    #[test]
    fn the_version_is_a_stable_digest_of_the_bytes() {
        assert_eq!(version().len(), 16);
        assert!(version().bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(version(), version());
        assert_eq!(
            prefix("../../../"),
            format!("../../../static/{}/", version())
        );
    }
}
