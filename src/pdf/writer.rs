//! A minimal PDF writer for pages previewd makes itself: the "could not render this page
//! in time" tile, and generated documents for tests and benchmarks. Pages hold text in the
//! standard Helvetica font (every reader has it) and filled rectangles; the cross-reference
//! table is exact, so readers never need to repair the file.

use std::fmt::Write;

/// One page to write: its size in points and its content stream.
#[derive(Debug, Clone, Default)]
pub struct PageSpec {
    /// Width in points.
    pub width: f32,
    /// Height in points.
    pub height: f32,
    /// The content stream (PDF operators); `/F1` is Helvetica.
    pub content: String,
    /// http(s) links: the target and its rectangle `[x0, y0, x1, y1]` in page space.
    pub links: Vec<(String, [f32; 4])>,
}

impl PageSpec {
    /// A page of `width` × `height` points.
    pub fn new(width: f32, height: f32) -> PageSpec {
        PageSpec {
            width,
            height,
            ..PageSpec::default()
        }
    }

    /// Adds a line of text at (`x`, `y`) in page space (origin bottom left), `size` points.
    pub fn text(mut self, x: f32, y: f32, size: f32, text: &str) -> PageSpec {
        let _ = writeln!(
            self.content,
            "BT /F1 {size} Tf {x} {y} Td ({}) Tj ET",
            escape_string(text)
        );
        self
    }

    /// Fills a rectangle with a grey level (0 black, 1 white).
    pub fn rect(mut self, x: f32, y: f32, w: f32, h: f32, grey: f32) -> PageSpec {
        let _ = writeln!(self.content, "q {grey} g {x} {y} {w} {h} re f Q");
        self
    }

    /// Adds a link annotation to `url` over `rect`.
    pub fn link(mut self, url: &str, rect: [f32; 4]) -> PageSpec {
        self.links.push((url.to_string(), rect));
        self
    }
}

/// Escapes `text` for a literal string: backslash and parentheses, and anything outside
/// printable ASCII as an octal escape of its Latin-1 byte (`?` when it has none).
pub fn escape_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '(' | ')' => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' => out.push(c),
            c if (c as u32) < 256 => {
                let _ = write!(out, "\\{:03o}", c as u32);
            }
            _ => out.push('?'),
        }
    }
    out
}

/// Writes a complete document of `pages`, with `title` in its information dictionary and,
/// when `outline` is not empty, bookmarks (title, 0-based page index).
pub fn document(pages: &[PageSpec], title: &str, outline: &[(String, usize)]) -> Vec<u8> {
    let mut objects: Vec<Vec<u8>> = Vec::new();
    // Fixed numbers: 1 catalog, 2 page tree, 3 font, 4 info, 5 outline root; pages after.
    let first_page = 6;
    let per_page = 2;
    let links_from = first_page + per_page * pages.len();
    let total_links: usize = pages.iter().map(|p| p.links.len()).sum();
    let items_from = links_from + total_links;
    let kids: String = (0..pages.len())
        .map(|i| format!("{} 0 R ", first_page + per_page * i))
        .collect();
    let outlines = if outline.is_empty() {
        String::new()
    } else {
        " /Outlines 5 0 R /PageMode /UseOutlines".to_string()
    };
    objects.push(format!("<< /Type /Catalog /Pages 2 0 R{outlines} >>").into_bytes());
    objects.push(format!("<< /Type /Pages /Kids [{kids}] /Count {} >>", pages.len()).into_bytes());
    objects.push(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
            .to_vec(),
    );
    objects.push(
        format!(
            "<< /Title ({}) /Producer (previewd) >>",
            escape_string(title)
        )
        .into_bytes(),
    );
    objects.push(if outline.is_empty() {
        b"<< /Type /Outlines /Count 0 >>".to_vec()
    } else {
        format!(
            "<< /Type /Outlines /First {} 0 R /Last {} 0 R /Count {} >>",
            items_from,
            items_from + outline.len() - 1,
            outline.len()
        )
        .into_bytes()
    });
    let mut link_number = links_from;
    for (i, page) in pages.iter().enumerate() {
        let contents = first_page + per_page * i + 1;
        let annots: String = (0..page.links.len())
            .map(|k| format!("{} 0 R ", link_number + k))
            .collect();
        link_number += page.links.len();
        objects.push(
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {} {}] /Resources << /Font << /F1 3 0 R >> >> /Contents {contents} 0 R /Annots [{annots}] >>",
                page.width, page.height
            )
            .into_bytes(),
        );
        let mut stream = format!("<< /Length {} >>\nstream\n", page.content.len()).into_bytes();
        stream.extend_from_slice(page.content.as_bytes());
        stream.extend_from_slice(b"\nendstream");
        objects.push(stream);
    }
    for page in pages {
        for (url, [x0, y0, x1, y1]) in &page.links {
            objects.push(
                format!(
                    "<< /Type /Annot /Subtype /Link /Rect [{x0} {y0} {x1} {y1}] /Border [0 0 0] /A << /S /URI /URI ({}) >> >>",
                    escape_string(url)
                )
                .into_bytes(),
            );
        }
    }
    for (k, (title, page)) in outline.iter().enumerate() {
        let number = items_from + k;
        let mut item = format!(
            "<< /Title ({}) /Parent 5 0 R /Dest [{} 0 R /Fit]",
            escape_string(title),
            first_page + per_page * page.min(&pages.len().saturating_sub(1))
        );
        if k > 0 {
            let _ = write!(item, " /Prev {} 0 R", number - 1);
        }
        if k + 1 < outline.len() {
            let _ = write!(item, " /Next {} 0 R", number + 1);
        }
        item.push_str(" >>");
        objects.push(item.into_bytes());
    }
    assemble(&objects)
}

/// Numbers `objects` from 1, writes them with an exact cross-reference table and a trailer
/// whose root is object 1 and whose info dictionary is object 4 (when there is one).
pub fn assemble(objects: &[Vec<u8>]) -> Vec<u8> {
    let mut out = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets = Vec::with_capacity(objects.len());
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    let mut table = format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1);
    for offset in offsets {
        let _ = writeln!(table, "{offset:010} 00000 n ");
    }
    out.extend_from_slice(table.as_bytes());
    let info = if objects.len() >= 4 {
        " /Info 4 0 R"
    } else {
        ""
    };
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R{info} >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(escape_string("a(b)\\c"), "a\\(b\\)\\\\c");
        assert_eq!(escape_string("é"), "\\351");
        assert_eq!(escape_string("→"), "?");
    }

    #[test]
    fn the_table_points_at_each_object() {
        let file = document(
            &[PageSpec::new(100.0, 100.0).text(10.0, 10.0, 12.0, "hi")],
            "t",
            &[],
        );
        let at = file.windows(5).position(|w| w == b"xref\n").unwrap();
        let table = String::from_utf8(file[at..].to_vec()).unwrap();
        for (n, line) in table.lines().skip(3).take(7).enumerate() {
            let offset: usize = line[..10].parse().unwrap();
            let object = format!("{} 0 obj", n + 1);
            assert!(file[offset..].starts_with(object.as_bytes()), "{line}");
        }
    }
}
