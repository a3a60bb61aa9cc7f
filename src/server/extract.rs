//! `Path` and `Query` extractors whose refusals are previewd's JSON errors.
//!
//! axum's own extractors answer a segment that does not parse (a sheet index that is not a
//! number, a `scale` that is not one) with a `text/plain` 400. Every other error of the API
//! is `{"error": {"code", "message"}}`, and the OpenAPI description promises that, so
//! handlers that parse typed segments or queries use these instead; the schemathesis
//! contract test found the difference.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::response::IntoResponse;
use serde::de::DeserializeOwned;

use crate::error::Error;

/// Path segments deserialized into `T`; a refusal is `400 invalid_request`.
#[derive(Debug)]
pub struct Path<T>(pub T);

/// The query string deserialized into `T`; a refusal is `400 invalid_request`.
#[derive(Debug)]
pub struct Query<T>(pub T);

impl<S, T> FromRequestParts<S> for Path<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = axum::response::Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(Path(value)),
            Err(rejection) => Err(Error::InvalidRequest(format!(
                "the URL's path is not valid here: {}",
                rejection.body_text()
            ))
            .into_response()),
        }
    }
}

impl<S, T> FromRequestParts<S> for Query<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = axum::response::Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(Query(value)),
            Err(rejection) => Err(Error::InvalidRequest(format!(
                "the query string is not valid here: {}",
                rejection.body_text()
            ))
            .into_response()),
        }
    }
}
