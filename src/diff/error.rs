//! The one error type of the diff module: a rejected diff request.
//!
//! Every failure here is the caller's fault (bad JSON, a field too large, a patch that is
//! empty or too complex), so the server maps all of them to HTTP 400. The message is the
//! contract text from `shared/spec/diffs.md` where the spec has one; it never carries a host
//! path or an OS error, so it is safe to send back as is.

use std::fmt;

/// Which rule a diff request broke; a stable code for logs and the server's error enum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DiffErrorKind {
    /// The body is not JSON, not an object, or a field has the wrong type or value.
    InvalidInput,
    /// A field names nothing the contract knows.
    UnknownField,
    /// Neither a patch nor both texts, or a patch mixed with texts.
    MissingInput,
    /// A text field is larger than its byte limit.
    FieldTooLarge,
    /// `baseUrl` is not an http(s) origin with an optional path.
    InvalidBaseUrl,
    /// The patch text holds no file diff at all.
    PatchEmpty,
    /// The patch holds more files than the viewer renders.
    PatchTooManyFiles,
    /// The patch holds more rows than the viewer renders.
    PatchTooLarge,
}

impl DiffErrorKind {
    /// A short, stable, snake_case code naming the rule.
    pub fn code(self) -> &'static str {
        match self {
            DiffErrorKind::InvalidInput => "invalid_input",
            DiffErrorKind::UnknownField => "unknown_field",
            DiffErrorKind::MissingInput => "missing_input",
            DiffErrorKind::FieldTooLarge => "field_too_large",
            DiffErrorKind::InvalidBaseUrl => "invalid_base_url",
            DiffErrorKind::PatchEmpty => "patch_empty",
            DiffErrorKind::PatchTooManyFiles => "patch_too_many_files",
            DiffErrorKind::PatchTooLarge => "patch_too_large",
        }
    }
}

/// A diff request that was refused before any rendering work; the server answers 400.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffInputError {
    kind: DiffErrorKind,
    message: String,
}

impl DiffInputError {
    /// Builds an error of `kind` with the exact text to show the caller.
    pub fn new(kind: DiffErrorKind, message: impl Into<String>) -> Self {
        DiffInputError {
            kind,
            message: message.into(),
        }
    }

    /// The text for the caller, byte for byte as the contract words it.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Which rule was broken.
    pub fn kind(&self) -> DiffErrorKind {
        self.kind
    }

    /// Shorthand for the stable code of [`Self::kind`].
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        Self::new(DiffErrorKind::InvalidInput, message)
    }
}

impl fmt::Display for DiffInputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DiffInputError {}
