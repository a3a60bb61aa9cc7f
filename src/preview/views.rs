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
            View::Info => "info",
        }
    }

    /// The label on the switcher.
    pub fn label(self) -> &'static str {
        match self {
            View::Preview => "Preview",
            View::Source => "Source",
            View::Image => "Image",
            View::Info => "Info",
        }
    }

    /// Parses a URL segment.
    pub fn from_name(name: &str) -> Option<View> {
        [View::Preview, View::Source, View::Image, View::Info]
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
        // The Document and Slides viewers are separate work; until they land these kinds
        // get the honest metadata card rather than a half-made rendering.
        FileKind::Docx | FileKind::Pptx | FileKind::Binary | FileKind::Other => &[View::Info],
    }
}
