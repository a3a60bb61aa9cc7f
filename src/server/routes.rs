//! The one route table.

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;

use super::{
    activity, api, diffs, fonts, guard, metrics, pdf, sheet, sheet_chart, views, AppState,
};
use crate::error::Error;

/// Builds the router over shared state.
pub fn router(state: Arc<AppState>) -> Router {
    let body_limit = state.config.limits.request_body_bytes;
    Router::new()
        .route("/", get(index))
        .route("/healthz", get(api::health))
        .route("/metrics", get(metrics::metrics))
        .route("/api/v1/previews", post(api::create_preview))
        .route("/api/v1/stat", post(api::stat))
        .route("/api/v1/openapi.json", get(openapi_document))
        .route("/p/{id}/{token}", get(views::snapshot_root))
        .route("/p/{id}/{token}/", get(views::shell_default))
        .route("/p/{id}/{token}/raw", get(views::raw))
        .route("/p/{id}/{token}/model.json", get(views::model_json))
        .route("/p/{id}/{token}/media/{*part}", get(views::media))
        .route("/p/{id}/{token}/font/{n}", get(fonts::embedded))
        .route("/p/{id}/{token}/doc/{*path}", get(views::document))
        .route("/p/{id}/{token}/grid/", get(sheet::page))
        .route("/p/{id}/{token}/grid/{file}", get(sheet::file))
        .route(
            "/p/{id}/{token}/grid/rows/{sheet}/{block}",
            get(sheet::rows),
        )
        .route("/p/{id}/{token}/grid/find/{sheet}", get(sheet::find))
        .route(
            "/p/{id}/{token}/grid/chart/{sheet}/{n}",
            get(sheet_chart::chart),
        )
        .route("/p/{id}/{token}/page/{n}", get(pdf::page))
        .route("/p/{id}/{token}/text/{n}", get(pdf::text))
        .route("/p/{id}/{token}/{view}", get(views::shell_view))
        .route("/w/{workspace}/{*path}", get(views::browse))
        .route("/static/{file}", get(views::static_file))
        .route("/static/{version}/{file}", get(views::static_versioned))
        .route("/fonts/{id}", get(fonts::machine))
        .route("/api/v1/diffs", post(diffs::create))
        .route("/api/v1/activity", post(activity::activity))
        .route("/api/v1/activity/changes", post(activity::changes))
        .route("/plugins/diffs/view/{id}/{token}", get(diffs::viewer))
        .route("/plugins/diffs/assets/{name}", get(diffs::asset))
        .route("/plugins/diffs/file/{id}/{token}", get(diffs::file))
        .fallback(|| async { Error::not_found("no such route").into_response() })
        .method_not_allowed_fallback(|| async { Error::MethodNotAllowed.into_response() })
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::access,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::web,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::headers,
        ))
        .with_state(state)
}

/// `GET /api/v1/openapi.json`: the description, naming this service as its server.
async fn openapi_document(
    axum::extract::State(state): axum::extract::State<Arc<AppState>>,
) -> axum::response::Response {
    super::response::json(
        axum::http::StatusCode::OK,
        &super::openapi::document(&state.base_url),
    )
}

async fn index() -> axum::response::Response {
    super::response::json(
        axum::http::StatusCode::OK,
        &serde_json::json!({
            "name": "previewd",
            "version": env!("CARGO_PKG_VERSION"),
            "api": ["POST /api/v1/previews", "POST /api/v1/stat", "POST /api/v1/diffs", "POST /api/v1/activity", "POST /api/v1/activity/changes", "GET /api/v1/openapi.json", "GET /healthz", "GET /metrics"],
        }),
    )
}
