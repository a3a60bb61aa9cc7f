//! DOCX → [`Document`]: the body walk, paragraphs, runs, fields, notes, comments and
//! headers/footers. Tables and drawings live in `tables.rs` and `drawing.rs`.
//!
//! The walk is total: any element it does not know is searched for paragraphs (at block
//! level) or runs (inside a paragraph), so text inside wrappers this parser has never
//! heard of (`w:customXml`, `w:smartTag`, future extensions) is still shown.

use crate::office::media::MediaCatalog;
use std::collections::HashMap;
use std::rc::Rc;

use crate::office::ns::rel_type;
use crate::office::relationships::{RelTarget, Relationships};
use crate::office::xml::{Element, XmlDoc};
use crate::office::{Ns, OfficeError, OfficeErrorKind, OfficeLimits, OfficePackage, OfficeResult};

use super::fields::{field_name, hyperlink};
use super::forms::{self, FormData, PendingCheckBox};
use super::model::{
    Block, BreakKind, Comment, CommentMarkKind, Document, HeaderFooter, HeaderFooterRefs, Inline,
    LinkTarget, ListLabel, Note, NoteKind, PageSetup, Paragraph, ParagraphFormat, Placeholder,
    Revision, RunFormat, Section, SectionStart,
};
use super::numbering::{format_number, Numbering};
use super::props::{number, on_off, twips, val, PPr, RPr, ThemeFonts};
use super::styles::{CondFormat, Styles};
use super::theme::ThemeColors;

/// The Word version whose layout a document asks for (`w:compatSetting` named
/// `compatibilityMode`: 11 for Word 2003, 12 for 2007, 14 for 2010, 15 for 2013 and
/// later), when its settings name one.
fn compatibility_mode(settings: Element<'_>) -> Option<u32> {
    settings
        .child(Ns::W, "compat")?
        .children_named(Ns::W, "compatSetting")
        .find(|c| c.attr(Ns::W, "name") == Some("compatibilityMode"))?
        .attr(Ns::W, "val")?
        .trim()
        .parse()
        .ok()
}

/// Word's default tab stop interval (720 twips) when settings name none.
const DEFAULT_TAB_STOP: f32 = 36.0;

/// Deepest table nesting kept as tables; Word documents rarely go past three.
const MAX_TABLE_DEPTH: usize = 32;

/// Namespaces whose `mc:Choice` content this parser reads (Word 2010 shapes and groups,
/// and the drawing extensions whose only `mc:Choice` content is a position given as a
/// share of the page, `wp14:pctPosHOffset`/`pctPosVOffset`).
pub(crate) const UNDERSTOOD: &[Ns] = &[Ns::Wps, Ns::Wpg, Ns::Wp14];

/// Opens `bytes` as a Word package and parses it.
pub fn parse_docx(bytes: &[u8], limits: &OfficeLimits) -> OfficeResult<Document> {
    let package = OfficePackage::open(bytes, limits)?;
    parse_package(&package)
}

/// Parses an already opened package as a Word document.
pub fn parse_package(package: &OfficePackage<'_>) -> OfficeResult<Document> {
    let main = package.main_part()?;
    if let Some(ct) = &main.content_type {
        if ct.contains("presentationml") || ct.contains("spreadsheetml") {
            return Err(OfficeError::new(
                OfficeErrorKind::Unsupported,
                "the package is not a Word document (its main part is a presentation or workbook)",
            ));
        }
    }
    let rels = package.relationships(&main.name)?;
    let read_related = |ty: &str| -> OfficeResult<Option<XmlDoc>> {
        match rels.part_of_type(ty) {
            Some(part) if package.has_part(part) => Ok(Some(package.read_xml(part, UNDERSTOOD)?)),
            _ => Ok(None),
        }
    };
    let (fonts, colors) = read_related(rel_type::THEME)?
        .map(|t| {
            (
                ThemeFonts::from_theme(t.root()),
                ThemeColors::from_theme(t.root()),
            )
        })
        .unwrap_or_default();
    let styles = Styles::from_xml(
        read_related(rel_type::STYLES)?.as_ref().map(XmlDoc::root),
        &colors,
    );
    let unsized_text = styles.default_rpr.size.is_none();
    let numbering = Numbering::from_xml(
        read_related(rel_type::NUMBERING)?
            .as_ref()
            .map(XmlDoc::root),
        &colors,
    );
    let settings = read_related(rel_type::SETTINGS)?;
    let root = package.read_xml(&main.name, UNDERSTOOD)?;

    let mut parser = Parser {
        package,
        styles,
        numbering,
        fonts,
        colors,
        part: main.name.clone(),
        rels,
        fields: Vec::new(),
        next_sink: 0,
        table_styles: Vec::new(),
        notes: HashMap::new(),
        note_order: Vec::new(),
        footnote_format: "decimal".to_owned(),
        endnote_format: "lowerRoman".to_owned(),
        media: MediaCatalog::default(),
        warnings: Vec::new(),
        fatal: None,
        paragraphs: 0,
        table_depth: 0,
        flattened_tables: false,
        pending_marks: Vec::new(),
        check_box: None,
        shade_forms: true,
        outdent_tables: true,
    };
    let mut doc = Document {
        properties: package.core_properties()?,
        has_macros: package.has_macros(),
        default_tab_stop: DEFAULT_TAB_STOP,
        unsized_text: unsized_text.then_some(WORD_DEFAULT_SIZE),
        ..Document::default()
    };
    if let Some(settings) = settings.as_ref().map(XmlDoc::root) {
        doc.even_and_odd_headers = settings
            .child(Ns::W, "evenAndOddHeaders")
            .is_some_and(on_off);
        doc.default_tab_stop = settings
            .child(Ns::W, "defaultTabStop")
            .and_then(|t| twips_attr(t, "val"))
            .filter(|v| *v > 0.0)
            .unwrap_or(DEFAULT_TAB_STOP);
        parser.read_note_formats(settings);
        parser.shade_forms = settings
            .child(Ns::W, "doNotShadeFormData")
            .is_none_or(|e| !on_off(e));
        parser.outdent_tables = compatibility_mode(settings).is_none_or(|m| m < 15);
    }

    let body = root.root().child(Ns::W, "body");
    if let Some(body) = body {
        doc.sections = parser.body(body);
    }
    // Marks after the last paragraph close nothing visible; they must not leak into
    // notes or headers.
    parser.pending_marks.clear();
    if let Some(fmt) = body
        .and_then(|b| b.child(Ns::W, "sectPr"))
        .and_then(|s| s.child(Ns::W, "footnotePr"))
        .and_then(|f| f.child(Ns::W, "numFmt"))
        .and_then(val)
    {
        parser.footnote_format = fmt.to_owned();
    }
    doc.footnotes = parser.notes_part(NoteKind::Footnote)?;
    doc.endnotes = parser.notes_part(NoteKind::Endnote)?;
    doc.comments = parser.comments()?;
    doc.headers_footers = parser.headers_footers(&doc.sections)?;
    if let Some(error) = parser.fatal.take() {
        return Err(error);
    }
    doc.media = std::mem::take(&mut parser.media).into_parts();
    doc.warnings = std::mem::take(&mut parser.warnings);
    Ok(doc)
}

/// A field that has begun and not yet ended.
#[derive(Debug)]
struct OpenField {
    instruction: String,
    /// Past `separate`: content is the visible result.
    in_result: bool,
    /// Where the result starts: the sink and its length at `separate`.
    result_start: Option<(u64, usize)>,
    /// A legacy form field (`w:ffData` on `begin`) and the format of its `begin` run.
    form: Option<(FormData, RunFormat)>,
}

/// Inline output with an identity, so a field can tell whether it ends where it began.
pub(super) struct Sink {
    pub(super) id: u64,
    pub(super) items: Vec<Inline>,
}

/// Parser state for one document.
pub(super) struct Parser<'p, 'a> {
    pub(super) package: &'p OfficePackage<'a>,
    pub(super) styles: Styles,
    numbering: Numbering,
    pub(super) fonts: ThemeFonts,
    /// The theme's colour scheme, for `w:themeColor` and `w:themeFill`.
    pub(super) colors: ThemeColors,
    /// The part being parsed and its relationships (images and links resolve here).
    pub(super) part: String,
    pub(super) rels: Relationships,
    fields: Vec<OpenField>,
    next_sink: u64,
    /// Table style formatting of the cells around the current paragraph.
    pub(super) table_styles: Vec<Rc<CondFormat>>,
    notes: HashMap<(NoteKind, String), String>,
    note_order: Vec<(NoteKind, String)>,
    footnote_format: String,
    endnote_format: String,
    pub(super) media: MediaCatalog,
    pub(super) warnings: Vec<String>,
    /// A guard breach met deep inside the walk (an image over the pixel cap); the
    /// document is refused once the walk returns.
    pub(super) fatal: Option<OfficeError>,
    /// Paragraphs made so far, against `OfficeLimits::max_paragraphs`.
    pub(super) paragraphs: usize,
    /// Tables open around the current block.
    table_depth: usize,
    /// Whether the "tables too deep" warning was given.
    flattened_tables: bool,
    /// Comment range marks met between paragraphs, for the start of the next paragraph.
    pending_marks: Vec<Inline>,
    /// The check box of the content control being read, until its cached glyph is met.
    check_box: Option<PendingCheckBox>,
    /// Left-aligned tables sit their first cell's left margin left of their indent, so
    /// that the cell's text lines up with the text around (Word 2010 and older lay out
    /// so, and Word keeps doing it for a document in compatibility mode 14 or lower, or
    /// naming none; mode 15 puts the table's edge at the indent).
    pub(super) outdent_tables: bool,
    /// Form fields get Word's grey shading (settings lack `w:doNotShadeFormData`).
    shade_forms: bool,
}

impl Parser<'_, '_> {
    pub(super) fn sink(&mut self) -> Sink {
        self.next_sink += 1;
        Sink {
            id: self.next_sink,
            items: Vec::new(),
        }
    }

    fn read_note_formats(&mut self, settings: Element<'_>) {
        let fmt = |name: &str| {
            settings
                .child(Ns::W, name)
                .and_then(|p| p.child(Ns::W, "numFmt"))
                .and_then(val)
                .map(str::to_owned)
        };
        if let Some(f) = fmt("footnotePr") {
            self.footnote_format = f;
        }
        if let Some(f) = fmt("endnotePr") {
            self.endnote_format = f;
        }
    }

    // ----- body and sections -------------------------------------------------------

    /// Splits the body into sections at each paragraph-level `w:sectPr`.
    fn body(&mut self, body: Element<'_>) -> Vec<Section> {
        let mut blocks = Vec::new();
        let mut breaks: Vec<(usize, Section)> = Vec::new();
        self.blocks(body, &mut blocks, Some(&mut breaks));
        // Word's automatic space before is not kept above the document's first paragraph
        // either, as at the top of a table cell (LibreOffice imports it so too).
        if let Some(Block::Paragraph(first)) = blocks.first_mut() {
            if first.format.auto_space_before {
                first.format.space_before = 0.0;
            }
        }
        let last = body
            .child(Ns::W, "sectPr")
            .map(|s| self.section_props(s))
            .unwrap_or_default();

        let mut sections = Vec::with_capacity(breaks.len() + 1);
        let mut rest = blocks.into_iter();
        let mut taken = 0;
        for (end, mut section) in breaks {
            section.blocks = rest.by_ref().take(end - taken).collect();
            taken = end;
            sections.push(section);
        }
        let mut last = last;
        last.blocks = rest.collect();
        // Collected in place: without this it keeps the whole body's capacity.
        last.blocks.shrink_to_fit();
        sections.push(last);
        sections
    }

    /// Reads a `w:sectPr` into a section without blocks.
    fn section_props(&mut self, el: Element<'_>) -> Section {
        let mut section = Section::default();
        let mut page = PageSetup::default();
        if let Some(size) = el.child(Ns::W, "pgSz") {
            if let Some(w) = size.attr(Ns::W, "w").and_then(twips) {
                page.width = w;
            }
            if let Some(h) = size.attr(Ns::W, "h").and_then(twips) {
                page.height = h;
            }
            page.landscape = size.attr(Ns::W, "orient") == Some("landscape");
        }
        if let Some(m) = el.child(Ns::W, "pgMar") {
            let get = |n: &str| m.attr(Ns::W, n).and_then(twips);
            if let Some(v) = get("top") {
                page.margin_top = v.abs();
            }
            if let Some(v) = get("right") {
                page.margin_right = v;
            }
            if let Some(v) = get("bottom") {
                page.margin_bottom = v.abs();
            }
            if let Some(v) = get("left") {
                page.margin_left = v;
            }
            if let Some(v) = get("header") {
                page.header_distance = v;
            }
            if let Some(v) = get("footer") {
                page.footer_distance = v;
            }
        }
        // Guard the viewer against absurd geometry from broken files.
        page.width = page.width.clamp(36.0, 10_000.0);
        page.height = page.height.clamp(36.0, 10_000.0);
        if let Some(cols) = el.child(Ns::W, "cols") {
            section.column_widths = read_columns(cols, &mut page);
        }
        page.line_pitch = el.child(Ns::W, "docGrid").and_then(line_pitch);
        section.page_borders = el
            .child(Ns::W, "pgBorders")
            .and_then(|b| super::page_border::read(b, &self.colors));
        section.page = page;
        section.title_page = el.child(Ns::W, "titlePg").is_some_and(on_off);
        section.start = match el.child(Ns::W, "type").and_then(val) {
            Some("continuous") => SectionStart::Continuous,
            Some("evenPage") => SectionStart::EvenPage,
            Some("oddPage") => SectionStart::OddPage,
            Some("nextColumn") => SectionStart::NextColumn,
            _ => SectionStart::NextPage,
        };
        for (name, refs) in [
            ("headerReference", &mut section.headers),
            ("footerReference", &mut section.footers),
        ] {
            for r in el.children_named(Ns::W, name) {
                let part = r
                    .attr(Ns::R, "id")
                    .and_then(|id| self.rels.get(id))
                    .and_then(|rel| match &rel.target {
                        RelTarget::Part(p) => self.package.canonical_name(p).map(str::to_owned),
                        _ => None,
                    });
                let slot = match r.attr(Ns::W, "type") {
                    Some("first") => &mut refs.first,
                    Some("even") => &mut refs.even,
                    _ => &mut refs.default,
                };
                *slot = part;
            }
        }
        section
    }

    // ----- blocks ------------------------------------------------------------------

    /// Parses the block-level children of `parent` into `out`. With `breaks`, a
    /// paragraph carrying a `w:sectPr` ends a section after itself. Contextual spacing
    /// is resolved over the new blocks.
    pub(super) fn blocks(
        &mut self,
        parent: Element<'_>,
        out: &mut Vec<Block>,
        breaks: Option<&mut Vec<(usize, Section)>>,
    ) {
        let start = out.len();
        self.blocks_into(parent, out, breaks);
        if let Some(new) = out.get_mut(start..) {
            contextual_spacing(new);
            auto_spacing_in_lists(new);
            join_borders(new);
        }
    }

    /// [`Self::blocks`] without the spacing pass, for wrappers (`w:sdt` …) whose blocks
    /// join their parent's.
    fn blocks_into(
        &mut self,
        parent: Element<'_>,
        out: &mut Vec<Block>,
        mut breaks: Option<&mut Vec<(usize, Section)>>,
    ) {
        for el in parent.elements() {
            if self.fatal.is_some() {
                // Refused already (a limit or a broken part): building more model would
                // only cost memory.
                return;
            }
            match (el.ns(), el.name()) {
                (Ns::W, "p") => {
                    out.push(Block::Paragraph(self.paragraph(el)));
                    if let Some(breaks) = breaks.as_deref_mut() {
                        if let Some(sect) = el
                            .child(Ns::W, "pPr")
                            .and_then(|p| p.child(Ns::W, "sectPr"))
                        {
                            let section = self.section_props(sect);
                            breaks.push((out.len(), section));
                        }
                    }
                }
                (Ns::W, "tbl") if self.table_depth >= MAX_TABLE_DEPTH => {
                    // Deeper tables keep their text as plain blocks: this bounds the
                    // parser's recursion (and a viewer's layout) whatever the file says.
                    if !self.flattened_tables {
                        self.flattened_tables = true;
                        self.warnings.push(format!(
                            "tables nested deeper than {MAX_TABLE_DEPTH} levels are shown as plain paragraphs"
                        ));
                    }
                    self.flatten_table(el, out);
                }
                (Ns::W, "tbl") => {
                    self.table_depth += 1;
                    let table = self.table(el);
                    self.table_depth -= 1;
                    out.push(Block::Table(table));
                }
                (Ns::W, "sdt") => {
                    if let Some(content) = el.child(Ns::W, "sdtContent") {
                        self.in_content_control(el, |p| {
                            p.blocks_into(content, out, breaks.as_deref_mut())
                        });
                    }
                }
                (Ns::W, "altChunk") => {
                    // Embedded HTML/RTF/MHT is never passed through.
                    self.warnings.push(
                        "an embedded alternative-format chunk (altChunk) is not shown".to_owned(),
                    );
                    out.push(Block::Placeholder(Placeholder {
                        kind: "altChunk".to_owned(),
                        label: "Embedded content (HTML or RTF) not shown".to_owned(),
                    }));
                }
                (Ns::W, "commentRangeStart" | "commentRangeEnd") => {
                    // Between paragraphs: the mark belongs at the start of the next one
                    // (a start opens the range there, an end closes it before any text).
                    self.pending_marks.extend(comment_range_mark(el));
                }
                (Ns::W, "sectPr" | "bookmarkStart" | "bookmarkEnd" | "proofErr" | "permStart")
                | (Ns::W, "permEnd") => {}
                (Ns::M, "oMathPara" | "oMath") => {
                    let mut sink = self.sink();
                    self.math(el, &RPr::default(), &mut sink);
                    out.push(Block::Paragraph(Paragraph {
                        inlines: sink.items,
                        ..Paragraph::default()
                    }));
                }
                // Unknown wrappers (customXml, ins/del around blocks, future elements).
                _ => self.blocks_into(el, out, breaks.as_deref_mut()),
            }
        }
    }

    /// The blocks of every cell of a table, in order, without the table.
    fn flatten_table(&mut self, table: Element<'_>, out: &mut Vec<Block>) {
        for node in table.descendants() {
            if node.is(Ns::W, "tc") {
                self.blocks_no_tables(node, out);
            }
        }
    }

    /// Paragraphs of a cell of a flattened table; its nested tables are flattened by the
    /// caller's walk over all descendant cells.
    fn blocks_no_tables(&mut self, cell: Element<'_>, out: &mut Vec<Block>) {
        for el in cell.elements() {
            if self.fatal.is_some() {
                return;
            }
            match (el.ns(), el.name()) {
                (Ns::W, "p") => out.push(Block::Paragraph(self.paragraph(el))),
                // Its cells come later in the caller's walk.
                (Ns::W, "tbl") => {}
                // Wrappers (sdt, customXml …) are looked into like the cell itself.
                _ => self.blocks_no_tables(el, out),
            }
        }
    }

    // ----- paragraphs --------------------------------------------------------------

    pub(super) fn paragraph(&mut self, p: Element<'_>) -> Paragraph {
        self.paragraphs += 1;
        if self.paragraphs > self.package.limits().max_paragraphs && self.fatal.is_none() {
            self.fatal = Some(OfficeError::new(
                OfficeErrorKind::XmlTooLarge,
                format!(
                    "the document has more than {} paragraphs (limit)",
                    self.package.limits().max_paragraphs
                ),
            ));
        }
        if self.fatal.is_some() {
            // The document is refused; stop building a model nobody will see.
            return Paragraph::default();
        }
        let direct = p
            .child(Ns::W, "pPr")
            .map(|p| PPr::from_xml(p, &self.colors))
            .unwrap_or_default();
        let (style_id, style) = self.styles.paragraph_style(direct.style.as_deref());
        let style_id = style_id.map(str::to_owned);

        let mut ppr = self.styles.default_ppr.clone();
        let mut rpr = self.styles.default_rpr.clone();
        if let Some(cell) = self.table_styles.last() {
            ppr.overlay(&cell.ppr);
            rpr.overlay(&cell.rpr);
        }
        if let Some(style) = style {
            ppr.overlay(&style.ppr);
            rpr.overlay(&style.rpr);
        }

        // Numbering: the style's numPr, refined by the paragraph's own.
        let mut num = ppr.num.clone();
        let from_style = direct.num.as_ref().is_none_or(|d| d.num_id.is_none());
        if let Some(d) = &direct.num {
            num = Some(match num {
                Some(base) => super::props::NumRef {
                    num_id: d.num_id.clone().or(base.num_id),
                    level: d.level.or(base.level),
                },
                None => d.clone(),
            });
        }
        let mut list = None;
        if let Some(super::props::NumRef {
            num_id: Some(num_id),
            level,
        }) = num
        {
            if num_id != "0" {
                let level = level.unwrap_or(0);
                if let Some(numbered) = self.numbering.next(&num_id, level, &self.styles) {
                    if from_style {
                        // Numbering a style names sits under the style's own indents and
                        // tabs, as Word applies it (List Bullet 2 with its indent at
                        // 54 pt over a level at 81 pt is drawn at 54 pt).
                        let mut under = numbered.level.ppr.clone();
                        under.overlay(&ppr);
                        ppr = under;
                    } else {
                        ppr.overlay(&numbered.level.ppr);
                    }
                    let mut label_rpr = rpr.clone();
                    label_rpr.overlay(&direct.mark);
                    label_rpr.overlay(&numbered.level.rpr);
                    let font = label_rpr.apply(&self.fonts).font;
                    list = Some(ListLabel {
                        num_id,
                        level,
                        bullet: numbered.level.format == "bullet",
                        format: numbered.level.format.clone(),
                        text: numbered.text,
                        suffix: numbered.level.suffix,
                        font,
                    });
                }
            }
        }
        ppr.overlay(&direct);

        let heading_level = match ppr.outline_level {
            Some(l) if l < 9 => Some(l + 1),
            _ => style_id
                .as_deref()
                .and_then(|id| self.styles.heading_level_by_name(id)),
        };
        let mut mark = rpr.clone();
        mark.overlay(&ppr.mark);
        let mut sink = self.sink();
        sink.items.append(&mut self.pending_marks);
        self.inlines(p, &rpr, &mut sink);
        // The model lives until it is rendered: keep no growth slack (most paragraphs
        // have one to three inlines).
        sink.items.shrink_to_fit();
        Paragraph {
            style_id,
            heading_level,
            format: paragraph_format(&ppr),
            list,
            mark_format: mark.apply_for_run(&self.fonts),
            text_format: rpr.apply_for_run(&self.fonts),
            inlines: sink.items,
        }
    }

    // ----- inlines -----------------------------------------------------------------

    /// Parses the inline children of `parent` (a paragraph or an inline wrapper).
    pub(super) fn inlines(&mut self, parent: Element<'_>, base: &RPr, sink: &mut Sink) {
        for el in parent.elements() {
            if el.ns() == Ns::M {
                self.math(el, base, sink);
                continue;
            }
            if el.ns() != Ns::W {
                self.inlines(el, base, sink);
                continue;
            }
            match el.name() {
                "r" => self.run(el, base, sink),
                "hyperlink" => {
                    let target = self.hyperlink_target(el);
                    let tooltip = el.attr(Ns::W, "tooltip").map(str::to_owned);
                    let mut inner = self.sink();
                    self.inlines(el, base, &mut inner);
                    match target {
                        Some(target) => sink.items.push(Inline::Hyperlink {
                            target,
                            tooltip,
                            children: inner.items,
                        }),
                        None => sink.items.extend(inner.items),
                    }
                }
                "ins" | "moveTo" => {
                    let mut inner = self.sink();
                    self.inlines(el, base, &mut inner);
                    sink.items.push(Inline::Inserted {
                        revision: revision(el),
                        children: inner.items,
                    });
                }
                "del" | "moveFrom" => {
                    let mut inner = self.sink();
                    self.inlines(el, base, &mut inner);
                    sink.items.push(Inline::Deleted {
                        revision: revision(el),
                        children: inner.items,
                    });
                }
                "fldSimple" => {
                    let instruction = el.attr(Ns::W, "instr").unwrap_or("").trim().to_owned();
                    let mut inner = self.sink();
                    self.inlines(el, base, &mut inner);
                    sink.items.push(field_inline(instruction, inner.items));
                }
                "sdt" => {
                    if let Some(content) = el.child(Ns::W, "sdtContent") {
                        self.in_content_control(el, |p| p.inlines(content, base, sink));
                    }
                }
                "bookmarkStart" => {
                    if let Some(name) = el.attr(Ns::W, "name") {
                        if name != "_GoBack" {
                            sink.items.push(Inline::Bookmark {
                                name: name.to_owned(),
                            });
                        }
                    }
                }
                "commentRangeStart" | "commentRangeEnd" => {
                    sink.items.extend(comment_range_mark(el));
                }
                "pPr" | "rPr" | "bookmarkEnd" | "proofErr" | "permStart" | "permEnd" | "sectPr" => {
                }
                // smartTag, customXml, dir, bdo, ruby parts and anything new: look inside.
                _ => self.inlines(el, base, sink),
            }
        }
    }

    fn hyperlink_target(&self, el: Element<'_>) -> Option<LinkTarget> {
        let anchor = el
            .attr(Ns::W, "anchor")
            .filter(|a| !a.is_empty())
            .map(str::to_owned);
        let rel = el.attr(Ns::R, "id").and_then(|id| self.rels.get(id));
        match (rel.map(|r| &r.target), anchor) {
            (Some(RelTarget::External(url)), anchor) => Some(LinkTarget::External {
                url: match anchor {
                    Some(a) => format!("{url}#{a}"),
                    None => url.clone(),
                },
            }),
            (_, Some(anchor)) => Some(LinkTarget::Internal { anchor }),
            _ => None,
        }
    }

    /// Parses one run into inlines.
    fn run(&mut self, r: Element<'_>, base: &RPr, sink: &mut Sink) {
        let direct = r
            .child(Ns::W, "rPr")
            .map(|p| RPr::from_xml(p, &self.colors));
        let mut rpr = base.clone();
        if let Some(style) = direct
            .as_ref()
            .and_then(|d| d.style.as_deref())
            .and_then(|id| self.styles.get(id))
        {
            rpr.overlay(&style.rpr);
        }
        if let Some(d) = &direct {
            rpr.overlay(d);
        }
        let format = rpr.apply_for_run(&self.fonts);
        // Text of a complex script in a run not marked so still takes the run's
        // complex-script size, weight and font, as Word sets it (made when first met).
        let mut complex: Option<RunFormat> = None;
        // East Asian text takes the run's East Asian face (made when first met).
        let mut east_asian: Option<RunFormat> = None;

        for c in r.elements() {
            if c.ns() != Ns::W {
                // Anything else that holds runs or drawings (resolved mc content, math).
                if c.ns() == Ns::M {
                    self.math(c, &rpr, sink);
                }
                continue;
            }
            match c.name() {
                "t" | "delText" => {
                    let text = c.text();
                    let format = if !rpr.complex() && super::props::complex_script(&text) {
                        &*complex.get_or_insert_with(|| rpr.apply_complex(&self.fonts))
                    } else if rpr.font_ea.is_some() && super::props::east_asian(&text) {
                        &*east_asian.get_or_insert_with(|| rpr.apply_east_asian(&self.fonts))
                    } else {
                        &format
                    };
                    // Text set in a symbol font shows the characters the font draws at
                    // its code points (Symbol's `a` is α): the page draws Unicode faces.
                    let symbol = format
                        .font
                        .as_deref()
                        .filter(|f| crate::office::fonts::legacy_symbol(f));
                    match symbol {
                        Some(font) => {
                            let shown: String = text
                                .chars()
                                .map(|ch| symbol_text(font, u32::from(ch)))
                                .collect();
                            self.push_text(sink, &shown, format);
                        }
                        None => self.push_text(sink, &text, format),
                    }
                }
                "tab" | "ptab" => self.push_visible(sink, Inline::Tab),
                "br" => {
                    let kind = match c.attr(Ns::W, "type") {
                        Some("page") => BreakKind::Page,
                        Some("column") => BreakKind::Column,
                        _ => BreakKind::Line,
                    };
                    self.push_visible(sink, Inline::Break { kind });
                }
                "cr" => self.push_visible(
                    sink,
                    Inline::Break {
                        kind: BreakKind::Line,
                    },
                ),
                "noBreakHyphen" => self.push_text(sink, "\u{2011}", &format),
                "softHyphen" => self.push_text(sink, "\u{AD}", &format),
                "sym" if self.check_box.is_some() && self.visible() => {
                    self.take_check_box(sink, &format);
                }
                "sym" => {
                    let font = c.attr(Ns::W, "font").unwrap_or("").to_owned();
                    let code = c
                        .attr(Ns::W, "char")
                        .and_then(|h| u32::from_str_radix(h, 16).ok())
                        .unwrap_or(0x20);
                    let text = symbol_text(&font, code);
                    self.push_visible(
                        sink,
                        Inline::Symbol {
                            font,
                            code,
                            text,
                            format: format.clone(),
                        },
                    );
                }
                "drawing" => {
                    let items = self.drawing(c);
                    for item in items {
                        self.push_visible(sink, item);
                    }
                }
                "pict" | "object" => {
                    let items = self.vml(c);
                    for item in items {
                        self.push_visible(sink, item);
                    }
                }
                "footnoteReference" | "endnoteReference" => {
                    let kind = if c.name() == "footnoteReference" {
                        NoteKind::Footnote
                    } else {
                        NoteKind::Endnote
                    };
                    if let Some(id) = c.attr(Ns::W, "id") {
                        let custom = c
                            .attr(Ns::W, "customMarkFollows")
                            .is_some_and(|v| matches!(v, "1" | "true" | "on"));
                        let label = self.note_label(kind, id, custom);
                        self.push_visible(
                            sink,
                            Inline::NoteReference {
                                kind,
                                id: id.to_owned(),
                                label,
                                format: format.clone(),
                            },
                        );
                    }
                }
                "footnoteRef" | "endnoteRef" => {
                    let kind = if c.name() == "footnoteRef" {
                        NoteKind::Footnote
                    } else {
                        NoteKind::Endnote
                    };
                    self.push_visible(
                        sink,
                        Inline::NoteMark {
                            kind,
                            format: format.clone(),
                        },
                    );
                }
                "commentReference" => {
                    if let Some(id) = c.attr(Ns::W, "id") {
                        sink.items.push(Inline::CommentMark {
                            id: id.to_owned(),
                            mark: CommentMarkKind::Reference,
                        });
                    }
                }
                "fldChar" => self.field_char(c, &format, sink),
                "instrText" | "delInstrText" => {
                    if let Some(field) = self.fields.last_mut() {
                        if !field.in_result {
                            field.instruction.push_str(&c.text());
                        }
                    }
                }
                "ruby" => self.inlines(c, &rpr, sink),
                "rPr"
                | "lastRenderedPageBreak"
                | "annotationRef"
                | "separator"
                | "continuationSeparator" => {}
                _ => self.inlines(c, &rpr, sink),
            }
        }
    }

    /// Office math: the equation as a structured model (rendered as MathML), or its text
    /// when it sits inside a field instruction.
    fn math(&mut self, el: Element<'_>, base: &RPr, sink: &mut Sink) {
        let math = crate::office::math::parse(el);
        if math.nodes.is_empty() {
            return;
        }
        if self.visible() {
            sink.items.push(Inline::Math(math));
        } else {
            let format = base.apply(&self.fonts);
            self.push_text(sink, &math.text(), &format);
        }
    }

    /// Whether output is currently visible (not inside a field instruction).
    fn visible(&self) -> bool {
        self.fields.iter().all(|f| f.in_result)
    }

    fn push_visible(&mut self, sink: &mut Sink, inline: Inline) {
        if self.visible() {
            sink.items.push(inline);
        }
    }

    /// Appends text, merging with the previous text of the same format; inside a field
    /// instruction the text (a nested field's result) becomes part of the instruction.
    fn push_text(&mut self, sink: &mut Sink, text: &str, format: &RunFormat) {
        if text.is_empty() {
            return;
        }
        let mut text = text;
        if self.check_box.is_some() && self.visible() {
            // A check box's cached glyph (its first character) gives way to the symbol of
            // the control's state.
            self.take_check_box(sink, format);
            let mut rest = text.chars();
            rest.next();
            text = rest.as_str();
            if text.is_empty() {
                return;
            }
        }
        if !self.visible() {
            if let Some(field) = self.fields.iter_mut().rev().find(|f| !f.in_result) {
                field.instruction.push_str(text);
            }
            return;
        }
        // Text before an open field's result is not merged into: the result starts at
        // its own item (a form field's text is shaded, a link's text linked).
        let floor = self
            .fields
            .iter()
            .rev()
            .find_map(|f| f.result_start.filter(|(id, _)| *id == sink.id))
            .map_or(0, |(_, start)| start);
        let mergeable = sink.items.len() > floor;
        if let Some(Inline::Text {
            text: last,
            format: last_format,
        }) = sink.items.last_mut().filter(|_| mergeable)
        {
            if last_format == format {
                last.push_str(text);
                return;
            }
        }
        sink.items.push(Inline::Text {
            text: text.to_owned(),
            format: format.clone(),
        });
    }

    /// Runs `f` with the check box of the content control `sdt` (when it is one) waiting
    /// for the glyph its content caches.
    pub(super) fn in_content_control<T>(
        &mut self,
        sdt: Element<'_>,
        f: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let Some(check) = sdt.child(Ns::W, "sdtPr").and_then(forms::content_control) else {
            return f(self);
        };
        let outer = self.check_box.replace(check);
        let out = f(self);
        self.check_box = outer;
        out
    }

    /// Puts the waiting content-control check box in `format` into `sink`.
    fn take_check_box(&mut self, sink: &mut Sink, format: &RunFormat) {
        if let Some(check) = self.check_box.take() {
            sink.items.push(check.inline(format));
        }
    }

    /// The complex-field state machine: `begin`, `separate`, `end`. `format` is the
    /// run's, for what a form field shows.
    fn field_char(&mut self, el: Element<'_>, format: &RunFormat, sink: &mut Sink) {
        match el.attr(Ns::W, "fldCharType") {
            Some("begin") => self.fields.push(OpenField {
                instruction: String::new(),
                in_result: false,
                result_start: None,
                form: el
                    .child(Ns::W, "ffData")
                    .and_then(forms::form_data)
                    .map(|f| (f, format.clone())),
            }),
            Some("separate") => {
                if let Some(field) = self.fields.last_mut() {
                    field.in_result = true;
                    field.result_start = Some((sink.id, sink.items.len()));
                }
            }
            Some("end") => {
                let Some(field) = self.fields.pop() else {
                    return;
                };
                if !self.visible() {
                    return;
                }
                let instruction = field.instruction.trim().to_owned();
                let children = match field.result_start {
                    // The result sits in this sink: wrap it.
                    Some((id, start)) if id == sink.id && start <= sink.items.len() => {
                        sink.items.split_off(start)
                    }
                    // A field without a result (e.g. PAGE in a footer, a check box): keep
                    // it so a viewer can fill it in.
                    None => Vec::new(),
                    // The result spans paragraphs (a table of contents): leave it flat.
                    Some(_) => return,
                };
                sink.items.push(match field.form {
                    Some((form, format)) => {
                        forms::form_field(form, instruction, children, format, self.shade_forms)
                    }
                    None => field_inline(instruction, children),
                });
            }
            _ => {}
        }
    }

    fn note_label(&mut self, kind: NoteKind, id: &str, custom: bool) -> String {
        let key = (kind, id.to_owned());
        if let Some(label) = self.notes.get(&key) {
            return label.clone();
        }
        let ordinal = self.note_order.iter().filter(|(k, _)| *k == kind).count() as i64 + 1;
        let label = if custom {
            String::new()
        } else {
            let format = match kind {
                NoteKind::Footnote => &self.footnote_format,
                NoteKind::Endnote => &self.endnote_format,
            };
            format_number(ordinal, format)
        };
        self.notes.insert(key.clone(), label.clone());
        self.note_order.push(key);
        label
    }

    // ----- other parts -------------------------------------------------------------

    /// Runs `f` with `part` as the current part (its relationships resolve images and
    /// links), restoring the previous part and field state afterwards.
    fn in_part<T>(&mut self, part: &str, f: impl FnOnce(&mut Self) -> T) -> OfficeResult<T> {
        let rels = self.package.relationships(part)?;
        let saved_rels = std::mem::replace(&mut self.rels, rels);
        let saved_part = std::mem::replace(&mut self.part, part.to_owned());
        let saved_fields = std::mem::take(&mut self.fields);
        let result = f(self);
        self.rels = saved_rels;
        self.part = saved_part;
        self.fields = saved_fields;
        Ok(result)
    }

    fn related_part(&self, ty: &str) -> Option<String> {
        self.rels
            .part_of_type(ty)
            .and_then(|p| self.package.canonical_name(p))
            .map(str::to_owned)
    }

    /// Footnotes or endnotes, in order of first reference, then any unreferenced ones.
    fn notes_part(&mut self, kind: NoteKind) -> OfficeResult<Vec<Note>> {
        let (ty, element) = match kind {
            NoteKind::Footnote => (rel_type::FOOTNOTES, "footnote"),
            NoteKind::Endnote => (rel_type::ENDNOTES, "endnote"),
        };
        let Some(part) = self.related_part(ty) else {
            return Ok(Vec::new());
        };
        let root = self.package.read_xml(&part, UNDERSTOOD)?;
        self.in_part(&part, |p| {
            let mut by_id: HashMap<String, Vec<Block>> = HashMap::new();
            let mut unreferenced = Vec::new();
            for note in root.root().children_named(Ns::W, element) {
                let kind_attr = note.attr(Ns::W, "type").unwrap_or("normal");
                if kind_attr == "separator"
                    || kind_attr == "continuationSeparator"
                    || kind_attr == "continuationNotice"
                {
                    continue;
                }
                let Some(id) = note.attr(Ns::W, "id") else {
                    continue;
                };
                let mut blocks = Vec::new();
                p.blocks(note, &mut blocks, None);
                if !p.notes.contains_key(&(kind, id.to_owned())) {
                    unreferenced.push(id.to_owned());
                }
                by_id.insert(id.to_owned(), blocks);
            }
            let mut notes = Vec::new();
            let order: Vec<String> = p
                .note_order
                .iter()
                .filter(|(k, _)| *k == kind)
                .map(|(_, id)| id.clone())
                .chain(unreferenced)
                .collect();
            for id in order {
                if let Some(blocks) = by_id.remove(&id) {
                    let label = p
                        .notes
                        .get(&(kind, id.clone()))
                        .cloned()
                        .unwrap_or_default();
                    notes.push(Note { id, label, blocks });
                }
            }
            notes
        })
    }

    fn comments(&mut self) -> OfficeResult<Vec<Comment>> {
        let Some(part) = self.related_part(rel_type::COMMENTS) else {
            return Ok(Vec::new());
        };
        let root = self.package.read_xml(&part, UNDERSTOOD)?;
        self.in_part(&part, |p| {
            root.root()
                .children_named(Ns::W, "comment")
                .filter_map(|c| {
                    let id = c.attr(Ns::W, "id")?.to_owned();
                    let mut blocks = Vec::new();
                    p.blocks(c, &mut blocks, None);
                    Some(Comment {
                        id,
                        author: c.attr(Ns::W, "author").unwrap_or("").to_owned(),
                        initials: c.attr(Ns::W, "initials").map(str::to_owned),
                        date: c.attr(Ns::W, "date").map(str::to_owned),
                        blocks,
                    })
                })
                .collect()
        })
    }

    /// Parses each header/footer part the sections refer to, once.
    fn headers_footers(
        &mut self,
        sections: &[super::model::Section],
    ) -> OfficeResult<Vec<HeaderFooter>> {
        let mut parts: Vec<(String, bool)> = Vec::new();
        let mut add = |refs: &HeaderFooterRefs, footer: bool| {
            for part in [&refs.default, &refs.first, &refs.even]
                .into_iter()
                .flatten()
            {
                if !parts.iter().any(|(p, _)| p == part) {
                    parts.push((part.clone(), footer));
                }
            }
        };
        for s in sections {
            add(&s.headers, false);
            add(&s.footers, true);
        }
        let mut out = Vec::with_capacity(parts.len());
        for (part, is_footer) in parts {
            let root = self.package.read_xml(&part, UNDERSTOOD)?;
            let blocks = self.in_part(&part, |p| {
                let mut blocks = Vec::new();
                p.blocks(root.root(), &mut blocks, None);
                blocks
            })?;
            out.push(HeaderFooter {
                part,
                is_footer,
                blocks,
            });
        }
        Ok(out)
    }
}

/// A field result as an inline: a link for `HYPERLINK`, else a field.
fn field_inline(instruction: String, children: Vec<Inline>) -> Inline {
    if field_name(&instruction) == "HYPERLINK" {
        if let Some((target, tooltip)) = hyperlink(&instruction) {
            return Inline::Hyperlink {
                target,
                tooltip,
                children,
            };
        }
    }
    Inline::Field {
        instruction,
        children,
    }
}

fn revision(el: Element<'_>) -> Revision {
    Revision {
        author: el.attr(Ns::W, "author").map(str::to_owned),
        date: el.attr(Ns::W, "date").map(str::to_owned),
    }
}

/// The Unicode for a `w:sym`: symbol fonts address their glyphs at U+F000 + byte.
pub(super) fn symbol_text(font: &str, code: u32) -> String {
    let byte = if (0xF000..=0xF0FF).contains(&code) {
        code - 0xF000
    } else {
        code
    };
    let mapped = match (font, byte) {
        ("Symbol", 0xB7) => Some('•'),
        ("Symbol", 0xAE) => Some('→'),
        ("Symbol", 0xAC) => Some('←'),
        ("Symbol", 0xB4) => Some('×'),
        ("Symbol", 0xB1) => Some('±'),
        ("Symbol", 0xA3) => Some('≤'),
        ("Symbol", 0xB3) => Some('≥'),
        ("Symbol", 0xB9) => Some('≠'),
        ("Symbol", 0xE3 | 0xD3) => Some('©'),
        ("Symbol", 0xE2 | 0xD2) => Some('®'),
        ("Symbol", 0xE4 | 0xD4) => Some('™'),
        ("Symbol", b @ (0x41..=0x5A | 0x61..=0x7A)) => greek(b),
        ("Wingdings", 0xFC) => Some('✓'),
        ("Wingdings", 0xFB) => Some('✗'),
        ("Wingdings", 0xA7) => Some('▪'),
        ("Wingdings", 0xD8) => Some('➢'),
        ("Wingdings", 0xE0) => Some('→'),
        ("Wingdings", 0x4A) => Some('☺'),
        ("Wingdings", 0x6F) => Some('□'),
        ("Wingdings", 0x6C) => Some('●'),
        // Ballot boxes, the symbols check boxes use: empty, with a check, with an X.
        ("Wingdings", 0xA8) | ("Wingdings 2", 0xA3) => Some('☐'),
        ("Wingdings", 0xFE) | ("Wingdings 2", 0x52) => Some('☑'),
        ("Wingdings", 0xFD) | ("Wingdings 2", 0x54) => Some('☒'),
        _ => None,
    };
    match mapped {
        Some(c) => c.to_string(),
        None => char::from_u32(code)
            .filter(|c| !c.is_control())
            .map(String::from)
            .unwrap_or_default(),
    }
}

/// Greek letters at their Symbol-font positions (the Latin letters' bytes).
fn greek(b: u32) -> Option<char> {
    const LOWER: &str = "αβχδεφγηιϕκλμνοπθρστυϖωξψζ";
    const UPPER: &str = "ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ";
    match b {
        0x41..=0x5A => UPPER.chars().nth((b - 0x41) as usize),
        0x61..=0x7A => LOWER.chars().nth((b - 0x61) as usize),
        _ => None,
    }
}

/// The mark of a `w:commentRangeStart` or `w:commentRangeEnd`.
fn comment_range_mark(el: Element<'_>) -> Option<Inline> {
    Some(Inline::CommentMark {
        id: el.attr(Ns::W, "id")?.to_owned(),
        mark: if el.name() == "commentRangeStart" {
            CommentMarkKind::Start
        } else {
            CommentMarkKind::End
        },
    })
}

/// Drops the space between neighbouring paragraphs of the same style where one of them
/// has `w:contextualSpacing` (ECMA-376 §17.3.1.9: a paragraph's own space before and
/// after is ignored next to a paragraph of its style; a table in between separates).
fn contextual_spacing(blocks: &mut [Block]) {
    for_each_paragraph_pair(blocks, |prev, next| {
        if prev.style_id != next.style_id {
            return;
        }
        if prev.format.contextual_spacing {
            prev.format.space_after = 0.0;
        }
        if next.format.contextual_spacing {
            next.format.space_before = 0.0;
        }
    });
}

/// Word's automatic spacing is left out between two items of the same list (numbering
/// instance), as list items in HTML have none between them: the upper one's automatic
/// space after and the lower one's automatic space before.
fn auto_spacing_in_lists(blocks: &mut [Block]) {
    for_each_paragraph_pair(blocks, |prev, next| {
        let same_list = matches!(
            (&prev.list, &next.list),
            (Some(a), Some(b)) if a.num_id == b.num_id
        );
        if !same_list {
            return;
        }
        if prev.format.auto_space_after {
            prev.format.space_after = 0.0;
        }
        if next.format.auto_space_before {
            next.format.space_before = 0.0;
        }
    });
}

/// Calls `f` on each two paragraphs that follow each other directly in `blocks` (a
/// table or a placeholder between them separates them).
fn for_each_paragraph_pair(
    blocks: &mut [Block],
    mut f: impl FnMut(&mut Paragraph, &mut Paragraph),
) {
    for i in 1..blocks.len() {
        let (before, after) = blocks.split_at_mut(i);
        if let (Some(Block::Paragraph(prev)), Some(Block::Paragraph(next))) =
            (before.last_mut(), after.first_mut())
        {
            f(prev, next);
        }
    }
}

/// Groups neighbouring paragraphs with the same borders into one box, as Word draws
/// them (ECMA-376 §17.3.1.7 `w:between`: the between line separates "paragraphs with
/// identical border settings"; the top line is drawn above the group and the bottom one
/// below it). The same indents are needed too, or the sides would not line up. The
/// space between two grouped paragraphs (the larger of the upper one's after and the
/// lower one's before, as margins meet in the viewer) moves into the upper one, where
/// the renderer draws it inside the box.
fn join_borders(blocks: &mut [Block]) {
    for_each_paragraph_pair(blocks, |prev, next| {
        let (a, b) = (&mut prev.format, &mut next.format);
        let drawn = |f: &ParagraphFormat| {
            [
                &f.borders.top,
                &f.borders.bottom,
                &f.borders.left,
                &f.borders.right,
            ]
            .into_iter()
            .flatten()
            .any(|b| b.style != "none")
        };
        if !drawn(a)
            || a.borders != b.borders
            || a.indent_left != b.indent_left
            || a.indent_right != b.indent_right
        {
            return;
        }
        a.border_joined_below = true;
        b.border_joined_above = true;
        a.space_after = a.space_after.max(b.space_before);
        b.space_before = 0.0;
    });
}

/// Most columns a section keeps; more is a broken file (Word allows 45 on the widest
/// paper, but its columns would be narrower than a letter).
const MAX_COLUMNS: u16 = 16;

/// Reads `w:cols` into `page` (count, space, separator) and returns the widths of
/// unequal columns. Unequal columns are the `w:col` children unless `w:equalWidth` is on
/// (ECMA-376 §17.6.4: the children are ignored then); their count wins over `w:num`.
fn read_columns(cols: Element<'_>, page: &mut PageSetup) -> Vec<super::model::ColumnWidth> {
    let space = |el: Element<'_>| {
        el.attr(Ns::W, "space")
            .and_then(twips)
            .filter(|s| s.is_finite() && *s >= 0.0)
    };
    if let Some(n) = cols
        .attr(Ns::W, "num")
        .and_then(|n| n.trim().parse::<u16>().ok())
    {
        page.columns = n.clamp(1, MAX_COLUMNS);
    }
    if let Some(s) = space(cols) {
        page.column_space = s.min(page.width);
    }
    page.column_separator = cols
        .attr(Ns::W, "sep")
        .is_some_and(|v| matches!(v, "1" | "true" | "on"));
    let equal = cols
        .attr(Ns::W, "equalWidth")
        .is_none_or(|v| matches!(v, "1" | "true" | "on"));
    if equal {
        return Vec::new();
    }
    let widths: Vec<_> = cols
        .children_named(Ns::W, "col")
        .take(usize::from(MAX_COLUMNS))
        .map(|c| super::model::ColumnWidth {
            width: c
                .attr(Ns::W, "w")
                .and_then(twips)
                .filter(|w| w.is_finite() && *w > 0.0)
                .unwrap_or(0.0)
                .min(page.width),
            space: space(c).unwrap_or(0.0).min(page.width),
        })
        .collect();
    if widths.len() < 2 || widths.iter().any(|c| c.width <= 0.0) {
        // Nothing usable: the section keeps `w:num` equal columns.
        return Vec::new();
    }
    page.columns = widths.len() as u16;
    widths
}

/// The line pitch of a `w:docGrid` whose lines snap to it, in points.
fn line_pitch(grid: Element<'_>) -> Option<f32> {
    if !matches!(
        grid.attr(Ns::W, "type"),
        Some("lines" | "linesAndChars" | "snapToChars")
    ) {
        return None;
    }
    grid.attr(Ns::W, "linePitch")
        .and_then(twips)
        .filter(|p| p.is_finite() && (1.0..=720.0).contains(p))
}

/// The size Word gives text that no default and no style sizes, in points.
const WORD_DEFAULT_SIZE: f32 = 10.0;

/// Word's automatic paragraph spacing (`w:beforeAutospacing`, `w:afterAutospacing`):
/// 14 pt, the spacing of paragraphs in HTML that Word gives imported web pages.
const AUTO_SPACING: f32 = 14.0;

/// Paragraph layout from merged properties.
fn paragraph_format(p: &PPr) -> ParagraphFormat {
    ParagraphFormat {
        align: p.align.unwrap_or_default(),
        indent_left: p.indent_left.unwrap_or(0.0),
        indent_right: p.indent_right.unwrap_or(0.0),
        indent_first_line: p.indent_first_line.unwrap_or(0.0),
        space_before: if p.auto_before == Some(true) {
            AUTO_SPACING
        } else {
            p.space_before.unwrap_or(0.0)
        },
        space_after: if p.auto_after == Some(true) {
            AUTO_SPACING
        } else {
            p.space_after.unwrap_or(0.0)
        },
        auto_space_before: p.auto_before == Some(true),
        auto_space_after: p.auto_after == Some(true),
        line_spacing: p.line_spacing,
        page_break_before: p.page_break_before.unwrap_or(false),
        keep_next: p.keep_next.unwrap_or(false),
        keep_lines: p.keep_lines.unwrap_or(false),
        bidi: p.bidi.unwrap_or(false),
        contextual_spacing: p.contextual_spacing.unwrap_or(false),
        no_grid_snap: p.snap_to_grid == Some(false),
        shading: p.shading.flatten(),
        borders: p.borders.clone(),
        // Set by `join_borders` once the neighbours are known.
        border_joined_above: false,
        border_joined_below: false,
        tabs: {
            let mut tabs = p.tabs.clone();
            tabs.sort_by(|a, b| a.position.total_cmp(&b.position));
            tabs
        },
    }
}

/// Reads a length attribute in twips, for helpers in sibling modules.
pub(super) fn twips_attr(el: Element<'_>, name: &str) -> Option<f32> {
    el.attr(Ns::W, name).and_then(twips)
}

/// Reads a plain number attribute, for helpers in sibling modules.
pub(super) fn number_attr(el: Element<'_>, name: &str) -> Option<f32> {
    el.attr(Ns::W, name).and_then(number)
}
