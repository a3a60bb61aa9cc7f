//! Every limit and default of previewd in one typed struct.
//!
//! A [`Config`] is built in three layers, later layers winning: a TOML file, `PREVIEWD_*`
//! environment variables, then command-line flags (applied by `main.rs`). Environment
//! variables address nested fields with a double underscore: `PREVIEWD_LIMITS__TEXT_BYTES=1024`
//! sets `limits.text_bytes`. A value that parses as a TOML value (number, boolean, array) is
//! taken as that; anything else is a string, so `PREVIEWD_LISTEN=0.0.0.0:9000` just works.

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

const KIB: u64 = 1024;
const MIB: u64 = 1024 * KIB;

/// The whole configuration of a previewd instance.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Address the HTTP server listens on.
    pub listen: SocketAddr,
    /// Allowed workspace roots, each served under the id of its final path component.
    pub workspaces: Vec<PathBuf>,
    /// Folders whose direct child folders are each an allowed workspace.
    pub workspace_parents: Vec<PathBuf>,
    /// Public origin (scheme://host[:port][/path]) used to build absolute URLs; defaults to the
    /// listen address on loopback.
    pub public_origin: Option<String>,
    /// Size limits.
    pub limits: Limits,
    /// Preview snapshot store.
    pub snapshots: SnapshotConfig,
    /// Who may reach the service.
    pub security: SecurityConfig,
    /// Preview behaviour.
    pub preview: PreviewConfig,
    /// Bounded pool for blocking work (file reads, parsing, rendering).
    pub work: WorkConfig,
    /// Diff artifacts (the `diffs` tool back end).
    pub diffs: DiffsConfig,
    /// Guards of the Office container (zip) and XML parsers.
    pub office: crate::office::OfficeLimits,
    /// The machine fonts the Office viewers serve (`/fonts/{id}`).
    pub fonts: FontsConfig,
    /// Limits of the PDF stage (pages, objects, inflated bytes, pixels, time per page).
    pub pdf: crate::pdf::PdfLimits,
    /// Headless Chromium for the diff PNG/PDF export.
    pub browser: BrowserConfig,
    /// Which engine draws diff PNG/PDF files.
    pub export: ExportConfig,
    /// Where diff artifacts and snapshots are kept: this machine (`local`), or an
    /// S3-compatible bucket shared by several instances (`s3`).
    pub store: SharedStoreConfig,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8791)),
            workspaces: Vec::new(),
            workspace_parents: Vec::new(),
            public_origin: None,
            limits: Limits::default(),
            snapshots: SnapshotConfig::default(),
            security: SecurityConfig::default(),
            preview: PreviewConfig::default(),
            work: WorkConfig::default(),
            diffs: DiffsConfig::default(),
            office: crate::office::OfficeLimits::default(),
            fonts: FontsConfig::default(),
            pdf: crate::pdf::PdfLimits::default(),
            browser: BrowserConfig::default(),
            export: ExportConfig::default(),
            store: SharedStoreConfig::default(),
        }
    }
}

/// Size limits, in bytes unless named otherwise.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Text, HTML, Markdown and source files.
    pub text_bytes: u64,
    /// DOCX, PPTX and XLSX files (compressed size).
    pub office_bytes: u64,
    /// CSV and TSV files. Their table costs about twice the file in snapshot memory.
    pub csv_bytes: u64,
    /// CSV and TSV files larger than this are read in the background: the preview answers
    /// once the first rows are in, and the grid grows as the rest arrives (its SHA-256 is
    /// known only at the end). Smaller ones are read whole first.
    pub csv_stream_bytes: u64,
    /// XLSX and XLSM workbooks larger than this (compressed) are read in the background
    /// the same way: the preview answers once the first rows of the first visible sheet
    /// are in, and that sheet grows as the rest is parsed. Smaller ones are parsed whole.
    pub xlsx_stream_bytes: u64,
    /// PDF files.
    pub pdf_bytes: u64,
    /// Images.
    pub image_bytes: u64,
    /// Sibling assets a previewed HTML page loads (scripts, styles, images, fonts).
    pub asset_bytes: u64,
    /// Files of any other kind are hashed up to this size but their bytes are never kept.
    pub other_hash_bytes: u64,
    /// Longest accepted `relativePath`.
    pub relative_path_bytes: usize,
    /// Source files above this size are shown as plain escaped text, not highlighted.
    pub highlight_bytes: u64,
    /// Largest rendered view (Source, Markdown, Document, Slides) a snapshot caches; a view
    /// that renders larger is replaced by a notice saying so (the file stays downloadable).
    pub rendered_view_bytes: u64,
    /// Response bytes of raw files, media parts and models that may be waiting for slow
    /// clients at once, across all connections; a response past it gets 429 `busy`.
    pub inflight_bytes: u64,
    /// A connection whose client takes nothing of a pending response for this long is
    /// closed (0: never).
    pub write_timeout_seconds: u64,
    /// Largest accepted JSON request body.
    pub request_body_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            text_bytes: 2 * MIB,
            office_bytes: 20 * MIB,
            csv_bytes: 128 * MIB,
            csv_stream_bytes: 4 * MIB,
            xlsx_stream_bytes: MIB,
            pdf_bytes: 50 * MIB,
            image_bytes: 50 * MIB,
            asset_bytes: 20 * MIB,
            other_hash_bytes: 64 * MIB,
            relative_path_bytes: 4096,
            highlight_bytes: 128 * KIB,
            rendered_view_bytes: 32 * MIB,
            inflight_bytes: 256 * MIB,
            write_timeout_seconds: 30,
            // Room for the largest valid diff input (2 MiB patch) after JSON escaping, which
            // can grow a byte to six (`\u0000`).
            request_body_bytes: (13 * MIB) as usize,
        }
    }
}

/// Preview snapshots: how long they live and how much they may hold.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SnapshotConfig {
    /// Lifetime of a snapshot.
    pub ttl_seconds: u64,
    /// Most snapshots kept at once (least recently used go first).
    pub max_count: usize,
    /// Most bytes held across all snapshots: file bytes, the measured heap of parsed Office
    /// models, cached rendered views, `model.json` bodies and media parts. A snapshot of
    /// unchanged bytes shares (and is charged once with) an earlier one.
    pub max_bytes: u64,
}

impl Default for SnapshotConfig {
    fn default() -> Self {
        SnapshotConfig {
            ttl_seconds: 30 * 60,
            max_count: 256,
            max_bytes: 512 * MIB,
        }
    }
}

/// The machine fonts the Office viewers serve: the metric-compatible open families the
/// font resolver puts first in a document's stacks (Carlito, Caladea, Liberation, DejaVu,
/// Noto CJK), so every client lays text out with the same metrics.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct FontsConfig {
    /// Folders scanned once at start (recursively) for font files; missing ones are
    /// skipped. Empty: no machine fonts are served (stacks still name them).
    pub dirs: Vec<PathBuf>,
    /// Font files larger than this are not served (a CJK collection is ≈ 26 MiB).
    pub max_font_bytes: u64,
}

impl Default for FontsConfig {
    fn default() -> Self {
        FontsConfig {
            dirs: vec![
                PathBuf::from("/usr/share/fonts"),
                PathBuf::from("/usr/local/share/fonts"),
                // fonts-wine keeps its faces out of fontconfig's folders; its Tahoma is
                // drawn to Tahoma's advance widths, a stand-in under Tahoma's own name.
                PathBuf::from("/usr/share/wine/fonts"),
            ],
            max_font_bytes: 32 * MIB,
        }
    }
}

/// Access rules.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SecurityConfig {
    /// Serve non-loopback clients at all. Off by default.
    pub allow_remote: bool,
    /// Bearer token remote clients must send to the API (`/api/…`). Tokenized view URLs
    /// carry their own secret and need no bearer token.
    pub api_token: Option<String>,
    /// Reverse proxies whose `x-forwarded-for` is believed. With none, any forwarding header
    /// makes a request non-local.
    pub trusted_proxies: Vec<IpAddr>,
    /// `frame-ancestors` source list of previewd's own pages (the chat client that embeds
    /// the viewer goes here).
    pub frame_ancestors: String,
    /// Failed lookups a remote client may make within the window before it is locked out.
    pub miss_limit: u32,
    /// Window for counting failures, seconds.
    pub miss_window_seconds: u64,
    /// Lock-out length, seconds.
    pub lockout_seconds: u64,
    /// Most remote clients tracked for throttling.
    pub max_tracked_clients: usize,
    /// Extra `Host` names previewd answers to, as `name` (any port) or `name:port`, beside
    /// `127.0.0.1`, `localhost` and `[::1]` on the listening port and the hosts of
    /// `public_origin` and `diffs.viewer_base_url`. Any other `Host` is refused before
    /// routing, which defeats DNS rebinding.
    pub allowed_hosts: Vec<String>,
    /// Open connections one client IP may hold (loopback included); a connection past it
    /// is answered 429 `busy` and closed.
    pub max_connections_per_client: usize,
}

impl Default for SecurityConfig {
    fn default() -> Self {
        SecurityConfig {
            allow_remote: false,
            api_token: None,
            trusted_proxies: Vec::new(),
            frame_ancestors: "'self'".to_string(),
            miss_limit: 40,
            miss_window_seconds: 60,
            lockout_seconds: 60,
            max_tracked_clients: 2048,
            allowed_hosts: Vec::new(),
            max_connections_per_client: 64,
        }
    }
}

/// Preview behaviour.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct PreviewConfig {
    /// Let scripts of a previewed HTML page run (inside the sandbox). Off closes the residual
    /// risk of a page's script navigating its own frame.
    pub html_scripts: bool,
    /// Serve regular files that have more than one name (hard links). Off by default: a
    /// path-based door cannot tell where a file's other names live, so a hard link inside a
    /// workspace may be a file from outside it. Turn it on for workspaces whose tools make
    /// hard links on purpose (pnpm stores, `git clone --local`).
    pub allow_hard_links: bool,
    /// Rows of each sheet a standalone page (`previewd preview book.xlsx -o book.html`)
    /// shows; a note says when a sheet has more.
    pub sheet_page_rows: u32,
}

impl Default for PreviewConfig {
    fn default() -> Self {
        PreviewConfig {
            html_scripts: true,
            allow_hard_links: false,
            sheet_page_rows: 1_000,
        }
    }
}

/// The bounded pool for blocking work.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct WorkConfig {
    /// Jobs running at once; 0 means twice the number of cores.
    pub workers: usize,
    /// Jobs waiting beyond those; past this a request gets 429.
    pub queue: usize,
    /// Deadline of one job including its wait, milliseconds; past it a request gets 503.
    pub deadline_ms: u64,
}

impl WorkConfig {
    /// The number of workers in force: `workers`, or twice the cores when it is 0.
    pub fn effective_workers(&self) -> usize {
        match self.workers {
            0 => std::thread::available_parallelism().map_or(2, |n| n.get()) * 2,
            n => n,
        }
    }
}

impl Default for WorkConfig {
    fn default() -> Self {
        WorkConfig {
            workers: 0,
            queue: 256,
            deadline_ms: 15_000,
        }
    }
}

/// Diff artifacts: where they live, how their URLs are built, and the tool's defaults.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DiffsConfig {
    /// Base of viewer URLs (`http(s)://host[:port][/path]`); a call's `baseUrl` wins over
    /// it, and it wins over `public_origin`.
    pub viewer_base_url: Option<String>,
    /// Data directory of the artifact store (default `$TMPDIR/previewd-diffs`).
    pub data_dir: Option<PathBuf>,
    /// Largest artifact (all its files together), bytes.
    pub max_artifact_bytes: u64,
    /// Most bytes the whole store may hold (every file: recipes, cached viewer pages,
    /// PNG/PDF files, temp files). When a new artifact does not fit, expired ones are swept
    /// first; if it still does not fit the call is refused with `storage_full` (507). With
    /// `store.backend = "s3"` it bounds the prefix's `diffs/` folder, shared by every
    /// instance and tenant using that prefix; each instance recounts it at most every 10 s
    /// (and always before refusing), so instances writing at once can overshoot it by what
    /// they wrote in that time.
    pub max_total_bytes: u64,
    /// fsync artifacts so they survive a power loss (atomicity does not depend on it).
    pub fsync: bool,
    /// Serve the diff viewer to non-loopback clients (tokenized URLs only).
    pub allow_remote_viewer: bool,
    /// The `diffs` tool's defaults (camelCase keys, as the tool's own config).
    pub defaults: crate::diff::DiffDefaults,
}

impl Default for DiffsConfig {
    fn default() -> Self {
        DiffsConfig {
            viewer_base_url: None,
            data_dir: None,
            max_artifact_bytes: crate::diff::store::DEFAULT_MAX_ARTIFACT_BYTES,
            max_total_bytes: crate::diff::store::DEFAULT_MAX_TOTAL_BYTES,
            fsync: true,
            allow_remote_viewer: false,
            defaults: crate::diff::DiffDefaults::default(),
        }
    }
}

/// The headless Chromium that renders diff PNG/PDF files: which one, and how much of it.
///
/// One warm browser serves every render; see `export::browser`.
#[derive(Debug, Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct BrowserConfig {
    /// The browser executable (`browser.executablePath` in the contract). When set it must
    /// be executable; when unset the browser is discovered (variables, `PATH`, usual places).
    #[serde(alias = "executablePath")]
    pub executable_path: Option<PathBuf>,
    /// Renders (browser tabs) running at once.
    pub max_concurrent_renders: usize,
    /// Renders waiting for a tab beyond those; past this a request gets 429.
    pub queue: usize,
    /// Deadline of one render including its wait, milliseconds; past it the tab is closed
    /// (the browser stays) and the request gets 503.
    pub render_timeout_ms: u64,
    /// How long a starting browser may take to offer its DevTools endpoint, milliseconds.
    pub launch_timeout_ms: u64,
    /// The browser is closed after this many seconds without a render (0: never).
    pub idle_close_seconds: u64,
    /// The browser is replaced after this many renders, which bounds memory creep (0: never).
    pub restart_after_renders: u64,
}

impl Default for BrowserConfig {
    fn default() -> Self {
        BrowserConfig {
            executable_path: None,
            max_concurrent_renders: 2,
            queue: 8,
            render_timeout_ms: 20_000,
            launch_timeout_ms: 20_000,
            idle_close_seconds: 300,
            restart_after_renders: 500,
        }
    }
}

/// Which engine draws diff PNG/PDF files.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    Deserialize,
    Serialize,
    schemars::JsonSchema,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum ExportEngine {
    /// The native renderer (no browser needed).
    #[default]
    Auto,
    /// The native renderer: the diff model drawn directly, no browser.
    Native,
    /// The viewer's image page rendered by headless Chromium (`[browser]`).
    Chromium,
}

impl ExportEngine {
    /// Whether renders go to the browser.
    pub fn uses_browser(self) -> bool {
        self == ExportEngine::Chromium
    }
}

/// The diff PNG/PDF export.
#[derive(Debug, Clone, Default, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ExportConfig {
    /// `auto` (the native renderer), `native`, or `chromium` (the viewer page in headless
    /// Chromium, the `[browser]` section). Contract fields and errors are the same either way.
    pub engine: ExportEngine,
}

/// Which store holds diff artifacts and snapshots.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum StoreBackend {
    /// Diff artifacts in `diffs.data_dir`, snapshots in this process's memory.
    #[default]
    Local,
    /// One S3-compatible bucket shared by every instance (`[store]` keys below).
    S3,
}

/// The shared store of several instances behind one load balancer (see the README's
/// "Many instances"). With `backend = "local"` the other keys are ignored.
#[derive(Clone, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SharedStoreConfig {
    /// `local` (this machine) or `s3` (a shared S3-compatible bucket).
    pub backend: StoreBackend,
    /// The bucket (required with `s3`; it must exist).
    pub bucket: Option<String>,
    /// Key prefix inside the bucket, so instances of different teams can share one.
    pub prefix: String,
    /// Endpoint URL of an S3-compatible server (MinIO, R2, a loopback test server); unset
    /// for AWS S3 itself. Path-style requests are used with an endpoint.
    pub endpoint: Option<String>,
    /// Region; unset takes `AWS_DEFAULT_REGION`/`AWS_REGION`, else `us-east-1`.
    pub region: Option<String>,
    /// Access key id; unset takes `AWS_ACCESS_KEY_ID` (or the instance's credentials).
    pub access_key_id: Option<String>,
    /// Secret access key; unset takes `AWS_SECRET_ACCESS_KEY`.
    pub secret_access_key: Option<String>,
    /// Allow a plain `http://` endpoint (a loopback or private-network server only).
    pub allow_http: bool,
    /// Deadline of one attempt of one store operation, milliseconds (connect included).
    pub operation_timeout_ms: u64,
    /// Attempts retried after a failed or timed-out one, with jittered backoff; after
    /// the last the request fails with `store_unavailable` (503).
    pub max_retries: u32,
    /// Snapshot quota of one tenant (an API token's holder, or everyone when the server
    /// has no token) in the shared store: most live snapshots.
    pub tenant_max_snapshots: usize,
    /// Snapshot quota of one tenant: most bytes of their live snapshots' reads.
    pub tenant_max_snapshot_bytes: u64,
}

impl std::fmt::Debug for SharedStoreConfig {
    // The secret key must not reach a log that prints the configuration with `{:?}`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedStoreConfig")
            .field("backend", &self.backend)
            .field("bucket", &self.bucket)
            .field("prefix", &self.prefix)
            .field("endpoint", &self.endpoint)
            .field("region", &self.region)
            .field("access_key_id", &self.access_key_id)
            .field(
                "secret_access_key",
                &self.secret_access_key.as_ref().map(|_| "<redacted>"),
            )
            .field("allow_http", &self.allow_http)
            .field("operation_timeout_ms", &self.operation_timeout_ms)
            .field("max_retries", &self.max_retries)
            .field("tenant_max_snapshots", &self.tenant_max_snapshots)
            .field("tenant_max_snapshot_bytes", &self.tenant_max_snapshot_bytes)
            .finish()
    }
}

impl Default for SharedStoreConfig {
    fn default() -> Self {
        SharedStoreConfig {
            backend: StoreBackend::Local,
            bucket: None,
            prefix: "previewd".to_string(),
            endpoint: None,
            region: None,
            access_key_id: None,
            secret_access_key: None,
            allow_http: false,
            operation_timeout_ms: 3000,
            max_retries: 2,
            tenant_max_snapshots: SnapshotConfig::default().max_count,
            tenant_max_snapshot_bytes: SnapshotConfig::default().max_bytes,
        }
    }
}

/// Why a configuration could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read config file {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// TOML syntax or a field of the wrong type / unknown field.
    #[error("invalid configuration: {0}")]
    Invalid(String),
    /// A key (in the file or as a `PREVIEWD_*` variable) that is not a configuration key.
    #[error("unknown configuration key `{key}` ({source_name}); the nearest valid key is `{nearest}` ({nearest_env})")]
    UnknownKey {
        /// The dotted key as given.
        key: String,
        /// Where it came from: the variable's name, or `in the config file`.
        source_name: String,
        /// The nearest valid key.
        nearest: String,
        /// Its environment variable.
        nearest_env: String,
    },
}

impl Config {
    /// Loads the file (if any), then applies `PREVIEWD_*` variables from `env`.
    pub fn load(
        file: Option<&Path>,
        env: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Config, ConfigError> {
        let mut table = match file {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
                    path: path.to_owned(),
                    source,
                })?;
                text.parse::<toml::Table>()
                    .map_err(|e| ConfigError::Invalid(e.to_string()))?
            }
            None => toml::Table::new(),
        };
        let keys = crate::config_reference::keys();
        let mut from_env: Vec<(Vec<String>, String)> = Vec::new();
        for (key, value) in env {
            let Some(rest) = key.strip_prefix("PREVIEWD_") else {
                continue;
            };
            // These name the config file, the export browser and the log filter; none is a
            // field of this struct.
            if matches!(rest, "CONFIG" | "BROWSER" | "LOG" | "") {
                continue;
            }
            let names: Vec<&str> = rest.split("__").collect();
            let path = crate::config_reference::env_path(&keys, &names);
            set_path(&mut table, &path, parse_env_value(&value))?;
            from_env.push((path, key));
        }
        let given = table.clone();
        Config::deserialize(toml::Value::Table(table)).map_err(|e| {
            let message = e.to_string();
            // serde names an unknown field; say where it is and what was probably meant.
            let unknown = crate::config_reference::unknown_paths(&keys, &given)
                .into_iter()
                .find(|p| {
                    p.last()
                        .is_some_and(|n| message.contains(&format!("`{n}`")))
                });
            match unknown
                .and_then(|p| crate::config_reference::nearest(&keys, &p).map(|near| (p, near)))
            {
                Some((path, near)) => ConfigError::UnknownKey {
                    source_name: from_env.iter().find(|(p, _)| *p == path).map_or_else(
                        || "in the config file".to_string(),
                        |(_, v)| format!("from {v}"),
                    ),
                    key: path.join("."),
                    nearest: near.name(),
                    nearest_env: near.env(),
                },
                None => ConfigError::Invalid(message),
            }
        })
    }
}

fn parse_env_value(raw: &str) -> toml::Value {
    // Parse as the right-hand side of a TOML assignment so numbers, booleans and arrays keep
    // their type; everything else (addresses, paths) stays a string.
    match format!("v = {raw}").parse::<toml::Table>() {
        Ok(mut t) => t
            .remove("v")
            .unwrap_or_else(|| toml::Value::String(raw.into())),
        Err(_) => toml::Value::String(raw.to_string()),
    }
}

fn set_path(
    table: &mut toml::Table,
    path: &[String],
    value: toml::Value,
) -> Result<(), ConfigError> {
    match path {
        [] => Ok(()),
        [last] => {
            table.insert(last.clone(), value);
            Ok(())
        }
        [first, rest @ ..] => {
            let entry = table
                .entry(first.clone())
                .or_insert_with(|| toml::Value::Table(toml::Table::new()));
            match entry {
                toml::Value::Table(inner) => set_path(inner, rest, value),
                _ => Err(ConfigError::Invalid(format!(
                    "environment variable addresses a field inside `{first}`, which is not a table"
                ))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn defaults_match_the_spec() {
        let c = Config::default();
        assert_eq!(c.listen.to_string(), "127.0.0.1:8791");
        assert_eq!(c.limits.text_bytes, 2 * 1024 * 1024);
        assert_eq!(c.limits.office_bytes, 20 * 1024 * 1024);
        assert_eq!(c.limits.image_bytes, 50 * 1024 * 1024);
        assert_eq!(c.snapshots.ttl_seconds, 1800);
        assert!(!c.security.allow_remote);
        assert_eq!(c.browser.max_concurrent_renders, 2);
        assert_eq!(c.browser.queue, 8);
        assert!(c.browser.executable_path.is_none());
    }

    #[test]
    fn browser_section_takes_the_contract_spelling_too() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("p.toml");
        std::fs::write(
            &file,
            "[browser]\nexecutablePath = \"/opt/chrome\"\nqueue = 3\n",
        )
        .unwrap();
        let c = Config::load(
            Some(&file),
            env(&[
                ("PREVIEWD_BROWSER", "/ignored/here"),
                ("PREVIEWD_BROWSER__MAX_CONCURRENT_RENDERS", "4"),
            ]),
        )
        .unwrap();
        assert_eq!(
            c.browser.executable_path,
            Some(PathBuf::from("/opt/chrome"))
        );
        assert_eq!(c.browser.queue, 3);
        assert_eq!(c.browser.max_concurrent_renders, 4);
    }

    #[test]
    fn env_overrides_file_and_keeps_types() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("p.toml");
        std::fs::write(
            &file,
            "listen = \"127.0.0.1:1\"\n[limits]\ntext_bytes = 5\nimage_bytes = 7\n",
        )
        .unwrap();
        let c = Config::load(
            Some(&file),
            env(&[
                ("PREVIEWD_LIMITS__TEXT_BYTES", "9"),
                ("PREVIEWD_LISTEN", "0.0.0.0:9000"),
                ("PREVIEWD_SECURITY__ALLOW_REMOTE", "true"),
                ("PREVIEWD_WORKSPACES", "[\"/a\", \"/b\"]"),
                ("OTHER", "x"),
                ("PREVIEWD_LOG", "debug"),
                ("PREVIEWD_CONFIG", "/elsewhere.toml"),
            ]),
        )
        .unwrap();
        assert_eq!(c.limits.text_bytes, 9);
        assert_eq!(c.limits.image_bytes, 7);
        assert_eq!(c.listen.to_string(), "0.0.0.0:9000");
        assert!(c.security.allow_remote);
        assert_eq!(c.workspaces, vec![PathBuf::from("/a"), PathBuf::from("/b")]);
    }

    #[test]
    fn unknown_fields_are_refused() {
        let err = Config::load(None, env(&[("PREVIEWD_LIMITS__TXET_BYTES", "9")])).unwrap_err();
        assert!(err.to_string().contains("txet_bytes"), "{err}");
    }

    #[test]
    fn unknown_keys_name_themselves_and_the_nearest_valid_key() {
        let err = Config::load(None, env(&[("PREVIEWD_API_TOKEN", "s3cret")])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown configuration key `api_token` (from PREVIEWD_API_TOKEN); the nearest valid key is `security.api_token` (PREVIEWD_SECURITY__API_TOKEN)"
        );
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("p.toml");
        std::fs::write(&file, "[limits]\ntext_bytes = 5\ntxet_bytes = 9\n").unwrap();
        let err = Config::load(Some(&file), env(&[])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown configuration key `limits.txet_bytes` (in the config file); the nearest valid key is `limits.text_bytes` (PREVIEWD_LIMITS__TEXT_BYTES)"
        );
        // Aliases the loader accepts are not unknown.
        std::fs::write(&file, "[browser]\nexecutablePath = \"/x\"\n").unwrap();
        assert!(Config::load(Some(&file), env(&[])).is_ok());
    }

    #[test]
    fn variables_reach_camel_case_keys() {
        let c = Config::load(
            None,
            env(&[
                ("PREVIEWD_DIFFS__DEFAULTS__FONT_SIZE", "20"),
                ("PREVIEWD_DIFFS__DEFAULTS__WORDWRAP", "false"),
            ]),
        )
        .unwrap();
        assert_eq!(c.diffs.defaults.font_size, 20);
        assert!(!c.diffs.defaults.word_wrap);
    }

    #[test]
    fn wrong_type_is_refused() {
        let err = Config::load(None, env(&[("PREVIEWD_LIMITS__TEXT_BYTES", "lots")])).unwrap_err();
        assert!(matches!(err, ConfigError::Invalid(_)));
    }
}
