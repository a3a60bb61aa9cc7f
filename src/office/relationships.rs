//! Relationships (`_rels/*.rels`): how parts point at parts and at the outside world.
//!
//! Internal targets are resolved against the source part and normalised to part names;
//! a target that would leave the package becomes [`RelTarget::Invalid`]. External targets
//! (`TargetMode="External"`) are kept as text only: nothing here, or downstream, fetches
//! them. Relationship types are stored in their transitional spelling.

use serde::Serialize;

use super::names::resolve_target;
use super::ns::{normalize_rel_type, Ns};
use super::xml::Element;

/// Where a relationship points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind", content = "target")]
pub enum RelTarget {
    /// A part of this package (part name without leading slash; it may not exist).
    Part(String),
    /// An external URI as written; never fetched.
    External(String),
    /// An internal target that cannot be a part of this package (climbs out, has a
    /// scheme, is empty); kept as written for placeholders.
    Invalid(String),
}

/// One relationship of a source part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relationship {
    /// The `Id` markup refers to (`r:id`, `r:embed`).
    pub id: String,
    /// The relationship type URI, transitional spelling.
    pub rel_type: String,
    /// The resolved target.
    pub target: RelTarget,
}

/// All relationships of one source part.
#[derive(Debug, Clone, Default)]
pub struct Relationships {
    items: Vec<Relationship>,
}

impl Relationships {
    /// Reads a parsed `.rels` part whose relationships belong to `source` ("" for the package).
    pub fn from_xml(source: &str, root: Element<'_>) -> Self {
        let items = root
            .elements()
            .filter(|el| el.is(Ns::PackageRels, "Relationship"))
            .filter_map(|el| {
                let id = el.attr(Ns::None, "Id")?.trim().to_owned();
                let rel_type = normalize_rel_type(el.attr(Ns::None, "Type")?.trim());
                let raw = el.attr(Ns::None, "Target").unwrap_or("").trim();
                let external = el
                    .attr(Ns::None, "TargetMode")
                    .is_some_and(|m| m.eq_ignore_ascii_case("External"));
                let target = if external {
                    RelTarget::External(raw.to_owned())
                } else {
                    match resolve_target(source, raw) {
                        Some(part) => RelTarget::Part(part),
                        None => RelTarget::Invalid(raw.to_owned()),
                    }
                };
                Some(Relationship {
                    id,
                    rel_type,
                    target,
                })
            })
            .collect();
        Relationships { items }
    }

    /// The relationship with `id`.
    pub fn get(&self, id: &str) -> Option<&Relationship> {
        self.items.iter().find(|r| r.id == id)
    }

    /// The first relationship of type `rel_type` (transitional spelling).
    pub fn first_of_type(&self, rel_type: &str) -> Option<&Relationship> {
        self.items.iter().find(|r| r.rel_type == rel_type)
    }

    /// The part targeted by the first internal relationship of type `rel_type`.
    pub fn part_of_type(&self, rel_type: &str) -> Option<&str> {
        self.items
            .iter()
            .filter(|r| r.rel_type == rel_type)
            .find_map(|r| match &r.target {
                RelTarget::Part(p) => Some(p.as_str()),
                _ => None,
            })
    }

    /// All relationships in document order.
    pub fn iter(&self) -> impl Iterator<Item = &Relationship> {
        self.items.iter()
    }

    /// Number of relationships.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}
