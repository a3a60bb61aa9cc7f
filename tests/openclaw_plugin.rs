//! The OpenClaw plugin in `integrations/openclaw` against this build of previewd: `npm ci`
//! (the package has no dependencies; the lock file is committed) and node's test runner,
//! which starts `previewd serve` from the binary cargo built. A missing `node` or `npm`, or
//! any failing node test, fails this test; it never skips.

use std::path::Path;
use std::process::Command;

fn run(dir: &Path, program: &str, args: &[&str]) -> std::process::Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("TEST_PREVIEWD_BIN", env!("CARGO_BIN_EXE_previewd"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run `{program}` ({e}): the OpenClaw plugin tests need Node.js 18+ and npm \
                 (Debian: apt-get install nodejs npm)"
            )
        })
}

fn must_succeed(what: &str, output: &std::process::Output) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // The runner's own output, so a failure shows which node test broke and why.
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(output.status.success(), "{what} failed: {}", output.status);
}

#[test]
fn openclaw_plugin_node_tests_pass_against_this_previewd() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("integrations/openclaw");
    let ci = run(
        &dir,
        "npm",
        &["ci", "--prefer-offline", "--no-audit", "--no-fund"],
    );
    must_succeed("npm ci", &ci);
    let tests = run(&dir, "node", &["--test", "test/plugin.test.js"]);
    must_succeed("node --test", &tests);
    let out = String::from_utf8_lossy(&tests.stdout);
    // The runner's summary: at least the suite's tests ran and none failed.
    let count = |key: &str| -> u32 {
        out.lines()
            .find_map(|l| l.strip_prefix(&format!("# {key} ")))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("no `# {key}` line in the node test output"))
    };
    assert!(count("pass") >= 13, "too few node tests ran");
    assert_eq!(count("fail"), 0);
    assert_eq!(count("cancelled"), 0);
}
