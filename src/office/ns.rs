//! Namespaces and relationship types, with strict OOXML folded onto transitional.
//!
//! ISO 29500 "strict" documents use `http://purl.oclc.org/ooxml/...` URIs where
//! transitional documents use `http://schemas.openxmlformats.org/...`. Both name the same
//! vocabulary, so the XML reader maps either URI to one [`Ns`] value and relationship types
//! are rewritten to their transitional spelling; parsers never see the difference.

/// A namespace the Office parsers care about. Unknown namespaces are [`Ns::Other`];
/// unprefixed names without a default namespace are [`Ns::None`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Ns {
    /// No namespace.
    None,
    /// A namespace not listed here.
    Other,
    /// `xml:` (for `xml:space`).
    Xml,
    /// WordprocessingML main (`w:`).
    W,
    /// Office document relationships in markup (`r:id`, `r:embed`).
    R,
    /// DrawingML main (`a:`).
    A,
    /// DrawingML picture (`pic:`).
    Pic,
    /// DrawingML WordprocessingML drawing (`wp:`).
    Wp,
    /// DrawingML chart (`c:`).
    C,
    /// DrawingML diagram (`dgm:`).
    Dgm,
    /// PresentationML main (`p:`).
    P,
    /// SpreadsheetML main (`x:`, usually the default namespace).
    Sml,
    /// DrawingML spreadsheet drawing (`xdr:`).
    Xdr,
    /// Office math (`m:`).
    M,
    /// Markup compatibility (`mc:`).
    Mc,
    /// Word 2010 shapes (`wps:`).
    Wps,
    /// Word 2010 groups (`wpg:`).
    Wpg,
    /// Word 2010 canvases (`wpc:`).
    Wpc,
    /// Word 2010 drawing extensions (`wp14:`).
    Wp14,
    /// Word 2010 markup (`w14:`).
    W14,
    /// VML (`v:`).
    V,
    /// VML Office extensions (`o:`).
    O,
    /// VML Word extensions (`w10:`).
    W10,
    /// Package relationships (`.rels` parts).
    PackageRels,
    /// `[Content_Types].xml`.
    ContentTypes,
    /// Core properties (`cp:`).
    CoreProps,
    /// Dublin Core elements (`dc:`).
    Dc,
    /// Dublin Core terms (`dcterms:`).
    DcTerms,
    /// Extended (application) properties.
    ExtendedProps,
}

impl Ns {
    /// Maps a namespace URI to its [`Ns`], folding strict URIs onto transitional ones.
    pub fn from_uri(uri: &str) -> Ns {
        const T: &str = "http://schemas.openxmlformats.org/";
        const S: &str = "http://purl.oclc.org/ooxml/";
        if let Some(rest) = uri.strip_prefix(T) {
            return match rest {
                "wordprocessingml/2006/main" => Ns::W,
                "officeDocument/2006/relationships" => Ns::R,
                "drawingml/2006/main" => Ns::A,
                "drawingml/2006/picture" => Ns::Pic,
                "drawingml/2006/wordprocessingDrawing" => Ns::Wp,
                "drawingml/2006/chart" => Ns::C,
                "drawingml/2006/diagram" => Ns::Dgm,
                "presentationml/2006/main" => Ns::P,
                "spreadsheetml/2006/main" => Ns::Sml,
                "drawingml/2006/spreadsheetDrawing" => Ns::Xdr,
                "officeDocument/2006/math" => Ns::M,
                "markup-compatibility/2006" => Ns::Mc,
                "package/2006/relationships" => Ns::PackageRels,
                "package/2006/content-types" => Ns::ContentTypes,
                "package/2006/metadata/core-properties" => Ns::CoreProps,
                "officeDocument/2006/extended-properties" => Ns::ExtendedProps,
                _ => Ns::Other,
            };
        }
        if let Some(rest) = uri.strip_prefix(S) {
            return match rest {
                "wordprocessingml/main" => Ns::W,
                "officeDocument/relationships" => Ns::R,
                "drawingml/main" => Ns::A,
                "drawingml/picture" => Ns::Pic,
                "drawingml/wordprocessingDrawing" => Ns::Wp,
                "drawingml/chart" => Ns::C,
                "drawingml/diagram" => Ns::Dgm,
                "presentationml/main" => Ns::P,
                "spreadsheetml/main" => Ns::Sml,
                "drawingml/spreadsheetDrawing" => Ns::Xdr,
                "officeDocument/math" => Ns::M,
                "officeDocument/extendedProperties" => Ns::ExtendedProps,
                _ => Ns::Other,
            };
        }
        match uri {
            "http://www.w3.org/XML/1998/namespace" => Ns::Xml,
            "http://schemas.microsoft.com/office/word/2010/wordprocessingShape" => Ns::Wps,
            "http://schemas.microsoft.com/office/word/2010/wordprocessingGroup" => Ns::Wpg,
            "http://schemas.microsoft.com/office/word/2010/wordprocessingCanvas" => Ns::Wpc,
            "http://schemas.microsoft.com/office/word/2010/wordprocessingDrawing" => Ns::Wp14,
            "http://schemas.microsoft.com/office/word/2010/wordml" => Ns::W14,
            "urn:schemas-microsoft-com:vml" => Ns::V,
            "urn:schemas-microsoft-com:office:office" => Ns::O,
            "urn:schemas-microsoft-com:office:word" => Ns::W10,
            "http://purl.org/dc/elements/1.1/" => Ns::Dc,
            "http://purl.org/dc/terms/" => Ns::DcTerms,
            _ => Ns::Other,
        }
    }
}

/// Relationship type URIs in their transitional spelling.
pub mod rel_type {
    /// Prefix shared by the office-document relationship types.
    pub const PREFIX: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/";
    /// The main document part.
    pub const OFFICE_DOCUMENT: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument";
    /// Core properties (title, author).
    pub const CORE_PROPERTIES: &str =
        "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties";
    /// Styles.
    pub const STYLES: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles";
    /// Numbering definitions.
    pub const NUMBERING: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering";
    /// Footnotes.
    pub const FOOTNOTES: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes";
    /// Endnotes.
    pub const ENDNOTES: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/endnotes";
    /// Comments.
    pub const COMMENTS: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments";
    /// Headers.
    pub const HEADER: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/header";
    /// Footers.
    pub const FOOTER: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer";
    /// Images.
    pub const IMAGE: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/image";
    /// Hyperlinks.
    pub const HYPERLINK: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink";
    /// Themes.
    pub const THEME: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/theme";
    /// A theme override (a chart's own colour scheme, `a:themeOverride`).
    pub const THEME_OVERRIDE: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/themeOverride";
    /// Settings.
    pub const SETTINGS: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/settings";
    /// Alternative-format chunks (embedded HTML, RTF …), never passed through.
    pub const AF_CHUNK: &str =
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/aFChunk";
}

/// Rewrites a strict relationship type URI to its transitional spelling; others unchanged.
pub fn normalize_rel_type(uri: &str) -> String {
    const STRICT_DOC: &str = "http://purl.oclc.org/ooxml/officeDocument/relationships/";
    const STRICT_PKG: &str = "http://purl.oclc.org/ooxml/package/relationships/";
    if let Some(rest) = uri.strip_prefix(STRICT_DOC) {
        // Strict spells a few types differently from transitional.
        let rest = match rest {
            "extendedProperties" => "extended-properties",
            "customProperties" => "custom-properties",
            other => other,
        };
        return format!("{}{rest}", rel_type::PREFIX);
    }
    if let Some(rest) = uri.strip_prefix(STRICT_PKG) {
        return format!("http://schemas.openxmlformats.org/package/2006/relationships/{rest}");
    }
    uri.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_and_transitional_fold_together() {
        assert_eq!(
            Ns::from_uri("http://purl.oclc.org/ooxml/wordprocessingml/main"),
            Ns::W
        );
        assert_eq!(
            Ns::from_uri("http://schemas.openxmlformats.org/wordprocessingml/2006/main"),
            Ns::W
        );
        assert_eq!(Ns::from_uri("urn:example"), Ns::Other);
        assert_eq!(
            normalize_rel_type(
                "http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument"
            ),
            rel_type::OFFICE_DOCUMENT
        );
        assert_eq!(
            normalize_rel_type("http://purl.oclc.org/ooxml/officeDocument/relationships/styles"),
            rel_type::STYLES
        );
        assert_eq!(normalize_rel_type(rel_type::IMAGE), rel_type::IMAGE);
    }
}
