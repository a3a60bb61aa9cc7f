//! Diff artifacts, first stages: the `diffs` tool contract and the diff model.
//!
//! ```text
//! JSON body ─► input::DiffRequest ─► build_model ─► DiffModel ─► (viewer, JSON, exporters)
//!   (contract, limits, defaults)      ├ before/after: text::diff_texts (similar, full text kept)
//!                                      └ patch: patch::parse_patch (git, diff -u, hg, svn)
//! ```
//!
//! [`DiffRequest::from_json`] refuses bad calls with the contract's exact messages before
//! any diffing. [`build_model`] then turns the input into one [`DiffModel`] whichever kind
//! it was, or reports [`DiffOutcome::Unchanged`] for identical texts (the contract's
//! `changed: false`). Patch complexity limits are applied while parsing. Every error is a
//! [`DiffInputError`], which the server answers with 400.
//!
//! Nothing here does I/O or renders HTML; the model is plain serde data (camelCase), so the
//! CLI's `--format json` is `serde_json::to_string(&model)`.

mod base_url;
mod error;
pub mod input;
pub mod model;
mod ops;
pub mod options;
pub mod patch;
pub mod recipe;
pub mod store;
mod text;
mod unified;
pub mod view;
mod words;

#[cfg(test)]
mod tests;

pub use base_url::normalize_base_url;
pub use error::{DiffErrorKind, DiffInputError};
pub use input::{
    DiffContext, DiffInput, DiffRequest, FileOptions, InputKind, Presentation, IDENTICAL_MESSAGE,
    MAX_CONTEXT_BYTES, MAX_REQUEST_BODY_BYTES, PRESENTATION_FIELDS,
};
pub use model::{
    DiffLine, DiffModel, FileDiff, FileStatus, FullText, Gap, Hunk, LineKind, WordSpan,
};
pub use options::{
    DiffDefaults, DiffIndicators, FileFormat, FileQuality, Layout, Mode, QualityPreset, Theme,
};
pub use patch::{parse_patch, parse_patch_with, PatchLimits, MAX_PATCH_FILES, MAX_PATCH_ROWS};
pub use text::{diff_texts, CONTEXT_LINES};
pub use words::MAX_WORD_DIFF_LINE_BYTES;

/// What a valid request turns into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffOutcome {
    /// There is something to show.
    Changed(DiffModel),
    /// Before and after are identical: answer `changed: false` with
    /// [`IDENTICAL_MESSAGE`] and create no artifact.
    Unchanged,
}

impl DiffOutcome {
    /// The contract's `changed` flag.
    pub fn changed(&self) -> bool {
        matches!(self, DiffOutcome::Changed(_))
    }

    /// The model, when there is one.
    pub fn model(&self) -> Option<&DiffModel> {
        match self {
            DiffOutcome::Changed(model) => Some(model),
            DiffOutcome::Unchanged => None,
        }
    }
}

/// Builds the model for a validated request: a line diff for before/after (with the full
/// text kept for expanding), or the parsed patch under the contract's limits.
pub fn build_model(request: &DiffRequest) -> Result<DiffOutcome, DiffInputError> {
    model_for_input(&request.input, request.path.as_deref())
}

/// [`build_model`] from the input and display path alone.
pub fn model_for_input(
    input: &DiffInput,
    path: Option<&str>,
) -> Result<DiffOutcome, DiffInputError> {
    match input {
        DiffInput::BeforeAfter { before, after } => {
            if before == after {
                return Ok(DiffOutcome::Unchanged);
            }
            Ok(DiffOutcome::Changed(diff_texts(path, before, after)))
        }
        DiffInput::Patch { patch } => parse_patch(patch).map(DiffOutcome::Changed),
        // The request holds no change: the activity projection builds this model.
        DiffInput::Session => Err(DiffInputError::new(
            DiffErrorKind::MissingInput,
            "A session's changes come from its tool calls (POST /api/v1/activity/changes).",
        )),
    }
}
