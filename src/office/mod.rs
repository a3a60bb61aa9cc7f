//! Office Open XML documents (DOCX, PPTX, XLSX): the guarded container layer and the format
//! parsers built on it.
//!
//! [`OfficePackage`] opens a zip from in-memory bytes behind the container guard (entry
//! count, names, per-part/total/ratio inflation caps, XML depth and size, no DTD, image
//! pixel cap; see [`OfficeLimits`]), resolves content types and relationships (strict and
//! transitional OOXML folded together), and inflates parts lazily. Every refusal is an
//! [`OfficeError`] with a stable code and a human reason.
//!
//! Format parsers produce plain serde models (no HTML in them); renderers turn a model
//! into HTML.

mod archive;
mod bytes;
pub mod cfb;
pub mod chart;
pub mod content_types;
pub mod core_props;
pub mod docx;
pub mod drawingml;
pub mod error;
pub mod fonts;
pub mod image;
pub mod limits;
pub mod math;
pub mod media;
pub mod metafile;
pub mod names;
pub mod ns;
pub mod package;
pub mod pptx;
pub mod relationships;
pub mod smartart;
pub mod xlsx;
pub mod xml;

pub use core_props::CoreProperties;
pub use error::{OfficeError, OfficeErrorKind, OfficeResult};
pub use image::{ImageFormat, ImageHeader};
pub use limits::OfficeLimits;
pub use ns::Ns;
pub use package::{MainPart, OfficePackage};
pub use relationships::{RelTarget, Relationship, Relationships};

#[cfg(test)]
mod tests;
