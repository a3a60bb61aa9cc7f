//! Word documents (`.docx`, `.docm`): a read-only viewer model and its parser.
//!
//! [`parse_docx`] opens the package behind the container guard and walks the main
//! document, styles, numbering, notes, comments and headers/footers into a
//! [`model::Document`]. The model holds no HTML; [`render_html`] turns it into a page
//! styled by [`STYLESHEET`].

pub mod model;
pub mod render;

mod anchor;
mod drawing;
mod fields;
mod forms;
mod layout;
mod numbering;
mod page_border;
mod parse;
mod props;
mod smartart;
mod styles;
mod tables;
mod tabs;
mod theme;

pub use parse::{parse_docx, parse_package};
pub use render::{render_html, RenderOptions, PAGES_JS, STYLESHEET};
