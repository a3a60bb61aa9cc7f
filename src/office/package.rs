//! An Office Open XML package opened from in-memory bytes, behind the container guard.
//!
//! [`OfficePackage::open`] checks everything that can be checked without inflating: the
//! file kind (compound files and non-zips are refused with a reason), the entry count
//! (before the central directory is loaded), every entry name, duplicates (ignoring ASCII
//! case), then reads `[Content_Types].xml`. Parts are inflated lazily, only when asked
//! for, each under the per-part, ratio and package-wide caps of [`OfficeLimits`].

use std::cell::Cell;
use std::collections::HashMap;
use std::io::Cursor;

use zip::ZipArchive;

use super::archive::{declared_entry_count, inflate, inflate_stream, open_zip, EntryInfo};
use super::cfb::{is_compound_file, refuse_compound_file};
use super::content_types::ContentTypes;
use super::core_props::CoreProperties;
use super::error::{OfficeError, OfficeErrorKind, OfficeResult};
use super::image::{check_pixels, sniff_image, ImageHeader, HEADER_PREFIX_BYTES};
use super::limits::OfficeLimits;
use super::names::{check_entry_name, fold, percent_decode, rels_part_for};
use super::ns::{rel_type, Ns};
use super::relationships::Relationships;
use super::xml::{parse_xml, XmlDoc, XmlOptions};

/// The package's main part, found through the `officeDocument` relationship.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MainPart {
    /// Part name, e.g. `word/document.xml`.
    pub name: String,
    /// Its declared content type, if any.
    pub content_type: Option<String>,
}

/// One part as indexed at open time.
#[derive(Debug, Clone)]
struct PartEntry {
    name: String,
    info: EntryInfo,
}

/// An opened Office package. Reading takes `&self`: the zip reader is cloned per read
/// (it shares the parsed directory) and the package-wide budget lives in a `Cell`, so one
/// package is used from one thread at a time (it is `Send`, not `Sync`).
pub struct OfficePackage<'a> {
    archive: ZipArchive<Cursor<&'a [u8]>>,
    limits: OfficeLimits,
    /// Files by folded name; percent-decoded spellings also map to their entry.
    parts: HashMap<String, usize>,
    entries: Vec<PartEntry>,
    content_types: ContentTypes,
    inflated: Cell<u64>,
}

impl std::fmt::Debug for OfficePackage<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OfficePackage")
            .field("parts", &self.entries.len())
            .field("inflated", &self.inflated.get())
            .finish()
    }
}

impl<'a> OfficePackage<'a> {
    /// Opens a package from the bytes of a file, enforcing the guards that need no
    /// inflation, and reads its content types.
    pub fn open(bytes: &'a [u8], limits: &OfficeLimits) -> OfficeResult<Self> {
        if is_compound_file(bytes) {
            return Err(refuse_compound_file(bytes));
        }
        if !bytes.starts_with(b"PK") {
            return Err(not_a_package(bytes));
        }
        if let Some(count) = declared_entry_count(bytes) {
            if count > limits.max_entries as u64 {
                return Err(too_many_entries(count, limits));
            }
        }
        let archive = open_zip(bytes)?;
        if archive.len() > limits.max_entries {
            return Err(too_many_entries(archive.len() as u64, limits));
        }
        if archive.has_duplicate_names() {
            return Err(OfficeError::new(
                OfficeErrorKind::DuplicateEntry,
                "the zip lists the same entry name twice",
            ));
        }

        let mut parts = HashMap::new();
        let mut entries = Vec::new();
        let mut seen: HashMap<String, String> = HashMap::new();
        for index in 0..archive.len() {
            let entry = archive.by_index_data(index).map_err(|e| {
                OfficeError::new(
                    OfficeErrorKind::DamagedZip,
                    format!("damaged zip central directory: {e}"),
                )
            })?;
            let name = entry.name().map_err(|_| {
                OfficeError::new(
                    OfficeErrorKind::BadEntryName,
                    "an entry name is not valid text",
                )
            })?;
            let name = name.into_owned();
            if let Err(why) = check_entry_name(&name) {
                return Err(OfficeError::new(
                    OfficeErrorKind::BadEntryName,
                    format!("unsafe entry name '{}': {why}", printable(&name)),
                ));
            }
            let folded = fold(name.trim_end_matches('/'));
            if let Some(first) = seen.insert(folded.clone(), name.clone()) {
                return Err(OfficeError::new(
                    OfficeErrorKind::DuplicateEntry,
                    format!(
                        "duplicate entry names '{}' and '{}' (part names ignore case)",
                        printable(&first),
                        printable(&name)
                    ),
                ));
            }
            if entry.is_dir() || name.ends_with('/') {
                continue;
            }
            let slot = entries.len();
            entries.push(PartEntry {
                name: name.clone(),
                info: EntryInfo {
                    index,
                    compressed: entry.compressed_size(),
                    declared: entry.size(),
                },
            });
            parts.insert(folded.clone(), slot);
            if let Some(decoded) = percent_decode(&name).map(|d| fold(&d)) {
                parts.entry(decoded).or_insert(slot);
            }
        }

        let mut package = OfficePackage {
            archive,
            limits: limits.clone(),
            parts,
            entries,
            content_types: ContentTypes::default(),
            inflated: Cell::new(0),
        };
        let has_types = package.has_part("[Content_Types].xml");
        if !has_types && !package.has_part("_rels/.rels") {
            return Err(OfficeError::new(
                OfficeErrorKind::NotAPackage,
                "not an Office Open XML package: a zip without [Content_Types].xml or _rels/.rels",
            ));
        }
        if has_types {
            let root = package.read_xml("[Content_Types].xml", &[])?;
            package.content_types = ContentTypes::from_xml(root.root());
        }
        Ok(package)
    }

    /// The limits this package enforces.
    pub fn limits(&self) -> &OfficeLimits {
        &self.limits
    }

    /// Names of all file parts, in zip order.
    pub fn part_names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.name.as_str())
    }

    /// Whether a part exists (names compare ignoring ASCII case).
    pub fn has_part(&self, part: &str) -> bool {
        self.lookup(part).is_some()
    }

    /// The part's name as stored in the zip, for a name that matches ignoring case.
    pub fn canonical_name(&self, part: &str) -> Option<&str> {
        self.lookup(part).map(|e| e.name.as_str())
    }

    /// The declared content type of a part.
    pub fn content_type(&self, part: &str) -> Option<&str> {
        self.content_types.of(part.trim_start_matches('/'))
    }

    /// Whether the package declares macros (`.docm`, `.pptm`, a VBA project). Macros are
    /// never run; this only lets a viewer say they are there.
    pub fn has_macros(&self) -> bool {
        self.content_types.declares_macros()
            || self
                .entries
                .iter()
                .any(|e| e.name.to_ascii_lowercase().ends_with("vbaproject.bin"))
    }

    /// Bytes inflated so far, counted against [`OfficeLimits::max_total_bytes`].
    pub fn inflated_bytes(&self) -> u64 {
        self.inflated.get()
    }

    /// Inflates a whole part under the caps.
    pub fn read_part(&self, part: &str) -> OfficeResult<Vec<u8>> {
        self.read(part, None)
    }

    /// Inflates at most `max_bytes` of a part (for sniffing headers); counted in the budget.
    pub fn read_part_prefix(&self, part: &str, max_bytes: u64) -> OfficeResult<Vec<u8>> {
        self.read(part, Some(max_bytes))
    }

    /// Inflates a part as a stream, under the same caps as [`Self::read_part`] (counted
    /// as it is read), for the parts that grow with the data: `read` gets its bytes.
    pub fn stream_part<T>(
        &self,
        part: &str,
        read: impl FnOnce(&mut dyn std::io::BufRead) -> OfficeResult<T>,
    ) -> OfficeResult<T> {
        let entry = self.entry(part)?;
        let used = self.inflated.get();
        let budget_left = self.limits.max_total_bytes.saturating_sub(used);
        let (out, produced) = inflate_stream(
            &self.archive,
            &entry.name,
            &entry.info,
            &self.limits,
            budget_left,
            read,
        )?;
        self.inflated.set(used.saturating_add(produced));
        Ok(out)
    }

    /// Inflates and parses an XML part. `understood` lists the namespaces whose
    /// `mc:Choice` branches the caller reads (others fall back).
    pub fn read_xml(&self, part: &str, understood: &[Ns]) -> OfficeResult<XmlDoc> {
        let bytes = self.read_part(part)?;
        let name = self.canonical_name(part).unwrap_or(part);
        parse_xml(
            name,
            &bytes,
            &XmlOptions {
                max_depth: self.limits.max_xml_depth,
                max_nodes: self.limits.max_xml_nodes,
                understood,
            },
        )
    }

    /// The relationships whose source is `source` (`""` for the package itself); empty
    /// when the part has no relationships part.
    pub fn relationships(&self, source: &str) -> OfficeResult<Relationships> {
        let source = source.trim_start_matches('/');
        let rels = rels_part_for(source);
        if !self.has_part(&rels) {
            return Ok(Relationships::default());
        }
        let root = self.read_xml(&rels, &[])?;
        Ok(Relationships::from_xml(source, root.root()))
    }

    /// The main part (`word/document.xml`, `ppt/presentation.xml` …), from the package
    /// relationships, else from a content type ending in `.main+xml`.
    pub fn main_part(&self) -> OfficeResult<MainPart> {
        let rels = self.relationships("")?;
        let from_rels = rels
            .part_of_type(rel_type::OFFICE_DOCUMENT)
            .and_then(|p| self.canonical_name(p));
        let name = match from_rels {
            Some(name) => Some(name.to_owned()),
            None => self
                .entries
                .iter()
                .find(|e| {
                    self.content_type(&e.name)
                        .is_some_and(|t| t.ends_with(".main+xml"))
                })
                .map(|e| e.name.clone()),
        };
        let name = name.ok_or_else(|| {
            OfficeError::new(
                OfficeErrorKind::MissingPart,
                "the package has no main document part",
            )
        })?;
        Ok(MainPart {
            content_type: self.content_type(&name).map(str::to_owned),
            name,
        })
    }

    /// Title, author and dates from the core-properties part; empty when there is none.
    pub fn core_properties(&self) -> OfficeResult<CoreProperties> {
        let rels = self.relationships("")?;
        let part = rels
            .part_of_type(rel_type::CORE_PROPERTIES)
            .map(str::to_owned)
            .or_else(|| {
                self.has_part("docProps/core.xml")
                    .then(|| "docProps/core.xml".to_owned())
            });
        match part {
            Some(p) if self.has_part(&p) => {
                Ok(CoreProperties::from_xml(self.read_xml(&p, &[])?.root()))
            }
            _ => Ok(CoreProperties::default()),
        }
    }

    /// Sniffs an image part's header (a bounded prefix is inflated) and refuses it when it
    /// declares more pixels than [`OfficeLimits::max_image_pixels`]. `Ok(None)` when the
    /// format is not recognised.
    pub fn image_header(&self, part: &str) -> OfficeResult<Option<ImageHeader>> {
        let head = self.read_part_prefix(part, HEADER_PREFIX_BYTES)?;
        let Some(header) = sniff_image(&head) else {
            return Ok(None);
        };
        check_pixels(
            self.canonical_name(part).unwrap_or(part),
            &header,
            self.limits.max_image_pixels,
        )?;
        Ok(Some(header))
    }

    fn lookup(&self, part: &str) -> Option<&PartEntry> {
        let folded = fold(part.trim_start_matches('/'));
        self.parts.get(&folded).and_then(|&i| self.entries.get(i))
    }

    fn entry(&self, part: &str) -> OfficeResult<&PartEntry> {
        self.lookup(part).ok_or_else(|| {
            OfficeError::new(
                OfficeErrorKind::MissingPart,
                format!("part {} is missing", printable(part)),
            )
        })
    }

    fn read(&self, part: &str, prefix: Option<u64>) -> OfficeResult<Vec<u8>> {
        let entry = self.entry(part)?;
        let used = self.inflated.get();
        let budget_left = self.limits.max_total_bytes.saturating_sub(used);
        let bytes = inflate(
            &self.archive,
            &entry.name,
            &entry.info,
            &self.limits,
            budget_left,
            prefix,
        )?;
        self.inflated.set(used.saturating_add(bytes.len() as u64));
        Ok(bytes)
    }
}

fn too_many_entries(count: u64, limits: &OfficeLimits) -> OfficeError {
    OfficeError::new(
        OfficeErrorKind::TooManyEntries,
        format!(
            "the zip lists {count} entries, over the limit of {}",
            limits.max_entries
        ),
    )
}

/// The refusal for bytes that are not a zip, naming the format when it is obvious.
fn not_a_package(bytes: &[u8]) -> OfficeError {
    let head = &bytes[..bytes.len().min(64)];
    let what = if head.starts_with(b"{\\rtf") {
        " (it is an RTF document)"
    } else if head.starts_with(b"%PDF") {
        " (it is a PDF)"
    } else if String::from_utf8_lossy(head).trim_start().starts_with('<') {
        " (it is an XML or HTML text file)"
    } else {
        ""
    };
    OfficeError::new(
        OfficeErrorKind::NotAPackage,
        format!("not an Office Open XML package: not a zip archive{what}"),
    )
}

/// A name made safe to quote in a reason: control characters escaped, length capped.
fn printable(name: &str) -> String {
    let mut out: String = name
        .chars()
        .take(120)
        .flat_map(char::escape_default)
        .collect();
    if name.chars().count() > 120 {
        out.push('…');
    }
    out
}
