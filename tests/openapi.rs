//! The OpenAPI description against the live service: served where it says, and every
//! answer to schemathesis' generated requests is one the description allows, with no 5xx.

mod common;

/// The checks that make the description a contract: no server errors, and status codes,
/// content types, headers and bodies as described.
const CHECKS: &str = "not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance";

#[tokio::test]
async fn the_description_is_served_and_names_itself() {
    let server = common::start(|_| {}).await;
    let r = server
        .http
        .get(format!("{}/api/v1/openapi.json", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    let doc: serde_json::Value = r.json().await.unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["servers"][0]["url"], server.base.as_str());
    assert!(doc["paths"]["/api/v1/openapi.json"]["get"].is_object());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schemathesis_finds_no_answer_outside_the_description() {
    let server = common::start(|_| {}).await;
    server.write("notes.md", "# Notes\n\nSome *text*.\n");
    server.write("site/index.html", "<h1>Hi</h1><img src=a.png>");
    server.write("src/main.rs", "fn main() {}\n");
    let schema = format!("{}/api/v1/openapi.json", server.base);
    // schemathesis keeps a cache of failing examples in its working folder: a scratch one,
    // so a run never writes into the checkout.
    let scratch = tempfile::tempdir().unwrap();
    let out = tokio::process::Command::new("schemathesis")
        .args([
            "run",
            &schema,
            "--checks",
            CHECKS,
            "--max-examples",
            "12",
            "--generation-deterministic",
            "--suppress-health-check",
            "all",
            "--no-color",
        ])
        .env("SCHEMATHESIS_HOOKS", "")
        .current_dir(scratch.path())
        .kill_on_drop(true)
        .output()
        .await
        .unwrap_or_else(|e| {
            panic!("schemathesis is needed (scripts/test.sh installs it in a venv): {e}")
        });
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "schemathesis found answers outside the description:\n{stdout}\n{stderr}"
    );
    // It ran the operations, rather than stopping at the schema.
    assert!(
        stdout.contains("createDiff") || stdout.contains("/api/v1/diffs"),
        "{stdout}"
    );
}
