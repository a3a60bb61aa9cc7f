//! Excel packages built in memory for the sheet tests.

use std::io::Write;

/// A minimal workbook: `sheets` are (name, sheetData inner XML, extra sheet XML after
/// sheetData); `shared` is the shared-string table's inner XML; `styles` the styles part.
pub fn workbook(
    sheets: &[(&str, &str, &str)],
    shared: Option<&str>,
    styles: Option<&str>,
    pr: &str,
) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let mut put = |name: &str, body: &str| {
        zip.start_file(name, opts).unwrap();
        zip.write_all(body.as_bytes()).unwrap();
    };
    let mut types = String::from(
        r#"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>"#,
    );
    for i in 1..=sheets.len() {
        types.push_str(&format!(r#"<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>"#));
    }
    types.push_str("</Types>");
    put("[Content_Types].xml", &types);
    put(
        "_rels/.rels",
        r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#,
    );
    let mut wb = format!(
        r#"<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">{pr}<sheets>"#
    );
    let mut rels = String::from(
        r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#,
    );
    for (i, (name, _, _)) in sheets.iter().enumerate() {
        let n = i + 1;
        wb.push_str(&format!(
            r#"<sheet name="{name}" sheetId="{n}" r:id="rId{n}"/>"#
        ));
        rels.push_str(&format!(r#"<Relationship Id="rId{n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet{n}.xml"/>"#));
    }
    wb.push_str("</sheets></workbook>");
    rels.push_str(r#"<Relationship Id="rS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rT" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#);
    put("xl/workbook.xml", &wb);
    put("xl/_rels/workbook.xml.rels", &rels);
    for (i, (_, data, extra)) in sheets.iter().enumerate() {
        // `extra` is "before|after": elements that precede sheetData, then follow it.
        let (before, after) = extra.split_once('|').unwrap_or(("", extra));
        put(
            &format!("xl/worksheets/sheet{}.xml", i + 1),
            &format!(
                r#"<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">{before}<sheetData>{data}</sheetData>{after}</worksheet>"#
            ),
        );
    }
    if let Some(sst) = shared {
        put(
            "xl/sharedStrings.xml",
            &format!(
                r#"<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">{sst}</sst>"#
            ),
        );
    }
    if let Some(st) = styles {
        put(
            "xl/styles.xml",
            &format!(
                r#"<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">{st}</styleSheet>"#
            ),
        );
    }
    zip.finish().unwrap().into_inner()
}
