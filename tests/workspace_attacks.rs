//! Every attack of `spec/workspace-access.md`, through the real HTTP API on a real listener,
//! with real files, real symlinks and a real FIFO.

mod common;

use std::os::unix::fs::symlink;
use std::time::Duration;

use common::{error_of, start};
use serde_json::json;

async fn code_for(server: &common::TestServer, rel: &str) -> (u16, String) {
    error_of(server.preview(rel).await).await
}

#[tokio::test(flavor = "multi_thread")]
async fn lexical_escapes_are_invalid_references() {
    let s = start(|_| {}).await;
    s.write("ok.txt", "fine");
    for rel in [
        "../x",
        "a/../../x",
        "..\\x",
        "/etc/passwd",
        "C:\\Windows\\win.ini",
        "C:x",
        "\\\\host\\share\\x",
        "//host/share/x",
        "a\u{0}b",
        "",
    ] {
        assert_eq!(
            code_for(&s, rel).await,
            (400, "invalid_reference".to_string()),
            "{rel:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn url_decoded_dot_dot_arrives_as_a_literal_name() {
    // A client that decodes `%2e%2e/x` hands us `../x` (refused above); one that does not
    // hands us a literal folder name `%2e%2e`, which is just a missing file inside.
    let s = start(|_| {}).await;
    assert_eq!(code_for(&s, "%2e%2e/x").await, (404, "not_found".into()));
    let decoded = "%2e%2e/x".replace("%2e", ".");
    assert_eq!(
        code_for(&s, &decoded).await,
        (400, "invalid_reference".into())
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn links_out_of_the_workspace_are_refused() {
    let s = start(|_| {}).await;
    let secret = s.write_outside("secret.txt", "TOP SECRET");
    std::fs::create_dir_all(s.outside.join("dir")).unwrap();
    s.write_outside("dir/inner.txt", "TOP SECRET");
    // A symlinked file to outside.
    symlink(&secret, s.root.join("file-link.txt")).unwrap();
    // A symlinked parent directory to outside.
    symlink(s.outside.join("dir"), s.root.join("dir-link")).unwrap();
    // A chain of links that ends outside.
    symlink(s.root.join("file-link.txt"), s.root.join("chain1.txt")).unwrap();
    symlink("chain1.txt", s.root.join("chain2.txt")).unwrap();
    // A relative link that climbs out.
    symlink("../outside/secret.txt", s.root.join("relative-out.txt")).unwrap();
    // /dev/zero via a link.
    symlink("/dev/zero", s.root.join("zero.txt")).unwrap();
    // A missing file under a link to outside.
    for rel in [
        "file-link.txt",
        "dir-link/inner.txt",
        "chain2.txt",
        "relative-out.txt",
        "zero.txt",
        "dir-link/missing.txt",
    ] {
        let (status, code) = code_for(&s, rel).await;
        assert_eq!((status, code.as_str()), (403, "outside_workspace"), "{rel}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn links_that_stay_inside_are_followed() {
    let s = start(|_| {}).await;
    s.write("real/page.txt", "inside");
    symlink("real/page.txt", s.root.join("alias.txt")).unwrap();
    symlink(s.root.join("real"), s.root.join("absolute-alias")).unwrap();
    let body = s.preview_ok("alias.txt").await;
    assert_eq!(body["size"], 6);
    // An absolute target counts as outside unless it resolves inside.
    let (status, _) = code_for(&s, "absolute-alias/page.txt").await;
    assert!(status == 201 || status == 403, "absolute link: {status}");
}

#[tokio::test(flavor = "multi_thread")]
async fn link_loops_directories_and_devices_are_not_files() {
    let s = start(|_| {}).await;
    symlink("loop-b", s.root.join("loop-a")).unwrap();
    symlink("loop-a", s.root.join("loop-b")).unwrap();
    std::fs::create_dir_all(s.root.join("folder")).unwrap();
    assert_eq!(code_for(&s, "loop-a").await, (422, "not_a_file".into()));
    assert_eq!(code_for(&s, "folder").await, (422, "not_a_file".into()));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_fifo_is_refused_without_hanging() {
    let s = start(|_| {}).await;
    let fifo = s.root.join("pipe.txt");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let answer = tokio::time::timeout(Duration::from_secs(10), code_for(&s, "pipe.txt"))
        .await
        .expect("opening a FIFO must not block");
    assert_eq!(answer, (422, "not_a_file".into()));
}

#[tokio::test(flavor = "multi_thread")]
async fn missing_files_inside_are_not_found() {
    let s = start(|_| {}).await;
    std::fs::create_dir_all(s.root.join("docs")).unwrap();
    assert_eq!(
        code_for(&s, "docs/missing.md").await,
        (404, "not_found".into())
    );
    assert_eq!(
        code_for(&s, "nodir/missing.md").await,
        (404, "not_found".into())
    );
    s.write("file.txt", "x");
    assert_eq!(
        code_for(&s, "file.txt/below").await,
        (404, "not_found".into())
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn roots_must_be_allowed() {
    let s = start(|_| {}).await;
    s.write("a.txt", "x");
    let sibling = s.root.parent().unwrap().join("wsx");
    std::fs::create_dir_all(&sibling).unwrap();
    std::fs::write(sibling.join("a.txt"), "x").unwrap();
    for root in [
        "/".to_string(),
        s.outside.to_string_lossy().into_owned(),
        sibling.to_string_lossy().into_owned(),
        s.root.parent().unwrap().to_string_lossy().into_owned(),
        "relative/root".to_string(),
    ] {
        let r = s
            .post_json(
                "/api/v1/previews",
                &json!({"workspaceRoot": root, "relativePath": "a.txt"}),
            )
            .await;
        assert_eq!(
            error_of(r).await,
            (403, "unknown_workspace".into()),
            "{root}"
        );
    }
    // A sibling-prefix root: `/…/ws` allowed must not admit `/…/wsx` via a path trick.
    let r = s
        .post_json(
            "/api/v1/previews",
            &json!({"workspaceRoot": format!("{}x", s.root_str()), "relativePath": "a.txt"}),
        )
        .await;
    assert_eq!(error_of(r).await, (403, "unknown_workspace".into()));
}

#[tokio::test(flavor = "multi_thread")]
async fn too_large_files_report_size_and_limit() {
    let s = start(|c| c.limits.text_bytes = 100).await;
    s.write("big.txt", vec![b'a'; 101]);
    let r = s.preview("big.txt").await;
    assert_eq!(r.status(), 413);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "too_large");
    assert_eq!(body["error"]["size"], 101);
    assert_eq!(body["error"]["limit"], 100);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_parent_swapped_for_a_link_never_leaks_outside_bytes() {
    // A second thread keeps swapping `sub` between a real folder and a link to outside
    // while requests run; every answer must be the inside bytes or a refusal.
    let s = start(|_| {}).await;
    s.write_outside("swap/f.txt", "OUTSIDE");
    let inside_dir = s.root.join("sub-real");
    std::fs::create_dir_all(&inside_dir).unwrap();
    std::fs::write(inside_dir.join("f.txt"), "INSIDE!").unwrap();
    let sub = s.root.join("sub");
    let outside_dir = s.outside.join("swap");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let swapper = {
        let stop = stop.clone();
        let sub = sub.clone();
        std::thread::spawn(move || {
            let tmp_link = sub.with_extension("tmp");
            let mut flip = false;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = std::fs::remove_file(&tmp_link);
                let target = if flip { &outside_dir } else { &inside_dir };
                symlink(target, &tmp_link).unwrap();
                std::fs::rename(&tmp_link, &sub).unwrap();
                flip = !flip;
            }
        })
    };
    let mut inside = 0;
    let mut refused = 0;
    for _ in 0..300 {
        let r = s.preview("sub/f.txt").await;
        match r.status().as_u16() {
            201 => {
                let body: serde_json::Value = r.json().await.unwrap();
                // 7 bytes either way; the raw bytes tell which file was read.
                assert_eq!(body["size"], 7);
                let id = body["previewId"].as_str().unwrap();
                let token = body["token"].as_str().unwrap();
                let raw = s.get_text(&format!("/p/{id}/{token}/raw")).await;
                assert_eq!(raw, "INSIDE!");
                inside += 1;
            }
            403 => {
                let (_, code) = error_of(r).await;
                assert_eq!(code, "outside_workspace");
                refused += 1;
            }
            404 => refused += 1,
            other => panic!("unexpected status {other}"),
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    swapper.join().unwrap();
    assert_eq!(inside + refused, 300);
}

#[tokio::test(flavor = "multi_thread")]
async fn errors_never_carry_host_paths() {
    let s = start(|_| {}).await;
    symlink(s.outside.join("x"), s.root.join("l")).unwrap();
    for rel in ["l", "missing", "../x"] {
        let text = s.preview(rel).await.text().await.unwrap();
        assert!(!text.contains(&s.root_str()), "{text}");
        assert!(!text.contains("/tmp"), "{text}");
        assert!(!text.contains("os error"), "{text}");
    }
}
