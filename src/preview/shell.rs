//! The viewer shell: one page per snapshot with a header (file name, relative path, kind,
//! size, SHA-256) and every view of the file as a panel; a segmented switcher on the
//! trailing side of the header toggles panels without a reload.
//!
//! Each view also has its own URL (`/p/{id}/{token}/{view}`) that renders the same page
//! with that panel selected, so links work without script. Both come from the snapshot;
//! neither re-reads the file.

use std::fmt::Write;
use std::sync::Arc;

use super::image::inspect;
use super::office::OfficeModel;
use super::snapshot::{capped_view, Snapshot};
use super::views::{views_for, View};
use super::{document, markdown};
use crate::highlight::{highlight_lines, plain_lines};
use crate::markup::{encode_path, escape, fill, human_size};
use crate::office::docx::{render_html, RenderOptions};
use crate::workspace::FileKind;

const TEMPLATE: &str = include_str!("../../viewers/shell/shell.html");

/// What the shell needs to know beyond the snapshot.
#[derive(Debug, Clone)]
pub struct ShellOptions {
    /// Relative URL prefix of the static assets from a view URL.
    pub static_prefix: String,
    /// Whether previewed HTML may run its scripts.
    pub html_scripts: bool,
    /// Source files above this many bytes are not highlighted.
    pub highlight_bytes: u64,
    /// A rendered view over this many bytes is cached (and shown) as a notice instead.
    pub rendered_view_bytes: u64,
    /// Relative URL prefix of the machine fonts (`/fonts/{id}`) from a view URL.
    pub fonts_prefix: String,
    /// The machine fonts served under `fonts_prefix`; `None`: documents get font stacks
    /// by name only.
    pub fonts: Option<Arc<crate::office::fonts::FontCatalog>>,
    /// Guards for reading a document's font parts.
    pub office_limits: crate::office::OfficeLimits,
}

/// The font plan of an Office snapshot in the shell: machine fonts at `/fonts/{id}`
/// (three levels up from a view URL, like the static files), embedded ones at `font/{n}`.
fn shell_font_plan(snapshot: &Snapshot, options: &ShellOptions) -> crate::office::fonts::FontPlan {
    let (Some(model), Some(bytes)) = (&snapshot.office, snapshot.read.bytes.as_deref()) else {
        return Default::default();
    };
    let machine = options.fonts_prefix.clone();
    let none = std::collections::HashMap::new();
    let sources = crate::office::fonts::FontSources {
        machine: options
            .fonts
            .as_deref()
            .map(|catalog| crate::office::fonts::MachineFonts {
                catalog,
                url_prefix: Some(machine.as_str()),
            }),
        embedded: Some("font/"),
        embedded_urls: &none,
        pptx_calibri: matches!(model, OfficeModel::Pptx(_)),
    };
    super::office::font_plan(bytes, model, &options.office_limits, &sources)
}

/// Renders the shell with `selected` as the visible view.
pub fn render(snapshot: &Snapshot, selected: View, options: &ShellOptions) -> String {
    let read = &snapshot.read;
    let views = views_for(read.kind);
    let mut switcher = String::new();
    if views.len() > 1 {
        switcher.push_str("<nav class=\"switcher\" role=\"tablist\" aria-label=\"View\">");
        for view in views {
            let on = *view == selected;
            let _ = write!(
                switcher,
                "<a role=\"tab\" id=\"tab-{n}\" data-view=\"{n}\" href=\"{n}\" aria-controls=\"view-{n}\" aria-selected=\"{on}\" tabindex=\"{t}\">{l}</a>",
                n = view.name(),
                l = view.label(),
                t = if on { 0 } else { -1 },
            );
        }
        switcher.push_str("</nav>");
    }
    let mut sections = String::new();
    for view in views {
        let hidden = if *view == selected { "" } else { " hidden" };
        let labelled = if views.len() > 1 {
            format!(" role=\"tabpanel\" aria-labelledby=\"tab-{}\"", view.name())
        } else {
            String::new()
        };
        let _ = write!(
            sections,
            "<section class=\"view view-{n}\" id=\"view-{n}\" data-view=\"{n}\"{labelled}{hidden}>",
            n = view.name()
        );
        sections.push_str(&panel(snapshot, *view, *view == selected, options));
        sections.push_str("</section>\n");
    }
    let sha = snapshot.sha256().unwrap_or_default();
    let mut extra_head = match read.kind {
        FileKind::Docx => format!(
            "<link rel=\"stylesheet\" href=\"{}docx.css\">",
            escape(&options.static_prefix)
        ),
        FileKind::Pptx => format!(
            "<link rel=\"stylesheet\" href=\"{p}pptx.css\"><link rel=\"stylesheet\" href=\"{p}pptx-viewer.css\">",
            p = escape(&options.static_prefix)
        ),
        FileKind::Pdf => format!(
            "<link rel=\"stylesheet\" href=\"{}pdf-viewer.css\">",
            escape(&options.static_prefix)
        ),
        _ => String::new(),
    };
    if views.contains(&View::Sheet) {
        // The first two requests of a grid shown at once start with the page.
        if selected == View::Sheet {
            extra_head.push_str(&super::sheet::preloads(snapshot, super::sheet::Host::Shell));
        }
        extra_head.push_str(&super::sheet::head(&options.static_prefix));
    }
    let doc_meta = document_meta(snapshot);
    let name = escape(read.file_name());
    let path = escape(read.relative_path.as_str());
    fill(
        TEMPLATE,
        &[
            ("name", &name),
            ("path", &path),
            ("static", &escape(&options.static_prefix)),
            ("kind", read.kind.as_str()),
            ("kind_label", read.kind.label()),
            ("size", &human_size(read.size)),
            ("sha256", &sha),
            ("sha_short", sha.get(..12).unwrap_or("")),
            ("switcher", &switcher),
            ("extra_head", &extra_head),
            ("doc_meta", &doc_meta),
            ("sections", &sections),
        ],
    )
}

fn panel(snapshot: &Snapshot, view: View, selected: bool, options: &ShellOptions) -> String {
    match view {
        View::Preview => match snapshot.read.kind {
            FileKind::Markdown => markdown_panel(snapshot, options),
            _ => html_panel(snapshot, selected, options),
        },
        View::Source => source_panel(snapshot, options).to_string(),
        View::Image => image_panel(snapshot),
        View::Document => document_panel(snapshot, options).to_string(),
        View::Slides => slides_panel(snapshot, options).to_string(),
        View::Sheet => sheet_panel(snapshot),
        View::Pages => pages_panel(snapshot, options).to_string(),
        View::Info => info_panel(snapshot),
    }
}

fn html_panel(snapshot: &Snapshot, selected: bool, options: &ShellOptions) -> String {
    let src = format!("doc/{}", encode_path(snapshot.read.relative_path.as_str()));
    // The frame loads only when its panel is shown, so a page opened on Source runs no
    // script at all.
    let src_attr = if selected { "src" } else { "data-src" };
    format!(
        "<iframe class=\"doc\" title=\"Preview of {name}\" sandbox=\"{sandbox}\" referrerpolicy=\"no-referrer\" {src_attr}=\"{src}\"></iframe>",
        name = escape(snapshot.read.file_name()),
        sandbox = document::iframe_sandbox(options.html_scripts),
    )
}

/// The grid viewer, drawn in the shell's own document ([`super::sheet`]); it starts
/// loading its rows once its panel is shown.
fn sheet_panel(snapshot: &Snapshot) -> String {
    super::sheet::viewer(snapshot, super::sheet::Host::Shell)
}

fn markdown_panel(snapshot: &Snapshot, options: &ShellOptions) -> String {
    let body = snapshot.rendered.markdown.get_or_init(|| {
        let (text, lossy) = snapshot.read.text().unwrap_or_default();
        let mut out = String::new();
        if lossy {
            out.push_str(LOSSY_NOTICE);
        }
        out.push_str("<article class=\"markdown\">");
        out.push_str(&markdown::render(
            &text,
            snapshot.read.relative_path.parent(),
            "doc/",
        ));
        out.push_str("</article>");
        capped_view(out, options.rendered_view_bytes)
    });
    body.to_string()
}

const LOSSY_NOTICE: &str = "<p class=\"notice\">This file is not valid UTF-8; bytes that could not be decoded are shown as \u{FFFD}.</p>";

/// The Source panel of a table still being read in the background (not cached: the next
/// load of the page shows the source).
const STILL_READING: &str = "<p class=\"notice\">This file is still being read; its source is shown once all of it is in (open this view again in a moment).</p>";

fn source_panel(snapshot: &Snapshot, options: &ShellOptions) -> Arc<str> {
    let bytes = snapshot.bytes();
    if bytes.is_none() && snapshot.live.is_some() {
        return Arc::from(STILL_READING);
    }
    snapshot
        .rendered
        .source
        .get_or_init(|| {
            let (text, lossy) = bytes
                .as_deref()
                .map(crate::workspace::text_of)
                .unwrap_or_default();
            let name = snapshot.read.file_name();
            let too_big = text.len() as u64 > options.highlight_bytes;
            let lines = if too_big {
                None
            } else {
                highlight_lines(&text, None, name)
            };
            let highlighted = lines.is_some();
            let lines = lines.unwrap_or_else(|| plain_lines(&text));
            let mut out = String::with_capacity(text.len() * 2 + 512);
            out.push_str("<div class=\"toolbar\">");
            let _ = write!(out, "<span>{} lines</span>", lines.len());
            if too_big {
                let _ = write!(
                    out,
                    "<span class=\"plain-note\">Highlighting is off for files over {}.</span>",
                    human_size(options.highlight_bytes)
                );
            } else if !highlighted {
                out.push_str("<span class=\"plain-note\">Plain text</span>");
            }
            out.push_str("<span class=\"spacer\"></span><button type=\"button\" class=\"wrap-toggle\" aria-controls=\"source-code\" aria-pressed=\"false\">Wrap</button></div>");
            if lossy {
                out.push_str(LOSSY_NOTICE);
            }
            out.push_str("<pre class=\"code\" id=\"source-code\" data-wrap=\"off\"><code>");
            for line in &lines {
                out.push_str("<span class=\"line\">");
                out.push_str(line);
                out.push_str("</span>");
            }
            out.push_str("</code></pre>");
            capped_view(out, options.rendered_view_bytes)
        })
        .clone()
}

/// Title and author of an Office document, for the header.
fn document_meta(snapshot: &Snapshot) -> String {
    let properties = match &snapshot.office {
        Some(OfficeModel::Docx(doc)) => &doc.properties,
        Some(OfficeModel::Pptx(deck)) => &deck.properties,
        Some(OfficeModel::Sheet(book)) => &book.properties,
        Some(OfficeModel::Pdf(_)) | None => return String::new(),
    };
    let mut out = String::new();
    let present = |v: &Option<String>| v.clone().filter(|t| !t.trim().is_empty());
    if let Some(title) = present(&properties.title) {
        let _ = write!(out, "<span class=\"doc-title\">{}</span>", escape(&title));
    }
    if let Some(author) = present(&properties.creator) {
        let _ = write!(out, "<span class=\"doc-author\">{}</span>", escape(&author));
    }
    out
}

fn document_panel(snapshot: &Snapshot, options: &ShellOptions) -> Arc<str> {
    snapshot
        .rendered
        .office
        .get_or_init(|| {
            let Some(OfficeModel::Docx(doc)) = &snapshot.office else {
                return Arc::from("<p class=\"notice\">This document could not be read.</p>");
            };
            let body = render_html(
                doc,
                &RenderOptions {
                    media_prefix: "media/".into(),
                    show_revisions: true,
                    comments: true,
                    standalone: false,
                    fonts: shell_font_plan(snapshot, options),
                    ..RenderOptions::default()
                },
            );
            // Tracked changes render as <ins>/<del>; the toggle is offered only when the
            // document has some.
            let has_revisions = body.contains("<ins") || body.contains("<del");
            let has_comments = body.contains("class=\"docx-comments\"");
            let mut out = String::with_capacity(body.len() + 512);
            let mut bar = String::new();
            if doc.has_macros {
                bar.push_str("<span class=\"plain-note\">Contains macros (never run).</span>");
            }
            for warning in doc.warnings.iter().take(3) {
                let _ = write!(bar, "<span class=\"plain-note\">{}</span>", escape(warning));
            }
            if has_revisions || has_comments {
                bar.push_str("<span class=\"spacer\"></span>");
            }
            // The classes land on #docx-root; shell.css scopes their rules to it.
            if has_revisions {
                bar.push_str("<button type=\"button\" class=\"class-toggle\" data-target=\"docx-root\" data-class=\"docx-hide-revisions\" data-pressed-when=\"absent\" aria-pressed=\"true\">Tracked changes</button>");
            }
            if has_comments {
                bar.push_str("<button type=\"button\" class=\"class-toggle\" data-target=\"docx-root\" data-class=\"docx-hide-comments\" data-pressed-when=\"absent\" aria-pressed=\"true\">Comments</button>");
            }
            if !bar.is_empty() {
                let _ = write!(out, "<div class=\"toolbar\">{bar}</div>");
            }
            out.push_str("<div id=\"docx-root\" class=\"docx-host\">");
            out.push_str(&body);
            out.push_str("</div>");
            // Breaks the page frames into pages where the browser's lines fall.
            let _ = write!(
                out,
                "<script src=\"{}docx-pages.js\"></script>",
                options.static_prefix
            );
            drop(body);
            capped_view(out, options.rendered_view_bytes)
        })
        .clone()
}

/// The deck with its viewer. `pptx.js` is not in the head: the renderer places it right
/// after slide 1, so the viewer takes over slide 1 before the later slides are parsed. It
/// is loaded by URL because the shell's CSP allows only `'self'` scripts. The panel is
/// cached with the first caller's static prefix, which is the same for every view URL.
fn slides_panel(snapshot: &Snapshot, options: &ShellOptions) -> Arc<str> {
    snapshot
        .rendered
        .office
        .get_or_init(|| {
            let Some(OfficeModel::Pptx(deck)) = &snapshot.office else {
                return Arc::from("<p class=\"notice\">This deck could not be read.</p>");
            };
            let mut out = String::new();
            if deck.has_macros || !deck.warnings.is_empty() {
                out.push_str("<div class=\"toolbar\">");
                if deck.has_macros {
                    out.push_str("<span class=\"plain-note\">Contains macros (never run).</span>");
                }
                for warning in deck.warnings.iter().take(3) {
                    let _ = write!(out, "<span class=\"plain-note\">{}</span>", escape(warning));
                }
                out.push_str("</div>");
            }
            out.push_str(&crate::office::pptx::render_html(
                deck,
                &crate::office::pptx::RenderOptions {
                    media_prefix: "media/".into(),
                    lazy: true,
                    chrome: true,
                    notes: true,
                    standalone: false,
                    fonts: shell_font_plan(snapshot, options),
                    script: crate::office::pptx::ViewerScript::Src(format!(
                        "{}pptx.js",
                        options.static_prefix
                    )),
                    ..crate::office::pptx::RenderOptions::default()
                },
            ));
            capped_view(out, options.rendered_view_bytes)
        })
        .clone()
}

/// The pages of a PDF with their viewer (placeholders only: pages are fetched as they
/// come into view).
fn pages_panel(snapshot: &Snapshot, options: &ShellOptions) -> Arc<str> {
    snapshot
        .rendered
        .office
        .get_or_init(|| {
            let Some(OfficeModel::Pdf(doc)) = &snapshot.office else {
                return Arc::from("<p class=\"notice\">This PDF could not be read.</p>");
            };
            let script = format!("{}pdf-viewer.js", options.static_prefix);
            capped_view(
                crate::pdf::html::pages_panel(&doc.model, &script),
                options.rendered_view_bytes,
            )
        })
        .clone()
}

fn image_panel(snapshot: &Snapshot) -> String {
    let bytes = snapshot.read.bytes.as_deref().unwrap_or_default();
    let info = inspect(bytes, snapshot.read.file_name());
    let dims = match (info.width, info.height) {
        (Some(w), Some(h)) => format!("{w} × {h} px"),
        _ => "dimensions unknown".to_string(),
    };
    format!(
        "<figure class=\"image\"><img src=\"raw\" alt=\"{name}\"><figcaption>{dims} · {mime} · {size}</figcaption></figure>",
        name = escape(snapshot.read.file_name()),
        mime = info.mime,
        size = human_size(snapshot.read.size),
    )
}

fn info_panel(snapshot: &Snapshot) -> String {
    let read = &snapshot.read;
    let mut out = String::new();
    match read.kind {
        FileKind::Docx | FileKind::Pptx | FileKind::Xlsx | FileKind::Pdf => {}
        FileKind::Binary => out.push_str(
            "<p class=\"notice\">This file holds binary data, so its bytes are not shown.</p>",
        ),
        _ => out.push_str(
            "<p class=\"notice\">previewd has no viewer for this kind of file; only its details are shown.</p>",
        ),
    }
    out.push_str("<dl class=\"info\">");
    let mut row = |k: &str, v: &str| {
        let _ = write!(out, "<dt>{k}</dt><dd>{v}</dd>");
    };
    row("Name", &escape(read.file_name()));
    row("Path", &escape(read.relative_path.as_str()));
    row("Kind", read.kind.label());
    row(
        "Size",
        &format!("{} ({} bytes)", human_size(read.size), read.size),
    );
    if let Some(ms) = read.mtime_ms {
        row("Modified", &crate::time::rfc3339_ms(ms));
    }
    let sha = snapshot.sha256();
    let still_reading = snapshot.live.is_some() && sha.is_none();
    row(
        "SHA-256",
        sha.as_deref().unwrap_or(if still_reading {
            "not known yet (the file is still being read)"
        } else {
            "not computed (file larger than the hashing limit)"
        }),
    );
    if let Some(OfficeModel::Pdf(doc)) = &snapshot.office {
        out.push_str(&crate::pdf::html::info_rows(&doc.model));
    }
    out.push_str("</dl>");
    out
}
