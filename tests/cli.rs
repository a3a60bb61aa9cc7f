//! The command-line tools, run as the real binary.

use std::process::Command;

fn previewd(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_previewd"))
        .args(args)
        .env_remove("PREVIEWD_CONFIG")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const DOCX: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/corpus/docx/mammoth-tables.docx"
);
const PATCH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/patches/git-rename.patch"
);

#[test]
fn preview_renders_a_document_and_its_model() {
    let (code, html, _) = previewd(&["preview", DOCX]);
    assert_eq!(code, 0);
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<table"));
    let (code, json, _) = previewd(&["preview", DOCX, "--format", "json"]);
    assert_eq!(code, 0);
    let model: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(model["sections"].is_array());
}

/// A page without a server names the machine's stand-ins by `local()` alone, and still
/// declares them: each with its own Windows line metrics, so lines sit where Office puts
/// them (Carlito's are Calibri's: 1950 and 550 of 2048 units).
#[test]
fn a_standalone_page_declares_its_stand_ins_with_their_line_metrics() {
    let docx = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/corpus/docx/mammoth-simple-list.docx"
    );
    let (code, html, _) = previewd(&["preview", docx]);
    assert_eq!(code, 0);
    let html = html.replace("&#39;", "'");
    assert!(
        html.contains("@font-face{font-family:'Carlito';src:local('Carlito');font-weight:400;font-style:normal;font-display:swap;ascent-override:95.21%;descent-override:26.86%;line-gap-override:0%}"),
        "Carlito declared by local() with Calibri's metrics"
    );
    assert!(!html.contains("/fonts/"), "no font URL without a server");
}

#[test]
fn preview_writes_to_a_file_and_refuses_bad_input_with_a_code() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("p.html");
    std::fs::write(
        dir.path().join("x.html"),
        "<script>alert(1)</script><p>hi</p>",
    )
    .unwrap();
    let (code, stdout, _) = previewd(&[
        "preview",
        dir.path().join("x.html").to_str().unwrap(),
        "-o",
        page.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(stdout.is_empty());
    let written = std::fs::read_to_string(&page).unwrap();
    assert!(written.contains(">alert<"), "HTML is shown as source");
    assert!(written.contains("&lt;"));
    assert!(!written.contains("<script"), "and nothing of it runs");

    std::fs::write(dir.path().join("bad.docx"), "not a zip").unwrap();
    let (code, _, err) = previewd(&["preview", dir.path().join("bad.docx").to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("corrupt: not an Office Open XML package"),
        "{err}"
    );
    let (code, _, err) = previewd(&["preview", dir.path().join("missing.md").to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("not_found"), "{err}");
}

#[test]
fn diff_renders_patches_and_file_pairs() {
    let (code, json, _) = previewd(&["diff", "--patch", PATCH, "--format", "json"]);
    assert_eq!(code, 0);
    let model: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(model["files"][0]["status"], "renamed");
    let (code, html, _) = previewd(&["diff", "--patch", PATCH]);
    assert_eq!(code, 0);
    assert!(html.contains("renamed-dst.txt"));
    assert!(!html.contains("<script"), "the static page runs no script");

    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    std::fs::write(&a, "one\n").unwrap();
    std::fs::write(&b, "one\n").unwrap();
    let (code, _, err) = previewd(&[
        "diff",
        "--before",
        a.to_str().unwrap(),
        "--after",
        b.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("Before and after are identical"), "{err}");
    let (code, _, _) = previewd(&["diff", "--before", a.to_str().unwrap()]);
    assert_eq!(code, 2, "clap refuses a half pair");
}

#[test]
fn activity_reads_a_recorded_acp_timeline() {
    let timeline = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/samples/timeline.jsonl"
    );
    let (code, _, err) = previewd(&["activity", timeline]);
    assert_eq!(code, 1, "a timeline names no workspace");
    assert!(err.contains("--workspace-root"), "{err}");
    let (code, out, err) = previewd(&[
        "activity",
        timeline,
        "--workspace-root",
        "/home/agent/project",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let files: Vec<(String, String, String)> = v["activities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["turnId"].as_str().unwrap().to_string(),
                a["relativePath"].as_str().unwrap().to_string(),
                a["action"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    // session.json's calls, turn by turn; the failed edit and the never-announced
    // update count for nothing.
    assert!(
        files.iter().all(|(_, path, _)| path != "demo/ghost.md"),
        "{files:?}"
    );
    assert!(files.contains(&("turn-1".into(), "demo/notes.md".into(), "created".into())));
    assert!(
        files.iter().any(|(turn, _, _)| turn == "turn-2"),
        "{files:?}"
    );
    assert!(
        files.iter().all(|(_, path, _)| path != "demo/style.css"),
        "{files:?}"
    );
}

#[test]
fn activity_prints_the_projection() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("session.json");
    std::fs::write(
        &input,
        serde_json::json!({
            "workspaceRoot": "/ws", "executionCwd": "/ws",
            "turns": [{"turnId": "t1", "toolCalls": [
                {"toolCallId": "c1", "title": "write: a.md", "status": "completed",
                 "rawInput": {"path": "a.md", "content": "x\ny\n"}}
            ]}]
        })
        .to_string(),
    )
    .unwrap();
    let (code, out, err) = previewd(&["activity", input.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["turns"][0]["files"][0]["relativePath"], "a.md");
    assert_eq!(v["turns"][0]["files"][0]["action"], "created");
    assert_eq!(v["turns"][0]["files"][0]["added"], 2);
    std::fs::write(&input, "{\"turns\": []}").unwrap();
    let (code, _, err) = previewd(&["activity", input.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("invalid_reference"), "{err}");
}

#[test]
fn a_missing_input_file_is_named_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let present = dir.path().join("present.txt");
    std::fs::write(&present, "one\n").unwrap();
    let present = present.to_str().unwrap();
    let missing = dir.path().join("no-such-file.txt");
    let missing = missing.to_str().unwrap();
    let commands: [&[&str]; 6] = [
        &["preview", missing],
        &["diff", "--before", missing, "--after", present],
        &["diff", "--before", present, "--after", missing],
        &["diff", "--patch", missing],
        &["diff", "--patch", missing, "--format", "png"],
        &["activity", missing],
    ];
    for args in commands {
        let (code, stdout, err) = previewd(args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(stdout.is_empty(), "{args:?}");
        assert!(
            err.contains(&format!("{missing} does not exist")),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn diff_shows_a_latin1_patch_lossily_and_marks_it() {
    let dir = tempfile::tempdir().unwrap();
    let patch = dir.path().join("latin1.patch");
    // "café" and "naïve" in Latin-1: 0xE9 and 0xEF are not UTF-8 on their own.
    std::fs::write(
        &patch,
        b"--- a/menu.txt\n+++ b/menu.txt\n@@ -1,2 +1,2 @@\n-caf\xe9\n+caf\xe9 au lait\n na\xefve\n",
    )
    .unwrap();
    let patch = patch.to_str().unwrap();
    let (code, json, err) = previewd(&["diff", "--patch", patch, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("{patch} is not valid UTF-8")),
        "the warning names the file: {err}"
    );
    let model: serde_json::Value = serde_json::from_str(&json).unwrap();
    let file = &model["files"][0];
    assert_eq!(file["newPath"], "menu.txt");
    assert_eq!(
        (&file["additions"], &file["deletions"]),
        (&1.into(), &1.into())
    );
    let texts: Vec<&str> = file["hunks"][0]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        ["caf\u{FFFD}", "caf\u{FFFD} au lait", "na\u{FFFD}ve"]
    );
    let (code, html, _) = previewd(&["diff", "--patch", patch]);
    assert_eq!(code, 0);
    assert!(
        html.contains("Patch diff (not valid UTF-8)"),
        "the page's title marks the decoding"
    );
}

/// A `previewd serve` child on a free port with its log on a pipe, and the address its
/// start-up log line announced.
struct Served {
    child: std::process::Child,
    stderr: std::io::BufReader<std::process::ChildStderr>,
    addr: String,
    /// The log line that announced the address.
    announced: String,
}

impl Drop for Served {
    /// A failed test must not leave a server behind (it would hold the test's stdout).
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(dir: &std::path::Path, log: &str) -> Served {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_previewd"))
        .args([
            "serve",
            "--workspace",
            dir.to_str().unwrap(),
            "--listen",
            "127.0.0.1:0",
        ])
        .env("PREVIEWD_LOG", log)
        .env(
            "PREVIEWD_DIFFS__DATA_DIR",
            dir.join("diffs").to_str().unwrap(),
        )
        .env_remove("PREVIEWD_CONFIG")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The log line announcing the listener carries the bound address.
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while stderr.read_line(&mut line).unwrap() > 0 {
        if let Some(i) = line.find("http://127.0.0.1:") {
            let rest = &line[i + "http://".len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ':'))
                .unwrap_or(rest.len());
            let addr = rest[..end].to_string();
            return Served {
                child,
                stderr,
                addr,
                announced: line,
            };
        }
        line.clear();
    }
    panic!(
        "the server did not announce its address (exit: {:?})",
        child.wait()
    )
}

/// One request on its own connection; the raw answer. The read timeout is a liveness
/// bound (an answer must come at all), not a speed assertion.
fn raw_request(addr: &str, host: &str, path: &str) -> std::io::Result<String> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(std::time::Duration::from_secs(20)))?;
    stream.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes(),
    )?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer)?;
    Ok(answer)
}

#[test]
fn a_log_reader_that_stops_reading_does_not_stall_the_service() {
    // The soak found every request stalled once the process reading previewd's log
    // stopped reading: log lines were written to stderr on the async threads, and a full
    // pipe blocked them all. Here nobody reads the log after start-up, and every refused
    // request logs a debug line: far more than a pipe holds.
    let dir = tempfile::tempdir().unwrap();
    let served = serve(dir.path(), "debug");
    for i in 0..6_000 {
        let answer = raw_request(&served.addr, "attacker.example", "/healthz")
            .unwrap_or_else(|e| panic!("request {i} got no answer: {e}"));
        assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
    }
    let answer = raw_request(&served.addr, &served.addr, "/metrics").unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let dropped: u64 = answer
        .lines()
        .find_map(|l| l.strip_prefix("previewd_log_lines_dropped_total "))
        .expect("the metrics count dropped log lines")
        .trim()
        .parse()
        .unwrap();
    assert!(
        dropped > 0,
        "no log line was dropped, so the pipe never filled"
    );
}

#[test]
fn serve_shuts_down_gracefully_on_sigterm() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "hello").unwrap();
    let mut served = serve(dir.path(), "info");
    let answer = raw_request(&served.addr, &served.addr, "/healthz").unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // SAFETY: sending a signal to our own child process.
    assert_eq!(
        unsafe { libc::kill(served.child.id() as i32, libc::SIGTERM) },
        0
    );
    let status = served.child.wait().unwrap();
    assert!(status.success(), "exit status {status:?}");
    let mut rest = String::new();
    served.stderr.read_to_string(&mut rest).unwrap();
    assert!(rest.contains("shutting down"), "{rest}");
    let announced = &served.announced;
    // Logs to a pipe (or a file) carry no terminal colour codes.
    assert!(
        !announced.contains('\x1b') && !rest.contains('\x1b'),
        "colour escapes in a piped log: {announced:?}"
    );
}

#[test]
fn diff_renders_png_and_pdf_files() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("d.png");
    let (code, _, err) = previewd(&[
        "diff",
        "--patch",
        PATCH,
        "--format",
        "png",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let image = image::open(&png).unwrap();
    // The default preset: a 960 CSS px frame at scale 2.
    assert_eq!(image.width(), 1920);
    let pdf = dir.path().join("d.pdf");
    let (code, _, err) = previewd(&[
        "diff",
        "--patch",
        PATCH,
        "--format",
        "pdf",
        "-o",
        pdf.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF-"));
}

#[test]
fn activity_writes_the_changes_view_as_page_model_png_and_pdf() {
    let session = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/samples/session.json");
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let run = |format: &str, file: &str| {
        previewd(&[
            "activity",
            session,
            "--changes",
            "--format",
            format,
            "-o",
            &out(file),
        ])
    };
    for (format, file) in [
        ("html", "c.html"),
        ("json", "c.json"),
        ("png", "c.png"),
        ("pdf", "c.pdf"),
    ] {
        let (code, _, err) = run(format, file);
        assert_eq!(code, 0, "{format}: {err}");
    }
    let page = std::fs::read_to_string(out("c.html")).unwrap();
    assert!(page.contains("demo/notes.md · turn t1"), "the turn labels");
    let model: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out("c.json")).unwrap()).unwrap();
    let labels: Vec<&str> = model["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["newPath"].as_str().or(f["oldPath"].as_str()))
        .collect();
    assert!(labels.contains(&"demo/notes.md · turn t1"), "{labels:?}");
    // The default preset: a 960 CSS px frame at scale 2, drawn without a browser.
    assert_eq!(image::open(out("c.png")).unwrap().width(), 1920);
    assert!(std::fs::read(out("c.pdf")).unwrap().starts_with(b"%PDF-"));

    // A session without changes has nothing to draw; its page says so.
    let empty = dir.path().join("empty.json");
    std::fs::write(
        &empty,
        r#"{"workspaceRoot": "/ws", "executionCwd": "/ws", "turns": []}"#,
    )
    .unwrap();
    let empty = empty.to_str().unwrap();
    let (code, stdout, err) = previewd(&["activity", empty, "--changes", "--format", "png"]);
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    assert!(
        err.contains("invalid_request: This session has no file changes."),
        "{err}"
    );
    let (code, page, _) = previewd(&["activity", empty, "--changes"]);
    assert_eq!(code, 0);
    assert!(page.contains("This session has no file changes."));
    // --format belongs to --changes.
    let (code, _, _) = previewd(&["activity", session, "--format", "png"]);
    assert_eq!(code, 2);
}
