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

/// `POST /api/v1/diffs` on `instance`: status and JSON body.
async fn diff(http: &reqwest::Client, instance: &Instance, body: Value) -> (u16, Value) {
    post(http, format!("{}/api/v1/diffs", instance.base), body).await
}

/// A diff `instance` must make: its body.
async fn diff_ok(http: &reqwest::Client, instance: &Instance, body: Value) -> Value {
    let (status, body) = diff(http, instance, body).await;
    assert_eq!(status, 200, "{body}");
    body
}

async fn get(http: &reqwest::Client, url: String) -> reqwest::Response {
    http.get(url).send().await.unwrap()
}

/// Status and JSON body (`null` when the body is not JSON).
async fn get_json(http: &reqwest::Client, url: String) -> (u16, Value) {
    let r = get(http, url).await;
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// The path of an absolute URL.
fn path_of(url: &str) -> &str {
    let rest = url.split_once("://").unwrap().1;
    &rest[rest.find('/').unwrap()..]
}

/// Instances A and B on the bucket of `moto`, with `extra` environment.
fn pair(
    tmp: &tempfile::TempDir,
    ws: &std::path::Path,
    moto: &Moto,
    extra: &[(&str, &str)],
) -> (Instance, Instance) {
    (
        Instance::start("a", tmp.path(), ws, &moto.endpoint, extra),
        Instance::start("b", tmp.path(), ws, &moto.endpoint, extra),
    )
}

/// A workspace, a store, A and B on it and a client. A struct's fields are dropped in
/// the order they are declared: the instances first, the folder last.
struct Two {
    a: Instance,
    b: Instance,
    moto: Moto,
    http: reqwest::Client,
    ws: std::path::PathBuf,
    _tmp: tempfile::TempDir,
}

fn two(extra: &[(&str, &str)]) -> Two {
    let (tmp, ws) = setup();
    let moto = Moto::start(tmp.path());
    let (a, b) = pair(&tmp, &ws, &moto, extra);
    Two {
        a,
        b,
        moto,
        http: client(),
        ws,
        _tmp: tmp,
    }
}

fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    std::fs::create_dir(&ws).unwrap();
    (tmp, ws)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_diff_made_on_a_renders_on_b_and_expires_on_both() {
    let two = two(&[]);
    let (a, b, moto, http) = (&two.a, &two.b, &two.moto, &two.http);

    let body = diff_ok(
        http,
        a,
        json!({"before": "a\nb\n", "after": "a\nc\n", "mode": "both", "title": "shared"}),
    )
    .await;
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
    let page = get(http, format!("{}{viewer}", b.base)).await;
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("shared"));
    let png = get(http, format!("{}{file}", b.base)).await;
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
    let again = get(http, format!("{}{viewer}", a.base)).await;
    assert_eq!(again.status(), 200);

    // Expiry lives in the stored metadata, so it is the same on every instance.
    let body = diff_ok(
        http,
        a,
        json!({"before": "x\n", "after": "y\n", "mode": "view", "ttlSeconds": 1}),
    )
    .await;
    let short = path_of(body["details"]["viewerUrl"].as_str().unwrap()).to_string();
    let short_id = body["details"]["artifactId"].as_str().unwrap().to_string();
    tokio::time::sleep(Duration::from_millis(1100)).await;
    for instance in [&a, &b] {
        let r = get(http, format!("{}{short}", instance.base)).await;
        assert_eq!(r.status(), 404);
        assert_eq!(r.text().await.unwrap(), "Diff not found or expired");
    }
    // The sweep deletes it from the bucket (metadata and payload), and keeps the live one.
    let store = sweeper(moto);
    use previewd::diff::store::ArtifactStore;
    let report = store.cleanup(SystemTime::now()).unwrap();
    assert_eq!(report.expired, 1, "{report:?}");
    let keys = moto.keys();
    assert!(!keys.iter().any(|k| k.contains(&short_id)), "{keys:?}");
    assert!(keys.iter().any(|k| k.contains(id)), "{keys:?}");

    // Both report the shared store in /healthz and count its operations in /metrics.
    for instance in [&a, &b] {
        let (_, health) = get_json(http, format!("{}/healthz", instance.base)).await;
        assert_eq!(health["store"], json!({"backend": "s3", "state": "ok"}));
        let metrics = get(http, format!("{}/metrics", instance.base))
            .await
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
    previewd::store::S3ArtifactStore::new(objects, 1 << 30, u64::MAX, Duration::from_secs(3600))
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
    let two = two(&[]);
    let (a, b, moto, http) = (&two.a, &two.b, &two.moto, &two.http);
    let body = diff_ok(
        http,
        a,
        json!({"before": "a\n", "after": "b\n", "mode": "view"}),
    )
    .await;
    let viewer = path_of(body["details"]["viewerUrl"].as_str().unwrap()).to_string();

    moto.pause();
    for instance in [&a, &b] {
        // Each attempt has a 700 ms deadline and one retry: an answer, never a hang
        // (the client's own 30 s timeout would fail the test).
        let r = get(http, format!("{}{viewer}", instance.base)).await;
        assert_eq!(r.status(), 503);
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"]["code"], "store_unavailable", "{body}");
        let (status, body) = diff(
            http,
            instance,
            json!({"before": "c\n", "after": "d\n", "mode": "view"}),
        )
        .await;
        assert_eq!(status, 503, "{body}");
        assert_eq!(body["error"]["code"], "store_unavailable");
        let (_, health) = get_json(http, format!("{}/healthz", instance.base)).await;
        assert_eq!(health["status"], "degraded");
        assert_eq!(health["store"]["state"], "unavailable");
    }

    moto.resume();
    for instance in [&a, &b] {
        let r = get(http, format!("{}{viewer}", instance.base)).await;
        assert_eq!(r.status(), 200);
        let (_, health) = get_json(http, format!("{}/healthz", instance.base)).await;
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
    let r = get(
        &http,
        format!("{}/plugins/diffs/file/{id}/{}", b.base, "0".repeat(48)),
    )
    .await;
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
    let two = two(&[("PREVIEWD_STORE__TENANT_MAX_SNAPSHOTS", "3")]);
    let (a, b, moto, ws, http) = (&two.a, &two.b, &two.moto, &two.ws, &two.http);
    std::fs::write(ws.join("notes.md"), "# Shared heading\n\nbody\n").unwrap();
    let reference = json!({"workspaceRoot": ws.to_str().unwrap(), "relativePath": "notes.md"});
    let (status, made) = post(
        http,
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
    let raw = get(http, format!("{}/p/{id}/{token}/raw", b.base)).await;
    assert_eq!(raw.status(), 200);
    assert_eq!(raw.text().await.unwrap(), "# Shared heading\n\nbody\n");
    let shell = get(http, format!("{}/p/{id}/{token}/", b.base)).await;
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
    let wrong = get(http, format!("{}/p/{id}/{}/raw", b.base, "0".repeat(48))).await;
    assert_eq!(wrong.status(), 404);

    // One tenant (no API token: `global`) across both instances: 3 snapshots, then 507.
    for instance in [&b, &b] {
        let (status, body) = post(
            http,
            format!("{}/api/v1/previews", instance.base),
            reference.clone(),
        )
        .await;
        assert_eq!(status, 201, "{body}");
    }
    let (status, body) = post(
        http,
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

/// A table large enough to be read in the background on A (`limits.csv_stream_bytes`)
/// reaches the shared store too. A publishes it at once as pending, so B checks its token
/// and answers `busy` (429 with `Retry-After`) while A's read is not stored yet; once A has
/// stored the bytes it read, B opens its grid from them: every row, and the digest of the
/// whole file.
#[tokio::test(flavor = "multi_thread")]
async fn a_table_read_in_the_background_on_a_opens_on_b() {
    use sha2::Digest;
    let (tmp, ws) = setup();
    let mut csv = String::from("id,label\n");
    for i in 1..=20_000u32 {
        csv.push_str(&format!("{i},row {i}\n"));
    }
    std::fs::write(ws.join("big.csv"), &csv).unwrap();
    let sha = hex::encode(sha2::Sha256::digest(csv.as_bytes()));
    let moto = Moto::start(tmp.path());
    // A uploads the bytes it read through a relay that holds that upload back, so B meets
    // the snapshot while it is pending however fast A reads. A's store deadline is long
    // enough for the held request not to time out meanwhile.
    let relay = Relay::holding(moto.port, "/bytes HTTP/1.1");
    let streamed = [
        ("PREVIEWD_LIMITS__CSV_STREAM_BYTES", "65536"),
        ("PREVIEWD_STORE__OPERATION_TIMEOUT_MS", "60000"),
    ];
    let a = Instance::start("a", tmp.path(), &ws, &relay.endpoint, &streamed);
    let b = Instance::start("b", tmp.path(), &ws, &moto.endpoint, &streamed[..1]);
    let http = client();
    let reference = json!({"workspaceRoot": ws.to_str().unwrap(), "relativePath": "big.csv"});
    let (status, made) = post(&http, format!("{}/api/v1/previews", a.base), reference).await;
    assert_eq!(status, 201, "{made}");
    let (id, token) = (
        made["previewId"].as_str().unwrap(),
        made["token"].as_str().unwrap(),
    );
    assert!(
        relay.wait_fired(Duration::from_secs(120)),
        "A never stored the bytes it read"
    );
    // Pending: its metadata is in the bucket, its bytes are not.
    let keys = moto.keys();
    assert!(
        keys.contains(&format!("previewd/snapshots/{id}/meta.json")),
        "{keys:?}"
    );
    assert!(
        !keys.contains(&format!("previewd/snapshots/{id}/bytes")),
        "{keys:?}"
    );
    let grid = format!("/p/{id}/{token}/grid");
    let pending = get(&http, format!("{}{grid}/rows/0/0", b.base)).await;
    assert_eq!(pending.status(), 429);
    assert_eq!(pending.headers()["retry-after"], "1");
    let body: Value = pending.json().await.unwrap();
    assert_eq!(body["error"]["code"], "busy", "{body}");
    // Its token is checked even so.
    let (status, _) = get_json(
        &http,
        format!("{}/p/{id}/{}/grid/rows/0/0", b.base, "0".repeat(48)),
    )
    .await;
    assert_eq!(status, 404);
    // A serves it all along.
    let (status, first) = get_json(&http, format!("{}{grid}/rows/0/0", a.base)).await;
    assert_eq!((status, &first["rows"][1][0]), (200, &json!(1)), "{first}");

    relay.release();
    // B answers `busy` until A's upload has landed (moments after the release), then
    // loads the snapshot from the store and parses the table itself. Like the viewer, this
    // asks again while it is told to.
    let mut opened = (429, Value::Null);
    for _ in 0..600 {
        opened = get_json(&http, format!("{}{grid}/rows/0/100", b.base)).await;
        if opened.0 != 429 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (status, last) = opened;
    assert_eq!(status, 200, "{last}");
    assert_eq!(last["rows"][0][0], 20_000, "{last}");
    assert_eq!(last["rows"][0][1][1]["t"], "row 20000", "{last}");
    let (status, meta) = get_json(&http, format!("{}{grid}/meta.json", b.base)).await;
    assert_eq!(status, 200);
    assert_eq!(meta["complete"], true, "{meta}");
    assert_eq!(meta["rowsKnown"], 20_001, "{meta}");
    assert_eq!(meta["sha256"], sha.as_str(), "{meta}");
    // The quota marker was moved to the size read (here the size at open, too).
    let keys = moto.keys();
    assert!(
        keys.iter()
            .any(|k| k.starts_with("previewd/tenants/global/")
                && k.ends_with(&format!("-{}-{id}", csv.len()))),
        "{keys:?}"
    );
    assert!(
        keys.contains(&format!("previewd/snapshots/{id}/bytes")),
        "{keys:?}"
    );
}

/// `diffs.max_total_bytes` bounds the prefix's `diffs/` folder across instances: what the
/// others wrote counts on an instance, a create past the cap is refused with
/// `storage_full` (507) on each, and once expired artifacts can be swept a create fits again.
#[tokio::test(flavor = "multi_thread")]
async fn the_artifact_byte_cap_holds_across_instances() {
    let (tmp, ws) = setup();
    let moto = Moto::start(tmp.path());
    let http = client();
    let call =
        |ttl: u64| json!({"before": "x\n", "after": "y\n", "mode": "view", "ttlSeconds": ttl});
    // One artifact of these calls takes `one` bytes in the bucket (made by an instance
    // without a cap), so the cap below has room for three of them and not for four.
    let one = {
        let probe = Instance::start("probe", tmp.path(), &ws, &moto.endpoint, &[]);
        diff_ok(&http, &probe, call(3600)).await;
        let sizes: Vec<u64> = moto
            .objects()
            .into_iter()
            .filter(|(key, _)| key.starts_with("previewd/diffs/"))
            .map(|(_, size)| size)
            .collect();
        assert_eq!(sizes.len(), 2, "a recipe and its metadata");
        sizes.iter().sum::<u64>()
    };
    let cap = (3 * one + one / 2).to_string();
    let (a, b) = pair(
        &tmp,
        &ws,
        &moto,
        &[("PREVIEWD_DIFFS__MAX_TOTAL_BYTES", cap.as_str())],
    );
    // Two that expire soon, but not before the refusals below (a sweep would free them).
    for _ in 0..2 {
        diff_ok(&http, &a, call(5)).await;
    }
    // Made before this: both expire within 5 s from now.
    let made = std::time::Instant::now();
    // B has written nothing, yet counts what the probe and A wrote; A counted it too.
    for instance in [&b, &a] {
        let (status, body) = diff(&http, instance, call(60)).await;
        assert_eq!(status, 507, "{body}");
        assert_eq!(body["error"]["code"], "storage_full", "{body}");
        assert!(
            body["error"]["message"]
                .as_str()
                .unwrap()
                .contains(&format!("diffs.max_total_bytes = {cap} bytes")),
            "{body}"
        );
    }
    // Once A's two have expired, a full folder sweeps them before it refuses.
    let expired = made + Duration::from_millis(5100);
    tokio::time::sleep(expired.saturating_duration_since(std::time::Instant::now())).await;
    let body = diff_ok(&http, &b, call(60)).await;
    let new_id = body["details"]["artifactId"].as_str().unwrap().to_string();
    let kept: Vec<String> = moto
        .keys()
        .into_iter()
        .filter(|k| k.starts_with("previewd/diffs/"))
        .collect();
    assert_eq!(kept.len(), 4, "the probe's and the new one: {kept:?}");
    assert!(kept.iter().any(|k| k.contains(&new_id)), "{kept:?}");
}
