//! Page handlers: the snapshot shell and its views, raw bytes, the sandboxed document and
//! its sibling assets, the browser entry `/w/…`, and previewd's own static files.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};

use super::api::create_snapshot;
use super::response::{see_other, with_type};
use super::AppState;
use crate::error::Error;
use crate::markup::encode_path;
use crate::preview::assets;
use crate::preview::document::{
    self, content_type, doc_csp, with_bootstrap, DocScope, DOC_CSP_EXTRA,
};
use crate::preview::image::inspect;
use crate::preview::inert::{inert_page, inert_page_without_scripts};
use crate::preview::shell::{self, ShellOptions};
use crate::preview::{views_for, Snapshot, View};
use crate::workspace::{check_relative_path, FileKind, RelativePath, WorkspaceFileRef};

/// `/p/{id}/{token}` without the trailing slash: relative URLs need the folder form.
/// Only a live snapshot's own token is echoed into `Location`: a decoded path segment such
/// as `%2F%2Fevil.example` would otherwise make this an open redirect.
pub async fn snapshot_root(
    State(state): State<Arc<AppState>>,
    Path((id, token)): Path<(String, String)>,
) -> Result<Response, Error> {
    state.snapshots.get(&id, &token)?;
    Ok(see_other(&format!("{token}/")))
}

/// `/p/{id}/{token}/`: the shell on the default view.
pub async fn shell_default(
    State(state): State<Arc<AppState>>,
    Path((id, token)): Path<(String, String)>,
) -> Result<Response, Error> {
    let snapshot = state.snapshots.get(&id, &token)?;
    let view = views_for(snapshot.read.kind)[0];
    render_shell(&state, snapshot, view).await
}

/// `/p/{id}/{token}/{view}`: the shell on a named view.
pub async fn shell_view(
    State(state): State<Arc<AppState>>,
    Path((id, token, view)): Path<(String, String, String)>,
) -> Result<Response, Error> {
    let snapshot = state.snapshots.get(&id, &token)?;
    let view = View::from_name(&view)
        .filter(|v| views_for(snapshot.read.kind).contains(v))
        .ok_or_else(|| Error::not_found("this file has no such view"))?;
    render_shell(&state, snapshot, view).await
}

/// The service's root from a view URL (`/p/{id}/{token}/{view}`).
const SHELL_ROOT: &str = "../../../";

async fn render_shell(
    state: &Arc<AppState>,
    snapshot: Arc<Snapshot>,
    view: View,
) -> Result<Response, Error> {
    let options = ShellOptions {
        static_prefix: assets::prefix(SHELL_ROOT),
        fonts_prefix: format!("{SHELL_ROOT}fonts/"),
        html_scripts: state.config.preview.html_scripts,
        highlight_bytes: state.config.limits.highlight_bytes,
        rendered_view_bytes: state.config.limits.rendered_view_bytes,
        fonts: Some(state.fonts.clone()),
        office_limits: state.config.office.clone(),
    };
    // Rendering (highlighting above all) is CPU work: off the async runtime.
    let rendered = snapshot.clone();
    let page = state
        .pool
        .run(move || Ok(shell::render(&rendered, view, &options)))
        .await?;
    // The view may have just been cached: charge the store for it.
    state.snapshots.recharge(&snapshot);
    Ok(with_type(
        page,
        "text/html; charset=utf-8",
        Some(&state.shell_csp),
    ))
}

/// `/p/{id}/{token}/raw`: the snapshot's bytes, never as active content.
pub async fn raw(
    State(state): State<Arc<AppState>>,
    Path((id, token)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, Error> {
    let snapshot = state.snapshots.get(&id, &token)?;
    if let Some(live) = &snapshot.live {
        // A table read in the background: its bytes are served once all are in.
        live.wait_complete(crate::csv::live::READ_WAIT).await;
    }
    let bytes = snapshot
        .bytes()
        .ok_or_else(|| Error::Unsupported("this file's bytes are not kept".into()))?;
    let name = snapshot.read.file_name();
    let content_type = match snapshot.read.kind {
        FileKind::Image => match inspect(&bytes, name).mime {
            // An SVG opened as a page would act on the network: see `document::svg_type`.
            "image/svg+xml" => document::svg_type(fetch_dest(&headers)),
            mime => mime,
        },
        FileKind::Docx | FileKind::Pptx => "application/octet-stream",
        // Text of every kind, HTML included, is served as plain text: the raw view is for
        // reading and saving, never for running.
        _ => "text/plain; charset=utf-8",
    };
    let body = state
        .inflight
        .body(axum::body::Bytes::from_owner(ArcBytes(bytes)))?;
    let mut response = with_type(
        body,
        content_type,
        Some("sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'"),
    );
    if matches!(snapshot.read.kind, FileKind::Docx | FileKind::Pptx) {
        if let Ok(v) = HeaderValue::from_str(&format!(
            "attachment; filename*=UTF-8''{}",
            encode_path(name).replace('/', "%2F")
        )) {
            response
                .headers_mut()
                .insert(header::CONTENT_DISPOSITION, v);
        }
    }
    Ok(response)
}

struct ArcBytes(Arc<[u8]>);

impl AsRef<[u8]> for ArcBytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// `/p/{id}/{token}/doc/{path}`: the previewed HTML page (from the snapshot) or a sibling
/// asset of its own folder subtree (a fresh scoped read), confined by the sandbox CSP.
/// What each kind of snapshot may reach here is [`document::scope`].
pub async fn document(
    State(state): State<Arc<AppState>>,
    Path((id, token, path)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Result<Response, Error> {
    let snapshot = state.snapshots.get(&id, &token)?;
    let scripts = state.config.preview.html_scripts;
    let absent = || Error::not_found("no such file in the workspace");
    let relative = check_relative_path(&path, state.config.limits.relative_path_bytes)
        .map_err(|_| absent())?;
    let page = &snapshot.read.relative_path;
    let scope = document::scope(snapshot.read.kind, page).ok_or_else(absent)?;
    // The subtree and hidden-entry rules come before anything else, the redirect included,
    // so no request here names a file outside them.
    if !document::in_subtree(page, &relative) {
        return Err(absent());
    }
    let top_level = fetch_dest(&headers) == Some(b"document");
    let is_page = runs_script(relative.file_name());
    if top_level && (is_page || scope == DocScope::Images) {
        return framed_elsewhere(&state, &snapshot, &path, &relative).await;
    }
    if !scope.allows(page, &relative) {
        return Err(absent());
    }
    let bytes: Vec<u8> = if relative == *page {
        // The page itself comes from the snapshot: Preview and Source show the same bytes.
        snapshot.read.bytes.as_deref().unwrap_or_default().to_vec()
    } else {
        read_sibling(&state, &snapshot, relative.clone()).await?
    };
    let is_html = content_type(relative.file_name()) == "text/html; charset=utf-8";
    let body = if is_html {
        // Rewriting a page of up to the HTML limit is CPU work: off the async runtime.
        state
            .pool
            .run(move || {
                if scripts {
                    Ok(with_bootstrap(&inert_page(&bytes)?))
                } else {
                    inert_page_without_scripts(&bytes)
                }
            })
            .await?
    } else {
        bytes
    };
    let kind = match content_type(relative.file_name()) {
        "image/svg+xml" => document::svg_type(fetch_dest(&headers)),
        kind => kind,
    };
    // A sibling asset (up to `limits.asset_bytes`) is held until the client has read it:
    // it counts against the in-flight budget like every other large body.
    let body = state.inflight.body(axum::body::Bytes::from(body))?;
    let mut response = with_type(body, kind, Some(doc_csp(scripts)));
    let response_headers = response.headers_mut();
    response_headers.append(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(DOC_CSP_EXTRA),
    );
    response_headers.insert(
        header::VARY,
        HeaderValue::from_static("Origin, Sec-Fetch-Mode"),
    );
    let fetch_mode = headers.get("sec-fetch-mode").map(HeaderValue::as_bytes);
    let origin = headers.get(header::ORIGIN).map(HeaderValue::as_bytes);
    if document::needs_cors(relative.file_name(), fetch_mode, origin) {
        response_headers.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("null"),
        );
    }
    Ok(response)
}

/// The request's `Sec-Fetch-Dest`, when the client sent one.
fn fetch_dest(headers: &HeaderMap) -> Option<&[u8]> {
    headers.get("sec-fetch-dest").map(HeaderValue::as_bytes)
}

/// A top-level visit to a page of the subtree (or, from Markdown, to any file of it):
/// opened as a whole tab, a page's `top` would be itself, so its script could navigate
/// the tab (to any URL, with what it has read). People are sent to a shell, which frames
/// it in the sandbox: the page's own, or a fresh preview of the file. Clients that send no
/// fetch metadata get the sandbox CSP instead.
async fn framed_elsewhere(
    state: &Arc<AppState>,
    snapshot: &Snapshot,
    path: &str,
    relative: &RelativePath,
) -> Result<Response, Error> {
    let up = "../".repeat(path.split('/').count());
    if *relative == snapshot.read.relative_path {
        let view = views_for(snapshot.read.kind)[0];
        return Ok(see_other(&format!("{up}{}", view.name())));
    }
    let reference = WorkspaceFileRef {
        workspace_root: snapshot.root.path.to_string_lossy().into_owned(),
        relative_path: relative.as_str().to_string(),
    };
    let created = create_snapshot(state, reference).await?;
    Ok(see_other(&format!(
        "{up}../../{}/{}/",
        created.snapshot.id, created.token
    )))
}

/// A fresh scoped read of a sibling; anything that is not a readable file inside the
/// workspace is simply absent.
async fn read_sibling(
    state: &Arc<AppState>,
    snapshot: &Snapshot,
    sibling: RelativePath,
) -> Result<Vec<u8>, Error> {
    let door = state.door.clone();
    let root = snapshot.root.clone();
    state
        .pool
        .run(move || door.read_asset(&root, &sibling))
        .await
        .map_err(|e| match e {
            Error::OutsideWorkspace
            | Error::NotFound(_)
            | Error::NotAFile(_)
            | Error::PermissionDenied
            | Error::InvalidReference(_)
            | Error::UnknownWorkspace => Error::not_found("no such file in the workspace"),
            other => other,
        })
}

/// Whether a browser runs script in this file when it is opened as a page: HTML, SVG and
/// XML (which may hold XHTML).
fn runs_script(file_name: &str) -> bool {
    let lower = file_name.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
    matches!(
        ext,
        "html" | "htm" | "svg" | "svgz" | "xhtml" | "xht" | "xml" | "xsl" | "xslt"
    )
}

/// `/p/{id}/{token}/model.json`: the parsed model of an Office file, serialised once per
/// snapshot content and kept (charged to the store).
pub async fn model_json(
    State(state): State<Arc<AppState>>,
    Path((id, token)): Path<(String, String)>,
) -> Result<Response, Error> {
    let snapshot = state.snapshots.get(&id, &token)?;
    if let Some(live) = snapshot.live.clone() {
        return crate::server::sheet::live_model_json(&state, snapshot, live).await;
    }
    let model = snapshot
        .office
        .clone()
        .ok_or_else(|| Error::not_found("this file has no document model"))?;
    let body = match snapshot.rendered.model_json.get() {
        Some(body) => body.clone(),
        None => {
            let json = state.pool.run(move || model.to_json()).await?;
            keep_model_json(&state, &snapshot, json)
        }
    };
    model_json_response(&state, body)
}

/// Keeps a snapshot's `model.json` (the first one made wins) and charges it to the store.
pub(super) fn keep_model_json(state: &AppState, snapshot: &Arc<Snapshot>, json: Vec<u8>) -> Bytes {
    let body = snapshot
        .rendered
        .model_json
        .get_or_init(|| Bytes::from(json))
        .clone();
    state.snapshots.recharge(snapshot);
    body
}

/// `model.json` as served.
pub(super) fn model_json_response(state: &AppState, body: Bytes) -> Result<Response, Error> {
    Ok(with_type(
        state.inflight.body(body)?,
        "application/json",
        None,
    ))
}

/// `/p/{id}/{token}/media/{part}`: an image part of an Office file the document shows. A
/// part is inflated once per snapshot content and kept (charged to the store); every
/// response is a view of that copy.
pub async fn media(
    State(state): State<Arc<AppState>>,
    Path((id, token, part)): Path<(String, String, String)>,
) -> Result<Response, Error> {
    let snapshot = state.snapshots.get(&id, &token)?;
    let bytes = match snapshot.rendered.media(&part) {
        Some(bytes) => bytes,
        // A workbook read in the background: its pictures once the whole file is in.
        None if snapshot.live.is_some() => {
            crate::server::sheet::live_media(&state, &snapshot, part).await?
        }
        None => {
            let model = snapshot
                .office
                .clone()
                .ok_or_else(|| Error::not_found("this file has no media"))?;
            if !model.shows_media(&part) {
                return Err(Error::not_found("no such media part"));
            }
            let limits = state.config.office.clone();
            let reader = snapshot.clone();
            let name = part.clone();
            let bytes = state
                .pool
                .run(move || {
                    // Another request may have read it while this one waited for a worker.
                    if let Some(bytes) = reader.rendered.media(&name) {
                        return Ok(bytes);
                    }
                    let file = reader.read.bytes.as_deref().unwrap_or_default();
                    let (data, _) = crate::preview::office::media(file, &model, &name, &limits)?;
                    Ok(reader.rendered.keep_media(&name, Bytes::from(data)))
                })
                .await?;
            state.snapshots.recharge(&snapshot);
            bytes
        }
    };
    let mime = crate::office::image::sniff_image(&bytes)
        .map(|h| h.format.mime())
        .unwrap_or("application/octet-stream");
    Ok(with_type(
        state.inflight.body(bytes)?,
        mime,
        // `img-src data:`: the bitmaps inside a converted EMF/WMF picture.
        Some("sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'"),
    ))
}

/// `/w/{workspace}/{path}`: make a snapshot and redirect to its shell.
pub async fn browse(
    State(state): State<Arc<AppState>>,
    Path((workspace, path)): Path<(String, String)>,
) -> Result<Response, Error> {
    let root = state.door.workspaces().by_id(&workspace)?;
    let depth = 1 + path.split('/').count();
    let reference = WorkspaceFileRef {
        workspace_root: root.path.to_string_lossy().into_owned(),
        relative_path: path,
    };
    let created = create_snapshot(&state, reference).await?;
    // A relative Location keeps a reverse proxy's base path.
    let up = "../".repeat(depth);
    Ok(see_other(&format!(
        "{up}p/{}/{}/",
        created.snapshot.id, created.token
    )))
}

/// `/static/{file}`: previewd's own CSS and JS, embedded in the binary, uncached (pages
/// link the versioned form below).
pub async fn static_file(Path(file): Path<String>) -> Response {
    static_answer(&file, false)
}

/// `/static/{version}/{file}`: the same, cached for good when `version` is the current
/// [`assets::version`] (see [`crate::preview::assets`]); an old version gets the current
/// bytes, uncached.
pub async fn static_versioned(Path((version, file)): Path<(String, String)>) -> Response {
    static_answer(&file, version == assets::version())
}

fn static_answer(file: &str, immutable: bool) -> Response {
    let Some(asset) = assets::get(file) else {
        return Error::not_found("no such asset").into_response();
    };
    let mut response = with_type(asset.body, asset.content_type, Some("default-src 'none'"));
    if immutable {
        response.headers_mut().insert(
            axum::http::header::CACHE_CONTROL,
            axum::http::HeaderValue::from_static(assets::IMMUTABLE),
        );
    }
    response
}
