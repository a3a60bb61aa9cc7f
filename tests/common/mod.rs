//! Shared test support: a real previewd on a real loopback listener over a temporary
//! workspace of real files.

#![allow(dead_code)]

pub mod browser;
pub mod docx;
pub mod pptx;
pub mod xlsx;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use previewd::server::{serve, AppState};
use previewd::Config;
use tokio::sync::oneshot;

/// A running server and the workspace it serves.
pub struct TestServer {
    /// `http://127.0.0.1:PORT`
    pub base: String,
    /// The bound address.
    pub addr: SocketAddr,
    /// The workspace root (canonical).
    pub root: PathBuf,
    /// Folder beside the workspace (outside it), for escape targets.
    pub outside: PathBuf,
    /// Shared state (to inspect snapshots).
    pub state: Arc<AppState>,
    _tmp: tempfile::TempDir,
    stop: Option<oneshot::Sender<()>>,
    /// HTTP client that does not follow redirects.
    pub http: reqwest::Client,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// Starts a server over a fresh workspace; `tweak` adjusts the config first.
pub async fn start(tweak: impl FnOnce(&mut Config)) -> TestServer {
    let tmp = tempfile::tempdir().unwrap();
    let base_dir = std::fs::canonicalize(tmp.path()).unwrap();
    let root = base_dir.join("ws");
    let outside = base_dir.join("outside");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let mut config = Config {
        workspaces: vec![root.clone()],
        listen: "127.0.0.1:0".parse().unwrap(),
        ..Config::default()
    };
    config.diffs.data_dir = Some(base_dir.join("diffs"));
    tweak(&mut config);
    start_with(config, tmp, root, outside).await
}

/// Starts a server with a complete config (for restarts over the same data directory).
pub async fn start_with(
    config: Config,
    tmp: tempfile::TempDir,
    root: PathBuf,
    outside: PathBuf,
) -> TestServer {
    let listener = tokio::net::TcpListener::bind(config.listen).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let state = Arc::new(AppState::new(config, addr).unwrap());
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(serve(listener, state.clone(), async move {
        let _ = stopped.await;
    }));
    TestServer {
        base: format!("http://{addr}"),
        addr,
        root,
        outside,
        state,
        _tmp: tmp,
        stop: Some(stop),
        http: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
    }
}

impl TestServer {
    /// Stops this server and starts a new one with the same config, workspace and data.
    pub async fn restart(mut self) -> TestServer {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let mut config = self.state.config.clone();
        config.listen = "127.0.0.1:0".parse().unwrap();
        let tmp = std::mem::replace(&mut self._tmp, tempfile::tempdir().unwrap());
        start_with(config, tmp, self.root.clone(), self.outside.clone()).await
    }

    /// Writes a file inside the workspace (parents created).
    pub fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        write_file(&self.root.join(rel), bytes.as_ref())
    }

    /// Copies `fixtures/{rel}` of the repository to the same path in the workspace.
    pub fn copy_fixture(&self, rel: &str) -> PathBuf {
        let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(rel);
        self.write(
            rel,
            std::fs::read(&from).expect("a fixture of the repository"),
        )
    }

    /// Writes a file outside the workspace.
    pub fn write_outside(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        write_file(&self.outside.join(rel), bytes.as_ref())
    }

    /// The workspace root as a string.
    pub fn root_str(&self) -> String {
        self.root.to_string_lossy().into_owned()
    }

    /// `POST path` with a JSON body.
    pub async fn post_json(&self, path: &str, body: &serde_json::Value) -> reqwest::Response {
        self.http
            .post(format!("{}{path}", self.base))
            .json(body)
            .send()
            .await
            .unwrap()
    }

    /// `POST /api/v1/previews` for `rel` in this workspace.
    pub async fn preview(&self, rel: &str) -> reqwest::Response {
        self.post_json(
            "/api/v1/previews",
            &serde_json::json!({"workspaceRoot": self.root_str(), "relativePath": rel}),
        )
        .await
    }

    /// Creates a preview and returns its JSON, asserting success.
    pub async fn preview_ok(&self, rel: &str) -> serde_json::Value {
        let response = self.preview(rel).await;
        let status = response.status();
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(status, 201, "{rel}: {body}");
        body
    }

    /// `GET path` as forwarded by a (trusted) proxy for the client `ip`.
    pub async fn get_as(&self, path: &str, ip: &str) -> reqwest::Response {
        self.http
            .get(format!("{}{path}", self.base))
            .header("x-forwarded-for", ip)
            .send()
            .await
            .unwrap()
    }

    /// The body of `GET path` on this server, as text (whatever the status).
    pub async fn get_text(&self, path: &str) -> String {
        self.get(path).await.text().await.unwrap()
    }

    /// `GET path` on this server.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap()
    }
}

fn write_file(path: &Path, bytes: &[u8]) -> PathBuf {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(path, bytes).unwrap();
    path.to_owned()
}

/// The error code of a JSON error response, with its status.
pub async fn error_of(response: reqwest::Response) -> (u16, String) {
    let status = response.status().as_u16();
    let body: serde_json::Value = response.json().await.unwrap();
    (
        status,
        body["error"]["code"]
            .as_str()
            .unwrap_or("<none>")
            .to_string(),
    )
}

/// The `(previewId, token)` of a snapshot answer.
pub fn ids(body: &serde_json::Value) -> (String, String) {
    (
        body["previewId"].as_str().unwrap().to_string(),
        body["token"].as_str().unwrap().to_string(),
    )
}

/// A tiny valid PNG (1×1, opaque red).
pub fn tiny_png() -> Vec<u8> {
    let mut out = Vec::new();
    let img = image::RgbaImage::from_pixel(1, 1, image::Rgba([255, 0, 0, 255]));
    img.write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .unwrap();
    out
}

/// The text of a PDF by Poppler's `pdftotext -layout` (what a reader copies out of it).
pub fn pdftotext(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("diff.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = std::process::Command::new("pdftotext")
        .args(["-layout".as_ref(), path.as_os_str(), "-".as_ref()])
        .output()
        .expect("pdftotext (Debian's poppler-utils) is needed: run the README's test command");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}
