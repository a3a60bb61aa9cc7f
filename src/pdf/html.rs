//! The HTML of the PDF views: the Pages panel (a toolbar, the outline and one sized
//! placeholder per page, which `viewers/pdf/pdf-viewer.js` fills as pages come into view),
//! the rows of the Info view, and the standalone page of the command line.

use std::fmt::Write;

use base64::Engine;

use super::{PdfDocument, PdfModel};
use crate::markup::escape;

/// The Pages panel; `script` is the URL of the viewer script.
pub fn pages_panel(model: &PdfModel, script: &str) -> String {
    let count = model.page_count;
    let mut out = String::new();
    let _ = write!(
        out,
        "<div class=\"pdf-viewer\" id=\"pdf-viewer\" data-count=\"{count}\"><div class=\"pdf-toolbar\" role=\"toolbar\" aria-label=\"Pages\">"
    );
    if !model.outline.is_empty() {
        out.push_str("<button type=\"button\" data-act=\"outline\" aria-pressed=\"false\" title=\"Outline\">Outline</button>");
    }
    let _ = write!(
        out,
        "<button type=\"button\" data-act=\"prev\" title=\"Previous page\" aria-label=\"Previous page\">&#8249;</button>\
<input class=\"pdf-page-input\" type=\"number\" min=\"1\" max=\"{count}\" value=\"1\" aria-label=\"Page number\">\
<span class=\"pdf-count\">of {count}</span>\
<button type=\"button\" data-act=\"next\" title=\"Next page\" aria-label=\"Next page\">&#8250;</button>\
<span class=\"pdf-sep\"></span>\
<button type=\"button\" data-act=\"zoom-out\" title=\"Zoom out\" aria-label=\"Zoom out\">&#8722;</button>\
<select class=\"pdf-zoom\" aria-label=\"Zoom\"><option value=\"fit-width\" selected>Fit width</option><option value=\"fit-page\">Fit page</option>"
    );
    for pct in [50, 75, 100, 125, 150, 200, 300, 400] {
        let _ = write!(
            out,
            "<option value=\"{}\">{pct}%</option>",
            f64::from(pct) / 100.0
        );
    }
    out.push_str("</select><button type=\"button\" data-act=\"zoom-in\" title=\"Zoom in\" aria-label=\"Zoom in\">+</button></div><div class=\"pdf-body\">");
    if !model.outline.is_empty() {
        out.push_str("<nav class=\"pdf-outline\" aria-label=\"Outline\" hidden><ul>");
        for item in &model.outline {
            let depth = item.depth.min(8);
            match item.page {
                Some(p) => {
                    let _ = write!(
                        out,
                        "<li class=\"d{depth}\"><a href=\"#page-{n}\" data-page=\"{n}\">{}</a></li>",
                        escape(&item.title),
                        n = p + 1
                    );
                }
                None => {
                    let _ = write!(
                        out,
                        "<li class=\"d{depth}\"><span>{}</span></li>",
                        escape(&item.title)
                    );
                }
            }
        }
        out.push_str("</ul></nav>");
    }
    out.push_str("<div class=\"pdf-pages\">");
    for (i, page) in model.pages.iter().enumerate() {
        let (w, h) = page.display_size();
        let _ = write!(
            out,
            "<div class=\"pdf-page\" id=\"page-{n}\" data-page=\"{n}\" data-w=\"{w}\" data-h=\"{h}\" style=\"width:{w}px;height:{h}px\" aria-label=\"Page {n}\">",
            n = i + 1
        );
        for link in &page.links {
            let _ = write!(
                out,
                "<a class=\"pdf-link\" href=\"{url}\" target=\"_blank\" rel=\"noopener noreferrer nofollow\" title=\"{url}\" data-x=\"{}\" data-y=\"{}\" data-w=\"{}\" data-h=\"{}\"></a>",
                link.x,
                link.y,
                link.w,
                link.h,
                url = escape(&link.url)
            );
        }
        out.push_str("</div>");
    }
    let _ = write!(
        out,
        "</div></div></div><script src=\"{}\"></script>",
        escape(script)
    );
    out
}

/// Rows (`<dt>`/`<dd>`) for the Info view.
pub fn info_rows(model: &PdfModel) -> String {
    let mut out = String::new();
    let mut row = |k: &str, v: &str| {
        let _ = write!(out, "<dt>{k}</dt><dd>{}</dd>", escape(v));
    };
    let m = &model.metadata;
    for (label, value) in [
        ("Title", &m.title),
        ("Author", &m.author),
        ("Subject", &m.subject),
        ("Keywords", &m.keywords),
        ("Creator", &m.creator),
        ("Producer", &m.producer),
        ("Created", &m.created),
        ("Modified", &m.modified),
    ] {
        if let Some(v) = value {
            row(label, v);
        }
    }
    row("Pages", &model.page_count.to_string());
    if let Some(first) = model.pages.first() {
        let (w, h) = first.display_size();
        row(
            "Page size",
            &format!(
                "{w:.0} × {h:.0} pt ({:.0} × {:.0} mm)",
                w / 72.0 * 25.4,
                h / 72.0 * 25.4
            ),
        );
    }
    row("PDF version", &model.version);
    row(
        "Encrypted",
        if model.encrypted {
            "yes (no user password)"
        } else {
            "no"
        },
    );
    if !model.fonts.is_empty() {
        let fonts: Vec<String> = model
            .fonts
            .iter()
            .map(|f| {
                format!(
                    "{} ({}{})",
                    f.name,
                    f.kind,
                    if f.embedded { ", embedded" } else { "" }
                )
            })
            .collect();
        row("Fonts", &fonts.join("; "));
    }
    out
}

/// A standalone page with the first `max_pages` pages as PNG images at `scale`.
pub fn standalone(doc: &PdfDocument, scale: f32, max_pages: usize) -> String {
    let mut out = String::from("<!doctype html><html><head><meta charset=\"utf-8\"><title>");
    out.push_str(&escape(
        doc.model.metadata.title.as_deref().unwrap_or("PDF"),
    ));
    out.push_str("</title><style>body{margin:0;background:#eee}img{display:block;margin:12px auto;background:#fff;box-shadow:0 1px 3px #0003;max-width:100%;height:auto}p{text-align:center;font:14px sans-serif}</style></head><body>");
    for i in 0..doc.page_count().min(max_pages) {
        match doc.render(i, scale) {
            Ok(r) => {
                let _ = write!(
                    out,
                    "<img alt=\"Page {}\" width=\"{}\" height=\"{}\" src=\"data:image/png;base64,{}\">",
                    i + 1,
                    (r.width as f32 / r.scale).round(),
                    (r.height as f32 / r.scale).round(),
                    base64::engine::general_purpose::STANDARD.encode(&r.png)
                );
            }
            Err(e) => {
                let _ = write!(out, "<p>Page {}: {}</p>", i + 1, escape(&e.to_string()));
            }
        }
    }
    if doc.page_count() > max_pages {
        let _ = write!(
            out,
            "<p>{} more pages are not shown.</p>",
            doc.page_count() - max_pages
        );
    }
    out.push_str("</body></html>");
    out
}
