//! Finding a Chromium-compatible browser, in the contract's order.
//!
//! 1. config `browser.executablePath` — when set it must be an executable file, or discovery
//!    fails (an operator who names a browser wants that one, not a silent fallback);
//! 2. the variables `PREVIEWD_BROWSER`, `OPENCLAW_BROWSER_EXECUTABLE_PATH`,
//!    `BROWSER_EXECUTABLE_PATH`, `PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH` (a variable naming
//!    something unusable is skipped);
//! 3. the names `chromium`, `chromium-browser`, `google-chrome`, `google-chrome-stable`,
//!    `msedge`, `brave-browser`, `brave` on `PATH`;
//! 4. fixed install locations of the platform.
//!
//! [`Discovery`] takes the environment as data, so its order is testable without touching
//! process-global variables; [`Discovery::from_process`] reads the real ones.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Environment variables naming a browser, in the order they are tried.
pub const BROWSER_ENV_VARS: [&str; 4] = [
    "PREVIEWD_BROWSER",
    "OPENCLAW_BROWSER_EXECUTABLE_PATH",
    "BROWSER_EXECUTABLE_PATH",
    "PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH",
];

/// Executable names looked up on `PATH`, in order.
pub const BROWSER_PATH_NAMES: [&str; 7] = [
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "msedge",
    "brave-browser",
    "brave",
];

/// Where browsers are installed when they are not on `PATH`, for this platform.
pub fn platform_locations() -> Vec<PathBuf> {
    let list: &[&str] = if cfg!(target_os = "macos") {
        &[
            "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
            "/Applications/Chromium.app/Contents/MacOS/Chromium",
            "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
            "/Applications/Brave Browser.app/Contents/MacOS/Brave Browser",
        ]
    } else if cfg!(windows) {
        &[
            r"C:\Program Files\Google\Chrome\Application\chrome.exe",
            r"C:\Program Files (x86)\Google\Chrome\Application\chrome.exe",
            r"C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe",
            r"C:\Program Files\Microsoft\Edge\Application\msedge.exe",
            r"C:\Program Files\BraveSoftware\Brave-Browser\Application\brave.exe",
        ]
    } else {
        &[
            "/usr/bin/chromium",
            "/usr/bin/chromium-browser",
            "/usr/lib/chromium/chromium",
            "/snap/bin/chromium",
            "/usr/bin/google-chrome",
            "/usr/bin/google-chrome-stable",
            "/opt/google/chrome/chrome",
            "/usr/bin/microsoft-edge",
            "/opt/microsoft/msedge/msedge",
            "/usr/bin/brave-browser",
            "/opt/brave.com/brave/brave",
        ]
    };
    list.iter().map(PathBuf::from).collect()
}

/// Which rule found the browser (for the log and `/healthz`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `browser.executablePath` in the config.
    Config,
    /// One of [`BROWSER_ENV_VARS`].
    Env(&'static str),
    /// A name from [`BROWSER_PATH_NAMES`] on `PATH`.
    Path(&'static str),
    /// A fixed platform location.
    Platform,
}

/// A browser that discovery found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The executable.
    pub path: PathBuf,
    /// The rule that found it.
    pub source: Source,
}

/// Why no browser could be used. The text is the `<reason>` of the contract's message and
/// names no host path (the path goes to the log).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiscoveryError {
    /// `browser.executablePath` is set but is not an executable file.
    #[error("browser.executablePath does not name an executable file.")]
    ConfiguredNotExecutable,
    /// Nothing usable anywhere.
    #[error(
        "No Chrome/Chromium executable was found (checked PREVIEWD_BROWSER and the other \
         browser variables, PATH, and the usual install locations)."
    )]
    NotFound,
}

/// The inputs of discovery, as plain data.
#[derive(Debug, Clone, Default)]
pub struct Discovery {
    /// `browser.executablePath` from the config.
    pub configured: Option<PathBuf>,
    /// Values of [`BROWSER_ENV_VARS`] (`None` when unset), same order.
    pub env: [Option<OsString>; 4],
    /// The `PATH` variable.
    pub path_var: Option<OsString>,
    /// Fixed locations to try last.
    pub locations: Vec<PathBuf>,
}

impl Discovery {
    /// Discovery over the process's real environment and this platform's locations.
    pub fn from_process(configured: Option<&Path>) -> Discovery {
        Discovery {
            configured: configured.map(Path::to_path_buf),
            env: BROWSER_ENV_VARS.map(std::env::var_os),
            path_var: std::env::var_os("PATH"),
            locations: platform_locations(),
        }
    }

    /// Applies the rules in order and returns the first usable executable.
    pub fn find(&self) -> Result<Found, DiscoveryError> {
        if let Some(path) = &self.configured {
            if is_executable(path) {
                return Ok(Found {
                    path: path.clone(),
                    source: Source::Config,
                });
            }
            tracing::warn!(path = %path.display(), "browser.executablePath is not an executable file");
            return Err(DiscoveryError::ConfiguredNotExecutable);
        }
        for (name, value) in BROWSER_ENV_VARS.iter().zip(&self.env) {
            let Some(value) = value.as_ref().filter(|v| !v.is_empty()) else {
                continue;
            };
            let path = PathBuf::from(value);
            if is_executable(&path) {
                return Ok(Found {
                    path,
                    source: Source::Env(name),
                });
            }
            tracing::warn!(variable = name, path = %path.display(), "skipping a browser variable that names no executable file");
        }
        if let Some(path_var) = &self.path_var {
            for name in BROWSER_PATH_NAMES {
                for dir in std::env::split_paths(path_var) {
                    // Relative PATH entries depend on the working directory; a service
                    // should not pick its browser by where it happened to start.
                    if !dir.is_absolute() {
                        continue;
                    }
                    let candidate = dir.join(name);
                    if is_executable(&candidate) {
                        return Ok(Found {
                            path: candidate,
                            source: Source::Path(name),
                        });
                    }
                }
            }
        }
        for candidate in &self.locations {
            if is_executable(candidate) {
                return Ok(Found {
                    path: candidate.clone(),
                    source: Source::Platform,
                });
            }
        }
        Err(DiscoveryError::NotFound)
    }
}

/// A regular file (after following links) that someone may execute.
pub fn is_executable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    if !meta.is_file() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exe(dir: &Path, name: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, "#!/bin/sh\nexit 0\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        path
    }

    fn plain(dir: &Path, name: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, "not a program").unwrap();
        path
    }

    fn empty() -> Discovery {
        Discovery::default()
    }

    #[test]
    fn config_wins_over_everything() {
        let tmp = tempfile::tempdir().unwrap();
        let configured = exe(tmp.path(), "mine");
        let env_one = exe(tmp.path(), "env-one");
        let mut d = empty();
        d.configured = Some(configured.clone());
        d.env[0] = Some(env_one.into());
        d.path_var = Some(tmp.path().as_os_str().to_owned());
        assert_eq!(
            d.find().unwrap(),
            Found {
                path: configured,
                source: Source::Config
            }
        );
    }

    #[test]
    fn configured_but_not_executable_is_an_error_not_a_fallback() {
        let tmp = tempfile::tempdir().unwrap();
        let mut d = empty();
        d.configured = Some(plain(tmp.path(), "chromium"));
        d.env[0] = Some(exe(tmp.path(), "fallback").into());
        assert_eq!(d.find(), Err(DiscoveryError::ConfiguredNotExecutable));
        d.configured = Some(tmp.path().join("missing"));
        assert_eq!(d.find(), Err(DiscoveryError::ConfiguredNotExecutable));
        d.configured = Some(tmp.path().to_path_buf());
        assert_eq!(d.find(), Err(DiscoveryError::ConfiguredNotExecutable));
    }

    #[test]
    fn env_vars_in_order_and_unusable_ones_skipped() {
        let tmp = tempfile::tempdir().unwrap();
        let third = exe(tmp.path(), "third");
        let fourth = exe(tmp.path(), "fourth");
        let mut d = empty();
        d.env = [
            Some(plain(tmp.path(), "first").into()),
            Some(OsString::new()),
            Some(third.clone().into()),
            Some(fourth.clone().into()),
        ];
        d.path_var = Some(tmp.path().as_os_str().to_owned());
        assert_eq!(
            d.find().unwrap(),
            Found {
                path: third,
                source: Source::Env("BROWSER_EXECUTABLE_PATH")
            }
        );
        d.env[2] = None;
        assert_eq!(
            d.find().unwrap().source,
            Source::Env("PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH")
        );
    }

    #[test]
    fn path_names_in_order_then_directories_in_order() {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        // `brave` is last in the name order, so `google-chrome` in a later directory wins.
        exe(a.path(), "brave");
        let chrome = exe(b.path(), "google-chrome");
        plain(a.path(), "chromium");
        let mut d = empty();
        d.path_var =
            Some(std::env::join_paths([a.path(), Path::new("relative"), b.path()]).unwrap());
        d.locations = vec![exe(a.path(), "fixed")];
        assert_eq!(
            d.find().unwrap(),
            Found {
                path: chrome,
                source: Source::Path("google-chrome")
            }
        );
        let chromium_b = exe(b.path(), "chromium");
        let chromium_a = a.path().join("chromium");
        std::fs::remove_file(&chromium_a).unwrap();
        let chromium_a = exe(a.path(), "chromium");
        assert_ne!(chromium_a, chromium_b);
        assert_eq!(d.find().unwrap().path, chromium_a);
    }

    #[test]
    fn platform_locations_last_then_not_found() {
        let tmp = tempfile::tempdir().unwrap();
        let fixed = exe(tmp.path(), "fixed");
        let mut d = empty();
        d.path_var = Some(tmp.path().join("nothing-here").into_os_string());
        d.locations = vec![tmp.path().join("absent"), fixed.clone()];
        assert_eq!(
            d.find().unwrap(),
            Found {
                path: fixed,
                source: Source::Platform
            }
        );
        d.locations.pop();
        assert_eq!(d.find(), Err(DiscoveryError::NotFound));
    }

    /// The real environment is process-global; this is the only test in the crate that
    /// sets browser variables, and it holds a lock so a future one cannot race it.
    #[test]
    fn from_process_reads_the_real_variables() {
        static ENV_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _guard = ENV_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let tmp = tempfile::tempdir().unwrap();
        let fake = exe(tmp.path(), "fake-chromium");
        let saved: Vec<_> = BROWSER_ENV_VARS.map(std::env::var_os).into();
        // No other test in this crate reads or writes these variables, and the lock
        // serializes this one.
        std::env::set_var("OPENCLAW_BROWSER_EXECUTABLE_PATH", &fake);
        std::env::remove_var("PREVIEWD_BROWSER");
        let found = Discovery::from_process(None).find();
        for (name, value) in BROWSER_ENV_VARS.iter().zip(saved) {
            match value {
                Some(v) => std::env::set_var(name, v),
                None => std::env::remove_var(name),
            }
        }
        assert_eq!(
            found.unwrap(),
            Found {
                path: fake,
                source: Source::Env("OPENCLAW_BROWSER_EXECUTABLE_PATH")
            }
        );
    }
}
