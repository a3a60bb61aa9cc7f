//! The `previewd` command line: `serve` runs the HTTP service.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};
use previewd::server::{serve, shutdown_signal, AppState};
use previewd::Config;

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve(args) => run_serve(args),
    }
}

fn run_serve(args: ServeArgs) -> ExitCode {
    init_logging(args.log_json);
    let mut config = match Config::load(args.config.as_deref(), std::env::vars()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("previewd: {e}");
            return ExitCode::from(2);
        }
    };
    // Flags win over the file and the environment.
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
        for root in state.door.workspaces().roots() {
            tracing::info!(id = %root.id, path = %root.path.display(), "serving workspace");
        }
        tracing::info!(url = %state.base_url, "previewd listening");
        match serve(listener, state, shutdown_signal()).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("previewd: server error: {e}");
                ExitCode::FAILURE
            }
        }
    })
}

fn init_logging(json: bool) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("PREVIEWD_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if json {
        builder.json().init();
    } else {
        builder.init();
    }
}
