//! Word packages built in memory for the browser tests.

/// A Word package holding `body` (WordprocessingML with the `m:` namespace declared).
pub fn docx_with_body(body: &str) -> Vec<u8> {
    docx_with_parts(body, &[])
}

/// [`docx_with_body`] plus `extra` parts (name, text), e.g. comments and their relationship.
pub fn docx_with_parts(body: &str, extra: &[(&str, String)]) -> Vec<u8> {
    let extra: Vec<(&str, Vec<u8>)> = extra
        .iter()
        .map(|(name, text)| (*name, text.clone().into_bytes()))
        .collect();
    docx_with_part_bytes(body, &extra)
}

/// [`docx_with_parts`] with parts of any bytes (a picture's PNG).
pub fn docx_with_part_bytes(body: &str, extra: &[(&str, Vec<u8>)]) -> Vec<u8> {
    use std::io::Write;
    let document = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"><w:body>{body}</w:body></w:document>"#
    );
    let parts = [
        ("[Content_Types].xml", r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#.to_string()),
        ("_rels/.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#.to_string()),
        ("word/document.xml", document),
    ];
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let parts = parts
        .into_iter()
        .map(|(name, text)| (name, text.into_bytes()));
    for (name, bytes) in parts.chain(extra.iter().cloned()) {
        zip.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(&bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}
