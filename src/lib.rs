//! previewd: read-only previews of workspace files and of changes to them.
//!
//! Everything flows one way. A [`workspace::WorkspaceFileRef`] goes through the one door to
//! the disk ([`workspace::Door`]), which opens the file beneath an allowed root with a
//! capability handle and returns a bounded [`workspace::ScopedRead`]. A
//! [`preview::Snapshot`] keeps that read, and every view of the file (HTML Preview in a
//! sandbox, Source, Markdown, image, info) is rendered from it without touching the disk
//! again. [`server`] is a thin HTTP shell over these calls; the same calls serve the CLI and
//! library users. Limits live in [`config::Config`]; failures are [`error::Error`] values with
//! stable codes.

#![deny(missing_docs)]

pub mod activity;
pub mod cli;
pub mod config;
pub mod config_reference;
pub mod csv;
pub mod diff;
pub mod error;
pub mod export;
pub mod highlight;
pub mod logging;
pub mod markup;
pub mod office;
pub mod pdf;
pub mod preview;
pub mod server;
pub mod store;
pub mod time;
pub mod workspace;

pub use config::Config;
pub use error::{Error, Result};
