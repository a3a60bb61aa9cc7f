//! The body of a JSON endpoint: `Content-Type: application/json` or nothing.
//!
//! A web page can send `text/plain`, form and multipart bodies to any origin without a CORS
//! preflight (`fetch(url, {mode: "no-cors", method: "POST"})`, a plain `<form>`). Insisting on
//! `application/json` makes every cross-origin call to the API preflighted, and previewd answers
//! no preflight, so the browser never sends the call. The size limit
//! (`limits.request_body_bytes`) is enforced here too, with the JSON error instead of the
//! framework's plain-text 413.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderMap, StatusCode};

use super::AppState;
use crate::error::Error;

/// The raw bytes of a JSON request body, read within the body limit.
#[derive(Debug)]
pub struct JsonBody(pub Bytes);

impl FromRequest<Arc<AppState>> for JsonBody {
    type Rejection = Error;

    async fn from_request(req: Request, state: &Arc<AppState>) -> Result<Self, Error> {
        if !is_json(req.headers()) {
            return Err(Error::UnsupportedMediaType);
        }
        match Bytes::from_request(req, state).await {
            Ok(bytes) => Ok(JsonBody(bytes)),
            Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Err(Error::RequestTooLarge {
                    limit: state.config.limits.request_body_bytes as u64,
                })
            }
            Err(rejection) => {
                tracing::debug!(error = %rejection.body_text(), "cannot read a request body");
                Err(Error::InvalidRequest(
                    "the request body could not be read".into(),
                ))
            }
        }
    }
}

/// Whether the request says its body is JSON (`application/json`, parameters allowed).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn only_application_json_is_json() {
        let with = |v: &'static str| {
            let mut h = HeaderMap::new();
            h.insert(header::CONTENT_TYPE, HeaderValue::from_static(v));
            is_json(&h)
        };
        assert!(with("application/json"));
        assert!(with("Application/JSON; charset=utf-8"));
        for bad in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/jsonp",
            "text/plain; application/json",
        ] {
            assert!(!with(bad), "{bad}");
        }
        assert!(!is_json(&HeaderMap::new()));
    }
}
