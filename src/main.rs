//! The `previewd` command line: `serve` runs the HTTP service; `preview`, `diff` and
//! `activity` do the same work on local files without a server.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};
use previewd::server::{serve, shutdown_signal, AppState};
use previewd::{cli, Config};

#[derive(Parser)]
#[command(
    name = "previewd",
    version,
    about = "Read-only previews of workspace files and of changes to them"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the HTTP service.
    Serve(ServeArgs),
    /// Render one file to a standalone page (or its model) without a server.
    Preview(PreviewArgs),
    /// Render a change (two files, or a unified patch) to a standalone page or its model.
    Diff(DiffArgs),
    /// Project an agent session's tool calls (JSON) to per-turn file activity.
    Activity(ActivityArgs),
    /// Print the full default configuration: every key, its variable, its default, its meaning.
    Config(ConfigArgs),
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ReferenceFormat {
    /// Commented TOML, ready to edit into a config file.
    Toml,
    /// The Markdown page `docs/configuration.md`.
    Markdown,
}

#[derive(clap::Args)]
struct ConfigArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "toml")]
    format: ReferenceFormat,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum OutputFormat {
    Html,
    Json,
    /// One page of a PDF (`--page`, `--scale`).
    Png,
}

impl From<OutputFormat> for cli::Format {
    fn from(f: OutputFormat) -> Self {
        match f {
            OutputFormat::Html => cli::Format::Html,
            OutputFormat::Json => cli::Format::Json,
            // Only reached for files that are not PDFs, which have no PNG form.
            OutputFormat::Png => cli::Format::Html,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum DiffFormat {
    Html,
    Json,
    Png,
    Pdf,
}

#[derive(clap::Args)]
struct PreviewArgs {
    /// The file to render.
    file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "html")]
    format: OutputFormat,
    /// The page of a PDF to render with `--format png` (1-based).
    #[arg(long, default_value_t = 1)]
    page: usize,
    /// Pixels per point for `--format png` (1.5 is 108 dpi; lowered to fit the pixel caps).
    #[arg(long, default_value_t = 1.5)]
    scale: f32,
    /// Write here instead of standard output.
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
    /// TOML configuration file (limits).
    #[arg(long, env = "PREVIEWD_CONFIG")]
    config: Option<PathBuf>,
}

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["before", "patch"])))]
struct DiffArgs {
    /// The old file.
    #[arg(long, requires = "after")]
    before: Option<PathBuf>,
    /// The new file.
    #[arg(long, requires = "before")]
    after: Option<PathBuf>,
    /// A unified patch (`git diff`, `diff -u`, hg, svn).
    #[arg(long, conflicts_with_all = ["before", "after"])]
    patch: Option<PathBuf>,
    /// Output format (png and pdf with the export's engine and caps).
    #[arg(long, value_enum, default_value = "html")]
    format: DiffFormat,
    /// Write here instead of standard output.
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
    /// TOML configuration file (diff defaults).
    #[arg(long, env = "PREVIEWD_CONFIG")]
    config: Option<PathBuf>,
    /// Engine for png and pdf (`export.engine`; auto draws natively, no browser needed).
    #[arg(long, value_enum)]
    export_engine: Option<previewd::config::ExportEngine>,
}

#[derive(clap::Args)]
struct ActivityArgs {
    /// The session: {workspaceRoot, executionCwd, turns: [{turnId, toolCalls: [...]}]}, or
    /// a recorded ACP timeline (JSON Lines or a JSON array of `session/update` messages).
    input: PathBuf,
    /// The workspace root, for a timeline (a session document names its own).
    #[arg(long)]
    workspace_root: Option<String>,
    /// The ACP working directory, for a timeline; default: the timeline's `session/new`
    /// `cwd`, else the workspace root.
    #[arg(long)]
    cwd: Option<String>,
    /// Write the session's Changes view instead of the projection: a page, its model, or
    /// a PNG/PDF drawn by the export engine (`--format`).
    #[arg(long)]
    changes: bool,
    /// Output format of `--changes` (png and pdf with the export's engine and caps).
    #[arg(long, value_enum, default_value = "html", requires = "changes")]
    format: DiffFormat,
    /// TOML configuration file (diff defaults, export engine), for `--changes`.
    #[arg(long, env = "PREVIEWD_CONFIG")]
    config: Option<PathBuf>,
    /// Engine for png and pdf (`export.engine`; auto draws natively, no browser needed).
    #[arg(long, value_enum, requires = "changes")]
    export_engine: Option<previewd::config::ExportEngine>,
    /// Write here instead of standard output.
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
}

#[derive(clap::Args)]
struct ServeArgs {
    /// TOML configuration file (also `PREVIEWD_CONFIG`).
    #[arg(long, env = "PREVIEWD_CONFIG")]
    config: Option<PathBuf>,
    /// A workspace root to serve (repeatable).
    #[arg(long = "workspace", value_name = "DIR")]
    workspaces: Vec<PathBuf>,
    /// A folder whose direct children are each a workspace (repeatable).
    #[arg(long = "workspaces-parent", value_name = "DIR")]
    workspace_parents: Vec<PathBuf>,
    /// Address to listen on [default: 127.0.0.1:8791].
    #[arg(long)]
    listen: Option<SocketAddr>,
    /// Serve non-loopback clients (API calls then need --api-token).
    #[arg(long)]
    allow_remote: bool,
    /// Bearer token for remote API calls.
    #[arg(long)]
    api_token: Option<String>,
    /// Public origin used to build absolute URLs.
    #[arg(long)]
    public_origin: Option<String>,
    /// Log as JSON lines instead of text.
    #[arg(long)]
    log_json: bool,
    /// Engine for diff PNG/PDF files (`export.engine`).
    #[arg(long, value_enum)]
    export_engine: Option<previewd::config::ExportEngine>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve(args) => run_serve(args),
        Command::Preview(args) => {
            let result = load_config(args.config.as_deref()).and_then(|config| {
                // The library's not_found names no path; the user typed this one.
                if !args.file.try_exists().unwrap_or(true) {
                    return Err(missing(&args.file));
                }
                if matches!(args.format, OutputFormat::Png) {
                    return cli::preview_page_png(&args.file, args.page, args.scale, &config)
                        .map_err(refused);
                }
                cli::preview_file(&args.file, args.format.into(), &config).map_err(refused)
            });
            finish(result, args.output.as_deref())
        }
        Command::Diff(args) => {
            let result = load_config(args.config.as_deref()).and_then(|mut config| {
                if let Some(engine) = args.export_engine {
                    config.export.engine = engine;
                }
                let source = match (&args.patch, &args.before, &args.after) {
                    (Some(patch), _, _) => {
                        let (patch, not_utf8) = read_text(patch)?;
                        cli::DiffSource::Patch { patch, not_utf8 }
                    }
                    (None, Some(before), Some(after)) => {
                        let (before, before_lossy) = read_text(before)?;
                        let (after_text, after_lossy) = read_text(after)?;
                        cli::DiffSource::Texts {
                            before,
                            after: after_text,
                            path: after.file_name().map(|n| n.to_string_lossy().into_owned()),
                            not_utf8: before_lossy || after_lossy,
                        }
                    }
                    _ => return Err("give --before and --after, or --patch".to_string()),
                };
                match args.format {
                    DiffFormat::Html => {
                        cli::diff(source, cli::Format::Html, &config).map_err(refused)
                    }
                    DiffFormat::Json => {
                        cli::diff(source, cli::Format::Json, &config).map_err(refused)
                    }
                    DiffFormat::Png | DiffFormat::Pdf => {
                        let format = if args.format == DiffFormat::Png {
                            previewd::diff::FileFormat::Png
                        } else {
                            previewd::diff::FileFormat::Pdf
                        };
                        block_on(cli::diff_file(source, format, &config))
                    }
                }
            });
            finish(result, args.output.as_deref())
        }
        Command::Config(args) => {
            let text = match args.format {
                ReferenceFormat::Toml => previewd::config_reference::toml_reference(),
                ReferenceFormat::Markdown => previewd::config_reference::markdown_reference(),
            };
            finish(Ok(text.into_bytes()), None)
        }
        Command::Activity(args) => {
            let bases = cli::TimelineBases {
                workspace_root: args.workspace_root,
                execution_cwd: args.cwd,
            };
            let result = read_input(&args.input).and_then(|bytes| {
                if !args.changes {
                    return cli::activity(&bytes, &bases).map_err(refused);
                }
                let mut config = load_config(args.config.as_deref())?;
                if let Some(engine) = args.export_engine {
                    config.export.engine = engine;
                }
                let format = match args.format {
                    DiffFormat::Html => cli::ChangesFormat::Html,
                    DiffFormat::Json => cli::ChangesFormat::Json,
                    DiffFormat::Png => cli::ChangesFormat::File(previewd::diff::FileFormat::Png),
                    DiffFormat::Pdf => cli::ChangesFormat::File(previewd::diff::FileFormat::Pdf),
                };
                block_on(cli::changes(&bytes, &bases, format, &config))
            });
            finish(result, args.output.as_deref())
        }
    }
}

/// Runs an export on a runtime of its own (the CLI has none otherwise); its refusal is
/// worded like every other.
fn block_on<T>(
    work: impl std::future::Future<Output = Result<T, previewd::error::Error>>,
) -> Result<T, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?
        .block_on(work)
        .map_err(refused)
}

fn load_config(file: Option<&Path>) -> Result<Config, String> {
    Config::load(file, std::env::vars()).map_err(|e| e.to_string())
}

/// Reads an input file named on the command line; a missing one is named as typed.
fn read_input(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => missing(path),
        _ => format!("cannot read {}: {e}", path.display()),
    })
}

/// The message for an input file that is not there, with the service's code.
fn missing(path: &Path) -> String {
    format!("not_found: {} does not exist", path.display())
}

/// Reads a diff input as text. Bytes that are not UTF-8 (a Latin-1 file, say) are shown as
/// U+FFFD, as `git diff` still shows such files, with a warning naming the file; the flag
/// lets the page say so too.
fn read_text(path: &Path) -> Result<(String, bool), String> {
    let bytes = read_input(path)?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok((text, false)),
        Err(e) => {
            eprintln!(
                "previewd: warning: {} is not valid UTF-8; invalid bytes are shown as U+FFFD",
                path.display()
            );
            Ok((String::from_utf8_lossy(e.as_bytes()).into_owned(), true))
        }
    }
}

/// A refusal as the service would answer it: the stable code, then the reason.
fn refused(e: previewd::Error) -> String {
    format!("{}: {e}", e.code())
}

fn finish(result: Result<Vec<u8>, String>, output: Option<&Path>) -> ExitCode {
    let bytes = match result {
        Ok(bytes) => bytes,
        Err(message) => {
            eprintln!("previewd: {message}");
            return ExitCode::FAILURE;
        }
    };
    let written = match output {
        Some(path) => std::fs::write(path, &bytes),
        None => std::io::Write::write_all(&mut std::io::stdout().lock(), &bytes),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("previewd: cannot write the output: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_serve(args: ServeArgs) -> ExitCode {
    // Held to the end of serving: dropping it flushes the queued log lines.
    let _log = previewd::logging::init(args.log_json);
    let mut config = match Config::load(args.config.as_deref(), std::env::vars()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("previewd: {e}");
            return ExitCode::from(2);
        }
    };
    // Flags win over the file and the environment.
    if let Some(engine) = args.export_engine {
        config.export.engine = engine;
    }
    config.workspaces.extend(args.workspaces);
    config.workspace_parents.extend(args.workspace_parents);
    if let Some(listen) = args.listen {
        config.listen = listen;
    }
    if args.allow_remote {
        config.security.allow_remote = true;
    }
    if let Some(token) = args.api_token {
        config.security.api_token = Some(token);
    }
    if let Some(origin) = args.public_origin {
        config.public_origin = Some(origin);
    }
    if config.workspaces.is_empty() && config.workspace_parents.is_empty() {
        eprintln!("previewd: no workspace to serve; pass --workspace DIR (repeatable)");
        return ExitCode::from(2);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("previewd: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::bind(config.listen).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("previewd: cannot listen on {}: {e}", config.listen);
                return ExitCode::FAILURE;
            }
        };
        let bound = listener.local_addr().unwrap_or(config.listen);
        let state = match AppState::new(config, bound) {
            Ok(s) => Arc::new(s),
            Err(e) => {
                eprintln!("previewd: {e}");
                return ExitCode::from(2);
            }
        };
        // Before announcing the address: a SIGTERM from then on shuts down gracefully.
        let shutdown = shutdown_signal();
        for root in state.door.workspaces().roots() {
            tracing::info!(id = %root.id, path = %root.path.display(), "serving workspace");
        }
        tracing::info!(url = %state.base_url, "previewd listening");
        match serve(listener, state, shutdown).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("previewd: server error: {e}");
                ExitCode::FAILURE
            }
        }
    })
}
