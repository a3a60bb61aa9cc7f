//! Every attack of `spec/workspace-access.md`, through the real HTTP API on a real listener,
//! with real files, real symlinks and a real FIFO.

mod common;

use std::os::unix::fs::{symlink, OpenOptionsExt};
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
    // An absolute target counts as outside unless it resolves inside: this one does.
    assert_eq!(raw_of(&s, "absolute-alias/page.txt").await, "inside");
}

/// The bytes a preview of `rel` holds, asserting it was made.
async fn raw_of(s: &common::TestServer, rel: &str) -> String {
    let body = s.preview_ok(rel).await;
    let (id, token) = common::ids(&body);
    s.get_text(&format!("/p/{id}/{token}/raw")).await
}

#[tokio::test(flavor = "multi_thread")]
async fn absolute_links_that_resolve_inside_are_followed() {
    let s = start(|_| {}).await;
    s.write("real/page.txt", "inside");
    let root = s.root.clone();
    // A file, a folder, a chain mixing absolute and relative links, an absolute link
    // through an absolute folder link, and a relative `..` link back to an absolute one.
    symlink(root.join("real/page.txt"), root.join("abs-file.txt")).unwrap();
    symlink(root.join("real"), root.join("abs-dir")).unwrap();
    symlink(root.join("chain-b.txt"), root.join("chain-a.txt")).unwrap();
    symlink("real/page.txt", root.join("chain-b.txt")).unwrap();
    symlink(root.join("abs-dir/page.txt"), root.join("chain-c.txt")).unwrap();
    symlink("../abs-file.txt", root.join("real/up.txt")).unwrap();
    // The root itself as the target of a folder link.
    symlink(&root, root.join("self")).unwrap();
    for rel in [
        "abs-file.txt",
        "abs-dir/page.txt",
        "chain-a.txt",
        "chain-c.txt",
        "real/up.txt",
        "abs-dir/up.txt",
        "self/self/real/page.txt",
    ] {
        assert_eq!(raw_of(&s, rel).await, "inside", "{rel}");
        let r = s
            .post_json(
                "/api/v1/stat",
                &json!({"workspaceRoot": s.root_str(), "relativePath": rel}),
            )
            .await;
        assert_eq!(r.status(), 200, "stat {rel}");
    }
    // A missing file under an absolute link that stays inside is just missing.
    assert_eq!(
        code_for(&s, "abs-dir/missing.txt").await,
        (404, "not_found".into())
    );
    // The root as a file is a folder.
    assert_eq!(code_for(&s, "self").await, (422, "not_a_file".into()));
}

#[tokio::test(flavor = "multi_thread")]
async fn absolute_links_that_leave_are_refused() {
    let s = start(|_| {}).await;
    let root = s.root.clone();
    s.write_outside("secret.txt", "TOP SECRET");
    let sibling = root.parent().unwrap().join("wsx");
    std::fs::create_dir_all(&sibling).unwrap();
    std::fs::write(sibling.join("a.txt"), "TOP SECRET").unwrap();
    symlink(s.outside.join("secret.txt"), root.join("out.txt")).unwrap();
    // A sibling whose name starts with the root's name is not inside it.
    symlink(sibling.join("a.txt"), root.join("sibling.txt")).unwrap();
    // Naming the root and then climbing out of it.
    symlink(root.join("../outside/secret.txt"), root.join("climb.txt")).unwrap();
    // An inside absolute link to an inside link that leads out.
    symlink(root.join("out.txt"), root.join("via-inside.txt")).unwrap();
    symlink(&root, root.join("self")).unwrap();
    symlink("/", root.join("slash")).unwrap();
    for rel in [
        "out.txt",
        "sibling.txt",
        "climb.txt",
        "via-inside.txt",
        "self/out.txt",
        "slash/etc/passwd",
        "self/../outside/secret.txt",
    ] {
        let (status, code) = code_for(&s, rel).await;
        // `self/../…` is caught lexically; every other one by the door.
        if rel.contains("..") {
            assert_eq!((status, code.as_str()), (400, "invalid_reference"), "{rel}");
        } else {
            assert_eq!((status, code.as_str()), (403, "outside_workspace"), "{rel}");
        }
    }
    // A loop of absolute links ends, as a loop.
    symlink(root.join("loop-b"), root.join("loop-a")).unwrap();
    symlink(root.join("loop-a"), root.join("loop-b")).unwrap();
    assert_eq!(code_for(&s, "loop-a").await, (422, "not_a_file".into()));
}

#[tokio::test(flavor = "multi_thread")]
async fn hard_links_are_refused_unless_allowed() {
    let s = start(|_| {}).await;
    let secret = s.write_outside("secret.txt", "TOP SECRET");
    std::fs::hard_link(&secret, s.root.join("linked.txt")).unwrap();
    s.write("plain.txt", "plain");
    for route in ["/api/v1/previews", "/api/v1/stat"] {
        let r = s
            .post_json(
                route,
                &json!({"workspaceRoot": s.root_str(), "relativePath": "linked.txt"}),
            )
            .await;
        assert_eq!(r.status(), 403, "{route}");
        let body: serde_json::Value = r.json().await.unwrap();
        assert_eq!(body["error"]["code"], "outside_workspace", "{route}");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(message.contains("preview.allow_hard_links"), "{message}");
        assert!(!message.contains(&s.root_str()), "{message}");
    }
    // A symlink to the hard link is refused the same way; a file with one name is served.
    symlink("linked.txt", s.root.join("alias.txt")).unwrap();
    assert_eq!(
        code_for(&s, "alias.txt").await,
        (403, "outside_workspace".into())
    );
    assert_eq!(raw_of(&s, "plain.txt").await, "plain");

    let s = start(|c| c.preview.allow_hard_links = true).await;
    let secret = s.write_outside("secret.txt", "SHARED");
    std::fs::hard_link(&secret, s.root.join("linked.txt")).unwrap();
    assert_eq!(raw_of(&s, "linked.txt").await, "SHARED");
}

/// Watches one inode for opens with inotify; an `O_PATH` handle or a `stat` makes no event,
/// a real open (the one that runs a FIFO's or a device driver's `open`) does.
struct OpenWatch {
    fd: std::os::fd::OwnedFd,
}

impl OpenWatch {
    fn new(path: &std::path::Path) -> OpenWatch {
        use std::os::fd::FromRawFd;
        // SAFETY: plain syscalls; the fd is owned right after it is made.
        let fd = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
        assert!(fd >= 0, "inotify_init1 failed");
        let fd = unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) };
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        use std::os::fd::AsRawFd;
        // SAFETY: valid fd and NUL-terminated path; IN_DONT_FOLLOW watches the entry itself.
        let wd = unsafe {
            libc::inotify_add_watch(
                fd.as_raw_fd(),
                c.as_ptr(),
                libc::IN_OPEN | libc::IN_DONT_FOLLOW,
            )
        };
        assert!(wd >= 0, "inotify_add_watch failed");
        OpenWatch { fd }
    }

    /// How many opens were seen since the last call.
    fn opens(&self) -> usize {
        use std::os::fd::AsRawFd;
        let mut buf = [0u8; 4096];
        let mut count = 0;
        loop {
            // SAFETY: reading into a buffer we own; the fd is non-blocking.
            let n = unsafe { libc::read(self.fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
            if n <= 0 {
                return count;
            }
            let mut at = 0usize;
            while at < n as usize {
                let mask = u32::from_ne_bytes(buf[at + 4..at + 8].try_into().unwrap());
                let len = u32::from_ne_bytes(buf[at + 12..at + 16].try_into().unwrap()) as usize;
                if mask & libc::IN_OPEN != 0 {
                    count += 1;
                }
                at += 16 + len;
            }
        }
    }
}

fn make_node(path: &std::path::Path, mode: libc::mode_t, dev: libc::dev_t) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: mknod with a valid NUL-terminated path.
    let rc = unsafe { libc::mknod(c.as_ptr(), mode, dev) };
    assert_eq!(
        rc,
        0,
        "mknod {}: {}",
        path.display(),
        std::io::Error::last_os_error()
    );
}

/// Asks for `rel` through both routes that take a reference; each must be `not_a_file`.
async fn refused_as_not_a_file(s: &common::TestServer, rel: &str) {
    for route in ["/api/v1/stat", "/api/v1/previews"] {
        let r = s
            .post_json(
                route,
                &json!({"workspaceRoot": s.root_str(), "relativePath": rel}),
            )
            .await;
        let answer = tokio::time::timeout(Duration::from_secs(10), error_of(r))
            .await
            .expect("must not block");
        assert_eq!(answer, (422, "not_a_file".into()), "{route} {rel}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_fifo_is_typed_without_being_opened() {
    let s = start(|_| {}).await;
    let fifo = s.root.join("pipe.txt");
    make_node(&fifo, libc::S_IFIFO | 0o644, 0);
    symlink("pipe.txt", s.root.join("pipe-alias.txt")).unwrap();
    symlink(&fifo, s.root.join("pipe-absolute.txt")).unwrap();
    let watch = OpenWatch::new(&fifo);
    for rel in ["pipe.txt", "pipe-alias.txt", "pipe-absolute.txt"] {
        refused_as_not_a_file(&s, rel).await;
    }
    assert_eq!(watch.opens(), 0, "previewd opened the FIFO");
    // The watch does see a real open (so the zero above means something).
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    drop(opened);
    assert_eq!(watch.opens(), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn device_nodes_are_typed_without_being_opened() {
    // SAFETY: geteuid has no preconditions.
    let euid = unsafe { libc::geteuid() };
    assert_eq!(
        euid, 0,
        "this test makes device nodes with mknod, which needs root (CI runs as root); run it as root"
    );
    let s = start(|_| {}).await;
    // The same device numbers as /dev/zero and /dev/null, as nodes inside the workspace.
    let zero = s.root.join("zero.txt");
    let null = s.root.join("null.txt");
    make_node(&zero, libc::S_IFCHR | 0o644, libc::makedev(1, 5));
    make_node(&null, libc::S_IFCHR | 0o644, libc::makedev(1, 3));
    symlink("zero.txt", s.root.join("zero-alias.txt")).unwrap();
    symlink(&null, s.root.join("null-absolute.txt")).unwrap();
    let zero_watch = OpenWatch::new(&zero);
    let null_watch = OpenWatch::new(&null);
    for rel in [
        "zero.txt",
        "null.txt",
        "zero-alias.txt",
        "null-absolute.txt",
    ] {
        refused_as_not_a_file(&s, rel).await;
    }
    assert_eq!(zero_watch.opens(), 0, "previewd opened a device node");
    assert_eq!(null_watch.opens(), 0, "previewd opened a device node");
    drop(std::fs::File::open(&null).unwrap());
    assert_eq!(null_watch.opens(), 1);
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
