//! A streaming reader for the two parts that grow with the data: worksheets and the
//! shared-string table. A million-row sheet would need tens of millions of tree nodes,
//! far past the tree's node cap, so these parts are read event by event instead, under
//! the same guards as the tree: no DTD, the depth limit, the part's inflation caps
//! (applied when it was inflated), and only the predefined entities.
//!
//! Elements are matched by local name: both parts hold SpreadsheetML only, whatever
//! prefix a producer chose for it.

use std::borrow::Cow;
use std::io::BufRead;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use crate::office::xml::{decode_references, decode_to_utf8, predefined_entity};
use crate::office::{OfficeError, OfficeErrorKind, OfficeResult};

/// One event of a part.
pub enum Ev<'a, 'b> {
    /// An element opens (`empty` when it also closes at once).
    Open(&'b Start<'a>, bool),
    /// An element closes.
    Close(&'b [u8]),
    /// Text (character data, with references resolved).
    Text(&'b str),
}

/// An opening tag with attribute lookup by local name.
pub struct Start<'a> {
    tag: BytesStart<'a>,
}

impl Start<'_> {
    /// The local name.
    pub fn name(&self) -> &[u8] {
        self.tag.local_name().into_inner().as_bytes()
    }

    /// The value of the attribute whose local name is `name`.
    pub fn attr(&self, name: &str) -> Option<Cow<'_, str>> {
        for a in self.tag.attributes().with_checks(false).flatten() {
            if a.key.local_name().into_inner() == name {
                let raw: &str = a.value.as_ref();
                return Some(match decode_references(raw) {
                    Cow::Borrowed(_) => Cow::Owned(raw.to_owned()),
                    Cow::Owned(s) => Cow::Owned(s),
                });
            }
        }
        None
    }

    /// Every attribute as (local name, value), for colour lookups.
    pub fn attrs(&self) -> Vec<(String, String)> {
        self.tag
            .attributes()
            .with_checks(false)
            .flatten()
            .map(|a| {
                let k: &str = a.key.local_name().into_inner();
                let v: &str = a.value.as_ref();
                (k.to_owned(), decode_references(v).into_owned())
            })
            .collect()
    }
}

/// Reads `bytes` (the inflated part `part`) and hands every event to `on`, which may stop
/// early by returning `Ok(false)`.
pub fn read(
    part: &str,
    bytes: &[u8],
    max_depth: usize,
    mut on: impl FnMut(Ev<'_, '_>) -> OfficeResult<bool>,
) -> OfficeResult<()> {
    let text = decode_to_utf8(bytes);
    let mut reader = Reader::from_str(&text);
    reader.config_mut().check_end_names = true;
    let mut walk = Walk::new(part, max_depth);
    loop {
        let event = reader.read_event().map_err(|e| walk.malformed(&e))?;
        if !walk.step(event, &mut on)? {
            return Ok(());
        }
    }
}

/// Like [`read`], from a part inflated as it is read (UTF-8, with or without a byte order
/// mark: the XML reader decodes nothing else), so the part is never whole in memory.
pub fn read_from(
    part: &str,
    source: &mut dyn BufRead,
    max_depth: usize,
    mut on: impl FnMut(Ev<'_, '_>) -> OfficeResult<bool>,
) -> OfficeResult<()> {
    let mut reader = Reader::from_reader(source);
    reader.config_mut().check_end_names = true;
    let mut walk = Walk::new(part, max_depth);
    let mut buf = Vec::with_capacity(1024);
    loop {
        buf.clear();
        let event = reader
            .read_event_into(&mut buf)
            .map_err(|e| walk.malformed(&e))?;
        if !walk.step(event, &mut on)? {
            return Ok(());
        }
    }
}

/// Whether a part's first bytes say it is UTF-16 (which [`read_from`] cannot decode).
pub fn is_utf16(head: &[u8]) -> bool {
    head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF])
}

/// The guards applied to each event, whatever the events are read from.
struct Walk<'p> {
    part: &'p str,
    max_depth: usize,
    depth: usize,
}

impl<'p> Walk<'p> {
    fn new(part: &'p str, max_depth: usize) -> Self {
        Walk {
            part,
            max_depth,
            depth: 0,
        }
    }

    fn malformed(&self, e: &dyn std::fmt::Display) -> OfficeError {
        OfficeError::new(
            OfficeErrorKind::MalformedXml,
            format!("malformed XML in part {}: {e}", self.part),
        )
    }

    /// Checks one event and hands it on; `Ok(false)` at the end or when `on` stops.
    fn step(
        &mut self,
        event: Event<'_>,
        on: &mut impl FnMut(Ev<'_, '_>) -> OfficeResult<bool>,
    ) -> OfficeResult<bool> {
        let part = self.part;
        let mut buf = [0u8; 4];
        Ok(match event {
            Event::Start(_) | Event::Empty(_) if self.depth >= self.max_depth => {
                return Err(OfficeError::new(
                    OfficeErrorKind::XmlTooDeep,
                    format!(
                        "XML in part {part} is nested deeper than the limit of {} levels",
                        self.max_depth
                    ),
                ));
            }
            Event::Start(tag) => {
                self.depth += 1;
                on(Ev::Open(&Start { tag }, false))?
            }
            Event::Empty(tag) => on(Ev::Open(&Start { tag }, true))?,
            Event::End(end) => {
                self.depth = self.depth.saturating_sub(1);
                on(Ev::Close(end.local_name().into_inner().as_bytes()))?
            }
            Event::Text(t) => on(Ev::Text(&t.xml10_content()))?,
            Event::CData(t) => on(Ev::Text(&t.xml10_content()))?,
            Event::GeneralRef(r) => {
                let resolved: &str = match r.resolve_char_ref() {
                    Ok(Some(c)) => c.encode_utf8(&mut buf),
                    Ok(None) => predefined_entity(&r).unwrap_or(""),
                    Err(_) => "",
                };
                resolved.is_empty() || on(Ev::Text(resolved))?
            }
            Event::DocType(_) => {
                return Err(OfficeError::new(
                    OfficeErrorKind::XmlDtd,
                    format!("part {part} contains a DOCTYPE declaration (DTDs are not allowed)"),
                ))
            }
            Event::Eof => false,
            Event::Comment(_) | Event::Decl(_) | Event::PI(_) => true,
        })
    }
}
