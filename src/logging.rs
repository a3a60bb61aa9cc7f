//! The service log: lines go to stderr from a writer thread of their own, never from the
//! threads that answer requests.
//!
//! Writing to stderr blocks when whoever reads it (a terminal paused with Ctrl-S, a pipe
//! nobody drains, a slow journald) stops taking lines. When that write runs on an async
//! worker, every request of the process waits behind it: the soak found `/healthz` stalled
//! for over 30 s that way. `tracing-appender`'s non-blocking writer (the tracing project's
//! own crate; read for this: a bounded crossbeam channel and one writer thread) hands each
//! line to a bounded queue instead; when the queue is full the line is dropped and counted,
//! and the count is on `/metrics` as `previewd_log_lines_dropped_total`. Losing log lines
//! under a stuck reader is the right trade for a preview service: the alternative is losing
//! the service.

use std::io::IsTerminal;
use std::sync::OnceLock;

use tracing_appender::non_blocking::{ErrorCounter, NonBlockingBuilder, WorkerGuard};

/// Lines the queue holds before it drops: a burst of a few thousand requests while the
/// reader catches up; at a few hundred bytes a line, about a MiB.
const QUEUED_LINES: usize = 4_096;

static DROPPED: OnceLock<ErrorCounter> = OnceLock::new();

/// Installs the global subscriber: level from `PREVIEWD_LOG` (default `info`), JSON or
/// text, colour only when stderr is a terminal. Keep the guard until the process ends: its
/// drop flushes the queued lines.
pub fn init(json: bool) -> WorkerGuard {
    let filter = tracing_subscriber::EnvFilter::try_from_env("PREVIEWD_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let (writer, guard) = NonBlockingBuilder::default()
        .lossy(true)
        .buffered_lines_limit(QUEUED_LINES)
        .thread_name("previewd-log")
        .finish(std::io::stderr());
    let _ = DROPPED.set(writer.error_counter());
    // Colour only on a terminal: a log file or a pipe gets plain text.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(writer);
    if json {
        builder.json().init();
    } else {
        builder.init();
    }
    guard
}

/// Log lines dropped because the reader of the log did not keep up (0 before [`init`]).
pub fn dropped_lines() -> u64 {
    DROPPED.get().map_or(0, |c| c.dropped_lines() as u64)
}
