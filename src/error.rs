//! The one error type of previewd.
//!
//! Every failure a caller can see is a variant of [`Error`]. Each variant has a stable
//! machine-readable [`Error::code`], an HTTP status, and a human reason. The reason never
//! carries a host path or an operating-system message: those go to the log at the place the
//! error is made, and the response only says what the caller can act on.

use axum::http::StatusCode;
use serde::Serialize;

/// Result alias used across previewd.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in a request, with a stable code per variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The request body or a reference in it is malformed (missing field, bad JSON, bad path).
    #[error("{0}")]
    InvalidReference(String),
    /// A request body that is not valid JSON or not of the expected shape.
    #[error("{0}")]
    InvalidRequest(String),
    /// The named workspace root is not one this server was started with.
    #[error("the workspace root is not served by this previewd")]
    UnknownWorkspace,
    /// The path, or a link on the way to it, leads outside the workspace.
    #[error("the path leads outside the workspace")]
    OutsideWorkspace,
    /// A regular file with more than one name (a hard link), refused because its other
    /// names may lie outside the workspace and a path-based door cannot see them. Shares
    /// the code `outside_workspace`: the caller's choices are the same as for a link that
    /// leads out, and the message names the setting that allows such files.
    #[error("the file has more than one name (a hard link), which may lie outside the workspace; previewd serves such files only with preview.allow_hard_links = true")]
    HardLinked,
    /// Nothing exists at the path (or the snapshot / artifact is missing or expired).
    #[error("{0}")]
    NotFound(String),
    /// The path names something that is not a regular file.
    #[error("{0}")]
    NotAFile(String),
    /// The operating system refused to let previewd read the file.
    #[error("previewd is not permitted to read this file")]
    PermissionDenied,
    /// The file is larger than the limit for its kind.
    #[error("the file is {size} bytes, over the {limit}-byte limit for its kind")]
    TooLarge {
        /// Size in bytes as seen (at least `limit + 1` when the file grew during the read).
        size: u64,
        /// The limit that applies.
        limit: u64,
    },
    /// The file kind or the requested view is not supported.
    #[error("{0}")]
    Unsupported(String),
    /// An Office file (or another structured file) that cannot be parsed safely.
    #[error("{0}")]
    Corrupt(String),
    /// A workbook or CSV past one of the sheet limits (`office.max_sheets`,
    /// `office.max_shared_strings`, `office.max_style_records`): refused whole, since a
    /// part of it would show wrong values.
    #[error("{0}")]
    SheetTooLarge(String),
    /// A PDF that needs a password (or uses an encryption previewd cannot read), or a
    /// password-protected Office document.
    #[error("{0}")]
    Encrypted(String),
    /// The caller must authenticate (remote access with a bearer token).
    #[error("a valid bearer token is required")]
    Unauthorized,
    /// The request's `Host` is not a name this previewd answers to (DNS rebinding guard).
    #[error("previewd does not answer to this host name; add it to security.allowed_hosts if it is yours")]
    ForbiddenHost,
    /// A request that a web page of another site made (or could have made) on the user's
    /// behalf: a foreign `Origin`, `Sec-Fetch-Site: cross-site`, or a `/w/…` fetch that is not a
    /// top-level navigation.
    #[error("{0}")]
    CrossSite(String),
    /// A JSON endpoint called without `Content-Type: application/json`.
    #[error("the body must be sent with Content-Type: application/json")]
    UnsupportedMediaType,
    /// The request body is larger than `limits.request_body_bytes`.
    #[error("the request body is over the {limit}-byte limit")]
    RequestTooLarge {
        /// The limit in bytes.
        limit: u64,
    },
    /// The route exists but not for this method.
    #[error("Method not allowed")]
    MethodNotAllowed,
    /// Too many requests: the work queue is full or the client is locked out.
    #[error("{reason}")]
    Busy {
        /// Why the request was refused.
        reason: String,
        /// Seconds after which a retry may succeed.
        retry_after: Option<u64>,
    },
    /// A diff PNG/PDF would exceed its pixel or page cap even at the lowest scale. The
    /// message is contract text.
    #[error("Diff frame did not render within image size limits.")]
    ImageTooLarge,
    /// No usable browser for PNG/PDF export; the message is the contract's guidance with a
    /// reason (never a host path).
    #[error("{0}")]
    BrowserUnavailable(String),
    /// The diff artifact store holds its configured maximum (`diffs.max_total_bytes`) even
    /// after expired artifacts were swept; nothing was written.
    #[error("{0}")]
    StorageFull(String),
    /// The shared object store (`[store] backend = "s3"`) did not answer within its
    /// deadline and retries, or refused the operation; nothing was half written. The
    /// reason names the operation, never an endpoint or credential.
    #[error("{0}")]
    StoreUnavailable(String),
    /// The work did not finish before its deadline.
    #[error("the request did not finish within {0} ms")]
    Timeout(u64),
    /// A bug or an unexpected host failure; details are in the log only.
    #[error("internal error")]
    Internal,
}

impl Error {
    /// The stable, machine-readable code of this error.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidReference(_) => "invalid_reference",
            Error::InvalidRequest(_) => "invalid_request",
            Error::UnknownWorkspace => "unknown_workspace",
            Error::OutsideWorkspace | Error::HardLinked => "outside_workspace",
            Error::NotFound(_) => "not_found",
            Error::NotAFile(_) => "not_a_file",
            Error::PermissionDenied => "permission_denied",
            Error::TooLarge { .. } => "too_large",
            Error::Unsupported(_) => "unsupported",
            Error::Corrupt(_) => "corrupt",
            Error::SheetTooLarge(_) => "sheet_too_large",
            Error::Encrypted(_) => "encrypted",
            Error::Unauthorized => "unauthorized",
            Error::ForbiddenHost => "forbidden_host",
            Error::CrossSite(_) => "cross_site_request",
            Error::UnsupportedMediaType => "unsupported_media_type",
            Error::RequestTooLarge { .. } => "request_too_large",
            Error::MethodNotAllowed => "method_not_allowed",
            Error::Busy { .. } => "busy",
            Error::ImageTooLarge => "image_too_large",
            Error::BrowserUnavailable(_) => "browser_unavailable",
            Error::StorageFull(_) => "storage_full",
            Error::StoreUnavailable(_) => "store_unavailable",
            Error::Timeout(_) => "timeout",
            Error::Internal => "internal",
        }
    }

    /// The HTTP status this error maps to.
    pub fn status(&self) -> StatusCode {
        match self {
            Error::InvalidReference(_) | Error::InvalidRequest(_) => StatusCode::BAD_REQUEST,
            Error::UnknownWorkspace
            | Error::OutsideWorkspace
            | Error::HardLinked
            | Error::PermissionDenied
            | Error::ForbiddenHost
            | Error::CrossSite(_) => StatusCode::FORBIDDEN,
            Error::NotFound(_) => StatusCode::NOT_FOUND,
            Error::NotAFile(_)
            | Error::Corrupt(_)
            | Error::SheetTooLarge(_)
            | Error::Encrypted(_)
            | Error::ImageTooLarge => StatusCode::UNPROCESSABLE_ENTITY,
            Error::TooLarge { .. } | Error::RequestTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            Error::Unsupported(_) | Error::UnsupportedMediaType => {
                StatusCode::UNSUPPORTED_MEDIA_TYPE
            }
            Error::Unauthorized => StatusCode::UNAUTHORIZED,
            Error::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Error::Busy { .. } => StatusCode::TOO_MANY_REQUESTS,
            Error::Timeout(_) | Error::BrowserUnavailable(_) | Error::StoreUnavailable(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            Error::StorageFull(_) => StatusCode::INSUFFICIENT_STORAGE,
            Error::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// Shorthand for a `not_found` error with a reason.
    pub fn not_found(reason: impl Into<String>) -> Self {
        Error::NotFound(reason.into())
    }

    /// The JSON body sent to clients.
    pub fn body(&self) -> ErrorBody {
        let (size, limit) = match self {
            Error::TooLarge { size, limit } => (Some(*size), Some(*limit)),
            Error::RequestTooLarge { limit } => (None, Some(*limit)),
            _ => (None, None),
        };
        ErrorBody {
            error: ErrorDetail {
                code: self.code(),
                message: self.to_string(),
                size,
                limit,
            },
        }
    }
}

/// The JSON error body: `{"error": {"code": …, "message": …}}`.
#[derive(Debug, Serialize)]
pub struct ErrorBody {
    /// The error itself.
    pub error: ErrorDetail,
}

/// Code, human message, and for `too_large` the size and the limit.
#[derive(Debug, Serialize)]
pub struct ErrorDetail {
    /// Stable code, see [`Error::code`].
    pub code: &'static str,
    /// A human reason; never a host path or an OS message.
    pub message: String,
    /// File size in bytes (`too_large` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// The limit in bytes (`too_large` and `request_too_large`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// One error of every variant.
    pub(crate) fn examples() -> Vec<Error> {
        vec![
            Error::InvalidReference(String::new()),
            Error::InvalidRequest(String::new()),
            Error::UnknownWorkspace,
            Error::OutsideWorkspace,
            Error::HardLinked,
            Error::NotFound(String::new()),
            Error::NotAFile(String::new()),
            Error::PermissionDenied,
            Error::TooLarge { size: 0, limit: 0 },
            Error::Unsupported(String::new()),
            Error::Corrupt(String::new()),
            Error::SheetTooLarge(String::new()),
            Error::Encrypted(String::new()),
            Error::Unauthorized,
            Error::ForbiddenHost,
            Error::CrossSite(String::new()),
            Error::UnsupportedMediaType,
            Error::RequestTooLarge { limit: 0 },
            Error::MethodNotAllowed,
            Error::Busy {
                reason: String::new(),
                retry_after: None,
            },
            Error::ImageTooLarge,
            Error::BrowserUnavailable(String::new()),
            Error::StorageFull(String::new()),
            Error::StoreUnavailable(String::new()),
            Error::Timeout(0),
            Error::Internal,
        ]
    }

    #[test]
    fn too_large_body_carries_size_and_limit() {
        let body = serde_json::to_value(
            Error::TooLarge {
                size: 11,
                limit: 10,
            }
            .body(),
        )
        .unwrap();
        assert_eq!(body["error"]["code"], "too_large");
        assert_eq!(body["error"]["size"], 11);
        assert_eq!(body["error"]["limit"], 10);
        assert_eq!(
            Error::TooLarge {
                size: 11,
                limit: 10
            }
            .status(),
            StatusCode::PAYLOAD_TOO_LARGE
        );
    }

    #[test]
    fn codes_are_distinct() {
        // Every variant but the one deliberate alias below.
        let all: Vec<Error> = examples()
            .into_iter()
            .filter(|e| !matches!(e, Error::HardLinked))
            .collect();
        let mut codes: Vec<_> = all.iter().map(Error::code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), all.len());
        // The one deliberate alias: a hard link is refused like a link that leads out.
        assert_eq!(Error::HardLinked.code(), Error::OutsideWorkspace.code());
        assert_eq!(Error::HardLinked.status(), Error::OutsideWorkspace.status());
    }
}
