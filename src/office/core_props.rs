//! Core properties (`docProps/core.xml`): title, author and dates shown in a viewer header.

use serde::Serialize;

use super::ns::Ns;
use super::xml::Element;

/// The document metadata a viewer shows. Empty values are `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CoreProperties {
    /// `dc:title`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// `dc:subject`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// `dc:creator`, the author.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creator: Option<String>,
    /// `cp:lastModifiedBy`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_modified_by: Option<String>,
    /// `dcterms:created`, as written (W3CDTF).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    /// `dcterms:modified`, as written (W3CDTF).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified: Option<String>,
    /// `dc:description`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `cp:keywords`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keywords: Option<String>,
}

impl CoreProperties {
    /// Reads the parsed `cp:coreProperties` root.
    pub fn from_xml(root: Element<'_>) -> Self {
        let get = |ns: Ns, name: &str| {
            root.child(ns, name)
                .map(|e| e.text().trim().to_owned())
                .filter(|s| !s.is_empty())
        };
        CoreProperties {
            title: get(Ns::Dc, "title"),
            subject: get(Ns::Dc, "subject"),
            creator: get(Ns::Dc, "creator"),
            last_modified_by: get(Ns::CoreProps, "lastModifiedBy"),
            created: get(Ns::DcTerms, "created"),
            modified: get(Ns::DcTerms, "modified"),
            description: get(Ns::Dc, "description"),
            keywords: get(Ns::CoreProps, "keywords"),
        }
    }
}
