//! `[Content_Types].xml`: the content type of each part.
//!
//! An `Override` names one part; a `Default` covers every part with an extension. Both
//! comparisons are ASCII-case-insensitive, as OPC requires.

use std::collections::HashMap;

use super::names::fold;
use super::ns::Ns;
use super::xml::Element;

/// Content type of the macro-enabled Word main document (`.docm`).
pub const DOCX_MACRO_MAIN: &str = "application/vnd.ms-word.document.macroEnabled.main+xml";
/// Content type of the macro-enabled Word template main document (`.dotm`).
pub const DOTX_MACRO_MAIN: &str = "application/vnd.ms-word.template.macroEnabledTemplate.main+xml";
/// Content type of the macro-enabled PowerPoint main part (`.pptm`).
pub const PPTX_MACRO_MAIN: &str =
    "application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml";

/// The content types declared by a package.
#[derive(Debug, Clone, Default)]
pub struct ContentTypes {
    defaults: HashMap<String, String>,
    overrides: HashMap<String, String>,
}

impl ContentTypes {
    /// Reads the declarations from the parsed `[Content_Types].xml` root.
    pub fn from_xml(root: Element<'_>) -> Self {
        let mut types = ContentTypes::default();
        for el in root.elements() {
            let content_type = el.attr(Ns::None, "ContentType").unwrap_or("").trim();
            if content_type.is_empty() {
                continue;
            }
            if el.is(Ns::ContentTypes, "Default") {
                if let Some(ext) = el.attr(Ns::None, "Extension") {
                    types
                        .defaults
                        .insert(fold(ext.trim_start_matches('.')), content_type.to_owned());
                }
            } else if el.is(Ns::ContentTypes, "Override") {
                if let Some(part) = el.attr(Ns::None, "PartName") {
                    let part = part.trim_start_matches('/');
                    types.overrides.insert(fold(part), content_type.to_owned());
                }
            }
        }
        types
    }

    /// The content type of `part` (a part name without leading slash).
    pub fn of(&self, part: &str) -> Option<&str> {
        let folded = fold(part);
        if let Some(t) = self.overrides.get(&folded) {
            return Some(t);
        }
        let file = folded.rsplit('/').next().unwrap_or(&folded);
        let ext = file.rsplit_once('.').map(|(_, e)| e)?;
        self.defaults.get(ext).map(String::as_str)
    }

    /// Whether any declared content type is a macro-enabled main part or a VBA project.
    pub fn declares_macros(&self) -> bool {
        self.overrides
            .values()
            .chain(self.defaults.values())
            .any(|t| {
                t == DOCX_MACRO_MAIN
                    || t == DOTX_MACRO_MAIN
                    || t == PPTX_MACRO_MAIN
                    || t == "application/vnd.ms-office.vbaProject"
            })
    }
}
