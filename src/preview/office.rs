//! Office files in a snapshot: parsed once when the snapshot is made (a file that cannot be
//! parsed is refused with `corrupt` up front), then rendered and served from the model.

use std::sync::Arc;

use crate::error::Error;
use crate::office::docx::{self, model::Document};
use crate::office::pptx::{self, model::Presentation};
use crate::office::xlsx::{self, model::Workbook};
use crate::office::{OfficeError, OfficeLimits, OfficePackage};
use crate::workspace::{FileKind, ScopedRead};

/// The parsed model of an Office file.
#[derive(Debug, Clone)]
pub enum OfficeModel {
    /// A Word document.
    Docx(Arc<Document>),
    /// A PowerPoint deck.
    Pptx(Arc<Presentation>),
    /// An Excel workbook or a CSV table.
    Sheet(Arc<Workbook>),
    /// A PDF document, opened once (its pages are rendered on request).
    Pdf(Arc<crate::pdf::PdfDocument>),
}

impl OfficeModel {
    /// The model as JSON (the `model.json` view).
    pub fn to_json(&self) -> Result<Vec<u8>, Error> {
        let result = match self {
            OfficeModel::Docx(doc) => serde_json::to_vec(doc.as_ref()),
            OfficeModel::Pptx(deck) => serde_json::to_vec(deck.as_ref()),
            OfficeModel::Sheet(book) => xlsx::grid::model_json(book),
            OfficeModel::Pdf(doc) => serde_json::to_vec(&doc.model),
        };
        result.map_err(|e| {
            tracing::error!(error = %e, "cannot serialize an Office model");
            Error::Internal
        })
    }

    /// Whether `part` is a media part the model shows (only those are served).
    pub fn shows_media(&self, part: &str) -> bool {
        match self {
            OfficeModel::Docx(doc) => doc.media.iter().any(|m| m.part == part && m.displayable),
            OfficeModel::Pptx(deck) => deck.shows_media(part),
            OfficeModel::Sheet(book) => book.pictures().contains(&part),
            OfficeModel::Pdf(_) => false,
        }
    }
}

/// Maps a refusal of the Office layer to the service's error (the reason is safe to show:
/// it names limits and parts, never host paths).
pub fn office_error(e: OfficeError) -> Error {
    match e.code() {
        "unsupported" => Error::Unsupported(e.reason().to_string()),
        "sheet_too_large" => Error::SheetTooLarge(e.reason().to_string()),
        "encrypted" => Error::Encrypted(e.reason().to_string()),
        _ => Error::Corrupt(e.reason().to_string()),
    }
}

/// Parses the snapshot's bytes when the kind is an Office kind previewd renders.
pub fn parse(read: &ScopedRead, limits: &OfficeLimits) -> Result<Option<OfficeModel>, Error> {
    parse_with(read, limits, &crate::pdf::PdfLimits::default())
}

/// [`parse`], with the PDF stage's limits; a PDF is opened (pre-scanned, parsed and its
/// model read) here, so one that cannot be shown is refused up front.
pub fn parse_with(
    read: &ScopedRead,
    limits: &OfficeLimits,
    pdf_limits: &crate::pdf::PdfLimits,
) -> Result<Option<OfficeModel>, Error> {
    if read.kind == FileKind::Pdf {
        let Some(bytes) = read.bytes.clone() else {
            return Ok(None);
        };
        return crate::pdf::PdfDocument::open(bytes, pdf_limits)
            .map(|doc| Some(OfficeModel::Pdf(Arc::new(doc))))
            .map_err(pdf_error);
    }
    let Some(bytes) = read.bytes.as_deref() else {
        return Ok(None);
    };
    match read.kind {
        FileKind::Docx => docx::parse_docx(bytes, limits)
            .map(|doc| Some(OfficeModel::Docx(Arc::new(doc))))
            .map_err(office_error),
        FileKind::Pptx => pptx::parse_pptx(bytes, limits)
            .map(|deck| Some(OfficeModel::Pptx(Arc::new(deck))))
            .map_err(office_error),
        FileKind::Xlsx => xlsx::parse_xlsx(bytes, limits)
            .map(|book| Some(OfficeModel::Sheet(Arc::new(book))))
            .map_err(office_error),
        FileKind::Csv => Ok(Some(OfficeModel::Sheet(Arc::new(crate::csv::parse_csv(
            bytes,
            read.file_name(),
            limits,
        ))))),
        _ => Ok(None),
    }
}

/// Maps a refusal of the PDF stage to the service's error.
pub fn pdf_error(e: crate::pdf::PdfError) -> Error {
    match e {
        crate::pdf::PdfError::Encrypted(reason) => Error::Encrypted(reason),
        crate::pdf::PdfError::Corrupt(reason) => Error::Corrupt(reason),
        crate::pdf::PdfError::Timeout(ms) => Error::Timeout(ms),
        crate::pdf::PdfError::NoSuchPage(_) => Error::not_found(e.to_string()),
        crate::pdf::PdfError::Internal => Error::Internal,
    }
}

/// The model's displayable media parts, for embedding as `data:` URLs.
pub fn media_parts(model: &OfficeModel) -> Vec<String> {
    match model {
        OfficeModel::Docx(doc) => doc
            .media
            .iter()
            .filter(|m| m.displayable)
            .map(|m| m.part.clone())
            .collect(),
        OfficeModel::Pptx(deck) => deck
            .media
            .iter()
            .filter(|m| m.displayable)
            .map(|m| m.part.clone())
            .collect(),
        OfficeModel::Sheet(book) => book.pictures().into_iter().map(str::to_owned).collect(),
        OfficeModel::Pdf(_) => Vec::new(),
    }
}

/// A media part's name, bytes and MIME type.
pub type MediaFile = (String, Vec<u8>, &'static str);

/// Reads every displayable media part of the model from one opened package (for embedding
/// them in a standalone page); parts that cannot be read are left out and show as
/// placeholders.
pub fn all_media(
    bytes: &[u8],
    model: &OfficeModel,
    limits: &OfficeLimits,
) -> Result<Vec<MediaFile>, Error> {
    let package = OfficePackage::open(bytes, limits).map_err(office_error)?;
    Ok(media_parts(model)
        .into_iter()
        .filter_map(|part| {
            let data = web_bytes(package.read_part(&part).ok()?);
            let mime = crate::office::image::sniff_image(&data)
                .map(|h| h.format.mime())
                .unwrap_or("application/octet-stream");
            Some((part, data, mime))
        })
        .collect())
}

/// Reads one media part the model shows, with its MIME type.
pub fn media(
    bytes: &[u8],
    model: &OfficeModel,
    part: &str,
    limits: &OfficeLimits,
) -> Result<(Vec<u8>, &'static str), Error> {
    if !model.shows_media(part) {
        return Err(Error::not_found("no such media part"));
    }
    let data = media_part(bytes, part, limits)?;
    let mime = crate::office::image::sniff_image(&data)
        .map(|h| h.format.mime())
        .unwrap_or("application/octet-stream");
    Ok((data, mime))
}

/// The bytes of media `part` of the package `bytes`, as a browser takes them; the caller
/// has checked that the model shows it.
pub fn media_part(bytes: &[u8], part: &str, limits: &OfficeLimits) -> Result<Vec<u8>, Error> {
    let package = OfficePackage::open(bytes, limits).map_err(office_error)?;
    Ok(web_bytes(package.read_part(part).map_err(office_error)?))
}

/// A media part's bytes as a browser takes them: EMF and WMF pictures converted to SVG
/// (the model only lists them as displayable when they convert).
fn web_bytes(data: Vec<u8>) -> Vec<u8> {
    crate::office::metafile::web_image(&data).unwrap_or(data)
}

/// The package's fonts plus those a deck's text names outside its theme: PowerPoint keeps
/// no font table, so a run in Tahoma or Verdana is known only from the model.
fn with_model_fonts(
    mut fonts: crate::office::fonts::DocumentFonts,
    model: &OfficeModel,
) -> crate::office::fonts::DocumentFonts {
    if let OfficeModel::Pptx(deck) = model {
        for name in deck.font_names() {
            if !fonts.named.iter().any(|f| f.name == name) {
                fonts.named.push(crate::office::fonts::NamedFont {
                    name,
                    hints: Default::default(),
                });
            }
        }
    }
    fonts
}

/// The font plan of a DOCX or PPTX snapshot: stacks from its font table or embedded font
/// list, with `@font-face` rules for the machine fonts in `catalog` (served under
/// `machine_prefix`) and its embedded faces (under `embedded_prefix`). A package whose font
/// parts cannot be read gets stacks by font name only.
pub fn font_plan(
    bytes: &[u8],
    model: &OfficeModel,
    limits: &OfficeLimits,
    sources: &crate::office::fonts::FontSources<'_>,
) -> crate::office::fonts::FontPlan {
    use crate::office::fonts::{document_fonts, FontPlan};
    if !matches!(model, OfficeModel::Docx(_) | OfficeModel::Pptx(_)) {
        return FontPlan::default();
    }
    let Ok(package) = OfficePackage::open(bytes, limits) else {
        return FontPlan::new(&Default::default(), sources);
    };
    let fonts = with_model_fonts(document_fonts(&package), model);
    // Only faces that can be served are declared: a declared face whose URL fails would
    // hide the installed font of that name (PowerPoint's MicroType Express fonts).
    let urls: std::collections::HashMap<usize, String> = match sources.embedded {
        Some(prefix) => fonts
            .embedded
            .iter()
            .enumerate()
            .filter(|(_, face)| crate::office::fonts::embedded::load(&package, face).is_some())
            .map(|(i, _)| (i, format!("{prefix}{i}")))
            .collect(),
        None => Default::default(),
    };
    FontPlan::new(
        &fonts,
        &crate::office::fonts::FontSources {
            embedded: None,
            embedded_urls: &urls,
            ..*sources
        },
    )
}

/// Embedded face `index` of a DOCX or PPTX snapshot, de-obfuscated and unwrapped.
pub fn embedded_font(
    bytes: &[u8],
    model: &OfficeModel,
    index: usize,
    limits: &OfficeLimits,
) -> Result<crate::office::fonts::FontFile, Error> {
    if !matches!(model, OfficeModel::Docx(_) | OfficeModel::Pptx(_)) {
        return Err(Error::not_found("this file embeds no fonts"));
    }
    let package = OfficePackage::open(bytes, limits).map_err(office_error)?;
    let fonts = crate::office::fonts::document_fonts(&package);
    let face = fonts
        .embedded
        .get(index)
        .ok_or_else(|| Error::not_found("no such embedded font"))?;
    crate::office::fonts::embedded::load(&package, face)
        .ok_or_else(|| Error::not_found("this embedded font cannot be served"))
}

/// Largest embedded face inlined into a standalone page, and most bytes inlined in all.
const INLINE_FONT_BYTES: usize = 1 << 20;
const INLINE_FONTS_TOTAL: usize = 4 << 20;

/// The font plan of a standalone page (no server): embedded faces up to
/// [`INLINE_FONT_BYTES`] each are inlined as `data:` URLs; machine fonts are not (Carlito
/// alone is 0.6 MiB a face), so the stacks name them for the reader's own fonts, and the
/// faces of `catalog` are declared with `local()` sources for their line metrics.
pub fn standalone_font_plan(
    bytes: &[u8],
    model: &OfficeModel,
    limits: &OfficeLimits,
    catalog: Option<&crate::office::fonts::FontCatalog>,
) -> crate::office::fonts::FontPlan {
    use crate::office::fonts::{document_fonts, embedded, FontPlan, FontSources, MachineFonts};
    use base64::Engine;
    if !matches!(model, OfficeModel::Docx(_) | OfficeModel::Pptx(_)) {
        return FontPlan::default();
    }
    let Ok(package) = OfficePackage::open(bytes, limits) else {
        return FontPlan::default();
    };
    let fonts = with_model_fonts(document_fonts(&package), model);
    let mut urls = std::collections::HashMap::new();
    let mut total = 0;
    for (i, face) in fonts.embedded.iter().enumerate() {
        let Some(file) = embedded::load(&package, face) else {
            continue;
        };
        if file.data.len() > INLINE_FONT_BYTES || total + file.data.len() > INLINE_FONTS_TOTAL {
            continue;
        }
        total += file.data.len();
        let b64 = base64::engine::general_purpose::STANDARD.encode(&file.data);
        urls.insert(i, format!("data:{};base64,{b64}", file.mime));
    }
    FontPlan::new(
        &fonts,
        &FontSources {
            machine: catalog.map(|catalog| MachineFonts {
                catalog,
                url_prefix: None,
            }),
            embedded: None,
            embedded_urls: &urls,
            pptx_calibri: false,
        },
    )
}
