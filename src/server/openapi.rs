//! The OpenAPI 3.1 description of the HTTP API, served at `GET /api/v1/openapi.json`.
//!
//! Written by hand from the route table and the contracts rather than derived from the
//! handlers: the bodies are validated by hand (the `diffs` contract's aliases, clamps and
//! exact messages do not fit a derive), so a derive would describe a type the service does
//! not really accept. Two checks keep it honest instead: a unit test that every route of
//! `routes.rs` and every error code is described, and a contract test (`tests/openapi.rs`)
//! that runs schemathesis against a live service and fails on any answer the description
//! does not allow.

use serde_json::{json, Map, Value};

/// Every error code, with its HTTP status, as the JSON error body may carry it.
pub const ERROR_CODES: &[(&str, u16)] = &[
    ("invalid_reference", 400),
    ("invalid_request", 400),
    ("unauthorized", 401),
    ("unknown_workspace", 403),
    ("outside_workspace", 403),
    ("permission_denied", 403),
    ("forbidden_host", 403),
    ("cross_site_request", 403),
    ("not_found", 404),
    ("method_not_allowed", 405),
    ("too_large", 413),
    ("request_too_large", 413),
    ("unsupported", 415),
    ("unsupported_media_type", 415),
    ("not_a_file", 422),
    ("corrupt", 422),
    ("sheet_too_large", 422),
    ("encrypted", 422),
    ("image_too_large", 422),
    ("busy", 429),
    ("internal", 500),
    ("timeout", 503),
    ("browser_unavailable", 503),
    ("store_unavailable", 503),
    ("storage_full", 507),
];

/// Statuses every route may answer with whatever it does: a refused host or cross-site
/// call, a missing token, throttling, an overloaded pool.
const ANY_ROUTE: &[u16] = &[401, 403, 429, 503];

/// The document, with `server` as its one server URL.
pub fn document(server: &str) -> Value {
    let mut paths = Map::new();
    let mut add = |path: &str, item: Value| {
        paths.insert(path.to_string(), item);
    };
    add(
        "/",
        get_op(
            "index",
            "Name, version and the API entry points.",
            &[],
            json_ok(json!({"type": "object", "required": ["name", "version", "api"]})),
            &[],
        ),
    );
    add(
        "/healthz",
        get_op(
            "health",
            "Liveness and counters: snapshots, work pool, export browser.",
            &[],
            json_ok(schema_ref("Health")),
            &[],
        ),
    );
    add(
        "/metrics",
        get_op(
            "metrics",
            "Counters and gauges in the Prometheus text format.",
            &[],
            text_ok("text/plain; version=0.0.4"),
            &[],
        ),
    );
    add(
        "/api/v1/openapi.json",
        get_op(
            "openapi",
            "This document.",
            &[],
            json_ok(json!({"type": "object", "required": ["openapi", "paths"]})),
            &[],
        ),
    );
    add(
        "/api/v1/previews",
        post_op(
            "createPreview",
            "Reads a workspace file once through the workspace door and keeps it as a snapshot; every view of it is served from that one read.",
            schema_ref("WorkspaceFileRef"),
            201,
            schema_ref("Snapshot"),
            &[400, 404, 413, 415, 422, 500, 507],
        ),
    );
    add(
        "/api/v1/stat",
        post_op(
            "stat",
            "Size, kind and modification time of a workspace file, without reading it.",
            schema_ref("WorkspaceFileRef"),
            200,
            schema_ref("FileStat"),
            &[400, 404, 413, 415, 422, 500],
        ),
    );
    add(
        "/api/v1/diffs",
        post_op(
            "createDiff",
            "The OpenClaw `diffs` tool: before/after texts or a unified patch into a viewer artifact and, for `file`/`both`, a PNG or PDF.",
            schema_ref("DiffInput"),
            200,
            schema_ref("DiffAnswer"),
            &[400, 413, 415, 422, 500, 507],
        ),
    );
    add(
        "/api/v1/activity",
        post_op(
            "activity",
            "Projects an agent session's write/edit/apply_patch calls into per-turn file cards and the session's Changes grouping.",
            schema_ref("ActivityInput"),
            200,
            json!({"type": "object", "required": ["details"], "properties": {"details": {"type": "object"}}}),
            &[400, 413, 415, 500],
        ),
    );
    add(
        "/api/v1/activity/changes",
        post_op(
            "activityChanges",
            "The same input into the session's Changes view as a diff artifact: with the `diffs` presentation fields, `mode: \"file\"`/`\"both\"` also draws it as a PNG or PDF (export engine; no browser needed by default) and answers the same file fields as `createDiff`.",
            schema_ref("ChangesInput"),
            200,
            schema_ref("ChangesAnswer"),
            &[400, 413, 415, 422, 500, 507],
        ),
    );
    let snap = [param("id"), param("token")];
    let page = || text_ok("text/html; charset=utf-8");
    add(
        "/p/{id}/{token}",
        get_redirect("snapshotRoot", "Redirects to the snapshot's shell.", &snap),
    );
    add(
        "/p/{id}/{token}/",
        get_op(
            "snapshotShell",
            "The viewer shell on the snapshot's default view.",
            &snap,
            page(),
            &[404],
        ),
    );
    add(
        "/p/{id}/{token}/raw",
        get_op(
            "snapshotRaw",
            "The snapshot's bytes; text is sent as text/plain, never as a page.",
            &snap,
            any_ok(),
            &[404],
        ),
    );
    add(
        "/p/{id}/{token}/model.json",
        get_op(
            "snapshotModel",
            "The parsed model of an Office document (of a table read in the background: once it is read whole, waited for at most 30 s, then 503 `timeout`).",
            &snap,
            json_ok(json!({"type": "object"})),
            &[404, 415],
        ),
    );
    let with = |name: &str| {
        let mut p = snap.to_vec();
        p.push(param(name));
        p
    };
    add(
        "/p/{id}/{token}/media/{part}",
        get_op(
            "snapshotMedia",
            "An image a document or deck shows.",
            &with("part"),
            any_ok(),
            &[404, 415],
        ),
    );
    add(
        "/p/{id}/{token}/font/{n}",
        get_op(
            "snapshotFont",
            "Embedded font `n` of a DOCX or PPTX snapshot, de-obfuscated (`font/ttf` or `font/otf`; cached as immutable).",
            &with("n"),
            any_ok(),
            &[404, 415, 422],
        ),
    );
    add(
        "/p/{id}/{token}/doc/{path}",
        get_op(
            "snapshotDocument",
            "The previewed page and the assets of its own folder subtree, under the sandbox CSP.",
            &with("path"),
            any_ok(),
            &[400, 404, 413, 415, 422],
        ),
    );
    add(
        "/p/{id}/{token}/grid/",
        get_op(
            "sheetGrid",
            "The spreadsheet grid viewer page of an XLSX or CSV snapshot.",
            &snap,
            page(),
            &[404, 415, 422],
        ),
    );
    add(
        "/p/{id}/{token}/grid/{file}",
        get_op(
            "sheetGridFile",
            "The grid's `meta.json` (sheets, sizes, panes, styles; `complete`, `rowsKnown` and `sha256` say how much of a table read in the background is in).",
            &with("file"),
            any_ok(),
            &[404, 415, 422],
        ),
    );
    let mut block = with("sheet");
    block.push(param("block"));
    add(
        "/p/{id}/{token}/grid/rows/{sheet}/{block}",
        get_op(
            "sheetRows",
            "One block of a sheet's rows (cached per snapshot). A block of a table still being read waits for its rows (at most 10 s), then answers with `partial: true`.",
            &block,
            json_ok(json!({})),
            &[400, 404, 415, 422],
        ),
    );
    add(
        "/p/{id}/{token}/grid/find/{sheet}",
        get_op(
            "sheetFind",
            "The first cells of a sheet whose shown text holds `q`.",
            &with("sheet"),
            json_ok(json!({"type": "array"})),
            &[400, 404, 415, 422],
        ),
    );
    let mut chart = with("sheet");
    chart.push(param("n"));
    for side in ["w", "h"] {
        chart.push(
            json!({"name": side, "in": "query", "required": false, "schema": {"type": "number"}}),
        );
    }
    add(
        "/p/{id}/{token}/grid/chart/{sheet}/{n}",
        get_op(
            "sheetChart",
            "Drawing `n` of a sheet (its index in the sheet's `drawings` of `meta.json`), a chart, as SVG at its anchor's size or `w` × `h` pixels; 404 when it has nothing to draw.",
            &chart,
            (
                200,
                json!({"description": "OK", "content": {"image/svg+xml": {"schema": {"type": "string"}}}}),
            ),
            &[400, 404, 415, 422],
        ),
    );
    let mut scale = with("n");
    scale.push(
        json!({"name": "scale", "in": "query", "required": false, "schema": {"type": "number"}}),
    );
    add(
        "/p/{id}/{token}/page/{n}",
        get_op(
            "pdfPage",
            "Page `n` of a PDF as PNG at `scale` pixels per point, lowered to fit the pixel caps; past the page deadline a tile saying it could not be rendered in time.",
            &scale,
            (
                200,
                json!({"description": "OK", "content": {"image/png": {"schema": {"type": "string"}}}}),
            ),
            &[400, 404, 415, 422],
        ),
    );
    add(
        "/p/{id}/{token}/text/{n}",
        get_op(
            "pdfText",
            "Page `n`'s text runs with positions, for the viewer's text layer.",
            &with("n"),
            json_ok(json!({})),
            &[400, 404, 415, 422],
        ),
    );
    add(
        "/p/{id}/{token}/{view}",
        get_op(
            "snapshotView",
            "The viewer shell on one view (`preview`, `source`, `image`, `info`, …).",
            &with("view"),
            page(),
            &[404],
        ),
    );
    add(
        "/w/{workspace}/{path}",
        get_redirect(
            "browse",
            "Browser entry: makes a snapshot of the file and redirects to its shell.",
            &[param("workspace"), param("path")],
        ),
    );
    add(
        "/static/{file}",
        get_op(
            "staticAsset",
            "A shared asset embedded in the binary, uncached.",
            &[param("file")],
            any_ok(),
            &[404],
        ),
    );
    add(
        "/static/{version}/{file}",
        get_op(
            "staticAssetVersioned",
            "A shared asset as the pages link it: under the current version (a digest of every asset) cached as immutable; under another, the current bytes uncached.",
            &[param("version"), param("file")],
            any_ok(),
            &[404],
        ),
    );
    add(
        "/fonts/{id}",
        get_op(
            "machineFont",
            "A font of the machine's font folders by its catalog id, for the Office viewers' `@font-face` rules (cached as immutable).",
            &[param("id")],
            any_ok(),
            &[404],
        ),
    );
    add(
        "/plugins/diffs/view/{id}/{token}",
        plain_op(
            "diffViewer",
            "The diff viewer page (loopback callers unless `diffs.allow_remote_viewer`); errors are the contract's plain text.",
            &[param("id"), param("token")],
            &["text/html; charset=utf-8"],
        ),
    );
    add(
        "/plugins/diffs/file/{id}/{token}",
        plain_op(
            "diffFile",
            "The artifact's rendered PNG or PDF (the `fileUrl` of `file`/`both` answers), under the viewer's rules; errors are the contract's plain text.",
            &[param("id"), param("token")],
            &["image/png", "application/pdf"],
        ),
    );
    add(
        "/plugins/diffs/assets/{name}",
        plain_op(
            "diffViewerAsset",
            "The viewer's scripts: `viewer.js`, `viewer-runtime.js`.",
            &[param("name")],
            &["text/javascript; charset=utf-8"],
        ),
    );
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "previewd",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Read-only previews of workspace files and of changes to them. JSON endpoints take only `Content-Type: application/json`; requests must name previewd in `Host`; `/api/*` refuses cross-site callers. With `security.api_token` set, remote callers send `Authorization: Bearer <token>`.",
            "license": {"name": "MIT OR Apache-2.0", "identifier": "MIT OR Apache-2.0"}
        },
        "servers": [{"url": server}],
        "paths": paths,
        "components": {
            "schemas": schemas(),
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}
        }
    })
}

fn schema_ref(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

fn param(name: &str) -> Value {
    json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}})
}

fn json_ok(schema: Value) -> (u16, Value) {
    (
        200,
        json!({"description": "OK", "content": {"application/json": {"schema": schema}}}),
    )
}

fn text_ok(media: &str) -> (u16, Value) {
    (
        200,
        json!({"description": "OK", "content": {media: {"schema": {"type": "string"}}}}),
    )
}

/// A body of whatever type the file has.
fn any_ok() -> (u16, Value) {
    (
        200,
        json!({"description": "OK", "content": {"*/*": {"schema": {}}}}),
    )
}

/// The JSON error answers `statuses` (plus those of every route).
fn error_responses(statuses: &[u16], responses: &mut Map<String, Value>) {
    let mut all: Vec<u16> = statuses.iter().chain(ANY_ROUTE).copied().collect();
    all.sort_unstable();
    all.dedup();
    for status in all {
        let codes: Vec<&str> = ERROR_CODES
            .iter()
            .filter(|(_, s)| *s == status)
            .map(|(c, _)| *c)
            .collect();
        responses.insert(
            status.to_string(),
            json!({
                "description": format!("Error: {}", codes.join(", ")),
                "content": {"application/json": {"schema": schema_ref("Error")}}
            }),
        );
    }
}

fn get_op(id: &str, summary: &str, params: &[Value], ok: (u16, Value), errors: &[u16]) -> Value {
    let mut responses = Map::new();
    responses.insert(ok.0.to_string(), ok.1);
    error_responses(errors, &mut responses);
    responses.insert("405".into(), error_only("method_not_allowed"));
    json!({"get": {"operationId": id, "summary": summary, "parameters": params, "responses": responses}})
}

fn get_redirect(id: &str, summary: &str, params: &[Value]) -> Value {
    let mut responses = Map::new();
    responses.insert(
        "303".into(),
        json!({"description": "To the snapshot's shell", "headers": {"Location": {"schema": {"type": "string"}}}}),
    );
    responses.insert(
        "308".into(),
        json!({"description": "To the canonical path", "headers": {"Location": {"schema": {"type": "string"}}}}),
    );
    error_responses(&[400, 404, 413, 415, 422, 500], &mut responses);
    json!({"get": {"operationId": id, "summary": summary, "parameters": params, "responses": responses}})
}

fn error_only(code: &str) -> Value {
    json!({"description": format!("Error: {code}"), "content": {"application/json": {"schema": schema_ref("Error")}}})
}

fn post_op(
    id: &str,
    summary: &str,
    body: Value,
    status: u16,
    answer: Value,
    errors: &[u16],
) -> Value {
    let mut responses = Map::new();
    responses.insert(
        status.to_string(),
        json!({"description": "OK", "content": {"application/json": {"schema": answer}}}),
    );
    error_responses(errors, &mut responses);
    json!({"post": {
        "operationId": id,
        "summary": summary,
        "requestBody": {"required": true, "content": {"application/json": {"schema": body}}},
        "responses": responses
    }})
}

/// The `/plugins/diffs/` routes answer errors in the contract's plain text.
fn plain_op(id: &str, summary: &str, params: &[Value], media: &[&str]) -> Value {
    let content: Map<String, Value> = media
        .iter()
        .map(|m| (m.to_string(), json!({"schema": {"type": "string"}})))
        .collect();
    let plain = json!({"description": "Not found, expired or refused (plain text)", "content": {"text/plain; charset=utf-8": {"schema": {"type": "string"}}}});
    json!({"get": {
        "operationId": id,
        "summary": summary,
        "parameters": params,
        "responses": {
            "200": {"description": "OK", "content": content},
            "400": plain.clone(),
            "403": plain.clone(),
            "404": plain,
            "405": error_only("method_not_allowed"),
            "429": error_only("busy"),
            "503": error_only("timeout")
        }
    }})
}

fn schemas() -> Value {
    let codes: Vec<&str> = ERROR_CODES.iter().map(|(c, _)| *c).collect();
    let context_fields = json!({
        "agentId": {"type": "string"},
        "sessionId": {"type": "string"},
        "messageChannel": {"type": "string"},
        "agentAccountId": {"type": "string"}
    });
    let mut schemas = Map::new();
    schemas.insert("Error".into(), json!({
            "type": "object",
            "required": ["error"],
            "properties": {"error": {
                "type": "object",
                "required": ["code", "message"],
                "properties": {
                    "code": {"type": "string", "enum": codes},
                    "message": {"type": "string"},
                    "size": {"type": "integer", "description": "too_large: the file's size in bytes"},
                    "limit": {"type": "integer", "description": "too_large, request_too_large: the limit in bytes"}
                }
            }}
        }));
    schemas.insert("WorkspaceFileRef".into(), json!({
            "type": "object",
            "required": ["workspaceRoot", "relativePath"],
            "properties": {
                "workspaceRoot": {"type": "string", "description": "Absolute path of an allowed workspace root, as the client knows it"},
                "relativePath": {"type": "string", "description": "Path of the file relative to the root"}
            }
        }));
    schemas.insert(
        "FileStat".into(),
        json!({
            "type": "object",
            "required": ["relativePath", "name", "kind", "size"],
            "properties": {
                "relativePath": {"type": "string"},
                "name": {"type": "string"},
                "kind": {"type": "string"},
                "size": {"type": "integer", "minimum": 0},
                "mtimeMs": {"type": ["integer", "null"]}
            }
        }),
    );
    schemas.insert("Snapshot".into(), json!({
            "type": "object",
            "required": ["previewId", "token", "name", "relativePath", "kind", "size", "expiresAt", "url", "views"],
            "properties": {
                "previewId": {"type": "string"},
                "token": {"type": "string"},
                "name": {"type": "string"},
                "relativePath": {"type": "string"},
                "kind": {"type": "string"},
                "size": {"type": "integer", "minimum": 0},
                "sha256": {"type": ["string", "null"]},
                "mtimeMs": {"type": ["integer", "null"]},
                "expiresAt": {"type": "string", "format": "date-time"},
                "url": {"type": "string"},
                "views": {"type": "array", "items": {
                    "type": "object",
                    "required": ["name", "label", "path", "url"],
                    "properties": {
                        "name": {"type": "string"},
                        "label": {"type": "string"},
                        "path": {"type": "string"},
                        "url": {"type": "string"}
                    }
                }}
            }
        }));
    schemas.insert("Health".into(), json!({
            "type": "object",
            "required": ["status", "version", "uptimeSeconds", "snapshots", "snapshotBytes", "pool", "browser", "export", "store"],
            "properties": {
                "status": {"type": "string", "enum": ["ok", "degraded"]},
                "version": {"type": "string"},
                "uptimeSeconds": {"type": "integer"},
                "snapshots": {"type": "integer"},
                "snapshotBytes": {"type": "integer"},
                "pool": {"type": "object", "required": ["running", "waiting", "workers"]},
                "browser": {},
                "export": {"type": "object"},
                "store": {
                    "type": "object",
                    "required": ["backend", "state"],
                    "properties": {
                        "backend": {"type": "string", "enum": ["local", "s3"]},
                        "state": {"type": "string", "enum": ["unknown", "ok", "unavailable"]}
                    }
                }
            }
        }));
    schemas.insert("DiffInput".into(), json!({
            "type": "object",
            "additionalProperties": false,
            "description": "Either `patch`, or both `before` and `after`. Sizes are UTF-8 bytes of the trimmed text; past them the answer is 400 with the contract's message.",
            "properties": {
                "before": {"type": "string"},
                "after": {"type": "string"},
                "patch": {"type": "string"},
                "path": {"type": "string"},
                "lang": {"type": "string"},
                "title": {"type": "string"},
                "mode": {"enum": ["view", "file", "both", "image"]},
                "theme": {"enum": ["light", "dark"]},
                "layout": {"enum": ["unified", "split"]},
                "expandUnchanged": {"type": "boolean"},
                "fileFormat": {"enum": ["png", "pdf"]},
                "format": {"enum": ["png", "pdf"]},
                "imageFormat": {"enum": ["png", "pdf"]},
                "fileQuality": {"enum": ["standard", "hq", "print"]},
                "imageQuality": {"enum": ["standard", "hq", "print"]},
                "fileScale": {"type": "number"},
                "imageScale": {"type": "number"},
                "fileMaxWidth": {"type": "number"},
                "imageMaxWidth": {"type": "number"},
                "ttlSeconds": {"type": ["number", "string"]},
                "baseUrl": {"type": "string"},
                "context": {"type": "object", "additionalProperties": false, "properties": context_fields}
            }
        }));
    schemas.insert("DiffAnswer".into(), json!({
            "type": "object",
            "required": ["details"],
            "properties": {"details": {
                "type": "object",
                "required": ["changed"],
                "properties": {
                    "changed": {"type": "boolean"},
                    "message": {"type": "string", "description": "When `changed` is false: the texts are identical and no artifact was made"},
                    "artifactId": {"type": "string", "pattern": "^[0-9a-f]{20}$"},
                    "viewerUrl": {"type": "string"},
                    "viewerPath": {"type": "string"},
                    "title": {"type": "string"},
                    "expiresAt": {"type": "string", "format": "date-time"},
                    "inputKind": {"enum": ["before_after", "patch"]},
                    "fileCount": {"type": "integer"},
                    "mode": {"enum": ["view", "file", "both"]},
                    "context": {"type": "object"},
                    "filePath": {"type": "string", "description": "A path on previewd's host, by contract; nothing else carries one"},
                    "fileUrl": {"type": "string", "description": "Where a caller on another machine fetches the file (tokenized, expires with the artifact)"},
                    "path": {"type": "string"},
                    "fileBytes": {"type": "integer"},
                    "fileFormat": {"enum": ["png", "pdf"]},
                    "fileQuality": {"enum": ["standard", "hq", "print"]},
                    "fileScale": {"type": "number"},
                    "fileMaxWidth": {"type": "number"},
                    "format": {"enum": ["png", "pdf"]},
                    "imagePath": {"type": "string"},
                    "imageBytes": {"type": "integer"},
                    "imageQuality": {"enum": ["standard", "hq", "print"]},
                    "imageScale": {"type": "number"},
                    "imageMaxWidth": {"type": "number"},
                    "fileError": {"type": "string"},
                    "imageError": {"type": "string"}
                }
            }}
        }));
    schemas.insert("ActivityInput".into(), json!({
            "type": "object",
            "description": "A session: its bases and either `turns` (already grouped) or `timeline` (the raw ACP messages the client recorded), not both.",
            "properties": {
                "workspaceRoot": {"type": "string"},
                "executionCwd": {"type": "string", "description": "Optional with a timeline whose session/new request names its cwd"},
                "timeline": {"type": "array", "description": "session/update notifications (whole JSON-RPC messages, their params, or bare update objects) and the client's session/new, session/load and session/prompt requests, in order", "items": {}},
                "turns": {"type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "turnId": {"type": "string"},
                        "toolCalls": {"type": "array", "items": {
                            "type": "object",
                            "properties": {
                                "toolCallId": {"type": "string"},
                                "title": {"type": "string"},
                                "status": {"type": "string"},
                                "rawInput": {}
                            }
                        }}
                    }
                }}
            }
        }));
    // A Changes call: the session's keys and the `diffs` presentation fields, nothing else.
    let mut changes_props = schemas["ActivityInput"]["properties"].clone();
    for key in crate::diff::PRESENTATION_FIELDS {
        changes_props[key] = schemas["DiffInput"]["properties"][key].clone();
    }
    schemas.insert("ChangesInput".into(), json!({
            "type": "object",
            "additionalProperties": false,
            "description": "A session (as `ActivityInput`) and how to show its changes (the `DiffInput` fields that are not the change itself; `title` defaults to `Changes`).",
            "properties": changes_props
        }));
    let mut changes_answer = schemas["DiffAnswer"].clone();
    let details = &mut changes_answer["properties"]["details"]["properties"];
    details["inputKind"] = json!({"enum": ["activity"]});
    details["message"] = json!({"type": "string", "description": "When `changed` is false: the session has no file changes (no file is drawn; a viewer page says so for `view` and `both`)"});
    details["entryCount"] =
        json!({"type": "integer", "description": "Entries of the view: one per turn and path"});
    schemas.insert("ChangesAnswer".into(), changes_answer);
    Value::Object(schemas)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The axum paths of the route table, read from its source.
    fn routes() -> Vec<String> {
        include_str!("routes.rs")
            .split(".route(")
            .skip(1)
            .filter_map(|rest| rest.trim_start().strip_prefix('"'))
            .map(|rest| rest.split('"').next().unwrap_or("").to_string())
            .collect()
    }

    #[test]
    fn every_route_is_described() {
        let doc = document("http://127.0.0.1:8791");
        let paths = doc["paths"].as_object().unwrap();
        let routes = routes();
        assert!(routes.len() > 15, "{routes:?}");
        for route in &routes {
            // axum's `{*rest}` is OpenAPI's `{rest}`.
            let described = route.replace("{*", "{");
            assert!(paths.contains_key(&described), "{route} is not described");
        }
        for path in paths.keys() {
            assert!(
                routes.iter().any(|r| r.replace("{*", "{") == *path),
                "{path} is described but not routed"
            );
        }
    }

    #[test]
    fn every_error_code_is_described_with_its_status() {
        for error in crate::error::tests::examples() {
            let entry = (error.code(), error.status().as_u16());
            assert!(ERROR_CODES.contains(&entry), "{entry:?} missing");
        }
        assert_eq!(
            ERROR_CODES.len(),
            crate::error::tests::examples()
                .iter()
                .map(|e| e.code())
                .collect::<std::collections::BTreeSet<_>>()
                .len()
        );
    }
}
