//! Fonts of the Office viewers: which open family stands in for a font a document names
//! ([`resolve`]), the machine's fonts previewd serves ([`catalog`]), the fonts a document
//! embeds ([`embedded`]), and the stacks and `@font-face` rules of one rendered document
//! ([`plan`]).

pub mod catalog;
pub mod embedded;
pub mod mtx;
pub mod plan;
pub mod resolve;

pub use catalog::{CatalogFace, FontCatalog, FontFile};
pub use embedded::{document_fonts, DocumentFonts, EmbeddedFont};
pub use plan::{FontPlan, FontSources};
pub use resolve::{resolve, FontHints, FontStack, Generic};
