//! The grid viewer's markup (`viewers/sheet/`), shared by the two places it is drawn: the
//! preview shell's Sheet panel, where it is part of the shell's own document, and the grid
//! page (`grid/`), where it is alone (for clients that frame just the grid).
//!
//! Drawing it in the shell instead of framing `grid/` saves a whole navigation (the frame's
//! request, its document, its stylesheet and scripts parsed again) on the path to a sheet's
//! first screen. The shell's CSP already lets its own scripts fetch from the service, which
//! the viewer needs for its row blocks.

use super::office::OfficeModel;
use super::Snapshot;
use crate::markup::{escape, fill};

const VIEWER: &str = include_str!("../../viewers/sheet/grid-body.html");

/// Where the viewer sits, which decides its URLs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Host {
    /// The shell's Sheet panel (`/p/{id}/{token}/` or a view URL beside it).
    Shell,
    /// The grid page (`/p/{id}/{token}/grid/`).
    GridPage,
}

impl Host {
    /// The grid's routes (`meta.json`, `rows/…`, `find/…`, `chart/…`) from the host page.
    fn grid(self) -> &'static str {
        match self {
            Host::Shell => "grid/",
            Host::GridPage => "",
        }
    }

    /// The snapshot's own routes (`media/…`) from the host page.
    fn snapshot(self) -> &'static str {
        match self {
            Host::Shell => "",
            Host::GridPage => "../",
        }
    }
}

/// The sheet the viewer opens on: the workbook's active sheet, or for a table still read
/// in the background the sheet it is reading (without waiting for its lock).
pub fn active_sheet(snapshot: &Snapshot) -> usize {
    match (&snapshot.office, &snapshot.live) {
        (Some(OfficeModel::Sheet(book)), _) => book.active,
        (_, Some(live)) => live.progress().sheet,
        _ => 0,
    }
}

/// The viewer's first row block, relative to the grid's routes.
fn first_block(snapshot: &Snapshot) -> String {
    format!("rows/{}/0", active_sheet(snapshot))
}

/// The viewer's markup for `host`.
pub fn viewer(snapshot: &Snapshot, host: Host) -> String {
    fill(
        VIEWER,
        &[
            ("name", &escape(snapshot.read.file_name())),
            ("grid", host.grid()),
            ("snapshot", host.snapshot()),
            ("first_block", &first_block(snapshot)),
        ],
    )
}

/// `<link rel=preload>` elements for the viewer's first two requests, so they start while
/// the page is parsed instead of after its script.
pub fn preloads(snapshot: &Snapshot, host: Host) -> String {
    let grid = host.grid();
    format!(
        "<link rel=\"preload\" href=\"{grid}meta.json\" as=\"fetch\" crossorigin>\
         <link rel=\"preload\" href=\"{grid}{}\" as=\"fetch\" crossorigin>",
        first_block(snapshot)
    )
}

/// The viewer's stylesheet and scripts (deferred, in the order they depend on each other),
/// from the static prefix `prefix`.
pub fn head(prefix: &str) -> String {
    let p = escape(prefix);
    format!(
        "<link rel=\"stylesheet\" href=\"{p}sheet.css\">\
         <script src=\"{p}drawings.js\" defer></script>\
         <script src=\"{p}tables.js\" defer></script>\
         <script src=\"{p}sheet.js\" defer></script>"
    )
}
