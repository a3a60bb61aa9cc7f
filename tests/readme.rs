//! The README's quick start, run as written: every command of every `sh` block in its
//! "Quick start" section, with the built binary as `previewd`, from a folder that holds the
//! repository's `fixtures/` (outputs land there, never in the repository). `previewd serve`
//! is started on a free port and the `localhost:8791` of later commands points at it. The
//! "Set-up" section (installs) is a different section and is not read.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};

const README: &str = include_str!("../README.md");
const SECTION: &str = "## Quick start";
/// The address the README's commands use; the test's server takes a free port instead.
const README_ADDRESS: &str = "localhost:8791";

/// The `sh` blocks of the quick-start section, each as its list of commands (continuation
/// lines joined, blank and comment lines dropped).
fn quick_start_blocks() -> Vec<Vec<String>> {
    let start = README
        .find(SECTION)
        .unwrap_or_else(|| panic!("the README has no {SECTION:?} section"));
    let rest = &README[start + SECTION.len()..];
    let section = &rest[..rest.find("\n## ").unwrap_or(rest.len())];
    let mut blocks = Vec::new();
    let mut lines = section.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "```sh" {
            continue;
        }
        let mut commands = Vec::new();
        let mut pending = String::new();
        for line in lines.by_ref() {
            if line.trim() == "```" {
                break;
            }
            let trimmed = line.trim();
            if pending.is_empty() && (trimmed.is_empty() || trimmed.starts_with('#')) {
                continue;
            }
            match trimmed.strip_suffix('\\') {
                Some(head) => {
                    pending.push_str(head.trim_end());
                    pending.push(' ');
                }
                None => {
                    pending.push_str(trimmed);
                    commands.push(std::mem::take(&mut pending));
                }
            }
        }
        assert!(
            pending.is_empty(),
            "a block ends inside a command: {pending}"
        );
        blocks.push(commands);
    }
    blocks
}

/// The file a command writes with `-o FILE`/`--output FILE`, unless that is `/dev/null`.
fn output_file(command: &str) -> Option<&str> {
    let words: Vec<&str> = command.split_whitespace().collect();
    words
        .windows(2)
        .find(|w| w[0] == "-o" || w[0] == "--output")
        .map(|w| w[1])
        .filter(|f| *f != "/dev/null")
}

/// A `previewd serve` started by the test; killed when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where the commands run: a temporary folder with `fixtures` (a link to the repository's)
/// and `bin/previewd` (a link to the built binary).
struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        std::os::unix::fs::symlink(fixtures, dir.path().join("fixtures")).unwrap();
        std::fs::create_dir(dir.path().join("bin")).unwrap();
        std::os::unix::fs::symlink(
            env!("CARGO_BIN_EXE_previewd"),
            dir.path().join("bin/previewd"),
        )
        .unwrap();
        Sandbox { dir }
    }

    /// `bash -c command` in the folder, with the built `previewd` first on `PATH`.
    fn shell(&self, command: &str) -> Command {
        let path = format!(
            "{}:{}",
            self.dir.path().join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut cmd = Command::new("bash");
        cmd.args(["-e", "-o", "pipefail", "-c", command])
            .current_dir(self.dir.path())
            .env("PATH", path)
            .env("PWD", self.dir.path())
            .env_remove("PREVIEWD_CONFIG")
            .env(
                "PREVIEWD_DIFFS__DATA_DIR",
                self.dir.path().join("diffs-data"),
            );
        cmd
    }

    /// Runs one command and fails the test when it fails or produces nothing.
    fn run(&self, command: &str) {
        let out = self.shell(command).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "README command failed ({}): {command}\nstdout: {stdout}\nstderr: {stderr}",
            out.status
        );
        match output_file(command) {
            Some(file) => {
                let written = std::fs::metadata(self.dir.path().join(file))
                    .unwrap_or_else(|e| panic!("{command}: no {file}: {e}\nstderr: {stderr}"));
                assert!(written.len() > 0, "{command}: {file} is empty");
            }
            None => assert!(
                !stdout.trim().is_empty(),
                "{command}: printed nothing\nstderr: {stderr}"
            ),
        }
    }

    /// Starts `command` (a `previewd serve …`) on a free port and waits for its address.
    fn serve(&self, command: &str) -> Server {
        let mut child = self
            .shell(&format!("exec {command} --listen 127.0.0.1:0"))
            .env("PREVIEWD_LOG", "info")
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut log = String::new();
        let mut line = String::new();
        let address = loop {
            line.clear();
            if stderr.read_line(&mut line).unwrap() == 0 {
                let status = child.wait();
                panic!("{command} exited ({status:?}) before listening:\n{log}");
            }
            log.push_str(&line);
            if let Some(at) = line.find("http://127.0.0.1:") {
                let rest = &line[at + "http://".len()..];
                let end = rest
                    .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ':'))
                    .unwrap_or(rest.len());
                break rest[..end].to_string();
            }
        };
        // Keep draining the log so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            let _ = stderr.read_to_end(&mut Vec::new());
        });
        Server { child, address }
    }
}

#[test]
fn every_quick_start_command_runs_as_written() {
    let blocks = quick_start_blocks();
    let all: Vec<&String> = blocks.iter().flatten().collect();
    // The section covers each command line tool and the service; an empty or renamed
    // section must not pass by running nothing.
    for needed in [
        "previewd preview ",
        "previewd diff ",
        "previewd activity ",
        "previewd serve ",
        "curl ",
    ] {
        assert!(
            all.iter().any(|c| c.starts_with(needed)),
            "no `{needed}…` command in the quick start: {all:?}"
        );
    }
    let sandbox = Sandbox::new();
    let mut server: Option<Server> = None;
    let mut ran = 0;
    for command in all {
        if command.starts_with("previewd serve ") {
            server = Some(sandbox.serve(command));
            continue;
        }
        if command.starts_with("curl ") {
            // The service requires a JSON content type on POST bodies.
            if command.contains(" -d ") || command.contains(" --data") {
                assert!(
                    command.contains("-H 'content-type: application/json'"),
                    "a curl body without its content type: {command}"
                );
            }
            let server = server
                .as_ref()
                .unwrap_or_else(|| panic!("{command} comes before `previewd serve`"));
            sandbox.run(&command.replace(README_ADDRESS, &server.address));
        } else {
            sandbox.run(command);
        }
        ran += 1;
    }
    assert!(ran >= 8, "only {ran} commands ran");
}

#[test]
fn commands_split_on_blocks_continuations_and_comments() {
    // The parser the test above relies on, on its own README.
    let blocks = quick_start_blocks();
    assert!(blocks.len() >= 3, "{blocks:?}");
    let curl = blocks
        .iter()
        .flatten()
        .find(|c| c.contains("/api/v1/previews"))
        .expect("the previews call");
    assert!(curl.starts_with("curl ") && curl.contains(" -d "), "{curl}");
    assert!(
        curl.contains("-H 'content-type: application/json' -d "),
        "{curl}"
    );
    assert!(blocks.iter().flatten().all(|c| !c.starts_with('#')));
    assert_eq!(
        output_file("previewd preview a.docx -o report.html # note"),
        Some("report.html")
    );
    assert_eq!(output_file("curl -sf -o /dev/null x"), None);
}
