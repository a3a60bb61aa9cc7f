//! Real Chromium for end-to-end tests, driven over CDP with chromiumoxide.
//!
//! The browser is found the way the export finds it (`PREVIEWD_BROWSER`, then `PATH`);
//! a missing browser fails the test with instructions, it never skips it.

use std::path::PathBuf;
use std::time::Duration;

use chromiumoxide::browser::{Browser, BrowserConfig};
use chromiumoxide::cdp::js_protocol::runtime::EvaluateParams;
use chromiumoxide::Page;
use futures::StreamExt;

/// Finds a Chromium executable or panics with how to install one.
pub fn chromium_path() -> PathBuf {
    if let Some(p) = std::env::var_os("PREVIEWD_BROWSER") {
        return PathBuf::from(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in [
            "chromium",
            "chromium-browser",
            "google-chrome",
            "google-chrome-stable",
        ] {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return candidate;
            }
        }
    }
    panic!(
        "browser tests need Chromium: run the README's test command (it installs Debian's \
         `chromium`) or set PREVIEWD_BROWSER to a Chromium executable"
    );
}

/// A headless Chromium with a private profile, closed on drop.
pub struct TestBrowser {
    /// The CDP connection.
    pub browser: Browser,
    handler: tokio::task::JoinHandle<()>,
    _profile: tempfile::TempDir,
}

impl TestBrowser {
    /// Launches Chromium with the locked-down flags previewd uses.
    pub async fn launch() -> TestBrowser {
        TestBrowser::launch_with(&[]).await
    }

    /// Launches Chromium with these extra switches (`name=value` or `name`, no dashes),
    /// e.g. `host-resolver-rules=MAP attacker.example 127.0.0.1` to point a name at loopback.
    pub async fn launch_with(extra: &[&str]) -> TestBrowser {
        let profile = tempfile::tempdir().unwrap();
        let mut builder = BrowserConfig::builder();
        for arg in extra {
            builder = match arg.split_once('=') {
                Some((name, value)) => builder.arg((name, value)),
                None => builder.arg(*arg),
            };
        }
        let config = builder
            .chrome_executable(chromium_path())
            .no_sandbox()
            .user_data_dir(profile.path())
            .args([
                "disable-gpu",
                "disable-component-update",
                "disable-quic",
                "disable-domain-reliability",
            ])
            // Keep sandboxed frames in the page's own renderer so CDP can evaluate inside
            // them; the sandbox and CSP rules under test do not depend on process placement.
            .arg(("disable-features", "TranslateUI,IsolateSandboxedIframes"))
            .arg("disable-site-isolation-trials")
            .window_size(1200, 900)
            .launch_timeout(Duration::from_secs(30))
            .request_timeout(Duration::from_secs(30))
            .build()
            .unwrap();
        let (browser, mut handler) = Browser::launch(config).await.expect("launch Chromium");
        let handler = tokio::spawn(async move { while handler.next().await.is_some() {} });
        TestBrowser {
            browser,
            handler,
            _profile: profile,
        }
    }

    /// Opens `url` in a new tab and waits for it to load.
    pub async fn open(&self, url: &str) -> Page {
        let page = self.browser.new_page(url).await.expect("open page");
        page.wait_for_navigation().await.expect("page loads");
        page
    }

    /// Opens `url` in a new tab with `script` run in every new document before any of the
    /// page's own scripts (to watch what happens while the page is parsed), and waits for
    /// it to load.
    pub async fn open_with_init_script(&self, url: &str, script: &str) -> Page {
        let page = self
            .browser
            .new_page("about:blank")
            .await
            .expect("open tab");
        page.evaluate_on_new_document(script)
            .await
            .expect("add the init script");
        page.goto(url).await.expect("navigate");
        page.wait_for_navigation().await.expect("page loads");
        page
    }

    /// Opens `url` in a new tab whose device pixel ratio is `ratio` (through the DevTools
    /// device-metrics override: headless Chromium ignores `--force-device-scale-factor`),
    /// at the window's 1200 × 900 CSS px, and waits for it to load.
    pub async fn open_at_ratio(&self, url: &str, ratio: f64) -> Page {
        use chromiumoxide::cdp::browser_protocol::emulation::SetDeviceMetricsOverrideParams;
        let page = self
            .browser
            .new_page("about:blank")
            .await
            .expect("open tab");
        page.execute(SetDeviceMetricsOverrideParams::new(1200, 900, ratio, false))
            .await
            .expect("set the device pixel ratio");
        page.goto(url).await.expect("navigate");
        page.wait_for_navigation().await.expect("page loads");
        page
    }

    /// Closes the browser and waits for the process to end.
    pub async fn close(mut self) {
        let _ = self.browser.close().await;
        let _ = self.browser.wait().await;
        self.handler.abort();
    }
}

/// Evaluates `expression` in the page's main frame and returns its JSON value.
pub async fn eval(page: &Page, expression: &str) -> serde_json::Value {
    page.evaluate_expression(
        EvaluateParams::builder()
            .expression(expression)
            .return_by_value(true)
            .await_promise(true)
            .build()
            .unwrap(),
    )
    .await
    .unwrap_or_else(|e| panic!("evaluate {expression}: {e}"))
    .into_value()
    .unwrap_or(serde_json::Value::Null)
}

/// Evaluates `expression` inside the (first) child frame whose URL contains `url_part`.
pub async fn eval_in_frame(page: &Page, url_part: &str, expression: &str) -> serde_json::Value {
    let frames = page.frames().await.unwrap();
    for frame in frames {
        let url = page
            .frame_url(frame.clone())
            .await
            .unwrap()
            .unwrap_or_default();
        if !url.contains(url_part) {
            continue;
        }
        let context = page
            .frame_execution_context(frame.clone())
            .await
            .unwrap()
            .expect("the frame has an execution context");
        return page
            .evaluate_expression(
                EvaluateParams::builder()
                    .expression(expression)
                    .context_id(context)
                    .return_by_value(true)
                    .build()
                    .unwrap(),
            )
            .await
            .unwrap_or_else(|e| panic!("evaluate in frame {expression}: {e}"))
            .into_value()
            .unwrap_or(serde_json::Value::Null);
    }
    panic!("no frame with a URL containing {url_part}");
}

/// Polls `expression` in the main frame until it is `true` (at most ~10 s).
pub async fn wait_for(page: &Page, expression: &str) {
    for _ in 0..200 {
        if eval(page, expression).await == serde_json::Value::Bool(true) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("timed out waiting for {expression}");
}
