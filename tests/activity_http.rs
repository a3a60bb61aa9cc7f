//! File activity through the service: the projection with preview references, and the
//! Changes view in real Chromium.

mod common;

use common::browser::{eval, wait_for, TestBrowser};
use common::{error_of, start};
use serde_json::{json, Value};

fn session(root: &str) -> Value {
    // Tool paths resolve against the execution cwd (`src`).
    let patch = "*** Begin Patch\n*** Add File: ../docs/new.md\n+hello\n+world\n*** Update File: lib.rs\n*** Move to: core.rs\n@@\n-fn old() {}\n+fn new() {}\n*** Delete File: ../old.txt\n*** End Patch";
    json!({
        "workspaceRoot": root,
        "executionCwd": format!("{root}/src"),
        "turns": [
            {"turnId": "t1", "toolCalls": [
                {"toolCallId": "c1", "title": "write: notes.md", "status": "completed",
                 "rawInput": {"path": "../notes.md", "content": "# Notes\nfirst\n"}},
                {"toolCallId": "c2", "title": "Write File", "status": "completed",
                 "rawInput": {"path": "ignored.md", "content": "not a write tool"}},
                {"toolCallId": "c3", "title": "edit", "status": "failed",
                 "rawInput": {"path": "../notes.md", "oldText": "first", "newText": "nope"}}
            ]},
            {"turnId": "t2", "toolCalls": [
                {"toolCallId": "c4", "title": "edit: notes.md", "status": "completed",
                 "rawInput": {"file_path": "../notes.md", "oldText": "first", "newText": "second"}},
                {"toolCallId": "c5", "title": "apply_patch", "status": "completed",
                 "rawInput": {"input": patch}},
                {"toolCallId": "c4", "title": "edit: notes.md", "status": "completed",
                 "rawInput": {"file_path": "../notes.md", "oldText": "first", "newText": "second"}}
            ]}
        ]
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn the_projection_lists_files_per_turn_with_preview_references() {
    let s = start(|_| {}).await;
    s.write("notes.md", "# Notes\nsecond\n");
    let r = s
        .post_json("/api/v1/activity", &session(&s.root_str()))
        .await;
    assert_eq!(r.status(), 200);
    let v: Value = r.json().await.unwrap();
    let t1: Vec<(&str, &str)> = v["turns"][0]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["relativePath"].as_str().unwrap(),
                f["action"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(t1, [("notes.md", "created")]);
    assert_eq!(v["turns"][0]["files"][0]["added"], 2);
    let t2: Vec<(&str, &str)> = v["turns"][1]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["relativePath"].as_str().unwrap(),
                f["action"].as_str().unwrap(),
            )
        })
        .collect();
    for expected in [
        ("notes.md", "modified"),
        ("docs/new.md", "created"),
        ("src/lib.rs", "deleted"),
        ("src/core.rs", "created"),
        ("old.txt", "deleted"),
    ] {
        assert!(t2.contains(&expected), "{expected:?} in {t2:?}");
    }
    // The duplicate c4 counted once: one modification of one line.
    let notes = v["turns"][1]["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["relativePath"] == "notes.md")
        .unwrap();
    assert_eq!(
        (notes["added"].as_u64(), notes["removed"].as_u64()),
        (Some(1), Some(1))
    );
    // Deleted files carry no reference; others do, and it opens a preview while the file
    // exists.
    let old = v["turns"][1]["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["relativePath"] == "old.txt")
        .unwrap();
    assert!(old.get("fileRef").is_none());
    let file_ref = notes["fileRef"].clone();
    assert_eq!(file_ref["relativePath"], "notes.md");
    let r = s.post_json("/api/v1/previews", &file_ref).await;
    assert_eq!(r.status(), 201);
    // Once the file is gone the preview is refused, and the record stays.
    std::fs::remove_file(s.root.join("notes.md")).unwrap();
    let r = s.post_json("/api/v1/previews", &file_ref).await;
    assert_eq!(error_of(r).await, (404, "not_found".into()));
    let again: Value = s
        .post_json("/api/v1/activity", &session(&s.root_str()))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(again["turns"], v["turns"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn sessions_without_a_root_are_refused() {
    let s = start(|_| {}).await;
    let r = s.post_json("/api/v1/activity", &json!({"turns": []})).await;
    assert_eq!(error_of(r).await, (400, "invalid_reference".into()));
    let r = s
        .post_json(
            "/api/v1/activity",
            &json!({"workspaceRoot": "relative", "executionCwd": "/x", "turns": []}),
        )
        .await;
    assert_eq!(error_of(r).await, (400, "invalid_reference".into()));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_changes_view_shows_each_file_with_its_turns_in_order() {
    let s = start(|_| {}).await;
    let r = s
        .post_json("/api/v1/activity/changes", &session(&s.root_str()))
        .await;
    assert_eq!(r.status(), 200);
    let v: Value = r.json().await.unwrap();
    let url = v["details"]["viewerUrl"].as_str().unwrap().to_string();
    assert_eq!(v["details"]["fileCount"], 5);

    let empty: Value = s
        .post_json(
            "/api/v1/activity/changes",
            &json!({"workspaceRoot": s.root_str(), "executionCwd": s.root_str(), "turns": []}),
        )
        .await
        .json()
        .await
        .unwrap();
    let empty_url = empty["details"]["viewerUrl"].as_str().unwrap().to_string();

    let browser = TestBrowser::launch().await;
    let page = browser.open(&url).await;
    wait_for(
        &page,
        "document.querySelectorAll('details.file').length > 0",
    )
    .await;
    let names = eval(
        &page,
        "Array.from(document.querySelectorAll('details.file > summary .path, details.file > summary .name')).map(e => e.textContent.trim()).join('\\n')",
    )
    .await;
    let names = names.as_str().unwrap().to_string();
    let order: Vec<&str> = names.lines().collect();
    // Files in order of first activity; notes.md once per turn, t1 before t2.
    let notes_t1 = order
        .iter()
        .position(|n| n.contains("notes.md · turn t1"))
        .expect(&names);
    let notes_t2 = order
        .iter()
        .position(|n| n.contains("notes.md · turn t2"))
        .expect(&names);
    assert!(notes_t1 < notes_t2);
    assert_eq!(
        order
            .iter()
            .filter(|n| n.contains("notes.md · turn t1"))
            .count(),
        1,
        "{names}"
    );
    for path in ["docs/new.md", "src/lib.rs", "src/core.rs", "old.txt"] {
        assert_eq!(
            order.iter().filter(|n| n.contains(path)).count(),
            1,
            "{path} once: {names}"
        );
    }
    assert!(
        order
            .iter()
            .position(|n| n.contains("docs/new.md"))
            .unwrap()
            > notes_t2
    );

    let empty_page = browser.open(&empty_url).await;
    let text = eval(&empty_page, "document.body.innerText").await;
    assert!(text
        .as_str()
        .unwrap()
        .contains("This session has no file changes."));
    browser.close().await;
}

/// `session(root)` as the raw ACP timeline a client records: prompts, agent chunks, each
/// call announced pending and completed by updates; the cwd comes from `session/new`.
fn timeline(root: &str) -> Value {
    let grouped = session(root);
    let update = |u: Value| json!({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s", "update": u}});
    let mut entries = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "session/new", "params": {"cwd": grouped["executionCwd"]}}),
    ];
    for turn in grouped["turns"].as_array().unwrap() {
        entries.push(update(json!({"sessionUpdate": "user_message_chunk", "content": {"type": "text", "text": "go"}})));
        for call in turn["toolCalls"].as_array().unwrap() {
            entries.push(update(json!({"sessionUpdate": "tool_call", "toolCallId": call["toolCallId"], "title": call["title"], "status": "pending", "rawInput": call["rawInput"]})));
            entries.push(update(json!({"sessionUpdate": "tool_call_update", "toolCallId": call["toolCallId"], "status": call["status"]})));
        }
        entries.push(update(json!({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "done"}})));
    }
    json!({"workspaceRoot": root, "timeline": entries})
}

#[tokio::test(flavor = "multi_thread")]
async fn a_raw_acp_timeline_projects_like_its_grouped_turns() {
    let s = start(|_| {}).await;
    let root = s.root_str();
    let grouped: Value = s
        .post_json("/api/v1/activity", &session(&root))
        .await
        .json()
        .await
        .unwrap();
    let r = s.post_json("/api/v1/activity", &timeline(&root)).await;
    assert_eq!(r.status(), 200);
    let raw: Value = r.json().await.unwrap();
    // The same records, with the timeline's own turn ids.
    let text = raw
        .to_string()
        .replace("\"turn-1\"", "\"t1\"")
        .replace("\"turn-2\"", "\"t2\"");
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), grouped);
    assert!(!grouped["activities"].as_array().unwrap().is_empty());

    // Both forms at once are refused.
    let mut both = timeline(&root);
    both["turns"] = session(&root)["turns"].clone();
    let r = s.post_json("/api/v1/activity", &both).await;
    assert_eq!(r.status(), 400);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "invalid_reference");
    assert_eq!(
        body["error"]["message"],
        "Provide turns or timeline, not both."
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_incomplete_timeline_infers_nothing() {
    let s = start(|_| {}).await;
    let root = s.root_str();
    let body = json!({"workspaceRoot": root, "executionCwd": root, "timeline": [
        {"sessionUpdate": "user_message_chunk", "content": {"type": "text", "text": "write a.md"}},
        {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "I wrote a.md"}},
        // The announcement was lost: the update alone names a write, and counts for nothing.
        {"sessionUpdate": "tool_call_update", "toolCallId": "c1", "title": "write: a.md", "status": "completed", "rawInput": {"path": "a.md", "content": "x"}},
        // Announced but never completed.
        {"sessionUpdate": "tool_call", "toolCallId": "c2", "title": "write: b.md", "status": "in_progress", "rawInput": {"path": "b.md", "content": "y"}}
    ]});
    let r = s.post_json("/api/v1/activity", &body).await;
    assert_eq!(r.status(), 200);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["activities"], json!([]));
    assert_eq!(v["changes"], json!([]));
}

/// The Changes view as a PNG or a PDF: the `diffs` contract's presentation fields on the
/// activity route, drawn by the native engine on a service whose browser cannot start.
#[tokio::test(flavor = "multi_thread")]
async fn the_changes_view_comes_as_png_and_pdf_without_a_browser() {
    let s = start(|c| c.browser.executable_path = Some("/nonexistent/chromium".into())).await;
    let call = |extra: Value| {
        let mut body = session(&s.root_str());
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let r = s
        .post_json(
            "/api/v1/activity/changes",
            &call(json!({"mode": "file", "fileScale": 1, "theme": "dark", "ttlSeconds": 120})),
        )
        .await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    let d = &body["details"];
    assert_eq!(d["changed"], true, "{body}");
    assert_eq!(d["mode"], "file");
    assert_eq!(d["inputKind"], "activity");
    assert_eq!(d["title"], "Changes");
    assert_eq!(d["fileCount"], 5);
    assert!(d.get("viewerUrl").is_none(), "{body}");
    let png = std::fs::read(d["filePath"].as_str().unwrap()).unwrap();
    assert_eq!(d["fileBytes"], png.len());
    let image = image::load_from_memory_with_format(&png, image::ImageFormat::Png)
        .unwrap()
        .into_rgb8();
    assert_eq!(image.width(), 960, "frame 960 CSS px at scale 1");
    // Dark theme: the frame's corner is the dark background, not white.
    let corner = image.get_pixel(2, 2).0;
    assert!(corner.iter().all(|&c| c < 80), "{corner:?}");
    // The file is served at its URL with the viewer's token rules.
    let url = d["fileUrl"].as_str().unwrap();
    let served = s.http.get(url).send().await.unwrap();
    assert_eq!(served.status(), 200);
    assert_eq!(served.headers()["content-type"], "image/png");
    assert_eq!(served.bytes().await.unwrap().as_ref(), png.as_slice());

    // Both: the viewer page and a PDF whose text is the diff's, turn labels included.
    let r = s
        .post_json(
            "/api/v1/activity/changes",
            &call(json!({"mode": "both", "fileFormat": "pdf", "title": "Session 7"})),
        )
        .await;
    let body: Value = r.json().await.unwrap();
    let d = &body["details"];
    assert!(d.get("fileError").is_none(), "{body}");
    assert_eq!(d["title"], "Session 7");
    let pdf = std::fs::read(d["filePath"].as_str().unwrap()).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    let text = common::pdftotext(&pdf);
    for expected in [
        "Session 7",
        "notes.md · turn t1",
        "notes.md · turn t2",
        "second",
    ] {
        assert!(text.contains(expected), "{expected:?} in {text}");
    }
    // The deleted file whose text the calls never stated has no invented counts.
    assert!(text.contains("no line counts"), "{text}");
    let page = s
        .http
        .get(d["viewerUrl"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("notes.md · turn t2"));

    // No changes: nothing to draw, said as the contract says an unchanged diff.
    let empty = json!({"workspaceRoot": s.root_str(), "executionCwd": s.root_str(),
        "turns": [], "mode": "file"});
    let body: Value = s
        .post_json("/api/v1/activity/changes", &empty)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        body,
        json!({"details": {"changed": false, "message": "This session has no file changes."}})
    );

    // The contract's refusals, and a misspelt field is one, not a silent viewer.
    for (extra, message) in [
        (
            json!({"fileformat": "png"}),
            "Unknown field \"fileformat\".",
        ),
        (
            json!({"mode": "movie"}),
            "mode must be one of: view, file, both (got",
        ),
    ] {
        let r = s.post_json("/api/v1/activity/changes", &call(extra)).await;
        assert_eq!(r.status(), 400);
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"]["code"], "invalid_request");
        let said = body["error"]["message"].as_str().unwrap();
        assert!(said.starts_with(message), "{body}");
    }

    let health: Value = s.get("/healthz").await.json().await.unwrap();
    assert_eq!(health["browser"]["state"], "not_started");
    assert_eq!(health["exportEngines"]["native"]["renders"], 2);
}
