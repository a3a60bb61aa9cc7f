//! Turning results into HTTP responses: errors as JSON with their code, pages and JSON
//! bodies with the right content type and CSP.

use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::error::Error;

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        let status = self.status();
        let body = serde_json::to_vec(&self.body()).unwrap_or_default();
        let mut response = Response::new(Body::from(body));
        *response.status_mut() = status;
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        if let Error::Busy {
            retry_after: Some(secs),
            ..
        } = &self
        {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(*secs));
        }
        if let Error::Unauthorized = &self {
            headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

/// A JSON response with a status.
pub fn json<T: Serialize>(status: StatusCode, value: &T) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => {
            let mut response = Response::new(Body::from(body));
            *response.status_mut() = status;
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            response
        }
        Err(e) => {
            tracing::error!(error = %e, "cannot serialize a response");
            Error::Internal.into_response()
        }
    }
}

/// A body with a content type and a content security policy.
pub fn with_type(body: impl Into<Body>, content_type: &'static str, csp: Option<&str>) -> Response {
    let mut response = Response::new(body.into());
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Some(csp) = csp.and_then(|c| HeaderValue::from_str(c).ok()) {
        headers.insert(header::CONTENT_SECURITY_POLICY, csp);
    }
    response
}

/// Parses a JSON request body into `T`, mapping every failure to `invalid_request` with
/// serde's description (which names fields, never host paths).
pub fn parse_json<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, Error> {
    serde_json::from_slice(body).map_err(|e| {
        let what = match e.classify() {
            serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
                "the body is not valid JSON"
            }
            _ => "the body does not have the expected fields",
        };
        Error::InvalidRequest(format!("{what}: {e}"))
    })
}

/// A redirect to a relative location (so a base-path prefix survives).
pub fn see_other(location: &str) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::SEE_OTHER;
    if let Ok(v) = HeaderValue::from_str(location) {
        response.headers_mut().insert(header::LOCATION, v);
    }
    response
}
