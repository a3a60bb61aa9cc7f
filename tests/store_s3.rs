//! Many instances, one store (issue #19): two real `previewd serve` processes share one
//! bucket of a real S3-protocol server (moto, started here on loopback). Any instance
//! answers any URL, expiry is the same on both, a stopped store is a quick 503
//! `store_unavailable` (and recovery when it returns), and an instance killed mid-write
//! leaves nothing that the other serves.

mod store_moto;

use std::time::{Duration, SystemTime};

use serde_json::{json, Value};
use store_moto::{Instance, Moto, Relay};

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
}

async fn post(http: &reqwest::Client, url: String, body: Value) -> (u16, Value) {
    let r = http.post(url).json(&body).send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// The path of an absolute URL.
fn path_of(url: &str) -> &str {
    let rest = url.split_once("://").unwrap().1;
    &rest[rest.find('/').unwrap()..]
}

fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    std::fs::create_dir(&ws).unwrap();
    (tmp, ws)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_diff_made_on_a_renders_on_b_and_expires_on_both() {
    let (tmp, ws) = setup();
    let moto = Moto::start(tmp.path());
    let a = Instance::start("a", tmp.path(), &ws, &moto.endpoint, &[]);
    let b = Instance::start("b", tmp.path(), &ws, &moto.endpoint, &[]);
    let http = client();

    let (status, body) = post(
        &http,
        format!("{}/api/v1/diffs", a.base),
        json!({"before": "a\nb\n", "after": "a\nc\n", "mode": "both", "title": "shared"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let d = &body["details"];
    let id = d["artifactId"].as_str().unwrap();
    assert!(
        d["filePath"].as_str().unwrap().starts_with(&format!(
            "s3://{}/previewd/diffs/{id}/files/",
            store_moto::BUCKET
        )),
        "{d}"
    );
    // B never saw the call: it finds the artifact in the bucket, renders the page from
    // the stored recipe, and serves the PNG that A rendered.
    let viewer = path_of(d["viewerUrl"].as_str().unwrap()).to_string();
    let file = path_of(d["fileUrl"].as_str().unwrap()).to_string();
    let page = http
        .get(format!("{}{viewer}", b.base))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("shared"));
    let png = http.get(format!("{}{file}", b.base)).send().await.unwrap();
    assert_eq!(png.status(), 200);
    assert_eq!(png.headers()["content-type"], "image/png");
    assert!(png.bytes().await.unwrap().starts_with(b"\x89PNG\r\n\x1a\n"));
    // B cached the page it rendered in the bucket, where A now finds it.
    assert!(
        moto.keys()
            .contains(&format!("previewd/diffs/{id}/derived/viewer.html")),
        "{:?}",
        moto.keys()
    );
    let again = http
        .get(format!("{}{viewer}", a.base))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 200);

    // Expiry lives in the stored metadata, so it is the same on every instance.
    let (status, body) = post(
        &http,
        format!("{}/api/v1/diffs", a.base),
        json!({"before": "x\n", "after": "y\n", "mode": "view", "ttlSeconds": 1}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let short = path_of(body["details"]["viewerUrl"].as_str().unwrap()).to_string();
    let short_id = body["details"]["artifactId"].as_str().unwrap().to_string();
    tokio::time::sleep(Duration::from_millis(1100)).await;
    for instance in [&a, &b] {
        let r = http
            .get(format!("{}{short}", instance.base))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 404);
        assert_eq!(r.text().await.unwrap(), "Diff not found or expired");
    }
    // The sweep deletes it from the bucket (metadata and payload), and keeps the live one.
    let store = sweeper(&moto);
    use previewd::diff::store::ArtifactStore;
    let report = store.cleanup(SystemTime::now()).unwrap();
    assert_eq!(report.expired, 1, "{report:?}");
    let keys = moto.keys();
    assert!(!keys.iter().any(|k| k.contains(&short_id)), "{keys:?}");
    assert!(keys.iter().any(|k| k.contains(id)), "{keys:?}");

    // Both report the shared store in /healthz and count its operations in /metrics.
    for instance in [&a, &b] {
        let health: Value = http
            .get(format!("{}/healthz", instance.base))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(health["store"], json!({"backend": "s3", "state": "ok"}));
        let metrics = http
            .get(format!("{}/metrics", instance.base))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let gets = metrics
            .lines()
            .find_map(|l| l.strip_prefix("previewd_store_operations_total{op=\"get\"} "))
            .unwrap();
        assert!(gets.parse::<u64>().unwrap() > 0, "{metrics}");
    }
}

/// The artifact store of the tests' own bucket, as an instance would open it.
fn sweeper(moto: &Moto) -> previewd::store::S3ArtifactStore {
    let config = store_config(&moto.endpoint);
    let objects = std::sync::Arc::new(previewd::store::Objects::open(&config).unwrap());
    previewd::store::S3ArtifactStore::new(objects, 1 << 30, Duration::from_secs(3600))
}

fn store_config(endpoint: &str) -> previewd::config::SharedStoreConfig {
    previewd::config::SharedStoreConfig {
        backend: previewd::config::StoreBackend::S3,
        bucket: Some(store_moto::BUCKET.into()),
        endpoint: Some(endpoint.into()),
        access_key_id: Some("testing".into()),
        secret_access_key: Some("testing".into()),
        allow_http: true,
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stopped_store_is_a_quick_503_on_both_and_they_recover() {
    let (tmp, ws) = setup();
    let moto = Moto::start(tmp.path());
    let a = Instance::start("a", tmp.path(), &ws, &moto.endpoint, &[]);
    let b = Instance::start("b", tmp.path(), &ws, &moto.endpoint, &[]);
    let http = client();
    let (status, body) = post(
        &http,
        format!("{}/api/v1/diffs", a.base),
        json!({"before": "a\n", "after": "b\n", "mode": "view"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let viewer = path_of(body["details"]["viewerUrl"].as_str().unwrap()).to_string();

    moto.pause();
    for instance in [&a, &b] {
        // Each attempt has a 700 ms deadline and one retry: an answer, never a hang
        // (the client's own 30 s timeout would fail the test).
        let r = http
            .get(format!("{}{viewer}", instance.base))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 503);
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"]["code"], "store_unavailable", "{body}");
        let (status, body) = post(
            &http,
            format!("{}/api/v1/diffs", instance.base),
            json!({"before": "c\n", "after": "d\n", "mode": "view"}),
        )
        .await;
        assert_eq!(status, 503, "{body}");
        assert_eq!(body["error"]["code"], "store_unavailable");
        let health: Value = http
            .get(format!("{}/healthz", instance.base))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(health["status"], "degraded");
        assert_eq!(health["store"]["state"], "unavailable");
    }

    moto.resume();
    for instance in [&a, &b] {
        let r = http
            .get(format!("{}{viewer}", instance.base))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        let health: Value = http
            .get(format!("{}/healthz", instance.base))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(health["store"]["state"], "ok");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_instance_killed_mid_write_leaves_nothing_the_other_serves() {
    let (tmp, ws) = setup();
    let moto = Moto::start(tmp.path());
    // A reaches the store through a relay that kills A when its metadata write (the
    // publish, the last step of a create) passes: its payloads are in the bucket already.
    let relay = Relay::start(moto.port, "/meta.json HTTP/1.1");
    let mut a = Instance::start("a", tmp.path(), &ws, &relay.endpoint, &[]);
    let b = Instance::start("b", tmp.path(), &ws, &moto.endpoint, &[]);
    relay.arm(a.pid);
    let http = client();
    let call = http
        .post(format!("{}/api/v1/diffs", a.base))
        .json(&json!({"before": "a\nb\n", "after": "a\nc\n", "mode": "both"}))
        .send()
        .await;
    assert!(call.is_err(), "A answered: {call:?}");
    assert!(relay.fired.load(std::sync::atomic::Ordering::SeqCst));
    a.kill();

    let keys = moto.keys();
    let payloads: Vec<&String> = keys.iter().filter(|k| k.contains("/files/")).collect();
    assert_eq!(payloads.len(), 2, "recipe and PNG were written: {keys:?}");
    assert!(!keys.iter().any(|k| k.ends_with("meta.json")), "{keys:?}");
    let id = payloads[0].split('/').nth(2).unwrap().to_string();
    // Without its metadata the artifact does not exist for B, whatever the token.
    let r = http
        .get(format!(
            "{}/plugins/diffs/file/{id}/{}",
            b.base,
            "0".repeat(48)
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
    // The sweep keeps the young orphan (it may be a write in progress) and removes it a
    // day later.
    use previewd::diff::store::ArtifactStore;
    let store = sweeper(&moto);
    let now = store.cleanup(SystemTime::now()).unwrap();
    assert_eq!((now.young_orphans, now.orphans), (1, 0), "{now:?}");
    let later = store
        .cleanup(SystemTime::now() + Duration::from_secs(25 * 3600))
        .unwrap();
    assert_eq!(later.orphans, 1, "{later:?}");
    assert!(moto.keys().is_empty(), "{:?}", moto.keys());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_snapshot_made_on_a_opens_on_b_within_one_tenant_quota() {
    let (tmp, ws) = setup();
    std::fs::write(ws.join("notes.md"), "# Shared heading\n\nbody\n").unwrap();
    let moto = Moto::start(tmp.path());
    let quota = [("PREVIEWD_STORE__TENANT_MAX_SNAPSHOTS", "3")];
    let a = Instance::start("a", tmp.path(), &ws, &moto.endpoint, &quota);
    let b = Instance::start("b", tmp.path(), &ws, &moto.endpoint, &quota);
    let http = client();
    let reference = json!({"workspaceRoot": ws.to_str().unwrap(), "relativePath": "notes.md"});
    let (status, made) = post(
        &http,
        format!("{}/api/v1/previews", a.base),
        reference.clone(),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let (id, token) = (
        made["previewId"].as_str().unwrap(),
        made["token"].as_str().unwrap(),
    );
    // The file changes after the snapshot: B must show the bytes A read, from the store.
    std::fs::write(ws.join("notes.md"), "# Changed later\n").unwrap();
    let raw = http
        .get(format!("{}/p/{id}/{token}/raw", b.base))
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 200);
    assert_eq!(raw.text().await.unwrap(), "# Shared heading\n\nbody\n");
    let shell = http
        .get(format!("{}/p/{id}/{token}/", b.base))
        .send()
        .await
        .unwrap();
    assert_eq!(shell.status(), 200);
    // The stored metadata has the token's hash, never the token.
    let keys = moto.keys();
    assert!(
        keys.contains(&format!("previewd/snapshots/{id}/meta.json")),
        "{keys:?}"
    );
    assert!(
        keys.contains(&format!("previewd/snapshots/{id}/bytes")),
        "{keys:?}"
    );
    let wrong = http
        .get(format!("{}/p/{id}/{}/raw", b.base, "0".repeat(48)))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 404);

    // One tenant (no API token: `global`) across both instances: 3 snapshots, then 507.
    for instance in [&b, &b] {
        let (status, body) = post(
            &http,
            format!("{}/api/v1/previews", instance.base),
            reference.clone(),
        )
        .await;
        assert_eq!(status, 201, "{body}");
    }
    let (status, body) = post(
        &http,
        format!("{}/api/v1/previews", a.base),
        reference.clone(),
    )
    .await;
    assert_eq!(status, 507, "{body}");
    assert_eq!(body["error"]["code"], "storage_full");
    assert!(
        body["error"]["message"].as_str().unwrap().contains("quota"),
        "{body}"
    );
}
