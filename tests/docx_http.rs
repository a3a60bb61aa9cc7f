//! Word documents through the service: the Document view, its model and media, and
//! refusals with reasons.

mod common;

use common::{error_of, ids, start};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/corpus/docx");

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(format!("{CORPUS}/{name}")).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_document_has_a_document_view_model_and_media() {
    let s = start(|_| {}).await;
    s.write("docs/pics.docx", corpus("python-docx-having-images.docx"));
    let body = s.preview_ok("docs/pics.docx").await;
    assert_eq!(body["kind"], "docx");
    assert_eq!(body["views"][0]["name"], "document");
    let (id, token) = ids(&body);

    let page = s.get_text(&format!("/p/{id}/{token}/")).await;
    assert!(page.contains("docx.css"));
    let images: Vec<&str> = page
        .match_indices("src=\"media/")
        .map(|(i, _)| {
            let rest = &page[i + 5..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    assert!(!images.is_empty(), "the document shows its pictures");
    for src in &images {
        let r = s.get(&format!("/p/{id}/{token}/{src}")).await;
        assert_eq!(r.status(), 200, "{src}");
        assert!(r.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("image/"));
    }
    // Only media the document shows are served.
    assert_eq!(
        error_of(
            s.get(&format!("/p/{id}/{token}/media/word/document.xml"))
                .await
        )
        .await,
        (404, "not_found".into())
    );

    let model: serde_json::Value = s
        .get(&format!("/p/{id}/{token}/model.json"))
        .await
        .json()
        .await
        .unwrap();
    assert!(model["sections"].as_array().is_some_and(|s| !s.is_empty()));
    assert!(model["media"]
        .as_array()
        .is_some_and(|m| m.len() == images.len() || !m.is_empty()));
}

#[tokio::test(flavor = "multi_thread")]
async fn document_text_and_properties_show() {
    let s = start(|_| {}).await;
    s.write(
        "r.docx",
        std::fs::read(format!("{CORPUS}/../../bench/report-60p.docx")).unwrap(),
    );
    let body = s.preview_ok("r.docx").await;
    let page = s
        .get(&format!(
            "/p/{}/{}/document",
            body["previewId"].as_str().unwrap(),
            body["token"].as_str().unwrap()
        ))
        .await
        .text()
        .await
        .unwrap();
    assert!(page.contains("Quarterly report"));
    assert!(page.contains("class=\"doc-title\""));
    assert!(page.contains("<h1"));
}

#[tokio::test(flavor = "multi_thread")]
async fn unreadable_office_files_are_refused_with_a_reason() {
    let s = start(|_| {}).await;
    s.write("junk.docx", b"this is not a zip at all");
    let r = s.preview("junk.docx").await;
    assert_eq!(r.status(), 422);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "corrupt");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not an Office Open XML package"),
        "{body}"
    );

    // A compound file with an encrypted package stream: password-protected.
    let mut cfb = vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
    cfb.resize(4096, 0);
    // A directory entry: UTF-16 name, and at offset 64 its length with the final NUL.
    let name: Vec<u8> = "EncryptedPackage"
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    cfb[1024..1024 + name.len()].copy_from_slice(&name);
    cfb[1024 + 64..1024 + 66].copy_from_slice(&((name.len() + 2) as u16).to_le_bytes());
    s.write("locked.docx", &cfb);
    // Without that stream it is a legacy binary document: unsupported, with the reason.
    let mut legacy = cfb.clone();
    legacy[1024..1024 + 66].fill(0);
    s.write("old.docx", &legacy);
    let r = s.preview("old.docx").await;
    assert_eq!(r.status(), 415);
    let body: serde_json::Value = r.json().await.unwrap();
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("legacy .doc"),
        "{body}"
    );
    let r = s.preview("locked.docx").await;
    let status = r.status().as_u16();
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["error"]["code"], "encrypted", "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("password-protected"),
        "{body}"
    );
    // Stat still works: it reads no bytes.
    let r = s
        .post_json(
            "/api/v1/stat",
            &serde_json::json!({"workspaceRoot": s.root_str(), "relativePath": "locked.docx"}),
        )
        .await;
    assert_eq!(r.status(), 200);
}

/// A Word document with a 3-D surface chart (Open-Xml-PowerTools' CU015, saved by Word):
/// the served page draws it as its 2-D equivalent, the contour chart, in value bands
/// with a legend of their ranges, not as a placeholder.
#[tokio::test(flavor = "multi_thread")]
async fn a_surface_chart_is_served_as_a_contour_drawing() {
    let s = start(|_| {}).await;
    s.write(
        "surface.docx",
        std::fs::read(format!(
            "{CORPUS}/../../charts/powertools-CU015-Chart-Embedded-Xlsx-07.docx"
        ))
        .unwrap(),
    );
    let body = s.preview_ok("surface.docx").await;
    let (id, token) = ids(&body);
    let page = s.get_text(&format!("/p/{id}/{token}/")).await;
    let start = page
        .find("<svg class=\"docx-chart-svg\"")
        .expect("a chart drawing");
    let svg = &page[start..start + page[start..].find("</svg>").unwrap()];
    assert!(!page.contains("docx-placeholder"), "no placeholder");
    assert!(svg.matches("class=\"band\"").count() >= 3, "{svg}");
    // The bands' colours differ from one another (the band format's or the accents').
    let fills: std::collections::BTreeSet<&str> = svg
        .match_indices("class=\"band\" d=\"")
        .filter_map(|(i, _)| {
            let rest = &svg[i..];
            let f = rest.find("fill=\"")? + 6;
            Some(&rest[f..f + 7])
        })
        .collect();
    assert!(fills.len() >= 3, "{fills:?}");
    // The legend names each band's range (the value axis's unit of 1 over values 1.8 to
    // 5.0), the axes the categories and series of the grid.
    for label in [
        "0-1",
        "1-2",
        "2-3",
        "3-4",
        "4-5",
        "5-6",
        "Category 4",
        "Series 3",
    ] {
        assert!(svg.contains(&format!(">{label}</text>")), "{label}: {svg}");
    }
}
