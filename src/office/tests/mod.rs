//! Tests of the Office layer that span modules: hostile packages, the corpus walk, and
//! (under `docx`) feature tests of the DOCX parser on small hand-built packages.

mod chart_documents;
mod docx_corpus;
mod docx_features;
mod docx_floats;
mod docx_forms;
mod docx_groups;
mod docx_layout;
mod docx_render;
mod hostile;
mod metafile_pictures;
mod package_corpus;
mod pptx_corpus;
mod pptx_features;
mod pptx_geometry;
mod pptx_hostile;
pub(crate) mod support;
