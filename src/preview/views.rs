//! Which views each kind of file has, in order (the first is the default).

use serde::Serialize;

use crate::workspace::FileKind;

/// One way of showing a snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum View {
    /// The rendered page (HTML in a sandbox, Markdown sanitized).
    Preview,
    /// Escaped text with line numbers and highlighting.
    Source,
    /// An image with its dimensions.
    Image,
    /// An Office document rendered from its model.
    Document,
    /// A deck of slides rendered from its model.
    Slides,
    /// A workbook or CSV table in the grid viewer.
    Sheet,
    /// The pages of a PDF, rasterized on the server, with a text layer.
    Pages,
    /// Metadata only.
    Info,
}

impl View {
    /// The URL segment and JSON name.
    pub fn name(self) -> &'static str {
        match self {
            View::Preview => "preview",
            View::Source => "source",
            View::Image => "image",
            View::Document => "document",
            View::Slides => "slides",
            View::Sheet => "sheet",
            View::Pages => "pages",
            View::Info => "info",
        }
    }

    /// The label on the switcher.
    pub fn label(self) -> &'static str {
        match self {
            View::Preview => "Preview",
            View::Source => "Source",
            View::Image => "Image",
            View::Document => "Document",
            View::Slides => "Slides",
            View::Sheet => "Sheet",
            View::Pages => "Pages",
            View::Info => "Info",
        }
    }

    /// Parses a URL segment.
    pub fn from_name(name: &str) -> Option<View> {
        [
            View::Preview,
            View::Source,
            View::Image,
            View::Document,
            View::Slides,
            View::Sheet,
            View::Pages,
            View::Info,
        ]
        .into_iter()
        .find(|v| v.name() == name)
    }
}

/// The views of a kind, default first.
pub fn views_for(kind: FileKind) -> &'static [View] {
    match kind {
        FileKind::Html | FileKind::Markdown => &[View::Preview, View::Source],
        FileKind::Source | FileKind::Text => &[View::Source],
        FileKind::Image => &[View::Image],
        FileKind::Docx => &[View::Document, View::Info],
        FileKind::Pptx => &[View::Slides, View::Info],
        FileKind::Xlsx => &[View::Sheet, View::Info],
        FileKind::Csv => &[View::Sheet, View::Source],
        FileKind::Pdf => &[View::Pages, View::Info],
        FileKind::Binary | FileKind::Other => &[View::Info],
    }
}
