//! The Debian package's parts: the systemd unit passes `systemd-analyze verify` and keeps
//! a low exposure score, the shipped config file loads, and every packaged file exists.

use std::path::Path;
use std::process::Command;

const UNIT: &str = include_str!("../packaging/previewd.service");

/// The unit with its program pointed at the binary under test (verify checks it exists).
fn unit_for_test(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("previewd.service");
    std::fs::write(
        &path,
        UNIT.replace("/usr/bin/previewd", env!("CARGO_BIN_EXE_previewd")),
    )
    .unwrap();
    path
}

fn systemd_analyze(args: &[&str]) -> std::process::Output {
    Command::new("systemd-analyze")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("systemd-analyze is needed (scripts/test.sh installs it): {e}"))
}

#[test]
fn the_unit_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let unit = unit_for_test(dir.path());
    let out = systemd_analyze(&["verify", unit.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // verify warns (and still succeeds) on unknown directives: none may appear.
    assert!(!stderr.contains("Unknown"), "{stderr}");
}

#[test]
fn the_unit_is_hardened() {
    for directive in [
        "DynamicUser=yes",
        "ProtectSystem=strict",
        "PrivateTmp=yes",
        "NoNewPrivileges=yes",
        "ProtectHome=yes",
        "CapabilityBoundingSet=\n",
        "ExecStart=/usr/bin/previewd serve --config /etc/previewd/previewd.toml",
    ] {
        assert!(UNIT.contains(directive), "{directive:?} missing");
    }
    let dir = tempfile::tempdir().unwrap();
    let unit = unit_for_test(dir.path());
    // systemd's own exposure score (0 safe … 10 exposed); fail above 2.5.
    let out = systemd_analyze(&[
        "security",
        "--offline=yes",
        "--threshold=25",
        "--no-pager",
        unit.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "exposure above 2.5:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_packaged_config_file_loads() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("packaging/previewd.toml");
    let config = previewd::config::Config::load(Some(&path), std::iter::empty()).unwrap();
    assert_eq!(config.listen.to_string(), "127.0.0.1:8791");
}

#[test]
fn every_packaged_file_exists() {
    let manifest: toml::Value = toml::from_str(include_str!("../Cargo.toml")).unwrap();
    let deb = &manifest["package"]["metadata"]["deb"];
    let assets = deb["assets"].as_array().unwrap();
    assert!(assets.len() >= 3);
    for asset in assets {
        let source = asset[0].as_str().unwrap();
        if source.starts_with("target/") {
            continue; // built by `cargo deb` itself
        }
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(source);
        assert!(path.is_file(), "{source} is packaged but missing");
    }
    let units = deb["systemd-units"]["unit-scripts"].as_str().unwrap();
    let name = deb["systemd-units"]["unit-name"].as_str().unwrap();
    assert!(Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(units)
        .join(format!("{name}.service"))
        .is_file());
}
