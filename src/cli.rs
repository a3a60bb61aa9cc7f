//! The command-line tools that work without a server: `preview`, `diff` and `activity`
//! (with `--changes`, the session's Changes view).
//!
//! Each takes what the HTTP API takes, goes through the same stages (the workspace door,
//! the diff contract, the activity projection), and returns bytes to write, so refusals are
//! the same errors with the same codes.

use std::collections::HashMap;
use std::fmt::Write;
use std::path::Path;

use serde::Serialize;

use crate::config::Config;
use crate::diff::view::{render, Variant, ViewOptions};
use crate::diff::{build_model, DiffModel, DiffOutcome, DiffRequest};
use crate::error::Error;
use crate::highlight::{highlight_lines, plain_lines};
use crate::markup::{escape, human_size};
use crate::office::docx::{render_html, RenderOptions};
use crate::preview::image::inspect;
use crate::preview::office::OfficeModel;
use crate::workspace::{check_relative_path, Door, FileKind, ScopedRead, Workspaces};

/// Output format of the `preview` and `diff` commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A standalone HTML page (no server, no scripts, styles inlined).
    Html,
    /// The model (Office files, diffs) or the file's metadata as JSON.
    Json,
}

/// Metadata printed for files without a model.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct FileInfo<'a> {
    name: &'a str,
    kind: FileKind,
    size: u64,
    sha256: Option<&'a str>,
    mtime_ms: Option<u64>,
}

/// Renders one file to a standalone page or its model, through the workspace door (the
/// file's folder is the workspace).
pub fn preview_file(file: &Path, format: Format, config: &Config) -> Result<Vec<u8>, Error> {
    let read = read_file(file, config)?;
    // A DOCX or PPTX page declares the machine's faces with their line metrics: the font
    // folders are scanned on another thread while the document parses.
    let fonts = (matches!(format, Format::Html)
        && matches!(read.kind, FileKind::Docx | FileKind::Pptx))
    .then(|| {
        let (dirs, max) = (config.fonts.dirs.clone(), config.fonts.max_font_bytes);
        std::thread::spawn(move || crate::office::fonts::FontCatalog::scan(&dirs, max))
    });
    let office = crate::preview::office::parse_with(&read, &config.office, &config.pdf)?;
    match format {
        Format::Json => match &office {
            Some(OfficeModel::Pdf(doc)) => to_json(&pdf_with_text(doc)?),
            Some(model) => model.to_json(),
            None => to_json(&FileInfo {
                name: read.file_name(),
                kind: read.kind,
                size: read.size,
                sha256: read.sha256.as_deref(),
                mtime_ms: read.mtime_ms,
            }),
        },
        Format::Html => Ok(standalone_page(&read, office.as_ref(), fonts, config).into_bytes()),
    }
}

/// A PDF's model with the text of every page (runs with positions and plain text).
fn pdf_with_text(doc: &crate::pdf::PdfDocument) -> Result<serde_json::Value, Error> {
    let mut value = serde_json::to_value(&doc.model).map_err(|_| Error::Internal)?;
    let mut texts = Vec::with_capacity(doc.page_count());
    for i in 0..doc.page_count() {
        let text = doc.text(i).map_err(crate::preview::office::pdf_error)?;
        texts.push(serde_json::json!({
            "page": i + 1,
            "text": text.plain(),
            "runs": text.runs,
            "truncated": text.truncated,
        }));
    }
    value["text"] = serde_json::Value::Array(texts);
    Ok(value)
}

/// Page `page` (1-based) of a PDF as PNG at `scale` pixels per point.
pub fn preview_page_png(
    file: &Path,
    page: usize,
    scale: f32,
    config: &Config,
) -> Result<Vec<u8>, Error> {
    let read = read_file(file, config)?;
    if read.kind != FileKind::Pdf {
        return Err(Error::Unsupported(
            "--format png renders pages of PDF files only".into(),
        ));
    }
    let Some(OfficeModel::Pdf(doc)) =
        crate::preview::office::parse_with(&read, &config.office, &config.pdf)?
    else {
        return Err(Error::Internal);
    };
    if page == 0 || page > doc.page_count() {
        return Err(Error::not_found(format!(
            "the document has {} pages; there is no page {page}",
            doc.page_count()
        )));
    }
    let raster = doc
        .render(page - 1, scale)
        .map_err(crate::preview::office::pdf_error)?;
    Ok(raster.png)
}

/// Reads one file through the workspace door (the file's folder is the workspace).
fn read_file(file: &Path, config: &Config) -> Result<ScopedRead, Error> {
    let absolute = std::path::absolute(file)
        .map_err(|_| Error::InvalidReference("the file path cannot be resolved".into()))?;
    let folder = absolute
        .parent()
        .ok_or_else(|| Error::InvalidReference("the file has no parent folder".into()))?;
    let name = absolute
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| Error::InvalidReference("the file name is not UTF-8".into()))?;
    let workspaces = Workspaces::new(&[folder.to_owned()], &[])
        .map_err(|_| Error::not_found("the file's folder does not exist"))?;
    let door = Door::new(workspaces.clone(), config.limits.clone())
        .allowing_hard_links(config.preview.allow_hard_links);
    let root = workspaces.roots()[0].clone();
    let relative = check_relative_path(name, config.limits.relative_path_bytes)?;
    door.read_in(&root, relative)
}

fn to_json<T: Serialize>(value: &T) -> Result<Vec<u8>, Error> {
    let mut out = serde_json::to_vec_pretty(value).map_err(|_| Error::Internal)?;
    out.push(b'\n');
    Ok(out)
}

/// A self-contained page: inline styles, no scripts, images as `data:` URLs. An HTML file is
/// shown as its source: outside previewd's sandbox its scripts must not run.
fn standalone_page(
    read: &ScopedRead,
    office: Option<&OfficeModel>,
    fonts: Option<std::thread::JoinHandle<crate::office::fonts::FontCatalog>>,
    config: &Config,
) -> String {
    if let Some(OfficeModel::Pdf(doc)) = office {
        return crate::pdf::html::standalone(doc, 1.5, 100);
    }
    if let Some(model) = office {
        let bytes = read.bytes.as_deref().unwrap_or_default();
        // One opened package for all pictures: reopening it per picture cost most of the
        // time of a picture-heavy deck.
        let media_urls = crate::preview::office::all_media(bytes, model, &config.office)
            .unwrap_or_default()
            .into_iter()
            .map(|(part, data, mime)| (part, data_url(mime, &data)))
            .collect::<HashMap<_, _>>();
        let fonts = fonts.and_then(|scan| scan.join().ok());
        let fonts = fonts.as_ref();
        return match model {
            OfficeModel::Docx(doc) => render_html(
                doc,
                &RenderOptions {
                    media_urls,
                    standalone: true,
                    fonts: crate::preview::office::standalone_font_plan(
                        bytes,
                        model,
                        &config.office,
                        fonts,
                    ),
                    ..RenderOptions::default()
                },
            ),
            // A standalone deck carries its small viewer script inline.
            OfficeModel::Pptx(deck) => crate::office::pptx::render_html(
                deck,
                &crate::office::pptx::RenderOptions {
                    media_urls,
                    standalone: true,
                    script: crate::office::pptx::ViewerScript::Inline,
                    fonts: crate::preview::office::standalone_font_plan(
                        bytes,
                        model,
                        &config.office,
                        fonts,
                    ),
                    ..crate::office::pptx::RenderOptions::default()
                },
            ),
            OfficeModel::Sheet(book) => crate::office::xlsx::grid::standalone_html_with(
                book,
                read.file_name(),
                config.preview.sheet_page_rows,
                &media_urls,
            ),
            OfficeModel::Pdf(doc) => crate::pdf::html::standalone(doc, 1.5, 100),
        };
    }
    let mut body = String::new();
    let (text, lossy) = read.text().unwrap_or_default();
    match read.kind {
        FileKind::Markdown => {
            body.push_str("<article class=\"markdown\">");
            body.push_str(&crate::preview::markdown::render(
                &text,
                read.relative_path.parent(),
                "",
            ));
            body.push_str("</article>");
        }
        FileKind::Html | FileKind::Source | FileKind::Text => {
            if lossy {
                body.push_str("<p class=\"notice\">This file is not valid UTF-8.</p>");
            }
            let lines = if text.len() as u64 > config.limits.highlight_bytes {
                None
            } else {
                highlight_lines(&text, None, read.file_name())
            }
            .unwrap_or_else(|| plain_lines(&text));
            body.push_str("<pre class=\"code\" data-wrap=\"off\"><code>");
            for line in lines {
                let _ = write!(body, "<span class=\"line\">{line}</span>");
            }
            body.push_str("</code></pre>");
        }
        FileKind::Image => {
            let bytes = read.bytes.as_deref().unwrap_or_default();
            let info = inspect(bytes, read.file_name());
            let _ = write!(
                body,
                "<figure class=\"image\"><img src=\"{}\" alt=\"{}\"></figure>",
                data_url(info.mime, bytes),
                escape(read.file_name())
            );
        }
        _ => {
            let _ = write!(
                body,
                "<dl class=\"info\"><dt>Kind</dt><dd>{}</dd><dt>Size</dt><dd>{}</dd><dt>SHA-256</dt><dd>{}</dd></dl>",
                read.kind.label(),
                human_size(read.size),
                read.sha256.as_deref().unwrap_or("")
            );
        }
    }
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{name}</title><style>{base}\n{shell}\n{hl}</style></head><body><header class=\"bar\"><div class=\"file\"><h1 class=\"name\">{name}</h1></div></header><main>{body}</main></body></html>\n",
        name = escape(read.file_name()),
        base = include_str!("../static/base.css"),
        shell = include_str!("../viewers/shell/shell.css"),
        hl = crate::highlight::stylesheet(),
    )
}

fn data_url(mime: &str, bytes: &[u8]) -> String {
    use base64::Engine;
    format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// Appended to a diff page's title when an input was decoded lossily.
pub const NOT_UTF8_TITLE_MARK: &str = " (not valid UTF-8)";

/// What `previewd diff` compares.
#[derive(Debug, Clone)]
pub enum DiffSource {
    /// Two texts and the display path.
    Texts {
        /// The old text.
        before: String,
        /// The new text.
        after: String,
        /// Display file name.
        path: Option<String>,
        /// Whether a file was not UTF-8 and was decoded with U+FFFD replacements.
        not_utf8: bool,
    },
    /// A unified patch.
    Patch {
        /// The patch text.
        patch: String,
        /// Whether the file was not UTF-8 and was decoded with U+FFFD replacements.
        not_utf8: bool,
    },
}

/// Validates the source through the `diffs` contract (same limits, same messages) and
/// builds its model.
fn diff_model(source: DiffSource, config: &Config) -> Result<(DiffRequest, DiffModel), Error> {
    let (body, not_utf8) = match source {
        DiffSource::Texts {
            before,
            after,
            path,
            not_utf8,
        } => {
            let mut v = serde_json::json!({"before": before, "after": after});
            if let Some(path) = path {
                v["path"] = serde_json::Value::String(path);
            }
            (v, not_utf8)
        }
        DiffSource::Patch { patch, not_utf8 } => (serde_json::json!({ "patch": patch }), not_utf8),
    };
    let invalid = |e: crate::diff::DiffInputError| Error::InvalidRequest(e.message().to_string());
    let mut request = DiffRequest::from_json(&body, &config.diffs.defaults).map_err(invalid)?;
    if not_utf8 {
        // The page says the replacement characters are ours, not the file's.
        request.title.push_str(NOT_UTF8_TITLE_MARK);
    }
    match build_model(&request).map_err(invalid)? {
        DiffOutcome::Changed(model) => Ok((request, model)),
        DiffOutcome::Unchanged => Err(Error::InvalidRequest(
            crate::diff::IDENTICAL_MESSAGE.to_string(),
        )),
    }
}

/// Renders a diff to a standalone page (the static image variant) or its model as JSON.
pub fn diff(source: DiffSource, format: Format, config: &Config) -> Result<Vec<u8>, Error> {
    let (request, model) = diff_model(source, config)?;
    match format {
        Format::Json => to_json(&model),
        Format::Html => Ok(render(
            &model,
            &ViewOptions::from_request(
                &request,
                Variant::Image {
                    max_width: request.file.max_width,
                },
            ),
        )
        .into_bytes()),
    }
}

/// Renders a diff to PNG or PDF with the export's engine (`export.engine`), presets and
/// caps (the config's `diffs.defaults` choose quality, scale and width).
pub async fn diff_file(
    source: DiffSource,
    format: crate::diff::FileFormat,
    config: &Config,
) -> Result<Vec<u8>, Error> {
    let (mut request, model) = diff_model(source, config)?;
    request.file.format = format;
    let exporter = crate::export::Exporter::from_config(config);
    let result = exporter.render_diff(&request, &model).await;
    exporter.close().await;
    Ok(result?.bytes)
}

/// Projects a session's tool calls (the `POST /api/v1/activity` input) to its file
/// activity.
/// The bases of a recorded timeline, which (unlike a session document) does not name them.
#[derive(Debug, Clone, Default)]
pub struct TimelineBases {
    /// `--workspace-root`.
    pub workspace_root: Option<String>,
    /// `--cwd`.
    pub execution_cwd: Option<String>,
}

/// Projects a session document, or a recorded ACP timeline (JSON Lines or a JSON array)
/// with `bases`, to file activity JSON.
pub fn activity(input: &[u8], bases: &TimelineBases) -> Result<Vec<u8>, Error> {
    to_json(&project(input, bases)?)
}

/// What `previewd activity --changes` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangesFormat {
    /// The standalone page (the image variant of the viewer: no scripts, every row).
    Html,
    /// The Changes model as JSON.
    Json,
    /// A PNG or PDF drawn by the export engine, as `POST /api/v1/activity/changes` with
    /// `mode: "file"` draws it.
    File(crate::diff::FileFormat),
}

/// The session's Changes view (as `POST /api/v1/activity/changes` builds it, with the
/// config's diff defaults) as a page, its model, or a PNG/PDF. A session with no changes
/// is refused as a file (there is nothing to draw) and shown as a page that says so.
pub async fn changes(
    input: &[u8],
    bases: &TimelineBases,
    format: ChangesFormat,
    config: &Config,
) -> Result<Vec<u8>, Error> {
    let projection = project(input, bases)?;
    let model = crate::activity::changes::changes_model(&projection.changes);
    let mut request = DiffRequest::for_session(
        &serde_json::Map::new(),
        &[],
        "Changes",
        &config.diffs.defaults,
    )
    .map_err(|e| Error::InvalidRequest(e.message().to_string()))?;
    match format {
        ChangesFormat::Json => to_json(&model),
        ChangesFormat::Html => {
            let variant = Variant::Image {
                max_width: request.file.max_width,
            };
            let mut options = ViewOptions::from_request(&request, variant);
            options.empty_note = crate::activity::NO_CHANGES_MESSAGE.to_string();
            Ok(render(&model, &options).into_bytes())
        }
        ChangesFormat::File(file_format) => {
            if model.files.is_empty() {
                return Err(Error::InvalidRequest(
                    crate::activity::NO_CHANGES_MESSAGE.to_string(),
                ));
            }
            request.file.format = file_format;
            let exporter = crate::export::Exporter::from_config(config);
            let result = exporter.render_diff(&request, &model).await;
            exporter.close().await;
            Ok(result?.bytes)
        }
    }
}

/// Reads a session document or a timeline and projects it.
fn project(input: &[u8], bases: &TimelineBases) -> Result<crate::activity::SessionActivity, Error> {
    let input: crate::activity::SessionInput = match crate::activity::timeline::parse_entries(input)
    {
        Some(entries) => {
            let cwd = bases.execution_cwd.clone();
            let root = bases.workspace_root.clone().ok_or_else(|| {
                Error::InvalidRequest("a timeline names no workspace: pass --workspace-root".into())
            })?;
            crate::activity::SessionInput {
                execution_cwd: cwd.or_else(|| {
                    crate::activity::timeline::group(&entries)
                        .cwd
                        .or_else(|| Some(root.clone()))
                }),
                workspace_root: Some(root),
                turns: Vec::new(),
                timeline: Some(entries),
            }
        }
        None => serde_json::from_slice(input)
            .map_err(|e| Error::InvalidRequest(format!("the input is not a session: {e}")))?,
    };
    crate::activity::project_session(&input).map_err(|e| Error::InvalidReference(e.message()))
}
