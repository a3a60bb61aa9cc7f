//! A small, guarded XML tree for Office parts.
//!
//! Parts are parsed with `quick-xml` into an [`XmlDoc`]: one arena of nodes and one string
//! buffer, so building a tree costs a few vector pushes per element instead of several
//! allocations. [`Element`] is a `Copy` handle into it. Names carry a resolved [`Ns`]
//! (strict and transitional folded together), so parsers match on `(namespace, local
//! name)` whatever prefixes a producer chose. While building the tree:
//!
//! - `<!DOCTYPE` is refused outright: no DTD, no entity expansion, no billion laughs;
//! - entity references resolve only to the five predefined entities and numeric character
//!   references; any other reference is dropped (it could only come from a DTD);
//! - nesting deeper than the depth limit and trees with more nodes than the node limit are
//!   refused, so memory stays proportional to what a real document needs;
//! - markup compatibility (`mc:AlternateContent`) is resolved: the first `mc:Choice` whose
//!   required namespaces the caller understands is kept, else `mc:Fallback`, and the chosen
//!   content replaces the `mc:AlternateContent` element in its parent.
//!
//! Whitespace-only text next to child elements is dropped (it is indentation); text inside
//! an element without element children (`w:t`, `a:t`) is kept exactly. Attributes in
//! namespaces no parser reads (revision ids, vendor extensions) are not stored.

use std::borrow::Cow;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use super::error::{OfficeError, OfficeErrorKind, OfficeResult};
use super::ns::Ns;

/// "No node" in the arena's links.
const NIL: u32 = u32::MAX;

/// A range of the string buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    start: u32,
    len: u32,
}

#[derive(Debug, Clone)]
struct NodeData {
    /// Namespace of an element; unused for text.
    ns: Ns,
    is_text: bool,
    /// The local name of an element, or the characters of a text node.
    name: Span,
    attrs_start: u32,
    attrs_len: u32,
    first_child: u32,
    next_sibling: u32,
    /// One past the last node of this subtree (subtrees are contiguous in the arena).
    subtree_end: u32,
}

#[derive(Debug, Clone)]
struct AttrData {
    ns: Ns,
    name: Span,
    value: Span,
}

/// A parsed XML part.
#[derive(Debug, Clone)]
pub struct XmlDoc {
    nodes: Vec<NodeData>,
    attrs: Vec<AttrData>,
    strings: String,
    root: u32,
}

impl XmlDoc {
    /// The root element.
    pub fn root(&self) -> Element<'_> {
        Element {
            doc: self,
            id: self.root,
        }
    }

    fn str(&self, span: Span) -> &str {
        let start = span.start as usize;
        self.strings
            .get(start..start + span.len as usize)
            .unwrap_or("")
    }

    fn node(&self, id: u32) -> &NodeData {
        &self.nodes[id as usize]
    }
}

/// A node of the tree, as seen from its parent.
#[derive(Debug, Clone, Copy)]
pub enum Node<'d> {
    /// A child element.
    Element(Element<'d>),
    /// Character data, with references already resolved.
    Text(&'d str),
}

/// An attribute with its resolved namespace (unprefixed attributes have [`Ns::None`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attr<'d> {
    /// Namespace of the attribute name.
    pub ns: Ns,
    /// Local name.
    pub name: &'d str,
    /// Value with references resolved.
    pub value: &'d str,
}

/// A handle to an element of an [`XmlDoc`].
#[derive(Clone, Copy)]
pub struct Element<'d> {
    doc: &'d XmlDoc,
    id: u32,
}

impl std::fmt::Debug for Element<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<{:?}:{}>", self.ns(), self.name())
    }
}

impl<'d> Element<'d> {
    fn data(self) -> &'d NodeData {
        self.doc.node(self.id)
    }

    /// Namespace of the element name.
    pub fn ns(self) -> Ns {
        self.data().ns
    }

    /// Local name (without prefix).
    pub fn name(self) -> &'d str {
        self.doc.str(self.data().name)
    }

    /// Whether this element is `ns:name`.
    pub fn is(self, ns: Ns, name: &str) -> bool {
        self.ns() == ns && self.name() == name
    }

    /// Attributes in document order (namespace declarations and attributes of unknown
    /// namespaces excluded).
    pub fn attrs(self) -> impl Iterator<Item = Attr<'d>> {
        let data = self.data();
        let doc = self.doc;
        let start = data.attrs_start as usize;
        let end = start + data.attrs_len as usize;
        doc.attrs
            .get(start..end)
            .unwrap_or(&[])
            .iter()
            .map(move |a| Attr {
                ns: a.ns,
                name: doc.str(a.name),
                value: doc.str(a.value),
            })
    }

    /// The value of attribute `ns:name`.
    pub fn attr(self, ns: Ns, name: &str) -> Option<&'d str> {
        self.attrs()
            .find(|a| a.ns == ns && a.name == name)
            .map(|a| a.value)
    }

    /// The value of the first attribute with local name `name`, whatever its namespace.
    pub fn attr_local(self, name: &str) -> Option<&'d str> {
        self.attrs().find(|a| a.name == name).map(|a| a.value)
    }

    /// Child nodes in order.
    pub fn nodes(self) -> impl Iterator<Item = Node<'d>> {
        let doc = self.doc;
        let mut next = self.data().first_child;
        std::iter::from_fn(move || {
            if next == NIL {
                return None;
            }
            let id = next;
            let data = doc.node(id);
            next = data.next_sibling;
            Some(if data.is_text {
                Node::Text(doc.str(data.name))
            } else {
                Node::Element(Element { doc, id })
            })
        })
    }

    /// Child elements in order.
    pub fn elements(self) -> impl Iterator<Item = Element<'d>> {
        self.nodes().filter_map(|n| match n {
            Node::Element(e) => Some(e),
            Node::Text(_) => None,
        })
    }

    /// The first child element `ns:name`.
    pub fn child(self, ns: Ns, name: &str) -> Option<Element<'d>> {
        self.elements().find(|e| e.is(ns, name))
    }

    /// All child elements `ns:name`.
    pub fn children_named<'n>(self, ns: Ns, name: &'n str) -> impl Iterator<Item = Element<'d>> + 'n
    where
        'd: 'n,
    {
        self.elements().filter(move |e| e.is(ns, name))
    }

    /// The concatenated direct text children (borrowed when there is one).
    pub fn text(self) -> Cow<'d, str> {
        let mut texts = self.nodes().filter_map(|n| match n {
            Node::Text(t) => Some(t),
            Node::Element(_) => None,
        });
        let Some(first) = texts.next() else {
            return Cow::Borrowed("");
        };
        match texts.next() {
            None => Cow::Borrowed(first),
            Some(second) => {
                let mut s = String::from(first);
                s.push_str(second);
                texts.for_each(|t| s.push_str(t));
                Cow::Owned(s)
            }
        }
    }

    /// All descendant elements in document order (self excluded).
    pub fn descendants(self) -> impl Iterator<Item = Element<'d>> {
        let doc = self.doc;
        let data = self.data();
        (self.id + 1..data.subtree_end.max(self.id + 1))
            .filter(move |&id| !doc.node(id).is_text)
            .map(move |id| Element { doc, id })
    }

    /// The first descendant element `ns:name`.
    pub fn find(self, ns: Ns, name: &str) -> Option<Element<'d>> {
        self.descendants().find(|e| e.is(ns, name))
    }
}

/// Limits and markup-compatibility choices for one parse.
#[derive(Debug, Clone, Copy)]
pub struct XmlOptions<'a> {
    /// Deepest nesting accepted.
    pub max_depth: usize,
    /// Most nodes (elements + text runs) accepted.
    pub max_nodes: usize,
    /// Namespaces whose `mc:Choice` content the caller can read.
    pub understood: &'a [Ns],
}

/// One open element while building: a real element, or a markup-compatibility wrapper
/// whose chosen children flow into the nearest real element below it.
enum Frame {
    Element {
        id: u32,
        last_child: u32,
        /// Text not yet stored: kept back until we know whether it is indentation.
        pending: Option<Span>,
        has_element_child: bool,
    },
    /// `mc:AlternateContent`; `chosen` once a branch was taken.
    Alternate { chosen: bool },
    /// A taken `mc:Choice`/`mc:Fallback`: transparent.
    Branch,
}

/// Builds the arena while events arrive.
struct Builder<'o> {
    doc: XmlDoc,
    stack: Vec<Frame>,
    part: &'o str,
    opts: &'o XmlOptions<'o>,
}

impl Builder<'_> {
    fn too_large(&self) -> OfficeError {
        OfficeError::new(
            OfficeErrorKind::XmlTooLarge,
            format!(
                "XML in part {} has more than the limit of {} nodes",
                self.part, self.opts.max_nodes
            ),
        )
    }

    /// Copies `s` into the string buffer.
    fn intern(&mut self, s: &str) -> OfficeResult<Span> {
        let start = u32::try_from(self.doc.strings.len()).map_err(|_| self.too_large())?;
        let len = u32::try_from(s.len()).map_err(|_| self.too_large())?;
        start.checked_add(len).ok_or_else(|| self.too_large())?;
        self.doc.strings.push_str(s);
        Ok(Span { start, len })
    }

    fn new_node(&mut self, node: NodeData) -> OfficeResult<u32> {
        if self.doc.nodes.len() >= self.opts.max_nodes {
            return Err(self.too_large());
        }
        let id = u32::try_from(self.doc.nodes.len()).map_err(|_| self.too_large())?;
        self.doc.nodes.push(node);
        Ok(id)
    }

    /// The innermost open real element's frame index.
    fn parent_frame(&self) -> Option<usize> {
        self.stack
            .iter()
            .rposition(|f| matches!(f, Frame::Element { .. }))
    }

    /// Links node `id` as the last child of frame `frame`.
    fn link(&mut self, frame: usize, id: u32) {
        if let Some(Frame::Element {
            id: parent,
            last_child,
            ..
        }) = self.stack.get_mut(frame)
        {
            if *last_child == NIL {
                self.doc.nodes[*parent as usize].first_child = id;
            } else {
                self.doc.nodes[*last_child as usize].next_sibling = id;
            }
            *last_child = id;
        }
    }

    /// Stores the pending text of frame `frame`, or drops it when it is indentation.
    fn flush_text(&mut self, frame: usize, before_element: bool) -> OfficeResult<()> {
        let Some(Frame::Element {
            pending,
            has_element_child,
            ..
        }) = self.stack.get_mut(frame)
        else {
            return Ok(());
        };
        let Some(span) = pending.take() else {
            return Ok(());
        };
        let next_to_element = before_element || *has_element_child;
        let blank = self.doc.str(span).bytes().all(|b| b.is_ascii_whitespace());
        if next_to_element && blank {
            return Ok(());
        }
        let id = self.new_node(NodeData {
            ns: Ns::None,
            is_text: true,
            name: span,
            attrs_start: 0,
            attrs_len: 0,
            first_child: NIL,
            next_sibling: NIL,
            subtree_end: 0,
        })?;
        self.doc.nodes[id as usize].subtree_end = id + 1;
        self.link(frame, id);
        Ok(())
    }

    /// Adds text to the innermost open element.
    fn text(&mut self, text: &str) -> OfficeResult<()> {
        let Some(frame) = self.parent_frame() else {
            // Text outside the root element is whitespace or junk; XML ignores it.
            return Ok(());
        };
        let end = self.doc.strings.len();
        let contiguous = matches!(
            self.stack.get(frame),
            Some(Frame::Element { pending: Some(p), .. }) if (p.start + p.len) as usize == end
        );
        if contiguous {
            let extra = self.intern(text)?;
            if let Some(Frame::Element {
                pending: Some(p), ..
            }) = self.stack.get_mut(frame)
            {
                p.len += extra.len;
            }
            return Ok(());
        }
        let existing = match self.stack.get(frame) {
            Some(Frame::Element {
                pending: Some(p), ..
            }) => Some(*p),
            _ => None,
        };
        let mut joined = existing
            .map(|p| self.doc.str(p).to_owned())
            .unwrap_or_default();
        joined.push_str(text);
        let span = self.intern(&joined)?;
        if let Some(Frame::Element { pending, .. }) = self.stack.get_mut(frame) {
            *pending = Some(span);
        }
        Ok(())
    }

    /// Starts an element: stores pending parent text and returns where its attributes
    /// begin, or `None` when the element is a stray second root (ignored).
    fn open_begin(&mut self, empty: bool) -> OfficeResult<Option<u32>> {
        match self.parent_frame() {
            Some(frame) => self.flush_text(frame, true)?,
            None if self.doc.root != NIL => {
                // A second root element: not well formed; ignore its content.
                if !empty {
                    self.stack.push(Frame::Branch);
                }
                return Ok(None);
            }
            None => {}
        }
        Ok(Some(
            u32::try_from(self.doc.attrs.len()).map_err(|_| self.too_large())?,
        ))
    }

    /// Stores one attribute of the element being opened.
    fn push_attr(&mut self, ns: Ns, name: &str, value: &str) -> OfficeResult<()> {
        let name = self.intern(name)?;
        let value = self.intern(value)?;
        self.doc.attrs.push(AttrData { ns, name, value });
        Ok(())
    }

    /// Finishes an element: stores it, links it to its parent, and pushes its frame unless
    /// it is empty.
    fn open_end(&mut self, ns: Ns, name: &str, attrs_start: u32, empty: bool) -> OfficeResult<()> {
        let parent = self.parent_frame();
        let name = self.intern(name)?;
        let attrs_len = self.doc.attrs.len() as u32 - attrs_start;
        let id = self.new_node(NodeData {
            ns,
            is_text: false,
            name,
            attrs_start,
            attrs_len,
            first_child: NIL,
            next_sibling: NIL,
            subtree_end: 0,
        })?;
        match parent {
            Some(frame) => {
                self.link(frame, id);
                if let Some(Frame::Element {
                    has_element_child, ..
                }) = self.stack.get_mut(frame)
                {
                    *has_element_child = true;
                }
            }
            None => self.doc.root = id,
        }
        if empty {
            self.doc.nodes[id as usize].subtree_end = id + 1;
        } else {
            self.stack.push(Frame::Element {
                id,
                last_child: NIL,
                pending: None,
                has_element_child: false,
            });
        }
        Ok(())
    }

    /// Closes the innermost frame.
    fn close(&mut self) -> OfficeResult<()> {
        let Some(top) = self.stack.len().checked_sub(1) else {
            return Ok(());
        };
        if let Some(Frame::Element { .. }) = self.stack.get(top) {
            self.flush_text(top, false)?;
        }
        if let Some(Frame::Element { id, .. }) = self.stack.pop() {
            let end = self.doc.nodes.len() as u32;
            self.doc.nodes[id as usize].subtree_end = end;
        }
        Ok(())
    }
}

/// Parses one part into a tree, enforcing the guards described in the module docs.
pub fn parse_xml(part: &str, bytes: &[u8], opts: &XmlOptions<'_>) -> OfficeResult<XmlDoc> {
    let text = decode_to_utf8(bytes);
    let mut reader = Reader::from_str(&text);
    let config = reader.config_mut();
    config.expand_empty_elements = false;
    config.check_end_names = true;

    let malformed = |e: &dyn std::fmt::Display| {
        OfficeError::new(
            OfficeErrorKind::MalformedXml,
            format!("malformed XML in part {part}: {e}"),
        )
    };

    let mut b = Builder {
        doc: XmlDoc {
            nodes: Vec::with_capacity(bytes.len() / 40),
            attrs: Vec::with_capacity(bytes.len() / 40),
            strings: String::with_capacity(bytes.len() / 3),
            root: NIL,
        },
        stack: Vec::new(),
        part,
        opts,
    };
    let mut depth = 0usize;
    // Depth of an ignored subtree (a branch not chosen); 0 when not skipping.
    let mut skip_until: usize = 0;
    let mut scopes = Scopes::default();

    loop {
        let event = reader.read_event().map_err(|e| malformed(&e))?;
        match event {
            Event::Start(ref start) | Event::Empty(ref start) => {
                let empty = matches!(event, Event::Empty(_));
                depth += 1;
                if depth > opts.max_depth {
                    return Err(OfficeError::new(
                        OfficeErrorKind::XmlTooDeep,
                        format!(
                            "XML in part {part} is nested deeper than the limit of {} levels",
                            opts.max_depth
                        ),
                    ));
                }
                if skip_until == 0 {
                    // A false positive (an attribute value mentioning xmlns) only costs a
                    // look at the attributes.
                    if start.attributes_raw().contains("xmlns") {
                        scopes.declare(depth, start).map_err(|e| malformed(&e))?;
                    }
                    let (ns, local) = scopes.resolve(start.name().into_inner(), true);
                    match markup_compatibility(&scopes, ns, local, start, &mut b.stack, opts) {
                        Mc::Element => {
                            let Some(attrs_start) = b.open_begin(empty)? else {
                                if empty {
                                    scopes.closed(depth);
                                    depth -= 1;
                                }
                                continue;
                            };
                            for attr in start.attributes().with_checks(false) {
                                let attr = attr.map_err(|e| malformed(&e))?;
                                let key = attr.key.into_inner();
                                if is_declaration(key) {
                                    continue;
                                }
                                let (ans, aname) = scopes.resolve(key, false);
                                // No parser reads attributes of unknown namespaces or
                                // revision-session ids; they are most of some parts.
                                if ans == Ns::Other || (ans == Ns::W && aname.starts_with("rsid")) {
                                    continue;
                                }
                                b.push_attr(ans, aname, &decode_references(&attr.value))?;
                            }
                            b.open_end(ns, local, attrs_start, empty)?;
                        }
                        Mc::Transparent(frame) => {
                            if !empty {
                                b.stack.push(frame);
                            }
                        }
                        Mc::Skip => {
                            if !empty {
                                skip_until = depth;
                            }
                        }
                    }
                }
                if empty {
                    scopes.closed(depth);
                    depth -= 1;
                }
            }
            Event::End(_) => {
                scopes.closed(depth);
                if skip_until != 0 {
                    if depth == skip_until {
                        skip_until = 0;
                    }
                } else {
                    b.close()?;
                }
                depth = depth.saturating_sub(1);
            }
            Event::Text(t) => {
                if skip_until == 0 {
                    b.text(&t.xml10_content())?;
                }
            }
            Event::CData(t) => {
                if skip_until == 0 {
                    b.text(&t.xml10_content())?;
                }
            }
            Event::GeneralRef(r) => {
                if skip_until == 0 {
                    let mut buf = [0u8; 4];
                    let resolved: &str = match r.resolve_char_ref() {
                        Ok(Some(c)) => c.encode_utf8(&mut buf),
                        Ok(None) => predefined_entity(&r).unwrap_or(""),
                        // An invalid character reference is dropped like an unknown entity.
                        Err(_) => "",
                    };
                    if !resolved.is_empty() {
                        b.text(resolved)?;
                    }
                }
            }
            Event::DocType(_) => {
                return Err(OfficeError::new(
                    OfficeErrorKind::XmlDtd,
                    format!("part {part} contains a DOCTYPE declaration (DTDs are not allowed)"),
                ));
            }
            Event::Eof => break,
            Event::Comment(_) | Event::Decl(_) | Event::PI(_) => {}
        }
    }
    if !b.stack.is_empty() {
        return Err(malformed(&"unexpected end of document"));
    }
    if b.doc.root == NIL {
        return Err(malformed(&"no root element"));
    }
    Ok(b.doc)
}

/// What an opening tag becomes.
enum Mc {
    /// A regular element.
    Element,
    /// An `mc:` wrapper whose chosen content flows into the parent.
    Transparent(Frame),
    /// A branch not taken: skip the subtree.
    Skip,
}

/// Resolves `mc:AlternateContent`, `mc:Choice` and `mc:Fallback`.
fn markup_compatibility(
    scopes: &Scopes,
    ns: Ns,
    local: &str,
    start: &BytesStart<'_>,
    stack: &mut [Frame],
    opts: &XmlOptions<'_>,
) -> Mc {
    if ns != Ns::Mc {
        return Mc::Element;
    }
    match local {
        "AlternateContent" => Mc::Transparent(Frame::Alternate { chosen: false }),
        "Choice" | "Fallback" => {
            let Some(Frame::Alternate { chosen }) = stack.last_mut() else {
                return Mc::Element;
            };
            if *chosen {
                return Mc::Skip;
            }
            let take = local == "Fallback" || {
                let requires = start
                    .attributes()
                    .flatten()
                    .find(|a| a.key.local_name().into_inner() == "Requires")
                    .map(|a| a.value.into_owned())
                    .unwrap_or_default();
                requires_understood(scopes, &requires, opts.understood)
            };
            if take {
                *chosen = true;
                Mc::Transparent(Frame::Branch)
            } else {
                Mc::Skip
            }
        }
        _ => Mc::Element,
    }
}

/// Whether every prefix listed in a `Requires` attribute names an understood namespace.
fn requires_understood(scopes: &Scopes, requires: &str, understood: &[Ns]) -> bool {
    let mut any = false;
    for prefix in requires.split_ascii_whitespace() {
        any = true;
        let ns = scopes.lookup(prefix);
        if ns == Ns::Other || ns == Ns::None || !understood.contains(&ns) {
            return false;
        }
    }
    any
}

/// Whether an attribute name is a namespace declaration (`xmlns`, `xmlns:p`).
fn is_declaration(key: &str) -> bool {
    key.starts_with("xmlns") && (key.len() == 5 || key.as_bytes()[5] == b':')
}

/// Most namespace bindings in scope at once (what quick-xml allows by default). Real parts
/// declare a few dozen, once, on the root.
const MAX_BINDINGS: usize = 128;

/// The namespace bindings in scope while the tree is built.
///
/// Parts declare their prefixes once, on the root, so each name is resolved by splitting
/// off its prefix and looking it up in a short cache of prefixes already met; the cache is
/// emptied whenever the bindings change (an element declares namespaces, or such an
/// element closes), so a rebinding is never missed. Undeclared prefixes resolve to
/// [`Ns::Other`], as does anything bound to a URI no parser knows.
#[derive(Default)]
struct Scopes {
    /// `(prefix, namespace, depth of the declaring element)`, innermost last; the empty
    /// prefix is the default namespace (`Ns::None` after `xmlns=""`).
    bindings: Vec<(Box<str>, Ns, usize)>,
    /// Prefixes resolved since the bindings last changed.
    cache: Vec<(Box<str>, Ns)>,
}

#[derive(Debug)]
struct TooManyBindings;

impl std::fmt::Display for TooManyBindings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "more than {MAX_BINDINGS} namespace declarations in scope"
        )
    }
}

impl Scopes {
    /// Records the `xmlns` declarations of an element opened at `depth`.
    fn declare(&mut self, depth: usize, start: &BytesStart<'_>) -> Result<(), TooManyBindings> {
        for attr in start.attributes().with_checks(false).flatten() {
            let key = attr.key.into_inner();
            if !is_declaration(key) {
                continue;
            }
            let prefix = key.get(6..).unwrap_or("");
            let uri = decode_references(&attr.value);
            let ns = if uri.is_empty() {
                Ns::None
            } else {
                Ns::from_uri(&uri)
            };
            if self.bindings.len() >= MAX_BINDINGS {
                return Err(TooManyBindings);
            }
            self.bindings.push((prefix.into(), ns, depth));
            self.cache.clear();
        }
        Ok(())
    }

    /// The element at `depth` closes: its declarations go out of scope.
    fn closed(&mut self, depth: usize) {
        let mut changed = false;
        while self.bindings.last().is_some_and(|(_, _, d)| *d >= depth) {
            self.bindings.pop();
            changed = true;
        }
        if changed {
            self.cache.clear();
        }
    }

    /// The namespace a prefix stands for (`""`: the default namespace).
    fn lookup(&self, prefix: &str) -> Ns {
        match prefix {
            "xml" => return Ns::Xml,
            "xmlns" => return Ns::Other,
            _ => {}
        }
        match self.bindings.iter().rev().find(|(p, _, _)| &**p == prefix) {
            Some((_, ns, _)) => *ns,
            // No default namespace: unprefixed names are in none.
            None if prefix.is_empty() => Ns::None,
            // An undeclared prefix is a producer bug; keep the element, unnamed.
            None => Ns::Other,
        }
    }

    /// The namespace and local name of a qualified element or attribute name.
    fn resolve<'n>(&mut self, qname: &'n str, element: bool) -> (Ns, &'n str) {
        let (prefix, local) = match qname.bytes().position(|b| b == b':') {
            Some(i) => (&qname[..i], &qname[i + 1..]),
            // Unprefixed attributes are in no namespace; elements take the default one.
            None if !element => return (Ns::None, qname),
            None => ("", qname),
        };
        if let Some((_, ns)) = self.cache.iter().find(|(p, _)| &**p == prefix) {
            return (*ns, local);
        }
        let ns = self.lookup(prefix);
        if self.cache.len() < 64 {
            self.cache.push((prefix.into(), ns));
        }
        (ns, local)
    }
}

/// The replacement of one of the five predefined entities.
pub(crate) fn predefined_entity(name: &str) -> Option<&'static str> {
    Some(match name {
        "lt" => "<",
        "gt" => ">",
        "amp" => "&",
        "apos" => "'",
        "quot" => "\"",
        _ => return None,
    })
}

/// Resolves references in an attribute value: predefined entities and character
/// references; unknown entities are dropped; a stray `&` is kept as written.
pub(crate) fn decode_references(raw: &str) -> Cow<'_, str> {
    if !raw.contains('&') {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        match after.find(';') {
            Some(semi) if semi > 0 && semi <= 32 => {
                let name = &after[..semi];
                if let Some(num) = name.strip_prefix('#') {
                    let code = match num.strip_prefix(['x', 'X']) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok(),
                        None => num.parse::<u32>().ok(),
                    };
                    if let Some(c) = code.and_then(char::from_u32).filter(|c| *c != '\0') {
                        out.push(c);
                    }
                } else if let Some(rep) = predefined_entity(name) {
                    out.push_str(rep);
                }
                rest = &after[semi + 1..];
            }
            _ => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Turns part bytes into UTF-8 text: strips a UTF-8 BOM, transcodes UTF-16 with a BOM,
/// and replaces invalid UTF-8 rather than refusing the document over one bad byte.
pub(crate) fn decode_to_utf8(bytes: &[u8]) -> Cow<'_, str> {
    let lossy = |b| match std::str::from_utf8(b) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(b),
    };
    if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return lossy(rest);
    }
    let utf16 = |le: bool, rest: &[u8]| -> Cow<'_, str> {
        let units = rest.chunks_exact(2).map(|c| {
            if le {
                u16::from_le_bytes([c[0], c[1]])
            } else {
                u16::from_be_bytes([c[0], c[1]])
            }
        });
        Cow::Owned(
            char::decode_utf16(units)
                .map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER))
                .collect(),
        )
    };
    if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        return utf16(true, rest);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        return utf16(false, rest);
    }
    lossy(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: &str = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";

    fn opts() -> XmlOptions<'static> {
        XmlOptions {
            max_depth: 256,
            max_nodes: 10_000,
            understood: &[Ns::Wps],
        }
    }

    fn parse(s: &str) -> OfficeResult<XmlDoc> {
        parse_xml("test.xml", s.as_bytes(), &opts())
    }

    #[test]
    fn namespaces_resolve_whatever_the_prefix() {
        let doc = parse(&format!(
            r#"<x:document xmlns:x="{W}" xmlns:v="urn:vendor"><x:body><x:p x:val="1" x:rsidR="0A" v:x="2"/></x:body></x:document>"#
        ))
        .unwrap();
        let root = doc.root();
        assert!(root.is(Ns::W, "document"));
        let p = root.find(Ns::W, "p").unwrap();
        assert_eq!(p.attr(Ns::W, "val"), Some("1"));
        // Revision ids and vendor attributes are not stored.
        assert_eq!(p.attrs().count(), 1);
    }

    #[test]
    fn prefix_rebinding_is_scoped() {
        let doc = parse(&format!(
            r#"<w:r xmlns:w="{W}"><w:a/><w:b xmlns:w="urn:other"><w:c/></w:b><w:d/><w:e xmlns:w="urn:x"/><w:f/></w:r>"#
        ))
        .unwrap();
        let seen: Vec<(&str, Ns)> = doc
            .root()
            .descendants()
            .map(|e| (e.name(), e.ns()))
            .collect();
        assert_eq!(
            seen,
            [
                ("a", Ns::W),
                ("b", Ns::Other),
                ("c", Ns::Other),
                ("d", Ns::W),
                ("e", Ns::Other),
                ("f", Ns::W)
            ]
        );
    }

    #[test]
    fn default_namespace_undeclaring_and_unknown_prefixes() {
        let doc = parse(&format!(
            r#"<r xmlns="{W}" xmlns:v="urn:vendor"><a val="1" xml:space="preserve"/><b xmlns=""><c/></b><d/><q:e/><v:f/></r>"#
        ))
        .unwrap();
        let root = doc.root();
        assert_eq!(root.ns(), Ns::W);
        let seen: Vec<(&str, Ns)> = root.descendants().map(|e| (e.name(), e.ns())).collect();
        assert_eq!(
            seen,
            [
                ("a", Ns::W),
                ("b", Ns::None),
                ("c", Ns::None),
                ("d", Ns::W),
                ("e", Ns::Other),
                ("f", Ns::Other)
            ]
        );
        // Unprefixed attributes are in no namespace, even under a default namespace.
        let a = root.child(Ns::W, "a").unwrap();
        assert_eq!(a.attr(Ns::None, "val"), Some("1"));
        assert_eq!(a.attr(Ns::Xml, "space"), Some("preserve"));
    }

    #[test]
    fn entities_predefined_and_numeric_resolve_others_drop() {
        let doc =
            parse(r#"<r a="x&amp;y&#65;&unknown;&#x42;">&lt;b&gt; &#8364;&foo;!</r>"#).unwrap();
        let root = doc.root();
        assert_eq!(root.attr(Ns::None, "a"), Some("x&yAB"));
        assert_eq!(root.text(), "<b> €!");
    }

    #[test]
    fn doctype_is_refused() {
        let err =
            parse(r#"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "b">]><r>&a;</r>"#).unwrap_err();
        assert_eq!(err.kind(), OfficeErrorKind::XmlDtd);
    }

    #[test]
    fn depth_limit() {
        let deep = "<a>".repeat(300) + &"</a>".repeat(300);
        let err = parse(&deep).unwrap_err();
        assert_eq!(err.kind(), OfficeErrorKind::XmlTooDeep);
        assert!(err.reason().contains("256"));
        let ok = "<a>".repeat(256) + &"</a>".repeat(256);
        assert!(parse(&ok).is_ok());
    }

    #[test]
    fn node_limit() {
        let many = format!("<r>{}</r>", "<a/>".repeat(10_001));
        assert_eq!(
            parse(&many).unwrap_err().kind(),
            OfficeErrorKind::XmlTooLarge
        );
    }

    #[test]
    fn malformed_is_refused() {
        assert_eq!(
            parse("<a><b></a>").unwrap_err().kind(),
            OfficeErrorKind::MalformedXml
        );
        assert_eq!(
            parse("<a>").unwrap_err().kind(),
            OfficeErrorKind::MalformedXml
        );
        assert_eq!(parse("").unwrap_err().kind(), OfficeErrorKind::MalformedXml);
    }

    #[test]
    fn alternate_content_takes_understood_choice_else_fallback() {
        let doc = |requires: &str| {
            format!(
                r#"<r xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"
                      xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"
                      xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml">
                   <a/><mc:AlternateContent><mc:Choice Requires="{requires}"><choice/></mc:Choice>
                   <mc:Fallback><fallback/></mc:Fallback></mc:AlternateContent><b/></r>"#
            )
        };
        let names = |doc: XmlDoc| -> Vec<String> {
            doc.root().elements().map(|e| e.name().to_owned()).collect()
        };
        assert_eq!(names(parse(&doc("wps")).unwrap()), ["a", "choice", "b"]);
        assert_eq!(names(parse(&doc("w14")).unwrap()), ["a", "fallback", "b"]);
        assert_eq!(
            names(parse(&doc("wps w14")).unwrap()),
            ["a", "fallback", "b"]
        );
        assert_eq!(names(parse(&doc("nope")).unwrap()), ["a", "fallback", "b"]);
    }

    #[test]
    fn text_is_kept_exactly_and_indentation_dropped() {
        let doc = parse("<r>\n  <t> a  b </t>\n  <t>\n</t>\n<u>x<v/>y</u></r>").unwrap();
        let root = doc.root();
        assert_eq!(root.nodes().count(), 3);
        let texts: Vec<String> = root.elements().map(|e| e.text().into_owned()).collect();
        assert_eq!(texts, [" a  b ", "\n", "xy"]);
        let u = root.child(Ns::None, "u").unwrap();
        let kinds: Vec<bool> = u.nodes().map(|n| matches!(n, Node::Text(_))).collect();
        assert_eq!(kinds, [true, false, true]);
        let all: Vec<&str> = root.descendants().map(|e| e.name()).collect();
        assert_eq!(all, ["t", "t", "u", "v"]);
    }

    #[test]
    fn bom_and_utf16_are_decoded() {
        let mut utf8 = vec![0xEF, 0xBB, 0xBF];
        utf8.extend_from_slice("<r>é</r>".as_bytes());
        assert_eq!(parse_xml("p", &utf8, &opts()).unwrap().root().text(), "é");
        let mut utf16 = vec![0xFF, 0xFE];
        utf16.extend("<r>é</r>".encode_utf16().flat_map(|u| u.to_le_bytes()));
        assert_eq!(parse_xml("p", &utf16, &opts()).unwrap().root().text(), "é");
    }
}
