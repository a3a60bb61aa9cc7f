//! Fonts of the Office viewers: which open family stands in for a font a document names
//! ([`resolve`]), the machine's fonts previewd serves ([`catalog`]), the fonts a document
//! embeds ([`embedded`]), and the stacks and `@font-face` rules of one rendered document
//! ([`plan`]).

pub mod advance;
pub mod catalog;
pub mod embedded;
pub mod mtx;
pub mod plan;
pub mod resolve;
pub mod scan;

pub use advance::Advances;
pub use catalog::{CatalogFace, FontCatalog, FontFile, LineMetrics};
pub use embedded::{document_fonts, DocumentFonts, EmbeddedFont, NamedFont};
pub use plan::{FontPlan, FontSources, MachineFonts};
pub use resolve::{legacy_symbol, resolve, FontHints, FontStack, Generic};
