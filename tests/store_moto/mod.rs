//! Test harness of the shared store: a real S3-protocol server (`moto_server`, installed
//! by `scripts/test.sh` in `target/moto-venv`) on a free loopback port, `previewd serve`
//! processes that share its bucket, and a TCP relay that can kill an instance at a chosen
//! request.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The bucket every test uses (each test has its own server, so its own bucket).
pub const BUCKET: &str = "previewd-test";

/// A running `moto_server`, stopped on drop.
pub struct Moto {
    child: Child,
    /// `http://127.0.0.1:{port}`.
    pub endpoint: String,
    pub port: u16,
}

fn moto_binary() -> PathBuf {
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/moto-venv/bin/moto_server");
    if venv.exists() {
        return venv;
    }
    // On PATH (scripts/test.sh exports the venv), else the test fails below with a hint.
    PathBuf::from("moto_server")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Moto {
    /// Starts the server, waits until it answers, and creates [`BUCKET`].
    pub fn start(logs: &Path) -> Moto {
        let port = free_port();
        let child = Command::new(moto_binary())
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(logs.join("moto.out")).unwrap())
            .stderr(std::fs::File::create(logs.join("moto.err")).unwrap())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "moto_server is needed (scripts/test.sh installs it in target/moto-venv): {e}"
                )
            });
        let moto = Moto {
            child,
            endpoint: format!("http://127.0.0.1:{port}"),
            port,
        };
        let give_up = Instant::now() + Duration::from_secs(60);
        loop {
            // An unsigned PUT creates a bucket on moto.
            if let Ok(200) = raw_http(port, &format!("PUT /{BUCKET} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")) {
                return moto;
            }
            assert!(
                Instant::now() < give_up,
                "moto_server did not start; see {}",
                logs.display()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// SIGSTOP: the server keeps its socket (connections are accepted by the kernel) but
    /// answers nothing, like a hung store.
    pub fn pause(&self) {
        signal(self.child.id(), libc::SIGSTOP);
    }

    /// SIGCONT after [`Moto::pause`].
    pub fn resume(&self) {
        signal(self.child.id(), libc::SIGCONT);
    }

    /// The keys (below the bucket) of every object, by a plain ListObjects call.
    pub fn keys(&self) -> Vec<String> {
        self.objects().into_iter().map(|(key, _)| key).collect()
    }

    /// The key and size of every object, by a plain ListObjects call.
    pub fn objects(&self) -> Vec<(String, u64)> {
        let body = raw_http_body(
            self.port,
            &format!("GET /{BUCKET}?list-type=2 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
        );
        let field = |entry: &str, name: &str| {
            let open = format!("<{name}>");
            let rest = entry.split(open.as_str()).nth(1)?;
            Some(rest.split(&format!("</{name}>")).next()?.to_string())
        };
        body.split("<Contents>")
            .skip(1)
            .filter_map(|entry| {
                let size = field(entry, "Size")?.parse().ok()?;
                Some((field(entry, "Key")?, size))
            })
            .collect()
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        self.resume();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn signal(pid: u32, sig: libc::c_int) {
    // SAFETY: kill with a pid this test spawned and still owns (not yet reaped).
    unsafe {
        libc::kill(pid as libc::pid_t, sig);
    }
}

/// One HTTP/1.1 request on a fresh connection; the status code.
fn raw_http(port: u16, request: &str) -> std::io::Result<u16> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    stream.write_all(request.as_bytes())?;
    let mut head = [0u8; 12];
    stream.read_exact(&mut head)?;
    let text = String::from_utf8_lossy(&head);
    text[9..12]
        .parse()
        .map_err(|_| std::io::Error::other("bad status line"))
}

fn raw_http_body(port: u16, request: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut all = String::new();
    stream.read_to_string(&mut all).unwrap();
    all
}

/// A `previewd serve` process on a free port with the store of `endpoint`.
pub struct Instance {
    child: Child,
    pub base: String,
    pub pid: u32,
}

impl Instance {
    /// Starts the built binary on `workspace` with `[store] backend = "s3"` against
    /// `endpoint`, plus `extra` environment; waits for its listening line.
    pub fn start(
        name: &str,
        logs: &Path,
        workspace: &Path,
        endpoint: &str,
        extra: &[(&str, &str)],
    ) -> Instance {
        let mut env = vec![
            ("PREVIEWD_STORE__BACKEND", "s3"),
            ("PREVIEWD_STORE__BUCKET", BUCKET),
            ("PREVIEWD_STORE__ENDPOINT", endpoint),
            ("PREVIEWD_STORE__ALLOW_HTTP", "true"),
            ("PREVIEWD_STORE__ACCESS_KEY_ID", "testing"),
            ("PREVIEWD_STORE__SECRET_ACCESS_KEY", "testing"),
            ("PREVIEWD_STORE__OPERATION_TIMEOUT_MS", "700"),
            ("PREVIEWD_STORE__MAX_RETRIES", "1"),
        ];
        // Later entries win, so a caller may set the backend back to `local`.
        env.extend_from_slice(extra);
        let binary = Path::new(env!("CARGO_BIN_EXE_previewd"));
        Instance::start_binary(binary, name, logs, workspace, &env)
    }

    /// Starts `binary` (this build's, or another build's for a comparison) on
    /// `workspace` with just `env` set; waits for its listening line.
    pub fn start_binary(
        binary: &Path,
        name: &str,
        logs: &Path,
        workspace: &Path,
        extra: &[(&str, &str)],
    ) -> Instance {
        let log = logs.join(format!("{name}.log"));
        let mut command = Command::new(binary);
        command
            .args([
                "serve",
                "--workspace",
                workspace.to_str().unwrap(),
                "--listen",
                "127.0.0.1:0",
            ])
            .env_remove("PREVIEWD_CONFIG")
            .env("PREVIEWD_LOG", "info")
            .env(
                "PREVIEWD_DIFFS__DATA_DIR",
                logs.join(format!("{name}-diffs")),
            );
        // The bench's own knobs (`PREVIEWD_BENCH_ROUNDS` …) share the service's prefix,
        // and the service refuses a `PREVIEWD_*` variable it does not know.
        for (k, _) in std::env::vars_os() {
            if k.to_str().is_some_and(|k| k.starts_with("PREVIEWD_BENCH_")) {
                command.env_remove(k);
            }
        }
        for (k, v) in extra {
            command.env(k, v);
        }
        let child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let pid = child.id();
        // Owned (and so killed and reaped on drop) before anything here can fail.
        let mut instance = Instance {
            child,
            base: String::new(),
            pid,
        };
        let give_up = Instant::now() + Duration::from_secs(30);
        loop {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            if let Some(i) = text.find("http://127.0.0.1:") {
                let rest = &text[i..];
                let end = rest["http://".len()..]
                    .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ':'))
                    .map_or(rest.len(), |e| e + "http://".len());
                instance.base = rest[..end].to_string();
                return instance;
            }
            assert!(Instant::now() < give_up, "{name} did not start: {text}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Kills the process at once (SIGKILL), as a crashed machine would stop it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A TCP relay to the store that acts once a request whose bytes contain `needle`
/// passes: [`Relay::start`] kills a process (SIGKILL) before forwarding it,
/// [`Relay::holding`] holds it back until [`Relay::release`].
pub struct Relay {
    pub endpoint: String,
    /// The needle has passed (and the process was killed, or the request is held).
    pub fired: Arc<AtomicBool>,
    victim: Arc<AtomicI32>,
    /// Hold mode: whether the held request may go on.
    released: Option<Arc<AtomicBool>>,
}

/// What the relay does when its needle passes.
#[derive(Clone)]
struct Watch {
    needle: &'static str,
    fired: Arc<AtomicBool>,
    victim: Arc<AtomicI32>,
    released: Option<Arc<AtomicBool>>,
}

impl Relay {
    /// A relay that kills the process given to [`Relay::arm`] when `needle` passes.
    pub fn start(upstream: u16, needle: &'static str) -> Relay {
        Relay::with(upstream, needle, None)
    }

    /// A relay that holds the first request with `needle` (the request's connection
    /// stalls, as on a slow network) until [`Relay::release`]; later ones pass.
    pub fn holding(upstream: u16, needle: &'static str) -> Relay {
        Relay::with(upstream, needle, Some(Arc::new(AtomicBool::new(false))))
    }

    fn with(upstream: u16, needle: &'static str, released: Option<Arc<AtomicBool>>) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let endpoint = format!("http://{}", listener.local_addr().unwrap());
        let watch = Watch {
            needle,
            fired: Arc::new(AtomicBool::new(false)),
            victim: Arc::new(AtomicI32::new(0)),
            released,
        };
        let relay = Relay {
            endpoint,
            fired: watch.fired.clone(),
            victim: watch.victim.clone(),
            released: watch.released.clone(),
        };
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                let Ok(server) = TcpStream::connect(("127.0.0.1", upstream)) else {
                    continue;
                };
                let watch = watch.clone();
                let (client_r, server_w) =
                    (client.try_clone().unwrap(), server.try_clone().unwrap());
                std::thread::spawn(move || pump_watching(client_r, server_w, &watch));
                std::thread::spawn(move || pump(server, client));
            }
        });
        relay
    }

    /// The process to kill when the needle passes.
    pub fn arm(&self, pid: u32) {
        self.victim.store(pid as i32, Ordering::SeqCst);
    }

    /// Waits (at most `limit`) until the needle has passed; whether it has.
    pub fn wait_fired(&self, limit: Duration) -> bool {
        let give_up = Instant::now() + limit;
        while !self.fired.load(Ordering::SeqCst) && Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(20));
        }
        self.fired.load(Ordering::SeqCst)
    }

    /// Lets the held request go on.
    pub fn release(&self) {
        if let Some(released) = &self.released {
            released.store(true, Ordering::SeqCst);
        }
    }
}

fn pump(mut from: TcpStream, mut to: TcpStream) {
    let mut buf = [0u8; 16 * 1024];
    while let Ok(n) = from.read(&mut buf) {
        if n == 0 || to.write_all(&buf[..n]).is_err() {
            break;
        }
    }
    let _ = to.shutdown(std::net::Shutdown::Both);
}

fn pump_watching(mut from: TcpStream, mut to: TcpStream, watch: &Watch) {
    let mut buf = [0u8; 16 * 1024];
    // The tail of the previous chunk, so a needle split across two reads is still seen.
    let mut tail: Vec<u8> = Vec::new();
    while let Ok(n) = from.read(&mut buf) {
        if n == 0 {
            break;
        }
        let mut window = std::mem::take(&mut tail);
        window.extend_from_slice(&buf[..n]);
        let seen = || String::from_utf8_lossy(&window).contains(watch.needle);
        match &watch.released {
            Some(released) if !watch.fired.load(Ordering::SeqCst) && seen() => {
                // Only the first such request is held (fired is set once, here).
                if !watch.fired.swap(true, Ordering::SeqCst) {
                    while !released.load(Ordering::SeqCst) {
                        std::thread::sleep(Duration::from_millis(10));
                    }
                }
            }
            Some(_) => {}
            None => {
                let pid = watch.victim.load(Ordering::SeqCst);
                if pid != 0 && seen() {
                    // Marked before the kill: the test sees the kill (its request fails)
                    // and then reads the mark, which a busy machine could otherwise run
                    // before this thread stored it.
                    watch.fired.store(true, Ordering::SeqCst);
                    signal(pid as u32, libc::SIGKILL);
                    // The request dies with its sender: nothing of it reaches the store.
                    let _ = to.shutdown(std::net::Shutdown::Both);
                    return;
                }
            }
        }
        if to.write_all(&buf[..n]).is_err() {
            break;
        }
        let keep = window.len().saturating_sub(256);
        tail = window.split_off(keep);
    }
    let _ = to.shutdown(std::net::Shutdown::Both);
}
